// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: RC QPs: CREATE_QP's rules and references, the PRM state machine
 * (every legal transition, and every command from every other state
 * refused with BAD_QP_STATE), what the transitions check and what
 * QUERY_QP then returns.
 */
#include "sk_queues.h"
#include "../dp/datapath.h"

static u8 sk_qp_run(struct kunit *test, const void *in, u32 *qpn)
{
	return sk_q_create(test, in, PRM_BYTES(create_qp_in),
			   PRM_BYTES(create_qp_out), qpn);
}

/* A context with a CQ, for QPs to use as both send and receive CQ. */
static u32 sk_qp_setup(struct kunit *test, struct sk_q *r)
{
	u32 cqn;

	sk_q_init(test, r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, r, &cqn), PRM_STAT_OK);
	return cqn;
}

static void sk_qp_teardown(struct kunit *test, struct sk_q *r, u32 cqn)
{
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r->uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, r);
}

static void sk_qp_create_query_destroy(struct kunit *test)
{
	void *out = SK_MBOX(test, query_qp_out);
	const void *qpc = PRM_ADDR(query_qp_out, out, qpc);
	struct sk_q r;
	u32 cqn, qpn;

	cqn = sk_qp_setup(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, qpn, 0);
	/* send and receive CQ: two references on the one CQ */
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 2);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, r.uar), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 4);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, state), MLX5_QPC_STATE_RST);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, st), MLX5_QPC_ST_RC);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, pd), r.pd);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, cqn_snd), cqn);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, cqn_rcv), cqn);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, log_sq_size), 4);

	/* what the QP uses is busy until it goes */
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, r.uid, r.pd),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, r.uid, r.umem),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 2);
	KUNIT_EXPECT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_BAD_RESOURCE);
	sk_qp_teardown(test, &r, cqn);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_qp_create_rules(struct kunit *test)
{
	u32 max = SIM_CAP_GEN(sk_sim(test), log_max_qp_sz);
	struct sk_q r;
	void *in, *qpc;
	u32 cqn, qpn;

	cqn = sk_qp_setup(test, &r);
	in = sk_qp_in(test, &r, cqn);
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	/* RC, UC and UD only */
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_XRC);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_UC);
	KUNIT_ASSERT_EQ(test, sk_qp_run(test, in, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_RC);
	PRM_SET(create_qp_in, in, input_qpn, 77);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(create_qp_in, in, input_qpn, 0);
	/* on an SRQ that is not there (srq_test.c: one that is) */
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_SRQ);
	SK_EXPECT_FAIL(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RESOURCE,
		       SIM_SYND_NO_OBJECT);
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_REGULAR);
	PRM_SET(qpc, qpc, state, MLX5_QPC_STATE_RTS);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(qpc, qpc, state, MLX5_QPC_STATE_RST);
	/*
	 * Sizes: the 4-bit fields cannot exceed log_max_qp_sz (15); the
	 * largest is refused only for want of room in the umem.
	 */
	KUNIT_EXPECT_EQ(test, max, 15);
	PRM_SET(qpc, qpc, log_sq_size, max);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, qpc, log_sq_size, 4);
	PRM_SET(qpc, qpc, log_rq_stride, 6);	/* 1 KiB > max_wqe_sz_rq */
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(qpc, qpc, log_rq_stride, 2);
	/* the umem holds RQ + SQ: 2048 * 64 + 2048 * 64 fills it exactly */
	PRM_SET(qpc, qpc, log_rq_size, 11);
	PRM_SET(qpc, qpc, log_sq_size, 11);
	KUNIT_ASSERT_EQ(test, sk_qp_run(test, in, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	PRM_SET(qpc, qpc, log_sq_size, 12);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* without an SQ, the RQ alone fits */
	PRM_SET(qpc, qpc, no_sq, 1);
	KUNIT_ASSERT_EQ(test, sk_qp_run(test, in, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	/* and nothing at all is no queue */
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_ZERO_LEN);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(qpc, qpc, no_sq, 0);
	PRM_SET(qpc, qpc, rq_type, SIM_QPC_RQ_REGULAR);
	PRM_SET(qpc, qpc, log_rq_size, 4);
	PRM_SET(qpc, qpc, log_sq_size, 4);
	/* raw addresses from a user context */
	PRM_SET(create_qp_in, in, wq_umem_valid, 0);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_UMEM);
	PRM_SET(create_qp_in, in, wq_umem_valid, 1);
	PRM_SET(qpc, qpc, dbr_umem_valid, 0);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_UMEM);
	PRM_SET(qpc, qpc, dbr_umem_valid, 1);
	/* a CQ that is not there */
	PRM_SET(qpc, qpc, cqn_rcv, cqn + 1);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	/* none of the refusals kept a reference */
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, r.uar), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 2);
	sk_qp_teardown(test, &r, cqn);
}

