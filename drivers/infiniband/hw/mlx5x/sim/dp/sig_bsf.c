// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The signature BSF of a UMR WQE: what mlx5dv_wr_set_mkey_sig_block()
 * makes libmlx5 44 put after the KLM list of mlx5dv_wr_mkey_configure()'s
 * UMR on a signature mkey (BLOCK_SIGNATURE: bsf_en, 4 BSF octowords),
 * and what it configures for the data path (dp_sig.c).  It is struct
 * mlx5_bsf of <linux/mlx5/qp.h>, 64 bytes:
 *
 *   byte 0      7: basic + extended + inline (must be set), 4: the same
 *               block structure in both domains (byte 2 is then the copy
 *               mask), 6: a crypto BSF follows (not with signature here)
 *   byte 1      check mask: the input domain's signature bytes checked
 *   byte 2      the wire domain's block size selector, or the copy mask
 *   byte 3      the memory domain's block size selector: 512 bytes (1),
 *               520 (2), 4096 (3), 4160 (4), 4048 (6)
 *   bytes 4-7   raw data size: all of it (0xffffffff), as libmlx5 writes
 *   bytes 8-11  the wire domain's block format selector (31:24) and PSV
 *   bytes 12-15 the memory domain's
 *   bytes 16-31 extended section: 0
 *   bytes 32-47 the wire domain's T10-DIF inline section, 48-63 the memory
 *               domain's: valid (15) and refresh (14) bits, application
 *               tag, reference tag, guard type (1 CRC, 2 IP checksum),
 *               repeating block (7) and seed (3) bits, 3 reserved bytes,
 *               reference tag increment (6) and escape (1: application
 *               tag, 2: both tags) bits, application tag check mask
 *
 * A CRC domain has no inline section; its block format selector is the
 * CRC's (0x20 CRC32, 0x40 CRC32C, 0x50 CRC64-XP10) with the repeating
 * block bit (1) and the zero seed bit (0).  A T10-DIF domain's selector
 * is 0; a domain without signature has neither, and block size 0.
 *
 * What the model refuses, with the configure's error CQE (MW_BIND) and
 * the mkey left as it was: a reserved bit or byte set, a block size or
 * guard it does not compute (CRC64-XP10, 1 GiB blocks, an application
 * tag check mask other than all ones), a BSF with no signature in
 * either domain, two signature domains of different block sizes, a
 * crypto BSF after it, a PSV that is not one of the context's on the
 * mkey's PD.  A configure that clears bsf_en with no BSF takes the
 * signature off (libmlx5 does so for a configure without
 * mlx5dv_wr_set_mkey_sig_block(), and for
 * MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR); one that does not name bsf_en
 * leaves the BSF as it was.
 */
#include "../mem/psv.h"
#include "sig.h"
#include "umr.h"
#include "wqe.h"

#define SIM_SBSF_BASIC		0x80
#define SIM_SBSF_SBS		0x10
#define SIM_SBSF_PSV_MASK	GENMASK(23, 0)
/* block format selectors of the CRCs, and their bits */
#define SIM_SBSF_BFS_KIND	0xf0
#define SIM_SBSF_BFS_CRC32	0x20
#define SIM_SBSF_BFS_CRC32C	0x40
#define SIM_SBSF_BFS_REPEAT	0x02
#define SIM_SBSF_BFS_ZERO_SEED	0x01
/* the inline section */
#define SIM_SBSF_INL_VALID	0x8000
#define SIM_SBSF_INL_REFRESH	0x4000
#define SIM_SBSF_DIF_CRC	1
#define SIM_SBSF_DIF_IPCS	2
#define SIM_SBSF_REPEAT		0x80
#define SIM_SBSF_SEED		0x08
#define SIM_SBSF_INC_REF	0x40
#define SIM_SBSF_ESC_APP	0x01
#define SIM_SBSF_ESC_APPREF	0x02

/**
 * struct sim_sbsf_inl - a domain's T10-DIF inline section
 * @vld_refresh: valid and refresh bits
 * @apptag: application tag
 * @reftag: the first block's reference tag
 * @sig_type: guard type
 * @rp_inv_seed: repeating block and seed bits
 * @rsvd: reserved
 * @inc_esc: reference tag increment and escape bits
 * @app_mask: application tag check mask
 */
