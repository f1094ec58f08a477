// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The PRM flow steering commands, kept apart from the tree they build
 * (fs_core.c) as upstream mlx5_core keeps its own: each builds one
 * command mailbox and runs it.  They hold no state and take no lock;
 * their callers (fs_core.c, fs_rule.c, fs_anchor.c) do.
 */
#include <linux/slab.h>
#include "fs_cmd.h"

/**
 * mlx5x_fs_cmd_create_table() - CREATE_FLOW_TABLE
 * @dev: device
 * @uid: the uid the table is created under (0: the kernel's)
 * @type: PRM table type
 * @level: its level
 * @log_size: log2 of its flow indexes
 * @miss: the table a miss goes to, or 0 for the type's default
 * @id: its id, on success
 *
 * Return: 0, or the errno of the refused command.
 */
int mlx5x_fs_cmd_create_table(struct mlx5x_dev *dev, u16 uid, u32 type,
			      u32 level, u32 log_size, u32 miss, u32 *id)
{
	return mlx5x_fs_cmd_create_table_re(dev, uid, type, level, log_size,
					    miss, false, id);
}

/**
 * mlx5x_fs_cmd_create_table_re() - CREATE_FLOW_TABLE, maybe reformat_en
 * @dev: device
 * @uid: the uid the table is created under (0: the kernel's)
 * @type: PRM table type
 * @level: its level
 * @log_size: log2 of its flow indexes
 * @miss: the table a miss goes to, or 0 for the type's default
 * @reformat_en: its entries may apply packet reformats
 * @id: its id, on success
 *
 * Return: 0, or the errno of the refused command.
 */
