// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: RC traffic, as an unprivileged process makes it.
 *
 * - pairs of RC QPs (now and then UC) of random capacities on CQs of
 *   their own or a shared one.  Half the pairs are clean: connected to
 *   each other as ibv_rc_pingpong does, every access, rnr_retry 7, most
 *   of their WRs well formed over the worker's work MR (M.work, every
 *   access), and connected again whenever either side left RTS, so that
 *   traffic flows.  The others connect to their peer mostly, or to a
 *   random QP number, one of a QP the worker destroyed or another of its
 *   QPs, with random access flags, rnr_retry and min_rnr_timer, now and
 *   then an attribute out of range or a state short of RTS.  QPs are
 *   moved to ERR or RESET, to random states with random attributes,
 *   queried, destroyed with WQEs outstanding (their CQ first: refused),
 *   and the MRs their WQEs name are deregistered;
 * - WRs of every opcode posted through libmlx5 (SEND and RDMA WRITE with
 *   and without immediate, RDMA READ, both atomics, inline, SEND with
 *   invalidate and LOCAL_INV, which the model refuses), of up to past
 *   max_send_sge SGEs over the worker's MRs, the guards, other workers'
 *   guards, DEVX mkeys and any key, at offsets and lengths inside, at the
 *   end of and past them, of zero length; large ones (up to 1 MiB), which
 *   the model copies in turns; receives of random sizes; the CQs polled;
 * - a QP turned raw: random bytes and WQEs of random opcode, ds and
 *   segments written straight into its send and receive rings (from
 *   mlx5dv_init_obj()), wrapping at the end, its doorbell record moved
 *   on by what was written or by any amount; its CQ is then polled by
 *   hand (poll_cq()) and libmlx5 never posts on it again.  (A CQ goes to
 *   mlx5dv_init_obj() only then: libmlx5 no longer cleans a destroyed
 *   QP's CQEs out of a CQ the application owns.)
 *
 * Checks of the model:
 * - a QP that libmlx5 alone posted on and whose CQ holds all it may have
 *   outstanding, moved to ERR after a marker WR on each ring, completes
 *   both markers (every WQE before them is flushed or completes) within
 *   DRAIN_MS, or that is a finding (FZ_RC_STUCK);
 * - guards, memory filled with a pattern that no write may reach: behind
 *   an MR in the worker's PD without a right to write (pinned read-only),
 *   which its WRs name anywhere; behind an MR with every access in a
 *   context of its own the worker opens (the guard context); and the
 *   canary, an MR of the guard context with local write (pinned
 *   writable) that the victim, an RC pair of that context, keeps sending
 *   from and that nothing names as a destination.  The guards' keys and
 *   addresses are published (fz_pubs): every worker names the others'
 *   too.  Each sits between PROT_NONE pages, so that none of the
 *   fuzzer's registrations that run past the end of their regions can
 *   pin it.  A change is a finding (FZ_GUARD_WRITTEN).
 * On a finding the worker's last RC steps are printed.
 */
#define _GNU_SOURCE
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

static __thread char trace[TRACE][TRACE_LEN];
static __thread unsigned int ntrace;

/* Remember one RC step, for a finding's report. */
static void __printf(1, 2) note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(trace[ntrace++ % TRACE], TRACE_LEN, fmt, ap);
	va_end(ap);
}

/* The worker's last RC steps, oldest first, to stderr. */
static void trace_dump(void)
{
	unsigned int i = ntrace > TRACE ? ntrace - TRACE : 0;

	fprintf(stderr, "fuzz:   the worker's last %u RC steps:\n",
		ntrace - i);
	for (; i < ntrace; i++)
		fprintf(stderr, "fuzz:     %s\n", trace[i % TRACE]);
}

static unsigned int log2u(uint32_t v)
{
	return v ? 31 - __builtin_clz(v) : 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static void fill(uint8_t *p, unsigned int len)
{
	for (; len; len--)
		*p++ = rnd();
}

static uint8_t gpattern(uint8_t seed, size_t i)
{
	return seed ^ (i * 13 + (i >> 8) * 7);
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void busy(int n)
{
	__atomic_fetch_add(&fz_busy[w.proc % FZ_PROCS], n, __ATOMIC_RELAXED);
}

/* r->posted, kept in step with this process's count of such QPs */
static void set_posted(struct fz_rc *r, bool on)
{
	if (r->posted != on)
		busy(on ? 1 : -1);
	r->posted = on;
}

/*
 * @len bytes filled with pattern(@seed), fenced: the fuzzer's MRs and
 * umems run past the end of their regions on purpose, and one that
 * reached into these pages from a mapping beside them would pin them
 * for writing; no pin crosses a PROT_NONE page.
 */
static uint8_t *fenced_map(size_t len, uint8_t seed)
{
	uint8_t *p;
	size_t k;

	p = mmap(NULL, len + 2 * FENCE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + FENCE, len, PROT_READ | PROT_WRITE)) {
		munmap(p, len + 2 * FENCE);
		return NULL;
	}
	for (k = 0; k < len; k++)
		p[FENCE + k] = gpattern(seed, k);
	return p + FENCE;
}

static void fenced_unmap(uint8_t *p, size_t len)
{
	munmap(p - FENCE, len + 2 * FENCE);
}

/*
 * Guards.  @i 0: in the worker's PD, REMOTE_READ or no access at all;
 * @i 1: in a context of its own, every access.  Made when first needed,
 * published in the worker's two slots of fz_pubs.
 */
static void guard_make(unsigned int i)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct fz_guard *g = &M.guard[i];
	struct fz_pub *pub = &fz_pubs[(w.slot * 2 + i) % FZ_PUBS];

	if (g->mr)
		return;
	if (i && !M.gctx) {
		cov_start();
		/* a context of a user (uid) of its own, or the kernel's uid 0 */
		M.gctx = below(2) ? mlx5dv_open_device(w.ctx->device, &attr) :
			 ibv_open_device(w.ctx->device);
		ran(M.gctx != NULL);
		if (!M.gctx)
			return;
		cov_start();
		M.gpd = ibv_alloc_pd(M.gctx);
		ran(M.gpd != NULL);
	}
	if (i ? !M.gpd : !pd_get())
		return;
	if (!g->base) {
		g->seed = rnd();
		g->base = fenced_map(GUARD_BYTES, g->seed);
		if (!g->base)
			return;
		g->len = GUARD_BYTES;
	}
	cov_start();
	g->mr = ibv_reg_mr(i ? M.gpd : M.pd, g->base, g->len,
			   i ? ALL_ACCESS : below(2) ? IBV_ACCESS_REMOTE_READ :
			   0);
	ran(g->mr != NULL);
	if (!g->mr)
		return;
	note("guard %u: key %#x over %p+%#zx", i, g->mr->rkey, g->base,
	     g->len);
	__atomic_store_n(&pub->addr, (uintptr_t)g->base, __ATOMIC_RELAXED);
	__atomic_store_n(&pub->len, g->len, __ATOMIC_RELAXED);
	__atomic_store_n(&pub->key, g->mr->rkey, __ATOMIC_RELAXED);
}

static const char *const guard_names[] = {
	"guard 0 (the worker's PD, no right to write)",
	"guard 1 (every access, another context)",
	"the canary (another context sends from it, nothing writes it)",
};

