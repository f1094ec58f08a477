// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: UD traffic and a shared receive queue, as an unprivileged
 * process makes them.
 *
 * - a set of UD QPs of random capacities on one CQ, half of them
 *   receiving through an SRQ, with address handles to the port's GIDs;
 *   their Q_Key mostly the set's, now and then any; QPs moved to ERR,
 *   RESET or SQE and back, destroyed and made again, the set left for the
 *   context's close to destroy now and then;
 * - datagrams posted through libmlx5: SEND with and without immediate,
 *   now and then an opcode UD has no use for, inline, over the keys
 *   pick_key() chooses (the worker's MRs, the guards, other workers'
 *   guards, DEVX mkeys, any key), to one of the set's QPs mostly, else to
 *   a random, stale or guard-context QP number, with the set's Q_Key, a
 *   random one, or one with the high bit set; receives into the RQs and
 *   the SRQ over those keys;
 * - a set made raw: send WQEs written by hand into the QPs' rings, a
 *   datagram segment with a random address vector (destination QP and
 *   Q_Key, source GID index, destination GID: the port's own mostly, so
 *   that it loops back), and data and inline segments; SRQ WQEs written
 *   by hand, their next_wqe_index mostly the one after, else any, their
 *   segment counts and keys random; the doorbell records moved by what
 *   was written or by any amount, the CQ polled by hand.
 *
 * The checks are the RC traffic's (mlx5x_fuzz_rc.c): the guards, which
 * every key above names, never change; the worker survives; the
 * context's close leaves the model nothing.
 */
#define _GNU_SOURCE
#include "mlx5x_fuzz_rc.h"

#define MAX_UD		6
#define NAH		3
#define UD_QKEY		0x2222U
#define AV_BYTES	48		/* the datagram segment */
#define AV_EXT		0x80000000U	/* dqp_dct: the extended AV */
#define SRQ_NEXT	16		/* an SRQ WQE's next segment */
#define POLL_N		16

/**
 * struct fz_ud_qp - a UD QP of the set
 * @qp: it; NULL: the slot is free
 * @sq: its send ring as the hand writer sees it
 * @rq: its receive ring (none on the SRQ)
 * @max_sge: its max_send_sge
 */
struct fz_ud_qp {
	struct ibv_qp *qp;
	struct fz_queue sq, rq;
	uint32_t max_sge;
};

/**
 * struct fz_ud - the worker's UD set
 * @cq: the CQ of every QP of the set
 * @vcq: @cq's ring, polled by hand once the set is raw
 * @srq: the SRQ half the QPs receive through
 * @srqq: its ring (log_n, log_stride, dbr: the record, pi: WQEs posted)
 * @max_rsge: the SRQ's max_sge
 * @ah: address handles to the port's GIDs
 * @q: the QPs
 * @raw: rings written by hand; libmlx5 no longer posts or polls
 */
struct fz_ud {
	struct ibv_cq *cq;
	struct fz_queue vcq;
	struct ibv_srq *srq;
	struct fz_queue srqq;
	uint32_t max_rsge;
	struct ibv_ah *ah[NAH];
	struct fz_ud_qp q[MAX_UD];
	bool raw;
};

static __thread struct fz_ud u;

static struct fz_ud_qp *ud_pick(void)
{
	unsigned int i, n = below(MAX_UD);

	for (i = 0; i < MAX_UD; i++)
		if (u.q[(n + i) % MAX_UD].qp)
			return &u.q[(n + i) % MAX_UD];
	return NULL;
}

/* A destination QP number: one of the set's mostly, else any. */
static uint32_t ud_dest(void)
{
	struct fz_ud_qp *d = ud_pick();

	switch (below(16)) {
	case 0:
		return rnd() & 0xffffff;
	case 1:
		return M.stale[below(MT_ARRAY_SIZE(M.stale))];
	case 2:
		return M.victim.qp[0] ? M.victim.qp[0]->qp_num : 1;
	default:
		return d ? d->qp->qp_num : rnd() & 0xffffff;
	}
}

static uint32_t ud_qkey(void)
{
	return below(8) ? UD_QKEY : below(2) ? UD_QKEY | 0x80000000U : rnd();
}

