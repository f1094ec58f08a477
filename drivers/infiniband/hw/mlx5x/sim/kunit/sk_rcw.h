/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the KUnit suites of RC and UC across the wire (rcw_*.c): two
 * models back to back, one RC or UC QP on each, connected by GIDs that
 * are each the other port's.  Each model's wire function queues what its
 * port puts out in a list the case owns; the case hands the frames to
 * the other model with mlx5x_sim_wire_rx(), and may drop, duplicate,
 * hold back (reorder) or spoil any of them on the way.
 */
#ifndef MLX5X_SK_RCW_H
#define MLX5X_SK_RCW_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include "sim_kunit.h"
#include "../dp/datapath.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "../dp/dp_priv.h"
#include "../dp/rcw.h"
#include "../dp/wqe.h"

/*
 * Each side's umem: 8 pages.  Page 0 holds the QP's buffer (16 receive
 * WQEs of 64 bytes, then 16 send basic blocks), page 1 the CQ's ring
 * (16 CQEs), page 2 the doorbell records, pages 4 to 7 the data, which
 * one mkey (local and remote rights) spans at its addresses 0 to 16 KiB.
 */
#define SK_W_ORDER	3
#define SK_W_PAGES	BIT(SK_W_ORDER)
#define SK_W_CQ		PAGE_SIZE
#define SK_W_CQES	16
#define SK_W_CQ_DBR	(2 * PAGE_SIZE)
#define SK_W_QP_DBR	(SK_W_CQ_DBR + 64)
#define SK_W_SQ		(16 * 64)
#define SK_W_DATA	(4 * PAGE_SIZE)
#define SK_W_DATA_LEN	(4 * PAGE_SIZE)
/* The path MTU of the QPs: 1 KiB. */
#define SK_W_PMTU	1024
/* Both QPs start their PSNs here, unless the case sets sk_rcw.psn. */
#define SK_W_PSN	0x1717

/* What happens to a frame on its way (struct sk_rcw_fate). */
enum {
	SK_W_PASS,
	SK_W_DROP,
	SK_W_DUP,	/* delivered twice */
	SK_W_HOLD,	/* delivered after the next frame */
	SK_W_SPOIL,	/* a byte of its payload flipped: bad ICRC */
};

#define SK_W_FATES	8
/* Frames of each direction whose BTH the case may look at afterwards. */
#define SK_W_LOG	32

/**
 * struct sk_rcw_seen - a frame's BTH (and AETH syndrome), as it crossed
 * @op: its opcode
 * @ackreq: its AckReq bit
 * @synd: the AETH's syndrome byte, of a response that carries one
 * @psn: its PSN
 */
struct sk_rcw_seen {
	u8 op;
	bool ackreq;
	u8 synd;
	u32 psn;
};

struct sk_rcw_frame;

/**
 * struct sk_rcw_fate - what the case wants done to one frame
 * @nth: the frame's number in its direction (0: the first that side sent)
 * @what: SK_W_*
 */
struct sk_rcw_fate {
	unsigned int nth;
	int what;
};

/**
 * struct sk_rcw_side - one model and its QP
 * @sim: the model
 * @mem: its pages' address
 * @pages: SK_W_PAGES pages
 * @uid: a user context of it, and its objects
 * @qpn: the QP
 * @key: the mkey over the data, its lkey and rkey
 * @cq_ci: CQEs the case has read
 * @sq_pi: basic blocks posted
 * @rq_pi: receive WQEs posted
 * @sent: frames this side put out so far
 * @fates: what is done to some of them
 * @nfates: how many
 * @drop_all: every frame from here on is dropped
 * @held: a frame held back (SK_W_HOLD), or NULL
 * @seen: the BTHs of its first SK_W_LOG frames
 * @lock: guards @sent and @out, which the model's worker adds to
 * @out: frames put out, not yet handed on
 */
