// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: flow steering in the model, its tables and groups: the caps,
 * CREATE/QUERY/MODIFY/DESTROY_FLOW_TABLE and miss tables, flow groups,
 * which context may touch what, and a teardown with a tree left.  The
 * suite, mlx5x_sim_fs, also runs the cases of fs_rule_test.c.
 */
#include "fs_test.h"

/* The page QUERY_HCA_CAP reports offers what the commands accept. */
static void sk_fs_caps(struct kunit *test)
{
	void *cap, *rx, *tx;
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(SIM_FS_CAP_TYPE,
							       1),
					   false, &cap), PRM_STAT_OK);
	rx = PRM_ADDR(flow_table_nic_cap, cap,
		      flow_table_properties_nic_receive);
	tx = PRM_ADDR(flow_table_nic_cap, cap,
		      flow_table_properties_nic_transmit);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_prop_layout, rx, ft_support),
			1);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_prop_layout, tx, ft_support),
			1);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_prop_layout, PRM_ADDR(
			flow_table_nic_cap, cap,
			flow_table_properties_nic_receive_rdma), ft_support), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_prop_layout, PRM_ADDR(
			flow_table_nic_cap, cap,
			flow_table_properties_nic_transmit_rdma), ft_support), 1);
	KUNIT_EXPECT_EQ(test, SIM_CAP_GEN(sk_sim(test), nic_flow_table), 1);
	KUNIT_EXPECT_EQ(test, sk_ft_create(test, 0, RX, 1, 4, 0, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_create(test, 0, TX, 1, 4, 0, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, TX, id), PRM_STAT_OK);
	/* RDMA RX (7) and TX (8) offered; FDB (4) and 9 not */
	KUNIT_EXPECT_EQ(test, sk_ft_create(test, 0, SIM_FS_TYPE_RDMA_RX, 1, 4,
					   0, &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, SIM_FS_TYPE_RDMA_RX, id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_create(test, 0, SIM_FS_TYPE_RDMA_TX, 1, 4,
					   0, &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, SIM_FS_TYPE_RDMA_TX, id),
			PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, 9, 1, 4, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, MLX5_FLOW_TABLE_TYPE_FDB, 1,
					  4, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_ft_create_query_destroy(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 max_level = SIM_FS_PROP(sim, RX, max_ft_level);
	u32 max_log = SIM_FS_PROP(sim, RX, log_max_ft_size);
	void *in, *ftc;
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, max_level, max_log, 0,
					   &id), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_query(test, 0, RX, id, &ftc), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_context, ftc, level),
			max_level);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_context, ftc, log_size),
			max_log);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_context, ftc,
				      table_miss_action), 0);
	/* the type names the table too */
	SK_EXPECT_FAIL(test, sk_ft_query(test, 0, TX, id, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, 0, TX, id),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, id), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_ft_query(test, 0, RX, id, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	/* beyond the limits */
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, RX, max_level + 1, 4, 0,
					  NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, RX, 1, max_log + 1, 0,
					  NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* vports, software steering */
	in = sk_ft_in(test, 0, RX, 0, 0, 0);
	PRM_SET(create_flow_table_in, in, other_vport, 1);
	SK_EXPECT_FAIL(test, sk_ft_exec(test, in, NULL), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	PRM_SET(create_flow_table_in, in, other_vport, 0);
	PRM_SET(create_flow_table_in, in, flow_table_context.sw_owner, 1);
	SK_EXPECT_FAIL(test, sk_ft_exec(test, in, NULL), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	PRM_SET(create_flow_table_in, in, flow_table_context.sw_owner, 0);
	PRM_SET(create_flow_table_in, in, flow_table_context.table_miss_action,
		MLX5_FLOW_TABLE_MISS_ACTION_SWITCH_DOMAIN);
	SK_EXPECT_FAIL(test, sk_ft_exec(test, in, NULL), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_ft_miss(struct kunit *test)
{
	u32 deep, deeper, shallow, tx, ft;
	void *ftc;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 5, 4, 0, &deep),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 6, 4, 0, &deeper),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, 4, 0, &shallow),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, TX, 9, 4, 0, &tx),
			PRM_STAT_OK);
	/* same level, shallower, other type, none */
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, RX, 5, 4, deep, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, RX, 2, 4, shallow, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, RX, 2, 4, tx, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, RX, 2, 4, 0xabcd, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 2, 4, deep, &ft),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_query(test, 0, RX, ft, &ftc), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_context, ftc,
				      table_miss_action),
			MLX5_FLOW_TABLE_MISS_ACTION_FWD);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_context, ftc, table_miss_id),
			deep);
	/* the miss table is held */
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, 0, RX, deep),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	/* move the miss to another table */
	KUNIT_EXPECT_EQ(test, sk_ft_modify(test, 0, RX, ft,
					   MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID,
					   deeper), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, deep), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, 0, RX, deeper),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	/* only the miss table can change; a bad one leaves it */
	SK_EXPECT_FAIL(test, sk_ft_modify(test, 0, RX, ft,
					  MLX5_MODIFY_FLOW_TABLE_LAG_NEXT_TABLE_ID,
					  0),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_ft_modify(test, 0, RX, ft,
					  MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID,
					  shallow),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	KUNIT_ASSERT_EQ(test, sk_ft_query(test, 0, RX, ft, &ftc), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_context, ftc, table_miss_id),
			deeper);
	/* back to the default miss */
	KUNIT_EXPECT_EQ(test, sk_ft_modify(test, 0, RX, ft,
					   MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID,
					   0), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, deeper), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, ft), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, shallow), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, TX, tx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_mask_misc2(void *m)
{
	PRM_SET(fte_match_param, m, misc_parameters_2.metadata_reg_a, 1);
}

