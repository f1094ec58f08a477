// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What separates one user's UD and SRQ traffic from another's, each rule
 * tried by an ordinary user (nobody) against root's objects: the keys of
 * a UD send, a UD receive and an SRQ receive are checked against the
 * QP's (the SRQ's) context and PD, a wrong one is a local protection
 * error and no byte of the other memory moves; a QP is made on an SRQ
 * and CQs of its own context only, by verbs (ib_uverbs finds no such
 * handle) and by DEVX mailbox (firmware refuses another uid's RMP and
 * CQ); another uid's RMP is not queried, modified or destroyed; a
 * datagram reaches another user's UD QP with that QP's Q_Key only, and a
 * privileged Q_Key (its high bit set, IBTA 10.2.4) is not an ordinary
 * user's to send with; an AH names a GID of the port's table.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include "mlx5x_rc.h"
#include "mlx5x_queues.h"
#include "mlx5x_model.h"

#define SBUF		(64 * 1024)
#define ROFF		(SBUF / 2)	/* receives land above, sends below */
#define QKEY		0x11111111U
#define PRIV_QKEY	0x80000123U	/* a controlled Q_Key */
#define GRH		40
#define NSRQ		3
#define QUIET_MS	100
/* PRM's bad resource status (MLX5_CMD_STAT_BAD_RES_ERR) */
#define STAT_BAD_RES	0x05
#define RMP_STATE	MT_FIELD(0x100 + 0x8, 4)	/* ctx.state */

/*
 * One user's UD traffic: a context, PD, buffer and MR (in @p), a send
 * and a receive CQ, two UD QPs (u[0] sends, u[1] receives into its RQ),
 * an SRQ with NSRQ UD QPs on it, and an AH to the port's own GID; and,
 * once side_pd2() made them, a second PD with an MR over the buffer.
 */
struct side {
	struct pair p;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *u[2];
	struct ibv_srq *srq;
	struct ibv_qp *on[NSRQ];
	struct ibv_ah *ah;
	struct ibv_pd *pd2;
	struct ibv_mr *mr2;
};

/* A UD QP in RTS with @qkey, on @srq if not NULL. */
static struct ibv_qp *ud_qp(struct side *s, struct ibv_srq *srq,
			    uint32_t qkey)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = s->scq, .recv_cq = s->rcq, .qp_type = IBV_QPT_UD,
		.srq = srq,
		.cap = { .max_send_wr = 8, .max_recv_wr = srq ? 0 : 8,
			 .max_send_sge = 1, .max_recv_sge = srq ? 0 : 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = qkey,
	};
	struct ibv_qp *qp = ibv_create_qp(s->p.pd, &ia);

	if (!CHECK(qp))
		return NULL;
	if (CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				    IBV_QP_PORT | IBV_QP_QKEY), 0)) {
		a.qp_state = IBV_QPS_RTR;
		if (CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE), 0)) {
			a.qp_state = IBV_QPS_RTS;
			a.sq_psn = 1;
			CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE |
						IBV_QP_SQ_PSN), 0);
		}
	}
	return qp;
}

static int side_open(struct side *s)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	int rc = pair_mem_open(&s->p, SBUF);
	unsigned int i;

	if (rc != KSFT_PASS)
		return rc;
	s->scq = ibv_create_cq(s->p.c.ctx, 32, NULL, NULL, 0);
	s->rcq = ibv_create_cq(s->p.c.ctx, 32, NULL, NULL, 0);
	s->srq = ibv_create_srq(s->p.pd, &sa);
	if (!CHECK(s->scq) || !CHECK(s->rcq) || !CHECK(s->srq))
		return KSFT_FAIL;
	for (i = 0; i < 2; i++)
		s->u[i] = ud_qp(s, NULL, QKEY);
	for (i = 0; i < NSRQ; i++)
		s->on[i] = ud_qp(s, s->srq, QKEY);
	aa.grh.sgid_index = s->p.gid;
	aa.grh.hop_limit = 64;
	if (!CHECK_ERR(ibv_query_gid(s->p.c.ctx, 1, s->p.gid, &aa.grh.dgid),
		       0))
		return KSFT_FAIL;
	s->ah = ibv_create_ah(s->p.pd, &aa);
	return CHECK(s->ah) && !mt_case_failures() ? KSFT_PASS : KSFT_FAIL;
}

