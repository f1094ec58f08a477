/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Queues and transport objects of the firmware model: CQs, RQs, SQs, TISs,
 * TIRs, RQTs and QPs.  Private to the files of queues/, the object table
 * (core/objs.c) and the data path (dp/).
 */
#ifndef MLX5X_SIM_QUEUES_H
#define MLX5X_SIM_QUEUES_H

#include "../sim_priv.h"

/*
 * Fields that name a buffer by umem.  The PRM has them; 6.1's mlx5_ifc.h
 * still calls the bits reserved, so their bit offsets are given here
 * (newer mlx5_ifc.h and rdma-core's mlx5_ifc.h name them).
 */
#define SIM_CQC_DBR_UMEM_ID		0x020	/* cqc, 32 bits */
#define SIM_CREATE_CQ_UMEM_OFFSET	0x280	/* create_cq_in, 64 bits */
#define SIM_CREATE_CQ_UMEM_ID		0x2c0	/* create_cq_in, 32 bits */
#define SIM_WQ_DBR_UMEM_ID		0x140	/* wq, 32 bits */
#define SIM_WQ_UMEM_ID			0x160	/* wq, 32 bits */
#define SIM_WQ_UMEM_OFFSET		0x180	/* wq, 64 bits */
#define SIM_QPC_DBR_UMEM_ID		0x720	/* qpc, 32 bits */
#define SIM_CREATE_QP_UMEM_OFFSET	0x800	/* create_qp_in, 64 bits */
#define SIM_CREATE_QP_UMEM_ID		0x840	/* create_qp_in, 32 bits */

/* The TIR bitmask bits 6.1's mlx5_ifc.h leaves unnamed (PRM order). */
#define SIM_TIR_MASK_PACKET_MERGE	BIT(0)
#define SIM_TIR_MASK_INDIRECT_TABLE	BIT(1)
#define SIM_TIR_MASK_HASH		BIT(2)
#define SIM_TIR_MASK_TUNNELED		BIT(3)
#define SIM_TIR_MASK_SELF_LB		BIT(4)

/*
 * Values of fields mlx5_ifc.h lays out but has no names for (upstream's
 * are in <linux/mlx5/cq.h> and <linux/mlx5/qp.h>, mlx5_core's):
 * MODIFY_CQ's modify_field_select (op_mod MODIFY_CQ) and
 * resize_field_select (op_mod RESIZE_CQ), and a QP context's rq_type.
 */
#define SIM_CQ_MODIFY_PERIOD		BIT(0)
#define SIM_CQ_MODIFY_COUNT		BIT(1)
#define SIM_CQ_MODIFY_OVERRUN		BIT(2)
#define SIM_CQ_RESIZE_LOG_SIZE		BIT(0)
#define SIM_QPC_RQ_REGULAR		0x0
#define SIM_QPC_RQ_SRQ			0x1
#define SIM_QPC_RQ_ZERO_LEN		0x3

/* Sizes of what the queues' buffers hold. */
/* cqc.cqe_sz: 64 bytes, 128, or 128 padded (the CQE in its second half) */
#define SIM_CQE_SZ_128_PAD		2
#define SIM_CQE_BYTES(cqe_sz)		((cqe_sz) ? 128U : 64U)
#define SIM_SEND_WQE_BB			64
#define SIM_DBR_BYTES			8

static inline u64 sim_get64_at(const void *p, size_t off)
{
	return (u64)prm_get_bits(p, off, 32) << 32 |
	       prm_get_bits(p, off + 32, 32);
}

/* The objects one queue references; all dropped when it goes. */
#define SIM_Q_REFS	6

struct sim_refs {
	unsigned int n;
	struct sim_obj *obj[SIM_Q_REFS];
};

/* The head of every queue object: the table entry and its references. */
struct sim_qobj {
	struct sim_obj obj;
	struct sim_refs refs;
};

