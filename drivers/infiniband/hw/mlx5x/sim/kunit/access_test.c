// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: sim_mkey_access(), what an access through a key resolves to:
 * the key, its owner and PD, free mkeys, access rights, ranges, the walk
 * through KLM and KSM entries down to the direct mkeys, and crypto mkeys
 * that no UMR has configured.
 */
#include "sk_mkey.h"
#include "../mem/crypto.h"

#define SK_VA		0x7f0000000000ULL
#define SK_PAGES	4

struct sk_acc_env {
	u16 uid;
	u32 pdn;
	u32 umem;
	u32 direct;	/* key of an MTT mkey over the umem, lr lw rr */
};

/* The rights and tag every mkey here has beyond the builder's. */
static void sk_acc_rights(struct sk_mkey *m)
{
	PRM_SET(mkc, m->mkc, rr, 1);
	PRM_SET(mkc, m->mkc, mkey_7_0, 0x5c);
}

static u8 sk_acc_create(struct kunit *test, const struct sk_mkey *m,
			u32 *key)
{
	u32 index;
	u8 status = sk_mkey_exec(test, m, &index);

	if (!status && key)
		*key = sk_mkey_key(m, index);
	return status;
}

static void sk_acc_env(struct kunit *test, struct sk_acc_env *e)
{
	u64 mtt[SK_PAGES];
	struct sk_mkey m;
	unsigned int i;

	for (i = 0; i < SK_PAGES; i++)
		mtt[i] = (0x100000ULL + i * 0x3000) | BIT_ULL(0) | BIT_ULL(1);
	e->uid = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, e->uid, &e->pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, e->uid, SK_PAGES, SK_PAGES,
					     0, mtt, &e->umem), PRM_STAT_OK);
	sk_mkey_direct(test, &m, e->uid, e->pdn, e->umem, 0, SK_VA,
		       SK_PAGES * 4096);
	sk_acc_rights(&m);
	KUNIT_ASSERT_EQ(test, sk_acc_create(test, &m, &e->direct),
			PRM_STAT_OK);
}

/* An indirect mkey over the direct one: entries of (bcount, va) in use. */
static u8 sk_acc_indirect(struct kunit *test, struct sk_acc_env *e, u8 mode,
			  const u32 *bcount, const u64 *va, u32 nent,
			  bool crypto, u32 *key)
{
	struct sk_mkey m;
	u64 total = 0;
	u32 i;

	sk_mkey_indirect(test, &m, e->uid, mode, e->pdn, 4, nent);
	sk_acc_rights(&m);
	for (i = 0; i < nent; i++) {
		sk_mkey_set_ent(&m, i, e->direct, bcount[i], va[i]);
		total += mode == MLX5_MKC_ACCESS_MODE_KSM ? 4096 : bcount[i];
	}
	PRM_SET64(mkc, m.mkc, len, total);
	if (crypto)
		sk_mkey_set_bsf(&m, SIM_MKEY_CRYPTO_BSF_OCTWORDS, 1);
	return sk_acc_create(test, &m, key);
}

/* What the callback saw: up to 4 pieces. */
struct sk_acc_segs {
	unsigned int n;
	u32 key[4];
	u64 va[4], len[4];
};

static u32 sk_acc_seg(void *arg, const struct sim_mkey *direct, u64 va,
		      u64 len)
{
	struct sk_acc_segs *s = arg;

	if (s->n >= ARRAY_SIZE(s->key))
		return SIM_SYND_BAD_FIELD;
	s->key[s->n] = sim_mkey_key(direct);
	s->va[s->n] = va;
	s->len[s->n++] = len;
	return 0;
}

static u32 sk_access(struct kunit *test, u16 uid, u32 pdn, u32 key, u64 va,
		     u64 len, unsigned int rights, struct sk_acc_segs *segs)
{
	struct sim_mkey_access acc = {
		.uid = uid, .pdn = pdn, .key = key, .va = va, .len = len,
		.rights = rights, .seg = segs ? sk_acc_seg : NULL, .arg = segs,
	};
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	if (segs)
		memset(segs, 0, sizeof(*segs));
	mutex_lock(&sim->lock);
	synd = sim_mkey_access(sim, &acc);
	mutex_unlock(&sim->lock);
	return synd;
}