struct sk_rcw_side {
	struct mlx5x_sim *sim;
	u8 *mem;
	struct page *pages;
	u16 uid;
	u32 pd, uar, td, umem, eqn, cqn, qpn, key, qc;
	u32 cq_ci;
	u16 sq_pi, rq_pi;
	unsigned int sent;
	struct sk_rcw_fate fates[SK_W_FATES];
	unsigned int nfates;
	bool drop_all;
	struct sk_rcw_frame *held;
	struct sk_rcw_seen seen[SK_W_LOG];
	spinlock_t lock;
	struct list_head out;
};

/* The two sides: the requester of most cases, and its responder */
#define A	0
#define B	1

/**
 * struct sk_rcw - the case's two sides (test->priv)
 * @ctx: what the sk_* helpers use; its sim is the side the helpers act on
 * @s: side 0 (A) and side 1 (B)
 * @st: the transport: MLX5_QPC_ST_RC or MLX5_QPC_ST_UC
 * @ack_timeout: the QPs' path ack_timeout
 * @retry_count: their retry_count
 * @rnr_retry: their rnr_retry
 * @psn: the PSN both directions start at
 */
struct sk_rcw {
	struct sk_ctx ctx;
	struct sk_rcw_side s[2];
	u32 st, ack_timeout, retry_count, rnr_retry, psn;
};

/**
 * struct sk_rcw_cqe - a CQE as read
 * @op: its opcode (SIM_CQE_*)
 * @synd: an error CQE's syndrome
 * @bytes: byte_cnt
 * @wqe: wqe_counter
 */
struct sk_rcw_cqe {
	u8 op, synd;
	u32 bytes;
	u16 wqe;
};

int sk_rcw_init(struct kunit *test);
void sk_rcw_exit(struct kunit *test);

static inline struct sk_rcw *sk_rcw(struct kunit *test)
{
	return test->priv;
}

static inline struct sim_wire *sk_rcw_wire(struct kunit *test, int side)
{
	return &sk_rcw(test)->s[side].sim->dp->wire;
}

void sk_rcw_connect(struct kunit *test);
void sk_rcw_fate(struct kunit *test, int side, unsigned int nth, int what);
u8 *sk_rcw_data(struct kunit *test, int side, u32 off);
void sk_rcw_recv(struct kunit *test, int side, u32 off, u32 len);
void sk_rcw_post(struct kunit *test, int side, u8 opcode, u32 off, u32 len,
		 u64 raddr, u32 rkey, u64 swap_add, u64 compare);
unsigned int sk_rcw_pump(struct kunit *test, unsigned int ms,
			 unsigned int want0, unsigned int want1);
bool sk_rcw_cqe(struct kunit *test, int side, struct sk_rcw_cqe *c);
u32 sk_rcw_state(struct kunit *test, int side);
void sk_rcw_count(struct kunit *test, int side);
u32 sk_rcw_counted(struct kunit *test, int side, enum sim_qc_stat stat);
u32 sk_rcw_send_psn(struct kunit *test, int side);
void sk_rcw_inject(struct kunit *test, int to, const u8 *f, u32 len);
u32 sk_rcw_build(struct kunit *test, int from, u8 opcode, u32 psn,
		 const u8 *ext, u32 ext_len, u32 len, u8 *f);

void sk_rcw_fill(struct kunit *test, int side, u32 off, u32 len, u8 seed);
struct sk_rcw_cqe sk_rcw_expect(struct kunit *test, int side, u8 op,
				u8 synd);
void sk_rcw_none(struct kunit *test, int side);
void sk_rcw_same(struct kunit *test, u32 a_off, u32 b_off, u32 len);
void sk_rcw_delivered(struct kunit *test, u32 len);

/* Shorthands of sk_rcw_post() */
#define sk_rcw_send(t, s, off, len) \
	sk_rcw_post(t, s, SIM_OPCODE_SEND, off, len, 0, 0, 0, 0)

#endif /* MLX5X_SK_RCW_H */
