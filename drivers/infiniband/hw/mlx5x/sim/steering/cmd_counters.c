// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Counters: Q counters (per-QP statistics sets) and flow counters (packets
 * and bytes of steering entries).  Flow counters come one at a time or in
 * bulks of the sizes the general capabilities advertise
 * (flow_counter_bulk_alloc: 128 << n; log_max_flow_counter_bulk); a bulk
 * is one object whose ids no other counter gets.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "fs.h"

#define SIM_QC_FIELD(stat, fld) \
	[stat] = PRM_BIT_OFF(query_q_counter_out, fld) / 8

/* Where each statistic (enum sim_qc_stat) is in query_q_counter_out. */
static const u16 sim_qc_out_off[SIM_QC_NUM] = {
	SIM_QC_FIELD(SIM_QC_RX_WRITE, rx_write_requests),
	SIM_QC_FIELD(SIM_QC_RX_READ, rx_read_requests),
	SIM_QC_FIELD(SIM_QC_RX_ATOMIC, rx_atomic_requests),
	SIM_QC_FIELD(SIM_QC_OUT_OF_BUFFER, out_of_buffer),
	SIM_QC_FIELD(SIM_QC_OUT_OF_SEQUENCE, out_of_sequence),
	SIM_QC_FIELD(SIM_QC_DUPLICATE_REQUEST, duplicate_request),
	SIM_QC_FIELD(SIM_QC_RNR_NAK_RETRY_ERR, rnr_nak_retry_err),
	SIM_QC_FIELD(SIM_QC_PACKET_SEQ_ERR, packet_seq_err),
	SIM_QC_FIELD(SIM_QC_LOCAL_ACK_TIMEOUT_ERR, local_ack_timeout_err),
	SIM_QC_FIELD(SIM_QC_RESP_LOCAL_LENGTH_ERROR, resp_local_length_error),
	SIM_QC_FIELD(SIM_QC_RESP_CQE_ERROR, resp_cqe_error),
	SIM_QC_FIELD(SIM_QC_REQ_CQE_ERROR, req_cqe_error),
	SIM_QC_FIELD(SIM_QC_REQ_REMOTE_INVALID_REQUEST,
		     req_remote_invalid_request),
	SIM_QC_FIELD(SIM_QC_REQ_REMOTE_ACCESS_ERRORS, req_remote_access_errors),
	SIM_QC_FIELD(SIM_QC_RESP_REMOTE_ACCESS_ERRORS,
		     resp_remote_access_errors),
	SIM_QC_FIELD(SIM_QC_RESP_CQE_FLUSH_ERROR, resp_cqe_flush_error),
	SIM_QC_FIELD(SIM_QC_REQ_CQE_FLUSH_ERROR, req_cqe_flush_error),
};

/*
 * What the set's QPs and RQs counted (dp/dp_qcount.c), 32 bits each as
 * the PRM's fields; with clear, the set starts again from zero.
 */
static u8 sim_query_q_counter(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_q_counter *qc;
	struct sim_obj *obj;
	unsigned int i;
	u8 status;

	status = sim_obj_lookup(sim, ctx, SIM_OBJ_Q_COUNTER,
				PRM_GET(query_q_counter_in, ctx->in,
					counter_set_id), &obj);
	if (status)
		return status;
	qc = container_of(obj, struct sim_q_counter, obj);
	for (i = 0; i < SIM_QC_NUM; i++)
		*(__be32 *)((u8 *)ctx->out + sim_qc_out_off[i]) =
			cpu_to_be32(qc->stat[i]);
	if (PRM_GET(query_q_counter_in, ctx->in, clear))
		memset(qc->stat, 0, sizeof(qc->stat));
	return PRM_STAT_OK;
}

/*
 * Reserve ids base .. base + count - 1 for @fc: the object at base, the
 * others reserved so no allocation hands them out.  On -EBUSY, *busy is
 * the first id found taken.
 */
static int sim_fc_reserve(struct xarray *xa, struct sim_flow_counter *fc,
			  u32 base, u32 *busy)
{
	u32 i;
	int err;

	for (i = 0; i < fc->count; i++) {
		err = xa_insert(xa, base + i, i ? NULL : fc, GFP_KERNEL);
		if (err) {
			*busy = base + i;
			while (i--) {
				if (i)
					xa_release(xa, base + i);
				else
					xa_erase(xa, base);
			}
			return err;
		}
	}
	return 0;
}

/*
 * A bulk: @count ids (a power of two) at a base aligned to @count, as
 * firmware hands them out, so a counter's bulk is found from its id.
 */
static u8 sim_fc_alloc_bulk(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    u32 count, struct sim_flow_counter **fcp)
{
	struct xarray *xa = &sim->objs[SIM_OBJ_FLOW_COUNTER];
	u64 max = sim->max_id[SIM_OBJ_FLOW_COUNTER];
	struct sim_flow_counter *fc;
	u64 base;
	u32 busy = 0;
	int err = -EBUSY;

	fc = kzalloc(sizeof(*fc), GFP_KERNEL);
	if (!fc)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	fc->count = count;
	for (base = count; base + count - 1 <= max;
	     base = round_up((u64)busy + 1, count)) {
		err = sim_fc_reserve(xa, fc, base, &busy);
		if (err != -EBUSY)
			break;
	}
	if (err) {
		kfree(fc);
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES,
				err == -EBUSY ? SIM_SYND_EXHAUSTED :
						SIM_SYND_NO_MEM);
	}
	/* what sim_obj_alloc() does for an object with one id */
	fc->obj.type = SIM_OBJ_FLOW_COUNTER;
	fc->obj.id = base;
	fc->obj.uid = ctx->uid;
	sim->live++;
	*fcp = fc;
	return PRM_STAT_OK;
}

