// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5 flow-action methods on UVERBS_OBJECT_FLOW_ACTION:
 * MLX5_IB_METHOD_FLOW_ACTION_CREATE_MODIFY_HEADER and
 * MLX5_IB_METHOD_FLOW_ACTION_CREATE_PACKET_REFORMAT
 * (mlx5dv_create_flow_action_modify_header / _packet_reformat).  The
 * kernel allocates the firmware context (uid 0: the kernel's rules use
 * it) for one table type; the legality per table type is the device's:
 *
 * - modify header: any table type the device offers, when it offers
 *   modify header actions on it; the actions themselves (fields, lengths,
 *   count up to max_modify_header_actions) are the firmware's to judge;
 * - packet reformat: L2 to L2 tunnel and L2 to L3 tunnel on NIC TX (when
 *   encap_general_header / reformat_l2_to_l3_tunnel), L3 tunnel to L2 on
 *   NIC RX (reformat_l3_tunnel_to_l2); nothing else (L2 tunnel to L2 is
 *   an entry's DECAP action, not built here: EOPNOTSUPP).
 */
#include <linux/slab.h>
#include <rdma/uverbs_std_types.h>
#include "fs_dv.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

static void mlx5x_action_dealloc(struct mlx5x_dev *dev,
				 struct mlx5x_flow_action *a)
{
	u32 in[PRM_BYTES(dealloc_packet_reformat_context_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_packet_reformat_context_out) / 4] = {};

	BUILD_BUG_ON(PRM_BYTES(dealloc_modify_header_context_in) > sizeof(in));
	BUILD_BUG_ON(PRM_BYTES(dealloc_modify_header_context_out) >
		     sizeof(out));
	if (a->kind == MLX5X_FLOW_ACTION_MODIFY_HEADER) {
		PRM_SET(dealloc_modify_header_context_in, in, opcode,
			MLX5_CMD_OP_DEALLOC_MODIFY_HEADER_CONTEXT);
		PRM_SET(dealloc_modify_header_context_in, in, modify_header_id,
			a->id);
	} else {
		PRM_SET(dealloc_packet_reformat_context_in, in, opcode,
			MLX5_CMD_OP_DEALLOC_PACKET_REFORMAT_CONTEXT);
		PRM_SET(dealloc_packet_reformat_context_in, in,
			packet_reformat_id, a->id);
	}
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

/* A new action, counted against its context's limit; or an ERR_PTR. */
static struct mlx5x_flow_action *mlx5x_action_new(struct ib_uobject *uobj)
{
	struct mlx5x_ucontext *uctx = to_mucontext(uobj->context);
	struct mlx5x_flow_action *a;
	int err;

	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_STEERING);
	if (err)
		return ERR_PTR(err);
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a) {
		mlx5x_limit_put(uctx, MLX5X_LIMIT_STEERING);
		return ERR_PTR(-ENOMEM);
	}
	a->uctx = uctx;
	return a;
}

static void mlx5x_action_free(struct mlx5x_flow_action *a)
{
	mlx5x_limit_put(a->uctx, MLX5X_LIMIT_STEERING);
	kfree(a);
}

/**
 * mlx5x_destroy_flow_action() - ib_device_ops.destroy_flow_action
 * @action: an action of this file (ib_core checked it is unused)
 *
 * Return: 0.
 */
int mlx5x_destroy_flow_action(struct ib_flow_action *action)
{
	struct mlx5x_flow_action *a = to_mflow_action(action);

	mlx5x_action_dealloc(a->dev, a);
	mlx5x_action_free(a);
	return 0;
}

/* The table type of a uapi ft_type the device offers, or an errno. */
static int mlx5x_action_table_type(struct mlx5x_dev *dev, u32 ft_type,
				   u32 *type, void **prop)
{
	enum mlx5x_fs_ns ns;
	int err = mlx5x_ft_type_to_ns(ft_type, &ns);

	if (err)
		return err;
	*type = mlx5x_fs_table_type(ns);
	*prop = mlx5x_fs_prop(dev, *type);
	return *prop ? 0 : -EOPNOTSUPP;
}

