// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's hardware counters, as mlx5_ib names them
 * (/sys/class/infiniband/DEV/ports/1/hw_counters, rdma statistic show
 * link DEV/1): every QP counts in the port's Q counter set, so what two
 * of its QPs do on the loopback moves them by what happened: requests
 * received by kind, an RNR retry error, remote access errors on both
 * sides, a receive too small, flushes.  Reading them needs no privilege.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include "mlx5x_rc.h"

#define DELTA(ctx, name, before, want) \
	CHECK_EQ(hw_counter(ctx, name) - (before), want)

struct strict {
	struct pair p;
};

MT_FIXTURE(strict);

/* B allows no remote access; A retries an RNR NAK once. */
MT_FIXTURE_SETUP(strict)
{
	return pair_open(&self->p, IBV_QPT_RC, IBV_ACCESS_LOCAL_WRITE, 1);
}

MT_FIXTURE_TEARDOWN(strict)
{
	pair_teardown(&self->p);
}

/* WRITE, READ and an atomic count once each, at the responder. */
MT_TEST_F(pair, requests)
{
	struct ibv_context *ctx = self->c.ctx;
	long long w = hw_counter(ctx, "rx_write_requests");
	long long r = hw_counter(ctx, "rx_read_requests");
	long long a = hw_counter(ctx, "rx_atomic_requests");
	long long e = hw_counter(ctx, "req_cqe_error");
	struct ibv_send_wr wr = {
		.wr_id = 1, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)self->buf + 16384, self->mr->rkey },
	};
	struct ibv_wc wc;

	if (!CHECK(w >= 0 && r >= 0 && a >= 0 && e >= 0))
		return KSFT_FAIL;
	if (!CHECK_ERR(post_send(self, &wr, 0, 100), 0) ||
	    !poll_one(self->cq[0], &wc) ||
	    !wc_is(&wc, 1, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE))
		return KSFT_FAIL;
	wr.wr_id = 2;
	wr.opcode = IBV_WR_RDMA_READ;
	if (!CHECK_ERR(post_send(self, &wr, 0, 100), 0) ||
	    !poll_one(self->cq[0], &wc) ||
	    !wc_is(&wc, 2, IBV_WC_SUCCESS, IBV_WC_RDMA_READ))
		return KSFT_FAIL;
	wr = (struct ibv_send_wr){
		.wr_id = 3, .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.wr.atomic = { (uintptr_t)self->buf + 8192, 1, 0,
			       self->mr->rkey },
	};
	if (!CHECK_ERR(post_send(self, &wr, 0, 8), 0) ||
	    !poll_one(self->cq[0], &wc) ||
	    !wc_is(&wc, 3, IBV_WC_SUCCESS, IBV_WC_FETCH_ADD))
		return KSFT_FAIL;
	DELTA(ctx, "rx_write_requests", w, 1);
	DELTA(ctx, "rx_read_requests", r, 1);
	DELTA(ctx, "rx_atomic_requests", a, 1);
	DELTA(ctx, "req_cqe_error", e, 0);
	return KSFT_PASS;
}

/* No receive posted, rnr_retry 1 spent: RNR NAKs, then the error. */
MT_TEST_F(strict, rnr_retry_err)
{
	struct pair *p = &self->p;
	struct ibv_context *ctx = p->c.ctx;
	long long rnr = hw_counter(ctx, "rnr_nak_retry_err");
	long long oob = hw_counter(ctx, "out_of_buffer");
	long long e = hw_counter(ctx, "req_cqe_error");
	struct ibv_send_wr wr = { .wr_id = 4, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0) ||
	    !poll_one(p->cq[0], &wc) ||
	    !wc_is(&wc, 4, IBV_WC_RNR_RETRY_EXC_ERR, 0))
		return KSFT_FAIL;
	DELTA(ctx, "rnr_nak_retry_err", rnr, 1);
	DELTA(ctx, "req_cqe_error", e, 1);
	/* each NAK found no receive WQE: the first, and the retry's */
	DELTA(ctx, "out_of_buffer", oob, 2);
	return KSFT_PASS;
}

/*
 * A READ of a QP that allows none: a remote access error on both sides,
 * and the WR after it flushed.
 */
