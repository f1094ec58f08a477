// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the data path's worker on live queues.  Send WQEs are written
 * into an SQ's ring in a umem over kernel pages, its doorbell record
 * rung, and the worker (on the system workqueue) left to run; then what
 * it wrote back is read: CQEs, CQ error events, the queues' counters,
 * and its own figures in debugfs fw/datapath.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/uio.h>
#include "sk_queues.h"
#include "../dp/datapath.h"
#include "../dp/wqe.h"

/*
 * The umem of a case: 8 pages.  Page 0 holds the CQ's ring (16 CQEs),
 * page 1 the doorbell records (the CQ's, then one per SQ ring), and the
 * last pages the SQ rings, 64 basic blocks each, the first ring in the
 * last page: a read past a ring's end leaves the umem.
 */
#define SK_R_ORDER	3
#define SK_R_PAGES	BIT(SK_R_ORDER)
#define SK_R_BYTES	(SK_R_PAGES * PAGE_SIZE)
#define SK_R_DBR	PAGE_SIZE
#define SK_R_SQ_DBR(n)	(SK_R_DBR + 64 * ((n) + 1))
#define SK_R_LOG_BB	6
#define SK_R_BB		BIT(SK_R_LOG_BB)
#define SK_R_RING(n)	(SK_R_BYTES - ((n) + 1) * PAGE_SIZE)
#define SK_R_CQES	16

#define SK_R_MTT_RD	BIT_ULL(0)
#define SK_R_MTT_WR	BIT_ULL(1)

/* A WQE as read: whole basic blocks, up to 63 segments. */
#define SK_R_WQE_BYTES	ALIGN(SIM_WQE_MAX_BYTES, SIM_SEND_WQE_BB)
/* ctrl, eth with 2 header bytes, 16 more header bytes */
#define SK_R_DS_MIN	3
#define SK_R_HDR_OFF	(SIM_WQE_SEG + \
			 offsetof(struct sim_wqe_eth, inline_hdr.start))

/* How long the worker gets to do what a case posted. */
#define SK_R_WAIT_MS	20000

#define SK_R_DBG_DIR	"mlx5x_sim_kunit_run"
#define SK_R_DBG_FILE	"/sys/kernel/debug/" SK_R_DBG_DIR "/fw/datapath"

#define RST	MLX5_SQC_STATE_RST
#define RDY	MLX5_SQC_STATE_RDY

/* The inline L2 header every WQE here starts its frame with. */
static const u8 sk_r_hdr[18] = {
	2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5, 1, 2, 3, 4,
};

/**
 * struct sk_run - what a case's queues live in
 * @r: a context with RAW_TX, its objects; @r.umem spans @mem
 * @pages: SK_R_PAGES pages
 * @mem: their address
 * @ro_umem: page 0 again, without wr_en
 * @tisn: a TIS of the context
 * @wqe: room for one WQE, SK_R_WQE_BYTES
 * @events: events the model raised
 * @eqe: the first of them
 * @last: the last of them
 */
struct sk_run {
	struct sk_q r;
	struct page *pages;
	u8 *mem;
	u32 ro_umem;
	u32 tisn;
	u8 *wqe;
	unsigned int events;
	u8 eqe[SIM_EQE_BYTES];
	u8 last[SIM_EQE_BYTES];
};

/* Runs under the model's lock, as the worker raises it. */
static void sk_run_event(void *ctx, const void *eqe)
{
	struct sk_run *d = ctx;

	if (!d->events++)
		memcpy(d->eqe, eqe, SIM_EQE_BYTES);
	memcpy(d->last, eqe, SIM_EQE_BYTES);
}

static struct sk_run *sk_run_new(struct kunit *test)
{
	struct sk_run *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct mlx5x_sim *sim = sk_sim(test);
	u64 mtt[SK_R_PAGES];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->wqe = kunit_kzalloc(test, SK_R_WQE_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d->wqe);
	d->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, SK_R_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, d->pages);
	d->mem = page_address(d->pages);
	for (i = 0; i < SK_R_PAGES; i++)
		mtt[i] = (u64)(uintptr_t)(d->mem + i * PAGE_SIZE) |
			 SK_R_MTT_RD | SK_R_MTT_WR;
	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, MLX5_UCTX_CAP_RAW_TX,
					     &d->r.uid), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, d->r.uid, &d->r.pd),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, d->r.uid, &d->r.uar),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, d->r.uid, &d->r.td),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, d->r.uid, SK_R_PAGES,
					     SK_R_PAGES, 0, mtt, &d->r.umem),
			PRM_STAT_OK);
	mtt[0] &= ~SK_R_MTT_WR;
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, d->r.uid, 1, 1, 0, mtt,
					     &d->ro_umem), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_comp_eqn(sim, 0, &d->r.eqn), 0);
	KUNIT_ASSERT_EQ(test, sk_create_tis(test, &d->r, &d->tisn),
			PRM_STAT_OK);
	mlx5x_sim_set_event_handler(sim, sk_run_event, d);
	return d;
}

