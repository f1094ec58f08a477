// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the steering pipeline as a packet walks it: SET_FLOW_TABLE_ROOT,
 * the classifier's trace (groups, entries, counters, header rewrites,
 * forwards, misses, replication, loops) and its cost.
 */
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "sk_fs.h"
#include "../steering/classify.h"

#define RX	MLX5_FLOW_TABLE_TYPE_NIC_RX
#define TX	MLX5_FLOW_TABLE_TYPE_NIC_TX
#define OUTER	BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_OUTER_HEADERS)
#define MISC	BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_MISC_PARAMETERS)
#define A_FWD	MLX5_FLOW_CONTEXT_ACTION_FWD_DEST
#define A_DROP	MLX5_FLOW_CONTEXT_ACTION_DROP
#define A_COUNT	MLX5_FLOW_CONTEXT_ACTION_COUNT
#define A_MOD	MLX5_FLOW_CONTEXT_ACTION_MOD_HDR
#define DEST_FT	MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE
#define FT_LOG	16	/* every table has room for 64k entries */
#define TRACE	16384

/* ---- teardown ---- */

/*
 * Destroy what a case built, as a driver would: the roots, then entries,
 * groups, tables (a miss chain in several passes), contexts, counters.
 */
static void sc_teardown(struct kunit *test)
{
	static const enum sim_obj_type order[] = {
		SIM_OBJ_FTE, SIM_OBJ_FLOW_GROUP, SIM_OBJ_FLOW_TABLE,
		SIM_OBJ_MODIFY_HDR, SIM_OBJ_FLOW_COUNTER,
	};
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cmd_ctx ctx = {};
	struct sim_obj *obj;
	unsigned long id;
	unsigned int i;
	bool again;

	mutex_lock(&sim->lock);
	sim_fs_roots_drop(sim);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		do {
			again = false;
			xa_for_each(&sim->objs[order[i]], id, obj) {
				if (!sim_obj_destroy(sim, &ctx, order[i], id))
					again = true;
				/* 64k entries: a kernel without preemption */
				cond_resched();
			}
		} while (again);
	}
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* ---- packets ---- */

/* Ethernet + IPv4 + TCP to @dport; 54 bytes. */
static size_t sc_tcp4(u8 *p, u16 dport)
{
	static const u8 hdr[54] = {
		0x02, 0, 0, 0, 0, 0x01,  0x02, 0, 0, 0, 0, 0x02,  0x08, 0x00,
		0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 6, 0, 0,
		10, 0, 0, 1,  10, 0, 0, 2,
		0x30, 0x39, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x02,
		0xff, 0xff, 0, 0, 0, 0,
	};

	memcpy(p, hdr, sizeof(hdr));
	p[36] = dport >> 8;
	p[37] = dport & 0xff;
	return sizeof(hdr);
}

/* Classify a TCP packet to @dport; the trace, or NULL on failure. */
static char *sc_classify(struct kunit *test, bool tx, u16 dport)
{
	char *trace = sk_mbox(test, TRACE);
	u8 pkt[64];
	size_t len = sc_tcp4(pkt, dport);
	int ret;

	ret = mlx5x_sim_classify(sk_sim(test), tx, 1, pkt, len, trace, TRACE);
	KUNIT_EXPECT_GT(test, ret, 0);
	return ret > 0 ? trace : NULL;
}

