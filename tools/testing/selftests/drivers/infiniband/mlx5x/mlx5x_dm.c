// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory: ibv_alloc_dm(3) / mlx5dv_alloc_dm(3) of every type,
 * ibv_memcpy_to_dm / _from_dm, ibv_import_dm(3) in another process,
 * mlx5dv_dm_map_op_addr(3), ibv_reg_dm_mr(3), and the uverbs ioctls
 * themselves where libmlx5 44 hides or refuses what the kernel must
 * check (DM_QUERY, ENCAP_SW_ICM, odd lengths, mmap offsets).
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
#include <grp.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x_test.h"
#include "mlx5x_model.h"
#include "mlx5x_ioctl.h"
#include "mlx5x_prm.h"

#define PAGE		4096
#define CAP_DEV_MEM	0x0f
/*
 * device_mem_cap fields 6.1's mlx5_ifc.h calls reserved, 6.12's names:
 * log_indirect_encap_sw_icm_size, indirect_encap_sw_icm_start_address
 */
#define CAP_LOG_ENCAP_SIZE	MT_FIELD(0x120, 8)
#define CAP_ENCAP_START_OFF	0x240
/* enum mlx5_ib_uapi_dm_type; ENCAP_SW_ICM came with Linux 6.5 */
#define DM_MEMIC		0
#define DM_STEERING		1
#define DM_HDR_MODIFY		2
#define DM_PATTERN		3
#define DM_ENCAP		4
#define NTYPES			5
/* libmlx5's mmap command for device memory */
#define MMAP_DEVICE_MEM		8

/* What the device memory capability page says. */
static struct {
	bool memic;
	uint32_t max_memic;
	uint32_t max_log_align;		/* log2 bytes */
	uint32_t ops;
	uint32_t log_granule;
	uint64_t icm_start[NTYPES];
	uint32_t icm_log[NTYPES];
} dmc;

static const char *const type_name[NTYPES] = {
	"memic", "steering", "header_modify", "pattern", "encap",
};

static int read_caps(void)
{
	static uint8_t out[PRM_QUERY_HCA_CAP_OUT_BYTES];
	static bool done;
	struct ibv_context *ctx;
	const void *c;
	int err;

	if (done)
		return 0;
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!ctx)
		return -1;
	err = mt_query_hca_cap(ctx, MT_CAP_OPMOD(CAP_DEV_MEM, 1), out);
	ibv_close_device(ctx);
	if (err)
		return err;
	c = mt_cap_page(out);
	dmc.memic = mt_get(c, PRM_DEVICE_MEM_CAP_MEMIC);
	dmc.max_memic = mt_get(c, PRM_DEVICE_MEM_CAP_MAX_MEMIC_SIZE);
	dmc.max_log_align = 6 +
		mt_get(c, PRM_DEVICE_MEM_CAP_LOG_MAX_MEMIC_ADDR_ALIGNMENT);
	dmc.ops = mt_get(c, PRM_DEVICE_MEM_CAP_MEMIC_OPERATIONS);
	dmc.log_granule = mt_get(c,
				 PRM_DEVICE_MEM_CAP_LOG_SW_ICM_ALLOC_GRANULARITY);
	dmc.icm_start[DM_STEERING] =
		mt_get64(c, PRM_DEVICE_MEM_CAP_STEERING_SW_ICM_START_ADDRESS_OFF);
	dmc.icm_log[DM_STEERING] =
		mt_get(c, PRM_DEVICE_MEM_CAP_LOG_STEERING_SW_ICM_SIZE);
	dmc.icm_start[DM_HDR_MODIFY] = mt_get64(c,
		PRM_DEVICE_MEM_CAP_HEADER_MODIFY_SW_ICM_START_ADDRESS_OFF);
	dmc.icm_log[DM_HDR_MODIFY] =
		mt_get(c, PRM_DEVICE_MEM_CAP_LOG_HEADER_MODIFY_SW_ICM_SIZE);
	dmc.icm_start[DM_PATTERN] = mt_get64(c,
		PRM_DEVICE_MEM_CAP_HEADER_MODIFY_PATTERN_SW_ICM_START_ADDRESS_OFF);
	dmc.icm_log[DM_PATTERN] = mt_get(c,
		PRM_DEVICE_MEM_CAP_LOG_HEADER_MODIFY_PATTERN_SW_ICM_SIZE);
	dmc.icm_start[DM_ENCAP] = mt_get64(c, CAP_ENCAP_START_OFF);
	dmc.icm_log[DM_ENCAP] = mt_get(c, CAP_LOG_ENCAP_SIZE);
	done = true;
	return 0;
}

