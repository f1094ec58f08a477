// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What an unprivileged process tries with a DEVX context, each as the
 * least-privileged user that could try it (nobody, with CAP_NET_RAW only
 * where the attack needs to send), and what must hold:
 *
 * - a umem is exactly the memory that was pinned, whatever page sizes the
 *   caller offers (a 4 KiB buffer offered only 8 KiB pages is refused,
 *   and no object reaches past a umem's last pinned byte, on transparent
 *   huge pages too);
 * - the device never writes what was pinned read-only: a CQ over a
 *   read-only mapping of a file takes no CQE (a CQ error says why) and
 *   the file never changes, whether the pages were registered as a DEVX
 *   umem or as a read-only verbs MR whose umem another object names; an
 *   mkey that would write such pages is refused;
 * - MLX5_UCTX_CAP_RAW_TX gates what puts frames on the wire: without
 *   CAP_NET_RAW no TIS and no SQ;
 * - device memory reads as zeroes when allocated, whoever held it before,
 *   in the MEMIC and in its operation windows;
 * - the largest send WQE (63 segments, 16 basic blocks) executes;
 * - an mkey index freed by one context and taken by another's create
 *   never makes that create fail;
 * - the debugfs steer file (root's) reaches only its writer's own TIRs.
 *
 * Documentation/security.rst states the model these cases check.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define PAGE			4096UL
#define HUGE			(2UL << 20)
#define EV_CQ_ERROR		0x04
/* eqe.event_data.cq_error.syndrome; 2: the CQ's buffer may not be written */
#define EQE_CQ_ERROR_SYNDROME	PRM_EQE_EVENT_DATA_CQ_ERROR_SYNDROME
#define CQ_ERROR_ACCESS		2
#define MKC(f)			PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_##f
#define WAIT_MS			2000
/* An SQ's send counter: the doorbell record's second word */
#define DBR_SND			4
#define SEND_OPCODE		0x0a
#define CTRL_CQ_UPDATE		0x08
#define INLINE_SEG		0x80000000U
#define HDR_LEN			18

/* What a case's parent tells its children. */
struct arg {
	bool sim;		/* the device is the model: its syndromes */
	const char *path;	/* a root-owned file, readable by all */
	uint32_t tirn;
};

/* 4 MiB of anonymous memory, its 2 MiB-aligned half offered THP. */
static void *thp_alloc(void **map)
{
	uint8_t *p = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long i;

	*map = p;
	if (p == MAP_FAILED)
		return NULL;
	p = (uint8_t *)(((unsigned long)p + HUGE - 1) & ~(HUGE - 1));
	madvise(p, HUGE, MADV_HUGEPAGE);
	for (i = 0; i < HUGE; i += PAGE)
		p[i] = 1;
	return p;
}

/* A CQ of 2^@log 64-byte CQEs at offset 0 of @umem, its DBR in q's. */
static struct mlx5dv_devx_obj *cq_over(struct mq *q, uint32_t umem,
				       unsigned int log, uint32_t *cqn,
				       uint32_t *out)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4];
	struct mlx5dv_devx_obj *obj;

	mq_cq_in(q, in);
	mt_set(in, CQ_UMEM_ID, umem);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, log);
	mt_set(in, MT_FIELD(PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_ADDR_OFF + 32, 32),
	       MQ_DBR - 64);
	memset(out, 0, 16);
	obj = mlx5dv_devx_obj_create(q->ctx, in, sizeof(in), out, 16);
	*cqn = obj ? mt_get(out, PRM_CREATE_CQ_OUT_CQN) : 0;
	return obj;
}

/* --- a umem is what was pinned ---------------------------------------- */

