/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The simulated backend (sim_backend.c, sim_backend_icm.c): what it keeps
 * of a device beside the firmware model, as mlx5_core keeps a ConnectX's.
 */
#ifndef MLX5X_SIM_BACKEND_H
#define MLX5X_SIM_BACKEND_H

#include <linux/spinlock.h>
#include "dm.h"

struct mlx5x_sim;
struct mlx5x_sim_wire;
struct net_device;

/* One SW ICM region of the device memory caps, with its granules in use. */
struct mlx5x_sim_icm_region {
	u64 start;		/* 0: the device has no such region */
	u32 log_size;
	unsigned long *blocks;	/* 1 << (log_size - granule) bits */
};

/**
 * struct mlx5x_sim_dev - a device of the sim backend (its backend_priv)
 * @sim: the firmware model
 * @icm_lock: protects the regions' bitmaps
 * @icm: the SW ICM regions, by enum mlx5x_icm_type, from which
 *	 mlx5x_sim_icm_alloc() carves ranges as mlx5_core carves a
 *	 ConnectX's
 * @wire: its netdev as the port's wire (sim_wire.c), or NULL
 */
struct mlx5x_sim_dev {
	struct mlx5x_sim *sim;
	spinlock_t icm_lock;
	struct mlx5x_sim_icm_region icm[MLX5X_ICM_NTYPES];
	struct mlx5x_sim_wire *wire;
};

static inline struct mlx5x_sim_dev *to_sim_dev(struct mlx5x_dev *dev)
{
	return dev->backend_priv;
}

/* sim_backend_icm.c: the SW ICM allocator mlx5_core has for hardware */
int mlx5x_sim_icm_init(struct mlx5x_dev *dev);
void mlx5x_sim_icm_cleanup(struct mlx5x_dev *dev);
int mlx5x_sim_icm_alloc(struct mlx5x_dev *dev, unsigned int type, u64 length,
			u32 log_align, u16 uid, u64 *addr, u32 *obj_id);
int mlx5x_sim_icm_free(struct mlx5x_dev *dev, unsigned int type, u64 length,
		       u16 uid, u64 addr, u32 obj_id);

/* sim_wire.c: the netdev as the port's wire */
int mlx5x_sim_wire_attach(struct mlx5x_sim_dev *sdev, struct net_device *ndev);
void mlx5x_sim_wire_detach(struct mlx5x_sim_dev *sdev);
void mlx5x_sim_wire_upper(struct mlx5x_sim_dev *sdev, struct net_device *upper,
			  bool registered);

#endif /* MLX5X_SIM_BACKEND_H */
