/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the files of the data path share among themselves: the worker's
 * state (struct sim_dp), and the pieces of datapath.c the transport
 * engines (dp_rc.c, dp_ud.c) use.  Private to dp/.
 */
#ifndef MLX5X_SIM_DP_PRIV_H
#define MLX5X_SIM_DP_PRIV_H

#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include "datapath.h"
#include "dp_wire.h"

/* WQEs one SQ may execute in one pass. */
#define SIM_DP_BUDGET		64
/*
 * What one hold of the model's lock may do: execute this many WQEs, or
 * look at this many SQs, whichever comes first.  A pass over many busy
 * SQs is cut into holds; the commands of every context run between
 * them, whatever one context has posted.
 */
#define SIM_DP_HOLD_WQES	64
#define SIM_DP_HOLD_SQS		256
/*
 * After a pass that did work, an idle pass is followed by another
 * SIM_DP_POLL_NS later (the worker asleep on a timer meanwhile), for
 * SIM_DP_QUICK_NS; then a jiffy later, as long as a queue is ready.
 */
#define SIM_DP_POLL_NS		(20 * NSEC_PER_USEC)
#define SIM_DP_QUICK_NS		(20 * NSEC_PER_MSEC)
/* Busy for longer than this at once, the worker shares the CPU fairly. */
#define SIM_DP_RT_NS		(2 * NSEC_PER_MSEC)
/* Largest receive WQE read: the profile's max_wqe_sz_rq bounds it. */
#define SIM_DP_MAX_RQ_WQE	1024
/*
 * A send WQE is read in whole basic blocks: its largest, 63 segments
 * (1008 bytes), spans 16 of them, 1024 bytes.
 */
#define SIM_DP_WQE_BUF		ALIGN(SIM_WQE_MAX_BYTES, SIM_SEND_WQE_BB)

struct sim_qp;

/* Receive scatter entries: the largest receive WQE, 16 bytes each. */
#define SIM_RC_MAX_SCATTER	(SIM_DP_MAX_RQ_WQE / SIM_WQE_SEG)
/* Bytes a message is copied by, from one side's memory to the other's. */
#define SIM_RC_BOUNCE		PAGE_SIZE

/**
 * struct sim_rc_piece - one data segment of a message, resolved
 * @inl: its bytes inside the WQE (inline), else NULL
 * @kva: its bytes by the reserved lkey: where the device reaches them
 * @umem: else the umem that holds them
 * @off: where they start in it
 * @len: how many
 * @crypto: the configured crypto mkey its data segment names, or NULL
 * @coff: where its first byte is in that mkey, from its start address
 *	  (for @sig, in its wire domain)
 * @sig: the signature mkey its data segment names (dp_sig.c), or NULL:
 *	 then the piece is @len bytes of its wire domain, read or written
 *	 through its memory domain by @sig_uid's QP on PD @sig_pdn
 * @sig_uid: that context
 * @sig_pdn: that PD
 * @sig_rights: the rights the access needs
 */
struct sim_rc_piece {
	const u8 *inl;
	u8 *kva;
	struct sim_umem *umem;
	u64 off;
	u32 len;
	const struct sim_mkey *crypto;
	u64 coff;
	const struct sim_mkey *sig;
	u16 sig_uid;
	u32 sig_pdn;
	u8 sig_rights;
};

/* One side's memory of a message: its pieces, in order. */
struct sim_rc_side {
	unsigned int n;
	struct sim_rc_piece p[SIM_RC_MAX_SCATTER];
};

