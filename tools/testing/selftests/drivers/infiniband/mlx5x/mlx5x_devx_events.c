// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX events on one context: mlx5dv_devx_create_event_channel(3),
 * mlx5dv_devx_subscribe_devx_event(3) and _fd, mlx5dv_devx_get_event(3),
 * with events raised by the firmware model (fw/raise_event), or on
 * hardware by the port going down and up.
 *
 * The event FD's rules (one event per read, the cookie then the EQE, or
 * the cookie alone with OMIT_DATA and coalesced repeats; poll, O_NONBLOCK,
 * a bounded queue that reports EOVERFLOW once), subscription checks (event
 * numbers, the capability masks, the object's kind, a per-context limit),
 * PORT_CHANGE as the netdev goes down and up, eventfd redirection and the
 * events of a CQ.  Other processes, closing and device removal are
 * mlx5x_devx_events_lifetime's.
 */
#define _GNU_SOURCE
#include <sys/eventfd.h>
#include "mlx5x_devx_events.h"
#include "mlx5x_queues.h"

#define CAP_DEV_EVENT		0x14
#define CAP_AFF_OFF	PRM_DEVICE_EVENT_CAP_USER_AFFILIATED_EVENTS_OFF
#define CAP_UNAFF_OFF	PRM_DEVICE_EVENT_CAP_USER_UNAFFILIATED_EVENTS_OFF

/* the driver's bounds: module parameters (limits.c) */
#define QUEUE_MAX_PARAM		"max_events_queued"
#define SUBS_MAX_PARAM		"max_event_subs"
#define TYPES_PER_CALL		16

/* the context the cases share, from setup to teardown */
static struct ibv_context *ctx;

static int test_setup(void)
{
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static int no_ctx(void)
{
	return mt_skip("no context (setup skipped)");
}

/*
 * An event channel on the shared context (the case skips without it) and
 * the CQ a case makes on it; the teardown frees what there is.  chan's
 * channel reads whole events, omit's the cookies alone (OMIT_EV_DATA).
 */
struct chan {
	struct mlx5dv_devx_event_channel *ch;
	struct cq cq;
};

struct omit {
	struct mlx5dv_devx_event_channel *ch;
	struct cq cq;
};

static int chan_open(struct mlx5dv_devx_event_channel **ch,
		     unsigned int flags)
{
	if (!ctx)
		return no_ctx();
	*ch = channel(ctx, flags);
	return *ch ? KSFT_PASS : KSFT_FAIL;
}

static void chan_close(struct mlx5dv_devx_event_channel *ch, struct cq *cq)
{
	if (ch)
		mlx5dv_devx_destroy_event_channel(ch);
	cq_free(cq);
}

MT_FIXTURE(chan);

MT_FIXTURE_SETUP(chan)
{
	return chan_open(&self->ch, 0);
}

MT_FIXTURE_TEARDOWN(chan)
{
	chan_close(self->ch, &self->cq);
}

MT_FIXTURE(omit);

MT_FIXTURE_SETUP(omit)
{
	return chan_open(&self->ch,
			 MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA);
}

MT_FIXTURE_TEARDOWN(omit)
{
	chan_close(self->ch, &self->cq);
}

static bool mask_has(const void *page, unsigned int off, unsigned int type)
{
	return mt_get(page, MT_FIELD(off + type / 64 * 64 + 63 - type % 64,
				     1));
}

/* The profile advertises what the model raises. */
static int test_caps(void)
{
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_BYTES] = {};
	const void *cap = mt_cap_page(out);

	if (!ctx)
		return no_ctx();
	if (!CHECK_EQ(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1),
				       out), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_get(cap, PRM_CMD_HCA_CAP_EVENT_CAP), 1);
	if (!CHECK_EQ(mt_query_hca_cap(ctx, MT_CAP_OPMOD(CAP_DEV_EVENT, 1),
				       out), 0))
		return KSFT_FAIL;
	CHECK(mask_has(cap, CAP_UNAFF_OFF, EV_PORT_CHANGE));
	CHECK(!mask_has(cap, CAP_AFF_OFF, EV_PORT_CHANGE));
	CHECK(mask_has(cap, CAP_AFF_OFF, EV_CQ_ERROR));
	CHECK(mask_has(cap, CAP_AFF_OFF, EV_WQ_CATAS_ERROR));
	CHECK(!mask_has(cap, CAP_AFF_OFF, EV_NOT_RAISED));
	CHECK(!mask_has(cap, CAP_UNAFF_OFF, EV_NOT_RAISED));
	return KSFT_PASS;
}

