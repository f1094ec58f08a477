/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the two files of mlx5x_fuzz's UMR traffic share:
 * mlx5x_fuzz_umr.c (the pair, the mkeys, DEKs and memory, traffic
 * through the mkeys, the waits and checks, the op) and
 * mlx5x_fuzz_umr_wr.c (the work requests that configure the mkeys,
 * through libmlx5 and by hand).
 */
#ifndef MLX5X_FUZZ_UMR_H
#define MLX5X_FUZZ_UMR_H

#include "mlx5x_fuzz_rc.h"

#define UMR_MKEYS	4
#define UMR_DEKS	2
#define UMR_AREA	(4 * 4096)	/* the pair's memory, fenced */
#define UMR_HALF	(UMR_AREA / 2)
#define UMR_SLACK	200	/* bytes of each half no MR covers */
#define UMR_MR_LEN	(UMR_HALF - 2 * UMR_SLACK)
#define UMR_ENTRIES	16	/* entries a WR lists, at most */
#define UMR_WAIT_MS	10000
#define UMR_RECV	(1ULL << 62)	/* wr_id of a receive */
#define UMR_STALE	8

/**
 * struct fz_umr_qp - a QP of the pair as the template reader sees it
 * @qp: the QP (mlx5dv_create_qp(), MKEY_CONFIGURE and the layouts)
 * @ring: its send ring
 * @dbr: its doorbell record
 * @bbs: basic blocks of @ring
 */
struct fz_umr_qp {
	struct ibv_qp *qp;
	uint8_t *ring;
	uint32_t *dbr;
	uint32_t bbs;
};

/**
 * struct fz_umr - a worker's UMR traffic (thread-local: umr)
 * @cq: the pair's CQ
 * @q: two RC QPs connected to each other, with every access
 * @sends: signaled send WRs posted and not completed
 * @recvs: receives posted and not completed
 * @failed: an error completion since the pair was connected
 * @ready: both QPs of the pair reached RTS
 * @hready: @hqp reached RTS
 * @hcq: the CQ of @hqp, polled by hand only (@hcqv)
 * @hqp: an RC QP connected to itself, whose ring the hand writer fills
 * @hsq: its send ring
 * @hcqv: @hcq's ring
 * @hout: WQEs written by hand and not completed
 * @good: this op's WRs are well formed (mostly: half the ops)
 * @mk: indirect mkeys, with their flags and max_entries
 * @mk_len: the length of the layout each was last given (0: none, or
 *	    one that failed)
 * @pend_id: the wr_id of the configure WR whose completion is awaited
 * @pend_mk: its mkey's slot
 * @pend_len: the length of the layout it gives
 * @mk_blk: the block traffic through each comes in (0: any length)
 * @pend_blk: the block the configure WR awaited gives
 * @dek: data encryption keys
 * @mk_torn: a destroy of that mkey failed, after libmlx5 may have torn
 *	     part of it down (see umr_mkey()): never configured again
 * @area: UMR_AREA bytes of pattern(@seed) between PROT_NONE pages
 * @mr: an MR of every access over the first half, bar UMR_SLACK each side
 * @ro: an MR with remote read only over the second half, the same way
 * @stale: keys of mkeys and MRs destroyed
 * @tmpl: a UMR WQE libmlx5 wrote, of @tlen bytes, for the hand writer
 */
struct fz_umr {
	struct ibv_cq *cq;
	struct fz_umr_qp q[2];
	unsigned int sends, recvs;
	bool failed, ready, hready;
	struct ibv_cq *hcq;
	struct ibv_qp *hqp;
	struct fz_queue hsq, hcqv;
	unsigned int hout;
	bool good;
	struct mlx5dv_mkey *mk[UMR_MKEYS];
	uint64_t mk_len[UMR_MKEYS];
	uint32_t mk_blk[UMR_MKEYS], pend_blk;
	uint64_t pend_id, pend_len;
	unsigned int pend_mk;
	uint32_t mk_flags[UMR_MKEYS];
	uint16_t mk_ent[UMR_MKEYS];
	bool mk_torn[UMR_MKEYS];
	struct mlx5dv_dek *dek[UMR_DEKS];
	uint8_t *area;
	uint8_t seed;
	struct ibv_mr *mr, *ro;
	uint32_t stale[UMR_STALE];
	uint8_t tmpl[WQE_MAX];
	unsigned int tlen;
};

extern __thread struct fz_umr umr;

/* mlx5x_fuzz_umr_wr.c */
uint32_t umr_len(uint32_t room);
void umr_entry(struct ibv_sge *s);
void umr_configure(unsigned int qi, unsigned int mi);
void umr_hand(void);

/* mlx5x_fuzz_umr.c */
void umr_wait_hand(void);

#endif /* MLX5X_FUZZ_UMR_H */
