// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The simulated backend: an IB device whose command channel is the
 * firmware model, created with `rdma link add NAME type mlx5x netdev DEV`.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/slab.h>
#include <linux/mlx5/device.h>
#include "mlx5x.h"
#include "verbs.h"
#include "sim_backend.h"
#include "sim/sim.h"

#define MLX5X_SIM_PART_ID	0x101d		/* ConnectX-6 Dx */
#define MLX5X_SIM_FW_VER	((22ULL << 32) | (36ULL << 16) | 1010)

static struct mlx5x_sim *to_sim(struct mlx5x_dev *dev)
{
	return to_sim_dev(dev)->sim;
}

static int mlx5x_sim_backend_exec(struct mlx5x_dev *dev, const void *in,
				  size_t inlen, void *out, size_t outlen)
{
	return mlx5x_sim_exec(to_sim(dev), in, inlen, out, outlen);
}

static int mlx5x_sim_backend_uar_pfn(struct mlx5x_dev *dev, u32 index,
				     unsigned long *pfn)
{
	struct page *page = mlx5x_sim_uar_page(to_sim(dev), index);

	if (!page)
		return -EINVAL;
	*pfn = page_to_pfn(page);
	return 0;
}

static int mlx5x_sim_backend_memic_pfn(struct mlx5x_dev *dev, u64 bar_off,
				       unsigned long *pfn)
{
	struct page *page = mlx5x_sim_memic_page(to_sim(dev), bar_off);

	if (!page)
		return -EINVAL;
	*pfn = page_to_pfn(page);
	return 0;
}

static int mlx5x_sim_backend_memic_op(struct mlx5x_dev *dev, u64 bar_off,
				      u8 size, u64 operand, u64 *old)
{
	return mlx5x_sim_memic_atomic(to_sim(dev), bar_off, size, operand,
				      old);
}

static unsigned int mlx5x_sim_backend_comp_vectors(struct mlx5x_dev *dev)
{
	return mlx5x_sim_comp_vectors(to_sim(dev));
}

static int mlx5x_sim_backend_comp_eqn(struct mlx5x_dev *dev,
				      unsigned int vector, u32 *eqn)
{
	return mlx5x_sim_comp_eqn(to_sim(dev), vector, eqn);
}

/* The model raises PORT_CHANGE as the port follows its netdev. */
/* The link first: once PORT_ACTIVE is seen, traffic crosses. */
static void mlx5x_sim_backend_port_change(struct mlx5x_dev *dev, bool up)
{
	mlx5x_sim_set_link(to_sim(dev), up);
	mlx5x_sim_port_change(to_sim(dev), up);
}

/* A VLAN device over the netdev: the wire takes its frames too. */
static void mlx5x_sim_backend_upper_change(struct mlx5x_dev *dev,
					   struct net_device *upper,
					   bool registered)
{
	mlx5x_sim_wire_upper(to_sim_dev(dev), upper, registered);
}

/* The port's first state: the link only, no event. */
static void mlx5x_sim_backend_port_init(struct mlx5x_dev *dev, bool up)
{
	mlx5x_sim_set_link(to_sim(dev), up);
}

/* A process's doorbell trapped (uar_trap.c): the model serves it now. */
static void mlx5x_sim_backend_rung(struct mlx5x_dev *dev, bool mapped,
				   u16 uid, u32 qpn)
{
	static_assert(MLX5X_RUNG_ANY == MLX5X_SIM_RUNG_ANY);
	mlx5x_sim_rung(to_sim(dev), mapped, uid, qpn);
}

static u64 mlx5x_sim_backend_clock_ns(struct mlx5x_dev *dev)
{
	return mlx5x_sim_clock_ns(to_sim(dev));
}

/* The kernel's queues ring their doorbells here (kverbs.c). */
static void mlx5x_sim_backend_doorbell(struct mlx5x_dev *dev)
{
	mlx5x_sim_doorbell(to_sim(dev));
}

/*
 * The model's events: a verbs CQ's completions, an SRQ's (and a QP's on
 * one), a verbs QP's, WQ's and CQ's errors, then DEVX subscribers.
 */