static int umem_extent(void *unused)
{
	struct mlx5dv_devx_umem_in in = {
		.size = PAGE, .access = IBV_ACCESS_LOCAL_WRITE,
		.pgsz_bitmap = 2 * PAGE,
	};
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *cq;
	uint32_t cqn, out[4];
	void *map = NULL;
	struct mq q;

	(void)unused;
	if (!mq_open(&q))
		goto out;
	in.addr = thp_alloc(&map);
	if (!CHECK(in.addr))
		goto out;
	/* only 8 KiB pages offered for 4 KiB: none fits what is pinned */
	errno = 0;
	umem = mlx5dv_devx_umem_reg_ex(q.ctx, &in);
	if (!CHECK(!umem))
		mlx5dv_devx_umem_dereg(umem);
	CHECK_ERR(errno, EINVAL);
	/*
	 * 12 KiB on a huge page, any page size: a 16 KiB CQ must not fit,
	 * an 8 KiB one must.
	 */
	umem = mlx5dv_devx_umem_reg(q.ctx, in.addr, 3 * PAGE,
				    IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(umem))
		goto out;
	cq = cq_over(&q, umem->umem_id, 8, &cqn, out);
	if (!CHECK(!cq))
		mlx5dv_devx_obj_destroy(cq);
	cq = cq_over(&q, umem->umem_id, 7, &cqn, out);
	if (CHECK(cq))
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq), 0);
	CHECK_ERR(mlx5dv_devx_umem_dereg(umem), 0);
out:
	mq_close(&q);
	if (map)
		munmap(map, 2 * HUGE);
	return KSFT_PASS;
}

static int test_umem_is_what_was_pinned(void)
{
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, umem_extent, NULL), KSFT_PASS);
	return KSFT_PASS;
}

/* --- the device never writes read-only pages --------------------------- */

/* A root-owned 8 KiB file of a pattern, readable by all, at @path. */
static bool file_make(char *path, uint8_t *want)
{
	int fd = mkstemp(path);
	size_t i;

	if (!CHECK(fd >= 0))
		return false;
	for (i = 0; i < 2 * PAGE; i++)
		want[i] = (uint8_t)(i * 7 + 3);
	return CHECK_EQ(write(fd, want, 2 * PAGE), (ssize_t)(2 * PAGE)) &&
	       CHECK_EQ(fchmod(fd, 0644), 0) && CHECK_EQ(close(fd), 0);
}

static bool file_same(const char *path, const uint8_t *want)
{
	uint8_t got[2 * PAGE];
	int fd = open(path, O_RDONLY);
	bool same;

	if (!CHECK(fd >= 0))
		return false;
	same = read(fd, got, sizeof(got)) == (ssize_t)sizeof(got) &&
	       !memcmp(got, want, sizeof(got));
	close(fd);
	return same;
}

/* RST -> RDY of an SQ. */
static bool sq_ready(struct mq_obj *sq)
{
	uint32_t in[PRM_MODIFY_SQ_IN_BYTES / 4] = {}, out[4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_MODIFY_SQ);
	mt_set(in, PRM_MODIFY_SQ_IN_SQ_STATE, WQ_RST);
	mt_set(in, PRM_MODIFY_SQ_IN_SQN, sq->id);
	mt_set(in, PRM_MODIFY_SQ_IN_CTX_STATE, WQ_RDY);
	return CHECK_ERR(mlx5dv_devx_obj_modify(sq->obj, in, sizeof(in), out,
						sizeof(out)), 0);
}

/*
 * A signalled SEND at basic block @bb of q's SQ ring (16 of 64 bytes at
 * the umem's start): an 18-byte inline header, then @nseg inline data
 * segments of 12 bytes.  Returns the basic blocks it takes.
 */
static unsigned int sq_wqe(struct mq *q, uint32_t sqn, unsigned int bb,
			   unsigned int nseg)
{
	uint8_t wqe[16 * 64] = {}, *p;
	unsigned int ds = 3 + nseg, i, nbb = (ds * 16 + 63) / 64;
	uint32_t w;

	w = htobe32(bb << 8 | SEND_OPCODE);
	memcpy(wqe, &w, 4);
	w = htobe32(sqn << 8 | ds);
	memcpy(wqe + 4, &w, 4);
	wqe[11] = CTRL_CQ_UPDATE;
	wqe[28] = 0;
	wqe[29] = HDR_LEN;			/* eth.inline_hdr.sz */
	memset(wqe + 30, 0x02, HDR_LEN);	/* the frame's start */
	for (i = 0; i < nseg; i++) {
		p = wqe + 48 + 16 * i;
		w = htobe32(INLINE_SEG | 12);
		memcpy(p, &w, 4);
		memset(p + 4, 0x5a, 12);
	}
	for (i = 0; i < nbb; i++)
		memcpy((uint8_t *)q->buf + ((bb + i) % 16) * 64, wqe + 64 * i,
		       64);
	return nbb;
}

