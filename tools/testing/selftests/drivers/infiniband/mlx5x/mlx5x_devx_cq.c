// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX CQs, RQs, SQs, TISs, RQTs and TIRs through mlx5dv_devx_obj_create(3)
 * and friends: each kind created, queried, modified and destroyed; the
 * firmware's rules seen from userspace (EREMOTEIO, status and syndrome in
 * the output); buffers always named by umem, the kernel forcing the
 * umem_valid bits; objects in use cannot be destroyed.
 *
 * The statuses and syndromes checked are the firmware model's; on
 * hardware the cases that depend on them skip.
 */
#include "mlx5x_queues.h"

MT_TEST_F(mt_mq, cq_create_query_modify_destroy)
{
	uint32_t in[PRM_MODIFY_CQ_IN_BYTES / 4] = {};
	uint32_t out[PRM_QUERY_CQ_OUT_BYTES / 4];
	struct mq *q = &self->q;
	struct mq_obj cq;

	if (!mq_cq(q, &cq))
		return KSFT_FAIL;
	mt_fw_check_owner("cq", cq.id, q->uid);
	if (CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_CQ, cq.id, out, sizeof(out)),
		      0)) {
		CHECK_EQ(mt_get(out, PRM_QUERY_CQ_OUT_CQ_CONTEXT_LOG_CQ_SIZE), 4);
		CHECK_EQ(mt_get(out, PRM_QUERY_CQ_OUT_CQ_CONTEXT_UAR_PAGE),
			 q->uar->page_id);
		CHECK_EQ(mt_get(out,
			 PRM_QUERY_CQ_OUT_CQ_CONTEXT_C_EQN_OR_APU_ELEMENT),
			 q->eqn);
		CHECK_EQ(mt_get(out,
				PRM_QUERY_CQ_OUT_CQ_CONTEXT_DBR_UMEM_VALID), 1);
	}
	/* MODIFY_CQ: moderation period and count */
	mt_set(in, PRM_IN_OPCODE, PRM_OP_MODIFY_CQ);
	mt_set(in, PRM_MODIFY_CQ_IN_CQN, cq.id);
	mt_set(in, PRM_MODIFY_CQ_IN_MODIFY_FIELD_SELECT_RESIZE_FIELD_SELECT_MODIFY_FIELD_SELECT_MODIFY_FIELD_SELECT,
	       3);
	mt_set(in, PRM_MODIFY_CQ_IN_CQ_CONTEXT_CQ_PERIOD, 10);
	mt_set(in, PRM_MODIFY_CQ_IN_CQ_CONTEXT_CQ_MAX_COUNT, 20);
	CHECK_ERR(mlx5dv_devx_obj_modify(cq.obj, in, sizeof(in), out, 16), 0);
	if (CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_CQ, cq.id, out, sizeof(out)),
		      0)) {
		CHECK_EQ(mt_get(out, PRM_QUERY_CQ_OUT_CQ_CONTEXT_CQ_PERIOD), 10);
		CHECK_EQ(mt_get(out, PRM_QUERY_CQ_OUT_CQ_CONTEXT_CQ_MAX_COUNT),
			 20);
	}
	/* resizing is refused by the model */
	if (mt_sim()) {
		mt_set(in, PRM_MODIFY_CQ_IN_OP_MOD, 1);
		CHECK_ERR(mlx5dv_devx_obj_modify(cq.obj, in, sizeof(in), out,
						 16), EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_PARAM);
	}
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("cq", q->uid), 0);
	return KSFT_PASS;
}

