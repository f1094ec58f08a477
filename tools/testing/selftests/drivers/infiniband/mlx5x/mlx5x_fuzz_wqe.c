// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: what the device's data path is given to parse.
 *
 * - raw packet QPs (ibv_create_qp IBV_QPT_RAW_PACKET: CAP_NET_RAW) with
 *   their CQ, of random capacities, moved through their states; MRs over
 *   the regions of mlx5x_fuzz_mem.c, of any access; verbs flows that take
 *   every leftover packet, a destination MAC, the multicast leftovers or
 *   a sniffer's copy to them; and PDs (op_pd()).  These go through
 *   libibverbs and libmlx5: ran() counts them and folds in their
 *   coverage.
 * - WQEs written straight into the rings of those QPs (mlx5dv_init_obj)
 *   and of the DEVX SQs and RQs over umems: send WQEs of every size, a
 *   control segment of random ds (0..63), opcode and completion flags,
 *   an Ethernet segment of random inline header size and checksum flags,
 *   then inline and pointer data segments whose lkeys are the worker's
 *   mkeys and MRs or random, over ranges inside them or not; now and
 *   then all random bytes.  Receive WQEs of scatter entries alike.  The
 *   doorbell record is then moved on by what was written, or by a
 *   random amount, and the CQs are polled (poll_cq()).
 *
 * The model's worker executes the WQEs (its datapath.c and dp_wqe.c),
 * loops each packet through NIC TX and RX steering into the RQs and
 * writes the CQEs: outside the calls, so KCOV does not see it; its
 * figures (fw/datapath) are printed at the end.
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_fuzz.h"
#include "mlx5x_test.h"

#define BB		64	/* a send WQE basic block */
#define SEG		16
#define MAX_DS		63
#define WQE_MAX		(16 * BB)	/* 63 segments, in whole blocks */
#define WQE_OP_SEND	0x0a	/* MLX5_OPCODE_SEND, <linux/mlx5/qp.h> */
#define CQ_UPDATE	0x08	/* fm_ce_se: a CQE for this WQE */
#define INLINE_SEG	0x80000000U
#define INVALID_LKEY	0x100
#define M		(w.mem)
#define DEBUGFS		"/sys/kernel/debug/mlx5x"

static const uint8_t macs[][6] = {
	{ 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 },
	{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, { 1, 0, 0x5e, 0, 0, 1 },
};

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
	uint64_t r;

	for (; len >= 8; p += 8, len -= 8) {
		r = rnd();
		memcpy(p, &r, 8);
	}
	for (; len; len--)
		*p++ = rnd();
}

/*
 * A key for a data segment, and a range: mostly one of the queue's PD (a
 * DEVX mkey for a DEVX queue, an MR for a raw QP's), or the other's, or
 * none; lengths mostly within the key and a packet (2 KiB).
 */
static void pick_key(bool devx, uint32_t *lkey, uint64_t *addr,
		     uint32_t *len)
{
	struct fz_queue *k = pick_queue(QK_MKEY);
	struct ibv_mr *mr = M.nmrs ? M.mrs[below(M.nmrs)] : NULL;
	uint64_t base = 0, size = 0;
	unsigned int r = below(8);

	*lkey = rnd();
	if (!r) {
		*lkey = below(2) ? INVALID_LKEY : 0;
	} else if (r > 1) {
		if (!below(8))
			devx = !devx;
		if (devx && k) {
			*lkey = k->key;
			base = k->va;
			size = k->len;
		} else if (!devx && mr) {
			*lkey = mr->lkey;
			base = (uintptr_t)mr->addr;
			size = mr->length;
		}
	}
	*len = below(8) ? 1 + below(512) : below(2) ? 0 : rnd();
	if (size && below(8)) {
		*addr = base + rnd() % size;
		if (below(8) && *len > base + size - *addr)
			*len = base + size - *addr;
	} else {
		*addr = below(2) ? base + rnd() % (size + 4096) : rnd();
	}
}

