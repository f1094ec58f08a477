// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs queue pairs through libmlx5: ibv_create_qp(3), ibv_modify_qp(3),
 * ibv_query_qp(3), ibv_destroy_qp(3) for RAW_PACKET and RC QPs.
 *
 * A RAW_PACKET QP is, in firmware, an RQ, an SQ, a TIS for the SQ and a
 * direct TIR to the RQ (mlx5dv_init_obj(3) reports their numbers), all
 * owned by the context; its state moves the RQ and SQ.  An RC QP is one
 * firmware QP walking the PRM's state machine.  Buffers and doorbell
 * records are UMEMs the kernel registered for the context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_fixtures.h"

static struct ibv_qp *qp_new(struct mt_verbs_env *e, enum ibv_qp_type type,
			     uint32_t sends, uint32_t recvs)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = {
			.max_send_wr = sends,
			.max_recv_wr = recvs,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = type,
	};

	return ibv_create_qp(e->pd, &attr);
}

/*
 * A context with a PD and a CQ (mt_verbs_env_open(), the context opened
 * @mode).  libmlx5 allocates a UAR for its QPs' doorbells with the first
 * QP and keeps it: one is made and destroyed here, so that the cases
 * count only what their QPs add.  Closed by mt_verbs_env_close().
 */
static bool env_open(struct mt_verbs_env *e, enum mt_open_mode mode)
{
	struct ibv_qp *qp;

	if (!mt_verbs_env_open(e, mode))
		return false;
	qp = qp_new(e, IBV_QPT_RC, 1, 1);
	return CHECK(qp) && CHECK_ERR(ibv_destroy_qp(qp), 0);
}

/*
 * The cases' context, opened DEFAULT (env) or without DEVX (env_nodevx,
 * which only the model can refuse DEVX to); after the case, the model
 * holds what it held before it.
 */
struct env {
	struct mt_verbs_env e;
};

struct env_nodevx {
	struct mt_verbs_env e;
};

MT_FIXTURE(env);

MT_FIXTURE_SETUP(env)
{
	return env_open(&self->e, MT_OPEN_DEFAULT) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(env)
{
	mt_verbs_env_close(&self->e);
}

MT_FIXTURE(env_nodevx);

MT_FIXTURE_SETUP(env_nodevx)
{
	return env_open(&self->e, MT_OPEN_NODEVX) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(env_nodevx)
{
	mt_verbs_env_close(&self->e);
}

static int qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

static int to_state(struct ibv_qp *qp, enum ibv_qp_state s)
{
	struct ibv_qp_attr attr = { .qp_state = s, .port_num = 1 };
	int mask = IBV_QP_STATE;

	if (s == IBV_QPS_INIT && qp->qp_type == IBV_QPT_RAW_PACKET)
		mask |= IBV_QP_PORT;
	if (s == IBV_QPS_INIT && qp->qp_type == IBV_QPT_RC)
		mask |= IBV_QP_PORT | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS;
	return ibv_modify_qp(qp, &attr, mask);
}

/* The model's objects of @type the QP added, owned by @uid. */
static uint32_t fw_added(const struct mt_objs *b, const struct mt_objs *a,
			 const char *type, int uid)
{
	struct mt_obj o[2];

	if (!CHECK_EQ(mt_fw_added(b, a, type, o, 2), 1))
		return 0;
	CHECK_EQ(o[0].uid, uid);
	return o[0].id;
}

static void raw_lifecycle(struct mt_verbs_env *e)
{
	struct mt_objs before = {}, after = {};
	struct mlx5dv_qp dv = { .comp_mask = MLX5DV_QP_MASK_RAW_QP_HANDLES };
	struct mlx5dv_obj obj = {};
	struct ibv_qp *qp;
	uint32_t sqn;

	if (mt_sim())
		CHECK_EQ(mt_fw_read(&before), 0);
	qp = qp_new(e, IBV_QPT_RAW_PACKET, 64, 64);
	if (!CHECK(qp))
		goto out;
	obj.qp.in = qp;
	obj.qp.out = &dv;
	CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0);
	if (mt_sim() && !mt_fw_read(&after)) {
		sqn = fw_added(&before, &after, "sq", e->uid);
		CHECK_EQ(qp->qp_num, sqn);
		CHECK_EQ(dv.sqn, sqn);
		CHECK_EQ(dv.rqn, fw_added(&before, &after, "rq", e->uid));
		CHECK_EQ(dv.tirn, fw_added(&before, &after, "tir", e->uid));
		CHECK_EQ(dv.tisn, fw_added(&before, &after, "tis", e->uid));
		/* RQ buffer, SQ buffer, doorbell record */
		CHECK_EQ(mt_fw_added(&before, &after, "umem", NULL, 0), 3);
		CHECK_EQ(mt_fw_added(&before, &after, "qp", NULL, 0), 0);
		CHECK_EQ(after.n, before.n + 7);
	}
	CHECK_EQ(qp_state(qp), IBV_QPS_RESET);
	CHECK_ERR(to_state(qp, IBV_QPS_INIT), 0);
	CHECK_EQ(qp_state(qp), IBV_QPS_INIT);
	CHECK_ERR(to_state(qp, IBV_QPS_RTR), 0);
	CHECK_ERR(to_state(qp, IBV_QPS_RTS), 0);
	CHECK_EQ(qp_state(qp), IBV_QPS_RTS);
	CHECK_ERR(to_state(qp, IBV_QPS_ERR), 0);
	CHECK_EQ(qp_state(qp), IBV_QPS_ERR);
	CHECK_ERR(to_state(qp, IBV_QPS_RESET), 0);
	CHECK_ERR(to_state(qp, IBV_QPS_INIT), 0);
	/* the CQ is in use */
	CHECK_ERR(ibv_destroy_cq(e->cq), EBUSY);
	CHECK_ERR(ibv_destroy_qp(qp), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, -1), before.n);
out:
	mt_fw_free(&before);
	mt_fw_free(&after);
}

