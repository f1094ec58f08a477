// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A doorbell names its queue (Documentation/datapath.rst, "How the
 * device hears of work"): the 8 bytes a process stores to its UAR are
 * the first bytes of the WQE's control segment, the WQE counter and the
 * QP number.  A process may store any bytes there.  Run as the least
 * privileged user that can open the device (nobody, no capability), an
 * attacker stores another context's QP numbers, root's and another
 * nobody's, with forged WQE counters, into its own doorbell.  As on a
 * ConnectX, that gains nothing and harms nothing: the victim's queues
 * execute exactly what their owner posted and rang (the producer index
 * is the doorbell record's, never the store's), no WQE runs twice, no
 * completion reaches either side that should not, the victim's memory
 * stays as it was, and both keep working.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>
#include <endian.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"

#define POSTED		4		/* the victim's SENDs before the attack */
#define SPARE		4		/* receives left posted to catch a replay */
#define WRITE_AT	4096		/* where the victim's RDMA WRITE lands */
#define RECV_AT		8192		/* where its receives land, 64 each */
#define MLX5_OPC_SEND	0x0a

/* What the processes share: the victim's QPs, and the attacker's. */
struct board {
	uint32_t victim_qpn[2];
	uint32_t own_qpn;
	int stores;
};

/* The forged WQE counters: past the posted index, huge, wrapped, stale. */
static const uint16_t forged[] = {
	POSTED + 1, POSTED + 2, POSTED + 8, 0x7fff, 0xffff, 0, 1, POSTED - 1,
	POSTED + 1,
};

/* A's UAR doorbell (its BlueFlame register), as libmlx5 rings it. */
static uint64_t *doorbell(struct pair *p)
{
	struct mlx5dv_qp dv = {};
	struct mlx5dv_obj obj = { .qp = { .in = p->qp[0], .out = &dv } };

	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0))
		return NULL;
	return (uint64_t *)dv.bf.reg;
}

/* The doorbell's 8 bytes for a SEND of counter @pi on QP @qpn. */
static uint64_t forge(uint32_t qpn, uint16_t pi)
{
	uint32_t w[2] = {
		htobe32((uint32_t)pi << 8 | MLX5_OPC_SEND),
		htobe32(qpn << 8 | 2),
	};
	uint64_t v;

	memcpy(&v, w, sizeof(v));
	return v;
}

/* A signalled SEND @id of 64 bytes from @off on A, B's receive @rid. */
static bool send_ok(struct pair *p, uint64_t id, uint32_t off, uint64_t rid)
{
	struct ibv_send_wr wr = { .wr_id = id, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	return CHECK_ERR(post_send(p, &wr, off, 64), 0) &&
	       CHECK(poll_one(p->cq[0], &wc)) &&
	       CHECK(wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_SEND)) &&
	       CHECK(poll_one(p->cq[1], &wc)) &&
	       CHECK(wc_is(&wc, rid, IBV_WC_SUCCESS, IBV_WC_RECV));
}

/* No completion on either CQ of @p: the attack gave none. */
static bool quiet(struct pair *p)
{
	struct ibv_wc wc;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 2; i++)
		ok &= CHECK_EQ(ibv_poll_cq(p->cq[i], 1, &wc), 0);
	return ok;
}

/* Read one byte from @fd (the other side's go); false at its end. */
static bool await(int fd)
{
	char c;

	return read(fd, &c, 1) == 1;
}

static void go(int fd)
{
	char c = 1;

	if (write(fd, &c, 1) != 1)
		mt_diag("pipe write failed\n");
}

/* The end of a process's part: the other side told, @p closed. */
static int finish(struct pair *p, int fd, int rc)
{
	go(fd);
	pair_teardown(p);
	return rc;
}

/*
 * The victim: 4 SENDs and an RDMA WRITE, posted, rung and completed;
 * 4 more receives posted; the WRITE's target cleared.  Then, after the
 * attack: not one completion, the memory as it was, and a SEND that
 * takes B's next receive and completes with its own wr_id.
 */
