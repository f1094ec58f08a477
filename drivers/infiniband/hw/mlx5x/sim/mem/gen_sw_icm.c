// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SW_ICM general objects: a range of the device's ICM that software
 * (rdma-core's SW steering) writes directly.  The driver carves the range
 * from one of the regions of the device memory capability page (steering,
 * header modify, header modify pattern, indirect encap) and names it
 * here; firmware checks that it lies whole in one region, is a power of
 * two of at least the allocation granule, aligned to the granule, and
 * overlaps no other SW_ICM object, whoever owns it.  Every range is kept
 * with its owner (the object's uid), so a context can name only its own.
 * A user context may create one only if it was created with
 * MLX5_UCTX_CAP_INTERNAL_DEV_RES, which mlx5_ib (and mlx5x) grant to
 * processes with CAP_SYS_RAWIO: so DEVX cannot bypass that check.
 */
#include "dm.h"
#include "../core/general.h"

struct sim_icm_region {
	size_t start_off;
	size_t log_size_off;
	size_t log_size_bits;
};

#define SIM_ICM_REGION(start, size) {					\
	PRM_BIT_OFF(device_mem_cap, start),				\
	PRM_BIT_OFF(device_mem_cap, size),				\
	PRM_BIT_SZ(device_mem_cap, size) }

static const struct sim_icm_region sim_icm_regions[] = {
	SIM_ICM_REGION(steering_sw_icm_start_address,
		       log_steering_sw_icm_size),
	SIM_ICM_REGION(header_modify_sw_icm_start_address,
		       log_header_modify_sw_icm_size),
	SIM_ICM_REGION(header_modify_pattern_sw_icm_start_address,
		       log_header_modify_pattern_sw_icm_size),
	{ DM_CAP_ENCAP_ICM_START_OFF, DM_CAP_LOG_ENCAP_ICM_SIZE_OFF,
	  DM_CAP_LOG_ENCAP_ICM_SIZE_BITS },
};

/* QUERY_HCA_CAP type of the device memory page */
#define SIM_CAP_DEV_MEM_TYPE	0x0f

/* Whether [start, start + size) lies whole in one region of the profile. */
static bool sim_icm_in_region(struct mlx5x_sim *sim, u64 start, u64 size)
{
	const void *cap = sim->caps[SIM_CAP_DEV_MEM_TYPE];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_icm_regions); i++) {
		const struct sim_icm_region *r = &sim_icm_regions[i];
		u64 base = dm_get64(cap, r->start_off);
		u32 log = prm_get_bits(cap, r->log_size_off, r->log_size_bits);

		if (!base || !log || log >= 64)
			continue;
		if (start >= base && size <= BIT_ULL(log) &&
		    start - base <= BIT_ULL(log) - size)
			return true;
	}
	return false;
}

/**
 * sim_sw_icm_find() - the SW_ICM object that holds an ICM range
 * @sim: the model
 * @addr: ICM address of the range's first byte
 * @len: its length
 *
 * Return: the object holding all of [addr, addr + len), or NULL.
 */
struct sim_general *sim_sw_icm_find(struct mlx5x_sim *sim, u64 addr,
				    u64 len)
{
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each(&sim->objs[SIM_OBJ_GENERAL], id, obj) {
		struct sim_general *gen = container_of(obj, struct sim_general,
						       obj);
		const struct sim_sw_icm *icm = gen->priv;
		u64 size;

		if (gen->type != &sim_gen_sw_icm)
			continue;
		size = BIT_ULL(icm->log_size);
		if (addr >= icm->start && len <= size &&
		    addr - icm->start <= size - len)
			return gen;
	}
	return NULL;
}

static bool sim_icm_overlaps(struct mlx5x_sim *sim, u64 start, u64 size)
{
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each(&sim->objs[SIM_OBJ_GENERAL], id, obj) {
		struct sim_general *gen = container_of(obj, struct sim_general,
						       obj);
		const struct sim_sw_icm *icm = gen->priv;

		if (gen->type == &sim_gen_sw_icm &&
		    start < icm->start + BIT_ULL(icm->log_size) &&
		    icm->start < start + size)
			return true;
	}
	return false;
}

static u8 sim_sw_icm_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    void *priv)
{
	const void *obj = PRM_ADDR(create_sw_icm_in, ctx->in, sw_icm);
	u64 start = PRM_GET64(sw_icm, obj, sw_icm_start_addr);
	u32 log = PRM_GET(sw_icm, obj, log_sw_icm_size);
	u32 granule = prm_get_bits(sim->caps[SIM_CAP_DEV_MEM_TYPE],
				   PRM_BIT_OFF(device_mem_cap,
					       log_sw_icm_alloc_granularity),
				   PRM_BIT_SZ(device_mem_cap,
					      log_sw_icm_alloc_granularity));
	struct sim_sw_icm *icm = priv;

	/* a user context needs what CAP_SYS_RAWIO gets it at creation */
	if (!(sim_uctx_cap(sim, ctx->uid) & MLX5_UCTX_CAP_INTERNAL_DEV_RES))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_ICM_PRIV);
	if (PRM_GET64(sw_icm, obj, modify_field_select))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (log < granule || log >= 64 || start & (BIT_ULL(granule) - 1))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (!sim_icm_in_region(sim, start, BIT_ULL(log)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_ICM_RANGE);
	if (sim_icm_overlaps(sim, start, BIT_ULL(log)))
		return sim_fail(ctx, PRM_STAT_RESOURCE_BUSY,
				SIM_SYND_ICM_OVERLAP);
	icm->start = start;
	icm->log_size = log;
	return PRM_STAT_OK;
}

static u8 sim_sw_icm_query(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   const void *priv)
{
	const struct sim_sw_icm *icm = priv;
	void *obj = (u8 *)ctx->out + PRM_BYTES(general_obj_out_cmd_hdr);

	PRM_SET64(sw_icm, obj, sw_icm_start_addr, icm->start);
	PRM_SET(sw_icm, obj, log_sw_icm_size, icm->log_size);
	return PRM_STAT_OK;
}

const struct sim_gen_type sim_gen_sw_icm = {
	.obj_type = MLX5_OBJ_TYPE_SW_ICM,
	.name = "sw_icm",
	.create_inlen = PRM_BYTES(create_sw_icm_in),
	.query_outlen = PRM_BYTES(general_obj_out_cmd_hdr) +
			PRM_BYTES(sw_icm),
	.priv_size = sizeof(struct sim_sw_icm),
	.create = sim_sw_icm_create,
	.query = sim_sw_icm_query,
};