/* RESET (from any state), INIT with a Q_Key, RTR, RTS; or short of it. */
static void ud_connect(struct fz_ud_qp *q)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };

	cov_start();
	ran(!ibv_modify_qp(q->qp, &a, IBV_QP_STATE));
	q->sq.pi = q->rq.pi = 0;
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_INIT, .port_num = below(16) ? 1 : below(3),
		.pkey_index = below(16) ? 0 : below(4),
		.qkey = below(8) ? UD_QKEY : rnd(),
	};
	cov_start();
	ran(!ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			   IBV_QP_PORT | IBV_QP_QKEY));
	if (!w.ok || !below(32))
		return;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR };
	cov_start();
	ran(!ibv_modify_qp(q->qp, &a, IBV_QP_STATE));
	if (!w.ok || !below(32))
		return;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS, .sq_psn = rnd() };
	cov_start();
	ran(!ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN));
}

/* A UD QP in slot @q, on the SRQ if @srq; its rings from libmlx5. */
static void ud_qp_new(struct fz_ud_qp *q, bool srq)
{
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_UD, .send_cq = u.cq, .recv_cq = u.cq,
		.srq = srq ? u.srq : NULL, .sq_sig_all = !below(4),
		.cap = {
			.max_send_wr = 1 + below(below(8) ? 64 : 1024),
			.max_recv_wr = srq ? 0 : 1 + below(64),
			.max_send_sge = below(8) ? 1 + below(4) : below(32),
			.max_recv_sge = srq ? 0 : 1 + below(4),
			.max_inline_data = below(2) ? 0 : below(512),
		},
	};
	struct mlx5dv_qp dq = {};
	struct mlx5dv_obj o = { .qp = { .out = &dq } };

	memset(q, 0, sizeof(*q));
	cov_start();
	q->qp = ibv_create_qp(M.pd, &a);
	ran(q->qp != NULL);
	if (!q->qp)
		return;
	o.qp.in = q->qp;
	if (mlx5dv_init_obj(&o, MLX5DV_OBJ_QP)) {
		ibv_destroy_qp(q->qp);
		q->qp = NULL;
		return;
	}
	q->max_sge = a.cap.max_send_sge;
	qp_rings(&dq, q->qp->qp_num, &q->sq, &q->rq);
	ud_connect(q);
	note("ud qp %#x%s, sq %u bbs, sge %u", q->qp->qp_num,
	     srq ? " on the srq" : "", dq.sq.wqe_cnt, q->max_sge);
}

/* An AH to GID @i of the port, from it; ib_core refuses an empty one. */
static struct ibv_ah *ud_ah(int i)
{
	struct ibv_ah_attr a = {
		.is_global = 1, .port_num = 1,
		.grh = { .sgid_index = i, .hop_limit = 1 + below(255),
			 .traffic_class = rnd(), .flow_label = rnd() & 0xfffff },
	};
	struct ibv_ah *ah;

	ibv_query_gid(w.ctx, 1, i, &a.grh.dgid);
	cov_start();
	ah = ibv_create_ah(M.pd, &a);
	ran(ah != NULL);
	return ah;
}

static void ud_free(bool leave)
{
	unsigned int i;

	for (i = 0; i < MAX_UD; i++) {
		if (!u.q[i].qp)
			continue;
		M.stale[below(MT_ARRAY_SIZE(M.stale))] = u.q[i].qp->qp_num;
		if (!leave) {
			cov_start();
			ran(!ibv_destroy_qp(u.q[i].qp));
		}
	}
	for (i = 0; i < NAH && !leave; i++)
		if (u.ah[i])
			ibv_destroy_ah(u.ah[i]);
	if (u.srq && !leave) {
		cov_start();
		ran(!ibv_destroy_srq(u.srq));
	}
	if (u.cq && !leave) {
		cov_start();
		ran(!ibv_destroy_cq(u.cq));
	}
	memset(&u, 0, sizeof(u));
}