/**
 * struct sim_dp - the data path of one device
 * @sim: the model
 * @kw: the thread the worker runs on
 * @work: the polling worker
 * @timer: wakes it for a quick poll
 * @last_busy_ns: when a pass last did work
 * @quick_polls: passes the timer started
 * @rt: the worker's thread is in the real-time class
 * @burst_ns: since when it has run without a break, or 0
 * @demotions: times it went down to the time-sharing class
 * @stopping: the device goes away: the worker runs no more
 * @cursor: the SQ (or RQ, or QP) number the next hold of the pass starts at
 * @phase: the table the pass is in: SIM_OBJ_SQ, SIM_OBJ_RQ, SIM_OBJ_QP
 * @pass_active: queues of the current pass that were ready or in error
 * @pass_done: WQEs the current pass executed
 * @passes: passes run
 * @busy_passes: passes that executed a WQE
 * @holds: holds of the model's lock the worker took
 * @ns: time spent in passes
 * @max_hold_ns: the longest hold
 * @wqes: send WQEs executed (errors and flushes included)
 * @tx_packets: packets that left an SQ
 * @rx_packets: packets written into an RQ
 * @dropped: packets that reached no RQ (steering, no WQE, blocked)
 * @wqe: the WQE being executed
 * @w: what it says
 * @rwqe: the receive WQE being filled
 * @rc_messages: RC messages that reached their responder
 * @rnr_naks: RNR NAKs responders gave
 * @rc: the RC send WQE being executed (dp_rc.c)
 * @rc_scatter: the data segments of the receive WQE it fills
 * @rc_src: where its bytes come from
 * @rc_dst: where they go
 * @bounce: what they are copied through
 * @mod_cqs: CQs waiting for their moderation period's end (cq_mod.c)
 * @mod_timer: fires at the earliest of those ends
 * @wire: the port's wire (dp_wire.c)
 * @rearm: the next pass first arms the doorbells of processes to trap
 * @rungs: trapped doorbells served (doorbell.c)
 * @rung_wqes: WQEs they executed
 * @rung_named: those that served the one queue they named
 * @rung_late: those that named a queue of their context whose work a
 *	       pass of the worker had taken already
 * @rung_ns: time they held the model's lock
 * @rung_wait_ns: time they waited for it
 * @sig_err: the first signature error of the last copy (dp_sig.c)
 * @sig_err_on: there is one, for its QP to report
 * @sig_err_dst: it was on the copy's destination side
 * @frame: a RoCE packet of an RC or UC QP, being built (rcw_frame.c)
 * @holding: a hold of the model's lock is running (doorbell or worker)
 * @hold_ns: the clock as the hold first read it, or 0 (sim_dp_clock())
 */
struct sim_dp {
	struct mlx5x_sim *sim;
	struct kthread_worker *kw;
	struct kthread_delayed_work work;
	struct hrtimer timer;
	u64 last_busy_ns, quick_polls;
	bool rt;
	u64 burst_ns, demotions;
	bool stopping;
	unsigned long cursor;
	u8 phase;
	unsigned int pass_active, pass_done;
	u64 passes, busy_passes, holds, ns, max_hold_ns;
	u64 wqes, tx_packets, rx_packets, dropped;
	u8 wqe[SIM_DP_WQE_BUF];
	struct sim_send_wqe w;
	u8 rwqe[SIM_DP_MAX_RQ_WQE];
	u64 rc_messages, rnr_naks;
	struct sim_rc_wqe rc;
	struct sim_gather rc_scatter[SIM_RC_MAX_SCATTER];
	struct sim_rc_side rc_src, rc_dst;
	u8 bounce[SIM_RC_BOUNCE];
	struct xarray mod_cqs;
	struct hrtimer mod_timer;
	struct sim_wire wire;
	bool rearm;
	u64 rungs, rung_wqes, rung_named, rung_late, rung_ns, rung_wait_ns;
	struct sim_sig_err sig_err;
	bool sig_err_on, sig_err_dst;
	u8 frame[MLX5X_SIM_WIRE_MAX];
	bool holding;
	u64 hold_ns;
	struct list_head comp_cqs;	/* CQs of open sessions (cq_comp.c) */
};

/*
 * The time from @then to @now, two local_clock() values, perhaps of two
 * CPUs: that clock may differ by a little between CPUs, and a @then a
 * little ahead of @now is no time at all.  The data path times itself
 * and its polling with local_clock(), which is cheap where the clock
 * source is not (an emulated HPET under TCG); CQE timestamps and the
 * transport's timers use the monotonic clock.
 */
static inline u64 sim_dp_since(u64 now, u64 then)
{
	return (s64)(now - then) > 0 ? now - then : 0;
}

struct sim_umem *sim_dp_umem(struct mlx5x_sim *sim, u32 id);
struct sim_qobj;
struct sim_umem *sim_q_held_umem(const struct sim_qobj *q, u32 id);
struct sim_umem *sim_q_held_dbr(const struct sim_qobj *q, bool valid,
				u32 id, u64 addr, __be32 **va);
unsigned int sim_dp_turn(struct sim_dp *dp, struct sim_obj *obj,
			 unsigned int room);
bool sim_dp_walk(struct sim_dp *dp, enum sim_obj_type type,
		 unsigned long *cursor, unsigned int *done,
		 unsigned int *looked);
/* doorbell.c */
bool sim_dp_rearm(struct sim_dp *dp);
void sim_dp_hold_begin(struct sim_dp *dp);
void sim_dp_hold_end(struct sim_dp *dp);
u64 sim_dp_clock(struct mlx5x_sim *sim);
void sim_dp_cq_event(struct mlx5x_sim *sim, struct sim_cq *cq, bool sol);

