// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DC queue pairs: mlx5dv_create_qp()'s IBV_QPT_DRIVER QPs of type DCI or
 * DCT (MLX5_QP_FLAG_TYPE_DCI, MLX5_QP_FLAG_TYPE_DCT in the create
 * command's flags).
 *
 * A DCI is a firmware QP of service type DCI over the buffer libmlx5
 * lays out (an SQ only), created, moved, queried and destroyed by
 * qp_rc.c's commands; its transitions take the attributes mlx5_ib lets
 * through for a DCI (no peer, no path: each WQE names its DCT).
 *
 * A DCT has no queue of its own: it receives through its SRQ into its
 * receive CQ.  As mlx5_ib, the driver keeps what create_qp and the move
 * to INIT give, and makes the firmware DCT (CREATE_DCT) at the move to
 * RTR, whose response carries the DCT number libmlx5 then calls the QP's
 * number.  Its destroy drains it (DRAIN_DCT) first.  A DCT knows RESET,
 * INIT and RTR only.
 */
#include <linux/mlx5/qp.h>
#include <rdma/mlx5-abi.h>
#include "verbs.h"

/**
 * struct mlx5x_dct - what a DC target's firmware object will be made of
 * @in: the CREATE_DCT mailbox, filled as the QP moves
 * @dctn: the firmware DCT, once made
 * @made: @dctn exists
 */
struct mlx5x_dct {
	u32 in[PRM_BYTES(create_dct_in) / 4];
	u32 dctn;
	bool made;
};

static void *mlx5x_dctc(struct mlx5x_dct *dct)
{
	return PRM_ADDR(create_dct_in, dct->in, dct_context_entry);
}

/*
 * A DCI's stream channels (mlx5dv_create_qp(3), dci_streams): where the
 * device has them, within its caps, which firmware checks again.
 */
static int mlx5x_dci_streams(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			     const struct ib_qp_init_attr *attr,
			     const struct mlx5_ib_create_qp *ucmd)
{
	if (!attr->send_cq)
		return -EINVAL;
	if (!(ucmd->flags & MLX5_QP_FLAG_DCI_STREAM))
		return 0;
	if (!MLX5X_CAP_GEN(dev, log_max_dci_stream_channels))
		return -EOPNOTSUPP;
	qp->dci_log_streams = ucmd->dci_streams.log_num_concurent;
	qp->dci_log_errored = ucmd->dci_streams.log_num_errored;
	return 0;
}

/**
 * mlx5x_dc_create() - the DC part of create_qp
 * @dev: the device
 * @qp: the QP, its user index set
 * @attr: the verbs attributes, of type IB_QPT_DRIVER
 * @ucmd: libmlx5's command
 *
 * Return: 0 for a DCI, which the caller goes on to create as an RC QP;
 * 1 for a DCT, now created; or a negative errno.
 */
int mlx5x_dc_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_init_attr *attr,
		    const struct mlx5_ib_create_qp *ucmd)
{
	u32 type = ucmd->flags & (MLX5_QP_FLAG_TYPE_DCI | MLX5_QP_FLAG_TYPE_DCT);
	struct mlx5x_dct *dct;
	void *dctc;

	if (!MLX5X_CAP_GEN(dev, dct))
		return -EOPNOTSUPP;
	if (type == MLX5_QP_FLAG_TYPE_DCI)
		return mlx5x_dci_streams(dev, qp, attr, ucmd);
	if (type != MLX5_QP_FLAG_TYPE_DCT)
		return -EINVAL;
	/* a DCT receives through an SRQ into its CQ, and sends nothing */
	if (!attr->srq || !attr->recv_cq)
		return -EINVAL;
	if (ucmd->flags & ~(MLX5_QP_FLAG_TYPE_DCT | MLX5_QP_FLAG_SCATTER_CQE))
		return -EOPNOTSUPP;
	if (ucmd->sq_wqe_count || ucmd->rq_wqe_count)
		return -EINVAL;
	dct = kzalloc(sizeof(*dct), GFP_KERNEL);
	if (!dct)
		return -ENOMEM;
	qp->uid = to_mpd(qp->ib.pd)->uid;
	PRM_SET(create_dct_in, dct->in, opcode, MLX5_CMD_OP_CREATE_DCT);
	PRM_SET(create_dct_in, dct->in, uid, qp->uid);
	dctc = mlx5x_dctc(dct);
	PRM_SET(dctc, dctc, pd, to_mpd(qp->ib.pd)->pdn);
	PRM_SET(dctc, dctc, srqn_xrqn, to_msrq(attr->srq)->srqn);
	PRM_SET(dctc, dctc, cqn, to_mcq(attr->recv_cq)->cqn);
	PRM_SET64(dctc, dctc, dc_access_key, ucmd->access_key);
	PRM_SET(dctc, dctc, user_index, qp->user_index);
	qp->dct = dct;
	return 1;
}

