// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive and send queues (RQ, SQ): a work queue on a CQ and a PD, with
 * its buffer and doorbell record; an SQ also names the TIS it sends
 * through and the UAR it rings.  Both are born in RST and move through
 * RDY and ERR with MODIFY_RQ / MODIFY_SQ, which give the state the queue
 * is in and the one it goes to.
 */
#include "queues.h"
#include "../dp/datapath.h"

/* Transitions firmware takes: a bit per destination state, by source. */
static const u8 sim_wq_moves[4] = {
	[MLX5_RQC_STATE_RST] = BIT(MLX5_RQC_STATE_RDY),
	[MLX5_RQC_STATE_RDY] = BIT(MLX5_RQC_STATE_RST) |
			       BIT(MLX5_RQC_STATE_RDY) |
			       BIT(MLX5_RQC_STATE_ERR),
	[MLX5_RQC_STATE_ERR] = BIT(MLX5_RQC_STATE_RST),
};

#define SIM_RQ_MODIFY_FIELDS	(MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD |	\
				 MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_SCATTER_FCS | \
				 MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID)

/* Log2 of the smallest receive WQE: one 16-byte data segment. */
#define SIM_LOG_MIN_RQ_STRIDE	4

/*
 * The work queue of an RQ, SQ or RMP: its type, size and stride within the
 * caps, its PD, and the buffers it needs.  @pas_off: where the create
 * mailbox's PAS array starts.
 */
u8 sim_wq_take(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       const void *wq, size_t pas_off, bool sq, struct sim_refs *refs)
{
	u32 stride = PRM_GET(wq, wq, log_wq_stride);
	u32 type = PRM_GET(wq, wq, wq_type);
	struct sim_qbuf_req req = {
		.umem_valid = PRM_GET(wq, wq, wq_umem_valid),
		.umem_id = prm_get_bits(wq, SIM_WQ_UMEM_ID, 32),
		.umem_off = sim_get64_at(wq, SIM_WQ_UMEM_OFFSET),
		.dbr_valid = PRM_GET(wq, wq, dbr_umem_valid),
		.dbr_id = prm_get_bits(wq, SIM_WQ_DBR_UMEM_ID, 32),
		.dbr_addr = PRM_GET64(wq, wq, dbr_addr),
		.pas_off = pas_off,
		.log_page = PRM_GET(wq, wq, log_wq_pg_sz),
	};
	u8 status;

	BUILD_BUG_ON(SIM_WQ_UMEM_OFFSET + 64 > PRM_BIT_OFF(wq, headers_mkey));
	if (type != MLX5_WQ_TYPE_CYCLIC &&
	    (sq || type != MLX5_WQ_TYPE_LINKED_LIST))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (PRM_GET(wq, wq, log_wq_sz) > SIM_CAP_GEN(sim, log_max_wq_sz))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (sq ? BIT(stride) != SIM_SEND_WQE_BB :
		 stride < SIM_LOG_MIN_RQ_STRIDE ||
		 BIT(stride) > SIM_CAP_GEN(sim, max_wqe_sz_rq))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	req.len = BIT_ULL(PRM_GET(wq, wq, log_wq_sz)) << stride;

	status = sim_refs_take(sim, ctx, refs, SIM_OBJ_PD,
			       PRM_GET(wq, wq, pd));
	if (!status && sq)
		status = sim_uar_check(sim, ctx, PRM_GET(wq, wq, uar_page));
	if (!status)
		status = sim_qbuf_take(sim, ctx, &req, refs);
	return status;
}

/* A Q counter named by an RQ: 0 (none) or one of the context's. */
static u8 sim_rq_counter_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			       u32 id)
{
	struct sim_obj *obj;

	return id ? sim_obj_lookup(sim, ctx, SIM_OBJ_Q_COUNTER, id, &obj) :
		    PRM_STAT_OK;
}

static u8 sim_wq_finish(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			enum sim_obj_type type, struct sim_refs *refs,
			const void *wqc, size_t bytes, size_t id_off)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_alloc(sim, ctx, type, refs, &q);
	if (status)
		return status;
	memcpy(container_of(q, struct sim_wq, q)->ctx, wqc, bytes);
	prm_set_bits(ctx->out, id_off, 24, q->obj.id);
	return PRM_STAT_OK;
}