static void side_close(struct side *s)
{
	unsigned int i;

	if (s->ah)
		CHECK_ERR(ibv_destroy_ah(s->ah), 0);
	for (i = 0; i < NSRQ; i++)
		if (s->on[i])
			CHECK_ERR(ibv_destroy_qp(s->on[i]), 0);
	for (i = 0; i < 2; i++)
		if (s->u[i])
			CHECK_ERR(ibv_destroy_qp(s->u[i]), 0);
	if (s->srq)
		CHECK_ERR(ibv_destroy_srq(s->srq), 0);
	if (s->rcq)
		CHECK_ERR(ibv_destroy_cq(s->rcq), 0);
	if (s->scq)
		CHECK_ERR(ibv_destroy_cq(s->scq), 0);
	/* after the QPs, whose WQEs may name it */
	if (s->mr2)
		CHECK_ERR(ibv_dereg_mr(s->mr2), 0);
	if (s->pd2)
		CHECK_ERR(ibv_dealloc_pd(s->pd2), 0);
	/* the pair's teardown frees the MR, PD, buffer and context */
	pair_teardown(&s->p);
}

/* A second PD of @s's context, and an MR of it over @s's buffer. */
static bool side_pd2(struct side *s)
{
	s->pd2 = ibv_alloc_pd(s->p.c.ctx);
	s->mr2 = s->pd2 ? ibv_reg_mr(s->pd2, s->p.buf, SBUF, ALL_ACCESS) :
		 NULL;
	return CHECK(s->mr2);
}

/*
 * The victim: root's side, and a page shared with the attacker's child
 * for what it tells back (@qpn: its sending QP's number).
 */
struct victim {
	struct side s;
	uint8_t *before;
	uint32_t *qpn;
};

MT_FIXTURE(victim);

MT_FIXTURE_SETUP(victim)
{
	void *page = mmap(NULL, MT_PAGE, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (!CHECK(page != MAP_FAILED))
		return KSFT_FAIL;
	self->qpn = page;
	self->before = malloc(SBUF);
	if (!CHECK(self->before))
		return KSFT_FAIL;
	return side_open(&self->s);
}

MT_FIXTURE_TEARDOWN(victim)
{
	side_close(&self->s);
	free(self->before);
	if (self->qpn)
		munmap(self->qpn, MT_PAGE);
}

static int post_recv_to(struct ibv_qp *qp, uint64_t id, void *addr,
			uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(qp, &wr, &bad);
}

static int post_srq(struct ibv_srq *srq, uint64_t id, void *addr,
		    uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(srq, &wr, &bad);
}

/* A signalled datagram of @len bytes at @addr from @qp to @dqpn, @qkey. */
static int send_ud(struct side *s, struct ibv_qp *qp, uint64_t id,
		   void *addr, uint32_t len, uint32_t lkey, uint32_t dqpn,
		   uint32_t qkey)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, lkey };
	struct ibv_send_wr wr = {
		.wr_id = id, .opcode = IBV_WR_SEND, .sg_list = &sge,
		.num_sge = 1, .send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { s->ah, dqpn, qkey },
	};
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, &wr, &bad);
}

/* The send @id completes on @s's send CQ with @status. */
static bool sent(struct side *s, uint64_t id, enum ibv_wc_status status)
{
	struct ibv_wc wc;

	return poll_one(s->scq, &wc) &&
	       wc_is(&wc, id, status, status ? 0 : IBV_WC_SEND);
}

