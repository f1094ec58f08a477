// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The responder of an RC or UC QP on the wire (IBTA 9.7.5.1, 9.8.3): the
 * requests that arrive, in PSN order, from the context's next_rcv_psn.
 *
 * RC.  A request at the expected PSN is executed:
 *
 *   SEND           its packets fill the receive WQE its first took (none
 *                  posted: an RNR NAK with the QP's min_rnr_nak timer,
 *                  and the PSN stays); each but the last a full path MTU;
 *                  the last completes it (RESP_SEND, _IMM, or _INV once
 *                  the window its IETH names is invalidated);
 *   RDMA WRITE     the RETH's range, checked whole at the first packet
 *                  (the QP's rwe, the key's remote write, its PD and
 *                  range), each packet at its place; with immediate, the
 *                  last takes a receive WQE (RESP_WR_IMM);
 *   RDMA READ      the RETH's range checked (rre, remote read), then
 *                  answered with READ responses, one PSN each, cut by
 *                  the path MTU;
 *   atomics        8 aligned bytes (rae, atomic right) in host byte
 *                  order, as on the loopback; answered by an atomic ACK
 *                  with the original value.
 *
 * READ responses and atomic ACKs are owed in order (SIM_RCW_RESPONSES at
 * most, and the context's log_rra_max); an ACK a later request asks for
 * waits behind them, since it acknowledges all before it.  The worker
 * sends what the receive path has not (a long READ goes out in turns).
 * A SEND or WRITE whose last packet asks for it is ACKed with the MSN.
 *
 * A request past the expected PSN: a PSN sequence error NAK, once until
 * the expected one comes.  Before it, a duplicate: a READ is answered
 * again, an atomic with the value it had (the last one is kept), a SEND
 * or WRITE re-ACKed; nothing is executed twice.
 *
 * What the responder cannot do is NAKed as on the loopback, and takes it
 * to ERR: a key, right or range that refuses (remote access; with no
 * receive WQE to say it, a WQ access error event), an opcode out of
 * sequence, a packet of the wrong size, a message longer than its
 * receive WQE or its RETH (invalid request; a WQ invalid request event,
 * or the receive WQE's LOC_LEN), a receive WQE whose own keys refuse
 * (remote operational error; the receive WQE's LOC_PROT).
 *
 * XRC.  A target takes the requests of RC, each for the XRC SRQ its
 * XRCETH names, which must be of the target's XRC domain (else an
 * invalid request); it receives there and answers as RC does.
 *
 * UC.  The same packets, without answers: a PSN gap drops the message in
 * progress, and so does whatever the responder cannot take; the QP stays
 * in RTS and nothing completes, as on the loopback.
 */
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "rcw.h"
#include "wqe.h"

#define F(x)	SIM_RCW_F_##x

/* Bytes of READ responses one turn sends, and what counts as a WQE. */
#define SIM_RCW_DRAIN_BYTES	(256 * 1024)
#define SIM_RCW_UNIT_BYTES	(64 * 1024)

static struct sim_rcw_resp *sim_rcw_rs(struct sim_rcw *r, unsigned int i)
{
	return &r->rs[(r->rs_head + i) % SIM_RCW_RESPONSES];
}

static void sim_rcw_set_epsn(struct sim_qp *qp, u32 psn)
{
	PRM_SET(qpc, qp->qpc, next_rcv_psn, sim_rcw_psn(psn));
}

/*
 * The responder cannot do what the packet at @psn asks: RC NAKs it with
 * @nak and goes to ERR, completing the receive WQE it holds with
 * @recv_synd (0: none, @event is raised instead); UC drops the message.
 */
static void sim_rcw_refuse(struct sim_dp *dp, struct sim_qp *qp, bool uc,
			   u32 psn, u8 nak, u32 recv_synd, unsigned int event)
{
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_cqe_info info = {};

	r->rx_op = 0;
	if (uc) {
		r->rx_drop = true;
		return;
	}
	if (recv_synd) {
		info.opcode = SIM_CQE_RESP_ERR;
		info.syndrome = recv_synd;
		info.wqe_counter = r->rx_wqe;
		sim_rq_done(qp);
		sim_rc_cqe(dp->sim, qp, false, &info);
	} else if (event) {
		sim_event_emit(dp->sim, event, SIM_OBJ_QP, qp->q.obj.id, 0);
	}
	dp->wire.rcw_naks++;
	if (nak == SIM_RCW_NAK_ACCESS)
		sim_qp_count(dp->sim, qp, SIM_QC_RESP_REMOTE_ACCESS_ERRORS);
	sim_rcw_aeth(dp, qp, psn, SIM_RCW_AETH_NAK | nak);
	PRM_SET(qpc, qp->qpc, state, SIM_QP_ST(ERR));
	r->rs_n = 0;
	sim_dp_kick(dp->sim);
}

/* An ACK the packet at @psn asked for: now, or behind the responses. */
static void sim_rcw_ack(struct sim_dp *dp, struct sim_qp *qp, u32 psn)
{
	struct sim_rcw *r = &qp->dp.rcw;

	if (r->rs_n)
		r->ack_owed = true;
	else
		sim_rcw_aeth(dp, qp, psn, SIM_RCW_AETH_ACK);
}

/*
 * No receive WQE for the request at @psn: an RNR NAK, with the QP's
 * timer; what follows it is dropped unanswered until it comes again.
 */
static void sim_rcw_rnr_nak(struct sim_dp *dp, struct sim_qp *qp, u32 psn)
{
	qp->dp.rcw.nak_sent = true;
	dp->wire.rcw_naks++;
	sim_qp_count(dp->sim, qp, SIM_QC_OUT_OF_BUFFER);
	sim_rcw_aeth(dp, qp, psn, SIM_RCW_AETH_RNR |
		     PRM_GET(qpc, qp->qpc, min_rnr_nak));
}

/* The payload of a SEND packet, into the receive WQE the message took. */
static bool sim_rcw_send_rx(struct sim_dp *dp, struct sim_qp *qp, bool uc,
			    const struct sim_roce_ud *u,
			    const struct sim_rcw_pkt *pk)
{
	struct sim_rc_side *dst = &dp->rc_dst, *src = &dp->rc_src;
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_cqe_info info = {};
	u64 room = 0;
	unsigned int i;
	u32 synd;

	if (pk->flags & F(FIRST)) {
		if (!sim_rq_take(dp->sim, qp, &r->rx_wqe)) {
			if (uc) {
				r->rx_drop = true;
				return false;
			}
			sim_rcw_rnr_nak(dp, qp, u->psn);
			return false;
		}
		r->rx_op = SIM_RCW_RX_SEND;
		r->rx_off = 0;
	}
	synd = sim_rc_recv_wqe(dp, qp, dst);
	if (synd) {
		sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_OP, synd, 0);
		return false;
	}
	for (i = 0; i < dst->n; i++)
		room += dst->p[i].len;
	if (r->rx_off + pk->len > room) {
		sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_INV_REQ,
			       SIM_CQE_SYND_LOCAL_LENGTH, 0);
		return false;
	}
	/* the first piece stands for the bytes the message had before */
	src->n = 2;
	src->p[0] = (struct sim_rc_piece){ .inl = pk->data, .len = r->rx_off };
	src->p[1] = (struct sim_rc_piece){ .inl = pk->data, .len = pk->len };
	if (sim_rc_copy(dp, src, dst, r->rx_off, pk->len)) {
		sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_OP,
			       SIM_CQE_SYND_LOCAL_PROT, 0);
		return false;
	}
	r->rx_off += pk->len;
	if (!(pk->flags & F(LAST)))
		return true;
	info.opcode = SIM_CQE_RESP_SEND;
	if (pk->flags & F(IMM))
		info.opcode = SIM_CQE_RESP_SEND_IMM;
	if (pk->flags & F(IETH)) {
		/* the window it names is invalidated first (dp_umr.c) */
		if (!sim_dp_mw_invalidate(dp->sim, qp, be32_to_cpu(pk->imm))) {
			sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_INV_REQ,
				       SIM_CQE_SYND_LOCAL_PROT, 0);
			return false;
		}
		info.opcode = SIM_CQE_RESP_SEND_INV;
	}
	info.wqe_counter = r->rx_wqe;
	info.byte_cnt = r->rx_off;
	info.imm = pk->imm;
	info.solicited = u->se;
	sim_rq_done(qp);
	sim_rc_cqe(dp->sim, qp, false, &info);
	return true;
}

