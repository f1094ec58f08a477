// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC: domains, XRC SRQs and XRC target QPs.
 *
 * An XRC domain is shared between processes (ibv_open_xrcd() on the same
 * file), so it belongs to none of their contexts: it is allocated with the
 * kernel's uid, as mlx5_ib does, and so is a target QP, which ib_core
 * creates on the domain's behalf (without udata: no buffer, no doorbell
 * record, no user index) and keeps while one process has it open.  A
 * target has no send queue and no receive queue of its own: what reaches
 * it lands in the XRC SRQ the initiator's WQE names, which must be of its
 * domain.
 *
 * An XRC SRQ is made by its context (CREATE_XRC_SRQ: the domain, the CQ
 * its receives complete in and the user index they carry, which libmlx5
 * looks the SRQ up by), over the same buffer and doorbell record as a
 * basic SRQ (srq.c); initiators are RC QPs without a receive side
 * (qp.c, qp_rc.c).
 */
#include <linux/log2.h>
#include <linux/mlx5/qp.h>
#include "verbs.h"

/*
 * The umem fields of CREATE_XRC_SRQ 6.1's mlx5_ifc.h leaves reserved (the
 * PRM names them), where CREATE_CQ has its own.
 */
#define MLX5X_XRC_SRQC_DBR_UMEM_ID	0x060	/* xrc_srqc, 32 bits */
#define MLX5X_CREATE_XRC_SRQ_UMEM_ID	0x2c0	/* create_xrc_srq_in, 32 */
#define MLX5X_XRC_UIDX_NONE		0xffffff

int mlx5x_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibxrcd->device);
	u32 out[PRM_BYTES(alloc_xrcd_out) / 4] = {};
	u32 in[PRM_BYTES(alloc_xrcd_in) / 4] = {};
	int err;

	if (!MLX5X_CAP_GEN(dev, xrc))
		return -EOPNOTSUPP;
	PRM_SET(alloc_xrcd_in, in, opcode, MLX5_CMD_OP_ALLOC_XRCD);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		to_mxrcd(ibxrcd)->xrcdn = PRM_GET(alloc_xrcd_out, out, xrcd);
	return err;
}

int mlx5x_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	u32 out[PRM_BYTES(dealloc_xrcd_out) / 4] = {};
	u32 in[PRM_BYTES(dealloc_xrcd_in) / 4] = {};

	PRM_SET(dealloc_xrcd_in, in, opcode, MLX5_CMD_OP_DEALLOC_XRCD);
	PRM_SET(dealloc_xrcd_in, in, xrcd, to_mxrcd(ibxrcd)->xrcdn);
	return mlx5x_cmd_run(to_mdev(ibxrcd->device), in, sizeof(in), out,
			     sizeof(out));
}

/**
 * mlx5x_xrc_tgt_create() - create an XRC target QP for ib_core
 * @dev: the device
 * @qp: the QP
 * @attr: the verbs attributes: the domain; no PD, CQ or SRQ
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_xrc_tgt_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			 struct ib_qp_init_attr *attr)
{
	u32 out[PRM_BYTES(create_qp_out) / 4] = {};
	void *in, *qpc;
	int err;

	if (!attr->xrcd || attr->send_cq || attr->recv_cq || attr->srq ||
	    attr->create_flags)
		return -EINVAL;
	in = kzalloc(PRM_BYTES(create_qp_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	PRM_SET(qpc, qpc, st, MLX5_QP_ST_XRC);
	PRM_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	PRM_SET(qpc, qpc, no_sq, 1);
	PRM_SET(qpc, qpc, rq_type, MLX5_SRQ_RQ);
	PRM_SET(qpc, qpc, xrcd, to_mxrcd(attr->xrcd)->xrcdn);
	PRM_SET(qpc, qpc, user_index, MLX5X_XRC_UIDX_NONE);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_qp_in), out,
			    sizeof(out));
	kfree(in);
	if (err)
		return err;
	qp->uid = 0;
	qp->user_index = MLX5X_XRC_UIDX_NONE;
	qp->state = IB_QPS_RESET;
	qp->port = MLX5X_PORT;
	qp->qpn = PRM_GET(create_qp_out, out, qpn);
	qp->ib.qp_num = qp->qpn;
	/* its events find it by number (mlx5x_qp_event()) */
	err = xa_err(xa_store(&dev->qps, qp->qpn, qp, GFP_KERNEL));
	if (err)
		mlx5x_rc_destroy(dev, qp);
	return err;
}