/*
 * Undo sk_run_new() once the case's queues are gone; the pages go only
 * if nothing is left that the worker could reach them through.
 */
static void sk_run_free(struct kunit *test, struct sk_run *d)
{
	mlx5x_sim_set_event_handler(sk_sim(test), NULL, NULL);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS,
					   d->r.uid, d->tisn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, d->r.uid, d->ro_umem),
			PRM_STAT_OK);
	sk_q_fini(test, &d->r);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
	if (!sk_live(test))
		__free_pages(d->pages, SK_R_ORDER);
}

/* A CQ of 16 CQEs at the start of @umem; its doorbell record in r.umem. */
static u32 sk_run_cq(struct kunit *test, struct sk_run *d, u32 umem)
{
	void *in = sk_cq_in(test, &d->r);
	void *cqc = PRM_ADDR(create_cq_in, in, cq_context);
	u32 cqn;

	KUNIT_ASSERT_EQ(test, PRM_GET(cqc, cqc, log_cq_size), 4);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_ID, 32, umem);
	PRM_SET64(cqc, cqc, dbr_addr, SK_R_DBR);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_cq_in),
					  PRM_BYTES(create_cq_out), &cqn),
			PRM_STAT_OK);
	return cqn;
}

/* An SQ on CQ @cqn over ring @ring, in RST. */
static u32 sk_run_sq(struct kunit *test, struct sk_run *d, u32 cqn,
		     unsigned int ring)
{
	void *in = sk_sq_in(test, &d->r, cqn, d->tisn);
	void *wq = PRM_ADDR(sqc, PRM_ADDR(create_sq_in, in, ctx), wq);
	u32 sqn;

	PRM_SET(wq, wq, log_wq_sz, SK_R_LOG_BB);
	prm_set_bits(wq, SIM_WQ_UMEM_OFFSET + 32, 32, SK_R_RING(ring));
	PRM_SET64(wq, wq, dbr_addr, SK_R_SQ_DBR(ring));
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_sq_in),
					  PRM_BYTES(create_sq_out), &sqn),
			PRM_STAT_OK);
	return sqn;
}

static u32 sk_run_ready_sq(struct kunit *test, struct sk_run *d, u32 cqn,
			   unsigned int ring)
{
	u32 sqn = sk_run_sq(test, d, cqn, ring);

	KUNIT_ASSERT_EQ(test, sk_wq_modify(test, true, d->r.uid, sqn, RST,
					   RDY), PRM_STAT_OK);
	return sqn;
}

/*
 * A SEND of @ds segments: the control segment, the Ethernet segment
 * with the header inline, and one inline data segment over the rest.
 * Returns the basic blocks it takes.
 */
static u32 sk_run_wqe(u8 *wqe, u32 sqn, u16 idx, u8 ds, bool signalled)
{
	struct sim_wqe_ctrl *c = (void *)wqe;
	struct sim_wqe_eth *e = (void *)(wqe + SIM_WQE_SEG);
	u32 nbb = DIV_ROUND_UP(ds * SIM_WQE_SEG, SIM_SEND_WQE_BB);
	u8 *inl = wqe + SK_R_DS_MIN * SIM_WQE_SEG;
	u32 len;

	memset(wqe, 0, SK_R_WQE_BYTES);
	/* what lies past the segments in the last block is no part of it */
	memset(wqe + ds * SIM_WQE_SEG, 0xff,
	       nbb * SIM_SEND_WQE_BB - ds * SIM_WQE_SEG);
	c->opmod_idx_opcode = cpu_to_be32((u32)idx << 8 | SIM_OPCODE_SEND);
	c->qpn_ds = cpu_to_be32(sqn << 8 | ds);
	c->fm_ce_se = signalled ? SIM_WQE_CTRL_CQ_UPDATE : 0;
	e->inline_hdr.sz = cpu_to_be16(sizeof(sk_r_hdr));
	memcpy(wqe + SK_R_HDR_OFF, sk_r_hdr, sizeof(sk_r_hdr));
	if (ds > SK_R_DS_MIN) {
		len = (ds - SK_R_DS_MIN) * SIM_WQE_SEG - 4;
		*(__be32 *)inl = cpu_to_be32(SIM_WQE_INLINE | len);
		memset(inl + 4, 0x5a, len);
	}
	return nbb;
}