/* Another context cannot reach the QP, nor build one on our objects. */
static void sk_qp_isolation(struct kunit *test)
{
	void *out = SK_MBOX(test, query_qp_out);
	struct sk_q r, other;
	u32 cqn, ocqn, qpn;
	void *in, *qpc;

	cqn = sk_qp_setup(test, &r);
	ocqn = sk_qp_setup(test, &other);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, other.uid,
					 qpn, out, PRM_BYTES(query_qp_out)),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RST2INIT_QP,
					 other.uid, qpn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_2ERR_QP, other.uid,
					 qpn), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP,
					   other.uid, qpn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_qp_state(test, r.uid, qpn),
			MLX5_QPC_STATE_RST);

	/* other's QP naming one of r's objects at a time */
	in = sk_qp_in(test, &other, ocqn);
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(qpc, qpc, pd, r.pd);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(qpc, qpc, pd, other.pd);
	PRM_SET(qpc, qpc, cqn_snd, cqn);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(qpc, qpc, cqn_snd, ocqn);
	PRM_SET(qpc, qpc, uar_page, r.uar);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(qpc, qpc, uar_page, other.uar);
	prm_set_bits(in, SIM_CREATE_QP_UMEM_ID, 32, r.umem);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	prm_set_bits(in, SIM_CREATE_QP_UMEM_ID, 32, other.umem);
	prm_set_bits(qpc, SIM_QPC_DBR_UMEM_ID, 32, r.umem);
	KUNIT_EXPECT_EQ(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 2);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, ocqn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 4);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	sk_qp_teardown(test, &r, cqn);
	sk_qp_teardown(test, &other, ocqn);
}

/* RST -> INIT -> INIT -> RTR -> RTS -> RTS -> ERR -> RST, queried. */
static void sk_qp_walk(struct kunit *test)
{
	static const struct {
		u16 opcode;
		u32 state;
	} walk[] = {
		{ MLX5_CMD_OP_RST2INIT_QP, MLX5_QPC_STATE_INIT },
		{ MLX5_CMD_OP_INIT2INIT_QP, MLX5_QPC_STATE_INIT },
		{ MLX5_CMD_OP_INIT2RTR_QP, MLX5_QPC_STATE_RTR },
		{ MLX5_CMD_OP_RTR2RTS_QP, MLX5_QPC_STATE_RTS },
		{ MLX5_CMD_OP_RTS2RTS_QP, MLX5_QPC_STATE_RTS },
		{ MLX5_CMD_OP_2ERR_QP, MLX5_QPC_STATE_ERR },
		{ MLX5_CMD_OP_2RST_QP, MLX5_QPC_STATE_RST },
	};
	void *out = SK_MBOX(test, query_qp_out);
	const void *qpc = PRM_ADDR(query_qp_out, out, qpc);
	const void *ads = PRM_ADDR(qpc, qpc, primary_address_path);
	struct sk_q r;
	u32 cqn, qpn;
	unsigned int i;

	cqn = sk_qp_setup(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);
	for (i = 0; i < ARRAY_SIZE(walk); i++) {
		KUNIT_EXPECT_EQ_MSG(test, sk_qp_move(test, walk[i].opcode,
						     r.uid, qpn),
				    PRM_STAT_OK, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sk_qp_state(test, r.uid, qpn),
				    walk[i].state, "step %u", i);
		if (walk[i].opcode != MLX5_CMD_OP_RTS2RTS_QP)
			continue;
		/* in RTS: what INIT2RTR and RTR2RTS set is there */
		KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP,
						 r.uid, qpn, out,
						 PRM_BYTES(query_qp_out)),
				PRM_STAT_OK);
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, remote_qpn), 0x123);
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, mtu),
				MLX5_QPC_MTU_1K_BYTES);
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, next_rcv_psn), 0x4242);
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, next_send_psn),
				0x1717);
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, retry_count), 7);
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, rre), 1);
		KUNIT_EXPECT_EQ(test, PRM_GET(ads, ads, vhca_port_num), 1);
		KUNIT_EXPECT_EQ(test, PRM_GET(ads, ads, rmac_31_0),
				0xa10b0c0d);
		KUNIT_EXPECT_EQ(test, PRM_GET(ads, ads, ack_timeout), 14);
		/* and what was fixed at creation is unchanged */
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, cqn_snd), cqn);
		KUNIT_EXPECT_EQ(test, PRM_GET(qpc, qpc, pd), r.pd);
	}
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	sk_qp_teardown(test, &r, cqn);
}