/* How many counters an ALLOC_FLOW_COUNTER asks for; 0: not offered. */
static u32 sim_fc_bulk_size(struct mlx5x_sim *sim, const void *in)
{
	u32 bulk = PRM_GET(alloc_flow_counter_in, in, flow_counter_bulk);
	u32 log = PRM_GET(alloc_flow_counter_in, in,
			  flow_counter_bulk_log_size);

	if (bulk && log)
		return 0;
	if (log)
		return log <= SIM_CAP_GEN(sim, log_max_flow_counter_bulk) ?
		       BIT(log) : 0;
	if (bulk)
		return is_power_of_2(bulk) &&
		       (bulk & SIM_CAP_GEN(sim, flow_counter_bulk_alloc)) ?
		       MLX5_FC_BULK_SIZE_FACTOR * bulk : 0;
	return 1;
}

static u8 sim_alloc_flow_counter(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	u32 count = sim_fc_bulk_size(sim, ctx->in);
	struct sim_flow_counter *fc;
	struct sim_obj *obj;
	u8 status;

	if (!count)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (count == 1) {
		status = sim_obj_alloc(sim, ctx, SIM_OBJ_FLOW_COUNTER, &obj);
		if (status)
			return status;
		fc = container_of(obj, struct sim_flow_counter, obj);
		fc->count = 1;
	} else {
		status = sim_fc_alloc_bulk(sim, ctx, count, &fc);
		if (status)
			return status;
		fc->ids = &sim->objs[SIM_OBJ_FLOW_COUNTER];
	}
	fc->stat = kvcalloc(count, sizeof(*fc->stat), GFP_KERNEL);
	if (!fc->stat) {
		sim_obj_destroy(sim, ctx, SIM_OBJ_FLOW_COUNTER, fc->obj.id);
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	}
	PRM_SET(alloc_flow_counter_out, ctx->out, flow_counter_id, fc->obj.id);
	return PRM_STAT_OK;
}

void sim_flow_counter_release(struct sim_obj *obj)
{
	struct sim_flow_counter *fc = container_of(obj, struct sim_flow_counter,
						   obj);
	u32 i;

	for (i = 1; fc->ids && i < fc->count; i++)
		xa_release(fc->ids, obj->id + i);
	kvfree(fc->stat);
}

/* The counter or bulk holding @id: its base is @id aligned to its size. */
static struct sim_flow_counter *sim_fc_find(struct mlx5x_sim *sim, u32 id)
{
	u32 log, max_log = SIM_CAP_GEN(sim, log_max_flow_counter_bulk);
	struct sim_flow_counter *fc;
	struct sim_obj *obj;

	for (log = 0; log <= max_log && log < 32; log++) {
		u32 base = id & ~(BIT(log) - 1);

		obj = xa_load(&sim->objs[SIM_OBJ_FLOW_COUNTER], base);
		if (!obj)
			continue;
		fc = container_of(obj, struct sim_flow_counter, obj);
		return id - base < fc->count ? fc : NULL;
	}
	return NULL;
}

static u8 sim_fc_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx, u32 id,
		     bool ref, struct sim_flow_counter **fcp)
{
	*fcp = sim_fc_find(sim, id);
	if (!*fcp)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	/* a reference by the kernel (uid 0) reaches any, as sim_obj_ref() */
	if (!(ref && !ctx->uid) && (*fcp)->obj.uid != ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	return PRM_STAT_OK;
}

/**
 * sim_flow_counter_ref() - reference the counter with an id
 * @sim: the model
 * @ctx: the command naming it (a flow table entry counting into it)
 * @id: a counter id, possibly one inside a bulk
 * @objp: the counter or bulk, whose users count now includes the caller
 *
 * Return: a PRM status; only the command's uid's own counters are found
 * (the kernel's entries may count into any counter).
 */
u8 sim_flow_counter_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			u32 id, struct sim_obj **objp)
{
	struct sim_flow_counter *fc;
	u8 status;

	status = sim_fc_get(sim, ctx, id, true, &fc);
	if (status)
		return status;
	fc->obj.users++;
	*objp = &fc->obj;
	return PRM_STAT_OK;
}

/* num_of_counters consecutive counters of one bulk; 0 means one. */
static u8 sim_query_flow_counter(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	u32 id = PRM_GET(query_flow_counter_in, ctx->in, flow_counter_id);
	u32 num = PRM_GET(query_flow_counter_in, ctx->in, num_of_counters) ?: 1;
	bool clear = PRM_GET(query_flow_counter_in, ctx->in, clear);
	struct sim_flow_counter *fc;
	u8 *stats;
	u32 i, first;
	u8 status;

	status = sim_fc_get(sim, ctx, id, false, &fc);
	if (status)
		return status;
	first = id - fc->obj.id;
	if (num > fc->count - first)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (ctx->outlen < PRM_BYTES(query_flow_counter_out) +
			  (size_t)num * PRM_BYTES(traffic_counter))
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN,
				SIM_SYND_BAD_OUTLEN);
	stats = PRM_ADDR(query_flow_counter_out, ctx->out, flow_statistics);
	for (i = 0; i < num; i++, stats += PRM_BYTES(traffic_counter)) {
		struct sim_fc_stat *st = &fc->stat[first + i];

		PRM_SET64(traffic_counter, stats, packets, st->packets);
		PRM_SET64(traffic_counter, stats, octets, st->octets);
		if (clear)
			memset(st, 0, sizeof(*st));
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
