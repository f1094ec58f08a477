// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: DEVX CQs, RQs, SQs, direct mkeys and TIRs over the umems
 * of mlx5x_fuzz_mem.c (mlx5x_queues.h builds their mailboxes): buffer
 * and doorbell record in the same umem or two, at offsets inside, at the
 * end, past it or anywhere, of every size, now and then over a umem id
 * guessed (the kernel's umems of verbs buffers are the context's too);
 * RQs and SQs moved between states, objects destroyed in any order; a
 * TIR gets a flow matching every packet on NIC RX, so what the SQs send
 * reaches the RQs.  One mailbox in eight is spoiled further.  Those the
 * process may write are remembered as rings for mlx5x_fuzz_wqe.c, and
 * the CQs are polled.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <string.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "mlx5x_fuzz.h"
#include "mlx5x_queues.h"

#define PAGE		4096UL
#define CQE_INVALID	0xf	/* an op_own opcode no CQE carries */
#define CQE_REQ_ERR	0xd
#define CQE_RESP_ERR	0xe
#define M		(w.mem)

/* DEVX object calls; the creates' mailboxes join the corpus as others'. */
static bool devx_create(const void *in, unsigned int len, uint32_t *out,
			unsigned int outlen, uint32_t *handle)
{
	struct call c;

	call_init(&c, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_CREATE);
	attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, in, len);
	attr_out(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, out, outlen);
	memset(out, 0, outlen);
	if (run(&c))
		keep(in, len);
	*handle = c.attrs[0].data;
	if (w.ok && w.nobjs < MAX_HANDLES && below(2))
		w.objs[w.nobjs++] = *handle;	/* for the other ops too */
	return w.ok;
}

static bool devx_modify(uint32_t handle, const void *in, unsigned int len)
{
	uint32_t out[4];
	struct call c;

	call_init(&c, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_MODIFY);
	attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_MODIFY_HANDLE, handle);
	attr_in(&c, MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_IN, in, len);
	attr_out(&c, MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_OUT, out, sizeof(out));
	run(&c);
	return w.ok;
}

/* The context's PD, TD, TIS, UAR and EQ number, which queues name. */
static bool lab_up(void)
{
	uint32_t in[PRM_CREATE_TIS_IN_BYTES / 4] = {}, out[4], h, vec = 0;
	uint32_t len;	/* a u32, as the method says */
	uint64_t off;
	struct mq q = { .td = 0 };
	struct call c;

	if (M.lab || M.lab_tries++ >= 2)
		return M.lab;
	mt_set(in, PRM_IN_OPCODE, PRM_OP_ALLOC_PD);
	if (!devx_create(in, 16, out, sizeof(out), &h))
		return false;
	M.pdn = mt_get(out, OUT_ID);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_ALLOC_TRANSPORT_DOMAIN);
	if (!devx_create(in, 16, out, sizeof(out), &h))
		return false;
	q.td = M.tdn = mt_get(out, OUT_ID);
	mq_tis_in(&q, in);
	if (!devx_create(in, sizeof(in), out, sizeof(out), &h))
		return false;
	M.tisn = mt_get(out, OUT_ID);
	call_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
	attr_val(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, 0);
	attr_num(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE,
		 MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, 8);
	attr_out(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &M.uar, 4);
	attr_out(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &len, 4);
	attr_out(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off, 8);
	run(&c);
	if (!w.ok)
		return false;
	call_init(&c, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_EQN);
	attr_in(&c, MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, &vec, 4);
	attr_out(&c, MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN, &M.eqn, 4);
	run(&c);
	M.lab = w.ok;
	return M.lab;
}

struct fz_queue *find_queue(unsigned int kind, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < M.nq; i++)
		if (M.q[i].kind == kind && M.q[i].id == id)
			return &M.q[i];
	return NULL;
}

struct fz_queue *pick_queue(unsigned int kind)
{
	unsigned int i, n = M.nq ? below(M.nq) : 0;