int mlx5x_fs_cmd_create_table_re(struct mlx5x_dev *dev, u16 uid, u32 type,
				 u32 level, u32 log_size, u32 miss,
				 bool reformat_en, u32 *id)
{
	u32 in[PRM_BYTES(create_flow_table_in) / 4] = {};
	u32 out[PRM_BYTES(create_flow_table_out) / 4] = {};
	void *ftc = PRM_ADDR(create_flow_table_in, in, flow_table_context);
	int err;

	PRM_SET(create_flow_table_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(create_flow_table_in, in, table_type, type);
	PRM_SET(flow_table_context, ftc, level, level);
	PRM_SET(flow_table_context, ftc, log_size, log_size);
	PRM_SET(flow_table_context, ftc, reformat_en, reformat_en);
	if (miss) {
		PRM_SET(flow_table_context, ftc, table_miss_action,
			MLX5_FLOW_TABLE_MISS_ACTION_FWD);
		PRM_SET(flow_table_context, ftc, table_miss_id, miss);
	}
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*id = PRM_GET(create_flow_table_out, out, table_id);
	return err;
}

/**
 * mlx5x_fs_cmd_destroy_table() - DESTROY_FLOW_TABLE; a refusal WARNs
 * @dev: device
 * @uid: the uid it was created under
 * @type: PRM table type
 * @id: the table
 */
void mlx5x_fs_cmd_destroy_table(struct mlx5x_dev *dev, u16 uid, u32 type,
				u32 id)
{
	u32 in[PRM_BYTES(destroy_flow_table_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_flow_table_out) / 4] = {};

	PRM_SET(destroy_flow_table_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(destroy_flow_table_in, in, table_type, type);
	PRM_SET(destroy_flow_table_in, in, table_id, id);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

/**
 * mlx5x_fs_cmd_create_group() - CREATE_FLOW_GROUP
 * @dev: device
 * @uid: the uid of its table
 * @type: PRM table type
 * @table: the table
 * @start: its first flow index
 * @end: its last flow index
 * @criteria: match_criteria_enable
 * @mask: fte_match_param its entries match on, or NULL for none
 * @id: its id, on success
 *
 * Return: 0, or a negative errno (-ENOMEM, or the refused command's).
 */
int mlx5x_fs_cmd_create_group(struct mlx5x_dev *dev, u16 uid, u32 type,
			      u32 table, u32 start, u32 end, u8 criteria,
			      const void *mask, u32 *id)
{
	u32 out[PRM_BYTES(create_flow_group_out) / 4] = {};
	void *in = kzalloc(PRM_BYTES(create_flow_group_in), GFP_KERNEL);
	int err;

	if (!in)
		return -ENOMEM;
	PRM_SET(create_flow_group_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_GROUP);
	prm_in_set_uid(in, uid);
	PRM_SET(create_flow_group_in, in, table_type, type);
	PRM_SET(create_flow_group_in, in, table_id, table);
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
 * @uid: the uid of its table
 * @type: PRM table type
 * @table: the table
 * @id: the group
 */
void mlx5x_fs_cmd_destroy_group(struct mlx5x_dev *dev, u16 uid, u32 type,
				u32 table, u32 id)
{
	u32 in[PRM_BYTES(destroy_flow_group_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_flow_group_out) / 4] = {};

	PRM_SET(destroy_flow_group_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_GROUP);
	prm_in_set_uid(in, uid);
	PRM_SET(destroy_flow_group_in, in, table_type, type);
	PRM_SET(destroy_flow_group_in, in, table_id, table);
	PRM_SET(destroy_flow_group_in, in, group_id, id);
	WARN_ON_ONCE(mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)));
}

/**
 * mlx5x_fs_cmd_set_fte() - SET_FLOW_TABLE_ENTRY creating an entry
 * @dev: device
 * @uid: the uid of its table
 * @type: PRM table type
 * @table: the table
 * @group: the entry's group
 * @index: its flow index
 * @ignore_level: forward to tables of any level
 * @attr: what it matches (@attr->value; NULL: anything) and does; its
 *	  destinations and counters set FWD_DEST and COUNT
 *
 * Return: 0, or a negative errno: -EINVAL for more destinations or
 * counters than a rule holds, -ENOMEM, or the refused command's.
 */
int mlx5x_fs_cmd_set_fte(struct mlx5x_dev *dev, u16 uid, u32 type,
			 u32 table, u32 group, u32 index, bool ignore_level,
			 const struct mlx5x_fs_rule_attr *attr)
{
	size_t inlen = PRM_BYTES(set_fte_in) +
		       (attr->ndest + attr->ncounter) *
		       PRM_BYTES(dest_format_struct);
	u32 out[PRM_BYTES(set_fte_out) / 4] = {};
	void *in, *fc;
	u8 *list;
	u32 action = attr->action;
	u32 i;
	int err;

	if (attr->ndest > MLX5X_FS_MAX_DEST ||
	    attr->ncounter > MLX5X_FS_MAX_COUNTERS)
		return -EINVAL;
	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	fc = PRM_ADDR(set_fte_in, in, flow_context);
	list = (u8 *)in + PRM_BYTES(set_fte_in);
	if (attr->ndest)
		action |= MLX5_FLOW_CONTEXT_ACTION_FWD_DEST;
	if (attr->ncounter)
		action |= MLX5_FLOW_CONTEXT_ACTION_COUNT;
	PRM_SET(set_fte_in, in, opcode, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, uid);
	PRM_SET(set_fte_in, in, table_type, type);
	PRM_SET(set_fte_in, in, table_id, table);
	PRM_SET(set_fte_in, in, flow_index, index);
	PRM_SET(set_fte_in, in, ignore_flow_level, ignore_level);
	PRM_SET(flow_context, fc, group_id, group);
	PRM_SET(flow_context, fc, action, action);
	PRM_SET(flow_context, fc, flow_tag, attr->flow_tag);
	PRM_SET(flow_context, fc, modify_header_id, attr->modify_header_id);
	PRM_SET(flow_context, fc, packet_reformat_id, attr->reformat_id);
	PRM_SET(flow_context, fc, destination_list_size, attr->ndest);
	PRM_SET(flow_context, fc, flow_counter_list_size, attr->ncounter);
	if (attr->value)
		memcpy(PRM_ADDR(flow_context, fc, match_value), attr->value,
		       MLX5X_FS_MATCH_BYTES);
	for (i = 0; i < attr->ndest; i++) {
		PRM_SET(dest_format_struct, list, destination_type,
			attr->dest[i].type);
		PRM_SET(dest_format_struct, list, destination_id,
			attr->dest[i].id);
		list += PRM_BYTES(dest_format_struct);
	}
	for (i = 0; i < attr->ncounter; i++) {
		PRM_SET(flow_counter_list, list, flow_counter_id,
			attr->counter[i]);
		list += PRM_BYTES(dest_format_struct);
	}
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	kfree(in);
	return err;
}

/**
 * mlx5x_fs_cmd_delete_fte() - DELETE_FLOW_TABLE_ENTRY; a refusal WARNs
 * @dev: device
 * @uid: the uid of its table
 * @type: PRM table type
 * @table: the table
 * @index: the entry's flow index
 */
void mlx5x_fs_cmd_delete_fte(struct mlx5x_dev *dev, u16 uid, u32 type,
			     u32 table, u32 index)
{
	u32 in[PRM_BYTES(delete_fte_in) / 4] = {};
	u32 out[PRM_BYTES(delete_fte_out) / 4] = {};

	PRM_SET(delete_fte_in, in, opcode,
		MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, uid);
	PRM_SET(delete_fte_in, in, table_type, type);
	PRM_SET(delete_fte_in, in, table_id, table);
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