/* Subscribe, raise, read: the cookie, then the EQE as the model built it. */
MT_TEST_F(chan, unaffiliated)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	long long before = mt_fw_stat("events");
	uint8_t want[EQE_BYTES] = {};
	struct event ev;

	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0x1122334455667788ULL),
		  0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	CHECK_EQ(mt_fw_stat("events"), before + 1);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0x1122334455667788ULL);
	mt_set(want, PRM_EQE_EVENT_TYPE, EV_PORT_CHANGE);
	mt_set(want, PRM_EQE_EVENT_SUB_TYPE, PORT_ACTIVE);
	mt_set(want, PRM_EQE_EVENT_DATA_PORT_STATE_CHANGE_EVENT_PORT_NUM, 1);
	CHECK_EQ(memcmp(ev.eqe, want, sizeof(want)), 0);

	CHECK_ERR(raise_event("0x9 1"), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_SUB_TYPE), PORT_DOWN);
	set_nonblock(ch);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	return KSFT_PASS;
}

/* The port following its netdev down and up raises PORT_CHANGE. */
MT_TEST_F(chan, port_change)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct pollfd p;
	struct event ev;

	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0x99), 0);
	CHECK_ERR(mt_netdev_set(&(struct mt_link){ .up = MT_OFF }), 0);
	p = (struct pollfd){ .fd = ch->fd, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 2000), 1);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0x99);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_TYPE), EV_PORT_CHANGE);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_SUB_TYPE), PORT_DOWN);
	CHECK_EQ(mt_get(ev.eqe,
			PRM_EQE_EVENT_DATA_PORT_STATE_CHANGE_EVENT_PORT_NUM), 1);
	CHECK_ERR(mt_netdev_set_up(), 0);
	CHECK_EQ(poll(&p, 1, 2000), 1);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_SUB_TYPE), PORT_ACTIVE);
	/* no transition, no event */
	CHECK_ERR(mt_netdev_set_up(), 0);
	CHECK_EQ(poll(&p, 1, 100), 0);
	return KSFT_PASS;
}

/* A buffer too small for one event is refused and the event kept. */
MT_TEST_F(chan, short_buffer)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct event ev;
	ssize_t n;

	/* with no event queued (a step failed) the short read must not block */
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 7), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	n = mlx5dv_devx_get_event(ch, (void *)&ev, sizeof(ev) - 1);
	CHECK_EQ(n, -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 7);
	return KSFT_PASS;
}

/* OMIT_DATA: the cookie alone; repeats coalesce per subscription. */
MT_TEST_F(omit, omit_data)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	uint64_t seen = 0;
	struct event ev;
	int i;

	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0xa), 0);
	for (i = 0; i < 3; i++)
		CHECK_ERR(raise_event("0x9 4"), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(uint64_t));
	CHECK_EQ(ev.cookie, 0xa);
	CHECK_EQ(ev.eqe[0], 0xa5);		/* nothing beyond the cookie */
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);

	/* two subscriptions of the same event: one cookie each */
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0xb), 0);
	CHECK_ERR(raise_event("0x9 1"), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	for (i = 0; i < 2; i++) {
		CHECK_EQ(get_event(ch, &ev), sizeof(uint64_t));
		seen |= 1ULL << (ev.cookie & 63);
	}
	CHECK_EQ(seen, 1ULL << 0xa | 1ULL << 0xb);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	return KSFT_PASS;
}

/* poll(2) times out with nothing queued and wakes for an event. */
MT_TEST_F(chan, poll)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct pollfd p;
	struct event ev;

	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 1), 0);
	p = (struct pollfd){ .fd = ch->fd, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 100), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	p.revents = 0;
	CHECK_EQ(poll(&p, 1, 1000), 1);
	CHECK(p.revents & POLLIN);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	p.revents = 0;
	CHECK_EQ(poll(&p, 1, 50), 0);
	return KSFT_PASS;
}