/* The set's CQ, SRQ, QPs and AHs; raw (polled by hand) one time in 3. */
static void ud_make(void)
{
	struct ibv_srq_init_attr sa = {
		.attr = { .max_wr = 1 + below(64), .max_sge = 1 + below(4) },
	};
	struct mlx5dv_srq ds = {};
	struct mlx5dv_cq dc = {};
	struct mlx5dv_obj o = {
		.srq = { .out = &ds }, .cq = { .out = &dc },
	};
	int gid = rc_gid();
	unsigned int i;

	if (!pd_get() || gid < 0)
		return;
	cov_start();
	u.cq = ibv_create_cq(w.ctx, 64 + below(512), NULL, NULL, 0);
	ran(u.cq != NULL);
	if (!u.cq)
		return;
	cov_start();
	u.srq = ibv_create_srq(M.pd, &sa);
	ran(u.srq != NULL);
	u.max_rsge = sa.attr.max_sge;
	for (i = 0; i < MAX_UD; i++)
		ud_qp_new(&u.q[i], u.srq && i >= MAX_UD / 2);
	for (i = 0; i < NAH; i++)
		u.ah[i] = ud_ah(below(4) ? gid : (int)below(8));
	u.raw = !below(3);
	o.srq.in = u.srq;
	o.cq.in = u.cq;
	if (u.raw && !mlx5dv_init_obj(&o, MLX5DV_OBJ_CQ |
				      (u.srq ? MLX5DV_OBJ_SRQ : 0))) {
		cq_ring(&dc, &u.vcq);
		if (u.srq)
			u.srqq = (struct fz_queue){
				.kind = QK_RQ, .log_n = log2u(ds.tail + 1),
				.log_stride = log2u(ds.stride),
				.ring = ds.buf, .dbr = (uint32_t *)ds.dbrec,
			};
	} else {
		u.raw = false;
	}
	note("ud set: %s, srq %s", u.raw ? "raw" : "through libmlx5",
	     u.srq ? "made" : "refused");
}

/* 1..8 datagrams through libmlx5 on @q. */
static void ud_post_send(struct fz_ud_qp *q)
{
	static __thread struct ibv_sge sge[MAX_WRS][MAX_SGE];
	struct ibv_send_wr wr[MAX_WRS], *bad = NULL;
	unsigned int n = 1 + below(MAX_WRS), i, k, nsge, done;
	int good = below(4) ? 2 : below(2), err;

	struct ibv_ah *ah = u.ah[0] ? u.ah[0] : u.ah[1] ? u.ah[1] : u.ah[2];

	/* libmlx5 copies the AH's AV into the WQE: every WR names one */
	if (!ah)
		return;
	memset(wr, 0, sizeof(wr));
	for (i = 0; i < n; i++) {
		nsge = below(8) ? below(q->max_sge + 1) : below(MAX_SGE + 1);
		for (k = 0; k < nsge; k++) {
			pick_key(false, good, &sge[i][k].lkey, &sge[i][k].addr,
				 &sge[i][k].length);
			if (good > 1)	/* within a datagram, mostly */
				sge[i][k].length %= below(8) ? 1024 : 8192;
		}
		wr[i] = (struct ibv_send_wr){
			.wr_id = ++M.wr_id & ~MARK,
			.next = i + 1 < n ? &wr[i + 1] : NULL,
			.sg_list = sge[i], .num_sge = nsge,
			.opcode = below(32) ? below(3) ? IBV_WR_SEND :
				  IBV_WR_SEND_WITH_IMM : IBV_WR_RDMA_WRITE,
			.send_flags = (below(4) ? IBV_SEND_SIGNALED : 0) |
				      (below(8) ? 0 : IBV_SEND_SOLICITED),
			.imm_data = rnd(),
			.wr.ud = {
				.ah = u.ah[below(NAH)],
				.remote_qpn = ud_dest(),
				.remote_qkey = ud_qkey(),
			},
		};
		if (!wr[i].wr.ud.ah)
			wr[i].wr.ud.ah = ah;
	}
	err = ibv_post_send(q->qp, wr, &bad);
	done = err && bad >= wr && bad < wr + n ? bad - wr : err ? 0 : n;
	note("ud qp %#x: post %u datagrams: %u posted (%s)", q->qp->qp_num, n,
	     done, err ? strerror(err) : "ok");
	stat_add(FZ_UD_WRS, done);
}

