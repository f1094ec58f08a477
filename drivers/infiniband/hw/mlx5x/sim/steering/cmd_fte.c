// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow table entries: SET_FLOW_TABLE_ENTRY (op_mod 0 creates, op_mod 1
 * modifies the parts modify_enable_mask selects), DELETE_FTE and
 * QUERY_FTE.  An entry sits at a flow index inside one group of its table,
 * matches a value within the group's mask (no two entries of a group on
 * the same value), and holds a reference on everything it names:
 * destinations, counters, modify header and packet reformat contexts.
 */
#include <linux/slab.h>
#include "fs.h"

enum {
	SIM_FTE_CREATE = 0,
	SIM_FTE_MODIFY = 1,
};

/* The parts of an entry modify_enable_mask may select. */
#define SIM_FTE_PART(b)		BIT(MLX5_SET_FTE_MODIFY_ENABLE_MASK_##b)
#define SIM_FTE_ALL_PARTS	(SIM_FTE_PART(ACTION) | SIM_FTE_PART(FLOW_TAG) | \
				 SIM_FTE_PART(DESTINATION_LIST) |	\
				 SIM_FTE_PART(FLOW_COUNTERS))

#define SIM_FTE_ENTRY_BYTES	PRM_BYTES(dest_format_struct)

const struct rhashtable_params sim_fte_ht_params = {
	.key_len = SIM_FS_MATCH_BYTES,
	.key_offset = offsetof(struct sim_fte, value),
	.head_offset = offsetof(struct sim_fte, hnode),
	.automatic_shrinking = true,
};

/**
 * sim_fte_lookup() - the entry of a group that matches a value
 * @fg: the group
 * @value: a match value already masked with @fg->mask
 *
 * Return: the entry, or NULL.  A hash lookup: no entry is scanned.
 */
struct sim_fte *sim_fte_lookup(struct sim_flow_group *fg, const void *value)
{
	return rhashtable_lookup_fast(&fg->entries, value, sim_fte_ht_params);
}

static void sim_fte_acts_free(struct sim_fte_acts *a)
{
	u32 i;

	for (i = 0; i < a->ndest; i++)
		sim_obj_put(a->dest[i].obj);
	for (i = 0; i < a->ncounter; i++)
		sim_obj_put(a->counter[i].obj);
	sim_obj_put(a->reformat);
	sim_obj_put(a->modhdr);
	kfree(a->dest);
	kfree(a->counter);
	memset(a, 0, sizeof(*a));
}

/* An object the caller already references, referenced once more. */
static struct sim_obj *sim_fs_get(struct sim_obj *obj)
{
	if (obj)
		obj->users++;
	return obj;
}

static u8 sim_fte_dest_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   struct sim_flow_table *ft, bool ignore_level,
			   const void *d, struct sim_fte_dest *dest)
{
	u32 type = PRM_GET(dest_format_struct, d, destination_type);
	u32 id = PRM_GET(dest_format_struct, d, destination_id);
	struct sim_flow_table *to;
	struct sim_obj *obj;
	u8 status;

	if (PRM_GET(dest_format_struct, d,
		    destination_eswitch_owner_vhca_id_valid) ||
	    PRM_GET(dest_format_struct, d, packet_reformat) ||
	    PRM_GET(dest_format_struct, d, destination_eswitch_owner_vhca_id))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	switch (type) {
	case MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE:
		status = sim_obj_ref(sim, ctx, SIM_OBJ_FLOW_TABLE, id, &obj);
		if (status)
			return status;
		to = container_of(obj, struct sim_flow_table, obj);
		if (to->type != ft->type || to == ft ||
		    (!ignore_level && to->level <= ft->level)) {
			sim_obj_put(obj);
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		}
		break;
	case MLX5_IFC_FLOW_DESTINATION_TYPE_TIR:
		/* received packets, or a sniffer's copies of either way */
		if (ft->type != MLX5_FLOW_TABLE_TYPE_NIC_RX &&
		    ft->type != MLX5_FLOW_TABLE_TYPE_SNIFFER_RX &&
		    ft->type != MLX5_FLOW_TABLE_TYPE_SNIFFER_TX)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		status = sim_obj_ref(sim, ctx, SIM_OBJ_TIR, id, &obj);
		if (status)
			return status;
		break;
	default:
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	}
	dest->type = type;
	dest->id = id;
	dest->obj = obj;
	return PRM_STAT_OK;
}

