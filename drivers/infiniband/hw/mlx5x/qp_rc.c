// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC and UC queue pairs: one firmware QP over the buffer libmlx5 lays out
 * (RQ then SQ), walked through the PRM's transition commands.  Each
 * transition starts from the context firmware reports (QUERY_QP) and
 * applies the attributes given, so what a transition does not carry
 * keeps its value.  The path is RoCE: a GRH and a destination MAC.
 */
#include <linux/etherdevice.h>
#include <linux/log2.h>
#include <linux/mlx5/qp.h>
#include "kverbs.h"

struct mlx5x_rc_move {
	enum ib_qp_state cur;
	enum ib_qp_state next;
	u16 opcode;
	u16 inlen;
	bool qpc;		/* carries a QP context */
};

#define MLX5X_ANY_STATE	((enum ib_qp_state)-1)
#define MLX5X_RC_MOVE(c, n, op, typ, ctx) {				\
	.cur = (c), .next = (n), .opcode = MLX5_CMD_OP_##op,		\
	.inlen = PRM_BYTES(typ##_in), .qpc = (ctx) }

static const struct mlx5x_rc_move mlx5x_rc_moves[] = {
	MLX5X_RC_MOVE(IB_QPS_RESET, IB_QPS_INIT, RST2INIT_QP, rst2init_qp,
		      true),
	MLX5X_RC_MOVE(IB_QPS_INIT, IB_QPS_INIT, INIT2INIT_QP, init2init_qp,
		      true),
	MLX5X_RC_MOVE(IB_QPS_INIT, IB_QPS_RTR, INIT2RTR_QP, init2rtr_qp,
		      true),
	MLX5X_RC_MOVE(IB_QPS_RTR, IB_QPS_RTS, RTR2RTS_QP, rtr2rts_qp, true),
	MLX5X_RC_MOVE(IB_QPS_RTS, IB_QPS_RTS, RTS2RTS_QP, rts2rts_qp, true),
	MLX5X_RC_MOVE(IB_QPS_SQE, IB_QPS_RTS, SQERR2RTS_QP, sqerr2rts_qp,
		      true),
	/* a send queue the device drained on a signature error */
	MLX5X_RC_MOVE(IB_QPS_SQD, IB_QPS_RTS, SQD_RTS_QP, sqd2rts_qp, true),
	MLX5X_RC_MOVE(MLX5X_ANY_STATE, IB_QPS_ERR, 2ERR_QP, qp_2err, false),
	MLX5X_RC_MOVE(MLX5X_ANY_STATE, IB_QPS_RESET, 2RST_QP, qp_2rst, false),
};

static const struct mlx5x_rc_move *mlx5x_rc_move_of(enum ib_qp_state cur,
						    enum ib_qp_state next)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5x_rc_moves); i++)
		if (mlx5x_rc_moves[i].next == next &&
		    (mlx5x_rc_moves[i].cur == cur ||
		     mlx5x_rc_moves[i].cur == MLX5X_ANY_STATE))
			return &mlx5x_rc_moves[i];
	return NULL;
}

