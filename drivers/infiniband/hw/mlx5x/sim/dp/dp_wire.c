// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's wire: the netdev the device was created over, as the uplink
 * of a ConnectX port.  The driver registers where the frames the port
 * puts out go (mlx5x_sim_set_wire()) and hands in, one at a time from
 * process context, the frames the netdev received (mlx5x_sim_wire_rx()).
 *
 * Transmit.  A frame an SQ sends walks the NIC TX tables; each copy that
 * leaves them for the wire is then judged by its destination MAC:
 *
 *   the port's own    it loops: it walks the NIC RX tables, every TIR
 *                     they reach gets a copy (self_lb_block aside), and
 *                     a copy that reaches the port's default goes to the
 *                     host's stack, as a ConnectX's loopback reaches its
 *                     Ethernet function;
 *   group (mc/bc)     it loops as above, but the host's stack does not
 *                     get the default copy (a sender does not hear its
 *                     own multicast), and it goes out on the wire too;
 *   another unicast   it walks the NIC RX tables: if a TIR takes it, it
 *                     stays in the device (a rule of this port asked for
 *                     it); otherwise it goes out on the wire.
 *
 * With no wire registered, what would go out is dropped and counted.
 *
 * Receive.  A frame from the wire walks the NIC RX tables as a looped
 * one does; no TIR's self_lb_block applies to it (no TIS of this port
 * sent it).  The caller learns whether the host's stack gets it too: a
 * copy reached the port's default (no rule took it, or a DONT_TRAP rule
 * went on past every other), as the rules it crossed left it: one that
 * a rule rewrote and handed back to the kernel's steering (a steering
 * anchor) reaches the stack rewritten (mlx5x_sim_wire_rx_rewrite()).
 * A frame under an Ethernet header, or over
 * MLX5X_SIM_WIRE_MAX, is refused unparsed and counted; RoCE v2 frames to
 * the port's GIDs (dp_ud_wire.c) skip the NIC RX tables, and may be as
 * long as MLX5X_SIM_WIRE_MAX; any other frame longer than SIM_PKT_MAX
 * goes to the host's stack unsteered, counted (rx_long).
 *
 * RDMA domains.  A RoCE v2 packet a QP of the port puts on the wire walks
 * the RDMA TX tables first, and one from the wire to a QP of the port
 * walks the RDMA RX tables once its ICRC is checked, before the transport
 * sees it (sim_dp_rdma_steer()): a rule that drops it loses it, as the
 * wire would.  Traffic between two QPs of the port loops inside the
 * device as messages, and walks both domains all the same, as the
 * packets it stands for (dp_lb_rdma.c).
 */
#include <linux/etherdevice.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "../steering/classify.h"
#include "datapath.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"

/* No TIS has this transport domain (24 bits): a frame from the wire. */
#define SIM_WIRE_TDN	U32_MAX

/*
 * What a walk of the NIC RX tables did with @p (consumed); @keep, when
 * the caller asks for it, is the first copy that reached the port's
 * default, as the rules it crossed left it (the caller frees it).
 */
struct sim_wire_rx {
	bool taken;	/* a TIR got a copy */
	bool up;	/* a copy reached the port's default */
	struct sim_pkt *keep;
};

/*
 * Walk @p (consumed) through NIC RX: TIRs get their copies; a copy that
 * reaches the default goes to the host's stack when @up_fn is set, or is
 * kept for the caller when @keep is.
 */
