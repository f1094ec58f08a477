// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CRYPTO_LOGIN general objects (type 0x1f): a crypto login session, as
 * libmlx5's mlx5dv_crypto_login(3) and mlx5dv_crypto_login_create(3)
 * create them.  While one of its own is valid, a context may import
 * wrapped DEKs (gen_dek.c).
 *
 * - only in the wrapped import mode (fw/crypto "wrapped"): else
 *   general_obj_types lacks the type (BAD_PARAM, BAD_OPMOD);
 * - credential_pointer and session_import_kek_ptr name one of the
 *   device's num_nv_credentials credentials and num_nv_import_keks import
 *   KEKs (the profile has one of each, number 0): BAD_FIELD otherwise;
 * - modify_field_select and state are 0 (BAD_FIELD).
 *
 * The 48-byte credential is taken as given: the model holds no secret to
 * unwrap it with, so a login never fails on its content, and a session
 * stays VALID until destroyed.  QUERY returns the state and the two
 * pointers, never the credential.
 */
#include "crypto.h"
#include "../core/general.h"

struct sim_crypto_login {
	u32 credential;
	u32 import_kek;
};

static u8 sim_login_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   void *priv)
{
	const u8 *obj = (const u8 *)ctx->in + PRM_BYTES(general_obj_in_cmd_hdr);
	struct sim_crypto_login *login = priv;
	u32 cred = prm_get_bits(obj, SIM_LOGIN_CREDENTIAL_PTR_OFF, 24);
	u32 kek = prm_get_bits(obj, SIM_LOGIN_IMPORT_KEK_PTR_OFF, 24);

	if (prm_get_bits(obj, 0, 32) || prm_get_bits(obj, 32, 32) ||
	    prm_get_bits(obj, SIM_LOGIN_STATE_OFF, 4))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (cred >= sim_crypto_cap(sim, SIM_CRC_NUM_NV_CREDENTIALS_OFF, 8) ||
	    kek >= sim_crypto_cap(sim, SIM_CRC_NUM_NV_IMPORT_KEKS_OFF, 8))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	login->credential = cred;
	login->import_kek = kek;
	return PRM_STAT_OK;
}

static u8 sim_login_query(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			  const void *priv)
{
	u8 *obj = (u8 *)ctx->out + PRM_BYTES(general_obj_out_cmd_hdr);
	const struct sim_crypto_login *login = priv;

	prm_set_bits(obj, SIM_LOGIN_STATE_OFF, 4, SIM_LOGIN_STATE_VALID);
	prm_set_bits(obj, SIM_LOGIN_CREDENTIAL_PTR_OFF, 24, login->credential);
	prm_set_bits(obj, SIM_LOGIN_IMPORT_KEK_PTR_OFF, 24, login->import_kek);
	return PRM_STAT_OK;
}

const struct sim_gen_type sim_gen_crypto_login = {
	.obj_type = SIM_OBJ_TYPE_CRYPTO_LOGIN,
	.name = "crypto_login",
	.create_inlen = PRM_BYTES(general_obj_in_cmd_hdr) + SIM_LOGIN_BYTES,
	.query_outlen = PRM_BYTES(general_obj_out_cmd_hdr) + SIM_LOGIN_BYTES,
	.priv_size = sizeof(struct sim_crypto_login),
	.create = sim_login_create,
	.query = sim_login_query,
};

/**
 * sim_crypto_objects() - whether any DEK or crypto login exists
 * @sim: the model, its lock held
 *
 * Return: true if one does: the crypto mode must not change under it.
 */
bool sim_crypto_objects(struct mlx5x_sim *sim)
{
	struct sim_general *gen;
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each(&sim->objs[SIM_OBJ_GENERAL], id, obj) {
		gen = container_of(obj, struct sim_general, obj);
		if (gen->type == &sim_gen_crypto_login ||
		    gen->type == &sim_gen_dek)
			return true;
	}
	return false;
}

/**
 * sim_crypto_logged_in() - whether a context has a valid crypto login
 * @sim: the model, its lock held
 * @uid: the context
 *
 * Return: true if @uid owns a CRYPTO_LOGIN object (all are valid).
 */
bool sim_crypto_logged_in(struct mlx5x_sim *sim, u16 uid)
{
	struct sim_general *gen;
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each(&sim->objs[SIM_OBJ_GENERAL], id, obj) {
		gen = container_of(obj, struct sim_general, obj);
		if (obj->uid == uid && gen->type == &sim_gen_crypto_login)
			return true;
	}
	return false;
}
