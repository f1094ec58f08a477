// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel's flow steering: namespaces, priorities and their tables.
 * At probe the kernel (uid 0) creates one table per namespace and
 * priority and chains them by their miss tables:
 *
 *   NIC RX root: bypass-dt 0 -> bypass 0 -> bypass-dt 1 -> ... -> bypass 15
 *                -> mcast -> leftovers 0 -> the port's default
 *   NIC TX root: egress-dt 0 -> egress 0 -> ... -> egress 15 -> the wire
 *   sniffer RX root / sniffer TX root: one table each, when offered, made
 *                with the first rule and gone with the last (as fs_core
 *                does), so the device copies no packet while none is wanted
 *
 * so a packet no rule of a priority takes goes on to the next priority,
 * as mlx5_core's fs_core arranges on a ConnectX (where user priority p is
 * core priority 2p, don't-trap, and 2p + 1).  Levels rise along each
 * chain (the n-th table of a chain at level n + 1), so every miss goes
 * deeper.  The rules in those tables are fs_rule.c's; the commands that
 * build them, fs_cmd.c's.
 */
#include <linux/slab.h>
#include "fs_core.h"

#define MLX5X_FS_MIN_LOG_SIZE	10

/**
 * mlx5x_fs_table_type() - the PRM table type of a namespace's tables
 * @ns: namespace
 *
 * Return: MLX5_FLOW_TABLE_TYPE_* or MLX5X_FT_TYPE_RDMA_*; NIC RX for the
 * receive namespaces and for any other value.
 */
u32 mlx5x_fs_table_type(enum mlx5x_fs_ns ns)
{
	switch (ns) {
	case MLX5X_FS_NS_EGRESS:
	case MLX5X_FS_NS_EGRESS_DT:
		return MLX5_FLOW_TABLE_TYPE_NIC_TX;
	case MLX5X_FS_NS_SNIFFER_RX:
		return MLX5_FLOW_TABLE_TYPE_SNIFFER_RX;
	case MLX5X_FS_NS_SNIFFER_TX:
		return MLX5_FLOW_TABLE_TYPE_SNIFFER_TX;
	case MLX5X_FS_NS_FDB:
		return MLX5_FLOW_TABLE_TYPE_FDB;
	case MLX5X_FS_NS_RDMA_RX:
		return MLX5X_FT_TYPE_RDMA_RX;
	case MLX5X_FS_NS_RDMA_TX:
		return MLX5X_FT_TYPE_RDMA_TX;
	default:
		return MLX5_FLOW_TABLE_TYPE_NIC_RX;
	}
}

/**
 * mlx5x_fs_nprios() - how many priorities a namespace has
 * @ns: namespace
 *
 * Return: MLX5X_FS_PRIOS or 1; 0 for a value that is no namespace.
 */
unsigned int mlx5x_fs_nprios(enum mlx5x_fs_ns ns)
{
	switch (ns) {
	case MLX5X_FS_NS_BYPASS:
	case MLX5X_FS_NS_EGRESS:
	case MLX5X_FS_NS_BYPASS_DT:
	case MLX5X_FS_NS_EGRESS_DT:
	case MLX5X_FS_NS_FDB:
	case MLX5X_FS_NS_RDMA_RX:
	case MLX5X_FS_NS_RDMA_TX:
		return MLX5X_FS_PRIOS;
	case MLX5X_FS_NS_LEFTOVERS:
	case MLX5X_FS_NS_MCAST:
	case MLX5X_FS_NS_SNIFFER_RX:
	case MLX5X_FS_NS_SNIFFER_TX:
		return 1;
	default:
		return 0;
	}
}

/**
 * mlx5x_fs_prio_table_id() - the kernel's table of a priority
 * @dev: device
 * @ns: namespace
 * @prio: priority, below mlx5x_fs_nprios(@ns)
 *
 * Return: its table id; 0 when the device has no such table.
 */
u32 mlx5x_fs_prio_table_id(struct mlx5x_dev *dev, enum mlx5x_fs_ns ns,
			   unsigned int prio)
{
	struct mlx5x_fs_prio *p;

	if (!dev->fs || ns >= MLX5X_FS_NS_NUM || prio >= mlx5x_fs_nprios(ns))
		return 0;
	p = dev->fs->prio[ns][prio];
	return p ? p->ft.id : 0;
}

