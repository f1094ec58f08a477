// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow groups: CREATE, DESTROY and QUERY_FLOW_GROUP.  A group owns a range
 * of a table's flow indexes, overlapping no other group of the table, and
 * the mask its entries match with.  It keeps its entries in a hash table
 * keyed on their masked value (cmd_fte.c).
 */
#include "fs.h"

/* Where each match_criteria_enable bit's section lies in fte_match_param. */
#define SIM_FS_SECTION(fld, typ) \
	{ PRM_BYTE_OFF(fte_match_param, fld), PRM_BYTES(typ) }

static const struct {
	u16 off;
	u16 len;
} sim_fs_sections[] = {
	SIM_FS_SECTION(outer_headers, fte_match_set_lyr_2_4),
	SIM_FS_SECTION(misc_parameters, fte_match_set_misc),
	SIM_FS_SECTION(inner_headers, fte_match_set_lyr_2_4),
	SIM_FS_SECTION(misc_parameters_2, fte_match_set_misc2),
	SIM_FS_SECTION(misc_parameters_3, fte_match_set_misc3),
	SIM_FS_SECTION(misc_parameters_4, fte_match_set_misc4),
	SIM_FS_SECTION(misc_parameters_5, fte_match_set_misc5),
};

/* Every set bit of @mask lies in a section @criteria enables. */
static bool sim_fs_mask_within(u8 criteria, const u8 *mask)
{
	unsigned int i, b, pos = 0;

	for (i = 0; i < ARRAY_SIZE(sim_fs_sections); i++) {
		/* bytes before this section belong to none */
		for (; pos < sim_fs_sections[i].off; pos++)
			if (mask[pos])
				return false;
		pos = sim_fs_sections[i].off + sim_fs_sections[i].len;
		if (criteria & BIT(i))
			continue;
		for (b = sim_fs_sections[i].off; b < pos; b++)
			if (mask[b])
				return false;
	}
	for (; pos < SIM_FS_MATCH_BYTES; pos++)
		if (mask[pos])
			return false;
	return true;
}

static bool sim_fs_overlaps(struct sim_flow_table *ft, u32 start, u32 end,
			    struct list_head **after)
{
	struct sim_flow_group *fg;

	*after = &ft->groups;
	list_for_each_entry(fg, &ft->groups, node) {
		if (start <= fg->end && fg->start <= end)
			return true;
		if (fg->end < start)
			*after = &fg->node;
	}
	return false;
}

static u8 sim_create_flow_group(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const u8 *mask = PRM_ADDR(create_flow_group_in, in, match_criteria);
	u32 start = PRM_GET(create_flow_group_in, in, start_flow_index);
	u32 end = PRM_GET(create_flow_group_in, in, end_flow_index);
	u8 criteria = PRM_GET(create_flow_group_in, in, match_criteria_enable);
	struct sim_flow_group *fg;
	struct sim_flow_table *ft;
	struct list_head *after;
	struct sim_obj *obj, *tobj;
	u8 status;

	status = sim_fs_own_vport(ctx,
				  PRM_GET(create_flow_group_in, in, other_vport),
				  PRM_GET(create_flow_group_in, in,
					  vport_number));
	if (status)
		return status;
	if (PRM_GET(create_flow_group_in, in, group_type) ||
	    PRM_GET(create_flow_group_in, in, match_definer_id) ||
	    PRM_GET(create_flow_group_in, in,
		    source_eswitch_owner_vhca_id_valid))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_flow_table_get(sim, ctx,
				    PRM_GET(create_flow_group_in, in,
					    table_type),
				    PRM_GET(create_flow_group_in, in, table_id),
				    &ft);
	if (status)
		return status;
	if (start > end || end >= BIT_ULL(ft->log_size) ||
	    sim_fs_overlaps(ft, start, end, &after) ||
	    criteria & ~sim_fs_criteria_supported(sim, ft->type) ||
	    !sim_fs_mask_within(criteria, mask))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);

	status = sim_obj_ref(sim, ctx, SIM_OBJ_FLOW_TABLE, ft->obj.id, &tobj);
	if (status)
		return status;
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_FLOW_GROUP, &obj);
	if (status)
		goto err_put;
	fg = container_of(obj, struct sim_flow_group, obj);
	if (rhashtable_init(&fg->entries, &sim_fte_ht_params)) {
		/* fg->ft unset: its release leaves the table alone */
		sim_obj_destroy(sim, ctx, SIM_OBJ_FLOW_GROUP, obj->id);
		status = sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
		goto err_put;
	}
	fg->ft = ft;
	fg->start = start;
	fg->end = end;
	fg->criteria = criteria;
	memcpy(fg->mask, mask, SIM_FS_MATCH_BYTES);
	list_add(&fg->node, after);
	PRM_SET(create_flow_group_out, ctx->out, group_id, obj->id);
	return PRM_STAT_OK;