/* A direct mkey: the key, owner, PD, rights and range. */
static void sk_access_direct(struct kunit *test)
{
	struct sk_acc_env e, o;
	struct sk_acc_segs s;
	u64 end = SK_VA + SK_PAGES * 4096;

	sk_acc_env(test, &e);
	sk_acc_env(test, &o);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct, SK_VA,
					SK_PAGES * 4096, SIM_MKEY_LOCAL_READ |
					SIM_MKEY_LOCAL_WRITE, &s), 0);
	KUNIT_EXPECT_EQ(test, s.n, 1);
	KUNIT_EXPECT_EQ(test, s.key[0], e.direct);
	KUNIT_EXPECT_EQ(test, s.va[0], SK_VA);
	KUNIT_EXPECT_EQ(test, s.len[0], SK_PAGES * 4096);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, SIM_MKEY_ANY_PD, e.direct,
					end - 1, 1, SIM_MKEY_REMOTE_READ,
					NULL), 0);
	/* a wrong tag, no such index, another's key, another PD */
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct ^ 1,
					SK_VA, 8, 0, NULL), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, 0xfffff00, SK_VA,
					8, 0, NULL), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, o.direct, SK_VA,
					8, 0, NULL), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_access(test, o.uid, e.pdn, o.direct, SK_VA,
					8, 0, NULL), SIM_SYND_MKEY_PD);
	/* rights it lacks: remote write, atomics; rights it cannot have */
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct, SK_VA,
					8, SIM_MKEY_REMOTE_WRITE, NULL),
			SIM_SYND_MKEY_ACCESS);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct, SK_VA,
					8, SIM_MKEY_ATOMIC, NULL),
			SIM_SYND_MKEY_ACCESS);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct, SK_VA,
					8, BIT(5), NULL), SIM_SYND_BAD_FIELD);
	/* outside [start, start + len), and a wrapping range */
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct,
					SK_VA - 1, 8, 0, NULL),
			SIM_SYND_MKEY_RANGE);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct,
					end - 4, 8, 0, NULL),
			SIM_SYND_MKEY_RANGE);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, e.direct, ~0ULL,
					2, 0, NULL), SIM_SYND_BAD_FIELD);
}

/* KLM and KSM: the pieces on the direct mkey, in order, and the ends. */
static void sk_access_indirect(struct kunit *test)
{
	static const u32 bc[] = { 100, 4096 };
	static const u64 va[] = { SK_VA + 8192, SK_VA };
	struct sk_acc_env e;
	struct sk_acc_segs s;
	struct sim_mkey_access acc = { .len = 8, .seg = sk_acc_seg, .arg = &s };
	u32 klm, ksm, synd;

	sk_acc_env(test, &e);
	KUNIT_ASSERT_EQ(test, sk_acc_indirect(test, &e,
					      MLX5_MKC_ACCESS_MODE_KLMS, bc,
					      va, 2, false, &klm),
			PRM_STAT_OK);
	/* 50 bytes at offset 60: 40 from entry 0, 10 from entry 1 */
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, klm, 60, 50,
					SIM_MKEY_LOCAL_READ, &s), 0);
	KUNIT_EXPECT_EQ(test, s.n, 2);
	KUNIT_EXPECT_EQ(test, s.va[0], SK_VA + 8192 + 60);
	KUNIT_EXPECT_EQ(test, s.len[0], 40);
	KUNIT_EXPECT_EQ(test, s.va[1], SK_VA);
	KUNIT_EXPECT_EQ(test, s.len[1], 10);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, klm, 100 + 4096,
					1, 0, NULL), SIM_SYND_MKEY_RANGE);
	/* KSM: entities of 4 KiB, whatever the byte counts say */
	KUNIT_ASSERT_EQ(test, sk_acc_indirect(test, &e,
					      MLX5_MKC_ACCESS_MODE_KSM, bc,
					      va, 2, false, &ksm),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, ksm, 4000, 200, 0,
					&s), 0);
	KUNIT_EXPECT_EQ(test, s.n, 2);
	KUNIT_EXPECT_EQ(test, s.va[0], SK_VA + 8192 + 4000);
	KUNIT_EXPECT_EQ(test, s.len[0], 96);
	KUNIT_EXPECT_EQ(test, s.va[1], SK_VA);
	KUNIT_EXPECT_EQ(test, s.len[1], 104);
	/* the whole of it; a callback's refusal stops the walk */
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, klm, 0, 4196,
					0, &s), 0);
	KUNIT_EXPECT_EQ(test, s.n, 2);
	s.n = ARRAY_SIZE(s.key);
	acc.uid = e.uid;
	acc.pdn = e.pdn;
	acc.key = klm;
	mutex_lock(&sk_sim(test)->lock);
	synd = sim_mkey_access(sk_sim(test), &acc);
	mutex_unlock(&sk_sim(test)->lock);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_BAD_FIELD);
	/* rights are checked on every mkey crossed */
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, klm, 0, 8,
					SIM_MKEY_REMOTE_WRITE, NULL),
			SIM_SYND_MKEY_ACCESS);
}