/* Write @nbb basic blocks of @wqe into ring @ring from block @bb on. */
static void sk_run_post(struct sk_run *d, unsigned int ring, u16 bb,
			const u8 *wqe, u32 nbb)
{
	u32 i;

	for (i = 0; i < nbb; i++)
		memcpy(d->mem + SK_R_RING(ring) +
		       ((bb + i) & (SK_R_BB - 1)) * SIM_SEND_WQE_BB,
		       wqe + i * SIM_SEND_WQE_BB, SIM_SEND_WQE_BB);
}

/* The doorbell record of ring @ring: @pi basic blocks posted in all. */
static void sk_run_ring(struct sk_run *d, unsigned int ring, u16 pi)
{
	/* the WQEs before the counter that says they are there */
	wmb();
	*(__be32 *)(d->mem + SK_R_SQ_DBR(ring) + SIM_DBR_SND) =
		cpu_to_be32(pi);
}

/*
 * An object of the model.  It stays while the case does not destroy it
 * (the worker destroys nothing); its fields are read under the lock.
 */
static void *sk_run_obj(struct kunit *test, enum sim_obj_type type, u32 id)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_obj *obj;

	mutex_lock(&sim->lock);
	obj = xa_load(&sim->objs[type], id);
	mutex_unlock(&sim->lock);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	return obj;
}

static struct sim_wq *sk_run_wq(struct kunit *test, u32 sqn)
{
	return container_of(sk_run_obj(test, SIM_OBJ_SQ, sqn), struct sim_wq,
			    q.obj);
}

static struct sim_cq *sk_run_cqo(struct kunit *test, u32 cqn)
{
	return container_of(sk_run_obj(test, SIM_OBJ_CQ, cqn), struct sim_cq,
			    q.obj);
}

/* Let the worker run until each of the @n SQs consumed @cc blocks. */
static bool sk_run_wait(struct kunit *test, const u32 *sqn, unsigned int n,
			u16 cc)
{
	struct sim_wq **sq = kunit_kcalloc(test, n, sizeof(*sq), GFP_KERNEL);
	struct mlx5x_sim *sim = sk_sim(test);
	unsigned int ms, i, done;

	KUNIT_ASSERT_NOT_NULL(test, sq);
	for (i = 0; i < n; i++)
		sq[i] = sk_run_wq(test, sqn[i]);
	for (ms = 0; ms < SK_R_WAIT_MS; ms += 10) {
		mutex_lock(&sim->lock);
		for (done = 0, i = 0; i < n; i++)
			done += sq[i]->dp.cc == cc;
		mutex_unlock(&sim->lock);
		if (done == n)
			return true;
		usleep_range(5000, 10000);
	}
	return false;
}

static unsigned int sk_run_events(struct kunit *test, struct sk_run *d)
{
	struct mlx5x_sim *sim = sk_sim(test);
	unsigned int n;

	mutex_lock(&sim->lock);
	n = d->events;
	mutex_unlock(&sim->lock);
	return n;
}

/* The CQE in slot @i of the CQ at the start of the pages. */
static const struct sim_cqe *sk_run_cqe(struct sk_run *d, u32 i)
{
	return (const void *)(d->mem + i * sizeof(struct sim_cqe));
}

/* The worker's figures: the first line of fw/datapath. */
struct sk_run_stats {
	u64 passes, busy_passes, wqes, tx_packets, holds, max_hold_ns;
	u64 quick_polls, rungs, rung_wqes, rung_named;
};

/* The number after the word @name in @line. */
static u64 sk_run_field(struct kunit *test, const char *line,
			const char *name)
{
	size_t len = strlen(name);
	const char *p = line;
	unsigned long long v;
	int got;

	while ((p = strstr(p, name)) &&
	       ((p != line && p[-1] != ' ') || p[len] != ' '))
		p += len;
	KUNIT_ASSERT_NOT_NULL_MSG(test, p, "no %s in \"%s\"", name, line);
	got = sscanf(p + len, " %llu", &v);
	KUNIT_ASSERT_EQ(test, got, 1);
	return v;
}

