/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The firmware model of a simulated ConnectX: the interface the rest of
 * the driver sees.  The model executes PRM command mailboxes and owns the
 * resources a real device would own (UAR pages).  It knows nothing of
 * ib_core.  Each function is documented where it is defined.
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

int mlx5x_sim_exec(struct mlx5x_sim *sim, const void *in, size_t inlen,
		   void *out, size_t outlen);

struct page *mlx5x_sim_uar_page(struct mlx5x_sim *sim, u32 index);

struct page *mlx5x_sim_memic_page(struct mlx5x_sim *sim, u64 bar_off);
int mlx5x_sim_memic_atomic(struct mlx5x_sim *sim, u64 bar_off, u8 size,
			   u64 operand, u64 *old);

int mlx5x_sim_comp_eqn(struct mlx5x_sim *sim, unsigned int vector, u32 *eqn);

/**
 * mlx5x_sim_comp_vectors() - how many completion vectors the model has
 * @sim: the model
 *
 * Return: the number of completion vectors (and so of completion EQs).
 */
unsigned int mlx5x_sim_comp_vectors(struct mlx5x_sim *sim);

/**
 * mlx5x_sim_clock_ns() - the device's free-running clock
 * @sim: the model
 *
 * Return: nanoseconds since the model was created, of the monotonic
 * clock: the 1 GHz counter (device_frequency_khz 1000000) whose value a
 * CQE's timestamp carries.
 */
u64 mlx5x_sim_clock_ns(const struct mlx5x_sim *sim);

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

void mlx5x_sim_set_event_handler(struct mlx5x_sim *sim,
				 mlx5x_sim_event_fn fn, void *ctx);

void mlx5x_sim_port_change(struct mlx5x_sim *sim, bool up);
void mlx5x_sim_set_link(struct mlx5x_sim *sim, bool up);
void mlx5x_sim_doorbell(struct mlx5x_sim *sim);

/**
 * typedef mlx5x_sim_idle_fn - arms every doorbell of processes to trap
 * @ctx: what was registered with the handler
 *
 * Return: true when every doorbell rung from now on reaches
 * mlx5x_sim_rung(), so that the worker need not poll for them.
 */
typedef bool (*mlx5x_sim_idle_fn)(void *ctx);

void mlx5x_sim_set_idle_handler(struct mlx5x_sim *sim, mlx5x_sim_idle_fn fn,
				void *ctx);
/* mlx5x_sim_rung()'s @qpn when the doorbell's bytes were not read */
#define MLX5X_SIM_RUNG_ANY	U32_MAX
void mlx5x_sim_rung(struct mlx5x_sim *sim, bool mapped, u16 uid, u32 qpn);

/**
 * typedef mlx5x_sim_odp_fault_fn - hears of a page fault of the data path
 * @ctx: what was registered with the handler
 * @qpn: the QP whose WQE stopped on it; it waits for mlx5x_sim_odp_resume()
 * @umem_id: the ODP umem (mlx5x_sim_odp_enable())
 * @off: the first byte not present, from the start of the umem's first
 *	 page (page_offset in)
 * @len: the bytes the access needed from there
 * @write: the access writes
 *
 * Runs under the model's lock, as a ConnectX raises a PAGE_FAULT event:
 * it must not sleep nor call into the model.
 *
 * Return: true when the driver took the fault; false fails the access.
 */
typedef bool (*mlx5x_sim_odp_fault_fn)(void *ctx, u32 qpn, u32 umem_id,
				       u64 off, u64 len, bool write);

/* mem/odp.c: on-demand paging of a umem's pages */
void mlx5x_sim_set_odp_handler(struct mlx5x_sim *sim,
			       mlx5x_sim_odp_fault_fn fn, void *ctx);
int mlx5x_sim_odp_enable(struct mlx5x_sim *sim, u32 umem_id, bool writable);
int mlx5x_sim_odp_implicit(struct mlx5x_sim *sim, u32 umem_id,
			   bool writable, u64 npages);
int mlx5x_sim_odp_blocks(struct mlx5x_sim *sim, u32 umem_id, u64 first,
			 u64 n, bool make);
int mlx5x_sim_odp_map(struct mlx5x_sim *sim, u32 umem_id, u64 first,
		      u64 n, const u64 *ents);
void mlx5x_sim_odp_zap(struct mlx5x_sim *sim, u32 umem_id, u64 first,
		       u64 n);
void mlx5x_sim_odp_resume(struct mlx5x_sim *sim, u32 qpn, bool err);

int mlx5x_sim_classify(struct mlx5x_sim *sim, bool tx, u8 port,
		       const void *bytes, size_t len, char *trace, size_t size);

void mlx5x_sim_debugfs_init(struct mlx5x_sim *sim, struct dentry *parent);

/*
 * The largest frame the port takes from the wire: a RoCE v2 packet of the
 * largest path MTU (4096 bytes of payload, its headers, pad, ICRC and a
 * VLAN tag).  Other frames, for the NIC's steering, are 2048 at most.
 */
#define MLX5X_SIM_WIRE_MAX	(4096 + 128)

/**
 * typedef mlx5x_sim_wire_fn - takes a frame the port puts out
 * @ctx: what was registered with it
 * @frame: the frame, from its Ethernet header, without FCS
 * @len: its length, 14 to MLX5X_SIM_WIRE_MAX bytes
 * @up: for the host's network stack, as the port's default delivery of a
 *	frame the device sent to its own address; else for the wire
 *
 * Called from the data path's worker, the model's lock held: it may not
 * call into the model.  Returns false when the frame was dropped.
 */
typedef bool (*mlx5x_sim_wire_fn)(void *ctx, const void *frame,
				  unsigned int len, bool up);

void mlx5x_sim_set_wire(struct mlx5x_sim *sim, mlx5x_sim_wire_fn fn,
			void *ctx);
int mlx5x_sim_wire_rx(struct mlx5x_sim *sim, const void *frame,
		      unsigned int len);
/* mlx5x_sim_wire_rx_rewrite(): the host's stack gets the frame rewritten */
#define MLX5X_SIM_WIRE_REWRITTEN	2
int mlx5x_sim_wire_rx_rewrite(struct mlx5x_sim *sim, void *frame,
			      unsigned int *len, unsigned int room);
/* Why the driver passed a frame from the wire by the model */
enum mlx5x_sim_unseen {
	MLX5X_SIM_UNSEEN_FULL,	/* its queue had no room: dropped */
	MLX5X_SIM_UNSEEN_GSO,	/* a GSO frame: to the host's stack */
	MLX5X_SIM_UNSEEN_LONG,	/* past MLX5X_SIM_WIRE_MAX: the same */
};

void mlx5x_sim_wire_rx_unseen(struct mlx5x_sim *sim,
			      enum mlx5x_sim_unseen why);

#endif /* MLX5X_SIM_H */
