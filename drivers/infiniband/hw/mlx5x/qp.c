// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs of user contexts: the mlx5 create_qp ABI libmlx5 speaks
 * (struct mlx5_ib_create_qp), its checks, and the state kept for
 * modify_qp and query_qp.  What each type builds in firmware is in
 * qp_rc.c (an RC QP), qp_raw.c (RAW_PACKET: RQ, SQ, TIR, TIS) and
 * qp_rss.c (RAW_PACKET over an indirection table: a TIR).
 *
 * Doorbells: the device hands out dynamic UARs only, so a QP always names
 * the UAR page libmlx5 allocated (MLX5_QP_FLAG_UAR_PAGE_INDEX), as a CQ
 * does; firmware checks that page belongs to the context.
 */
#include <linux/log2.h>
#include <linux/mlx5/qp.h>
#include <rdma/mlx5-abi.h>
#include "kverbs.h"

#define MLX5X_INVALID_BFREG		BIT(31)
#define MLX5X_QP_FLAGS_IGNORED		(MLX5_QP_FLAG_SCATTER_CQE |	\
					 MLX5_QP_FLAG_ALLOW_SCATTER_CQE)
#define MLX5X_QP_FLAGS_RAW		(MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC | \
					 MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_MC)

static int mlx5x_qp_read_ucmd(struct ib_udata *udata,
			      struct mlx5_ib_create_qp *ucmd)
{
	size_t known = sizeof(*ucmd);

	if (udata->inlen < offsetof(struct mlx5_ib_create_qp, sq_buf_addr))
		return -EINVAL;
	if (udata->inlen > known &&
	    !ib_is_udata_cleared(udata, known, udata->inlen - known))
		return -EOPNOTSUPP;
	if (ib_copy_from_udata(ucmd, udata, min(udata->inlen, known)))
		return -EFAULT;
	if (ucmd->ece_options || ucmd->reserved)
		return -EOPNOTSUPP;
	/* DCI streams come with their flag (qp_dc.c) */
	if (!(ucmd->flags & MLX5_QP_FLAG_DCI_STREAM) &&
	    (ucmd->dci_streams.log_num_concurent ||
	     ucmd->dci_streams.log_num_errored))
		return -EOPNOTSUPP;
	return 0;
}

/* The queue sizes libmlx5 computed, within what the device offers. */
static int mlx5x_qp_check_sizes(struct mlx5x_dev *dev,
				const struct mlx5_ib_create_qp *ucmd,
				const struct ib_qp_init_attr *attr)
{
	u32 max = 1U << MLX5X_CAP_GEN(dev, log_max_qp_sz);

	if ((ucmd->sq_wqe_count && !is_power_of_2(ucmd->sq_wqe_count)) ||
	    (ucmd->rq_wqe_count && !is_power_of_2(ucmd->rq_wqe_count)) ||
	    ucmd->sq_wqe_count > max || ucmd->rq_wqe_count > max)
		return -EINVAL;
	/* a QP on an SRQ has no RQ: what it asked for receives is moot */
	if (attr->cap.max_send_wr > ucmd->sq_wqe_count ||
	    (!attr->srq && attr->cap.max_recv_wr > ucmd->rq_wqe_count))
		return -EINVAL;
	if (ucmd->rq_wqe_count &&
	    (ucmd->rq_wqe_shift < 4 || ucmd->rq_wqe_shift > 16 ||
	     BIT(ucmd->rq_wqe_shift) > MLX5X_CAP_GEN(dev, max_wqe_sz_rq)))
		return -EINVAL;
	if (!ucmd->sq_wqe_count && !ucmd->rq_wqe_count)
		return -EINVAL;
	return 0;
}

