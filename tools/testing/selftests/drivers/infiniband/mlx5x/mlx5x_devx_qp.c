// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX RC QPs: the PRM state machine walked from userspace with QUERY_QP
 * after each step, illegal transitions refused; a second process kept off
 * this process's queues; a context closed, or its process killed, while
 * holding every kind of queue object leaves nothing in the model; a create
 * failed by fault injection leaves nothing either.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "mlx5x_fixtures.h"
#include "mlx5x_queues.h"

static int qp_move(struct mq_obj *qp, uint16_t op, uint32_t *out)
{
	uint32_t in[PRM_RST2INIT_QP_IN_BYTES / 4] = {};

	mt_set(in, PRM_IN_OPCODE, op);
	mt_set(in, PRM_RST2INIT_QP_IN_QPN, qp->id);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_PRIMARY_ADDRESS_PATH_VHCA_PORT_NUM, 1);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_RRE, 1);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_RWE, 1);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_MTU, 3);		/* 1024 */
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_LOG_MSG_MAX, 20);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_REMOTE_QPN, qp->id);	/* loopback */
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_NEXT_RCV_PSN, 0x100);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_PRIMARY_ADDRESS_PATH_RMAC_47_32,
	       0x0200);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_PRIMARY_ADDRESS_PATH_RMAC_31_0, 1);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_PRIMARY_ADDRESS_PATH_HOP_LIMIT, 64);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_NEXT_SEND_PSN, 0x200);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_RETRY_COUNT, 7);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_RNR_RETRY, 7);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_PRIMARY_ADDRESS_PATH_ACK_TIMEOUT, 14);
	memset(out, 0, 16);
	return mlx5dv_devx_obj_modify(qp->obj, in, sizeof(in), out, 16);
}

static uint32_t qp_query(struct mq_obj *qp, uint32_t *out)
{
	if (!CHECK_ERR(mq_query(qp, PRM_OP_QUERY_QP, qp->id, out,
				PRM_QUERY_QP_OUT_BYTES), 0))
		return ~0U;
	return mt_get(out, PRM_QUERY_QP_OUT_QPC_STATE);
}

/* RST -> INIT -> RTR -> RTS -> ERR -> RST, QUERY_QP after each. */
MT_TEST_F(mt_mq, qp_state_walk)
{
	static const struct {
		uint16_t op;
		uint32_t state;
	} walk[] = {
		{ PRM_OP_RST2INIT_QP, QP_INIT },
		{ PRM_OP_INIT2INIT_QP, QP_INIT },
		{ PRM_OP_INIT2RTR_QP, QP_RTR },
		{ PRM_OP_RTR2RTS_QP, QP_RTS },
		{ PRM_OP_RTS2RTS_QP, QP_RTS },
		{ PRM_OP_2ERR_QP, QP_ERR },
		{ PRM_OP_2RST_QP, QP_RST },
	};
	uint32_t out[PRM_QUERY_QP_OUT_BYTES / 4];
	struct mq_obj cq, qp;
	unsigned int i;
	struct mq *q = &self->q;

	if (!mq_cq(q, &cq) || !mq_qp(q, cq.id, &qp))
		return KSFT_FAIL;
	mt_fw_check_owner("qp", qp.id, q->uid);
	CHECK_EQ(qp_query(&qp, out), QP_RST);
	CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_CQN_SND), cq.id);
	CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_PD), q->pd);
	for (i = 0; i < MT_ARRAY_SIZE(walk); i++) {
		if (!CHECK_ERR(qp_move(&qp, walk[i].op, out), 0))
			mt_diag("step %u: status 0x%x syndrome 0x%x", i,
				mt_get(out, PRM_OUT_STATUS),
				mt_get(out, PRM_OUT_SYNDROME));
		CHECK_EQ(qp_query(&qp, out), walk[i].state);
		if (walk[i].state == QP_RTS) {
			CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_REMOTE_QPN),
				 qp.id);
			CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_MTU), 3);
			CHECK_EQ(mt_get(out,
				 PRM_QUERY_QP_OUT_QPC_NEXT_SEND_PSN), 0x200);
		}
	}
	/* the CQ is the QP's until it goes */
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(qp.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("qp", q->uid), 0);
	return KSFT_PASS;
}