struct sim_sbsf_inl {
	__be16 vld_refresh;
	__be16 apptag;
	__be32 reftag;
	u8 sig_type;
	u8 rp_inv_seed;
	u8 rsvd[3];
	u8 inc_esc;
	__be16 app_mask;
};

/**
 * struct sim_sbsf - a signature BSF
 * @size_sbs: byte 0
 * @check: check mask
 * @wire_sel: the wire domain's block size selector, or the copy mask
 * @mem_sel: the memory domain's block size selector
 * @raw_size: raw data size
 * @w_bfs_psv: the wire domain's block format selector and PSV
 * @m_bfs_psv: the memory domain's
 * @ext: extended section
 * @w: the wire domain's inline section
 * @m: the memory domain's
 */
struct sim_sbsf {
	u8 size_sbs;
	u8 check;
	u8 wire_sel;
	u8 mem_sel;
	__be32 raw_size;
	__be32 w_bfs_psv;
	__be32 m_bfs_psv;
	u8 ext[16];
	struct sim_sbsf_inl w;
	struct sim_sbsf_inl m;
};

static_assert(sizeof(struct sim_sbsf) == SIM_BSF_BYTES);

/* A T10-DIF inline section into @d; false if a field is not executed. */
static bool sim_sbsf_dif(const struct sim_sbsf_inl *inl,
			 struct sim_sig_domain *d)
{
	u16 vld = be16_to_cpu(inl->vld_refresh);

	if ((vld & ~SIM_SBSF_INL_REFRESH) != SIM_SBSF_INL_VALID ||
	    (inl->sig_type != SIM_SBSF_DIF_CRC &&
	     inl->sig_type != SIM_SBSF_DIF_IPCS) ||
	    (inl->rp_inv_seed & ~SIM_SBSF_SEED) != SIM_SBSF_REPEAT ||
	    memchr_inv(inl->rsvd, 0, sizeof(inl->rsvd)) ||
	    (inl->inc_esc & ~(SIM_SBSF_INC_REF | SIM_SBSF_ESC_APP |
			      SIM_SBSF_ESC_APPREF)) ||
	    (inl->inc_esc & SIM_SBSF_ESC_APP &&
	     inl->inc_esc & SIM_SBSF_ESC_APPREF) ||
	    be16_to_cpu(inl->app_mask) != U16_MAX)
		return false;
	d->kind = SIM_SIG_T10DIF;
	d->ipcs = inl->sig_type == SIM_SBSF_DIF_IPCS;
	d->seed = inl->rp_inv_seed & SIM_SBSF_SEED;
	d->inc_ref = inl->inc_esc & SIM_SBSF_INC_REF;
	d->escape = inl->inc_esc & (SIM_SBSF_ESC_APP | SIM_SBSF_ESC_APPREF);
	d->apptag = be16_to_cpu(inl->apptag);
	d->reftag = be32_to_cpu(inl->reftag);
	return true;
}

/* One domain: its selector, block format and PSV, inline section. */
static bool sim_sbsf_domain(u8 sel, __be32 bfs_psv,
			    const struct sim_sbsf_inl *inl,
			    struct sim_sig_domain *d)
{
	u32 v = be32_to_cpu(bfs_psv);
	u8 bfs = v >> 24;

	memset(d, 0, sizeof(*d));
	d->psv = v & SIM_SBSF_PSV_MASK;
	if (!bfs && !memchr_inv(inl, 0, sizeof(*inl)))
		return !sel && !d->psv;		/* no signature */
	d->block = sim_bsf_block(sel);
	if (!d->block)
		return false;
	if (!bfs)
		return sim_sbsf_dif(inl, d);
	if (memchr_inv(inl, 0, sizeof(*inl)) ||
	    (bfs & ~(SIM_SBSF_BFS_KIND | SIM_SBSF_BFS_ZERO_SEED)) !=
	    SIM_SBSF_BFS_REPEAT)
		return false;
	switch (bfs & SIM_SBSF_BFS_KIND) {
	case SIM_SBSF_BFS_CRC32:
		d->kind = SIM_SIG_CRC32;
		break;
	case SIM_SBSF_BFS_CRC32C:
		d->kind = SIM_SIG_CRC32C;
		break;
	default:	/* CRC64-XP10 is not computed */
		return false;
	}
	d->seed = !(bfs & SIM_SBSF_BFS_ZERO_SEED);
	return true;
}

