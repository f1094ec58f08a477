// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues, as ibv_create_srq(3), ibv_modify_srq(3),
 * ibv_post_srq_recv(3) and ibv_get_async_event(3) define them, with the
 * IBTA's rules: several RC QPs receive through one SRQ, each message
 * taking the SRQ's next WQE in the order they were posted; a WQE
 * completed is free to be posted again; the limit, once armed, raises
 * IBV_EVENT_SRQ_LIMIT_REACHED once when fewer WQEs than it remain; a QP
 * on an SRQ in error raises IBV_EVENT_QP_LAST_WQE_REACHED and leaves the
 * SRQ's WQEs to the other QPs; an empty SRQ is an RNR NAK; the SRQ's PD
 * is the one its WQEs' keys must be of.  And what is refused: an SRQ too
 * large, resizing, a limit past its size, destroying an SRQ that QPs
 * use, an SRQ of another context.  And an SRQ made by DEVX mailbox, an
 * RMP, as mlx5_ib makes one.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include "mlx5x_rc.h"
#include "mlx5x_queues.h"

#define NQP		3
#define SRQ_WR		7	/* asked for: libmlx5 may make more */
#define SBUF		(16 * 1024 * 1024)
#define RECV_OFF	(SBUF / 2)	/* sends come from below, land above */
#define QUIET_MS	200

/*
 * NQP pairs of RC QPs: a[i] sends (its completions on scq), b[i]
 * receives through the one SRQ (its completions on rcq).
 */
struct srqs {
	struct pair p;		/* the context, PD, buffer, MR and GID */
	struct ibv_cq *scq, *rcq;
	struct ibv_srq *srq;
	uint32_t max_wr;	/* what ibv_create_srq() said it made */
	struct ibv_qp *a[NQP], *b[NQP];
};

static struct ibv_srq *make_srq(struct ibv_pd *pd, uint32_t wr, uint32_t sge,
			       uint32_t *made)
{
	struct ibv_srq_init_attr a = {
		.attr = { .max_wr = wr, .max_sge = sge },
	};
	struct ibv_srq *srq = ibv_create_srq(pd, &a);

	/* ibv_create_srq(3): at least what was asked for */
	if (srq && (!CHECK(a.attr.max_wr >= wr) ||
		    !CHECK(a.attr.max_sge >= sge)))
		mt_diag("made max_wr %u max_sge %u", a.attr.max_wr,
			a.attr.max_sge);
	if (made)
		*made = a.attr.max_wr;
	return srq;
}

static struct ibv_qp *type_qp(struct ibv_pd *pd, struct ibv_cq *scq,
			      struct ibv_cq *rcq, struct ibv_srq *srq,
			      enum ibv_qp_type type)
{
	struct ibv_qp_init_attr a = {
		.send_cq = scq,
		.recv_cq = rcq,
		.srq = srq,
		.cap = {
			.max_send_wr = 16, .max_send_sge = 1,
			.max_recv_wr = srq ? 0 : 1, .max_recv_sge = 1,
		},
		.qp_type = type,
	};

	return ibv_create_qp(pd, &a);
}

static struct ibv_qp *srq_qp(struct ibv_pd *pd, struct ibv_cq *scq,
			     struct ibv_cq *rcq, struct ibv_srq *srq)
{
	return type_qp(pd, scq, rcq, srq, IBV_QPT_RC);
}

MT_FIXTURE(srqs);

