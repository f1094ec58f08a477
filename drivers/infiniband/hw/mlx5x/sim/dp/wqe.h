/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The work and completion queue entries the model's data path reads and
 * writes, in the PRM's layout: the bytes libmlx5 writes into a send or
 * receive ring and reads from a CQ's.  Upstream names them struct
 * mlx5_wqe_ctrl_seg, mlx5_wqe_eth_seg and mlx5_wqe_data_seg
 * (<linux/mlx5/qp.h>), struct mlx5_cqe64 and mlx5_err_cqe
 * (<linux/mlx5/device.h>), MLX5_OPCODE_*, MLX5_CQE_* and
 * MLX5_CQE_SYNDROME_*.
 *
 * The model names them itself: those headers are mlx5_core's (qp.h and
 * cq.h include <linux/mlx5/driver.h>, device.h <rdma/ib_verbs.h>), and
 * <linux/mlx5/mlx5_ifc.h>, where the model's command layouts come from,
 * has no WQE or CQE.  Only the fields the model reads or writes have
 * names; multi-byte fields are big endian.
 */
#ifndef MLX5X_SIM_WQE_H
#define MLX5X_SIM_WQE_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>

/* Send WQE opcodes: bits 7:0 of a control segment's opmod_idx_opcode. */
#define SIM_OPCODE_NOP			0x00
#define SIM_OPCODE_SEND_INVAL		0x01
#define SIM_OPCODE_RDMA_WRITE		0x08
#define SIM_OPCODE_RDMA_WRITE_IMM	0x09
#define SIM_OPCODE_SEND			0x0a
#define SIM_OPCODE_SEND_IMM		0x0b
#define SIM_OPCODE_RDMA_READ		0x10
#define SIM_OPCODE_ATOMIC_CS		0x11
#define SIM_OPCODE_ATOMIC_FA		0x12
#define SIM_OPCODE_UMR			0x25
#define SIM_OPCODE_SET_PSV		0x20

/**
 * struct sim_wqe_ctrl - the control segment that starts a send WQE
 * @opmod_idx_opcode: opcode (7:0), WQE index in basic blocks (23:8),
 *		      opcode modifier (31:24)
 * @qpn_ds: size of the WQE in 16-byte segments (5:0), SQ or QP number
 *	    (31:8)
 * @signature: of the WQE (not checked)
 * @rsvd: reserved
 * @fm_ce_se: fence mode, completion request (SIM_WQE_CTRL_CQ_UPDATE),
 *	      solicited event
 * @imm: immediate data, or the TIS/TIR number of an Ethernet WQE
 */
struct sim_wqe_ctrl {
	__be32 opmod_idx_opcode;
	__be32 qpn_ds;
	u8 signature;
	u8 dci_stream[2];	/* a DCI's stream channel, big endian */
	u8 fm_ce_se;
	__be32 imm;
};

#define SIM_WQE_CTRL_DS_MASK	0x3f
/* fm_ce_se: a CQE is written for this WQE; the receiver's is solicited */
#define SIM_WQE_CTRL_CQ_UPDATE	BIT(3)
/* fm_ce_se: the fence mode (7:5), nonzero for IBV_SEND_FENCE */
#define SIM_WQE_CTRL_FENCE_MASK	GENMASK(7, 5)
#define SIM_WQE_CTRL_SOLICITED	BIT(1)

/**
 * struct sim_wqe_xrc - the XRC segment of an XRC initiator's WQE, after
 * the control segment (libmlx5's struct mlx5_wqe_xrc_seg)
 * @xrc_srqn: the XRC SRQ of the target the message is for (24 bits)
 * @rsvd: reserved
 */
struct sim_wqe_xrc {
	__be32 xrc_srqn;
	u8 rsvd[12];
};

/**
 * struct sim_wqe_raddr - the remote address segment of an RDMA or atomic
 * WQE, after the control segment
 * @raddr: the address in the responder's memory key
 * @rkey: that key
 * @rsvd: reserved
 */
struct sim_wqe_raddr {
	__be64 raddr;
	__be32 rkey;
	__be32 rsvd;
};

