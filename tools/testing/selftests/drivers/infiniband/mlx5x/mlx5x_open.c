// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Opening and closing device contexts: ibv_open_device(3),
 * mlx5dv_open_device(3) with and without DEVX, the identity the device
 * reports, and that every context's firmware objects (its DEVX user
 * context, its transport domain) go away with it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"

#define MLX5X_VENDOR_ID		0x02c9	/* Mellanox, IEEE OUI */
#define MLX5X_PART_CX6DX	0x101d	/* ConnectX-6 Dx */
#define MANY_AT_ONCE		64
#define MANY_IN_TURN		200
/*
 * Under the fault sweep: each open is some 90 allocations, the same in
 * every turn, and a point costs the loop up to it.  (The model's tables
 * growing past a node are swept by mlx5x_pd's many_pds.)
 */
#define SWEPT_AT_ONCE		4
#define SWEPT_IN_TURN		4

MT_TEST_F(mt_ctx, ibv_open_device)
{
	struct ibv_device_attr attr = {};

	CHECK_ERR(ibv_query_device(self->ctx, &attr), 0);
	CHECK_EQ(attr.vendor_id, MLX5X_VENDOR_ID);
	if (mt_sim())
		CHECK_EQ(attr.vendor_part_id, MLX5X_PART_CX6DX);
	CHECK_EQ(attr.phys_port_cnt, 1);
	CHECK(attr.node_guid != 0);
	CHECK(attr.fw_ver[0] != '\0');
	mt_diag("fw_ver %s part %#x node_guid %#llx", attr.fw_ver,
		attr.vendor_part_id,
		(unsigned long long)be64toh(attr.node_guid));
	return KSFT_PASS;
}

static int test_mlx5dv_is_supported(void)
{
	CHECK(mlx5dv_is_supported(mt.dev));
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, mlx5dv_query_device)
{
	struct mlx5dv_context dv = {};

	CHECK_ERR(mlx5dv_query_device(self->ctx, &dv), 0);
	/* the device reports cqe_version 1, and libmlx5 asks for it */
	CHECK(dv.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1);
	mt_diag("version %u flags %#llx", dv.version,
		(unsigned long long)dv.flags);
	return KSFT_PASS;
}

/*
 * A DEVX context is a firmware user context: a "uctx" object created by
 * the kernel (uid column 0) whose id is the context's uid, and the
 * transport domain the context owns.  Both go when the context closes.
 */
static int check_devx_context(enum mt_open_mode mode)
{
	struct mt_objs before, during = {}, after = {};
	struct mt_obj added[4];
	struct ibv_context *ctx;
	unsigned int n;

	if (!CHECK_EQ(mt_fw_read(&before), 0))
		return KSFT_FAIL;
	ctx = mt_open(mode, NULL);
	if (!CHECK(ctx))
		goto out;
	CHECK_EQ(mt_fw_read(&during), 0);
	n = mt_fw_added(&before, &during, "uctx", added, MT_ARRAY_SIZE(added));
	if (CHECK_EQ(n, 1)) {
		uint32_t uid = added[0].id;

		CHECK_EQ(added[0].uid, 0);
		CHECK(uid != 0);
		n = mt_fw_added(&before, &during, "td", added,
				MT_ARRAY_SIZE(added));
		CHECK_EQ(n, 1);
		if (n == 1)
			CHECK_EQ(added[0].uid, uid);
	}
	CHECK_EQ(ibv_close_device(ctx), 0);
	CHECK_EQ(mt_fw_read(&after), 0);
	CHECK_EQ(mt_fw_added(&before, &after, NULL, NULL, 0), 0);
	CHECK_EQ(after.n, before.n);
out:
	mt_fw_free(&before);
	mt_fw_free(&during);
	mt_fw_free(&after);
	return KSFT_PASS;
}

static int test_devx_context_owns_uctx(void)
{
	return check_devx_context(MT_OPEN_DEVX);
}

/* libmlx5 asks for DEVX on every context it can. */
static int test_default_context_is_devx(void)
{
	return check_devx_context(MT_OPEN_DEFAULT);
}

/*
 * Asked for explicitly, DEVX is not optional: when firmware refuses
 * CREATE_UCTX the open fails with the errno INTERNAL_ERR maps to (EIO)
 * and leaves nothing behind.
 */
