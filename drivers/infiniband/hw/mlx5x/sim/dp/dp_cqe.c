// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queue entries as the device writes them: struct sim_cqe
 * (struct sim_err_cqe for an error) of wqe.h, with the
 * owner bit of op_own giving the pass of the CQ's ring the entry belongs
 * to; and the receive offloads an Ethernet CQE reports (header types,
 * L3/L4 checksums verified).
 */
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include "datapath.h"
#include "wqe.h"

/*
 * A signature error CQE (struct mlx5_sig_err_cqe): the values at 16-31,
 * the syndrome at 32, the domain at 35, the mkey at 36, the offset at
 * 40, the QP at 56; libmlx5 takes it for the mkey and polls on.
 */
static void sim_cqe_sig_err(u8 *cqe, const struct sim_cqe_info *info)
{
	const struct sim_sig_err *e = info->sig;
	__be32 *w = (__be32 *)cqe;

	w[4] = cpu_to_be32(e->exp_sig);
	w[5] = cpu_to_be32(e->act_sig);
	w[6] = cpu_to_be32(e->exp_ref);
	w[7] = cpu_to_be32(e->act_ref);
	w[8] = cpu_to_be32((u32)e->syndrome << 16 | e->domain);
	w[9] = cpu_to_be32(e->mkey);
	*(__be64 *)(cqe + 40) = cpu_to_be64(e->offset);
	w[14] = cpu_to_be32(info->qpn & 0xffffff);
}

/**
 * sim_cqe_fill() - lay out one 64-byte CQE
 * @cqe: where, 64 bytes
 * @info: what it says
 * @owner: the owner bit of the ring's current pass
 */
void sim_cqe_fill(u8 *cqe, const struct sim_cqe_info *info, bool owner)
{
	struct sim_cqe *c = (void *)cqe;
	struct sim_err_cqe *e = (void *)cqe;

	memset(cqe, 0, sizeof(*c));
	if (info->opcode == SIM_CQE_SIG_ERR) {
		sim_cqe_sig_err(cqe, info);
		c->op_own = info->opcode << 4 | owner;
		return;
	}
	if (info->opcode == SIM_CQE_REQ_ERR ||
	    info->opcode == SIM_CQE_RESP_ERR) {
		e->srqn = cpu_to_be32(info->user_index & 0xffffff);
		e->syndrome = info->syndrome;
		e->s_wqe_opcode_qpn = cpu_to_be32(info->wqe_opcode << 24 |
						  (info->qpn & 0xffffff));
	} else {
		c->srqn = cpu_to_be32(info->user_index & 0xffffff);
		c->byte_cnt = cpu_to_be32(info->byte_cnt);
		c->hds_ip_ext = info->hds_ip_ext;
		c->l4_l3_hdr_type = info->l4_l3_hdr_type;
		c->vlan_info = cpu_to_be16(info->vlan_info);
		c->flags_rqpn = cpu_to_be32(info->flags_rqpn);
		c->imm = info->imm;
		if (info->tagged)
			c->sop_drop_qpn = cpu_to_be32(info->flow_tag &
						      0xffffff);
		else if (info->opcode == SIM_CQE_REQ)
			c->sop_drop_qpn = cpu_to_be32(info->wqe_opcode << 24 |
						      (info->qpn & 0xffffff));
		else
			c->sop_drop_qpn = cpu_to_be32(info->qpn & 0xffffff);
	}
	c->wqe_counter = cpu_to_be16(info->wqe_counter);
	/* op_own last: what makes the entry the software's */
	c->op_own = info->opcode << 4 | owner;
}

/**
 * sim_cqe_stamp() - set the timestamp of a CQE sim_cqe_fill() laid out
 * @cqe: the 64-byte CQE
 * @ts: the device's clock (mlx5x_sim_clock_ns()) at its completion
 *
 * Big endian at bytes 48-55 of a good CQE.  An error CQE has none: its
 * vendor syndrome and syndrome are there (and libmlx5 reads no
 * timestamp of it); a signature error CQE is left as it is too.
 */
