// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The UMR WQE of mlx5dv_wr_mkey_configure() on an indirect (KLM) mkey of
 * mlx5dv_create_mkey(), and the LOCAL_INV that frees it again.
 *
 * libmlx5 44 posts one UMR for mlx5dv_wr_mkey_configure() with
 * mlx5dv_wr_set_mkey_access_flags() and mlx5dv_wr_set_mkey_layout_list(),
 * and the same for mlx5dv_wr_mr_list(): the list inline, no state check;
 * the mask names free (0: the mkey is in use after it), the tag, the
 * local write and remote rights when they are set, and the length with
 * the layout; the KLM entries are the caller's SGEs (byte count, lkey,
 * address), padded with zeroed entries to 64 bytes.  The mkey's start
 * address stays what it was created with.  Its completion is IBV_WC_DRIVER1
 * in libmlx5 (the UMR opcode of the CQE).  A configure may follow a
 * configure: the second rewrites what it names.
 *
 * A ConnectX checks the whole WQE before it changes the mkey; what it
 * refuses is the error CQE MW_BIND (libmlx5: IBV_WC_MW_BIND_ERR) and the
 * mkey is left as it was:
 *
 * - a mask naming a field this UMR does not write (start address, QP,
 *   a BSF), or a state check: not a configure of a KLM mkey;
 * - more entries than the mkey was created for (its table, max_entries
 *   rounded up to 4);
 * - an entry that names no live mkey with that tag, one of another
 *   context or PD, a free one, the mkey itself, or one whose depth would
 *   take the mkey past max_indirection;
 * - rights wider than an entry's mkey grants (remote write through an MR
 *   without it, say);
 * - a length past the sum of the entries, or of 2^64;
 * - a layout deeper than the mkey had while other mkeys' lists name it:
 *   depth falls along every entry, so no list leads back to itself.
 *
 * LOCAL_INV (a zero-length type 2 bind of the key, libmlx5's only way)
 * frees a configured mkey and drops its entries; its whole key must
 * match.  The references an entry holds keep its mkey from being
 * destroyed while the list names it.
 */
#include <linux/slab.h>
#include "sig.h"
#include "umr.h"
#include "wqe.h"

/* The fields mlx5dv_wr_mkey_configure() may write. */
#define SIM_UMR_MKEY_MASK	(SIM_UMR_MASK_FREE | SIM_UMR_MASK_KEY |	\
				 SIM_UMR_MASK_LEN | SIM_UMR_MASK_RIGHTS |	\
				 SIM_UMR_MASK_BSF_EN | SIM_UMR_MASK_EN_SIGERR)

/**
 * sim_umr_mkey_op() - whether a UMR is a configure or an invalidation of
 * an indirect mkey, rather than a memory window's bind
 * @mkey: the mkey it names (sim_umr_target())
 * @u: the UMR
 *
 * A configure writes no start address and no QP and checks no state; a
 * LOCAL_INV of an mkey that a configure filled frees it, with no KLM.
 *
 * Return: true for sim_umr_mkey().
 */
bool sim_umr_mkey_op(const struct sim_mkey *mkey, const struct sim_umr *u)
{
	bool frees = (u->mask & SIM_UMR_MASK_FREE) &&
		     PRM_GET(mkc, u->mkc, free);

	if (mkey->mw)
		return false;
	if (mkey->klm_list && frees && !u->nklm)
		return true;
	return !(u->mask & (SIM_UMR_MASK_START | SIM_UMR_MASK_QPN)) &&
	       !(u->flags & (SIM_UMR_CHECK_STATE | SIM_UMR_CHECK_QPN));
}

/* The number of entries given: the zeroed ones at the end are padding. */
static u32 sim_umr_mkey_nklm(const struct sim_umr *u)
{
	u32 n = u->nklm;

	while (n && !memchr_inv(&u->klm[n - 1], 0, sizeof(u->klm[n - 1])))
		n--;
	return n;
}

/* The rights the mkey will grant, enum sim_mkey_rights. */
static unsigned int sim_umr_mkey_rights(const struct sim_umr *u,
					const struct sim_mkey *mkey)
{
	static const struct {
		u64 bit;
		u16 off;
		u8 right;
	} f[] = {
		{ SIM_UMR_MASK_LR, PRM_BIT_OFF(mkc, lr), SIM_MKEY_LOCAL_READ },
		{ SIM_UMR_MASK_LW, PRM_BIT_OFF(mkc, lw), SIM_MKEY_LOCAL_WRITE },
		{ SIM_UMR_MASK_RR, PRM_BIT_OFF(mkc, rr), SIM_MKEY_REMOTE_READ },
		{ SIM_UMR_MASK_RW, PRM_BIT_OFF(mkc, rw), SIM_MKEY_REMOTE_WRITE },
		{ SIM_UMR_MASK_A, PRM_BIT_OFF(mkc, a), SIM_MKEY_ATOMIC },
	};
	unsigned int i, r = 0;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (prm_get_bits(u->mask & f[i].bit ? u->mkc : mkey->mkc,
				 f[i].off, 1))
			r |= f[i].right;
	return r;
}