/* Ring: the SQ's send counter in the doorbell record is @n. */
static void sq_ring(struct mq *q, uint32_t n)
{
	uint32_t be = htobe32(n);

	__atomic_store_n((uint32_t *)((uint8_t *)q->buf + MQ_DBR + DBR_SND),
			 be, __ATOMIC_RELEASE);
}

/* A TIS and an SQ of q sending into CQ @cqn, ready. */
static bool sq_make(struct mq *q, uint32_t cqn, struct mq_obj *tis,
		    struct mq_obj *sq)
{
	return mq_tis(q, tis) && mq_sq(q, cqn, tis->id, sq) && sq_ready(sq);
}

/* Wait for a CQ error on @ch; its syndrome, or -1. */
static int cq_error(struct mlx5dv_devx_event_channel *ch)
{
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };
	struct {
		struct mlx5dv_devx_async_event_hdr hdr;
		uint8_t eqe[PRM_EQE_BYTES];
	} ev;

	if (poll(&p, 1, WAIT_MS) != 1 ||
	    mlx5dv_devx_get_event(ch, &ev.hdr, sizeof(ev)) != sizeof(ev))
		return -1;
	return mt_get(ev.eqe, EQE_CQ_ERROR_SYNDROME);
}

/*
 * CQ over umem @umem (the read-only pages), 8 signalled sends into it:
 * no CQE may land, and the CQ reports the access violation.
 */
static void send_into(struct mq *q, uint32_t umem, bool sim)
{
	struct mlx5dv_devx_event_channel *ch;
	struct mq_obj tis = {}, sq = {};
	struct mlx5dv_devx_obj *cq;
	uint16_t type = EV_CQ_ERROR;
	uint32_t cqn, out[4];
	unsigned int i, bb = 0;

	cq = cq_over(q, umem, 7, &cqn, out);
	ch = mlx5dv_devx_create_event_channel(q->ctx, 0);
	if (!CHECK(cq) || !CHECK(ch) ||
	    !CHECK_ERR(mlx5dv_devx_subscribe_devx_event(ch, cq, sizeof(type),
							&type, 1), 0) ||
	    !sq_make(q, cqn, &tis, &sq))
		goto out;
	for (i = 0; i < 8; i++)
		bb += sq_wqe(q, sq.id, bb, 0);
	sq_ring(q, bb);
	if (sim)
		CHECK_EQ(cq_error(ch), CQ_ERROR_ACCESS);
	else
		usleep(WAIT_MS * 1000);
out:
	if (sq.obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(sq.obj), 0);
	if (tis.obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(tis.obj), 0);
	if (cq)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq), 0);
	if (ch)
		mlx5dv_devx_destroy_event_channel(ch);
}

/* The file, mapped read-only and shared; NULL if it cannot be. */
static void *file_map(const char *path)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (!CHECK(fd >= 0))
		return NULL;
	p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	return CHECK(p != MAP_FAILED) ? p : NULL;
}

/* As a DEVX umem without write access. */
static int ro_devx_umem(void *varg)
{
	const struct arg *a = varg;
	struct mlx5dv_devx_umem *umem;
	void *map = file_map(a->path);
	struct mq q;

	if (!map || !mq_open(&q))
		return KSFT_FAIL;
	umem = mlx5dv_devx_umem_reg(q.ctx, map, 2 * PAGE, 0);
	if (!umem) {
		/* 6.1's pin breaks COW: the file's pages are never pinned */
		mt_diag("read-only file pages not registrable: errno %d",
			errno);
	} else {
		send_into(&q, umem->umem_id, a->sim);
		CHECK_ERR(mlx5dv_devx_umem_dereg(umem), 0);
	}
	mq_close(&q);
	munmap(map, 2 * PAGE);
	return KSFT_PASS;
}

