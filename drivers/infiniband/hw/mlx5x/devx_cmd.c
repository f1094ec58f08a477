// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_DEVX's global methods: QUERY_EQN, QUERY_UAR, and the
 * general commands (MLX5_IB_METHOD_DEVX_OTHER): the queries and
 * general commands a process may run without creating an object.  The
 * mailbox gets the context's uid stamped before it runs; a context without
 * DEVX may only run the few capability queries, under the device's
 * whitelist uid.
 */
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

/* Queries any context may run, DEVX or not. */
static bool mlx5x_devx_is_whitelisted(u16 opcode)
{
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_HCA_CAP:
	case MLX5_CMD_OP_QUERY_HCA_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_ESW_VPORT_CONTEXT:
		return true;
	default:
		return false;
	}
}

/* Commands that create nothing, allowed to DEVX contexts. */
static bool mlx5x_devx_is_general(u16 opcode)
{
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_HCA_CAP:
	case MLX5_CMD_OP_QUERY_HCA_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_ESW_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_VPORT_STATE:
	case MLX5_CMD_OP_QUERY_ADAPTER:
	case MLX5_CMD_OP_QUERY_ISSI:
	case MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_ROCE_ADDRESS:
	case MLX5_CMD_OP_QUERY_VNIC_ENV:
	case MLX5_CMD_OP_QUERY_VPORT_COUNTER:
	case MLX5_CMD_OP_NOP:
	case MLX5_CMD_OP_QUERY_CONG_STATUS:
	case MLX5_CMD_OP_QUERY_CONG_PARAMS:
	case MLX5_CMD_OP_QUERY_CONG_STATISTICS:
	case MLX5_CMD_OP_QUERY_LAG:
		return true;
	default:
		return false;
	}
}

/**
 * mlx5x_devx_uid() - the uid a user's mailbox runs under
 * @uctx: the caller's context
 * @opcode: the mailbox's opcode
 *
 * Return: the uid, or a negative errno when the context may not run it.
 */
static int mlx5x_devx_uid(struct mlx5x_ucontext *uctx, u16 opcode)
{
	struct mlx5x_dev *dev = to_mdev(uctx->ib.device);

	if (uctx->devx_uid)
		return uctx->devx_uid;
	if (!mlx5x_devx_is_whitelisted(opcode))
		return -EINVAL;
	return dev->whitelist_uid ? dev->whitelist_uid : -EOPNOTSUPP;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OTHER)(
	struct uverbs_attr_bundle *attrs)
{
	void *in = uverbs_attr_get_alloced_ptr(attrs,
					       MLX5_IB_ATTR_DEVX_OTHER_CMD_IN);
	int inlen = uverbs_attr_get_len(attrs, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN);
	int outlen = uverbs_attr_get_len(attrs,
					 MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT);
	struct mlx5x_ucontext *uctx;
	u16 opcode;
	void *out;
	int uid, err, err2;

	uctx = mlx5x_attrs_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	opcode = prm_in_opcode(in);
	uid = mlx5x_devx_uid(uctx, opcode);
	if (uid < 0)
		return uid;
	if (!mlx5x_devx_is_general(opcode))
		return -EINVAL;

	out = uverbs_zalloc(attrs, outlen);
	if (IS_ERR(out))
		return PTR_ERR(out);
	prm_in_set_uid(in, uid);
	err = mlx5x_cmd_exec(to_mdev(uctx->ib.device), in, inlen, out, outlen);
	if (err && err != -EREMOTEIO)
		return err;
	/* a firmware error still hands status and syndrome back */
	err2 = uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, out,
			      outlen);
	return err2 ?: err;
}

/* The EQ number of a completion vector, for a CQ's mailbox. */
static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_QUERY_EQN)(
	struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_ucontext *uctx;
	struct mlx5x_dev *dev;
	u32 vector, eqn;
	int err;

	err = uverbs_copy_from(&vector, attrs,
			       MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC);
	if (err)
		return err;
	uctx = mlx5x_attrs_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	dev = to_mdev(uctx->ib.device);
	if (vector >= dev->ib.num_comp_vectors)
		return -EINVAL;
	err = dev->backend->comp_eqn(dev, vector, &eqn);
	if (err)
		return err;
	return uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN,
			      &eqn, sizeof(eqn));
}

/*
 * The UAR index behind a static blue-flame register.  Contexts here have
 * dynamic UARs only (tot_bfregs is 0): there is no static register to
 * translate, as upstream answers for dynamic-UAR contexts.
 */
static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_QUERY_UAR)(
	struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_ucontext *uctx;
	u32 index;
	int err;

	uctx = mlx5x_attrs_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	err = uverbs_copy_from(&index, attrs,
			       MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX);
	if (err)
		return err;
	return -EINVAL;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_QUERY_EQN,
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC,
			   UVERBS_ATTR_TYPE(u32),
			   UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN,
			    UVERBS_ATTR_TYPE(u32),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_QUERY_UAR,
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX,
			   UVERBS_ATTR_TYPE(u32),
			   UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_QUERY_UAR_DEV_IDX,
			    UVERBS_ATTR_TYPE(u32),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_OTHER,
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OTHER_CMD_IN,
			   UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_in_cmd_hdr)),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT,
			    UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_out_cmd_hdr)),
			    UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(MLX5_IB_OBJECT_DEVX,
			      &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OTHER),
			      &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_QUERY_UAR),
			      &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_QUERY_EQN));

static bool mlx5x_devx_is_supported(struct ib_device *ib)
{
	return MLX5X_CAP_GEN(to_mdev(ib), log_max_uctx);
}

const struct uapi_definition mlx5x_devx_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(
		MLX5_IB_OBJECT_DEVX,
		UAPI_DEF_IS_OBJ_SUPPORTED(mlx5x_devx_is_supported)),
	{}
};
