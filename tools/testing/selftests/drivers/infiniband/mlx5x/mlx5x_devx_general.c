// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * General objects through DEVX: CREATE/QUERY/MODIFY/DESTROY_GENERAL_
 * OBJECT with mlx5dv_devx_obj_create(3) and friends.  The profile's
 * general_obj_types lists the types firmware implements (MATCH_DEFINER,
 * FLOW_METER_ASO); others are refused with BAD_PARAM.  An object is named by obj_type and
 * obj_id together.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"
#include "mlx5x_prm.h"

#define TYPE_MATCH_DEFINER	PRM_OBJ_TYPE_MATCH_DEFINER
#define TYPE_FLOW_METER_ASO	PRM_GENERAL_OBJECT_TYPES_FLOW_METER_ASO

#define HDR(f)		PRM_IN_##f
#define GEN_QUERY	PRM_OP_QUERY_GENERAL_OBJECT
#define GEN_MODIFY	PRM_OP_MODIFY_GENERAL_OBJECT
#define CMD_IN_BYTES	PRM_CREATE_MATCH_DEFINER_IN_BYTES
#define QUERY_OUT_BYTES	(PRM_OUT_BYTES +		\
			 PRM_MATCH_DEFINER_BYTES)
/* format 22's outer_ip_src_addr in the mask; a bit it leaves reserved */
#define MASK_OFF	PRM_CREATE_MATCH_DEFINER_IN_OBJ_CONTEXT_MATCH_MASK_OFF
#define F22(f)		PRM_MATCH_DEFINER_FORMAT_22_##f
#define F22_SRC_ADDR	MT_FIELD(MASK_OFF + F22(OUTER_IP_SRC_ADDR).off, 32)
#define F22_RSVD_160	MT_FIELD(MASK_OFF + 0x160, 1)	/* reserved_at_160 */
/* in the query output: the definer follows the 16-byte header */
#define Q_DEF		(PRM_OUT_BYTES * 8)
#define Q_FORMAT_ID	MT_FIELD(Q_DEF + PRM_MATCH_DEFINER_FORMAT_ID.off, 16)
#define Q_SRC_ADDR	MT_FIELD(Q_DEF + PRM_MATCH_DEFINER_MATCH_MASK_OFF + \
				 F22(OUTER_IP_SRC_ADDR).off, 32)

struct gen {
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
};

static void definer_in(uint32_t *in, uint16_t type, uint16_t format)
{
	memset(in, 0, CMD_IN_BYTES);
	mt_set(in, HDR(OPCODE), PRM_OP_CREATE_GENERAL_OBJECT);
	mt_set(in, HDR(OBJ_TYPE), type);
	mt_set(in, PRM_CREATE_MATCH_DEFINER_IN_OBJ_CONTEXT_FORMAT_ID, format);
	mt_set(in, F22_SRC_ADDR, 0xffffffff);
}

static struct mlx5dv_devx_obj *gen_create(struct ibv_context *ctx,
					  uint32_t *in, uint32_t *out)
{
	memset(out, 0, PRM_OUT_BYTES);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, in, CMD_IN_BYTES, out,
				      PRM_OUT_BYTES);
}

static bool definer_create(struct ibv_context *ctx, struct gen *g)
{
	uint32_t in[CMD_IN_BYTES / 4], out[4];

	definer_in(in, TYPE_MATCH_DEFINER, 22);
	g->obj = gen_create(ctx, in, out);
	if (!mt_check(g->obj != NULL, __FILE__, __LINE__,
		      "create definer: errno %d syndrome %#x", errno,
		      mt_get(out, PRM_OUT_SYNDROME)))
		return false;
	g->id = mt_get(out, PRM_OUT_OBJ_ID);
	return CHECK(g->id != 0);
}

static bool refused(struct ibv_context *ctx, uint32_t *in, uint8_t status,
		    uint32_t synd, const char *what)
{
	uint32_t out[4];

	return mt_devx_refused(gen_create(ctx, in, out), out, status, synd,
			       what);
}

