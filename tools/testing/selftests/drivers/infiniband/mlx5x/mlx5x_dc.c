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
 * And what is refused: a DCT without an SRQ, a DCT moved past RTR, the
 * attributes mlx5_ib refuses for each move of a DCI or a DCT.
 *
 * mlx5dv_map_ah_to_qp(3) maps an address handle to a DCI (a hint for
 * the destination's congestion control): it succeeds, twice, and the
 * traffic through the AH is what it was.
 */
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"
#include "mlx5x_prm.h"
#include "mlx5x_model.h"

#define NDCT		2
#define XBUF		(64 * 1024)
#define RECV_OFF	(XBUF / 2)	/* sends come from below, land above */
#define MSG		300
#define KEY		0x1122334455667788ULL
#define DCI_OPS		(IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | \
			 IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_READ | \
			 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | \
			 IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)

/*
 * A context with a PD, a buffer registered on it, an SRQ and a CQ of
 * each of NDCT DCTs (each of its own key), one DCI with its send CQ, and
 * the address handle of the port's own GID.
 */
struct dc {
	struct mt_ctx c;
	int gid;
	struct ibv_pd *pd;
	uint8_t *buf;
	struct ibv_mr *mr;
	struct ibv_cq *scq, *rcq[NDCT];
	struct ibv_srq *srq[NDCT];
	struct ibv_qp *dct[NDCT];
	struct ibv_qp *dci;
	struct ibv_ah *ah;
};

static uint64_t dct_key(unsigned int i)
{
	return KEY + i;
}

static struct ibv_qp *dci_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			     struct ibv_cq *cq)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_DRIVER,
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 16, .max_send_sge = 1,
			 .max_inline_data = 64 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = pd,
		.send_ops_flags = DCI_OPS,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC,
		.dc_init_attr = { .dc_type = MLX5DV_DCTYPE_DCI },
	};

	return mlx5dv_create_qp(ctx, &a, &dv);
}

static struct ibv_qp *dct_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			     struct ibv_cq *cq, struct ibv_srq *srq,
			     uint64_t key)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_DRIVER,
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC,
		.dc_init_attr = { .dc_type = MLX5DV_DCTYPE_DCT,
				  .dct_access_key = key },
	};

	return mlx5dv_create_qp(ctx, &a, &dv);
}

static int fill_ah(struct ibv_context *ctx, int gid, struct ibv_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->is_global = 1;
	ah->port_num = 1;
	ah->grh.hop_limit = 1;
	ah->grh.sgid_index = gid;
	return ibv_query_gid(ctx, 1, gid, &ah->grh.dgid) ? errno : 0;
}

/* RESET -> INIT -> RTR, with the attributes mlx5dv_create_qp(3) asks. */
static int dct_connect(struct ibv_context *ctx, int gid, struct ibv_qp *qp,
		       int access)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = access,
	};
	int err;

	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.min_rnr_timer = 1;
	err = fill_ah(ctx, gid, &a.ah_attr);
	if (err)
		return err;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER |
			     IBV_QP_AV | IBV_QP_PATH_MTU);
}

/* RESET -> INIT -> RTR -> RTS: no peer, no path; retries of 67 ms. */
static int dci_connect(struct ibv_qp *qp, uint8_t retry)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	int err;

	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PATH_MTU);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = retry;
	a.rnr_retry = 7;
	a.sq_psn = 1;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* A DCI in ERR back to RTS, through RESET, as ibv_modify_qp(3) allows. */
static int dci_connect_again(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };
	int err = ibv_modify_qp(qp, &a, IBV_QP_STATE);

	return err ? err : dci_connect(qp, 7);
}

static struct ibv_ah *self_ah(struct ibv_context *ctx, struct ibv_pd *pd,
			      int gid)
{
	struct ibv_ah_attr a;

	return fill_ah(ctx, gid, &a) ? NULL : ibv_create_ah(pd, &a);
}

MT_FIXTURE(dc);