static struct sim_wire_rx sim_wire_rx_walk(struct sim_dp *dp,
					   struct sim_pkt *p, u32 tdn,
					   bool up_fn, bool keep)
{
	struct sim_wire *wire = &dp->wire;
	struct sim_wire_rx res = {};
	struct sim_walk_out *rx;
	struct seq_buf none;
	char nothing[1];
	unsigned int j;

	seq_buf_init(&none, nothing, sizeof(nothing));
	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx) {
		kfree(p);
		dp->dropped++;
		return res;
	}
	p->flow_tag = 0;
	sim_classify_walk(dp->sim, false, p, &none, rx);
	for (j = 0; j < rx->n; j++) {
		if (rx->tir[j]) {
			sim_dp_to_tir(dp, rx->tir[j], tdn, rx->p[j]);
			res.taken = true;
		} else if (!res.up) {
			res.up = true;
			if (keep) {
				res.keep = rx->p[j];
				continue;
			}
			if (up_fn && wire->fn) {
				if (wire->fn(wire->ctx, rx->p[j]->data,
					     rx->p[j]->len, true))
					wire->tx_up++;
				else
					wire->tx_dropped++;
			}
		}
		kfree(rx->p[j]);
	}
	kfree(rx);
	return res;
}

/*
 * Out on the wire: @len bytes of @data, a RoCE v2 packet of the port's
 * when @roce.  Lost while the link is down (dp_vport.c).
 */
void sim_wire_out(struct sim_dp *dp, const u8 *data, u32 len, bool roce)
{
	struct sim_wire *wire = &dp->wire;

	if (!wire->fn) {
		dp->dropped++;
		return;
	}
	if (wire->down) {
		wire->link_tx_lost++;
		return;
	}
	if (wire->fn(wire->ctx, data, len, false)) {
		wire->tx++;
		sim_vport_count(dp, true, data, len, roce);
	} else {
		wire->tx_dropped++;
		sim_vport_count_kind(dp, true, SIM_VP_ERR, len);
	}
}

/* One copy @p (consumed) that left the NIC TX tables for the wire. */
static void sim_wire_leave(struct sim_dp *dp, struct sim_pkt *p, u32 tdn)
{
	const u8 *mac = dp->sim->params.mac;
	bool own = ether_addr_equal(p->data, mac);
	bool group = is_multicast_ether_addr(p->data);
	struct sim_wire_rx res;
	u8 *save = NULL;
	u32 len = p->len;

	if (!own) {
		/* the RX walk may rewrite it: the wire gets it as sent */
		save = kmemdup(p->data, len, GFP_KERNEL);
		if (!save) {
			kfree(p);
			dp->dropped++;
			return;
		}
	}
	res = sim_wire_rx_walk(dp, p, tdn, own, false);
	if (own) {
		if (!res.taken && !(res.up && dp->wire.fn))
			dp->dropped++;
	} else if (!res.taken || (group && dp->wire.fn)) {
		sim_wire_out(dp, save, len, false);
	}
	kfree(save);
}

/*
 * The wire: @p (consumed) leaves through the NIC TX tables, and each copy
 * that leaves them is looped, sent, or both (see the top of this file).
 */
void sim_dp_wire(struct sim_dp *dp, struct sim_pkt *p, u32 tdn)
{
	struct sim_walk_out *tx;
	struct seq_buf none;
	char nothing[1];
	unsigned int i;

	/* no trace is kept: a one-byte buffer takes (and drops) it */
	seq_buf_init(&none, nothing, sizeof(nothing));
	tx = kzalloc(sizeof(*tx), GFP_KERNEL);
	if (!tx) {
		kfree(p);
		dp->dropped++;
		return;
	}
	sim_classify_walk(dp->sim, true, p, &none, tx);
	for (i = 0; i < tx->n; i++)
		sim_wire_leave(dp, tx->p[i], tdn);
	if (!tx->n)
		dp->dropped++;
	kfree(tx);
}

/* Tables of a root's miss chain looked at before a walk is assumed. */
#define SIM_RDMA_IDLE_CHAIN	64

/**
 * sim_dp_rdma_busy() - whether a rule may wait in an RDMA domain
 * @sim: the model, its lock held
 * @tx: RDMA TX, else RDMA RX
 *
 * The kernel chains a table per priority from the domain's root by
 * their miss tables.  While none of them holds an entry, a packet walks
 * them all to the domain's default, untouched and uncounted: no walk is
 * needed.  A table that holds one, or a chain longer than
 * SIM_RDMA_IDLE_CHAIN, is a walk.
 *
 * Return: true when a packet must walk the domain.
 */
