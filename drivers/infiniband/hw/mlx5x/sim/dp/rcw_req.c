// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The requester of an RC or UC QP on the wire: its send WQEs go out as
 * packets, in order, one PSN each from the context's next_send_psn
 * (which ibv_query_qp() reports as the sq_psn).
 *
 * SEND and RDMA WRITE (with immediate, with invalidate) are cut by the
 * path MTU: FIRST, MIDDLE... LAST, or ONLY, each but the last a full MTU
 * of payload; an RDMA WRITE's first packet carries the RETH, the last the
 * immediate data or the R_Key to invalidate; the last asks for an ACK.
 * An RDMA READ is one request with a RETH, and takes a PSN for each
 * response packet it asks for; an atomic is one request with an
 * AtomicETH.  A long message goes out in turns of SIM_RCW_TURN_BYTES,
 * within the worker's bound on one hold of the model's lock.
 *
 * RC keeps each WQE sent in flight (struct sim_rcw) until its ACK, its
 * READ responses or its atomic ACK come (rcw_ack.c); the CQEs follow in
 * WQE order.  At most SIM_RCW_INFLIGHT WQEs are in flight, and at most
 * the context's log_sra_max READs and atomics.  The ACK timer (4.096 us
 * << the path's ack_timeout; 0: none, as the IBTA's infinite) restarts
 * on each step forward; when it runs out the requester goes back to the
 * oldest WQE in flight and sends again from there, retry_count times,
 * then completes it with a transport retry error.  A WQE that is not a
 * transport operation (NOP, UMR, SET_PSV), or one that fails locally,
 * waits until nothing is in flight, then is executed as on the loopback
 * (dp_rc.c), so that its CQE keeps its place.
 *
 * UC sends the same packets, SEND and RDMA WRITE only, and completes a
 * WQE once its last packet is out.
 */
#include <linux/ktime.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "rcw.h"
#include "wqe.h"

/* Bytes of a message one turn sends, and what counts as a WQE's work. */
#define SIM_RCW_TURN_BYTES	(256 * 1024)
#define SIM_RCW_UNIT_BYTES	(64 * 1024)
/* The longest ACK timeout waited for: 4.096 us << 20, 4.3 s. */
#define SIM_RCW_TIMEOUT_MAX	20U
/*
 * PSNs the requester sends ahead of the oldest one unacknowledged, and
 * how often, within a long message, it asks for an ACK (as rxe does).
 */
#define SIM_RCW_WINDOW		256
#define SIM_RCW_ACK_EVERY	64
/* The largest message: log_max_msg of the caps */
#define SIM_RCW_MAX_MSG		(1ULL << 30)

static struct sim_rcw_wqe *sim_rcw_fl(struct sim_rcw *r, unsigned int i)
{
	return &r->fl[(r->fl_head + i) % SIM_RCW_INFLIGHT];
}

/**
 * sim_rcw_ack_timer() - (re)start the ACK timer, or stop it
 * @qp: the requester
 * @restart: the requester stepped forward: the timer starts again
 */
void sim_rcw_ack_timer(struct sim_qp *qp, bool restart)
{
	u32 t = PRM_GET(qpc, qp->qpc, primary_address_path.ack_timeout);
	struct sim_rcw *r = &qp->dp.rcw;

	if (!r->fl_n || !t) {
		r->deadline = 0;
		return;
	}
	if (restart || !r->deadline)
		r->deadline = ktime_get_ns() +
			      (4096ULL << min(t, SIM_RCW_TIMEOUT_MAX));
}

/**
 * sim_rcw_complete() - a WQE sent completes
 * @dp: the data path
 * @qp: its QP
 * @e: the WQE
 * @synd: 0, or its error syndrome: the QP goes to ERR
 */
void sim_rcw_complete(struct sim_dp *dp, struct sim_qp *qp,
		      const struct sim_rcw_wqe *e, u32 synd)
{
	struct sim_cqe_info info = {
		.wqe_counter = e->index,
		.wqe_opcode = e->opcode,
	};

	if (!synd && !e->signalled)
		return;
	if (synd) {
		info.opcode = SIM_CQE_REQ_ERR;
		info.syndrome = synd;
		PRM_SET(qpc, qp->qpc, state, SIM_QP_ST(ERR));
		sim_dp_kick(dp->sim);
	} else {
		info.opcode = SIM_CQE_REQ;
		if (e->opcode == SIM_OPCODE_RDMA_READ)
			info.byte_cnt = e->len;
		else if (e->opcode == SIM_OPCODE_ATOMIC_CS ||
			 e->opcode == SIM_OPCODE_ATOMIC_FA)
			info.byte_cnt = sizeof(u64);
	}
	sim_rc_cqe(dp->sim, qp, true, &info);
}

