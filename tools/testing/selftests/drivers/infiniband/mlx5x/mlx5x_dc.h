/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What mlx5x_dc and mlx5x_dc_ctl share: the DC fixture (a context with a
 * PD, a buffer registered on it, NDCT DCTs each with its SRQ, CQ and key,
 * one DCI with its send CQ, the address handle of the port's own GID),
 * the DCI and DCT builders and moves, and one DCI work request posted
 * and its completions checked.
 */
#ifndef MLX5X_DC_H
#define MLX5X_DC_H

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

static inline uint64_t dct_key(unsigned int i)
{
	return KEY + i;
}

static inline struct ibv_qp *dci_qp(struct ibv_context *ctx,
				    struct ibv_pd *pd, struct ibv_cq *cq)
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

static inline struct ibv_qp *dct_qp(struct ibv_context *ctx,
				    struct ibv_pd *pd, struct ibv_cq *cq,
				    struct ibv_srq *srq, uint64_t key)
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

static inline int fill_ah(struct ibv_context *ctx, int gid,
			  struct ibv_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->is_global = 1;
	ah->port_num = 1;
	ah->grh.hop_limit = 1;
	ah->grh.sgid_index = gid;
	return ibv_query_gid(ctx, 1, gid, &ah->grh.dgid) ? errno : 0;
}

/* RESET -> INIT -> RTR, with the attributes mlx5dv_create_qp(3) asks. */
static inline int dct_connect(struct ibv_context *ctx, int gid,
			      struct ibv_qp *qp, int access)
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
static inline int dci_connect(struct ibv_qp *qp, uint8_t retry)
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
static inline int dci_connect_again(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };
	int err = ibv_modify_qp(qp, &a, IBV_QP_STATE);

	return err ? err : dci_connect(qp, 7);
}

static inline struct ibv_ah *self_ah(struct ibv_context *ctx,
				     struct ibv_pd *pd, int gid)
{
	struct ibv_ah_attr a;

	return fill_ah(ctx, gid, &a) ? NULL : ibv_create_ah(pd, &a);
}

/* The dc fixture's setup, for a fixture that holds one too. */
static inline int dc_open(struct dc *self)
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

static inline void dc_close(struct dc *self)
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

MT_FIXTURE(dc);

MT_FIXTURE_SETUP(dc)
{
	return dc_open(self);
}

MT_FIXTURE_TEARDOWN(dc)
{
	dc_close(self);
}

static inline int srq_recv(struct ibv_srq *srq, struct ibv_mr *mr,
			   uint64_t id, uint32_t off, uint32_t len)
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

static inline int dc_post(struct ibv_qp *dci, struct ibv_ah *ah,
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

static inline bool send_is(struct ibv_cq *cq, uint64_t id,
			   enum ibv_wc_status st, enum ibv_wc_opcode op)
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
static inline bool recv_is(struct dc *d, unsigned int i, uint64_t id,
			   uint32_t len)
{
	struct ibv_wc wc;

	if (!CHECK(poll_one(d->rcq[i], &wc)) ||
	    !CHECK(wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_RECV)))
		return false;
	CHECK_EQ(wc.byte_len, len);
	CHECK_EQ(wc.qp_num, d->dct[i]->qp_num);
	return true;
}

static inline struct dc_wr dc_wr_to(struct dc *d, unsigned int i,
				    enum dc_op op, uint64_t id, uint32_t off,
				    uint32_t len)
{
	return (struct dc_wr){ .op = op, .id = id,
			       .dctn = d->dct[i]->qp_num, .key = dct_key(i),
			       .mr = d->mr, .off = off, .len = len };
}

#endif /* MLX5X_DC_H */
