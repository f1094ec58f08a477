// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: XRC: domains (the kernel's shared, a user's its own), XRC SRQs
 * (CREATE_XRC_SRQ's rules, QUERY_XRC_SRQ, ARM_XRC_SRQ, the number space
 * apart from the RMPs) and the QPs of service type XRC, initiators and
 * targets, with the domain each holds.
 */
#include "sk_queues.h"

/* CREATE_XRC_SRQ's umem fields, as queues/cmd_xrc.c reads them. */
#define SK_XRC_SRQC_DBR_UMEM_ID		0x060
#define SK_CREATE_XRC_SRQ_UMEM_ID	0x2c0
#define SK_XSRQ_UIDX			7

static u8 sk_xrcd_alloc(struct kunit *test, u16 uid, u32 *xrcdn)
{
	void *in = SK_MBOX(test, alloc_xrcd_in);

	PRM_SET(alloc_xrcd_in, in, opcode, MLX5_CMD_OP_ALLOC_XRCD);
	PRM_SET(alloc_xrcd_in, in, uid, uid);
	return sk_q_create(test, in, PRM_BYTES(alloc_xrcd_in),
			   PRM_BYTES(alloc_xrcd_out), xrcdn);
}

/* An XRC SRQ of 16 WQEs of 64 bytes in @r's umem, of @xrcdn, CQ @cqn. */
static void *sk_xsrq_in(struct kunit *test, const struct sk_q *r, u32 xrcdn,
			u32 cqn)
{
	void *in = SK_MBOX(test, create_xrc_srq_in);
	void *c = PRM_ADDR(create_xrc_srq_in, in, xrc_srq_context_entry);

	PRM_SET(create_xrc_srq_in, in, opcode, MLX5_CMD_OP_CREATE_XRC_SRQ);
	PRM_SET(create_xrc_srq_in, in, uid, r->uid);
	PRM_SET(create_xrc_srq_in, in, xrc_srq_umem_valid, 1);
	prm_set_bits(in, SK_CREATE_XRC_SRQ_UMEM_ID, 32, r->umem);
	PRM_SET(xrc_srqc, c, log_xrc_srq_size, 4);
	PRM_SET(xrc_srqc, c, log_rq_stride, 2);
	PRM_SET(xrc_srqc, c, xrcd, xrcdn);
	PRM_SET(xrc_srqc, c, cqn, cqn);
	PRM_SET(xrc_srqc, c, user_index, SK_XSRQ_UIDX);
	PRM_SET(xrc_srqc, c, pd, r->pd);
	PRM_SET(xrc_srqc, c, dbr_umem_valid, 1);
	prm_set_bits(c, SK_XRC_SRQC_DBR_UMEM_ID, 32, r->umem);
	PRM_SET(xrc_srqc, c, db_record_addr_l, SK_Q_DBR >> 2);
	return in;
}

static u8 sk_xsrq_run(struct kunit *test, const void *in, u32 *srqn)
{
	return sk_q_create(test, in, PRM_BYTES(create_xrc_srq_in),
			   PRM_BYTES(create_xrc_srq_out), srqn);
}

static u8 sk_xsrq_arm(struct kunit *test, u16 uid, u32 srqn, u16 op_mod,
		      u32 lwm)
{
	void *in = SK_MBOX(test, arm_xrc_srq_in);
	void *out = SK_MBOX(test, arm_xrc_srq_out);

	PRM_SET(arm_xrc_srq_in, in, opcode, MLX5_CMD_OP_ARM_XRC_SRQ);
	PRM_SET(arm_xrc_srq_in, in, uid, uid);
	PRM_SET(arm_xrc_srq_in, in, op_mod, op_mod);
	PRM_SET(arm_xrc_srq_in, in, xrc_srqn, srqn);
	PRM_SET(arm_xrc_srq_in, in, lwm, lwm);
	return sk_exec(test, in, PRM_BYTES(arm_xrc_srq_in), out,
		       PRM_BYTES(arm_xrc_srq_out));
}

/*
 * Made in a domain of the kernel's (shared), numbered apart from the
 * RMPs, queried as created, armed within its size only, holding its
 * domain until it goes.
 */
