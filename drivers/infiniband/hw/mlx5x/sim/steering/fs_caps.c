// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The NIC flow table capability page (QUERY_HCA_CAP type 7) of the
 * profile, and the reading of it the flow steering commands do: what the
 * page reports is what they enforce.
 */
#include "fs.h"

/* Fields an entry may match on, outer and inner headers alike. */
static void sim_fs_fields(void *f)
{
	PRM_SET(flow_table_fields_supported, f, outer_dmac, 1);
	PRM_SET(flow_table_fields_supported, f, outer_smac, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ether_type, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ip_version, 1);
	PRM_SET(flow_table_fields_supported, f, outer_first_prio, 1);
	PRM_SET(flow_table_fields_supported, f, outer_first_vid, 1);
	PRM_SET(flow_table_fields_supported, f, outer_sip, 1);
	PRM_SET(flow_table_fields_supported, f, outer_dip, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ip_protocol, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ip_dscp, 1);
	PRM_SET(flow_table_fields_supported, f, outer_udp_sport, 1);
	PRM_SET(flow_table_fields_supported, f, outer_udp_dport, 1);
	PRM_SET(flow_table_fields_supported, f, outer_tcp_sport, 1);
	PRM_SET(flow_table_fields_supported, f, outer_tcp_dport, 1);
	PRM_SET(flow_table_fields_supported, f, outer_vxlan_vni, 1);
	PRM_SET(flow_table_fields_supported, f, inner_dmac, 1);
	PRM_SET(flow_table_fields_supported, f, inner_smac, 1);
	PRM_SET(flow_table_fields_supported, f, inner_ether_type, 1);
	PRM_SET(flow_table_fields_supported, f, inner_ip_version, 1);
	PRM_SET(flow_table_fields_supported, f, inner_sip, 1);
	PRM_SET(flow_table_fields_supported, f, inner_dip, 1);
	PRM_SET(flow_table_fields_supported, f, inner_ip_protocol, 1);
	PRM_SET(flow_table_fields_supported, f, inner_udp_sport, 1);
	PRM_SET(flow_table_fields_supported, f, inner_udp_dport, 1);
	PRM_SET(flow_table_fields_supported, f, inner_tcp_sport, 1);
	PRM_SET(flow_table_fields_supported, f, inner_tcp_dport, 1);
}

/*
 * What every table type offers: tables of @log_num of them, up to 2^@log
 * entries each, 64 levels, counters, up to 32 destinations, entries
 * that change in place, identified miss tables.
 */
static void sim_fs_common_fill(void *p, u32 log, u32 log_num)
{
	PRM_SET(flow_table_prop_layout, p, ft_support, 1);
	PRM_SET(flow_table_prop_layout, p, flow_counter, 1);
	PRM_SET(flow_table_prop_layout, p, flow_modify_en, 1);
	PRM_SET(flow_table_prop_layout, p, identified_miss_table_mode, 1);
	PRM_SET(flow_table_prop_layout, p, flow_table_modify, 1);
	PRM_SET(flow_table_prop_layout, p, log_max_ft_size, log);
	PRM_SET(flow_table_prop_layout, p, max_ft_level, 63);
	PRM_SET(flow_table_prop_layout, p, log_max_ft_num, log_num);
	PRM_SET(flow_table_prop_layout, p, log_max_flow_counter, 4);
	PRM_SET(flow_table_prop_layout, p, log_max_destination, 5);
	PRM_SET(flow_table_prop_layout, p, log_max_flow, 16);
}

