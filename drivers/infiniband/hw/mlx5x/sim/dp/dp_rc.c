// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC and UC traffic on the device's internal loopback: a ConnectX carries
 * traffic between two QPs of the same port inside the device, and so does
 * the model.  The worker (datapath.c) gives each QP in RTS its turn; a
 * send WQE is executed as one message against the QP its context names
 * (qpc.remote_qpn): the requester's and the responder's checks as the
 * IBTA specifies them for RC, the bytes copied between the two sides'
 * memory through their keys, and a CQE on each side that completes.
 *
 * What is modelled: SEND (with immediate, with invalidate: dp_umr.c frees
 * the window), RDMA WRITE (with immediate),
 * RDMA READ, compare and swap and fetch and add on 8 bytes in host byte
 * order (the endianness mode mlx5_ib asks of a ConnectX), NOP, the UMR
 * WQE of a memory window's bind or invalidation (dp_umr.c); the
 * responder's access rights (qpc.rre, rwe, rae) and its keys' rights, PD
 * and range; receive WQEs and their lengths; RNR NAKs with the
 * responder's min_rnr_nak timer and the requester's rnr_retry (7:
 * without end); errors completing on both sides as they complete on a
 * ConnectX and taking the QPs they concern to ERR, where every WQE left
 * is flushed.  A message is not cut into packets on the loopback (no
 * PSN, no path MTU is visible there); a peer that is missing or not
 * ready to receive is tried again when the ACK timer runs out, until
 * the retries run out (a transport retry error).  A QP whose peer is
 * across the wire sends packets instead (rcw_*.c).
 *
 * XRC is RC from an initiator to a target that receives into the XRC
 * SRQ each WQE names (dp_xrc.c).  DC is RC from a DCI to the DCT each
 * WQE names, with the DC access key it carries (dp_dc.c).
 *
 * UC is RC without acknowledgements: SEND and RDMA WRITE only (READ and
 * atomics are a local QP operation error); the requester completes once
 * it sent; what the responder cannot take (no receive WQE, too small a
 * one, a key that refuses, no peer) is dropped there, silently.
 *
 * A long message is executed in turns of SIM_RC_TURN_BYTES, resumed
 * where it stopped (qp->dp.msg_off) in the QP's next turn, and a turn
 * counts against the worker's hold by its bytes: however a process
 * builds its WQEs (63 segments naming the same large MR), no hold of
 * the model's lock copies more than a few MB.
 *
 * The memory layer is the security boundary: every byte goes through
 * sim_mkey_xlate_rights() (the key's owner, PD, rights and range) and
 * sim_umem_io() (the umem's page bits).  Every key of a message is
 * checked before its first byte is copied.
 *
 * A WQE whose access meets a page absent from an ODP umem stops there:
 * its outcome is dropped (no CQE, no PSN, its receive WQE not taken),
 * the QP waits for the driver to resolve the fault and executes the WQE
 * again from its start (mem/odp.c).  An atomic touches every page it
 * needs before it changes a byte, so that it is never done twice.
 */
#include <linux/ktime.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "rcw.h"
#include "wqe.h"

/* rnr_retry 7: retry without end */
#define SIM_RNR_FOREVER		7
/* The longest ACK timeout waited for: 4.096 us << 14, 67 ms. */
#define SIM_ACK_TIMEOUT_MAX	14U
/* Bytes of a message one turn copies, and what counts as a WQE's work. */
#define SIM_RC_TURN_BYTES	(256 * 1024)
#define SIM_RC_UNIT_BYTES	(64 * 1024)

/* The RNR NAK timer codes of the IBTA (5 bits), in ns. */
static const u32 sim_rnr_ns[32] = {
	655360000, 10000, 20000, 30000, 40000, 60000, 80000, 120000,
	160000, 240000, 320000, 480000, 640000, 960000, 1280000, 1920000,
	2560000, 3840000, 5120000, 7680000, 10240000, 15360000, 20480000,
	30720000, 40960000, 61440000, 81920000, 122880000, 163840000,
	245760000, 327680000, 491520000,
};

/* The RNR NAK timer of @code (5 bits), in ns. */
u32 sim_rc_rnr_ns(u32 code)
{
	return sim_rnr_ns[code & 31];
}

/* What a message did on its way, for the two CQEs. */
struct sim_rc_msg {
	struct sim_qp *req, *resp;
	const struct sim_rc_wqe *w;
	u64 off, n;		/* this turn copies [off, off + n) */
	bool more;		/* and the message goes on in the next */
	bool uc;		/* unreliable: the responder drops, silently */
	u32 req_synd;		/* the requester's error CQE, or 0 */
	bool rnr;		/* an RNR NAK: try the WQE again later */
	bool recv;		/* a receive WQE of the responder completes */
	u8 resp_opcode;		/* its CQE's opcode */
	u32 resp_synd;		/* or its error CQE's syndrome */
	u16 resp_wqe;		/* which receive WQE */
};

/* A QP meets an error: it goes to ERR, where what is left is flushed. */
static void sim_rc_to_err(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	PRM_SET(qpc, qp->qpc, state, SIM_QP_ST(ERR));
	sim_dp_kick(sim);
}

/* One remote range [@va, @va + @len) of @key, for @rights of @resp. */
bool sim_rc_remote(struct mlx5x_sim *sim, struct sim_qp *resp, u32 key,
		   u64 va, u64 len, u8 rights, struct sim_rc_side *side)
{
	struct sim_gather g = { .lkey = key, .addr = va, .len = len };
	u32 pdn;
	u16 uid;

	/* a zero-length RDMA names no key: nothing is checked */
	if (!len) {
		side->n = 0;
		return true;
	}
	if (len > U32_MAX)
		return false;
	sim_dp_resp_keys(sim, resp, &uid, &pdn);
	return sim_rc_resolve(sim, uid, pdn, &g, 1, rights, side);
}

static u64 sim_rc_room(const struct sim_rc_side *side)
{
	u64 room = 0;
	unsigned int i;

	for (i = 0; i < side->n; i++)
		room += side->p[i].len;
	return room;
}

/*
 * No peer answers (none, or not ready to receive): the requester's ACK
 * timer (4.096 us << ack_timeout) runs out and it sends again,
 * retry_count times, then fails with a transport retry error.  A timeout
 * of 0, which the IBTA calls infinite, is not waited for: the error
 * comes at once.  A try waits 67 ms at most (code 14): the loopback has
 * no wire whose delay a longer timer would cover, and a QP drained in
 * error would wait out hours (code 31).
 */
static void sim_rc_no_ack(struct sim_rc_msg *m)
{
	struct sim_qp *req = m->req;
	u32 t = PRM_GET(qpc, req->qpc, primary_address_path.ack_timeout);

	if (!t || req->dp.rnr_tries >= PRM_GET(qpc, req->qpc, retry_count)) {
		m->req_synd = SIM_CQE_SYND_TRANSPORT_RETRY;
		return;
	}
	req->dp.rnr_tries++;
	req->dp.rnr_until = ktime_get_ns() + (4096ULL << min(t, SIM_ACK_TIMEOUT_MAX));
	m->rnr = true;
}

/*
 * No receive WQE: an RNR NAK.  The requester waits the responder's
 * timer and tries again, rnr_retry times (7: without end).
 */
static void sim_rc_rnr(struct sim_dp *dp, struct sim_rc_msg *m)
{
	u32 retry = PRM_GET(qpc, m->req->qpc, rnr_retry);
	u32 code = PRM_GET(qpc, m->resp->qpc, min_rnr_nak);

	if (m->uc) {	/* nothing NAKs: the message is lost, whole */
		m->more = false;
		return;
	}
	dp->rnr_naks++;
	sim_qp_count(dp->sim, m->resp, SIM_QC_OUT_OF_BUFFER);
	/* the RNR NAK lost (dp_lb_rdma.c): the ACK timer runs out instead */
	if (!sim_lb_rdma_nak(dp, m->req, m->resp, m->w, m->off)) {
		m->resp = NULL;
		sim_rc_no_ack(m);
		return;
	}
	if (retry != SIM_RNR_FOREVER && m->req->dp.rnr_tries >= retry) {
		m->req_synd = SIM_CQE_SYND_RNR_RETRY;
		return;
	}
	if (m->req->dp.rnr_tries < U8_MAX)
		m->req->dp.rnr_tries++;
	m->req->dp.rnr_until = ktime_get_ns() + sim_rnr_ns[code & 31];
	m->rnr = true;
}

/* Move @qp's PSN @field (next_send_psn, next_rcv_psn) on by @n. */
#define sim_rc_psn_add(qp, field, n)					\
	PRM_SET(qpc, (qp)->qpc, field,					\
		(PRM_GET(qpc, (qp)->qpc, field) + (n)) & 0xffffff)

/* SEND and SEND with immediate: into the responder's next receive WQE. */
static void sim_rc_send(struct sim_dp *dp, struct sim_rc_msg *m,
			const struct sim_rc_side *src)
{
	struct sim_rc_side *dst = &dp->rc_dst;
	int bad;

	/* the receive WQE a message started in stays until it ends */
	if (!sim_rq_take(dp->sim, m->resp, &m->resp_wqe)) {
		sim_rc_rnr(dp, m);
		return;
	}
	m->resp_opcode = m->w->opcode == SIM_OPCODE_SEND_IMM ?
			 SIM_CQE_RESP_SEND_IMM : SIM_CQE_RESP_SEND;
	if (m->w->opcode == SIM_OPCODE_SEND_INVAL)
		m->resp_opcode = SIM_CQE_RESP_SEND_INV;
	m->resp_synd = sim_rc_recv_wqe(dp, m->resp, dst);
	if (!m->resp_synd && sim_rc_room(dst) < m->w->len)
		m->resp_synd = SIM_CQE_SYND_LOCAL_LENGTH;
	if (!m->resp_synd) {
		bad = sim_rc_copy(dp, src, dst, m->off, m->n);
		/* the message never ended: nothing completes there */
		if (bad == 1) {
			m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
			return;
		}
		if (bad)
			m->resp_synd = SIM_CQE_SYND_LOCAL_PROT;
	}
	/* the receive WQE completes at the message's end, or its error */
	m->recv = !m->more || m->resp_synd;
	/*
	 * A SEND with invalidate frees the responder's window at its end
	 * (dp_umr.c); a key it may not invalidate is an invalid request.
	 */
	if (m->recv && !m->resp_synd &&
	    m->w->opcode == SIM_OPCODE_SEND_INVAL &&
	    !sim_dp_mw_invalidate(dp->sim, m->resp, be32_to_cpu(m->w->imm))) {
		m->resp_synd = SIM_CQE_SYND_LOCAL_PROT;
		m->req_synd = SIM_CQE_SYND_REMOTE_INVAL_REQ;
		return;
	}
	/* the requester hears of the responder's error in its NAK */
	if (m->resp_synd == SIM_CQE_SYND_LOCAL_LENGTH)
		m->req_synd = SIM_CQE_SYND_REMOTE_INVAL_REQ;
	else if (m->resp_synd)
		m->req_synd = SIM_CQE_SYND_REMOTE_OP;
}

/* RDMA WRITE, with immediate: into the responder's memory by rkey. */
static void sim_rc_write(struct sim_dp *dp, struct sim_rc_msg *m,
			 const struct sim_rc_side *src)
{
	const struct sim_rc_wqe *w = m->w;
	struct sim_rc_side *dst = &dp->rc_dst;
	int bad;

	if (!PRM_GET(qpc, m->resp->qpc, rwe) ||
	    !sim_rc_remote(dp->sim, m->resp, w->rkey, w->raddr, w->len,
			   SIM_MKEY_REMOTE_WRITE, dst)) {
		m->req_synd = SIM_CQE_SYND_REMOTE_ACCESS;
		return;
	}
	if (w->opcode == SIM_OPCODE_RDMA_WRITE_IMM) {
		if (!sim_rq_take(dp->sim, m->resp, &m->resp_wqe)) {
			sim_rc_rnr(dp, m);
			return;
		}
		/* it takes a receive WQE, whose buffers it leaves alone */
		m->recv = !m->more;
		m->resp_opcode = SIM_CQE_RESP_WR_IMM;
	}
	bad = sim_rc_copy(dp, src, dst, m->off, m->n);
	if (bad) {
		m->req_synd = bad == 1 ? SIM_CQE_SYND_LOCAL_PROT :
					 SIM_CQE_SYND_REMOTE_ACCESS;
		m->recv = false;
	}
}

/* RDMA READ: from the responder's memory into the local segments. */
static void sim_rc_read(struct sim_dp *dp, struct sim_rc_msg *m)
{
	const struct sim_rc_wqe *w = m->w;
	struct sim_qp *req = m->req;
	struct sim_rc_side *src = &dp->rc_dst, *dst = &dp->rc_src;
	int bad;

	if (!PRM_GET(qpc, m->resp->qpc, rre) ||
	    !sim_rc_remote(dp->sim, m->resp, w->rkey, w->raddr, w->len,
			   SIM_MKEY_REMOTE_READ, src)) {
		m->req_synd = SIM_CQE_SYND_REMOTE_ACCESS;
		return;
	}
	if (!sim_rc_resolve(dp->sim, req->q.obj.uid, sim_qp_pdn(req), w->g,
			    w->n, SIM_MKEY_LOCAL_WRITE, dst)) {
		m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
		return;
	}
	bad = sim_rc_copy(dp, src, dst, m->off, m->n);
	if (bad == 1)
		m->req_synd = SIM_CQE_SYND_REMOTE_ACCESS;
	else if (bad)
		m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
}

/*
 * Compare and swap, fetch and add: 8 aligned bytes of the responder's
 * memory, in host byte order; the original value lands in the local
 * segment.
 */
static void sim_rc_atomic(struct sim_dp *dp, struct sim_rc_msg *m)
{
	const struct sim_rc_wqe *w = m->w;
	struct sim_qp *req = m->req;
	struct sim_rc_side *rem = &dp->rc_dst, *loc = &dp->rc_src;
	u64 orig, val;

	if (w->raddr & (sizeof(u64) - 1)) {
		m->req_synd = SIM_CQE_SYND_REMOTE_INVAL_REQ;
		return;
	}
	if (!PRM_GET(qpc, m->resp->qpc, rae) ||
	    !sim_rc_remote(dp->sim, m->resp, w->rkey, w->raddr, sizeof(u64),
			   SIM_MKEY_ATOMIC, rem)) {
		m->req_synd = SIM_CQE_SYND_REMOTE_ACCESS;
		return;
	}
	/*
	 * the 8 bytes on one direct mkey, through an indirect one too; not
	 * through a signature mkey, whose bytes are blocks (dp_sig.c)
	 */
	if (rem->n != 1 || rem->p[0].len != sizeof(u64) || !rem->p[0].umem) {
		m->req_synd = SIM_CQE_SYND_REMOTE_ACCESS;
		return;
	}
	if (!sim_rc_resolve(dp->sim, req->q.obj.uid, sim_qp_pdn(req), w->g,
			    w->n, SIM_MKEY_LOCAL_WRITE, loc) ||
	    loc->n != 1 || !loc->p[0].umem || loc->p[0].len < sizeof(u64)) {
		m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
		return;
	}
	/*
	 * every page present before the responder's bytes change: a page
	 * fault stops the WQE before it did anything (mem/odp.c)
	 */
	if (!sim_umem_touch(loc->p[0].umem, loc->p[0].off, sizeof(orig))) {
		m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
		return;
	}
	if (!sim_umem_touch(rem->p[0].umem, rem->p[0].off, sizeof(orig)) ||
	    !sim_umem_io(rem->p[0].umem, rem->p[0].off, &orig, sizeof(orig),
			 false)) {
		m->req_synd = SIM_CQE_SYND_REMOTE_ACCESS;
		return;
	}
	if (w->opcode == SIM_OPCODE_ATOMIC_FA)
		val = orig + w->swap_add;
	else
		val = orig == w->compare ? w->swap_add : orig;
	if (val != orig &&
	    !sim_umem_io(rem->p[0].umem, rem->p[0].off, &val, sizeof(val),
			 true)) {
		m->req_synd = SIM_CQE_SYND_REMOTE_ACCESS;
		return;
	}
	if (!sim_umem_io(loc->p[0].umem, loc->p[0].off, &orig, sizeof(orig),
			 true))
		m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
}

/*
 * UC: what the responder could not take is dropped there, silently; the
 * requester, which sent it, does not hear of it.  Its own local errors
 * stay.
 */
static void sim_uc_drop(struct sim_rc_msg *m)
{
	if (m->req_synd == SIM_CQE_SYND_LOCAL_PROT ||
	    m->req_synd == SIM_CQE_SYND_LOCAL_LENGTH)
		return;
	if (m->req_synd || m->resp_synd) {
		m->req_synd = 0;
		m->resp_synd = 0;
		m->recv = false;
		m->more = false;
	}
}

/* The QP @req's context names as its peer, if it is on this device. */
static struct sim_qp *sim_rc_peer(struct mlx5x_sim *sim, struct sim_qp *req)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_QP],
				      PRM_GET(qpc, req->qpc, remote_qpn));
	struct sim_qp *peer;
	u32 state;

	if (!obj)
		return NULL;
	peer = container_of(obj, struct sim_qp, q.obj);
	state = sim_qp_state(peer);
	/*
	 * A QP that is not ready to receive, or connected to another QP,
	 * drops what reaches it: the requester's retries run out.
	 */
	if ((state != SIM_QP_ST(RTR) && state != SIM_QP_ST(RTS) &&
	     state != SIM_QP_ST(SQD) && state != SIM_QPC_STATE_SQ_DRAINED) ||
	    (!peer->dp.buf_umem && !sim_dp_xrc_tgt(peer)) ||
	    PRM_GET(qpc, peer->qpc, remote_qpn) != req->q.obj.id ||
	    PRM_GET(qpc, peer->qpc, st) != PRM_GET(qpc, req->qpc, st))
		return NULL;
	return peer;
}