static int mlx5x_dct_fw_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	u32 in[PRM_BYTES(drain_dct_in) / 4] = {};
	u32 out[PRM_BYTES(drain_dct_out) / 4] = {};
	u32 din[PRM_BYTES(destroy_dct_in) / 4] = {};
	u32 dout[PRM_BYTES(destroy_dct_out) / 4] = {};
	int err;

	BUILD_BUG_ON(sizeof(out) != sizeof(dout));
	PRM_SET(drain_dct_in, in, opcode, MLX5_CMD_OP_DRAIN_DCT);
	PRM_SET(drain_dct_in, in, uid, qp->uid);
	PRM_SET(drain_dct_in, in, dctn, qp->dct->dctn);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	/* drained already: an earlier destroy drained it, then failed */
	if (err && err != -EBUSY && err != -EINVAL)
		return err;
	PRM_SET(destroy_dct_in, din, opcode, MLX5_CMD_OP_DESTROY_DCT);
	PRM_SET(destroy_dct_in, din, uid, qp->uid);
	PRM_SET(destroy_dct_in, din, dctn, qp->dct->dctn);
	return mlx5x_cmd_run(dev, din, sizeof(din), dout, sizeof(dout));
}

/**
 * mlx5x_dct_destroy() - destroy a DC target
 * @dev: the device
 * @qp: the QP
 *
 * Return: 0 or a negative errno (firmware refused: retried later).
 */
int mlx5x_dct_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	int err;

	if (qp->dct->made) {
		err = mlx5x_dct_fw_destroy(dev, qp);
		if (err)
			return err;
	}
	kfree(qp->dct);
	qp->dct = NULL;
	return 0;
}

/* Whether @mask holds all of @req and nothing beyond @req and @opt. */
static bool mlx5x_dc_mask_ok(int mask, int req, int opt)
{
	return (mask & req) == req && !(mask & ~(req | opt));
}

/* The attributes mlx5_ib lets through for each move of a DCI. */
static bool mlx5x_dci_move_ok(enum ib_qp_state cur, enum ib_qp_state next,
			      int mask)
{
	int req = IB_QP_STATE;

	if (next == IB_QPS_RESET || (cur != IB_QPS_RESET && next == IB_QPS_ERR))
		return mlx5x_dc_mask_ok(mask, req, 0);
	if (cur == IB_QPS_RESET && next == IB_QPS_INIT)
		return mlx5x_dc_mask_ok(mask, req | IB_QP_PKEY_INDEX |
					IB_QP_PORT, 0);
	if (cur == IB_QPS_INIT && next == IB_QPS_INIT)
		return mlx5x_dc_mask_ok(mask, req,
					IB_QP_PKEY_INDEX | IB_QP_PORT);
	if (cur == IB_QPS_INIT && next == IB_QPS_RTR)
		return mlx5x_dc_mask_ok(mask, req | IB_QP_PATH_MTU,
					IB_QP_PKEY_INDEX | IB_QP_AV);
	if (cur == IB_QPS_RTR && next == IB_QPS_RTS)
		return mlx5x_dc_mask_ok(mask, req | IB_QP_TIMEOUT |
					IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
					IB_QP_MAX_QP_RD_ATOMIC | IB_QP_SQ_PSN,
					IB_QP_MIN_RNR_TIMER);
	if (cur == IB_QPS_RTS && next == IB_QPS_RTS)
		return mlx5x_dc_mask_ok(mask, req, IB_QP_MIN_RNR_TIMER);
	return false;
}

/* RESET to INIT: the access rights, port and P_Key index. */
static int mlx5x_dct_init(struct mlx5x_qp *qp, const struct ib_qp_attr *attr,
			  int mask)
{
	void *dctc = mlx5x_dctc(qp->dct);
	int acc = attr->qp_access_flags;

	if (!mlx5x_dc_mask_ok(mask, IB_QP_STATE | IB_QP_ACCESS_FLAGS |
			      IB_QP_PKEY_INDEX | IB_QP_PORT, 0))
		return -EINVAL;
	PRM_SET(dctc, dctc, rre, !!(acc & IB_ACCESS_REMOTE_READ));
	PRM_SET(dctc, dctc, rwe, !!(acc & IB_ACCESS_REMOTE_WRITE));
	PRM_SET(dctc, dctc, rae, !!(acc & IB_ACCESS_REMOTE_ATOMIC));
	PRM_SET(dctc, dctc, pkey_index, attr->pkey_index);
	PRM_SET(dctc, dctc, port, attr->port_num);
	return 0;
}

/* INIT to RTR: the firmware DCT is made; its number is the response. */
static int mlx5x_dct_rtr(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			 const struct ib_qp_attr *attr, int mask,
			 struct ib_udata *udata)
{
	size_t min_len = offsetofend(struct mlx5_ib_modify_qp_resp, dctn);
	u32 out[PRM_BYTES(create_dct_out) / 4] = {};
	struct mlx5_ib_modify_qp_resp resp = {};
	struct mlx5x_dct *dct = qp->dct;
	void *dctc = mlx5x_dctc(dct);
	const struct ib_global_route *grh;
	int err;

