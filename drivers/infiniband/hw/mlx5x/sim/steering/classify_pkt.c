// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The classifier's view of a packet: its headers parsed into an
 * fte_match_param (outer L2-L4, VXLAN, GRE and a RoCE v2 packet's BTH
 * (opcode, destination QP) in the misc parameters, the inner L2-L4 past a
 * tunnel, metadata registers in misc parameters 2),
 * and the header rewrites of modify header and packet reformat contexts.
 */
#include <linux/in.h>
#include <linux/string.h>
#include "classify.h"

#define ETH_P_IPV4	0x0800
#define ETH_P_IPV6	0x86dd
#define ETH_P_CVLAN	0x8100
#define ETH_P_SVLAN	0x88a8
#define ETH_P_TEB	0x6558	/* Ethernet over GRE */
#define VXLAN_PORT	4789
#define ROCE_V2_PORT	4791
#define UDP_HLEN	8
#define BTH_LEN		12
#define GRE_C		0x8000
#define GRE_K		0x2000
#define GRE_S		0x1000

static u16 rd16(const u8 *b)
{
	return (u16)b[0] << 8 | b[1];
}

static u32 rd32(const u8 *b)
{
	return (u32)rd16(b) << 16 | rd16(b + 2);
}

/* Where the headers of one level (outer or inner) ended up. */
struct sim_hdrs {
	u16 l3;
	u16 l4;
	u8 proto;
	bool frag;
};

#define L24(h, fld, v)	PRM_SET(fte_match_set_lyr_2_4, h, fld, v)

static void sim_parse_l4(const struct sim_pkt *p, void *h,
			 struct sim_hdrs *o)
{
	const u8 *d = p->data + o->l4;
	u16 room = p->len - o->l4;

	if (o->proto == IPPROTO_TCP && room >= 20) {
		L24(h, tcp_sport, rd16(d));
		L24(h, tcp_dport, rd16(d + 2));
		L24(h, tcp_flags, rd16(d + 12) & 0x1ff);
	} else if (o->proto == IPPROTO_UDP && room >= 8) {
		L24(h, udp_sport, rd16(d));
		L24(h, udp_dport, rd16(d + 2));
	} else if (o->proto != IPPROTO_GRE) {
		o->l4 = 0;	/* GRE keeps it: its header is parsed next */
	}
}

/* An IPv4 or IPv6 header at @off of type @etype; fills @h and @o. */
static void sim_parse_l3(const struct sim_pkt *p, u16 off, u16 etype,
			 void *h, struct sim_hdrs *o)
{
	const u8 *d = p->data + off;
	u16 room = p->len - off;
	u8 *sip = PRM_ADDR(fte_match_set_lyr_2_4, h, src_ipv4_src_ipv6);
	u8 *dip = PRM_ADDR(fte_match_set_lyr_2_4, h, dst_ipv4_dst_ipv6);
	unsigned int ihl;

	if (etype == ETH_P_IPV4 && room >= 20 && d[0] >> 4 == 4) {
		ihl = d[0] & 0xf;
		if (ihl < 5 || ihl * 4 > room)
			return;
		L24(h, ip_version, 4);
		L24(h, ipv4_ihl, ihl);
		L24(h, ip_dscp, d[1] >> 2);
		L24(h, ip_ecn, d[1] & 3);
		L24(h, ttl_hoplimit, d[8]);
		L24(h, ip_protocol, d[9]);
		o->frag = rd16(d + 6) & 0x3fff;	/* MF or an offset */
		L24(h, frag, o->frag);
		memcpy(sip + 12, d + 12, 4);
		memcpy(dip + 12, d + 16, 4);
		o->l3 = off;
		o->proto = d[9];
		o->l4 = off + ihl * 4;
	} else if (etype == ETH_P_IPV6 && room >= 40 && d[0] >> 4 == 6) {
		L24(h, ip_version, 6);
		L24(h, ip_dscp, (rd16(d) >> 6) & 0x3f);
		L24(h, ip_ecn, (rd16(d) >> 4) & 3);
		L24(h, ttl_hoplimit, d[7]);
		L24(h, ip_protocol, d[6]);
		memcpy(sip, d + 8, 16);
		memcpy(dip, d + 24, 16);
		o->l3 = off;
		o->proto = d[6];
		o->l4 = off + 40;
	} else {
		return;
	}
	if (!o->frag && o->l4 < p->len)
		sim_parse_l4(p, h, o);
	else
		o->l4 = 0;
}

