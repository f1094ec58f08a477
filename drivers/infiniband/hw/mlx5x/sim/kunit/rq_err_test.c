// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: an RQ's errors (dp/dp_rq.c).  In ERR every receive WQE posted,
 * before the move or after, is flushed by the worker, in order, a
 * WR_FLUSH_ERR CQE each naming its WQE; an RQ whose CQ takes no more CQEs
 * goes to ERR with the WQ catastrophic error event on it, once.  The RQ
 * and its CQ live in a umem over kernel pages: page 0 holds the CQ's ring
 * (16 CQEs) and the RQ's ring, page 1 their doorbell records.
 */
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include "sk_queues.h"
#include "../dp/datapath.h"
#include "../dp/dp_priv.h"
#include "../dp/wqe.h"

#define SK_E_CQES	16
#define SK_E_RQ_RING	2048
#define SK_E_CQ_DBR	PAGE_SIZE
#define SK_E_RQ_DBR	(PAGE_SIZE + 64)
#define SK_E_WAIT_MS	20000
/* qp_events.type of an RQ's event */
#define SK_E_QUEUE_RQ	1

/*
 * struct sk_rqe - a case's RQ, its CQ and what the model raised
 * @r: a context and what queues name
 * @mem: the two pages
 * @umem: a umem over them
 * @cqn: the CQ
 * @rqn: the RQ
 * @events: events raised
 * @eqe: the last of them
 */
struct sk_rqe {
	struct sk_q r;
	u8 *mem;
	u32 umem, cqn, rqn;
	unsigned int events;
	u8 eqe[SIM_EQE_BYTES];
};

/* Runs under the model's lock. */
static void sk_rqe_event(void *ctx, const void *eqe)
{
	struct sk_rqe *e = ctx;

	e->events++;
	memcpy(e->eqe, eqe, SIM_EQE_BYTES);
}

static struct sk_rqe *sk_rqe_new(struct kunit *test)
{
	struct sk_rqe *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	void *in, *wq;
	u64 mtt[2];

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->mem = (u8 *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, 1);
	KUNIT_ASSERT_NOT_NULL(test, e->mem);
	sk_q_init_cap(test, &e->r, 0);
	mtt[0] = (u64)(uintptr_t)e->mem | 3;
	mtt[1] = (u64)(uintptr_t)(e->mem + PAGE_SIZE) | 3;
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, e->r.uid, 2, 2, 0, mtt,
					     &e->umem), PRM_STAT_OK);

	in = sk_cq_in(test, &e->r);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_ID, 32, e->umem);
	prm_set_bits(PRM_ADDR(create_cq_in, in, cq_context),
		     SIM_CQC_DBR_UMEM_ID, 32, e->umem);
	PRM_SET64(cqc, PRM_ADDR(create_cq_in, in, cq_context), dbr_addr,
		  SK_E_CQ_DBR);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_cq_in),
					  PRM_BYTES(create_cq_out), &e->cqn),
			PRM_STAT_OK);

	in = sk_rq_in(test, &e->r, e->cqn);
	wq = PRM_ADDR(rqc, PRM_ADDR(create_rq_in, in, ctx), wq);
	prm_set_bits(wq, SIM_WQ_UMEM_ID, 32, e->umem);
	prm_set_bits(wq, SIM_WQ_UMEM_OFFSET + 32, 32, SK_E_RQ_RING);
	prm_set_bits(wq, SIM_WQ_DBR_UMEM_ID, 32, e->umem);
	PRM_SET64(wq, wq, dbr_addr, SK_E_RQ_DBR);
	PRM_SET(rqc, PRM_ADDR(create_rq_in, in, ctx), user_index, 0x77);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_rq_in),
					  PRM_BYTES(create_rq_out), &e->rqn),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_wq_modify(test, false, e->r.uid, e->rqn,
					   MLX5_RQC_STATE_RST,
					   MLX5_RQC_STATE_RDY), PRM_STAT_OK);
	mlx5x_sim_set_event_handler(sk_sim(test), sk_rqe_event, e);
	return e;
}

static void sk_rqe_free(struct kunit *test, struct sk_rqe *e)
{
	mlx5x_sim_set_event_handler(sk_sim(test), NULL, NULL);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ,
					   e->r.uid, e->rqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   e->r.uid, e->cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, e->r.uid, e->umem),
			PRM_STAT_OK);
	sk_q_fini(test, &e->r);
	free_pages((unsigned long)e->mem, 1);
}

static struct sim_wq *sk_rqe_rq(struct kunit *test, struct sk_rqe *e)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_obj *obj;

	mutex_lock(&sim->lock);
	obj = xa_load(&sim->objs[SIM_OBJ_RQ], e->rqn);
	mutex_unlock(&sim->lock);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	return container_of(obj, struct sim_wq, q.obj);
}

/* Software posted @pi receive WQEs in all (the doorbell record). */
static void sk_rqe_post(struct sk_rqe *e, u16 pi)
{
	*(__be32 *)(e->mem + SK_E_RQ_DBR + SIM_DBR_RCV) = cpu_to_be32(pi);
}

/* Let the worker run until the RQ consumed @cc WQEs. */
static bool sk_rqe_wait(struct kunit *test, struct sk_rqe *e, u16 cc)
{
	struct sim_wq *rq = sk_rqe_rq(test, e);
	struct mlx5x_sim *sim = sk_sim(test);
	unsigned int ms;
	bool done;

	for (ms = 0; ms < SK_E_WAIT_MS; ms += 10) {
		mutex_lock(&sim->lock);
		done = rq->dp.cc == cc;
		mutex_unlock(&sim->lock);
		if (done)
			return true;
		usleep_range(5000, 10000);
	}
	return false;
}