/* A reader blocked in read(2) is woken by the event. */
MT_TEST_F(chan, blocking_read)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct event ev;
	pid_t pid;

	if (!CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0x77), 0))
		return KSFT_FAIL;
	pid = mt_fork();
	if (pid == 0) {
		int err;

		usleep(200 * 1000);
		err = raise_event("0x9 4");
		/*
		 * A raise that failed (the sweep's fault, which follows this
		 * process) is made again, or the reader would block for ever;
		 * the case still fails on the status.
		 */
		if (err)
			raise_event("0x9 4");
		_exit(err ? 1 : 0);
	}
	/* without the subscription or the raiser nothing would wake it */
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	/* the read itself, not get_event(): blocking in it is the subject */
	memset(&ev, 0, sizeof(ev));
	CHECK_EQ(mlx5dv_devx_get_event(ch, (void *)&ev, sizeof(ev)),
		 sizeof(ev));
	CHECK_EQ(ev.cookie, 0x77);
	CHECK_EQ(mt_reap(pid), 0);
	return KSFT_PASS;
}

/*
 * Past the queue's bound (max_events_queued) events are lost: EOVERFLOW
 * once, then the rest.
 */
MT_TEST_F(chan, overflow)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	long i, max, ok = 0;
	struct event ev;

	if (!CHECK_ERR(mt_param_get(QUEUE_MAX_PARAM, &max), 0))
		return KSFT_FAIL;
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 3), 0);
	for (i = 0; i < max + 5; i++)
		if (!CHECK_ERR(raise_event("0x9 4"), 0))
			break;
	CHECK_EQ(get_event(ch, &ev), -EOVERFLOW);
	for (i = 0; i < max; i++)
		ok += get_event(ch, &ev) == sizeof(ev) && ev.cookie == 3;
	CHECK_EQ(ok, max);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	/* and it works again */
	CHECK_ERR(raise_event("0x9 1"), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_SUB_TYPE), PORT_DOWN);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	return KSFT_PASS;
}

/* Redirected to an eventfd: it is signalled, nothing is queued. */
MT_TEST_F(chan, eventfd)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct event ev;
	uint64_t count = 0;
	int efd;

	set_nonblock(ch);
	efd = eventfd(0, EFD_NONBLOCK);
	if (!CHECK(efd >= 0))
		return KSFT_FAIL;
	CHECK_ERR(mlx5dv_devx_subscribe_devx_event_fd(ch, efd, NULL,
						      EV_PORT_CHANGE), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	CHECK_ERR(raise_event("0x9 1"), 0);
	CHECK_EQ(read(efd, &count, sizeof(count)), sizeof(count));
	CHECK_EQ(count, 2);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	/* not an eventfd: refused */
	CHECK_ERR(mlx5dv_devx_subscribe_devx_event_fd(ch, ch->fd, NULL,
						      EV_PORT_CHANGE), EINVAL);
	CHECK_ERR(mlx5dv_devx_subscribe_devx_event_fd(ch, 9999, NULL,
						      EV_PORT_CHANGE), EBADF);
	close(efd);
	/* the subscription keeps its eventfd alive after close */
	CHECK_ERR(raise_event("0x9 4"), 0);
	return KSFT_PASS;
}

/* Event numbers out of range or not offered, or not for this use. */
MT_TEST_F(chan, bad_events)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	uint16_t many[TYPES_PER_CALL + 1];
	uint16_t mixed[] = { EV_PORT_CHANGE, EV_NOT_RAISED };
	struct event ev;
	unsigned int i;

	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, NULL, 0x100, 1), EINVAL);
	CHECK_ERR(subscribe(ch, NULL, 0xffff, 1), EINVAL);
	CHECK_ERR(subscribe(ch, NULL, EV_NOT_RAISED, 1), EINVAL);
	/* affiliated events need an object */
	CHECK_ERR(subscribe(ch, NULL, EV_CQ_ERROR, 1), EINVAL);
	CHECK_ERR(subscribe(ch, NULL, EV_COMP, 1), EINVAL);
	for (i = 0; i < MT_ARRAY_SIZE(many); i++)
		many[i] = EV_PORT_CHANGE;
	CHECK_ERR(mlx5dv_devx_subscribe_devx_event(ch, NULL, sizeof(many),
						   many, 1), EINVAL);
	CHECK_ERR(mlx5dv_devx_subscribe_devx_event(ch, NULL, 3, many, 1),
		  EINVAL);
	/* one bad number: nothing of the call is subscribed */
	CHECK_ERR(mlx5dv_devx_subscribe_devx_event(ch, NULL, sizeof(mixed),
						   mixed, 1), EINVAL);
	CHECK_ERR(raise_event("0x9 4"), 0);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	/* sixteen at once is fine */
	CHECK_ERR(mlx5dv_devx_subscribe_devx_event(ch, NULL,
						   TYPES_PER_CALL * 2, many,
						   5), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	for (i = 0; i < TYPES_PER_CALL; i++)
		CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	return KSFT_PASS;
}