/* A transition from a state it does not start from: BAD_QP_STATE. */
MT_TEST_F(mt_mq, qp_illegal_transitions)
{
	static const struct {
		uint32_t state;		/* reached by the legal path */
		uint16_t op;
	} bad[] = {
		{ QP_RST, PRM_OP_INIT2RTR_QP }, { QP_RST, PRM_OP_RTR2RTS_QP },
		{ QP_RST, PRM_OP_RTS2RTS_QP }, { QP_RST, PRM_OP_INIT2INIT_QP },
		{ QP_INIT, PRM_OP_RST2INIT_QP }, { QP_INIT, PRM_OP_RTR2RTS_QP },
		{ QP_INIT, PRM_OP_RTS2RTS_QP }, { QP_RTR, PRM_OP_RST2INIT_QP },
		{ QP_RTR, PRM_OP_INIT2RTR_QP }, { QP_RTR, PRM_OP_RTS2RTS_QP },
		{ QP_RTS, PRM_OP_RTR2RTS_QP }, { QP_RTS, PRM_OP_INIT2RTR_QP },
		{ QP_ERR, PRM_OP_RST2INIT_QP }, { QP_ERR, PRM_OP_RTR2RTS_QP },
	};
	static const uint16_t path[] = {
		PRM_OP_RST2INIT_QP, PRM_OP_INIT2RTR_QP, PRM_OP_RTR2RTS_QP,
	};
	uint32_t out[PRM_QUERY_QP_OUT_BYTES / 4];
	struct mq_obj cq, qp;
	unsigned int i, k;
	struct mq *q = &self->q;

	if (!mq_cq(q, &cq) || !mq_qp(q, cq.id, &qp))
		return KSFT_FAIL;
	for (i = 0; i < MT_ARRAY_SIZE(bad); i++) {
		CHECK_ERR(qp_move(&qp, PRM_OP_2RST_QP, out), 0);
		if (bad[i].state == QP_ERR)
			CHECK_ERR(qp_move(&qp, PRM_OP_2ERR_QP, out), 0);
		for (k = 0; bad[i].state != QP_ERR && k < bad[i].state; k++)
			CHECK_ERR(qp_move(&qp, path[k], out), 0);
		CHECK_ERR(qp_move(&qp, bad[i].op, out), EREMOTEIO);
		if (!CHECK_EQ(mt_get(out, PRM_OUT_STATUS),
			      MT_STAT_BAD_QP_STATE))
			mt_diag("0x%x in state %u", bad[i].op, bad[i].state);
		CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_BAD_STATE);
		CHECK_EQ(qp_query(&qp, out), bad[i].state);
	}
	CHECK_ERR(mlx5dv_devx_obj_destroy(qp.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	return KSFT_PASS;
}

MT_TEST_F(mt_mq, qp_rules)
{
	uint32_t in[PRM_CREATE_QP_IN_BYTES / 4], out[PRM_QUERY_QP_OUT_BYTES / 4];
	uint32_t min[PRM_INIT2RTR_QP_IN_BYTES / 4] = {};
	struct mq_obj cq, qp;
	struct mq *q = &self->q;

	if (!mq_cq(q, &cq))
		return KSFT_FAIL;
	mq_qp_in(q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_ST, 3);			/* XRC */
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/*
	 * the kernel's alone: QP1, a REG_UMR QP (its UMRs change any
	 * context's mkeys), and the reserved lkey (rlky)
	 */
	mq_qp_in(q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_ST, 8);			/* QP1 */
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	mq_qp_in(q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_ST, 0xc);		/* REG_UMR */
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	mq_qp_in(q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_RLKY, 1);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* RQ 2048 x 64 + SQ 4096 x 64: more than the umem */
	mq_qp_in(q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_RQ_SIZE, 11);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_SQ_SIZE, 12);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	/* a receive WQE larger than max_wqe_sz_rq */
	mq_qp_in(q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_RQ_STRIDE, 6);
	mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_CAP);
	CHECK_EQ(mt_fw_count("qp", q->uid), 0);

	if (!mq_qp(q, cq.id, &qp))
		return KSFT_FAIL;
	CHECK_ERR(qp_move(&qp, PRM_OP_RST2INIT_QP, out), 0);
	/* INIT2RTR without a remote QPN, and with an MTU over the port's */
	memset(min, 0, sizeof(min));
	mt_set(min, PRM_IN_OPCODE, PRM_OP_INIT2RTR_QP);
	mt_set(min, PRM_INIT2RTR_QP_IN_QPN, qp.id);
	mt_set(min, PRM_INIT2RTR_QP_IN_QPC_MTU, 3);
	mt_set(min, PRM_INIT2RTR_QP_IN_QPC_PRIMARY_ADDRESS_PATH_VHCA_PORT_NUM,
	       1);
	mt_set(min, PRM_INIT2RTR_QP_IN_QPC_PRIMARY_ADDRESS_PATH_RMAC_31_0, 1);
	CHECK_ERR(mlx5dv_devx_obj_modify(qp.obj, min, sizeof(min), out, 16),
		  EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_BAD_FIELD);
	mt_set(min, PRM_INIT2RTR_QP_IN_QPC_REMOTE_QPN, 0x42);
	mt_set(min, PRM_INIT2RTR_QP_IN_QPC_MTU, 5);		/* 4096 */
	if (mt_netdev_mtu() < 4096) {
		CHECK_ERR(mlx5dv_devx_obj_modify(qp.obj, min, sizeof(min), out,
						 16), EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_PARAM);
	}
	mt_set(min, PRM_INIT2RTR_QP_IN_QPC_MTU, 1);
	CHECK_ERR(mlx5dv_devx_obj_modify(qp.obj, min, sizeof(min), out, 16),
		  0);
	CHECK_EQ(qp_query(&qp, out), QP_RTR);
	CHECK_ERR(mlx5dv_devx_obj_destroy(qp.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	return KSFT_PASS;
}

/* The child: its own context, the parent's ids.  Exit code: failures. */
static int child_against(const uint32_t *ids)
{
	uint32_t in[PRM_CREATE_QP_IN_BYTES / 4], out[PRM_QUERY_QP_OUT_BYTES / 4];
	struct mq_obj cq, qp, stolen;
	int bad = 0;
	struct mq q;

	if (!mq_open(&q) || !mq_cq(&q, &cq) || !mq_qp(&q, cq.id, &qp))
		return 100;
	/* through its own handles, naming the parent's CQ and QP */
	bad += mq_query(&cq, PRM_OP_QUERY_CQ, ids[0], out,
			sizeof(out)) != EINVAL;
	stolen = qp;
	stolen.id = ids[1];
	bad += mq_query(&stolen, PRM_OP_QUERY_QP, ids[1], out, sizeof(out)) !=
	       EINVAL;
	bad += qp_move(&stolen, PRM_OP_2ERR_QP, out) != EINVAL;
	/* building on the parent's CQ, PD, umem: firmware says not yours */
	mq_qp_in(&q, in, ids[0]);
	bad += !mq_refused(&q, in, sizeof(in), MT_STAT_BAD_RESOURCE,
			   SYND_NOT_OWNER);
	mq_qp_in(&q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_PD, ids[2]);
	bad += !mq_refused(&q, in, sizeof(in), MT_STAT_BAD_RESOURCE,
			   SYND_NOT_OWNER);
	mq_qp_in(&q, in, cq.id);
	mt_set(in, QP_UMEM_ID, ids[3]);
	bad += !mq_refused(&q, in, sizeof(in), MT_STAT_BAD_RESOURCE,
			   SYND_NOT_OWNER);
	mq_rq_in(&q, in, ids[0]);
	bad += !mq_refused(&q, in, PRM_CREATE_RQ_IN_BYTES, MT_STAT_BAD_RESOURCE,
			   SYND_NOT_OWNER);
	mq_rq_in(&q, in, cq.id);
	mt_set(in, WQ_F(RQ_WQ, PD), ids[2]);
	bad += !mq_refused(&q, in, PRM_CREATE_RQ_IN_BYTES, MT_STAT_BAD_RESOURCE,
			   SYND_NOT_OWNER);
	mq_close(&q);
	return bad;
}

/* Another process can neither reach this one's queues nor build on them. */
MT_TEST_F(mt_mq, two_processes_isolated)
{
	uint32_t out[PRM_QUERY_QP_OUT_BYTES / 4], ids[4];
	struct mq_obj cq, qp;
	struct mq *q = &self->q;
	pid_t pid;

	if (!mq_cq(q, &cq) || !mq_qp(q, cq.id, &qp))
		return KSFT_FAIL;
	CHECK_ERR(qp_move(&qp, PRM_OP_RST2INIT_QP, out), 0);
	ids[0] = cq.id;
	ids[1] = qp.id;
	ids[2] = q->pd;
	ids[3] = q->umem->umem_id;
	fflush(stdout);
	pid = mt_fork();
	if (pid == 0)
		_exit(child_against(ids));
	CHECK_EQ(mt_reap(pid), 0);
	/* ours are intact */
	CHECK_EQ(qp_query(&qp, out), QP_INIT);
	mt_fw_check_owner("qp", qp.id, q->uid);
	mt_fw_check_owner("cq", cq.id, q->uid);
	CHECK_ERR(mlx5dv_devx_obj_destroy(qp.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	return KSFT_PASS;
}

/*
 * Every kind of queue object: CQ, RQ, TIS, SQ, RQT, direct and indirect
 * TIRs and a QP in RTS.  Stops at the first create that fails; returns
 * how many objects it made.
 */
static unsigned int build_all(struct mq *q)
{
	uint32_t in[PRM_CREATE_QP_IN_BYTES / 4 + 4], out[4];
	struct mq_obj cq, rq, tis, sq, rqt, tir, qp;
	unsigned int n = 0;
	size_t len;

	mq_cq_in(q, in);
	if (!mq_create(q, in, PRM_CREATE_CQ_IN_BYTES, &cq, out))
		return n;
	n++;
	mq_rq_in(q, in, cq.id);
	if (!mq_create(q, in, PRM_CREATE_RQ_IN_BYTES, &rq, out))
		return n;
	n++;
	memset(in, 0, PRM_CREATE_TIS_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_TIS);
	mt_set(in, PRM_CREATE_TIS_IN_CTX_TRANSPORT_DOMAIN, q->td);
	if (!mq_create(q, in, PRM_CREATE_TIS_IN_BYTES, &tis, out))
		return n;
	n++;
	memset(in, 0, PRM_CREATE_SQ_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_SQ);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_CQN, cq.id);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_TIS_LST_SZ, 1);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_TIS_NUM_0, tis.id);
	mq_wq(q, in, SQ_WQ);
	if (!mq_create(q, in, PRM_CREATE_SQ_IN_BYTES, &sq, out))
		return n;
	n++;
	len = mq_rqt_in(in, PRM_OP_CREATE_RQT, 1, &rq.id, 1);
	if (!mq_create(q, in, len, &rqt, out))
		return n;
	n++;
	mq_tir_in(q, in, true, rqt.id);
	if (!mq_create(q, in, PRM_CREATE_TIR_IN_BYTES, &tir, out))
		return n;
	n++;
	mq_tir_in(q, in, false, rq.id);
	if (!mq_create(q, in, PRM_CREATE_TIR_IN_BYTES, &tir, out))
		return n;
	n++;
	mq_qp_in(q, in, cq.id);
	if (!mq_create(q, in, PRM_CREATE_QP_IN_BYTES, &qp, out))
		return n;
	n++;
	if (qp_move(&qp, PRM_OP_RST2INIT_QP, out) ||
	    qp_move(&qp, PRM_OP_INIT2RTR_QP, out) ||
	    qp_move(&qp, PRM_OP_RTR2RTS_QP, out))
		return n;
	return n + 1;
}