static int mlx5x_rc_fw_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	u32 in[PRM_BYTES(destroy_qp_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_qp_out) / 4] = {};

	PRM_SET(destroy_qp_in, in, opcode, MLX5_CMD_OP_DESTROY_QP);
	PRM_SET(destroy_qp_in, in, uid, qp->uid);
	PRM_SET(destroy_qp_in, in, qpn, qp->qpn);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * mlx5x_rc_create() - create the firmware QP of an RC QP
 * @dev: the device
 * @qp: the QP; its sizes, buffers and doorbell record already set
 * @attr: the verbs attributes (PD, CQs)
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_rc_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_init_attr *attr)
{
	u32 out[PRM_BYTES(create_qp_out) / 4] = {};
	void *in, *qpc;
	int err;

	in = kzalloc(PRM_BYTES(create_qp_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	PRM_SET(create_qp_in, in, uid, qp->uid);
	PRM_SET(create_qp_in, in, wq_umem_valid, 1);
	prm_set_bits(in, MLX5X_CREATE_QP_UMEM_ID, 32,
		     qp->k ? qp->k->buf.id : qp->buf.id);
	PRM_SET(qpc, qpc, st, mlx5x_qp_st(attr->qp_type));
	PRM_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	PRM_SET(qpc, qpc, pd, to_mpd(qp->ib.pd)->pdn);
	PRM_SET(qpc, qpc, uar_page, qp->uar_index);
	PRM_SET(qpc, qpc, user_index, qp->user_index);
	PRM_SET(qpc, qpc, log_page_size, PAGE_SHIFT - 12);
	PRM_SET(qpc, qpc, cqn_snd, to_mcq(attr->send_cq)->cqn);
	PRM_SET(qpc, qpc, log_num_dci_stream_channels, qp->dci_log_streams);
	PRM_SET(qpc, qpc, log_num_dci_errored_streams, qp->dci_log_errored);
	/* an XRC initiator has none: its send CQ stands in, never written */
	PRM_SET(qpc, qpc, cqn_rcv,
		to_mcq(attr->recv_cq ?: attr->send_cq)->cqn);
	if (qp->create_flags & IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK)
		PRM_SET(qpc, qpc, block_lb_mc, 1);
	if (qp->sq_wqe_cnt)
		PRM_SET(qpc, qpc, log_sq_size, ilog2(qp->sq_wqe_cnt));
	else
		PRM_SET(qpc, qpc, no_sq, 1);
	if (attr->srq) {
		PRM_SET(qpc, qpc, rq_type, MLX5_SRQ_RQ);
		PRM_SET(qpc, qpc, srqn_rmpn_xrqn, to_msrq(attr->srq)->srqn);
	} else if (qp->rq_wqe_cnt) {
		PRM_SET(qpc, qpc, rq_type, MLX5_NON_ZERO_RQ);
		PRM_SET(qpc, qpc, log_rq_size, ilog2(qp->rq_wqe_cnt));
		PRM_SET(qpc, qpc, log_rq_stride, qp->rq_wqe_shift - 4);
	} else {
		PRM_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
	}
	PRM_SET(qpc, qpc, dbr_umem_valid, 1);
	if (qp->k) {
		/* a kernel QP's: rings and record in one buffer (kqp.c) */
		prm_set_bits(qpc, MLX5X_QPC_DBR_UMEM_ID, 32, qp->k->buf.id);
		PRM_SET64(qpc, qpc, dbr_addr,
			  (u8 *)qp->k->dbr - (u8 *)qp->k->buf.va);
		PRM_SET(qpc, qpc, rlky, 1);
	} else {
		prm_set_bits(qpc, MLX5X_QPC_DBR_UMEM_ID, 32, qp->db.id);
	}
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_qp_in), out,
			    sizeof(out));
	kfree(in);
	if (err)
		return err;
	qp->qpn = PRM_GET(create_qp_out, out, qpn);
	qp->ib.qp_num = qp->qpn;
	/* its events find it by number (mlx5x_srq_event()) */
	err = xa_err(xa_store(&dev->qps, qp->qpn, qp, GFP_KERNEL));
	if (err)
		mlx5x_rc_fw_destroy(dev, qp);
	return err;
}

/**
 * mlx5x_rc_destroy() - destroy the firmware QP of an RC QP
 * @dev: the device
 * @qp: the QP
 *
 * Return: 0 or a negative errno (firmware refused: retried later).
 */
int mlx5x_rc_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	int err;

	/* no event reaches it once it is out of the table */
	xa_erase(&dev->qps, qp->qpn);
	err = mlx5x_rc_fw_destroy(dev, qp);
	if (err)
		xa_store(&dev->qps, qp->qpn, qp, GFP_KERNEL);
	return err;
}

static int mlx5x_rc_fw_query(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			     void *out)
{
	u32 in[PRM_BYTES(query_qp_in) / 4] = {};

	PRM_SET(query_qp_in, in, opcode, MLX5_CMD_OP_QUERY_QP);
	prm_in_set_uid(in, qp->uid);
	PRM_SET(query_qp_in, in, qpn, qp->qpn);
	return mlx5x_cmd_run(dev, in, sizeof(in), out,
			     PRM_BYTES(query_qp_out));
}

/* log2 of a count of outstanding RDMA reads/atomics, within the cap. */
static int mlx5x_rc_log_ra(u8 n, u32 log_max, u32 *log)
{
	*log = n ? order_base_2(n) : 0;
	return *log > log_max ? -EINVAL : 0;
}