/* What an entry of @mkey must grant for @mkey to grant @rights. */
static unsigned int sim_umr_entry_rights(const struct sim_mkey *mkey,
					 unsigned int rights)
{
	return sim_mkey_sig_capable(mkey) ? sim_mkey_mw_rights(rights) :
					    rights;
}

static bool sim_umr_mkey_grants(const struct sim_mkey *mkey,
				unsigned int rights)
{
	struct sim_umr none = {};

	return !(rights & ~sim_umr_mkey_rights(&none, mkey));
}

/**
 * sim_umr_mkey_entry() - the mkey an entry of a configure names
 * @sim: the model, its lock held
 * @qp: the QP that posted the UMR
 * @mkey: the mkey configured
 * @key: the entry's key
 * @rights: what @mkey will grant
 *
 * Return: the mkey, if it is live, named by its whole key, of the QP's
 * context and @mkey's PD, in use, not @mkey, within the depth the device
 * walks, granting @rights; else NULL.
 */
struct sim_mkey *sim_umr_mkey_entry(struct mlx5x_sim *sim,
				    const struct sim_umr_qp *qp,
				    const struct sim_mkey *mkey, u32 key,
				    unsigned int rights)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], key >> 8);
	struct sim_mkey *t;

	if (!obj || obj->uid != qp->uid)
		return NULL;
	t = container_of(obj, struct sim_mkey, obj);
	/* a cipher applies to the key an access names, not to an entry */
	if (t == mkey || sim_mkey_key(t) != key || t->pd != mkey->pd ||
	    PRM_GET(mkc, t->mkc, free) || sim_mkey_crypto(t) || t->sig_on ||
	    t->depth + 1 > SIM_CAP_GEN(sim, max_indirection))
		return NULL;
	return sim_umr_mkey_grants(t, sim_umr_entry_rights(mkey, rights)) ?
	       t : NULL;
}

/* LOCAL_INV: the configured mkey @mkey is free, with no entries. */
static u32 sim_umr_mkey_inval(struct sim_mkey *mkey, const struct sim_umr *u)
{
	if (sim_mkey_key(mkey) != u->key)
		return SIM_CQE_SYND_MW_BIND;
	PRM_SET(mkc, mkey->mkc, free, 1);
	sim_mkey_drop_entries(mkey);
	mkey->depth = 1;
	return 0;
}

/* Write the configure @u, with its layout @l, into @mkey. */
static void sim_umr_mkey_apply(struct sim_mkey *mkey, const struct sim_umr *u,
			       const struct sim_umr_layout *l)
{
	u32 i;

	/* free (to 0), tag, rights, length */
	sim_umr_write_mkc(mkey, u);
	mkey->klm_list = true;
	if (!l->ent)
		return;
	sim_mkey_drop_entries(mkey);
	for (i = 0; i < l->n; i++)
		l->ent[i].obj->users++;
	mkey->ent = l->ent;
	mkey->nent = l->n;
	mkey->depth = l->depth;
	mkey->rb_count = l->rb_count;
	mkey->rb_bytes = l->rb_bytes;
}

/*
 * A configure that gives no layout: the mkey keeps its entries, which
 * must grant the new rights and cover the new length.
 */
static u32 sim_umr_mkey_keep(const struct sim_mkey *mkey, unsigned int rights,
			     u64 len)
{
	u64 covered = 0;
	struct sim_mkey *t;
	u32 i;

	for (i = 0; i < mkey->nent; i++) {
		t = container_of(mkey->ent[i].obj, struct sim_mkey, obj);
		if (!sim_umr_mkey_grants(t, sim_umr_entry_rights(mkey, rights)))
			return SIM_CQE_SYND_MW_BIND;
		covered += be32_to_cpu(mkey->ent[i].klm.bcount);
	}
	if (mkey->rb_count)
		covered = (u64)mkey->rb_bytes * mkey->rb_count;
	return len > covered ? SIM_CQE_SYND_MW_BIND : 0;
}

/* A KLM list of @n entries: checked, into @l; the bytes it covers. */
static u32 sim_umr_mkey_klms(struct mlx5x_sim *sim,
			     const struct sim_umr_qp *qp,
			     const struct sim_mkey *mkey,
			     const struct sim_umr *u, u32 n,
			     unsigned int rights, struct sim_umr_layout *l)
{
	struct sim_mkey *t;
	u32 i;

	for (i = 0; i < n; i++) {
		t = sim_umr_mkey_entry(sim, qp, mkey,
				       be32_to_cpu(u->klm[i].key), rights);
		if (!t)
			return SIM_CQE_SYND_MW_BIND;
		l->depth = max_t(u8, l->depth, t->depth + 1);
		l->covered += be32_to_cpu(u->klm[i].bcount);
	}
	if (!n)
		return 0;
	l->ent = kvcalloc(n, sizeof(*l->ent), GFP_KERNEL);
	if (!l->ent)
		return SIM_CQE_SYND_LOCAL_QP_OP;
	l->n = n;
	for (i = 0; i < n; i++) {
		l->ent[i].obj = xa_load(&sim->objs[SIM_OBJ_MKEY],
					be32_to_cpu(u->klm[i].key) >> 8);
		l->ent[i].klm = u->klm[i];
	}
	return 0;
}

