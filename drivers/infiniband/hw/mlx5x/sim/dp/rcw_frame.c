// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC, UC and XRC on the wire: which QPs are on it, the packets they put
 * out and how a received one is read and handed to its QP.  XRC is RC
 * from an initiator to a target, with an XRCETH (the XRC SRQ) on each
 * request, in its own opcode space.
 *
 * A connected QP is on the wire when its address path's destination GID
 * is set and is not one of the port's: its peer is another device,
 * reached through the netdev.  Otherwise its traffic loops inside the
 * device (dp_rc.c), as a ConnectX's does between two QPs of one port.
 *
 * A packet of such a QP is a RoCE packet (dp_roce.c frames it) built
 * from its context as a ConnectX builds it: the address path's
 * destination MAC, the port's MAC, the source GID at the path's index
 * (RoCE v2 or v1, as the entry is; a VLAN tag when the entry is on a
 * VLAN, its priority the path's eth_prio), the destination GID,
 * the path's traffic class, hop limit and flow label, its UDP source port
 * (or one from the flow label), the default P_Key, the peer QP of the
 * context.  The path MTU is the context's.
 *
 * Received, a packet whose BTH names a QP of the device goes to it if it
 * is an RC or UC QP on the wire, in RTR or later, of the transport the
 * opcode belongs to: a request to its responder (rcw_resp.c), a response
 * to its requester (rcw_ack.c).  Its extended headers are read against
 * the bytes the packet has: one too short is malformed, and dropped.
 */
#include "../queues/queues.h"
#include "dp_priv.h"
#include "rcw.h"

#define F(x)	SIM_RCW_F_##x

/* What each opcode of RC carries, by its low 5 bits (UC: those marked). */
static const u16 sim_rcw_ops[32] = {
	[SIM_RCW_SEND_FIRST] = F(SEND) | F(FIRST) | F(PAYLOAD) | F(UC),
	[SIM_RCW_SEND_MIDDLE] = F(SEND) | F(PAYLOAD) | F(UC),
	[SIM_RCW_SEND_LAST] = F(SEND) | F(LAST) | F(PAYLOAD) | F(UC),
	[SIM_RCW_SEND_LAST_IMM] = F(SEND) | F(LAST) | F(IMM) | F(PAYLOAD) |
				  F(UC),
	[SIM_RCW_SEND_ONLY] = F(SEND) | F(FIRST) | F(LAST) | F(PAYLOAD) |
			      F(UC),
	[SIM_RCW_SEND_ONLY_IMM] = F(SEND) | F(FIRST) | F(LAST) | F(IMM) |
				  F(PAYLOAD) | F(UC),
	[SIM_RCW_WRITE_FIRST] = F(WRITE) | F(FIRST) | F(RETH) | F(PAYLOAD) |
				F(UC),
	[SIM_RCW_WRITE_MIDDLE] = F(WRITE) | F(PAYLOAD) | F(UC),
	[SIM_RCW_WRITE_LAST] = F(WRITE) | F(LAST) | F(PAYLOAD) | F(UC),
	[SIM_RCW_WRITE_LAST_IMM] = F(WRITE) | F(LAST) | F(IMM) | F(PAYLOAD) |
				   F(UC),
	[SIM_RCW_WRITE_ONLY] = F(WRITE) | F(FIRST) | F(LAST) | F(RETH) |
			       F(PAYLOAD) | F(UC),
	[SIM_RCW_WRITE_ONLY_IMM] = F(WRITE) | F(FIRST) | F(LAST) | F(RETH) |
				   F(IMM) | F(PAYLOAD) | F(UC),
	[SIM_RCW_READ_REQ] = F(READ) | F(FIRST) | F(LAST) | F(RETH),
	[SIM_RCW_READ_FIRST] = F(RESP) | F(FIRST) | F(AETH) | F(PAYLOAD),
	[SIM_RCW_READ_MIDDLE] = F(RESP) | F(PAYLOAD),
	[SIM_RCW_READ_LAST] = F(RESP) | F(LAST) | F(AETH) | F(PAYLOAD),
	[SIM_RCW_READ_ONLY] = F(RESP) | F(FIRST) | F(LAST) | F(AETH) |
			      F(PAYLOAD),
	[SIM_RCW_ACK] = F(RESP) | F(AETH),
	[SIM_RCW_ATOMIC_ACK] = F(RESP) | F(AETH) | F(ATOMICACK),
	[SIM_RCW_CMP_SWAP] = F(ATOMIC) | F(FIRST) | F(LAST) | F(ATOMICETH),
	[SIM_RCW_FETCH_ADD] = F(ATOMIC) | F(FIRST) | F(LAST) | F(ATOMICETH),
	[SIM_RCW_SEND_LAST_INV] = F(SEND) | F(LAST) | F(IETH) | F(PAYLOAD),
	[SIM_RCW_SEND_ONLY_INV] = F(SEND) | F(FIRST) | F(LAST) | F(IETH) |
				  F(PAYLOAD),
};

/**
 * sim_rcw_op() - what a packet of an RC, UC or XRC opcode carries
 * @opcode: the BTH's
 *
 * Return: its SIM_RCW_F_* flags (SIM_RCW_F_UC for UC's, SIM_RCW_F_XRC
 * for XRC's), 0 for an opcode none of the three has.
 */
u32 sim_rcw_op(u8 opcode)
{
	u32 f = sim_rcw_ops[opcode & ~SIM_RCW_TRANSPORT];

	switch (opcode & SIM_RCW_TRANSPORT) {
	case 0:
		return f & ~F(UC);
	case SIM_RCW_UC:
		return f & F(UC) ? f : 0;
	case SIM_RCW_XRC:
		return f ? (f & ~F(UC)) | F(XRC) : 0;
	default:
		return 0;
	}
}

/**
 * sim_rcw_base() - the opcode space of a connected QP's transport
 * @qp: an RC, UC or XRC QP
 *
 * Return: 0 (RC), SIM_RCW_UC or SIM_RCW_XRC.
 */
u8 sim_rcw_base(const struct sim_qp *qp)
{
	switch (PRM_GET(qpc, qp->qpc, st)) {
	case MLX5_QPC_ST_UC:
		return SIM_RCW_UC;
	case MLX5_QPC_ST_XRC:
		return SIM_RCW_XRC;
	default:
		return 0;
	}
}

/* Take @n bytes of header off the front of @pk's payload. */
static const u8 *sim_rcw_pull(struct sim_rcw_pkt *pk, u32 n)
{
	const u8 *at = pk->data;

	if (pk->len < n)
		return NULL;
	pk->data += n;
	pk->len -= n;
	return at;
}

/**
 * sim_rcw_read_ext() - read a packet's extended headers
 * @u: the packet, parsed to its BTH (@u->payload what follows it)
 * @pk: its headers and payload
 *
 * Return: false when its opcode is neither RC's nor UC's, or the packet
 * is shorter than its headers, or carries a payload it should not.
 */
bool sim_rcw_read_ext(const struct sim_roce_ud *u, struct sim_rcw_pkt *pk)
{
	const u8 *h;

	memset(pk, 0, sizeof(*pk));
	pk->flags = sim_rcw_op(u->opcode);
	pk->data = u->payload;
	pk->len = u->len;
	if (!pk->flags)
		return false;
	if ((pk->flags & (F(XRC) | F(RESP))) == F(XRC)) {
		h = sim_rcw_pull(pk, SIM_RCW_XRCETH);
		if (!h)
			return false;
		pk->xrc_srqn = sim_rcw_get32(h) & SIM_RCW_PSN_MASK;
	}
	if (pk->flags & F(RETH)) {
		h = sim_rcw_pull(pk, SIM_RCW_RETH);
		if (!h)
			return false;
		pk->va = sim_rcw_get64(h);
		pk->rkey = sim_rcw_get32(h + 8);
		pk->dma_len = sim_rcw_get32(h + 12);
	}
	if (pk->flags & F(AETH)) {
		h = sim_rcw_pull(pk, SIM_RCW_AETH);
		if (!h)
			return false;
		pk->aeth = sim_rcw_get32(h);
	}
	if (pk->flags & F(ATOMICETH)) {
		h = sim_rcw_pull(pk, SIM_RCW_ATOMICETH);
		if (!h)
			return false;
		pk->va = sim_rcw_get64(h);
		pk->rkey = sim_rcw_get32(h + 8);
		pk->swap_add = sim_rcw_get64(h + 12);
		pk->compare = sim_rcw_get64(h + 20);
	}
	if (pk->flags & F(ATOMICACK)) {
		h = sim_rcw_pull(pk, SIM_RCW_ATOMICACKETH);
		if (!h)
			return false;
		pk->orig = sim_rcw_get64(h);
	}
	if (pk->flags & (F(IMM) | F(IETH))) {
		h = sim_rcw_pull(pk, SIM_ROCE_IMM);
		if (!h)
			return false;
		memcpy(&pk->imm, h, SIM_ROCE_IMM);
	}
	return pk->flags & F(PAYLOAD) || !pk->len;
}

/**
 * sim_rcw_pmtu() - a connected QP's path MTU, in bytes
 * @qp: the QP
 *
 * Return: 256 to 4096, as its context's MTU code says (1 to 5).
 */
u32 sim_rcw_pmtu(const struct sim_qp *qp)
{
	u32 code = clamp_t(u32, PRM_GET(qpc, qp->qpc, mtu), 1, 5);

	return 128U << code;
}

/*
 * The PSNs message @w of requester @qp takes: one a packet of the path
 * MTU (a READ: one a response); a zero-length message or an atomic, one.
 */
u32 sim_rcw_npsn(const struct sim_qp *qp, const struct sim_rc_wqe *w)
{
	if (w->len && !w->atomic)
		return DIV_ROUND_UP_ULL(w->len, sim_rcw_pmtu(qp));
	return 1;
}

/**
 * sim_rcw_addr() - the addresses and BTH of a packet of @qp's
 * @sim: the model
 * @qp: a connected QP, whose context says them
 * @u: filled
 *
 * Return: false when the context's source GID is not a valid one.
 */
bool sim_rcw_addr(struct mlx5x_sim *sim, const struct sim_qp *qp,
		  struct sim_roce_ud *u)
{
	const void *ads = PRM_ADDR(qpc, qp->qpc, primary_address_path);
	const struct sim_roce_gid *sgid;
	u32 hi = PRM_GET(ads, ads, rmac_47_32);
	u32 lo = PRM_GET(ads, ads, rmac_31_0);
	u32 idx = PRM_GET(ads, ads, src_addr_index);

	if (idx >= SIM_ROCE_GIDS)
		return false;
	sgid = &sim->gids[idx];
	if (!sgid->valid)
		return false;
	u->v1 = sgid->version == SIM_ROCE_V1;
	u->v4 = sgid->l3_type == SIM_ROCE_L3_IPV4;
	u->tagged = sgid->vlan_valid;
	u->vlan = sgid->vlan_id | PRM_GET(ads, ads, eth_prio) <<
		  SIM_ROCE_VLAN_PRIO_SHIFT;
	u->dmac[0] = hi >> 8;
	u->dmac[1] = hi;
	u->dmac[2] = lo >> 24;
	u->dmac[3] = lo >> 16;
	u->dmac[4] = lo >> 8;
	u->dmac[5] = lo;
	memcpy(u->smac, sim->params.mac, sizeof(u->smac));
	memcpy(u->sgid, sgid->gid, sizeof(u->sgid));
	memcpy(u->dgid, PRM_ADDR(ads, ads, rgid_rip), sizeof(u->dgid));
	u->tclass = PRM_GET(ads, ads, tclass);
	u->hop_limit = PRM_GET(ads, ads, hop_limit);
	u->flow_label = PRM_GET(ads, ads, flow_label);
	u->sport = PRM_GET(ads, ads, udp_sport) ?:
		   sim_roce_sport(u->flow_label);
	u->pkey = SIM_ROCE_PKEY_DEFAULT;
	u->dqpn = PRM_GET(qpc, qp->qpc, remote_qpn);
	return true;
}

/**
 * sim_rcw_emit() - put one packet of @qp's on the wire
 * @dp: the data path
 * @qp: the QP it is of
 * @opcode: its BTH opcode, in RC's space (the QP's transport's is used)
 * @psn: its PSN
 * @ackreq: it asks for an acknowledgement
 * @se: solicited event
 * @ext: its extended headers, as on the wire
 * @ext_len: their bytes
 * @src: the side its payload comes from (a struct sim_rc_side), or NULL
 * @skip: where in it the payload starts
 * @len: the payload's bytes, the path MTU at most
 *
 * Return: false when memory of @src refused (nothing is sent); a packet
 * that cannot be built (no valid source GID, no memory) is counted as
 * lost, as one the wire dropped.
 */
bool sim_rcw_emit(struct sim_dp *dp, struct sim_qp *qp, u8 opcode, u32 psn,
		  bool ackreq, bool se, const u8 *ext, u32 ext_len,
		  const void *src, u64 skip, u32 len)
{
	struct sim_rc_side *dst = &dp->rc_dst;
	struct sim_roce_ud u = {};
	u8 *f = dp->frame;
	u32 hdr, flen;

	if (!sim_rcw_addr(dp->sim, qp, &u)) {
		dp->wire.roce_tx_lost++;
		return true;
	}
	u.opcode = opcode | sim_rcw_base(qp);
	u.psn = psn;
	u.ackreq = ackreq;
	u.se = se;
	u.len = len;
	hdr = sim_roce_build(&u, ext, ext_len, f);
	if (len) {
		/* the first piece stands for the @skip bytes before it */
		dst->n = 2;
		dst->p[0] = (struct sim_rc_piece){ .kva = f, .len = skip };
		dst->p[1] = (struct sim_rc_piece){ .kva = f + hdr, .len = len };
		if (sim_rc_copy(dp, src, dst, skip, len))
			return false;
	}
	flen = sim_roce_ud_seal(f, hdr + len);
	/* dropped by an RDMA TX rule: lost, as on the wire */
	if (!sim_dp_rdma_steer(dp, true, f, flen))
		return true;
	dp->wire.roce_tx++;
	dp->tx_packets++;
	sim_wire_out(dp, f, flen, true);
	return true;
}

/**
 * sim_rcw_put_aeth() - write a responder's AETH
 * @ext: SIM_RCW_AETH bytes
 * @qp: the responder, whose MSN it carries
 * @synd: the syndrome: SIM_RCW_AETH_ACK (with no credit count),
 *	  SIM_RCW_AETH_RNR with a timer code, SIM_RCW_AETH_NAK with a code
 */
void sim_rcw_put_aeth(u8 *ext, const struct sim_qp *qp, u8 synd)
{
	if (synd == SIM_RCW_AETH_ACK)
		synd |= SIM_RCW_CREDITS_NONE;
	sim_rcw_put32(ext, (u32)synd << 24 |
		      (qp->dp.rcw.msn & SIM_RCW_PSN_MASK));
}

/**
 * sim_rcw_aeth() - send an ACK or a NAK
 * @dp: the data path
 * @qp: the responder
 * @psn: the PSN it is for
 * @synd: the AETH's syndrome, as sim_rcw_put_aeth() takes it
 */
void sim_rcw_aeth(struct sim_dp *dp, struct sim_qp *qp, u32 psn, u8 synd)
{
	u8 ext[SIM_RCW_AETH];

	sim_rcw_put_aeth(ext, qp, synd);
	sim_rcw_emit(dp, qp, SIM_RCW_ACK, psn, false, false, ext, sizeof(ext),
		     NULL, 0, 0);
}

/**
 * sim_rcw_on_wire() - whether a connected QP's peer is across the wire
 * @sim: the model
 * @qp: an RC, UC or XRC QP
 *
 * Return: true when its path names a GID that is not the port's.
 */
bool sim_rcw_on_wire(struct mlx5x_sim *sim, const struct sim_qp *qp)
{
	const void *ads = PRM_ADDR(qpc, qp->qpc, primary_address_path);
	u32 st = PRM_GET(qpc, qp->qpc, st);

	if (st != MLX5_QPC_ST_RC && st != MLX5_QPC_ST_UC &&
	    st != MLX5_QPC_ST_XRC)
		return false;
	if (!memchr_inv(PRM_ADDR(ads, ads, rgid_rip), 0, SIM_GID_BYTES))
		return false;
	return sim_roce_gid_find(sim, PRM_ADDR(ads, ads, rgid_rip)) < 0;
}

/**
 * sim_rcw_rx() - an RC or UC packet from the wire, to a QP of the port
 * @dp: the data path, the model's lock held
 * @u: the packet, parsed to its BTH
 *
 * Return: false when no QP took it (counted by the caller as dropped).
 */
bool sim_rcw_rx(struct sim_dp *dp, const struct sim_roce_ud *u)
{
	struct mlx5x_sim *sim = dp->sim;
	struct sim_rcw_pkt pk;
	struct sim_obj *obj;
	struct sim_qp *qp;
	u32 state, st;

	if (!sim_rcw_read_ext(u, &pk)) {
		dp->wire.roce_malformed++;
		return true;
	}
	if ((u->pkey & 0x7fff) != 0x7fff)
		return false;
	obj = xa_load(&sim->objs[SIM_OBJ_QP], u->dqpn);
	if (!obj)
		return false;
	qp = container_of(obj, struct sim_qp, q.obj);
	st = PRM_GET(qpc, qp->qpc, st);
	state = sim_qp_state(qp);
	if (st != (pk.flags & F(UC) ? MLX5_QPC_ST_UC :
		   pk.flags & F(XRC) ? MLX5_QPC_ST_XRC : MLX5_QPC_ST_RC) ||
	    (!qp->dp.buf_umem && !sim_dp_xrc_tgt(qp)) ||
	    !sim_rcw_on_wire(sim, qp) ||
	    (state != SIM_QP_ST(RTR) && state != SIM_QP_ST(RTS) &&
	     state != SIM_QP_ST(SQD) && state != SIM_QPC_STATE_SQ_DRAINED))
		return false;
	/* an XRC initiator takes only responses, a target only requests */
	if (st == MLX5_QPC_ST_XRC && !(pk.flags & F(RESP)) != sim_dp_xrc_tgt(qp))
		return false;
	dp->wire.roce_rx_rc++;
	dp->rx_packets++;
	sim_np_rx(dp, qp, u, PRM_GET(qpc, qp->qpc, remote_qpn));
	if (pk.flags & F(RESP))
		sim_rcw_req_rx(dp, qp, u, &pk);
	else
		sim_rcw_resp_rx(dp, qp, u, &pk);
	return true;
}