MT_FIXTURE_SETUP(srqs)
{
	struct pair *p = &self->p;
	int rc = pair_mem_open(p, SBUF);
	unsigned int i;

	if (rc != KSFT_PASS)
		return rc;
	self->scq = ibv_create_cq(p->c.ctx, 64, NULL, NULL, 0);
	self->rcq = ibv_create_cq(p->c.ctx, 64, NULL, NULL, 0);
	self->srq = make_srq(p->pd, SRQ_WR, 2, &self->max_wr);
	if (!CHECK(self->scq) || !CHECK(self->rcq) || !CHECK(self->srq))
		return KSFT_FAIL;
	for (i = 0; i < NQP; i++) {
		self->a[i] = srq_qp(p->pd, self->scq, self->scq, NULL);
		self->b[i] = srq_qp(p->pd, self->scq, self->rcq, self->srq);
		if (!CHECK(self->a[i]) || !CHECK(self->b[i]))
			return KSFT_FAIL;
		if (!CHECK_ERR(rc_connect(p, self->a[i], self->b[i]->qp_num,
					  ALL_ACCESS, 7), 0) ||
		    !CHECK_ERR(rc_connect(p, self->b[i], self->a[i]->qp_num,
					  ALL_ACCESS, 7), 0))
			return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static void srqs_free_qps(struct srqs *self)
{
	unsigned int i;

	for (i = 0; i < NQP; i++) {
		if (self->a[i])
			CHECK_ERR(ibv_destroy_qp(self->a[i]), 0);
		if (self->b[i])
			CHECK_ERR(ibv_destroy_qp(self->b[i]), 0);
		self->a[i] = NULL;
		self->b[i] = NULL;
	}
}

MT_FIXTURE_TEARDOWN(srqs)
{
	struct pair *p = &self->p;

	srqs_free_qps(self);
	if (self->srq)
		CHECK_ERR(ibv_destroy_srq(self->srq), 0);
	if (self->rcq)
		CHECK_ERR(ibv_destroy_cq(self->rcq), 0);
	if (self->scq)
		CHECK_ERR(ibv_destroy_cq(self->scq), 0);
	/* the pair's own teardown frees the MR, PD, buffer and context */
	pair_teardown(p);
}

/* One receive WQE of @len bytes at RECV_OFF + @off, posted to the SRQ. */
static int post_srq(struct srqs *s, uint64_t id, uint32_t off, uint32_t len,
		    uint32_t lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->p.buf + RECV_OFF + off, .length = len,
		.lkey = lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(s->srq, &wr, &bad);
}

/* a[@i] sends @len bytes from @off, signalled. */
static int send_from(struct srqs *s, unsigned int i, uint64_t id,
		     uint32_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->p.buf + off, .length = len,
		.lkey = s->p.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = id, .opcode = IBV_WR_SEND, .sg_list = &sge,
		.num_sge = 1, .send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad;

	return ibv_post_send(s->a[i], &wr, &bad);
}

/* The receive completes on rcq: WR @id of b[@i], @len bytes. */
static bool recv_is(struct srqs *s, unsigned int i, uint64_t id,
		    uint32_t len)
{
	struct ibv_wc wc;

	if (!poll_one(s->rcq, &wc) ||
	    !wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_RECV))
		return false;
	return CHECK_EQ(wc.qp_num, s->b[i]->qp_num) &
	       CHECK_EQ(wc.byte_len, len);
}

/*
 * The next async event within @ms, acknowledged: its type and element
 * (the QP or SRQ it names); false when none came.
 */
static bool next_event(struct ibv_context *ctx, int ms,
		       struct ibv_async_event *out)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	long end = mt_now_ms() + ms;
	int flags = fcntl(ctx->async_fd, F_GETFL);

	if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK))
		return CHECK(!"the async fd made non-blocking");
	while (mt_now_ms() < end) {
		if (poll(&pfd, 1, end - mt_now_ms()) <= 0)
			continue;
		if (ibv_get_async_event(ctx, out))
			continue;
		ibv_ack_async_event(out);
		mt_diag("async event %s", ibv_event_type_str(out->event_type));
		return true;
	}
	return false;
}

/* No async event for a while. */
static bool no_event(struct srqs *s)
{
	struct ibv_async_event ev;

	return CHECK(!next_event(s->p.c.ctx, QUIET_MS, &ev));
}

