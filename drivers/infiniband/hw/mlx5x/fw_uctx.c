// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Firmware user contexts (CREATE_UCTX, DESTROY_UCTX): the uid every DEVX
 * object of a process carries.  The uverbs user context that holds one is
 * ucontext.c's.
 */
#include "mlx5x.h"

/**
 * mlx5x_uctx_create() - create a firmware user context
 * @dev: device
 * @cap: uctx capabilities asked (MLX5_UCTX_CAP_*)
 * @uid: the new context's uid
 *
 * Return: 0, or the errno of the refused command.
 */
int mlx5x_uctx_create(struct mlx5x_dev *dev, u32 cap, u16 *uid)
{
	u32 in[PRM_BYTES(create_uctx_in) / 4] = {};
	u32 out[PRM_BYTES(create_uctx_out) / 4] = {};
	int err;

	PRM_SET(create_uctx_in, in, opcode, MLX5_CMD_OP_CREATE_UCTX);
	PRM_SET(create_uctx_in, in, uctx.cap, cap);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	*uid = PRM_GET(create_uctx_out, out, uid);
	return 0;
}

/**
 * mlx5x_uctx_destroy() - destroy a firmware user context
 * @dev: device
 * @uid: the context's uid; it must own no object any more
 *
 * A refusal is logged: there is nothing more a caller could do.
 */
void mlx5x_uctx_destroy(struct mlx5x_dev *dev, u16 uid)
{
	u32 in[PRM_BYTES(destroy_uctx_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_uctx_out) / 4] = {};

	PRM_SET(destroy_uctx_in, in, opcode, MLX5_CMD_OP_DESTROY_UCTX);
	PRM_SET(destroy_uctx_in, in, uid, uid);
	if (mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)))
		ibdev_err(&dev->ib, "DESTROY_UCTX %u failed: status 0x%x syndrome 0x%x\n",
			  uid, prm_out_status(out), prm_out_syndrome(out));
}
