// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive work queues (ibv_create_wq) and receive WQ indirection tables
 * (ibv_create_rwq_ind_table), as mlx5_ib makes them: a WQ is an RQ of
 * firmware over the buffer and doorbell record libmlx5 gives (struct
 * mlx5_ib_create_wq), an indirection table an RQT listing those RQs.  An
 * RSS QP's TIR spreads packets over the RQT (qp_rss.c); a packet lands in
 * the RQ its hash picks, and its CQE carries the WQ's user index, by which
 * libmlx5 finds the WQ.
 *
 * Only what the model carries is accepted: cyclic RQs (no striding RQ),
 * no WQE signature, none of the create flags (VLAN stripping, scatter of
 * the FCS, delay drop, end padding): EOPNOTSUPP.
 */
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <rdma/mlx5-abi.h>
#include "verbs.h"

/* IB_WQS_* to MLX5_RQC_STATE_*: RESET and RDY are the same numbers. */
static u8 mlx5x_wq_fw_state(enum ib_wq_state state)
{
	return state == IB_WQS_ERR ? MLX5_RQC_STATE_ERR : state;
}

static int mlx5x_wq_read_ucmd(struct ib_udata *udata,
			      struct mlx5_ib_create_wq *ucmd)
{
	size_t need = offsetofend(struct mlx5_ib_create_wq,
				  single_stride_log_num_of_bytes);

	if (udata->inlen < need)
		return -EINVAL;
	if (udata->inlen > sizeof(*ucmd) &&
	    !ib_is_udata_cleared(udata, sizeof(*ucmd),
				 udata->inlen - sizeof(*ucmd)))
		return -EOPNOTSUPP;
	if (ib_copy_from_udata(ucmd, udata, min(udata->inlen, sizeof(*ucmd))))
		return -EFAULT;
	/* striding RQs and WQE signatures are not offered */
	if (ucmd->comp_mask || ucmd->flags)
		return -EOPNOTSUPP;
	return 0;
}

/* The sizes libmlx5 computed, within what firmware takes. */
static int mlx5x_wq_check(struct mlx5x_dev *dev,
			  const struct ib_wq_init_attr *attr,
			  const struct mlx5_ib_create_wq *ucmd)
{
	u32 max = 1U << MLX5X_CAP_GEN(dev, log_max_wq_sz);
	size_t len;

	if (attr->max_wr > max || !ucmd->rq_wqe_count ||
	    !is_power_of_2(ucmd->rq_wqe_count) || ucmd->rq_wqe_count > max ||
	    ucmd->rq_wqe_count < attr->max_wr)
		return -EINVAL;
	if (ucmd->rq_wqe_shift < 4 || ucmd->rq_wqe_shift > 16 ||
	    BIT(ucmd->rq_wqe_shift) > MLX5X_CAP_GEN(dev, max_wqe_sz_rq) ||
	    check_shl_overflow((size_t)ucmd->rq_wqe_count, ucmd->rq_wqe_shift,
			       &len))
		return -EINVAL;
	if (!ucmd->buf_addr || ucmd->db_addr % MLX5X_DBR_BYTES ||
	    ucmd->user_index & ~MLX5X_UIDX_MASK)
		return -EINVAL;
	return 0;
}

/* Destroy the RQ of @wq, then let its buffers go. */
static int mlx5x_wq_unmake(struct mlx5x_dev *dev, struct mlx5x_rwq *wq)
{
	int err;

	err = mlx5x_fw_destroy(dev, wq->uid, MLX5_CMD_OP_DESTROY_RQ, &wq->rqn);
	if (err)
		return err;
	mlx5x_ubuf_put(dev, &wq->db);
	mlx5x_ubuf_put(dev, &wq->buf);
	return 0;
}

static int mlx5x_wq_make(struct mlx5x_dev *dev, struct mlx5x_rwq *wq,
			 struct ib_pd *pd, struct ib_wq_init_attr *attr,
			 const struct mlx5_ib_create_wq *ucmd)
{
	struct mlx5x_rq_place pl = {
		.uid = to_mpd(pd)->uid,
		.pdn = to_mpd(pd)->pdn,
		.cqn = to_mcq(attr->cq)->cqn,
		.user_index = ucmd->user_index,
		.buf = &wq->buf,
		.db = &wq->db,
		.log_stride = ucmd->rq_wqe_shift,
		.count = ucmd->rq_wqe_count,
	};
	int err;

	wq->uid = pl.uid;
	err = mlx5x_ubuf_get(dev, wq->uid, ucmd->buf_addr,
			     (size_t)ucmd->rq_wqe_count << ucmd->rq_wqe_shift,
			     IB_ACCESS_LOCAL_WRITE, &wq->buf);
	if (!err)
		err = mlx5x_ubuf_get(dev, wq->uid, ucmd->db_addr,
				     MLX5X_DBR_BYTES, IB_ACCESS_LOCAL_WRITE,
				     &wq->db);
	if (!err)
		err = mlx5x_rq_fw_create(dev, &pl, &wq->rqn);
	if (err) {
		mlx5x_ubuf_put(dev, &wq->db);
		mlx5x_ubuf_put(dev, &wq->buf);
	}
	return err;
}

