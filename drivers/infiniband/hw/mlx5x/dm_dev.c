// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What a device knows of its device memory: the capability page it read
 * at probe, the MEMIC pages handed to allocations, and the SW ICM
 * granule.  The SW ICM regions are the backend's (icm_init).
 */
#include <linux/bitmap.h>
#include <linux/slab.h>
#include "dm.h"

/* QUERY_HCA_CAP type of the device memory page */
#define MLX5X_CAP_DEV_MEM	0x0f

/**
 * mlx5x_dm_dev_init() - read the device memory caps at probe
 * @dev: device; firmware answers commands
 *
 * A device whose firmware lacks the page (or reports no MEMIC and no SW
 * ICM) still registers: it offers no device memory.
 */
int mlx5x_dm_dev_init(struct mlx5x_dev *dev)
{
	struct mlx5x_dm_dev *dm;
	int err;

	dm = kzalloc(sizeof(*dm), GFP_KERNEL);
	if (!dm)
		return -ENOMEM;
	spin_lock_init(&dm->lock);
	err = mlx5x_query_hca_cap(dev, MLX5X_CAP_DEV_MEM, &dm->cap);
	if (err) {
		kfree(dm);
		/* firmware without the page: no device memory */
		return err == -ENOMEM ? err : 0;
	}
	dev->dm = dm;
	if (MLX5X_CAP_DM(dev, memic)) {
		dm->memic_start = MLX5X_CAP64_DM(dev, memic_bar_start_addr);
		dm->memic_npages = MLX5X_CAP_DM(dev, memic_bar_size) >>
				   PAGE_SHIFT;
		dm->memic_pages = bitmap_zalloc(dm->memic_npages, GFP_KERNEL);
		if (!dm->memic_pages) {
			err = -ENOMEM;
			goto err;
		}
	}
	dm->log_granule = MLX5X_CAP_DM(dev, log_sw_icm_alloc_granularity);
	if (dev->backend->icm_init) {
		err = dev->backend->icm_init(dev);
		if (err)
			goto err;
	}
	return 0;
err:
	mlx5x_dm_dev_cleanup(dev);
	return err;
}

/**
 * mlx5x_dm_dev_cleanup() - free what mlx5x_dm_dev_init() made
 * @dev: device, without device memory allocations any more
 */
void mlx5x_dm_dev_cleanup(struct mlx5x_dev *dev)
{
	struct mlx5x_dm_dev *dm = dev->dm;

	if (!dm)
		return;
	if (dev->backend->icm_cleanup)
		dev->backend->icm_cleanup(dev);
	bitmap_free(dm->memic_pages);
	kfree(dm->cap);
	kfree(dm);
	dev->dm = NULL;
}

/**
 * mlx5x_dm_max_size() - the max_dm_size query_device reports
 * @dev: device
 *
 * Return: the largest MEMIC allocation, 0 without MEMIC.
 */
u64 mlx5x_dm_max_size(struct mlx5x_dev *dev)
{
	if (!dev->dm || !MLX5X_CAP_DM(dev, memic))
		return 0;
	return MLX5X_CAP_DM(dev, max_memic_size);
}
