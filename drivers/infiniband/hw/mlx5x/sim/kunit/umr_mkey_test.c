// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the UMR of mlx5dv_wr_mkey_configure() on an indirect mkey
 * (sim_umr_exec(), dp/umr_mkey.c).  An mkey made as mlx5dv_create_mkey()
 * makes one (free, KLM, umr_en, a table of 4) is given, by WQEs laid out
 * as libmlx5 44 lays them out, a list of pieces of an MR; then
 * sim_mkey_access() says what its key reaches, piece by piece.  Each
 * spoilt configure is refused with MW_BIND and leaves the mkey free; a
 * loop of two mkeys is refused; LOCAL_INV frees the mkey and lets its
 * MRs go.  An interleaved layout (a repeat block) repeats its entries,
 * each moved on by its stride, and is refused as firmware refuses it.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include "sk_mkey.h"
#include "sk_queues.h"
#include "../dp/umr.h"
#include "../dp/wqe.h"

#define SK_K_VA		0x7f0000000000ULL
#define SK_K_LEN	(2 * PAGE_SIZE)
#define SK_K_QPN	0x321
/* ctrl 16, UMR ctrl 48, mkey context 64, four KLMs */
#define SK_K_DS		12
#define SK_K_DS_INV	8
#define SK_K_KLM_OFF	128

struct sk_k {
	u16 uid, uid2;
	u32 pdn, pdn2, umem, mr, mr2, mk, mk2;
	struct sim_umr_qp qp;
	struct page *pages;
	u8 wqe[256];
};

static u32 sk_k_mkey(struct kunit *test, struct sk_mkey *m)
{
	u32 index;

	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, m, &index), PRM_STAT_OK);
	return sk_mkey_key(m, index);
}

static void sk_k_init(struct kunit *test, struct sk_k *k)
{
	struct sk_mkey m;
	u64 mtt[2];

	k->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
	KUNIT_ASSERT_NOT_NULL(test, k->pages);
	mtt[0] = (u64)(uintptr_t)page_address(k->pages) | 3;
	mtt[1] = (u64)(uintptr_t)page_address(k->pages + 1) | 3;
	k->uid = sk_new_uctx(test);
	k->uid2 = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, k->uid, &k->pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, k->uid, &k->pdn2),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, k->uid, 2, 2, 0, mtt,
					     &k->umem), PRM_STAT_OK);
	/* the MR: local read and write, remote write */
	sk_mkey_direct(test, &m, k->uid, k->pdn, k->umem, 0, SK_K_VA,
		       SK_K_LEN);
	PRM_SET(mkc, m.mkc, rw, 1);
	k->mr = sk_k_mkey(test, &m);
	/* the same pages on the other PD, no remote right */
	sk_mkey_direct(test, &m, k->uid, k->pdn2, k->umem, 0, SK_K_VA,
		       SK_K_LEN);
	k->mr2 = sk_k_mkey(test, &m);
	sk_mkey_umr(test, &m, k->uid, k->pdn, 4, 0, 0);
	k->mk = sk_k_mkey(test, &m);
	sk_mkey_umr(test, &m, k->uid, k->pdn, 4, 0, 0);
	k->mk2 = sk_k_mkey(test, &m);
	k->qp = (struct sim_umr_qp){ .uid = k->uid, .pdn = k->pdn,
				     .qpn = SK_K_QPN };
}

static void sk_k_fini(struct kunit *test, struct sk_k *k)
{
	u32 keys[] = { k->mk2, k->mk, k->mr, k->mr2 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, k->uid,
						      keys[i] >> 8),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, k->uid, k->umem),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, k->uid, k->pdn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, k->uid, k->pdn2),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, k->uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, k->uid2), PRM_STAT_OK);
	__free_pages(k->pages, 1);
}

/*
 * A configure of @key as libmlx5 writes it: free 0, the tag, local and
 * remote write, length @len, and the @n entries that follow, padded.
 */
static struct sim_klm *sk_k_conf(struct sk_k *k, u32 key, u64 len, u32 n)
{
	struct sim_wqe_ctrl *c = (void *)k->wqe;
	u8 *uc = k->wqe + 16, *mkc = k->wqe + 64;

