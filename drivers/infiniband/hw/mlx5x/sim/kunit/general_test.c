// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: CREATE/QUERY/MODIFY/DESTROY_GENERAL_OBJECT: the types the
 * profile advertises, MATCH_DEFINER's checks, unsupported types, owners
 * and references.
 */
#include "sim_kunit.h"
#include "../core/general.h"

#define SK_DEF_QUERY_OUT	(PRM_BYTES(general_obj_out_cmd_hdr) +	\
				 PRM_BYTES(match_definer))

static void *sk_definer_in(struct kunit *test, u16 uid, u16 format)
{
	void *in = SK_MBOX(test, create_match_definer_in);
	void *def = PRM_ADDR(create_match_definer_in, in, obj_context);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type,
		MLX5_OBJ_TYPE_MATCH_DEFINER);
	PRM_SET(match_definer, def, format_id, format);
	return in;
}

/* The mask of a definer being built, laid out as format fmt. */
#define SK_DEF_MASK(in)							\
	PRM_ADDR(match_definer,						\
		 PRM_ADDR(create_match_definer_in, in, obj_context),	\
		 match_mask)

static u8 sk_gen_exec(struct kunit *test, const void *in, size_t inlen,
		      u32 *id)
{
	void *out = SK_MBOX(test, general_obj_out_cmd_hdr);
	u8 status;

	status = sk_exec(test, in, inlen, out,
			 PRM_BYTES(general_obj_out_cmd_hdr));
	if (id)
		*id = PRM_GET(general_obj_out_cmd_hdr, out, obj_id);
	return status;
}

/* A format 22 definer on the outer source and destination addresses. */
static u8 sk_create_definer(struct kunit *test, u16 uid, u32 *id)
{
	void *in = sk_definer_in(test, uid, 22);
	void *mask = SK_DEF_MASK(in);

	PRM_SET(match_definer_format_22, mask, outer_ip_src_addr, ~0U);
	PRM_SET(match_definer_format_22, mask, outer_ip_dest_addr, ~0U);
	return sk_gen_exec(test, in, PRM_BYTES(create_match_definer_in), id);
}

/* A query, modify or destroy header naming obj_type and id. */
static u8 sk_gen_cmd(struct kunit *test, u16 opcode, u16 uid, u16 obj_type,
		     u32 id, void *out, size_t outlen)
{
	void *in = SK_MBOX(test, general_obj_in_cmd_hdr);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode, opcode);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, obj_type);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	if (!out) {
		outlen = PRM_BYTES(general_obj_out_cmd_hdr);
		out = sk_mbox(test, outlen);
	}
	return sk_exec(test, in, PRM_BYTES(general_obj_in_cmd_hdr), out,
		       outlen);
}

static unsigned int sk_users(struct kunit *test, u32 pdn)
{
	struct sim_obj *obj = xa_load(&sk_sim(test)->objs[SIM_OBJ_PD], pdn);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return obj->users;
}

static u8 sk_destroy_gen(struct kunit *test, u16 uid, u16 type, u32 id)
{
	return sk_gen_cmd(test, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, uid, type,
			  id, NULL, 0);
}

/* The profile advertises exactly the types and formats implemented. */
static void sk_gen_caps(struct kunit *test)
{
	size_t off = PRM_BIT_OFF(cmd_hca_cap, general_obj_types);
	size_t foff = PRM_BIT_OFF(cmd_hca_cap, match_definer_format_supported);
	void *cap;
	u64 types, formats;

	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0, 1), false,
					   &cap), PRM_STAT_OK);
	types = (u64)prm_get_bits(cap, off, 32) << 32 |
		prm_get_bits(cap, off + 32, 32);
	KUNIT_EXPECT_EQ(test, types,
			BIT_ULL(MLX5_OBJ_TYPE_MATCH_DEFINER) |
			BIT_ULL(MLX5_GENERAL_OBJECT_TYPES_FLOW_METER_ASO) |
			BIT_ULL(MLX5_OBJ_TYPE_SW_ICM) |
			BIT_ULL(SIM_OBJ_TYPE_AV_QP_MAPPING) |
			BIT_ULL(SIM_OBJ_TYPE_RESERVED_QPN));
	formats = (u64)prm_get_bits(cap, foff, 32) << 32 |
		  prm_get_bits(cap, foff + 32, 32);
	KUNIT_EXPECT_EQ(test, formats,
			BIT_ULL(0) | BIT_ULL(22) | BIT_ULL(23) | BIT_ULL(29) |
			BIT_ULL(30) | BIT_ULL(31) | BIT_ULL(32));
	KUNIT_EXPECT_EQ(test, PRM_GET(cmd_hca_cap, cap, max_num_match_definer),
			SIM_MAX_MATCH_DEFINERS);
}

