// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SW ICM ranges of a simulated device: the allocator mlx5_core provides
 * for a ConnectX (mlx5_dm_sw_icm_alloc() and mlx5_dm_sw_icm_dealloc(),
 * which the hw backend calls), here the sim backend's own, so that the
 * method layer (dm_icm.c) sees one backend operation either way.
 *
 * A bitmap of granules per region, read from the device memory caps when
 * the device is probed, and a SW_ICM general object per range, which
 * firmware (the model) checks and keeps with its owner.
 */
#include <linux/bitmap.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include "sim_backend.h"

static void mlx5x_sim_icm_region_read(struct mlx5x_dev *dev,
				      unsigned int type, u64 *start,
				      u32 *log_size)
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
 * mlx5x_sim_icm_init() - the SW ICM regions of the device memory caps
 * @dev: device of the sim backend whose dm->cap was read
 *
 * The backend's icm_init operation.  A region with no start address, or
 * one smaller than a granule, is absent.
 *
 * Return: 0 or -ENOMEM; mlx5x_sim_icm_cleanup() frees what was made.
 */
int mlx5x_sim_icm_init(struct mlx5x_dev *dev)
{
	struct mlx5x_sim_dev *sdev = to_sim_dev(dev);
	u32 granule = dev->dm->log_granule;
	unsigned int t;

	for (t = 0; t < MLX5X_ICM_NTYPES; t++) {
		struct mlx5x_sim_icm_region *r = &sdev->icm[t];

		mlx5x_sim_icm_region_read(dev, t, &r->start, &r->log_size);
		if (!r->start || r->log_size < granule ||
		    r->log_size - granule > 24) {
			r->start = 0;
			continue;
		}
		r->blocks = bitmap_zalloc(BIT(r->log_size - granule),
					  GFP_KERNEL);
		if (!r->blocks)
			return -ENOMEM;
	}
	return 0;
}

/**
 * mlx5x_sim_icm_cleanup() - free the regions' bitmaps
 * @dev: device of the sim backend, without SW ICM ranges any more
 *
 * The backend's icm_cleanup operation.
 */
void mlx5x_sim_icm_cleanup(struct mlx5x_dev *dev)
{
	struct mlx5x_sim_dev *sdev = to_sim_dev(dev);
	unsigned int t;

	for (t = 0; t < MLX5X_ICM_NTYPES; t++) {
		bitmap_free(sdev->icm[t].blocks);
		sdev->icm[t] = (struct mlx5x_sim_icm_region){};
	}
}

/**
 * mlx5x_sim_icm_alloc() - carve a SW ICM range and make it a SW_ICM object
 * @dev: device of the sim backend
 * @type: enum mlx5x_icm_type
 * @length: bytes: a power of two, a multiple of the granule
 * @log_align: log2 of the alignment asked for (at least the granule's)
 * @uid: the owner of the object
 * @addr: the range's ICM address
 * @obj_id: the object
 *
 * The backend's icm_alloc operation.
 *
 * Return: 0, -EOPNOTSUPP when the device has no such region, -EINVAL for
 * a bad length or alignment, -ENOMEM when the region is full.
 */
int mlx5x_sim_icm_alloc(struct mlx5x_dev *dev, unsigned int type, u64 length,
			u32 log_align, u16 uid, u64 *addr, u32 *obj_id)
{
	u32 in[PRM_BYTES(create_sw_icm_in) / 4] = {};
	u32 out[PRM_BYTES(general_obj_out_cmd_hdr) / 4] = {};
	struct mlx5x_sim_dev *sdev = to_sim_dev(dev);
	struct mlx5x_dm_dev *dm = dev->dm;
	struct mlx5x_sim_icm_region *r;
	unsigned long nbits, nblocks, idx;
	void *icm;
	u64 start;
	int err;

	if (!dm || type >= MLX5X_ICM_NTYPES || !sdev->icm[type].start)
		return -EOPNOTSUPP;
	r = &sdev->icm[type];
	if (!length || !is_power_of_2(length) ||
	    length & (BIT_ULL(dm->log_granule) - 1) ||
	    length > BIT_ULL(r->log_size))
		return -EINVAL;
	log_align = max(log_align, dm->log_granule);
	if (log_align > r->log_size)
		return -EINVAL;
	nbits = BIT(r->log_size - dm->log_granule);
	nblocks = length >> dm->log_granule;

	spin_lock(&sdev->icm_lock);
	idx = bitmap_find_next_zero_area(r->blocks, nbits, 0, nblocks,
					 BIT(log_align - dm->log_granule) - 1);
	if (idx < nbits)
		bitmap_set(r->blocks, idx, nblocks);
	spin_unlock(&sdev->icm_lock);
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
		spin_lock(&sdev->icm_lock);
		bitmap_clear(r->blocks, idx, nblocks);
		spin_unlock(&sdev->icm_lock);
		return err;
	}
	*addr = start;
	*obj_id = PRM_GET(general_obj_out_cmd_hdr, out, obj_id);
	return 0;
}

/**
 * mlx5x_sim_icm_free() - destroy a SW_ICM object and give its range back
 * @dev: device of the sim backend
 * @type: enum mlx5x_icm_type it was carved from
 * @length: its length
 * @uid: its owner
 * @addr: its ICM address
 * @obj_id: the object
 *
 * The backend's icm_free operation.
 *
 * Return: 0, or the errno of a refused destroy (the range stays taken).
 */
int mlx5x_sim_icm_free(struct mlx5x_dev *dev, unsigned int type, u64 length,
		       u16 uid, u64 addr, u32 obj_id)
{
	u32 in[PRM_BYTES(general_obj_in_cmd_hdr) / 4] = {};
	u32 out[PRM_BYTES(general_obj_out_cmd_hdr) / 4] = {};
	struct mlx5x_sim_dev *sdev = to_sim_dev(dev);
	struct mlx5x_sim_icm_region *r = &sdev->icm[type];
	u32 granule = dev->dm->log_granule;
	int err;

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_DESTROY_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_SW_ICM);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, obj_id);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	spin_lock(&sdev->icm_lock);
	bitmap_clear(r->blocks, (addr - r->start) >> granule,
		     length >> granule);
	spin_unlock(&sdev->icm_lock);
	return 0;
}