/* The inline header: Ethernet to a MAC the flows know, IP-ish after. */
static void eth_header(uint8_t *p, unsigned int len)
{
	static const uint16_t types[] = { 0x0800, 0x86dd, 0x8100, 0x0806 };
	uint8_t h[64];

	fill(h, sizeof(h));
	memcpy(h, macs[below(MT_ARRAY_SIZE(macs))], 6);
	memcpy(h + 6, macs[below(2)], 6);
	if (below(8)) {
		h[12] = types[below(4)] >> 8;
		h[13] = types[below(4)] & 0xff;
		h[14] = 0x45;
	}
	memcpy(p, h, len < sizeof(h) ? len : sizeof(h));
	if (len > sizeof(h))
		fill(p + sizeof(h), len - sizeof(h));
}

/*
 * A send WQE of index @idx at @b (WQE_MAX bytes): returns its ds, the
 * 16-byte segments the control segment says it has.
 */
static unsigned int send_wqe(uint8_t *b, uint16_t idx, uint32_t qpn,
			     bool devx)
{
	unsigned int hdr, off, n, ds, k, room;
	uint32_t lkey, len;
	uint64_t addr;
	uint8_t op;

	memset(b, 0, WQE_MAX);
	if (!below(32)) {		/* anything at all */
		fill(b, WQE_MAX);
		return b[7] & 0x3f;
	}
	switch (below(8)) {
	case 0:
		hdr = 0;
		break;
	case 1:
		hdr = below(4) ? below(300) : (uint16_t)rnd();
		break;
	case 2:
		hdr = 18;
		break;
	default:
		hdr = 14 + below(4) * 4;
		break;
	}
	b[20] = below(4) ? 0 : rnd();				/* cs_flags */
	b[28] = hdr >> 8;
	b[29] = hdr;
	off = 2 * SEG;
	if (hdr > 2)
		off += (hdr - 2 + SEG - 1) / SEG * SEG;
	if (off <= WQE_MAX - 2 * SEG)
		eth_header(b + 30, hdr);
	for (k = below(5); k && off + SEG <= MAX_DS * SEG; k--) {
		room = MAX_DS * SEG - off - 4;
		if (!below(3)) {		/* inline data */
			n = below(4) ? below(128) : below(room + 1);
			n = n > room ? room : n;
			put32(b + off, INLINE_SEG | (below(16) ? n : rnd()));
			fill(b + off + 4, n);
			off += (4 + n + SEG - 1) / SEG * SEG;
			continue;
		}
		pick_key(devx, &lkey, &addr, &len);
		put32(b + off, len);
		put32(b + off + 4, lkey);
		put64(b + off + 8, addr);
		off += SEG;
	}
	ds = off / SEG;
	if (!below(8))
		ds = below(MAX_DS + 1);
	if (ds > MAX_DS)
		ds = MAX_DS;
	op = below(16) ? WQE_OP_SEND : below(2) ? rnd() : below(0x30);
	put32(b, (uint32_t)idx << 8 | op);
	put32(b + 4, qpn << 8 | ds);
	b[11] = below(4) ? CQ_UPDATE : rnd();			/* fm_ce_se */
	if (!below(16))
		b[below(WQE_MAX)] ^= 1 << below(8);
	return ds;
}

/**
 * sq_put() - a send WQE into a ring, at its producer index
 * @q: the send queue
 * @wqe: the WQE
 * @ds: its size in 16-byte segments, as its control segment says
 *
 * Its basic blocks wrap at the ring's end; the index moves past them.
 */
void sq_put(struct fz_queue *q, const uint8_t *wqe, unsigned int ds)
{
	uint32_t nbb = 1U << q->log_n, i;
	uint32_t bbs = ds ? (ds * SEG + BB - 1) / BB : 1;

	for (i = 0; i < bbs; i++)
		memcpy(q->ring + ((q->pi + i) & (nbb - 1)) * BB, wqe + i * BB,
		       BB);
	q->pi += bbs;
}

/**
 * wq_doorbell() - a queue's doorbell record moved to its producer index
 * @q: the queue
 * @sq: the record's send counter; else its receive counter
 *
 * Now and then the counter moves past what was written, by any amount.
 */
void wq_doorbell(struct fz_queue *q, bool sq)
{
	if (!below(64))
		q->pi += below(8) ? 1 + below(4U << q->log_n) : rnd();
	__atomic_store_n(&q->dbr[sq], htobe32(q->pi & 0xffff),
			 __ATOMIC_RELEASE);
	stat_add(FZ_DOORBELLS, 1);
}

