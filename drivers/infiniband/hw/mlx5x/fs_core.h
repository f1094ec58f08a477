/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Inside the kernel's flow steering, between the tables of the
 * namespaces and priorities (fs_core.c) and the rules in them
 * (fs_rule.c): the nodes of the tree, kept in one header as upstream
 * mlx5_core keeps its own, and what fs_core.c lends the rules.  Not for other files:
 * they have fs.h.
 */
#ifndef MLX5X_FS_CORE_H
#define MLX5X_FS_CORE_H

#include <linux/bitmap.h>
#include <linux/idr.h>
#include <linux/rhashtable.h>
#include "fs_cmd.h"

#define MLX5X_FS_LOG_SIZE	20	/* 1M entries: room for 100k+ rules */
#define MLX5X_FS_BIG_SLOTS	7	/* an eighth of the table each */
#define MLX5X_FS_SMALL_SIZE	1024	/* the slots of the last eighth */
#define MLX5X_FS_MAX_SLOTS	(MLX5X_FS_BIG_SLOTS + \
				 BIT(MLX5X_FS_LOG_SIZE - 3) / MLX5X_FS_SMALL_SIZE)

/* A group of a priority's table: one mask, a slot of flow indexes. */
struct mlx5x_fs_group {
	struct list_head node;
	u32 id;
	unsigned int slot;
	u32 start;			/* its slot's first flow index */
	u32 size;			/* and how many */
	u8 criteria;
	u8 mask[MLX5X_FS_MATCH_BYTES];
	unsigned int used;
	struct rhashtable ftes;		/* mlx5x_fs_fte by value */
	struct ida busy;		/* indexes in the slot */
};

/* The table of one namespace and priority. */
struct mlx5x_fs_prio {
	struct mlx5x_fs_table_ref ft;	/* the kernel's (uid 0) */
	u32 miss;			/* the next table of the chain, or 0 */
	u32 log_size;
	unsigned int nslots;		/* group slots its size holds */
	struct rhltable ftes;		/* every group's entries, by value */
	struct list_head groups;
	DECLARE_BITMAP(slots, MLX5X_FS_MAX_SLOTS);
};

/* A destination or counter of an entry, and how many rules want it. */
struct mlx5x_fs_ref {
	u8 type;
	u32 id;
	unsigned int refs;
};

/* One entry of a group: the rules that match its value, merged. */
struct mlx5x_fs_fte {
	struct rhash_head node;
	struct rhlist_head pnode;	/* in its table's index */
	struct mlx5x_fs_group *fg;
	u8 value[MLX5X_FS_MATCH_BYTES];
	u32 index;			/* in its group's slot */
	bool in_hw;			/* firmware holds it */
	u32 action;			/* the rules' action, dests aside */
	u32 flow_tag;
	u32 modify_header_id;
	u32 reformat_id;
	unsigned int nrules;
	u32 ndest;
	struct mlx5x_fs_ref dest[MLX5X_FS_FTE_MAX_DEST];
	u32 ncounter;
	struct mlx5x_fs_ref counter[MLX5X_FS_FTE_MAX_COUNTERS];
};

/* A rule: its part of an entry. */
struct mlx5x_fs_rule {
	struct mlx5x_fs_prio *prio;
	struct mlx5x_fs_group *fg;
	struct mlx5x_fs_fte *fte;
	u32 ndest;
	struct mlx5x_fs_dest dest[MLX5X_FS_MAX_DEST + 1];
	u32 ncounter;
	u32 counter[MLX5X_FS_MAX_COUNTERS];
};

/*
 * A table's entries by value, whatever their group: one lookup finds the
 * entry a rule joins (same value; its group has the rule's mask), where
 * asking each group of that mask would cost a hash per group.
 */
static const struct rhashtable_params mlx5x_fs_pfte_params = {
	.key_len = MLX5X_FS_MATCH_BYTES,
	.key_offset = offsetof(struct mlx5x_fs_fte, value),
	.head_offset = offsetof(struct mlx5x_fs_fte, pnode),
	.automatic_shrinking = true,
};

struct mlx5x_fs_prio *mlx5x_fs_prio_get(struct mlx5x_dev *dev,
					enum mlx5x_fs_ns ns, unsigned int prio);
void mlx5x_fs_prio_put(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p);
void mlx5x_fs_prio_slot(const struct mlx5x_fs_prio *p, unsigned int slot,
			u32 *start, u32 *size);

#endif /* MLX5X_FS_CORE_H */
