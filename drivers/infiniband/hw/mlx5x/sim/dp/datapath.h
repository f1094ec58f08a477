/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The raw-packet data path of the firmware model (datapath.c): send WQEs
 * of SQs executed, packets through the NIC TX and RX pipelines, receive
 * WQEs consumed and CQEs written.  Private to the model.
 */
#ifndef MLX5X_SIM_DATAPATH_H
#define MLX5X_SIM_DATAPATH_H

#include "../sim_priv.h"

struct sim_cq;
struct sim_umem;

/* Segments of a WQE are 16 bytes; a send WQE holds at most 63 of them. */
#define SIM_WQE_SEG		16
#define SIM_WQE_MAX_DS		63
#define SIM_WQE_MAX_BYTES	(SIM_WQE_MAX_DS * SIM_WQE_SEG)
#define SIM_WQE_MAX_GATHER	SIM_WQE_MAX_DS
/* What a data segment with this lkey says: the scatter list ends. */
#define SIM_INVALID_LKEY	0x100
/*
 * The reserved lkey (QUERY_SPECIAL_CONTEXTS' resd_lkey): addresses as the
 * device reaches them, no mkey.  Its index, 0, is one no mkey has; only a
 * QP the kernel created with qpc.rlky may name it.
 */
#define SIM_RESD_LKEY		0x00000080

/* The counters of a doorbell record (two big-endian 32-bit words). */
#define SIM_DBR_RCV		0
#define SIM_DBR_SND		4
/* A CQ's doorbell record: the consumer index, and the arm word. */
#define SIM_CQ_DBR_CI		0
#define SIM_CQ_DBR_ARM		4

/**
 * struct sim_gather - where one piece of a packet comes from
 * @inl: bytes inside the WQE (inline), else NULL
 * @lkey: the mkey of a data segment
 * @addr: its address
 * @len: its byte count
 */
struct sim_gather {
	const u8 *inl;
	u32 lkey;
	u64 addr;
	u32 len;
};

/**
 * struct sim_send_wqe - a send WQE as the device reads it
 * @opcode: of the control segment (SIM_OPCODE_*)
 * @index: the WQE index (in basic blocks) the control segment carries
 * @ds: its size in 16-byte segments
 * @signalled: fm_ce_se asks for a CQE
 * @cs_flags: the Ethernet segment's checksum offload flags
 * @hdr: the inline L2 header of the Ethernet segment
 * @hdr_len: its length (inline_hdr_sz)
 * @n: pieces in @g
 * @g: the rest of the packet, in order
 */
struct sim_send_wqe {
	u8 opcode;
	u16 index;
	u8 ds;
	bool signalled;
	u8 cs_flags;
	const u8 *hdr;
	u16 hdr_len;
	u32 n;
	struct sim_gather g[SIM_WQE_MAX_GATHER];
};

int sim_send_wqe_parse(const u8 *wqe, size_t len, struct sim_send_wqe *w);

/**
 * struct sim_rc_wqe - a send WQE of an RC QP as the device reads it
 * @opcode: of the control segment (SIM_OPCODE_*)
 * @index: the WQE index (in basic blocks) the control segment carries
 * @ds: its size in 16-byte segments
 * @signalled: fm_ce_se asks for a CQE
 * @solicited: the receiver's completion is solicited
 * @atomic: a compare and swap or fetch and add
 * @imm: the immediate data, as the WQE carries it (big endian)
 * @raddr: the remote address (RDMA, atomics)
 * @rkey: its key
 * @swap_add: the atomic's operand (swap or add)
 * @compare: what compare and swap compares with
 * @xrc_srqn: an XRC initiator's: the XRC SRQ the message is for
 * @dctn: a DCI's: the DCT the message is for
 * @dc_key: and the DC access key it carries
 * @stream: and the stream channel it is on (DCI streams)
 * @len: the message's length: the data segments' bytes
 * @n: pieces in @g
 * @g: the local data segments (sent, or where a read's data lands)
 */
struct sim_rc_wqe {
	u8 opcode;
	u16 index;
	u8 ds;
	bool signalled;
	bool solicited;
	bool atomic;
	__be32 imm;
	u64 raddr;
	u32 rkey;
	u64 swap_add;
	u64 compare;
	u32 xrc_srqn;
	u32 dctn;
	u64 dc_key;
	u16 stream;
	u64 len;
	u32 n;
	struct sim_gather g[SIM_WQE_MAX_GATHER];
};

int sim_rc_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w);
int sim_xrc_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w);
int sim_dci_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w);

/**
 * struct sim_ud_av - the address vector of a UD send WQE, as read
 * @qkey: the Q_Key of the work request
 * @dqpn: the destination QP
 * @sgid_index: the source GID's index in the port's table
 * @tclass: the GRH's traffic class
 * @hop_limit: its hop limit
 * @flow_label: its flow label
 * @dgid: the destination GID
 * @rmac: the destination MAC (RoCE)
 * @udp_sport: the UDP source port (RoCE v2; libmlx5 picks one per AH,
 *	       0: the device picks it from the flow label)
 * @prio: the service level (RoCE: 3 bits), the 802.1Q priority of a
 *	  packet from a VLAN address
 */