MT_TEST_F(env, raw_lifecycle)
{
	raw_lifecycle(&self->e);
	return KSFT_PASS;
}

MT_TEST_F(env_nodevx, raw_lifecycle_nodevx)
{
	raw_lifecycle(&self->e);
	return KSFT_PASS;
}

/* A send-only and a receive-only RAW_PACKET QP: only what they need. */
MT_TEST_F(env, raw_one_sided)
{
	struct mt_verbs_env *e = &self->e;
	struct ibv_qp *qp;

	qp = qp_new(e, IBV_QPT_RAW_PACKET, 16, 0);
	if (CHECK(qp)) {
		if (mt_sim()) {
			CHECK_EQ(mt_fw_count("sq", e->uid), 1);
			CHECK_EQ(mt_fw_count("tis", e->uid), 1);
			CHECK_EQ(mt_fw_count("rq", e->uid), 0);
			CHECK_EQ(mt_fw_count("tir", e->uid), 0);
		}
		CHECK_ERR(mt_qp_to_rts(qp), 0);
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	}
	qp = qp_new(e, IBV_QPT_RAW_PACKET, 0, 16);
	if (CHECK(qp)) {
		if (mt_sim()) {
			CHECK_EQ(mt_fw_count("sq", e->uid), 0);
			CHECK_EQ(mt_fw_count("rq", e->uid), 1);
			CHECK_EQ(mt_fw_count("tir", e->uid), 1);
		}
		CHECK_ERR(to_state(qp, IBV_QPS_INIT), 0);
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	}
	return KSFT_PASS;
}