/*
 * Every transition from every state the model reaches: the legal ones
 * succeed, every other is refused with BAD_QP_STATE and leaves the state.
 */
static void sk_qp_state_table(struct kunit *test)
{
	/* the commands that lead from RST to each state */
	static const u16 path[] = {
		MLX5_CMD_OP_RST2INIT_QP, MLX5_CMD_OP_INIT2RTR_QP,
		MLX5_CMD_OP_RTR2RTS_QP,
	};
	static const struct {
		u16 opcode;
		u16 from;	/* bit per legal source state */
		u32 to;
	} moves[] = {
		{ MLX5_CMD_OP_RST2INIT_QP, BIT(MLX5_QPC_STATE_RST),
		  MLX5_QPC_STATE_INIT },
		{ MLX5_CMD_OP_INIT2INIT_QP, BIT(MLX5_QPC_STATE_INIT),
		  MLX5_QPC_STATE_INIT },
		{ MLX5_CMD_OP_INIT2RTR_QP, BIT(MLX5_QPC_STATE_INIT),
		  MLX5_QPC_STATE_RTR },
		{ MLX5_CMD_OP_RTR2RTS_QP, BIT(MLX5_QPC_STATE_RTR),
		  MLX5_QPC_STATE_RTS },
		{ MLX5_CMD_OP_RTS2RTS_QP, BIT(MLX5_QPC_STATE_RTS),
		  MLX5_QPC_STATE_RTS },
		{ MLX5_CMD_OP_SQERR2RTS_QP, BIT(MLX5_QPC_STATE_SQER),
		  MLX5_QPC_STATE_RTS },
		{ MLX5_CMD_OP_2ERR_QP, 0xffff, MLX5_QPC_STATE_ERR },
		{ MLX5_CMD_OP_2RST_QP, 0xffff, MLX5_QPC_STATE_RST },
	};
	/* RST, INIT, RTR, RTS by path; ERR by 2ERR */
	static const u32 states[] = {
		MLX5_QPC_STATE_RST, MLX5_QPC_STATE_INIT, MLX5_QPC_STATE_RTR,
		MLX5_QPC_STATE_RTS, MLX5_QPC_STATE_ERR,
	};
	unsigned int s, m, k, legal = 0, illegal = 0;
	struct sk_q r;
	u32 cqn, qpn;

	cqn = sk_qp_setup(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);
	for (s = 0; s < ARRAY_SIZE(states); s++) {
		for (m = 0; m < ARRAY_SIZE(moves); m++) {
			bool ok = moves[m].from & BIT(states[s]);
			u8 status;

			KUNIT_ASSERT_EQ(test, sk_qp_move(test,
							 MLX5_CMD_OP_2RST_QP,
							 r.uid, qpn),
					PRM_STAT_OK);
			if (states[s] == MLX5_QPC_STATE_ERR)
				KUNIT_ASSERT_EQ(test, sk_qp_move(test,
						MLX5_CMD_OP_2ERR_QP, r.uid,
						qpn), PRM_STAT_OK);
			for (k = 0; k < states[s] &&
			     states[s] != MLX5_QPC_STATE_ERR; k++)
				KUNIT_ASSERT_EQ(test, sk_qp_move(test, path[k],
								 r.uid, qpn),
						PRM_STAT_OK);
			KUNIT_ASSERT_EQ(test, sk_qp_state(test, r.uid, qpn),
					states[s]);
			status = sk_qp_move(test, moves[m].opcode, r.uid, qpn);
			KUNIT_EXPECT_EQ_MSG(test, status,
					    ok ? PRM_STAT_OK :
						 PRM_STAT_BAD_QP_STATE,
					    "opcode 0x%x in state %u",
					    moves[m].opcode, states[s]);
			if (!ok)
				KUNIT_EXPECT_EQ(test, sk_syndrome(test),
						SIM_SYND_BAD_STATE);
			KUNIT_EXPECT_EQ_MSG(test, sk_qp_state(test, r.uid, qpn),
					    ok ? moves[m].to : states[s],
					    "opcode 0x%x in state %u",
					    moves[m].opcode, states[s]);
			if (ok)
				legal++;
			else
				illegal++;
		}
	}
	/* 5 states x 8 commands: 2ERR and 2RST from all, 5 others */
	KUNIT_EXPECT_EQ(test, legal, 15);
	KUNIT_EXPECT_EQ(test, illegal, 25);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	sk_qp_teardown(test, &r, cqn);
}

