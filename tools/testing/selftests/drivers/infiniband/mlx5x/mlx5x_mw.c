// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows, as ibv_alloc_mw(3), ibv_bind_mw(3) and ibv_post_send(3)
 * (IBV_WR_BIND_MW, IBV_WR_LOCAL_INV, IBV_WR_SEND_WITH_INV) define them and
 * the IBTA (10.6.7) specifies them, between the two RC QPs of a pair: B
 * binds a window of its PD to a region (R) of its buffer registered with
 * IBV_ACCESS_MW_BIND and local write only, and A reads, writes and does
 * atomics through the window's rkey.  A window grants its own range and
 * rights, not the MR's; a type 1 window is rebound by ibv_bind_mw(), a
 * type 2 window is bound to B's QP, freed by a local or a remote
 * invalidation, and refused a second bind while in use.  Each bad bind
 * completes with IBV_WC_MW_BIND_ERR; a window's key, once unbound,
 * invalidated or deallocated, gives A a remote access error.
 */
#define _GNU_SOURCE
#include "mlx5x_rc.h"

/* R: where in the buffer the windows' MR is, and how long */
#define R_OFF		32768
#define R_LEN		16384
#define WIN_OFF		(R_OFF + 4096)
#define WIN_LEN		4096
#define REMOTE_ALL	(IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_ATOMIC)

/* The pair, B's MR over R for binding, and a window of each type. */
struct mw {
	struct pair p;
	struct ibv_mr *rmr;
	struct ibv_mw *mw[2];	/* type 1, type 2 */
};

MT_FIXTURE(mw);

static int mw_open_type(struct mw *self, enum ibv_qp_type type, int access)
{
	int rc = pair_open(&self->p, type, ALL_ACCESS, 7);

	if (rc != KSFT_PASS)
		return rc;
	self->rmr = ibv_reg_mr(self->p.pd, self->p.buf + R_OFF, R_LEN,
			       access | IBV_ACCESS_MW_BIND);
	if (!CHECK(self->rmr))
		return KSFT_FAIL;
	self->mw[0] = ibv_alloc_mw(self->p.pd, IBV_MW_TYPE_1);
	if (!self->mw[0] && errno == EOPNOTSUPP)
		return mt_skip("no memory windows");
	self->mw[1] = ibv_alloc_mw(self->p.pd, IBV_MW_TYPE_2);
	return CHECK(self->mw[0]) && CHECK(self->mw[1]) ? KSFT_PASS :
							  KSFT_FAIL;
}

static int mw_open(struct mw *self, int access)
{
	return mw_open_type(self, IBV_QPT_RC, access);
}

MT_FIXTURE_SETUP(mw)
{
	return mw_open(self, IBV_ACCESS_LOCAL_WRITE);
}

static void mw_close(struct mw *self)
{
	unsigned int i;

	/* the windows first: an MR a window is bound to is not deregistered */
	for (i = 0; i < 2; i++)
		if (self->mw[i])
			CHECK_ERR(ibv_dealloc_mw(self->mw[i]), 0);
	if (self->rmr)
		CHECK_ERR(ibv_dereg_mr(self->rmr), 0);
	pair_teardown(&self->p);
}

MT_FIXTURE_TEARDOWN(mw)
{
	mw_close(self);
}

/* The same, the MR over R allowing binds and nothing else. */
struct bare {
	struct mw m;
};

MT_FIXTURE(bare);

MT_FIXTURE_SETUP(bare)
{
	return mw_open(&self->m, 0);
}

MT_FIXTURE_TEARDOWN(bare)
{
	mw_close(&self->m);
}

/* The same on UC QPs. */
struct ucmw {
	struct mw m;
};

MT_FIXTURE(ucmw);

MT_FIXTURE_SETUP(ucmw)
{
	return mw_open_type(&self->m, IBV_QPT_UC, IBV_ACCESS_LOCAL_WRITE);
}

MT_FIXTURE_TEARDOWN(ucmw)
{
	mw_close(&self->m);
}

