// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x module: the `rdma link` type for simulated devices, and removal of
 * every mlx5x device at unload.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <rdma/rdma_netlink.h>
#include "mlx5x.h"

struct dentry *mlx5x_debugfs_root;

static struct rdma_link_ops mlx5x_link_ops = {
	.type = "mlx5x",
	.newlink = mlx5x_sim_newlink,
};

/*
 * Devices of mlx5_ib share our driver id, so ib_unregister_driver() is
 * not for us: unregister our own, one at a time, each pinned while the
 * list lock is dropped.
 */
static void mlx5x_unregister_all(void)
{
	struct mlx5x_dev *dev;

	for (;;) {
		mutex_lock(&mlx5x_devices_lock);
		dev = list_first_entry_or_null(&mlx5x_devices,
					       struct mlx5x_dev, list);
		if (dev)
			get_device(&dev->ib.dev);
		mutex_unlock(&mlx5x_devices_lock);
		if (!dev)
			return;
		ib_unregister_device(&dev->ib);
		put_device(&dev->ib.dev);
	}
}

static int __init mlx5x_init(void)
{
	int err;

	mlx5x_debugfs_root = debugfs_create_dir("mlx5x", NULL);
	err = mlx5x_netdev_notifier_register();
	if (err) {
		debugfs_remove_recursive(mlx5x_debugfs_root);
		return err;
	}
	err = mlx5x_hw_init();
	if (err) {
		mlx5x_netdev_notifier_unregister();
		debugfs_remove_recursive(mlx5x_debugfs_root);
		return err;
	}
	rdma_link_register(&mlx5x_link_ops);
	return 0;
}

static void __exit mlx5x_exit(void)
{
	rdma_link_unregister(&mlx5x_link_ops);
	mlx5x_hw_exit();
	mlx5x_unregister_all();
	mlx5x_netdev_notifier_unregister();
	debugfs_remove_recursive(mlx5x_debugfs_root);
}

module_init(mlx5x_init);
module_exit(mlx5x_exit);

MODULE_AUTHOR("mlx5x developers");
MODULE_DESCRIPTION("mlx5 RDMA object methods over ConnectX firmware or a firmware model");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("mlx5x");