/* Execute send WQE dp->rc of @req as one message; fills @m. */
static void sim_rc_message(struct sim_dp *dp, struct sim_qp *req,
			   struct sim_rc_msg *m)
{
	const struct sim_rc_wqe *w = &dp->rc;
	struct sim_rc_side *src = &dp->rc_src;

	m->req = req;
	m->w = w;
	m->uc = PRM_GET(qpc, req->qpc, st) == MLX5_QPC_ST_UC;
	/* the WQE was rewritten under the device since its last turn */
	if (req->dp.msg_off > w->len) {
		m->req_synd = SIM_CQE_SYND_LOCAL_LENGTH;
		return;
	}
	m->off = req->dp.msg_off;
	m->n = min_t(u64, w->len - m->off, SIM_RC_TURN_BYTES);
	m->more = m->off + m->n < w->len;
	if (w->opcode == SIM_OPCODE_NOP)
		return;
	if (m->uc && (w->opcode == SIM_OPCODE_RDMA_READ || w->atomic)) {
		m->req_synd = SIM_CQE_SYND_LOCAL_QP_OP;
		return;
	}
	/* a packet of the turn that an RDMA rule drops: the turn is lost */
	if (!sim_lb_rdma_rc(dp, req, w, m->off, m->n)) {
		if (!m->uc)
			sim_rc_no_ack(m);
		m->more = false;
		return;
	}
	if (sim_dp_dci(req))
		m->resp = sim_dp_dc_target(dp->sim, req, w, &m->rnr);
	else
		m->resp = sim_rc_peer(dp->sim, req);
	if (m->rnr)	/* the DCT receives another DCI's message */
		return;
	if (!m->resp) {
		if (!m->uc)
			sim_rc_no_ack(m);
		return;
	}
	if (sim_dp_xrc(req)) {
		m->req_synd = sim_dp_xrc_target(dp->sim, m->resp, w->xrc_srqn);
		/* no target: no answer, and nothing of the responder's */
		if (m->req_synd == SIM_CQE_SYND_TRANSPORT_RETRY) {
			m->resp = NULL;
			m->req_synd = 0;
			sim_rc_no_ack(m);
		}
		if (m->req_synd || m->rnr)
			return;
	}
	/*
	 * a message whose ACK was lost: the responder counts a duplicate
	 * and only ACKs it again
	 */
	if (req->dp.ack_lost) {
		sim_qp_count(dp->sim, m->resp, SIM_QC_DUPLICATE_REQUEST);
		if (sim_lb_rdma_ack(dp, req, m->resp, w)) {
			req->dp.ack_lost = false;
			sim_rc_psn_add(req, next_send_psn, sim_rcw_npsn(req, w));
		} else {
			sim_rc_no_ack(m);
		}
		m->resp = NULL;
		return;
	}
	switch (w->opcode) {
	case SIM_OPCODE_SEND:
	case SIM_OPCODE_SEND_IMM:
	case SIM_OPCODE_SEND_INVAL:
	case SIM_OPCODE_RDMA_WRITE:
	case SIM_OPCODE_RDMA_WRITE_IMM:
		if (!sim_rc_resolve(dp->sim, req->q.obj.uid, sim_qp_pdn(req),
				    w->g, w->n, SIM_MKEY_LOCAL_READ, src)) {
			m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
			return;
		}
		if (w->opcode == SIM_OPCODE_RDMA_WRITE ||
		    w->opcode == SIM_OPCODE_RDMA_WRITE_IMM)
			sim_rc_write(dp, m, src);
		else
			sim_rc_send(dp, m, src);
		break;
	case SIM_OPCODE_RDMA_READ:
		sim_rc_read(dp, m);
		/* a response lost: no answer, the READ is sent again */
		if (!m->req_synd &&
		    !sim_lb_rdma_read(dp, req, m->resp, w, m->off, m->n)) {
			m->resp = NULL;
			m->more = false;
			sim_rc_no_ack(m);
		}
		break;
	default:
		sim_rc_atomic(dp, m);
		break;
	}
	if (m->uc)
		sim_uc_drop(m);
}

