/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The UMR WQE and remote invalidation (dp_umr.c), as the QP engines and
 * the KUnit suites reach them: by the context, PD and number of the QP
 * that posts the UMR or receives the SEND with invalidate.
 */
#ifndef MLX5X_SIM_UMR_H
#define MLX5X_SIM_UMR_H

#include "../sim_priv.h"

/**
 * struct sim_umr_qp - the QP a UMR or an invalidation is for
 * @uid: its context: every key named must be the context's
 * @pdn: its PD: every window named must be on it
 * @qpn: its number: a type 2 window is bound to it
 */
struct sim_umr_qp {
	u16 uid;
	u32 pdn;
	u32 qpn;
};

u32 sim_umr_exec(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		 const u8 *wqe, size_t len);
bool sim_umr_invalidate(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
			u32 key);

#endif /* MLX5X_SIM_UMR_H */
