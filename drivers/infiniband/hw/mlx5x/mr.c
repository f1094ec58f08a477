// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions: each is one mkey of firmware.  Only MRs over device
 * memory (dm_mr.c) are made so far; deregistration is the same for all.
 */
#include <linux/slab.h>
#include "mlx5x.h"

/**
 * mlx5x_mr_destroy_mkey() - DESTROY_MKEY of an MR's mkey
 * @dev: device
 * @mr: the MR
 */
static int mlx5x_mr_destroy_mkey(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	u32 in[PRM_BYTES(destroy_mkey_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_mkey_out) / 4] = {};

	PRM_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	PRM_SET(destroy_mkey_in, in, uid, mr->uid);
	PRM_SET(destroy_mkey_in, in, mkey_index, mr->mkey >> 8);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * mlx5x_dereg_mr() - the dereg_mr device operation
 * @ibmr: the MR
 * @udata: the call's driver data (none is read)
 *
 * Return: 0, or the errno of a destroy firmware refused (the MR stays).
 */
int mlx5x_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mlx5x_mr *mr = to_mmr(ibmr);
	int err;

	err = mlx5x_mr_destroy_mkey(to_mdev(ibmr->device), mr);
	if (err)
		return err;
	kfree(mr);
	return 0;
}