/* The responder's side of message @m: its CQE, or its error. */
static void sim_rc_respond(struct sim_dp *dp, const struct sim_rc_msg *m)
{
	struct sim_cqe_info info = {};
	struct sim_qp *resp = m->resp;

	if (m->recv) {
		sim_rq_done(resp);
		info.wqe_counter = m->resp_wqe;
		if (m->resp_synd) {
			info.opcode = SIM_CQE_RESP_ERR;
			info.syndrome = m->resp_synd;
		} else {
			info.opcode = m->resp_opcode;
			info.byte_cnt = m->w->len;
			info.imm = m->w->imm;
			info.solicited = m->w->solicited;
		}
		sim_rc_cqe(dp->sim, resp, false, &info);
	}
	if (m->req_synd == SIM_CQE_SYND_REMOTE_ACCESS)
		sim_qp_count(dp->sim, resp, SIM_QC_RESP_REMOTE_ACCESS_ERRORS);
	/* a DCT serves every DCI: no error of one message stops it */
	if (sim_dp_dct(resp))
		return;
	/* a responder that NAKs a request other than for RNR fails too */
	if (m->resp_synd || m->req_synd == SIM_CQE_SYND_REMOTE_ACCESS ||
	    m->req_synd == SIM_CQE_SYND_REMOTE_INVAL_REQ)
		sim_rc_to_err(dp->sim, resp);
	/*
	 * and when no CQE of its own says why (the request consumed no
	 * receive WQE), an affiliated asynchronous error does (IBTA
	 * 11.6.3.1): a local access violation, or an invalid request
	 */
	if (m->recv)
		return;
	if (m->req_synd == SIM_CQE_SYND_REMOTE_ACCESS)
		sim_event_emit(dp->sim, SIM_EV_WQ_ACCESS_ERROR, SIM_OBJ_QP,
			       resp->q.obj.id, 0);
	else if (m->req_synd == SIM_CQE_SYND_REMOTE_INVAL_REQ)
		sim_event_emit(dp->sim, SIM_EV_WQ_INVAL_REQ_ERROR, SIM_OBJ_QP,
			       resp->q.obj.id, 0);
}

