// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Indirect mkeys given their layout by UMR, as mlx5dv_create_mkey(3) and
 * mlx5dv_wr_mkey_configure(3) define them: an INDIRECT mkey is created
 * free; mlx5dv_wr_mkey_configure() with mlx5dv_wr_set_mkey_access_flags()
 * and mlx5dv_wr_set_mkey_layout_list(), or mlx5dv_wr_mr_list(), make it a
 * virtually contiguous key over pieces of MRs (its completion is
 * IBV_WC_DRIVER1); IBV_WR_LOCAL_INV clears it again.  Traffic through it,
 * as lkey and as rkey, lands in the MRs' pieces in list order.
 *
 * Both QPs of the pair are mlx5dv QPs with MKEY_CONFIGURE and MR_LIST;
 * each has an mkey of 4 entries on the pair's PD.  The list used is
 * three pieces of the buffer's MR: 8 bytes at P0, 16 at P1, 40 at P2,
 * 64 bytes of mkey space from address 0.
 *
 * What the device refuses (IBV_WC_MW_BIND_ERR, the mkey left as it was):
 * an entry naming no MR, an MR of another PD, rights the MRs do not
 * grant, another context's mkey (of the same process or of another
 * user); and past the layout, traffic is an access error.  libmlx5 itself refuses more entries than max_entries.
 *
 * mlx5dv_wr_set_mkey_layout_interleaved() and mlx5dv_wr_mr_interleaved()
 * (MR_INTERLEAVED) give the mkey a repeated layout instead: each
 * mlx5dv_mr_interleaved's bytes_count bytes, then bytes_skip skipped, the
 * entries in turn, repeat_count times; the mkey's length is the sum of
 * the counts times the repetitions.  Refused as a list is: a bad lkey,
 * another PD's MR, rights the MR lacks, and entries past the mkey's
 * table (MW_BIND_ERR, libmlx5 itself refusing more than max_entries).
 */
#define _GNU_SOURCE
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"

#define P0	4096
#define P1	8192
#define P2	12288
#define MK_LEN	64
#define SRC	16384	/* A's bytes to send or write */
#define DST	20480	/* where a read lands */
#define MK_ENTRIES	4

struct umr {
	struct pair p;
	struct mlx5dv_mkey *mk[2];
	struct ibv_pd *pd2;
	struct ibv_mr *mr2;
};

MT_FIXTURE(umr);

MT_FIXTURE_SETUP(umr)
{
	const struct mkey_pair_attr at = {
		.ops = IBV_QP_EX_WITH_LOCAL_INV,
		.dv_ops = MLX5DV_QP_EX_WITH_MR_LIST |
			  MLX5DV_QP_EX_WITH_MR_INTERLEAVED,
		.sges = 4,
		.entries = MK_ENTRIES,
		.optional = true,
	};

	return mkey_pair_open(&self->p, self->mk, &at);
}

MT_FIXTURE_TEARDOWN(umr)
{
	mkeys_destroy(self->mk);
	if (self->mr2)
		CHECK_ERR(ibv_dereg_mr(self->mr2), 0);
	if (self->pd2)
		CHECK_ERR(ibv_dealloc_pd(self->pd2), 0);
	pair_teardown(&self->p);
}

/* The list: three pieces of the buffer's MR, P0, P1 and P2. */
static void umr_list(struct pair *p, struct ibv_sge *sge, uint32_t lkey)
{
	sge[0] = (struct ibv_sge){ (uintptr_t)p->buf + P0, 8, lkey };
	sge[1] = (struct ibv_sge){ (uintptr_t)p->buf + P1, 16, lkey };
	sge[2] = (struct ibv_sge){ (uintptr_t)p->buf + P2, 40, lkey };
}

/*
 * @qp configures @mk with @n entries of @sge and @access, the new API
 * (or mlx5dv_wr_mr_list() with @old): wr_complete()'s result, and the
 * status of its completion in *@st.
 */
