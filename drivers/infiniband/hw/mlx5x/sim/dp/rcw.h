/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * RC and UC on the wire, as RoCE v2 packets (rcw_*.c): the opcodes of
 * the two transports (IBTA 9.2.1), what each packet carries, and what the
 * requester and the responder share.  Private to dp/.
 */
#ifndef MLX5X_SIM_DP_RCW_H
#define MLX5X_SIM_DP_RCW_H

#include "dp_roce.h"

/*
 * The BTH opcodes of RC; UC's and XRC's are the same in their own
 * transport's space (the top three bits: RC 000, UC 001, XRC 101).
 */
#define SIM_RCW_SEND_FIRST	0x00
#define SIM_RCW_SEND_MIDDLE	0x01
#define SIM_RCW_SEND_LAST	0x02
#define SIM_RCW_SEND_LAST_IMM	0x03
#define SIM_RCW_SEND_ONLY	0x04
#define SIM_RCW_SEND_ONLY_IMM	0x05
#define SIM_RCW_WRITE_FIRST	0x06
#define SIM_RCW_WRITE_MIDDLE	0x07
#define SIM_RCW_WRITE_LAST	0x08
#define SIM_RCW_WRITE_LAST_IMM	0x09
#define SIM_RCW_WRITE_ONLY	0x0a
#define SIM_RCW_WRITE_ONLY_IMM	0x0b
#define SIM_RCW_READ_REQ	0x0c
#define SIM_RCW_READ_FIRST	0x0d
#define SIM_RCW_READ_MIDDLE	0x0e
#define SIM_RCW_READ_LAST	0x0f
#define SIM_RCW_READ_ONLY	0x10
#define SIM_RCW_ACK		0x11
#define SIM_RCW_ATOMIC_ACK	0x12
#define SIM_RCW_CMP_SWAP	0x13
#define SIM_RCW_FETCH_ADD	0x14
#define SIM_RCW_SEND_LAST_INV	0x16
#define SIM_RCW_SEND_ONLY_INV	0x17
#define SIM_RCW_UC		0x20
#define SIM_RCW_XRC		0xa0
#define SIM_RCW_TRANSPORT	0xe0

/* What a packet of an opcode is and carries (sim_rcw_op()). */
#define SIM_RCW_F_FIRST		BIT(0)
#define SIM_RCW_F_LAST		BIT(1)
#define SIM_RCW_F_SEND		BIT(2)
#define SIM_RCW_F_WRITE		BIT(3)
#define SIM_RCW_F_READ		BIT(4)	/* a READ request */
#define SIM_RCW_F_ATOMIC	BIT(5)	/* an atomic request */
#define SIM_RCW_F_RESP		BIT(6)	/* to the requester */
#define SIM_RCW_F_RETH		BIT(7)
#define SIM_RCW_F_AETH		BIT(8)
#define SIM_RCW_F_IMM		BIT(9)
#define SIM_RCW_F_IETH		BIT(10)
#define SIM_RCW_F_ATOMICETH	BIT(11)
#define SIM_RCW_F_ATOMICACK	BIT(12)
#define SIM_RCW_F_PAYLOAD	BIT(13)
#define SIM_RCW_F_UC		BIT(14)	/* an opcode UC has too */
#define SIM_RCW_F_XRC		BIT(15)	/* of XRC: requests carry an XRCETH */

/* Extended headers' bytes */
#define SIM_RCW_RETH		16
#define SIM_RCW_AETH		4
#define SIM_RCW_ATOMICETH	28
#define SIM_RCW_ATOMICACKETH	8
#define SIM_RCW_XRCETH		4

/* The AETH's syndrome (its top byte): ACK, RNR NAK, NAK and their codes */
#define SIM_RCW_AETH_ACK	0x00
#define SIM_RCW_AETH_RNR	0x20
#define SIM_RCW_AETH_NAK	0x60
#define SIM_RCW_AETH_KIND	0xe0
#define SIM_RCW_NAK_SEQ		0x00
#define SIM_RCW_NAK_INV_REQ	0x01
#define SIM_RCW_NAK_ACCESS	0x02
#define SIM_RCW_NAK_OP		0x03
/* An ACK's credit count: none is kept (end-to-end flow control off) */
#define SIM_RCW_CREDITS_NONE	0x1f

/* The message a responder is receiving */
#define SIM_RCW_RX_SEND		1
#define SIM_RCW_RX_WRITE	2

/* The PSN space: 24 bits; half of it is ahead, half behind. */
#define SIM_RCW_PSN_MASK	0xffffff

