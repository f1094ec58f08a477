/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Device memory (ibv_alloc_dm / mlx5dv_alloc_dm): MEMIC and the SW ICM
 * kinds.  dm_dev.c holds what a device knows of its device memory,
 * dm.c the uverbs methods, dm_memic.c MEMIC and its mappings, dm_icm.c
 * the SW ICM ranges (carved by the backend), dm_mr.c the MRs over device
 * memory.
 */
#ifndef MLX5X_DM_H
#define MLX5X_DM_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <rdma/mlx5x_user_ioctl_verbs.h>
#include "mlx5x.h"
#include "dm_prm.h"

/*
 * The SW ICM regions, numbered as mlx5_core's enum mlx5_sw_icm_type so
 * that a backend over mlx5_core passes them through.  Where they are and
 * how much of them is taken is the backend's to know (icm_alloc).
 */
enum mlx5x_icm_type {
	MLX5X_ICM_STEERING,
	MLX5X_ICM_HDR_MODIFY,
	MLX5X_ICM_HDR_MODIFY_PATTERN,
	MLX5X_ICM_ENCAP,
	MLX5X_ICM_NTYPES,
};

/**
 * struct mlx5x_dm_dev - what a device knows of its device memory
 * @cap: the device memory capability page, as QUERY_HCA_CAP reported it
 * @lock: protects @memic_pages
 * @memic_start: BAR offset of the MEMIC window
 * @memic_npages: its size in pages
 * @memic_pages: pages of it given to allocations (as mlx5_ib keeps them)
 * @log_granule: SW ICM allocation granule, which lengths are rounded to
 */
struct mlx5x_dm_dev {
	void *cap;
	spinlock_t lock;
	u64 memic_start;
	u32 memic_npages;
	unsigned long *memic_pages;
	u32 log_granule;
};

#define MLX5X_CAP_DM(dev, fld) PRM_GET(device_mem_cap, (dev)->dm->cap, fld)
#define MLX5X_CAP64_DM(dev, fld) PRM_GET64(device_mem_cap, (dev)->dm->cap, fld)

/* Operations libmlx5 may map over one MEMIC allocation (op < 32). */
#define MLX5X_MEMIC_MAX_OPS	32

struct mlx5x_dm;

/* The mapping of one operation window over a MEMIC allocation. */
struct mlx5x_memic_op {
	struct mlx5x_mmap_entry mm;
	struct mlx5x_dm *dm;	/* holds a reference */
	u64 addr;		/* BAR offset of the window */
	u8 op;
};

/**
 * struct mlx5x_dm - one device memory allocation
 * @ib: ib_core's view
 * @type: MLX5_IB_UAPI_DM_TYPE_*
 * @size: bytes allocated (rounded up from what was asked)
 * @addr: BAR offset (MEMIC) or ICM address (SW ICM)
 * @req_length: bytes asked for (MEMIC: DM_QUERY returns it)
 * @mm: MEMIC: the mapping of the memory; the allocation outlives
 *	ibv_free_dm() until its last mapping is gone
 * @ref: MEMIC: held by @mm and by each operation window
 * @ops_lock: MEMIC: protects @ops
 * @ops: MEMIC: operation windows mapped, by operation
 * @obj_id: SW ICM: the SW_ICM object
 * @uid: SW ICM: its owner
 */
struct mlx5x_dm {
	struct ib_dm ib;
	u32 type;
	u64 size;
	u64 addr;
	u64 req_length;
	struct mlx5x_mmap_entry mm;
	struct kref ref;
	struct mutex ops_lock;
	struct mlx5x_memic_op *ops[MLX5X_MEMIC_MAX_OPS];
	u32 obj_id;
	u16 uid;
};

static inline struct mlx5x_dm *to_mdm(struct ib_dm *ib)
{
	return container_of(ib, struct mlx5x_dm, ib);
}

/* dm_memic.c */
struct ib_dm *mlx5x_memic_alloc(struct mlx5x_ucontext *uctx,
				struct ib_dm_alloc_attr *attr,
				struct uverbs_attr_bundle *attrs);
void mlx5x_memic_dealloc(struct mlx5x_dm *dm);
u16 mlx5x_memic_page_index(struct mlx5x_mmap_entry *mm);
int mlx5x_memic_map_op(struct mlx5x_dm *dm, u8 op, u64 *offset,
		       u16 *page_idx);

/* dm_icm.c */
struct ib_dm *mlx5x_sw_icm_alloc(struct mlx5x_ucontext *uctx,
				 struct ib_dm_alloc_attr *attr,
				 struct uverbs_attr_bundle *attrs, u32 type);
int mlx5x_sw_icm_dealloc(struct mlx5x_dm *dm);

#endif /* MLX5X_DM_H */