static int configure(struct pair *p, unsigned int qp, struct mlx5dv_mkey *mk,
		     int access, const struct ibv_sge *sge, uint16_t n,
		     bool old, int *st)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(p->qp[qp]);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);
	struct mlx5dv_mkey_conf_attr attr = {};
	struct ibv_wc wc;
	int err;

	*st = -1;
	ibv_wr_start(qx);
	qx->wr_id = 77;
	qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	if (old) {
		mlx5dv_wr_mr_list(dx, mk, access, n, (struct ibv_sge *)sge);
	} else {
		mlx5dv_wr_mkey_configure(dx, mk, 2, &attr);
		mlx5dv_wr_set_mkey_access_flags(dx, access);
		mlx5dv_wr_set_mkey_layout_list(dx, n, sge);
	}
	err = ibv_wr_complete(qx);
	if (err)
		return err;
	if (!CHECK(poll_one(p->cq[qp], &wc)))
		return -1;
	mt_diag("mkey conf: status %s opcode %d", ibv_wc_status_str(wc.status),
		wc.opcode);
	*st = wc.status;
	if (wc.status == IBV_WC_SUCCESS)
		CHECK_EQ(wc.opcode, IBV_WC_DRIVER1);
	return 0;
}

/* The same, expected to succeed. */
static bool config_ok(struct pair *p, unsigned int qp, struct mlx5dv_mkey *mk,
		      int access, bool old)
{
	struct ibv_sge sge[3];
	int st;

	umr_list(p, sge, p->mr->lkey);
	return CHECK_ERR(configure(p, qp, mk, access, sge, 3, old, &st), 0) &&
	       CHECK_EQ(st, IBV_WC_SUCCESS);
}

/* Whether the pieces hold @src's 64 bytes, in list order. */
static bool pieces_hold(const struct pair *p, const uint8_t *src)
{
	return !memcmp(p->buf + P0, src, 8) &&
	       !memcmp(p->buf + P1, src + 8, 16) &&
	       !memcmp(p->buf + P2, src + 24, 40);
}

/*
 * mlx5dv_wr_mkey_configure(3): B's mkey over the three pieces; A writes
 * 64 bytes through its rkey and they land in the pieces in order; A
 * reads 20 of them back through it, across the first two pieces.
 */
MT_TEST_F(umr, list_write_read)
{
	struct pair *p = &self->p;

	if (!config_ok(p, 1, self->mk[1], ALL_ACCESS, false))
		return KSFT_FAIL;
	fill(p->buf + SRC, MK_LEN, 3);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + SRC, MK_LEN),
		 IBV_WC_SUCCESS);
	CHECK(pieces_hold(p, p->buf + SRC));
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, self->mk[1]->rkey, 4, p->mr->lkey,
		      (uintptr_t)p->buf + DST, 20), IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + DST, p->buf + SRC + 4, 20));
	return KSFT_PASS;
}

/*
 * mlx5dv_wr_mr_list(3), the older API, on A's side: A's mkey over the
 * pieces as the lkey of an RDMA WRITE into B's MR, and of a READ from it.
 */
MT_TEST_F(umr, mr_list_as_lkey)
{
	struct pair *p = &self->p;
	uint8_t want[MK_LEN];

	if (!config_ok(p, 0, self->mk[0], IBV_ACCESS_LOCAL_WRITE, true))
		return KSFT_FAIL;
	fill(want, MK_LEN, 21);
	memcpy(p->buf + P0, want, 8);
	memcpy(p->buf + P1, want + 8, 16);
	memcpy(p->buf + P2, want + 24, 40);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, p->mr->rkey,
		      (uintptr_t)p->buf + DST, self->mk[0]->lkey, 0, MK_LEN),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + DST, want, MK_LEN));
	fill(p->buf + SRC, MK_LEN, 77);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, p->mr->rkey,
		      (uintptr_t)p->buf + SRC, self->mk[0]->lkey, 0, MK_LEN),
		 IBV_WC_SUCCESS);
	CHECK(pieces_hold(p, p->buf + SRC));
	return KSFT_PASS;
}