/*
 * The PSNs a message took on the loopback, as across the wire: the
 * requester's next_send_psn and the responder's next_rcv_psn moved on.
 */
static void sim_rc_psns(struct sim_qp *req, struct sim_qp *resp,
			const struct sim_rc_wqe *w)
{
	u32 n = sim_rcw_npsn(req, w);

	sim_rc_psn_add(req, next_send_psn, n);
	if (!sim_dp_dct(resp))
		sim_rc_psn_add(resp, next_rcv_psn, n);
}

/*
 * The ACK of message @m, which the responder took, walks the RDMA
 * domains (dp_lb_rdma.c).  Dropped: the responder's side is done, the
 * requester hears nothing; its next try is a duplicate.
 */
static void sim_rc_ack_walk(struct sim_dp *dp, struct sim_rc_msg *m)
{
	struct sim_qp *req = m->req, *resp = m->resp;

	if (!resp || m->rnr || m->more || m->uc || m->req_synd ||
	    m->resp_synd || m->w->opcode == SIM_OPCODE_RDMA_READ ||
	    sim_lb_rdma_ack(dp, req, resp, m->w))
		return;
	sim_qp_count_rx(dp->sim, resp, m->w->opcode);
	sim_rc_respond(dp, m);
	if (!sim_dp_dct(resp))
		sim_rc_psn_add(resp, next_rcv_psn, sim_rcw_npsn(req, m->w));
	req->dp.ack_lost = true;
	m->resp = NULL;
	sim_rc_no_ack(m);
}