/* Unknown channel flags are refused. */
static int test_bad_flags(void)
{
	struct mlx5dv_devx_event_channel *ch;

	if (!ctx)
		return no_ctx();
	errno = 0;
	ch = mlx5dv_devx_create_event_channel(ctx, 1U << 1);
	CHECK(!ch);
	CHECK_EQ(errno, EINVAL);
	if (ch)
		mlx5dv_devx_destroy_event_channel(ch);
	ch = mlx5dv_devx_create_event_channel(ctx, 1U << 31);
	CHECK(!ch);
	if (ch)
		mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/*
 * A context holds at most max_event_subs subscriptions; closing frees
 * them.
 */
MT_TEST_F(chan, subscription_limit)
{
	struct mlx5dv_devx_event_channel *ch2;
	uint16_t types[TYPES_PER_CALL];
	long i, n, max, ok = 0;

	if (!CHECK_ERR(mt_param_get(SUBS_MAX_PARAM, &max), 0))
		return KSFT_FAIL;
	for (i = 0; i < (long)MT_ARRAY_SIZE(types); i++)
		types[i] = EV_PORT_CHANGE;
	/* up to the limit, TYPES_PER_CALL at a time */
	for (i = 0; i < max; i += n) {
		n = max - i < TYPES_PER_CALL ? max - i : TYPES_PER_CALL;
		if (!mlx5dv_devx_subscribe_devx_event(self->ch, NULL,
						      n * sizeof(types[0]),
						      types, i))
			ok += n;
	}
	CHECK_EQ(ok, max);
	CHECK_ERR(subscribe(self->ch, NULL, EV_PORT_CHANGE, 0), ENOSPC);
	ch2 = channel(ctx, 0);
	if (ch2) {
		/* per context: another channel of it is no way round */
		CHECK_ERR(subscribe(ch2, NULL, EV_PORT_CHANGE, 0), ENOSPC);
		mlx5dv_devx_destroy_event_channel(ch2);
	}
	/* one event reaches every subscription */
	if (mt_sim())
		CHECK_ERR(raise_event("0x9 4"), 0);
	mlx5dv_devx_destroy_event_channel(self->ch);
	self->ch = channel(ctx, 0);
	if (!self->ch)
		return KSFT_FAIL;
	CHECK_ERR(subscribe(self->ch, NULL, EV_PORT_CHANGE, 0), 0);
	return KSFT_PASS;
}

static struct mlx5dv_devx_obj *q_counter(struct ibv_context *c)
{
	uint32_t in[4] = {}, out[4] = {};
	struct mlx5dv_devx_obj *obj;

	mt_set(in, PRM_IN_OPCODE, PRM_OP_ALLOC_Q_COUNTER);
	obj = mlx5dv_devx_obj_create(c, in, sizeof(in), out, sizeof(out));
	CHECK(obj);
	return obj;
}

/*
 * Affiliated events name an object of a kind they apply to: none applies
 * to a Q counter.  Unaffiliated events take no object.
 */
MT_TEST_F(chan, affiliated_wrong_kind)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct mlx5dv_devx_obj *obj = q_counter(ctx);

	if (!obj)
		return KSFT_FAIL;
	CHECK_ERR(subscribe(ch, obj, EV_CQ_ERROR, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, EV_COMP, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, EV_WQ_CATAS_ERROR, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, EV_PORT_CHANGE, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, 0x100, 1), EINVAL);
	CHECK_ERR(mlx5dv_devx_obj_destroy(obj), 0);
	return KSFT_PASS;
}

/*
 * Affiliated events of a CQ: CQ error and completion reach its
 * subscriptions with the cqn where the PRM puts it; QP events and
 * unaffiliated ones cannot be subscribed on it.
 */
MT_TEST_F(chan, affiliated_right_kind)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct cq *cq = &self->cq;
	struct event ev;
	int rc = need_cq(ctx, cq);

	if (rc != KSFT_PASS)
		return rc;
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, cq->obj, EV_CQ_ERROR, 0xc0), 0);
	CHECK_ERR(subscribe(ch, cq->obj, EV_COMP, 0xc1), 0);
	CHECK_ERR(subscribe(ch, cq->obj, EV_WQ_CATAS_ERROR, 1), EINVAL);
	CHECK_ERR(subscribe(ch, cq->obj, EV_PORT_CHANGE, 1), EINVAL);
	CHECK_ERR(subscribe(ch, cq->obj, EV_NOT_RAISED, 1), EINVAL);

	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq->cqn), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0xc0);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_TYPE), EV_CQ_ERROR);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_CQ_ERROR_CQN), cq->cqn);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	CHECK_ERR(raise_on(EV_COMP, "cq", cq->cqn), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0xc1);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_COMP_EVENT_CQ_NUMBER),
		 cq->cqn);
	/* an unaffiliated event does not reach an object's subscription */
	CHECK_ERR(raise_event("0x9 4"), 0);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	return KSFT_PASS;
}