static int gen_cmd(struct gen *g, uint16_t op, uint16_t type, uint32_t id,
		   uint32_t *out, size_t outlen)
{
	uint32_t in[CMD_IN_BYTES / 4] = {};

	mt_set(in, HDR(OPCODE), op);
	mt_set(in, HDR(OBJ_TYPE), type);
	mt_set(in, HDR(OBJ_ID), id);
	memset(out, 0, outlen);
	if (op == PRM_OP_MODIFY_GENERAL_OBJECT)
		return mlx5dv_devx_obj_modify(g->obj, in, sizeof(in), out,
					      outlen);
	return mlx5dv_devx_obj_query(g->obj, in,
				     PRM_IN_BYTES, out,
				     outlen);
}

static uint64_t cap64(const void *cap, unsigned int off)
{
	return mt_get64(cap, off);
}

/* The profile: MATCH_DEFINER among the types, its formats and limit. */
MT_TEST_F(mt_ctx, caps_general_obj_types)
{
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_BYTES];
	const void *cap;
	uint64_t types;

	if (!CHECK_ERR(mt_query_hca_cap(self->ctx,
					MT_CAP_OPMOD(MT_CAP_GENERAL, 1), out),
		       0))
		return KSFT_FAIL;
	cap = mt_cap_page(out);
	types = cap64(cap, PRM_CMD_HCA_CAP_GENERAL_OBJ_TYPES_OFF);
	mt_diag("general_obj_types %#llx", (unsigned long long)types);
	if (!(types & (1ULL << TYPE_MATCH_DEFINER)))
		return mt_skip("no MATCH_DEFINER on this device");
	/* the model offers exactly what it implements */
	if (mt_sim()) {
		CHECK_EQ(types, 1ULL << TYPE_MATCH_DEFINER |
			 1ULL << TYPE_FLOW_METER_ASO |
			 1ULL << 0x8 /* SW_ICM: see mlx5x_dm */ |
			 1ULL << 0x3a /* AV_QP_MAPPING: see mlx5x_dc */ |
			 1ULL << 0x2c /* see mlx5x_reserved_qpn */);
		CHECK_EQ(cap64(cap,
			       PRM_CMD_HCA_CAP_MATCH_DEFINER_FORMAT_SUPPORTED_OFF),
			 1ULL << 0 | 1ULL << 22 | 1ULL << 23 | 1ULL << 29 |
			 1ULL << 30 | 1ULL << 31 | 1ULL << 32);
	}
	CHECK(mt_get(cap, PRM_CMD_HCA_CAP_MAX_NUM_MATCH_DEFINER) > 0);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, match_definer_create_query_destroy)
{
	uint32_t out[QUERY_OUT_BYTES / 4];
	struct gen g;

	if (!definer_create(self->ctx, &g))
		return KSFT_FAIL;
	mt_fw_check_owner("general", g.id, self->uid);
	if (CHECK_ERR(gen_cmd(&g, GEN_QUERY, TYPE_MATCH_DEFINER, g.id,
			      out, sizeof(out)), 0)) {
		CHECK_EQ(mt_get(out, Q_FORMAT_ID), 22);
		CHECK_EQ(mt_get(out, Q_SRC_ADDR), 0xffffffff);
	}
	/* the handle's object, by id and type both */
	CHECK_ERR(gen_cmd(&g, GEN_QUERY, TYPE_MATCH_DEFINER, g.id + 1,
			  out, sizeof(out)), EINVAL);
	CHECK_ERR(gen_cmd(&g, GEN_QUERY, TYPE_FLOW_METER_ASO, g.id, out,
			  sizeof(out)),
		  EINVAL);
	/* an output too short for the definer */
	CHECK_ERR(gen_cmd(&g, GEN_QUERY, TYPE_MATCH_DEFINER, g.id,
			  out, sizeof(out) - 4), EREMOTEIO);
	/* nothing of a definer can be modified */
	CHECK_ERR(gen_cmd(&g, GEN_MODIFY, TYPE_MATCH_DEFINER, g.id,
			  out, 16), EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_PARAM);
	CHECK_ERR(mlx5dv_devx_obj_destroy(g.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("general", self->uid), 0);
	return KSFT_PASS;
}

/* Types firmware lacks, and definers it cannot make. */
MT_TEST_F(mt_ctx, create_refused)
{
	static const uint16_t types[] = { 0x0, 0xb, 0x20, 0x27, 0xff01,
					  0xffff };
	struct ibv_context *ctx = self->ctx;
	uint32_t in[CMD_IN_BYTES / 4];
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(types); i++) {
		definer_in(in, types[i], 22);
		mt_diag("type %#x", types[i]);
		refused(ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_OPMOD,
			"type not offered");
	}
	definer_in(in, TYPE_MATCH_DEFINER, 1);
	refused(ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_CAP, "format 1");
	definer_in(in, TYPE_MATCH_DEFINER, 22);
	mt_set(in, F22_SRC_ADDR, 0);
	refused(ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "empty mask");
	mt_set(in, F22_RSVD_160, 1);
	refused(ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "reserved bit");
	definer_in(in, TYPE_MATCH_DEFINER, 22);
	mt_set(in, HDR(OBJ_ID), 7);
	refused(ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "obj_id in create");
	CHECK_EQ(mt_fw_count("general", self->uid), 0);
	return KSFT_PASS;
}

