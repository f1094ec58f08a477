// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Dynamic UARs: mlx5dv_devx_alloc_uar(3) and mlx5dv_devx_free_uar(3)
 * through libmlx5, and MLX5_IB_OBJECT_UAR driven directly with the
 * uverbs ioctl, to reach what libmlx5 hides: its UAR cache, the type
 * check, the mmap of the page and when the firmware UAR is released.
 *
 * libmlx5 44 hands out BlueFlame registers from dynamically allocated UAR
 * pages (several registers per page, kept for reuse after free), and one
 * non-cached UAR per context for every MLX5DV_UAR_ALLOC_TYPE_NC request.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_ioctl.h"

#define MANY_UARS	100
#define UAR_PAGE	4096

/* What every UAR handed out must look like. */
static void check_uar(struct mlx5dv_devx_uar *uar, int uid)
{
	uint8_t *base = uar->base_addr, *reg = uar->reg_addr;

	CHECK(base);
	CHECK(reg);
	/* the doorbell register lies within the mapped page */
	CHECK(reg >= base && reg < base + UAR_PAGE);
	CHECK_EQ((uintptr_t)base % UAR_PAGE, 0);
	CHECK(mt_try_write64(reg, 0));
	mt_fw_check_owner("uar", uar->page_id, uid);
}

static int alloc_one(struct mt_ctx *self, uint32_t type)
{
	struct mlx5dv_devx_uar *uar;

	uar = mlx5dv_devx_alloc_uar(self->ctx, type);
	if (CHECK(uar)) {
		mt_diag("page_id %#x base %p reg %p mmap_off %#llx",
			uar->page_id, uar->base_addr, uar->reg_addr,
			(unsigned long long)uar->mmap_off);
		check_uar(uar, self->uid);
		mlx5dv_devx_free_uar(uar);
	}
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, alloc_bf)
{
	return alloc_one(self, MLX5DV_UAR_ALLOC_TYPE_BF);
}

MT_TEST_F(mt_ctx, alloc_nc)
{
	return alloc_one(self, MLX5DV_UAR_ALLOC_TYPE_NC);
}

/*
 * UARs alive together: distinct registers; registers on one page share a
 * page id, registers on different pages do not; the NC UAR is a page of
 * its own.
 */
MT_TEST_F(mt_ctx, distinct_uars)
{
	struct mlx5dv_devx_uar *uar[5] = {};
	unsigned int i, j;

	for (i = 0; i < MT_ARRAY_SIZE(uar); i++) {
		uint32_t type = i == 2 ? MLX5DV_UAR_ALLOC_TYPE_NC :
					 MLX5DV_UAR_ALLOC_TYPE_BF;

		uar[i] = mlx5dv_devx_alloc_uar(self->ctx, type);
		if (!CHECK(uar[i]))
			goto out;
		mt_diag("%s: page_id %#x base %p reg %p", type ? "NC" : "BF",
			uar[i]->page_id, uar[i]->base_addr, uar[i]->reg_addr);
		check_uar(uar[i], self->uid);
	}
	for (i = 0; i < MT_ARRAY_SIZE(uar); i++)
		for (j = 0; j < i; j++) {
			CHECK(uar[i]->reg_addr != uar[j]->reg_addr);
			CHECK_EQ(uar[i]->page_id == uar[j]->page_id,
				 uar[i]->base_addr == uar[j]->base_addr);
		}
	for (i = 0; i < MT_ARRAY_SIZE(uar); i++)
		if (i != 2)
			CHECK(uar[i]->page_id != uar[2]->page_id);
out:
	for (i = 0; i < MT_ARRAY_SIZE(uar); i++)
		if (uar[i])
			mlx5dv_devx_free_uar(uar[i]);
	return KSFT_PASS;
}

/*
 * ALLOC_UAR failing in firmware: a fresh context has no cached register,
 * so libmlx5 must ask the kernel, which reports EIO and keeps nothing.
 */
