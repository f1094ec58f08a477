// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Doorbells that trap.  The driver arms each process mapping of a UAR
 * page so that the next store to it faults (uar_trap.c); the fault
 * handler calls mlx5x_sim_rung(), which runs one hold of the data path
 * there and then, on the CPU of the process that rang: a doorbell's
 * work is done before its store completes, with no worker to wake.
 *
 * A mapping that trapped is mapped from then on, so the worker polls for
 * the doorbells it no longer hears, as it always has, and arms the
 * mappings again before a pass looks (sim_dp_rearm(): a store before the
 * arming is in its doorbell record when the pass reads it; one after it
 * traps).  Once every mapping is armed the worker need not poll soon: it
 * falls back to a jiffy, for the data path's own timers (RNR and ACK
 * retries, CQ moderation).
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include "../queues/queues.h"
#include "wqe.h"
#include "dp_priv.h"

/**
 * mlx5x_sim_set_idle_handler() - who arms the doorbells of processes
 * @sim: the model
 * @fn: called by the worker, its lock not held; NULL: none (the worker
 *	polls for every doorbell)
 * @ctx: passed to @fn
 */
void mlx5x_sim_set_idle_handler(struct mlx5x_sim *sim, mlx5x_sim_idle_fn fn,
				void *ctx)
{
	mutex_lock(&sim->lock);
	sim->idle_fn = fn;
	sim->idle_ctx = ctx;
	mutex_unlock(&sim->lock);
}

/*
 * The worker, before a pass and outside the model's lock: arm every
 * doorbell, if a mapping trapped since the last time.  Returns true when
 * all are armed.
 */
bool sim_dp_rearm(struct sim_dp *dp)
{
	struct mlx5x_sim *sim = dp->sim;
	mlx5x_sim_idle_fn fn;
	void *ctx;

	mutex_lock(&sim->lock);
	fn = sim->idle_fn;
	ctx = sim->idle_ctx;
	if (!dp->rearm || !fn) {
		mutex_unlock(&sim->lock);
		return false;
	}
	dp->rearm = false;
	mutex_unlock(&sim->lock);
	if (fn(ctx))
		return true;
	/* one could not be armed: try again next time */
	mutex_lock(&sim->lock);
	dp->rearm = true;
	mutex_unlock(&sim->lock);
	return false;
}

/*
 * The queue a doorbell names, if it is the ringing context's: a QP, or
 * an SQ (they are numbered apart), each its turn.  Returns false when
 * neither is, or neither had work posted (a doorbell is rung after the
 * post, so its queue has some; none: the number was not the queue's, or
 * a pass of the worker took the work between the doorbell record and
 * the store: *@ours says the queue was the context's).
 */
static bool sim_dp_rung_named(struct sim_dp *dp, u16 uid, u32 qpn,
			      unsigned int *done, bool *ours)
{
	static const enum sim_obj_type kinds[] = { SIM_OBJ_QP, SIM_OBJ_SQ };
	struct sim_obj *obj;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		obj = xa_load(&dp->sim->objs[kinds[i]], qpn);
		if (obj && obj->uid == uid) {
			*ours = true;
			*done += sim_dp_turn(dp, obj, SIM_DP_BUDGET);
		}
	}
	return *done;
}

/**
 * mlx5x_sim_rung() - a process rang a doorbell: serve it now
 * @sim: the model
 * @mapped: the page the doorbell was rung on is mapped from now on, so
 *	    the next ones will not trap
 * @uid: the context of the process that rang
 * @qpn: the QP (or SQ) the doorbell names, as a ConnectX reads it from
 *	 the doorbell's bytes; MLX5X_SIM_RUNG_ANY when they were not read
 *
 * Called from the fault of a trapped store (may sleep).  A doorbell that
 * names a queue of @uid with work posted serves that queue alone, up to
 * SIM_DP_BUDGET WQEs: its cost, and how long it holds the model's lock,
 * do not grow with the number of queues.  Any other runs one hold of the
 * data path, from the first queue on, as the worker's would.  What is
 * left is the worker's, at once.  If @mapped, the worker looks again a
 * quick poll later, for the stores the mapping no longer traps, and arms
 * it again.
 */
void mlx5x_sim_rung(struct mlx5x_sim *sim, bool mapped, u16 uid, u32 qpn)
{
	unsigned int done = 0, looked = 0;
	unsigned long cursor = 0;
	bool cut, ours = false;
	struct sim_dp *dp;
	u64 start, held;

	start = local_clock();
	mutex_lock(&sim->lock);
	dp = sim->dp;
	if (!dp || dp->stopping)
		goto out;
	held = local_clock();
	dp->rung_wait_ns += sim_dp_since(held, start);
	sim_dp_hold_begin(dp);
	if (qpn != MLX5X_SIM_RUNG_ANY &&
	    sim_dp_rung_named(dp, uid, qpn, &done, &ours)) {
		dp->rung_named++;
		cut = done >= SIM_DP_BUDGET;
	} else {
		dp->rung_late += ours;
		cut = sim_dp_walk(dp, SIM_OBJ_SQ, &cursor, &done, &looked);
		if (!cut) {
			cursor = 0;
			cut = sim_dp_walk(dp, SIM_OBJ_QP, &cursor, &done,
					  &looked);
		}
	}
	sim_dp_hold_end(dp);
	dp->rungs++;
	dp->rung_wqes += done;
	if (mapped) {
		dp->rearm = true;
		dp->last_busy_ns = local_clock();
	}
	if (cut)
		kthread_mod_delayed_work(dp->kw, &dp->work, 0);
	else if (mapped)
		hrtimer_start(&dp->timer, ns_to_ktime(SIM_DP_POLL_NS),
			      HRTIMER_MODE_REL);
	dp->rung_ns += sim_dp_since(local_clock(), held);
out:
	mutex_unlock(&sim->lock);
}