/*
 * The NAK of message @m, which the responder refused (it goes to ERR),
 * walks the RDMA domains.  Dropped: the responder's side is done, the
 * requester hears nothing and its ACK timer runs out; the responder
 * answers none of its retries.
 */
static void sim_rc_nak_walk(struct sim_dp *dp, struct sim_rc_msg *m)
{
	struct sim_qp *resp = m->resp;

	if (!resp || (m->req_synd != SIM_CQE_SYND_REMOTE_ACCESS &&
		      m->req_synd != SIM_CQE_SYND_REMOTE_INVAL_REQ &&
		      m->req_synd != SIM_CQE_SYND_REMOTE_OP) ||
	    sim_lb_rdma_nak(dp, m->req, resp, m->w, m->off))
		return;
	sim_qp_count_rx(dp->sim, resp, m->w->opcode);
	sim_rc_respond(dp, m);
	m->resp = NULL;
	m->req_synd = 0;
	sim_rc_no_ack(m);
}

/*
 * Execute (RTS), or flush (ERR), the send WQE at the SQ's consumer index,
 * or the next turn of its message.  Returns the work done in units of a
 * WQE (a turn's bytes count too), or 0 when the WQE waits (RNR: until
 * its timer runs out).
 */
unsigned int sim_rc_sq_one(struct sim_dp *dp, struct sim_qp *qp,
			   struct sim_umem *buf, u32 nbb)
{
	bool flush = sim_qp_state(qp) == SIM_QP_ST(ERR), dci;
	struct sim_cqe_info info = {};
	struct sim_rc_msg m = {};
	unsigned int units;
	int parsed;