/*
 * Messages from the three QPs, one at a time, take the SRQ's WQEs in the
 * order they were posted, whichever QP receives; each lands in its WQE's
 * buffer.  Three times as many as the SRQ holds: a WQE that completed is
 * posted again.
 */
MT_TEST_F(srqs, in_order)
{
	uint8_t *buf = self->p.buf;
	unsigned int round, k, j;
	struct ibv_wc wc;

	for (round = 0; round < 3; round++) {
		for (k = 0; k < SRQ_WR; k++)
			if (!CHECK_ERR(post_srq(self, 100 + round * SRQ_WR + k,
						k * 512, 512,
						self->p.mr->lkey), 0))
				return KSFT_FAIL;
		for (k = 0; k < SRQ_WR; k++) {
			j = round * SRQ_WR + k;
			fill(buf + j * 256, 200, j);
			if (!CHECK_ERR(send_from(self, j % NQP, j, j * 256,
						 200), 0))
				return KSFT_FAIL;
			if (poll_one(self->scq, &wc))
				wc_is(&wc, j, IBV_WC_SUCCESS, IBV_WC_SEND);
			if (recv_is(self, j % NQP, 100 + j, 200))
				CHECK(!memcmp(buf + RECV_OFF + k * 512,
					      buf + j * 256, 200));
		}
	}
	CHECK_EQ(ibv_poll_cq(self->rcq, 1, &wc), 0);
	return KSFT_PASS;
}

/*
 * A long message (the device moves it in several turns) to one QP of the
 * SRQ, a short one to another right behind it: the first took the first
 * WQE, the second the next, whichever completes first, and each lands
 * whole in its own.
 */
MT_TEST_F(srqs, long_message)
{
	uint32_t big = 6 * 1024 * 1024;
	uint8_t *buf = self->p.buf;
	struct ibv_wc wc;
	unsigned int k;

	fill(buf, big, 3);
	fill(buf + big, 100, 9);
	if (!CHECK_ERR(post_srq(self, 1, 0, big, self->p.mr->lkey), 0) ||
	    !CHECK_ERR(post_srq(self, 2, big, 128, self->p.mr->lkey), 0) ||
	    !CHECK_ERR(send_from(self, 0, 11, 0, big), 0) ||
	    !CHECK_ERR(send_from(self, 1, 12, big, 100), 0))
		return KSFT_FAIL;
	for (k = 0; k < 2; k++) {
		if (!poll_one(self->rcq, &wc) ||
		    !wc_is(&wc, wc.wr_id == 2 ? 2 : 1, IBV_WC_SUCCESS,
			   IBV_WC_RECV))
			continue;
		mt_diag("receive %u completed %s", (unsigned int)wc.wr_id,
			k ? "second" : "first");
		CHECK_EQ(wc.qp_num, self->b[wc.wr_id == 2]->qp_num);
		CHECK_EQ(wc.byte_len, wc.wr_id == 2 ? 100 : big);
	}
	CHECK(!memcmp(buf + RECV_OFF, buf, big));
	CHECK(!memcmp(buf + RECV_OFF + big, buf + big, 100));
	poll_one(self->scq, &wc);
	poll_one(self->scq, &wc);
	return KSFT_PASS;
}

/*
 * ibv_modify_srq(IBV_SRQ_LIMIT): armed at 3, the SRQ raises
 * IBV_EVENT_SRQ_LIMIT_REACHED when a receive leaves fewer than 3 WQEs,
 * and not before; the limit is then 0 (disarmed) and no other event
 * follows.
 */
