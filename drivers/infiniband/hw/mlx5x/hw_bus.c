// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Finding mlx5_core functions and following their life.
 *
 * mlx5_core gives each loaded function auxiliary devices, one per kind of
 * driver: "mlx5_core.rdma.N" is where mlx5_ib binds, and it exists exactly
 * while the function is loaded and serves RDMA (an Ethernet port in
 * legacy e-switch mode, a PF, VF or SF).  mlx5_core deletes it before it
 * unloads the function, for every reason it does so: driver unbind,
 * hot-unplug, mlx5_core's own unload, devlink reload, health recovery, an
 * e-switch mode change.  Only one driver binds an auxiliary device, and
 * that is mlx5_ib's; mlx5x watches the bus instead: a bus notifier sees
 * the device added (the function is up: attach) and deleted (before the
 * function goes down: detach, synchronously, disassociating open
 * contexts, so the RDMA device is gone before the function is).
 *
 * The auxiliary bus type is not exported; the bus is learned from an
 * auxiliary driver of mlx5x's own that matches no device.
 */
#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include "mlx5x.h"
#include "hw.h"

#define MLX5X_HW_ADEV_PREFIX	"mlx5_core.rdma."

static DEFINE_MUTEX(mlx5x_hw_lock);	/* the list, attach and detach */
static LIST_HEAD(mlx5x_hw_fns);

/* An auxiliary device name of no device: the driver only names the bus. */
static const struct auxiliary_device_id mlx5x_hw_anchor_ids[] = {
	{ .name = KBUILD_MODNAME ".none" },
	{}
};

static int mlx5x_hw_anchor_probe(struct auxiliary_device *adev,
				 const struct auxiliary_device_id *id)
{
	return -ENODEV;
}

static struct auxiliary_driver mlx5x_hw_anchor = {
	.name = "bus_anchor",
	.probe = mlx5x_hw_anchor_probe,
	.id_table = mlx5x_hw_anchor_ids,
};

/* mlx5_core's RDMA device of a function (not the representors' one). */
static struct mlx5_core_dev *mlx5x_hw_adev_mdev(struct device *d)
{
	if (strncmp(dev_name(d), MLX5X_HW_ADEV_PREFIX,
		    strlen(MLX5X_HW_ADEV_PREFIX)))
		return NULL;
	return container_of(to_auxiliary_dev(d), struct mlx5_adev, adev)->mdev;
}

static struct mlx5x_hw *mlx5x_hw_find(struct device *d)
{
	struct mlx5x_hw *hw;

	list_for_each_entry(hw, &mlx5x_hw_fns, node)
		if (&hw->adev->dev == d)
			return hw;
	return NULL;
}

static void mlx5x_hw_add(struct device *d)
{
	struct mlx5_core_dev *mdev = mlx5x_hw_adev_mdev(d);
	struct mlx5x_hw *hw;

	if (!mdev)
		return;
	mutex_lock(&mlx5x_hw_lock);
	if (!mlx5x_hw_find(d)) {
		hw = mlx5x_hw_attach(to_auxiliary_dev(d), mdev);
		if (IS_ERR(hw))
			dev_info(d, "mlx5x: not attached: %ld\n", PTR_ERR(hw));
		else
			list_add_tail(&hw->node, &mlx5x_hw_fns);
	}
	mutex_unlock(&mlx5x_hw_lock);
}

static void mlx5x_hw_del(struct device *d)
{
	struct mlx5x_hw *hw;

	mutex_lock(&mlx5x_hw_lock);
	hw = mlx5x_hw_find(d);
	if (hw) {
		list_del(&hw->node);
		mlx5x_hw_detach(hw);
	}
	mutex_unlock(&mlx5x_hw_lock);
}

static int mlx5x_hw_bus_event(struct notifier_block *nb,
			      unsigned long action, void *data)
{
	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		mlx5x_hw_add(data);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		mlx5x_hw_del(data);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block mlx5x_hw_bus_nb = {
	.notifier_call = mlx5x_hw_bus_event,
};

static int mlx5x_hw_add_existing(struct device *d, void *unused)
{
	mlx5x_hw_add(d);
	return 0;
}

/**
 * mlx5x_hw_init() - attach to the mlx5_core functions, now and to come
 *
 * A function that is already up is attached here; one that comes up
 * later, when its RDMA auxiliary device is added.  Finding none is not an
 * error.
 */
int mlx5x_hw_init(void)
{
	int err;

	err = auxiliary_driver_register(&mlx5x_hw_anchor);
	if (err)
		return err;
	/* first the notifier, then the devices already there: none missed */
	err = bus_register_notifier(mlx5x_hw_anchor.driver.bus,
				    &mlx5x_hw_bus_nb);
	if (err) {
		auxiliary_driver_unregister(&mlx5x_hw_anchor);
		return err;
	}
	mlx5x_hw_debugfs_init(mlx5x_debugfs_root);
	bus_for_each_dev(mlx5x_hw_anchor.driver.bus, NULL, NULL,
			 mlx5x_hw_add_existing);
	return 0;
}

/**
 * mlx5x_hw_exit() - detach from every mlx5_core function
 */
void mlx5x_hw_exit(void)
{
	struct mlx5x_hw *hw, *tmp;

	/* waits for a notifier call under way; none comes after */
	bus_unregister_notifier(mlx5x_hw_anchor.driver.bus, &mlx5x_hw_bus_nb);
	mutex_lock(&mlx5x_hw_lock);
	list_for_each_entry_safe(hw, tmp, &mlx5x_hw_fns, node) {
		list_del(&hw->node);
		mlx5x_hw_detach(hw);
	}
	mutex_unlock(&mlx5x_hw_lock);
	auxiliary_driver_unregister(&mlx5x_hw_anchor);
}
