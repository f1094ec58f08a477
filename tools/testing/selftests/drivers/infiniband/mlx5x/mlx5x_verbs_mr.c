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
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define LEN		(64 * 4096)

static int test_reg_dereg(void)
{
	static const int access[] = {
		0,
		IBV_ACCESS_LOCAL_WRITE,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING,
	};
	struct mt_objs before = {}, after = {};
	struct mt_obj o[2];
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	unsigned int i;
	int uid, base;
	char *buf;

	buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ctx = mt_open(MT_OPEN_DEFAULT, &uid);
	if (!CHECK(ctx) || !CHECK(buf != MAP_FAILED))
		return KSFT_FAIL;
	pd = ibv_alloc_pd(ctx);
	if (!CHECK(pd))
		goto out;
	base = mt_fw_count(NULL, -1);
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
				CHECK_EQ(o[0].uid, uid);
			}
			if (CHECK_EQ(mt_fw_added(&before, &after, "umem", o, 2),
				     1)) {
				CHECK_EQ(o[0].uid, uid);
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
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
out:
	CHECK_EQ(ibv_close_device(ctx), 0);
	munmap(buf, LEN);
	return KSFT_PASS;
}

static int test_bad_attributes(void)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int base;
	char *buf;

	buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx) || !CHECK(buf != MAP_FAILED))
		return KSFT_FAIL;
	pd = ibv_alloc_pd(ctx);
	if (!CHECK(pd))
		goto out;
	base = mt_fw_count(NULL, -1);
	/* an iova at another place in a page than the address */
	errno = 0;
	CHECK(!ibv_reg_mr_iova(pd, buf + 100, 4096, 0x10000000ULL,
			       IBV_ACCESS_LOCAL_WRITE));
	CHECK_ERR(errno, EINVAL);
	/* remote write without local write: refused by the core */
	errno = 0;
	CHECK(!ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_REMOTE_WRITE));
	CHECK_ERR(errno, EINVAL);
	/* no memory windows, no on-demand paging */
	errno = 0;
	CHECK(!ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_MW_BIND));
	CHECK_ERR(errno, EOPNOTSUPP);
	errno = 0;
	CHECK(!ibv_reg_mr(pd, buf, 4096,
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND));
	CHECK(errno == EOPNOTSUPP || errno == EINVAL);
	/* pages that are not there */
	errno = 0;
	CHECK(!ibv_reg_mr(pd, (void *)8192, 4096, 0));
	CHECK(errno != 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count(NULL, -1), base);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
out:
	CHECK_EQ(ibv_close_device(ctx), 0);
	munmap(buf, LEN);
	return KSFT_PASS;
}

/* Failed commands leave nothing; MRs left behind go with the context. */
static int test_faults_and_close(void)
{
	static const int ops[] = { PRM_OP_CREATE_UMEM, PRM_OP_CREATE_MKEY };
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	unsigned int i;
	int base, uid;
	char *buf;

	if (!mt_sim())
		return mt_skip("needs the firmware model");
	buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	base = mt_fw_count(NULL, -1);
	ctx = mt_open(MT_OPEN_DEFAULT, &uid);
	if (!CHECK(ctx) || !CHECK(buf != MAP_FAILED))
		return KSFT_FAIL;
	pd = ibv_alloc_pd(ctx);
	if (!CHECK(pd))
		goto out;
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
out:
	CHECK_EQ(ibv_close_device(ctx), 0);
	CHECK_EQ(mt_fw_count(NULL, -1), base);
	munmap(buf, LEN);
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

	if (!mt_sim())
		return mt_skip("counts the model's objects");
	if (geteuid())
		return mt_skip("needs root to drop from");
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, named_mr, NULL), KSFT_PASS);
	CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	{ "reg_dereg", test_reg_dereg },
	{ "bad_attributes", test_bad_attributes },
	{ "faults_and_close", test_faults_and_close },
	{ "named_by_devx", test_named_by_devx },
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