/**
 * struct sim_wqe_av - the address vector of a UD send WQE (the datagram
 * segment), after the control segment
 * @qkey: the Q_Key the datagram carries (the high bit set: the sending
 *	  QP's own)
 * @rsvd0: reserved
 * @dqp_dct: the destination QP (23:0); bit 31 says the AV is the
 *	     extended one, with the fields below
 * @stat_rate_sl: static rate (7:4), the service level (RoCE: 3:1)
 * @fl_mlid: force loopback, source path bits
 * @rlid: the destination LID (RoCE v2: the UDP source port)
 * @rsvd1: reserved
 * @rmac: the destination MAC
 * @tclass: traffic class of the GRH
 * @hop_limit: its hop limit
 * @grh_gid_fl: a GRH follows (bit 30, InfiniBand only: RoCE always has
 *		one), the source GID index (27:20), the flow label (19:0)
 * @rgid: the destination GID
 */
struct sim_wqe_av {
	__be32 qkey;
	__be32 rsvd0;
	__be32 dqp_dct;
	u8 stat_rate_sl;
	u8 fl_mlid;
	__be16 rlid;
	u8 rsvd1[4];
	u8 rmac[6];
	u8 tclass;
	u8 hop_limit;
	__be32 grh_gid_fl;
	u8 rgid[16];
};

/**
 * struct sim_wqe_atomic - the atomic segment, after the remote address
 * @swap_add: the value to swap in (compare and swap) or to add
 * @compare: the value compared with (compare and swap)
 */
struct sim_wqe_atomic {
	__be64 swap_add;
	__be64 compare;
};

/**
 * struct sim_wqe_eth - the Ethernet segment of a RAW_PACKET SQ's WQE
 * @swp: software parser offsets and flags (not modelled)
 * @cs_flags: checksums to compute (SIM_WQE_ETH_L3_CSUM, _L4_CSUM)
 * @swp_flags: more of the software parser's
 * @mss: segment size of an LSO WQE
 * @flow_table_metadata: metadata for the NIC TX tables
 * @inline_hdr: the packet's first @inline_hdr.sz bytes, inline: two in
 *		@inline_hdr.start, the rest running on past the segment
 */
struct sim_wqe_eth {
	u8 swp[4];
	u8 cs_flags;
	u8 swp_flags;
	__be16 mss;
	__be32 flow_table_metadata;
	struct {
		__be16 sz;
		u8 start[2];
	} inline_hdr;
};

#define SIM_WQE_ETH_L3_CSUM	BIT(6)
#define SIM_WQE_ETH_L4_CSUM	BIT(7)

/**
 * struct sim_wqe_data - a data segment: bytes at an address of an mkey
 * @byte_count: how many; with SIM_WQE_INLINE set, the segment is an
 *		inline one instead: this many bytes follow the word
 * @lkey: the mkey
 * @addr: the address in it
 */
struct sim_wqe_data {
	__be32 byte_count;
	__be32 lkey;
	__be64 addr;
};

#define SIM_WQE_INLINE		0x80000000U

/* CQE opcodes: bits 7:4 of op_own. */
#define SIM_CQE_REQ		0x0
#define SIM_CQE_RESP_WR_IMM	0x1
#define SIM_CQE_RESP_SEND	0x2
#define SIM_CQE_RESP_SEND_IMM	0x3
#define SIM_CQE_RESP_SEND_INV	0x4
#define SIM_CQE_SIG_ERR		0xc
#define SIM_CQE_REQ_ERR		0xd
#define SIM_CQE_RESP_ERR	0xe

/* The syndrome of an error CQE. */
#define SIM_CQE_SYND_LOCAL_LENGTH	0x01
#define SIM_CQE_SYND_LOCAL_QP_OP	0x02
#define SIM_CQE_SYND_LOCAL_PROT		0x04
#define SIM_CQE_SYND_WR_FLUSH		0x05
#define SIM_CQE_SYND_MW_BIND		0x06
#define SIM_CQE_SYND_REMOTE_INVAL_REQ	0x12
#define SIM_CQE_SYND_REMOTE_ACCESS	0x13
#define SIM_CQE_SYND_REMOTE_OP		0x14
#define SIM_CQE_SYND_TRANSPORT_RETRY	0x15
#define SIM_CQE_SYND_RNR_RETRY		0x16

/* hds_ip_ext: the checksums the device verified */
#define SIM_CQE_L3_OK		BIT(1)
#define SIM_CQE_L4_OK		BIT(2)
/* l4_l3_hdr_type: the L4 header (6:4) and the L3 header (3:2) */
#define SIM_CQE_L4_TCP		1
#define SIM_CQE_L4_UDP		2
#define SIM_CQE_L3_IPV6		1
#define SIM_CQE_L3_IPV4		2
/* l4_l3_hdr_type bit 0: the packet carried a VLAN tag, in vlan_info */
#define SIM_CQE_CVLAN		BIT(0)