/* One table type: what its tables, groups and entries may do. */
static void sim_fs_prop_fill(void *p, bool rx)
{
	sim_fs_common_fill(p, 23, 16);
	PRM_SET(flow_table_prop_layout, p, ignore_flow_level, 1);
	PRM_SET(flow_table_prop_layout, p, reformat_and_modify_action, 1);
	/* encapsulation on both, as a ConnectX-6 Dx reports */
	PRM_SET(flow_table_prop_layout, p, reformat, 1);
	if (rx)
		PRM_SET(flow_table_prop_layout, p, reformat_l3_tunnel_to_l2, 1);
	else
		PRM_SET(flow_table_prop_layout, p, reformat_l2_to_l3_tunnel, 1);
	PRM_SET(flow_table_prop_layout, p, log_max_modify_header_context, 16);
	PRM_SET(flow_table_prop_layout, p, max_modify_header_actions, 32);
	sim_fs_fields(PRM_ADDR(flow_table_prop_layout, p, ft_field_support));
	sim_fs_fields(PRM_ADDR(flow_table_prop_layout, p,
			       ft_field_bitmask_support));
}

/*
 * A sniffer type: tables whose entries take a copy of every packet of a
 * direction to a TIR, beside its normal steering; no header changes.
 */
static void sim_fs_sniffer_fill(void *p)
{
	sim_fs_common_fill(p, 16, 8);
	sim_fs_fields(PRM_ADDR(flow_table_prop_layout, p, ft_field_support));
	sim_fs_fields(PRM_ADDR(flow_table_prop_layout, p,
			       ft_field_bitmask_support));
}

/*
 * An RDMA domain (RDMA RX, RDMA TX): the tables RoCE packets of the
 * device's QPs walk, after the NIC hands them to the RoCE transport on
 * receive and before they reach the wire on transmit.  Their entries
 * match the outer headers and the BTH (destination QP in the misc
 * parameters, opcode there too, which the type's second field page
 * reports); they count, drop, forward to a table of the same domain or
 * let the packet go on; they rewrite no header and reach no TIR.  A miss
 * of an RDMA RX table may switch domain (on to the transport), as upstream
 * mlx5_core requires of a device before it builds that domain.
 */
static void sim_fs_rdma_fill(void *p, void *f2, bool rx)
{
	void *f = PRM_ADDR(flow_table_prop_layout, p, ft_field_support);

	sim_fs_common_fill(p, 16, 8);
	PRM_SET(flow_table_prop_layout, p, modify_root, 1);
	PRM_SET(flow_table_prop_layout, p, ignore_flow_level, 1);
	if (rx)
		PRM_SET(flow_table_prop_layout, p, table_miss_action_domain, 1);
	PRM_SET(flow_table_fields_supported, f, outer_dmac, 1);
	PRM_SET(flow_table_fields_supported, f, outer_smac, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ether_type, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ip_version, 1);
	PRM_SET(flow_table_fields_supported, f, outer_sip, 1);
	PRM_SET(flow_table_fields_supported, f, outer_dip, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ip_protocol, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ip_ecn, 1);
	PRM_SET(flow_table_fields_supported, f, outer_ip_dscp, 1);
	PRM_SET(flow_table_fields_supported, f, outer_udp_sport, 1);
	PRM_SET(flow_table_fields_supported, f, outer_udp_dport, 1);
	PRM_SET(flow_table_fields_supported, f, bth_dst_qp, 1);
	memcpy(PRM_ADDR(flow_table_prop_layout, p, ft_field_bitmask_support),
	       f, PRM_BYTES(flow_table_fields_supported));
	PRM_SET(flow_table_fields_supported_2, f2, bth_opcode, 1);
}

/**
 * sim_fs_caps_fill() - fill the NIC flow table capability page
 * @page: the page, zeroed
 *
 * NIC RX and NIC TX tables of up to 2^23 entries, sniffer RX and TX
 * tables (whose TIRs may be NIC RX destinations too), the RDMA RX and TX
 * domains; no software steering.  Encapsulation (general header) on both, L2 to L3
 * tunnel on transmit, decapsulation (L3 tunnel to L2) on receive, headers
 * up to 128 bytes.
 */
