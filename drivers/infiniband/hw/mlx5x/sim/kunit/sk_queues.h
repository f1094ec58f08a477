/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the KUnit suites of the queues and transport objects: a user
 * context with what queues name (PD, UAR, TD, a umem), and one builder
 * per create command that fills a valid mailbox a case may then spoil.
 */
#ifndef MLX5X_SK_QUEUES_H
#define MLX5X_SK_QUEUES_H

#include "sim_kunit.h"
#include "../queues/queues.h"

/* The umem every queue of a case lives in: 64 pages of 4 KiB. */
#define SK_Q_PAGES	64
#define SK_Q_BYTES	(SK_Q_PAGES * 4096)
/* Where doorbell records go: the umem's last cache line. */
#define SK_Q_DBR	(SK_Q_BYTES - 64)

/**
 * struct sk_q - a user context and the objects its queues name
 * @uid: the context (0: the kernel's objects, see SK_Q_KERNEL)
 * @pd: a protection domain of it
 * @uar: a UAR of it
 * @td: a transport domain of it
 * @umem: a umem of SK_Q_BYTES
 * @eqn: the kernel's completion EQ
 */
struct sk_q {
	u16 uid;
	u32 pd, uar, td, umem, eqn;
};

/* sk_q_init_cap() for the kernel's own objects: uid 0, every cap. */
#define SK_Q_KERNEL	(~0U)

void sk_q_init(struct kunit *test, struct sk_q *r);
void sk_q_init_cap(struct kunit *test, struct sk_q *r, u32 cap);
void sk_q_fini(struct kunit *test, const struct sk_q *r);

/* Every create output here has the id at bits 0x48..0x60. */
u8 sk_q_create(struct kunit *test, const void *in, size_t inlen,
	       size_t outlen, u32 *id);
/* Every destroy and query input names the object at the same place. */
u8 sk_q_destroy(struct kunit *test, u16 opcode, u16 uid, u32 id);
u8 sk_q_query(struct kunit *test, u16 opcode, u16 uid, u32 id, void *out,
	      size_t outlen);
/* The users count of an object, as the table has it. */
unsigned int sk_users(struct kunit *test, enum sim_obj_type type, u32 id);
u8 sk_cq_resize(struct kunit *test, u16 uid, u32 cqn, u32 sel, u32 log,
		u32 umem, u64 off);

/* A cyclic work queue of 16 WQEs of 1 << @stride bytes, in the umem. */
void sk_wq_fill(void *wq, const struct sk_q *r, u32 stride);
void *sk_cq_in(struct kunit *test, const struct sk_q *r);
u8 sk_create_cq(struct kunit *test, const struct sk_q *r, u32 *cqn);
void *sk_rq_in(struct kunit *test, const struct sk_q *r, u32 cqn);
u8 sk_create_rq(struct kunit *test, const struct sk_q *r, u32 cqn,
		u32 *rqn);
void *sk_tis_in(struct kunit *test, const struct sk_q *r);
u8 sk_create_tis(struct kunit *test, const struct sk_q *r, u32 *tisn);
void *sk_sq_in(struct kunit *test, const struct sk_q *r, u32 cqn,
	       u32 tisn);
u8 sk_create_sq(struct kunit *test, const struct sk_q *r, u32 cqn,
		u32 tisn, u32 *sqn);
void *sk_rqt_in(struct kunit *test, const struct sk_q *r, u32 max,
		const u32 *rqn, u32 n, size_t *inlen);
void *sk_tir_in(struct kunit *test, const struct sk_q *r, bool indirect,
		u32 dest);
void *sk_qp_in(struct kunit *test, const struct sk_q *r, u32 cqn);
u8 sk_create_qp(struct kunit *test, const struct sk_q *r, u32 cqn,
		u32 *qpn);

u8 sk_wq_modify(struct kunit *test, bool sq, u16 uid, u32 id, u32 cur,
		u32 next);
/* A QP transition with a context good for it (@qpc may then be spoilt). */
void *sk_qp_move_in(struct kunit *test, u16 opcode, u16 uid, u32 qpn,
		    void **qpc);
u8 sk_qp_move(struct kunit *test, u16 opcode, u16 uid, u32 qpn);
u32 sk_qp_state(struct kunit *test, u16 uid, u32 qpn);

#endif /* MLX5X_SK_QUEUES_H */