/* dp_cq.c, cq_comp.c: CQEs into their CQs */
void sim_dp_cq_error(struct mlx5x_sim *sim, struct sim_cq *cq, u8 syndrome);
bool sim_cq_slot_va(const struct sim_cq *cq, u32 n);
bool sim_cq_put_img(struct sim_cq *cq, struct sim_umem *buf, u32 n,
		    const u8 *img);
bool sim_cq_comp_take(struct mlx5x_sim *sim, struct sim_cq *cq,
		      const struct sim_cqe_info *info, bool sol, u32 ci);
void sim_cq_comp_flush(struct mlx5x_sim *sim, struct sim_cq *cq);
void sim_cq_comp_flush_all(struct mlx5x_sim *sim);

/* cq_mod.c */
bool sim_cq_mod_due(struct sim_dp *dp, struct sim_cq *cq);
void sim_cq_mod_fired(struct sim_cq *cq);
void sim_cq_mod_expire(struct sim_dp *dp);
void sim_cq_mod_init(struct sim_dp *dp);
void sim_cq_mod_fini(struct sim_dp *dp);
bool sim_dp_cqe(struct mlx5x_sim *sim, u32 cqn,
		const struct sim_cqe_info *info);
bool sim_dp_read_wqe(struct sim_dp *dp, struct sim_umem *buf, u64 buf_off,
		     u32 nbb, u16 bb);
struct sim_pkt *sim_dp_pkt(const u8 *bytes, u32 len);

/* dp_rss.c: the RQ of an indirect TIR's RQT a packet goes to */
struct sim_rqt;
u32 sim_rss_toeplitz(const u8 *key, const u8 *in, unsigned int len);
u32 sim_rss_hash(const void *tirc, const struct sim_pkt *p);
struct sim_obj *sim_rss_rq(const void *tirc, const struct sim_rqt *rqt,
			   const struct sim_pkt *p);
void sim_dp_to_tir(struct sim_dp *dp, struct sim_obj *obj, u32 tdn,
		   const struct sim_pkt *p);

/* dp_rq.c: an RQ's completions, errors and flush */
struct sim_wq;
void sim_dp_rq_complete(struct mlx5x_sim *sim, struct sim_wq *rq,
			const struct sim_cqe_info *info);
unsigned int sim_dp_rq_flush(struct sim_dp *dp, struct sim_wq *rq,
			     unsigned int budget);

/**
 * struct sim_rq_at - where a receive WQE keeps its data segments
 * @umem: the buffer
 * @off: the first data segment's offset in it
 * @len: the bytes of data segments
 * @uid: the context whose keys they must be
 * @pdn: and the PD
 * @rlky: the reserved lkey may name memory (a kernel QP's own RQ)
 */
struct sim_rq_at {
	struct sim_umem *umem;
	u64 off;
	u32 len;
	u16 uid;
	u32 pdn;
	bool rlky;
};

struct sim_srq;

/* dp_srq.c */
struct sim_srq *sim_dp_srq(struct mlx5x_sim *sim, const struct sim_qp *qp);
bool sim_dp_srq_take(struct mlx5x_sim *sim, struct sim_qp *qp);
bool sim_dp_srq_at(struct mlx5x_sim *sim, const struct sim_qp *qp,
		   struct sim_rq_at *at);
void sim_dp_srq_last_wqe(struct mlx5x_sim *sim, struct sim_qp *qp);

#define SIM_QP_ST(s)		MLX5_QPC_STATE_##s

static inline u32 sim_qp_state(const struct sim_qp *qp)
{
	return PRM_GET(qpc, qp->qpc, state);
}

static inline u32 sim_qp_pdn(const struct sim_qp *qp)
{
	return PRM_GET(qpc, qp->qpc, pd);
}

/* dp_rc.c */
unsigned int sim_dp_rc_qp(struct sim_dp *dp, struct sim_qp *qp,
			  unsigned int budget, bool *active);
unsigned int sim_rc_sq_one(struct sim_dp *dp, struct sim_qp *qp,
			   struct sim_umem *buf, u32 nbb);
u32 sim_rc_rnr_ns(u32 code);
bool sim_rc_remote(struct mlx5x_sim *sim, struct sim_qp *resp, u32 key,
		   u64 va, u64 len, u8 rights, struct sim_rc_side *side);

struct sim_roce_ud;

/* rcw_*.c: RC and UC across the wire */
bool sim_rcw_on_wire(struct mlx5x_sim *sim, const struct sim_qp *qp);
unsigned int sim_rcw_turn(struct sim_dp *dp, struct sim_qp *qp,
			  unsigned int budget, bool *active);
