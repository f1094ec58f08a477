// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The UMR WQE (opcode 0x25) of an RC or UC QP, and the invalidation of a
 * memory window by a SEND with invalidate.
 *
 * A UMR rewrites an mkey of the QP's context without a command: which
 * fields of its context (the mkey mask), with what (the mkey context
 * segment, laid out as the mkey context of CREATE_MKEY), and its
 * translation (the KLM list, inline).  libmlx5 posts one for each memory
 * window operation (providers/mlx5/qp.c, as rdma-core 44 lays it out):
 *
 * - a bind (ibv_bind_mw(), IBV_WR_BIND_MW, ibv_wr_bind_mw()): the window
 *   in use, its new tag, start, length and rights, one KLM naming the
 *   MR; for a type 2 window the QP it is bound to, and the window must
 *   be free (CHECK_FREE);
 * - a zero-length bind, and LOCAL_INV (which is a zero-length type 2
 *   bind of the key to invalidate): the window free again, no KLM; for
 *   type 2 only from the QP it is bound to (CHECK_QPN).
 *
 * The WQE: the control segment (its immediate names the mkey), the UMR
 * control segment (flags, KLM octowords, mkey mask), the mkey context
 * segment, then the KLM octowords in 64-byte units.  sim_umr_parse()
 * reads any UMR into struct sim_umr; what is executed is what the model
 * has of it: a window's context and one KLM, or a KLM list or repeat
 * block of mlx5dv_wr_mkey_configure() (umr_mkey.c, umr_repeat.c) with, on
 * a crypto mkey, its crypto BSF (crypto_bsf.c), on a signature mkey its
 * signature BSF (sig_bsf.c).  The other UMRs of a ConnectX (MTT and KSM
 * translations, a translation offset) are a local QP operation error
 * until they are modelled.
 *
 * Every refusal of a window operation is the error CQE a ConnectX
 * writes, MW_BIND_ERR (libmlx5: IBV_WC_MW_BIND_ERR), and the mkey is left
 * as it was: every check runs before the first field changes.
 */
#include <linux/bitfield.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "umr.h"
#include "wqe.h"

/**
 * struct sim_wqe_umr_ctrl - the UMR control segment, after the control
 * segment (struct mlx5_wqe_umr_ctrl_seg)
 * @flags: SIM_UMR_*
 * @rsvd0: reserved
 * @klm_octowords: 16-byte translation entries that follow, inline
 * @translation_offset: the first entry they replace (SIM_UMR_XLT_OFFSET)
 * @mkey_mask: the fields of the mkey context segment that are written
 *	       (SIM_UMR_MASK_*)
 * @rsvd1: reserved
 */
struct sim_wqe_umr_ctrl {
	u8 flags;
	u8 rsvd0[3];
	__be16 klm_octowords;
	__be16 translation_offset;
	__be64 mkey_mask;
	u8 rsvd1[32];
};

static_assert(sizeof(struct sim_wqe_umr_ctrl) == 48);

/*
 * Read the UMR WQE @wqe of @len bytes into @u.  Returns 0; -EINVAL when
 * its segments do not fit its size (a local length error); -EOPNOTSUPP
 * for a UMR the model does not execute (a local QP operation error).
 */
