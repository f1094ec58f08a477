// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_counters (create_counters, read_counters, destroy_counters) and how
 * flows count into them, as mlx5_ib does: the object gets a flow counter
 * of the device (kernel uid) when a flow first counts into it, and the
 * first flow's mlx5 driver data (struct mlx5_ib_flow_counters_data) binds
 * it: which of the counter's values (IB_COUNTER_PACKETS or _BYTES) is
 * added to which index of the user's array on a read.  The binding lasts
 * while a flow counts into the object; a later flow may not rebind it.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/mlx5-abi.h>
#include "fs_verbs.h"

/* As upstream: so many pairs fit the attribute's u16 length. */
#define MLX5X_COUNTERS_MAX_DESC	(USHRT_MAX / (sizeof(u32) * 2))
#define MLX5X_COUNTERS_VALUES	2	/* packets, bytes */

static int mlx5x_fc_alloc(struct mlx5x_dev *dev, u32 *id)
{
	u32 in[PRM_BYTES(alloc_flow_counter_in) / 4] = {};
	u32 out[PRM_BYTES(alloc_flow_counter_out) / 4] = {};
	int err;

	PRM_SET(alloc_flow_counter_in, in, opcode,
		MLX5_CMD_OP_ALLOC_FLOW_COUNTER);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*id = PRM_GET(alloc_flow_counter_out, out, flow_counter_id);
	return err;
}

static void mlx5x_fc_free(struct mlx5x_dev *dev, u32 id)
{
	u32 in[PRM_BYTES(dealloc_flow_counter_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_flow_counter_out) / 4] = {};

	PRM_SET(dealloc_flow_counter_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_FLOW_COUNTER);
	PRM_SET(dealloc_flow_counter_in, in, flow_counter_id, id);
	mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

static int mlx5x_fc_query(struct mlx5x_dev *dev, u32 id,
			  u64 val[MLX5X_COUNTERS_VALUES])
{
	u32 in[PRM_BYTES(query_flow_counter_in) / 4] = {};
	u8 out[PRM_BYTES(query_flow_counter_out) +
	       PRM_BYTES(traffic_counter)] = {};
	void *st = PRM_ADDR(query_flow_counter_out, out, flow_statistics);
	int err;

	PRM_SET(query_flow_counter_in, in, opcode,
		MLX5_CMD_OP_QUERY_FLOW_COUNTER);
	PRM_SET(query_flow_counter_in, in, flow_counter_id, id);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	val[IB_COUNTER_PACKETS] = PRM_GET64(traffic_counter, st, packets);
	val[IB_COUNTER_BYTES] = PRM_GET64(traffic_counter, st, octets);
	return 0;
}

int mlx5x_create_counters(struct ib_counters *counters,
			  struct uverbs_attr_bundle *attrs)
{
	mutex_init(&to_mcounters(counters)->lock);
	return 0;
}

int mlx5x_destroy_counters(struct ib_counters *counters)
{
	struct mlx5x_counters *c = to_mcounters(counters);

	if (c->fc_id)
		mlx5x_fc_free(to_mdev(counters->device), c->fc_id);
	kfree(c->desc);
	mutex_destroy(&c->lock);
	return 0;
}

/**
 * mlx5x_read_counters() - the read_counters device operation
 * @counters: the object
 * @read_attr: the user's array (zeroed by the core) and its length
 * @attrs: unused
 *
 * Return: 0 (nothing is added while no flow has bound the object),
 * -EINVAL when the array is shorter than the binding's greatest index,
 * or the errno of the query.
 */
int mlx5x_read_counters(struct ib_counters *counters,
			struct ib_counters_read_attr *read_attr,
			struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_counters *c = to_mcounters(counters);
	u64 val[MLX5X_COUNTERS_VALUES];
	int err = 0;
	u32 i;

	mutex_lock(&c->lock);
	if (c->max_index > read_attr->ncounters) {
		err = -EINVAL;
		goto out;
	}
	if (!c->ndesc || !c->fc_id)
		goto out;
	err = mlx5x_fc_query(to_mdev(counters->device), c->fc_id, val);
	if (err)
		goto out;
	for (i = 0; i < c->ndesc; i++)
		read_attr->counters_buff[c->desc[i].index] +=
			val[c->desc[i].description];
out:
	mutex_unlock(&c->lock);
	return err;
}

/* The user's (description, index) pairs, checked. */
static struct mlx5_ib_flow_counters_desc *
mlx5x_counters_desc(const struct mlx5_ib_flow_counters_data *data,
		    u32 *max_index)
{
	struct mlx5_ib_flow_counters_desc *desc;
	u32 i;

	if (!data->ncounters || data->ncounters > MLX5X_COUNTERS_MAX_DESC ||
	    data->reserved)
		return ERR_PTR(-EINVAL);
	desc = kcalloc(data->ncounters, sizeof(*desc), GFP_KERNEL);
	if (!desc)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(desc, u64_to_user_ptr(data->counters_data),
			   data->ncounters * sizeof(*desc))) {
		kfree(desc);
		return ERR_PTR(-EFAULT);
	}
	*max_index = 0;
	for (i = 0; i < data->ncounters; i++) {
		if (desc[i].description > IB_COUNTER_BYTES ||
		    desc[i].index >= MLX5X_COUNTERS_MAX_DESC) {
			kfree(desc);
			return ERR_PTR(-EINVAL);
		}
		*max_index = max(*max_index, desc[i].index + 1);
	}
	return desc;
}

/**
 * mlx5x_counters_bind() - a flow is to count into @counters
 * @dev: device
 * @counters: the object of the flow's count spec
 * @data: the flow's counters data; NULL when it gave none
 *
 * The first flow allocates the flow counter and must bind the object
 * (@data); later flows must not.  Each successful call is undone by one
 * mlx5x_counters_unbind().
 *
 * Return: 0, -EINVAL for a missing, second or bad binding, or -ENOMEM,
 * -EFAULT, or the errno of the allocation.
 */
int mlx5x_counters_bind(struct mlx5x_dev *dev, struct ib_counters *counters,
			const struct mlx5_ib_flow_counters_data *data)
{
	struct mlx5x_counters *c = to_mcounters(counters);
	struct mlx5_ib_flow_counters_desc *desc = NULL;
	u32 max_index = 0;
	int err = 0;

	if (data) {
		desc = mlx5x_counters_desc(data, &max_index);
		if (IS_ERR(desc))
			return PTR_ERR(desc);
	}
	mutex_lock(&c->lock);
	if (desc ? c->ndesc : !c->ndesc) {
		err = -EINVAL;	/* bound already / never bound */
		goto out;
	}
	if (!c->fc_id) {
		err = mlx5x_fc_alloc(dev, &c->fc_id);
		if (err)
			goto out;
	}
	if (desc) {
		c->desc = desc;
		c->ndesc = data->ncounters;
		c->max_index = max_index;
		desc = NULL;
	}
	c->nflows++;
out:
	mutex_unlock(&c->lock);
	kfree(desc);
	return err;
}

/**
 * mlx5x_counters_unbind() - a flow no longer counts into @counters
 * @counters: the object
 *
 * The last flow's going unbinds it (the flow counter stays until the
 * object is destroyed, keeping its values).
 */
void mlx5x_counters_unbind(struct ib_counters *counters)
{
	struct mlx5x_counters *c = to_mcounters(counters);

	mutex_lock(&c->lock);
	if (c->nflows && !--c->nflows) {
		kfree(c->desc);
		c->desc = NULL;
		c->ndesc = 0;
		c->max_index = 0;
	}
	mutex_unlock(&c->lock);
}
