// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A receive WQ's flush and its asynchronous errors, from ibv_modify_wq(3),
 * ibv_post_wq_recv(3) and ibv_get_async_event(3), with the IBTA's rules:
 *
 * - the receives posted to a WQ that goes to IBV_WQS_ERR, and those
 *   posted while it is there, complete on its CQ with
 *   IBV_WC_WR_FLUSH_ERR, each with its wr_id, in the order posted; a WQ
 *   in ERR takes no packet; through RESET and RDY it takes again;
 * - a receive that fails (an lkey the WQ may not use) completes with its
 *   error, and the WQ goes to ERR: the receives after it are flushed.
 *   That error is reported in the completion: no asynchronous event;
 * - a WQ that cannot report a completion, its CQ overrun, goes to ERR
 *   with IBV_EVENT_WQ_FATAL (element.wq: the WQ), once, after the CQ's
 *   IBV_EVENT_CQ_ERR: IBTA's Local Work Queue Catastrophic Error;
 * - an event goes to the WQ's own context only: an unprivileged user's
 *   WQ breaking raises nothing in another context.
 *
 * Each case adds, to the environment of mlx5x_rss.h, a lone WQ: the one
 * entry of a table under a field-less RSS QP, which a flow of its own
 * MAC feeds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include "mlx5x_rss.h"

#define QUIET_MS	300
#define RECV_SLOTS	NPKT	/* receive slots of the environment's buffer */

static const uint8_t lone_mac[6] = { 2, 0, 0, 0, 0, 0x33 };

/* A WQ with a table, an RSS QP and a flow of its own, on CQ @cq. */
struct lone {
	struct ibv_cq *cq;
	struct ibv_wq *wq;
	struct ibv_rwq_ind_table *tbl;
	struct ibv_qp *qp;
	struct ibv_flow *flow;
};

static bool lone_open(struct rss_env *e, struct lone *l, int cqe)
{
	memset(l, 0, sizeof(*l));
	l->cq = ibv_create_cq(e->v.ctx, cqe, NULL, NULL, 0);
	if (!CHECK(l->cq))
		return false;
	l->wq = rss_make_wq(e->v.ctx, e->v.pd, l->cq, 0);
	if (!CHECK(l->wq) || !CHECK_ERR(rss_wq_move(l->wq, IBV_WQS_RDY), 0))
		return false;
	l->tbl = rss_make_tbl(e->v.ctx, &l->wq, 0);
	if (!CHECK(l->tbl))
		return false;
	l->qp = rss_make_qp(e->v.ctx, e->v.pd, l->tbl,
			    IBV_RX_HASH_FUNC_TOEPLITZ, KEY_LEN, 0);
	if (!CHECK(l->qp))
		return false;
	l->flow = rss_steer(l->qp, lone_mac);
	return CHECK(l->flow);
}

static void lone_close(struct lone *l)
{
	if (l->flow)
		CHECK_ERR(ibv_destroy_flow(l->flow), 0);
	if (l->qp)
		CHECK_ERR(ibv_destroy_qp(l->qp), 0);
	if (l->tbl)
		CHECK_ERR(ibv_destroy_rwq_ind_table(l->tbl), 0);
	if (l->wq)
		CHECK_ERR(ibv_destroy_wq(l->wq), 0);
	if (l->cq)
		CHECK_ERR(ibv_destroy_cq(l->cq), 0);
}

/* Receive @i (wr_id 0x100 + i) on the lone WQ, into slot @i. */
static bool lone_post(struct rss_env *e, struct lone *l, unsigned int i,
		      uint32_t lkey)
{
	return rss_post_recv(e, l->wq, 0x100 + i, i % RECV_SLOTS, lkey);
}

/* Receives @from..@to - 1 complete, in order, with @status. */
static bool completes(struct ibv_cq *cq, unsigned int from, unsigned int to,
		      enum ibv_wc_status status)
{
	struct ibv_wc wc;
	bool ok = true;

	for (; from < to && ok; from++)
		ok = CHECK(mt_poll_one(cq, &wc, 2000)) &&
		     CHECK(mt_wc_is(&wc, 0x100 + from, status, IBV_WC_RECV));
	return ok;
}

/* A state change that names the state the WQ is in. */
static int wq_move_from(struct ibv_wq *wq, enum ibv_wq_state from,
			enum ibv_wq_state to)
{
	struct ibv_wq_attr a = {
		.attr_mask = IBV_WQ_ATTR_STATE | IBV_WQ_ATTR_CURR_STATE,
		.curr_wq_state = from, .wq_state = to,
	};

