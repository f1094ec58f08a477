/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What mlx5x_rc and mlx5x_rc_errors share: a pair of connected QPs of the
 * device (RC or UC) on one context, each with its own CQ, and a buffer
 * registered with every access; A sends from it, B receives into it.
 * Also such a pair whose QPs configure mkeys, with two indirect mkeys
 * (mlx5x_sig, mlx5x_crypto_traffic, mlx5x_umr).
 */
#ifndef MLX5X_RC_H
#define MLX5X_RC_H

#include <errno.h>
#include <poll.h>
#include <stdio.h>
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

static inline int find_gid(struct ibv_context *ctx)
{
	union ibv_gid gid;
	int i;

	for (i = 0; i < 16; i++)
		if (!ibv_query_gid(ctx, 1, i, &gid) &&
		    (gid.global.subnet_prefix || gid.global.interface_id))
			return i;
	return -1;
}

static inline struct ibv_qp *rc_qp(struct pair *p, struct ibv_cq *cq,
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

/* A CQ of 32 entries (64 in its ring) of mlx5dv_create_cq(3), as @dv says. */
static inline struct ibv_cq *dv_cq(struct ibv_context *ctx,
				   struct mlx5dv_cq_init_attr *dv)
{
	struct ibv_cq_init_attr_ex a = { .cqe = 32 };
	struct ibv_cq_ex *cq = mlx5dv_create_cq(ctx, &a, dv);

	return cq ? ibv_cq_ex_to_cq(cq) : NULL;
}

/* A UD QP in RTS, receiving into its own RQ or into @srq. */
static inline struct ibv_qp *rts_ud_qp(struct ibv_pd *pd, struct ibv_cq *cq,
				       uint32_t qkey, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD,
		.srq = srq,
		.cap = {
			.max_send_wr = 16, .max_recv_wr = srq ? 0 : 16,
			.max_send_sge = 2, .max_recv_sge = srq ? 0 : 2,
			.max_inline_data = 64,
		},
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = qkey,
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);

	if (!CHECK(qp))
		return NULL;
	if (!CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				     IBV_QP_PORT | IBV_QP_QKEY), 0))
		return qp;
	a.qp_state = IBV_QPS_RTR;
	if (!CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE), 0))
		return qp;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 1;
	CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN), 0);
	return qp;
}

/*
 * RESET -> INIT -> RTR (-> RTS, but an XRC target), connected to @dest
 * through the port's GID @gid, with what ibv_modify_qp(3) asks of each
 * type: RC, UC, XRC initiator and target.
 */
static inline int qp_connect(struct ibv_context *ctx, int gid,
			     struct ibv_qp *qp, uint32_t dest, int access,
			     uint8_t rnr_retry)
{
	enum ibv_qp_type t = qp->qp_type;
	/* what a QP takes that answers requests, or is answered */
	bool responds = t == IBV_QPT_RC || t == IBV_QPT_XRC_RECV;
	bool answered = t == IBV_QPT_RC || t == IBV_QPT_XRC_SEND;
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
	a.dest_qp_num = dest;
	a.rq_psn = 1;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;	/* 0.01 ms */
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.grh.sgid_index = gid;
	if (ibv_query_gid(ctx, 1, gid, &a.ah_attr.grh.dgid))
		return errno;
	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
			    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			    IBV_QP_RQ_PSN |
			    (responds ? IBV_QP_MAX_DEST_RD_ATOMIC |
					IBV_QP_MIN_RNR_TIMER : 0));
	if (err || t == IBV_QPT_XRC_RECV)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = rnr_retry;
	a.sq_psn = 1;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     (answered ? IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
					 IBV_QP_RNR_RETRY |
					 IBV_QP_MAX_QP_RD_ATOMIC : 0));
}

/* RESET -> INIT -> RTR -> RTS, connected to @dest. */
static inline int rc_connect(struct pair *p, struct ibv_qp *qp, uint32_t dest,
			     int access, uint8_t rnr_retry)
{
	return qp_connect(p->c.ctx, p->gid, qp, dest, access, rnr_retry);
}

/*
 * What every pair stands on: its context, the port's GID, a PD, and a
 * zeroed buffer of @bytes registered with every access.
 */
