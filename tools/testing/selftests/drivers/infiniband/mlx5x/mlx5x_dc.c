// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DC (Dynamically Connected) transport, as mlx5dv_create_qp(3) and
 * mlx5dv_wr_post(3) define it: a DCI (MLX5DV_DCTYPE_DCI) is connected to
 * no QP; each work request names, with mlx5dv_wr_set_dc_addr(), the DCT
 * it is for and the DC access key it carries, and the builders and
 * setters of an RC QP build it.  A DCT (MLX5DV_DCTYPE_DCT, with its
 * dct_access_key) receives through the SRQ it was created with, into
 * its receive CQ; it moves RESET -> INIT -> RTR only, and gets its
 * number at RTR.  Delivery is RC's: reliable, with RC's errors.
 *
 * What the DC access key protects: a request whose key is not the
 * DCT's is not answered, the DCI's retries run out (IBV_WC_RETRY_EXC_ERR)
 * and nothing reaches the DCT's memory, whichever context sends it; one
 * that carries it reaches the DCT from any context, and then only the
 * DCT's own keys (its PD's rkeys, its SRQ's lkeys) reach its memory.
 * The fixture is mlx5x_dc.h's; the control path is mlx5x_dc_ctl's.
 */
#include "mlx5x_dc.h"

/*
 * One DCI sends to each of two DCTs in turn: each message lands in the
 * SRQ of the DCT its work request names, and completes in that DCT's CQ
 * with the DCT's number; the other DCT receives nothing.
 */
MT_TEST_F(dc, send_two_dcts)
{
	struct dc_wr w;
	struct ibv_wc wc;
	unsigned int i;

	fill(self->buf, 2 * MSG, 0x21);
	for (i = 0; i < NDCT; i++)
		CHECK_ERR(srq_recv(self->srq[i], self->mr, 10 + i,
				   RECV_OFF + i * MSG, MSG), 0);
	w = dc_wr_to(self, 1, DC_SEND, 1, MSG, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 1, IBV_WC_SUCCESS, IBV_WC_SEND) ||
	    !recv_is(self, 1, 11, MSG))
		return KSFT_FAIL;
	CHECK(!memcmp(self->buf + RECV_OFF + MSG, self->buf + MSG, MSG));
	CHECK_EQ(ibv_poll_cq(self->rcq[0], 1, &wc), 0);
	w = dc_wr_to(self, 0, DC_SEND_IMM, 2, 0, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 2, IBV_WC_SUCCESS, IBV_WC_SEND) ||
	    !CHECK(poll_one(self->rcq[0], &wc)) ||
	    !CHECK(wc_is(&wc, 10, IBV_WC_SUCCESS, IBV_WC_RECV)))
		return KSFT_FAIL;
	CHECK(wc.wc_flags & IBV_WC_WITH_IMM);
	CHECK_EQ(be32toh(wc.imm_data), 0xc0ffee);
	CHECK_EQ(wc.qp_num, self->dct[0]->qp_num);
	CHECK(!memcmp(self->buf + RECV_OFF, self->buf, MSG));
	return KSFT_PASS;
}

/*
 * RDMA WRITE into a DCT's memory by an rkey of its PD, RDMA READ back
 * from it: neither takes a receive WQE of its SRQ; the READ completes
 * with its length.
 */
MT_TEST_F(dc, write_read)
{
	struct dc_wr w;
	struct ibv_wc wc;

	fill(self->buf, MSG, 0x37);
	w = dc_wr_to(self, 1, DC_WRITE, 3, 0, MSG);
	w.rkey = self->mr->rkey;
	w.raddr = (uintptr_t)self->buf + RECV_OFF;
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 3, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE))
		return KSFT_FAIL;
	CHECK(!memcmp(self->buf + RECV_OFF, self->buf, MSG));
	w = dc_wr_to(self, 0, DC_READ, 4, 2 * MSG, MSG);
	w.rkey = self->mr->rkey;
	w.raddr = (uintptr_t)self->buf + RECV_OFF;
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 4, IBV_WC_SUCCESS, IBV_WC_RDMA_READ))
		return KSFT_FAIL;
	CHECK(!memcmp(self->buf + 2 * MSG, self->buf, MSG));
	CHECK_EQ(ibv_poll_cq(self->rcq[0], 1, &wc), 0);
	CHECK_EQ(ibv_poll_cq(self->rcq[1], 1, &wc), 0);
	return KSFT_PASS;
}