/* The state changes are firmware's: a failed MODIFY_RQ/SQ shows. */
MT_TEST_F(env, raw_modify_faults)
{
	struct ibv_qp *qp;

	qp = qp_new(&self->e, IBV_QPT_RAW_PACKET, 16, 16);
	if (!CHECK(qp))
		return KSFT_FAIL;
	CHECK_EQ(mt_fw_fail_opcode(PRM_OP_MODIFY_RQ), 0);
	CHECK_ERR(to_state(qp, IBV_QPS_INIT), EIO);
	CHECK_EQ(mt_fw_fail_opcode(-1), 0);
	CHECK_EQ(qp_state(qp), IBV_QPS_RESET);
	CHECK_ERR(to_state(qp, IBV_QPS_INIT), 0);
	CHECK_ERR(to_state(qp, IBV_QPS_RTR), 0);
	CHECK_EQ(mt_fw_fail_opcode(PRM_OP_MODIFY_SQ), 0);
	CHECK_ERR(to_state(qp, IBV_QPS_RTS), EIO);
	CHECK_EQ(mt_fw_fail_opcode(-1), 0);
	CHECK_EQ(qp_state(qp), IBV_QPS_RTR);
	CHECK_ERR(to_state(qp, IBV_QPS_RTS), 0);
	/* transitions the spec forbids */
	CHECK_ERR(to_state(qp, IBV_QPS_INIT), EINVAL);
	CHECK_ERR(ibv_destroy_qp(qp), 0);
	return KSFT_PASS;
}

/* In a child: a RAW_PACKET QP once CAP_NET_RAW is dropped. */
static int raw_without_net_raw(void *arg)
{
	struct mt_verbs_env e;

	(void)arg;
	if (!env_open(&e, MT_OPEN_DEFAULT))
		return 2;
	if (!mt_drop_cap(CAP_NET_RAW))
		return 3;
	errno = 0;
	return qp_new(&e, IBV_QPT_RAW_PACKET, 16, 16) ? 5 :
	       errno == EPERM ? 0 : 6;
}

/* RAW_PACKET needs CAP_NET_RAW: a child without it is refused. */
static int test_raw_needs_cap(void)
{
	CHECK_EQ(mt_run_child(raw_without_net_raw, NULL), 0);
	return KSFT_PASS;
}

/* Types and attributes the device does not offer. */
MT_TEST_F(env, bad_attributes)
{
	struct mt_verbs_env *e = &self->e;
	struct ibv_qp_init_attr_ex ax = {};
	struct ibv_device_attr da;
	struct ibv_qp *qp;

	CHECK_ERR(ibv_query_device(e->ctx, &da), 0);
	/* an XRC initiator has no receive queue to ask for (mlx5x_xrc) */
	errno = 0;
	CHECK(!qp_new(e, IBV_QPT_XRC_SEND, 16, 16));
	CHECK_ERR(errno, EINVAL);
	errno = 0;
	CHECK(!qp_new(e, IBV_QPT_RAW_PACKET, da.max_qp_wr + 1, 16));
	CHECK_ERR(errno, EINVAL);
	errno = 0;
	CHECK(!qp_new(e, IBV_QPT_RAW_PACKET, 0, 0));
	CHECK_ERR(errno, EINVAL);
	/* create flags: none is offered */
	ax.qp_type = IBV_QPT_RAW_PACKET;
	ax.send_cq = e->cq;
	ax.recv_cq = e->cq;
	ax.cap.max_send_wr = 16;
	ax.cap.max_recv_wr = 16;
	ax.cap.max_send_sge = 1;
	ax.cap.max_recv_sge = 1;
	ax.pd = e->pd;
	ax.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS;
	ax.create_flags = IBV_QP_CREATE_SCATTER_FCS;
	errno = 0;
	qp = ibv_create_qp_ex(e->ctx, &ax);
	CHECK(!qp);
	CHECK_ERR(errno, EOPNOTSUPP);
	if (qp)
		ibv_destroy_qp(qp);
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count("qp", e->uid), 0);
		CHECK_EQ(mt_fw_count("rq", e->uid), 0);
		CHECK_EQ(mt_fw_count("umem", e->uid), 2);	/* the CQ's */
	}
	return KSFT_PASS;
}

