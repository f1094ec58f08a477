// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: drive every uverbs method mlx5x serves with random and
 * mutated attributes from several processes, bounded in time and count.
 *
 * Each worker opens a DEVX context and, call after call, picks a method:
 * DEVX object create/modify/query/destroy and the general command (valid
 * PRM headers, random or mutated bodies, random opcodes, lengths at and
 * around the edges), the async query and its FD, event FDs and
 * subscriptions, UARs, PDs, port and EQN/UAR queries, random method and
 * attribute ids; what an unprivileged process puts the device to work on
 * (mlx5x_fuzz_mem.c, mlx5x_fuzz_wqe.c): UMEMs over memory of every kind
 * (huge-page aligned, read-only, a read-only file mapping) with random
 * page size bitmaps, offsets, lengths and access, DEVX CQs, RQs, SQs,
 * mkeys and TIRs over them, raw packet QPs, MRs and verbs flows, and
 * send and receive WQEs of random size and content written into their
 * rings, doorbell records moved and CQs polled; RC traffic
 * (mlx5x_fuzz_rc.c): pairs of RC QPs connected to each other or to any
 * QP number, WRs of every opcode over the worker's MRs and any key
 * through libmlx5, and WQEs written by hand into their rings, with
 * guards no write may reach; and, for about a
 * quarter of the calls (mlx5x_fuzz_fs.c), flow matchers,
 * mlx5dv flows through them (to DEVX objects, QPs, DROP, DEFAULT_MISS,
 * with tags, DEVX counters and flow actions), modify header and packet
 * reformat flow actions, steering anchors, and device memory (MEMIC and
 * SW ICM allocation, free, query, MEMIC operation windows); and closing
 * the whole context with whatever it holds.  With KCOV
 * (/sys/kernel/debug/kcov) each call's coverage is collected (with
 * MLX5X_FUZZ_PCS=FILE in the environment, the PCs covered are written
 * there at the end); a mailbox
 * (or a match mask, modify header action list or reformat header) that
 * reached new code joins the worker's corpus, which later calls mutate.
 * Coverage counts distinct call sites in mlx5x's .text.
 *
 * Usage: mlx5x_fuzz [-p PROCS] [-T THREADS] [-t SECONDS] [-n CALLS]
 *		    [-s SEED] [-r] [-k MS]
 * -T: threads per process, each with its own context; -r: the device may
 * go away and come back (the stress test): a context that fails to open
 * or sees EIO is reopened until the time is up; -k: every MS ms or so
 * (0.5 to 1.5 times) a worker process is killed (SIGKILL), whatever it
 * is doing, its traffic in flight, and another takes its place.
 * Stops by itself at the first bound reached; prints the calls' errnos,
 * overall and per group of methods, the WQEs written and the model's
 * data path figures (fw/datapath), then
 * "fuzz: N calls in T s, P processes, coverage C PCs" and exits 0 unless
 * a worker died by a signal (other than -k's) or could not run, or memory
 * a worker mapped read-only (and registered without write access) or a
 * guard (mlx5x_fuzz_rc.c) was found changed, or an RC QP in error did
 * not complete what it held.
 * The data path runs in the model's worker thread, and in the call
 * whose doorbell store traps (mlx5x_sim_rung()): KCOV sees it there, in
 * the calls that post through libmlx5 under cov_start() and ran().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "mlx5x_fuzz.h"
#include "mlx5x_test.h"

#define KCOV_INIT_TRACE		_IOR('c', 1, unsigned long)
#define KCOV_ENABLE		_IO('c', 100)
#define KCOV_DISABLE		_IO('c', 101)
#define KCOV_TRACE_PC		0
#define KCOV_WORDS		(64 << 10)

#define TEXT_MAX	(4 << 20)	/* bytes of .text the bitmap covers */
/* counters of a group: calls, successes, then failures by errno */
#define COUNTERS	(2 + 256)

__thread struct fuzz_worker w;

static const char *dev_name;
bool resilient;
static unsigned int nthreads = 1;
struct fz_pub *fz_pubs;
int *fz_busy;

/*
 * Shared between workers: coverage bitmap, call counters (shared_calls[0]
 * counts every call) and, behind them, the counters of each group.
 */
static uint8_t *cover;
static unsigned long long *shared_calls;
static const char *const group_names[FZ_GROUPS] = {
	[FZ_OTHER] = "DEVX, UMEM, UAR, FDs, queries",
	[FZ_MATCHER] = "flow matchers",
	[FZ_FLOW] = "mlx5dv flows",
	[FZ_ACTION] = "flow actions",
	[FZ_ANCHOR] = "steering anchors",
	[FZ_DM] = "device memory",
	[FZ_UMEM] = "UMEMs",
	[FZ_QUEUE] = "DEVX queues and mkeys over UMEMs",
	[FZ_RAW] = "raw packet QPs, CQs, MRs, verbs flows",
	[FZ_RC] = "RC QPs, their CQs, MRs and guards",
	[FZ_UMR] = "UMR: mkeys, DEKs, their configuration and traffic",
};
static unsigned long long *shared_stats;
static uint64_t text_base, text_len;

uint64_t rnd(void)
{
	w.rng ^= w.rng << 13;
	w.rng ^= w.rng >> 7;
	w.rng ^= w.rng << 17;
	return w.rng;
}

unsigned int below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static unsigned int min_len(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/*
 * Lengths at and around the edges of a mailbox of @unit bytes, at most
 * MAX_MBOX (the buffers' size): a mutated corpus input of 2 bytes once
 * came out as 2 - 4, wrapped, and the mutations after wrote past the
 * buffer (a worker's SIGSEGV, only with KCOV, where a corpus exists).
 */
unsigned int edge_len(unsigned int unit)
{
	static const unsigned int edges[] = {
		0, 1, 7, 8, 15, 16, 17, 64, 256, 512, 1024, 4095, 4096, 4097,
	};

	unsigned int d;

	switch (below(4)) {
	case 0:
		return edges[below(MT_ARRAY_SIZE(edges))];
	case 1:
		/* unit - 4 .. unit + 4, never below 0 nor past the buffers */
		d = below(9);
		if (unit + d < 4 || unit + d - 4 > MAX_MBOX)
			return min_len(unit, MAX_MBOX);
		return unit + d - 4;
	default:
		return 16 + below(MAX_MBOX - 16) / 4 * 4;
	}
}

void attr_in(struct call *c, uint16_t id, const void *p, size_t len)
{
	struct ib_uverbs_attr *a = &c->attrs[c->hdr.num_attrs++];

	memset(a, 0, sizeof(*a));
	a->attr_id = id;
	a->len = len;
	if (len <= sizeof(a->data))
		memcpy(&a->data, p, len);
	else
		a->data = (uintptr_t)p;
}

void attr_out(struct call *c, uint16_t id, void *p, size_t len)
{
	struct ib_uverbs_attr *a = &c->attrs[c->hdr.num_attrs];

	c->outs |= 1U << c->hdr.num_attrs++;

	memset(a, 0, sizeof(*a));
	a->attr_id = id;
	a->len = len;
	a->data = (uintptr_t)p;
}

void attr_val(struct call *c, uint16_t id, uint64_t val)
{
	struct ib_uverbs_attr *a = &c->attrs[c->hdr.num_attrs++];

	memset(a, 0, sizeof(*a));
	a->attr_id = id;
	a->data = val;
}

/* A number of @len bytes, inline (CONST_IN, FLAGS_IN). */
void attr_num(struct call *c, uint16_t id, uint64_t val, size_t len)
{
	attr_in(c, id, &val, len);
}

void call_init(struct call *c, uint16_t obj, uint16_t method)
{
	memset(&c->hdr, 0, sizeof(c->hdr));
	c->outs = 0;
	c->hdr.object_id = obj;
	c->hdr.method_id = method;
	c->hdr.driver_id = RDMA_DRIVER_MLX5;
}

/* Count a call's outcome in @k: calls, successes, failures by errno. */
static void count(unsigned long long *k, bool ok, int err)
{
	if (ok)
		__atomic_fetch_add(&k[1], 1, __ATOMIC_RELAXED);
	else if (err < 256)
		__atomic_fetch_add(&k[2 + err], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(k, 1, __ATOMIC_RELAXED);
}

/* Forget what KCOV gathered: what it gathers from now on is one call's. */
void cov_start(void)
{
	if (w.kcov)
		__atomic_store_n(&w.kcov[0], 0, __ATOMIC_RELAXED);
}

/*
 * A call has been made since cov_start(), succeeded (@ok) or failed with
 * errno: count it, and fold what KCOV gathered into the bitmap.  Also for
 * the calls libibverbs and libmlx5 make.  Returns true if it reached code
 * no call had reached.
 */
bool ran(bool ok)
{
	int err = errno;
	unsigned long n, i;
	bool fresh = false;

	w.ok = ok;
	count(shared_calls, w.ok, err);
	count(shared_calls + COUNTERS * (1 + w.group), w.ok, err);
	errno = err;
	if (!w.kcov)
		return false;
	n = __atomic_load_n(&w.kcov[0], __ATOMIC_RELAXED);
	for (i = 0; i < n && i < KCOV_WORDS - 1; i++) {
		uint64_t off = w.kcov[i + 1] - text_base;
		uint8_t bit;

		if (off >= text_len)
			continue;
		bit = 1 << (off % 8);
		if (!(__atomic_fetch_or(&cover[off / 8], bit,
					__ATOMIC_RELAXED) & bit))
			fresh = true;
	}
	return fresh;
}

/* Run one ioctl under KCOV; true if it reached code no call had reached. */
bool run(struct call *c)
{
	c->hdr.length = sizeof(c->hdr) + c->hdr.num_attrs * sizeof(c->attrs[0]);
	cov_start();
	w.ok = false;
	if (!w.ctx)
		return false;
	/* uverbs writes a new handle or FD back even if the call then fails */
	return ran(!ioctl(w.fd, RDMA_VERBS_IOCTL, c));
}

void stat_add(enum fz_stat st, unsigned long long n)
{
	__atomic_fetch_add(&shared_stats[st], n, __ATOMIC_RELAXED);
}

uint32_t pick(uint32_t *h, unsigned int n)
{
	return n && below(8) ? h[below(n)] : rnd() % 200;
}

void drop(uint32_t *h, unsigned int *n, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (h[i] == id) {
			h[i] = h[--*n];
			return;
		}
}

static void op_uar(void)
{
	uint32_t page, len;	/* MMAP_LENGTH is a u32: 8 bytes are refused */
	uint64_t off;
	struct call c;

	if (w.nuars && below(2)) {
		uint32_t h = pick(w.uars, w.nuars);

		call_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_DESTROY);
		attr_val(&c, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, h);
		run(&c);
		drop(w.uars, &w.nuars, h);
		return;
	}
	call_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
	attr_val(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, 0);
	attr_num(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE,
		 below(4) ? below(2) : rnd(), below(16) ? 8 : 4);
	attr_out(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &page, sizeof(page));
	attr_out(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &len, sizeof(len));
	attr_out(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off, sizeof(off));
	run(&c);
	if (w.ok && w.nuars < MAX_HANDLES)
		w.uars[w.nuars++] = c.attrs[0].data;
}

static void op_queries(void)
{
	uint32_t user = below(4) ? below(4) : rnd(), dev = 0;
	uint8_t port = below(4), pbuf[256];
	struct call c;

	switch (below(4)) {
	case 0:
		call_init(&c, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_EQN);
		attr_in(&c, MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, &user, 4);
		attr_out(&c, MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN, &dev, 4);
		break;
	case 1:
		call_init(&c, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_UAR);
		attr_in(&c, MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX, &user, 4);
		attr_out(&c, MLX5_IB_ATTR_DEVX_QUERY_UAR_DEV_IDX, &dev, 4);
		break;
	case 2:
		call_init(&c, UVERBS_OBJECT_DEVICE, MLX5_IB_METHOD_QUERY_PORT);
		attr_in(&c, MLX5_IB_ATTR_QUERY_PORT_PORT_NUM, &port, 1);
		attr_out(&c, MLX5_IB_ATTR_QUERY_PORT, pbuf, edge_len(64) % 256);
		break;
	default: {	/* any method, any attributes */
		uint64_t blob[8];
		unsigned int i, n = below(MAX_ATTRS);

		for (i = 0; i < 8; i++)
			blob[i] = rnd();
		call_init(&c, below(2) ? (1U << UVERBS_ID_NS_SHIFT) + below(12) :
			  below(24), (1U << UVERBS_ID_NS_SHIFT) * below(2) + below(8));
		for (i = 0; i < n; i++) {
			uint16_t id = (1U << UVERBS_ID_NS_SHIFT) * below(2) +
				      below(8);

			if (below(2))
				attr_val(&c, id, rnd() % 64);
			else if (below(2))
				attr_num(&c, id, rnd(), 1 << below(4));
			else
				attr_in(&c, id, blob, below(sizeof(blob) + 1));
		}
		break;
	}
	}
	run(&c);
}

static int ctx_open(void)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_device **list;
	int i, n;

	w.ctx = NULL;
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev_name))
			w.ctx = mlx5dv_open_device(list[i], &attr);
	if (list)
		ibv_free_device_list(list);
	if (!w.ctx)
		return -1;
	w.fd = w.ctx->cmd_fd;
	return 0;
}

