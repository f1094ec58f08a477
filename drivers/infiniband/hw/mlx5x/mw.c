// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows: each is one mkey of firmware, made as mlx5_ib makes
 * one.  It is created free, with no translation, on the window's PD: an
 * indirect (KLM) mkey that UMR may change (umr_en), with local read and
 * room for one KLM list of 4 octowords, bound to no QP.  A type 2 window
 * may be invalidated remotely (en_rinval); a type 1 may not.  libmlx5
 * binds it by posting a UMR WQE on a QP (ibv_bind_mw(), IBV_WR_BIND_MW),
 * which fills its context and its one KLM: the device checks the bind
 * (sim/dp/dp_umr.c), not the kernel.  The rkey handed back is the mkey
 * index and an 8-bit tag, which libmlx5 moves on with each type 1 bind
 * and the user with each type 2 bind.
 */
#include <linux/slab.h>
#include <rdma/mlx5-abi.h>
#include "verbs.h"

/* The KLM list of a window: one entry, in 64-byte units of 4 octowords. */
#define MLX5X_MW_OCTOWORDS	4

static int mlx5x_mw_fw_create(struct mlx5x_dev *dev, struct mlx5x_mw *mw,
			      const struct mlx5x_pd *pd, bool type2,
			      u32 octowords, u8 tag, u32 *index)
{
	u32 out[PRM_BYTES(create_mkey_out) / 4] = {};
	void *in, *mkc;
	int err;

	in = kzalloc(PRM_BYTES(create_mkey_in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mkc = PRM_ADDR(create_mkey_in, in, memory_key_mkey_entry);
	PRM_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	PRM_SET(create_mkey_in, in, uid, mw->uid);
	PRM_SET(mkc, mkc, free, 1);
	PRM_SET(mkc, mkc, umr_en, 1);
	PRM_SET(mkc, mkc, lr, 1);
	PRM_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLMS);
	PRM_SET(mkc, mkc, en_rinval, type2);
	PRM_SET(mkc, mkc, qpn, MLX5X_MKEY_QPN_NONE);
	PRM_SET(mkc, mkc, mkey_7_0, tag);
	PRM_SET(mkc, mkc, pd, pd->pdn);
	PRM_SET(mkc, mkc, translations_octword_size, octowords);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(create_mkey_in), out,
			    sizeof(out));
	kfree(in);
	if (!err)
		*index = PRM_GET(create_mkey_out, out, mkey_index);
	return err;
}

/**
 * mlx5x_alloc_mw() - the alloc_mw device operation
 * @ibmw: the window, its type and PD set by ib_core
 * @udata: libmlx5's struct mlx5_ib_alloc_mw: a number of KLMs
 *
 * Return: 0; -EOPNOTSUPP for a request this driver does not know (fields
 * it has no meaning for, a kernel caller), -EINVAL for more KLMs than
 * the device's list holds, or firmware's errno.
 */
int mlx5x_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibmw->device);
	struct mlx5x_pd *pd = to_mpd(ibmw->pd);
	struct mlx5x_mw *mw = to_mmw(ibmw);
	struct mlx5_ib_alloc_mw req = {};
	u32 octowords, index;
	u8 tag;
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	err = ib_copy_from_udata(&req, udata, min(udata->inlen, sizeof(req)));
	if (err)
		return err;
	if (req.comp_mask || req.reserved1 || req.reserved2)
		return -EOPNOTSUPP;
	if (udata->inlen > sizeof(req) &&
	    !ib_is_udata_cleared(udata, sizeof(req),
				 udata->inlen - sizeof(req)))
		return -EOPNOTSUPP;
	octowords = roundup(max_t(u32, req.num_klms, 1), MLX5X_MW_OCTOWORDS);
	if (octowords > BIT(MLX5X_CAP_GEN(dev, log_max_klm_list_size)))
		return -EINVAL;
	mw->uid = pd->uid;
	tag = mlx5x_mkey_variant_next();
	err = mlx5x_mw_fw_create(dev, mw, pd, ibmw->type == IB_MW_TYPE_2,
				 octowords, tag, &index);
	if (err)
		return err;
	mw->mkey = index << 8 | tag;
	ibmw->rkey = mw->mkey;
	/* libmlx5 reads no answer: an empty one, as mlx5_ib gives */
	if (udata->outlen) {
		struct {
			__u32 comp_mask;
			__u32 response_length;
		} resp = {};

		resp.response_length = min_t(size_t, sizeof(resp),
					     udata->outlen);
		err = ib_copy_to_udata(udata, &resp, resp.response_length);
		if (err) {
			mlx5x_dealloc_mw(ibmw);
			return err;
		}
	}
	return 0;
}

/**
 * mlx5x_dealloc_mw() - the dealloc_mw device operation
 * @ibmw: the window
 *
 * A window still bound goes with its binding: its rkey grants nothing
 * from the moment firmware destroys the mkey, and the MR beneath is free
 * to be deregistered.
 *
 * Return: 0, or firmware's errno.
 */
int mlx5x_dealloc_mw(struct ib_mw *ibmw)
{
	struct mlx5x_dev *dev = to_mdev(ibmw->device);
	struct mlx5x_mw *mw = to_mmw(ibmw);
	u32 in[PRM_BYTES(destroy_mkey_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_mkey_out) / 4] = {};

	PRM_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	PRM_SET(destroy_mkey_in, in, uid, mw->uid);
	PRM_SET(destroy_mkey_in, in, mkey_index, mw->mkey >> 8);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}
