// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Doorbells of the simulated device: a process's store to its UAR page
 * traps into the driver.
 *
 * A UAR page of the model is ordinary memory, so the doorbell libmlx5
 * writes there after its doorbell record reaches nothing; the model's
 * worker had to poll the records, and a process that spins on its CQ
 * waited for the worker to get a CPU.  Here each mapping of a UAR page
 * is *armed*: it has no page table entry, so the next store to it
 * faults.  The fault handler has the model execute what the doorbell
 * records announce there and then, on the storing process's CPU
 * (mlx5x_sim_rung()), and steps the process past its store, which the
 * model has no use for (uar_emul.c): the mapping stays armed, and every
 * doorbell traps.  An access that is not a plain store of the process (a
 * load, a string instruction, the kernel's own access) gets the page
 * mapped instead.  The mapping is then *disarmed*: further stores do not
 * trap, and the worker polls for them as before, until it arms the
 * mappings again (mlx5x_uar_trap_rearm(): the page table entry zapped).
 *
 * The mapping is made by rdma_user_mmap_io() as any other, so ib_core
 * tracks it and zaps it on disassociation; its operations are then
 * wrapped by ours, which call the core's for open and close.  On
 * disassociation the core's operations are put back (under the mmap
 * lock, written), so that no mapping refers to this module's code once
 * the device is gone.
 *
 * A mapping of a MEMIC operation window (dm_op_trap.c) is a trap too,
 * armed for good: its every access is the operation the window stands
 * for, never memory.  So is a mapping of the core clock page (clock.c):
 * its every load reads the device's clock.
 */
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "compat.h"
#include "mlx5x.h"

/**
 * struct mlx5x_uar_trap - one mapping of a UAR page that traps stores
 * @node: on the device's traps, under its trap_lock
 * @dev: the device
 * @uctx: the context the page belongs to
 * @vma: the mapping; valid while @node is on the list
 * @mm: its address space (mmgrab()ed)
 * @entry: a reference to the page's mmap entry, so the page outlives
 *	   the core's own reference, which disassociation drops first
 * @core_ops: the core's operations, put back on disassociation
 * @core_priv: and its private data
 * @pfn: the page
 * @len: bytes of the mapping
 * @op: a MEMIC operation window's, or NULL
 * @clock: the core clock page's (no @entry: the page is no object)
 * @armed: no page table entry: the next access faults
 */
struct mlx5x_uar_trap {
	struct list_head node;
	struct mlx5x_dev *dev;
	struct mlx5x_ucontext *uctx;
	struct vm_area_struct *vma;
	struct mm_struct *mm;
	struct rdma_user_mmap_entry *entry;
	const struct vm_operations_struct *core_ops;
	void *core_priv;
	unsigned long pfn;
	unsigned long len;
	struct mlx5x_memic_op *op;
	bool clock;
	bool armed;
};

/* A trap with no page ever mapped: each access is served by a fault. */
static bool mlx5x_trap_for_good(const struct mlx5x_uar_trap *trap)
{
	return trap->op || trap->clock;
}

/*
 * Whether byte @off of a UAR page is in one of its doorbell registers:
 * the CQs' (0x20, 8 bytes) or the four BlueFlame registers from 0x800.
 * The rest of the page is left as memory: what a process stores there
 * it reads back.
 */
static bool mlx5x_uar_doorbell(struct mlx5x_dev *dev, unsigned long off)
{
	unsigned long bf = 1UL << MLX5X_CAP_GEN(dev, log_bf_reg_size);

	return (off >= 0x20 && off < 0x28) ||
	       (off >= 0x800 && off < 0x800 + 4 * bf);
}

/*
 * The queue a doorbell at byte @off names, from what the store wrote:
 * a send queue's doorbell (a BlueFlame register, from 0x800) carries the
 * first 8 bytes of the posted WQE's control segment, whose second
 * big-endian word is the QP (or SQ) number over the WQE's size in
 * segments, as a ConnectX reads it.  MLX5X_RUNG_ANY for a CQ's doorbell,
 * or a store whose bytes were not read.
 */
