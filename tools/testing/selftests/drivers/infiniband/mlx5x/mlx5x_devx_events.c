// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX events: mlx5dv_devx_create_event_channel(3),
 * mlx5dv_devx_subscribe_devx_event(3) and _fd, mlx5dv_devx_get_event(3),
 * with events raised by the firmware model (fw/raise_event), or on
 * hardware by the port going down and up.
 *
 * The event FD's rules (one event per read, the cookie then the EQE, or
 * the cookie alone with OMIT_DATA and coalesced repeats; poll, O_NONBLOCK,
 * a bounded queue that reports EOVERFLOW once), subscription checks (event
 * numbers, the capability masks, the object's kind, a per-context limit),
 * PORT_CHANGE as the netdev goes down and up, eventfd redirection, two processes, close with events pending and
 * device removal under a blocked reader.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

/* PRM event types and PORT_CHANGE sub types (<linux/mlx5/device.h>). */
#define EV_COMP			0x00
#define EV_CQ_ERROR		0x04
#define EV_WQ_CATAS_ERROR	0x05
#define EV_PORT_CHANGE		0x09
#define EV_NOT_RAISED		0x06
#define PORT_DOWN		1
#define PORT_ACTIVE		4

#define EQE_BYTES		PRM_EQE_BYTES
#define CAP_DEV_EVENT		0x14
#define CAP_AFF_OFF	PRM_DEVICE_EVENT_CAP_USER_AFFILIATED_EVENTS_OFF
#define CAP_UNAFF_OFF	PRM_DEVICE_EVENT_CAP_USER_UNAFFILIATED_EVENTS_OFF

/* how long a read waits for an event that should be there already */
#define EVENT_WAIT_MS		5000
/* the driver's bounds: module parameters (limits.c) */
#define QUEUE_MAX_PARAM		"max_events_queued"
#define SUBS_MAX_PARAM		"max_event_subs"
#define TYPES_PER_CALL		16

struct event {
	uint64_t cookie;
	uint8_t eqe[EQE_BYTES];
};

static struct ibv_context *ctx;

static int raise_event(const char *line)
{
	return mt_fw_write("raise_event", line);
}

static int setup(void)
{
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static struct mlx5dv_devx_event_channel *channel(unsigned int flags)
{
	struct mlx5dv_devx_event_channel *ch;

	ch = mlx5dv_devx_create_event_channel(ctx, flags);
	CHECK(ch);
	return ch;
}

static int subscribe(struct mlx5dv_devx_event_channel *ch,
		     struct mlx5dv_devx_obj *obj, uint16_t type,
		     uint64_t cookie)
{
	return mlx5dv_devx_subscribe_devx_event(ch, obj, sizeof(type), &type,
						cookie);
}

static void set_nonblock(struct mlx5dv_devx_event_channel *ch)
{
	CHECK_EQ(fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK),
		 0);
}

/*
 * One read; returns its length, or -errno.  On a blocking channel it waits
 * at most EVENT_WAIT_MS (then -ETIMEDOUT): when a step before it failed,
 * as under the fault sweep, the event never comes and the case must fail,
 * not hang.
 */
static ssize_t get_event(struct mlx5dv_devx_event_channel *ch,
			 struct event *ev)
{
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };
	ssize_t n;

	if (!(fcntl(ch->fd, F_GETFL) & O_NONBLOCK) &&
	    poll(&p, 1, EVENT_WAIT_MS) == 0)
		return -ETIMEDOUT;
	memset(ev, 0xa5, sizeof(*ev));
	n = mlx5dv_devx_get_event(ch,
				  (struct mlx5dv_devx_async_event_hdr *)ev,
				  sizeof(*ev));
	return n < 0 ? -errno : n;
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
static int test_unaffiliated(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	long long before = mt_fw_stat("events");
	uint8_t want[EQE_BYTES] = {};
	struct event ev;

	if (!ch)
		return KSFT_FAIL;
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
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* The port following its netdev down and up raises PORT_CHANGE. */
static int test_port_change(void)
{
	struct mlx5dv_devx_event_channel *ch;
	struct pollfd p;
	struct event ev;

	if (!mt.netdev)
		return mt_skip("MLX5X_NETDEV not set");
	ch = channel(0);
	if (!ch)
		return KSFT_FAIL;
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
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* A buffer too small for one event is refused and the event kept. */
static int test_short_buffer(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	struct event ev;
	ssize_t n;

	if (!ch)
		return KSFT_FAIL;
	/* with no event queued (a step failed) the short read must not block */
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 7), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	n = mlx5dv_devx_get_event(ch, (void *)&ev, sizeof(ev) - 1);
	CHECK_EQ(n, -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 7);
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* OMIT_DATA: the cookie alone; repeats coalesce per subscription. */
static int test_omit_data(void)
{
	struct mlx5dv_devx_event_channel *ch =
		channel(MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA);
	uint64_t seen = 0;
	struct event ev;
	int i;

	if (!ch)
		return KSFT_FAIL;
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
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* poll(2) times out with nothing queued and wakes for an event. */
static int test_poll(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	struct pollfd p;
	struct event ev;

	if (!ch)
		return KSFT_FAIL;
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
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* A reader blocked in read(2) is woken by the event. */
static int test_blocking_read(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	struct event ev;
	int status;
	pid_t pid;

	if (!ch)
		return KSFT_FAIL;
	if (!CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0x77), 0))
		goto out;
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
		goto out;
	/* the read itself, not get_event(): blocking in it is the subject */
	memset(&ev, 0, sizeof(ev));
	CHECK_EQ(mlx5dv_devx_get_event(ch, (void *)&ev, sizeof(ev)),
		 sizeof(ev));
	CHECK_EQ(ev.cookie, 0x77);
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
out:
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/*
 * Past the queue's bound (max_events_queued) events are lost: EOVERFLOW
 * once, then the rest.
 */
static int test_overflow(void)
{
	struct mlx5dv_devx_event_channel *ch;
	long i, max, ok = 0;
	struct event ev;

	if (!CHECK_ERR(mt_param_get(QUEUE_MAX_PARAM, &max), 0))
		return KSFT_FAIL;
	ch = channel(0);
	if (!ch)
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
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* Redirected to an eventfd: it is signalled, nothing is queued. */
static int test_eventfd(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	struct event ev;
	uint64_t count = 0;
	int efd;

	if (!ch)
		return KSFT_FAIL;
	set_nonblock(ch);
	efd = eventfd(0, EFD_NONBLOCK);
	if (!CHECK(efd >= 0))
		goto out;
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
out:
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* Event numbers out of range or not offered, or not for this use. */
static int test_bad_events(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	uint16_t many[TYPES_PER_CALL + 1];
	uint16_t mixed[] = { EV_PORT_CHANGE, EV_NOT_RAISED };
	struct event ev;
	unsigned int i;

	if (!ch)
		return KSFT_FAIL;
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
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* Unknown channel flags are refused. */
static int test_bad_flags(void)
{
	struct mlx5dv_devx_event_channel *ch;

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
static int test_subscription_limit(void)
{
	struct mlx5dv_devx_event_channel *ch, *ch2;
	uint16_t types[TYPES_PER_CALL];
	long i, n, max, ok = 0;

	if (!CHECK_ERR(mt_param_get(SUBS_MAX_PARAM, &max), 0))
		return KSFT_FAIL;
	ch = channel(0);
	if (!ch)
		return KSFT_FAIL;
	for (i = 0; i < (long)MT_ARRAY_SIZE(types); i++)
		types[i] = EV_PORT_CHANGE;
	/* up to the limit, TYPES_PER_CALL at a time */
	for (i = 0; i < max; i += n) {
		n = max - i < TYPES_PER_CALL ? max - i : TYPES_PER_CALL;
		if (!mlx5dv_devx_subscribe_devx_event(ch, NULL,
						      n * sizeof(types[0]),
						      types, i))
			ok += n;
	}
	CHECK_EQ(ok, max);
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0), ENOSPC);
	ch2 = channel(0);
	if (ch2) {
		/* per context: another channel of it is no way round */
		CHECK_ERR(subscribe(ch2, NULL, EV_PORT_CHANGE, 0), ENOSPC);
		mlx5dv_devx_destroy_event_channel(ch2);
	}
	/* one event reaches every subscription */
	if (mt_sim())
		CHECK_ERR(raise_event("0x9 4"), 0);
	mlx5dv_devx_destroy_event_channel(ch);
	ch = channel(0);
	if (!ch)
		return KSFT_FAIL;
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 0), 0);
	mlx5dv_devx_destroy_event_channel(ch);
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
static int test_affiliated_wrong_kind(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	struct mlx5dv_devx_obj *obj = q_counter(ctx);

	if (!ch || !obj)
		goto out;
	CHECK_ERR(subscribe(ch, obj, EV_CQ_ERROR, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, EV_COMP, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, EV_WQ_CATAS_ERROR, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, EV_PORT_CHANGE, 1), EINVAL);
	CHECK_ERR(subscribe(ch, obj, 0x100, 1), EINVAL);
out:
	if (obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(obj), 0);
	if (ch)
		mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/*
 * A DEVX CQ: 64 CQEs in a umem page, its doorbell record in the next page,
 * a UAR and the EQ of vector 0; the umem fields 6.1's mlx5_ifc.h leaves
 * reserved are mlx5x_queues.h's.
 */
#define CQ_BUF_BYTES		8192

struct cq {
	struct mlx5dv_devx_obj *obj;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_uar *uar;
	void *buf;
	uint32_t cqn;
};

static void cq_free(struct cq *cq)
{
	if (cq->obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq->obj), 0);
	if (cq->umem)
		CHECK_ERR(mlx5dv_devx_umem_dereg(cq->umem), 0);
	if (cq->uar)
		mlx5dv_devx_free_uar(cq->uar);
	free(cq->buf);
	memset(cq, 0, sizeof(*cq));
}

/* Return: 0, -EINVAL when DEVX may not create a CQ, else -1 (failed). */
static int cq_create(struct ibv_context *c, struct cq *cq)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4] = {}, out[4] = {};
	uint32_t eqn;
	int err;

	memset(cq, 0, sizeof(*cq));
	if (posix_memalign(&cq->buf, 4096, CQ_BUF_BYTES))
		return -1;
	memset(cq->buf, 0, CQ_BUF_BYTES);
	cq->umem = mlx5dv_devx_umem_reg(c, cq->buf, CQ_BUF_BYTES,
					IBV_ACCESS_LOCAL_WRITE);
	cq->uar = mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (!cq->umem || !cq->uar || mlx5dv_devx_query_eqn(c, 0, &eqn)) {
		cq_free(cq);
		return -1;
	}
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_CQ);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, 6);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_UAR_PAGE, cq->uar->page_id);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_C_EQN_OR_APU_ELEMENT, eqn);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_PAGE_SIZE, 0);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_UMEM_VALID, 1);
	mt_set(in, CQ_DBR_UMEM_ID, cq->umem->umem_id);
	mt_set(in, MT_FIELD(PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_ADDR_OFF + 32, 32),
	       4096);
	mt_set(in, MT_FIELD(CQ_UMEM_OFF + 32, 32), 0);
	mt_set(in, CQ_UMEM_ID, cq->umem->umem_id);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_UMEM_VALID, 1);
	cq->obj = mlx5dv_devx_obj_create(c, in, sizeof(in), out, sizeof(out));
	if (!cq->obj) {
		err = errno;
		mt_diag("CREATE_CQ: errno %d status 0x%x syndrome 0x%x", err,
			mt_get(out, PRM_OUT_STATUS),
			mt_get(out, PRM_OUT_SYNDROME));
		cq_free(cq);
		return err == EINVAL && !mt_get(out, PRM_OUT_STATUS) ?
			-EINVAL : -1;
	}
	cq->cqn = mt_get(out, PRM_CREATE_CQ_OUT_CQN);
	return 0;
}