static int mlx5x_rc_set_av(struct mlx5x_qp *qp, const struct ib_qp_attr *attr,
			   void *path)
{
	const struct rdma_ah_attr *ah = &attr->ah_attr;
	const struct ib_global_route *grh;
	u32 fl;

	if (ah->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(ah) & IB_AH_GRH))
		return -EINVAL;
	if (rdma_ah_get_port_num(ah) != MLX5X_PORT ||
	    is_zero_ether_addr(ah->roce.dmac))
		return -EINVAL;
	grh = rdma_ah_read_grh(ah);
	PRM_SET(ads, path, rmac_47_32, get_unaligned_be16(ah->roce.dmac));
	PRM_SET(ads, path, rmac_31_0, get_unaligned_be32(ah->roce.dmac + 2));
	memcpy(PRM_ADDR(ads, path, rgid_rip), grh->dgid.raw, 16);
	PRM_SET(ads, path, src_addr_index, grh->sgid_index);
	PRM_SET(ads, path, hop_limit, grh->hop_limit);
	PRM_SET(ads, path, tclass, grh->traffic_class);
	PRM_SET(ads, path, dscp, grh->traffic_class >> 2);
	PRM_SET(ads, path, flow_label, grh->flow_label);
	PRM_SET(ads, path, eth_prio, rdma_ah_get_sl(ah) & 7);
	fl = grh->flow_label;
	if (!fl)
		fl = rdma_calc_flow_label(qp->qpn, attr->dest_qp_num);
	PRM_SET(ads, path, udp_sport, rdma_flow_label_to_udp_sport(fl));
	return 0;
}

/* The attributes the mask gives, written over the current context. */
static int mlx5x_rc_apply(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			  const struct ib_qp_attr *attr, int mask, void *qpc)
{
	void *path = PRM_ADDR(qpc, qpc, primary_address_path);
	u32 log;
	int err;

	PRM_SET(ads, path, vhca_port_num, MLX5X_PORT);
	if (mask & IB_QP_PKEY_INDEX)
		PRM_SET(ads, path, pkey_index, attr->pkey_index);
	if (mask & IB_QP_ACCESS_FLAGS) {
		PRM_SET(qpc, qpc, rre,
			!!(attr->qp_access_flags & IB_ACCESS_REMOTE_READ));
		PRM_SET(qpc, qpc, rwe,
			!!(attr->qp_access_flags & IB_ACCESS_REMOTE_WRITE));
		PRM_SET(qpc, qpc, rae,
			!!(attr->qp_access_flags & IB_ACCESS_REMOTE_ATOMIC));
	}
	if (mask & IB_QP_PATH_MTU) {
		if (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096)
			return -EINVAL;
		PRM_SET(qpc, qpc, mtu, attr->path_mtu);
		PRM_SET(qpc, qpc, log_msg_max,
			MLX5X_CAP_GEN(dev, log_max_msg));
	}
	if (mask & IB_QP_DEST_QPN) {
		if (attr->dest_qp_num & ~MLX5X_QPN_MASK)
			return -EINVAL;
		PRM_SET(qpc, qpc, remote_qpn, attr->dest_qp_num);
	}
	if (mask & IB_QP_AV) {
		err = mlx5x_rc_set_av(qp, attr, path);
		if (err)
			return err;
	}
	if (mask & IB_QP_RQ_PSN) {
		if (attr->rq_psn & ~MLX5X_QPN_MASK)
			return -EINVAL;
		PRM_SET(qpc, qpc, next_rcv_psn, attr->rq_psn);
	}
	if (mask & IB_QP_SQ_PSN) {
		if (attr->sq_psn & ~MLX5X_QPN_MASK)
			return -EINVAL;
		PRM_SET(qpc, qpc, next_send_psn, attr->sq_psn);
	}
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC) {
		err = mlx5x_rc_log_ra(attr->max_dest_rd_atomic,
				      MLX5X_CAP_GEN(dev, log_max_ra_res_qp),
				      &log);
		if (err)
			return err;
		PRM_SET(qpc, qpc, log_rra_max, log);
	}
	if (mask & IB_QP_MAX_QP_RD_ATOMIC) {
		err = mlx5x_rc_log_ra(attr->max_rd_atomic,
				      MLX5X_CAP_GEN(dev, log_max_ra_req_qp),
				      &log);
		if (err)
			return err;
		PRM_SET(qpc, qpc, log_sra_max, log);
	}
	if (mask & IB_QP_MIN_RNR_TIMER) {
		if (attr->min_rnr_timer > 31)
			return -EINVAL;
		PRM_SET(qpc, qpc, min_rnr_nak, attr->min_rnr_timer);
	}
	if (mask & IB_QP_TIMEOUT) {
		if (attr->timeout > 31)
			return -EINVAL;
		PRM_SET(ads, path, ack_timeout, attr->timeout);
	}
	if (mask & IB_QP_RETRY_CNT) {
		if (attr->retry_cnt > 7)
			return -EINVAL;
		PRM_SET(qpc, qpc, retry_count, attr->retry_cnt);
	}
	if (mask & IB_QP_RNR_RETRY) {
		if (attr->rnr_retry > 7)
			return -EINVAL;
		PRM_SET(qpc, qpc, rnr_retry, attr->rnr_retry);
	}
	if (qp->ib.qp_type == IB_QPT_UD || qp->ib.qp_type == IB_QPT_GSI)
		mlx5x_ud_apply(attr, mask, qpc);
	return 0;
}