static u8 sim_create_rq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *rqc = PRM_ADDR(create_rq_in, ctx->in, ctx);
	struct sim_refs refs = {};
	u8 status = PRM_STAT_OK;

	if (PRM_GET(rqc, rqc, state) != MLX5_RQC_STATE_RST ||
	    PRM_GET(rqc, rqc, mem_rq_type) !=
	    MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_INLINE)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* hairpin and delay drop are not offered */
	if (PRM_GET(rqc, rqc, hairpin) || PRM_GET(rqc, rqc, delay_drop_en))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	status = sim_rq_counter_check(sim, ctx,
				      PRM_GET(rqc, rqc, counter_set_id));
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_CQ,
				       PRM_GET(rqc, rqc, cqn));
	if (!status)
		status = sim_wq_take(sim, ctx, PRM_ADDR(rqc, rqc, wq),
				     PRM_BIT_OFF(create_rq_in, ctx.wq.pas),
				     false, &refs);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	return sim_wq_finish(sim, ctx, SIM_OBJ_RQ, &refs, rqc,
			     PRM_BYTES(rqc), PRM_BIT_OFF(create_rq_out, rqn));
}

static u8 sim_create_sq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *sqc = PRM_ADDR(create_sq_in, ctx->in, ctx);
	struct sim_refs refs = {};
	u8 status;

	status = sim_raw_tx_check(sim, ctx);
	if (status)
		return status;
	if (PRM_GET(sqc, sqc, state) != MLX5_SQC_STATE_RST ||
	    PRM_GET(sqc, sqc, tis_lst_sz) != 1)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* hairpin, rate limits, QoS groups, timestamps: not offered */
	if (PRM_GET(sqc, sqc, hairpin) ||
	    PRM_GET(sqc, sqc, packet_pacing_rate_limit_index) ||
	    PRM_GET(sqc, sqc, qos_queue_group_id) ||
	    PRM_GET(sqc, sqc, ts_cqe_to_dest_cqn))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_CQ,
			       PRM_GET(sqc, sqc, cqn));
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_TIS,
				       PRM_GET(sqc, sqc, tis_num_0));
	if (!status)
		status = sim_wq_take(sim, ctx, PRM_ADDR(sqc, sqc, wq),
				     PRM_BIT_OFF(create_sq_in, ctx.wq.pas),
				     true, &refs);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	return sim_wq_finish(sim, ctx, SIM_OBJ_SQ, &refs, sqc,
			     PRM_BYTES(sqc), PRM_BIT_OFF(create_sq_out, sqn));
}

/*
 * The state change of a MODIFY_RQ/SQ: @cur is what the command says the
 * queue is in, @next where it goes.
 */
static u8 sim_wq_move(struct sim_cmd_ctx *ctx, u32 now, u32 cur, u32 next)
{
	if (cur >= ARRAY_SIZE(sim_wq_moves) || next >= ARRAY_SIZE(sim_wq_moves) ||
	    !(sim_wq_moves[cur] & BIT(next)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_STATE);
	if (cur != now)
		return sim_fail(ctx, PRM_STAT_BAD_RES_STATE,
				SIM_SYND_BAD_STATE);
	return PRM_STAT_OK;
}

static u8 sim_modify_rq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *rqc = PRM_ADDR(modify_rq_in, in, ctx);
	u64 mask = PRM_GET64(modify_rq_in, in, modify_bitmask);
	struct sim_qobj *q;
	void *now;
	u8 status;

	if (mask & ~(u64)SIM_RQ_MODIFY_FIELDS)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_RQ,
			      PRM_GET(modify_rq_in, in, rqn), &q);
	if (status)
		return status;
	now = container_of(q, struct sim_wq, q)->ctx;
	status = sim_wq_move(ctx, PRM_GET(rqc, now, state),
			     PRM_GET(modify_rq_in, in, rq_state),
			     PRM_GET(rqc, rqc, state));
	if (status)
		return status;
	if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID) {
		status = sim_rq_counter_check(sim, ctx,
					      PRM_GET(rqc, rqc,
						      counter_set_id));
		if (status)
			return status;
		PRM_SET(rqc, now, counter_set_id,
			PRM_GET(rqc, rqc, counter_set_id));
	}
	if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD)
		PRM_SET(rqc, now, vsd, PRM_GET(rqc, rqc, vsd));
	if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_SCATTER_FCS)
		PRM_SET(rqc, now, scatter_fcs, PRM_GET(rqc, rqc, scatter_fcs));
	PRM_SET(rqc, now, state, PRM_GET(rqc, rqc, state));
	if (PRM_GET(rqc, rqc, state) == MLX5_RQC_STATE_RST)
		container_of(q, struct sim_wq, q)->dp.cc = 0;
	/* in ERR, what is posted is flushed (dp/dp_rq.c) */
	if (PRM_GET(rqc, rqc, state) == MLX5_RQC_STATE_ERR)
		sim_dp_kick(sim);
	return PRM_STAT_OK;
}