	memset(k->wqe, 0, sizeof(k->wqe));
	c->opmod_idx_opcode = cpu_to_be32(SIM_OPCODE_UMR);
	c->qpn_ds = cpu_to_be32(SK_K_QPN << 8 | SK_K_DS);
	c->imm = cpu_to_be32(key);
	uc[0] = SIM_UMR_INLINE;
	*(__be16 *)(uc + 4) = cpu_to_be16(round_up(n, 4));
	*(__be64 *)(uc + 8) = cpu_to_be64(SIM_UMR_MASK_FREE |
					  SIM_UMR_MASK_KEY | SIM_UMR_MASK_LEN |
					  SIM_UMR_MASK_LW | SIM_UMR_MASK_RW);
	PRM_SET(mkc, mkc, lw, 1);
	PRM_SET(mkc, mkc, rw, 1);
	PRM_SET(mkc, mkc, qpn, SIM_MKEY_QPN_NONE);
	PRM_SET(mkc, mkc, mkey_7_0, key & 0xff);
	PRM_SET64(mkc, mkc, len, len);
	return (void *)(k->wqe + SK_K_KLM_OFF);
}

static void sk_k_ent(struct sim_klm *klm, u32 key, u32 bcount, u64 va)
{
	*klm = (struct sim_klm){ cpu_to_be32(bcount), cpu_to_be32(key),
				 cpu_to_be64(va) };
}

/* LOCAL_INV of @key as libmlx5 writes it: a zero-length type 2 bind. */
static void sk_k_inv(struct sk_k *k, u32 key)
{
	struct sim_wqe_ctrl *c = (void *)k->wqe;
	u8 *uc = k->wqe + 16, *mkc = k->wqe + 64;

	memset(k->wqe, 0, sizeof(k->wqe));
	c->opmod_idx_opcode = cpu_to_be32(SIM_OPCODE_UMR);
	c->qpn_ds = cpu_to_be32(SK_K_QPN << 8 | SK_K_DS_INV);
	c->imm = cpu_to_be32(key);
	uc[0] = SIM_UMR_INLINE | SIM_UMR_XLT_OFFSET | SIM_UMR_CHECK_QPN;
	*(__be64 *)(uc + 8) = cpu_to_be64(SIM_UMR_MASK_FREE |
					  SIM_UMR_MASK_KEY | SIM_UMR_MASK_QPN);
	PRM_SET(mkc, mkc, free, 1);
	PRM_SET(mkc, mkc, qpn, SIM_MKEY_QPN_NONE);
}

static u32 sk_k_exec(struct kunit *test, struct sk_k *k)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	mutex_lock(&sim->lock);
	synd = sim_umr_exec(sim, &k->qp, k->wqe, sizeof(k->wqe));
	mutex_unlock(&sim->lock);
	return synd;
}

struct sk_k_pieces {
	unsigned int n;
	u64 va[4], len[4];
};

static u32 sk_k_piece(void *arg, const struct sim_mkey *direct, u64 va,
		      u64 len)
{
	struct sk_k_pieces *p = arg;

	if (p->n == ARRAY_SIZE(p->va))
		return SIM_SYND_MKEY_RANGE;
	p->va[p->n] = va;
	p->len[p->n++] = len;
	return 0;
}

/* What a remote write through @key by @k->qp gets, its pieces in @p. */
static u32 sk_k_access(struct kunit *test, struct sk_k *k, u32 key, u64 va,
		       u64 len, struct sk_k_pieces *p)
{
	struct sim_mkey_access acc = {
		.uid = k->uid, .pdn = k->pdn, .key = key, .va = va,
		.len = len, .rights = SIM_MKEY_REMOTE_WRITE,
		.seg = sk_k_piece, .arg = p,
	};
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	memset(p, 0, sizeof(*p));
	mutex_lock(&sim->lock);
	synd = sim_mkey_access(sim, &acc);
	mutex_unlock(&sim->lock);
	return synd;
}

/*
 * Configured over three pieces, the key reaches them in list order and
 * nothing past its length; it holds the MR; LOCAL_INV frees it and lets
 * the MR go; a configure makes it usable again.
 */
