// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* KUnit helpers of the flow steering suites: see sk_fs.h. */
#include "sk_fs.h"

/* match_criteria_enable: the outer headers */
#define SK_OUTER	BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_OUTER_HEADERS)

/**
 * sk_ft_in() - a CREATE_FLOW_TABLE mailbox
 * @test: the case
 * @uid: the context that creates the table
 * @type: the table's type (MLX5_FLOW_TABLE_TYPE_*)
 * @level: its level
 * @log_size: log2 of its number of entries
 * @miss: the table a miss forwards to, or 0 for the default miss
 *
 * Return: the mailbox, for sk_ft_exec() once the case has spoilt it.
 */
void *sk_ft_in(struct kunit *test, u16 uid, u32 type, u32 level,
	       u32 log_size, u32 miss)
{
	void *in = SK_MBOX(test, create_flow_table_in);
	void *ftc = PRM_ADDR(create_flow_table_in, in, flow_table_context);

	PRM_SET(create_flow_table_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(create_flow_table_in, in, table_type, type);
	PRM_SET(flow_table_context, ftc, level, level);
	PRM_SET(flow_table_context, ftc, log_size, log_size);
	if (miss) {
		PRM_SET(flow_table_context, ftc, table_miss_action,
			MLX5_FLOW_TABLE_MISS_ACTION_FWD);
		PRM_SET(flow_table_context, ftc, table_miss_id, miss);
	}
	return in;
}

/**
 * sk_ft_exec() - run a CREATE_FLOW_TABLE mailbox
 * @test: the case
 * @in: the mailbox, from sk_ft_in()
 * @id: where the new table's id goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_ft_exec(struct kunit *test, const void *in, u32 *id)
{
	void *out = SK_MBOX(test, create_flow_table_out);
	u8 status;

	status = sk_exec(test, in, PRM_BYTES(create_flow_table_in), out,
			 PRM_BYTES(create_flow_table_out));
	if (id)
		*id = PRM_GET(create_flow_table_out, out, table_id);
	return status;
}

/**
 * sk_ft_create() - create a flow table
 * @test: the case
 * @uid: the context that creates it
 * @type: its type (MLX5_FLOW_TABLE_TYPE_*)
 * @level: its level
 * @log_size: log2 of its number of entries
 * @miss: the table a miss forwards to, or 0 for the default miss
 * @id: where its id goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_ft_create(struct kunit *test, u16 uid, u32 type, u32 level,
		u32 log_size, u32 miss, u32 *id)
{
	return sk_ft_exec(test, sk_ft_in(test, uid, type, level, log_size,
					 miss), id);
}

/**
 * sk_ft_destroy() - destroy a flow table
 * @test: the case
 * @uid: the context that asks
 * @type: the table's type
 * @id: the table
 *
 * Return: the PRM status.
 */
u8 sk_ft_destroy(struct kunit *test, u16 uid, u32 type, u32 id)
{
	void *in = SK_MBOX(test, destroy_flow_table_in);
	void *out = SK_MBOX(test, destroy_flow_table_out);

	PRM_SET(destroy_flow_table_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(destroy_flow_table_in, in, table_type, type);
	PRM_SET(destroy_flow_table_in, in, table_id, id);
	return sk_exec(test, in, PRM_BYTES(destroy_flow_table_in), out,
		       PRM_BYTES(destroy_flow_table_out));
}

/**
 * sk_ft_query() - query a flow table
 * @test: the case
 * @uid: the context that asks
 * @type: the table's type
 * @id: the table
 * @ftc: where the flow_table_context of the output goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_ft_query(struct kunit *test, u16 uid, u32 type, u32 id, void **ftc)
{
	void *in = SK_MBOX(test, query_flow_table_in);
	void *out = SK_MBOX(test, query_flow_table_out);

	PRM_SET(query_flow_table_in, in, opcode, MLX5_CMD_OP_QUERY_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(query_flow_table_in, in, table_type, type);
	PRM_SET(query_flow_table_in, in, table_id, id);
	if (ftc)
		*ftc = PRM_ADDR(query_flow_table_out, out, flow_table_context);
	return sk_exec(test, in, PRM_BYTES(query_flow_table_in), out,
		       PRM_BYTES(query_flow_table_out));
}

/**
 * sk_ft_modify() - MODIFY_FLOW_TABLE
 * @test: the case
 * @uid: the context that asks
 * @type: the table's type
 * @id: the table
 * @select: modify_field_select (MLX5_MODIFY_FLOW_TABLE_*)
 * @miss: the new miss table, or 0 for the default miss
 *
 * Return: the PRM status.
 */
u8 sk_ft_modify(struct kunit *test, u16 uid, u32 type, u32 id, u32 select,
		u32 miss)
{
	void *in = SK_MBOX(test, modify_flow_table_in);
	void *out = SK_MBOX(test, modify_flow_table_out);
	void *ftc = PRM_ADDR(modify_flow_table_in, in, flow_table_context);

	PRM_SET(modify_flow_table_in, in, opcode,
		MLX5_CMD_OP_MODIFY_FLOW_TABLE);
	prm_in_set_uid(in, uid);
	PRM_SET(modify_flow_table_in, in, table_type, type);
	PRM_SET(modify_flow_table_in, in, table_id, id);
	PRM_SET(modify_flow_table_in, in, modify_field_select, select);
	if (miss) {
		PRM_SET(flow_table_context, ftc, table_miss_action,
			MLX5_FLOW_TABLE_MISS_ACTION_FWD);
		PRM_SET(flow_table_context, ftc, table_miss_id, miss);
	}
	return sk_exec(test, in, PRM_BYTES(modify_flow_table_in), out,
		       PRM_BYTES(modify_flow_table_out));
}

/**
 * sk_ft_root() - SET_FLOW_TABLE_ROOT
 * @test: the case
 * @uid: the context that asks
 * @op_mod: 0 to connect @id, 1 to disconnect the root
 * @type: the root's type
 * @id: the table
 *
 * Return: the PRM status.
 */
u8 sk_ft_root(struct kunit *test, u16 uid, u16 op_mod, u32 type, u32 id)
{
	void *in = SK_MBOX(test, set_flow_table_root_in);
	void *out = SK_MBOX(test, set_flow_table_root_out);

	PRM_SET(set_flow_table_root_in, in, opcode,
		MLX5_CMD_OP_SET_FLOW_TABLE_ROOT);
	prm_in_set_uid(in, uid);
	PRM_SET(set_flow_table_root_in, in, op_mod, op_mod);
	PRM_SET(set_flow_table_root_in, in, table_type, type);
	PRM_SET(set_flow_table_root_in, in, table_id, id);
	return sk_exec(test, in, PRM_BYTES(set_flow_table_root_in), out,
		       PRM_BYTES(set_flow_table_root_out));
}

/**
 * sk_mask_eth_dport() - mask the outer ethertype and TCP destination port
 * @m: an fte_match_param
 */
void sk_mask_eth_dport(void *m)
{
	PRM_SET(fte_match_param, m, outer_headers.ethertype, 0xffff);
	PRM_SET(fte_match_param, m, outer_headers.tcp_dport, 0xffff);
}

/* Mask the outer TCP destination port of fte_match_param @m. */
static void sk_mask_dport(void *m)
{
	PRM_SET(fte_match_param, m, outer_headers.tcp_dport, 0xffff);
}

/**
 * sk_fg_in() - a CREATE_FLOW_GROUP mailbox with an empty mask
 * @test: the case
 * @uid: the context that creates the group
 * @type: the table's type
 * @ft: the table
 * @start: the group's first flow index
 * @end: its last
 * @criteria: match_criteria_enable
 *
 * Return: the mailbox, whose match_criteria the case fills before
 * sk_fg_exec().
 */
void *sk_fg_in(struct kunit *test, u16 uid, u32 type, u32 ft, u32 start,
	       u32 end, u8 criteria)
{
	void *in = SK_MBOX(test, create_flow_group_in);

	PRM_SET(create_flow_group_in, in, opcode,
		MLX5_CMD_OP_CREATE_FLOW_GROUP);
	prm_in_set_uid(in, uid);
	PRM_SET(create_flow_group_in, in, table_type, type);
	PRM_SET(create_flow_group_in, in, table_id, ft);
	PRM_SET(create_flow_group_in, in, start_flow_index, start);
	PRM_SET(create_flow_group_in, in, end_flow_index, end);
	PRM_SET(create_flow_group_in, in, match_criteria_enable, criteria);
	return in;
}

/**
 * sk_fg_exec() - run a CREATE_FLOW_GROUP mailbox
 * @test: the case
 * @in: the mailbox, from sk_fg_in()
 * @id: where the new group's id goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_fg_exec(struct kunit *test, const void *in, u32 *id)
{
	void *out = SK_MBOX(test, create_flow_group_out);
	u8 status;

	status = sk_exec(test, in, PRM_BYTES(create_flow_group_in), out,
			 PRM_BYTES(create_flow_group_out));
	if (id)
		*id = PRM_GET(create_flow_group_out, out, group_id);
	return status;
}

/**
 * sk_fg_create_mask() - create a flow group
 * @test: the case
 * @uid: the context that creates it
 * @type: the table's type
 * @ft: the table
 * @start: the group's first flow index
 * @end: its last
 * @criteria: match_criteria_enable
 * @mask: fills the group's match_criteria (an fte_match_param), or NULL
 * @id: where the group's id goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_fg_create_mask(struct kunit *test, u16 uid, u32 type, u32 ft,
		     u32 start, u32 end, u8 criteria, void (*mask)(void *m),
		     u32 *id)
{
	void *in = sk_fg_in(test, uid, type, ft, start, end, criteria);

	if (mask)
		mask(PRM_ADDR(create_flow_group_in, in, match_criteria));
	return sk_fg_exec(test, in, id);
}

/**
 * sk_fg_create() - create a flow group on the outer ethertype and TCP
 * destination port (sk_mask_eth_dport())
 * @test: the case
 * @uid: the context that creates it
 * @type: the table's type
 * @ft: the table
 * @start: the group's first flow index
 * @end: its last
 * @id: where the group's id goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_fg_create(struct kunit *test, u16 uid, u32 type, u32 ft, u32 start,
		u32 end, u32 *id)
{
	return sk_fg_create_mask(test, uid, type, ft, start, end, SK_OUTER,
				 sk_mask_eth_dport, id);
}

/**
 * sk_fg_create_dport() - create a flow group on the outer TCP destination
 * port alone
 * @test: the case
 * @uid: the context that creates it
 * @type: the table's type
 * @ft: the table
 * @start: the group's first flow index
 * @end: its last
 * @id: where the group's id goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_fg_create_dport(struct kunit *test, u16 uid, u32 type, u32 ft,
		      u32 start, u32 end, u32 *id)
{
	return sk_fg_create_mask(test, uid, type, ft, start, end, SK_OUTER,
				 sk_mask_dport, id);
}

/**
 * sk_fg_destroy() - destroy a flow group
 * @test: the case
 * @uid: the context that asks
 * @type: the table's type
 * @ft: the table
 * @id: the group
 *
 * Return: the PRM status.
 */
u8 sk_fg_destroy(struct kunit *test, u16 uid, u32 type, u32 ft, u32 id)
{
	void *in = SK_MBOX(test, destroy_flow_group_in);
	void *out = SK_MBOX(test, destroy_flow_group_out);

	PRM_SET(destroy_flow_group_in, in, opcode,
		MLX5_CMD_OP_DESTROY_FLOW_GROUP);
	prm_in_set_uid(in, uid);
	PRM_SET(destroy_flow_group_in, in, table_type, type);
	PRM_SET(destroy_flow_group_in, in, table_id, ft);
	PRM_SET(destroy_flow_group_in, in, group_id, id);
	return sk_exec(test, in, PRM_BYTES(destroy_flow_group_in), out,
		       PRM_BYTES(destroy_flow_group_out));
}

/**
 * sk_fg_query() - query a flow group
 * @test: the case
 * @uid: the context that asks
 * @type: the table's type
 * @ft: the table
 * @id: the group
 * @outp: where the output mailbox (query_flow_group_out) goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_fg_query(struct kunit *test, u16 uid, u32 type, u32 ft, u32 id,
	       void **outp)
{
	void *in = SK_MBOX(test, query_flow_group_in);
	void *out = SK_MBOX(test, query_flow_group_out);

	PRM_SET(query_flow_group_in, in, opcode, MLX5_CMD_OP_QUERY_FLOW_GROUP);
	prm_in_set_uid(in, uid);
	PRM_SET(query_flow_group_in, in, table_type, type);
	PRM_SET(query_flow_group_in, in, table_id, ft);
	PRM_SET(query_flow_group_in, in, group_id, id);
	if (outp)
		*outp = out;
	return sk_exec(test, in, PRM_BYTES(query_flow_group_in), out,
		       PRM_BYTES(query_flow_group_out));
}

/**
 * sk_fte_in() - a SET_FLOW_TABLE_ENTRY mailbox
 * @test: the case
 * @e: what the entry says
 * @inlen: where the mailbox's length goes: set_fte_in and its list of
 *	@e->ndest destinations, then @e->ncnt counters
 *
 * Return: the mailbox.
 */
void *sk_fte_in(struct kunit *test, const struct sk_fte *e, size_t *inlen)
{
	void *in, *fc, *v;
	u8 *list;
	u32 i;

	*inlen = PRM_BYTES(set_fte_in) +
		 (e->ndest + e->ncnt) * PRM_BYTES(dest_format_struct);
	in = sk_mbox(test, *inlen);
	fc = PRM_ADDR(set_fte_in, in, flow_context);
	v = PRM_ADDR(flow_context, fc, match_value);
	list = (u8 *)in + PRM_BYTES(set_fte_in);
	PRM_SET(set_fte_in, in, opcode, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, e->uid);
	PRM_SET(set_fte_in, in, op_mod, e->op_mod);
	PRM_SET(set_fte_in, in, table_type, e->type);
	PRM_SET(set_fte_in, in, table_id, e->ft);
	PRM_SET(set_fte_in, in, flow_index, e->index);
	PRM_SET(set_fte_in, in, modify_enable_mask, e->mask);
	PRM_SET(set_fte_in, in, ignore_flow_level, e->ignore_level);
	PRM_SET(set_fte_in, in, vport_number, e->vport);
	PRM_SET(flow_context, fc, group_id, e->fg);
	PRM_SET(flow_context, fc, action, e->action);
	PRM_SET(flow_context, fc, flow_tag, e->flow_tag);
	PRM_SET(flow_context, fc, destination_list_size, e->ndest);
	PRM_SET(flow_context, fc, flow_counter_list_size, e->ncnt);
	PRM_SET(flow_context, fc, packet_reformat_id, e->reformat);
	PRM_SET(flow_context, fc, modify_header_id, e->modhdr);
	PRM_SET(fte_match_param, v, outer_headers.ethertype, e->ethertype);
	PRM_SET(fte_match_param, v, outer_headers.tcp_dport, e->dport);
	PRM_SET(fte_match_param, v, outer_headers.tcp_sport, e->sport);
	for (i = 0; i < e->ndest; i++, list += 8) {
		PRM_SET(dest_format_struct, list, destination_type,
			e->dest_type[i]);
		PRM_SET(dest_format_struct, list, destination_id, e->dest[i]);
	}
	for (i = 0; i < e->ncnt; i++, list += 8)
		PRM_SET(flow_counter_list, list, flow_counter_id, e->cnt[i]);
	return in;
}

/**
 * sk_fte_set() - add or modify a flow table entry
 * @test: the case
 * @e: what the entry says
 *
 * Return: the PRM status.
 */
u8 sk_fte_set(struct kunit *test, const struct sk_fte *e)
{
	void *out = SK_MBOX(test, set_fte_out);
	size_t inlen;
	void *in = sk_fte_in(test, e, &inlen);

	return sk_exec(test, in, inlen, out, PRM_BYTES(set_fte_out));
}

/**
 * sk_fte_delete() - delete a flow table entry
 * @test: the case
 * @uid: the context that asks
 * @type: the table's type
 * @ft: the table
 * @index: the entry's flow index
 *
 * Return: the PRM status.
 */
u8 sk_fte_delete(struct kunit *test, u16 uid, u32 type, u32 ft, u32 index)
{
	void *in = SK_MBOX(test, delete_fte_in);
	void *out = SK_MBOX(test, delete_fte_out);

	PRM_SET(delete_fte_in, in, opcode,
		MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, uid);
	PRM_SET(delete_fte_in, in, table_type, type);
	PRM_SET(delete_fte_in, in, table_id, ft);
	PRM_SET(delete_fte_in, in, flow_index, index);
	return sk_exec(test, in, PRM_BYTES(delete_fte_in), out,
		       PRM_BYTES(delete_fte_out));
}

/**
 * sk_fte_query() - query a flow table entry
 * @test: the case
 * @uid: the context that asks
 * @type: the table's type
 * @ft: the table
 * @index: the entry's flow index
 * @room: how many list entries (destinations and counters) the output
 *	has room for after query_fte_out
 * @outp: where the output mailbox goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_fte_query(struct kunit *test, u16 uid, u32 type, u32 ft, u32 index,
		u32 room, void **outp)
{
	size_t outlen = PRM_BYTES(query_fte_out) + room * 8;
	void *in = SK_MBOX(test, query_fte_in);
	void *out = sk_mbox(test, outlen);

	PRM_SET(query_fte_in, in, opcode, MLX5_CMD_OP_QUERY_FLOW_TABLE_ENTRY);
	prm_in_set_uid(in, uid);
	PRM_SET(query_fte_in, in, table_type, type);
	PRM_SET(query_fte_in, in, table_id, ft);
	PRM_SET(query_fte_in, in, flow_index, index);
	if (outp)
		*outp = out;
	return sk_exec(test, in, PRM_BYTES(query_fte_in), out, outlen);
}

/**
 * sk_modhdr_alloc() - ALLOC_MODIFY_HEADER_CONTEXT
 * @test: the case
 * @uid: the context that allocates it
 * @type: the table type it is for
 * @n: num_of_actions, and the room for them in the mailbox
 * @acts: the first @n actions, or NULL to leave them zero
 * @short_by: how many bytes of the mailbox not to send
 * @id: where the context's id goes, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_modhdr_alloc(struct kunit *test, u16 uid, u32 type, u32 n,
		   const struct sk_mh_act *acts, size_t short_by, u32 *id)
{
	size_t inlen = PRM_BYTES(alloc_modify_header_context_in) + n * 8;
	void *in = sk_mbox(test, inlen);
	void *out = SK_MBOX(test, alloc_modify_header_context_out);
	u8 *a = (u8 *)in + PRM_BYTES(alloc_modify_header_context_in);
	u32 i;
	u8 status;

	PRM_SET(alloc_modify_header_context_in, in, opcode,
		MLX5_CMD_OP_ALLOC_MODIFY_HEADER_CONTEXT);
	prm_in_set_uid(in, uid);
	PRM_SET(alloc_modify_header_context_in, in, table_type, type);
	PRM_SET(alloc_modify_header_context_in, in, num_of_actions, n);
	for (i = 0; acts && i < n; i++, a += 8) {
		PRM_SET(set_action_in, a, action_type, acts[i].type);
		if (acts[i].type == MLX5_ACTION_TYPE_COPY) {
			PRM_SET(copy_action_in, a, src_field, acts[i].field);
			PRM_SET(copy_action_in, a, src_offset, acts[i].offset);
			PRM_SET(copy_action_in, a, length, acts[i].length);
			PRM_SET(copy_action_in, a, dst_field,
				acts[i].dst_field);
		} else {
			PRM_SET(set_action_in, a, field, acts[i].field);
			PRM_SET(set_action_in, a, offset, acts[i].offset);
			PRM_SET(set_action_in, a, length, acts[i].length);
			PRM_SET(set_action_in, a, data, acts[i].data);
		}
	}
	status = sk_exec(test, in, inlen - short_by, out,
			 PRM_BYTES(alloc_modify_header_context_out));
	if (id)
		*id = PRM_GET(alloc_modify_header_context_out, out,
			      modify_header_id);
	return status;
}

/**
 * sk_modhdr_free() - DEALLOC_MODIFY_HEADER_CONTEXT
 * @test: the case
 * @uid: the context that asks
 * @id: the modify header context
 *
 * Return: the PRM status.
 */
u8 sk_modhdr_free(struct kunit *test, u16 uid, u32 id)
{
	void *in = SK_MBOX(test, dealloc_modify_header_context_in);
	void *out = SK_MBOX(test, dealloc_modify_header_context_out);

	PRM_SET(dealloc_modify_header_context_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_MODIFY_HEADER_CONTEXT);
	prm_in_set_uid(in, uid);
	PRM_SET(dealloc_modify_header_context_in, in, modify_header_id, id);
	return sk_exec(test, in, PRM_BYTES(dealloc_modify_header_context_in),
		       out, PRM_BYTES(dealloc_modify_header_context_out));
}

/**
 * sk_tree_build() - build a struct sk_tree; the case fails if it cannot
 * @test: the case
 * @uid: the context it belongs to
 * @t: where the objects' ids go
 */
void sk_tree_build(struct kunit *test, u16 uid, struct sk_tree *t)
{
	const u32 rx = MLX5_FLOW_TABLE_TYPE_NIC_RX;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, uid, rx, 1, 4, 0, &t->ft),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, uid, rx, 2, 4, 0, &t->next),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create(test, uid, rx, t->ft, 0, 7,
					   &t->fg), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, uid, &t->cnt),
			PRM_STAT_OK);
}

