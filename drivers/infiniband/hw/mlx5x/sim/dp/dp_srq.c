// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receives through a shared receive queue (an RMP: queues/cmd_srq.c).
 * The SRQ's WQEs are a linked list in its buffer: each begins with a next
 * segment whose next_wqe_index names the WQE after it, then its data
 * segments.  The device keeps its own head of the list and a count of the
 * WQEs it took; the doorbell record's receive counter says how many were
 * posted.  A receive takes the WQE at the head and moves the head to the
 * one that WQE names; the CQE's wqe_counter is the index taken, which
 * libmlx5 gives back to the tail of its free list.
 *
 * A QP on an SRQ holds the WQE its message landed in until the message
 * completes (a long message takes several turns of the worker, and the
 * other QPs of the SRQ go on taking the ones after it).  In ERR the QP
 * flushes that WQE alone: the SRQ's others stay for its other QPs.  It
 * then raises LAST_WQE_REACHED, once.  A receive that leaves fewer WQEs
 * posted than the armed limit (the work queue's lwm) raises SRQ_RQ_LIMIT
 * and disarms it.
 *
 * Every index read from the buffer is taken modulo the queue's size, and
 * the WQE's keys are checked against the SRQ's PD and context: a WQE
 * names no memory its SRQ's owner does not.
 */
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "wqe.h"

/* The next segment of an SRQ WQE (libmlx5's struct mlx5_wqe_srq_next_seg). */
struct sim_srq_next {
	u8 rsvd0[2];
	__be16 next_wqe_index;
	u8 signature;
	u8 rsvd1[11];
};

static_assert(sizeof(struct sim_srq_next) == SIM_WQE_SEG);

/**
 * sim_dp_srq() - the SRQ a QP receives through
 * @sim: the model, its lock held
 * @qp: the QP
 *
 * Return: the SRQ, which the QP holds; NULL when its RQ is its own.
 */
struct sim_srq *sim_dp_srq(struct mlx5x_sim *sim, const struct sim_qp *qp)
{
	struct sim_obj *obj;

	/* an XRC target's is the one its message names (dp_xrc.c) */
	if (sim_dp_xrc(qp))
		return sim_dp_xrc_srq(sim, qp);
	if (PRM_GET(qpc, qp->qpc, rq_type) != SIM_QPC_RQ_SRQ)
		return NULL;
	obj = xa_load(&sim->objs[SIM_OBJ_RMP],
		      PRM_GET(qpc, qp->qpc, srqn_rmpn_xrqn));
	return obj ? container_of(obj, struct sim_srq, q.obj) : NULL;
}

static void *sim_srq_wq(struct sim_srq *srq)
{
	return PRM_ADDR(rmpc, srq->rmpc, wq);
}

static u32 sim_srq_stride(struct sim_srq *srq)
{
	return BIT(PRM_GET(wq, sim_srq_wq(srq), log_wq_stride));
}

static u16 sim_srq_mask(struct sim_srq *srq)
{
	return BIT(PRM_GET(wq, sim_srq_wq(srq), log_wq_sz)) - 1;
}

/* The SRQ's buffer, and where in it WQE @idx starts. */
static struct sim_umem *sim_srq_wqe(struct mlx5x_sim *sim,
				    struct sim_srq *srq, u16 idx, u64 *off)
{
	void *wq = sim_srq_wq(srq);

	if (!PRM_GET(wq, wq, wq_umem_valid))
		return NULL;
	*off = sim_get64_at(wq, SIM_WQ_UMEM_OFFSET) +
	       (u64)(idx & sim_srq_mask(srq)) * sim_srq_stride(srq);
	return sim_dp_umem(sim, prm_get_bits(wq, SIM_WQ_UMEM_ID, 32));
}

/* WQEs posted and not taken: the doorbell record's counter, ahead. */
static u16 sim_srq_posted(struct mlx5x_sim *sim, struct sim_srq *srq)
{
	void *wq = sim_srq_wq(srq);
	struct sim_umem *dbr;
	u32 pi;

	if (!PRM_GET(wq, wq, dbr_umem_valid))
		return 0;
	dbr = sim_dp_umem(sim, prm_get_bits(wq, SIM_WQ_DBR_UMEM_ID, 32));
	if (!dbr || !sim_umem_rd32(dbr, PRM_GET64(wq, wq, dbr_addr) +
				   SIM_DBR_RCV, &pi))
		return 0;
	return (u16)pi - srq->dp.cc;
}

/**
 * sim_dp_srq_take() - the SRQ's next WQE, for a message reaching @qp
 * @sim: the model, its lock held
 * @qp: the responder, on an SRQ
 *
 * The WQE at the SRQ's head is taken and held by @qp (qp->dp.srq_wqe)
 * until its message completes; a QP that holds one already keeps it.  A
 * WQE whose next segment cannot be read still leaves the list, to the
 * index after it: its receive then fails on its keys.
 *
 * Return: true when @qp holds a WQE, false when the SRQ has none posted.
 */
bool sim_dp_srq_take(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	struct sim_srq *srq = sim_dp_srq(sim, qp);
	struct sim_srq_next next;
	struct sim_umem *buf;
	u16 left, idx;
	void *wq;
	u64 off;

	if (qp->dp.srq_held)
		return true;
	if (!srq)
		return false;
	left = sim_srq_posted(sim, srq);
	if (!left)
		return false;
	idx = srq->dp.head & sim_srq_mask(srq);
	buf = sim_srq_wqe(sim, srq, idx, &off);
	if (buf && sim_umem_io(buf, off, &next, sizeof(next), false))
		srq->dp.head = be16_to_cpu(next.next_wqe_index);
	else
		srq->dp.head = idx + 1;
	srq->dp.cc++;
	srq->dp.taken++;
	qp->dp.srq_wqe = idx;
	qp->dp.srq_held = true;
	/* fewer left than the armed limit: the event, once */
	wq = sim_srq_wq(srq);
	if (PRM_GET(wq, wq, lwm) && left - 1 < PRM_GET(wq, wq, lwm)) {
		PRM_SET(wq, wq, lwm, 0);
		sim_event_emit(sim, SIM_EV_SRQ_RQ_LIMIT, SIM_OBJ_RMP,
			       srq->q.obj.id, 0);
	}
	return true;
}

/**
 * sim_dp_srq_at() - where the WQE @qp holds keeps its data segments
 * @sim: the model, its lock held
 * @qp: the responder, holding a WQE of its SRQ
 * @at: filled in: the buffer, the first data segment's offset, their
 *	bytes, and the SRQ's context and PD, whose keys they must be
 *
 * Return: false when the SRQ's buffer is gone.
 */
bool sim_dp_srq_at(struct mlx5x_sim *sim, const struct sim_qp *qp,
		   struct sim_rq_at *at)
{
	struct sim_srq *srq = sim_dp_srq(sim, qp);

	if (!srq)
		return false;
	at->umem = sim_srq_wqe(sim, srq, qp->dp.srq_wqe, &at->off);
	at->off += SIM_WQE_SEG;
	at->len = min_t(u32, sim_srq_stride(srq), SIM_DP_MAX_RQ_WQE) -
		  SIM_WQE_SEG;
	at->uid = srq->q.obj.uid;
	at->pdn = PRM_GET(wq, sim_srq_wq(srq), pd);
	return at->umem;
}

/**
 * sim_dp_srq_last_wqe() - a QP on an SRQ in ERR has flushed its last WQE
 * @sim: the model, its lock held
 * @qp: the QP, in ERR, holding no WQE any more
 *
 * It raises LAST_WQE_REACHED once, until it is reset.
 */
void sim_dp_srq_last_wqe(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	if (PRM_GET(qpc, qp->qpc, rq_type) != SIM_QPC_RQ_SRQ ||
	    qp->dp.last_wqe)
		return;
	qp->dp.last_wqe = true;
	sim_event_emit(sim, SIM_EV_SRQ_LAST_WQE, SIM_OBJ_QP, qp->q.obj.id, 0);
}
