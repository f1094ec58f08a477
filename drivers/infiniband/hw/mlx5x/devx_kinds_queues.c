// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX kinds of the queues and transport objects: CQ, RQ, SQ, RQT, TIR,
 * TIS, QP, RMP (an SRQ) and XRC SRQ, with their query and modify commands
 * (every QP state transition is a modify), and a QP's attachment to a
 * multicast group.  A queue's buffers come from the process: the
 * kernel sets the umem_valid bits of their create mailboxes, so firmware
 * reads the buffer and doorbell fields as umem ids and offsets, never as
 * raw bus addresses.  Field positions come from <linux/mlx5/mlx5_ifc.h>.
 */
#include "mlx5x.h"
#include "devx_kinds.h"

enum {
	KIND_CQ,
	KIND_RQ,
	KIND_SQ,
	KIND_RQT,
	KIND_TIR,
	KIND_TIS,
	KIND_QP,
	KIND_RMP,
	KIND_XRC_SRQ,
	KIND_MCG,
	KIND_MAX,
};

/* An attachment's mailbox holds its multicast GID: the detach needs it. */
static int mlx5x_devx_mcg_check(const void *in, size_t inlen)
{
	return inlen < PRM_BYTES(attach_to_mcg_in) ? -EINVAL : 0;
}

/*
 * The destroy of an attachment is the DETACH_FROM_MCG of the same QP from
 * the same group: the GID, 128 bits, is copied whole, not as a key.
 */
static int mlx5x_devx_mcg_created(struct mlx5x_devx_obj *obj, const void *in,
				  const void *out)
{
	BUILD_BUG_ON(PRM_BYTES(detach_from_mcg_in) > sizeof(obj->dinbox));
	memcpy(PRM_ADDR(detach_from_mcg_in, obj->dinbox, multicast_gid),
	       PRM_ADDR(attach_to_mcg_in, in, multicast_gid),
	       PRM_BIT_SZ(attach_to_mcg_in, multicast_gid) / 8);
	return 0;
}