/* Fetch and add, compare and swap: on 8 bytes of the DCT's memory. */
MT_TEST_F(dc, atomics)
{
	uint64_t *target = (uint64_t *)(self->buf + RECV_OFF);
	uint64_t *orig = (uint64_t *)self->buf;
	struct dc_wr w;

	*target = 40;
	w = dc_wr_to(self, 0, DC_FADD, 5, 0, 8);
	w.rkey = self->mr->rkey;
	w.raddr = (uintptr_t)target;
	w.arg0 = 2;
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 5, IBV_WC_SUCCESS, IBV_WC_FETCH_ADD))
		return KSFT_FAIL;
	CHECK_EQ(*orig, 40);
	CHECK_EQ(*target, 42);
	w.op = DC_CSWAP;
	w.id = 6;
	w.arg0 = 42;
	w.arg1 = 7;
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 6, IBV_WC_SUCCESS, IBV_WC_COMP_SWAP))
		return KSFT_FAIL;
	CHECK_EQ(*orig, 42);
	CHECK_EQ(*target, 7);
	return KSFT_PASS;
}

/*
 * A request whose DC key is not the DCT's is not answered: the DCI's
 * retries run out, and nothing reaches the DCT, neither a receive WQE
 * nor its memory.  The next DCT's key does not open this one.
 */
MT_TEST_F(dc, wrong_key)
{
	struct dc_wr w;
	struct ibv_wc wc;

	fill(self->buf, MSG, 0x44);
	CHECK_ERR(srq_recv(self->srq[0], self->mr, 10, RECV_OFF, MSG), 0);
	w = dc_wr_to(self, 0, DC_SEND, 7, 0, MSG);
	w.key = dct_key(1);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 7, IBV_WC_RETRY_EXC_ERR, IBV_WC_SEND))
		return KSFT_FAIL;
	CHECK_EQ(ibv_poll_cq(self->rcq[0], 1, &wc), 0);
	CHECK_EQ(self->buf[RECV_OFF], 0);
	/* nor an RDMA WRITE by the right rkey */
	CHECK_ERR(dci_connect_again(self->dci), 0);
	w = dc_wr_to(self, 0, DC_WRITE, 8, 0, MSG);
	w.key = dct_key(0) ^ 1;
	w.rkey = self->mr->rkey;
	w.raddr = (uintptr_t)self->buf + RECV_OFF + MSG;
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 8, IBV_WC_RETRY_EXC_ERR, IBV_WC_RDMA_WRITE))
		return KSFT_FAIL;
	CHECK_EQ(self->buf[RECV_OFF + MSG], 0);
	/* and the receive WQE is still there for the right key */
	CHECK_ERR(dci_connect_again(self->dci), 0);
	w = dc_wr_to(self, 0, DC_SEND, 9, 0, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (!send_is(self->scq, 9, IBV_WC_SUCCESS, IBV_WC_SEND) ||
	    !recv_is(self, 0, 10, MSG))
		return KSFT_FAIL;
	CHECK(!memcmp(self->buf + RECV_OFF, self->buf, MSG));
	return KSFT_PASS;
}

/*
 * An rkey of another PD than the DCT's does not reach its memory, even
 * with the right DC key: a remote access error; the DCT goes on serving
 * others (it never goes to ERR).
 */
