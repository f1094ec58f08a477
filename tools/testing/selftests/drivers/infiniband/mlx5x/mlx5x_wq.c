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
 * A RAW_PACKET QP on a ConnectX is an SQ and an RQ, and mlx5_ib makes
 * the RQ's event handler the QP's: its receive queue breaks as a WQ
 * does, and the catastrophic error is IBV_EVENT_QP_FATAL with
 * element.qp the RAW_PACKET QP (never WQ_FATAL), in its context only;
 * so is its send queue's, when its CQ overruns.
 *
 * Each case adds, to the environment of mlx5x_rss.h, a lone receiver
 * that a flow of its own MAC feeds: a WQ, the one entry of a table under
 * a field-less RSS QP, or (the raw_ cases) a RAW_PACKET QP.
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

/*
 * A WQ with a table, an RSS QP and a flow of its own, on CQ @cq; or,
 * with @raw, a RAW_PACKET QP in RTS (@qp, no @wq) and its flow.
 */
struct lone {
	struct ibv_cq *cq;
	struct ibv_wq *wq;
	struct ibv_rwq_ind_table *tbl;
	struct ibv_qp *qp;
	struct ibv_flow *flow;
	bool raw;
};

static bool lone_open(struct rss_env *e, struct lone *l, int cqe, bool raw)
{
	memset(l, 0, sizeof(*l));
	l->raw = raw;
	l->cq = ibv_create_cq(e->v.ctx, cqe, NULL, NULL, 0);
	if (!CHECK(l->cq))
		return false;
	if (raw) {
		l->qp = mt_raw_qp(e->v.pd, l->cq, WQ_WRS, 1, true);
		l->flow = CHECK(l->qp) ? rss_steer(l->qp, lone_mac) : NULL;
		return CHECK(l->flow);
	}
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

/* Receive @i (wr_id 0x100 + i) on the lone receiver, into slot @i. */
static bool lone_post(struct rss_env *e, struct lone *l, unsigned int i,
		      uint32_t lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf + (NPKT + i % RECV_SLOTS) * SLOT,
		.length = SLOT, .lkey = lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = 0x100 + i, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	if (!l->raw)
		return rss_post_recv(e, l->wq, 0x100 + i, i % RECV_SLOTS, lkey);
	return CHECK_ERR(ibv_post_recv(l->qp, &wr, &bad), 0);
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

/* What the asynchronous events of a context said, while they were read. */
struct seen {
	struct ibv_wq *wq;	/* the last WQ_FATAL's WQ */
	struct ibv_qp *qp;	/* the last QP_FATAL's QP */
	struct ibv_cq *cq_err;	/* the last CQ_ERR's CQ */
	unsigned int fatal;	/* WQ_FATALs and QP_FATALs */
	unsigned int other;	/* any other event */
};

/*
 * Read @ctx's events into @s for @ms, or until a fatal one if @stop.
 * Returns whether a fatal event (WQ_FATAL, QP_FATAL) was seen.
 */
static bool read_events(struct ibv_context *ctx, long ms, bool stop,
			struct seen *s)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	int flags = fcntl(ctx->async_fd, F_GETFL);
	long end = mt_now_ms() + ms;
	struct ibv_async_event ev;

	if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK))
		return CHECK(!"the async fd made non-blocking");
	while (mt_now_ms() < end && !(stop && s->fatal)) {
		if (poll(&pfd, 1, end - mt_now_ms()) <= 0 ||
		    ibv_get_async_event(ctx, &ev))
			continue;
		mt_diag("async event %s", ibv_event_type_str(ev.event_type));
		if (ev.event_type == IBV_EVENT_WQ_FATAL)
			s->wq = ev.element.wq;
		else if (ev.event_type == IBV_EVENT_QP_FATAL)
			s->qp = ev.element.qp;
		else if (ev.event_type == IBV_EVENT_CQ_ERR)
			s->cq_err = ev.element.cq;
		else
			s->other++;
		s->fatal += ev.event_type == IBV_EVENT_WQ_FATAL ||
			    ev.event_type == IBV_EVENT_QP_FATAL;
		ibv_ack_async_event(&ev);
	}
	return s->fatal;
}

