// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: crypto offload in the model: the three modes of the profile as
 * QUERY_HCA_CAP reports them, DEKs (ENCRYPTION_KEY objects) and crypto
 * logins, and crypto mkeys (crypto_en) as libmlx5's
 * mlx5dv_create_mkey(3) CRYPTO creates them.
 */
#include "sk_mkey.h"
#include "../mem/crypto.h"
#include "../core/general.h"

static void sk_crypto_mode(struct kunit *test, enum sim_crypto_mode mode)
{
	struct mlx5x_sim *sim = sk_sim(test);

	mutex_lock(&sim->lock);
	sim_crypto_set_mode(sim, mode);
	mutex_unlock(&sim->lock);
}

static u8 sk_gen_create(struct kunit *test, void *in, size_t inlen, u32 *id)
{
	void *out = SK_MBOX(test, general_obj_out_cmd_hdr);
	u8 status;

	status = sk_exec(test, in, inlen, out,
			 PRM_BYTES(general_obj_out_cmd_hdr));
	if (id)
		*id = PRM_GET(general_obj_out_cmd_hdr, out, obj_id);
	return status;
}

static void *sk_gen_in(struct kunit *test, u16 uid, u16 type, u8 **obj)
{
	void *in = sk_mbox(test, PRM_BYTES(general_obj_in_cmd_hdr) + 256);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, type);
	*obj = (u8 *)in + PRM_BYTES(general_obj_in_cmd_hdr);
	return in;
}

/* A DEK mailbox as libmlx5 fills it: AES-XTS, 128-bit, opaque "dek". */
static void *sk_dek_in(struct kunit *test, u16 uid, u32 pdn, u8 **obj)
{
	void *in = sk_gen_in(test, uid, SIM_OBJ_TYPE_DEK, obj);

	prm_set_bits(*obj, SIM_DEK_KEY_SIZE_OFF, 4, SIM_DEK_KEY_SIZE_128);
	prm_set_bits(*obj, SIM_DEK_KEY_PURPOSE_OFF, 4, SIM_DEK_PURPOSE_AES_XTS);
	prm_set_bits(*obj, SIM_DEK_PD_OFF, 24, pdn);
	memcpy(*obj + SIM_DEK_OPAQUE_BYTE, "dek", 3);
	memset(*obj + SIM_DEK_KEY_BYTE, 0x5a, 32);
	return in;
}

static u8 sk_dek(struct kunit *test, void *in, u32 *id)
{
	return sk_gen_create(test, in, PRM_BYTES(general_obj_in_cmd_hdr) + 256,
			     id);
}

static u8 sk_login(struct kunit *test, u16 uid, u32 cred, u32 kek, u32 *id)
{
	u8 *obj;
	void *in = sk_gen_in(test, uid, SIM_OBJ_TYPE_CRYPTO_LOGIN, &obj);

	prm_set_bits(obj, SIM_LOGIN_CREDENTIAL_PTR_OFF, 24, cred);
	prm_set_bits(obj, SIM_LOGIN_IMPORT_KEK_PTR_OFF, 24, kek);
	memset(obj + SIM_LOGIN_CREDENTIAL_BYTE, 0xc3,
	       SIM_LOGIN_CREDENTIAL_BYTES);
	return sk_gen_create(test, in, PRM_BYTES(general_obj_in_cmd_hdr) + 256,
			     id);
}

static u8 sk_gen_op(struct kunit *test, u16 opcode, u16 uid, u16 type, u32 id,
		    u8 **obj)
{
	void *in = SK_MBOX(test, general_obj_in_cmd_hdr);
	size_t outlen = PRM_BYTES(general_obj_out_cmd_hdr) + 256;
	void *out = sk_mbox(test, outlen);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode, opcode);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, type);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	if (obj)
		*obj = (u8 *)out + PRM_BYTES(general_obj_out_cmd_hdr);
	return sk_exec(test, in, PRM_BYTES(general_obj_in_cmd_hdr), out,
		       outlen);
}

static u8 sk_destroy(struct kunit *test, u16 uid, u16 type, u32 id)
{
	return sk_gen_op(test, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, uid, type,
			 id, NULL);
}

static u64 sk_obj_types(void *cap)
{
	size_t off = PRM_BIT_OFF(cmd_hca_cap, general_obj_types);

	return (u64)prm_get_bits(cap, off, 32) << 32 |
	       prm_get_bits(cap, off + 32, 32);
}

