// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: RQs and SQs: what they reference (CQ, PD, TIS, UAR, umems), the
 * rules of their work queues, and their RST/RDY/ERR states.
 */
#include "sk_queues.h"

#define RST	MLX5_RQC_STATE_RST
#define RDY	MLX5_RQC_STATE_RDY
#define ERR	MLX5_RQC_STATE_ERR

static u8 sk_rq_run(struct kunit *test, const void *in)
{
	return sk_q_create(test, in, PRM_BYTES(create_rq_in),
			   PRM_BYTES(create_rq_out), NULL);
}

static u8 sk_sq_run(struct kunit *test, const void *in)
{
	return sk_q_create(test, in, PRM_BYTES(create_sq_in),
			   PRM_BYTES(create_sq_out), NULL);
}

static u32 sk_wq_state(struct kunit *test, bool sq, u16 uid, u32 id)
{
	void *out = SK_MBOX(test, query_sq_out);

	BUILD_BUG_ON(PRM_BYTES(query_sq_out) != PRM_BYTES(query_rq_out));
	KUNIT_ASSERT_EQ(test, sk_q_query(test, sq ? MLX5_CMD_OP_QUERY_SQ :
					 MLX5_CMD_OP_QUERY_RQ, uid, id, out,
					 PRM_BYTES(query_sq_out)),
			PRM_STAT_OK);
	return sq ? PRM_GET(sqc, PRM_ADDR(query_sq_out, out, sq_context),
			    state) :
		    PRM_GET(rqc, PRM_ADDR(query_rq_out, out, rq_context),
			    state);
}

static void sk_rq_create_query_destroy(struct kunit *test)
{
	void *out = SK_MBOX(test, query_rq_out);
	const void *rqc = PRM_ADDR(query_rq_out, out, rq_context);
	struct sk_q r;
	u32 cqn, rqn;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_rq(test, &r, cqn, &rqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 4);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_RQ, r.uid, rqn,
					 out, PRM_BYTES(query_rq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, state), RST);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, cqn), cqn);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, wq.pd), r.pd);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, wq.log_wq_sz), 4);

	/* the CQ and PD are busy while the RQ lives */
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, r.uid, r.pd),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ, r.uid,
					   rqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 2);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_rq_rules(struct kunit *test)
{
	u32 max = SIM_CAP_GEN(sk_sim(test), log_max_wq_sz);
	struct sk_q r, other;
	void *in, *rqc, *wq;
	u32 cqn, qc;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	in = sk_rq_in(test, &r, cqn);
	rqc = PRM_ADDR(create_rq_in, in, ctx);
	wq = PRM_ADDR(rqc, rqc, wq);

	PRM_SET(rqc, rqc, state, RDY);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(rqc, rqc, state, RST);
	PRM_SET(rqc, rqc, mem_rq_type, MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_RMP);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	PRM_SET(rqc, rqc, mem_rq_type, 0);
	PRM_SET(rqc, rqc, hairpin, 1);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(rqc, rqc, hairpin, 0);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	PRM_SET(wq, wq, log_wq_sz, max + 1);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(wq, wq, log_wq_sz, 4);
	/* a receive WQE from 16 bytes to max_wqe_sz_rq (512) */
	PRM_SET(wq, wq, log_wq_stride, 3);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	PRM_SET(wq, wq, log_wq_stride, 10);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	/* 4096 WQEs of 64 bytes: the whole umem; one more log is too big */
	PRM_SET(wq, wq, log_wq_stride, 6);
	PRM_SET(wq, wq, log_wq_sz, 13);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(wq, wq, log_wq_sz, 4);
	/* raw addresses from a user context */
	PRM_SET(wq, wq, wq_umem_valid, 0);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_UMEM);
	PRM_SET(wq, wq, wq_umem_valid, 1);
	PRM_SET(wq, wq, dbr_umem_valid, 0);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_UMEM);
	PRM_SET(wq, wq, dbr_umem_valid, 1);
	/* a Q counter: ours, not another context's */
	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, other.uid, &qc),
			PRM_STAT_OK);
	PRM_SET(rqc, rqc, counter_set_id, qc);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, other.uid, qc),
			PRM_STAT_OK);
	PRM_SET(rqc, rqc, counter_set_id, 0);
	/* another context's PD and umem */
	PRM_SET(wq, wq, pd, other.pd);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(wq, wq, pd, r.pd);
	prm_set_bits(wq, SIM_WQ_UMEM_ID, 32, other.umem);
	KUNIT_EXPECT_EQ(test, sk_rq_run(test, in), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, other.umem), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	/* the same mailbox made good again */
	prm_set_bits(wq, SIM_WQ_UMEM_ID, 32, r.umem);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_rq_in),
					  PRM_BYTES(create_rq_out), &qc),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ, r.uid,
					   qc), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	sk_q_fini(test, &other);
}

