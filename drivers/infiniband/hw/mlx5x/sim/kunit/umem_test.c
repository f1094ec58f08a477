// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: CREATE_UMEM / DESTROY_UMEM, the page lists DEVX objects name by
 * umem id.
 */
#include "sim_kunit.h"

#define SK_MTT_RD	BIT_ULL(0)
#define SK_MTT_WR	BIT_ULL(1)

static struct sim_umem *sk_umem(struct kunit *test, u32 id)
{
	struct sim_obj *obj = xa_load(&sk_sim(test)->objs[SIM_OBJ_UMEM], id);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return container_of(obj, struct sim_umem, obj);
}

static void sk_umem_create_destroy(struct kunit *test)
{
	static const u64 mtt[] = {
		0x12345000ULL | SK_MTT_RD | SK_MTT_WR,
		0xfedcba9876543000ULL | SK_MTT_RD,
		0x1000ULL,
	};
	static const u64 mtt2m[] = { 0x40200000ULL | SK_MTT_RD };
	u16 uid = sk_new_uctx(test);
	struct sim_umem *umem;
	unsigned int i;
	u32 id, id2;

	KUNIT_ASSERT_EQ(test, sk_create_umem(test, uid, ARRAY_SIZE(mtt),
					     ARRAY_SIZE(mtt), 0, mtt, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, id, 0);
	KUNIT_EXPECT_EQ(test, sk_live(test), 2);
	umem = sk_umem(test, id);
	KUNIT_EXPECT_EQ(test, umem->obj.uid, uid);
	KUNIT_EXPECT_EQ(test, umem->nmtt, ARRAY_SIZE(mtt));
	KUNIT_EXPECT_EQ(test, umem->log_page, 12);
	/* addresses and access bits exactly as the mailbox gave them */
	for (i = 0; i < ARRAY_SIZE(mtt); i++)
		KUNIT_EXPECT_EQ_MSG(test, umem->mtt[i], mtt[i], "mtt %u", i);

	KUNIT_EXPECT_EQ(test, umem->page_offset, 0);

	/* a second one, 2 MiB pages, the buffer 0x340 into the first */
	KUNIT_ASSERT_EQ(test, sk_create_umem_off(test, uid, 1, 1, 9, 0x340,
						 mtt2m, &id2),
			PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, id, id2);
	KUNIT_EXPECT_EQ(test, sk_umem(test, id2)->log_page, 21);
	KUNIT_EXPECT_EQ(test, sk_umem(test, id2)->page_offset, 0x340);

	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* num_of_mtt must be nonzero and its entries inside the mailbox. */
static void sk_umem_bad_nmtt(struct kunit *test)
{
	static const u64 mtt[] = { 0x1000, 0x2000 };
	u16 uid = sk_new_uctx(test);

	/* the fixed part of CREATE_UMEM is 48 bytes, the MTTs follow */
	KUNIT_EXPECT_EQ(test, PRM_BYTES(create_umem_in), 48);
	KUNIT_EXPECT_EQ(test, PRM_BYTES(mtt), 8);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, uid, 0, 2, 0, mtt, NULL),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_INLEN);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, uid, 3, 2, 0, mtt, NULL),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_INLEN);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, uid, 1, 0, 0, NULL, NULL),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, uid, U64_MAX, 2, 0, mtt,
					     NULL),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, uid, BIT_ULL(32) | 1, 2, 0,
					     mtt, NULL),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/* Pages from 4 KiB up to 1 GiB (log_page_size 0..18). */
static void sk_umem_page_size(struct kunit *test)
{
	static const u64 mtt[] = { 0x40000000 };
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, 1, 1, 18, mtt, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_umem(test, id)->log_page, 30);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, 0, 1, 1, 19, mtt, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, 0, 1, 1, 31, mtt, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * Each entry starts a page of the umem's page size, and the buffer starts
 * inside the first page.
 */