/*
 * debugfs files have no read_iter for kernel_read(), but their seq_file
 * is there once open: read it with seq_read_iter() into a kernel buffer.
 */
static void sk_run_stats(struct kunit *test, struct sk_run_stats *s)
{
	const size_t size = 512;
	char *buf = kunit_kzalloc(test, size, GFP_KERNEL);
	struct kvec kv = { .iov_base = buf, .iov_len = size - 1 };
	struct iov_iter iter;
	struct kiocb kiocb;
	struct file *f;
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	f = filp_open(SK_R_DBG_FILE, O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s: %ld", SK_R_DBG_FILE,
			       PTR_ERR(f));
	init_sync_kiocb(&kiocb, f);
	iov_iter_kvec(&iter, ITER_DEST, &kv, 1, kv.iov_len);
	n = seq_read_iter(&kiocb, &iter);
	__fput_sync(f);
	KUNIT_ASSERT_GT(test, n, 0);
	strreplace(buf, '\n', '\0');
	s->passes = sk_run_field(test, buf, "passes");
	s->busy_passes = sk_run_field(test, buf, "busy_passes");
	s->wqes = sk_run_field(test, buf, "wqes");
	s->tx_packets = sk_run_field(test, buf, "tx_packets");
	s->holds = sk_run_field(test, buf, "holds");
	s->max_hold_ns = sk_run_field(test, buf, "max_hold_ns");
	s->quick_polls = sk_run_field(test, buf, "quick_polls");
	s->rungs = sk_run_field(test, buf, "rungs");
	s->rung_wqes = sk_run_field(test, buf, "rung_wqes");
	s->rung_named = sk_run_field(test, buf, "rung_named");
}

/*
 * The largest send WQE, 63 segments, is 16 basic blocks long and is
 * read whole, also when it runs over the ring's end (and the bytes of
 * its last block past the segments are not part of it).
 */
static void sk_run_big_wqe(struct kunit *test)
{
	struct sk_run *d = sk_run_new(test);
	struct mlx5x_sim *sim = sk_sim(test);
	const struct sim_cqe *cqe;
	u32 cqn, sqn, i, nbb;
	u64 ts, prev = 0;
	struct sim_wq *sq;
	struct sim_cq *cq;
	u16 pi;

	cqn = sk_run_cq(test, d, d->r.umem);
	sqn = sk_run_ready_sq(test, d, cqn, 0);
	/* a one-block WQE first, so that the last big one wraps */
	mutex_lock(&sim->lock);
	nbb = sk_run_wqe(d->wqe, sqn, 0, SK_R_DS_MIN, true);
	sk_run_post(d, 0, 0, d->wqe, nbb);
	sk_run_ring(d, 0, nbb);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, nbb, 1);
	KUNIT_ASSERT_TRUE(test, sk_run_wait(test, &sqn, 1, 1));

	mutex_lock(&sim->lock);
	for (pi = 1, i = 0; i < 4; i++, pi += nbb) {
		nbb = sk_run_wqe(d->wqe, sqn, pi, SIM_WQE_MAX_DS, true);
		sk_run_post(d, 0, pi, d->wqe, nbb);
	}
	sk_run_ring(d, 0, pi);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, nbb, SK_R_WQE_BYTES / SIM_SEND_WQE_BB);
	KUNIT_EXPECT_EQ(test, pi, SK_R_BB + 1);
	KUNIT_ASSERT_TRUE(test, sk_run_wait(test, &sqn, 1, pi));

	/* each sent: a good CQE with its index, the SQ still ready */
	for (i = 0; i < 5; i++) {
		cqe = sk_run_cqe(d, i);
		KUNIT_EXPECT_EQ_MSG(test, cqe->op_own >> 4, SIM_CQE_REQ,
				    "cqe %u", i);
		KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe->wqe_counter),
				i ? 1 + (i - 1) * nbb : 0);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(cqe->sop_drop_qpn) &
				0xffffff, sqn);
		/* the device's clock, big endian, in order of completion */
		ts = be64_to_cpup((const __be64 *)cqe->timestamp);
		KUNIT_EXPECT_GE(test, ts, i ? prev : 1);
		prev = ts;
	}
	KUNIT_EXPECT_LE(test, prev, mlx5x_sim_clock_ns(sim));
	KUNIT_EXPECT_EQ(test, sk_run_cqe(d, 5)->op_own, 0);
	sq = sk_run_wq(test, sqn);
	cq = sk_run_cqo(test, cqn);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sq->dp.packets, 5);
	KUNIT_EXPECT_EQ(test, PRM_GET(sqc, sq->ctx, state), RDY);
	KUNIT_EXPECT_EQ(test, cq->dp.pi, 5);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sk_run_events(test, d), 0);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ,
					   d->r.uid, sqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   d->r.uid, cqn), PRM_STAT_OK);
	sk_run_free(test, d);
}

