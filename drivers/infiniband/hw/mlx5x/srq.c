// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues of user contexts: the mlx5 create_srq ABI
 * libmlx5 speaks (struct mlx5_ib_create_srq: the buffer, the doorbell
 * record, flags and a user index; the response's srqn), made in firmware
 * as an RMP.  mlx5_ib makes a basic SRQ with CREATE_RMP when the device
 * runs ISSI 1 and with CREATE_SRQ under ISSI 0; a device that has RQs,
 * SQs and TIRs as objects of their own (this one: qp_raw.c) runs ISSI 1,
 * so RMP it is; an XRC SRQ is made with CREATE_XRC_SRQ (xrc.c).  Its
 * WQEs are a linked list libmlx5 keeps: a next segment, then the data
 * segments, each WQE a power of two of at least 32 bytes.
 *
 * The SRQ's events arrive through the backend's event handler:
 * SRQ_RQ_LIMIT for the SRQ, SRQ_LAST_WQE for a QP on one; ib_uverbs
 * queues them for ibv_get_async_event().
 */
#include <linux/log2.h>
#include <linux/mlx5/qp.h>
#include <rdma/mlx5-abi.h>
#include "verbs.h"

#define MLX5X_SRQ_UIDX_MASK		GENMASK(23, 0)
/* The next segment that begins each WQE; the smallest WQE. */
#define MLX5X_SRQ_NEXT_SEG		16
#define MLX5X_SRQ_MIN_WQE		32

static int mlx5x_srq_read_ucmd(struct ib_udata *udata,
			       struct mlx5_ib_create_srq *ucmd)
{
	size_t known = sizeof(*ucmd);

	if (ib_copy_from_udata(ucmd, udata, min(udata->inlen, known)))
		return -EFAULT;
	if (ucmd->reserved0 || ucmd->reserved1)
		return -EINVAL;
	if (udata->inlen > known &&
	    !ib_is_udata_cleared(udata, known, udata->inlen - known))
		return -EINVAL;
	/* WQE signatures are not offered */
	if (ucmd->flags)
		return -EOPNOTSUPP;
	if (ucmd->uidx & ~MLX5X_SRQ_UIDX_MASK)
		return -EINVAL;
	return 0;
}

/* The WQE count and size of @attr, within what the device offers. */
static int mlx5x_srq_size(struct mlx5x_dev *dev, struct mlx5x_srq *srq,
			  const struct ib_srq_attr *attr)
{
	u32 max_wr = 1U << MLX5X_CAP_GEN(dev, log_max_srq_sz);
	u32 max_wqe = MLX5X_CAP_GEN(dev, max_wqe_sz_rq);
	u32 wqe;

	if (attr->max_wr >= max_wr ||
	    attr->max_sge > max_wqe / sizeof(struct mlx5_wqe_data_seg))
		return -EINVAL;
	wqe = MLX5X_SRQ_NEXT_SEG +
	      attr->max_sge * sizeof(struct mlx5_wqe_data_seg);
	wqe = max_t(u32, roundup_pow_of_two(wqe), MLX5X_SRQ_MIN_WQE);
	if (wqe > max_wqe)
		return -EINVAL;
	srq->wqe_shift = ilog2(wqe);
	srq->max = roundup_pow_of_two(attr->max_wr + 1);
	srq->max_gs = (wqe - MLX5X_SRQ_NEXT_SEG) /
		      sizeof(struct mlx5_wqe_data_seg);
	return 0;
}

static int mlx5x_srq_fw_create(struct mlx5x_dev *dev, struct mlx5x_srq *srq)
{
	u32 out[PRM_BYTES(create_rmp_out) / 4] = {};
	void *in, *rmpc, *wq;
	int err;

	in = kzalloc(PRM_BYTES(create_rmp_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	rmpc = PRM_ADDR(create_rmp_in, in, ctx);
	wq = PRM_ADDR(rmpc, rmpc, wq);
	PRM_SET(create_rmp_in, in, opcode, MLX5_CMD_OP_CREATE_RMP);
	PRM_SET(create_rmp_in, in, uid, srq->uid);
	PRM_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST);
	PRM_SET(wq, wq, pd, to_mpd(srq->ib.pd)->pdn);
	PRM_SET(wq, wq, log_wq_stride, srq->wqe_shift);
	PRM_SET(wq, wq, log_wq_sz, ilog2(srq->max));
	PRM_SET(wq, wq, log_wq_pg_sz, PAGE_SHIFT - 12);
	PRM_SET(wq, wq, wq_umem_valid, 1);
	prm_set_bits(wq, MLX5X_WQ_UMEM_ID, 32, srq->buf.id);
	PRM_SET(wq, wq, dbr_umem_valid, 1);
	prm_set_bits(wq, MLX5X_WQ_DBR_UMEM_ID, 32, srq->db.id);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_rmp_in), out,
			    sizeof(out));
	kfree(in);
	if (!err)
		srq->srqn = PRM_GET(create_rmp_out, out, rmpn);
	return err;
}