static int sc_count(const char *s, const char *what)
{
	int n = 0;

	while (s && (s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

#define SC_HAS(test, trace, fmt, ...) do {				\
	const char *__t = (trace);					\
	char __w[128];							\
	snprintf(__w, sizeof(__w), fmt, ##__VA_ARGS__);			\
	KUNIT_EXPECT_TRUE_MSG(test, __t && strstr(__t, __w),		\
			      "no \"%s\" in:\n%s", __w, __t);		\
} while (0)

/* ---- cases ---- */

/* No root: a received packet goes to the port's default, a sent one out. */
static void sc_no_root(struct kunit *test)
{
	char *trace = sk_mbox(test, TRACE);
	u8 pkt[64];
	size_t len = sc_tcp4(pkt, 80);

	SC_HAS(test, sc_classify(test, false, 80), "root table=none\nverdict to=default\n");
	SC_HAS(test, sc_classify(test, true, 80), "verdict to=wire\n");
	KUNIT_EXPECT_EQ(test, mlx5x_sim_classify(sk_sim(test), false, 2, pkt,
						 len, trace, TRACE), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_classify(sk_sim(test), false, 1, pkt,
						 10, trace, TRACE), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_classify(sk_sim(test), false, 1, pkt,
						 len, trace, 8), -ENOSPC);
}

/* The root is the kernel's; it holds its table; op_mod 1 disconnects. */
static void sc_root_rules(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	u32 ft, uft;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, FT_LOG, 0, &ft),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, uid, RX, 0, FT_LOG, 0, &uft),
			PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_ft_root(test, uid, 0, RX, uft),
		       PRM_STAT_BAD_PARAM, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_ft_root(test, 0, 0, RX, uft),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_ft_root(test, 0, 0, TX, ft),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	SK_EXPECT_FAIL(test, sk_ft_root(test, 0, 0, 3, ft), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_ft_root(test, 0, 2, RX, ft), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_OPMOD);
	KUNIT_EXPECT_EQ(test, sk_ft_root(test, 0, 0, RX, ft), PRM_STAT_OK);
	SC_HAS(test, sc_classify(test, false, 80), "table id=0x%x type=rx level=0 uid=0\nmiss table=default\nverdict to=default\n", ft);
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, 0, RX, ft),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	SK_EXPECT_FAIL(test, sk_ft_root(test, 0, 1, RX, ft), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_ft_root(test, 0, 1, RX, 0), PRM_STAT_OK);
	SC_HAS(test, sc_classify(test, false, 80), "root table=none");
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, ft), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, uid, RX, uft), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * The shared resource uid: flow steering commands take it; its objects
 * may be referenced by any context, and may reference the kernel's.
 */
static void sc_shared_uid(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid = sk_new_uctx(test);
	struct sim_cmd_ctx user = { .uid = uid }, shared = {
		.uid = SIM_SHARED_UID };
	struct sim_obj *obj;
	u32 st, kt;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, SIM_SHARED_UID, RX, 32, FT_LOG,
					   0, &st), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, FT_LOG, 0, &kt),
			PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_alloc_pd(test, SIM_SHARED_UID, NULL),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_UID);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sim_obj_ref(sim, &user, SIM_OBJ_FLOW_TABLE, st,
					  &obj), PRM_STAT_OK);
	sim_obj_put(obj);
	KUNIT_EXPECT_EQ(test, sim_obj_ref(sim, &shared, SIM_OBJ_FLOW_TABLE, kt,
					  &obj), PRM_STAT_OK);
	sim_obj_put(obj);
	KUNIT_EXPECT_EQ(test, sim_obj_ref(sim, &user, SIM_OBJ_FLOW_TABLE, kt,
					  &obj), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, user.syndrome, SIM_SYND_NOT_OWNER);
	mutex_unlock(&sim->lock);
	/* only its owner destroys it */
	SK_EXPECT_FAIL(test, sk_ft_destroy(test, uid, RX, st),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, SIM_SHARED_UID, RX, st),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, kt), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * Root T0 (level 0): port 80 forwards to T1, whose entry counts and drops;
 * anything else misses to the default.  The counter counts each packet.
 */