/*
 * Put the SQ back on WQE @i in flight: it and those after it are taken
 * again from the ring.  False when there is no such WQE.
 */
static bool sim_rcw_back(struct sim_qp *qp, unsigned int i)
{
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_rcw_wqe *e;

	if (i >= r->fl_n)
		return false;
	e = sim_rcw_fl(r, i);
	qp->dp.sq_cc = e->bb;
	qp->dp.msg_off = 0;
	PRM_SET(qpc, qp->qpc, next_send_psn, e->psn);
	r->fl_n = i;
	if (!i) {
		r->rd_next = 0;
		r->una = e->psn;
	}
	return true;
}

/**
 * sim_rcw_rewind() - go back to a WQE in flight and send again from it
 * @dp: the data path
 * @qp: the requester
 * @i: which, counted from the oldest; it and those after it are sent
 *     again (in ERR: flushed)
 */
void sim_rcw_rewind(struct sim_dp *dp, struct sim_qp *qp, unsigned int i)
{
	if (!sim_rcw_back(qp, i))
		return;
	dp->wire.rcw_resends++;
	sim_dp_kick(dp->sim);
}

/**
 * sim_rcw_resume() - send again from a PSN of the oldest WQE in flight
 * @dp: the data path
 * @qp: the requester
 * @psn: the first PSN the responder has not taken
 *
 * A SEND or RDMA WRITE goes on from the packet of @psn (IBTA 9.7.5.2.2:
 * the responder kept where the message stands); anything else, and a
 * PSN at a WQE's start, is sent again whole.
 */
void sim_rcw_resume(struct sim_dp *dp, struct sim_qp *qp, u32 psn)
{
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_rcw_wqe *e;
	s32 k;

	if (!r->fl_n)
		return;
	e = sim_rcw_fl(r, 0);
	k = sim_rcw_psn_diff(psn, e->psn);
	if (k <= 0 || k >= e->npsn ||
	    e->opcode == SIM_OPCODE_RDMA_READ ||
	    e->opcode == SIM_OPCODE_ATOMIC_CS ||
	    e->opcode == SIM_OPCODE_ATOMIC_FA) {
		sim_rcw_rewind(dp, qp, 0);
		return;
	}
	qp->dp.sq_cc = e->bb;
	qp->dp.msg_off = (u64)k * sim_rcw_pmtu(qp);
	PRM_SET(qpc, qp->qpc, next_send_psn, e->psn);
	r->fl_n = 1;
	r->una = sim_rcw_psn(psn);
	dp->wire.rcw_resends++;
	sim_dp_kick(dp->sim);
}

/*
 * The WQE in flight at @i fails with @synd: those before it are flushed
 * first (their CQEs keep their order), those after it by the QP in ERR.
 */
static void sim_rcw_fail_at(struct sim_dp *dp, struct sim_qp *qp,
			    unsigned int i, u32 synd)
{
	struct sim_rcw *r = &qp->dp.rcw;
	struct sim_rcw_wqe *e = sim_rcw_fl(r, i);
	unsigned int k;

	for (k = 0; k < i; k++)
		sim_rcw_complete(dp, qp, sim_rcw_fl(r, k),
				 SIM_CQE_SYND_WR_FLUSH);
	sim_rcw_complete(dp, qp, e, synd);
	/* a message cut short in its sending is done with too */
	if (qp->dp.sq_cc == e->bb) {
		qp->dp.sq_cc += e->nbb;
		qp->dp.msg_off = 0;
	}
	r->fl_head = (r->fl_head + i + 1) % SIM_RCW_INFLIGHT;
	r->fl_n -= i + 1;
	/* the rest wait in the ring for ERR's flush: no resend */
	if (sim_rcw_back(qp, 0))
		sim_dp_kick(dp->sim);
	qp->dp.msg_off = 0;
	r->fl_n = 0;
	r->deadline = 0;
}