static int mlx5x_srq_fw_destroy(struct mlx5x_dev *dev, struct mlx5x_srq *srq)
{
	u32 in[PRM_BYTES(destroy_rmp_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_rmp_out) / 4] = {};

	if (srq->ib.srq_type == IB_SRQT_XRC)
		return mlx5x_xrc_srq_destroy(dev, srq);

	PRM_SET(destroy_rmp_in, in, opcode, MLX5_CMD_OP_DESTROY_RMP);
	PRM_SET(destroy_rmp_in, in, uid, srq->uid);
	PRM_SET(destroy_rmp_in, in, rmpn, srq->srqn);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

int mlx5x_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *attr,
		     struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibsrq->device);
	struct mlx5_ib_create_srq_resp resp = {};
	struct mlx5x_srq *srq = to_msrq(ibsrq);
	struct mlx5_ib_create_srq ucmd = {};
	struct mlx5x_ucontext *uctx;
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	/* tag matching is not offered */
	if (attr->srq_type != IB_SRQT_BASIC && attr->srq_type != IB_SRQT_XRC)
		return -EOPNOTSUPP;
	err = mlx5x_srq_size(dev, srq, &attr->attr);
	if (!err)
		err = mlx5x_srq_read_ucmd(udata, &ucmd);
	if (err)
		return err;
	if (ucmd.db_addr % MLX5X_DBR_BYTES)
		return -EINVAL;
	srq->uid = to_mpd(ibsrq->pd)->uid;
	err = mlx5x_ubuf_get(dev, srq->uid, ucmd.buf_addr,
			     (size_t)srq->max << srq->wqe_shift,
			     IB_ACCESS_LOCAL_WRITE, &srq->buf);
	if (err)
		return err;
	err = mlx5x_ubuf_get(dev, srq->uid, ucmd.db_addr, MLX5X_DBR_BYTES,
			     IB_ACCESS_LOCAL_WRITE, &srq->db);
	if (err)
		goto err_buf;
	uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ucontext, ib);
	/* an XRC SRQ's receives carry its user index (CQE version 1) */
	if (attr->srq_type == IB_SRQT_XRC)
		err = mlx5x_xrc_srq_create(dev, srq, attr, uctx->cqe_version ?
					   ucmd.uidx : MLX5X_SRQ_UIDX_MASK);
	else
		err = mlx5x_srq_fw_create(dev, srq);
	if (err)
		goto err_db;
	if (attr->srq_type == IB_SRQT_XRC)
		ibsrq->ext.xrc.srq_num = srq->srqn;
	/* its events find it by number (mlx5x_srq_event()) */
	err = xa_err(xa_store(&dev->srqs, srq->srqn, srq, GFP_KERNEL));
	if (err)
		goto err_fw;
	resp.srqn = srq->srqn;
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err)
		goto err_xa;
	attr->attr.max_wr = srq->max - 1;
	attr->attr.max_sge = srq->max_gs;
	return 0;

err_xa:
	xa_erase(&dev->srqs, srq->srqn);
err_fw:
	mlx5x_srq_fw_destroy(dev, srq);
err_db:
	mlx5x_ubuf_put(dev, &srq->db);
err_buf:
	mlx5x_ubuf_put(dev, &srq->buf);
	return err;
}

