// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD: the file DEVX events are read from
 * (mlx5dv_devx_create_event_channel(3), mlx5dv_devx_get_event(3)).
 *
 * Each read returns one event: the subscription's cookie, then the 64-byte
 * event queue entry, or with MLX5_IB_UAPI_DEVX_CR_EV_CH_FLAGS_OMIT_DATA
 * the cookie alone.  A buffer too small for it is refused with EINVAL.
 * Without OMIT_DATA a file holds at most max_events_queued (limits.c) unread
 * events: later ones are dropped and the next read fails once with
 * EOVERFLOW.  With OMIT_DATA a subscription is pending or not, so
 * repeated events coalesce and nothing is lost.  Once the object is
 * destroyed (its device removed) readers get EIO.
 */
#include <linux/poll.h>
#include <linux/slab.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <rdma/uverbs_types.h>
#include "mlx5x.h"
#include "devx_events.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

/* One unread event: the header userspace reads, then the entry. */
struct mlx5x_event_data {
	struct list_head list;
	struct mlx5_ib_uapi_devx_async_event_hdr hdr;	/* last: out_data[] */
};

#define MLX5X_EVENT_DATA_BYTES	\
	(sizeof(struct mlx5_ib_uapi_devx_async_event_hdr) + MLX5X_EQE_BYTES)

static struct mlx5x_event_file *to_event_file(struct ib_uobject *uobj)
{
	return container_of(uobj, struct mlx5x_event_file, uobj);
}

/**
 * mlx5x_event_file_deliver() - hand one event to a subscription
 * @sub: the subscription
 * @eqe: the event queue entry, MLX5X_EQE_BYTES
 *
 * Signals the subscription's eventfd, or queues the event on its file.
 * Atomic context: called with the routing table's lock held.
 */
void mlx5x_event_file_deliver(struct mlx5x_event_sub *sub, const void *eqe)
{
	struct mlx5x_event_file *f = sub->file;
	struct mlx5x_event_data *e = NULL;

	if (sub->eventfd) {
		mlx5x_eventfd_signal(sub->eventfd);
		return;
	}
	if (!f->omit_data) {
		e = kmalloc(struct_size(e, hdr.out_data, MLX5X_EQE_BYTES),
			    GFP_ATOMIC);
		if (e) {
			e->hdr.cookie = sub->cookie;
			memcpy(e->hdr.out_data, eqe, MLX5X_EQE_BYTES);
		}
	}

	spin_lock(&f->lock);
	if (f->destroyed) {
		/* nothing more is queued */
	} else if (f->omit_data) {
		if (list_empty(&sub->pending))
			list_add_tail(&sub->pending, &f->queue);
	} else if (!e || f->queued >= mlx5x_limit_events_queued()) {
		f->overflow = true;
	} else {
		list_add_tail(&e->list, &f->queue);
		f->queued++;
		e = NULL;
	}
	spin_unlock(&f->lock);
	kfree(e);
	wake_up_interruptible(&f->wait);
}

/**
 * mlx5x_event_file_unqueue() - forget a subscription's pending event
 * @sub: a subscription being removed; with OMIT_DATA it may be queued
 */
void mlx5x_event_file_unqueue(struct mlx5x_event_sub *sub)
{
	struct mlx5x_event_file *f = sub->file;
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	list_del_init(&sub->pending);
	spin_unlock_irqrestore(&f->lock, flags);
}

/*
 * Take the next event off the queue: into @cookie with OMIT_DATA, else
 * into @ep.  Return: 0, or why not (EIO, EOVERFLOW once, EAGAIN when
 * empty, EINVAL when @count cannot hold it).
 */
static int mlx5x_event_take(struct mlx5x_event_file *f, size_t count,
			    u64 *cookie, struct mlx5x_event_data **ep)
{
	size_t size = f->omit_data ? sizeof(*cookie) : MLX5X_EVENT_DATA_BYTES;
	struct mlx5x_event_sub *sub;
	int err = 0;

	spin_lock_irq(&f->lock);
	if (f->destroyed) {
		err = -EIO;
	} else if (f->overflow) {
		f->overflow = false;
		err = -EOVERFLOW;
	} else if (list_empty(&f->queue)) {
		err = -EAGAIN;
	} else if (count < size) {
		err = -EINVAL;
	} else if (f->omit_data) {
		sub = list_first_entry(&f->queue, struct mlx5x_event_sub,
				       pending);
		list_del_init(&sub->pending);
		*cookie = sub->cookie;
	} else {
		*ep = list_first_entry(&f->queue, struct mlx5x_event_data,
				       list);
		list_del(&(*ep)->list);
		f->queued--;
	}
	spin_unlock_irq(&f->lock);
	return err;
}

