// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The specs of an ibv_create_flow (union ib_flow_spec, as ib_uverbs has
 * already sized and copied them) translated to a PRM fte_match_param mask
 * and value, the way mlx5_ib does it on a ConnectX:
 *
 *   ETH        dmac, smac, ethertype, VLAN (cvlan_tag, first_vid/cfi/prio)
 *   IPV4       ip_version (or ethertype), src/dst IPv4, tos -> dscp/ecn,
 *              proto -> ip_protocol
 *   IPV6       the same for IPv6, next_hdr, traffic_class, flow label
 *   TCP, UDP   ip_protocol, the ports
 *   VXLAN      misc vxlan_vni
 *   GRE        ip_protocol GRE, misc gre_protocol and gre_key
 *   MPLS       misc2 first MPLS label (over UDP or GRE after those specs),
 *              only the fields ft_field_support offers
 *   INNER      any of the header specs, on the inner headers
 *   TAG, DROP, COUNT: the entry's actions
 *
 * A mask on a field the device does not match (IPv4 ttl and flags, IPv6
 * hop limit, GRE flags, MPLS fields not offered) is -EOPNOTSUPP; specs that
 * contradict one another (two protocols, an ethertype that is not the IP
 * version of the IP spec or is partly masked) are -EINVAL, as upstream.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <rdma/ib_verbs.h>
#include "fs_verbs.h"

#define L24(h, fld)	PRM_ADDR(fte_match_set_lyr_2_4, h, fld)

/* The MPLS fields of ft_field_support (MLX5X_MPLS_*). */
enum {
	MLX5X_MPLS_LABEL	= BIT(0),
	MLX5X_MPLS_EXP		= BIT(1),
	MLX5X_MPLS_S_BOS	= BIT(2),
	MLX5X_MPLS_TTL		= BIT(3),
};

/* Where one spec writes: outer or inner headers, and the misc parts. */
struct mlx5x_spec_dst {
	void *hc, *hv;		/* fte_match_set_lyr_2_4 */
	void *mc, *mv;		/* fte_match_set_misc */
	void *m2c, *m2v;	/* fte_match_set_misc2 */
	bool inner;
};

/* The device matches ip_version (else the IP specs match the ethertype). */
static bool mlx5x_spec_ipv_cap(struct mlx5x_dev *dev, bool inner)
{
	void *f = PRM_ADDR(flow_table_nic_cap, dev->fs->ft_cap,
			   flow_table_properties_nic_receive.ft_field_support);

	return inner ? PRM_GET(flow_table_fields_supported, f,
			       inner_ip_version) :
		       PRM_GET(flow_table_fields_supported, f,
			       outer_ip_version);
}

/* The MPLS fields ft_field_support offers at one place (4 bits). */
static u32 mlx5x_spec_mpls_cap(struct mlx5x_dev *dev, u32 prev, bool inner)
{
	void *f = PRM_ADDR(flow_table_nic_cap, dev->fs->ft_cap,
			   flow_table_properties_nic_receive.ft_field_support);

	if (prev == IB_FLOW_SPEC_UDP)
		return PRM_GET(flow_table_fields_supported, f,
			       outer_first_mpls_over_udp);
	if (prev == IB_FLOW_SPEC_GRE)
		return PRM_GET(flow_table_fields_supported, f,
			       outer_first_mpls_over_gre);
	return inner ? PRM_GET(flow_table_fields_supported, f,
			       inner_first_mpls) :
		       PRM_GET(flow_table_fields_supported, f,
			       outer_first_mpls);
}

/* ip_protocol, unless a spec set another already. */
static int mlx5x_spec_proto(struct mlx5x_spec_dst *d, u8 mask, u8 val)
{
	u8 cur_mask = PRM_GET(fte_match_set_lyr_2_4, d->hc, ip_protocol);
	u8 cur_val = PRM_GET(fte_match_set_lyr_2_4, d->hv, ip_protocol);

	if (!mask)
		return 0;
	if (cur_mask)
		return cur_mask == mask && cur_val == val ? 0 : -EINVAL;
	PRM_SET(fte_match_set_lyr_2_4, d->hc, ip_protocol, mask);
	PRM_SET(fte_match_set_lyr_2_4, d->hv, ip_protocol, val);
	return 0;
}

