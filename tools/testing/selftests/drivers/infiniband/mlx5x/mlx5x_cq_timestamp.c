// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion timestamps, as ibv_create_cq_ex(3) describes them: a CQ
 * created with IBV_WC_EX_WITH_COMPLETION_TIMESTAMP gives each completion
 * the device's free-running clock (ibv_wc_read_completion_ts), in units
 * of hca_core_clock kHz (ibv_query_device_ex(3)), masked by
 * completion_timestamp_mask.  What the device does not offer is refused:
 * IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN.  mlx5dv_get_clock_info(3) and
 * mlx5dv_ts_to_ns(3): the clock info page turns a completion's stamp
 * into CLOCK_REALTIME; the page maps read-only and shared only.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <time.h>
#include <rdma/mlx5-abi.h>
#include "mlx5x_rc.h"

#define SLEEP_MS	20

/* The pair, its CQs extended ones with completion timestamps. */
struct ts {
	struct pair p;
	struct ibv_cq_ex *cqx[2];
};

MT_FIXTURE(ts);

MT_FIXTURE_SETUP(ts)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = 32,
		.wc_flags = IBV_WC_STANDARD_FLAGS |
			    IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
	};
	struct pair *p = &self->p;
	unsigned int i;
	int rc = pair_mem_open(p, BUF_BYTES);

	if (rc != KSFT_PASS)
		return rc;
	for (i = 0; i < 2; i++) {
		self->cqx[i] = ibv_create_cq_ex(p->c.ctx, &a);
		if (!CHECK(self->cqx[i]))
			return KSFT_FAIL;
		p->cq[i] = ibv_cq_ex_to_cq(self->cqx[i]);
		p->qp[i] = rc_qp(p, p->cq[i], IBV_QPT_RC);
		if (!CHECK(p->qp[i]))
			return KSFT_FAIL;
	}
	if (!CHECK_ERR(rc_connect(p, p->qp[0], p->qp[1]->qp_num, ALL_ACCESS,
				  7), 0) ||
	    !CHECK_ERR(rc_connect(p, p->qp[1], p->qp[0]->qp_num, ALL_ACCESS,
				  7), 0))
		return KSFT_FAIL;
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(ts)
{
	pair_teardown(&self->p);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + t.tv_nsec;
}

/*
 * One completion of @cq within WAIT_MS: its wr_id, status and
 * timestamp; false if none came.
 */
static bool poll_ts(struct ibv_cq_ex *cq, uint64_t *wr_id, int *status,
		    uint64_t *ts)
{
	struct ibv_poll_cq_attr pa = {};
	uint64_t end = now_ns() + WAIT_MS * 1000000ull;
	int err;

	while ((err = ibv_start_poll(cq, &pa)) == ENOENT) {
		if (now_ns() > end)
			return CHECK(false);
		usleep(100);
	}
	if (!CHECK_ERR(err, 0))
		return false;
	*wr_id = cq->wr_id;
	*status = cq->status;
	*ts = ibv_wc_read_completion_ts(cq);
	ibv_end_poll(cq);
	return true;
}

/* A SEND from A to B, and its two completions' timestamps. */
static bool send_ts(struct ts *self, uint64_t id, uint64_t *sts,
		    uint64_t *rts)
{
	struct ibv_send_wr wr = { .wr_id = id, .opcode = IBV_WR_SEND };
	uint64_t got;
	int status;

	if (!CHECK_ERR(post_recv(&self->p, id + 1, 32768, 256), 0) ||
	    !CHECK_ERR(post_send(&self->p, &wr, 0, 256), 0))
		return false;
	if (!poll_ts(self->cqx[0], &got, &status, sts) ||
	    !CHECK_EQ(got, id) || !CHECK_EQ(status, IBV_WC_SUCCESS))
		return false;
	if (!poll_ts(self->cqx[1], &got, &status, rts) ||
	    !CHECK_EQ(got, id + 1) || !CHECK_EQ(status, IBV_WC_SUCCESS))
		return false;
	return true;
}

/*
 * Two SENDs SLEEP_MS apart: on each CQ the second completion's timestamp
 * is later than the first's, and their distance, in the device's unit
 * (hca_core_clock kHz), is what CLOCK_MONOTONIC saw: at least half the
 * sleep, at most the whole exchange's time (and under 10 s).
 */