	if (!flush && qp->dp.rnr_tries && ktime_get_ns() < qp->dp.rnr_until)
		return 0;
	memset(&dp->rc, 0, offsetof(struct sim_rc_wqe, g));
	dp->sig_err_on = false;
	if (!sim_dp_read_wqe(dp, buf, qp->dp.buf_off + sim_rq_bytes(qp), nbb,
			     qp->dp.sq_cc))
		parsed = -EINVAL;
	else if (sim_dp_xrc(qp))
		parsed = sim_xrc_wqe_parse(dp->wqe, sizeof(dp->wqe), &dp->rc);
	else if (sim_dp_dci(qp))
		parsed = sim_dci_wqe_parse(dp->wqe, sizeof(dp->wqe), &dp->rc);
	else
		parsed = sim_rc_wqe_parse(dp->wqe, sizeof(dp->wqe), &dp->rc);
	if (!flush && sim_rc_sig_drain(dp, qp))
		return 0;	/* dp_sig.c: the send queue is drained */
	dci = sim_dp_dci(qp);
	if (flush)
		m.req_synd = SIM_CQE_SYND_WR_FLUSH;
	else if (!parsed && dci && sim_dci_stream_errored(qp, dp->rc.stream))
		m.req_synd = SIM_CQE_SYND_WR_FLUSH;	/* its stream is */
	else if (parsed == -EOPNOTSUPP && dp->rc.opcode == SIM_OPCODE_UMR)
		m.req_synd = sim_dp_umr(dp, qp);	/* dp_umr.c */
	else if (sim_dp_reg_umr(qp))	/* it sends nothing but UMRs */
		m.req_synd = SIM_CQE_SYND_LOCAL_QP_OP;
	else if (parsed == -EOPNOTSUPP && dp->rc.opcode == SIM_OPCODE_SET_PSV)
		m.req_synd = sim_dp_set_psv(dp, qp);	/* dp_psv.c */
	else if (parsed == -EOPNOTSUPP)
		m.req_synd = SIM_CQE_SYND_LOCAL_QP_OP;
	else if (parsed)
		m.req_synd = SIM_CQE_SYND_LOCAL_LENGTH;
	else if (sim_odp_arm(dp->sim, qp))
		sim_rc_message(dp, qp, &m);
	else
		return 0;	/* it waits for its page fault (mem/odp.c) */
	if (sim_odp_disarm(dp->sim, qp))
		return 0;	/* it stopped on one: nothing of it stays */
	sim_rc_ack_walk(dp, &m);
	sim_rc_nak_walk(dp, &m);
	if (m.rnr)
		return 0;
	qp->dp.rnr_tries = 0;
	units = 1 + m.n / SIM_RC_UNIT_BYTES;
	if (m.more && !m.req_synd && !m.resp_synd) {
		qp->dp.msg_off += m.n;
		return units;
	}
	qp->dp.msg_off = 0;
	qp->dp.ack_lost = false;
	qp->dp.sq_cc += DIV_ROUND_UP(max_t(u32, dp->rc.ds, 1) * SIM_WQE_SEG,
				     SIM_SEND_WQE_BB);
	dp->wqes++;
	/* a signature error, before the completions (dp_sig.c) */
	if (dp->sig_err_on && m.resp) {
		if (dp->sig_err_dst == (dp->rc.opcode == SIM_OPCODE_RDMA_READ)) {
			sim_rc_sig_report(dp, qp, true);
			qp->dp.sig_drain = true;
		} else {
			sim_rc_sig_report(dp, m.resp, false);
		}
	}
	if (m.resp) {
		sim_qp_count_rx(dp->sim, m.resp, dp->rc.opcode);
		sim_rc_respond(dp, &m);
		sim_rc_psns(qp, m.resp, &dp->rc);
		qp->dp.messages++;
		dp->rc_messages++;
	}
	info.wqe_counter = dp->rc.index;
	info.wqe_opcode = dp->rc.opcode;
	if (m.req_synd) {
		info.opcode = SIM_CQE_REQ_ERR;
		info.syndrome = m.req_synd;
		/* a DCI's error stops its stream (dp_dc.c), then the DCI */
		if (!flush && (!dci || sim_dci_stream_fail(qp, dp->rc.stream)))
			sim_rc_to_err(dp->sim, qp);
	} else if (dp->rc.signalled) {
		info.opcode = SIM_CQE_REQ;
		if (dp->rc.opcode == SIM_OPCODE_RDMA_READ)
			info.byte_cnt = dp->rc.len;
		else if (dp->rc.atomic)
			info.byte_cnt = sizeof(u64);
	} else {
		return units;
	}
	sim_rc_cqe(dp->sim, qp, true, &info);
	return units;
}