/* The destination list of a SET_FTE mailbox: @n entries at @list. */
static u8 sim_fte_dests_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    struct sim_flow_table *ft, bool ignore_level,
			    const u8 *list, u32 n, struct sim_fte_acts *a)
{
	u8 status;

	if (!n)
		return PRM_STAT_OK;
	a->dest = kcalloc(n, sizeof(*a->dest), GFP_KERNEL);
	if (!a->dest)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	for (a->ndest = 0; a->ndest < n; a->ndest++) {
		status = sim_fte_dest_get(sim, ctx, ft, ignore_level,
					  list + a->ndest * SIM_FTE_ENTRY_BYTES,
					  &a->dest[a->ndest]);
		if (status)
			return status;
	}
	return PRM_STAT_OK;
}

static u8 sim_fte_counters_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			       const u8 *list, u32 n, struct sim_fte_acts *a)
{
	u8 status;

	if (!n)
		return PRM_STAT_OK;
	a->counter = kcalloc(n, sizeof(*a->counter), GFP_KERNEL);
	if (!a->counter)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	for (a->ncounter = 0; a->ncounter < n; a->ncounter++) {
		struct sim_fte_counter *c = &a->counter[a->ncounter];

		c->id = PRM_GET(flow_counter_list,
				list + a->ncounter * SIM_FTE_ENTRY_BYTES,
				flow_counter_id);
		status = sim_flow_counter_ref(sim, ctx, c->id, &c->obj);
		if (status)
			return status;
	}
	return PRM_STAT_OK;
}

/* Copy the parts @parts does not select from @old, referenced anew. */
static u8 sim_fte_acts_inherit(struct sim_cmd_ctx *ctx,
			       const struct sim_fte_acts *old, u32 parts,
			       struct sim_fte_acts *a)
{
	u32 i;

	if (!(parts & SIM_FTE_PART(ACTION))) {
		a->action = old->action;
		a->reformat = sim_fs_get(old->reformat);
		a->modhdr = sim_fs_get(old->modhdr);
	}
	if (!(parts & SIM_FTE_PART(FLOW_TAG)))
		a->flow_tag = old->flow_tag;
	if (!(parts & SIM_FTE_PART(DESTINATION_LIST)) && old->ndest) {
		a->dest = kmemdup(old->dest, old->ndest * sizeof(*a->dest),
				  GFP_KERNEL);
		if (!a->dest)
			return sim_fail(ctx, PRM_STAT_NO_RESOURCES,
					SIM_SYND_NO_MEM);
		a->ndest = old->ndest;
		for (i = 0; i < a->ndest; i++)
			sim_fs_get(a->dest[i].obj);
	}
	if (!(parts & SIM_FTE_PART(FLOW_COUNTERS)) && old->ncounter) {
		a->counter = kmemdup(old->counter,
				     old->ncounter * sizeof(*a->counter),
				     GFP_KERNEL);
		if (!a->counter)
			return sim_fail(ctx, PRM_STAT_NO_RESOURCES,
					SIM_SYND_NO_MEM);
		a->ncounter = old->ncounter;
		for (i = 0; i < a->ncounter; i++)
			sim_fs_get(a->counter[i].obj);
	}
	return PRM_STAT_OK;
}

/* The contexts the action bits name, referenced. */
static u8 sim_fte_contexts_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			       struct sim_flow_table *ft, const void *fc,
			       struct sim_fte_acts *a)
{
	struct sim_modify_hdr *mh;
	u8 status;

	if (a->action & MLX5_FLOW_CONTEXT_ACTION_PACKET_REFORMAT) {
		status = sim_obj_ref(sim, ctx, SIM_OBJ_PKT_REFORMAT,
				     PRM_GET(flow_context, fc,
					     packet_reformat_id),
				     &a->reformat);
		if (status)
			return status;
		if (!ft->reformat_en ||
		    !sim_fs_reformat_ok(sim, ft->type,
					container_of(a->reformat,
						     struct sim_pkt_reformat,
						     obj)->type))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
	}
	if (a->action & MLX5_FLOW_CONTEXT_ACTION_MOD_HDR) {
		status = sim_obj_ref(sim, ctx, SIM_OBJ_MODIFY_HDR,
				     PRM_GET(flow_context, fc,
					     modify_header_id),
				     &a->modhdr);
		if (status)
			return status;
		mh = container_of(a->modhdr, struct sim_modify_hdr, obj);
		if (mh->table_type != ft->type)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
	}
	return PRM_STAT_OK;
}

