/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the three files of mlx5x_fuzz's RC traffic share:
 * mlx5x_fuzz_rc.c (pairs of QPs, their CQs and MRs, and the ops the
 * fuzzer calls), mlx5x_fuzz_rc_post.c (work requests through libmlx5,
 * WQEs written by hand into a raw QP's rings, the keys they name) and
 * mlx5x_fuzz_rc_check.c (the checks: guards, drains, the victim pair,
 * and the trace printed with a finding); and with mlx5x_fuzz_ud.c (UD
 * traffic and an SRQ), which names the same keys (pick_key()).
 */
#ifndef MLX5X_FUZZ_RC_H
#define MLX5X_FUZZ_RC_H

#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_fuzz.h"
#include "mlx5x_test.h"

#define M		(w.mem)
#define BB		64	/* a send WQE basic block */
#define SEG		16
#define MAX_DS		63
#define WQE_MAX		(16 * BB)
#define MAX_SGE		32	/* SGEs a WR is built with, at most */
#define MAX_WRS		8
#define INVALID_LKEY	0x100
#define INLINE_SEG	0x80000000U
#define CQ_UPDATE	0x08
#define ALL_ACCESS	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)
#define MARK		(1ULL << 63)	/* wr_id of a drain's markers */
#define DRAIN_MS	10000
#define GUARD_BYTES	(64 * 1024)
#define FENCE		4096	/* a PROT_NONE page each side of a guard */
#define WORK_BYTES	(2 * BIG)
#define BIG		(1U << 20)	/* largest length of a valid SGE */
#define TRACE		32	/* RC steps remembered */
#define TRACE_LEN	120

/* Send WQE opcodes (MLX5_OPCODE_*). */
#define OP_NOP		0x00
#define OP_SEND_INVAL	0x01
#define OP_WRITE	0x08
#define OP_WRITE_IMM	0x09
#define OP_SEND		0x0a
#define OP_SEND_IMM	0x0b
#define OP_READ		0x10
#define OP_CS		0x11
#define OP_FA		0x12
#define OP_UMR		0x25

static inline unsigned int log2u(uint32_t v)
{
	return v ? 31 - __builtin_clz(v) : 0;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static inline void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static inline void fill(uint8_t *p, unsigned int len)
{
	for (; len; len--)
		*p++ = rnd();
}

static inline uint8_t gpattern(uint8_t seed, size_t i)
{
	return seed ^ (i * 13 + (i >> 8) * 7);
}

static inline long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static inline void busy(int n)
{
	__atomic_fetch_add(&fz_busy[w.proc % FZ_PROCS], n, __ATOMIC_RELAXED);
}

/* mlx5x_fuzz_rc.c */
unsigned int rc_poll(struct fz_rc_cq *c);
bool rc_move(struct fz_rc *r, struct ibv_qp_attr *a, int mask);
int rc_gid(void);

/* mlx5x_fuzz_rc_check.c */
void trace_reset(void);
void trace_dump(void);
uint8_t *fenced_map(size_t len, uint8_t seed);
void fenced_unmap(uint8_t *p, size_t len);
void __printf(1, 2) note(const char *fmt, ...);
void set_posted(struct fz_rc *r, bool on);
void guard_make(unsigned int i);
void guard_check(unsigned int i, bool end);
void guard_unreg(unsigned int i);
void work_make(void);
void work_unreg(bool unmap);
void rc_drain(struct fz_rc *r);
void rc_modify_any(struct fz_rc *r);
bool rc_plain_connect(struct ibv_context *ctx, struct ibv_qp *qp,
		      uint32_t dest, int access, uint8_t rnr_retry);
void victim_make(void);
void victim_send(void);
void victim_release(void);

/* mlx5x_fuzz_rc_post.c */
void pick_key(bool remote, int good, uint32_t *key, uint64_t *addr,
	      uint32_t *len);
unsigned int wqe_segs(uint8_t *b, unsigned int off, unsigned int k,
		      bool good, bool atomic);
void recv_key(uint32_t *key, uint64_t *addr, uint32_t *len, void *arg);
void rc_post_send(struct fz_rc *r);
void rc_post_recv(struct fz_rc *r);
void rc_raw_send(struct fz_rc *r);
void rc_raw_recv(struct fz_rc *r);
void rc_go_raw(struct fz_rc *r);

#endif /* MLX5X_FUZZ_RC_H */