/**
 * recv_segs() - a receive WQE's data segments, by hand
 * @p: where the first goes
 * @bytes: the room for them
 * @pick: their keys, addresses and lengths
 * @arg: for @pick
 *
 * Now and then one after the first ends the list (the invalid lkey).
 */
void recv_segs(uint8_t *p, uint32_t bytes, fz_pick_fn *pick, void *arg)
{
	uint32_t i, key, len;
	uint64_t addr;

	for (i = 0; i + SEG <= bytes; i += SEG) {
		pick(&key, &addr, &len, arg);
		if (i && !below(4))
			key = INVALID_LKEY;
		put32(p + i, len);
		put32(p + i + 4, key);
		put64(p + i + 8, addr);
	}
}

/**
 * recv_wqes() - 1..8 receive WQEs by hand, then the record
 * @q: the receive queue (of a raw QP, an RC or UD QP, or DEVX)
 * @pick: the keys of their data segments (recv_segs())
 * @arg: for @pick
 *
 * One in 16 is random bytes.
 *
 * Return: how many were written.
 */
unsigned int recv_wqes(struct fz_queue *q, fz_pick_fn *pick, void *arg)
{
	uint32_t stride = 1U << q->log_stride, n, done = 0;
	uint8_t *p;

	if (!q->ring || !q->dbr || q->log_stride > 12)
		return 0;
	for (n = 1 + below(8); n; n--, q->pi++, done++) {
		p = q->ring + (q->pi & ((1U << q->log_n) - 1)) * stride;
		if (!below(16))
			fill(p, stride);
		else
			recv_segs(p, stride, pick, arg);
	}
	wq_doorbell(q, false);
	return done;
}

/* Write 1..8 send WQEs at the SQ's producer index, then ring. */
static void post_send(struct fz_queue *q)
{
	static __thread uint8_t wqe[WQE_MAX];
	unsigned int n;

	for (n = 1 + below(8); n; n--) {
		sq_put(q, wqe, send_wqe(wqe, q->pi, q->id, q->handle));
		stat_add(FZ_SEND_WQES, 1);
	}
	wq_doorbell(q, true);
}

/* A key for a receive WQE of @arg, a DEVX queue or a raw QP's. */
static void queue_key(uint32_t *lkey, uint64_t *addr, uint32_t *len,
		     void *arg)
{
	const struct fz_queue *q = arg;

	pick_key(q->handle, lkey, addr, len);
	if (!below(8))
		*len = 2048;
}

/* Write 1..8 receive WQEs of scatter entries, then ring. */
static void post_recv(struct fz_queue *q)
{
	stat_add(FZ_RECV_WQES, recv_wqes(q, queue_key, q));
}

static void raw_restart(struct fz_raw *r);

/**
 * op_wqe() - WQEs into an SQ or RQ (DEVX or a raw QP's); CQs polled
 *
 * The queue's CQ is polled first: after an error CQE (or one time in
 * three: a CQ that overflowed says nothing more) the queue is taken
 * back to ready through reset, since one that failed a WQE is in error,
 * where the device only flushes the rest.
 */
void op_wqe(void)
{
	struct fz_raw *r = M.nraw ? &M.raw[below(M.nraw)] : NULL;
	struct fz_queue *q, *cq;

	w.group = FZ_RAW;
	switch (below(4)) {
	case 0:
		q = pick_queue(QK_SQ);
		break;
	case 1:
		q = pick_queue(QK_RQ);
		break;
	case 2:
		q = r ? &r->sq : NULL;
		break;
	default:
		q = r ? &r->rq : NULL;
		break;
	}
	cq = !q ? NULL : q->handle ? find_queue(QK_CQ, q->cqn) : &r->cq;
	if (cq)
		poll_cq(cq);
	if (q && ((cq && cq->errs) || !below(3))) {
		if (q->handle)
			queue_restart(q);
		else
			raw_restart(r);
		if (cq)
			cq->errs = 0;
	}
	if (q && q->ring && q->dbr) {
		if (q->kind == QK_SQ)
			post_send(q);
		else
			post_recv(q);
	}
	cq = pick_queue(QK_CQ);
	if (cq)
		poll_cq(cq);
	if (r)
		poll_cq(&r->cq);
}