/* Free mkeys and crypto mkeys no UMR configured carry no traffic. */
static void sk_access_state(struct kunit *test)
{
	static const u32 bc[] = { 4096 };
	static const u64 va[] = { SK_VA };
	struct sk_acc_env e;
	struct sim_mkey *mkey;
	struct sk_mkey m;
	u32 key;
	struct sim_mkey_access acc;

	sk_acc_env(test, &e);
	acc = (struct sim_mkey_access){ .uid = e.uid, .pdn = e.pdn,
					.len = 16,
					.rights = SIM_MKEY_LOCAL_READ,
					.crypto = true };
	sk_mkey_indirect(test, &m, e.uid, MLX5_MKC_ACCESS_MODE_KLMS, e.pdn, 4,
			 0);
	sk_acc_rights(&m);
	KUNIT_ASSERT_EQ(test, sk_acc_create(test, &m, &key), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, key, 0, 0, 0,
					NULL), SIM_SYND_MKEY_FREE);

	KUNIT_EXPECT_NE(test, sk_acc_indirect(test, &e,
					      MLX5_MKC_ACCESS_MODE_KLMS, bc,
					      va, 1, true, NULL), PRM_STAT_OK);
	mutex_lock(&sk_sim(test)->lock);
	sim_crypto_set_mode(sk_sim(test), SIM_CRYPTO_PLAINTEXT);
	mutex_unlock(&sk_sim(test)->lock);
	KUNIT_ASSERT_EQ(test, sk_acc_indirect(test, &e,
					      MLX5_MKC_ACCESS_MODE_KLMS, bc,
					      va, 1, true, &key), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, key, 0, 16,
					SIM_MKEY_LOCAL_READ, NULL),
			SIM_SYND_CRYPTO_UNCONF);
	KUNIT_EXPECT_STREQ(test, sim_mkey_access_verdict(SIM_SYND_CRYPTO_UNCONF),
			   "crypto_unconfigured");
	/* what a UMR setting its crypto BSF would do */
	mkey = container_of(xa_load(&sk_sim(test)->objs[SIM_OBJ_MKEY],
				    key >> 8), struct sim_mkey, obj);
	mkey->crypto_configured = true;
	/* configured: only for an access that applies its cipher */
	KUNIT_EXPECT_EQ(test, sk_access(test, e.uid, e.pdn, key, 0, 16,
					SIM_MKEY_LOCAL_READ, NULL),
			SIM_SYND_MKEY_ACCESS);
	acc.key = key;
	mutex_lock(&sk_sim(test)->lock);
	KUNIT_EXPECT_EQ(test, sim_mkey_access(sk_sim(test), &acc), 0);
	mutex_unlock(&sk_sim(test)->lock);
}

static struct kunit_case sk_access_cases[] = {
	KUNIT_CASE(sk_access_direct),
	KUNIT_CASE(sk_access_indirect),
	KUNIT_CASE(sk_access_state),
	{}
};

static struct kunit_suite sk_access_suite = {
	.name = "mlx5x_sim_mkey_access",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_access_cases,
};

kunit_test_suite(sk_access_suite);