MT_FIXTURE_SETUP(dc)
{
	unsigned int i;

	if (!mt_ctx_open(&self->c, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	self->gid = find_gid(self->c.ctx);
	if (self->gid < 0)
		return mt_skip("no GID on port 1 (netdev down?)");
	self->pd = ibv_alloc_pd(self->c.ctx);
	self->buf = aligned_alloc(MT_PAGE, XBUF);
	if (!CHECK(self->pd) || !CHECK(self->buf))
		return KSFT_FAIL;
	memset(self->buf, 0, XBUF);
	self->mr = ibv_reg_mr(self->pd, self->buf, XBUF, ALL_ACCESS);
	self->scq = ibv_create_cq(self->c.ctx, 32, NULL, NULL, 0);
	self->ah = self_ah(self->c.ctx, self->pd, self->gid);
	if (!CHECK(self->mr) || !CHECK(self->scq) || !CHECK(self->ah))
		return KSFT_FAIL;
	self->dci = dci_qp(self->c.ctx, self->pd, self->scq);
	if (!self->dci && errno == EOPNOTSUPP)
		return mt_skip("the device does not do DC");
	if (!CHECK(self->dci) || !CHECK_ERR(dci_connect(self->dci, 7), 0))
		return KSFT_FAIL;
	for (i = 0; i < NDCT; i++) {
		struct ibv_srq_init_attr sa = {
			.attr = { .max_wr = 8, .max_sge = 1 },
		};

		self->rcq[i] = ibv_create_cq(self->c.ctx, 32, NULL, NULL, 0);
		self->srq[i] = ibv_create_srq(self->pd, &sa);
		if (!CHECK(self->rcq[i]) || !CHECK(self->srq[i]))
			return KSFT_FAIL;
		self->dct[i] = dct_qp(self->c.ctx, self->pd, self->rcq[i],
				      self->srq[i], dct_key(i));
		if (!CHECK(self->dct[i]) ||
		    !CHECK_ERR(dct_connect(self->c.ctx, self->gid,
					   self->dct[i], ALL_ACCESS), 0))
			return KSFT_FAIL;
	}
	/* two DCTs: two numbers, neither a QP's */
	CHECK(self->dct[0]->qp_num != self->dct[1]->qp_num);
	CHECK(self->dct[0]->qp_num != self->dci->qp_num);
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(dc)
{
	unsigned int i;

	if (self->dci)
		CHECK_ERR(ibv_destroy_qp(self->dci), 0);
	for (i = 0; i < NDCT; i++) {
		if (self->dct[i])
			CHECK_ERR(ibv_destroy_qp(self->dct[i]), 0);
		if (self->srq[i])
			CHECK_ERR(ibv_destroy_srq(self->srq[i]), 0);
		if (self->rcq[i])
			CHECK_ERR(ibv_destroy_cq(self->rcq[i]), 0);
	}
	if (self->ah)
		CHECK_ERR(ibv_destroy_ah(self->ah), 0);
	if (self->scq)
		CHECK_ERR(ibv_destroy_cq(self->scq), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->pd)
		CHECK_ERR(ibv_dealloc_pd(self->pd), 0);
	free(self->buf);
	mt_ctx_close(&self->c);
}

static int srq_recv(struct ibv_srq *srq, struct ibv_mr *mr, uint64_t id,
		    uint32_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)mr->addr + off, .length = len,
		.lkey = mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(srq, &wr, &bad);
}

/* One DCI work request for DCT @dctn with @key, by the builder @op. */
enum dc_op { DC_SEND, DC_SEND_IMM, DC_WRITE, DC_READ, DC_FADD, DC_CSWAP };

struct dc_wr {
	enum dc_op op;
	uint64_t id;
	uint32_t dctn;
	uint64_t key;
	struct ibv_mr *mr;	/* the local buffer's */
	uint32_t off, len;
	uint32_t rkey;
	uint64_t raddr;
	uint64_t arg0, arg1;
};

static int dc_post(struct ibv_qp *dci, struct ibv_ah *ah,
		   const struct dc_wr *w)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(dci);
	struct mlx5dv_qp_ex *mx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);

	ibv_wr_start(qx);
	qx->wr_id = w->id;
	qx->wr_flags = IBV_SEND_SIGNALED;
	switch (w->op) {
	case DC_SEND:
		ibv_wr_send(qx);
		break;
	case DC_SEND_IMM:
		ibv_wr_send_imm(qx, htobe32(0xc0ffee));
		break;
	case DC_WRITE:
		ibv_wr_rdma_write(qx, w->rkey, w->raddr);
		break;
	case DC_READ:
		ibv_wr_rdma_read(qx, w->rkey, w->raddr);
		break;
	case DC_FADD:
		ibv_wr_atomic_fetch_add(qx, w->rkey, w->raddr, w->arg0);
		break;
	case DC_CSWAP:
		ibv_wr_atomic_cmp_swp(qx, w->rkey, w->raddr, w->arg0,
				      w->arg1);
		break;
	}
	mlx5dv_wr_set_dc_addr(mx, ah, w->dctn, w->key);
	ibv_wr_set_sge(qx, w->mr->lkey, (uintptr_t)w->mr->addr + w->off,
		       w->len);
	return ibv_wr_complete(qx);
}