/* Each mode as QUERY_HCA_CAP reports it, in the bits libmlx5 reads. */
static void sk_crypto_caps(struct kunit *test)
{
	static const struct {
		enum sim_crypto_mode mode;
		bool crypto, wrapped;
	} modes[] = {
		{ SIM_CRYPTO_NONE, false, false },
		{ SIM_CRYPTO_PLAINTEXT, true, false },
		{ SIM_CRYPTO_WRAPPED, true, true },
	};
	void *cap, *page;
	unsigned int i;
	u64 types;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		sk_crypto_mode(test, modes[i].mode);
		KUNIT_EXPECT_EQ(test, sim_crypto_mode(sk_sim(test)),
				modes[i].mode);
		KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0, 1),
						   false, &cap), PRM_STAT_OK);
		KUNIT_EXPECT_EQ(test, prm_get_bits(cap, SIM_CAP_CRYPTO_OFF, 1),
				modes[i].crypto);
		KUNIT_EXPECT_EQ(test,
				prm_get_bits(cap, SIM_CAP_AES_XTS_SINGLE_LE_OFF,
					     1), modes[i].crypto);
		KUNIT_EXPECT_EQ(test,
				prm_get_bits(cap, SIM_CAP_AES_XTS_MULTI_BE_OFF,
					     1), modes[i].crypto);
		types = sk_obj_types(cap);
		KUNIT_EXPECT_EQ(test, !!(types & BIT_ULL(SIM_OBJ_TYPE_DEK)),
				modes[i].crypto);
		KUNIT_EXPECT_EQ(test,
				!!(types & BIT_ULL(SIM_OBJ_TYPE_CRYPTO_LOGIN)),
				modes[i].wrapped);
		/* the other types stay */
		KUNIT_EXPECT_TRUE(test,
				  types & BIT_ULL(MLX5_OBJ_TYPE_MATCH_DEFINER));
		KUNIT_ASSERT_EQ(test, sk_query_cap(test,
					PRM_CAP_OPMOD(SIM_CAP_CRYPTO_TYPE, 1),
					false, &page), PRM_STAT_OK);
		KUNIT_EXPECT_EQ(test, prm_get_bits(page,
				SIM_CRC_WRAPPED_OPERATIONAL_OFF, 1),
				modes[i].wrapped);
		KUNIT_EXPECT_EQ(test, prm_get_bits(page,
				SIM_CRC_WRAPPED_IMPORT_OFF, 8),
				modes[i].wrapped ? SIM_CRYPTO_IMPORT_AES : 0);
		KUNIT_EXPECT_EQ(test, prm_get_bits(page,
				SIM_CRC_LOG_MAX_DEKS_OFF, 5),
				SIM_CRYPTO_LOG_MAX_DEKS);
		KUNIT_EXPECT_EQ(test, prm_get_bits(page,
				SIM_CRC_FAILED_SELFTESTS_OFF, 16), 0);
	}
}