static void sc_forward_count_drop(struct kunit *test)
{
	u32 t0, t1, g0, g1, cnt;
	struct sk_fte e0, e1;
	char *trace;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, FT_LOG, 0, &t0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, FT_LOG, 0, &t1),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t0, 0, 9, &g0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t1, 0, 9, &g1),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &cnt),
			PRM_STAT_OK);
	e0 = (struct sk_fte){ .type = RX, .ft = t0, .fg = g0, .index = 3,
			      .dport = 80, .action = A_FWD, .ndest = 1,
			      .dest_type = { DEST_FT }, .dest = { t1 },
			      .flow_tag = 0x12 };
	e1 = (struct sk_fte){ .type = RX, .ft = t1, .fg = g1, .index = 0,
			      .dport = 80, .action = A_COUNT | A_DROP,
			      .ncnt = 1, .cnt = { cnt } };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e0), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e1), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0, RX, t0), PRM_STAT_OK);

	trace = sc_classify(test, false, 80);
	SC_HAS(test, trace, "packet dir=rx port=1 len=54\ntable id=0x%x type=rx level=0 uid=0\n", t0);
	SC_HAS(test, trace, "group id=0x%x start=0 end=9 result=hit", g0);
	SC_HAS(test, trace, "index=3 uid=0\ntag value=0x12\nforward table=0x%x\n", t1);
	SC_HAS(test, trace, "table id=0x%x type=rx level=1", t1);
	SC_HAS(test, trace, "counter id=0x%x packets=1 bytes=54\nverdict to=drop\n", cnt);
	KUNIT_EXPECT_EQ(test, sc_count(trace, "verdict"), 1);
	SC_HAS(test, sc_classify(test, false, 80), "counter id=0x%x packets=2 bytes=108\n", cnt);

	trace = sc_classify(test, false, 81);
	SC_HAS(test, trace, "group id=0x%x start=0 end=9 result=miss\nmiss table=default\nverdict to=default\n", g0);
	KUNIT_EXPECT_EQ(test, sc_count(trace, "counter"), 0);
	/* a transmitted packet does not see receive tables */
	SC_HAS(test, sc_classify(test, true, 80), "root table=none\nverdict to=wire\n");
	sc_teardown(test);
}

/* A table's miss table; two destinations replicate; a loop is cut. */
static void sc_miss_replicate_loop(struct kunit *test)
{
	u32 t0, t1, t2, g0, g1, g2;
	struct sk_fte e;
	char *trace;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 2, FT_LOG, 0, &t2),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, FT_LOG, 0, &t1),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, FT_LOG, t2, &t0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t0, 0, 9, &g0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t1, 0, 9, &g1),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t2, 0, 9, &g2),
			PRM_STAT_OK);
	e = (struct sk_fte){ .type = RX, .ft = t2, .fg = g2, .index = 0,
			     .dport = 22, .action = A_DROP };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0, RX, t0), PRM_STAT_OK);
	trace = sc_classify(test, false, 22);
	SC_HAS(test, trace, "result=miss\nmiss table=0x%x\ntable id=0x%x type=rx level=2", t2, t2);
	SC_HAS(test, trace, "verdict to=drop\n");

	/* port 80: a copy to T1 (no entry: default) and one to T2 (drop) */
	e = (struct sk_fte){ .type = RX, .ft = t0, .fg = g0, .index = 0,
			     .dport = 80, .action = A_FWD, .ndest = 2,
			     .dest_type = { DEST_FT, DEST_FT },
			     .dest = { t1, t2 } };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	e = (struct sk_fte){ .type = RX, .ft = t2, .fg = g2, .index = 1,
			     .dport = 80, .action = A_DROP };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	trace = sc_classify(test, false, 80);
	KUNIT_EXPECT_EQ(test, sc_count(trace, "verdict"), 2);
	SC_HAS(test, trace, "forward table=0x%x\nforward table=0x%x\ntable id=0x%x", t1, t2, t1);
	SC_HAS(test, trace, "verdict to=default\ntable id=0x%x", t2);
	SC_HAS(test, trace, "verdict to=drop\n");

	/* port 90: T0 to T1 and back, ignoring levels: the walk stops */
	e = (struct sk_fte){ .type = RX, .ft = t0, .fg = g0, .index = 1,
			     .dport = 90, .action = A_FWD, .ndest = 1,
			     .dest_type = { DEST_FT }, .dest = { t1 } };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	e = (struct sk_fte){ .type = RX, .ft = t1, .fg = g1, .index = 1,
			     .dport = 90, .action = A_FWD, .ndest = 1,
			     .dest_type = { DEST_FT }, .dest = { t0 },
			     .ignore_level = true };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	trace = sk_mbox(test, 64 * 1024);
	{
		u8 pkt[64];
		size_t len = sc_tcp4(pkt, 90);

		KUNIT_EXPECT_GT(test, mlx5x_sim_classify(sk_sim(test), false,
							 1, pkt, len, trace,
							 64 * 1024), 0);
	}
	KUNIT_EXPECT_EQ(test, sc_count(trace, "verdict"), 1);
	SC_HAS(test, trace, "verdict to=loop");
	sc_teardown(test);
}

