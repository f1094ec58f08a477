// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the requester of an RC QP on the wire receives: ACKs and NAKs,
 * READ responses, atomic ACKs (IBTA 9.7.5.2, the requester's side).
 *
 * Each names a PSN.  An ACK completes every WQE in flight whose last PSN
 * it reaches (the responder acknowledges in order, so one ACK stands for
 * all before it); one that reaches past a READ or an atomic whose
 * response never came means that response was lost: the requester goes
 * back to it.  A NAK, an RNR NAK, a READ response or an atomic ACK also
 * completes the WQEs wholly before its PSN, then concerns the WQE its
 * PSN falls in:
 *
 *   PSN sequence error   it and what follows are sent again, a SEND or
 *                        RDMA WRITE from the packet of the NAK's PSN;
 *   RNR NAK              the same, after the responder's timer, up to
 *                        rnr_retry times (7: without end), then
 *                        RNR_RETRY_EXC;
 *   invalid request,     it completes with REM_INV_REQ, REM_ACCESS or
 *   remote access,       REM_OP; the QP goes to ERR, where what follows
 *   remote operational   it is flushed;
 *   READ response        its payload lands in the WQE's local segments
 *                        at its place in the message (the response's
 *                        PSN); responses come in order, a gap sends
 *                        the READ again; the last completes it;
 *   atomic ACK           the original value lands in its local segment
 *                        (in host byte order); it completes.
 *
 * A response to no WQE in flight (late, duplicated, or stale) is
 * dropped.  Every step forward starts the ACK timer again.
 */
#include <linux/ktime.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "rcw.h"
#include "wqe.h"

/* rnr_retry 7: retry without end */
#define SIM_RCW_RNR_FOREVER	7

static struct sim_rcw_wqe *sim_rcw_head(struct sim_rcw *r)
{
	return &r->fl[r->fl_head];
}

static u32 sim_rcw_last_psn(const struct sim_rcw_wqe *e)
{
	return sim_rcw_psn(e->psn + e->npsn - 1);
}

static bool sim_rcw_is_req(const struct sim_rcw_wqe *e)
{
	return e->opcode == SIM_OPCODE_RDMA_READ ||
	       e->opcode == SIM_OPCODE_ATOMIC_CS ||
	       e->opcode == SIM_OPCODE_ATOMIC_FA;
}

/*
 * A response to the oldest WQE was lost (a later one came): it is sent
 * again, once for the loss; the ACK timer covers a second one.
 */
static void sim_rcw_recover(struct sim_dp *dp, struct sim_qp *qp)
{
	struct sim_rcw *r = &qp->dp.rcw;

	if (r->recovering)
		return;
	r->recovering = true;
	sim_rcw_rewind(dp, qp, 0);
}

/* What @psn acknowledges moves the oldest unacknowledged PSN on. */
static void sim_rcw_una(struct sim_rcw *r, u32 psn)
{
	if (sim_rcw_psn_diff(psn + 1, r->una) > 0)
		r->una = sim_rcw_psn(psn + 1);
}

/* The oldest WQE in flight completed: the requester stepped forward. */
static void sim_rcw_pop(struct sim_dp *dp, struct sim_qp *qp, u32 synd)
{
	struct sim_rcw *r = &qp->dp.rcw;

	sim_rcw_complete(dp, qp, sim_rcw_head(r), synd);
	sim_rcw_una(r, sim_rcw_last_psn(sim_rcw_head(r)));
	r->fl_head = (r->fl_head + 1) % SIM_RCW_INFLIGHT;
	r->fl_n--;
	r->rd_next = 0;
	r->retries = 0;
	r->recovering = false;
	qp->dp.rnr_tries = 0;
	sim_rcw_ack_timer(qp, true);
	sim_dp_kick(dp->sim);
}

/*
 * Complete the SENDs and RDMA WRITEs in flight that @psn acknowledges:
 * those whose last PSN is before it (@incl: or is it).  Returns false
 * when a READ or an atomic among them has had no response: the
 * requester went back to it.
 */
static bool sim_rcw_acked(struct sim_dp *dp, struct sim_qp *qp, u32 psn,
			  bool incl)
{
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_rcw_wqe *e;
	s32 d;

	while (r->fl_n) {
		e = sim_rcw_head(r);
		d = sim_rcw_psn_diff(psn, sim_rcw_last_psn(e));
		if (d < 0 || (!d && !incl))
			return true;
		if (sim_rcw_is_req(e)) {
			sim_rcw_recover(dp, qp);
			return false;
		}
		sim_rcw_pop(dp, qp, 0);
	}
	return true;
}

/* Whether @psn falls in the oldest WQE in flight. */
static bool sim_rcw_in_head(struct sim_rcw *r, u32 psn)
{
	struct sim_rcw_wqe *e = sim_rcw_head(r);
	s32 d = sim_rcw_psn_diff(psn, e->psn);

	return r->fl_n && d >= 0 && d < e->npsn;
}

/* An RNR NAK at @psn of the oldest WQE: wait the timer @code, then again. */
static void sim_rcw_rnr(struct sim_dp *dp, struct sim_qp *qp, u32 psn,
			u32 code)
{
	u32 retry = PRM_GET(qpc, qp->qpc, rnr_retry);

	if (retry != SIM_RCW_RNR_FOREVER && qp->dp.rnr_tries >= retry) {
		sim_rcw_fail(dp, qp, SIM_CQE_SYND_RNR_RETRY);
		return;
	}
	if (qp->dp.rnr_tries < U8_MAX)
		qp->dp.rnr_tries++;
	qp->dp.rnr_until = ktime_get_ns() + sim_rc_rnr_ns(code);
	sim_rcw_resume(dp, qp, psn);
	qp->dp.rcw.deadline = 0;
}

/* An ACK, RNR NAK or NAK. */
static void sim_rcw_aeth_rx(struct sim_dp *dp, struct sim_qp *qp, u32 psn,
			    u32 aeth)
{
	struct sim_rcw *r = &qp->dp.rcw;
	u8 synd = aeth >> 24;

	if ((synd & SIM_RCW_AETH_KIND) == SIM_RCW_AETH_ACK) {
		if (sim_rcw_acked(dp, qp, psn, true) && r->fl_n &&
		    sim_rcw_psn_diff(psn + 1, r->una) > 0) {
			/* a long message's ACK on its way: it moves on */
			sim_rcw_una(r, psn);
			r->retries = 0;
			sim_rcw_ack_timer(qp, true);
			sim_dp_kick(dp->sim);
		}
		return;
	}
	if (!sim_rcw_acked(dp, qp, psn, false) || !sim_rcw_in_head(r, psn))
		return;
	if ((synd & SIM_RCW_AETH_KIND) == SIM_RCW_AETH_RNR) {
		sim_rcw_rnr(dp, qp, psn, synd & 0x1f);
		return;
	}
	switch (synd) {
	case SIM_RCW_AETH_NAK | SIM_RCW_NAK_SEQ:
		/* what the responder missed is sent again, from its PSN */
		sim_qp_count(dp->sim, qp, SIM_QC_PACKET_SEQ_ERR);
		sim_rcw_resume(dp, qp, psn);
		break;
	case SIM_RCW_AETH_NAK | SIM_RCW_NAK_INV_REQ:
		sim_rcw_fail(dp, qp, SIM_CQE_SYND_REMOTE_INVAL_REQ);
		break;
	case SIM_RCW_AETH_NAK | SIM_RCW_NAK_ACCESS:
		sim_rcw_fail(dp, qp, SIM_CQE_SYND_REMOTE_ACCESS);
		break;
	default:
		sim_rcw_fail(dp, qp, SIM_CQE_SYND_REMOTE_OP);
		break;
	}
}

/* Whether a READ response's opcode is the one its place calls for. */
static bool sim_rcw_read_op_ok(u8 op, bool first, bool last)
{
	if (first && last)
		return op == SIM_RCW_READ_ONLY;
	if (first)
		return op == SIM_RCW_READ_FIRST;
	return op == (last ? SIM_RCW_READ_LAST : SIM_RCW_READ_MIDDLE);
}

/* A READ response for the oldest WQE, a READ. */
static void sim_rcw_read_rx(struct sim_dp *dp, struct sim_qp *qp,
			    const struct sim_roce_ud *u,
			    const struct sim_rcw_pkt *pk)
{
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_rcw_wqe *e = sim_rcw_head(r);
	struct sim_rc_side *src = &dp->rc_dst;
	u32 pmtu = sim_rcw_pmtu(qp), want, n;
	s32 k = sim_rcw_psn_diff(u->psn, e->psn);
	bool last;

	if (e->opcode != SIM_OPCODE_RDMA_READ)
		return;
	if (k != r->rd_next / pmtu) {
		/* a response was lost: the READ is asked for again */
		if (k > r->rd_next / pmtu)
			sim_rcw_recover(dp, qp);
		return;
	}
	want = min_t(u32, e->len - r->rd_next, pmtu);
	last = r->rd_next + want >= e->len;
	if (!sim_rcw_read_op_ok(u->opcode, !r->rd_next, last) ||
	    pk->len != want) {
		sim_rcw_fail(dp, qp, SIM_CQE_SYND_REMOTE_INVAL_REQ);
		return;
	}
	if (want) {
		if (!sim_rcw_wqe(dp, qp, e) ||
		    !sim_rc_resolve(dp->sim, qp->q.obj.uid, sim_qp_pdn(qp),
				    dp->rc.g, dp->rc.n, SIM_MKEY_LOCAL_WRITE,
				    &dp->rc_src)) {
			sim_rcw_fail(dp, qp, SIM_CQE_SYND_LOCAL_PROT);
			return;
		}
		/* the first piece stands for the bytes before this one's */
		n = r->rd_next;
		src->n = 2;
		src->p[0] = (struct sim_rc_piece){ .inl = pk->data, .len = n };
		src->p[1] = (struct sim_rc_piece){ .inl = pk->data,
						   .len = want };
		if (sim_rc_copy(dp, src, &dp->rc_src, n, want)) {
			sim_rcw_fail(dp, qp, SIM_CQE_SYND_LOCAL_PROT);
			return;
		}
	}
	r->rd_next += want;
	r->recovering = false;
	sim_rcw_una(r, u->psn);
	if (last) {
		sim_rcw_pop(dp, qp, 0);
		return;
	}
	r->retries = 0;
	sim_rcw_ack_timer(qp, true);
}

/* An atomic ACK for the oldest WQE, an atomic. */
static void sim_rcw_atomic_rx(struct sim_dp *dp, struct sim_qp *qp,
			      const struct sim_roce_ud *u,
			      const struct sim_rcw_pkt *pk)
{
	struct sim_rcw_wqe *e = sim_rcw_head(&qp->dp.rcw);
	struct sim_rc_side *loc = &dp->rc_src;
	u64 orig = pk->orig;

	if (!sim_rcw_is_req(e) || e->opcode == SIM_OPCODE_RDMA_READ ||
	    u->psn != e->psn)
		return;
	if (!sim_rcw_wqe(dp, qp, e) ||
	    !sim_rc_resolve(dp->sim, qp->q.obj.uid, sim_qp_pdn(qp), dp->rc.g,
			    dp->rc.n, SIM_MKEY_LOCAL_WRITE, loc) ||
	    loc->n != 1 || !loc->p[0].umem || loc->p[0].len < sizeof(orig) ||
	    !sim_umem_io(loc->p[0].umem, loc->p[0].off, &orig, sizeof(orig),
			 true)) {
		sim_rcw_fail(dp, qp, SIM_CQE_SYND_LOCAL_PROT);
		return;
	}
	sim_rcw_pop(dp, qp, 0);
}

/**
 * sim_rcw_req_rx() - a response to the requester of an RC QP on the wire
 * @dp: the data path, the model's lock held
 * @qp: the requester
 * @u: the packet, parsed to its BTH
 * @pk: its extended headers and payload
 */
void sim_rcw_req_rx(struct sim_dp *dp, struct sim_qp *qp,
		    const struct sim_roce_ud *u, const struct sim_rcw_pkt *pk)
{
	struct sim_rcw *r = &qp->dp.rcw;
	u32 state = sim_qp_state(qp);

	if (state != SIM_QP_ST(RTS) && state != SIM_QP_ST(SQD) &&
	    state != SIM_QPC_STATE_SQ_DRAINED)
		return;
	if (!r->fl_n)
		return;
	if (u->opcode == SIM_RCW_ACK) {
		sim_rcw_aeth_rx(dp, qp, u->psn, pk->aeth);
		return;
	}
	/* a READ response or an atomic ACK: for the WQE its PSN is in */
	if (!sim_rcw_acked(dp, qp, u->psn, false) || !sim_rcw_in_head(r, u->psn))
		return;
	if (u->opcode == SIM_RCW_ATOMIC_ACK)
		sim_rcw_atomic_rx(dp, qp, u, pk);
	else
		sim_rcw_read_rx(dp, qp, u, pk);
}
