// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Protection domains: ibv_alloc_pd(3), ibv_dealloc_pd(3), the PD number
 * mlx5dv_init_obj(3) reports, who owns the firmware PD, and what happens
 * when firmware fails the commands.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"

#define MANY_PDS	1000
/* under the fault sweep: past one node (64) of the tables that hold them */
#define SWEPT_PDS	70

static int pdn_of(struct ibv_pd *pd, uint32_t *pdn)
{
	struct mlx5dv_pd dv = {};
	struct mlx5dv_obj obj = {};

	obj.pd.in = pd;
	obj.pd.out = &dv;
	*pdn = 0;
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD))
		return -1;
	*pdn = dv.pdn;
	return 0;
}

/* The kernel's own PDs (the MAD layer's) are there before and after. */
static int kernel_pds(void)
{
	return mt_sim() ? mt_fw_count("pd", -1) : -1;
}

MT_TEST_F(mt_ctx, alloc_dealloc)
{
	int base = kernel_pds();
	struct ibv_pd *pd;
	uint32_t pdn;

	pd = ibv_alloc_pd(self->ctx);
	if (!CHECK(pd))
		return KSFT_FAIL;
	CHECK_EQ(pd->context, self->ctx);
	CHECK_EQ(pdn_of(pd, &pdn), 0);
	CHECK(pdn != 0);
	mt_diag("pdn %#x uid %d", pdn, self->uid);
	mt_fw_check_owner("pd", pdn, self->uid);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("pd", -1), base);
	return KSFT_PASS;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

MT_TEST_F(mt_ctx, many_pds)
{
	unsigned int many = mt_loop_size(MANY_PDS, SWEPT_PDS);
	struct ibv_pd **pd = calloc(many, sizeof(*pd));
	uint32_t *pdn = calloc(many, sizeof(*pdn));
	int ctx_base = mt_fw_total(), base = kernel_pds();
	unsigned int i, n = 0;

	if (!CHECK(pd && pdn))
		goto out;
	for (i = 0; i < many; i++) {
		pd[i] = ibv_alloc_pd(self->ctx);
		if (!CHECK(pd[i]))
			break;
		CHECK_EQ(pdn_of(pd[i], &pdn[i]), 0);
		n++;
	}
	CHECK_EQ(n, many);
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count("pd", self->uid), n);
		CHECK_EQ(mt_fw_total(), ctx_base + n);
	}
	qsort(pdn, n, sizeof(*pdn), cmp_u32);
	for (i = 1; i < n; i++)
		if (!CHECK(pdn[i] != pdn[i - 1]))
			break;
	for (i = 0; i < n; i++)
		CHECK_ERR(ibv_dealloc_pd(pd[i]), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("pd", -1), base);
out:
	free(pd);
	free(pdn);
	return KSFT_PASS;
}

/*
 * ALLOC_PD failing in firmware (INTERNAL_ERR): ibv_alloc_pd() returns
 * NULL with the errno the status means, EIO; nothing is left behind and
 * the next allocation works.
 */
MT_TEST_F(mt_ctx, alloc_fails_cleanly)
{
	int base = mt_fw_total();
	struct ibv_pd *pd;

	if (CHECK_EQ(mt_fw_fail_next(1), 0)) {
		errno = 0;
		pd = ibv_alloc_pd(self->ctx);
		CHECK_ERR(pd ? 0 : errno, EIO);
		if (pd)
			ibv_dealloc_pd(pd);
		CHECK_EQ(mt_fw_total(), base);
	}
	/* the fault was used up by ALLOC_PD */
	pd = ibv_alloc_pd(self->ctx);
	if (CHECK(pd))
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	return KSFT_PASS;
}

/*
 * Teardown issues destroy commands only, which firmware always completes
 * (the model's fault injection spares them, as no driver can recover from
 * a failed destroy): with every other command armed to fail, freeing PDs
 * and closing the context still succeed and leave nothing behind.
 */
MT_TEST_F(mt_ctx, teardown_under_faults)
{
	struct ibv_pd *pd[4] = {};
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(pd); i++) {
		pd[i] = ibv_alloc_pd(self->ctx);
		CHECK(pd[i]);
	}
	CHECK_EQ(mt_fw_fail_next(1000), 0);
	for (i = 0; i < 2; i++)
		if (pd[i])
			CHECK_ERR(ibv_dealloc_pd(pd[i]), 0);
	/* the other two go with the context */
	CHECK_EQ(ibv_close_device(self->ctx), 0);
	self->ctx = NULL;
	mt_fw_fail_next(0);
	return KSFT_PASS;
}

/* Each context's PDs belong to its own uid; without DEVX, to uid 0. */
static int test_pd_owner(void)
{
	struct ibv_context *ctx[3] = {};
	static const enum mt_open_mode mode[3] = {
		MT_OPEN_DEVX, MT_OPEN_DEVX, MT_OPEN_NODEVX,
	};
	struct ibv_pd *pd[3] = {};
	uint32_t pdn[3];
	int uid[3], base;
	unsigned int i;

	base = mt_fw_total();
	for (i = 0; i < 3; i++) {
		ctx[i] = mt_open(mode[i], &uid[i]);
		if (!CHECK(ctx[i]))
			goto out;
		pd[i] = ibv_alloc_pd(ctx[i]);
		if (!CHECK(pd[i]))
			goto out;
		CHECK_EQ(pdn_of(pd[i], &pdn[i]), 0);
		mt_diag("context %u: uid %d pdn %#x", i, uid[i], pdn[i]);
		mt_fw_check_owner("pd", pdn[i], uid[i]);
	}
	CHECK(uid[0] > 0);
	CHECK(uid[1] > 0);
	CHECK(uid[0] != uid[1]);
	CHECK_EQ(uid[2], 0);
	CHECK(pdn[0] != pdn[1] && pdn[1] != pdn[2] && pdn[0] != pdn[2]);
out:
	for (i = 0; i < 3; i++) {
		if (pd[i])
			CHECK_ERR(ibv_dealloc_pd(pd[i]), 0);
		if (ctx[i])
			CHECK_EQ(ibv_close_device(ctx[i]), 0);
	}
	CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

/* Closing a context with PDs still allocated frees them in firmware. */
MT_TEST_F(mt_ctx, close_frees_pds)
{
	int base = kernel_pds();
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (!CHECK(ibv_alloc_pd(self->ctx)))
			break;
	if (mt_sim())
		CHECK_EQ(mt_fw_count("pd", -1), base + 16);
	CHECK_EQ(ibv_close_device(self->ctx), 0);
	self->ctx = NULL;
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_ctx_fixture, alloc_dealloc),
	MT_CASE_ON(mt_ctx_fixture, many_pds),
	MT_CASE_ON(mt_ctx_fixture, alloc_fails_cleanly,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_ctx_fixture, teardown_under_faults,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE(pd_owner, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_ctx_fixture, close_frees_pds),
};
int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