/* What the transitions carry, checked where the model can. */
static void sk_qp_transition_checks(struct kunit *test)
{
	void *out = SK_MBOX(test, rst2init_qp_out);
	size_t inlen = PRM_BYTES(rst2init_qp_in);
	size_t outlen = PRM_BYTES(rst2init_qp_out);
	struct sk_q r;
	u32 cqn, qpn;
	void *in, *qpc, *ads;

	cqn = sk_qp_setup(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);

	/* RST2INIT: port 1, P_Key index 0 */
	in = sk_qp_move_in(test, MLX5_CMD_OP_RST2INIT_QP, r.uid, qpn, &qpc);
	ads = PRM_ADDR(qpc, qpc, primary_address_path);
	PRM_SET(ads, ads, vhca_port_num, 2);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(ads, ads, vhca_port_num, 0);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	PRM_SET(ads, ads, vhca_port_num, 1);
	PRM_SET(ads, ads, pkey_index, 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_qp_state(test, r.uid, qpn),
			MLX5_QPC_STATE_RST);
	KUNIT_ASSERT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RST2INIT_QP, r.uid,
					 qpn), PRM_STAT_OK);

	/* INIT2RTR: a peer, an MTU the port carries, a MAC, the caps */
	in = sk_qp_move_in(test, MLX5_CMD_OP_INIT2RTR_QP, r.uid, qpn, &qpc);
	ads = PRM_ADDR(qpc, qpc, primary_address_path);
	PRM_SET(qpc, qpc, remote_qpn, 0);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, qpc, remote_qpn, 0x123);
	/* the port's MTU is 1500: 1024 is the largest IB MTU within it */
	KUNIT_EXPECT_EQ(test, sk_params.mtu, 1500);
	PRM_SET(qpc, qpc, mtu, MLX5_QPC_MTU_2K_BYTES);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	PRM_SET(qpc, qpc, mtu, 0);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	PRM_SET(qpc, qpc, mtu, MLX5_QPC_MTU_RAW_ETHERNET_QP);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	PRM_SET(qpc, qpc, mtu, MLX5_QPC_MTU_256_BYTES);
	PRM_SET(ads, ads, rmac_47_32, 0);
	PRM_SET(ads, ads, rmac_31_0, 0);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	PRM_SET(ads, ads, rmac_31_0, 1);
	PRM_SET(qpc, qpc, log_rra_max,
		SIM_CAP_GEN(sk_sim(test), log_max_ra_res_qp) + 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(qpc, qpc, log_rra_max, 0);
	PRM_SET(qpc, qpc, log_msg_max, 31);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	PRM_SET(qpc, qpc, log_msg_max, 30);
	PRM_SET(ads, ads, vhca_port_num, 2);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	PRM_SET(ads, ads, vhca_port_num, 1);
	KUNIT_EXPECT_EQ(test, sk_qp_state(test, r.uid, qpn),
			MLX5_QPC_STATE_INIT);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_OK);

	/* RTR2RTS: initiator depth within the caps */
	in = sk_qp_move_in(test, MLX5_CMD_OP_RTR2RTS_QP, r.uid, qpn, &qpc);
	PRM_SET(qpc, qpc, log_sra_max,
		SIM_CAP_GEN(sk_sim(test), log_max_ra_req_qp) + 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	KUNIT_EXPECT_EQ(test, sk_qp_state(test, r.uid, qpn),
			MLX5_QPC_STATE_RTR);
	/* a QPN that is not there */
	KUNIT_EXPECT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RTR2RTS_QP, r.uid,
					 qpn + 1), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RTR2RTS_QP, r.uid,
					 qpn), PRM_STAT_OK);
	/* destroyed in RTS: every reference dropped */
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	sk_qp_teardown(test, &r, cqn);
}

/*
 * What only the kernel may make: QP1 (one on the device: the MAD layer's)
 * and a QP that names memory by the reserved lkey (rlky), which
 * QUERY_SPECIAL_CONTEXTS reports.
 */
