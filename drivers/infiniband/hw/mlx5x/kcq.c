// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues of kernel consumers (ib_alloc_cq(): the MAD layer's,
 * ib_cm's through it).  The CQ is made as a process's is, its 64-byte
 * CQEs and doorbell record in kernel pages (kbuf.c) on the kernel's UAR;
 * the driver polls it and arms it, as libmlx5 does for a process:
 *
 * - a CQE is the software's when its opcode is not INVALID and its owner
 *   bit is the parity of the pass over the ring the consumer index is in;
 *   the consumer index goes to the doorbell record's first word after
 *   each poll, which frees the slots for the device;
 * - arming writes sn << 28 | cmd << 24 | ci to the record's second word
 *   (cmd 0: the next completion, 1: the next solicited one); the device
 *   raises one completion event per arm, and each event taken moves sn
 *   on (mlx5x_cq_comp_event()), so the next arm asks for the next event.
 *
 * A CQE names its QP by number; the QP's work request ids are kqp.c's.
 */
#include <linux/log2.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/device.h>
#include <linux/if_vlan.h>
#include <linux/slab.h>
#include "kverbs.h"

#define MLX5X_KCQE_BYTES	64
#define MLX5X_KCQ_DBR_CI	0
#define MLX5X_KCQ_DBR_ARM	1
#define MLX5X_KCQ_QPN_MASK	0xffffff
#define MLX5X_KCQ_NO_QPN	MLX5X_KCQ_QPN_MASK	/* a purged CQE's */
/* flags_rqpn: the GRH bit(s), the RoCE header type */
#define MLX5X_KCQE_GRH_SHIFT	28
#define MLX5X_KCQE_L3_SHIFT	24
/* l4_l3_hdr_type: the packet had a VLAN tag, in vlan_info */
#define MLX5X_KCQE_CVLAN	BIT(0)

static struct mlx5_cqe64 *mlx5x_kcq_cqe(struct mlx5x_kcq *k, u32 index)
{
	return k->buf.va + (size_t)(index & (k->nent - 1)) * MLX5X_KCQE_BYTES;
}

/* The CQE at the consumer index, if the device has written it. */
static struct mlx5_cqe64 *mlx5x_kcq_next(struct mlx5x_kcq *k, u32 index)
{
	struct mlx5_cqe64 *cqe = mlx5x_kcq_cqe(k, index);
	u8 op_own = READ_ONCE(cqe->op_own);

	if (op_own >> 4 == MLX5_CQE_INVALID ||
	    (op_own & MLX5_CQE_OWNER_MASK) != !!(index & k->nent))
		return NULL;
	/* the rest of the CQE was written before its owner byte */
	dma_rmb();
	return cqe;
}

/**
 * mlx5x_kcq_create() - a CQ for a kernel consumer
 * @dev: the device
 * @cq: the CQ, its size and vector checked
 * @attr: what the consumer asked for
 *
 * Return: 0; -EOPNOTSUPP when the device offers no kernel queues; or
 * the errno of an allocation or command.
 */
int mlx5x_kcq_create(struct mlx5x_dev *dev, struct mlx5x_cq *cq,
		     const struct ib_cq_init_attr *attr)
{
	unsigned int log_size = order_base_2(attr->cqe + 1);
	struct mlx5x_cq_place pl;
	struct mlx5x_kcq *k;
	size_t bytes;
	u32 eqn, i;
	int err;

	if (!dev->kverbs)
		return -EOPNOTSUPP;
	err = dev->backend->comp_eqn(dev, attr->comp_vector, &eqn);
	if (err)
		return -EINVAL;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	spin_lock_init(&k->lock);
	k->nent = 1U << log_size;
	bytes = (size_t)k->nent * MLX5X_KCQE_BYTES;
	err = mlx5x_kbuf_get(dev, bytes + MLX5X_DBR_BYTES, &k->buf);
	if (err)
		goto err_free;
	for (i = 0; i < k->nent; i++)
		mlx5x_kcq_cqe(k, i)->op_own = MLX5_CQE_INVALID << 4;
	k->dbr = k->buf.va + bytes;

	cq->uid = 0;
	cq->cqe_size = MLX5X_KCQE_BYTES;
	cq->k = k;
	pl = (struct mlx5x_cq_place){
		.buf_id = k->buf.id,
		.db_id = k->buf.id,
		.db_off = bytes,
		.uar = dev->kuar,
		.cqe_size = MLX5X_KCQE_BYTES,
	};
	err = mlx5x_cq_fw_create(dev, cq, &pl, log_size, eqn);
	if (err)
		goto err_buf;
	err = xa_err(xa_store(&dev->cqs, cq->cqn, cq, GFP_KERNEL));
	if (err)
		goto err_fw;
	cq->ib.cqe = k->nent - 1;
	return 0;

err_fw:
	mlx5x_cq_fw_destroy(dev, cq);
err_buf:
	mlx5x_kbuf_put(dev, &k->buf);
err_free:
	cq->k = NULL;
	kfree(k);
	return err;
}

