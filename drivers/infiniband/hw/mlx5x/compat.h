/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What differs between the kernels mlx5x builds for (Debian 12's 6.1 and
 * bookworm-backports' 6.12), decided by probes of the kernel's headers in
 * Kbuild (MLX5X_HAVE_* / MLX5X_*), never by version numbers.
 */
#ifndef MLX5X_COMPAT_H
#define MLX5X_COMPAT_H

/*
 * The general object command header's log_obj_range: a field of its own
 * in 6.1's mlx5_ifc.h, inside op_param.create in later ones.  Same bits.
 */
#ifdef MLX5X_HAVE_GENERAL_OBJ_OP_PARAM
#define PRM_GENERAL_LOG_OBJ_RANGE	op_param.create.log_obj_range
#else
#define PRM_GENERAL_LOG_OBJ_RANGE	log_obj_range
#endif

/* eventfd_signal() lost its count argument in 6.8 (devx_event_fd.c). */
#ifdef MLX5X_EVENTFD_SIGNAL_NO_COUNT
#define mlx5x_eventfd_signal(ctx)	eventfd_signal(ctx)
#else
#define mlx5x_eventfd_signal(ctx)	eventfd_signal(ctx, 1)
#endif

/* mlx5_core's completion-vector calls were renamed in 6.7 (hw_backend.c). */
#ifdef MLX5X_HAVE_COMP_EQN_GET
#define mlx5x_comp_vectors(mdev)		mlx5_comp_vectors_max(mdev)
#define mlx5x_comp_eqn(mdev, vec, eqn)	mlx5_comp_eqn_get(mdev, vec, eqn)
#else
#define mlx5x_comp_vectors(mdev)		mlx5_comp_vectors_count(mdev)
#define mlx5x_comp_eqn(mdev, vec, eqn)	mlx5_vector2eqn(mdev, vec, eqn)
#endif

/*
 * The create_cq device operation takes the uverbs attribute bundle rather
 * than the udata since 6.11: Kbuild defines MLX5X_CREATE_CQ_TAKES_ATTRS
 * and cq.c and verbs.h declare the operation to match.
 */

/*
 * A fault may hold only its VMA's lock since 6.4: a VMA's operations are
 * changed with that lock written too (uar_trap.c).
 */
#ifdef MLX5X_HAVE_VMA_START_WRITE
#define mlx5x_vma_start_write(vma)	vma_start_write(vma)
#else
#define mlx5x_vma_start_write(vma)	do { } while (0)
#endif

/* vm_flags change through vm_flags_*() since 6.3 (so, with the above) */
#ifdef MLX5X_HAVE_VMA_START_WRITE
#define mlx5x_vm_flags_clear(vma, f)	vm_flags_clear(vma, f)
#else
#define mlx5x_vm_flags_clear(vma, f)	((vma)->vm_flags &= ~(f))
#endif

#endif /* MLX5X_COMPAT_H */