/* The umem must hold every CQE asked for, at the offset given. */
MT_TEST_F(mt_mq, cq_umem_too_small)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4], out[4];
	struct mq_obj cq;
	struct mq *q = &self->q;

	/* 4096 CQEs of 64 bytes: exactly the umem */
	mq_cq_in(q, in);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, 12);
	if (CHECK(mq_create(q, in, sizeof(in), &cq, out)))
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	/* twice that: too small */
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, 13);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* 128-byte CQEs */
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, 12);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_CQE_SZ, 1);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* an offset pushing 16 CQEs past the end */
	mq_cq_in(q, in);
	mt_set(in, MT_FIELD(CQ_UMEM_OFF + 32, 32), MQ_BYTES - 512);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* the doorbell record past the end */
	mq_cq_in(q, in);
	mt_set(in, MT_FIELD(PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_ADDR_OFF + 32, 32),
	       MQ_BYTES);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	CHECK_EQ(mt_fw_count("cq", q->uid), 0);
	return KSFT_PASS;
}

MT_TEST_F(mt_mq, cq_rules)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4];
	struct mq *q = &self->q;

	mq_cq_in(q, in);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, 23);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_CAP);
	mq_cq_in(q, in);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_C_EQN_OR_APU_ELEMENT,
	       q->eqn + 100);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT);
	mq_cq_in(q, in);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_UAR_PAGE, 0xfffff);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT);
	mq_cq_in(q, in);
	mt_set(in, CQ_UMEM_ID, q->umem->umem_id + 1000);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT);
	CHECK_EQ(mt_fw_count("cq", q->uid), 0);
	return KSFT_PASS;
}

/*
 * A process's mailbox with the umem_valid bits clear and a raw address in
 * the PAS: the kernel sets the bits, so firmware reads the umem fields and
 * never the addresses.  With a good umem id it builds the CQ on the umem;
 * with none it refuses for the missing umem, not for a raw address.
 */
MT_TEST_F(mt_mq, umem_valid_forced_by_kernel)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4 + 2];
	uint32_t out[PRM_QUERY_CQ_OUT_BYTES / 4];
	struct mq_obj cq;
	struct mq *q = &self->q;

	mq_cq_in(q, in);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_UMEM_VALID, 0);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_UMEM_VALID, 0);
	mt_set(in, MT_FIELD(PRM_CREATE_CQ_IN_PAS_OFF, 32), 0x1);
	mt_set(in, MT_FIELD(PRM_CREATE_CQ_IN_PAS_OFF + 32, 32), 0x2345000);
	if (CHECK(mq_create(q, in, sizeof(in), &cq, out))) {
		if (CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_CQ, cq.id, out,
				       sizeof(out)), 0))
			CHECK_EQ(mt_get(out,
				PRM_QUERY_CQ_OUT_CQ_CONTEXT_DBR_UMEM_VALID), 1);
		/* the umem is in use by it: the kernel did name it */
		errno = 0;
		CHECK_ERR(mlx5dv_devx_umem_dereg(q->umem), EBUSY);
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	}
	if (mt_sim()) {
		/* no umem named: refused as a missing umem */
		mt_set(in, CQ_UMEM_ID, 0);
		mq_refused(q, in, sizeof(in), MT_STAT_BAD_RESOURCE,
			   SYND_NO_OBJECT);
		mt_set(in, CQ_UMEM_ID, q->umem->umem_id);
		mt_set(in, CQ_DBR_UMEM_ID, 0);
		mq_refused(q, in, sizeof(in), MT_STAT_BAD_RESOURCE,
			   SYND_NO_OBJECT);
		CHECK_EQ(mt_fw_count("cq", q->uid), 0);
	}
	/* the same for an RQ and an SQ */
	if (mt_sim()) {
		uint32_t rin[PRM_CREATE_RQ_IN_BYTES / 4];
		struct mq_obj rcq;

		if (mq_cq(q, &rcq)) {
			mq_rq_in(q, rin, rcq.id);
			mt_set(rin, PRM_CREATE_RQ_IN_CTX_WQ_WQ_UMEM_VALID, 0);
			mt_set(rin, PRM_CREATE_RQ_IN_CTX_WQ_DBR_UMEM_VALID, 0);
			mt_set(rin, WQ_UMEM_ID(RQ_WQ), 0);
			mq_refused(q, rin, sizeof(rin), MT_STAT_BAD_RESOURCE,
				   SYND_NO_OBJECT);
			CHECK_ERR(mlx5dv_devx_obj_destroy(rcq.obj), 0);
		}
	}
	return KSFT_PASS;
}