	for (i = 0; i < M.nq; i++)
		if (M.q[(n + i) % M.nq].kind == kind)
			return &M.q[(n + i) % M.nq];
	return NULL;
}

static uint32_t queue_id(unsigned int kind)
{
	struct fz_queue *q = pick_queue(kind);

	return q && below(16) ? q->id : below(2) ? rnd() % 64 : rnd();
}

/*
 * Where a buffer of @need bytes goes in umem @u: at its start, anywhere
 * inside aligned to @align, at its end, past it, anywhere at all.
 */
static uint64_t buf_offset(const struct fz_umem *u, uint64_t need,
			   uint64_t align)
{
	uint64_t room = u->len > need ? u->len - need : 0;

	switch (below(12)) {
	case 0:
		return rnd();
	case 1:
		return u->len - need + below(2 * align);	/* may wrap */
	case 2:
		return room + align;
	case 3:
	case 4:
		return room / align * align;
	case 5:
		return below(room + 1);
	default:
		return below(room / align + 1) * align;
	}
}

/* A ring at offset @off of @u, if the process may write all of it. */
static uint8_t *writable(const struct fz_umem *u, uint64_t off,
			 uint64_t len)
{
	bool ro;

	if (!u->addr || off > u->len || len > u->len - off ||
	    !region_holds(u->addr + off, len, &ro) || ro)
		return NULL;
	return u->addr + off;
}

static struct fz_umem *pick_umem(void)
{
	return M.numems ? &M.umems[below(M.numems)] : NULL;
}

/* Buffer at @wq: umem @u at @off, doorbell record in @d at @doff. */
static void set_wq(uint32_t *in, unsigned int wq, const struct fz_umem *u,
		   uint64_t off, const struct fz_umem *d, uint64_t doff)
{
	mt_set(in, WQ_UMEM_ID(wq), u->id);
	mq_set64(in, WQ_UMEM_OFF(wq), off);
	mt_set(in, WQ_DBR_UMEM_ID(wq), d->id);
	mq_set64(in, WQ_DBR_ADDR(wq), doff);
	if (!below(16))
		mt_set(in, WQ_F(wq, PD), rnd());
	if (!below(16))
		mt_set(in, WQ_F(wq, WQ_TYPE), below(16));
}

/* Catch every NIC RX packet into TIR @tir: a matcher of no mask, a flow. */
static void steer_all(uint32_t tir)
{
	static __thread uint8_t zero[MATCH_BYTES];
	uint64_t prio = below(16);
	struct ib_uverbs_attr *a;
	struct call c;
	uint32_t h;

	if (w.nmatchers == MAX_MATCHERS || w.nflows == MAX_HANDLES)
		return;
	call_init(&c, MLX5_IB_OBJECT_FLOW_MATCHER,
		  MLX5_IB_METHOD_FLOW_MATCHER_CREATE);
	attr_val(&c, MLX5_IB_ATTR_FLOW_MATCHER_CREATE_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_FLOW_MATCHER_MATCH_MASK, zero, MATCH_BYTES);
	a = &c.attrs[c.hdr.num_attrs];
	attr_in(&c, MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE, &prio, 2);
	a->attr_data.enum_data.elem_id = MLX5_IB_FLOW_TYPE_NORMAL;
	attr_num(&c, MLX5_IB_ATTR_FLOW_MATCHER_MATCH_CRITERIA, 0, 1);
	attr_num(&c, MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE,
		 MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_RX, 8);
	run(&c);
	if (!w.ok)
		return;
	h = c.attrs[0].data;
	w.matchers[w.nmatchers++] = (struct fz_matcher){
		.handle = h, .ft = MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_RX,
		.normal = true,
	};
	call_init(&c, UVERBS_OBJECT_FLOW, MLX5_IB_METHOD_CREATE_FLOW);
	attr_val(&c, MLX5_IB_ATTR_CREATE_FLOW_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_CREATE_FLOW_MATCH_VALUE, zero, MATCH_BYTES);
	attr_val(&c, MLX5_IB_ATTR_CREATE_FLOW_MATCHER, h);
	attr_val(&c, MLX5_IB_ATTR_CREATE_FLOW_DEST_DEVX, tir);
	run(&c);
	if (w.ok)
		w.flows[w.nflows++] = c.attrs[0].data;
}

