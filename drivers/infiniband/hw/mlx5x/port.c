// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Ethernet (RoCE) port: its attributes, and its state, which follows
 * the netdev.  Also MLX5_IB_METHOD_QUERY_PORT (mlx5dv_query_port).
 */
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "mlx5x.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

static bool mlx5x_port_up(struct mlx5x_dev *dev)
{
	return netif_running(dev->netdev) && netif_carrier_ok(dev->netdev);
}

int mlx5x_query_port(struct ib_device *ib, u32 port, struct ib_port_attr *a)
{
	struct mlx5x_dev *dev = to_mdev(ib);
	bool up = mlx5x_port_up(dev);
	int err;

	a->gid_tbl_len = MLX5X_CAP_ROCE(dev, roce_address_table_size);
	a->max_msg_sz = 1U << MLX5X_CAP_GEN(dev, log_max_msg);
	a->pkey_tbl_len = 1;
	a->port_cap_flags = IB_PORT_CM_SUP;
	a->ip_gids = true;
	a->max_mtu = IB_MTU_4096;
	a->active_mtu = min_t(enum ib_mtu, a->max_mtu,
			      iboe_get_mtu(READ_ONCE(dev->netdev->mtu)));
	a->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	a->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
			     IB_PORT_PHYS_STATE_DISABLED;
	a->max_vl_num = 1;
	err = ib_get_eth_speed(ib, port, &a->active_speed, &a->active_width);
	return err;
}

int mlx5x_get_port_immutable(struct ib_device *ib, u32 port,
			     struct ib_port_immutable *im)
{
	struct ib_port_attr attr = {};
	int err;

	err = ib_query_port(ib, port, &attr);
	if (err)
		return err;
	im->pkey_tbl_len = attr.pkey_tbl_len;
	im->gid_tbl_len = attr.gid_tbl_len;
	im->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE |
			     RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	im->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

enum rdma_link_layer mlx5x_get_link_layer(struct ib_device *ib, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/* An Ethernet port has one P_Key, the default. */
int mlx5x_query_pkey(struct ib_device *ib, u32 port, u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = MLX5X_PKEY_DEFAULT;
	return 0;
}

/* Called before the device is on the notifier's list. */
void mlx5x_port_init_state(struct mlx5x_dev *dev)
{
	dev->port_up = mlx5x_port_up(dev);
	if (dev->backend->port_init)
		dev->backend->port_init(dev, dev->port_up);
}

static void mlx5x_port_event(struct mlx5x_dev *dev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &dev->ib,
		.element.port_num = MLX5X_PORT,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

static int mlx5x_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct mlx5x_dev *dev;

	mutex_lock(&mlx5x_devices_lock);
	list_for_each_entry(dev, &mlx5x_devices, list) {
		/* a VLAN device over a port's netdev comes or goes */
		if ((event == NETDEV_REGISTER || event == NETDEV_UNREGISTER) &&
		    is_vlan_dev(ndev) && dev->backend->upper_change &&
		    vlan_dev_real_dev(ndev) == dev->netdev &&
		    ib_device_try_get(&dev->ib)) {
			dev->backend->upper_change(dev, ndev,
						   event == NETDEV_REGISTER);
			ib_device_put(&dev->ib);
			continue;
		}
		/* skip devices not yet registered or already going away */
		if (dev->netdev != ndev || !ib_device_try_get(&dev->ib))
			continue;
		switch (event) {
		case NETDEV_UP:
		case NETDEV_DOWN:
		case NETDEV_CHANGE:
			/* only transitions are events */
			if (mlx5x_port_up(dev) == dev->port_up)
				break;
			dev->port_up = !dev->port_up;
			if (dev->backend->port_change)
				dev->backend->port_change(dev, dev->port_up);
			mlx5x_port_event(dev, dev->port_up ?
					 IB_EVENT_PORT_ACTIVE :
					 IB_EVENT_PORT_ERR);
			break;
		case NETDEV_UNREGISTER:
			ib_unregister_device_queued(&dev->ib);
			break;
		}
		ib_device_put(&dev->ib);
	}
	mutex_unlock(&mlx5x_devices_lock);
	return NOTIFY_DONE;
}

static struct notifier_block mlx5x_netdev_nb = {
	.notifier_call = mlx5x_netdev_event,
};

int mlx5x_netdev_notifier_register(void)
{
	return register_netdevice_notifier(&mlx5x_netdev_nb);
}

void mlx5x_netdev_notifier_unregister(void)
{
	unregister_netdevice_notifier(&mlx5x_netdev_nb);
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_QUERY_PORT)(
	struct uverbs_attr_bundle *attrs)
{
	struct mlx5_ib_uapi_query_port info = {};
	struct mlx5x_ucontext *uctx;
	u32 port;
	int err;

	err = uverbs_copy_from(&port, attrs, MLX5_IB_ATTR_QUERY_PORT_PORT_NUM);
	if (err)
		return err;
	uctx = mlx5x_attrs_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	if (!rdma_is_port_valid(uctx->ib.device, port))
		return -EINVAL;
	/* no e-switch in switchdev mode: no vport fields to report */
	return uverbs_copy_to_struct_or_zero(attrs, MLX5_IB_ATTR_QUERY_PORT,
					     &info, sizeof(info));
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_QUERY_PORT,
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_QUERY_PORT_PORT_NUM,
			   UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_QUERY_PORT,
			    UVERBS_ATTR_STRUCT(struct mlx5_ib_uapi_query_port,
					       reg_c0),
			    UA_MANDATORY));

ADD_UVERBS_METHODS(mlx5x_device_methods,
		   UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(MLX5_IB_METHOD_QUERY_PORT));

const struct uapi_definition mlx5x_port_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &mlx5x_device_methods),
	{}
};
