// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX kinds of flow steering: flow tables, flow groups, flow table
 * entries, modify header and packet reformat contexts.  A table is named
 * by its type and id, a group also by its table, an entry by its table
 * and flow index.  SET_FLOW_TABLE_ENTRY creates an entry with op_mod 0
 * and modifies one with op_mod 1: only the latter is a modify method.
 * Field positions come from <linux/mlx5/mlx5_ifc.h>.
 */
#include "mlx5x.h"
#include "devx_kinds.h"

enum {
	KIND_FLOW_TABLE,
	KIND_FLOW_GROUP,
	KIND_FTE,
	KIND_MODIFY_HDR,
	KIND_PKT_REFORMAT,
	KIND_MAX,
};

enum {
	FTE_CREATE = 0,
	FTE_MODIFY = 1,
};

static const struct mlx5x_devx_kind mlx5x_fs_kinds[KIND_MAX] = {
	[KIND_FLOW_TABLE] = MLX5X_KIND("flow_table",
				       MLX5_CMD_OP_CREATE_FLOW_TABLE,
				       MLX5_CMD_OP_DESTROY_FLOW_TABLE,
				       destroy_flow_table_in,
				       MLX5X_KEY_FROM_OUT(create_flow_table_out,
							  table_id,
							  destroy_flow_table_in,
							  table_id),
				       MLX5X_KEY_FROM_IN(create_flow_table_in,
							 table_type,
							 destroy_flow_table_in,
							 table_type)),
	[KIND_FLOW_GROUP] = MLX5X_KIND("flow_group",
				       MLX5_CMD_OP_CREATE_FLOW_GROUP,
				       MLX5_CMD_OP_DESTROY_FLOW_GROUP,
				       destroy_flow_group_in,
				       MLX5X_KEY_FROM_OUT(create_flow_group_out,
							  group_id,
							  destroy_flow_group_in,
							  group_id),
				       MLX5X_KEY_FROM_IN(create_flow_group_in,
							 table_type,
							 destroy_flow_group_in,
							 table_type),
				       MLX5X_KEY_FROM_IN(create_flow_group_in,
							 table_id,
							 destroy_flow_group_in,
							 table_id)),
	[KIND_FTE] = {
		MLX5X_KIND_OPS("fte", MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY,
			       MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY,
			       delete_fte_in),
		.create_op_mod = FTE_CREATE,
		.key = {
			MLX5X_KEY_FROM_IN(set_fte_in, flow_index,
					  delete_fte_in, flow_index),
			MLX5X_KEY_FROM_IN(set_fte_in, table_type,
					  delete_fte_in, table_type),
			MLX5X_KEY_FROM_IN(set_fte_in, table_id,
					  delete_fte_in, table_id),
		},
	},
	[KIND_MODIFY_HDR] = MLX5X_KIND("modify_header",
				       MLX5_CMD_OP_ALLOC_MODIFY_HEADER_CONTEXT,
				       MLX5_CMD_OP_DEALLOC_MODIFY_HEADER_CONTEXT,
				       dealloc_modify_header_context_in,
				       MLX5X_KEY_FROM_OUT(
					alloc_modify_header_context_out,
					modify_header_id,
					dealloc_modify_header_context_in,
					modify_header_id)),
	[KIND_PKT_REFORMAT] = MLX5X_KIND("packet_reformat",
					 MLX5_CMD_OP_ALLOC_PACKET_REFORMAT_CONTEXT,
					 MLX5_CMD_OP_DEALLOC_PACKET_REFORMAT_CONTEXT,
					 dealloc_packet_reformat_context_in,
					 MLX5X_KEY_FROM_OUT(
					alloc_packet_reformat_context_out,
					packet_reformat_id,
					dealloc_packet_reformat_context_in,
					packet_reformat_id)),
};

static const struct mlx5x_devx_op mlx5x_fs_ops[] = {
	MLX5X_OP(MLX5_CMD_OP_QUERY_FLOW_TABLE,
		 &mlx5x_fs_kinds[KIND_FLOW_TABLE], false,
		 MLX5X_FIELD(query_flow_table_in, table_id),
		 MLX5X_FIELD(query_flow_table_in, table_type)),
	MLX5X_OP(MLX5_CMD_OP_MODIFY_FLOW_TABLE,
		 &mlx5x_fs_kinds[KIND_FLOW_TABLE], true,
		 MLX5X_FIELD(modify_flow_table_in, table_id),
		 MLX5X_FIELD(modify_flow_table_in, table_type)),
	MLX5X_OP(MLX5_CMD_OP_QUERY_FLOW_GROUP,
		 &mlx5x_fs_kinds[KIND_FLOW_GROUP], false,
		 MLX5X_FIELD(query_flow_group_in, group_id),
		 MLX5X_FIELD(query_flow_group_in, table_type),
		 MLX5X_FIELD(query_flow_group_in, table_id)),
	MLX5X_OP(MLX5_CMD_OP_QUERY_FLOW_TABLE_ENTRY,
		 &mlx5x_fs_kinds[KIND_FTE], false,
		 MLX5X_FIELD(query_fte_in, flow_index),
		 MLX5X_FIELD(query_fte_in, table_type),
		 MLX5X_FIELD(query_fte_in, table_id)),
	MLX5X_OP_MOD(MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY, FTE_MODIFY,
		     &mlx5x_fs_kinds[KIND_FTE], true,
		     MLX5X_FIELD(set_fte_in, flow_index),
		     MLX5X_FIELD(set_fte_in, table_type),
		     MLX5X_FIELD(set_fte_in, table_id)),
};

const struct mlx5x_devx_kind_set mlx5x_devx_fs_kinds = {
	.kinds = mlx5x_fs_kinds,
	.nkinds = ARRAY_SIZE(mlx5x_fs_kinds),
	.ops = mlx5x_fs_ops,
	.nops = ARRAY_SIZE(mlx5x_fs_ops),
};
