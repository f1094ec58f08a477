// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: Q counters and flow counters (ALLOC/DEALLOC/QUERY of each).
 */
#include <linux/string.h>
#include "sim_kunit.h"

static u8 sk_query_q_counter(struct kunit *test, u16 uid, u32 id, bool clear,
			     void **outp)
{
	void *in = SK_MBOX(test, query_q_counter_in);
	void *out = SK_MBOX(test, query_q_counter_out);

	PRM_SET(query_q_counter_in, in, opcode, MLX5_CMD_OP_QUERY_Q_COUNTER);
	prm_in_set_uid(in, uid);
	PRM_SET(query_q_counter_in, in, counter_set_id, id);
	PRM_SET(query_q_counter_in, in, clear, clear);
	memset(out, 0xff, PRM_BYTES(query_q_counter_out));
	if (outp)
		*outp = out;
	return sk_exec(test, in, PRM_BYTES(query_q_counter_in), out,
		       PRM_BYTES(query_q_counter_out));
}

#define SK_FC_OUT_BYTES	\
	(PRM_BYTES(query_flow_counter_out) + PRM_BYTES(traffic_counter))

static u8 sk_query_flow_counter(struct kunit *test, u16 uid, u32 id,
				unsigned int num, bool clear, size_t outlen,
				void **stats)
{
	void *in = SK_MBOX(test, query_flow_counter_in);
	void *out = sk_mbox(test, outlen);

	PRM_SET(query_flow_counter_in, in, opcode,
		MLX5_CMD_OP_QUERY_FLOW_COUNTER);
	prm_in_set_uid(in, uid);
	PRM_SET(query_flow_counter_in, in, flow_counter_id, id);
	PRM_SET(query_flow_counter_in, in, num_of_counters, num);
	PRM_SET(query_flow_counter_in, in, clear, clear);
	if (stats)
		*stats = PRM_ADDR(query_flow_counter_out, out, flow_statistics);
	return sk_exec(test, in, PRM_BYTES(query_flow_counter_in), out,
		       outlen);
}

static struct sim_flow_counter *sk_fc(struct kunit *test, u32 id)
{
	struct sim_obj *obj = xa_load(&sk_sim(test)->objs[SIM_OBJ_FLOW_COUNTER],
				      id);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return container_of(obj, struct sim_flow_counter, obj);
}

/* ---- Q counters ---- */

static void sk_q_counter_alloc_query_dealloc(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	u32 a, b;
	void *out;

	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, 0, &a), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, uid, &b), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, a, 0);
	KUNIT_EXPECT_NE(test, b, 0);
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, sk_live(test), 3);

	/* no traffic in the model: every statistic is zero */
	KUNIT_EXPECT_EQ(test, sk_query_q_counter(test, uid, b, false, &out),
			PRM_STAT_OK);
	KUNIT_EXPECT_FALSE(test, memchr_inv(out, 0,
					    PRM_BYTES(query_q_counter_out)));
	KUNIT_EXPECT_EQ(test, sk_query_q_counter(test, 0, a, true, NULL),
			PRM_STAT_OK);

	/* ownership */
	KUNIT_EXPECT_EQ(test, sk_query_q_counter(test, 0, b, false, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, 0, b),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);

	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, uid, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, 0, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_query_q_counter(test, 0, a, false, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, 0, a),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * As many Q counters as max_qp_cnt says, every id fitting the 8-bit
 * counter_set_id, then NO_RESOURCES.
 */
static void sk_q_counter_exhaustion(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 max = SIM_CAP_GEN(sim, max_qp_cnt);
	u32 i, id;

	KUNIT_ASSERT_GT(test, max, 0);
	for (i = 0; i < max; i++) {
		KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, 0, &id),
				PRM_STAT_OK);
		KUNIT_EXPECT_NE(test, id, 0);
		KUNIT_EXPECT_PTR_NE(test,
				    xa_load(&sim->objs[SIM_OBJ_Q_COUNTER], id),
				    NULL);
	}
	KUNIT_EXPECT_EQ(test, sk_alloc_q_counter(test, 0, &id),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_live(test), max);
	/* every object is reachable by the id the command returned */
	for (i = 1; i <= max; i++)
		KUNIT_EXPECT_EQ_MSG(test, sk_dealloc_q_counter(test, 0, i),
				    PRM_STAT_OK, "counter_set_id %u", i);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* ---- flow counters ---- */

