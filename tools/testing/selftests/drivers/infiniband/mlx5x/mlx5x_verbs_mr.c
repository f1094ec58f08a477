// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions through libmlx5: ibv_reg_mr(3), ibv_reg_mr_iova(3),
 * ibv_dereg_mr(3).  An MR is, in the model, a direct mkey over a UMEM the
 * kernel registered, both owned by the PD's context; its key is the mkey
 * index and an 8-bit variant.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define LEN		(64 * 4096)

/*
 * LEN bytes of anonymous memory, and a context (mt_ctx_open()) with a PD
 * to register them on.
 */
struct mem {
	char *buf;
	struct mt_ctx c;
	struct ibv_pd *pd;
};

MT_FIXTURE(mem);

MT_FIXTURE_SETUP(mem)
{
	void *buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	self->buf = buf == MAP_FAILED ? NULL : buf;
	if (!mt_ctx_open(&self->c, MT_OPEN_DEFAULT) || !CHECK(self->buf))
		return KSFT_FAIL;
	self->pd = ibv_alloc_pd(self->c.ctx);
	return CHECK(self->pd) ? KSFT_PASS : KSFT_FAIL;
}

/* The PD goes here unless the case closed the context. */
MT_FIXTURE_TEARDOWN(mem)
{
	if (self->pd)
		CHECK_ERR(ibv_dealloc_pd(self->pd), 0);
	mt_ctx_close(&self->c);
	if (self->buf)
		munmap(self->buf, LEN);
}

MT_TEST_F(mem, reg_dereg)
{
	static const int access[] = {
		0,
		IBV_ACCESS_LOCAL_WRITE,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING,
		/*
		 * how an ODP walk may map the pages, nothing for pinned
		 * ones: mlx5_ib registers it as without it, whatever the
		 * pages are
		 */
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_HUGETLB,
	};
	struct mt_objs before = {}, after = {};
	int base = mt_fw_count(NULL, -1);
	struct ibv_pd *pd = self->pd;
	char *buf = self->buf;
	struct mt_obj o[2];
	struct ibv_mr *mr;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(access); i++) {
		mt_fw_read(&before);
		mr = ibv_reg_mr(pd, buf + 100, LEN - 200, access[i]);
		if (!CHECK(mr))
			continue;
		CHECK_EQ(mr->lkey, mr->rkey);
		CHECK_EQ(mr->length, LEN - 200);
		if (mt_sim() && !mt_fw_read(&after)) {
			if (CHECK_EQ(mt_fw_added(&before, &after, "mkey", o, 2),
				     1)) {
				CHECK_EQ(o[0].id, mr->lkey >> 8);
				CHECK_EQ(o[0].uid, self->c.uid);
			}
			if (CHECK_EQ(mt_fw_added(&before, &after, "umem", o, 2),
				     1)) {
				CHECK_EQ(o[0].uid, self->c.uid);
				CHECK_EQ(o[0].users, 1);
			}
			mt_fw_free(&after);
		}
		mt_fw_free(&before);
		CHECK_ERR(ibv_dereg_mr(mr), 0);
		if (mt_sim())
			CHECK_EQ(mt_fw_count(NULL, -1), base);
	}
	/* an iova elsewhere, at the same place in a page */
	mr = ibv_reg_mr_iova(pd, buf + 100, 4096, 0x10000064ULL,
			     IBV_ACCESS_LOCAL_WRITE);
	if (CHECK(mr))
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	return KSFT_PASS;
}

/* Whether the device says it pages MRs on demand (ibv_query_device_ex). */
static bool odp_offered(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex attr = {};

	return !ibv_query_device_ex(ctx, NULL, &attr) &&
	       (attr.odp_caps.general_caps & IBV_ODP_SUPPORT);
}