static void sk_mask_inner(void *m)
{
	PRM_SET(fte_match_param, m, inner_headers.ethertype, 0xffff);
}

static void sk_fg_rules(struct kunit *test)
{
	void *expect = sk_mbox(test, SIM_FS_MATCH_BYTES);
	u32 ft, a, b;
	void *out;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, 4, 0, &ft),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create(test, 0, RX, ft, 4, 7, &a),
			PRM_STAT_OK);
	/* outside the table (16 entries), reversed, overlapping */
	SK_EXPECT_FAIL(test, sk_fg_create(test, 0, RX, ft, 8, 16, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_fg_create(test, 0, RX, ft, 9, 8, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_fg_create(test, 0, RX, ft, 0, 4, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_fg_create(test, 0, RX, ft, 7, 9, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* criteria not offered; mask outside the criteria enabled */
	SK_EXPECT_FAIL(test, sk_fg_create_mask(test, 0, RX, ft, 8, 9, BIT(3),
					       sk_mask_misc2, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_fg_create_mask(test, 0, RX, ft, 8, 9, OUTER,
					       sk_mask_inner, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	KUNIT_ASSERT_EQ(test, sk_fg_create(test, 0, RX, ft, 0, 3, &b),
			PRM_STAT_OK);
	/* query gives back what was set */
	KUNIT_ASSERT_EQ(test, sk_fg_query(test, 0, RX, ft, a, &out),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_flow_group_out, out,
				      start_flow_index), 4);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_flow_group_out, out,
				      end_flow_index), 7);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_flow_group_out, out,
				      match_criteria_enable), OUTER);
	sk_mask_eth_dport(expect);
	KUNIT_EXPECT_EQ(test, memcmp(PRM_ADDR(query_flow_group_out, out,
					      match_criteria), expect,
				     SIM_FS_MATCH_BYTES), 0);
	/* groups are kept in index order */
	KUNIT_EXPECT_EQ(test, list_first_entry(&container_of(xa_load(
			&sk_sim(test)->objs[SIM_OBJ_FLOW_TABLE], ft),
			struct sim_flow_table, obj)->groups,
			struct sim_flow_group, node)->obj.id, b);
	/* a table with groups is busy */
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, 0, RX, ft),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, RX, ft, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, RX, ft, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, ft), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Another context cannot touch, name or add to a context's steering. */
static void sk_fs_uid_isolation(struct kunit *test)
{
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	struct sk_tree ta, tb;
	struct sk_fte e;

	sk_tree_build(test, a, &ta);
	sk_tree_build(test, b, &tb);
	SK_EXPECT_FAIL(test, sk_ft_query(test, b, RX, ta.ft, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, b, RX, ta.ft),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_ft_modify(test, b, RX, ta.ft,
					  MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID,
					  0),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_fg_create(test, b, RX, ta.ft, 8, 9, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_ft_create(test, b, RX, 0, 4, ta.next, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	/* b adds to a's table */
	e = sk_fwd_count(b, &ta, 0);
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NOT_OWNER);
	/* b forwards to a's table, counts into a's counter */
	e = sk_fwd_count(b, &tb, 0);
	e.dest[0] = ta.next;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NOT_OWNER);
	e = sk_fwd_count(b, &tb, 0);
	e.cnt[0] = ta.cnt;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NOT_OWNER);
	/* b's own works; a's entry is a's alone */
	e = sk_fwd_count(b, &tb, 0);
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	e = sk_fwd_count(a, &ta, 0);
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_fte_query(test, b, RX, ta.ft, 0, 2, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_fte_delete(test, b, RX, ta.ft, 0),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, a, RX, ta.ft, 0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, b, RX, tb.ft, 0),
			PRM_STAT_OK);
	sk_tree_free(test, a, &ta);
	sk_tree_free(test, b, &tb);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
}

/*
 * The kernel's entries may forward into a context's table and count into
 * its counter (mlx5dv flows do); the context cannot then destroy them,
 * and another context still cannot name them.
 */