/*
 * Post @n one-block WQEs of SQ @sqn on ring @ring from index @from, and
 * ring them; the model's lock held, so that the worker sees all or none.
 */
static void sk_run_queue(struct kunit *test, struct sk_run *d,
			 unsigned int ring, u32 sqn, u16 from, u16 n,
			 bool signalled)
{
	u16 i;

	for (i = from; i < from + n; i++) {
		sk_run_wqe(d->wqe, sqn, i, SK_R_DS_MIN, signalled);
		sk_run_post(d, ring, i, d->wqe, 1);
	}
	sk_run_ring(d, ring, from + n);
}

static void sk_run_send(struct kunit *test, struct sk_run *d,
			unsigned int ring, u32 sqn, u16 from, u16 n)
{
	struct mlx5x_sim *sim = sk_sim(test);

	mutex_lock(&sim->lock);
	sk_run_queue(test, d, ring, sqn, from, n, true);
	mutex_unlock(&sim->lock);
}

/* What the first event says: a CQ error on @cqn for @syndrome. */
static void sk_run_expect_cq_error(struct kunit *test, struct sk_run *d,
				   u32 cqn, u8 syndrome)
{
	const void *data = PRM_ADDR(eqe, d->eqe, event_data);
	u32 type = PRM_GET(eqe, d->eqe, event_type);
	u32 ev_cqn = PRM_GET(cq_error, data, cqn);
	u32 ev_syndrome = PRM_GET(cq_error, data, syndrome);

	KUNIT_EXPECT_EQ(test, type, SIM_EV_CQ_ERROR);
	KUNIT_EXPECT_EQ(test, ev_cqn, cqn);
	KUNIT_EXPECT_EQ(test, ev_syndrome, syndrome);
}

/* What the last event says: the WQ catastrophic error of SQ @sqn. */
static void sk_run_expect_sq_catas(struct kunit *test, struct sk_run *d,
				   u32 sqn)
{
	const void *data = PRM_ADDR(eqe, d->last, event_data);
	u32 type = PRM_GET(eqe, d->last, event_type);
	u32 queue = PRM_GET(qp_events, data, type);
	u32 num = PRM_GET(qp_events, data, qpn_rqn_sqn);

	KUNIT_EXPECT_EQ(test, type, SIM_EV_WQ_CATAS_ERROR);
	KUNIT_EXPECT_EQ(test, queue, 2);	/* qp_events.type: an SQ */
	KUNIT_EXPECT_EQ(test, num, sqn);
}

/*
 * A CQ whose buffer the device may not write (its umem's page has no
 * wr_en): the first CQE is not written, the CQ takes no more, and a CQ
 * error event says it was an access error.  The first send went; its
 * SQ, which could not report it, goes to ERR with the WQ catastrophic
 * error, and flushes the rest.
 */
static void sk_run_cq_ro(struct kunit *test)
{
	struct sk_run *d = sk_run_new(test);
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_wq *sq;
	struct sim_cq *cq;
	u32 cqn, sqn;

	cqn = sk_run_cq(test, d, d->ro_umem);
	sqn = sk_run_ready_sq(test, d, cqn, 0);
	sk_run_send(test, d, 0, sqn, 0, 3);
	KUNIT_ASSERT_TRUE(test, sk_run_wait(test, &sqn, 1, 3));
	KUNIT_EXPECT_EQ(test, sk_run_events(test, d), 2);
	sk_run_expect_cq_error(test, d, cqn, SIM_CQ_ERROR_ACCESS);
	sk_run_expect_sq_catas(test, d, sqn);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(d->mem, 0, PAGE_SIZE), NULL);
	sq = sk_run_wq(test, sqn);
	cq = sk_run_cqo(test, cqn);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_TRUE(test, cq->dp.error);
	KUNIT_EXPECT_EQ(test, cq->dp.pi, 0);
	KUNIT_EXPECT_EQ(test, sq->dp.packets, 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(sqc, sq->ctx, state),
			MLX5_SQC_STATE_ERR);
	mutex_unlock(&sim->lock);

	/* the CQ stays in error: more flushes, no more events */
	sk_run_send(test, d, 0, sqn, 3, 2);
	KUNIT_ASSERT_TRUE(test, sk_run_wait(test, &sqn, 1, 5));
	KUNIT_EXPECT_EQ(test, sk_run_events(test, d), 2);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(d->mem, 0, PAGE_SIZE), NULL);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ,
					   d->r.uid, sqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   d->r.uid, cqn), PRM_STAT_OK);
	sk_run_free(test, d);
}