/* The receive @id completes on @s's receive CQ with @status. */
static bool received(struct side *s, uint64_t id, enum ibv_wc_status status,
		     struct ibv_wc *wc)
{
	return poll_one(s->rcq, wc) &&
	       wc_is(wc, id, status, status ? 0 : IBV_WC_RECV);
}

/* Nothing completes on @cq within QUIET_MS. */
static bool quiet(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	usleep(QUIET_MS * 1000);
	return CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 0);
}

/*
 * The attacker ran, as nobody, and root's buffer, given a pattern before,
 * is as it was.
 */
static void attacked(struct victim *v, int (*fn)(void *))
{
	fill(v->s.p.buf, SBUF, 0x5a);
	memcpy(v->before, v->s.p.buf, SBUF);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, fn, v), KSFT_PASS);
	CHECK(!memcmp(v->before, v->s.p.buf, SBUF));
}

/*
 * A UD send naming root's MR: a local protection error at the sender,
 * and nothing reaches the receiver (the attacker's own QP, which would
 * have been handed root's bytes).
 */
static int send_foreign_lkey(void *arg)
{
	struct victim *v = arg;
	struct side a = {};
	int rc = side_open(&a);

	if (rc == KSFT_PASS &&
	    CHECK_ERR(post_recv_to(a.u[1], 1, a.p.buf + ROFF, 4096,
				   a.p.mr->lkey), 0) &&
	    CHECK_ERR(send_ud(&a, a.u[0], 2, v->s.p.buf, 256,
			      v->s.p.mr->lkey, a.u[1]->qp_num, QKEY), 0)) {
		sent(&a, 2, IBV_WC_LOC_PROT_ERR);
		quiet(a.rcq);
		CHECK(a.p.buf[ROFF + GRH] == 0);
	}
	side_close(&a);
	return rc;
}

MT_TEST_F(victim, ud_send_foreign_lkey)
{
	attacked(self, send_foreign_lkey);
	return KSFT_PASS;
}

/*
 * UD receives naming root's MR, then an MR of another PD of the
 * attacker's own: each datagram the receiver's local protection error
 * (the receiver goes to ERR, the sender completes), and no byte lands.
 */
static int recv_refused(struct side *a, uint64_t id, void *addr,
			uint32_t lkey)
{
	struct ibv_qp *r = ud_qp(a, NULL, QKEY);
	struct ibv_wc wc;

	if (!r)
		return KSFT_FAIL;
	fill(a->p.buf, 64, id);
	if (CHECK_ERR(post_recv_to(r, id, addr, 4096, lkey), 0) &&
	    CHECK_ERR(send_ud(a, a->u[0], id + 1, a->p.buf, 64, a->p.mr->lkey,
			      r->qp_num, QKEY), 0)) {
		sent(a, id + 1, IBV_WC_SUCCESS);
		if (received(a, id, IBV_WC_LOC_PROT_ERR, &wc))
			CHECK_EQ(wc.qp_num, r->qp_num);
	}
	CHECK_ERR(ibv_destroy_qp(r), 0);
	return KSFT_PASS;
}

static int recv_foreign_lkey(void *arg)
{
	struct victim *v = arg;
	struct side a = {};
	int rc = side_open(&a);

	if (rc == KSFT_PASS) {
		recv_refused(&a, 10, v->s.p.buf + ROFF, v->s.p.mr->lkey);
		if (side_pd2(&a))
			recv_refused(&a, 20, a.p.buf + ROFF, a.mr2->lkey);
		CHECK(a.p.buf[ROFF] == 0 && a.p.buf[ROFF + GRH] == 0);
	}
	side_close(&a);
	return rc;
}

MT_TEST_F(victim, ud_recv_foreign_lkey)
{
	attacked(self, recv_foreign_lkey);
	return KSFT_PASS;
}

/*
 * An SRQ's WQEs naming root's MR, then an MR of another PD, then the
 * SRQ's own: the QPs that take the first two complete them with local
 * protection errors, and the third WQE, untouched, takes the next
 * datagram whole.
 */