static u32 mlx5x_uar_db_qpn(unsigned long off,
			    const struct mlx5x_uar_store *st)
{
	__le64 bytes = cpu_to_le64(st->val);
	__be32 qpn_ds;

	if (!st->known || off < 0x800 || !IS_ALIGNED(off, sizeof(bytes)))
		return MLX5X_RUNG_ANY;
	memcpy(&qpn_ds, (u8 *)&bytes + sizeof(qpn_ds), sizeof(qpn_ds));
	return be32_to_cpu(qpn_ds) >> 8;
}

/* Takes away @trap's page table entry; the trap lock held. */
static bool mlx5x_uar_trap_arm(struct mlx5x_uar_trap *trap)
{
	struct mm_struct *mm = trap->mm;

	if (trap->armed)
		return true;
	if (!mmget_not_zero(mm))
		return false;
	/* the fault path holds its own mmap lock before the trap lock */
	if (!mmap_read_trylock(mm)) {
		mmput_async(mm);
		return false;
	}
	zap_vma_ptes(trap->vma, trap->vma->vm_start, trap->len);
	trap->armed = true;
	mmap_read_unlock(mm);
	mmput_async(mm);
	return true;
}

/**
 * mlx5x_uar_trap_rearm() - arm every mapping of the device's UAR pages
 * @ctx: the device
 *
 * Called by the model's worker before it polls (mlx5x_sim_set_idle_
 * handler()): a doorbell rung on a mapping armed before the poll is
 * either in its record when the poll looks, or traps.
 *
 * Return: true when every mapping is armed, so that the worker need not
 * poll for doorbells; false when one could not be (its address space
 * busy or going away).
 */
bool mlx5x_uar_trap_rearm(void *ctx)
{
	struct mlx5x_dev *dev = ctx;
	struct mlx5x_uar_trap *trap;
	bool all = true;

	mutex_lock(&dev->trap_lock);
	list_for_each_entry(trap, &dev->traps, node)
		all &= mlx5x_uar_trap_arm(trap);
	mutex_unlock(&dev->trap_lock);
	return all;
}

/*
 * An access to an armed mapping.  The records were written before the
 * store that brought us here, so the model serves the doorbell now, from
 * this process.  A plain store of the process to a doorbell register is
 * stepped over and the mapping stays armed (uar_emul.c); anything else
 * gets the page, and the worker polls until it has armed the mapping
 * again.
 */
static vm_fault_t mlx5x_uar_trap_fault(struct vm_fault *vmf)
{
	unsigned long off = offset_in_page(vmf->real_address);
	struct vm_area_struct *vma = vmf->vma;
	struct mlx5x_uar_trap *trap = vma->vm_private_data;
	struct mlx5x_dev *dev = trap->dev;
	u16 uid = trap->uctx->devx_uid;
	struct mlx5x_uar_store st;
	vm_fault_t ret;

	if (trap->op)
		return mlx5x_memic_op_fault(vmf, trap->op);
	if (trap->clock)
		return mlx5x_core_clock_fault(vmf, dev);
	if (mlx5x_uar_doorbell(dev, off) &&
	    mlx5x_uar_emulate_store(vmf, &st)) {
		/* a context without DEVX has its queues made as the kernel's */
		dev->backend->rung(dev, false, uid,
				   uid ? mlx5x_uar_db_qpn(off, &st) :
					 MLX5X_RUNG_ANY);
		return VM_FAULT_NOPAGE;
	}
	mutex_lock(&dev->trap_lock);
	ret = vmf_insert_pfn_prot(vma, vma->vm_start, trap->pfn,
				  vma->vm_page_prot);
	trap->armed = false;
	mutex_unlock(&dev->trap_lock);
	dev->backend->rung(dev, true, uid, MLX5X_RUNG_ANY);
	return ret;
}

static void mlx5x_uar_trap_free(struct mlx5x_uar_trap *trap)
{
	if (trap->entry)
		rdma_user_mmap_entry_put(trap->entry);
	mmdrop(trap->mm);
	kfree(trap);
}

