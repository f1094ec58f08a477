// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5 alloc_ucontext ABI, without libmlx5: the legacy write()
 * command IB_USER_VERBS_CMD_GET_CONTEXT on /dev/infiniband/uverbsN, with
 * the driver's request (struct mlx5_ib_alloc_ucontext_req_v2, or its
 * 8-byte v0 form and the shorter v2 forms libmlx5 retries with) and
 * response (struct mlx5_ib_alloc_ucontext_resp) from <rdma/mlx5-abi.h>.
 *
 * write() carries struct ib_uverbs_cmd_hdr, then struct
 * ib_uverbs_get_context (the response address), then the driver request;
 * in_words counts 4-byte words of all of it, out_words of the response
 * (struct ib_uverbs_get_context_resp, then the driver's).  Every case
 * runs on a fresh file: a file gets one context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>
#include "mlx5x_test.h"

#define REQ_V0		sizeof(struct mlx5_ib_alloc_ucontext_req)	/* 8 */
#define REQ_V2		sizeof(struct mlx5_ib_alloc_ucontext_req_v2)	/* 40 */
#define REQ_MAX		64
#define CORE_RESP	sizeof(struct ib_uverbs_get_context_resp)	/* 8 */
#define DRV_RESP	sizeof(struct mlx5_ib_alloc_ucontext_resp)

struct reply {
	struct ib_uverbs_get_context_resp *core;
	struct mlx5_ib_alloc_ucontext_resp *drv;
	uint64_t buf[(CORE_RESP + DRV_RESP + 64) / 8];
};

static char uverbs_path[64];
static int max_qp;

/* /dev/infiniband/uverbsN of the device, from sysfs. */
static int find_uverbs(void)
{
	char path[96], name[64];
	int i, fd;
	ssize_t n;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband_verbs/uverbs%d/ibdev", i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, name, sizeof(name) - 1);
		close(fd);
		if (n <= 0)
			continue;
		name[n] = '\0';
		name[strcspn(name, "\n")] = '\0';
		if (!strcmp(name, mt.dev_name)) {
			snprintf(uverbs_path, sizeof(uverbs_path),
				 "/dev/infiniband/uverbs%d", i);
			return 0;
		}
	}
	return -1;
}

/**
 * get_context() - one GET_CONTEXT on a file
 * @fd: the uverbs file
 * @req: driver request
 * @req_len: its length
 * @r: the reply; @resp_len bytes of it are offered
 * @resp_len: response length, core part included
 *
 * Return: 0 or the errno write() failed with.
 */
static int get_context(int fd, const void *req, size_t req_len,
		       struct reply *r, size_t resp_len)
{
	uint64_t buf[(sizeof(struct ib_uverbs_cmd_hdr) +
		      sizeof(struct ib_uverbs_get_context) + REQ_MAX) / 8];
	struct ib_uverbs_cmd_hdr *hdr = (void *)buf;
	struct ib_uverbs_get_context *cmd = (void *)(hdr + 1);
	size_t len = sizeof(*hdr) + sizeof(*cmd) + req_len;

	memset(buf, 0, sizeof(buf));
	memset(r->buf, 0, sizeof(r->buf));
	r->core = (void *)r->buf;
	r->drv = (void *)((uint8_t *)r->buf + CORE_RESP);
	hdr->command = IB_USER_VERBS_CMD_GET_CONTEXT;
	hdr->in_words = len / 4;
	hdr->out_words = resp_len / 4;
	cmd->response = (uintptr_t)r->buf;
	memcpy(cmd + 1, req, req_len);
	if (write(fd, buf, len) != (ssize_t)len)
		return errno;
	return 0;
}

/*
 * One request on a fresh file; on success, the response is checked and
 * the context closed.  Either way the model ends as it began.
 */