/*
 * Every (from, to) pair, from each state the queue can be in: legal ones
 * succeed, the others are refused and leave the state alone.
 */
static void sk_wq_state_table(struct kunit *test, bool sq)
{
	/* the legal moves, and how to reach each source state from RST */
	static const bool legal[4][4] = {
		[RST] = { [RDY] = true },
		[RDY] = { [RST] = true, [RDY] = true, [ERR] = true },
		[ERR] = { [RST] = true },
	};
	static const u32 states[] = { RST, RDY, ERR };
	struct sk_q r;
	u32 cqn, tisn = 0, id, from, to;
	unsigned int i;

	sk_q_init_cap(test, &r, sq ? MLX5_UCTX_CAP_RAW_TX : 0);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	if (sq) {
		KUNIT_ASSERT_EQ(test, sk_create_tis(test, &r, &tisn),
				PRM_STAT_OK);
		KUNIT_ASSERT_EQ(test, sk_create_sq(test, &r, cqn, tisn, &id),
				PRM_STAT_OK);
	} else {
		KUNIT_ASSERT_EQ(test, sk_create_rq(test, &r, cqn, &id),
				PRM_STAT_OK);
	}
	for (i = 0; i < ARRAY_SIZE(states); i++) {
		from = states[i];
		for (to = 0; to < 5; to++) {
			bool ok = to < 4 && legal[from][to];
			u8 status;

			/* bring it to @from: RST, RST->RDY, RST->RDY->ERR */
			if (sk_wq_state(test, sq, r.uid, id) != RST)
				KUNIT_ASSERT_EQ(test, sk_wq_modify(test, sq,
					r.uid, id,
					sk_wq_state(test, sq, r.uid, id), RST),
					PRM_STAT_OK);
			if (from != RST)
				KUNIT_ASSERT_EQ(test, sk_wq_modify(test, sq,
					r.uid, id, RST, RDY), PRM_STAT_OK);
			if (from == ERR)
				KUNIT_ASSERT_EQ(test, sk_wq_modify(test, sq,
					r.uid, id, RDY, ERR), PRM_STAT_OK);
			status = sk_wq_modify(test, sq, r.uid, id, from, to);
			KUNIT_EXPECT_EQ_MSG(test, status,
					    ok ? PRM_STAT_OK :
						 PRM_STAT_BAD_PARAM,
					    "%s %u -> %u", sq ? "sq" : "rq",
					    from, to);
			if (!ok)
				KUNIT_EXPECT_EQ(test, sk_syndrome(test),
						SIM_SYND_BAD_STATE);
			KUNIT_EXPECT_EQ(test, sk_wq_state(test, sq, r.uid, id),
					ok ? to : from);
		}
	}
	/* a legal move, but the queue is not in the state the command says */
	from = sk_wq_state(test, sq, r.uid, id);
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, sq, r.uid, id,
					   from == RDY ? ERR : RDY, RST),
			PRM_STAT_BAD_RES_STATE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_STATE);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, sq ? MLX5_CMD_OP_DESTROY_SQ :
					   MLX5_CMD_OP_DESTROY_RQ, r.uid, id),
			PRM_STAT_OK);
	if (sq)
		KUNIT_EXPECT_EQ(test, sk_q_destroy(test,
						   MLX5_CMD_OP_DESTROY_TIS,
						   r.uid, tisn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

static void sk_rq_states(struct kunit *test)
{
	sk_wq_state_table(test, false);
}

static void sk_sq_states(struct kunit *test)
{
	sk_wq_state_table(test, true);
}

static u8 sk_rq_modify_mask(struct kunit *test, u16 uid, u32 rqn, u64 mask,
			    u32 vsd, u32 counter)
{
	void *in = SK_MBOX(test, modify_rq_in);
	void *out = SK_MBOX(test, modify_rq_out);
	void *rqc = PRM_ADDR(modify_rq_in, in, ctx);

	PRM_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
	PRM_SET(modify_rq_in, in, uid, uid);
	PRM_SET(modify_rq_in, in, rqn, rqn);
	PRM_SET(modify_rq_in, in, rq_state, RST);
	PRM_SET(rqc, rqc, state, RDY);
	PRM_SET64(modify_rq_in, in, modify_bitmask, mask);
	PRM_SET(rqc, rqc, vsd, vsd);
	PRM_SET(rqc, rqc, counter_set_id, counter);
	return sk_exec(test, in, PRM_BYTES(modify_rq_in), out,
		       PRM_BYTES(modify_rq_out));
}

static void sk_rq_modify_fields(struct kunit *test)
{
	void *out = SK_MBOX(test, query_rq_out);
	const void *rqc = PRM_ADDR(query_rq_out, out, rq_context);
	struct sk_q r;
	u32 cqn, rqn, qc;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_rq(test, &r, cqn, &rqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, r.uid, &qc),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_rq_modify_mask(test, r.uid, rqn, BIT(0), 1, 0),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_rq_modify_mask(test, r.uid, rqn,
		MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID, 0, qc + 1),
		PRM_STAT_BAD_RESOURCE);
	/* nothing changed by the refusals: still RST */
	KUNIT_EXPECT_EQ(test, sk_wq_state(test, false, r.uid, rqn), RST);
	KUNIT_EXPECT_EQ(test, sk_rq_modify_mask(test, r.uid, rqn,
		MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD |
		MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID, 1, qc),
		PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_RQ, r.uid, rqn,
					 out, PRM_BYTES(query_rq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, state), RDY);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, vsd), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, counter_set_id), qc);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqc, rqc, scatter_fcs), 0);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ, r.uid,
					   rqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_q_counter(test, r.uid, qc),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