/* Check guard @i (2: the canary) against its pattern; @end: unmap it. */
static void guard_check(unsigned int i, bool end)
{
	struct fz_guard *g = i < 2 ? &M.guard[i] : &M.victim.canary;
	size_t k, bad = 0, first = 0;

	if (!g->base)
		return;
	for (k = 0; k < g->len; k++)
		if (g->base[k] != gpattern(g->seed, k) && !bad++)
			first = k;
	stat_add(FZ_GUARD_CHECKS, 1);
	if (bad) {
		fprintf(stderr, "fuzz: FINDING: %s changed: %zu bytes of %zu, the first at %p (offset %#zx: %#x, not %#x)\n",
			guard_names[i], bad, g->len, g->base + first, first,
			g->base[first], gpattern(g->seed, first));
		trace_dump();
		stat_add(FZ_GUARD_WRITTEN, 1);
		/* once is enough: the pattern is made anew */
		for (k = 0; k < g->len; k++)
			g->base[k] = gpattern(g->seed, k);
	}
	if (end) {
		fenced_unmap(g->base, g->len);
		g->base = NULL;
	}
}

/* Deregister guard @i's MR (its memory is checked after). */
static void guard_unreg(unsigned int i)
{
	struct fz_guard *g = &M.guard[i];

	if (!g->mr)
		return;
	cov_start();
	ran(!ibv_dereg_mr(g->mr));
	g->mr = NULL;
}

/*
 * The worker's buffer for traffic that works: an MR of every access in
 * its PD (M.work), made when first needed; deregistered now and then
 * with WQEs naming it outstanding.
 */
