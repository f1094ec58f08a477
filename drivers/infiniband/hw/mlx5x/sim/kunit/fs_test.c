// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: flow steering in the model: flow tables, groups, entries, modify
 * header and packet reformat contexts, and the references between them.
 */
#include <linux/ktime.h>
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

/* ---- packet reformat contexts ---- */

static u8 sk_reformat_alloc(struct kunit *test, u16 uid, u32 type, u32 size,
			    size_t room, u32 *id)
{
	size_t inlen = PRM_BYTES(alloc_packet_reformat_context_in) + room;
	void *in = sk_mbox(test, inlen);
	void *out = SK_MBOX(test, alloc_packet_reformat_context_out);
	void *rc = PRM_ADDR(alloc_packet_reformat_context_in, in,
			    packet_reformat_context);
	u8 status;

	PRM_SET(alloc_packet_reformat_context_in, in, opcode,
		MLX5_CMD_OP_ALLOC_PACKET_REFORMAT_CONTEXT);
	prm_in_set_uid(in, uid);
	PRM_SET(packet_reformat_context_in, rc, reformat_type, type);
	PRM_SET(packet_reformat_context_in, rc, reformat_data_size, size);
	status = sk_exec(test, in, inlen, out,
			 PRM_BYTES(alloc_packet_reformat_context_out));
	if (id)
		*id = PRM_GET(alloc_packet_reformat_context_out, out,
			      packet_reformat_id);
	return status;
}

static u8 sk_reformat_free(struct kunit *test, u16 uid, u32 id)
{
	void *in = SK_MBOX(test, dealloc_packet_reformat_context_in);
	void *out = SK_MBOX(test, dealloc_packet_reformat_context_out);

	PRM_SET(dealloc_packet_reformat_context_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_PACKET_REFORMAT_CONTEXT);
	prm_in_set_uid(in, uid);
	PRM_SET(dealloc_packet_reformat_context_in, in, packet_reformat_id,
		id);
	return sk_exec(test, in, PRM_BYTES(dealloc_packet_reformat_context_in),
		       out, PRM_BYTES(dealloc_packet_reformat_context_out));
}

