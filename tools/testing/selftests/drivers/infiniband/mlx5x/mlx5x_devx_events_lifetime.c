// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX events across processes and lifetimes: an event reaches the
 * subscriptions of its own process only (a CQ's event its owner, an
 * unaffiliated one every process with its own cookie), a channel closed
 * with events queued and subscriptions live, a channel that outlives its
 * context, and device removal under a blocked reader.  Events are raised
 * by the firmware model (fw/raise_event).  The event FD's own rules are
 * mlx5x_devx_events'.
 */
#define _GNU_SOURCE
#include <signal.h>
#include "mlx5x_fixtures.h"
#include "mlx5x_devx_events.h"

/*
 * A DEVX context (mt_ctx_open()), with the channel and the CQ a case
 * makes on it; the teardown frees what there is, then mt_ctx_close().
 */
struct devx {
	struct mt_ctx c;
	struct mlx5dv_devx_event_channel *ch;
	struct cq cq;
};

MT_FIXTURE(devx);

MT_FIXTURE_SETUP(devx)
{
	return mt_ctx_open(&self->c, MT_OPEN_DEVX) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(devx)
{
	if (self->ch)
		mlx5dv_devx_destroy_event_channel(self->ch);
	cq_free(&self->cq);
	mt_ctx_close(&self->c);
}

/*
 * Two processes, each with a CQ subscribed: an event of one CQ reaches
 * only its owner, whatever the other subscribed to.
 */
MT_TEST_F(devx, affiliated_isolation)
{
	struct mlx5dv_devx_event_channel *ch;
	int to_child[2], to_parent[2];
	struct cq *cq = &self->cq;
	uint32_t their_cqn = 0;
	struct event ev;
	pid_t pid;
	int rc = need_cq(self->c.ctx, cq);

	if (rc != KSFT_PASS)
		return rc;
	self->ch = channel(self->c.ctx, 0);
	ch = self->ch;
	if (!ch || !CHECK_EQ(pipe(to_child), 0) ||
	    !CHECK_EQ(pipe(to_parent), 0))
		return KSFT_FAIL;
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, cq->obj, EV_CQ_ERROR, 0xe0), 0);
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *c2 = mt_open(MT_OPEN_DEVX, NULL);
		struct mlx5dv_devx_event_channel *ch2;
		uint16_t t = EV_CQ_ERROR;
		struct cq cq2;
		struct event e2;
		struct pollfd p;
		char c = 0;
		int bad = 0;

		close(to_child[1]);
		close(to_parent[0]);
		if (!c2 || cq_create(c2, &cq2))
			_exit(2);
		ch2 = mlx5dv_devx_create_event_channel(c2, 0);
		if (!ch2 || mlx5dv_devx_subscribe_devx_event(ch2, cq2.obj,
							     sizeof(t), &t,
							     0xe1))
			_exit(3);
		if (write(to_parent[1], &cq2.cqn, sizeof(cq2.cqn)) !=
		    sizeof(cq2.cqn))
			_exit(4);
		/* parent raised on its own CQ, then on ours */
		if (read(to_child[0], &c, 1) != 1)
			_exit(5);
		/*
		 * The raise may have failed (the sweep's fault): wait, but not
		 * for ever; the channel blocks, and so would its read.
		 */
		p = (struct pollfd){ .fd = ch2->fd, .events = POLLIN };
		if (poll(&p, 1, EVENT_WAIT_MS) != 1)
			_exit(7);
		bad |= mlx5dv_devx_get_event(ch2, (void *)&e2, sizeof(e2)) !=
		       sizeof(e2);
		bad |= e2.cookie != 0xe1;
		bad |= mt_get(e2.eqe, PRM_EQE_EVENT_DATA_CQ_ERROR_CQN) !=
		       cq2.cqn;
		/* and nothing else: the parent's event never came here */
		bad |= poll(&p, 1, 100) != 0;
		mlx5dv_devx_destroy_event_channel(ch2);
		mlx5dv_devx_obj_destroy(cq2.obj);
		mlx5dv_devx_umem_dereg(cq2.umem);
		mlx5dv_devx_free_uar(cq2.uar);
		ibv_close_device(c2);
		_exit(bad ? 6 : 0);
	}
	/* a child that ends early ends the reads below: EOF */
	close(to_child[0]);
	close(to_parent[1]);
	to_child[0] = to_parent[1] = -1;
	if (!CHECK(pid > 0))
		goto out;
	CHECK_EQ(read(to_parent[0], &their_cqn, sizeof(their_cqn)),
		 sizeof(their_cqn));
	CHECK(their_cqn != cq->cqn);
	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq->cqn), 0);
	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", their_cqn), 0);
	CHECK_EQ(write(to_child[1], "g", 1), 1);
	CHECK_EQ(mt_reap(pid), 0);
	/* ours got its own event only */
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0xe0);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_CQ_ERROR_CQN), cq->cqn);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
out:
	close(to_child[1]);
	close(to_parent[0]);
	return KSFT_PASS;
}