static void work_make(void)
{
	void *p;

	if (M.work.mr || !pd_get())
		return;
	if (!M.work.base) {
		p = mmap(NULL, WORK_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return;
		M.work.base = p;
		M.work.len = WORK_BYTES;
	}
	cov_start();
	M.work.mr = ibv_reg_mr(M.pd, M.work.base, M.work.len, ALL_ACCESS);
	ran(M.work.mr != NULL);
	if (M.work.mr)
		note("work mr key %#x over %p", M.work.mr->lkey, M.work.base);
}

static void work_unreg(bool unmap)
{
	if (M.work.mr) {
		note("work mr key %#x: deregister", M.work.mr->lkey);
		cov_start();
		ran(!ibv_dereg_mr(M.work.mr));
		M.work.mr = NULL;
	}
	if (unmap && M.work.base) {
		munmap(M.work.base, M.work.len);
		M.work.base = NULL;
	}
}

/*
 * A key and a range inside the work MR, or one of the worker's MRs
 * (@remote: its rkey): mostly short, 8 bytes aligned now and then, as an
 * atomic's.
 */
static bool good_key(bool remote, bool strict, uint32_t *key, uint64_t *addr,
		     uint32_t *len)
{
	struct ibv_mr *mr = M.work.mr && (strict || below(4)) ? M.work.mr :
			    M.nmrs ? M.mrs[below(M.nmrs)] : M.work.mr;
	uint64_t off;

	if (!mr || mr->length < 8)
		return false;
	*key = remote ? mr->rkey : mr->lkey;
	off = rnd() % mr->length;
	if (below(4))
		off &= ~7ULL;
	if (off + 8 > mr->length)
		off = mr->length - 8;
	*addr = (uintptr_t)mr->addr + off;
	*len = below(4) ? 8 : 1 + rnd() % (below(8) ? 512 : BIG);
	if (*len > mr->length - off)
		*len = mr->length - off;
	return true;
}

/*
 * A key and a range for an SGE (@remote: an RDMA's or atomic's remote
 * address); @good: inside an MR of the worker, mostly (good_key()), 2:
 * of the work MR.
 * Else mostly of the worker's MRs, else a guard, another worker's guard,
 * a DEVX mkey (another PD), a key that names nothing; lengths of zero,
 * 8, the MR's, up to BIG, any; addresses inside, at the end, past.
 */
static void pick_key(bool remote, int good, uint32_t *key, uint64_t *addr,
		     uint32_t *len)
{
	struct fz_queue *q = pick_queue(QK_MKEY);
	unsigned int r = below(16);
	uint64_t base = 0, size = 0;
	struct fz_guard *g;
	struct fz_pub *p;
	struct ibv_mr *mr;

	if (good && below(16) && good_key(remote, good > 1, key, addr, len))
		return;
	*key = rnd();
	if (r < 9 && M.nmrs) {
		mr = M.mrs[below(M.nmrs)];
		*key = remote ? mr->rkey : mr->lkey;
		base = (uintptr_t)mr->addr;
		size = mr->length;
	} else if (r < 11) {
		g = &M.guard[below(2)];
		if (g->mr) {
			*key = g->mr->rkey;
			base = (uintptr_t)g->base;
			size = g->len;
		}
	} else if (r == 11) {
		p = &fz_pubs[below(FZ_PUBS)];
		*key = __atomic_load_n(&p->key, __ATOMIC_RELAXED);
		base = __atomic_load_n(&p->addr, __ATOMIC_RELAXED);
		size = __atomic_load_n(&p->len, __ATOMIC_RELAXED);
	} else if (r == 12 && q) {
		*key = q->key;
		base = q->va;
		size = q->len;
	} else if (r == 13) {
		*key = below(2) ? INVALID_LKEY : below(2) ? 0 :
		       (below(64) << 8 | (rnd() & 0xff));
	}
	switch (below(16)) {
	case 0:
		*len = 0;
		break;
	case 1:
	case 2:
		*len = 8;
		break;
	case 3:
		*len = size && size < BIG ? size : BIG;
		break;
	case 4:
		*len = 1 + below(BIG);
		break;
	case 5:
		*len = rnd();
		break;
	default:
		*len = 1 + below(below(4) ? 256 : 4096);
		break;
	}
	if (size && below(8)) {
		*addr = base + rnd() % size;
		if (!below(8))
			*addr = base + size - below(16);
		else if (below(4) && *len > base + size - *addr)
			*len = base + size - *addr;
	} else {
		*addr = below(2) ? base + rnd() % (size + 8192) : rnd();
	}
	if (!below(4))
		*addr &= ~7ULL;		/* as an atomic's must be */
}

/* An MR of the worker's PD over a region, with access for RC. */
static void rc_mr_reg(void)
{
	static const int acc[] = {
		ALL_ACCESS, ALL_ACCESS, ALL_ACCESS,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC,
		IBV_ACCESS_LOCAL_WRITE, IBV_ACCESS_REMOTE_READ, 0,
	};
	unsigned int tries = 0;
	struct ibv_mr *mr;
	uint64_t len;
	uint8_t *p;
	bool ro;
	int a;

	if (M.nmrs == MAX_MRS || !pd_get())
		return;
	a = below(8) ? acc[below(MT_ARRAY_SIZE(acc))] : (int)(rnd() & 0x1f);
	do {
		p = region_pick(&len, &ro);
	} while ((!p || (ro && (a & ~IBV_ACCESS_REMOTE_READ)) || !len ||
		  len > 4 * BIG) && ++tries < 8);
	if (!p)
		return;
	cov_start();
	mr = ibv_reg_mr(M.pd, p, len, a);
	ran(mr != NULL);
	if (!mr)
		return;
	M.mrs[M.nmrs++] = mr;
	note("mr key %#x over %p+%#llx access %#x", mr->lkey, p,
	     (unsigned long long)len, a);
}

static struct fz_rc *rc_find(uint32_t qpn)
{
	unsigned int i;

	for (i = 0; i < MAX_RC; i++)
		if (M.rc[i].qp && M.rc[i].qp->qp_num == qpn)
			return &M.rc[i];
	return NULL;
}

static struct fz_rc *rc_pick(void)
{
	unsigned int i, n = below(MAX_RC);

	for (i = 0; i < MAX_RC; i++)
		if (M.rc[(n + i) % MAX_RC].qp)
			return &M.rc[(n + i) % MAX_RC];
	return NULL;
}

/*
 * Poll @c: by hand once it is, else through libmlx5, recording the
 * drain markers it finds.  Returns the completions found.
 */
static unsigned int rc_poll(struct fz_rc_cq *c)
{
	struct ibv_wc wc[16];
	unsigned int total = 0, i;
	struct fz_rc *r;
	int n;

	if (!c->cq)
		return 0;
	if (c->hand) {
		total = poll_cq(&c->v);
		stat_add(FZ_RC_HAND, total);
		return total;
	}
	while (total < 256) {
		n = ibv_poll_cq(c->cq, MT_ARRAY_SIZE(wc), wc);
		if (n < 0) {
			c->lost = true;
			stat_add(FZ_RC_POLL_ERR, 1);
		}
		if (n <= 0)
			break;
		for (i = 0; i < (unsigned int)n; i++) {
			stat_add(wc[i].status ? FZ_RC_ERR : FZ_RC_OK, 1);
			stat_add(FZ_RC_WC + wc[i].status % 32, 1);
			r = wc[i].status ? rc_find(wc[i].qp_num) : NULL;
			if (r)
				r->failed = true;
			if (!(wc[i].wr_id & MARK))
				continue;
			r = &M.rc[((wc[i].wr_id & ~MARK) >> 1) % MAX_RC];
			r->marks |= 1 << (wc[i].wr_id & 1);
		}
		total += n;
	}
	return total;
}

static void rc_poll_all(void)
{
	unsigned int i;

	for (i = 0; i < MAX_RC; i++)
		rc_poll(&M.rcq[i]);
}

/*
 * A CQ for RC QPs in a free slot: mostly roomy, now and then tiny.  Not
 * given to mlx5dv_init_obj() until it is polled by hand: that marks it
 * the application's, and libmlx5 then no longer takes a destroyed QP's
 * CQEs out of it (__mlx5_cq_clean()), which its polls would fail on.
 */
static int rc_cq_new(void)
{
	struct fz_rc_cq *c;
	unsigned int i;

	for (i = 0; i < MAX_RC && M.rcq[i].cq; i++)
		;
	if (i == MAX_RC)
		return -1;
	c = &M.rcq[i];
	memset(c, 0, sizeof(*c));
	cov_start();
	c->cq = ibv_create_cq(w.ctx, below(8) ? 1023 : below(2) ? 1 + below(64) :
			      rnd() % 5000, NULL, NULL, 0);
	ran(c->cq != NULL);
	if (!c->cq)
		return -1;
	c->cap = c->cq->cqe + 1;
	note("cq %d: %u entries", i, c->cap);
	return i;
}

static void rc_cq_put(unsigned int i, bool destroy)
{
	struct fz_rc_cq *c = &M.rcq[i];

	if (c->users)
		c->users--;
	if (c->users || !c->cq || !destroy)
		return;
	cov_start();
	ran(!ibv_destroy_cq(c->cq));
	note("cq %u: destroyed (%s)", i, w.ok ? "ok" : strerror(errno));
	c->cq = NULL;
}

/*
 * An RC (now and then UC) QP on CQ @cq, in a free slot.  Never without a
 * send or a receive queue: a DEVX SQ or RQ of the context may name one
 * of its CQs (user index 0, or any), and libmlx5, which finds a CQE's QP
 * by user index, then reads the wr_id of a queue the QP lacks (NULL).
 */
static struct fz_rc *rc_qp_new(int cq)
{
	struct ibv_qp_init_attr a = {
		.qp_type = below(16) ? IBV_QPT_RC : IBV_QPT_UC,
		.sq_sig_all = !below(4),
		.cap = {
			.max_send_wr = below(8) ? 1 + below(64) :
				       1 + rnd() % 4096,
			.max_recv_wr = below(8) ? 1 + below(64) :
				       1 + rnd() % 4096,
			.max_send_sge = below(8) ? 1 + below(8) : below(64),
			.max_recv_sge = below(8) ? 1 + below(8) : below(64),
			.max_inline_data = below(2) ? 0 : below(4) ?
					   below(256) : below(2048),
		},
	};
	struct mlx5dv_qp dq = {};
	struct mlx5dv_obj o = { .qp = { .out = &dq } };
	struct fz_rc *r;
	unsigned int i;

	if (cq < 0)
		return NULL;
	for (i = 0; i < MAX_RC && M.rc[i].qp; i++)
		;
	if (i == MAX_RC)
		return NULL;
	r = &M.rc[i];
	memset(r, 0, sizeof(*r));
	a.send_cq = a.recv_cq = M.rcq[cq].cq;
	cov_start();
	r->qp = ibv_create_qp(M.pd, &a);
	ran(r->qp != NULL);
	if (!r->qp)
		return NULL;
	o.qp.in = r->qp;
	if (mlx5dv_init_obj(&o, MLX5DV_OBJ_QP)) {
		cov_start();
		ran(!ibv_destroy_qp(r->qp));
		r->qp = NULL;
		return NULL;
	}
	r->cq = cq;
	M.rcq[cq].users++;
	r->max_sge = a.cap.max_send_sge;
	r->max_rsge = a.cap.max_recv_sge;
	r->need = dq.sq.wqe_cnt + dq.rq.wqe_cnt;
	r->sq = (struct fz_queue){
		.kind = QK_SQ, .id = r->qp->qp_num, .log_stride = 6,
		.log_n = log2u(dq.sq.wqe_cnt), .dbr = (uint32_t *)dq.dbrec,
		.ring = dq.sq.wqe_cnt ? dq.sq.buf : NULL,
	};
	r->rq = (struct fz_queue){
		.kind = QK_RQ, .id = r->qp->qp_num,
		.log_n = log2u(dq.rq.wqe_cnt), .log_stride = log2u(dq.rq.stride),
		.dbr = (uint32_t *)dq.dbrec,
		.ring = dq.rq.wqe_cnt ? dq.rq.buf : NULL,
	};
	note("qp %#x: %s on cq %u, sq %u bbs, rq %u x %u bytes, sge %u/%u",
	     r->qp->qp_num, a.qp_type == IBV_QPT_RC ? "RC" : "UC", cq,
	     dq.sq.wqe_cnt, dq.rq.wqe_cnt, dq.rq.stride, r->max_sge,
	     r->max_rsge);
	return r;
}

static bool rc_move(struct fz_rc *r, struct ibv_qp_attr *a, int mask)
{
	cov_start();
	ran(!ibv_modify_qp(r->qp, a, mask));
	if (!w.ok)
		note("qp %#x: to %d (mask %#x): %s", r->qp->qp_num, a->qp_state,
		     mask, strerror(errno));
	if (w.ok && a->qp_state == IBV_QPS_RESET) {
		/* libmlx5 cleared the doorbell record, the device its count */
		r->sq.pi = r->rq.pi = 0;
		set_posted(r, false);
	}
	return w.ok;
}

/* The index of the port's first GID, looked up once a context; or -1. */
static int rc_gid(void)
{
	union ibv_gid gid;
	int i;

	for (i = 0; !M.gid && i < 16; i++)	/* M.gid: index + 1, 0, -1 */
		if (!ibv_query_gid(w.ctx, 1, i, &gid) &&
		    (gid.global.subnet_prefix || gid.global.interface_id))
			M.gid = i + 1;
	if (!M.gid)
		M.gid = -1;
	return M.gid > 0 ? M.gid - 1 : -1;
}

/*
 * RESET (from any state), INIT, RTR, RTS, connected to @dest.  A clean
 * QP as ibv_rc_pingpong connects it, with every access and rnr_retry 7;
 * else with every access mostly, or random flags, rnr_retry and
 * min_rnr_timer mostly short, now and then any (7 retries without end, 0
 * is 655 ms), other attributes now and then out of range, and now and
 * then left in INIT or RTR.
 */
static void rc_connect(struct fz_rc *r, uint32_t dest)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };
	bool uc = r->qp->qp_type == IBV_QPT_UC, any = !r->clean;
	int access = !any || below(4) ? ALL_ACCESS : (int)(rnd() & 0xf);
	uint8_t rnr_retry = !any ? 7 : below(4) ? below(2) ? 7 : 1 + below(3) :
			    below(8);
	uint8_t timer = !any || below(8) ? 1 + below(3) : below(32);
	int gid = rc_gid();

	note("qp %#x: connect to %#x, access %#x, rnr_retry %u, timer %u",
	     r->qp->qp_num, dest, access, rnr_retry, timer);
	r->dest = dest;
	rc_move(r, &a, IBV_QP_STATE);
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_INIT,
		.port_num = !any || below(16) ? 1 : below(3),
		.qp_access_flags = access,
	};
	if (!rc_move(r, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		     IBV_QP_ACCESS_FLAGS) || (any && !below(32)))
		return;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = !any || below(16) ? IBV_MTU_1024 : 1 + below(6);
	a.dest_qp_num = dest;
	a.rq_psn = rnd() & 0xffffff;
	a.max_dest_rd_atomic = !any || below(16) ? 1 : below(32);
	a.min_rnr_timer = timer;
	a.ah_attr.is_global = !any || below(32);
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.grh.sgid_index = gid < 0 || (any && !below(32)) ?
				   (int)below(4) : gid;
	ibv_query_gid(w.ctx, 1, a.ah_attr.grh.sgid_index, &a.ah_attr.grh.dgid);
	/* UC: no responder resources, no RNR */
	if (!rc_move(r, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		     (uc ? 0 : IBV_QP_MAX_DEST_RD_ATOMIC |
		      IBV_QP_MIN_RNR_TIMER)) || (any && !below(32)))
		return;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = !any || below(16) ? 14 : below(32);
	a.retry_cnt = !any || below(16) ? 7 : below(8);
	a.rnr_retry = rnr_retry;
	a.sq_psn = rnd() & 0xffffff;
	a.max_rd_atomic = !any || below(16) ? 1 : below(32);
	rc_move(r, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
		(uc ? 0 : IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
		 IBV_QP_MAX_QP_RD_ATOMIC));
}

