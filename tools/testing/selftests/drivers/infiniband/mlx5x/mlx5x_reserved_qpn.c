// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Reserved QP numbers: mlx5dv_reserved_qpn_alloc(3) and
 * mlx5dv_reserved_qpn_dealloc(3).  Each QPN handed out is unique on the
 * device, whoever asked: no other reserved QPN, QP or DCT has it while
 * it is held.  libmlx5 takes them from RESERVED_QPN general objects it
 * creates through DEVX, one per 1 << log_reserved_qpn_granularity QPNs,
 * and destroys an object once every QPN of it was handed out and given
 * back.  The objects are their context's alone: another user can
 * neither query nor destroy them, nor be given their QPNs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"

#define MANY		1000
#define TYPE_RSVD_QPN	0x2c
/* the model's granule: QPNs of one object (cmd_hca_cap_2) */
#define PER_OBJ		256
#define RSVD_IN_BYTES	(16 + 16)

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* @n QPNs from @ctx into @qpn; how many were given. */
static unsigned int alloc_many(struct ibv_context *ctx, uint32_t *qpn,
			       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		int err = mlx5dv_reserved_qpn_alloc(ctx, &qpn[i]);

		if (!mt_check(!err, __FILE__, __LINE__,
			      "alloc %u: %s", i, strerror(err)))
			break;
	}
	return i;
}

static bool all_distinct(uint32_t *qpn, unsigned int n)
{
	unsigned int i;

	qsort(qpn, n, sizeof(*qpn), cmp_u32);
	for (i = 1; i < n; i++)
		if (!CHECK(qpn[i] != qpn[i - 1]))
			return false;
	return true;
}

static bool holds(const uint32_t *sorted, unsigned int n, uint32_t qpn)
{
	return bsearch(&qpn, sorted, n, sizeof(qpn), cmp_u32) != NULL;
}

/*
 * A thousand QPNs: distinct, none in [1, 0xffffff] taken by a QP the
 * context creates beside them; the model holds one RESERVED_QPN object
 * per 256, owned by the context; each given back once (a second time,
 * or a QPN never given, is EINVAL); the objects whose QPNs all came
 * back are gone, and the context's close takes the last.
 */
MT_TEST_F(mt_ctx, alloc_dealloc)
{
	uint32_t *qpn = calloc(MANY, sizeof(*qpn)), *sorted;
	struct ibv_qp_init_attr attr = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_pd *pd = ibv_alloc_pd(self->ctx);
	struct ibv_cq *cq = ibv_create_cq(self->ctx, 4, NULL, NULL, 0);
	struct ibv_qp *qp = NULL;
	unsigned int n, i;

	if (!CHECK(qpn && pd && cq))
		goto out;
	n = alloc_many(self->ctx, qpn, MANY);
	/* refused (a command failed): the context's close takes the rest */
	if (!CHECK_EQ(n, MANY))
		goto out;
	if (mt_sim())
		CHECK_EQ(mt_fw_count("general", self->uid),
			 (MANY + PER_OBJ - 1) / PER_OBJ);
	attr.send_cq = cq;
	attr.recv_cq = cq;
	qp = ibv_create_qp(pd, &attr);
	sorted = calloc(n, sizeof(*sorted));
	if (!CHECK(qp && sorted))
		goto out;
	memcpy(sorted, qpn, n * sizeof(*qpn));
	if (all_distinct(sorted, n)) {
		CHECK(!holds(sorted, n, qp->qp_num));
		mt_diag("%u QPNs from %#x to %#x, a QP %#x", n, sorted[0],
			sorted[n - 1], qp->qp_num);
		CHECK(sorted[n - 1] <= 0xffffff);
	}
	free(sorted);

	for (i = 0; i < n; i++)
		CHECK_ERR(mlx5dv_reserved_qpn_dealloc(self->ctx, qpn[i]), 0);
	CHECK_ERR(mlx5dv_reserved_qpn_dealloc(self->ctx, qpn[0]), EINVAL);
	CHECK_ERR(mlx5dv_reserved_qpn_dealloc(self->ctx, qp->qp_num), EINVAL);
	/* the blocks all handed out and back are destroyed; the last stays */
	if (mt_sim())
		CHECK_EQ(mt_fw_count("general", self->uid), 1);
out:
	if (qp)
		ibv_destroy_qp(qp);
	if (cq)
		ibv_destroy_cq(cq);
	if (pd)
		ibv_dealloc_pd(pd);
	free(qpn);
	/* the teardown checks the model holds what it held before */
	return KSFT_PASS;
}

/* A RESERVED_QPN object created through DEVX, as libmlx5 creates it. */
static struct mlx5dv_devx_obj *rsvd_obj(struct ibv_context *ctx,
					uint32_t log, uint32_t *first)
{
	uint32_t in[RSVD_IN_BYTES / 4] = {}, out[4] = {};
	struct mlx5dv_devx_obj *obj;

	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_GENERAL_OBJECT);
	mt_set(in, PRM_IN_OBJ_TYPE, TYPE_RSVD_QPN);
	mt_set(in, PRM_IN_LOG_OBJ_RANGE, log);
	errno = 0;
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	*first = obj ? mt_get(out, PRM_OUT_OBJ_ID) : 0;
	if (!obj)
		mt_diag("create log %u: errno %d status %#x syndrome %#x", log,
			errno, mt_get(out, PRM_OUT_STATUS),
			mt_get(out, PRM_OUT_SYNDROME));
	return obj;
}