/* Close the context with whatever it holds: the driver must free it all. */
static void ctx_close(void)
{
	if (w.async_fd >= 0)
		close(w.async_fd);
	if (w.event_fd >= 0)
		close(w.event_fd);
	w.async_fd = w.event_fd = -1;
	ud_release();
	umr_release();
	rc_release();
	raw_release();
	while (w.npds)
		ibv_dealloc_pd(w.pds[--w.npds]);
	if (w.ctx)
		ibv_close_device(w.ctx);
	w.ctx = NULL;
	w.nobjs = w.nuars = 0;
	w.nmatchers = w.nactions = w.nflows = w.nanchors = w.ndms = 0;
	mem_reset();
}

struct job {
	unsigned int proc;
	uint64_t seed;
	time_t end;
	unsigned long long max;
	int rc;
};

static void *fuzz_thread(void *arg)
{
	static void (*const ops[])(void) = {
		op_obj_create, op_obj_create, op_obj_create, op_obj_destroy,
		op_obj_cmd, op_obj_cmd, op_async, op_events, op_uar,
		op_queries, op_pd,
		/* steering, anchors and device memory */
		op_matcher, op_flow, op_flow, op_action, op_anchor, op_dm,
		/* umems, queues over them, raw QPs and their WQEs */
		op_umem, op_umem, op_queue, op_queue, op_queue, op_wqe,
		op_wqe, op_raw,
		/* RC QPs and their traffic */
		op_rc, op_rc_post, op_rc_post,
		/* UD QPs, an SRQ and their traffic */
		op_ud, op_ud_post,
		/* mkeys configured by UMR, and traffic through them */
		op_umr, op_umr, op_umr,
	};
	struct job *j = arg;

	w.async_fd = w.event_fd = w.kcov_fd = -1;
	w.rng = j->seed | 1;
	w.slot = j->seed % FZ_PUBS;
	w.proc = j->proc;
	w.kcov_fd = text_len ? open("/sys/kernel/debug/kcov", O_RDWR) : -1;
	if (w.kcov_fd >= 0 &&
	    !ioctl(w.kcov_fd, KCOV_INIT_TRACE, KCOV_WORDS)) {
		w.kcov = mmap(NULL, KCOV_WORDS * 8, PROT_READ | PROT_WRITE,
			      MAP_SHARED, w.kcov_fd, 0);
		if (w.kcov == MAP_FAILED ||
		    ioctl(w.kcov_fd, KCOV_ENABLE, KCOV_TRACE_PC))
			w.kcov = NULL;
	}
	if (ctx_open() && !resilient) {
		j->rc = 2;
		return NULL;
	}
	while (time(NULL) < j->end &&
	       __atomic_load_n(shared_calls, __ATOMIC_RELAXED) < j->max) {
		if (!w.ctx) {	/* resilient: the device is away */
			usleep(20000);
			ctx_open();
			continue;
		}
		errno = 0;
		w.group = FZ_OTHER;
		ops[below(MT_ARRAY_SIZE(ops))]();
		if (!below(500) || (resilient && errno == EIO)) {
			ctx_close();
			if (ctx_open() && !resilient) {
				j->rc = 2;
				return NULL;
			}
		}
	}
	ctx_close();
	j->rc = 0;
	return NULL;
}

