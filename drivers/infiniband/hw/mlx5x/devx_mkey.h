/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The kernel's own rules on DEVX mkeys and PSVs (devx_mkey.c). */
#ifndef MLX5X_DEVX_MKEY_H
#define MLX5X_DEVX_MKEY_H

#include <linux/types.h>

struct mlx5x_devx_obj;

int mlx5x_devx_mkey_check(const void *in, size_t inlen);
int mlx5x_devx_mkey_created(struct mlx5x_devx_obj *obj, const void *in,
			    const void *out);
void *mlx5x_devx_mkey_untrack(struct mlx5x_devx_obj *obj);
void mlx5x_devx_mkey_retrack(struct mlx5x_devx_obj *obj, void *rec);
int mlx5x_devx_psv_check(const void *in, size_t inlen);

#endif /* MLX5X_DEVX_MKEY_H */
