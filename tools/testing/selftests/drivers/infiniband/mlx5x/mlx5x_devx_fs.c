// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow steering through DEVX: flow tables, flow groups, flow table
 * entries, flow counters (bulks among them), modify header and packet
 * reformat contexts, created, queried, modified and destroyed with
 * mlx5dv_devx_obj_*(3); the firmware's rules seen from userspace, the
 * references between objects, another process kept out, teardown of a
 * whole tree and creation under fault injection.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"
#include "mlx5x_prm.h"

#define RX			0	/* table types */
#define TX			1
#define ACT_DROP		PRM_FLOW_CONTEXT_ACTION_DROP
#define ACT_FWD			PRM_FLOW_CONTEXT_ACTION_FWD_DEST
#define ACT_COUNT		PRM_FLOW_CONTEXT_ACTION_COUNT
#define ACT_MOD_HDR		PRM_FLOW_CONTEXT_ACTION_MOD_HDR
#define DEST_FLOW_TABLE		1
#define CRITERIA_OUTER		1
#define MISS_FWD		1
#define MODIFY_MISS_TABLE	1
#define FTE_MODIFY_FLOW_TAG	0x2

/* A set_fte_in with room for destinations and counters after it. */
#define FTE_IN_BYTES		(PRM_SET_FTE_IN_BYTES + 4 * 8)
#define FTE_OUT_BYTES		(PRM_QUERY_FTE_OUT_BYTES + 4 * 8)
#define FC_OUT_BYTES(n)		(16 + 16 * (n))

struct obj {
	struct mlx5dv_devx_obj *h;
	uint32_t id;
};

static uint32_t out_status(const void *out)
{
	return mt_get(out, PRM_OUT_STATUS);
}

static uint32_t out_syndrome(const void *out)
{
	return mt_get(out, PRM_OUT_SYNDROME);
}

/* Create; on failure *out holds firmware's answer and errno is set. */
static bool create(struct ibv_context *ctx, void *in, size_t inlen,
		   void *out, size_t outlen, struct mt_field id_fld,
		   struct obj *o)
{
	errno = 0;
	o->h = mlx5dv_devx_obj_create(ctx, in, inlen, out, outlen);
	o->id = o->h ? mt_get(out, id_fld) : 0;
	return o->h;
}

static bool table(struct ibv_context *ctx, uint32_t type, uint32_t level,
		  uint32_t log_size, uint32_t miss, struct obj *o,
		  uint32_t *out)
{
	uint32_t in[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {};
	uint32_t buf[PRM_CREATE_FLOW_TABLE_OUT_BYTES / 4];

	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_TABLE_TYPE, type);
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LEVEL, level);
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LOG_SIZE,
	       log_size);
	if (miss) {
		mt_set(in,
		       PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_TABLE_MISS_ACTION,
		       MISS_FWD);
		mt_set(in,
		       PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_TABLE_MISS_ID,
		       miss);
	}
	return create(ctx, in, sizeof(in), out ?: buf, sizeof(buf),
		      PRM_CREATE_FLOW_TABLE_OUT_TABLE_ID, o);
}

/* A group of @t matching on the outer ether type and TCP dport. */
static bool group(struct ibv_context *ctx, uint32_t t, uint32_t start,
		  uint32_t end, struct obj *o, uint32_t *out)
{
	uint32_t in[PRM_CREATE_FLOW_GROUP_IN_BYTES / 4] = {};
	uint32_t buf[PRM_CREATE_FLOW_GROUP_OUT_BYTES / 4];

	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_OPCODE, PRM_OP_CREATE_FLOW_GROUP);
	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_TABLE_TYPE, RX);
	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_TABLE_ID, t);
	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_START_FLOW_INDEX, start);
	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_END_FLOW_INDEX, end);
	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE,
	       CRITERIA_OUTER);
	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_OUTER_HEADERS_ETHERTYPE,
	       0xffff);
	mt_set(in, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_OUTER_HEADERS_TCP_DPORT,
	       0xffff);
	return create(ctx, in, sizeof(in), out ?: buf, sizeof(buf),
		      PRM_CREATE_FLOW_GROUP_OUT_GROUP_ID, o);
}

