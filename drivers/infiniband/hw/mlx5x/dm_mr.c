// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_reg_dm_mr(): an mkey over device memory, access mode MEMIC (its
 * start address the BAR offset) or SW_ICM (the ICM address), with no
 * translation table.  The mkey belongs to the PD's owner; firmware checks
 * that the range lies in one allocation and holds it while the mkey
 * lives.
 */
#include <linux/slab.h>
#include "dm.h"

#define MLX5X_DM_MEMIC_ACCESS	(IB_ACCESS_LOCAL_WRITE | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_READ | \
				 IB_ACCESS_REMOTE_ATOMIC | IB_ZERO_BASED)
#define MLX5X_DM_SW_ICM_ACCESS	(IB_ACCESS_LOCAL_WRITE | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_READ | IB_ZERO_BASED)

static int mlx5x_dm_mkey(struct mlx5x_dev *dev, struct mlx5x_pd *pd,
			 u8 mode, u64 start, u64 length, int acc, u32 *mkey)
{
	u32 in[PRM_BYTES(create_mkey_in) / 4] = {};
	u32 out[PRM_BYTES(create_mkey_out) / 4] = {};
	void *mkc = PRM_ADDR(create_mkey_in, in, memory_key_mkey_entry);
	int err;

	PRM_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	PRM_SET(create_mkey_in, in, uid, pd->uid);
	PRM_SET(mkc, mkc, access_mode_1_0, mode & 0x3);
	PRM_SET(mkc, mkc, access_mode_4_2, mode >> 2);
	PRM_SET(mkc, mkc, a, !!(acc & IB_ACCESS_REMOTE_ATOMIC));
	PRM_SET(mkc, mkc, rw, !!(acc & IB_ACCESS_REMOTE_WRITE));
	PRM_SET(mkc, mkc, rr, !!(acc & IB_ACCESS_REMOTE_READ));
	PRM_SET(mkc, mkc, lw, !!(acc & IB_ACCESS_LOCAL_WRITE));
	PRM_SET(mkc, mkc, lr, 1);
	PRM_SET(mkc, mkc, qpn, 0xffffff);
	PRM_SET(mkc, mkc, pd, pd->pdn);
	PRM_SET64(mkc, mkc, start_addr, start);
	PRM_SET64(mkc, mkc, len, length);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*mkey = PRM_GET(create_mkey_out, out, mkey_index) << 8;
	return err;
}

/**
 * mlx5x_reg_dm_mr() - the reg_dm_mr device operation
 * @ibpd: the PD
 * @ibdm: the DM; ib_core checked that offset and length lie in it
 * @attr: offset, length and access flags
 * @attrs: the call
 */
struct ib_mr *mlx5x_reg_dm_mr(struct ib_pd *ibpd, struct ib_dm *ibdm,
			      struct ib_dm_mr_attr *attr,
			      struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_dev *dev = to_mdev(ibpd->device);
	struct mlx5x_pd *pd = to_mpd(ibpd);
	struct mlx5x_dm *dm = to_mdm(ibdm);
	struct mlx5x_mr *mr;
	u32 allowed;
	u8 mode;
	int err;

	if (dm->type == MLX5_IB_UAPI_DM_TYPE_MEMIC) {
		allowed = MLX5X_DM_MEMIC_ACCESS;
		mode = MLX5_MKC_ACCESS_MODE_MEMIC;
	} else {
		allowed = MLX5X_DM_SW_ICM_ACCESS;
		mode = MLX5_MKC_ACCESS_MODE_SW_ICM;
	}
	if (attr->access_flags & ~allowed)
		return ERR_PTR(-EINVAL);
	/* an empty MR is valid, as on mlx5_ib */
	if (attr->offset > dm->size ||
	    attr->length > dm->size - attr->offset)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	err = mlx5x_dm_mkey(dev, pd, mode, dm->addr + attr->offset,
			    attr->length, attr->access_flags, &mr->mkey);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	mr->uid = pd->uid;
	mr->ib.lkey = mr->mkey;
	mr->ib.rkey = mr->mkey;
	mr->ib.iova = dm->addr + attr->offset;
	mr->ib.length = attr->length;
	return &mr->ib;
}