/* --- the uverbs ioctls, as newer rdma-core issues them --------------- */

struct raw_dm {
	uint32_t handle;
	uint64_t start;		/* MEMIC: offset in its page; ICM: address */
	uint16_t page_idx;
};

static int raw_dm_alloc(struct ibv_context *ctx, uint64_t length,
			uint32_t log_align, uint64_t type, struct raw_dm *dm)
{
	struct mt_ioctl c;
	int h, err;

	memset(dm, 0, sizeof(*dm));
	mt_ioctl_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	h = mt_ioctl_new(&c, UVERBS_ATTR_ALLOC_DM_HANDLE);
	mt_ioctl_in64(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, length, sizeof(length));
	mt_ioctl_in64(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, log_align,
		      sizeof(log_align));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &dm->start,
		     sizeof(dm->start));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, &dm->page_idx,
		     sizeof(dm->page_idx));
	/* optional: the kernel must take it inline, as upstream's does */
	mt_ioctl_attr(&c, MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE, sizeof(type), type, 0);
	err = mt_ioctl_run(ctx, &c);
	if (!err)
		dm->handle = c.attrs[h].data;
	return err;
}

static int raw_dm_free(struct ibv_context *ctx, uint32_t handle)
{
	struct mt_ioctl c;

	mt_ioctl_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE);
	mt_ioctl_handle(&c, UVERBS_ATTR_FREE_DM_HANDLE, handle);
	return mt_ioctl_run(ctx, &c);
}

static int raw_dm_query(struct ibv_context *ctx, uint32_t handle,
			uint64_t *start, uint16_t *page_idx, uint64_t *length)
{
	struct mt_ioctl c;

	mt_ioctl_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_QUERY);
	mt_ioctl_handle(&c, MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE, handle);
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET, start,
		     sizeof(*start));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX, page_idx,
		     sizeof(*page_idx));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH, length,
		     sizeof(*length));
	return mt_ioctl_run(ctx, &c);
}

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

/* --- helpers --------------------------------------------------------- */

