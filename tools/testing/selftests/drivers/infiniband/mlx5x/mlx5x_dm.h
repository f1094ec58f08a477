/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the device memory selftests (mlx5x_dm, MEMIC; mlx5x_dm_icm,
 * SW ICM): what the device memory capability page says, read once, and
 * the uverbs DM ioctls as newer rdma-core issues them.
 */
#ifndef MLX5X_DM_H
#define MLX5X_DM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x_test.h"
#include "mlx5x_ioctl.h"
#include "mlx5x_prm.h"

#define PAGE		4096
#define CAP_DEV_MEM	0x0f
/*
 * device_mem_cap fields 6.1's mlx5_ifc.h calls reserved, 6.12's names:
 * log_indirect_encap_sw_icm_size, indirect_encap_sw_icm_start_address
 */
#define CAP_LOG_ENCAP_SIZE	MT_FIELD(0x120, 8)
#define CAP_ENCAP_START_OFF	0x240
/* memic_atomic_increment, memic_atomic_test_and_set: bit n, 2^n bytes */
#define CAP_INC_SIZES		MT_FIELD(0x20, 8)
#define CAP_TAS_SIZES		MT_FIELD(0x30, 8)
/* enum mlx5_ib_uapi_dm_type; ENCAP_SW_ICM came with Linux 6.5 */
#define DM_MEMIC		0
#define DM_STEERING		1
#define DM_HDR_MODIFY		2
#define DM_PATTERN		3
#define DM_ENCAP		4
#define NTYPES			5

/* What the device memory capability page says, once read_caps() read it. */
static struct {
	bool memic;
	uint32_t max_memic;
	uint32_t max_log_align;		/* log2 bytes */
	uint32_t ops;
	uint32_t inc_sizes, tas_sizes;	/* operand sizes of ops 0 and 1 */
	uint32_t log_granule;
	uint64_t icm_start[NTYPES];
	uint32_t icm_log[NTYPES];
} dmc;

static inline int read_caps(void)
{
	static uint8_t out[PRM_QUERY_HCA_CAP_OUT_BYTES];
	static bool done;
	struct ibv_context *ctx;
	const void *c;
	int err;

	if (done)
		return 0;
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!ctx)
		return -1;
	err = mt_query_hca_cap(ctx, MT_CAP_OPMOD(CAP_DEV_MEM, 1), out);
	ibv_close_device(ctx);
	if (err)
		return err;
	c = mt_cap_page(out);
	dmc.memic = mt_get(c, PRM_DEVICE_MEM_CAP_MEMIC);
	dmc.max_memic = mt_get(c, PRM_DEVICE_MEM_CAP_MAX_MEMIC_SIZE);
	dmc.max_log_align = 6 +
		mt_get(c, PRM_DEVICE_MEM_CAP_LOG_MAX_MEMIC_ADDR_ALIGNMENT);
	dmc.ops = mt_get(c, PRM_DEVICE_MEM_CAP_MEMIC_OPERATIONS);
	dmc.inc_sizes = mt_get(c, CAP_INC_SIZES);
	dmc.tas_sizes = mt_get(c, CAP_TAS_SIZES);
	dmc.log_granule = mt_get(c,
				 PRM_DEVICE_MEM_CAP_LOG_SW_ICM_ALLOC_GRANULARITY);
	dmc.icm_start[DM_STEERING] =
		mt_get64(c, PRM_DEVICE_MEM_CAP_STEERING_SW_ICM_START_ADDRESS_OFF);
	dmc.icm_log[DM_STEERING] =
		mt_get(c, PRM_DEVICE_MEM_CAP_LOG_STEERING_SW_ICM_SIZE);
	dmc.icm_start[DM_HDR_MODIFY] = mt_get64(c,
		PRM_DEVICE_MEM_CAP_HEADER_MODIFY_SW_ICM_START_ADDRESS_OFF);
	dmc.icm_log[DM_HDR_MODIFY] =
		mt_get(c, PRM_DEVICE_MEM_CAP_LOG_HEADER_MODIFY_SW_ICM_SIZE);
	dmc.icm_start[DM_PATTERN] = mt_get64(c,
		PRM_DEVICE_MEM_CAP_HEADER_MODIFY_PATTERN_SW_ICM_START_ADDRESS_OFF);
	dmc.icm_log[DM_PATTERN] = mt_get(c,
		PRM_DEVICE_MEM_CAP_LOG_HEADER_MODIFY_PATTERN_SW_ICM_SIZE);
	dmc.icm_start[DM_ENCAP] = mt_get64(c, CAP_ENCAP_START_OFF);
	dmc.icm_log[DM_ENCAP] = mt_get(c, CAP_LOG_ENCAP_SIZE);
	done = true;
	return 0;
}

/* A DM made by the uverbs ioctls, as newer rdma-core issues them. */
struct raw_dm {
	uint32_t handle;
	uint64_t start;		/* MEMIC: offset in its page; ICM: address */
	uint16_t page_idx;
};

static inline int raw_dm_alloc(struct ibv_context *ctx, uint64_t length,
			       uint32_t log_align, uint64_t type,
			       struct raw_dm *dm)
{
	struct mt_ioctl c;
	int h, err;

	memset(dm, 0, sizeof(*dm));
	mt_ioctl_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	h = mt_ioctl_new(&c, UVERBS_ATTR_ALLOC_DM_HANDLE);
	mt_ioctl_in64(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, length, sizeof(length));
	mt_ioctl_in64(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, log_align,
		      sizeof(log_align));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &dm->start,
		     sizeof(dm->start));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, &dm->page_idx,
		     sizeof(dm->page_idx));
	/* optional: the kernel must take it inline, as upstream's does */
	mt_ioctl_attr(&c, MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE, sizeof(type), type, 0);
	err = mt_ioctl_run(ctx, &c);
	if (!err)
		dm->handle = c.attrs[h].data;
	return err;
}

static inline int raw_dm_free(struct ibv_context *ctx, uint32_t handle)
{
	struct mt_ioctl c;

	mt_ioctl_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE);
	mt_ioctl_handle(&c, UVERBS_ATTR_FREE_DM_HANDLE, handle);
	return mt_ioctl_run(ctx, &c);
}

static inline int raw_dm_query(struct ibv_context *ctx, uint32_t handle,
			       uint64_t *start, uint16_t *page_idx,
			       uint64_t *length)
{
	struct mt_ioctl c;

	mt_ioctl_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_QUERY);
	mt_ioctl_handle(&c, MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE, handle);
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET, start,
		     sizeof(*start));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX, page_idx,
		     sizeof(*page_idx));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH, length,
		     sizeof(*length));
	return mt_ioctl_run(ctx, &c);
}

#endif /* MLX5X_DM_H */