/* A table of a chain: its namespace and priority. */
struct mlx5x_fs_link {
	u8 ns;
	u8 prio;
};

#define MLX5X_FS_CHAIN_MAX	(2 * MLX5X_FS_PRIOS + 2)

/*
 * The tables of the chain a root starts, in the order a packet meets
 * them, into @link.  Return: how many.
 */
static unsigned int mlx5x_fs_chain(u32 type, struct mlx5x_fs_link *link)
{
	bool rx = type == MLX5_FLOW_TABLE_TYPE_NIC_RX;
	unsigned int n = 0, prio;

	switch (type) {
	case MLX5_FLOW_TABLE_TYPE_NIC_RX:
	case MLX5_FLOW_TABLE_TYPE_NIC_TX:
		for (prio = 0; prio < MLX5X_FS_PRIOS; prio++) {
			link[n].ns = rx ? MLX5X_FS_NS_BYPASS_DT :
					  MLX5X_FS_NS_EGRESS_DT;
			link[n++].prio = prio;
			link[n].ns = rx ? MLX5X_FS_NS_BYPASS :
					  MLX5X_FS_NS_EGRESS;
			link[n++].prio = prio;
		}
		if (rx) {
			link[n].ns = MLX5X_FS_NS_MCAST;
			link[n++].prio = 0;
			link[n].ns = MLX5X_FS_NS_LEFTOVERS;
			link[n++].prio = 0;
		}
		break;
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_RX:
		link[n].ns = MLX5X_FS_NS_SNIFFER_RX;
		link[n++].prio = 0;
		break;
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_TX:
		link[n].ns = MLX5X_FS_NS_SNIFFER_TX;
		link[n++].prio = 0;
		break;
	case MLX5_FLOW_TABLE_TYPE_FDB:
	case MLX5X_FT_TYPE_RDMA_RX:
	case MLX5X_FT_TYPE_RDMA_TX:
		for (prio = 0; prio < MLX5X_FS_PRIOS; prio++) {
			link[n].ns = type == MLX5_FLOW_TABLE_TYPE_FDB ?
				MLX5X_FS_NS_FDB : type == MLX5X_FT_TYPE_RDMA_RX ?
				MLX5X_FS_NS_RDMA_RX : MLX5X_FS_NS_RDMA_TX;
			link[n++].prio = prio;
		}
		break;
	}
	return n;
}

/* The table types whose chains the kernel builds, roots set in order. */
static const u32 mlx5x_fs_types[] = {
	MLX5_FLOW_TABLE_TYPE_NIC_RX, MLX5_FLOW_TABLE_TYPE_NIC_TX,
	MLX5_FLOW_TABLE_TYPE_SNIFFER_RX, MLX5_FLOW_TABLE_TYPE_SNIFFER_TX,
	MLX5_FLOW_TABLE_TYPE_FDB, MLX5X_FT_TYPE_RDMA_RX, MLX5X_FT_TYPE_RDMA_TX,
};

/* Does the device offer tables of @type (flow table capabilities)? */
static bool mlx5x_fs_type_offered(struct mlx5x_dev *dev, u32 type)
{
	void *c = dev->fs->ft_cap;

	switch (type) {
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_RX:
		return PRM_GET(flow_table_nic_cap, c,
			       flow_table_properties_nic_receive_sniffer.ft_support);
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_TX:
		return PRM_GET(flow_table_nic_cap, c,
			       flow_table_properties_nic_transmit_sniffer.ft_support);
	case MLX5_FLOW_TABLE_TYPE_FDB:
	case MLX5X_FT_TYPE_RDMA_RX:
	case MLX5X_FT_TYPE_RDMA_TX:
		return mlx5x_fs_prop(dev, type);
	default:
		return true;
	}
}

/* Tables of @type exist only while rules want them. */
static bool mlx5x_fs_on_demand(u32 type)
{
	return type == MLX5_FLOW_TABLE_TYPE_SNIFFER_RX ||
	       type == MLX5_FLOW_TABLE_TYPE_SNIFFER_TX;
}

