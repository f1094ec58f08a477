// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Removing a device under a live context (`rdma link delete`): the
 * context is disassociated, ibv_get_async_event(3) delivers
 * IBV_EVENT_DEVICE_FATAL, new verbs fail with EIO, the mapped UAR stays
 * safe to touch, destroying and closing still work (unmapping too, with
 * no kernel warning, also for mappings left untouched since the removal;
 * a MEMIC operation window, which traps every access, too),
 * and the firmware model had nothing left when it went.  Then the device
 * is added back and works again.
 *
 * As ibv_open_device(3) says, RDMAV_ALLOW_DISASSOC_DESTROY makes
 * libibverbs take the EIO of a destroy after disassociation as success;
 * this program sets it.  Needs MLX5X_NETDEV to add the device back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"

#define FATAL_TIMEOUT_MS	10000
#define LEAK_MESSAGE		"mlx5x_sim: LEAK"
#define WARN_MESSAGE		"WARNING:"
#define MEMIC_BYTES		64

static struct ibv_context *ctx;
static struct ibv_pd *pd;
/* touched after the removal; and two mappings that are not */
static struct mlx5dv_devx_uar *uar, *quiet_uar;
static struct ibv_dm *quiet_dm;
/* its operation windows: increment (touched after), test-and-set (not) */
static uint8_t *dm_inc, *dm_tas;
static bool removed;
static int warnings = -1;	/* the kernel's warnings before the removal */

/* How many lines of the kernel log hold @message. */
static int klog_count(const char *message)
{
	char line[256];
	FILE *f;
	int n = 0;

	fflush(stdout);
	f = popen("dmesg 2>/dev/null", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, message))
			n++;
	if (pclose(f))
		return -1;
	return n;
}

static int test_setup(void)
{
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	pd = ibv_alloc_pd(ctx);
	CHECK(pd);
	uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (CHECK(uar))
		CHECK(mt_try_write64(uar->reg_addr, 1));
	quiet_uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (CHECK(quiet_uar))
		CHECK(mt_try_write64(quiet_uar->reg_addr, 1));
	/* MEMIC: ibv_alloc_dm(3) maps it */
	quiet_dm = ibv_alloc_dm(ctx, &(struct ibv_alloc_dm_attr){
					.length = MEMIC_BYTES });
	if (CHECK(quiet_dm))
		CHECK_EQ(ibv_memcpy_to_dm(quiet_dm, 0, "mlx5x-dm", 8), 0);
	if (quiet_dm) {
		uint32_t word = 0;

		/* where the device performs them (mlx5x_dm_ops) */
		dm_inc = mlx5dv_dm_map_op_addr(quiet_dm, 0);
		dm_tas = mlx5dv_dm_map_op_addr(quiet_dm, 1);
		if (dm_inc) {
			dm_inc[8] = 5;
			CHECK_EQ(ibv_memcpy_from_dm(&word, quiet_dm, 8, 4),
				 0);
			CHECK_EQ(word & 0xff, 5);
		}
	}
	return KSFT_PASS;
}

static int test_link_delete(void)
{
	char path[128];
	int leaks;

	if (!ctx)
		return mt_skip("no context");
	leaks = klog_count(LEAK_MESSAGE);
	warnings = klog_count(WARN_MESSAGE);
	if (!CHECK_EQ(mt_sh("rdma link delete %s", mt.dev_name), 0))
		return KSFT_FAIL;
	removed = true;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s", mt.dev_name);
	CHECK(access(path, F_OK) && errno == ENOENT);
	/* the device is gone from the device list */
	CHECK(mt_refresh_device());
	/* and the model had no objects left when it was destroyed */
	if (leaks >= 0)
		CHECK_EQ(klog_count(LEAK_MESSAGE), leaks);
	return KSFT_PASS;
}

static int test_device_fatal_event(void)
{
	if (!removed)
		return mt_skip("device not removed");
	CHECK_ERR(mt_wait_event(ctx, IBV_EVENT_DEVICE_FATAL, FATAL_TIMEOUT_MS,
				NULL), 0);
	return KSFT_PASS;
}

static int test_verbs_fail_after_removal(void)
{
	struct ibv_device_attr attr;
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_BYTES];
	struct ibv_pd *pd2;

	if (!removed)
		return mt_skip("device not removed");
	errno = 0;
	pd2 = ibv_alloc_pd(ctx);
	CHECK_ERR(pd2 ? 0 : errno, EIO);
	CHECK_ERR(ibv_query_device(ctx, &attr), EIO);
	CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1), out),
		  EIO);
	return KSFT_PASS;
}

/* The UAR mapping is zapped, not left pointing at freed memory. */
static int test_uar_mapping_after_removal(void)
{
	if (!removed || !uar)
		return mt_skip("no UAR, or device not removed");
	CHECK(mt_try_write64(uar->reg_addr, 2));
	/*
	 * The operation window has the core's page of zeroes now, or is
	 * refused; either way the process lives and the device is not
	 * reached.
	 */
	if (dm_inc)
		mt_try_write64((void *)(dm_inc + 8), 1);
	return KSFT_PASS;
}

