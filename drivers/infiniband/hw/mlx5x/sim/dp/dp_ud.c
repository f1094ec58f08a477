// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD traffic on the device's internal loopback.  The worker (datapath.c)
 * gives each UD QP in RTS its turn; a send WQE carries its own address
 * vector (the datagram segment libmlx5 copies from the AH, with the
 * destination QP and Q_Key of the work request), and is executed as one
 * datagram:
 *
 * - a datagram larger than the path MTU (the port's, as ib_core reports
 *   it active, within the QP's) is a local length error: a ConnectX does
 *   not cut a UD message into packets;
 * - every gather entry's lkey is checked (sim_mkey_xlate_rights(): the
 *   QP's context and PD, local read, the range) before anything is sent;
 * - a datagram whose destination GID is one of the port's (the RoCE
 *   address table, core/cmd_roce.c) comes back in on the same port, to the
 *   QP of this device its AV names; any other leaves for the wire
 *   (dp_ud_wire.c); one to a multicast GID and QP 0xffffff also comes
 *   back in, to every QP of that GID's group (queues/cmd_mcg.c), each
 *   taking a receive WQE of its own;
 * - at the receiver, what IBTA drops silently is dropped: no such QP, not
 *   a UD QP, not ready to receive, a Q_Key that differs from its own (a
 *   work request's Q_Key with the high bit set stands for the sending
 *   QP's), no receive WQE posted (UD has no RNR);
 * - the receive WQE takes the 40-byte GRH, then the payload: for RoCE v2
 *   over IPv4 the IPv4 header in bytes 20..39 (the first 20 are zero),
 *   otherwise the IPv6 header (RoCE v2) or the IB GRH (RoCE v1), built
 *   from the source GID the AV's index names; the CQE carries the source
 *   QP, the GRH bit and the RoCE header type in flags_rqpn, and 40 plus
 *   the payload as its byte count;
 * - a receive WQE too small, or a key that refuses, is the receiver's
 *   error CQE (local length, local protection) and takes it to ERR.
 *
 * A send error (local length, protection, QP operation) completes the WQE
 * in error and takes the QP to SQER, where the rest of its send queue is
 * flushed and its receive queue still works; in ERR both are flushed.
 * The receive WQE is taken through dp_rc.c's functions, which find it in
 * the QP's RQ or its SRQ.
 *
 * On-demand paging (mem/odp.c): a datagram that meets an absent page of
 * an ODP region, at the sender or in the receive WQE it lands in, stops
 * its WQE before anything of it is done (the receive WQE is not taken,
 * nothing completes), and runs again once the driver resolved the fault.
 * A multicast datagram is copied to its members at once: it does not
 * fault, an absent page is a refused access there.
 *
 * The kernel's QP1 (the MAD layer's GSI QP) is a datagram QP too: a
 * datagram to QP number 1 goes to it, whatever its own number, and one
 * it sends arrives from source QP 1.  Its WQEs may name memory by the
 * reserved lkey (qpc.rlky, which only the kernel may set).
 */
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/checksum.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "dp_roce.h"
#include "wqe.h"

/* What a datagram adds to its payload: UDP (RoCE v2), BTH, DETH, ICRC. */
#define SIM_UD_UDP		8
#define SIM_UD_BTH_DETH		(12 + 8)
#define SIM_UD_ICRC		4
/* The IPv4 header's don't-fragment bit (<net/ip.h>'s IP_DF) */
#define SIM_UD_IP_DF		0x4000
/* The IB GRH's next header: a BTH (RoCE v1). */
#define SIM_UD_NEXT_BTH		0x1b
/*
 * The headers ib_core takes off the netdev's MTU for the port's active
 * IB MTU (GRH, UDP, BTH, the largest extended headers, ICRC): the port
 * carries the largest IB MTU that fits the rest.
 */
#define SIM_UD_MTU_RESERVE	96
#define SIM_UD_MIN_MTU		256
#define SIM_UD_MAX_MTU		4096

/* The largest datagram @qp may send: the port's path MTU, or its own. */
static u32 sim_ud_mtu(struct mlx5x_sim *sim, const struct sim_qp *qp)
{
	u32 room = sim->params.mtu > SIM_UD_MTU_RESERVE ?
		   sim->params.mtu - SIM_UD_MTU_RESERVE : 0;
	u32 mtu = SIM_UD_MIN_MTU;

	while (mtu < SIM_UD_MAX_MTU && mtu * 2 <= room)
		mtu *= 2;
	return min_t(u32, mtu, 128U << PRM_GET(qpc, qp->qpc, mtu));
}

/*
 * The GRH a receiver finds in its first 40 bytes, for a datagram of @len
 * bytes sent from @sgid with @av.  Returns the RoCE header type of the
 * CQE.
 */