/*
 * As a read-only verbs MR: the kernel registers its pages as a umem of
 * the context, which DEVX objects of the context can name (its id lies
 * between those of two DEVX umems registered around it).
 */
static int ro_mr_umem(void *varg)
{
	const struct arg *a = varg;
	struct mlx5dv_devx_umem *before = NULL, *after = NULL;
	void *map = file_map(a->path);
	struct ibv_mr *mr = NULL;
	struct ibv_pd *pd = NULL;
	uint32_t id, cqn, out[4];
	struct mlx5dv_devx_obj *cq;
	unsigned int named = 0;
	struct mq q;

	if (!map || !mq_open(&q))
		return KSFT_FAIL;
	pd = ibv_alloc_pd(q.ctx);
	before = mlx5dv_devx_umem_reg(q.ctx, q.buf, PAGE, 0);
	mr = pd ? ibv_reg_mr(pd, map, 2 * PAGE, 0) : NULL;
	after = mlx5dv_devx_umem_reg(q.ctx, q.buf, PAGE, 0);
	if (!CHECK(pd) || !CHECK(before) || !CHECK(after))
		goto out;
	if (!mr) {
		mt_diag("read-only file pages not registrable: errno %d",
			errno);
		goto out;
	}
	for (id = before->umem_id + 1; id < after->umem_id; id++) {
		cq = cq_over(&q, id, 7, &cqn, out);
		if (!cq)
			continue;
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq), 0);
		named++;
		send_into(&q, id, a->sim);
	}
	CHECK_EQ(named, 1);
out:
	if (after)
		mlx5dv_devx_umem_dereg(after);
	if (mr)
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	if (before)
		mlx5dv_devx_umem_dereg(before);
	if (pd)
		ibv_dealloc_pd(pd);
	mq_close(&q);
	munmap(map, 2 * PAGE);
	return KSFT_PASS;
}

static int test_readonly_file_never_written(void)
{
	char path[] = "/tmp/mlx5x_attack.XXXXXX";
	uint8_t want[2 * PAGE];
	struct arg a = { .sim = mt_sim(), .path = path };

	if (!file_make(path, want))
		return KSFT_FAIL;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW), ro_devx_umem,
			   &a), KSFT_PASS);
	CHECK(file_same(path, want));
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW), ro_mr_umem,
			   &a), KSFT_PASS);
	CHECK(file_same(path, want));
	unlink(path);
	return KSFT_PASS;
}

/* An mkey over read-only pages: reads, never writes. */
static int ro_mkey(void *varg)
{
	const struct arg *a = varg;
	uint8_t in[PRM_CREATE_MKEY_IN_BYTES] = {};
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4] = {};
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *mkey;
	struct mq q;

	if (!mq_open(&q))
		return KSFT_FAIL;
	umem = mlx5dv_devx_umem_reg(q.ctx, q.buf, 2 * PAGE, 0);
	if (!CHECK(umem))
		goto out;
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_MKEY);
	mt_set(in, PRM_CREATE_MKEY_IN_MKEY_UMEM_VALID, 1);
	mt_set(in, MKEY_UMEM_ID, umem->umem_id);
	mt_set(in, MKC(ACCESS_MODE_1_0), 1);		/* MTT */
	mt_set(in, MKC(QPN), 0xffffff);
	mt_set(in, MKC(PD), q.pd);
	mt_set(in, MKC(LR), 1);
	mt_set(in, MKC(RR), 1);
	mt_set(in, MT_FIELD(MKC(LEN_OFF) + 32, 32), 2 * PAGE);
	mt_set(in, MKC(LOG_PAGE_SIZE), 12);
	mt_set(in, MKC(TRANSLATIONS_OCTWORD_SIZE), 1);
	mkey = mlx5dv_devx_obj_create(q.ctx, in, sizeof(in), out, sizeof(out));
	if (CHECK(mkey))
		CHECK_ERR(mlx5dv_devx_obj_destroy(mkey), 0);
	/* local write, remote write, atomic: each refused */
	mt_set(in, MKC(LW), 1);
	mkey = mlx5dv_devx_obj_create(q.ctx, in, sizeof(in), out, sizeof(out));
	if (!CHECK(!mkey))
		mlx5dv_devx_obj_destroy(mkey);
	else if (a->sim)
		CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_UMEM_RO);
	mt_set(in, MKC(LW), 0);
	mt_set(in, MKC(A), 1);
	mkey = mlx5dv_devx_obj_create(q.ctx, in, sizeof(in), out, sizeof(out));
	if (!CHECK(!mkey))
		mlx5dv_devx_obj_destroy(mkey);
	CHECK_ERR(mlx5dv_devx_umem_dereg(umem), 0);