static int srq_foreign_lkeys(void *arg)
{
	struct victim *v = arg;
	struct side a = {};
	struct ibv_wc wc;
	unsigned int i;
	int rc = side_open(&a);

	if (rc != KSFT_PASS)
		goto out;
	fill(a.p.buf, 64, 3);
	if (!side_pd2(&a) ||
	    !CHECK_ERR(post_srq(a.srq, 30, v->s.p.buf + ROFF, 1024,
				v->s.p.mr->lkey), 0) ||
	    !CHECK_ERR(post_srq(a.srq, 31, a.p.buf + ROFF, 1024, a.mr2->lkey),
		       0) ||
	    !CHECK_ERR(post_srq(a.srq, 32, a.p.buf + ROFF + 1024, 1024,
				a.p.mr->lkey), 0))
		goto out;
	for (i = 0; i < NSRQ; i++) {
		if (!CHECK_ERR(send_ud(&a, a.u[0], 40 + i, a.p.buf, 64,
				       a.p.mr->lkey, a.on[i]->qp_num, QKEY), 0))
			goto out;
		sent(&a, 40 + i, IBV_WC_SUCCESS);
		if (received(&a, 30 + i, i < 2 ? IBV_WC_LOC_PROT_ERR :
						 IBV_WC_SUCCESS, &wc))
			CHECK_EQ(wc.qp_num, a.on[i]->qp_num);
	}
	CHECK(a.p.buf[ROFF] == 0 && a.p.buf[ROFF + GRH] == 0);
	CHECK(!memcmp(a.p.buf + ROFF + 1024 + GRH, a.p.buf, 64));
out:
	side_close(&a);
	return rc;
}

MT_TEST_F(victim, srq_foreign_lkeys)
{
	attacked(self, srq_foreign_lkeys);
	return KSFT_PASS;
}

/*
 * Verbs: a QP on root's SRQ, or on root's CQ, made on the attacker's own
 * context: ib_uverbs finds no such handle there, and makes nothing.
 * Only the attacker's PD and CQ are in its context, so no handle of
 * root's can name an object of its own.
 */
static int qp_on_foreign(void *arg)
{
	struct victim *v = arg;
	struct ibv_context *ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	struct ibv_cq *cq = ctx ? ibv_create_cq(ctx, 4, NULL, NULL, 0) : NULL;
	struct ibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD,
		.srq = v->s.srq,
		.cap = { .max_send_wr = 1, .max_send_sge = 1 },
	};
	struct ibv_qp *qp;

	if (!CHECK(pd) || !CHECK(cq))
		goto out;
	qp = ibv_create_qp(pd, &ia);
	if (!CHECK(!qp))
		ibv_destroy_qp(qp);
	else if (!CHECK(errno == ENOENT || errno == EINVAL))
		mt_diag("errno %d", errno);
	ia.srq = NULL;
	ia.recv_cq = v->s.rcq;
	ia.cap.max_recv_wr = 1;
	ia.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &ia);
	if (!CHECK(!qp))
		ibv_destroy_qp(qp);
	else if (!CHECK(errno == ENOENT || errno == EINVAL))
		mt_diag("errno %d", errno);
	/* its own CQ for both: the same QP is made */
	ia.recv_cq = cq;
	qp = ibv_create_qp(pd, &ia);
	if (CHECK(qp))
		CHECK_ERR(ibv_destroy_qp(qp), 0);