static int mlx5x_modify_header_alloc(struct mlx5x_dev *dev, u32 type,
				     const void *actions, int num, u32 *id)
{
	size_t alen = PRM_UN_BYTES(set_add_copy_action_in_auto);
	size_t inlen = PRM_BYTES(alloc_modify_header_context_in) + num * alen;
	u32 out[PRM_BYTES(alloc_modify_header_context_out) / 4] = {};
	void *in;
	int err;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	PRM_SET(alloc_modify_header_context_in, in, opcode,
		MLX5_CMD_OP_ALLOC_MODIFY_HEADER_CONTEXT);
	PRM_SET(alloc_modify_header_context_in, in, table_type, type);
	PRM_SET(alloc_modify_header_context_in, in, num_of_actions, num);
	memcpy(PRM_ADDR(alloc_modify_header_context_in, in, actions), actions,
	       num * alen);
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	if (!err)
		*id = PRM_GET(alloc_modify_header_context_out, out,
			      modify_header_id);
	kfree(in);
	return err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_FLOW_ACTION_CREATE_MODIFY_HEADER)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_CREATE_MODIFY_HEADER_HANDLE);
	struct mlx5x_dev *dev = to_mdev(uobj->context->device);
	struct mlx5x_flow_action *a;
	u32 ft_type, type;
	const void *in;
	void *prop;
	int num, err;

	err = uverbs_get_const(&ft_type, attrs,
			       MLX5_IB_ATTR_CREATE_MODIFY_HEADER_FT_TYPE);
	if (err)
		return err;
	err = mlx5x_action_table_type(dev, ft_type, &type, &prop);
	if (err)
		return err;
	if (!PRM_GET(flow_table_prop_layout, prop, max_modify_header_actions))
		return -EOPNOTSUPP;
	num = uverbs_attr_ptr_get_array_size(
		attrs, MLX5_IB_ATTR_CREATE_MODIFY_HEADER_ACTIONS_PRM,
		PRM_UN_BYTES(set_add_copy_action_in_auto));
	if (num < 0)
		return num;
	if (num > PRM_GET(flow_table_prop_layout, prop,
			  max_modify_header_actions))
		return -EINVAL;
	in = uverbs_attr_get_alloced_ptr(
		attrs, MLX5_IB_ATTR_CREATE_MODIFY_HEADER_ACTIONS_PRM);
	if (IS_ERR(in))
		return PTR_ERR(in);
	a = mlx5x_action_new(uobj);
	if (IS_ERR(a))
		return PTR_ERR(a);
	err = mlx5x_modify_header_alloc(dev, type, in, num, &a->id);
	if (err) {
		mlx5x_action_free(a);
		return err;
	}
	a->dev = dev;
	a->kind = MLX5X_FLOW_ACTION_MODIFY_HEADER;
	a->table_type = type;
	uverbs_flow_action_fill_action(&a->ib, uobj, &dev->ib,
				       IB_FLOW_ACTION_UNSPECIFIED);
	return 0;
}