MT_TEST_F(srqs, limit_fires_once)
{
	struct ibv_srq_attr a = { .srq_limit = 3 };
	struct ibv_async_event ev;
	unsigned int k;

	if (!CHECK_ERR(ibv_modify_srq(self->srq, &a, IBV_SRQ_LIMIT), 0))
		return KSFT_FAIL;
	memset(&a, 0, sizeof(a));
	if (CHECK_ERR(ibv_query_srq(self->srq, &a), 0))
		CHECK_EQ(a.srq_limit, 3);
	for (k = 0; k < 5; k++)
		if (!CHECK_ERR(post_srq(self, k, k * 64, 64,
					self->p.mr->lkey), 0))
			return KSFT_FAIL;
	no_event(self);
	for (k = 0; k < 5; k++) {
		if (!CHECK_ERR(send_from(self, k % NQP, k, 0, 64), 0))
			return KSFT_FAIL;
		recv_is(self, k % NQP, k, 64);
		if (k != 2) {	/* 5 - (k + 1) left: below 3 at k == 2 */
			no_event(self);
			continue;
		}
		if (CHECK(next_event(self->p.c.ctx, WAIT_MS, &ev)) &&
		    CHECK_EQ(ev.event_type, IBV_EVENT_SRQ_LIMIT_REACHED))
			CHECK(ev.element.srq == self->srq);
		if (CHECK_ERR(ibv_query_srq(self->srq, &a), 0))
			CHECK_EQ(a.srq_limit, 0);
	}
	return KSFT_PASS;
}

/* Never armed, an SRQ that empties raises nothing. */
MT_TEST_F(srqs, limit_unarmed)
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		if (!CHECK_ERR(post_srq(self, k, k * 64, 64,
					self->p.mr->lkey), 0))
			return KSFT_FAIL;
	for (k = 0; k < 3; k++) {
		if (!CHECK_ERR(send_from(self, 0, k, 0, 64), 0))
			return KSFT_FAIL;
		recv_is(self, 0, k, 64);
	}
	no_event(self);
	return KSFT_PASS;
}

/* The event of a QP on the SRQ that went to ERR: LAST_WQE_REACHED. */
static void last_wqe_of(struct srqs *s, struct ibv_qp *qp)
{
	struct ibv_async_event ev;

	if (CHECK(next_event(s->p.c.ctx, WAIT_MS, &ev)) &&
	    CHECK_EQ(ev.event_type, IBV_EVENT_QP_LAST_WQE_REACHED))
		CHECK(ev.element.qp == qp);
}

/*
 * A QP on the SRQ moved to ERR raises IBV_EVENT_QP_LAST_WQE_REACHED;
 * the SRQ's WQEs are not flushed: the next message to another of its QPs
 * takes the first of them.
 */
MT_TEST_F(srqs, last_wqe_reached)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_wc wc;
	unsigned int k;

	for (k = 0; k < 3; k++)
		if (!CHECK_ERR(post_srq(self, k, k * 64, 64,
					self->p.mr->lkey), 0))
			return KSFT_FAIL;
	if (!CHECK_ERR(ibv_modify_qp(self->b[0], &a, IBV_QP_STATE), 0))
		return KSFT_FAIL;
	last_wqe_of(self, self->b[0]);
	CHECK_EQ(ibv_poll_cq(self->rcq, 1, &wc), 0);
	if (CHECK_ERR(send_from(self, 1, 7, 0, 64), 0))
		recv_is(self, 1, 0, 64);
	no_event(self);
	return KSFT_PASS;
}

/*
 * A receive too small: the responder's WQE completes with a local length
 * error (the requester's with a remote invalid request), the responder
 * goes to ERR and raises LAST_WQE_REACHED; the SRQ's other WQEs stay for
 * its other QPs.
 */
