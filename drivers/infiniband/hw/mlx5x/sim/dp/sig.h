/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Signature (block data integrity) of the model: the signature BSF of a
 * UMR (sig_bsf.c), the guards and CRCs of a block (sig_crc.c), and the
 * bytes that cross a signature mkey (dp_sig.c).
 */
#ifndef MLX5X_SIM_SIG_H
#define MLX5X_SIM_SIG_H

#include "../mem/mkey.h"

/* Bytes of a block's signature: T10-DIF 8, CRC32 and CRC32C 4. */
#define SIM_SIG_DIF_BYTES	8
#define SIM_SIG_CRC32_BYTES	4
#define SIM_SIG_MAX_BYTES	8

/* The signature error CQE's syndrome bits (struct mlx5_sig_err_cqe) */
#define SIM_SIG_ERR_GUARD	BIT(13)
#define SIM_SIG_ERR_APPTAG	BIT(12)
#define SIM_SIG_ERR_REFTAG	BIT(11)
/* its domain byte: where the bad signature was */
#define SIM_SIG_DOMAIN_WIRE	0
#define SIM_SIG_DOMAIN_MEM	1

/* sig_crc.c: a block's guard, CRC and whole signature */
u16 sim_sig_crc16_t10dif(u16 crc, const u8 *p, size_t len);
u16 sim_sig_ipcs(u16 seed, const u8 *p, size_t len);
u32 sim_sig_crc32(bool seed, const u8 *p, size_t len);
u32 sim_sig_crc32c(bool seed, const u8 *p, size_t len);
u32 sim_sig_bytes(const struct sim_sig_domain *d);
void sim_sig_compute(const struct sim_sig_domain *d, const u8 *data,
		     u64 block, u8 *sig);

struct sim_umr;
struct sim_umr_qp;
/* sig_bsf.c: the signature BSF of mlx5dv_wr_set_mkey_sig_block() */
bool sim_sig_bsf_parse(const u8 *b, struct sim_mkey_sig *cfg);
u32 sim_sig_bsf(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		const struct sim_mkey *mkey, const struct sim_umr *u,
		struct sim_mkey_sig *cfg, int *given);

#endif /* MLX5X_SIM_SIG_H */
