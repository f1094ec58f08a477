// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: CREATE_MKEY / QUERY_MKEY / DESTROY_MKEY: direct mkeys over a
 * umem, indirect KLM and KSM mkeys, the references they hold, and the
 * uid that owns each.
 */
#include "sk_mkey.h"

#define SK_MTT_RW	(BIT_ULL(0) | BIT_ULL(1))
#define SK_VA		0x7f0000000000ULL

static unsigned int sk_users(struct kunit *test, enum sim_obj_type type,
			     u32 id)
{
	struct sim_obj *obj = xa_load(&sk_sim(test)->objs[type], id);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return obj->users;
}

/* A context with a PD and a umem of npages 4 KiB pages. */
struct sk_mkey_env {
	u16 uid;
	u32 pdn;
	u32 umem;
};

static void sk_mkey_env(struct kunit *test, struct sk_mkey_env *e,
			unsigned int npages)
{
	u64 mtt[8];
	unsigned int i;

	KUNIT_ASSERT_LE(test, npages, ARRAY_SIZE(mtt));
	for (i = 0; i < npages; i++)
		mtt[i] = (0x100000ULL + i * 0x3000) | SK_MTT_RW;
	e->uid = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, e->uid, &e->pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, e->uid, npages, npages, 0,
					     mtt, &e->umem), PRM_STAT_OK);
}

static void sk_mkey_env_done(struct kunit *test, struct sk_mkey_env *e)
{
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, e->uid, e->umem),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, e->uid, e->pdn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, e->uid), PRM_STAT_OK);
}

/* A direct mkey over a umem references both; query shows its context. */
static void sk_mkey_direct_umem(struct kunit *test)
{
	struct sk_mkey_env e;
	struct sk_mkey m;
	void *out, *mkc;
	u32 idx;

	sk_mkey_env(test, &e, 4);
	sk_mkey_direct(test, &m, e.uid, e.pdn, e.umem, 0x1100,
		       SK_VA + 0x100, 0x2000);
	PRM_SET(mkc, m.mkc, mkey_7_0, 0xa5);
	PRM_SET(mkc, m.mkc, rr, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, idx, 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, e.pdn), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, e.umem), 1);

	KUNIT_ASSERT_EQ(test, sk_query_mkey(test, e.uid, idx, &out),
			PRM_STAT_OK);
	mkc = PRM_ADDR(query_mkey_out, out, memory_key_mkey_entry);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, mkey_7_0), 0xa5);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, free), 0);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, access_mode_1_0),
			MLX5_MKC_ACCESS_MODE_MTT);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, rr), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, pd), e.pdn);
	KUNIT_EXPECT_EQ(test, PRM_GET64(mkc, mkc, start_addr), SK_VA + 0x100);
	KUNIT_EXPECT_EQ(test, PRM_GET64(mkc, mkc, len), 0x2000);
	/* 2 pages need 1 octword; the table is kept in fours */
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, translations_octword_size), 4);

	/* what it references cannot go first */
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, e.uid, e.pdn),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, e.uid, e.umem),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, e.uid),
			PRM_STAT_RESOURCE_BUSY);

	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_query_mkey(test, e.uid, idx, &out),
			PRM_STAT_BAD_RESOURCE);
	sk_mkey_env_done(test, &e);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Each rule of a direct mkey, refused with nothing left behind. */
