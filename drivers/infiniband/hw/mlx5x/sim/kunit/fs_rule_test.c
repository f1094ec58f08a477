// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: flow steering in the model, its entries: SET/QUERY/DELETE of
 * flow table entries, their destinations, counters and lookup, modify
 * header and packet reformat contexts, and the references between them.
 * The cases run in the suite of fs_table_test.c.
 */
#include <linux/ktime.h>
#include "fs_test.h"

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

void sk_fte_create_query_delete(struct kunit *test)
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

void sk_fte_rules(struct kunit *test)
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

void sk_fte_modify(struct kunit *test)
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
void sk_fte_tir_dest(struct kunit *test)
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

/* A group finds its entries by masked value, through its hash table. */
void sk_fte_hash_lookup(struct kunit *test)
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

void sk_modhdr(struct kunit *test)
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

void sk_reformat(struct kunit *test)
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

void sk_reformat_needs_table_flag(struct kunit *test)
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
void sk_fte_bulk_counter(struct kunit *test)
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