/* Plaintext DEKs: create, query, the PD reference, and every refusal. */
static void sk_crypto_dek(struct kunit *test)
{
	u16 uid = sk_new_uctx(test), other = sk_new_uctx(test);
	u32 pdn, opdn, id;
	u8 *obj, *q;
	void *in;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, other, &opdn), PRM_STAT_OK);
	/* no crypto: no such type */
	KUNIT_EXPECT_EQ(test, sk_dek(test, sk_dek_in(test, uid, pdn, &obj),
				     NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_OPMOD);

	sk_crypto_mode(test, SIM_CRYPTO_PLAINTEXT);
	/* purposes other than AES-XTS, sw_wrapped: not offered */
	in = sk_dek_in(test, uid, pdn, &obj);
	prm_set_bits(obj, SIM_DEK_KEY_PURPOSE_OFF, 4, 1);	/* TLS */
	KUNIT_EXPECT_EQ(test, sk_dek(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	in = sk_dek_in(test, uid, pdn, &obj);
	prm_set_bits(obj, SIM_DEK_SW_WRAPPED_OFF, 1, 1);
	KUNIT_EXPECT_EQ(test, sk_dek(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	/* key sizes 128 and 256 only; state and modify_field_select 0 */
	in = sk_dek_in(test, uid, pdn, &obj);
	prm_set_bits(obj, SIM_DEK_KEY_SIZE_OFF, 4, 2);
	KUNIT_EXPECT_EQ(test, sk_dek(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	in = sk_dek_in(test, uid, pdn, &obj);
	prm_set_bits(obj, SIM_DEK_STATE_OFF, 8, SIM_DEK_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, sk_dek(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	in = sk_dek_in(test, uid, pdn, &obj);
	prm_set_bits(obj, 63, 1, 1);
	KUNIT_EXPECT_EQ(test, sk_dek(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* another context's PD, no PD, a short mailbox */
	KUNIT_EXPECT_EQ(test, sk_dek(test, sk_dek_in(test, uid, opdn, &obj),
				     NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dek(test, sk_dek_in(test, uid, 0xfff, &obj),
				     NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_gen_create(test, sk_dek_in(test, uid, pdn,
							    &obj),
					    PRM_BYTES(general_obj_in_cmd_hdr) +
					    64, NULL), PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_live(test), 4);

	/* a good one, 256-bit with a keytag; its PD is held */
	in = sk_dek_in(test, uid, pdn, &obj);
	prm_set_bits(obj, SIM_DEK_KEY_SIZE_OFF, 4, SIM_DEK_KEY_SIZE_256);
	prm_set_bits(obj, SIM_DEK_HAS_KEYTAG_OFF, 1, 1);
	KUNIT_ASSERT_EQ(test, sk_dek(test, in, &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_ASSERT_EQ(test, sk_gen_op(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					uid, SIM_OBJ_TYPE_DEK, id, &q),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, prm_get_bits(q, SIM_DEK_STATE_OFF, 8),
			SIM_DEK_STATE_READY);
	KUNIT_EXPECT_EQ(test, prm_get_bits(q, SIM_DEK_KEY_SIZE_OFF, 4),
			SIM_DEK_KEY_SIZE_256);
	KUNIT_EXPECT_EQ(test, prm_get_bits(q, SIM_DEK_HAS_KEYTAG_OFF, 1), 1);
	KUNIT_EXPECT_EQ(test, prm_get_bits(q, SIM_DEK_KEY_PURPOSE_OFF, 4),
			SIM_DEK_PURPOSE_AES_XTS);
	KUNIT_EXPECT_EQ(test, prm_get_bits(q, SIM_DEK_PD_OFF, 24), pdn);
	KUNIT_EXPECT_EQ(test, memcmp(q + SIM_DEK_OPAQUE_BYTE, "dek\0\0\0\0\0",
				     8), 0);
	/* the key never comes back */
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(q + SIM_DEK_KEY_BYTE, 0,
					 SIM_DEK_KEY_MAX), NULL);
	/* nothing of it can be modified */
	KUNIT_EXPECT_EQ(test, sk_gen_op(test,
					MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, uid,
					SIM_OBJ_TYPE_DEK, id, NULL),
			PRM_STAT_BAD_PARAM);
	/* the mode is fixed while a DEK exists (fw/crypto says EBUSY) */
	KUNIT_EXPECT_TRUE(test, sim_crypto_objects(sk_sim(test)));
	/* another context sees nothing of it */
	KUNIT_EXPECT_EQ(test, sk_gen_op(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					other, SIM_OBJ_TYPE_DEK, id, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_destroy(test, other, SIM_OBJ_TYPE_DEK, id),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_destroy(test, uid, SIM_OBJ_TYPE_DEK, id),
			PRM_STAT_OK);
	KUNIT_EXPECT_FALSE(test, sim_crypto_objects(sk_sim(test)));
	KUNIT_EXPECT_EQ(test, sk_destroy(test, uid, SIM_OBJ_TYPE_DEK, id),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_live(test), 4);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, other, opdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
}

/* At most 1 << log_max_num_deks, as the crypto page says. */
static void sk_crypto_dek_limit(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid = sk_new_uctx(test);
	u32 pdn, id[4];
	unsigned int i;
	u8 *obj;

	sk_crypto_mode(test, SIM_CRYPTO_PLAINTEXT);
	prm_set_bits(sim->caps[SIM_CAP_CRYPTO_TYPE], SIM_CRC_LOG_MAX_DEKS_OFF,
		     5, 2);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	for (i = 0; i < ARRAY_SIZE(id); i++)
		KUNIT_ASSERT_EQ(test, sk_dek(test, sk_dek_in(test, uid, pdn,
							     &obj), &id[i]),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dek(test, sk_dek_in(test, uid, pdn, &obj),
				     NULL), PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_live(test), 2 + ARRAY_SIZE(id));
	for (i = 0; i < ARRAY_SIZE(id); i++)
		KUNIT_EXPECT_EQ(test, sk_destroy(test, uid, SIM_OBJ_TYPE_DEK,
						 id[i]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/* Wrapped import: a DEK needs its own context's crypto login. */
static void sk_crypto_login(struct kunit *test)
{
	u16 uid = sk_new_uctx(test), other = sk_new_uctx(test);
	u32 pdn, opdn, login, dek;
	u8 *obj, *q;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, other, &opdn), PRM_STAT_OK);
	/* plaintext mode: no login objects */
	sk_crypto_mode(test, SIM_CRYPTO_PLAINTEXT);
	KUNIT_EXPECT_EQ(test, sk_login(test, uid, 0, 0, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_OPMOD);

	sk_crypto_mode(test, SIM_CRYPTO_WRAPPED);
	KUNIT_EXPECT_EQ(test, sk_dek(test, sk_dek_in(test, uid, pdn, &obj),
				     NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_LOGIN);
	/* one credential and one import KEK, both number 0 */
	KUNIT_EXPECT_EQ(test, sk_login(test, uid, 1, 0, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_login(test, uid, 0, 1, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_ASSERT_EQ(test, sk_login(test, uid, 0, 0, &login), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_gen_op(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					uid, SIM_OBJ_TYPE_CRYPTO_LOGIN, login,
					&q), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, prm_get_bits(q, SIM_LOGIN_STATE_OFF, 4),
			SIM_LOGIN_STATE_VALID);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(q + SIM_LOGIN_CREDENTIAL_BYTE, 0,
					 SIM_LOGIN_CREDENTIAL_BYTES), NULL);
	KUNIT_ASSERT_EQ(test, sk_dek(test, sk_dek_in(test, uid, pdn, &obj),
				     &dek), PRM_STAT_OK);
	/* another context's login is not this one's */
	KUNIT_EXPECT_EQ(test, sk_dek(test, sk_dek_in(test, other, opdn, &obj),
				     NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_LOGIN);
	KUNIT_EXPECT_EQ(test, sk_destroy(test, other,
					 SIM_OBJ_TYPE_CRYPTO_LOGIN, login),
			PRM_STAT_BAD_RESOURCE);
	/* logout: the DEK stays usable, a new one needs a new login */
	KUNIT_EXPECT_EQ(test, sk_destroy(test, uid, SIM_OBJ_TYPE_CRYPTO_LOGIN,
					 login), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_gen_op(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					uid, SIM_OBJ_TYPE_DEK, dek, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dek(test, sk_dek_in(test, uid, pdn, &obj),
				     NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_LOGIN);
	KUNIT_EXPECT_EQ(test, sk_destroy(test, uid, SIM_OBJ_TYPE_DEK, dek),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, other, opdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
}

/* crypto_en: the cap, an indirect UMR mkey with a BSF, nothing else. */
static void sk_crypto_mkey_rules(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	struct sim_mkey *mkey;
	struct sk_mkey m;
	u32 pdn, idx[2];

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	sk_mkey_umr(test, &m, uid, pdn, 4, 4, 1);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);

	sk_crypto_mode(test, SIM_CRYPTO_PLAINTEXT);
	/* crypto_en 2 and 3 are reserved */
	sk_mkey_umr(test, &m, uid, pdn, 4, 4, 1);
	prm_set_bits(m.mkc, SIM_MKC_CRYPTO_EN_OFF, SIM_MKC_CRYPTO_EN_BITS, 2);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* a direct mkey, no umr_en, no BSF, a BSF too small or odd */
	sk_mkey_umr(test, &m, uid, pdn, 4, 4, 1);
	PRM_SET(mkc, m.mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	sk_mkey_umr(test, &m, uid, pdn, 4, 4, 1);
	PRM_SET(mkc, m.mkc, umr_en, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	sk_mkey_umr(test, &m, uid, pdn, 4, 0, 1);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	sk_mkey_umr(test, &m, uid, pdn, 4, 2, 1);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	sk_mkey_umr(test, &m, uid, pdn, 4, 6, 1);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_live(test), 2);
	/* crypto alone (4 octwords) and with a signature (8) */
	sk_mkey_umr(test, &m, uid, pdn, 4, 4, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx[0]), PRM_STAT_OK);
	sk_mkey_umr(test, &m, uid, pdn, 4, 8, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx[1]), PRM_STAT_OK);
	mkey = container_of(xa_load(&sk_sim(test)->objs[SIM_OBJ_MKEY],
				    idx[0]), struct sim_mkey, obj);
	KUNIT_EXPECT_TRUE(test, sim_mkey_crypto(mkey));
	KUNIT_EXPECT_FALSE(test, mkey->crypto_configured);
	/* an mkey with crypto_en does not stop the mode from changing */
	KUNIT_EXPECT_FALSE(test, sim_crypto_objects(sk_sim(test)));
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx[0]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx[1]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/* The device goes with DEKs and logins still held. */
static void sk_crypto_teardown(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;
	u16 uid = sk_new_uctx(test);
	u32 pdn;
	u8 *obj;

	sk_crypto_mode(test, SIM_CRYPTO_WRAPPED);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_login(test, uid, 0, 0, NULL), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_dek(test, sk_dek_in(test, uid, pdn, &obj),
				     NULL), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 4);
	mlx5x_sim_destroy(ctx->sim);
	ctx->sim = NULL;
}

static struct kunit_case sk_crypto_cases[] = {
	KUNIT_CASE(sk_crypto_caps),
	KUNIT_CASE(sk_crypto_dek),
	KUNIT_CASE(sk_crypto_dek_limit),
	KUNIT_CASE(sk_crypto_login),
	KUNIT_CASE(sk_crypto_mkey_rules),
	KUNIT_CASE(sk_crypto_teardown),
	{}
};

static struct kunit_suite sk_crypto_suite = {
	.name = "mlx5x_sim_crypto",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_crypto_cases,
};

kunit_test_suite(sk_crypto_suite);
