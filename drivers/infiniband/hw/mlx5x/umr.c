// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The driver's UMR QP, with which ibv_rereg_mr() changes an MR's PD or
 * access rights in place and its keys stay what they were, as mlx5_ib
 * re-registers (its UMR fast path).  No command changes a live mkey: a
 * ConnectX does it by a UMR WQE, posted here on a QP of service type
 * REG_UMR, which only the kernel may create and whose UMRs may name any
 * mkey of the function.
 *
 * The QP, its CQ and its PD are made once the device is registered, as
 * mlx5_ib makes its own, and live until the device goes: a kernel QP
 * (kqp.c) on kernel pages, polled directly.  Where that failed, the next
 * re-registration tries again.  One UMR is in flight at a time; the
 * caller waits for its completion.  A backend without kernel queues (the
 * hardware one, today) has no UMR QP: there every re-registration makes
 * a new MR, as mlx5_ib does where it cannot post a UMR.
 */
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/mlx5/qp.h>
#include "kverbs.h"
#include "verbs.h"

/* how long a UMR may take before the device is deemed stuck */
#define MLX5X_UMR_TIMEOUT_MS	5000

/**
 * struct mlx5x_umr - the UMR QP and what it stands on
 * @lock: one UMR at a time; protects the rest
 * @pd: the kernel's PD the QP is on
 * @cq: its send CQ, polled directly
 * @qp: the QP, in RTS
 */
struct mlx5x_umr {
	struct mutex lock;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
};

/**
 * mlx5x_umr_wqe() - lay out the UMR WQE of @wr after its control segment
 * @wr: an MLX5X_WR_UMR work request (struct mlx5x_umr_wr)
 * @seg: where the UMR control segment goes; the mkey context follows
 *
 * Return: the size of what was written, in 16-byte units.
 */
u32 mlx5x_umr_wqe(const struct ib_send_wr *wr, void *seg)
{
	const struct mlx5x_umr_wr *u = container_of(wr, struct mlx5x_umr_wr,
						     wr);
	struct mlx5_wqe_umr_ctrl_seg *uc = seg;

	memset(uc, 0, sizeof(*uc));
	uc->flags = u->flags;
	uc->mkey_mask = cpu_to_be64(u->mask);
	memcpy(uc + 1, u->mkc, sizeof(u->mkc));
	return (sizeof(*uc) + sizeof(u->mkc)) / MLX5_SEND_WQE_DS;
}

static void mlx5x_umr_free(struct mlx5x_umr *umr)
{
	if (!IS_ERR_OR_NULL(umr->qp))
		ib_destroy_qp(umr->qp);
	if (!IS_ERR_OR_NULL(umr->cq))
		ib_free_cq(umr->cq);
	if (!IS_ERR_OR_NULL(umr->pd))
		ib_dealloc_pd(umr->pd);
	umr->qp = NULL;
	umr->cq = NULL;
	umr->pd = NULL;
}

/* Make the QP and move it to RTS; umr->lock held. */
static int mlx5x_umr_make(struct mlx5x_dev *dev, struct mlx5x_umr *umr)
{
	struct ib_qp_init_attr init = {
		.qp_type = MLX5X_QPT_REG_UMR,
		.port_num = MLX5X_PORT,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 2, .max_send_sge = 1 },
	};
	struct ib_qp_attr attr = { .port_num = MLX5X_PORT };
	int err;

	umr->pd = ib_alloc_pd(&dev->ib, 0);
	if (IS_ERR(umr->pd))
		return PTR_ERR(umr->pd);
	umr->cq = ib_alloc_cq(&dev->ib, NULL, 4, 0, IB_POLL_DIRECT);
	if (IS_ERR(umr->cq))
		return PTR_ERR(umr->cq);
	init.send_cq = umr->cq;
	init.recv_cq = umr->cq;
	umr->qp = ib_create_qp(umr->pd, &init);
	if (IS_ERR(umr->qp))
		return PTR_ERR(umr->qp);
	attr.qp_state = IB_QPS_INIT;
	err = ib_modify_qp(umr->qp, &attr, IB_QP_STATE | IB_QP_PORT |
			   IB_QP_PKEY_INDEX);
	if (!err) {
		attr.qp_state = IB_QPS_RTR;
		attr.path_mtu = IB_MTU_4096;
		err = ib_modify_qp(umr->qp, &attr,
				   IB_QP_STATE | IB_QP_PATH_MTU);
	}
	if (!err) {
		attr.qp_state = IB_QPS_RTS;
		err = ib_modify_qp(umr->qp, &attr, IB_QP_STATE);
	}
	return err;
}