/* rc_connect(), and where it stopped */
static void rc_connect_note(struct fz_rc *r, uint32_t dest)
{
	rc_connect(r, dest);
	note("qp %#x: now in state %d", r->qp->qp_num, r->qp->state);
}

/*
 * Whom @r connects to: @peer if it is clean, else mostly, or a QP number
 * random or stale, or another of the worker's QPs.
 */
static uint32_t rc_dest(struct fz_rc *r, uint32_t peer)
{
	struct fz_rc *o;

	switch (r->clean ? 15 : below(16)) {
	case 0:
		return below(2) ? below(512) : rnd() & 0xffffff;
	case 1:
		return M.stale[below(MT_ARRAY_SIZE(M.stale))];
	case 2:
		o = rc_pick();
		return o ? o->qp->qp_num : peer;
	default:
		return peer;
	}
}

/* Two QPs on one CQ or two, connected to each other (mostly). */
static void rc_pair(void)
{
	struct fz_rc *a, *b;
	int c0, c1;

	if (!pd_get())
		return;
	c0 = rc_cq_new();
	c1 = below(4) ? rc_cq_new() : c0;
	a = rc_qp_new(c0);
	b = rc_qp_new(c1 < 0 ? c0 : c1);
	if (a && b) {
		a->clean = b->clean = below(2);
		rc_connect_note(a, rc_dest(a, b->qp->qp_num));
		rc_connect_note(b, rc_dest(b, a->qp->qp_num));
	} else if (a) {
		rc_connect_note(a, rc_dest(a, a->qp->qp_num));
	}
	/* a CQ no QP took */
	if (c0 >= 0 && !M.rcq[c0].users)
		rc_cq_put(c0, true);
	if (c1 >= 0 && c1 != c0 && !M.rcq[c1].users)
		rc_cq_put(c1, true);
}

static void rc_destroy(struct fz_rc *r)
{
	unsigned int cq = r->cq;

	note("qp %#x: destroy (posted %d)", r->qp->qp_num, r->posted);
	if (!below(8) && M.rcq[cq].cq) {	/* refused: the QP uses it */
		cov_start();
		ran(!ibv_destroy_cq(M.rcq[cq].cq));
		if (w.ok) {
			fprintf(stderr, "fuzz: a CQ in use was destroyed\n");
			M.rcq[cq].cq = NULL;
		}
	}
	M.stale[below(MT_ARRAY_SIZE(M.stale))] = r->qp->qp_num;
	cov_start();
	ran(!ibv_destroy_qp(r->qp));
	note("qp %#x: destroyed (%s)", r->qp->qp_num,
	     w.ok ? "ok" : strerror(errno));
	set_posted(r, false);
	r->qp = NULL;
	rc_cq_put(cq, below(2));
}

/* A WR's SGEs: @n of them; inline ones from the process's own memory. */
static void rc_sges(struct ibv_sge *s, unsigned int n, bool inl, bool rx,
		    int good)
{
	static __thread uint8_t src[4096];
	unsigned int i, off;

	for (i = 0; i < n; i++) {
		if (inl) {	/* libmlx5 copies these: readable memory only */
			off = below(sizeof(src));
			s[i].addr = (uintptr_t)src + off;
			s[i].length = below(sizeof(src) - off + 1);
			if (below(4))
				s[i].length %= 128;
			s[i].lkey = rnd();
			continue;
		}
		pick_key(false, good, &s[i].lkey, &s[i].addr, &s[i].length);
		if (rx && i && !below(8))
			s[i].length = 0;
		/* a clean pair's receives take what its sends mostly are */
		if (rx && good > 1 && M.work.mr && s[i].lkey == M.work.mr->lkey)
			s[i].length = below(8) ? 64 << 10 : BIG;
		if (rx && good > 1 && s[i].addr + s[i].length >
		    (uintptr_t)M.work.base + M.work.len)
			s[i].addr = (uintptr_t)M.work.base + M.work.len -
				    s[i].length;
	}
}

