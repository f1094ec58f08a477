/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libmlx5x: what rdma-core 44's libmlx5 lacks on mlx5 devices.
 *
 * Device memory of the SW ICM types, ENCAP_SW_ICM included (Linux 6.5
 * and rdma-core 46 added it; libmlx5 44 refuses the type before the
 * kernel sees it).  The allocation is the same uverbs ioctl newer
 * rdma-core sends (UVERBS_METHOD_DM_ALLOC with the mlx5 type attribute),
 * so it works on any kernel that serves the type: mlx5x, or mlx5_ib of
 * 6.5 and later.
 */
#ifndef MLX5X_DM_H
#define MLX5X_DM_H

#include <stdint.h>
#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* enum mlx5_ib_uapi_dm_type / enum mlx5dv_alloc_dm_type, same numbers */
enum mlx5x_dm_type {
	MLX5X_DM_TYPE_MEMIC = 0,
	MLX5X_DM_TYPE_STEERING_SW_ICM = 1,
	MLX5X_DM_TYPE_HEADER_MODIFY_SW_ICM = 2,
	MLX5X_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM = 3,
	MLX5X_DM_TYPE_ENCAP_SW_ICM = 4,
};

/**
 * struct mlx5x_dm - a SW ICM range
 * @context: the context it was allocated in
 * @handle: its uverbs object handle
 * @type: enum mlx5x_dm_type
 * @length: bytes asked for
 * @icm_addr: its ICM address, for the PRM fields that take one
 */
struct mlx5x_dm {
	struct ibv_context *context;
	uint32_t handle;
	uint32_t type;
	uint64_t length;
	uint64_t icm_addr;
};

/*
 * Allocate a SW ICM range of @type (not MEMIC: use ibv_alloc_dm()).
 * attr->log_align_req is the log2 alignment, attr->comp_mask must be 0.
 * Returns NULL with errno set: EOPNOTSUPP for a type the device lacks,
 * EPERM without CAP_SYS_RAWIO and CAP_NET_RAW, EINVAL for a bad length
 * or alignment, ENOMEM when the region is full.
 */
struct mlx5x_dm *mlx5x_alloc_dm(struct ibv_context *context,
				const struct ibv_alloc_dm_attr *attr,
				enum mlx5x_dm_type type);

/* Free it; returns 0, or -1 with errno set (the DM stays allocated). */
int mlx5x_free_dm(struct mlx5x_dm *dm);

#ifdef __cplusplus
}
#endif

#endif /* MLX5X_DM_H */