/* Another process names this process's definer: refused. */
MT_TEST_F(mt_ctx, other_process_isolated)
{
	uint32_t out[QUERY_OUT_BYTES / 4];
	struct gen mine;
	pid_t pid;

	if (!definer_create(self->ctx, &mine))
		return KSFT_FAIL;
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *c2 = mt_open(MT_OPEN_DEVX, NULL);
		struct gen theirs;
		int bad = 0;

		if (!c2 || !definer_create(c2, &theirs))
			_exit(2);
		bad |= gen_cmd(&theirs, GEN_QUERY, TYPE_MATCH_DEFINER,
			       mine.id, out, sizeof(out)) != EINVAL;
		bad |= (gen_cmd(&theirs, GEN_QUERY, TYPE_MATCH_DEFINER,
				theirs.id, out, sizeof(out)) != 0) << 1;
		bad |= (mlx5dv_devx_obj_destroy(theirs.obj) != 0) << 2;
		ibv_close_device(c2);
		_exit(bad);
	}
	CHECK_EQ(mt_reap(pid), 0);
	CHECK_ERR(gen_cmd(&mine, GEN_QUERY, TYPE_MATCH_DEFINER, mine.id,
			  out, sizeof(out)), 0);
	mt_fw_check_owner("general", mine.id, self->uid);
	CHECK_ERR(mlx5dv_devx_obj_destroy(mine.obj), 0);
	return KSFT_PASS;
}

/* Injected failure, and definers left to context teardown. */
MT_TEST_F(mt_ctx, fault_injection_and_teardown)
{
	uint32_t in[CMD_IN_BYTES / 4];
	struct gen g;
	int i;

	CHECK_EQ(mt_fw_fail_opcode(PRM_OP_CREATE_GENERAL_OBJECT), 0);
	definer_in(in, TYPE_MATCH_DEFINER, 22);
	refused(self->ctx, in, MT_STAT_INTERNAL_ERR, SYND_INJECTED,
		"injected");
	CHECK_EQ(mt_fw_fail_opcode(-1), 0);
	for (i = 0; i < 8; i++)
		if (!definer_create(self->ctx, &g))
			break;
	CHECK_EQ(mt_fw_count("general", self->uid), 8);
	CHECK_EQ(ibv_close_device(self->ctx), 0);
	self->ctx = NULL;
	CHECK_EQ(mt_fw_count(NULL, self->uid), 0);
	return KSFT_PASS;
}

#define MTR(f)		PRM_CREATE_FLOW_METER_ASO_OBJ_IN_##f
#define MTR_PARAMS1	(MTR(FLOW_METER_ASO_OBJ_FLOW_METER_PARAMETERS_OFF) + \
			 MTR(FLOW_METER_ASO_OBJ_FLOW_METER_PARAMETERS_BITS))
/* a field of the flow_meter_parameters at bit @p */
#define MTR_P(p, f)	MT_FIELD((p) + PRM_FLOW_METER_PARAMETERS_##f.off, \
				 PRM_FLOW_METER_PARAMETERS_##f.sz)
#define MTR_MODE	MTR_P(MTR_PARAMS1, METER_MODE)
#define MTR_CIR_MANT	MTR_P(MTR_PARAMS1, CIR_MANTISSA)
#define MTR_OUT_BYTES	(PRM_OUT_BYTES +		\
			 PRM_FLOW_METER_ASO_OBJ_BYTES)
#define MTR_Q_PD	MT_FIELD(Q_DEF + PRM_FLOW_METER_ASO_OBJ_METER_ASO_ACCESS_PD.off, 24)
#define MTR_Q_PARAMS1	(Q_DEF + PRM_FLOW_METER_ASO_OBJ_FLOW_METER_PARAMETERS_OFF + \
			 PRM_FLOW_METER_ASO_OBJ_FLOW_METER_PARAMETERS_BITS)

