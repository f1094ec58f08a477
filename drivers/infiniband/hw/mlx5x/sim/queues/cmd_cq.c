// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues.  A CQ names its EQ (the kernel's, shared), a UAR of
 * its context for doorbells (checked, not held: see sim_uar_check()), and
 * its buffer and doorbell record; QUERY_CQ
 * answers with the context as created, with the moderation MODIFY_CQ
 * changed, or the size it resized the CQ to.
 */
#include "queues.h"
#include "../dp/datapath.h"

/* MODIFY_CQ's field select: what the model lets change. */
#define SIM_CQ_MODIFY_FIELDS	(SIM_CQ_MODIFY_PERIOD | SIM_CQ_MODIFY_COUNT | \
				 SIM_CQ_MODIFY_OVERRUN)

static u8 sim_cq_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		       const void *cqc)
{
	if (PRM_GET(cqc, cqc, log_cq_size) > SIM_CAP_GEN(sim, log_max_cq_sz))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (PRM_GET(cqc, cqc, cqe_sz) > SIM_CQE_SZ_128_PAD ||
	    PRM_GET(cqc, cqc, cq_period_mode) >= MLX5_CQ_PERIOD_NUM_MODES)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (PRM_GET(cqc, cqc, cqe_sz) == SIM_CQE_SZ_128_PAD &&
	    !SIM_CAP_GEN(sim, cqe_128_always))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	/* compression: of a size the caps name, the basic layout */
	if (PRM_GET(cqc, cqc, cqe_comp_en)) {
		u8 fmt = PRM_GET(cqc, cqc, mini_cqe_res_format);

		if (fmt != SIM_MINI_FMT_HASH && fmt != SIM_MINI_FMT_CSUM &&
		    fmt != SIM_MINI_FMT_CSUM_STRIDX)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		if (!(PRM_GET(cqc, cqc, cqe_sz) ?
		      SIM_CAP_GEN(sim, cqe_compression_128) :
		      SIM_CAP_GEN(sim, cqe_compression)) ||
		    (fmt == SIM_MINI_FMT_CSUM_STRIDX &&
		     !SIM_CAP_GEN(sim, mini_cqe_resp_stride_index)) ||
		    PRM_GET(cqc, cqc, cqe_compression_layout))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_CAP);
	}
	/* features the profile does not offer */
	if (PRM_GET(cqc, cqc, apu_cq) ||
	    (PRM_GET(cqc, cqc, cq_period_mode) &&
	     !SIM_CAP_GEN(sim, cq_period_start_from_cqe)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return PRM_STAT_OK;
}

/* Not armed until armed: the doorbell record's arm word says none yet. */
static void sim_cq_disarm(struct mlx5x_sim *sim, u32 dbr_id, u64 dbr_addr)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_UMEM], dbr_id);
	__be32 none = cpu_to_be32(SIM_CQ_ARM_NONE);

	if (obj)
		sim_umem_io(container_of(obj, struct sim_umem, obj),
			    dbr_addr + SIM_CQ_DBR_ARM, &none, sizeof(none), true);
}