struct fte {
	uint32_t op_mod, ft, fg, index, dport, sport, action, flow_tag;
	uint32_t dest, counter, modhdr, mask;
};

static void fte_in(uint32_t *in, const struct fte *e)
{
	uint8_t *list = (uint8_t *)in + PRM_SET_FTE_IN_BYTES;
	uint32_t ndest = e->action & ACT_FWD ? 1 : 0;

	memset(in, 0, FTE_IN_BYTES);
	mt_set(in, PRM_SET_FTE_IN_OPCODE, PRM_OP_SET_FLOW_TABLE_ENTRY);
	mt_set(in, PRM_SET_FTE_IN_OP_MOD, e->op_mod);
	mt_set(in, PRM_SET_FTE_IN_TABLE_TYPE, RX);
	mt_set(in, PRM_SET_FTE_IN_TABLE_ID, e->ft);
	mt_set(in, PRM_SET_FTE_IN_FLOW_INDEX, e->index);
	mt_set(in, PRM_SET_FTE_IN_MODIFY_ENABLE_MASK, e->mask);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_GROUP_ID, e->fg);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_ACTION, e->action);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_FLOW_TAG, e->flow_tag);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MODIFY_HEADER_ID, e->modhdr);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MATCH_VALUE_OUTER_HEADERS_ETHERTYPE,
	       0x0800);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MATCH_VALUE_OUTER_HEADERS_TCP_DPORT,
	       e->dport);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MATCH_VALUE_OUTER_HEADERS_TCP_SPORT,
	       e->sport);
	if (ndest) {
		mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_DESTINATION_LIST_SIZE, 1);
		mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_TYPE,
		       DEST_FLOW_TABLE);
		mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_ID, e->dest);
	}
	if (e->action & ACT_COUNT) {
		mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_FLOW_COUNTER_LIST_SIZE,
		       1);
		mt_set(list + ndest * PRM_DEST_FORMAT_STRUCT_BYTES,
		       PRM_FLOW_COUNTER_LIST_FLOW_COUNTER_ID, e->counter);
	}
}

static bool entry(struct ibv_context *ctx, const struct fte *e,
		  struct obj *o, uint32_t *out)
{
	uint32_t in[FTE_IN_BYTES / 4];
	uint32_t buf[4];

	fte_in(in, e);
	errno = 0;
	o->h = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out ?: buf,
				      sizeof(buf));
	o->id = e->index;
	return o->h;
}

static bool counter(struct ibv_context *ctx, uint32_t log_bulk,
		    struct obj *o)
{
	uint32_t in[PRM_ALLOC_FLOW_COUNTER_IN_BYTES / 4] = {};
	uint32_t out[PRM_ALLOC_FLOW_COUNTER_OUT_BYTES / 4];

