// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz's RC traffic (mlx5x_fuzz_rc.c): the work requests it posts
 * through libmlx5, of every opcode over the keys pick_key() chooses, and
 * the WQEs it writes by hand into the rings of a QP turned raw.
 */
#define _GNU_SOURCE
#include "mlx5x_fuzz_rc.h"

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
void pick_key(bool remote, int good, uint32_t *key, uint64_t *addr,
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
void rc_post_send(struct fz_rc *r)
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
void rc_post_recv(struct fz_rc *r)
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

/**
 * wqe_segs() - a send WQE's data and inline segments, by hand
 * @b: the WQE (WQE_MAX bytes)
 * @off: where the first goes
 * @k: how many, at most: they stop at the largest WQE's end
 * @good: their keys mostly of the worker's MRs (pick_key())
 * @atomic: an atomic's: no inline data, its one segment mostly 8 bytes
 *
 * Return: the offset after the last.
 */
unsigned int wqe_segs(uint8_t *b, unsigned int off, unsigned int k,
		      bool good, bool atomic)
{
	uint32_t key, len, n, room;
	uint64_t addr;

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
	return off;
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
	unsigned int off = SEG, ds, k;
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
	off = wqe_segs(b, off, k, good, atomic);
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
void rc_raw_send(struct fz_rc *r)
{
	static __thread uint8_t wqe[WQE_MAX];
	struct fz_queue *q = &r->sq;
	char ops[3 * MAX_WRS + 1] = "";
	unsigned int n;

	if (!q->ring || !q->dbr)
		return;
	for (n = 1 + below(MAX_WRS); n; n--) {
		sq_put(q, wqe, rc_wqe(wqe, q->pi, r->qp->qp_num));
		snprintf(ops + strlen(ops), 4, "%02x ", wqe[3]);
		stat_add(FZ_RC_RAW, 1);
	}
	wq_doorbell(q, true);
	set_posted(r, true);
	note("qp %#x: raw send WQEs, opcodes %s, counter %#x", r->qp->qp_num,
	     ops, q->pi & 0xffff);
}

/* A receive WQE's key: pick_key()'s, over the worker's MRs half the time. */
void recv_key(uint32_t *key, uint64_t *addr, uint32_t *len, void *arg)
{
	(void)arg;
	pick_key(false, below(2), key, addr, len);
}

/* 1..8 receive WQEs written by hand, then the record. */
void rc_raw_recv(struct fz_rc *r)
{
	struct fz_queue *q = &r->rq;
	unsigned int n = recv_wqes(q, recv_key, NULL);

	if (!n)
		return;
	stat_add(FZ_RC_RECVS, n);
	set_posted(r, true);
	note("qp %#x: raw receive WQEs, counter %#x", r->qp->qp_num,
	     q->pi & 0xffff);
}

/*
 * From now on QP @r's rings are written by hand: its CQ is polled by
 * hand, from where libmlx5 left it, and its counters start where
 * libmlx5's are.
 */
void rc_go_raw(struct fz_rc *r)
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
		cq_ring(&dc, &c->v);
		c->hand = true;
	}
	r->raw = true;
	r->sq.pi = be32toh(r->sq.dbr[1]) & 0xffff;
	r->rq.pi = be32toh(r->rq.dbr[0]) & 0xffff;
	note("qp %#x: raw from send %#x receive %#x", r->qp->qp_num,
	     r->sq.pi, r->rq.pi);
}