static unsigned int log2u(uint32_t v)
{
	return v ? 31 - __builtin_clz(v) : 0;
}

static void raw_move(struct fz_raw *r, enum ibv_qp_state to)
{
	struct ibv_qp_attr a = {
		.qp_state = to, .port_num = below(16) ? 1 : below(4),
	};
	int mask = IBV_QP_STATE;

	if (to == IBV_QPS_INIT || !below(16))
		mask |= IBV_QP_PORT;
	cov_start();
	ran(!ibv_modify_qp(r->qp, &a, mask));
	if (w.ok && to == IBV_QPS_RESET)
		r->sq.pi = r->rq.pi = 0;	/* libmlx5 cleared the record */
}

/* RESET, INIT, RTR, RTS: libmlx5 and the device start the rings over. */
static void raw_restart(struct fz_raw *r)
{
	raw_move(r, IBV_QPS_RESET);
	raw_move(r, IBV_QPS_INIT);
	raw_move(r, IBV_QPS_RTR);
	raw_move(r, IBV_QPS_RTS);
}

static void flow_create(struct fz_raw *r)
{
	struct {	/* the spec right after the attributes, unpadded */
		struct ibv_flow_attr a;
		struct ibv_flow_spec_eth e;
	} f;
	static const enum ibv_flow_attr_type types[] = {
		IBV_FLOW_ATTR_ALL_DEFAULT, IBV_FLOW_ATTR_ALL_DEFAULT,
		IBV_FLOW_ATTR_NORMAL, IBV_FLOW_ATTR_NORMAL,
		IBV_FLOW_ATTR_MC_DEFAULT, IBV_FLOW_ATTR_SNIFFER,
	};
	unsigned int i;

	_Static_assert(offsetof(typeof(f), e) == sizeof(f.a), "padding");
	for (i = 0; i < 2 && r->flows[i]; i++)
		;
	if (i == 2)
		return;
	memset(&f, 0, sizeof(f));
	f.a.type = types[below(MT_ARRAY_SIZE(types))];
	f.a.port = below(16) ? 1 : below(4);
	f.a.priority = below(4);
	f.a.size = sizeof(f.a);
	if (!below(8))
		f.a.flags = below(2) ? IBV_FLOW_ATTR_FLAGS_DONT_TRAP :
			    IBV_FLOW_ATTR_FLAGS_EGRESS;
	if (f.a.type == IBV_FLOW_ATTR_NORMAL || !below(16)) {
		f.a.num_of_specs = 1;
		f.a.size = sizeof(f);
		f.e.type = IBV_FLOW_SPEC_ETH;
		f.e.size = sizeof(f.e);
		memcpy(f.e.val.dst_mac, macs[below(MT_ARRAY_SIZE(macs))], 6);
		memset(f.e.mask.dst_mac, 0xff, 6);
	}
	cov_start();
	r->flows[i] = ibv_create_flow(r->qp, &f.a);
	ran(r->flows[i] != NULL);
}

static void flow_destroy(struct fz_raw *r)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (r->flows[i]) {
			cov_start();
			ran(!ibv_destroy_flow(r->flows[i]));
			r->flows[i] = NULL;
		}
}

static void raw_destroy(struct fz_raw *r)
{
	bool cq_first = !below(8);	/* refused: the QP uses it */

	flow_destroy(r);
	if (cq_first) {
		cov_start();
		ran(!ibv_destroy_cq(r->ibcq));
		if (w.ok)
			r->ibcq = NULL;
	}
	cov_start();
	ran(!ibv_destroy_qp(r->qp));
	if (r->ibcq) {
		cov_start();
		ran(!ibv_destroy_cq(r->ibcq));
	}
	*r = M.raw[--M.nraw];
}

/* An MR over a region; @rw: one writable, of at most 1 MiB. */
static void mr_reg(bool rw)
{
	unsigned int tries = 0;
	uint64_t len, acc;
	struct ibv_mr *mr;
	uint8_t *p;
	bool ro;

	do {
		p = region_pick(&len, &ro);
	} while (rw && (!p || ro || !len || len > (1 << 20)) && ++tries < 8);
	if (!p || !M.pd)
		return;
	acc = rw || below(4) ? (ro && below(4) ? 0 : IBV_ACCESS_LOCAL_WRITE) :
	      rnd() & 0x1f;
	cov_start();
	mr = ibv_reg_mr(M.pd, p, len, acc);
	ran(mr != NULL);
	if (mr)
		M.mrs[M.nmrs++] = mr;
}