static void try_request(const void *req, size_t req_len, int want_err,
			int want_cqe_version)
{
	struct reply r;
	int fd, err, base = mt_fw_total();

	mt_diag("request length %zu", req_len);
	fd = open(uverbs_path, O_RDWR | O_CLOEXEC);
	if (!CHECK(fd >= 0))
		return;
	err = get_context(fd, req, req_len, &r, CORE_RESP + DRV_RESP);
	CHECK_ERR(err, want_err);
	if (!err) {
		CHECK(r.core->num_comp_vectors >= 1);
		CHECK_EQ(r.drv->response_length, DRV_RESP);
		CHECK_EQ(r.drv->num_ports, 1);
		CHECK_EQ(r.drv->tot_bfregs, 0);
		CHECK_EQ(r.drv->log_uar_size, 12);
		CHECK(r.drv->num_uars_per_page >= 1);
		CHECK_EQ(r.drv->qp_tab_size, max_qp);
		CHECK_EQ(r.drv->cqe_version, want_cqe_version);
		close(r.core->async_fd);
	} else if (mt_sim()) {
		CHECK_EQ(mt_fw_total(), base);
	}
	close(fd);
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), base);
}

/*
 * A fresh file a case asks for a context on: it is closed after the case
 * unless the case closed it, and then nothing of it is left in the model.
 */
struct file {
	int fd;
	int base;		/* the model's objects before it; -1: none */
};

MT_FIXTURE(file);

MT_FIXTURE_SETUP(file)
{
	self->fd = -1;
	self->base = -1;
	if (!uverbs_path[0])
		return mt_skip("no uverbs device");
	self->base = mt_fw_total();
	self->fd = open(uverbs_path, O_RDWR | O_CLOEXEC);
	return CHECK(self->fd >= 0) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(file)
{
	if (self->fd >= 0)
		close(self->fd);
	if (mt_sim() && self->base >= 0)
		CHECK_EQ(mt_fw_total(), self->base);
}

static struct mlx5_ib_alloc_ucontext_req_v2 v2(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.max_cqe_version = 1,
	};

	return req;
}