void sim_cqe_stamp(u8 *cqe, u64 ts)
{
	struct sim_cqe *c = (void *)cqe;
	u8 op = c->op_own >> 4;
	__be64 be = cpu_to_be64(ts);

	if (op == SIM_CQE_REQ_ERR || op == SIM_CQE_RESP_ERR ||
	    op == SIM_CQE_SIG_ERR)
		return;
	memcpy(c->timestamp, &be, sizeof(be));
}

static u8 sim_cqe_l4(u8 proto, const u8 *l4, u32 room, bool ok,
		     struct sim_cqe_info *info)
{
	if (proto == IPPROTO_TCP && room >= 20) {
		info->l4_l3_hdr_type |= SIM_CQE_L4_TCP << 4;
	} else if (proto == IPPROTO_UDP && room >= 8) {
		info->l4_l3_hdr_type |= SIM_CQE_L4_UDP << 4;
		/* no checksum given: nothing to fail */
		ok |= !l4[6] && !l4[7];
	} else {
		return 0;
	}
	return ok ? SIM_CQE_L4_OK : 0;
}

/**
 * sim_cqe_rx_offloads() - the header types and checksum results of a CQE
 * @pkt: the packet received, from its Ethernet header
 * @len: its length
 * @info: l4_l3_hdr_type and hds_ip_ext are set
 *
 * One 802.1Q tag is looked through; an IPv4 header checksum and a TCP or
 * UDP checksum over IPv4 or IPv6 are verified as the device does.
 */
void sim_cqe_rx_offloads(const u8 *pkt, u32 len, struct sim_cqe_info *info)
{
	u32 off = ETH_HLEN, l3len, room;
	const struct ipv6hdr *ip6;
	const struct iphdr *ip;
	__wsum sum;
	u16 etype;

	info->l4_l3_hdr_type = 0;
	info->hds_ip_ext = 0;
	if (len < ETH_HLEN)
		return;
	etype = pkt[12] << 8 | pkt[13];	/* no unaligned.h: it moved in 6.12 */
	if (etype == ETH_P_8021Q && len >= ETH_HLEN + 4) {
		etype = pkt[16] << 8 | pkt[17];
		off += 4;
	}
	if (etype == ETH_P_IP && len >= off + sizeof(*ip)) {
		ip = (const void *)(pkt + off);
		l3len = ip->ihl * 4;
		if (ip->version != 4 || l3len < sizeof(*ip) ||
		    len < off + l3len)
			return;
		info->l4_l3_hdr_type = SIM_CQE_L3_IPV4 << 2;
		if (ip_fast_csum(ip, ip->ihl))
			return;
		info->hds_ip_ext = SIM_CQE_L3_OK;
		room = min_t(u32, len - off, be16_to_cpu(ip->tot_len));
		if (room < l3len || ip->frag_off & htons(IP_MF | IP_OFFSET))
			return;
		room -= l3len;
		sum = csum_partial(pkt + off + l3len, room, 0);
		info->hds_ip_ext |=
			sim_cqe_l4(ip->protocol, pkt + off + l3len, room,
				   !csum_tcpudp_magic(ip->saddr, ip->daddr,
						      room, ip->protocol,
						      sum), info);
	} else if (etype == ETH_P_IPV6 && len >= off + sizeof(*ip6)) {
		ip6 = (const void *)(pkt + off);
		if (ip6->version != 6)
			return;
		info->l4_l3_hdr_type = SIM_CQE_L3_IPV6 << 2;
		info->hds_ip_ext = SIM_CQE_L3_OK;
		off += sizeof(*ip6);
		room = min_t(u32, len - off, be16_to_cpu(ip6->payload_len));
		sum = csum_partial(pkt + off, room, 0);
		info->hds_ip_ext |=
			sim_cqe_l4(ip6->nexthdr, pkt + off, room,
				   !csum_ipv6_magic(&ip6->saddr, &ip6->daddr,
						    room, ip6->nexthdr, sum),
				   info);
	}
}