static void sk_fs_kernel_refs(struct kunit *test)
{
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	struct sk_tree ta, tk, tb;
	struct sk_fte e;

	sk_tree_build(test, a, &ta);
	sk_tree_build(test, 0, &tk);
	sk_tree_build(test, b, &tb);
	e = sk_fwd_count(0, &tk, 0);
	e.dest[0] = ta.next;
	e.cnt[0] = ta.cnt;
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, a, RX, ta.next),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	SK_EXPECT_FAIL(test, sk_dealloc_flow_counter(test, a, ta.cnt),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	/* b still cannot count into a's counter */
	e = sk_fwd_count(b, &tb, 0);
	e.cnt[0] = ta.cnt;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, tk.ft, 0),
			PRM_STAT_OK);
	sk_tree_free(test, a, &ta);
	sk_tree_free(test, 0, &tk);
	sk_tree_free(test, b, &tb);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A device removed with a whole tree left frees it all (and says so). */
static void sk_fs_teardown_with_tree(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;
	u16 uid = sk_new_uctx(test);
	struct sk_tree t;
	struct sk_fte e;
	u32 miss;

	sk_tree_build(test, uid, &t);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, uid, RX, 0, 2, t.ft, &miss),
			PRM_STAT_OK);
	e = sk_fwd_count(uid, &t, 0);
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	mlx5x_sim_destroy(ctx->sim);
	ctx->sim = NULL;
}

/*
 * The RDMA domains: a miss of an RDMA RX table may switch domain (its
 * capabilities say so), one of RDMA TX may not; no TIR destination; a
 * table of the other domain is no destination either.
 */
static void sk_ft_rdma_domains(struct kunit *test)
{
	u32 rx, tx, other, fg;
	struct sk_fte e = {};
	void *in, *ftc;

	in = sk_ft_in(test, 0, SIM_FS_TYPE_RDMA_RX, 1, 4, 0);
	PRM_SET(create_flow_table_in, in, flow_table_context.table_miss_action,
		MLX5_FLOW_TABLE_MISS_ACTION_SWITCH_DOMAIN);
	KUNIT_ASSERT_EQ(test, sk_ft_exec(test, in, &rx), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_query(test, 0, SIM_FS_TYPE_RDMA_RX, rx,
					  &ftc), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_table_context, ftc,
				      table_miss_action),
			MLX5_FLOW_TABLE_MISS_ACTION_SWITCH_DOMAIN);
	in = sk_ft_in(test, 0, SIM_FS_TYPE_RDMA_TX, 1, 4, 0);
	PRM_SET(create_flow_table_in, in, flow_table_context.table_miss_action,
		MLX5_FLOW_TABLE_MISS_ACTION_SWITCH_DOMAIN);
	SK_EXPECT_FAIL(test, sk_ft_exec(test, in, NULL), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, SIM_FS_TYPE_RDMA_TX, 2, 4,
					   0, &tx), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, SIM_FS_TYPE_RDMA_RX, 2, 4,
					   0, &other), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create(test, 0, SIM_FS_TYPE_RDMA_RX, rx, 0,
					   3, &fg), PRM_STAT_OK);
	e.type = SIM_FS_TYPE_RDMA_RX;
	e.ft = rx;
	e.fg = fg;
	e.action = MLX5_FLOW_CONTEXT_ACTION_FWD_DEST;
	e.ndest = 1;
	e.dest_type[0] = MLX5_IFC_FLOW_DESTINATION_TYPE_TIR;
	e.dest[0] = 1;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.dest_type[0] = MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE;
	e.dest[0] = tx;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.dest[0] = other;
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, SIM_FS_TYPE_RDMA_RX, rx,
					    0), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, SIM_FS_TYPE_RDMA_RX, rx,
					    fg), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, SIM_FS_TYPE_RDMA_RX,
					    other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, SIM_FS_TYPE_RDMA_TX, tx),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, SIM_FS_TYPE_RDMA_RX, rx),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct kunit_case sk_fs_cases[] = {
	KUNIT_CASE(sk_fs_caps),
	KUNIT_CASE(sk_ft_create_query_destroy),
	KUNIT_CASE(sk_ft_miss),
	KUNIT_CASE(sk_ft_rdma_domains),
	KUNIT_CASE(sk_fg_rules),
	KUNIT_CASE(sk_fte_create_query_delete),
	KUNIT_CASE(sk_fte_rules),
	KUNIT_CASE(sk_fte_modify),
	KUNIT_CASE(sk_fte_tir_dest),
	KUNIT_CASE(sk_fs_uid_isolation),
	KUNIT_CASE(sk_fs_kernel_refs),
	KUNIT_CASE(sk_fte_hash_lookup),
	KUNIT_CASE(sk_modhdr),
	KUNIT_CASE(sk_reformat),
	KUNIT_CASE(sk_reformat_needs_table_flag),
	KUNIT_CASE(sk_fte_bulk_counter),
	KUNIT_CASE(sk_fs_teardown_with_tree),
	{}
};

static struct kunit_suite sk_fs_suite = {
	.name = "mlx5x_sim_fs",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_fs_cases,
};

kunit_test_suite(sk_fs_suite);