/* RC through the state machine, with a RoCE path. */
MT_TEST_F(env, rc)
{
	struct mt_objs before = {}, after = {};
	struct mt_verbs_env *e = &self->e;
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;
	union ibv_gid gid;
	struct ibv_qp *qp;
	uint32_t qpn;

	if (mt_sim())
		CHECK_EQ(mt_fw_read(&before), 0);
	qp = qp_new(e, IBV_QPT_RC, 32, 32);
	if (!CHECK(qp))
		goto out;
	if (mt_sim() && !mt_fw_read(&after)) {
		qpn = fw_added(&before, &after, "qp", e->uid);
		CHECK_EQ(qp->qp_num, qpn);
		CHECK_EQ(mt_fw_added(&before, &after, "umem", NULL, 0), 2);
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
	/* RTR before INIT, RTS before RTR: refused */
	CHECK_ERR(to_state(qp, IBV_QPS_RTS), EINVAL);

	if (ibv_query_gid(e->ctx, 1, 0, &gid) || !gid.global.interface_id) {
		mt_diag("no GID 0: RTR and RTS not tried");
		goto destroy;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = 0x1234;
	a.rq_psn = 0x42;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.sgid_index = 0;
	a.ah_attr.grh.dgid = gid;
	a.ah_attr.grh.dgid.raw[15] ^= 1;	/* a link-local neighbour */
	/* more outstanding reads than the device has */
	a.max_dest_rd_atomic = 64;
	CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
				IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				IBV_QP_MIN_RNR_TIMER), EINVAL);
	a.max_dest_rd_atomic = 4;
	CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
				IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				IBV_QP_MIN_RNR_TIMER), 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x77;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 2;
	CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
				IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC),
		  0);
	memset(&a, 0, sizeof(a));
	if (CHECK_ERR(ibv_query_qp(qp, &a, IBV_QP_STATE, &init), 0)) {
		CHECK_EQ(a.qp_state, IBV_QPS_RTS);
		CHECK_EQ(a.path_mtu, IBV_MTU_1024);
		CHECK_EQ(a.dest_qp_num, 0x1234);
		CHECK_EQ(a.rq_psn, 0x42);
		CHECK_EQ(a.sq_psn, 0x77);
		CHECK_EQ(a.max_dest_rd_atomic, 4);
		CHECK_EQ(a.max_rd_atomic, 2);
		CHECK_EQ(a.min_rnr_timer, 12);
		CHECK_EQ(a.timeout, 14);
		CHECK_EQ(a.retry_cnt, 7);
		CHECK_EQ(a.rnr_retry, 7);
		CHECK_EQ(a.qp_access_flags,
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
		CHECK_EQ(init.qp_type, IBV_QPT_RC);
	}
	/* draining (SQD): mlx5_ib has no command for it, EINVAL; still RTS */
	CHECK_ERR(to_state(qp, IBV_QPS_SQD), EINVAL);
	CHECK_EQ(qp_state(qp), IBV_QPS_RTS);
	CHECK_ERR(to_state(qp, IBV_QPS_ERR), 0);
	CHECK_EQ(qp_state(qp), IBV_QPS_ERR);
	CHECK_ERR(to_state(qp, IBV_QPS_RESET), 0);
	CHECK_EQ(qp_state(qp), IBV_QPS_RESET);
destroy:
	CHECK_ERR(ibv_destroy_qp(qp), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, -1), before.n);
out:
	mt_fw_free(&before);
	mt_fw_free(&after);
	return KSFT_PASS;
}