struct ib_wq *mlx5x_create_wq(struct ib_pd *pd, struct ib_wq_init_attr *attr,
			      struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(pd->device);
	struct mlx5_ib_create_wq_resp resp = {};
	struct mlx5_ib_create_wq ucmd = {};
	struct mlx5x_rwq *wq;
	int err;

	/* no kernel consumer creates WQs */
	if (!udata)
		return ERR_PTR(-EOPNOTSUPP);
	if (udata->outlen && udata->outlen < sizeof(resp))
		return ERR_PTR(-EINVAL);
	if (attr->create_flags & IB_WQ_FLAGS_DELAY_DROP &&
	    !capable(CAP_SYS_RAWIO))
		return ERR_PTR(-EPERM);
	if (attr->wq_type != IB_WQT_RQ)
		return ERR_PTR(-EINVAL);
	err = mlx5x_wq_read_ucmd(udata, &ucmd);
	if (!err && attr->create_flags)
		err = -EOPNOTSUPP;
	if (!err)
		err = mlx5x_wq_check(dev, attr, &ucmd);
	if (err)
		return ERR_PTR(err);

	wq = kzalloc(sizeof(*wq), GFP_KERNEL);
	if (!wq)
		return ERR_PTR(-ENOMEM);
	err = mlx5x_wq_make(dev, wq, pd, attr, &ucmd);
	if (err)
		goto err_free;
	wq->ib.wq_num = wq->rqn;
	wq->ib.state = IB_WQS_RESET;
	wq->ib.event_handler = attr->event_handler;
	wq->ib.wq_context = attr->wq_context;
	/* its events find it by number (mlx5x_wq_event()) */
	err = xa_err(xa_store(&dev->wqs, wq->rqn, wq, GFP_KERNEL));
	if (err) {
		mlx5x_wq_unmake(dev, wq);
		goto err_free;
	}
	if (udata->outlen) {
		resp.response_length = offsetofend(typeof(resp),
						   response_length);
		err = ib_copy_to_udata(udata, &resp, resp.response_length);
		if (err)
			goto err_destroy;
	}
	return &wq->ib;

err_destroy:
	mlx5x_destroy_wq(&wq->ib, udata);
	return ERR_PTR(err);
err_free:
	kfree(wq);
	return ERR_PTR(err);
}

/*
 * libmlx5 sends struct mlx5_ib_modify_wq, all zero; ib_uverbs gives the
 * state the caller says the WQ is in (or the one it is in) and the one
 * it goes to, and firmware checks both: RESET->RDY, RDY->RDY, RDY->ERR,
 * RDY->RESET, ERR->RESET.  No flag can be changed (VLAN stripping and end
 * padding are not offered).
 */
int mlx5x_modify_wq(struct ib_wq *ibwq, struct ib_wq_attr *attr, u32 mask,
		    struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibwq->device);
	struct mlx5x_rwq *wq = to_mrwq(ibwq);
	struct mlx5_ib_modify_wq ucmd = {};
	int err;

	if (udata->inlen < sizeof(ucmd))
		return -EINVAL;
	if (udata->inlen > sizeof(ucmd) &&
	    !ib_is_udata_cleared(udata, sizeof(ucmd),
				 udata->inlen - sizeof(ucmd)))
		return -EOPNOTSUPP;
	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	if (ucmd.comp_mask || ucmd.reserved)
		return -EOPNOTSUPP;
	if (mask & IB_WQ_FLAGS && attr->flags_mask)
		return -EOPNOTSUPP;
	err = mlx5x_rq_fw_move(dev, wq->uid, wq->rqn,
			       mlx5x_wq_fw_state(attr->curr_wq_state),
			       mlx5x_wq_fw_state(attr->wq_state));
	if (!err)
		ibwq->state = attr->wq_state;
	return err;
}