/**
 * struct sim_qbuf_req - where a create command puts a queue's buffers
 * @umem_valid: the buffer is named by umem (else by PAS, kernel only)
 * @umem_id: that umem
 * @umem_off: the buffer's offset in it
 * @len: bytes the queue needs
 * @dbr_valid: the doorbell record is named by umem (else by address)
 * @dbr_id: that umem
 * @dbr_addr: offset of the record in it, or its address
 * @pas_off: bit offset of the PAS array in the mailbox
 * @log_page: log2 of the PAS page size over 4 KiB
 */
struct sim_qbuf_req {
	bool umem_valid;
	u32 umem_id;
	u64 umem_off;
	u64 len;
	bool dbr_valid;
	u32 dbr_id;
	u64 dbr_addr;
	size_t pas_off;
	u32 log_page;
};

/**
 * struct sim_cq_dp - the data path's state of a CQ (dp/datapath.c)
 * @umem_id: the umem of its buffer (0: a kernel CQ given by PAS)
 * @umem_off: where the buffer starts in it
 * @pi: CQEs written
 * @error: it overflowed, or its buffer may not be written: nothing more
 *	   is written to it (a CQ error event said which)
 * @fired: a completion event was raised for the arm sequence number @sn
 * @sn: that number (the doorbell record's arm word, bits 29:28)
 * @mod_cqes: CQEs written since its last event (moderation: dp/cq_mod.c)
 * @mod_sol: one of them was solicited or an error
 * @mod_since: when its last event was raised (ns, monotonic; 0: none)
 * @buf: the umem of its buffer, @dbr that of its doorbell record, both
 *	 among the CQ's references (NULL: a kernel CQ); resolved when the CQ
 *	 is created or resized (sim_dp_cq_bind()), not per CQE
 * @dbr_va: the doorbell record's kernel address, when its umem's page is
 *	    pinned for the umem's life (not ODP); else NULL
 */
/* cqc.mini_cqe_res_format: what a mini CQE holds besides a byte count */
#define SIM_MINI_FMT_HASH		0
#define SIM_MINI_FMT_CSUM		1
#define SIM_MINI_FMT_CSUM_STRIDX	3
#define SIM_MINI_CQE_BYTES		8
/* CQEs in one compression session: cmd_hca_cap.cqe_compression_max_num */
#define SIM_CQ_COMP_MAX			64

/**
 * struct sim_cq_comp - a CQ's open CQE compression session (dp/cq_comp.c)
 * @node: in the data path's list of CQs with one open
 * @n: CQEs in it (0: none open)
 * @sol: one of them is solicited
 * @title: the first CQE's image
 * @mini: each CQE's mini CQE
 */
struct sim_cq_comp {
	struct list_head node;
	u16 n;
	bool sol;
	u8 title[64];
	u8 mini[SIM_CQ_COMP_MAX][SIM_MINI_CQE_BYTES];
};

struct sim_cq_dp {
	u32 umem_id;
	u64 umem_off;
	struct sim_umem *buf, *dbr;
	__be32 *dbr_va;
	u32 pi;
	bool error;
	bool fired;
	u8 sn;
	u32 mod_cqes;
	bool mod_sol;
	u64 mod_since;
	struct sim_cq_comp comp;
};

/*
 * The doorbell record's arm word (sn << 28 | cmd << 24 | ci) as the
 * model leaves it at CREATE_CQ: a command no driver writes, so a CQ is
 * not taken as armed before its first arm (libmlx5 zeroes the word, which
 * reads as an arm).
 */
#define SIM_CQ_ARM_NONE		(7U << 24)
#define SIM_CQ_ARM_CMD(w)	(((w) >> 24) & 7)
#define SIM_CQ_ARM_SN(w)	(((w) >> 28) & 3)
#define SIM_CQ_ARM_SOLICITED	1

struct sim_cq {
	struct sim_qobj q;
	struct sim_cq_dp dp;
	u8 cqc[PRM_BYTES(cqc)];
};

/* Whether @cq moderates its events (dp/cq_mod.c). */
static inline bool sim_cq_moderated(const struct sim_cq *cq)
{
	return PRM_GET(cqc, cq->cqc, cq_max_count) ||
	       PRM_GET(cqc, cq->cqc, cq_period);
}

