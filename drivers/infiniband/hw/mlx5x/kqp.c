// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QPs of kernel consumers: the GSI QP (QP1) the MAD layer opens on the
 * port, over which ib_cm, and so rdma_cm, exchange their MADs.  It is a
 * QP1 of firmware (st QP1: datagrams, answering to QP number 1 on the
 * wire) whose rings are kernel pages (kbuf.c), with the reserved lkey
 * allowed (qpc.rlky), which ib_core gives every kernel PD as its
 * local_dma_lkey.  The driver writes its WQEs as libmlx5 writes a UD
 * QP's (a control segment, the address vector of the work request's AH,
 * data segments), moves the doorbell record's counters, and rings the
 * backend's doorbell; completions come back through kcq.c.
 *
 * The driver's own UMR QP (umr.c) is a kernel QP too, of service type
 * REG_UMR: it sends UMR WQEs alone.  Other kernel QP types are not
 * offered (EOPNOTSUPP): no kernel ULP runs on the device yet.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/mlx5/device.h>
#include "kverbs.h"

#define MLX5X_KQP_MAX_SGE	8
/* a scatter list ends at an entry with this lkey (6.12: ..._TERMINATE_...) */
#define MLX5X_KQP_END_LKEY	0x100
#define MLX5X_KQP_SEG		16
#define MLX5X_KQP_UD_HDR	(sizeof(struct mlx5_wqe_ctrl_seg) +	\
				 sizeof(struct mlx5_wqe_datagram_seg))
#define MLX5X_KQP_MAX_WQE	(MLX5X_KQP_UD_HDR +			\
				 MLX5X_KQP_MAX_SGE * MLX5X_KQP_SEG)

static u32 mlx5x_kqp_send_nbb(u32 nsge)
{
	return DIV_ROUND_UP(MLX5X_KQP_UD_HDR + nsge * MLX5X_KQP_SEG,
			    MLX5_SEND_WQE_BB);
}

static u8 *mlx5x_kqp_sq(struct mlx5x_kqp *k)
{
	return k->buf.va + ((size_t)k->rq_wqes << k->rq_shift);
}

/* Sizes of the rings for what the consumer asked; the caps it got. */
static int mlx5x_kqp_size(struct mlx5x_dev *dev, struct mlx5x_kqp *k,
			  struct ib_qp_cap *cap)
{
	u32 max = 1U << MLX5X_CAP_GEN(dev, log_max_qp_sz);
	u32 rsge = max_t(u32, cap->max_recv_sge, 1);

	if (!cap->max_send_wr || cap->max_send_sge > MLX5X_KQP_MAX_SGE ||
	    cap->max_inline_data ||
	    rsge * MLX5X_KQP_SEG > MLX5X_CAP_GEN(dev, max_wqe_sz_rq))
		return -EINVAL;
	k->max_send_sge = max_t(u32, cap->max_send_sge, 1);
	if (cap->max_send_wr > max / mlx5x_kqp_send_nbb(k->max_send_sge) ||
	    cap->max_recv_wr > max)
		return -EINVAL;
	k->sq_bbs = roundup_pow_of_two(cap->max_send_wr *
				       mlx5x_kqp_send_nbb(k->max_send_sge));
	k->rq_wqes = roundup_pow_of_two(max_t(u32, cap->max_recv_wr, 1));
	k->rq_shift = order_base_2(rsge * MLX5X_KQP_SEG);
	cap->max_send_wr = k->sq_bbs / mlx5x_kqp_send_nbb(k->max_send_sge);
	cap->max_send_sge = k->max_send_sge;
	cap->max_recv_wr = k->rq_wqes;
	cap->max_recv_sge = BIT(k->rq_shift) / MLX5X_KQP_SEG;
	return 0;
}

static void mlx5x_kqp_free(struct mlx5x_dev *dev, struct mlx5x_kqp *k)
{
	mlx5x_kbuf_put(dev, &k->buf);
	kfree(k->sq_wrid);
	kfree(k->sq_nbb);
	kfree(k->rq_wrid);
	kfree(k);
}

