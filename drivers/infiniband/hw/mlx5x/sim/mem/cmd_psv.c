// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * PSVs (protection signature values): CREATE_PSV, DESTROY_PSV.
 *
 * A signature mkey (bsf_en) checks or generates T10-DIF and CRC
 * signatures with two PSVs, one for the memory domain and one for the
 * wire, which hold the running signature state.  libmlx5 creates them with
 * mlx5dv_create_mkey(3) flag BLOCK_SIGNATURE, one CREATE_PSV each.  They
 * exist only where the profile offers signature offload (sho).  Each
 * belongs to a PD of its creator's, which it references.
 */
#include "psv.h"

/* A create makes 1 to 4 PSVs: psv0_index .. psv3_index. */
#define SIM_PSV_MAX_PER_CMD	4

void sim_psv_release(struct sim_obj *obj)
{
	struct sim_psv *psv = container_of(obj, struct sim_psv, obj);

	if (psv->pd)
		sim_obj_put(psv->pd);
}

static u32 sim_psv_index_off(unsigned int i)
{
	return PRM_BIT_OFF(create_psv_out, psv0_index) +
	       i * (PRM_BIT_OFF(create_psv_out, psv1_index) -
		    PRM_BIT_OFF(create_psv_out, psv0_index));
}

static u8 sim_create_psv(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u32 num = PRM_GET(create_psv_in, ctx->in, num_psv);
	u32 pdn = PRM_GET(create_psv_in, ctx->in, pd);
	const u8 bits = PRM_BIT_SZ(create_psv_out, psv0_index);
	struct sim_obj *objs[SIM_PSV_MAX_PER_CMD] = {};
	unsigned int i;
	u8 status = PRM_STAT_OK;

	if (ctx->op_mod)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	if (!SIM_CAP_GEN(sim, sho))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (!num || num > SIM_PSV_MAX_PER_CMD)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);

	for (i = 0; i < num && !status; i++) {
		struct sim_obj *pd;
		struct sim_psv *psv;

		/* the PD must be the context's own; each PSV holds it */
		status = sim_obj_ref(sim, ctx, SIM_OBJ_PD, pdn, &pd);
		if (status)
			break;
		status = sim_obj_alloc(sim, ctx, SIM_OBJ_PSV, &objs[i]);
		if (status) {
			sim_obj_put(pd);
			break;
		}
		psv = container_of(objs[i], struct sim_psv, obj);
		psv->pd = pd;
	}
	if (status) {
		/* nothing of a refused command stays */
		while (i--)
			if (objs[i])
				sim_obj_destroy(sim, ctx, SIM_OBJ_PSV,
						objs[i]->id);
		return status;
	}
	for (i = 0; i < num; i++)
		prm_set_bits(ctx->out, sim_psv_index_off(i), bits,
			     objs[i]->id);
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_psv_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_PSV, "CREATE_PSV", create_psv_in,
		create_psv_out, true, sim_create_psv),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_PSV, "DESTROY_PSV", destroy_psv_in,
		     destroy_psv_out, SIM_OBJ_PSV, psvn),
};

const struct sim_cmd_set sim_psv_cmds = {
	sim_psv_cmd_list, ARRAY_SIZE(sim_psv_cmd_list)
};