static void sk_umr_mkey_conf_inv(struct kunit *test)
{
	struct sk_k_pieces p;
	struct sim_klm *klm;
	struct sk_k k;

	sk_k_init(test, &k);
	klm = sk_k_conf(&k, k.mk, 64, 3);
	sk_k_ent(&klm[0], k.mr, 8, SK_K_VA + 100);
	sk_k_ent(&klm[1], k.mr, 16, SK_K_VA + 4000);
	sk_k_ent(&klm[2], k.mr, 40, SK_K_VA + 5000);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, k.mr >> 8), 3);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 4, 30, &p), 0);
	KUNIT_EXPECT_EQ(test, p.n, 3);
	KUNIT_EXPECT_EQ(test, p.va[0], SK_K_VA + 104);
	KUNIT_EXPECT_EQ(test, p.len[0], 4);
	KUNIT_EXPECT_EQ(test, p.va[1], SK_K_VA + 4000);
	KUNIT_EXPECT_EQ(test, p.len[1], 16);
	KUNIT_EXPECT_EQ(test, p.va[2], SK_K_VA + 5000);
	KUNIT_EXPECT_EQ(test, p.len[2], 10);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 60, 5, &p),
			SIM_SYND_MKEY_RANGE);
	/* the MR is named: it stays */
	KUNIT_EXPECT_NE(test, sk_destroy_mkey(test, k.uid, k.mr >> 8),
			PRM_STAT_OK);
	sk_k_inv(&k, k.mk);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, k.mr >> 8), 0);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 0, 8, &p),
			SIM_SYND_MKEY_FREE);
	klm = sk_k_conf(&k, k.mk, 8, 1);
	sk_k_ent(&klm[0], k.mr, 8, SK_K_VA);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 0, 8, &p), 0);
	sk_k_inv(&k, k.mk);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	sk_k_fini(test, &k);
}

/*
 * Each spoilt configure is MW_BIND and leaves the mkey free, its MRs
 * unreferenced: a stale tag, another PD's MR, the mkey itself, more
 * entries than its table, a length past its entries, atomics over an MR
 * without them, another context's QP, a free mkey as an entry.
 */
static void sk_umr_mkey_refusals(struct kunit *test)
{
	struct sk_k_pieces p;
	struct sim_klm *klm;
	struct sk_k k;
	unsigned int i;

	sk_k_init(test, &k);
	for (i = 0; i < 8; i++) {
		klm = sk_k_conf(&k, k.mk, 16, 2);
		sk_k_ent(&klm[0], k.mr, 8, SK_K_VA);
		sk_k_ent(&klm[1], k.mr, 8, SK_K_VA + 64);
		switch (i) {
		case 0:
			sk_k_ent(&klm[1], k.mr ^ 1, 8, SK_K_VA);
			break;
		case 1:
			sk_k_ent(&klm[1], k.mr2, 8, SK_K_VA);
			break;
		case 2:
			sk_k_ent(&klm[1], k.mk, 8, 0);
			break;
		case 3:
			/* 8 entries in a WQE of 256 bytes, for a table of 4 */
			((struct sim_wqe_ctrl *)k.wqe)->qpn_ds =
				cpu_to_be32(SK_K_QPN << 8 | 16);
			*(__be16 *)(k.wqe + 20) = cpu_to_be16(8);
			break;
		case 4:
			PRM_SET64(mkc, k.wqe + 64, len, 17);
			break;
		case 5:
			/* atomics: the MR grants none */
			*(__be64 *)(k.wqe + 24) |= cpu_to_be64(SIM_UMR_MASK_A);
			PRM_SET(mkc, k.wqe + 64, a, 1);
			break;
		case 6:
			k.qp.uid = k.uid2;
			break;
		default:
			sk_k_ent(&klm[1], k.mk2, 8, 0);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, sk_k_exec(test, &k),
				    SIM_CQE_SYND_MW_BIND, "spoil %u", i);
		k.qp = (struct sim_umr_qp){ .uid = k.uid, .pdn = k.pdn,
					    .qpn = SK_K_QPN };
		KUNIT_EXPECT_EQ_MSG(test, sk_k_access(test, &k, k.mk, 0, 8,
						      &p),
				    SIM_SYND_MKEY_FREE, "spoil %u", i);
		KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, k.mr >> 8),
				0);
	}
	sk_k_fini(test, &k);
}

/*
 * Nested: mk2 names mk, which names the MR; the key of mk2 reaches the
 * MR's bytes.  mk, named, takes no layout naming mk2: the loop is
 * refused, and both keys still work.
 */
