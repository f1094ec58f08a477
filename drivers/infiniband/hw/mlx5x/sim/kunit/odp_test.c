// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: ODP umems (mem/odp.c): what the driver may make one, and that
 * nothing but its mkey is ever placed in one; and the implicit ODP umem
 * (mem/odp_implicit.c): one umem over the whole user address space, its
 * entries in blocks the driver makes and frees span by span, an mkey
 * over all of it, and the data path's reads and writes through its
 * entries.
 */
#include "sk_mkey.h"
#include "../dp/datapath.h"

#define SK_IMR_PAGES	BIT_ULL(35)	/* 47-bit user address space */
#define SK_BLOCK	SIM_ODP_BLOCK

/* A umem of one absent 4 KiB entry, of a new context, and that context. */
static u32 sk_absent_umem(struct kunit *test, u16 *uid)
{
	static const u64 absent[] = { 0 };
	u32 id;

	*uid = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, *uid, 1, 1, 0, absent, &id),
			PRM_STAT_OK);
	return id;
}

static struct sim_umem *sk_umem_of(struct kunit *test, u32 id)
{
	struct sim_obj *obj = xa_load(&sk_sim(test)->objs[SIM_OBJ_UMEM], id);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return container_of(obj, struct sim_umem, obj);
}

/*
 * An explicit ODP umem: made so once; whatever its pages, writable ones
 * given by a fault included, no queue may be placed there.
 */
static void sk_odp_enable(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct sim_umem *umem;
	u64 ent;
	u32 id;
	u16 uid;

	KUNIT_ASSERT_NOT_NULL(test, page);
	id = sk_absent_umem(test, &uid);
	umem = sk_umem_of(test, id);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_enable(sim, id, true), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_enable(sim, id, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true,
						     SK_IMR_PAGES), -EINVAL);
	ent = (u64)(uintptr_t)page | BIT_ULL(0) | BIT_ULL(1);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_map(sim, id, 0, 1, &ent), 0);
	KUNIT_EXPECT_EQ(test, umem->mtt[0], ent);
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, 0, 64));
	mlx5x_sim_odp_zap(sim, id, 0, 1);
	KUNIT_EXPECT_EQ(test, umem->mtt[0], 0);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/* What becomes implicit, and what does not. */
static void sk_imr_convert(struct kunit *test)
{
	static const u64 present[] = { 0x5000 | BIT_ULL(0) };
	static const u64 absent[] = { 0 };
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_umem *umem;
	u32 id, other;
	u16 uid;

	id = sk_absent_umem(test, &uid);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true,
						     BIT_ULL(52)), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, id + 100, true,
						     SK_IMR_PAGES), -ENOENT);
	/* named by another object: no longer the kernel's to give */
	sk_set_users(test, SIM_OBJ_UMEM, id, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true,
						     SK_IMR_PAGES), -EINVAL);
	sk_set_users(test, SIM_OBJ_UMEM, id, 0);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true,
						     SK_IMR_PAGES), 0);
	umem = sk_umem_of(test, id);
	KUNIT_EXPECT_TRUE(test, umem->sparse);
	KUNIT_EXPECT_EQ(test, umem->nmtt, SK_IMR_PAGES);
	KUNIT_EXPECT_PTR_EQ(test, umem->odp, sim);
	/* ODP pages are never a queue's: nothing may be placed there */
	KUNIT_EXPECT_FALSE(test, sim_umem_writable(umem, 0, 64));
	/* once is enough */
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true,
						     SK_IMR_PAGES), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_enable(sim, id, true), -EINVAL);

	/* a present entry, 2 MiB pages, a page offset: refused */
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, uid, 1, 1, 0, present,
					     &other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, other, true,
						     SK_IMR_PAGES), -EINVAL);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, other), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, uid, 1, 1, 9, absent,
					     &other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, other, true,
						     SK_IMR_PAGES), -EINVAL);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, other), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem_off(test, uid, 1, 1, 0, 0x40,
						 absent, &other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_implicit(sim, other, true,
						     SK_IMR_PAGES), -EINVAL);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/*
 * Blocks: made for whole spans inside the umem, entries set only where a
 * block is, zapped cheaply over the whole umem, freed with their span or
 * with the umem.
 */