static void sk_mkey_direct_rules(struct kunit *test)
{
	struct sk_mkey_env e;
	struct sk_mkey m;
	unsigned int live;
	u32 idx;

	sk_mkey_env(test, &e, 2);

#define SK_REFUSED(status, synd) do {					\
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), status);	\
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), synd);			\
	KUNIT_EXPECT_EQ(test, sk_live(test), live);			\
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, e.pdn), 1);	\
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, e.umem), 1);	\
} while (0)
#define SK_DIRECT()	sk_mkey_direct(test, &m, e.uid, e.pdn, e.umem, 0, \
				       SK_VA, 0x2000)

	/* the baseline is fine; it holds one reference on PD and umem */
	SK_DIRECT();
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, e.uid),
			PRM_STAT_RESOURCE_BUSY);
	live = sk_live(test);
	/* raw page addresses from a user context */
	SK_DIRECT();
	PRM_SET(create_mkey_in, m.in, mkey_umem_valid, 0);
	PRM_SET(create_mkey_in, m.in, translations_octword_actual_size, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* beyond the umem: one byte too many, or an offset past it */
	sk_mkey_direct(test, &m, e.uid, e.pdn, e.umem, 0, SK_VA, 0x2001);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	sk_mkey_direct(test, &m, e.uid, e.pdn, e.umem, 0x2000, SK_VA, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* start_addr and the umem byte at different places in a page */
	sk_mkey_direct(test, &m, e.uid, e.pdn, e.umem, 0x10, SK_VA, 0x100);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* pages larger than the umem's, or smaller than 4 KiB */
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, log_page_size, 13);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, log_page_size, 11);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* no length; a translation table too small for the pages */
	sk_mkey_direct(test, &m, e.uid, e.pdn, e.umem, 0, SK_VA, 0);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, translations_octword_size, 0);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* a umem that does not exist */
	sk_mkey_direct(test, &m, e.uid, e.pdn, e.umem + 1, 0, SK_VA, 0x1000);
	SK_REFUSED(PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	/* qpn, access modes, access rights */
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, qpn, 0);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_PA);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, access_mode_4_2, MLX5_MKC_ACCESS_MODE_MEMIC >> 2);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, lw, 0);
	PRM_SET(mkc, m.mkc, rw, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, lw, 0);
	PRM_SET(mkc, m.mkc, a, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, length64, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/*
	 * signature: only an indirect mkey UMR fills (sig_test.c); crypto:
	 * not in the profile
	 */
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, bsf_en, 1);
	PRM_SET(mkc, m.mkc, bsf_octword_size, 4);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, expected_sigerr_count, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	SK_DIRECT();
	prm_set_bits(m.mkc, SIM_MKC_CRYPTO_EN_OFF, SIM_MKC_CRYPTO_EN_BITS, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, bsf_octword_size, 4);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* op_mod means nothing to CREATE_MKEY */
	SK_DIRECT();
	PRM_SET(create_mkey_in, m.in, op_mod, 1);
	SK_REFUSED(PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	/* no PD, or a PD that is gone */
	SK_DIRECT();
	PRM_SET(mkc, m.mkc, pd, 0);
	SK_REFUSED(PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
#undef SK_DIRECT
#undef SK_REFUSED

	/* the context teardown order: the mkey first */
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx), PRM_STAT_OK);
	sk_mkey_env_done(test, &e);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * The device may write only pages pinned writable: a direct mkey with a
 * right that lets it write (lw, and rw or a, which need lw) is refused
 * over a umem range with a page lacking wr_en; reading needs no wr_en.
 */
static void sk_mkey_umem_ro(struct kunit *test)
{
	static const u64 mtt[] = {
		0x100000 | SK_MTT_RW,
		0x103000 | SK_MTT_RW,
		0x106000 | BIT_ULL(0),		/* rd_en only */
		0x109000 | SK_MTT_RW,
	};
	static const struct {
		u8 rw, a;
	} wr[] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
	struct sk_mkey m;
	unsigned int live, i;
	u32 pdn, umem, idx;
	u16 uid;

	uid = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, uid, ARRAY_SIZE(mtt),
					     ARRAY_SIZE(mtt), 0, mtt, &umem),
			PRM_STAT_OK);
	live = sk_live(test);
	for (i = 0; i < ARRAY_SIZE(wr); i++) {
		/* one byte into the read-only page */
		sk_mkey_direct(test, &m, uid, pdn, umem, 0, SK_VA, 0x2001);
		PRM_SET(mkc, m.mkc, rw, wr[i].rw);
		PRM_SET(mkc, m.mkc, a, wr[i].a);
		KUNIT_EXPECT_EQ_MSG(test, sk_mkey_exec(test, &m, NULL),
				    PRM_STAT_BAD_PARAM, "rw %u a %u",
				    wr[i].rw, wr[i].a);
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_UMEM_RO);
		/* all of it inside the read-only page */
		sk_mkey_direct(test, &m, uid, pdn, umem, 0x2800,
			       SK_VA + 0x800, 0x10);
		PRM_SET(mkc, m.mkc, rw, wr[i].rw);
		PRM_SET(mkc, m.mkc, a, wr[i].a);
		KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
				PRM_STAT_BAD_PARAM);
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_UMEM_RO);
	}
	KUNIT_EXPECT_EQ(test, sk_live(test), live);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, umem), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, pdn), 0);

	/* writable pages on either side of it */
	sk_mkey_direct(test, &m, uid, pdn, umem, 0, SK_VA, 0x2000);
	PRM_SET(mkc, m.mkc, rw, 1);
	PRM_SET(mkc, m.mkc, a, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx), PRM_STAT_OK);
	sk_mkey_direct(test, &m, uid, pdn, umem, 0x3000, SK_VA, 0x1000);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx), PRM_STAT_OK);
	/* reading the whole umem: local, remote, or no right at all */
	sk_mkey_direct(test, &m, uid, pdn, umem, 0, SK_VA, 0x4000);
	PRM_SET(mkc, m.mkc, lw, 0);
	PRM_SET(mkc, m.mkc, rr, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx), PRM_STAT_OK);
	sk_mkey_direct(test, &m, uid, pdn, umem, 0, SK_VA, 0x4000);
	PRM_SET(mkc, m.mkc, lr, 0);
	PRM_SET(mkc, m.mkc, lw, 0);
	PRM_SET(mkc, m.mkc, rr, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx), PRM_STAT_OK);
	sk_mkey_direct(test, &m, uid, pdn, umem, 0x2000, SK_VA, 0x1000);
	PRM_SET(mkc, m.mkc, lr, 0);
	PRM_SET(mkc, m.mkc, lw, 0);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, idx), PRM_STAT_OK);

	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, umem), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* The kernel (uid 0) may give the page list inline; the mailbox holds it. */
