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
 * ibv_query_rt_values_ex(3): the device's clock now, the same clock the
 * completions carry, which libmlx5 reads from the core clock page
 * (internal_timer_h and _l, big endian, at hca_core_clock_offset): the
 * page maps read-only, and a load from it that a ConnectX's register
 * would not answer (past the timer, misaligned, SSE, the kernel's own)
 * is SIGBUS or EFAULT.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
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

/* The device's clock by ibv_query_rt_values_ex(); 0 if it failed. */
static uint64_t rt_clock(struct ibv_context *ctx)
{
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	int err = ibv_query_rt_values_ex(ctx, &v);

	if (!CHECK_ERR(err, 0) ||
	    !CHECK_EQ(v.comp_mask, IBV_VALUES_MASK_RAW_CLOCK) ||
	    !CHECK_EQ(v.raw_clock.tv_sec, 0))
		return 0;
	return v.raw_clock.tv_nsec;
}

/* Whether the device offers the core clock; on the model it must. */
static int need_core_clock(struct ibv_context *ctx)
{
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };

	if (ibv_query_rt_values_ex(ctx, &v) == EOPNOTSUPP && !mt_sim())
		return mt_skip("the backend offers no core clock page");
	return KSFT_PASS;
}

/*
 * The clock read now is the completions' clock: a SEND's two stamps lie
 * between a read before the post and one after the poll.  It runs at
 * hca_core_clock kHz: on the model, whose clock is the monotonic clock's
 * nanoseconds, its distance over a sleep is within the distance that
 * CLOCK_MONOTONIC saw outside the two reads and inside them.
 */
MT_TEST_F(ts, core_clock_rt_values)
{
	uint64_t c0, c1, s, r, a0, a1, b0, b1;
	int rc = need_core_clock(self->p.c.ctx);

	if (rc != KSFT_PASS)
		return rc;
	c0 = rt_clock(self->p.c.ctx);
	if (!send_ts(self, 40, &s, &r))
		return KSFT_FAIL;
	c1 = rt_clock(self->p.c.ctx);
	mt_diag("clock %llu, send stamp +%lld, receive +%lld, clock +%lld",
		(unsigned long long)c0, (long long)(s - c0),
		(long long)(r - c0), (long long)(c1 - c0));
	CHECK(c0 && c0 <= s && s <= c1);
	CHECK(c0 <= r && r <= c1);
	a0 = now_ns();
	c0 = rt_clock(self->p.c.ctx);
	a1 = now_ns();
	usleep(SLEEP_MS * 1000);
	b0 = now_ns();
	c1 = rt_clock(self->p.c.ctx);
	b1 = now_ns();
	CHECK(c1 > c0);
	if (mt_sim()) {
		CHECK(c1 - c0 >= b0 - a1);
		CHECK(c1 - c0 <= b1 - a0);
	}
	return KSFT_PASS;
}

#ifdef __x86_64__
static uint32_t ld32(const uint8_t *p)
{
	uint32_t r;

	asm volatile("movl %1, %0" : "=r"(r) : "m"(*(const uint32_t *)p)
		     : "memory");
	return r;
}

static uint64_t ld64(const uint8_t *p)
{
	uint64_t r;

	asm volatile("movq %1, %0" : "=r"(r) : "m"(*(const uint64_t *)p)
		     : "memory");
	return r;
}

static uint32_t ld8(const uint8_t *p)
{
	uint32_t r;

	asm volatile("movzbl %1, %0" : "=r"(r) : "m"(*p) : "memory");
	return r;
}

static void ld32_drop(uint8_t *p)
{
	(void)ld32(p);
}

static void ld_sse(uint8_t *p)
{
	asm volatile("movdqu %0, %%xmm0" : : "m"(*(char (*)[16])p)
		     : "xmm0", "memory");
}

static void st8(uint8_t *p)
{
	asm volatile("movb $1, %0" : "=m"(*p) : : "memory");
}

/* The timer as libmlx5 reads it: high word, low word, high again. */
static uint64_t timer_read(const uint8_t *p)
{
	uint32_t hi, lo;

	do {
		hi = be32toh(ld32(p));
		lo = be32toh(ld32(p + 4));
	} while (hi != be32toh(ld32(p)));
	return (uint64_t)hi << 32 | lo;
}