/* A SEND of 64 bytes gathered through A's mkey, received through B's. */
MT_TEST_F(umr, send_recv_both_mkeys)
{
	struct pair *p = &self->p;
	struct ibv_sge rsge = { 0, MK_LEN, self->mk[1]->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 9, .sg_list = &rsge, .num_sge = 1 };
	struct ibv_sge ssge = { 0, MK_LEN, self->mk[0]->lkey };
	struct ibv_send_wr swr = {
		.wr_id = 8, .sg_list = &ssge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *sbad;
	struct ibv_recv_wr *rbad;
	struct ibv_sge sge[3];
	uint8_t want[MK_LEN];
	struct ibv_wc wc;
	int st;

	/* A's mkey over P0..P2 (the source), B's over SRC (one piece) */
	if (!config_ok(p, 0, self->mk[0], IBV_ACCESS_LOCAL_WRITE, false))
		return KSFT_FAIL;
	sge[0] = (struct ibv_sge){ (uintptr_t)p->buf + SRC, 32, p->mr->lkey };
	sge[1] = (struct ibv_sge){ (uintptr_t)p->buf + DST, 32, p->mr->lkey };
	if (!CHECK_ERR(configure(p, 1, self->mk[1], IBV_ACCESS_LOCAL_WRITE,
				 sge, 2, false, &st), 0) ||
	    !CHECK_EQ(st, IBV_WC_SUCCESS))
		return KSFT_FAIL;
	fill(want, MK_LEN, 40);
	memcpy(p->buf + P0, want, 8);
	memcpy(p->buf + P1, want + 8, 16);
	memcpy(p->buf + P2, want + 24, 40);
	memset(p->buf + SRC, 0, 32);
	memset(p->buf + DST, 0, 32);
	if (!CHECK_ERR(ibv_post_recv(p->qp[1], &rwr, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[0], &swr, &sbad), 0) ||
	    !CHECK(poll_one(p->cq[0], &wc)))
		return KSFT_FAIL;
	CHECK(wc_is(&wc, 8, IBV_WC_SUCCESS, IBV_WC_SEND));
	if (!CHECK(poll_one(p->cq[1], &wc)))
		return KSFT_FAIL;
	CHECK(wc_is(&wc, 9, IBV_WC_SUCCESS, IBV_WC_RECV));
	CHECK_EQ(wc.byte_len, MK_LEN);
	CHECK(!memcmp(p->buf + SRC, want, 32));
	CHECK(!memcmp(p->buf + DST, want + 32, 32));
	return KSFT_PASS;
}

/*
 * Past the layout: 65 bytes from 0, or 8 from 60, through the rkey of a
 * 64-byte mkey: a remote access error; nothing lands.
 */
MT_TEST_F(umr, past_the_end)
{
	struct pair *p = &self->p;

	if (!config_ok(p, 1, self->mk[1], ALL_ACCESS, true))
		return KSFT_FAIL;
	fill(p->buf + SRC, 128, 9);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + SRC, MK_LEN + 1),
		 IBV_WC_REM_ACCESS_ERR);
	CHECK(p->buf[P0] == 0);
	return KSFT_PASS;
}

/*
 * IBV_WR_LOCAL_INV clears the mkey's configuration (the man page): the
 * rkey is then refused; a configure makes it usable again, over other
 * pieces.
 */
MT_TEST_F(umr, reconfigure_after_local_inv)
{
	struct pair *p = &self->p;
	struct ibv_send_wr wr = {
		.wr_id = 6, .opcode = IBV_WR_LOCAL_INV,
		.send_flags = IBV_SEND_SIGNALED,
		.invalidate_rkey = self->mk[1]->lkey,
	}, *bad;
	struct ibv_sge sge[2];
	struct ibv_wc wc;
	int st, i;

	if (!config_ok(p, 1, self->mk[1], ALL_ACCESS, false))
		return KSFT_FAIL;
	sge[0] = (struct ibv_sge){ (uintptr_t)p->buf + DST, 16, p->mr->lkey };
	sge[1] = (struct ibv_sge){ (uintptr_t)p->buf + P0, 16, p->mr->lkey };
	for (i = 0; i < 2; i++) {
		if (!CHECK_ERR(ibv_post_send(p->qp[1], &wr, &bad), 0) ||
		    !CHECK(poll_one(p->cq[1], &wc)))
			return KSFT_FAIL;
		CHECK(wc_is(&wc, 6, IBV_WC_SUCCESS, IBV_WC_LOCAL_INV));
		if (i)
			break;
		/* configured again, over DST and P0 */
		if (!CHECK_ERR(configure(p, 1, self->mk[1], ALL_ACCESS, sge, 2,
					 false, &st), 0) ||
		    !CHECK_EQ(st, IBV_WC_SUCCESS))
			return KSFT_FAIL;
		fill(p->buf + SRC, 32, 13);
		CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
			      p->mr->lkey, (uintptr_t)p->buf + SRC, 32),
			 IBV_WC_SUCCESS);
		CHECK(!memcmp(p->buf + DST, p->buf + SRC, 16));
		CHECK(!memcmp(p->buf + P0, p->buf + SRC + 16, 16));
	}
	/* invalidated: the rkey gives nothing */
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + SRC, 8),
		 IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/*
 * Refusals, each an MW_BIND_ERR completion of the configure: part 0 an
 * entry naming a deregistered MR's key; part 1 an MR of another PD; part
 * 2 remote write over an MR without it; part 3 more entries than
 * max_entries, refused by libmlx5 (ENOMEM), no WQE.
 */