static void mlx5x_sim_backend_event(void *ctx, const void *eqe)
{
	if (PRM_GET(eqe, eqe, event_type) == MLX5_EVENT_TYPE_COMP)
		mlx5x_cq_comp_event(ctx, PRM_GET(comp_event,
						 PRM_ADDR(eqe, eqe, event_data),
						 cq_number));
	mlx5x_srq_event(ctx, eqe);
	mlx5x_qp_event(ctx, eqe);
	mlx5x_wq_event(ctx, eqe);
	mlx5x_cq_event(ctx, eqe);
	mlx5x_devx_event(ctx, eqe);
}

/* On-demand paging of MRs (odp.c, the model's mem/odp.c). */
static int mlx5x_sim_backend_odp_enable(struct mlx5x_dev *dev, u32 umem_id,
					bool writable)
{
	return mlx5x_sim_odp_enable(to_sim(dev), umem_id, writable);
}

static int mlx5x_sim_backend_odp_implicit(struct mlx5x_dev *dev, u32 umem_id,
					  bool writable, u64 npages)
{
	return mlx5x_sim_odp_implicit(to_sim(dev), umem_id, writable, npages);
}

static int mlx5x_sim_backend_odp_blocks(struct mlx5x_dev *dev, u32 umem_id,
					u64 first, u64 n, bool make)
{
	return mlx5x_sim_odp_blocks(to_sim(dev), umem_id, first, n, make);
}

static int mlx5x_sim_backend_odp_map(struct mlx5x_dev *dev, u32 umem_id,
				     u64 first, u64 n, const u64 *ents)
{
	return mlx5x_sim_odp_map(to_sim(dev), umem_id, first, n, ents);
}

static void mlx5x_sim_backend_odp_zap(struct mlx5x_dev *dev, u32 umem_id,
				      u64 first, u64 n)
{
	mlx5x_sim_odp_zap(to_sim(dev), umem_id, first, n);
}

static void mlx5x_sim_backend_odp_resume(struct mlx5x_dev *dev, u32 qpn,
					 bool err)
{
	mlx5x_sim_odp_resume(to_sim(dev), qpn, err);
}

static bool mlx5x_sim_backend_odp_fault(void *ctx, u32 qpn, u32 umem_id,
					u64 off, u64 len, bool write)
{
	return mlx5x_odp_fault(ctx, qpn, umem_id, off, len, write);
}

static void mlx5x_sim_backend_release(struct mlx5x_dev *dev)
{
	/* no fault raised from now on, and every one raised served */
	mlx5x_sim_set_odp_handler(to_sim(dev), NULL, NULL);
	mlx5x_odp_cleanup(dev);
	mlx5x_sim_wire_detach(to_sim_dev(dev));
	mlx5x_sim_destroy(to_sim(dev));
	kfree(dev->backend_priv);
	dev->backend_priv = NULL;
	netdev_put(dev->netdev, &dev->netdev_tracker);
	dev->netdev = NULL;
}

static const struct mlx5x_backend_ops mlx5x_sim_backend = {
	.name = "sim",
	.exec = mlx5x_sim_backend_exec,
	.uar_pfn = mlx5x_sim_backend_uar_pfn,
	.uar_cached = true,
	.memic_pfn = mlx5x_sim_backend_memic_pfn,
	.memic_cached = true,
	.memic_op = mlx5x_sim_backend_memic_op,
	.icm_init = mlx5x_sim_icm_init,
	.icm_cleanup = mlx5x_sim_icm_cleanup,
	.icm_alloc = mlx5x_sim_icm_alloc,
	.icm_free = mlx5x_sim_icm_free,
	.comp_vectors = mlx5x_sim_backend_comp_vectors,
	.comp_eqn = mlx5x_sim_backend_comp_eqn,
	.port_change = mlx5x_sim_backend_port_change,
	.upper_change = mlx5x_sim_backend_upper_change,
	.port_init = mlx5x_sim_backend_port_init,
	.doorbell = mlx5x_sim_backend_doorbell,
	.rung = mlx5x_sim_backend_rung,
	.clock_ns = mlx5x_sim_backend_clock_ns,
	.release = mlx5x_sim_backend_release,
	.user_unreg = true,
	.odp_enable = mlx5x_sim_backend_odp_enable,
	.odp_implicit = mlx5x_sim_backend_odp_implicit,
	.odp_blocks = mlx5x_sim_backend_odp_blocks,
	.odp_map = mlx5x_sim_backend_odp_map,
	.odp_zap = mlx5x_sim_backend_odp_zap,
	.odp_resume = mlx5x_sim_backend_odp_resume,
};