/* B binds type 1 window @w over @len bytes at @off of R: its CQE's status. */
static int bind1(struct mw *m, struct ibv_mw *w, uint32_t off, uint32_t len,
		 int access)
{
	struct ibv_mw_bind b = {
		.wr_id = 100, .send_flags = IBV_SEND_SIGNALED,
		.bind_info = {
			.mr = m->rmr, .addr = (uintptr_t)m->p.buf + off,
			.length = len, .mw_access_flags = access,
		},
	};
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_bind_mw(m->p.qp[1], w, &b), 0) ||
	    !poll_one(m->p.cq[1], &wc) || !CHECK_EQ(wc.wr_id, 100))
		return -1;
	if (wc.status == IBV_WC_SUCCESS)
		CHECK_EQ(wc.opcode, IBV_WC_BIND_MW);
	return wc.status;
}

/*
 * B posts a bind of type 2 window @w with key @rkey (IBV_WR_BIND_MW) on
 * QP @qp, to @len bytes at @addr of @mr: its CQE's status.
 */
static int bind2(struct mw *m, struct ibv_qp *qp, struct ibv_mw *w,
		 struct ibv_mr *mr, uint32_t rkey, uint64_t addr, uint32_t len,
		 int access)
{
	struct ibv_send_wr wr = {
		.wr_id = 101, .opcode = IBV_WR_BIND_MW,
		.send_flags = IBV_SEND_SIGNALED,
		.bind_mw = {
			.mw = w, .rkey = rkey,
			.bind_info = {
				.mr = mr, .addr = addr, .length = len,
				.mw_access_flags = access,
			},
		},
	}, *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_post_send(qp, &wr, &bad), 0) ||
	    !poll_one(qp == m->p.qp[0] ? m->p.cq[0] : m->p.cq[1], &wc) ||
	    !CHECK_EQ(wc.wr_id, 101))
		return -1;
	if (wc.status == IBV_WC_SUCCESS)
		CHECK_EQ(wc.opcode, IBV_WC_BIND_MW);
	return wc.status;
}

static uint64_t at(struct mw *m, uint32_t off)
{
	return (uintptr_t)m->p.buf + off;
}

/* B's bind of its type 2 window over [WIN_OFF, + WIN_LEN): the new key. */
static uint32_t bind2_win(struct mw *m, int access)
{
	uint32_t rkey = ibv_inc_rkey(m->mw[1]->rkey);

	if (!CHECK_EQ(bind2(m, m->p.qp[1], m->mw[1], m->rmr, rkey,
			    at(m, WIN_OFF), WIN_LEN, access), IBV_WC_SUCCESS))
		return 0;
	return rkey;
}

/* IBV_WR_LOCAL_INV of @key on @qp (B's, or A's): its CQE's status. */
static int local_inv(struct mw *m, struct ibv_qp *qp, uint32_t key)
{
	struct ibv_send_wr wr = {
		.wr_id = 102, .opcode = IBV_WR_LOCAL_INV,
		.send_flags = IBV_SEND_SIGNALED, .invalidate_rkey = key,
	}, *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_post_send(qp, &wr, &bad), 0) ||
	    !poll_one(qp == m->p.qp[0] ? m->p.cq[0] : m->p.cq[1], &wc) ||
	    !CHECK_EQ(wc.wr_id, 102))
		return -1;
	if (wc.status == IBV_WC_SUCCESS)
		CHECK_EQ(wc.opcode, IBV_WC_LOCAL_INV);
	return wc.status;
}

/*
 * A's RDMA @opcode of @len bytes between its buffer at 0 and @raddr of
 * @rkey: the status of its CQE.
 */