/**
 * struct sim_wq_dp - the data path's state of an RQ or SQ (dp/datapath.c)
 * @cc: WQEs (RQ) or basic blocks (SQ) consumed
 * @packets: packets sent or received through it
 * @out_of_buffer: packets dropped for want of a receive WQE (RQ)
 */
struct sim_wq_dp {
	u16 cc;
	u64 packets;
	u64 out_of_buffer;
};

/* An RQ or an SQ: rqc or sqc as created, then modified. */
struct sim_wq {
	struct sim_qobj q;
	struct sim_wq_dp dp;
	u8 ctx[PRM_BYTES(sqc) > PRM_BYTES(rqc) ? PRM_BYTES(sqc) :
		PRM_BYTES(rqc)];
};

struct sim_tis {
	struct sim_qobj q;
	u8 tisc[PRM_BYTES(tisc)];
};

/* @dest: the RQ (direct) or RQT (indirect) the TIR delivers to. */
struct sim_tir {
	struct sim_qobj q;
	struct sim_obj *dest;
	u8 tirc[PRM_BYTES(tirc)];
};

/* @rq: rqt_actual_size RQs, each referenced once per entry. */
struct sim_rqt {
	struct sim_obj obj;
	u32 max_size;
	u32 size;
	struct sim_obj **rq;
};

/* RC WQEs a QP on the wire keeps in flight, and responses it owes. */
#define SIM_RCW_INFLIGHT	32
#define SIM_RCW_RESPONSES	16

/**
 * struct sim_rcw_wqe - a send WQE of an RC QP on the wire, sent and not
 *			yet completed (dp/rcw_req.c)
 * @bb: its first basic block (the SQ's counter)
 * @nbb: its basic blocks
 * @index: its index, for the CQE
 * @opcode: its opcode
 * @signalled: it asks for a CQE
 * @psn: its first PSN
 * @npsn: the PSNs it takes (a READ: one per response packet)
 * @len: its message's bytes
 */
struct sim_rcw_wqe {
	u16 bb, nbb, index;
	u8 opcode;
	bool signalled;
	u32 psn, npsn, len;
};

/**
 * struct sim_rcw_resp - a READ or atomic the responder owes a response
 *			 to (dp/rcw_resp.c)
 * @psn: the request's PSN, its first response's
 * @atomic: an atomic: @orig is the answer; else a READ of @len bytes at
 *	    @va by @rkey, of which @off are sent
 * @va: the READ's address
 * @rkey: its key
 * @len: its bytes
 * @off: bytes sent
 * @orig: the atomic's original value
 */
struct sim_rcw_resp {
	u32 psn;
	bool atomic;
	u64 va;
	u32 rkey, len, off;
	u64 orig;
};

/**
 * struct sim_rcw - an RC or UC QP on the wire: the transport's state
 * @fl: requester: the WQEs in flight, a ring from @fl_head
 * @fl_head: the oldest
 * @fl_n: how many
 * @deadline: when the ACK timer runs out (ktime ns), 0: not running
 * @retries: ACK timeouts the oldest WQE met
 * @rd_next: bytes of the READ at @fl_head its responses brought
 * @una: the oldest PSN sent that no response has acknowledged
 * @recovering: the requester went back for a lost response: another
 *		sign of the same loss does not send it back again
 * @msn: responder: messages completed (the AETH's MSN)
 * @rx_op: the message being received: 0, SIM_RCW_RX_SEND or _WRITE
 * @rx_drop: UC: the message is dropped until its next first packet
 * @rx_off: bytes of it received
 * @rx_wqe: the receive WQE it fills
 * @wr_va: an RDMA WRITE's address
 * @wr_rkey: its key
 * @wr_len: its length
 * @nak_sent: a PSN sequence error was NAKed and the expected PSN has not
 *	      come since
 * @ack_owed: an ACK waits behind the responses owed
 * @rs: responses owed, a ring from @rs_head
 * @rs_head: the oldest
 * @rs_n: how many
 * @at_psn: the last atomic executed, for a duplicate of it
 * @at_orig: its answer
 * @at_valid: there is one
 */
