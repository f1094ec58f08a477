// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Counters: Q counters (per-QP statistics sets) and flow counters (packets
 * and bytes of steering entries).  Flow counters are allocated one at a
 * time: the profile advertises no bulk allocation yet.
 */
#include "sim_priv.h"

/* The model carries no QP traffic yet: every statistic reads zero. */
static u8 sim_query_q_counter(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_obj *obj;

	return sim_obj_lookup(sim, ctx, SIM_OBJ_Q_COUNTER,
			      PRM_GET(query_q_counter_in, ctx->in,
				      counter_set_id), &obj);
}

static u8 sim_alloc_flow_counter(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	if (PRM_GET(alloc_flow_counter_in, ctx->in, flow_counter_bulk) ||
	    PRM_GET(alloc_flow_counter_in, ctx->in,
		    flow_counter_bulk_log_size))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return sim_exec_alloc(sim, ctx);
}

static u8 sim_query_flow_counter(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	u32 id = PRM_GET(query_flow_counter_in, ctx->in, flow_counter_id);
	u32 num = PRM_GET(query_flow_counter_in, ctx->in, num_of_counters);
	size_t need = PRM_BYTES(query_flow_counter_out) +
		      PRM_BYTES(traffic_counter);
	struct sim_flow_counter *fc;
	struct sim_obj *obj;
	void *stats;
	u8 status;

	if (num > 1)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (ctx->outlen < need)
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN,
				SIM_SYND_BAD_OUTLEN);
	status = sim_obj_lookup(sim, ctx, SIM_OBJ_FLOW_COUNTER, id, &obj);
	if (status)
		return status;
	fc = container_of(obj, struct sim_flow_counter, obj);
	stats = PRM_ADDR(query_flow_counter_out, ctx->out, flow_statistics);
	PRM_SET64(traffic_counter, stats, packets, fc->packets);
	PRM_SET64(traffic_counter, stats, octets, fc->octets);
	if (PRM_GET(query_flow_counter_in, ctx->in, clear)) {
		fc->packets = 0;
		fc->octets = 0;
	}
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_counter_cmd_list[] = {
	SIM_ALLOC_CMD(MLX5_CMD_OP_ALLOC_Q_COUNTER, "ALLOC_Q_COUNTER",
		      alloc_q_counter_in, alloc_q_counter_out,
		      SIM_OBJ_Q_COUNTER, counter_set_id),
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_Q_COUNTER, "DEALLOC_Q_COUNTER",
		     dealloc_q_counter_in, dealloc_q_counter_out,
		     SIM_OBJ_Q_COUNTER, counter_set_id),
	SIM_CMD(MLX5_CMD_OP_QUERY_Q_COUNTER, "QUERY_Q_COUNTER",
		query_q_counter_in, query_q_counter_out, true,
		sim_query_q_counter),
	{
		.opcode = MLX5_CMD_OP_ALLOC_FLOW_COUNTER,
		.name = "ALLOC_FLOW_COUNTER",
		.inlen = PRM_BYTES(alloc_flow_counter_in),
		.outlen = PRM_BYTES(alloc_flow_counter_out),
		.has_uid = true,
		.obj_type = SIM_OBJ_FLOW_COUNTER,
		.id_off = PRM_BIT_OFF(alloc_flow_counter_out, flow_counter_id),
		.id_bits = PRM_BIT_SZ(alloc_flow_counter_out, flow_counter_id),
		.exec = sim_alloc_flow_counter,
	},
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_FLOW_COUNTER, "DEALLOC_FLOW_COUNTER",
		     dealloc_flow_counter_in, dealloc_flow_counter_out,
		     SIM_OBJ_FLOW_COUNTER, flow_counter_id),
	SIM_CMD(MLX5_CMD_OP_QUERY_FLOW_COUNTER, "QUERY_FLOW_COUNTER",
		query_flow_counter_in, query_flow_counter_out, true,
		sim_query_flow_counter),
};

const struct sim_cmd_set sim_counter_cmds = {
	sim_counter_cmd_list, ARRAY_SIZE(sim_counter_cmd_list)
};