MT_TEST_F_PARTS(umr, refused)
{
	struct pair *p = &self->p;
	struct ibv_sge sge[MK_ENTRIES + 4];
	struct ibv_mr *mr;
	uint32_t key;
	int st;

	umr_list(p, sge, p->mr->lkey);
	switch (i) {
	case 0:
		mr = ibv_reg_mr(p->pd, p->buf + P2, 4096, ALL_ACCESS);
		if (!CHECK(mr))
			return KSFT_FAIL;
		key = mr->lkey;
		CHECK_ERR(ibv_dereg_mr(mr), 0);
		sge[2].lkey = key;
		break;
	case 1:
		self->pd2 = ibv_alloc_pd(p->c.ctx);
		if (!CHECK(self->pd2))
			return KSFT_FAIL;
		self->mr2 = ibv_reg_mr(self->pd2, p->buf + P2, 4096,
				       ALL_ACCESS);
		if (!CHECK(self->mr2))
			return KSFT_FAIL;
		sge[2].lkey = self->mr2->lkey;
		break;
	case 2:
		self->mr2 = ibv_reg_mr(p->pd, p->buf + P2, 4096,
				       IBV_ACCESS_LOCAL_WRITE);
		if (!CHECK(self->mr2))
			return KSFT_FAIL;
		sge[2].lkey = self->mr2->lkey;
		break;
	default:
		memset(sge, 0, sizeof(sge));
		for (st = 0; st < MK_ENTRIES + 1; st++)
			sge[st] = (struct ibv_sge){
				(uintptr_t)p->buf + P0 + 8 * st, 8,
				p->mr->lkey };
		CHECK_ERR(configure(p, 1, self->mk[1], ALL_ACCESS, sge,
				    MK_ENTRIES + 1, false, &st), ENOMEM);
		return KSFT_PASS;
	}
	if (!CHECK_ERR(configure(p, 1, self->mk[1], ALL_ACCESS, sge, 3, false,
				 &st), 0))
		return KSFT_FAIL;
	CHECK_EQ(st, IBV_WC_MW_BIND_ERR);
	return KSFT_PASS;
}

/*
 * Nested: B's second mkey names the first (configured over the pieces)
 * by a list of one entry; A writes through the outer rkey and the bytes
 * land in the pieces.  Then a loop: the inner one configured to name the
 * outer, which names it, is refused.
 */
MT_TEST_F(umr, nested)
{
	struct pair *p = &self->p;
	struct mlx5dv_mkey *outer = self->mk[0];
	struct ibv_sge sge = { 0, MK_LEN, self->mk[1]->lkey };
	int st;

	if (!config_ok(p, 1, self->mk[1], ALL_ACCESS, false))
		return KSFT_FAIL;
	if (!CHECK_ERR(configure(p, 1, outer, ALL_ACCESS, &sge, 1, false, &st),
		       0) || !CHECK_EQ(st, IBV_WC_SUCCESS))
		return KSFT_FAIL;
	fill(p->buf + SRC, MK_LEN, 5);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, outer->rkey, 0, p->mr->lkey,
		      (uintptr_t)p->buf + SRC, MK_LEN), IBV_WC_SUCCESS);
	CHECK(pieces_hold(p, p->buf + SRC));
	sge.lkey = outer->lkey;
	if (!CHECK_ERR(configure(p, 1, self->mk[1], ALL_ACCESS, &sge, 1, false,
				 &st), 0))
		return KSFT_FAIL;
	CHECK_EQ(st, IBV_WC_MW_BIND_ERR);
	return KSFT_PASS;
}

