// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SW ICM: ranges of the device's ICM that rdma-core's SW steering writes
 * directly (steering, header modify, header modify pattern, and indirect
 * encap, the DM type Linux 6.5 added).  No mmap: the process gets the ICM
 * address and uses it where the PRM takes one.  The caller needs
 * CAP_SYS_RAWIO and CAP_NET_RAW.
 *
 * Where the ranges are carved: on hardware mlx5_core does it
 * (mlx5_dm_sw_icm_alloc(), whose bitmaps its own SW steering shares), so
 * the carving is a backend operation.  For backends without such an
 * allocator, mlx5x_icm_alloc() below plays mlx5_core's part: a bitmap of
 * granules per region, read from the device memory caps, and a SW_ICM
 * general object per range, which firmware checks and keeps with its
 * owner.
 */
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "dm.h"

static void mlx5x_icm_region_read(struct mlx5x_dev *dev, unsigned int type,
				  u64 *start, u32 *log_size)
{
	const void *cap = dev->dm->cap;

	switch (type) {
	case MLX5X_ICM_STEERING:
		*start = MLX5X_CAP64_DM(dev, steering_sw_icm_start_address);
		*log_size = MLX5X_CAP_DM(dev, log_steering_sw_icm_size);
		break;
	case MLX5X_ICM_HDR_MODIFY:
		*start = MLX5X_CAP64_DM(dev,
					header_modify_sw_icm_start_address);
		*log_size = MLX5X_CAP_DM(dev, log_header_modify_sw_icm_size);
		break;
	case MLX5X_ICM_HDR_MODIFY_PATTERN:
		*start = MLX5X_CAP64_DM(dev,
				header_modify_pattern_sw_icm_start_address);
		*log_size = MLX5X_CAP_DM(dev,
					 log_header_modify_pattern_sw_icm_size);
		break;
	default:
		*start = dm_get64(cap, DM_CAP_ENCAP_ICM_START_OFF);
		*log_size = prm_get_bits(cap, DM_CAP_LOG_ENCAP_ICM_SIZE_OFF,
					 DM_CAP_LOG_ENCAP_ICM_SIZE_BITS);
		break;
	}
}

/**
 * mlx5x_icm_regions_init() - the SW ICM regions of the device memory caps
 * @dev: device whose dm->cap was read
 *
 * A region with no start address, or one smaller than a granule, is
 * absent.
 */
int mlx5x_icm_regions_init(struct mlx5x_dev *dev)
{
	struct mlx5x_dm_dev *dm = dev->dm;
	unsigned int t;

	dm->log_granule = MLX5X_CAP_DM(dev, log_sw_icm_alloc_granularity);
	for (t = 0; t < MLX5X_ICM_NTYPES; t++) {
		struct mlx5x_icm_region *r = &dm->icm[t];

		mlx5x_icm_region_read(dev, t, &r->start, &r->log_size);
		if (!r->start || r->log_size < dm->log_granule ||
		    r->log_size - dm->log_granule > 24) {
			r->start = 0;
			continue;
		}
		r->blocks = bitmap_zalloc(BIT(r->log_size - dm->log_granule),
					  GFP_KERNEL);
		if (!r->blocks)
			return -ENOMEM;
	}
	return 0;
}

void mlx5x_icm_regions_free(struct mlx5x_dev *dev)
{
	unsigned int t;

	for (t = 0; t < MLX5X_ICM_NTYPES; t++) {
		bitmap_free(dev->dm->icm[t].blocks);
		dev->dm->icm[t].blocks = NULL;
	}
}

/**
 * mlx5x_icm_alloc() - carve a SW ICM range and make it a SW_ICM object
 * @dev: device
 * @type: enum mlx5x_icm_type
 * @length: bytes: a power of two, a multiple of the granule
 * @log_align: log2 of the alignment asked for (at least the granule's)
 * @uid: the owner of the object
 * @addr: the range's ICM address
 * @obj_id: the object
 *
 * Return: 0, -EOPNOTSUPP when the device has no such region, -EINVAL for
 * a bad length or alignment, -ENOMEM when the region is full.
 */
int mlx5x_icm_alloc(struct mlx5x_dev *dev, unsigned int type, u64 length,
		    u32 log_align, u16 uid, u64 *addr, u32 *obj_id)
{
	u32 in[PRM_BYTES(create_sw_icm_in) / 4] = {};
	u32 out[PRM_BYTES(general_obj_out_cmd_hdr) / 4] = {};
	struct mlx5x_dm_dev *dm = dev->dm;
	struct mlx5x_icm_region *r;
	unsigned long nbits, nblocks, idx;
	void *icm;
	u64 start;
	int err;

	if (!dm || type >= MLX5X_ICM_NTYPES || !dm->icm[type].start)
		return -EOPNOTSUPP;
	r = &dm->icm[type];
	if (!length || !is_power_of_2(length) ||
	    length & (BIT_ULL(dm->log_granule) - 1) ||
	    length > BIT_ULL(r->log_size))
		return -EINVAL;
	log_align = max(log_align, dm->log_granule);
	if (log_align > r->log_size)
		return -EINVAL;
	nbits = BIT(r->log_size - dm->log_granule);
	nblocks = length >> dm->log_granule;

	spin_lock(&dm->lock);
	idx = bitmap_find_next_zero_area(r->blocks, nbits, 0, nblocks,
					 BIT(log_align - dm->log_granule) - 1);
	if (idx < nbits)
		bitmap_set(r->blocks, idx, nblocks);
	spin_unlock(&dm->lock);
	if (idx >= nbits)
		return -ENOMEM;

	start = r->start + ((u64)idx << dm->log_granule);
	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_SW_ICM);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	icm = PRM_ADDR(create_sw_icm_in, in, sw_icm);
	PRM_SET64(sw_icm, icm, sw_icm_start_addr, start);
	PRM_SET(sw_icm, icm, log_sw_icm_size, ilog2(length));
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (err) {
		spin_lock(&dm->lock);
		bitmap_clear(r->blocks, idx, nblocks);
		spin_unlock(&dm->lock);
		return err;
	}
	*addr = start;
	*obj_id = PRM_GET(general_obj_out_cmd_hdr, out, obj_id);
	return 0;
}

/**
 * mlx5x_icm_free() - destroy a SW_ICM object and give its range back
 * @dev: device
 * @type: enum mlx5x_icm_type it was carved from
 * @length: its length
 * @uid: its owner
 * @addr: its ICM address
 * @obj_id: the object
 *
 * Return: 0, or the errno of a refused destroy (the range stays taken).
 */
int mlx5x_icm_free(struct mlx5x_dev *dev, unsigned int type, u64 length,
		   u16 uid, u64 addr, u32 obj_id)
{
	u32 in[PRM_BYTES(general_obj_in_cmd_hdr) / 4] = {};
	u32 out[PRM_BYTES(general_obj_out_cmd_hdr) / 4] = {};
	struct mlx5x_dm_dev *dm = dev->dm;
	struct mlx5x_icm_region *r = &dm->icm[type];
	int err;

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_DESTROY_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_SW_ICM);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, obj_id);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	spin_lock(&dm->lock);
	bitmap_clear(r->blocks, (addr - r->start) >> dm->log_granule,
		     length >> dm->log_granule);
	spin_unlock(&dm->lock);
	return 0;
}

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