/* Make a CQ, or say why the case cannot run. */
static int need_cq(struct ibv_context *c, struct cq *cq)
{
	int err = cq_create(c, cq);

	if (err == -EINVAL)
		return mt_skip("DEVX cannot create a CQ here");
	return CHECK_EQ(err, 0) ? KSFT_PASS : KSFT_FAIL;
}

static int raise_on(unsigned int type, const char *kind, uint32_t id)
{
	char line[64];

	snprintf(line, sizeof(line), "0x%x %s 0x%x", type, kind, id);
	return raise_event(line);
}

/*
 * Affiliated events of a CQ: CQ error and completion reach its
 * subscriptions with the cqn where the PRM puts it; QP events and
 * unaffiliated ones cannot be subscribed on it.
 */
static int test_affiliated_right_kind(void)
{
	struct mlx5dv_devx_event_channel *ch;
	struct event ev;
	struct cq cq;
	int rc = need_cq(ctx, &cq);

	if (rc != KSFT_PASS)
		return rc;
	ch = channel(0);
	if (!ch)
		goto out;
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, cq.obj, EV_CQ_ERROR, 0xc0), 0);
	CHECK_ERR(subscribe(ch, cq.obj, EV_COMP, 0xc1), 0);
	CHECK_ERR(subscribe(ch, cq.obj, EV_WQ_CATAS_ERROR, 1), EINVAL);
	CHECK_ERR(subscribe(ch, cq.obj, EV_PORT_CHANGE, 1), EINVAL);
	CHECK_ERR(subscribe(ch, cq.obj, EV_NOT_RAISED, 1), EINVAL);

	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq.cqn), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0xc0);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_TYPE), EV_CQ_ERROR);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_CQ_ERROR_CQN), cq.cqn);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	CHECK_ERR(raise_on(EV_COMP, "cq", cq.cqn), 0);
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0xc1);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_COMP_EVENT_CQ_NUMBER),
		 cq.cqn);
	/* an unaffiliated event does not reach an object's subscription */
	CHECK_ERR(raise_event("0x9 4"), 0);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	mlx5dv_devx_destroy_event_channel(ch);