static int mlx5x_srq_fw_query(struct mlx5x_dev *dev, struct mlx5x_srq *srq,
			      u32 *lwm)
{
	u32 in[PRM_BYTES(query_rmp_in) / 4] = {};
	void *out;
	int err;

	out = kzalloc(PRM_BYTES(query_rmp_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	PRM_SET(query_rmp_in, in, opcode, MLX5_CMD_OP_QUERY_RMP);
	prm_in_set_uid(in, srq->uid);
	PRM_SET(query_rmp_in, in, rmpn, srq->srqn);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out,
			    PRM_BYTES(query_rmp_out));
	if (!err)
		*lwm = PRM_GET(wq, PRM_ADDR(query_rmp_out, out,
					    rmp_context.wq), lwm);
	kfree(out);
	return err;
}

/* Arm the limit: fewer than @limit WQEs left raises SRQ_RQ_LIMIT, once. */
static int mlx5x_srq_fw_arm(struct mlx5x_dev *dev, struct mlx5x_srq *srq,
			    u32 limit)
{
	u32 out[PRM_BYTES(modify_rmp_out) / 4] = {};
	void *in;
	int err;

	in = kzalloc(PRM_BYTES(modify_rmp_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	PRM_SET(modify_rmp_in, in, opcode, MLX5_CMD_OP_MODIFY_RMP);
	PRM_SET(modify_rmp_in, in, uid, srq->uid);
	PRM_SET(modify_rmp_in, in, rmpn, srq->srqn);
	PRM_SET(modify_rmp_in, in, rmp_state, MLX5_RMPC_STATE_RDY);
	PRM_SET(modify_rmp_in, in, ctx.state, MLX5_RMPC_STATE_RDY);
	PRM_SET(modify_rmp_in, in, bitmask.lwm, 1);
	PRM_SET(modify_rmp_in, in, ctx.wq.lwm, limit);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(modify_rmp_in), out,
			    sizeof(out));
	kfree(in);
	return err;
}

int mlx5x_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		     enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibsrq->device);
	struct mlx5x_srq *srq = to_msrq(ibsrq);

	/* an SRQ is not resized, as with mlx5_ib */
	if (mask & IB_SRQ_MAX_WR)
		return -EINVAL;
	if (!(mask & IB_SRQ_LIMIT))
		return 0;
	if (attr->srq_limit >= srq->max)
		return -EINVAL;
	if (ibsrq->srq_type == IB_SRQT_XRC)
		return mlx5x_xrc_srq_arm(dev, srq, attr->srq_limit);
	return mlx5x_srq_fw_arm(dev, srq, attr->srq_limit);
}

int mlx5x_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mlx5x_srq *srq = to_msrq(ibsrq);
	u32 lwm;
	int err;

	if (ibsrq->srq_type == IB_SRQT_XRC)
		err = mlx5x_xrc_srq_query(to_mdev(ibsrq->device), srq, &lwm);
	else
		err = mlx5x_srq_fw_query(to_mdev(ibsrq->device), srq, &lwm);
	if (err)
		return err;
	attr->srq_limit = lwm;
	attr->max_wr = srq->max - 1;
	attr->max_sge = srq->max_gs;
	return 0;
}

int mlx5x_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibsrq->device);
	struct mlx5x_srq *srq = to_msrq(ibsrq);
	int err;

	/* no event reaches it once it is out of the table */
	xa_erase(&dev->srqs, srq->srqn);
	err = mlx5x_srq_fw_destroy(dev, srq);
	if (err) {
		xa_store(&dev->srqs, srq->srqn, srq, GFP_KERNEL);
		return err;
	}
	mlx5x_ubuf_put(dev, &srq->db);
	mlx5x_ubuf_put(dev, &srq->buf);
	return 0;
}

/**
 * mlx5x_srq_event() - an SRQ's event, or a QP's on an SRQ: its handler runs
 * @dev: the device
 * @eqe: the event queue entry
 *
 * Called from the backend's event handler, which destroy commands wait
 * for (the model's lock): an SRQ or QP found in its table is not freed
 * before this returns.  ib_uverbs' handlers queue the event for
 * ibv_get_async_event().
 */
void mlx5x_srq_event(struct mlx5x_dev *dev, const void *eqe)
{
	u32 n = PRM_GET(qp_events, PRM_ADDR(eqe, eqe, event_data),
			qpn_rqn_sqn);
	struct ib_event ev = { .device = &dev->ib };
	struct mlx5x_srq *srq;
	struct mlx5x_qp *qp;

	switch (PRM_GET(eqe, eqe, event_type)) {
	case MLX5_EVENT_TYPE_SRQ_RQ_LIMIT:
		srq = xa_load(&dev->srqs, n);
		if (!srq || !srq->ib.event_handler)
			return;
		ev.event = IB_EVENT_SRQ_LIMIT_REACHED;
		ev.element.srq = &srq->ib;
		srq->ib.event_handler(&ev, srq->ib.srq_context);
		break;
	case MLX5_EVENT_TYPE_SRQ_LAST_WQE:
		qp = xa_load(&dev->qps, n);
		if (!qp || !qp->ib.event_handler)
			return;
		ev.event = IB_EVENT_QP_LAST_WQE_REACHED;
		ev.element.qp = &qp->ib;
		qp->ib.event_handler(&ev, qp->ib.qp_context);
		break;
	}
}
