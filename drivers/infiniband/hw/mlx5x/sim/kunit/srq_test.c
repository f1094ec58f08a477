// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: SRQs as RMPs: CREATE_RMP's rules and references, MODIFY_RMP's
 * limit and QUERY_RMP, and a QP on an RMP holding it.
 */
#include "sk_queues.h"

/* An RMP in RDY: a linked list of 16 WQEs of 64 bytes. */
static void *sk_rmp_in(struct kunit *test, const struct sk_q *r)
{
	void *in = SK_MBOX(test, create_rmp_in);
	void *rmpc = PRM_ADDR(create_rmp_in, in, ctx);
	void *wq = PRM_ADDR(rmpc, rmpc, wq);

	PRM_SET(create_rmp_in, in, opcode, MLX5_CMD_OP_CREATE_RMP);
	PRM_SET(create_rmp_in, in, uid, r->uid);
	PRM_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	sk_wq_fill(wq, r, 6);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST);
	return in;
}

static u8 sk_rmp_run(struct kunit *test, const void *in, u32 *rmpn)
{
	return sk_q_create(test, in, PRM_BYTES(create_rmp_in),
			   PRM_BYTES(create_rmp_out), rmpn);
}

/* MODIFY_RMP from @cur to RDY, setting lwm to @lwm. */
static u8 sk_rmp_arm(struct kunit *test, u16 uid, u32 rmpn, u32 cur, u32 lwm)
{
	void *in = SK_MBOX(test, modify_rmp_in);
	void *out = SK_MBOX(test, modify_rmp_out);

	PRM_SET(modify_rmp_in, in, opcode, MLX5_CMD_OP_MODIFY_RMP);
	PRM_SET(modify_rmp_in, in, uid, uid);
	PRM_SET(modify_rmp_in, in, rmp_state, cur);
	PRM_SET(modify_rmp_in, in, rmpn, rmpn);
	PRM_SET(modify_rmp_in, in, bitmask.lwm, 1);
	PRM_SET(modify_rmp_in, in, ctx.state, MLX5_RMPC_STATE_RDY);
	PRM_SET(modify_rmp_in, in, ctx.wq.lwm, lwm);
	return sk_exec(test, in, PRM_BYTES(modify_rmp_in), out,
		       PRM_BYTES(modify_rmp_out));
}

static u32 sk_rmp_lwm(struct kunit *test, u16 uid, u32 rmpn)
{
	void *out = SK_MBOX(test, query_rmp_out);

	KUNIT_EXPECT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_RMP, uid,
					 rmpn, out, PRM_BYTES(query_rmp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_rmp_out, out, rmp_context.state),
			MLX5_RMPC_STATE_RDY);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_rmp_out, out,
				      rmp_context.wq.log_wq_sz), 4);
	return PRM_GET(query_rmp_out, out, rmp_context.wq.lwm);
}

