// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The hardware backend: the command channel is a ConnectX's firmware,
 * reached through mlx5_core's exported command interface.  The method
 * layer above builds and checks the very mailboxes it hands the model;
 * here they go to mlx5_cmd_do() instead.  UAR pages are pages of the
 * function's BAR, completion vectors are mlx5_core's, and the function's
 * async events reach the DEVX event FDs through mlx5_core's EQ notifier.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>
#include <linux/mlx5/vport.h>
#include "mlx5x.h"
#include "hw.h"

static struct mlx5x_hw *to_hw(struct mlx5x_dev *dev)
{
	return dev->backend_priv;
}

/*
 * mlx5_cmd_do() leaves a firmware error in the output mailbox and says
 * so with -EREMOTEIO: that is a delivered command, whose status the
 * method layer reads.  Any other error is a command not delivered (the
 * function is in error, or the command interface is going down).
 */
static int mlx5x_hw_exec(struct mlx5x_dev *dev, const void *in, size_t inlen,
			 void *out, size_t outlen)
{
	struct mlx5x_hw *hw = to_hw(dev);
	int err;

	if (inlen > INT_MAX || outlen > INT_MAX)
		return -EINVAL;
	switch (prm_in_opcode(in)) {
	case MLX5_CMD_OP_CREATE_CQ:	/* into mlx5_core's CQ table */
		err = mlx5x_hw_cq_create(hw, in, inlen, out, outlen);
		break;
	case MLX5_CMD_OP_DESTROY_CQ:
		err = mlx5x_hw_cq_destroy(hw, in, inlen, out, outlen);
		break;
	default:
		/* mlx5_cmd_do() copies the input mailbox; it does not write it */
		err = mlx5_cmd_do(hw->mdev, (void *)in, inlen, out, outlen);
		break;
	}
	return err == -EREMOTEIO ? 0 : err;
}

/*
 * UAR pages are the function's BAR pages, in order.  With uar_4k firmware
 * numbers 4 KiB UARs, several to a system page.
 */
static int mlx5x_hw_uar_pfn(struct mlx5x_dev *dev, u32 index,
			    unsigned long *pfn)
{
	struct mlx5_core_dev *mdev = to_hw(dev)->mdev;
	u32 per_page = MLX5_CAP_GEN(mdev, uar_4k) ? MLX5_UARS_IN_PAGE : 1;

	*pfn = (mdev->bar_addr >> PAGE_SHIFT) + index / per_page;
	return 0;
}

static unsigned int mlx5x_hw_comp_vectors(struct mlx5x_dev *dev)
{
	return mlx5x_comp_vectors(to_hw(dev)->mdev);
}

static int mlx5x_hw_comp_eqn(struct mlx5x_dev *dev, unsigned int vector,
			     u32 *eqn)
{
	int n, err;

	err = mlx5x_comp_eqn(to_hw(dev)->mdev, vector, &n);
	if (!err)
		*eqn = n;
	return err;
}

/* Every EQE of the async EQ, in its interrupt: the DEVX subscribers'. */
static int mlx5x_hw_eqe(struct notifier_block *nb, unsigned long type,
			void *eqe)
{
	struct mlx5x_hw *hw = mlx5_nb_cof(nb, struct mlx5x_hw, eq_nb);

	mlx5x_devx_event(hw->dev, eqe);
	return NOTIFY_OK;
}

/* mlx5_core's own events: the function failed, commands will not run. */
static int mlx5x_hw_core_event(struct notifier_block *nb, unsigned long type,
			       void *data)
{
	struct mlx5x_hw *hw = container_of(nb, struct mlx5x_hw, core_nb);
	struct ib_event ev = {
		.device = &hw->dev->ib,
		.event = IB_EVENT_DEVICE_FATAL,
	};

	if (type != MLX5_DEV_EVENT_SYS_ERROR)
		return NOTIFY_DONE;
	ib_dispatch_event(&ev);
	return NOTIFY_OK;
}