/* An Ethernet header at @off, with at most one VLAN tag. */
static void sim_parse_l2(const struct sim_pkt *p, u16 off, void *h,
			 struct sim_hdrs *o)
{
	const u8 *d = p->data + off;
	u16 room = p->len - off, etype, tci;

	if (room < 14)
		return;
	L24(h, dmac_47_16, rd32(d));
	L24(h, dmac_15_0, rd16(d + 4));
	L24(h, smac_47_16, rd32(d + 6));
	L24(h, smac_15_0, rd16(d + 10));
	etype = rd16(d + 12);
	off += 14;
	if ((etype == ETH_P_CVLAN || etype == ETH_P_SVLAN) && room >= 18) {
		tci = rd16(d + 14);
		if (etype == ETH_P_CVLAN)
			L24(h, cvlan_tag, 1);
		else
			L24(h, svlan_tag, 1);
		L24(h, first_prio, tci >> 13);
		L24(h, first_cfi, (tci >> 12) & 1);
		L24(h, first_vid, tci & 0xfff);
		etype = rd16(d + 16);
		off += 4;
	}
	L24(h, ethertype, etype);
	sim_parse_l3(p, off, etype, h, o);
}

/* VXLAN or GRE past the outer headers: misc parameters and inner headers. */
static void sim_parse_tunnel(struct sim_pkt *p, const struct sim_hdrs *o)
{
	void *misc = PRM_ADDR(fte_match_param, p->match, misc_parameters);
	void *in = PRM_ADDR(fte_match_param, p->match, inner_headers);
	struct sim_hdrs ih = {};
	const u8 *d;
	u16 flags, proto, hlen;

	if (o->proto == IPPROTO_UDP && o->l4 &&
	    rd16(p->data + o->l4 + 2) == VXLAN_PORT &&
	    p->len >= o->l4 + 16) {
		d = p->data + o->l4 + 8;
		PRM_SET(fte_match_set_misc, misc, vxlan_vni, rd32(d + 4) >> 8);
		p->tun_end = o->l4 + 16;
		sim_parse_l2(p, p->tun_end, in, &ih);
	} else if (o->proto == IPPROTO_GRE && o->l4 && p->len >= o->l4 + 4) {
		d = p->data + o->l4;
		flags = rd16(d);
		proto = rd16(d + 2);
		hlen = 4 + (flags & GRE_C ? 4 : 0) + (flags & GRE_K ? 4 : 0) +
		       (flags & GRE_S ? 4 : 0);
		if (p->len < o->l4 + hlen)
			return;
		PRM_SET(fte_match_set_misc, misc, gre_c_present,
			!!(flags & GRE_C));
		PRM_SET(fte_match_set_misc, misc, gre_k_present,
			!!(flags & GRE_K));
		PRM_SET(fte_match_set_misc, misc, gre_s_present,
			!!(flags & GRE_S));
		PRM_SET(fte_match_set_misc, misc, gre_protocol, proto);
		if (flags & GRE_K)
			PRM_SET(fte_match_set_misc, misc, gre_key.key,
				rd32(d + (flags & GRE_C ? 8 : 4)));
		p->tun_end = o->l4 + hlen;
		if (proto == ETH_P_TEB) {
			sim_parse_l2(p, p->tun_end, in, &ih);
		} else {
			L24(in, ethertype, proto);
			sim_parse_l3(p, p->tun_end, proto, in, &ih);
		}
	}
}

/* A RoCE v2 packet's BTH, past the outer UDP header: its opcode and QP. */
static void sim_parse_bth(struct sim_pkt *p, const struct sim_hdrs *o)
{
	void *misc = PRM_ADDR(fte_match_param, p->match, misc_parameters);
	const u8 *d;

	if (o->proto != IPPROTO_UDP || !o->l4 ||
	    rd16(p->data + o->l4 + 2) != ROCE_V2_PORT ||
	    p->len < o->l4 + UDP_HLEN + BTH_LEN)
		return;
	d = p->data + o->l4 + UDP_HLEN;
	PRM_SET(fte_match_set_misc, misc, bth_opcode, d[0]);
	PRM_SET(fte_match_set_misc, misc, bth_dst_qp, rd32(d + 4) & 0xffffff);
}