bool sim_rcw_rx(struct sim_dp *dp, const struct sim_roce_ud *u);

/*
 * dp_qp.c: what the QP engines share: a QP's buffers and CQEs, keys
 * resolved and bytes copied, the receive WQE a message lands in (taken,
 * resolved for writing, completed; flushed in ERR), from the QP's RQ or
 * its SRQ, and a QP's turn, each engine's send WQEs through @one.
 */
typedef unsigned int (*sim_dp_sq_one_fn)(struct sim_dp *dp, struct sim_qp *qp,
					 struct sim_umem *buf, u32 nbb);
unsigned int sim_dp_qp_turn(struct sim_dp *dp, struct sim_qp *qp,
			    unsigned int budget, bool *active,
			    sim_dp_sq_one_fn one);
u64 sim_rq_bytes(const struct sim_qp *qp);
void sim_rc_cqe(struct mlx5x_sim *sim, struct sim_qp *qp, bool send,
		struct sim_cqe_info *info);
/* dp_qcount.c */
void sim_qp_count(struct mlx5x_sim *sim, const struct sim_qp *qp,
		  enum sim_qc_stat stat);
void sim_qp_count_rx(struct mlx5x_sim *sim, const struct sim_qp *qp,
		     u8 opcode);
void sim_qp_count_cqe(struct mlx5x_sim *sim, const struct sim_qp *qp,
		      bool send, u8 syndrome);
void sim_qp_count_rx_pkt(struct mlx5x_sim *sim, const struct sim_qp *qp,
			 u32 flags);
bool sim_rc_resolve(struct mlx5x_sim *sim, u16 uid, u32 pdn,
		    const struct sim_gather *g, unsigned int n,
		    u8 rights, struct sim_rc_side *side);
bool sim_rc_resolve_rlky(struct mlx5x_sim *sim, u16 uid, u32 pdn, bool rlky,
			 const struct sim_gather *g, unsigned int n,
			 u8 rights, struct sim_rc_side *side);
int sim_rc_copy(struct sim_dp *dp, const struct sim_rc_side *src,
		const struct sim_rc_side *dst, u64 skip, u64 len);

/* dp_psv.c: the SET_PSV WQE */
u32 sim_dp_set_psv(struct sim_dp *dp, struct sim_qp *qp);

/* dp_sig.c: bytes through signature mkeys */
int sim_rc_sig_resolve(struct mlx5x_sim *sim, u16 uid, u32 pdn,
		       const struct sim_gather *g, u8 rights,
		       struct sim_rc_piece *p);
bool sim_rc_sig_sides(const struct sim_rc_side *src,
		      const struct sim_rc_side *dst);
int sim_rc_copy_sig(struct sim_dp *dp, const struct sim_rc_side *src,
		    const struct sim_rc_side *dst, u64 skip, u64 len);
void sim_rc_sig_report(struct sim_dp *dp, struct sim_qp *qp, bool send);
bool sim_rc_sig_drain(struct sim_dp *dp, struct sim_qp *qp);

/* dp_crypto.c: bytes through crypto mkeys */
void sim_rc_crypto_mark(struct mlx5x_sim *sim, u32 key, u64 va,
			struct sim_rc_side *side, unsigned int first);
bool sim_rc_crypto_sides(const struct sim_rc_side *src,
			 const struct sim_rc_side *dst);
int sim_rc_copy_crypto(struct sim_dp *dp, const struct sim_rc_side *src,
		       const struct sim_rc_side *dst, u64 skip, u64 len);
bool sim_rq_take(struct mlx5x_sim *sim, struct sim_qp *qp, u16 *wqe);
u32 sim_rc_recv_wqe(struct sim_dp *dp, struct sim_qp *resp,
		    struct sim_rc_side *side);
void sim_rq_done(struct sim_qp *qp);
unsigned int sim_rc_flush_rq(struct sim_dp *dp, struct sim_qp *qp,
			     unsigned int budget);

/* dp_umr.c: the UMR WQE (memory windows), remote invalidation */
u32 sim_dp_umr(struct sim_dp *dp, struct sim_qp *qp);
bool sim_dp_mw_invalidate(struct mlx5x_sim *sim, struct sim_qp *qp, u32 key);

/* The kernel's UMR QP (umr_rereg.c): it sends UMR WQEs alone. */
static inline bool sim_dp_reg_umr(const struct sim_qp *qp)
{
	return PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_REG_UMR;
}

