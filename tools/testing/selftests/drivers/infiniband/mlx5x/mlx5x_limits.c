// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Per-context limits (Documentation/reliability.rst, "Bounds"): DEVX
 * objects, UMEMs, UAR allocations, device memory allocations and
 * steering objects (flow matchers, flow actions and steering anchors,
 * counted together), each a module parameter.  For each, with the limit
 * lowered: one below it works, the limit reached gives ENOSPC, freeing
 * one lets the next succeed, and another context is not counted against
 * this one.  The fixed limits (async command bytes, event queue,
 * subscriptions) are tested by mlx5x_devx_obj and mlx5x_devx_events.
 * Every case sets a module parameter, which needs root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <infiniband/mlx5dv.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x_test.h"
#include "mlx5x_prm.h"

#define STEERING	"max_steering_objs"
#define MAX_TRIES	64
#define LIMIT		8

/* One kind of resource: allocate into slot @i, free slot @i. */
struct kind {
	const char *param;
	int (*alloc)(struct ibv_context *ctx, void **slot);
	void (*free)(struct ibv_context *ctx, void *slot);
};

static int devx_pd_alloc(struct ibv_context *ctx, void **slot)
{
	uint32_t in[4] = {}, out[4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_ALLOC_PD);
	*slot = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	return *slot ? 0 : errno;
}

static void devx_free(struct ibv_context *ctx, void *slot)
{
	(void)ctx;
	CHECK_ERR(mlx5dv_devx_obj_destroy(slot), 0);
}

/* Every UMEM over the same page: each registration is its own. */
static int umem_alloc(struct ibv_context *ctx, void **slot)
{
	static void *buf;

	*slot = NULL;
	errno = 0;
	if (!buf && posix_memalign(&buf, 4096, 4096))
		return -1;
	*slot = mlx5dv_devx_umem_reg(ctx, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	return *slot ? 0 : errno;
}

static void umem_free(struct ibv_context *ctx, void *slot)
{
	(void)ctx;
	CHECK_ERR(mlx5dv_devx_umem_dereg(slot), 0);
}

/*
 * MLX5_IB_METHOD_UAR_OBJ_ALLOC itself: libmlx5's mlx5dv_devx_alloc_uar()
 * shares UAR pages between its allocations.  The slot holds handle + 1.
 */
static int uar_alloc(struct ibv_context *ctx, void **slot)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[5];
	} cmd = {};
	struct ib_uverbs_attr *a = cmd.attrs;
	uint64_t off = 0;
	uint32_t len = 0, page = 0;

	*slot = NULL;
	cmd.hdr.length = sizeof(cmd);
	cmd.hdr.object_id = MLX5_IB_OBJECT_UAR;
	cmd.hdr.method_id = MLX5_IB_METHOD_UAR_OBJ_ALLOC;
	cmd.hdr.num_attrs = MT_ARRAY_SIZE(cmd.attrs);
	cmd.hdr.driver_id = RDMA_DRIVER_MLX5;
	a[0].attr_id = MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE;
	a[0].flags = UVERBS_ATTR_F_MANDATORY;
	a[1].attr_id = MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE;
	a[1].len = sizeof(uint64_t);
	a[1].data = MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC;
	a[1].flags = UVERBS_ATTR_F_MANDATORY;
	a[2].attr_id = MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID;
	a[2].len = sizeof(page);
	a[2].data = (uintptr_t)&page;
	a[3].attr_id = MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH;
	a[3].len = sizeof(len);
	a[3].data = (uintptr_t)&len;
	a[4].attr_id = MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET;
	a[4].len = sizeof(off);
	a[4].data = (uintptr_t)&off;
	if (ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &cmd))
		return errno;
	*slot = (void *)(uintptr_t)(a[0].data + 1);
	return 0;
}

static void uar_free(struct ibv_context *ctx, void *slot)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[1];
	} cmd = {};

	cmd.hdr.length = sizeof(cmd);
	cmd.hdr.object_id = MLX5_IB_OBJECT_UAR;
	cmd.hdr.method_id = MLX5_IB_METHOD_UAR_OBJ_DESTROY;
	cmd.hdr.num_attrs = 1;
	cmd.hdr.driver_id = RDMA_DRIVER_MLX5;
	cmd.attrs[0].attr_id = MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE;
	cmd.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	cmd.attrs[0].data = (uintptr_t)slot - 1;
	CHECK_ERR(ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &cmd) ? errno : 0, 0);
}

static int dm_alloc(struct ibv_context *ctx, void **slot)
{
	struct ibv_alloc_dm_attr attr = { .length = 64 };

	*slot = ibv_alloc_dm(ctx, &attr);
	return *slot ? 0 : errno;
}

static void dm_free(struct ibv_context *ctx, void *slot)
{
	(void)ctx;
	CHECK_ERR(ibv_free_dm(slot), 0);
}