/**
 * sim_rcw_fail() - the oldest WQE in flight fails
 * @dp: the data path
 * @qp: the requester
 * @synd: its error syndrome
 */
void sim_rcw_fail(struct sim_dp *dp, struct sim_qp *qp, u32 synd)
{
	if (qp->dp.rcw.fl_n)
		sim_rcw_fail_at(dp, qp, 0, synd);
}

/**
 * sim_rcw_timer() - the ACK timer of a requester with WQEs in flight
 * @dp: the data path
 * @qp: the requester, in RTS
 *
 * When it has run out: the oldest WQE is sent again, with what follows
 * it, until retry_count retries; then it fails (transport retry).
 */
void sim_rcw_timer(struct sim_dp *dp, struct sim_qp *qp)
{
	struct sim_rcw *r = &qp->dp.rcw;

	if (!r->fl_n || !r->deadline || ktime_get_ns() < r->deadline)
		return;
	dp->wire.rcw_timeouts++;
	if (r->retries >= PRM_GET(qpc, qp->qpc, retry_count)) {
		sim_rcw_fail(dp, qp, SIM_CQE_SYND_TRANSPORT_RETRY);
		return;
	}
	r->retries++;
	r->deadline = 0;
	sim_rcw_rewind(dp, qp, 0);
}

/* READs and atomics in flight */
static unsigned int sim_rcw_reads(struct sim_rcw *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->fl_n; i++)
		if (sim_rcw_fl(r, i)->opcode >= SIM_OPCODE_RDMA_READ)
			n++;
	return n;
}

/* Parse the WQE read into dp->wqe, as its QP's transport lays it out. */
static int sim_rcw_parse(struct sim_dp *dp, const struct sim_qp *qp)
{
	if (sim_dp_xrc(qp))
		return sim_xrc_wqe_parse(dp->wqe, sizeof(dp->wqe), &dp->rc);
	return sim_rc_wqe_parse(dp->wqe, sizeof(dp->wqe), &dp->rc);
}

/*
 * The XRCETH of an XRC request of WQE @w, into @ext: the XRC SRQ it
 * names.  Returns its bytes (0 for another transport).
 */
static u32 sim_rcw_xrceth(const struct sim_qp *qp, const struct sim_rc_wqe *w,
			  u8 *ext)
{
	if (!sim_dp_xrc(qp))
		return 0;
	sim_rcw_put32(ext, w->xrc_srqn & SIM_RCW_PSN_MASK);
	return SIM_RCW_XRCETH;
}

/* The BTH opcode of packet @k of @last + 1 of send WQE @w (in RC's space). */
u8 sim_rcw_data_op(const struct sim_rc_wqe *w, u64 k, u64 last)
{
	bool wr = w->opcode == SIM_OPCODE_RDMA_WRITE ||
		  w->opcode == SIM_OPCODE_RDMA_WRITE_IMM;
	u8 op;

	if (k && k < last)
		return wr ? SIM_RCW_WRITE_MIDDLE : SIM_RCW_SEND_MIDDLE;
	if (!k && last)
		return wr ? SIM_RCW_WRITE_FIRST : SIM_RCW_SEND_FIRST;
	/* the last packet, or the only one */
	switch (w->opcode) {
	case SIM_OPCODE_RDMA_WRITE:
		op = SIM_RCW_WRITE_LAST;
		break;
	case SIM_OPCODE_RDMA_WRITE_IMM:
		op = SIM_RCW_WRITE_LAST_IMM;
		break;
	case SIM_OPCODE_SEND_IMM:
		op = SIM_RCW_SEND_LAST_IMM;
		break;
	case SIM_OPCODE_SEND_INVAL:
		op = SIM_RCW_SEND_LAST_INV;
		break;
	default:
		op = SIM_RCW_SEND_LAST;
		break;
	}
	if (k)
		return op;
	/* the only packet: each *_LAST* opcode's *_ONLY* form */
	return op == SIM_RCW_SEND_LAST_INV ? SIM_RCW_SEND_ONLY_INV : op + 2;
}

/* The RETH of RDMA WRITE or READ WQE @w into @ext. */
static u32 sim_rcw_reth(const struct sim_rc_wqe *w, u8 *ext)
{
	sim_rcw_put64(ext, w->raddr);
	sim_rcw_put32(ext + 8, w->rkey);
	sim_rcw_put32(ext + 12, w->len);
	return SIM_RCW_RETH;
}

