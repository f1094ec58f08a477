// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SW ICM device memory through the uverbs ioctl, as newer rdma-core
 * issues it (see include/mlx5x/dm.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include "mlx5x/dm.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct mlx5x_dm *mlx5x_alloc_dm(struct ibv_context *context,
				const struct ibv_alloc_dm_attr *attr,
				enum mlx5x_dm_type type)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[5];
	} cmd = {};
	struct ib_uverbs_attr *a = cmd.attrs;
	struct mlx5x_dm *dm;
	uint64_t start = 0;

	if (!context || !attr || attr->comp_mask) {
		errno = EINVAL;
		return NULL;
	}
	if (type < MLX5X_DM_TYPE_STEERING_SW_ICM ||
	    type > MLX5X_DM_TYPE_ENCAP_SW_ICM) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	dm = calloc(1, sizeof(*dm));
	if (!dm)
		return NULL;
	cmd.hdr.length = sizeof(cmd);
	cmd.hdr.object_id = UVERBS_OBJECT_DM;
	cmd.hdr.method_id = UVERBS_METHOD_DM_ALLOC;
	cmd.hdr.num_attrs = ARRAY_SIZE(cmd.attrs);
	cmd.hdr.driver_id = RDMA_DRIVER_MLX5;
	a[0].attr_id = UVERBS_ATTR_ALLOC_DM_HANDLE;
	a[0].flags = UVERBS_ATTR_F_MANDATORY;
	/* inputs of up to 8 bytes travel inline */
	a[1].attr_id = UVERBS_ATTR_ALLOC_DM_LENGTH;
	a[1].len = sizeof(uint64_t);
	a[1].data = attr->length;
	a[1].flags = UVERBS_ATTR_F_MANDATORY;
	a[2].attr_id = UVERBS_ATTR_ALLOC_DM_ALIGNMENT;
	a[2].len = sizeof(uint32_t);
	a[2].data = attr->log_align_req;
	a[2].flags = UVERBS_ATTR_F_MANDATORY;
	a[3].attr_id = MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET;
	a[3].len = sizeof(start);
	a[3].data = (uintptr_t)&start;
	a[3].flags = UVERBS_ATTR_F_MANDATORY;
	a[4].attr_id = MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE;
	a[4].len = sizeof(uint64_t);
	a[4].data = type;
	if (ioctl(context->cmd_fd, RDMA_VERBS_IOCTL, &cmd)) {
		int err = errno;

		free(dm);
		errno = err;
		return NULL;
	}
	dm->context = context;
	dm->handle = a[0].data;
	dm->type = type;
	dm->length = attr->length;
	dm->icm_addr = start;
	return dm;
}

int mlx5x_free_dm(struct mlx5x_dm *dm)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[1];
	} cmd = {};

	if (!dm) {
		errno = EINVAL;
		return -1;
	}
	cmd.hdr.length = sizeof(cmd);
	cmd.hdr.object_id = UVERBS_OBJECT_DM;
	cmd.hdr.method_id = UVERBS_METHOD_DM_FREE;
	cmd.hdr.num_attrs = 1;
	cmd.hdr.driver_id = RDMA_DRIVER_MLX5;
	cmd.attrs[0].attr_id = UVERBS_ATTR_FREE_DM_HANDLE;
	cmd.attrs[0].data = dm->handle;
	cmd.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	if (ioctl(dm->context->cmd_fd, RDMA_VERBS_IOCTL, &cmd))
		return -1;
	free(dm);
	return 0;
}