static int test_find_uverbs(void)
{
	struct ibv_device_attr attr = {};
	struct ibv_context *ctx;

	if (find_uverbs())
		return mt_skip("no uverbs device for %s", mt.dev_name);
	mt_diag("%s", uverbs_path);
	ctx = ibv_open_device(mt.dev);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	CHECK_ERR(ibv_query_device(ctx, &attr), 0);
	max_qp = attr.max_qp;
	CHECK_EQ(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

/*
 * libmlx5 sends the whole v2 request, then shorter ones (up to lib_caps,
 * up to max_cqe_version) for older kernels; and the 8-byte v0 request
 * exists too.  Each is valid; cqe_version is what was asked, if asked.
 */
static int test_request_lengths(void)
{
	static const struct {
		size_t len;
		int cqe_version;
	} ok[] = { { REQ_V0, 0 }, { 16, 0 }, { 24, 1 }, { 32, 1 },
		   { REQ_V2, 1 } };
	struct mlx5_ib_alloc_ucontext_req_v2 req = v2();
	unsigned int i;

	if (!uverbs_path[0])
		return mt_skip("no uverbs device");
	for (i = 0; i < MT_ARRAY_SIZE(ok); i++)
		try_request(&req, ok[i].len, 0, ok[i].cqe_version);
	return KSFT_PASS;
}

/* Between v0 and the shortest v2 request, and empty: EINVAL. */
static int test_bad_request_lengths(void)
{
	static const size_t bad[] = { 0, 4, 12 };
	struct mlx5_ib_alloc_ucontext_req_v2 req = v2();
	unsigned int i;

	if (!uverbs_path[0])
		return mt_skip("no uverbs device");
	for (i = 0; i < MT_ARRAY_SIZE(bad); i++)
		try_request(&req, bad[i], EINVAL, 0);
	return KSFT_PASS;
}

static int test_unknown_flags(void)
{
	static const uint32_t flags[] = { 1 << 1, 1 << 31,
					  MLX5_IB_ALLOC_UCTX_DEVX | 1 << 5 };
	struct mlx5_ib_alloc_ucontext_req_v2 req = v2();
	unsigned int i;

	if (!uverbs_path[0])
		return mt_skip("no uverbs device");
	for (i = 0; i < MT_ARRAY_SIZE(flags); i++) {
		mt_diag("flags %#x", flags[i]);
		req.flags = flags[i];
		try_request(&req, REQ_V2, EOPNOTSUPP, 0);
	}
	return KSFT_PASS;
}

/* The DEVX flag creates a firmware user context, gone with the file. */
MT_TEST_F(file, devx_flag)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = v2();
	int uctx = mt_fw_count("uctx", -1);
	struct reply r;

	req.flags = MLX5_IB_ALLOC_UCTX_DEVX;
	try_request(&req, REQ_V2, 0, 1);

	if (CHECK_ERR(get_context(self->fd, &req, REQ_V2, &r,
				  CORE_RESP + DRV_RESP), 0)) {
		if (mt_sim())
			CHECK_EQ(mt_fw_count("uctx", -1), uctx + 1);
		close(r.core->async_fd);
	}
	close(self->fd);
	self->fd = -1;
	if (mt_sim())
		CHECK_EQ(mt_fw_count("uctx", -1), uctx);
	return KSFT_PASS;
}

static int test_comp_mask_and_reserved(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req;

	if (!uverbs_path[0])
		return mt_skip("no uverbs device");
	req = v2();
	req.comp_mask = 1;
	try_request(&req, REQ_V2, EOPNOTSUPP, 0);
	req = v2();
	req.reserved0 = 1;
	try_request(&req, REQ_V2, EOPNOTSUPP, 0);
	req = v2();
	req.reserved1 = 1;
	try_request(&req, REQ_V2, EOPNOTSUPP, 0);
	req = v2();
	req.reserved2 = 1;
	try_request(&req, REQ_V2, EOPNOTSUPP, 0);
	return KSFT_PASS;
}

static int test_low_latency_over_total(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = v2();

	if (!uverbs_path[0])
		return mt_skip("no uverbs device");
	req.total_num_bfregs = 0;
	req.num_low_latency_bfregs = 1;
	try_request(&req, REQ_V2, EINVAL, 0);
	try_request(&req, REQ_V0, EINVAL, 0);
	req.total_num_bfregs = 4;
	req.num_low_latency_bfregs = 5;
	try_request(&req, REQ_V2, EINVAL, 0);
	/* equal is fine */
	req.num_low_latency_bfregs = 4;
	try_request(&req, REQ_V2, 0, 1);
	return KSFT_PASS;
}

/* A longer request than the kernel knows is fine only if the rest is 0. */
static int test_request_tail(void)
{
	uint8_t req[REQ_MAX] = {};
	struct mlx5_ib_alloc_ucontext_req_v2 r2 = v2();

	if (!uverbs_path[0])
		return mt_skip("no uverbs device");
	memcpy(req, &r2, sizeof(r2));
	try_request(req, REQ_V2 + 8, 0, 1);
	try_request(req, REQ_MAX, 0, 1);
	req[REQ_V2] = 1;
	try_request(req, REQ_V2 + 8, EOPNOTSUPP, 0);
	req[REQ_V2] = 0;
	req[REQ_MAX - 1] = 0x80;
	try_request(req, REQ_MAX, EOPNOTSUPP, 0);
	return KSFT_PASS;
}

/* A response buffer with room for the core part only is still served. */
MT_TEST_F(file, short_response)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = v2();
	struct reply r;

	memset(r.buf, 0, sizeof(r.buf));
	if (CHECK_ERR(get_context(self->fd, &req, REQ_V2, &r, CORE_RESP), 0)) {
		/* nothing beyond what was offered is written */
		CHECK_EQ(r.drv->response_length, 0);
		CHECK_EQ(r.drv->num_ports, 0);
		close(r.core->async_fd);
	}
	return KSFT_PASS;
}

/* One context per file: a second GET_CONTEXT is refused. */
MT_TEST_F(file, second_context_refused)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = v2();
	struct reply r, r2;

	if (CHECK_ERR(get_context(self->fd, &req, REQ_V2, &r,
				  CORE_RESP + DRV_RESP), 0)) {
		CHECK_ERR(get_context(self->fd, &req, REQ_V2, &r2,
				      CORE_RESP + DRV_RESP), EINVAL);
		close(r.core->async_fd);
	}
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(find_uverbs, .flags = MT_SHARED),
	MT_CASE(request_lengths),
	MT_CASE(bad_request_lengths),
	MT_CASE(unknown_flags),
	MT_CASE_F(file, devx_flag),
	MT_CASE(comp_mask_and_reserved),
	MT_CASE(low_latency_over_total),
	MT_CASE(request_tail),
	MT_CASE_F(file, short_response),
	MT_CASE_F(file, second_context_refused),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
