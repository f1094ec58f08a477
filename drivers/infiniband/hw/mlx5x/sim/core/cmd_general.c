// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CREATE/QUERY/MODIFY/DESTROY_GENERAL_OBJECT: every mailbox starts with
 * general_obj_in_cmd_hdr (obj_type, obj_id), and the obj_type picks the
 * handlers from sim_gen_types[].  The profile's general_obj_types cap
 * lists exactly these types; any other is refused as firmware refuses a
 * type it lacks: BAD_PARAM, with the syndrome of a bad op_mod (obj_type
 * sits where other commands carry op_mod).
 */
#include <linux/slab.h>
#include "general.h"

static const struct sim_gen_type *const sim_gen_types[] = {
	&sim_gen_match_definer,
	&sim_gen_flow_meter_aso,
	&sim_gen_sw_icm,
	&sim_gen_dek,
	&sim_gen_crypto_login,
	&sim_gen_av_qp_mapping,
	&sim_gen_reserved_qpn,
};

/* The type's handlers, if the profile offers it now (general_obj_types). */
static const struct sim_gen_type *sim_gen_type_of(struct mlx5x_sim *sim,
						  u16 obj_type)
{
	size_t off = PRM_BIT_OFF(cmd_hca_cap, general_obj_types);
	unsigned int i;

	if (obj_type >= 64 || !prm_get_bits(sim->caps[0], off + 63 - obj_type, 1))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(sim_gen_types); i++)
		if (sim_gen_types[i]->obj_type == obj_type)
			return sim_gen_types[i];
	return NULL;
}

/**
 * sim_general_caps() - the general object part of the profile
 * @cap: the cmd_hca_cap page
 * @cap2: the cmd_hca_cap_2 page (reserved QPN ranges)
 * @qos: the QoS capability page (flow meter limits)
 *
 * general_obj_types gets one bit per type of sim_gen_types[], and each
 * type adds its own limits.
 */
void sim_general_caps(void *cap, void *cap2, void *qos)
{
	size_t off = PRM_BIT_OFF(cmd_hca_cap, general_obj_types);
	u64 types = 0;
	unsigned int i;

	BUILD_BUG_ON(PRM_BIT_SZ(cmd_hca_cap, general_obj_types) != 64);
	for (i = 0; i < ARRAY_SIZE(sim_gen_types); i++)
		if (!WARN_ON(sim_gen_types[i]->obj_type >= 64))
			types |= BIT_ULL(sim_gen_types[i]->obj_type);
	prm_set_bits(cap, off, 32, upper_32_bits(types));
	prm_set_bits(cap, off + 32, 32, lower_32_bits(types));
	sim_match_definer_caps(cap);
	sim_flow_meter_aso_caps(qos);
	sim_reserved_qpn_caps(cap2);
}

void sim_general_release(struct sim_obj *obj)
{
	struct sim_general *gen = container_of(obj, struct sim_general, obj);

	if (gen->type && gen->type->release)
		gen->type->release(gen->priv);
	kfree(gen->priv);
}

static u32 sim_general_count(struct mlx5x_sim *sim,
			     const struct sim_gen_type *type)
{
	struct sim_obj *obj;
	unsigned long id;
	u32 n = 0;

	xa_for_each(&sim->objs[SIM_OBJ_GENERAL], id, obj) {
		struct sim_general *gen = container_of(obj, struct sim_general,
						       obj);

		if (gen->type == type)
			n += type->weight ? type->weight(gen->priv) : 1;
	}
	return n;
}

static u16 sim_gen_hdr_type(const void *in)
{
	return PRM_GET(general_obj_in_cmd_hdr, in, obj_type);
}

/* The object the mailbox's header names, of the type it says. */
static u8 sim_general_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     struct sim_general **genp)
{
	struct sim_general *gen;
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_lookup(sim, ctx, SIM_OBJ_GENERAL,
				PRM_GET(general_obj_in_cmd_hdr, ctx->in,
					obj_id), &obj);
	if (status)
		return status;
	gen = container_of(obj, struct sim_general, obj);
	/* ids of another type are not in this type's namespace */
	if (gen->type->obj_type != sim_gen_hdr_type(ctx->in))
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	*genp = gen;
	return PRM_STAT_OK;
}

/**
 * sim_general_ref() - reference a general object another object uses
 * @sim: the model
 * @ctx: the command creating that object
 * @obj_type: the type it must be
 * @id: its obj_id
 * @genp: the object; drop with sim_obj_put(&gen->obj)
 *
 * Return: a PRM status.
 */
