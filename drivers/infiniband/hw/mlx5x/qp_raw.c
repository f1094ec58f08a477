// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RAW_PACKET queue pairs, as upstream mlx5 builds them: an SQ sending
 * through a TIS of the context's transport domain, an RQ, and a direct
 * TIR delivering to that RQ (what flow steering forwards to: see
 * mlx5x_qp_tirn()).  The QP's state moves the RQ and SQ:
 *
 *   RESET->INIT   RQ RST->RDY        any->ERR   RQ and SQ ->ERR
 *   RTR->RTS      SQ RST->RDY        any->RESET RQ and SQ ->RST
 *
 * and INIT->INIT, INIT->RTR, RTS->RTS change nothing in firmware.
 */
#include <linux/log2.h>
#include <rdma/mlx5-abi.h>
#include "verbs.h"

static int mlx5x_raw_tis_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
				u32 tdn)
{
	u32 in[PRM_BYTES(create_tis_in) / 4] = {};
	u32 out[PRM_BYTES(create_tis_out) / 4] = {};
	void *tisc = PRM_ADDR(create_tis_in, in, ctx);
	int err;

	PRM_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	PRM_SET(create_tis_in, in, uid, qp->uid);
	PRM_SET(tisc, tisc, transport_domain, tdn);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		qp->raw.tisn = PRM_GET(create_tis_out, out, tisn);
	return err;
}

/* The work queue of an RQ or SQ over its buffer and the doorbell record. */
static void mlx5x_raw_wq(void *wq, u32 pdn, const struct mlx5x_ubuf *buf,
			 const struct mlx5x_ubuf *db, u32 log_stride,
			 u32 count)
{
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	PRM_SET(wq, wq, pd, pdn);
	PRM_SET(wq, wq, log_wq_stride, log_stride);
	PRM_SET(wq, wq, log_wq_sz, ilog2(count));
	PRM_SET(wq, wq, log_wq_pg_sz, PAGE_SHIFT - 12);
	PRM_SET(wq, wq, wq_umem_valid, 1);
	prm_set_bits(wq, MLX5X_WQ_UMEM_ID, 32, buf->id);
	PRM_SET(wq, wq, dbr_umem_valid, 1);
	prm_set_bits(wq, MLX5X_WQ_DBR_UMEM_ID, 32, db->id);
}

static int mlx5x_raw_sq_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			       u32 cqn)
{
	u32 out[PRM_BYTES(create_sq_out) / 4] = {};
	void *in, *sqc, *wq;
	int err;

	in = kzalloc(PRM_BYTES(create_sq_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	sqc = PRM_ADDR(create_sq_in, in, ctx);
	wq = PRM_ADDR(sqc, sqc, wq);
	PRM_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	PRM_SET(create_sq_in, in, uid, qp->uid);
	PRM_SET(sqc, sqc, flush_in_error_en, 1);
	PRM_SET(sqc, sqc, state, MLX5_SQC_STATE_RST);
	PRM_SET(sqc, sqc, user_index, qp->user_index);
	PRM_SET(sqc, sqc, cqn, cqn);
	PRM_SET(sqc, sqc, tis_lst_sz, 1);
	PRM_SET(sqc, sqc, tis_num_0, qp->raw.tisn);
	mlx5x_raw_wq(wq, to_mpd(qp->ib.pd)->pdn, &qp->raw.sq_buf, &qp->db,
		     ilog2(MLX5X_SEND_WQE_BB), qp->sq_wqe_cnt);
	PRM_SET(wq, wq, uar_page, qp->uar_index);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_sq_in), out,
			    sizeof(out));
	kfree(in);
	if (!err) {
		qp->raw.sqn = PRM_GET(create_sq_out, out, sqn);
		qp->raw.sq_state = MLX5_SQC_STATE_RST;
	}
	return err;
}

