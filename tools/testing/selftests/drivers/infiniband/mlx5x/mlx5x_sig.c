// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Traffic through signature mkeys, as mlx5dv_wr_set_mkey_sig_block(3),
 * mlx5dv_mkey_check(3) and mlx5dv_create_mkey(3) (BLOCK_SIGNATURE)
 * define it: the mkey's layout holds its memory domain, what crosses it
 * is its wire domain; the device inserts, strips and checks each block's
 * signature (T10-DIF with a CRC or IP checksum guard, CRC32, CRC32C) as
 * the two domains say, and a signature that does not match is reported
 * by mlx5dv_mkey_check() while the transfer itself completes.
 *
 * The expected signatures are computed here, bit by bit, from their
 * definitions (SBC-3's CRC16 0x8bb7, the IP checksum, FC-PH's CRC32,
 * iSCSI's CRC32C), sharing no code with the device.
 *
 * The pair's buffer: the data at SRC, what the peer gets at DST, the
 * expected bytes at WANT.
 */
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"

#define BLK		512
#define NBLK		2
#define SRC		0
#define DST		8192
#define WANT		16384
#define MEM		24576

struct sig {
	struct pair p;
	struct mlx5dv_mkey *mk[2];
};

MT_FIXTURE(sig);

/* The same pair, its QPs created with MLX5DV_QP_CREATE_SIG_PIPELINING. */
struct sigp {
	struct sig s;
};

MT_FIXTURE(sigp);

static int sig_open(struct sig *self, bool pipelining)
{
	const struct mkey_pair_attr at = {
		.dv_flags = pipelining ? MLX5DV_QP_CREATE_SIG_PIPELINING : 0,
		.sges = 2,
		.mk_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE,
		.entries = 2,
	};

	return mkey_pair_open(&self->p, self->mk, &at);
}

MT_FIXTURE_SETUP(sig)
{
	return sig_open(self, false);
}

MT_FIXTURE_TEARDOWN(sig)
{
	mkeys_destroy(self->mk);
	pair_teardown(&self->p);
}

/* The signatures, from their definitions. */
static uint16_t crc16_t10dif(uint16_t crc, const uint8_t *p, size_t n)
{
	unsigned int b;

	while (n--) {
		crc ^= *p++ << 8;
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? crc << 1 ^ 0x8bb7 : crc << 1;
	}
	return crc;
}

static uint16_t ipcs(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/* A reflected CRC32 of polynomial @poly from all ones, inverted. */
static uint32_t crc32_refl(uint32_t poly, const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffff;
	unsigned int b;

	while (n--) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = crc & 1 ? crc >> 1 ^ poly : crc >> 1;
	}
	return ~crc;
}

#define CRC32_POLY	0xedb88320	/* FC-PH, IEEE 802.3 */
#define CRC32C_POLY	0x82f63b78	/* Castagnoli */

static void put_be(uint8_t *p, uint32_t v, unsigned int n)
{
	while (n--) {
		p[n] = v & 0xff;
		v >>= 8;
	}
}

/* The T10-DIF of block @k of @d: CRC guard, apptag, reftag @ref + @k. */
static void dif(uint8_t *out, const uint8_t *d, bool csum, uint16_t app,
		uint32_t ref)
{
	put_be(out, csum ? ipcs(d, BLK) : crc16_t10dif(0xffff, d, BLK), 2);
	put_be(out + 2, app, 2);
	put_be(out + 4, ref, 4);
}

/*
 * QP @qp configures @mk over @len bytes at @off, with @mem and @wire
 * (NULL: none) and @check; @flags of the configure: wr_complete()'s
 * result, the completion's status in *@st.
 */
static int configure(struct pair *p, unsigned int qp, struct mlx5dv_mkey *mk,
		     uint32_t off, uint32_t len,
		     const struct mlx5dv_sig_block_domain *mem,
		     const struct mlx5dv_sig_block_domain *wire,
		     uint8_t check, uint32_t flags, int *st)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(p->qp[qp]);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);
	struct mlx5dv_mkey_conf_attr attr = { .conf_flags = flags };
	struct mlx5dv_sig_block_attr sa = {
		.mem = mem, .wire = wire, .check_mask = check,
	};
	struct ibv_sge sge = { (uintptr_t)p->buf + off, len, p->mr->lkey };
	struct ibv_wc wc;
	int err;

	*st = -1;
	ibv_wr_start(qx);
	qx->wr_id = 77;
	qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mkey_configure(dx, mk, mem || wire ? 3 : 2, &attr);
	mlx5dv_wr_set_mkey_access_flags(dx, ALL_ACCESS);
	mlx5dv_wr_set_mkey_layout_list(dx, 1, &sge);
	if (mem || wire)
		mlx5dv_wr_set_mkey_sig_block(dx, &sa);
	err = ibv_wr_complete(qx);
	if (err)
		return err;
	if (!CHECK(poll_one(p->cq[qp], &wc)))
		return -1;
	*st = wc.status;
	return 0;
}

