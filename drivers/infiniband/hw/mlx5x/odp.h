/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * On-demand paging, between odp.c (explicit MRs, faults, prefetch) and
 * odp_implicit.c (implicit MRs).
 */
#ifndef MLX5X_ODP_H
#define MLX5X_ODP_H

#include <linux/log2.h>
#include <rdma/ib_umem_odp.h>
#include "verbs.h"

/* What the pages of a fault are given with: at most this many at once. */
#define MLX5X_ODP_MAX_PAGES	512

/* An implicit MR's child: the span one fault gives at most, aligned. */
#define MLX5X_IMR_CHILD_SHIFT	(PAGE_SHIFT + ilog2(MLX5X_ODP_MAX_PAGES))
#define MLX5X_IMR_CHILD		BIT_ULL(MLX5X_IMR_CHILD_SHIFT)

/**
 * struct mlx5x_odp_span - pages of ib_core's ODP umem, in firmware's
 * @odp: ib_core's umem (an explicit MR's, or a child of an implicit one)
 * @base: the user address of firmware's first page of the MR's umem
 * @start: the span's first byte, from there
 * @end: the byte past its last
 */
struct mlx5x_odp_span {
	struct ib_umem_odp *odp;
	u64 base, start, end;
};

extern const struct mmu_interval_notifier_ops mlx5x_odp_ops;
int mlx5x_odp_span_map(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
		       const struct mlx5x_odp_span *span, u64 off, u64 len,
		       bool write, bool fault);
int mlx5x_odp_umem_create(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
			  size_t nmtt, u32 offset);
void mlx5x_odp_umem_destroy(struct mlx5x_dev *dev, struct mlx5x_mr *mr);

/* odp_implicit.c */
int mlx5x_imr_get(struct mlx5x_dev *dev, struct mlx5x_mr *mr, int access);
int mlx5x_imr_map(struct mlx5x_dev *dev, struct mlx5x_mr *mr, u64 off,
		  u64 len, bool write, bool fault);
void mlx5x_imr_child_empty(struct mlx5x_mr *mr);
void mlx5x_imr_put(struct mlx5x_dev *dev, struct mlx5x_mr *mr);

#endif
