/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Device memory of the firmware model: MEMIC (memory on the device,
 * reached through a BAR window) and the SW ICM ranges (cmd_memic.c,
 * gen_sw_icm.c).
 */
#ifndef MLX5X_SIM_DM_H
#define MLX5X_SIM_DM_H

#include "../sim_priv.h"
#include "../../dm_prm.h"

/*
 * The profile.  MEMIC: 256 KiB at BAR offset 8 MiB, allocated in 64-byte
 * units with alignments up to 4 KiB; the two atomic operations each get
 * a window as large as the MEMIC, right after it, and operate on single
 * bytes.  SW ICM: four regions,
 * carved in 4 KiB blocks.
 */
#define SIM_MEMIC_BAR_START	0x800000ULL
#define SIM_MEMIC_LOG_SIZE	18
#define SIM_MEMIC_SIZE		(1U << SIM_MEMIC_LOG_SIZE)
#define SIM_MEMIC_PAGES		(SIM_MEMIC_SIZE >> PAGE_SHIFT)
#define SIM_MEMIC_MAX_LOG_ALIGN	6		/* 64 << 6 = 4 KiB */
#define SIM_MEMIC_NOPS		2		/* increment, test-and-set */
#define SIM_MEMIC_OPS		(BIT(DM_MEMIC_OP_ATOMIC_INC) |	\
				 BIT(DM_MEMIC_OP_ATOMIC_TEST_SET))
#define SIM_MEMIC_WINDOWS	(1 + SIM_MEMIC_NOPS)
/* Operand sizes of both operations (bit n: 2^n bytes): one byte. */
#define SIM_MEMIC_OP_SIZES	BIT(0)

#define SIM_ICM_LOG_GRANULE	12
#define SIM_ICM_LOG_STEERING	24
#define SIM_ICM_LOG_HDR_MODIFY	20
#define SIM_ICM_LOG_PATTERN	20
#define SIM_ICM_LOG_ENCAP	20
#define SIM_ICM_STEERING_START	0x100000000000ULL
#define SIM_ICM_HDR_MODIFY_START 0x200000000000ULL
#define SIM_ICM_PATTERN_START	0x300000000000ULL
#define SIM_ICM_ENCAP_START	0x400000000000ULL

/**
 * struct sim_memic - one MEMIC allocation (SIM_OBJ_MEMIC), kernel-owned
 * @obj: its table entry
 * @addr: BAR offset of its first byte
 * @size: bytes, a multiple of 64
 * @ops: operation windows allocated over it (bit per memic_operation_type)
 */
struct sim_memic {
	struct sim_obj obj;
	u64 addr;
	u32 size;
	u32 ops;
};

/**
 * struct sim_sw_icm - the state of a SW_ICM general object
 * @start: ICM address of its first byte
 * @log_size: log2 of its size in bytes
 */
struct sim_sw_icm {
	u64 start;
	u8 log_size;
};

int sim_memic_init(struct mlx5x_sim *sim);
void sim_memic_free(struct mlx5x_sim *sim);
void sim_dev_mem_caps_fill(void *page);
struct sim_memic *sim_memic_find(struct mlx5x_sim *sim, u64 addr, u64 len);
struct sim_general *sim_sw_icm_find(struct mlx5x_sim *sim, u64 addr,
				    u64 len);

#endif /* MLX5X_SIM_DM_H */