static void sk_mkey_kernel_raw(struct kunit *test)
{
	struct sk_mkey m;
	u32 pdn, idx;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, 0, &pdn), PRM_STAT_OK);
	sk_mkey_init(test, &m, 0, MLX5_MKC_ACCESS_MODE_MTT, pdn, 1);
	PRM_SET64(mkc, m.mkc, start_addr, SK_VA);
	PRM_SET64(mkc, m.mkc, len, 0x2000);
	PRM_SET(mkc, m.mkc, log_page_size, 12);
	PRM_SET(mkc, m.mkc, translations_octword_size, 1);
	PRM_SET(create_mkey_in, m.in, translations_octword_actual_size, 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, m.in, m.inlen - 1,
				      SK_MBOX(test, create_mkey_out),
				      PRM_BYTES(create_mkey_out)),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, 0, idx), PRM_STAT_OK);
	/* three pages do not fit two entries */
	PRM_SET64(mkc, m.mkc, len, 0x2001);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Free KLM and KSM mkeys: the table size, rounded, within the cap. */
static void sk_mkey_indirect_free(struct kunit *test)
{
	u32 cap = BIT(SIM_CAP_GEN(sk_sim(test), log_max_klm_list_size));
	static const u32 sizes[][2] = {
		{ 1, 4 }, { 3, 4 }, { 4, 4 }, { 5, 8 },
	};
	struct sk_mkey_env e;
	struct sk_mkey m;
	void *out, *mkc;
	unsigned int i;
	u32 idx;

	sk_mkey_env(test, &e, 1);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS,
				 e.pdn, sizes[i][0], 0);
		KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx),
				PRM_STAT_OK);
		KUNIT_ASSERT_EQ(test, sk_query_mkey(test, e.uid, idx, &out),
				PRM_STAT_OK);
		mkc = PRM_ADDR(query_mkey_out, out, memory_key_mkey_entry);
		KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, free), 1);
		KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, umr_en), 1);
		KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, access_mode_1_0),
				MLX5_MKC_ACCESS_MODE_KLMS);
		KUNIT_EXPECT_EQ(test,
				PRM_GET(mkc, mkc, translations_octword_size),
				sizes[i][1]);
		KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx),
				PRM_STAT_OK);
	}
	/* the cap itself, and one past it */
	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS, e.pdn,
			 cap, 0);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx), PRM_STAT_OK);
	PRM_SET(mkc, m.mkc, translations_octword_size, cap + 1);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(mkc, m.mkc, translations_octword_size, U32_MAX);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	/* no room at all */
	PRM_SET(mkc, m.mkc, translations_octword_size, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);

	/* KSM: its entity size is log_page_size */
	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KSM, e.pdn,
			 8, 0);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx), PRM_STAT_OK);
	PRM_SET(mkc, m.mkc, log_page_size, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	/* a free indirect mkey needs no umem: the bit means nothing to it */
	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS, e.pdn,
			 4, 0);
	PRM_SET(create_mkey_in, m.in, mkey_umem_valid, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, e.umem), 0);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx), PRM_STAT_OK);
	sk_mkey_env_done(test, &e);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Two direct mkeys of one context, keys (index << 8 | tag) returned. */
static void sk_mkey_two_direct(struct kunit *test, struct sk_mkey_env *e,
			       u32 key[2])
{
	struct sk_mkey m;
	unsigned int i;
	u32 idx;

	for (i = 0; i < 2; i++) {
		sk_mkey_direct(test, &m, e->uid, e->pdn, e->umem, i * 0x1000,
			       SK_VA + i * 0x1000, 0x1000);
		PRM_SET(mkc, m.mkc, mkey_7_0, 0x10 + i);
		KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx),
				PRM_STAT_OK);
		key[i] = sk_mkey_key(&m, idx);
	}
}