static void sk_sq_create_rules(struct kunit *test)
{
	void *out = SK_MBOX(test, query_sq_out);
	const void *qsqc = PRM_ADDR(query_sq_out, out, sq_context);
	struct sk_q r, other;
	u32 cqn, tisn, otis, sqn;
	void *in, *sqc, *wq;

	sk_q_init_cap(test, &r, MLX5_UCTX_CAP_RAW_TX);
	sk_q_init_cap(test, &other, MLX5_UCTX_CAP_RAW_TX);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_tis(test, &r, &tisn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_tis(test, &other, &otis), PRM_STAT_OK);
	in = sk_sq_in(test, &r, cqn, tisn);
	sqc = PRM_ADDR(create_sq_in, in, ctx);
	wq = PRM_ADDR(sqc, sqc, wq);

	PRM_SET(sqc, sqc, tis_lst_sz, 0);
	KUNIT_EXPECT_EQ(test, sk_sq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(sqc, sqc, tis_lst_sz, 2);
	KUNIT_EXPECT_EQ(test, sk_sq_run(test, in), PRM_STAT_BAD_PARAM);
	PRM_SET(sqc, sqc, tis_lst_sz, 1);
	PRM_SET(sqc, sqc, tis_num_0, otis);
	KUNIT_EXPECT_EQ(test, sk_sq_run(test, in), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(sqc, sqc, tis_num_0, tisn);
	/* the send WQE basic block is 64 bytes */
	PRM_SET(wq, wq, log_wq_stride, 5);
	KUNIT_EXPECT_EQ(test, sk_sq_run(test, in), PRM_STAT_BAD_PARAM);
	PRM_SET(wq, wq, log_wq_stride, 6);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST);
	KUNIT_EXPECT_EQ(test, sk_sq_run(test, in), PRM_STAT_BAD_PARAM);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	PRM_SET(sqc, sqc, packet_pacing_rate_limit_index, 1);
	KUNIT_EXPECT_EQ(test, sk_sq_run(test, in), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(sqc, sqc, packet_pacing_rate_limit_index, 0);
	PRM_SET(wq, wq, uar_page, other.uar);
	KUNIT_EXPECT_EQ(test, sk_sq_run(test, in), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(wq, wq, uar_page, r.uar);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TIS, tisn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);

	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_sq_in),
					  PRM_BYTES(create_sq_out), &sqn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TIS, tisn), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, r.uar), 0);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_SQ, r.uid, sqn,
					 out, PRM_BYTES(query_sq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(sqc, qsqc, tis_num_0), tisn);
	KUNIT_EXPECT_EQ(test, PRM_GET(sqc, qsqc, cqn), cqn);
	KUNIT_EXPECT_EQ(test, PRM_GET(sqc, qsqc, state), RST);
	/* the TIS is busy while the SQ sends through it */
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS, r.uid,
					   tisn), PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, true, r.uid, sqn, RST, RDY),
			PRM_STAT_OK);
	/* another context can neither query, move nor destroy it */
	KUNIT_EXPECT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_SQ, other.uid,
					 sqn, out, PRM_BYTES(query_sq_out)),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, true, other.uid, sqn, RDY,
					   ERR), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ,
					   other.uid, sqn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ, r.uid,
					   sqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS, r.uid,
					   tisn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS,
					   other.uid, otis), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	sk_q_fini(test, &other);
}