static u8 sim_create_cq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *cqc = PRM_ADDR(create_cq_in, ctx->in, cq_context);
	struct sim_qbuf_req req = {
		.umem_valid = PRM_GET(create_cq_in, ctx->in, cq_umem_valid),
		.umem_id = prm_get_bits(ctx->in, SIM_CREATE_CQ_UMEM_ID, 32),
		.umem_off = sim_get64_at(ctx->in, SIM_CREATE_CQ_UMEM_OFFSET),
		.dbr_valid = PRM_GET(cqc, cqc, dbr_umem_valid),
		.dbr_id = prm_get_bits(cqc, SIM_CQC_DBR_UMEM_ID, 32),
		.dbr_addr = PRM_GET64(cqc, cqc, dbr_addr),
		.pas_off = PRM_BIT_OFF(create_cq_in, pas),
		.log_page = PRM_GET(cqc, cqc, log_page_size),
	};
	struct sim_refs refs = {};
	struct sim_qobj *q;
	u8 status;

	BUILD_BUG_ON(SIM_CREATE_CQ_UMEM_ID + 32 >
		     PRM_BIT_OFF(create_cq_in, cq_umem_valid));
	status = sim_cq_check(sim, ctx, cqc);
	if (status)
		return status;
	req.len = (u64)SIM_CQE_BYTES(PRM_GET(cqc, cqc, cqe_sz)) <<
		  PRM_GET(cqc, cqc, log_cq_size);
	status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_EQ,
			       PRM_GET(cqc, cqc, c_eqn_or_apu_element));
	if (!status)
		status = sim_uar_check(sim, ctx, PRM_GET(cqc, cqc, uar_page));
	if (!status)
		status = sim_qbuf_take(sim, ctx, &req, &refs);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	status = sim_q_alloc(sim, ctx, SIM_OBJ_CQ, &refs, &q);
	if (status)
		return status;
	memcpy(container_of(q, struct sim_cq, q)->cqc, cqc, PRM_BYTES(cqc));
	if (req.umem_valid) {
		container_of(q, struct sim_cq, q)->dp.umem_id = req.umem_id;
		container_of(q, struct sim_cq, q)->dp.umem_off = req.umem_off;
	}
	sim_dp_cq_bind(sim, container_of(q, struct sim_cq, q));
	if (req.dbr_valid)
		sim_cq_disarm(sim, req.dbr_id, req.dbr_addr);
	PRM_SET(create_cq_out, ctx->out, cqn, q->obj.id);
	return PRM_STAT_OK;
}

static u8 sim_query_cq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_CQ,
			      PRM_GET(query_cq_in, ctx->in, cqn), &q);
	if (status)
		return status;
	memcpy(PRM_ADDR(query_cq_out, ctx->out, cq_context),
	       container_of(q, struct sim_cq, q)->cqc, PRM_BYTES(cqc));
	return PRM_STAT_OK;
}

/* Moderation, or a new size (cq_resize.c). */
static u8 sim_modify_cq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *cqc = PRM_ADDR(modify_cq_in, in, cq_context);
	u32 sel = PRM_GET(modify_cq_in, in,
			  modify_field_select_resize_field_select
			  .modify_field_select.modify_field_select);
	struct sim_qobj *q;
	struct sim_cq *cq;
	u8 status;

	if (ctx->op_mod == MLX5_MODIFY_CQ_IN_OP_MOD_RESIZE_CQ)
		return sim_cq_resize(sim, ctx);
	if (ctx->op_mod != MLX5_MODIFY_CQ_IN_OP_MOD_MODIFY_CQ)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	if (!sel || sel & ~SIM_CQ_MODIFY_FIELDS)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_CQ,
			      PRM_GET(modify_cq_in, in, cqn), &q);
	if (status)
		return status;
	cq = container_of(q, struct sim_cq, q);
	if (sel & SIM_CQ_MODIFY_PERIOD)
		PRM_SET(cqc, cq->cqc, cq_period, PRM_GET(cqc, cqc, cq_period));
	if (sel & SIM_CQ_MODIFY_COUNT)
		PRM_SET(cqc, cq->cqc, cq_max_count,
			PRM_GET(cqc, cqc, cq_max_count));
	if (sel & SIM_CQ_MODIFY_OVERRUN)
		PRM_SET(cqc, cq->cqc, oi, PRM_GET(cqc, cqc, oi));
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_cq_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_CQ, "CREATE_CQ", create_cq_in,
		create_cq_out, true, sim_create_cq),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_CQ, "DESTROY_CQ", destroy_cq_in,
		     destroy_cq_out, SIM_OBJ_CQ, cqn),
	SIM_CMD(MLX5_CMD_OP_QUERY_CQ, "QUERY_CQ", query_cq_in, query_cq_out,
		true, sim_query_cq),
	SIM_CMD(MLX5_CMD_OP_MODIFY_CQ, "MODIFY_CQ", modify_cq_in,
		modify_cq_out, true, sim_modify_cq),
};

const struct sim_cmd_set sim_cq_cmds = {
	sim_cq_cmd_list, ARRAY_SIZE(sim_cq_cmd_list)
};