/**
 * mlx5x_kqp_create() - a QP for a kernel consumer: the GSI QP
 * @dev: the device
 * @qp: the QP
 * @attr: what the consumer asked for; its caps are set to what it got
 *
 * Return: 0; -EOPNOTSUPP for a type other than GSI or a device without
 * kernel queues; -EINVAL for sizes or CQs it cannot have; or the errno
 * of an allocation or command.
 */
int mlx5x_kqp_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     struct ib_qp_init_attr *attr)
{
	struct mlx5x_kqp *k;
	size_t rq_bytes, sq_bytes;
	int err;

	if (!dev->kverbs || (attr->qp_type != IB_QPT_GSI &&
			     attr->qp_type != MLX5X_QPT_REG_UMR) ||
	    attr->create_flags || attr->srq || attr->rwq_ind_tbl ||
	    attr->xrcd)
		return -EOPNOTSUPP;
	if (!attr->send_cq || !attr->recv_cq ||
	    !to_mcq(attr->send_cq)->k || !to_mcq(attr->recv_cq)->k ||
	    attr->port_num != MLX5X_PORT)
		return -EINVAL;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	spin_lock_init(&k->sq_lock);
	spin_lock_init(&k->rq_lock);
	k->sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	err = mlx5x_kqp_size(dev, k, &attr->cap);
	if (err)
		goto err_free;
	k->sq_wrid = kcalloc(k->sq_bbs, sizeof(*k->sq_wrid), GFP_KERNEL);
	k->sq_nbb = kcalloc(k->sq_bbs, sizeof(*k->sq_nbb), GFP_KERNEL);
	k->rq_wrid = kcalloc(k->rq_wqes, sizeof(*k->rq_wrid), GFP_KERNEL);
	if (!k->sq_wrid || !k->sq_nbb || !k->rq_wrid) {
		err = -ENOMEM;
		goto err_free;
	}
	rq_bytes = (size_t)k->rq_wqes << k->rq_shift;
	sq_bytes = (size_t)k->sq_bbs * MLX5_SEND_WQE_BB;
	err = mlx5x_kbuf_get(dev, rq_bytes + sq_bytes + MLX5X_DBR_BYTES,
			     &k->buf);
	if (err)
		goto err_free;
	k->dbr = k->buf.va + rq_bytes + sq_bytes;

	qp->uid = 0;
	qp->user_index = MLX5X_UIDX_MASK;
	qp->uar_index = dev->kuar;
	qp->sq_wqe_cnt = k->sq_bbs;
	qp->rq_wqe_cnt = k->rq_wqes;
	qp->rq_wqe_shift = k->rq_shift;
	qp->state = IB_QPS_RESET;
	qp->port = MLX5X_PORT;
	qp->k = k;
	err = mlx5x_rc_create(dev, qp, attr);
	if (err)
		goto err_k;
	/* the MAD layer's QP answers to number 1 (the device's is its own) */
	if (attr->qp_type == IB_QPT_GSI)
		qp->ib.qp_num = 1;
	return 0;

err_k:
	qp->k = NULL;
err_free:
	mlx5x_kqp_free(dev, k);
	return err;
}

/* After firmware destroyed the QP: its CQEs are forgotten, then freed. */
void mlx5x_kqp_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	mlx5x_kcq_purge(to_mcq(qp->ib.send_cq), qp->qpn);
	if (qp->ib.recv_cq != qp->ib.send_cq)
		mlx5x_kcq_purge(to_mcq(qp->ib.recv_cq), qp->qpn);
	mlx5x_kqp_free(dev, qp->k);
	qp->k = NULL;
}

/**
 * mlx5x_kqp_complete() - the work request a CQE completes
 * @qp: a kernel QP
 * @send: of its send queue (else its receive queue)
 * @wqe_counter: the CQE's: the first basic block of the send WQE, or
 *		 the receive WQE's index
 * @wr_id: its id
 *
 * A send CQE also completes the unsignalled WQEs before it.
 *
 * Return: true, or false for a counter naming no outstanding WQE.
 */
