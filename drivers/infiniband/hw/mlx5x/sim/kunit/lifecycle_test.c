// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: creating and destroying the model, with and without objects
 * left behind.
 */
#include <linux/mm.h>
#include "sim_kunit.h"

/* A new device holds nothing but its completion EQs. */
static void sk_create_fresh(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	unsigned int nvec = mlx5x_sim_comp_vectors(sim);
	int t;

	KUNIT_EXPECT_GE(test, nvec, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_live_objects(sim), nvec);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 0);
	KUNIT_EXPECT_EQ(test, sim->fail_opcode, -1);
	KUNIT_EXPECT_EQ(test, sim->cmds, 0);
	for (t = 0; t < SIM_OBJ_NTYPES; t++) {
		KUNIT_EXPECT_GT_MSG(test, sim->max_id[t], 0, "type %s",
				    sim_obj_type_name(t));
		if (t != SIM_OBJ_EQ)
			KUNIT_EXPECT_TRUE_MSG(test, xa_empty(&sim->objs[t]),
					      "type %s", sim_obj_type_name(t));
	}
	KUNIT_EXPECT_NOT_NULL(test, sim->caps[0]);
	KUNIT_EXPECT_EQ(test, memcmp(&sim->params, &sk_params,
				     sizeof(sk_params)), 0);
}

/* One completion EQ per vector, the kernel's, each its own. */
static void sk_comp_eqs(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	unsigned int nvec = mlx5x_sim_comp_vectors(sim);
	unsigned int v, w;
	struct sim_obj *eq;
	u32 eqn[8], dummy;
	u16 uid;

	KUNIT_ASSERT_LE(test, nvec, ARRAY_SIZE(eqn));
	for (v = 0; v < nvec; v++) {
		KUNIT_ASSERT_EQ(test, mlx5x_sim_comp_eqn(sim, v, &eqn[v]), 0);
		eq = xa_load(&sim->objs[SIM_OBJ_EQ], eqn[v]);
		KUNIT_ASSERT_NOT_NULL(test, eq);
		KUNIT_EXPECT_EQ(test, eq->uid, 0);
		KUNIT_EXPECT_EQ(test, eq->type, SIM_OBJ_EQ);
		KUNIT_EXPECT_LE(test, eqn[v], sim->max_id[SIM_OBJ_EQ]);
		for (w = 0; w < v; w++)
			KUNIT_EXPECT_NE(test, eqn[v], eqn[w]);
	}
	/* the first, made before anything else, is EQ 1 */
	KUNIT_EXPECT_EQ(test, eqn[0], 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_comp_eqn(sim, nvec, &dummy), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_comp_eqn(sim, UINT_MAX, &dummy),
			-EINVAL);
	/* a user context owns none of them */
	uid = sk_new_uctx(test);
	KUNIT_EXPECT_FALSE(test, sim_uid_has_objects(sim, uid));
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

/* The model keeps its own copy of the parameters. */
static void sk_create_copies_params(struct kunit *test)
{
	struct mlx5x_sim_params params = sk_params;
	struct mlx5x_sim *sim = mlx5x_sim_create(&params);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sim);
	params.node_guid = 0;
	params.mtu = 0;
	KUNIT_EXPECT_EQ(test, sim->params.node_guid, SK_GUID);
	KUNIT_EXPECT_EQ(test, sim->params.mtu, SK_MTU);
	mlx5x_sim_destroy(sim);
}

/* Two devices share nothing. */
static void sk_two_devices(struct kunit *test)
{
	struct mlx5x_sim *b = mlx5x_sim_create(&sk_params);
	u32 pd;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_live_objects(b),
			mlx5x_sim_comp_vectors(b));
	KUNIT_EXPECT_NULL(test, xa_load(&b->objs[SIM_OBJ_PD], pd));
	mlx5x_sim_destroy(b);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd), PRM_STAT_OK);
}

/* Fill the model with a bit of everything, some of it still in use. */
static void sk_populate(struct kunit *test, u32 *uar)
{
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	u64 mtt = 0x1000;
	u32 pd;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, a, &pd), PRM_STAT_OK);
	sk_set_users(test, SIM_OBJ_PD, pd, 1);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, 0, NULL), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, b, NULL), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, a, uar), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, 0, NULL), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, a, NULL), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_flow_counter(test, b, NULL),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, b, 1, 1, 0, &mtt, NULL),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_live(test), 10);
}

/* What the device removal path does first: everything goes. */
static void sk_destroy_all_frees(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 uar;
	int t;

	sk_populate(test, &uar);
	mutex_lock(&sim->lock);
	sim_objs_destroy_all(sim);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sim->live, 0);
	for (t = 0; t < SIM_OBJ_NTYPES; t++)
		KUNIT_EXPECT_TRUE(test, xa_empty(&sim->objs[t]));
	KUNIT_EXPECT_NULL(test, mlx5x_sim_uar_page(sim, uar));

	/* the model is still usable afterwards */
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &uar), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, uar), PRM_STAT_OK);
}

/*
 * mlx5x_sim_destroy() with objects left: no crash, and the UAR pages go
 * back to the allocator (the reference taken here is the last one).
 */
static void sk_destroy_with_objects(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;
	struct page *page;
	u32 uar, eqn;

	sk_populate(test, &uar);
	/* and a completion EQ still in use, as by a CQ */
	KUNIT_ASSERT_EQ(test, mlx5x_sim_comp_eqn(ctx->sim, 0, &eqn), 0);
	sk_set_users(test, SIM_OBJ_EQ, eqn, 1);
	page = mlx5x_sim_uar_page(ctx->sim, uar);
	KUNIT_ASSERT_NOT_NULL(test, page);
	get_page(page);
	KUNIT_EXPECT_EQ(test, page_ref_count(page), 2);

	mlx5x_sim_destroy(ctx->sim);
	ctx->sim = NULL;

	KUNIT_EXPECT_EQ(test, page_ref_count(page), 1);
	put_page(page);
}

static void sk_destroy_empty(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;

	mlx5x_sim_destroy(ctx->sim);
	ctx->sim = NULL;
}

static struct kunit_case sk_lifecycle_cases[] = {
	KUNIT_CASE(sk_create_fresh),
	KUNIT_CASE(sk_comp_eqs),
	KUNIT_CASE(sk_create_copies_params),
	KUNIT_CASE(sk_two_devices),
	KUNIT_CASE(sk_destroy_all_frees),
	KUNIT_CASE(sk_destroy_with_objects),
	KUNIT_CASE(sk_destroy_empty),
	{}
};

static struct kunit_suite sk_lifecycle_suite = {
	.name = "mlx5x_sim_lifecycle",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_lifecycle_cases,
};

kunit_test_suite(sk_lifecycle_suite);