static int worker(unsigned int proc, uint64_t seed, time_t end,
		  unsigned long long max)
{
	struct job jobs[64];
	pthread_t th[64];
	unsigned int i, n = nthreads > 64 ? 64 : nthreads;
	int rc = 0;

	for (i = 0; i < n; i++) {
		jobs[i] = (struct job){ proc, seed * 31 + i, end, max, 2 };
		if (pthread_create(&th[i], NULL, fuzz_thread, &jobs[i]))
			return 2;
	}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		rc |= jobs[i].rc;
	}
	return rc;
}

/* mlx5x's .text: where KCOV's PCs are counted (root only). */
static void text_range(void)
{
	FILE *f = fopen("/sys/module/mlx5x/sections/.text", "r");
	unsigned long long base = 0;

	if (f && fscanf(f, "%llx", &base) == 1 && base) {
		text_base = base;
		text_len = TEXT_MAX;
	}
	if (f)
		fclose(f);
	if (access("/sys/kernel/debug/kcov", R_OK))
		text_len = 0;
}

/*
 * The offsets in mlx5x's .text of the PCs covered, a line each in hex,
 * into the file $MLX5X_FUZZ_PCS names (if it does), for per-file figures
 * (scripts/vm/fuzz-cover.py).
 */
static void dump_pcs(void)
{
	const char *path = getenv("MLX5X_FUZZ_PCS");
	unsigned int i, b;
	FILE *f;

	if (!path || !text_len)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	for (i = 0; i < TEXT_MAX / 8; i++)
		for (b = 0; cover[i] && b < 8; b++)
			if (cover[i] & 1 << b)
				fprintf(f, "%x\n", i * 8 + b);
	fclose(f);
}