static void sk_definer_create_query_destroy(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	void *out = sk_mbox(test, SK_DEF_QUERY_OUT);
	void *def = (u8 *)out + PRM_BYTES(general_obj_out_cmd_hdr);
	void *mask = PRM_ADDR(match_definer, def, match_mask);
	u32 id, id2;

	KUNIT_ASSERT_EQ(test, sk_create_definer(test, uid, &id), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, id, 0);
	KUNIT_ASSERT_EQ(test, sk_create_definer(test, uid, &id2), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, id, id2);
	KUNIT_ASSERT_EQ(test, sk_gen_cmd(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					 uid, MLX5_OBJ_TYPE_MATCH_DEFINER, id,
					 out, SK_DEF_QUERY_OUT), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(general_obj_out_cmd_hdr, out, obj_id),
			id);
	KUNIT_EXPECT_EQ(test, PRM_GET(match_definer, def, format_id), 22);
	KUNIT_EXPECT_EQ(test, PRM_GET(match_definer_format_22, mask,
				      outer_ip_src_addr), ~0U);
	KUNIT_EXPECT_EQ(test, PRM_GET(match_definer_format_22, mask,
				      outer_l4_sport), 0);
	/* an output too short for the definer */
	KUNIT_EXPECT_EQ(test, sk_gen_cmd(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					 uid, MLX5_OBJ_TYPE_MATCH_DEFINER, id,
					 out, SK_DEF_QUERY_OUT - 1),
			PRM_STAT_BAD_OUTPUT_LEN);
	/* nothing of a definer can be modified */
	KUNIT_EXPECT_EQ(test,
			sk_gen_cmd(test, MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, uid,
				   MLX5_OBJ_TYPE_MATCH_DEFINER, id, NULL, 0),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_live(test), 3);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);

	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id2),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Formats not offered, empty masks, reserved bits, stray header fields. */