/* An SQ changes state only: packet pacing is not offered. */
static u8 sim_modify_sq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *sqc = PRM_ADDR(modify_sq_in, in, ctx);
	struct sim_qobj *q;
	void *now;
	u8 status;

	if (PRM_GET64(modify_sq_in, in, modify_bitmask))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_SQ,
			      PRM_GET(modify_sq_in, in, sqn), &q);
	if (status)
		return status;
	now = container_of(q, struct sim_wq, q)->ctx;
	status = sim_wq_move(ctx, PRM_GET(sqc, now, state),
			     PRM_GET(modify_sq_in, in, sq_state),
			     PRM_GET(sqc, sqc, state));
	if (!status) {
		PRM_SET(sqc, now, state, PRM_GET(sqc, sqc, state));
		if (PRM_GET(sqc, sqc, state) == MLX5_SQC_STATE_RST)
			container_of(q, struct sim_wq, q)->dp.cc = 0;
		sim_dp_kick(sim);	/* the data path looks at it */
	}
	return status;
}

static u8 sim_query_rq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_RQ,
			      PRM_GET(query_rq_in, ctx->in, rqn), &q);
	if (!status)
		memcpy(PRM_ADDR(query_rq_out, ctx->out, rq_context),
		       container_of(q, struct sim_wq, q)->ctx, PRM_BYTES(rqc));
	return status;
}

static u8 sim_query_sq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_SQ,
			      PRM_GET(query_sq_in, ctx->in, sqn), &q);
	if (!status)
		memcpy(PRM_ADDR(query_sq_out, ctx->out, sq_context),
		       container_of(q, struct sim_wq, q)->ctx, PRM_BYTES(sqc));
	return status;
}

static const struct sim_cmd sim_wq_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_RQ, "CREATE_RQ", create_rq_in,
		create_rq_out, true, sim_create_rq),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_RQ, "DESTROY_RQ", destroy_rq_in,
		     destroy_rq_out, SIM_OBJ_RQ, rqn),
	SIM_CMD(MLX5_CMD_OP_MODIFY_RQ, "MODIFY_RQ", modify_rq_in,
		modify_rq_out, true, sim_modify_rq),
	SIM_CMD(MLX5_CMD_OP_QUERY_RQ, "QUERY_RQ", query_rq_in, query_rq_out,
		true, sim_query_rq),
	SIM_CMD(MLX5_CMD_OP_CREATE_SQ, "CREATE_SQ", create_sq_in,
		create_sq_out, true, sim_create_sq),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_SQ, "DESTROY_SQ", destroy_sq_in,
		     destroy_sq_out, SIM_OBJ_SQ, sqn),
	SIM_CMD(MLX5_CMD_OP_MODIFY_SQ, "MODIFY_SQ", modify_sq_in,
		modify_sq_out, true, sim_modify_sq),
	SIM_CMD(MLX5_CMD_OP_QUERY_SQ, "QUERY_SQ", query_sq_in, query_sq_out,
		true, sim_query_sq),
};

const struct sim_cmd_set sim_wq_cmds = {
	sim_wq_cmd_list, ARRAY_SIZE(sim_wq_cmd_list)
};