/* 1..8 receives through libmlx5 on @q's RQ, or on the SRQ. */
static void ud_post_recv(struct fz_ud_qp *q)
{
	static __thread struct ibv_sge sge[MAX_WRS][MAX_SGE];
	struct ibv_recv_wr wr[MAX_WRS], *bad = NULL;
	unsigned int n = 1 + below(MAX_WRS), i, k, nsge, done, max;
	bool srq = u.srq && (!q || q->qp->srq || below(2));
	int good = below(2) ? 2 : below(2), err;

	if (!srq && !q)
		return;
	max = srq ? u.max_rsge : 4;
	for (i = 0; i < n; i++) {
		nsge = below(8) ? 1 + below(max) : below(MAX_SGE + 1);
		for (k = 0; k < nsge; k++)
			pick_key(false, good, &sge[i][k].lkey, &sge[i][k].addr,
				 &sge[i][k].length);
		wr[i] = (struct ibv_recv_wr){
			.wr_id = ++M.wr_id & ~MARK, .sg_list = sge[i],
			.num_sge = nsge, .next = i + 1 < n ? &wr[i + 1] : NULL,
		};
	}
	err = srq ? ibv_post_srq_recv(u.srq, wr, &bad) :
		    ibv_post_recv(q->qp, wr, &bad);
	done = err && bad >= wr && bad < wr + n ? bad - wr : err ? 0 : n;
	note("ud %s: post %u receives: %u posted", srq ? "srq" : "rq", n,
	     done);
	stat_add(FZ_UD_RECVS, done);
}

/*
 * A UD send WQE by hand at @b (WQE_MAX bytes): the control segment, a
 * datagram segment whose AV is random (its destination one of the set's
 * QPs on the port's own GID mostly), then data and inline segments.
 * Returns its ds.
 */
static unsigned int ud_wqe(uint8_t *b, uint16_t idx, uint32_t qpn)
{
	static const uint8_t ops[] = {
		OP_SEND, OP_SEND, OP_SEND, OP_SEND_IMM, OP_NOP, OP_WRITE,
	};
	unsigned int off = SEG + AV_BYTES, ds, k;
	int gid = rc_gid();
	uint8_t *av = b + SEG;
	union ibv_gid dgid = {};

	memset(b, 0, WQE_MAX);
	if (!below(32)) {
		fill(b, WQE_MAX);
		return b[7] & 0x3f;
	}
	put32(av, ud_qkey());
	put32(av + 8, (below(4) ? AV_EXT : 0) | ud_dest());
	av[12] = below(8) ? 0 : rnd();			/* stat_rate_sl */
	av[13] = below(8) ? 0 : rnd();			/* fl_mlid */
	av[26] = rnd();					/* tclass */
	av[27] = below(8) ? 64 : rnd();			/* hop_limit */
	k = below(8) ? (gid < 0 ? 0 : gid) : below(16) ? below(16) : rnd();
	put32(av + 28, (below(16) ? 0 : rnd() & 0xf0000000) |
		       (k & 0xff) << 20 | (rnd() & 0xfffff));
	if (below(8))
		ibv_query_gid(w.ctx, 1, below(4) && gid >= 0 ? gid : (int)below(16),
			      &dgid);
	else
		fill(dgid.raw, sizeof(dgid.raw));
	memcpy(av + 32, dgid.raw, 16);
	if (!below(16))
		fill(av, AV_BYTES);
	off = wqe_segs(b, off, below(4) ? below(4) : below(MAX_DS), below(2),
		       false);
	ds = off / SEG;
	if (!below(8))
		ds = below(MAX_DS + 1);
	if (ds > MAX_DS)
		ds = MAX_DS;
	put32(b, (uint32_t)(below(16) ? idx : rnd() & 0xffff) << 8 |
	      (below(16) ? ops[below(MT_ARRAY_SIZE(ops))] : rnd()));
	put32(b + 4, (below(16) ? qpn : rnd()) << 8 | ds);
	b[11] = below(4) ? CQ_UPDATE : rnd();
	put32(b + 12, rnd());
	return ds;
}

/* 1..8 UD send WQEs by hand into @q's ring, then its record. */
static void ud_raw_send(struct fz_ud_qp *q)
{
	static __thread uint8_t wqe[WQE_MAX];
	struct fz_queue *s = &q->sq;
	unsigned int n;

	if (!s->ring || !s->dbr)
		return;
	for (n = 1 + below(MAX_WRS); n; n--) {
		sq_put(s, wqe, ud_wqe(wqe, s->pi, q->qp->qp_num));
		stat_add(FZ_UD_RAW, 1);
	}
	wq_doorbell(s, true);
	note("ud qp %#x: raw send WQEs, counter %#x", q->qp->qp_num,
	     s->pi & 0xffff);
}

/*
 * 1..8 SRQ WQEs by hand: each a next segment naming the WQE after it
 * (mostly the next index, else any), then its data segments, as many
 * as fit or fewer; then the record's counter.
 */