/* The whole of what an entry does is consistent and offered. */
static bool sim_fte_acts_valid(struct mlx5x_sim *sim,
			       struct sim_flow_table *ft,
			       const struct sim_fte_acts *a)
{
	u16 fate = a->action & (MLX5_FLOW_CONTEXT_ACTION_ALLOW |
				MLX5_FLOW_CONTEXT_ACTION_DROP |
				MLX5_FLOW_CONTEXT_ACTION_FWD_DEST);
	bool count = a->action & MLX5_FLOW_CONTEXT_ACTION_COUNT;
	bool fwd = a->action & MLX5_FLOW_CONTEXT_ACTION_FWD_DEST;

	if (a->action & ~SIM_FS_ACTIONS || hweight16(fate) > 1)
		return false;
	if (fwd != !!a->ndest || count != !!a->ncounter)
		return false;
	if (count && !SIM_FS_PROP(sim, ft->type, flow_counter))
		return false;
	return !(a->reformat && a->modhdr) ||
	       SIM_FS_PROP(sim, ft->type, reformat_and_modify_action);
}

/*
 * Build in @a what a SET_FTE mailbox makes the entry do: the parts
 * @parts selects from the mailbox, the others from @old.  On error, @a
 * holds what was taken so far; the caller frees it.
 */
static u8 sim_fte_acts_build(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     struct sim_flow_table *ft, u32 parts,
			     const struct sim_fte_acts *old,
			     struct sim_fte_acts *a)
{
	const void *in = ctx->in;
	const void *fc = PRM_ADDR(set_fte_in, in, flow_context);
	const u8 *list = (const u8 *)in + PRM_BYTES(set_fte_in);
	u32 ndest = PRM_GET(flow_context, fc, destination_list_size);
	u32 ncnt = PRM_GET(flow_context, fc, flow_counter_list_size);
	bool ignore_level = PRM_GET(set_fte_in, in, ignore_flow_level);
	u8 status;