out:
	if (cq)
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	if (ctx)
		CHECK_ERR(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

MT_TEST_F(victim, verbs_qp_on_foreign_srq_cq)
{
	attacked(self, qp_on_foreign);
	return KSFT_PASS;
}

/* root's SRQ and receive CQ by number, as DEVX mailboxes name them */
struct foreign_ids {
	uint32_t rmpn, cqn;
};

static bool foreign_ids(struct victim *v, struct foreign_ids *f)
{
	struct mlx5dv_srq srq = {};
	struct mlx5dv_cq cq = {};
	struct mlx5dv_obj o = {
		.srq = { .in = v->s.srq, .out = &srq },
		.cq = { .in = v->s.rcq, .out = &cq },
	};

	if (!CHECK_ERR(mlx5dv_init_obj(&o, MLX5DV_OBJ_SRQ | MLX5DV_OBJ_CQ),
		       0))
		return false;
	f->rmpn = srq.srqn;
	f->cqn = cq.cqn;
	return true;
}

/* A CREATE_QP on RMP @rmpn, both CQs @cqn, of @q's PD and umem. */
static void qp_on_rmp_in(struct mq *q, uint32_t *in, uint32_t rmpn,
			 uint32_t cqn)
{
	mq_qp_in(q, in, cqn);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_RQ_SIZE, 0);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_RQ_STRIDE, 0);
	mt_set(in, PRM_CREATE_QP_IN_QPC_RQ_TYPE, 1);		/* SRQ */
	mt_set(in, PRM_CREATE_QP_IN_QPC_SRQN_RMPN_XRQN, rmpn);
}

/* A refusal: EREMOTEIO, and on the model its status and syndrome. */
static void refused(struct mq *q, const uint32_t *in, size_t inlen)
{
	uint32_t out[4];
	struct mq_obj o;

	if (mt_sim()) {
		mq_refused(q, in, inlen, STAT_BAD_RES, SYND_NOT_OWNER);
		return;
	}
	errno = 0;
	if (!CHECK(!mq_create(q, in, inlen, &o, out)))
		mlx5dv_devx_obj_destroy(o.obj);
	else
		CHECK_ERR(errno, EREMOTEIO);
}

/*
 * DEVX: a QP on root's RMP, or on root's CQ, is refused by firmware; the
 * same mailbox naming the attacker's own RMP and CQ makes the QP.  Root's
 * RMP is not the attacker's to query, modify or destroy: with a handle of
 * its own naming root's number, or as a general command, the kernel
 * refuses (EINVAL).
 */
static int devx_foreign_rmp(void *arg)
{
	uint32_t in[PRM_CREATE_QP_IN_BYTES / 4], out[PRM_CREATE_RQ_IN_BYTES / 4];
	struct foreign_ids *f = arg;
	struct mq_obj cq = {}, rmp = {}, qp;
	struct mq q;

	if (!mq_open(&q) || !mq_cq(&q, &cq))
		goto out;
	memset(in, 0, sizeof(in));
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_RMP);
	mt_set(in, RMP_STATE, WQ_RDY);
	mq_wq(&q, in, RQ_WQ);
	mt_set(in, WQ_F(RQ_WQ, WQ_TYPE), 0);		/* linked list */
	if (!CHECK(mq_create(&q, in, PRM_CREATE_RQ_IN_BYTES, &rmp, out)))
		goto out;

	qp_on_rmp_in(&q, in, f->rmpn, cq.id);
	refused(&q, in, sizeof(in));
	qp_on_rmp_in(&q, in, rmp.id, f->cqn);
	refused(&q, in, sizeof(in));
	qp_on_rmp_in(&q, in, rmp.id, cq.id);
	if (CHECK(mq_create(&q, in, sizeof(in), &qp, out)))
		CHECK_ERR(mlx5dv_devx_obj_destroy(qp.obj), 0);

	CHECK_ERR(mq_query(&rmp, PRM_OP_QUERY_RMP, f->rmpn, out, sizeof(out)),
		  EINVAL);
	memset(in, 0, sizeof(in));
	mt_set(in, PRM_IN_OPCODE, PRM_OP_MODIFY_RMP);
	mt_set(in, MT_FIELD(0x40, 4), WQ_RDY);		/* rmp_state */
	mt_set(in, MT_FIELD(0x48, 24), f->rmpn);	/* rmpn */
	CHECK_ERR(mlx5dv_devx_obj_modify(rmp.obj, in, PRM_CREATE_RQ_IN_BYTES,
					 out, 16), EINVAL);
	memset(in, 0, 16);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_DESTROY_RMP);
	mt_set(in, IN_ID, f->rmpn);
	CHECK_ERR(mlx5dv_devx_general_cmd(q.ctx, in, 16, out, 16), EINVAL);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_RMP);
	CHECK_ERR(mlx5dv_devx_general_cmd(q.ctx, in, 16, out, sizeof(out)),
		  EINVAL);
	/* and its own RMP answers: the refusals are about ownership */
	CHECK_ERR(mq_query(&rmp, PRM_OP_QUERY_RMP, rmp.id, out, sizeof(out)),
		  0);