/*
 * A CQ a whole ring ahead of its consumer: the error says overrun; the
 * SQ whose CQE it refused goes to ERR with the WQ catastrophic error.
 */
static void sk_run_cq_overrun(struct kunit *test)
{
	struct sk_run *d = sk_run_new(test);
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cq *cq;
	u32 cqn, sqn;

	cqn = sk_run_cq(test, d, d->r.umem);
	sqn = sk_run_ready_sq(test, d, cqn, 0);
	sk_run_send(test, d, 0, sqn, 0, SK_R_CQES + 2);
	KUNIT_ASSERT_TRUE(test, sk_run_wait(test, &sqn, 1, SK_R_CQES + 2));
	KUNIT_EXPECT_EQ(test, sk_run_events(test, d), 2);
	sk_run_expect_cq_error(test, d, cqn, SIM_CQ_ERROR_OVERRUN);
	sk_run_expect_sq_catas(test, d, sqn);
	KUNIT_EXPECT_EQ(test, sk_run_cqe(d, SK_R_CQES - 1)->op_own >> 4,
			SIM_CQE_REQ);
	cq = sk_run_cqo(test, cqn);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_TRUE(test, cq->dp.error);
	KUNIT_EXPECT_EQ(test, cq->dp.pi, SK_R_CQES);
	mutex_unlock(&sim->lock);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ,
					   d->r.uid, sqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   d->r.uid, cqn), PRM_STAT_OK);
	sk_run_free(test, d);
}

/*
 * Let the worker go on (nothing more posted) until two more passes have
 * ended, so that one a check would catch halfway has ended too.
 */
static void sk_run_settle(struct kunit *test, struct sk_run_stats *s)
{
	u64 passes;
	unsigned int ms;

	sk_run_stats(test, s);
	passes = s->passes;
	for (ms = 0; ms < SK_R_WAIT_MS && s->passes < passes + 2; ms += 10) {
		usleep_range(5000, 10000);
		sk_run_stats(test, s);
	}
	KUNIT_ASSERT_GE(test, s->passes, passes + 2);
}

/*
 * One hold of the model's lock executes at most 64 WQEs: three SQs with
 * 64 each take three holds of one pass, each resuming where the last
 * stopped, and every WQE is executed in that one pass; every other pass
 * (nothing posted) is one hold.  The next pass starts over from the
 * first SQ: a second round is the same.
 */
static void sk_run_holds(struct kunit *test)
{
	struct sk_run *d = sk_run_new(test);
	struct mlx5x_sim *sim = sk_sim(test);
	u32 cqn, sqn[3], n = ARRAY_SIZE(sqn);
	struct sk_run_stats s;
	unsigned int i, round;
	struct sim_wq *sq;
	u64 packets;

	cqn = sk_run_cq(test, d, d->r.umem);
	for (i = 0; i < n; i++)
		sqn[i] = sk_run_ready_sq(test, d, cqn, i);
	for (round = 1; round <= 2; round++) {
		/* all posted at once, between two passes */
		mutex_lock(&sim->lock);
		for (i = 0; i < n; i++)
			sk_run_queue(test, d, i, sqn[i], (round - 1) * SK_R_BB,
				     SK_R_BB, false);
		mutex_unlock(&sim->lock);
		KUNIT_ASSERT_TRUE(test, sk_run_wait(test, sqn, n,
						    round * SK_R_BB));
		sk_run_settle(test, &s);
		KUNIT_EXPECT_EQ(test, s.wqes, round * n * SK_R_BB);
		KUNIT_EXPECT_EQ(test, s.tx_packets, round * n * SK_R_BB);
		KUNIT_EXPECT_EQ(test, s.busy_passes, round);
		KUNIT_EXPECT_EQ(test, s.holds, s.passes + round * (n - 1));
		KUNIT_EXPECT_GT(test, s.max_hold_ns, 0);
	}
	for (i = 0; i < n; i++) {
		sq = sk_run_wq(test, sqn[i]);
		mutex_lock(&sim->lock);
		packets = sq->dp.packets;
		mutex_unlock(&sim->lock);
		KUNIT_EXPECT_EQ(test, packets, 2 * SK_R_BB);
	}
	KUNIT_EXPECT_EQ(test, sk_run_events(test, d), 0);

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, sk_q_destroy(test,
						   MLX5_CMD_OP_DESTROY_SQ,
						   d->r.uid, sqn[i]),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   d->r.uid, cqn), PRM_STAT_OK);
	sk_run_free(test, d);
}