/*
 * Destroying the object drops its subscriptions: nothing more arrives,
 * not even for a new CQ that gets the same number.
 */
MT_TEST_F(omit, object_destroyed)
{
	struct mlx5dv_devx_event_channel *ch = self->ch;
	struct cq *cq = &self->cq;
	struct event ev;
	uint32_t cqn;
	int rc = need_cq(ctx, cq);

	if (rc != KSFT_PASS)
		return rc;
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, cq->obj, EV_CQ_ERROR, 0xd0), 0);
	/* pending when the object goes: it goes with it */
	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq->cqn), 0);
	cqn = cq->cqn;
	cq_free(cq);
	CHECK_EQ(raise_on(EV_CQ_ERROR, "cq", cqn), -ENOENT);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	if (need_cq(ctx, cq) == KSFT_PASS) {
		if (cq->cqn != cqn)
			mt_diag("new CQ 0x%x, old 0x%x", cq->cqn, cqn);
		CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq->cqn), 0);
		CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	}
	return KSFT_PASS;
}

/*
 * An RQ made through DEVX: its WQ catastrophic error (the event a verbs
 * WQ reports as WQ_FATAL, a RAW_PACKET QP as QP_FATAL) reaches its
 * subscription with the RQ's number and the queue type RQ, as the PRM
 * lays out qp_events; a CQ's events cannot be subscribed on it, and once
 * it is destroyed nothing is raised on its number.
 */
static int test_rq_catas(void)
{
	struct mlx5dv_devx_event_channel *ch = NULL;
	struct mq_obj cq = {}, rq = {};
	struct event ev;
	uint32_t rqn;
	struct mq q;

	if (!mq_open(&q) || !mq_cq(&q, &cq) || !mq_rq(&q, cq.id, &rq))
		goto out;
	ch = channel(q.ctx, 0);
	if (!ch)
		goto out;
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, rq.obj, EV_WQ_CATAS_ERROR, 0xe0), 0);
	CHECK_ERR(subscribe(ch, rq.obj, EV_CQ_ERROR, 1), EINVAL);
	CHECK_ERR(raise_on(EV_WQ_CATAS_ERROR, "rq", rq.id), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0xe0);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_TYPE), EV_WQ_CATAS_ERROR);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_QP_EVENTS_TYPE), 1);	/* RQ */
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_QP_EVENTS_QPN_RQN_SQN),
		 rq.id);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	rqn = rq.id;
	CHECK_ERR(mlx5dv_devx_obj_destroy(rq.obj), 0);
	rq.obj = NULL;
	CHECK_EQ(raise_on(EV_WQ_CATAS_ERROR, "rq", rqn), -ENOENT);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
out:
	if (ch)
		mlx5dv_devx_destroy_event_channel(ch);
	if (rq.obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(rq.obj), 0);
	if (cq.obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	mq_close(&q);
	return KSFT_PASS;
}

static int test_teardown(void)
{
	if (ctx)
		CHECK_EQ(ibv_close_device(ctx), 0);
	ctx = NULL;
	return KSFT_PASS;
}

/*
 * The cases that need the model raise events through it or check its
 * profile (which events it raises, which not); the others run on hardware
 * as well.
 */
static const struct mt_case cases[] = {
	MT_CASE(setup, .flags = MT_SHARED),
	MT_CASE(caps, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(chan, unaffiliated, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(chan, port_change, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(chan, short_buffer, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(omit, omit_data, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(chan, poll, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(chan, blocking_read, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(chan, overflow, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(chan, eventfd, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(chan, bad_events, .flags = MT_NEEDS_MODEL),
	MT_CASE(bad_flags),
	MT_CASE_F(chan, subscription_limit),
	MT_CASE_F(chan, affiliated_wrong_kind),
	MT_CASE_F(chan, affiliated_right_kind, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(omit, object_destroyed, .flags = MT_NEEDS_MODEL),
	MT_CASE(rq_catas, .flags = MT_NEEDS_MODEL),
	MT_CASE(teardown),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
