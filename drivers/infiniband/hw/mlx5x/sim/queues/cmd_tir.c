// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Transport objects: TIS (what an SQ sends through), RQT (a table of RQs
 * to spread packets over) and TIR (where received packets go: one RQ, or
 * an RQT and the hash that picks the entry).  Each names a transport
 * domain or RQs of its own context and holds them while it lives.
 */
#include <linux/slab.h>
#include "queues.h"

/* rx_hash_field_select.selected_fields: SRC_IP .. IPSEC_SPI. */
#define SIM_HASH_FIELDS		GENMASK(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_IPSEC_SPI, 0)

/* TIS */

static u8 sim_tis_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			const void *tisc)
{
	/* prio carries the traffic class shifted left by one */
	if (PRM_GET(tisc, tisc, prio) >> 1 >= SIM_CAP_GEN(sim, max_tc) ||
	    PRM_GET(tisc, tisc, lag_tx_port_affinity) >
	    SIM_CAP_GEN(sim, num_ports) ||
	    PRM_GET(tisc, tisc, underlay_qpn))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (PRM_GET(tisc, tisc, tls_en))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return PRM_STAT_OK;
}

static u8 sim_create_tis(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *tisc = PRM_ADDR(create_tis_in, ctx->in, ctx);
	struct sim_refs refs = {};
	struct sim_qobj *q;
	u8 status;

	status = sim_raw_tx_check(sim, ctx);
	if (!status)
		status = sim_tis_check(sim, ctx, tisc);
	if (status)
		return status;
	status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_TD,
			       PRM_GET(tisc, tisc, transport_domain));
	if (status)
		return status;
	status = sim_q_alloc(sim, ctx, SIM_OBJ_TIS, &refs, &q);
	if (status)
		return status;
	memcpy(container_of(q, struct sim_tis, q)->tisc, tisc,
	       PRM_BYTES(tisc));
	PRM_SET(create_tis_out, ctx->out, tisn, q->obj.id);
	return PRM_STAT_OK;
}

static u8 sim_modify_tis(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *tisc = PRM_ADDR(modify_tis_in, in, ctx);
	const void *mask = PRM_ADDR(modify_tis_in, in, bitmask);
	struct sim_qobj *q;
	struct sim_tis *tis;
	u8 status;

	if (prm_get_bits(mask, 0, 32) ||
	    prm_get_bits(mask, 32, 29))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_TIS,
			      PRM_GET(modify_tis_in, in, tisn), &q);
	if (status)
		return status;
	tis = container_of(q, struct sim_tis, q);
	status = sim_tis_check(sim, ctx, tisc);
	if (status)
		return status;
	if (PRM_GET(modify_tis_bitmask, mask, prio))
		PRM_SET(tisc, tis->tisc, prio, PRM_GET(tisc, tisc, prio));
	if (PRM_GET(modify_tis_bitmask, mask, lag_tx_port_affinity))
		PRM_SET(tisc, tis->tisc, lag_tx_port_affinity,
			PRM_GET(tisc, tisc, lag_tx_port_affinity));
	if (PRM_GET(modify_tis_bitmask, mask, strict_lag_tx_port_affinity))
		PRM_SET(tisc, tis->tisc, strict_lag_tx_port_affinity,
			PRM_GET(tisc, tisc, strict_lag_tx_port_affinity));
	return PRM_STAT_OK;
}

static u8 sim_query_tis(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_TIS,
			      PRM_GET(query_tis_in, ctx->in, tisn), &q);
	if (!status)
		memcpy(PRM_ADDR(query_tis_out, ctx->out, tis_context),
		       container_of(q, struct sim_tis, q)->tisc,
		       PRM_BYTES(tisc));
	return status;
}

/* RQT */

/*
 * The RQ list of an RQT context at bit @ctx_off of the input: at most
 * @max entries, at least one, all inside the mailbox, each an RQ of the
 * context.  On success @rq holds a reference per entry.
 */