	return ibv_modify_wq(wq, &a);
}

/* Through RESET to RDY: a receive then takes a packet, whole. */
static void takes_again(struct rss_env *e, struct lone *l, unsigned int i)
{
	uint8_t want[PKT_LEN];
	struct ibv_wc wc;

	CHECK_ERR(wq_move_from(l->wq, IBV_WQS_ERR, IBV_WQS_RESET), 0);
	CHECK_ERR(rss_wq_move(l->wq, IBV_WQS_RDY), 0);
	lone_post(e, l, i, e->mr->lkey);
	rss_send_pkt(e, 1, lone_mac);
	if (!CHECK(mt_poll_one(l->cq, &wc, 2000)) ||
	    !CHECK(mt_wc_is(&wc, 0x100 + i, IBV_WC_SUCCESS, IBV_WC_RECV)))
		return;
	CHECK_EQ(wc.byte_len, PKT_LEN);
	rss_make_pkt(want, 1, lone_mac);
	CHECK(!memcmp(e->buf + (NPKT + i % RECV_SLOTS) * SLOT, want,
		      PKT_LEN));
}

/*
 * The next WQ_FATAL of @ctx within @ms: true, with its WQ in *@wq; any
 * CQ_ERR seen on the way sets *@cq_err.  Other events are reported.
 */
static bool wq_fatal(struct ibv_context *ctx, long ms, struct ibv_wq **wq,
		     struct ibv_cq **cq_err)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	int flags = fcntl(ctx->async_fd, F_GETFL);
	long end = mt_now_ms() + ms;
	struct ibv_async_event ev;

	if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK))
		return CHECK(!"the async fd made non-blocking");
	while (mt_now_ms() < end) {
		if (poll(&pfd, 1, end - mt_now_ms()) <= 0 ||
		    ibv_get_async_event(ctx, &ev))
			continue;
		mt_diag("async event %s", ibv_event_type_str(ev.event_type));
		if (ev.event_type == IBV_EVENT_CQ_ERR && cq_err)
			*cq_err = ev.element.cq;
		ibv_ack_async_event(&ev);
		if (ev.event_type == IBV_EVENT_WQ_FATAL) {
			*wq = ev.element.wq;
			return true;
		}
	}
	return false;
}

/* No WQ_FATAL in @ctx for a while. */
static bool no_fatal(struct ibv_context *ctx)
{
	struct ibv_wq *wq;

	return CHECK(!wq_fatal(ctx, QUIET_MS, &wq, NULL));
}

/* Packets the model dropped for the WQ (its RQ's out_of_buffer). */
static long long rq_drops(struct ibv_wq *wq)
{
	char line[32];

	snprintf(line, sizeof(line), "rq 0x%x ", wq->wq_num);
	return mt_dp_figure(NULL, line, "out_of_buffer");
}

/*
 * Receives posted before the move to ERR, then receives posted in ERR:
 * each flushed, with its wr_id, in order, and no event; a packet is not
 * taken (the model counts it a drop); RESET, RDY: it takes again.
 */
MT_TEST_F(rss_env, flush_in_err)
{
	long long drops;
	struct lone l;
	struct ibv_wc wc;
	unsigned int i;

	if (!lone_open(self, &l, 16))
		goto out;
	for (i = 0; i < 5; i++)
		lone_post(self, &l, i, self->mr->lkey);
	CHECK_ERR(rss_wq_move(l.wq, IBV_WQS_ERR), 0);
	completes(l.cq, 0, 5, IBV_WC_WR_FLUSH_ERR);
	for (; i < 8; i++)
		lone_post(self, &l, i, self->mr->lkey);
	completes(l.cq, 5, 8, IBV_WC_WR_FLUSH_ERR);
	CHECK(rss_none_within(l.cq, 100, &wc));
	/* a packet for the WQ in ERR: dropped, no receive taken */
	drops = rq_drops(l.wq);
	lone_post(self, &l, i, self->mr->lkey);
	rss_send_pkt(self, 0, lone_mac);
	completes(l.cq, i, i + 1, IBV_WC_WR_FLUSH_ERR);
	i++;
	CHECK(rss_none_within(l.cq, 100, &wc));
	CHECK_EQ(rq_drops(l.wq), drops + 1);
	no_fatal(self->v.ctx);
	takes_again(self, &l, i);
out:
	lone_close(&l);
	return KSFT_PASS;
}

/*
 * A receive whose lkey the WQ may not use: that receive completes with
 * IBV_WC_LOC_PROT_ERR, the WQ is in ERR (it takes nothing; a state change
 * from RDY is refused), the receives after it are flushed; the error was
 * in the completion: no event.
 */