static inline int pair_mem_open(struct pair *p, size_t bytes)
{
	if (!mt_ctx_open(&p->c, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	p->gid = find_gid(p->c.ctx);
	if (p->gid < 0)
		return mt_skip("no GID on port 1 (netdev down?)");
	p->pd = ibv_alloc_pd(p->c.ctx);
	p->buf = aligned_alloc(MT_PAGE, bytes);
	if (!CHECK(p->pd) || !CHECK(p->buf))
		return KSFT_FAIL;
	memset(p->buf, 0, bytes);
	p->mr = ibv_reg_mr(p->pd, p->buf, bytes, ALL_ACCESS);
	return CHECK(p->mr) ? KSFT_PASS : KSFT_FAIL;
}

/*
 * The pair of @type, A's QP allowed @access_b on B, A retrying RNR
 * @rnr_retry; its CQs on a completion channel if @channel.
 */
static inline int pair_open_ch(struct pair *p, enum ibv_qp_type type, int access_b,
			uint8_t rnr_retry, bool channel)
{
	unsigned int i;
	int rc = pair_mem_open(p, BUF_BYTES);

	if (rc != KSFT_PASS)
		return rc;
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

static inline int pair_open(struct pair *p, enum ibv_qp_type type, int access_b,
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

/**
 * struct mkey_pair_attr - the QPs and mkeys of mkey_pair_open()
 * @ops: the QPs' IBV_QP_EX_WITH_* besides SEND, RDMA_WRITE, RDMA_READ
 * @dv_ops: their MLX5DV_QP_EX_WITH_* besides MKEY_CONFIGURE
 * @dv_flags: their MLX5DV_QP_CREATE_* (0: none)
 * @sges: their send and receive SGEs
 * @mk_flags: the mkeys' MLX5DV_MKEY_INIT_ATTR_FLAGS_* besides INDIRECT
 * @entries: the mkeys' max_entries
 * @optional: a device without such QPs or mkeys is a skip, not a failure
 */
struct mkey_pair_attr {
	uint64_t ops, dv_ops;
	uint32_t dv_flags, sges, mk_flags;
	uint16_t entries;
	bool optional;
};

static inline struct ibv_qp *mkey_pair_qp(struct pair *p, struct ibv_cq *cq,
					  const struct mkey_pair_attr *at)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = at->sges, .max_recv_sge = at->sges,
			 .max_inline_data = 512 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = p->pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND |
				  IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_RDMA_READ | at->ops,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		.send_ops_flags = MLX5DV_QP_EX_WITH_MKEY_CONFIGURE | at->dv_ops,
	};

	if (at->dv_flags) {
		dv.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS;
		dv.create_flags = at->dv_flags;
	}
	return mlx5dv_create_qp(p->c.ctx, &a, &dv);
}

/**
 * mkey_pair_open() - a pair whose RC QPs configure mkeys, and two mkeys
 * @p: the pair: its memory, a CQ and a QP each, connected with every
 *     access; close with pair_teardown() after mkeys_destroy()
 * @mk: the two indirect mkeys, on the pair's PD
 * @at: what the QPs and mkeys are
 *
 * Return: KSFT_PASS, KSFT_SKIP, or KSFT_FAIL (a failed check).
 */
static inline int mkey_pair_open(struct pair *p, struct mlx5dv_mkey **mk,
				 const struct mkey_pair_attr *at)
{
	struct mlx5dv_mkey_init_attr ma = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				at->mk_flags,
		.max_entries = at->entries,
	};
	unsigned int i;
	int rc = pair_mem_open(p, BUF_BYTES);

	if (rc != KSFT_PASS)
		return rc;
	ma.pd = p->pd;
	for (i = 0; i < 2; i++) {
		p->cq[i] = ibv_create_cq(p->c.ctx, 32, NULL, NULL, 0);
		if (!CHECK(p->cq[i]))
			return KSFT_FAIL;
		p->qp[i] = mkey_pair_qp(p, p->cq[i], at);
		if (!p->qp[i] && at->optional &&
		    (errno == EOPNOTSUPP || errno == EINVAL))
			return mt_skip("no MKEY_CONFIGURE QPs (%s)",
				       strerror(errno));
		if (!CHECK(p->qp[i]))
			return KSFT_FAIL;
		mk[i] = mlx5dv_create_mkey(&ma);
		if (!mk[i] && at->optional && errno == EOPNOTSUPP)
			return mt_skip("no mlx5dv_create_mkey()");
		if (!CHECK(mk[i]))
			return KSFT_FAIL;
	}
	if (!CHECK_ERR(rc_connect(p, p->qp[0], p->qp[1]->qp_num, ALL_ACCESS,
				  7), 0) ||
	    !CHECK_ERR(rc_connect(p, p->qp[1], p->qp[0]->qp_num, ALL_ACCESS,
				  7), 0))
		return KSFT_FAIL;
	return KSFT_PASS;
}

/* The two mkeys of mkey_pair_open(), those there are. */
static inline void mkeys_destroy(struct mlx5dv_mkey **mk)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (mk[i])
			CHECK_ERR(mlx5dv_destroy_mkey(mk[i]), 0);
}

/* Poll @cq for one completion, within WAIT_MS. */
static inline bool poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return mt_poll_one(cq, wc, WAIT_MS);
}

static inline bool wc_is(const struct ibv_wc *wc, uint64_t wr_id,
		  enum ibv_wc_status status, enum ibv_wc_opcode opcode)
{
	return mt_wc_is(wc, wr_id, status, opcode);
}

static inline int post_recv(struct pair *p, uint64_t id, uint32_t off, uint32_t len)
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
static inline int post_send(struct pair *p, struct ibv_send_wr *wr, uint32_t off,
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

/* A's RDMA @op of @len bytes, @lkey at @laddr, @rkey at @raddr: status. */
static inline int rc_rdma(struct pair *p, enum ibv_wr_opcode op, uint32_t rkey,
			  uint64_t raddr, uint32_t lkey, uint64_t laddr,
			  uint32_t len)
{
	struct ibv_sge sge = { laddr, len, lkey };
	struct ibv_send_wr wr = {
		.wr_id = 5, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_post_send(p->qp[0], &wr, &bad), 0) ||
	    !CHECK(poll_one(p->cq[0], &wc)))
		return -1;
	return wc.status;
}

static inline void fill(uint8_t *b, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = seed + i * 7;
}

/* Counter @name of the device's port 1, or -1. */
static inline long long hw_counter(struct ibv_context *ctx, const char *name)
{
	char path[256], val[64];

	/* ib_core keeps what it read for 10 ms: read afresh */
	usleep(20 * 1000);
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/%s",
		 ibv_get_device_name(ctx->device), name);
	if (mt_read_file(path, val, sizeof(val)) < 0)
		return -1;
	return strtoll(val, NULL, 0);
}

#endif /* MLX5X_RC_H */