struct sim_rcw {
	struct sim_rcw_wqe fl[SIM_RCW_INFLIGHT];
	u8 fl_head, fl_n;
	u64 deadline;
	u8 retries;
	u32 rd_next, una;
	bool recovering;
	u32 msn;
	u8 rx_op;
	bool rx_drop;
	u64 rx_off;
	u16 rx_wqe;
	u64 wr_va;
	u32 wr_rkey, wr_len;
	bool nak_sent, ack_owed;
	struct sim_rcw_resp rs[SIM_RCW_RESPONSES];
	u8 rs_head, rs_n;
	u32 at_psn;
	u64 at_orig;
	bool at_valid;
};

/*
 * DCI stream channels (queues/cmd_dct.c, dp/dp_dc.c): a DCI may name up to
 * 2^log_num_dci_stream_channels concurrent streams, and keep up to
 * 2^log_num_dci_errored_streams of them in error before it goes to ERR.
 */
#define SIM_DCI_LOG_MAX_STREAMS		4
#define SIM_DCI_LOG_MAX_ERRORED		3
/* cmd_hca_cap's qpc_extension (reserved in 6.1's mlx5_ifc.h) */
#define SIM_CAP_QPC_EXTENSION_OFF	0x122
/* and rts2rts_qp_udp_sport: RTS2RTS sets an RC or UC QP's UDP sport */
#define SIM_CAP_RTS2RTS_UDP_SPORT_OFF	0x151

/**
 * struct sim_qp_dp - the data path's state of a QP (dp/dp_rc.c)
 * @buf_umem: the umem of its buffer, the RQ then the SQ (0: given by
 *	      PAS, a kernel QP: not executed)
 * @buf_off: where the buffer starts in it
 * @sq_cc: basic blocks of the SQ consumed
 * @rq_cc: receive WQEs consumed
 * @msg_off: bytes of the message at @sq_cc copied in its earlier turns
 * @rnr_tries: RNR NAKs (or ACK timeouts) the WQE at @sq_cc has met
 * @rnr_until: when it may be tried again (ktime ns)
 * @ack_lost: the responder took the message at @sq_cc but an RDMA rule
 *	      dropped its ACK: the next try is a duplicate (dp/dp_rc.c)
 * @messages: messages sent
 * @srq_wqe: on an SRQ, the receive WQE the message being received took
 * @srq_held: @srq_wqe is held: it completes, or is flushed, with the QP
 * @last_wqe: on an SRQ, the QP in ERR has raised LAST_WQE_REACHED
 * @catas: a CQ refused its CQE: it raised the WQ catastrophic error
 * @xrc_srqn: an XRC target: the XRC SRQ its message is for
 * @sig_drain: its last WQE met a signature error on its own keys: a
 *	       fenced WQE next drains the send queue (dp/dp_sig.c)
 * @dci_errored: a DCI's stream channels in error (dp/dp_dc.c)
 * @n_errored: how many
 * @rcw: RC and UC on the wire (dp/rcw_*.c)
 * @odp_wait: its WQE stopped on a page fault: it waits for the driver's
 *	      resume (mem/odp.c)
 * @odp_err: resumed with an error: the WQE's next fault fails it
 * @cnp_ns: when the port last sent a CNP for a packet this QP took
 *	    (dp/dp_cong.c); 0, never
 * @buf: the umem of @buf_umem, @dbr that of its doorbell record (NULL:
 *	 none), both among the QP's references: resolved at CREATE_QP
 *	 (sim_dp_qp_bind()), not per WQE
 * @dbr_va: the doorbell record's kernel address when its umem is not ODP
 */
struct sim_qp_dp {
	u32 buf_umem;
	u64 buf_off;
	struct sim_umem *buf, *dbr;
	__be32 *dbr_va;
	u16 sq_cc;
	u16 rq_cc;
	u64 msg_off;
	u8 rnr_tries;
	u64 rnr_until;
	bool ack_lost;
	u64 messages;
	u16 srq_wqe;
	bool srq_held;
	bool last_wqe;
	bool catas;
	u32 xrc_srqn;
	bool sig_drain;
	bool odp_wait;
	bool odp_err;
	u64 cnp_ns;
	u16 dci_errored[BIT(SIM_DCI_LOG_MAX_ERRORED)];
	u8 n_errored;
	struct sim_rcw rcw;
};

