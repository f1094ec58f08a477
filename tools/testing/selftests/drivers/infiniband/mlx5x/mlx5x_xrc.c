// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC, as ibv_open_xrcd(3), ibv_create_srq_ex(3), ibv_create_qp_ex(3)
 * and ibv_open_qp(3) define it, with the IBTA's rules (chapter 14 of the
 * RoCE annex's base, "XRC"): an initiator QP sends, each WQE naming the
 * XRC SRQ its message is for; the target QP it is connected to takes the
 * message into that SRQ, which must be of the target's XRC domain, and
 * the receive completes in the SRQ's CQ.  Several SRQs receive through
 * one target; the SRQ's PD is the one an RDMA's rkey must be of.  A WQE
 * naming an SRQ that is not there, or of another domain, is an invalid
 * request: the initiator completes in error, the target goes to ERR.  A
 * domain is shared between processes through a file, its target QPs
 * opened by number (ibv_open_qp()).  And what is refused: closing a
 * domain that SRQs or QPs use, a domain of another context.  DEVX makes
 * a domain and an XRC SRQ by mailbox, as mlx5_ib does.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include "mlx5x_rc.h"
#include "mlx5x_queues.h"

#define NSRQ		2
#define XBUF		(64 * 1024)
#define RECV_OFF	(XBUF / 2)	/* sends come from below, land above */
#define MSG		200

/*
 * A context with a PD, a buffer registered on it, an XRC domain, NSRQ
 * XRC SRQs of the domain (each its own CQ), an initiator (its send CQ)
 * and a target, connected to each other.
 */
struct xrc {
	struct mt_ctx c;
	int gid;
	int xrcds;		/* the model's domains before (-1: no model) */
	int kqps;		/* and the kernel's QPs */
	struct ibv_pd *pd;
	uint8_t *buf;
	struct ibv_mr *mr;
	struct ibv_cq *scq, *rcq[NSRQ];
	struct ibv_xrcd *xrcd;
	struct ibv_srq *srq[NSRQ];
	uint32_t srqn[NSRQ];
	struct ibv_qp *ini, *tgt;
};

static struct ibv_xrcd *open_xrcd(struct ibv_context *ctx, int fd, int oflags)
{
	struct ibv_xrcd_init_attr a = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = fd,
		.oflags = oflags,
	};

	return ibv_open_xrcd(ctx, &a);
}

static struct ibv_srq *xsrq(struct ibv_context *ctx, struct ibv_pd *pd,
			    struct ibv_xrcd *xrcd, struct ibv_cq *cq)
{
	struct ibv_srq_init_attr_ex a = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = pd,
		.xrcd = xrcd,
		.cq = cq,
	};

	return ibv_create_srq_ex(ctx, &a);
}

static struct ibv_qp *ini_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			     struct ibv_cq *cq)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_XRC_SEND,
		.send_cq = cq,
		.cap = { .max_send_wr = 16, .max_send_sge = 1,
			 .max_inline_data = 64 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};

	return ibv_create_qp_ex(ctx, &a);
}

static struct ibv_qp *tgt_qp(struct ibv_context *ctx, struct ibv_xrcd *xrcd)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
		.xrcd = xrcd,
	};

	return ibv_create_qp_ex(ctx, &a);
}

/* RESET -> INIT -> RTR (-> RTS: an initiator), connected to @dest. */
static int xrc_connect(struct ibv_context *ctx, int gid, struct ibv_qp *qp,
		       uint32_t dest)
{
	return qp_connect(ctx, gid, qp, dest, ALL_ACCESS, 7);
}

MT_FIXTURE(xrc);