/* Move RQ or SQ @q from the state it is in (mostly) to another. */
static void queue_move(struct fz_queue *q, unsigned int next)
{
	uint32_t in[PRM_MODIFY_RQ_IN_BYTES / 4];

	mq_wq_move_in(in, q->kind == QK_SQ, q->id,
		      below(16) ? q->state : below(4), next);
	if (!below(16))	/* SQ: none; RQ: VSD, scatter FCS, counter */
		mq_set64(in, PRM_MODIFY_RQ_IN_MODIFY_BITMASK_OFF,
			 below(2) ? rnd() : 1ULL << below(4));
	if (!devx_modify(q->handle, in, below(16) ? sizeof(in) : 16))
		return;
	q->state = next;
	if (next == WQ_RST) {	/* the device starts the ring over */
		q->pi = 0;
		if (q->dbr)
			q->dbr[q->kind == QK_SQ] = 0;
	}
}

/* Take RQ or SQ @q to RST from ERR (or RDY), then to RDY. */
void queue_restart(struct fz_queue *q)
{
	w.group = FZ_QUEUE;
	q->state = below(4) ? WQ_ERR : WQ_RDY;
	queue_move(q, WQ_RST);
	if (!w.ok) {
		q->state ^= WQ_ERR ^ WQ_RDY;
		queue_move(q, WQ_RST);
	}
	q->state = WQ_RST;
	queue_move(q, WQ_RDY);
}

static void queue_destroy(struct fz_queue *q)
{
	struct call c;

	call_init(&c, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_DESTROY);
	attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, q->handle);
	run(&c);
	if (w.ok || errno != EBUSY) {
		drop(w.objs, &w.nobjs, q->handle);
		*q = M.q[--M.nq];
	}
}