static int sim_umr_parse(const u8 *wqe, size_t len, struct sim_umr *u)
{
	const struct sim_wqe_ctrl *c = (const void *)wqe;
	const struct sim_wqe_umr_ctrl *uc;
	size_t end, off = sizeof(*c);
	u16 xlt_off;

	end = (size_t)(be32_to_cpu(c->qpn_ds) & SIM_WQE_CTRL_DS_MASK) *
	      SIM_WQE_SEG;
	if (end > len ||
	    end < sizeof(*c) + sizeof(*uc) + PRM_BYTES(mkc))
		return -EINVAL;
	u->key = be32_to_cpu(c->imm);
	uc = (const void *)(wqe + off);
	off += sizeof(*uc);
	u->flags = uc->flags;
	u->mask = be64_to_cpu(uc->mkey_mask);
	u->nklm = be16_to_cpu(uc->klm_octowords);
	u->mkc = wqe + off;
	off += PRM_BYTES(mkc);
	u->klm = (const void *)(wqe + off);
	if (u->nklm &&
	    ALIGN((size_t)u->nklm * sizeof(struct sim_klm),
		  SIM_UMR_XLT_ALIGN) > end - off)
		return -EINVAL;
	/* without a translation offset, the field sizes a BSF (crypto_bsf.c) */
	xlt_off = be16_to_cpu(uc->translation_offset);
	u->nbsf = 0;
	if ((u->mask & SIM_UMR_MASK_BSF_EN) && !(u->flags & SIM_UMR_XLT_OFFSET)) {
		u->nbsf = xlt_off;
		xlt_off = 0;
		off += ALIGN((size_t)u->nklm * sizeof(struct sim_klm),
			     SIM_UMR_XLT_ALIGN);
		u->bsf = wqe + off;
		if ((size_t)u->nbsf * SIM_OCTWORD_BYTES > end - off)
			return -EINVAL;
	}
	/* a list by pointer, at an offset, a field not modelled: not yet */
	if ((u->nklm && !(u->flags & SIM_UMR_INLINE)) || xlt_off ||
	    FIELD_GET(SIM_UMR_CHECK_STATE, u->flags) >
	    SIM_UMR_MUST_BE_IN_USE || u->mask & ~SIM_UMR_MASK_MODELLED)
		return -EOPNOTSUPP;
	return 0;
}

/* A window's bind names one KLM: what follows it is libmlx5's padding. */
static bool sim_umr_one_klm(struct sim_umr *u)
{
	u32 i;

	for (i = 1; i < u->nklm; i++)
		if (memchr_inv(&u->klm[i], 0, sizeof(u->klm[i])))
			return false;
	u->nklm = min_t(u32, u->nklm, 1);
	return true;
}

/* The mkey context after the UMR: the masked fields of @u, else @cur's. */
static u32 sim_umr_field(const struct sim_umr *u, const void *cur, u64 bit,
			 u32 off, u32 bits)
{
	return prm_get_bits(u->mask & bit ? u->mkc : cur, off, bits);
}

#define SIM_UMR_GET(u, cur, bit, fld)					\
	sim_umr_field(u, cur, bit, PRM_BIT_OFF(mkc, fld), PRM_BIT_SZ(mkc, fld))

static u64 sim_umr_field64(const struct sim_umr *u, const void *cur, u64 bit,
			   u32 off)
{
	const void *src = u->mask & bit ? u->mkc : cur;

	return be64_to_cpu(*(const __be64 *)((const u8 *)src + off / 8));
}

/* The rights the window will grant, as enum sim_mkey_rights. */
static unsigned int sim_umr_rights(const struct sim_umr *u, const void *cur)
{
	unsigned int r = 0;

	if (SIM_UMR_GET(u, cur, SIM_UMR_MASK_LR, lr))
		r |= SIM_MKEY_LOCAL_READ;
	if (SIM_UMR_GET(u, cur, SIM_UMR_MASK_LW, lw))
		r |= SIM_MKEY_LOCAL_WRITE;
	if (SIM_UMR_GET(u, cur, SIM_UMR_MASK_RR, rr))
		r |= SIM_MKEY_REMOTE_READ;
	if (SIM_UMR_GET(u, cur, SIM_UMR_MASK_RW, rw))
		r |= SIM_MKEY_REMOTE_WRITE;
	if (SIM_UMR_GET(u, cur, SIM_UMR_MASK_A, a))
		r |= SIM_MKEY_ATOMIC;
	return r;
}

/* The rights an MR grants, as enum sim_mkey_rights. */
static unsigned int sim_umr_mr_rights(const struct sim_mkey *mr)
{
	struct sim_umr none = {};

	return sim_umr_rights(&none, mr->mkc);
}

/*
 * The MR a bind's KLM names: a live direct mkey over a umem, by its whole
 * key, of the QP's context and the window's PD, holding the window's
 * range, granting the local rights the window's stand on.
 */