u8 sim_general_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		   u16 obj_type, u32 id, struct sim_general **genp)
{
	struct sim_general *gen;
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_ref(sim, ctx, SIM_OBJ_GENERAL, id, &obj);
	if (status)
		return status;
	gen = container_of(obj, struct sim_general, obj);
	if (gen->type->obj_type != obj_type) {
		sim_obj_put(obj);
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	}
	*genp = gen;
	return PRM_STAT_OK;
}

static u8 sim_general_no_type(struct sim_cmd_ctx *ctx)
{
	return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
}

static u8 sim_create_general(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const struct sim_gen_type *type = sim_gen_type_of(sim, ctx->op_mod);
	struct sim_general *gen;
	struct sim_obj *obj;
	void *priv;
	u8 status;

	if (!type)
		return sim_general_no_type(ctx);
	if (ctx->inlen < type->create_inlen)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN,
				SIM_SYND_BAD_INLEN);
	/* the object does not exist yet: nothing to name */
	if (PRM_GET(general_obj_in_cmd_hdr, ctx->in, obj_id) ||
	    (!type->bulk &&
	     PRM_GET(general_obj_in_cmd_hdr, ctx->in,
			     PRM_GENERAL_LOG_OBJ_RANGE)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	priv = kzalloc(type->priv_size, GFP_KERNEL);
	if (!priv)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	status = type->create(sim, ctx, priv);
	if (status) {
		kfree(priv);
		return status;
	}
	if (type->max_objs &&
	    (u64)sim_general_count(sim, type) +
	    (type->weight ? type->weight(priv) : 1) > type->max_objs(sim)) {
		status = sim_fail(ctx, PRM_STAT_NO_RESOURCES,
				  SIM_SYND_EXHAUSTED);
		goto err_release;
	}
	if (type->obj_id)
		status = sim_obj_alloc_in(sim, ctx, SIM_OBJ_GENERAL,
					  type->obj_id(priv),
					  type->obj_id(priv), &obj);
	else
		status = sim_obj_alloc(sim, ctx, SIM_OBJ_GENERAL, &obj);
	if (status)
		goto err_release;
	gen = container_of(obj, struct sim_general, obj);
	gen->type = type;
	gen->priv = priv;
	PRM_SET(general_obj_out_cmd_hdr, ctx->out, obj_id, obj->id);
	return PRM_STAT_OK;

err_release:
	if (type->release)
		type->release(priv);
	kfree(priv);
	return status;
}

static u8 sim_query_general(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_general *gen;
	u8 status;

	if (!sim_gen_type_of(sim, ctx->op_mod))
		return sim_general_no_type(ctx);
	status = sim_general_lookup(sim, ctx, &gen);
	if (status)
		return status;
	if (ctx->outlen < gen->type->query_outlen)
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN,
				SIM_SYND_BAD_OUTLEN);
	PRM_SET(general_obj_out_cmd_hdr, ctx->out, obj_id, gen->obj.id);
	return gen->type->query(sim, ctx, gen->priv);
}

static u8 sim_modify_general(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const struct sim_gen_type *type = sim_gen_type_of(sim, ctx->op_mod);
	struct sim_general *gen;
	u8 status;

	if (!type)
		return sim_general_no_type(ctx);
	status = sim_general_lookup(sim, ctx, &gen);
	if (status)
		return status;
	/* a type with nothing modifiable: no modify_field_select is valid */
	if (!type->modify)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return type->modify(sim, ctx, gen->priv);
}

static u8 sim_destroy_general(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_general *gen;
	u8 status;

	if (!sim_gen_type_of(sim, ctx->op_mod))
		return sim_general_no_type(ctx);
	status = sim_general_lookup(sim, ctx, &gen);
	if (status)
		return status;
	return sim_obj_destroy(sim, ctx, SIM_OBJ_GENERAL, gen->obj.id);
}

static const struct sim_cmd sim_general_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_GENERAL_OBJECT, "CREATE_GENERAL_OBJECT",
		general_obj_in_cmd_hdr, general_obj_out_cmd_hdr, true,
		sim_create_general),
	SIM_CMD(MLX5_CMD_OP_QUERY_GENERAL_OBJECT, "QUERY_GENERAL_OBJECT",
		general_obj_in_cmd_hdr, general_obj_out_cmd_hdr, true,
		sim_query_general),
	SIM_CMD(MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, "MODIFY_GENERAL_OBJECT",
		general_obj_in_cmd_hdr, general_obj_out_cmd_hdr, true,
		sim_modify_general),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
			"DESTROY_GENERAL_OBJECT", general_obj_in_cmd_hdr,
			general_obj_out_cmd_hdr, true, sim_destroy_general),
};

const struct sim_cmd_set sim_general_cmds = {
	sim_general_cmd_list, ARRAY_SIZE(sim_general_cmd_list)
};