out:
	if (rmp.obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(rmp.obj), 0);
	if (cq.obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	mq_close(&q);
	return KSFT_PASS;
}

MT_TEST_F(victim, devx_foreign_rmp)
{
	struct ibv_srq_attr sa;
	struct foreign_ids f;

	if (!foreign_ids(self, &f))
		return KSFT_FAIL;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, devx_foreign_rmp, &f), KSFT_PASS);
	/* root's SRQ is still there, and still takes its WQEs */
	CHECK_ERR(ibv_query_srq(self->s.srq, &sa), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("rmp", self->s.p.c.uid), 1);
	return KSFT_PASS;
}

/*
 * Datagrams from nobody's UD QP to root's: with a Q_Key root's QP does
 * not have, dropped there; with its Q_Key, delivered (that is UD: any QP
 * that knows the number and Q_Key may send).  The parent checks what
 * arrived.
 */
static int qkey_sender(void *arg)
{
	struct victim *v = arg;
	struct side a = {};
	int rc = side_open(&a);

	if (rc != KSFT_PASS)
		goto out;
	*v->qpn = a.u[0]->qp_num;
	fill(a.p.buf, 64, 7);
	if (CHECK_ERR(send_ud(&a, a.u[0], 50, a.p.buf, 64, a.p.mr->lkey,
			      v->s.u[1]->qp_num, QKEY + 1), 0))
		sent(&a, 50, IBV_WC_SUCCESS);
	if (CHECK_ERR(send_ud(&a, a.u[0], 51, a.p.buf, 64, a.p.mr->lkey,
			      v->s.u[1]->qp_num, QKEY), 0))
		sent(&a, 51, IBV_WC_SUCCESS);
out:
	side_close(&a);
	return rc;
}

MT_TEST_F(victim, ud_qkey_other_user)
{
	struct side *s = &self->s;
	uint8_t want[64];
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv_to(s->u[1], 52, s->p.buf + ROFF, 4096,
				    s->p.mr->lkey), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, qkey_sender, self), KSFT_PASS);
	/* the first, with the wrong Q_Key, took no WQE: the second did */
	if (received(s, 52, IBV_WC_SUCCESS, &wc)) {
		CHECK_EQ(wc.src_qp, *self->qpn);
		CHECK_EQ(wc.byte_len, GRH + 64);
		fill(want, 64, 7);
		CHECK(!memcmp(s->p.buf + ROFF + GRH, want, 64));
	}
	quiet(s->rcq);
	return KSFT_PASS;
}

/*
 * A privileged Q_Key (its high bit set) is not an ordinary user's:
 * ib_uverbs refuses it to a QP of a process without CAP_NET_RAW (EPERM),
 * and a work request's Q_Key with the high bit set stands for the
 * sending QP's own (IBTA C10-15): nobody's datagram to root's QP of a
 * privileged Q_Key, naming that Q_Key, is dropped.  Root's own, from a
 * QP that holds it, arrives.
 */
