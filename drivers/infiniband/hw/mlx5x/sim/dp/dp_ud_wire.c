// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD datagrams across the wire, as RoCE v2 or v1 packets (dp_roce.c
 * frames them), as the source GID's entry is.  An entry on a VLAN tags
 * them (its VLAN ID, the AV's service level as the priority).
 *
 * Send.  A datagram whose destination GID is not one of the port's
 * leaves on the wire as one packet (UD is never segmented; dp_ud.c has
 * refused one over the path MTU): the destination MAC of the AV, the
 * port's MAC, the IP addresses of the source GID and the destination
 * one, the AV's traffic class and hop limit, the UDP source port of the
 * AV (or of its flow label), the default P_Key, the QP's next PSN (it
 * advances by one), the Q_Key of the work request (or the QP's), the
 * source QP (1 for the GSI QP).  The send completes once the frame is handed to the
 * netdev; a key that refuses the payload is the sender's local
 * protection error, and nothing is sent.
 *
 * Receive.  A frame from the wire that is IP, UDP to 4791 (RoCE v2), or
 * of Ethertype 0x8915 (RoCE v1), to an address that an entry of the
 * port's GID table of that RoCE version holds, with the entry's VLAN
 * (an 802.1Q tag of its ID, or no tag for an entry on none), is the RDMA
 * engine's: the NIC's steering and the host's stack never see it.  A
 * frame of another VLAN, or untagged to a VLAN's address, is not.  It
 * is parsed (dp_roce.c; malformed or with a bad ICRC: counted, dropped),
 * then, a UD SEND (with immediate or not) with the default P_Key, goes
 * to the QP its BTH names (1: the GSI QP) as a looped datagram does
 * (sim_ud_peer(): UD, ready, the same Q_Key): its receive WQE gets the
 * GRH (the IPv4 header in bytes 20..39, or the IPv6 header) and the
 * payload, its CQE the source QP of the DETH and the RoCE header type.
 * RC, UC and XRC packets go to rcw_frame.c; other transports' packets
 * are counted and dropped.
 *
 * Multicast.  A frame to a multicast address (IPv6 ff00::/8, or IPv4
 * 224.0.0.0/4 as its mapped GID) is the RDMA engine's while a QP of the
 * device is attached to that group (queues/cmd_mcg.c), else the NIC's
 * steering takes it as any other frame.  A UD SEND to the multicast QP
 * (0xffffff) with the default P_Key goes to every QP of the group that
 * takes its Q_Key and has a receive WQE posted, each copy counted in
 * rx_ud; one that reaches none, or names another QP, is dropped.
 *
 * Sent or received, a RoCE packet walks an RDMA domain
 * (sim_dp_rdma_steer()), which may drop it.
 */
#include <linux/slab.h>
#include "../queues/queues.h"
#include "dp_priv.h"
#include "dp_roce.h"
#include "rcw.h"
#include "wqe.h"

/* P_Keys match when their low 15 bits do (one full member at least). */
#define SIM_UD_PKEY_BITS	0x7fff

/**
 * sim_ud_roce() - what the packet of datagram dp->rc of @req says
 * @dp: the data path
 * @req: the sending QP
 * @av: the WQE's address vector
 * @sgid: the source GID's entry
 * @qkey: the Q_Key the datagram carries
 * @u: filled: its addresses, BTH and DETH, its payload's length
 */
void sim_ud_roce(struct sim_dp *dp, const struct sim_qp *req,
		 const struct sim_ud_av *av, const struct sim_roce_gid *sgid,
		 u32 qkey, struct sim_roce_ud *u)
{
	const struct sim_rc_wqe *w = &dp->rc;

	memset(u, 0, sizeof(*u));
	u->v1 = sgid->version == SIM_ROCE_V1;
	u->v4 = sgid->l3_type == SIM_ROCE_L3_IPV4;
	u->tagged = sgid->vlan_valid;
	u->vlan = sgid->vlan_id | av->prio << SIM_ROCE_VLAN_PRIO_SHIFT;
	memcpy(u->dmac, av->rmac, sizeof(u->dmac));
	memcpy(u->smac, dp->sim->params.mac, sizeof(u->smac));
	memcpy(u->sgid, sgid->gid, sizeof(u->sgid));
	memcpy(u->dgid, av->dgid, sizeof(u->dgid));
	u->tclass = av->tclass;
	u->hop_limit = av->hop_limit;
	u->flow_label = av->flow_label;
	u->sport = av->udp_sport ?: sim_roce_sport(av->flow_label);
	u->opcode = w->opcode == SIM_OPCODE_SEND_IMM ? SIM_ROCE_UD_SEND_IMM :
		    SIM_ROCE_UD_SEND;
	u->se = w->solicited;
	u->pkey = SIM_ROCE_PKEY_DEFAULT;
	u->dqpn = av->dqpn;
	u->psn = PRM_GET(qpc, req->qpc, next_send_psn);
	u->qkey = qkey;
	u->sqpn = PRM_GET(qpc, req->qpc, st) == MLX5_QPC_ST_QP1 ?
		  SIM_GSI_QPN : req->q.obj.id;
	u->imm = w->imm;
	u->len = w->len;
}

/**
 * sim_ud_wire_send() - send datagram dp->rc of @req on the wire
 * @dp: the data path
 * @req: the sending QP
 * @av: the WQE's address vector
 * @sgid: the source GID's entry
 * @qkey: the Q_Key the datagram carries
 * @tx_drop: set when a rule of RDMA TX dropped it (a multicast datagram
 *	is then lost for the port's own members too)
 *
 * Its payload is resolved in dp->rc_src.
 *
 * Return: 0, or the sender's error syndrome.
 */
u32 sim_ud_wire_send(struct sim_dp *dp, struct sim_qp *req,
		     const struct sim_ud_av *av,
		     const struct sim_roce_gid *sgid, u32 qkey, bool *tx_drop)
{
	struct sim_rc_side *dst = &dp->rc_dst;
	struct sim_roce_ud u;
	u32 hdr, len;
	u8 *f;

	sim_ud_roce(dp, req, av, sgid, qkey, &u);
	f = kmalloc(SIM_ROCE_UD_HDR_MAX + u.len + 3 + SIM_ROCE_ICRC,
		    GFP_KERNEL);
	if (!f) {
		dp->dropped++;
		return 0;
	}
	hdr = sim_roce_ud_build(&u, f);
	dst->n = 1;
	dst->p[0] = (struct sim_rc_piece){ .kva = f + hdr, .len = u.len };
	if (sim_rc_copy(dp, &dp->rc_src, dst, 0, u.len)) {
		kfree(f);
		return SIM_CQE_SYND_LOCAL_PROT;
	}
	len = sim_roce_ud_seal(f, hdr + u.len);
	PRM_SET(qpc, req->qpc, next_send_psn, (u.psn + 1) & 0xffffff);
	/* an RDMA TX rule may drop it: the send still completes */
	*tx_drop = !sim_dp_rdma_steer(dp, true, f, len);
	if (!*tx_drop) {
		dp->wire.roce_tx++;
		dp->tx_packets++;
		sim_wire_out(dp, f, len, true);
	}
	kfree(f);
	return 0;
}

/*
 * Whether @gid is an address of the port of RoCE v1 (@v1) or v2, on VLAN
 * @vid (-1: none).
 */
static bool sim_ud_wire_own(struct mlx5x_sim *sim, const u8 *gid, bool v1,
			    int vid)
{
	const struct sim_roce_gid *e;
	unsigned int i;

	for (i = 0; i < SIM_ROCE_GIDS; i++) {
		e = &sim->gids[i];
		if (e->valid &&
		    e->version == (v1 ? SIM_ROCE_V1 : SIM_ROCE_V2) &&
		    (e->vlan_valid ? vid == e->vlan_id : vid < 0) &&
		    !memcmp(e->gid, gid, SIM_GID_BYTES))
			return true;
	}
	return false;
}

/* Datagram @u, received from the wire, into a receive WQE of @resp. */
static void sim_ud_wire_deliver(struct sim_dp *dp, struct sim_qp *resp,
				const struct sim_roce_ud *u,
				struct sim_ud_msg *m)
{
	struct sim_rc_side *src = &dp->rc_src, *dst = &dp->rc_dst;
	u8 grh[SIM_UD_GRH] = {};
	u64 room = 0;
	unsigned int i;

	m->resp = resp;
	m->flags_rqpn = SIM_CQE_GRH | u->sqpn |
			(u->v1 ? SIM_CQE_ROCE_L3_GRH :
			 u->v4 ? SIM_CQE_ROCE_L3_IPV4 : SIM_CQE_ROCE_L3_IPV6) <<
			SIM_CQE_ROCE_L3_SHIFT;
	m->tagged = u->tagged;
	m->vlan = u->vlan;
	m->len = u->len;
	m->imm = u->opcode == SIM_ROCE_UD_SEND_IMM;
	m->imm_data = u->imm;
	m->solicited = u->se;
	if (u->v4)
		memcpy(grh + SIM_UD_IPV4_OFF, u->l3, SIM_UD_GRH - SIM_UD_IPV4_OFF);
	else
		memcpy(grh, u->l3, SIM_UD_GRH);
	m->resp_synd = sim_rc_recv_wqe(dp, resp, dst);
	if (m->resp_synd)
		return;
	for (i = 0; i < dst->n; i++)
		room += dst->p[i].len;
	if (room < SIM_UD_GRH + u->len) {
		m->resp_synd = SIM_CQE_SYND_LOCAL_LENGTH;
		return;
	}
	src->n = 2;
	src->p[0] = (struct sim_rc_piece){ .inl = grh, .len = SIM_UD_GRH };
	src->p[1] = (struct sim_rc_piece){ .inl = u->payload, .len = u->len };
	if (sim_rc_copy(dp, src, dst, 0, SIM_UD_GRH + u->len))
		m->resp_synd = SIM_CQE_SYND_LOCAL_PROT;
}

/*
 * Datagram @u, to group @g from the wire: a copy to each QP of the group
 * that takes its Q_Key and has a receive WQE posted.  Returns the copies
 * delivered.
 */
static unsigned int sim_ud_wire_mcast(struct sim_dp *dp,
				      const struct sim_mcg *g,
				      const struct sim_roce_ud *u)
{
	unsigned int i, n = 0;
	struct sim_ud_msg m;
	struct sim_qp *resp;

	for (i = 0; i < g->n; i++) {
		memset(&m, 0, sizeof(m));
		resp = sim_ud_peer(dp->sim, g->qpn[i], u->qkey);
		if (!resp || !sim_rq_take(dp->sim, resp, &m.resp_wqe))
			continue;
		sim_ud_wire_deliver(dp, resp, u, &m);
		sim_ud_deliver(dp, &m);
		resp->dp.messages++;
		n++;
	}
	return n;
}

/**
 * sim_ud_wire_rx() - a frame from the wire, if it is RoCE v2 to the port
 * @dp: the data path, the model's lock held
 * @frame: the frame, from its Ethernet header
 * @len: its bytes
 *
 * Return: true when the frame was the RDMA engine's (delivered, or
 * counted and dropped); false when it is for the NIC's steering.
 */
bool sim_ud_wire_rx(struct sim_dp *dp, const u8 *frame, u32 len)
{
	struct sim_wire *wire = &dp->wire;
	struct sim_ud_msg m = {};
	struct sim_mcg *group = NULL;
	struct sim_roce_ud u;
	struct sim_qp *resp;
	u8 dgid[SIM_GID_BYTES];
	unsigned int n;
	bool v1;
	int vid;

	if (!sim_roce_dip(frame, len, dgid, &v1, &vid))
		return false;
	/* a group's traffic is the engine's while a QP is attached to it */
	if (sim_mcg_gid(dgid) && !v1 && vid < 0)
		group = sim_mcg_find(dp->sim, dgid);
	if (!group && !sim_ud_wire_own(dp->sim, dgid, v1, vid))
		return false;
	wire->roce_rx++;
	switch (sim_roce_parse(frame, len, &u)) {
	case SIM_ROCE_OK:
		break;
	case SIM_ROCE_BAD_ICRC:
		wire->roce_bad_icrc++;
		wire->ppcnt_icrc++;
		return true;
	case SIM_ROCE_OTHER:
		/* a CNP, to the reaction point (dp_cong.c) */
		if (u.opcode == SIM_ROCE_CNP && !group) {
			if (sim_dp_rdma_steer(dp, false, frame, len))
				sim_rp_rx(dp, &u);
			return true;
		}
		/* RC and UC to a QP on the wire (rcw_frame.c) */
		if (sim_rcw_op(u.opcode) && !group) {
			if (sim_dp_rdma_steer(dp, false, frame, len) &&
			    !sim_rcw_rx(dp, &u)) {
				wire->roce_dropped++;
				dp->dropped++;
			}
			return true;
		}
		wire->roce_unsupported++;
		return true;
	default:
		wire->roce_malformed++;
		return true;
	}
	if (!sim_dp_rdma_steer(dp, false, frame, len))
		return true;
	if (group) {
		/* a multicast packet names the multicast QP, 0xffffff */
		n = u.dqpn == SIM_UD_MCAST_QPN &&
		    (u.pkey & SIM_UD_PKEY_BITS) == SIM_UD_PKEY_BITS ?
		    sim_ud_wire_mcast(dp, group, &u) : 0;
		if (!n) {
			wire->roce_dropped++;
			dp->dropped++;
			return true;
		}
		wire->roce_rx_ud += n;
		dp->rx_packets++;
		return true;
	}
	resp = (u.pkey & SIM_UD_PKEY_BITS) == SIM_UD_PKEY_BITS ?
	       sim_ud_peer(dp->sim, u.dqpn, u.qkey) : NULL;
	if (!resp || !sim_rq_take(dp->sim, resp, &m.resp_wqe)) {
		wire->roce_dropped++;
		dp->dropped++;
		return true;
	}
	sim_np_rx(dp, resp, &u, u.sqpn);
	sim_ud_wire_deliver(dp, resp, &u, &m);
	sim_ud_deliver(dp, &m);
	resp->dp.messages++;
	wire->roce_rx_ud++;
	dp->rx_packets++;
	return true;
}