static struct ibv_dm *alloc_dm(struct ibv_context *ctx, uint64_t len,
			       unsigned int type)
{
	struct ibv_alloc_dm_attr attr = { .length = len };
	struct mlx5dv_alloc_dm_attr mattr = { .type = type };

	return mlx5dv_alloc_dm(ctx, &attr, &mattr);
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

static int need_icm(unsigned int type)
{
	if (read_caps())
		return mt_skip("no device memory capability page");
	if (!dmc.icm_start[type] || dmc.icm_log[type] < dmc.log_granule)
		return mt_skip("the device has no %s ICM", type_name[type]);
	return KSFT_PASS;
}

/* --- MEMIC ----------------------------------------------------------- */

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
static int test_memic_roundtrip(void)
{
	static const uint64_t lens[] = { 4, 64, 100, PAGE, PAGE + 100 };
	struct ibv_context *ctx;
	int base = memic_count();
	uint8_t *in, *out;
	unsigned int i;

	if (need_memic())
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
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
	ibv_close_device(ctx);
	return KSFT_PASS;
}

/* Zero, too long, too aligned, unknown flags: refused, nothing leaks. */
static int test_memic_bad(void)
{
	struct ibv_context *ctx;
	int base = mt_fw_total();
	struct raw_dm r;

	if (need_memic())
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
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
	ibv_close_device(ctx);
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

/* The whole MEMIC, then nothing more: ENOMEM; then it is all back. */
static int test_memic_exhaustion(void)
{
	struct ibv_context *ctx;
	struct raw_dm all, more;

	if (need_memic())
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	if (CHECK_ERR(raw_dm_alloc(ctx, dmc.max_memic, 0, DM_MEMIC, &all),
		      0)) {
		CHECK_ERR(raw_dm_alloc(ctx, 64, 0, DM_MEMIC, &more), ENOMEM);
		CHECK_EQ(raw_dm_free(ctx, all.handle), 0);
	}
	if (CHECK_ERR(raw_dm_alloc(ctx, dmc.max_memic, 0, DM_MEMIC, &all), 0))
		CHECK_EQ(raw_dm_free(ctx, all.handle), 0);
	ibv_close_device(ctx);
	return KSFT_PASS;
}

/* Another process imports the DM on the same file and sees its bytes. */
static int test_memic_import(void)
{
	struct ibv_alloc_dm_attr attr = { .length = 2 * PAGE };
	struct ibv_context *ctx;
	uint8_t in[256], out[256];
	struct ibv_dm *dm;
	int status = -1;
	pid_t pid;

	if (need_memic())
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(dm))
		goto out;
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
	CHECK(pid > 0 && mt_waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	/* what the importer wrote */
	fill(in, sizeof(in), 9);
	CHECK_EQ(ibv_memcpy_from_dm(out, dm, 0, sizeof(out)), 0);
	CHECK(!memcmp(in, out, sizeof(out)));
	CHECK_EQ(ibv_free_dm(dm), 0);
out:
	ibv_close_device(ctx);
	return KSFT_PASS;
}

/*
 * DM_QUERY gives what the importer maps; a mapping of our own keeps the
 * memory after ibv_free_dm() until it goes, then firmware gets it back.
 */
static int test_memic_free_while_mapped(void)
{
	struct ibv_alloc_dm_attr attr = { .length = 3000 };
	struct ibv_context *ctx;
	int base = memic_count();
	uint64_t start = ~0ULL, len = 0;
	uint16_t idx = 0;
	uint8_t in[64];
	struct ibv_dm *dm;
	uint8_t *p;

	if (need_memic())
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(dm))
		goto out;
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
out:
	ibv_close_device(ctx);
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
static int test_memic_map_op(void)
{
	struct ibv_context *ctx;
	struct ibv_alloc_dm_attr attr = { .length = PAGE };
	int base = memic_count();
	struct ibv_dm *dm;
	void *op, *again;
	unsigned int i;

	if (need_memic())
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(dm))
		goto out;
	for (i = 0; i < 32; i++) {
		if (dmc.ops & (1U << i))
			continue;
		errno = 0;
		CHECK(!mlx5dv_dm_map_op_addr(dm, i));
		CHECK_EQ(errno, EOPNOTSUPP);
	}
	if (!(dmc.ops & 1)) {
		CHECK_EQ(ibv_free_dm(dm), 0);
		ibv_close_device(ctx);
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
out:
	ibv_close_device(ctx);
	return KSFT_PASS;
}

/* ibv_reg_dm_mr() over MEMIC: the MR holds the DM. */
static int test_memic_mr(void)
{
	struct ibv_context *ctx;
	struct ibv_alloc_dm_attr attr = { .length = 2 * PAGE };
	unsigned int acc = IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	int mkeys = mt_fw_count("mkey", -1);
	struct ibv_dm *dm = NULL;
	struct ibv_pd *pd;
	struct ibv_mr *mr;

	if (need_memic())
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
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
	ibv_close_device(ctx);
	return KSFT_PASS;
}

static bool become_nobody(void)
{
	return !setgroups(0, NULL) && !setresgid(65534, 65534, 65534) &&
	       !setresuid(65534, 65534, 65534);
}

/* --- SW ICM ---------------------------------------------------------- */

static uint64_t icm_addr(struct ibv_dm *dm)
{
	struct mlx5dv_dm mdm = { .comp_mask = MLX5DV_DM_MASK_REMOTE_VA };
	struct mlx5dv_obj obj = { .dm = { .in = dm, .out = &mdm } };

	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM))
		return 0;
	return mdm.remote_va;
}