/* A modify header rewrites the port; the next table matches the new one. */
static void sc_modify_header(struct kunit *test)
{
	static const struct sk_mh_act set_dport = {
		.type = MLX5_ACTION_TYPE_SET,
		.field = MLX5_ACTION_IN_FIELD_OUT_TCP_DPORT, .length = 16,
		.data = 443,
	};
	u32 t0, t1, g0, g1, mh;
	struct sk_fte e;
	char *trace;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, FT_LOG, 0, &t0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, FT_LOG, 0, &t1),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t0, 0, 9, &g0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t1, 0, 9, &g1),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_modhdr_alloc(test, 0, RX, 1, &set_dport, 0,
					      &mh), PRM_STAT_OK);
	e = (struct sk_fte){ .type = RX, .ft = t0, .fg = g0, .index = 0,
			     .dport = 80, .action = A_FWD | A_MOD,
			     .modhdr = mh, .ndest = 1,
			     .dest_type = { DEST_FT }, .dest = { t1 } };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	e = (struct sk_fte){ .type = RX, .ft = t1, .fg = g1, .index = 0,
			     .dport = 443, .action = A_DROP };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0, RX, t0), PRM_STAT_OK);
	trace = sc_classify(test, false, 80);
	SC_HAS(test, trace, "modify id=0x%x action=set field=tcp_dport old=0x50 new=0x1bb\n", mh);
	SC_HAS(test, trace, "table id=0x%x type=rx level=1 uid=0\ngroup id=0x%x start=0 end=9 result=hit", t1, g1);
	SC_HAS(test, trace, "verdict to=drop\n");
	sc_teardown(test);
}

/*
 * Classification cost: one group with 1 and with SC_BIG entries, and 64
 * groups (a packet of the last group's port misses 63 groups first): a
 * lookup costs the same however full its group is.  Insertion rate at
 * 1k and SC_BIG entries.  Small enough for KUnit's emulated guest, and
 * below the 2^16 values of the one field (TCP port) its group matches;
 * userspace/bench/mlx5x_flow_bench measures insertion through
 * mlx5dv_create_flow at 1k and 100k rules.
 */
#define SC_BIG		16384
#define SC_ITER		200
#define SC_PER_GROUP	16
static u64 sc_cost(struct kunit *test, u16 dport, unsigned int n)
{
	char *trace = kunit_kzalloc(test, TRACE, GFP_KERNEL);
	u8 pkt[64];
	size_t len = sc_tcp4(pkt, dport);
	unsigned int i;
	u64 t0;

	KUNIT_ASSERT_NOT_NULL(test, trace);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		mlx5x_sim_classify(sk_sim(test), false, 1, pkt, len, trace,
				   TRACE);
		cond_resched();
	}
	return (ktime_get_ns() - t0) / n;
}

/* Entries from..from + n - 1 of @fg, each dropping its own port, timed. */
static u64 sc_fill(struct kunit *test, u32 ft, u32 fg, u32 from, u32 n)
{
	const struct sk_fte e = { .type = RX, .ft = ft, .fg = fg,
				  .action = A_DROP };
	void *out = SK_MBOX(test, set_fte_out);
	size_t inlen;
	void *in = sk_fte_in(test, &e, &inlen);
	void *v = PRM_ADDR(set_fte_in, in, flow_context.match_value);
	u64 t0 = ktime_get_ns();
	u32 i;

	/* one mailbox, its index and port rewritten for each entry */
	for (i = from; i < from + n; i++) {
		PRM_SET(set_fte_in, in, flow_index, i);
		PRM_SET(fte_match_param, v, outer_headers.tcp_dport, i);
		if (sk_exec(test, in, inlen, out, PRM_BYTES(set_fte_out)))
			break;
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, i, from + n);
	return ktime_get_ns() - t0;
}