/* ib_core destroys a kernel CQ only once its QPs are gone. */
void mlx5x_kcq_destroy(struct mlx5x_dev *dev, struct mlx5x_cq *cq)
{
	xa_erase(&dev->cqs, cq->cqn);
	if (mlx5x_cq_fw_destroy(dev, cq))
		ibdev_err(&dev->ib, "kernel CQ 0x%x kept by firmware\n",
			  cq->cqn);
	mlx5x_kbuf_put(dev, &cq->k->buf);
	kfree(cq->k);
	cq->k = NULL;
}

/**
 * mlx5x_kcq_purge() - forget the CQEs of a QP that is gone
 * @cq: a kernel CQ the QP used
 * @qpn: the QP, destroyed in firmware (no CQE of it comes any more)
 *
 * Its CQEs not yet polled name no QP afterwards, and are skipped, so a
 * QP that is given the number later does not see them; and no poll
 * still holds the QP once this returns.
 */
void mlx5x_kcq_purge(struct mlx5x_cq *cq, u32 qpn)
{
	struct mlx5x_kcq *k = cq->k;
	struct mlx5_cqe64 *cqe;
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&k->lock, flags);
	for (i = k->cons_index; (cqe = mlx5x_kcq_next(k, i)); i++)
		if ((be32_to_cpu(cqe->sop_drop_qpn) & MLX5X_KCQ_QPN_MASK) ==
		    qpn)
			cqe->sop_drop_qpn = cpu_to_be32(MLX5X_KCQ_NO_QPN);
	spin_unlock_irqrestore(&k->lock, flags);
}

static enum ib_wc_status mlx5x_kcq_status(u8 syndrome)
{
	switch (syndrome) {
	case MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR:
		return IB_WC_LOC_LEN_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR:
		return IB_WC_LOC_QP_OP_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return IB_WC_LOC_PROT_ERR;
	case MLX5_CQE_SYNDROME_WR_FLUSH_ERR:
		return IB_WC_WR_FLUSH_ERR;
	case MLX5_CQE_SYNDROME_MW_BIND_ERR:
		return IB_WC_MW_BIND_ERR;
	case MLX5_CQE_SYNDROME_BAD_RESP_ERR:
		return IB_WC_BAD_RESP_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR:
		return IB_WC_LOC_ACCESS_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR:
		return IB_WC_REM_INV_REQ_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR:
		return IB_WC_REM_ACCESS_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_OP_ERR:
		return IB_WC_REM_OP_ERR;
	case MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR:
		return IB_WC_RETRY_EXC_ERR;
	case MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR:
		return IB_WC_RNR_RETRY_EXC_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR:
		return IB_WC_REM_ABORT_ERR;
	default:
		return IB_WC_GENERAL_ERR;
	}
}

/* A receive's particulars, as mlx5_ib reports them on RoCE. */
static void mlx5x_kcq_recv(const struct mlx5_cqe64 *cqe, struct ib_wc *wc)
{
	u32 flags_rqpn = be32_to_cpu(cqe->flags_rqpn);

	wc->opcode = IB_WC_RECV;
	wc->byte_len = be32_to_cpu(cqe->byte_cnt);
	wc->src_qp = flags_rqpn & MLX5X_KCQ_QPN_MASK;
	if ((cqe->op_own >> 4) == MLX5_CQE_RESP_SEND_IMM) {
		wc->ex.imm_data = cqe->immediate;
		wc->wc_flags |= IB_WC_WITH_IMM;
	}
	if ((flags_rqpn >> MLX5X_KCQE_GRH_SHIFT) & 3)
		wc->wc_flags |= IB_WC_GRH;
	switch ((flags_rqpn >> MLX5X_KCQE_L3_SHIFT) & 3) {
	case MLX5_CQE_ROCE_L3_HEADER_TYPE_GRH:
		wc->network_hdr_type = RDMA_NETWORK_ROCE_V1;
		break;
	case MLX5_CQE_ROCE_L3_HEADER_TYPE_IPV6:
		wc->network_hdr_type = RDMA_NETWORK_IPV6;
		break;
	case MLX5_CQE_ROCE_L3_HEADER_TYPE_IPV4:
		wc->network_hdr_type = RDMA_NETWORK_IPV4;
		break;
	}
	wc->wc_flags |= IB_WC_WITH_NETWORK_HDR_TYPE;
	/*
	 * The tag it came with: ib_core finds the GID to answer from (a CM
	 * request's, say) by it, on the VLAN device of that ID.
	 */
	if (cqe->l4_l3_hdr_type & MLX5X_KCQE_CVLAN) {
		wc->vlan_id = be16_to_cpu(cqe->vlan_info) & VLAN_VID_MASK;
		wc->sl = be16_to_cpu(cqe->vlan_info) >> VLAN_PRIO_SHIFT;
		wc->wc_flags |= IB_WC_WITH_VLAN;
	}
}

