// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory, MEMIC: ibv_alloc_dm(3), ibv_memcpy_to_dm / _from_dm,
 * ibv_import_dm(3) in another process, mlx5dv_dm_map_op_addr(3),
 * ibv_reg_dm_mr(3), and the uverbs ioctls themselves where libmlx5 44
 * hides or refuses what the kernel must check (DM_QUERY, odd lengths,
 * mmap offsets).  SW ICM is mlx5x_dm_icm's.
 *
 * The limits come from the device memory capability page, so the same
 * cases run on hardware; the firmware model's object table is checked
 * where there is one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_dm.h"

/* libmlx5's mmap command for device memory */
#define MMAP_DEVICE_MEM		8

/* The offset libmlx5 maps a device memory page index at. */
static off_t dm_mmap_offset(uint16_t page_idx)
{
	uint64_t pgoff = (uint64_t)(page_idx >> 8) << 16 |
			 MMAP_DEVICE_MEM << 8 | (page_idx & 0xff);

	return pgoff * PAGE;
}

static void *map_dm(struct ibv_context *ctx, uint16_t page_idx, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       ctx->cmd_fd, dm_mmap_offset(page_idx));

	return p == MAP_FAILED ? NULL : p;
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static int memic_count(void)
{
	return mt_fw_count("memic", -1);
}

static int need_memic(void)
{
	if (read_caps())
		return mt_skip("no device memory capability page");
	if (!dmc.memic)
		return mt_skip("the device has no MEMIC");
	return KSFT_PASS;
}

/* A context on a device with MEMIC. */
MT_CTX_FIXTURE(memic, MT_OPEN_DEFAULT, need_memic);

static int test_memic_caps(void)
{
	struct ibv_device_attr_ex attr = {};
	struct ibv_context *ctx;

	if (!CHECK_EQ(read_caps(), 0))
		return KSFT_FAIL;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	CHECK_EQ(ibv_query_device_ex(ctx, NULL, &attr), 0);
	CHECK_EQ(attr.max_dm_size, dmc.memic ? dmc.max_memic : 0);
	mt_diag("max_dm_size %llu, ops %#x, granule 2^%u",
		(unsigned long long)attr.max_dm_size, dmc.ops,
		dmc.log_granule);
	ibv_close_device(ctx);
	return KSFT_PASS;
}

/* Bytes written through libmlx5's mapping come back, at any offset. */
MT_TEST_F(mt_ctx, memic_roundtrip)
{
	struct ibv_context *ctx = self->ctx;
	static const uint64_t lens[] = { 4, 64, 100, PAGE, PAGE + 100 };
	int base = memic_count();
	uint8_t *in, *out;
	unsigned int i;

	in = malloc(2 * PAGE);
	out = malloc(2 * PAGE);
	for (i = 0; i < MT_ARRAY_SIZE(lens); i++) {
		struct ibv_alloc_dm_attr attr = { .length = lens[i] };
		struct ibv_dm *dm = ibv_alloc_dm(ctx, &attr);
		uint64_t off = lens[i] > 8 ? 8 : 0, n = lens[i] - off;

		if (!CHECK(dm))
			continue;
		if (mt_sim())
			CHECK_EQ(memic_count(), base + 1);
		fill(in, n, i);
		memset(out, 0, n);
		CHECK_EQ(ibv_memcpy_to_dm(dm, off, in, n), 0);
		CHECK_EQ(ibv_memcpy_from_dm(out, dm, off, n), 0);
		CHECK(!memcmp(in, out, n));
		CHECK_EQ(ibv_free_dm(dm), 0);
	}
	if (mt_sim())
		CHECK_EQ(memic_count(), base);
	free(in);
	free(out);
	return KSFT_PASS;
}

/* Zero, too long, too aligned, unknown flags: refused, nothing leaks. */
MT_TEST_F(mt_ctx, memic_bad)
{
	struct ibv_context *ctx = self->ctx;
	struct raw_dm r;

	CHECK_ERR(raw_dm_alloc(ctx, 0, 0, DM_MEMIC, &r), EINVAL);
	CHECK_ERR(raw_dm_alloc(ctx, dmc.max_memic + 1ULL, 0, DM_MEMIC, &r),
		  EINVAL);
	CHECK_ERR(raw_dm_alloc(ctx, ~0ULL, 0, DM_MEMIC, &r), EINVAL);
	CHECK_ERR(raw_dm_alloc(ctx, 64, dmc.max_log_align + 1, DM_MEMIC, &r),
		  EINVAL);
	CHECK_ERR(raw_dm_alloc(ctx, 64, 0, 77, &r), EOPNOTSUPP);
	/* the largest alignment is honoured */
	if (CHECK_ERR(raw_dm_alloc(ctx, 64, dmc.max_log_align, DM_MEMIC, &r),
		      0)) {
		CHECK_EQ(r.start % (1ULL << dmc.max_log_align) % PAGE, 0);
		CHECK_EQ(raw_dm_free(ctx, r.handle), 0);
	}
	return KSFT_PASS;
}