/**
 * sim_dp_rc_qp() - the worker's turn of one RC QP
 * @dp: the data path, the model's lock held
 * @qp: the QP
 * @budget: WQEs it may execute
 * @active: set when the QP needs the worker again (in RTS, or in ERR
 *	    with WQEs left), so that the worker keeps polling
 *
 * In RTS its send WQEs are executed in order, up to @budget, until one
 * meets an RNR NAK (the rest wait for its timer); a long message counts
 * by its bytes and may take several turns.  In ERR every posted send and
 * receive WQE is flushed.
 *
 * Return: the work done, in WQEs (a message's bytes count too).
 */
unsigned int sim_dp_rc_qp(struct sim_dp *dp, struct sim_qp *qp,
			  unsigned int budget, bool *active)
{
	u32 state = sim_qp_state(qp);
	unsigned int done;

	/*
	 * an XRC target sends nothing but the responses it owes across the
	 * wire; in ERR it flushes the WQE it holds
	 */
	if (sim_dp_xrc_tgt(qp)) {
		if (state != SIM_QP_ST(ERR)) {
			done = sim_rcw_drain(dp, qp, budget);
			*active = qp->dp.rcw.rs_n;
			return done;
		}
		done = sim_rc_flush_rq(dp, qp, budget);
		*active = done >= budget;
		return done;
	}
	if (!qp->dp.buf_umem)
		return 0;
	/* a peer across the wire: its packets, its timers (rcw_*.c) */
	if (sim_rcw_on_wire(dp->sim, qp))
		return sim_rcw_turn(dp, qp, budget, active);
	if (state != SIM_QP_ST(RTS) && state != SIM_QP_ST(ERR))
		return 0;
	return sim_dp_qp_turn(dp, qp, budget, active, sim_rc_sq_one);
}