/*
 * One large valid WR, now and then: SEND, RDMA WRITE or READ of up to
 * BIG bytes between two halves of MRs with every access, which the
 * model copies in several turns.
 */
static bool rc_big(struct ibv_send_wr *wr, struct ibv_sge *s)
{
	struct ibv_mr *a = M.work.mr && below(2) ? M.work.mr :
			   M.nmrs ? M.mrs[below(M.nmrs)] : NULL;
	struct ibv_mr *b = M.work.mr && below(2) ? M.work.mr :
			   M.nmrs ? M.mrs[below(M.nmrs)] : NULL;
	uint32_t len;

	if (!a || !b || a->length < 2 || b->length < 2)
		return false;
	len = a->length / 2 < b->length / 2 ? a->length / 2 : b->length / 2;
	if (len > BIG)
		len = BIG;
	*s = (struct ibv_sge){ (uintptr_t)a->addr, len, a->lkey };
	wr->sg_list = s;
	wr->num_sge = 1;
	wr->opcode = below(3) ? below(2) ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ :
		     IBV_WR_SEND;
	wr->wr.rdma.remote_addr = (uintptr_t)b->addr + b->length - len;
	wr->wr.rdma.rkey = b->rkey;
	return true;
}

/* 1..8 send WRs of any opcode through libmlx5. */
static void rc_post_send(struct fz_rc *r)
{
	static const enum ibv_wr_opcode ops[] = {
		IBV_WR_SEND, IBV_WR_SEND, IBV_WR_SEND_WITH_IMM,
		IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM,
		IBV_WR_RDMA_READ, IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP,
		IBV_WR_ATOMIC_FETCH_AND_ADD,
	};
	static __thread struct ibv_sge sge[MAX_WRS][MAX_SGE];
	struct ibv_send_wr wr[MAX_WRS], *bad = NULL;
	unsigned int n = 1 + below(MAX_WRS), i, nsge, done;
	char what[MAX_WRS + 1];
	int good = r->clean ? below(8) ? 2 : 0 : below(2);
	bool atomic, inl;
	uint32_t len;
	int err;

	memset(wr, 0, sizeof(wr));
	for (i = 0; i < n; i++) {
		wr[i].wr_id = ++M.wr_id & ~MARK;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
		wr[i].send_flags = (below(4) ? IBV_SEND_SIGNALED : 0) |
				   (below(8) ? 0 : IBV_SEND_SOLICITED) |
				   (below(8) ? 0 : IBV_SEND_FENCE);
		wr[i].imm_data = rnd();
		what[i] = 'G';	/* a big one */
		if (!below(32) && rc_big(&wr[i], sge[i]))
			continue;
		wr[i].opcode = below(32) ? ops[below(MT_ARRAY_SIZE(ops))] :
			       below(2) ? IBV_WR_SEND_WITH_INV :
			       IBV_WR_LOCAL_INV;
		what[i] = "WwSsRCFLBIT"[wr[i].opcode % 11];
		atomic = wr[i].opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
			 wr[i].opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
		inl = !atomic && wr[i].opcode != IBV_WR_RDMA_READ ?
		      !below(4) : !below(32);
		if (inl)
			wr[i].send_flags |= IBV_SEND_INLINE;
		nsge = below(8) ? below(r->max_sge + 1) : below(MAX_SGE + 1);
		if (good > 1 && nsge > 2)
			nsge = 1 + below(2);
		if (atomic && (good || below(4)))
			nsge = 1;
		if (nsge > MAX_SGE)
			nsge = MAX_SGE;
		rc_sges(sge[i], nsge, inl, false, good);
		if (atomic && (good || below(4)))
			sge[i][0].length = 8;
		wr[i].sg_list = sge[i];
		wr[i].num_sge = nsge;
		pick_key(true, good, &wr[i].wr.rdma.rkey,
			 &wr[i].wr.rdma.remote_addr, &len);
		if (atomic && good)
			wr[i].wr.atomic.remote_addr &= ~7ULL;
		if (atomic) {
			wr[i].wr.atomic.compare_add = below(2) ? below(4) : rnd();
			wr[i].wr.atomic.swap = rnd();
		}
		if (wr[i].opcode == IBV_WR_SEND_WITH_INV)
			wr[i].invalidate_rkey = wr[i].wr.rdma.rkey;
	}
	what[n] = 0;
	err = ibv_post_send(r->qp, wr, &bad);
	done = err && bad >= wr && bad < wr + n ? bad - wr : err ? 0 : n;
	note("qp %#x: post %s%s: %u posted (%s)", r->qp->qp_num, what,
	     good ? " (good)" : "", done, err ? strerror(err) : "ok");
	stat_add(FZ_RC_WRS, done);
	if (done)
		set_posted(r, true);
}

/* 1..8 receive WRs of random sizes through libmlx5. */
static void rc_post_recv(struct fz_rc *r)
{
	static __thread struct ibv_sge sge[MAX_WRS][MAX_SGE];
	struct ibv_recv_wr wr[MAX_WRS], *bad = NULL;
	unsigned int n = 1 + below(MAX_WRS), i, nsge, done;
	int good = r->clean ? below(8) ? 2 : 0 : below(2), err;

	for (i = 0; i < n; i++) {
		nsge = below(8) ? below(r->max_rsge + 1) : below(MAX_SGE + 1);
		if (good && r->max_rsge)
			nsge = 1 + below(good > 1 ? 2 : r->max_rsge);
		if (nsge > MAX_SGE)
			nsge = MAX_SGE;
		rc_sges(sge[i], nsge, false, true, good);
		wr[i] = (struct ibv_recv_wr){
			.wr_id = ++M.wr_id & ~MARK, .sg_list = sge[i],
			.num_sge = nsge, .next = i + 1 < n ? &wr[i + 1] : NULL,
		};
	}
	err = ibv_post_recv(r->qp, wr, &bad);
	done = err && bad >= wr && bad < wr + n ? bad - wr : err ? 0 : n;
	note("qp %#x: post %u receives: %u posted", r->qp->qp_num, n, done);
	stat_add(FZ_RC_RECVS, done);
	if (done)
		set_posted(r, true);
}

/*
 * A send WQE of an RC QP, by hand, at @b (WQE_MAX bytes): of any opcode,
 * mostly those the model executes; a remote address segment and an
 * atomic segment where they belong, or not; data and inline segments;
 * a size (ds) that mostly says what was written.  Returns its ds.
 */
