// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The PRM flow steering commands, kept apart from the tree they build
 * (fs_core.c) as upstream mlx5_core keeps its own: each builds one
 * command mailbox and runs it.  A table is named by a struct
 * mlx5x_fs_table_ref (uid, type, id) rather than by three loose
 * arguments.  They hold no state and take no lock; their callers
 * (fs_core.c, fs_rule.c, fs_anchor.c) do.
 */
#include <linux/slab.h>
#include "fs_cmd.h"

/**
 * mlx5x_fs_cmd_create_table() - CREATE_FLOW_TABLE
 * @dev: device
 * @ft: the table: its uid (0: the kernel's) and type; its id is set on
 *	success
 * @attr: its level, size, miss table and reformat_en
 *
 * Return: 0, or the errno of the refused command.
 */
int mlx5x_fs_cmd_create_table(struct mlx5x_dev *dev,
			      struct mlx5x_fs_table_ref *ft,
			      const struct mlx5x_fs_table_attr *attr)
{
	u32 in[PRM_BYTES(create_flow_table_in) / 4] = {};
	u32 out[PRM_BYTES(create_flow_table_out) / 4] = {};
	void *ftc = PRM_ADDR(create_flow_table_in, in, flow_table_context);
	int err;

	PRM_SET(create_flow_table_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_TABLE);
	prm_in_set_uid(in, ft->uid);
	PRM_SET(create_flow_table_in, in, table_type, ft->type);
	PRM_SET(flow_table_context, ftc, level, attr->level);
	PRM_SET(flow_table_context, ftc, log_size, attr->log_size);
	PRM_SET(flow_table_context, ftc, reformat_en, attr->reformat_en);
	if (attr->miss) {
		PRM_SET(flow_table_context, ftc, table_miss_action,
			MLX5_FLOW_TABLE_MISS_ACTION_FWD);
		PRM_SET(flow_table_context, ftc, table_miss_id, attr->miss);
	}
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		ft->id = PRM_GET(create_flow_table_out, out, table_id);
	return err;
}

/**
 * mlx5x_fs_cmd_destroy_table() - DESTROY_FLOW_TABLE; a refusal WARNs
 * @dev: device
 * @ft: the table
 */
void mlx5x_fs_cmd_destroy_table(struct mlx5x_dev *dev,
				const struct mlx5x_fs_table_ref *ft)
{
	u32 in[PRM_BYTES(destroy_flow_table_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_flow_table_out) / 4] = {};

	PRM_SET(destroy_flow_table_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_TABLE);
	prm_in_set_uid(in, ft->uid);
	PRM_SET(destroy_flow_table_in, in, table_type, ft->type);
	PRM_SET(destroy_flow_table_in, in, table_id, ft->id);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

/**
 * mlx5x_fs_cmd_create_group() - CREATE_FLOW_GROUP
 * @dev: device
 * @ft: its table
 * @start: its first flow index
 * @end: its last flow index
 * @criteria: match_criteria_enable
 * @mask: fte_match_param its entries match on, or NULL for none
 * @id: its id, on success
 *
 * Return: 0, or a negative errno (-ENOMEM, or the refused command's).
 */
int mlx5x_fs_cmd_create_group(struct mlx5x_dev *dev,
			      const struct mlx5x_fs_table_ref *ft, u32 start,
			      u32 end, u8 criteria, const void *mask, u32 *id)
{
	u32 out[PRM_BYTES(create_flow_group_out) / 4] = {};
	void *in = kzalloc(PRM_BYTES(create_flow_group_in), GFP_KERNEL);
	int err;

	if (!in)
		return -ENOMEM;
	PRM_SET(create_flow_group_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_GROUP);
	prm_in_set_uid(in, ft->uid);
	PRM_SET(create_flow_group_in, in, table_type, ft->type);
	PRM_SET(create_flow_group_in, in, table_id, ft->id);
	PRM_SET(create_flow_group_in, in, start_flow_index, start);
	PRM_SET(create_flow_group_in, in, end_flow_index, end);
	PRM_SET(create_flow_group_in, in, match_criteria_enable, criteria);
	if (mask)
		memcpy(PRM_ADDR(create_flow_group_in, in, match_criteria),
		       mask, MLX5X_FS_MATCH_BYTES);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_flow_group_in), out,
			    sizeof(out));
	if (!err)
		*id = PRM_GET(create_flow_group_out, out, group_id);
	kfree(in);
	return err;
}

/**
 * mlx5x_fs_cmd_destroy_group() - DESTROY_FLOW_GROUP; a refusal WARNs
 * @dev: device
 * @ft: its table
 * @id: the group
 */
