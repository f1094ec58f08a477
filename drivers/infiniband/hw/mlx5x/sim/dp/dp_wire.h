/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The port's wire (dp_wire.c): where frames that leave the port go, and
 * what came in from it.  Private to dp/.
 */
#ifndef MLX5X_SIM_DP_WIRE_H
#define MLX5X_SIM_DP_WIRE_H

#include <linux/atomic.h>
#include "../sim.h"

/**
 * struct sim_wire - the port's wire
 * @fn: takes the frames the port puts out, or NULL: none leaves
 * @ctx: its argument
 * @rx: frames that came in from the wire and were steered
 * @rx_up: of those, ones the host's stack gets too (no rule took them,
 *	   or a DONT_TRAP rule passed them on)
 * @rx_short: of those, ones under the 60 bytes of a minimum frame
 * @rx_bad: frames refused before steering: under an Ethernet header, or
 *	    over the largest frame the port takes
 * @rx_queue_drops: frames the driver's queue had no room for
 * @rx_gso: GSO frames (merged by GRO) the driver passed unsteered
 * @tx: frames handed to the wire
 * @tx_up: own-address frames no rule took, handed to the host's stack
 * @tx_dropped: frames the wire or the stack did not take
 */
struct sim_wire {
	mlx5x_sim_wire_fn fn;
	void *ctx;
	u64 rx, rx_up, rx_short, rx_bad;
	atomic64_t rx_queue_drops, rx_gso;
	u64 tx, tx_up, tx_dropped;
};

struct sim_dp;
struct sim_pkt;
struct seq_file;

void sim_dp_wire(struct sim_dp *dp, struct sim_pkt *p, u32 tdn);
void sim_dp_wire_show(struct seq_file *m, struct sim_dp *dp);

#endif /* MLX5X_SIM_DP_WIRE_H */
