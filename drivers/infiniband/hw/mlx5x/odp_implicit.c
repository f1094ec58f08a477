// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Implicit on-demand paging: ibv_reg_mr(3) with address 0 and length
 * SIZE_MAX (IB_ACCESS_ON_DEMAND) registers the process's whole address
 * space; any address in it may be named by the MR's keys, and the pages
 * are faulted in when the device first needs them, as an explicit ODP
 * MR's are (odp.c).
 *
 * ib_core follows such an MR through children: an ODP umem, with an MMU
 * interval notifier of its own, for each span of the address space the
 * device has used.  Here a span is MLX5X_IMR_CHILD (2 MiB, the most one
 * fault gives), aligned.  Firmware's side is one ODP umem over the whole
 * user address space (the backend's odp_implicit), whose entries exist
 * only for the spans that have a child (odp_blocks); the MR's mkey is
 * made over it, from address 0.
 *
 * A fault (or a prefetch) of the MR finds the child of its span, or
 * makes it, and gives that child's pages as an explicit MR gives its
 * own.  A child whose pages are all gone (its notifier unmapped them,
 * or its first fault found nothing mapped) is freed, with its entries
 * in firmware: what the MR holds follows what the device reaches, not
 * every address ever named.  Children are made and freed under the
 * device's ODP mutex, which faults and prefetches hold too; a notifier
 * asks for the freeing through a work item.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "odp.h"

/**
 * struct mlx5x_imr - what an implicit MR has beyond any MR
 * @children: ib_core's ODP umem of each span, by span index; under the
 *	      device's ODP mutex
 * @gc: frees the children whose pages are all gone
 * @gc_lock: guards @dying, the queueing of @gc
 * @dying: the MR goes: @gc is not queued again
 * @mr: the MR
 */
struct mlx5x_imr {
	struct xarray children;
	struct work_struct gc;
	spinlock_t gc_lock;
	bool dying;
	struct mlx5x_mr *mr;
};

/* Bytes of the user address space, whole spans: firmware's umem. */
static u64 mlx5x_imr_size(void)
{
	return ALIGN(TASK_SIZE_MAX, MLX5X_IMR_CHILD);
}

/**
 * mlx5x_odp_mkey_len() - the length of an MR's mkey
 * @mr: the MR, its pages got
 * @length: the length it was registered with
 *
 * Return: @length, but an implicit MR's mkey's is the address space's.
 */
u64 mlx5x_odp_mkey_len(const struct mlx5x_mr *mr, u64 length)
{
	return mr->imr ? mlx5x_imr_size() : length;
}

/* A child goes: firmware's entries first, then ib_core's pages. */
static void mlx5x_imr_child_free(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
				 unsigned long idx, struct ib_umem_odp *child)
{
	lockdep_assert_held(&dev->odp_lock);
	xa_erase(&mr->imr->children, idx);
	/* the entries go under the model's ODP lock: no access reaches them */
	dev->backend->odp_blocks(dev, mr->buf.id,
				 (u64)idx << (MLX5X_IMR_CHILD_SHIFT - PAGE_SHIFT),
				 MLX5X_ODP_MAX_PAGES, false);
	ib_umem_odp_release(child);
}

/* Whether @child has no page mapped. */
static bool mlx5x_imr_child_unused(struct ib_umem_odp *child)
{
	bool unused;

	mutex_lock(&child->umem_mutex);
	unused = !child->npages;
	mutex_unlock(&child->umem_mutex);
	return unused;
}

static void mlx5x_imr_gc(struct work_struct *work)
{
	struct mlx5x_imr *imr = container_of(work, struct mlx5x_imr, gc);
	struct mlx5x_mr *mr = imr->mr;
	struct mlx5x_dev *dev = mr->dev;
	struct ib_umem_odp *child;
	unsigned long idx;

	mutex_lock(&dev->odp_lock);
	xa_for_each(&imr->children, idx, child)
		if (mlx5x_imr_child_unused(child))
			mlx5x_imr_child_free(dev, mr, idx, child);
	mutex_unlock(&dev->odp_lock);
}

/**
 * mlx5x_imr_child_empty() - a notifier left a child of @mr no page
 * @mr: the implicit MR
 *
 * Called under the child's umem mutex: the child is freed later, by a
 * work item, unless the MR goes first (which frees it then).
 */
void mlx5x_imr_child_empty(struct mlx5x_mr *mr)
{
	struct mlx5x_imr *imr = mr->imr;

	spin_lock(&imr->gc_lock);
	if (!imr->dying)
		queue_work(mr->dev->odp_wq, &imr->gc);
	spin_unlock(&imr->gc_lock);
}

/* The child of span @idx of @mr, made if it has none; ODP mutex held. */
static struct ib_umem_odp *mlx5x_imr_child(struct mlx5x_dev *dev,
					   struct mlx5x_mr *mr,
					   unsigned long idx)
{
	struct ib_umem_odp *root = to_ib_umem_odp(mr->buf.umem);
	u64 first = (u64)idx << (MLX5X_IMR_CHILD_SHIFT - PAGE_SHIFT);
	struct ib_umem_odp *child;
	int err;

	lockdep_assert_held(&dev->odp_lock);
	child = xa_load(&mr->imr->children, idx);
	if (child)
		return child;
	err = dev->backend->odp_blocks(dev, mr->buf.id, first,
				       MLX5X_ODP_MAX_PAGES, true);
	if (err)
		goto err_blocks;
	child = ib_umem_odp_alloc_child(root,
					(u64)idx << MLX5X_IMR_CHILD_SHIFT,
					MLX5X_IMR_CHILD, &mlx5x_odp_ops);
	if (IS_ERR(child)) {
		err = PTR_ERR(child);
		goto err_blocks;
	}
	child->private = mr;
	err = xa_err(xa_store(&mr->imr->children, idx, child, GFP_KERNEL));
	if (err) {
		ib_umem_odp_release(child);
		goto err_blocks;
	}
	return child;

err_blocks:
	dev->backend->odp_blocks(dev, mr->buf.id, first, MLX5X_ODP_MAX_PAGES,
				 false);
	return ERR_PTR(err);
}

/**
 * mlx5x_imr_map() - fault pages of an implicit MR in, and give them
 * @dev: the device, its ODP mutex held
 * @mr: the implicit MR
 * @off: the first byte: its user address
 * @len: bytes from there
 * @write: for writing too
 * @fault: fault absent pages in, else give those already mapped
 *
 * As mlx5x_odp_span_map(), within the span of @off's child.
 *
 * Return: 0, -EFAULT (past the address space, or nothing to give), or a
 * negative errno.
 */
int mlx5x_imr_map(struct mlx5x_dev *dev, struct mlx5x_mr *mr, u64 off,
		  u64 len, bool write, bool fault)
{
	unsigned long idx = off >> MLX5X_IMR_CHILD_SHIFT;
	struct mlx5x_odp_span span = {};
	int err;

	if (!len || off >= mlx5x_imr_size())
		return -EFAULT;
	span.odp = mlx5x_imr_child(dev, mr, idx);
	if (IS_ERR(span.odp))
		return PTR_ERR(span.odp);
	span.start = ib_umem_start(span.odp);
	span.end = ib_umem_end(span.odp);
	err = mlx5x_odp_span_map(dev, mr, &span, off, len, write, fault);
	/* nothing there: the child goes, not to pile up unused */
	if (err && mlx5x_imr_child_unused(span.odp))
		mlx5x_imr_child_free(dev, mr, idx, span.odp);
	return err;
}

/**
 * mlx5x_imr_get() - an implicit MR's pages: none yet, and its umem in
 * firmware
 * @dev: the device
 * @mr: the MR, its uid set
 * @access: IB_ACCESS_* (IB_ACCESS_ON_DEMAND among them)
 *
 * Return: 0 (mr->buf and mr->imr filled in), -EOPNOTSUPP (the backend
 * has no implicit ODP), -EINVAL (IB_ACCESS_HUGETLB: ib_core refuses it),
 * or a negative errno.
 */
int mlx5x_imr_get(struct mlx5x_dev *dev, struct mlx5x_mr *mr, int access)
{
	struct ib_umem_odp *root;
	struct mlx5x_imr *imr;
	int err;

	if (!dev->backend->odp_implicit)
		return -EOPNOTSUPP;
	imr = kzalloc(sizeof(*imr), GFP_KERNEL);
	if (!imr)
		return -ENOMEM;
	root = ib_umem_odp_alloc_implicit(&dev->ib, access);
	if (IS_ERR(root)) {
		kfree(imr);
		return PTR_ERR(root);
	}
	xa_init(&imr->children);
	INIT_WORK(&imr->gc, mlx5x_imr_gc);
	spin_lock_init(&imr->gc_lock);
	imr->mr = mr;
	root->private = mr;
	mr->dev = dev;
	mr->imr = imr;
	mr->buf.uid = mr->uid;
	mr->buf.umem = &root->umem;
	/* one absent entry, which the model drops for the address space's */
	err = mlx5x_odp_umem_create(dev, mr, 1, 0);
	if (err)
		goto err_root;
	err = dev->backend->odp_implicit(dev, mr->buf.id, root->umem.writable,
					 mlx5x_imr_size() >> PAGE_SHIFT);
	if (err) {
		mlx5x_odp_umem_destroy(dev, mr);
		goto err_root;
	}
	return 0;

err_root:
	ib_umem_release(&root->umem);
	mr->buf.umem = NULL;
	mr->imr = NULL;
	kfree(imr);
	return err;
}

/**
 * mlx5x_imr_put() - an implicit MR's children go
 * @dev: the device
 * @mr: the MR, its mkey gone, no fault of it served any more
 *
 * The caller then destroys its umem in firmware and releases the root.
 */
void mlx5x_imr_put(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	struct mlx5x_imr *imr = mr->imr;
	struct ib_umem_odp *child;
	unsigned long idx;

	spin_lock(&imr->gc_lock);
	imr->dying = true;
	spin_unlock(&imr->gc_lock);
	cancel_work_sync(&imr->gc);
	mutex_lock(&dev->odp_lock);
	xa_for_each(&imr->children, idx, child)
		mlx5x_imr_child_free(dev, mr, idx, child);
	mutex_unlock(&dev->odp_lock);
	xa_destroy(&imr->children);
	mr->imr = NULL;
	kfree(imr);
}