/**
 * mlx5x_xrc_srq_create() - create the firmware XRC SRQ of @srq
 * @dev: the device
 * @srq: the SRQ: its sizes, buffer and doorbell record set
 * @attr: the verbs attributes: the domain and the CQ
 * @uidx: the user index its receives' CQEs carry
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_xrc_srq_create(struct mlx5x_dev *dev, struct mlx5x_srq *srq,
			 struct ib_srq_init_attr *attr, u32 uidx)
{
	u32 out[PRM_BYTES(create_xrc_srq_out) / 4] = {};
	void *in, *c;
	int err;

	in = kzalloc(PRM_BYTES(create_xrc_srq_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	c = PRM_ADDR(create_xrc_srq_in, in, xrc_srq_context_entry);
	PRM_SET(create_xrc_srq_in, in, opcode, MLX5_CMD_OP_CREATE_XRC_SRQ);
	PRM_SET(create_xrc_srq_in, in, uid, srq->uid);
	PRM_SET(create_xrc_srq_in, in, xrc_srq_umem_valid, 1);
	prm_set_bits(in, MLX5X_CREATE_XRC_SRQ_UMEM_ID, 32, srq->buf.id);
	PRM_SET(xrc_srqc, c, log_xrc_srq_size, ilog2(srq->max));
	PRM_SET(xrc_srqc, c, log_rq_stride, srq->wqe_shift - 4);
	PRM_SET(xrc_srqc, c, xrcd, to_mxrcd(attr->ext.xrc.xrcd)->xrcdn);
	PRM_SET(xrc_srqc, c, cqn, to_mcq(attr->ext.cq)->cqn);
	PRM_SET(xrc_srqc, c, user_index, uidx);
	PRM_SET(xrc_srqc, c, log_page_size, PAGE_SHIFT - 12);
	PRM_SET(xrc_srqc, c, pd, to_mpd(srq->ib.pd)->pdn);
	PRM_SET(xrc_srqc, c, dbr_umem_valid, 1);
	prm_set_bits(c, MLX5X_XRC_SRQC_DBR_UMEM_ID, 32, srq->db.id);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_xrc_srq_in), out,
			    sizeof(out));
	kfree(in);
	if (!err)
		srq->srqn = PRM_GET(create_xrc_srq_out, out, xrc_srqn);
	return err;
}

int mlx5x_xrc_srq_destroy(struct mlx5x_dev *dev, struct mlx5x_srq *srq)
{
	u32 out[PRM_BYTES(destroy_xrc_srq_out) / 4] = {};
	u32 in[PRM_BYTES(destroy_xrc_srq_in) / 4] = {};

	PRM_SET(destroy_xrc_srq_in, in, opcode, MLX5_CMD_OP_DESTROY_XRC_SRQ);
	PRM_SET(destroy_xrc_srq_in, in, uid, srq->uid);
	PRM_SET(destroy_xrc_srq_in, in, xrc_srqn, srq->srqn);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/* Arm the limit: fewer than @limit WQEs left raises SRQ_RQ_LIMIT, once. */
int mlx5x_xrc_srq_arm(struct mlx5x_dev *dev, struct mlx5x_srq *srq, u32 limit)
{
	u32 out[PRM_BYTES(arm_xrc_srq_out) / 4] = {};
	u32 in[PRM_BYTES(arm_xrc_srq_in) / 4] = {};

	PRM_SET(arm_xrc_srq_in, in, opcode, MLX5_CMD_OP_ARM_XRC_SRQ);
	PRM_SET(arm_xrc_srq_in, in, uid, srq->uid);
	PRM_SET(arm_xrc_srq_in, in, op_mod,
		MLX5_ARM_XRC_SRQ_IN_OP_MOD_XRC_SRQ);
	PRM_SET(arm_xrc_srq_in, in, xrc_srqn, srq->srqn);
	PRM_SET(arm_xrc_srq_in, in, lwm, limit);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

int mlx5x_xrc_srq_query(struct mlx5x_dev *dev, struct mlx5x_srq *srq,
			u32 *lwm)
{
	u32 in[PRM_BYTES(query_xrc_srq_in) / 4] = {};
	void *out;
	int err;

	out = kzalloc(PRM_BYTES(query_xrc_srq_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	PRM_SET(query_xrc_srq_in, in, opcode, MLX5_CMD_OP_QUERY_XRC_SRQ);
	prm_in_set_uid(in, srq->uid);
	PRM_SET(query_xrc_srq_in, in, xrc_srqn, srq->srqn);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out,
			    PRM_BYTES(query_xrc_srq_out));
	if (!err)
		*lwm = PRM_GET(xrc_srqc, PRM_ADDR(query_xrc_srq_out, out,
						  xrc_srq_context_entry), lwm);
	kfree(out);
	return err;
}