/**
 * sim_pkt_parse() - what the pipeline matches on, from the packet's bytes
 * @p: the packet; @p->match and the offsets are rewritten
 *
 * Headers the packet is too short for are left zero, as are the fields of
 * a protocol it does not carry.
 */
void sim_pkt_parse(struct sim_pkt *p)
{
	void *out = PRM_ADDR(fte_match_param, p->match, outer_headers);
	void *misc2 = PRM_ADDR(fte_match_param, p->match, misc_parameters_2);
	struct sim_hdrs o = {};

	memset(p->match, 0, sizeof(p->match));
	p->tun_end = 0;
	sim_parse_l2(p, 0, out, &o);
	p->l3 = o.l3;
	p->l4 = o.l4;
	p->l4_proto = o.proto;
	if (o.l3 && p->data[o.l3] >> 4 == 6)
		PRM_SET(fte_match_set_misc,
			PRM_ADDR(fte_match_param, p->match, misc_parameters),
			outer_ipv6_flow_label, rd32(p->data + o.l3) & 0xfffff);
	sim_parse_tunnel(p, &o);
	sim_parse_bth(p, &o);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_a, p->regs[0]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_0, p->regs[2]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_1, p->regs[3]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_2, p->regs[4]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_3, p->regs[5]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_4, p->regs[6]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_5, p->regs[7]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_6, p->regs[8]);
	PRM_SET(fte_match_set_misc2, misc2, metadata_reg_c_7, p->regs[9]);
}

/* Where a modify header field lives. */
enum sim_fld_base {
	SIM_FB_L2,		/* the Ethernet header */
	SIM_FB_VLAN,		/* the first VLAN tag's TCI */
	SIM_FB_ETYPE,		/* the ethertype after the tags */
	SIM_FB_IP4,
	SIM_FB_IP6,
	SIM_FB_IP,		/* either: the DSCP */
	SIM_FB_TCP,
	SIM_FB_UDP,
	SIM_FB_REG,		/* a metadata register: @off is its index */
};

/**
 * struct sim_fld - one header field a modify header action names
 * @name: for the trace
 * @base: the header it is in
 * @off: byte offset in that header
 * @bytes: big-endian bytes read (1, 2 or 4)
 * @shift: of the field inside them
 * @width: in bits
 */
struct sim_fld {
	const char *name;
	u8 base;
	u8 off;
	u8 bytes;
	u8 shift;
	u8 width;
};

