// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The UMR of the kernel's REG_UMR QP: a memory region's PD and access
 * rights changed in place, its keys kept, as mlx5_ib re-registers an MR
 * (ibv_rereg_mr() without a new translation).
 *
 * A QP of service type REG_UMR only the kernel may create (cmd_qp.c); it
 * sends nothing but UMR WQEs (dp_rc.c), and those may name an mkey of any
 * context: the function's driver owns every mkey of the function.  What
 * the model executes of them is what mlx5_ib posts for a re-registration:
 * an inline UMR with no translation, the mkey in use (the state check
 * MUST_BE_IN_USE, mlx5_ib's MLX5_UMR_CHECK_FREE), a direct (MTT) mkey
 * over a umem, the mask naming the PD and the rights and nothing else.
 * The new PD must be one of the mkey's own context, and a right to write
 * needs pages pinned writable, as CREATE_MKEY checks: a region
 * registered read-only does not become writable by a UMR (the driver
 * registers it anew, pinning its pages for writing).  Every other UMR is
 * the error CQE a ConnectX writes for a refused UMR, MW_BIND, or a local
 * QP operation error for one the model does not execute; either way the
 * mkey is left as it was.
 */
#include <linux/bitfield.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "umr.h"

#define SIM_UMR_MASK_REREG	(SIM_UMR_MASK_PD | SIM_UMR_MASK_RIGHTS)

/* Whether @mkey, once @u is written, grants a right to write. */
static bool sim_umr_rereg_writes(const struct sim_mkey *mkey,
				 const struct sim_umr *u)
{
	static const struct {
		u64 bit;
		u16 off;
	} w[] = {
		{ SIM_UMR_MASK_LW, PRM_BIT_OFF(mkc, lw) },
		{ SIM_UMR_MASK_RW, PRM_BIT_OFF(mkc, rw) },
		{ SIM_UMR_MASK_A, PRM_BIT_OFF(mkc, a) },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (prm_get_bits(u->mask & w[i].bit ? u->mkc : mkey->mkc,
				 w[i].off, 1))
			return true;
	return false;
}

/**
 * sim_umr_rereg() - execute a UMR of the kernel's REG_UMR QP
 * @sim: the model, its lock held
 * @u: the UMR, parsed
 *
 * Return: 0, or the syndrome of its error CQE.
 */
u32 sim_umr_rereg(struct mlx5x_sim *sim, const struct sim_umr *u)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], u->key >> 8);
	struct sim_obj *pd = NULL;
	struct sim_mkey *mkey;
	u32 pdn;

	lockdep_assert_held(&sim->lock);
	if (u->nklm || u->nbsf || (u->mask & ~SIM_UMR_MASK_REREG) ||
	    !(u->mask & SIM_UMR_MASK_REREG))
		return SIM_CQE_SYND_LOCAL_QP_OP;
	if (!obj)
		return SIM_CQE_SYND_MW_BIND;
	mkey = container_of(obj, struct sim_mkey, obj);
	if (sim_mkey_key(mkey) != u->key ||
	    mkey->access_mode != MLX5_MKC_ACCESS_MODE_MTT || !mkey->umem)
		return SIM_CQE_SYND_MW_BIND;
	if (FIELD_GET(SIM_UMR_CHECK_STATE, u->flags) ==
	    SIM_UMR_MUST_BE_IN_USE && PRM_GET(mkc, mkey->mkc, free))
		return SIM_CQE_SYND_MW_BIND;
	if (FIELD_GET(SIM_UMR_CHECK_STATE, u->flags) ==
	    SIM_UMR_MUST_BE_FREE && !PRM_GET(mkc, mkey->mkc, free))
		return SIM_CQE_SYND_MW_BIND;
	if (sim_umr_rereg_writes(mkey, u) &&
	    !(mkey->umem->odp ? mkey->umem->odp_wr :
	      sim_umem_writable(mkey->umem, mkey->umem_off,
				PRM_GET64(mkc, mkey->mkc, len))))
		return SIM_CQE_SYND_MW_BIND;
	if (u->mask & SIM_UMR_MASK_PD) {
		pdn = PRM_GET(mkc, u->mkc, pd);
		pd = xa_load(&sim->objs[SIM_OBJ_PD], pdn);
		if (!pd || pd->uid != obj->uid)
			return SIM_CQE_SYND_MW_BIND;
		pd->users++;
		sim_obj_put(mkey->pd);
		mkey->pd = pd;
		PRM_SET(mkc, mkey->mkc, pd, pdn);
	}
	sim_umr_write_mkc(mkey, u);
	return 0;
}