/* The mapping goes (munmap, exit): the core's close runs too. */
static void mlx5x_uar_trap_close(struct vm_area_struct *vma)
{
	struct mlx5x_uar_trap *trap = vma->vm_private_data;
	struct mlx5x_dev *dev = trap->dev;

	mutex_lock(&dev->trap_lock);
	list_del(&trap->node);
	mutex_unlock(&dev->trap_lock);
	vma->vm_private_data = trap->core_priv;
	if (trap->core_ops->close)
		trap->core_ops->close(vma);
	mlx5x_uar_trap_free(trap);
}

/*
 * Make @trap one for @vma, which the core's operations @core_ops and its
 * current private data track, over @pfn of @entry (whose reference the
 * caller gives it, if any), for operation window @op, the core clock
 * page (@clock) or a UAR page (neither).
 */
static void mlx5x_uar_trap_init(struct mlx5x_uar_trap *trap,
				struct mlx5x_ucontext *uctx,
				struct vm_area_struct *vma,
				struct rdma_user_mmap_entry *entry,
				const struct vm_operations_struct *core_ops,
				unsigned long pfn, struct mlx5x_memic_op *op,
				bool clock)
{
	trap->dev = to_mdev(uctx->ib.device);
	trap->uctx = uctx;
	trap->vma = vma;
	trap->mm = vma->vm_mm;
	mmgrab(trap->mm);
	trap->entry = entry;
	trap->core_ops = core_ops;
	trap->core_priv = vma->vm_private_data;
	trap->pfn = pfn;
	trap->len = vma->vm_end - vma->vm_start;
	trap->op = op;
	trap->clock = clock;
}

/* @trap becomes its mapping's and the device's; @armed: no PTE now. */
static void mlx5x_uar_trap_add(struct mlx5x_uar_trap *trap, bool armed)
{
	struct mlx5x_dev *dev = trap->dev;

	trap->armed = armed;
	trap->vma->vm_private_data = trap;
	mutex_lock(&dev->trap_lock);
	list_add_tail(&trap->node, &dev->traps);
	mutex_unlock(&dev->trap_lock);
}

/*
 * The mapping is copied into a child (fork()): the core tracks the copy,
 * and the copy gets a trap of its own.  It may have the page mapped.
 * Without memory for one, the copy is left to the core alone, and the
 * worker polls for what the child rings there.
 */
static void mlx5x_uar_trap_open(struct vm_area_struct *vma)
{
	struct mlx5x_uar_trap *parent = vma->vm_private_data;
	struct mlx5x_uar_trap *trap = NULL;

	vma->vm_private_data = parent->core_priv;
	if (parent->core_ops->open)
		parent->core_ops->open(vma);
	if (vma->vm_private_data)
		trap = kzalloc(sizeof(*trap), GFP_KERNEL);
	if (!trap) {
		/* or the device is going: the core's mapping then */
		vma->vm_ops = parent->core_ops;
		return;
	}
	mlx5x_uar_trap_init(trap, parent->uctx, vma, parent->entry,
			    parent->core_ops, parent->pfn, parent->op,
			    parent->clock);
	if (parent->entry)
		kref_get(&parent->entry->ref);
	/* an operation window or the clock never has a page to copy */
	mlx5x_uar_trap_add(trap, mlx5x_trap_for_good(trap));
}

/* A mapping is neither moved nor split: a trap covers it whole. */
static int mlx5x_uar_trap_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