/* The PD of the worker's verbs objects (raw and RC QPs, MRs), made once. */
bool pd_get(void)
{
	if (!M.pd) {
		cov_start();
		M.pd = ibv_alloc_pd(w.ctx);
		ran(M.pd != NULL);
	}
	return M.pd;
}

/**
 * qp_rings() - a QP's rings as the hand writers see them
 * @dq: what mlx5dv_init_obj() said of the QP
 * @qpn: its number
 * @sq: filled in: its send ring (NULL ring: none)
 * @rq: and its receive ring
 */
void qp_rings(const struct mlx5dv_qp *dq, uint32_t qpn, struct fz_queue *sq,
	      struct fz_queue *rq)
{
	*sq = (struct fz_queue){
		.kind = QK_SQ, .id = qpn, .log_stride = 6,
		.log_n = log2u(dq->sq.wqe_cnt), .dbr = (uint32_t *)dq->dbrec,
		.ring = dq->sq.wqe_cnt ? dq->sq.buf : NULL,
	};
	*rq = (struct fz_queue){
		.kind = QK_RQ, .id = qpn,
		.log_n = log2u(dq->rq.wqe_cnt),
		.log_stride = log2u(dq->rq.stride),
		.dbr = (uint32_t *)dq->dbrec,
		.ring = dq->rq.wqe_cnt ? dq->rq.buf : NULL,
	};
}

/**
 * cq_ring() - a CQ's ring, polled by hand (poll_cq()) from where its
 * consumer index stands
 * @dc: what mlx5dv_init_obj() said of the CQ
 * @cq: filled in
 */
void cq_ring(const struct mlx5dv_cq *dc, struct fz_queue *cq)
{
	*cq = (struct fz_queue){
		.kind = QK_CQ, .log_n = log2u(dc->cqe_cnt),
		.log_stride = log2u(dc->cqe_size), .ring = dc->buf,
		.dbr = (uint32_t *)dc->dbrec,
		.pi = be32toh(dc->dbrec[0]) & 0xffffff,
	};
}

/*
 * The CQ of a raw packet QP, of @cqe entries: now and then of 128-byte
 * CQEs, or compressing its receives in a format of mlx5dv_create_cq(3)
 * (cq_take() takes a session whole).
 */
static struct ibv_cq *raw_cq(int cqe)
{
	static const uint32_t fmt[] = {
		MLX5DV_CQE_RES_FORMAT_HASH, MLX5DV_CQE_RES_FORMAT_CSUM,
		MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX,
	};
	struct ibv_cq_init_attr_ex a = { .cqe = cqe };
	struct mlx5dv_cq_init_attr dv = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.cqe_size = below(4) ? 64 : 128,
	};
	struct ibv_cq_ex *cq;

	if (below(2))
		return ibv_create_cq(w.ctx, cqe, NULL, NULL, 0);
	if (below(2)) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE;
		dv.cqe_comp_res_format = fmt[below(3)];
	}
	cq = mlx5dv_create_cq(w.ctx, &a, &dv);
	return cq ? ibv_cq_ex_to_cq(cq) : NULL;
}

/*
 * A raw packet QP of random capacities on its own CQ, then to RTS.  Both
 * queues at least one entry: libmlx5 polls the RC QPs' CQs
 * (mlx5x_fuzz_rc.c), where a DEVX SQ or RQ may send CQEs of user index
 * 0, or any; it takes them for the QP of that index, and reads the
 * wr_id of a queue that QP lacks (NULL) if it has none.
 */