/* The mailbox of a queue object of @kind over @u (@d: doorbell record). */
static unsigned int queue_in(uint32_t *in, struct fz_queue *q,
			     const struct fz_umem *u, const struct fz_umem *d,
			     uint64_t *off, uint64_t *doff, uint64_t *need)
{
	struct mlx5dv_devx_umem um = { .umem_id = u->id };
	struct mlx5dv_devx_uar uar = { .page_id = M.uar };
	struct mq mq = { .pd = M.pdn, .td = M.tdn, .eqn = M.eqn,
			 .umem = &um, .uar = &uar };
	unsigned int wq, sz;

	*doff = below(8) ? d->len > 8 ? below(d->len - 7) & ~7ULL : 0 :
		buf_offset(d, 8, 8);
	switch (q->kind) {
	case QK_CQ:
		q->log_n = below(4) ? 1 + below(8) : below(32);
		/* 64, 128 or padded 128-byte CQEs, now and then a bad size */
		sz = below(4) ? 0 : below(4);
		q->log_stride = sz ? 7 : 6;
		*need = 1ULL << (q->log_n + q->log_stride);
		*off = buf_offset(u, *need, 64);
		mq_cq_in(&mq, in);
		mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, q->log_n);
		mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_CQE_SZ, sz);
		mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_OI, !below(4));
		/* compressed in any format, now and then any layout */
		if (!below(4)) {
			mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_CQE_COMP_EN, 1);
			mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_MINI_CQE_RES_FORMAT,
			       below(4));
			if (!below(8))
				mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_CQE_COMPRESSION_LAYOUT,
				       below(4));
		}
		mq_set64(in, CQ_UMEM_OFF, *off);
		mt_set(in, CQ_DBR_UMEM_ID, d->id);
		mq_set64(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_ADDR_OFF, *doff);
		if (!below(16))
			mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_UAR_PAGE, rnd());
		return PRM_CREATE_CQ_IN_BYTES;
	case QK_RQ:
	case QK_SQ:
		wq = q->kind == QK_SQ ? SQ_WQ : RQ_WQ;
		q->log_n = below(4) ? 1 + below(8) : below(32);
		q->log_stride = q->kind == QK_SQ && below(8) ? 6 :
				below(8) ? 4 + below(7) : below(16);
		*need = 1ULL << (q->log_n + q->log_stride);
		*off = buf_offset(u, *need, 64);
		q->cqn = queue_id(QK_CQ);
		if (q->kind == QK_SQ)
			mq_sq_in(&mq, in, q->cqn,
				 below(16) ? M.tisn : rnd() % 64);
		else
			mq_rq_in(&mq, in, q->cqn);
		mt_set(in, WQ_F(wq, LOG_WQ_SZ), q->log_n);
		mt_set(in, WQ_F(wq, LOG_WQ_STRIDE), q->log_stride);
		set_wq(in, wq, u, *off, d, *doff);
		return q->kind == QK_SQ ? PRM_CREATE_SQ_IN_BYTES :
		       PRM_CREATE_RQ_IN_BYTES;
	case QK_MKEY:
		*need = below(8) ? 1 + below(u->len ? u->len : 1) : rnd();
		*off = buf_offset(u, *need, below(2) ? 1 : PAGE);
		q->len = *need;
		q->va = below(2) ? (uintptr_t)u->addr + *off :
			below(2) ? 0 : rnd();
		memset(in, 0, PRM_CREATE_MKEY_IN_BYTES);
		mq_mkey_direct_in(in, M.pdn, u->id, *off, q->va, q->len);
		q->key = rnd() & 0xff;
		mt_set(in, MQ_MKC(MKEY_7_0), q->key);
		mt_set(in, MQ_MKC(LW), below(4) ? u->wr : below(2));
		mt_set(in, MQ_MKC(LR), below(8) != 0);
		if (!below(8))
			mt_set(in, MQ_MKC(RW), 1);
		if (!below(16))
			mt_set(in, MQ_MKC(LENGTH64), 1);
		*need = 0;	/* no ring */
		return PRM_CREATE_MKEY_IN_BYTES;
	default:
		mq_tir_in(&mq, in, !below(8), queue_id(QK_RQ));
		if (!below(4))
			mt_set(in, PRM_CREATE_TIR_IN_CTX_SELF_LB_BLOCK,
			       below(4));
		*need = 0;
		return PRM_CREATE_TIR_IN_BYTES;
	}
}

static void queue_create(void)
{
	static const uint8_t kinds[] = {
		QK_CQ, QK_CQ, QK_CQ, QK_RQ, QK_RQ, QK_SQ, QK_SQ, QK_SQ,
		QK_MKEY, QK_MKEY, QK_TIR,
	};
	static __thread uint32_t in[MAX_MBOX / 4];
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4 + 4];
	struct fz_queue *q = &M.q[M.nq];
	struct fz_umem *u = pick_umem(), *d, guess;
	uint64_t off, doff, need;
	unsigned int len, i;

	if (!u)
		return;
	d = below(2) ? u : pick_umem();
	if (!below(8)) {
		/*
		 * A umem id guessed (ids are the lowest free): one of the
		 * worker's, or one the kernel registered under the context's
		 * uid for the buffer of a verbs CQ, QP or MR (ubuf.c), taken
		 * to be a page long.  Never written through.
		 */
		guess = (struct fz_umem){ .id = 1 + below(128), .len = PAGE };
		if (below(2))
			u = &guess;
		else
			d = &guess;
	}
	memset(q, 0, sizeof(*q));
	q->kind = kinds[below(MT_ARRAY_SIZE(kinds))];
	len = queue_in(in, q, u, d, &off, &doff, &need);
	for (i = below(8) ? 0 : 1 + below(4); i; i--)	/* spoiled */
		((uint8_t *)in)[below(len)] ^= 1 << below(8);
	if (!devx_create(in, below(32) ? len : edge_len(len), out,
			 sizeof(out), &q->handle))
		return;
	q->id = mt_get(out, OUT_ID);
	if (q->kind == QK_MKEY)
		q->key |= mt_get(out, PRM_CREATE_MKEY_OUT_MKEY_INDEX) << 8;
	if (need) {
		q->ring = writable(u, off, need);
		q->dbr = (uint32_t *)writable(d, doff, 8);
	}
	if (q->ring && q->kind == QK_CQ)	/* no CQE in it yet */
		memset(q->ring, 0xff, need);
	if (q->dbr)
		q->dbr[0] = q->dbr[1] = 0;
	M.nq++;
	if ((q->kind == QK_RQ || q->kind == QK_SQ) && below(8))
		queue_move(q, WQ_RDY);
	if (q->kind == QK_TIR && below(2))
		steer_all(q->handle);
}