/* The size of the kernel's tables of @type: ours, or less if the caps say. */
static u32 mlx5x_fs_log_size(struct mlx5x_dev *dev, u32 type)
{
	void *c = dev->fs->ft_cap, *p = mlx5x_fs_prop(dev, type);

	if (type == MLX5_FLOW_TABLE_TYPE_SNIFFER_RX)
		p = PRM_ADDR(flow_table_nic_cap, c,
			     flow_table_properties_nic_receive_sniffer);
	else if (type == MLX5_FLOW_TABLE_TYPE_SNIFFER_TX)
		p = PRM_ADDR(flow_table_nic_cap, c,
			     flow_table_properties_nic_transmit_sniffer);
	if (!p)
		return MLX5X_FS_LOG_SIZE;
	return clamp_t(u32, PRM_GET(flow_table_prop_layout, p, log_max_ft_size),
		       MLX5X_FS_MIN_LOG_SIZE, MLX5X_FS_LOG_SIZE);
}

/* The size of a small slot of a table of 2^@log_size entries. */
static u32 mlx5x_fs_small_size(u32 log_size)
{
	return min_t(u32, BIT(log_size - 3), MLX5X_FS_SMALL_SIZE);
}

/**
 * mlx5x_fs_prio_slot() - where a group slot of a priority's table lies
 * @p: the priority's table
 * @slot: the slot, below @p->nslots
 * @start: its first flow index
 * @size: how many flow indexes it holds
 */
void mlx5x_fs_prio_slot(const struct mlx5x_fs_prio *p, unsigned int slot,
			u32 *start, u32 *size)
{
	u32 big = BIT(p->log_size - 3);

	if (slot < MLX5X_FS_BIG_SLOTS) {
		*start = slot * big;
		*size = big;
		return;
	}
	*size = mlx5x_fs_small_size(p->log_size);
	*start = MLX5X_FS_BIG_SLOTS * big +
		 (slot - MLX5X_FS_BIG_SLOTS) * *size;
}

static int mlx5x_fs_prio_create(struct mlx5x_dev *dev, enum mlx5x_fs_ns ns,
				unsigned int prio, u32 level, u32 miss)
{
	struct mlx5x_fs_prio *p = kzalloc(sizeof(*p), GFP_KERNEL);
	struct mlx5x_fs_table_attr attr = {
		.level = level,
		.miss = miss,
	};
	u32 log_size;
	int err;

	if (!p)
		return -ENOMEM;
	p->ft.type = mlx5x_fs_table_type(ns);
	p->miss = miss;
	INIT_LIST_HEAD(&p->groups);
	log_size = mlx5x_fs_log_size(dev, p->ft.type);
	p->log_size = log_size;
	p->nslots = MLX5X_FS_BIG_SLOTS +
		    BIT(log_size - 3) / mlx5x_fs_small_size(log_size);
	err = rhltable_init(&p->ftes, &mlx5x_fs_pfte_params);
	if (err) {
		kfree(p);
		return err;
	}
	attr.log_size = log_size;
	attr.reformat_en = mlx5x_fs_reformat_en(dev, p->ft.type);
	err = mlx5x_fs_cmd_create_table(dev, &p->ft, &attr);
	if (err) {
		rhltable_destroy(&p->ftes);
		kfree(p);
		return err;
	}
	dev->fs->prio[ns][prio] = p;
	return 0;
}

/* Destroy a chain's tables, first first: each is the miss of the one before. */
static void mlx5x_fs_chain_destroy(struct mlx5x_dev *dev, u32 type)
{
	struct mlx5x_fs_link link[MLX5X_FS_CHAIN_MAX];
	unsigned int i, n = mlx5x_fs_chain(type, link);
	struct mlx5x_fs_prio *p;

	for (i = 0; i < n; i++) {
		p = dev->fs->prio[link[i].ns][link[i].prio];
		if (!p)
			continue;
		WARN_ON(!list_empty(&p->groups));
		mlx5x_fs_cmd_destroy_table(dev, &p->ft);
		rhltable_destroy(&p->ftes);
		kfree(p);
		dev->fs->prio[link[i].ns][link[i].prio] = NULL;
	}
}

/* One chain, last first so each table names its miss at creation. */
static int mlx5x_fs_chain_create(struct mlx5x_dev *dev, u32 type)
{
	struct mlx5x_fs_link link[MLX5X_FS_CHAIN_MAX];
	unsigned int n = mlx5x_fs_chain(type, link);
	u32 miss = 0;
	int i, err;

	for (i = n - 1; i >= 0; i--) {
		err = mlx5x_fs_prio_create(dev, link[i].ns, link[i].prio,
					   i + 1, miss);
		if (err)
			return err;
		miss = dev->fs->prio[link[i].ns][link[i].prio]->ft.id;
	}
	/* the FDB's root is the eswitch's, not the kernel's to set */
	return type == MLX5_FLOW_TABLE_TYPE_FDB ? 0 :
	       mlx5x_fs_cmd_set_root(dev, type, miss);
}