/* A kind named by the id field fld of its create output. */
#define QKIND(nm, cop, dop, typ, fld, ...) {				\
	MLX5X_KIND_OPS(nm, cop, dop, destroy_##typ##_in),		\
	.key = { MLX5X_KEY_FROM_OUT(create_##typ##_out, fld,		\
				    destroy_##typ##_in, fld) },		\
	__VA_ARGS__ }

static const struct mlx5x_devx_kind mlx5x_queue_kinds[KIND_MAX] = {
	[KIND_CQ] = QKIND("cq", MLX5_CMD_OP_CREATE_CQ, MLX5_CMD_OP_DESTROY_CQ,
			  cq, cqn,
			  MLX5X_FORCE(MLX5X_FIELD(create_cq_in, cq_umem_valid),
				      MLX5X_FIELD(create_cq_in,
						  cq_context.dbr_umem_valid))),
	[KIND_RQ] = QKIND("rq", MLX5_CMD_OP_CREATE_RQ, MLX5_CMD_OP_DESTROY_RQ,
			  rq, rqn,
			  MLX5X_FORCE(MLX5X_FIELD(create_rq_in,
						  ctx.wq.wq_umem_valid),
				      MLX5X_FIELD(create_rq_in,
						  ctx.wq.dbr_umem_valid))),
	[KIND_SQ] = QKIND("sq", MLX5_CMD_OP_CREATE_SQ, MLX5_CMD_OP_DESTROY_SQ,
			  sq, sqn,
			  MLX5X_FORCE(MLX5X_FIELD(create_sq_in,
						  ctx.wq.wq_umem_valid),
				      MLX5X_FIELD(create_sq_in,
						  ctx.wq.dbr_umem_valid))),
	[KIND_RQT] = QKIND("rqt", MLX5_CMD_OP_CREATE_RQT,
			   MLX5_CMD_OP_DESTROY_RQT, rqt, rqtn),
	[KIND_TIR] = QKIND("tir", MLX5_CMD_OP_CREATE_TIR,
			   MLX5_CMD_OP_DESTROY_TIR, tir, tirn),
	[KIND_TIS] = QKIND("tis", MLX5_CMD_OP_CREATE_TIS,
			   MLX5_CMD_OP_DESTROY_TIS, tis, tisn),
	[KIND_QP] = QKIND("qp", MLX5_CMD_OP_CREATE_QP, MLX5_CMD_OP_DESTROY_QP,
			  qp, qpn,
			  MLX5X_FORCE(MLX5X_FIELD(create_qp_in, wq_umem_valid),
				      MLX5X_FIELD(create_qp_in,
						  qpc.dbr_umem_valid))),
	[KIND_RMP] = QKIND("rmp", MLX5_CMD_OP_CREATE_RMP,
			   MLX5_CMD_OP_DESTROY_RMP, rmp, rmpn,
			   MLX5X_FORCE(MLX5X_FIELD(create_rmp_in,
						   ctx.wq.wq_umem_valid),
				       MLX5X_FIELD(create_rmp_in,
						   ctx.wq.dbr_umem_valid))),
	[KIND_XRC_SRQ] = QKIND("xrc_srq", MLX5_CMD_OP_CREATE_XRC_SRQ,
			       MLX5_CMD_OP_DESTROY_XRC_SRQ, xrc_srq, xrc_srqn,
			       MLX5X_FORCE(MLX5X_FIELD(create_xrc_srq_in,
						       xrc_srq_umem_valid),
					   MLX5X_FIELD(create_xrc_srq_in,
						       xrc_srq_context_entry.dbr_umem_valid))),
	/*
	 * A QP's membership of a multicast group, as on mlx5_ib: the
	 * mailbox's QP is checked by firmware (a QP of the context's uid),
	 * and the object goes by DETACH_FROM_MCG.  Firmware drops the
	 * membership by itself when the QP is destroyed first.
	 */
	[KIND_MCG] = { MLX5X_KIND_OPS("mcg", MLX5_CMD_OP_ATTACH_TO_MCG,
				      MLX5_CMD_OP_DETACH_FROM_MCG,
				      detach_from_mcg_in),
		       .key = { MLX5X_KEY_FROM_IN(attach_to_mcg_in, qpn,
						  detach_from_mcg_in, qpn) },
		       .check = mlx5x_devx_mcg_check,
		       .created = mlx5x_devx_mcg_created,
		       .lapses = true },
};

/* A command typ_in of kind k naming the object by its field fld. */
#define QOP(opc, k, mod, typ, fld)					\
	MLX5X_OP(opc, &mlx5x_queue_kinds[k], mod, MLX5X_FIELD(typ, fld))

static const struct mlx5x_devx_op mlx5x_queue_ops[] = {
	QOP(MLX5_CMD_OP_QUERY_CQ, KIND_CQ, false, query_cq_in, cqn),
	QOP(MLX5_CMD_OP_MODIFY_CQ, KIND_CQ, true, modify_cq_in, cqn),
	QOP(MLX5_CMD_OP_QUERY_RQ, KIND_RQ, false, query_rq_in, rqn),
	QOP(MLX5_CMD_OP_MODIFY_RQ, KIND_RQ, true, modify_rq_in, rqn),
	QOP(MLX5_CMD_OP_QUERY_SQ, KIND_SQ, false, query_sq_in, sqn),
	QOP(MLX5_CMD_OP_MODIFY_SQ, KIND_SQ, true, modify_sq_in, sqn),
	QOP(MLX5_CMD_OP_QUERY_RQT, KIND_RQT, false, query_rqt_in, rqtn),
	QOP(MLX5_CMD_OP_MODIFY_RQT, KIND_RQT, true, modify_rqt_in, rqtn),
	QOP(MLX5_CMD_OP_QUERY_TIR, KIND_TIR, false, query_tir_in, tirn),
	QOP(MLX5_CMD_OP_MODIFY_TIR, KIND_TIR, true, modify_tir_in, tirn),
	QOP(MLX5_CMD_OP_QUERY_TIS, KIND_TIS, false, query_tis_in, tisn),
	QOP(MLX5_CMD_OP_MODIFY_TIS, KIND_TIS, true, modify_tis_in, tisn),
	QOP(MLX5_CMD_OP_QUERY_QP, KIND_QP, false, query_qp_in, qpn),
	QOP(MLX5_CMD_OP_RST2INIT_QP, KIND_QP, true, rst2init_qp_in, qpn),
	QOP(MLX5_CMD_OP_INIT2INIT_QP, KIND_QP, true, init2init_qp_in, qpn),
	QOP(MLX5_CMD_OP_INIT2RTR_QP, KIND_QP, true, init2rtr_qp_in, qpn),
	QOP(MLX5_CMD_OP_RTR2RTS_QP, KIND_QP, true, rtr2rts_qp_in, qpn),
	QOP(MLX5_CMD_OP_RTS2RTS_QP, KIND_QP, true, rts2rts_qp_in, qpn),
	QOP(MLX5_CMD_OP_SQERR2RTS_QP, KIND_QP, true, sqerr2rts_qp_in, qpn),
	QOP(MLX5_CMD_OP_2ERR_QP, KIND_QP, true, qp_2err_in, qpn),
	QOP(MLX5_CMD_OP_2RST_QP, KIND_QP, true, qp_2rst_in, qpn),
	QOP(MLX5_CMD_OP_QUERY_RMP, KIND_RMP, false, query_rmp_in, rmpn),
	QOP(MLX5_CMD_OP_MODIFY_RMP, KIND_RMP, true, modify_rmp_in, rmpn),
	QOP(MLX5_CMD_OP_QUERY_XRC_SRQ, KIND_XRC_SRQ, false, query_xrc_srq_in,
	    xrc_srqn),
	QOP(MLX5_CMD_OP_ARM_XRC_SRQ, KIND_XRC_SRQ, true, arm_xrc_srq_in,
	    xrc_srqn),
};

const struct mlx5x_devx_kind_set mlx5x_devx_queue_kinds = {
	.kinds = mlx5x_queue_kinds,
	.nkinds = ARRAY_SIZE(mlx5x_queue_kinds),
	.ops = mlx5x_queue_ops,
	.nops = ARRAY_SIZE(mlx5x_queue_ops),
};