/* Post @wr and wait for its completion; umr->lock held. */
static int mlx5x_umr_run(struct mlx5x_umr *umr, struct mlx5x_umr_wr *wr)
{
	unsigned long end = jiffies + msecs_to_jiffies(MLX5X_UMR_TIMEOUT_MS);
	const struct ib_send_wr *bad;
	struct ib_wc wc;
	int n, err;

	wr->wr.opcode = MLX5X_WR_UMR;
	wr->wr.send_flags = IB_SEND_SIGNALED;
	err = ib_post_send(umr->qp, &wr->wr, &bad);
	if (err)
		return err;
	while (!(n = ib_poll_cq(umr->cq, 1, &wc))) {
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		usleep_range(10, 100);
	}
	if (n < 0)
		return n;
	return wc.status == IB_WC_SUCCESS ? 0 : -EIO;
}

/**
 * mlx5x_umr_rereg() - change an MR's PD and rights in place
 * @dev: the device
 * @mkey: the MR's key
 * @pdn: the PD it is to be on
 * @access: the rights it is to grant (IB_ACCESS_*; the remote ones and
 *	    local write)
 *
 * Return: 0; -EOPNOTSUPP when the device has no UMR QP (the caller makes
 * a new MR instead); -EIO when the device refused the UMR (the MR is as
 * it was); another errno when the QP could not be made.
 */
int mlx5x_umr_rereg(struct mlx5x_dev *dev, u32 mkey, u32 pdn, int access)
{
	struct mlx5x_umr *umr = dev->umr;
	struct mlx5x_umr_wr wr = {
		.flags = MLX5_UMR_CHECK_FREE | MLX5_UMR_INLINE,
		.mask = MLX5_MKEY_MASK_PD | MLX5_MKEY_MASK_LR |
			MLX5_MKEY_MASK_LW | MLX5_MKEY_MASK_RR |
			MLX5_MKEY_MASK_RW | MLX5_MKEY_MASK_A,
	};
	int err;

	if (!umr)
		return -EOPNOTSUPP;
	wr.wr.ex.imm_data = cpu_to_be32(mkey);
	mlx5x_mr_mkc(wr.mkc, pdn, access, mkey & 0xff);
	mutex_lock(&umr->lock);
	err = umr->qp ? 0 : mlx5x_umr_make(dev, umr);
	if (!err)
		err = mlx5x_umr_run(umr, &wr);
	/*
	 * A refused UMR leaves the QP in error, one that timed out leaves
	 * it unknown: the next re-registration makes it anew.
	 */
	if (err)
		mlx5x_umr_free(umr);
	mutex_unlock(&umr->lock);
	return err;
}

/**
 * mlx5x_umr_init() - let re-registrations post UMRs, where kernel queues are
 * @dev: the device (mlx5x_kverbs_init() done)
 *
 * Return: 0 or -ENOMEM.
 */
int mlx5x_umr_init(struct mlx5x_dev *dev)
{
	if (!dev->kverbs)
		return 0;
	dev->umr = kzalloc(sizeof(*dev->umr), GFP_KERNEL);
	if (!dev->umr)
		return -ENOMEM;
	mutex_init(&dev->umr->lock);
	return 0;
}

/**
 * mlx5x_umr_start() - make the UMR QP
 * @dev: the device, registered
 *
 * A failure is not the device's: re-registrations make new MRs until a
 * later one makes the QP.
 */
void mlx5x_umr_start(struct mlx5x_dev *dev)
{
	struct mlx5x_umr *umr = dev->umr;
	int err;

	if (!umr)
		return;
	mutex_lock(&umr->lock);
	err = mlx5x_umr_make(dev, umr);
	if (err)
		mlx5x_umr_free(umr);
	mutex_unlock(&umr->lock);
	if (err)
		dev_warn(&dev->ib.dev, "no UMR QP (%d): rereg makes new MRs\n",
			 err);
}

/**
 * mlx5x_umr_cleanup() - destroy the UMR QP, if one was made
 * @dev: the device, unregistered (or never registered)
 */
void mlx5x_umr_cleanup(struct mlx5x_dev *dev)
{
	if (!dev->umr)
		return;
	mlx5x_umr_free(dev->umr);
	mutex_destroy(&dev->umr->lock);
	kfree(dev->umr);
	dev->umr = NULL;
}