MT_TEST_F(ts, completion_ts_increases)
{
	struct ibv_device_attr_ex da = {};
	uint64_t s0, r0, s1, r1, t0, t1, khz, ds, wall;

	if (!CHECK_ERR(ibv_query_device_ex(self->p.c.ctx, NULL, &da), 0))
		return KSFT_FAIL;
	khz = da.hca_core_clock;
	if (!CHECK(khz) || !CHECK(da.completion_timestamp_mask))
		return KSFT_FAIL;
	t0 = now_ns();
	if (!send_ts(self, 10, &s0, &r0))
		return KSFT_FAIL;
	usleep(SLEEP_MS * 1000);
	if (!send_ts(self, 20, &s1, &r1))
		return KSFT_FAIL;
	t1 = now_ns();
	CHECK(s0 && r0);
	CHECK(s1 > s0);
	CHECK(r1 > r0);
	/* cycles to ns: khz cycles per ms */
	ds = (s1 - s0) * 1000000ull / khz;
	wall = t1 - t0;
	mt_diag("send ts delta %llu ns, recv %llu ns, wall %llu ns",
		(unsigned long long)ds,
		(unsigned long long)((r1 - r0) * 1000000ull / khz),
		(unsigned long long)wall);
	CHECK(ds >= SLEEP_MS * 1000000ull / 2);
	CHECK(ds < 10 * 1000000000ull);
	CHECK(ds <= wall + wall / 10);
	return KSFT_PASS;
}

/* The device's caps as ibv_query_device_ex(3) gives them. */
MT_TEST_F(ts, clock_caps)
{
	struct ibv_device_attr_ex da = {};

	if (!CHECK_ERR(ibv_query_device_ex(self->p.c.ctx, NULL, &da), 0))
		return KSFT_FAIL;
	CHECK_EQ(da.hca_core_clock, 1000000);	/* kHz: 1 GHz */
	CHECK_EQ(da.completion_timestamp_mask, 0x7fffffffffffffffull);
	return KSFT_PASS;
}

/* A CQ that would ignore overruns: not offered, refused. */
MT_TEST_F(ts, ignore_overrun_refused)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = 8, .wc_flags = IBV_WC_STANDARD_FLAGS,
		.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
		.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN,
	};
	struct ibv_cq_ex *cq = ibv_create_cq_ex(self->p.c.ctx, &a);

	if (!CHECK(!cq)) {
		ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
		return KSFT_FAIL;
	}
	CHECK_EQ(errno, EOPNOTSUPP);
	return KSFT_PASS;
}

/*
 * A completion's stamp, through the clock info page, is the real time
 * it completed at: between the clock_gettime() before the post and the
 * one after the poll (with a millisecond's slack for the pairing).  The
 * send's and the receive's are each in that window; how far apart the
 * two are is the device's scheduling (a loaded guest has put more than
 * a millisecond between them), not a property of the stamps.
 */
MT_TEST_F(ts, ts_to_ns_real_time)
{
	struct mlx5dv_clock_info ci;
	uint64_t s, r, before, after, ns;
	struct timespec t;

	if (!CHECK_ERR(mlx5dv_get_clock_info(self->p.c.ctx, &ci), 0))
		return KSFT_FAIL;
	CHECK_EQ(ci.mult, 1);
	CHECK_EQ(ci.shift, 0);
	clock_gettime(CLOCK_REALTIME, &t);
	before = (uint64_t)t.tv_sec * 1000000000ull + t.tv_nsec;
	if (!send_ts(self, 30, &s, &r))
		return KSFT_FAIL;
	clock_gettime(CLOCK_REALTIME, &t);
	after = (uint64_t)t.tv_sec * 1000000000ull + t.tv_nsec;
	ns = mlx5dv_ts_to_ns(&ci, s);
	mt_diag("send at %llu ns, %lld ns after the post",
		(unsigned long long)ns, (long long)(ns - before));
	CHECK(ns + 1000000 >= before);
	CHECK(ns <= after + 1000000);
	CHECK(mlx5dv_ts_to_ns(&ci, r) + 1000000 >= before);
	CHECK(mlx5dv_ts_to_ns(&ci, r) <= after + 1000000);
	return KSFT_PASS;
}

/* The page, mapped as mlx5_ib allows it: shared, read-only, version 1. */
MT_TEST_F(ts, clock_page_mmap)
{
	long pg = sysconf(_SC_PAGESIZE);
	off_t off = (off_t)(MLX5_IB_MMAP_CLOCK_INFO << 8 |
			    MLX5_IB_CLOCK_INFO_V1) * pg;
	int fd = self->p.c.ctx->cmd_fd;
	struct mlx5_ib_clock_info *ci;
	void *m;

	ci = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, off);
	if (!CHECK(ci != MAP_FAILED))
		return KSFT_FAIL;
	CHECK_EQ(ci->sign & 1, 0);
	CHECK_EQ(ci->mult, 1);
	CHECK_EQ(ci->mask, 0x7fffffffffffffffull);
	CHECK(ci->nsec > 0);
	munmap(ci, pg);
	m = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	CHECK(m == MAP_FAILED && errno == EPERM);
	m = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, off);
	CHECK(m == MAP_FAILED && errno == EINVAL);
	m = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, fd, off);
	CHECK(m == MAP_FAILED && errno == EINVAL);
	m = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, off + pg);
	CHECK(m == MAP_FAILED && errno == EOPNOTSUPP);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(ts, ts_to_ns_real_time),
	MT_CASE_F(ts, clock_page_mmap),
	MT_CASE_F(ts, completion_ts_increases),
	MT_CASE_F(ts, clock_caps),
	MT_CASE_F(ts, ignore_overrun_refused),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
