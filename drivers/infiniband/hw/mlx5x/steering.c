// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel's flow steering.  At probe the kernel (uid 0) creates one
 * table per namespace and priority and chains them by their miss tables:
 *
 *   NIC RX root: bypass 0 -> bypass 1 -> ... -> bypass 15 -> leftovers 0
 *                -> the port's default
 *   NIC TX root: egress 0 -> ... -> egress 15 -> the wire
 *
 * so a packet no rule of a priority takes goes on to the next priority,
 * as mlx5_core's fs_core arranges on a ConnectX.  Levels rise along each
 * chain (bypass p at level 1 + p), so every miss goes deeper.
 *
 * Rules are added into (namespace, priority) with a mask and value: the
 * table's groups are made on demand, one per mask (another when full),
 * each MLX5X_FS_GROUP_SIZE flow indexes long.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>
#include "steering.h"

#define MLX5X_FS_LOG_SIZE	20	/* 1M entries: room for 100k+ rules */
#define MLX5X_FS_GROUP_SIZE	1024
#define MLX5X_FS_NGROUPS	(BIT(MLX5X_FS_LOG_SIZE) / MLX5X_FS_GROUP_SIZE)
#define MLX5X_FS_MATCH_BYTES	PRM_BYTES(fte_match_param)

/* A group of a priority's table: one mask, a slot of flow indexes. */
struct mlx5x_fs_group {
	struct list_head node;
	u32 id;
	unsigned int slot;
	u8 criteria;
	u8 mask[MLX5X_FS_MATCH_BYTES];
	unsigned int used;
	DECLARE_BITMAP(busy, MLX5X_FS_GROUP_SIZE);
};

/* The table of one namespace and priority. */
struct mlx5x_fs_prio {
	u32 type;
	u32 id;
	struct list_head groups;
	DECLARE_BITMAP(slots, MLX5X_FS_NGROUPS);
};

struct mlx5x_fs_rule {
	struct mlx5x_fs_prio *prio;
	struct mlx5x_fs_group *fg;
	u32 index;
};