static void sk_qp_kernel_only(struct kunit *test)
{
	u32 sin[PRM_BYTES(query_special_contexts_in) / 4] = {};
	void *sout = SK_MBOX(test, query_special_contexts_out);
	struct sk_q r, k;
	u32 cqn, qpn;
	void *in, *qpc;

	cqn = sk_qp_setup(test, &r);
	in = sk_qp_in(test, &r, cqn);
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_QP1);
	SK_EXPECT_FAIL(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_UD);
	PRM_SET(qpc, qpc, rlky, 1);
	SK_EXPECT_FAIL(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_PARAM,
		       SIM_SYND_BAD_FIELD);
	sk_qp_teardown(test, &r, cqn);

	sk_q_init_cap(test, &k, SK_Q_KERNEL);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &k, &cqn), PRM_STAT_OK);
	in = sk_qp_in(test, &k, cqn);
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_QP1);
	PRM_SET(qpc, qpc, rlky, 1);
	KUNIT_ASSERT_EQ(test, sk_qp_run(test, in, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_sim(test)->gsi_qpn, qpn);
	SK_EXPECT_FAIL(test, sk_qp_run(test, in, NULL), PRM_STAT_BAD_RES_STATE,
		       SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, 0,
					   qpn), PRM_STAT_OK);
	/* the port's QP1 gone, the kernel may make it again */
	KUNIT_ASSERT_EQ(test, sk_qp_run(test, in, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, 0,
					   qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, 0,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &k);

	PRM_SET(query_special_contexts_in, sin, opcode,
		MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS);
	KUNIT_ASSERT_EQ(test, sk_exec(test, sin, sizeof(sin), sout,
				      PRM_BYTES(query_special_contexts_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_special_contexts_out, sout,
				      resd_lkey), SIM_RESD_LKEY);
}

/*
 * RTS2RTS sets only what its masks name: a right (RRE, bit 1), the UDP
 * source port (bit 2 of opt_param_mask_95_32, at bit 0x840 of the
 * mailbox); a bit the model does not take is a bad field, and a refused
 * command changes nothing.
 */
static void sk_qp_rts2rts_masks(struct kunit *test)
{
	void *out = SK_MBOX(test, query_qp_out);
	const void *got = PRM_ADDR(query_qp_out, out, qpc);
	void *in, *qpc;
	struct sk_q r;
	u32 cqn, qpn;

	cqn = sk_qp_setup(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RST2INIT_QP, r.uid,
					 qpn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_INIT2RTR_QP, r.uid,
					 qpn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RTR2RTS_QP, r.uid,
					 qpn), PRM_STAT_OK);
	in = sk_qp_move_in(test, MLX5_CMD_OP_RTS2RTS_QP, r.uid, qpn, &qpc);
	PRM_SET(qpc, qpc, rre, 0);
	PRM_SET(qpc, qpc, primary_address_path.udp_sport, 55555);
	/* no mask: nothing changes */
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				      PRM_BYTES(rts2rts_qp_out)), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, got, rre), 1);
	KUNIT_EXPECT_NE(test, PRM_GET(qpc, got,
				      primary_address_path.udp_sport), 55555);
	/* a path the model does not take: refused, nothing changes */
	PRM_SET(rts2rts_qp_in, in, opt_param_mask, BIT(1) | BIT(7));
	SK_EXPECT_FAIL(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				     PRM_BYTES(rts2rts_qp_out)),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* RRE alone: the right goes, the port stays */
	PRM_SET(rts2rts_qp_in, in, opt_param_mask, BIT(1));
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				      PRM_BYTES(rts2rts_qp_out)), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, got, rre), 0);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, got, rwe), 1);
	KUNIT_EXPECT_NE(test, PRM_GET(qpc, got,
				      primary_address_path.udp_sport), 55555);
	/* the second mask: the port, and a bit it does not take */
	PRM_SET(qpc, qpc, rre, 1);
	PRM_SET(rts2rts_qp_in, in, opt_param_mask, 0);
	prm_set_bits(in, 0x840 + 32, 32, BIT(0));
	SK_EXPECT_FAIL(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				     PRM_BYTES(rts2rts_qp_out)),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	prm_set_bits(in, 0x840 + 32, 32, BIT(2));
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				      PRM_BYTES(rts2rts_qp_out)), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, got,
				      primary_address_path.udp_sport), 55555);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, got, rre), 0);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, got, state), MLX5_QPC_STATE_RTS);
}

/* RTS2RTS's optional parameter bit for qpc.counter_set_id */
#define SK_QP_OPT_COUNTER	BIT(25)