	if (PRM_GET(flow_context, fc, extended_destination) ||
	    PRM_GET(flow_context, fc, flow_source) ||
	    PRM_GET(flow_context, fc, encrypt_decrypt_type) ||
	    ndest > BIT(SIM_FS_PROP(sim, ft->type, log_max_destination)) ||
	    ncnt > BIT(SIM_FS_PROP(sim, ft->type, log_max_flow_counter)) ||
	    (ignore_level && !SIM_FS_PROP(sim, ft->type, ignore_flow_level)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (ctx->inlen < PRM_BYTES(set_fte_in) +
			 (size_t)(ndest + ncnt) * SIM_FTE_ENTRY_BYTES)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN, SIM_SYND_BAD_INLEN);

	if (old) {
		status = sim_fte_acts_inherit(ctx, old, parts, a);
		if (status)
			return status;
	}
	if (parts & SIM_FTE_PART(ACTION)) {
		a->action = PRM_GET(flow_context, fc, action);
		if (a->action & ~SIM_FS_ACTIONS)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		status = sim_fte_contexts_get(sim, ctx, ft, fc, a);
		if (status)
			return status;
	}
	if (parts & SIM_FTE_PART(FLOW_TAG))
		a->flow_tag = PRM_GET(flow_context, fc, flow_tag);
	if (parts & SIM_FTE_PART(DESTINATION_LIST)) {
		status = sim_fte_dests_get(sim, ctx, ft, ignore_level, list,
					   ndest, a);
		if (status)
			return status;
	}
	if (parts & SIM_FTE_PART(FLOW_COUNTERS)) {
		status = sim_fte_counters_get(sim, ctx,
					      list + ndest * SIM_FTE_ENTRY_BYTES,
					      ncnt, a);
		if (status)
			return status;
	}
	if (!sim_fte_acts_valid(sim, ft, a))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

/* value & ~mask == 0: the value names only bits the group matches on. */
static bool sim_fs_value_within(const u8 *value, const u8 *mask)
{
	unsigned int i;

	for (i = 0; i < SIM_FS_MATCH_BYTES; i++)
		if (value[i] & ~mask[i])
			return false;
	return true;
}

void sim_fte_release(struct sim_obj *obj)
{
	struct sim_fte *fte = container_of(obj, struct sim_fte, obj);
	struct sim_flow_group *fg = fte->fg;

	sim_fte_acts_free(&fte->acts);
	if (!fg)
		return;
	rhashtable_remove_fast(&fg->entries, &fte->hnode, sim_fte_ht_params);
	xa_cmpxchg(&fg->ft->ftes, fte->flow_index, fte, NULL, GFP_KERNEL);
	fg->nentries--;
	sim_obj_put(&fg->obj);
}

static u8 sim_fte_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			 struct sim_flow_table *ft, u32 index)
{
	const void *fc = PRM_ADDR(set_fte_in, ctx->in, flow_context);
	const u8 *value = PRM_ADDR(flow_context, fc, match_value);
	struct sim_fte_acts acts = {};
	struct sim_flow_group *fg;
	struct sim_obj *obj, *gobj;
	struct sim_fte *fte;
	u8 status;
	int err;

	status = sim_obj_lookup(sim, ctx, SIM_OBJ_FLOW_GROUP,
				PRM_GET(flow_context, fc, group_id), &gobj);
	if (status)
		return status;
	fg = container_of(gobj, struct sim_flow_group, obj);
	if (fg->ft != ft || index < fg->start || index > fg->end ||
	    xa_load(&ft->ftes, index) || !sim_fs_value_within(value, fg->mask))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (sim_fte_lookup(fg, value))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_DUP_MATCH);
	status = sim_fte_acts_build(sim, ctx, ft, SIM_FTE_ALL_PARTS, NULL,
				    &acts);
	if (status)
		goto err_acts;
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_FTE, &obj);
	if (status)
		goto err_acts;
	fte = container_of(obj, struct sim_fte, obj);
	fte->acts = acts;
	fte->flow_index = index;
	memcpy(fte->value, value, SIM_FS_MATCH_BYTES);
	fte->fg = fg;
	fg->obj.users++;	/* looked up above, as this uid's own */
	fg->nentries++;
	err = rhashtable_insert_fast(&fg->entries, &fte->hnode,
				     sim_fte_ht_params);
	if (!err)
		err = xa_insert(&ft->ftes, index, fte, GFP_KERNEL);
	if (err) {
		sim_obj_destroy(sim, ctx, SIM_OBJ_FTE, obj->id);
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	}
	return PRM_STAT_OK;

err_acts:
	sim_fte_acts_free(&acts);
	return status;
}

static u8 sim_fte_modify(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			 struct sim_flow_table *ft, u32 index)
{
	const void *fc = PRM_ADDR(set_fte_in, ctx->in, flow_context);
	u32 parts = PRM_GET(set_fte_in, ctx->in, modify_enable_mask);
	struct sim_fte_acts acts = {};
	struct sim_fte *fte;
	u8 status;

	fte = xa_load(&ft->ftes, index);
	if (!fte)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	if (!SIM_FS_PROP(sim, ft->type, flow_modify_en) ||
	    parts & ~SIM_FTE_ALL_PARTS ||
	    PRM_GET(flow_context, fc, group_id) != fte->fg->obj.id ||
	    memcmp(PRM_ADDR(flow_context, fc, match_value), fte->value,
		   SIM_FS_MATCH_BYTES))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_fte_acts_build(sim, ctx, ft, parts, &fte->acts, &acts);
	if (status) {
		sim_fte_acts_free(&acts);
		return status;
	}
	sim_fte_acts_free(&fte->acts);
	fte->acts = acts;
	return PRM_STAT_OK;
}

static u8 sim_set_fte(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	u32 index = PRM_GET(set_fte_in, in, flow_index);
	struct sim_flow_table *ft;
	u8 status;

	status = sim_fs_own_vport(ctx, PRM_GET(set_fte_in, in, other_vport),
				  PRM_GET(set_fte_in, in, vport_number));
	if (status)
		return status;
	status = sim_flow_table_get(sim, ctx,
				    PRM_GET(set_fte_in, in, table_type),
				    PRM_GET(set_fte_in, in, table_id), &ft);
	if (status)
		return status;
	if (index >= BIT_ULL(ft->log_size))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	switch (ctx->op_mod) {
	case SIM_FTE_CREATE:
		if (PRM_GET(set_fte_in, in, modify_enable_mask))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		return sim_fte_create(sim, ctx, ft, index);
	case SIM_FTE_MODIFY:
		return sim_fte_modify(sim, ctx, ft, index);
	default:
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	}
}

