// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC and UC traffic between two QPs of the device (a ConnectX's internal
 * loopback), as ibv_post_send(3), ibv_post_recv(3), ibv_poll_cq(3) and
 * ibv_modify_qp(3) describe it: SEND with and without immediate and
 * inline, RDMA WRITE with and without immediate, RDMA READ, the two
 * atomics; and the errors IBTA defines for RC, completing on both sides:
 * a bad rkey, missing access rights, a receive too small, RNR retries
 * exhausted, and the flush of what is left in a QP in error.  UC has no
 * acknowledgements: what its responder cannot take is lost, silently.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mlx5x_fixtures.h"

#define BUF_BYTES	(64 * 1024)
#define WAIT_MS		5000
#define ALL_ACCESS	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

/*
 * Two RC QPs, A and B, connected to each other, each with a CQ of its
 * own, and a buffer registered with every access; A sends from the first
 * half, B receives into the second.
 */
struct pair {
	struct mt_ctx c;
	struct ibv_comp_channel *ch;	/* the CQs' channel, or NULL */
	struct ibv_pd *pd;
	struct ibv_cq *cq[2];
	struct ibv_qp *qp[2];
	uint8_t *buf;
	struct ibv_mr *mr;
	int gid;
};

static int find_gid(struct ibv_context *ctx)
{
	union ibv_gid gid;
	int i;

	for (i = 0; i < 16; i++)
		if (!ibv_query_gid(ctx, 1, i, &gid) &&
		    (gid.global.subnet_prefix || gid.global.interface_id))
			return i;
	return -1;
}

static struct ibv_qp *rc_qp(struct pair *p, struct ibv_cq *cq,
			    enum ibv_qp_type type)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = 16, .max_recv_wr = 16,
			.max_send_sge = 4, .max_recv_sge = 4,
			.max_inline_data = 64,
		},
		.qp_type = type,
	};

	return ibv_create_qp(p->pd, &a);
}

/* RESET -> INIT -> RTR -> RTS, connected to @dest. */
static int rc_connect(struct pair *p, struct ibv_qp *qp, uint32_t dest,
		      int access, uint8_t rnr_retry)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = access,
	};
	bool rc = qp->qp_type == IBV_QPT_RC;
	int err;

	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.rq_psn = 1;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;	/* 0.01 ms */
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.grh.sgid_index = p->gid;
	if (ibv_query_gid(p->c.ctx, 1, p->gid, &a.ah_attr.grh.dgid))
		return errno;
	/* what UC has no use for, without acknowledgements */
	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
			    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			    IBV_QP_RQ_PSN | (rc ? IBV_QP_MAX_DEST_RD_ATOMIC |
					     IBV_QP_MIN_RNR_TIMER : 0));
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = rnr_retry;
	a.sq_psn = 1;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     (rc ? IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				   IBV_QP_RNR_RETRY |
				   IBV_QP_MAX_QP_RD_ATOMIC : 0));
}

/*
 * The pair of @type, A's QP allowed @access_b on B, A retrying RNR
 * @rnr_retry; its CQs on a completion channel if @channel.
 */