MT_FIXTURE_SETUP(xrc)
{
	unsigned int i;

	if (!mt_ctx_open(&self->c, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	self->xrcds = mt_sim() ? mt_fw_count("xrcd", 0) : -1;
	self->kqps = mt_sim() ? mt_fw_count("qp", 0) : -1;
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
	self->xrcd = open_xrcd(self->c.ctx, -1, O_CREAT);
	if (!CHECK(self->mr) || !CHECK(self->scq) || !CHECK(self->xrcd))
		return KSFT_FAIL;
	for (i = 0; i < NSRQ; i++) {
		self->rcq[i] = ibv_create_cq(self->c.ctx, 32, NULL, NULL, 0);
		if (!CHECK(self->rcq[i]))
			return KSFT_FAIL;
		self->srq[i] = xsrq(self->c.ctx, self->pd, self->xrcd,
				    self->rcq[i]);
		if (!CHECK(self->srq[i]) ||
		    !CHECK_ERR(ibv_get_srq_num(self->srq[i], &self->srqn[i]),
			       0))
			return KSFT_FAIL;
	}
	self->ini = ini_qp(self->c.ctx, self->pd, self->scq);
	self->tgt = tgt_qp(self->c.ctx, self->xrcd);
	if (!CHECK(self->ini) || !CHECK(self->tgt))
		return KSFT_FAIL;
	if (!CHECK_ERR(xrc_connect(self->c.ctx, self->gid, self->tgt,
				   self->ini->qp_num), 0) ||
	    !CHECK_ERR(xrc_connect(self->c.ctx, self->gid, self->ini,
				   self->tgt->qp_num), 0))
		return KSFT_FAIL;
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(xrc)
{
	unsigned int i;

	if (self->ini)
		CHECK_ERR(ibv_destroy_qp(self->ini), 0);
	if (self->tgt)
		CHECK_ERR(ibv_destroy_qp(self->tgt), 0);
	for (i = 0; i < NSRQ; i++)
		if (self->srq[i])
			CHECK_ERR(ibv_destroy_srq(self->srq[i]), 0);
	if (self->xrcd)
		CHECK_ERR(ibv_close_xrcd(self->xrcd), 0);
	for (i = 0; i < NSRQ; i++)
		if (self->rcq[i])
			CHECK_ERR(ibv_destroy_cq(self->rcq[i]), 0);
	if (self->scq)
		CHECK_ERR(ibv_destroy_cq(self->scq), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->pd)
		CHECK_ERR(ibv_dealloc_pd(self->pd), 0);
	free(self->buf);
	mt_ctx_close(&self->c);
	/* the domain and the target are the kernel's: none is left */
	if (self->xrcds >= 0) {
		CHECK_EQ(mt_fw_count("xrcd", 0), self->xrcds);
		CHECK_EQ(mt_fw_count("qp", 0), self->kqps);
	}
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

/* The initiator's signalled WR for SRQ @srqn, @len bytes at @off. */
static int xsend(struct ibv_qp *ini, struct ibv_mr *mr, struct ibv_send_wr *wr,
		 uint32_t srqn, uint32_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)mr->addr + off, .length = len,
		.lkey = mr->lkey,
	};
	struct ibv_send_wr *bad;

	wr->sg_list = &sge;
	wr->num_sge = 1;
	wr->send_flags |= IBV_SEND_SIGNALED;
	wr->qp_type.xrc.remote_srqn = srqn;
	return ibv_post_send(ini, wr, &bad);
}

/* The receive of SRQ @i: in its own CQ, through the target. */
static bool recv_is(struct xrc *x, unsigned int i, uint64_t id, uint32_t len,
		    enum ibv_wc_opcode op)
{
	struct ibv_wc wc;

	if (!CHECK(poll_one(x->rcq[i], &wc)) ||
	    !CHECK(wc_is(&wc, id, IBV_WC_SUCCESS, op)))
		return false;
	CHECK_EQ(wc.byte_len, len);
	CHECK_EQ(wc.qp_num, x->tgt->qp_num);
	return true;
}

static bool send_is(struct xrc *x, uint64_t id, enum ibv_wc_status st,
		    enum ibv_wc_opcode op)
{
	struct ibv_wc wc;

	if (!CHECK(poll_one(x->scq, &wc)))
		return false;
	if (!CHECK(wc_is(&wc, id, st, op)))
		mt_diag("wr_id %llu status %s opcode %d",
			(unsigned long long)wc.wr_id,
			ibv_wc_status_str(wc.status), wc.opcode);
	return true;
}

/*
 * One initiator sends to each of two SRQs through one target: each
 * message lands in the SRQ its WQE names, and completes in that SRQ's
 * CQ, with the immediate data when it carries one.
 */
MT_TEST_F(xrc, two_srqs)
{
	struct ibv_send_wr wr = { .wr_id = 1, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;
	unsigned int i;

	fill(self->buf, 2 * MSG, 0x11);
	for (i = 0; i < NSRQ; i++)
		CHECK_ERR(srq_recv(self->srq[i], self->mr, 10 + i,
				   RECV_OFF + i * MSG, MSG), 0);
	CHECK_ERR(xsend(self->ini, self->mr, &wr, self->srqn[1], MSG, MSG), 0);
	if (!send_is(self, 1, IBV_WC_SUCCESS, IBV_WC_SEND) ||
	    !recv_is(self, 1, 11, MSG, IBV_WC_RECV))
		return KSFT_FAIL;
	CHECK(!memcmp(self->buf + RECV_OFF + MSG, self->buf + MSG, MSG));
	/* nothing reached the other SRQ */
	CHECK_EQ(ibv_poll_cq(self->rcq[0], 1, &wc), 0);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 2;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htobe32(0xc0ffee);
	CHECK_ERR(xsend(self->ini, self->mr, &wr, self->srqn[0], 0, MSG), 0);
	if (!send_is(self, 2, IBV_WC_SUCCESS, IBV_WC_SEND) ||
	    !CHECK(poll_one(self->rcq[0], &wc)) ||
	    !CHECK(wc_is(&wc, 10, IBV_WC_SUCCESS, IBV_WC_RECV)))
		return KSFT_FAIL;
	CHECK(wc.wc_flags & IBV_WC_WITH_IMM);
	CHECK_EQ(be32toh(wc.imm_data), 0xc0ffee);
	CHECK_EQ(wc.qp_num, self->tgt->qp_num);
	CHECK(!memcmp(self->buf + RECV_OFF, self->buf, MSG));
	return KSFT_PASS;
}

/*
 * RDMA WRITE with immediate: the bytes land by rkey (of the SRQ's PD),
 * and the immediate takes a receive WQE of the SRQ named, whose buffer
 * it leaves alone.
 */
MT_TEST_F(xrc, write_imm)
{
	struct ibv_send_wr wr = {
		.wr_id = 3, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm_data = htobe32(77),
		.wr.rdma = { .remote_addr = (uintptr_t)self->buf + RECV_OFF,
			     .rkey = self->mr->rkey },
	};
	uint8_t *spot = self->buf + RECV_OFF + 4 * MSG;

	fill(self->buf, MSG, 0x42);
	memset(spot, 0xee, MSG);
	CHECK_ERR(srq_recv(self->srq[1], self->mr, 20, 4 * MSG + RECV_OFF,
			   MSG), 0);
	CHECK_ERR(xsend(self->ini, self->mr, &wr, self->srqn[1], 0, MSG), 0);
	if (!send_is(self, 3, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE) ||
	    !recv_is(self, 1, 20, MSG, IBV_WC_RECV_RDMA_WITH_IMM))
		return KSFT_FAIL;
	CHECK(!memcmp(self->buf + RECV_OFF, self->buf, MSG));
	CHECK_EQ(spot[0], 0xee);
	CHECK_EQ(spot[MSG - 1], 0xee);
	return KSFT_PASS;
}

/* The target is in ERR once it NAKed an invalid request. */
static void tgt_in_error(struct xrc *x)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	if (CHECK_ERR(ibv_query_qp(x->tgt, &a, IBV_QP_STATE, &init), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_ERR);
}

/* An SRQ number that is no SRQ: an invalid request. */
MT_TEST_F(xrc, no_such_srq)
{
	struct ibv_send_wr wr = { .wr_id = 4, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;

	CHECK_ERR(srq_recv(self->srq[0], self->mr, 30, RECV_OFF, MSG), 0);
	CHECK_ERR(xsend(self->ini, self->mr, &wr, self->srqn[0] ^ 0x5a5a, 0,
			MSG), 0);
	send_is(self, 4, IBV_WC_REM_INV_REQ_ERR, IBV_WC_SEND);
	tgt_in_error(self);
	/* the SRQ's WQE was not taken */
	CHECK_EQ(ibv_poll_cq(self->rcq[0], 1, &wc), 0);
	return KSFT_PASS;
}

/*
 * An SRQ of another XRC domain, even of the same context and PD: an
 * invalid request, and the SRQ's WQE is left alone.
 */
MT_TEST_F(xrc, srq_of_other_domain)
{
	struct ibv_send_wr wr = { .wr_id = 5, .opcode = IBV_WR_SEND };
	struct ibv_xrcd *other = open_xrcd(self->c.ctx, -1, O_CREAT);
	struct ibv_srq *srq = NULL;
	uint32_t n = 0;
	struct ibv_wc wc;

	if (!CHECK(other))
		return KSFT_FAIL;
	srq = xsrq(self->c.ctx, self->pd, other, self->rcq[0]);
	if (CHECK(srq) && CHECK_ERR(ibv_get_srq_num(srq, &n), 0) &&
	    CHECK_ERR(srq_recv(srq, self->mr, 40, RECV_OFF, MSG), 0)) {
		CHECK_ERR(xsend(self->ini, self->mr, &wr, n, 0, MSG), 0);
		send_is(self, 5, IBV_WC_REM_INV_REQ_ERR, IBV_WC_SEND);
		tgt_in_error(self);
		CHECK_EQ(ibv_poll_cq(self->rcq[0], 1, &wc), 0);
	}
	if (srq)
		CHECK_ERR(ibv_destroy_srq(srq), 0);
	CHECK_ERR(ibv_close_xrcd(other), 0);
	return KSFT_PASS;
}

/*
 * The SRQ's PD is the one an RDMA's rkey must be of: a key of another PD
 * of the context is a remote access error, and nothing is written.
 */
MT_TEST_F(xrc, rkey_of_other_pd)
{
	struct ibv_pd *pd2 = ibv_alloc_pd(self->c.ctx);
	struct ibv_mr *mr2 = NULL;
	struct ibv_send_wr wr = { .wr_id = 6, .opcode = IBV_WR_RDMA_WRITE };
	uint8_t *spot = self->buf + RECV_OFF;

	if (!CHECK(pd2))
		return KSFT_FAIL;
	mr2 = ibv_reg_mr(pd2, spot, MSG, ALL_ACCESS);
	if (CHECK(mr2)) {
		memset(spot, 0xee, MSG);
		fill(self->buf, MSG, 3);
		wr.wr.rdma.remote_addr = (uintptr_t)spot;
		wr.wr.rdma.rkey = mr2->rkey;
		CHECK_ERR(xsend(self->ini, self->mr, &wr, self->srqn[0], 0,
				MSG), 0);
		send_is(self, 6, IBV_WC_REM_ACCESS_ERR, IBV_WC_RDMA_WRITE);
		CHECK_EQ(spot[0], 0xee);
		CHECK_ERR(ibv_dereg_mr(mr2), 0);
	}
	CHECK_ERR(ibv_dealloc_pd(pd2), 0);
	return KSFT_PASS;
}

/*
 * ibv_close_xrcd(3) fails while SRQs or QPs of the domain remain;
 * ibv_destroy_cq(3) while an XRC SRQ completes in it.
 */
MT_TEST_F(xrc, close_busy)
{
	unsigned int i;

	CHECK_ERR(ibv_close_xrcd(self->xrcd), EBUSY);
	CHECK_ERR(ibv_destroy_cq(self->rcq[0]), EBUSY);
	CHECK_ERR(ibv_destroy_qp(self->tgt), 0);
	self->tgt = NULL;
	CHECK_ERR(ibv_close_xrcd(self->xrcd), EBUSY);
	for (i = 0; i < NSRQ; i++) {
		CHECK_ERR(ibv_destroy_srq(self->srq[i]), 0);
		self->srq[i] = NULL;
	}
	CHECK_ERR(ibv_close_xrcd(self->xrcd), 0);
	self->xrcd = NULL;
	return KSFT_PASS;
}

/* ibv_modify_srq(3): the limit of an XRC SRQ, as ibv_query_srq() says. */
MT_TEST_F(xrc, srq_limit)
{
	struct ibv_srq_attr a = { .srq_limit = 3 };

	CHECK_ERR(ibv_modify_srq(self->srq[0], &a, IBV_SRQ_LIMIT), 0);
	memset(&a, 0, sizeof(a));
	if (CHECK_ERR(ibv_query_srq(self->srq[0], &a), 0)) {
		CHECK_EQ(a.srq_limit, 3);
		CHECK(a.max_wr >= 8);
	}
	a.srq_limit = 1 << 20;
	CHECK_ERR(ibv_modify_srq(self->srq[0], &a, IBV_SRQ_LIMIT), EINVAL);
	return KSFT_PASS;
}

/*
 * A domain is its context's: another context of the process can make no
 * SRQ in it (the handle is not of its file).
 */
MT_TEST_F(xrc, other_context)
{
	struct mt_ctx c2 = { 0 };
	struct ibv_srq *srq;
	struct ibv_pd *pd2;
	struct ibv_cq *cq2;

	if (!mt_ctx_open(&c2, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	pd2 = ibv_alloc_pd(c2.ctx);
	cq2 = ibv_create_cq(c2.ctx, 8, NULL, NULL, 0);
	if (CHECK(pd2) && CHECK(cq2)) {
		srq = xsrq(c2.ctx, pd2, self->xrcd, cq2);
		if (!CHECK(!srq))
			ibv_destroy_srq(srq);
	}
	if (cq2)
		CHECK_ERR(ibv_destroy_cq(cq2), 0);
	if (pd2)
		CHECK_ERR(ibv_dealloc_pd(pd2), 0);
	mt_ctx_close(&c2);
	return KSFT_PASS;
}

/*
 * The child: opens the parent's domain by its file, opens the target by
 * number, makes an SRQ of the domain and says its number down @wfd; a
 * message of the parent's initiator lands in it.
 */
static int share_child(const char *path, uint32_t tgt_qpn, int wfd)
{
	struct mt_ctx c = { 0 };
	struct ibv_qp_open_attr oa = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_num = tgt_qpn,
		.qp_type = IBV_QPT_XRC_RECV,
	};
	struct ibv_xrcd *xrcd = NULL;
	struct ibv_srq *srq = NULL;
	struct ibv_qp *qp = NULL, *bad;
	struct ibv_cq *cq = NULL;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	uint8_t *buf = calloc(1, MT_PAGE);
	struct ibv_wc wc;
	uint32_t n = 0;
	int fd = open(path, O_RDONLY);

	if (!CHECK(fd >= 0) || !mt_ctx_open(&c, MT_OPEN_DEFAULT))
		goto out;
	xrcd = open_xrcd(c.ctx, fd, 0);
	if (!CHECK(xrcd))
		goto out;
	oa.xrcd = xrcd;
	qp = ibv_open_qp(c.ctx, &oa);
	/* ibv_open_qp(3): a number that is no target of the domain */
	oa.qp_num = tgt_qpn ^ 0x40;
	bad = ibv_open_qp(c.ctx, &oa);
	CHECK(!bad);
	pd = ibv_alloc_pd(c.ctx);
	cq = ibv_create_cq(c.ctx, 8, NULL, NULL, 0);
	if (!CHECK(qp) || !CHECK(pd) || !CHECK(cq) || !CHECK(buf))
		goto out;
	CHECK_EQ(qp->qp_num, tgt_qpn);
	mr = ibv_reg_mr(pd, buf, MT_PAGE, IBV_ACCESS_LOCAL_WRITE);
	srq = xsrq(c.ctx, pd, xrcd, cq);
	if (!CHECK(mr) || !CHECK(srq) ||
	    !CHECK_ERR(ibv_get_srq_num(srq, &n), 0) ||
	    !CHECK_ERR(srq_recv(srq, mr, 99, 0, MSG), 0))
		n = 0;
	CHECK_EQ(write(wfd, &n, sizeof(n)), sizeof(n));
	if (n && CHECK(mt_poll_one(cq, &wc, WAIT_MS)) &&
	    CHECK(wc_is(&wc, 99, IBV_WC_SUCCESS, IBV_WC_RECV))) {
		CHECK_EQ(wc.byte_len, MSG);
		CHECK_EQ(wc.qp_num, tgt_qpn);
		CHECK_EQ(buf[0], 0x5a);
		CHECK_EQ(buf[MSG - 1], 0x5a);
	}
out:
	if (srq)
		CHECK_ERR(ibv_destroy_srq(srq), 0);
	if (mr)
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	if (cq)
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	/*
	 * libmlx5 44's ibv_destroy_qp() of a QP ibv_open_qp() gave faults
	 * (it frees what only a QP it created has): closing the context
	 * closes the QP, and with it the domain it holds.
	 */
	if (xrcd && !qp)
		CHECK_ERR(ibv_close_xrcd(xrcd), 0);
	mt_ctx_close(&c);
	free(buf);
	if (fd >= 0)
		close(fd);
	return mt_case_failures() ? KSFT_FAIL : KSFT_PASS;
}

/*
 * A domain shared between two processes through a file (ibv_open_xrcd(3)
 * with fd): the other process opens the target by number and receives,
 * into an SRQ of its own, what this process's initiator sends.
 */
MT_TEST_F(xrc, shared_domain)
{
	struct ibv_send_wr wr = { .wr_id = 7, .opcode = IBV_WR_SEND };
	char path[] = "/tmp/mlx5x_xrc.XXXXXX";
	struct ibv_xrcd *xrcd = NULL;
	struct ibv_qp *tgt = NULL;
	int fd = mkstemp(path), p[2] = { -1, -1 }, st = 0;
	uint32_t n = 0;
	pid_t pid = -1;

	if (!CHECK(fd >= 0) || !CHECK(!pipe(p)))
		goto out;
	xrcd = open_xrcd(self->c.ctx, fd, O_CREAT);
	tgt = xrcd ? tgt_qp(self->c.ctx, xrcd) : NULL;
	if (!CHECK(xrcd) || !CHECK(tgt))
		goto out;
	/* the initiator, to this domain's target instead */
	CHECK_ERR(ibv_destroy_qp(self->ini), 0);
	self->ini = ini_qp(self->c.ctx, self->pd, self->scq);
	if (!CHECK(self->ini) ||
	    !CHECK_ERR(xrc_connect(self->c.ctx, self->gid, tgt,
				   self->ini->qp_num), 0) ||
	    !CHECK_ERR(xrc_connect(self->c.ctx, self->gid, self->ini,
				   tgt->qp_num), 0))
		goto out;
	pid = mt_fork();
	if (!pid) {
		close(p[0]);
		_exit(share_child(path, tgt->qp_num, p[1]));
	}
	if (!CHECK(pid > 0))
		goto out;
	close(p[1]);
	p[1] = -1;
	if (CHECK_EQ(read(p[0], &n, sizeof(n)), sizeof(n)) && CHECK(n)) {
		memset(self->buf, 0x5a, MSG);
		CHECK_ERR(xsend(self->ini, self->mr, &wr, n, 0, MSG), 0);
		send_is(self, 7, IBV_WC_SUCCESS, IBV_WC_SEND);
	}
	if (CHECK_EQ(mt_waitpid(pid, &st, 0), pid)) {
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == KSFT_PASS);
		pid = -1;
	}
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		mt_waitpid(pid, &st, 0);
	}
	if (tgt)
		CHECK_ERR(ibv_destroy_qp(tgt), 0);
	if (xrcd)
		CHECK_ERR(ibv_close_xrcd(xrcd), 0);
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	if (fd >= 0)
		close(fd);
	unlink(path);
	return KSFT_PASS;
}

/* On the model: the domain and the target are the kernel's (uid 0). */
MT_TEST_F(xrc, fw_objects)
{
	struct mt_objs s = { 0 };
	const struct mt_obj *o;

	if (!CHECK_ERR(mt_fw_read(&s), 0))
		return KSFT_FAIL;
	o = mt_fw_find(&s, "qp", self->tgt->qp_num);
	if (CHECK(o))
		CHECK_EQ(o->uid, 0);
	o = mt_fw_find(&s, "xrc_srq", self->srqn[0]);
	if (CHECK(o))
		CHECK_EQ(o->uid, self->c.uid);
	o = mt_fw_find(&s, "qp", self->ini->qp_num);
	if (CHECK(o))
		CHECK_EQ(o->uid, self->c.uid);
	CHECK_EQ(mt_fw_count("xrcd", 0), self->xrcds + 1);
	mt_fw_free(&s);
	return KSFT_PASS;
}

/*
 * CREATE_XRC_SRQ and QUERY_XRC_SRQ as mlx5_ifc.h lays them out: the
 * context at bit 0x80 of both, the buffer's umem at 0x280 (offset) and
 * 0x2c0 (id), where the PRM has them.
 */
#define XS_CTX			0x80
#define XS_LOG_SIZE		MT_FIELD(XS_CTX + 0x04, 4)
#define XS_STRIDE		MT_FIELD(XS_CTX + 0x25, 3)
#define XS_XRCD			MT_FIELD(XS_CTX + 0x28, 24)
#define XS_DBR_UMEM_VALID	MT_FIELD(XS_CTX + 0x47, 1)
#define XS_CQN			MT_FIELD(XS_CTX + 0x48, 24)
#define XS_DBR_UMEM_ID		MT_FIELD(XS_CTX + 0x60, 32)
#define XS_PD			MT_FIELD(XS_CTX + 0xc8, 24)
#define XS_LWM			MT_FIELD(XS_CTX + 0xe0, 16)
#define XS_DBR_ADDR_L		MT_FIELD(XS_CTX + 0x160, 30)
#define XS_UMEM_OFF		0x280
#define XS_UMEM_ID		MT_FIELD(0x2c0, 32)
#define XS_UMEM_VALID		MT_FIELD(0x2e0, 1)
#define XS_BYTES		(0x880 / 8)
/* ARM_XRC_SRQ: op_mod 1 (an XRC SRQ), the SRQ, the limit */
#define XS_ARM_OP_MOD		MT_FIELD(0x30, 16)
#define XS_ARM_SRQN		MT_FIELD(0x48, 24)
#define XS_ARM_LWM		MT_FIELD(0x70, 16)
#define XS_BUF_OFF		(32 * 1024)

static int xs_arm(struct mq_obj *o, uint32_t lwm)
{
	uint32_t in[4] = {}, out[4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_ARM_XRC_SRQ);
	mt_set(in, XS_ARM_OP_MOD, 1);
	mt_set(in, XS_ARM_SRQN, o->id);
	mt_set(in, XS_ARM_LWM, lwm);
	return mlx5dv_devx_obj_modify(o->obj, in, sizeof(in), out, sizeof(out));
}

/*
 * A DEVX context makes a domain (ALLOC_XRCD) and an XRC SRQ in it
 * (CREATE_XRC_SRQ, its buffer and record by umem), reads it back, arms
 * its limit; the domain cannot go while the SRQ holds it.
 */
MT_TEST_F(mt_mq, devx_xrc_srq)
{
	uint32_t in[XS_BYTES / 4], out[XS_BYTES / 4];
	struct mlx5dv_devx_obj *xrcd_obj;
	struct mq *q = &self->q;
	struct mq_obj cq, o;
	uint32_t xrcdn;

	xrcd_obj = mq_alloc(q->ctx, PRM_OP_ALLOC_XRCD, &xrcdn);
	mq_cq_in(q, in);
	if (!CHECK(xrcd_obj) || !CHECK(mq_create(q, in, PRM_CREATE_CQ_IN_BYTES,
						 &cq, out)))
		return KSFT_FAIL;
	memset(in, 0, sizeof(in));
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_XRC_SRQ);
	mt_set(in, XS_LOG_SIZE, 4);
	mt_set(in, XS_STRIDE, 2);	/* 64-byte WQEs */
	mt_set(in, XS_XRCD, xrcdn);
	mt_set(in, XS_CQN, cq.id);
	mt_set(in, XS_PD, q->pd);
	mt_set(in, XS_DBR_UMEM_VALID, 1);
	mt_set(in, XS_DBR_UMEM_ID, q->umem->umem_id);
	mt_set(in, XS_DBR_ADDR_L, MQ_DBR >> 2);
	mt_set(in, XS_UMEM_VALID, 1);
	mt_set(in, XS_UMEM_ID, q->umem->umem_id);
	mq_set64(in, XS_UMEM_OFF, XS_BUF_OFF);
	if (CHECK(mq_create(q, in, sizeof(in), &o, out))) {
		if (CHECK_ERR(mq_query(&o, PRM_OP_QUERY_XRC_SRQ, o.id, out,
				       sizeof(out)), 0)) {
			CHECK_EQ(mt_get(out, XS_XRCD), xrcdn);
			CHECK_EQ(mt_get(out, XS_CQN), cq.id);
			CHECK_EQ(mt_get(out, XS_PD), q->pd);
			CHECK_EQ(mt_get(out, XS_LOG_SIZE), 4);
		}
		CHECK_ERR(xs_arm(&o, 3), 0);
		if (CHECK_ERR(mq_query(&o, PRM_OP_QUERY_XRC_SRQ, o.id, out,
				       sizeof(out)), 0))
			CHECK_EQ(mt_get(out, XS_LWM), 3);
		CHECK_ERR(xs_arm(&o, 16), EREMOTEIO);
		/* the domain is busy: RESOURCE_BUSY, EBUSY as mlx5_core */
		CHECK_ERR(mlx5dv_devx_obj_destroy(xrcd_obj), EBUSY);
		CHECK_ERR(mlx5dv_devx_obj_destroy(o.obj), 0);
	}
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(xrcd_obj), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(xrc, two_srqs),
	MT_CASE_F(xrc, write_imm),
	MT_CASE_F(xrc, no_such_srq),
	MT_CASE_F(xrc, srq_of_other_domain),
	MT_CASE_F(xrc, rkey_of_other_pd),
	MT_CASE_F(xrc, close_busy),
	MT_CASE_F(xrc, srq_limit),
	MT_CASE_F(xrc, other_context),
	MT_CASE_F(xrc, shared_domain),
	MT_CASE_F(xrc, fw_objects, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_mq_fixture, devx_xrc_srq),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