/*
 * Packets of SEND or RDMA WRITE WQE dp->rc of @qp, from byte
 * qp->dp.msg_off, one turn's worth.  Returns the bytes sent, or -1 when
 * its memory refused.
 */
static s64 sim_rcw_send_data(struct sim_dp *dp, struct sim_qp *qp,
			     const struct sim_rcw_wqe *e, bool uc)
{
	const struct sim_rc_wqe *w = &dp->rc;
	u32 pmtu = sim_rcw_pmtu(qp), n, ext_len;
	u64 last = w->len ? (w->len - 1) / pmtu : 0, k, off;
	u8 ext[SIM_ROCE_EXT_MAX], op;
	s64 sent = 0;

	for (k = qp->dp.msg_off / pmtu; k <= last; k++) {
		if (sent >= SIM_RCW_TURN_BYTES)
			break;
		off = k * pmtu;
		n = min_t(u64, w->len - off, pmtu);
		op = sim_rcw_data_op(w, k, last);
		ext_len = sim_rcw_xrceth(qp, w, ext);
		if (sim_rcw_op(op) & SIM_RCW_F_RETH)
			ext_len += sim_rcw_reth(w, ext + ext_len);
		if (sim_rcw_op(op) & (SIM_RCW_F_IMM | SIM_RCW_F_IETH)) {
			memcpy(ext + ext_len, &w->imm, SIM_ROCE_IMM);
			ext_len += SIM_ROCE_IMM;
		}
		if (sim_rcw_psn_diff(e->psn + k, qp->dp.rcw.una) >=
		    SIM_RCW_WINDOW && !uc)
			break;
		if (!sim_rcw_emit(dp, qp, op, sim_rcw_psn(e->psn + k),
				  !uc && (k == last ||
					  k % SIM_RCW_ACK_EVERY ==
					  SIM_RCW_ACK_EVERY - 1),
				  k == last && w->solicited,
				  ext, ext_len, &dp->rc_src, off, n))
			return -1;
		sent += n;
	}
	return sent;
}

/* The request of READ or atomic WQE dp->rc. */
static void sim_rcw_send_req(struct sim_dp *dp, struct sim_qp *qp,
			     const struct sim_rcw_wqe *e)
{
	const struct sim_rc_wqe *w = &dp->rc;
	u8 ext[SIM_ROCE_EXT_MAX], *h = ext;

	h += sim_rcw_xrceth(qp, w, ext);
	if (w->opcode == SIM_OPCODE_RDMA_READ) {
		h += sim_rcw_reth(w, h);
		sim_rcw_emit(dp, qp, SIM_RCW_READ_REQ, e->psn, false, false,
			     ext, h - ext, NULL, 0, 0);
		return;
	}
	sim_rcw_put64(h, w->raddr);
	sim_rcw_put32(h + 8, w->rkey);
	sim_rcw_put64(h + 12, w->swap_add);
	sim_rcw_put64(h + 20, w->compare);
	h += SIM_RCW_ATOMICETH;
	sim_rcw_emit(dp, qp, w->opcode == SIM_OPCODE_ATOMIC_FA ?
		     SIM_RCW_FETCH_ADD : SIM_RCW_CMP_SWAP, e->psn, false, false,
		     ext, h - ext, NULL, 0, 0);
}

/* Whether the local memory of WQE dp->rc is what its operation needs. */
static bool sim_rcw_local(struct sim_dp *dp, struct sim_qp *qp)
{
	const struct sim_rc_wqe *w = &dp->rc;
	struct sim_rc_side *loc = &dp->rc_src;
	bool wr = w->opcode == SIM_OPCODE_RDMA_READ || w->atomic;

	if (!sim_rc_resolve(dp->sim, qp->q.obj.uid, sim_qp_pdn(qp), w->g,
			    w->n, wr ? SIM_MKEY_LOCAL_WRITE :
			    SIM_MKEY_LOCAL_READ, loc))
		return false;
	return !w->atomic || (loc->n == 1 && loc->p[0].umem &&
			      loc->p[0].len >= sizeof(u64));
}

/**
 * sim_rcw_wqe() - read a WQE in flight again, into dp->rc
 * @dp: the data path
 * @qp: its QP
 * @e: the WQE
 *
 * Return: false when it no longer parses as a transport operation.
 */
