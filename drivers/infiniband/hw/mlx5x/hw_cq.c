// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQs on hardware: completion EQEs of a ConnectX reach only the CQs that
 * mlx5_core's CQ table knows, those created with mlx5_create_cq().  So
 * the hw backend's command channel runs CREATE_CQ through it (the very
 * mailbox the method layer built, DEVX or verbs) with a completion
 * handler that hands the EQE to the DEVX event routing the model's
 * events take, and DESTROY_CQ of such a CQ through
 * mlx5_core_destroy_cq(), as mlx5_ib does for its DEVX CQs.  Everything
 * else about the CQ (checks, ownership, UMEMs) stays above the channel.
 */
#include <linux/slab.h>
#include <linux/mlx5/cq.h>
#include "mlx5x.h"
#include "hw.h"

/**
 * struct mlx5x_hw_cq - a CQ created through mlx5_core
 * @mcq: mlx5_core's CQ: in its completion and async EQ tables
 * @hw: the function
 */
struct mlx5x_hw_cq {
	struct mlx5_core_cq mcq;
	struct mlx5x_hw *hw;
};

/* A completion EQE for the CQ, in the EQ's interrupt. */
static void mlx5x_hw_cq_comp(struct mlx5_core_cq *mcq, struct mlx5_eqe *eqe)
{
	struct mlx5x_hw_cq *cq = container_of(mcq, struct mlx5x_hw_cq, mcq);

	mlx5x_devx_event(cq->hw->dev, eqe);
}

/* An APU CQ names an APU element, not a completion EQ (mlx5_ib's rule). */
static bool mlx5x_hw_cq_is_apu(struct mlx5x_hw *hw, const void *in)
{
	return MLX5_CAP_GEN(hw->mdev, apu) &&
	       MLX5_GET(cqc, MLX5_ADDR_OF(create_cq_in, in, cq_context),
			apu_cq);
}

/**
 * mlx5x_hw_cq_create() - run CREATE_CQ through mlx5_core's CQ table
 * @hw: the function
 * @in: the CREATE_CQ mailbox
 * @inlen: its length
 * @out: the output mailbox
 * @outlen: its length
 *
 * Return: as the backend's exec: 0 when firmware answered (its status in
 * @out), else the errno of a command not run.
 */
int mlx5x_hw_cq_create(struct mlx5x_hw *hw, const void *in, size_t inlen,
		       void *out, size_t outlen)
{
	struct mlx5x_hw_cq *cq;
	void *cmd;
	int err;

	if (inlen < MLX5_ST_SZ_BYTES(create_cq_in) ||
	    outlen < MLX5_ST_SZ_BYTES(create_cq_out) ||
	    mlx5x_hw_cq_is_apu(hw, in))
		return mlx5_cmd_do(hw->mdev, (void *)in, inlen, out, outlen);
	cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	/* mlx5_create_cq() writes the opcode into the mailbox it is given */
	cmd = kmemdup(in, inlen, GFP_KERNEL);
	if (!cq || !cmd) {
		err = -ENOMEM;
		goto out;
	}
	cq->hw = hw;
	cq->mcq.comp = mlx5x_hw_cq_comp;
	err = mlx5_create_cq(hw->mdev, &cq->mcq, cmd, inlen, out, outlen);
	if (err)
		goto out;
	err = xa_insert(&hw->cqs, cq->mcq.cqn, cq, GFP_KERNEL);
	if (err) {
		mlx5_core_destroy_cq(hw->mdev, &cq->mcq);
		goto out;
	}
	cq = NULL;
out:
	kfree(cmd);
	kfree(cq);
	return err;
}

/* mlx5_core_destroy_cq() gives an errno only: the status it stands for. */
static int mlx5x_hw_cq_status(int err, void *out)
{
	switch (err) {
	case -EBUSY:
		prm_out_set_status(out, PRM_STAT_RESOURCE_BUSY, 0);
		return 0;
	case -EINVAL:
		prm_out_set_status(out, PRM_STAT_BAD_PARAM, 0);
		return 0;
	case -ENOMEM:
		prm_out_set_status(out, PRM_STAT_EXCEED_LIM, 0);
		return 0;
	default:
		return err;
	}
}

/**
 * mlx5x_hw_cq_destroy() - DESTROY_CQ of a CQ mlx5_core's table holds
 * @hw: the function
 * @in: the DESTROY_CQ mailbox
 * @inlen: its length
 * @out: the output mailbox
 * @outlen: its length
 *
 * A CQ not created here, or named with another uid than its own, goes to
 * firmware as it is (firmware judges the uid).  mlx5_core takes the CQ
 * out of its EQ tables before the command; a destroy firmware refuses
 * leaves it without completion events, as with mlx5_ib, and its status
 * without a syndrome (mlx5_core logs it).
 *
 * Return: as the backend's exec.
 */
int mlx5x_hw_cq_destroy(struct mlx5x_hw *hw, const void *in, size_t inlen,
			void *out, size_t outlen)
{
	struct mlx5x_hw_cq *cq = NULL;
	int err;

	if (inlen >= MLX5_ST_SZ_BYTES(destroy_cq_in))
		cq = xa_load(&hw->cqs, MLX5_GET(destroy_cq_in, in, cqn));
	if (!cq || cq->mcq.uid != prm_in_uid(in))
		return mlx5_cmd_do(hw->mdev, (void *)in, inlen, out, outlen);
	memset(out, 0, outlen);
	/*
	 * Forgotten before firmware frees the number: another context's
	 * CREATE_CQ may get it at once, and must find the slot free.
	 * Firmware still holds the number if the destroy fails, so the slot
	 * is still free to take the CQ back.
	 */
	xa_erase(&hw->cqs, cq->mcq.cqn);
	err = mlx5_core_destroy_cq(hw->mdev, &cq->mcq);
	if (err) {
		if (xa_insert(&hw->cqs, cq->mcq.cqn, cq, GFP_KERNEL))
			dev_warn(hw->mdev->device,
				 "mlx5x: CQ 0x%x untracked\n", cq->mcq.cqn);
		return mlx5x_hw_cq_status(err, out);
	}
	kfree(cq);
	return 0;
}

/**
 * mlx5x_hw_cqs_cleanup() - destroy CQs left when the device is gone
 * @hw: the function; its IB device is unregistered
 *
 * Unregistration destroys every object of every context, so none should
 * be left; one that is would keep a handler in mlx5_core's tables.
 */
void mlx5x_hw_cqs_cleanup(struct mlx5x_hw *hw)
{
	struct mlx5x_hw_cq *cq;
	unsigned long cqn;

	xa_for_each(&hw->cqs, cqn, cq) {
		dev_warn(hw->mdev->device, "mlx5x: CQ 0x%lx left at detach\n",
			 cqn);
		mlx5_core_destroy_cq(hw->mdev, &cq->mcq);
		xa_erase(&hw->cqs, cqn);
		kfree(cq);
	}
	xa_destroy(&hw->cqs);
}
