// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Asynchronous DEVX queries: MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD, a file the
 * completions are read from, and MLX5_IB_METHOD_DEVX_OBJ_ASYNC_QUERY,
 * which queues one.  A completion is the caller's wr_id followed by the
 * output mailbox.  Each file holds at most MLX5X_ASYNC_BYTES_MAX bytes of
 * unread output: past that a query fails with EAGAIN until some are read.
 *
 * The command itself runs when it is queued; the file only defers its
 * result.  Closing the file, or the context going away, frees whatever was
 * not read.
 */
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <rdma/uverbs_types.h>
#include "mlx5x.h"
#include "devx_kinds.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

#define MLX5X_ASYNC_BYTES_MAX	(1024 * 1024)

struct mlx5x_async_cmd_file {
	struct ib_uobject uobj;		/* first: the file's private data */
	spinlock_t lock;		/* protects all below */
	struct list_head done;
	size_t bytes;			/* output bytes queued, unread */
	bool destroyed;
	wait_queue_head_t wait;
};

struct mlx5x_async_done {
	struct list_head list;
	u16 outlen;
	struct mlx5_ib_uapi_devx_async_cmd_hdr hdr;	/* last: out_data[] */
};

static struct mlx5x_async_cmd_file *to_cmd_file(struct ib_uobject *uobj)
{
	return container_of(uobj, struct mlx5x_async_cmd_file, uobj);
}

static ssize_t mlx5x_async_cmd_read(struct file *filp, char __user *buf,
				    size_t count, loff_t *pos)
{
	struct mlx5x_async_cmd_file *f = filp->private_data;
	struct mlx5x_async_done *d;
	size_t size;
	int err;

	spin_lock_irq(&f->lock);
	while (list_empty(&f->done) && !f->destroyed) {
		spin_unlock_irq(&f->lock);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(f->wait,
					       !list_empty(&f->done) ||
					       f->destroyed);
		if (err)
			return err;
		spin_lock_irq(&f->lock);
	}
	if (f->destroyed) {
		spin_unlock_irq(&f->lock);
		return -EIO;
	}
	d = list_first_entry(&f->done, struct mlx5x_async_done, list);
	size = sizeof(d->hdr) + d->outlen;
	if (size > count) {
		spin_unlock_irq(&f->lock);
		return -ENOSPC;
	}
	list_del(&d->list);
	f->bytes -= d->outlen;
	spin_unlock_irq(&f->lock);

	err = copy_to_user(buf, &d->hdr, size) ? -EFAULT : 0;
	kvfree(d);
	return err ?: size;
}

static __poll_t mlx5x_async_cmd_poll(struct file *filp,
				     struct poll_table_struct *wait)
{
	struct mlx5x_async_cmd_file *f = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &f->wait, wait);
	spin_lock_irq(&f->lock);
	if (f->destroyed)
		mask = EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	else if (!list_empty(&f->done))
		mask = EPOLLIN | EPOLLRDNORM;
	spin_unlock_irq(&f->lock);
	return mask;
}

static const struct file_operations mlx5x_async_cmd_fops = {
	.owner = THIS_MODULE,
	.read = mlx5x_async_cmd_read,
	.poll = mlx5x_async_cmd_poll,
	.release = uverbs_uobject_fd_release,
};

static void mlx5x_async_cmd_destroy(struct ib_uobject *uobj,
				    enum rdma_remove_reason why)
{
	struct mlx5x_async_cmd_file *f = to_cmd_file(uobj);
	struct mlx5x_async_done *d, *tmp;
	LIST_HEAD(unread);

	spin_lock_irq(&f->lock);
	f->destroyed = true;
	list_splice_init(&f->done, &unread);
	f->bytes = 0;
	spin_unlock_irq(&f->lock);
	wake_up_interruptible(&f->wait);
	list_for_each_entry_safe(d, tmp, &unread, list)
		kvfree(d);
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_ASYNC_CMD_FD_ALLOC)(
	struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_async_cmd_file *f = to_cmd_file(uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_DEVX_ASYNC_CMD_FD_ALLOC_HANDLE));

	spin_lock_init(&f->lock);
	INIT_LIST_HEAD(&f->done);
	init_waitqueue_head(&f->wait);
	return 0;
}

/* Reserve room for @outlen more unread bytes, or say the file is full. */
static int mlx5x_async_reserve(struct mlx5x_async_cmd_file *f, u16 outlen)
{
	int err = 0;

	spin_lock_irq(&f->lock);
	if (f->destroyed)
		err = -EIO;
	else if (f->bytes + outlen > MLX5X_ASYNC_BYTES_MAX)
		err = -EAGAIN;
	else
		f->bytes += outlen;
	spin_unlock_irq(&f->lock);
	return err;
}

