// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC's errors between two QPs of the device, as the IBTA defines them and
 * ibv_poll_cq(3) reports them, completing on both sides: a bad rkey,
 * missing access rights, RNR retries exhausted (and retried without
 * end), a receive too small, and the flush of what is left in a QP in
 * error; the asynchronous errors of a responder and of a CQ overrun.  The
 * traffic itself: mlx5x_rc.
 */
#define _GNU_SOURCE
#include <poll.h>
#include "mlx5x_rc.h"

/* The pair with B allowing no remote access, and no RNR retry. */
struct strict {
	struct pair p;
};

MT_FIXTURE(strict);

MT_FIXTURE_SETUP(strict)
{
	return pair_open(&self->p, IBV_QPT_RC, IBV_ACCESS_LOCAL_WRITE, 1);
}

MT_FIXTURE_TEARDOWN(strict)
{
	pair_teardown(&self->p);
}

/*
 * A bad rkey: the requester completes with a remote access error and
 * goes to ERR, the WR after it is flushed, and no byte moved.
 */
MT_TEST_F(pair, bad_rkey)
{
	struct ibv_send_wr wr = {
		.wr_id = 12, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)self->buf + 20000,
			     self->mr->rkey ^ 0x80 },
	};
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_wc wc;

	fill(self->buf, 100, 1);
	if (!CHECK_ERR(post_send(self, &wr, 0, 100), 0))
		return KSFT_FAIL;
	wr.wr_id = 13;
	wr.wr.rdma.rkey = self->mr->rkey;
	if (!CHECK_ERR(post_send(self, &wr, 0, 100), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 12, IBV_WC_REM_ACCESS_ERR, 0);
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 13, IBV_WC_WR_FLUSH_ERR, 0);
	CHECK(self->buf[20000] == 0 && self->buf[20099] == 0);
	if (CHECK_ERR(ibv_query_qp(self->qp[0], &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_ERR);
	return KSFT_PASS;
}

/* RDMA READ and WRITE on a QP that allows neither: remote access errors. */
MT_TEST_F(strict, no_remote_access)
{
	struct pair *p = &self->p;
	struct ibv_send_wr wr = {
		.wr_id = 14, .opcode = IBV_WR_RDMA_READ,
		.wr.rdma = { (uintptr_t)p->buf + 20000, p->mr->rkey },
	};
	struct ibv_wc wc;

	if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[0], &wc))
		wc_is(&wc, 14, IBV_WC_REM_ACCESS_ERR, 0);
	return KSFT_PASS;
}

/*
 * A SEND with no receive posted: RNR NAKs, then, rnr_retry (1) spent,
 * the requester completes with RNR retry exceeded.
 */
MT_TEST_F(strict, rnr_retry_exceeded)
{
	struct pair *p = &self->p;
	struct ibv_send_wr wr = { .wr_id = 15, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[0], &wc))
		wc_is(&wc, 15, IBV_WC_RNR_RETRY_EXC_ERR, 0);
	return KSFT_PASS;
}