/*
 * Check a configure and build its layout in *@l (no entries: it gives
 * none, the mkey keeps its own).  Returns 0 or the error CQE's syndrome.
 */
static u32 sim_umr_mkey_check(struct mlx5x_sim *sim,
			      const struct sim_umr_qp *qp,
			      const struct sim_mkey *mkey,
			      const struct sim_umr *u, u32 n,
			      struct sim_umr_layout *l)
{
	unsigned int rights = sim_umr_mkey_rights(u, mkey);
	u64 len = u->mask & SIM_UMR_MASK_LEN ?
		  PRM_GET64(mkc, u->mkc, len) :
		  PRM_GET64(mkc, mkey->mkc, len);
	u32 synd;

	*l = (struct sim_umr_layout){ .depth = mkey->depth };
	/* a BSF was checked before (crypto_bsf.c, sig_bsf.c) */
	if ((u->mask & ~SIM_UMR_MKEY_MASK) || !(u->mask & SIM_UMR_MASK_FREE) ||
	    PRM_GET(mkc, u->mkc, free) || PRM_GET(mkc, u->mkc, length64) ||
	    mkey->access_mode != MLX5_MKC_ACCESS_MODE_KLMS)
		return SIM_CQE_SYND_MW_BIND;
	/* remote write and atomics stand on local write */
	if ((rights & (SIM_MKEY_REMOTE_WRITE | SIM_MKEY_ATOMIC)) &&
	    !(rights & SIM_MKEY_LOCAL_WRITE))
		return SIM_CQE_SYND_MW_BIND;
	if (!u->nklm)
		return sim_umr_mkey_keep(mkey, rights, len);
	if (u->nklm > PRM_GET(mkc, mkey->mkc, translations_octword_size))
		return SIM_CQE_SYND_MW_BIND;
	l->depth = 1;
	if (sim_umr_is_repeat(u))
		synd = sim_umr_repeat(sim, qp, mkey, u, rights, l);
	else
		synd = sim_umr_mkey_klms(sim, qp, mkey, u, n, rights, l);
	/*
	 * Along every entry the depth goes down: an mkey that others name
	 * takes no deeper layout, so no list comes back to itself.
	 */
	if (!synd && (len > l->covered ||
		      (mkey->obj.users && l->depth > mkey->depth)))
		synd = SIM_CQE_SYND_MW_BIND;
	if (synd) {
		kvfree(l->ent);
		l->ent = NULL;
	}
	return synd;
}

/**
 * sim_umr_mkey() - execute a configure or LOCAL_INV of an indirect mkey
 * @sim: the model, its lock held
 * @qp: the QP that posted it: its context and PD
 * @mkey: the mkey it names, of the QP's context and PD, with umr_en
 * @u: the UMR (sim_umr_mkey_op() said it is one)
 *
 * Return: 0, or the syndrome of its error CQE: MW_BIND for each refusal
 * (the mkey unchanged), LOCAL_QP_OP when the entries find no memory.
 */
u32 sim_umr_mkey(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		 struct sim_mkey *mkey, const struct sim_umr *u)
{
	struct sim_mkey_crypto crypto;
	struct sim_umr_layout l;
	struct sim_mkey_sig sig;
	int sig_given = 0;
	bool bsf = false;
	u32 synd, n;

	lockdep_assert_held(&sim->lock);
	if (mkey->klm_list && (u->mask & SIM_UMR_MASK_FREE) &&
	    PRM_GET(mkc, u->mkc, free) && !u->nklm)
		return sim_umr_mkey_inval(mkey, u);
	if (sim_mkey_crypto(mkey))
		synd = sim_crypto_bsf(sim, qp, mkey, u, &crypto, &bsf);
	else
		synd = sim_sig_bsf(sim, qp, mkey, u, &sig, &sig_given);
	if (synd)
		return synd;
	n = sim_umr_mkey_nklm(u);
	synd = sim_umr_mkey_check(sim, qp, mkey, u, n, &l);
	if (synd)
		return synd;
	/* the layout given but empty: no entry is left */
	if (u->nklm && !n)
		sim_mkey_drop_entries(mkey);
	sim_umr_mkey_apply(mkey, u, &l);
	if (bsf) {
		mkey->crypto = crypto;
		mkey->crypto_configured = true;
	}
	if (sig_given > 0)
		mkey->sig = sig;
	if (sig_given)
		mkey->sig_on = sig_given > 0;
	return 0;
}