/* " succeeded N; EINVAL N; ...": the outcomes counted in @k, a line */
static void print_counts(const unsigned long long *k)
{
	unsigned int i;

	printf(" succeeded %llu;", k[1]);
	for (i = 0; i < 256; i++)
		if (k[2 + i])
			printf(" %s %llu;", strerrorname_np(i), k[2 + i]);
	printf("\n");
}

/* "#   @what completions: STATUS N; ...": those counted from @first */
static void print_wcs(const char *what, unsigned int first)
{
	unsigned int i;

	printf("#   %s completions:", what);
	for (i = 0; i < 32; i++)
		if (shared_stats[first + i])
			printf(" %s %llu;", ibv_wc_status_str(i),
			       shared_stats[first + i]);
	printf("\n");
}

/* Whether a worker process that ended by itself (@st) failed; says so. */
static bool worker_failed(int st)
{
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return false;
	fprintf(stderr, "fuzz: a worker %s %d\n",
		WIFEXITED(st) ? "exited" : "died by signal",
		WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return true;
}

static pid_t spawn(unsigned int proc, uint64_t seed, time_t end,
		   unsigned long long max)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(worker(proc, seed, end, max));
	return pid < 0 ? 0 : pid;
}

/*
 * -k: until @end, every @ms ms or so (0.5 to 1.5 times) kill one of the
 * worker processes @pids, whatever it is doing, with the traffic it made
 * in flight, and start another in its place.  Returns how many of those
 * it found ended by themselves, and failed.
 */
