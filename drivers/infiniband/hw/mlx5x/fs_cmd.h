/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The PRM flow steering commands (fs_cmd.c), under any uid: for the
 * kernel's tables and rules (fs_core.c, fs_rule.c) and the steering
 * anchors' tables (fs_anchor.c).
 */
#ifndef MLX5X_FS_CMD_H
#define MLX5X_FS_CMD_H

#include "fs.h"

int mlx5x_fs_cmd_create_table(struct mlx5x_dev *dev, u16 uid, u32 type,
			      u32 level, u32 log_size, u32 miss, u32 *id);
int mlx5x_fs_cmd_create_table_re(struct mlx5x_dev *dev, u16 uid, u32 type,
				 u32 level, u32 log_size, u32 miss,
				 bool reformat_en, u32 *id);
void mlx5x_fs_cmd_destroy_table(struct mlx5x_dev *dev, u16 uid, u32 type,
				u32 id);
int mlx5x_fs_cmd_create_group(struct mlx5x_dev *dev, u16 uid, u32 type,
			      u32 table, u32 start, u32 end, u8 criteria,
			      const void *mask, u32 *id);
void mlx5x_fs_cmd_destroy_group(struct mlx5x_dev *dev, u16 uid, u32 type,
				u32 table, u32 id);
int mlx5x_fs_cmd_set_fte(struct mlx5x_dev *dev, u16 uid, u32 type,
			 u32 table, u32 group, u32 index, bool ignore_level,
			 const struct mlx5x_fs_rule_attr *attr);
void mlx5x_fs_cmd_delete_fte(struct mlx5x_dev *dev, u16 uid, u32 type,
			     u32 table, u32 index);
int mlx5x_fs_cmd_set_root(struct mlx5x_dev *dev, u32 type, u32 id);

#endif /* MLX5X_FS_CMD_H */
