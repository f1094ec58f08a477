/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Verbs queues of mlx5x: CQs (and QPs) created through the upstream mlx5
 * uverbs ABI (<rdma/mlx5-abi.h>), for user contexts only.
 */
#ifndef MLX5X_VERBS_H
#define MLX5X_VERBS_H

#include "mlx5x.h"

/*
 * Fields that name a buffer by umem.  The PRM has them; 6.1's mlx5_ifc.h
 * still calls the bits reserved, so their bit offsets are given here.
 */
#define MLX5X_CQC_DBR_UMEM_ID		0x020	/* cqc, 32 bits */
#define MLX5X_CREATE_CQ_UMEM_ID		0x2c0	/* create_cq_in, 32 bits */

/* A doorbell record: two big-endian counters. */
#define MLX5X_DBR_BYTES			8

/**
 * struct mlx5x_ubuf - a user buffer pinned by the kernel for firmware
 * @umem: the pinned pages
 * @id: the firmware UMEM the kernel registered over them
 * @uid: its owner, the context's firmware uid
 */
struct mlx5x_ubuf {
	struct ib_umem *umem;
	u32 id;
	u16 uid;
};

struct mlx5x_cq {
	struct ib_cq ib;
	u32 cqn;
	u16 uid;
	struct mlx5x_ubuf buf;
	struct mlx5x_ubuf db;
};

static inline struct mlx5x_cq *to_mcq(struct ib_cq *ib)
{
	return container_of(ib, struct mlx5x_cq, ib);
}

/* ubuf.c */
int mlx5x_ubuf_get(struct mlx5x_dev *dev, u16 uid, u64 addr, size_t len,
		   struct mlx5x_ubuf *buf);
void mlx5x_ubuf_put(struct mlx5x_dev *dev, struct mlx5x_ubuf *buf);

/* cq.c */
int mlx5x_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata);
int mlx5x_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int mlx5x_modify_cq(struct ib_cq *ibcq, u16 count, u16 period);

#endif /* MLX5X_VERBS_H */
