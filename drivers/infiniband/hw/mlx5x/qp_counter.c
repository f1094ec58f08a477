// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Per-QP counters (rdma statistic qp): ib_core binds a QP to a counter,
 * by hand (rdma statistic qp bind) or as the port's auto mode says when
 * the QP moves to INIT, and the driver gives the counter a Q counter set
 * of its own and moves the QP into it, as mlx5_ib does.  A QP in RST
 * takes it at RST2INIT (qp_rc.c); one in RTS at once, by an RTS2RTS
 * whose optional parameter mask names the counter (firmware's
 * rts2rts_qp_counters_set_id); one in between when it next reaches RTS.
 * Unbound, it counts in the port's set again.  A set is read with
 * QUERY_Q_COUNTER under the port's names (hw_counters.c), and ib_core
 * adds the sets up into the port's counters.  DC, RSS and raw packet
 * QPs count where their own objects say: no counter of their own.
 */
#include <rdma/rdma_counter.h>
#include "verbs.h"

/**
 * mlx5x_qp_counter_id() - the Q counter set a QP counts in
 * @dev: the device
 * @qp: the QP
 *
 * Return: its counter's set, or the port's.
 */
u32 mlx5x_qp_counter_id(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	return qp->ib.counter ? qp->ib.counter->id : dev->q_counter;
}

/* Whether @qp is one firmware QP walking qp_rc.c's transitions. */
static bool mlx5x_qp_counts_alone(struct mlx5x_qp *qp)
{
	return mlx5x_qp_is_fw_qp(qp->ib.qp_type) &&
	       qp->ib.qp_type != IB_QPT_DRIVER && !qp->ib.rwq_ind_tbl;
}

/* Move @qp to @counter's set (NULL: the port's); qp->lock held. */
static int mlx5x_qp_set_counter(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
				struct rdma_counter *counter)
{
	int err;

	if (qp->state == IB_QPS_RESET)
		goto out;
	if (!MLX5X_CAP_GEN(dev, rts2rts_qp_counters_set_id))
		return -EOPNOTSUPP;
	if (qp->state == IB_QPS_RTS) {
		err = mlx5x_rc_move_counter(dev, qp, counter ? counter->id :
					    dev->q_counter);
		if (err)
			return err;
		qp->counter_pending = false;
	} else {
		qp->counter_pending = true;
	}
out:
	qp->ib.counter = counter;
	return 0;
}

/**
 * mlx5x_qp_counter_reached_rts() - a QP reached RTS: the counter it was
 * bound to on the way takes effect
 * @dev: the device
 * @qp: the QP, qp->lock held
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_qp_counter_reached_rts(struct mlx5x_dev *dev, struct mlx5x_qp *qp)
{
	int err;

	if (!qp->counter_pending)
		return 0;
	err = mlx5x_rc_move_counter(dev, qp, mlx5x_qp_counter_id(dev, qp));
	if (!err)
		qp->counter_pending = false;
	return err;
}

/* ib_device_ops.counter_bind_qp; counter->lock held by ib_core */
int mlx5x_counter_bind_qp(struct rdma_counter *counter, struct ib_qp *ibqp)
{
	struct mlx5x_dev *dev = to_mdev(ibqp->device);
	struct mlx5x_qp *qp = to_mqp(ibqp);
	bool fresh = !counter->id;
	int err;

	if (!mlx5x_qp_counts_alone(qp))
		return -EOPNOTSUPP;
	if (fresh) {
		err = mlx5x_q_counter_alloc(dev, &counter->id);
		if (err)
			return err;
	}
	mutex_lock(&qp->lock);
	err = mlx5x_qp_set_counter(dev, qp, counter);
	mutex_unlock(&qp->lock);
	/* ib_core frees a counter it could not bind without asking us */
	if (err && fresh) {
		mlx5x_q_counter_free(dev, counter->id);
		counter->id = 0;
	}
	return err;
}

/* ib_device_ops.counter_unbind_qp: back to the port's set */
int mlx5x_counter_unbind_qp(struct ib_qp *ibqp)
{
	struct mlx5x_qp *qp = to_mqp(ibqp);
	int err;

	mutex_lock(&qp->lock);
	err = mlx5x_qp_set_counter(to_mdev(ibqp->device), qp, NULL);
	mutex_unlock(&qp->lock);
	return err;
}

/* ib_device_ops.counter_dealloc: no QP counts in it any more */
int mlx5x_counter_dealloc(struct rdma_counter *counter)
{
	mlx5x_q_counter_free(to_mdev(counter->device), counter->id);
	counter->id = 0;
	return 0;
}

/* ib_device_ops.counter_alloc_stats: the port's list, as ib_core sums */
struct rdma_hw_stats *mlx5x_counter_alloc_stats(struct rdma_counter *counter)
{
	return mlx5x_hw_stats_alloc(to_mdev(counter->device));
}

/* ib_device_ops.counter_update_stats */
int mlx5x_counter_update_stats(struct rdma_counter *counter)
{
	if (!counter->id)
		return 0;
	return mlx5x_q_counter_read(to_mdev(counter->device), counter->id,
				    counter->stats);
}
