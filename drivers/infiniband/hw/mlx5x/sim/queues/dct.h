/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * DC targets (queues/cmd_dct.c), and what the data path reads of them
 * (dp/dp_dc.c).  Private to the model.
 */
#ifndef MLX5X_SIM_DCT_H
#define MLX5X_SIM_DCT_H

#include "queues.h"

/*
 * The service type a DCT's responder context carries: what mlx5's qp.h
 * calls MLX5_QP_ST_DCT; no QP of CREATE_QP has it.
 */
#define SIM_QPC_ST_DCT		0x6

/*
 * A DCT: the context CREATE_DCT gave (@dctc), and the responder's QP
 * context the RC engine reads (@qp.qpc: its PD, SRQ, CQ, user index,
 * access rights and RNR timer, state RTR).  @holder is the DCI whose
 * message holds the receive WQE the DCT took of its SRQ: a message of
 * another DCI waits for it to end.
 */
struct sim_dct {
	struct sim_qp qp;
	u8 dctc[PRM_BYTES(dctc)];
	u32 holder;
};

/* queues/cmd_dct.c */
u8 sim_dci_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 const void *qpc);
bool sim_qp_ext(const struct sim_cmd_ctx *ctx);
u8 sim_dci_stream_reset(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			struct sim_qp *qp);

#endif /* MLX5X_SIM_DCT_H */
