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
#include "mlx5x_fuzz_rc.h"

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
unsigned int rc_poll(struct fz_rc_cq *c)
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
	qp_rings(&dq, r->qp->qp_num, &r->sq, &r->rq);
	note("qp %#x: %s on cq %u, sq %u bbs, rq %u x %u bytes, sge %u/%u",
	     r->qp->qp_num, a.qp_type == IBV_QPT_RC ? "RC" : "UC", cq,
	     dq.sq.wqe_cnt, dq.rq.wqe_cnt, dq.rq.stride, r->max_sge,
	     r->max_rsge);
	return r;
}

bool rc_move(struct fz_rc *r, struct ibv_qp_attr *a, int mask)
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
int rc_gid(void)
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
	trace_reset();
}