/*
 * The interleaved layout used: 8 bytes at P0 skipping 2, 8 at P1
 * skipping 8, three times: 48 bytes.  Byte i of the mkey's space, in
 * repetition r = i / 16, is at P0 + 10r or P1 + 16r.
 */
#define IL_REPEAT	3
#define IL_LEN		48

static void il_layout(struct pair *p, struct mlx5dv_mr_interleaved *il,
		      uint32_t lkey)
{
	il[0] = (struct mlx5dv_mr_interleaved){
		(uintptr_t)p->buf + P0, 8, 2, lkey };
	il[1] = (struct mlx5dv_mr_interleaved){
		(uintptr_t)p->buf + P1, 8, 8, lkey };
}

/* Where byte @i of the layout lives in the buffer. */
static size_t il_at(size_t i)
{
	size_t r = i / 16, in = i % 16;

	return in < 8 ? P0 + 10 * r + in : P1 + 16 * r + in - 8;
}

/*
 * @qp configures @mk with the interleaved layout @il (@n entries,
 * @repeat times) and @access, by the new API or mlx5dv_wr_mr_interleaved()
 * (@old): wr_complete()'s result, the completion's status in *@st.
 */
static int configure_il(struct pair *p, unsigned int qp,
			struct mlx5dv_mkey *mk, int access,
			struct mlx5dv_mr_interleaved *il, uint16_t n,
			uint32_t repeat, bool old, int *st)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(p->qp[qp]);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);
	struct mlx5dv_mkey_conf_attr attr = {};
	struct ibv_wc wc;
	int err;

	*st = -1;
	ibv_wr_start(qx);
	qx->wr_id = 78;
	qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	if (old) {
		mlx5dv_wr_mr_interleaved(dx, mk, access, repeat, n, il);
	} else {
		mlx5dv_wr_mkey_configure(dx, mk, 2, &attr);
		mlx5dv_wr_set_mkey_access_flags(dx, access);
		mlx5dv_wr_set_mkey_layout_interleaved(dx, repeat, n, il);
	}
	err = ibv_wr_complete(qx);
	if (err)
		return err;
	if (!CHECK(poll_one(p->cq[qp], &wc)))
		return -1;
	mt_diag("interleaved conf: status %s", ibv_wc_status_str(wc.status));
	*st = wc.status;
	if (wc.status == IBV_WC_SUCCESS)
		CHECK_EQ(wc.opcode, IBV_WC_DRIVER1);
	return 0;
}

static bool config_il_ok(struct pair *p, unsigned int qp,
			 struct mlx5dv_mkey *mk, int access, bool old)
{
	struct mlx5dv_mr_interleaved il[2];
	int st;

	il_layout(p, il, p->mr->lkey);
	return CHECK_ERR(configure_il(p, qp, mk, access, il, 2, IL_REPEAT, old,
				      &st), 0) &&
	       CHECK_EQ(st, IBV_WC_SUCCESS);
}

/* Whether the layout holds @src's IL_LEN bytes and the skips are 0. */
static bool il_holds(const struct pair *p, const uint8_t *src)
{
	size_t i;

	for (i = 0; i < IL_LEN; i++)
		if (p->buf[il_at(i)] != src[i])
			return false;
	for (i = 0; i < IL_REPEAT; i++)
		if (p->buf[P0 + 10 * i + 8] || p->buf[P0 + 10 * i + 9] ||
		    p->buf[P1 + 16 * i + 8] || p->buf[P1 + 16 * i + 15])
			return false;
	return true;
}

/*
 * mlx5dv_wr_set_mkey_layout_interleaved(3): A writes 48 bytes through
 * B's rkey and they land 8 by 8 in turn at P0 and P1, each repetition
 * past the skipped bytes; A reads 20 back from byte 4, across three
 * pieces.
 */