static unsigned int killer(pid_t *pids, unsigned int procs, unsigned int ms,
			   uint64_t seed, time_t end, unsigned long long max)
{
	unsigned int bad = 0, kills = 0, i;
	bool busy;
	int st;

	w.rng = seed | 1;
	while (time(NULL) + 1 < end) {
		usleep((ms / 2 + below(ms + 1)) * 1000ULL);
		i = below(procs);
		if (!pids[i] || time(NULL) + 1 >= end)
			continue;
		busy = __atomic_load_n(&fz_busy[i % FZ_PROCS],
				       __ATOMIC_RELAXED) > 0;
		kill(pids[i], SIGKILL);
		if (waitpid(pids[i], &st, 0) < 0)
			continue;
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) {
			stat_add(FZ_KILLS, 1);
			stat_add(FZ_KILLS_BUSY, busy);
		} else {
			bad += worker_failed(st);
		}
		__atomic_store_n(&fz_busy[i % FZ_PROCS], 0, __ATOMIC_RELAXED);
		pids[i] = 0;
		if (*shared_calls < max)
			pids[i] = spawn(i, seed * 7919 + ++kills, end, max);
	}
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long long max = 100000, calls;
	unsigned int procs = 4, i, pcs = 0, bad = 0, kill_ms = 0;
	const char *want = getenv("MLX5X_DEV");
	uint64_t seed = time(NULL);
	struct ibv_device **list, *dev = NULL;
	struct timespec t0, t1;
	int secs = 30, opt, n, st;
	size_t shared;
	pid_t *pids;
	time_t end;

	while ((opt = getopt(argc, argv, "p:T:t:n:s:rk:")) != -1) {
		switch (opt) {
		case 'k':
			kill_ms = atoi(optarg);
			break;
		case 'T':
			nthreads = atoi(optarg);
			break;
		case 'r':
			resilient = true;
			break;
		case 'p':
			procs = atoi(optarg);
			break;
		case 't':
			secs = atoi(optarg);
			break;
		case 'n':
			max = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-p PROCS] [-T THREADS] [-t SECONDS] [-n CALLS] [-s SEED] [-r] [-k MS]\n",
				argv[0]);
			return 2;
		}
	}
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < (unsigned int)n; i++)
		if (want ? !strcmp(ibv_get_device_name(list[i]), want) :
		    !strncmp(ibv_get_device_name(list[i]), "mlx5x", 5)) {
			dev = list[i];
			break;
		}
	if (!dev) {
		fprintf(stderr, "fuzz: no mlx5x device\n");
		return 2;
	}
	dev_name = strdup(ibv_get_device_name(dev));
	text_range();
	shared = TEXT_MAX / 8 + ((1 + FZ_GROUPS) * COUNTERS + FZ_STATS) * 8;
	cover = mmap(NULL, shared + FZ_PUBS * sizeof(*fz_pubs) +
		     FZ_PROCS * sizeof(*fz_busy), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(procs ? procs : 1, sizeof(*pids));
	if (cover == MAP_FAILED || !pids)
		return 2;
	shared_calls = (void *)(cover + TEXT_MAX / 8);
	shared_stats = shared_calls + (1 + FZ_GROUPS) * COUNTERS;
	fz_pubs = (void *)(cover + shared);
	fz_busy = (void *)(fz_pubs + FZ_PUBS);
	printf("fuzz: seed %llu, %u processes x %u threads, %d s, %llu calls, KCOV %s\n",
	       (unsigned long long)seed, procs, nthreads, secs, max,
	       text_len ? "on" : "off");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	end = time(NULL) + secs;
	for (i = 0; i < procs; i++)
		pids[i] = spawn(i, seed * 1000003 + i, end, max);
	if (kill_ms)
		bad += killer(pids, procs, kill_ms, seed, end, max);
	for (i = 0; i < procs; i++)
		if (pids[i] && waitpid(pids[i], &st, 0) == pids[i])
			bad += worker_failed(st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < TEXT_MAX / 8; i++)
		pcs += __builtin_popcount(cover[i]);
	dump_pcs();
	calls = *shared_calls;
	printf("#");
	print_counts(shared_calls);
	for (i = 0; i < FZ_GROUPS; i++) {
		printf("#   %s: %llu calls;", group_names[i],
		       shared_calls[COUNTERS * (1 + i)]);
		print_counts(shared_calls + COUNTERS * (1 + i));
	}
	printf("#   WQEs: %llu send, %llu receive, %llu doorbell records moved, %llu CQEs polled (%llu compressed sessions)\n",
	       shared_stats[FZ_SEND_WQES], shared_stats[FZ_RECV_WQES],
	       shared_stats[FZ_DOORBELLS], shared_stats[FZ_CQES],
	       shared_stats[FZ_CQE_SESSIONS]);
	printf("#   RC: %llu send WRs and %llu receives posted, %llu send WQEs written by hand; %llu completions, %llu in error, %llu CQEs polled by hand, %llu polls failed; %llu QPs drained in ERR, %llu never were (%llu more on a CQ another object named); guards checked %llu times\n",
	       shared_stats[FZ_RC_WRS], shared_stats[FZ_RC_RECVS],
	       shared_stats[FZ_RC_RAW], shared_stats[FZ_RC_OK],
	       shared_stats[FZ_RC_ERR], shared_stats[FZ_RC_HAND],
	       shared_stats[FZ_RC_POLL_ERR],
	       shared_stats[FZ_RC_DRAINS], shared_stats[FZ_RC_STUCK],
	       shared_stats[FZ_RC_FOREIGN], shared_stats[FZ_GUARD_CHECKS]);
	printf("#   UD: %llu send WRs posted, %llu send WQEs written by hand, %llu receives posted or written (RQ and SRQ); %llu completions polled, %llu sends and %llu receives without error\n",
	       shared_stats[FZ_UD_WRS], shared_stats[FZ_UD_RAW],
	       shared_stats[FZ_UD_RECVS], shared_stats[FZ_UD_CQES],
	       shared_stats[FZ_UD_SENT], shared_stats[FZ_UD_DELIVERED]);
	printf("#   UMR: %llu WRs that configure mkeys tried, %llu UMR WQEs written by hand (one field mutated), %llu WRs of traffic through the mkeys; %llu completions, %llu in error; %llu send queues stopped by signature pipelining; %llu never completed\n",
	       shared_stats[FZ_UMR_WRS], shared_stats[FZ_UMR_HAND],
	       shared_stats[FZ_UMR_TRAFFIC], shared_stats[FZ_UMR_OK],
	       shared_stats[FZ_UMR_ERR], shared_stats[FZ_UMR_SQD],
	       shared_stats[FZ_UMR_STUCK]);
	print_wcs("RC", FZ_RC_WC);
	print_wcs("UMR pair", FZ_UMR_WC);
	if (kill_ms)
		printf("#   killed %llu worker processes, %llu of them holding RC QPs with WQEs posted\n",
		       shared_stats[FZ_KILLS], shared_stats[FZ_KILLS_BUSY]);
	print_datapath(dev_name);
	if (shared_stats[FZ_RC_STUCK] || shared_stats[FZ_GUARD_WRITTEN] ||
	    shared_stats[FZ_UMR_STUCK]) {
		fprintf(stderr, "fuzz: %llu RC QPs did not complete, %llu UMR WRs did not, %llu guards changed\n",
			shared_stats[FZ_RC_STUCK], shared_stats[FZ_UMR_STUCK],
			shared_stats[FZ_GUARD_WRITTEN]);
		bad++;
	}
	if (shared_stats[FZ_RO_WRITTEN]) {
		fprintf(stderr, "fuzz: read-only memory found changed %llu times\n",
			shared_stats[FZ_RO_WRITTEN]);
		bad++;
	}
	printf("fuzz: %llu calls in %.1f s, %u processes, coverage %u PCs%s\n",
	       calls, t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       procs, pcs, text_len ? "" : " (no KCOV)");
	ibv_free_device_list(list);
	free(pids);
	return bad ? 1 : 0;
}