static void sk_umr_mkey_nested(struct kunit *test)
{
	struct sk_k_pieces p;
	struct sim_klm *klm;
	struct sk_k k;

	sk_k_init(test, &k);
	klm = sk_k_conf(&k, k.mk, 64, 1);
	sk_k_ent(&klm[0], k.mr, 64, SK_K_VA + 512);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	klm = sk_k_conf(&k, k.mk2, 32, 1);
	sk_k_ent(&klm[0], k.mk, 32, 16);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk2, 8, 8, &p), 0);
	KUNIT_EXPECT_EQ(test, p.n, 1);
	KUNIT_EXPECT_EQ(test, p.va[0], SK_K_VA + 512 + 24);
	klm = sk_k_conf(&k, k.mk, 32, 1);
	sk_k_ent(&klm[0], k.mk2, 32, 0);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), SIM_CQE_SYND_MW_BIND);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk2, 0, 32, &p), 0);
	sk_k_inv(&k, k.mk2);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	sk_k_inv(&k, k.mk);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	sk_k_fini(test, &k);
}

/*
 * A repeat block after sk_k_conf() of @key (its entries given by
 * sk_k_rent()), as libmlx5 writes mlx5dv_mr_interleaved: @n entries of
 * @bcount bytes each per repetition, @repeat times.
 */
static u8 *sk_k_repeat(struct sk_k *k, u32 key, u32 n, u32 bcount,
		       u32 repeat)
{
	u8 *h = (u8 *)sk_k_conf(k, key, (u64)n * bcount * repeat, n + 1);

	*(__be32 *)h = cpu_to_be32(n * bcount);
	*(__be32 *)(h + 4) = cpu_to_be32(0x400);
	*(__be32 *)(h + 8) = cpu_to_be32(repeat);
	*(__be16 *)(h + 14) = cpu_to_be16(n);
	return h;
}

/* Entry @i of the repeat block @h: @bcount bytes every @stride from @va. */
static void sk_k_rent(u8 *h, u32 i, u32 key, u16 stride, u16 bcount, u64 va)
{
	u8 *e = h + 16 * (i + 1);

	*(__be16 *)e = cpu_to_be16(stride);
	*(__be16 *)(e + 2) = cpu_to_be16(bcount);
	*(__be32 *)(e + 4) = cpu_to_be32(key);
	*(__be64 *)(e + 8) = cpu_to_be64(va);
}

/*
 * mlx5dv_wr_mr_interleaved(3): two entries of 8 bytes, skipping 2, 3
 * times; the key's 48 bytes are A0 B0 A1 B1 A2 B2, each 8 bytes from its
 * entry's address plus 10 per repetition; nothing past 48; LOCAL_INV
 * frees it.
 */
static void sk_umr_mkey_repeat(struct kunit *test)
{
	struct sk_k_pieces p;
	struct sk_k k;
	u8 *h;

	sk_k_init(test, &k);
	h = sk_k_repeat(&k, k.mk, 2, 8, 3);
	sk_k_rent(h, 0, k.mr, 10, 8, SK_K_VA);
	sk_k_rent(h, 1, k.mr, 10, 8, SK_K_VA + 64);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, k.mr >> 8), 2);
	/* from the middle of B0 into A2 */
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 12, 22, &p), 0);
	KUNIT_EXPECT_EQ(test, p.n, 4);
	KUNIT_EXPECT_EQ(test, p.va[0], SK_K_VA + 64 + 4);
	KUNIT_EXPECT_EQ(test, p.len[0], 4);
	KUNIT_EXPECT_EQ(test, p.va[1], SK_K_VA + 10);
	KUNIT_EXPECT_EQ(test, p.len[1], 8);
	KUNIT_EXPECT_EQ(test, p.va[2], SK_K_VA + 64 + 10);
	KUNIT_EXPECT_EQ(test, p.len[2], 8);
	KUNIT_EXPECT_EQ(test, p.va[3], SK_K_VA + 20);
	KUNIT_EXPECT_EQ(test, p.len[3], 2);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 40, 8, &p), 0);
	KUNIT_EXPECT_EQ(test, p.va[0], SK_K_VA + 64 + 20);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 44, 5, &p),
			SIM_SYND_MKEY_RANGE);
	sk_k_inv(&k, k.mk);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, k.mr >> 8), 0);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 0, 8, &p),
			SIM_SYND_MKEY_FREE);
	/* a KLM list after it is a list again */
	sk_k_ent(sk_k_conf(&k, k.mk, 8, 1), k.mr, 8, SK_K_VA + 32);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	KUNIT_EXPECT_EQ(test, sk_k_access(test, &k, k.mk, 0, 8, &p), 0);
	KUNIT_EXPECT_EQ(test, p.va[0], SK_K_VA + 32);
	sk_k_inv(&k, k.mk);
	KUNIT_EXPECT_EQ(test, sk_k_exec(test, &k), 0);
	sk_k_fini(test, &k);
}

