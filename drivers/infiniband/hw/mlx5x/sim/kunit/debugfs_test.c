// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the model's debugfs files (objects, stats, fail_next,
 * fail_opcode) are created and removed with it.  Reading and writing them
 * needs a user buffer (debugfs files have no read_iter for kernel_read()),
 * so that is left to the selftests.
 */
#include <linux/debugfs.h>
#include "sim_kunit.h"

#define SK_DBG_DIR	"mlx5x_sim_kunit"

/* The directory the model's "fw" goes under; cases run one at a time. */
static struct dentry *sk_dbg_parent;

static int sk_dbg_init(struct kunit *test)
{
	int err = sk_init(test);

	if (err)
		return err;
	sk_dbg_parent = debugfs_create_dir(SK_DBG_DIR, NULL);
	if (IS_ERR_OR_NULL(sk_dbg_parent))
		return -ENODEV;
	mlx5x_sim_debugfs_init(sk_sim(test), sk_dbg_parent);
	return 0;
}

static void sk_dbg_exit(struct kunit *test)
{
	sk_exit(test);
	debugfs_remove_recursive(sk_dbg_parent);
	sk_dbg_parent = NULL;
}

static void sk_dbg_files(struct kunit *test)
{
	static const char * const files[] = {
		"objects", "stats", "fail_next", "fail_nth", "fail_opcode",
	};
	struct mlx5x_sim *sim = sk_sim(test);
	struct dentry *d;
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(sim->dbg));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		d = debugfs_lookup(files[i], sim->dbg);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR_OR_NULL(d), "%s", files[i]);
		dput(d);
	}
}

/* Destroying the model removes its directory, not its parent. */
static void sk_dbg_removed(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;
	struct dentry *d;

	mlx5x_sim_destroy(ctx->sim);
	ctx->sim = NULL;
	d = debugfs_lookup("fw", sk_dbg_parent);
	KUNIT_EXPECT_NULL(test, d);
	dput(d);
}

static struct kunit_case sk_dbg_cases[] = {
	KUNIT_CASE(sk_dbg_files),
	KUNIT_CASE(sk_dbg_removed),
	{}
};

static struct kunit_suite sk_dbg_suite = {
	.name = "mlx5x_sim_debugfs",
	.init = sk_dbg_init,
	.exit = sk_dbg_exit,
	.test_cases = sk_dbg_cases,
};

kunit_test_suite(sk_dbg_suite);
