/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The packet classifier of the firmware model: a packet, what the steering
 * pipeline sees of it (its fte_match_param), and the header rewrites
 * entries apply to it.  Shared by classify*.c only.
 */
#ifndef MLX5X_SIM_CLASSIFY_H
#define MLX5X_SIM_CLASSIFY_H

#include <linux/seq_buf.h>
#include "fs.h"

/* Largest packet a caller may give, and the room rewrites may grow it to. */
#define SIM_PKT_MAX	2048
#define SIM_PKT_ROOM	(SIM_PKT_MAX + 512)

/* The bytes of a packet's head a modify header's checksum update needs. */
#define SIM_PKT_CSUM_SPAN	128

/* Metadata registers modify header actions may set: A, B, C0..C7. */
#define SIM_PKT_NREGS	10

/**
 * struct sim_pkt - a packet on its way through the pipeline
 * @len: bytes of @data
 * @wire_len: bytes of the frame when @data holds only its head (a RoCE
 *	      packet longer than SIM_PKT_MAX, walking an RDMA domain), else 0
 * @l3: offset of the outer L3 header, 0 when none
 * @l4: offset of the outer L4 header, 0 when none
 * @l4_proto: IP protocol of @l4
 * @tun_end: offset just past a VXLAN or GRE header, 0 when none
 * @flow_tag: the flow tag of the last entry that set one (0: none)
 * @regs: metadata registers (reg_a, reg_b, reg_c_0 .. reg_c_7)
 * @match: what groups mask and look up: the parsed headers
 * @data: the bytes
 */
struct sim_pkt {
	u16 len;
	u32 wire_len;
	u16 l3;
	u16 l4;
	u8 l4_proto;
	u16 tun_end;
	u32 flow_tag;
	u32 regs[SIM_PKT_NREGS];
	u8 match[SIM_FS_MATCH_BYTES];
	u8 data[SIM_PKT_ROOM];
};

/* Where a walk's copies ended, for the data path: at most this many. */
#define SIM_WALK_MAX_OUT	16

/**
 * struct sim_walk_out - the deliveries of one walk
 * @n: how many
 * @tir: per copy, the TIR it reached, or NULL for the wire (transmit) or
 *	 the port's default delivery (receive)
 * @p: per copy, the packet as it arrived there (the caller frees it)
 */
struct sim_walk_out {
	unsigned int n;
	struct sim_obj *tir[SIM_WALK_MAX_OUT];
	struct sim_pkt *p[SIM_WALK_MAX_OUT];
};

/* classify.c */
void sim_classify_walk(struct mlx5x_sim *sim, bool tx, struct sim_pkt *p,
		       struct seq_buf *s, struct sim_walk_out *out);
bool sim_classify_rdma(struct mlx5x_sim *sim, bool tx, struct sim_pkt *p,
		       struct seq_buf *s);

/* classify_pkt.c */
void sim_pkt_parse(struct sim_pkt *p);
const char *sim_pkt_field_name(u32 field);
bool sim_pkt_field_get(const struct sim_pkt *p, u32 field, u32 *val,
		       unsigned int *width);
bool sim_pkt_field_set(struct sim_pkt *p, u32 field, u32 val);
bool sim_pkt_reformat(struct sim_pkt *p, const struct sim_pkt_reformat *r);
void sim_pkt_csum_update(struct sim_pkt *p, const u8 *old, unsigned int span);

#endif /* MLX5X_SIM_CLASSIFY_H */
