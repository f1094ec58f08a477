// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory keys: CREATE_MKEY, QUERY_MKEY, DESTROY_MKEY.
 *
 * A direct (MTT) mkey translates through pages: a user context's come
 * from a umem it owns, never from raw addresses.  An indirect mkey (KLM
 * or KSM) translates through other mkeys; it is created free, to be
 * filled by UMR later, or with its entries inline.  Every object an mkey
 * names is referenced, so none can be destroyed under it.  The key handed
 * to users is the index << 8 | the 8-bit tag (mkey_7_0).  An mkey over
 * device memory (MEMIC or SW_ICM access mode) is in mkey_dm.c.
 */
#include <linux/overflow.h>
#include <linux/slab.h>
#include "mkey.h"
#include "crypto.h"

/**
 * sim_mkey_drop_entries() - an indirect mkey lets go of its entries
 * @mkey: the mkey; it has none afterwards
 */
void sim_mkey_drop_entries(struct sim_mkey *mkey)
{
	struct sim_mkey_ent *ent = mkey->ent;
	u32 i;

	for (i = 0; i < mkey->nent; i++)
		sim_obj_put(ent[i].obj);
	if (ent != &mkey->umr_ent)
		kvfree(ent);
	mkey->ent = NULL;
	mkey->nent = 0;
	mkey->mw = false;
	mkey->rb_count = 0;
	mkey->rb_bytes = 0;
}

void sim_mkey_release(struct sim_obj *obj)
{
	struct sim_mkey *mkey = container_of(obj, struct sim_mkey, obj);

	sim_mkey_drop_entries(mkey);
	if (mkey->umem)
		sim_obj_put(&mkey->umem->obj);
	sim_obj_put(mkey->dm);
	sim_obj_put(mkey->pd);
}

static u8 sim_mkey_bad(struct sim_cmd_ctx *ctx)
{
	return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
}

/*
 * A signature mkey (bsf_en) carries one BSF, which UMR writes: it needs
 * the profile's signature offload (sho), an indirect access mode, umr_en
 * and a BSF of 4 octwords.  Its signature state lives in PSVs
 * (cmd_psv.c).  A crypto mkey's BSF has 4 more octwords for the crypto
 * BSF (libmlx5 asks for 4 for crypto alone, 8 with a signature).
 * Without bsf_en there is no BSF and no signature error to expect.
 */
static u8 sim_mkey_check_bsf(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     const void *mkc, u8 mode)
{
	u32 bsf_size = PRM_GET(mkc, mkc, bsf_octword_size);
	u32 crypto = prm_get_bits(mkc, SIM_MKC_CRYPTO_EN_OFF,
				  SIM_MKC_CRYPTO_EN_BITS) ?
		     SIM_MKEY_CRYPTO_BSF_OCTWORDS : 0;
	u32 sig;

	if (!PRM_GET(mkc, mkc, bsf_en)) {
		if (bsf_size || PRM_GET(mkc, mkc, expected_sigerr_count))
			return sim_mkey_bad(ctx);
		return PRM_STAT_OK;
	}
	if (bsf_size < crypto)
		return sim_mkey_bad(ctx);
	sig = bsf_size - crypto;
	if (sig && !SIM_CAP_GEN(sim, sho))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (mode == MLX5_MKC_ACCESS_MODE_MTT || !PRM_GET(mkc, mkc, umr_en) ||
	    !bsf_size || (sig && sig != SIM_MKEY_SIG_BSF_OCTWORDS))
		return sim_mkey_bad(ctx);
	return PRM_STAT_OK;
}

/*
 * A crypto mkey (crypto_en 1) encrypts or decrypts what passes through
 * it with the DEK its crypto BSF names.  UMR writes that BSF, so the mkey
 * needs the profile's crypto (BAD_CAP), an indirect access mode, umr_en
 * and bsf_en (BAD_FIELD).  crypto_en 2 and 3 are reserved.
 */
static u8 sim_mkey_check_crypto(struct mlx5x_sim *sim,
				struct sim_cmd_ctx *ctx, const void *mkc,
				u8 mode)
{
	u32 en = prm_get_bits(mkc, SIM_MKC_CRYPTO_EN_OFF,
			      SIM_MKC_CRYPTO_EN_BITS);

	if (!en)
		return PRM_STAT_OK;
	if (en > 1)
		return sim_mkey_bad(ctx);
	if (sim_crypto_mode(sim) == SIM_CRYPTO_NONE)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if ((mode != MLX5_MKC_ACCESS_MODE_KLMS &&
	     mode != MLX5_MKC_ACCESS_MODE_KSM) ||
	    !PRM_GET(mkc, mkc, umr_en) || !PRM_GET(mkc, mkc, bsf_en))
		return sim_mkey_bad(ctx);
	return PRM_STAT_OK;
}