/* Created, queried, armed within its size and not past it, destroyed. */
static void sk_srq_create_query_modify(struct kunit *test)
{
	struct sk_q r;
	u32 rmpn;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_rmp_run(test, sk_rmp_in(test, &r), &rmpn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 1);
	KUNIT_EXPECT_EQ(test, sk_rmp_lwm(test, r.uid, rmpn), 0);
	KUNIT_EXPECT_EQ(test, sk_rmp_arm(test, r.uid, rmpn,
					 MLX5_RMPC_STATE_RDY, 15), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_rmp_lwm(test, r.uid, rmpn), 15);
	SK_EXPECT_FAIL(test, sk_rmp_arm(test, r.uid, rmpn,
					MLX5_RMPC_STATE_RDY, 16),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_rmp_arm(test, r.uid, rmpn,
					MLX5_RMPC_STATE_ERR, 1),
		       PRM_STAT_BAD_RES_STATE, SIM_SYND_BAD_STATE);
	KUNIT_EXPECT_EQ(test, sk_rmp_lwm(test, r.uid, rmpn), 15);
	KUNIT_EXPECT_EQ(test, sk_rmp_arm(test, r.uid, rmpn,
					 MLX5_RMPC_STATE_RDY, 0), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_rmp_lwm(test, r.uid, rmpn), 0);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					   r.uid, rmpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* What CREATE_RMP refuses, and with which syndrome. */
static void sk_srq_create_rules(struct kunit *test)
{
	u32 max = SIM_CAP_GEN(sk_sim(test), log_max_srq_sz);
	struct sk_q r, other;
	void *in, *rmpc, *wq;
	u32 rmpn;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
#define SK_RMP_REFUSED(fld_set, st, synd) do {				\
	in = sk_rmp_in(test, &r);					\
	rmpc = PRM_ADDR(create_rmp_in, in, ctx);			\
	wq = PRM_ADDR(rmpc, rmpc, wq);					\
	fld_set;							\
	SK_EXPECT_FAIL(test, sk_rmp_run(test, in, &rmpn), (st), (synd)); \
} while (0)
	SK_RMP_REFUSED(PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_RMP_REFUSED(PRM_SET(rmpc, rmpc, state, 0),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* a WQE holds the next segment and one data segment at least */
	SK_RMP_REFUSED(PRM_SET(wq, wq, log_wq_stride, 4),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_RMP_REFUSED(PRM_SET(wq, wq, lwm, 16),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_RMP_REFUSED(PRM_SET(wq, wq, log_wq_sz, max + 1),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_RMP_REFUSED(PRM_SET(wq, wq, wq_signature, 1),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_RMP_REFUSED(PRM_SET(rmpc, rmpc, basic_cyclic_rcv_wqe, 1),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_RMP_REFUSED(PRM_SET(wq, wq, log_wq_stride, 10),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* another context's PD, a user's buffer not by umem */
	SK_RMP_REFUSED(PRM_SET(wq, wq, pd, other.pd),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_RMP_REFUSED(PRM_SET(wq, wq, wq_umem_valid, 0),
		       PRM_STAT_BAD_PARAM, SIM_SYND_NOT_UMEM);
	SK_RMP_REFUSED(prm_set_bits(wq, SIM_WQ_UMEM_ID, 32, other.umem),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
#undef SK_RMP_REFUSED
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 0);
	sk_q_fini(test, &other);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * A QP on an RMP (rq_type SRQ) holds it: DESTROY_RMP is busy until the
 * QP goes.  A QP may not name another context's RMP, nor a missing one.
 */
static void sk_srq_qp_holds(struct kunit *test)
{
	struct sk_q r, other;
	u32 cqn, rmpn, other_rmpn, qpn;
	void *in, *qpc;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_rmp_run(test, sk_rmp_in(test, &r), &rmpn),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_rmp_run(test, sk_rmp_in(test, &other),
					 &other_rmpn), PRM_STAT_OK);

	in = sk_qp_in(test, &r, cqn);
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_SRQ);
	PRM_SET(qpc, qpc, log_rq_size, 0);
	PRM_SET(qpc, qpc, log_rq_stride, 0);
	PRM_SET(qpc, qpc, srqn_rmpn_xrqn, other_rmpn);
	SK_EXPECT_FAIL(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &qpn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	PRM_SET(qpc, qpc, srqn_rmpn_xrqn, rmpn + other_rmpn + 1);
	SK_EXPECT_FAIL(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &qpn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	PRM_SET(qpc, qpc, srqn_rmpn_xrqn, rmpn);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					  PRM_BYTES(create_qp_out), &qpn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RMP, rmpn), 1);
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					  r.uid, rmpn),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	/* nor may another context destroy it */
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					  other.uid, rmpn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP,
					   r.uid, qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RMP, rmpn), 0);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					   r.uid, rmpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					   other.uid, other_rmpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   r.uid, cqn), PRM_STAT_OK);
	sk_q_fini(test, &other);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct kunit_case sk_srq_cases[] = {
	KUNIT_CASE(sk_srq_create_query_modify),
	KUNIT_CASE(sk_srq_create_rules),
	KUNIT_CASE(sk_srq_qp_holds),
	{}
};

static struct kunit_suite sk_srq_suite = {
	.name = "mlx5x_sim_srq",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_srq_cases,
};

kunit_test_suite(sk_srq_suite);