static void sk_xrc_srq_lifecycle(struct kunit *test)
{
	void *out = SK_MBOX(test, query_xrc_srq_out);
	void *c = PRM_ADDR(query_xrc_srq_out, out, xrc_srq_context_entry);
	u32 xrcdn, cqn, srqn;
	struct sk_q r;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_xrcd_alloc(test, 0, &xrcdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_xsrq_run(test, sk_xsrq_in(test, &r, xrcdn,
							    cqn), &srqn),
			PRM_STAT_OK);
	KUNIT_EXPECT_GE(test, srqn, SIM_XRC_SRQN_BASE);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_XRCD, xrcdn), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 1);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_XRC_SRQ,
					 r.uid, srqn, out,
					 PRM_BYTES(query_xrc_srq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(xrc_srqc, c, xrcd), xrcdn);
	KUNIT_EXPECT_EQ(test, PRM_GET(xrc_srqc, c, cqn), cqn);
	KUNIT_EXPECT_EQ(test, PRM_GET(xrc_srqc, c, pd), r.pd);
	KUNIT_EXPECT_EQ(test, PRM_GET(xrc_srqc, c, user_index),
			SK_XSRQ_UIDX);
	KUNIT_EXPECT_EQ(test, PRM_GET(xrc_srqc, c, log_xrc_srq_size), 4);
	KUNIT_EXPECT_EQ(test, PRM_GET(xrc_srqc, c, log_rq_stride), 2);
	KUNIT_EXPECT_EQ(test, sk_xsrq_arm(test, r.uid, srqn,
					  MLX5_ARM_XRC_SRQ_IN_OP_MOD_XRC_SRQ,
					  15), PRM_STAT_OK);
	SK_EXPECT_FAIL(test, sk_xsrq_arm(test, r.uid, srqn,
					 MLX5_ARM_XRC_SRQ_IN_OP_MOD_XRC_SRQ,
					 16),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_EXPECT_FAIL(test, sk_xsrq_arm(test, r.uid, srqn, 0, 1),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_XRC_SRQ,
					 r.uid, srqn, out,
					 PRM_BYTES(query_xrc_srq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(xrc_srqc, c, lwm), 15);
	/* no RMP has its number; the domain is held */
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RMP,
					  r.uid, srqn),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DEALLOC_XRCD, 0,
					  xrcdn),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_XRC_SRQ,
					   r.uid, srqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DEALLOC_XRCD, 0,
					   xrcdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   r.uid, cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* What CREATE_XRC_SRQ refuses, and with which syndrome. */
static void sk_xrc_srq_rules(struct kunit *test)
{
	u32 max = SIM_CAP_GEN(sk_sim(test), log_max_srq_sz);
	u32 xrcdn, own, cqn, srqn, umem_users;
	struct sk_q r, other;
	void *in, *c;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	KUNIT_ASSERT_EQ(test, sk_xrcd_alloc(test, 0, &xrcdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_xrcd_alloc(test, other.uid, &own),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	/* the CQ's buffer and record are in the umem too */
	umem_users = sk_users(test, SIM_OBJ_UMEM, r.umem);
#define SK_XSRQ_REFUSED(fld_set, st, synd) do {				\
	in = sk_xsrq_in(test, &r, xrcdn, cqn);				\
	c = PRM_ADDR(create_xrc_srq_in, in, xrc_srq_context_entry);	\
	fld_set;							\
	SK_EXPECT_FAIL(test, sk_xsrq_run(test, in, &srqn), (st), (synd)); \
} while (0)
	/* a WQE holds the next segment and one data segment at least */
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, log_rq_stride, 0),
			PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, lwm, 16),
			PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, state, 1),
			PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* the field has 4 bits: past the cap only where the cap is below 15 */
	if (max < 15)
		SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, log_xrc_srq_size,
					max + 1),
				PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, wq_signature, 1),
			PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, log_rq_stride, 7),
			PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	/* a user's buffer by umem only; the user's own umem */
	SK_XSRQ_REFUSED(PRM_SET(create_xrc_srq_in, in, xrc_srq_umem_valid, 0),
			PRM_STAT_BAD_PARAM, SIM_SYND_NOT_UMEM);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, dbr_umem_valid, 0),
			PRM_STAT_BAD_PARAM, SIM_SYND_NOT_UMEM);
	SK_XSRQ_REFUSED(prm_set_bits(in, SK_CREATE_XRC_SRQ_UMEM_ID, 32,
				     other.umem),
			PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	/* another context's domain, PD or CQ; a domain that is not there */
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, xrcd, own),
			PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, pd, other.pd),
			PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, xrcd, xrcdn + own + 1),
			PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	SK_XSRQ_REFUSED(PRM_SET(xrc_srqc, c, cqn, cqn + 1),
			PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
#undef SK_XSRQ_REFUSED
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_XRCD, xrcdn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem),
			umem_users);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   r.uid, cqn), PRM_STAT_OK);
	/* a user's domain is its alone to free */
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DEALLOC_XRCD,
					  r.uid, own),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DEALLOC_XRCD,
					   other.uid, own), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DEALLOC_XRCD, 0,
					   xrcdn), PRM_STAT_OK);
	sk_q_fini(test, &other);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * An initiator: an RC QP without a receive queue.  A target: no SQ, rq
 * type SRQ, its domain held, made by the kernel with nothing but the
 * domain.  Each kind with the other's shape is refused.
 */