static bool config_ok(struct pair *p, unsigned int qp, struct mlx5dv_mkey *mk,
		      uint32_t off, uint32_t len,
		      const struct mlx5dv_sig_block_domain *mem,
		      const struct mlx5dv_sig_block_domain *wire, uint8_t check)
{
	int st;

	return CHECK_ERR(configure(p, qp, mk, off, len, mem, wire, check, 0,
				   &st), 0) &&
	       CHECK_EQ(st, IBV_WC_SUCCESS);
}

/* A SEND of @len bytes at @addr of @lkey into B's @rlkey at @raddr. */
static int send_recv(struct pair *p, uint32_t lkey, uint64_t addr,
		     uint32_t len, uint32_t rlkey, uint64_t raddr, int *rst)
{
	struct ibv_sge rsge = { raddr, len, rlkey };
	struct ibv_recv_wr rwr = { .wr_id = 9, .sg_list = &rsge, .num_sge = 1 };
	struct ibv_sge ssge = { addr, len, lkey };
	struct ibv_send_wr swr = {
		.wr_id = 8, .sg_list = &ssge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *sbad;
	struct ibv_recv_wr *rbad;
	struct ibv_wc wc, r;

	*rst = -1;
	if (!CHECK_ERR(ibv_post_recv(p->qp[1], &rwr, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[0], &swr, &sbad), 0) ||
	    !CHECK(poll_one(p->cq[0], &wc)))
		return -1;
	if (wc.status == IBV_WC_SUCCESS && CHECK(poll_one(p->cq[1], &r)))
		*rst = r.status;
	return wc.status;
}

/* A's fetch and add of 1 on @rkey at @raddr, into SRC: its status. */
static int rc_atomic(struct pair *p, uint32_t rkey, uint64_t raddr)
{
	struct ibv_sge sge = { (uintptr_t)p->buf + SRC, 8, p->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 6, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.atomic = { .remote_addr = raddr, .compare_add = 1,
			       .rkey = rkey },
	}, *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_post_send(p->qp[0], &wr, &bad), 0) ||
	    !CHECK(poll_one(p->cq[0], &wc)))
		return -1;
	return wc.status;
}

/* mlx5dv_mkey_check() of @mk: its error type, the error in *@e. */
static int mkey_err(struct mlx5dv_mkey *mk, struct mlx5dv_mkey_err *e)
{
	memset(e, 0, sizeof(*e));
	if (!CHECK_ERR(mlx5dv_mkey_check(mk, e), 0))
		return -1;
	return e->err_type;
}

static const struct mlx5dv_sig_crc crc32_ff = {
	.type = MLX5DV_SIG_CRC_TYPE_CRC32, .seed = 0xffffffff,
};
static const struct mlx5dv_sig_crc crc32c_ff = {
	.type = MLX5DV_SIG_CRC_TYPE_CRC32C, .seed = 0xffffffff,
};