/* KLM and KSM entries name mkeys by key; those stay referenced. */
static void sk_mkey_indirect_entries(struct kunit *test)
{
	struct sk_mkey_env e;
	struct sk_mkey m;
	struct sim_klm klm0;
	void *out, *mkc;
	u32 key[2], idx, ksm;

	sk_mkey_env(test, &e, 2);
	sk_mkey_two_direct(test, &e, key);

	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS, e.pdn,
			 4, 3);
	sk_mkey_set_ent(&m, 0, key[0], 0x800, SK_VA);
	sk_mkey_set_ent(&m, 1, key[1], 0x1000, SK_VA + 0x1000);
	sk_mkey_set_ent(&m, 2, key[0], 0x800, SK_VA + 0x800);
	PRM_SET64(mkc, m.mkc, len, 0x2000);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, key[0] >> 8), 2);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, key[1] >> 8), 1);
	KUNIT_ASSERT_EQ(test, sk_query_mkey(test, e.uid, idx, &out),
			PRM_STAT_OK);
	mkc = PRM_ADDR(query_mkey_out, out, memory_key_mkey_entry);
	KUNIT_EXPECT_EQ(test, PRM_GET(mkc, mkc, free), 0);
	memcpy(&klm0, PRM_ADDR(query_mkey_out, out, bsf0_klm0_pas_mtt0_1),
	       sizeof(klm0));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(klm0.key), key[0]);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(klm0.bcount), 0x800);
	/* an mkey inside an indirect one cannot be destroyed */
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, key[0] >> 8),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);

	/* KSM: entries of 4 KiB each */
	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KSM, e.pdn,
			 4, 2);
	sk_mkey_set_ent(&m, 0, key[1], 0, SK_VA + 0x1000);
	sk_mkey_set_ent(&m, 1, key[0], 0, SK_VA);
	PRM_SET64(mkc, m.mkc, len, 0x2000);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &ksm), PRM_STAT_OK);
	PRM_SET64(mkc, m.mkc, len, 0x2001);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);

	/* refusals: each reference taken is dropped again */
	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS, e.pdn,
			 4, 2);
	sk_mkey_set_ent(&m, 0, key[0], 0x1000, SK_VA);
	sk_mkey_set_ent(&m, 1, key[1] ^ 0xff, 0x1000, SK_VA + 0x1000);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	sk_mkey_set_ent(&m, 1, 0x7777700 | 0x11, 0x1000, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
			PRM_STAT_BAD_RESOURCE);
	sk_mkey_set_ent(&m, 1, key[1], 0x1000, SK_VA + 0x1000);
	/* more bytes than the entries cover */
	PRM_SET64(mkc, m.mkc, len, 0x2001);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET64(mkc, m.mkc, len, 0x2000);
	/* entries in a free mkey, more entries than room, mailbox short */
	PRM_SET(mkc, m.mkc, free, 1);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(mkc, m.mkc, free, 0);
	PRM_SET(create_mkey_in, m.in, translations_octword_actual_size, 5);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(mkc, m.mkc, translations_octword_size, 8);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, key[0] >> 8), 3);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, key[1] >> 8), 2);

	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, ksm), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, key[0] >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, key[1] >> 8),
			PRM_STAT_OK);
	sk_mkey_env_done(test, &e);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Indirect mkeys nest at most max_indirection deep. */
static void sk_mkey_depth(struct kunit *test)
{
	u32 max = SIM_CAP_GEN(sk_sim(test), max_indirection);
	struct sk_mkey_env e;
	struct sk_mkey m;
	u32 keys[8], key[2];
	unsigned int i;

	KUNIT_ASSERT_LT(test, max, ARRAY_SIZE(keys));
	sk_mkey_env(test, &e, 2);
	sk_mkey_two_direct(test, &e, key);
	keys[0] = key[0];
	for (i = 1; i <= max; i++) {
		sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS,
				 e.pdn, 4, 1);
		sk_mkey_set_ent(&m, 0, keys[i - 1], 0x1000, SK_VA);
		KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &keys[i]),
				PRM_STAT_OK);
		keys[i] <<= 8;
	}
	sk_mkey_set_ent(&m, 0, keys[max], 0x1000, SK_VA);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	for (i = max; i > 0; i--)
		KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid,
						      keys[i] >> 8),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, key[0] >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, key[1] >> 8),
			PRM_STAT_OK);
	sk_mkey_env_done(test, &e);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Another context's PD, umem and mkeys are out of reach. */
