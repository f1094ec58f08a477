// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the device's NIC flow table capability page (read once at probe
 * into mlx5x_fs.ft_cap) offers: which table types exist, which may
 * reformat.  The flow matcher path and the kernel's tables both ask
 * here, so what QUERY_HCA_CAP reports is what the driver offers.  It
 * reads the page only and calls nothing else of the steering: they call
 * it, never the other way.
 */
#include "fs.h"

/**
 * mlx5x_fs_prop() - the properties of one table type
 * @dev: device
 * @table_type: a PRM table type
 *
 * FDB tables are described by the e-switch page, which a device without
 * an e-switch (the model) does not offer: never offered here.
 *
 * Return: its flow_table_prop_layout, or NULL when the type is not offered.
 */
void *mlx5x_fs_prop(struct mlx5x_dev *dev, u32 table_type)
{
	void *cap = dev->fs ? dev->fs->ft_cap : NULL;
	void *p;

	if (!cap)
		return NULL;
	switch (table_type) {
	case MLX5_FLOW_TABLE_TYPE_NIC_RX:
		p = PRM_ADDR(flow_table_nic_cap, cap,
			     flow_table_properties_nic_receive);
		break;
	case MLX5_FLOW_TABLE_TYPE_NIC_TX:
		p = PRM_ADDR(flow_table_nic_cap, cap,
			     flow_table_properties_nic_transmit);
		break;
	case MLX5X_FT_TYPE_RDMA_RX:
		p = PRM_ADDR(flow_table_nic_cap, cap,
			     flow_table_properties_nic_receive_rdma);
		break;
	case MLX5X_FT_TYPE_RDMA_TX:
		p = PRM_ADDR(flow_table_nic_cap, cap,
			     flow_table_properties_nic_transmit_rdma);
		break;
	default:
		return NULL;
	}
	return PRM_GET(flow_table_prop_layout, p, ft_support) ? p : NULL;
}

/**
 * mlx5x_fs_reformat_en() - may tables of a type apply packet reformats?
 * @dev: device
 * @table_type: a PRM table type
 *
 * Return: true when the type offers any reformat (its tables are then
 * created with reformat_en).
 */
bool mlx5x_fs_reformat_en(struct mlx5x_dev *dev, u32 table_type)
{
	void *p = mlx5x_fs_prop(dev, table_type);

	return p && (PRM_GET(flow_table_prop_layout, p, reformat) ||
		     PRM_GET(flow_table_prop_layout, p,
			     reformat_l3_tunnel_to_l2) ||
		     PRM_GET(flow_table_prop_layout, p,
			     reformat_l2_to_l3_tunnel));
}
