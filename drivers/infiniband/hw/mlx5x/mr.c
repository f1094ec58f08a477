// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions: each is one mkey of firmware.  Over host memory
 * (ibv_reg_mr) the kernel pins the pages, registers them as a UMEM of the
 * PD's context (ubuf.c) and creates a direct (MTT) mkey over that UMEM on
 * the PD, with the access rights asked for; the key is the mkey index and
 * an 8-bit variant that rolls with each registration, as in mlx5.  MRs
 * over device memory are made in dm_mr.c; deregistration is the same for
 * all.  An MR that allows IB_ACCESS_MW_BIND is made like any other: the
 * mkey context has no bind right, and a ConnectX checks none (mw.c).
 *
 * ibv_rereg_mr() of one over host memory is mlx5_ib's: a new PD or new
 * rights are written into the mkey in place by a UMR (umr.c), and the
 * keys stay; a new range, or rights the pinned pages do not allow (write
 * on pages pinned read-only), or a device without a UMR QP, register the
 * MR anew, with new keys, and ib_core deregisters the old one.
 *
 * An MR with IB_ACCESS_ON_DEMAND pins nothing: its umem in firmware
 * starts with every page absent and the device's page faults fill it
 * (odp.c).  Its rereg registers it anew.
 */
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include "verbs.h"

/* The umem fields 6.1's mlx5_ifc.h leaves reserved in create_mkey_in. */
#define MLX5X_MKEY_UMEM_ID	PRM_BIT_OFF(create_mkey_in, reserved_at_320)

#define MLX5X_MR_ACCESS		(IB_ACCESS_LOCAL_WRITE |		\
				 IB_ACCESS_REMOTE_WRITE |		\
				 IB_ACCESS_REMOTE_READ |		\
				 IB_ACCESS_REMOTE_ATOMIC |		\
				 IB_ACCESS_MW_BIND |			\
				 IB_ACCESS_RELAXED_ORDERING)
/*
 * How the pages are held, rather than a right the mkey grants: on demand
 * (odp.c), or pinned; IB_ACCESS_HUGETLB says the range is of huge pages,
 * which the ODP page walk follows (mlx5_ib registers a pinned MR with it
 * as without it).
 */
#define MLX5X_MR_PAGES		(IB_ACCESS_ON_DEMAND | IB_ACCESS_HUGETLB)
/* what a UMR changes in place (mlx5_ib: can_use_umr_rereg_access()) */
#define MLX5X_MR_UMR_ACCESS	(IB_ACCESS_LOCAL_WRITE |		\
				 IB_ACCESS_REMOTE_WRITE |		\
				 IB_ACCESS_REMOTE_READ |		\
				 IB_ACCESS_REMOTE_ATOMIC |		\
				 IB_ACCESS_RELAXED_ORDERING)

static atomic_t mlx5x_mkey_variant = ATOMIC_INIT(0);

/* The 8-bit tag of the next key made: MRs' and windows' alike. */
u8 mlx5x_mkey_variant_next(void)
{
	return atomic_inc_return(&mlx5x_mkey_variant);
}

/**
 * mlx5x_mr_mkc() - what an MR's mkey context says of its PD and rights
 * @mkc: the mkey context (of CREATE_MKEY, or of a UMR: umr.c)
 * @pdn: the PD
 * @access: IB_ACCESS_* it grants; local read always
 * @key: the key's 8-bit variant
 */
void mlx5x_mr_mkc(void *mkc, u32 pdn, int access, u8 key)
{
	PRM_SET(mkc, mkc, lr, 1);
	PRM_SET(mkc, mkc, lw, !!(access & IB_ACCESS_LOCAL_WRITE));
	PRM_SET(mkc, mkc, rr, !!(access & IB_ACCESS_REMOTE_READ));
	PRM_SET(mkc, mkc, rw, !!(access & IB_ACCESS_REMOTE_WRITE));
	PRM_SET(mkc, mkc, a, !!(access & IB_ACCESS_REMOTE_ATOMIC));
	PRM_SET(mkc, mkc, qpn, MLX5X_MKEY_QPN_NONE);
	PRM_SET(mkc, mkc, mkey_7_0, key);
	PRM_SET(mkc, mkc, pd, pdn);
}

static int mlx5x_mr_fw_create(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
			      u32 pdn, u64 iova, u64 len, int access, u8 key,
			      u32 *index)
{
	u32 out[PRM_BYTES(create_mkey_out) / 4] = {};
	u64 pages = ib_umem_num_dma_blocks(mr->buf.umem, PAGE_SIZE);
	void *in, *mkc;
	int err;

	in = kzalloc(PRM_BYTES(create_mkey_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mkc = PRM_ADDR(create_mkey_in, in, memory_key_mkey_entry);
	PRM_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	PRM_SET(create_mkey_in, in, uid, mr->uid);
	PRM_SET(create_mkey_in, in, mkey_umem_valid, 1);
	prm_set_bits(in, MLX5X_MKEY_UMEM_ID, 32, mr->buf.id);
	PRM_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	mlx5x_mr_mkc(mkc, pdn, access, key);
	PRM_SET64(mkc, mkc, start_addr, iova);
	PRM_SET64(mkc, mkc, len, len);
	PRM_SET(mkc, mkc, log_page_size, PAGE_SHIFT);
	PRM_SET(mkc, mkc, translations_octword_size, DIV_ROUND_UP(pages, 2));
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_mkey_in), out,
			    sizeof(out));
	kfree(in);
	if (!err)
		*index = PRM_GET(create_mkey_out, out, mkey_index);
	return err;
}