#define FLD(f, nm, b, o, n, s, w) \
	[MLX5_ACTION_IN_FIELD_##f] = { nm, SIM_FB_##b, o, n, s, w }

static const struct sim_fld sim_flds[] = {
	FLD(OUT_SMAC_47_16, "smac_47_16", L2, 6, 4, 0, 32),
	FLD(OUT_SMAC_15_0, "smac_15_0", L2, 10, 2, 0, 16),
	FLD(OUT_ETHERTYPE, "ethertype", ETYPE, 0, 2, 0, 16),
	FLD(OUT_DMAC_47_16, "dmac_47_16", L2, 0, 4, 0, 32),
	FLD(OUT_DMAC_15_0, "dmac_15_0", L2, 4, 2, 0, 16),
	FLD(OUT_IP_DSCP, "ip_dscp", IP, 0, 0, 0, 6),
	FLD(OUT_TCP_FLAGS, "tcp_flags", TCP, 12, 2, 0, 9),
	FLD(OUT_TCP_SPORT, "tcp_sport", TCP, 0, 2, 0, 16),
	FLD(OUT_TCP_DPORT, "tcp_dport", TCP, 2, 2, 0, 16),
	FLD(OUT_IP_TTL, "ip_ttl", IP4, 8, 1, 0, 8),
	FLD(OUT_UDP_SPORT, "udp_sport", UDP, 0, 2, 0, 16),
	FLD(OUT_UDP_DPORT, "udp_dport", UDP, 2, 2, 0, 16),
	FLD(OUT_SIPV6_127_96, "sipv6_127_96", IP6, 8, 4, 0, 32),
	FLD(OUT_SIPV6_95_64, "sipv6_95_64", IP6, 12, 4, 0, 32),
	FLD(OUT_SIPV6_63_32, "sipv6_63_32", IP6, 16, 4, 0, 32),
	FLD(OUT_SIPV6_31_0, "sipv6_31_0", IP6, 20, 4, 0, 32),
	FLD(OUT_DIPV6_127_96, "dipv6_127_96", IP6, 24, 4, 0, 32),
	FLD(OUT_DIPV6_95_64, "dipv6_95_64", IP6, 28, 4, 0, 32),
	FLD(OUT_DIPV6_63_32, "dipv6_63_32", IP6, 32, 4, 0, 32),
	FLD(OUT_DIPV6_31_0, "dipv6_31_0", IP6, 36, 4, 0, 32),
	FLD(OUT_SIPV4, "sipv4", IP4, 12, 4, 0, 32),
	FLD(OUT_DIPV4, "dipv4", IP4, 16, 4, 0, 32),
	FLD(OUT_FIRST_VID, "first_vid", VLAN, 0, 2, 0, 12),
	FLD(OUT_IPV6_HOPLIMIT, "ipv6_hoplimit", IP6, 7, 1, 0, 8),
	FLD(METADATA_REG_A, "reg_a", REG, 0, 0, 0, 32),
	FLD(METADATA_REG_B, "reg_b", REG, 1, 0, 0, 32),
	FLD(METADATA_REG_C_0, "reg_c_0", REG, 2, 0, 0, 32),
	FLD(METADATA_REG_C_1, "reg_c_1", REG, 3, 0, 0, 32),
	FLD(METADATA_REG_C_2, "reg_c_2", REG, 4, 0, 0, 32),
	FLD(METADATA_REG_C_3, "reg_c_3", REG, 5, 0, 0, 32),
	FLD(METADATA_REG_C_4, "reg_c_4", REG, 6, 0, 0, 32),
	FLD(METADATA_REG_C_5, "reg_c_5", REG, 7, 0, 0, 32),
	FLD(METADATA_REG_C_6, "reg_c_6", REG, 8, 0, 0, 32),
	FLD(METADATA_REG_C_7, "reg_c_7", REG, 9, 0, 0, 32),
	FLD(OUT_TCP_SEQ_NUM, "tcp_seq", TCP, 4, 4, 0, 32),
	FLD(OUT_TCP_ACK_NUM, "tcp_ack", TCP, 8, 4, 0, 32),
};

static const struct sim_fld *sim_fld(u32 field)
{
	if (field >= ARRAY_SIZE(sim_flds) || !sim_flds[field].name)
		return NULL;
	return &sim_flds[field];
}

/**
 * sim_pkt_field_name() - a modify header field's name, for the trace
 * @field: MLX5_ACTION_IN_FIELD_*
 *
 * Return: its name, or "unknown".
 */
const char *sim_pkt_field_name(u32 field)
{
	const struct sim_fld *f = sim_fld(field);

	return f ? f->name : "unknown";
}

/* The vlan-aware offset of the ethertype. */
static u16 sim_etype_off(const struct sim_pkt *p)
{
	u16 e = rd16(p->data + 12);

	return (e == ETH_P_CVLAN || e == ETH_P_SVLAN) && p->len >= 18 ?
	       16 : 12;
}

/*
 * Where @f is in @p: a byte offset, the bytes to read and the shift;
 * false when the packet does not carry the header.
 */
static bool sim_fld_locate(const struct sim_pkt *p, const struct sim_fld *f,
			   unsigned int *off, unsigned int *bytes,
			   unsigned int *shift)
{
	unsigned int base;
	u8 ipv = p->l3 ? p->data[p->l3] >> 4 : 0;

	*bytes = f->bytes;
	*shift = f->shift;
	switch (f->base) {
	case SIM_FB_L2:
		base = 0;
		break;
	case SIM_FB_VLAN:
		if (sim_etype_off(p) != 16)
			return false;
		base = 14;
		break;
	case SIM_FB_ETYPE:
		base = sim_etype_off(p);
		break;
	case SIM_FB_IP4:
	case SIM_FB_IP6:
		if (ipv != (f->base == SIM_FB_IP4 ? 4 : 6))
			return false;
		base = p->l3;
		break;
	case SIM_FB_IP:
		if (ipv != 4 && ipv != 6)
			return false;
		/* DSCP: the top six bits of TOS, or of the traffic class */
		*off = p->l3 + (ipv == 4 ? 1 : 0);
		*bytes = ipv == 4 ? 1 : 2;
		*shift = ipv == 4 ? 2 : 6;
		return true;
	case SIM_FB_TCP:
	case SIM_FB_UDP:
		if (!p->l4 || p->l4_proto !=
		    (f->base == SIM_FB_TCP ? IPPROTO_TCP : IPPROTO_UDP))
			return false;
		base = p->l4;
		break;
	default:
		return false;
	}
	*off = base + f->off;
	return *off + *bytes <= p->len;
}

static u32 sim_wmask(unsigned int width)
{
	return width >= 32 ? ~0U : BIT(width) - 1;
}

/**
 * sim_pkt_field_get() - a header field's value in a packet
 * @p: the packet
 * @field: MLX5_ACTION_IN_FIELD_*
 * @val: its value
 * @width: its width in bits
 *
 * Return: false when the field is unknown or the packet lacks its header.
 */
bool sim_pkt_field_get(const struct sim_pkt *p, u32 field, u32 *val,
		       unsigned int *width)
{
	const struct sim_fld *f = sim_fld(field);
	unsigned int off, bytes, shift, i;
	u32 v = 0;

	if (!f)
		return false;
	*width = f->width;
	if (f->base == SIM_FB_REG) {
		*val = p->regs[f->off];
		return true;
	}
	if (!sim_fld_locate(p, f, &off, &bytes, &shift))
		return false;
	for (i = 0; i < bytes; i++)
		v = v << 8 | p->data[off + i];
	*val = (v >> shift) & sim_wmask(f->width);
	return true;
}

/**
 * sim_pkt_field_set() - rewrite a header field of a packet
 * @p: the packet; parse it again once done rewriting
 * @field: MLX5_ACTION_IN_FIELD_*
 * @val: the new value, within the field's width
 *
 * Return: false when the field is unknown or the packet lacks its header.
 */
bool sim_pkt_field_set(struct sim_pkt *p, u32 field, u32 val)
{
	const struct sim_fld *f = sim_fld(field);
	unsigned int off, bytes, shift, i;
	u32 v = 0, m;

	if (!f)
		return false;
	if (f->base == SIM_FB_REG) {
		p->regs[f->off] = val;
		return true;
	}
	if (!sim_fld_locate(p, f, &off, &bytes, &shift))
		return false;
	for (i = 0; i < bytes; i++)
		v = v << 8 | p->data[off + i];
	m = sim_wmask(f->width) << shift;
	v = (v & ~m) | ((val << shift) & m);
	for (i = bytes; i-- > 0; v >>= 8)
		p->data[off + i] = v & 0xff;
	return true;
}

/* The 16-bit one's complement sum of @n bytes (an odd last byte padded). */
static u32 sim_sum16(const u8 *b, unsigned int n)
{
	unsigned int i;
	u32 s = 0;

	for (i = 0; i + 1 < n; i += 2)
		s += rd16(b + i);
	if (n & 1)
		s += (u32)b[n - 1] << 8;
	return s;
}

static u16 sim_fold16(u32 s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

/*
 * The sums over @old and @new of the byte ranges @r (pairs of offset and
 * length, @n of them) move a checksum at @at of @new: RFC 1624's
 * HC' = ~(~HC + ~m + m'), so a checksum that was wrong stays wrong by as
 * much.  A UDP checksum of 0 (none, over IPv4) is left alone; one that
 * comes out 0 is sent as 0xffff.
 */
static void sim_csum_move(const u8 *old, u8 *new, const u16 (*r)[2],
			  unsigned int n, unsigned int at, bool udp)
{
	u32 m = 0, m2 = 0, s;
	u16 hc = rd16(new + at);
	bool same = true;
	unsigned int i;

	for (i = 0; i < n; i++) {
		m += sim_sum16(old + r[i][0], r[i][1]);
		m2 += sim_sum16(new + r[i][0], r[i][1]);
		same &= !memcmp(old + r[i][0], new + r[i][0], r[i][1]);
	}
	if (same || (udp && !hc))
		return;
	s = (u16)~hc + (u16)~sim_fold16(m) + sim_fold16(m2);
	hc = ~sim_fold16(s);
	if (udp && !hc)
		hc = 0xffff;
	new[at] = hc >> 8;
	new[at + 1] = hc & 0xff;
}

/**
 * sim_pkt_csum_update() - carry header rewrites into the checksums
 * @p: the packet after a modify header's actions, parsed again
 * @old: its first @span bytes before them
 * @span: how many (SIM_PKT_CSUM_SPAN, or the packet's length if less)
 *
 * A ConnectX recomputes the checksums of the headers a modify header
 * rewrote (upstream's TC offload leans on it: its csum action is only
 * offloaded with a pedit): the outer IPv4 header's, and the TCP or UDP
 * checksum over the pseudo header.  Nothing is done for a packet whose
 * headers moved or lie past @span, nor for a fragment (no L4 header).
 */
void sim_pkt_csum_update(struct sim_pkt *p, const u8 *old, unsigned int span)
{
	unsigned int ihl, at, hlen, n = 0;
	u8 *d = p->data;
	u16 r[3][2];

	span = min_t(unsigned int, span, p->len);
	if (!p->l3)
		return;
	if (d[p->l3] >> 4 == 4) {
		ihl = (d[p->l3] & 0xf) * 4;
		if (ihl < 20 || p->l3 + ihl > span)
			return;
		r[0][0] = p->l3;
		r[0][1] = 10;
		r[1][0] = p->l3 + 12;
		r[1][1] = ihl - 12;
		sim_csum_move(old, d, r, 2, p->l3 + 10, false);
		r[n][0] = p->l3 + 12;	/* the pseudo header's addresses */
		r[n++][1] = 8;
	} else if (p->l3 + 40 <= span) {
		r[n][0] = p->l3 + 8;
		r[n++][1] = 32;
	} else {
		return;
	}
	if (!p->l4)
		return;
	if (p->l4_proto == IPPROTO_TCP) {
		hlen = 20;
		at = p->l4 + 16;
		r[n][0] = p->l4;
		r[n++][1] = 16;
		r[n][0] = p->l4 + 18;
		r[n++][1] = 2;
	} else if (p->l4_proto == IPPROTO_UDP) {
		hlen = 8;
		at = p->l4 + 6;
		r[n][0] = p->l4;
		r[n++][1] = 6;
	} else {
		return;
	}
	if (p->l4 + hlen <= span)
		sim_csum_move(old, d, r, n, at, p->l4_proto == IPPROTO_UDP);
}

/* Replace bytes [0, @cut) of @p by @hdr. */
static bool sim_pkt_replace_head(struct sim_pkt *p, unsigned int cut,
				 const u8 *hdr, unsigned int hlen)
{
	unsigned int rest = p->len - cut;

	if (cut > p->len || hlen + rest > SIM_PKT_ROOM)
		return false;
	memmove(p->data + hlen, p->data + cut, rest);
	memcpy(p->data, hdr, hlen);
	p->len = hlen + rest;
	return true;
}

/**
 * sim_pkt_reformat() - apply a packet reformat context
 * @p: the packet; parsed again when changed
 * @r: the context
 *
 * Encapsulations push the context's header in front of the packet (L2 to
 * L3 tunnel first strips the L2 header); L3 tunnel to L2 strips every
 * header up to the end of the VXLAN or GRE header and pushes the
 * context's L2 header.
 *
 * Return: false when it does not apply (no tunnel to strip, no room).
 */
bool sim_pkt_reformat(struct sim_pkt *p, const struct sim_pkt_reformat *r)
{
	unsigned int cut;
	bool ok;

	switch (r->type) {
	case MLX5_REFORMAT_TYPE_L2_TO_VXLAN:
	case MLX5_REFORMAT_TYPE_L2_TO_NVGRE:
	case MLX5_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
		cut = 0;
		break;
	case MLX5_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
		if (p->len < 14)
			return false;
		cut = sim_etype_off(p) + 2;
		break;
	case MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
		if (!p->tun_end)
			return false;
		cut = p->tun_end;
		break;
	default:
		return false;
	}
	ok = sim_pkt_replace_head(p, cut, r->data, r->size);
	if (ok)
		sim_pkt_parse(p);
	return ok;
}
