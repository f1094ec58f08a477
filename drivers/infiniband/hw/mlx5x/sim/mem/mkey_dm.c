// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Mkeys over device memory, as ibv_reg_dm_mr() makes them: access mode
 * MEMIC covers part of one MEMIC allocation (start_addr is its BAR
 * offset), access mode SW_ICM part of one SW_ICM object of the context
 * (start_addr is the ICM address); an empty one (len 0, which
 * ibv_reg_dm_mr() allows) must start inside one.  Neither has a
 * translation table; the
 * allocation or object is referenced, so it cannot be freed under the
 * mkey.
 */
#include <linux/overflow.h>
#include "mkey.h"
#include "dm.h"
#include "../core/general.h"

/**
 * sim_mkey_dm() - check a device memory mkey and reference what it covers
 * @sim: the model
 * @ctx: the CREATE_MKEY command
 * @mkey: the mkey being built; @mkey->access_mode is MEMIC or SW_ICM
 * @octwords: its translation table size, which must be 0
 *
 * Return: a PRM status.
 */
u8 sim_mkey_dm(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       struct sim_mkey *mkey, u64 octwords)
{
	const void *in = ctx->in;
	const void *mkc = PRM_ADDR(create_mkey_in, in, memory_key_mkey_entry);
	u64 start = PRM_GET64(mkc, mkc, start_addr);
	/* an empty mkey still names a byte of the allocation */
	u64 len = max_t(u64, PRM_GET64(mkc, mkc, len), 1);
	struct sim_general *gen;
	struct sim_memic *m;
	u64 end;

	if (octwords || PRM_GET(create_mkey_in, in, mkey_umem_valid) ||
	    PRM_GET(mkc, mkc, free) ||
	    check_add_overflow(start, len - 1, &end))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (mkey->access_mode == MLX5_MKC_ACCESS_MODE_MEMIC) {
		m = sim_memic_find(sim, start, len);
		if (!m)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_MEMIC_RANGE);
		return sim_obj_ref(sim, ctx, SIM_OBJ_MEMIC, m->obj.id,
				   &mkey->dm);
	}
	gen = sim_sw_icm_find(sim, start, len);
	if (!gen)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_ICM_RANGE);
	return sim_obj_ref(sim, ctx, SIM_OBJ_GENERAL, gen->obj.id, &mkey->dm);
}
