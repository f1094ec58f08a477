// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Buffers of verbs queues and MRs: the kernel pins the pages a process
 * gives for a CQ's or QP's buffer and doorbell record, or an MR, and registers them with
 * firmware as a UMEM owned by the process's context.  The queue then
 * names its buffer by umem id, as DEVX queues do, so firmware's rule that
 * a user context never hands it a raw address holds for verbs queues too.
 * (Upstream mlx5_ib writes the page list into the create command under
 * the context's uid instead; the firmware model accepts raw page lists
 * from uid 0 only.)
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include "verbs.h"

#define MLX5X_UBUF_PAGE_SHIFT	12	/* firmware's page unit */

/**
 * mlx5x_umem_in() - a CREATE_UMEM mailbox, its page list to be filled in
 * @uid: the context the umem will belong to (0: the kernel)
 * @nmtt: its pages, each PAGE_SIZE
 * @page_offset: where its first byte sits in the first page
 * @inlen: the mailbox's length
 * @mtt: where the caller writes the pages' addresses, each with its
 *	 access bits (MLX5X_MTT_READ, MLX5X_MTT_WRITE)
 *
 * Return: the mailbox (kvfree() it), or NULL.
 */
void *mlx5x_umem_in(u16 uid, size_t nmtt, u32 page_offset, size_t *inlen,
		    __be64 **mtt)
{
	void *in, *um;

	*inlen = PRM_BYTES(create_umem_in) + nmtt * PRM_BYTES(mtt);
	in = kvzalloc(*inlen, GFP_KERNEL);
	if (!in)
		return NULL;
	um = PRM_ADDR(create_umem_in, in, umem);
	PRM_SET(create_umem_in, in, opcode, MLX5_CMD_OP_CREATE_UMEM);
	PRM_SET(create_umem_in, in, uid, uid);
	PRM_SET64(umem, um, num_of_mtt, nmtt);
	PRM_SET(umem, um, log_page_size, PAGE_SHIFT - MLX5X_UBUF_PAGE_SHIFT);
	PRM_SET(umem, um, page_offset, page_offset);
	*mtt = PRM_ADDR(umem, um, mtt);
	return in;
}

static int mlx5x_ubuf_register(struct mlx5x_dev *dev, struct mlx5x_ubuf *buf)
{
	u32 out[PRM_BYTES(create_umem_out) / 4] = {};
	struct ib_block_iter biter;
	size_t nmtt, inlen, i = 0;
	__be64 *mtt;
	u64 flags;
	void *in;
	int err;

	nmtt = ib_umem_num_dma_blocks(buf->umem, PAGE_SIZE);
	in = mlx5x_umem_in(buf->uid, nmtt, ib_umem_offset(buf->umem), &inlen,
			   &mtt);
	if (!in)
		return -ENOMEM;
	/*
	 * The device may write only what was pinned writable: the umem is
	 * the context's, and any of its objects may name it, so a read-only
	 * MR's pages must not become writable through another object.
	 */
	flags = MLX5X_MTT_READ |
		(buf->umem->writable ? MLX5X_MTT_WRITE : 0);
	rdma_umem_for_each_dma_block(buf->umem, &biter, PAGE_SIZE)
		mtt[i++] = cpu_to_be64(rdma_block_iter_dma_address(&biter) |
				       flags);
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	if (!err)
		buf->id = PRM_GET(create_umem_out, out, umem_id);
	kvfree(in);
	return err;
}

