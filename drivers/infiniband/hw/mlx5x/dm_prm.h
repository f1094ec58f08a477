/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Device-memory fields newer <linux/mlx5/mlx5_ifc.h> names that 6.1's
 * still calls reserved, at the bit offsets upstream gives them, and the
 * mmap command libmlx5 encodes into a MEMIC mapping's offset.  Shared by
 * the method layer and the firmware model.
 */
#ifndef MLX5X_DM_PRM_H
#define MLX5X_DM_PRM_H

#include <linux/kernel.h>
#include "prm.h"

/* device_mem_cap.memic_atomic_increment: operand sizes, bit n: 2^n bytes */
#define DM_CAP_MEMIC_INC_SIZES_OFF	0x20
/* device_mem_cap.memic_atomic_test_and_set: likewise */
#define DM_CAP_MEMIC_TAS_SIZES_OFF	0x30
#define DM_CAP_MEMIC_SIZES_BITS		8
/* device_mem_cap.log_indirect_encap_sw_icm_size (6.1: in reserved_at_120) */
#define DM_CAP_LOG_ENCAP_ICM_SIZE_OFF	0x120
#define DM_CAP_LOG_ENCAP_ICM_SIZE_BITS	8
/* device_mem_cap.indirect_encap_sw_icm_start_address, 64 bits at 0x240 */
#define DM_CAP_ENCAP_ICM_START_OFF	0x240

/* MEMIC allocations come in 64-byte units, alignment is 64 << n bytes. */
#define DM_MEMIC_BASE_LOG		6
#define DM_MEMIC_BASE_SIZE		(1U << DM_MEMIC_BASE_LOG)

/* The MEMIC operations of MODIFY_MEMIC (memic_operation_type). */
#define DM_MEMIC_OP_ATOMIC_INC		0
#define DM_MEMIC_OP_ATOMIC_TEST_SET	1

static inline u64 dm_get64(const void *p, size_t bit_off)
{
	return (u64)prm_get_bits(p, bit_off, 32) << 32 |
	       prm_get_bits(p, bit_off + 32, 32);
}

static inline void dm_set64(void *p, size_t bit_off, u64 v)
{
	prm_set_bits(p, bit_off, 32, upper_32_bits(v));
	prm_set_bits(p, bit_off + 32, 32, lower_32_bits(v));
}

#endif /* MLX5X_DM_PRM_H */