/**
 * sk_tree_free() - destroy what sk_tree_build() made, once no entry is left
 * @test: the case
 * @uid: the context it belongs to
 * @t: the tree
 */
void sk_tree_free(struct kunit *test, u16 uid, struct sk_tree *t)
{
	const u32 rx = MLX5_FLOW_TABLE_TYPE_NIC_RX;

	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, uid, rx, t->ft, t->fg),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, uid, rx, t->ft),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, uid, rx, t->next),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, uid, t->cnt),
			PRM_STAT_OK);
}

/**
 * sk_fwd_count() - an entry of a tree's group that forwards to its level 2
 * table and counts into its counter
 * @uid: the context that sets it
 * @t: the tree
 * @index: the entry's flow index: it matches IPv4 to TCP port 80 + @index
 *
 * Return: the entry, with tag 0x1234.
 */
struct sk_fte sk_fwd_count(u16 uid, struct sk_tree *t, u32 index)
{
	return (struct sk_fte){
		.uid = uid, .type = MLX5_FLOW_TABLE_TYPE_NIC_RX, .ft = t->ft,
		.fg = t->fg, .index = index, .ethertype = 0x0800,
		.dport = 80 + index,
		.action = MLX5_FLOW_CONTEXT_ACTION_FWD_DEST |
			  MLX5_FLOW_CONTEXT_ACTION_COUNT,
		.flow_tag = 0x1234, .ndest = 1,
		.dest_type = { MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE },
		.dest = { t->next }, .ncnt = 1, .cnt = { t->cnt },
	};
}