/* Each SW ICM type through libmlx5: an address in its region. */
static int test_icm_types(void)
{
	struct ibv_context *ctx;
	unsigned int t, tested = 0;
	int base = mt_fw_count("general", -1);

	if (read_caps())
		return mt_skip("no device memory capability page");
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	for (t = DM_STEERING; t <= DM_PATTERN; t++) {
		uint64_t g = 1ULL << dmc.log_granule, a;
		struct ibv_dm *dm, *dm2;

		if (need_icm(t))
			continue;
		dm = alloc_dm(ctx, g, t);
		if (!CHECK(dm))
			continue;
		a = icm_addr(dm);
		mt_diag("%s ICM at %#llx", type_name[t],
			(unsigned long long)a);
		CHECK(a >= dmc.icm_start[t] &&
		      a < dmc.icm_start[t] + (1ULL << dmc.icm_log[t]));
		CHECK_EQ(a % g, 0);
		/* a second one does not overlap */
		dm2 = alloc_dm(ctx, 3 * g, t);
		if (CHECK(dm2)) {
			uint64_t b = icm_addr(dm2);

			/* 3 granules take 4, aligned to a granule */
			CHECK(b >= a + g || b + 4 * g <= a);
			CHECK_EQ(b % g, 0);
			CHECK_EQ(ibv_free_dm(dm2), 0);
		}
		if (mt_sim())
			CHECK_EQ(mt_fw_count("general", -1), base + 1);
		CHECK_EQ(ibv_free_dm(dm), 0);
		tested++;
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_count("general", -1), base);
	ibv_close_device(ctx);
	return tested ? KSFT_PASS : mt_skip("no SW ICM region");
}

/*
 * ENCAP_SW_ICM: libmlx5 44 refuses type 4 itself, so the ioctl newer
 * rdma-core sends is sent here.
 */
static int test_icm_encap(void)
{
	struct ibv_context *ctx;
	struct raw_dm a, b;
	uint64_t g;

	if (need_icm(DM_ENCAP))
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	g = 1ULL << dmc.log_granule;
	if (CHECK_ERR(raw_dm_alloc(ctx, g, 0, DM_ENCAP, &a), 0)) {
		CHECK_EQ(a.start, dmc.icm_start[DM_ENCAP]);
		if (CHECK_ERR(raw_dm_alloc(ctx, g, 0, DM_ENCAP, &b), 0)) {
			CHECK_EQ(b.start, a.start + g);
			CHECK_EQ(raw_dm_free(ctx, b.handle), 0);
		}
		CHECK_EQ(raw_dm_free(ctx, a.handle), 0);
	}
	ibv_close_device(ctx);
	return KSFT_PASS;
}

