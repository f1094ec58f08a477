// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's GIDs and address handles.
 *
 * ib_core keeps the GID table of a RoCE port; the device keeps its own
 * copy (the RoCE address table), written with SET_ROCE_ADDRESS as ib_core
 * adds and deletes entries, from which it builds the source address of
 * the packets a QP sends with a given GID index.
 *
 * An address handle is the software's: libmlx5 builds the address vector
 * a UD send WQE carries itself.  It asks the kernel (when the context
 * says it may, MLX5_USER_CMDS_SUPP_UHW_CREATE_AH) only for what it cannot
 * know, the destination MAC ib_core resolved for the destination GID.
 * A kernel consumer's AH keeps the vector its WQEs carry (kqp.c).
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/mlx5-abi.h>
#include "kverbs.h"

/* roce_addr_layout's roce_version and roce_l3_type */
#define MLX5X_ROCE_V1		0
#define MLX5X_ROCE_V2		2
#define MLX5X_ROCE_L3_IPV4	0
#define MLX5X_ROCE_L3_IPV6	1

/* Write entry @index of the device's table; @attr NULL empties it. */
static int mlx5x_gid_set(struct mlx5x_dev *dev, unsigned int index,
			 const struct ib_gid_attr *attr)
{
	u32 in[PRM_BYTES(set_roce_address_in) / 4] = {};
	u32 out[PRM_BYTES(set_roce_address_out) / 4] = {};
	void *a = PRM_ADDR(set_roce_address_in, in, roce_address);
	u8 mac[ETH_ALEN];
	u16 vlan;
	int err;

	PRM_SET(set_roce_address_in, in, opcode,
		MLX5_CMD_OP_SET_ROCE_ADDRESS);
	PRM_SET(set_roce_address_in, in, roce_address_index, index);
	PRM_SET(set_roce_address_in, in, vhca_port_num, MLX5X_PORT);
	if (attr) {
		err = rdma_read_gid_l2_fields(attr, &vlan, mac);
		if (err)
			return err;
		memcpy(PRM_ADDR(roce_addr_layout, a, source_l3_address),
		       attr->gid.raw, sizeof(attr->gid.raw));
		PRM_SET(roce_addr_layout, a, source_mac_47_32,
			get_unaligned_be16(mac));
		PRM_SET(roce_addr_layout, a, source_mac_31_0,
			get_unaligned_be32(mac + 2));
		if (vlan < VLAN_N_VID) {
			PRM_SET(roce_addr_layout, a, vlan_valid, 1);
			PRM_SET(roce_addr_layout, a, vlan_id, vlan);
		}
		PRM_SET(roce_addr_layout, a, roce_version,
			attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP ?
			MLX5X_ROCE_V2 : MLX5X_ROCE_V1);
		PRM_SET(roce_addr_layout, a, roce_l3_type,
			ipv6_addr_v4mapped((const void *)attr->gid.raw) ?
			MLX5X_ROCE_L3_IPV4 : MLX5X_ROCE_L3_IPV6);
	}
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

int mlx5x_add_gid(const struct ib_gid_attr *attr, void **context)
{
	return mlx5x_gid_set(to_mdev(attr->device), attr->index, attr);
}

int mlx5x_del_gid(const struct ib_gid_attr *attr, void **context)
{
	return mlx5x_gid_set(to_mdev(attr->device), attr->index, NULL);
}

/*
 * A user AH: a RoCE one has a GRH (the packet's IP header); the answer
 * is the MAC ib_core resolved, in struct mlx5_ib_create_ah_resp.
 */
int mlx5x_create_user_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			 struct ib_udata *udata)
{
	const struct rdma_ah_attr *ah = init->ah_attr;
	struct mlx5_ib_create_ah_resp resp = {};
	size_t len = offsetofend(struct mlx5_ib_create_ah_resp, dmac);

	if (ah->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(ah) & IB_AH_GRH))
		return -EINVAL;
	if (!udata)
		return -EOPNOTSUPP;
	if (udata->outlen < len)
		return -EINVAL;
	resp.response_length = len;
	ether_addr_copy(resp.dmac, ah->roce.dmac);
	return ib_copy_to_udata(udata, &resp, len);
}

/*
 * A kernel consumer's AH (ib_cm's, for QP1): the address vector its send
 * WQEs carry, built here as libmlx5 builds a process's; the work
 * request adds the Q_Key and destination QP.  ib_core may ask from
 * atomic context: nothing here sleeps.
 */
int mlx5x_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		    struct ib_udata *udata)
{
	const struct rdma_ah_attr *attr = init->ah_attr;
	struct mlx5x_ah *ah = container_of(ibah, struct mlx5x_ah, ib);
	const struct ib_global_route *grh;
	u32 fl;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	memset(&ah->av, 0, sizeof(ah->av));
	ether_addr_copy(ah->av.rmac, attr->roce.dmac);
	ah->av.tclass = grh->traffic_class;
	ah->av.hop_limit = grh->hop_limit;
	ah->av.stat_rate_sl = (rdma_ah_get_sl(attr) & 7) << 1;
	ah->av.grh_gid_fl = cpu_to_be32(BIT(30) | grh->sgid_index << 20 |
					grh->flow_label);
	memcpy(ah->av.rgid, grh->dgid.raw, sizeof(ah->av.rgid));
	fl = grh->flow_label ? grh->flow_label :
	     rdma_calc_flow_label(1, 1);
	ah->av.udp_sport = cpu_to_be16(rdma_flow_label_to_udp_sport(fl));
	ah->kernel = true;
	return 0;
}

int mlx5x_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}