/* No event at all in @ctx for a while. */
static bool no_event(struct ibv_context *ctx)
{
	struct seen s = {};

	return CHECK(!read_events(ctx, QUIET_MS, false, &s)) &&
	       CHECK(!s.cq_err) && CHECK_EQ(s.other, 0);
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

	if (!lone_open(self, &l, 16, false))
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
	no_event(self->v.ctx);
	takes_again(self, &l, i);
out:
	lone_close(&l);
	return KSFT_PASS;
}

/*
 * A receive whose lkey the queue may not use: that receive completes with
 * IBV_WC_LOC_PROT_ERR, the queue is in ERR (it takes nothing; a WQ's
 * state change from RDY is refused), the receives after it are flushed;
 * the error was in the completion: no event.
 */
static void bad_lkey(struct rss_env *e, bool raw)
{
	struct ibv_mr *gone;
	uint32_t bad;
	struct lone l;
	struct ibv_wc wc;

	if (!lone_open(e, &l, 16, raw))
		goto out;
	gone = ibv_reg_mr(e->v.pd, e->buf, SLOT, IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(gone))
		goto out;
	bad = gone->lkey;
	CHECK_ERR(ibv_dereg_mr(gone), 0);
	lone_post(e, &l, 0, bad);
	lone_post(e, &l, 1, e->mr->lkey);
	lone_post(e, &l, 2, e->mr->lkey);
	rss_send_pkt(e, 0, lone_mac);
	completes(l.cq, 0, 1, IBV_WC_LOC_PROT_ERR);
	completes(l.cq, 1, 3, IBV_WC_WR_FLUSH_ERR);
	CHECK(rss_none_within(l.cq, 100, &wc));
	no_event(e->v.ctx);
	if (!raw) {
		/* firmware has it in ERR: not RDY */
		CHECK(wq_move_from(l.wq, IBV_WQS_RDY, IBV_WQS_RESET) != 0);
		takes_again(e, &l, 3);
	}
out:
	lone_close(&l);
}

MT_TEST_F(rss_env, bad_lkey_then_flush)
{
	bad_lkey(self, false);
	return KSFT_PASS;
}

MT_TEST_F(rss_env, raw_bad_lkey_then_flush)
{
	bad_lkey(self, true);
	return KSFT_PASS;
}

/*
 * Fill the lone receiver's CQ (never polled) and one packet more: the CQ
 * overruns; that packet's receive cannot complete.  In @ctx: CQ_ERR on
 * the CQ, then, once, WQ_FATAL on the WQ or QP_FATAL on the RAW_PACKET
 * QP, and nothing else.  Returns whether all was so.
 */
static bool overrun(struct rss_env *e, struct lone *l)
{
	unsigned int i, fit = l->cq->cqe + 1;
	struct seen s = {};
	bool ok;

	/* libmlx5 makes a power of two of CQEs, cqe of them reported */
	mt_diag("the CQ holds %u CQEs", fit);
	if (!CHECK(fit + 2 <= WQ_WRS))
		return false;
	for (i = 0; i < fit + 2; i++)
		lone_post(e, l, i, e->mr->lkey);
	for (i = 0; i <= fit; i++)
		rss_send_pkt(e, i, lone_mac);
	ok = CHECK(read_events(e->v.ctx, 2000, true, &s)) &&
	     CHECK(s.cq_err == l->cq);
	if (l->raw)
		ok &= CHECK(s.qp == l->qp) && CHECK(!s.wq);
	else
		ok &= CHECK(s.wq == l->wq) && CHECK(!s.qp);
	/* the receive left is flushed into the CQ in error: nothing more */
	read_events(e->v.ctx, QUIET_MS, false, &s);
	ok &= CHECK_EQ(s.fatal, 1) && CHECK_EQ(s.other, 0);
	if (!l->raw)
		ok &= CHECK_ERR(wq_move_from(l->wq, IBV_WQS_ERR,
					     IBV_WQS_RESET), 0);
	return ok;
}

MT_TEST_F(rss_env, cq_overrun_fatal)
{
	struct lone l;

	if (lone_open(self, &l, 2, false))
		overrun(self, &l);
	lone_close(&l);
	return KSFT_PASS;
}

MT_TEST_F(rss_env, raw_cq_overrun_fatal)
{
	struct lone l;

	if (lone_open(self, &l, 2, true))
		overrun(self, &l);
	lone_close(&l);
	return KSFT_PASS;
}