static unsigned int sk_rqe_events(struct kunit *test, struct sk_rqe *e)
{
	struct mlx5x_sim *sim = sk_sim(test);
	unsigned int n;

	mutex_lock(&sim->lock);
	n = e->events;
	mutex_unlock(&sim->lock);
	return n;
}

static u32 sk_rqe_state(struct kunit *test, struct sk_rqe *e)
{
	void *out = SK_MBOX(test, query_rq_out);

	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_RQ, e->r.uid,
					 e->rqn, out, PRM_BYTES(query_rq_out)),
			PRM_STAT_OK);
	return PRM_GET(rqc, PRM_ADDR(query_rq_out, out, rq_context), state);
}

/* CQEs @from..@to - 1 are flushes of WQEs @from..@to - 1. */
static void sk_rqe_expect_flushes(struct kunit *test, struct sk_rqe *e,
				  u32 from, u32 to)
{
	const struct sim_err_cqe *c;

	for (; from < to; from++) {
		c = (const void *)(e->mem + from * sizeof(*c));
		KUNIT_EXPECT_EQ_MSG(test, c->op_own >> 4, SIM_CQE_RESP_ERR,
				    "cqe %u", from);
		KUNIT_EXPECT_EQ(test, c->syndrome, SIM_CQE_SYND_WR_FLUSH);
		KUNIT_EXPECT_EQ(test, be16_to_cpu(c->wqe_counter), from);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(c->srqn) & 0xffffff, 0x77);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(c->s_wqe_opcode_qpn) &
				0xffffff, e->rqn);
	}
}

/*
 * WQEs posted before MODIFY_RQ to ERR and after it: each flushed, in
 * order; nothing is raised; in RDY nothing was consumed.
 */
static void sk_rqe_flush(struct kunit *test)
{
	struct sk_rqe *e = sk_rqe_new(test);

	sk_rqe_post(e, 3);
	msleep(50);
	KUNIT_EXPECT_TRUE(test, sk_rqe_wait(test, e, 0));
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, false, e->r.uid, e->rqn,
					   MLX5_RQC_STATE_RDY,
					   MLX5_RQC_STATE_ERR), PRM_STAT_OK);
	KUNIT_ASSERT_TRUE(test, sk_rqe_wait(test, e, 3));
	sk_rqe_post(e, 5);
	KUNIT_ASSERT_TRUE(test, sk_rqe_wait(test, e, 5));
	sk_rqe_expect_flushes(test, e, 0, 5);
	KUNIT_EXPECT_EQ(test, sk_rqe_events(test, e), 0);
	sk_rqe_free(test, e);
}

/*
 * An RQ whose CQ overran: the one that overran it was already in ERR
 * (flushing): the CQ error alone.  Ready again, the next completion it
 * cannot write moves it to ERR with the WQ catastrophic error event on
 * the RQ; the next one raises nothing more.
 */
static void sk_rqe_catas(struct kunit *test)
{
	struct sk_rqe *e = sk_rqe_new(test);
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cqe_info info = {
		.opcode = SIM_CQE_RESP_SEND, .wqe_opcode = SIM_OPCODE_SEND,
	};
	const void *data = PRM_ADDR(eqe, e->eqe, event_data);
	struct sim_wq *rq = sk_rqe_rq(test, e);

	sk_rqe_post(e, SK_E_CQES + 1);
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, false, e->r.uid, e->rqn,
					   MLX5_RQC_STATE_RDY,
					   MLX5_RQC_STATE_ERR), PRM_STAT_OK);
	KUNIT_ASSERT_TRUE(test, sk_rqe_wait(test, e, SK_E_CQES + 1));
	KUNIT_EXPECT_EQ(test, sk_rqe_events(test, e), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(eqe, e->eqe, event_type),
			SIM_EV_CQ_ERROR);

	sk_rqe_post(e, 0);
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, false, e->r.uid, e->rqn,
					   MLX5_RQC_STATE_ERR,
					   MLX5_RQC_STATE_RST), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_wq_modify(test, false, e->r.uid, e->rqn,
					   MLX5_RQC_STATE_RST,
					   MLX5_RQC_STATE_RDY), PRM_STAT_OK);
	mutex_lock(&sim->lock);
	info.qpn = e->rqn;
	sim_dp_rq_complete(sim, rq, &info);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sk_rqe_events(test, e), 2);
	KUNIT_EXPECT_EQ(test, PRM_GET(eqe, e->eqe, event_type),
			SIM_EV_WQ_CATAS_ERROR);
	KUNIT_EXPECT_EQ(test, PRM_GET(qp_events, data, type),
			SK_E_QUEUE_RQ);
	KUNIT_EXPECT_EQ(test, PRM_GET(qp_events, data, qpn_rqn_sqn), e->rqn);
	KUNIT_EXPECT_EQ(test, sk_rqe_state(test, e), MLX5_RQC_STATE_ERR);

	mutex_lock(&sim->lock);
	sim_dp_rq_complete(sim, rq, &info);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sk_rqe_events(test, e), 2);
	sk_rqe_free(test, e);
}

static struct kunit_case sk_rqe_cases[] = {
	KUNIT_CASE(sk_rqe_flush),
	KUNIT_CASE(sk_rqe_catas),
	{}
};

static struct kunit_suite sk_rqe_suite = {
	.name = "mlx5x_sim_rq_err",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_rqe_cases,
};

kunit_test_suite(sk_rqe_suite);