/* A stable node GUID: the EUI-64 of the netdev's permanent address. */
static u64 mlx5x_sim_guid(const u8 *mac)
{
	u8 eui[8];

	eui[0] = mac[0] ^ 2;
	eui[1] = mac[1];
	eui[2] = mac[2];
	eui[3] = 0xff;
	eui[4] = 0xfe;
	eui[5] = mac[3];
	eui[6] = mac[4];
	eui[7] = mac[5];
	return get_unaligned_be64(eui);
}

static bool mlx5x_netdev_taken(struct net_device *ndev)
{
	struct mlx5x_dev *dev;
	bool taken = false;

	mutex_lock(&mlx5x_devices_lock);
	list_for_each_entry(dev, &mlx5x_devices, list)
		taken |= dev->netdev == ndev;
	mutex_unlock(&mlx5x_devices_lock);
	return taken;
}

/**
 * mlx5x_sim_newlink() - create a simulated device over a netdev
 * @ibdev_name: name asked for by `rdma link add`
 * @ndev: the netdev its port follows
 */
int mlx5x_sim_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct mlx5x_sim_params params = {};
	struct mlx5x_sim_dev *sdev;
	struct mlx5x_dev *dev;
	struct mlx5x_sim *sim;
	int err;

	if (mlx5x_netdev_taken(ndev))
		return -EEXIST;
	if (!is_valid_ether_addr(ndev->perm_addr) &&
	    !is_valid_ether_addr(ndev->dev_addr))
		return -EADDRNOTAVAIL;

	ether_addr_copy(params.mac, is_valid_ether_addr(ndev->perm_addr) ?
			ndev->perm_addr : ndev->dev_addr);
	params.node_guid = mlx5x_sim_guid(params.mac);
	/* the vport holds the hardware MTU: headers, a VLAN tag, the FCS */
	params.mtu = ndev->mtu + ETH_HLEN + VLAN_HLEN + ETH_FCS_LEN;
	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;
	spin_lock_init(&sdev->icm_lock);
	sim = mlx5x_sim_create(&params);
	if (IS_ERR(sim)) {
		kfree(sdev);
		return PTR_ERR(sim);
	}
	sdev->sim = sim;

	dev = ib_alloc_device(mlx5x_dev, ib);
	if (!dev) {
		mlx5x_sim_destroy(sim);
		kfree(sdev);
		return -ENOMEM;
	}
	dev->backend = &mlx5x_sim_backend;
	dev->backend_priv = sdev;
	dev->vendor_part_id = MLX5X_SIM_PART_ID;
	dev->fw_ver = MLX5X_SIM_FW_VER;
	dev->netdev = ndev;
	netdev_hold(ndev, &dev->netdev_tracker, GFP_KERNEL);
	dev->ib.dev.parent = ndev->dev.parent;

	/* the netdev is the port's wire: -EBUSY if another handler has it */
	err = mlx5x_sim_wire_attach(sdev, ndev);
	if (!err)
		err = mlx5x_odp_init(dev);
	if (!err) {
		mlx5x_sim_set_odp_handler(sim, mlx5x_sim_backend_odp_fault,
					  dev);
		err = mlx5x_dev_register(dev, ibdev_name);
	}
	if (err) {
		mlx5x_sim_backend_release(dev);
		ib_dealloc_device(&dev->ib);
		return err;
	}
	mlx5x_dev_debugfs_init(dev);
	mlx5x_sim_debugfs_init(sim, dev->dbg);
	mlx5x_sim_set_event_handler(sim, mlx5x_sim_backend_event, dev);
	mlx5x_sim_set_idle_handler(sim, mlx5x_uar_trap_rearm, dev);
	return 0;
}