static int victim(struct board *b, int in, int out)
{
	struct pair p = {};
	uint8_t *w, zero[512] = {};
	unsigned int i;
	int rc = pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7);

	if (rc != KSFT_PASS)
		goto out;
	rc = KSFT_FAIL;
	fill(p.buf, 512, 9);
	for (i = 0; i < POSTED + SPARE + 1; i++)
		if (!CHECK_ERR(post_recv(&p, 200 + i, RECV_AT + 64 * i, 64), 0))
			goto out;
	for (i = 0; i < POSTED - 1; i++)
		if (!send_ok(&p, 100 + i, 64 * i, 200 + i))
			goto out;
	w = p.buf + WRITE_AT;
	if (!CHECK_EQ(rc_rdma(&p, IBV_WR_RDMA_WRITE, p.mr->rkey, (uintptr_t)w,
			      p.mr->lkey, (uintptr_t)p.buf, 256),
		      IBV_WC_SUCCESS) || !CHECK(!memcmp(w, p.buf, 256)))
		goto out;
	memset(w, 0, 256);
	memset(p.buf + RECV_AT + 64 * (POSTED - 1), 0, 64 * (SPARE + 2));
	b->victim_qpn[0] = p.qp[0]->qp_num;
	b->victim_qpn[1] = p.qp[1]->qp_num;
	go(out);
	if (!await(in))
		goto out;
	usleep(50 * 1000);	/* a poll of the worker's, had it work */
	if (!quiet(&p) || !CHECK(!memcmp(w, zero, 256)) ||
	    !CHECK(!memcmp(p.buf + RECV_AT + 64 * (POSTED - 1), zero,
			     64 * (SPARE + 2))))
		goto out;
	/* and it goes on: its next SEND takes B's next receive */
	if (!send_ok(&p, 300, 64, 200 + POSTED - 1) ||
	    !CHECK(!memcmp(p.buf + RECV_AT + 64 * (POSTED - 1), p.buf + 64, 64)))
		goto out;
	rc = quiet(&p) ? KSFT_PASS : KSFT_FAIL;
out:
	return finish(&p, out, rc);
}

/*
 * The attacker, nobody: its own pair, working; the victim's QP numbers
 * (and its own A's, past what it posted) stored into its own doorbell
 * with each forged counter.  It gets no completion, and goes on working.
 */
static int attacker(struct board *b, int in, int out)
{
	uint32_t qpn[3];
	uint64_t *db;
	struct pair p = {};
	unsigned int i, j;
	int rc = pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7);

	if (rc != KSFT_PASS)
		goto out;
	rc = KSFT_FAIL;
	db = doorbell(&p);
	if (!db || !CHECK_ERR(post_recv(&p, 1, RECV_AT, 64), 0) ||
	    !send_ok(&p, 1, 0, 1))
		goto out;
	b->own_qpn = p.qp[0]->qp_num;
	go(out);
	if (!await(in))
		goto out;
	qpn[0] = b->victim_qpn[0];
	qpn[1] = b->victim_qpn[1];
	qpn[2] = p.qp[0]->qp_num;
	for (i = 0; i < MT_ARRAY_SIZE(qpn); i++)
		for (j = 0; j < MT_ARRAY_SIZE(forged); j++) {
			/* one 8-byte MOV, as mmio_write64_be() */
			__atomic_store_n(db, forge(qpn[i], forged[j]),
					 __ATOMIC_RELAXED);
			b->stores++;
		}
	usleep(50 * 1000);
	if (!quiet(&p))
		goto out;
	go(out);
	if (!await(in))
		goto out;
	/* its own QP went on from where its doorbell record is */
	if (!CHECK_ERR(post_recv(&p, 2, RECV_AT, 64), 0) ||
	    !send_ok(&p, 2, 64, 2))
		goto out;
	rc = quiet(&p) ? KSFT_PASS : KSFT_FAIL;
out:
	return finish(&p, out, rc);
}

