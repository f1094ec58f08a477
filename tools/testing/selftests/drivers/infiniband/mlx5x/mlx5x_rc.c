// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC and UC traffic between two QPs of the device (a ConnectX's internal
 * loopback), as ibv_post_send(3), ibv_post_recv(3), ibv_poll_cq(3) and
 * ibv_modify_qp(3) describe it: SEND with and without immediate and
 * inline, RDMA WRITE with and without immediate, RDMA READ, the two
 * atomics, messages longer than a turn of the model; completion events
 * (ibv_req_notify_cq(3)); a CQ resized under traffic (ibv_resize_cq(3));
 * CQs of padded 128-byte CQEs (mlx5dv_create_cq(3));
 * and UC, which has no acknowledgements: what
 * its responder cannot take is lost, silently.  RC's errors:
 * mlx5x_rc_errors.
 */
#define _GNU_SOURCE
#include "mlx5x_rc.h"

/* A UC pair: what UC may be given, write. */
struct uc {
	struct pair p;
};

MT_FIXTURE(uc);

MT_FIXTURE_SETUP(uc)
{
	return pair_open(&self->p, IBV_QPT_UC,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, 0);
}

MT_FIXTURE_TEARDOWN(uc)
{
	pair_teardown(&self->p);
}

/* The pair with its CQs on a completion channel. */
struct events {
	struct pair p;
};

MT_FIXTURE(events);

MT_FIXTURE_SETUP(events)
{
	return pair_open_ch(&self->p, IBV_QPT_RC, ALL_ACCESS, 7, true);
}

MT_FIXTURE_TEARDOWN(events)
{
	pair_teardown(&self->p);
}

