/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The hardware backend: an mlx5x device beside mlx5_ib on an mlx5_core
 * function, its commands run by mlx5_core.
 */
#ifndef MLX5X_HW_H
#define MLX5X_HW_H

#include <linux/auxiliary_bus.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/xarray.h>
#include <linux/mlx5/driver.h>
#include <linux/mlx5/eq.h>

struct mlx5x_dev;
struct dentry;

/**
 * struct mlx5x_hw - one mlx5_core function mlx5x is attached to
 * @node: on the list of attached functions (hw_bus.c)
 * @adev: mlx5_core's RDMA auxiliary device of the function, whose life
 *	  the attachment follows
 * @mdev: the function
 * @dev: the IB device; its structure is held (get_device) until detach
 * @eq_nb: every EQE of the function's async EQ, for DEVX events
 * @core_nb: mlx5_core's own events (a fatal error of the function)
 * @roce: RoCE enabled on the NIC vport for this device (a reference
 *	  mlx5_core counts, shared with mlx5_ib)
 * @events: @eq_nb and @core_nb are registered
 * @cqs: CQs created through mlx5_core's CQ table, by CQN (hw_cq.c)
 */
struct mlx5x_hw {
	struct list_head node;
	struct auxiliary_device *adev;
	struct mlx5_core_dev *mdev;
	struct mlx5x_dev *dev;
	struct mlx5_nb eq_nb;
	struct notifier_block core_nb;
	bool roce;
	bool events;
	struct xarray cqs;
};

/* hw_backend.c */
struct mlx5x_hw *mlx5x_hw_attach(struct auxiliary_device *adev,
				 struct mlx5_core_dev *mdev);
void mlx5x_hw_detach(struct mlx5x_hw *hw);
void mlx5x_hw_debugfs_init(struct dentry *root);

/* hw_cq.c */
int mlx5x_hw_cq_create(struct mlx5x_hw *hw, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5x_hw_cq_destroy(struct mlx5x_hw *hw, const void *in, size_t inlen,
			void *out, size_t outlen);
void mlx5x_hw_cqs_cleanup(struct mlx5x_hw *hw);

/* hw_dm.c */
int mlx5x_hw_memic_pfn(struct mlx5x_dev *dev, u64 bar_off, unsigned long *pfn);
int mlx5x_hw_icm_alloc(struct mlx5x_dev *dev, unsigned int type, u64 length,
		       u32 log_align, u16 uid, u64 *addr, u32 *obj_id);
int mlx5x_hw_icm_free(struct mlx5x_dev *dev, unsigned int type, u64 length,
		      u16 uid, u64 addr, u32 obj_id);

#endif /* MLX5X_HW_H */