int mlx5x_destroy_wq(struct ib_wq *ibwq, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibwq->device);
	struct mlx5x_rwq *wq = to_mrwq(ibwq);
	u32 rqn = wq->rqn;
	int err;

	/*
	 * No event reaches it once it is out of the table: one being
	 * delivered holds the model's lock, which the destroy command takes.
	 */
	xa_erase(&dev->wqs, rqn);
	err = mlx5x_wq_unmake(dev, wq);
	if (err) {
		xa_store(&dev->wqs, rqn, wq, GFP_KERNEL);
		return err;
	}
	kfree(wq);
	return 0;
}

/**
 * mlx5x_wq_event() - a WQ's asynchronous error to its handler
 * @dev: the device
 * @eqe: the model's event (any type: others are not this function's)
 *
 * Firmware raises the WQ catastrophic error event on an RQ that could not
 * report a completion (its CQ in error); the RQ is in ERR.  mlx5_ib
 * reports it as IB_EVENT_WQ_FATAL, and ib_uverbs' handler queues it for
 * ibv_get_async_event() on the WQ's own context.  The WQ is found by
 * number under the model's lock, which its destroy command takes: it is
 * not freed meanwhile.
 */
void mlx5x_wq_event(struct mlx5x_dev *dev, const void *eqe)
{
	const void *data = PRM_ADDR(eqe, eqe, event_data);
	struct ib_event ev = {
		.device = &dev->ib,
		.event = IB_EVENT_WQ_FATAL,
	};
	struct mlx5x_rwq *wq;

	if (PRM_GET(eqe, eqe, event_type) != MLX5_EVENT_TYPE_WQ_CATAS_ERROR ||
	    PRM_GET(qp_events, data, type) != MLX5_EVENT_QUEUE_TYPE_RQ)
		return;
	wq = xa_load(&dev->wqs, PRM_GET(qp_events, data, qpn_rqn_sqn));
	if (!wq || !wq->ib.event_handler || !wq->ib.uobject)
		return;
	ev.element.wq = &wq->ib;
	wq->ib.event_handler(&ev, wq->ib.wq_context);
}

/*
 * ib_uverbs looks each WQ up by the caller's handles, so a table lists
 * WQs of its own context only; firmware checks it again (each RQ must
 * be of the RQT's uid).
 */
int mlx5x_create_rwq_ind_table(struct ib_rwq_ind_table *ibtbl,
			       struct ib_rwq_ind_table_init_attr *attr,
			       struct ib_udata *udata)
{
	struct mlx5x_rwq_ind_table *tbl = to_mind_tbl(ibtbl);
	struct mlx5x_dev *dev = to_mdev(ibtbl->device);
	struct mlx5_ib_create_rwq_ind_tbl_resp resp = {};
	u32 out[PRM_BYTES(create_rqt_out) / 4] = {};
	u32 i, size = 1U << attr->log_ind_tbl_size;
	size_t inlen;
	void *in, *rqtc;
	int err;

	if (udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	if (attr->log_ind_tbl_size > MLX5X_CAP_GEN(dev, log_max_rqt_size))
		return -EINVAL;
	if (udata->outlen && udata->outlen < sizeof(resp))
		return -EINVAL;

	inlen = PRM_BYTES(create_rqt_in) + size * PRM_BYTES(rq_num);
	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	tbl->uid = to_mpd(attr->ind_tbl[0]->pd)->uid;
	rqtc = PRM_ADDR(create_rqt_in, in, rqt_context);
	PRM_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_CREATE_RQT);
	PRM_SET(create_rqt_in, in, uid, tbl->uid);
	PRM_SET(rqtc, rqtc, rqt_max_size, size);
	PRM_SET(rqtc, rqtc, rqt_actual_size, size);
	for (i = 0; i < size; i++)
		PRM_SET(rq_num, (u8 *)PRM_ADDR(rqtc, rqtc, rq_num) +
			i * PRM_BYTES(rq_num), rq_num,
			attr->ind_tbl[i]->wq_num);
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (err)
		return err;
	tbl->rqtn = PRM_GET(create_rqt_out, out, rqtn);
	ibtbl->ind_tbl_num = tbl->rqtn;
	if (udata->outlen) {
		resp.response_length = offsetofend(typeof(resp),
						   response_length);
		err = ib_copy_to_udata(udata, &resp, resp.response_length);
		if (err)
			mlx5x_fw_destroy(dev, tbl->uid, MLX5_CMD_OP_DESTROY_RQT,
					 &tbl->rqtn);
	}
	return err;
}

int mlx5x_destroy_rwq_ind_table(struct ib_rwq_ind_table *ibtbl)
{
	struct mlx5x_rwq_ind_table *tbl = to_mind_tbl(ibtbl);

	return mlx5x_fw_destroy(to_mdev(ibtbl->device), tbl->uid,
				MLX5_CMD_OP_DESTROY_RQT, &tbl->rqtn);
}
