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

/**
 * mlx5x_sim_rung() - a process rang a doorbell: serve it now
 * @sim: the model
 * @mapped: the page the doorbell was rung on is mapped from now on, so
 *	    the next ones will not trap
 *
 * Called from the fault of a trapped store (may sleep).  One hold of the
 * data path runs, from the first queue on, as the worker's would; what
 * it leaves is the worker's, at once.  If @mapped, the worker looks again
 * a quick poll later, for the stores the mapping no longer traps, and
 * arms it again.
 */
void mlx5x_sim_rung(struct mlx5x_sim *sim, bool mapped)
{
	unsigned int done = 0, looked = 0;
	unsigned long cursor = 0;
	struct sim_dp *dp;
	bool cut;

	mutex_lock(&sim->lock);
	dp = sim->dp;
	if (!dp || dp->stopping)
		goto out;
	cut = sim_dp_walk(dp, SIM_OBJ_SQ, &cursor, &done, &looked);
	if (!cut) {
		cursor = 0;
		cut = sim_dp_walk(dp, SIM_OBJ_QP, &cursor, &done, &looked);
	}
	dp->rungs++;
	dp->rung_wqes += done;
	if (mapped) {
		dp->rearm = true;
		dp->last_busy_ns = ktime_get_ns();
	}
	if (cut)
		kthread_mod_delayed_work(dp->kw, &dp->work, 0);
	else if (mapped)
		hrtimer_start(&dp->timer, ns_to_ktime(SIM_DP_POLL_NS),
			      HRTIMER_MODE_REL);
out:
	mutex_unlock(&sim->lock);
}
