// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow tables: CREATE, DESTROY, QUERY and MODIFY_FLOW_TABLE.  A table has
 * a type (NIC RX or TX, sniffer, RDMA RX or TX), a level, a size, and what
 * happens on a miss: the type's default, the next domain (RDMA RX, when
 * its capabilities say so: where its default goes too), or the next
 * table, which must be of the same type and a deeper level, so misses
 * never loop.
 */
#include "fs.h"

/**
 * sim_flow_table_get() - find a table a command names
 * @sim: the model
 * @ctx: the command
 * @type: the table_type it gives
 * @id: the table_id it gives
 * @ftp: the table
 *
 * The command's uid must own the table, and the type must be the table's.
 *
 * Return: a PRM status.
 */
u8 sim_flow_table_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		      u32 type, u32 id, struct sim_flow_table **ftp)
{
	struct sim_obj *obj;
	u8 status;

	if (!sim_fs_prop(sim, type))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_obj_lookup(sim, ctx, SIM_OBJ_FLOW_TABLE, id, &obj);
	if (status)
		return status;
	*ftp = container_of(obj, struct sim_flow_table, obj);
	if ((*ftp)->type != type)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	return PRM_STAT_OK;
}

/*
 * The miss table a flow_table_context names for a table of @type at
 * @level: referenced, or NULL for the default miss action or a switch of
 * domain (*@domain set).
 */
static u8 sim_fs_miss_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			  u32 type, u32 level, const void *ftc,
			  struct sim_flow_table **missp, bool *domain)
{
	u32 action = PRM_GET(flow_table_context, ftc, table_miss_action);
	u32 id = PRM_GET(flow_table_context, ftc, table_miss_id);
	struct sim_flow_table *miss;
	struct sim_obj *obj;
	u8 status;

	*missp = NULL;
	*domain = false;
	if (action == MLX5_FLOW_TABLE_MISS_ACTION_DEF)
		return PRM_STAT_OK;
	if (action == MLX5_FLOW_TABLE_MISS_ACTION_SWITCH_DOMAIN &&
	    SIM_FS_PROP(sim, type, table_miss_action_domain)) {
		*domain = true;
		return PRM_STAT_OK;
	}
	if (action != MLX5_FLOW_TABLE_MISS_ACTION_FWD ||
	    !SIM_FS_PROP(sim, type, identified_miss_table_mode))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_obj_ref(sim, ctx, SIM_OBJ_FLOW_TABLE, id, &obj);
	if (status)
		return status;
	miss = container_of(obj, struct sim_flow_table, obj);
	if (miss->type != type || miss->level <= level) {
		sim_obj_put(obj);
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	}
	*missp = miss;
	return PRM_STAT_OK;
}

/* Fields of a table's context the model does not offer. */
static bool sim_fs_ctx_supported(struct mlx5x_sim *sim, u32 type,
				 const void *ftc)
{
	bool reformat = SIM_FS_PROP(sim, type, reformat) ||
			SIM_FS_PROP(sim, type, reformat_l3_tunnel_to_l2) ||
			SIM_FS_PROP(sim, type, reformat_l2_to_l3_tunnel);

	if (PRM_GET(flow_table_context, ftc, sw_owner) ||
	    PRM_GET(flow_table_context, ftc, termination_table) ||
	    PRM_GET(flow_table_context, ftc, decap_en) ||
	    PRM_GET(flow_table_context, ftc, lag_master_next_table_id))
		return false;
	if (PRM_GET(flow_table_context, ftc, reformat_en) && !reformat)
		return false;
	if (PRM_GET(flow_table_context, ftc, level) >
	    SIM_FS_PROP(sim, type, max_ft_level))
		return false;
	return PRM_GET(flow_table_context, ftc, log_size) <=
	       SIM_FS_PROP(sim, type, log_max_ft_size);
}

static u8 sim_create_flow_table(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *ftc = PRM_ADDR(create_flow_table_in, in, flow_table_context);
	u32 type = PRM_GET(create_flow_table_in, in, table_type);
	u32 level = PRM_GET(flow_table_context, ftc, level);
	struct sim_flow_table *ft, *miss;
	struct sim_obj *obj;
	bool domain;
	u8 status;

	status = sim_fs_own_vport(ctx,
				  PRM_GET(create_flow_table_in, in, other_vport),
				  PRM_GET(create_flow_table_in, in,
					  vport_number));
	if (status)
		return status;
	if (!sim_fs_prop(sim, type) || !sim_fs_ctx_supported(sim, type, ftc))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_fs_miss_get(sim, ctx, type, level, ftc, &miss, &domain);
	if (status)
		return status;
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_FLOW_TABLE, &obj);
	if (status) {
		sim_obj_put(miss ? &miss->obj : NULL);
		return status;
	}
	ft = container_of(obj, struct sim_flow_table, obj);
	ft->type = type;
	ft->level = level;
	ft->log_size = PRM_GET(flow_table_context, ftc, log_size);
	ft->reformat_en = PRM_GET(flow_table_context, ftc, reformat_en);
	ft->miss = miss;
	ft->miss_domain = domain;
	INIT_LIST_HEAD(&ft->groups);
	xa_init(&ft->ftes);
	PRM_SET(create_flow_table_out, ctx->out, table_id, obj->id);
	return PRM_STAT_OK;
}