static void mlx5x_async_unreserve(struct mlx5x_async_cmd_file *f, u16 outlen)
{
	spin_lock_irq(&f->lock);
	if (!f->destroyed)
		f->bytes -= outlen;
	spin_unlock_irq(&f->lock);
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_ASYNC_QUERY)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_HANDLE);
	void *in = uverbs_attr_get_alloced_ptr(
		attrs, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_CMD_IN);
	int inlen = uverbs_attr_get_len(
		attrs, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_CMD_IN);
	struct mlx5x_async_cmd_file *f;
	struct mlx5x_ucontext *uctx;
	struct mlx5x_async_done *d;
	struct mlx5x_devx_obj *obj;
	u16 outlen;
	int err;

	uctx = mlx5x_attrs_devx_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	err = uverbs_get_const(&outlen, attrs,
			       MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_OUT_LEN);
	if (err)
		return err;
	if (outlen < PRM_BYTES(general_obj_out_cmd_hdr))
		return -EINVAL;
	err = mlx5x_devx_obj_check(uobj, in, inlen, false);
	if (err)
		return err;
	obj = uobj->object;
	f = to_cmd_file(uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_FD));

	err = mlx5x_async_reserve(f, outlen);
	if (err)
		return err;
	d = kvzalloc(struct_size(d, hdr.out_data, outlen), GFP_KERNEL);
	if (!d) {
		err = -ENOMEM;
		goto err_unreserve;
	}
	err = uverbs_copy_from(&d->hdr.wr_id, attrs,
			       MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_WR_ID);
	if (err)
		goto err_free;
	d->outlen = outlen;

	prm_in_set_uid(in, uctx->devx_uid);
	err = mlx5x_cmd_exec(obj->dev, in, inlen, d->hdr.out_data, outlen);
	/* a firmware error completes too: status and syndrome are the result */
	if (err && err != -EREMOTEIO)
		goto err_free;

	spin_lock_irq(&f->lock);
	if (f->destroyed) {
		spin_unlock_irq(&f->lock);
		kvfree(d);
		return -EIO;
	}
	list_add_tail(&d->list, &f->done);
	spin_unlock_irq(&f->lock);
	wake_up_interruptible(&f->wait);
	return 0;

err_free:
	kvfree(d);
err_unreserve:
	mlx5x_async_unreserve(f, outlen);
	return err;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_ASYNC_CMD_FD_ALLOC,
	UVERBS_ATTR_FD(MLX5_IB_ATTR_DEVX_ASYNC_CMD_FD_ALLOC_HANDLE,
		       MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD,
		       UVERBS_ACCESS_NEW,
		       UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD,
	UVERBS_TYPE_ALLOC_FD(sizeof(struct mlx5x_async_cmd_file),
			     mlx5x_async_cmd_destroy,
			     &mlx5x_async_cmd_fops, "[mlx5x_async_cmd]",
			     O_RDONLY),
	&UVERBS_METHOD(MLX5_IB_METHOD_DEVX_ASYNC_CMD_FD_ALLOC));

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_OBJ_ASYNC_QUERY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_HANDLE,
			UVERBS_IDR_ANY_OBJECT,
			UVERBS_ACCESS_READ,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_CMD_IN,
			   UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_in_cmd_hdr)),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_OUT_LEN,
			     u16, UA_MANDATORY),
	UVERBS_ATTR_FD(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_FD,
		       MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD,
		       UVERBS_ACCESS_READ,
		       UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_WR_ID,
			   UVERBS_ATTR_TYPE(u64),
			   UA_MANDATORY));

ADD_UVERBS_METHODS(mlx5x_devx_obj_async,
		   MLX5_IB_OBJECT_DEVX_OBJ,
		   &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OBJ_ASYNC_QUERY));

static bool mlx5x_devx_async_is_supported(struct ib_device *ib)
{
	return MLX5X_CAP_GEN(to_mdev(ib), log_max_uctx);
}

const struct uapi_definition mlx5x_devx_async_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(
		MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD,
		UAPI_DEF_IS_OBJ_SUPPORTED(mlx5x_devx_async_is_supported)),
	UAPI_DEF_CHAIN_OBJ_TREE(MLX5_IB_OBJECT_DEVX_OBJ,
				&mlx5x_devx_obj_async),
	{}
};
