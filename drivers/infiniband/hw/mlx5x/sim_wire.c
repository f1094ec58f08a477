// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The wire of a simulated device: the netdev given to `rdma link add`.
 *
 * Receive: an rx_handler on the netdev takes every frame it receives
 * (softirq) and queues it, up to MLX5X_WIRE_QLEN, for a work item; the
 * work (process context, as the model's lock is a mutex) copies each
 * frame out and hands it to the model, which steers it through the NIC RX
 * tables.  A frame the model says the host's stack gets too (no rule
 * took it, or a DONT_TRAP rule passed it on) is given back to the stack
 * unchanged, marked so that this rx_handler lets it through; one that
 * rules rewrote on the way (a steering anchor handed it back to the
 * kernel's steering) is given as a new skb of the rewritten bytes; the
 * others are freed.
 *
 * VLANs: the kernel hands a tagged frame to the VLAN device of its ID
 * (an upper of the netdev) before any rx_handler of the netdev runs, so
 * the wire registers the same handler on each 802.1Q upper device whose
 * lower is the netdev (those there are when the wire is attached, then
 * as port.c's netdevice notifier sees them come and go; one that has a
 * handler already, or that keeps the tag in the frame, reorder_hdr off,
 * is left alone).  There it puts the tag back (the ID of the VLAN
 * device, priority 0: the kernel kept no other) and the frame is the
 * netdev's again, as the port saw it; given back to the stack, the
 * kernel hands it to the VLAN device once more.
 *
 * GSO super-frames (GRO on the netdev) are not steered: they pass at
 * once, counted (a ConnectX sees the frames, never the merge).
 *
 * Transmit: the model's worker hands each frame the port puts on the
 * wire to mlx5x_wire_out(), which sends it on the netdev as it is; one
 * the port delivers to itself (its own address, no rule) is queued for
 * the same work, which gives it to the stack as received on the netdev.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include "mlx5x.h"
#include "sim_backend.h"
#include "sim/sim.h"

/* Frames waiting for the work, each way; more are dropped, counted. */
#define MLX5X_WIRE_QLEN		1024
/* Frames one run of the work steers before it yields. */
#define MLX5X_WIRE_BUDGET	64
/* The largest frame the model takes. */
#define MLX5X_WIRE_MAX		MLX5X_SIM_WIRE_MAX

/**
 * struct mlx5x_sim_wire - a simulated device's wire
 * @ndev: the netdev (the device holds a reference)
 * @sim: the model
 * @rxq: frames received, to be steered
 * @upq: frames for the host's stack, from the model's own loopback
 * @work: steers @rxq and delivers @upq
 * @detached: under the RTNL: the wire takes no more VLAN devices
 * @frame: where a frame is copied out for the model
 */
struct mlx5x_sim_wire {
	struct net_device *ndev;
	struct mlx5x_sim *sim;
	struct sk_buff_head rxq, upq;
	struct work_struct work;
	bool detached;
	u8 frame[MLX5X_WIRE_MAX];
};

/* The frame this CPU gives back to the stack: the rx_handler passes it. */
static DEFINE_PER_CPU(struct sk_buff *, mlx5x_wire_passing);

/*
 * Whether VLAN device @dev hands its frames up untagged (reorder_hdr), as
 * the wire serves them; a kernel without 802.1Q has no VLAN devices.
 */
static bool mlx5x_wire_vlan_reorders(const struct net_device *dev)
{
#if IS_ENABLED(CONFIG_VLAN_8021Q)
	return vlan_dev_priv(dev)->flags & VLAN_FLAG_REORDER_HDR;
#else
	return false;
#endif
}

static rx_handler_result_t mlx5x_wire_rx(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct mlx5x_sim_wire *wire;

	if (__this_cpu_read(mlx5x_wire_passing) == skb)
		return RX_HANDLER_PASS;
	wire = rcu_dereference(skb->dev->rx_handler_data);
	if (skb->dev != wire->ndev) {
		/* reorder_hdr turned off since: the tag is in the frame */
		if (!mlx5x_wire_vlan_reorders(skb->dev))
			return RX_HANDLER_PASS;
		/* from a VLAN upper: tagged again, the netdev's frame */
		skb = skb_share_check(skb, GFP_ATOMIC);
		if (!skb)
			return RX_HANDLER_CONSUMED;
		__vlan_hwaccel_put_tag(skb, vlan_dev_vlan_proto(skb->dev),
				       vlan_dev_vlan_id(skb->dev));
		skb->dev = wire->ndev;
		*pskb = skb;
	}
	if (skb_is_gso(skb)) {
		mlx5x_sim_wire_rx_unseen(wire->sim, MLX5X_SIM_UNSEEN_GSO);
		return RX_HANDLER_PASS;
	}
	/* a jumbo frame: no RoCE packet is that long; the stack's */
	if (skb->len + ETH_HLEN + VLAN_HLEN > MLX5X_WIRE_MAX) {
		mlx5x_sim_wire_rx_unseen(wire->sim, MLX5X_SIM_UNSEEN_LONG);
		return RX_HANDLER_PASS;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	if (skb_queue_len(&wire->rxq) >= MLX5X_WIRE_QLEN) {
		mlx5x_sim_wire_rx_unseen(wire->sim, MLX5X_SIM_UNSEEN_FULL);
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	skb_queue_tail(&wire->rxq, skb);
	queue_work(system_unbound_wq, &wire->work);
	return RX_HANDLER_CONSUMED;
}

/* Give @skb to the stack as received on the netdev, past our handler. */
static void mlx5x_wire_pass(struct sk_buff *skb)
{
	local_bh_disable();
	__this_cpu_write(mlx5x_wire_passing, skb);
	netif_receive_skb_core(skb);
	__this_cpu_write(mlx5x_wire_passing, NULL);
	local_bh_enable();
}

/*
 * Copy @skb (its data at the network header, as the rx_handler got it)
 * out as the frame on the wire: the Ethernet header, an 802.1Q tag the
 * netdev took out put back, the rest.  Returns its length, or -EINVAL.
 */
static int mlx5x_wire_copy(struct sk_buff *skb, u8 *buf)
{
	int mac = skb_mac_header_was_set(skb) ? skb_mac_offset(skb) : 1;
	unsigned int tag = skb_vlan_tag_present(skb) ? VLAN_HLEN : 0;
	unsigned int hlen, len;
	__be16 tci;

	if (mac > -ETH_HLEN)
		return -EINVAL;
	hlen = -mac;
	len = skb->len + hlen;
	if (len + tag > MLX5X_WIRE_MAX)
		return -EINVAL;
	__skb_push(skb, hlen);
	if (!tag) {
		if (skb_copy_bits(skb, 0, buf, len))
			len = 0;
	} else if (skb_copy_bits(skb, 0, buf, 2 * ETH_ALEN) ||
		   skb_copy_bits(skb, 2 * ETH_ALEN, buf + 2 * ETH_ALEN + tag,
				 len - 2 * ETH_ALEN)) {
		len = 0;
	} else {
		tci = htons(skb_vlan_tag_get(skb));
		memcpy(buf + 2 * ETH_ALEN, &skb->vlan_proto, 2);
		memcpy(buf + 2 * ETH_ALEN + 2, &tci, 2);
		len += tag;
	}
	__skb_pull(skb, hlen);
	return len ? len : -EINVAL;
}

/*
 * The stack gets @len bytes of wire->frame, as rules rewrote the frame:
 * a new skb, as the RQ of the port's default would receive it.
 */
static void mlx5x_wire_pass_rewritten(struct mlx5x_sim_wire *wire,
				      unsigned int len)
{
	struct sk_buff *skb = netdev_alloc_skb(wire->ndev, len);

	if (!skb) {
		/* no memory for it: dropped, as by a full queue */
		mlx5x_sim_wire_rx_unseen(wire->sim, MLX5X_SIM_UNSEEN_FULL);
		return;
	}
	skb_put_data(skb, wire->frame, len);
	skb->protocol = eth_type_trans(skb, wire->ndev);
	mlx5x_wire_pass(skb);
}

static void mlx5x_wire_work(struct work_struct *work)
{
	struct mlx5x_sim_wire *wire = container_of(work, struct mlx5x_sim_wire,
						   work);
	struct sk_buff *skb;
	unsigned int n = 0, ulen;
	int len, ret;

	while (n++ < MLX5X_WIRE_BUDGET && (skb = skb_dequeue(&wire->rxq))) {
		len = mlx5x_wire_copy(skb, wire->frame);
		/* too short or too long for the model: it counts it */
		ulen = len < 0 ? 0 : len;
		ret = mlx5x_sim_wire_rx_rewrite(wire->sim, wire->frame, &ulen,
						sizeof(wire->frame));
		if (ret == MLX5X_SIM_WIRE_REWRITTEN) {
			consume_skb(skb);
			mlx5x_wire_pass_rewritten(wire, ulen);
		} else if (ret > 0) {
			mlx5x_wire_pass(skb);
		} else {
			consume_skb(skb);
		}
	}
	while ((skb = skb_dequeue(&wire->upq)))
		mlx5x_wire_pass(skb);
	if (!skb_queue_empty(&wire->rxq))
		queue_work(system_unbound_wq, &wire->work);
}

/* The model puts a frame out (its worker, its lock held). */
static bool mlx5x_wire_out(void *ctx, const void *frame, unsigned int len,
			   bool up)
{
	struct mlx5x_sim_wire *wire = ctx;
	struct net_device *ndev = wire->ndev;
	struct sk_buff *skb;

	if (up && skb_queue_len(&wire->upq) >= MLX5X_WIRE_QLEN)
		return false;
	skb = netdev_alloc_skb(ndev, len);
	if (!skb)
		return false;
	skb_put_data(skb, frame, len);
	if (up) {
		skb->protocol = eth_type_trans(skb, ndev);
		skb_queue_tail(&wire->upq, skb);
		queue_work(system_unbound_wq, &wire->work);
		return true;
	}
	skb_reset_mac_header(skb);
	/* where a tap (tshark on the netdev) finds the network header */
	skb_set_network_header(skb, ETH_HLEN);
	skb->protocol = eth_hdr(skb)->h_proto;
	return dev_queue_xmit(skb) == NET_XMIT_SUCCESS;
}

/* Whether @dev is an 802.1Q upper of the wire's netdev that we may serve. */
static bool mlx5x_wire_vlan_of(struct mlx5x_sim_wire *wire,
			       struct net_device *dev)
{
	return is_vlan_dev(dev) && vlan_dev_real_dev(dev) == wire->ndev &&
	       vlan_dev_vlan_proto(dev) == htons(ETH_P_8021Q) &&
	       mlx5x_wire_vlan_reorders(dev);
}

/* Serve VLAN device @dev (RTNL): its frames are the wire's too. */
static void mlx5x_wire_vlan_add(struct mlx5x_sim_wire *wire,
				struct net_device *dev)
{
	/* one that has a handler already is not ours to take */
	if (mlx5x_wire_vlan_of(wire, dev))
		netdev_rx_handler_register(dev, mlx5x_wire_rx, wire);
}

/* Serve @dev no more (RTNL), if the wire does. */
static void mlx5x_wire_vlan_del(struct mlx5x_sim_wire *wire,
				struct net_device *dev)
{
	if (rtnl_dereference(dev->rx_handler) == mlx5x_wire_rx &&
	    rtnl_dereference(dev->rx_handler_data) == wire)
		netdev_rx_handler_unregister(dev);
}

/* Each VLAN device over the netdev (RTNL), added or removed. */
static void mlx5x_wire_vlans(struct mlx5x_sim_wire *wire, bool add)
{
	struct net_device *upper;
	struct list_head *iter;

	netdev_for_each_upper_dev_rcu(wire->ndev, upper, iter) {
		if (add)
			mlx5x_wire_vlan_add(wire, upper);
		else
			mlx5x_wire_vlan_del(wire, upper);
	}
}

/**
 * mlx5x_sim_wire_upper() - a VLAN device over the wire's netdev came or goes
 * @sdev: the simulated device
 * @upper: the VLAN device
 * @registered: it was registered, else it is being unregistered
 *
 * Under the RTNL (port.c's netdevice notifier).
 */
void mlx5x_sim_wire_upper(struct mlx5x_sim_dev *sdev, struct net_device *upper,
			  bool registered)
{
	struct mlx5x_sim_wire *wire = sdev->wire;

	ASSERT_RTNL();
	if (!wire || wire->detached)
		return;
	if (registered)
		mlx5x_wire_vlan_add(wire, upper);
	else
		mlx5x_wire_vlan_del(wire, upper);
}

/**
 * mlx5x_sim_wire_attach() - make the netdev the device's wire
 * @sdev: the simulated device, whose model exists
 * @ndev: its netdev, held by the device
 *
 * Return: 0, -ENOMEM, or -EBUSY when the netdev already has a receive
 * handler (a bridge port, a bond's slave, a macvlan's lower device).
 */
int mlx5x_sim_wire_attach(struct mlx5x_sim_dev *sdev, struct net_device *ndev)
{
	struct mlx5x_sim_wire *wire = kzalloc(sizeof(*wire), GFP_KERNEL);
	int err;

	if (!wire)
		return -ENOMEM;
	wire->ndev = ndev;
	wire->sim = sdev->sim;
	skb_queue_head_init(&wire->rxq);
	skb_queue_head_init(&wire->upq);
	INIT_WORK(&wire->work, mlx5x_wire_work);
	rtnl_lock();
	err = netdev_rx_handler_register(ndev, mlx5x_wire_rx, wire);
	if (!err)
		mlx5x_wire_vlans(wire, true);
	rtnl_unlock();
	if (err) {
		kfree(wire);
		return err;
	}
	mlx5x_sim_set_wire(sdev->sim, mlx5x_wire_out, wire);
	sdev->wire = wire;
	return 0;
}

/**
 * mlx5x_sim_wire_detach() - the netdev is the device's wire no more
 * @sdev: the simulated device; its model still exists
 *
 * Nothing is received nor sent once it returns; the frames in flight
 * are freed.  Takes the RTNL.
 */
void mlx5x_sim_wire_detach(struct mlx5x_sim_dev *sdev)
{
	struct mlx5x_sim_wire *wire = sdev->wire;

	if (!wire)
		return;
	rtnl_lock();
	wire->detached = true;
	mlx5x_wire_vlans(wire, false);
	/* the handler's last run is over once it returns */
	netdev_rx_handler_unregister(wire->ndev);
	rtnl_unlock();
	mlx5x_sim_set_wire(sdev->sim, NULL, NULL);
	cancel_work_sync(&wire->work);
	skb_queue_purge(&wire->rxq);
	skb_queue_purge(&wire->upq);
	sdev->wire = NULL;
	kfree(wire);
}
