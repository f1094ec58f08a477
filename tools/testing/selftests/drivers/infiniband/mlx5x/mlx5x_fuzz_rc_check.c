// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz's RC traffic (mlx5x_fuzz_rc.c): its checks of the model.
 * The guards (memory no write may reach) and the victim pair that keeps
 * sending from the canary; the drain of a QP moved to ERR, which must
 * complete its markers; and the trace of the worker's last RC steps,
 * printed with a finding.
 */
#define _GNU_SOURCE
#include "mlx5x_fuzz_rc.h"

static __thread char trace[TRACE][TRACE_LEN];
static __thread unsigned int ntrace;

/* Forget the steps remembered: the worker starts afresh. */
void trace_reset(void)
{
	ntrace = 0;
}

/* Remember one RC step, for a finding's report. */
void __printf(1, 2) note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(trace[ntrace++ % TRACE], TRACE_LEN, fmt, ap);
	va_end(ap);
}

/* The worker's last RC steps, oldest first, to stderr. */
void trace_dump(void)
{
	unsigned int i = ntrace > TRACE ? ntrace - TRACE : 0;

	fprintf(stderr, "fuzz:   the worker's last %u RC steps:\n",
		ntrace - i);
	for (; i < ntrace; i++)
		fprintf(stderr, "fuzz:     %s\n", trace[i % TRACE]);
}

/* r->posted, kept in step with this process's count of such QPs */
void set_posted(struct fz_rc *r, bool on)
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
uint8_t *fenced_map(size_t len, uint8_t seed)
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

void fenced_unmap(uint8_t *p, size_t len)
{
	munmap(p - FENCE, len + 2 * FENCE);
}

/*
 * Guards.  @i 0: in the worker's PD, REMOTE_READ or no access at all;
 * @i 1: in a context of its own, every access.  Made when first needed,
 * published in the worker's two slots of fz_pubs.
 */
void guard_make(unsigned int i)
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
void guard_check(unsigned int i, bool end)
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
void guard_unreg(unsigned int i)
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
void work_make(void)
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

void work_unreg(bool unmap)
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
void rc_drain(struct fz_rc *r)
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
void rc_modify_any(struct fz_rc *r)
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

/**
 * rc_plain_connect() - an RC QP from any state to RTS, as applications
 * connect it
 * @ctx: its context (for its port's GID)
 * @qp: the QP
 * @dest: the QP number it is connected to
 * @access: what the peer may do to this QP's memory (IBV_ACCESS_*)
 * @rnr_retry: its RNR retries (7: without end)
 *
 * The port's first GID, MTU 1024, timeout 14, 7 retries.
 * Return: whether it reached RTS.
 */
bool rc_plain_connect(struct ibv_context *ctx, struct ibv_qp *qp,
		      uint32_t dest, int access, uint8_t rnr_retry)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };
	int gid = rc_gid();

	if (gid < 0 || ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return false;
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = access,
	};
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
	if (ibv_query_gid(ctx, 1, gid, &a.ah_attr.grh.dgid) ||
	    ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = rnr_retry;
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
void victim_make(void)
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
	rc_plain_connect(M.gctx, v->qp[0], v->qp[1]->qp_num, 0, 7);
	rc_plain_connect(M.gctx, v->qp[1], v->qp[0]->qp_num, 0, 7);
	note("victim: qps %#x %#x, canary key %#x over %p", v->qp[0]->qp_num,
	     v->qp[1]->qp_num, v->canary.mr->lkey, v->canary.base);
}

/* The victim's completions taken; a SEND from the canary, and its receive. */
void victim_send(void)
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
		rc_plain_connect(M.gctx, v->qp[0], v->qp[1]->qp_num, 0, 7);
		rc_plain_connect(M.gctx, v->qp[1], v->qp[0]->qp_num, 0, 7);
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
void victim_release(void)
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
