// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: signature offload in the model: the profile's caps, signature
 * mkeys (bsf_en) as libmlx5's mlx5dv_create_mkey(3) BLOCK_SIGNATURE
 * creates them, remote invalidation, and PSVs (CREATE_PSV, DESTROY_PSV):
 * their limits, PD references, owners, and teardown.
 */
#include "sk_mkey.h"

static struct sim_obj *sk_sig_obj(struct kunit *test,
				  enum sim_obj_type type, u32 id)
{
	struct sim_obj *obj = xa_load(&sk_sim(test)->objs[type], id);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return obj;
}

static u8 sk_create_psv(struct kunit *test, u16 uid, u32 pdn, u32 num,
			u32 *idx)
{
	void *in = SK_MBOX(test, create_psv_in);
	void *out = SK_MBOX(test, create_psv_out);
	u8 status;

	PRM_SET(create_psv_in, in, opcode, MLX5_CMD_OP_CREATE_PSV);
	prm_in_set_uid(in, uid);
	PRM_SET(create_psv_in, in, num_psv, num);
	PRM_SET(create_psv_in, in, pd, pdn);
	status = sk_exec(test, in, PRM_BYTES(create_psv_in), out,
			 PRM_BYTES(create_psv_out));
	if (!status && idx) {
		idx[0] = PRM_GET(create_psv_out, out, psv0_index);
		idx[1] = PRM_GET(create_psv_out, out, psv1_index);
		idx[2] = PRM_GET(create_psv_out, out, psv2_index);
		idx[3] = PRM_GET(create_psv_out, out, psv3_index);
	}
	return status;
}

static u8 sk_destroy_psv(struct kunit *test, u16 uid, u32 psvn)
{
	void *in = SK_MBOX(test, destroy_psv_in);
	void *out = SK_MBOX(test, destroy_psv_out);

	PRM_SET(destroy_psv_in, in, opcode, MLX5_CMD_OP_DESTROY_PSV);
	prm_in_set_uid(in, uid);
	PRM_SET(destroy_psv_in, in, psvn, psvn);
	return sk_exec(test, in, PRM_BYTES(destroy_psv_in), out,
		       PRM_BYTES(destroy_psv_out));
}

/* What libmlx5 44 reads before it offers signature: sho, sigerr domain. */
static void sk_sig_caps(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);

	KUNIT_EXPECT_EQ(test, SIM_CAP_GEN(sim, sho), 1);
	KUNIT_EXPECT_EQ(test, prm_get_bits(sim->caps[0],
					   PRM_BIT_OFF(cmd_hca_cap,
						       reserved_at_480), 1),
			1);
}

/* Signature mkeys: what is accepted, each refusal, and the query. */
static void sk_sig_mkey_rules(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	struct sk_mkey m;
	void *mkc, *out;
	u32 pdn, idx;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
#define SK_REFUSED(st, syn) do {					\
		KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), st);	\
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), syn);		\
	} while (0)
	sk_mkey_umr(test, &m, uid, pdn, 4, SIM_MKEY_SIG_BSF_OCTWORDS, 0);
	mkc = m.mkc;
	PRM_SET(mkc, mkc, umr_en, 0);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(mkc, mkc, umr_en, 1);
	PRM_SET(mkc, mkc, bsf_octword_size, 8);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(mkc, mkc, bsf_octword_size, 0);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* a BSF without bsf_en, an expected signature error without one */
	sk_mkey_umr(test, &m, uid, pdn, 4, 0, 0);
	mkc = m.mkc;
	PRM_SET(mkc, mkc, bsf_octword_size, 4);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(mkc, mkc, bsf_octword_size, 0);
	PRM_SET(mkc, mkc, expected_sigerr_count, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* remote invalidation only for an mkey UMR may refill */
	sk_mkey_umr(test, &m, uid, pdn, 4, 0, 0);
	mkc = m.mkc;
	PRM_SET(mkc, mkc, en_rinval, 1);
	PRM_SET(mkc, mkc, umr_en, 0);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(mkc, mkc, umr_en, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx), PRM_STAT_OK);
	/* crypto is not offered */
	sk_mkey_umr(test, &m, uid, pdn, 4, SIM_MKEY_SIG_BSF_OCTWORDS, 0);
	mkc = m.mkc;
	prm_set_bits(mkc, SIM_MKC_CRYPTO_EN_OFF, SIM_MKC_CRYPTO_EN_BITS, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
#undef SK_REFUSED
	KUNIT_EXPECT_EQ(test, sk_live(test), 2);

	/* accepted, with an expected signature error; query shows both */
	sk_mkey_umr(test, &m, uid, pdn, 1, SIM_MKEY_SIG_BSF_OCTWORDS, 0);
	PRM_SET(mkc, m.mkc, expected_sigerr_count, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_query_mkey(test, uid, idx, &out), PRM_STAT_OK);
	mkc = PRM_ADDR(query_mkey_out, out, memory_key_mkey_entry);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, bsf_en), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, bsf_octword_size), 4);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, expected_sigerr_count), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, translations_octword_size), 4);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* PSVs: 1 to 4 per command, each holding the PD, destroyed one by one. */
