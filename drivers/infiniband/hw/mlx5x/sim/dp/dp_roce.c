// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCE frames, as a ConnectX puts them on the wire and takes them off it:
 * RoCE v2 (IBTA Annex A17) and RoCE v1 (Annex A16):
 *
 *   Ethernet [802.1Q tag] | IPv4 (20) or IPv6 (40) | UDP to 4791 |
 *   BTH (12) | DETH (8) | immediate (4, SEND with immediate) | payload |
 *   pad (0..3) | ICRC (4)
 *
 *   Ethernet [802.1Q tag], Ethertype 0x8915 | GRH (40, next header 0x1B)
 *   | BTH (12) | ... as above
 *
 * The tag (Ethertype 0x8100) is there when the source address is on a
 * VLAN: its ID the address's VLAN, its priority the service level.  The
 * GRH of RoCE v1 is laid out as an IPv6 header is (version 6, traffic
 * class, flow label, payload length, next header, hop limit, the GIDs).
 *
 * IPv4: no options, DF set, identification 0, the TOS byte the traffic
 * class, the TTL the hop limit.  IPv6: no extension header.  UDP: the
 * source port the AV carries (libmlx5 picks one per AH), or, when it is
 * 0, one derived from the flow label as ib_core's
 * rdma_flow_label_to_udp_sport() does (0xC000 | the label's low 14 bits
 * XOR its high 6); checksum 0.  BTH: pad count to a multiple of 4, TVer
 * 0, the reserved and FECN/BECN bits 0.
 *
 * The ICRC is a CRC-32 (the Ethernet polynomial, reflected, initial value
 * ~0, complemented) over the packet from the IP header to the end of the
 * pad, after 8 bytes of 0xff (the masked LRH), with the fields routers
 * may change masked to ones: IPv4's TOS, TTL and header checksum;
 * IPv6's traffic class, flow label and hop limit; UDP's checksum; the
 * BTH's byte after the P_Key (FECN, BECN, reserved).  It goes on the
 * wire least significant byte first.
 *
 * Parsing never reads past the frame: every header is checked against
 * the bytes there are before it is looked at; a frame that says more
 * bytes than it has, a UDP length that is not the IP one, an IPv4 header
 * checksum that does not add up, a BTH version other than 0, or a UD
 * packet too short for its DETH (and immediate) is malformed.
 */
#include <linux/crc32.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/string.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include "dp_roce.h"

#define SIM_ROCE_IP4		20
#define SIM_ROCE_IP6		40
#define SIM_ROCE_UDP		8
#define SIM_ROCE_IP_DF		0x4000
/* IPv4's more-fragments bit and fragment offset */
#define SIM_ROCE_IP_FRAG	0x3fff
/* The BTH's byte 1: solicited event, migration, pad count, version */
#define SIM_ROCE_BTH_SE		0x80
#define SIM_ROCE_BTH_PAD(b)	(((b) >> 4) & 3)
#define SIM_ROCE_BTH_TVER(b)	((b) & 0xf)
#define SIM_ROCE_UDP_SPORT_MIN	0xc000

#define SIM_ROCE_GRH_NEXT_BTH	0x1b

/* Header fields, byte by byte: a frame's headers need not be aligned. */
static u16 sim_be16(const u8 *p)
{
	return p[0] << 8 | p[1];
}