static void mlx5x_spec_tos(struct mlx5x_spec_dst *d, u8 mask, u8 val)
{
	PRM_SET(fte_match_set_lyr_2_4, d->hc, ip_ecn, mask);
	PRM_SET(fte_match_set_lyr_2_4, d->hv, ip_ecn, val);
	PRM_SET(fte_match_set_lyr_2_4, d->hc, ip_dscp, mask >> 2);
	PRM_SET(fte_match_set_lyr_2_4, d->hv, ip_dscp, val >> 2);
}

/* IP version 4 or 6, by ip_version or the ethertype. */
static void mlx5x_spec_ipv(struct mlx5x_dev *dev, struct mlx5x_spec_dst *d,
			   u8 version)
{
	if (mlx5x_spec_ipv_cap(dev, d->inner)) {
		PRM_SET(fte_match_set_lyr_2_4, d->hc, ip_version, 0xf);
		PRM_SET(fte_match_set_lyr_2_4, d->hv, ip_version, version);
	} else {
		PRM_SET(fte_match_set_lyr_2_4, d->hc, ethertype, 0xffff);
		PRM_SET(fte_match_set_lyr_2_4, d->hv, ethertype,
			version == 4 ? ETH_P_IP : ETH_P_IPV6);
	}
}

static int mlx5x_spec_eth(struct mlx5x_spec_dst *d,
			  const struct ib_flow_spec_eth *s)
{
	u16 vm = be16_to_cpu(s->mask.vlan_tag);
	u16 vv = be16_to_cpu(s->val.vlan_tag);

	ether_addr_copy(L24(d->hc, dmac_47_16), s->mask.dst_mac);
	ether_addr_copy(L24(d->hv, dmac_47_16), s->val.dst_mac);
	ether_addr_copy(L24(d->hc, smac_47_16), s->mask.src_mac);
	ether_addr_copy(L24(d->hv, smac_47_16), s->val.src_mac);
	if (vm) {
		PRM_SET(fte_match_set_lyr_2_4, d->hc, cvlan_tag, 1);
		PRM_SET(fte_match_set_lyr_2_4, d->hv, cvlan_tag, 1);
		PRM_SET(fte_match_set_lyr_2_4, d->hc, first_vid, vm & 0xfff);
		PRM_SET(fte_match_set_lyr_2_4, d->hv, first_vid, vv & 0xfff);
		PRM_SET(fte_match_set_lyr_2_4, d->hc, first_cfi, vm >> 12);
		PRM_SET(fte_match_set_lyr_2_4, d->hv, first_cfi, vv >> 12);
		PRM_SET(fte_match_set_lyr_2_4, d->hc, first_prio, vm >> 13);
		PRM_SET(fte_match_set_lyr_2_4, d->hv, first_prio, vv >> 13);
	}
	PRM_SET(fte_match_set_lyr_2_4, d->hc, ethertype,
		be16_to_cpu(s->mask.ether_type));
	PRM_SET(fte_match_set_lyr_2_4, d->hv, ethertype,
		be16_to_cpu(s->val.ether_type));
	return 0;
}

static int mlx5x_spec_ipv4(struct mlx5x_dev *dev, struct mlx5x_spec_dst *d,
			   const struct ib_flow_spec_ipv4 *s)
{
	if (s->mask.ttl || s->mask.flags)
		return -EOPNOTSUPP;
	mlx5x_spec_ipv(dev, d, 4);
	memcpy(L24(d->hc, src_ipv4_src_ipv6.ipv4_layout.ipv4),
	       &s->mask.src_ip, 4);
	memcpy(L24(d->hv, src_ipv4_src_ipv6.ipv4_layout.ipv4),
	       &s->val.src_ip, 4);
	memcpy(L24(d->hc, dst_ipv4_dst_ipv6.ipv4_layout.ipv4),
	       &s->mask.dst_ip, 4);
	memcpy(L24(d->hv, dst_ipv4_dst_ipv6.ipv4_layout.ipv4),
	       &s->val.dst_ip, 4);
	mlx5x_spec_tos(d, s->mask.tos, s->val.tos);
	return mlx5x_spec_proto(d, s->mask.proto, s->val.proto);
}