static int test_devx_open_fails_cleanly(void)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *ctx;
	int base = mt_fw_total();

	if (!CHECK_EQ(mt_fw_fail_opcode(PRM_OP_CREATE_UCTX), 0))
		return KSFT_FAIL;
	errno = 0;
	ctx = mlx5dv_open_device(mt.dev, &attr);
	CHECK_ERR(ctx ? 0 : errno, EIO);
	mt_fw_fail_opcode(-1);
	if (ctx)
		ibv_close_device(ctx);
	CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

/*
 * The transport domain is created after the user context: when it fails
 * the user context must be destroyed again, and every retry libmlx5 makes
 * (shorter requests, then no DEVX) fails the same way.
 */
static int test_open_td_failure_unwinds(void)
{
	long long failed = mt_fw_stat("failed");
	int base = mt_fw_total();
	struct ibv_context *ctx;

	if (!CHECK_EQ(mt_fw_fail_opcode(PRM_OP_ALLOC_TRANSPORT_DOMAIN), 0))
		return KSFT_FAIL;
	errno = 0;
	ctx = ibv_open_device(mt.dev);
	CHECK_ERR(ctx ? 0 : errno, EIO);
	mt_fw_fail_opcode(-1);
	if (ctx)
		ibv_close_device(ctx);
	CHECK(mt_fw_stat("failed") > failed);
	if (!CHECK_EQ(mt_fw_total(), base))
		mt_fw_dump();
	return KSFT_PASS;
}

static void query_adapter(struct ibv_context *ctx, int *err, uint32_t *vendor)
{
	uint8_t in[PRM_QUERY_ADAPTER_IN_BYTES] = {};
	uint8_t out[PRM_ADAPTER_OUT_BYTES] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_ADAPTER);
	*err = mt_devx(ctx, in, sizeof(in), out, sizeof(out));
	*vendor = mt_get(out,
			 PRM_ADAPTER_OUT_QUERY_ADAPTER_STRUCT_IEEE_VENDOR_ID);
}

/*
 * Without DEVX a context may run only the capability queries the kernel
 * allows everyone; QUERY_ADAPTER is not one of them.
 */
MT_TEST_F(mt_ctx, no_devx_whitelist)
{
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_BYTES];
	struct ibv_context *ctx = self->ctx;
	uint32_t vendor;
	int err;

	CHECK_EQ(self->uid, 0);
	/* its transport domain belongs to the kernel */
	CHECK_EQ(mt_fw_count("td", 0), 1);

	query_adapter(ctx, &err, &vendor);
	CHECK_ERR(err, EINVAL);
	CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1), out),
		  0);
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
	CHECK_EQ(mt_get(mt_cap_page(out), PRM_CMD_HCA_CAP_PORT_TYPE), 1);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, devx_query_adapter)
{
	uint32_t vendor;
	int err;

	query_adapter(self->ctx, &err, &vendor);
	CHECK_ERR(err, 0);
	CHECK_EQ(vendor, MLX5X_VENDOR_ID);
	return KSFT_PASS;
}

/*
 * A context imported from a dup of another's command FD (the kernel's
 * QUERY_CONTEXT) is the same context: same attributes, same DEVX user
 * context; closing the import leaves the original working.
 */
MT_TEST_F(mt_ctx, import_device)
{
	struct mlx5dv_context dv1 = {}, dv2 = {};
	struct ibv_device_attr a1 = {}, a2 = {};
	struct ibv_context *ctx = self->ctx, *imp;
	int uctx = mt_fw_count("uctx", -1);
	int td = mt_fw_count("td", -1);
	uint32_t vendor;
	int fd, err;

	fd = dup(ctx->cmd_fd);
	if (!CHECK(fd >= 0))
		return KSFT_FAIL;
	imp = ibv_import_device(fd);
	if (!CHECK(imp)) {
		mt_diag("ibv_import_device: %s", strerror(errno));
		close(fd);
		return KSFT_FAIL;
	}
	/* the same context: no new user context, no new transport domain */
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count("uctx", -1), uctx);
		CHECK_EQ(mt_fw_count("td", -1), td);
	}
	CHECK_ERR(ibv_query_device(ctx, &a1), 0);
	CHECK_ERR(ibv_query_device(imp, &a2), 0);
	CHECK_EQ(a2.vendor_part_id, a1.vendor_part_id);
	CHECK_EQ(a2.max_qp, a1.max_qp);
	CHECK_ERR(mlx5dv_query_device(ctx, &dv1), 0);
	CHECK_ERR(mlx5dv_query_device(imp, &dv2), 0);
	CHECK_EQ(dv2.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1,
		 dv1.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1);
	/* DEVX through the import: the original's user context */
	query_adapter(imp, &err, &vendor);
	CHECK_ERR(err, 0);
	CHECK_EQ(vendor, MLX5X_VENDOR_ID);
	CHECK_EQ(ibv_close_device(imp), 0);
	query_adapter(ctx, &err, &vendor);
	CHECK_ERR(err, 0);
	return KSFT_PASS;
}

