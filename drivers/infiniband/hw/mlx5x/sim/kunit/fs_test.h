/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The flow steering suite, mlx5x_sim_fs, in two files: its tables, groups
 * and their owners in fs_table_test.c, which holds the suite, and its
 * entries and their actions in fs_rule_test.c.
 */
#ifndef MLX5X_FS_TEST_H
#define MLX5X_FS_TEST_H

#include "sk_fs.h"
#include "../steering/fs.h"

#define RX	MLX5_FLOW_TABLE_TYPE_NIC_RX
#define TX	MLX5_FLOW_TABLE_TYPE_NIC_TX
#define OUTER	BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_OUTER_HEADERS)
#define A_FWD	MLX5_FLOW_CONTEXT_ACTION_FWD_DEST
#define A_DROP	MLX5_FLOW_CONTEXT_ACTION_DROP
#define A_COUNT	MLX5_FLOW_CONTEXT_ACTION_COUNT
#define DEST_FT	MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE
#define DEST_TIR MLX5_IFC_FLOW_DESTINATION_TYPE_TIR

/* The cases of fs_rule_test.c. */
void sk_fte_create_query_delete(struct kunit *test);
void sk_fte_rules(struct kunit *test);
void sk_fte_modify(struct kunit *test);
void sk_fte_tir_dest(struct kunit *test);
void sk_fte_hash_lookup(struct kunit *test);
void sk_modhdr(struct kunit *test);
void sk_reformat(struct kunit *test);
void sk_reformat_needs_table_flag(struct kunit *test);
void sk_fte_bulk_counter(struct kunit *test);

#endif /* MLX5X_FS_TEST_H */