MT_TEST_F(strict, remote_access)
{
	struct pair *p = &self->p;
	struct ibv_context *ctx = p->c.ctx;
	long long req = hw_counter(ctx, "req_remote_access_errors");
	long long resp = hw_counter(ctx, "resp_remote_access_errors");
	long long e = hw_counter(ctx, "req_cqe_error");
	long long fl = hw_counter(ctx, "req_cqe_flush_error");
	long long r = hw_counter(ctx, "rx_read_requests");
	struct ibv_send_wr wr = {
		.wr_id = 5, .opcode = IBV_WR_RDMA_READ,
		.wr.rdma = { (uintptr_t)p->buf + 20000, p->mr->rkey },
	};
	struct ibv_wc wc;

	if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	wr.wr_id = 6;
	if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (!poll_one(p->cq[0], &wc) ||
	    !wc_is(&wc, 5, IBV_WC_REM_ACCESS_ERR, 0) ||
	    !poll_one(p->cq[0], &wc) ||
	    !wc_is(&wc, 6, IBV_WC_WR_FLUSH_ERR, 0))
		return KSFT_FAIL;
	DELTA(ctx, "req_remote_access_errors", req, 1);
	DELTA(ctx, "resp_remote_access_errors", resp, 1);
	DELTA(ctx, "req_cqe_error", e, 1);
	DELTA(ctx, "req_cqe_flush_error", fl, 1);
	/* the responder received it, and refused it */
	DELTA(ctx, "rx_read_requests", r, 1);
	return KSFT_PASS;
}

/*
 * A SEND longer than the receive: a local length error at the responder,
 * a remote invalid request at the requester; the responder's other
 * receive is flushed.
 */
MT_TEST_F(pair, recv_too_small)
{
	struct ibv_context *ctx = self->c.ctx;
	long long len = hw_counter(ctx, "resp_local_length_error");
	long long inv = hw_counter(ctx, "req_remote_invalid_request");
	long long re = hw_counter(ctx, "resp_cqe_error");
	long long rf = hw_counter(ctx, "resp_cqe_flush_error");
	struct ibv_send_wr wr = { .wr_id = 7, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(self, 8, 32768, 16), 0) ||
	    !CHECK_ERR(post_recv(self, 9, 32768, 16), 0) ||
	    !CHECK_ERR(post_send(self, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (!poll_one(self->cq[0], &wc) ||
	    !wc_is(&wc, 7, IBV_WC_REM_INV_REQ_ERR, 0) ||
	    !poll_one(self->cq[1], &wc) ||
	    !wc_is(&wc, 8, IBV_WC_LOC_LEN_ERR, 0) ||
	    !poll_one(self->cq[1], &wc) ||
	    !wc_is(&wc, 9, IBV_WC_WR_FLUSH_ERR, 0))
		return KSFT_FAIL;
	DELTA(ctx, "resp_local_length_error", len, 1);
	DELTA(ctx, "req_remote_invalid_request", inv, 1);
	DELTA(ctx, "resp_cqe_error", re, 1);
	DELTA(ctx, "resp_cqe_flush_error", rf, 1);
	return KSFT_PASS;
}

/* What another user reads: the files and rdma statistic. */
static int read_unprivileged(void *arg)
{
	struct ibv_context *ctx = arg;
	char cmd[256];
	int rc;

	if (!CHECK(hw_counter(ctx, "rx_write_requests") >= 0))
		return KSFT_FAIL;
	snprintf(cmd, sizeof(cmd),
		 "rdma statistic show link %s/1 | grep -q rx_write_requests",
		 ibv_get_device_name(ctx->device));
	rc = mt_sh("%s", cmd);
	CHECK_EQ(rc, 0);
	return KSFT_PASS;
}

/* Every counter mlx5_ib names is there; any user reads them. */
MT_TEST_F(pair, names_unprivileged)
{
	static const char * const names[] = {
		"rx_write_requests", "rx_read_requests", "rx_atomic_requests",
		"out_of_buffer", "out_of_sequence", "duplicate_request",
		"rnr_nak_retry_err", "packet_seq_err", "implied_nak_seq_err",
		"local_ack_timeout_err", "resp_local_length_error",
		"resp_cqe_error", "req_cqe_error",
		"req_remote_invalid_request", "req_remote_access_errors",
		"resp_remote_access_errors", "resp_cqe_flush_error",
		"req_cqe_flush_error",
	};
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(names); i++)
		if (!CHECK(hw_counter(self->c.ctx, names[i]) >= 0))
			fprintf(stderr, "# no counter %s\n", names[i]);
	if (access("/usr/bin/rdma", X_OK) && access("/sbin/rdma", X_OK))
		return mt_skip("no rdma tool");
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, read_unprivileged,
			   self->c.ctx), KSFT_PASS);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, requests),
	MT_CASE_F(strict, rnr_retry_err),
	MT_CASE_F(strict, remote_access),
	MT_CASE_F(pair, recv_too_small),
	MT_CASE_F(pair, names_unprivileged, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
