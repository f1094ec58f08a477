/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * What <rdma/mlx5_user_ioctl_verbs.h> of the kernel mlx5x is built for
 * may lack, with the numbers upstream gives it.  Kbuild defines
 * MLX5X_HAVE_DM_TYPE_ENCAP_SW_ICM when the kernel's header has it.
 */
#ifndef MLX5X_USER_IOCTL_VERBS_H
#define MLX5X_USER_IOCTL_VERBS_H

#include <rdma/mlx5_user_ioctl_verbs.h>

#ifndef MLX5X_HAVE_DM_TYPE_ENCAP_SW_ICM
/* enum mlx5_ib_uapi_dm_type, since Linux 6.5 */
#define MLX5_IB_UAPI_DM_TYPE_ENCAP_SW_ICM	4
#endif

#endif /* MLX5X_USER_IOCTL_VERBS_H */