/* A frame of the lone RAW_PACKET QP's, to a MAC no flow steers. */
static bool lone_send(struct rss_env *e, struct lone *l, unsigned int i)
{
	static const uint8_t nowhere[6] = { 2, 0, 0, 0, 0, 0x44 };
	uint8_t *b = e->buf + (i % NPKT) * SLOT;
	struct ibv_sge sge = { (uintptr_t)b, PKT_LEN, e->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 0x200 + i, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	rss_make_pkt(b, i, nowhere);
	return CHECK_ERR(ibv_post_send(l->qp, &wr, &bad), 0);
}

/*
 * The send queue of a RAW_PACKET QP whose CQ overruns (never polled, one
 * signalled send more than it holds) cannot report that send: CQ_ERR,
 * then QP_FATAL on the QP, as mlx5_ib makes the SQ's event handler the
 * QP's; the sends posted after it are flushed into the CQ in error and
 * raise nothing more.
 */
MT_TEST_F(rss_env, raw_sq_overrun_fatal)
{
	struct seen s = {};
	unsigned int i, fit;
	struct lone l;

	if (!lone_open(self, &l, 2, true))
		goto out;
	fit = l.cq->cqe + 1;
	mt_diag("the CQ holds %u CQEs", fit);
	for (i = 0; i <= fit; i++)
		lone_send(self, &l, i);
	if (CHECK(read_events(self->v.ctx, 2000, true, &s)) &&
	    CHECK(s.cq_err == l.cq))
		CHECK(s.qp == l.qp);
	lone_send(self, &l, fit + 1);
	lone_send(self, &l, fit + 2);
	read_events(self->v.ctx, QUIET_MS, false, &s);
	CHECK_EQ(s.fatal, 1);
	CHECK_EQ(s.other, 0);
out:
	lone_close(&l);
	return KSFT_PASS;
}

/*
 * The child: an unprivileged user (with CAP_NET_RAW) breaks its WQ, or
 * with *@arg its RAW_PACKET QP.
 */
static int breaks_own(void *arg)
{
	struct rss_env *e = calloc(1, sizeof(*e));
	struct lone l = {};
	int rc = 1;

	if (!CHECK(e))
		return 1;
	if (rss_env_fixture.setup(e) == KSFT_PASS &&
	    lone_open(e, &l, 2, *(bool *)arg) && overrun(e, &l))
		rc = KSFT_PASS;
	lone_close(&l);
	rss_env_fixture.teardown(e);
	free(e);
	return rc;
}

/*
 * Another user's WQ or RAW_PACKET QP going to ERR with its event: the
 * event is that context's alone; this context gets none, and its WQs
 * still receive.
 */
static void own_context_only(struct rss_env *e, bool raw)
{
	unsigned int w;
	struct ibv_wc wc;

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW), breaks_own,
			   &raw), KSFT_PASS);
	no_event(e->v.ctx);
	for (w = 0; w < NWQ; w++)
		rss_post_recv(e, e->wq[w], w, w, e->mr->lkey);
	rss_send_pkt(e, 0, rss_server_mac);
	if (CHECK(mt_poll_one(e->rcq, &wc, 2000)))
		CHECK_EQ(wc.status, IBV_WC_SUCCESS);
}

MT_TEST_F(rss_env, fatal_own_context_only)
{
	own_context_only(self, false);
	return KSFT_PASS;
}

MT_TEST_F(rss_env, raw_fatal_own_context_only)
{
	own_context_only(self, true);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(rss_env_fixture, flush_in_err, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(rss_env_fixture, bad_lkey_then_flush),
	MT_CASE_ON(rss_env_fixture, cq_overrun_fatal),
	MT_CASE_ON(rss_env_fixture, fatal_own_context_only,
		   .flags = MT_NEEDS_ROOT),
	MT_CASE_ON(rss_env_fixture, raw_bad_lkey_then_flush),
	MT_CASE_ON(rss_env_fixture, raw_cq_overrun_fatal),
	MT_CASE_ON(rss_env_fixture, raw_sq_overrun_fatal),
	MT_CASE_ON(rss_env_fixture, raw_fatal_own_context_only,
		   .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
