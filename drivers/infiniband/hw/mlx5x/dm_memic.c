// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MEMIC: memory of the device, reached through a window of its BAR that
 * the process maps (write-combining on hardware) at the page offset
 * libmlx5 computes from the page index returned at allocation.
 *
 * As mlx5_ib does, the driver hands whole pages of the window to each
 * allocation (a bitmap), and firmware places the allocation inside them
 * with the asked alignment (ALLOC_MEMIC).  The allocation lives until
 * ibv_free_dm() and every mapping of it, data or operation window, are
 * gone: each mapping entry holds a reference, and the last one runs
 * DEALLOC_MEMIC.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "dm.h"

static int mlx5x_memic_cmd_alloc(struct mlx5x_dev *dev, u64 range_start,
				 u32 range, u32 size, u32 log_align,
				 u64 *addr)
{
	u32 in[PRM_BYTES(alloc_memic_in) / 4] = {};
	u32 out[PRM_BYTES(alloc_memic_out) / 4] = {};
	int err;

	PRM_SET(alloc_memic_in, in, opcode, MLX5_CMD_OP_ALLOC_MEMIC);
	PRM_SET64(alloc_memic_in, in, range_start_addr, range_start);
	PRM_SET(alloc_memic_in, in, range_size, range);
	PRM_SET(alloc_memic_in, in, memic_size, size);
	PRM_SET(alloc_memic_in, in, log_memic_addr_alignment, log_align);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*addr = PRM_GET64(alloc_memic_out, out, memic_start_addr);
	return err;
}

static void mlx5x_memic_cmd_dealloc(struct mlx5x_dev *dev, u64 addr,
				    u32 size)
{
	u32 in[PRM_BYTES(dealloc_memic_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_memic_out) / 4] = {};

	PRM_SET(dealloc_memic_in, in, opcode, MLX5_CMD_OP_DEALLOC_MEMIC);
	PRM_SET64(dealloc_memic_in, in, memic_start_addr, addr);
	PRM_SET(dealloc_memic_in, in, memic_size, size);
	if (mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)))
		ibdev_err(&dev->ib, "DEALLOC_MEMIC 0x%llx failed: status 0x%x syndrome 0x%x\n",
			  addr, prm_out_status(out), prm_out_syndrome(out));
}

static int mlx5x_memic_cmd_op(struct mlx5x_dev *dev, u64 addr, u8 op,
			      bool alloc, u64 *op_addr)
{
	u32 in[PRM_BYTES(modify_memic_in) / 4] = {};
	u32 out[PRM_BYTES(modify_memic_out) / 4] = {};
	int err;

	PRM_SET(modify_memic_in, in, opcode, MLX5_CMD_OP_MODIFY_MEMIC);
	PRM_SET(modify_memic_in, in, op_mod,
		alloc ? MLX5_MODIFY_MEMIC_OP_MOD_ALLOC :
			MLX5_MODIFY_MEMIC_OP_MOD_DEALLOC);
	PRM_SET(modify_memic_in, in, memic_operation_type, op);
	PRM_SET64(modify_memic_in, in, memic_start_addr, addr);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err && alloc)
		*op_addr = PRM_GET64(modify_memic_out, out,
				     memic_operation_addr);
	return err;
}

/*
 * Whole pages of the window for @size bytes, then firmware's placement in
 * them; a range firmware finds no room in (NO_RESOURCES) is skipped.
 */
static int mlx5x_memic_place(struct mlx5x_dev *dev, u32 size, u32 log_align,
			     u64 *addr)
{
	struct mlx5x_dm_dev *dm = dev->dm;
	u32 npages = DIV_ROUND_UP(size, PAGE_SIZE);
	unsigned long idx = 0;
	int err;

	while (idx < dm->memic_npages) {
		spin_lock(&dm->lock);
		idx = bitmap_find_next_zero_area(dm->memic_pages,
						 dm->memic_npages, idx,
						 npages, 0);
		if (idx < dm->memic_npages)
			bitmap_set(dm->memic_pages, idx, npages);
		spin_unlock(&dm->lock);
		if (idx >= dm->memic_npages)
			break;
		err = mlx5x_memic_cmd_alloc(dev, dm->memic_start +
					    ((u64)idx << PAGE_SHIFT),
					    npages << PAGE_SHIFT, size,
					    log_align, addr);
		if (!err)
			return 0;
		spin_lock(&dm->lock);
		bitmap_clear(dm->memic_pages, idx, npages);
		spin_unlock(&dm->lock);
		if (err != -ENOMEM)
			return err;
		idx++;
	}
	return -ENOMEM;
}

