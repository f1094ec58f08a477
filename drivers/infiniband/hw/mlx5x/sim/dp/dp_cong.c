// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCE v2 congestion notification (IBTA, the RoCE v2 annex A17.9): the
 * port as notification point and as reaction point, and their counters.
 *
 * Notification point.  A RoCE v2 packet that a QP of the port takes with
 * Congestion Experienced in its IP header's ECN field (11b, set by a
 * switch on the way) counts in np_ecn_marked_roce_packets, and the port
 * tells the flow's sender with a CNP: BTH opcode 0x81, the BECN bit set,
 * PSN 0, 16 reserved bytes, to the QP that sent the packet (a connected
 * QP's remote QP, a datagram's DETH source QP), back along the packet's
 * own addresses (MACs, GIDs, VLAN tag, UDP source port) with its P_Key,
 * DSCP 48 (a ConnectX's default cnp_dscp) and no ECN of its own;
 * np_cnp_sent counts it.  At most one CNP per QP each
 * SIM_CNP_INTERVAL_NS (a ConnectX's default min_time_between_cnps): the
 * other marked packets of that time count as marked only.  A multicast
 * packet is answered by no CNP.
 *
 * Reaction point.  A ConnectX's reaction point lowers the rate of the
 * flow a CNP names (DCQCN).  The model has no rate limiter, and says so:
 * a CNP to a QP of the port counts in rp_cnp_ignored, as a ConnectX
 * counts the CNPs of a priority whose reaction point is disabled, and
 * changes nothing; rp_cnp_handled stays 0.  A CNP to no QP of the port
 * is dropped as any packet to no QP is.
 *
 * QUERY_CONG_STATISTICS answers the four counters (rp_cur_flows and
 * sum_flows 0: no flow is rate limited).  Any uid reads them (a DEVX
 * general command); only the kernel's clears them ("clear"), so that no
 * user empties what the others read.
 */
#include <linux/if_ether.h>
#include <linux/sched/clock.h>
#include "../queues/queues.h"
#include "dp_priv.h"
#include "dp_roce.h"

#define SIM_CNP_BECN		0x40	/* in the BTH's byte 4 */
#define SIM_CNP_PAYLOAD		16
#define SIM_CNP_TCLASS		(48 << 2)
#define SIM_CNP_HOP_LIMIT	64
#define SIM_CNP_INTERVAL_NS	(4 * NSEC_PER_USEC)
#define SIM_ECN_MASK		3
#define SIM_ECN_CE		3

/**
 * sim_cnp_due_at() - whether a CNP to @qp's sender is due, and if so that
 *		      it was sent
 * @qp: the QP that took a marked packet
 * @now: local_clock() now
 *
 * Return: true unless the port sent one for @qp less than
 * min_time_between_cnps (4 us) before @now.
 */
bool sim_cnp_due_at(struct sim_qp *qp, u64 now)
{
	if (qp->dp.cnp_ns && now - qp->dp.cnp_ns < SIM_CNP_INTERVAL_NS)
		return false;
	qp->dp.cnp_ns = now ?: 1;
	return true;
}

/* The CNP that answers @u, to QP @dqpn of its sender. */
static void sim_cnp_send(struct sim_dp *dp, const struct sim_roce_ud *u,
			 u32 dqpn)
{
	static const u8 reserved[SIM_CNP_PAYLOAD];
	u8 f[SIM_ROCE_HDR_MAX + SIM_CNP_PAYLOAD + SIM_ROCE_ICRC];
	struct sim_roce_ud c = {
		.tagged = u->tagged,
		.vlan = u->vlan,
		.v4 = u->v4,
		.tclass = SIM_CNP_TCLASS,
		.hop_limit = SIM_CNP_HOP_LIMIT,
		.sport = u->sport,
		.opcode = SIM_ROCE_CNP,
		.pkey = u->pkey,
		.dqpn = dqpn,
	};
	u32 hdr, len;

	memcpy(c.dmac, u->smac, ETH_ALEN);
	memcpy(c.smac, u->dmac, ETH_ALEN);
	memcpy(c.dgid, u->sgid, sizeof(c.dgid));
	memcpy(c.sgid, u->dgid, sizeof(c.sgid));
	/* the reserved bytes as what follows the BTH, no payload */
	hdr = sim_roce_build(&c, reserved, sizeof(reserved), f);
	f[hdr - sizeof(reserved) - SIM_ROCE_BTH + 4] |= SIM_CNP_BECN;
	len = sim_roce_ud_seal(f, hdr);
	if (!sim_dp_rdma_steer(dp, true, f, len))
		return;
	dp->wire.np_cnp_sent++;
	dp->wire.roce_tx++;
	dp->tx_packets++;
	sim_wire_out(dp, f, len, true);
}

/**
 * sim_np_rx() - the notification point, on a packet a QP of the port took
 * @dp: the data path, the model's lock held
 * @qp: the QP
 * @u: the packet
 * @sender: the QP that sent it, where the CNP goes
 */
void sim_np_rx(struct sim_dp *dp, struct sim_qp *qp,
	       const struct sim_roce_ud *u, u32 sender)
{
	if (u->v1 || (u->tclass & SIM_ECN_MASK) != SIM_ECN_CE)
		return;
	dp->wire.np_ecn_marked++;
	if (sim_cnp_due_at(qp, local_clock()))
		sim_cnp_send(dp, u, sender);
}

/**
 * sim_rp_rx() - the reaction point, on a CNP from the wire
 * @dp: the data path, the model's lock held
 * @u: the CNP, parsed to its BTH
 *
 * Counted as ignored, or as dropped (to no QP of the port), or as
 * malformed (short, or RoCE v1).
 */
void sim_rp_rx(struct sim_dp *dp, const struct sim_roce_ud *u)
{
	if (u->v1 || u->len < SIM_CNP_PAYLOAD) {
		dp->wire.roce_malformed++;
	} else if (xa_load(&dp->sim->objs[SIM_OBJ_QP], u->dqpn)) {
		dp->wire.rp_cnp_ignored++;
	} else {
		dp->wire.roce_dropped++;
		dp->dropped++;
	}
}

#define SIM_CONG_SET(out, fld, v) do {					\
	PRM_SET(query_cong_statistics_out, out, fld##_high, (v) >> 32);	\
	PRM_SET(query_cong_statistics_out, out, fld##_low, (u32)(v));	\
} while (0)

static u8 sim_query_cong_statistics(struct mlx5x_sim *sim,
				    struct sim_cmd_ctx *ctx)
{
	bool clear = PRM_GET(query_cong_statistics_in, ctx->in, clear);
	void *out = ctx->out;
	struct sim_wire *w;

	if (ctx->op_mod || (ctx->uid && clear))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (!sim->dp)
		return PRM_STAT_OK;
	w = &sim->dp->wire;
	SIM_CONG_SET(out, rp_cnp_ignored, w->rp_cnp_ignored);
	SIM_CONG_SET(out, np_ecn_marked_roce_packets, w->np_ecn_marked);
	SIM_CONG_SET(out, np_cnp_sent, w->np_cnp_sent);
	if (clear) {
		w->rp_cnp_ignored = 0;
		w->np_ecn_marked = 0;
		w->np_cnp_sent = 0;
	}
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_cong_list[] = {
	SIM_CMD(MLX5_CMD_OP_QUERY_CONG_STATISTICS, "QUERY_CONG_STATISTICS",
		query_cong_statistics_in, query_cong_statistics_out, true,
		sim_query_cong_statistics),
};

const struct sim_cmd_set sim_cong_cmds = {
	sim_cong_list, ARRAY_SIZE(sim_cong_list)
};