/*
 * What a move into RTS from RTS, SQE or SQD changes, in its optional
 * parameter mask: firmware takes nothing else of the context it carries.
 */
static u32 mlx5x_rc_opt(const struct mlx5x_rc_move *mv, int mask)
{
	u32 opt = 0;

	if (mv->next != IB_QPS_RTS || mv->cur == IB_QPS_RTR)
		return 0;
	if (mask & IB_QP_ACCESS_FLAGS)
		opt |= MLX5_QP_OPTPAR_RRE | MLX5_QP_OPTPAR_RAE |
		       MLX5_QP_OPTPAR_RWE;
	if (mask & IB_QP_MIN_RNR_TIMER)
		opt |= MLX5_QP_OPTPAR_RNR_TIMEOUT;
	if (mask & IB_QP_TIMEOUT)
		opt |= MLX5_QP_OPTPAR_ACK_TIMEOUT;
	if (mask & IB_QP_QKEY)
		opt |= MLX5_QP_OPTPAR_Q_KEY;
	return opt;
}

/*
 * Run transition @mv on @qp with @attr's @mask applied to the context
 * firmware reports; @counter nonzero: an RTS2RTS that moves the QP to
 * that Q counter set.
 */
static int mlx5x_rc_run(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			const struct mlx5x_rc_move *mv,
			const struct ib_qp_attr *attr, int mask, u32 counter)
{
	void *in, *qpc, *out;
	size_t outlen = max(PRM_BYTES(query_qp_out),
			    PRM_BYTES(init2rtr_qp_out));
	u32 opt;
	int err;

	in = kzalloc(PRM_BYTES(init2rtr_qp_in), GFP_KERNEL);
	out = kzalloc(outlen, GFP_KERNEL);
	if (!in || !out) {
		err = -ENOMEM;
		goto out;
	}
	qpc = PRM_ADDR(rst2init_qp_in, in, qpc);
	if (mv->qpc) {
		err = mlx5x_rc_fw_query(dev, qp, out);
		if (err)
			goto out;
		memcpy(qpc, PRM_ADDR(query_qp_out, out, qpc), PRM_BYTES(qpc));
		err = mlx5x_rc_apply(dev, qp, attr, mask, qpc);
		if (err)
			goto out;
		/* the port's set, as mlx5_ib's default, or its counter's */
		if (mv->cur == IB_QPS_RESET)
			PRM_SET(qpc, qpc, counter_set_id,
				mlx5x_qp_counter_id(dev, qp));
		memset(out, 0, outlen);
	}
	opt = mlx5x_rc_opt(mv, mask);
	if (counter) {
		PRM_SET(qpc, qpc, counter_set_id, counter);
		opt |= MLX5_QP_OPTPAR_COUNTER_SET_ID;
	}
	/* the same field of the SQERR2RTS and SQD_RTS mailboxes */
	PRM_SET(rts2rts_qp_in, in, opt_param_mask, opt);
	PRM_SET(rst2init_qp_in, in, opcode, mv->opcode);
	PRM_SET(rst2init_qp_in, in, uid, qp->uid);
	PRM_SET(rst2init_qp_in, in, qpn, qp->qpn);
	err = mlx5x_cmd_run(dev, in, mv->inlen, out, outlen);
out:
	kfree(out);
	kfree(in);
	return err;
}

/**
 * mlx5x_rc_modify() - move an RC QP from one state to another
 * @dev: the device
 * @qp: the QP
 * @attr: the verbs attributes
 * @mask: which of them are given (checked by ib_modify_qp_is_ok())
 * @cur: its state
 * @next: the state asked for
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_rc_modify(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    const struct ib_qp_attr *attr, int mask,
		    enum ib_qp_state cur, enum ib_qp_state next)
{
	const struct mlx5x_rc_move *mv = mlx5x_rc_move_of(cur, next);

	/* no command for it (to SQD: none in mlx5_ib either) */
	if (!mv)
		return -EINVAL;
	return mlx5x_rc_run(dev, qp, mv, attr, mask, 0);
}