/*
 * The parts of the context every access mode shares: mode, qpn, access
 * rights, and the features the profile does not offer.
 */
static u8 sim_mkey_check_mkc(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     const void *mkc, u8 *mode)
{
	bool lw = PRM_GET(mkc, mkc, lw);
	u8 status;

	*mode = PRM_GET(mkc, mkc, access_mode_4_2) << 2 |
		PRM_GET(mkc, mkc, access_mode_1_0);
	if (*mode != MLX5_MKC_ACCESS_MODE_MTT &&
	    *mode != MLX5_MKC_ACCESS_MODE_KLMS &&
	    *mode != MLX5_MKC_ACCESS_MODE_KSM && !sim_mkey_mode_dm(*mode))
		return sim_mkey_bad(ctx);
	/* an mkey bound to a QP is a firmware-internal thing */
	if (PRM_GET(mkc, mkc, qpn) != SIM_MKEY_QPN_NONE)
		return sim_mkey_bad(ctx);
	status = sim_mkey_check_crypto(sim, ctx, mkc, *mode);
	if (!status)
		status = sim_mkey_check_bsf(sim, ctx, mkc, *mode);
	if (status)
		return status;
	/*
	 * Remote invalidation frees the mkey for UMR to fill again: only
	 * an mkey UMR may change can have it.
	 */
	if (PRM_GET(mkc, mkc, en_rinval) && !PRM_GET(mkc, mkc, umr_en))
		return sim_mkey_bad(ctx);
	/* remote write and atomics need local write (IB access rules) */
	if ((PRM_GET(mkc, mkc, rw) || PRM_GET(mkc, mkc, a)) && !lw)
		return sim_mkey_bad(ctx);
	/* a length of 2^64 says len is 0, and only an indirect key has it */
	if (PRM_GET(mkc, mkc, length64) &&
	    (PRM_GET64(mkc, mkc, len) || *mode == MLX5_MKC_ACCESS_MODE_MTT ||
	     sim_mkey_mode_dm(*mode)))
		return sim_mkey_bad(ctx);
	return PRM_STAT_OK;
}

static bool sim_mkey_log_page_ok(u32 log_page)
{
	return log_page >= SIM_MKEY_MIN_LOG_PAGE &&
	       log_page <= SIM_MKEY_MAX_LOG_PAGE;
}

/*
 * A direct mkey: the pages of [start_addr, start_addr + len), 1 <<
 * log_page_size bytes each, must fit its translation table; a user
 * context's come from its umem, at mkey_umem_offset.
 */
static u8 sim_mkey_direct(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			  struct sim_mkey *mkey, u64 octwords)
{
	const void *in = ctx->in;
	const void *mkc = PRM_ADDR(create_mkey_in, in, memory_key_mkey_entry);
	u64 start = PRM_GET64(mkc, mkc, start_addr);
	u64 len = PRM_GET64(mkc, mkc, len);
	u32 log_page = PRM_GET(mkc, mkc, log_page_size);
	u64 mask, span, pages, actual, end;
	struct sim_umem *umem;
	u64 offset;
	u8 status;

	if (!sim_mkey_log_page_ok(log_page) || !len ||
	    check_add_overflow(start, len - 1, &end))
		return sim_mkey_bad(ctx);
	mask = BIT_ULL(log_page) - 1;
	if (check_add_overflow(start & mask, len, &span))
		return sim_mkey_bad(ctx);
	pages = (span >> log_page) + !!(span & mask);

	if (!PRM_GET(create_mkey_in, in, mkey_umem_valid)) {
		/* raw page addresses: only the kernel may give them */
		if (ctx->uid || pages > octwords * 2)
			return sim_mkey_bad(ctx);
		actual = PRM_GET(create_mkey_in, in,
				 translations_octword_actual_size);
		if (actual > octwords || actual * 2 < pages)
			return sim_mkey_bad(ctx);
		if (ctx->inlen < PRM_BYTES(create_mkey_in) +
				 actual * SIM_OCTWORD_BYTES)
			return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN,
					SIM_SYND_BAD_INLEN);
		return PRM_STAT_OK;
	}

	offset = be64_to_cpu(*(const __be64 *)((const u8 *)in +
					       SIM_MKEY_UMEM_OFFSET_OFF / 8));
	status = sim_umem_ref(sim, ctx,
			      prm_get_bits(in, SIM_MKEY_UMEM_ID_OFF, 32),
			      offset, len, &umem);
	if (status)
		return status;
	/*
	 * The mkey's pages are cut from the umem's: no larger, and its
	 * first byte sits at the same place in a page as the umem's byte;
	 * its table holds them, two 8-byte MTT entries per octword, but
	 * over an implicit ODP umem, whose own entries are the mkey's.
	 */
	if (log_page > umem->log_page ||
	    ((umem->page_offset + offset) ^ start) & mask ||
	    (pages > octwords * 2 && !umem->sparse)) {
		sim_obj_put(&umem->obj);
		return sim_mkey_bad(ctx);
	}
	/*
	 * no access wider than the pages': a write needs wr_en on each, or
	 * an ODP umem whose pages may be given writable (mem/odp.c)
	 */
	if ((PRM_GET(mkc, mkc, lw) || PRM_GET(mkc, mkc, rw) ||
	     PRM_GET(mkc, mkc, a)) &&
	    !(umem->odp ? umem->odp_wr : sim_umem_writable(umem, offset, len))) {
		sim_obj_put(&umem->obj);
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_UMEM_RO);
	}
	mkey->umem = umem;
	mkey->umem_off = offset;
	return PRM_STAT_OK;
}