static int mlx5x_hw_events_start(struct mlx5x_hw *hw)
{
	int err;

	MLX5_NB_INIT(&hw->eq_nb, mlx5x_hw_eqe, NOTIFY_ANY);
	err = mlx5_eq_notifier_register(hw->mdev, &hw->eq_nb);
	if (err)
		return err;
	hw->core_nb.notifier_call = mlx5x_hw_core_event;
	err = mlx5_notifier_register(hw->mdev, &hw->core_nb);
	if (err) {
		mlx5_eq_notifier_unregister(hw->mdev, &hw->eq_nb);
		return err;
	}
	hw->events = true;
	return 0;
}

static void mlx5x_hw_events_stop(struct mlx5x_hw *hw)
{
	if (!hw->events)
		return;
	mlx5_notifier_unregister(hw->mdev, &hw->core_nb);
	mlx5_eq_notifier_unregister(hw->mdev, &hw->eq_nb);
	hw->events = false;
}

/* What the device holds of the function; the mlx5x_hw stays for detach. */
static void mlx5x_hw_release(struct mlx5x_dev *dev)
{
	struct mlx5x_hw *hw = to_hw(dev);

	mlx5x_hw_events_stop(hw);
	if (hw->roce)
		mlx5_nic_vport_disable_roce(hw->mdev);
	hw->roce = false;
	if (dev->netdev)
		netdev_put(dev->netdev, &dev->netdev_tracker);
	dev->netdev = NULL;
}

static const struct mlx5x_backend_ops mlx5x_hw_backend = {
	.name = "hw",
	.exec = mlx5x_hw_exec,
	.uar_pfn = mlx5x_hw_uar_pfn,
	.uar_cached = false,
	.memic_pfn = mlx5x_hw_memic_pfn,
	.memic_cached = false,		/* BAR pages, mapped write-combining */
	.icm_alloc = mlx5x_hw_icm_alloc,
	.icm_free = mlx5x_hw_icm_free,
	.comp_vectors = mlx5x_hw_comp_vectors,
	.comp_eqn = mlx5x_hw_comp_eqn,
	.release = mlx5x_hw_release,
	.user_unreg = false,	/* it goes with its function */
};

/* debugfs mlx5x/hw_backend: which operations the hw backend serves. */
static int mlx5x_hw_backend_show(struct seq_file *m, void *unused)
{
	const struct mlx5x_backend_ops *ops = &mlx5x_hw_backend;

	seq_printf(m, "exec %d\n", !!ops->exec);
	seq_printf(m, "uar_pfn %d\n", !!ops->uar_pfn);
	seq_printf(m, "uar_cached %d\n", ops->uar_cached);
	seq_printf(m, "memic_pfn %d\n", !!ops->memic_pfn);
	seq_printf(m, "memic_cached %d\n", ops->memic_cached);
	seq_printf(m, "icm_alloc %d\n", !!ops->icm_alloc);
	seq_printf(m, "icm_free %d\n", !!ops->icm_free);
	seq_printf(m, "comp_vectors %d\n", !!ops->comp_vectors);
	seq_printf(m, "comp_eqn %d\n", !!ops->comp_eqn);
	seq_printf(m, "cq_events %d\n", ops->exec == mlx5x_hw_exec);
	seq_printf(m, "release %d\n", !!ops->release);
#ifdef MLX5X_HAVE_SW_ICM_TYPE_SW_ENCAP
	seq_puts(m, "icm_encap 1\n");
#else
	seq_puts(m, "icm_encap 0\n");
#endif
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mlx5x_hw_backend);

/**
 * mlx5x_hw_debugfs_init() - the hw_backend file of the module's directory
 * @root: debugfs mlx5x/
 */
void mlx5x_hw_debugfs_init(struct dentry *root)
{
	debugfs_create_file("hw_backend", 0400, root, NULL,
			    &mlx5x_hw_backend_fops);
}

/* The function's Ethernet netdev (mlx5e's, parented to the function). */
static struct net_device *mlx5x_hw_find_netdev(struct mlx5x_dev *dev,
					       struct mlx5_core_dev *mdev)
{
	struct net_device *ndev, *found = NULL;

