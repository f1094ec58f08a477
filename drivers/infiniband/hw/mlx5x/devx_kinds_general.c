// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX kind: general objects (CREATE_GENERAL_OBJECT), of any obj_type;
 * firmware refuses the types it lacks.  An object is named by obj_id and
 * obj_type together, both in general_obj_in_cmd_hdr: the destroy mailbox
 * carries both, and a query or modify must name both as created.
 */
#include "mlx5x.h"
#include "devx_kinds.h"

static const struct mlx5x_devx_kind mlx5x_general_kinds[] = {
	{ MLX5X_KIND_OPS("general", MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
			 MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
			 general_obj_in_cmd_hdr),
	  .any_op_mod = true,
	  .key = { MLX5X_KEY_FROM_OUT(general_obj_out_cmd_hdr, obj_id,
				      general_obj_in_cmd_hdr, obj_id),
		   MLX5X_KEY_FROM_IN(general_obj_in_cmd_hdr, obj_type,
				     general_obj_in_cmd_hdr, obj_type) } },
};

static const struct mlx5x_devx_op mlx5x_general_ops[] = {
	MLX5X_OP(MLX5_CMD_OP_QUERY_GENERAL_OBJECT, &mlx5x_general_kinds[0],
		 false, MLX5X_FIELD(general_obj_in_cmd_hdr, obj_id),
		 MLX5X_FIELD(general_obj_in_cmd_hdr, obj_type)),
	MLX5X_OP(MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, &mlx5x_general_kinds[0],
		 true, MLX5X_FIELD(general_obj_in_cmd_hdr, obj_id),
		 MLX5X_FIELD(general_obj_in_cmd_hdr, obj_type)),
};

const struct mlx5x_devx_kind_set mlx5x_devx_general_kinds = {
	.kinds = mlx5x_general_kinds,
	.nkinds = ARRAY_SIZE(mlx5x_general_kinds),
	.ops = mlx5x_general_ops,
	.nops = ARRAY_SIZE(mlx5x_general_ops),
};
