// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ moderation (cqc.cq_max_count, cqc.cq_period; ibv_modify_cq() with
 * IBV_CQ_ATTR_MODERATE): an armed CQ raises its completion event once
 * cq_max_count CQEs were written since its last event, or once
 * cq_period microseconds passed since that event (the period counts from
 * the event, cq_period_mode 0: the only mode the caps offer), whichever
 * comes first, and only if a CQE came since.  Both 0: every CQE may
 * raise it, as without moderation.
 *
 * A CQE that finds the count short and the period not yet over leaves
 * the CQ waiting: its number goes into the data path's table of waiting
 * CQs and a timer is set for the earliest end of a period; when it
 * fires, the worker's next pass looks at each waiting CQ again
 * (sim_cq_mod_expire()), its arm word included.
 */
#include <linux/ktime.h>
#include "../queues/queues.h"
#include "dp_priv.h"

static u64 sim_cq_mod_end(const struct sim_cq *cq)
{
	return cq->dp.mod_since +
	       (u64)PRM_GET(cqc, cq->cqc, cq_period) * NSEC_PER_USEC;
}

/**
 * sim_cq_mod_due() - may an armed CQ raise its event now
 * @dp: the data path, the model's lock held
 * @cq: the CQ, armed for what it holds
 *
 * Return: true when moderation lets the event go now; else false, and
 * the CQ waits for its period's end if it has a period.
 */
bool sim_cq_mod_due(struct sim_dp *dp, struct sim_cq *cq)
{
	u32 count = PRM_GET(cqc, cq->cqc, cq_max_count);
	u32 period = PRM_GET(cqc, cq->cqc, cq_period);
	u64 now, end;

	if (!sim_cq_moderated(cq))
		return true;
	if (!cq->dp.mod_cqes)
		return false;
	if (count && cq->dp.mod_cqes >= count)
		return true;
	if (!period)
		return false;
	now = ktime_get_ns();
	end = sim_cq_mod_end(cq);
	if (now >= end)
		return true;
	if (xa_insert(&dp->mod_cqs, cq->q.obj.id, cq, GFP_KERNEL) == -ENOMEM)
		return true;	/* cannot wait: no later than asked */
	if (!hrtimer_active(&dp->mod_timer) ||
	    ktime_before(ns_to_ktime(end), hrtimer_get_expires(&dp->mod_timer)))
		hrtimer_start(&dp->mod_timer, ns_to_ktime(end),
			      HRTIMER_MODE_ABS);
	return false;
}

/* @cq raised its event: the count and the period start again. */
void sim_cq_mod_fired(struct sim_cq *cq)
{
	cq->dp.mod_cqes = 0;
	cq->dp.mod_sol = false;
	cq->dp.mod_since = ktime_get_ns();
}

/**
 * sim_cq_mod_expire() - the waiting CQs whose period is over
 * @dp: the data path, the model's lock held
 *
 * Each leaves the table and is looked at again as if a CQE had just
 * come; one whose period is not over yet (its event came meanwhile)
 * goes back to waiting.  A CQ destroyed meanwhile is not found by its
 * number and is forgotten.
 */
void sim_cq_mod_expire(struct sim_dp *dp)
{
	struct sim_obj *obj;
	unsigned long cqn;
	void *entry;

	xa_for_each(&dp->mod_cqs, cqn, entry) {
		xa_erase(&dp->mod_cqs, cqn);
		obj = xa_load(&dp->sim->objs[SIM_OBJ_CQ], cqn);
		if (obj)
			sim_dp_cq_event(dp->sim,
					container_of(obj, struct sim_cq, q.obj),
					false);
	}
}

/* The timer: the pass runs in the worker, as every pass. */
static enum hrtimer_restart sim_cq_mod_timer(struct hrtimer *t)
{
	struct sim_dp *dp = container_of(t, struct sim_dp, mod_timer);

	if (!READ_ONCE(dp->stopping))
		kthread_mod_delayed_work(dp->kw, &dp->work, 0);
	return HRTIMER_NORESTART;
}

void sim_cq_mod_init(struct sim_dp *dp)
{
	xa_init(&dp->mod_cqs);
	hrtimer_init(&dp->mod_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	dp->mod_timer.function = sim_cq_mod_timer;
}

/* After dp->stopping is set: the timer cannot be armed again. */
void sim_cq_mod_fini(struct sim_dp *dp)
{
	hrtimer_cancel(&dp->mod_timer);
	xa_destroy(&dp->mod_cqs);
}