static int mlx5x_qp_check_flags(struct mlx5x_qp *qp, enum ib_qp_type type)
{
	u32 ok = MLX5_QP_FLAG_UAR_PAGE_INDEX | MLX5X_QP_FLAGS_IGNORED;

	if (type == IB_QPT_RAW_PACKET)
		ok |= MLX5X_QP_FLAGS_RAW;
	if (type == IB_QPT_DRIVER)	/* a DCI (qp_dc.c) */
		ok |= MLX5_QP_FLAG_TYPE_DCI | MLX5_QP_FLAG_DCI_STREAM;
	/* static blue-flame registers are never handed out */
	if (qp->flags & MLX5_QP_FLAG_BFREG_INDEX ||
	    !(qp->flags & MLX5_QP_FLAG_UAR_PAGE_INDEX))
		return -EINVAL;
	if (qp->flags & ~ok)
		return -EOPNOTSUPP;
	return 0;
}

static int mlx5x_qp_init(struct mlx5x_qp *qp, struct mlx5x_ucontext *uctx,
			 const struct mlx5_ib_create_qp *ucmd)
{
	if (uctx->cqe_version) {
		if (ucmd->uidx & ~MLX5X_UIDX_MASK)
			return -EINVAL;
		qp->user_index = ucmd->uidx;
	} else {
		qp->user_index = MLX5X_UIDX_MASK;
	}
	qp->flags = ucmd->flags;
	qp->uar_index = ucmd->bfreg_index;
	qp->sq_wqe_cnt = ucmd->sq_wqe_count;
	qp->rq_wqe_cnt = ucmd->rq_wqe_count;
	qp->rq_wqe_shift = ucmd->rq_wqe_count ? ucmd->rq_wqe_shift : 0;
	qp->state = IB_QPS_RESET;
	qp->port = MLX5X_PORT;
	return 0;
}

/*
 * The create flags a QP of @attr's type may ask for: blocking its own
 * multicast loopback, on RAW_PACKET QPs (their TIR's self_lb_block) and
 * UD QPs (qpc.block_lb_mc), when the device can (block_lb_mc), as
 * mlx5_ib grants it.
 */
static u32 mlx5x_qp_create_flags(struct mlx5x_dev *dev,
				 const struct ib_qp_init_attr *attr)
{
	if ((attr->qp_type == IB_QPT_RAW_PACKET ||
	     attr->qp_type == IB_QPT_UD) &&
	    MLX5X_CAP_GEN(dev, block_lb_mc))
		return IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK;
	return 0;
}