/* A CQ an RQ uses, a umem a CQ uses: busy until the user goes. */
MT_TEST_F(mt_mq, destroy_while_referenced)
{
	struct mq_obj cq, rq;
	struct mq *q = &self->q;

	if (!mq_cq(q, &cq))
		return KSFT_FAIL;
	if (mq_rq(q, cq.id, &rq)) {
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), EBUSY);
		CHECK_ERR(mlx5dv_devx_obj_destroy(rq.obj), 0);
	}
	CHECK_ERR(mlx5dv_devx_umem_dereg(q->umem), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	if (CHECK_ERR(mlx5dv_devx_umem_dereg(q->umem), 0))
		q->umem = NULL;
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, q->uid), q->base - 1);
	return KSFT_PASS;
}

static int wq_move(struct mq_obj *o, bool sq, uint32_t cur, uint32_t next,
		   uint32_t *out)
{
	uint32_t in[PRM_MODIFY_RQ_IN_BYTES / 4];

	mq_wq_move_in(in, sq, o->id, cur, next);
	memset(out, 0, 16);
	return mlx5dv_devx_obj_modify(o->obj, in, sizeof(in), out, 16);
}

static uint32_t wq_state(struct mq_obj *o, bool sq)
{
	uint32_t out[PRM_QUERY_RQ_OUT_BYTES / 4];

	if (!CHECK_ERR(mq_query(o, sq ? PRM_OP_QUERY_SQ : PRM_OP_QUERY_RQ,
				o->id, out,
				sizeof(out)), 0))
		return ~0U;
	return mt_get(out, PRM_QUERY_RQ_OUT_RQ_CONTEXT_STATE);
}

/* RST -> RDY -> ERR -> RST, queried; wrong current state refused. */
static void walk_wq(struct mq_obj *o, bool sq)
{
	uint32_t out[4];

	CHECK_EQ(wq_state(o, sq), WQ_RST);
	CHECK_ERR(wq_move(o, sq, WQ_RST, WQ_RDY, out), 0);
	CHECK_EQ(wq_state(o, sq), WQ_RDY);
	CHECK_ERR(wq_move(o, sq, WQ_RDY, WQ_ERR, out), 0);
	CHECK_EQ(wq_state(o, sq), WQ_ERR);
	if (mt_sim()) {
		/* it is in ERR, not RDY */
		CHECK_ERR(wq_move(o, sq, WQ_RDY, WQ_RST, out), EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_RES_STATE);
		CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_BAD_STATE);
		/* ERR -> RDY is no transition */
		CHECK_ERR(wq_move(o, sq, WQ_ERR, WQ_RDY, out), EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_PARAM);
		CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_BAD_STATE);
	}
	CHECK_ERR(wq_move(o, sq, WQ_ERR, WQ_RST, out), 0);
	CHECK_EQ(wq_state(o, sq), WQ_RST);
}

MT_TEST_F(mt_mq, rq_sq_states)
{
	uint32_t out[PRM_QUERY_SQ_OUT_BYTES / 4];
	struct mq_obj cq, rq, tis, sq;
	struct mq *q = &self->q;

	if (!mq_cq(q, &cq))
		return KSFT_FAIL;
	if (mq_rq(q, cq.id, &rq)) {
		mt_fw_check_owner("rq", rq.id, q->uid);
		walk_wq(&rq, false);
		CHECK_ERR(mlx5dv_devx_obj_destroy(rq.obj), 0);
	}
	if (mq_tis(q, &tis)) {
		mt_fw_check_owner("tis", tis.id, q->uid);
		if (mq_sq(q, cq.id, tis.id, &sq)) {
			mt_fw_check_owner("sq", sq.id, q->uid);
			if (CHECK_ERR(mq_query(&sq, PRM_OP_QUERY_SQ, sq.id, out,
					       sizeof(out)), 0)) {
				CHECK_EQ(mt_get(out,
					PRM_QUERY_SQ_OUT_SQ_CONTEXT_TIS_NUM_0),
					tis.id);
				CHECK_EQ(mt_get(out,
					PRM_QUERY_SQ_OUT_SQ_CONTEXT_CQN), cq.id);
			}
			walk_wq(&sq, true);
			/* the TIS is the SQ's until it goes */
			CHECK_ERR(mlx5dv_devx_obj_destroy(tis.obj), EBUSY);
			CHECK_ERR(mlx5dv_devx_obj_destroy(sq.obj), 0);
		}
		CHECK_ERR(mlx5dv_devx_obj_destroy(tis.obj), 0);
	}
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, q->uid), q->base);
	return KSFT_PASS;
}