static bool send_is(struct ibv_cq *cq, uint64_t id, enum ibv_wc_status st,
		    enum ibv_wc_opcode op)
{
	struct ibv_wc wc;

	if (!CHECK(poll_one(cq, &wc)))
		return false;
	if (!CHECK(wc_is(&wc, id, st, op))) {
		mt_diag("wr_id %llu status %s opcode %d",
			(unsigned long long)wc.wr_id,
			ibv_wc_status_str(wc.status), wc.opcode);
		return false;
	}
	return true;
}

/* The receive of DCT @i: in its own CQ, by the DCT's number. */
static bool recv_is(struct dc *d, unsigned int i, uint64_t id, uint32_t len)
{
	struct ibv_wc wc;

	if (!CHECK(poll_one(d->rcq[i], &wc)) ||
	    !CHECK(wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_RECV)))
		return false;
	CHECK_EQ(wc.byte_len, len);
	CHECK_EQ(wc.qp_num, d->dct[i]->qp_num);
	return true;
}

static struct dc_wr dc_wr_to(struct dc *d, unsigned int i, enum dc_op op,
			     uint64_t id, uint32_t off, uint32_t len)
{
	return (struct dc_wr){ .op = op, .id = id,
			       .dctn = d->dct[i]->qp_num, .key = dct_key(i),
			       .mr = d->mr, .off = off, .len = len };
}

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

/*
 * What is refused (mlx5dv_create_qp(3), and the moves mlx5_ib allows):
 * a DCT without an SRQ; a DCT moved past RTR, or to INIT without its
 * access flags; a DCI given a peer (IBV_QP_DEST_QPN) at RTR.
 */
MT_TEST_F(dc, refusals)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS };
	struct ibv_qp *qp;

	errno = 0;
	qp = dct_qp(self->c.ctx, self->pd, self->rcq[0], NULL, KEY);
	if (!CHECK(!qp))
		ibv_destroy_qp(qp);
	else
		CHECK_EQ(errno, EINVAL);
	CHECK_ERR(ibv_modify_qp(self->dct[0], &a, IBV_QP_STATE), EINVAL);
	qp = dct_qp(self->c.ctx, self->pd, self->rcq[0], self->srq[0], KEY);
	if (CHECK(qp)) {
		a.qp_state = IBV_QPS_INIT;
		a.port_num = 1;
		CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE |
					IBV_QP_PKEY_INDEX | IBV_QP_PORT),
			  EINVAL);
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	}
	qp = dci_qp(self->c.ctx, self->pd, self->scq);
	if (CHECK(qp)) {
		a.qp_state = IBV_QPS_INIT;
		a.port_num = 1;
		CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE |
					IBV_QP_PKEY_INDEX | IBV_QP_PORT), 0);
		a.qp_state = IBV_QPS_RTR;
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = self->dct[0]->qp_num;
		CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE |
					IBV_QP_PATH_MTU | IBV_QP_DEST_QPN),
			  EINVAL);
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	}
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