/* flags_rqpn: a GRH is in the first 40 bytes; the header it was */
#define SIM_CQE_GRH		(1U << 28)
#define SIM_CQE_ROCE_L3_GRH	0
#define SIM_CQE_ROCE_L3_IPV6	1
#define SIM_CQE_ROCE_L3_IPV4	2
#define SIM_CQE_ROCE_L3_SHIFT	24

/**
 * struct sim_cqe - a 64-byte CQE of a completion without error
 * @rsvd0: what the model leaves zero (LRO, RSS hash, checksum, SLID)
 * @flags_rqpn: a UD receive's: GRH present (29:28), the RoCE L3 header
 *		type (25:24, SIM_CQE_ROCE_L3_*), the source QP (23:0)
 * @hds_ip_ext: SIM_CQE_L3_OK, SIM_CQE_L4_OK
 * @l4_l3_hdr_type: header types of a received packet
 * @vlan_info: its VLAN tag, when SIM_CQE_CVLAN says it had one (a RoCE
 *	       UD receive's; a raw RQ keeps the tag in the frame)
 * @srqn: the queue's user index (CQE version 1), 23:0
 * @imm: immediate data, or the rkey a SEND with invalidate named
 * @rsvd40: reserved
 * @byte_cnt: bytes received
 * @timestamp: of the completion, the device's clock (1 GHz), big endian
 * @sop_drop_qpn: the QP or SQ number, or, for a raw RQ's receive, the
 *		  flow tag of the steering entry, 23:0; a requester's CQE
 *		  has the WQE's opcode in 31:24
 * @wqe_counter: the WQE completed
 * @signature: reserved
 * @op_own: the CQE opcode (7:4) and the owner bit (0): the pass of the
 *	    ring the entry belongs to
 */
struct sim_cqe {
	u8 rsvd0[24];
	__be32 flags_rqpn;
	u8 hds_ip_ext;
	u8 l4_l3_hdr_type;
	__be16 vlan_info;
	__be32 srqn;
	__be32 imm;
	u8 rsvd40[4];
	__be32 byte_cnt;
	u8 timestamp[8];
	__be32 sop_drop_qpn;
	__be16 wqe_counter;
	u8 signature;
	u8 op_own;
};

/**
 * struct sim_err_cqe - the same 64 bytes, of a completion with error
 * @rsvd0: reserved
 * @srqn: the queue's user index, 23:0
 * @rsvd1: reserved
 * @vendor_err_synd: the device's own detail (0 in the model)
 * @syndrome: SIM_CQE_SYND_*
 * @s_wqe_opcode_qpn: the failed WQE's opcode (31:24), the QP or SQ
 *		      number (23:0)
 * @wqe_counter: the WQE that failed
 * @signature: reserved
 * @op_own: SIM_CQE_REQ_ERR or SIM_CQE_RESP_ERR (7:4), the owner bit (0)
 */
struct sim_err_cqe {
	u8 rsvd0[32];
	__be32 srqn;
	u8 rsvd1[18];
	u8 vendor_err_synd;
	u8 syndrome;
	__be32 s_wqe_opcode_qpn;
	__be16 wqe_counter;
	u8 signature;
	u8 op_own;
};

/* The bytes are the device's: nothing may move. */
static_assert(sizeof(struct sim_wqe_ctrl) == 16);
static_assert(sizeof(struct sim_wqe_eth) == 16);
static_assert(offsetof(struct sim_wqe_eth, inline_hdr) == 12);
static_assert(sizeof(struct sim_wqe_data) == 16);
static_assert(sizeof(struct sim_wqe_xrc) == 16);
static_assert(sizeof(struct sim_wqe_raddr) == 16);
static_assert(sizeof(struct sim_wqe_atomic) == 16);
static_assert(sizeof(struct sim_wqe_av) == 48);
static_assert(sizeof(struct sim_cqe) == 64);
static_assert(offsetof(struct sim_cqe, flags_rqpn) == 24);
static_assert(offsetof(struct sim_cqe, srqn) == 32);
static_assert(offsetof(struct sim_cqe, imm) == 36);
static_assert(offsetof(struct sim_cqe, byte_cnt) == 44);
static_assert(offsetof(struct sim_cqe, sop_drop_qpn) == 56);
static_assert(sizeof(struct sim_err_cqe) == 64);
static_assert(offsetof(struct sim_err_cqe, syndrome) == 55);

#endif /* MLX5X_SIM_WQE_H */