static void mlx5x_memic_unplace(struct mlx5x_dev *dev, u64 addr, u32 size)
{
	struct mlx5x_dm_dev *dm = dev->dm;
	u64 first = (addr - dm->memic_start) >> PAGE_SHIFT;

	mlx5x_memic_cmd_dealloc(dev, addr, size);
	spin_lock(&dm->lock);
	bitmap_clear(dm->memic_pages, first, DIV_ROUND_UP(size, PAGE_SIZE));
	spin_unlock(&dm->lock);
}

/**
 * mlx5x_memic_page_index() - the page index libmlx5 maps an entry by
 * @mm: a device memory mmap entry
 */
u16 mlx5x_memic_page_index(struct mlx5x_mmap_entry *mm)
{
	return mm->rdma.start_pgoff & 0xffff;
}

/* The DM's last reference is gone: give the memory back to firmware. */
static void mlx5x_memic_release(struct kref *ref)
{
	struct mlx5x_dm *dm = container_of(ref, struct mlx5x_dm, ref);

	mlx5x_memic_unplace(to_mdev(dm->ib.device), dm->addr, dm->size);
	mutex_destroy(&dm->ops_lock);
	kfree(dm);
}

/**
 * mlx5x_memic_alloc() - UVERBS_METHOD_DM_ALLOC of MEMIC
 * @uctx: the context
 * @attr: length (bytes) and alignment (log2 bytes) asked for
 * @attrs: the call, for the start offset and page index it returns
 */
struct ib_dm *mlx5x_memic_alloc(struct mlx5x_ucontext *uctx,
				struct ib_dm_alloc_attr *attr,
				struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_dev *dev = to_mdev(uctx->ib.device);
	u32 log_align;
	struct mlx5x_dm *dm;
	u64 offset;
	u16 page_idx;
	int err;

	if (!dev->dm || !MLX5X_CAP_DM(dev, memic))
		return ERR_PTR(-EOPNOTSUPP);
	if (!attr->length || attr->length > MLX5X_CAP_DM(dev, max_memic_size))
		return ERR_PTR(-EINVAL);
	/* firmware aligns to 64 << log_memic_addr_alignment bytes */
	log_align = attr->alignment > DM_MEMIC_BASE_LOG ?
		    attr->alignment - DM_MEMIC_BASE_LOG : 0;
	if (log_align > MLX5X_CAP_DM(dev, log_max_memic_addr_alignment))
		return ERR_PTR(-EINVAL);

	dm = kzalloc(sizeof(*dm), GFP_KERNEL);
	if (!dm)
		return ERR_PTR(-ENOMEM);
	dm->type = MLX5_IB_UAPI_DM_TYPE_MEMIC;
	dm->req_length = attr->length;
	dm->size = round_up(attr->length, DM_MEMIC_BASE_SIZE);
	dm->ib.device = &dev->ib;
	kref_init(&dm->ref);
	mutex_init(&dm->ops_lock);
	err = mlx5x_memic_place(dev, dm->size, log_align, &dm->addr);
	if (err) {
		mutex_destroy(&dm->ops_lock);
		kfree(dm);
		return ERR_PTR(err);
	}
	/* from here on the mapping entry owns the DM: mmap_free frees it */
	dm->mm.type = MLX5X_MMAP_MEMIC;
	err = mlx5x_mmap_entry_insert(&uctx->ib, &dm->mm,
				      offset_in_page(dm->addr) + dm->size);
	if (err) {
		kref_put(&dm->ref, mlx5x_memic_release);
		return ERR_PTR(err);
	}
	page_idx = mlx5x_memic_page_index(&dm->mm);
	offset = offset_in_page(dm->addr);
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX,
			     &page_idx, sizeof(page_idx));
	if (!err)
		err = uverbs_copy_to(attrs,
				     MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET,
				     &offset, sizeof(offset));
	if (err) {
		rdma_user_mmap_entry_remove(&dm->mm.rdma);
		return ERR_PTR(err);
	}
	return &dm->ib;
}

/**
 * mlx5x_memic_dealloc() - ibv_free_dm() of MEMIC
 * @dm: the allocation; freed once its mappings are gone too
 */
void mlx5x_memic_dealloc(struct mlx5x_dm *dm)
{
	unsigned int op;

	mutex_lock(&dm->ops_lock);
	for (op = 0; op < MLX5X_MEMIC_MAX_OPS; op++) {
		if (!dm->ops[op])
			continue;
		rdma_user_mmap_entry_remove(&dm->ops[op]->mm.rdma);
		dm->ops[op] = NULL;
	}
	mutex_unlock(&dm->ops_lock);
	rdma_user_mmap_entry_remove(&dm->mm.rdma);
}

