// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The steering pipeline, judged by the model's classifier (fw/classify):
 * the kernel's chain of priorities on receive and transmit, the
 * classifier's refusals, and steering anchors (mlx5dv_create_steering_
 * anchor(3)): the table they return, which a DEVX table may forward to
 * while a context may not name the kernel's own tables.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"
#include "mlx5x_prm.h"

#define SHARED_UID		PRM_SHARED_RESOURCE_UID
#define TRACE_BYTES		(64 * 1024)

/* Walk mt_tcp80 through the pipeline; the trace into @trace. */
static int walk(const char *dir, char *trace, size_t len)
{
	return mt_classify_bytes(dir, 1, mt_tcp80, MT_TCP80_BYTES, trace, len);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* The id of the first table a trace walks. */
static uint32_t first_table(const char *trace)
{
	const char *t = strstr(trace, "table id=0x");

	return t ? strtoul(t + strlen("table id="), NULL, 16) : 0;
}

static int test_kernel_priority_chain(void)
{
	char *trace = malloc(TRACE_BYTES);

	CHECK(trace);
	if (!trace)
		return KSFT_FAIL;
	/*
	 * receive: each bypass priority behind its don't-trap table, the
	 * multicast table, leftovers, then the port's default
	 */
	CHECK_EQ(walk("rx", trace, TRACE_BYTES), 0);
	CHECK(strstr(trace, "packet dir=rx port=1 len=54\ntable id=0x"));
	CHECK(strstr(trace, "type=rx level=1 uid=0\nmiss table=0x"));
	CHECK(strstr(trace, "type=rx level=34 uid=0\nmiss table=default\nverdict to=default\n"));
	CHECK_EQ(count(trace, "table id="), 34);
	CHECK_EQ(count(trace, "verdict"), 1);
	/* transmit: egress 0..15 behind theirs, then the wire */
	CHECK_EQ(walk("tx", trace, TRACE_BYTES), 0);
	CHECK(strstr(trace, "type=tx level=1 uid=0\n"));
	CHECK(strstr(trace, "type=tx level=32 uid=0\nmiss table=default\nverdict to=wire\n"));
	CHECK_EQ(count(trace, "table id="), 32);
	free(trace);
	return KSFT_PASS;
}

static int test_classifier_refusals(void)
{
	char trace[256];

	CHECK_EQ(mt_classify_bytes("up", 1, mt_tcp80, MT_TCP80_BYTES, trace,
				     sizeof(trace)), -EINVAL);
	CHECK_EQ(mt_classify_bytes("rx", 2, mt_tcp80, MT_TCP80_BYTES, trace,
				     sizeof(trace)), -EINVAL);
	CHECK_EQ(mt_classify("rx", 1, "0a0b", trace, sizeof(trace)), -EINVAL);
	CHECK_EQ(mt_classify("rx", 1, "zz", trace, sizeof(trace)), -EINVAL);
	CHECK_EQ(mt_classify("rx", 1, "020", trace, sizeof(trace)), -EINVAL);
	return KSFT_PASS;
}

/*
 * A DEVX context and a buffer for traces; nothing of the context is left
 * after.  The kernel's own tables that an anchor makes stay: the model's
 * total is not what it was before (as mt_ctx_close() would check).
 */
struct ctx {
	struct ibv_context *ctx;
	int uid;
	char *trace;
};

MT_FIXTURE(ctx);

MT_FIXTURE_SETUP(ctx)
{
	self->ctx = mt_open(MT_OPEN_DEVX, &self->uid);
	if (!CHECK(self->ctx))
		return KSFT_FAIL;
	self->trace = malloc(TRACE_BYTES);
	return CHECK(self->trace) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(ctx)
{
	free(self->trace);
	if (!self->ctx)
		return;
	CHECK_EQ(ibv_close_device(self->ctx), 0);
	if (mt_sim() && self->uid > 0)
		CHECK_EQ(mt_fw_count(NULL, self->uid), 0);
}

MT_TEST_F(ctx, steering_anchor)
{
	struct mlx5dv_devx_obj *ft = NULL, *fg = NULL, *fte = NULL, *bad;
	struct mlx5dv_steering_anchor *a, *b;
	uint32_t ft_id = 0, fg_id = 0, out[4];
	struct ibv_context *ctx = self->ctx;
	char *trace = self->trace;

	a = mt_anchor(ctx, MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 3);
	CHECK(a);
	b = mt_anchor(ctx, MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 3);
	CHECK(b);
	if (!a || !b)
		goto out;
	CHECK_EQ(a->id, b->id);
	CHECK(mt_fw_check_owner("flow_table", a->id, SHARED_UID));
	/* ranges: priorities 0-15; no FDB or RDMA tables on this device */
	CHECK(!mt_anchor(ctx, MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 16));
	CHECK_ERR(errno, EINVAL);
	CHECK(!mt_anchor(ctx, MLX5DV_FLOW_TABLE_TYPE_NIC_TX, 0xffff));
	CHECK_ERR(errno, EINVAL);
	CHECK(!mt_anchor(ctx, MLX5DV_FLOW_TABLE_TYPE_FDB, 0));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!mt_anchor(ctx, 9, 0));
	CHECK_ERR(errno, EINVAL);

	/* a DEVX entry may forward to the anchor, not to the kernel's table */
	if (!mt_devx_rx_table(ctx, &ft, &ft_id, &fg, &fg_id))
		goto out;
	fte = mt_devx_fwd(ctx, ft_id, fg_id, 0, 80, a->id, NULL);
	CHECK(fte);
	CHECK_EQ(walk("rx", trace, TRACE_BYTES), 0);
	bad = mt_devx_fwd(ctx, ft_id, fg_id, 1, 81, first_table(trace), out);
	mt_devx_refused(bad, out, MT_STAT_BAD_RESOURCE, SYND_NOT_OWNER,
			"an entry to the kernel's table");

	CHECK_ERR(mlx5dv_destroy_steering_anchor(b), 0);
	b = NULL;
	CHECK_ERR(mlx5dv_destroy_steering_anchor(a), 0);
	a = NULL;
out:
	if (fte)
		CHECK_ERR(mlx5dv_devx_obj_destroy(fte), 0);
	if (fg)
		CHECK_ERR(mlx5dv_devx_obj_destroy(fg), 0);
	if (ft)
		CHECK_ERR(mlx5dv_devx_obj_destroy(ft), 0);
	if (b)
		mlx5dv_destroy_steering_anchor(b);
	if (a)
		mlx5dv_destroy_steering_anchor(a);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(kernel_priority_chain, .flags = MT_NEEDS_MODEL),
	MT_CASE(classifier_refusals, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(ctx, steering_anchor, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
