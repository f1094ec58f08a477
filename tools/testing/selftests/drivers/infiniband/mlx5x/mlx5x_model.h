/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The firmware model's syndromes, as drivers/infiniband/hw/mlx5x/sim/
 * sim_priv.h has them (enum sim_syndrome, SIM_ dropped): not PRM, so
 * mlx5x_prm.h cannot carry them.  Each names the check that refused a
 * command; SYND_INJECTED is the model's fail_next/fail_opcode.
 */
#ifndef MLX5X_MODEL_H
#define MLX5X_MODEL_H

#define SYND_INJECTED		0x0badf00d
#define SYND_BAD_INLEN		0x53000002
#define SYND_BAD_OPMOD		0x53000004
#define SYND_NO_OBJECT		0x53000006
#define SYND_NOT_OWNER		0x53000007
#define SYND_EXHAUSTED		0x53000009
#define SYND_BAD_CAP		0x5300000a
#define SYND_BAD_FIELD		0x5300000d
#define SYND_BAD_STATE		0x5300000e
#define SYND_NOT_UMEM		0x5300000f
#define SYND_DUP_MATCH		0x53000010
#define SYND_UMEM_RO		0x53000011
#define SYND_ICM_PRIV		0x53000103
#define SYND_RAW_TX_PRIV	0x53000104
#define SYND_NO_LOGIN		0x53000800
#define SYND_MKEY_FREE		0x53000801
#define SYND_MKEY_RANGE		0x53000803
#define SYND_CRYPTO_UNCONF	0x53000805

#endif /* MLX5X_MODEL_H */