out:
	cq_free(&cq);
	return KSFT_PASS;
}

/*
 * Destroying the object drops its subscriptions: nothing more arrives,
 * not even for a new CQ that gets the same number.
 */
static int test_object_destroyed(void)
{
	struct mlx5dv_devx_event_channel *ch;
	struct event ev;
	uint32_t cqn;
	struct cq cq;
	int rc = need_cq(ctx, &cq);

	if (rc != KSFT_PASS)
		return rc;
	ch = channel(MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA);
	if (!ch) {
		cq_free(&cq);
		return KSFT_FAIL;
	}
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, cq.obj, EV_CQ_ERROR, 0xd0), 0);
	/* pending when the object goes: it goes with it */
	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq.cqn), 0);
	cqn = cq.cqn;
	cq_free(&cq);
	CHECK_EQ(raise_on(EV_CQ_ERROR, "cq", cqn), -ENOENT);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
	if (need_cq(ctx, &cq) == KSFT_PASS) {
		if (cq.cqn != cqn)
			mt_diag("new CQ 0x%x, old 0x%x", cq.cqn, cqn);
		CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq.cqn), 0);
		CHECK_EQ(get_event(ch, &ev), -EAGAIN);
		cq_free(&cq);
	}
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/*
 * Two processes, each with a CQ subscribed: an event of one CQ reaches
 * only its owner, whatever the other subscribed to.
 */
