// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs completion queues through libmlx5: ibv_create_cq(3),
 * mlx5dv_create_cq(3), ibv_modify_cq(3), ibv_resize_cq(3),
 * ibv_destroy_cq(3).  The kernel pins the CQ's buffer and doorbell record
 * and registers each as a UMEM of the context: the model then holds one
 * CQ and two UMEMs, all owned by the context's uid (0 without DEVX), and
 * nothing once the CQ is gone; a DEVX object of the context may use it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5-abi.h>
#include "mlx5x_ioctl.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_queues.h"

static uint32_t cqn_of(struct ibv_cq *cq, struct mlx5dv_cq *dv)
{
	struct mlx5dv_obj obj = {};

	memset(dv, 0, sizeof(*dv));
	obj.cq.in = cq;
	obj.cq.out = dv;
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ))
		return 0;
	return dv->cqn;
}

/* A CQ in context @c: what the model holds, then nothing. */
static void cq_lifecycle(struct mt_ctx *c)
{
	struct mt_objs before = {}, after = {};
	struct mt_obj added[4];
	struct mlx5dv_cq dv;
	struct ibv_cq *cq;
	int base;

	mt_diag("uid %d", c->uid);
	base = mt_fw_count(NULL, -1);
	if (mt_sim())
		CHECK_EQ(mt_fw_read(&before), 0);
	cq = ibv_create_cq(c->ctx, 100, NULL, NULL, 0);
	if (!CHECK(cq))
		goto out;
	CHECK(cq->cqe >= 100);
	CHECK(cqn_of(cq, &dv) != 0);
	CHECK_EQ(dv.cqe_cnt, cq->cqe + 1);
	CHECK_EQ(dv.cqe_size, 64);
	if (mt_sim() && !mt_fw_read(&after)) {
		if (CHECK_EQ(mt_fw_added(&before, &after, "cq", added, 4), 1)) {
			CHECK_EQ(added[0].id, dv.cqn);
			CHECK_EQ(added[0].uid, c->uid);
			/* it holds its EQ and its two umems, nobody holds it */
			CHECK_EQ(added[0].users, 0);
		}
		CHECK_EQ(mt_fw_added(&before, &after, "umem", added, 4), 2);
		CHECK_EQ(added[0].uid, c->uid);
		CHECK_EQ(added[1].uid, c->uid);
		CHECK_EQ(added[0].users, 1);
		CHECK_EQ(added[1].users, 1);
		CHECK_EQ(after.n, before.n + 3);
	}
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, -1), base);
out:
	mt_fw_free(&before);
	mt_fw_free(&after);
}

MT_TEST_F(mt_ctx, create_destroy)
{
	cq_lifecycle(self);
	return KSFT_PASS;
}

/* Without DEVX the context's uid is 0: the kernel's, as in mlx5. */
MT_TEST_F(mt_ctx, create_destroy_nodevx)
{
	cq_lifecycle(self);
	return KSFT_PASS;
}

/* Sizes: one more than asked for, to a power of two; 128-byte CQEs. */
MT_TEST_F(mt_ctx, sizes)
{
	static const int want[][2] = {
		{ 1, 2 }, { 2, 4 }, { 3, 4 }, { 255, 256 }, { 256, 512 },
		{ 4096, 8192 },
	};
	struct mlx5dv_cq_init_attr dv_attr = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.cqe_size = 128,
	};
	struct ibv_cq_init_attr_ex attr = { .cqe = 64 };
	struct ibv_cq_ex *cqx;
	struct mlx5dv_cq dv;
	struct ibv_cq *cq;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(want); i++) {
		cq = ibv_create_cq(self->ctx, want[i][0], NULL, NULL, 0);
		if (!CHECK(cq))
			continue;
		cqn_of(cq, &dv);
		CHECK_EQ(dv.cqe_cnt, want[i][1]);
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	}
	cqx = mlx5dv_create_cq(self->ctx, &attr, &dv_attr);
	if (CHECK(cqx)) {
		cqn_of(ibv_cq_ex_to_cq(cqx), &dv);
		CHECK_EQ(dv.cqe_size, 128);
		CHECK_ERR(ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)), 0);
	}
	return KSFT_PASS;
}