static int mlx5x_uar_trap_split(struct vm_area_struct *vma,
				unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct mlx5x_uar_trap_ops = {
	.open = mlx5x_uar_trap_open,
	.close = mlx5x_uar_trap_close,
	.fault = mlx5x_uar_trap_fault,
	.mremap = mlx5x_uar_trap_mremap,
	.may_split = mlx5x_uar_trap_split,
};

/**
 * mlx5x_trap_install() - make a fresh mapping a trap
 * @trap: from mlx5x_trap_alloc(), allocated before the mapping was made,
 *	  so that nothing is left to fail once it is
 * @uctx: the context
 * @vma: the mapping, just made by rdma_user_mmap_io()
 * @entry: its entry, whose reference the trap takes over; NULL for the
 *	   core clock page
 * @pfn: its first page
 * @op: the MEMIC operation window it maps, or NULL
 * @clock: it maps the core clock page (clock.c); with neither, a UAR page
 */
void mlx5x_trap_install(struct mlx5x_uar_trap *trap,
			struct mlx5x_ucontext *uctx,
			struct vm_area_struct *vma,
			struct rdma_user_mmap_entry *entry, unsigned long pfn,
			struct mlx5x_memic_op *op, bool clock)
{
	mlx5x_uar_trap_init(trap, uctx, vma, entry, vma->vm_ops, pfn, op,
			    clock);
	/* mmap runs with the mmap lock written: no access races this */
	zap_vma_ptes(vma, vma->vm_start, trap->len);
	vma->vm_ops = &mlx5x_uar_trap_ops;
	mlx5x_uar_trap_add(trap, true);
}

/* A trap to install, or NULL without memory. */
struct mlx5x_uar_trap *mlx5x_trap_alloc(void)
{
	return kzalloc(sizeof(struct mlx5x_uar_trap), GFP_KERNEL);
}

/* A trap that was not installed. */
void mlx5x_trap_free(struct mlx5x_uar_trap *trap)
{
	kfree(trap);
}

/**
 * mlx5x_uar_trap_mmap() - make a fresh mapping of a UAR page trap
 * @uctx: the context
 * @vma: the mapping, just made by rdma_user_mmap_io()
 * @entry: the page's entry, whose reference the trap takes over on success
 * @pfn: the page
 *
 * Return: 0, or -ENOMEM (the mapping is then left as the core made it).
 */
int mlx5x_uar_trap_mmap(struct mlx5x_ucontext *uctx,
			struct vm_area_struct *vma,
			struct rdma_user_mmap_entry *entry, unsigned long pfn)
{
	struct mlx5x_uar_trap *trap = mlx5x_trap_alloc();

	if (!trap)
		return -ENOMEM;
	mlx5x_trap_install(trap, uctx, vma, entry, pfn, NULL, false);
	return 0;
}

/* The first trap of @uctx, or NULL. */
static struct mlx5x_uar_trap *mlx5x_uar_trap_of(struct mlx5x_ucontext *uctx)
{
	struct mlx5x_dev *dev = to_mdev(uctx->ib.device);
	struct mlx5x_uar_trap *trap;

	list_for_each_entry(trap, &dev->traps, node)
		if (trap->uctx == uctx)
			return trap;
	return NULL;
}

/**
 * mlx5x_uar_trap_disassociate() - the device goes: give mappings back
 * @uctx: the context being disassociated
 *
 * The core has zapped the context's mappings and dropped its references
 * (uverbs_user_mmap_disassociate()).  Each of ours gets the core's
 * operations back, which map a page of zeroes from now on, and its page
 * reference is dropped.  A mapping whose address space is on its way
 * out is waited for: its close is near and needs the device.
 */
void mlx5x_uar_trap_disassociate(struct mlx5x_ucontext *uctx)
{
	struct mlx5x_dev *dev = to_mdev(uctx->ib.device);
	struct mlx5x_uar_trap *trap, *next;
	struct mm_struct *mm;

	for (;;) {
		mutex_lock(&dev->trap_lock);
		trap = mlx5x_uar_trap_of(uctx);
		mm = trap ? trap->mm : NULL;
		if (mm && !mmget_not_zero(mm)) {
			mutex_unlock(&dev->trap_lock);
			usleep_range(1000, 2000);
			continue;
		}
		mutex_unlock(&dev->trap_lock);
		if (!mm)
			return;
		mmap_write_lock(mm);
		mutex_lock(&dev->trap_lock);
		list_for_each_entry_safe(trap, next, &dev->traps, node) {
			struct vm_area_struct *vma = trap->vma;

			if (trap->uctx != uctx || trap->mm != mm)
				continue;
			mlx5x_vma_start_write(vma);
			zap_vma_ptes(vma, vma->vm_start, trap->len);
			vma->vm_ops = trap->core_ops;
			vma->vm_private_data = trap->core_priv;
			list_del(&trap->node);
			mlx5x_uar_trap_free(trap);
		}
		mutex_unlock(&dev->trap_lock);
		mmap_write_unlock(mm);
		mmput(mm);
	}
}
