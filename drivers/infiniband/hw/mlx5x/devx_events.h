/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * DEVX events: the event FD (devx_event_fd.c) and the subscriptions that
 * route device events to it (devx_subscribe.c).
 *
 * Locking: the device's routing table lock (struct mlx5x_devx_events)
 * covers the routes and every link of a subscription; a file's own lock
 * covers its queue.  Delivery takes the table lock, then the file's lock;
 * nothing takes them the other way round, and neither is held across a
 * command.
 */
#ifndef MLX5X_DEVX_EVENTS_H
#define MLX5X_DEVX_EVENTS_H

#include <linux/eventfd.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

/* An event queue entry (struct mlx5_ifc_eqe_bits) is 64 bytes. */
#define MLX5X_EQE_BYTES		64

struct mlx5x_ucontext;
struct mlx5x_ev_route;

/**
 * struct mlx5x_event_file - MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD
 * @uobj: the uverbs object; first, it is the file's private data
 * @dev: the device whose events it receives
 * @lock: protects @queue, @queued, @overflow, @destroyed
 * @queue: unread events (struct mlx5x_event_data), or with @omit_data the
 *	   subscriptions that have a pending event (mlx5x_event_sub.pending)
 * @queued: entries on @queue without @omit_data
 * @omit_data: read returns the cookie only, repeats coalesce
 * @overflow: events were lost: the next read fails with EOVERFLOW
 * @destroyed: the object is gone (closed or device removed)
 * @wait: readers and pollers
 * @subs: its subscriptions (mlx5x_event_sub.file_link), under the
 *	  table lock
 */
struct mlx5x_event_file {
	struct ib_uobject uobj;
	struct mlx5x_dev *dev;
	spinlock_t lock;
	struct list_head queue;
	unsigned int queued;
	bool omit_data;
	bool overflow;
	bool destroyed;
	wait_queue_head_t wait;
	struct list_head subs;
};

/**
 * struct mlx5x_event_sub - one subscription: an event type, of an object
 *			    or unaffiliated, to a file
 * @route_link: on its route's list
 * @file_link: on @file's subs
 * @obj_link: on the DEVX object's event_subs; empty when unaffiliated
 * @pending: with OMIT_DATA, on the file's queue while an event is unread
 * @route: the route it hangs on
 * @file: where its events go
 * @uctx: the context it counts against
 * @eventfd: signalled instead of queueing, when redirected
 * @cookie: returned with each event
 * @muted: its object is being destroyed: nothing is delivered
 */
struct mlx5x_event_sub {
	struct list_head route_link;
	struct list_head file_link;
	struct list_head obj_link;
	struct list_head pending;
	struct mlx5x_ev_route *route;
	struct mlx5x_event_file *file;
	struct mlx5x_ucontext *uctx;
	struct eventfd_ctx *eventfd;
	u64 cookie;
	bool muted;
};

/* devx_event_fd.c */
void mlx5x_event_file_deliver(struct mlx5x_event_sub *sub, const void *eqe);
void mlx5x_event_file_unqueue(struct mlx5x_event_sub *sub);

/* devx_subscribe.c */
void mlx5x_devx_unsubscribe_file(struct mlx5x_dev *dev,
				 struct mlx5x_event_file *f);

#endif /* MLX5X_DEVX_EVENTS_H */