bool sim_rcw_wqe(struct sim_dp *dp, struct sim_qp *qp,
		 const struct sim_rcw_wqe *e)
{
	struct sim_umem *buf = qp->dp.buf;
	u32 nbb = BIT(PRM_GET(qpc, qp->qpc, log_sq_size));

	memset(&dp->rc, 0, offsetof(struct sim_rc_wqe, g));
	return buf && sim_dp_read_wqe(dp, buf, qp->dp.buf_off +
				      sim_rq_bytes(qp), nbb, e->bb) &&
	       !sim_rcw_parse(dp, qp) &&
	       dp->rc.opcode == e->opcode;
}

/* WQE dp->rc fails before anything of it is sent: its error CQE. */
static void sim_rcw_local_err(struct sim_dp *dp, struct sim_qp *qp, u32 synd)
{
	const struct sim_rc_wqe *w = &dp->rc;
	struct sim_rcw_wqe e = {
		.index = w->index,
		.opcode = w->opcode,
	};

	sim_rcw_complete(dp, qp, &e, synd);
	qp->dp.sq_cc += DIV_ROUND_UP(max_t(u32, w->ds, 1) * SIM_WQE_SEG,
				     SIM_SEND_WQE_BB);
	qp->dp.msg_off = 0;
	dp->wqes++;
}

/* Whether @op is an operation the transport carries. */
static bool sim_rcw_transport_op(u8 op, bool uc)
{
	switch (op) {
	case SIM_OPCODE_SEND:
	case SIM_OPCODE_SEND_IMM:
	case SIM_OPCODE_SEND_INVAL:
	case SIM_OPCODE_RDMA_WRITE:
	case SIM_OPCODE_RDMA_WRITE_IMM:
		return true;
	case SIM_OPCODE_RDMA_READ:
	case SIM_OPCODE_ATOMIC_CS:
	case SIM_OPCODE_ATOMIC_FA:
		return !uc;
	default:
		return false;
	}
}

/**
 * sim_rcw_sq_one() - send the WQE at the SQ's consumer index, or the next
 *		      turn of its message
 * @dp: the data path
 * @qp: the QP, on the wire, in RTS
 * @buf: its buffer
 * @nbb: its SQ's basic blocks
 *
 * Return: the work done in units of a WQE, 0 when the WQE must wait.
 */
unsigned int sim_rcw_sq_one(struct sim_dp *dp, struct sim_qp *qp,
			    struct sim_umem *buf, u32 nbb)
{
	bool uc = PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_UC;
	struct sim_rcw *r = &qp->dp.rcw;
	const struct sim_rc_wqe *w = &dp->rc;
	struct sim_rcw_wqe *e;
	bool fresh = !qp->dp.msg_off;
	s64 sent = 0;