	rtnl_lock();
	for_each_netdev(&init_net, ndev) {
		if (ndev->dev.parent == mdev->device &&
		    ndev->type == ARPHRD_ETHER) {
			found = ndev;
			netdev_hold(ndev, &dev->netdev_tracker, GFP_KERNEL);
			break;
		}
	}
	rtnl_unlock();
	return found;
}

static int mlx5x_hw_setup(struct mlx5x_hw *hw)
{
	struct mlx5_core_dev *mdev = hw->mdev;
	struct mlx5x_dev *dev = hw->dev;
	int err;

	if (MLX5_CAP_GEN(mdev, port_type) != MLX5_CAP_PORT_TYPE_ETH)
		return -EOPNOTSUPP;	/* only RoCE ports are served */
	dev->netdev = mlx5x_hw_find_netdev(dev, mdev);
	if (!dev->netdev)
		return -ENODEV;
	if (MLX5_CAP_GEN(mdev, roce)) {
		err = mlx5_nic_vport_enable_roce(mdev);
		if (err)
			return err;
		hw->roce = true;
	}
	dev->vendor_part_id = mdev->pdev->device;
	dev->hw_rev = mdev->pdev->revision;
	dev->fw_ver = ((u64)fw_rev_maj(mdev) << 32) |
		      ((u64)fw_rev_min(mdev) << 16) | fw_rev_sub(mdev);
	dev->dma_device = &mdev->pdev->dev;
	dev->ib.dev.parent = mdev->device;
	snprintf(dev->ib.node_desc, sizeof(dev->ib.node_desc),
		 "mlx5x %s", dev_name(mdev->device));
	return 0;
}

/**
 * mlx5x_hw_attach() - create and register the mlx5x device of a function
 * @adev: mlx5_core's RDMA auxiliary device of the function
 * @mdev: the function
 *
 * Context: process; the function is loaded (its auxiliary devices are
 * being added).
 * Return: the attachment, or an ERR_PTR.
 */
struct mlx5x_hw *mlx5x_hw_attach(struct auxiliary_device *adev,
				 struct mlx5_core_dev *mdev)
{
	struct mlx5x_dev *dev;
	struct mlx5x_hw *hw;
	int err;

	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return ERR_PTR(-ENOMEM);
	hw->adev = adev;
	hw->mdev = mdev;
	xa_init(&hw->cqs);
	dev = ib_alloc_device(mlx5x_dev, ib);
	if (!dev) {
		kfree(hw);
		return ERR_PTR(-ENOMEM);
	}
	dev->backend = &mlx5x_hw_backend;
	dev->backend_priv = hw;
	hw->dev = dev;

	err = mlx5x_hw_setup(hw);
	if (!err)
		err = mlx5x_dev_register(dev, "mlx5x_%d");
	if (err) {
		mlx5x_hw_release(dev);
		ib_dealloc_device(&dev->ib);
		mlx5x_hw_cqs_cleanup(hw);
		kfree(hw);
		return ERR_PTR(err);
	}
	/* the structure outlives an unregistration its netdev may start */
	get_device(&dev->ib.dev);
	mlx5x_dev_debugfs_init(dev);
	err = mlx5x_hw_events_start(hw);
	if (err)
		ibdev_warn(&dev->ib, "no events from %s: %d\n",
			   dev_name(mdev->device), err);
	return hw;
}

/**
 * mlx5x_hw_detach() - unregister a function's mlx5x device and free it
 * @hw: the attachment
 *
 * Open contexts are disassociated; when this returns the device no longer
 * uses the function.  Context: process, the function still loaded.
 */
void mlx5x_hw_detach(struct mlx5x_hw *hw)
{
	struct mlx5x_dev *dev = hw->dev;

	/* nothing to do if its netdev's unregistration already did it */
	ib_unregister_device(&dev->ib);
	put_device(&dev->ib.dev);
	mlx5x_hw_cqs_cleanup(hw);
	kfree(hw);
}