/*
 * Example 1 of mlx5dv_wr_set_mkey_sig_block(3), reversed: the memory
 * holds data alone, the wire domain CRC32 every 512 bytes.  A's SEND of
 * two blocks' wire bytes through its mkey gives B each block followed
 * by its CRC32, big endian.
 */
MT_TEST_F(sig, crc32_wire_insert)
{
	struct mlx5dv_sig_block_domain wire = {
		.sig_type = MLX5DV_SIG_TYPE_CRC, .sig.crc = &crc32_ff,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct pair *p = &self->p;
	uint32_t wlen = NBLK * (BLK + 4);
	struct mlx5dv_mkey_err e;
	uint8_t *w = p->buf + WANT;
	unsigned int k;
	int rst;

	fill(p->buf + SRC, NBLK * BLK, 3);
	for (k = 0; k < NBLK; k++) {
		memcpy(w + k * (BLK + 4), p->buf + SRC + k * BLK, BLK);
		put_be(w + k * (BLK + 4) + BLK,
		       crc32_refl(CRC32_POLY, p->buf + SRC + k * BLK, BLK), 4);
	}
	if (!config_ok(p, 0, self->mk[0], SRC, NBLK * BLK, NULL, &wire,
		       MLX5DV_SIG_MASK_CRC32))
		return KSFT_FAIL;
	CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, wlen, p->mr->lkey,
			   (uintptr_t)p->buf + DST, &rst), IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + DST, w, wlen));
	CHECK_EQ(mkey_err(self->mk[0], &e), MLX5DV_MKEY_NO_ERR);
	return KSFT_PASS;
}

/*
 * Example 1: the memory holds CRC32C after each 512 bytes, the wire
 * none.  Correct CRCs are checked and stripped (B gets the data alone,
 * mlx5dv_mkey_check() finds nothing); a wrong one in the second block
 * is reported as a bad guard at that block, with the CRC the field
 * holds as expected and the computed one as actual, and the transfer
 * still completes.
 */
MT_TEST_F_PARTS(sig, crc32c_mem_check_strip)
{
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_CRC, .sig.crc = &crc32c_ff,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct pair *p = &self->p;
	uint8_t *m = p->buf + MEM;
	struct mlx5dv_mkey_err e;
	unsigned int k;
	uint32_t crc = 0;
	int rst;

	fill(p->buf + SRC, NBLK * BLK, 9);
	for (k = 0; k < NBLK; k++) {
		memcpy(m + k * (BLK + 4), p->buf + SRC + k * BLK, BLK);
		crc = crc32_refl(CRC32C_POLY, p->buf + SRC + k * BLK, BLK);
		put_be(m + k * (BLK + 4) + BLK, crc, 4);
	}
	if (i)
		m[BLK + 4 + BLK + 3] ^= 1;
	if (!config_ok(p, 0, self->mk[0], MEM, NBLK * (BLK + 4), &mem, NULL,
		       MLX5DV_SIG_MASK_CRC32C))
		return KSFT_FAIL;
	CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, NBLK * BLK, p->mr->lkey,
			   (uintptr_t)p->buf + DST, &rst), IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + DST, p->buf + SRC, NBLK * BLK));
	if (!i) {
		CHECK_EQ(mkey_err(self->mk[0], &e), MLX5DV_MKEY_NO_ERR);
		return KSFT_PASS;
	}
	CHECK_EQ(mkey_err(self->mk[0], &e), MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD);
	CHECK_EQ(e.err.sig.actual_value, crc);
	CHECK_EQ(e.err.sig.expected_value, crc ^ 1);
	CHECK_EQ(e.err.sig.offset, BLK);
	/* reported once: the next check finds nothing */
	CHECK_EQ(mkey_err(self->mk[0], &e), MLX5DV_MKEY_NO_ERR);
	return KSFT_PASS;
}