static u8 sim_rqt_take_list(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    size_t ctx_off, u32 max, struct sim_obj **rq,
			    u32 *sizep)
{
	const void *rqtc = (const u8 *)ctx->in + ctx_off / 8;
	u32 size = PRM_GET(rqtc, rqtc, rqt_actual_size);
	const void *list = PRM_ADDR(rqtc, rqtc, rq_num);
	u32 i;
	u8 status;

	if (!size || size > max)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (ctx_off / 8 + PRM_BYTES(rqtc) + (size_t)size * PRM_BYTES(rq_num) >
	    ctx->inlen)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN,
				SIM_SYND_BAD_INLEN);
	for (i = 0; i < size; i++) {
		const void *ent = (const u8 *)list + i * PRM_BYTES(rq_num);

		status = sim_obj_ref(sim, ctx, SIM_OBJ_RQ,
				     PRM_GET(rq_num, ent, rq_num), &rq[i]);
		if (status) {
			while (i)
				sim_obj_put(rq[--i]);
			return status;
		}
	}
	*sizep = size;
	return PRM_STAT_OK;
}

static u8 sim_create_rqt(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *rqtc = PRM_ADDR(create_rqt_in, ctx->in, rqt_context);
	u32 max = PRM_GET(rqtc, rqtc, rqt_max_size);
	struct sim_obj **rq, *obj;
	struct sim_rqt *rqt;
	u32 size, i;
	u8 status;

	if (PRM_GET(rqtc, rqtc, list_q_type) ||
	    PRM_GET(rqtc, rqtc, rq_vhca_id_format))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (!max || max > BIT(SIM_CAP_GEN(sim, log_max_rqt_size)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	rq = kvcalloc(max, sizeof(*rq), GFP_KERNEL);
	if (!rq)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	status = sim_rqt_take_list(sim, ctx,
				   PRM_BIT_OFF(create_rqt_in, rqt_context),
				   max, rq, &size);
	if (status)
		goto err_free;
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_RQT, &obj);
	if (status)
		goto err_put;
	rqt = container_of(obj, struct sim_rqt, obj);
	rqt->max_size = max;
	rqt->size = size;
	rqt->rq = rq;
	PRM_SET(create_rqt_out, ctx->out, rqtn, obj->id);
	return PRM_STAT_OK;

err_put:
	for (i = 0; i < size; i++)
		sim_obj_put(rq[i]);
err_free:
	kvfree(rq);
	return status;
}

/* MODIFY_RQT replaces the whole list, within the size set at creation. */
static u8 sim_modify_rqt(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	struct sim_obj **rq, *obj;
	struct sim_rqt *rqt;
	u32 size, i;
	u8 status;

	if (!PRM_GET(modify_rqt_in, in, bitmask.rqn_list))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_obj_lookup(sim, ctx, SIM_OBJ_RQT,
				PRM_GET(modify_rqt_in, in, rqtn), &obj);
	if (status)
		return status;
	rqt = container_of(obj, struct sim_rqt, obj);
	rq = kvcalloc(rqt->max_size, sizeof(*rq), GFP_KERNEL);
	if (!rq)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	status = sim_rqt_take_list(sim, ctx, PRM_BIT_OFF(modify_rqt_in, ctx),
				   rqt->max_size, rq, &size);
	if (status) {
		kvfree(rq);
		return status;
	}
	for (i = 0; i < rqt->size; i++)
		sim_obj_put(rqt->rq[i]);
	kvfree(rqt->rq);
	rqt->rq = rq;
	rqt->size = size;
	return PRM_STAT_OK;
}

static u8 sim_query_rqt(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	void *rqtc = PRM_ADDR(query_rqt_out, ctx->out, rqt_context);
	struct sim_obj *obj;
	struct sim_rqt *rqt;
	u32 i;
	u8 status;

	status = sim_obj_lookup(sim, ctx, SIM_OBJ_RQT,
				PRM_GET(query_rqt_in, ctx->in, rqtn), &obj);
	if (status)
		return status;
	rqt = container_of(obj, struct sim_rqt, obj);
	if (ctx->outlen < PRM_BYTES(query_rqt_out) +
			  (size_t)rqt->size * PRM_BYTES(rq_num))
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN,
				SIM_SYND_BAD_OUTLEN);
	PRM_SET(rqtc, rqtc, rqt_max_size, rqt->max_size);
	PRM_SET(rqtc, rqtc, rqt_actual_size, rqt->size);
	for (i = 0; i < rqt->size; i++)
		PRM_SET(rq_num, (u8 *)PRM_ADDR(rqtc, rqtc, rq_num) +
			i * PRM_BYTES(rq_num), rq_num, rqt->rq[i]->id);
	return PRM_STAT_OK;
}

/* TIR */