MT_TEST_F(dc, rkey_of_other_pd)
{
	struct ibv_pd *pd2 = ibv_alloc_pd(self->c.ctx);
	uint8_t *b2 = aligned_alloc(MT_PAGE, MT_PAGE);
	struct ibv_mr *mr2 = NULL;
	struct dc_wr w;

	if (CHECK(pd2) && CHECK(b2)) {
		memset(b2, 0, MT_PAGE);
		mr2 = ibv_reg_mr(pd2, b2, MT_PAGE, ALL_ACCESS);
	}
	if (!CHECK(mr2))
		goto out;
	fill(self->buf, MSG, 0x55);
	w = dc_wr_to(self, 0, DC_WRITE, 11, 0, MSG);
	w.rkey = mr2->rkey;
	w.raddr = (uintptr_t)b2;
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	CHECK(send_is(self->scq, 11, IBV_WC_REM_ACCESS_ERR,
		      IBV_WC_RDMA_WRITE));
	CHECK_EQ(b2[0], 0);
	/* the DCT still takes what its own keys allow */
	CHECK_ERR(dci_connect_again(self->dci), 0);
	CHECK_ERR(srq_recv(self->srq[0], self->mr, 12, RECV_OFF, MSG), 0);
	w = dc_wr_to(self, 0, DC_SEND, 13, 0, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (send_is(self->scq, 13, IBV_WC_SUCCESS, IBV_WC_SEND))
		CHECK(recv_is(self, 0, 12, MSG));
out:
	if (mr2)
		CHECK_ERR(ibv_dereg_mr(mr2), 0);
	if (pd2)
		CHECK_ERR(ibv_dealloc_pd(pd2), 0);
	free(b2);
	return KSFT_PASS;
}

/*
 * A receive WQE too small for the message: the DCT completes it in
 * error, the DCI with a remote invalid request; the DCT serves the next
 * message.
 */
MT_TEST_F(dc, recv_too_small)
{
	struct dc_wr w;
	struct ibv_wc wc;

	CHECK_ERR(srq_recv(self->srq[1], self->mr, 14, RECV_OFF, MSG / 2), 0);
	w = dc_wr_to(self, 1, DC_SEND, 15, 0, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	CHECK(send_is(self->scq, 15, IBV_WC_REM_INV_REQ_ERR, IBV_WC_SEND));
	if (CHECK(poll_one(self->rcq[1], &wc)))
		CHECK(wc_is(&wc, 14, IBV_WC_LOC_LEN_ERR, wc.opcode));
	CHECK_ERR(dci_connect_again(self->dci), 0);
	CHECK_ERR(srq_recv(self->srq[1], self->mr, 16, RECV_OFF, MSG), 0);
	w.id = 17;
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (send_is(self->scq, 17, IBV_WC_SUCCESS, IBV_WC_SEND))
		CHECK(recv_is(self, 1, 16, MSG));
	return KSFT_PASS;
}

/*
 * A DCT destroyed while a DCI sends to it: what was delivered completed,
 * what was not is not answered (the retries run out) and the rest is
 * flushed; nothing hangs, and the other DCT still receives.
 */
MT_TEST_F(dc, destroy_while_traffic)
{
	enum ibv_wc_status st = IBV_WC_SUCCESS;
	unsigned int i, n = 8, ok = 0;
	struct dc_wr w;
	struct ibv_wc wc;

	for (i = 0; i < n; i++) {
		w = dc_wr_to(self, 1, DC_WRITE, 100 + i, 0, MSG);
		w.rkey = self->mr->rkey;
		w.raddr = (uintptr_t)self->buf + RECV_OFF;
		CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	}
	CHECK_ERR(ibv_destroy_qp(self->dct[1]), 0);
	self->dct[1] = NULL;
	for (i = 0; i < n; i++) {
		if (!CHECK(poll_one(self->scq, &wc)))
			return KSFT_FAIL;
		CHECK_EQ(wc.wr_id, 100 + i);
		/* in order: successes, then one unanswered, then flushes */
		if (wc.status == IBV_WC_SUCCESS) {
			CHECK_EQ(st, IBV_WC_SUCCESS);
			ok++;
		} else if (wc.status == IBV_WC_RETRY_EXC_ERR) {
			CHECK_EQ(st, IBV_WC_SUCCESS);
		} else {
			CHECK_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);
		}
		st = wc.status;
	}
	mt_diag("%u of %u writes before the DCT went", ok, n);
	if (st != IBV_WC_SUCCESS)
		CHECK_ERR(dci_connect_again(self->dci), 0);
	CHECK_ERR(srq_recv(self->srq[0], self->mr, 18, RECV_OFF, MSG), 0);
	w = dc_wr_to(self, 0, DC_SEND, 19, 0, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (send_is(self->scq, 19, IBV_WC_SUCCESS, IBV_WC_SEND))
		CHECK(recv_is(self, 0, 18, MSG));
	return KSFT_PASS;
}

/* What the child (as nobody, in a context of its own) is told. */
struct foreign {
	uint32_t dctn;
	uint64_t key;
	int gid;
};

/*
 * The child: a DCI of its own context sends to the parent's DCT, first
 * with a wrong key (its retries run out), then with the DCT's.
 */
static int foreign_dci(void *arg)
{
	const struct foreign *f = arg;
	struct mt_ctx c = { 0 };
	struct ibv_qp *dci = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_ah *ah = NULL;
	uint8_t *buf = aligned_alloc(MT_PAGE, MT_PAGE);
	struct dc_wr w = { .op = DC_SEND, .id = 1, .dctn = f->dctn,
			   .key = f->key ^ 0x100, .len = MSG };

	if (!CHECK(buf) || !mt_ctx_open(&c, MT_OPEN_DEFAULT))
		goto out;
	memset(buf, 0x66, MT_PAGE);
	pd = ibv_alloc_pd(c.ctx);
	cq = ibv_create_cq(c.ctx, 8, NULL, NULL, 0);
	if (!CHECK(pd) || !CHECK(cq))
		goto out;
	mr = ibv_reg_mr(pd, buf, MT_PAGE, IBV_ACCESS_LOCAL_WRITE);
	ah = self_ah(c.ctx, pd, f->gid);
	dci = dci_qp(c.ctx, pd, cq);
	if (!CHECK(mr) || !CHECK(ah) || !CHECK(dci) ||
	    !CHECK_ERR(dci_connect(dci, 3), 0))
		goto out;
	w.mr = mr;
	CHECK_ERR(dc_post(dci, ah, &w), 0);
	if (!send_is(cq, 1, IBV_WC_RETRY_EXC_ERR, IBV_WC_SEND) ||
	    !CHECK_ERR(dci_connect_again(dci), 0))
		goto out;
	w.id = 2;
	w.key = f->key;
	CHECK_ERR(dc_post(dci, ah, &w), 0);
	send_is(cq, 2, IBV_WC_SUCCESS, IBV_WC_SEND);
out:
	if (dci)
		CHECK_ERR(ibv_destroy_qp(dci), 0);
	if (ah)
		CHECK_ERR(ibv_destroy_ah(ah), 0);
	if (mr)
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	if (cq)
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	mt_ctx_close(&c);
	free(buf);
	return mt_case_failures() ? KSFT_FAIL : KSFT_PASS;
}

/*
 * Another user's DCI reaches this DCT only with its key: the wrong key
 * delivers nothing, the right one delivers one message, into this
 * context's SRQ.
 */
MT_TEST_F(dc, other_user)
{
	struct foreign f = { .dctn = self->dct[0]->qp_num, .key = dct_key(0),
			     .gid = self->gid };
	struct ibv_wc wc;

	CHECK_ERR(srq_recv(self->srq[0], self->mr, 20, RECV_OFF, MSG), 0);
	CHECK_ERR(srq_recv(self->srq[0], self->mr, 21, RECV_OFF + MSG, MSG),
		  0);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, foreign_dci, &f), KSFT_PASS);
	if (recv_is(self, 0, 20, MSG)) {
		CHECK_EQ(self->buf[RECV_OFF], 0x66);
		CHECK_EQ(self->buf[RECV_OFF + MSG - 1], 0x66);
	}
	CHECK_EQ(ibv_poll_cq(self->rcq[0], 1, &wc), 0);
	CHECK_EQ(self->buf[RECV_OFF + MSG], 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(dc, send_two_dcts),
	MT_CASE_F(dc, write_read),
	MT_CASE_F(dc, atomics),
	MT_CASE_F(dc, wrong_key),
	MT_CASE_F(dc, rkey_of_other_pd),
	MT_CASE_F(dc, recv_too_small),
	MT_CASE_F(dc, destroy_while_traffic),
	MT_CASE_F(dc, other_user, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