static void sk_mkey_isolation(struct kunit *test)
{
	struct sk_mkey_env a, b;
	struct sk_mkey m;
	u32 key[2], kpdn;
	void *out;

	sk_mkey_env(test, &a, 2);
	sk_mkey_env(test, &b, 2);
	sk_mkey_two_direct(test, &a, key);

	/* b names a's PD, or the kernel's */
	sk_mkey_direct(test, &m, b.uid, a.pdn, b.umem, 0, SK_VA, 0x1000);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, 0, &kpdn), PRM_STAT_OK);
	PRM_SET(mkc, m.mkc, pd, kpdn);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	/* b names a's umem */
	sk_mkey_direct(test, &m, b.uid, b.pdn, a.umem, 0, SK_VA, 0x1000);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, b.pdn), 0);
	/* b puts a's mkey in a KLM */
	sk_mkey_indirect(test, &m, b.uid, MLX5_MKC_ACCESS_MODE_KLMS, b.pdn,
			 4, 1);
	sk_mkey_set_ent(&m, 0, key[0], 0x1000, SK_VA);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, key[0] >> 8), 0);
	/* b queries or destroys a's mkey */
	KUNIT_EXPECT_EQ(test, sk_query_mkey(test, b.uid, key[0] >> 8, &out),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, b.uid, key[0] >> 8),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);

	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, a.uid, key[0] >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, a.uid, key[1] >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, kpdn), PRM_STAT_OK);
	sk_mkey_env_done(test, &b);
	sk_mkey_env_done(test, &a);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Keys: distinct indexes, the tag in the low byte, as created. */
static void sk_mkey_tags(struct kunit *test)
{
	struct sk_mkey_env e;
	struct sk_mkey m;
	u32 idx[3];
	void *out;
	unsigned int i;

	sk_mkey_env(test, &e, 1);
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS,
				 e.pdn, 4, 0);
		PRM_SET(mkc, m.mkc, mkey_7_0, 0xff - i);
		KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx[i]),
				PRM_STAT_OK);
		KUNIT_EXPECT_LT(test, idx[i], BIT(24));
		if (i)
			KUNIT_EXPECT_NE(test, idx[i], idx[i - 1]);
	}
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		KUNIT_ASSERT_EQ(test, sk_query_mkey(test, e.uid, idx[i], &out),
				PRM_STAT_OK);
		KUNIT_EXPECT_EQ(test,
				PRM_GET(mkc, PRM_ADDR(query_mkey_out, out,
						      memory_key_mkey_entry),
					mkey_7_0), 0xff - i);
		KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, e.uid, idx[i]),
				PRM_STAT_OK);
	}
	sk_mkey_env_done(test, &e);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A model torn down with mkeys pointing at mkeys frees them in order. */
static void sk_mkey_teardown(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;
	struct sk_mkey_env e;
	struct sk_mkey m;
	u32 key[2];

	sk_mkey_env(test, &e, 2);
	sk_mkey_two_direct(test, &e, key);
	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS, e.pdn,
			 4, 2);
	sk_mkey_set_ent(&m, 0, key[0], 0x1000, SK_VA);
	sk_mkey_set_ent(&m, 1, key[1], 0x1000, SK_VA + 0x1000);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, NULL), PRM_STAT_OK);
	/* uctx, pd, umem, three mkeys */
	KUNIT_EXPECT_EQ(test, sk_live(test), 6);
	mlx5x_sim_destroy(ctx->sim);
	ctx->sim = NULL;
}

static struct kunit_case sk_mkey_cases[] = {
	KUNIT_CASE(sk_mkey_direct_umem),
	KUNIT_CASE(sk_mkey_direct_rules),
	KUNIT_CASE(sk_mkey_umem_ro),
	KUNIT_CASE(sk_mkey_kernel_raw),
	KUNIT_CASE(sk_mkey_indirect_free),
	KUNIT_CASE(sk_mkey_indirect_entries),
	KUNIT_CASE(sk_mkey_depth),
	KUNIT_CASE(sk_mkey_isolation),
	KUNIT_CASE(sk_mkey_tags),
	KUNIT_CASE(sk_mkey_teardown),
	{}
};

static struct kunit_suite sk_mkey_suite = {
	.name = "mlx5x_sim_mkey",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_mkey_cases,
};

kunit_test_suite(sk_mkey_suite);