	if (qp->dp.rnr_tries && ktime_get_ns() < qp->dp.rnr_until)
		return 0;
	if (fresh && r->fl_n == SIM_RCW_INFLIGHT)
		return 0;
	memset(&dp->rc, 0, offsetof(struct sim_rc_wqe, g));
	if (!sim_dp_read_wqe(dp, buf, qp->dp.buf_off + sim_rq_bytes(qp), nbb,
			     qp->dp.sq_cc) ||
	    sim_rcw_parse(dp, qp) ||
	    !sim_rcw_transport_op(w->opcode, uc)) {
		/*
		 * not a transport operation (NOP, UMR, SET_PSV, one UC has
		 * not, one that does not parse): executed, or failed, as on
		 * the loopback, which reaches no peer for them; its turn come
		 */
		return r->fl_n ? 0 : sim_rc_sq_one(dp, qp, buf, nbb);
	}
	if (fresh && (w->len > SIM_RCW_MAX_MSG || !sim_rcw_local(dp, qp))) {
		if (r->fl_n)
			return 0;
		sim_rcw_local_err(dp, qp, w->len > SIM_RCW_MAX_MSG ?
				  SIM_CQE_SYND_LOCAL_LENGTH :
				  SIM_CQE_SYND_LOCAL_PROT);
		return 1;
	}
	/* the next turn of a message resolves its keys again */
	if (!fresh && !sim_rcw_local(dp, qp)) {
		sim_rcw_fail_at(dp, qp, r->fl_n - 1, SIM_CQE_SYND_LOCAL_PROT);
		return 1;
	}
	if (fresh && (w->opcode == SIM_OPCODE_RDMA_READ || w->atomic) &&
	    sim_rcw_reads(r) >= BIT(PRM_GET(qpc, qp->qpc, log_sra_max)))
		return 0;
	/* no further ahead of the oldest unacknowledged PSN than the window */
	if (fresh && !uc && r->fl_n &&
	    sim_rcw_psn_diff(PRM_GET(qpc, qp->qpc, next_send_psn),
			     r->una) >= SIM_RCW_WINDOW)
		return 0;
	if (fresh) {
		if (!r->fl_n)
			r->una = PRM_GET(qpc, qp->qpc, next_send_psn);
		e = sim_rcw_fl(r, r->fl_n++);
		*e = (struct sim_rcw_wqe){
			.bb = qp->dp.sq_cc,
			.nbb = DIV_ROUND_UP(max_t(u32, w->ds, 1) * SIM_WQE_SEG,
					    SIM_SEND_WQE_BB),
			.index = w->index,
			.opcode = w->opcode,
			.signalled = w->signalled,
			.psn = PRM_GET(qpc, qp->qpc, next_send_psn),
			.npsn = sim_rcw_npsn(qp, w),
			.len = w->len,
		};
	} else {
		e = sim_rcw_fl(r, r->fl_n - 1);
	}
	if (w->opcode == SIM_OPCODE_RDMA_READ || w->atomic) {
		/* one request: the responses carry the bytes */
		sim_rcw_send_req(dp, qp, e);
	} else {
		sent = sim_rcw_send_data(dp, qp, e, uc);
		if (sent < 0) {
			sim_rcw_fail_at(dp, qp, r->fl_n - 1,
					SIM_CQE_SYND_LOCAL_PROT);
			return 1;
		}
		if (!sent && w->len)
			return 0;	/* the window is full: wait for ACKs */
		qp->dp.msg_off += sent;
		if (qp->dp.msg_off < w->len)
			return 1 + sent / SIM_RCW_UNIT_BYTES;
	}
	qp->dp.msg_off = 0;
	qp->dp.sq_cc += e->nbb;
	PRM_SET(qpc, qp->qpc, next_send_psn, sim_rcw_psn(e->psn + e->npsn));
	qp->dp.messages++;
	dp->wqes++;
	if (uc) {
		/* nothing answers: it is done once it is out */
		r->fl_n--;
		sim_rcw_complete(dp, qp, e, 0);
	}
	sim_rcw_ack_timer(qp, false);
	return 1 + sent / SIM_RCW_UNIT_BYTES;
}

/**
 * sim_rcw_turn() - the worker's turn of an RC or UC QP on the wire
 * @dp: the data path, the model's lock held
 * @qp: the QP, in any state
 * @budget: work it may do
 * @active: set: the QP needs the worker again
 *
 * In RTS: the responses its responder owes go out, its ACK timer is
 * looked at, then its send WQEs go out in order.  In RTR (and SQD) only
 * the responses owed go out.  In ERR: what was in flight is flushed with
 * the rest, in order.
 *
 * Return: the work done.
 */
unsigned int sim_rcw_turn(struct sim_dp *dp, struct sim_qp *qp,
			  unsigned int budget, bool *active)
{
	struct sim_rcw *r = &qp->dp.rcw;
	unsigned int done;

	if (sim_qp_state(qp) == SIM_QP_ST(ERR)) {
		if (r->fl_n) {
			qp->dp.sq_cc = sim_rcw_fl(r, 0)->bb;
			qp->dp.msg_off = 0;
			r->fl_n = 0;
			r->deadline = 0;
		}
		r->rs_n = 0;
		return sim_dp_qp_turn(dp, qp, budget, active, sim_rc_sq_one);
	}
	done = sim_rcw_drain(dp, qp, budget);
	if (sim_qp_state(qp) != SIM_QP_ST(RTS)) {
		*active = r->rs_n;
		return done;
	}
	sim_rcw_timer(dp, qp);
	if (done < budget)
		done += sim_dp_qp_turn(dp, qp, budget - done, active,
				       sim_rcw_sq_one);
	if (r->fl_n || r->rs_n)
		*active = true;
	return done;
}