/* Any failed command of a create leaves nothing behind. */
MT_TEST_F(env, fault_injection)
{
	static const struct {
		int op;
		enum ibv_qp_type type;
	} f[] = {
		{ PRM_OP_CREATE_UMEM, IBV_QPT_RAW_PACKET },
		{ PRM_OP_CREATE_TIS, IBV_QPT_RAW_PACKET },
		{ PRM_OP_CREATE_SQ, IBV_QPT_RAW_PACKET },
		{ PRM_OP_CREATE_RQ, IBV_QPT_RAW_PACKET },
		{ PRM_OP_CREATE_TIR, IBV_QPT_RAW_PACKET },
		{ PRM_OP_CREATE_UMEM, IBV_QPT_RC },
		{ PRM_OP_CREATE_QP, IBV_QPT_RC },
	};
	int base = mt_fw_count(NULL, -1);
	struct ibv_qp *qp;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(f); i++) {
		CHECK_EQ(mt_fw_fail_opcode(f[i].op), 0);
		errno = 0;
		qp = qp_new(&self->e, f[i].type, 16, 16);
		if (!CHECK(!qp))
			ibv_destroy_qp(qp);
		CHECK_ERR(errno, EIO);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
		if (!CHECK_EQ(mt_fw_count(NULL, -1), base))
			mt_diag("after failing opcode %#x", f[i].op);
	}
	/* a QP whose modify fails queries as before */
	qp = qp_new(&self->e, IBV_QPT_RC, 16, 16);
	if (CHECK(qp)) {
		CHECK_EQ(mt_fw_fail_opcode(PRM_OP_RST2INIT_QP), 0);
		CHECK_ERR(to_state(qp, IBV_QPS_INIT), EIO);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
		CHECK_EQ(qp_state(qp), IBV_QPS_RESET);
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	}
	return KSFT_PASS;
}

/* A killed process's queues go with its context. */
static int test_sigkill(void)
{
	int pfd[2], uid = -1, status, i;
	pid_t pid;

	if (!CHECK_EQ(pipe(pfd), 0))
		return KSFT_FAIL;
	pid = mt_fork();
	if (pid == 0) {
		struct mt_verbs_env e;

		close(pfd[0]);
		if (!env_open(&e, MT_OPEN_DEFAULT) ||
		    !qp_new(&e, IBV_QPT_RAW_PACKET, 16, 16) ||
		    !qp_new(&e, IBV_QPT_RC, 16, 16) ||
		    !ibv_create_cq(e.ctx, 4096, NULL, NULL, 0))
			_exit(2);
		if (write(pfd[1], &e.uid, sizeof(e.uid)) != sizeof(e.uid))
			_exit(3);
		pause();
		_exit(4);
	}
	close(pfd[1]);
	if (!CHECK(pid > 0))
		goto out;
	if (CHECK_EQ(read(pfd[0], &uid, sizeof(uid)), sizeof(uid))) {
		CHECK(uid > 0);
		CHECK_EQ(mt_fw_count("cq", uid), 2);
		CHECK_EQ(mt_fw_count("qp", uid), 1);
		CHECK_EQ(mt_fw_count("tir", uid), 1);
	}
	kill(pid, SIGKILL);
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status));
	for (i = 0; i < 100 && uid > 0 && mt_fw_count(NULL, uid) > 0; i++)
		usleep(20000);
	CHECK_EQ(mt_fw_count(NULL, uid), 0);
out:
	close(pfd[0]);
	return KSFT_PASS;
}

/*
 * ibv_query_qp(3): the capabilities a QP reports are at least those it
 * was created with (the driver's receive side, libmlx5's send side).
 */
static void query_caps(struct mt_verbs_env *e, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 32,
			.max_send_sge = 2,
			.max_recv_sge = 3,
		},
		.qp_type = type,
	};
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;
	struct ibv_qp *qp;

	qp = ibv_create_qp(e->pd, &attr);
	if (!CHECK(qp))
		return;
	memset(&init, 0, sizeof(init));
	if (CHECK_ERR(ibv_query_qp(qp, &a, IBV_QP_CAP, &init), 0)) {
		CHECK(init.cap.max_send_wr >= 16);
		CHECK(init.cap.max_recv_wr >= 32);
		CHECK(init.cap.max_send_sge >= 2);
		CHECK(init.cap.max_recv_sge >= 3);
		CHECK_EQ(a.cap.max_recv_sge, init.cap.max_recv_sge);
		CHECK_EQ(a.cap.max_recv_wr, init.cap.max_recv_wr);
		CHECK_EQ(init.qp_type, type);
	}
	CHECK_ERR(ibv_destroy_qp(qp), 0);
}

