/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The PRM flow steering commands (fs_cmd.c), under any uid: for the
 * kernel's tables and rules (fs_core.c, fs_rule.c) and the steering
 * anchors' tables (fs_anchor.c).
 */
#ifndef MLX5X_FS_CMD_H
#define MLX5X_FS_CMD_H

#include "fs.h"

/**
 * struct mlx5x_fs_table_ref - a flow table, as its commands name it
 * @uid: the uid its commands are sent under (0: the kernel's)
 * @type: its PRM table type (MLX5_FLOW_TABLE_TYPE_*, MLX5X_FT_TYPE_*)
 * @id: its id, which mlx5x_fs_cmd_create_table() sets; 0: none yet
 */
struct mlx5x_fs_table_ref {
	u16 uid;
	u32 type;
	u32 id;
};

/**
 * struct mlx5x_fs_table_attr - how a table is created
 * @level: its level
 * @log_size: log2 of its flow indexes
 * @miss: the table a packet no entry takes goes to; 0: the type's default
 * @reformat_en: its entries may apply packet reformats
 */
struct mlx5x_fs_table_attr {
	u32 level;
	u32 log_size;
	u32 miss;
	bool reformat_en;
};

/**
 * struct mlx5x_fs_fte_cmd - one SET_FLOW_TABLE_ENTRY
 * @group: the entry's group
 * @index: its flow index in the table
 * @ignore_level: it may forward to a table of any level
 * @modify: it rewrites an entry firmware holds (op_mod 1): the action,
 *	    the destinations and the counters
 * @action: MLX5_FLOW_CONTEXT_ACTION_*; FWD_DEST and COUNT are added when
 *	    @ndest and @ncounter are not 0
 * @flow_tag: reported in the CQE
 * @modify_header_id: with MOD_HDR
 * @reformat_id: with PACKET_REFORMAT
 * @value: fte_match_param: what it matches; NULL: all zeroes
 * @ndest: destinations
 * @dest: them
 * @ncounter: flow counters
 * @counter: their ids
 */
struct mlx5x_fs_fte_cmd {
	u32 group;
	u32 index;
	bool ignore_level;
	bool modify;
	u32 action;
	u32 flow_tag;
	u32 modify_header_id;
	u32 reformat_id;
	const void *value;
	u32 ndest;
	const struct mlx5x_fs_dest *dest;
	u32 ncounter;
	const u32 *counter;
};

int mlx5x_fs_cmd_create_table(struct mlx5x_dev *dev,
			      struct mlx5x_fs_table_ref *ft,
			      const struct mlx5x_fs_table_attr *attr);
void mlx5x_fs_cmd_destroy_table(struct mlx5x_dev *dev,
				const struct mlx5x_fs_table_ref *ft);
int mlx5x_fs_cmd_create_group(struct mlx5x_dev *dev,
			      const struct mlx5x_fs_table_ref *ft, u32 start,
			      u32 end, u8 criteria, const void *mask, u32 *id);
void mlx5x_fs_cmd_destroy_group(struct mlx5x_dev *dev,
				const struct mlx5x_fs_table_ref *ft, u32 id);
int mlx5x_fs_cmd_set_fte(struct mlx5x_dev *dev,
			 const struct mlx5x_fs_table_ref *ft,
			 const struct mlx5x_fs_fte_cmd *fte);
void mlx5x_fs_cmd_delete_fte(struct mlx5x_dev *dev,
			     const struct mlx5x_fs_table_ref *ft, u32 index);
int mlx5x_fs_cmd_set_root(struct mlx5x_dev *dev, u32 type, u32 id);

#endif /* MLX5X_FS_CMD_H */
