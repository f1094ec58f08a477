// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The clock info page (struct mlx5_ib_clock_info, MLX5_IB_CLOCK_INFO_V1):
 * what mlx5dv_get_clock_info() reads and mlx5dv_ts_to_ns() applies to
 * turn a CQE's timestamp, the device's free-running clock, into
 * CLOCK_REALTIME nanoseconds.  A device whose backend has a clock it
 * can read (the model's, 1 GHz) offers the page; libmlx5 maps it
 * read-only at page offset MLX5_IB_MMAP_CLOCK_INFO << 8 | V1.
 *
 * The page pairs a device clock value (cycles) with the real time at
 * it (nsec); one cycle is one nanosecond (mult 1, shift 0).  It is
 * refreshed whenever a context opens, under the sign counter libmlx5
 * retries on, so a setting of the real-time clock is seen by the
 * contexts opened after it.
 *
 * The core clock page (MLX5_IB_MMAP_CORE_CLOCK): on a ConnectX, the page
 * of the initialisation segment that holds the internal timer, the
 * free-running clock itself as two big-endian words (internal_timer_h at
 * the page's hca_core_clock_offset, internal_timer_l after it), which
 * libmlx5 reads for ibv_query_rt_values_ex().  The model's clock is no
 * memory a page could hold, so the mapping is a trap armed for good
 * (uar_trap.c), as MEMIC's operation windows are: every load from it
 * faults, reads the clock there and then, and gets its bytes.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/timekeeping.h>
#include <rdma/mlx5-abi.h>
#include "compat.h"
#include "mlx5x.h"

/* sign: odd while the page is being written */
#define MLX5X_CLOCK_UPDATING	1

/**
 * mlx5x_clock_init() - make the clock info page, if the backend has a
 *			clock
 * @dev: the device, its caps read
 *
 * Return: 0 (no page where the backend has no clock) or -ENOMEM.
 */
int mlx5x_clock_init(struct mlx5x_dev *dev)
{
	spin_lock_init(&dev->clock_lock);
	if (!dev->backend->clock_ns ||
	    MLX5X_CAP_GEN(dev, device_frequency_khz) != 1000000)
		return 0;
	dev->clock_info = (void *)get_zeroed_page(GFP_KERNEL);
	if (!dev->clock_info)
		return -ENOMEM;
	dev->clock_info->mult = 1;
	dev->clock_info->shift = 0;
	dev->clock_info->mask = 0x7fffffffffffffffULL;
	/* it never wraps in practice: the period is the mask's */
	dev->clock_info->overflow_period = dev->clock_info->mask;
	mlx5x_clock_update(dev);
	return 0;
}

void mlx5x_clock_cleanup(struct mlx5x_dev *dev)
{
	free_page((unsigned long)dev->clock_info);
	dev->clock_info = NULL;
}

/*
 * How many times the pairing below may read the device's clock, and the
 * bracket that is narrow enough to stop at.
 */
#define MLX5X_CLOCK_PAIR_TRIES	8
#define MLX5X_CLOCK_PAIR_NS	(20 * NSEC_PER_USEC)

/*
 * Read the device's clock between two reads of the monotonic clock and
 * give the real time of the bracket's midpoint: one reading is then off
 * by at most half the bracket.  A vCPU (or a CPU taken by an SMI) that
 * stops between two plain reads would skew the page by as long as it
 * stopped, for every later conversion; so a wide bracket is read again,
 * and the narrowest of the tries wins.
 */
static void mlx5x_clock_pair(struct mlx5x_dev *dev, u64 *cycles, u64 *real)
{
	u64 width = U64_MAX, mid = 0;
	int i;

	for (i = 0; i < MLX5X_CLOCK_PAIR_TRIES && width > MLX5X_CLOCK_PAIR_NS;
	     i++) {
		u64 t0 = ktime_get_ns();
		u64 c = dev->backend->clock_ns(dev);
		u64 t1 = ktime_get_ns();

		if (t1 - t0 < width) {
			width = t1 - t0;
			mid = t0 + width / 2;
			*cycles = c;
		}
	}
	*real = ktime_to_ns(ktime_mono_to_real(ns_to_ktime(mid)));
}

/**
 * mlx5x_clock_update() - pair the device's clock with the real time now
 * @dev: the device
 */
void mlx5x_clock_update(struct mlx5x_dev *dev)
{
	struct mlx5_ib_clock_info *ci = dev->clock_info;
	unsigned long flags;
	u64 cycles, real;
	u32 sign;

	if (!ci)
		return;
	/* outside the lock: the tries may take a while on a slow clock */
	mlx5x_clock_pair(dev, &cycles, &real);
	spin_lock_irqsave(&dev->clock_lock, flags);
	sign = ci->sign;
	/* odd before the fields change: a reader retries */
	smp_store_mb(ci->sign, sign | MLX5X_CLOCK_UPDATING);
	ci->cycles = cycles;
	ci->nsec = real;
	ci->frac = 0;
	/* the fields before the sign that says they are whole */
	smp_store_release(&ci->sign, sign + 2 * MLX5X_CLOCK_UPDATING);
	spin_unlock_irqrestore(&dev->clock_lock, flags);
}

/**
 * mlx5x_clock_mmap() - map the clock info page, read-only
 * @dev: the device
 * @vma: one shared page at MLX5_IB_MMAP_CLOCK_INFO << 8 | version
 *
 * Return: 0; -EINVAL for another length or a private mapping;
 * -EOPNOTSUPP for another version or a device without the page; -EPERM
 * for a writable or executable mapping (as mlx5_ib).
 */
int mlx5x_clock_mmap(struct mlx5x_dev *dev, struct vm_area_struct *vma)
{
	if (vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if ((vma->vm_pgoff & 0xff) != MLX5_IB_CLOCK_INFO_V1 || !dev->clock_info)
		return -EOPNOTSUPP;
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	mlx5x_vm_flags_clear(vma, VM_MAYWRITE);
	return vm_insert_page(vma, vma->vm_start,
			      virt_to_page(dev->clock_info));
}

/**
 * mlx5x_core_clock_fault() - a load from a mapping of the core clock page
 * @vmf: the fault
 * @dev: the device
 *
 * The internal timer's eight bytes, big endian from the page's first
 * byte: a plain load (MOV, MOVZX, MOVSX) of the process, naturally
 * aligned, within them, gets what they hold at the load, as a ConnectX's
 * register read does.  Anything else (a load of the page's other,
 * reserved bytes, a misaligned or SSE load, the kernel's own access) is
 * an access the model does not decode: SIGBUS (EFAULT for the kernel's).
 * Stores never get here: the mapping is read-only.
 *
 * Return: VM_FAULT_NOPAGE when the load was served and stepped over,
 * else VM_FAULT_SIGBUS.
 */
vm_fault_t mlx5x_core_clock_fault(struct vm_fault *vmf, struct mlx5x_dev *dev)
{
	unsigned long off = vmf->real_address - vmf->vma->vm_start;
	struct mlx5x_emul_insn in;
	__be64 timer;
	__le64 val = 0;

	if (!mlx5x_emul_decode(vmf, &in) || !in.load || !in.size ||
	    off >= sizeof(timer) || in.size > sizeof(timer) - off ||
	    !IS_ALIGNED(off, in.size))
		return VM_FAULT_SIGBUS;
	timer = cpu_to_be64(dev->backend->clock_ns(dev));
	/* the register gets the bytes as a load from memory would */
	memcpy(&val, (u8 *)&timer + off, in.size);
	mlx5x_emul_finish(&in, le64_to_cpu(val));
	return VM_FAULT_NOPAGE;
}

/**
 * mlx5x_core_clock_mmap() - map the core clock page, read-only
 * @uctx: the context
 * @vma: one shared page at MLX5_IB_MMAP_CORE_CLOCK << 8
 *
 * The mapping is made over the zero page (nothing of the device's or
 * the kernel's), whose entry the trap then takes away for good.
 *
 * Return: 0; -EOPNOTSUPP on a device without a clock; -EINVAL for
 * another length or a private mapping; -EPERM for a writable one (as
 * mlx5_ib); -ENOMEM.
 */
int mlx5x_core_clock_mmap(struct mlx5x_ucontext *uctx,
			  struct vm_area_struct *vma)
{
	struct mlx5x_dev *dev = to_mdev(uctx->ib.device);
	unsigned long pfn = page_to_pfn(ZERO_PAGE(0));
	struct mlx5x_uar_trap *trap;
	int err;

	if (!dev->clock_info)
		return -EOPNOTSUPP;
	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	mlx5x_vm_flags_clear(vma, VM_MAYWRITE);
	trap = mlx5x_trap_alloc();
	if (!trap)
		return -ENOMEM;
	err = rdma_user_mmap_io(&uctx->ib, vma, pfn, PAGE_SIZE,
				vma->vm_page_prot, NULL);
	if (err) {
		mlx5x_trap_free(trap);
		return err;
	}
	mlx5x_trap_install(trap, uctx, vma, NULL, pfn, NULL, true);
	return 0;
}
