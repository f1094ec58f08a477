// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the object commands of the model: user contexts, protection and
 * transport domains, UARs.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/string.h>
#include "sim_kunit.h"

/* ---- CREATE_UCTX / DESTROY_UCTX ---- */

static void sk_uctx_create_destroy(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 a, b;

	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, 0, &a), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, a, 0);
	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, 0, &b), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, b, 0);
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_TRUE(test, sim_uid_valid(sim, a));
	KUNIT_EXPECT_TRUE(test, sim_uid_valid(sim, b));
	KUNIT_EXPECT_EQ(test, sk_live(test), 2);

	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_FALSE(test, sim_uid_valid(sim, a));
	KUNIT_EXPECT_TRUE(test, sim_uid_valid(sim, b));
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_uctx_caps(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 offered = SIM_CAP_GEN(sim, uctx_cap);
	u16 uid;
	int bit;

	KUNIT_EXPECT_EQ(test, offered,
			MLX5_UCTX_CAP_RAW_TX | MLX5_UCTX_CAP_INTERNAL_DEV_RES);
	/* every offered bit, alone and together */
	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, offered, &uid),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	for (bit = 0; bit < 32; bit++) {
		u32 cap = BIT(bit);
		u8 status = sk_create_uctx(test, cap, &uid);

		if (cap & offered) {
			KUNIT_EXPECT_EQ_MSG(test, status, PRM_STAT_OK,
					    "cap 0x%x", cap);
			if (status != PRM_STAT_OK)
				continue;
			status = sk_destroy_uctx(test, uid);
			KUNIT_EXPECT_EQ(test, status, PRM_STAT_OK);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, status, PRM_STAT_BAD_PARAM,
				    "cap 0x%x", cap);
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
		KUNIT_EXPECT_EQ(test, uid, 0);
	}
	/* one bit too many spoils the lot */
	KUNIT_EXPECT_EQ(test, sk_create_uctx(test, offered | BIT(5), &uid),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Contexts are created and destroyed by the kernel (uid 0) only. */
static void sk_uctx_from_uid(struct kunit *test)
{
	void *in = SK_MBOX(test, create_uctx_in);
	void *out = SK_MBOX(test, create_uctx_out);
	u16 uid = sk_new_uctx(test);

	PRM_SET(create_uctx_in, in, opcode, MLX5_CMD_OP_CREATE_UCTX);
	prm_in_set_uid(in, uid);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(create_uctx_in), out,
				      PRM_BYTES(create_uctx_out)),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);

	in = SK_MBOX(test, destroy_uctx_in);
	out = SK_MBOX(test, destroy_uctx_out);
	PRM_SET(destroy_uctx_in, in, opcode, MLX5_CMD_OP_DESTROY_UCTX);
	PRM_SET(destroy_uctx_in, in, uid, uid);
	prm_in_set_uid(in, uid);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(destroy_uctx_in), out,
				      PRM_BYTES(destroy_uctx_out)),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

static void sk_uctx_destroy_unknown(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, 0), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, 77), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, 0xffff),
			PRM_STAT_BAD_RESOURCE);
}

/* A context is destroyed only once everything it owns is gone. */
static void sk_uctx_destroy_busy(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid = sk_new_uctx(test), other = sk_new_uctx(test);
	u32 pd, td, uar;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pd), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, uid, &td), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, uid, &uar), PRM_STAT_OK);

	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_UID_BUSY);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, uid, uar), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_UID_BUSY);
	/* still a context: its last object can be freed through it */
	KUNIT_EXPECT_TRUE(test, sim_uid_valid(sim, uid));
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, uid, td), PRM_STAT_OK);

	/* another context's objects, or the kernel's, do not hold it */
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, other, &pd), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, 0, &td), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, other, pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, td), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_uctx_exhaustion(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 a, b;

	/* the limit comes from log_max_uctx: uids 1..2^log_max_uctx */
	KUNIT_EXPECT_EQ(test, sim->max_id[SIM_OBJ_UCTX],
			BIT(SIM_CAP_GEN(sim, log_max_uctx)));
	sim->max_id[SIM_OBJ_UCTX] = 2;
	a = sk_new_uctx(test);
	b = sk_new_uctx(test);
	KUNIT_EXPECT_EQ(test, sk_create_uctx(test, 0, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_uctx(test, 0, &a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
}

static struct kunit_case sk_uctx_cases[] = {
	KUNIT_CASE(sk_uctx_create_destroy),
	KUNIT_CASE(sk_uctx_caps),
	KUNIT_CASE(sk_uctx_from_uid),
	KUNIT_CASE(sk_uctx_destroy_unknown),
	KUNIT_CASE(sk_uctx_destroy_busy),
	KUNIT_CASE(sk_uctx_exhaustion),
	{}
};

static struct kunit_suite sk_uctx_suite = {
	.name = "mlx5x_sim_uctx",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_uctx_cases,
};

/* ---- ALLOC_PD / DEALLOC_PD ---- */

static void sk_pd_alloc_dealloc(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 pdn[4];
	u16 uid = sk_new_uctx(test);
	unsigned int i, j;

	KUNIT_EXPECT_EQ(test, sim->max_id[SIM_OBJ_PD],
			BIT(SIM_CAP_GEN(sim, log_max_pd)));
	for (i = 0; i < ARRAY_SIZE(pdn); i++) {
		KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, i % 2 ? uid : 0,
						  &pdn[i]), PRM_STAT_OK);
		KUNIT_EXPECT_NE(test, pdn[i], 0);
		KUNIT_EXPECT_LT(test, pdn[i], BIT(24));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, pdn[i], pdn[j]);
	}
	KUNIT_EXPECT_EQ(test, sk_live(test), 5);
	for (i = 0; i < ARRAY_SIZE(pdn); i++)
		KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, i % 2 ? uid : 0,
						    pdn[i]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_pd_dealloc_bad(struct kunit *test)
{
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	u32 pdn;

	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, 12345),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, a, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, b, pdn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, a, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, a, pdn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);

	/* a PD something still refers to stays */
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, a, &pdn), PRM_STAT_OK);
	sk_set_users(test, SIM_OBJ_PD, pdn, 2);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, a, pdn),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	sk_set_users(test, SIM_OBJ_PD, pdn, 0);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, a, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
}