bool mlx5x_kqp_complete(struct mlx5x_qp *qp, bool send, u16 wqe_counter,
			u64 *wr_id)
{
	struct mlx5x_kqp *k = qp->k;
	bool ok = false;
	u32 idx;
	u16 ahead;

	if (send) {
		spin_lock(&k->sq_lock);
		ahead = wqe_counter - (u16)k->sq_ci;
		idx = wqe_counter & (k->sq_bbs - 1);
		if (ahead < k->sq_pi - k->sq_ci) {
			*wr_id = k->sq_wrid[idx];
			k->sq_ci += ahead + k->sq_nbb[idx];
			ok = true;
		}
		spin_unlock(&k->sq_lock);
		return ok;
	}
	spin_lock(&k->rq_lock);
	if (k->rq_ci != k->rq_pi && wqe_counter == (u16)k->rq_ci) {
		*wr_id = k->rq_wrid[k->rq_ci & (k->rq_wqes - 1)];
		k->rq_ci++;
		ok = true;
	}
	spin_unlock(&k->rq_lock);
	return ok;
}

/* Write send WQE @wr at the producer index; -errno when it cannot go. */
static int mlx5x_kqp_send_one(struct mlx5x_qp *qp, const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	struct mlx5x_kqp *k = qp->k;
	u8 wqe[ALIGN(MLX5X_KQP_MAX_WQE, MLX5_SEND_WQE_BB)] = {};
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_datagram_seg *dg = (void *)(ctrl + 1);
	struct mlx5_wqe_data_seg *seg = (void *)(dg + 1);
	struct mlx5x_ah *ah;
	u32 i, ds, nbb, idx;
	u8 opcode;

	/* the UMR QP's UMRs (umr.c), and nothing else there */
	if ((qp->ib.qp_type == MLX5X_QPT_REG_UMR) !=
	    (wr->opcode == MLX5X_WR_UMR))
		return -EINVAL;
	if (wr->opcode == MLX5X_WR_UMR) {
		opcode = MLX5_OPCODE_UMR;
		ds = 1 + mlx5x_umr_wqe(wr, dg);
		ctrl->imm = wr->ex.imm_data;
		goto place;
	}
	if (wr->opcode == IB_WR_SEND)
		opcode = MLX5_OPCODE_SEND;
	else if (wr->opcode == IB_WR_SEND_WITH_IMM)
		opcode = MLX5_OPCODE_SEND_IMM;
	else
		return -EINVAL;
	if (wr->num_sge < 0 || wr->num_sge > k->max_send_sge || !ud->ah)
		return -EINVAL;
	ah = container_of(ud->ah, struct mlx5x_ah, ib);
	if (!ah->kernel)
		return -EINVAL;
	dg->av = ah->av;
	dg->av.key.qkey.qkey = cpu_to_be32(ud->remote_qkey);
	dg->av.dqp_dct = cpu_to_be32(ud->remote_qpn | MLX5_EXTENDED_UD_AV);
	/* a zero byte count would mean 2 GiB: an empty entry is left out */
	for (i = 0; i < wr->num_sge; i++) {
		if (!wr->sg_list[i].length)
			continue;
		seg->byte_count = cpu_to_be32(wr->sg_list[i].length);
		seg->lkey = cpu_to_be32(wr->sg_list[i].lkey);
		seg->addr = cpu_to_be64(wr->sg_list[i].addr);
		seg++;
	}
	ds = ((u8 *)seg - wqe) / MLX5X_KQP_SEG;
	if (opcode == MLX5_OPCODE_SEND_IMM)
		ctrl->imm = wr->ex.imm_data;
place:
	nbb = DIV_ROUND_UP(ds * MLX5X_KQP_SEG, MLX5_SEND_WQE_BB);
	if (k->sq_pi - k->sq_ci + nbb > k->sq_bbs)
		return -ENOMEM;
	ctrl->opmod_idx_opcode = cpu_to_be32((k->sq_pi & 0xffff) << 8 |
					     opcode);
	ctrl->qpn_ds = cpu_to_be32(qp->qpn << 8 | ds);
	if (wr->send_flags & IB_SEND_SIGNALED || k->sig_all)
		ctrl->fm_ce_se |= MLX5_WQE_CTRL_CQ_UPDATE;
	if (wr->send_flags & IB_SEND_SOLICITED)
		ctrl->fm_ce_se |= MLX5_WQE_CTRL_SOLICITED;
	idx = k->sq_pi & (k->sq_bbs - 1);
	k->sq_wrid[idx] = wr->wr_id;
	k->sq_nbb[idx] = nbb;
	/* a basic block at a time: the WQE may wrap at the ring's end */
	for (i = 0; i < nbb; i++)
		memcpy(mlx5x_kqp_sq(k) + ((k->sq_pi + i) & (k->sq_bbs - 1)) *
		       MLX5_SEND_WQE_BB, wqe + i * MLX5_SEND_WQE_BB,
		       MLX5_SEND_WQE_BB);
	k->sq_pi += nbb;
	return 0;
}