static struct sim_mkey *sim_umr_mr(struct mlx5x_sim *sim,
				   const struct sim_umr_qp *qp,
				   const struct sim_mkey *mw,
				   const struct sim_umr *u, u64 len,
				   unsigned int rights)
{
	const struct sim_klm *klm = u->klm;
	u32 key = be32_to_cpu(klm->key), bcount = be32_to_cpu(klm->bcount);
	u64 va = be64_to_cpu(klm->va), mr_start, mr_len;
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], key >> 8);
	struct sim_mkey *mr;

	if (!obj || obj->uid != qp->uid)
		return NULL;
	mr = container_of(obj, struct sim_mkey, obj);
	if (sim_mkey_key(mr) != key || mr == mw || mr->pd != mw->pd ||
	    mr->access_mode != MLX5_MKC_ACCESS_MODE_MTT || !mr->umem ||
	    PRM_GET(mkc, mr->mkc, free))
		return NULL;
	mr_start = PRM_GET64(mkc, mr->mkc, start_addr);
	mr_len = PRM_GET64(mkc, mr->mkc, len);
	/* the KLM inside the MR, the window no longer than the KLM */
	if (va < mr_start || va - mr_start > mr_len ||
	    bcount > mr_len - (va - mr_start) || len > bcount)
		return NULL;
	if (sim_mkey_mw_rights(rights) & ~sim_umr_mr_rights(mr))
		return NULL;
	return mr;
}

/* The window @u names: an mkey UMR may change, of the QP's context and PD. */
static struct sim_mkey *sim_umr_target(struct mlx5x_sim *sim,
				       const struct sim_umr_qp *qp, u32 key)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], key >> 8);
	struct sim_mkey *mkey;

	if (!obj || obj->uid != qp->uid)
		return NULL;
	mkey = container_of(obj, struct sim_mkey, obj);
	if (!PRM_GET(mkc, mkey->mkc, umr_en) ||
	    mkey->access_mode != MLX5_MKC_ACCESS_MODE_KLMS ||
	    mkey->pd->id != qp->pdn)
		return NULL;
	return mkey;
}

/*
 * Whether the UMR @u may change window @mw, posted on @qp; the MR a bind
 * names in *@mr.  Returns 0 or the error CQE's syndrome.
 */
static u32 sim_umr_window_check(struct mlx5x_sim *sim,
				const struct sim_umr_qp *qp,
				struct sim_mkey *mw, const struct sim_umr *u,
				struct sim_mkey **mr)
{
	const void *cur = mw->mkc;
	bool type2 = PRM_GET(mkc, cur, en_rinval);
	bool was_free = PRM_GET(mkc, cur, free);
	bool free = SIM_UMR_GET(u, cur, SIM_UMR_MASK_FREE, free);
	u32 qpn = SIM_UMR_GET(u, cur, SIM_UMR_MASK_QPN, qpn);
	u32 state = FIELD_GET(SIM_UMR_CHECK_STATE, u->flags);
	u64 len = sim_umr_field64(u, cur, SIM_UMR_MASK_LEN,
				  PRM_BIT_OFF(mkc, len));

	/* signature and crypto mkeys are configured, not bound */
	if (PRM_GET(mkc, cur, bsf_en) || sim_mkey_crypto(mw) ||
	    (u->mask & (SIM_UMR_MASK_BSF_EN | SIM_UMR_MASK_EN_SIGERR)))
		return SIM_CQE_SYND_LOCAL_QP_OP;
	if ((state == SIM_UMR_MUST_BE_FREE && !was_free) ||
	    (state == SIM_UMR_MUST_BE_IN_USE && was_free) ||
	    ((u->flags & SIM_UMR_CHECK_QPN) &&
	     PRM_GET(mkc, cur, qpn) != qp->qpn))
		return SIM_CQE_SYND_MW_BIND;
	/*
	 * A type 2 window is bound to the QP that binds it and freed from
	 * it; a type 1 window is bound to none.
	 */
	if (type2 != !!(u->mask & SIM_UMR_MASK_QPN) ||
	    (type2 && qpn != (free ? SIM_MKEY_QPN_NONE : qp->qpn)) ||
	    (!type2 && PRM_GET(mkc, cur, qpn) != SIM_MKEY_QPN_NONE))
		return SIM_CQE_SYND_MW_BIND;
	/* what frees a window names it by its whole key: no stale one */
	if (free && !u->nklm && sim_mkey_key(mw) != u->key)
		return SIM_CQE_SYND_MW_BIND;
	*mr = NULL;
	if (free)
		return u->nklm ? SIM_CQE_SYND_MW_BIND : 0;
	/* in use: one KLM, a length it covers (a KLM holds 2 GiB at most) */
	if (!u->nklm || u->nklm * SIM_MKEY_OCTWORD_ALIGN >
	    PRM_GET(mkc, cur, translations_octword_size) ||
	    SIM_UMR_GET(u, cur, SIM_UMR_MASK_LEN, length64))
		return SIM_CQE_SYND_MW_BIND;
	*mr = sim_umr_mr(sim, qp, mw, u, len, sim_umr_rights(u, cur));
	return *mr ? 0 : SIM_CQE_SYND_MW_BIND;
}