/* ---- ALLOC/DEALLOC_TRANSPORT_DOMAIN ---- */

static void sk_td_alloc_dealloc(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid = sk_new_uctx(test);
	u32 t0, t1, pd;

	KUNIT_EXPECT_EQ(test, sim->max_id[SIM_OBJ_TD],
			BIT(SIM_CAP_GEN(sim, log_max_transport_domain)));
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, 0, &t0), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, uid, &t1), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, t0, 0);
	KUNIT_EXPECT_NE(test, t1, 0);
	KUNIT_EXPECT_NE(test, t0, t1);
	/* a transport domain is not a PD */
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, t0),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, 0, &pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 4);

	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, uid, t0),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, t1),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, t0), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, t0),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, uid, t1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_td_exhaustion(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 td;

	sim->max_id[SIM_OBJ_TD] = 1;
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, 0, &td), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_alloc_td(test, 0, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, td), PRM_STAT_OK);
}

static struct kunit_case sk_pd_cases[] = {
	KUNIT_CASE(sk_pd_alloc_dealloc),
	KUNIT_CASE(sk_pd_dealloc_bad),
	KUNIT_CASE(sk_td_alloc_dealloc),
	KUNIT_CASE(sk_td_exhaustion),
	{}
};

static struct kunit_suite sk_pd_suite = {
	.name = "mlx5x_sim_pd_td",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_pd_cases,
};

/* ---- ALLOC_UAR / DEALLOC_UAR, mlx5x_sim_uar_page ---- */

static bool sk_page_zero(struct page *page)
{
	void *va = kmap_local_page(page);
	bool zero = !memchr_inv(va, 0, PAGE_SIZE);

	kunmap_local(va);
	return zero;
}

static void sk_uar_alloc_dealloc(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct page *p0, *p1;
	u16 uid = sk_new_uctx(test);
	u32 u0, u1;

	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, 0, &u0), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, uid, &u1), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, u0, 0);
	KUNIT_EXPECT_NE(test, u1, 0);
	KUNIT_EXPECT_NE(test, u0, u1);

	p0 = mlx5x_sim_uar_page(sim, u0);
	p1 = mlx5x_sim_uar_page(sim, u1);
	KUNIT_ASSERT_NOT_NULL(test, p0);
	KUNIT_ASSERT_NOT_NULL(test, p1);
	KUNIT_EXPECT_PTR_NE(test, p0, p1);
	KUNIT_EXPECT_TRUE(test, sk_page_zero(p0));
	KUNIT_EXPECT_TRUE(test, sk_page_zero(p1));
	/* the same page every time it is asked for */
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_sim_uar_page(sim, u0), p0);

	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, 0, u1),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_sim_uar_page(sim, u1), p1);

	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, 0, u0), PRM_STAT_OK);
	KUNIT_EXPECT_NULL(test, mlx5x_sim_uar_page(sim, u0));
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, 0, u0),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, uid, u1), PRM_STAT_OK);
	KUNIT_EXPECT_NULL(test, mlx5x_sim_uar_page(sim, u1));
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_uar_page_unknown(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 pd;

	KUNIT_EXPECT_NULL(test, mlx5x_sim_uar_page(sim, 0));
	KUNIT_EXPECT_NULL(test, mlx5x_sim_uar_page(sim, 1));
	KUNIT_EXPECT_NULL(test, mlx5x_sim_uar_page(sim, U32_MAX));
	/* a PD number is no UAR index */
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, 0, &pd), PRM_STAT_OK);
	KUNIT_EXPECT_NULL(test, mlx5x_sim_uar_page(sim, pd));
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd), PRM_STAT_OK);
}

/* The page is the model's: what the driver writes there stays there. */
static void sk_uar_page_writable(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct page *page;
	u32 uar;
	u8 *va;

	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, 0, &uar), PRM_STAT_OK);
	page = mlx5x_sim_uar_page(sim, uar);
	KUNIT_ASSERT_NOT_NULL(test, page);
	va = kmap_local_page(page);
	va[0x800] = 0x5a;	/* a doorbell write */
	kunmap_local(va);
	va = kmap_local_page(mlx5x_sim_uar_page(sim, uar));
	KUNIT_EXPECT_EQ(test, va[0x800], 0x5a);
	kunmap_local(va);
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, 0, uar), PRM_STAT_OK);
}

static struct kunit_case sk_uar_cases[] = {
	KUNIT_CASE(sk_uar_alloc_dealloc),
	KUNIT_CASE(sk_uar_page_unknown),
	KUNIT_CASE(sk_uar_page_writable),
	{}
};

static struct kunit_suite sk_uar_suite = {
	.name = "mlx5x_sim_uar",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_uar_cases,
};

kunit_test_suites(&sk_uctx_suite, &sk_pd_suite, &sk_uar_suite);
