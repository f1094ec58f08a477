/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The UMR WQE and remote invalidation (dp_umr.c), as the QP engines and
 * the KUnit suites reach them: by the context, PD and number of the QP
 * that posts the UMR or receives the SEND with invalidate.
 */
#ifndef MLX5X_SIM_UMR_H
#define MLX5X_SIM_UMR_H

#include <linux/bits.h>
#include "../mem/mkey.h"
#include "wqe.h"

/**
 * struct sim_umr_qp - the QP a UMR or an invalidation is for
 * @uid: its context: every key named must be the context's
 * @pdn: its PD: every window named must be on it
 * @qpn: its number: a type 2 window is bound to it
 * @reg_umr: the kernel's REG_UMR QP: its UMRs re-register MRs of any
 *	     context (umr_rereg.c)
 */
struct sim_umr_qp {
	u16 uid;
	u32 pdn;
	u32 qpn;
	bool reg_umr;
};

/* flags: the list is inline; check the mkey's state first (6:5); its QP */
#define SIM_UMR_INLINE		BIT(7)
#define SIM_UMR_CHECK_STATE	GENMASK(6, 5)
#define SIM_UMR_MUST_BE_FREE	1
#define SIM_UMR_MUST_BE_IN_USE	2
#define SIM_UMR_XLT_OFFSET	BIT(4)
#define SIM_UMR_CHECK_QPN	BIT(3)

/* mkey_mask: the fields of the mkey context a UMR may write */
#define SIM_UMR_MASK_LEN	BIT_ULL(0)
#define SIM_UMR_MASK_START	BIT_ULL(6)
#define SIM_UMR_MASK_PD		BIT_ULL(7)
#define SIM_UMR_MASK_EN_SIGERR	BIT_ULL(9)
#define SIM_UMR_MASK_BSF_EN	BIT_ULL(12)
#define SIM_UMR_MASK_KEY	BIT_ULL(13)
#define SIM_UMR_MASK_QPN	BIT_ULL(14)
#define SIM_UMR_MASK_LR		BIT_ULL(17)
#define SIM_UMR_MASK_LW		BIT_ULL(18)
#define SIM_UMR_MASK_RR		BIT_ULL(19)
#define SIM_UMR_MASK_RW		BIT_ULL(20)
#define SIM_UMR_MASK_A		BIT_ULL(21)
#define SIM_UMR_MASK_FREE	BIT_ULL(29)
#define SIM_UMR_MASK_RIGHTS	(SIM_UMR_MASK_LR | SIM_UMR_MASK_LW |	\
				 SIM_UMR_MASK_RR | SIM_UMR_MASK_RW |	\
				 SIM_UMR_MASK_A)
#define SIM_UMR_MASK_MODELLED	(SIM_UMR_MASK_LEN | SIM_UMR_MASK_START |	\
				 SIM_UMR_MASK_KEY | SIM_UMR_MASK_QPN |	\
				 SIM_UMR_MASK_RIGHTS | SIM_UMR_MASK_FREE |	\
				 SIM_UMR_MASK_BSF_EN | SIM_UMR_MASK_EN_SIGERR | \
				 SIM_UMR_MASK_PD)

/* The translation is written in units of 64 bytes: 4 octowords. */
#define SIM_UMR_XLT_ALIGN	(SIM_MKEY_OCTWORD_ALIGN * SIM_OCTWORD_BYTES)

/**
 * struct sim_umr - a UMR WQE as the device reads it
 * @key: the mkey it changes (the control segment's immediate)
 * @flags: of the UMR control segment
 * @mask: the fields written
 * @mkc: the mkey context segment: an mkey context (struct mlx5_ifc_mkc)
 * @nklm: KLM entries given
 * @klm: the first of them, inline
 * @nbsf: octowords of BSF given (with SIM_UMR_MASK_BSF_EN)
 * @bsf: the BSF, after the translation
 */
struct sim_umr {
	u32 key;
	u8 flags;
	u64 mask;
	const void *mkc;
	u32 nklm;
	const struct sim_klm *klm;
	u32 nbsf;
	const u8 *bsf;
};

