// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: DC: CREATE_DCT's rules and references (a DCT always receives
 * through an SRQ of its context), QUERY_DCT, DRAIN_DCT and DESTROY_DCT,
 * DCT numbers apart from QP numbers; and what CREATE_QP checks of a
 * DCI.
 */
#include "sk_queues.h"

#define SK_DCT_KEY	0x0123456789abcdefULL
#define SK_DCT_UIDX	9

/* An RMP in RDY: a linked list of 16 WQEs of 64 bytes. */
static u8 sk_dct_rmp(struct kunit *test, const struct sk_q *r, u32 *rmpn)
{
	void *in = SK_MBOX(test, create_rmp_in);
	void *rmpc = PRM_ADDR(create_rmp_in, in, ctx);
	void *wq = PRM_ADDR(rmpc, rmpc, wq);

	PRM_SET(create_rmp_in, in, opcode, MLX5_CMD_OP_CREATE_RMP);
	PRM_SET(create_rmp_in, in, uid, r->uid);
	PRM_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	sk_wq_fill(wq, r, 6);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST);
	return sk_q_create(test, in, PRM_BYTES(create_rmp_in),
			   PRM_BYTES(create_rmp_out), rmpn);
}

/* A DCT of @r on its PD, CQ @cqn and RMP @rmpn, as mlx5x makes it. */
static void *sk_dct_in(struct kunit *test, const struct sk_q *r, u32 cqn,
		       u32 rmpn)
{
	void *in = SK_MBOX(test, create_dct_in);
	void *c = PRM_ADDR(create_dct_in, in, dct_context_entry);

	PRM_SET(create_dct_in, in, opcode, MLX5_CMD_OP_CREATE_DCT);
	PRM_SET(create_dct_in, in, uid, r->uid);
	PRM_SET(dctc, c, pd, r->pd);
	PRM_SET(dctc, c, cqn, cqn);
	PRM_SET(dctc, c, srqn_xrqn, rmpn);
	PRM_SET(dctc, c, user_index, SK_DCT_UIDX);
	PRM_SET64(dctc, c, dc_access_key, SK_DCT_KEY);
	PRM_SET(dctc, c, rwe, 1);
	PRM_SET(dctc, c, port, 1);
	PRM_SET(dctc, c, mtu, MLX5_QPC_MTU_1K_BYTES);
	PRM_SET(dctc, c, min_rnr_nak, 1);
	return in;
}

static u8 sk_dct_run(struct kunit *test, const void *in, u32 *dctn)
{
	return sk_q_create(test, in, PRM_BYTES(create_dct_in),
			   PRM_BYTES(create_dct_out), dctn);
}

static u8 sk_dct_drain(struct kunit *test, u16 uid, u32 dctn)
{
	void *in = SK_MBOX(test, drain_dct_in);
	void *out = SK_MBOX(test, drain_dct_out);

	PRM_SET(drain_dct_in, in, opcode, MLX5_CMD_OP_DRAIN_DCT);
	PRM_SET(drain_dct_in, in, uid, uid);
	PRM_SET(drain_dct_in, in, dctn, dctn);
	return sk_exec(test, in, PRM_BYTES(drain_dct_in), out,
		       PRM_BYTES(drain_dct_out));
}

/*
 * Created active, numbered apart from the QPs, holding its PD, CQ and
 * SRQ; queried as created; drained once; destroyed, letting them go.
 */
static void sk_dct_lifecycle(struct kunit *test)
{
	void *out = SK_MBOX(test, query_dct_out);
	void *c = PRM_ADDR(query_dct_out, out, dct_context_entry);
	u32 cqn, rmpn, dctn;
	unsigned int pd_users;
	struct sk_q r;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_dct_rmp(test, &r, &rmpn), PRM_STAT_OK);
	pd_users = sk_users(test, SIM_OBJ_PD, r.pd);
	KUNIT_ASSERT_EQ(test, sk_dct_run(test, sk_dct_in(test, &r, cqn, rmpn),
					 &dctn), PRM_STAT_OK);
	KUNIT_EXPECT_GE(test, dctn, SIM_DCTN_BASE);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), pd_users + 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RMP, rmpn), 1);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_DCT, r.uid,
					 dctn, out, PRM_BYTES(query_dct_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(dctc, c, state), MLX5_DCTC_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, PRM_GET64(dctc, c, dc_access_key), SK_DCT_KEY);
	KUNIT_EXPECT_EQ(test, PRM_GET(dctc, c, srqn_xrqn), rmpn);
	KUNIT_EXPECT_EQ(test, PRM_GET(dctc, c, user_index), SK_DCT_UIDX);
	KUNIT_EXPECT_EQ(test, PRM_GET(dctc, c, rwe), 1);
	KUNIT_EXPECT_EQ(test,
			PRM_GET(dctc, c, dc_access_key_violation_count), 0);
	/* no QP has its number; its SRQ is held */
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					  dctn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					  r.uid, rmpn),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_dct_drain(test, r.uid, dctn), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_dct_drain(test, r.uid, dctn),
		       PRM_STAT_BAD_RES_STATE, SIM_SYND_BAD_STATE);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_DCT, r.uid,
					 dctn, out, PRM_BYTES(query_dct_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(dctc, c, state), MLX5_DCTC_STATE_DRAINED);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_DCT,
					   r.uid, dctn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RMP, rmpn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), pd_users);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					   r.uid, rmpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   r.uid, cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * What CREATE_DCT refuses: no SRQ (a DCT always receives through one),
 * another context's PD, CQ or SRQ; a port, P_Key index or MTU the port
 * does not have; the reserved lkey; scatter to CQE.  Another context
 * can neither query, drain nor destroy a DCT.
 */