/*
 * @fn in a child, as nobody if @nobody; its pid.  The child closes every
 * pipe end of @fds but @in and @out: a copy of another's kept open would
 * hide that process's end (its exit) from whoever waits on that pipe.
 */
static pid_t spawn(bool nobody, int (*fn)(struct board *, int, int),
		   struct board *b, int in, int out, const int *fds,
		   unsigned int nfds)
{
	unsigned int i;
	pid_t pid;

	fflush(stdout);
	pid = mt_fork();
	if (pid == 0) {
		int rc;

		for (i = 0; i < nfds; i++)
			if (fds[i] != in && fds[i] != out)
				close(fds[i]);
		rc = !nobody || mt_drop_to(MT_UID_NOBODY, 0) ?
		     fn(b, in, out) : 100;

		if (mt_case_failures())
			rc = MT_CHILD_FAILED;
		fflush(stdout);
		_exit(rc);
	}
	return pid;
}

/*
 * The attack, on a victim that is root (@nobody false) or another
 * nobody.  The model must have heard every forged store (each traps:
 * the page stays unmapped), fw/datapath counting each a served doorbell.
 */
static int attack(bool nobody)
{
	int v2p[2], p2v[2], x2p[2], p2x[2], fds[8], rv, rx;
	struct board *b;
	long long rungs;
	pid_t v, x;

	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(b != MAP_FAILED) || !CHECK_ERR(pipe(v2p), 0) ||
	    !CHECK_ERR(pipe(p2v), 0) || !CHECK_ERR(pipe(x2p), 0) ||
	    !CHECK_ERR(pipe(p2x), 0))
		return KSFT_FAIL;
	signal(SIGPIPE, SIG_IGN);
	memcpy(fds, v2p, sizeof(v2p));
	memcpy(fds + 2, p2v, sizeof(p2v));
	memcpy(fds + 4, x2p, sizeof(x2p));
	memcpy(fds + 6, p2x, sizeof(p2x));
	v = spawn(nobody, victim, b, p2v[0], v2p[1], fds, MT_ARRAY_SIZE(fds));
	x = spawn(true, attacker, b, p2x[0], x2p[1], fds, MT_ARRAY_SIZE(fds));
	close(v2p[1]);
	close(x2p[1]);
	close(p2v[0]);
	close(p2x[0]);
	if (await(v2p[0]) && await(x2p[0])) {
		rungs = mt_dp_figure(NULL, "passes ", "rungs");
		go(p2x[1]);
		if (await(x2p[0])) {
			rungs = mt_dp_figure(NULL, "passes ", "rungs") - rungs;
			printf("# %d forged doorbells, %lld served\n",
			       b->stores, rungs);
			CHECK_EQ(b->stores, 3 * (int)MT_ARRAY_SIZE(forged));
			CHECK_EQ(rungs, b->stores);
		}
		go(p2v[1]);
		go(p2x[1]);
	}
	close(p2v[1]);
	close(p2x[1]);
	rv = mt_reap(v);
	rx = mt_reap(x);
	CHECK_EQ(rv, KSFT_PASS);
	CHECK_EQ(rx, KSFT_PASS);
	munmap(b, sizeof(*b));
	return rv == KSFT_SKIP && rx == KSFT_SKIP ? KSFT_SKIP :
	       rv == KSFT_PASS && rx == KSFT_PASS ? KSFT_PASS : KSFT_FAIL;
}

/* nobody forges doorbells naming root's QPs */
static int test_forged_doorbell_root_victim(void)
{
	return attack(false);
}

/* nobody forges doorbells naming another nobody's QPs */
static int test_forged_doorbell_nobody_victim(void)
{
	return attack(true);
}

static const struct mt_case cases[] = {
	MT_CASE(forged_doorbell_root_victim,
		.flags = MT_NEEDS_ROOT | MT_NEEDS_MODEL),
	MT_CASE(forged_doorbell_nobody_victim,
		.flags = MT_NEEDS_ROOT | MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