/* Bad sizes of a range, as a DEVX user may ask: firmware's BAD_PARAM. */
MT_TEST_F(mt_ctx, bad_ranges)
{
	static const uint32_t logs[] = { 0, 7, 13, 31 };
	struct mlx5dv_devx_obj *obj;
	uint32_t first;
	unsigned int i;

	if (!mt_sim())
		return mt_skip("the model's granule and largest range");
	for (i = 0; i < MT_ARRAY_SIZE(logs); i++) {
		obj = rsvd_obj(self->ctx, logs[i], &first);
		if (!CHECK(!obj))
			mlx5dv_devx_obj_destroy(obj);
		else
			CHECK_ERR(errno, EREMOTEIO);
	}
	obj = rsvd_obj(self->ctx, 12, &first);
	if (CHECK(obj)) {
		CHECK_EQ(first & 4095, 0);
		CHECK_ERR(mlx5dv_devx_obj_destroy(obj), 0);
	}
	return KSFT_PASS;
}

struct victim {
	uint32_t sorted[MANY];
	unsigned int n;
	uint32_t first;		/* the first QPN of root's DEVX range */
};

/*
 * As nobody: its own QPNs are none of root's (held meanwhile), and
 * root's range cannot be queried or destroyed, neither through a handle
 * of its own nor by the general command.
 */
static int nobody_child(void *arg)
{
	const struct victim *v = arg;
	uint32_t *mine = calloc(MANY, sizeof(*mine));
	uint32_t in[RSVD_IN_BYTES / 4] = {}, out[8] = {}, own;
	struct mlx5dv_devx_obj *obj = NULL;
	struct ibv_context *ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	unsigned int n, i;

	if (!CHECK(ctx && mine))
		goto out;
	n = alloc_many(ctx, mine, MANY);
	CHECK_EQ(n, MANY);
	for (i = 0; i < n; i++)
		if (!CHECK(!holds(v->sorted, v->n, mine[i])) ||
		    !CHECK(mine[i] < v->first || mine[i] >= v->first + 4096))
			break;
	obj = rsvd_obj(ctx, 8, &own);
	if (!CHECK(obj))
		goto out;
	CHECK(own < v->first || own >= v->first + 4096);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_GENERAL_OBJECT);
	mt_set(in, PRM_IN_OBJ_TYPE, TYPE_RSVD_QPN);
	mt_set(in, PRM_IN_OBJ_ID, v->first);
	CHECK_ERR(mlx5dv_devx_obj_query(obj, in, 16, out, sizeof(out)),
		  EINVAL);
	CHECK_ERR(mlx5dv_devx_general_cmd(ctx, in, 16, out, sizeof(out)),
		  EINVAL);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_DESTROY_GENERAL_OBJECT);
	CHECK_ERR(mlx5dv_devx_general_cmd(ctx, in, 16, out, 16), EINVAL);
	/* its own answers: the refusals are about whose range it is */
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_GENERAL_OBJECT);
	mt_set(in, PRM_IN_OBJ_ID, own);
	CHECK_ERR(mlx5dv_devx_obj_query(obj, in, 16, out, sizeof(out)), 0);
	for (i = 0; i < n; i++)
		CHECK_ERR(mlx5dv_reserved_qpn_dealloc(ctx, mine[i]), 0);
out:
	if (obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(obj), 0);
	if (ctx)
		ibv_close_device(ctx);
	free(mine);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, other_user)
{
	struct victim *v = calloc(1, sizeof(*v));
	uint32_t qpn[MANY];
	struct mlx5dv_devx_obj *obj = NULL;
	int before = -1;
	unsigned int i;

	if (!CHECK(v))
		return KSFT_FAIL;
	v->n = alloc_many(self->ctx, qpn, MANY);
	memcpy(v->sorted, qpn, v->n * sizeof(*qpn));
	qsort(v->sorted, v->n, sizeof(*qpn), cmp_u32);
	obj = rsvd_obj(self->ctx, 12, &v->first);
	if (!CHECK(obj))
		goto out;
	if (mt_sim())
		before = mt_fw_count("general", self->uid);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody_child, v), KSFT_PASS);
	/* root's objects all there, and its QPNs its own to give back */
	if (mt_sim())
		CHECK_EQ(mt_fw_count("general", self->uid), before);
	for (i = 0; i < v->n; i++)
		CHECK_ERR(mlx5dv_reserved_qpn_dealloc(self->ctx, qpn[i]), 0);
out:
	if (obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(obj), 0);
	free(v);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_ctx_fixture, alloc_dealloc),
	MT_CASE_ON(mt_ctx_fixture, bad_ranges),
	MT_CASE_ON(mt_ctx_fixture, other_user),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
