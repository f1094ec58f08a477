// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the kernel's own queues need of the device, set up before the
 * device is registered (the MAD layer opens QP1 during registration):
 * the reserved lkey, which firmware reports in QUERY_SPECIAL_CONTEXTS
 * and ib_core hands every kernel PD as its local_dma_lkey, and a UAR of
 * the kernel's for its CQs and QPs.  A backend that cannot hear the
 * kernel's doorbells offers no kernel queues: the device then registers
 * without them, as before, and rdma_cm resolves addresses but connects
 * nothing.
 */
#include "kverbs.h"

static int mlx5x_kverbs_resd_lkey(struct mlx5x_dev *dev, u32 *lkey)
{
	u32 in[PRM_BYTES(query_special_contexts_in) / 4] = {};
	u32 out[PRM_BYTES(query_special_contexts_out) / 4] = {};
	int err;

	PRM_SET(query_special_contexts_in, in, opcode,
		MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*lkey = PRM_GET(query_special_contexts_out, out, resd_lkey);
	return err;
}

/**
 * mlx5x_kverbs_init() - let kernel consumers create CQs and QP1
 * @dev: the device, not yet registered
 *
 * Return: 0, also when the backend offers no kernel queues (dev->kverbs
 * stays false); or the errno of a command that failed.
 */
int mlx5x_kverbs_init(struct mlx5x_dev *dev)
{
	u32 lkey;
	int err;

	if (!dev->backend->doorbell)
		return 0;
	err = mlx5x_kverbs_resd_lkey(dev, &lkey);
	if (err)
		return err;
	err = mlx5x_uar_alloc(dev, 0, &dev->kuar);
	if (err)
		return err;
	dev->ib.local_dma_lkey = lkey;
	dev->kverbs = true;
	return 0;
}

void mlx5x_kverbs_cleanup(struct mlx5x_dev *dev)
{
	if (!dev->kverbs)
		return;
	mlx5x_uar_free(dev, 0, dev->kuar);
	dev->kverbs = false;
}

/* Work was posted on a kernel queue: the device looks at once. */
void mlx5x_kverbs_doorbell(struct mlx5x_dev *dev)
{
	dev->backend->doorbell(dev);
}