/* The whole MEMIC, then nothing more: ENOMEM; then it is all back. */
MT_TEST_F(mt_ctx, memic_exhaustion)
{
	struct ibv_context *ctx = self->ctx;
	struct raw_dm all, more;

	if (CHECK_ERR(raw_dm_alloc(ctx, dmc.max_memic, 0, DM_MEMIC, &all),
		      0)) {
		CHECK_ERR(raw_dm_alloc(ctx, 64, 0, DM_MEMIC, &more), ENOMEM);
		CHECK_EQ(raw_dm_free(ctx, all.handle), 0);
	}
	if (CHECK_ERR(raw_dm_alloc(ctx, dmc.max_memic, 0, DM_MEMIC, &all), 0))
		CHECK_EQ(raw_dm_free(ctx, all.handle), 0);
	return KSFT_PASS;
}

/* Another process imports the DM on the same file and sees its bytes. */
MT_TEST_F(mt_ctx, memic_import)
{
	struct ibv_context *ctx = self->ctx;
	struct ibv_alloc_dm_attr attr = { .length = 2 * PAGE };
	uint8_t in[256], out[256];
	struct ibv_dm *dm;
	pid_t pid;

	dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(dm))
		return KSFT_FAIL;
	fill(in, sizeof(in), 3);
	CHECK_EQ(ibv_memcpy_to_dm(dm, PAGE - 128, in, sizeof(in)), 0);
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *ictx = ibv_import_device(dup(ctx->cmd_fd));
		struct ibv_dm *idm = ictx ? ibv_import_dm(ictx, dm->handle) :
					    NULL;
		uint8_t buf[256], back[256];

		if (!idm)
			_exit(2);
		if (ibv_memcpy_from_dm(buf, idm, PAGE - 128, sizeof(buf)) ||
		    memcmp(buf, in, sizeof(buf)))
			_exit(3);
		fill(back, sizeof(back), 9);
		if (ibv_memcpy_to_dm(idm, 0, back, sizeof(back)))
			_exit(4);
		ibv_unimport_dm(idm);
		_exit(0);
	}
	CHECK_EQ(mt_reap(pid), 0);
	/* what the importer wrote */
	fill(in, sizeof(in), 9);
	CHECK_EQ(ibv_memcpy_from_dm(out, dm, 0, sizeof(out)), 0);
	CHECK(!memcmp(in, out, sizeof(out)));
	CHECK_EQ(ibv_free_dm(dm), 0);
	return KSFT_PASS;
}

/*
 * DM_QUERY gives what the importer maps; a mapping of our own keeps the
 * memory after ibv_free_dm() until it goes, then firmware gets it back.
 */
MT_TEST_F(mt_ctx, memic_free_while_mapped)
{
	struct ibv_context *ctx = self->ctx;
	struct ibv_alloc_dm_attr attr = { .length = 3000 };
	int base = memic_count();
	uint64_t start = ~0ULL, len = 0;
	uint16_t idx = 0;
	uint8_t in[64];
	struct ibv_dm *dm;
	uint8_t *p;

	dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(dm))
		return KSFT_FAIL;
	CHECK_EQ(raw_dm_query(ctx, dm->handle, &start, &idx, &len), 0);
	CHECK_EQ(len, 3000);
	CHECK(start < PAGE);
	/* wrong length, wrong index, private: no mapping */
	CHECK(!map_dm(ctx, idx, 2 * PAGE));
	CHECK(!map_dm(ctx, idx + 1, PAGE));
	CHECK(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, ctx->cmd_fd,
		   dm_mmap_offset(idx)) == MAP_FAILED);
	p = map_dm(ctx, idx, PAGE);
	if (!CHECK(p))
		goto free;
	fill(in, sizeof(in), 5);
	CHECK_EQ(ibv_memcpy_to_dm(dm, 100, in, sizeof(in)), 0);
	CHECK(!memcmp(p + start + 100, in, sizeof(in)));
	CHECK_EQ(ibv_free_dm(dm), 0);
	dm = NULL;
	/* still mapped: still there, still the device's */
	CHECK(!memcmp(p + start + 100, in, sizeof(in)));
	p[start] = 0x5a;
	CHECK_EQ(p[start], 0x5a);
	if (mt_sim())
		CHECK_EQ(memic_count(), base + 1);
	CHECK_EQ(munmap(p, PAGE), 0);
	if (mt_sim())
		CHECK_EQ(memic_count(), base);
free:
	if (dm)
		ibv_free_dm(dm);
	return KSFT_PASS;
}

