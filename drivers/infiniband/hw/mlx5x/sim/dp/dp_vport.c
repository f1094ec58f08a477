// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's link and its vport counters.
 *
 * Link.  The driver tells the model when the netdev goes down or loses
 * its carrier, and when it is back (mlx5x_sim_set_link()).  While the
 * link is down nothing crosses the wire: what the port would put out is
 * lost (link_tx_lost) and what comes in is dropped unread
 * (link_rx_lost), as on a dead cable.  The QPs are not told: an RC
 * requester's ACK timer runs out and it sends again, retry_count times,
 * then completes RETRY_EXC_ERR; a link back within the retries and
 * traffic resumes.  Traffic between two QPs of the port, and a frame
 * the port sends to its own address, loop inside the device before the
 * port's MAC and go on, as a ConnectX's NIC loopback does.
 *
 * Counters.  QUERY_VPORT_COUNTER answers what crossed the port's wire,
 * by direction and kind, packets and octets (the whole frame from its
 * Ethernet header, without FCS): RoCE v2 packets of the port's QPs as
 * ib_unicast or ib_multicast (by the destination MAC's group bit),
 * other frames as eth_unicast, eth_multicast or eth_broadcast; a frame
 * refused unparsed, a RoCE v2 frame whose ICRC or headers are bad as
 * received_errors; a frame the netdev refused as transmit_errors.  What
 * loops inside the device never reaches the port and counts nowhere
 * here (the Q counters have it).  The counters are 64 bits; "clear"
 * (the kernel's uid only) empties them after the answer.
 */
#include <linux/etherdevice.h>
#include "../queues/queues.h"
#include "dp_priv.h"

/* The kind of a frame that crossed, by its destination MAC. */
static enum sim_vport_kind sim_vport_kind(const u8 *frame, bool roce)
{
	if (roce)
		return is_multicast_ether_addr(frame) ? SIM_VP_IB_MC :
							SIM_VP_IB_UC;
	if (is_broadcast_ether_addr(frame))
		return SIM_VP_ETH_BC;
	return is_multicast_ether_addr(frame) ? SIM_VP_ETH_MC : SIM_VP_ETH_UC;
}

/**
 * sim_vport_count() - count a frame that crossed the wire
 * @dp: the data path, the model's lock held
 * @tx: the port sent it, else it received it
 * @frame: the frame, from its Ethernet header (at least ETH_ALEN bytes
 *	   unless @kind is SIM_VP_ERR)
 * @len: its bytes
 * @roce: a RoCE v2 packet of the port's RDMA engine
 */
void sim_vport_count(struct sim_dp *dp, bool tx, const u8 *frame, u32 len,
		     bool roce)
{
	sim_vport_count_kind(dp, tx, sim_vport_kind(frame, roce), len);
}

/**
 * sim_vport_count_kind() - count a frame of a known kind
 * @dp: the data path, the model's lock held
 * @tx: sent, else received
 * @kind: which counter
 * @len: its bytes
 */
void sim_vport_count_kind(struct sim_dp *dp, bool tx,
			  enum sim_vport_kind kind, u32 len)
{
	struct sim_vport_cnt *c = &dp->wire.vport;

	c->pkts[tx][kind]++;
	c->octets[tx][kind] += len;
}

/**
 * mlx5x_sim_set_link() - the port's link went up or down
 * @sim: the model
 * @up: the netdev is up and has its carrier
 *
 * No event: mlx5x_sim_port_change() raises those.
 */
void mlx5x_sim_set_link(struct mlx5x_sim *sim, bool up)
{
	mutex_lock(&sim->lock);
	if (sim->dp) {
		sim->dp->wire.link_downs += sim->dp->wire.down != !up && !up;
		sim->dp->wire.down = !up;
	}
	mutex_unlock(&sim->lock);
}

#define SIM_VP_SET(out, fld, c, tx, kind) do {				\
	PRM_SET64(query_vport_counter_out, out, fld.packets,		\
		  (c)->pkts[tx][kind]);					\
	PRM_SET64(query_vport_counter_out, out, fld.octets,		\
		  (c)->octets[tx][kind]);				\
} while (0)

/*
 * The function's own vport, port 1 (or 0: the function's native port).
 * Any uid reads them (a DEVX general command); only the kernel's clears
 * them, so that no user empties what the others read.
 */
static u8 sim_query_vport_counter(struct mlx5x_sim *sim,
				  struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	void *out = ctx->out;
	struct sim_vport_cnt *c;
	u32 port;

	port = PRM_GET(query_vport_counter_in, in, port_num);
	if (ctx->op_mod || port > 1 ||
	    PRM_GET(query_vport_counter_in, in, other_vport) ||
	    PRM_GET(query_vport_counter_in, in, vport_number) ||
	    (ctx->uid && PRM_GET(query_vport_counter_in, in, clear)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (!sim->dp)
		return PRM_STAT_OK;
	c = &sim->dp->wire.vport;
	SIM_VP_SET(out, received_errors, c, 0, SIM_VP_ERR);
	SIM_VP_SET(out, transmit_errors, c, 1, SIM_VP_ERR);
	SIM_VP_SET(out, received_ib_unicast, c, 0, SIM_VP_IB_UC);
	SIM_VP_SET(out, transmitted_ib_unicast, c, 1, SIM_VP_IB_UC);
	SIM_VP_SET(out, received_ib_multicast, c, 0, SIM_VP_IB_MC);
	SIM_VP_SET(out, transmitted_ib_multicast, c, 1, SIM_VP_IB_MC);
	SIM_VP_SET(out, received_eth_broadcast, c, 0, SIM_VP_ETH_BC);
	SIM_VP_SET(out, transmitted_eth_broadcast, c, 1, SIM_VP_ETH_BC);
	SIM_VP_SET(out, received_eth_unicast, c, 0, SIM_VP_ETH_UC);
	SIM_VP_SET(out, transmitted_eth_unicast, c, 1, SIM_VP_ETH_UC);
	SIM_VP_SET(out, received_eth_multicast, c, 0, SIM_VP_ETH_MC);
	SIM_VP_SET(out, transmitted_eth_multicast, c, 1, SIM_VP_ETH_MC);
	if (PRM_GET(query_vport_counter_in, in, clear))
		memset(c, 0, sizeof(*c));
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_vport_counter_list[] = {
	SIM_CMD(MLX5_CMD_OP_QUERY_VPORT_COUNTER, "QUERY_VPORT_COUNTER",
		query_vport_counter_in, query_vport_counter_out, true,
		sim_query_vport_counter),
};

const struct sim_cmd_set sim_vport_counter_cmds = {
	sim_vport_counter_list, ARRAY_SIZE(sim_vport_counter_list)
};