/**
 * sim_umr_write_mkc() - write the masked fields of a UMR into its mkey
 * @mkey: the mkey
 * @u: the UMR, checked: free, tag, QP, rights, start and length
 */
void sim_umr_write_mkc(struct sim_mkey *mkey, const struct sim_umr *u)
{
	static const struct {
		u64 bit;
		u16 off, bits;
	} fields[] = {
		{ SIM_UMR_MASK_FREE, PRM_BIT_OFF(mkc, free), 1 },
		{ SIM_UMR_MASK_KEY, PRM_BIT_OFF(mkc, mkey_7_0), 8 },
		{ SIM_UMR_MASK_QPN, PRM_BIT_OFF(mkc, qpn), 24 },
		{ SIM_UMR_MASK_LR, PRM_BIT_OFF(mkc, lr), 1 },
		{ SIM_UMR_MASK_LW, PRM_BIT_OFF(mkc, lw), 1 },
		{ SIM_UMR_MASK_RR, PRM_BIT_OFF(mkc, rr), 1 },
		{ SIM_UMR_MASK_RW, PRM_BIT_OFF(mkc, rw), 1 },
		{ SIM_UMR_MASK_A, PRM_BIT_OFF(mkc, a), 1 },
		{ SIM_UMR_MASK_EN_SIGERR,
		  PRM_BIT_OFF(mkc, expected_sigerr_count), 1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (u->mask & fields[i].bit)
			prm_set_bits(mkey->mkc, fields[i].off, fields[i].bits,
				     prm_get_bits(u->mkc, fields[i].off,
						  fields[i].bits));
	if (u->mask & SIM_UMR_MASK_START)
		PRM_SET64(mkc, mkey->mkc, start_addr,
			  PRM_GET64(mkc, u->mkc, start_addr));
	if (u->mask & SIM_UMR_MASK_LEN)
		PRM_SET64(mkc, mkey->mkc, len, PRM_GET64(mkc, u->mkc, len));
}

/* Write the masked fields of @u and the KLM naming @mr into window @mw. */
static void sim_umr_window_apply(struct sim_mkey *mw, const struct sim_umr *u,
				 struct sim_mkey *mr)
{
	sim_umr_write_mkc(mw, u);
	/* the MR it held may go, once no window holds it */
	if (u->nklm || PRM_GET(mkc, mw->mkc, free))
		sim_mkey_drop_entries(mw);
	if (!mr)
		return;
	mr->obj.users++;
	mw->umr_ent.obj = &mr->obj;
	mw->umr_ent.klm = *u->klm;
	mw->ent = &mw->umr_ent;
	mw->nent = 1;
	mw->depth = 1;
	mw->mw = true;
}

/**
 * sim_umr_exec() - execute a UMR WQE
 * @sim: the model, its lock held
 * @qp: the QP that posted it: its context, PD and number
 * @wqe: its bytes, from the control segment on
 * @len: how many of them there are (at least its size)
 *
 * Return: 0, or the syndrome of the error CQE it completes with:
 * LOCAL_LENGTH (its segments do not fit its size), LOCAL_QP_OP (a UMR
 * the model does not execute), MW_BIND (the window or the bind refused).
 */
u32 sim_umr_exec(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		 const u8 *wqe, size_t len)
{
	struct sim_mkey *mw, *mr;
	struct sim_umr u;
	u32 synd;
	int err;

	lockdep_assert_held(&sim->lock);
	err = sim_umr_parse(wqe, len, &u);
	if (err)
		return err == -EINVAL ? SIM_CQE_SYND_LOCAL_LENGTH :
					SIM_CQE_SYND_LOCAL_QP_OP;
	if (qp->reg_umr)
		return sim_umr_rereg(sim, &u);	/* umr_rereg.c */
	/* a context's UMR moves no mkey to another PD */
	if (u.mask & SIM_UMR_MASK_PD)
		return SIM_CQE_SYND_LOCAL_QP_OP;
	mw = sim_umr_target(sim, qp, u.key);
	if (!mw)
		return SIM_CQE_SYND_MW_BIND;
	if (sim_umr_mkey_op(mw, &u))
		return sim_umr_mkey(sim, qp, mw, &u);	/* umr_mkey.c */
	if (!sim_umr_one_klm(&u))
		return SIM_CQE_SYND_LOCAL_QP_OP;
	synd = sim_umr_window_check(sim, qp, mw, &u, &mr);
	if (!synd)
		sim_umr_window_apply(mw, &u, mr);
	return synd;
}

/**
 * sim_umr_invalidate() - a SEND with invalidate reaches its responder
 * @sim: the model, its lock held
 * @qp: the responder: its context, PD and number
 * @key: the rkey the message names
 *
 * The key must be a type 2 window (en_rinval) of the responder's context
 * and PD, in use and bound to the responder (IBTA 10.6.7.2.6), or an
 * mkey with en_rinval that a configure filled (umr_mkey.c), bound to no
 * QP; it is freed, and lets go of what it named.
 *
 * Return: true if it was invalidated; false, and nothing changed.
 */
bool sim_umr_invalidate(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
			u32 key)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], key >> 8);
	struct sim_mkey *mw;

	lockdep_assert_held(&sim->lock);
	if (!obj || obj->uid != qp->uid)
		return false;
	mw = container_of(obj, struct sim_mkey, obj);
	if (sim_mkey_key(mw) != key || !PRM_GET(mkc, mw->mkc, en_rinval) ||
	    PRM_GET(mkc, mw->mkc, free) || mw->pd->id != qp->pdn ||
	    (!mw->klm_list && PRM_GET(mkc, mw->mkc, qpn) != qp->qpn))
		return false;
	PRM_SET(mkc, mw->mkc, free, 1);
	PRM_SET(mkc, mw->mkc, qpn, SIM_MKEY_QPN_NONE);
	sim_mkey_drop_entries(mw);
	return true;
}