/**
 * mlx5x_memic_map_op() - MLX5_IB_METHOD_DM_MAP_OP_ADDR
 * @dm: a MEMIC allocation
 * @op: the operation (memic_operation_type)
 * @offset: where the window starts in its first page
 * @page_idx: the page index libmlx5 maps it by
 *
 * An operation mapped once is returned again.
 */
int mlx5x_memic_map_op(struct mlx5x_dm *dm, u8 op, u64 *offset,
		       u16 *page_idx)
{
	struct mlx5x_dev *dev = to_mdev(dm->ib.device);
	struct ib_ucontext *uctx = dm->mm.rdma.ucontext;
	struct mlx5x_memic_op *mop;
	int err = 0;

	if (op >= MLX5X_MEMIC_MAX_OPS ||
	    !(MLX5X_CAP_DM(dev, memic_operations) & BIT(op)))
		return -EOPNOTSUPP;
	mutex_lock(&dm->ops_lock);
	mop = dm->ops[op];
	if (mop)
		goto out;
	mop = kzalloc(sizeof(*mop), GFP_KERNEL);
	if (!mop) {
		err = -ENOMEM;
		goto unlock;
	}
	err = mlx5x_memic_cmd_op(dev, dm->addr, op, true, &mop->addr);
	if (err) {
		kfree(mop);
		goto unlock;
	}
	mop->op = op;
	mop->dm = dm;
	mop->mm.type = MLX5X_MMAP_MEMIC_OP;
	kref_get(&dm->ref);
	err = mlx5x_mmap_entry_insert(uctx, &mop->mm,
				      offset_in_page(mop->addr) + dm->size);
	if (err) {
		/* mmap_free was not armed: undo by hand */
		mlx5x_memic_cmd_op(dev, dm->addr, op, false, NULL);
		kfree(mop);
		kref_put(&dm->ref, mlx5x_memic_release);
		goto unlock;
	}
	dm->ops[op] = mop;
out:
	*offset = offset_in_page(mop->addr);
	*page_idx = mlx5x_memic_page_index(&mop->mm);
unlock:
	mutex_unlock(&dm->ops_lock);
	return err;
}

/**
 * mlx5x_dm_mmap() - map device memory: MEMIC or an operation window
 * @uctx: the context
 * @vma: the mapping, as long as the entry
 * @mm: the entry it names
 */
int mlx5x_dm_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma,
		  struct mlx5x_mmap_entry *mm)
{
	struct mlx5x_dev *dev = to_mdev(uctx->device);
	struct mlx5x_memic_op *mop = mm->type == MLX5X_MMAP_MEMIC_OP ?
		container_of(mm, struct mlx5x_memic_op, mm) : NULL;
	u64 addr = mop ? mop->addr : container_of(mm, struct mlx5x_dm, mm)->addr;
	struct mlx5x_uar_trap *trap = NULL;
	unsigned long pfn;
	pgprot_t prot;
	int err;

	err = dev->backend->memic_pfn(dev, addr & PAGE_MASK, &pfn);
	if (err)
		return err;
	/* the model's operation windows trap every access (dm_op_trap.c) */
	if (mop && dev->backend->memic_op) {
		trap = mlx5x_trap_alloc();
		if (!trap)
			return -ENOMEM;
	}
	prot = dev->backend->memic_cached ? vma->vm_page_prot :
		pgprot_writecombine(vma->vm_page_prot);
	err = rdma_user_mmap_io(uctx, vma, pfn, mm->rdma.npages * PAGE_SIZE,
				prot, &mm->rdma);
	if (err) {
		mlx5x_trap_free(trap);
		return err;
	}
	if (trap) {
		/* the trap holds a reference of its own to the entry */
		kref_get(&mm->rdma.ref);
		mlx5x_trap_install(trap, to_mucontext(uctx), vma, &mm->rdma,
				   pfn, mop, false);
	}
	return 0;
}

/**
 * mlx5x_dm_mmap_free() - the last reference to a device memory entry
 * @mm: the entry: the MEMIC itself or an operation window
 */
void mlx5x_dm_mmap_free(struct mlx5x_mmap_entry *mm)
{
	struct mlx5x_memic_op *mop;
	struct mlx5x_dm *dm;

	if (mm->type == MLX5X_MMAP_MEMIC) {
		dm = container_of(mm, struct mlx5x_dm, mm);
		kref_put(&dm->ref, mlx5x_memic_release);
		return;
	}
	mop = container_of(mm, struct mlx5x_memic_op, mm);
	dm = mop->dm;
	if (mlx5x_memic_cmd_op(to_mdev(dm->ib.device), dm->addr, mop->op,
			       false, NULL))
		ibdev_err(dm->ib.device, "MODIFY_MEMIC dealloc op %u failed\n",
			  mop->op);
	kfree(mop);
	kref_put(&dm->ref, mlx5x_memic_release);
}
