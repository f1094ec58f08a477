// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The simulated device hears a doorbell when it is rung: a process's
 * store to its UAR page traps, and the model executes what the doorbell
 * announces before the store completes (Documentation/datapath.rst, "How
 * the device hears of work").  So a WQE libmlx5 posted has completed by
 * the time ibv_post_send(3) returns, with no worker involved, and
 * fw/datapath counts one served doorbell per post.  Whatever else a
 * process does with the page (loads from it, string stores, the kernel
 * reading it for a system call, a move of the mapping) is served too and
 * breaks nothing: the page is mapped, the worker polls, and then arms
 * the mapping again.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"

/* fw/datapath's served doorbells (its "rungs"), or -1. */
static long long served(void)
{
	return mt_dp_figure(NULL, "passes ", "rungs");
}

/* A's UAR page, as libmlx5 maps it (its BlueFlame register's page). */
static uint8_t *uar_page(struct pair *p)
{
	struct mlx5dv_qp dv = {};
	struct mlx5dv_obj obj = { .qp = { .in = p->qp[0], .out = &dv } };

	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0))
		return NULL;
	return (uint8_t *)((uintptr_t)dv.bf.reg & ~(uintptr_t)(MT_PAGE - 1));
}

/* A posts a signalled inline SEND; true if it has completed at return. */
static bool send_done_at_post(struct pair *p, uint64_t id)
{
	struct ibv_send_wr wr = {
		.wr_id = id, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_INLINE,
	};
	struct ibv_wc wc;
	int n;

	if (!CHECK_ERR(post_recv(p, id, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 0, 16), 0))
		return false;
	n = ibv_poll_cq(p->cq[0], 1, &wc);
	if (n == 1) {
		wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_SEND);
	} else if (poll_one(p->cq[0], &wc)) {
		/* not at once, but it must complete */
		wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_SEND);
	}
	if (poll_one(p->cq[1], &wc))
		wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_RECV);
	return n == 1;
}

/* Of those, the ones that served the one QP their doorbell names, or -1. */
static long long served_by_name(void)
{
	return mt_dp_figure(NULL, "passes ", "rung_named");
}

/*
 * Those that named a queue of their context whose WQE a pass of the
 * worker had taken between the doorbell record and the store, or -1.
 */
static long long served_late(void)
{
	return mt_dp_figure(NULL, "passes ", "rung_late");
}

/*
 * Each post traps once, and its SEND has completed on both sides when
 * ibv_post_send() returns: 50 in a row.  The doorbell's bytes name the
 * QP, as a ConnectX reads them, and the model serves that QP alone; each
 * of the 50 either did, or found the WQE already taken by the worker's
 * poll (which looks at the doorbell records of queues in use, between
 * the record and the store: how often depends on the machine's speed,
 * about half of them on the debug kernel, none on a stock one).  No
 * doorbell named anything else.
 */
MT_TEST_F(pair, served_at_the_store)
{
	long long before = served(), after;
	long long named = served_by_name(), late = served_late();
	unsigned int i, now = 0;

	for (i = 0; i < 50; i++)
		now += send_done_at_post(self, 100 + i);
	after = served();
	named = served_by_name() - named;
	late = served_late() - late;
	printf("# %lld of 50 doorbells served their QP by name, %lld found its WQE taken by the worker\n",
	       named, late);
	CHECK_EQ(now, 50);
	CHECK_EQ(after - before, 50);
	CHECK_EQ(named + late, 50);
	CHECK(named >= 1);
	return KSFT_PASS;
}

/*
 * A load from the UAR page reads it (the page is mapped for it); the
 * next doorbell does not trap, and the worker's poll serves it; then the
 * worker arms the page again, and doorbells trap again.
 */
MT_TEST_F(pair, load_from_the_page)
{
	uint8_t *uar = uar_page(self);

	if (!uar)
		return KSFT_FAIL;
	printf("# the doorbell's first byte reads 0x%x\n",
	       __atomic_load_n(uar + 0x800, __ATOMIC_RELAXED));
	send_done_at_post(self, 1);
	/* the worker looks again within a quick poll, then idles */
	usleep(100 * 1000);
	CHECK(send_done_at_post(self, 2));
	CHECK(send_done_at_post(self, 3));
	return KSFT_PASS;
}

/*
 * The kernel reads the page for a system call (write(2) from it): it is
 * mapped for the kernel's access, the call succeeds, doorbells are
 * served as after a load.
 */
MT_TEST_F(pair, kernel_reads_the_page)
{
	uint8_t *uar = uar_page(self);
	int fds[2];

	if (!uar || !CHECK_ERR(pipe(fds), 0))
		return KSFT_FAIL;
	CHECK_EQ(write(fds[1], uar, 64), 64);
	close(fds[0]);
	close(fds[1]);
	send_done_at_post(self, 1);
	usleep(100 * 1000);
	CHECK(send_done_at_post(self, 2));
	return KSFT_PASS;
}

/*
 * A string store (REP STOSB) to the doorbell is not one the driver steps
 * over: the page is mapped for it, and the doorbell it rang is served.
 */
MT_TEST_F(pair, string_store)
{
#if defined(__x86_64__)
	uint8_t *uar = uar_page(self);
	void *dst;
	size_t n = 8;

	if (!uar)
		return KSFT_FAIL;
	dst = uar + 0x800;
	asm volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(0) : "memory");
	send_done_at_post(self, 1);
	usleep(100 * 1000);
	CHECK(send_done_at_post(self, 2));
	return KSFT_PASS;
#else
	return mt_skip("x86-64 only");
#endif
}

/* The mapping of a UAR page is neither moved nor grown. */
MT_TEST_F(pair, mremap_refused)
{
	uint8_t *uar = uar_page(self);
	void *to;

	if (!uar)
		return KSFT_FAIL;
	to = mremap(uar, MT_PAGE, 2 * MT_PAGE, MREMAP_MAYMOVE);
	CHECK(to == MAP_FAILED);
	to = mmap(NULL, MT_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(to != MAP_FAILED))
		return KSFT_FAIL;
	CHECK(mremap(uar, MT_PAGE, MT_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
		     to) == MAP_FAILED);
	munmap(to, MT_PAGE);
	CHECK(send_done_at_post(self, 1));
	return KSFT_PASS;
}

/*
 * A doorbell rung once the device has gone idle (its worker asleep, with
 * nothing to poll for) is served at its store as well.
 */
MT_TEST_F(pair, served_after_idle)
{
	unsigned int i, now = 0;

	for (i = 0; i < 20; i++) {
		now += send_done_at_post(self, 10 + i);
		usleep(1000);
	}
	CHECK_EQ(now, 20);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, served_at_the_store, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(pair, load_from_the_page, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(pair, kernel_reads_the_page, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(pair, string_store, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(pair, mremap_refused, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(pair, served_after_idle, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