bool sim_dp_rdma_busy(const struct mlx5x_sim *sim, bool tx)
{
	const struct sim_flow_table *ft;
	unsigned int i;

	ft = sim->fs_root[tx ? SIM_FS_TYPE_RDMA_TX : SIM_FS_TYPE_RDMA_RX];
	for (i = 0; ft && i < SIM_RDMA_IDLE_CHAIN; i++, ft = ft->miss)
		if (!xa_empty(&ft->ftes))
			return true;
	return ft;
}

/**
 * sim_dp_rdma_steer_head() - a RoCE packet, of which the caller holds the
 * head, walks the RDMA domain of its way
 * @dp: the data path, the model's lock held
 * @tx: sent by a QP of the port (RDMA TX), else received for one (RDMA RX)
 * @head: the packet's first bytes, from its Ethernet header: its headers
 *	  at least
 * @head_len: bytes of @head; the tables look at the first SIM_PKT_MAX
 * @len: the packet's bytes, ICRC included: what counters count
 *
 * Return: true when it goes on; false when a rule dropped it (counted),
 * or there was no memory to steer it (counted as dropped).
 */
bool sim_dp_rdma_steer_head(struct sim_dp *dp, bool tx, const u8 *head,
			    u32 head_len, u32 len)
{
	struct sim_pkt *p;
	struct seq_buf none;
	char nothing[1];

	if (!sim_dp_rdma_busy(dp->sim, tx))
		return true;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		dp->dropped++;
		return false;
	}
	p->len = min_t(u32, head_len, SIM_PKT_MAX);
	memcpy(p->data, head, p->len);
	if (len > p->len)
		p->wire_len = len;
	sim_pkt_parse(p);
	seq_buf_init(&none, nothing, sizeof(nothing));
	if (sim_classify_rdma(dp->sim, tx, p, &none))
		return true;
	if (tx)
		dp->wire.rdma_tx_drops++;
	else
		dp->wire.rdma_rx_drops++;
	return false;
}

/**
 * sim_dp_rdma_steer() - a RoCE packet walks the RDMA domain of its way
 * @dp: the data path, the model's lock held
 * @tx: sent by a QP of the port (RDMA TX), else received for one (RDMA RX)
 * @frame: the frame, from its Ethernet header
 * @len: its bytes; the tables look at the first SIM_PKT_MAX, counters
 *	 count them all
 *
 * Return: as sim_dp_rdma_steer_head().
 */
bool sim_dp_rdma_steer(struct sim_dp *dp, bool tx, const u8 *frame, u32 len)
{
	return sim_dp_rdma_steer_head(dp, tx, frame, len, len);
}

/**
 * mlx5x_sim_set_wire() - where the frames the port puts out go
 * @sim: the model
 * @fn: takes them (from the worker, the model's lock held), or NULL
 * @ctx: its argument
 *
 * Once it returns with @fn NULL, the old one is called no more.
 */
void mlx5x_sim_set_wire(struct mlx5x_sim *sim, mlx5x_sim_wire_fn fn,
			void *ctx)
{
	mutex_lock(&sim->lock);
	if (sim->dp) {
		sim->dp->wire.fn = fn;
		sim->dp->wire.ctx = ctx;
	}
	mutex_unlock(&sim->lock);
}

/*
 * What the host's stack gets of a copy @up that reached the port's
 * default, of a frame that came in as @len bytes of @frame: 1, the frame
 * as it came; MLX5X_SIM_WIRE_REWRITTEN, the copy's bytes (the rules it
 * crossed rewrote it) into @out, their length into @out_len, when the
 * caller gave room for them; 0, nothing (dropped: no room, or less than
 * an Ethernet header left).
 */