/* An RDMA WRITE packet, at its place in the RETH's range. */
static bool sim_rcw_write_rx(struct sim_dp *dp, struct sim_qp *qp, bool uc,
			     const struct sim_roce_ud *u,
			     const struct sim_rcw_pkt *pk)
{
	struct sim_rc_side *dst = &dp->rc_dst, *src = &dp->rc_src;
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_cqe_info info = {};
	bool last = pk->flags & F(LAST);

	if (pk->flags & F(FIRST)) {
		if (!PRM_GET(qpc, qp->qpc, rwe) ||
		    !sim_rc_remote(dp->sim, qp, pk->rkey, pk->va, pk->dma_len,
				    SIM_MKEY_REMOTE_WRITE, dst)) {
			sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_ACCESS,
				       0, SIM_EV_WQ_ACCESS_ERROR);
			return false;
		}
		r->rx_op = SIM_RCW_RX_WRITE;
		r->rx_off = 0;
		r->wr_va = pk->va;
		r->wr_rkey = pk->rkey;
		r->wr_len = pk->dma_len;
	}
	if (r->rx_off + pk->len > r->wr_len ||
	    (last && r->rx_off + pk->len != r->wr_len)) {
		sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_INV_REQ, 0,
			       SIM_EV_WQ_INVAL_REQ_ERROR);
		return false;
	}
	/* with immediate, a receive WQE must be there before a byte lands */
	if (last && (pk->flags & F(IMM)) &&
	    !sim_rq_take(dp->sim, qp, &r->rx_wqe)) {
		if (uc) {
			r->rx_drop = true;
			return false;
		}
		sim_rcw_rnr_nak(dp, qp, u->psn);
		return false;
	}
	src->n = 1;
	src->p[0] = (struct sim_rc_piece){ .inl = pk->data, .len = pk->len };
	if (pk->len &&
	    (!sim_rc_remote(dp->sim, qp, r->wr_rkey, r->wr_va + r->rx_off,
			     pk->len, SIM_MKEY_REMOTE_WRITE, dst) ||
	     sim_rc_copy(dp, src, dst, 0, pk->len))) {
		sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_ACCESS, 0,
			       SIM_EV_WQ_ACCESS_ERROR);
		return false;
	}
	r->rx_off += pk->len;
	if (!last || !(pk->flags & F(IMM)))
		return true;
	info.opcode = SIM_CQE_RESP_WR_IMM;
	info.wqe_counter = r->rx_wqe;
	info.byte_cnt = r->wr_len;
	info.imm = pk->imm;
	info.solicited = u->se;
	sim_rq_done(qp);
	sim_rc_cqe(dp->sim, qp, false, &info);
	return true;
}