out:
	mq_close(&q);
	return KSFT_PASS;
}

static int test_mkey_no_wider_than_its_pages(void)
{
	struct arg a = { .sim = mt_sim() };

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, ro_mkey, &a), KSFT_PASS);
	return KSFT_PASS;
}

/* --- RAW_TX ---------------------------------------------------------- */

/* A TIS and an SQ: both refused without CAP_NET_RAW, made with it. */
static int raw_tx(void *varg)
{
	const struct arg *a = varg;
	uint32_t in[PRM_CREATE_SQ_IN_BYTES / 4] = {}, out[4];
	bool may = a->tirn;	/* CAP_NET_RAW kept */
	struct mq_obj tis = {}, cq = {}, sq = {};
	struct mq q;

	if (!mq_open(&q))
		return KSFT_FAIL;
	if (may) {
		CHECK(mq_cq(&q, &cq) && sq_make(&q, cq.id, &tis, &sq));
		goto out;
	}
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_TIS);
	mt_set(in, PRM_CREATE_TIS_IN_CTX_TRANSPORT_DOMAIN, q.td);
	if (a->sim)
		mq_refused(&q, in, PRM_CREATE_TIS_IN_BYTES, MT_STAT_BAD_PARAM,
			   SYND_RAW_TX_PRIV);
	else
		CHECK(!mq_create(&q, in, PRM_CREATE_TIS_IN_BYTES, &tis, out));
	if (!mq_cq(&q, &cq))
		goto out;
	memset(in, 0, sizeof(in));
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_SQ);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_CQN, cq.id);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_TIS_LST_SZ, 1);
	mq_wq(&q, in, SQ_WQ);
	if (a->sim)
		mq_refused(&q, in, sizeof(in), MT_STAT_BAD_PARAM,
			   SYND_RAW_TX_PRIV);
	else
		CHECK(!mq_create(&q, in, sizeof(in), &sq, out));
out:
	mq_close(&q);
	return KSFT_PASS;
}

static int test_raw_tx_needs_net_raw(void)
{
	struct arg a = { .sim = mt_sim() };

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, raw_tx, &a), KSFT_PASS);
	a.tirn = 1;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW), raw_tx, &a),
		 KSFT_PASS);
	return KSFT_PASS;
}

/* --- device memory is cleared ------------------------------------------ */


/*
 * Fill (or check zero) a DM's page.  Its operation windows are no memory
 * (mlx5x_dm_ops): nothing is left there to read.
 */
static int dm_visit(void *varg)
{
	bool fill = varg;
	struct ibv_alloc_dm_attr attr = { .length = fill ? PAGE : 64 };
	struct mlx5dv_dm mdm = {};
	struct mlx5dv_obj obj = { .dm = { .out = &mdm } };
	uint8_t *page;
	struct ibv_context *ctx;
	struct ibv_dm *dm;
	unsigned long i;

	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	dm = ibv_alloc_dm(ctx, &attr);
	if (!dm) {
		ibv_close_device(ctx);
		return errno == EOPNOTSUPP || errno == ENOMEM ? KSFT_SKIP :
								KSFT_FAIL;
	}
	obj.dm.in = dm;
	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM), 0))
		goto out;
	page = (uint8_t *)((unsigned long)mdm.buf & ~(PAGE - 1));
	for (i = 0; i < PAGE; i++) {
		if (fill) {
			page[i] = 0xa5;
		} else if (page[i]) {
			CHECK(!page[i]);
			mt_diag("byte %lu of the page was left by another", i);
			break;
		}
	}