/*
 * An indirect mkey's inline entries: each names an mkey of the same
 * context by its key (index and tag), which is referenced.
 */
static u8 sim_mkey_entries(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   struct sim_mkey *mkey, u64 octwords)
{
	const void *in = ctx->in;
	const void *mkc = PRM_ADDR(create_mkey_in, in, memory_key_mkey_entry);
	const struct sim_klm *klm = PRM_ADDR(create_mkey_in, in, klm_pas_mtt);
	u32 actual = PRM_GET(create_mkey_in, in,
			     translations_octword_actual_size);
	u32 log_page = PRM_GET(mkc, mkc, log_page_size);
	u32 max_depth = SIM_CAP_GEN(sim, max_indirection);
	struct sim_mkey_ent *ent;
	u64 covered = 0;
	u32 i;
	u8 status;

	if (mkey->access_mode == MLX5_MKC_ACCESS_MODE_KSM &&
	    !sim_mkey_log_page_ok(log_page))
		return sim_mkey_bad(ctx);
	if (actual > octwords || (actual && PRM_GET(mkc, mkc, free)))
		return sim_mkey_bad(ctx);
	if (ctx->inlen < PRM_BYTES(create_mkey_in) +
			 (size_t)actual * sizeof(*klm))
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN,
				SIM_SYND_BAD_INLEN);
	mkey->depth = 1;
	if (!actual)
		goto check_len;

	ent = kvcalloc(actual, sizeof(*ent), GFP_KERNEL);
	if (!ent)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	mkey->ent = ent;
	for (i = 0; i < actual; i++) {
		u32 key = be32_to_cpu(klm[i].key);
		struct sim_mkey *target;

		status = sim_obj_ref(sim, ctx, SIM_OBJ_MKEY, key >> 8,
				     &ent[i].obj);
		if (status)
			return status;
		mkey->nent++;
		ent[i].klm = klm[i];
		target = container_of(ent[i].obj, struct sim_mkey, obj);
		/* a key whose tag is not the mkey's names nothing */
		if (sim_mkey_key(target) != key)
			return sim_fail(ctx, PRM_STAT_BAD_RESOURCE,
					SIM_SYND_NO_OBJECT);
		if (target->depth + 1 > max_depth)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_CAP);
		mkey->depth = max_t(u8, mkey->depth, target->depth + 1);
		if (mkey->access_mode == MLX5_MKC_ACCESS_MODE_KLMS)
			covered += be32_to_cpu(klm[i].bcount);
	}
	if (mkey->access_mode == MLX5_MKC_ACCESS_MODE_KSM)
		covered = (u64)actual << log_page;

check_len:
	/* an mkey in use reaches no further than its entries */
	if (!PRM_GET(mkc, mkc, free) &&
	    (PRM_GET(mkc, mkc, length64) || PRM_GET64(mkc, mkc, len) > covered))
		return sim_mkey_bad(ctx);
	return PRM_STAT_OK;
}