/**
 * mlx5x_rq_fw_create() - CREATE_RQ: a RAW_PACKET QP's RQ, or a verbs WQ
 * @dev: the device
 * @pl: its context, PD, CQ, user index, buffer, doorbell record and sizes
 * @rqn: the RQ made, in RST
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_rq_fw_create(struct mlx5x_dev *dev, const struct mlx5x_rq_place *pl,
		       u32 *rqn)
{
	u32 out[PRM_BYTES(create_rq_out) / 4] = {};
	void *in, *rqc;
	int err;

	in = kzalloc(PRM_BYTES(create_rq_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	rqc = PRM_ADDR(create_rq_in, in, ctx);
	PRM_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	PRM_SET(create_rq_in, in, uid, pl->uid);
	PRM_SET(rqc, rqc, vsd, 1);
	PRM_SET(rqc, rqc, mem_rq_type, MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_INLINE);
	PRM_SET(rqc, rqc, state, MLX5_RQC_STATE_RST);
	PRM_SET(rqc, rqc, flush_in_error_en, 1);
	PRM_SET(rqc, rqc, user_index, pl->user_index);
	PRM_SET(rqc, rqc, cqn, pl->cqn);
	mlx5x_raw_wq(PRM_ADDR(rqc, rqc, wq), pl->pdn, pl->buf, pl->db,
		     pl->log_stride, pl->count);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_rq_in), out,
			    sizeof(out));
	kfree(in);
	if (!err)
		*rqn = PRM_GET(create_rq_out, out, rqn);
	return err;
}

static int mlx5x_raw_rq_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			       u32 cqn)
{
	struct mlx5x_rq_place pl = {
		.uid = qp->uid,
		.pdn = to_mpd(qp->ib.pd)->pdn,
		.cqn = cqn,
		.user_index = qp->user_index,
		.buf = &qp->buf,
		.db = &qp->db,
		.log_stride = qp->rq_wqe_shift,
		.count = qp->rq_wqe_cnt,
	};
	int err;

	err = mlx5x_rq_fw_create(dev, &pl, &qp->raw.rqn);
	if (!err)
		qp->raw.rq_state = MLX5_RQC_STATE_RST;
	return err;
}

static int mlx5x_raw_tir_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
				u32 tdn)
{
	u32 in[PRM_BYTES(create_tir_in) / 4] = {};
	u32 out[PRM_BYTES(create_tir_out) / 4] = {};
	void *tirc = PRM_ADDR(create_tir_in, in, ctx);
	u32 lb = 0;
	int err;

	if (qp->flags & MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC)
		lb |= MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST;
	if (qp->flags & MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_MC ||
	    qp->create_flags & IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK)
		lb |= MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST;
	PRM_SET(create_tir_in, in, opcode, MLX5_CMD_OP_CREATE_TIR);
	PRM_SET(create_tir_in, in, uid, qp->uid);
	PRM_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_DIRECT);
	PRM_SET(tirc, tirc, inline_rqn, qp->raw.rqn);
	PRM_SET(tirc, tirc, transport_domain, tdn);
	PRM_SET(tirc, tirc, self_lb_block, lb);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		qp->raw.tirn = PRM_GET(create_tir_out, out, tirn);
	return err;
}

/**
 * mlx5x_fw_destroy() - destroy an RQ, SQ, TIR, TIS or RQT of a context
 * @dev: the device
 * @uid: the context
 * @opcode: the destroy command
 * @id: the object; 0 (nothing) is left alone, and it becomes 0 once gone
 *
 * Each of these destroy commands has its id at the same place.
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_fw_destroy(struct mlx5x_dev *dev, u16 uid, u16 opcode, u32 *id)
{
	u32 in[PRM_BYTES(destroy_tir_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_tir_out) / 4] = {};
	int err;

	BUILD_BUG_ON(PRM_BIT_OFF(destroy_rq_in, rqn) !=
		     PRM_BIT_OFF(destroy_tir_in, tirn) ||
		     PRM_BIT_OFF(destroy_sq_in, sqn) !=
		     PRM_BIT_OFF(destroy_tir_in, tirn) ||
		     PRM_BIT_OFF(destroy_tis_in, tisn) !=
		     PRM_BIT_OFF(destroy_tir_in, tirn) ||
		     PRM_BIT_OFF(destroy_rqt_in, rqtn) !=
		     PRM_BIT_OFF(destroy_tir_in, tirn) ||
		     PRM_BYTES(destroy_rq_in) > sizeof(in) ||
		     PRM_BYTES(destroy_sq_in) > sizeof(in) ||
		     PRM_BYTES(destroy_tis_in) > sizeof(in) ||
		     PRM_BYTES(destroy_rqt_in) > sizeof(in));
	if (!*id)
		return 0;
	PRM_SET(destroy_tir_in, in, opcode, opcode);
	PRM_SET(destroy_tir_in, in, uid, uid);
	PRM_SET(destroy_tir_in, in, tirn, *id);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*id = 0;
	return err;
}

/*
 * A RAW_PACKET QP is an RQ and an SQ in firmware, and their events are
 * the QP's (mlx5x_qp_event()): dev->raw_wqs finds the QP by either's
 * number, the queue type (MLX5_EVENT_QUEUE_TYPE_RQ or _SQ) above it.
 */