/* rnr_retry 7 retries without end: a receive posted later takes it. */
MT_TEST_F(pair, rnr_waits)
{
	struct ibv_send_wr wr = { .wr_id = 16, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	fill(self->buf, 64, 4);
	if (!CHECK_ERR(post_send(self, &wr, 0, 64), 0))
		return KSFT_FAIL;
	usleep(100 * 1000);
	CHECK_EQ(ibv_poll_cq(self->cq[0], 1, &wc), 0);
	if (!CHECK_ERR(post_recv(self, 17, 32768, 64), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 16, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (poll_one(self->cq[1], &wc))
		wc_is(&wc, 17, IBV_WC_SUCCESS, IBV_WC_RECV);
	CHECK(!memcmp(self->buf + 32768, self->buf, 64));
	return KSFT_PASS;
}

/*
 * A SEND longer than the receive: the responder completes with a local
 * length error, the requester with a remote invalid request error.
 */
MT_TEST_F(pair, recv_too_small)
{
	struct ibv_send_wr wr = { .wr_id = 18, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(self, 19, 32768, 16), 0) ||
	    !CHECK_ERR(post_send(self, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 18, IBV_WC_REM_INV_REQ_ERR, 0);
	if (poll_one(self->cq[1], &wc))
		wc_is(&wc, 19, IBV_WC_LOC_LEN_ERR, 0);
	return KSFT_PASS;
}

/* A QP moved to ERR flushes every receive still posted, in order. */
MT_TEST_F(pair, flush_on_error)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_wc wc;
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (!CHECK_ERR(post_recv(self, 20 + i, 32768 + i * 64, 64), 0))
			return KSFT_FAIL;
	if (!CHECK_ERR(ibv_modify_qp(self->qp[1], &a, IBV_QP_STATE), 0))
		return KSFT_FAIL;
	for (i = 0; i < 3; i++)
		if (poll_one(self->cq[1], &wc))
			wc_is(&wc, 20 + i, IBV_WC_WR_FLUSH_ERR, 0);
	return KSFT_PASS;
}

/*
 * An RDMA READ whose local segment is inline (IBV_SEND_INLINE): its data
 * has nowhere to land.  It completes with a local length error, and no
 * byte of any memory changes (the model once wrote through the last
 * message's memory instead: another context's).
 */
MT_TEST_F(pair, read_inline_refused)
{
	struct ibv_send_wr wr = {
		.wr_id = 60, .opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_INLINE,
		.wr.rdma = { (uintptr_t)self->buf + 50000, self->mr->rkey },
	};
	struct ibv_send_wr snd = { .wr_id = 61, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	/* a message first, so that the engine has memory in mind */
	fill(self->buf, 256, 3);
	fill(self->buf + 50000, 64, 0x41);
	if (!CHECK_ERR(post_recv(self, 62, 32768, 256), 0) ||
	    !CHECK_ERR(post_send(self, &snd, 0, 256), 0))
		return KSFT_FAIL;
	poll_one(self->cq[0], &wc);
	poll_one(self->cq[1], &wc);
	if (!CHECK_ERR(post_send(self, &wr, 4096, 64), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 60, IBV_WC_LOC_LEN_ERR, 0);
	CHECK(!memcmp(self->buf + 32768, self->buf, 256));
	return KSFT_PASS;
}

/*
 * An RDMA WRITE the responder refuses (a bad rkey) consumes no receive
 * WQE: no CQE of the responder's says why it failed.  An affiliated
 * asynchronous error does (IBTA 11.6.3.1): IBV_EVENT_QP_ACCESS_ERR,
 * through ibv_get_async_event(3), and the responder is in ERR.
 */
MT_TEST_F(pair, responder_access_event)
{
	struct ibv_send_wr wr = {
		.wr_id = 80, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)self->buf + 20000,
			     self->mr->rkey ^ 0x80 },
	};
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	struct ibv_wc wc;

	if (!CHECK_ERR(post_send(self, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 80, IBV_WC_REM_ACCESS_ERR, 0);
	CHECK_EQ(mt_wait_event(self->c.ctx, IBV_EVENT_QP_ACCESS_ERR, WAIT_MS,
			       NULL), 0);
	if (CHECK_ERR(ibv_query_qp(self->qp[1], &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_ERR);
	return KSFT_PASS;
}

/*
 * The QP_FATAL events of @ctx, read for @ms: those naming @qp, and in
 * *@other every other event.
 */
static unsigned int qp_fatals(struct ibv_context *ctx, struct ibv_qp *qp,
			      long ms, unsigned int *other)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	long end = mt_now_ms() + ms;
	struct ibv_async_event ev;
	unsigned int n = 0;

	while (mt_now_ms() < end) {
		if (poll(&pfd, 1, end - mt_now_ms()) <= 0 ||
		    ibv_get_async_event(ctx, &ev))
			continue;
		mt_diag("async event %s", ibv_event_type_str(ev.event_type));
		if (ev.event_type == IBV_EVENT_QP_FATAL && ev.element.qp == qp)
			n++;
		else
			(*other)++;
		ibv_ack_async_event(&ev);
	}
	return n;
}

/* Post @n signalled 8-byte SENDs, wr_id @id on, to @qp. */
static void sends(struct pair *p, struct ibv_qp *qp, unsigned int id,
		  unsigned int n)
{
	struct ibv_sge sge = { (uintptr_t)p->buf, 8, p->mr->lkey };
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND, .sg_list = &sge, .num_sge = 1,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	for (; n; n--) {
		wr.wr_id = id++;
		CHECK_ERR(ibv_post_send(qp, &wr, &bad), 0);
	}
}

/*
 * A CQ that takes more completions than it holds, none polled, overruns:
 * IBV_EVENT_CQ_ERR (ibv_get_async_event(3)).  A QP connected to no QP
 * completes its first send with a retry error and flushes the others:
 * four completions for a CQ of two.  The QP could not report them: it
 * gets IBV_EVENT_QP_FATAL (IBTA C9-218, C11-37: each work queue that
 * tries to use the CQ in error), once, though more of its WRs are then
 * flushed into that CQ; the pair's own QPs get nothing.
 */
MT_TEST_F(pair, cq_overrun_event)
{
	struct ibv_cq *cq = ibv_create_cq(self->c.ctx, 1, NULL, NULL, 0);
	struct ibv_qp *qp = cq ? rc_qp(self, cq, IBV_QPT_RC) : NULL;
	unsigned int other = 0;
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (!CHECK(cq) || !CHECK(qp))
		goto out;
	if (cq->cqe > 3) {
		mt_diag("a CQ of %d entries for 1", cq->cqe);
		goto out;
	}
	if (!CHECK_ERR(rc_connect(self, qp, 0xfffffe, ALL_ACCESS, 0), 0))
		goto out;
	sends(self, qp, 90, 4);
	CHECK_EQ(mt_wait_event(self->c.ctx, IBV_EVENT_CQ_ERR, 3 * WAIT_MS,
			       NULL), 0);
	CHECK_EQ(qp_fatals(self->c.ctx, qp, 1000, &other), 1);
	sends(self, qp, 94, 2);
	CHECK_EQ(qp_fatals(self->c.ctx, qp, 500, &other), 0);
	CHECK_EQ(other, 0);
	if (CHECK_ERR(ibv_query_qp(qp, &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_ERR);
out:
	if (qp)
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	if (cq)
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	return KSFT_PASS;
}

/*
 * The attacker of read_inline_other_user: nobody, with an RC pair of its
 * own context, posts an inline RDMA READ; it completes with a local
 * length error.
 */
static int read_inline_attacker(void *unused)
{
	struct pair p = {};
	struct ibv_send_wr wr = {
		.wr_id = 70, .opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_INLINE,
	};
	struct ibv_wc wc;
	int rc = pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7);

	(void)unused;
	if (rc == KSFT_PASS) {
		wr.wr.rdma.remote_addr = (uintptr_t)p.buf + 4096;
		wr.wr.rdma.rkey = p.mr->rkey;
		if (CHECK_ERR(post_send(&p, &wr, 0, 64), 0) &&
		    poll_one(p.cq[0], &wc))
			wc_is(&wc, 70, IBV_WC_LOC_LEN_ERR, 0);
	}
	pair_teardown(&p);
	return rc;
}

/*
 * The same READ from an unprivileged user's context, after a message of
 * root's: no byte of root's memory changes, whichever message the
 * engine executed last.
 */
MT_TEST_F(pair, read_inline_other_user)
{
	struct ibv_send_wr snd = { .wr_id = 71, .opcode = IBV_WR_SEND };
	uint8_t *before = malloc(BUF_BYTES);
	struct ibv_wc wc;

	if (!CHECK(before))
		return KSFT_FAIL;
	fill(self->buf, BUF_BYTES / 2, 5);
	if (CHECK_ERR(post_recv(self, 72, 32768, 4096), 0) &&
	    CHECK_ERR(post_send(self, &snd, 0, 4096), 0)) {
		poll_one(self->cq[0], &wc);
		poll_one(self->cq[1], &wc);
		memcpy(before, self->buf, BUF_BYTES);
		CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, read_inline_attacker,
				   NULL), KSFT_PASS);
		CHECK(!memcmp(before, self->buf, BUF_BYTES));
	}
	free(before);
	return KSFT_PASS;
}

/* The model's reserved lkey (sim/dp/datapath.h): the kernel QPs' own. */
#define MODEL_RESD_LKEY		0x80

/* The address of kernel symbol @name, as root reads /proc/kallsyms. */
static uint64_t kernel_symbol(const char *name)
{
	char line[256], sym[128], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name))
			found = addr;
	fclose(f);
	return found;
}

/*
 * The attacker of resd_lkey_other_user: nobody, with an RC pair of its
 * own context, sends 64 bytes from the kernel's linux_banner named by
 * the reserved lkey; a process's QP has no reserved lkey (only the
 * kernel sets qpc.rlky), so the key is no key: a local protection
 * error, and nothing arrives.
 */
static int resd_lkey_attacker(void *arg)
{
	struct ibv_send_wr wr = {
		.wr_id = 80, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_sge sge = {
		.addr = *(uint64_t *)arg, .length = 64,
		.lkey = MODEL_RESD_LKEY,
	};
	struct ibv_send_wr *bad;
	struct pair p = {};
	struct ibv_wc wc;
	int rc = pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7);

	if (rc == KSFT_PASS) {
		wr.sg_list = &sge;
		wr.num_sge = 1;
		memset(p.buf, 0, 4096);
		if (CHECK_ERR(post_recv(&p, 81, 0, 4096), 0) &&
		    CHECK_ERR(ibv_post_send(p.qp[0], &wr, &bad), 0) &&
		    poll_one(p.cq[0], &wc))
			wc_is(&wc, 80, IBV_WC_LOC_PROT_ERR, 0);
		CHECK(!memmem(p.buf, 4096, "Linux", 5));
	}
	pair_teardown(&p);
	return rc;
}

/*
 * The reserved lkey names memory by the address the device reaches it
 * at: the kernel's QP1 posts its MADs so.  From a process's QP it must
 * reach nothing: an unprivileged user sends from the kernel's own
 * version string with it.
 */
MT_TEST_F(pair, resd_lkey_other_user)
{
	uint64_t banner = kernel_symbol("linux_banner");

	(void)self;
	if (!banner)
		return mt_skip("no address for linux_banner in /proc/kallsyms");
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, resd_lkey_attacker, &banner),
		 KSFT_PASS);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, bad_rkey),
	MT_CASE_F(strict, no_remote_access),
	MT_CASE_F(strict, rnr_retry_exceeded),
	MT_CASE_F(pair, rnr_waits),
	MT_CASE_F(pair, recv_too_small),
	MT_CASE_F(pair, flush_on_error),
	MT_CASE_F(pair, read_inline_refused),
	MT_CASE_F(pair, read_inline_other_user),
	MT_CASE_F(pair, resd_lkey_other_user,
		  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(pair, responder_access_event),
	MT_CASE_F(pair, cq_overrun_event),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