/*
 * Unaffiliated events reach every subscriber, in every process; a process
 * reads only its own subscriptions' cookies.
 */
MT_TEST_F(devx, two_processes)
{
	struct mlx5dv_devx_event_channel *ch;
	int ready[2], go[2];
	struct event ev;
	char c = 0;
	pid_t pid;

	self->ch = channel(self->c.ctx, 0);
	ch = self->ch;
	if (!ch || !CHECK_EQ(pipe(ready), 0) || !CHECK_EQ(pipe(go), 0))
		return KSFT_FAIL;
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0x1), 0);
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *c2 = mt_open(MT_OPEN_DEVX, NULL);
		struct mlx5dv_devx_event_channel *ch2;
		uint16_t t = EV_PORT_CHANGE;
		struct pollfd p;
		struct event e2;
		int bad = 0;

		close(ready[0]);
		close(go[1]);
		if (!c2)
			_exit(2);
		ch2 = mlx5dv_devx_create_event_channel(c2, 0);
		if (!ch2 || mlx5dv_devx_subscribe_devx_event(ch2, NULL,
							     sizeof(t), &t,
							     0x2))
			_exit(3);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(4);
		/* the parent's raise may have failed: wait, but not forever */
		p = (struct pollfd){ .fd = ch2->fd, .events = POLLIN };
		if (poll(&p, 1, EVENT_WAIT_MS) != 1)
			_exit(5);
		bad |= mlx5dv_devx_get_event(ch2, (void *)&e2, sizeof(e2)) !=
		       sizeof(e2);
		bad |= e2.cookie != 0x2 ||
		       mt_get(e2.eqe, PRM_EQE_EVENT_TYPE) != EV_PORT_CHANGE;
		mlx5dv_devx_destroy_event_channel(ch2);
		ibv_close_device(c2);
		_exit(bad);
	}
	/* a child that ends early ends the read below: EOF */
	close(ready[1]);
	close(go[0]);
	if (!CHECK(pid > 0))
		goto out;
	CHECK_EQ(read(ready[0], &c, 1), 1);
	CHECK_ERR(raise_event("0x9 4"), 0);
	CHECK_EQ(write(go[1], &c, 1), 1);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0x1);
	CHECK_EQ(mt_reap(pid), 0);
	set_nonblock(ch);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
out:
	close(ready[0]);
	close(go[1]);
	return KSFT_PASS;
}

/* Closing with events queued and subscriptions live frees it all. */
MT_TEST_F(devx, close_pending)
{
	unsigned int flags[] = {
		0, MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA,
	};
	unsigned int f, i;

	for (f = 0; f < MT_ARRAY_SIZE(flags); f++) {
		struct mlx5dv_devx_event_channel *ch;

		ch = channel(self->c.ctx, flags[f]);
		if (!ch)
			return KSFT_FAIL;
		for (i = 0; i < 4; i++)
			CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, i), 0);
		for (i = 0; i < 8; i++)
			CHECK_ERR(raise_event("0x9 4"), 0);
		mlx5dv_devx_destroy_event_channel(ch);
	}
	/* and events after it reach nothing */
	CHECK_ERR(raise_event("0x9 1"), 0);
	return KSFT_PASS;
}