static void sk_definer_rules(struct kunit *test)
{
	static const u16 formats[] = { 0, 22, 23, 29, 30, 31, 32 };
	u16 uid = sk_new_uctx(test);
	unsigned int i;
	void *in;
	u32 id;

	/* each format offered takes a mask on one of its fields */
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		in = sk_definer_in(test, uid, formats[i]);
		/* bit 0x100: a field in every format */
		((u8 *)SK_DEF_MASK(in))[32] = 0x80;
		KUNIT_ASSERT_EQ_MSG(test, sk_gen_exec(test, in,
					PRM_BYTES(create_match_definer_in),
					&id), PRM_STAT_OK,
				    "format %u", formats[i]);
		KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					MLX5_OBJ_TYPE_MATCH_DEFINER, id),
				PRM_STAT_OK);
	}
	for (i = 1; i < 64; i++) {
		if (i == 22 || i == 23 || (i >= 29 && i <= 32))
			continue;
		in = sk_definer_in(test, uid, i);
		((u8 *)SK_DEF_MASK(in))[63] = 1;
		KUNIT_EXPECT_EQ_MSG(test, sk_gen_exec(test, in,
					PRM_BYTES(create_match_definer_in),
					NULL), PRM_STAT_BAD_PARAM,
				    "format %u", i);
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	}
	/* selects nothing */
	in = sk_definer_in(test, uid, 22);
	KUNIT_EXPECT_EQ(test, sk_gen_exec(test, in,
					  PRM_BYTES(create_match_definer_in),
					  NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* a bit of format 22's reserved ranges: its first, at 0x160 */
	PRM_SET(match_definer_format_22, SK_DEF_MASK(in), outer_l4_sport, 1);
	PRM_SET(match_definer_format_22, SK_DEF_MASK(in), reserved_at_160, 1);
	KUNIT_EXPECT_EQ(test, sk_gen_exec(test, in,
					  PRM_BYTES(create_match_definer_in),
					  NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(match_definer_format_22, SK_DEF_MASK(in), reserved_at_160, 0);
	((u8 *)SK_DEF_MASK(in))[0] = 0x80;
	KUNIT_EXPECT_EQ(test, sk_gen_exec(test, in,
					  PRM_BYTES(create_match_definer_in),
					  NULL), PRM_STAT_BAD_PARAM);
	((u8 *)SK_DEF_MASK(in))[0] = 0;
	/* a create names no object */
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, 5);
	KUNIT_EXPECT_EQ(test, sk_gen_exec(test, in,
					  PRM_BYTES(create_match_definer_in),
					  NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, 0);
	/* the mailbox must hold the whole definer */
	KUNIT_EXPECT_EQ(test, sk_gen_exec(test, in,
					  PRM_BYTES(create_match_definer_in) - 4,
					  NULL), PRM_STAT_BAD_INPUT_LEN);
	KUNIT_ASSERT_EQ(test, sk_gen_exec(test, in,
					  PRM_BYTES(create_match_definer_in),
					  &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Types the profile does not advertise: BAD_PARAM for every command. */
static void sk_gen_unsupported(struct kunit *test)
{
	static const u16 types[] = {
		0x0, MLX5_OBJ_TYPE_GENEVE_TLV_OPT,
		MLX5_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY,
		MLX5_OBJ_TYPE_VIRTIO_NET_Q, MLX5_GENERAL_OBJECT_TYPES_SAMPLER,
		MLX5_GENERAL_OBJECT_TYPES_MACSEC, MLX5_OBJ_TYPE_PAGE_TRACK,
		MLX5_OBJ_TYPE_MKEY, 0xffff,
	};
	static const u16 ops[] = {
		MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
		MLX5_CMD_OP_MODIFY_GENERAL_OBJECT,
		MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
	};
	u16 uid = sk_new_uctx(test);
	unsigned int i, j;
	void *in;
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_create_definer(test, uid, &id), PRM_STAT_OK);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		in = sk_definer_in(test, uid, 22);
		((u8 *)SK_DEF_MASK(in))[63] = 1;
		PRM_SET(general_obj_in_cmd_hdr, in, obj_type, types[i]);
		KUNIT_EXPECT_EQ_MSG(test, sk_gen_exec(test, in,
					PRM_BYTES(create_match_definer_in),
					NULL), PRM_STAT_BAD_PARAM,
				    "type %#x", types[i]);
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_OPMOD);
		/* the definer's id, under another type: no such thing */
		for (j = 0; j < ARRAY_SIZE(ops); j++) {
			KUNIT_EXPECT_EQ(test, sk_gen_cmd(test, ops[j], uid,
							 types[i], id, NULL,
							 0),
					PRM_STAT_BAD_PARAM);
			KUNIT_EXPECT_EQ(test, sk_syndrome(test),
					SIM_SYND_BAD_OPMOD);
		}
	}
	KUNIT_EXPECT_EQ(test, sk_live(test), 2);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/* Another context's definer: not queried, modified, destroyed, used. */
static void sk_gen_isolation(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	struct sim_cmd_ctx cctx = { .uid = b };
	void *out = sk_mbox(test, SK_DEF_QUERY_OUT);
	struct sim_general *gen;
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_create_definer(test, a, &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_gen_cmd(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					 b, MLX5_OBJ_TYPE_MATCH_DEFINER, id,
					 out, SK_DEF_QUERY_OUT),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, b,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);

	/* as steering would reference it */
	mutex_lock(&ctx->sim->lock);
	KUNIT_EXPECT_EQ(test, sim_general_ref(ctx->sim, &cctx,
					      MLX5_OBJ_TYPE_MATCH_DEFINER, id,
					      &gen), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, cctx.syndrome, SIM_SYND_NOT_OWNER);
	cctx.uid = a;
	KUNIT_EXPECT_EQ(test, sim_general_ref(ctx->sim, &cctx,
					      MLX5_OBJ_TYPE_SW_ICM, id, &gen),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, cctx.syndrome, SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sim_general_ref(ctx->sim, &cctx,
					      MLX5_OBJ_TYPE_MATCH_DEFINER, id,
					      &gen), PRM_STAT_OK);
	mutex_unlock(&ctx->sim->lock);
	KUNIT_EXPECT_EQ(test, gen->obj.users, 1);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, a,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	mutex_lock(&ctx->sim->lock);
	sim_obj_put(&gen->obj);
	mutex_unlock(&ctx->sim->lock);

	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, a,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
}

/* At most max_num_match_definer definers at once. */
static void sk_definer_exhaustion(struct kunit *test)
{
	u32 max = SIM_CAP_GEN(sk_sim(test), max_num_match_definer);
	u16 uid = sk_new_uctx(test);
	u32 *ids = kunit_kcalloc(test, max, sizeof(*ids), GFP_KERNEL);
	u32 i, id;

	KUNIT_ASSERT_NOT_NULL(test, ids);
	for (i = 0; i < max; i++)
		KUNIT_ASSERT_EQ(test, sk_create_definer(test, uid, &ids[i]),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_definer(test, uid, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					     MLX5_OBJ_TYPE_MATCH_DEFINER,
					     ids[0]), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_definer(test, uid, &id), PRM_STAT_OK);
	ids[0] = id;
	for (i = 0; i < max; i++)
		KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					MLX5_OBJ_TYPE_MATCH_DEFINER, ids[i]),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A FLOW_METER_ASO bulk of 1 << range objects under a PD. */
static u8 sk_create_meter(struct kunit *test, u16 uid, u32 pdn, u32 range,
			  u32 mode, u32 *id)
{
	void *in = SK_MBOX(test, create_flow_meter_aso_obj_in);
	void *obj = PRM_ADDR(create_flow_meter_aso_obj_in, in,
			     flow_meter_aso_obj);
	void *p1 = PRM_ADDR(flow_meter_aso_obj, obj, flow_meter_parameters[1]);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type,
		MLX5_GENERAL_OBJECT_TYPES_FLOW_METER_ASO);
	PRM_SET(general_obj_in_cmd_hdr, in, PRM_GENERAL_LOG_OBJ_RANGE, range);
	PRM_SET(flow_meter_aso_obj, obj, meter_aso_access_pd, pdn);
	PRM_SET(flow_meter_parameters, p1, valid, 1);
	PRM_SET(flow_meter_parameters, p1, meter_mode, mode);
	PRM_SET(flow_meter_parameters, p1, cir_mantissa, 0x42);
	return sk_gen_exec(test, in, PRM_BYTES(create_flow_meter_aso_obj_in),
			   id);
}

#define SK_METER	MLX5_GENERAL_OBJECT_TYPES_FLOW_METER_ASO
#define SK_METER_OUT	(PRM_BYTES(general_obj_out_cmd_hdr) +		\
			 PRM_BYTES(flow_meter_aso_obj))

/* Flow meter ASO: the QoS limits, its PD referenced, queried, bulks. */
static void sk_meter(struct kunit *test)
{
	u16 uid = sk_new_uctx(test), other = sk_new_uctx(test);
	void *out = sk_mbox(test, SK_METER_OUT);
	void *obj = (u8 *)out + PRM_BYTES(general_obj_out_cmd_hdr);
	void *p1 = PRM_ADDR(flow_meter_aso_obj, obj, flow_meter_parameters[1]);
	void *qos;
	u32 pdn, opdn, id, i, *ids;

	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0x0c, 1), false,
					   &qos), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qos_cap, qos, log_meter_aso_granularity),
			SIM_METER_ASO_GRANULARITY);
	KUNIT_EXPECT_EQ(test, PRM_GET(qos_cap, qos, log_meter_aso_max_alloc),
			SIM_METER_ASO_MAX_ALLOC);
	KUNIT_EXPECT_EQ(test, PRM_GET(qos_cap, qos, log_max_num_meter_aso),
			SIM_METER_ASO_MAX);

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, other, &opdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_meter(test, uid, pdn, 3, 1, &id),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_gen_cmd(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					 uid, SK_METER, id, out, SK_METER_OUT),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_meter_aso_obj, obj,
				      meter_aso_access_pd), pdn);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_meter_parameters, p1, valid), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_meter_parameters, p1, meter_mode),
			1);
	KUNIT_EXPECT_EQ(test, PRM_GET(flow_meter_parameters, p1, cir_mantissa),
			0x42);
	/* the PD stays while the meters use it */
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test,
			sk_gen_cmd(test, MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, uid,
				   SK_METER, id, NULL, 0), PRM_STAT_BAD_PARAM);
	/* under the definer's type, the id is nothing */
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid,
					     MLX5_OBJ_TYPE_MATCH_DEFINER, id),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid, SK_METER, id),
			PRM_STAT_OK);

	/* another context's PD; too large a bulk; a mode that is not one */
	KUNIT_EXPECT_EQ(test, sk_create_meter(test, uid, opdn, 0, 0, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_create_meter(test, uid, pdn,
					      SIM_METER_ASO_MAX_ALLOC + 1, 0,
					      NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	KUNIT_EXPECT_EQ(test, sk_create_meter(test, uid, pdn, 0, 2, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);

	/* 1 << log_max_num_meter_aso objects in all, counted by bulk */
	ids = kunit_kcalloc(test, 256, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	for (i = 0; i < BIT(SIM_METER_ASO_MAX - SIM_METER_ASO_MAX_ALLOC); i++)
		KUNIT_ASSERT_EQ(test, sk_create_meter(test, uid, pdn,
						      SIM_METER_ASO_MAX_ALLOC,
						      0, &ids[i]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_meter(test, uid, pdn, 0, 0, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_users(test, pdn), i);
	for (i = 0; i < BIT(SIM_METER_ASO_MAX - SIM_METER_ASO_MAX_ALLOC); i++)
		KUNIT_EXPECT_EQ(test, sk_destroy_gen(test, uid, SK_METER,
						     ids[i]), PRM_STAT_OK);

	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, other, opdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct kunit_case sk_general_cases[] = {
	KUNIT_CASE(sk_gen_caps),
	KUNIT_CASE(sk_definer_create_query_destroy),
	KUNIT_CASE(sk_definer_rules),
	KUNIT_CASE(sk_gen_unsupported),
	KUNIT_CASE(sk_gen_isolation),
	KUNIT_CASE(sk_definer_exhaustion),
	KUNIT_CASE(sk_meter),
	{}
};

static struct kunit_suite sk_general_suite = {
	.name = "mlx5x_sim_general",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_general_cases,
};

kunit_test_suite(sk_general_suite);