static u32 sim_be32(const u8 *p)
{
	return (u32)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static u32 sim_le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static void sim_put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void sim_put_be32(u8 *p, u32 v)
{
	sim_put_be16(p, v >> 16);
	sim_put_be16(p + 2, v);
}

static void sim_put_le32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/**
 * sim_roce_sport() - the UDP source port of a flow label
 * @flow_label: 20 bits
 *
 * Return: 0xC000 with the label's low 14 bits XOR its high 6.
 */
u16 sim_roce_sport(u32 flow_label)
{
	u32 lo = flow_label & 0x3fff, hi = flow_label & 0xfc000;

	return (lo ^ (hi >> 14)) | SIM_ROCE_UDP_SPORT_MIN;
}

/**
 * sim_roce_icrc() - the ICRC of a RoCE packet
 * @l3: its IP header (RoCE v1: its GRH)
 * @len: bytes from there to the end of the pad (the ICRC excluded); at
 *	 least the IP, UDP and BTH headers (RoCE v1: the GRH and BTH)
 * @v4: IPv4, else IPv6 (RoCE v2)
 * @v1: RoCE v1: a GRH, no UDP header
 *
 * Return: the ICRC, as a number (it is sent least significant byte first).
 */
u32 sim_roce_icrc(const u8 *l3, u32 len, bool v4, bool v1)
{
	static const u8 lrh[8] = { 0xff, 0xff, 0xff, 0xff,
				   0xff, 0xff, 0xff, 0xff };
	bool ip4 = v4 && !v1;
	u32 hl = ip4 ? SIM_ROCE_IP4 : SIM_ROCE_IP6;
	u32 udp = v1 ? 0 : SIM_ROCE_UDP;
	u8 ph[SIM_ROCE_IP6 + SIM_ROCE_UDP + SIM_ROCE_BTH];
	u32 n = hl + udp + SIM_ROCE_BTH;
	u32 crc;

	memcpy(ph, l3, n);
	if (ip4) {
		ph[1] = 0xff;			/* TOS */
		ph[8] = 0xff;			/* TTL */
		ph[10] = 0xff;			/* header checksum */
		ph[11] = 0xff;
	} else {
		ph[0] |= 0x0f;			/* traffic class, flow label */
		memset(ph + 1, 0xff, 3);
		ph[7] = 0xff;			/* hop limit */
	}
	if (udp) {
		ph[hl + 6] = 0xff;		/* UDP checksum */
		ph[hl + 7] = 0xff;
	}
	ph[hl + udp + 4] = 0xff;		/* FECN, BECN, reserved */
	crc = crc32_le(~0U, lrh, sizeof(lrh));
	crc = crc32_le(crc, ph, n);
	crc = crc32_le(crc, l3 + n, len - n);
	return ~crc;
}

/**
 * sim_roce_build() - the headers of a packet, to its extended headers
 * @u: what it says: addresses, BTH fields (@u->len: the payload's bytes)
 * @ext: the extended headers after the BTH, as they go on the wire
 * @ext_len: their bytes (SIM_ROCE_EXT_MAX at most)
 * @frame: where it is built: room for SIM_ROCE_HDR_MAX, the payload, 3
 *	   bytes of pad and the ICRC
 *
 * Return: the headers' length, where the payload goes.  Then
 * sim_roce_ud_seal().
 */
u32 sim_roce_build(const struct sim_roce_ud *u, const u8 *ext, u32 ext_len,
		   u8 *frame)
{
	u32 pad = -u->len & 3;
	u32 l4 = SIM_ROCE_UDP + SIM_ROCE_BTH + ext_len + u->len + pad +
		 SIM_ROCE_ICRC;
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	struct udphdr *udp;
	u8 *bth, *p;

	memcpy(frame, u->dmac, ETH_ALEN);
	memcpy(frame + ETH_ALEN, u->smac, ETH_ALEN);
	p = frame + 2 * ETH_ALEN;
	if (u->tagged) {
		sim_put_be16(p, ETH_P_8021Q);
		sim_put_be16(p + 2, u->vlan);
		p += SIM_ROCE_VLAN_TAG;
	}
	sim_put_be16(p, u->v1 ? ETH_P_IBOE : u->v4 ? ETH_P_IP : ETH_P_IPV6);
	p += 2;
	if (u->v1) {
		/* the GRH: an IPv6 header whose next header is the BTH */
		sim_put_be32(p, 6U << 28 | (u32)u->tclass << 20 |
			     (u->flow_label & 0xfffff));
		sim_put_be16(p + 4, l4 - SIM_ROCE_UDP);
		p[6] = SIM_ROCE_GRH_NEXT_BTH;
		p[7] = u->hop_limit;
		memcpy(p + 8, u->sgid, 16);
		memcpy(p + 24, u->dgid, 16);
		bth = p + SIM_ROCE_IP6;
		goto fill_bth;
	}
	if (u->v4) {
		ip = (void *)p;
		memset(ip, 0, sizeof(*ip));
		ip->version = 4;
		ip->ihl = SIM_ROCE_IP4 / 4;
		ip->tos = u->tclass;
		ip->tot_len = htons(SIM_ROCE_IP4 + l4);
		ip->frag_off = htons(SIM_ROCE_IP_DF);
		ip->ttl = u->hop_limit;
		ip->protocol = IPPROTO_UDP;
		memcpy(&ip->saddr, u->sgid + 12, 4);
		memcpy(&ip->daddr, u->dgid + 12, 4);
		ip->check = ip_fast_csum(ip, ip->ihl);
		p += SIM_ROCE_IP4;
	} else {
		ip6 = (void *)p;
		sim_put_be32(p, 6U << 28 | (u32)u->tclass << 20 |
			     (u->flow_label & 0xfffff));
		ip6->payload_len = htons(l4);
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = u->hop_limit;
		memcpy(&ip6->saddr, u->sgid, 16);
		memcpy(&ip6->daddr, u->dgid, 16);
		p += SIM_ROCE_IP6;
	}
	udp = (void *)p;
	udp->source = htons(u->sport);
	udp->dest = htons(SIM_ROCE_UDP_PORT);
	udp->len = htons(l4);
	udp->check = 0;
	bth = p + SIM_ROCE_UDP;
fill_bth:
	bth[0] = u->opcode;
	bth[1] = (u->se ? SIM_ROCE_BTH_SE : 0) | pad << 4;
	sim_put_be16(bth + 2, u->pkey);
	sim_put_be32(bth + 4, u->dqpn & 0xffffff);
	sim_put_be32(bth + 8, (u->psn & 0xffffff) |
		     (u->ackreq ? SIM_ROCE_BTH_ACKREQ : 0));
	p = bth + SIM_ROCE_BTH;
	memcpy(p, ext, ext_len);
	return p + ext_len - frame;
}

/**
 * sim_roce_ud_build() - the headers of a UD packet
 * @u: what it says (@u->len: the payload's bytes)
 * @frame: where it is built: room for SIM_ROCE_UD_HDR_MAX, the payload,
 *	   3 bytes of pad and the ICRC
 *
 * Return: the headers' length, where the payload goes.  Then
 * sim_roce_ud_seal().
 */
u32 sim_roce_ud_build(const struct sim_roce_ud *u, u8 *frame)
{
	u8 ext[SIM_ROCE_DETH + SIM_ROCE_IMM];
	u32 n = SIM_ROCE_DETH;

	sim_put_be32(ext, u->qkey);
	sim_put_be32(ext + 4, u->sqpn & 0xffffff);
	if (u->opcode == SIM_ROCE_UD_SEND_IMM) {
		memcpy(ext + n, &u->imm, SIM_ROCE_IMM);
		n += SIM_ROCE_IMM;
	}
	return sim_roce_build(u, ext, n, frame);
}

/**
 * sim_roce_ud_seal() - pad a built packet and put its ICRC on
 * @frame: it, its payload in place
 * @payload_end: where the payload ends
 *
 * Return: the frame's length.
 */
u32 sim_roce_ud_seal(u8 *frame, u32 payload_end)
{
	u32 l3 = ETH_HLEN, hl, pad;
	u16 type = sim_be16(frame + 12);
	bool v4, v1;

	if (type == ETH_P_8021Q) {
		l3 += SIM_ROCE_VLAN_TAG;
		type = sim_be16(frame + 16);
	}
	v4 = type == ETH_P_IP;
	v1 = type == ETH_P_IBOE;
	hl = v4 ? SIM_ROCE_IP4 : SIM_ROCE_IP6;
	pad = SIM_ROCE_BTH_PAD(frame[l3 + hl + (v1 ? 0 : SIM_ROCE_UDP) + 1]);
	memset(frame + payload_end, 0, pad);
	payload_end += pad;
	sim_put_le32(frame + payload_end,
		     sim_roce_icrc(frame + l3, payload_end - l3, v4, v1));
	return payload_end + SIM_ROCE_ICRC;
}

/*
 * Past the Ethernet header and an 802.1Q tag: the L3 header's offset
 * (0: too short), its Ethertype in @type, the tag in @u.
 */
static u32 sim_roce_l2(const u8 *f, u32 len, u16 *type, struct sim_roce_ud *u)
{
	u->tagged = false;
	if (len < ETH_HLEN)
		return 0;
	*type = sim_be16(f + 12);
	if (*type != ETH_P_8021Q)
		return ETH_HLEN;
	if (len < ETH_HLEN + SIM_ROCE_VLAN_TAG)
		return 0;
	u->tagged = true;
	u->vlan = sim_be16(f + 14);
	*type = sim_be16(f + 16);
	return ETH_HLEN + SIM_ROCE_VLAN_TAG;
}

/*
 * Where a frame's transport header is, if it is RoCE: IPv4 or IPv6
 * carrying UDP (not a fragment) to port 4791 with room for its header,
 * or Ethertype 0x8915 with a whole GRH whose next header is the BTH:
 * the IP header's (GRH's) offset in @l3, its length in @hl, the kind
 * and tag in @u.
 */
static bool sim_roce_udp_at(const u8 *f, u32 len, u32 *l3, u32 *hl,
			    struct sim_roce_ud *u)
{
	bool *v4 = &u->v4;
	u16 type;

	*l3 = sim_roce_l2(f, len, &type, u);
	u->v1 = false;
	if (!*l3)
		return false;
	if (type == ETH_P_IBOE) {
		*hl = SIM_ROCE_IP6;
		*v4 = false;
		u->v1 = true;
		return len >= *l3 + SIM_ROCE_IP6 && f[*l3] >> 4 == 6 &&
		       f[*l3 + 6] == SIM_ROCE_GRH_NEXT_BTH;
	}
	if (type == ETH_P_IP) {
		if (len < *l3 + SIM_ROCE_IP4 || f[*l3] >> 4 != 4 ||
		    f[*l3 + 9] != IPPROTO_UDP ||
		    sim_be16(f + *l3 + 6) & SIM_ROCE_IP_FRAG)
			return false;
		*hl = (f[*l3] & 0xf) * 4;
		*v4 = true;
	} else if (type == ETH_P_IPV6) {
		if (len < *l3 + SIM_ROCE_IP6 || f[*l3] >> 4 != 6 ||
		    f[*l3 + 6] != IPPROTO_UDP)
			return false;
		*hl = SIM_ROCE_IP6;
		*v4 = false;
	} else {
		return false;
	}
	return *hl >= SIM_ROCE_IP4 && len >= *l3 + *hl + SIM_ROCE_UDP &&
	       sim_be16(f + *l3 + *hl + 2) == SIM_ROCE_UDP_PORT;
}

/**
 * sim_roce_dip() - whether a frame is RoCE, and to which address
 * @f: the frame, from its Ethernet header
 * @len: its bytes
 * @dgid: its destination address, as a GID (IPv4: mapped)
 * @v1: RoCE v1, else v2
 * @vid: the VLAN ID of its 802.1Q tag; -1 for none (or VLAN 0)
 *
 * Return: true for an IP packet (not a fragment) with a UDP header to
 * port 4791, or a frame of Ethertype 0x8915 with a GRH whose next header
 * is a BTH, whatever else it has.
 */
bool sim_roce_dip(const u8 *f, u32 len, u8 *dgid, bool *v1, int *vid)
{
	struct sim_roce_ud u;
	u32 l3, hl;

	if (!sim_roce_udp_at(f, len, &l3, &hl, &u))
		return false;
	*v1 = u.v1;
	/* a priority tag (VLAN 0) is no VLAN */
	*vid = u.tagged && (u.vlan & SIM_ROCE_VLAN_VID) ?
	       u.vlan & SIM_ROCE_VLAN_VID : -1;
	if (u.v4) {
		memset(dgid, 0, 10);
		dgid[10] = 0xff;
		dgid[11] = 0xff;
		memcpy(dgid + 12, f + l3 + 16, 4);
	} else {
		memcpy(dgid, f + l3 + 24, 16);
	}
	return true;
}

/* The IP header's addresses, TC and hop limit into @u. */
static void sim_roce_ip_read(const u8 *ip, struct sim_roce_ud *u)
{
	u32 w;

	if (u->v4) {
		memset(u->sgid, 0, 10);
		u->sgid[10] = 0xff;
		u->sgid[11] = 0xff;
		memcpy(u->sgid + 12, ip + 12, 4);
		memset(u->dgid, 0, 10);
		u->dgid[10] = 0xff;
		u->dgid[11] = 0xff;
		memcpy(u->dgid + 12, ip + 16, 4);
		u->tclass = ip[1];
		u->hop_limit = ip[8];
		return;
	}
	w = sim_be32(ip);
	u->tclass = (w >> 20) & 0xff;
	u->flow_label = w & 0xfffff;
	u->hop_limit = ip[7];
	memcpy(u->sgid, ip + 8, 16);
	memcpy(u->dgid, ip + 24, 16);
}

/**
 * sim_roce_parse() - what a frame from the wire is
 * @f: the frame, from its Ethernet header
 * @len: its bytes (Ethernet padding after the IP packet allowed)
 * @u: a UD packet's fields (SIM_ROCE_OK); of another transport's
 *     (SIM_ROCE_OTHER) the addresses and BTH fields, @u->payload and
 *     @u->len what follows the BTH, its pad and ICRC left out
 *
 * Return: the verdict.  Nothing past @len is read.
 */
enum sim_roce_verdict sim_roce_parse(const u8 *f, u32 len,
				     struct sim_roce_ud *u)
{
	u32 l3, hl, ip_len, udp_len, ext, pad;
	const u8 *udp, *bth;

	memset(u, 0, sizeof(*u));
	if (!sim_roce_udp_at(f, len, &l3, &hl, u))
		return SIM_ROCE_NOT;
	if (u->v1) {
		ip_len = hl + sim_be16(f + l3 + 4);
	} else if (u->v4) {
		ip_len = sim_be16(f + l3 + 2);
		/* no options: the ICRC's pseudo header has none */
		if (hl != SIM_ROCE_IP4 || ip_fast_csum(f + l3, hl / 4))
			return SIM_ROCE_MALFORMED;
	} else {
		ip_len = hl + sim_be16(f + l3 + 4);
	}
	udp = f + l3 + hl;
	/* RoCE v1 has no UDP header: as if one of 0 bytes were there */
	udp_len = u->v1 ? ip_len - hl + SIM_ROCE_UDP : sim_be16(udp + 4);
	if (ip_len > len - l3 || ip_len < hl || udp_len != ip_len - hl +
	    (u->v1 ? SIM_ROCE_UDP : 0) ||
	    udp_len < SIM_ROCE_UDP + SIM_ROCE_BTH + SIM_ROCE_ICRC)
		return SIM_ROCE_MALFORMED;
	bth = u->v1 ? udp : udp + SIM_ROCE_UDP;
	if (SIM_ROCE_BTH_TVER(bth[1]))
		return SIM_ROCE_MALFORMED;
	if (sim_roce_icrc(f + l3, ip_len - SIM_ROCE_ICRC, u->v4, u->v1) !=
	    sim_le32(f + l3 + ip_len - SIM_ROCE_ICRC))
		return SIM_ROCE_BAD_ICRC;
	memcpy(u->dmac, f, ETH_ALEN);
	memcpy(u->smac, f + ETH_ALEN, ETH_ALEN);
	sim_roce_ip_read(f + l3, u);
	u->l3 = f + l3;
	u->sport = u->v1 ? 0 : sim_be16(udp);
	u->opcode = bth[0];
	u->se = bth[1] & SIM_ROCE_BTH_SE;
	u->pkey = sim_be16(bth + 2);
	u->dqpn = sim_be32(bth + 4) & 0xffffff;
	u->psn = sim_be32(bth + 8) & 0xffffff;
	u->ackreq = bth[8] & (SIM_ROCE_BTH_ACKREQ >> 24);
	pad = SIM_ROCE_BTH_PAD(bth[1]);
	if (u->opcode != SIM_ROCE_UD_SEND && u->opcode != SIM_ROCE_UD_SEND_IMM) {
		/* what follows the BTH is the transport's to read */
		if (udp_len < SIM_ROCE_UDP + SIM_ROCE_BTH + pad + SIM_ROCE_ICRC)
			return SIM_ROCE_MALFORMED;
		u->payload = bth + SIM_ROCE_BTH;
		u->len = udp_len - SIM_ROCE_UDP - SIM_ROCE_BTH - pad -
			 SIM_ROCE_ICRC;
		return SIM_ROCE_OTHER;
	}
	ext = SIM_ROCE_DETH +
	      (u->opcode == SIM_ROCE_UD_SEND_IMM ? SIM_ROCE_IMM : 0);
	if (udp_len < SIM_ROCE_UDP + SIM_ROCE_BTH + ext + pad + SIM_ROCE_ICRC)
		return SIM_ROCE_MALFORMED;
	u->qkey = sim_be32(bth + SIM_ROCE_BTH);
	u->sqpn = sim_be32(bth + SIM_ROCE_BTH + 4) & 0xffffff;
	if (ext > SIM_ROCE_DETH)
		memcpy(&u->imm, bth + SIM_ROCE_BTH + SIM_ROCE_DETH,
		       SIM_ROCE_IMM);
	u->payload = bth + SIM_ROCE_BTH + ext;
	u->len = udp_len - SIM_ROCE_UDP - SIM_ROCE_BTH - ext - pad -
		 SIM_ROCE_ICRC;
	return SIM_ROCE_OK;
}