static unsigned int rc_wqe(uint8_t *b, uint16_t idx, uint32_t qpn)
{
	static const uint8_t ops[] = {
		OP_NOP, OP_SEND, OP_SEND, OP_SEND_IMM, OP_WRITE, OP_WRITE,
		OP_WRITE_IMM, OP_READ, OP_READ, OP_CS, OP_FA, OP_SEND_INVAL,
		OP_UMR,
	};
	unsigned int off = SEG, ds, k, n, room;
	bool atomic, good = below(2);
	uint32_t key, len;
	uint64_t addr;
	uint8_t op;

	memset(b, 0, WQE_MAX);
	if (!below(32)) {		/* anything at all */
		fill(b, WQE_MAX);
		return b[7] & 0x3f;
	}
	op = below(16) ? ops[below(MT_ARRAY_SIZE(ops))] : rnd();
	atomic = op == OP_CS || op == OP_FA;
	if (op == OP_WRITE || op == OP_WRITE_IMM || op == OP_READ || atomic ||
	    !below(16)) {
		pick_key(true, good, &key, &addr, &len);
		put64(b + off, addr);
		put32(b + off + 8, key);
		off += SEG;
	}
	if (atomic || !below(16)) {
		put64(b + off, below(2) ? below(4) : rnd());
		put64(b + off + 8, rnd());
		off += SEG;
	}
	k = atomic && below(4) ? 1 : below(4) ? below(5) : below(MAX_DS);
	for (; k && off + SEG <= MAX_DS * SEG; k--) {
		room = MAX_DS * SEG - off - 4;
		if (!atomic && !below(4)) {	/* inline data */
			n = below(4) ? below(128) : below(room + 1);
			put32(b + off, INLINE_SEG | (below(16) ? n : rnd()));
			fill(b + off + 4, n);
			off += (4 + n + SEG - 1) / SEG * SEG;
			continue;
		}
		pick_key(false, good, &key, &addr, &len);
		put32(b + off, atomic && below(4) ? 8 : len);
		put32(b + off + 4, key);
		put64(b + off + 8, addr);
		off += SEG;
	}
	ds = off / SEG;
	if (!below(8))
		ds = below(MAX_DS + 1);
	if (ds > MAX_DS)
		ds = MAX_DS;
	put32(b, (below(16) ? 0 : rnd() << 24) |
	      (uint32_t)(below(16) ? idx : rnd() & 0xffff) << 8 | op);
	put32(b + 4, (below(16) ? qpn : rnd()) << 8 | ds);
	b[11] = below(4) ? CQ_UPDATE : rnd();		/* fm_ce_se */
	put32(b + 12, rnd());				/* immediate */
	if (!below(16))
		b[below(WQE_MAX)] ^= 1 << below(8);
	return ds;
}

/* 1..8 send WQEs written into the QP's ring by hand, then the record. */
static void rc_raw_send(struct fz_rc *r)
{
	static __thread uint8_t wqe[WQE_MAX];
	struct fz_queue *q = &r->sq;
	uint32_t nbb = 1U << q->log_n, i, n, ds, bbs;
	char ops[3 * MAX_WRS + 1] = "";

	if (!q->ring || !q->dbr)
		return;
	for (n = 1 + below(MAX_WRS); n; n--) {
		ds = rc_wqe(wqe, q->pi, r->qp->qp_num);
		bbs = ds ? (ds * SEG + BB - 1) / BB : 1;
		for (i = 0; i < bbs; i++)	/* wrapping at the ring's end */
			memcpy(q->ring + ((q->pi + i) & (nbb - 1)) * BB,
			       wqe + i * BB, BB);
		q->pi += bbs;
		snprintf(ops + strlen(ops), 4, "%02x ", wqe[3]);
		stat_add(FZ_RC_RAW, 1);
	}
	if (!below(64))	/* the counter moved past what was written */
		q->pi += below(8) ? 1 + below(4 * nbb) : rnd();
	__atomic_store_n(&q->dbr[1], htobe32(q->pi & 0xffff),
			 __ATOMIC_RELEASE);
	stat_add(FZ_DOORBELLS, 1);
	set_posted(r, true);
	note("qp %#x: raw send WQEs, opcodes %s, counter %#x", r->qp->qp_num,
	     ops, q->pi & 0xffff);
}

/* 1..8 receive WQEs written by hand, then the record. */
static void rc_raw_recv(struct fz_rc *r)
{
	struct fz_queue *q = &r->rq;
	uint32_t stride = 1U << q->log_stride, n, i, key, len;
	uint64_t addr;
	uint8_t *p;

	if (!q->ring || !q->dbr || q->log_stride > 12)
		return;
	for (n = 1 + below(MAX_WRS); n; n--, q->pi++) {
		p = q->ring + (q->pi & ((1U << q->log_n) - 1)) * stride;
		if (!below(16)) {
			fill(p, stride);
			continue;
		}
		for (i = 0; i + SEG <= stride; i += SEG) {
			pick_key(false, below(2), &key, &addr, &len);
			if (i && !below(4))
				key = INVALID_LKEY;
			put32(p + i, len);
			put32(p + i + 4, key);
			put64(p + i + 8, addr);
		}
		stat_add(FZ_RC_RECVS, 1);
	}
	if (!below(64))
		q->pi += below(8) ? 1 + below(4U << q->log_n) : rnd();
	__atomic_store_n(&q->dbr[0], htobe32(q->pi & 0xffff),
			 __ATOMIC_RELEASE);
	stat_add(FZ_DOORBELLS, 1);
	set_posted(r, true);
	note("qp %#x: raw receive WQEs, counter %#x", r->qp->qp_num,
	     q->pi & 0xffff);
}

/*
 * From now on QP @r's rings are written by hand: its CQ is polled by
 * hand, from where libmlx5 left it, and its counters start where
 * libmlx5's are.
 */
static void rc_go_raw(struct fz_rc *r)
{
	struct fz_rc_cq *c = &M.rcq[r->cq];
	struct mlx5dv_cq dc = {};
	struct mlx5dv_obj o = { .cq = { .in = c->cq, .out = &dc } };

	if (r->raw)
		return;
	if (c->cq && !c->hand) {
		while (rc_poll(c))
			;
		if (mlx5dv_init_obj(&o, MLX5DV_OBJ_CQ))
			return;
		c->v = (struct fz_queue){
			.kind = QK_CQ, .log_n = log2u(dc.cqe_cnt),
			.log_stride = log2u(dc.cqe_size), .ring = dc.buf,
			.dbr = (uint32_t *)dc.dbrec,
			.pi = be32toh(dc.dbrec[0]) & 0xffffff,
		};
		c->hand = true;
	}
	r->raw = true;
	r->sq.pi = be32toh(r->sq.dbr[1]) & 0xffff;
	r->rq.pi = be32toh(r->rq.dbr[0]) & 0xffff;
	note("qp %#x: raw from send %#x receive %#x", r->qp->qp_num,
	     r->sq.pi, r->rq.pi);
}

/* The QP's state, as the kernel reports it, or -1. */
static int rc_state(struct fz_rc *r)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (ibv_query_qp(r->qp, &a, IBV_QP_STATE, &ia))
		return -1;
	return a.qp_state;
}

/*
 * The first line of the model's fw/@file that starts with @want, or "";
 * to stderr too with @show.
 */
static void rc_model_line(const char *file, const char *want, char *line,
			  size_t len, bool show)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5x/%s/fw/%s",
		 ibv_get_device_name(w.ctx->device), file);
	f = fopen(path, "r");
	while (f && fgets(line, len, f))
		if (!strncmp(line, want, strlen(want))) {
			if (show)
				fprintf(stderr, "fuzz:   model: %s", line);
			fclose(f);
			return;
		}
	if (f)
		fclose(f);
	*line = 0;
}

/*
 * Whether only the worker's QPs on CQ @c reference it in the model (two
 * each, its send and receive CQ), as fw/objects counts them.  A DEVX SQ,
 * RQ or QP of the context may name any CQ of it by number (the fuzzer's
 * do, a random one now and then), and its CQEs land there too: libmlx5
 * then takes them for its QPs' or fails, and markers go missing that
 * the device did complete.  Past this the CQ is the application's
 * (mlx5dv_init_obj(), for its number), so no longer checked.
 */
