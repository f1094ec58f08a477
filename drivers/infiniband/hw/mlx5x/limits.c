// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Per-context limits on what a user can grow without bound otherwise:
 * DEVX objects, UMEMs, UAR allocations (each an mmap entry), device
 * memory allocations, flows, and the steering objects behind flows (flow
 * matchers, flow actions and steering anchors, counted together), event
 * subscriptions; and per event FD, its unread events.  Each is a module
 * parameter, read at every allocation, so it can be changed at run time;
 * a context at its limit gets ENOSPC, and freeing one lets the next
 * allocation succeed (an event FD at its limit drops events instead:
 * devx_event_fd.c).  The async command FD's unread bytes have a fixed
 * limit where they live (devx_async.c).
 */
#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include "mlx5x.h"

static unsigned int max_devx_objs = 65536;
module_param(max_devx_objs, uint, 0644);
MODULE_PARM_DESC(max_devx_objs, "DEVX objects per context (default 65536)");

static unsigned int max_umems = 4096;
module_param(max_umems, uint, 0644);
MODULE_PARM_DESC(max_umems, "DEVX UMEMs per context (default 4096)");

static unsigned int max_uars = 512;
module_param(max_uars, uint, 0644);
MODULE_PARM_DESC(max_uars, "UAR allocations per context (default 512)");

static unsigned int max_dm = 256;
module_param(max_dm, uint, 0644);
MODULE_PARM_DESC(max_dm, "device memory allocations per context (default 256)");

static unsigned int max_flows = 65536;
module_param(max_flows, uint, 0644);
MODULE_PARM_DESC(max_flows, "flows (verbs and mlx5dv) per context (default 65536)");

static unsigned int max_steering_objs = 65536;
module_param(max_steering_objs, uint, 0644);
MODULE_PARM_DESC(max_steering_objs,
		 "flow matchers, flow actions and steering anchors per context (default 65536)");

static unsigned int max_event_subs = 1024;
module_param(max_event_subs, uint, 0644);
MODULE_PARM_DESC(max_event_subs,
		 "DEVX event subscriptions per context (default 1024)");

static unsigned int max_events_queued = 1024;
module_param(max_events_queued, uint, 0644);
MODULE_PARM_DESC(max_events_queued,
		 "unread events an event FD holds without OMIT_DATA (default 1024)");

/* The subscriptions a context may hold. */
unsigned int mlx5x_limit_event_subs(void)
{
	return READ_ONCE(max_event_subs);
}

/* The unread events an event FD may hold; past it they are dropped. */
unsigned int mlx5x_limit_events_queued(void)
{
	return READ_ONCE(max_events_queued);
}

static unsigned int mlx5x_limit_of(enum mlx5x_limit l)
{
	switch (l) {
	case MLX5X_LIMIT_DEVX_OBJS:
		return READ_ONCE(max_devx_objs);
	case MLX5X_LIMIT_UMEMS:
		return READ_ONCE(max_umems);
	case MLX5X_LIMIT_UARS:
		return READ_ONCE(max_uars);
	case MLX5X_LIMIT_FLOWS:
		return READ_ONCE(max_flows);
	case MLX5X_LIMIT_STEERING:
		return READ_ONCE(max_steering_objs);
	default:
		return READ_ONCE(max_dm);
	}
}

/**
 * mlx5x_limit_take() - count one more resource of a kind for a context
 * @uctx: the context
 * @l: the kind
 *
 * Return: 0, or -ENOSPC when the context holds its limit already.
 */
int mlx5x_limit_take(struct mlx5x_ucontext *uctx, enum mlx5x_limit l)
{
	if (atomic_inc_return(&uctx->used[l]) > mlx5x_limit_of(l)) {
		atomic_dec(&uctx->used[l]);
		return -ENOSPC;
	}
	return 0;
}

/**
 * mlx5x_limit_put() - one resource counted by mlx5x_limit_take() is gone
 * @uctx: the context
 * @l: the kind
 */
void mlx5x_limit_put(struct mlx5x_ucontext *uctx, enum mlx5x_limit l)
{
	atomic_dec(&uctx->used[l]);
}
