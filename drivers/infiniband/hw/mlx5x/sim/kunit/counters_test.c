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

	/* a new set: every statistic is zero */
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
 * What the data path counts (sim_qc_count()) is each in its own field of
 * QUERY_Q_COUNTER's output; clear starts the set from zero; a set that is
 * not there (0, or freed) counts nothing.
 */
static void sk_q_counter_counts(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 id;
	void *out;

	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, 0, &id), PRM_STAT_OK);
	sim_qc_count(sim, id, SIM_QC_RX_WRITE);
	sim_qc_count(sim, id, SIM_QC_RX_WRITE);
	sim_qc_count(sim, id, SIM_QC_RX_READ);
	sim_qc_count(sim, id, SIM_QC_OUT_OF_BUFFER);
	sim_qc_count(sim, id, SIM_QC_RNR_NAK_RETRY_ERR);
	sim_qc_count(sim, id, SIM_QC_REQ_CQE_FLUSH_ERROR);
	sim_qc_count(sim, 0, SIM_QC_RX_READ);
	sim_qc_count(sim, id + 1, SIM_QC_RX_READ);
	KUNIT_ASSERT_EQ(test, sk_query_q_counter(test, 0, id, true, &out),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_q_counter_out, out,
				      rx_write_requests), 2);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_q_counter_out, out,
				      rx_read_requests), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_q_counter_out, out,
				      rx_atomic_requests), 0);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_q_counter_out, out,
				      out_of_buffer), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_q_counter_out, out,
				      rnr_nak_retry_err), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_q_counter_out, out,
				      req_cqe_flush_error), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_q_counter_out, out,
				      resp_cqe_flush_error), 0);
	/* cleared by the query that read them */
	KUNIT_ASSERT_EQ(test, sk_query_q_counter(test, 0, id, false, &out),
			PRM_STAT_OK);
	KUNIT_EXPECT_FALSE(test, memchr_inv(out, 0,
					    PRM_BYTES(query_q_counter_out)));
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, 0, id), PRM_STAT_OK);
	sim_qc_count(sim, id, SIM_QC_RX_READ);
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
	sk_fc(test, b)->stat[0].packets = 3;
	sk_fc(test, b)->stat[0].octets = 0x100000000ULL + 192;
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
	KUNIT_EXPECT_EQ(test, sk_fc(test, b)->stat[0].packets, 0);
	KUNIT_EXPECT_EQ(test, sk_fc(test, b)->stat[0].octets, 0);

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

static u8 sk_alloc_fc_bulk(struct kunit *test, u16 uid, u32 bulk, u32 log,
			   u32 *id)
{
	size_t inlen = PRM_BYTES(alloc_flow_counter_in);
	size_t outlen = PRM_BYTES(alloc_flow_counter_out);
	void *in = sk_mbox(test, inlen);
	void *out = sk_mbox(test, outlen);
	u8 status;

	PRM_SET(alloc_flow_counter_in, in, opcode,
		MLX5_CMD_OP_ALLOC_FLOW_COUNTER);
	prm_in_set_uid(in, uid);
	PRM_SET(alloc_flow_counter_in, in, flow_counter_bulk, bulk);
	PRM_SET(alloc_flow_counter_in, in, flow_counter_bulk_log_size, log);
	status = sk_exec(test, in, inlen, out, outlen);
	if (id)
		*id = PRM_GET(alloc_flow_counter_out, out, flow_counter_id);
	return status;
}

/* Bulks of the advertised sizes: aligned, never sharing an id. */
static void sk_flow_counter_bulk(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 max_log = SIM_CAP_GEN(sim, log_max_flow_counter_bulk);
	u32 one, a, b, c;

	KUNIT_ASSERT_GT(test, max_log, 0);
	KUNIT_ASSERT_NE(test, SIM_CAP_GEN(sim, flow_counter_bulk_alloc), 0);
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &one),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_fc_bulk(test, 0, 0, 2, &a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, a % 4, 0);
	KUNIT_ASSERT_EQ(test, sk_alloc_fc_bulk(test, 0, MLX5_FC_BULK_256, 0,
					       &b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, b % 256, 0);
	KUNIT_EXPECT_NE(test, b, a);
	/* single counters skip every id of a bulk */
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &c), PRM_STAT_OK);
	KUNIT_EXPECT_TRUE(test, c < a || c >= a + 4);
	KUNIT_EXPECT_TRUE(test, c < b || c >= b + 256);
	KUNIT_EXPECT_EQ(test, sk_live(test), 4);
	/* an id inside a bulk is no object of its own */
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, a + 1),
			PRM_STAT_BAD_RESOURCE);
	/* sizes not offered, both fields at once */
	KUNIT_EXPECT_EQ(test, sk_alloc_fc_bulk(test, 0, 0, max_log + 1, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_alloc_fc_bulk(test, 0, 3, 0, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_alloc_fc_bulk(test, 0, 1, 1, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, b), PRM_STAT_OK);
	/* the ids come back */
	KUNIT_EXPECT_EQ(test, sk_alloc_fc_bulk(test, 0, 0, 2, &b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, b, a);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, c), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, 0, one),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A query names any counter of a bulk and a range inside it. */
static void sk_flow_counter_bulk_query(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	void *stats;
	u32 base;

	KUNIT_ASSERT_EQ(test, sk_alloc_fc_bulk(test, uid, 0, 3, &base),
			PRM_STAT_OK);
	sk_fc(test, base)->stat[5].packets = 7;
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, uid, base + 4, 4,
						    true, 5 * SK_FC_OUT_BYTES,
						    &stats),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET64(traffic_counter, (u8 *)stats +
					PRM_BYTES(traffic_counter), packets),
			7);
	KUNIT_EXPECT_EQ(test, sk_fc(test, base)->stat[5].packets, 0);
	/* past the end of the bulk */
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, uid, base + 4, 5,
						    false, 6 * SK_FC_OUT_BYTES,
						    NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, uid, base + 8, 1,
						    false, SK_FC_OUT_BYTES,
						    NULL),
			PRM_STAT_BAD_RESOURCE);
	/* no room for four */
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, uid, base, 4, false,
						    2 * SK_FC_OUT_BYTES, NULL),
			PRM_STAT_BAD_OUTPUT_LEN);
	/* another uid */
	KUNIT_EXPECT_EQ(test, sk_query_flow_counter(test, 0, base + 1, 1,
						    false, SK_FC_OUT_BYTES,
						    NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_flow_counter(test, uid, base),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

static void sk_flow_counter_query_bad(struct kunit *test)
{
	size_t hdr = PRM_BYTES(query_flow_counter_out);
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, 0, &id),
			PRM_STAT_OK);
	/* one counter, not two */
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
	KUNIT_CASE(sk_q_counter_counts),
	KUNIT_CASE(sk_flow_counter_alloc_query_dealloc),
	KUNIT_CASE(sk_flow_counter_bulk),
	KUNIT_CASE(sk_flow_counter_bulk_query),
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
