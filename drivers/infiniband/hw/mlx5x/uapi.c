// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The uverbs objects and methods mlx5x adds to ib_core's, in one tree. */
#include "mlx5x.h"
#include "fs_dv.h"

const struct uapi_definition mlx5x_uapi_defs[] = {
	UAPI_DEF_CHAIN(mlx5x_devx_defs),
	UAPI_DEF_CHAIN(mlx5x_devx_obj_defs),
	UAPI_DEF_CHAIN(mlx5x_devx_umem_defs),
	UAPI_DEF_CHAIN(mlx5x_devx_async_defs),
	UAPI_DEF_CHAIN(mlx5x_devx_event_fd_defs),
	UAPI_DEF_CHAIN(mlx5x_devx_subscribe_defs),
	UAPI_DEF_CHAIN(mlx5x_port_defs),
	UAPI_DEF_CHAIN(mlx5x_pd_defs),
	UAPI_DEF_CHAIN(mlx5x_ucontext_defs),
	UAPI_DEF_CHAIN(mlx5x_uar_defs),
	UAPI_DEF_CHAIN(mlx5x_steering_anchor_defs),
	UAPI_DEF_CHAIN(mlx5x_dm_defs),
	UAPI_DEF_CHAIN(mlx5x_flow_matcher_defs),
	UAPI_DEF_CHAIN(mlx5x_flow_defs),
	UAPI_DEF_CHAIN(mlx5x_flow_action_defs),
	{}
};