/**
 * mlx5x_rc_move_counter() - move a QP in RTS to another Q counter set
 * @dev: the device
 * @qp: the QP
 * @id: the set (qp_counter.c)
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_rc_move_counter(struct mlx5x_dev *dev, struct mlx5x_qp *qp, u32 id)
{
	static const struct ib_qp_attr none;

	return mlx5x_rc_run(dev, qp, mlx5x_rc_move_of(IB_QPS_RTS, IB_QPS_RTS),
			    &none, 0, id);
}

static const enum ib_qp_state mlx5x_rc_states[] = {
	[MLX5_QPC_STATE_RST] = IB_QPS_RESET,
	[MLX5_QPC_STATE_INIT] = IB_QPS_INIT,
	[MLX5_QPC_STATE_RTR] = IB_QPS_RTR,
	[MLX5_QPC_STATE_RTS] = IB_QPS_RTS,
	[MLX5_QPC_STATE_SQER] = IB_QPS_SQE,
	[MLX5_QPC_STATE_SQD] = IB_QPS_SQD,
	[5] = IB_QPS_SQD,	/* SQ drained (signature pipelining) */
	[MLX5_QPC_STATE_ERR] = IB_QPS_ERR,
};

/*
 * The address vector a connected QP's path holds, once one was given, as
 * mlx5x_rc_set_av() wrote it: what ibv_query_qp() gives back, and a
 * caller may give again to a transition (rdma-core's tests restate QPs
 * so).
 */
static void mlx5x_rc_query_av(const void *path, struct rdma_ah_attr *ah)
{
	u8 dgid[16];

	memcpy(dgid, PRM_ADDR(ads, path, rgid_rip), sizeof(dgid));
	if (!memchr_inv(dgid, 0, sizeof(dgid)))
		return;
	ah->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(ah, MLX5X_PORT);
	rdma_ah_set_sl(ah, PRM_GET(ads, path, eth_prio));
	rdma_ah_set_grh(ah, NULL, PRM_GET(ads, path, flow_label),
			PRM_GET(ads, path, src_addr_index),
			PRM_GET(ads, path, hop_limit),
			PRM_GET(ads, path, tclass));
	rdma_ah_set_dgid_raw(ah, dgid);
	put_unaligned_be16(PRM_GET(ads, path, rmac_47_32), ah->roce.dmac);
	put_unaligned_be32(PRM_GET(ads, path, rmac_31_0), ah->roce.dmac + 2);
}

/**
 * mlx5x_rc_query() - an RC QP's attributes as firmware reports them
 * @dev: the device
 * @qp: the QP
 * @attr: filled in
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_rc_query(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		   struct ib_qp_attr *attr)
{
	void *out, *qpc, *path;
	u32 state;
	int err;

	out = kzalloc(PRM_BYTES(query_qp_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	err = mlx5x_rc_fw_query(dev, qp, out);
	if (err)
		goto out;
	qpc = PRM_ADDR(query_qp_out, out, qpc);
	path = PRM_ADDR(qpc, qpc, primary_address_path);
	state = PRM_GET(qpc, qpc, state);
	if (state >= ARRAY_SIZE(mlx5x_rc_states)) {
		err = -EIO;
		goto out;
	}
	attr->qp_state = mlx5x_rc_states[state];
	attr->path_mtu = PRM_GET(qpc, qpc, mtu);
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->dest_qp_num = PRM_GET(qpc, qpc, remote_qpn);
	attr->rq_psn = PRM_GET(qpc, qpc, next_rcv_psn);
	attr->sq_psn = PRM_GET(qpc, qpc, next_send_psn);
	attr->qp_access_flags =
		(PRM_GET(qpc, qpc, rre) ? IB_ACCESS_REMOTE_READ : 0) |
		(PRM_GET(qpc, qpc, rwe) ? IB_ACCESS_REMOTE_WRITE : 0) |
		(PRM_GET(qpc, qpc, rae) ? IB_ACCESS_REMOTE_ATOMIC : 0);
	attr->pkey_index = PRM_GET(ads, path, pkey_index);
	attr->max_rd_atomic = 1 << PRM_GET(qpc, qpc, log_sra_max);
	attr->max_dest_rd_atomic = 1 << PRM_GET(qpc, qpc, log_rra_max);
	attr->min_rnr_timer = PRM_GET(qpc, qpc, min_rnr_nak);
	attr->timeout = PRM_GET(ads, path, ack_timeout);
	attr->retry_cnt = PRM_GET(qpc, qpc, retry_count);
	attr->rnr_retry = PRM_GET(qpc, qpc, rnr_retry);
	attr->qkey = PRM_GET(qpc, qpc, q_key);
	mlx5x_rc_query_av(path, &attr->ah_attr);
out:
	kfree(out);
	return err;
}