MT_TEST_F(mem, bad_attributes)
{
	int base = mt_fw_count(NULL, -1);
	struct ibv_pd *pd = self->pd;
	char *buf = self->buf;
	struct ibv_mr *mr;

	/* an iova at another place in a page than the address */
	errno = 0;
	CHECK(!ibv_reg_mr_iova(pd, buf + 100, 4096, 0x10000000ULL,
			       IBV_ACCESS_LOCAL_WRITE));
	CHECK_ERR(errno, EINVAL);
	/* remote write without local write: refused by the core */
	errno = 0;
	CHECK(!ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_REMOTE_WRITE));
	CHECK_ERR(errno, EINVAL);
	/* on-demand paging only where the device offers it (mlx5x_odp) */
	errno = 0;
	mr = ibv_reg_mr(pd, buf, 4096,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	if (odp_offered(pd->context)) {
		if (CHECK(mr))
			CHECK_ERR(ibv_dereg_mr(mr), 0);
	} else if (!CHECK(!mr)) {
		ibv_dereg_mr(mr);
	} else {
		CHECK(errno == EOPNOTSUPP || errno == EINVAL);
	}
	/*
	 * huge pages on demand register where ODP does, as on mlx5_ib, on
	 * ordinary memory too (the device's access then fails: the kselftest
	 * mlx5x_odp_huge)
	 */
	errno = 0;
	mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_ON_DEMAND | IBV_ACCESS_HUGETLB);
	if (odp_offered(pd->context)) {
		if (CHECK(mr))
			CHECK_ERR(ibv_dereg_mr(mr), 0);
	} else if (!CHECK(!mr)) {
		ibv_dereg_mr(mr);
	} else {
		CHECK(errno == EOPNOTSUPP || errno == EINVAL);
	}
	/* pages that are not there */
	errno = 0;
	CHECK(!ibv_reg_mr(pd, (void *)8192, 4096, 0));
	CHECK(errno != 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, -1), base);
	return KSFT_PASS;
}

/* Failed commands leave nothing; MRs left behind go with the context. */
MT_TEST_F(mem, faults_and_close)
{
	static const int ops[] = { PRM_OP_CREATE_UMEM, PRM_OP_CREATE_MKEY };
	struct ibv_pd *pd = self->pd;
	char *buf = self->buf;
	int uid = self->c.uid;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(ops); i++) {
		CHECK_EQ(mt_fw_fail_opcode(ops[i]), 0);
		errno = 0;
		CHECK(!ibv_reg_mr(pd, buf, LEN, IBV_ACCESS_LOCAL_WRITE));
		CHECK_ERR(errno, EIO);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
		CHECK_EQ(mt_fw_count("mkey", uid), 0);
		CHECK_EQ(mt_fw_count("umem", uid), 0);
	}
	CHECK(ibv_reg_mr(pd, buf, LEN, IBV_ACCESS_LOCAL_WRITE));
	CHECK(ibv_reg_mr(pd, buf, 4096, 0));
	CHECK_EQ(mt_fw_count("mkey", uid), 2);
	/*
	 * The MRs and the PD go with the context; the teardown checks
	 * that the model holds what it held before it.
	 */
	CHECK_EQ(ibv_close_device(self->c.ctx), 0);
	self->c.ctx = NULL;
	self->pd = NULL;
	return KSFT_PASS;
}

/*
 * An MR's buffer is a umem of the context, which a DEVX object of the
 * context may name (its id lies between two DEVX umems registered around
 * the MR).  ibv_dereg_mr() works all the same, and once the context is
 * closed nothing of it is left in firmware: the umem firmware kept while
 * the mkey named it is given back with the context.  Run as nobody.
 */
static int named_mr(void *unused)
{
	uint8_t in[PRM_CREATE_MKEY_IN_BYTES] = {};
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	struct mlx5dv_devx_umem *a = NULL, *b = NULL;
	struct mlx5dv_devx_obj *mkey = NULL;
	struct ibv_mr *mr = NULL;
	uint32_t id;
	struct mq q;

	(void)unused;
	if (!mq_open(&q))
		return KSFT_FAIL;
	a = mlx5dv_devx_umem_reg(q.ctx, q.buf, 4096, 0);
	mr = ibv_reg_mr(ibv_alloc_pd(q.ctx), q.buf, 4096,
			IBV_ACCESS_LOCAL_WRITE);
	b = mlx5dv_devx_umem_reg(q.ctx, q.buf, 4096, 0);
	if (!CHECK(a) || !CHECK(mr) || !CHECK(b))
		goto out;
	for (id = a->umem_id + 1; !mkey && id < b->umem_id; id++) {
		mq_mkey_direct_in(in, q.pd, id, 0, 0, 4096);
		mkey = mlx5dv_devx_obj_create(q.ctx, in, sizeof(in), out,
					      sizeof(out));
	}
	if (!CHECK(mkey))
		goto out;
	CHECK_EQ(ibv_dereg_mr(mr), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(mkey), 0);
out:
	mq_close(&q);
	return KSFT_PASS;
}

static int test_named_by_devx(void)
{
	int base = mt_fw_total();

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, named_mr, NULL), KSFT_PASS);
	CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(mem, reg_dereg),
	MT_CASE_F(mem, bad_attributes),
	MT_CASE_F(mem, faults_and_close, .flags = MT_NEEDS_MODEL),
	MT_CASE(named_by_devx, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
