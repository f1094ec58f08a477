/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The port's wire (dp_wire.c): where frames that leave the port go, and
 * what came in from it.  Private to dp/.
 */
#ifndef MLX5X_SIM_DP_WIRE_H
#define MLX5X_SIM_DP_WIRE_H

#include <linux/atomic.h>
#include "../sim.h"

/* What QUERY_VPORT_COUNTER tells apart (dp_vport.c). */
enum sim_vport_kind {
	SIM_VP_ERR,	/* received_errors, transmit_errors */
	SIM_VP_IB_UC,
	SIM_VP_IB_MC,
	SIM_VP_ETH_BC,
	SIM_VP_ETH_UC,
	SIM_VP_ETH_MC,
	SIM_VP_KINDS
};

/* The vport's traffic counters: [0] received, [1] transmitted. */
struct sim_vport_cnt {
	u64 pkts[2][SIM_VP_KINDS];
	u64 octets[2][SIM_VP_KINDS];
};

/**
 * struct sim_wire - the port's wire
 * @fn: takes the frames the port puts out, or NULL: none leaves
 * @ctx: its argument
 * @rx: frames that came in from the wire and were steered
 * @rx_up: of those, ones the host's stack gets too (no rule took them,
 *	   or a DONT_TRAP rule passed them on)
 * @rx_up_rewritten: of those, ones it gets as rules rewrote them (a
 *		     steering anchor handed them back)
 * @rx_short: of those, ones under the 60 bytes of a minimum frame
 * @rx_bad: frames refused before steering: under an Ethernet header, or
 *	    over the largest frame the port takes
 * @rx_queue_drops: frames the driver's queue had no room for
 * @rx_gso: GSO frames (merged by GRO) the driver passed unsteered
 * @rx_long: frames longer than the NIC's steering takes (not RoCE to the
 *	     port), passed to the host's stack unsteered
 * @tx: frames handed to the wire
 * @tx_up: own-address frames no rule took, handed to the host's stack
 * @tx_dropped: frames the wire or the stack did not take
 * @roce_tx: RoCE v2 packets the port's QPs sent on the wire
 * @roce_tx_lost: packets for the wire that could not be built
 *		  (no valid source GID)
 * @roce_rx: RoCE v2 frames from the wire to one of the port's GIDs
 * @roce_rx_ud: of those, datagrams a UD QP received
 * @roce_bad_icrc: of those, ones whose ICRC was wrong, dropped
 * @ppcnt_icrc: the same, as PPCNT's rx_icrc_encapsulated has them
 *		(dp_port_reg.c: its clr empties it)
 * @roce_malformed: ones whose headers were short or inconsistent, dropped
 * @roce_unsupported: well-formed ones of a transport other than UD,
 *		      dropped: only UD crosses the wire today
 * @roce_dropped: datagrams no QP took (no such QP, Q_Key or P_Key
 *		  mismatch, not ready, no receive WQE), dropped
 * @roce_rx_rc: RC and UC packets a QP on the wire took (rcw_*.c)
 * @rcw_naks: NAKs its responders sent (RNR included)
 * @rcw_dups: duplicate requests they answered again
 * @rcw_resends: times a requester went back to send again
 * @rcw_timeouts: of those, ACK timers that ran out
 * @np_ecn_marked: packets the port's QPs took marked Congestion
 *		   Experienced (dp_cong.c)
 * @np_cnp_sent: CNPs the port sent their senders
 * @rp_cnp_ignored: CNPs to the port's QPs (no rate limiter acts on them)
 * @rdma_rx_drops: RoCE packets to the port's QPs an RDMA RX rule dropped
 * @rdma_tx_drops: RoCE packets of the port's QPs an RDMA TX rule dropped
 * @down: the link is down (dp_vport.c): nothing crosses
 * @link_downs: times it went down
 * @link_tx_lost: frames the port would have sent while it was down
 * @link_rx_lost: frames that came in while it was down, dropped
 * @vport: what crossed, for QUERY_VPORT_COUNTER
 */
struct sim_wire {
	mlx5x_sim_wire_fn fn;
	void *ctx;
	u64 rx, rx_up, rx_up_rewritten, rx_short, rx_bad;
	atomic64_t rx_queue_drops, rx_gso, rx_long;
	u64 tx, tx_up, tx_dropped;
	u64 roce_tx, roce_tx_lost, roce_rx, roce_rx_ud, roce_bad_icrc;
	u64 roce_malformed, roce_unsupported, roce_dropped, ppcnt_icrc;
	u64 roce_rx_rc, rcw_naks, rcw_dups, rcw_resends, rcw_timeouts;
	u64 np_ecn_marked, np_cnp_sent, rp_cnp_ignored;
	u64 rdma_rx_drops, rdma_tx_drops;
	bool down;
	u64 link_downs, link_tx_lost, link_rx_lost;
	struct sim_vport_cnt vport;
};

struct sim_dp;
struct sim_pkt;
struct sim_qp;
struct sim_roce_ud;
struct seq_file;

void sim_dp_wire(struct sim_dp *dp, struct sim_pkt *p, u32 tdn);
void sim_wire_out(struct sim_dp *dp, const u8 *data, u32 len, bool roce);
void sim_vport_count(struct sim_dp *dp, bool tx, const u8 *frame, u32 len,
		     bool roce);
void sim_vport_count_kind(struct sim_dp *dp, bool tx,
			  enum sim_vport_kind kind, u32 len);
bool sim_dp_rdma_steer(struct sim_dp *dp, bool tx, const u8 *frame, u32 len);
bool sim_dp_rdma_busy(const struct mlx5x_sim *sim, bool tx);
bool sim_dp_rdma_steer_head(struct sim_dp *dp, bool tx, const u8 *head,
			    u32 head_len, u32 len);
void sim_dp_wire_show(struct seq_file *m, struct sim_dp *dp);
/* dp_cong.c */
void sim_np_rx(struct sim_dp *dp, struct sim_qp *qp,
	       const struct sim_roce_ud *u, u32 sender);
void sim_rp_rx(struct sim_dp *dp, const struct sim_roce_ud *u);
bool sim_cnp_due_at(struct sim_qp *qp, u64 now);

#endif /* MLX5X_SIM_DP_WIRE_H */