/*
 * The state a QP reports once the device drained its send queue
 * (SQDRAINED of newer mlx5_ifc.h; 6.1 names SQD, 7, only): libmlx5's
 * mlx5dv_qp_cancel_posted_send_wrs(3) asks for it.
 */
#define SIM_QPC_STATE_SQ_DRAINED	5

struct sim_qp {
	struct sim_qobj q;
	struct sim_qp_dp dp;
	u8 qpc[PRM_BYTES(qpc)];
};

/**
 * struct sim_srq_dp - the data path's state of an SRQ (dp/dp_srq.c)
 * @cc: receive WQEs taken (the doorbell record's counter says posted)
 * @head: the WQE the next receive takes; each names the one after it
 * @taken: receives that took a WQE of it
 */
struct sim_srq_dp {
	u16 cc;
	u16 head;
	u64 taken;
};

/*
 * An SRQ, made as an RMP (ISSI 1): rmpc as created, then modified.  An
 * XRC SRQ (queues/cmd_xrc.c) keeps its work queue in @rmpc too, and the
 * XRC domain, the CQ and the user index its receives complete with.
 */
struct sim_srq {
	struct sim_qobj q;
	struct sim_srq_dp dp;
	u8 rmpc[PRM_BYTES(rmpc)];
	u32 xrcd;
	u32 cqn;
	u32 user_index;
};

/* A datagram QP: UD, or the kernel's QP1, which is UD on the wire. */
static inline bool sim_qp_datagram(const struct sim_qp *qp)
{
	return PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_UD ||
	       PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_QP1;
}

/* Whether @qp's WQEs may name memory by the reserved lkey: the kernel's. */
static inline bool sim_qp_rlky(const struct sim_qp *qp)
{
	return PRM_GET(qpc, qp->qpc, rlky);
}

/* cmd_qp.c */
struct sim_qp *sim_gsi_qp(struct mlx5x_sim *sim);

/* cmd_mcg.c: the port's multicast groups; the caps say these bounds */
#define SIM_MCG_LOG_MAX		8
#define SIM_MCG_MAX_QPS		16

/**
 * struct sim_mcg - a multicast group: the QPs attached to one GID
 * @node: in mlx5x_sim.mcgs
 * @gid: the multicast GID
 * @n: QPs attached
 * @qpn: their numbers
 */
struct sim_mcg {
	struct list_head node;
	u8 gid[SIM_GID_BYTES];
	unsigned int n;
	u32 qpn[SIM_MCG_MAX_QPS];
};

bool sim_mcg_gid(const u8 *gid);
struct sim_mcg *sim_mcg_find(struct mlx5x_sim *sim, const u8 *gid);
void sim_mcg_forget(struct mlx5x_sim *sim, u32 qpn);
void sim_qp_qbuf_req(const void *in, struct sim_qbuf_req *req);

/* queues.c */
u8 sim_cq_resize(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx);
u8 sim_refs_take(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 struct sim_refs *refs, enum sim_obj_type type, u32 id);
void sim_refs_drop(struct sim_refs *refs);
u8 sim_uar_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx, u32 index);
u8 sim_raw_tx_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx);
u8 sim_qbuf_take(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 const struct sim_qbuf_req *req, struct sim_refs *refs);
u8 sim_q_alloc(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       enum sim_obj_type type, struct sim_refs *refs,
	       struct sim_qobj **qp);
u8 sim_q_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		enum sim_obj_type type, u32 id, struct sim_qobj **qp);
void sim_q_release(struct sim_obj *obj);
u8 sim_wq_take(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       const void *wq, size_t pas_off, bool sq, struct sim_refs *refs);
void sim_tir_release(struct sim_obj *obj);
void sim_rqt_release(struct sim_obj *obj);

/* cmd_xrc.c */
u8 sim_create_xrc_qp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx);

#endif /* MLX5X_SIM_QUEUES_H */