/*
 * Example 2.1: B's mkey has T10-DIF (CRC guard, reference tag growing
 * per block) on the wire and nothing in memory.  A sends the blocks with
 * their DIFs from a plain MR: part 0 all correct, B's memory gets the
 * data alone and no error; part 1 the second block's reference tag
 * wrong, a bad reference tag; part 2 its application tag wrong, a bad
 * application tag; part 3 the application tag 0xffff with the escape
 * flag: not checked.
 */
MT_TEST_F_PARTS(sig, t10dif_wire_check_strip)
{
	struct mlx5dv_sig_t10dif t = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC, .bg = 0xffff,
		.app_tag = 0x1234, .ref_tag = 0x100,
		.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP |
			 (i == 3 ? MLX5DV_SIG_T10DIF_FLAG_APP_ESCAPE : 0),
	};
	struct mlx5dv_sig_block_domain wire = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF, .sig.dif = &t,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	static const int want[] = {
		MLX5DV_MKEY_NO_ERR, MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG,
		MLX5DV_MKEY_SIG_BLOCK_BAD_APPTAG, MLX5DV_MKEY_NO_ERR,
	};
	struct pair *p = &self->p;
	uint8_t *w = p->buf + SRC;
	uint32_t wlen = NBLK * (BLK + 8);
	struct mlx5dv_mkey_err e;
	unsigned int k;
	int rst;

	fill(p->buf + WANT, NBLK * BLK, 21);
	for (k = 0; k < NBLK; k++) {
		memcpy(w + k * (BLK + 8), p->buf + WANT + k * BLK, BLK);
		dif(w + k * (BLK + 8) + BLK, p->buf + WANT + k * BLK, false,
		    0x1234, 0x100 + k);
	}
	if (i == 1)
		w[2 * BLK + 8 + 7] ^= 0x10;
	if (i >= 2) {
		put_be(w + 2 * BLK + 8 + 2, i == 2 ? 0x4321 : 0xffff, 2);
		w[2 * BLK + 8 + 1] ^= i == 3;	/* a bad guard, escaped */
	}
	if (!config_ok(p, 1, self->mk[1], DST, NBLK * BLK, NULL, &wire,
		       MLX5DV_SIG_MASK_T10DIF_GUARD |
		       MLX5DV_SIG_MASK_T10DIF_APPTAG |
		       MLX5DV_SIG_MASK_T10DIF_REFTAG))
		return KSFT_FAIL;
	CHECK_EQ(send_recv(p, p->mr->lkey, (uintptr_t)w, wlen,
			   self->mk[1]->lkey, 0, &rst), IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + DST, p->buf + WANT, NBLK * BLK));
	CHECK_EQ(mkey_err(self->mk[1], &e), want[i]);
	if (i == 1) {
		CHECK_EQ(e.err.sig.expected_value, 0x101 ^ 0x10);
		CHECK_EQ(e.err.sig.actual_value, 0x101);
		CHECK_EQ(e.err.sig.offset, BLK + 8);
	}
	return KSFT_PASS;
}

/*
 * Example 1.1 with T10-DIF's IP checksum guard: B receives plain data
 * through its mkey, whose memory domain carries T10-DIF; the device
 * writes each block followed by the DIF it computes.
 */
MT_TEST_F(sig, t10dif_ipcs_mem_insert)
{
	struct mlx5dv_sig_t10dif t = {
		.bg_type = MLX5DV_SIG_T10DIF_CSUM, .bg = 0,
		.app_tag = 0xbeef, .ref_tag = 7,
	};
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF, .sig.dif = &t,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct pair *p = &self->p;
	uint8_t *w = p->buf + WANT;
	unsigned int k;
	int rst;

	fill(p->buf + SRC, NBLK * BLK, 33);
	for (k = 0; k < NBLK; k++) {
		memcpy(w + k * (BLK + 8), p->buf + SRC + k * BLK, BLK);
		dif(w + k * (BLK + 8) + BLK, p->buf + SRC + k * BLK, true,
		    0xbeef, 7);
	}
	if (!config_ok(p, 1, self->mk[1], MEM, NBLK * (BLK + 8), &mem, NULL,
		       0xff))
		return KSFT_FAIL;
	CHECK_EQ(send_recv(p, p->mr->lkey, (uintptr_t)p->buf + SRC,
			   NBLK * BLK, self->mk[1]->lkey, 0, &rst),
		 IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + MEM, w, NBLK * (BLK + 8)));
	return KSFT_PASS;
}