static struct sim_umr_qp sim_umr_qp(const struct sim_qp *qp)
{
	return (struct sim_umr_qp){ .uid = qp->q.obj.uid,
				    .pdn = sim_qp_pdn(qp),
				    .qpn = qp->q.obj.id,
				    .reg_umr = sim_dp_reg_umr(qp) };
}

/**
 * sim_dp_umr() - execute the UMR WQE of an RC, UC or REG_UMR QP
 * @dp: the data path, the model's lock held; the WQE in @dp->wqe
 * @qp: the QP that posted it
 *
 * Return: 0, or the syndrome of its error CQE (sim_umr_exec()).
 */
u32 sim_dp_umr(struct sim_dp *dp, struct sim_qp *qp)
{
	struct sim_umr_qp who = sim_umr_qp(qp);

	return sim_umr_exec(dp->sim, &who, dp->wqe, sizeof(dp->wqe));
}

/**
 * sim_dp_mw_invalidate() - the responder @qp of a SEND with invalidate
 * invalidates @key (sim_umr_invalidate())
 * @sim: the model, its lock held
 * @qp: the responder
 * @key: the rkey the message names
 *
 * Return: true if it was invalidated.
 */
bool sim_dp_mw_invalidate(struct mlx5x_sim *sim, struct sim_qp *qp, u32 key)
{
	struct sim_umr_qp who = sim_umr_qp(qp);

	return sim_umr_invalidate(sim, &who, key);
}