static bool rc_cq_own(struct fz_rc_cq *c, unsigned int qps)
{
	struct mlx5dv_cq dc = {};
	struct mlx5dv_obj o = { .cq = { .in = c->cq, .out = &dc } };
	char want[32], line[128];
	unsigned int uid, users;

	c->lost = true;
	if (mlx5dv_init_obj(&o, MLX5DV_OBJ_CQ))
		return false;
	snprintf(want, sizeof(want), "cq %#x ", dc.cqn);
	rc_model_line("objects", want, line, sizeof(line), false);
	if (sscanf(line, "cq %*x %u %u", &uid, &users) != 2)
		return false;
	fprintf(stderr, "fuzz:   model: cq %#x: uid %u, %u users, %u of them its QPs'\n",
		dc.cqn, uid, users, 2 * qps);
	return users == 2 * qps;
}

/*
 * Move @r to ERR after a marker WR on each of its rings: every WQE it
 * has is flushed or completes, so both markers must come back.  Checked
 * where no CQE can be lost: libmlx5 alone posted on the QP and polls its
 * CQ, which holds all the QPs on it may have outstanding.
 */
static void rc_drain(struct fz_rc *r)
{
	struct fz_rc_cq *c = &M.rcq[r->cq];
	unsigned int i, need = 0, qps = 0, slot = r - M.rc;
	bool unsure = c->lost;
	char want_qp[32], line[256];
	struct ibv_send_wr swr = {
		.wr_id = MARK | slot << 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *sbad;
	struct ibv_recv_wr rwr = { .wr_id = MARK | slot << 1 | 1 }, *rbad;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	uint8_t want = 0;
	long end;

	if (r->raw || !c->cq || c->hand)
		return;
	for (i = 0; i < MAX_RC; i++)
		if (M.rc[i].qp && M.rc[i].cq == r->cq) {
			need += M.rc[i].need;
			unsure |= M.rc[i].raw;
			qps++;
		}
	rc_poll(c);
	r->marks = 0;
	if (r->sq.ring && !ibv_post_send(r->qp, &swr, &sbad))
		want |= 1;
	if (r->rq.ring && !ibv_post_recv(r->qp, &rwr, &rbad))
		want |= 2;
	note("qp %#x: drain, markers %#x, cq %u of %u%s", r->qp->qp_num, want,
	     need, c->cap, c->lost ? ", cq lost" : "");
	if (!rc_move(r, &a, IBV_QP_STATE))
		return;
	end = now_ms() + (resilient ? 3000 : DRAIN_MS);
	while ((r->marks & want) != want && now_ms() < end) {
		if (!rc_poll(c))
			usleep(1000);
	}
	if ((r->marks & want) == want) {
		stat_add(FZ_RC_DRAINS, 1);
		set_posted(r, false);
		return;
	}
	if (resilient || need > c->cap || unsure || c->lost)
		return;		/* its CQEs may have been lost: not a finding */
	fprintf(stderr, "fuzz: QP %#x in ERR did not complete its markers (%#x of %#x) in %d ms; state %d, send counter %#x, receive counter %#x, CQ of %u for %u\n",
		r->qp->qp_num, r->marks & want, want, DRAIN_MS, rc_state(r),
		be32toh(r->sq.dbr[1]), be32toh(r->sq.dbr[0]), c->cap, need);
	snprintf(want_qp, sizeof(want_qp), "qp %#x ", r->qp->qp_num);
	rc_model_line("datapath", want_qp, line, sizeof(line), true);
	if (!rc_cq_own(c, qps)) {
		fprintf(stderr, "fuzz:   another object names its CQ: not a finding\n");
		stat_add(FZ_RC_FOREIGN, 1);
		return;
	}
	fprintf(stderr, "fuzz: FINDING: QP %#x never completed\n",
		r->qp->qp_num);
	trace_dump();
	stat_add(FZ_RC_STUCK, 1);
}

/* ibv_modify_qp() to a random state with random attributes. */
static void rc_modify_any(struct fz_rc *r)
{
	struct ibv_qp_attr a;
	int mask = rnd() & ((1 << 21) - 1);

	fill((uint8_t *)&a, sizeof(a));
	if (below(16)) {	/* ib_core warns of each PSN past 24 bits */
		a.rq_psn &= 0xffffff;
		a.sq_psn &= 0xffffff;
	}
	a.qp_state = below(8);
	a.cur_qp_state = below(8);
	a.ah_attr.port_num = below(3);
	if (below(2))
		mask |= IBV_QP_STATE;
	note("qp %#x: modify to %d, mask %#x", r->qp->qp_num, a.qp_state, mask);
	rc_move(r, &a, mask);
}

/* The victim's QP @qp, from any state to RTS, connected to @dest. */
static bool victim_connect(struct ibv_qp *qp, uint32_t dest)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };
	int gid = rc_gid();

	if (gid < 0 || ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return false;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_INIT, .port_num = 1 };
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.grh.sgid_index = gid;
	if (ibv_query_gid(M.gctx, 1, gid, &a.ah_attr.grh.dgid) ||
	    ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return !ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			      IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/*
 * The victim, in the guard context: two RC QPs connected to each other
 * that send from the canary (an MR with the right to write, so pinned
 * writable, that nothing ever writes) into a buffer of their own.  The
 * device handles its messages between the workers' ones: a write it
 * makes through what one of them left behind lands in the canary.
 */
static void victim_make(void)
{
	struct fz_victim *v = &M.victim;
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	unsigned int i;

	if (v->cq || !M.gpd)
		return;
	if (!v->canary.base) {
		v->canary.seed = rnd();
		v->canary.base = fenced_map(GUARD_BYTES, v->canary.seed);
		if (!v->canary.base)
			return;
		v->canary.len = GUARD_BYTES;
	}
	if (!v->rbuf) {
		v->rbuf = fenced_map(GUARD_BYTES, 0);
		if (!v->rbuf)
			return;
	}
	cov_start();
	v->canary.mr = ibv_reg_mr(M.gpd, v->canary.base, v->canary.len,
				  IBV_ACCESS_LOCAL_WRITE);
	ran(v->canary.mr != NULL);
	cov_start();
	v->rmr = ibv_reg_mr(M.gpd, v->rbuf, GUARD_BYTES,
			    IBV_ACCESS_LOCAL_WRITE);
	ran(v->rmr != NULL);
	cov_start();
	v->cq = ibv_create_cq(M.gctx, 32, NULL, NULL, 0);
	ran(v->cq != NULL);
	if (!v->canary.mr || !v->rmr || !v->cq)
		return;
	ia.send_cq = ia.recv_cq = v->cq;
	for (i = 0; i < 2; i++) {
		cov_start();
		v->qp[i] = ibv_create_qp(M.gpd, &ia);
		ran(v->qp[i] != NULL);
		if (!v->qp[i])
			return;
	}
	victim_connect(v->qp[0], v->qp[1]->qp_num);
	victim_connect(v->qp[1], v->qp[0]->qp_num);
	note("victim: qps %#x %#x, canary key %#x over %p", v->qp[0]->qp_num,
	     v->qp[1]->qp_num, v->canary.mr->lkey, v->canary.base);
}

/* The victim's completions taken; a SEND from the canary, and its receive. */
static void victim_send(void)
{
	struct fz_victim *v = &M.victim;
	struct ibv_sge s, rs = { 0, GUARD_BYTES, 0 };
	struct ibv_send_wr wr = {
		.sg_list = &s, .num_sge = 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_recv_wr rwr = { .sg_list = &rs, .num_sge = 1 }, *rbad;
	struct ibv_wc wc[8];
	bool failed = false;
	int n, i;

	if (!v->qp[0] || !v->qp[1])
		return;
	while ((n = ibv_poll_cq(v->cq, MT_ARRAY_SIZE(wc), wc)) > 0)
		for (i = 0; i < n; i++) {
			v->out -= v->out > 0;
			failed |= wc[i].status != IBV_WC_SUCCESS;
		}
	if (failed) {		/* the device is going, most likely */
		victim_connect(v->qp[0], v->qp[1]->qp_num);
		victim_connect(v->qp[1], v->qp[0]->qp_num);
		v->out = 0;
	}
	if (v->out >= 8)
		return;
	rs.addr = (uintptr_t)v->rbuf;
	rs.lkey = v->rmr->lkey;
	s.length = 1 + below(4096);
	s.addr = (uintptr_t)v->canary.base + below(GUARD_BYTES - s.length);
	s.lkey = v->canary.mr->lkey;
	if (!ibv_post_recv(v->qp[1], &rwr, &rbad) &&
	    !ibv_post_send(v->qp[0], &wr, &bad))
		v->out += 2;
}

/* The victim's QPs, CQ and MRs destroyed, its receive buffer unmapped. */
static void victim_release(void)
{
	struct fz_victim *v = &M.victim;
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (v->qp[i]) {
			cov_start();
			ran(!ibv_destroy_qp(v->qp[i]));
			v->qp[i] = NULL;
		}
	if (v->cq) {
		cov_start();
		ran(!ibv_destroy_cq(v->cq));
		v->cq = NULL;
	}
	if (v->rmr) {
		cov_start();
		ran(!ibv_dereg_mr(v->rmr));
		v->rmr = NULL;
	}
	if (v->canary.mr) {
		cov_start();
		ran(!ibv_dereg_mr(v->canary.mr));
		v->canary.mr = NULL;
	}
	if (v->rbuf)
		fenced_unmap(v->rbuf, GUARD_BYTES);
	v->rbuf = NULL;
	v->out = 0;
}

/**
 * op_rc() - RC QPs: pairs made, connected, moved, drained, destroyed;
 * MRs for them made and destroyed; the guards made and checked
 */
void op_rc(void)
{
	struct fz_rc *r;
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	w.group = FZ_RC;
	if (!w.ctx)
		return;
	r = rc_pick();
	switch (below(16)) {
	case 0:
	case 1:
	case 2:
		if (r && !below(3))
			rc_destroy(r);
		rc_pair();
		break;
	case 3:
		if (r)
			rc_connect_note(r, rc_dest(r, r->dest));
		break;
	case 4:
		if (r) {
			a = (struct ibv_qp_attr){
				.qp_state = below(2) ? IBV_QPS_ERR :
					    IBV_QPS_RESET,
			};
			note("qp %#x: to %s", r->qp->qp_num,
			     a.qp_state ? "ERR" : "RESET");
			rc_move(r, &a, IBV_QP_STATE);
		}
		break;
	case 5:
		if (r)
			rc_modify_any(r);
		break;
	case 6:
		if (r) {
			cov_start();
			ran(!ibv_query_qp(r->qp, &a, rnd() & ((1 << 21) - 1),
					  &ia));
		}
		break;
	case 7:
	case 8:
		if (r)
			rc_drain(r);
		break;
	case 9:
		if (r)
			rc_destroy(r);
		break;
	case 10:
		if (M.work.mr && below(2)) {
			work_unreg(false);
		} else if (M.nmrs) {
			note("an mr deregistered");
			mr_dereg();
		}
		break;
	case 11:
		if (r && !below(2))
			rc_go_raw(r);
		break;
	case 12:
		guard_make(below(2));
		victim_make();
		guard_check(0, false);
		guard_check(1, false);
		guard_check(2, false);
		break;
	default:
		rc_mr_reg();
		break;
	}
	rc_poll_all();
}

/**
 * op_rc_post() - RC traffic: WRs through libmlx5 on a QP and receives on
 * its peer, or WQEs by hand into a raw QP's rings; the CQs polled
 */
void op_rc_post(void)
{
	struct fz_rc *r, *peer;

	w.group = FZ_RC;
	if (!w.ctx)
		return;
	r = rc_pick();
	victim_send();
	if (!M.work.mr && below(2))
		work_make();
	if (!r || !M.nmrs || !below(64)) {
		if (!M.nmrs || !below(4))
			rc_mr_reg();
		if (!M.guard[0].mr || !M.guard[1].mr)
			guard_make(below(2));
		victim_make();
		if (!r)
			rc_pair();
		return;
	}
	rc_poll(&M.rcq[r->cq]);
	peer = rc_find(r->dest);
	if (r->clean && !r->raw && peer && !peer->raw &&
	    (r->failed || peer->failed || r->qp->state != IBV_QPS_RTS ||
	     peer->qp->state != IBV_QPS_RTS)) {
		/* a clean pair out of RTS: both connected again */
		r->failed = peer->failed = false;
		rc_connect_note(r, r->dest);
		if (peer != r)
			rc_connect_note(peer, peer->dest);
	} else if (r->failed && below(2)) {	/* in ERR, most likely */
		r->failed = false;
		rc_connect_note(r, r->dest);
	}
	if (r->raw) {
		if (below(3))
			rc_raw_send(r);
		else
			rc_raw_recv(r);
	} else {
		peer = rc_find(r->dest);
		if (peer && !peer->raw && below(2))
			rc_post_recv(peer);
		if (below(4))
			rc_post_send(r);
		else
			rc_post_recv(r);
	}
	rc_poll_all();
}

/*
 * Before the context closes: the QPs destroyed (one time in four left
 * for the close to destroy, with what they hold), their CQs; the guards
 * deregistered and checked, the guard context closed.
 */
void rc_release(void)
{
	bool leave = !below(4);
	unsigned int i;

	w.group = FZ_RC;
	for (i = 0; i < MAX_RC; i++) {
		if (!M.rc[i].qp)
			continue;
		set_posted(&M.rc[i], false);
		if (!leave) {
			cov_start();
			ran(!ibv_destroy_qp(M.rc[i].qp));
		}
		M.rc[i].qp = NULL;
	}
	for (i = 0; i < MAX_RC; i++) {
		if (M.rcq[i].cq && !leave) {
			cov_start();
			ran(!ibv_destroy_cq(M.rcq[i].cq));
		}
		memset(&M.rcq[i], 0, sizeof(M.rcq[i]));
	}
	work_unreg(true);
	guard_unreg(0);
	guard_unreg(1);
	victim_release();
	if (M.gpd) {
		cov_start();
		ran(!ibv_dealloc_pd(M.gpd));
		M.gpd = NULL;
	}
	if (M.gctx)
		ibv_close_device(M.gctx);
	M.gctx = NULL;
	guard_check(0, true);
	guard_check(1, true);
	guard_check(2, true);
	M.gid = 0;
	M.wr_id = 0;
	ntrace = 0;
}
