// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* User contexts: the uids that own every object a process creates. */
#include "../sim_priv.h"

static u8 sim_create_uctx(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u32 cap = PRM_GET(create_uctx_in, ctx->in, uctx.cap);
	struct sim_obj *obj;
	u8 status;

	if (ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_UID);
	if (cap & ~SIM_CAP_GEN(sim, uctx_cap))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_UCTX, &obj);
	if (status)
		return status;
	container_of(obj, struct sim_uctx, obj)->cap = cap;
	PRM_SET(create_uctx_out, ctx->out, uid, obj->id);
	return PRM_STAT_OK;
}

/**
 * sim_uctx_cap() - the capabilities a uid's context was created with
 * @sim: the model
 * @uid: a live uid; 0, the kernel, has them all
 */
u32 sim_uctx_cap(struct mlx5x_sim *sim, u16 uid)
{
	struct sim_obj *obj;

	if (!uid)
		return ~0U;
	obj = xa_load(&sim->objs[SIM_OBJ_UCTX], uid);
	return obj ? container_of(obj, struct sim_uctx, obj)->cap : 0;
}

/* A context is gone only after every object it owns is. */
static u8 sim_destroy_uctx(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u32 uid = PRM_GET(destroy_uctx_in, ctx->in, uid);

	if (ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_UID);
	if (!xa_load(&sim->objs[SIM_OBJ_UCTX], uid))
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	if (sim_uid_has_objects(sim, uid))
		return sim_fail(ctx, PRM_STAT_RESOURCE_BUSY, SIM_SYND_UID_BUSY);
	return sim_obj_destroy(sim, ctx, SIM_OBJ_UCTX, uid);
}

static const struct sim_cmd sim_uctx_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_UCTX, "CREATE_UCTX", create_uctx_in,
		create_uctx_out, false, sim_create_uctx),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DESTROY_UCTX, "DESTROY_UCTX", destroy_uctx_in,
		destroy_uctx_out, false, sim_destroy_uctx),
};

const struct sim_cmd_set sim_uctx_cmds = {
	sim_uctx_cmd_list, ARRAY_SIZE(sim_uctx_cmd_list)
};