static void ud_raw_srq(void)
{
	struct fz_queue *r = &u.srqq;
	uint32_t stride = 1U << r->log_stride, mask = (1U << r->log_n) - 1;
	uint32_t n, idx;
	uint8_t *p;

	if (!r->ring || !r->dbr || r->log_stride > 12)
		return;
	for (n = 1 + below(MAX_WRS); n; n--, r->pi++) {
		idx = r->pi & mask;
		p = r->ring + idx * stride;
		stat_add(FZ_UD_RECVS, 1);
		if (!below(16)) {
			fill(p, stride);
			continue;
		}
		memset(p, 0, SRQ_NEXT);
		idx = below(16) ? (idx + 1) & mask : rnd() & 0xffff;
		p[2] = idx >> 8;
		p[3] = idx;
		recv_segs(p + SRQ_NEXT, below(4) ? stride - SRQ_NEXT :
			  below(stride / SEG) * SEG, recv_key, NULL);
	}
	wq_doorbell(r, false);
	note("ud srq: raw WQEs, counter %#x", r->pi & 0xffff);
}

/* Receive WQEs by hand into the SRQ, or into @q's RQ. */
static void ud_raw_recv(struct fz_ud_qp *q)
{
	if (u.srq && (!q || !q->rq.ring || below(2)))
		ud_raw_srq();
	else if (q)
		stat_add(FZ_UD_RECVS, recv_wqes(&q->rq, recv_key, NULL));
}

/* The set's CQ: through libmlx5, or by hand once the set is raw. */
static void ud_poll(void)
{
	struct ibv_wc wc[POLL_N];
	int n;

	if (!u.cq)
		return;
	if (u.raw) {
		stat_add(FZ_UD_CQES, poll_cq(&u.vcq));
		return;
	}
	n = ibv_poll_cq(u.cq, POLL_N, wc);
	if (n > 0)
		stat_add(FZ_UD_CQES, n);
	while (n-- > 0)
		if (wc[n].status == IBV_WC_SUCCESS)
			stat_add(wc[n].opcode & IBV_WC_RECV ? FZ_UD_DELIVERED :
				 FZ_UD_SENT, 1);
}

/* Whether the set is there to use; when it is not, it is made now. */
static bool ud_ready(void)
{
	w.group = FZ_RC;
	if (!w.ctx)
		return false;
	if (!u.cq) {
		ud_make();
		return false;
	}
	return true;
}

/**
 * op_ud() - the UD set: made, its QPs moved, destroyed and made again,
 * the set destroyed
 */
void op_ud(void)
{
	struct fz_ud_qp *q;
	struct ibv_qp_attr a;

	if (!ud_ready())
		return;
	q = ud_pick();
	switch (below(8)) {
	case 0:
		note("ud set destroyed");
		ud_free(false);
		return;
	case 1:
	case 2:
		if (q)
			ud_connect(q);
		break;
	case 3:
		if (q) {
			a = (struct ibv_qp_attr){
				.qp_state = below(2) ? IBV_QPS_ERR :
					    below(2) ? IBV_QPS_SQE :
					    IBV_QPS_RESET,
			};
			cov_start();
			ran(!ibv_modify_qp(q->qp, &a, IBV_QP_STATE));
		}
		break;
	case 4:
		if (q && !u.raw) {
			M.stale[below(MT_ARRAY_SIZE(M.stale))] =
				q->qp->qp_num;
			cov_start();
			ran(!ibv_destroy_qp(q->qp));
			ud_qp_new(q, u.srq && below(2));
		}
		break;
	default:
		if (q && q->qp->state != IBV_QPS_RTS)
			ud_connect(q);
		break;
	}
	ud_poll();
}

/**
 * op_ud_post() - UD traffic: datagrams and receives through libmlx5, or
 * WQEs by hand into the rings of a raw set; the CQ polled
 */
void op_ud_post(void)
{
	struct fz_ud_qp *q;

	if (!ud_ready())
		return;
	q = ud_pick();
	if (!M.nmrs && !M.work.mr)
		work_make();
	if (u.raw) {
		if (q && below(2))
			ud_raw_send(q);
		else
			ud_raw_recv(q);
	} else if (q) {
		if (below(2))
			ud_post_recv(ud_pick());
		ud_post_send(q);
	}
	ud_poll();
}

/* Before the context closes: the set destroyed, or left to the close. */
void ud_release(void)
{
	w.group = FZ_RC;
	ud_free(!below(4));
}