static void raw_create(void)
{
	struct fz_raw *r = &M.raw[M.nraw];
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_RAW_PACKET,
		.cap = {
			.max_send_wr = below(8) ? 1 + below(256) :
				       1 + rnd() % 70000,
			.max_recv_wr = below(8) ? 1 + below(256) : 1,
			.max_send_sge = below(8) ? 1 + below(4) : below(64),
			.max_recv_sge = below(8) ? 1 + below(4) : below(64),
			.max_inline_data = below(2) ? 0 : below(1024),
		},
	};
	struct mlx5dv_qp dq = {};
	struct mlx5dv_cq dc = {};
	struct mlx5dv_obj o = {
		.qp = { .out = &dq }, .cq = { .out = &dc },
	};

	if (!pd_get())
		return;
	memset(r, 0, sizeof(*r));
	cov_start();
	r->ibcq = raw_cq(below(8) ? 1 + below(512) : rnd() % 5000);
	ran(r->ibcq != NULL);
	if (!r->ibcq)
		return;
	a.send_cq = a.recv_cq = r->ibcq;
	cov_start();
	r->qp = ibv_create_qp(M.pd, &a);
	ran(r->qp != NULL);
	o.qp.in = r->qp;
	o.cq.in = r->ibcq;
	if (!r->qp || mlx5dv_init_obj(&o, MLX5DV_OBJ_QP | MLX5DV_OBJ_CQ)) {
		if (r->qp) {
			cov_start();
			ran(!ibv_destroy_qp(r->qp));
		}
		cov_start();
		ran(!ibv_destroy_cq(r->ibcq));
		return;
	}
	qp_rings(&dq, r->qp->qp_num, &r->sq, &r->rq);
	cq_ring(&dc, &r->cq);
	M.nraw++;
	raw_move(r, IBV_QPS_INIT);
	if (below(8))
		raw_move(r, IBV_QPS_RTR);
	if (below(8))
		raw_move(r, IBV_QPS_RTS);
	if (below(2))
		flow_create(r);
	if (!M.nmrs)
		mr_reg(true);
}

/* Deregister one of the MRs, whatever WQEs still name it. */
void mr_dereg(void)
{
	unsigned int i = below(M.nmrs);

	cov_start();
	ran(!ibv_dereg_mr(M.mrs[i]));
	M.mrs[i] = M.mrs[--M.nmrs];
}

/**
 * op_raw() - raw packet QPs, their states and flows; MRs
 */
void op_raw(void)
{
	struct fz_raw *r = M.nraw ? &M.raw[below(M.nraw)] : NULL;

	w.group = FZ_RAW;
	if (!w.ctx)
		return;
	switch (below(10)) {
	case 0:
		if (r)
			raw_destroy(r);
		break;
	case 1:
		if (r)
			raw_move(r, below(IBV_QPS_ERR + 1));
		break;
	case 2:
	case 3:
		if (M.nmrs < MAX_MRS)
			mr_reg(false);
		break;
	case 4:
		if (M.nmrs)
			mr_dereg();
		break;
	case 5:
		if (r)
			flow_create(r);
		break;
	case 6:
		if (r)
			flow_destroy(r);
		break;
	default:
		if (M.nraw < MAX_RAW)
			raw_create();
		else if (r)
			raw_destroy(r);
		break;
	}
}

/* Before the context closes: what libibverbs must free, freed. */
void raw_release(void)
{
	w.group = FZ_RAW;
	while (M.nraw)
		raw_destroy(&M.raw[M.nraw - 1]);
	while (M.nmrs)
		mr_dereg();
	if (M.pd) {
		cov_start();
		ran(!ibv_dealloc_pd(M.pd));
		M.pd = NULL;
	}
}

/**
 * op_pd() - allocate or free a PD (ibv_alloc_pd(), ibv_dealloc_pd())
 */
void op_pd(void)
{
	struct ibv_pd *pd;
	unsigned int i;

	if (!w.ctx)
		return;
	cov_start();
	if (w.npds && below(2)) {
		i = below(w.npds);
		ran(!ibv_dealloc_pd(w.pds[i]));
		w.pds[i] = w.pds[--w.npds];
	} else if (w.npds < 16) {
		pd = ibv_alloc_pd(w.ctx);
		ran(pd != NULL);
		if (pd)
			w.pds[w.npds++] = pd;
	}
}

/* The first line of the model's fw/datapath: its worker's figures. */
void print_datapath(const char *dev)
{
	char path[256], line[512];
	FILE *f;

	snprintf(path, sizeof(path), DEBUGFS "/%s/fw/datapath", dev);
	f = fopen(path, "r");
	if (f && fgets(line, sizeof(line), f))
		printf("# datapath: %s", line);
	if (f)
		fclose(f);
}