struct sim_ud_av {
	u32 qkey;
	u32 dqpn;
	u8 sgid_index;
	u8 tclass;
	u8 hop_limit;
	u32 flow_label;
	u8 dgid[16];
	u8 rmac[6];
	u16 udp_sport;
	u8 prio;
};

int sim_ud_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w,
		     struct sim_ud_av *av);
bool sim_dci_wqe_av(const u8 *wqe, size_t len, struct sim_ud_av *av);

/**
 * struct sim_sig_err - what a signature error CQE says (dp_sig.c),
 * struct mlx5_sig_err_cqe
 * @mkey: the signature mkey's key
 * @syndrome: SIM_SIG_ERR_* (dp/sig.h): which field was bad
 * @domain: SIM_SIG_DOMAIN_*: where
 * @exp_sig: the guard (31:16) and application tag (15:0) the block's
 *	     signature field holds, or its CRC
 * @act_sig: those computed from the block's data and the BSF
 * @exp_ref: the reference tag the field holds
 * @act_ref: the one the BSF gives the block
 * @offset: the bad block's first byte, in the mkey's wire domain
 */
struct sim_sig_err {
	u32 mkey;
	u16 syndrome;
	u8 domain;
	u32 exp_sig, act_sig, exp_ref, act_ref;
	u64 offset;
};

/**
 * struct sim_cqe_info - what a CQE says
 * @opcode: SIM_CQE_* (of op_own)
 * @syndrome: of an error CQE (SIM_CQE_SYND_*)
 * @wqe_opcode: a requester's: the opcode of the WQE it completes
 * @qpn: the queue number reported (sop_drop_qpn, 24 bits)
 * @user_index: the queue's user index (srqn, for CQE version 1)
 * @wqe_counter: the WQE it completes
 * @byte_cnt: bytes received
 * @imm: immediate data or invalidated rkey, as the WQE carried it
 * @solicited: the sender asked for a solicited event
 * @tagged: a raw RQ's receive: @flow_tag, not the QP, in sop_drop_qpn
 * @flow_tag: the flow tag of the steering entry
 * @hds_ip_ext: SIM_CQE_L3_OK / SIM_CQE_L4_OK
 * @l4_l3_hdr_type: header types seen
 * @flags_rqpn: a UD receive's GRH bits, RoCE header type and source QP
 * @vlan_info: a UD receive's VLAN tag (PCP 15:13, VID 11:0), with
 *	       SIM_CQE_CVLAN in @l4_l3_hdr_type
 * @sig: a signature error CQE's (SIM_CQE_SIG_ERR) fields
 */
struct sim_cqe_info {
	u8 opcode;
	u8 syndrome;
	u8 wqe_opcode;
	u32 qpn;
	u32 user_index;
	u16 wqe_counter;
	u32 byte_cnt;
	__be32 imm;
	bool solicited;
	bool tagged;
	u32 flow_tag;
	u8 hds_ip_ext;
	u8 l4_l3_hdr_type;
	u32 flags_rqpn;
	u16 vlan_info;
	const struct sim_sig_err *sig;
};

void sim_cqe_fill(u8 *cqe, const struct sim_cqe_info *info, bool owner);
void sim_cqe_stamp(u8 *cqe, u64 ts);
bool sim_cq_write(struct sim_cq *cq, struct sim_umem *buf,
		  const struct sim_cqe_info *info, u64 ts);
void sim_cqe_rx_offloads(const u8 *pkt, u32 len, struct sim_cqe_info *info);

/* umem_io.c */
bool sim_umem_touch(struct sim_umem *umem, u64 off, size_t len);
bool sim_umem_io(struct sim_umem *umem, u64 off, void *buf, size_t len,
		 bool write);
bool sim_umem_rd32(struct sim_umem *umem, u64 off, u32 *val);
void *sim_umem_va(const struct sim_umem *umem, u64 off, size_t len,
		  bool write);
bool sim_umem_rec_rd32(struct sim_umem *umem, const __be32 *va, u64 rec,
		       u32 off, u32 *val);

/* dp_cq.c */
struct sim_cq;
void sim_dp_cq_bind(struct mlx5x_sim *sim, struct sim_cq *cq);

/* dp_qp.c */
struct sim_qp;
void sim_dp_qp_bind(struct mlx5x_sim *sim, struct sim_qp *qp);

/* datapath.c */
int sim_dp_init(struct mlx5x_sim *sim);
void sim_dp_fini(struct mlx5x_sim *sim);
void sim_dp_kick(struct mlx5x_sim *sim);
void sim_dp_debugfs_init(struct mlx5x_sim *sim);

#endif /* MLX5X_SIM_DATAPATH_H */