/*
 * Many contexts at once get distinct uids; many in turn leak nothing;
 * and the model's live-object count agrees with its table.
 */
static int test_many_contexts(void)
{
	unsigned int at_once = mt_loop_size(MANY_AT_ONCE, SWEPT_AT_ONCE);
	unsigned int in_turn = mt_loop_size(MANY_IN_TURN, SWEPT_IN_TURN);
	struct ibv_context *ctx[MANY_AT_ONCE] = {};
	int uid[MANY_AT_ONCE];
	int base = mt_fw_total();
	int base_uctx = mt_fw_count("uctx", 0);
	unsigned int i, j;
	int opened = 0;

	for (i = 0; i < at_once; i++) {
		ctx[i] = mt_open(MT_OPEN_DEFAULT, &uid[i]);
		if (!CHECK(ctx[i]))
			break;
		opened++;
	}
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count("uctx", 0), base_uctx + opened);
		for (i = 0; i < (unsigned int)opened; i++) {
			CHECK(uid[i] > 0);
			for (j = 0; j < i; j++)
				if (!CHECK(uid[i] != uid[j]))
					break;
		}
	}
	for (i = 0; i < (unsigned int)opened; i++)
		CHECK_EQ(ibv_close_device(ctx[i]), 0);

	for (i = 0; i < in_turn; i++) {
		struct ibv_context *c = ibv_open_device(mt.dev);

		if (!CHECK(c))
			break;
		if (!CHECK_EQ(ibv_close_device(c), 0))
			break;
	}
	if (mt_sim()) {
		CHECK_EQ(mt_fw_total(), base);
		CHECK_EQ(mt_fw_stat("objects"), base);
	}
	return KSFT_PASS;
}

/*
 * The model's fault-injection knobs read back what was written, and
 * fail_opcode takes -1 to disarm, as its documentation says.
 */
static int test_fault_knobs(void)
{
	char buf[32];

	CHECK_EQ(mt_fw_write("fail_next", "3"), 0);
	CHECK(!mt_fw_knob("fail_next", buf, sizeof(buf)) && !strcmp(buf, "3"));
	CHECK_EQ(mt_fw_write("fail_next", "0"), 0);
	CHECK(!mt_fw_knob("fail_next", buf, sizeof(buf)) && !strcmp(buf, "0"));
	CHECK_EQ(mt_fw_write("fail_opcode", "2050"), 0);
	CHECK(!mt_fw_knob("fail_opcode", buf, sizeof(buf)) &&
	      !strcmp(buf, "2050"));
	CHECK_ERR(-mt_fw_write("fail_opcode", "-1"), 0);
	if (!CHECK(!mt_fw_knob("fail_opcode", buf, sizeof(buf)) &&
		   !strcmp(buf, "-1")))
		mt_diag("fail_opcode reads \"%s\"", buf);
	/* out of range: not an opcode, nor -1 */
	CHECK_ERR(-mt_fw_write("fail_opcode", "65536"), EINVAL);
	CHECK_ERR(-mt_fw_write("fail_opcode", "-2"), EINVAL);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(fault_knobs, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_ctx_fixture, ibv_open_device),
	MT_CASE(mlx5dv_is_supported),
	MT_CASE_ON(mt_devx_ctx_fixture, mlx5dv_query_device),
	MT_CASE(devx_context_owns_uctx, .flags = MT_NEEDS_MODEL),
	MT_CASE(default_context_is_devx, .flags = MT_NEEDS_MODEL),
	MT_CASE(devx_open_fails_cleanly, .flags = MT_NEEDS_MODEL),
	MT_CASE(open_td_failure_unwinds, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_nodevx_ctx_fixture, no_devx_whitelist,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_devx_ctx_fixture, devx_query_adapter),
	MT_CASE_ON(mt_devx_ctx_fixture, import_device),
	MT_CASE(many_contexts),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