void sim_flow_table_release(struct sim_obj *obj)
{
	struct sim_flow_table *ft = container_of(obj, struct sim_flow_table,
						 obj);

	sim_obj_put(ft->miss ? &ft->miss->obj : NULL);
	xa_destroy(&ft->ftes);
}

static u8 sim_destroy_flow_table(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	struct sim_flow_table *ft;
	u8 status;

	status = sim_fs_own_vport(ctx,
				  PRM_GET(destroy_flow_table_in, in,
					  other_vport),
				  PRM_GET(destroy_flow_table_in, in,
					  vport_number));
	if (status)
		return status;
	status = sim_flow_table_get(sim, ctx,
				    PRM_GET(destroy_flow_table_in, in,
					    table_type),
				    PRM_GET(destroy_flow_table_in, in, table_id),
				    &ft);
	if (status)
		return status;
	return sim_obj_destroy(sim, ctx, SIM_OBJ_FLOW_TABLE, ft->obj.id);
}

static void sim_flow_table_fill(struct sim_flow_table *ft, void *ftc)
{
	PRM_SET(flow_table_context, ftc, reformat_en, ft->reformat_en);
	PRM_SET(flow_table_context, ftc, level, ft->level);
	PRM_SET(flow_table_context, ftc, log_size, ft->log_size);
	if (ft->miss) {
		PRM_SET(flow_table_context, ftc, table_miss_action,
			MLX5_FLOW_TABLE_MISS_ACTION_FWD);
		PRM_SET(flow_table_context, ftc, table_miss_id,
			ft->miss->obj.id);
	} else if (ft->miss_domain) {
		PRM_SET(flow_table_context, ftc, table_miss_action,
			MLX5_FLOW_TABLE_MISS_ACTION_SWITCH_DOMAIN);
	}
}

static u8 sim_query_flow_table(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_flow_table *ft;
	u8 status;

	status = sim_flow_table_get(sim, ctx,
				    PRM_GET(query_flow_table_in, ctx->in,
					    table_type),
				    PRM_GET(query_flow_table_in, ctx->in,
					    table_id), &ft);
	if (status)
		return status;
	sim_flow_table_fill(ft, PRM_ADDR(query_flow_table_out, ctx->out,
					 flow_table_context));
	return PRM_STAT_OK;
}

/* Only the miss table may change; the rest of the context is ignored. */
static u8 sim_modify_flow_table(struct mlx5x_sim *sim,
				struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *ftc = PRM_ADDR(modify_flow_table_in, in,
				   flow_table_context);
	u32 select = PRM_GET(modify_flow_table_in, in, modify_field_select);
	struct sim_flow_table *ft, *miss;
	bool domain;
	u8 status;

	status = sim_fs_own_vport(ctx,
				  PRM_GET(modify_flow_table_in, in,
					  other_vport),
				  PRM_GET(modify_flow_table_in, in,
					  vport_number));
	if (status)
		return status;
	status = sim_flow_table_get(sim, ctx,
				    PRM_GET(modify_flow_table_in, in,
					    table_type),
				    PRM_GET(modify_flow_table_in, in, table_id),
				    &ft);
	if (status)
		return status;
	if (select != MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID ||
	    !SIM_FS_PROP(sim, ft->type, flow_table_modify))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_fs_miss_get(sim, ctx, ft->type, ft->level, ftc, &miss,
				 &domain);
	if (status)
		return status;
	sim_obj_put(ft->miss ? &ft->miss->obj : NULL);
	ft->miss = miss;
	ft->miss_domain = domain;
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_flow_table_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_FLOW_TABLE, "CREATE_FLOW_TABLE",
		create_flow_table_in, create_flow_table_out, true,
		sim_create_flow_table),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DESTROY_FLOW_TABLE, "DESTROY_FLOW_TABLE",
			destroy_flow_table_in, destroy_flow_table_out, true,
			sim_destroy_flow_table),
	SIM_CMD(MLX5_CMD_OP_QUERY_FLOW_TABLE, "QUERY_FLOW_TABLE",
		query_flow_table_in, query_flow_table_out, true,
		sim_query_flow_table),
	SIM_CMD(MLX5_CMD_OP_MODIFY_FLOW_TABLE, "MODIFY_FLOW_TABLE",
		modify_flow_table_in, modify_flow_table_out, true,
		sim_modify_flow_table),
};

const struct sim_cmd_set sim_flow_table_cmds = {
	sim_flow_table_cmd_list, ARRAY_SIZE(sim_flow_table_cmd_list)
};