static int mlx5x_spec_ipv6(struct mlx5x_dev *dev, struct mlx5x_spec_dst *d,
			   const struct ib_flow_spec_ipv6 *s)
{
	if (s->mask.hop_limit)
		return -EOPNOTSUPP;
	mlx5x_spec_ipv(dev, d, 6);
	memcpy(L24(d->hc, src_ipv4_src_ipv6.ipv6_layout.ipv6),
	       s->mask.src_ip, 16);
	memcpy(L24(d->hv, src_ipv4_src_ipv6.ipv6_layout.ipv6),
	       s->val.src_ip, 16);
	memcpy(L24(d->hc, dst_ipv4_dst_ipv6.ipv6_layout.ipv6),
	       s->mask.dst_ip, 16);
	memcpy(L24(d->hv, dst_ipv4_dst_ipv6.ipv6_layout.ipv6),
	       s->val.dst_ip, 16);
	mlx5x_spec_tos(d, s->mask.traffic_class, s->val.traffic_class);
	if (mlx5x_spec_proto(d, s->mask.next_hdr, s->val.next_hdr))
		return -EINVAL;
	if (d->inner) {
		PRM_SET(fte_match_set_misc, d->mc, inner_ipv6_flow_label,
			be32_to_cpu(s->mask.flow_label));
		PRM_SET(fte_match_set_misc, d->mv, inner_ipv6_flow_label,
			be32_to_cpu(s->val.flow_label));
	} else {
		PRM_SET(fte_match_set_misc, d->mc, outer_ipv6_flow_label,
			be32_to_cpu(s->mask.flow_label));
		PRM_SET(fte_match_set_misc, d->mv, outer_ipv6_flow_label,
			be32_to_cpu(s->val.flow_label));
	}
	return 0;
}

static int mlx5x_spec_l4(struct mlx5x_spec_dst *d,
			 const struct ib_flow_spec_tcp_udp *s, bool tcp)
{
	if (mlx5x_spec_proto(d, 0xff, tcp ? IPPROTO_TCP : IPPROTO_UDP))
		return -EINVAL;
	if (tcp) {
		PRM_SET(fte_match_set_lyr_2_4, d->hc, tcp_sport,
			be16_to_cpu(s->mask.src_port));
		PRM_SET(fte_match_set_lyr_2_4, d->hv, tcp_sport,
			be16_to_cpu(s->val.src_port));
		PRM_SET(fte_match_set_lyr_2_4, d->hc, tcp_dport,
			be16_to_cpu(s->mask.dst_port));
		PRM_SET(fte_match_set_lyr_2_4, d->hv, tcp_dport,
			be16_to_cpu(s->val.dst_port));
	} else {
		PRM_SET(fte_match_set_lyr_2_4, d->hc, udp_sport,
			be16_to_cpu(s->mask.src_port));
		PRM_SET(fte_match_set_lyr_2_4, d->hv, udp_sport,
			be16_to_cpu(s->val.src_port));
		PRM_SET(fte_match_set_lyr_2_4, d->hc, udp_dport,
			be16_to_cpu(s->mask.dst_port));
		PRM_SET(fte_match_set_lyr_2_4, d->hv, udp_dport,
			be16_to_cpu(s->val.dst_port));
	}
	return 0;
}

static int mlx5x_spec_gre(struct mlx5x_spec_dst *d,
			  const struct ib_flow_spec_gre *s)
{
	if (s->mask.c_ks_res0_ver)
		return -EOPNOTSUPP;
	if (mlx5x_spec_proto(d, 0xff, IPPROTO_GRE))
		return -EINVAL;
	PRM_SET(fte_match_set_misc, d->mc, gre_protocol,
		be16_to_cpu(s->mask.protocol));
	PRM_SET(fte_match_set_misc, d->mv, gre_protocol,
		be16_to_cpu(s->val.protocol));
	PRM_SET(fte_match_set_misc, d->mc, gre_key.key,
		be32_to_cpu(s->mask.key));
	PRM_SET(fte_match_set_misc, d->mv, gre_key.key,
		be32_to_cpu(s->val.key));
	return 0;
}