static void sk_dct_rules(struct kunit *test)
{
	u32 cqn, rmpn, ocqn, ormpn, dctn;
	struct sk_q r, other;
	void *in, *c;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_dct_rmp(test, &r, &rmpn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &other, &ocqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_dct_rmp(test, &other, &ormpn), PRM_STAT_OK);
#define SK_DCT_REFUSED(fld_set, st, synd) do {				\
	in = sk_dct_in(test, &r, cqn, rmpn);				\
	c = PRM_ADDR(create_dct_in, in, dct_context_entry);		\
	fld_set;							\
	SK_EXPECT_FAIL(test, sk_dct_run(test, in, &dctn), (st), (synd)); \
} while (0)
	SK_DCT_REFUSED(PRM_SET(dctc, c, srqn_xrqn, 0),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	SK_DCT_REFUSED(PRM_SET(dctc, c, srqn_xrqn, ormpn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_DCT_REFUSED(PRM_SET(dctc, c, cqn, ocqn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_DCT_REFUSED(PRM_SET(dctc, c, pd, other.pd),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_DCT_REFUSED(PRM_SET(dctc, c, port, 2),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DCT_REFUSED(PRM_SET(dctc, c, pkey_index, 1),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DCT_REFUSED(PRM_SET(dctc, c, mtu, 0),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DCT_REFUSED(PRM_SET(dctc, c, mtu, 6),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DCT_REFUSED(PRM_SET(dctc, c, rlky, 1),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DCT_REFUSED(PRM_SET(dctc, c, cs_res, 1),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
#undef SK_DCT_REFUSED
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RMP, rmpn), 0);
	KUNIT_ASSERT_EQ(test, sk_dct_run(test, sk_dct_in(test, &r, cqn, rmpn),
					 &dctn), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_dct_drain(test, other.uid, dctn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_DCT,
					  other.uid, dctn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_DCT,
					   r.uid, dctn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					   other.uid, ormpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   other.uid, ocqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					   r.uid, rmpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   r.uid, cqn), PRM_STAT_OK);
	sk_q_fini(test, &other);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * A DCI: a QP of service type DCI with no receive queue of its own, and
 * stream channels and errored streams within the caps; one with an RQ,
 * or with more streams than the caps, is refused.
 */
static void sk_dci_rules(struct kunit *test)
{
	struct sk_q r;
	void *in, *qpc;
	u32 cqn, qpn;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
#define SK_DCI_IN() do {						\
	in = sk_qp_in(test, &r, cqn);					\
	qpc = PRM_ADDR(create_qp_in, in, qpc);				\
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_DCI);				\
	PRM_SET(qpc, qpc, log_rq_size, 0);				\
	PRM_SET(qpc, qpc, log_rq_stride, 0);				\
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_ZERO_LEN);		\
} while (0)
	SK_DCI_IN();
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_REGULAR);
	PRM_SET(qpc, qpc, log_rq_size, 4);
	SK_EXPECT_FAIL(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &qpn),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* stream channels, and streams kept in error, within the caps */
	SK_DCI_IN();
	PRM_SET(qpc, qpc, log_num_dci_stream_channels,
		SIM_DCI_LOG_MAX_STREAMS + 1);
	SK_EXPECT_FAIL(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &qpn),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_DCI_IN();
	PRM_SET(qpc, qpc, log_num_dci_errored_streams,
		SIM_DCI_LOG_MAX_ERRORED + 1);
	SK_EXPECT_FAIL(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &qpn),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_DCI_IN();
	PRM_SET(qpc, qpc, no_sq, 1);
	SK_EXPECT_FAIL(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &qpn),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DCI_IN();
#undef SK_DCI_IN
	PRM_SET(qpc, qpc, log_num_dci_stream_channels, SIM_DCI_LOG_MAX_STREAMS);
	PRM_SET(qpc, qpc, log_num_dci_errored_streams, SIM_DCI_LOG_MAX_ERRORED);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					  PRM_BYTES(create_qp_out), &qpn),
			PRM_STAT_OK);
	KUNIT_EXPECT_LT(test, qpn, SIM_DCTN_BASE);
	KUNIT_EXPECT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RST2INIT_QP, r.uid,
					 qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP,
					   r.uid, qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   r.uid, cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct kunit_case sk_dct_cases[] = {
	KUNIT_CASE(sk_dct_lifecycle),
	KUNIT_CASE(sk_dct_rules),
	KUNIT_CASE(sk_dci_rules),
	{}
};

static struct kunit_suite sk_dct_suite = {
	.name = "mlx5x_sim_dc",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_dct_cases,
};

kunit_test_suite(sk_dct_suite);