/* A NIC RX matcher on the outer TCP destination port. */
static int matcher_alloc(struct ibv_context *ctx, void **slot)
{
	struct {
		struct mlx5dv_flow_match_parameters p;
		uint8_t buf[PRM_FTE_MATCH_PARAM_BYTES];
	} mask = { .p.match_sz = PRM_FTE_MATCH_PARAM_BYTES };
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.match_criteria_enable = 1,
		.match_mask = &mask.p,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};

	mt_set(mask.buf, PRM_FTE_MATCH_PARAM_OUTER_HEADERS_TCP_DPORT, 0xffff);
	errno = 0;
	*slot = mlx5dv_create_flow_matcher(ctx, &attr);
	return *slot ? 0 : errno;
}

static void matcher_free(struct ibv_context *ctx, void *slot)
{
	(void)ctx;
	CHECK_ERR(mlx5dv_destroy_flow_matcher(slot), 0);
}

/* A modify-header action of NIC RX: set the TCP destination port to 7. */
static int action_alloc(struct ibv_context *ctx, void **slot)
{
	uint64_t act = 0;

	mt_set(&act, PRM_SET_ACTION_IN_ACTION_TYPE, 1);		/* SET */
	mt_set(&act, PRM_SET_ACTION_IN_FIELD, 0x9);	/* OUT_TCP_DPORT */
	mt_set(&act, PRM_SET_ACTION_IN_LENGTH, 16);
	mt_set(&act, PRM_SET_ACTION_IN_DATA, 7);
	errno = 0;
	*slot = mlx5dv_create_flow_action_modify_header(ctx, sizeof(act),
			&act, MLX5DV_FLOW_TABLE_TYPE_NIC_RX);
	return *slot ? 0 : errno;
}

static void action_free(struct ibv_context *ctx, void *slot)
{
	(void)ctx;
	CHECK_ERR(ibv_destroy_flow_action(slot), 0);
}

static int anchor_alloc(struct ibv_context *ctx, void **slot)
{
	struct mlx5dv_steering_anchor_attr attr = {
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};

	errno = 0;
	*slot = mlx5dv_create_steering_anchor(ctx, &attr);
	return *slot ? 0 : errno;
}

static void anchor_free(struct ibv_context *ctx, void *slot)
{
	(void)ctx;
	CHECK_ERR(mlx5dv_destroy_steering_anchor(slot), 0);
}

/*
 * A DEVX context.  Not mt_devx_ctx_fixture: the kernel's own tables that
 * a steering anchor makes stay after the context, so the model's total
 * is not what it was before.
 */
struct devx {
	struct ibv_context *ctx;
};

MT_FIXTURE(devx);