static int rdma(struct mw *m, enum ibv_wr_opcode opcode, uint32_t rkey,
		uint64_t raddr, uint32_t len)
{
	struct ibv_send_wr wr = {
		.wr_id = 200, .opcode = opcode,
		.wr.rdma = { raddr, rkey },
	};
	struct ibv_wc wc;

	if (opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
		wr.wr.atomic = (typeof(wr.wr.atomic)){ .remote_addr = raddr,
			.rkey = rkey, .compare_add = 5 };
	if (!CHECK_ERR(post_send(&m->p, &wr, 0, len), 0) ||
	    !poll_one(m->p.cq[0], &wc) || !CHECK_EQ(wc.wr_id, 200))
		return -1;
	return wc.status;
}

/* ibv_query_device(3) says both types are there; a type 3 is refused. */
MT_TEST_F(mw, caps_and_types)
{
	struct ibv_device_attr a;
	struct ibv_mw *w;

	if (CHECK_ERR(ibv_query_device(self->p.c.ctx, &a), 0))
		CHECK((a.device_cap_flags & IBV_DEVICE_MEM_WINDOW) &&
		      (a.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B));
	CHECK(self->mw[0]->type == IBV_MW_TYPE_1 &&
	      self->mw[1]->type == IBV_MW_TYPE_2);
	CHECK(self->mw[0]->rkey >> 8 != self->mw[1]->rkey >> 8);
	w = ibv_alloc_mw(self->p.pd, 3);
	if (!CHECK(!w))
		ibv_dealloc_mw(w);
	return KSFT_PASS;
}

/*
 * A type 1 window over part of R, with every remote right: A writes,
 * reads and adds through it, with the key ibv_bind_mw() set in the
 * window (a new tag), though the MR under it grants no remote access.
 */
MT_TEST_F(mw, type1_read_write_atomic)
{
	uint32_t old = self->mw[0]->rkey, key;
	uint64_t v = 37;

	if (!CHECK_EQ(bind1(self, self->mw[0], WIN_OFF, WIN_LEN, REMOTE_ALL),
		      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	key = self->mw[0]->rkey;
	CHECK(key != old && key >> 8 == old >> 8);
	fill(self->p.buf, 200, 9);
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, key, at(self, WIN_OFF + 100),
		      200), IBV_WC_SUCCESS);
	CHECK(!memcmp(self->p.buf + WIN_OFF + 100, self->p.buf, 200));
	fill(self->p.buf + WIN_OFF + 1000, 300, 77);
	CHECK_EQ(rdma(self, IBV_WR_RDMA_READ, key, at(self, WIN_OFF + 1000),
		      300), IBV_WC_SUCCESS);
	CHECK(!memcmp(self->p.buf + WIN_OFF + 1000, self->p.buf, 300));
	memcpy(self->p.buf + WIN_OFF + 2048, &v, sizeof(v));
	CHECK_EQ(rdma(self, IBV_WR_ATOMIC_FETCH_AND_ADD, key,
		      at(self, WIN_OFF + 2048), 8), IBV_WC_SUCCESS);
	memcpy(&v, self->p.buf + WIN_OFF + 2048, sizeof(v));
	CHECK_EQ(v, 42);
	/* the key before the bind names nothing */
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, old, at(self, WIN_OFF), 8),
		 IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/*
 * The window's range, not the MR's: a write that runs past the window's
 * end, though inside R, is a remote access error, and no byte moves.
 */
MT_TEST_F(mw, out_of_range)
{
	uint32_t key;

	if (!CHECK_EQ(bind1(self, self->mw[0], WIN_OFF, WIN_LEN, REMOTE_ALL),
		      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	key = self->mw[0]->rkey;
	fill(self->p.buf, 64, 5);
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, key,
		      at(self, WIN_OFF + WIN_LEN - 32), 64),
		 IBV_WC_REM_ACCESS_ERR);
	CHECK(self->p.buf[WIN_OFF + WIN_LEN - 32] == 0 &&
	      self->p.buf[WIN_OFF + WIN_LEN + 31] == 0);
	return KSFT_PASS;
}

/* The window's rights, not the MR's: read only refuses a write. */
MT_TEST_F(mw, wrong_access)
{
	uint32_t key;

	if (!CHECK_EQ(bind1(self, self->mw[0], WIN_OFF, WIN_LEN,
			    IBV_ACCESS_REMOTE_READ), IBV_WC_SUCCESS))
		return KSFT_FAIL;
	key = self->mw[0]->rkey;
	CHECK_EQ(rdma(self, IBV_WR_RDMA_READ, key, at(self, WIN_OFF), 64),
		 IBV_WC_SUCCESS);
	fill(self->p.buf, 64, 5);
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, key, at(self, WIN_OFF), 64),
		 IBV_WC_REM_ACCESS_ERR);
	CHECK(self->p.buf[WIN_OFF] == 0);
	return KSFT_PASS;
}