/* A SEND or RDMA WRITE packet at the expected PSN. */
static void sim_rcw_data_rx(struct sim_dp *dp, struct sim_qp *qp, bool uc,
			    const struct sim_roce_ud *u,
			    const struct sim_rcw_pkt *pk)
{
	struct sim_rcw *r = &qp->dp.rcw;
	u8 kind = pk->flags & F(SEND) ? SIM_RCW_RX_SEND : SIM_RCW_RX_WRITE;
	bool first = pk->flags & F(FIRST), last = pk->flags & F(LAST);
	u32 pmtu = sim_rcw_pmtu(qp);
	bool done;

	if (first) {
		r->rx_drop = false;
	} else if (uc && (r->rx_drop || r->rx_op != kind)) {
		/* UC: the rest of a message whose start was lost */
		r->rx_drop = true;
		sim_rcw_set_epsn(qp, u->psn + 1);
		return;
	}
	/* in sequence, each packet but the last a full MTU */
	if ((first ? r->rx_op != 0 && !uc : r->rx_op != kind) ||
	    pk->len > pmtu || (!last && pk->len != pmtu)) {
		sim_rcw_refuse(dp, qp, uc, u->psn, SIM_RCW_NAK_INV_REQ, 0,
			       SIM_EV_WQ_INVAL_REQ_ERROR);
		if (uc)
			sim_rcw_set_epsn(qp, u->psn + 1);
		return;
	}
	done = kind == SIM_RCW_RX_SEND ? sim_rcw_send_rx(dp, qp, uc, u, pk) :
					 sim_rcw_write_rx(dp, qp, uc, u, pk);
	if (!done) {
		/* an RNR NAK keeps the PSN; UC goes on past what it lost */
		if (uc)
			sim_rcw_set_epsn(qp, u->psn + 1);
		return;
	}
	sim_rcw_set_epsn(qp, u->psn + 1);
	if (last) {
		r->rx_op = 0;
		r->msn++;
		qp->dp.messages++;
	}
	if (u->ackreq && !uc)
		sim_rcw_ack(dp, qp, u->psn);
}

