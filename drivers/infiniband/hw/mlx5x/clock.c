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
 */
#include <linux/gfp.h>
#include <linux/mm.h>
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