/*
 * CQ_CREATE as libmlx5 issues it, by hand, for @cqe entries; its buffer
 * and doorbell record are @mem, which the kernel never reaches when it
 * refuses the size.  Return: 0 or the errno.
 */
static int create_cq_ioctl(struct ibv_context *ctx, uint32_t cqe, void *mem)
{
	struct mlx5_ib_create_cq ucmd = {
		.buf_addr = (uintptr_t)mem,
		.db_addr = (uintptr_t)mem,
		.cqe_size = 64,
	};
	struct mlx5_ib_create_cq_resp uresp;
	struct mt_ioctl c;
	uint32_t got_cqe;

	mt_ioctl_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	mt_ioctl_new(&c, UVERBS_ATTR_CREATE_CQ_HANDLE);
	mt_ioctl_in64(&c, UVERBS_ATTR_CREATE_CQ_CQE, cqe, sizeof(cqe));
	mt_ioctl_in64(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 0, 8);
	mt_ioctl_in64(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0, 4);
	mt_ioctl_ptr(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &got_cqe,
		     sizeof(got_cqe));
	mt_ioctl_ptr(&c, UVERBS_ATTR_UHW_IN, &ucmd, sizeof(ucmd));
	mt_ioctl_ptr(&c, UVERBS_ATTR_UHW_OUT, &uresp, sizeof(uresp));
	return mt_ioctl_run(ctx, &c);
}

/* What the device cannot do is refused with the errno the man page says. */
MT_TEST_F(mt_ctx, bad_attributes)
{
	struct ibv_context *ctx = self->ctx;
	int base = mt_fw_count(NULL, -1);
	struct ibv_device_attr da;
	struct ibv_cq *cq;
	void *mem;

	/*
	 * More CQEs than max_cqe, to the kernel alone (through libmlx5:
	 * cqe_above_max): refused before anything is pinned.
	 */
	mem = aligned_alloc(4096, 4096);
	if (CHECK(mem) && CHECK_ERR(ibv_query_device(ctx, &da), 0)) {
		CHECK_ERR(create_cq_ioctl(ctx, da.max_cqe + 1, mem), EINVAL);
		CHECK_ERR(create_cq_ioctl(ctx, 0, mem), EINVAL);
	}
	free(mem);
	errno = 0;
	cq = ibv_create_cq(ctx, 16, NULL, NULL, ctx->num_comp_vectors);
	CHECK(!cq);
	CHECK_ERR(errno, EINVAL);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, -1), base);
	return KSFT_PASS;
}

/* The context of the cases from here on, opened before them. */
static struct ibv_context *shared;

static int test_open_context(void)
{
	shared = mt_open(MT_OPEN_DEFAULT, NULL);
	return CHECK(shared) ? KSFT_PASS : KSFT_FAIL;
}

/*
 * More CQEs than the device's max_cqe: refused, and firmware never asked.
 * libmlx5 allocates and fills the CQ's buffer first, 512 MB for 2^23
 * CQEs, some 20 s in an emulated guest with the debug kernel, and some
 * 580 slab allocations of the memory's own before the kernel sees the
 * call: the fault sweep leaves this case out (about 3 h of it), and
 * sweeps bad_attributes, which makes the same call to the kernel by hand.
 */
static int test_cqe_above_max(void)
{
	struct ibv_device_attr da;
	struct ibv_cq *cq;
	int base;

	if (!shared)
		return mt_skip("no context");
	base = mt_fw_count(NULL, -1);
	if (!CHECK_ERR(ibv_query_device(shared, &da), 0))
		return KSFT_FAIL;
	errno = 0;
	cq = ibv_create_cq(shared, da.max_cqe + 1, NULL, NULL, 0);
	CHECK(!cq);
	CHECK_ERR(errno, EINVAL);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, -1), base);
	return KSFT_PASS;
}

static int test_close_context(void)
{
	if (!shared)
		return mt_skip("no context");
	CHECK_EQ(ibv_close_device(shared), 0);
	shared = NULL;
	return KSFT_PASS;
}

/*
 * Moderation reaches firmware; a CQ resizes to a size it may have (the
 * traffic of a resize: mlx5x_rc's cq_resize).
 */
