/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The mlx5dv flow steering path: flow matchers (fs_matcher.c), flows made
 * through them (fs_flow.c) and the flow actions they may carry
 * (fs_action.c), on the upstream mlx5 uverbs ABI.
 */
#ifndef MLX5X_FS_DV_H
#define MLX5X_FS_DV_H

#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "fs.h"

#define MLX5X_MATCH_BYTES	PRM_BYTES(fte_match_param)

/**
 * struct mlx5x_flow_matcher - MLX5_IB_OBJECT_FLOW_MATCHER
 * @dev: device
 * @ns: the namespace its flows go to
 * @priority: their priority there
 * @flow_type: MLX5_IB_FLOW_TYPE_*
 * @criteria: match_criteria_enable
 * @mask_len: bytes of @mask userspace gave
 * @mask: fte_match_param, zero past @mask_len
 * @usecnt: flows made through it; it cannot be destroyed while any live
 */
struct mlx5x_flow_matcher {
	struct mlx5x_dev *dev;
	enum mlx5x_fs_ns ns;
	u16 priority;
	u8 flow_type;
	u8 criteria;
	u32 mask_len;
	u8 mask[MLX5X_MATCH_BYTES];
	atomic_t usecnt;
};

enum mlx5x_flow_action_kind {
	MLX5X_FLOW_ACTION_MODIFY_HEADER,
	MLX5X_FLOW_ACTION_PACKET_REFORMAT,
};

/**
 * struct mlx5x_flow_action - a flow action of UVERBS_OBJECT_FLOW_ACTION
 * @ib: ib_core's action
 * @dev: device
 * @kind: modify header or packet reformat
 * @table_type: the PRM table type whose rules may apply it
 * @id: the context of firmware (kernel uid)
 */
struct mlx5x_flow_action {
	struct ib_flow_action ib;
	struct mlx5x_dev *dev;
	struct mlx5x_ucontext *uctx;	/* counted against its limit */
	enum mlx5x_flow_action_kind kind;
	u32 table_type;
	u32 id;
};

static inline struct mlx5x_flow_action *
to_mflow_action(struct ib_flow_action *ib)
{
	return container_of(ib, struct mlx5x_flow_action, ib);
}

/**
 * struct mlx5x_flow - a flow of UVERBS_OBJECT_FLOW
 * @ib: ib_core's flow
 * @dev: device
 * @uctx: the context whose MLX5X_LIMIT_FLOWS it counts against, or NULL
 * @destroy: takes the flow's rules down and frees it (per entry point)
 */
struct mlx5x_flow {
	struct ib_flow ib;
	struct mlx5x_dev *dev;
	struct mlx5x_ucontext *uctx;
	void (*destroy)(struct mlx5x_flow *flow);
};

/* fs_matcher.c */
int mlx5x_ft_type_to_ns(u32 ft_type, enum mlx5x_fs_ns *ns);
extern const struct uapi_definition mlx5x_flow_matcher_defs[];

/* fs_flow.c */
int mlx5x_destroy_flow(struct ib_flow *ibflow);
extern const struct uapi_definition mlx5x_flow_defs[];

/* fs_action.c */
int mlx5x_destroy_flow_action(struct ib_flow_action *action);
extern const struct uapi_definition mlx5x_flow_action_defs[];

#endif /* MLX5X_FS_DV_H */