unsigned long mlx5x_raw_wq_key(u8 type, u32 num)
{
	return (unsigned long)type << 24 | num;
}

static int mlx5x_raw_wq_list(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			     u8 type, u32 num)
{
	return xa_err(xa_store(&dev->raw_wqs, mlx5x_raw_wq_key(type, num), qp,
			       GFP_KERNEL));
}

/*
 * Destroy the RQ or SQ *@num of @qp (0: none); no event reaches the QP
 * once the queue is out of the table, where it goes back if the destroy
 * is refused.
 */
static int mlx5x_raw_wq_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
				u8 type, u16 opcode, u32 *num)
{
	unsigned long key = mlx5x_raw_wq_key(type, *num);
	bool listed;
	int err;

	if (!*num)
		return 0;
	listed = xa_erase(&dev->raw_wqs, key);
	err = mlx5x_fw_destroy(dev, qp->uid, opcode, num);
	if (err && listed)
		xa_store(&dev->raw_wqs, key, qp, GFP_KERNEL);
	return err;
}

/**
 * mlx5x_raw_destroy() - destroy what a RAW_PACKET QP made in firmware
 * @dev: the device
 * @qp: the QP
 *
 * What is destroyed is forgotten, so a call that failed (a flow still
 * forwards to the TIR) can be retried.
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_raw_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	int err;

	err = mlx5x_fw_destroy(dev, qp->uid, MLX5_CMD_OP_DESTROY_TIR,
			       &qp->raw.tirn);
	if (!err)
		err = mlx5x_raw_wq_destroy(dev, qp, MLX5_EVENT_QUEUE_TYPE_RQ,
					   MLX5_CMD_OP_DESTROY_RQ,
					   &qp->raw.rqn);
	if (!err)
		err = mlx5x_raw_wq_destroy(dev, qp, MLX5_EVENT_QUEUE_TYPE_SQ,
					   MLX5_CMD_OP_DESTROY_SQ,
					   &qp->raw.sqn);
	if (!err)
		err = mlx5x_fw_destroy(dev, qp->uid, MLX5_CMD_OP_DESTROY_TIS,
				       &qp->raw.tisn);
	return err;
}

/**
 * mlx5x_raw_create() - create the SQ, TIS, RQ and TIR of a RAW_PACKET QP
 * @dev: the device
 * @qp: the QP; sizes, buffers and doorbell record already set
 * @attr: the verbs attributes (PD, CQs)
 * @tdn: the context's transport domain
 *
 * The QP number is the SQ's, or the RQ's if it has no SQ, as in mlx5.
 *
 * Return: 0 or a negative errno; on error nothing is left in firmware.
 */
int mlx5x_raw_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     struct ib_qp_init_attr *attr, u32 tdn)
{
	int err = 0;

	if (qp->sq_wqe_cnt) {
		err = mlx5x_raw_tis_create(dev, qp, tdn);
		if (!err)
			err = mlx5x_raw_sq_create(dev, qp,
						  to_mcq(attr->send_cq)->cqn);
		if (!err)
			err = mlx5x_raw_wq_list(dev, qp, MLX5_EVENT_QUEUE_TYPE_SQ,
						qp->raw.sqn);
	}
	if (!err && qp->rq_wqe_cnt) {
		err = mlx5x_raw_rq_create(dev, qp, to_mcq(attr->recv_cq)->cqn);
		if (!err)
			err = mlx5x_raw_tir_create(dev, qp, tdn);
		if (!err)
			err = mlx5x_raw_wq_list(dev, qp, MLX5_EVENT_QUEUE_TYPE_RQ,
						qp->raw.rqn);
	}
	if (err) {
		mlx5x_raw_destroy(dev, qp);
		return err;
	}
	qp->ib.qp_num = qp->sq_wqe_cnt ? qp->raw.sqn : qp->raw.rqn;
	return 0;
}

