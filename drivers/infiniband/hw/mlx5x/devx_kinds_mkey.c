// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX kinds: memory keys (CREATE_MKEY), named by mkey_index, queried with
 * QUERY_MKEY; PSVs (CREATE_PSV), named by psv0_index.
 *
 * The kernel sets mkey_umem_valid in every CREATE_MKEY, as upstream's
 * DEVX does: a direct (MTT) mkey of a process then always translates
 * through a umem of its own, never through page addresses the process
 * wrote.  Firmware reads the bit only for the MTT access mode; an
 * indirect (KLM, KSM) mkey has no translation of its own and ignores
 * it, so indirect mkeys (mlx5dv_create_mkey(3)) still work.  The kernel's
 * other rules, and its table of indirect mkeys, are in devx_mkey.c.
 */
#include "mlx5x.h"
#include "devx_kinds.h"
#include "devx_mkey.h"

static const struct mlx5x_devx_kind mlx5x_mkey_kinds[] = {
	{ MLX5X_KIND_OPS("mkey", MLX5_CMD_OP_CREATE_MKEY,
			 MLX5_CMD_OP_DESTROY_MKEY, destroy_mkey_in),
	  .key = { MLX5X_KEY_FROM_OUT(create_mkey_out, mkey_index,
				      destroy_mkey_in, mkey_index) },
	  MLX5X_FORCE(MLX5X_FIELD(create_mkey_in, mkey_umem_valid)),
	  .check = mlx5x_devx_mkey_check,
	  .created = mlx5x_devx_mkey_created,
	  .untrack = mlx5x_devx_mkey_untrack,
	  .retrack = mlx5x_devx_mkey_retrack },
	{ MLX5X_KIND_OPS("psv", MLX5_CMD_OP_CREATE_PSV,
			 MLX5_CMD_OP_DESTROY_PSV, destroy_psv_in),
	  .key = { MLX5X_KEY_FROM_OUT(create_psv_out, psv0_index,
				      destroy_psv_in, psvn) },
	  .check = mlx5x_devx_psv_check },
};

static const struct mlx5x_devx_op mlx5x_mkey_ops[] = {
	MLX5X_OP(MLX5_CMD_OP_QUERY_MKEY, &mlx5x_mkey_kinds[0], false,
		 MLX5X_FIELD(query_mkey_in, mkey_index)),
};

const struct mlx5x_devx_kind_set mlx5x_devx_mkey_kinds = {
	.kinds = mlx5x_mkey_kinds,
	.nkinds = ARRAY_SIZE(mlx5x_mkey_kinds),
	.ops = mlx5x_mkey_ops,
	.nops = ARRAY_SIZE(mlx5x_mkey_ops),
};