static void sk_sq_modify_mask(struct kunit *test)
{
	void *in = SK_MBOX(test, modify_sq_in);
	void *out = SK_MBOX(test, modify_sq_out);
	struct sk_q r;
	u32 cqn, tisn, sqn;

	sk_q_init_cap(test, &r, MLX5_UCTX_CAP_RAW_TX);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_tis(test, &r, &tisn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_sq(test, &r, cqn, tisn, &sqn),
			PRM_STAT_OK);
	PRM_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	PRM_SET(modify_sq_in, in, uid, r.uid);
	PRM_SET(modify_sq_in, in, sqn, sqn);
	PRM_SET(modify_sq_in, in, sq_state, RST);
	PRM_SET(sqc, PRM_ADDR(modify_sq_in, in, ctx), state, RDY);
	PRM_SET64(modify_sq_in, in, modify_bitmask, 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(modify_sq_in), out,
				      PRM_BYTES(modify_sq_out)),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_wq_state(test, true, r.uid, sqn), RST);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ, r.uid,
					   sqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS, r.uid,
					   tisn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

/* Change what a context was created with, as if it had been made so. */
static void sk_uctx_set_cap(struct kunit *test, u16 uid, u32 cap)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_obj *obj;

	mutex_lock(&sim->lock);
	obj = xa_load(&sim->objs[SIM_OBJ_UCTX], uid);
	if (obj)
		container_of(obj, struct sim_uctx, obj)->cap = cap;
	mutex_unlock(&sim->lock);
	KUNIT_ASSERT_NOT_NULL(test, obj);
}

/*
 * A TIS and an SQ put frames of the process's making on the wire: a user
 * context may create them only if it was created with RAW_TX, whatever
 * else the mailbox says; the kernel (uid 0) always may.  A refusal takes
 * no reference and leaves no object.
 */
static void sk_raw_tx(struct kunit *test)
{
	struct sk_q r, k;
	u32 cqn, tisn, tisn2, sqn, kcqn, ktisn, ksqn;
	unsigned int live;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	live = sk_live(test);
	KUNIT_EXPECT_EQ(test, sk_create_tis(test, &r, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_RAW_TX_PRIV);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TD, r.td), 0);
	/* INTERNAL_DEV_RES is not RAW_TX */
	sk_uctx_set_cap(test, r.uid, MLX5_UCTX_CAP_INTERNAL_DEV_RES);
	KUNIT_EXPECT_EQ(test, sk_create_tis(test, &r, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_RAW_TX_PRIV);
	KUNIT_EXPECT_EQ(test, sk_live(test), live);

	/* with the cap the same mailbox makes a TIS */
	sk_uctx_set_cap(test, r.uid, MLX5_UCTX_CAP_RAW_TX);
	KUNIT_ASSERT_EQ(test, sk_create_tis(test, &r, &tisn), PRM_STAT_OK);
	/* an SQ over it, all of the context's own, but the cap gone */
	sk_uctx_set_cap(test, r.uid, 0);
	live = sk_live(test);
	KUNIT_EXPECT_EQ(test, sk_create_sq(test, &r, cqn, tisn, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_RAW_TX_PRIV);
	KUNIT_EXPECT_EQ(test, sk_create_tis(test, &r, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_RAW_TX_PRIV);
	KUNIT_EXPECT_EQ(test, sk_live(test), live);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TIS, tisn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	/* the cap back (both caps): SQ and a second TIS */
	sk_uctx_set_cap(test, r.uid, MLX5_UCTX_CAP_RAW_TX |
			MLX5_UCTX_CAP_INTERNAL_DEV_RES);
	KUNIT_ASSERT_EQ(test, sk_create_sq(test, &r, cqn, tisn, &sqn),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_tis(test, &r, &tisn2), PRM_STAT_OK);
	/* what exists outlives losing the cap */
	sk_uctx_set_cap(test, r.uid, 0);
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, true, r.uid, sqn, RST, RDY),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ, r.uid,
					   sqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS, r.uid,
					   tisn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS, r.uid,
					   tisn2), PRM_STAT_OK);

	/* the kernel needs no context, hence no cap */
	sk_q_init_cap(test, &k, SK_Q_KERNEL);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &k, &kcqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_tis(test, &k, &ktisn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_sq(test, &k, kcqn, ktisn, &ksqn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ, 0,
					   ksqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS, 0,
					   ktisn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, 0,
					   kcqn), PRM_STAT_OK);
	sk_q_fini(test, &k);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct kunit_case sk_wq_cases[] = {
	KUNIT_CASE(sk_rq_create_query_destroy),
	KUNIT_CASE(sk_rq_rules),
	KUNIT_CASE(sk_rq_states),
	KUNIT_CASE(sk_rq_modify_fields),
	KUNIT_CASE(sk_sq_create_rules),
	KUNIT_CASE(sk_sq_states),
	KUNIT_CASE(sk_sq_modify_mask),
	KUNIT_CASE(sk_raw_tx),
	{}
};

static struct kunit_suite sk_wq_suite = {
	.name = "mlx5x_sim_wq",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_wq_cases,
};

kunit_test_suite(sk_wq_suite);
