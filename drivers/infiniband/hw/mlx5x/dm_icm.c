// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SW ICM: ranges of the device's ICM that rdma-core's SW steering writes
 * directly (steering, header modify, header modify pattern, and indirect
 * encap, the DM type Linux 6.5 added).  No mmap: the process gets the ICM
 * address and uses it where the PRM takes one.  The caller needs
 * CAP_SYS_RAWIO and CAP_NET_RAW.
 *
 * Where the ranges are carved is not the method layer's business: on
 * hardware mlx5_core does it (mlx5_dm_sw_icm_alloc(), whose bitmaps its
 * own SW steering shares), so the carving is a backend operation
 * (icm_alloc, icm_free), and the sim backend has an allocator of its own
 * that plays mlx5_core's part (sim_backend_icm.c).
 */
#include <linux/capability.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "dm.h"

static int mlx5x_icm_type_of(u32 dm_type, unsigned int *type)
{
	switch (dm_type) {
	case MLX5_IB_UAPI_DM_TYPE_STEERING_SW_ICM:
		*type = MLX5X_ICM_STEERING;
		return 0;
	case MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_SW_ICM:
		*type = MLX5X_ICM_HDR_MODIFY;
		return 0;
	case MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM:
		*type = MLX5X_ICM_HDR_MODIFY_PATTERN;
		return 0;
	case MLX5_IB_UAPI_DM_TYPE_ENCAP_SW_ICM:
		*type = MLX5X_ICM_ENCAP;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * mlx5x_sw_icm_alloc() - UVERBS_METHOD_DM_ALLOC of a SW ICM type
 * @uctx: the context; its DEVX uid owns the range
 * @attr: length and alignment (log2) asked for
 * @attrs: the call, for the ICM address it returns as start offset
 * @type: MLX5_IB_UAPI_DM_TYPE_*_SW_ICM
 *
 * The length is rounded up to a granule, then to a power of two, as
 * mlx5_ib does.
 */
struct ib_dm *mlx5x_sw_icm_alloc(struct mlx5x_ucontext *uctx,
				 struct ib_dm_alloc_attr *attr,
				 struct uverbs_attr_bundle *attrs, u32 type)
{
	struct mlx5x_dev *dev = to_mdev(uctx->ib.device);
	unsigned int icm_type;
	struct mlx5x_dm *dm;
	u64 size;
	int err;

	if (!capable(CAP_SYS_RAWIO) || !capable(CAP_NET_RAW))
		return ERR_PTR(-EPERM);
	err = mlx5x_icm_type_of(type, &icm_type);
	if (err)
		return ERR_PTR(err);
	if (!dev->dm || !dev->backend->icm_alloc)
		return ERR_PTR(-EOPNOTSUPP);
	/* lengths that overflow the rounding below are out of any region */
	if (!attr->length || attr->length > BIT_ULL(62))
		return ERR_PTR(-EINVAL);
	size = roundup_pow_of_two(round_up(attr->length,
					   BIT_ULL(dev->dm->log_granule)));

	dm = kzalloc(sizeof(*dm), GFP_KERNEL);
	if (!dm)
		return ERR_PTR(-ENOMEM);
	dm->type = type;
	dm->size = size;
	dm->req_length = attr->length;
	dm->uid = uctx->devx_uid;
	dm->ib.device = &dev->ib;
	err = dev->backend->icm_alloc(dev, icm_type, size, attr->alignment,
				      dm->uid, &dm->addr, &dm->obj_id);
	if (err)
		goto err_free;
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET,
			     &dm->addr, sizeof(dm->addr));
	if (err) {
		dev->backend->icm_free(dev, icm_type, size, dm->uid, dm->addr,
				       dm->obj_id);
		goto err_free;
	}
	return &dm->ib;
err_free:
	kfree(dm);
	return ERR_PTR(err);
}

/**
 * mlx5x_sw_icm_dealloc() - ibv_free_dm() of a SW ICM range
 * @dm: the range; freed unless firmware refused the destroy
 */
int mlx5x_sw_icm_dealloc(struct mlx5x_dm *dm)
{
	struct mlx5x_dev *dev = to_mdev(dm->ib.device);
	unsigned int icm_type;
	int err;

	err = mlx5x_icm_type_of(dm->type, &icm_type);
	if (!err)
		err = dev->backend->icm_free(dev, icm_type, dm->size, dm->uid,
					     dm->addr, dm->obj_id);
	if (err)
		return err;
	kfree(dm);
	return 0;
}
