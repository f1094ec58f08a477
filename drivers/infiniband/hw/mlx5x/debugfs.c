// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device's debugfs directory, /sys/kernel/debug/mlx5x/<ibdev>/:
 *   contexts   the open user contexts: uid (0: no DEVX), pid and command
 *              of the process that opened each
 * A simulated device adds its firmware model's files under fw/.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "mlx5x.h"

static int mlx5x_contexts_show(struct seq_file *m, void *unused)
{
	struct mlx5x_dev *dev = m->private;
	struct mlx5x_ucontext *uctx;

	seq_puts(m, "uid pid comm\n");
	mutex_lock(&dev->uctx_lock);
	list_for_each_entry(uctx, &dev->uctx_list, node)
		seq_printf(m, "%u %d %s\n", uctx->devx_uid, uctx->pid,
			   uctx->comm);
	mutex_unlock(&dev->uctx_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mlx5x_contexts);

/**
 * mlx5x_dev_debugfs_init() - create the device's debugfs directory
 * @dev: a registered device; the directory goes in mlx5x_dev_release()
 */
void mlx5x_dev_debugfs_init(struct mlx5x_dev *dev)
{
	dev->dbg = debugfs_create_dir(dev_name(&dev->ib.dev),
				      mlx5x_debugfs_root);
	debugfs_create_file("contexts", 0400, dev->dbg, dev,
			    &mlx5x_contexts_fops);
	mlx5x_devx_mkey_debugfs_init(dev);
	mlx5x_fs_debugfs_init(dev);
}