	mt_set(in, PRM_ALLOC_FLOW_COUNTER_IN_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	mt_set(in, PRM_ALLOC_FLOW_COUNTER_IN_FLOW_COUNTER_BULK_LOG_SIZE,
	       log_bulk);
	return create(ctx, in, sizeof(in), out, sizeof(out),
		      PRM_ALLOC_FLOW_COUNTER_OUT_FLOW_COUNTER_ID, o);
}

/* One action: set @length bits at @offset of header field @field. */
static bool modhdr(struct ibv_context *ctx, uint32_t type, uint32_t field,
		   uint32_t offset, uint32_t length, struct obj *o,
		   uint32_t *out)
{
	uint32_t in[(PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_BYTES + 8) / 4] = {};
	uint32_t buf[PRM_ALLOC_MODIFY_HEADER_CONTEXT_OUT_BYTES / 4];
	uint8_t *act = (uint8_t *)in + PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_BYTES;

	mt_set(in, PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_OPCODE,
	       PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT);
	mt_set(in, PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_TABLE_TYPE, type);
	mt_set(in, PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_NUM_OF_ACTIONS, 1);
	mt_set(act, PRM_SET_ACTION_IN_ACTION_TYPE, 1);	/* set */
	mt_set(act, PRM_SET_ACTION_IN_FIELD, field);
	mt_set(act, PRM_SET_ACTION_IN_OFFSET, offset);
	mt_set(act, PRM_SET_ACTION_IN_LENGTH, length);
	return create(ctx, in, sizeof(in), out ?: buf, sizeof(buf),
		      PRM_ALLOC_MODIFY_HEADER_CONTEXT_OUT_MODIFY_HEADER_ID, o);
}

/* A decapsulation context: 14 bytes of L2 header to put back. */
static bool reformat(struct ibv_context *ctx, uint32_t size, struct obj *o,
		     uint32_t *out)
{
	uint32_t in[(PRM_ALLOC_PACKET_REFORMAT_CONTEXT_IN_BYTES + 32) / 4] = {};
	uint32_t buf[PRM_ALLOC_PACKET_REFORMAT_CONTEXT_OUT_BYTES / 4];

	mt_set(in, PRM_ALLOC_PACKET_REFORMAT_CONTEXT_IN_OPCODE,
	       PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT);
	mt_set(in,
	       PRM_ALLOC_PACKET_REFORMAT_CONTEXT_IN_PACKET_REFORMAT_CONTEXT_REFORMAT_TYPE,
	       3);	/* L3 tunnel to L2 */
	mt_set(in,
	       PRM_ALLOC_PACKET_REFORMAT_CONTEXT_IN_PACKET_REFORMAT_CONTEXT_REFORMAT_DATA_SIZE,
	       size);
	return create(ctx, in, sizeof(in), out ?: buf, sizeof(buf),
		      PRM_ALLOC_PACKET_REFORMAT_CONTEXT_OUT_PACKET_REFORMAT_ID,
		      o);
}

static int query_table(struct obj *o, uint32_t type, uint32_t id,
		       uint32_t *out)
{
	uint32_t in[PRM_QUERY_FLOW_TABLE_IN_BYTES / 4] = {};

	mt_set(in, PRM_QUERY_FLOW_TABLE_IN_OPCODE, PRM_OP_QUERY_FLOW_TABLE);
	mt_set(in, PRM_QUERY_FLOW_TABLE_IN_TABLE_TYPE, type);
	mt_set(in, PRM_QUERY_FLOW_TABLE_IN_TABLE_ID, id);
	return mlx5dv_devx_obj_query(o->h, in, sizeof(in), out,
				     PRM_QUERY_FLOW_TABLE_OUT_BYTES);
}

static int modify_miss(struct obj *o, uint32_t id, uint32_t miss,
		       uint32_t *out)
{
	uint32_t in[PRM_MODIFY_FLOW_TABLE_IN_BYTES / 4] = {};

	mt_set(in, PRM_MODIFY_FLOW_TABLE_IN_OPCODE, PRM_OP_MODIFY_FLOW_TABLE);
	mt_set(in, PRM_MODIFY_FLOW_TABLE_IN_TABLE_TYPE, RX);
	mt_set(in, PRM_MODIFY_FLOW_TABLE_IN_TABLE_ID, id);
	mt_set(in, PRM_MODIFY_FLOW_TABLE_IN_MODIFY_FIELD_SELECT,
	       MODIFY_MISS_TABLE);
	if (miss) {
		mt_set(in,
		       PRM_MODIFY_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_TABLE_MISS_ACTION,
		       MISS_FWD);
		mt_set(in,
		       PRM_MODIFY_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_TABLE_MISS_ID,
		       miss);
	}
	return mlx5dv_devx_obj_modify(o->h, in, sizeof(in), out, 16);
}

static int query_fte(struct obj *o, uint32_t ft, uint32_t index,
		     uint32_t *out)
{
	uint32_t in[PRM_QUERY_FTE_IN_BYTES / 4] = {};

	mt_set(in, PRM_QUERY_FTE_IN_OPCODE, PRM_OP_QUERY_FLOW_TABLE_ENTRY);
	mt_set(in, PRM_QUERY_FTE_IN_TABLE_TYPE, RX);
	mt_set(in, PRM_QUERY_FTE_IN_TABLE_ID, ft);
	mt_set(in, PRM_QUERY_FTE_IN_FLOW_INDEX, index);
	return mlx5dv_devx_obj_query(o->h, in, sizeof(in), out,
				     FTE_OUT_BYTES);
}

static int query_counter(struct obj *o, uint32_t id, uint32_t num)
{
	uint32_t in[PRM_QUERY_FLOW_COUNTER_IN_BYTES / 4] = {};
	uint32_t out[FC_OUT_BYTES(8) / 4];

	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_FLOW_COUNTER_ID, id);
	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_NUM_OF_COUNTERS, num);
	return mlx5dv_devx_obj_query(o->h, in, sizeof(in), out, sizeof(out));
}