int mlx5x_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibqp->device);
	struct mlx5_ib_create_qp_resp resp = {};
	struct mlx5_ib_create_qp ucmd = {};
	struct mlx5x_qp *qp = to_mqp(ibqp);
	struct mlx5x_ucontext *uctx;
	size_t rq_len, sq_len;
	int err;

	mutex_init(&qp->lock);
	/* ib_core creates an XRC target for its domain, without udata */
	if (attr->qp_type == IB_QPT_XRC_TGT)
		return udata ? -EINVAL : mlx5x_xrc_tgt_create(dev, qp, attr);
	/* a kernel consumer's: the MAD layer's QP1 (kqp.c) */
	if (!udata)
		return mlx5x_kqp_create(dev, qp, attr);
	if (attr->rwq_ind_tbl)
		return mlx5x_rss_create(dev, qp, attr, udata);
	if (!mlx5x_qp_is_fw_qp(attr->qp_type) &&
	    attr->qp_type != IB_QPT_RAW_PACKET)
		return -EOPNOTSUPP;
	if ((attr->create_flags & ~mlx5x_qp_create_flags(dev, attr)) ||
	    attr->xrcd)
		return -EOPNOTSUPP;
	/* an SRQ takes the place of the RQ, which libmlx5 leaves out */
	if (attr->srq && attr->qp_type == IB_QPT_RAW_PACKET)
		return -EOPNOTSUPP;
	if (attr->qp_type == IB_QPT_RAW_PACKET && !capable(CAP_NET_RAW))
		return -EPERM;
	/* an XRC initiator receives nothing: no receive CQ; a DCT, no send */
	if ((!attr->send_cq && attr->qp_type != IB_QPT_DRIVER) ||
	    (!attr->recv_cq && attr->qp_type != IB_QPT_XRC_INI))
		return -EINVAL;
	err = mlx5x_qp_read_ucmd(udata, &ucmd);
	if (err)
		return err;
	uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ucontext, ib);
	err = mlx5x_qp_init(qp, uctx, &ucmd);
	qp->create_flags = attr->create_flags;
	/* a DCT is made here, a DCI goes on as an RC QP does (qp_dc.c) */
	if (!err && attr->qp_type == IB_QPT_DRIVER) {
		err = mlx5x_dc_create(dev, qp, attr, &ucmd);
		if (err)
			return err < 0 ? err : 0;
	}
	/* neither a QP on an SRQ nor an XRC initiator has an RQ */
	if (!err && (attr->srq || attr->qp_type == IB_QPT_XRC_INI) &&
	    qp->rq_wqe_cnt)
		err = -EINVAL;
	if (!err)
		err = mlx5x_qp_check_flags(qp, attr->qp_type);
	if (!err)
		err = mlx5x_qp_check_sizes(dev, &ucmd, attr);
	if (err)
		return err;
	if (ucmd.db_addr % MLX5X_DBR_BYTES)
		return -EINVAL;
	qp->uid = to_mpd(ibqp->pd)->uid;
	rq_len = (size_t)qp->rq_wqe_cnt << qp->rq_wqe_shift;
	sq_len = (size_t)qp->sq_wqe_cnt * MLX5X_SEND_WQE_BB;
	err = mlx5x_ubuf_get(dev, qp->uid, ucmd.db_addr, MLX5X_DBR_BYTES,
			     IB_ACCESS_LOCAL_WRITE, &qp->db);
	if (err)
		return err;

	if (mlx5x_qp_is_fw_qp(attr->qp_type)) {
		err = mlx5x_ubuf_get(dev, qp->uid, ucmd.buf_addr, rq_len + sq_len,
				     IB_ACCESS_LOCAL_WRITE, &qp->buf);
		if (!err)
			err = mlx5x_rc_create(dev, qp, attr);
	} else {
		if (rq_len)
			err = mlx5x_ubuf_get(dev, qp->uid, ucmd.buf_addr, rq_len,
					     IB_ACCESS_LOCAL_WRITE, &qp->buf);
		if (!err && sq_len)
			err = mlx5x_ubuf_get(dev, qp->uid, ucmd.sq_buf_addr,
					     sq_len, IB_ACCESS_LOCAL_WRITE,
					     &qp->raw.sq_buf);
		if (!err)
			err = mlx5x_raw_create(dev, qp, attr, uctx->tdn);
		if (!err) {
			resp.comp_mask = MLX5_IB_CREATE_QP_RESP_MASK_TIRN |
					 MLX5_IB_CREATE_QP_RESP_MASK_TISN |
					 MLX5_IB_CREATE_QP_RESP_MASK_RQN |
					 MLX5_IB_CREATE_QP_RESP_MASK_SQN;
			resp.tirn = qp->raw.tirn;
			resp.tisn = qp->raw.tisn;
			resp.rqn = qp->raw.rqn;
			resp.sqn = qp->raw.sqn;
		}
	}
	if (err)
		goto err_bufs;

	resp.bfreg_index = MLX5X_INVALID_BFREG;
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err)
		goto err_qp;
	return 0;

err_qp:
	if (mlx5x_qp_is_fw_qp(attr->qp_type))
		mlx5x_rc_destroy(dev, qp);
	else
		mlx5x_raw_destroy(dev, qp);
err_bufs:
	mlx5x_ubuf_put(dev, &qp->raw.sq_buf);
	mlx5x_ubuf_put(dev, &qp->buf);
	mlx5x_ubuf_put(dev, &qp->db);
	return err;
}

/* libmlx5 sends no driver data on modify unless ECE or burst is used. */
static int mlx5x_qp_modify_ucmd(struct ib_udata *udata)
{
	if (!udata || !udata->inlen)
		return 0;
	return ib_is_udata_cleared(udata, 0, udata->inlen) ? 0 : -EOPNOTSUPP;
}