/*
 * One hold looks at most at 256 SQs.  With 260, every pass takes two
 * holds; WQEs of the first SQ past the cut and of the last one are all
 * executed by the one pass that found them.
 */
#define SK_R_MANY_SQS	260
#define SK_R_CUT_SQ	256

static void sk_run_hold_sqs(struct kunit *test)
{
	struct sk_run *d = sk_run_new(test);
	struct mlx5x_sim *sim = sk_sim(test);
	u32 cqn, *sqn, last = SK_R_MANY_SQS - 1, busy[2];
	struct sk_run_stats s;
	unsigned int i;

	sqn = kunit_kcalloc(test, SK_R_MANY_SQS, sizeof(*sqn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sqn);
	cqn = sk_run_cq(test, d, d->r.umem);
	/* all of them first, so that every pass sees them all */
	for (i = 0; i < SK_R_MANY_SQS; i++)
		sqn[i] = sk_run_sq(test, d, cqn, i == SK_R_CUT_SQ ? 1 :
					       i == last ? 2 : 0);
	for (i = 0; i < SK_R_MANY_SQS; i++)
		KUNIT_ASSERT_EQ(test, sk_wq_modify(test, true, d->r.uid,
						   sqn[i], RST, RDY),
				PRM_STAT_OK);
	busy[0] = sqn[SK_R_CUT_SQ];
	busy[1] = sqn[last];
	mutex_lock(&sim->lock);
	sk_run_queue(test, d, 1, busy[0], 0, 4, false);
	sk_run_queue(test, d, 2, busy[1], 0, 4, false);
	mutex_unlock(&sim->lock);
	KUNIT_ASSERT_TRUE(test, sk_run_wait(test, busy, ARRAY_SIZE(busy), 4));

	sk_run_settle(test, &s);
	KUNIT_EXPECT_EQ(test, s.wqes, 8);
	KUNIT_EXPECT_EQ(test, s.busy_passes, 1);
	/* two holds a pass; read between them, one more than that */
	KUNIT_EXPECT_GE(test, s.holds, 2 * s.passes);
	KUNIT_EXPECT_LE(test, s.holds, 2 * s.passes + 1);

	for (i = 0; i < SK_R_MANY_SQS; i++)
		KUNIT_EXPECT_EQ(test, sk_q_destroy(test,
						   MLX5_CMD_OP_DESTROY_SQ,
						   d->r.uid, sqn[i]),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   d->r.uid, cqn), PRM_STAT_OK);
	sk_run_free(test, d);
}

/* fw/datapath of each case's model, under a directory of its own. */
static struct dentry *sk_run_dir;

static int sk_run_init(struct kunit *test)
{
	int err = sk_init(test);

	if (err)
		return err;
	sk_run_dir = debugfs_create_dir(SK_R_DBG_DIR, NULL);
	if (IS_ERR_OR_NULL(sk_run_dir))
		return -ENODEV;
	mlx5x_sim_debugfs_init(sk_sim(test), sk_run_dir);
	return 0;
}

static void sk_run_exit(struct kunit *test)
{
	sk_exit(test);
	debugfs_remove_recursive(sk_run_dir);
	sk_run_dir = NULL;
}

/*
 * A CQ resized: the resize CQE (opcode 5) lands in the old ring where
 * the next CQE would have gone (slot 0, the first pass's owner bit), and
 * the CQ takes its new size and buffer (page 2 on).
 */
static void sk_run_cq_resize(struct kunit *test)
{
	struct sk_run *d = sk_run_new(test);
	void *out = SK_MBOX(test, query_cq_out);
	const void *cqc = PRM_ADDR(query_cq_out, out, cq_context);
	u32 cqn = sk_run_cq(test, d, d->r.umem);

	KUNIT_EXPECT_EQ(test, sk_cq_resize(test, d->r.uid, cqn,
					   SIM_CQ_RESIZE_LOG_SIZE, 6,
					   d->r.umem, 2 * PAGE_SIZE),
			PRM_STAT_OK);
	/* slot 0 of the old ring: its op_own byte, last of its 64 */
	KUNIT_EXPECT_EQ(test, d->mem[63], 0x50);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_CQ, d->r.uid,
					 cqn, out, PRM_BYTES(query_cq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, log_cq_size), 6);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   d->r.uid, cqn), PRM_STAT_OK);
	sk_run_free(test, d);
}