/* A READ or atomic owed: queued behind the others. */
static bool sim_rcw_owe(struct sim_qp *qp, const struct sim_rcw_resp *rs)
{
	struct sim_rcw *r = &qp->dp.rcw;
	u32 max = min_t(u32, SIM_RCW_RESPONSES,
			BIT(PRM_GET(qpc, qp->qpc, log_rra_max)));

	if (r->rs_n >= max)
		return false;
	*sim_rcw_rs(r, r->rs_n++) = *rs;
	return true;
}

/* Whether a READ request may be answered: its range and rights. */
static bool sim_rcw_read_ok(struct sim_dp *dp, struct sim_qp *qp,
			    const struct sim_rcw_pkt *pk)
{
	return PRM_GET(qpc, qp->qpc, rre) &&
	       sim_rc_remote(dp->sim, qp, pk->rkey, pk->va, pk->dma_len,
			      SIM_MKEY_REMOTE_READ, &dp->rc_src);
}

/* A READ request at the expected PSN. */
static void sim_rcw_read_req(struct sim_dp *dp, struct sim_qp *qp,
			     const struct sim_roce_ud *u,
			     const struct sim_rcw_pkt *pk)
{
	struct sim_rcw_resp rs = {
		.psn = u->psn, .va = pk->va, .rkey = pk->rkey,
		.len = pk->dma_len,
	};
	u32 pmtu = sim_rcw_pmtu(qp);

	if (!sim_rcw_read_ok(dp, qp, pk)) {
		sim_rcw_refuse(dp, qp, false, u->psn, SIM_RCW_NAK_ACCESS, 0,
			       SIM_EV_WQ_ACCESS_ERROR);
		return;
	}
	if (!sim_rcw_owe(qp, &rs)) {
		sim_rcw_refuse(dp, qp, false, u->psn, SIM_RCW_NAK_INV_REQ, 0,
			       SIM_EV_WQ_INVAL_REQ_ERROR);
		return;
	}
	sim_rcw_set_epsn(qp, u->psn + max_t(u32, 1,
					    DIV_ROUND_UP(pk->dma_len, pmtu)));
	qp->dp.rcw.msn++;
	qp->dp.messages++;
}

/* An atomic at the expected PSN: executed, its answer owed. */
static void sim_rcw_atomic_req(struct sim_dp *dp, struct sim_qp *qp,
			       const struct sim_roce_ud *u,
			       const struct sim_rcw_pkt *pk)
{
	struct sim_rc_side *rem = &dp->rc_src;
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_rcw_resp rs = { .psn = u->psn, .atomic = true };
	u64 orig, val;

	if (pk->va & (sizeof(u64) - 1)) {
		sim_rcw_refuse(dp, qp, false, u->psn, SIM_RCW_NAK_INV_REQ, 0,
			       SIM_EV_WQ_INVAL_REQ_ERROR);
		return;
	}
	/* the 8 bytes on one direct mkey, as on the loopback */
	if (!PRM_GET(qpc, qp->qpc, rae) ||
	    !sim_rc_remote(dp->sim, qp, pk->rkey, pk->va, sizeof(u64),
			    SIM_MKEY_ATOMIC, rem) ||
	    rem->n != 1 || rem->p[0].len != sizeof(u64) || !rem->p[0].umem ||
	    !sim_umem_io(rem->p[0].umem, rem->p[0].off, &orig, sizeof(orig),
			 false)) {
		sim_rcw_refuse(dp, qp, false, u->psn, SIM_RCW_NAK_ACCESS, 0,
			       SIM_EV_WQ_ACCESS_ERROR);
		return;
	}
	rs.orig = orig;
	if (!sim_rcw_owe(qp, &rs)) {
		sim_rcw_refuse(dp, qp, false, u->psn, SIM_RCW_NAK_INV_REQ, 0,
			       SIM_EV_WQ_INVAL_REQ_ERROR);
		return;
	}
	if (u->opcode == SIM_RCW_FETCH_ADD)
		val = orig + pk->swap_add;
	else
		val = orig == pk->compare ? pk->swap_add : orig;
	if (val != orig)
		sim_umem_io(rem->p[0].umem, rem->p[0].off, &val, sizeof(val),
			    true);
	r->at_psn = u->psn;
	r->at_orig = orig;
	r->at_valid = true;
	sim_rcw_set_epsn(qp, u->psn + 1);
	r->msn++;
	qp->dp.messages++;
}