MT_TEST_F(mt_ctx, alloc_fails_cleanly)
{
	struct mlx5dv_devx_uar *uar;
	int base = mt_fw_total();

	if (CHECK_EQ(mt_fw_fail_opcode(PRM_OP_ALLOC_UAR), 0)) {
		errno = 0;
		uar = mlx5dv_devx_alloc_uar(self->ctx,
					    MLX5DV_UAR_ALLOC_TYPE_BF);
		CHECK_ERR(uar ? 0 : errno, EIO);
		mt_fw_fail_opcode(-1);
		if (uar)
			mlx5dv_devx_free_uar(uar);
		CHECK_EQ(mt_fw_total(), base);
	}
	uar = mlx5dv_devx_alloc_uar(self->ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (CHECK(uar))
		mlx5dv_devx_free_uar(uar);
	return KSFT_PASS;
}

/* 100 at once, freed, 100 again: the second round reuses the first's. */
MT_TEST_F(mt_ctx, many_uars)
{
	struct mlx5dv_devx_uar *uar[MANY_UARS] = {};
	int first = -1, round;
	unsigned int i, j;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < MANY_UARS; i++) {
			uar[i] = mlx5dv_devx_alloc_uar(self->ctx,
						       MLX5DV_UAR_ALLOC_TYPE_BF);
			if (!CHECK(uar[i]))
				break;
			CHECK(mt_try_write64(uar[i]->reg_addr, i));
		}
		for (i = 0; i < MANY_UARS && uar[i]; i++)
			for (j = 0; j < i; j++)
				if (!CHECK(uar[i]->reg_addr != uar[j]->reg_addr))
					break;
		if (mt_sim()) {
			int n = mt_fw_count("uar", -1);

			mt_diag("round %d: %d firmware UARs", round, n);
			CHECK(n > 0 && n <= MANY_UARS + 1);
			if (round)
				CHECK_EQ(n, first);
			first = n;
		}
		for (i = 0; i < MANY_UARS; i++) {
			if (uar[i])
				mlx5dv_devx_free_uar(uar[i]);
			uar[i] = NULL;
		}
	}
	return KSFT_PASS;
}

/* libmlx5 refuses types it does not know before any system call. */
MT_TEST_F(mt_ctx, bad_type_libmlx5)
{
	static const uint32_t types[] = { 2, 3, 0x80, 0xffffffff };
	long long cmds = mt_fw_stat("commands");
	struct mlx5dv_devx_uar *uar;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(types); i++) {
		mt_diag("flags %#x", types[i]);
		errno = 0;
		uar = mlx5dv_devx_alloc_uar(self->ctx, types[i]);
		CHECK_ERR(uar ? 0 : errno, EOPNOTSUPP);
		if (uar)
			mlx5dv_devx_free_uar(uar);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	return KSFT_PASS;
}

/* MLX5_IB_OBJECT_UAR through the uverbs ioctl, without libmlx5. */
struct raw_uar {
	uint32_t handle;
	uint32_t page_id;
	uint32_t length;
	uint64_t offset;
};

static int raw_uar_alloc(struct ibv_context *ctx, uint64_t type,
			 struct raw_uar *u)
{
	struct mt_ioctl c;
	int h, err;

	memset(u, 0, sizeof(*u));
	mt_ioctl_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
	h = mt_ioctl_new(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	mt_ioctl_in64(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, type, sizeof(type));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &u->page_id,
		     sizeof(u->page_id));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &u->length,
		     sizeof(u->length));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &u->offset,
		     sizeof(u->offset));
	err = mt_ioctl_run(ctx, &c);
	if (!err)
		u->handle = c.attrs[h].data;
	return err;
}

static int raw_uar_destroy(struct ibv_context *ctx, uint32_t handle)
{
	struct mt_ioctl c;

	mt_ioctl_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_DESTROY);
	mt_ioctl_handle(&c, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, handle);
	return mt_ioctl_run(ctx, &c);
}

/* The kernel's own check of the type: neither BF nor NC is EOPNOTSUPP. */
MT_TEST_F(mt_ctx, bad_type_kernel)
{
	static const uint64_t types[] = { 2, 0x80, 0xffffffff };
	int base = mt_fw_total();
	struct raw_uar u;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(types); i++) {
		mt_diag("type %#llx", (unsigned long long)types[i]);
		CHECK_ERR(raw_uar_alloc(self->ctx, types[i], &u), EOPNOTSUPP);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

static void *map_uar(struct ibv_context *ctx, uint64_t offset, size_t len,
		     int prot, int *err)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, ctx->cmd_fd, offset);

	*err = p == MAP_FAILED ? errno : 0;
	return p == MAP_FAILED ? NULL : p;
}

/*
 * The page of a UAR object maps at the offset the kernel returned, one
 * page exactly, never executable; a second mapping sees the first's
 * stores (on the model, where UAR pages are memory outside their
 * doorbell registers: a store to one of those is a doorbell, and kept
 * nowhere, as on a ConnectX).
 */