void mlx5x_fs_cmd_destroy_group(struct mlx5x_dev *dev,
				const struct mlx5x_fs_table_ref *ft, u32 id)
{
	u32 in[PRM_BYTES(destroy_flow_group_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_flow_group_out) / 4] = {};

	PRM_SET(destroy_flow_group_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_GROUP);
	prm_in_set_uid(in, ft->uid);
	PRM_SET(destroy_flow_group_in, in, table_type, ft->type);
	PRM_SET(destroy_flow_group_in, in, table_id, ft->id);
	PRM_SET(destroy_flow_group_in, in, group_id, id);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

/**
 * mlx5x_fs_cmd_set_fte() - SET_FLOW_TABLE_ENTRY
 * @dev: device
 * @ft: its table
 * @fte: the entry: where it sits, what it matches and does, and whether
 *	 it rewrites one firmware holds
 *
 * Return: 0, or a negative errno (-ENOMEM, or the refused command's).
 */
int mlx5x_fs_cmd_set_fte(struct mlx5x_dev *dev,
			 const struct mlx5x_fs_table_ref *ft,
			 const struct mlx5x_fs_fte_cmd *fte)
{
	size_t inlen = PRM_BYTES(set_fte_in) +
		       (fte->ndest + fte->ncounter) *
		       PRM_BYTES(dest_format_struct);
	u32 out[PRM_BYTES(set_fte_out) / 4] = {};
	u32 action = fte->action;
	void *in, *fc;
	u8 *list;
	u32 i;
	int err;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	if (fte->ndest)
		action |= MLX5_FLOW_CONTEXT_ACTION_FWD_DEST;
	if (fte->ncounter)
		action |= MLX5_FLOW_CONTEXT_ACTION_COUNT;
	fc = PRM_ADDR(set_fte_in, in, flow_context);
	PRM_SET(set_fte_in, in, opcode, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, ft->uid);
	PRM_SET(set_fte_in, in, table_type, ft->type);
	PRM_SET(set_fte_in, in, table_id, ft->id);
	PRM_SET(set_fte_in, in, flow_index, fte->index);
	PRM_SET(set_fte_in, in, ignore_flow_level, fte->ignore_level);
	if (fte->modify) {
		PRM_SET(set_fte_in, in, op_mod, 1);
		PRM_SET(set_fte_in, in, modify_enable_mask,
			BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_ACTION) |
			BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_DESTINATION_LIST) |
			BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_FLOW_COUNTERS));
	}
	PRM_SET(flow_context, fc, group_id, fte->group);
	PRM_SET(flow_context, fc, action, action);
	PRM_SET(flow_context, fc, flow_tag, fte->flow_tag);
	PRM_SET(flow_context, fc, modify_header_id, fte->modify_header_id);
	PRM_SET(flow_context, fc, packet_reformat_id, fte->reformat_id);
	PRM_SET(flow_context, fc, destination_list_size, fte->ndest);
	PRM_SET(flow_context, fc, flow_counter_list_size, fte->ncounter);
	if (fte->value)
		memcpy(PRM_ADDR(flow_context, fc, match_value), fte->value,
		       MLX5X_FS_MATCH_BYTES);
	list = (u8 *)in + PRM_BYTES(set_fte_in);
	for (i = 0; i < fte->ndest; i++) {
		PRM_SET(dest_format_struct, list, destination_type,
			fte->dest[i].type);
		PRM_SET(dest_format_struct, list, destination_id,
			fte->dest[i].id);
		list += PRM_BYTES(dest_format_struct);
	}
	for (i = 0; i < fte->ncounter; i++) {
		PRM_SET(flow_counter_list, list, flow_counter_id,
			fte->counter[i]);
		list += PRM_BYTES(dest_format_struct);
	}
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	kfree(in);
	return err;
}

/**
 * mlx5x_fs_cmd_delete_fte() - DELETE_FLOW_TABLE_ENTRY; a refusal WARNs
 * @dev: device
 * @ft: its table
 * @index: the entry's flow index
 */
void mlx5x_fs_cmd_delete_fte(struct mlx5x_dev *dev,
			     const struct mlx5x_fs_table_ref *ft, u32 index)
{
	u32 in[PRM_BYTES(delete_fte_in) / 4] = {};
	u32 out[PRM_BYTES(delete_fte_out) / 4] = {};

	PRM_SET(delete_fte_in, in, opcode,
		MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, ft->uid);
	PRM_SET(delete_fte_in, in, table_type, ft->type);
	PRM_SET(delete_fte_in, in, table_id, ft->id);
	PRM_SET(delete_fte_in, in, flow_index, index);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

/**
 * mlx5x_fs_cmd_set_root() - SET_FLOW_TABLE_ROOT, as the kernel (uid 0)
 * @dev: device
 * @type: PRM table type
 * @id: the root table of @type, or 0 to disconnect it (op_mod 1)
 *
 * Return: 0, or the errno of the refused command.
 */
int mlx5x_fs_cmd_set_root(struct mlx5x_dev *dev, u32 type, u32 id)
{
	u32 in[PRM_BYTES(set_flow_table_root_in) / 4] = {};
	u32 out[PRM_BYTES(set_flow_table_root_out) / 4] = {};

	PRM_SET(set_flow_table_root_in, in, opcode,
		MLX5_CMD_OP_SET_FLOW_TABLE_ROOT);
	PRM_SET(set_flow_table_root_in, in, op_mod, id ? 0 : 1);
	PRM_SET(set_flow_table_root_in, in, table_type, type);
	PRM_SET(set_flow_table_root_in, in, table_id, id);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}