static void sk_sig_psv(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	u32 pdn, idx[4], one[4];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_psv(test, uid, pdn, 0, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_create_psv(test, uid, pdn, 5, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_create_psv(test, uid, pdn + 100, 1, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_live(test), 2);

	KUNIT_ASSERT_EQ(test, sk_create_psv(test, uid, pdn, 4, idx),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_psv(test, uid, pdn, 1, one),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, one[1], 0);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_NE(test, idx[i], 0);
		KUNIT_EXPECT_NE(test, idx[i], one[0]);
		KUNIT_EXPECT_EQ(test, sk_sig_obj(test, SIM_OBJ_PSV, idx[i])->uid,
				uid);
	}
	KUNIT_EXPECT_NE(test, idx[0], idx[3]);
	KUNIT_EXPECT_EQ(test, sk_live(test), 7);
	/* the PD stays until every PSV is gone */
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, sk_destroy_psv(test, uid, idx[i]),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_psv(test, uid, idx[0]),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_destroy_psv(test, uid, one[0]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A context names only its own PD and PSVs; a failed create leaves none. */
static void sk_sig_psv_owners(struct kunit *test)
{
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	u32 pda, pdb, idx[4];

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, a, &pda), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, b, &pdb), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_psv(test, b, pda, 2, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_ASSERT_EQ(test, sk_create_psv(test, a, pda, 2, idx),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_psv(test, b, idx[0]),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	/* nothing left by the refusals: uctx a, b, two PDs, two PSVs */
	KUNIT_EXPECT_EQ(test, sk_live(test), 6);
	/* a context with PSVs cannot go */
	KUNIT_EXPECT_NE(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_psv(test, a, idx[0]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_psv(test, a, idx[1]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, a, pda), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, b, pdb), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Room for one PSV, four asked: none stays. */
static void sk_sig_psv_partial(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid = sk_new_uctx(test);
	u32 pdn, idx[4];

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	/* room for one more PSV only */
	sim->max_id[SIM_OBJ_PSV] = 1;
	KUNIT_EXPECT_EQ(test, sk_create_psv(test, uid, pdn, 4, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_live(test), 2);
	KUNIT_EXPECT_EQ(test, sk_sig_obj(test, SIM_OBJ_PD, pdn)->users, 0);
	KUNIT_ASSERT_EQ(test, sk_create_psv(test, uid, pdn, 1, idx),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_psv(test, uid, idx[0]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/* The device goes with PSVs and signature mkeys still held. */
static void sk_sig_teardown(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;
	u16 uid = sk_new_uctx(test);
	struct sk_mkey m;
	u32 pdn;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_psv(test, uid, pdn, 2, NULL),
			PRM_STAT_OK);
	sk_mkey_umr(test, &m, uid, pdn, 4, SIM_MKEY_SIG_BSF_OCTWORDS, 0);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 5);
	mlx5x_sim_destroy(ctx->sim);
	ctx->sim = NULL;
}

static struct kunit_case sk_sig_cases[] = {
	KUNIT_CASE(sk_sig_caps),
	KUNIT_CASE(sk_sig_mkey_rules),
	KUNIT_CASE(sk_sig_psv),
	KUNIT_CASE(sk_sig_psv_owners),
	KUNIT_CASE(sk_sig_psv_partial),
	KUNIT_CASE(sk_sig_teardown),
	{}
};

static struct kunit_suite sk_sig_suite = {
	.name = "mlx5x_sim_sig",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_sig_cases,
};

kunit_test_suite(sk_sig_suite);
