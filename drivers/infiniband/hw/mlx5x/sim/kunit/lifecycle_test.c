// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: creating and destroying the model, with and without objects
 * left behind, and its debugfs files.
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
#include "sim_kunit.h"

static void sk_create_fresh(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	int t;

	KUNIT_EXPECT_EQ(test, mlx5x_sim_live_objects(sim), 0);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 0);
	KUNIT_EXPECT_EQ(test, sim->fail_opcode, -1);
	KUNIT_EXPECT_EQ(test, sim->cmds, 0);
	for (t = 0; t < SIM_OBJ_NTYPES; t++) {
		KUNIT_EXPECT_TRUE(test, xa_empty(&sim->objs[t]));
		KUNIT_EXPECT_GT(test, sim->max_id[t], 0);
	}
	KUNIT_EXPECT_NOT_NULL(test, sim->caps[0]);
	KUNIT_EXPECT_EQ(test, memcmp(&sim->params, &sk_params,
				     sizeof(sk_params)), 0);
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
	struct mlx5x_sim *a = sk_sim(test);
	struct mlx5x_sim *b = mlx5x_sim_create(&sk_params);
	u32 pd;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_live_objects(a), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_live_objects(b), 0);
	KUNIT_EXPECT_NULL(test, xa_load(&b->objs[SIM_OBJ_PD], pd));
	mlx5x_sim_destroy(b);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd), PRM_STAT_OK);
}

/* Fill the model with a bit of everything, some of it still in use. */
static void sk_populate(struct kunit *test, u32 *uar)
{
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
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
	KUNIT_ASSERT_EQ(test, mlx5x_sim_live_objects(sk_sim(test)), 9);
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
	u32 uar;

	sk_populate(test, &uar);
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

static void sk_debugfs(struct kunit *test)
{
	static const char * const files[] = {
		"objects", "stats", "fail_next", "fail_opcode",
	};
	struct mlx5x_sim *sim = mlx5x_sim_create(&sk_params);
	struct dentry *parent, *d;
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sim);
	parent = debugfs_create_dir("mlx5x_sim_kunit", NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(parent));
	mlx5x_sim_debugfs_init(sim, parent);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(sim->dbg));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		d = debugfs_lookup(files[i], sim->dbg);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR_OR_NULL(d), "%s", files[i]);
		dput(d);
	}
	/* destroy removes the model's directory, not its parent */
	mlx5x_sim_destroy(sim);
	d = debugfs_lookup("fw", parent);
	KUNIT_EXPECT_NULL(test, d);
	dput(d);
	debugfs_remove_recursive(parent);
}

static struct kunit_case sk_lifecycle_cases[] = {
	KUNIT_CASE(sk_create_fresh),
	KUNIT_CASE(sk_create_copies_params),
	KUNIT_CASE(sk_two_devices),
	KUNIT_CASE(sk_destroy_all_frees),
	KUNIT_CASE(sk_destroy_with_objects),
	KUNIT_CASE(sk_destroy_empty),
	KUNIT_CASE(sk_debugfs),
	{}
};

static struct kunit_suite sk_lifecycle_suite = {
	.name = "mlx5x_sim_lifecycle",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_lifecycle_cases,
};

kunit_test_suite(sk_lifecycle_suite);