static int mlx5x_qp_modify(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			   int mask, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibqp->device);
	struct mlx5x_qp *qp = to_mqp(ibqp);
	enum ib_qp_state cur = qp->state, next;
	int err;

	/* an RSS QP has no state of its own: its WQs have (mlx5_ib: ENOSYS) */
	if (ibqp->rwq_ind_tbl)
		return -EOPNOTSUPP;
	err = mlx5x_qp_modify_ucmd(udata);
	if (err)
		return err;
	/* DC moves as mlx5_ib moves it, not as ib_modify_qp_is_ok() says */
	if (ibqp->qp_type == IB_QPT_DRIVER)
		return mlx5x_dc_modify(dev, qp, attr, mask, udata);
	/* the driver's UMR QP (umr.c): no verbs type, it moves as it asks */
	if (ibqp->qp_type == MLX5X_QPT_REG_UMR) {
		next = mask & IB_QP_STATE ? attr->qp_state : cur;
		err = mlx5x_rc_modify(dev, qp, attr, mask, cur, next);
		if (!err)
			qp->state = next;
		return err;
	}
	/*
	 * The device drains an RC QP's send queue on its own (signature
	 * pipelining): SQD, which the caller may name as its state when
	 * firmware says so.
	 */
	if (mask & IB_QP_CUR_STATE && attr->cur_qp_state != cur &&
	    attr->cur_qp_state == IB_QPS_SQD && cur == IB_QPS_RTS &&
	    ibqp->qp_type == IB_QPT_RC) {
		struct ib_qp_attr now = {};

		err = mlx5x_rc_query(dev, qp, &now);
		if (err)
			return err;
		if (now.qp_state == IB_QPS_SQD)
			cur = IB_QPS_SQD;
	}
	if (mask & IB_QP_CUR_STATE && attr->cur_qp_state != cur)
		return -EINVAL;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		return -EINVAL;
	if (mask & IB_QP_PORT && attr->port_num != MLX5X_PORT)
		return -EINVAL;
	if (mask & IB_QP_PKEY_INDEX && attr->pkey_index)
		return -EINVAL;

	if (mlx5x_qp_is_fw_qp(ibqp->qp_type))
		err = mlx5x_rc_modify(dev, qp, attr, mask, cur, next);
	else
		err = mlx5x_raw_modify(dev, qp, cur, next);
	if (err)
		return err;
	qp->state = next;
	/* a counter bound on the way (qp_counter.c); in RST, none pends */
	if (next == IB_QPS_RESET)
		qp->counter_pending = false;
	else if (next == IB_QPS_RTS)
		err = mlx5x_qp_counter_reached_rts(dev, qp);
	return err;
}

int mlx5x_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata)
{
	struct mlx5x_qp *qp = to_mqp(ibqp);
	int err;

	mutex_lock(&qp->lock);
	err = mlx5x_qp_modify(ibqp, attr, mask, udata);
	mutex_unlock(&qp->lock);
	return err;
}

int mlx5x_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init)
{
	struct mlx5x_dev *dev = to_mdev(ibqp->device);
	struct mlx5x_qp *qp = to_mqp(ibqp);
	int err;

	if (ibqp->rwq_ind_tbl)
		return -EOPNOTSUPP;
	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	mutex_lock(&qp->lock);
	attr->qp_state = qp->state;
	attr->port_num = qp->port;
	if (qp->dct) {
		err = mlx5x_dct_query(dev, qp, attr);
	} else if (mlx5x_qp_is_fw_qp(ibqp->qp_type)) {
		err = mlx5x_rc_query(dev, qp, attr);
		if (!err)
			qp->state = attr->qp_state;
	} else {
		err = 0;
	}
	mutex_unlock(&qp->lock);
	if (err)
		return err;
	attr->cur_qp_state = attr->qp_state;
	attr->cap.max_send_wr = qp->sq_wqe_cnt;
	attr->cap.max_recv_wr = qp->rq_wqe_cnt;
	/* a receive WQE is all scatter entries (no signature: refused) */
	if (qp->rq_wqe_cnt)
		attr->cap.max_recv_sge = BIT(qp->rq_wqe_shift) /
					 sizeof(struct mlx5_wqe_data_seg);
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->create_flags = qp->create_flags;
	return 0;
}

