// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An RQ's completions, its errors and its flush.
 *
 * A receive WQE that fails (an lkey it may not use, a packet longer than
 * its segments) completes with an error CQE and moves the RQ to ERR, as a
 * ConnectX does (mlx5e's recovery finds its RQ there).  In ERR the RQ
 * takes no packet, and every receive WQE posted to it, before the move or
 * after, completes in order with a flush CQE, its WQE counter naming it:
 * the worker's pass looks at each RQ in ERR (its doorbell record's
 * receive counter, as libmlx5 rings nothing else for an RQ).
 *
 * An RQ whose CQ takes no more CQEs (an overrun, or a CQ the device may
 * not write: the CQ error event has said so) cannot report the completion
 * of the WQE it consumed: that is IBTA's Local Work Queue Catastrophic
 * Error.  The RQ goes to ERR and firmware raises the WQ catastrophic
 * error event on it, once: its flush CQEs that the CQ refuses after that
 * raise nothing more.
 */
#include "../queues/queues.h"
#include "datapath.h"
#include "dp_priv.h"
#include "wqe.h"

static bool sim_rq_in_err(const struct sim_wq *rq)
{
	return PRM_GET(rqc, rq->ctx, state) == MLX5_RQC_STATE_ERR;
}

/* The RQ goes to ERR: the worker flushes what is posted to it. */
static void sim_rq_to_err(struct mlx5x_sim *sim, struct sim_wq *rq)
{
	PRM_SET(rqc, rq->ctx, state, MLX5_RQC_STATE_ERR);
	sim_dp_kick(sim);
}

/**
 * sim_dp_rq_complete() - report the end of a receive WQE of an RQ
 * @sim: the model, its lock held
 * @rq: the RQ, which consumed the WQE
 * @info: its CQE; an error CQE (SIM_CQE_RESP_ERR) moves the RQ to ERR
 *
 * A CQE the RQ's CQ refuses moves the RQ to ERR with the WQ catastrophic
 * error event, unless the RQ is in ERR already.
 */
void sim_dp_rq_complete(struct mlx5x_sim *sim, struct sim_wq *rq,
			const struct sim_cqe_info *info)
{
	bool was_err = sim_rq_in_err(rq);

	if (!sim_dp_cqe(sim, PRM_GET(rqc, rq->ctx, cqn), info)) {
		if (was_err)
			return;
		sim_rq_to_err(sim, rq);
		sim_event_emit(sim, SIM_EV_WQ_CATAS_ERROR, SIM_OBJ_RQ,
			       rq->q.obj.id, 0);
		return;
	}
	if (info->opcode == SIM_CQE_RESP_ERR && !was_err)
		sim_rq_to_err(sim, rq);
}

/**
 * sim_dp_rq_flush() - flush up to @budget receive WQEs of an RQ in ERR
 * @dp: the data path
 * @rq: the RQ
 * @budget: at most this many
 *
 * Return: the WQEs flushed; 0 for an RQ not in ERR.
 */
unsigned int sim_dp_rq_flush(struct sim_dp *dp, struct sim_wq *rq,
			     unsigned int budget)
{
	const void *wq = PRM_ADDR(rqc, rq->ctx, wq);
	struct sim_cqe_info info = {
		.opcode = SIM_CQE_RESP_ERR,
		.syndrome = SIM_CQE_SYND_WR_FLUSH,
		.wqe_opcode = SIM_OPCODE_SEND,
		.qpn = rq->q.obj.id,
		.user_index = PRM_GET(rqc, rq->ctx, user_index),
	};
	struct sim_umem *dbr;
	unsigned int done = 0;
	u32 pi;

	if (!sim_rq_in_err(rq) || !PRM_GET(wq, wq, dbr_umem_valid))
		return 0;
	dbr = sim_dp_umem(dp->sim, prm_get_bits(wq, SIM_WQ_DBR_UMEM_ID, 32));
	while (done < budget && dbr &&
	       sim_umem_rd32(dbr, PRM_GET64(wq, wq, dbr_addr) + SIM_DBR_RCV,
			     &pi) &&
	       (u16)pi != rq->dp.cc) {
		info.wqe_counter = rq->dp.cc++;
		sim_dp_rq_complete(dp->sim, rq, &info);
		done++;
	}
	return done;
}