static int mlx5x_spec_mpls(struct mlx5x_dev *dev, struct mlx5x_spec_dst *d,
			   const struct ib_flow_spec_mpls *s, u32 prev)
{
	u32 cap = mlx5x_spec_mpls_cap(dev, prev, d->inner);
	const void *m = &s->mask.tag;
	void *c, *v;

	if ((PRM_GET(fte_match_mpls, m, mpls_label) &&
	     !(cap & MLX5X_MPLS_LABEL)) ||
	    (PRM_GET(fte_match_mpls, m, mpls_exp) &&
	     !(cap & MLX5X_MPLS_EXP)) ||
	    (PRM_GET(fte_match_mpls, m, mpls_s_bos) &&
	     !(cap & MLX5X_MPLS_S_BOS)) ||
	    (PRM_GET(fte_match_mpls, m, mpls_ttl) &&
	     !(cap & MLX5X_MPLS_TTL)))
		return -EOPNOTSUPP;
	if (prev == IB_FLOW_SPEC_UDP) {
		c = PRM_ADDR(fte_match_set_misc2, d->m2c,
			     outer_first_mpls_over_udp);
		v = PRM_ADDR(fte_match_set_misc2, d->m2v,
			     outer_first_mpls_over_udp);
	} else if (prev == IB_FLOW_SPEC_GRE) {
		c = PRM_ADDR(fte_match_set_misc2, d->m2c,
			     outer_first_mpls_over_gre);
		v = PRM_ADDR(fte_match_set_misc2, d->m2v,
			     outer_first_mpls_over_gre);
	} else if (d->inner) {
		c = PRM_ADDR(fte_match_set_misc2, d->m2c, inner_first_mpls);
		v = PRM_ADDR(fte_match_set_misc2, d->m2v, inner_first_mpls);
	} else {
		c = PRM_ADDR(fte_match_set_misc2, d->m2c, outer_first_mpls);
		v = PRM_ADDR(fte_match_set_misc2, d->m2v, outer_first_mpls);
	}
	memcpy(c, &s->mask.tag, 4);
	memcpy(v, &s->val.tag, 4);
	return 0;
}

/* The kernel size ib_uverbs gives each spec type; 0: none known. */
static size_t mlx5x_spec_size(u32 type)
{
	switch (type & ~IB_FLOW_SPEC_INNER) {
	case IB_FLOW_SPEC_ETH:
		return sizeof(struct ib_flow_spec_eth);
	case IB_FLOW_SPEC_IPV4:
		return sizeof(struct ib_flow_spec_ipv4);
	case IB_FLOW_SPEC_IPV6:
		return sizeof(struct ib_flow_spec_ipv6);
	case IB_FLOW_SPEC_TCP:
	case IB_FLOW_SPEC_UDP:
		return sizeof(struct ib_flow_spec_tcp_udp);
	case IB_FLOW_SPEC_VXLAN_TUNNEL:
		return sizeof(struct ib_flow_spec_tunnel);
	case IB_FLOW_SPEC_GRE:
		return sizeof(struct ib_flow_spec_gre);
	case IB_FLOW_SPEC_MPLS:
		return sizeof(struct ib_flow_spec_mpls);
	case IB_FLOW_SPEC_ESP:
		return sizeof(struct ib_flow_spec_esp);
	case IB_FLOW_SPEC_IB:
		return sizeof(struct ib_flow_spec_ib);
	case IB_FLOW_SPEC_ACTION_TAG:
		return sizeof(struct ib_flow_spec_action_tag);
	case IB_FLOW_SPEC_ACTION_DROP:
		return sizeof(struct ib_flow_spec_action_drop);
	case IB_FLOW_SPEC_ACTION_HANDLE:
		return sizeof(struct ib_flow_spec_action_handle);
	case IB_FLOW_SPEC_ACTION_COUNT:
		return sizeof(struct ib_flow_spec_action_count);
	default:
		return 0;
	}
}

