// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ENCRYPTION_KEY general objects (type 0xc) used as data encryption keys
 * (DEKs) for AES-XTS crypto mkeys, as libmlx5's mlx5dv_dek_create(3)
 * creates them:
 *
 * - only while the profile offers crypto (fw/crypto not "none"): else
 *   general_obj_types lacks the type, and every command on it is
 *   BAD_PARAM, BAD_OPMOD (core/cmd_general.c);
 * - key_purpose AES-XTS (3) only: TLS, IPsec and MACsec keys are not
 *   offered (BAD_CAP); key_size 128 or 256 (BAD_FIELD); sw_wrapped needs
 *   the sw_wrapped_dek cap, which the profile has not (BAD_CAP);
 *   modify_field_select 0 (BAD_FIELD);
 * - in the wrapped import mode the key is wrapped by the import KEK of a
 *   crypto login: the context must hold a valid CRYPTO_LOGIN object
 *   (BAD_PARAM, NO_LOGIN); in the plaintext mode it is given in clear;
 * - the PD is the context's own, and referenced;
 * - at most 1 << log_max_num_deks of them (NO_RESOURCES, EXHAUSTED).
 *
 * QUERY returns state READY, key size, has_keytag, purpose, PD and the
 * 8-byte opaque as given, never the key.
 *
 * The key becomes a cipher of the kernel's crypto API, "xts(aes)"
 * (dek_cipher.c), set up when the DEK is created (its allocation may
 * sleep and load modules: the data path, which applies it, only looks it
 * up).  A kernel without that cipher gives none: the DEK is created all
 * the same, and a configure naming it is refused.  An AES-XTS key is two
 * AES keys, 32 bytes for key_size 128 and 64 for 256, at the start of
 * the key field:
 *
 * - plaintext mode: those bytes as given;
 * - wrapped mode: the key field holds the key wrapped as AES key wrap
 *   (RFC 3394) lays it out, an 8-byte integrity value followed by the
 *   wrapped key (40 or 72 bytes).  The model's import KEK is the identity:
 *   the 8 bytes are ignored and the key is the bytes that follow, as they
 *   are.  That is the model's rule, not a ConnectX's; the input of
 *   scripts/vm/guest-crypto.sh follows it.
 */
#include "crypto.h"
#include "../core/general.h"

struct sim_dek {
	struct sim_obj *pd;
	u8 key_size;
	u8 has_keytag;
	u8 opaque[8];
	struct crypto_sync_skcipher *tfm;
};

/* The bytes of AES-XTS key material, two AES keys, for @size. */
static unsigned int sim_dek_key_bytes(u32 size)
{
	return size == SIM_DEK_KEY_SIZE_256 ? 64 : 32;
}

/* The integrity value RFC 3394 puts before a wrapped key */
#define SIM_DEK_WRAP_ICV	8

static u32 sim_dek_max(struct mlx5x_sim *sim)
{
	return BIT(sim_crypto_cap(sim, SIM_CRC_LOG_MAX_DEKS_OFF, 5));
}