	if (!udata || udata->outlen < min_len)
		return -EINVAL;
	if (!mlx5x_dc_mask_ok(mask, IB_QP_STATE | IB_QP_MIN_RNR_TIMER |
			      IB_QP_AV | IB_QP_PATH_MTU, 0))
		return -EINVAL;
	if (attr->min_rnr_timer > 31 || attr->path_mtu < IB_MTU_256 ||
	    attr->path_mtu > IB_MTU_4096)
		return -EINVAL;
	grh = rdma_ah_read_grh(&attr->ah_attr);
	PRM_SET(dctc, dctc, min_rnr_nak, attr->min_rnr_timer);
	PRM_SET(dctc, dctc, mtu, attr->path_mtu);
	PRM_SET(dctc, dctc, tclass, grh->traffic_class);
	PRM_SET(dctc, dctc, flow_label, grh->flow_label);
	PRM_SET(dctc, dctc, my_addr_index, grh->sgid_index);
	PRM_SET(dctc, dctc, hop_limit, grh->hop_limit);
	PRM_SET(dctc, dctc, eth_prio, rdma_ah_get_sl(&attr->ah_attr) & 7);
	err = mlx5x_cmd_run(dev, dct->in, sizeof(dct->in), out, sizeof(out));
	if (err)
		return err;
	dct->dctn = PRM_GET(create_dct_out, out, dctn);
	dct->made = true;
	resp.dctn = dct->dctn;
	resp.response_length = min(udata->outlen, sizeof(resp));
	err = ib_copy_to_udata(udata, &resp, resp.response_length);
	if (err) {
		mlx5x_dct_fw_destroy(dev, qp);
		dct->made = false;
		return err;
	}
	qp->qpn = dct->dctn;
	qp->ib.qp_num = dct->dctn;
	return 0;
}

/**
 * mlx5x_dc_modify() - move a DCI or a DCT
 * @dev: the device
 * @qp: the QP
 * @attr: the verbs attributes
 * @mask: which of them are given
 * @udata: libmlx5's command and response (a DCT's number, at RTR)
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_dc_modify(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_attr *attr, int mask, struct ib_udata *udata)
{
	enum ib_qp_state cur = qp->state, next;
	int err;

	if (!(mask & IB_QP_STATE))
		return -EINVAL;
	if (mask & IB_QP_CUR_STATE && attr->cur_qp_state != cur)
		return -EINVAL;
	mask &= ~IB_QP_CUR_STATE;
	next = attr->qp_state;
	if (mask & IB_QP_PORT && attr->port_num != MLX5X_PORT)
		return -EINVAL;
	if (mask & IB_QP_PKEY_INDEX && attr->pkey_index)
		return -EINVAL;
	if (qp->dct) {
		if (cur == IB_QPS_RESET && next == IB_QPS_INIT)
			err = mlx5x_dct_init(qp, attr, mask);
		else if (cur == IB_QPS_INIT && next == IB_QPS_RTR)
			err = mlx5x_dct_rtr(dev, qp, attr, mask, udata);
		else
			err = -EINVAL;
	} else if (!mlx5x_dci_move_ok(cur, next, mask)) {
		err = -EINVAL;
	} else {
		err = mlx5x_rc_modify(dev, qp, attr, mask, cur, next);
	}
	if (!err)
		qp->state = next;
	return err;
}

/**
 * mlx5x_dct_query() - a DCT's attributes, as firmware reports them once
 * it is made
 * @dev: the device
 * @qp: the QP
 * @attr: filled in
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_dct_query(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_attr *attr)
{
	u32 in[PRM_BYTES(query_dct_in) / 4] = {};
	void *out, *dctc = mlx5x_dctc(qp->dct);
	int err = 0;

	out = kzalloc(PRM_BYTES(query_dct_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	if (qp->dct->made) {
		PRM_SET(query_dct_in, in, opcode, MLX5_CMD_OP_QUERY_DCT);
		prm_in_set_uid(in, qp->uid);
		PRM_SET(query_dct_in, in, dctn, qp->dct->dctn);
		err = mlx5x_cmd_run(dev, in, sizeof(in), out,
				    PRM_BYTES(query_dct_out));
		if (err)
			goto out;
		dctc = PRM_ADDR(query_dct_out, out, dct_context_entry);
	}
	attr->qp_access_flags =
		(PRM_GET(dctc, dctc, rre) ? IB_ACCESS_REMOTE_READ : 0) |
		(PRM_GET(dctc, dctc, rwe) ? IB_ACCESS_REMOTE_WRITE : 0) |
		(PRM_GET(dctc, dctc, rae) ? IB_ACCESS_REMOTE_ATOMIC : 0);
	attr->min_rnr_timer = PRM_GET(dctc, dctc, min_rnr_nak);
	attr->path_mtu = PRM_GET(dctc, dctc, mtu);
	attr->pkey_index = PRM_GET(dctc, dctc, pkey_index);
out:
	kfree(out);
	return err;
}