/**
 * cq_take() - consume the CQEs the device wrote into a CQ
 * @cq: the CQ (software ownership, as libmlx5 checks it)
 * @any: now and then tell the device a consumer index of any value
 *
 * Then tell it so through the doorbell record.  Error CQEs are counted
 * in cq->errs.  A compressed session (a title CQE, op_own format 3, its
 * byte count the session's length) is taken whole: the slots it holds.
 * Return: the CQEs found.
 */
unsigned int cq_take(struct fz_queue *cq, bool any)
{
	uint32_t nent = 1U << cq->log_n, stride = 1U << cq->log_stride;
	unsigned int n = 0, more;
	const uint8_t *cqe;
	uint32_t bcnt;
	uint8_t op_own;

	if (!cq->ring || !cq->dbr || cq->log_n > 16)
		return 0;
	for (; n < nent; n++, cq->pi++) {
		cqe = &cq->ring[(cq->pi & (nent - 1)) * stride + stride - 64];
		op_own = __atomic_load_n(&cqe[63], __ATOMIC_ACQUIRE);
		if (op_own >> 4 == CQE_INVALID ||
		    (op_own & 1) != ((cq->pi >> cq->log_n) & 1))
			break;
		cq->errs += op_own >> 4 == CQE_REQ_ERR ||
			    op_own >> 4 == CQE_RESP_ERR;
		if (((op_own >> 2) & 3) != 3)
			continue;
		memcpy(&bcnt, cqe + 44, sizeof(bcnt));
		more = be32toh(bcnt) - 1;
		if (more >= nent - n)
			break;	/* not a session the ring can hold */
		n += more;
		cq->pi += more;
		stat_add(FZ_CQE_SESSIONS, 1);
	}
	if (any && !below(64))
		cq->pi += below(2) ? rnd() : nent;
	__atomic_store_n(&cq->dbr[0], htobe32(cq->pi & 0xffffff),
			 __ATOMIC_RELEASE);
	stat_add(FZ_CQES, n);
	return n;
}

/* cq_take(), now and then with a consumer index of any value */
unsigned int poll_cq(struct fz_queue *cq)
{
	return cq_take(cq, true);
}

/**
 * op_queue() - create, move, destroy a DEVX queue object; poll a CQ
 */
void op_queue(void)
{
	struct fz_queue *q;

	w.group = FZ_QUEUE;
	if (!w.ctx || !lab_up())
		return;
	q = M.nq ? &M.q[below(M.nq)] : NULL;
	switch (below(10)) {
	case 0:
	case 1:
		if (q && (q->kind == QK_RQ || q->kind == QK_SQ))
			queue_move(q, below(8) ? (q->state + 1U) % 4 :
				   below(4));
		break;
	case 2:
		if (q)
			queue_destroy(q);
		break;
	case 3:
		q = pick_queue(QK_CQ);
		if (q)
			poll_cq(q);
		break;
	default:
		if (M.nq < MAX_QUEUES)
			queue_create();
		else if (q)
			queue_destroy(q);
		break;
	}
}