/* Forget the responses owed from PSN @psn on: a duplicate restarts them. */
static void sim_rcw_forget_from(struct sim_rcw *r, u32 psn)
{
	while (r->rs_n &&
	       sim_rcw_psn_diff(sim_rcw_rs(r, r->rs_n - 1)->psn, psn) >= 0)
		r->rs_n--;
}

/* A duplicate request: answered again, executed no second time. */
static void sim_rcw_dup_rx(struct sim_dp *dp, struct sim_qp *qp,
			   const struct sim_roce_ud *u,
			   const struct sim_rcw_pkt *pk)
{
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_rcw_resp rs = { .psn = u->psn };
	u32 epsn = PRM_GET(qpc, qp->qpc, next_rcv_psn);

	dp->wire.rcw_dups++;
	sim_qp_count(dp->sim, qp, SIM_QC_DUPLICATE_REQUEST);
	if (pk->flags & F(READ)) {
		if (!sim_rcw_read_ok(dp, qp, pk))
			return;
		sim_rcw_forget_from(r, u->psn);
		rs.va = pk->va;
		rs.rkey = pk->rkey;
		rs.len = pk->dma_len;
		sim_rcw_owe(qp, &rs);
	} else if (pk->flags & F(ATOMIC)) {
		if (!r->at_valid || r->at_psn != u->psn)
			return;
		sim_rcw_forget_from(r, u->psn);
		rs.atomic = true;
		rs.orig = r->at_orig;
		sim_rcw_owe(qp, &rs);
	} else if (u->ackreq) {
		sim_rcw_ack(dp, qp, epsn - 1);
	}
}

/**
 * sim_rcw_resp_rx() - a request to the responder of a QP on the wire
 * @dp: the data path, the model's lock held
 * @qp: the responder
 * @u: the packet, parsed to its BTH
 * @pk: its extended headers and payload
 */
void sim_rcw_resp_rx(struct sim_dp *dp, struct sim_qp *qp,
		     const struct sim_roce_ud *u, const struct sim_rcw_pkt *pk)
{
	u32 epsn = PRM_GET(qpc, qp->qpc, next_rcv_psn);
	bool uc = pk->flags & F(UC);
	struct sim_rcw *r = &qp->dp.rcw;
	s32 d = sim_rcw_psn_diff(u->psn, epsn);

	if (uc) {
		/* a gap loses the message in progress; the past is gone */
		if (d < 0)
			return;
		if (d > 0) {
			r->rx_drop = true;
			r->rx_op = 0;
		}
		sim_rcw_data_rx(dp, qp, true, u, pk);
		return;
	}
	if (d > 0) {
		sim_qp_count(dp->sim, qp, SIM_QC_OUT_OF_SEQUENCE);
		if (!r->nak_sent) {
			r->nak_sent = true;
			dp->wire.rcw_naks++;
			sim_rcw_aeth(dp, qp, epsn,
				     SIM_RCW_AETH_NAK | SIM_RCW_NAK_SEQ);
		}
		return;
	}
	/* an XRC target serves the XRC SRQ the request names (dp_xrc.c) */
	if (sim_dp_xrc_tgt(qp) &&
	    sim_dp_xrc_target(dp->sim, qp, pk->xrc_srqn)) {
		if (!d)
			sim_rcw_refuse(dp, qp, false, u->psn,
				       SIM_RCW_NAK_INV_REQ, 0,
				       SIM_EV_WQ_INVAL_REQ_ERROR);
		return;
	}
	if (d < 0) {
		sim_rcw_dup_rx(dp, qp, u, pk);
		sim_rcw_drain(dp, qp, 1);
		return;
	}
	r->nak_sent = false;
	sim_qp_count_rx_pkt(dp->sim, qp, pk->flags);
	if (pk->flags & F(READ))
		sim_rcw_read_req(dp, qp, u, pk);
	else if (pk->flags & F(ATOMIC))
		sim_rcw_atomic_req(dp, qp, u, pk);
	else
		sim_rcw_data_rx(dp, qp, false, u, pk);
	sim_rcw_drain(dp, qp, 1);
}