u32 mlx5x_fs_table_type(enum mlx5x_fs_ns ns)
{
	switch (ns) {
	case MLX5X_FS_NS_EGRESS:
		return MLX5_FLOW_TABLE_TYPE_NIC_TX;
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

unsigned int mlx5x_fs_nprios(enum mlx5x_fs_ns ns)
{
	return ns == MLX5X_FS_NS_LEFTOVERS ? 1 : MLX5X_FS_PRIOS;
}

/* ---- commands ---- */

int mlx5x_fs_cmd_create_table(struct mlx5x_dev *dev, u16 uid, u32 type,
			      u32 level, u32 log_size, u32 miss, u32 *id)
{
	return mlx5x_fs_cmd_create_table_re(dev, uid, type, level, log_size,
					    miss, false, id);
}

int mlx5x_fs_cmd_create_table_re(struct mlx5x_dev *dev, u16 uid, u32 type,
				 u32 level, u32 log_size, u32 miss,
				 bool reformat_en, u32 *id)
{
	u32 in[PRM_BYTES(create_flow_table_in) / 4] = {};
	u32 out[PRM_BYTES(create_flow_table_out) / 4] = {};
	void *ftc = PRM_ADDR(create_flow_table_in, in, flow_table_context);
	int err;

	PRM_SET(create_flow_table_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(create_flow_table_in, in, table_type, type);
	PRM_SET(flow_table_context, ftc, level, level);
	PRM_SET(flow_table_context, ftc, log_size, log_size);
	PRM_SET(flow_table_context, ftc, reformat_en, reformat_en);
	if (miss) {
		PRM_SET(flow_table_context, ftc, table_miss_action,
			MLX5_FLOW_TABLE_MISS_ACTION_FWD);
		PRM_SET(flow_table_context, ftc, table_miss_id, miss);
	}
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*id = PRM_GET(create_flow_table_out, out, table_id);
	return err;
}

void mlx5x_fs_cmd_destroy_table(struct mlx5x_dev *dev, u16 uid, u32 type,
				u32 id)
{
	u32 in[PRM_BYTES(destroy_flow_table_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_flow_table_out) / 4] = {};

	PRM_SET(destroy_flow_table_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(destroy_flow_table_in, in, table_type, type);
	PRM_SET(destroy_flow_table_in, in, table_id, id);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

int mlx5x_fs_cmd_create_group(struct mlx5x_dev *dev, u16 uid, u32 type,
			      u32 table, u32 start, u32 end, u8 criteria,
			      const void *mask, u32 *id)
{
	u32 out[PRM_BYTES(create_flow_group_out) / 4] = {};
	void *in = kzalloc(PRM_BYTES(create_flow_group_in), GFP_KERNEL);
	int err;

	if (!in)
		return -ENOMEM;
	PRM_SET(create_flow_group_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_GROUP);
	prm_in_set_uid(in, uid);
	PRM_SET(create_flow_group_in, in, table_type, type);
	PRM_SET(create_flow_group_in, in, table_id, table);
	PRM_SET(create_flow_group_in, in, start_flow_index, start);
	PRM_SET(create_flow_group_in, in, end_flow_index, end);
	PRM_SET(create_flow_group_in, in, match_criteria_enable, criteria);
	if (mask)
		memcpy(PRM_ADDR(create_flow_group_in, in, match_criteria),
		       mask, MLX5X_FS_MATCH_BYTES);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_flow_group_in), out,
			    sizeof(out));
	if (!err)
		*id = PRM_GET(create_flow_group_out, out, group_id);
	kfree(in);
	return err;
}

void mlx5x_fs_cmd_destroy_group(struct mlx5x_dev *dev, u16 uid, u32 type,
				u32 table, u32 id)
{
	u32 in[PRM_BYTES(destroy_flow_group_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_flow_group_out) / 4] = {};

	PRM_SET(destroy_flow_group_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_GROUP);
	prm_in_set_uid(in, uid);
	PRM_SET(destroy_flow_group_in, in, table_type, type);
	PRM_SET(destroy_flow_group_in, in, table_id, table);
	PRM_SET(destroy_flow_group_in, in, group_id, id);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

int mlx5x_fs_cmd_set_fte(struct mlx5x_dev *dev, u16 uid, u32 type,
			 u32 table, u32 group, u32 index, bool ignore_level,
			 const struct mlx5x_fs_rule_attr *attr)
{
	size_t inlen = PRM_BYTES(set_fte_in) +
		       (attr->ndest + attr->ncounter) *
		       PRM_BYTES(dest_format_struct);
	u32 out[PRM_BYTES(set_fte_out) / 4] = {};
	void *in, *fc;
	u8 *list;
	u32 action = attr->action;
	u32 i;
	int err;

	if (attr->ndest > MLX5X_FS_MAX_DEST ||
	    attr->ncounter > MLX5X_FS_MAX_COUNTERS)
		return -EINVAL;
	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	fc = PRM_ADDR(set_fte_in, in, flow_context);
	list = (u8 *)in + PRM_BYTES(set_fte_in);
	if (attr->ndest)
		action |= MLX5_FLOW_CONTEXT_ACTION_FWD_DEST;
	if (attr->ncounter)
		action |= MLX5_FLOW_CONTEXT_ACTION_COUNT;
	PRM_SET(set_fte_in, in, opcode, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, uid);
	PRM_SET(set_fte_in, in, table_type, type);
	PRM_SET(set_fte_in, in, table_id, table);
	PRM_SET(set_fte_in, in, flow_index, index);
	PRM_SET(set_fte_in, in, ignore_flow_level, ignore_level);
	PRM_SET(flow_context, fc, group_id, group);
	PRM_SET(flow_context, fc, action, action);
	PRM_SET(flow_context, fc, flow_tag, attr->flow_tag);
	PRM_SET(flow_context, fc, modify_header_id, attr->modify_header_id);
	PRM_SET(flow_context, fc, packet_reformat_id, attr->reformat_id);
	PRM_SET(flow_context, fc, destination_list_size, attr->ndest);
	PRM_SET(flow_context, fc, flow_counter_list_size, attr->ncounter);
	if (attr->value)
		memcpy(PRM_ADDR(flow_context, fc, match_value), attr->value,
		       MLX5X_FS_MATCH_BYTES);
	for (i = 0; i < attr->ndest; i++) {
		PRM_SET(dest_format_struct, list, destination_type,
			attr->dest[i].type);
		PRM_SET(dest_format_struct, list, destination_id,
			attr->dest[i].id);
		list += PRM_BYTES(dest_format_struct);
	}
	for (i = 0; i < attr->ncounter; i++) {
		PRM_SET(flow_counter_list, list, flow_counter_id,
			attr->counter[i]);
		list += PRM_BYTES(dest_format_struct);
	}
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	kfree(in);
	return err;
}

void mlx5x_fs_cmd_delete_fte(struct mlx5x_dev *dev, u16 uid, u32 type,
			     u32 table, u32 index)
{
	u32 in[PRM_BYTES(delete_fte_in) / 4] = {};
	u32 out[PRM_BYTES(delete_fte_out) / 4] = {};

	PRM_SET(delete_fte_in, in, opcode,
		MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, uid);
	PRM_SET(delete_fte_in, in, table_type, type);
	PRM_SET(delete_fte_in, in, table_id, table);
	PRM_SET(delete_fte_in, in, flow_index, index);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

static int mlx5x_fs_cmd_root(struct mlx5x_dev *dev, u32 type, u32 id)
{
	u32 in[PRM_BYTES(set_flow_table_root_in) / 4] = {};
	u32 out[PRM_BYTES(set_flow_table_root_out) / 4] = {};

	PRM_SET(set_flow_table_root_in, in, opcode,
		MLX5_CMD_OP_SET_FLOW_TABLE_ROOT);
	PRM_SET(set_flow_table_root_in, in, op_mod, id ? 0 : 1);
	PRM_SET(set_flow_table_root_in, in, table_type, type);
	PRM_SET(set_flow_table_root_in, in, table_id, id);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/* ---- the priorities ---- */

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
	return p ? p->id : 0;
}

/* Its level: rising along the chain of its table type. */
static u32 mlx5x_fs_level(enum mlx5x_fs_ns ns, unsigned int prio)
{
	return ns == MLX5X_FS_NS_LEFTOVERS ? 1 + MLX5X_FS_PRIOS + prio :
					     1 + prio;
}

static int mlx5x_fs_prio_create(struct mlx5x_dev *dev, enum mlx5x_fs_ns ns,
				unsigned int prio, u32 miss)
{
	struct mlx5x_fs_prio *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int err;

	if (!p)
		return -ENOMEM;
	p->type = mlx5x_fs_table_type(ns);
	INIT_LIST_HEAD(&p->groups);
	err = mlx5x_fs_cmd_create_table_re(dev, 0, p->type,
					   mlx5x_fs_level(ns, prio),
					   MLX5X_FS_LOG_SIZE, miss,
					   mlx5x_fs_reformat_en(dev, p->type),
					   &p->id);
	if (err) {
		kfree(p);
		return err;
	}
	dev->fs->prio[ns][prio] = p;
	return 0;
}

/* Destroy the tables, first first: each is the miss of the one before. */
static void mlx5x_fs_prios_destroy(struct mlx5x_dev *dev)
{
	static const enum mlx5x_fs_ns order[] = {
		MLX5X_FS_NS_BYPASS, MLX5X_FS_NS_LEFTOVERS, MLX5X_FS_NS_EGRESS,
		MLX5X_FS_NS_FDB, MLX5X_FS_NS_RDMA_RX, MLX5X_FS_NS_RDMA_TX,
	};
	struct mlx5x_fs_prio *p;
	unsigned int i, prio;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		for (prio = 0; prio < MLX5X_FS_PRIOS; prio++) {
			p = dev->fs->prio[order[i]][prio];
			if (!p)
				continue;
			WARN_ON(!list_empty(&p->groups));
			mlx5x_fs_cmd_destroy_table(dev, 0, p->type, p->id);
			kfree(p);
			dev->fs->prio[order[i]][prio] = NULL;
		}
	}
}

/* One chain, last first so each table names its miss at creation. */
static int mlx5x_fs_chain_create(struct mlx5x_dev *dev, enum mlx5x_fs_ns ns,
				 u32 miss)
{
	int prio, err;

	for (prio = mlx5x_fs_nprios(ns) - 1; prio >= 0; prio--) {
		err = mlx5x_fs_prio_create(dev, ns, prio, miss);
		if (err)
			return err;
		miss = dev->fs->prio[ns][prio]->id;
	}
	return 0;
}

/**
 * mlx5x_fs_init() - build the kernel's steering of a device
 * @dev: device, firmware probed
 *
 * Return: 0, or a negative errno (nothing is left behind).
 */
int mlx5x_fs_init(struct mlx5x_dev *dev)
{
	enum mlx5x_fs_ns ns;
	int err;

	dev->fs = kzalloc(sizeof(*dev->fs), GFP_KERNEL);
	if (!dev->fs)
		return -ENOMEM;
	mutex_init(&dev->fs->lock);
	err = mlx5x_query_hca_cap(dev, MLX5X_CAP_NIC_FLOW_TABLE,
				  &dev->fs->ft_cap);
	if (err) {
		kfree(dev->fs);
		dev->fs = NULL;
		return err;
	}
	err = mlx5x_fs_chain_create(dev, MLX5X_FS_NS_LEFTOVERS, 0);
	if (!err)
		err = mlx5x_fs_chain_create(dev, MLX5X_FS_NS_BYPASS,
					    mlx5x_fs_prio_table_id(dev,
						MLX5X_FS_NS_LEFTOVERS, 0));
	if (!err)
		err = mlx5x_fs_chain_create(dev, MLX5X_FS_NS_EGRESS, 0);
	/* the flow matchers' namespaces, where the device offers them */
	for (ns = MLX5X_FS_NS_FDB; !err && ns <= MLX5X_FS_NS_RDMA_TX; ns++)
		if (mlx5x_fs_ns_offered(dev, ns)) {
			err = mlx5x_fs_chain_create(dev, ns, 0);
			if (!err && ns != MLX5X_FS_NS_FDB)
				err = mlx5x_fs_cmd_root(dev,
					mlx5x_fs_table_type(ns),
					mlx5x_fs_prio_table_id(dev, ns, 0));
		}
	if (!err)
		err = mlx5x_fs_cmd_root(dev, MLX5_FLOW_TABLE_TYPE_NIC_RX,
					mlx5x_fs_prio_table_id(dev,
						MLX5X_FS_NS_BYPASS, 0));
	if (!err)
		err = mlx5x_fs_cmd_root(dev, MLX5_FLOW_TABLE_TYPE_NIC_TX,
					mlx5x_fs_prio_table_id(dev,
						MLX5X_FS_NS_EGRESS, 0));
	if (err)
		mlx5x_fs_cleanup(dev);
	return err;
}

/**
 * mlx5x_fs_cleanup() - take the kernel's steering down
 * @dev: device; every rule added through it must be deleted already
 */
void mlx5x_fs_cleanup(struct mlx5x_dev *dev)
{
	if (!dev->fs)
		return;
	mlx5x_fs_anchors_cleanup(dev);
	mlx5x_fs_cmd_root(dev, MLX5_FLOW_TABLE_TYPE_NIC_RX, 0);
	mlx5x_fs_cmd_root(dev, MLX5_FLOW_TABLE_TYPE_NIC_TX, 0);
	if (dev->fs->prio[MLX5X_FS_NS_RDMA_RX][0])
		mlx5x_fs_cmd_root(dev, MLX5X_FT_TYPE_RDMA_RX, 0);
	if (dev->fs->prio[MLX5X_FS_NS_RDMA_TX][0])
		mlx5x_fs_cmd_root(dev, MLX5X_FT_TYPE_RDMA_TX, 0);
	mlx5x_fs_prios_destroy(dev);
	kfree(dev->fs->ft_cap);
	mutex_destroy(&dev->fs->lock);
	kfree(dev->fs);
	dev->fs = NULL;
}

/* ---- rules ---- */

/* A group of @p with this mask and a free index, made if need be. */
static struct mlx5x_fs_group *
mlx5x_fs_group_get(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p,
		   u8 criteria, const void *mask)
{
	struct mlx5x_fs_group *fg;
	unsigned int slot;
	int err;

	list_for_each_entry(fg, &p->groups, node)
		if (fg->criteria == criteria && fg->used < MLX5X_FS_GROUP_SIZE &&
		    !memcmp(fg->mask, mask, MLX5X_FS_MATCH_BYTES))
			return fg;
	slot = find_first_zero_bit(p->slots, MLX5X_FS_NGROUPS);
	if (slot >= MLX5X_FS_NGROUPS)
		return ERR_PTR(-ENOSPC);
	fg = kzalloc(sizeof(*fg), GFP_KERNEL);
	if (!fg)
		return ERR_PTR(-ENOMEM);
	fg->slot = slot;
	fg->criteria = criteria;
	memcpy(fg->mask, mask, MLX5X_FS_MATCH_BYTES);
	err = mlx5x_fs_cmd_create_group(dev, 0, p->type, p->id,
					slot * MLX5X_FS_GROUP_SIZE,
					(slot + 1) * MLX5X_FS_GROUP_SIZE - 1,
					criteria, mask, &fg->id);
	if (err) {
		kfree(fg);
		return ERR_PTR(err);
	}
	set_bit(slot, p->slots);
	list_add_tail(&fg->node, &p->groups);
	return fg;
}

static void mlx5x_fs_group_put(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p,
			       struct mlx5x_fs_group *fg)
{
	if (fg->used)
		return;
	mlx5x_fs_cmd_destroy_group(dev, 0, p->type, p->id, fg->id);
	clear_bit(fg->slot, p->slots);
	list_del(&fg->node);
	kfree(fg);
}

/**
 * mlx5x_fs_rule_add() - add a rule to the kernel's table of a priority
 * @dev: device
 * @ns: namespace
 * @prio: priority, below mlx5x_fs_nprios(@ns)
 * @attr: what it matches and does; destinations are forwarded to
 *	  ignoring levels (a user's table may sit at any level)
 *
 * Return: the rule, or an ERR_PTR: -EINVAL for a bad namespace or
 * priority, -ENOSPC when the table is full, -EEXIST when a rule of the
 * priority matches the same, or the errno of a refused command.
 */
struct mlx5x_fs_rule *mlx5x_fs_rule_add(struct mlx5x_dev *dev,
					enum mlx5x_fs_ns ns, unsigned int prio,
					const struct mlx5x_fs_rule_attr *attr)
{
	struct mlx5x_fs_rule *rule;
	struct mlx5x_fs_group *fg;
	struct mlx5x_fs_prio *p;
	bool ignore_level;
	int err;

	if (!dev->fs || ns >= MLX5X_FS_NS_NUM || prio >= mlx5x_fs_nprios(ns) ||
	    !attr->mask || !attr->value)
		return ERR_PTR(-EINVAL);
	p = dev->fs->prio[ns][prio];
	if (!p)
		return ERR_PTR(-EOPNOTSUPP);
	rule = kzalloc(sizeof(*rule), GFP_KERNEL);
	if (!rule)
		return ERR_PTR(-ENOMEM);
	ignore_level = attr->ndest > 0;
	mutex_lock(&dev->fs->lock);
	fg = mlx5x_fs_group_get(dev, p, attr->criteria, attr->mask);
	if (IS_ERR(fg)) {
		err = PTR_ERR(fg);
		goto err_unlock;
	}
	rule->index = find_first_zero_bit(fg->busy, MLX5X_FS_GROUP_SIZE);
	err = mlx5x_fs_cmd_set_fte(dev, 0, p->type, p->id, fg->id,
				   fg->slot * MLX5X_FS_GROUP_SIZE + rule->index,
				   ignore_level, attr);
	if (err) {
		mlx5x_fs_group_put(dev, p, fg);
		goto err_unlock;
	}
	set_bit(rule->index, fg->busy);
	fg->used++;
	mutex_unlock(&dev->fs->lock);
	rule->prio = p;
	rule->fg = fg;
	return rule;

err_unlock:
	mutex_unlock(&dev->fs->lock);
	kfree(rule);
	return ERR_PTR(err);
}

/**
 * mlx5x_fs_rule_del() - delete a rule mlx5x_fs_rule_add() added
 * @dev: device
 * @rule: the rule, freed
 */
void mlx5x_fs_rule_del(struct mlx5x_dev *dev, struct mlx5x_fs_rule *rule)
{
	struct mlx5x_fs_prio *p = rule->prio;
	struct mlx5x_fs_group *fg = rule->fg;

	mutex_lock(&dev->fs->lock);
	mlx5x_fs_cmd_delete_fte(dev, 0, p->type, p->id,
				fg->slot * MLX5X_FS_GROUP_SIZE + rule->index);
	clear_bit(rule->index, fg->busy);
	fg->used--;
	mlx5x_fs_group_put(dev, p, fg);
	mutex_unlock(&dev->fs->lock);
	kfree(rule);
}