static u32 sim_ud_grh(const struct sim_roce_gid *sgid,
		      const struct sim_ud_av *av, u32 len, u8 *grh)
{
	bool v2 = sgid->version == SIM_ROCE_V2;
	struct ipv6hdr *ip6 = (void *)grh;
	struct iphdr *ip;

	memset(grh, 0, SIM_UD_GRH);
	len += SIM_UD_BTH_DETH + SIM_UD_ICRC;
	if (v2 && sgid->l3_type == SIM_ROCE_L3_IPV4) {
		ip = (void *)(grh + SIM_UD_IPV4_OFF);
		ip->version = 4;
		ip->ihl = sizeof(*ip) / 4;
		ip->tos = av->tclass;
		ip->tot_len = htons(sizeof(*ip) + SIM_UD_UDP + len);
		ip->frag_off = htons(SIM_UD_IP_DF);
		ip->ttl = av->hop_limit;
		ip->protocol = IPPROTO_UDP;
		memcpy(&ip->saddr, sgid->gid + 12, sizeof(ip->saddr));
		memcpy(&ip->daddr, av->dgid + 12, sizeof(ip->daddr));
		ip->check = ip_fast_csum(ip, ip->ihl);
		return SIM_CQE_ROCE_L3_IPV4;
	}
	*(__be32 *)grh = htonl(6U << 28 | (u32)av->tclass << 20 |
			       av->flow_label);
	ip6->payload_len = htons((v2 ? SIM_UD_UDP : 0) + len);
	ip6->nexthdr = v2 ? IPPROTO_UDP : SIM_UD_NEXT_BTH;
	ip6->hop_limit = av->hop_limit;
	memcpy(&ip6->saddr, sgid->gid, sizeof(ip6->saddr));
	memcpy(&ip6->daddr, av->dgid, sizeof(ip6->daddr));
	return v2 ? SIM_CQE_ROCE_L3_IPV6 : SIM_CQE_ROCE_L3_GRH;
}

/*
 * The UD QP number @qpn names on this device, if it takes datagrams with
 * the Q_Key @qkey; else NULL: the datagram is dropped there, silently.
 */
struct sim_qp *sim_ud_peer(struct mlx5x_sim *sim, u32 qpn, u32 qkey)
{
	struct sim_obj *obj;
	struct sim_qp *qp;
	u32 state;

	if (qpn == SIM_GSI_QPN) {
		qp = sim_gsi_qp(sim);
	} else {
		obj = xa_load(&sim->objs[SIM_OBJ_QP], qpn);
		qp = obj ? container_of(obj, struct sim_qp, q.obj) : NULL;
		if (qp && PRM_GET(qpc, qp->qpc, st) != MLX5_QPC_ST_UD)
			qp = NULL;
	}
	if (!qp)
		return NULL;
	state = sim_qp_state(qp);
	if (!qp->dp.buf_umem ||
	    (state != SIM_QP_ST(RTR) && state != SIM_QP_ST(RTS) &&
	     state != SIM_QP_ST(SQER) && state != SIM_QP_ST(SQD)) ||
	    PRM_GET(qpc, qp->qpc, q_key) != qkey)
		return NULL;
	return qp;
}

/* Put the GRH in front of the payload's pieces; false: no room. */
static bool sim_ud_prepend(struct sim_rc_side *src, const u8 *grh)
{
	if (src->n >= ARRAY_SIZE(src->p))
		return false;
	memmove(&src->p[1], &src->p[0], src->n * sizeof(src->p[0]));
	src->p[0] = (struct sim_rc_piece){ .inl = grh, .len = SIM_UD_GRH };
	src->n++;
	return true;
}

/*
 * The datagram (dp->rc_src, its GRH in front unless @no_grh) into
 * @resp's receive WQE (taken: m->resp_wqe); m->resp is set when the
 * receiver gets a CQE.
 */
static void sim_ud_to(struct sim_dp *dp, struct sim_qp *resp, bool no_grh,
		      struct sim_ud_msg *m)
{
	struct sim_rc_side *src = &dp->rc_src, *dst = &dp->rc_dst;
	u32 len = SIM_UD_GRH + dp->rc.len;
	u64 room = 0;
	unsigned int i;
	int bad;

	m->resp = resp;
	m->resp_synd = sim_rc_recv_wqe(dp, resp, dst);
	if (m->resp_synd)
		return;
	for (i = 0; i < dst->n; i++)
		room += dst->p[i].len;
	if (room < len || no_grh) {
		m->resp_synd = SIM_CQE_SYND_LOCAL_LENGTH;
		return;
	}
	bad = sim_rc_copy(dp, src, dst, 0, len);
	if (bad == 1) {
		/* never sent: the receive WQE stays for the next datagram */
		m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
		m->resp = NULL;
	} else if (bad) {
		m->resp_synd = SIM_CQE_SYND_LOCAL_PROT;
	}
}

