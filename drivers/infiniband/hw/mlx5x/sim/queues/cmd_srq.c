// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues.  The model is a device of ISSI 1 (it has RQs,
 * SQs and TIRs, which ISSI 0 firmware does not), and on such a device an
 * SRQ is made as an RMP, a receive memory pool: CREATE_RMP with a linked
 * list work queue (the WQEs libmlx5 chains by their next segment's
 * next_wqe_index), on a PD, with its buffer and doorbell record given by
 * umem.  MODIFY_RMP arms the limit (the work queue's lwm), QUERY_RMP
 * answers the context, DESTROY_RMP is refused while a QP receives
 * through the RMP.  The receives themselves: dp/dp_srq.c.
 */
#include "queues.h"

/* Log2 of the smallest SRQ WQE: the next segment and one data segment. */
#define SIM_LOG_MIN_SRQ_STRIDE	5

/* The context's work queue, and the limit it may be armed with. */
static u8 sim_srq_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			const void *rmpc)
{
	const void *wq = PRM_ADDR(rmpc, rmpc, wq);
	u32 log_sz = PRM_GET(wq, wq, log_wq_sz);

	if (PRM_GET(rmpc, rmpc, state) != MLX5_RMPC_STATE_RDY ||
	    PRM_GET(wq, wq, wq_type) != MLX5_WQ_TYPE_LINKED_LIST ||
	    PRM_GET(wq, wq, log_wq_stride) < SIM_LOG_MIN_SRQ_STRIDE ||
	    PRM_GET(wq, wq, lwm) >= BIT(log_sz))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* signatures and cyclic receive WQEs are not offered */
	if (log_sz > SIM_CAP_GEN(sim, log_max_srq_sz) ||
	    PRM_GET(wq, wq, wq_signature) ||
	    PRM_GET(rmpc, rmpc, basic_cyclic_rcv_wqe))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return PRM_STAT_OK;
}

static u8 sim_create_rmp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *rmpc = PRM_ADDR(create_rmp_in, ctx->in, ctx);
	struct sim_refs refs = {};
	struct sim_qobj *q;
	u8 status;

	status = sim_srq_check(sim, ctx, rmpc);
	if (!status)
		status = sim_wq_take(sim, ctx, PRM_ADDR(rmpc, rmpc, wq),
				     PRM_BIT_OFF(create_rmp_in, ctx.wq.pas),
				     false, &refs);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	status = sim_q_alloc(sim, ctx, SIM_OBJ_RMP, &refs, &q);
	if (status)
		return status;
	memcpy(container_of(q, struct sim_srq, q)->rmpc, rmpc,
	       PRM_BYTES(rmpc));
	PRM_SET(create_rmp_out, ctx->out, rmpn, q->obj.id);
	return PRM_STAT_OK;
}

static u8 sim_srq_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			 u32 rmpn, struct sim_srq **srq)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_RMP, rmpn, &q);
	if (!status)
		*srq = container_of(q, struct sim_srq, q);
	return status;
}

/*
 * RDY to RDY, arming the limit (bitmask.lwm): once a receive leaves
 * fewer WQEs than lwm posted, the RMP raises SRQ_RQ_LIMIT and lwm goes
 * back to 0 (dp/dp_srq.c).  0 disarms.
 */
static u8 sim_modify_rmp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *wq = PRM_ADDR(modify_rmp_in, in, ctx.wq);
	const void *mask = PRM_ADDR(modify_rmp_in, in, bitmask);
	struct sim_srq *srq;
	void *cur;
	u8 status;

	status = sim_srq_lookup(sim, ctx, PRM_GET(modify_rmp_in, in, rmpn),
				&srq);
	if (status)
		return status;
	cur = PRM_ADDR(rmpc, srq->rmpc, wq);
	if (PRM_GET(modify_rmp_in, in, rmp_state) !=
	    PRM_GET(rmpc, srq->rmpc, state))
		return sim_fail(ctx, PRM_STAT_BAD_RES_STATE, SIM_SYND_BAD_STATE);
	if (PRM_GET(modify_rmp_in, in, ctx.state) != MLX5_RMPC_STATE_RDY)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (PRM_GET(rmp_bitmask, mask, lwm)) {
		if (PRM_GET(wq, wq, lwm) >= BIT(PRM_GET(wq, cur, log_wq_sz)))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		PRM_SET(wq, cur, lwm, PRM_GET(wq, wq, lwm));
	}
	return PRM_STAT_OK;
}

static u8 sim_query_rmp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_srq *srq;
	void *wq;
	u8 status;

	status = sim_srq_lookup(sim, ctx, PRM_GET(query_rmp_in, ctx->in, rmpn),
				&srq);
	if (status)
		return status;
	memcpy(PRM_ADDR(query_rmp_out, ctx->out, rmp_context), srq->rmpc,
	       PRM_BYTES(rmpc));
	wq = PRM_ADDR(query_rmp_out, ctx->out, rmp_context.wq);
	PRM_SET(wq, wq, hw_counter, srq->dp.cc);
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_srq_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_RMP, "CREATE_RMP", create_rmp_in,
		create_rmp_out, true, sim_create_rmp),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_RMP, "DESTROY_RMP", destroy_rmp_in,
		     destroy_rmp_out, SIM_OBJ_RMP, rmpn),
	SIM_CMD(MLX5_CMD_OP_MODIFY_RMP, "MODIFY_RMP", modify_rmp_in,
		modify_rmp_out, true, sim_modify_rmp),
	SIM_CMD(MLX5_CMD_OP_QUERY_RMP, "QUERY_RMP", query_rmp_in,
		query_rmp_out, true, sim_query_rmp),
};

const struct sim_cmd_set sim_srq_cmds = {
	sim_srq_cmd_list, ARRAY_SIZE(sim_srq_cmd_list)
};