MT_TEST_F(mt_mq, tis_create_query_modify)
{
	uint32_t in[PRM_MODIFY_TIS_IN_BYTES / 4] = {};
	uint32_t out[PRM_QUERY_TIS_OUT_BYTES / 4];
	struct mq_obj tis;
	struct mq *q = &self->q;

	if (!mq_tis(q, &tis))
		return KSFT_FAIL;
	if (CHECK_ERR(mq_query(&tis, PRM_OP_QUERY_TIS, tis.id, out,
			       sizeof(out)),
		      0)) {
		CHECK_EQ(mt_get(out, PRM_QUERY_TIS_OUT_TIS_CONTEXT_PRIO), 4);
		CHECK_EQ(mt_get(out,
			 PRM_QUERY_TIS_OUT_TIS_CONTEXT_TRANSPORT_DOMAIN),
			 q->td);
	}
	mt_set(in, PRM_IN_OPCODE, PRM_OP_MODIFY_TIS);
	mt_set(in, PRM_MODIFY_TIS_IN_TISN, tis.id);
	mt_set(in, PRM_MODIFY_TIS_IN_BITMASK_PRIO, 1);
	mt_set(in, PRM_MODIFY_TIS_IN_CTX_PRIO, 6 << 1);
	CHECK_ERR(mlx5dv_devx_obj_modify(tis.obj, in, sizeof(in), out, 16), 0);
	if (CHECK_ERR(mq_query(&tis, PRM_OP_QUERY_TIS, tis.id, out,
			       sizeof(out)),
		      0))
		CHECK_EQ(mt_get(out, PRM_QUERY_TIS_OUT_TIS_CONTEXT_PRIO),
			 6 << 1);
	/* the transport domain is the TIS's until it goes */
	CHECK_ERR(mlx5dv_devx_obj_destroy(q->td_obj), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(tis.obj), 0);
	return KSFT_PASS;
}