static u8 sim_dek_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			 void *priv)
{
	const u8 *obj = (const u8 *)ctx->in + PRM_BYTES(general_obj_in_cmd_hdr);
	enum sim_crypto_mode mode = sim_crypto_mode(sim);
	struct sim_dek *dek = priv;
	u32 size = prm_get_bits(obj, SIM_DEK_KEY_SIZE_OFF, 4);
	u8 status;

	if (prm_get_bits(obj, 0, 32) || prm_get_bits(obj, 32, 32))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (prm_get_bits(obj, SIM_DEK_KEY_PURPOSE_OFF, 4) !=
	    SIM_DEK_PURPOSE_AES_XTS ||
	    prm_get_bits(obj, SIM_DEK_SW_WRAPPED_OFF, 1))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (size != SIM_DEK_KEY_SIZE_128 && size != SIM_DEK_KEY_SIZE_256)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* state is firmware's to set */
	if (prm_get_bits(obj, SIM_DEK_STATE_OFF, 8))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (mode == SIM_CRYPTO_WRAPPED && !sim_crypto_logged_in(sim, ctx->uid))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_NO_LOGIN);
	status = sim_obj_ref(sim, ctx, SIM_OBJ_PD,
			     prm_get_bits(obj, SIM_DEK_PD_OFF, 24), &dek->pd);
	if (status)
		return status;
	dek->tfm = sim_dek_tfm_new(obj + SIM_DEK_KEY_BYTE +
				   (mode == SIM_CRYPTO_WRAPPED ?
				    SIM_DEK_WRAP_ICV : 0),
				   sim_dek_key_bytes(size));
	dek->key_size = size;
	dek->has_keytag = prm_get_bits(obj, SIM_DEK_HAS_KEYTAG_OFF, 1);
	memcpy(dek->opaque, obj + SIM_DEK_OPAQUE_BYTE, sizeof(dek->opaque));
	return PRM_STAT_OK;
}

static u8 sim_dek_query(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			const void *priv)
{
	u8 *obj = (u8 *)ctx->out + PRM_BYTES(general_obj_out_cmd_hdr);
	const struct sim_dek *dek = priv;

	prm_set_bits(obj, SIM_DEK_STATE_OFF, 8, SIM_DEK_STATE_READY);
	prm_set_bits(obj, SIM_DEK_KEY_SIZE_OFF, 4, dek->key_size);
	prm_set_bits(obj, SIM_DEK_HAS_KEYTAG_OFF, 1, dek->has_keytag);
	prm_set_bits(obj, SIM_DEK_KEY_PURPOSE_OFF, 4, SIM_DEK_PURPOSE_AES_XTS);
	prm_set_bits(obj, SIM_DEK_PD_OFF, 24, dek->pd->id);
	memcpy(obj + SIM_DEK_OPAQUE_BYTE, dek->opaque, sizeof(dek->opaque));
	return PRM_STAT_OK;
}

static void sim_dek_release(void *priv)
{
	struct sim_dek *dek = priv;

	sim_dek_tfm_free(dek->tfm);
	sim_obj_put(dek->pd);
}

const struct sim_gen_type sim_gen_dek = {
	.obj_type = SIM_OBJ_TYPE_DEK,
	.name = "dek",
	.create_inlen = PRM_BYTES(general_obj_in_cmd_hdr) + SIM_DEK_BYTES,
	.query_outlen = PRM_BYTES(general_obj_out_cmd_hdr) + SIM_DEK_BYTES,
	.priv_size = sizeof(struct sim_dek),
	.max_objs = sim_dek_max,
	.create = sim_dek_create,
	.query = sim_dek_query,
	.release = sim_dek_release,
};

/**
 * sim_dek_cipher_of() - the cipher of a DEK a crypto BSF names
 * @sim: the model, its lock held
 * @uid: the context using it: the DEK must be its own
 * @pdn: the PD of the mkey using it: the DEK must be on it
 * @id: the DEK's object number
 *
 * A wrapped DEK needs a crypto login to be created, not to be used
 * (mlx5dv_crypto_login_create(3)): it stays usable after the logout.
 *
 * Return: the cipher, or NULL when @id names no such DEK, or one the
 * kernel gave no cipher.
 */
struct crypto_sync_skcipher *sim_dek_cipher_of(struct mlx5x_sim *sim,
					       u16 uid, u32 pdn, u32 id)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_GENERAL], id);
	struct sim_general *gen;
	struct sim_dek *dek;

	lockdep_assert_held(&sim->lock);
	if (!obj || obj->uid != uid)
		return NULL;
	gen = container_of(obj, struct sim_general, obj);
	if (gen->type != &sim_gen_dek)
		return NULL;
	dek = gen->priv;
	if (dek->pd->id != pdn)
		return NULL;
	return dek->tfm;
}
