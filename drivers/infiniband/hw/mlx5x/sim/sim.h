/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The firmware model of a simulated ConnectX: the interface the rest of
 * the driver sees.  The model executes PRM command mailboxes and owns the
 * resources a real device would own (UAR pages).  It knows nothing of
 * ib_core.
 */
#ifndef MLX5X_SIM_H
#define MLX5X_SIM_H

#include <linux/types.h>

struct dentry;
struct page;
struct mlx5x_sim;

/**
 * struct mlx5x_sim_params - what makes one simulated device unique
 * @node_guid: node and system image GUID the device reports
 * @mac: permanent MAC address of its (single) Ethernet port
 * @mtu: port MTU, in bytes, reported by the NIC vport context
 */
struct mlx5x_sim_params {
	u64 node_guid;
	u8 mac[6];
	u16 mtu;
};

/* An event queue entry (struct mlx5_ifc_eqe_bits), as events hand it. */
#define SIM_EQE_BYTES	64

/**
 * typedef mlx5x_sim_event_fn - receives the model's events
 * @ctx: what was registered with the handler
 * @eqe: the event queue entry, SIM_EQE_BYTES long
 */
typedef void (*mlx5x_sim_event_fn)(void *ctx, const void *eqe);

/**
 * mlx5x_sim_create() - make one simulated device
 * @params: what makes it unique; copied
 *
 * Builds its capability pages, its completion EQs (objects of uid 0),
 * its device memory and its data path worker.
 *
 * Return: the model, or an ERR_PTR (-ENOMEM).
 */
struct mlx5x_sim *mlx5x_sim_create(const struct mlx5x_sim_params *params);

/**
 * mlx5x_sim_destroy() - take a simulated device down
 * @sim: the model, from mlx5x_sim_create(); freed
 *
 * Stops the data path and removes the debugfs files first.  Objects
 * commands left behind are destroyed too, with a "LEAK" line in the
 * kernel log.
 */
void mlx5x_sim_destroy(struct mlx5x_sim *sim);

/**
 * mlx5x_sim_exec() - execute one command mailbox
 * @sim: the model
 * @in: input mailbox
 * @inlen: its length in bytes
 * @out: output mailbox; status and syndrome are always written
 * @outlen: its length in bytes
 *
 * Commands run one at a time, under the model's lock.
 *
 * Return: 0 when the command was delivered (its outcome is in the output
 * mailbox's status), -EINVAL when either mailbox is shorter than its
 * header.
 */
int mlx5x_sim_exec(struct mlx5x_sim *sim, const void *in, size_t inlen,
		   void *out, size_t outlen);

/**
 * mlx5x_sim_uar_page() - the memory behind an allocated UAR
 * @sim: the model
 * @index: UAR index returned by ALLOC_UAR
 *
 * Return: the page, or NULL when no such UAR exists.  The page stays
 * valid until DEALLOC_UAR of that index.
 */
struct page *mlx5x_sim_uar_page(struct mlx5x_sim *sim, u32 index);

/**
 * mlx5x_sim_memic_page() - the page behind a BAR offset of device memory
 * @sim: the model
 * @bar_off: offset in the BAR: the MEMIC or one of its operation windows
 *
 * The pages of one window follow each other, so one mapping covers an
 * allocation.
 *
 * Return: the page, or NULL outside the windows.
 */
struct page *mlx5x_sim_memic_page(struct mlx5x_sim *sim, u64 bar_off);

/**
 * mlx5x_sim_comp_eqn() - the completion EQ of a vector
 * @sim: the model
 * @vector: completion vector, below mlx5x_sim_comp_vectors()
 * @eqn: its EQ number
 *
 * Return: 0, or -EINVAL for a vector the model does not have.
 */
int mlx5x_sim_comp_eqn(struct mlx5x_sim *sim, unsigned int vector, u32 *eqn);

/**
 * mlx5x_sim_comp_vectors() - how many completion vectors the model has
 * @sim: the model
 *
 * Return: the number of completion vectors (and so of completion EQs).
 */
unsigned int mlx5x_sim_comp_vectors(struct mlx5x_sim *sim);

/**
 * mlx5x_sim_live_objects() - how many firmware objects exist
 * @sim: the model
 *
 * Counts every object of every uid, the model's own completion EQs
 * included, as the "stats" debugfs file does.
 *
 * Return: the count.
 */
unsigned int mlx5x_sim_live_objects(struct mlx5x_sim *sim);

/**
 * mlx5x_sim_set_event_handler() - where the model's events go
 * @sim: the model
 * @fn: called with each event queue entry (SIM_EQE_BYTES); NULL: none
 * @ctx: passed to @fn
 *
 * @fn runs under the model's command lock: it must not issue commands.
 */
void mlx5x_sim_set_event_handler(struct mlx5x_sim *sim,
				 mlx5x_sim_event_fn fn, void *ctx);

/**
 * mlx5x_sim_port_change() - the port went up or down
 * @sim: the model
 * @up: its new state
 *
 * Raises PORT_CHANGE with sub type ACTIVE or DOWN.
 */
void mlx5x_sim_port_change(struct mlx5x_sim *sim, bool up);

/**
 * mlx5x_sim_classify() - steer a packet and say where it goes and why
 * @sim: the model
 * @tx: transmitted by the function (NIC TX tables) rather than received
 * @port: the port it arrives on or leaves by (1)
 * @bytes: the packet, from its Ethernet header
 * @len: its length, 14 to SIM_PKT_MAX
 * @trace: where the trace goes, NUL-terminated
 * @size: room in @trace
 *
 * Counters the packet hits count it, as they would on the device.
 *
 * Return: the trace's length, -EINVAL for a bad port or length, -ENOMEM,
 * or -ENOSPC when the trace did not fit.
 */
int mlx5x_sim_classify(struct mlx5x_sim *sim, bool tx, u8 port,
		       const void *bytes, size_t len, char *trace, size_t size);

/**
 * mlx5x_sim_debugfs_init() - publish the model's knobs
 * @sim: the model
 * @parent: directory of the device; the model's files go into "fw" below
 *	    it
 */
void mlx5x_sim_debugfs_init(struct mlx5x_sim *sim, struct dentry *parent);

#endif /* MLX5X_SIM_H */