/**
 * mlx5x_fs_init() - build the kernel's steering of a device
 * @dev: device, firmware probed
 *
 * Return: 0, or a negative errno (nothing is left behind).
 */
int mlx5x_fs_init(struct mlx5x_dev *dev)
{
	unsigned int i;
	int err;

	dev->fs = kzalloc(sizeof(*dev->fs), GFP_KERNEL);
	if (!dev->fs)
		return -ENOMEM;
	mutex_init(&dev->fs->lock);
	err = mlx5x_query_hca_cap(dev, MLX5X_CAP_NIC_FLOW_TABLE,
				  &dev->fs->ft_cap);
	for (i = 0; !err && i < ARRAY_SIZE(mlx5x_fs_types); i++)
		if (mlx5x_fs_type_offered(dev, mlx5x_fs_types[i]) &&
		    !mlx5x_fs_on_demand(mlx5x_fs_types[i]))
			err = mlx5x_fs_chain_create(dev, mlx5x_fs_types[i]);
	if (err)
		mlx5x_fs_cleanup(dev);
	return err;
}

/**
 * mlx5x_fs_cleanup() - take the kernel's steering down
 * @dev: device; every rule added through it must be deleted already, and
 *	 the anchors' tables taken down (mlx5x_fs_anchors_cleanup())
 */
void mlx5x_fs_cleanup(struct mlx5x_dev *dev)
{
	unsigned int i;

	if (!dev->fs)
		return;
	for (i = 0; dev->fs->ft_cap && i < ARRAY_SIZE(mlx5x_fs_types); i++) {
		if (!mlx5x_fs_type_offered(dev, mlx5x_fs_types[i]))
			continue;
		if (mlx5x_fs_types[i] != MLX5_FLOW_TABLE_TYPE_FDB)
			mlx5x_fs_cmd_set_root(dev, mlx5x_fs_types[i], 0);
		mlx5x_fs_chain_destroy(dev, mlx5x_fs_types[i]);
	}
	kfree(dev->fs->ft_cap);
	mutex_destroy(&dev->fs->lock);
	kfree(dev->fs);
	dev->fs = NULL;
}

/**
 * mlx5x_fs_prio_get() - the kernel's table of a priority, for a rule
 * @dev: device; under its steering lock
 * @ns: namespace
 * @prio: priority, below mlx5x_fs_nprios(@ns)
 *
 * A table made on demand (the sniffers') is made, with its chain and
 * root, if it is not there.
 *
 * Return: the table, or an ERR_PTR: -EOPNOTSUPP when the device has no
 * such table, or the errno of a refused command.
 */
struct mlx5x_fs_prio *mlx5x_fs_prio_get(struct mlx5x_dev *dev,
					enum mlx5x_fs_ns ns, unsigned int prio)
{
	u32 type = mlx5x_fs_table_type(ns);
	int err;

	if (dev->fs->prio[ns][prio])
		return dev->fs->prio[ns][prio];
	if (!mlx5x_fs_on_demand(type) || !mlx5x_fs_type_offered(dev, type))
		return ERR_PTR(-EOPNOTSUPP);
	err = mlx5x_fs_chain_create(dev, type);
	if (err) {
		mlx5x_fs_cmd_set_root(dev, type, 0);
		mlx5x_fs_chain_destroy(dev, type);
		return ERR_PTR(err);
	}
	return dev->fs->prio[ns][prio];
}

/**
 * mlx5x_fs_prio_put() - a rule is done with a priority's table
 * @dev: device; under its steering lock
 * @p: the table mlx5x_fs_prio_get() returned
 *
 * A table made on demand goes, with its chain and root, once it holds
 * no group.
 */
void mlx5x_fs_prio_put(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p)
{
	if (!mlx5x_fs_on_demand(p->ft.type) || !list_empty(&p->groups))
		return;
	mlx5x_fs_cmd_set_root(dev, p->ft.type, 0);
	mlx5x_fs_chain_destroy(dev, p->ft.type);
}