MT_TEST_F(umr, interleaved_write_read)
{
	struct pair *p = &self->p;
	uint8_t want[20];
	size_t i;

	if (!config_il_ok(p, 1, self->mk[1], ALL_ACCESS, false))
		return KSFT_FAIL;
	fill(p->buf + SRC, IL_LEN, 11);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + SRC, IL_LEN),
		 IBV_WC_SUCCESS);
	CHECK(il_holds(p, p->buf + SRC));
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, self->mk[1]->rkey, 4,
		      p->mr->lkey, (uintptr_t)p->buf + DST, 20),
		 IBV_WC_SUCCESS);
	for (i = 0; i < 20; i++)
		want[i] = p->buf[il_at(4 + i)];
	CHECK(!memcmp(p->buf + DST, want, 20));
	CHECK(!memcmp(p->buf + DST, p->buf + SRC + 4, 20));
	return KSFT_PASS;
}

/*
 * mlx5dv_wr_mr_interleaved(3), the older API, on A's side: A's mkey as
 * the lkey of an RDMA WRITE gathers the layout's bytes in order, and of
 * a READ scatters them back.
 */
MT_TEST_F(umr, interleaved_as_lkey)
{
	struct pair *p = &self->p;
	uint8_t want[IL_LEN];
	size_t i;

	if (!config_il_ok(p, 0, self->mk[0], IBV_ACCESS_LOCAL_WRITE, true))
		return KSFT_FAIL;
	fill(want, IL_LEN, 33);
	for (i = 0; i < IL_LEN; i++)
		p->buf[il_at(i)] = want[i];
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, p->mr->rkey,
		      (uintptr_t)p->buf + DST, self->mk[0]->lkey, 0, IL_LEN),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + DST, want, IL_LEN));
	for (i = 0; i < IL_LEN; i++)
		p->buf[il_at(i)] = 0;
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, p->mr->rkey,
		      (uintptr_t)p->buf + DST, self->mk[0]->lkey, 0, IL_LEN),
		 IBV_WC_SUCCESS);
	CHECK(il_holds(p, want));
	return KSFT_PASS;
}

/*
 * Past the repetitions: 49 bytes from 0 through the rkey of the 48-byte
 * layout: a remote access error, nothing lands.
 */
MT_TEST_F(umr, interleaved_past_the_end)
{
	struct pair *p = &self->p;

	if (!config_il_ok(p, 1, self->mk[1], ALL_ACCESS, true))
		return KSFT_FAIL;
	fill(p->buf + SRC, 64, 9);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + SRC, IL_LEN + 1),
		 IBV_WC_REM_ACCESS_ERR);
	CHECK(p->buf[P0] == 0);
	return KSFT_PASS;
}

/* After IBV_WR_LOCAL_INV, the interleaved mkey's rkey reaches nothing. */
MT_TEST_F(umr, interleaved_local_inv)
{
	struct pair *p = &self->p;
	struct ibv_send_wr wr = {
		.wr_id = 6, .opcode = IBV_WR_LOCAL_INV,
		.send_flags = IBV_SEND_SIGNALED,
		.invalidate_rkey = self->mk[1]->lkey,
	}, *bad;
	struct ibv_wc wc;

	if (!config_il_ok(p, 1, self->mk[1], ALL_ACCESS, false))
		return KSFT_FAIL;
	if (!CHECK_ERR(ibv_post_send(p->qp[1], &wr, &bad), 0) ||
	    !CHECK(poll_one(p->cq[1], &wc)))
		return KSFT_FAIL;
	CHECK(wc_is(&wc, 6, IBV_WC_SUCCESS, IBV_WC_LOCAL_INV));
	fill(p->buf + SRC, 8, 9);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + SRC, 8),
		 IBV_WC_REM_ACCESS_ERR);
	CHECK(p->buf[P0] == 0);
	return KSFT_PASS;
}

/*
 * Refused interleaved layouts, each an MW_BIND_ERR completion: part 0 a deregistered MR's lkey; part 1 an MR of
 * another PD; part 2 remote write over an MR without it; part 3 four
 * entries, which with the block's header are past the mkey's table of
 * four; part 4 more entries than max_entries, refused by libmlx5
 * (ENOMEM), no WQE.
 */