/* dp_xrc.c: XRC initiators and targets, the XRC SRQ a message is for */
bool sim_dp_xrc(const struct sim_qp *qp);
bool sim_dp_xrc_tgt(const struct sim_qp *qp);
struct sim_srq *sim_dp_xrc_srq(struct mlx5x_sim *sim, const struct sim_qp *qp);
u32 sim_dp_xrc_target(struct mlx5x_sim *sim, struct sim_qp *tgt, u32 srqn);
void sim_dp_resp_keys(struct mlx5x_sim *sim, const struct sim_qp *resp,
		      u16 *uid, u32 *pdn);

/* dp_dc.c: DC initiators and targets, the DCT a message is for */
bool sim_dp_dci(const struct sim_qp *qp);
bool sim_dci_stream_errored(const struct sim_qp *qp, u16 stream);
bool sim_dci_stream_fail(struct sim_qp *qp, u16 stream);
bool sim_dp_dct(const struct sim_qp *qp);
struct sim_qp *sim_dp_dc_target(struct mlx5x_sim *sim, struct sim_qp *dci,
				const struct sim_rc_wqe *w, bool *wait);

/**
 * struct sim_ud_msg - what a datagram did, for the two CQEs
 * @resp: the receiver that took a receive WQE
 * @resp_wqe: which one
 * @req_synd: the sender's error CQE, or 0
 * @resp_synd: the receiver's
 * @flags_rqpn: the receiver's CQE: GRH, RoCE header type, source QP
 * @len: the payload's bytes
 * @imm: it carries immediate data
 * @imm_data: which (big endian)
 * @solicited: the sender asked for a solicited event
 * @tagged: it came on a VLAN
 * @vlan: its tag (PCP 15:13, VID 11:0)
 */
struct sim_ud_msg {
	struct sim_qp *resp;
	u16 resp_wqe;
	u32 req_synd;
	u32 resp_synd;
	u32 flags_rqpn;
	u32 len;
	bool imm;
	__be32 imm_data;
	bool solicited;
	bool tagged;
	u16 vlan;
};

struct sim_ud_av;

/* The QP number every port's QP1 answers to. */
#define SIM_GSI_QPN		1
/* The destination QP of a multicast datagram. */
#define SIM_UD_MCAST_QPN	0xffffff
/* The GRH at the front of every UD receive buffer. */
#define SIM_UD_GRH		40
/* The IPv4 header of RoCE v2 sits in its last 20 bytes. */
#define SIM_UD_IPV4_OFF		20

/* dp_ud.c */
unsigned int sim_dp_ud_qp(struct sim_dp *dp, struct sim_qp *qp,
			  unsigned int budget, bool *active);
struct sim_qp *sim_ud_peer(struct mlx5x_sim *sim, u32 qpn, u32 qkey);
void sim_ud_deliver(struct sim_dp *dp, const struct sim_ud_msg *m);

/* dp_ud_wire.c: UD datagrams as RoCE v2 frames on the wire */
struct sim_roce_ud;
void sim_ud_roce(struct sim_dp *dp, const struct sim_qp *req,
		 const struct sim_ud_av *av, const struct sim_roce_gid *sgid,
		 u32 qkey, struct sim_roce_ud *u);
u32 sim_ud_wire_send(struct sim_dp *dp, struct sim_qp *req,
		     const struct sim_ud_av *av,
		     const struct sim_roce_gid *sgid, u32 qkey, bool *tx_drop);
bool sim_ud_wire_rx(struct sim_dp *dp, const u8 *frame, u32 len);

/* dp_lb_rdma.c: the loopback's packets through the RDMA domains */
bool sim_lb_rdma_rc(struct sim_dp *dp, struct sim_qp *req,
		    const struct sim_rc_wqe *w, u64 off, u64 n);
bool sim_lb_rdma_ud(struct sim_dp *dp, const struct sim_qp *req,
		    const struct sim_ud_av *av,
		    const struct sim_roce_gid *sgid, u32 qkey, bool tx);
bool sim_lb_rdma_read(struct sim_dp *dp, const struct sim_qp *req,
		      const struct sim_qp *resp, const struct sim_rc_wqe *w,
		      u64 off, u64 n);
bool sim_lb_rdma_ack(struct sim_dp *dp, const struct sim_qp *req,
		     const struct sim_qp *resp, const struct sim_rc_wqe *w);
bool sim_lb_rdma_nak(struct sim_dp *dp, const struct sim_qp *req,
		     const struct sim_qp *resp, const struct sim_rc_wqe *w,
		     u64 off);

#endif /* MLX5X_SIM_DP_PRIV_H */