static int mlx5x_spec_action(struct mlx5x_flow_match *m,
			     const union ib_flow_spec *s)
{
	switch (s->type) {
	case IB_FLOW_SPEC_ACTION_TAG:
		if (s->flow_tag.tag_id >= BIT(24) || m->has_tag)
			return -EINVAL;
		m->has_tag = true;
		m->flow_tag = s->flow_tag.tag_id;
		return 0;
	case IB_FLOW_SPEC_ACTION_DROP:
		m->drop = true;
		return 0;
	case IB_FLOW_SPEC_ACTION_COUNT:
		/* one counters spec per flow, as upstream */
		if (m->counters || !s->flow_count.counters)
			return -EINVAL;
		m->counters = s->flow_count.counters;
		return 0;
	case IB_FLOW_SPEC_ACTION_HANDLE:
		/* flow actions are the mlx5dv ones: none for verbs flows yet */
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

static int mlx5x_spec_one(struct mlx5x_dev *dev, struct mlx5x_flow_match *m,
			  const union ib_flow_spec *s, u32 prev)
{
	struct mlx5x_spec_dst d = {
		.inner = s->type & IB_FLOW_SPEC_INNER,
		.mc = PRM_ADDR(fte_match_param, m->mask, misc_parameters),
		.mv = PRM_ADDR(fte_match_param, m->value, misc_parameters),
		.m2c = PRM_ADDR(fte_match_param, m->mask, misc_parameters_2),
		.m2v = PRM_ADDR(fte_match_param, m->value, misc_parameters_2),
	};

	if (d.inner) {
		d.hc = PRM_ADDR(fte_match_param, m->mask, inner_headers);
		d.hv = PRM_ADDR(fte_match_param, m->value, inner_headers);
	} else {
		d.hc = PRM_ADDR(fte_match_param, m->mask, outer_headers);
		d.hv = PRM_ADDR(fte_match_param, m->value, outer_headers);
	}
	switch (s->type & ~IB_FLOW_SPEC_INNER) {
	case IB_FLOW_SPEC_ETH:
		return mlx5x_spec_eth(&d, &s->eth);
	case IB_FLOW_SPEC_IPV4:
		return mlx5x_spec_ipv4(dev, &d, &s->ipv4);
	case IB_FLOW_SPEC_IPV6:
		return mlx5x_spec_ipv6(dev, &d, &s->ipv6);
	case IB_FLOW_SPEC_TCP:
		return mlx5x_spec_l4(&d, &s->tcp_udp, true);
	case IB_FLOW_SPEC_UDP:
		return mlx5x_spec_l4(&d, &s->tcp_udp, false);
	case IB_FLOW_SPEC_VXLAN_TUNNEL:
		PRM_SET(fte_match_set_misc, d.mc, vxlan_vni,
			be32_to_cpu(s->tunnel.mask.tunnel_id));
		PRM_SET(fte_match_set_misc, d.mv, vxlan_vni,
			be32_to_cpu(s->tunnel.val.tunnel_id));
		return 0;
	case IB_FLOW_SPEC_GRE:
		return mlx5x_spec_gre(&d, &s->gre);
	case IB_FLOW_SPEC_MPLS:
		return mlx5x_spec_mpls(dev, &d, &s->mpls, prev);
	case IB_FLOW_SPEC_ESP:
		return -EOPNOTSUPP;
	default:
		if (d.inner)
			return -EINVAL;
		return mlx5x_spec_action(m, s);
	}
}

/*
 * The ethertype of an ETH spec, if masked at all, must be fully masked and
 * name the IP version of the IP spec beside it (or MPLS when the device
 * matches ip_version), as mlx5_ib requires.
 */
static bool mlx5x_specs_ethertype_ok(struct mlx5x_dev *dev,
				     const struct ib_flow_attr *attr,
				     bool inner)
{
	const union ib_flow_spec *s = (const void *)(attr + 1);
	u32 bit = inner ? IB_FLOW_SPEC_INNER : 0, ip = 0;
	bool has_type = false, full = true;
	unsigned int i;
	u16 type = 0;

	for (i = 0; i < attr->num_of_specs; i++) {
		if (s->type == (IB_FLOW_SPEC_ETH | bit) &&
		    s->eth.mask.ether_type) {
			has_type = true;
			full = s->eth.mask.ether_type == htons(0xffff);
			type = be16_to_cpu(s->eth.val.ether_type);
		} else if (s->type == (IB_FLOW_SPEC_IPV4 | bit) ||
			   s->type == (IB_FLOW_SPEC_IPV6 | bit)) {
			ip = s->type;
		}
		s = (const void *)s + s->size;
	}
	if (!has_type || !ip)
		return true;
	if (!full)
		return false;
	return (type == ETH_P_IP && ip == (IB_FLOW_SPEC_IPV4 | bit)) ||
	       (type == ETH_P_IPV6 && ip == (IB_FLOW_SPEC_IPV6 | bit)) ||
	       ((type == ETH_P_MPLS_UC || type == ETH_P_MPLS_MC) &&
		mlx5x_spec_ipv_cap(dev, inner));
}

/* match_criteria_enable: each part of @mask that has a bit set. */
static u8 mlx5x_specs_criteria(const u8 *mask)
{
	static const struct {
		unsigned int off, len, bit;
	} parts[] = {
		{ PRM_BYTE_OFF(fte_match_param, outer_headers),
		  PRM_BYTES(fte_match_set_lyr_2_4),
		  MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_OUTER_HEADERS },
		{ PRM_BYTE_OFF(fte_match_param, misc_parameters),
		  PRM_BYTES(fte_match_set_misc),
		  MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_MISC_PARAMETERS },
		{ PRM_BYTE_OFF(fte_match_param, inner_headers),
		  PRM_BYTES(fte_match_set_lyr_2_4),
		  MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_INNER_HEADERS },
		{ PRM_BYTE_OFF(fte_match_param, misc_parameters_2),
		  PRM_BYTES(fte_match_set_misc2),
		  MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_MISC_PARAMETERS_2 },
	};
	unsigned int i;
	u8 criteria = 0;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		if (memchr_inv(mask + parts[i].off, 0, parts[i].len))
			criteria |= BIT(parts[i].bit);
	return criteria;
}

/**
 * mlx5x_flow_specs_parse() - translate a flow's specs
 * @dev: device (its flow table capabilities)
 * @attr: the flow attribute, its specs behind it
 * @m: the result, zeroed by the caller
 *
 * Return: 0; -EINVAL for a spec of an unknown type or size, specs that
 * overrun @attr->size, contradictory specs or a bad tag; -EOPNOTSUPP for
 * a mask on a field the device does not match or an action it lacks.
 */
int mlx5x_flow_specs_parse(struct mlx5x_dev *dev,
			   const struct ib_flow_attr *attr,
			   struct mlx5x_flow_match *m)
{
	const union ib_flow_spec *s = (const void *)(attr + 1);
	size_t left, size;
	unsigned int i;
	u32 prev = 0;
	int err;

	if (attr->size < sizeof(*attr))
		return -EINVAL;
	left = attr->size - sizeof(*attr);
	for (i = 0; i < attr->num_of_specs; i++) {
		if (left < offsetofend(union ib_flow_spec, size))
			return -EINVAL;
		size = mlx5x_spec_size(s->type);
		if (!size || s->size != size || size > left)
			return -EINVAL;
		err = mlx5x_spec_one(dev, m, s, prev);
		if (err)
			return err;
		prev = s->type;
		left -= size;
		s = (const void *)s + size;
	}
	if (!mlx5x_specs_ethertype_ok(dev, attr, false) ||
	    !mlx5x_specs_ethertype_ok(dev, attr, true))
		return -EINVAL;
	/* a value bit its mask leaves out matches nothing: drop it */
	for (i = 0; i < sizeof(m->value); i++)
		m->value[i] &= m->mask[i];
	m->criteria = mlx5x_specs_criteria(m->mask);
	return 0;
}

/**
 * mlx5x_flow_mcast_only() - may a flow catch only multicast packets
 * @attr: a flow attribute whose specs mlx5x_flow_specs_parse() accepted
 *
 * Return: true when its first spec is an IPv4 spec to a multicast
 * address, or an ETH spec whose destination MAC mask and value are both
 * multicast: such a flow goes to the multicast priority, after every
 * other, so it cannot take unicast packets from them (as upstream).
 */
bool mlx5x_flow_mcast_only(const struct ib_flow_attr *attr)
{
	const union ib_flow_spec *s = (const void *)(attr + 1);

	if (attr->type != IB_FLOW_ATTR_NORMAL || !attr->num_of_specs)
		return false;
	if (s->type == IB_FLOW_SPEC_IPV4)
		return ipv4_is_multicast(s->ipv4.val.dst_ip);
	if (s->type == IB_FLOW_SPEC_ETH)
		return is_multicast_ether_addr(s->eth.mask.dst_mac) &&
		       is_multicast_ether_addr(s->eth.val.dst_mac);
	return false;
}
