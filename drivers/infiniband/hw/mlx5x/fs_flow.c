// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_METHOD_CREATE_FLOW / DESTROY_FLOW on UVERBS_OBJECT_FLOW
 * (mlx5dv_create_flow): one rule, made through a flow matcher, in the
 * kernel's table of the matcher's namespace and priority
 * (mlx5x_fs_rule_add()).  Destinations and actions, by namespace as
 * upstream mlx5_ib allows them:
 *
 * - a DEVX TIR or flow table, or a RAW_PACKET QP (its TIR), or DROP, or
 *   DEFAULT_MISS (on NIC RX: on to the leftovers namespace; elsewhere
 *   the type's default), at most one of them on NIC RX;
 * - NIC TX and RDMA TX: no TIR; without a destination the packet goes
 *   on to the wire (ALLOW);
 * - FDB: a DEVX flow table or DROP; RDMA RX: a DEVX flow table or a QP;
 * - one DEVX flow counter (any counter of a bulk, by offset), a flow tag
 *   below 2^24, up to two flow actions (one modify header, one packet
 *   reformat) made for the matcher's table type.
 *
 * Needs CAP_NET_RAW, as upstream.
 */
#include <linux/capability.h>
#include <linux/slab.h>
#include <rdma/uverbs_std_types.h>
#include "fs_dv.h"
#include "devx_kinds.h"
#include "verbs.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

#define MLX5X_FLOW_MAX_ACTIONS	2

struct mlx5x_dv_flow {
	struct mlx5x_flow flow;
	struct mlx5x_fs_rule *rule;
	struct mlx5x_flow_matcher *matcher;
};

/**
 * mlx5x_destroy_flow() - ib_device_ops.destroy_flow
 * @ibflow: a flow of any entry point of this driver
 *
 * Return: 0.
 */
int mlx5x_destroy_flow(struct ib_flow *ibflow)
{
	struct mlx5x_flow *flow = container_of(ibflow, struct mlx5x_flow, ib);
	struct mlx5x_ucontext *uctx = flow->uctx;

	flow->destroy(flow);
	if (uctx)
		mlx5x_limit_put(uctx, MLX5X_LIMIT_FLOWS);
	return 0;
}

static void mlx5x_dv_flow_destroy(struct mlx5x_flow *flow)
{
	struct mlx5x_dv_flow *f = container_of(flow, struct mlx5x_dv_flow,
					       flow);

	mlx5x_fs_rule_del(flow->dev, f->rule);
	atomic_dec(&f->matcher->usecnt);
	kfree(f);
}

/* A DEVX object as a destination: a TIR or a flow table. */
static int mlx5x_flow_devx_dest(struct mlx5x_devx_obj *obj,
				struct mlx5x_fs_dest *dest)
{
	switch (obj->kind->destroy_op) {
	case MLX5_CMD_OP_DESTROY_TIR:
		dest->type = MLX5_IFC_FLOW_DESTINATION_TYPE_TIR;
		break;
	case MLX5_CMD_OP_DESTROY_FLOW_TABLE:
		dest->type = MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE;
		break;
	default:
		return -EINVAL;
	}
	dest->id = obj->key[0];
	return 0;
}

/* Destination, DROP or DEFAULT_MISS: the namespace's rules. */
static int mlx5x_flow_dests(struct uverbs_attr_bundle *attrs,
			    struct mlx5x_flow_matcher *m,
			    struct mlx5x_fs_rule_attr *ra, struct ib_qp **qp)
{
	bool devx = uverbs_attr_is_valid(attrs,
					 MLX5_IB_ATTR_CREATE_FLOW_DEST_DEVX);
	bool dqp = uverbs_attr_is_valid(attrs,
					MLX5_IB_ATTR_CREATE_FLOW_DEST_QP);
	bool tx = m->ns == MLX5X_FS_NS_EGRESS || m->ns == MLX5X_FS_NS_RDMA_TX;
	struct mlx5x_fs_dest *dest = &ra->dest[0];
	u32 flags = 0;
	int err;

	err = uverbs_get_flags32(&flags, attrs, MLX5_IB_ATTR_CREATE_FLOW_FLAGS,
				 MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DEFAULT_MISS |
				 MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DROP);
	if (err)
		return err;
	if (hweight32(flags) + devx + dqp > 1)
		return -EINVAL;
	switch (m->ns) {
	case MLX5X_FS_NS_FDB:
		if (!devx && !(flags & MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DROP))
			return -EINVAL;
		break;
	case MLX5X_FS_NS_RDMA_RX:
		if (!devx && !dqp)
			return -EINVAL;
		break;
	case MLX5X_FS_NS_BYPASS:
		if (!devx && !dqp && !flags)
			return -EINVAL;	/* the packet would go nowhere */
		break;
	default:
		break;
	}

	*qp = NULL;
	if (devx) {
		err = mlx5x_flow_devx_dest(uverbs_attr_get_obj(attrs,
					MLX5_IB_ATTR_CREATE_FLOW_DEST_DEVX),
					   dest);
		if (err)
			return err;
		if ((m->ns == MLX5X_FS_NS_FDB || m->ns == MLX5X_FS_NS_RDMA_RX) &&
		    dest->type != MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE)
			return -EINVAL;
		ra->ndest = 1;
	} else if (dqp) {
		*qp = uverbs_attr_get_obj(attrs,
					  MLX5_IB_ATTR_CREATE_FLOW_DEST_QP);
		if (IS_ERR(*qp))
			return PTR_ERR(*qp);
		err = mlx5x_qp_tirn(*qp, &dest->id);
		if (err)
			return err;
		dest->type = MLX5_IFC_FLOW_DESTINATION_TYPE_TIR;
		ra->ndest = 1;
	} else if (flags & MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DROP) {
		ra->action |= MLX5_FLOW_CONTEXT_ACTION_DROP;
	} else if (flags & MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DEFAULT_MISS &&
		   m->ns == MLX5X_FS_NS_BYPASS) {
		/* on to the next namespace */
		dest->type = MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE;
		dest->id = mlx5x_fs_prio_table_id(m->dev,
						  MLX5X_FS_NS_LEFTOVERS, 0);
		ra->ndest = 1;
	} else {
		ra->action |= MLX5_FLOW_CONTEXT_ACTION_ALLOW;
	}
	if (tx && ra->ndest &&
	    dest->type == MLX5_IFC_FLOW_DESTINATION_TYPE_TIR)
		return -EINVAL;
	return 0;
}

/* The DEVX flow counter, at an offset into its bulk. */
static int mlx5x_flow_counter(struct uverbs_attr_bundle *attrs,
			      struct mlx5x_fs_rule_attr *ra)
{
	struct ib_uobject **arr;
	struct mlx5x_devx_obj *obj;
	u32 offset = 0;
	const u32 *p;
	int len;

	len = uverbs_attr_get_uobjs_arr(attrs,
			MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX, &arr);
	if (!len)
		return 0;
	obj = arr[0]->object;
	if (uverbs_attr_is_valid(attrs,
				 MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX_OFFSET)) {
		if (uverbs_attr_ptr_get_array_size(attrs,
				MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX_OFFSET,
				sizeof(u32)) != 1)
			return -EINVAL;
		p = uverbs_attr_get_alloced_ptr(attrs,
				MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX_OFFSET);
		if (IS_ERR(p))
			return PTR_ERR(p);
		offset = *p;
	}
	if (obj->kind->destroy_op != MLX5_CMD_OP_DEALLOC_FLOW_COUNTER ||
	    offset >= obj->span)
		return -EINVAL;
	ra->counter[0] = obj->key[0] + offset;
	ra->ncounter = 1;
	return 0;
}

/* The flow actions: one of each kind, made for the matcher's type. */
static int mlx5x_flow_actions(struct uverbs_attr_bundle *attrs,
			      struct mlx5x_flow_matcher *m,
			      struct mlx5x_fs_rule_attr *ra,
			      struct ib_uflow_resources *res)
{
	u32 type = mlx5x_fs_table_type(m->ns);
	struct mlx5x_flow_action *a;
	struct ib_uobject **arr;
	int len, i;

	len = uverbs_attr_get_uobjs_arr(attrs,
			MLX5_IB_ATTR_CREATE_FLOW_ARR_FLOW_ACTIONS, &arr);
	for (i = 0; i < len; i++) {
		struct ib_flow_action *ib = arr[i]->object;

		if (ib->device != &m->dev->ib ||
		    ib->type != IB_FLOW_ACTION_UNSPECIFIED)
			return -EOPNOTSUPP;
		a = to_mflow_action(ib);
		if (a->table_type != type)
			return -EINVAL;
		if (a->kind == MLX5X_FLOW_ACTION_MODIFY_HEADER) {
			if (ra->action & MLX5_FLOW_CONTEXT_ACTION_MOD_HDR)
				return -EINVAL;
			ra->action |= MLX5_FLOW_CONTEXT_ACTION_MOD_HDR;
			ra->modify_header_id = a->id;
		} else {
			if (ra->action &
			    MLX5_FLOW_CONTEXT_ACTION_PACKET_REFORMAT)
				return -EINVAL;
			ra->action |= MLX5_FLOW_CONTEXT_ACTION_PACKET_REFORMAT;
			ra->reformat_id = a->id;
		}
		flow_resources_add(res, IB_FLOW_SPEC_ACTION_HANDLE, ib);
	}
	return 0;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_CREATE_FLOW)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_CREATE_FLOW_HANDLE);
	struct mlx5x_dev *dev = to_mdev(uobj->context->device);
	struct mlx5x_fs_rule_attr ra = {};
	struct ib_uflow_resources *res;
	struct mlx5x_flow_matcher *m;
	struct mlx5x_ucontext *uctx;
	struct ib_ucontext *ucontext;
	struct mlx5x_dv_flow *f;
	struct ib_qp *qp;
	const void *val;
	u8 *value;
	int len, err;

	if (!capable(CAP_NET_RAW))
		return -EPERM;
	m = uverbs_attr_get_obj(attrs, MLX5_IB_ATTR_CREATE_FLOW_MATCHER);
	if (m->flow_type != MLX5_IB_FLOW_TYPE_NORMAL)
		return -EOPNOTSUPP;
	err = mlx5x_flow_dests(attrs, m, &ra, &qp);
	if (!err)
		err = mlx5x_flow_counter(attrs, &ra);
	if (err)
		return err;
	err = uverbs_copy_from(&ra.flow_tag, attrs,
			       MLX5_IB_ATTR_CREATE_FLOW_TAG);
	if (err != -ENOENT && (err || ra.flow_tag >= BIT(24)))
		return err ?: -EINVAL;
	val = uverbs_attr_get_alloced_ptr(attrs,
					  MLX5_IB_ATTR_CREATE_FLOW_MATCH_VALUE);
	if (IS_ERR(val))
		return PTR_ERR(val);
	len = uverbs_attr_get_len(attrs, MLX5_IB_ATTR_CREATE_FLOW_MATCH_VALUE);

	ucontext = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	uctx = to_mucontext(ucontext);
	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_FLOWS);
	if (err)
		return err;
	res = flow_resources_alloc(MLX5X_FLOW_MAX_ACTIONS);
	if (!res) {
		mlx5x_limit_put(uctx, MLX5X_LIMIT_FLOWS);
		return -ENOMEM;
	}
	err = mlx5x_flow_actions(attrs, m, &ra, res);
	if (err)
		goto err_res;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	value = kzalloc(MLX5X_MATCH_BYTES, GFP_KERNEL);
	if (!f || !value) {
		err = -ENOMEM;
		goto err_free;
	}
	memcpy(value, val, len);
	ra.criteria = m->criteria;
	ra.mask = m->mask;
	ra.value = value;
	f->rule = mlx5x_fs_rule_add(dev, m->ns, m->priority, &ra);
	kfree(value);
	value = NULL;
	if (IS_ERR(f->rule)) {
		err = PTR_ERR(f->rule);
		goto err_free;
	}
	f->matcher = m;
	atomic_inc(&m->usecnt);
	f->flow.dev = dev;
	f->flow.uctx = uctx;
	f->flow.destroy = mlx5x_dv_flow_destroy;
	ib_set_flow(uobj, &f->flow.ib, qp, &dev->ib, res);
	return 0;