/* av_qp_mapping after the general object header (rdma-core's mlx5_ifc.h) */
#define TYPE_AV_QP_MAPPING	0x3a
#define AVQ_BYTES		64
#define AVQ_SELECT		MT_FIELD(PRM_IN_BYTES * 8, 32)
#define AVQ_QPN			MT_FIELD(PRM_IN_BYTES * 8 + 0x60, 32)
#define AVQ_SGID		MT_FIELD(PRM_IN_BYTES * 8 + 0x80 + 0xe4, 8)

/*
 * mlx5dv_map_ah_to_qp(3): the AH of a DCT's address mapped to the DCI,
 * again (a duplicate is ignored), and traffic through the AH as before.
 */
MT_TEST_F(dc, ah_to_qp)
{
	struct dc_wr w;
	int err;

	err = mlx5dv_map_ah_to_qp(self->ah, self->dci->qp_num);
	if (err == EOPNOTSUPP)
		return mt_skip("no AV_QP_MAPPING objects");
	CHECK_ERR(err, 0);
	CHECK_ERR(mlx5dv_map_ah_to_qp(self->ah, self->dci->qp_num), 0);
	fill(self->buf, MSG, 0x77);
	CHECK_ERR(srq_recv(self->srq[0], self->mr, 22, RECV_OFF, MSG), 0);
	w = dc_wr_to(self, 0, DC_SEND, 23, 0, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (send_is(self->scq, 23, IBV_WC_SUCCESS, IBV_WC_SEND) &&
	    recv_is(self, 0, 22, MSG))
		CHECK(!memcmp(self->buf + RECV_OFF, self->buf, MSG));
	return KSFT_PASS;
}

/*
 * The model's checks of an AV_QP_MAPPING mailbox (DEVX): a field to
 * modify, a QP number of more than 24 bits, a source GID index that
 * holds no address are refused; a valid one is made and destroyed.
 */
MT_TEST_F(dc, av_qp_mapping_refusals)
{
	uint8_t in[PRM_IN_BYTES + AVQ_BYTES];
	struct mlx5dv_devx_obj *obj;
	uint32_t out[4];

	memset(in, 0, sizeof(in));
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_GENERAL_OBJECT);
	mt_set(in, PRM_IN_OBJ_TYPE, TYPE_AV_QP_MAPPING);
	mt_set(in, AVQ_QPN, self->dci->qp_num);
	mt_set(in, AVQ_SGID, self->gid);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	if (CHECK(obj))
		CHECK_ERR(mlx5dv_devx_obj_destroy(obj), 0);
	mt_set(in, AVQ_SELECT, 1);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	mt_devx_refused(obj, out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
			"modify_field_select");
	mt_set(in, AVQ_SELECT, 0);
	mt_set(in, AVQ_QPN, 1U << 24);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	mt_devx_refused(obj, out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
			"a QP number of 25 bits");
	mt_set(in, AVQ_QPN, self->dci->qp_num);
	mt_set(in, AVQ_SGID, 255);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	mt_devx_refused(obj, out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
			"a GID index without an address");
	return KSFT_PASS;
}

/* The model's table: a DCT of the context per DCT, none once gone. */
MT_TEST_F(dc, fw_objects)
{
	CHECK_EQ(mt_fw_count("dct", self->c.uid), NDCT);
	CHECK_ERR(ibv_destroy_qp(self->dct[0]), 0);
	self->dct[0] = NULL;
	CHECK_EQ(mt_fw_count("dct", self->c.uid), NDCT - 1);
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
	MT_CASE_F(dc, refusals),
	MT_CASE_F(dc, other_user, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(dc, ah_to_qp),
	MT_CASE_F(dc, av_qp_mapping_refusals, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(dc, fw_objects, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
