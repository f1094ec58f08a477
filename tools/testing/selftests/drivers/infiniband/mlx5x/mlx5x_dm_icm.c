// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory, SW ICM: mlx5dv_alloc_dm(3) of each SW ICM type,
 * ibv_reg_dm_mr(3) over it, the uverbs ioctls themselves where libmlx5
 * 44 refuses what the kernel must check (ENCAP_SW_ICM, odd lengths and
 * alignments), and the privilege SW ICM needs, through uverbs and through
 * DEVX.  MEMIC is mlx5x_dm's.
 *
 * The limits come from the device memory capability page, so the same
 * cases run on hardware; the firmware model's object table is checked
 * where there is one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"
#include "mlx5x_dm.h"

static const char *const type_name[NTYPES] = {
	"memic", "steering", "header_modify", "pattern", "encap",
};

static struct ibv_dm *alloc_dm(struct ibv_context *ctx, uint64_t len,
			       unsigned int type)
{
	struct ibv_alloc_dm_attr attr = { .length = len };
	struct mlx5dv_alloc_dm_attr mattr = { .type = type };

	return mlx5dv_alloc_dm(ctx, &attr, &mattr);
}

static int need_caps(void)
{
	if (read_caps())
		return mt_skip("no device memory capability page");
	return KSFT_PASS;
}

static int need_icm(unsigned int type)
{
	if (need_caps())
		return KSFT_SKIP;
	if (!dmc.icm_start[type] || dmc.icm_log[type] < dmc.log_granule)
		return mt_skip("the device has no %s ICM", type_name[type]);
	return KSFT_PASS;
}

static bool become_nobody(void)
{
	return !setgroups(0, NULL) && !setresgid(65534, 65534, 65534) &&
	       !setresuid(65534, 65534, 65534);
}

/* A DEVX context on a device with a device memory capability page. */
MT_CTX_FIXTURE(icm, MT_OPEN_DEVX, need_caps);

static uint64_t icm_addr(struct ibv_dm *dm)
{
	struct mlx5dv_dm mdm = { .comp_mask = MLX5DV_DM_MASK_REMOTE_VA };
	struct mlx5dv_obj obj = { .dm = { .in = dm, .out = &mdm } };

	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM))
		return 0;
	return mdm.remote_va;
}

/* Each SW ICM type through libmlx5: an address in its region. */
MT_TEST_F(mt_ctx, icm_types)
{
	struct ibv_context *ctx = self->ctx;
	unsigned int t, tested = 0;
	int base = mt_fw_count("general", -1);

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
	return tested ? KSFT_PASS : mt_skip("no SW ICM region");
}

/*
 * ENCAP_SW_ICM: libmlx5 44 refuses type 4 itself, so the ioctl newer
 * rdma-core sends is sent here.
 */
MT_TEST_F(mt_ctx, icm_encap)
{
	struct ibv_context *ctx = self->ctx;
	struct raw_dm a, b;
	uint64_t g;

	if (need_icm(DM_ENCAP))
		return KSFT_SKIP;
	g = 1ULL << dmc.log_granule;
	if (CHECK_ERR(raw_dm_alloc(ctx, g, 0, DM_ENCAP, &a), 0)) {
		CHECK_EQ(a.start, dmc.icm_start[DM_ENCAP]);
		if (CHECK_ERR(raw_dm_alloc(ctx, g, 0, DM_ENCAP, &b), 0)) {
			CHECK_EQ(b.start, a.start + g);
			CHECK_EQ(raw_dm_free(ctx, b.handle), 0);
		}
		CHECK_EQ(raw_dm_free(ctx, a.handle), 0);
	}
	return KSFT_PASS;
}

/* Lengths and alignments: rounded as mlx5_ib does, or refused. */
MT_TEST_F(mt_ctx, icm_bad)
{
	struct ibv_context *ctx = self->ctx;
	uint64_t g, start;
	struct raw_dm r;
	uint16_t idx;

	if (need_icm(DM_HDR_MODIFY))
		return KSFT_SKIP;
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
	return KSFT_PASS;
}

/* A region holds what its log size says, then ENOMEM. */
MT_TEST_F(mt_ctx, icm_exhaustion)
{
	struct ibv_context *ctx = self->ctx;
	struct raw_dm all, more;
	uint64_t size;

	if (need_icm(DM_HDR_MODIFY))
		return KSFT_SKIP;
	size = 1ULL << dmc.icm_log[DM_HDR_MODIFY];
	if (CHECK_ERR(raw_dm_alloc(ctx, size, 0, DM_HDR_MODIFY, &all), 0)) {
		CHECK_EQ(all.start, dmc.icm_start[DM_HDR_MODIFY]);
		CHECK_ERR(raw_dm_alloc(ctx, 1ULL << dmc.log_granule, 0,
				       DM_HDR_MODIFY, &more), ENOMEM);
		CHECK_EQ(raw_dm_free(ctx, all.handle), 0);
	}
	return KSFT_PASS;
}

/* ibv_reg_dm_mr() over SW ICM: an mkey of the owner over its range. */
MT_TEST_F(mt_ctx, icm_mr)
{
	struct ibv_context *ctx = self->ctx;
	unsigned int acc = IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE;
	struct ibv_dm *dm = NULL;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	uint64_t g;

	if (need_icm(DM_STEERING))
		return KSFT_SKIP;
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
	return mt_reap(pid);
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
	pid_t pid;

	if (need_icm(DM_ENCAP))
		return KSFT_SKIP;
	CHECK_EQ(devx_sw_icm(false), 0);
	pid = mt_fork();
	if (pid == 0)
		_exit(devx_sw_icm(true));
	CHECK_EQ(mt_reap(pid), 0);
	return KSFT_PASS;
}

static int test_icm_privilege(void)
{
	struct ibv_context *ctx;
	int rc;

	if (need_icm(DM_STEERING))
		return KSFT_SKIP;
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
	MT_CASE_F(icm, icm_types),
	MT_CASE_F(icm, icm_encap),
	MT_CASE_F(icm, icm_bad),
	MT_CASE_F(icm, icm_exhaustion),
	MT_CASE_F(icm, icm_mr),
	MT_CASE(icm_privilege, .flags = MT_NEEDS_ROOT),
	MT_CASE(icm_devx, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