out:
	CHECK_ERR(ibv_free_dm(dm), 0);
	ibv_close_device(ctx);
	return KSFT_PASS;
}

static int test_device_memory_cleared(void)
{
	int rc;

	rc = mt_run_as(MT_UID_NOBODY, 0, dm_visit, (void *)1);
	if (rc == KSFT_SKIP)
		return mt_skip("no MEMIC to allocate");
	CHECK_EQ(rc, KSFT_PASS);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, dm_visit, NULL), KSFT_PASS);
	return KSFT_PASS;
}

/* --- the largest send WQE ---------------------------------------------- */

/*
 * 63 segments: the control and Ethernet segments, 60 of inline data,
 * filling the whole ring.  Its CQ is in a umem of its own, set to 0xff so
 * that the CQE's arrival shows.
 */
static int big_wqe(void *unused)
{
	struct mq_obj tis = {}, sq = {};
	struct mlx5dv_devx_umem *umem = NULL;
	struct mlx5dv_devx_obj *cq = NULL;
	uint8_t *op_own;
	uint32_t cqn, out[4];
	uint8_t *cbuf;
	long t0;
	struct mq q;

	(void)unused;
	memset(&q, 0, sizeof(q));
	cbuf = aligned_alloc(PAGE, PAGE);
	if (!CHECK(cbuf) || !mq_open(&q))
		goto out;
	memset(cbuf, 0xff, PAGE);
	umem = mlx5dv_devx_umem_reg(q.ctx, cbuf, PAGE, IBV_ACCESS_LOCAL_WRITE);
	cq = umem ? cq_over(&q, umem->umem_id, 4, &cqn, out) : NULL;
	if (!CHECK(cq) || !sq_make(&q, cqn, &tis, &sq))
		goto out;
	CHECK_EQ(sq_wqe(&q, sq.id, 0, 60), 16);
	sq_ring(&q, 16);
	op_own = cbuf + 63;
	t0 = mt_now_ms();
	while (__atomic_load_n(op_own, __ATOMIC_ACQUIRE) == 0xff &&
	       mt_now_ms() - t0 < WAIT_MS)
		usleep(1000);
	/* a requester completion (MLX5_CQE_REQ, owner 0), not an error */
	CHECK_EQ(__atomic_load_n(op_own, __ATOMIC_ACQUIRE), 0x00);
out:
	mq_close(&q);
	free(cbuf);
	return KSFT_PASS;
}

static int test_largest_send_wqe(void)
{
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW), big_wqe, NULL),
		 KSFT_PASS);
	return KSFT_PASS;
}

/* --- an mkey index freed and taken again --------------------------------- */

#define REUSE_MS	3000

/*
 * Create and destroy a free KLM mkey as fast as it goes: the model hands
 * out the lowest free index, so two processes doing this take each
 * other's indices all the time.  Every create must succeed.
 */
static int mkey_churn(void *unused)
{
	uint8_t in[PRM_CREATE_MKEY_IN_BYTES] = {};
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	/*
	 * Under the fault sweep, a few rounds: each create and destroy is
	 * the same calls, and a time bound would make the points vary.
	 */
	unsigned int n = 0, failed = 0, max = mt_loop_size(~0U, 4);
	struct mlx5dv_devx_obj *mkey;
	long t0 = mt_now_ms();
	struct mq q;

	(void)unused;
	if (!mq_open(&q))
		return KSFT_FAIL;
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_MKEY);
	mt_set(in, MKC(ACCESS_MODE_1_0), 2);		/* KLMs */
	mt_set(in, MKC(FREE), 1);
	mt_set(in, MKC(UMR_EN), 1);
	mt_set(in, MKC(QPN), 0xffffff);
	mt_set(in, MKC(PD), q.pd);
	mt_set(in, MKC(LR), 1);
	mt_set(in, MKC(TRANSLATIONS_OCTWORD_SIZE), 4);
	while (n < max && (mt_sweeping() || mt_now_ms() - t0 < REUSE_MS)) {
		mkey = mlx5dv_devx_obj_create(q.ctx, in, sizeof(in), out,
					      sizeof(out));
		n++;
		if (!mkey) {
			if (!failed++)
				mt_diag("create %u failed: errno %d", n, errno);
			continue;
		}
		CHECK_ERR(mlx5dv_devx_obj_destroy(mkey), 0);
	}
	mt_diag("pid %d: %u creates, %u failed", getpid(), n, failed);
	CHECK_EQ(failed, 0);
	mq_close(&q);
	return KSFT_PASS;
}