/*
 * Take the CQE at the consumer index into @wc.  Returns 1 for a
 * completion, 0 when there is none, -EAGAIN for a CQE that completes no
 * work request of a live kernel QP (skipped).
 */
static int mlx5x_kcq_one(struct mlx5x_dev *dev, struct mlx5x_cq *cq,
			 struct ib_wc *wc)
{
	struct mlx5x_kcq *k = cq->k;
	struct mlx5_cqe64 *cqe = mlx5x_kcq_next(k, k->cons_index);
	const struct mlx5_err_cqe *err = (const void *)cqe;
	struct mlx5x_qp *qp;
	u8 opcode;
	bool send;

	if (!cqe)
		return 0;
	k->cons_index++;
	opcode = cqe->op_own >> 4;
	send = opcode == MLX5_CQE_REQ || opcode == MLX5_CQE_REQ_ERR;
	qp = xa_load(&dev->qps, be32_to_cpu(cqe->sop_drop_qpn) &
				MLX5X_KCQ_QPN_MASK);
	if (!qp || !qp->k ||
	    (send ? qp->ib.send_cq : qp->ib.recv_cq) != &cq->ib)
		return -EAGAIN;
	memset(wc, 0, sizeof(*wc));
	if (!mlx5x_kqp_complete(qp, send, be16_to_cpu(cqe->wqe_counter),
				&wc->wr_id))
		return -EAGAIN;
	wc->qp = &qp->ib;
	wc->port_num = qp->port;
	switch (opcode) {
	case MLX5_CQE_REQ:
		wc->opcode = IB_WC_SEND;
		break;
	case MLX5_CQE_RESP_SEND:
	case MLX5_CQE_RESP_SEND_IMM:
		mlx5x_kcq_recv(cqe, wc);
		break;
	case MLX5_CQE_REQ_ERR:
	case MLX5_CQE_RESP_ERR:
		wc->status = mlx5x_kcq_status(err->syndrome);
		wc->vendor_err = err->vendor_err_synd;
		break;
	default:
		/* no other opcode completes what a kernel QP posts */
		wc->status = IB_WC_GENERAL_ERR;
		break;
	}
	return 1;
}

/**
 * mlx5x_poll_cq() - the poll_cq device operation, for a kernel CQ
 * @ibcq: the CQ
 * @num_entries: room in @wc
 * @wc: the completions
 *
 * Return: how many completions were written, or -EOPNOTSUPP for a
 * process's CQ (libmlx5 polls it).
 */
int mlx5x_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mlx5x_cq *cq = to_mcq(ibcq);
	struct mlx5x_kcq *k = cq->k;
	unsigned long flags;
	int n = 0, r;

	if (!k)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&k->lock, flags);
	while (n < num_entries) {
		r = mlx5x_kcq_one(to_mdev(ibcq->device), cq, &wc[n]);
		if (!r)
			break;
		n += r > 0;
	}
	/* the CQEs are read before the device may write their slots again */
	smp_mb();
	WRITE_ONCE(k->dbr[MLX5X_KCQ_DBR_CI],
		   cpu_to_be32(k->cons_index & MLX5X_KCQ_QPN_MASK));
	spin_unlock_irqrestore(&k->lock, flags);
	return n;
}

/**
 * mlx5x_req_notify_cq() - the req_notify_cq device operation
 * @ibcq: a kernel CQ
 * @flags: IB_CQ_NEXT_COMP or IB_CQ_SOLICITED, maybe with
 *	   IB_CQ_REPORT_MISSED_EVENTS
 *
 * Return: 0; 1 when missed events are asked for and a CQE is already
 * waiting; -EOPNOTSUPP for a process's CQ.
 */
int mlx5x_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mlx5x_kcq *k = to_mcq(ibcq)->k;
	unsigned long irq;
	u32 cmd, word;
	int ret = 0;

	if (!k)
		return -EOPNOTSUPP;
	cmd = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED ? 1 : 0;
	spin_lock_irqsave(&k->lock, irq);
	word = (READ_ONCE(k->arm_sn) & 3) << 28 | cmd << 24 |
	       (k->cons_index & MLX5X_KCQ_QPN_MASK);
	WRITE_ONCE(k->dbr[MLX5X_KCQ_DBR_ARM], cpu_to_be32(word));
	/* armed before looking: a CQE after this raises the event */
	smp_mb();
	if (flags & IB_CQ_REPORT_MISSED_EVENTS &&
	    mlx5x_kcq_next(k, k->cons_index))
		ret = 1;
	spin_unlock_irqrestore(&k->lock, irq);
	return ret;
}
