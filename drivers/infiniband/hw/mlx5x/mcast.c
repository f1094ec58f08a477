// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast groups: ibv_attach_mcast(3) and ibv_detach_mcast(3) of a UD
 * QP, which ib_core checks first (a multicast GID, a UD QP), as
 * ATTACH_TO_MCG and DETACH_FROM_MCG under the QP's context.  On RoCE the
 * LID is not used.  The device's attributes say how many groups and QPs
 * a group the caps allow (query.c).
 */
#include "verbs.h"

static int mlx5x_mcg_cmd(struct ib_qp *ibqp, const union ib_gid *gid,
			 u16 opcode)
{
	u32 in[PRM_BYTES(attach_to_mcg_in) / 4] = {};
	u32 out[PRM_BYTES(attach_to_mcg_out) / 4] = {};
	struct mlx5x_qp *qp = to_mqp(ibqp);

	/* DETACH_FROM_MCG's layout is ATTACH_TO_MCG's */
	PRM_SET(attach_to_mcg_in, in, opcode, opcode);
	PRM_SET(attach_to_mcg_in, in, uid, qp->uid);
	PRM_SET(attach_to_mcg_in, in, qpn, qp->qpn);
	memcpy(PRM_ADDR(attach_to_mcg_in, in, multicast_gid), gid->raw,
	       sizeof(gid->raw));
	return mlx5x_cmd_run(to_mdev(ibqp->device), in, sizeof(in), out,
			     sizeof(out));
}

int mlx5x_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return mlx5x_mcg_cmd(ibqp, gid, MLX5_CMD_OP_ATTACH_TO_MCG);
}

int mlx5x_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return mlx5x_mcg_cmd(ibqp, gid, MLX5_CMD_OP_DETACH_FROM_MCG);
}