MT_TEST_F(mt_ctx, modify_resize)
{
	struct ibv_modify_cq_attr attr = {
		.attr_mask = IBV_CQ_ATTR_MODERATE,
		.moderate = { .cq_count = 16, .cq_period = 100 },
	};
	struct ibv_cq *cq;

	cq = ibv_create_cq(self->ctx, 64, NULL, NULL, 0);
	if (!CHECK(cq))
		return KSFT_FAIL;
	CHECK_ERR(ibv_modify_cq(cq, &attr), 0);
	/* cq_period is 12 bits in the CQ context */
	attr.moderate.cq_period = 4096;
	CHECK_ERR(ibv_modify_cq(cq, &attr), EINVAL);
	attr.moderate.cq_period = 4095;
	CHECK_ERR(ibv_modify_cq(cq, &attr), 0);
	if (mt_sim()) {
		/* the command is really sent: a firmware failure shows */
		CHECK_EQ(mt_fw_fail_opcode(PRM_OP_MODIFY_CQ), 0);
		CHECK_ERR(ibv_modify_cq(cq, &attr), EIO);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
	}
	if (CHECK_ERR(ibv_resize_cq(cq, 128), 0))
		CHECK(cq->cqe >= 128);
	CHECK_ERR(ibv_resize_cq(cq, 1 << 30), EINVAL);
	CHECK_ERR(ibv_resize_cq(cq, 0), EINVAL);
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	return KSFT_PASS;
}

/*
 * A verbs CQ is the context's own in firmware: a DEVX RQ of the same
 * context can use it, and firmware then refuses to destroy it.
 */
MT_TEST_F(mt_mq, in_use_by_devx)
{
	struct mlx5dv_cq dv;
	struct ibv_cq *cq;
	struct mq_obj rq;

	cq = ibv_create_cq(self->q.ctx, 16, NULL, NULL, 0);
	if (!CHECK(cq))
		return KSFT_FAIL;
	if (mq_rq(&self->q, cqn_of(cq, &dv), &rq)) {
		if (mt_sim())
			CHECK_ERR(ibv_destroy_cq(cq), EBUSY);
		CHECK_ERR(mlx5dv_devx_obj_destroy(rq.obj), 0);
	}
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	return KSFT_PASS;
}

/* A CQ left behind goes with its context. */
MT_TEST_F(mt_ctx, close_with_cq)
{
	CHECK(ibv_create_cq(self->ctx, 16, NULL, NULL, 0));
	CHECK(ibv_create_cq(self->ctx, 1000, NULL, NULL, 0));
	if (mt_sim())
		CHECK_EQ(mt_fw_count("cq", self->uid), 2);
	/* the model holds what it held before: the teardown checks */
	CHECK_EQ(ibv_close_device(self->ctx), 0);
	self->ctx = NULL;
	return KSFT_PASS;
}

/* Any failed command of a create leaves nothing behind. */
MT_TEST_F(mt_ctx, fault_injection)
{
	static const int ops[] = { PRM_OP_CREATE_UMEM, PRM_OP_CREATE_CQ };
	int base = mt_fw_count(NULL, -1);
	struct ibv_cq *cq;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(ops); i++) {
		CHECK_EQ(mt_fw_fail_opcode(ops[i]), 0);
		errno = 0;
		cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
		CHECK(!cq);
		CHECK_ERR(errno, EIO);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
		CHECK_EQ(mt_fw_count(NULL, -1), base);
	}
	/* and the next one works */
	cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	if (CHECK(cq))
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	CHECK_EQ(mt_fw_count(NULL, -1), base);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_ctx_fixture, create_destroy),
	MT_CASE_ON(mt_nodevx_ctx_fixture, create_destroy_nodevx,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_ctx_fixture, sizes),
	MT_CASE_ON(mt_ctx_fixture, bad_attributes),
	MT_CASE_ON(mt_ctx_fixture, modify_resize),
	MT_CASE_ON(mt_mq_fixture, in_use_by_devx),
	MT_CASE_ON(mt_ctx_fixture, close_with_cq),
	MT_CASE_ON(mt_ctx_fixture, fault_injection, .flags = MT_NEEDS_MODEL),
	MT_CASE(open_context, .flags = MT_SHARED),
	MT_CASE(cqe_above_max, .unswept =
		"libmlx5's 512 MB buffer: bad_attributes has its call"),
	MT_CASE(close_context),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