static void sk_umem_alignment(struct kunit *test)
{
	static const u64 ok[] = { 0x200000 | SK_MTT_RD, 0x400000 };
	static const u64 bad[] = { 0x200000, 0x401000 | SK_MTT_WR };
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, 2, 2, 9, ok, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, 0, 2, 2, 9, bad, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* 4 KiB pages: the same list is aligned enough */
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, 2, 2, 0, bad, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_umem_off(test, 0, 1, 1, 0, 0x1000, ok,
						 NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_create_umem_off(test, 0, 1, 1, 0, 0xfff, ok,
						 &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A longer list than fits a page of pointers (kvmalloc territory). */
static void sk_umem_large(struct kunit *test)
{
	unsigned int n = 4096, i;
	struct sim_umem *umem;
	u64 *mtt;
	u32 id;

	mtt = kunit_kmalloc_array(test, n, sizeof(*mtt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mtt);
	for (i = 0; i < n; i++)
		mtt[i] = (u64)(i + 1) << 12 | SK_MTT_RD;
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, n, n, 0, mtt, &id),
			PRM_STAT_OK);
	umem = sk_umem(test, id);
	KUNIT_EXPECT_EQ(test, umem->nmtt, n);
	KUNIT_EXPECT_EQ(test, umem->mtt[0], mtt[0]);
	KUNIT_EXPECT_EQ(test, umem->mtt[n - 1], mtt[n - 1]);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
}

static void sk_umem_exhaustion(struct kunit *test)
{
	static const u64 mtt[] = { 0x1000 };
	struct mlx5x_sim *sim = sk_sim(test);
	u32 id;

	KUNIT_EXPECT_EQ(test, sim->max_id[SIM_OBJ_UMEM],
			BIT(SIM_CAP_GEN(sim, log_max_umem)));
	sim->max_id[SIM_OBJ_UMEM] = 1;
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, 1, 1, 0, mtt, &id),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_umem(test, 0, 1, 1, 0, mtt, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
}

/*
 * ro_pages counts the entries without wr_en, and sim_umem_writable()
 * asks every page a range touches, the buffer starting page_offset into
 * the first one.
 */
static void sk_umem_writable(struct kunit *test)
{
	static const u64 mtt[] = {
		0x10000 | SK_MTT_RD | SK_MTT_WR,
		0x20000 | SK_MTT_RD,
		0x30000 | SK_MTT_WR,
		0x40000,
	};
	static const u64 rw[] = {
		0x50000 | SK_MTT_RD | SK_MTT_WR,
		0x60000 | SK_MTT_WR,
	};
	/* where page n starts, from the buffer's first byte */
	const u64 p1 = 0x1000 - 0x340, p2 = p1 + 0x1000, p3 = p2 + 0x1000;
	struct sim_umem *umem;
	u32 id;

	KUNIT_ASSERT_EQ(test, sk_create_umem_off(test, 0, 4, 4, 0, 0x340, mtt,
						 &id),
			PRM_STAT_OK);
	umem = sk_umem(test, id);
	KUNIT_EXPECT_EQ(test, umem->ro_pages, 2);
	KUNIT_EXPECT_TRUE(test, sim_umem_writable(umem, 0, 1));
	KUNIT_EXPECT_TRUE(test, sim_umem_writable(umem, 0, p1));
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, 0, p1 + 1));
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, p1, 1));
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, p2 - 1, 2));
	/* wr_en without rd_en: writable */
	KUNIT_EXPECT_TRUE(test, sim_umem_writable(umem, p2, 0x1000));
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, p2, 0x1001));
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, p3 + 0xfff, 1));
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, 0, p3 + 0x1000));
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);

	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, 2, 2, 0, rw, &id),
			PRM_STAT_OK);
	umem = sk_umem(test, id);
	KUNIT_EXPECT_EQ(test, umem->ro_pages, 0);
	KUNIT_EXPECT_TRUE(test, sim_umem_writable(umem, 0, 0x2000));
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct kunit_case sk_umem_cases[] = {
	KUNIT_CASE(sk_umem_create_destroy),
	KUNIT_CASE(sk_umem_bad_nmtt),
	KUNIT_CASE(sk_umem_page_size),
	KUNIT_CASE(sk_umem_alignment),
	KUNIT_CASE(sk_umem_large),
	KUNIT_CASE(sk_umem_exhaustion),
	KUNIT_CASE(sk_umem_writable),
	{}
};

static struct kunit_suite sk_umem_suite = {
	.name = "mlx5x_sim_umem",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_umem_cases,
};

kunit_test_suite(sk_umem_suite);