/**
 * mlx5x_rq_fw_move() - MODIFY_RQ from the state it is in to another
 * @dev: the device
 * @uid: its context
 * @rqn: the RQ
 * @cur: the state the command says it is in (firmware checks it)
 * @next: the state it goes to
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_rq_fw_move(struct mlx5x_dev *dev, u16 uid, u32 rqn, u8 cur, u8 next)
{
	u32 in[PRM_BYTES(modify_rq_in) / 4] = {};
	u32 out[PRM_BYTES(modify_rq_out) / 4] = {};

	PRM_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
	PRM_SET(modify_rq_in, in, uid, uid);
	PRM_SET(modify_rq_in, in, rqn, rqn);
	PRM_SET(modify_rq_in, in, rq_state, cur);
	PRM_SET(rqc, PRM_ADDR(modify_rq_in, in, ctx), state, next);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

static int mlx5x_raw_rq_move(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			     u8 state)
{
	int err;

	if (!qp->raw.rqn || qp->raw.rq_state == state)
		return 0;
	err = mlx5x_rq_fw_move(dev, qp->uid, qp->raw.rqn, qp->raw.rq_state,
			       state);
	if (!err)
		qp->raw.rq_state = state;
	return err;
}

static int mlx5x_raw_sq_move(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			     u8 state)
{
	u32 in[PRM_BYTES(modify_sq_in) / 4] = {};
	u32 out[PRM_BYTES(modify_sq_out) / 4] = {};
	int err;

	if (!qp->raw.sqn || qp->raw.sq_state == state)
		return 0;
	PRM_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	PRM_SET(modify_sq_in, in, uid, qp->uid);
	PRM_SET(modify_sq_in, in, sqn, qp->raw.sqn);
	PRM_SET(modify_sq_in, in, sq_state, qp->raw.sq_state);
	PRM_SET(sqc, PRM_ADDR(modify_sq_in, in, ctx), state, state);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		qp->raw.sq_state = state;
	return err;
}

/**
 * mlx5x_raw_modify() - move the queues of a RAW_PACKET QP with its state
 * @dev: the device
 * @qp: the QP
 * @cur: its state (the transition is checked by ib_modify_qp_is_ok())
 * @next: the state asked for
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_raw_modify(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     enum ib_qp_state cur, enum ib_qp_state next)
{
	int err;

	switch (next) {
	case IB_QPS_RESET:
		err = mlx5x_raw_rq_move(dev, qp, MLX5_RQC_STATE_RST);
		return err ?: mlx5x_raw_sq_move(dev, qp, MLX5_SQC_STATE_RST);
	case IB_QPS_ERR:
		err = mlx5x_raw_rq_move(dev, qp, MLX5_RQC_STATE_ERR);
		return err ?: mlx5x_raw_sq_move(dev, qp, MLX5_SQC_STATE_ERR);
	case IB_QPS_INIT:
		if (cur == IB_QPS_RESET)
			return mlx5x_raw_rq_move(dev, qp, MLX5_RQC_STATE_RDY);
		return 0;
	case IB_QPS_RTR:
		return 0;
	case IB_QPS_RTS:
		return mlx5x_raw_sq_move(dev, qp, MLX5_SQC_STATE_RDY);
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * mlx5x_qp_tirn() - the TIR a RAW_PACKET QP receives through
 * @ibqp: the QP
 * @tirn: its TIR number, for a flow's destination
 *
 * For flow steering (ibv_create_flow): the direct TIR to the QP's RQ,
 * owned by the QP's context (uid of its PD).
 *
 * Return: 0, or -EINVAL when the QP is not a RAW_PACKET QP with an RQ.
 */
int mlx5x_qp_tirn(struct ib_qp *ibqp, u32 *tirn)
{
	struct mlx5x_qp *qp = to_mqp(ibqp);

	if (ibqp->qp_type != IB_QPT_RAW_PACKET || !qp->raw.tirn)
		return -EINVAL;
	*tirn = qp->raw.tirn;
	return 0;
}