/* The PRM reformat type of a uapi type legal on @ft_type, or an errno. */
static int mlx5x_reformat_type(struct mlx5x_dev *dev, u32 dv_type,
			       u32 ft_type, u32 *prm_type)
{
	void *cap = dev->fs->ft_cap;
	void *rx = mlx5x_fs_prop(dev, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	void *tx = mlx5x_fs_prop(dev, MLX5_FLOW_TABLE_TYPE_NIC_TX);
	bool rx_ft = ft_type == MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_RX;
	bool tx_ft = ft_type == MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_TX;

	switch (dv_type) {
	case MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
		*prm_type = MLX5_REFORMAT_TYPE_L2_TO_L2_TUNNEL;
		return tx_ft && tx &&
		       PRM_GET(flow_table_nic_cap, cap, encap_general_header) ?
		       0 : -EOPNOTSUPP;
	case MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
		*prm_type = MLX5_REFORMAT_TYPE_L2_TO_L3_TUNNEL;
		return tx_ft && tx &&
		       PRM_GET(flow_table_prop_layout, tx,
			       reformat_l2_to_l3_tunnel) ? 0 : -EOPNOTSUPP;
	case MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
		*prm_type = MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2;
		return rx_ft && rx &&
		       PRM_GET(flow_table_prop_layout, rx,
			       reformat_l3_tunnel_to_l2) ? 0 : -EOPNOTSUPP;
	case MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
		/*
		 * A DECAP action of the entry, not a context: the driver
		 * does not build it (nor does the model's profile offer
		 * decap on any table type).
		 */
		return -EOPNOTSUPP;
	default:
		return -EOPNOTSUPP;
	}
}

static int mlx5x_reformat_alloc(struct mlx5x_dev *dev, u32 type,
				const void *data, size_t len, u32 *id)
{
	size_t inlen = PRM_BYTES(alloc_packet_reformat_context_in) + len;
	u32 out[PRM_BYTES(alloc_packet_reformat_context_out) / 4] = {};
	void *in, *rc;
	int err;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	rc = PRM_ADDR(alloc_packet_reformat_context_in, in,
		      packet_reformat_context);
	PRM_SET(alloc_packet_reformat_context_in, in, opcode,
		MLX5_CMD_OP_ALLOC_PACKET_REFORMAT_CONTEXT);
	PRM_SET(packet_reformat_context_in, rc, reformat_type, type);
	PRM_SET(packet_reformat_context_in, rc, reformat_data_size, len);
	memcpy(PRM_ADDR(packet_reformat_context_in, rc, reformat_data), data,
	       len);
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	if (!err)
		*id = PRM_GET(alloc_packet_reformat_context_out, out,
			      packet_reformat_id);
	kfree(in);
	return err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_FLOW_ACTION_CREATE_PACKET_REFORMAT)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_HANDLE);
	struct mlx5x_dev *dev = to_mdev(uobj->context->device);
	u32 ft_type, dv_type, prm_type, type;
	struct mlx5x_flow_action *a;
	const void *data;
	void *prop;
	int len, err;

	err = uverbs_get_const(&ft_type, attrs,
			       MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_FT_TYPE);
	if (!err)
		err = uverbs_get_const(&dv_type, attrs,
				       MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_TYPE);
	if (!err)
		err = mlx5x_action_table_type(dev, ft_type, &type, &prop);
	if (!err)
		err = mlx5x_reformat_type(dev, dv_type, ft_type, &prm_type);
	if (err)
		return err;
	data = uverbs_attr_get_alloced_ptr(
		attrs, MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_DATA_BUF);
	if (IS_ERR(data))
		return PTR_ERR(data);
	len = uverbs_attr_get_len(attrs,
				  MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_DATA_BUF);
	if (len > PRM_GET(flow_table_nic_cap, dev->fs->ft_cap,
			  max_encap_header_size))
		return -EINVAL;
	a = mlx5x_action_new(uobj);
	if (IS_ERR(a))
		return PTR_ERR(a);
	err = mlx5x_reformat_alloc(dev, prm_type, data, len, &a->id);
	if (err) {
		mlx5x_action_free(a);
		return err;
	}
	a->dev = dev;
	a->kind = MLX5X_FLOW_ACTION_PACKET_REFORMAT;
	a->table_type = type;
	uverbs_flow_action_fill_action(&a->ib, uobj, &dev->ib,
				       IB_FLOW_ACTION_UNSPECIFIED);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_FLOW_ACTION_CREATE_MODIFY_HEADER,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_CREATE_MODIFY_HEADER_HANDLE,
			UVERBS_OBJECT_FLOW_ACTION,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_CREATE_MODIFY_HEADER_ACTIONS_PRM,
			   UVERBS_ATTR_MIN_SIZE(
				PRM_UN_BYTES(set_add_copy_action_in_auto)),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_CREATE_MODIFY_HEADER_FT_TYPE,
			     enum mlx5_ib_uapi_flow_table_type,
			     UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_FLOW_ACTION_CREATE_PACKET_REFORMAT,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_HANDLE,
			UVERBS_OBJECT_FLOW_ACTION,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_DATA_BUF,
			   UVERBS_ATTR_MIN_SIZE(1),
			   UA_ALLOC_AND_COPY,
			   UA_OPTIONAL),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_TYPE,
			     enum mlx5_ib_uapi_flow_action_packet_reformat_type,
			     UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_FT_TYPE,
			     enum mlx5_ib_uapi_flow_table_type,
			     UA_MANDATORY));

ADD_UVERBS_METHODS(
	mlx5x_flow_actions,
	UVERBS_OBJECT_FLOW_ACTION,
	&UVERBS_METHOD(MLX5_IB_METHOD_FLOW_ACTION_CREATE_MODIFY_HEADER),
	&UVERBS_METHOD(MLX5_IB_METHOD_FLOW_ACTION_CREATE_PACKET_REFORMAT));

const struct uapi_definition mlx5x_flow_action_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_FLOW_ACTION,
				&mlx5x_flow_actions),
	{}
};
