// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The repeat block of a UMR: the interleaved layout of
 * mlx5dv_wr_mr_interleaved() and mlx5dv_wr_set_mkey_layout_interleaved()
 * on an indirect (KLM) mkey.
 *
 * libmlx5 44 writes, where a configure's KLM list would be, one repeat
 * block (struct mlx5_wqe_umr_repeat_block_seg in <infiniband/mlx5dv.h>):
 * a 16-byte header (the bytes of one repetition, the op 0x400 where a KLM
 * has its key, by which the model tells the two apart: no mkey has index
 * 4 (core/objs.c); the repeat count, the number of entries), then one
 * 16-byte entry (struct mlx5_wqe_umr_repeat_ent_seg) per
 * mlx5dv_mr_interleaved: its stride (bytes_count + bytes_skip), byte
 * count, lkey and address; zeroed entries pad it to 64 bytes.  The mkey's
 * length is the block's bytes times the repeat count.
 *
 * The mkey's space is the block repeated: repetition r holds, in entry
 * order, each entry's byte count of its key from its address plus r times
 * its stride (mem/mkey_access.c walks it at every access).
 *
 * What the device refuses, with MW_BIND and the mkey as it was: no
 * entries, more than the WQE's translation holds, header and entries over
 * the mkey's table (its max_entries rounded up to 4), an entry whose key
 * a KLM could not name (umr_mkey.c: another context's, PD's, a free one,
 * rights it does not grant, too deep), a repeat count of 0, a header
 * whose byte count is not its entries' sum, or a length past the block
 * times its repeat count.
 */
#include <linux/slab.h>
#include "umr.h"
#include "wqe.h"

/* the op of a repeat block: where a KLM has its key */
#define SIM_UMR_REPEAT_OP	0x400

/**
 * struct sim_umr_repeat_hdr - a repeat block's header
 * @bcount: bytes of one repetition
 * @op: SIM_UMR_REPEAT_OP
 * @repeat: repetitions
 * @rsvd: reserved
 * @nent: entries that follow
 */
struct sim_umr_repeat_hdr {
	__be32 bcount;
	__be32 op;
	__be32 repeat;
	__be16 rsvd;
	__be16 nent;
};

/**
 * struct sim_umr_repeat_ent - an entry of a repeat block
 * @stride: how far its address moves at each repetition
 * @bcount: its bytes in each repetition
 * @key: the mkey that holds them
 * @va: their address in that mkey, in the first repetition
 */
struct sim_umr_repeat_ent {
	__be16 stride;
	__be16 bcount;
	__be32 key;
	__be64 va;
};

static_assert(sizeof(struct sim_umr_repeat_hdr) == sizeof(struct sim_klm));
static_assert(sizeof(struct sim_umr_repeat_ent) == sizeof(struct sim_klm));

/**
 * sim_umr_is_repeat() - whether a configure's translation is a repeat
 * block rather than a KLM list
 * @u: the UMR, with a translation
 *
 * Return: true when its first entry is a repeat block's header.
 */
bool sim_umr_is_repeat(const struct sim_umr *u)
{
	const struct sim_umr_repeat_hdr *h = (const void *)u->klm;

	return u->nklm && be32_to_cpu(h->op) == SIM_UMR_REPEAT_OP;
}

/**
 * sim_umr_repeat() - check a repeat block and build its layout
 * @sim: the model, its lock held
 * @qp: the QP that posted the UMR
 * @mkey: the mkey configured
 * @u: the UMR (sim_umr_is_repeat())
 * @rights: what @mkey will grant
 * @l: the layout, its depth 1 on entry: its entries, depth, the bytes
 *     they cover and the block's shape, on success
 *
 * Return: 0, or the error CQE's syndrome: MW_BIND for each refusal,
 * LOCAL_QP_OP when no memory is left for the entries.
 */
u32 sim_umr_repeat(struct mlx5x_sim *sim, const struct sim_umr_qp *qp,
		   const struct sim_mkey *mkey, const struct sim_umr *u,
		   unsigned int rights, struct sim_umr_layout *l)
{
	const struct sim_umr_repeat_hdr *h = (const void *)u->klm;
	const struct sim_umr_repeat_ent *e = (const void *)(h + 1);
	u32 n = be16_to_cpu(h->nent), repeat = be32_to_cpu(h->repeat);
	u64 sum = 0;
	struct sim_mkey *t;
	u32 i;

	if (!n || n + 1 > u->nklm ||
	    n + 1 > PRM_GET(mkc, mkey->mkc, translations_octword_size) ||
	    !repeat)
		return SIM_CQE_SYND_MW_BIND;
	for (i = 0; i < n; i++) {
		t = sim_umr_mkey_entry(sim, qp, mkey, be32_to_cpu(e[i].key),
				       rights);
		if (!t)
			return SIM_CQE_SYND_MW_BIND;
		l->depth = max_t(u8, l->depth, t->depth + 1);
		sum += be16_to_cpu(e[i].bcount);
	}
	if (!sum || sum != be32_to_cpu(h->bcount))
		return SIM_CQE_SYND_MW_BIND;
	l->ent = kvcalloc(n, sizeof(*l->ent), GFP_KERNEL);
	if (!l->ent)
		return SIM_CQE_SYND_LOCAL_QP_OP;
	for (i = 0; i < n; i++) {
		l->ent[i].obj = xa_load(&sim->objs[SIM_OBJ_MKEY],
					be32_to_cpu(e[i].key) >> 8);
		l->ent[i].klm = (struct sim_klm){
			.bcount = cpu_to_be32(be16_to_cpu(e[i].bcount)),
			.key = e[i].key,
			.va = e[i].va,
		};
		l->ent[i].stride = be16_to_cpu(e[i].stride);
	}
	l->n = n;
	l->rb_count = repeat;
	l->rb_bytes = sum;
	l->covered = sum * repeat;
	return 0;
}