/* Lengths and alignments: rounded as mlx5_ib does, or refused. */
static int test_icm_bad(void)
{
	struct ibv_context *ctx;
	int base = mt_fw_total();
	uint64_t g, start;
	struct raw_dm r;
	uint16_t idx;

	if (need_icm(DM_HDR_MODIFY))
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	g = 1ULL << dmc.log_granule;
	CHECK_ERR(raw_dm_alloc(ctx, 0, 0, DM_HDR_MODIFY, &r), EINVAL);
	CHECK_ERR(raw_dm_alloc(ctx, ~0ULL, 0, DM_HDR_MODIFY, &r), EINVAL);
	CHECK_ERR(raw_dm_alloc(ctx, (1ULL << dmc.icm_log[DM_HDR_MODIFY]) + 1,
			       0, DM_HDR_MODIFY, &r), EINVAL);
	CHECK_ERR(raw_dm_alloc(ctx, g, dmc.icm_log[DM_HDR_MODIFY] + 1,
			       DM_HDR_MODIFY, &r), EINVAL);
	/* a length off the granule is rounded up; a big alignment kept */
	if (CHECK_ERR(raw_dm_alloc(ctx, g + 1, dmc.log_granule + 3,
				   DM_HDR_MODIFY, &r), 0)) {
		CHECK_EQ((r.start - dmc.icm_start[DM_HDR_MODIFY]) %
			 (g << 3), 0);
		/* no mapping, nothing to import, no operations */
		CHECK_ERR(raw_dm_query(ctx, r.handle, &start, &idx, &start),
			  EOPNOTSUPP);
		CHECK_EQ(raw_dm_free(ctx, r.handle), 0);
	}
	ibv_close_device(ctx);
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

/* A region holds what its log size says, then ENOMEM. */
static int test_icm_exhaustion(void)
{
	struct ibv_context *ctx;
	struct raw_dm all, more;
	uint64_t size;

	if (need_icm(DM_HDR_MODIFY))
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	size = 1ULL << dmc.icm_log[DM_HDR_MODIFY];
	if (CHECK_ERR(raw_dm_alloc(ctx, size, 0, DM_HDR_MODIFY, &all), 0)) {
		CHECK_EQ(all.start, dmc.icm_start[DM_HDR_MODIFY]);
		CHECK_ERR(raw_dm_alloc(ctx, 1ULL << dmc.log_granule, 0,
				       DM_HDR_MODIFY, &more), ENOMEM);
		CHECK_EQ(raw_dm_free(ctx, all.handle), 0);
	}
	ibv_close_device(ctx);
	return KSFT_PASS;
}

/* ibv_reg_dm_mr() over SW ICM: an mkey of the owner over its range. */
static int test_icm_mr(void)
{
	unsigned int acc = IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE;
	struct ibv_context *ctx;
	struct ibv_dm *dm = NULL;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	uint64_t g;

	if (need_icm(DM_STEERING))
		return KSFT_SKIP;
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	g = 1ULL << dmc.log_granule;
	pd = ibv_alloc_pd(ctx);
	if (CHECK(pd))
		dm = alloc_dm(ctx, 2 * g, DM_STEERING);
	if (!CHECK(dm))
		goto out;
	mr = ibv_reg_dm_mr(pd, dm, g, g, acc);
	if (CHECK(mr)) {
		CHECK_ERR(ibv_free_dm(dm), EBUSY);
		CHECK_EQ(ibv_dereg_mr(mr), 0);
	}
	CHECK(!ibv_reg_dm_mr(pd, dm, 0, 64, acc | IBV_ACCESS_REMOTE_ATOMIC));
	CHECK_EQ(ibv_free_dm(dm), 0);
out:
	if (pd)
		ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return KSFT_PASS;
}

#define NOBODY	"setpriv --reuid=65534 --regid=65534 --clear-groups"

/* Keep only the capabilities in @keep, in every set. */
static int keep_caps(uint64_t keep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	unsigned int i;

	for (i = 0; i < 2; i++)
		data[i].effective = data[i].permitted =
			(uint32_t)(keep >> (32 * i));
	return syscall(SYS_capset, &hdr, data);
}

/*
 * SW ICM needs CAP_SYS_RAWIO and CAP_NET_RAW, both; MEMIC needs neither.
 * Each child drops capabilities (keeps @keep, or becomes nobody) before
 * or after opening the device, then asks for both.
 */
static int try_dropped(uint64_t keep, bool nobody, bool before_open)
{
	int status = -1;
	pid_t pid = mt_fork();

	if (pid == 0) {
		struct ibv_context *ctx;
		struct raw_dm r;
		int err, e2;

		if (before_open && !become_nobody())
			_exit(11);
		ctx = mt_open(MT_OPEN_DEVX, NULL);
		if (!ctx)
			_exit(10);
		if (!before_open &&
		    (nobody ? !become_nobody() : keep_caps(keep)))
			_exit(11);
		err = raw_dm_alloc(ctx, 1ULL << dmc.log_granule, 0,
				   DM_STEERING, &r);
		if (!err)
			raw_dm_free(ctx, r.handle);
		e2 = dmc.memic ? raw_dm_alloc(ctx, 64, 0, DM_MEMIC, &r) : 0;
		if (!e2 && dmc.memic)
			raw_dm_free(ctx, r.handle);
		_exit(e2 ? 12 : err == EPERM ? 0 : err ? 13 : 14);
	}
	if (pid < 0 || mt_waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * DEVX cannot bypass the check: a context opened without CAP_SYS_RAWIO
 * has no MLX5_UCTX_CAP_INTERNAL_DEV_RES, and firmware refuses it a
 * SW_ICM object; with it, the object is made (and owned) as firmware
 * says.
 */
#define CREATE_SW_ICM_IN	PRM_SW_ICM_IN_BYTES
#define GEN_OBJ_TYPE		PRM_SW_ICM_IN_HDR_OBJ_TYPE
#define SW_ICM_LOG_SIZE		PRM_SW_ICM_IN_SW_ICM_LOG_SW_ICM_SIZE
#define SW_ICM_START		PRM_SW_ICM_IN_SW_ICM_SW_ICM_START_ADDR_OFF

static int devx_sw_icm(bool drop)
{
	uint8_t in[CREATE_SW_ICM_IN] = {}, out[16] = {};
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx;
	uint64_t start = dmc.icm_start[DM_ENCAP] +
			 (1ULL << dmc.icm_log[DM_ENCAP]) -
			 (1ULL << dmc.log_granule);

	if (drop && !become_nobody())
		return 10;
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!ctx)
		return 11;
	mt_set(in, PRM_IN_OPCODE, 0xa00);	/* CREATE_GENERAL_OBJECT */
	mt_set(in, GEN_OBJ_TYPE, PRM_OBJ_TYPE_SW_ICM);
	mt_set(in, SW_ICM_LOG_SIZE, dmc.log_granule);
	mt_set(in, MT_FIELD(SW_ICM_START, 32), start >> 32);
	mt_set(in, MT_FIELD(SW_ICM_START + 32, 32), (uint32_t)start);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (obj)
		return drop ? 12 : mlx5dv_devx_obj_destroy(obj) ? 13 : 0;
	if (!drop)
		return 14;
	if (mt_sim() && mt_get(out, PRM_OUT_SYNDROME) != SYND_ICM_PRIV)
		return 15;
	return 0;
}

static int test_icm_devx(void)
{
	int status = -1;
	pid_t pid;

	if (need_icm(DM_ENCAP))
		return KSFT_SKIP;
	if (geteuid())
		return mt_skip("needs root to drop from");
	CHECK_EQ(devx_sw_icm(false), 0);
	pid = mt_fork();
	if (pid == 0)
		_exit(devx_sw_icm(true));
	CHECK(pid > 0 && mt_waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	return KSFT_PASS;
}

static int test_icm_privilege(void)
{
	struct ibv_context *ctx;
	int rc;

	if (need_icm(DM_STEERING))
		return KSFT_SKIP;
	if (geteuid())
		return mt_skip("needs root to drop from");
	CHECK_EQ(try_dropped(1ULL << CAP_NET_RAW, false, false), 0);
	CHECK_EQ(try_dropped(1ULL << CAP_SYS_RAWIO, false, false), 0);
	CHECK_EQ(try_dropped(0, true, false), 0);
	/* with both, as root has them, it works: 14 */
	CHECK_EQ(try_dropped(1ULL << CAP_NET_RAW | 1ULL << CAP_SYS_RAWIO,
			     false, false), 14);
	/* a user who is not root, from the start, if the node lets it in */
	rc = mt_sh("%s sh -c 'exec 3<>/dev/infiniband/uverbs0'", NOBODY);
	if (rc)
		mt_diag("/dev/infiniband/uverbs0 is not open to nobody (%d)",
			rc);
	else
		CHECK_EQ(try_dropped(0, true, true), 0);
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	CHECK(ctx);
	if (ctx)
		ibv_close_device(ctx);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	{ "memic_caps", test_memic_caps },
	{ "memic_roundtrip", test_memic_roundtrip },
	{ "memic_bad", test_memic_bad },
	{ "memic_exhaustion", test_memic_exhaustion },
	{ "memic_import", test_memic_import },
	{ "memic_free_while_mapped", test_memic_free_while_mapped },
	{ "memic_process_death", test_memic_process_death },
	{ "memic_map_op", test_memic_map_op },
	{ "memic_mr", test_memic_mr },
	{ "icm_types", test_icm_types },
	{ "icm_encap", test_icm_encap },
	{ "icm_bad", test_icm_bad },
	{ "icm_exhaustion", test_icm_exhaustion },
	{ "icm_mr", test_icm_mr },
	{ "icm_privilege", test_icm_privilege },
	{ "icm_devx", test_icm_devx },
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