static void destroy(struct obj *o)
{
	if (o->h)
		CHECK_ERR(mlx5dv_devx_obj_destroy(o->h), 0);
	o->h = NULL;
}

/* A refusal: EREMOTEIO, the status and syndrome in the output. */
static void refused(const uint32_t *out, uint32_t status, uint32_t synd)
{
	CHECK_ERR(errno, EREMOTEIO);
	CHECK_EQ(out_status(out), status);
	CHECK_EQ(out_syndrome(out), synd);
}

MT_TEST_F(mt_ctx, tables_create_query_modify_destroy)
{
	uint32_t out[PRM_QUERY_FLOW_TABLE_OUT_BYTES / 4];
	struct obj a = {}, b = {}, c = {}, bad;
	struct ibv_context *ctx = self->ctx;

	if (!CHECK(table(ctx, RX, 3, 6, 0, &b, NULL)) ||
	    !CHECK(table(ctx, RX, 4, 6, 0, &c, NULL)) ||
	    !CHECK(table(ctx, RX, 1, 4, b.id, &a, NULL)))
		goto out;
	if (mt_sim())
		mt_fw_check_owner("flow_table", a.id, self->uid);
	CHECK_ERR(query_table(&a, RX, a.id, out), 0);
	CHECK_EQ(mt_get(out, PRM_QUERY_FLOW_TABLE_OUT_FLOW_TABLE_CONTEXT_LEVEL),
		 1);
	CHECK_EQ(mt_get(out,
			PRM_QUERY_FLOW_TABLE_OUT_FLOW_TABLE_CONTEXT_LOG_SIZE),
		 4);
	CHECK_EQ(mt_get(out,
			PRM_QUERY_FLOW_TABLE_OUT_FLOW_TABLE_CONTEXT_TABLE_MISS_ID),
		 b.id);
	/* the handle's type and id only */
	CHECK_ERR(query_table(&a, TX, a.id, out), EINVAL);
	CHECK_ERR(query_table(&a, RX, b.id, out), EINVAL);
	/* the miss table is held */
	CHECK_ERR(mlx5dv_devx_obj_destroy(b.h), EBUSY);
	CHECK_ERR(modify_miss(&a, a.id, c.id, out), 0);
	CHECK_ERR(query_table(&a, RX, a.id, out), 0);
	CHECK_EQ(mt_get(out,
			PRM_QUERY_FLOW_TABLE_OUT_FLOW_TABLE_CONTEXT_TABLE_MISS_ID),
		 c.id);
	destroy(&b);
	/* a miss table must be deeper */
	CHECK_ERR(modify_miss(&c, c.id, a.id, out), EREMOTEIO);
	CHECK_EQ(out_status(out), MT_STAT_BAD_PARAM);
	/* types, levels and sizes the caps do not offer (FDB, 9) */
	CHECK(!table(ctx, 4, 1, 4, 0, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK(!table(ctx, 9, 1, 4, 0, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK(!table(ctx, RX, 200, 4, 0, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK(!table(ctx, RX, 1, 40, 0, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK(!table(ctx, TX, 5, 4, c.id, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK_ERR(modify_miss(&a, a.id, 0, out), 0);
out:
	destroy(&a);
	destroy(&b);
	destroy(&c);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("flow_table", self->uid), 0);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, vport_fields_refused)
{
	uint32_t in[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {};
	uint32_t out[PRM_CREATE_FLOW_TABLE_OUT_BYTES / 4];
	struct obj o;

	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_OTHER_VPORT, 1);
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_VPORT_NUMBER, 1);
	CHECK(!create(self->ctx, in, sizeof(in), out, sizeof(out),
		      PRM_CREATE_FLOW_TABLE_OUT_TABLE_ID, &o));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, groups_ranges_and_busy_table)
{
	uint32_t out[PRM_QUERY_FLOW_GROUP_OUT_BYTES / 4];
	uint32_t in[PRM_QUERY_FLOW_GROUP_IN_BYTES / 4] = {};
	struct obj t = {}, g = {}, bad;
	struct ibv_context *ctx = self->ctx;

	if (!CHECK(table(ctx, RX, 1, 4, 0, &t, NULL)) ||
	    !CHECK(group(ctx, t.id, 2, 5, &g, NULL)))
		goto out;
	mt_set(in, PRM_QUERY_FLOW_GROUP_IN_OPCODE, PRM_OP_QUERY_FLOW_GROUP);
	mt_set(in, PRM_QUERY_FLOW_GROUP_IN_TABLE_TYPE, RX);
	mt_set(in, PRM_QUERY_FLOW_GROUP_IN_TABLE_ID, t.id);
	mt_set(in, PRM_QUERY_FLOW_GROUP_IN_GROUP_ID, g.id);
	CHECK_ERR(mlx5dv_devx_obj_query(g.h, in, sizeof(in), out,
					sizeof(out)), 0);
	CHECK_EQ(mt_get(out, PRM_QUERY_FLOW_GROUP_OUT_START_FLOW_INDEX), 2);
	CHECK_EQ(mt_get(out, PRM_QUERY_FLOW_GROUP_OUT_END_FLOW_INDEX), 5);
	CHECK_EQ(mt_get(out,
			PRM_QUERY_FLOW_GROUP_OUT_MATCH_CRITERIA_OUTER_HEADERS_TCP_DPORT),
		 0xffff);
	/* a group of another table: the kernel compares every key */
	mt_set(in, PRM_QUERY_FLOW_GROUP_IN_TABLE_ID, t.id + 1);
	CHECK_ERR(mlx5dv_devx_obj_query(g.h, in, sizeof(in), out,
					sizeof(out)), EINVAL);
	/* overlap, outside the table */
	CHECK(!group(ctx, t.id, 5, 6, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK(!group(ctx, t.id, 6, 16, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* a table with a group is busy */
	CHECK_ERR(mlx5dv_devx_obj_destroy(t.h), EBUSY);
out:
	destroy(&g);
	destroy(&t);
	return KSFT_PASS;
}

/* Table at level 1 with a group 0..7, next table at 2, a counter. */
struct tree {
	struct obj ft, fg, next, cnt;
};

static bool tree(struct ibv_context *ctx, struct tree *t)
{
	memset(t, 0, sizeof(*t));
	return table(ctx, RX, 1, 4, 0, &t->ft, NULL) &&
	       table(ctx, RX, 2, 4, 0, &t->next, NULL) &&
	       group(ctx, t->ft.id, 0, 7, &t->fg, NULL) &&
	       counter(ctx, 0, &t->cnt);
}

static void tree_free(struct tree *t)
{
	destroy(&t->fg);
	destroy(&t->ft);
	destroy(&t->next);
	destroy(&t->cnt);
}

static struct fte fwd_count(struct tree *t, uint32_t index)
{
	return (struct fte){ .ft = t->ft.id, .fg = t->fg.id, .index = index,
			     .dport = 80 + index,
			     .action = ACT_FWD | ACT_COUNT, .flow_tag = 7,
			     .dest = t->next.id, .counter = t->cnt.id };
}

MT_TEST_F(mt_ctx, entries_rules_modify_references)
{
	uint32_t in[FTE_IN_BYTES / 4], out[FTE_OUT_BYTES / 4];
	struct ibv_context *ctx = self->ctx;
	struct obj e = {}, bad;
	struct tree t;
	struct fte f;

	if (!CHECK(tree(ctx, &t)))
		goto out;
	f = fwd_count(&t, 3);
	if (!CHECK(entry(ctx, &f, &e, out)))
		goto out;
	CHECK_ERR(query_fte(&e, t.ft.id, 3, out), 0);
	CHECK_EQ(mt_get(out, PRM_QUERY_FTE_OUT_FLOW_CONTEXT_ACTION),
		 ACT_FWD | ACT_COUNT);
	CHECK_EQ(mt_get(out, PRM_QUERY_FTE_OUT_FLOW_CONTEXT_FLOW_TAG), 7);
	CHECK_EQ(mt_get((uint8_t *)out + PRM_QUERY_FTE_OUT_BYTES,
			PRM_DEST_FORMAT_STRUCT_DESTINATION_ID), t.next.id);
	CHECK_ERR(query_fte(&e, t.ft.id, 4, out), EINVAL);
	/* modify: op_mod 1 through the modify method only */
	f.op_mod = 1;
	f.mask = FTE_MODIFY_FLOW_TAG;
	f.flow_tag = 0x4242;
	fte_in(in, &f);
	CHECK_ERR(mlx5dv_devx_obj_modify(e.h, in, sizeof(in), out, 16), 0);
	CHECK_ERR(query_fte(&e, t.ft.id, 3, out), 0);
	CHECK_EQ(mt_get(out, PRM_QUERY_FTE_OUT_FLOW_CONTEXT_FLOW_TAG), 0x4242);
	f.op_mod = 0;
	fte_in(in, &f);
	CHECK_ERR(mlx5dv_devx_obj_modify(e.h, in, sizeof(in), out, 16),
		  EINVAL);
	/* and a create never modifies */
	f = fwd_count(&t, 3);
	f.op_mod = 1;
	f.mask = FTE_MODIFY_FLOW_TAG;
	CHECK(!entry(ctx, &f, &bad, out));
	CHECK_ERR(errno, EINVAL);
	/* the same masked value in the group */
	f = fwd_count(&t, 4);
	f.dport = 83;
	CHECK(!entry(ctx, &f, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_DUP_MATCH);
	/* a value outside the group's mask */
	f.dport = 84;
	f.sport = 1;
	CHECK(!entry(ctx, &f, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* forward to a table not deeper */
	f = fwd_count(&t, 4);
	f.dest = t.ft.id;
	CHECK(!entry(ctx, &f, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* what the entry names is held */
	CHECK_ERR(mlx5dv_devx_obj_destroy(t.next.h), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(t.cnt.h), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(t.fg.h), EBUSY);
	destroy(&e);
out:
	destroy(&e);
	tree_free(&t);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, bulk_counter_query_range)
{
	struct obj b = {}, one = {};

	if (!CHECK(counter(self->ctx, 3, &b)) ||
	    !CHECK(counter(self->ctx, 0, &one)))
		goto out;
	CHECK(one.id < b.id || one.id >= b.id + 8);
	CHECK_ERR(query_counter(&b, b.id, 0), 0);
	CHECK_ERR(query_counter(&b, b.id + 5, 3), 0);
	CHECK_ERR(query_counter(&b, b.id, 8), 0);
	/* past the bulk's end, before its start: the kernel refuses */
	CHECK_ERR(query_counter(&b, b.id + 5, 4), EINVAL);
	CHECK_ERR(query_counter(&b, b.id + 8, 1), EINVAL);
	CHECK_ERR(query_counter(&b, b.id - 1, 1), EINVAL);
	/* a single counter keeps its equality check */
	CHECK_ERR(query_counter(&one, one.id, 1), 0);
	CHECK_ERR(query_counter(&one, one.id, 2), EINVAL);
	CHECK_ERR(query_counter(&one, one.id + 1, 1), EINVAL);
out:
	destroy(&one);
	destroy(&b);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, modify_header_and_reformat)
{
	uint32_t out[FTE_OUT_BYTES / 4];
	struct obj mh = {}, mh_tx = {}, rf = {}, e = {}, bad;
	struct ibv_context *ctx = self->ctx;
	struct tree t;
	struct fte f;

	if (!CHECK(tree(ctx, &t)) ||
	    !CHECK(modhdr(ctx, RX, 0x5, 0, 16, &mh, NULL)) ||	/* dmac lo */
	    !CHECK(modhdr(ctx, TX, 0x5, 0, 16, &mh_tx, NULL)) ||
	    !CHECK(reformat(ctx, 14, &rf, NULL)))
		goto out;
	/* 16 bits from bit 1 of a 16-bit field; unknown field; sizes */
	CHECK(!modhdr(ctx, RX, 0x5, 1, 16, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK(!modhdr(ctx, RX, 0x30, 0, 0, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK(!reformat(ctx, 20, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	f = fwd_count(&t, 0);
	f.action |= ACT_MOD_HDR;
	f.modhdr = mh_tx.id;
	CHECK(!entry(ctx, &f, &bad, out));
	refused(out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	f.modhdr = mh.id;
	if (CHECK(entry(ctx, &f, &e, out)))
		CHECK_ERR(mlx5dv_devx_obj_destroy(mh.h), EBUSY);
	destroy(&e);
out:
	destroy(&mh);
	destroy(&mh_tx);
	destroy(&rf);
	tree_free(&t);
	return KSFT_PASS;
}

/* The child's verdicts, one bit each: 0 is all refused as they should. */
static int child_tries(struct tree *parent)
{
	uint32_t out[FTE_OUT_BYTES / 4];
	struct ibv_context *c2 = mt_open(MT_OPEN_DEVX, NULL);
	struct obj o;
	struct tree t;
	struct fte f;
	int bad = 0;

	if (!c2 || !tree(c2, &t))
		return 0x100;
	/* its own handles, the parent's ids: the kernel says no */
	bad |= (query_table(&t.ft, RX, parent->ft.id, out) != EINVAL) << 0;
	bad |= (modify_miss(&t.ft, parent->ft.id, 0, out) != EINVAL) << 1;
	/* firmware: not the child's table, counter, destination */
	bad |= (group(c2, parent->ft.id, 8, 9, &o, out) ||
		out_syndrome(out) != SYND_NOT_OWNER) << 2;
	f = fwd_count(parent, 0);
	bad |= (entry(c2, &f, &o, out) ||
		out_syndrome(out) != SYND_NOT_OWNER) << 3;
	f = fwd_count(&t, 0);
	f.dest = parent->next.id;
	bad |= (entry(c2, &f, &o, out) ||
		out_status(out) != MT_STAT_BAD_RESOURCE ||
		out_syndrome(out) != SYND_NOT_OWNER) << 4;
	f = fwd_count(&t, 0);
	f.counter = parent->cnt.id;
	bad |= (entry(c2, &f, &o, out) ||
		out_syndrome(out) != SYND_NOT_OWNER) << 5;
	/* its own works */
	f = fwd_count(&t, 0);
	bad |= !entry(c2, &f, &o, out) << 6;
	if (o.h)
		bad |= (mlx5dv_devx_obj_destroy(o.h) != 0) << 7;
	tree_free(&t);
	ibv_close_device(c2);
	return bad;
}

MT_TEST_F(mt_ctx, two_processes_isolated)
{
	uint32_t out[PRM_QUERY_FLOW_TABLE_OUT_BYTES / 4];
	struct tree t;
	pid_t pid;

	if (!CHECK(tree(self->ctx, &t)))
		goto out;
	fflush(stdout);
	pid = mt_fork();
	if (pid == 0)
		_exit(child_tries(&t) ? 1 : 0);
	CHECK_EQ(mt_reap(pid), 0);
	CHECK_ERR(query_table(&t.ft, RX, t.ft.id, out), 0);
	if (mt_sim())
		mt_fw_check_owner("flow_table", t.ft.id, self->uid);
out:
	tree_free(&t);
	return KSFT_PASS;
}

static const char *const fs_types[] = {
	"flow_table", "flow_group", "fte", "flow_counter", "modify_hdr",
	"pkt_reformat",
};

/* Arm fault injection for the command of step @fail_at. */
#define STEP(expr)							\
	((step++ == fail_at && mt_fw_fail_next(1)) ? false : (expr))

/*
 * Build a whole tree: three tables (one the miss of another), two groups,
 * a counter and a bulk, a modify header and a reformat context, two
 * entries (one counting inside the bulk).  With @fail_at >= 0 the
 * command of that step fails and the build stops there.
 * Return: how many objects were made, or -1.
 */
static int build_full_tree(struct ibv_context *ctx, int fail_at)
{
	uint32_t out[FTE_OUT_BYTES / 4];
	struct obj o[7] = {};
	struct tree t;
	struct fte f, g;
	int step = 0;

	memset(&t, 0, sizeof(t));
	if (!STEP(table(ctx, RX, 1, 4, 0, &t.ft, out)) ||
	    !STEP(table(ctx, RX, 5, 4, 0, &t.next, out)) ||
	    !STEP(table(ctx, RX, 0, 4, t.ft.id, &o[0], out)) ||
	    !STEP(group(ctx, t.ft.id, 0, 7, &t.fg, out)) ||
	    !STEP(group(ctx, t.ft.id, 8, 15, &o[1], out)) ||
	    !STEP(counter(ctx, 0, &t.cnt)) ||
	    !STEP(counter(ctx, 4, &o[2])) ||
	    !STEP(modhdr(ctx, RX, 0x5, 0, 16, &o[3], out)) ||
	    !STEP(reformat(ctx, 14, &o[4], out)))
		return -1;
	f = fwd_count(&t, 1);
	f.action |= ACT_MOD_HDR;
	f.modhdr = o[3].id;
	g = fwd_count(&t, 2);
	g.counter = o[2].id + 3;	/* inside the bulk */
	if (!STEP(entry(ctx, &f, &o[5], out)) ||
	    !STEP(entry(ctx, &g, &o[6], out)))
		return -1;
	return step + 2;
}

#define FULL_TREE_STEPS	11

static bool none_left(int uid)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < MT_ARRAY_SIZE(fs_types); i++)
		ok &= CHECK_EQ(mt_fw_count(fs_types[i], uid), 0);
	return ok;
}

/*
 * Closing a context with a whole tree in place leaves nothing (and the
 * teardown checks the model holds what it held before).
 */
MT_TEST_F(mt_ctx, teardown_full_tree)
{
	CHECK_EQ(build_full_tree(self->ctx, -1), FULL_TREE_STEPS + 2);
	CHECK_EQ(mt_fw_count("fte", self->uid), 2);
	CHECK_EQ(mt_fw_count("flow_table", self->uid), 3);
	CHECK_EQ(ibv_close_device(self->ctx), 0);
	self->ctx = NULL;
	none_left(self->uid);
	return KSFT_PASS;
}

static const int fault_ops[] = {
	PRM_OP_CREATE_FLOW_TABLE, PRM_OP_CREATE_FLOW_GROUP,
	PRM_OP_ALLOC_FLOW_COUNTER, PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT,
	PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT, PRM_OP_SET_FLOW_TABLE_ENTRY,
};

#define FAULT_PARTS	(MT_ARRAY_SIZE(fault_ops) + FULL_TREE_STEPS)

/*
 * Each create failing in turn, by opcode (parts 0 to 5) and by position
 * (the parts after): the build stops with firmware's INTERNAL_ERR, and
 * what was made goes with the context.
 */
MT_TEST_F_PARTS(mt_ctx, creation_under_fault_injection)
{
	unsigned int ops = MT_ARRAY_SIZE(fault_ops);
	struct ibv_context *ctx = self->ctx;
	int uid = self->uid;

	if (i < ops) {
		CHECK_EQ(mt_fw_fail_opcode(fault_ops[i]), 0);
		CHECK_EQ(build_full_tree(ctx, -1), -1);
		CHECK_ERR(errno, EREMOTEIO);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
	} else {
		CHECK_EQ(build_full_tree(ctx, i - ops), -1);
		CHECK_ERR(errno, EREMOTEIO);
	}
	CHECK_EQ(ibv_close_device(ctx), 0);
	self->ctx = NULL;
	if (!none_left(uid) && i < ops)
		mt_diag("failing opcode 0x%x", fault_ops[i]);
	else if (!none_left(uid))
		mt_diag("failing step %u", i - ops);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_devx_ctx_fixture, tables_create_query_modify_destroy),
	MT_CASE_ON(mt_devx_ctx_fixture, vport_fields_refused),
	MT_CASE_ON(mt_devx_ctx_fixture, groups_ranges_and_busy_table),
	MT_CASE_ON(mt_devx_ctx_fixture, entries_rules_modify_references),
	MT_CASE_ON(mt_devx_ctx_fixture, bulk_counter_query_range),
	MT_CASE_ON(mt_devx_ctx_fixture, modify_header_and_reformat),
	MT_CASE_ON(mt_devx_ctx_fixture, two_processes_isolated),
	MT_CASE_ON(mt_devx_ctx_fixture, teardown_full_tree,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON_PARTS(mt_devx_ctx_fixture, creation_under_fault_injection,
			 FAULT_PARTS, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