/* The entry at a flow index of a table the command's uid owns. */
static u8 sim_fte_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		      u32 type, u32 table_id, u32 index, struct sim_fte **ftep)
{
	struct sim_flow_table *ft;
	u8 status;

	status = sim_flow_table_get(sim, ctx, type, table_id, &ft);
	if (status)
		return status;
	*ftep = xa_load(&ft->ftes, index);
	if (!*ftep)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	return PRM_STAT_OK;
}

static u8 sim_delete_fte(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	struct sim_fte *fte;
	u8 status;

	status = sim_fs_own_vport(ctx, PRM_GET(delete_fte_in, in, other_vport),
				  PRM_GET(delete_fte_in, in, vport_number));
	if (status)
		return status;
	status = sim_fte_get(sim, ctx, PRM_GET(delete_fte_in, in, table_type),
			     PRM_GET(delete_fte_in, in, table_id),
			     PRM_GET(delete_fte_in, in, flow_index), &fte);
	if (status)
		return status;
	return sim_obj_destroy(sim, ctx, SIM_OBJ_FTE, fte->obj.id);
}

static u8 sim_query_fte(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	void *fc = PRM_ADDR(query_fte_out, ctx->out, flow_context);
	const struct sim_fte_acts *a;
	struct sim_fte *fte;
	u8 *list;
	u32 i;
	u8 status;

	status = sim_fte_get(sim, ctx, PRM_GET(query_fte_in, in, table_type),
			     PRM_GET(query_fte_in, in, table_id),
			     PRM_GET(query_fte_in, in, flow_index), &fte);
	if (status)
		return status;
	a = &fte->acts;
	if (ctx->outlen < PRM_BYTES(query_fte_out) +
			  (size_t)(a->ndest + a->ncounter) *
			  SIM_FTE_ENTRY_BYTES)
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN,
				SIM_SYND_BAD_OUTLEN);
	PRM_SET(flow_context, fc, group_id, fte->fg->obj.id);
	PRM_SET(flow_context, fc, flow_tag, a->flow_tag);
	PRM_SET(flow_context, fc, action, a->action);
	PRM_SET(flow_context, fc, destination_list_size, a->ndest);
	PRM_SET(flow_context, fc, flow_counter_list_size, a->ncounter);
	if (a->reformat)
		PRM_SET(flow_context, fc, packet_reformat_id, a->reformat->id);
	if (a->modhdr)
		PRM_SET(flow_context, fc, modify_header_id, a->modhdr->id);
	memcpy(PRM_ADDR(flow_context, fc, match_value), fte->value,
	       SIM_FS_MATCH_BYTES);
	list = (u8 *)ctx->out + PRM_BYTES(query_fte_out);
	for (i = 0; i < a->ndest; i++, list += SIM_FTE_ENTRY_BYTES) {
		PRM_SET(dest_format_struct, list, destination_type,
			a->dest[i].type);
		PRM_SET(dest_format_struct, list, destination_id,
			a->dest[i].id);
	}
	for (i = 0; i < a->ncounter; i++, list += SIM_FTE_ENTRY_BYTES)
		PRM_SET(flow_counter_list, list, flow_counter_id,
			a->counter[i].id);
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_fte_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY, "SET_FLOW_TABLE_ENTRY",
		set_fte_in, set_fte_out, true, sim_set_fte),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY,
			"DELETE_FLOW_TABLE_ENTRY", delete_fte_in,
			delete_fte_out, true, sim_delete_fte),
	SIM_CMD(MLX5_CMD_OP_QUERY_FLOW_TABLE_ENTRY, "QUERY_FLOW_TABLE_ENTRY",
		query_fte_in, query_fte_out, true, sim_query_fte),
};

const struct sim_cmd_set sim_fte_cmds = {
	sim_fte_cmd_list, ARRAY_SIZE(sim_fte_cmd_list)
};