/**
 * mlx5x_ubuf_get() - pin a process's buffer and register it with firmware
 * @dev: the device
 * @uid: firmware uid of the context the buffer belongs to
 * @addr: its user address
 * @len: its length in bytes, nonzero
 * @access: IB_ACCESS_* the pages are pinned for (LOCAL_WRITE: writable)
 * @buf: filled in; release with mlx5x_ubuf_put()
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_ubuf_get(struct mlx5x_dev *dev, u16 uid, u64 addr, size_t len,
		   int access, struct mlx5x_ubuf *buf)
{
	int err;

	if (!len)
		return -EINVAL;
	buf->uid = uid;
	buf->umem = ib_umem_get(&dev->ib, addr, len, access);
	if (IS_ERR(buf->umem)) {
		err = PTR_ERR(buf->umem);
		buf->umem = NULL;
		return err;
	}
	err = mlx5x_ubuf_register(dev, buf);
	if (err) {
		ib_umem_release(buf->umem);
		buf->umem = NULL;
	}
	return err;
}

/* An unpinned buffer firmware kept: given back when its context goes. */
struct mlx5x_ubuf_orphan {
	struct list_head node;
	struct mlx5x_ubuf buf;
};

/* DESTROY_UMEM, then unpin; returns 0, or the errno of a refusal. */
static int mlx5x_ubuf_release(struct mlx5x_dev *dev, struct mlx5x_ubuf *buf)
{
	u32 in[PRM_BYTES(destroy_umem_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_umem_out) / 4] = {};
	int err;

	PRM_SET(destroy_umem_in, in, opcode, MLX5_CMD_OP_DESTROY_UMEM);
	PRM_SET(destroy_umem_in, in, uid, buf->uid);
	PRM_SET(destroy_umem_in, in, umem_id, buf->id);
	err = mlx5x_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	ib_umem_release(buf->umem);
	buf->umem = NULL;
	return 0;
}

/**
 * mlx5x_ubuf_put() - unregister and unpin a buffer of mlx5x_ubuf_get()
 * @dev: the device
 * @buf: the buffer; nothing is done if it was never got
 *
 * Called once the queue or MR using it is destroyed.  The umem is the
 * context's, so a DEVX object of the context may name it too, and
 * firmware then refuses to destroy it.  The verbs object goes all the
 * same; the umem, its pages still pinned (never reused under a live
 * registration), is kept on the device's orphans and given back when
 * its context goes (mlx5x_ubuf_orphans_put()), once every object that
 * could name it is gone.
 */
void mlx5x_ubuf_put(struct mlx5x_dev *dev, struct mlx5x_ubuf *buf)
{
	struct mlx5x_ubuf_orphan *o;

	if (!buf->umem || !mlx5x_ubuf_release(dev, buf))
		return;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	if (!o) {
		ibdev_err(&dev->ib, "umem 0x%x in use: its pages stay pinned\n",
			  buf->id);
		buf->umem = NULL;
		return;
	}
	o->buf = *buf;
	buf->umem = NULL;
	mutex_lock(&dev->uctx_lock);
	list_add_tail(&o->node, &dev->ubuf_orphans);
	mutex_unlock(&dev->uctx_lock);
}

/**
 * mlx5x_ubuf_orphans_put() - give back the umems a context's objects kept
 * @dev: the device
 * @uid: the context's uid, all of whose objects are destroyed
 *
 * Called before the context's firmware uid is destroyed, which firmware
 * refuses while the uid owns a umem.
 */
void mlx5x_ubuf_orphans_put(struct mlx5x_dev *dev, u16 uid)
{
	struct mlx5x_ubuf_orphan *o, *tmp;
	LIST_HEAD(mine);

	mutex_lock(&dev->uctx_lock);
	list_for_each_entry_safe(o, tmp, &dev->ubuf_orphans, node)
		if (o->buf.uid == uid)
			list_move_tail(&o->node, &mine);
	mutex_unlock(&dev->uctx_lock);
	list_for_each_entry_safe(o, tmp, &mine, node) {
		if (mlx5x_ubuf_release(dev, &o->buf))
			ibdev_err(&dev->ib, "DESTROY_UMEM 0x%x refused at context close: its pages stay pinned\n",
				  o->buf.id);
		list_del(&o->node);
		kfree(o);
	}
}