/* A SEND of three SGEs lands in B's receive of two; both complete. */
MT_TEST_F(pair, send_recv)
{
	struct ibv_sge sge[3], rsge[2];
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = sge, .num_sge = 3,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = rsge,
				   .num_sge = 2 }, *rbad;
	uint8_t *b = self->buf;
	struct ibv_wc wc;
	unsigned int i;

	fill(b, 6000, 3);
	for (i = 0; i < 3; i++)
		sge[i] = (struct ibv_sge){ (uintptr_t)b + i * 2000, 2000,
					   self->mr->lkey };
	rsge[0] = (struct ibv_sge){ (uintptr_t)b + 32768, 1000,
				    self->mr->lkey };
	rsge[1] = (struct ibv_sge){ (uintptr_t)b + 40000, 8000,
				    self->mr->lkey };
	if (!CHECK_ERR(ibv_post_recv(self->qp[1], &rwr, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_send(self->qp[0], &wr, &bad), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 1, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (poll_one(self->cq[1], &wc)) {
		wc_is(&wc, 2, IBV_WC_SUCCESS, IBV_WC_RECV);
		CHECK_EQ(wc.byte_len, 6000);
		CHECK_EQ(wc.qp_num, self->qp[1]->qp_num);
		CHECK(!(wc.wc_flags & IBV_WC_WITH_IMM));
	}
	CHECK(!memcmp(b + 32768, b, 1000));
	CHECK(!memcmp(b + 40000, b + 1000, 5000));
	return KSFT_PASS;
}

/* SEND with immediate, inline: the immediate arrives as it was sent. */
MT_TEST_F(pair, send_imm_inline)
{
	struct ibv_send_wr wr = {
		.wr_id = 3, .opcode = IBV_WR_SEND_WITH_IMM,
		.send_flags = IBV_SEND_INLINE, .imm_data = htobe32(0xfeed1234),
	};
	struct ibv_wc wc;

	fill(self->buf, 48, 9);
	if (!CHECK_ERR(post_recv(self, 4, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(self, &wr, 0, 48), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 3, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (poll_one(self->cq[1], &wc) &&
	    wc_is(&wc, 4, IBV_WC_SUCCESS, IBV_WC_RECV)) {
		CHECK_EQ(wc.byte_len, 48);
		CHECK(wc.wc_flags & IBV_WC_WITH_IMM);
		CHECK_EQ(wc.imm_data, htobe32(0xfeed1234));
	}
	CHECK(!memcmp(self->buf + 32768, self->buf, 48));
	return KSFT_PASS;
}

/*
 * RDMA WRITE lands at the rkey's address, taking no receive; WRITE with
 * immediate takes one and reports the length.
 */
MT_TEST_F(pair, rdma_write)
{
	struct ibv_send_wr wr = {
		.wr_id = 5, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)self->buf + 20000, self->mr->rkey },
	};
	struct ibv_wc wc;

	fill(self->buf, 10000, 1);
	if (!CHECK_ERR(post_send(self, &wr, 0, 10000), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 5, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE);
	CHECK(!memcmp(self->buf + 20000, self->buf, 10000));
	CHECK_EQ(ibv_poll_cq(self->cq[1], 1, &wc), 0);

	wr = (struct ibv_send_wr){
		.wr_id = 6, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm_data = htobe32(77),
		.wr.rdma = { (uintptr_t)self->buf + 40000, self->mr->rkey },
	};
	if (!CHECK_ERR(post_recv(self, 7, 60000, 16), 0) ||
	    !CHECK_ERR(post_send(self, &wr, 100, 300), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 6, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE);
	if (poll_one(self->cq[1], &wc) &&
	    wc_is(&wc, 7, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM)) {
		CHECK_EQ(wc.byte_len, 300);
		CHECK_EQ(wc.imm_data, htobe32(77));
	}
	CHECK(!memcmp(self->buf + 40000, self->buf + 100, 300));
	return KSFT_PASS;
}

/* RDMA READ brings the remote bytes; its completion gives the length. */
MT_TEST_F(pair, rdma_read)
{
	struct ibv_send_wr wr = {
		.wr_id = 8, .opcode = IBV_WR_RDMA_READ,
		.wr.rdma = { (uintptr_t)self->buf + 50000, self->mr->rkey },
	};
	struct ibv_wc wc;

	fill(self->buf + 50000, 5000, 5);
	if (!CHECK_ERR(post_send(self, &wr, 0, 5000), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc) &&
	    wc_is(&wc, 8, IBV_WC_SUCCESS, IBV_WC_RDMA_READ))
		CHECK_EQ(wc.byte_len, 5000);
	CHECK(!memcmp(self->buf, self->buf + 50000, 5000));
	return KSFT_PASS;
}

/*
 * Fetch and add, then compare and swap (a miss, then a hit), on 8 bytes:
 * each returns the value before it, in host byte order.
 */
MT_TEST_F(pair, atomics)
{
	uint64_t *target = (uint64_t *)(self->buf + 8192);
	uint64_t *result = (uint64_t *)self->buf;
	struct ibv_device_attr da;
	struct ibv_send_wr wr = {
		.wr_id = 9, .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.wr.atomic = { (uintptr_t)target, 5, 0, self->mr->rkey },
	};
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_query_device(self->c.ctx, &da), 0))
		return KSFT_FAIL;
	if (da.atomic_cap == IBV_ATOMIC_NONE)
		return mt_skip("the device reports no atomics");
	*target = 100;
	if (!CHECK_ERR(post_send(self, &wr, 0, 8), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc) &&
	    wc_is(&wc, 9, IBV_WC_SUCCESS, IBV_WC_FETCH_ADD))
		CHECK_EQ(wc.byte_len, 8);
	CHECK_EQ(*result, 100);
	CHECK_EQ(*target, 105);

	wr = (struct ibv_send_wr){
		.wr_id = 10, .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
		.wr.atomic = { (uintptr_t)target, 7, 42, self->mr->rkey },
	};
	if (!CHECK_ERR(post_send(self, &wr, 0, 8), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 10, IBV_WC_SUCCESS, IBV_WC_COMP_SWAP);
	CHECK_EQ(*result, 105);
	CHECK_EQ(*target, 105);
	wr.wr.atomic.compare_add = 105;
	wr.wr_id = 11;
	if (!CHECK_ERR(post_send(self, &wr, 0, 8), 0))
		return KSFT_FAIL;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 11, IBV_WC_SUCCESS, IBV_WC_COMP_SWAP);
	CHECK_EQ(*result, 105);
	CHECK_EQ(*target, 42);
	return KSFT_PASS;
}

/*
 * Messages of 1 MiB, longer than what the model copies in one turn:
 * a SEND of four SGEs into a receive of two, and an RDMA WRITE, land
 * whole and in order.
 */
MT_TEST_F(pair, large_messages)
{
	const size_t big = 1 << 20;
	uint8_t *mem = aligned_alloc(MT_PAGE, 2 * big);
	struct ibv_sge sge[4], rsge[2];
	struct ibv_send_wr wr = {
		.wr_id = 30, .sg_list = sge, .num_sge = 4,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_recv_wr rwr = { .wr_id = 31, .sg_list = rsge,
				   .num_sge = 2 }, *rbad;
	struct ibv_mr *mr = NULL;
	struct ibv_wc wc;
	unsigned int i;

	if (!CHECK(mem))
		return KSFT_FAIL;
	fill(mem, big, 11);
	memset(mem + big, 0, big);
	mr = ibv_reg_mr(self->pd, mem, 2 * big, ALL_ACCESS);
	if (!CHECK(mr))
		goto out;
	for (i = 0; i < 4; i++)
		sge[i] = (struct ibv_sge){ (uintptr_t)mem + i * big / 4,
					   big / 4, mr->lkey };
	rsge[0] = (struct ibv_sge){ (uintptr_t)mem + big, 1000, mr->lkey };
	rsge[1] = (struct ibv_sge){ (uintptr_t)mem + big + 1000, big - 1000,
				    mr->lkey };
	if (!CHECK_ERR(ibv_post_recv(self->qp[1], &rwr, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_send(self->qp[0], &wr, &bad), 0))
		goto out;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 30, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (poll_one(self->cq[1], &wc) &&
	    wc_is(&wc, 31, IBV_WC_SUCCESS, IBV_WC_RECV))
		CHECK_EQ(wc.byte_len, big);
	CHECK(!memcmp(mem + big, mem, big));

	memset(mem + big, 0, big);
	fill(mem, big, 23);
	sge[0] = (struct ibv_sge){ (uintptr_t)mem, big, mr->lkey };
	wr = (struct ibv_send_wr){
		.wr_id = 32, .sg_list = sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { (uintptr_t)mem + big, mr->rkey },
	};
	if (!CHECK_ERR(ibv_post_send(self->qp[0], &wr, &bad), 0))
		goto out;
	if (poll_one(self->cq[0], &wc))
		wc_is(&wc, 32, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE);
	CHECK(!memcmp(mem + big, mem, big));
out:
	if (mr)
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	free(mem);
	return KSFT_PASS;
}

/* UC: a SEND and an RDMA WRITE with immediate land as on RC. */
MT_TEST_F(uc, uc_send_write)
{
	struct pair *p = &self->p;
	struct ibv_send_wr wr = { .wr_id = 40, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	fill(p->buf, 3000, 2);
	if (!CHECK_ERR(post_recv(p, 41, 32768, 4096), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 0, 3000), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[0], &wc))
		wc_is(&wc, 40, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (poll_one(p->cq[1], &wc) &&
	    wc_is(&wc, 41, IBV_WC_SUCCESS, IBV_WC_RECV))
		CHECK_EQ(wc.byte_len, 3000);
	CHECK(!memcmp(p->buf + 32768, p->buf, 3000));

	wr = (struct ibv_send_wr){
		.wr_id = 42, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm_data = htobe32(5),
		.wr.rdma = { (uintptr_t)p->buf + 50000, p->mr->rkey },
	};
	if (!CHECK_ERR(post_recv(p, 43, 32768, 16), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 100, 2000), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[0], &wc))
		wc_is(&wc, 42, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE);
	if (poll_one(p->cq[1], &wc) &&
	    wc_is(&wc, 43, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM))
		CHECK_EQ(wc.byte_len, 2000);
	CHECK(!memcmp(p->buf + 50000, p->buf + 100, 2000));
	return KSFT_PASS;
}

/*
 * UC: what the responder cannot take is lost without a word: a SEND with
 * no receive posted and a WRITE with a bad rkey both complete at the
 * requester; the receive posted after takes the next SEND, not the lost
 * one; both QPs stay in RTS.
 */
MT_TEST_F(uc, uc_losses_are_silent)
{
	struct pair *p = &self->p;
	struct ibv_send_wr wr = { .wr_id = 44, .opcode = IBV_WR_SEND };
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_wc wc;
	unsigned int i;

	fill(p->buf, 64, 1);
	fill(p->buf + 64, 64, 9);
	if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[0], &wc))
		wc_is(&wc, 44, IBV_WC_SUCCESS, IBV_WC_SEND);
	wr = (struct ibv_send_wr){
		.wr_id = 45, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)p->buf + 20000, p->mr->rkey ^ 0x80 },
	};
	if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[0], &wc))
		wc_is(&wc, 45, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE);
	CHECK(p->buf[20000] == 0);
	wr = (struct ibv_send_wr){ .wr_id = 46, .opcode = IBV_WR_SEND };
	if (!CHECK_ERR(post_recv(p, 47, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 64, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[0], &wc))
		wc_is(&wc, 46, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (poll_one(p->cq[1], &wc))
		wc_is(&wc, 47, IBV_WC_SUCCESS, IBV_WC_RECV);
	CHECK(!memcmp(p->buf + 32768, p->buf + 64, 64));
	for (i = 0; i < 2; i++)
		if (CHECK_ERR(ibv_query_qp(p->qp[i], &a, IBV_QP_STATE, &ia),
			      0))
			CHECK_EQ(a.qp_state, IBV_QPS_RTS);
	return KSFT_PASS;
}

/* The channel's next event within @ms: its CQ, or NULL (none came). */
static struct ibv_cq *wait_event(struct pair *p, int ms)
{
	struct pollfd pfd = { .fd = p->ch->fd, .events = POLLIN };
	struct ibv_cq *cq = NULL;
	void *ctx;

	if (poll(&pfd, 1, ms) != 1)
		return NULL;
	if (!CHECK_ERR(ibv_get_cq_event(p->ch, &cq, &ctx), 0))
		return NULL;
	ibv_ack_cq_events(cq, 1);
	return cq;
}

/*
 * ibv_req_notify_cq(3): once armed, the next CQE adds an event to the
 * CQ's channel; an unarmed CQ adds none.  Armed for solicited
 * completions only, a SEND without the solicited bit adds none and one
 * with it does.
 */
MT_TEST_F(events, cq_events)
{
	struct pair *p = &self->p;
	struct ibv_send_wr wr = { .wr_id = 50, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;
	unsigned int i;

	/* nothing armed: completions, no event */
	if (!CHECK_ERR(post_recv(p, 51, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[1], &wc))
		wc_is(&wc, 51, IBV_WC_SUCCESS, IBV_WC_RECV);
	poll_one(p->cq[0], &wc);
	CHECK(!wait_event(p, 100));

	/* armed: the next CQE, and one event for it */
	for (i = 0; i < 2; i++)
		if (!CHECK_ERR(ibv_req_notify_cq(p->cq[i], 0), 0))
			return KSFT_FAIL;
	wr.wr_id = 52;
	if (!CHECK_ERR(post_recv(p, 53, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	for (i = 0; i < 2; i++) {
		struct ibv_cq *cq = wait_event(p, WAIT_MS);

		CHECK(cq == p->cq[0] || cq == p->cq[1]);
	}
	CHECK(!wait_event(p, 100));
	if (poll_one(p->cq[1], &wc))
		wc_is(&wc, 53, IBV_WC_SUCCESS, IBV_WC_RECV);
	poll_one(p->cq[0], &wc);

	/* not re-armed: no event */
	wr.wr_id = 54;
	if (!CHECK_ERR(post_recv(p, 55, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[1], &wc))
		wc_is(&wc, 55, IBV_WC_SUCCESS, IBV_WC_RECV);
	poll_one(p->cq[0], &wc);
	CHECK(!wait_event(p, 100));

	/* solicited only: a plain SEND adds none, a solicited one does */
	if (!CHECK_ERR(ibv_req_notify_cq(p->cq[1], 1), 0))
		return KSFT_FAIL;
	wr.wr_id = 56;
	if (!CHECK_ERR(post_recv(p, 57, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	if (poll_one(p->cq[1], &wc))
		wc_is(&wc, 57, IBV_WC_SUCCESS, IBV_WC_RECV);
	poll_one(p->cq[0], &wc);
	CHECK(!wait_event(p, 100));
	wr.wr_id = 58;
	wr.send_flags = IBV_SEND_SOLICITED;
	if (!CHECK_ERR(post_recv(p, 59, 32768, 64), 0) ||
	    !CHECK_ERR(post_send(p, &wr, 0, 64), 0))
		return KSFT_FAIL;
	CHECK_EQ(wait_event(p, WAIT_MS), p->cq[1]);
	if (poll_one(p->cq[1], &wc))
		wc_is(&wc, 59, IBV_WC_SUCCESS, IBV_WC_RECV);
	poll_one(p->cq[0], &wc);
	return KSFT_PASS;
}

/*
 * @n SENDs of 64 bytes from A, each into a receive of B's of its own
 * (wr_id @id0 on), A's completions polled, B's left in its CQ.
 */
static bool exchange(struct pair *p, uint64_t id0, unsigned int n)
{
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND };
	struct ibv_wc wc;
	unsigned int i;

	for (i = 0; i < n; i++) {
		wr.wr_id = id0 + i;
		if (!CHECK_ERR(post_recv(p, id0 + i, 32768 + i * 64, 64), 0) ||
		    !CHECK_ERR(post_send(p, &wr, i * 64, 64), 0) ||
		    !poll_one(p->cq[0], &wc) ||
		    !wc_is(&wc, id0 + i, IBV_WC_SUCCESS, IBV_WC_SEND))
			return false;
	}
	return true;
}

/* B's completions @from to @n of exchange(@id0): in order, whole. */
static bool drain(struct pair *p, uint64_t id0, unsigned int from,
		  unsigned int n)
{
	struct ibv_wc wc;
	unsigned int i;

	for (i = from; i < n; i++) {
		if (!poll_one(p->cq[1], &wc) ||
		    !wc_is(&wc, id0 + i, IBV_WC_SUCCESS, IBV_WC_RECV) ||
		    !CHECK_EQ(wc.byte_len, 64) ||
		    !CHECK(!memcmp(p->buf + 32768 + i * 64, p->buf + i * 64,
				   64)))
			return false;
	}
	return true;
}

/* Moderate B's CQ (ibv_modify_cq(3)): @count completions, @period us. */
static bool moderate(struct pair *p, uint16_t count, uint16_t period)
{
	struct ibv_modify_cq_attr ma = {
		.attr_mask = IBV_CQ_ATTR_MODERATE,
		.moderate = { .cq_count = count, .cq_period = period },
	};

	return CHECK_ERR(ibv_modify_cq(p->cq[1], &ma), 0);
}

/*
 * CQ moderation (ibv_modify_cq(3), IBV_CQ_ATTR_MODERATE): an armed CQ
 * raises its event once cq_count completions came since its last event,
 * or once cq_period microseconds passed since then, whichever first;
 * both 0 is no moderation.
 */
MT_TEST_F(events, cq_moderation)
{
	struct pair *p = &self->p;

	/* a count of 4: three completions raise nothing, the fourth does */
	if (!moderate(p, 4, 0) ||
	    !CHECK_ERR(ibv_req_notify_cq(p->cq[1], 0), 0) ||
	    !exchange(p, 60, 3))
		return KSFT_FAIL;
	CHECK(!wait_event(p, 200));
	if (!exchange(p, 63, 1))
		return KSFT_FAIL;
	CHECK_EQ(wait_event(p, WAIT_MS), p->cq[1]);
	drain(p, 60, 0, 3);
	drain(p, 63, 0, 1);

	/* a count never reached: the period's end raises it (4 ms) */
	if (!moderate(p, 1000, 4000) ||
	    !CHECK_ERR(ibv_req_notify_cq(p->cq[1], 0), 0) ||
	    !exchange(p, 64, 1))
		return KSFT_FAIL;
	CHECK_EQ(wait_event(p, WAIT_MS), p->cq[1]);
	drain(p, 64, 0, 1);

	/* no moderation again: the next completion raises it */
	if (!moderate(p, 0, 0) ||
	    !CHECK_ERR(ibv_req_notify_cq(p->cq[1], 0), 0) ||
	    !exchange(p, 65, 1))
		return KSFT_FAIL;
	CHECK_EQ(wait_event(p, WAIT_MS), p->cq[1]);
	drain(p, 65, 0, 1);
	return KSFT_PASS;
}

/*
 * ibv_resize_cq(3) of a CQ whose completions are not all polled: they
 * stay, in order, and the CQ goes on completing in its new size, past
 * the end of its ring; a size smaller than what waits to be polled is
 * EINVAL, and then nothing is lost.
 */
MT_TEST_F(pair, cq_resize)
{
	struct ibv_cq *cq = self->cq[1];
	unsigned int round;

	fill(self->buf, 32768, 9);
	if (!exchange(self, 100, 5) || !drain(self, 100, 0, 2))
		return KSFT_FAIL;
	if (!CHECK_ERR(ibv_resize_cq(cq, 8), 0) || !CHECK(cq->cqe >= 8) ||
	    !drain(self, 100, 2, 5))
		return KSFT_FAIL;
	if (!exchange(self, 200, 6))
		return KSFT_FAIL;
	CHECK_ERR(ibv_resize_cq(cq, 2), EINVAL);
	if (!drain(self, 200, 0, 6))
		return KSFT_FAIL;
	/* smaller, then round its ring several times */
	if (!CHECK_ERR(ibv_resize_cq(cq, 3), 0) || !CHECK(cq->cqe >= 3))
		return KSFT_FAIL;
	for (round = 0; round < 6; round++)
		if (!exchange(self, 300 + round * 8, 3) ||
		    !drain(self, 300 + round * 8, 0, 3))
			return KSFT_FAIL;
	return KSFT_PASS;
}

/* A CQ of mlx5dv_create_cq(3) of @cqe_size-byte CQEs, padded. */
static struct ibv_cq *padded_cq(struct ibv_context *ctx, uint8_t cqe_size)
{
	struct mlx5dv_cq_init_attr dv = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_FLAGS |
			     MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD,
		.cqe_size = cqe_size,
	};

	return dv_cq(ctx, &dv);
}

/* Slot @n of a 128-byte CQ: the padding, its first 64 bytes, is @b. */
static bool pad_is(const struct mlx5dv_cq *dv, unsigned int n, uint8_t b)
{
	const uint8_t *pad = (const uint8_t *)dv->buf + n * 128;
	unsigned int i;

	for (i = 0; i < 64; i++)
		if (pad[i] != b)
			return false;
	return true;
}

/*
 * mlx5dv_create_cq(3)'s MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD, offered when
 * mlx5dv_query_device(3) says MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD: 128-byte
 * CQEs only (64: EINVAL), and a SEND and a WRITE complete on both sides.
 * With the model: a CQE is written whole, its padding zeroed; a slot no
 * CQE reached keeps what the process put there.
 */
MT_TEST_F(pair, cq_padding)
{
	struct mlx5dv_context dc = {};
	struct mlx5dv_cq dv[2];
	struct mlx5dv_obj obj;
	struct ibv_wc wc;
	unsigned int i;

	if (!CHECK_ERR(mlx5dv_query_device(self->c.ctx, &dc), 0))
		return KSFT_FAIL;
	if (!(dc.flags & MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD)) {
		CHECK(!mt_sim());
		return mt_skip("no 128-byte CQE padding");
	}
	errno = 0;
	CHECK(!padded_cq(self->c.ctx, 64));
	CHECK_ERR(errno, EINVAL);
	for (i = 0; i < 2; i++) {
		CHECK_ERR(ibv_destroy_qp(self->qp[i]), 0);
		CHECK_ERR(ibv_destroy_cq(self->cq[i]), 0);
		self->qp[i] = NULL;
		self->cq[i] = padded_cq(self->c.ctx, 128);
		if (!CHECK(self->cq[i]))
			return KSFT_FAIL;
		self->qp[i] = rc_qp(self, self->cq[i], IBV_QPT_RC);
		obj = (struct mlx5dv_obj){ .cq = { self->cq[i], &dv[i] } };
		if (!CHECK(self->qp[i]) ||
		    !CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), 0) ||
		    !CHECK_EQ(dv[i].cqe_size, 128))
			return KSFT_FAIL;
		/* the padding of the first two slots: not the CQEs */
		memset(dv[i].buf, 0xa5, 64);
		memset((uint8_t *)dv[i].buf + 128, 0xa5, 64);
	}
	if (!CHECK_ERR(rc_connect(self, self->qp[0], self->qp[1]->qp_num,
				  ALL_ACCESS, 7), 0) ||
	    !CHECK_ERR(rc_connect(self, self->qp[1], self->qp[0]->qp_num,
				  ALL_ACCESS, 7), 0))
		return KSFT_FAIL;
	fill(self->buf, 256, 4);
	if (!CHECK_ERR(post_recv(self, 7, 24576, 256), 0))
		return KSFT_FAIL;
	CHECK_EQ(rc_rdma(self, IBV_WR_SEND, 0, 0, self->mr->lkey,
			 (uintptr_t)self->buf, 256), IBV_WC_SUCCESS);
	if (CHECK(poll_one(self->cq[1], &wc)) &&
	    CHECK(wc_is(&wc, 7, IBV_WC_SUCCESS, IBV_WC_RECV))) {
		CHECK_EQ(wc.byte_len, 256);
		CHECK(!memcmp(self->buf + 24576, self->buf, 256));
	}
	CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_WRITE, self->mr->rkey,
			 (uintptr_t)self->buf + 8192, self->mr->lkey,
			 (uintptr_t)self->buf, 256), IBV_WC_SUCCESS);
	CHECK(!memcmp(self->buf + 8192, self->buf, 256));
	if (mt_sim()) {
		CHECK(pad_is(&dv[0], 0, 0) && pad_is(&dv[0], 1, 0));
		CHECK(pad_is(&dv[1], 0, 0) && pad_is(&dv[1], 1, 0xa5));
	}
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, send_recv),
	MT_CASE_F(pair, send_imm_inline),
	MT_CASE_F(pair, rdma_write),
	MT_CASE_F(pair, rdma_read),
	MT_CASE_F(pair, atomics),
	MT_CASE_F(pair, large_messages),
	MT_CASE_F(events, cq_events),
	MT_CASE_F(events, cq_moderation),
	MT_CASE_F(pair, cq_resize),
	MT_CASE_F(pair, cq_padding),
	MT_CASE_F(uc, uc_send_write),
	MT_CASE_F(uc, uc_losses_are_silent),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