/*
 * A type 1 window rebound elsewhere: the new key reaches the new range,
 * the old key nothing; bound with zero length, it grants nothing.
 */
MT_TEST_F(mw, type1_rebind)
{
	uint32_t first, second;

	if (!CHECK_EQ(bind1(self, self->mw[0], WIN_OFF, WIN_LEN, REMOTE_ALL),
		      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	first = self->mw[0]->rkey;
	if (!CHECK_EQ(bind1(self, self->mw[0], R_OFF, 512,
			    IBV_ACCESS_REMOTE_WRITE), IBV_WC_SUCCESS))
		return KSFT_FAIL;
	second = self->mw[0]->rkey;
	CHECK(second != first);
	fill(self->p.buf, 64, 7);
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, second, at(self, R_OFF), 64),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(self->p.buf + R_OFF, self->p.buf, 64));
	if (!CHECK_EQ(bind1(self, self->mw[0], R_OFF, 0, 0), IBV_WC_SUCCESS))
		return KSFT_FAIL;
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, self->mw[0]->rkey,
		      at(self, R_OFF), 64), IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/* The key of the first binding, after a rebind: nothing. */
MT_TEST_F(mw, type1_old_key)
{
	uint32_t first;

	if (!CHECK_EQ(bind1(self, self->mw[0], WIN_OFF, WIN_LEN, REMOTE_ALL),
		      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	first = self->mw[0]->rkey;
	if (!CHECK_EQ(bind1(self, self->mw[0], WIN_OFF, WIN_LEN, REMOTE_ALL),
		      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, first, at(self, WIN_OFF), 8),
		 IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/*
 * A type 2 window bound by IBV_WR_BIND_MW with the key the WR names, then
 * invalidated by IBV_WR_LOCAL_INV on its QP: its key then refuses A.
 */
MT_TEST_F(mw, type2_local_inv)
{
	uint32_t key = bind2_win(self, REMOTE_ALL);

	if (!key)
		return KSFT_FAIL;
	fill(self->p.buf, 128, 3);
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, key, at(self, WIN_OFF), 128),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(self->p.buf + WIN_OFF, self->p.buf, 128));
	CHECK_EQ(local_inv(self, self->p.qp[1], key), IBV_WC_SUCCESS);
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, key, at(self, WIN_OFF), 8),
		 IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/* Invalidated, the type 2 window is free: bound again, with a new key. */
MT_TEST_F(mw, type2_rebind_after_inv)
{
	uint32_t key = bind2_win(self, REMOTE_ALL), again;

	if (!key || !CHECK_EQ(local_inv(self, self->p.qp[1], key),
			      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	again = ibv_inc_rkey(key);
	if (!CHECK_EQ(bind2(self, self->p.qp[1], self->mw[1], self->rmr,
			    again, at(self, WIN_OFF), WIN_LEN,
			    IBV_ACCESS_REMOTE_READ),
		      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	CHECK_EQ(rdma(self, IBV_WR_RDMA_READ, again, at(self, WIN_OFF), 64),
		 IBV_WC_SUCCESS);
	return KSFT_PASS;
}

/*
 * IBV_WR_SEND_WITH_INV from A names B's window: B's receive completes
 * with IBV_WC_WITH_INV and the invalidated key, and the key refuses A.
 */
MT_TEST_F(mw, type2_remote_inv)
{
	struct ibv_send_wr wr = { .wr_id = 103, .opcode = IBV_WR_SEND_WITH_INV };
	struct ibv_wc wc;
	uint32_t key = bind2_win(self, REMOTE_ALL);

	if (!key)
		return KSFT_FAIL;
	wr.invalidate_rkey = key;
	fill(self->p.buf, 32, 1);
	if (!CHECK_ERR(post_recv(&self->p, 104, 60000, 64), 0) ||
	    !CHECK_ERR(post_send(&self->p, &wr, 0, 32), 0))
		return KSFT_FAIL;
	if (poll_one(self->p.cq[0], &wc))
		wc_is(&wc, 103, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (poll_one(self->p.cq[1], &wc) &&
	    wc_is(&wc, 104, IBV_WC_SUCCESS, IBV_WC_RECV)) {
		CHECK(wc.wc_flags & IBV_WC_WITH_INV);
		CHECK_EQ(wc.invalidated_rkey, key);
		CHECK_EQ(wc.byte_len, 32);
	}
	CHECK(!memcmp(self->p.buf + 60000, self->p.buf, 32));
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, key, at(self, WIN_OFF), 8),
		 IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/*
 * A SEND with invalidate naming what B may not invalidate (a type 1
 * window, an MR): an invalid request at A, B's receive in error.
 */
MT_TEST_F_PARTS(mw, remote_inv_refused)
{
	struct ibv_send_wr wr = { .wr_id = 105, .opcode = IBV_WR_SEND_WITH_INV };
	struct ibv_wc wc;

	if (!CHECK_EQ(bind1(self, self->mw[0], WIN_OFF, WIN_LEN, REMOTE_ALL),
		      IBV_WC_SUCCESS))
		return KSFT_FAIL;
	wr.invalidate_rkey = i ? self->rmr->rkey : self->mw[0]->rkey;
	if (!CHECK_ERR(post_recv(&self->p, 106, 60000, 64), 0) ||
	    !CHECK_ERR(post_send(&self->p, &wr, 0, 32), 0))
		return KSFT_FAIL;
	if (poll_one(self->p.cq[0], &wc))
		wc_is(&wc, 105, IBV_WC_REM_INV_REQ_ERR, 0);
	if (poll_one(self->p.cq[1], &wc)) {
		CHECK_EQ(wc.wr_id, 106);
		CHECK(wc.status != IBV_WC_SUCCESS);
	}
	return KSFT_PASS;
}

/*
 * A type 2 window is bound once: a second bind while it is in use fails
 * (IBTA: only a free type 2 window may be bound).
 */
MT_TEST_F(mw, type2_bind_in_use)
{
	uint32_t key = bind2_win(self, REMOTE_ALL);

	if (!key)
		return KSFT_FAIL;
	CHECK_EQ(bind2(self, self->p.qp[1], self->mw[1], self->rmr,
		       ibv_inc_rkey(key), at(self, R_OFF), 64, REMOTE_ALL),
		 IBV_WC_MW_BIND_ERR);
	return KSFT_PASS;
}

/*
 * A type 2 window is bound to its QP: a LOCAL_INV posted on another QP
 * fails, and the window stays.
 */
MT_TEST_F(mw, type2_inv_other_qp)
{
	uint32_t key = bind2_win(self, REMOTE_ALL);

	if (!key)
		return KSFT_FAIL;
	CHECK_EQ(local_inv(self, self->p.qp[0], key), IBV_WC_MW_BIND_ERR);
	return KSFT_PASS;
}

/*
 * A deallocated window's key grants nothing (ibv_alloc_mw(3)), and the
 * MR under a bound window is not deregistered until the window goes
 * (ibv_dereg_mr(3): it fails while a window is bound to the MR).
 */
MT_TEST_F(mw, dealloc_bound)
{
	uint32_t key = bind2_win(self, REMOTE_ALL);

	if (!key)
		return KSFT_FAIL;
	CHECK_ERR(ibv_dereg_mr(self->rmr), EBUSY);
	if (!CHECK_ERR(ibv_dealloc_mw(self->mw[1]), 0))
		return KSFT_FAIL;
	self->mw[1] = NULL;
	CHECK_EQ(rdma(self, IBV_WR_RDMA_WRITE, key, at(self, WIN_OFF), 8),
		 IBV_WC_REM_ACCESS_ERR);
	if (CHECK_ERR(ibv_dereg_mr(self->rmr), 0))
		self->rmr = NULL;
	return KSFT_PASS;
}

/*
 * Bad binds, each completing with IBV_WC_MW_BIND_ERR: a range past the
 * MR's end; remote write, or atomics, on an MR without local write
 * (IBTA 10.6.7.2: a window's rights stand on the MR's local write); a
 * type 2 bind naming a key whose tag is not the MR's.
 */
MT_TEST_F_PARTS(bare, bad_bind)
{
	struct mw *m = &self->m;
	uint32_t key = ibv_inc_rkey(m->mw[1]->rkey);
	struct ibv_mr bad_mr;

	switch (i) {
	case 0:
		CHECK_EQ(bind1(m, m->mw[0], R_OFF + R_LEN - 64, 128,
			       IBV_ACCESS_REMOTE_READ), IBV_WC_MW_BIND_ERR);
		break;
	case 1:
		CHECK_EQ(bind1(m, m->mw[0], WIN_OFF, WIN_LEN,
			       IBV_ACCESS_REMOTE_WRITE), IBV_WC_MW_BIND_ERR);
		break;
	case 2:
		CHECK_EQ(bind2(m, m->p.qp[1], m->mw[1], m->rmr, key,
			       at(m, WIN_OFF), WIN_LEN,
			       IBV_ACCESS_REMOTE_ATOMIC),
			 IBV_WC_MW_BIND_ERR);
		break;
	default:
		bad_mr = *m->rmr;
		bad_mr.lkey ^= 0x80;
		CHECK_EQ(bind2(m, m->p.qp[1], m->mw[1], &bad_mr, key,
			       at(m, WIN_OFF), WIN_LEN,
			       IBV_ACCESS_REMOTE_READ),
			 IBV_WC_MW_BIND_ERR);
		break;
	}
	return KSFT_PASS;
}

/* The pair, and a window of another PD and one of another context. */
struct foreign {
	struct mw m;
	struct ibv_pd *pd2;
	struct ibv_mw *mw2;
	struct mt_ctx c2;
	struct ibv_pd *cpd;
	struct ibv_mw *cmw;
	uint8_t *cbuf;
	struct ibv_mr *cmr;
};

MT_FIXTURE(foreign);

MT_FIXTURE_SETUP(foreign)
{
	int rc = mw_open(&self->m, IBV_ACCESS_LOCAL_WRITE);

	if (rc != KSFT_PASS)
		return rc;
	self->pd2 = ibv_alloc_pd(self->m.p.c.ctx);
	if (!CHECK(self->pd2))
		return KSFT_FAIL;
	self->mw2 = ibv_alloc_mw(self->pd2, IBV_MW_TYPE_2);
	if (!CHECK(self->mw2) || !mt_ctx_open(&self->c2, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	self->cpd = ibv_alloc_pd(self->c2.ctx);
	self->cbuf = aligned_alloc(MT_PAGE, MT_PAGE);
	if (!CHECK(self->cpd) || !CHECK(self->cbuf))
		return KSFT_FAIL;
	memset(self->cbuf, 0x5a, MT_PAGE);
	self->cmw = ibv_alloc_mw(self->cpd, IBV_MW_TYPE_2);
	self->cmr = ibv_reg_mr(self->cpd, self->cbuf, MT_PAGE,
			       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	return CHECK(self->cmw) && CHECK(self->cmr) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(foreign)
{
	if (self->cmw)
		CHECK_ERR(ibv_dealloc_mw(self->cmw), 0);
	if (self->cmr)
		CHECK_ERR(ibv_dereg_mr(self->cmr), 0);
	if (self->cpd)
		CHECK_ERR(ibv_dealloc_pd(self->cpd), 0);
	free(self->cbuf);
	mt_ctx_close(&self->c2);
	if (self->mw2)
		CHECK_ERR(ibv_dealloc_mw(self->mw2), 0);
	if (self->pd2)
		CHECK_ERR(ibv_dealloc_pd(self->pd2), 0);
	mw_close(&self->m);
}

/*
 * Binds across PDs and contexts (IBTA 10.6.7.2: the window, the MR and
 * the QP of one PD): a window of another PD; a window of another
 * context, whose index B's context does not own; another context's MR.
 * libmlx5 posts each as asked: the device refuses it.
 */
MT_TEST_F_PARTS(foreign, foreign_bind)
{
	struct mw *m = &self->m;
	struct ibv_mw *w = i == 0 ? self->mw2 : i == 1 ? self->cmw : m->mw[1];
	struct ibv_mr *mr = i == 2 ? self->cmr : m->rmr;
	uint64_t addr = i == 2 ? (uintptr_t)self->cbuf : at(m, WIN_OFF);
	uint32_t key = ibv_inc_rkey(w->rkey);

	CHECK_EQ(bind2(m, m->p.qp[1], w, mr, key, addr, 64,
		       IBV_ACCESS_REMOTE_READ), IBV_WC_MW_BIND_ERR);
	CHECK(self->cbuf[0] == 0x5a);
	return KSFT_PASS;
}

/*
 * UC binds windows too (IBTA 10.6.7: memory windows on RC and UC): A
 * writes through a type 1 and a type 2 window of B's UC QP.
 */
MT_TEST_F(ucmw, uc_bind_write)
{
	struct mw *m = &self->m;
	unsigned int i;
	uint32_t key;

	if (!CHECK_EQ(bind1(m, m->mw[0], WIN_OFF, WIN_LEN,
			    IBV_ACCESS_REMOTE_WRITE), IBV_WC_SUCCESS))
		return KSFT_FAIL;
	fill(m->p.buf, 100, 11);
	CHECK_EQ(rdma(m, IBV_WR_RDMA_WRITE, m->mw[0]->rkey,
		      at(m, WIN_OFF + 8), 100), IBV_WC_SUCCESS);
	key = bind2_win(m, IBV_ACCESS_REMOTE_WRITE);
	if (!key)
		return KSFT_FAIL;
	CHECK_EQ(rdma(m, IBV_WR_RDMA_WRITE, key, at(m, WIN_OFF + 1000), 50),
		 IBV_WC_SUCCESS);
	/* UC completes once sent: the bytes land at B soon after */
	for (i = 0; i < 1000 && memcmp(m->p.buf + WIN_OFF + 1000, m->p.buf, 50);
	     i++)
		usleep(1000);
	CHECK(!memcmp(m->p.buf + WIN_OFF + 8, m->p.buf, 100));
	CHECK(!memcmp(m->p.buf + WIN_OFF + 1000, m->p.buf, 50));
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(mw, caps_and_types),
	MT_CASE_F(mw, type1_read_write_atomic),
	MT_CASE_F(mw, out_of_range),
	MT_CASE_F(mw, wrong_access),
	MT_CASE_F(mw, type1_rebind),
	MT_CASE_F(mw, type1_old_key),
	MT_CASE_F(mw, type2_local_inv),
	MT_CASE_F(mw, type2_rebind_after_inv),
	MT_CASE_F(mw, type2_remote_inv),
	MT_CASE_F_PARTS(mw, remote_inv_refused, 2),
	MT_CASE_F(mw, type2_bind_in_use),
	MT_CASE_F(mw, type2_inv_other_qp),
	MT_CASE_F(mw, dealloc_bound),
	MT_CASE_F_PARTS(bare, bad_bind, 4),
	MT_CASE_F_PARTS(foreign, foreign_bind, 3),
	MT_CASE_F(ucmw, uc_bind_write),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
