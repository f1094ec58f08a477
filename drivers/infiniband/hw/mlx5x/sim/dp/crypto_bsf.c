// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The crypto BSF of a UMR WQE: what mlx5dv_wr_set_mkey_crypto() makes
 * libmlx5 put after the KLM list of mlx5dv_wr_mkey_configure()'s UMR, and
 * what it configures in a crypto mkey (crypto_en) for the data path
 * (dp_crypto.c).
 *
 * The UMR control segment's translation offset field is the BSF's size in
 * octowords when the mkey mask names bsf_en and the translation offset
 * flag is clear; the BSF follows the translation, which is padded to 64
 * bytes.  A crypto BSF is 64 bytes:
 *
 *   byte 0      BSF size (7:6, 2: 64 bytes) and type (5:0, 1: crypto)
 *   byte 1      encryption order: 0 encrypted wire (signature), 1 encrypted
 *               memory (signature), 2 raw wire, 3 raw memory
 *   byte 3      encryption standard: 0 AES-XTS
 *   bytes 4-7   raw data size: all of it (0xffffffff), as libmlx5 writes
 *   byte 8      data unit size selector: 512 bytes (1), 520 (2), 4096 (3),
 *               4160 (4), 4048 (6)
 *   bytes 16-31 the first data unit's tweak, a big-endian number
 *   bytes 32-35 the DEK's object number (23:0)
 *   bytes 40-47 keytag
 *
 * Everything else is reserved and must be 0.  The DEK must be one of the
 * QP's context, on the mkey's PD, with a cipher (mem/gen_dek.c; a
 * wrapped one needed a crypto login to be created, not to be used).  A
 * crypto mkey takes a crypto BSF and no signature BSF (signature is not
 * modelled), and only a crypto mkey takes one; bsf_en stays set.  Every
 * refusal is the configure's error CQE, MW_BIND, and the mkey is left as
 * it was.  A configure without a BSF leaves a crypto mkey's BSF as it
 * was: until a first one, traffic through it fails (mem/mkey_access.c).
 *
 * The keytag is taken as given: the model does not keep a DEK's keytag
 * and compares none.
 */
#include "../mem/crypto.h"
#include "umr.h"
#include "wqe.h"

#define SIM_CBSF_SIZE_TYPE	0x81	/* 64 bytes, crypto */
#define SIM_CBSF_ORDER_MAX	3
#define SIM_CBSF_ORDER_MEM	BIT(0)	/* orders 1 and 3: memory side */
#define SIM_CBSF_AES_XTS	0
#define SIM_CBSF_DEK_MASK	GENMASK(23, 0)

/**
 * struct sim_cbsf - a crypto BSF (struct mlx5_crypto_bsf of libmlx5)
 * @size_type: BSF size and type
 * @order: encryption order
 * @rsvd0: reserved
 * @standard: encryption standard
 * @raw_size: bytes covered
 * @unit_sel: data unit size selector
 * @rsvd1: reserved
 * @tweak: the first data unit's tweak
 * @dek: DEK object number
 * @rsvd2: reserved
 * @keytag: keytag
 * @rsvd3: reserved
 */
struct sim_cbsf {
	u8 size_type;
	u8 order;
	u8 rsvd0;
	u8 standard;
	__be32 raw_size;
	u8 unit_sel;
	u8 rsvd1[7];
	u8 tweak[16];
	__be32 dek;
	u8 rsvd2[4];
	u8 keytag[8];
	u8 rsvd3[16];
};

static_assert(sizeof(struct sim_cbsf) == SIM_BSF_BYTES);

/**
 * sim_crypto_bsf_parse() - check a crypto BSF on its own
 * @b: its 64 bytes
 * @cfg: what it configures
 *
 * Return: true if every field holds a value the model executes.
 */
bool sim_crypto_bsf_parse(const u8 *b, struct sim_mkey_crypto *cfg)
{
	const struct sim_cbsf *c = (const void *)b;
	u32 dek = be32_to_cpu(c->dek);

	if (c->size_type != SIM_CBSF_SIZE_TYPE ||
	    c->order > SIM_CBSF_ORDER_MAX || c->rsvd0 ||
	    c->standard != SIM_CBSF_AES_XTS ||
	    be32_to_cpu(c->raw_size) != SIM_BSF_RAW_ALL ||
	    !sim_bsf_block(c->unit_sel) ||
	    memchr_inv(c->rsvd1, 0, sizeof(c->rsvd1)) ||
	    (dek & ~SIM_CBSF_DEK_MASK) ||
	    memchr_inv(c->rsvd2, 0, sizeof(c->rsvd2)) ||
	    memchr_inv(c->rsvd3, 0, sizeof(c->rsvd3)))
		return false;
	cfg->dek = dek;
	cfg->mem_encrypted = c->order & SIM_CBSF_ORDER_MEM;
	cfg->unit = sim_bsf_block(c->unit_sel);
	memcpy(cfg->tweak, c->tweak, sizeof(cfg->tweak));
	return true;
}

/**
 * sim_crypto_bsf() - check the BSF of a configure of @mkey
 * @sim: the model, its lock held
 * @qp: the QP that posted it: its context
 * @mkey: the mkey it configures
 * @u: the UMR
 * @cfg: the crypto BSF it gives
 * @given: whether it gives one
 *
 * Return: 0, or the error CQE's syndrome (MW_BIND).
 */
u32 sim_crypto_bsf(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		   const struct sim_mkey *mkey, const struct sim_umr *u,
		   struct sim_mkey_crypto *cfg, bool *given)
{
	u32 synd;

	*given = false;
	if (sim_umr_bsf_kept(u, &synd))
		return synd;
	/* one crypto BSF, bsf_en kept, on a crypto mkey sized for it */
	if (!sim_mkey_crypto(mkey) || !PRM_GET(mkc, u->mkc, bsf_en) ||
	    !sim_umr_bsf_whole(u) ||
	    PRM_GET(mkc, mkey->mkc, bsf_octword_size) !=
	    SIM_MKEY_CRYPTO_BSF_OCTWORDS)
		return SIM_CQE_SYND_MW_BIND;
	if (!sim_crypto_bsf_parse(u->bsf, cfg) ||
	    !sim_dek_cipher_of(sim, qp->uid, mkey->pd->id, cfg->dek))
		return SIM_CQE_SYND_MW_BIND;
	*given = true;
	return 0;
}