/*
 * The hash of a TIR: an indirect TIR spreads by XOR8 or Toeplitz over the
 * outer headers' fields (tunnel offloads are not offered); a direct one
 * has no hash at all.
 */
static u8 sim_tir_hash_check(struct sim_cmd_ctx *ctx, const void *tirc,
			     bool indirect)
{
	u32 fn = PRM_GET(tirc, tirc, rx_hash_fn);
	const void *outer = PRM_ADDR(tirc, tirc, rx_hash_field_selector_outer);
	const void *inner = PRM_ADDR(tirc, tirc, rx_hash_field_selector_inner);

	if (prm_get_bits(inner, 0, 32))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (!indirect) {
		if (fn || prm_get_bits(outer, 0, 32) ||
		    PRM_GET(tirc, tirc, rx_hash_symmetric))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		return PRM_STAT_OK;
	}
	if ((fn != MLX5_RX_HASH_FN_INVERTED_XOR8 &&
	     fn != MLX5_RX_HASH_FN_TOEPLITZ) ||
	    PRM_GET(rx_hash_field_select, outer, selected_fields) &
	    ~SIM_HASH_FIELDS ||
	    (PRM_GET(tirc, tirc, rx_hash_symmetric) &&
	     fn != MLX5_RX_HASH_FN_TOEPLITZ))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

static u8 sim_create_tir(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *tirc = PRM_ADDR(create_tir_in, ctx->in, ctx);
	u32 disp = PRM_GET(tirc, tirc, disp_type);
	bool indirect = disp == MLX5_TIRC_DISP_TYPE_INDIRECT;
	struct sim_refs refs = {};
	struct sim_obj *dest;
	struct sim_qobj *q;
	struct sim_tir *tir;
	u8 status;

	if (disp > MLX5_TIRC_DISP_TYPE_INDIRECT ||
	    (indirect ? PRM_GET(tirc, tirc, inline_rqn) :
			PRM_GET(tirc, tirc, indirect_table)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* LRO, TLS and tunnel offloads are not offered */
	if (PRM_GET(tirc, tirc, packet_merge_mask) ||
	    PRM_GET(tirc, tirc, tls_en) ||
	    PRM_GET(tirc, tirc, tunneled_offload_en))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	status = sim_tir_hash_check(ctx, tirc, indirect);
	if (status)
		return status;
	/*
	 * A TIR may name no transport domain (0, which none is given): it
	 * then shares no self-loopback block with a TIS.  rdma-core's DR
	 * tests make one so.
	 */
	if (PRM_GET(tirc, tirc, transport_domain)) {
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_TD,
				       PRM_GET(tirc, tirc, transport_domain));
		if (status)
			return status;
	}
	status = indirect ?
		sim_obj_ref(sim, ctx, SIM_OBJ_RQT,
			    PRM_GET(tirc, tirc, indirect_table), &dest) :
		sim_obj_ref(sim, ctx, SIM_OBJ_RQ,
			    PRM_GET(tirc, tirc, inline_rqn), &dest);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	status = sim_q_alloc(sim, ctx, SIM_OBJ_TIR, &refs, &q);
	if (status) {
		sim_obj_put(dest);
		return status;
	}
	tir = container_of(q, struct sim_tir, q);
	tir->dest = dest;
	memcpy(tir->tirc, tirc, PRM_BYTES(tirc));
	PRM_SET(create_tir_out, ctx->out, tirn, q->obj.id);
	return PRM_STAT_OK;
}

static u8 sim_modify_tir(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *tirc = PRM_ADDR(modify_tir_in, in, ctx);
	const void *bm = PRM_ADDR(modify_tir_in, in, bitmask);
	u32 mask = prm_get_bits(bm, 32, 32);
	struct sim_obj *rqt = NULL;
	struct sim_qobj *q;
	struct sim_tir *tir;
	bool indirect;
	u8 status;

	if (prm_get_bits(bm, 0, 32) ||
	    mask & ~(SIM_TIR_MASK_INDIRECT_TABLE | SIM_TIR_MASK_HASH |
		     SIM_TIR_MASK_SELF_LB | SIM_TIR_MASK_PACKET_MERGE |
		     SIM_TIR_MASK_TUNNELED))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (mask & (SIM_TIR_MASK_PACKET_MERGE | SIM_TIR_MASK_TUNNELED))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_TIR,
			      PRM_GET(modify_tir_in, in, tirn), &q);
	if (status)
		return status;
	tir = container_of(q, struct sim_tir, q);
	indirect = PRM_GET(tirc, tir->tirc, disp_type) ==
		   MLX5_TIRC_DISP_TYPE_INDIRECT;
	if ((mask & (SIM_TIR_MASK_INDIRECT_TABLE | SIM_TIR_MASK_HASH)) &&
	    !indirect)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (mask & SIM_TIR_MASK_HASH) {
		status = sim_tir_hash_check(ctx, tirc, true);
		if (status)
			return status;
	}
	if (mask & SIM_TIR_MASK_INDIRECT_TABLE) {
		status = sim_obj_ref(sim, ctx, SIM_OBJ_RQT,
				     PRM_GET(tirc, tirc, indirect_table),
				     &rqt);
		if (status)
			return status;
		sim_obj_put(tir->dest);
		tir->dest = rqt;
		PRM_SET(tirc, tir->tirc, indirect_table, rqt->id);
	}
	if (mask & SIM_TIR_MASK_HASH) {
		size_t from = PRM_BYTE_OFF(tirc, rx_hash_toeplitz_key);
		size_t to = PRM_BYTE_OFF(tirc, rx_hash_field_selector_inner) +
			    PRM_BYTES(rx_hash_field_select);

		PRM_SET(tirc, tir->tirc, rx_hash_fn,
			PRM_GET(tirc, tirc, rx_hash_fn));
		PRM_SET(tirc, tir->tirc, rx_hash_symmetric,
			PRM_GET(tirc, tirc, rx_hash_symmetric));
		memcpy(tir->tirc + from, (const u8 *)tirc + from, to - from);
	}
	if (mask & SIM_TIR_MASK_SELF_LB)
		PRM_SET(tirc, tir->tirc, self_lb_block,
			PRM_GET(tirc, tirc, self_lb_block));
	return PRM_STAT_OK;
}

static u8 sim_query_tir(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_TIR,
			      PRM_GET(query_tir_in, ctx->in, tirn), &q);
	if (!status)
		memcpy(PRM_ADDR(query_tir_out, ctx->out, tir_context),
		       container_of(q, struct sim_tir, q)->tirc,
		       PRM_BYTES(tirc));
	return status;
}