static int test_affiliated_isolation(void)
{
	struct mlx5dv_devx_event_channel *ch;
	int to_child[2], to_parent[2], status;
	uint32_t their_cqn = 0;
	struct event ev;
	struct cq cq;
	pid_t pid;
	int rc = need_cq(ctx, &cq);

	if (rc != KSFT_PASS)
		return rc;
	ch = channel(0);
	if (!ch || !CHECK_EQ(pipe(to_child), 0) ||
	    !CHECK_EQ(pipe(to_parent), 0)) {
		cq_free(&cq);
		return KSFT_FAIL;
	}
	set_nonblock(ch);
	CHECK_ERR(subscribe(ch, cq.obj, EV_CQ_ERROR, 0xe0), 0);
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
	CHECK(their_cqn != cq.cqn);
	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", cq.cqn), 0);
	CHECK_ERR(raise_on(EV_CQ_ERROR, "cq", their_cqn), 0);
	CHECK_EQ(write(to_child[1], "g", 1), 1);
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	/* ours got its own event only */
	CHECK_EQ(get_event(ch, &ev), sizeof(ev));
	CHECK_EQ(ev.cookie, 0xe0);
	CHECK_EQ(mt_get(ev.eqe, PRM_EQE_EVENT_DATA_CQ_ERROR_CQN), cq.cqn);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
out:
	close(to_child[1]);
	close(to_parent[0]);
	mlx5dv_devx_destroy_event_channel(ch);
	cq_free(&cq);
	return KSFT_PASS;
}