/*
 * What the device refuses completes the configure with MW_BIND_ERR (or
 * libmlx5 refuses it first): part 0 CRC64-XP10, which the model does
 * not compute; part 1 two signature domains of different block sizes.
 * Part 2: MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR takes a signature off,
 * and A's mkey then carries its bytes as they are.
 */
MT_TEST_F_PARTS(sig, refusals_and_reset)
{
	static const struct mlx5dv_sig_crc c64 = {
		.type = MLX5DV_SIG_CRC_TYPE_CRC64_XP10, .seed = 0,
	};
	struct mlx5dv_sig_block_domain d64 = {
		.sig_type = MLX5DV_SIG_TYPE_CRC, .sig.crc = &c64,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_domain d512 = {
		.sig_type = MLX5DV_SIG_TYPE_CRC, .sig.crc = &crc32_ff,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_domain d4k = {
		.sig_type = MLX5DV_SIG_TYPE_CRC, .sig.crc = &crc32_ff,
		.block_size = MLX5DV_BLOCK_SIZE_4096,
	};
	struct pair *p = &self->p;
	int st, err, rst;

	if (i < 2) {
		err = configure(p, 0, self->mk[0], SRC, 2 * 4096,
				i ? &d4k : NULL, i ? &d512 : &d64, 0xff, 0,
				&st);
		if (err)
			mt_diag("libmlx5 refused it: %d", err);
		else
			CHECK_EQ(st, IBV_WC_MW_BIND_ERR);
		return KSFT_PASS;
	}
	if (!config_ok(p, 0, self->mk[0], SRC, NBLK * BLK, NULL, &d512,
		       MLX5DV_SIG_MASK_CRC32) ||
	    !CHECK_ERR(configure(p, 0, self->mk[0], SRC, NBLK * BLK, NULL,
				 NULL, 0,
				 MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR, &st),
		       0) ||
	    !CHECK_EQ(st, IBV_WC_SUCCESS))
		return KSFT_FAIL;
	fill(p->buf + SRC, NBLK * BLK, 44);
	CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, NBLK * BLK, p->mr->lkey,
			   (uintptr_t)p->buf + DST, &rst), IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + DST, p->buf + SRC, NBLK * BLK));
	return KSFT_PASS;
}

/*
 * Through an rkey: part 0 an RDMA WRITE of two CRC32 blocks into B's
 * mkey (wire CRC32, memory none), the second CRC wrong: B's memory gets
 * the data, and B's mkey the error, which B's CQ carries (no other
 * completion is B's); part 1 an RDMA READ from B's mkey (memory CRC32,
 * wire none) into A's MR: A gets the data alone, and the bad memory CRC
 * is B's error; part 2 an atomic on B's mkey, whose bytes are blocks: a
 * remote access error, its memory untouched.
 */