MT_FIXTURE_SETUP(devx)
{
	self->ctx = mt_open(MT_OPEN_DEVX, NULL);
	return CHECK(self->ctx) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(devx)
{
	if (self->ctx)
		CHECK_EQ(ibv_close_device(self->ctx), 0);
}

/* Two DEVX contexts: the one a limit is reached on, and another. */
struct devx_pair {
	struct ibv_context *ctx, *ctx2;
};

MT_FIXTURE(devx_pair);

MT_FIXTURE_SETUP(devx_pair)
{
	self->ctx = mt_open(MT_OPEN_DEVX, NULL);
	self->ctx2 = mt_open(MT_OPEN_DEVX, NULL);
	return CHECK(self->ctx) && CHECK(self->ctx2) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(devx_pair)
{
	if (self->ctx2)
		CHECK_EQ(ibv_close_device(self->ctx2), 0);
	if (self->ctx)
		CHECK_EQ(ibv_close_device(self->ctx), 0);
}

/*
 * With the limit at LIMIT: allocate until refused; the refusal is
 * ENOSPC at the limit (@exact: nothing of the kind was there before),
 * another context still allocates, freeing one lets one more in.
 */
static int at_limit(struct devx_pair *p, const struct kind *k, bool exact)
{
	struct ibv_context *ctx = p->ctx, *ctx2 = p->ctx2;
	void *slot[MAX_TRIES] = {}, *other;
	int n = 0, err = 0;
	long saved;

	if (mt_param_get(k->param, &saved))
		return mt_skip("no module parameter %s", k->param);
	if (!CHECK_ERR(mt_param_set(k->param, LIMIT), 0))
		goto out;
	while (n < MAX_TRIES && !(err = k->alloc(ctx, &slot[n])))
		n++;
	mt_diag("%s %d: %d allocated, then %s", k->param, LIMIT, n,
		strerror(err));
	if (n == 0 && err == EOPNOTSUPP) {
		mt_param_set(k->param, saved);
		return mt_skip("the device has none");
	}
	CHECK_ERR(err, ENOSPC);
	CHECK(n > 0 && n <= LIMIT);
	if (exact)
		CHECK_EQ(n, LIMIT);
	/* another context has its own count */
	if (CHECK_ERR(k->alloc(ctx2, &other), 0))
		k->free(ctx2, other);
	/* free one: the next one goes in, and the one after is refused */
	if (n > 0) {
		k->free(ctx, slot[--n]);
		if (CHECK_ERR(k->alloc(ctx, &slot[n]), 0))
			n++;
		if (!CHECK_ERR(k->alloc(ctx, &other), ENOSPC) && other)
			k->free(ctx, other);
	}
	/* a higher limit lets one more in */
	if (CHECK_ERR(mt_param_set(k->param, LIMIT + 1), 0) &&
	    CHECK_ERR(k->alloc(ctx, &slot[n]), 0))
		n++;
	while (n > 0)
		k->free(ctx, slot[--n]);
out:
	CHECK_ERR(mt_param_set(k->param, saved), 0);
	return KSFT_PASS;
}

static const struct kind devx_objs = {
	"max_devx_objs", devx_pd_alloc, devx_free,
};
static const struct kind umems = { "max_umems", umem_alloc, umem_free };
static const struct kind uars = { "max_uars", uar_alloc, uar_free };
static const struct kind dms = { "max_dm", dm_alloc, dm_free };
static const struct kind matchers = { STEERING, matcher_alloc, matcher_free };
static const struct kind actions = { STEERING, action_alloc, action_free };
static const struct kind anchors = { STEERING, anchor_alloc, anchor_free };

MT_TEST_F(devx_pair, devx_objects_limit)
{
	return at_limit(self, &devx_objs, true);
}

MT_TEST_F(devx_pair, umems_limit)
{
	return at_limit(self, &umems, true);
}

/* libmlx5 may allocate UARs of its own when the context opens */
MT_TEST_F(devx_pair, uars_limit)
{
	return at_limit(self, &uars, false);
}

MT_TEST_F(devx_pair, dm_limit)
{
	return at_limit(self, &dms, true);
}

MT_TEST_F(devx_pair, flow_matchers_limit)
{
	return at_limit(self, &matchers, true);
}

MT_TEST_F(devx_pair, flow_actions_limit)
{
	return at_limit(self, &actions, true);
}

MT_TEST_F(devx_pair, steering_anchors_limit)
{
	return at_limit(self, &anchors, true);
}

/* Matchers, actions and anchors share one count. */
MT_TEST_F(devx, steering_objects_share_the_limit)
{
	static const struct kind *const k[] = { &matchers, &actions, &anchors };
	struct ibv_context *ctx = self->ctx;
	void *slot[LIMIT + 1] = {};
	int i, n;
	long saved;

	if (mt_param_get(STEERING, &saved))
		return mt_skip("no module parameter " STEERING);
	if (!CHECK_ERR(mt_param_set(STEERING, LIMIT), 0))
		goto out;
	for (n = 0; n < LIMIT; n++)
		if (!CHECK_ERR(k[n % 3]->alloc(ctx, &slot[n]), 0))
			break;
	for (i = 0; i < 3 && n == LIMIT; i++)
		CHECK_ERR(k[i]->alloc(ctx, &slot[LIMIT]), ENOSPC);
	while (n > 0) {
		n--;
		k[n % 3]->free(ctx, slot[n]);
	}
out:
	CHECK_ERR(mt_param_set(STEERING, saved), 0);
	return KSFT_PASS;
}

/*
 * A context closed at its limit gives everything back: a new one starts
 * from zero.
 */
static int test_close_at_limit_frees_the_count(void)
{
	void *slot[LIMIT];
	struct ibv_context *ctx;
	long saved;
	int i, n = 0, round;

	if (mt_param_get("max_devx_objs", &saved))
		return mt_skip("no module parameter max_devx_objs");
	if (!CHECK_ERR(mt_param_set("max_devx_objs", LIMIT), 0))
		return KSFT_FAIL;
	for (round = 0; round < 2; round++) {
		ctx = mt_open(MT_OPEN_DEVX, NULL);
		if (!CHECK(ctx))
			break;
		for (i = 0, n = 0; i < LIMIT; i++)
			n += !devx_pd_alloc(ctx, &slot[i]);
		CHECK_EQ(n, LIMIT);
		CHECK_ERR(devx_pd_alloc(ctx, &slot[0]), ENOSPC);
		CHECK_EQ(ibv_close_device(ctx), 0);
	}
	CHECK_ERR(mt_param_set("max_devx_objs", saved), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(devx_pair, devx_objects_limit, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(devx_pair, umems_limit, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(devx_pair, uars_limit, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(devx_pair, dm_limit, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(devx_pair, flow_matchers_limit, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(devx_pair, flow_actions_limit, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(devx_pair, steering_anchors_limit, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(devx, steering_objects_share_the_limit,
		  .flags = MT_NEEDS_ROOT),
	MT_CASE(close_at_limit_frees_the_count, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