/*
 * Unaffiliated events reach every subscriber, in every process; a process
 * reads only its own subscriptions' cookies.
 */
static int test_two_processes(void)
{
	struct mlx5dv_devx_event_channel *ch = channel(0);
	int ready[2], go[2], status;
	struct event ev;
	char c = 0;
	pid_t pid;

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
		bad |= e2.cookie != 0x2 || mt_get(e2.eqe, PRM_EQE_EVENT_TYPE) != EV_PORT_CHANGE;
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
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	set_nonblock(ch);
	CHECK_EQ(get_event(ch, &ev), -EAGAIN);
out:
	close(ready[0]);
	close(go[1]);
	mlx5dv_devx_destroy_event_channel(ch);
	return KSFT_PASS;
}

/* Closing with events queued and subscriptions live frees it all. */
static int test_close_pending(void)
{
	unsigned int flags[] = {
		0, MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA,
	};
	unsigned int f, i;

	for (f = 0; f < MT_ARRAY_SIZE(flags); f++) {
		struct mlx5dv_devx_event_channel *ch = channel(flags[f]);

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
static int test_context_closed(void)
{
	struct ibv_context *c = mt_open(MT_OPEN_DEVX, NULL);
	struct mlx5dv_devx_event_channel *ch;
	struct event ev;
	int fd;

	if (!CHECK(c))
		return KSFT_FAIL;
	ch = mlx5dv_devx_create_event_channel(c, 0);
	if (!CHECK(ch))
		goto out;
	CHECK_ERR(subscribe(ch, NULL, EV_PORT_CHANGE, 9), 0);
	CHECK_ERR(raise_event("0x9 4"), 0);
	fd = dup(ch->fd);
	mlx5dv_devx_destroy_event_channel(ch);
	CHECK_EQ(ibv_close_device(c), 0);
	c = NULL;
	if (CHECK(fd >= 0)) {
		CHECK_EQ(read(fd, &ev, sizeof(ev)), -1);
		CHECK_EQ(errno, EIO);
		close(fd);
	}
	CHECK_ERR(raise_event("0x9 4"), 0);
out:
	if (c)
		ibv_close_device(c);
	return KSFT_PASS;
}

/*
 * `rdma link delete` under a blocked reader wakes it with EIO.  The
 * reader closes its context only once the deletion is over: 6.1's
 * munmap(2) unmaps under a downgraded mmap lock, and ib_uverbs zaps the
 * mappings of a context it disassociates under the same read lock, so
 * the two can race in x86 PAT's untracking of the same mapping
 * (WARN_ON_ONCE in get_pat_info(); Documentation/reliability.rst).
 */
static int test_removal_wakes_reader(void)
{
	int ready[2], gone[2], status;
	char c = 0;
	pid_t pid;

	if (!mt.netdev)
		return mt_skip("MLX5X_NETDEV not set");
	if (!CHECK_EQ(pipe(ready), 0))
		return KSFT_FAIL;
	if (!CHECK_EQ(pipe(gone), 0)) {
		close(ready[0]);
		close(ready[1]);
		return KSFT_FAIL;
	}
	/* this process's context goes too: close it first */
	ibv_close_device(ctx);
	ctx = NULL;
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
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	/* the cases after need the device: a second try if the first failed */
	if (!CHECK_EQ(mt_sh("rdma link add %s type mlx5x netdev %s",
			    mt.dev_name, mt.netdev), 0))
		mt_sh("rdma link add %s type mlx5x netdev %s", mt.dev_name,
		      mt.netdev);
	CHECK_EQ(mt_refresh_device(), 0);
	return KSFT_PASS;
}

static int teardown(void)
{
	if (ctx)
		CHECK_EQ(ibv_close_device(ctx), 0);
	ctx = NULL;
	return KSFT_PASS;
}

/* Every case but setup and teardown needs a context. */
#define NEEDS_CTX(fn)							\
	static int fn##_run(void)					\
	{								\
		return ctx ? fn() : mt_skip("no context (setup skipped)"); \
	}

/*
 * These need the model too: they raise events through it, check its
 * profile (which events it raises, which not) or remove it with `rdma
 * link delete`.  The others run on hardware as well.
 */
#define NEEDS_MODEL(fn)							\
	static int fn##_run(void)					\
	{								\
		if (!mt_sim())						\
			return mt_skip("needs the firmware model");	\
		return ctx ? fn() : mt_skip("no context (setup skipped)"); \
	}

NEEDS_MODEL(test_caps)
NEEDS_MODEL(test_unaffiliated)
NEEDS_CTX(test_port_change)
NEEDS_MODEL(test_short_buffer)
NEEDS_MODEL(test_omit_data)
NEEDS_MODEL(test_poll)
NEEDS_MODEL(test_blocking_read)
NEEDS_MODEL(test_overflow)
NEEDS_MODEL(test_eventfd)
NEEDS_MODEL(test_bad_events)
NEEDS_CTX(test_bad_flags)
NEEDS_CTX(test_subscription_limit)
NEEDS_CTX(test_affiliated_wrong_kind)
NEEDS_MODEL(test_affiliated_right_kind)
NEEDS_MODEL(test_object_destroyed)
NEEDS_MODEL(test_affiliated_isolation)
NEEDS_MODEL(test_two_processes)
NEEDS_MODEL(test_close_pending)
NEEDS_MODEL(test_context_closed)
NEEDS_MODEL(test_removal_wakes_reader)

static const struct mt_case cases[] = {
	{ "setup", setup, MT_SHARED },
	{ "caps", test_caps_run },
	{ "unaffiliated", test_unaffiliated_run },
	{ "port_change", test_port_change_run },
	{ "short_buffer", test_short_buffer_run },
	{ "omit_data", test_omit_data_run },
	{ "poll", test_poll_run },
	{ "blocking_read", test_blocking_read_run },
	{ "overflow", test_overflow_run },
	{ "eventfd", test_eventfd_run },
	{ "bad_events", test_bad_events_run },
	{ "bad_flags", test_bad_flags_run },
	{ "subscription_limit", test_subscription_limit_run },
	{ "affiliated_wrong_kind", test_affiliated_wrong_kind_run },
	{ "affiliated_right_kind", test_affiliated_right_kind_run },
	{ "object_destroyed", test_object_destroyed_run },
	{ "affiliated_isolation", test_affiliated_isolation_run },
	{ "two_processes", test_two_processes_run },
	{ "close_pending", test_close_pending_run },
	{ "context_closed", test_context_closed_run },
	{ .name = "removal_wakes_reader", .run = test_removal_wakes_reader_run,
	  .unswept = "the device going away is its subject" },
	{ "teardown", teardown },
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