MT_TEST_F(mt_mq, rqt_tir_create_query_modify)
{
	uint32_t in[(PRM_CREATE_RQT_IN_BYTES + 8) / 4];
	uint32_t out[(PRM_QUERY_RQT_OUT_BYTES + 8) / 4];
	struct mq_obj cq, rq[2], rqt, tir, dtir;
	uint32_t rqn[2];
	struct mq *q = &self->q;
	size_t len;

	if (!mq_cq(q, &cq))
		return KSFT_FAIL;
	if (!mq_rq(q, cq.id, &rq[0]) || !mq_rq(q, cq.id, &rq[1]))
		return KSFT_FAIL;
	rqn[0] = rq[0].id;
	rqn[1] = rq[1].id;
	len = mq_rqt_in(in, PRM_OP_CREATE_RQT, 2, rqn, 2);
	if (!CHECK(mq_create(q, in, len, &rqt, out)))
		return KSFT_FAIL;
	mt_fw_check_owner("rqt", rqt.id, q->uid);
	if (CHECK_ERR(mq_query(&rqt, PRM_OP_QUERY_RQT, rqt.id, out,
			       sizeof(out)),
		      0)) {
		CHECK_EQ(mt_get(out,
			 PRM_QUERY_RQT_OUT_RQT_CONTEXT_RQT_ACTUAL_SIZE), 2);
		CHECK_EQ(mt_get(out, MT_FIELD(
			 PRM_QUERY_RQT_OUT_RQT_CONTEXT_RQ_NUM_OFF + 32 + 8,
			 24)), rqn[1]);
	}
	/* the RQs are the table's */
	CHECK_ERR(mlx5dv_devx_obj_destroy(rq[1].obj), EBUSY);
	/* MODIFY_RQT: the list becomes rq[0] alone */
	len = mq_rqt_in(in, PRM_OP_MODIFY_RQT, 0, rqn, 1);
	mt_set(in, PRM_MODIFY_RQT_IN_RQTN, rqt.id);
	mt_set(in, PRM_MODIFY_RQT_IN_BITMASK_RQN_LIST, 1);
	CHECK_ERR(mlx5dv_devx_obj_modify(rqt.obj, in, len, out, 16), 0);
	if (CHECK_ERR(mq_query(&rqt, PRM_OP_QUERY_RQT, rqt.id, out,
			       sizeof(out)),
		      0))
		CHECK_EQ(mt_get(out,
			 PRM_QUERY_RQT_OUT_RQT_CONTEXT_RQT_ACTUAL_SIZE), 1);

	/* an indirect TIR over the table, a direct one to rq[1] */
	mq_tir_in(q, in, true, rqt.id);
	if (CHECK(mq_create(q, in, PRM_CREATE_TIR_IN_BYTES, &tir, out))) {
		uint32_t min[PRM_MODIFY_TIR_IN_BYTES / 4] = {};
		uint32_t tout[PRM_QUERY_TIR_OUT_BYTES / 4];

		mt_fw_check_owner("tir", tir.id, q->uid);
		CHECK_ERR(mlx5dv_devx_obj_destroy(rqt.obj), EBUSY);
		mt_set(min, PRM_IN_OPCODE, PRM_OP_MODIFY_TIR);
		mt_set(min, PRM_MODIFY_TIR_IN_TIRN, tir.id);
		mt_set(min, PRM_MODIFY_TIR_IN_BITMASK_HASH, 1);
		mt_set(min, PRM_MODIFY_TIR_IN_CTX_RX_HASH_FN, 1);	/* XOR8 */
		mt_set(min,
		       PRM_MODIFY_TIR_IN_CTX_RX_HASH_FIELD_SELECTOR_OUTER_SELECTED_FIELDS,
		       0xf);
		CHECK_ERR(mlx5dv_devx_obj_modify(tir.obj, min, sizeof(min),
						 out, 16), 0);
		if (CHECK_ERR(mq_query(&tir, PRM_OP_QUERY_TIR, tir.id, tout,
				       sizeof(tout)), 0)) {
			CHECK_EQ(mt_get(tout,
				 PRM_QUERY_TIR_OUT_TIR_CONTEXT_RX_HASH_FN), 1);
			CHECK_EQ(mt_get(tout,
				 PRM_QUERY_TIR_OUT_TIR_CONTEXT_INDIRECT_TABLE),
				 rqt.id);
		}
		CHECK_ERR(mlx5dv_devx_obj_destroy(tir.obj), 0);
	}
	mq_tir_in(q, in, false, rq[1].id);
	if (CHECK(mq_create(q, in, PRM_CREATE_TIR_IN_BYTES, &dtir, out))) {
		CHECK_ERR(mlx5dv_devx_obj_destroy(rq[1].obj), EBUSY);
		CHECK_ERR(mlx5dv_devx_obj_destroy(dtir.obj), 0);
	}
	if (mt_sim()) {
		/* an indirect TIR without a hash function */
		mq_tir_in(q, in, true, rqt.id);
		mt_set(in, PRM_CREATE_TIR_IN_CTX_RX_HASH_FN, 0);
		mq_refused(q, in, PRM_CREATE_TIR_IN_BYTES, MT_STAT_BAD_PARAM,
			   SYND_BAD_FIELD);
	}
	CHECK_ERR(mlx5dv_devx_obj_destroy(rqt.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(rq[0].obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(rq[1].obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, q->uid), q->base);
	return KSFT_PASS;
}

/* A query or modify through a handle must name that handle's object. */
MT_TEST_F(mt_mq, query_modify_name_own_object)
{
	uint32_t out[PRM_QUERY_RQ_OUT_BYTES / 4];
	struct mq_obj cq, cq2, rq;
	struct mq *q = &self->q;

	if (!mq_cq(q, &cq) || !mq_cq(q, &cq2))
		return KSFT_FAIL;
	CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_CQ, cq2.id, out, sizeof(out)),
		  EINVAL);
	/* a command of another kind */
	CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_RQ, cq.id, out, sizeof(out)),
		  EINVAL);
	if (mq_rq(q, cq.id, &rq)) {
		CHECK_ERR(wq_move(&rq, false, WQ_RST, WQ_RDY, out), 0);
		/* the same modify naming the CQ's number through the RQ */
		rq.id = cq2.id;
		CHECK_ERR(wq_move(&rq, false, WQ_RDY, WQ_ERR, out), EINVAL);
		CHECK_ERR(mlx5dv_devx_obj_destroy(rq.obj), 0);
	}
	return KSFT_PASS;
}

