// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory on hardware.  MEMIC is allocated by the method layer with
 * ALLOC_MEMIC and DEALLOC_MEMIC over the command channel, in whole pages
 * of the window the device memory caps give (memic_bar_start_addr,
 * memic_bar_size), as mlx5_ib does; what is left to the backend is where
 * the window's pages are: BAR 0 of the function, mapped write-combining.
 * SW ICM ranges are carved by mlx5_core (mlx5_dm_sw_icm_alloc(), whose
 * bitmaps its own SW steering and mlx5_ib's allocations share), which
 * creates the SW_ICM object with the caller's uid.
 */
#include <linux/pci.h>
#include "mlx5x.h"
#include "hw.h"
#include "dm.h"

/**
 * mlx5x_hw_memic_pfn() - the page frame of a BAR offset of device memory
 * @dev: device of the hw backend
 * @bar_off: page-aligned offset in BAR 0 (firmware's memic_start_addr or
 *	     memic_operation_addr)
 * @pfn: the frame
 *
 * Return: 0, or -EINVAL for an offset whose page is not in BAR 0.
 */
int mlx5x_hw_memic_pfn(struct mlx5x_dev *dev, u64 bar_off, unsigned long *pfn)
{
	struct mlx5x_hw *hw = dev->backend_priv;
	u64 len = pci_resource_len(hw->mdev->pdev, 0);

	if (bar_off >= len || len - bar_off < PAGE_SIZE)
		return -EINVAL;
	*pfn = (hw->mdev->bar_addr + bar_off) >> PAGE_SHIFT;
	return 0;
}

/* enum mlx5x_icm_type is numbered as mlx5_core's enum mlx5_sw_icm_type. */
static int mlx5x_hw_icm_type(unsigned int type, enum mlx5_sw_icm_type *t)
{
	switch (type) {
	case MLX5X_ICM_STEERING:
		*t = MLX5_SW_ICM_TYPE_STEERING;
		return 0;
	case MLX5X_ICM_HDR_MODIFY:
		*t = MLX5_SW_ICM_TYPE_HEADER_MODIFY;
		return 0;
	case MLX5X_ICM_HDR_MODIFY_PATTERN:
		*t = MLX5_SW_ICM_TYPE_HEADER_MODIFY_PATTERN;
		return 0;
#ifdef MLX5X_HAVE_SW_ICM_TYPE_SW_ENCAP
	case MLX5X_ICM_ENCAP:
		*t = MLX5_SW_ICM_TYPE_SW_ENCAP;
		return 0;
#endif
	default:
		return -EOPNOTSUPP;	/* mlx5_core has no such region */
	}
}

/**
 * mlx5x_hw_icm_alloc() - a SW ICM range from mlx5_core's allocator
 * @dev: device of the hw backend
 * @type: enum mlx5x_icm_type
 * @length: bytes, a power of two and a multiple of the granule
 * @log_align: log2 of the alignment asked for
 * @uid: owner of the SW_ICM object
 * @addr: the range's ICM address
 * @obj_id: the SW_ICM object
 *
 * Return: mlx5_core's answer: 0, -EOPNOTSUPP, -EINVAL, -ENOMEM, or the
 * errno of a refused CREATE_GENERAL_OBJECT.
 */
int mlx5x_hw_icm_alloc(struct mlx5x_dev *dev, unsigned int type, u64 length,
		       u32 log_align, u16 uid, u64 *addr, u32 *obj_id)
{
	struct mlx5x_hw *hw = dev->backend_priv;
	enum mlx5_sw_icm_type t;
	phys_addr_t icm;
	int err;

	err = mlx5x_hw_icm_type(type, &t);
	if (err)
		return err;
	err = mlx5_dm_sw_icm_alloc(hw->mdev, t, length, log_align, uid, &icm,
				   obj_id);
	if (!err)
		*addr = icm;
	return err;
}

/**
 * mlx5x_hw_icm_free() - destroy a SW_ICM object and give the range back
 * @dev: device of the hw backend
 * @type: enum mlx5x_icm_type it came from
 * @length: its length
 * @uid: its owner
 * @addr: its ICM address
 * @obj_id: the object
 *
 * Return: 0, or the errno of a refused destroy (the range stays taken).
 */
int mlx5x_hw_icm_free(struct mlx5x_dev *dev, unsigned int type, u64 length,
		      u16 uid, u64 addr, u32 obj_id)
{
	struct mlx5x_hw *hw = dev->backend_priv;
	enum mlx5_sw_icm_type t;
	int err;

	err = mlx5x_hw_icm_type(type, &t);
	if (err)
		return err;
	return mlx5_dm_sw_icm_dealloc(hw->mdev, t, length, uid, addr, obj_id);
}