/* What the receiver's CQE says of send WQE dp->rc. */
static void sim_ud_msg_fill(const struct sim_dp *dp, struct sim_ud_msg *m)
{
	m->len = dp->rc.len;
	m->imm = dp->rc.opcode == SIM_OPCODE_SEND_IMM;
	m->imm_data = dp->rc.imm;
	m->solicited = dp->rc.solicited;
}

/*
 * A datagram to multicast GID @dgid: a copy to each QP of its group that
 * takes @qkey and has a receive WQE posted, each completed at once.
 */
static void sim_ud_mcast(struct sim_dp *dp, const u8 *dgid, u32 qkey,
			 bool no_grh, struct sim_ud_msg *m)
{
	struct mlx5x_sim *sim = dp->sim;
	struct sim_mcg *g = sim_mcg_find(sim, dgid);
	struct sim_ud_msg one;
	struct sim_qp *resp;
	unsigned int i;

	for (i = 0; g && i < g->n && !m->req_synd; i++) {
		resp = sim_ud_peer(sim, g->qpn[i], qkey);
		one = *m;
		if (!resp || !sim_rq_take(sim, resp, &one.resp_wqe)) {
			dp->dropped++;
			continue;
		}
		sim_ud_to(dp, resp, no_grh, &one);
		m->req_synd = one.req_synd;
		if (!one.resp)
			continue;
		sim_ud_msg_fill(dp, &one);
		sim_ud_deliver(dp, &one);
	}
}

/* Execute send WQE dp->rc of @req, with @av, as one datagram. */
static void sim_ud_send(struct sim_dp *dp, struct sim_qp *req,
			const struct sim_ud_av *av, struct sim_ud_msg *m)
{
	struct sim_rc_side *src = &dp->rc_src;
	const struct sim_rc_wqe *w = &dp->rc;
	struct mlx5x_sim *sim = dp->sim;
	const struct sim_roce_gid *sgid;
	u8 grh[SIM_UD_GRH];
	struct sim_qp *resp;
	bool mcast, no_grh, wired, tx_drop = false;
	u32 qkey, l3;

	if (w->opcode == SIM_OPCODE_NOP)
		return;
	if (w->len > sim_ud_mtu(sim, req)) {
		m->req_synd = SIM_CQE_SYND_LOCAL_LENGTH;
		return;
	}
	if (!sim_rc_resolve_rlky(sim, req->q.obj.uid, sim_qp_pdn(req),
				 sim_qp_rlky(req), w->g, w->n,
				 SIM_MKEY_LOCAL_READ, src)) {
		m->req_synd = SIM_CQE_SYND_LOCAL_PROT;
		return;
	}
	/* a source address the port lacks builds no packet: nothing arrives */
	sgid = &sim->gids[av->sgid_index];
	if (!sgid->valid)
		goto lost;
	qkey = av->qkey & BIT(31) ? PRM_GET(qpc, req->qpc, q_key) : av->qkey;
	mcast = av->dqpn == SIM_UD_MCAST_QPN && sim_mcg_gid(av->dgid);
	wired = sim_roce_gid_find(sim, av->dgid) < 0;
	if (wired) {
		m->req_synd = sim_ud_wire_send(dp, req, av, sgid, qkey,
					       &tx_drop);
		/*
		 * multicast also loops back to the port's members, below
		 * RDMA TX: what it dropped reaches neither them nor the wire
		 */
		if (!mcast || m->req_synd)
			return;
		if (tx_drop)
			goto lost;
	}
	/* RDMA TX (unless on its way out it did), then RDMA RX */
	if (!sim_lb_rdma_ud(dp, req, av, sgid, qkey, !wired))
		goto lost;
	l3 = sim_ud_grh(sgid, av, w->len, grh);
	m->flags_rqpn = SIM_CQE_GRH | l3 << SIM_CQE_ROCE_L3_SHIFT |
			(PRM_GET(qpc, req->qpc, st) == MLX5_QPC_ST_QP1 ?
			 SIM_GSI_QPN : req->q.obj.id);
	/* looped inside the port, the datagram is as tagged as on the wire */
	m->tagged = sgid->vlan_valid;
	m->vlan = sgid->vlan_id | av->prio << SIM_ROCE_VLAN_PRIO_SHIFT;
	no_grh = !sim_ud_prepend(src, grh);
	if (mcast) {
		/* a member's copy may not be made twice: no fault */
		sim_odp_unarm(sim);
		sim_ud_mcast(dp, av->dgid, qkey, no_grh, m);
		return;
	}
	resp = sim_ud_peer(sim, av->dqpn, qkey);
	if (!resp || !sim_rq_take(sim, resp, &m->resp_wqe))
		goto lost;
	sim_ud_to(dp, resp, no_grh, m);
	return;
lost:
	dp->dropped++;
}