/*
 * The core clock page itself: its two words are the clock, which every
 * load reads anew (and a child after fork() too); eight bytes at once and
 * a byte at a time read it as well.  What the register would not answer
 * is refused, the page is no memory to register, and it maps only as
 * mlx5_ib maps it.
 */
MT_TEST_F(ts, core_clock_page)
{
	long pg = sysconf(_SC_PAGESIZE);
	off_t off = (off_t)(MLX5_IB_MMAP_CORE_CLOCK << 8) * pg;
	struct ibv_context *ctx = self->p.c.ctx;
	uint64_t c0, t0, t1, t64, c1, hi;
	int fds[2], i, st = -1, rc = need_core_clock(ctx);
	struct ibv_mr *mr;
	uint8_t *p;
	pid_t pid;
	void *m;

	if (rc != KSFT_PASS)
		return rc;
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, ctx->cmd_fd, off);
	if (!CHECK(p != MAP_FAILED))
		return KSFT_FAIL;
	c0 = rt_clock(ctx);
	t0 = timer_read(p);
	t64 = be64toh(ld64(p));
	t1 = timer_read(p);
	c1 = rt_clock(ctx);
	CHECK(c0 < t0 && t0 < t64 && t64 < t1 && t1 < c1);
	/* the high word a byte at a time, most significant first */
	hi = 0;
	for (i = 0; i < 4; i++)
		hi = hi << 8 | ld8(p + i);
	CHECK(hi >= t1 >> 32 && hi <= timer_read(p) >> 32);
	pid = fork();
	if (pid == 0)
		_exit(timer_read(p) > t1 ? 0 : 1);
	if (CHECK(pid > 0))
		CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0);
	/* not the register's: the reserved bytes, misaligned, SSE, a store */
	CHECK_EQ(mt_signal_of(ld32_drop, p + 8), SIGBUS);
	CHECK_EQ(mt_signal_of(ld32_drop, p + pg - 4), SIGBUS);
	CHECK_EQ(mt_signal_of(ld32_drop, p + 2), SIGBUS);
	CHECK_EQ(mt_signal_of(ld_sse, p), SIGBUS);
	CHECK_EQ(mt_signal_of(st8, p), SIGSEGV);
	if (CHECK_EQ(pipe(fds), 0)) {
		errno = 0;
		CHECK_EQ(write(fds[1], p, 8), -1);
		CHECK_EQ(errno, EFAULT);
		close(fds[0]);
		close(fds[1]);
	}
	errno = 0;
	CHECK_EQ(mprotect(p, pg, PROT_READ | PROT_WRITE), -1);
	CHECK_EQ(errno, EACCES);
	CHECK(mremap(p, pg, 2 * pg, MREMAP_MAYMOVE) == MAP_FAILED);
	/* no memory for the device to reach either */
	mr = ibv_reg_mr(self->p.pd, p, pg, IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(!mr))
		ibv_dereg_mr(mr);
	mr = ibv_reg_mr(self->p.pd, p, 8, 0);
	if (!CHECK(!mr))
		ibv_dereg_mr(mr);
	/* and what is decoded still is */
	CHECK(timer_read(p) > t1);
	munmap(p, pg);
	m = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->cmd_fd,
		 off);
	CHECK(m == MAP_FAILED && errno == EPERM);
	m = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, ctx->cmd_fd, off);
	CHECK(m == MAP_FAILED && errno == EINVAL);
	m = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, ctx->cmd_fd, off);
	CHECK(m == MAP_FAILED && errno == EINVAL);
	return KSFT_PASS;
}
#endif

static const struct mt_case cases[] = {
	MT_CASE_F(ts, ts_to_ns_real_time),
	MT_CASE_F(ts, clock_page_mmap),
	MT_CASE_F(ts, completion_ts_increases),
	MT_CASE_F(ts, clock_caps),
	MT_CASE_F(ts, ignore_overrun_refused),
	MT_CASE_F(ts, core_clock_rt_values),
#ifdef __x86_64__
	MT_CASE_F(ts, core_clock_page),
#endif
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