#define BUILD_ALL	9	/* eight objects, and the QP in RTS */

/*
 * A context closed with a full set: nothing of its uid left (the
 * teardown closes it and checks).
 */
MT_TEST_F(mt_mq, close_with_full_set)
{
	struct mq *q = &self->q;

	CHECK_EQ(build_all(q), BUILD_ALL);
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count(NULL, q->uid), q->base + 8);
		CHECK_EQ(mt_fw_count("tir", q->uid), 2);
	}
	return KSFT_PASS;
}

/* Poll until the model holds nothing of @uid, for up to two seconds. */
static int wait_uid_gone(int uid)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i, n = -1;

	for (i = 0; i < 100; i++) {
		n = mt_fw_count(NULL, uid);
		if (n == 0)
			break;
		nanosleep(&ts, NULL);
	}
	return n;
}

/* A process killed while it holds a full set: all of it destroyed. */
static int test_killed_with_full_set(void)
{
	int pipefd[2], status, got[2] = { -1, 0 };
	pid_t pid;

	if (!CHECK_EQ(pipe(pipefd), 0))
		return KSFT_FAIL;
	fflush(stdout);
	pid = mt_fork();
	if (pid == 0) {
		int msg[2] = { -1, 0 };
		struct mq q;

		close(pipefd[0]);
		if (mq_open(&q) && build_all(&q) == BUILD_ALL) {
			msg[0] = q.uid;
			msg[1] = q.base + 8;
		}
		if (write(pipefd[1], msg, sizeof(msg)) != sizeof(msg))
			_exit(1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	/* the child's uid, and how many objects it should hold */
	if (CHECK_EQ(read(pipefd[0], got, sizeof(got)), sizeof(got)) &&
	    CHECK(got[0] > 0))
		CHECK_EQ(mt_fw_count(NULL, got[0]), got[1]);
	CHECK_EQ(kill(pid, SIGKILL), 0);
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(pipefd[0]);
	if (got[0] > 0)
		CHECK_EQ(wait_uid_gone(got[0]), 0);
	return KSFT_PASS;
}

/*
 * Each create of the set failed by fault injection in turn: the failed
 * step leaves no object and no reference behind, and closing the context
 * leaves nothing of its uid.
 */
static const uint16_t fault_ops[] = {
	PRM_OP_CREATE_CQ, PRM_OP_CREATE_RQ, PRM_OP_CREATE_TIS,
	PRM_OP_CREATE_SQ, PRM_OP_CREATE_RQT, PRM_OP_CREATE_TIR,
	PRM_OP_CREATE_QP, PRM_OP_RST2INIT_QP, PRM_OP_INIT2RTR_QP,
	PRM_OP_RTR2RTS_QP,
};

/* what is made before each of fault_ops fails */
static const unsigned int fault_made[] = { 0, 1, 2, 3, 4, 5, 7, 8, 8, 8 };

/* the parts: each of fault_ops, then the next command after the CQ */
#define FAULT_PARTS	(MT_ARRAY_SIZE(fault_ops) + 1)

MT_TEST_F_PARTS(mt_mq, create_fault_injection)
{
	struct mq *q = &self->q;

	if (i < MT_ARRAY_SIZE(fault_ops)) {
		CHECK_EQ(mt_fw_fail_opcode(fault_ops[i]), 0);
		if (!CHECK_EQ(build_all(q), fault_made[i]))
			mt_diag("fault on opcode 0x%x", fault_ops[i]);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
		CHECK_EQ(mt_fw_count(NULL, q->uid), q->base + fault_made[i]);
	} else {
		/* the next command after the CQ, whatever it is */
		uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4], out[4];
		struct mq_obj cq;

		mq_cq_in(q, in);
		CHECK_EQ(mt_fw_fail_next(1), 0);
		CHECK(!mq_create(q, in, sizeof(in), &cq, out));
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_INTERNAL_ERR);
		CHECK_EQ(mt_fw_fail_next(0), 0);
		CHECK_EQ(mt_fw_count(NULL, q->uid), q->base);
		if (CHECK(mq_create(q, in, sizeof(in), &cq, out)))
			CHECK_EQ(mt_fw_count(NULL, q->uid), q->base + 1);
	}
	/* the teardown closes the context: nothing of it is left */
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_mq_fixture, qp_state_walk),
	MT_CASE_ON(mt_mq_fixture, qp_illegal_transitions,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_mq_fixture, qp_rules, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_mq_fixture, two_processes_isolated,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_mq_fixture, close_with_full_set),
	MT_CASE(killed_with_full_set, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON_PARTS(mt_mq_fixture, create_fault_injection, FAULT_PARTS,
			 .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