/* Send what is left of READ @rs, within @bytes; returns the bytes sent. */
static u32 sim_rcw_read_out(struct sim_dp *dp, struct sim_qp *qp,
			    struct sim_rcw_resp *rs, u32 bytes)
{
	u32 pmtu = sim_rcw_pmtu(qp), n, sent = 0, k;
	bool first, last;
	u8 ext[SIM_RCW_AETH], op;

	sim_rcw_put_aeth(ext, qp, SIM_RCW_AETH_ACK);
	do {
		k = rs->off / pmtu;
		n = min(rs->len - rs->off, pmtu);
		first = !rs->off;
		last = rs->off + n >= rs->len;
		op = first && last ? SIM_RCW_READ_ONLY :
		     first ? SIM_RCW_READ_FIRST :
		     last ? SIM_RCW_READ_LAST : SIM_RCW_READ_MIDDLE;
		if (n && !sim_rc_remote(dp->sim, qp, rs->rkey, rs->va + rs->off, n,
					 SIM_MKEY_REMOTE_READ, &dp->rc_src))
			return U32_MAX;
		if (!sim_rcw_emit(dp, qp, op, sim_rcw_psn(rs->psn + k), false,
				  false, ext, op == SIM_RCW_READ_MIDDLE ? 0 :
				  SIM_RCW_AETH, &dp->rc_src, 0, n))
			return U32_MAX;
		rs->off += n;
		sent += n;
	} while (rs->off < rs->len && sent < bytes);
	return sent;
}

/**
 * sim_rcw_drain() - send the READ responses and atomic ACKs owed
 * @dp: the data path, the model's lock held
 * @qp: the responder
 * @budget: work it may do, in WQEs (a READ's bytes count too)
 *
 * Then, once nothing is owed, the ACK that waited behind them.
 *
 * Return: the work done.
 */
unsigned int sim_rcw_drain(struct sim_dp *dp, struct sim_qp *qp,
			   unsigned int budget)
{
	struct sim_rcw *r = &qp->dp.rcw;
	unsigned int done = 0;
	struct sim_rcw_resp *rs;
	u8 ext[SIM_RCW_AETH + SIM_RCW_ATOMICACKETH];
	u32 sent;

	while (r->rs_n && done < budget) {
		rs = sim_rcw_rs(r, 0);
		if (rs->atomic) {
			sim_rcw_put_aeth(ext, qp, SIM_RCW_AETH_ACK);
			sim_rcw_put64(ext + SIM_RCW_AETH, rs->orig);
			sim_rcw_emit(dp, qp, SIM_RCW_ATOMIC_ACK, rs->psn, false,
				     false, ext, sizeof(ext), NULL, 0, 0);
			done++;
		} else {
			sent = sim_rcw_read_out(dp, qp, rs,
						SIM_RCW_DRAIN_BYTES);
			if (sent == U32_MAX) {
				/* its key went away meanwhile */
				sim_rcw_refuse(dp, qp, false, rs->psn,
					       SIM_RCW_NAK_ACCESS, 0,
					       SIM_EV_WQ_ACCESS_ERROR);
				return done + 1;
			}
			done += 1 + sent / SIM_RCW_UNIT_BYTES;
			if (rs->off < rs->len)
				break;
		}
		r->rs_head = (r->rs_head + 1) % SIM_RCW_RESPONSES;
		r->rs_n--;
	}
	/* what is left goes out in the worker's turns */
	if (r->rs_n)
		sim_dp_kick(dp->sim);
	if (!r->rs_n && r->ack_owed) {
		r->ack_owed = false;
		sim_rcw_aeth(dp, qp, PRM_GET(qpc, qp->qpc, next_rcv_psn) - 1,
			     SIM_RCW_AETH_ACK);
	}
	return done;
}