static const struct sim_cmd sim_tir_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_TIS, "CREATE_TIS", create_tis_in,
		create_tis_out, true, sim_create_tis),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_TIS, "DESTROY_TIS", destroy_tis_in,
		     destroy_tis_out, SIM_OBJ_TIS, tisn),
	SIM_CMD(MLX5_CMD_OP_MODIFY_TIS, "MODIFY_TIS", modify_tis_in,
		modify_tis_out, true, sim_modify_tis),
	SIM_CMD(MLX5_CMD_OP_QUERY_TIS, "QUERY_TIS", query_tis_in,
		query_tis_out, true, sim_query_tis),
	SIM_CMD(MLX5_CMD_OP_CREATE_RQT, "CREATE_RQT", create_rqt_in,
		create_rqt_out, true, sim_create_rqt),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_RQT, "DESTROY_RQT", destroy_rqt_in,
		     destroy_rqt_out, SIM_OBJ_RQT, rqtn),
	SIM_CMD(MLX5_CMD_OP_MODIFY_RQT, "MODIFY_RQT", modify_rqt_in,
		modify_rqt_out, true, sim_modify_rqt),
	SIM_CMD(MLX5_CMD_OP_QUERY_RQT, "QUERY_RQT", query_rqt_in,
		query_rqt_out, true, sim_query_rqt),
	SIM_CMD(MLX5_CMD_OP_CREATE_TIR, "CREATE_TIR", create_tir_in,
		create_tir_out, true, sim_create_tir),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_TIR, "DESTROY_TIR", destroy_tir_in,
		     destroy_tir_out, SIM_OBJ_TIR, tirn),
	SIM_CMD(MLX5_CMD_OP_MODIFY_TIR, "MODIFY_TIR", modify_tir_in,
		modify_tir_out, true, sim_modify_tir),
	SIM_CMD(MLX5_CMD_OP_QUERY_TIR, "QUERY_TIR", query_tir_in,
		query_tir_out, true, sim_query_tir),
};

const struct sim_cmd_set sim_tir_cmds = {
	sim_tir_cmd_list, ARRAY_SIZE(sim_tir_cmd_list)
};
