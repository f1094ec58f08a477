// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD queue pairs: one firmware QP of service type UD over the buffer
 * libmlx5 lays out as for RC (RQ then SQ), created, moved, queried and
 * destroyed by qp_rc.c's commands.  What differs is here: the Q_Key, and
 * the message size.  A UD QP names no peer and no path: each send WQE
 * carries its own address vector (ah.c).
 *
 * As mlx5_ib, every transition of a UD QP asks for a 4096-byte path MTU
 * and 4096-byte messages: the device sends what fits the port's MTU and
 * completes a larger datagram with a local length error.
 */
#include <linux/mlx5/qp.h>
#include "verbs.h"

#define MLX5X_UD_LOG_MSG_MAX	12

/* The PRM's service type of a QP of verbs type @type. */
u32 mlx5x_qp_st(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_UC:
		return MLX5_QP_ST_UC;
	case IB_QPT_UD:
		return MLX5_QP_ST_UD;
	case IB_QPT_GSI:
		return MLX5_QP_ST_QP1;
	case IB_QPT_XRC_INI:
	case IB_QPT_XRC_TGT:
		return MLX5_QP_ST_XRC;
	case IB_QPT_DRIVER:	/* a DCI: a DCT is no firmware QP (qp_dc.c) */
		return MLX5_QP_ST_DCI;
	case MLX5X_QPT_REG_UMR:	/* the driver's own (umr.c) */
		return MLX5_QP_ST_REG_UMR;
	default:
		return MLX5_QP_ST_RC;
	}
}

/**
 * mlx5x_ud_apply() - what a transition of a UD QP sets in its context
 * @attr: the verbs attributes
 * @mask: which of them are given
 * @qpc: the context the command carries, the current one as a base
 *
 * The Q_Key (the receiver's, and the sender's when a work request's has
 * its high bit set); the P_Key index, port and send PSN are the RC
 * code's, as ib_modify_qp_is_ok() lets them through for UD.
 */
void mlx5x_ud_apply(const struct ib_qp_attr *attr, int mask, void *qpc)
{
	if (mask & IB_QP_QKEY)
		PRM_SET(qpc, qpc, q_key, attr->qkey);
	PRM_SET(qpc, qpc, mtu, IB_MTU_4096);
	PRM_SET(qpc, qpc, log_msg_max, MLX5X_UD_LOG_MSG_MAX);
}
