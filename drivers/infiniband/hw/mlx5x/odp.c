// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging (IB_ACCESS_ON_DEMAND): an MR whose pages are not
 * pinned.  ib_core's ODP umem follows the process's mapping through an
 * MMU interval notifier; the MR's umem in firmware starts with every
 * page absent, and the mkey points at it as at any other.
 *
 * When the device's data path needs an absent page it stops the WQE and
 * raises a page fault (mlx5x_odp_fault(), from the backend, which cannot
 * sleep there).  The fault's work faults the range in
 * (ib_umem_odp_map_dma_and_lock()), gives firmware the pages under the
 * umem's mutex, and resumes the QP, which executes the WQE again.  A
 * fault that cannot be resolved (the range is not mapped, or not
 * writable for a write) resumes it with an error: the WQE completes
 * with the error CQE of a refused access and the QP goes to ERR.
 *
 * The notifier takes the pages of an invalidated range back from
 * firmware (which drops them under a spinlock of its own, never under
 * its command lock), then unmaps them, all under the umem's mutex: once
 * it returns, the device reaches none of them.
 *
 * ibv_advise_mr() prefetches a range as a fault would (PREFETCH: for
 * reading, PREFETCH_WRITE: for writing too), or gives the device what is
 * already mapped and faults nothing in (PREFETCH_NO_FAULT); done before
 * the call returns, with or without IB_UVERBS_ADVISE_MR_FLAG_FLUSH (which
 * alone makes a range that cannot be faulted in an error).
 *
 * With IB_ACCESS_HUGETLB, ib_core's umem follows the range in huge pages
 * (umem_odp->page_shift); firmware's umem is of 4 KiB pages all the same
 * (the mkey's page size), from the one that holds the MR's first byte:
 * a fault names 4 KiB pages, each given as its part of the huge page
 * ib_core mapped, and an invalidation takes back the 4 KiB pages it
 * covers.
 *
 * Only the simulated backend offers it (backend odp ops), on explicit
 * MRs and implicit ones (odp_implicit.c), for what firmware's ODP
 * capability page says per transport (query.c; the model's: RC send,
 * receive, SRQ receive, RDMA WRITE, READ and atomics; XRC and DC the
 * same, their receives an SRQ's; UD send and receive).
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "odp.h"

struct mlx5x_odp_fault {
	struct work_struct work;
	struct mlx5x_dev *dev;
	u32 qpn, umem_id;
	u64 off, len;
	bool write;
};

/* The user address of firmware's first page of @odp: 4 KiB pages. */
static u64 mlx5x_odp_base(struct ib_umem_odp *odp)
{
	return ALIGN_DOWN(odp->umem.address, PAGE_SIZE);
}

/* How many 4 KiB pages firmware's umem of @odp has. */
static u64 mlx5x_odp_npages(struct ib_umem_odp *odp)
{
	return (PAGE_ALIGN(odp->umem.address + odp->umem.length) -
		mlx5x_odp_base(odp)) >> PAGE_SHIFT;
}

/*
 * Where @odp's pages sit in firmware's umem of @mr: @odp is the MR's own
 * (explicit ODP), or one of an implicit MR's children, whose firmware
 * umem is the address space itself.
 */
static void mlx5x_odp_span_of(struct mlx5x_mr *mr, struct ib_umem_odp *odp,
			      struct mlx5x_odp_span *span)
{
	span->odp = odp;
	if (mr->imr) {
		span->base = 0;
		span->start = ib_umem_start(odp);
		span->end = ib_umem_end(odp);
		return;
	}
	span->base = mlx5x_odp_base(odp);
	span->start = 0;
	span->end = mlx5x_odp_npages(odp) << PAGE_SHIFT;
}

static bool mlx5x_odp_invalidate(struct mmu_interval_notifier *mni,
				 const struct mmu_notifier_range *range,
				 unsigned long cur_seq)
{
	struct ib_umem_odp *odp = container_of(mni, struct ib_umem_odp,
					       notifier);
	struct mlx5x_mr *mr = odp->private;
	struct mlx5x_odp_span span;
	u64 start, end, zs, ze;

	if (!mmu_notifier_range_blockable(range))
		return false;
	mlx5x_odp_span_of(mr, odp, &span);
	mutex_lock(&odp->umem_mutex);
	mmu_interval_set_seq(mni, cur_seq);
	start = max_t(u64, ib_umem_start(odp), range->start);
	end = min_t(u64, ib_umem_end(odp), range->end);
	if (start < end) {
		/* firmware lets go of the pages first, then they are unmapped */
		zs = max(start, span.base + span.start);
		ze = min(end, span.base + span.end);
		if (zs < ze)
			mr->dev->backend->odp_zap(mr->dev, mr->buf.id,
						  (zs - span.base) >> PAGE_SHIFT,
						  (ze - zs) >> PAGE_SHIFT);
		ib_umem_odp_unmap_dma_pages(odp, start, end);
		if (mr->imr && !odp->npages)
			mlx5x_imr_child_empty(mr);
	}
	mutex_unlock(&odp->umem_mutex);
	return true;
}

const struct mmu_interval_notifier_ops mlx5x_odp_ops = {
	.invalidate = mlx5x_odp_invalidate,
};

/**
 * mlx5x_odp_span_map() - fault pages of an ODP MR in, and give them
 * @dev: the device
 * @mr: the MR
 * @span: the pages of ib_core's umem to take them from
 * @off: the first byte, from firmware's first page of the MR's umem
 * @len: bytes from there
 * @write: for writing too
 * @fault: fault absent pages in, else give those already mapped
 *
 * At most MLX5X_ODP_MAX_PAGES pages from @off's, and none past the span.
 *
 * Return: 0, -EFAULT (outside the span, or a write of a read-only MR, or
 * pages not mapped), -ENOMEM, or what ib_core or the backend says.
 */
int mlx5x_odp_span_map(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
		       const struct mlx5x_odp_span *span, u64 off, u64 len,
		       bool write, bool fault)
{
	struct ib_umem_odp *odp = span->odp;
	u64 in_page = BIT_ULL(odp->page_shift) - 1;
	u64 access = ODP_READ_ALLOWED_BIT;
	u64 first, n, i, va, *ents;
	dma_addr_t d;
	int err;

	if (!len || off < span->start || off >= span->end)
		return -EFAULT;
	if (write) {
		if (!mr->buf.umem->writable)
			return -EFAULT;
		access |= ODP_WRITE_ALLOWED_BIT;
	}
	first = off >> PAGE_SHIFT;
	n = min_t(u64, DIV_ROUND_UP(min(off + len, span->end), PAGE_SIZE) -
		  first, MLX5X_ODP_MAX_PAGES);
	/* no allocation under the umem's mutex, which reclaim may need */
	ents = kcalloc(n, sizeof(*ents), GFP_KERNEL);
	if (!ents)
		return -ENOMEM;
	va = span->base + (first << PAGE_SHIFT);
	err = ib_umem_odp_map_dma_and_lock(odp, va, n << PAGE_SHIFT, access,
					   fault);
	if (err < 0)
		goto out;
	for (i = 0; i < n; i++, va += PAGE_SIZE) {
		/* ib_core's page holding it: 4 KiB, or huge */
		d = odp->dma_list[(va - ib_umem_start(odp)) >> odp->page_shift];
		if (!(d & ODP_READ_ALLOWED_BIT))
			continue;
		/* a snapshot may see a page the CPU writes: not the MR */
		if (!odp->umem.writable)
			d &= ~ODP_WRITE_ALLOWED_BIT;
		ents[i] = ((d & ODP_DMA_ADDR_MASK) + (va & in_page)) |
			  MLX5X_MTT_READ |
			  (d & ODP_WRITE_ALLOWED_BIT ? MLX5X_MTT_WRITE : 0);
	}
	err = dev->backend->odp_map(dev, mr->buf.id, first, n, ents);
	mutex_unlock(&odp->umem_mutex);
out:
	kfree(ents);
	return err;
}

/* mlx5x_odp_span_map() of the span of @mr that holds @off. */
static int mlx5x_odp_map(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
			 u64 off, u64 len, bool write, bool fault)
{
	struct mlx5x_odp_span span;

	if (mr->imr)
		return mlx5x_imr_map(dev, mr, off, len, write, fault);
	mlx5x_odp_span_of(mr, to_ib_umem_odp(mr->buf.umem), &span);
	return mlx5x_odp_span_map(dev, mr, &span, off, len, write, fault);
}

/* Bytes from @off a mlx5x_odp_map() of @mr may give at once. */
static u64 mlx5x_odp_step(struct mlx5x_mr *mr, u64 off)
{
	u64 n = MLX5X_ODP_MAX_PAGES * PAGE_SIZE - offset_in_page(off);

	/* an implicit MR's span is a child's, MLX5X_ODP_MAX_PAGES aligned */
	if (mr->imr)
		n = MLX5X_IMR_CHILD - (off & (MLX5X_IMR_CHILD - 1));
	return n;
}

static void mlx5x_odp_fault_work(struct work_struct *work)
{
	struct mlx5x_odp_fault *f = container_of(work, struct mlx5x_odp_fault,
						 work);
	struct mlx5x_dev *dev = f->dev;
	struct mlx5x_mr *mr;
	int err = -EFAULT;

	mutex_lock(&dev->odp_lock);
	mr = xa_load(&dev->odp_mrs, f->umem_id);
	if (mr)
		err = mlx5x_odp_map(dev, mr, f->off, f->len, f->write, true);
	mutex_unlock(&dev->odp_lock);
	if (err)
		ibdev_dbg(&dev->ib, "ODP fault of QP 0x%x, umem 0x%x at 0x%llx: %d\n",
			  f->qpn, f->umem_id, f->off, err);
	dev->backend->odp_resume(dev, f->qpn, err);
	kfree(f);
}

/**
 * mlx5x_odp_fault() - the device stopped a WQE on an absent page
 * @dev: the device
 * @qpn: the QP, which waits for its resume
 * @umem_id: the umem of the page
 * @off: the page's byte, from the umem's first page
 * @len: bytes the access needed from there
 * @write: it writes
 *
 * Called from the backend where it cannot sleep; the fault is resolved,
 * and the QP resumed, by a work item.
 *
 * Return: true when the fault was taken; false: the access fails.
 */
bool mlx5x_odp_fault(struct mlx5x_dev *dev, u32 qpn, u32 umem_id, u64 off,
		     u64 len, bool write)
{
	struct mlx5x_odp_fault *f = kzalloc(sizeof(*f), GFP_ATOMIC);

	/* not taken: the WQE fails its access, rather than a QP stuck */
	if (!f)
		return false;
	INIT_WORK(&f->work, mlx5x_odp_fault_work);
	f->dev = dev;
	f->qpn = qpn;
	f->umem_id = umem_id;
	f->off = off;
	f->len = len;
	f->write = write;
	queue_work(dev->odp_wq, &f->work);
	return true;
}

/*
 * The ODP MR of @pd that @sge names, the range inside it; dev->odp_lock
 * held.  The errnos are a ConnectX driver's: no ODP MR has that lkey:
 * ENOENT; another PD's, or a write prefetch of a read-only one: EPERM;
 * a range outside the MR: EFAULT.
 */
static struct mlx5x_mr *mlx5x_odp_advised(struct mlx5x_dev *dev,
					  struct ib_pd *pd,
					  const struct ib_sge *sge, bool write)
{
	struct mlx5x_mr *mr, *found = NULL;
	unsigned long id;

	xa_for_each(&dev->odp_mrs, id, mr) {
		if (mr->mkey == sge->lkey) {
			found = mr;
			break;
		}
	}
	if (!found)
		return ERR_PTR(-ENOENT);
	if (found->ib.pd != pd || (write && !found->buf.umem->writable))
		return ERR_PTR(-EPERM);
	if (sge->addr < found->ib.iova ||
	    sge->addr - found->ib.iova > found->ib.length ||
	    sge->length > found->ib.length - (sge->addr - found->ib.iova))
		return ERR_PTR(-EFAULT);
	return found;
}

/*
 * Prefetch the range of @sge, at most MLX5X_ODP_MAX_PAGES pages at a
 * time: the MR is looked up again for each, so a dereg in between ends
 * it, and faults of QPs are served in between.
 */
static int mlx5x_advise_sge(struct mlx5x_dev *dev, struct ib_pd *pd,
			    const struct ib_sge *sge, bool write, bool fault)
{
	u64 done = 0, off, n;
	struct mlx5x_mr *mr;
	int err;

	do {
		if (fatal_signal_pending(current))
			return -EINTR;
		mutex_lock(&dev->odp_lock);
		mr = mlx5x_odp_advised(dev, pd, sge, write);
		err = PTR_ERR_OR_ZERO(mr);
		if (!err && sge->length) {
			off = sge->addr - mr->ib.iova + done +
			      ib_umem_offset(mr->buf.umem);
			n = min_t(u64, sge->length - done,
				  mlx5x_odp_step(mr, off));
			err = mlx5x_odp_map(dev, mr, off, n, write, fault);
			done += n;
		}
		mutex_unlock(&dev->odp_lock);
		cond_resched();
	} while (!err && done < sge->length);
	return err;
}

/**
 * mlx5x_advise_mr() - the advise_mr device operation: prefetch ranges of
 * ODP MRs
 * @pd: the PD the MRs are on
 * @advice: IB_UVERBS_ADVISE_MR_ADVICE_*
 * @flags: IB_UVERBS_ADVISE_MR_FLAG_FLUSH, or 0 (ib_core refuses others)
 * @sg_list: the ranges, each by lkey and address
 * @num_sge: how many (ib_core refuses none)
 * @attrs: the call's attributes (none read)
 *
 * PREFETCH faults the pages in for reading, PREFETCH_WRITE for writing
 * too, PREFETCH_NO_FAULT gives the device those already mapped.  Every
 * range is checked first; then each is done before the call returns.
 * With FLUSH the first range that cannot be faulted in fails the call;
 * without, prefetch is the best effort ibv_advise_mr(3) allows.
 *
 * Return: 0; -EOPNOTSUPP for an advice not known; -ENOENT, -EPERM or
 * -EFAULT for a range (mlx5x_odp_advised()); with FLUSH, -EFAULT for a
 * range not mapped, -ENOMEM, or -EINTR when the caller is killed.
 */
int mlx5x_advise_mr(struct ib_pd *pd, enum ib_uverbs_advise_mr_advice advice,
		    u32 flags, struct ib_sge *sg_list, u32 num_sge,
		    struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_dev *dev = to_mdev(pd->device);
	bool fault = advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT;
	bool write = advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE;
	struct mlx5x_mr *mr;
	int err = 0;
	u32 i;

	if (!mlx5x_odp_offered(dev))
		return -EOPNOTSUPP;
	if (advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
		return -EOPNOTSUPP;
	if (flags & ~IB_UVERBS_ADVISE_MR_FLAG_FLUSH)
		return -EINVAL;
	mutex_lock(&dev->odp_lock);
	for (i = 0; i < num_sge && !err; i++) {
		mr = mlx5x_odp_advised(dev, pd, &sg_list[i], write);
		err = PTR_ERR_OR_ZERO(mr);
	}
	mutex_unlock(&dev->odp_lock);
	for (i = 0; i < num_sge && !err; i++) {
		err = mlx5x_advise_sge(dev, pd, &sg_list[i], write, fault);
		if (!(flags & IB_UVERBS_ADVISE_MR_FLAG_FLUSH) && err != -EINTR)
			err = 0;
	}
	return err;
}

/**
 * mlx5x_odp_umem_create() - an ODP MR's umem in firmware: every page
 * absent
 * @dev: the device
 * @mr: the MR; mr->buf.id is set
 * @nmtt: its 4 KiB pages
 * @offset: the MR's first byte in the first page
 *
 * Return: 0, or a negative errno.
 */
int mlx5x_odp_umem_create(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
			  size_t nmtt, u32 offset)
{
	u32 out[PRM_BYTES(create_umem_out) / 4] = {};
	size_t inlen;
	__be64 *mtt;
	void *in;
	int err;

	in = mlx5x_umem_in(mr->uid, nmtt, offset, &inlen, &mtt);
	if (!in)
		return -ENOMEM;
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	if (!err)
		mr->buf.id = PRM_GET(create_umem_out, out, umem_id);
	kvfree(in);
	return err;
}

/**
 * mlx5x_odp_get() - the pages of an ODP MR, and its umem in firmware
 * @dev: the device
 * @mr: the MR, its uid set
 * @start: the range's user address
 * @length: its length
 * @access: IB_ACCESS_* (IB_ACCESS_ON_DEMAND among them)
 *
 * Return: 0 (mr->buf filled in), or a negative errno.
 */
int mlx5x_odp_get(struct mlx5x_dev *dev, struct mlx5x_mr *mr, u64 start,
		  u64 length, int access)
{
	struct ib_umem_odp *odp;
	int err;

	if (!mlx5x_odp_offered(dev))
		return -EOPNOTSUPP;
	/* implicit ODP: address 0, length SIZE_MAX (odp_implicit.c) */
	if (!start && length == U64_MAX)
		return mlx5x_imr_get(dev, mr, access);
	odp = ib_umem_odp_get(&dev->ib, start, length, access,
			      &mlx5x_odp_ops);
	if (IS_ERR(odp))
		return PTR_ERR(odp);
	odp->private = mr;
	/* the mkey's page count (mr.c) is of the range, as for a pinned MR */
	odp->umem.iova = start;
	mr->dev = dev;
	mr->buf.uid = mr->uid;
	mr->buf.umem = &odp->umem;
	err = mlx5x_odp_umem_create(dev, mr, mlx5x_odp_npages(odp),
				    ib_umem_offset(&odp->umem));
	if (err) {
		ib_umem_release(&odp->umem);
		mr->buf.umem = NULL;
		return err;
	}
	/* the mkey made next is the one object that may name it */
	err = dev->backend->odp_enable(dev, mr->buf.id, odp->umem.writable);
	if (err)
		mlx5x_odp_put(dev, mr);
	return err;
}

/**
 * mlx5x_odp_start() - faults of an ODP MR are served from now on
 * @dev: the device
 * @mr: the MR, its mkey made over its umem
 *
 * Return: 0, or -ENOMEM.
 */
int mlx5x_odp_start(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	int err;

	mutex_lock(&dev->odp_lock);
	err = xa_err(xa_store(&dev->odp_mrs, mr->buf.id, mr, GFP_KERNEL));
	mutex_unlock(&dev->odp_lock);
	return err;
}

/**
 * mlx5x_odp_put() - an ODP MR's mkey is gone: its pages and umem go too
 * @dev: the device
 * @mr: the MR
 *
 * No fault of it is served from now on; firmware lets go of every page
 * before ib_core unmaps them and removes the notifier.
 */
void mlx5x_odp_put(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	struct ib_umem_odp *odp = to_ib_umem_odp(mr->buf.umem);

	mutex_lock(&dev->odp_lock);
	xa_erase(&dev->odp_mrs, mr->buf.id);
	mutex_unlock(&dev->odp_lock);
	if (mr->imr) {
		mlx5x_imr_put(dev, mr);
	} else {
		mutex_lock(&odp->umem_mutex);
		dev->backend->odp_zap(dev, mr->buf.id, 0,
				      mlx5x_odp_npages(odp));
		mutex_unlock(&odp->umem_mutex);
	}
	mlx5x_odp_umem_destroy(dev, mr);
	ib_umem_release(&odp->umem);
	mr->buf.umem = NULL;
}

/**
 * mlx5x_odp_umem_destroy() - an ODP MR's umem in firmware goes
 * @dev: the device
 * @mr: the MR, its mkey gone and its pages taken back
 */
void mlx5x_odp_umem_destroy(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	u32 in[PRM_BYTES(destroy_umem_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_umem_out) / 4] = {};

	PRM_SET(destroy_umem_in, in, opcode, MLX5_CMD_OP_DESTROY_UMEM);
	PRM_SET(destroy_umem_in, in, uid, mr->buf.uid);
	PRM_SET(destroy_umem_in, in, umem_id, mr->buf.id);
	/* nothing else may name it (firmware refuses): only a failure */
	if (mlx5x_cmd_exec(dev, in, sizeof(in), out, sizeof(out)))
		ibdev_err(&dev->ib, "DESTROY_UMEM 0x%x of an ODP MR refused\n",
			  mr->buf.id);
}

/**
 * mlx5x_odp_init() - a device's ODP state
 * @dev: the device
 *
 * Return: 0, or -ENOMEM.
 */
int mlx5x_odp_init(struct mlx5x_dev *dev)
{
	mutex_init(&dev->odp_lock);
	xa_init(&dev->odp_mrs);
	if (!mlx5x_odp_supported(dev))
		return 0;
	dev->odp_wq = alloc_workqueue("mlx5x_odp", WQ_UNBOUND, 0);
	return dev->odp_wq ? 0 : -ENOMEM;
}

/**
 * mlx5x_odp_cleanup() - every fault's work done, before the backend goes
 * @dev: the device
 */
void mlx5x_odp_cleanup(struct mlx5x_dev *dev)
{
	if (dev->odp_wq)
		destroy_workqueue(dev->odp_wq);
	dev->odp_wq = NULL;
	xa_destroy(&dev->odp_mrs);
}