err_free:
	kfree(value);
	kfree(f);
err_res:
	ib_uverbs_flow_resources_free(res);
	mlx5x_limit_put(uctx, MLX5X_LIMIT_FLOWS);
	return err;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_CREATE_FLOW,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_CREATE_FLOW_HANDLE,
			UVERBS_OBJECT_FLOW,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_CREATE_FLOW_MATCH_VALUE,
			   UVERBS_ATTR_SIZE(1, MLX5X_MATCH_BYTES),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_CREATE_FLOW_MATCHER,
			MLX5_IB_OBJECT_FLOW_MATCHER,
			UVERBS_ACCESS_READ,
			UA_MANDATORY),
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_CREATE_FLOW_DEST_QP,
			UVERBS_OBJECT_QP,
			UVERBS_ACCESS_READ),
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_CREATE_FLOW_DEST_DEVX,
			MLX5_IB_OBJECT_DEVX_OBJ,
			UVERBS_ACCESS_READ),
	UVERBS_ATTR_IDRS_ARR(MLX5_IB_ATTR_CREATE_FLOW_ARR_FLOW_ACTIONS,
			     UVERBS_OBJECT_FLOW_ACTION,
			     UVERBS_ACCESS_READ, 1,
			     MLX5X_FLOW_MAX_ACTIONS,
			     UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_CREATE_FLOW_TAG,
			   UVERBS_ATTR_TYPE(u32),
			   UA_OPTIONAL),
	UVERBS_ATTR_IDRS_ARR(MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX,
			     MLX5_IB_OBJECT_DEVX_OBJ,
			     UVERBS_ACCESS_READ, 1, 1,
			     UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX_OFFSET,
			   UVERBS_ATTR_MIN_SIZE(sizeof(u32)),
			   UA_OPTIONAL,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_FLAGS_IN(MLX5_IB_ATTR_CREATE_FLOW_FLAGS,
			     enum mlx5_ib_create_flow_flags,
			     UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	MLX5_IB_METHOD_DESTROY_FLOW,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_CREATE_FLOW_HANDLE,
			UVERBS_OBJECT_FLOW,
			UVERBS_ACCESS_DESTROY,
			UA_MANDATORY));

ADD_UVERBS_METHODS(mlx5x_fs_flow,
		   UVERBS_OBJECT_FLOW,
		   &UVERBS_METHOD(MLX5_IB_METHOD_CREATE_FLOW),
		   &UVERBS_METHOD(MLX5_IB_METHOD_DESTROY_FLOW));

const struct uapi_definition mlx5x_flow_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_FLOW, &mlx5x_fs_flow),
	{}
};