static int pair_open_ch(struct pair *p, enum ibv_qp_type type, int access_b,
			uint8_t rnr_retry, bool channel)
{
	unsigned int i;

	if (!mt_ctx_open(&p->c, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	p->gid = find_gid(p->c.ctx);
	if (p->gid < 0)
		return mt_skip("no GID on port 1 (netdev down?)");
	p->pd = ibv_alloc_pd(p->c.ctx);
	p->buf = aligned_alloc(MT_PAGE, BUF_BYTES);
	if (!CHECK(p->pd) || !CHECK(p->buf))
		return KSFT_FAIL;
	memset(p->buf, 0, BUF_BYTES);
	p->mr = ibv_reg_mr(p->pd, p->buf, BUF_BYTES, ALL_ACCESS);
	if (!CHECK(p->mr))
		return KSFT_FAIL;
	if (channel) {
		p->ch = ibv_create_comp_channel(p->c.ctx);
		if (!CHECK(p->ch))
			return KSFT_FAIL;
	}
	for (i = 0; i < 2; i++) {
		p->cq[i] = ibv_create_cq(p->c.ctx, 32, NULL, p->ch, 0);
		if (!CHECK(p->cq[i]))
			return KSFT_FAIL;
		p->qp[i] = rc_qp(p, p->cq[i], type);
		if (!CHECK(p->qp[i]))
			return KSFT_FAIL;
	}
	if (!CHECK_ERR(rc_connect(p, p->qp[0], p->qp[1]->qp_num, ALL_ACCESS,
				  rnr_retry), 0) ||
	    !CHECK_ERR(rc_connect(p, p->qp[1], p->qp[0]->qp_num, access_b,
				  rnr_retry), 0))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static int pair_open(struct pair *p, enum ibv_qp_type type, int access_b,
		     uint8_t rnr_retry)
{
	return pair_open_ch(p, type, access_b, rnr_retry, false);
}

MT_FIXTURE(pair);

MT_FIXTURE_SETUP(pair)
{
	return pair_open(self, IBV_QPT_RC, ALL_ACCESS, 7);
}

MT_FIXTURE_TEARDOWN(pair)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (self->qp[i])
			CHECK_ERR(ibv_destroy_qp(self->qp[i]), 0);
		if (self->cq[i])
			CHECK_ERR(ibv_destroy_cq(self->cq[i]), 0);
	}
	if (self->ch)
		CHECK_ERR(ibv_destroy_comp_channel(self->ch), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->pd)
		CHECK_ERR(ibv_dealloc_pd(self->pd), 0);
	free(self->buf);
	mt_ctx_close(&self->c);
}

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

/* Poll @cq for one completion, within WAIT_MS. */
static bool poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	long end = mt_now_ms() + WAIT_MS;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return CHECK_EQ(n, 1);
		usleep(200);
	} while (mt_now_ms() < end);
	return CHECK(!"a completion within the time");
}

static bool wc_is(const struct ibv_wc *wc, uint64_t wr_id,
		  enum ibv_wc_status status, enum ibv_wc_opcode opcode)
{
	bool ok = CHECK_EQ(wc->wr_id, wr_id) & CHECK_EQ(wc->status, status);

	if (status == IBV_WC_SUCCESS)
		ok &= CHECK_EQ(wc->opcode, opcode);
	if (!ok)
		mt_diag("wc: wr_id %llu status %s opcode %d",
			(unsigned long long)wc->wr_id,
			ibv_wc_status_str(wc->status), wc->opcode);
	return ok;
}

static int post_recv(struct pair *p, uint64_t id, uint32_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)p->buf + off, .length = len,
		.lkey = p->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(p->qp[1], &wr, &bad);
}

/* A's one-SGE WR of @len bytes at @off, posted. */
static int post_send(struct pair *p, struct ibv_send_wr *wr, uint32_t off,
		     uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)p->buf + off, .length = len,
		.lkey = p->mr->lkey,
	};
	struct ibv_send_wr *bad;

	wr->sg_list = &sge;
	wr->num_sge = 1;
	wr->send_flags |= IBV_SEND_SIGNALED;
	return ibv_post_send(p->qp[0], wr, &bad);
}

static void fill(uint8_t *b, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = seed + i * 7;
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

static const struct mt_case cases[] = {
	MT_CASE_F(pair, send_recv),
	MT_CASE_F(pair, send_imm_inline),
	MT_CASE_F(pair, rdma_write),
	MT_CASE_F(pair, rdma_read),
	MT_CASE_F(pair, atomics),
	MT_CASE_F(pair, bad_rkey),
	MT_CASE_F(strict, no_remote_access),
	MT_CASE_F(strict, rnr_retry_exceeded),
	MT_CASE_F(pair, rnr_waits),
	MT_CASE_F(pair, recv_too_small),
	MT_CASE_F(pair, large_messages),
	MT_CASE_F(pair, flush_on_error),
	MT_CASE_F(events, cq_events),
	MT_CASE_F(uc, uc_send_write),
	MT_CASE_F(uc, uc_losses_are_silent),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