MT_TEST_F(srqs, error_leaves_others)
{
	struct ibv_wc wc;

	fill(self->p.buf, 64, 1);
	if (!CHECK_ERR(post_srq(self, 1, 0, 16, self->p.mr->lkey), 0) ||
	    !CHECK_ERR(post_srq(self, 2, 64, 64, self->p.mr->lkey), 0) ||
	    !CHECK_ERR(post_srq(self, 3, 128, 64, self->p.mr->lkey), 0) ||
	    !CHECK_ERR(send_from(self, 0, 10, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(self->scq, &wc))
		wc_is(&wc, 10, IBV_WC_REM_INV_REQ_ERR, 0);
	if (poll_one(self->rcq, &wc) &&
	    wc_is(&wc, 1, IBV_WC_LOC_LEN_ERR, 0))
		CHECK_EQ(wc.qp_num, self->b[0]->qp_num);
	last_wqe_of(self, self->b[0]);
	CHECK_EQ(ibv_poll_cq(self->rcq, 1, &wc), 0);
	if (CHECK_ERR(send_from(self, 1, 11, 0, 64), 0))
		recv_is(self, 1, 2, 64);
	if (CHECK_ERR(send_from(self, 2, 12, 0, 64), 0))
		recv_is(self, 2, 3, 64);
	CHECK(!memcmp(self->p.buf + RECV_OFF + 64, self->p.buf, 64));
	return KSFT_PASS;
}

/*
 * A WQE's keys are checked against the SRQ's PD: a WQE naming an MR of
 * another PD completes with a local protection error, and nothing lands.
 */
MT_TEST_F(srqs, key_of_other_pd)
{
	struct ibv_pd *pd2 = ibv_alloc_pd(self->p.c.ctx);
	struct ibv_mr *mr2 = NULL;
	struct ibv_wc wc;

	if (!CHECK(pd2))
		return KSFT_FAIL;
	mr2 = ibv_reg_mr(pd2, self->p.buf, SBUF, ALL_ACCESS);
	fill(self->p.buf, 64, 2);
	if (CHECK(mr2) &&
	    CHECK_ERR(post_srq(self, 1, 0, 64, mr2->lkey), 0) &&
	    CHECK_ERR(send_from(self, 0, 10, 0, 64), 0)) {
		if (poll_one(self->scq, &wc))
			wc_is(&wc, 10, IBV_WC_REM_OP_ERR, 0);
		if (poll_one(self->rcq, &wc))
			wc_is(&wc, 1, IBV_WC_LOC_PROT_ERR, 0);
		last_wqe_of(self, self->b[0]);
		CHECK(self->p.buf[RECV_OFF] == 0);
	}
	/* the QPs go first: a QP in error no longer reads the MR */
	srqs_free_qps(self);
	if (mr2)
		CHECK_ERR(ibv_dereg_mr(mr2), 0);
	CHECK_ERR(ibv_dealloc_pd(pd2), 0);
	return KSFT_PASS;
}

/* An empty SRQ is an RNR NAK: a WQE posted later takes the message. */
MT_TEST_F(srqs, empty_rnr_waits)
{
	struct ibv_wc wc;

	fill(self->p.buf, 64, 4);
	if (!CHECK_ERR(send_from(self, 0, 10, 0, 64), 0))
		return KSFT_FAIL;
	usleep(100 * 1000);
	CHECK_EQ(ibv_poll_cq(self->scq, 1, &wc), 0);
	if (!CHECK_ERR(post_srq(self, 1, 0, 64, self->p.mr->lkey), 0))
		return KSFT_FAIL;
	if (poll_one(self->scq, &wc))
		wc_is(&wc, 10, IBV_WC_SUCCESS, IBV_WC_SEND);
	recv_is(self, 0, 1, 64);
	CHECK(!memcmp(self->p.buf + RECV_OFF, self->p.buf, 64));
	return KSFT_PASS;
}

/* An SRQ some QP uses is not destroyed (EBUSY); once they are gone it is. */
MT_TEST_F(srqs, destroy_busy)
{
	CHECK_ERR(ibv_destroy_srq(self->srq) ? errno : 0, EBUSY);
	srqs_free_qps(self);
	if (CHECK_ERR(ibv_destroy_srq(self->srq), 0))
		self->srq = NULL;
	return KSFT_PASS;
}

/*
 * Sizes: the SRQ holds at least what it was made with (libmlx5 asks the
 * kernel for more: room for the WQEs it keeps back); more WQEs or
 * segments than the device offers are refused (EINVAL), as are resizing
 * and a limit past the SRQ's max_wr.
 */
MT_TEST_F(srqs, sizes)
{
	struct ibv_device_attr dev;
	struct ibv_srq_attr a = {};
	struct ibv_srq *srq;
	uint32_t max_wr;

	if (!CHECK_ERR(ibv_query_srq(self->srq, &a), 0))
		return KSFT_FAIL;
	CHECK(a.max_wr >= self->max_wr);
	CHECK(a.max_sge >= 2);
	max_wr = a.max_wr;
	if (!CHECK_ERR(ibv_query_device(self->p.c.ctx, &dev), 0))
		return KSFT_FAIL;
	srq = make_srq(self->p.pd, dev.max_srq_wr + 1, 1, NULL);
	CHECK(!srq && errno == EINVAL);
	srq = make_srq(self->p.pd, 4, dev.max_srq_sge + 1, NULL);
	CHECK(!srq && errno == EINVAL);
	srq = make_srq(self->p.pd, dev.max_srq_wr, dev.max_srq_sge, NULL);
	if (CHECK(srq))
		CHECK_ERR(ibv_destroy_srq(srq), 0);

	a = (struct ibv_srq_attr){ .max_wr = max_wr * 2 };
	CHECK_ERR(ibv_modify_srq(self->srq, &a, IBV_SRQ_MAX_WR), EINVAL);
	a.srq_limit = max_wr + 1;
	CHECK_ERR(ibv_modify_srq(self->srq, &a, IBV_SRQ_LIMIT), EINVAL);
	a.srq_limit = max_wr;
	CHECK_ERR(ibv_modify_srq(self->srq, &a, IBV_SRQ_LIMIT), 0);
	return KSFT_PASS;
}

/* A QP of another context cannot receive through this context's SRQ. */
MT_TEST_F(srqs, other_context)
{
	struct mt_ctx c2 = {};
	struct ibv_pd *pd = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_qp *qp;

	if (!mt_ctx_open(&c2, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	pd = ibv_alloc_pd(c2.ctx);
	cq = ibv_create_cq(c2.ctx, 4, NULL, NULL, 0);
	if (CHECK(pd) && CHECK(cq)) {
		/* ib_uverbs finds no SRQ of that handle in this context */
		qp = srq_qp(pd, cq, cq, self->srq);
		if (!CHECK(!qp))
			ibv_destroy_qp(qp);
		else
			CHECK_EQ(errno, ENOENT);
	}
	if (cq)
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	mt_ctx_close(&c2);
	return KSFT_PASS;
}

/*
 * UC and UD QPs receive through an SRQ too: the next WQE, in order after
 * the RC QPs' (a UD receive with the 40-byte GRH before the payload).
 */
MT_TEST_F(srqs, uc_and_ud)
{
	struct pair *p = &self->p;
	struct ibv_qp *uc[2] = {}, *ud[2] = {};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qkey = 0x1234 };
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED,
				  .num_sge = 1 };
	struct ibv_sge sge = { .addr = (uintptr_t)p->buf, .length = 64,
			       .lkey = p->mr->lkey };
	struct ibv_send_wr *bad;
	struct ibv_ah *ah = NULL;
	struct ibv_wc wc;
	unsigned int i;

	fill(p->buf, 64, 6);
	wr.sg_list = &sge;
	for (i = 0; i < 2; i++) {
		uc[i] = type_qp(p->pd, self->scq, self->rcq,
				i ? self->srq : NULL, IBV_QPT_UC);
		ud[i] = type_qp(p->pd, self->scq, self->rcq,
				i ? self->srq : NULL, IBV_QPT_UD);
		if (!CHECK(uc[i]) || !CHECK(ud[i]))
			goto out;
	}
	if (!CHECK_ERR(rc_connect(p, uc[0], uc[1]->qp_num, 0, 0), 0) ||
	    !CHECK_ERR(rc_connect(p, uc[1], uc[0]->qp_num, 0, 0), 0))
		goto out;
	for (i = 0; i < 2; i++) {
		a.qp_state = IBV_QPS_INIT;
		if (!CHECK_ERR(ibv_modify_qp(ud[i], &a, IBV_QP_STATE |
					     IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					     IBV_QP_QKEY), 0))
			goto out;
		a.qp_state = IBV_QPS_RTR;
		if (!CHECK_ERR(ibv_modify_qp(ud[i], &a, IBV_QP_STATE), 0))
			goto out;
		a.qp_state = IBV_QPS_RTS;
		if (!CHECK_ERR(ibv_modify_qp(ud[i], &a, IBV_QP_STATE |
					     IBV_QP_SQ_PSN), 0))
			goto out;
	}
	aa.grh.sgid_index = p->gid;
	aa.grh.hop_limit = 64;
	if (!CHECK_ERR(ibv_query_gid(p->c.ctx, 1, p->gid, &aa.grh.dgid), 0))
		goto out;
	ah = ibv_create_ah(p->pd, &aa);
	if (!CHECK(ah) ||
	    !CHECK_ERR(post_srq(self, 1, 0, 128, p->mr->lkey), 0) ||
	    !CHECK_ERR(post_srq(self, 2, 128, 128, p->mr->lkey), 0))
		goto out;

	wr.wr_id = 10;
	if (CHECK_ERR(ibv_post_send(uc[0], &wr, &bad), 0) &&
	    poll_one(self->scq, &wc) &&
	    wc_is(&wc, 10, IBV_WC_SUCCESS, IBV_WC_SEND) &&
	    poll_one(self->rcq, &wc) &&
	    wc_is(&wc, 1, IBV_WC_SUCCESS, IBV_WC_RECV)) {
		CHECK_EQ(wc.qp_num, uc[1]->qp_num);
		CHECK_EQ(wc.byte_len, 64);
		CHECK(!memcmp(p->buf + RECV_OFF, p->buf, 64));
	}

	wr.wr_id = 11;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = ud[1]->qp_num;
	wr.wr.ud.remote_qkey = 0x1234;
	if (CHECK_ERR(ibv_post_send(ud[0], &wr, &bad), 0) &&
	    poll_one(self->scq, &wc) &&
	    wc_is(&wc, 11, IBV_WC_SUCCESS, IBV_WC_SEND) &&
	    poll_one(self->rcq, &wc) &&
	    wc_is(&wc, 2, IBV_WC_SUCCESS, IBV_WC_RECV)) {
		CHECK_EQ(wc.qp_num, ud[1]->qp_num);
		CHECK_EQ(wc.src_qp, ud[0]->qp_num);
		CHECK_EQ(wc.byte_len, 40 + 64);
		CHECK(!memcmp(p->buf + RECV_OFF + 128 + 40, p->buf, 64));
	}
out:
	if (ah)
		CHECK_ERR(ibv_destroy_ah(ah), 0);
	for (i = 0; i < 2; i++) {
		if (uc[i])
			CHECK_ERR(ibv_destroy_qp(uc[i]), 0);
		if (ud[i])
			CHECK_ERR(ibv_destroy_qp(ud[i]), 0);
	}
	return KSFT_PASS;
}

/*
 * In the model, the SRQ is an RMP of the context, held by the QPs on it;
 * destroyed, it is gone.
 */
MT_TEST_F(srqs, fw_rmp)
{
	int uid = self->p.c.uid;

	CHECK_EQ(mt_fw_count("rmp", uid), 1);
	srqs_free_qps(self);
	if (CHECK_ERR(ibv_destroy_srq(self->srq), 0))
		self->srq = NULL;
	CHECK_EQ(mt_fw_count("rmp", uid), 0);
	return KSFT_PASS;
}

/*
 * An RMP by DEVX mailbox: create_rmp_in, modify_rmp_in and query_rmp_out
 * put the RMP's work queue where create_rq_in puts the RQ's.
 */
#define RMP_STATE	MT_FIELD(0x100 + 0x8, 4)	/* ctx.state */
#define RMP_MOD_STATE	MT_FIELD(0x40, 4)		/* rmp_state */
#define RMP_MOD_RMPN	MT_FIELD(0x48, 24)
#define RMP_MOD_LWM	MT_FIELD(0x80 + 0x3f, 1)	/* bitmask.lwm */
#define RMP_BYTES	PRM_CREATE_RQ_IN_BYTES

static int rmp_arm(struct mq_obj *o, uint32_t lwm)
{
	uint32_t in[RMP_BYTES / 4] = {}, out[4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_MODIFY_RMP);
	mt_set(in, RMP_MOD_STATE, WQ_RDY);
	mt_set(in, RMP_MOD_RMPN, o->id);
	mt_set(in, RMP_MOD_LWM, 1);
	mt_set(in, RMP_STATE, WQ_RDY);
	mt_set(in, WQ_F(RQ_WQ, LWM), lwm);
	return mlx5dv_devx_obj_modify(o->obj, in, sizeof(in), out, sizeof(out));
}

/*
 * A DEVX context makes an SRQ as mlx5_ib does, CREATE_RMP (a linked-list
 * work queue, its buffer and record by umem), arms its limit with
 * MODIFY_RMP, reads it back with QUERY_RMP; a limit not below the
 * queue's size is refused.
 */
MT_TEST_F(mt_mq, devx_rmp)
{
	uint32_t in[RMP_BYTES / 4], out[RMP_BYTES / 4];
	struct mq *q = &self->q;
	struct mq_obj o;

	memset(in, 0, sizeof(in));
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_RMP);
	mt_set(in, RMP_STATE, WQ_RDY);
	mq_wq(q, in, RQ_WQ);
	mt_set(in, WQ_F(RQ_WQ, WQ_TYPE), 0);		/* linked list */
	if (!CHECK(mq_create(q, in, sizeof(in), &o, out)))
		return KSFT_FAIL;
	if (CHECK_ERR(mq_query(&o, PRM_OP_QUERY_RMP, o.id, out, sizeof(out)),
		      0)) {
		CHECK_EQ(mt_get(out, RMP_STATE), WQ_RDY);
		CHECK_EQ(mt_get(out, WQ_F(RQ_WQ, LOG_WQ_SZ)), 4);
		CHECK_EQ(mt_get(out, WQ_F(RQ_WQ, LWM)), 0);
	}
	CHECK_ERR(rmp_arm(&o, 3), 0);
	if (CHECK_ERR(mq_query(&o, PRM_OP_QUERY_RMP, o.id, out, sizeof(out)),
		      0))
		CHECK_EQ(mt_get(out, WQ_F(RQ_WQ, LWM)), 3);
	CHECK_ERR(rmp_arm(&o, 16), EREMOTEIO);
	CHECK_ERR(mlx5dv_devx_obj_destroy(o.obj), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(srqs, in_order),
	MT_CASE_F(srqs, long_message),
	MT_CASE_F(srqs, limit_fires_once),
	MT_CASE_F(srqs, limit_unarmed),
	MT_CASE_F(srqs, last_wqe_reached),
	MT_CASE_F(srqs, error_leaves_others),
	MT_CASE_F(srqs, key_of_other_pd),
	MT_CASE_F(srqs, empty_rnr_waits),
	MT_CASE_F(srqs, destroy_busy),
	MT_CASE_F(srqs, sizes),
	MT_CASE_F(srqs, other_context),
	MT_CASE_F(srqs, uc_and_ud),
	MT_CASE_F(srqs, fw_rmp, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_mq_fixture, devx_rmp),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