/* @cq's number, from mlx5dv_init_obj(3). */
static uint32_t verbs_cqn(struct ibv_cq *cq)
{
	struct mlx5dv_cq dv = {};
	struct mlx5dv_obj o = { .cq = { .in = cq, .out = &dv } };

	return CHECK_ERR(mlx5dv_init_obj(&o, MLX5DV_OBJ_CQ), 0) ? dv.cqn : 0;
}

/* MODIFY_CQ of @cqn: op_mod @op_mod, field select @sel, moderation 10/20. */
static int verbs_cq_modify(struct ibv_cq *cq, uint32_t cqn, int op_mod,
			   uint32_t sel)
{
	uint32_t in[PRM_MODIFY_CQ_IN_BYTES / 4] = {}, out[4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_MODIFY_CQ);
	mt_set(in, PRM_MODIFY_CQ_IN_OP_MOD, op_mod);
	mt_set(in, PRM_MODIFY_CQ_IN_CQN, cqn);
	mt_set(in, PRM_MODIFY_CQ_IN_MODIFY_FIELD_SELECT_RESIZE_FIELD_SELECT_MODIFY_FIELD_SELECT_MODIFY_FIELD_SELECT,
	       sel);
	mt_set(in, PRM_MODIFY_CQ_IN_CQ_CONTEXT_CQ_PERIOD, 10);
	mt_set(in, PRM_MODIFY_CQ_IN_CQ_CONTEXT_CQ_MAX_COUNT, 20);
	return mlx5dv_devx_cq_modify(cq, in, sizeof(in), out, sizeof(out));
}

/* QUERY_CQ of @cqn (through @cq's handle) into @out. */
static int verbs_cq_query(struct ibv_cq *cq, uint32_t cqn, uint32_t *out)
{
	uint32_t in[PRM_QUERY_CQ_IN_BYTES / 4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_CQ);
	mt_set(in, PRM_QUERY_CQ_IN_CQN, cqn);
	memset(out, 0, PRM_QUERY_CQ_OUT_BYTES);
	return mlx5dv_devx_cq_query(cq, in, sizeof(in), out,
				    PRM_QUERY_CQ_OUT_BYTES);
}

/*
 * mlx5dv_devx_cq_query(3) and _modify on a verbs CQ of a DEVX context,
 * as nobody: QUERY_CQ answers with the CQ's context (its size and EQ),
 * MODIFY_CQ sets its moderation.  Nothing else passes: a resize or an
 * EQ move (the kernel tracks both), another opcode, another CQ's number
 * (one of the same context's, and one of another context's).
 */