static void sk_imr_blocks(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u64 ents[2] = { 0x7000 | BIT_ULL(0), 0x9000 | BIT_ULL(0) | BIT_ULL(1) };
	u64 span = 5 * SK_BLOCK, zaps;
	struct sim_umem *umem;
	u32 id;
	u16 uid;

	id = sk_absent_umem(test, &uid);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true,
						     SK_IMR_PAGES), 0);
	umem = sk_umem_of(test, id);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_blocks(sim, id, span + 1,
						   SK_BLOCK, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_blocks(sim, id, span, SK_BLOCK - 1,
						   true), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_blocks(sim, id, SK_IMR_PAGES,
						   SK_BLOCK, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, sim->odp_blocks, 0);
	/* no block: the entry is absent, and cannot be given */
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_map(sim, id, span + 3, 2, ents),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sim_umem_mtt(umem, span + 3), 0);

	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_blocks(sim, id, span, SK_BLOCK,
						   true), 0);
	KUNIT_EXPECT_EQ(test, sim->odp_blocks, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_map(sim, id, span + 3, 2, ents),
			0);
	KUNIT_EXPECT_EQ(test, sim_umem_mtt(umem, span + 3), ents[0]);
	KUNIT_EXPECT_EQ(test, sim_umem_mtt(umem, span + 4), ents[1]);
	KUNIT_EXPECT_EQ(test, sim_umem_mtt(umem, span + 5), 0);
	/* across into the next span, which has no block: nothing set */
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_map(sim, id, span + SK_BLOCK - 1,
						2, ents), -EINVAL);
	KUNIT_EXPECT_EQ(test, sim_umem_mtt(umem, span + SK_BLOCK - 1), 0);

	/* the whole address space zapped: one block visited */
	zaps = sim->odp_zaps;
	mlx5x_sim_odp_zap(sim, id, 0, SK_IMR_PAGES);
	KUNIT_EXPECT_EQ(test, sim->odp_zaps, zaps + 1);
	KUNIT_EXPECT_EQ(test, sim_umem_mtt(umem, span + 3), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_map(sim, id, span + 3, 1, ents),
			0);

	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_blocks(sim, id, span, SK_BLOCK,
						   false), 0);
	KUNIT_EXPECT_EQ(test, sim->odp_blocks, 0);
	KUNIT_EXPECT_EQ(test, sim_umem_mtt(umem, span + 3), 0);

	/* blocks left at the umem's end go with it */
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_blocks(sim, id,
						   SK_IMR_PAGES - 2 * SK_BLOCK,
						   2 * SK_BLOCK, true), 0);
	KUNIT_EXPECT_EQ(test, sim->odp_blocks, 2);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sim->odp_blocks, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_odp_blocks(sim, id, 0, SK_BLOCK, true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/*
 * An mkey over the whole of it (no translation table of its own: the
 * umem's entries are its own), and the data path's copies through it:
 * only where an entry is given, and only with the right it gives.
 */
static void sk_imr_mkey_io(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u64 at = 77 * SK_BLOCK + 3, ent;
	struct sim_umem *umem;
	struct sk_mkey m;
	u8 buf[16] = "implicit odp!";
	u32 id, pdn, index;
	u16 uid;

	KUNIT_ASSERT_NOT_NULL(test, page);
	id = sk_absent_umem(test, &uid);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	/* over a umem of one page, a table too small is refused */
	sk_mkey_direct(test, &m, uid, pdn, id, 0, 0, SK_IMR_PAGES << 12);
	PRM_SET(mkc, m.mkc, translations_octword_size, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &m, &index),
			PRM_STAT_BAD_PARAM);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_implicit(sim, id, true,
						     SK_IMR_PAGES), 0);
	umem = sk_umem_of(test, id);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &index), PRM_STAT_OK);

	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, at << 12, buf, 16, true));
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_blocks(sim, id, 77 * SK_BLOCK,
						   SK_BLOCK, true), 0);
	/* given for reading only: a write is refused, a read goes */
	ent = (u64)(uintptr_t)page | BIT_ULL(0);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_map(sim, id, at, 1, &ent), 0);
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, at << 12, buf, 16, true));
	KUNIT_EXPECT_TRUE(test, sim_umem_io(umem, at << 12, buf, 16, false));
	KUNIT_EXPECT_EQ(test, buf[0], 0);
	ent |= BIT_ULL(1);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_odp_map(sim, id, at, 1, &ent), 0);
	memcpy(buf, "implicit odp!", 14);
	KUNIT_EXPECT_TRUE(test, sim_umem_io(umem, (at << 12) + 100, buf, 14,
					    true));
	KUNIT_EXPECT_EQ(test, memcmp(page + 100, "implicit odp!", 14), 0);
	/* a copy running past the entry into an absent one stops there */
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, (at << 12) + 4090, buf, 14,
					     true));
	mlx5x_sim_odp_zap(sim, id, at, 1);
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, at << 12, buf, 16, false));

	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, index), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, uid, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sim->odp_blocks, 0);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

static struct kunit_case sk_odp_cases[] = {
	KUNIT_CASE(sk_odp_enable),
	KUNIT_CASE(sk_imr_convert),
	KUNIT_CASE(sk_imr_blocks),
	KUNIT_CASE(sk_imr_mkey_io),
	{}
};

static struct kunit_suite sk_odp_suite = {
	.name = "mlx5x_sim_odp",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_odp_cases,
};

kunit_test_suite(sk_odp_suite);