static ssize_t mlx5x_event_read(struct file *filp, char __user *buf,
				size_t count, loff_t *pos)
{
	struct mlx5x_event_file *f = filp->private_data;
	struct mlx5x_event_data *e = NULL;
	u64 cookie;
	int err;

	for (;;) {
		err = mlx5x_event_take(f, count, &cookie, &e);
		if (err != -EAGAIN || filp->f_flags & O_NONBLOCK)
			break;
		err = wait_event_interruptible(f->wait,
					       READ_ONCE(f->destroyed) ||
					       READ_ONCE(f->overflow) ||
					       !list_empty_careful(&f->queue));
		if (err)
			return err;
	}
	if (err)
		return err;
	if (!e)
		return copy_to_user(buf, &cookie, sizeof(cookie)) ?
			-EFAULT : sizeof(cookie);
	err = copy_to_user(buf, &e->hdr, MLX5X_EVENT_DATA_BYTES) ? -EFAULT : 0;
	kfree(e);
	return err ?: MLX5X_EVENT_DATA_BYTES;
}

static __poll_t mlx5x_event_poll(struct file *filp,
				 struct poll_table_struct *wait)
{
	struct mlx5x_event_file *f = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &f->wait, wait);
	spin_lock_irq(&f->lock);
	if (f->destroyed)
		mask = EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	else if (f->overflow || !list_empty(&f->queue))
		mask = EPOLLIN | EPOLLRDNORM;
	spin_unlock_irq(&f->lock);
	return mask;
}

static const struct file_operations mlx5x_event_fops = {
	.owner = THIS_MODULE,
	.read = mlx5x_event_read,
	.poll = mlx5x_event_poll,
	.release = uverbs_uobject_fd_release,
};

/*
 * Closed, or its context torn down: wake readers with EIO, free unread
 * events, then drop every subscription so nothing is delivered here again.
 */
static void mlx5x_event_fd_destroy(struct ib_uobject *uobj,
				   enum rdma_remove_reason why)
{
	struct mlx5x_event_file *f = to_event_file(uobj);
	struct mlx5x_event_data *e, *tmp;
	LIST_HEAD(unread);

	spin_lock_irq(&f->lock);
	f->destroyed = true;
	if (f->omit_data) {
		while (!list_empty(&f->queue))
			list_del_init(f->queue.next);
	} else {
		list_splice_init(&f->queue, &unread);
		f->queued = 0;
	}
	spin_unlock_irq(&f->lock);
	wake_up_interruptible(&f->wait);
	list_for_each_entry_safe(e, tmp, &unread, list)
		kfree(e);

	mlx5x_devx_unsubscribe_file(f->dev, f);
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_ASYNC_EVENT_FD_ALLOC)(
	struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_event_file *f = to_event_file(uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_HANDLE));
	struct mlx5x_ucontext *uctx;
	u32 flags;
	int err;

	uctx = mlx5x_attrs_devx_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	err = uverbs_get_flags32(&flags, attrs,
				 MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_FLAGS,
				 MLX5_IB_UAPI_DEVX_CR_EV_CH_FLAGS_OMIT_DATA);
	if (err)
		return err;
	f->dev = to_mdev(uctx->ib.device);
	spin_lock_init(&f->lock);
	INIT_LIST_HEAD(&f->queue);
	INIT_LIST_HEAD(&f->subs);
	init_waitqueue_head(&f->wait);
	f->omit_data = flags & MLX5_IB_UAPI_DEVX_CR_EV_CH_FLAGS_OMIT_DATA;
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_ASYNC_EVENT_FD_ALLOC,
	UVERBS_ATTR_FD(MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_HANDLE,
		       MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD,
		       UVERBS_ACCESS_NEW,
		       UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_FLAGS,
			     enum mlx5_ib_uapi_devx_create_event_channel_flags,
			     UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD,
	UVERBS_TYPE_ALLOC_FD(sizeof(struct mlx5x_event_file),
			     mlx5x_event_fd_destroy,
			     &mlx5x_event_fops, "[mlx5x_devx_event]",
			     O_RDONLY),
	&UVERBS_METHOD(MLX5_IB_METHOD_DEVX_ASYNC_EVENT_FD_ALLOC));

static bool mlx5x_devx_event_fd_is_supported(struct ib_device *ib)
{
	return MLX5X_CAP_GEN(to_mdev(ib), log_max_uctx);
}

const struct uapi_definition mlx5x_devx_event_fd_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(
		MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD,
		UAPI_DEF_IS_OBJ_SUPPORTED(mlx5x_devx_event_fd_is_supported)),
	{}
};