static void sc_bench(struct kunit *test)
{
	u64 ins_1k, ins_64k, c1, cfull, cgroups;
	u32 ft, fg, g;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, FT_LOG, 0, &ft),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, ft, 0, 65535,
						 &fg), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0, RX, ft), PRM_STAT_OK);
	sc_fill(test, ft, fg, 0, 1);
	c1 = sc_cost(test, 0, SC_ITER);
	ins_1k = sc_fill(test, ft, fg, 1, 1024);
	ins_64k = sc_fill(test, ft, fg, 1025, SC_BIG - 1025);
	cfull = sc_cost(test, SC_BIG - 1, SC_ITER);
	kunit_info(test, "insert: %llu rules/s at 1k, %llu rules/s to %u\n",
		   1024ULL * NSEC_PER_SEC / max(ins_1k, 1ULL),
		   (SC_BIG - 1025ULL) * NSEC_PER_SEC / max(ins_64k, 1ULL),
		   SC_BIG);
	kunit_info(test, "classify, one group: %llu ns with 1 rule, %llu ns with %u\n",
		   c1, cfull, SC_BIG);
	sc_teardown(test);
	mlx5x_sim_destroy(sk_sim(test));
	((struct sk_ctx *)test->priv)->sim = NULL;
	sk_init(test);

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, FT_LOG, 0, &ft),
			PRM_STAT_OK);
	for (g = 0; g < 64; g++) {
		void *in = sk_fg_in(test, 0, RX, ft, g * SC_PER_GROUP,
				    g * SC_PER_GROUP + SC_PER_GROUP - 1, OUTER);
		void *m = PRM_ADDR(create_flow_group_in, in, match_criteria);

		/* each group masks different TTL bits too */
		PRM_SET(fte_match_param, m, outer_headers.tcp_dport, 0xffff);
		PRM_SET(fte_match_param, m, outer_headers.ttl_hoplimit, g);
		KUNIT_ASSERT_EQ(test, sk_fg_exec(test, in, &fg), PRM_STAT_OK);
		sc_fill(test, ft, fg, g * SC_PER_GROUP, SC_PER_GROUP);
	}
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0, RX, ft), PRM_STAT_OK);
	/* ttl 64 masks to 0 in every group: the last port misses 63 */
	cgroups = sc_cost(test, 64 * SC_PER_GROUP - 1, SC_ITER);
	kunit_info(test, "classify, 64 groups: %llu ns to reach the last\n",
		   cgroups);
	/* independent of the group's size: well under a linear scan */
	KUNIT_EXPECT_LT(test, cfull, 4 * c1);
	sc_teardown(test);
}

/*
 * A sniffer root: every packet of its direction walks it too, after its
 * own way; a copy no entry takes is discarded; TX tables see none.
 */
