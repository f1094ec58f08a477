// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Protection domains and transport domains. */
#include "sim_priv.h"

static u8 sim_alloc_pd(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_alloc(sim, ctx, SIM_OBJ_PD, &obj);
	if (status)
		return status;
	PRM_SET(alloc_pd_out, ctx->out, pd, obj->id);
	return PRM_STAT_OK;
}

static u8 sim_dealloc_pd(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	return sim_obj_destroy(sim, ctx, SIM_OBJ_PD,
			       PRM_GET(dealloc_pd_in, ctx->in, pd));
}

static u8 sim_alloc_td(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_alloc(sim, ctx, SIM_OBJ_TD, &obj);
	if (status)
		return status;
	PRM_SET(alloc_transport_domain_out, ctx->out, transport_domain,
		obj->id);
	return PRM_STAT_OK;
}

static u8 sim_dealloc_td(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	return sim_obj_destroy(sim, ctx, SIM_OBJ_TD,
			       PRM_GET(dealloc_transport_domain_in, ctx->in,
				       transport_domain));
}

static const struct sim_cmd sim_pd_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_ALLOC_PD, "ALLOC_PD", alloc_pd_in, alloc_pd_out,
		true, sim_alloc_pd),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DEALLOC_PD, "DEALLOC_PD", dealloc_pd_in,
		dealloc_pd_out, true, sim_dealloc_pd),
	SIM_CMD(MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN, "ALLOC_TRANSPORT_DOMAIN",
		alloc_transport_domain_in, alloc_transport_domain_out, true,
		sim_alloc_td),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
		"DEALLOC_TRANSPORT_DOMAIN", dealloc_transport_domain_in,
		dealloc_transport_domain_out, true, sim_dealloc_td),
};

const struct sim_cmd_set sim_pd_cmds = {
	sim_pd_cmd_list, ARRAY_SIZE(sim_pd_cmd_list)
};