/**
 * mlx5x_post_send() - the post_send device operation, for a kernel QP
 * @ibqp: the QP
 * @wr: the work requests, in order
 * @bad_wr: the first that was not posted
 *
 * Return: 0; -EINVAL for a request the QP cannot carry or a QP not yet
 * ready to send; -ENOMEM when the send queue is full; -EOPNOTSUPP for a
 * process's QP (libmlx5 posts there).
 */
int mlx5x_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr)
{
	struct mlx5x_qp *qp = to_mqp(ibqp);
	struct mlx5x_kqp *k = qp->k;
	unsigned long flags;
	int err = 0, n = 0;

	if (!k) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&k->sq_lock, flags);
	for (; wr; wr = wr->next, n++) {
		err = qp->state < IB_QPS_RTS ? -EINVAL :
		      mlx5x_kqp_send_one(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	if (n) {
		/* the WQEs are in the ring before the counter says so */
		dma_wmb();
		WRITE_ONCE(k->dbr[MLX5_SND_DBR],
			   cpu_to_be32(k->sq_pi & 0xffff));
	}
	spin_unlock_irqrestore(&k->sq_lock, flags);
	if (n)
		mlx5x_kverbs_doorbell(to_mdev(ibqp->device));
	return err;
}

/**
 * mlx5x_post_recv() - the post_recv device operation, for a kernel QP
 * @ibqp: the QP
 * @wr: the work requests, in order
 * @bad_wr: the first that was not posted
 *
 * Return: 0; -EINVAL for more scatter entries than a WQE holds; -ENOMEM
 * when the receive queue is full; -EOPNOTSUPP for a process's QP.
 */
int mlx5x_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr)
{
	struct mlx5x_qp *qp = to_mqp(ibqp);
	struct mlx5x_kqp *k = qp->k;
	struct mlx5_wqe_data_seg *seg;
	u32 room, i, j;
	unsigned long flags;
	int err = 0, n = 0;

	if (!k) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	room = BIT(k->rq_shift) / MLX5X_KQP_SEG;
	spin_lock_irqsave(&k->rq_lock, flags);
	for (; wr; wr = wr->next, n++) {
		if (wr->num_sge < 0 || wr->num_sge > room)
			err = -EINVAL;
		else if (k->rq_pi - k->rq_ci >= k->rq_wqes)
			err = -ENOMEM;
		if (err) {
			*bad_wr = wr;
			break;
		}
		seg = k->buf.va + ((size_t)(k->rq_pi & (k->rq_wqes - 1)) <<
				   k->rq_shift);
		for (i = 0, j = 0; i < wr->num_sge; i++) {
			if (!wr->sg_list[i].length)
				continue;
			seg[j].byte_count = cpu_to_be32(wr->sg_list[i].length);
			seg[j].lkey = cpu_to_be32(wr->sg_list[i].lkey);
			seg[j].addr = cpu_to_be64(wr->sg_list[i].addr);
			j++;
		}
		/* the scatter list ends at an entry with the invalid lkey */
		if (j < room) {
			seg[j].byte_count = 0;
			seg[j].lkey = cpu_to_be32(MLX5X_KQP_END_LKEY);
			seg[j].addr = 0;
		}
		k->rq_wrid[k->rq_pi & (k->rq_wqes - 1)] = wr->wr_id;
		k->rq_pi++;
	}
	if (n) {
		dma_wmb();
		WRITE_ONCE(k->dbr[MLX5_RCV_DBR],
			   cpu_to_be32(k->rq_pi & 0xffff));
	}
	spin_unlock_irqrestore(&k->rq_lock, flags);
	return err;
}