static int churn_child(void *arg)
{
	return mt_run_as(MT_UID_NOBODY, 0, mkey_churn, arg);
}

static int test_mkey_index_reused(void)
{
	pid_t a, b;

	fflush(stdout);
	a = mt_fork();
	if (a == 0)
		_exit(churn_child(NULL));
	b = mt_fork();
	if (b == 0)
		_exit(churn_child(NULL));
	CHECK_EQ(mt_reap(a), KSFT_PASS);
	CHECK_EQ(mt_reap(b), KSFT_PASS);
	return KSFT_PASS;
}

/* --- the steer file reaches its writer's TIRs only ----------------------- */

static int steer_write(uint32_t tirn)
{
	char path[300], line[64];
	int fd, len, err = 0;

	snprintf(path, sizeof(path), "%s/../steer", mt.dbg);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	len = snprintf(line, sizeof(line), "3 0x%x 02:00:00:00:00:42", tirn);
	if (write(fd, line, len) != len)
		err = errno;
	close(fd);
	return err;
}

/* A context with a PD and a CQ (mt_verbs_env), and a RAW_PACKET QP. */
struct raw_qp {
	struct mt_verbs_env e;
	struct ibv_qp *qp;
	uint32_t tirn;		/* its TIR */
};

MT_FIXTURE(raw_qp);

MT_FIXTURE_SETUP(raw_qp)
{
	struct mlx5dv_qp dv = { .comp_mask = MLX5DV_QP_MASK_RAW_QP_HANDLES };
	struct mlx5dv_obj obj = { .qp = { .out = &dv } };

	if (!mt_verbs_env_open(&self->e, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	self->qp = mt_raw_qp(self->e.pd, self->e.cq, 4, 1, false);
	obj.qp.in = self->qp;
	if (!CHECK(self->qp) ||
	    !CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0))
		return KSFT_FAIL;
	self->tirn = dv.tirn;
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(raw_qp)
{
	if (self->qp)
		CHECK_ERR(ibv_destroy_qp(self->qp), 0);
	mt_verbs_env_close(&self->e);
}

MT_TEST_F(raw_qp, steer_file_own_tirs_only)
{
	pid_t pid;

	/* another process, root too, but no context of its own owns it */
	fflush(stdout);
	pid = mt_fork();
	if (pid == 0)
		_exit(steer_write(self->tirn));
	CHECK_ERR(mt_reap(pid), EACCES);
	/* the owner itself may */
	CHECK_ERR(steer_write(self->tirn), 0);
	return KSFT_PASS;
}

/*
 * All but the last drop from root to nobody; largest_send_wqe looks for
 * the CQE where the model lays it out, and the steer file is the model's.
 */
static const struct mt_case cases[] = {
	MT_CASE(umem_is_what_was_pinned, .flags = MT_NEEDS_ROOT),
	MT_CASE(readonly_file_never_written, .flags = MT_NEEDS_ROOT),
	MT_CASE(mkey_no_wider_than_its_pages, .flags = MT_NEEDS_ROOT),
	MT_CASE(raw_tx_needs_net_raw, .flags = MT_NEEDS_ROOT),
	MT_CASE(device_memory_cleared, .flags = MT_NEEDS_ROOT),
	MT_CASE(largest_send_wqe, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE(mkey_index_reused, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(raw_qp, steer_file_own_tirs_only, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
