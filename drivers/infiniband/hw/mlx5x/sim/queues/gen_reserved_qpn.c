// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RESERVED_QPN general objects (type 0x2c): a range of QP numbers that
 * no QP will ever have while the object lives, for a context to name in
 * rdma_cm's connection messages where it has no QP of its own to name
 * (mlx5dv_reserved_qpn_alloc(3): DC, where one DCI connects to many
 * DCTs, each connection wanting a QPN unique on the device for the CM's
 * timewait).  libmlx5 creates one object of 1 << log_reserved_qpn_granularity
 * QPNs (cmd_hca_cap_2) with log_obj_range set to that, takes the object's
 * id as the range's first QPN, and hands QPNs out of it.
 *
 * The model keeps the ranges apart from every QP and DCT number: they lie
 * in [SIM_RSVD_QPN_BASE, SIM_DCTN_BASE), each aligned to its size, and
 * a range's object is numbered by its first QPN.  A packet that names a
 * reserved QPN finds no QP, as on a ConnectX.  The object has no fields
 * (its context is reserved, and must be zero) and nothing to modify; it
 * is its context's alone, as every general object is.
 */
#include "../core/general.h"

/* cmd_hca_cap_2 fields 6.1's mlx5_ifc.h leaves reserved (bit offsets) */
#define SIM_CAP2_LOG_MAX_RSVD_QPN_OFF	0x8b
#define SIM_CAP2_LOG_RSVD_QPN_GRAN_OFF	0x93
#define SIM_CAP2_LOG_RSVD_QPN_ALLOC_OFF	0x9b
#define SIM_CAP2_LOG_BITS		5

/* one object's range: 256 QPNs, as libmlx5 asks; at most 4096 */
#define SIM_RSVD_QPN_LOG_GRAN		8
#define SIM_RSVD_QPN_LOG_MAX_ALLOC	12
/* where they lie: the space between the QPs and the DCTs */
#define SIM_RSVD_QPN_END		SIM_DCTN_BASE
/*
 * Objects at once, whoever owns them: a create looks at each (the gap
 * it takes, and the count), so they are few; 64 of the largest range
 * are all the QPNs advertised.
 */
#define SIM_RSVD_QPN_LOG_MAX_OBJS	6
#define SIM_RSVD_QPN_LOG_MAX		(SIM_RSVD_QPN_LOG_MAX_OBJS + \
					 SIM_RSVD_QPN_LOG_MAX_ALLOC)
/* reserved_qpn: the object's context, after the header */
#define SIM_RSVD_QPN_CTX_BYTES		16

static_assert(SIM_RSVD_QPN_BASE + BIT(SIM_RSVD_QPN_LOG_MAX) <=
	      SIM_RSVD_QPN_END);

/**
 * struct sim_rsvd_qpn - one range
 * @first: its first QPN, the object's id
 * @log_n: it holds 1 << @log_n QPNs
 */
struct sim_rsvd_qpn {
	u32 first;
	u32 log_n;
};

/**
 * sim_reserved_qpn_caps() - the reserved QPN fields of cmd_hca_cap_2
 * @cap2: the page
 */
void sim_reserved_qpn_caps(void *cap2)
{
	prm_set_bits(cap2, SIM_CAP2_LOG_MAX_RSVD_QPN_OFF, SIM_CAP2_LOG_BITS,
		     SIM_RSVD_QPN_LOG_MAX);
	prm_set_bits(cap2, SIM_CAP2_LOG_RSVD_QPN_GRAN_OFF, SIM_CAP2_LOG_BITS,
		     SIM_RSVD_QPN_LOG_GRAN);
	prm_set_bits(cap2, SIM_CAP2_LOG_RSVD_QPN_ALLOC_OFF, SIM_CAP2_LOG_BITS,
		     SIM_RSVD_QPN_LOG_MAX_ALLOC);
}

/*
 * The lowest first QPN of a free range of 1 << @log_n QPNs aligned to its
 * size, or 0 if none is left.  The ranges are the general objects numbered
 * from SIM_RSVD_QPN_BASE on, met in the order of their first QPN: the
 * free range is in the first gap that holds it.
 */
static u32 sim_rsvd_qpn_find(struct mlx5x_sim *sim, u32 log_n)
{
	u32 size = BIT(log_n), next = SIM_RSVD_QPN_BASE;
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each_range(&sim->objs[SIM_OBJ_GENERAL], id, obj,
			  SIM_RSVD_QPN_BASE, SIM_RSVD_QPN_END - 1) {
		const struct sim_general *gen =
			container_of(obj, struct sim_general, obj);
		const struct sim_rsvd_qpn *r = gen->priv;

		if (next + size <= r->first)
			return next;
		next = max(next, ALIGN(r->first + BIT(r->log_n), size));
	}
	return next + size <= SIM_RSVD_QPN_END ? next : 0;
}

static u8 sim_rsvd_qpn_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			      void *priv)
{
	const u8 *rctx = (const u8 *)ctx->in +
			 PRM_BYTES(general_obj_in_cmd_hdr);
	u32 log_n = PRM_GET(general_obj_in_cmd_hdr, ctx->in,
			    PRM_GENERAL_LOG_OBJ_RANGE);
	struct sim_rsvd_qpn *r = priv;

	if (memchr_inv(rctx, 0, SIM_RSVD_QPN_CTX_BYTES) ||
	    log_n < SIM_RSVD_QPN_LOG_GRAN ||
	    log_n > SIM_RSVD_QPN_LOG_MAX_ALLOC)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	r->first = sim_rsvd_qpn_find(sim, log_n);
	if (!r->first)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_EXHAUSTED);
	r->log_n = log_n;
	return PRM_STAT_OK;
}

static u8 sim_rsvd_qpn_query(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     const void *priv)
{
	/* no fields: the context reads back as zero */
	return PRM_STAT_OK;
}

static u32 sim_rsvd_qpn_id(const void *priv)
{
	const struct sim_rsvd_qpn *r = priv;

	return r->first;
}

static u32 sim_rsvd_qpn_max_objs(struct mlx5x_sim *sim)
{
	return BIT(SIM_RSVD_QPN_LOG_MAX_OBJS);
}

const struct sim_gen_type sim_gen_reserved_qpn = {
	.obj_type = SIM_OBJ_TYPE_RESERVED_QPN,
	.name = "reserved_qpn",
	.create_inlen = PRM_BYTES(general_obj_in_cmd_hdr) +
			SIM_RSVD_QPN_CTX_BYTES,
	.query_outlen = PRM_BYTES(general_obj_out_cmd_hdr) +
			SIM_RSVD_QPN_CTX_BYTES,
	.priv_size = sizeof(struct sim_rsvd_qpn),
	.bulk = true,
	.max_objs = sim_rsvd_qpn_max_objs,
	.obj_id = sim_rsvd_qpn_id,
	.create = sim_rsvd_qpn_create,
	.query = sim_rsvd_qpn_query,
};
