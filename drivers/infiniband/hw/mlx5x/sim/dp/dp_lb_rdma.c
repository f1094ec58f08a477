// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RDMA RX and RDMA TX domains on the device's internal loopback.  A
 * ConnectX loops traffic between two QPs of one port below its transmit
 * steering: each packet walks the sender's RDMA TX tables, then the
 * receiver's RDMA RX tables, as a packet across the wire does.  The
 * model's loopback moves messages, not packets (dp_rc.c, dp_ud.c), so
 * here each packet a message stands for is built as far as the tables
 * look (its Ethernet, IP, UDP and BTH headers and the extended headers
 * of its opcode, from the QP's context or the datagram's address vector,
 * as rcw_frame.c and dp_ud_wire.c build them for the wire) and walks
 * both domains; counters count it at its full length, ICRC included.
 *
 * A packet a rule drops is lost, as on the wire: the datagram does not
 * arrive (its send still completes); the turn of an RC message is not
 * executed, and its requester's ACK timer runs out (dp_rc.c:
 * retry_cnt retries, then a transport retry error), each retry walking
 * the tables again; a UC message is lost whole.
 *
 * The request packets walk: SEND, RDMA WRITE (one a path MTU), RDMA READ
 * and atomic requests; so do the responder's answers, through its RDMA
 * TX and the requester's RDMA RX: a READ's responses (one a path MTU,
 * READ FIRST, MIDDLE, LAST or ONLY), the ACK of a SEND or WRITE (one a
 * message, at its last PSN, as the wire's responder sends it) and an
 * atomic's ACK.  A response dropped: the requester hears nothing, its
 * ACK timer runs out and it sends the request again (a READ is read
 * again; a SEND, WRITE or atomic the responder took is a duplicate it
 * only acknowledges again: dp_rc.c).  So do its NAKs and RNR NAKs, at
 * the PSN of the request they refuse; one dropped, the requester hears
 * of neither the error nor the RNR: its ACK timer runs out and it sends
 * again, as for a lost ACK (a responder that NAKed an error is in ERR
 * and answers no more).  A DCI's packets take their addresses from the
 * address vector of its WQE, to the DCT it names, and carry its DC
 * access key after the BTH; the DCT answers to the DCI's address.
 * While no table of either domain's chain of
 * priorities holds an entry (sim_dp_rdma_busy()), nothing is built: the
 * loopback's fast path pays a look at each table of the two chains.
 */
#include "../queues/queues.h"
#include "../steering/fs.h"
#include "dp_priv.h"
#include "dp_roce.h"
#include "rcw.h"
#include "wqe.h"

/* Whether a rule may wait in either domain. */
static bool sim_lb_rdma_on(const struct mlx5x_sim *sim)
{
	return sim_dp_rdma_busy(sim, true) || sim_dp_rdma_busy(sim, false);
}

/*
 * The packet of @u with @ext_len bytes of extended headers (zero: the
 * tables do not look at them) walks RDMA TX (when @tx), then RDMA RX.
 */
static bool sim_lb_rdma_walk(struct sim_dp *dp, const struct sim_roce_ud *u,
			     u32 ext_len, bool tx)
{
	static const u8 ext[SIM_ROCE_EXT_MAX];
	u8 head[SIM_ROCE_HDR_MAX];
	u32 hdr, len;

	hdr = sim_roce_build(u, ext, ext_len, head);
	len = hdr + u->len + (-u->len & 3) + SIM_ROCE_ICRC;
	if (tx && !sim_dp_rdma_steer_head(dp, true, head, hdr, len))
		return false;
	return sim_dp_rdma_steer_head(dp, false, head, hdr, len);
}

/* A DCI's requests carry the DC access key after the BTH (DCETH). */
#define SIM_LB_DCETH	8

/* The extended headers' bytes of RC request opcode @op of @req. */
static u32 sim_lb_rdma_ext(const struct sim_qp *req, u8 op)
{
	u32 f = sim_rcw_op(op | sim_rcw_base(req));
	u32 n = sim_dp_dci(req) ? SIM_LB_DCETH : 0;

	if (f & SIM_RCW_F_XRC)
		n += SIM_RCW_XRCETH;
	if (f & SIM_RCW_F_RETH)
		n += SIM_RCW_RETH;
	if (f & SIM_RCW_F_ATOMICETH)
		n += SIM_RCW_ATOMICETH;
	if (f & (SIM_RCW_F_IMM | SIM_RCW_F_IETH))
		n += SIM_ROCE_IMM;
	return n;
}

/*
 * The addresses of a packet of @req's: from its context, or a DCI's
 * from the address vector of its WQE (dp->wqe, just read), to the DCT
 * it names.  False: no valid source GID, no packet.
 */
static bool sim_lb_rdma_addr(struct sim_dp *dp, const struct sim_qp *req,
			     struct sim_roce_ud *u)
{
	const struct sim_roce_gid *sgid;
	struct sim_ud_av av;

	if (!sim_dp_dci(req))
		return sim_rcw_addr(dp->sim, req, u);
	if (!sim_dci_wqe_av(dp->wqe, sizeof(dp->wqe), &av) ||
	    av.sgid_index >= SIM_ROCE_GIDS)
		return false;
	sgid = &dp->sim->gids[av.sgid_index];
	if (!sgid->valid)
		return false;
	sim_ud_roce(dp, req, &av, sgid, 0, u);
	u->dqpn = dp->rc.dctn;
	u->len = 0;
	u->se = false;
	return true;
}

/*
 * The packets of one turn of message @w of @req (@off, @n as for
 * sim_lb_rdma_rc()), one a path MTU, addressed as @u says, walk RDMA TX
 * then RX: its requests, or its READ responses (@resp).
 */
static bool sim_lb_rdma_data(struct sim_dp *dp, const struct sim_qp *req,
			     const struct sim_rc_wqe *w, u64 off, u64 n,
			     struct sim_roce_ud *u, bool resp)
{
	u32 pmtu = sim_rcw_pmtu(req), psn, ext;
	u8 base = sim_rcw_base(req), op;
	u64 k, end, last;

	psn = PRM_GET(qpc, req->qpc, next_send_psn);
	last = w->len ? div_u64(w->len - 1, pmtu) : 0;
	end = n ? div_u64(off + n - 1, pmtu) : div_u64(off, pmtu);
	for (k = div_u64(off, pmtu); k <= end; k++) {
		if (resp) {
			op = !last ? SIM_RCW_READ_ONLY :
			     !k ? SIM_RCW_READ_FIRST :
			     k == last ? SIM_RCW_READ_LAST :
			     SIM_RCW_READ_MIDDLE;
			ext = op == SIM_RCW_READ_MIDDLE ? 0 : SIM_RCW_AETH;
		} else {
			op = sim_rcw_data_op(w, k, last);
			ext = sim_lb_rdma_ext(req, op);
			u->ackreq = k == last;
			u->se = k == last && w->solicited;
		}
		u->opcode = op | base;
		u->psn = (psn + k) & 0xffffff;
		u->len = k == last ? w->len - k * pmtu : pmtu;
		if (!sim_lb_rdma_walk(dp, u, ext, true))
			return false;
	}
	return true;
}

/**
 * sim_lb_rdma_rc() - the request packets of one turn of a looped message
 * walk the RDMA domains
 * @dp: the data path, the model's lock held
 * @req: the requester (RC, UC or an XRC initiator)
 * @w: its send WQE
 * @off: the turn starts at this byte of the message
 * @n: and copies this many
 *
 * Return: true when every packet went on; false when a rule dropped one:
 * the turn is lost.
 */
bool sim_lb_rdma_rc(struct sim_dp *dp, struct sim_qp *req,
		    const struct sim_rc_wqe *w, u64 off, u64 n)
{
	u8 base = sim_rcw_base(req);
	struct sim_roce_ud u;
	u8 op;

	if (likely(!sim_lb_rdma_on(dp->sim)))
		return true;
	memset(&u, 0, sizeof(u));
	/* no source address, no packet: nothing to steer */
	if (!sim_lb_rdma_addr(dp, req, &u))
		return true;
	if (w->opcode == SIM_OPCODE_RDMA_READ || w->atomic) {
		op = w->opcode == SIM_OPCODE_RDMA_READ ? SIM_RCW_READ_REQ :
		     w->opcode == SIM_OPCODE_ATOMIC_FA ? SIM_RCW_FETCH_ADD :
		     SIM_RCW_CMP_SWAP;
		u.opcode = op | base;
		u.psn = PRM_GET(qpc, req->qpc, next_send_psn);
		u.ackreq = true;
		return sim_lb_rdma_walk(dp, &u, sim_lb_rdma_ext(req, op), true);
	}
	return sim_lb_rdma_data(dp, req, w, off, n, &u, false);
}

/**
 * sim_lb_rdma_ud() - a looped datagram walks the RDMA domains
 * @dp: the data path, the model's lock held
 * @req: the sending QP
 * @av: the WQE's address vector
 * @sgid: the source GID's entry
 * @qkey: the Q_Key it carries
 * @tx: it walks RDMA TX too (false: it already did, on its way out)
 *
 * Return: true when it goes on to the receivers; false when a rule
 * dropped it.
 */
bool sim_lb_rdma_ud(struct sim_dp *dp, const struct sim_qp *req,
		    const struct sim_ud_av *av,
		    const struct sim_roce_gid *sgid, u32 qkey, bool tx)
{
	struct sim_roce_ud u;

	if (likely(!sim_lb_rdma_on(dp->sim)))
		return true;
	sim_ud_roce(dp, req, av, sgid, qkey, &u);
	return sim_lb_rdma_walk(dp, &u, SIM_ROCE_DETH +
				(u.opcode == SIM_ROCE_UD_SEND_IMM ?
				 SIM_ROCE_IMM : 0), tx);
}

/*
 * The addresses of what @resp sends back to @req; false: none.  A DCT
 * has no peer in its context: it answers the DCI's request, from the
 * address it was sent to, to the address and QP it came from.
 */
static bool sim_lb_rdma_back(struct sim_dp *dp, const struct sim_qp *req,
			     const struct sim_qp *resp, struct sim_roce_ud *u)
{
	u8 gid[16];

	memset(u, 0, sizeof(*u));
	if (!sim_dp_dci(req))
		return sim_rcw_addr(dp->sim, resp, u);
	if (!sim_lb_rdma_addr(dp, req, u))
		return false;
	memcpy(gid, u->sgid, sizeof(gid));
	memcpy(u->sgid, u->dgid, sizeof(gid));
	memcpy(u->dgid, gid, sizeof(gid));
	memcpy(u->dmac, u->smac, sizeof(u->dmac));
	u->dqpn = req->q.obj.id;
	return true;
}

/**
 * sim_lb_rdma_read() - the responses to one turn of a looped READ walk
 * the RDMA domains
 * @dp: the data path, the model's lock held
 * @req: the requester
 * @resp: the responder, which sends them
 * @w: the READ's WQE
 * @off: the turn starts at this byte of the message
 * @n: and reads this many
 *
 * Return: true when every response went on; false when a rule dropped
 * one: the requester hears no answer.
 */
bool sim_lb_rdma_read(struct sim_dp *dp, const struct sim_qp *req,
		      const struct sim_qp *resp, const struct sim_rc_wqe *w,
		      u64 off, u64 n)
{
	struct sim_roce_ud u;

	if (likely(!sim_lb_rdma_on(dp->sim)))
		return true;
	if (!sim_lb_rdma_back(dp, req, resp, &u))
		return true;
	return sim_lb_rdma_data(dp, req, w, off, n, &u, true);
}

/*
 * A packet of @resp's with an AETH, opcode @op and @ext bytes of extended
 * headers, at PSN @psn, walks @resp's RDMA TX and @req's RDMA RX.
 */
static bool sim_lb_rdma_aeth(struct sim_dp *dp, const struct sim_qp *req,
			     const struct sim_qp *resp, u8 op, u32 psn,
			     u32 ext)
{
	struct sim_roce_ud u;

	if (!sim_lb_rdma_back(dp, req, resp, &u))
		return true;
	u.opcode = op | sim_rcw_base(req);
	u.psn = psn & 0xffffff;
	return sim_lb_rdma_walk(dp, &u, ext, true);
}

/**
 * sim_lb_rdma_ack() - the ACK of a looped SEND or WRITE, or an atomic's,
 * walks the RDMA domains
 * @dp: the data path, the model's lock held
 * @req: the requester
 * @resp: the responder, which sends it
 * @w: the acknowledged WQE
 *
 * Return: true when it went on; false when a rule dropped it.
 */
bool sim_lb_rdma_ack(struct sim_dp *dp, const struct sim_qp *req,
		     const struct sim_qp *resp, const struct sim_rc_wqe *w)
{
	if (likely(!sim_lb_rdma_on(dp->sim)))
		return true;
	return sim_lb_rdma_aeth(dp, req, resp,
				w->atomic ? SIM_RCW_ATOMIC_ACK : SIM_RCW_ACK,
				PRM_GET(qpc, req->qpc, next_send_psn) +
				sim_rcw_npsn(req, w) - 1,
				SIM_RCW_AETH +
				(w->atomic ? SIM_RCW_ATOMICACKETH : 0));
}

/**
 * sim_lb_rdma_nak() - the NAK or RNR NAK of a turn of a looped message
 * walks the RDMA domains
 * @dp: the data path, the model's lock held
 * @req: the requester
 * @resp: the responder, which sends it
 * @w: the NAKed WQE
 * @off: the turn starts at this byte of the message
 *
 * A NAK is an ACKNOWLEDGE packet whose AETH says why, at the PSN of the
 * request it refuses: the turn's first packet (a READ's or an atomic's
 * one request).
 *
 * Return: true when it went on; false when a rule dropped it.
 */
bool sim_lb_rdma_nak(struct sim_dp *dp, const struct sim_qp *req,
		     const struct sim_qp *resp, const struct sim_rc_wqe *w,
		     u64 off)
{
	u32 psn;

	if (likely(!sim_lb_rdma_on(dp->sim)))
		return true;
	psn = PRM_GET(qpc, req->qpc, next_send_psn);
	if (w->opcode != SIM_OPCODE_RDMA_READ && !w->atomic)
		psn += div_u64(off, sim_rcw_pmtu(req));
	return sim_lb_rdma_aeth(dp, req, resp, SIM_RCW_ACK, psn,
				SIM_RCW_AETH);
}