int mlx5x_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibqp->device);
	struct mlx5x_qp *qp = to_mqp(ibqp);
	int err;

	if (qp->dct)
		return mlx5x_dct_destroy(dev, qp);
	if (mlx5x_qp_is_fw_qp(ibqp->qp_type) || qp->k)
		err = mlx5x_rc_destroy(dev, qp);
	else
		err = mlx5x_raw_destroy(dev, qp);
	if (err)
		return err;
	if (qp->k) {
		mlx5x_kqp_destroy(dev, qp);
		return 0;
	}
	mlx5x_ubuf_put(dev, &qp->raw.sq_buf);
	mlx5x_ubuf_put(dev, &qp->buf);
	mlx5x_ubuf_put(dev, &qp->db);
	return 0;
}

/* The affiliated asynchronous errors of a QP, as mlx5_ib reports them. */
static enum ib_event_type mlx5x_qp_error_event(u8 type)
{
	switch (type) {
	case MLX5_EVENT_TYPE_WQ_CATAS_ERROR:
		return IB_EVENT_QP_FATAL;
	case MLX5_EVENT_TYPE_WQ_INVAL_REQ_ERROR:
		return IB_EVENT_QP_REQ_ERR;
	case MLX5_EVENT_TYPE_WQ_ACCESS_ERROR:
		return IB_EVENT_QP_ACCESS_ERR;
	case MLX5_EVENT_TYPE_SQ_DRAINED:
		return IB_EVENT_SQ_DRAINED;
	default:
		return 0;
	}
}

/**
 * mlx5x_qp_event() - an asynchronous error of a verbs QP to its handler
 * @dev: the device
 * @eqe: the model's event (any type: others are not this function's)
 *
 * A responder that found an access violation or an invalid request with
 * no receive WQE to report it in (IBTA 11.6.3.1), or a QP whose work
 * queue broke: ib_uverbs' handler queues the event for
 * ibv_get_async_event().  A RAW_PACKET QP is an RQ and an SQ in
 * firmware: its RQ's or SQ's WQ catastrophic error is the QP's
 * IB_EVENT_QP_FATAL, as mlx5_ib makes their event handler the QP's
 * (their other errors mlx5_core does not pass on).  The QP is found by number under the
 * model's lock, which its destroy command takes: it is not freed
 * meanwhile.
 */
void mlx5x_qp_event(struct mlx5x_dev *dev, const void *eqe)
{
	const void *data = PRM_ADDR(eqe, eqe, event_data);
	u32 num = PRM_GET(qp_events, data, qpn_rqn_sqn);
	struct ib_event ev = { .device = &dev->ib };
	struct mlx5x_qp *qp;

	ev.event = mlx5x_qp_error_event(PRM_GET(eqe, eqe, event_type));
	if (!ev.event)
		return;
	switch (PRM_GET(qp_events, data, type)) {
	case MLX5_EVENT_QUEUE_TYPE_QP:
		qp = xa_load(&dev->qps, num);
		break;
	case MLX5_EVENT_QUEUE_TYPE_RQ:
	case MLX5_EVENT_QUEUE_TYPE_SQ:
		/* of an RQ's or SQ's, mlx5_core passes on the catastrophic error */
		if (ev.event != IB_EVENT_QP_FATAL)
			return;
		qp = xa_load(&dev->raw_wqs,
			     mlx5x_raw_wq_key(PRM_GET(qp_events, data, type),
					      num));
		break;
	default:
		return;
	}
	if (!qp || !qp->ib.event_handler)
		return;
	ev.element.qp = &qp->ib;
	qp->ib.event_handler(&ev, qp->ib.qp_context);
}