static int verbs_cq_child(void *arg)
{
	uint32_t out[PRM_QUERY_CQ_OUT_BYTES / 4];
	struct ibv_cq *cq, *cq2, *foreign;
	struct ibv_context *other;
	struct mq *q = arg;
	uint32_t cqn;

	if (!mq_open(q))
		return KSFT_FAIL;
	other = mt_open(MT_OPEN_DEVX, NULL);
	cq = ibv_create_cq(q->ctx, 15, NULL, NULL, 0);
	cq2 = ibv_create_cq(q->ctx, 15, NULL, NULL, 0);
	foreign = other ? ibv_create_cq(other, 15, NULL, NULL, 0) : NULL;
	if (!CHECK(cq) || !CHECK(cq2) || !CHECK(foreign))
		return KSFT_FAIL;
	cqn = verbs_cqn(cq);
	if (CHECK_ERR(verbs_cq_query(cq, cqn, out), 0)) {
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
		CHECK_EQ(1u << mt_get(out,
				      PRM_QUERY_CQ_OUT_CQ_CONTEXT_LOG_CQ_SIZE),
			 cq->cqe + 1);
		CHECK_EQ(mt_get(out, PRM_QUERY_CQ_OUT_CQ_CONTEXT_CQ_PERIOD), 0);
	}
	CHECK_ERR(verbs_cq_modify(cq, cqn, 0, 3), 0);
	if (CHECK_ERR(verbs_cq_query(cq, cqn, out), 0)) {
		CHECK_EQ(mt_get(out, PRM_QUERY_CQ_OUT_CQ_CONTEXT_CQ_PERIOD), 10);
		CHECK_EQ(mt_get(out, PRM_QUERY_CQ_OUT_CQ_CONTEXT_CQ_MAX_COUNT),
			 20);
	}
	/* a resize, an EQ move (field select bit 3) */
	CHECK_ERR(verbs_cq_modify(cq, cqn, 1, 1), EINVAL);
	CHECK_ERR(verbs_cq_modify(cq, cqn, 0, 3 | 8), EINVAL);
	/* other CQs' numbers, through this CQ's handle */
	CHECK_ERR(verbs_cq_query(cq, verbs_cqn(cq2), out), EINVAL);
	CHECK_ERR(verbs_cq_query(cq, verbs_cqn(foreign), out), EINVAL);
	CHECK_ERR(verbs_cq_modify(cq, verbs_cqn(foreign), 0, 3), EINVAL);
	/* another command naming the CQ */
	mt_set(out, PRM_IN_OPCODE, PRM_OP_QUERY_RQ);
	mt_set(out, PRM_QUERY_CQ_IN_CQN, cqn);
	CHECK_ERR(mlx5dv_devx_cq_query(cq, out, 16, out + 4, 64), EINVAL);
	CHECK_ERR(ibv_destroy_cq(foreign), 0);
	CHECK_ERR(ibv_close_device(other), 0);
	CHECK_ERR(ibv_destroy_cq(cq2), 0);
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	mq_close(q);
	return KSFT_PASS;
}

static int test_verbs_cq_nobody(void)
{
	struct mq q;

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, verbs_cq_child, &q), KSFT_PASS);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_mq_fixture, cq_create_query_modify_destroy),
	MT_CASE_ON(mt_mq_fixture, cq_umem_too_small, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_mq_fixture, cq_rules, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_mq_fixture, umem_valid_forced_by_kernel),
	MT_CASE_ON(mt_mq_fixture, destroy_while_referenced),
	MT_CASE_ON(mt_mq_fixture, rq_sq_states),
	MT_CASE_ON(mt_mq_fixture, tis_create_query_modify),
	MT_CASE_ON(mt_mq_fixture, rqt_tir_create_query_modify),
	MT_CASE_ON(mt_mq_fixture, query_modify_name_own_object),
	MT_CASE(verbs_cq_nobody, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