/*
 * translations_octword_size, rounded up as firmware keeps it; an indirect
 * mkey's table holds one entry per octword, at most 1 <<
 * log_max_klm_list_size of them.
 */
static u8 sim_mkey_octwords(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    u8 mode, u64 *octwords)
{
	const void *mkc = PRM_ADDR(create_mkey_in, ctx->in,
				   memory_key_mkey_entry);
	u64 size = PRM_GET(mkc, mkc, translations_octword_size);

	size = round_up(size, SIM_MKEY_OCTWORD_ALIGN);
	if (mode == MLX5_MKC_ACCESS_MODE_MTT || sim_mkey_mode_dm(mode)) {
		if (size > U32_MAX)
			return sim_mkey_bad(ctx);
	} else {
		if (!size)
			return sim_mkey_bad(ctx);
		if (size > BIT_ULL(SIM_CAP_GEN(sim, log_max_klm_list_size)))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_CAP);
	}
	*octwords = size;
	return PRM_STAT_OK;
}

static u8 sim_create_mkey(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *mkc = PRM_ADDR(create_mkey_in, ctx->in,
				   memory_key_mkey_entry);
	struct sim_mkey tmp = {}, *mkey;
	struct sim_obj *obj;
	u64 octwords;
	u8 status, mode;

	if (ctx->op_mod)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	status = sim_mkey_check_mkc(sim, ctx, mkc, &mode);
	if (!status)
		status = sim_mkey_octwords(sim, ctx, mode, &octwords);
	if (status)
		return status;
	tmp.access_mode = mode;
	/* the PD must be the context's own */
	status = sim_obj_ref(sim, ctx, SIM_OBJ_PD, PRM_GET(mkc, mkc, pd),
			     &tmp.pd);
	if (status)
		return status;
	if (mode == MLX5_MKC_ACCESS_MODE_MTT)
		status = sim_mkey_direct(sim, ctx, &tmp, octwords);
	else if (sim_mkey_mode_dm(mode))
		status = sim_mkey_dm(sim, ctx, &tmp, octwords);
	else
		status = sim_mkey_entries(sim, ctx, &tmp, octwords);
	if (!status)
		status = sim_obj_alloc(sim, ctx, SIM_OBJ_MKEY, &obj);
	if (status) {
		sim_mkey_release(&tmp.obj);
		return status;
	}
	mkey = container_of(obj, struct sim_mkey, obj);
	tmp.obj = *obj;
	*mkey = tmp;
	memcpy(mkey->mkc, mkc, sizeof(mkey->mkc));
	PRM_SET(mkc, mkey->mkc, translations_octword_size, octwords);
	PRM_SET(create_mkey_out, ctx->out, mkey_index, obj->id);
	return PRM_STAT_OK;
}

static u8 sim_query_mkey(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	void *klm_out = PRM_ADDR(query_mkey_out, ctx->out,
				 bsf0_klm0_pas_mtt0_1);
	struct sim_mkey_ent *ent;
	struct sim_mkey *mkey;
	struct sim_obj *obj;
	u8 status;
	u32 i;

	status = sim_obj_lookup(sim, ctx, SIM_OBJ_MKEY,
				PRM_GET(query_mkey_in, ctx->in, mkey_index),
				&obj);
	if (status)
		return status;
	mkey = container_of(obj, struct sim_mkey, obj);
	memcpy(PRM_ADDR(query_mkey_out, ctx->out, memory_key_mkey_entry),
	       mkey->mkc, sizeof(mkey->mkc));
	/* the first two entries of an indirect mkey follow */
	ent = mkey->ent;
	for (i = 0; i < mkey->nent && i < 2; i++)
		memcpy((u8 *)klm_out + i * sizeof(struct sim_klm),
		       &ent[i].klm, sizeof(struct sim_klm));
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_mkey_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_MKEY, "CREATE_MKEY", create_mkey_in,
		create_mkey_out, true, sim_create_mkey),
	SIM_CMD(MLX5_CMD_OP_QUERY_MKEY, "QUERY_MKEY", query_mkey_in,
		query_mkey_out, true, sim_query_mkey),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_MKEY, "DESTROY_MKEY",
		     destroy_mkey_in, destroy_mkey_out, SIM_OBJ_MKEY,
		     mkey_index),
};

const struct sim_cmd_set sim_mkey_cmds = {
	sim_mkey_cmd_list, ARRAY_SIZE(sim_mkey_cmd_list)
};