static inline u32 sim_rcw_psn(u32 psn)
{
	return psn & SIM_RCW_PSN_MASK;
}

/* How far @a is ahead of @b (negative: behind), in the 24-bit space. */
static inline s32 sim_rcw_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

/* Header fields, byte by byte (no unaligned.h: it moved in 6.12) */
static inline void sim_rcw_put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void sim_rcw_put64(u8 *p, u64 v)
{
	sim_rcw_put32(p, v >> 32);
	sim_rcw_put32(p + 4, v);
}

static inline u32 sim_rcw_get32(const u8 *p)
{
	return (u32)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static inline u64 sim_rcw_get64(const u8 *p)
{
	return (u64)sim_rcw_get32(p) << 32 | sim_rcw_get32(p + 4);
}

/**
 * struct sim_rcw_pkt - a packet's extended headers, as read
 * @flags: what its opcode carries (SIM_RCW_F_*)
 * @va: RETH or AtomicETH: the virtual address
 * @rkey: the R_Key
 * @dma_len: RETH: the DMA length
 * @swap_add: AtomicETH: the swap or add operand
 * @compare: the compare operand
 * @aeth: AETH: syndrome and MSN
 * @orig: AtomicAckETH: the original value
 * @imm: immediate data, or IETH's R_Key, as on the wire
 * @xrc_srqn: XRCETH: the XRC SRQ a request is for
 * @data: the payload
 * @len: its bytes
 */
struct sim_rcw_pkt {
	u32 flags;
	u64 va;
	u32 rkey, dma_len;
	u64 swap_add, compare;
	u32 aeth;
	u64 orig;
	__be32 imm;
	u32 xrc_srqn;
	const u8 *data;
	u32 len;
};

struct mlx5x_sim;
struct sim_dp;
struct sim_qp;
struct sim_rc_wqe;

/* rcw_frame.c */
u32 sim_rcw_op(u8 opcode);
bool sim_rcw_read_ext(const struct sim_roce_ud *u, struct sim_rcw_pkt *pk);
u32 sim_rcw_pmtu(const struct sim_qp *qp);
u32 sim_rcw_npsn(const struct sim_qp *qp, const struct sim_rc_wqe *w);
u8 sim_rcw_base(const struct sim_qp *qp);
bool sim_rcw_addr(struct mlx5x_sim *sim, const struct sim_qp *qp,
		  struct sim_roce_ud *u);
bool sim_rcw_emit(struct sim_dp *dp, struct sim_qp *qp, u8 opcode, u32 psn,
		  bool ackreq, bool se, const u8 *ext, u32 ext_len,
		  const void *src, u64 skip, u32 len);
void sim_rcw_put_aeth(u8 *ext, const struct sim_qp *qp, u8 synd);
void sim_rcw_aeth(struct sim_dp *dp, struct sim_qp *qp, u32 psn, u8 synd);

/* rcw_req.c: the requester */
u8 sim_rcw_data_op(const struct sim_rc_wqe *w, u64 k, u64 last);
bool sim_rcw_wqe(struct sim_dp *dp, struct sim_qp *qp,
		 const struct sim_rcw_wqe *e);
void sim_rcw_fail(struct sim_dp *dp, struct sim_qp *qp, u32 synd);
void sim_rcw_complete(struct sim_dp *dp, struct sim_qp *qp,
		      const struct sim_rcw_wqe *e, u32 synd);
void sim_rcw_rewind(struct sim_dp *dp, struct sim_qp *qp, unsigned int i);
void sim_rcw_resume(struct sim_dp *dp, struct sim_qp *qp, u32 psn);
void sim_rcw_ack_timer(struct sim_qp *qp, bool restart);
void sim_rcw_timer(struct sim_dp *dp, struct sim_qp *qp);
unsigned int sim_rcw_sq_one(struct sim_dp *dp, struct sim_qp *qp,
			    struct sim_umem *buf, u32 nbb);

/* rcw_ack.c: what the requester receives */
void sim_rcw_req_rx(struct sim_dp *dp, struct sim_qp *qp,
		    const struct sim_roce_ud *u, const struct sim_rcw_pkt *pk);

/* rcw_resp.c: the responder */
unsigned int sim_rcw_drain(struct sim_dp *dp, struct sim_qp *qp,
			   unsigned int budget);
void sim_rcw_resp_rx(struct sim_dp *dp, struct sim_qp *qp,
		     const struct sim_roce_ud *u, const struct sim_rcw_pkt *pk);

#endif /* MLX5X_SIM_DP_RCW_H */