u32 sim_umr_exec(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		 const u8 *wqe, size_t len);
bool sim_umr_invalidate(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
			u32 key);

void sim_umr_write_mkc(struct sim_mkey *mkey, const struct sim_umr *u);

/* umr_rereg.c: the kernel's re-registration of an MR */
u32 sim_umr_rereg(struct mlx5x_sim *sim, const struct sim_umr *u);

/**
 * struct sim_umr_layout - the layout a configure gives, checked
 * @ent: its entries, each naming a live mkey (not yet referenced); NULL
 *	 when it gives none
 * @n: how many
 * @depth: the mkey's depth with them
 * @covered: the bytes they cover
 * @rb_count: a repeat block's repetitions; 0 for a KLM list
 * @rb_bytes: a repeat block's bytes per repetition
 */
struct sim_umr_layout {
	struct sim_mkey_ent *ent;
	u32 n;
	u8 depth;
	u64 covered;
	u32 rb_count;
	u32 rb_bytes;
};

/* umr_mkey.c: mlx5dv_wr_mkey_configure() and its LOCAL_INV */
bool sim_umr_mkey_op(const struct sim_mkey *mkey, const struct sim_umr *u);
u32 sim_umr_mkey(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		 struct sim_mkey *mkey, const struct sim_umr *u);
struct sim_mkey *sim_umr_mkey_entry(struct mlx5x_sim *sim,
				    const struct sim_umr_qp *qp,
				    const struct sim_mkey *mkey, u32 key,
				    unsigned int rights);

/* umr_repeat.c: the repeat block of an interleaved layout */
bool sim_umr_is_repeat(const struct sim_umr *u);
u32 sim_umr_repeat(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		   const struct sim_mkey *mkey, const struct sim_umr *u,
		   unsigned int rights, struct sim_umr_layout *l);

/*
 * What a signature BSF (sig_bsf.c) and a crypto BSF (crypto_bsf.c) have
 * alike: 64 bytes, raw data size all of it (bytes 4-7, as libmlx5
 * writes), and the selector of a block's (a data unit's) size.
 */
#define SIM_BSF_BYTES		64
#define SIM_BSF_RAW_ALL		U32_MAX

/*
 * Bytes of a block by its selector: 512 (1), 520 (2), 4096 (3), 4160 (4),
 * 4048 (6); 0 for one the model does not do (5, and the reserved ones).
 */
static inline u32 sim_bsf_block(u8 sel)
{
	switch (sel) {
	case 1:
		return 512;
	case 2:
		return 520;
	case 3:
		return 4096;
	case 4:
		return 4160;
	case 6:
		return 4048;
	default:
		return 0;
	}
}

/*
 * A UMR that does not name bsf_en in its mask leaves the mkey's BSF as it
 * is, and may give none: true, and *@synd its syndrome (0 or MW_BIND).
 * False: it names bsf_en, and its BSF is for the caller to check.
 */
static inline bool sim_umr_bsf_kept(const struct sim_umr *u, u32 *synd)
{
	if (u->mask & SIM_UMR_MASK_BSF_EN)
		return false;
	*synd = u->nbsf ? SIM_CQE_SYND_MW_BIND : 0;
	return true;
}

/* The UMR gives one BSF, of SIM_BSF_BYTES. */
static inline bool sim_umr_bsf_whole(const struct sim_umr *u)
{
	return u->nbsf * SIM_OCTWORD_BYTES == SIM_BSF_BYTES;
}

/* crypto_bsf.c: the crypto BSF of mlx5dv_wr_set_mkey_crypto() */
bool sim_crypto_bsf_parse(const u8 *b, struct sim_mkey_crypto *cfg);
u32 sim_crypto_bsf(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		   const struct sim_mkey *mkey, const struct sim_umr *u,
		   struct sim_mkey_crypto *cfg, bool *given);

#endif /* MLX5X_SIM_UMR_H */