static void sc_sniffer(struct kunit *test)
{
	u32 t0, ts, gs, cnt;
	struct sk_fte e;
	char *trace;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, FT_LOG, 0, &t0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0,
					   MLX5_FLOW_TABLE_TYPE_SNIFFER_RX, 0,
					   FT_LOG, 0, &ts), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test,
			sk_fg_create_dport(test, 0,
					   MLX5_FLOW_TABLE_TYPE_SNIFFER_RX, ts,
					   0, 9, &gs),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &cnt),
			PRM_STAT_OK);
	e = (struct sk_fte){ .type = MLX5_FLOW_TABLE_TYPE_SNIFFER_RX,
			     .ft = ts, .fg = gs, .dport = 80,
			     .action = A_COUNT | MLX5_FLOW_CONTEXT_ACTION_ALLOW,
			     .ncnt = 1, .cnt = { cnt } };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0, RX, t0), PRM_STAT_OK);
	/* a sniffer table forwards to no NIC table */
	e = (struct sk_fte){ .type = MLX5_FLOW_TABLE_TYPE_SNIFFER_RX,
			     .ft = ts, .fg = gs, .index = 1, .dport = 81,
			     .action = A_FWD, .ndest = 1,
			     .dest_type = { DEST_FT }, .dest = { t0 },
			     .ignore_level = true };
	SK_EXPECT_FAIL(test, sk_fte_set(test, &e), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	trace = sc_classify(test, false, 80);
	KUNIT_EXPECT_EQ(test, sc_count(trace, "type=sniffer_rx"), 0);
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0,
					 MLX5_FLOW_TABLE_TYPE_SNIFFER_RX, ts),
			PRM_STAT_OK);
	trace = sc_classify(test, false, 80);
	SC_HAS(test, trace, "verdict to=default\ntable id=0x%x type=sniffer_rx level=0 uid=0\n", ts);
	SC_HAS(test, trace, "counter id=0x%x packets=1 bytes=54\nverdict to=discard\n", cnt);
	KUNIT_EXPECT_EQ(test, sc_count(trace, "verdict"), 2);
	trace = sc_classify(test, false, 81);
	SC_HAS(test, trace, "type=sniffer_rx level=0 uid=0\ngroup id=0x%x start=0 end=9 result=miss\nmiss table=default\nverdict to=discard\n", gs);
	trace = sc_classify(test, true, 80);
	KUNIT_EXPECT_EQ(test, sc_count(trace, "sniffer"), 0);
	sc_teardown(test);
}

/* A GRE packet: its flags, protocol and key are what entries match. */
static void sc_parse_gre(struct kunit *test)
{
	static const u8 gre[] = {
		0x02, 0, 0, 0, 0, 0x01,  0x02, 0, 0, 0, 0, 0x02,  0x08, 0x00,
		0x45, 0, 0, 48, 0, 0, 0x40, 0, 64, 47, 0, 0,
		10, 0, 0, 1,  10, 0, 0, 2,
		0x20, 0x00, 0x08, 0x00,  0x00, 0x00, 0xab, 0xcd,
		0x45, 0, 0, 20, 0, 0, 0x40, 0, 64, 17, 0, 0,
		192, 168, 0, 1,  192, 168, 0, 2,
	};
	struct sim_pkt *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	void *misc, *in;

	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(p->data, gre, sizeof(gre));
	p->len = sizeof(gre);
	sim_pkt_parse(p);
	misc = PRM_ADDR(fte_match_param, p->match, misc_parameters);
	in = PRM_ADDR(fte_match_param, p->match, inner_headers);
	KUNIT_EXPECT_EQ(test, PRM_GET(fte_match_set_misc, misc, gre_k_present),
			1);
	KUNIT_EXPECT_EQ(test, PRM_GET(fte_match_set_misc, misc, gre_c_present),
			0);
	KUNIT_EXPECT_EQ(test, PRM_GET(fte_match_set_misc, misc, gre_protocol),
			0x0800);
	KUNIT_EXPECT_EQ(test, PRM_GET(fte_match_set_misc, misc, gre_key.key),
			0xabcd);
	KUNIT_EXPECT_EQ(test, PRM_GET(fte_match_set_lyr_2_4, in, ip_protocol),
			17);
	KUNIT_EXPECT_EQ(test, p->tun_end, 42);
}

static struct kunit_case sc_cases[] = {
	KUNIT_CASE(sc_no_root),
	KUNIT_CASE(sc_root_rules),
	KUNIT_CASE(sc_shared_uid),
	KUNIT_CASE(sc_forward_count_drop),
	KUNIT_CASE(sc_miss_replicate_loop),
	KUNIT_CASE(sc_modify_header),
	KUNIT_CASE(sc_sniffer),
	KUNIT_CASE(sc_parse_gre),
	KUNIT_CASE(sc_bench),
	{}
};

static struct kunit_suite sc_suite = {
	.name = "mlx5x_sim_classify",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sc_cases,
};

kunit_test_suite(sc_suite);