/**
 * sim_sig_bsf_parse() - check a signature BSF on its own
 * @b: its 64 bytes
 * @cfg: what it configures
 *
 * Return: true if every field holds a value the model executes.
 */
bool sim_sig_bsf_parse(const u8 *b, struct sim_mkey_sig *cfg)
{
	const struct sim_sbsf *s = (const void *)b;
	bool sbs = s->size_sbs & SIM_SBSF_SBS;
	u8 wire_sel = sbs ? s->mem_sel : s->wire_sel;

	if ((s->size_sbs & ~SIM_SBSF_SBS) != SIM_SBSF_BASIC ||
	    be32_to_cpu(s->raw_size) != SIM_BSF_RAW_ALL ||
	    memchr_inv(s->ext, 0, sizeof(s->ext)))
		return false;
	if (!sim_sbsf_domain(s->mem_sel, s->m_bfs_psv, &s->m, &cfg->mem) ||
	    !sim_sbsf_domain(wire_sel, s->w_bfs_psv, &s->w, &cfg->wire))
		return false;
	/* a signature somewhere; two domains with the same block size */
	if (!cfg->mem.kind && !cfg->wire.kind)
		return false;
	if (cfg->mem.kind && cfg->wire.kind &&
	    cfg->mem.block != cfg->wire.block)
		return false;
	/* the same structure: both domains of one kind, the copy mask */
	if (sbs && (!cfg->mem.kind || cfg->mem.kind != cfg->wire.kind))
		return false;
	cfg->check = s->check;
	cfg->copy = sbs ? s->wire_sel : 0;
	return true;
}

/* The PSV a domain names: one of @qp's context, on @mkey's PD. */
static bool sim_sig_psv_ok(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
			   const struct sim_mkey *mkey,
			   const struct sim_sig_domain *d)
{
	struct sim_obj *obj;
	struct sim_psv *psv;

	if (!d->kind)
		return true;
	obj = xa_load(&sim->objs[SIM_OBJ_PSV], d->psv);
	if (!obj || obj->uid != qp->uid)
		return false;
	psv = container_of(obj, struct sim_psv, obj);
	return psv->pd == mkey->pd;
}

/**
 * sim_sig_bsf() - check the signature BSF of a configure of @mkey
 * @sim: the model, its lock held
 * @qp: the QP that posted it: its context
 * @mkey: the mkey it configures, not a crypto one
 * @u: the UMR
 * @cfg: the signature BSF it gives
 * @given: 1 it gives one, -1 it takes the signature off, 0 neither
 *
 * Return: 0, or the error CQE's syndrome (MW_BIND).
 */
u32 sim_sig_bsf(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		const struct sim_mkey *mkey, const struct sim_umr *u,
		struct sim_mkey_sig *cfg, int *given)
{
	u32 synd;

	*given = 0;
	if (sim_umr_bsf_kept(u, &synd))
		return synd;
	/* a signature mkey: bsf_en, one signature BSF, no crypto */
	if (!PRM_GET(mkc, mkey->mkc, bsf_en) ||
	    PRM_GET(mkc, mkey->mkc, bsf_octword_size) !=
	    SIM_MKEY_SIG_BSF_OCTWORDS)
		return SIM_CQE_SYND_MW_BIND;
	if (!PRM_GET(mkc, u->mkc, bsf_en)) {
		if (u->nbsf)
			return SIM_CQE_SYND_MW_BIND;
		*given = -1;
		return 0;
	}
	if (!sim_umr_bsf_whole(u) || !sim_sig_bsf_parse(u->bsf, cfg) ||
	    !sim_sig_psv_ok(sim, qp, mkey, &cfg->mem) ||
	    !sim_sig_psv_ok(sim, qp, mkey, &cfg->wire))
		return SIM_CQE_SYND_MW_BIND;
	*given = 1;
	return 0;
}