static int priv_qkey_sender(void *arg)
{
	struct victim *v = arg;
	struct ibv_qp_attr a = { .qkey = PRIV_QKEY };
	struct side s = {};
	int rc = side_open(&s);

	if (rc != KSFT_PASS)
		goto out;
	CHECK_ERR(ibv_modify_qp(s.u[0], &a, IBV_QP_QKEY), EPERM);
	if (CHECK_ERR(send_ud(&s, s.u[0], 60, s.p.buf, 64, s.p.mr->lkey,
			      *v->qpn, PRIV_QKEY), 0))
		sent(&s, 60, IBV_WC_SUCCESS);
out:
	side_close(&s);
	return rc;
}

MT_TEST_F(victim, ud_privileged_qkey)
{
	struct ibv_qp_attr qa = { .qkey = PRIV_QKEY };
	struct side *s = &self->s;
	struct ibv_qp *r = ud_qp(s, NULL, PRIV_QKEY);
	struct ibv_wc wc;

	if (!r || mt_case_failures())
		goto out;
	*self->qpn = r->qp_num;
	if (!CHECK_ERR(post_recv_to(r, 61, s->p.buf + ROFF, 4096,
				    s->p.mr->lkey), 0))
		goto out;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, priv_qkey_sender, self),
		 KSFT_PASS);
	quiet(s->rcq);
	/* root's QP of that Q_Key sends with it: delivered */
	if (CHECK_ERR(ibv_modify_qp(s->u[0], &qa, IBV_QP_QKEY), 0) &&
	    CHECK_ERR(send_ud(s, s->u[0], 62, s->p.buf, 64, s->p.mr->lkey,
			      r->qp_num, PRIV_QKEY), 0)) {
		sent(s, 62, IBV_WC_SUCCESS);
		if (received(s, 61, IBV_WC_SUCCESS, &wc))
			CHECK_EQ(wc.src_qp, s->u[0]->qp_num);
	}
out:
	if (r)
		CHECK_ERR(ibv_destroy_qp(r), 0);
	return KSFT_PASS;
}

/*
 * An AH names a GID of the port's table: its last entry, which holds no
 * GID, is refused (the table has as many entries as an 8-bit index
 * names, so none lies past its end), as is every empty one; nothing is
 * made.
 */
static int ah_gid_index(void *arg)
{
	struct victim *v = arg;
	struct ibv_context *ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	struct ibv_port_attr pa;
	union ibv_gid gid;
	struct ibv_ah *ah;

	if (!CHECK(pd) || !CHECK_ERR(ibv_query_port(ctx, 1, &pa), 0))
		goto out;
	CHECK(pa.gid_tbl_len <= 256);
	aa.grh.hop_limit = 64;
	CHECK_ERR(ibv_query_gid(ctx, 1, v->s.p.gid, &aa.grh.dgid), 0);
	aa.grh.sgid_index = pa.gid_tbl_len - 1;
	if (!ibv_query_gid(ctx, 1, aa.grh.sgid_index, &gid) &&
	    (gid.global.subnet_prefix || gid.global.interface_id)) {
		mt_diag("the table's last entry holds a GID");
		goto out;
	}
	errno = 0;
	ah = ibv_create_ah(pd, &aa);
	if (!CHECK(!ah))
		ibv_destroy_ah(ah);
	else
		mt_diag("GID index %u refused: %s", aa.grh.sgid_index,
			strerror(errno));
out:
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	if (ctx)
		CHECK_ERR(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

MT_TEST_F(victim, ah_empty_gid_index)
{
	int base = mt_sim() ? mt_fw_total() : 0;

	attacked(self, ah_gid_index);
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), base);
	return KSFT_PASS;
}

/* Every case drops from root to nobody. */
static const struct mt_case cases[] = {
	MT_CASE_F(victim, ud_send_foreign_lkey, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, ud_recv_foreign_lkey, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, srq_foreign_lkeys, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, verbs_qp_on_foreign_srq_cq, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, devx_foreign_rmp, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, ud_qkey_other_user, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, ud_privileged_qkey, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, ah_empty_gid_index, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