/* The receiver's CQE for datagram @m. */
void sim_ud_deliver(struct sim_dp *dp, const struct sim_ud_msg *m)
{
	struct sim_cqe_info info = { .wqe_counter = m->resp_wqe };
	struct sim_qp *resp = m->resp;

	sim_rq_done(resp);
	if (m->resp_synd) {
		info.opcode = SIM_CQE_RESP_ERR;
		info.syndrome = m->resp_synd;
		PRM_SET(qpc, resp->qpc, state, SIM_QP_ST(ERR));
		sim_dp_kick(dp->sim);
	} else {
		info.opcode = m->imm ? SIM_CQE_RESP_SEND_IMM :
			      SIM_CQE_RESP_SEND;
		info.byte_cnt = SIM_UD_GRH + m->len;
		info.imm = m->imm_data;
		info.solicited = m->solicited;
		info.flags_rqpn = m->flags_rqpn;
		if (m->tagged) {
			info.l4_l3_hdr_type = SIM_CQE_CVLAN;
			info.vlan_info = m->vlan;
		}
	}
	sim_rc_cqe(dp->sim, resp, false, &info);
}

/*
 * Execute (RTS), or flush (SQER, ERR), the send WQE at the consumer
 * index.  Returns 1: a WQE done.
 */
static unsigned int sim_ud_sq_one(struct sim_dp *dp, struct sim_qp *qp,
				  struct sim_umem *buf, u32 nbb)
{
	bool flush = sim_qp_state(qp) != SIM_QP_ST(RTS);
	struct sim_cqe_info info = {};
	struct sim_ud_msg m = {};
	struct sim_ud_av av = {};
	int parsed;

	memset(&dp->rc, 0, offsetof(struct sim_rc_wqe, g));
	if (!sim_dp_read_wqe(dp, buf, qp->dp.buf_off + sim_rq_bytes(qp), nbb,
			     qp->dp.sq_cc))
		parsed = -EINVAL;
	else
		parsed = sim_ud_wqe_parse(dp->wqe, sizeof(dp->wqe), &dp->rc,
					  &av);
	if (flush)
		m.req_synd = SIM_CQE_SYND_WR_FLUSH;
	else if (parsed == -EOPNOTSUPP)
		m.req_synd = SIM_CQE_SYND_LOCAL_QP_OP;
	else if (parsed)
		m.req_synd = SIM_CQE_SYND_LOCAL_LENGTH;
	else if (sim_odp_arm(dp->sim, qp))
		sim_ud_send(dp, qp, &av, &m);
	else
		return 0;	/* it waits for its page fault (mem/odp.c) */
	/* it stopped on one: nothing of it stays, no receive WQE taken */
	if (sim_odp_disarm(dp->sim, qp))
		return 0;
	qp->dp.sq_cc += DIV_ROUND_UP(max_t(u32, dp->rc.ds, 1) * SIM_WQE_SEG,
				     SIM_SEND_WQE_BB);
	dp->wqes++;
	if (m.resp) {
		sim_ud_msg_fill(dp, &m);
		sim_ud_deliver(dp, &m);
		qp->dp.messages++;
	}
	info.wqe_counter = dp->rc.index;
	info.wqe_opcode = dp->rc.opcode;
	if (m.req_synd) {
		info.opcode = SIM_CQE_REQ_ERR;
		info.syndrome = m.req_synd;
		if (!flush)
			PRM_SET(qpc, qp->qpc, state, SIM_QP_ST(SQER));
	} else if (dp->rc.signalled) {
		info.opcode = SIM_CQE_REQ;
	} else {
		return 1;
	}
	sim_rc_cqe(dp->sim, qp, true, &info);
	return 1;
}

/**
 * sim_dp_ud_qp() - the worker's turn of one UD QP
 * @dp: the data path, the model's lock held
 * @qp: the QP
 * @budget: WQEs it may execute
 * @active: set when the QP needs the worker again
 *
 * In RTS its send WQEs are executed in order, up to @budget; in SQER they
 * are flushed; in ERR its receive WQEs are flushed too.
 *
 * Return: the WQEs done.
 */
unsigned int sim_dp_ud_qp(struct sim_dp *dp, struct sim_qp *qp,
			  unsigned int budget, bool *active)
{
	u32 state = sim_qp_state(qp);

	if (!qp->dp.buf_umem ||
	    (state != SIM_QP_ST(RTS) && state != SIM_QP_ST(SQER) &&
	     state != SIM_QP_ST(ERR)))
		return 0;
	return sim_dp_qp_turn(dp, qp, budget, active, sim_ud_sq_one);
}