/* A context closed with its channel open: the channel reads EIO. */
MT_TEST_F(devx, context_closed)
{
	struct mlx5dv_devx_event_channel *ch;
	struct event ev;
	int fd;

	ch = mlx5dv_devx_create_event_channel(self->c.ctx, 0);
	if (!CHECK(ch))
		return KSFT_FAIL;
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 9), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	fd = dup(ch->fd);
	mlx5dv_devx_destroy_event_channel(ch);
	CHECK_EQ(ibv_close_device(self->c.ctx), 0);
	self->c.ctx = NULL;
	if (CHECK(fd >= 0)) {
		CHECK_EQ(read(fd, &ev, sizeof(ev)), -1);
		CHECK_EQ(errno, EIO);
		close(fd);
	}
	CHECK_ERR(raise_event("0x9 4"), 0);
	return KSFT_PASS;
}

/*
 * `rdma link delete` under a blocked reader wakes it with EIO.  The
 * reader closes its context only once the deletion is over: 6.1's
 * munmap(2) unmaps under a downgraded mmap lock, and ib_uverbs zaps the
 * mappings of a context it disassociates under the same read lock, so
 * the two can race in x86 PAT's untracking of the same mapping
 * (WARN_ON_ONCE in get_pat_info(); Documentation/reliability.rst).  This
 * process holds no context of the device.
 */
static int test_removal_wakes_reader(void)
{
	int ready[2], gone[2];
	char c = 0;
	pid_t pid;

	if (!CHECK_EQ(pipe(ready), 0))
		return KSFT_FAIL;
	if (!CHECK_EQ(pipe(gone), 0)) {
		close(ready[0]);
		close(ready[1]);
		return KSFT_FAIL;
	}
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *c2 = mt_open(MT_OPEN_DEVX, NULL);
		struct mlx5dv_devx_event_channel *ch2;
		uint16_t t = EV_PORT_CHANGE;
		struct event e2;
		ssize_t n;

		close(ready[0]);
		close(gone[1]);
		if (!c2)
			_exit(2);
		ch2 = mlx5dv_devx_create_event_channel(c2, 0);
		if (!ch2 || mlx5dv_devx_subscribe_devx_event(ch2, NULL,
							     sizeof(t), &t, 1))
			_exit(3);
		if (write(ready[1], &c, 1) != 1)
			_exit(4);
		n = mlx5dv_devx_get_event(ch2, (void *)&e2, sizeof(e2));
		if (n != -1 || errno != EIO)
			_exit(5);
		/* the deletion is over (or failed) when this ends */
		if (read(gone[0], &c, 1) < 0)
			_exit(6);
		mlx5dv_devx_destroy_event_channel(ch2);
		ibv_close_device(c2);
		_exit(0);
	}
	/* a child that ends early ends the read below: EOF */
	close(ready[1]);
	close(gone[0]);
	if (!CHECK(pid > 0)) {
		close(ready[0]);
		close(gone[1]);
		return KSFT_FAIL;
	}
	CHECK_EQ(read(ready[0], &c, 1), 1);
	close(ready[0]);
	usleep(200 * 1000);		/* let it block in read(2) */
	/* undeleted, nothing would wake the reader */
	if (!CHECK_EQ(mt_sh("rdma link delete %s", mt.dev_name), 0))
		kill(pid, SIGKILL);
	close(gone[1]);
	CHECK_EQ(mt_reap(pid), 0);
	/* the cases after need the device: a second try if the first failed */
	if (!CHECK_EQ(mt_sh("rdma link add %s type mlx5x netdev %s",
			    mt.dev_name, mt.netdev), 0))
		mt_sh("rdma link add %s type mlx5x netdev %s", mt.dev_name,
		      mt.netdev);
	CHECK_EQ(mt_refresh_device(), 0);
	return KSFT_PASS;
}

/* Every case raises events through the model, or removes it. */
static const struct mt_case cases[] = {
	MT_CASE_F(devx, affiliated_isolation, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(devx, two_processes, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(devx, close_pending, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(devx, context_closed, .flags = MT_NEEDS_MODEL),
	MT_CASE(removal_wakes_reader,
		.flags = MT_NEEDS_MODEL | MT_NEEDS_NETDEV,
		.unswept = "the device going away is its subject"),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