MT_TEST_F(env, query_caps)
{
	query_caps(&self->e, IBV_QPT_RC);
	query_caps(&self->e, IBV_QPT_RAW_PACKET);
	return KSFT_PASS;
}

/* A QP of @type through ibv_create_qp_ex(3) with @flags; errno or 0. */
static int create_with_flags(struct mt_verbs_env *e, enum ibv_qp_type type,
			     uint32_t flags)
{
	struct ibv_qp_init_attr_ex attr = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = {
			.max_send_wr = 8,
			.max_recv_wr = 8,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = type,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = e->pd,
		.create_flags = flags,
	};
	struct ibv_qp *qp = ibv_create_qp_ex(e->ctx, &attr);

	if (!qp)
		return errno;
	return ibv_destroy_qp(qp);
}

/*
 * ibv_create_qp_ex(3) create_flags: IBV_QP_CREATE_BLOCK_SELF_MCAST_LB on
 * a RAW_PACKET or UD QP where the device can (block_lb_mc, which the
 * model offers; the kernel no longer tells userspace), as mlx5_ib grants
 * it (rdma-core's own suite asks it of UD QPs on a Mellanox device);
 * refused on RC, and with EOPNOTSUPP for flags the device cannot do.
 */
MT_TEST_F(env, create_flags)
{
	struct mt_verbs_env *e = &self->e;
	int err;

	err = create_with_flags(e, IBV_QPT_RAW_PACKET,
				IBV_QP_CREATE_BLOCK_SELF_MCAST_LB);
	if (mt_sim() || err != EOPNOTSUPP)
		CHECK_ERR(err, 0);
	err = create_with_flags(e, IBV_QPT_UD,
				IBV_QP_CREATE_BLOCK_SELF_MCAST_LB);
	if (mt_sim() || err != EOPNOTSUPP)
		CHECK_ERR(err, 0);
	/* refused before the driver is reached (EINVAL), or by it */
	err = create_with_flags(e, IBV_QPT_RC,
				IBV_QP_CREATE_BLOCK_SELF_MCAST_LB);
	CHECK(err == EINVAL || err == EOPNOTSUPP);
	if (mt_sim())	/* the model offers no FCS scatter */
		CHECK_ERR(create_with_flags(e, IBV_QPT_RAW_PACKET,
					    IBV_QP_CREATE_SCATTER_FCS),
			  EOPNOTSUPP);
	return KSFT_PASS;
}

/*
 * ibv_create_qp(3): max_recv_wr and max_recv_sge are ignored for a QP
 * associated with an SRQ.  An RC QP on an SRQ, its receive capabilities
 * set as rdma-core's own tests set them, is created.
 */
MT_TEST_F(env, srq_ignores_recv_caps)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16,
						  .max_sge = 1 } };
	struct mt_verbs_env *e = &self->e;
	struct ibv_qp_init_attr init = {
		.send_cq = e->cq, .recv_cq = e->cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 64,
			 .max_send_sge = 1, .max_recv_sge = 4 },
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_qp *qp;

	init.srq = ibv_create_srq(e->pd, &sa);
	if (!init.srq && errno == EOPNOTSUPP && !mt_sim())
		return mt_skip("no SRQs on this device");
	if (!CHECK(init.srq))
		return KSFT_FAIL;
	qp = ibv_create_qp(e->pd, &init);
	if (CHECK(qp))
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	CHECK_ERR(ibv_destroy_srq(init.srq), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(env, raw_lifecycle),
	MT_CASE_F(env_nodevx, raw_lifecycle_nodevx, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, raw_one_sided),
	MT_CASE_F(env, raw_modify_faults, .flags = MT_NEEDS_MODEL),
	MT_CASE(raw_needs_cap),
	MT_CASE_F(env, bad_attributes),
	MT_CASE_F(env, rc),
	MT_CASE_F(env, query_caps),
	MT_CASE_F(env, create_flags),
	MT_CASE_F(env, srq_ignores_recv_caps),
	MT_CASE_F(env, fault_injection, .flags = MT_NEEDS_MODEL),
	MT_CASE(sigkill, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