/* ---- cases ---- */

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
			flow_table_properties_nic_receive_rdma), ft_support), 0);
	KUNIT_EXPECT_EQ(test, SIM_CAP_GEN(sk_sim(test), nic_flow_table), 1);
	KUNIT_EXPECT_EQ(test, sk_ft_create(test, 0, RX, 1, 4, 0, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_create(test, 0, TX, 1, 4, 0, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, TX, id), PRM_STAT_OK);
	/* RDMA RX (7), FDB (4): not offered */
	SK_EXPECT_FAIL(test, sk_ft_create(test, 0, 7, 1, 4, 0, NULL),
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

static void sk_fte_create_query_delete(struct kunit *test)
{
	struct sk_tree t;
	struct sk_fte e;
	void *out, *fc, *v;
	u8 *list;

	sk_tree_build(test, 0, &t);
	e = sk_fwd_count(0, &t, 3);
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fte_query(test, 0, RX, t.ft, 3, 2, &out),
			PRM_STAT_OK);
	fc = PRM_ADDR(query_fte_out, out, flow_context);
	v = PRM_ADDR(flow_context, fc, match_value);
	list = (u8 *)out + PRM_BYTES(query_fte_out);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_context, fc, group_id), t.fg);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_context, fc, action),
			A_FWD | A_COUNT);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_context, fc, flow_tag), 0x1234);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_context, fc,
				      destination_list_size), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_context, fc,
				      flow_counter_list_size), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(fte_match_param, v,
				      outer_headers.tcp_dport), 83);
	KUNIT_EXPECT_EQ(test, PRM_GET(dest_format_struct, list,
				      destination_type), DEST_FT);
	KUNIT_EXPECT_EQ(test, PRM_GET(dest_format_struct, list,
				      destination_id), t.next);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_counter_list, list + 8,
				      flow_counter_id), t.cnt);
	/* no room for the lists */
	SK_EXPECT_FAIL(test, sk_fte_query(test, 0, RX, t.ft, 3, 1, NULL),
		       PRM_STAT_BAD_OUTPUT_LEN, SIM_SYND_BAD_OUTLEN);
	SK_EXPECT_FAIL(test, sk_fte_query(test, 0, RX, t.ft, 4, 2, NULL),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	/* what the entry names is held: group, destination, counter */
	SK_EXPECT_FAIL(test, sk_fg_destroy(test, 0, RX, t.ft, t.fg),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, 0, RX, t.next),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	SK_EXPECT_FAIL(test, sk_dealloc_flow_counter(test, 0, t.cnt),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 3),
			PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_fte_delete(test, 0, RX, t.ft, 3),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	sk_tree_free(test, 0, &t);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_fte_rules(struct kunit *test)
{
	struct sk_tree t;
	struct sk_fte e;
	u32 same, fg2, tx;

	sk_tree_build(test, 0, &t);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, 4, 0, &same),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, TX, 2, 4, 0, &tx),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create(test, 0, RX, t.ft, 8, 15, &fg2),
			PRM_STAT_OK);
	e = sk_fwd_count(0, &t, 0);
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	/* the same masked value again in the group */
	e.index = 1;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_DUP_MATCH);
	/* but in another group it is another entry */
	e.index = 8;
	e.fg = fg2;
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	/* an index taken, outside the group, outside the table */
	e = sk_fwd_count(0, &t, 0);
	e.dport = 1;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.index = 9;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.index = 16;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.index = 2;
	/* a value outside the mask: ether type is masked, TCP sport not */
	e.sport = 5;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.sport = 0;
	e.ethertype = 0x86dd;
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 2),
			PRM_STAT_OK);
	/* actions: not offered, two fates, lists that do not match them */
	e.action = MLX5_FLOW_CONTEXT_ACTION_DECAP;
	e.ndest = 0;
	e.ncnt = 0;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e = sk_fwd_count(0, &t, 2);
	e.action |= A_DROP;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e = sk_fwd_count(0, &t, 2);
	e.action = A_COUNT;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e = sk_fwd_count(0, &t, 2);
	e.ncnt = 0;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	/* destinations: same level, other type, TIR none, vport, unknown */
	e = sk_fwd_count(0, &t, 2);
	e.dest[0] = same;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.ignore_level = true;
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 2),
			PRM_STAT_OK);
	e.dest[0] = t.ft;	/* itself, even ignoring levels */
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e = sk_fwd_count(0, &t, 2);
	e.dest[0] = tx;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e = sk_fwd_count(0, &t, 2);
	e.dest_type[0] = DEST_TIR;
	e.dest[0] = 0x77;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NO_OBJECT);
	e.dest_type[0] = MLX5_IFC_FLOW_DESTINATION_TYPE_VPORT;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e = sk_fwd_count(0, &t, 2);
	e.vport = 1;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	/* a counter that does not exist, an op_mod that does not */
	e = sk_fwd_count(0, &t, 2);
	e.cnt[0] = t.cnt + 100;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NO_OBJECT);
	e = sk_fwd_count(0, &t, 2);
	e.op_mod = 2;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_OPMOD);
	/* nothing a refused entry took is left held */
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, RX, t.ft, fg2),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, same), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, TX, tx), PRM_STAT_OK);
	sk_tree_free(test, 0, &t);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_fte_modify(struct kunit *test)
{
	struct sk_tree t;
	struct sk_fte e;
	void *out, *fc;
	u32 other;

	sk_tree_build(test, 0, &t);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 3, 4, 0, &other),
			PRM_STAT_OK);
	e = sk_fwd_count(0, &t, 5);
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	/* a new destination and tag; the counter stays */
	e.op_mod = 1;
	e.mask = BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_DESTINATION_LIST) |
		 BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_FLOW_TAG);
	e.dest[0] = other;
	e.flow_tag = 0x99;
	e.ncnt = 0;
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fte_query(test, 0, RX, t.ft, 5, 2, &out),
			PRM_STAT_OK);
	fc = PRM_ADDR(query_fte_out, out, flow_context);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_context, fc, flow_tag), 0x99);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_context, fc,
				      flow_counter_list_size), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(dest_format_struct,
				      (u8 *)out + PRM_BYTES(query_fte_out),
				      destination_id), other);
	/* the old destination is free, the new one held */
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, t.next), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, 0, RX, other),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	SK_EXPECT_FAIL(test, sk_dealloc_flow_counter(test, 0, t.cnt),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	/* parts not offered, a changed value, no entry there */
	e.mask = BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_IPSEC_OBJ_ID);
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.mask = BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_FLOW_TAG);
	e.dport = 1;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.dport = 85;
	e.index = 6;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NO_OBJECT);
	/* a modify that makes the entry inconsistent leaves it as it was */
	e.index = 5;
	e.mask = BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_FLOW_COUNTERS);
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_dealloc_flow_counter(test, 0, t.cnt),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	/* drop the counting: action and counters together */
	e.mask = BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_FLOW_COUNTERS) |
		 BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_ACTION);
	e.action = A_FWD;
	KUNIT_EXPECT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, t.cnt),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 5),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, RX, t.ft, t.fg),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, t.ft), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* TIRs are another command set's; reference one made by hand. */