MT_TEST_F(mt_ctx, raw_alloc_and_mmap)
{
	struct ibv_context *ctx = self->ctx;
	int base = mt_fw_total(), err;
	uint64_t *p1, *p2;
	struct raw_uar u, v;

	if (!CHECK_ERR(raw_uar_alloc(ctx, MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, &u),
		       0))
		return KSFT_FAIL;
	mt_diag("page_id %#x length %u offset %#llx", u.page_id, u.length,
		(unsigned long long)u.offset);
	CHECK_EQ(u.length, UAR_PAGE);
	CHECK_EQ(u.offset % UAR_PAGE, 0);
	mt_fw_check_owner("uar", u.page_id, self->uid);

	p1 = map_uar(ctx, u.offset, UAR_PAGE, PROT_READ | PROT_WRITE, &err);
	CHECK_ERR(err, 0);
	p2 = map_uar(ctx, u.offset, UAR_PAGE, PROT_READ | PROT_WRITE, &err);
	CHECK_ERR(err, 0);
	if (p1 && p2 && mt_sim()) {
		/* byte 0x100: no doorbell register */
		CHECK(mt_try_write64(p1 + 0x20, 0x1122334455667788ULL));
		CHECK_EQ(__atomic_load_n(&p2[0x20], __ATOMIC_ACQUIRE),
			 0x1122334455667788ULL);
	}
	if (p2)
		munmap(p2, UAR_PAGE);

	map_uar(ctx, u.offset, 2 * UAR_PAGE, PROT_WRITE, &err);
	CHECK_ERR(err, EINVAL);
	map_uar(ctx, u.offset, UAR_PAGE, PROT_WRITE | PROT_EXEC, &err);
	CHECK_ERR(err, EPERM);
	map_uar(ctx, u.offset + 64 * UAR_PAGE, UAR_PAGE, PROT_WRITE, &err);
	CHECK_ERR(err, EINVAL);

	/* a second object gets its own page and offset */
	if (CHECK_ERR(raw_uar_alloc(ctx, MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF, &v),
		      0)) {
		CHECK(v.page_id != u.page_id);
		CHECK(v.offset != u.offset);
		CHECK_ERR(raw_uar_destroy(ctx, v.handle), 0);
	}

	/*
	 * Destroyed while mapped: the offset is gone, the mapping stays
	 * usable and keeps the firmware UAR until it is unmapped.
	 */
	CHECK_ERR(raw_uar_destroy(ctx, u.handle), 0);
	map_uar(ctx, u.offset, UAR_PAGE, PROT_WRITE, &err);
	CHECK_ERR(err, EINVAL);
	if (p1) {
		CHECK(mt_try_write64(p1, 1));
		if (mt_sim())
			CHECK_EQ(mt_fw_total(), base + 1);
		munmap(p1, UAR_PAGE);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), base);
	CHECK_ERR(raw_uar_destroy(ctx, u.handle), ENOENT);
	return KSFT_PASS;
}

/* The driver's own ALLOC_UAR failure path frees what it allocated. */
MT_TEST_F(mt_ctx, raw_alloc_fails_cleanly)
{
	int base = mt_fw_total();
	struct raw_uar u;

	if (CHECK_EQ(mt_fw_fail_next(1), 0)) {
		CHECK_ERR(raw_uar_alloc(self->ctx,
					MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF, &u),
			  EIO);
		CHECK_EQ(mt_fw_total(), base);
	}
	return KSFT_PASS;
}

/* A context without DEVX gets UARs too, owned by the kernel (uid 0). */
MT_TEST_F(mt_ctx, no_devx_uar)
{
	struct mlx5dv_devx_uar *uar;

	CHECK_EQ(self->uid, 0);
	uar = mlx5dv_devx_alloc_uar(self->ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (CHECK(uar)) {
		check_uar(uar, 0);
		mlx5dv_devx_free_uar(uar);
	}
	return KSFT_PASS;
}

/*
 * Closing a context with a UAR object still allocated and mapped: the
 * mapping keeps the file, and with it the context, until it is unmapped;
 * then the object, its page and the context all go.  (UARs libmlx5 hands
 * out must be freed before closing: libmlx5 keeps those mapped.)
 */
MT_TEST_F(mt_ctx, close_frees_uars)
{
	struct ibv_context *ctx = self->ctx;
	struct raw_uar u;
	void *p = NULL;
	int err;

	if (CHECK_ERR(raw_uar_alloc(ctx, MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF, &u),
		      0))
		p = map_uar(ctx, u.offset, UAR_PAGE, PROT_WRITE, &err);
	CHECK(p);
	CHECK_EQ(ibv_close_device(ctx), 0);
	self->ctx = NULL;
	if (p) {
		CHECK(mt_try_write64(p, 3));
		if (mt_sim())
			CHECK(mt_fw_total() > self->base);
		munmap(p, UAR_PAGE);
	}
	/* and then nothing of the context is left: the teardown checks */
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_devx_ctx_fixture, alloc_bf),
	MT_CASE_ON(mt_devx_ctx_fixture, alloc_nc),
	MT_CASE_ON(mt_devx_ctx_fixture, distinct_uars),
	MT_CASE_ON(mt_devx_ctx_fixture, alloc_fails_cleanly,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_devx_ctx_fixture, many_uars),
	MT_CASE_ON(mt_devx_ctx_fixture, bad_type_libmlx5),
	MT_CASE_ON(mt_devx_ctx_fixture, bad_type_kernel),
	MT_CASE_ON(mt_devx_ctx_fixture, raw_alloc_and_mmap),
	MT_CASE_ON(mt_devx_ctx_fixture, raw_alloc_fails_cleanly,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_nodevx_ctx_fixture, no_devx_uar, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_devx_ctx_fixture, close_frees_uars),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