MT_TEST_F(rss_env, bad_lkey_then_flush)
{
	struct ibv_mr *gone;
	uint32_t bad;
	struct lone l;
	struct ibv_wc wc;

	if (!lone_open(self, &l, 16))
		goto out;
	gone = ibv_reg_mr(self->v.pd, self->buf, SLOT, IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(gone))
		goto out;
	bad = gone->lkey;
	CHECK_ERR(ibv_dereg_mr(gone), 0);
	lone_post(self, &l, 0, bad);
	lone_post(self, &l, 1, self->mr->lkey);
	lone_post(self, &l, 2, self->mr->lkey);
	rss_send_pkt(self, 0, lone_mac);
	completes(l.cq, 0, 1, IBV_WC_LOC_PROT_ERR);
	completes(l.cq, 1, 3, IBV_WC_WR_FLUSH_ERR);
	CHECK(rss_none_within(l.cq, 100, &wc));
	/* firmware has it in ERR: not RDY */
	CHECK(wq_move_from(l.wq, IBV_WQS_RDY, IBV_WQS_RESET) != 0);
	no_fatal(self->v.ctx);
	takes_again(self, &l, 3);
out:
	lone_close(&l);
	return KSFT_PASS;
}

/*
 * Fill the lone WQ's CQ (never polled) and one packet more: the CQ
 * overruns; that packet's receive cannot complete.  In @ctx: CQ_ERR on
 * the CQ, then WQ_FATAL on the WQ, once.  Returns whether all was so.
 */
static bool overrun(struct rss_env *e, struct lone *l)
{
	unsigned int i, fit = l->cq->cqe + 1;
	struct ibv_cq *cq_err = NULL;
	struct ibv_wq *wq = NULL;
	bool ok;

	/* libmlx5 makes a power of two of CQEs, cqe of them reported */
	mt_diag("the CQ holds %u CQEs", fit);
	if (!CHECK(fit + 2 <= WQ_WRS))
		return false;
	for (i = 0; i < fit + 2; i++)
		lone_post(e, l, i, e->mr->lkey);
	for (i = 0; i <= fit; i++)
		rss_send_pkt(e, i, lone_mac);
	ok = CHECK(wq_fatal(e->v.ctx, 2000, &wq, &cq_err)) &&
	     CHECK(wq == l->wq) && CHECK(cq_err == l->cq);
	/* the receive left is flushed into the CQ in error: nothing more */
	ok &= no_fatal(e->v.ctx);
	ok &= CHECK_ERR(wq_move_from(l->wq, IBV_WQS_ERR, IBV_WQS_RESET), 0);
	return ok;
}

MT_TEST_F(rss_env, cq_overrun_fatal)
{
	struct lone l;

	if (lone_open(self, &l, 2))
		overrun(self, &l);
	lone_close(&l);
	return KSFT_PASS;
}

/* The child: an unprivileged user (with CAP_NET_RAW) breaks its WQ. */
static int breaks_own_wq(void *arg)
{
	struct rss_env *e = calloc(1, sizeof(*e));
	struct lone l = {};
	int rc = 1;

	(void)arg;
	if (!CHECK(e))
		return 1;
	if (rss_env_fixture.setup(e) == KSFT_PASS && lone_open(e, &l, 2) &&
	    overrun(e, &l))
		rc = KSFT_PASS;
	lone_close(&l);
	rss_env_fixture.teardown(e);
	free(e);
	return rc;
}

/*
 * Another user's WQ going to ERR with its event: the event is that
 * context's alone; this context's WQs get none, and still receive.
 */
MT_TEST_F(rss_env, fatal_own_context_only)
{
	unsigned int w;
	struct ibv_wc wc;

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW), breaks_own_wq,
			   NULL), KSFT_PASS);
	no_fatal(self->v.ctx);
	for (w = 0; w < NWQ; w++)
		rss_post_recv(self, self->wq[w], w, w, self->mr->lkey);
	rss_send_pkt(self, 0, rss_server_mac);
	if (CHECK(mt_poll_one(self->rcq, &wc, 2000)))
		CHECK_EQ(wc.status, IBV_WC_SUCCESS);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(rss_env_fixture, flush_in_err, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(rss_env_fixture, bad_lkey_then_flush),
	MT_CASE_ON(rss_env_fixture, cq_overrun_fatal),
	MT_CASE_ON(rss_env_fixture, fatal_own_context_only,
		   .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