/*
 * Unmapping what the removal zapped: the UAR touched since and the two
 * mappings that were not, with no kernel warning.  (x86 PAT warns when
 * it untracks a mapping whose page table entry is gone: the zap must
 * have untracked it first.)
 */
static int test_teardown_after_removal(void)
{
	if (!ctx)
		return mt_skip("no context");
	if (uar)
		mlx5dv_devx_free_uar(uar);
	uar = NULL;
	if (quiet_uar)
		mlx5dv_devx_free_uar(quiet_uar);
	quiet_uar = NULL;
	if (quiet_dm)
		CHECK_ERR(ibv_free_dm(quiet_dm), 0);
	quiet_dm = NULL;
	if (dm_inc)
		CHECK_EQ(munmap((void *)((uintptr_t)dm_inc & ~4095UL),
				 MEMIC_BYTES), 0);
	if (dm_tas)
		CHECK_EQ(munmap((void *)((uintptr_t)dm_tas & ~4095UL),
				 MEMIC_BYTES), 0);
	dm_inc = dm_tas = NULL;
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	pd = NULL;
	CHECK_EQ(ibv_close_device(ctx), 0);
	ctx = NULL;
	if (warnings >= 0)
		CHECK_EQ(klog_count(WARN_MESSAGE), warnings);
	return KSFT_PASS;
}

static int test_link_add_again(void)
{
	struct ibv_context *c;
	struct ibv_pd *p;
	int base;

	if (!removed)
		return mt_skip("device not removed");
	if (!CHECK_EQ(mt_sh("rdma link add %s type mlx5x netdev %s",
			    mt.dev_name, mt.netdev), 0))
		return KSFT_FAIL;
	removed = false;
	if (!CHECK_EQ(mt_refresh_device(), 0))
		return KSFT_FAIL;
	base = mt_fw_total();
	c = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(c))
		return KSFT_FAIL;
	p = ibv_alloc_pd(c);
	if (CHECK(p))
		CHECK_ERR(ibv_dealloc_pd(p), 0);
	CHECK_EQ(ibv_close_device(c), 0);
	if (mt_sim()) {
		CHECK_EQ(mt_fw_total(), base);
		/*
		 * A new device holds only what the kernel itself created:
		 * of PDs, UARs and TDs, the MAD layer's PD and the UMR QP's
		 * (umr.c), and the UAR of the kernel's queues (kverbs.c).
		 */
		if (!CHECK_EQ(mt_fw_count(NULL, 0), base))
			mt_fw_dump();
		CHECK_EQ(mt_fw_count("pd", -1), 2);
		CHECK_EQ(mt_fw_count("qp", -1), 2);
		CHECK_EQ(mt_fw_count("uar", -1), 1);
		CHECK_EQ(mt_fw_count("td", -1), 0);
	}
	return KSFT_PASS;
}

/* Removal with no context open, and with a context that has nothing. */
static int test_remove_idle_and_empty(void)
{
	struct ibv_context *c;

	if (removed)
		return mt_skip("device not present");
	c = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(c))
		return KSFT_FAIL;
	if (!CHECK_EQ(mt_sh("rdma link delete %s", mt.dev_name), 0))
		goto out;
	CHECK_ERR(mt_wait_event(c, IBV_EVENT_DEVICE_FATAL, FATAL_TIMEOUT_MS,
				NULL), 0);
	CHECK_EQ(ibv_close_device(c), 0);
	c = NULL;
	CHECK_EQ(mt_sh("rdma link add %s type mlx5x netdev %s", mt.dev_name,
		       mt.netdev), 0);
	CHECK_EQ(mt_sh("rdma link delete %s", mt.dev_name), 0);
	CHECK_EQ(mt_sh("rdma link add %s type mlx5x netdev %s", mt.dev_name,
		       mt.netdev), 0);
	CHECK_EQ(mt_refresh_device(), 0);
out:
	if (c)
		ibv_close_device(c);
	return KSFT_PASS;
}

/*
 * Only a simulated device is removed (rdma link delete), and adding it
 * back names its netdev.
 */
static const struct mt_case cases[] = {
	MT_CASE(setup, .flags = MT_NEEDS_MODEL | MT_NEEDS_NETDEV),
	MT_CASE(link_delete),
	MT_CASE(device_fatal_event),
	MT_CASE(verbs_fail_after_removal),
	MT_CASE(uar_mapping_after_removal),
	MT_CASE(teardown_after_removal),
	MT_CASE(link_add_again),
	MT_CASE(remove_idle_and_empty,
		.flags = MT_NEEDS_MODEL | MT_NEEDS_NETDEV),
};

int main(void)
{
	/* read by libibverbs when it initialises: before any verb */
	setenv("RDMAV_ALLOW_DISASSOC_DESTROY", "1", 1);
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