static struct mlx5dv_devx_obj *meter_create(struct ibv_context *ctx,
					    uint32_t pdn, uint32_t range,
					    uint32_t *out)
{
	uint32_t in[PRM_CREATE_FLOW_METER_ASO_OBJ_IN_BYTES / 4] = {};

	mt_set(in, MTR(HDR_OPCODE), PRM_OP_CREATE_GENERAL_OBJECT);
	mt_set(in, MTR(HDR_OBJ_TYPE), TYPE_FLOW_METER_ASO);
	mt_set(in, MTR(HDR_LOG_OBJ_RANGE), range);
	mt_set(in, MTR(FLOW_METER_ASO_OBJ_METER_ASO_ACCESS_PD), pdn);
	mt_set(in, MTR_MODE, 1);
	mt_set(in, MTR_CIR_MANT, 0x42);
	memset(out, 0, PRM_OUT_BYTES);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out,
				      PRM_OUT_BYTES);
}

static uint32_t pdn_of(struct ibv_pd *pd)
{
	struct mlx5dv_pd dvpd = {};
	struct mlx5dv_obj obj = { .pd = { .in = pd, .out = &dvpd } };

	return mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD) ? 0 : dvpd.pdn;
}

/*
 * FLOW_METER_ASO, as DPDK's mlx5 meters create it: a bulk under a PD of
 * the context, which it holds; queried back; another context's PD no.
 */
MT_TEST_F(mt_ctx, flow_meter_aso)
{
	uint32_t out[MTR_OUT_BYTES / 4];
	struct ibv_context *ctx = self->ctx, *c2;
	struct ibv_pd *pd, *pd2;
	struct gen m;

	c2 = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(c2))
		return KSFT_FAIL;
	pd = ibv_alloc_pd(ctx);
	pd2 = ibv_alloc_pd(c2);
	if (!CHECK(pd && pd2))
		goto out;
	m.obj = meter_create(ctx, pdn_of(pd), 4, out);
	if (!mt_check(m.obj != NULL, __FILE__, __LINE__,
		      "create meters: errno %d syndrome %#x", errno,
		      mt_get(out, PRM_OUT_SYNDROME)))
		goto out;
	m.id = mt_get(out, PRM_OUT_OBJ_ID);
	mt_fw_check_owner("general", m.id, self->uid);
	if (CHECK_ERR(gen_cmd(&m, GEN_QUERY, TYPE_FLOW_METER_ASO, m.id,
			      out, sizeof(out)), 0)) {
		CHECK_EQ(mt_get(out, MTR_Q_PD), pdn_of(pd));
		CHECK_EQ(mt_get(out, MTR_P(MTR_Q_PARAMS1, METER_MODE)), 1);
		CHECK_EQ(mt_get(out, MTR_P(MTR_Q_PARAMS1, CIR_MANTISSA)), 0x42);
	}
	/* as a definer, the id is not this handle's object */
	CHECK_ERR(gen_cmd(&m, GEN_QUERY, TYPE_MATCH_DEFINER, m.id,
			  out, sizeof(out)), EINVAL);
	CHECK_ERR(ibv_dealloc_pd(pd), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(m.obj), 0);
	/* another context's PD */
	CHECK(!meter_create(ctx, pdn_of(pd2), 0, out));
	CHECK_ERR(errno, EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_NOT_OWNER);
	/* a bulk past log_meter_aso_max_alloc */
	CHECK(!meter_create(ctx, pdn_of(pd), 31, out));
	CHECK_ERR(errno, EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_BAD_CAP);
	CHECK_EQ(mt_fw_count("general", self->uid), 0);
out:
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	if (pd2)
		CHECK_ERR(ibv_dealloc_pd(pd2), 0);
	CHECK_EQ(ibv_close_device(c2), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_devx_ctx_fixture, flow_meter_aso,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_devx_ctx_fixture, caps_general_obj_types),
	MT_CASE_ON(mt_devx_ctx_fixture, match_definer_create_query_destroy),
	MT_CASE_ON(mt_devx_ctx_fixture, create_refused,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_devx_ctx_fixture, other_process_isolated),
	MT_CASE_ON(mt_devx_ctx_fixture, fault_injection_and_teardown,
		   .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
