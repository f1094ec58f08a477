/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Crypto offload of the firmware model: the capability bits and page
 * (crypto_caps.c), data encryption keys (gen_dek.c) and crypto login
 * objects (gen_crypto_login.c).
 *
 * 6.1's mlx5_ifc.h names none of the crypto capability fields nor the
 * crypto login object, and lays out only the first 32 bytes of an
 * encryption key's key field: the positions below are those of newer
 * headers and of rdma-core's providers/mlx5/mlx5_ifc.h.
 */
#ifndef MLX5X_SIM_CRYPTO_H
#define MLX5X_SIM_CRYPTO_H

#include "../sim_priv.h"

/* QUERY_HCA_CAP type of the crypto page (MLX5_CAP_CRYPTO) */
#define SIM_CAP_CRYPTO_TYPE		0x1a

/* cmd_hca_cap bits of newer headers (reserved in 6.1) */
#define SIM_CAP_AES_XTS_SINGLE_LE_OFF	0x3f1	/* single block, LE tweak */
#define SIM_CAP_AES_XTS_MULTI_BE_OFF	0x3f2	/* multi block, BE tweak */
#define SIM_CAP_AES_XTS_MULTI_LE_OFF	0x468	/* multi block, LE tweak */
#define SIM_CAP_CRYPTO_OFF		0x469	/* crypto */

/* The crypto capability page (crypto_caps / crypto_cap) */
#define SIM_CRC_WRAPPED_OPERATIONAL_OFF	0x00
#define SIM_CRC_WRAPPED_COMMISSION_OFF	0x01
#define SIM_CRC_WRAPPED_IMPORT_OFF	0x18	/* 8 bits */
#define SIM_CRC_LOG_DEK_MAX_ALLOC_OFF	0x23	/* 5 bits */
#define SIM_CRC_LOG_MAX_DEKS_OFF	0x2b	/* 5 bits */
#define SIM_CRC_LOG_MAX_IMPORT_KEKS_OFF	0x33	/* 5 bits */
#define SIM_CRC_LOG_MAX_CREDS_OFF	0x3b	/* 5 bits */
#define SIM_CRC_FAILED_SELFTESTS_OFF	0x40	/* 16 bits */
#define SIM_CRC_NUM_NV_IMPORT_KEKS_OFF	0x50	/* 8 bits */
#define SIM_CRC_NUM_NV_CREDENTIALS_OFF	0x58	/* 8 bits */
/*
 * wrapped_import_method: bit 2, AES-XTS keys wrapped by AES key wrap
 * (MLX5_CRYPTO_WRAPPED_IMPORT_METHOD_CAP_AES_XTS of newer kernels, what
 * libmlx5 44 tests for: measured by mlx5x_crypto crypto_caps)
 */
#define SIM_CRYPTO_IMPORT_AES		0x4

/* The profile's crypto limits */
#define SIM_CRYPTO_LOG_MAX_DEKS		12
#define SIM_CRYPTO_LOG_MAX_CREDS	4
#define SIM_CRYPTO_LOG_MAX_IMPORT_KEKS	4
#define SIM_CRYPTO_NV_CREDENTIALS	1	/* credential 0 exists */
#define SIM_CRYPTO_NV_IMPORT_KEKS	1	/* import KEK 0 exists */

/*
 * The encryption key (DEK) object, general object type 0xc, 256 bytes:
 * state, key_size, has_keytag, key_purpose, pd, opaque, and a 128-byte
 * key (plaintext or wrapped) of which 6.1 names the first 32 bytes.
 * Positions are numbers: the model's layout must not follow the kernel
 * header it is built against (6.1 and 6.12 name and size it apart).
 */
