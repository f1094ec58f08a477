// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How the data path reaches memory through an mkey: a WQE's data
 * segment names (lkey, address, byte count) and the device checks, as a
 * ConnectX does before it touches a byte, that the key is a live mkey of
 * the queue's context and protection domain with the same 8-bit tag,
 * that it grants the access (local read to send, local write to
 * receive), and that the range lies inside the mkey.  Only direct (MTT)
 * mkeys over a umem translate here; anything else is a protection error.
 *
 * Kept as one function on purpose: the access checks of other mkey kinds
 * (crypto) are to be unified here.
 */
#include <linux/mlx5/cq.h>
#include <linux/overflow.h>
#include "mkey.h"

/**
 * sim_mkey_xlate() - translate one data segment through its mkey
 * @sim: the model, its lock held
 * @uid: the context of the queue using the key
 * @pdn: that queue's protection domain
 * @key: the lkey (index << 8 | tag)
 * @va: the address in the mkey's space
 * @len: bytes accessed; 0 is allowed (nothing is touched)
 * @write: the device writes the memory (a receive), else reads it
 * @umem: the umem that holds the bytes
 * @off: where @va is in @umem, from the umem's first byte
 *
 * Return: 0, or the CQE syndrome a ConnectX reports:
 * MLX5_CQE_SYNDROME_LOCAL_PROT_ERR for every refusal.
 */
u32 sim_mkey_xlate(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key, u64 va,
		   u32 len, bool write, struct sim_umem **umem, u64 *off)
{
	struct sim_mkey *mkey;
	struct sim_obj *obj;
	u64 start, end, mlen;

	lockdep_assert_held(&sim->lock);
	obj = xa_load(&sim->objs[SIM_OBJ_MKEY], key >> 8);
	if (!obj || obj->uid != uid)
		return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
	mkey = container_of(obj, struct sim_mkey, obj);
	if (sim_mkey_key(mkey) != key || !mkey->umem ||
	    mkey->access_mode != MLX5_MKC_ACCESS_MODE_MTT ||
	    PRM_GET(mkc, mkey->mkc, free) || mkey->pd->id != pdn ||
	    !(write ? PRM_GET(mkc, mkey->mkc, lw) :
		      PRM_GET(mkc, mkey->mkc, lr)))
		return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
	start = PRM_GET64(mkc, mkey->mkc, start_addr);
	mlen = PRM_GET64(mkc, mkey->mkc, len);
	if (va < start || check_add_overflow(va, (u64)len, &end) ||
	    end - start > mlen)
		return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
	*umem = mkey->umem;
	*off = mkey->umem_off + (va - start);
	return 0;
}
