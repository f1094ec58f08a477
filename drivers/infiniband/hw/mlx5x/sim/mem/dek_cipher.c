// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A DEK's AES-XTS cipher (gen_dek.c), through the kernel's crypto API: a
 * synchronous "xts(aes)" skcipher keyed with the DEK's two AES keys, and
 * one data unit ciphered in place with its IV.
 *
 * Debian's kernels have the crypto API built in and the xts template as
 * a module (xts.ko, a soft dependency of the module, so that modprobe
 * loads it first).  A kernel without the skcipher API (the KUnit debug
 * kernel) has no cipher to give: a DEK is then created without one, and
 * a configure naming it is refused (dp/crypto_bsf.c).
 */
#include <crypto/skcipher.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include "crypto.h"

MODULE_SOFTDEP("pre: xts");

#if IS_REACHABLE(CONFIG_CRYPTO_SKCIPHER)
/**
 * sim_dek_tfm_new() - an xts(aes) cipher keyed with @key
 * @key: two AES keys
 * @len: their bytes, 32 or 64
 *
 * Context: process context; may sleep and load the template.
 * Return: the cipher, or NULL when the kernel has none or refuses the key.
 */
struct crypto_sync_skcipher *sim_dek_tfm_new(const u8 *key, unsigned int len)
{
	struct crypto_sync_skcipher *tfm;

	tfm = crypto_alloc_sync_skcipher("xts(aes)", 0, 0);
	if (IS_ERR(tfm))
		return NULL;
	if (crypto_sync_skcipher_setkey(tfm, key, len)) {
		crypto_free_sync_skcipher(tfm);
		return NULL;
	}
	return tfm;
}

/**
 * sim_dek_tfm_free() - free a cipher of sim_dek_tfm_new()
 * @tfm: the cipher, or NULL
 */
void sim_dek_tfm_free(struct crypto_sync_skcipher *tfm)
{
	if (tfm)
		crypto_free_sync_skcipher(tfm);
}

/**
 * sim_dek_tfm_crypt() - encrypt or decrypt one data unit in place
 * @tfm: the DEK's cipher
 * @buf: the unit, in linear memory (not on the stack)
 * @len: its bytes
 * @iv: its 16-byte IV: the tweak, little endian
 * @encrypt: encrypt, else decrypt
 *
 * Return: 0 or the cipher's error.
 */
int sim_dek_tfm_crypt(struct crypto_sync_skcipher *tfm, u8 *buf,
		      unsigned int len, u8 *iv, bool encrypt)
{
	SYNC_SKCIPHER_REQUEST_ON_STACK(req, tfm);
	struct scatterlist sg;
	int err;

	sg_init_one(&sg, buf, len);
	skcipher_request_set_sync_tfm(req, tfm);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, len, iv);
	err = encrypt ? crypto_skcipher_encrypt(req) :
			crypto_skcipher_decrypt(req);
	skcipher_request_zero(req);
	return err;
}
#else
struct crypto_sync_skcipher *sim_dek_tfm_new(const u8 *key, unsigned int len)
{
	return NULL;
}

void sim_dek_tfm_free(struct crypto_sync_skcipher *tfm)
{
}

int sim_dek_tfm_crypt(struct crypto_sync_skcipher *tfm, u8 *buf,
		      unsigned int len, u8 *iv, bool encrypt)
{
	return -EOPNOTSUPP;
}
#endif