MT_TEST_F_PARTS(sig, rdma_through_rkey)
{
	struct mlx5dv_sig_block_domain d = {
		.sig_type = MLX5DV_SIG_TYPE_CRC, .sig.crc = &crc32_ff,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct pair *p = &self->p;
	uint8_t *w = p->buf + (i ? MEM : SRC);
	struct mlx5dv_mkey_err e;
	struct ibv_wc wc;
	unsigned int k;

	fill(p->buf + WANT, NBLK * BLK, 77);
	for (k = 0; k < NBLK; k++) {
		memcpy(w + k * (BLK + 4), p->buf + WANT + k * BLK, BLK);
		put_be(w + k * (BLK + 4) + BLK,
		       crc32_refl(CRC32_POLY, p->buf + WANT + k * BLK, BLK),
		       4);
	}
	w[2 * BLK + 4 + 3] ^= 0x80;
	if (i == 0) {
		if (!config_ok(p, 1, self->mk[1], DST, NBLK * BLK, NULL, &d,
			       MLX5DV_SIG_MASK_CRC32))
			return KSFT_FAIL;
		CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
				 p->mr->lkey, (uintptr_t)w,
				 NBLK * (BLK + 4)), IBV_WC_SUCCESS);
		CHECK(!memcmp(p->buf + DST, p->buf + WANT, NBLK * BLK));
	} else if (i == 1) {
		if (!config_ok(p, 1, self->mk[1], MEM, NBLK * (BLK + 4), &d,
			       NULL, MLX5DV_SIG_MASK_CRC32))
			return KSFT_FAIL;
		CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, self->mk[1]->rkey, 0,
				 p->mr->lkey, (uintptr_t)p->buf + DST,
				 NBLK * BLK), IBV_WC_SUCCESS);
		CHECK(!memcmp(p->buf + DST, p->buf + WANT, NBLK * BLK));
	} else {
		if (!config_ok(p, 1, self->mk[1], DST, NBLK * BLK, NULL, &d,
			       MLX5DV_SIG_MASK_CRC32))
			return KSFT_FAIL;
		memset(p->buf + DST, 0x5a, 8);
		CHECK_EQ(rc_atomic(p, self->mk[1]->rkey, 0), IBV_WC_REM_ACCESS_ERR);
		CHECK_EQ(p->buf[DST], 0x5a);
		return KSFT_PASS;
	}
	/* B's CQ holds the signature error alone: polled, no completion */
	CHECK_EQ(ibv_poll_cq(p->cq[1], 1, &wc), 0);
	CHECK_EQ(mkey_err(self->mk[1], &e), MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD);
	CHECK_EQ(e.err.sig.offset, i ? BLK : BLK + 4);
	return KSFT_PASS;
}

MT_FIXTURE_SETUP(sigp)
{
	return sig_open(&self->s, true);
}

MT_FIXTURE_TEARDOWN(sigp)
{
	sig_teardown(&self->s);
}

/*
 * Signature pipelining (mlx5dv_create_qp(3) SIG_PIPELINING,
 * mlx5dv_qp_cancel_posted_send_wrs(3)): A writes through its mkey, whose
 * memory CRC32 is wrong, then SENDs with a fence.  Part 0: the SEND
 * does not go: A's send queue is drained (SQ_DRAINED, IBV_QPS_SQD), no
 * completion but the signature error, which mlx5dv_mkey_check() reports;
 * the SEND is cancelled (one WQE), posted again, and once A is back in
 * RTS it arrives.  Part 1: the same CRC right: nothing stops.  Part 2:
 * through DEVX a verbs QP takes INIT2INIT_QP and QUERY_QP only.
 */