static void sk_xrc_qps(struct kunit *test)
{
	void *tin = SK_MBOX(test, create_qp_in);
	void *tqpc = PRM_ADDR(create_qp_in, tin, qpc);
	u32 xrcdn, cqn, ini, tgt;
	void *in, *qpc;
	struct sk_q r;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_xrcd_alloc(test, 0, &xrcdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);

	in = sk_qp_in(test, &r, cqn);
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_XRC);
	SK_EXPECT_FAIL(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &ini),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_ZERO_LEN);
	PRM_SET(qpc, qpc, log_rq_size, 0);
	PRM_SET(qpc, qpc, log_rq_stride, 0);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					  PRM_BYTES(create_qp_out), &ini),
			PRM_STAT_OK);

	PRM_SET(create_qp_in, tin, opcode, MLX5_CMD_OP_CREATE_QP);
	PRM_SET(qpc, tqpc, st, MLX5_QPC_ST_XRC);
	PRM_SET(qpc, tqpc, no_sq, 1);
	PRM_SET(qpc, tqpc, rq_type, SIM_QPC_RQ_ZERO_LEN);
	PRM_SET(qpc, tqpc, xrcd, xrcdn);
	SK_EXPECT_FAIL(test, sk_q_create(test, tin, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &tgt),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, tqpc, rq_type, SIM_QPC_RQ_SRQ);
	PRM_SET(qpc, tqpc, xrcd, xrcdn + 1);
	SK_EXPECT_FAIL(test, sk_q_create(test, tin, PRM_BYTES(create_qp_in),
					 PRM_BYTES(create_qp_out), &tgt),
		       PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	PRM_SET(qpc, tqpc, xrcd, xrcdn);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, tin, PRM_BYTES(create_qp_in),
					  PRM_BYTES(create_qp_out), &tgt),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_XRCD, xrcdn), 1);
	SK_EXPECT_FAIL(test, sk_q_destroy(test, MLX5_CMD_OP_DEALLOC_XRCD, 0,
					  xrcdn),
		       PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RST2INIT_QP, 0,
					 tgt), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, 0,
					   tgt), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP,
					   r.uid, ini), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DEALLOC_XRCD, 0,
					   xrcdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   r.uid, cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct kunit_case sk_xrc_cases[] = {
	KUNIT_CASE(sk_xrc_srq_lifecycle),
	KUNIT_CASE(sk_xrc_srq_rules),
	KUNIT_CASE(sk_xrc_qps),
	{}
};

static struct kunit_suite sk_xrc_suite = {
	.name = "mlx5x_sim_xrc",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_xrc_cases,
};

kunit_test_suite(sk_xrc_suite);