/* A process that dies with its DM mapped leaves nothing behind. */
static int test_memic_process_death(void)
{
	int base = memic_count(), total = mt_fw_total(), status = -1;
	pid_t pid;

	if (need_memic())
		return KSFT_SKIP;
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *ctx = mt_open(MT_OPEN_DEFAULT, NULL);
		struct ibv_alloc_dm_attr attr = { .length = PAGE };
		struct ibv_dm *dm = ctx ? ibv_alloc_dm(ctx, &attr) : NULL;
		uint32_t b = 1;

		/* libmlx5 copies whole 4-byte words */
		if (!dm || ibv_memcpy_to_dm(dm, 0, &b, sizeof(b)))
			_exit(2);
		if (dmc.ops & 1)
			mlx5dv_dm_map_op_addr(dm, 0);
		if (mt_sim() && memic_count() != base + 1)
			_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	CHECK(pid > 0 && mt_waitpid(pid, &status, 0) == pid);
	if (!CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
		mt_diag("child status %#x", status);
	if (mt_sim()) {
		CHECK_EQ(memic_count(), base);
		CHECK_EQ(mt_fw_total(), total);
	}
	return KSFT_PASS;
}

/*
 * Operation windows: only what the caps advertise, one per operation,
 * and they hold the MEMIC as the data mapping does.
 */
MT_TEST_F(mt_ctx, memic_map_op)
{
	struct ibv_context *ctx = self->ctx;
	struct ibv_alloc_dm_attr attr = { .length = PAGE };
	int base = memic_count();
	struct ibv_dm *dm;
	void *op, *again;
	unsigned int i;

	dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(dm))
		return KSFT_FAIL;
	for (i = 0; i < 32; i++) {
		if (dmc.ops & (1U << i))
			continue;
		errno = 0;
		CHECK(!mlx5dv_dm_map_op_addr(dm, i));
		CHECK_EQ(errno, EOPNOTSUPP);
	}
	if (!(dmc.ops & 1)) {
		CHECK_EQ(ibv_free_dm(dm), 0);
		return mt_skip("no MEMIC operation advertised");
	}
	op = mlx5dv_dm_map_op_addr(dm, 0);
	if (!CHECK(op))
		goto free;
	/* the same window again, in a second mapping */
	again = mlx5dv_dm_map_op_addr(dm, 0);
	CHECK(again);
	CHECK_EQ(ibv_free_dm(dm), 0);
	dm = NULL;
	/* the windows were zapped with the DM's entries... */
	if (mt_sim())
		CHECK_EQ(memic_count(), base + 1);
	/* ...and the memory goes with the last mapping */
	munmap((void *)((uintptr_t)op & ~(uintptr_t)(PAGE - 1)), PAGE);
	if (again)
		munmap((void *)((uintptr_t)again & ~(uintptr_t)(PAGE - 1)),
		       PAGE);
	if (mt_sim())
		CHECK_EQ(memic_count(), base);
free:
	if (dm)
		ibv_free_dm(dm);
	return KSFT_PASS;
}

/* ibv_reg_dm_mr() over MEMIC: the MR holds the DM. */
MT_TEST_F(mt_ctx, memic_mr)
{
	struct ibv_context *ctx = self->ctx;
	struct ibv_alloc_dm_attr attr = { .length = 2 * PAGE };
	unsigned int acc = IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	int mkeys = mt_fw_count("mkey", -1);
	struct ibv_dm *dm = NULL;
	struct ibv_pd *pd;
	struct ibv_mr *mr;

	pd = ibv_alloc_pd(ctx);
	if (CHECK(pd))
		dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(dm))
		goto out;
	mr = ibv_reg_dm_mr(pd, dm, 64, PAGE, acc);
	if (CHECK(mr)) {
		CHECK_EQ(mr->lkey, mr->rkey);
		if (mt_sim())
			CHECK_EQ(mt_fw_count("mkey", -1), mkeys + 1);
		CHECK_ERR(ibv_free_dm(dm), EBUSY);
		CHECK_EQ(ibv_dereg_mr(mr), 0);
	}
	/* an empty MR is valid, as mlx5_ib makes it */
	mr = ibv_reg_dm_mr(pd, dm, 0, 0, acc);
	if (CHECK(mr))
		CHECK_EQ(ibv_dereg_mr(mr), 0);
	/* beyond the DM, and an access MEMIC does not take */
	errno = 0;
	CHECK(!ibv_reg_dm_mr(pd, dm, PAGE, 2 * PAGE, acc));
	CHECK(!ibv_reg_dm_mr(pd, dm, ~0ULL - 10, 64, acc));
	CHECK(!ibv_reg_dm_mr(pd, dm, 0, 64, acc | IBV_ACCESS_MW_BIND));
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", -1), mkeys);
	CHECK_EQ(ibv_free_dm(dm), 0);
out:
	if (pd)
		ibv_dealloc_pd(pd);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(memic_caps),
	MT_CASE_F(memic, memic_roundtrip),
	MT_CASE_F(memic, memic_bad),
	MT_CASE_F(memic, memic_exhaustion),
	MT_CASE_F(memic, memic_import),
	MT_CASE_F(memic, memic_free_while_mapped),
	MT_CASE(memic_process_death),
	MT_CASE_F(memic, memic_map_op),
	MT_CASE_F(memic, memic_mr),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