MT_TEST_F_PARTS(umr, interleaved_refused)
{
	struct pair *p = &self->p;
	struct mlx5dv_mr_interleaved il[MK_ENTRIES + 1];
	uint16_t n = 2;
	struct ibv_mr *mr;
	uint32_t key;
	int st, rc;

	il_layout(p, il, p->mr->lkey);
	switch (i) {
	case 0:
		mr = ibv_reg_mr(p->pd, p->buf + P2, 4096, ALL_ACCESS);
		if (!CHECK(mr))
			return KSFT_FAIL;
		key = mr->lkey;
		CHECK_ERR(ibv_dereg_mr(mr), 0);
		il[1].lkey = key;
		break;
	case 1:
		self->pd2 = ibv_alloc_pd(p->c.ctx);
		if (!CHECK(self->pd2))
			return KSFT_FAIL;
		self->mr2 = ibv_reg_mr(self->pd2, p->buf + P2, 4096,
				       ALL_ACCESS);
		if (!CHECK(self->mr2))
			return KSFT_FAIL;
		il[1].lkey = self->mr2->lkey;
		break;
	case 2:
		self->mr2 = ibv_reg_mr(p->pd, p->buf + P2, 4096,
				       IBV_ACCESS_LOCAL_WRITE);
		if (!CHECK(self->mr2))
			return KSFT_FAIL;
		il[1].lkey = self->mr2->lkey;
		break;
	default:
		for (n = 0; n < MK_ENTRIES + 1; n++)
			il[n] = (struct mlx5dv_mr_interleaved){
				(uintptr_t)p->buf + P0 + 16 * n, 8, 8,
				p->mr->lkey };
		n = i == 3 ? MK_ENTRIES : MK_ENTRIES + 1;
		break;
	}
	rc = configure_il(p, 1, self->mk[1], ALL_ACCESS, il, n, IL_REPEAT,
			  false, &st);
	if (i == 4) {
		CHECK_ERR(rc, ENOMEM);
		return KSFT_PASS;
	}
	if (!CHECK_ERR(rc, 0))
		return KSFT_FAIL;
	CHECK_EQ(st, IBV_WC_MW_BIND_ERR);
	return KSFT_PASS;
}

/*
 * Another context's QP configures @arg, B's mkey: the key is not its
 * own, the configure is refused (MW_BIND_ERR).
 */
static int foreign_configure(void *arg)
{
	struct ibv_sge none[1] = {};
	struct umr other = {};
	int st, rc;

	rc = umr_setup(&other);
	if (rc == KSFT_PASS &&
	    CHECK_ERR(configure(&other.p, 1, arg, ALL_ACCESS, none, 0, false,
				&st), 0))
		CHECK_EQ(st, IBV_WC_MW_BIND_ERR);
	umr_teardown(&other);
	return rc;
}

/*
 * B's mkey named by a second context of the same process, then by one
 * of another user (nobody): both refused, and B's mkey stays free.
 */
MT_TEST_F(umr, foreign_mkey)
{
	struct pair *p = &self->p;

	CHECK_EQ(foreign_configure(self->mk[1]), KSFT_PASS);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, foreign_configure, self->mk[1]),
		 KSFT_PASS);
	fill(p->buf + SRC, 8, 2);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + SRC, 8),
		 IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(umr, list_write_read),
	MT_CASE_F(umr, mr_list_as_lkey),
	MT_CASE_F(umr, send_recv_both_mkeys),
	MT_CASE_F(umr, past_the_end),
	MT_CASE_F(umr, reconfigure_after_local_inv),
	MT_CASE_F_PARTS(umr, refused, 4),
	MT_CASE_F(umr, nested, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(umr, foreign_mkey),
	MT_CASE_F(umr, interleaved_write_read),
	MT_CASE_F(umr, interleaved_as_lkey),
	MT_CASE_F(umr, interleaved_past_the_end),
	MT_CASE_F(umr, interleaved_local_inv),
	MT_CASE_F_PARTS(umr, interleaved_refused, 5),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