static int mlx5x_mr_fw_destroy(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	u32 in[PRM_BYTES(destroy_mkey_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_mkey_out) / 4] = {};

	PRM_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	PRM_SET(destroy_mkey_in, in, uid, mr->uid);
	PRM_SET(destroy_mkey_in, in, mkey_index, mr->mkey >> 8);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/* The pages of an MR over host memory go, pinned or on demand (odp.c). */
static void mlx5x_mr_buf_put(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	if (mr->buf.umem && mr->buf.umem->is_odp)
		mlx5x_odp_put(dev, mr);
	else
		mlx5x_ubuf_put(dev, &mr->buf);
}

struct ib_mr *mlx5x_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				u64 iova, int access, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(pd->device);
	struct mlx5x_mr *mr;
	u32 index;
	u8 key;
	int err;

	if (!udata)
		return ERR_PTR(-EOPNOTSUPP);
	if (access & ~(MLX5X_MR_ACCESS | MLX5X_MR_PAGES))
		return ERR_PTR(-EOPNOTSUPP);
	/* the region's first byte sits at the same place in a page */
	if (!length || (start ^ iova) & ~PAGE_MASK)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->uid = to_mpd(pd)->uid;
	if (access & IB_ACCESS_ON_DEMAND)
		err = mlx5x_odp_get(dev, mr, start, length, access);
	else
		err = mlx5x_ubuf_get(dev, mr->uid, start, length, access,
				     &mr->buf);
	if (err)
		goto err_free;
	key = mlx5x_mkey_variant_next();
	err = mlx5x_mr_fw_create(dev, mr, to_mpd(pd)->pdn, iova,
				 mlx5x_odp_mkey_len(mr, length),
				 access & ~MLX5X_MR_PAGES, key, &index);
	if (err)
		goto err_buf;
	mr->mkey = index << 8 | key;
	if (access & IB_ACCESS_ON_DEMAND) {
		err = mlx5x_odp_start(dev, mr);
		if (err) {
			mlx5x_mr_fw_destroy(dev, mr);
			goto err_buf;
		}
	}
	mr->access = access;
	mr->ib.lkey = mr->mkey;
	mr->ib.rkey = mr->ib.lkey;
	mr->ib.length = length;
	mr->ib.iova = iova;
	return &mr->ib;

err_buf:
	mlx5x_mr_buf_put(dev, mr);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * mlx5x_rereg_user_mr() - the rereg_user_mr device operation
 * @ibmr: the MR
 * @flags: IB_MR_REREG_*: what changes
 * @start: with IB_MR_REREG_TRANS, the new range's address
 * @length: its length
 * @iova: its I/O virtual address
 * @access: with IB_MR_REREG_ACCESS, the new rights
 * @pd: with IB_MR_REREG_PD, the new PD
 * @udata: the call's driver data
 *
 * Return: NULL when @ibmr was changed in place (its keys kept); a new MR
 * with new keys, which ib_core puts in the old one's place; or an errno
 * (@ibmr as it was).
 */
struct ib_mr *mlx5x_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				  u64 length, u64 iova, int access,
				  struct ib_pd *pd, struct ib_udata *udata)
{
	struct mlx5x_mr *mr = to_mmr(ibmr);
	int err;

	if (flags & ~(IB_MR_REREG_TRANS | IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return ERR_PTR(-EOPNOTSUPP);
	/* over device memory: no pages to register anew */
	if (!mr->buf.umem)
		return ERR_PTR(-EOPNOTSUPP);
	if (!(flags & IB_MR_REREG_ACCESS))
		access = mr->access;
	if (!(flags & IB_MR_REREG_PD))
		pd = ibmr->pd;
	if (access & ~(MLX5X_MR_ACCESS | MLX5X_MR_PAGES))
		return ERR_PTR(-EOPNOTSUPP);
	/* an ODP MR is registered anew, its pages followed from scratch */
	if (!(flags & IB_MR_REREG_TRANS) && !mr->buf.umem->is_odp &&
	    !((access ^ mr->access) & ~MLX5X_MR_UMR_ACCESS) &&
	    (mr->buf.umem->writable || !ib_access_writable(access))) {
		err = mlx5x_umr_rereg(to_mdev(ibmr->device), mr->mkey,
				      to_mpd(pd)->pdn, access);
		if (!err) {
			mr->access = access;
			return NULL;
		}
		if (err != -EOPNOTSUPP)
			return ERR_PTR(err);
	}
	if (!(flags & IB_MR_REREG_TRANS)) {
		start = mr->buf.umem->address;
		length = ibmr->length;
		iova = ibmr->iova;
	}
	return mlx5x_reg_user_mr(pd, start, length, iova, access, udata);
}

/**
 * mlx5x_dereg_mr() - the dereg_mr device operation, for every kind of MR
 * @ibmr: the MR
 * @udata: the call's driver data (none is read)
 *
 * Return: 0, or the errno of a destroy firmware refused (the MR stays:
 * an indirect mkey of the context may still name it).
 */
int mlx5x_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibmr->device);
	struct mlx5x_mr *mr = to_mmr(ibmr);
	int err;

	err = mlx5x_mr_fw_destroy(dev, mr);
	if (err)
		return err;
	mlx5x_mr_buf_put(dev, mr);	/* none for an MR over DM */
	kfree(mr);
	return 0;
}