err_put:
	sim_obj_put(tobj);
	return status;
}

void sim_flow_group_release(struct sim_obj *obj)
{
	struct sim_flow_group *fg = container_of(obj, struct sim_flow_group,
						 obj);

	if (!fg->ft)
		return;
	list_del(&fg->node);
	rhashtable_destroy(&fg->entries);
	sim_obj_put(&fg->ft->obj);
}

/* The group a command names, which must belong to the table it names. */
static u8 sim_flow_group_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     u32 type, u32 table_id, u32 group_id,
			     struct sim_flow_group **fgp)
{
	struct sim_flow_table *ft;
	struct sim_obj *obj;
	u8 status;

	status = sim_flow_table_get(sim, ctx, type, table_id, &ft);
	if (status)
		return status;
	status = sim_obj_lookup(sim, ctx, SIM_OBJ_FLOW_GROUP, group_id, &obj);
	if (status)
		return status;
	*fgp = container_of(obj, struct sim_flow_group, obj);
	if ((*fgp)->ft != ft)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	return PRM_STAT_OK;
}

static u8 sim_destroy_flow_group(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	struct sim_flow_group *fg;
	u8 status;

	status = sim_fs_own_vport(ctx,
				  PRM_GET(destroy_flow_group_in, in,
					  other_vport),
				  PRM_GET(destroy_flow_group_in, in,
					  vport_number));
	if (status)
		return status;
	status = sim_flow_group_get(sim, ctx,
				    PRM_GET(destroy_flow_group_in, in,
					    table_type),
				    PRM_GET(destroy_flow_group_in, in, table_id),
				    PRM_GET(destroy_flow_group_in, in, group_id),
				    &fg);
	if (status)
		return status;
	return sim_obj_destroy(sim, ctx, SIM_OBJ_FLOW_GROUP, fg->obj.id);
}

static u8 sim_query_flow_group(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	void *out = ctx->out;
	struct sim_flow_group *fg;
	u8 status;

	status = sim_flow_group_get(sim, ctx,
				    PRM_GET(query_flow_group_in, in, table_type),
				    PRM_GET(query_flow_group_in, in, table_id),
				    PRM_GET(query_flow_group_in, in, group_id),
				    &fg);
	if (status)
		return status;
	PRM_SET(query_flow_group_out, out, start_flow_index, fg->start);
	PRM_SET(query_flow_group_out, out, end_flow_index, fg->end);
	PRM_SET(query_flow_group_out, out, match_criteria_enable,
		fg->criteria);
	memcpy(PRM_ADDR(query_flow_group_out, out, match_criteria), fg->mask,
	       SIM_FS_MATCH_BYTES);
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_flow_group_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_FLOW_GROUP, "CREATE_FLOW_GROUP",
		create_flow_group_in, create_flow_group_out, true,
		sim_create_flow_group),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DESTROY_FLOW_GROUP, "DESTROY_FLOW_GROUP",
			destroy_flow_group_in, destroy_flow_group_out, true,
			sim_destroy_flow_group),
	SIM_CMD(MLX5_CMD_OP_QUERY_FLOW_GROUP, "QUERY_FLOW_GROUP",
		query_flow_group_in, query_flow_group_out, true,
		sim_query_flow_group),
};

const struct sim_cmd_set sim_flow_group_cmds = {
	sim_flow_group_cmd_list, ARRAY_SIZE(sim_flow_group_cmd_list)
};
