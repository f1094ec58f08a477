// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How the data path reaches memory through an mkey: a WQE's data
 * segment names (lkey, address, byte count) and the device checks, as a
 * ConnectX does before it touches a byte, that the key is a live mkey of
 * the queue's context and protection domain with the same 8-bit tag,
 * that it grants the access (local read to send, local write to
 * receive), and that the range lies inside the mkey.
 *
 * The checks are sim_mkey_access()'s (mem/mkey_access.c), the same that
 * fw/mkey_access probes: key and tag, owner, PD, free state, rights at
 * every mkey crossed, unconfigured crypto, range.  The data path then
 * copies one contiguous piece per segment (sim_mkey_xlate_rights()), or
 * each piece the walk splits it into, one per direct mkey crossed
 * through an indirect mkey's entries (sim_mkey_xlate_each()).  A piece
 * on MEMIC is one of the MEMIC window's umem (mem/cmd_memic.c); a piece
 * on a direct mkey with no umem (SW ICM, the kernel's raw translation) is
 * a protection error.
 */
#include <linux/overflow.h>
#include "../mem/dm.h"
#include "../mem/mkey.h"
#include "wqe.h"

/* The one piece a segment may resolve to: on a direct mkey over a umem. */
struct sim_xlate_one {
	struct sim_umem *umem;
	u64 off;
	unsigned int n;
};

static bool sim_xlate_one(void *arg, struct sim_umem *umem, u64 off, u32 len)
{
	struct sim_xlate_one *x = arg;

	if (x->n++)
		return false;
	x->umem = umem;
	x->off = off;
	return true;
}

/**
 * sim_mkey_xlate_rights() - translate a range through its mkey, for the
 * rights named
 * @sim: the model, its lock held
 * @uid: the context of the queue using the key
 * @pdn: that queue's protection domain
 * @key: the lkey or rkey (index << 8 | tag)
 * @va: the address in the mkey's space
 * @len: bytes accessed; 0 is allowed on a direct mkey (nothing is touched)
 * @rights: SIM_MKEY_* the access needs (local read to send, local write to
 *	    receive, remote read, write or atomic for a responder)
 * @umem: the umem that holds the bytes
 * @off: where @va is in @umem, from the umem's first byte
 *
 * Return: true when the key grants the access and the range lies on one
 * direct mkey over a umem; else false, and nothing was touched.
 */
bool sim_mkey_xlate_rights(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			   u64 va, u32 len, u8 rights, struct sim_umem **umem,
			   u64 *off)
{
	struct sim_xlate_one x = {};

	if (!sim_mkey_xlate_each(sim, uid, pdn, key, va, len, rights,
				 sim_xlate_one, &x) || x.n != 1)
		return false;
	*umem = x.umem;
	*off = x.off;
	return true;
}

struct sim_xlate_each {
	struct mlx5x_sim *sim;
	sim_xlate_piece_fn fn;
	void *arg;
};

/*
 * A piece on a direct mkey: over its umem, or, for MEMIC, over the
 * MEMIC window's (@va is the BAR offset there).
 */
static u32 sim_xlate_each_seg(void *arg, const struct sim_mkey *direct,
			      u64 va, u64 len)
{
	struct sim_xlate_each *x = arg;
	u64 start = PRM_GET64(mkc, direct->mkc, start_addr);
	struct sim_umem *umem = direct->umem;
	u64 off = direct->umem_off + (va - start);

	if (direct->access_mode == MLX5_MKC_ACCESS_MODE_MEMIC &&
	    x->sim->memic_umem && va >= SIM_MEMIC_BAR_START) {
		umem = x->sim->memic_umem;
		off = va - SIM_MEMIC_BAR_START;
	} else if (direct->access_mode != MLX5_MKC_ACCESS_MODE_MTT) {
		umem = NULL;
	}
	if (!umem || len > U32_MAX || !x->fn(x->arg, umem, off, len))
		return SIM_SYND_MKEY_RANGE;
	return 0;
}

static bool sim_xlate_walk(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			   u64 va, u32 len, u8 rights, sim_xlate_piece_fn fn,
			   void *arg, bool crypto, bool sig)
{
	struct sim_xlate_each x = { .sim = sim, .fn = fn, .arg = arg };
	struct sim_mkey_access acc = {
		.uid = uid,
		.pdn = pdn,
		.key = key,
		.va = va,
		.len = len,
		.rights = rights,
		.seg = sim_xlate_each_seg,
		.arg = &x,
		.crypto = crypto,
		.sig = sig,
	};

	lockdep_assert_held(&sim->lock);
	return !sim_mkey_access(sim, &acc);
}

/**
 * sim_mkey_xlate_each() - translate a range through its mkey, for the
 * rights named, into as many pieces as the direct mkeys it crosses
 * @sim: the model, its lock held
 * @uid: the context of the queue using the key
 * @pdn: that queue's protection domain
 * @key: the lkey or rkey (index << 8 | tag)
 * @va: the address in the mkey's space
 * @len: bytes accessed
 * @rights: SIM_MKEY_* the access needs, at every mkey crossed
 * @fn: called for each piece, in order: its umem, offset and length;
 *	false stops the walk
 * @arg: for @fn
 *
 * Every piece is checked as sim_mkey_access() checks it (key and tag,
 * owner, PD, free state, rights, range) before @fn hears of it; the walk
 * through indirect mkeys stops at max_indirection.
 *
 * Return: true when the key grants the whole access and @fn took every
 * piece; else false (@fn may have taken the first ones).
 */
bool sim_mkey_xlate_each(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			 u64 va, u32 len, u8 rights, sim_xlate_piece_fn fn,
			 void *arg)
{
	return sim_xlate_walk(sim, uid, pdn, key, va, len, rights, fn, arg,
			      false, false);
}

/**
 * sim_mkey_xlate_crypto() - sim_mkey_xlate_each() for a caller that
 * applies a crypto mkey's cipher (dp/dp_crypto.c): @key may be a
 * configured crypto mkey
 * @sim: the model, its lock held
 * @uid: the context of the queue using the key
 * @pdn: that queue's protection domain
 * @key: the lkey or rkey
 * @va: the address in the mkey's space
 * @len: bytes accessed
 * @rights: SIM_MKEY_* the access needs, at every mkey crossed
 * @fn: called for each piece, in order
 * @arg: for @fn
 *
 * Return: as sim_mkey_xlate_each().
 */
bool sim_mkey_xlate_crypto(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			   u64 va, u32 len, u8 rights, sim_xlate_piece_fn fn,
			   void *arg)
{
	return sim_xlate_walk(sim, uid, pdn, key, va, len, rights, fn, arg,
			      true, false);
}

/**
 * sim_mkey_xlate_sig() - sim_mkey_xlate_each() of a signature mkey's
 * memory domain, for the caller that applies its BSF (dp/dp_sig.c)
 * @sim: the model, its lock held
 * @uid: the context of the queue using the key
 * @pdn: that queue's protection domain
 * @key: the signature mkey's key
 * @va: the address in its memory domain (start address based)
 * @len: bytes accessed
 * @rights: SIM_MKEY_* the access needs, at every mkey crossed
 * @fn: called for each piece, in order
 * @arg: for @fn
 *
 * Return: as sim_mkey_xlate_each().
 */
bool sim_mkey_xlate_sig(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			u64 va, u32 len, u8 rights, sim_xlate_piece_fn fn,
			void *arg)
{
	return sim_xlate_walk(sim, uid, pdn, key, va, len, rights, fn, arg,
			      false, true);
}

/**
 * sim_mkey_xlate() - translate one data segment through its mkey
 * @sim: the model, its lock held
 * @uid: the context of the queue using the key
 * @pdn: that queue's protection domain
 * @key: the lkey (index << 8 | tag)
 * @va: the address in the mkey's space
 * @len: bytes accessed; 0 is allowed on a direct mkey (nothing is touched)
 * @write: the device writes the memory (a receive), else reads it
 * @umem: the umem that holds the bytes
 * @off: where @va is in @umem, from the umem's first byte
 *
 * Return: 0, or the CQE syndrome a ConnectX reports:
 * SIM_CQE_SYND_LOCAL_PROT for every refusal.
 */
u32 sim_mkey_xlate(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key, u64 va,
		   u32 len, bool write, struct sim_umem **umem, u64 *off)
{
	u8 rights = write ? SIM_MKEY_LOCAL_WRITE : SIM_MKEY_LOCAL_READ;

	return sim_mkey_xlate_rights(sim, uid, pdn, key, va, len, rights,
				     umem, off) ? 0 : SIM_CQE_SYND_LOCAL_PROT;
}