MT_TEST_F_PARTS(sigp, pipelining)
{
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_CRC, .sig.crc = &crc32_ff,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct pair *p = &self->s.p;
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(p->qp[0]);
	struct ibv_sge wsge = { 0, BLK, self->s.mk[0]->lkey };
	struct ibv_sge ssge = { (uintptr_t)p->buf + SRC, 16, p->mr->lkey };
	struct ibv_send_wr sw = {
		.wr_id = 2, .sg_list = &ssge, .num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED | IBV_SEND_FENCE,
	}, ww = {
		.wr_id = 1, .sg_list = &wsge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .next = &sw,
		.wr.rdma = { (uintptr_t)p->buf + DST, p->mr->rkey },
	}, *bad;
	uint32_t in[64] = {}, out[256] = {};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS,
				 .cur_qp_state = IBV_QPS_SQD };
	struct ibv_qp_init_attr ia;
	struct mlx5dv_mkey_err e;
	struct ibv_wc wc;
	int n = 0;

	if (i == 2) {
		in[0] = htobe32(0x503 << 16);	/* RTR2RTS_QP */
		in[2] = htobe32(p->qp[0]->qp_num);
		CHECK(mlx5dv_devx_qp_modify(p->qp[0], in, sizeof(in), out,
					    sizeof(out)));
		in[0] = htobe32(0x50b << 16);	/* QUERY_QP */
		in[2] = htobe32(p->qp[1]->qp_num);
		CHECK(mlx5dv_devx_qp_query(p->qp[0], in, sizeof(in), out,
					   sizeof(out)));
		in[2] = htobe32(p->qp[0]->qp_num);
		CHECK_ERR(mlx5dv_devx_qp_query(p->qp[0], in, sizeof(in), out,
					       sizeof(out)), 0);
		return KSFT_PASS;
	}
	fill(p->buf + MEM, BLK + 4, 5);
	put_be(p->buf + MEM + BLK, crc32_refl(CRC32_POLY, p->buf + MEM, BLK),
	       4);
	if (!i)
		p->buf[MEM + BLK] ^= 1;
	if (!config_ok(p, 0, self->s.mk[0], MEM, BLK + 4, &mem, NULL,
		       MLX5DV_SIG_MASK_CRC32) ||
	    !CHECK_ERR(post_recv(p, 9, DST + 1024, 16), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[0], &ww, &bad), 0))
		return KSFT_FAIL;
	if (i) {
		CHECK(poll_one(p->cq[0], &wc) &&
		      wc_is(&wc, 2, IBV_WC_SUCCESS, IBV_WC_SEND));
		CHECK(poll_one(p->cq[1], &wc) &&
		      wc_is(&wc, 9, IBV_WC_SUCCESS, IBV_WC_RECV));
		CHECK_EQ(mkey_err(self->s.mk[0], &e), MLX5DV_MKEY_NO_ERR);
		return KSFT_PASS;
	}
	CHECK_EQ(mt_wait_event(p->c.ctx, IBV_EVENT_SQ_DRAINED, WAIT_MS, NULL),
		 0);
	CHECK_EQ(ibv_poll_cq(p->cq[0], 1, &wc), 0);
	CHECK_EQ(ibv_poll_cq(p->cq[1], 1, &wc), 0);
	CHECK_EQ(mkey_err(self->s.mk[0], &e), MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD);
	if (CHECK_ERR(ibv_query_qp(p->qp[0], &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_SQD);
	CHECK_EQ(mlx5dv_qp_cancel_posted_send_wrs(
			mlx5dv_qp_ex_from_ibv_qp_ex(qx), 2), 1);
	sw.wr_id = 3;
	if (!CHECK_ERR(ibv_post_send(p->qp[0], &sw, &bad), 0))
		return KSFT_FAIL;
	a.qp_state = IBV_QPS_RTS;
	a.cur_qp_state = IBV_QPS_SQD;
	if (!CHECK_ERR(ibv_modify_qp(p->qp[0], &a,
				     IBV_QP_STATE | IBV_QP_CUR_STATE), 0))
		return KSFT_FAIL;
	/* the cancelled WQE completes as it was asked to, then the SEND */
	while (n++ < 2 && poll_one(p->cq[0], &wc) && wc.wr_id != 3)
		;
	CHECK(wc_is(&wc, 3, IBV_WC_SUCCESS, IBV_WC_SEND));
	CHECK(poll_one(p->cq[1], &wc) &&
	      wc_is(&wc, 9, IBV_WC_SUCCESS, IBV_WC_RECV));
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(sig, crc32_wire_insert, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(sig, crc32c_mem_check_strip, 2,
			.flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(sig, t10dif_wire_check_strip, 4,
			.flags = MT_NEEDS_MODEL),
	MT_CASE_F(sig, t10dif_ipcs_mem_insert, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(sig, refusals_and_reset, 3, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(sig, rdma_through_rkey, 3, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(sigp, pipelining, 3, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