static int sim_wire_up(struct sim_dp *dp, const struct sim_pkt *up,
		       const void *frame, unsigned int len, void *out,
		       unsigned int *out_len, unsigned int room)
{
	if (!out || (up->len == len && !memcmp(up->data, frame, len)))
		return 1;
	/* a reformat may have left less than an Ethernet header */
	if (up->len > room || up->len < ETH_HLEN) {
		dp->dropped++;
		return 0;
	}
	memcpy(out, up->data, up->len);
	*out_len = up->len;
	dp->wire.rx_up_rewritten++;
	return MLX5X_SIM_WIRE_REWRITTEN;
}

static int sim_wire_rx(struct mlx5x_sim *sim, const void *frame,
		       unsigned int len, void *out, unsigned int *out_len,
		       unsigned int room)
{
	struct sim_wire_rx res;
	struct sim_pkt *p;
	struct sim_dp *dp;
	u64 errs;
	int ret = 0;

	mutex_lock(&sim->lock);
	dp = sim->dp;
	if (!dp || dp->stopping)
		goto out;
	/* a dead link: what was on its way in is lost */
	if (dp->wire.down) {
		dp->wire.link_rx_lost++;
		goto out;
	}
	if (len < ETH_HLEN || len > MLX5X_SIM_WIRE_MAX) {
		dp->wire.rx_bad++;
		sim_vport_count_kind(dp, false, SIM_VP_ERR, len);
		ret = -EINVAL;
		goto out;
	}
	/* RoCE v2 to the port's GIDs is the RDMA engine's, not the NIC's */
	errs = dp->wire.roce_bad_icrc + dp->wire.roce_malformed;
	if (sim_ud_wire_rx(dp, frame, len)) {
		dp->wire.rx++;
		if (errs != dp->wire.roce_bad_icrc + dp->wire.roce_malformed)
			sim_vport_count_kind(dp, false, SIM_VP_ERR, len);
		else
			sim_vport_count(dp, false, frame, len, true);
		goto out;
	}
	sim_vport_count(dp, false, frame, len, false);
	/*
	 * longer than the NIC's steering takes: to the host's stack, as
	 * the port's default (a ConnectX's netdev takes what its MTU lets)
	 */
	if (len > SIM_PKT_MAX) {
		atomic64_inc(&dp->wire.rx_long);
		ret = 1;
		goto out;
	}
	dp->wire.rx++;
	dp->wire.rx_short += len < ETH_ZLEN;
	p = sim_dp_pkt(frame, len);
	if (!p) {
		dp->dropped++;
		goto out;
	}
	res = sim_wire_rx_walk(dp, p, SIM_WIRE_TDN, false, true);
	if (res.up) {
		ret = sim_wire_up(dp, res.keep, frame, len, out, out_len,
				  room);
		dp->wire.rx_up += ret > 0;
		kfree(res.keep);
	} else if (!res.taken) {
		dp->dropped++;
	}
out:
	mutex_unlock(&sim->lock);
	return ret;
}

/**
 * mlx5x_sim_wire_rx() - a frame came in from the wire
 * @sim: the model
 * @frame: the frame, from its Ethernet header, without FCS
 * @len: its length
 *
 * Steers it through the NIC RX tables; the RQs its rules name receive it.
 * Process context: it takes the model's lock.  The caller does not learn
 * what rules rewrote: mlx5x_sim_wire_rx_rewrite() says.
 *
 * Return: 1 when the host's stack gets it too (it reached the port's
 * default), 0 when it does not (taken by rules or the RDMA engine,
 * dropped, or the device is going away), -EINVAL for a frame under an
 * Ethernet header or over the largest the port takes: SIM_PKT_MAX, or
 * MLX5X_SIM_WIRE_MAX for RoCE v2 to the port (counted, not looked at).
 */
int mlx5x_sim_wire_rx(struct mlx5x_sim *sim, const void *frame,
		      unsigned int len)
{
	return sim_wire_rx(sim, frame, len, NULL, NULL, 0);
}