void sim_fs_caps_fill(void *page)
{
	PRM_SET(flow_table_nic_cap, page, encap_general_header, 1);
	PRM_SET(flow_table_nic_cap, page, allow_sniffer_and_nic_rx_shared_tir,
		1);
	sim_fs_sniffer_fill(PRM_ADDR(flow_table_nic_cap, page,
				     flow_table_properties_nic_receive_sniffer));
	sim_fs_sniffer_fill(PRM_ADDR(flow_table_nic_cap, page,
				     flow_table_properties_nic_transmit_sniffer));
	PRM_SET(flow_table_nic_cap, page, log_max_packet_reformat_context, 16);
	PRM_SET(flow_table_nic_cap, page, max_encap_header_size, 128);
	sim_fs_prop_fill(PRM_ADDR(flow_table_nic_cap, page,
				  flow_table_properties_nic_receive), true);
	sim_fs_prop_fill(PRM_ADDR(flow_table_nic_cap, page,
				  flow_table_properties_nic_transmit), false);
	sim_fs_rdma_fill(PRM_ADDR(flow_table_nic_cap, page,
				  flow_table_properties_nic_receive_rdma),
			 PRM_ADDR(flow_table_nic_cap, page,
				  ft_field_support_2_nic_receive_rdma), true);
	sim_fs_rdma_fill(PRM_ADDR(flow_table_nic_cap, page,
				  flow_table_properties_nic_transmit_rdma),
			 PRM_ADDR(flow_table_nic_cap, page,
				  ft_field_support_2_nic_transmit_rdma), false);
}

/**
 * sim_fs_prop() - the properties of one table type
 * @sim: the model
 * @table_type: table_type of a mailbox
 *
 * Return: its flow_table_prop_layout, or NULL for a type the profile does
 * not offer.
 */
void *sim_fs_prop(struct mlx5x_sim *sim, u32 table_type)
{
	void *page = sim->caps[SIM_FS_CAP_TYPE];
	void *p;

	if (!page)
		return NULL;
	switch (table_type) {
	case MLX5_FLOW_TABLE_TYPE_NIC_RX:
		p = PRM_ADDR(flow_table_nic_cap, page,
			     flow_table_properties_nic_receive);
		break;
	case MLX5_FLOW_TABLE_TYPE_NIC_TX:
		p = PRM_ADDR(flow_table_nic_cap, page,
			     flow_table_properties_nic_transmit);
		break;
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_RX:
		p = PRM_ADDR(flow_table_nic_cap, page,
			     flow_table_properties_nic_receive_sniffer);
		break;
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_TX:
		p = PRM_ADDR(flow_table_nic_cap, page,
			     flow_table_properties_nic_transmit_sniffer);
		break;
	case SIM_FS_TYPE_RDMA_RX:
		p = PRM_ADDR(flow_table_nic_cap, page,
			     flow_table_properties_nic_receive_rdma);
		break;
	case SIM_FS_TYPE_RDMA_TX:
		p = PRM_ADDR(flow_table_nic_cap, page,
			     flow_table_properties_nic_transmit_rdma);
		break;
	default:
		return NULL;
	}
	return PRM_GET(flow_table_prop_layout, p, ft_support) ? p : NULL;
}

/**
 * sim_fs_criteria_supported() - match_criteria_enable bits a type takes
 * @sim: the model
 * @table_type: table_type of a mailbox
 *
 * Outer headers when the type matches on an outer field, inner headers
 * when on an inner one, misc parameters when on the VXLAN VNI or the
 * BTH's destination QP (which is where misc parameters hold them).
 *
 * Return: the bits, 0 for a type not offered.
 */
u8 sim_fs_criteria_supported(struct mlx5x_sim *sim, u32 table_type)
{
	void *p = sim_fs_prop(sim, table_type);
	void *f;
	u8 bits = 0;

	if (!p)
		return 0;
	f = PRM_ADDR(flow_table_prop_layout, p, ft_field_support);
	if (PRM_GET(flow_table_fields_supported, f, outer_dmac))
		bits |= BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_OUTER_HEADERS);
	if (PRM_GET(flow_table_fields_supported, f, outer_vxlan_vni) ||
	    PRM_GET(flow_table_fields_supported, f, bth_dst_qp))
		bits |= BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_MISC_PARAMETERS);
	if (PRM_GET(flow_table_fields_supported, f, inner_dmac))
		bits |= BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_INNER_HEADERS);
	return bits;
}