static void sk_flow_counter_alloc_query_dealloc(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	void *stats;
	u32 a, b;

	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &a), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, uid, &b),
			PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, a, 0);
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, sk_live(test), 3);

	KUNIT_ASSERT_EQ(test, sk_query_flow_counter(test, 0, a, 0, false,
						    SK_FC_OUT_BYTES, &stats),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET64(traffic_counter, stats, packets), 0);
	KUNIT_EXPECT_EQ(test, PRM_GET64(traffic_counter, stats, octets), 0);

	/* what the (future) datapath counted, read and then cleared */
	sk_fc(test, b)->packets = 3;
	sk_fc(test, b)->octets = 0x100000000ULL + 192;
	KUNIT_ASSERT_EQ(test, sk_query_flow_counter(test, uid, b, 1, false,
						    SK_FC_OUT_BYTES, &stats),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET64(traffic_counter, stats, packets), 3);
	KUNIT_EXPECT_EQ(test, PRM_GET64(traffic_counter, stats, octets),
			0x100000000ULL + 192);
	KUNIT_ASSERT_EQ(test, sk_query_flow_counter(test, uid, b, 1, true,
						    SK_FC_OUT_BYTES, &stats),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET64(traffic_counter, stats, packets), 3);
	KUNIT_EXPECT_EQ(test, sk_fc(test, b)->packets, 0);
	KUNIT_EXPECT_EQ(test, sk_fc(test, b)->octets, 0);

	/* ownership */
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, 0, b, 0, false,
						    SK_FC_OUT_BYTES, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, b),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);

	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, uid, b),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, a),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, 0, a, 0, false,
						    SK_FC_OUT_BYTES, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* No bulk allocation is advertised, so none is accepted. */
static void sk_flow_counter_bulk(struct kunit *test)
{
	size_t inlen = PRM_BYTES(alloc_flow_counter_in);
	size_t outlen = PRM_BYTES(alloc_flow_counter_out);
	void *in = sk_mbox(test, inlen);
	void *out = sk_mbox(test, outlen);

	KUNIT_EXPECT_EQ(test, SIM_CAP_GEN(sk_sim(test),
					  log_max_flow_counter_bulk), 0);
	PRM_SET(alloc_flow_counter_in, in, opcode,
		MLX5_CMD_OP_ALLOC_FLOW_COUNTER);
	PRM_SET(alloc_flow_counter_in, in, flow_counter_bulk, 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(alloc_flow_counter_in, in, flow_counter_bulk, 0);
	PRM_SET(alloc_flow_counter_in, in, flow_counter_bulk_log_size, 2);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_flow_counter_query_bad(struct kunit *test)
{
	size_t hdr = PRM_BYTES(query_flow_counter_out);
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &id),
			PRM_STAT_OK);
	/* one counter at a time */
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, 0, id, 2, false,
						    3 * SK_FC_OUT_BYTES, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* room for the header but not for the statistics */
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, 0, id, 1, false, hdr,
						    NULL),
			PRM_STAT_BAD_OUTPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_OUTLEN);
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, 0, id, 1, false,
						    SK_FC_OUT_BYTES - 1, NULL),
			PRM_STAT_BAD_OUTPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, id),
			PRM_STAT_OK);
}

/* What is reported is what is enforced. */
static void sk_counter_limits(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);

	KUNIT_EXPECT_EQ(test, sim->max_id[SIM_OBJ_Q_COUNTER],
			SIM_CAP_GEN(sim, max_qp_cnt));
	KUNIT_EXPECT_EQ(test, sim->max_id[SIM_OBJ_FLOW_COUNTER],
			SIM_CAP_GEN(sim, max_flow_counter_31_16) << 16 |
			SIM_CAP_GEN(sim, max_flow_counter_15_0));
	/* ids must fit the mailbox fields that carry them */
	KUNIT_EXPECT_LE(test, sim->max_id[SIM_OBJ_Q_COUNTER],
			(u32)GENMASK(PRM_BIT_SZ(alloc_q_counter_out,
						counter_set_id) - 1, 0));
}

static void sk_flow_counter_exhaustion(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 a, b;

	sim->max_id[SIM_OBJ_FLOW_COUNTER] = 2;
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &a), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_alloc_flow_counter(test, 0, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, b), PRM_STAT_OK);
}

static struct kunit_case sk_counter_cases[] = {
	KUNIT_CASE(sk_q_counter_alloc_query_dealloc),
	KUNIT_CASE(sk_q_counter_exhaustion),
	KUNIT_CASE(sk_flow_counter_alloc_query_dealloc),
	KUNIT_CASE(sk_flow_counter_bulk),
	KUNIT_CASE(sk_flow_counter_query_bad),
	KUNIT_CASE(sk_counter_limits),
	KUNIT_CASE(sk_flow_counter_exhaustion),
	{}
};

static struct kunit_suite sk_counter_suite = {
	.name = "mlx5x_sim_counters",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_counter_cases,
};

kunit_test_suite(sk_counter_suite);