/**
 * mlx5x_sim_wire_rx_rewrite() - a frame came in from the wire; the host's
 * stack gets it as the rules it crossed left it
 * @sim: the model
 * @frame: the frame, from its Ethernet header, without FCS; rewritten in
 *	   place when the stack is to get other bytes
 * @len: its length; its new length when rewritten
 * @room: the bytes @frame has room for
 *
 * As mlx5x_sim_wire_rx().  A rule may rewrite the frame (a modify header,
 * a packet reformat) and send it on, through a steering anchor, into the
 * kernel's steering and to the port's default: the host's stack gets it
 * rewritten, as a ConnectX's RQ of the default receives it.
 *
 * Return: as mlx5x_sim_wire_rx(), or MLX5X_SIM_WIRE_REWRITTEN when the
 * host's stack gets @frame as rewritten.
 */
int mlx5x_sim_wire_rx_rewrite(struct mlx5x_sim *sim, void *frame,
			      unsigned int *len, unsigned int room)
{
	return sim_wire_rx(sim, frame, *len, frame, len, room);
}

/**
 * mlx5x_sim_wire_rx_unseen() - the driver did not hand a frame in
 * @sim: the model
 * @why: it passed a GSO frame, or one longer than any the model takes,
 *	 to the host's stack unsteered; or its queue had no room: dropped
 *
 * Any context: counted in fw/datapath.
 */
void mlx5x_sim_wire_rx_unseen(struct mlx5x_sim *sim,
			      enum mlx5x_sim_unseen why)
{
	struct sim_wire *w;

	if (!sim->dp)
		return;
	w = &sim->dp->wire;
	if (why == MLX5X_SIM_UNSEEN_GSO)
		atomic64_inc(&w->rx_gso);
	else if (why == MLX5X_SIM_UNSEEN_LONG)
		atomic64_inc(&w->rx_long);
	else
		atomic64_inc(&w->rx_queue_drops);
}

/* fw/datapath's wire line. */
void sim_dp_wire_show(struct seq_file *m, struct sim_dp *dp)
{
	const struct sim_wire *w = &dp->wire;

	seq_printf(m, "wire rx %llu rx_up %llu rx_short %llu rx_bad %llu rx_queue_drops %lld rx_gso %lld rx_long %lld tx %llu tx_up %llu tx_dropped %llu rx_up_rewritten %llu\n",
		   w->rx, w->rx_up, w->rx_short, w->rx_bad,
		   (s64)atomic64_read(&w->rx_queue_drops),
		   (s64)atomic64_read(&w->rx_gso),
		   (s64)atomic64_read(&w->rx_long), w->tx, w->tx_up,
		   w->tx_dropped, w->rx_up_rewritten);
	seq_printf(m, "roce tx %llu tx_lost %llu rx %llu rx_ud %llu bad_icrc %llu malformed %llu unsupported %llu dropped %llu\n",
		   w->roce_tx, w->roce_tx_lost, w->roce_rx, w->roce_rx_ud,
		   w->roce_bad_icrc, w->roce_malformed, w->roce_unsupported,
		   w->roce_dropped);
	seq_printf(m, "rc_wire rx %llu naks %llu dups %llu resends %llu timeouts %llu\n",
		   w->roce_rx_rc, w->rcw_naks, w->rcw_dups, w->rcw_resends,
		   w->rcw_timeouts);
	seq_printf(m, "cong np_ecn_marked %llu np_cnp_sent %llu rp_cnp_ignored %llu\n",
		   w->np_ecn_marked, w->np_cnp_sent, w->rp_cnp_ignored);
	seq_printf(m, "rdma_fs rx_drops %llu tx_drops %llu\n",
		   w->rdma_rx_drops, w->rdma_tx_drops);
	seq_printf(m, "link %s downs %llu tx_lost %llu rx_lost %llu\n",
		   w->down ? "down" : "up", w->link_downs, w->link_tx_lost,
		   w->link_rx_lost);
}