static void sk_fte_tir_dest(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cmd_ctx ctx = { .uid = 0 };
	struct sim_obj *tir;
	struct sk_tree t;
	struct sk_fte e;

	mutex_lock(&sim->lock);
	KUNIT_ASSERT_EQ(test, sim_obj_alloc(sim, &ctx, SIM_OBJ_TIR, &tir),
			PRM_STAT_OK);
	mutex_unlock(&sim->lock);
	sk_tree_build(test, 0, &t);
	e = sk_fwd_count(0, &t, 1);
	e.dest_type[0] = DEST_TIR;
	e.dest[0] = tir->id;
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, tir->users, 1);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 1),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, tir->users, 0);
	sk_tree_free(test, 0, &t);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sim_obj_destroy(sim, &ctx, SIM_OBJ_TIR, tir->id),
			PRM_STAT_OK);
	mutex_unlock(&sim->lock);
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

/* A group finds its entries by masked value, through its hash table. */
static void sk_fte_hash_lookup(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 *key = sk_mbox(test, SIM_FS_MATCH_BYTES);
	struct sim_flow_group *fg;
	struct sim_fte *fte;
	struct sk_tree t;
	struct sk_fte e;
	u64 t0, t_set, t_find;
	u32 i;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, 10, 0, &t.ft),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create(test, 0, RX, t.ft, 0, 1023, &t.fg),
			PRM_STAT_OK);
	t0 = ktime_get_ns();
	for (i = 0; i < 1024; i++) {
		e = (struct sk_fte){ .type = RX, .ft = t.ft, .fg = t.fg,
				     .index = i, .ethertype = 0x0800,
				     .dport = 1000 + i, .action = A_DROP };
		KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	}
	t_set = ktime_get_ns() - t0;
	fg = container_of(xa_load(&sim->objs[SIM_OBJ_FLOW_GROUP], t.fg),
			  struct sim_flow_group, obj);
	KUNIT_EXPECT_EQ(test, fg->nentries, 1024);
	for (i = 0; i < 1024; i += 97) {
		memset(key, 0, SIM_FS_MATCH_BYTES);
		PRM_SET(fte_match_param, key, outer_headers.ethertype, 0x0800);
		PRM_SET(fte_match_param, key, outer_headers.tcp_dport,
			1000 + i);
		mutex_lock(&sim->lock);
		fte = sim_fte_lookup(fg, key);
		mutex_unlock(&sim->lock);
		KUNIT_ASSERT_NOT_NULL(test, fte);
		KUNIT_EXPECT_EQ(test, fte->flow_index, i);
	}
	/* every entry, timed: a lookup does not grow with the group */
	t0 = ktime_get_ns();
	for (i = 0; i < 1024; i++) {
		PRM_SET(fte_match_param, key, outer_headers.tcp_dport,
			1000 + i);
		if (!sim_fte_lookup(fg, key))
			break;
	}
	t_find = ktime_get_ns() - t0;
	KUNIT_EXPECT_EQ(test, i, 1024);
	kunit_info(test, "1024 entries: SET_FTE %llu ns, lookup %llu ns each\n",
		   t_set / 1024, t_find / 1024);
	PRM_SET(fte_match_param, key, outer_headers.tcp_dport, 5000);
	KUNIT_EXPECT_NULL(test, sim_fte_lookup(fg, key));
	PRM_SET(fte_match_param, key, outer_headers.tcp_dport, 1007);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 7),
			PRM_STAT_OK);
	KUNIT_EXPECT_NULL(test, sim_fte_lookup(fg, key));
	for (i = 0; i < 1024; i++)
		if (i != 7)
			KUNIT_ASSERT_EQ(test, sk_fte_delete(test, 0, RX, t.ft,
							    i), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, RX, t.ft, t.fg),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, t.ft), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_modhdr(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 max = SIM_FS_PROP(sim, RX, max_modify_header_actions);
	static const struct sk_mh_act good[] = {
		{ MLX5_ACTION_TYPE_SET, MLX5_ACTION_IN_FIELD_OUT_DMAC_15_0, 0,
		  16 },
		{ MLX5_ACTION_TYPE_ADD, MLX5_ACTION_IN_FIELD_OUT_IP_TTL },
		{ MLX5_ACTION_TYPE_COPY, MLX5_ACTION_IN_FIELD_OUT_SIPV4, 0, 0,
		  MLX5_ACTION_IN_FIELD_METADATA_REG_C_1 },
	};
	struct sk_mh_act bad;
	struct sk_tree t;
	struct sk_fte e;
	u32 mh, mh_tx;

	KUNIT_ASSERT_EQ(test, sk_modhdr_alloc(test, 0, RX, 3, good, 0, &mh),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_modhdr_alloc(test, 0, TX, 3, good, 0,
					      &mh_tx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, container_of(xa_load(
			&sim->objs[SIM_OBJ_MODIFY_HDR], mh),
			struct sim_modify_hdr, obj)->nactions, 3);
	/* counts, lengths, types, fields, spans */
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, RX, 0, NULL, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, RX, max + 1, NULL, 0,
					     NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, 7, 3, good, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, RX, 3, good, 8, NULL),
		       PRM_STAT_BAD_INPUT_LEN, SIM_SYND_BAD_INLEN);
	bad = good[0];
	bad.type = 4;
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, RX, 1, &bad, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	bad = good[0];
	bad.field = 0x30;
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, RX, 1, &bad, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	bad = good[0];
	bad.offset = 1;		/* 16 bits from bit 1 of a 16-bit field */
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, RX, 1, &bad, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	bad = good[2];
	bad.dst_field = MLX5_ACTION_IN_FIELD_OUT_TCP_SPORT;	/* 32 > 16 */
	SK_EXPECT_FAIL(test, sk_modhdr_alloc(test, 0, RX, 1, &bad, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* an entry uses it: of its table type only, and holds it */
	sk_tree_build(test, 0, &t);
	e = sk_fwd_count(0, &t, 0);
	e.action |= MLX5_FLOW_CONTEXT_ACTION_MOD_HDR;
	e.modhdr = mh_tx;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.modhdr = mh;
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_modhdr_free(test, 0, mh),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_modhdr_free(test, 0, mh), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_modhdr_free(test, 0, mh_tx), PRM_STAT_OK);
	sk_tree_free(test, 0, &t);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_reformat(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 max = PRM_GET(flow_table_nic_cap, sim->caps[SIM_FS_CAP_TYPE],
			  max_encap_header_size);
	u32 encap, decap, tx, fg;
	struct sk_fte e;
	void *in;

	KUNIT_ASSERT_EQ(test, sk_reformat_alloc(test, 0,
						MLX5_REFORMAT_TYPE_L2_TO_VXLAN,
						50, 50, &encap), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, container_of(xa_load(
			&sim->objs[SIM_OBJ_PKT_REFORMAT], encap),
			struct sim_pkt_reformat, obj)->size, 50);
	KUNIT_ASSERT_EQ(test, sk_reformat_alloc(test, 0,
					MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
					14, 14, &decap), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_reformat_alloc(test, 0,
					MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
					20, 20, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_reformat_alloc(test, 0,
					       MLX5_REFORMAT_TYPE_INSERT_HDR,
					       8, 8, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_reformat_alloc(test, 0,
					       MLX5_REFORMAT_TYPE_L2_TO_VXLAN,
					       max + 1, max + 1, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_reformat_alloc(test, 0,
					       MLX5_REFORMAT_TYPE_L2_TO_VXLAN,
					       0, 0, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_reformat_alloc(test, 0,
					       MLX5_REFORMAT_TYPE_L2_TO_VXLAN,
					       50, 40, NULL),
		       PRM_STAT_BAD_INPUT_LEN, SIM_SYND_BAD_INLEN);
	/* encapsulation on a TX table with reformat_en */
	in = sk_ft_in(test, 0, TX, 0, 2, 0);
	PRM_SET(create_flow_table_in, in, flow_table_context.reformat_en, 1);
	KUNIT_ASSERT_EQ(test, sk_ft_exec(test, in, &tx), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create(test, 0, TX, tx, 0, 3, &fg),
			PRM_STAT_OK);
	e = (struct sk_fte){ .type = TX, .ft = tx, .fg = fg, .index = 0,
			     .action = MLX5_FLOW_CONTEXT_ACTION_ALLOW |
				       MLX5_FLOW_CONTEXT_ACTION_PACKET_REFORMAT,
			     .reformat = decap };
	/* decap is for receive tables */
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	e.reformat = encap;
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_reformat_free(test, 0, encap),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, TX, tx, 0), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_reformat_free(test, 0, encap), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_reformat_free(test, 0, decap), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, TX, tx, fg), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, TX, tx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_reformat_needs_table_flag(struct kunit *test)
{
	struct sk_tree t;
	struct sk_fte e;
	u32 decap;

	KUNIT_ASSERT_EQ(test, sk_reformat_alloc(test, 0,
					MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
					14, 14, &decap), PRM_STAT_OK);
	sk_tree_build(test, 0, &t);
	e = sk_fwd_count(0, &t, 0);
	e.action |= MLX5_FLOW_CONTEXT_ACTION_PACKET_REFORMAT;
	e.reformat = decap;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_reformat_free(test, 0, decap), PRM_STAT_OK);
	sk_tree_free(test, 0, &t);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* An entry counts into a counter inside a bulk: the bulk is held. */
static void sk_fte_bulk_counter(struct kunit *test)
{
	void *in = SK_MBOX(test, alloc_flow_counter_in);
	void *out = SK_MBOX(test, alloc_flow_counter_out);
	struct sk_tree t;
	struct sk_fte e;
	u32 bulk;

	sk_tree_build(test, 0, &t);
	PRM_SET(alloc_flow_counter_in, in, opcode,
		MLX5_CMD_OP_ALLOC_FLOW_COUNTER);
	PRM_SET(alloc_flow_counter_in, in, flow_counter_bulk, MLX5_FC_BULK_128);
	KUNIT_ASSERT_EQ(test, sk_exec(test, in,
				      PRM_BYTES(alloc_flow_counter_in), out,
				      PRM_BYTES(alloc_flow_counter_out)),
			PRM_STAT_OK);
	bulk = PRM_GET(alloc_flow_counter_out, out, flow_counter_id);
	e = sk_fwd_count(0, &t, 0);
	e.cnt[0] = bulk + 127;
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_dealloc_flow_counter(test, 0, bulk),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	e = sk_fwd_count(0, &t, 1);
	e.cnt[0] = bulk + 128;
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t.ft, 0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, bulk),
			PRM_STAT_OK);
	sk_tree_free(test, 0, &t);
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

static struct kunit_case sk_fs_cases[] = {
	KUNIT_CASE(sk_fs_caps),
	KUNIT_CASE(sk_ft_create_query_destroy),
	KUNIT_CASE(sk_ft_miss),
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