/* The counter set QP @qpn of @uid counts in. */
static u32 sk_qp_counter(struct kunit *test, u16 uid, u32 qpn)
{
	void *out = SK_MBOX(test, query_qp_out);

	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	return PRM_GET(qpc, PRM_ADDR(query_qp_out, out, qpc), counter_set_id);
}

/*
 * RST2INIT's counter set: the caller's own, or the kernel's; kept.
 * INIT2RTR may name another, RTS2RTS too when its mask says so.
 */
static void sk_qp_counter_set(struct kunit *test)
{
	void *out = SK_MBOX(test, query_qp_out);
	u16 other = sk_new_uctx(test);
	u32 cqn, qpn, mine, theirs, kernel;
	struct sk_q r;
	void *in, *qpc;

	cqn = sk_qp_setup(test, &r);
	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, r.uid, &mine),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, other, &theirs),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, 0, &kernel),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);

	in = sk_qp_move_in(test, MLX5_CMD_OP_RST2INIT_QP, r.uid, qpn, &qpc);
	PRM_SET(qpc, qpc, counter_set_id, theirs);
	SK_EXPECT_FAIL(test, sk_exec(test, in, PRM_BYTES(rst2init_qp_in), out,
				     PRM_BYTES(rst2init_qp_out)),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, qpc, counter_set_id, kernel + 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(rst2init_qp_in), out,
				      PRM_BYTES(rst2init_qp_out)),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_qp_state(test, r.uid, qpn),
			MLX5_QPC_STATE_RST);
	PRM_SET(qpc, qpc, counter_set_id, kernel);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(rst2init_qp_in), out,
				      PRM_BYTES(rst2init_qp_out)),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid,
					 qpn, out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, PRM_ADDR(query_qp_out, out, qpc),
				      counter_set_id), kernel);

	/* INIT2RTR may name another: the QP's own context's */
	in = sk_qp_move_in(test, MLX5_CMD_OP_INIT2RTR_QP, r.uid, qpn, &qpc);
	PRM_SET(qpc, qpc, counter_set_id, mine);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(init2rtr_qp_in), out,
				      PRM_BYTES(init2rtr_qp_out)),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid,
					 qpn, out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, PRM_ADDR(query_qp_out, out, qpc),
				      counter_set_id), mine);

	/* RTS2RTS moves it when its mask names the counter, not otherwise */
	KUNIT_ASSERT_EQ(test, sk_qp_move(test, MLX5_CMD_OP_RTR2RTS_QP, r.uid,
					 qpn), PRM_STAT_OK);
	in = sk_qp_move_in(test, MLX5_CMD_OP_RTS2RTS_QP, r.uid, qpn, &qpc);
	PRM_SET(qpc, qpc, counter_set_id, kernel);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				      PRM_BYTES(rts2rts_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_qp_counter(test, r.uid, qpn), mine);
	PRM_SET(rts2rts_qp_in, in, opt_param_mask, SK_QP_OPT_COUNTER);
	PRM_SET(qpc, qpc, counter_set_id, theirs);
	SK_EXPECT_FAIL(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				     PRM_BYTES(rts2rts_qp_out)),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_qp_counter(test, r.uid, qpn), mine);
	PRM_SET(qpc, qpc, counter_set_id, kernel);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(rts2rts_qp_in), out,
				      PRM_BYTES(rts2rts_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_qp_counter(test, r.uid, qpn), kernel);
	KUNIT_EXPECT_EQ(test, sk_qp_state(test, r.uid, qpn),
			MLX5_QPC_STATE_RTS);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, r.uid, mine),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, other, theirs),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, 0, kernel),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
	sk_qp_teardown(test, &r, cqn);
}

static struct kunit_case sk_qp_cases[] = {
	KUNIT_CASE(sk_qp_counter_set),
	KUNIT_CASE(sk_qp_create_query_destroy),
	KUNIT_CASE(sk_qp_create_rules),
	KUNIT_CASE(sk_qp_isolation),
	KUNIT_CASE(sk_qp_walk),
	KUNIT_CASE(sk_qp_rts2rts_masks),
	KUNIT_CASE(sk_qp_state_table),
	KUNIT_CASE(sk_qp_transition_checks),
	KUNIT_CASE(sk_qp_kernel_only),
	{}
};

static struct kunit_suite sk_qp_suite = {
	.name = "mlx5x_sim_qp",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_qp_cases,
};

kunit_test_suite(sk_qp_suite);