/*
 * Each spoilt repeat block is MW_BIND, the mkey left free and the MR
 * unnamed: no entries, header and entries past the mkey's table of 4,
 * more entries than the WQE's translation, a bad key, another PD's MR,
 * a repeat count of 0, a byte count that is not the entries' sum, a
 * length past the repetitions, remote write the MR does not grant.
 */
static void sk_umr_mkey_repeat_refusals(struct kunit *test)
{
	struct sk_k_pieces p;
	struct sk_k k;
	unsigned int i;
	u8 *h;

	sk_k_init(test, &k);
	for (i = 0; i < 9; i++) {
		h = sk_k_repeat(&k, k.mk, 2, 8, 3);
		sk_k_rent(h, 0, k.mr, 10, 8, SK_K_VA);
		sk_k_rent(h, 1, k.mr, 10, 8, SK_K_VA + 64);
		switch (i) {
		case 0:
			*(__be16 *)(h + 14) = 0;
			break;
		case 1:
			/* 4 entries and the header: 5 of a table of 4 */
			((struct sim_wqe_ctrl *)k.wqe)->qpn_ds =
				cpu_to_be32(SK_K_QPN << 8 | 16);
			*(__be16 *)(k.wqe + 20) = cpu_to_be16(8);
			*(__be16 *)(h + 14) = cpu_to_be16(4);
			sk_k_rent(h, 2, k.mr, 10, 8, SK_K_VA + 128);
			sk_k_rent(h, 3, k.mr, 10, 8, SK_K_VA + 192);
			*(__be32 *)h = cpu_to_be32(32);
			break;
		case 2:
			/* the translation is 4 entries: 3 and the header */
			*(__be16 *)(h + 14) = cpu_to_be16(3);
			*(__be16 *)(k.wqe + 20) = cpu_to_be16(2);
			break;
		case 3:
			sk_k_rent(h, 1, k.mr ^ 1, 10, 8, SK_K_VA + 64);
			break;
		case 4:
			sk_k_rent(h, 1, k.mr2, 10, 8, SK_K_VA + 64);
			break;
		case 5:
			*(__be32 *)(h + 8) = 0;
			break;
		case 6:
			*(__be32 *)h = cpu_to_be32(17);
			break;
		case 7:
			PRM_SET64(mkc, k.wqe + 64, len, 49);
			break;
		default:
			/* atomics: the MR grants none */
			*(__be64 *)(k.wqe + 24) |= cpu_to_be64(SIM_UMR_MASK_A);
			PRM_SET(mkc, k.wqe + 64, a, 1);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, sk_k_exec(test, &k),
				    SIM_CQE_SYND_MW_BIND, "spoil %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sk_k_access(test, &k, k.mk, 0, 8,
						      &p),
				    SIM_SYND_MKEY_FREE, "spoil %u", i);
		KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, k.mr >> 8),
				0);
	}
	sk_k_fini(test, &k);
}

static struct kunit_case sk_umr_mkey_cases[] = {
	KUNIT_CASE(sk_umr_mkey_conf_inv),
	KUNIT_CASE(sk_umr_mkey_refusals),
	KUNIT_CASE(sk_umr_mkey_nested),
	KUNIT_CASE(sk_umr_mkey_repeat),
	KUNIT_CASE(sk_umr_mkey_repeat_refusals),
	{}
};

static struct kunit_suite sk_umr_mkey_suite = {
	.name = "mlx5x_sim_umr_mkey",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_umr_mkey_cases,
};

kunit_test_suite(sk_umr_mkey_suite);