#define SIM_OBJ_TYPE_DEK		0x000c
#define SIM_DEK_BYTES			256	/* 6.12's header is longer */
#define SIM_DEK_STATE_OFF		0x40	/* 8 bits */
#define SIM_DEK_SW_WRAPPED_OFF		0x48	/* 1 bit */
#define SIM_DEK_KEY_SIZE_OFF		0x54	/* 4 bits */
#define SIM_DEK_HAS_KEYTAG_OFF		0x58	/* 1 bit */
#define SIM_DEK_KEY_PURPOSE_OFF		0x5c	/* 4 bits: 6.1 calls it key_type */
#define SIM_DEK_PD_OFF			0x68	/* 24 bits */
#define SIM_DEK_OPAQUE_BYTE		0x30	/* 8 bytes */
#define SIM_DEK_KEY_BYTE		0x40	/* 128 bytes */
#define SIM_DEK_KEY_MAX			128
#define SIM_DEK_STATE_READY		0
#define SIM_DEK_STATE_ERROR		1
#define SIM_DEK_KEY_SIZE_128		0
#define SIM_DEK_KEY_SIZE_256		1
/* key_purpose: TLS 1, IPsec 2, AES-XTS 3, MACsec 4 */
#define SIM_DEK_PURPOSE_AES_XTS		3

/*
 * The crypto login object, general object type 0x1f, 256 bytes: state,
 * credential_pointer, session_import_kek_ptr and a 48-byte credential
 * wrapped by that import KEK.
 */
#define SIM_OBJ_TYPE_CRYPTO_LOGIN	0x001f
#define SIM_LOGIN_BYTES			256
#define SIM_LOGIN_STATE_OFF		0x84	/* 4 bits */
#define SIM_LOGIN_CREDENTIAL_PTR_OFF	0x88	/* 24 bits */
#define SIM_LOGIN_IMPORT_KEK_PTR_OFF	0xa8	/* 24 bits */
#define SIM_LOGIN_CREDENTIAL_BYTE	0x30	/* 48 bytes */
#define SIM_LOGIN_CREDENTIAL_BYTES	48
#define SIM_LOGIN_STATE_VALID		0
#define SIM_LOGIN_STATE_INVALID		1

/**
 * enum sim_crypto_mode - what crypto the profile offers (fw/crypto)
 * @SIM_CRYPTO_NONE: none: the crypto cap bit is clear, as on a
 *	ConnectX-6 Dx sold without crypto; the default
 * @SIM_CRYPTO_PLAINTEXT: AES-XTS with keys imported in plaintext
 * @SIM_CRYPTO_WRAPPED: AES-XTS with keys imported wrapped by an import
 *	KEK, under a crypto login (wrapped_crypto_operational)
 */
enum sim_crypto_mode {
	SIM_CRYPTO_NONE,
	SIM_CRYPTO_PLAINTEXT,
	SIM_CRYPTO_WRAPPED,
};

void sim_crypto_caps_fill(void *page);
void sim_crypto_set_mode(struct mlx5x_sim *sim, enum sim_crypto_mode mode);
enum sim_crypto_mode sim_crypto_mode(struct mlx5x_sim *sim);
u32 sim_crypto_cap(struct mlx5x_sim *sim, size_t off, size_t bits);
bool sim_crypto_logged_in(struct mlx5x_sim *sim, u16 uid);
bool sim_crypto_objects(struct mlx5x_sim *sim);
void sim_crypto_debugfs_init(struct mlx5x_sim *sim);

struct crypto_sync_skcipher;
struct crypto_sync_skcipher *sim_dek_cipher_of(struct mlx5x_sim *sim,
					       u16 uid, u32 pdn, u32 id);

/* dek_cipher.c: the crypto API's xts(aes) */
struct crypto_sync_skcipher *sim_dek_tfm_new(const u8 *key, unsigned int len);
void sim_dek_tfm_free(struct crypto_sync_skcipher *tfm);
int sim_dek_tfm_crypt(struct crypto_sync_skcipher *tfm, u8 *buf,
		      unsigned int len, u8 *iv, bool encrypt);

#endif /* MLX5X_SIM_CRYPTO_H */