/* The driver's idle handler: every doorbell is armed (counted). */
static bool sk_run_idle(void *ctx)
{
	atomic_inc(ctx);
	return true;
}

/*
 * A trapped doorbell (mlx5x_sim_rung()): the WQEs posted before it are
 * executed when it returns, whoever took them.  Then the worker asks
 * the driver to arm the doorbells, and once all are it does not poll
 * for them every SIM_DP_POLL_NS (hundreds of polls in the 20 ms after
 * traffic), only a jiffy apart.  A doorbell that names a queue of the
 * ringing context serves that queue alone (the other's WQEs are not the
 * rung's); one that names a queue of another context, or none, serves
 * every queue.
 */
static void sk_run_rung(struct kunit *test)
{
	struct sk_run *d = sk_run_new(test);
	struct mlx5x_sim *sim = sk_sim(test);
	atomic_t idle = ATOMIC_INIT(0);
	struct sk_run_stats a, b, c;
	struct sim_wq *sq, *sq1;
	u32 cqn, sqn, sqn1;
	u16 cc, cc1;

	mlx5x_sim_set_idle_handler(sim, sk_run_idle, &idle);
	cqn = sk_run_cq(test, d, d->r.umem);
	sqn = sk_run_ready_sq(test, d, cqn, 0);
	sqn1 = sk_run_ready_sq(test, d, cqn, 1);
	sq = sk_run_wq(test, sqn);
	sq1 = sk_run_wq(test, sqn1);
	sk_run_stats(test, &a);
	sk_run_send(test, d, 0, sqn, 0, 4);
	sk_run_send(test, d, 1, sqn1, 0, 2);
	mlx5x_sim_rung(sim, true, d->r.uid, sqn);
	mutex_lock(&sim->lock);
	cc = sq->dp.cc;
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, cc, 4);
	sk_run_stats(test, &b);
	KUNIT_EXPECT_EQ(test, b.rungs, a.rungs + 1);
	/* none, if the worker took them first: the rung found no work */
	KUNIT_EXPECT_LE(test, b.rung_wqes - a.rung_wqes, 4);
	KUNIT_EXPECT_EQ(test, b.rung_named - a.rung_named,
			b.rung_wqes != a.rung_wqes);
	msleep(20);
	sk_run_stats(test, &c);
	KUNIT_EXPECT_GT(test, atomic_read(&idle), 0);
	KUNIT_EXPECT_LT(test, c.quick_polls - b.quick_polls, 20);

	/* another context's queue, or no queue: every queue is served */
	sk_run_send(test, d, 0, sqn, 4, 4);
	sk_run_send(test, d, 1, sqn1, 2, 2);
	mlx5x_sim_rung(sim, false, d->r.uid + 1, sqn);
	mutex_lock(&sim->lock);
	cc = sq->dp.cc;
	cc1 = sq1->dp.cc;
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, cc, 8);
	KUNIT_EXPECT_EQ(test, cc1, 4);
	sk_run_stats(test, &b);
	KUNIT_EXPECT_EQ(test, b.rung_named, c.rung_named);

	mlx5x_sim_set_idle_handler(sim, NULL, NULL);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ,
					   d->r.uid, sqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_SQ,
					   d->r.uid, sqn1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   d->r.uid, cqn), PRM_STAT_OK);
	sk_run_free(test, d);
}

static struct kunit_case sk_run_cases[] = {
	KUNIT_CASE(sk_run_rung),
	KUNIT_CASE(sk_run_big_wqe),
	KUNIT_CASE(sk_run_cq_ro),
	KUNIT_CASE(sk_run_cq_overrun),
	KUNIT_CASE(sk_run_cq_resize),
	KUNIT_CASE(sk_run_holds),
	KUNIT_CASE(sk_run_hold_sqs),
	{}
};

static struct kunit_suite sk_run_suite = {
	.name = "mlx5x_sim_dp_run",
	.init = sk_run_init,
	.exit = sk_run_exit,
	.test_cases = sk_run_cases,
};

kunit_test_suite(sk_run_suite);
