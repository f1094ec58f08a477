/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * RoCE v2 and v1 frames (dp_roce.c): a UD packet built for the wire, a
 * frame from the wire parsed, the ICRC.  Private to dp/.
 */
#ifndef MLX5X_SIM_DP_ROCE_H
#define MLX5X_SIM_DP_ROCE_H

#include <linux/types.h>

/* RoCE v2's UDP destination port (IANA) */
#define SIM_ROCE_UDP_PORT	4791
/* The base transport header, the datagram one, immediate data, ICRC */
#define SIM_ROCE_BTH		12
#define SIM_ROCE_DETH		8
#define SIM_ROCE_IMM		4
#define SIM_ROCE_ICRC		4
/* BTH opcodes of the UD transport (IBTA 9.2.1) */
#define SIM_ROCE_UD_SEND	0x64
#define SIM_ROCE_UD_SEND_IMM	0x65
/* The congestion notification packet's BTH opcode (RoCE v2 annex A17.9) */
#define SIM_ROCE_CNP		0x81
/* The BTH's acknowledge request bit, in its PSN word */
#define SIM_ROCE_BTH_ACKREQ	0x80000000U
/*
 * The most the extended headers after a BTH take (XRCETH or a DCI's
 * DCETH, AtomicETH)
 */
#define SIM_ROCE_EXT_MAX	36
/* An 802.1Q tag, its tag control's priority and VLAN ID */
#define SIM_ROCE_VLAN_TAG	4
#define SIM_ROCE_VLAN_PRIO_SHIFT	13
#define SIM_ROCE_VLAN_VID	0x0fff
/* The most any RoCE frame's headers take: Ethernet to the payload */
#define SIM_ROCE_HDR_MAX	(14 + SIM_ROCE_VLAN_TAG + 40 + 8 + \
				 SIM_ROCE_BTH + SIM_ROCE_EXT_MAX)
/* The default P_Key: full membership */
#define SIM_ROCE_PKEY_DEFAULT	0xffff
/* The most any RoCE UD frame's headers take: Ethernet to DETH, IMM */
#define SIM_ROCE_UD_HDR_MAX	(14 + SIM_ROCE_VLAN_TAG + 40 + 8 + \
				 SIM_ROCE_BTH + SIM_ROCE_DETH + SIM_ROCE_IMM)

/**
 * struct sim_roce_ud - one UD packet, as sent or as received
 * @dmac: destination MAC
 * @smac: source MAC
 * @tagged: the frame has an 802.1Q tag, @vlan
 * @vlan: its tag control: priority (15:13), VLAN ID (11:0)
 * @v1: RoCE v1 (Ethertype 0x8915, the IB GRH), else RoCE v2
 * @v4: RoCE v2 over IPv4 (the GIDs are IPv4-mapped), else IPv6
 * @dgid: destination GID
 * @sgid: source GID
 * @tclass: traffic class (IPv4: the TOS byte)
 * @hop_limit: hop limit (IPv4: TTL)
 * @flow_label: IPv6 flow label
 * @sport: UDP source port
 * @opcode: BTH opcode
 * @se: solicited event
 * @pkey: P_Key
 * @dqpn: destination QP
 * @psn: packet sequence number
 * @ackreq: the BTH's acknowledge request bit
 * @qkey: DETH Q_Key
 * @sqpn: DETH source QP
 * @imm: immediate data (SIM_ROCE_UD_SEND_IMM)
 * @l3: received: the IP header (RoCE v1: the GRH) in the frame
 * @payload: received: the payload in the frame
 * @len: payload bytes
 */
struct sim_roce_ud {
	u8 dmac[6], smac[6];
	bool tagged;
	u16 vlan;
	bool v1, v4;
	u8 dgid[16], sgid[16];
	u8 tclass, hop_limit;
	u32 flow_label;
	u16 sport;
	u8 opcode;
	bool se;
	u16 pkey;
	u32 dqpn, psn, qkey, sqpn;
	bool ackreq;
	__be32 imm;
	const u8 *l3, *payload;
	u32 len;
};

/* What a frame from the wire is (sim_roce_parse()). */
enum sim_roce_verdict {
	SIM_ROCE_NOT,		/* not RoCE: v2 IP, UDP to 4791; v1 GRH */
	SIM_ROCE_OK,		/* a well-formed UD packet */
	SIM_ROCE_OTHER,		/* well formed, of another transport */
	SIM_ROCE_MALFORMED,	/* headers short, inconsistent or invalid */
	SIM_ROCE_BAD_ICRC,
};

u16 sim_roce_sport(u32 flow_label);
u32 sim_roce_icrc(const u8 *l3, u32 len, bool v4, bool v1);
u32 sim_roce_build(const struct sim_roce_ud *u, const u8 *ext, u32 ext_len,
		   u8 *frame);
u32 sim_roce_ud_build(const struct sim_roce_ud *u, u8 *frame);
u32 sim_roce_ud_seal(u8 *frame, u32 payload_end);
bool sim_roce_dip(const u8 *f, u32 len, u8 *dgid, bool *v1, int *vid);
enum sim_roce_verdict sim_roce_parse(const u8 *f, u32 len,
				     struct sim_roce_ud *u);

#endif /* MLX5X_SIM_DP_ROCE_H */
