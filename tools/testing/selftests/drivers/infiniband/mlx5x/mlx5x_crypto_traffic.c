// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Traffic through crypto mkeys, as mlx5dv_wr_set_mkey_crypto(3) and
 * mlx5dv_create_mkey(3) define it: a CRYPTO mkey configured by
 * mlx5dv_wr_mkey_configure() with a crypto attribute (AES-XTS, a DEK of
 * mlx5dv_dek_create(3), a data unit size and an initial tweak) encrypts
 * or decrypts the data that crosses it, per data unit with the tweak
 * incremented per unit: with encrypt_on_tx the memory holds plaintext
 * and the wire ciphertext, without it the memory holds ciphertext.
 * Until it is configured, traffic through it fails with an error CQE.
 *
 * The expected bytes are computed in this process by the kernel's
 * AF_ALG "skcipher" socket with "xts(aes)" (IEEE 1619: the tweak is the
 * little-endian data unit number), which shares no code with the
 * device's.  The model runs in its plaintext mode (fw/crypto), so the
 * cases skip on hardware.
 *
 * The pair's buffer: A's plaintext at PLAIN, B's crypto mkey's memory
 * in two pieces at CT0 (256 bytes) and CT1 (768): its first data unit
 * straddles them.
 */
#define _GNU_SOURCE
#include <linux/if_alg.h>
#include <sys/socket.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"

#define UNIT		512
#define MSG		(2 * UNIT)
#define PLAIN		0
#define CT0		4096
#define CT1		8192
#define OUT		12288
#define OUT2		16384
/* two units of up to 4096 bytes: A's plaintext, what B gets, the reference */
#define BIG_SRC		20480
#define BIG_DST		32768
#define BIG_WANT	49152

#ifndef SOL_ALG
#define SOL_ALG		279
#endif

static const uint8_t key[32] = {
	0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87,
	0x98, 0xa9, 0xba, 0xcb, 0xdc, 0xed, 0xfe, 0x0f,
	0x01, 0x13, 0x25, 0x37, 0x49, 0x5b, 0x6d, 0x7f,
	0x81, 0x93, 0xa5, 0xb7, 0xc9, 0xdb, 0xed, 0xff,
};

/* the first unit's tweak: unit 1's carries from byte 0 into byte 1 */
static const uint8_t tweak[16] = { 0xff, 0x07, 0, 0, 0, 0, 0, 0,
				   0, 0, 0, 0, 0, 0, 0, 0x5a };

struct ctr {
	struct pair p;
	struct mlx5dv_dek *dek;
	struct mlx5dv_mkey *mk[2];
	struct ibv_pd *pd2;
	struct mlx5dv_dek *dek2;
	struct mt_ctx c2;
	bool child;	/* of another user: the mode is the parent's */
};

MT_FIXTURE(ctr);

/* A plaintext DEK of @key on @pd of @ctx. */
static struct mlx5dv_dek *dek_on(struct ibv_context *ctx, struct ibv_pd *pd)
{
	struct mlx5dv_dek_init_attr a = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS,
		.pd = pd,
		.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN,
	};

	memcpy(a.key, key, sizeof(key));
	return mlx5dv_dek_create(ctx, &a);
}

static int ctr_open(struct ctr *self)
{
	const struct mkey_pair_attr at = {
		.sges = 2,
		.mk_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO,
		.entries = 2,
	};
	struct pair *p = &self->p;
	int rc;

	self->c2.base = -1;
	if (!self->child && !mt_sim())
		return mt_skip("the model's crypto mode (fw/crypto)");
	/* the model ciphers, and the cases check, with the crypto API */
	if (access("/proc/crypto", F_OK)) {
		p->c.base = -1;	/* nothing opened */
		return mt_skip("this kernel has no crypto API");
	}
	if (!self->child &&
	    !CHECK_ERR(mt_fw_write("crypto", "plaintext"), 0))
		return KSFT_FAIL;
	rc = mkey_pair_open(p, self->mk, &at);
	if (rc != KSFT_PASS)
		return rc;
	self->dek = dek_on(p->c.ctx, p->pd);
	return CHECK(self->dek) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_SETUP(ctr)
{
	return ctr_open(self);
}

MT_FIXTURE_TEARDOWN(ctr)
{
	if (self->dek2)
		CHECK_ERR(mlx5dv_dek_destroy(self->dek2), 0);
	if (self->pd2)
		CHECK_ERR(ibv_dealloc_pd(self->pd2), 0);
	mt_ctx_close(&self->c2);
	mkeys_destroy(self->mk);
	if (self->dek)
		CHECK_ERR(mlx5dv_dek_destroy(self->dek), 0);
	pair_teardown(&self->p);
	if (!self->child && mt_sim())
		mt_fw_write("crypto", "none");
}

/*
 * QP @qp configures @mk over @n pieces @sge with @access, AES-XTS of
 * @dek in units of @bs with the tweak above, ciphertext on the wire if
 * @on_tx: wr_complete()'s result, the completion's status in *@st.
 */
static int configure_bs(struct pair *p, unsigned int qp,
			struct mlx5dv_mkey *mk, const struct ibv_sge *sge,
			uint16_t n, int access, struct mlx5dv_dek *dek,
			bool on_tx, enum mlx5dv_block_size bs, int *st)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(p->qp[qp]);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);
	struct mlx5dv_mkey_conf_attr attr = {};
	struct mlx5dv_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = on_tx,
		.signature_crypto_order =
			MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
		.data_unit_size = bs,
		.dek = dek,
	};
	struct ibv_wc wc;
	int err;

	memcpy(ca.initial_tweak, tweak, sizeof(tweak));
	*st = -1;
	ibv_wr_start(qx);
	qx->wr_id = 77;
	qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mkey_configure(dx, mk, 3, &attr);
	mlx5dv_wr_set_mkey_access_flags(dx, access);
	mlx5dv_wr_set_mkey_layout_list(dx, n, sge);
	mlx5dv_wr_set_mkey_crypto(dx, &ca);
	err = ibv_wr_complete(qx);
	if (err)
		return err;
	if (!CHECK(poll_one(p->cq[qp], &wc)))
		return -1;
	mt_diag("crypto mkey configured: %s", ibv_wc_status_str(wc.status));
	*st = wc.status;
	return 0;
}

/* The same in units of 512 bytes. */
static int configure(struct pair *p, unsigned int qp, struct mlx5dv_mkey *mk,
		     const struct ibv_sge *sge, uint16_t n, int access,
		     struct mlx5dv_dek *dek, bool on_tx, int *st)
{
	return configure_bs(p, qp, mk, sge, n, access, dek, on_tx,
			    MLX5DV_BLOCK_SIZE_512, st);
}

/* B's mkey over CT0 and CT1, @on_tx, with every remote right. */
static bool config_b(struct ctr *self, bool on_tx)
{
	struct pair *p = &self->p;
	struct ibv_sge sge[2] = {
		{ (uintptr_t)p->buf + CT0, 256, p->mr->lkey },
		{ (uintptr_t)p->buf + CT1, MSG - 256, p->mr->lkey },
	};
	int st;

	return CHECK_ERR(configure(p, 1, self->mk[1], sge, 2, ALL_ACCESS,
				   self->dek, on_tx, &st), 0) &&
	       CHECK_EQ(st, IBV_WC_SUCCESS);
}

/* A's mkey over PLAIN, ciphertext on the wire. */
static bool config_a(struct ctr *self)
{
	struct pair *p = &self->p;
	struct ibv_sge sge = { (uintptr_t)p->buf + PLAIN, MSG, p->mr->lkey };
	int st;

	return CHECK_ERR(configure(p, 0, self->mk[0], &sge, 1,
				   IBV_ACCESS_LOCAL_WRITE, self->dek, true,
				   &st), 0) &&
	       CHECK_EQ(st, IBV_WC_SUCCESS);
}

/*
 * The reference: @n units of @unit bytes of @in through AF_ALG's
 * xts(aes) with the key and tweak above, unit i with the tweak plus i;
 * encrypt or decrypt.
 */
static bool xts_units(const uint8_t *in, uint8_t *out, unsigned int n,
		      unsigned int unit, bool encrypt)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 16)] = {};
	struct af_alg_iv *iv;
	struct msghdr msg = {};
	struct cmsghdr *c;
	struct iovec io;
	unsigned int i, k;
	int tfm, op = -1;
	bool ok = false;
	unsigned int carry;

	strcpy((char *)sa.salg_type, "skcipher");
	strcpy((char *)sa.salg_name, "xts(aes)");
	tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (tfm < 0) {	/* the socket family is a module */
		mt_sh("modprobe -q algif_skcipher");
		tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
	}
	if (!CHECK(tfm >= 0) ||
	    !CHECK_ERR(bind(tfm, (struct sockaddr *)&sa, sizeof(sa)), 0) ||
	    !CHECK_ERR(setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key,
				  sizeof(key)), 0))
		goto out;
	op = accept(tfm, NULL, 0);
	if (!CHECK(op >= 0))
		goto out;
	for (i = 0; i < n; i++) {
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_OP;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		*(uint32_t *)CMSG_DATA(c) = encrypt ? ALG_OP_ENCRYPT :
						      ALG_OP_DECRYPT;
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(*iv) + 16);
		iv = (void *)CMSG_DATA(c);
		iv->ivlen = 16;
		/* the tweak plus i, little endian */
		memcpy(iv->iv, tweak, 16);
		carry = i;
		for (k = 0; k < 16 && carry; k++) {
			carry += iv->iv[k];
			iv->iv[k] = carry & 0xff;
			carry >>= 8;
		}
		io.iov_base = (void *)(in + i * unit);
		io.iov_len = unit;
		msg.msg_iov = &io;
		msg.msg_iovlen = 1;
		if (!CHECK_EQ(sendmsg(op, &msg, 0), unit) ||
		    !CHECK_EQ(read(op, out + i * unit, unit), unit))
			goto out;
	}
	ok = true;
out:
	if (op >= 0)
		close(op);
	if (tfm >= 0)
		close(tfm);
	return ok;
}

/* The reference in units of 512 bytes. */
static bool xts_ref(const uint8_t *in, uint8_t *out, unsigned int n,
		    bool encrypt)
{
	return xts_units(in, out, n, UNIT, encrypt);
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
	struct ibv_wc wc;

	*rst = -1;
	if (!CHECK_ERR(ibv_post_recv(p->qp[1], &rwr, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[0], &swr, &sbad), 0) ||
	    !CHECK(poll_one(p->cq[0], &wc)))
		return -1;
	if (wc.status == IBV_WC_SUCCESS) {
		struct ibv_wc r;

		if (CHECK(poll_one(p->cq[1], &r)))
			*rst = r.status;
	}
	return wc.status;
}

/* Whether any of @n bytes at @b is not 0. */
static bool memchr_inv0(const uint8_t *b, size_t n)
{
	while (n--)
		if (*b++)
			return true;
	return false;
}

/* Whether B's crypto memory holds @want's MSG bytes, in piece order. */
static bool ct_holds(const struct pair *p, const uint8_t *want)
{
	return !memcmp(p->buf + CT0, want, 256) &&
	       !memcmp(p->buf + CT1, want + 256, MSG - 256);
}

/*
 * Ciphertext in memory (encrypt_on_tx off): A writes two units of
 * plaintext through B's rkey and B's memory holds their AES-XTS
 * ciphertext, the first unit across both pieces; A reads them back
 * through the rkey as plaintext, and the second unit alone.
 */
MT_TEST_F(ctr, write_read_memory_encrypted)
{
	struct pair *p = &self->p;
	uint8_t want[MSG];

	if (!config_b(self, false))
		return KSFT_FAIL;
	fill(p->buf + PLAIN, MSG, 11);
	if (!xts_ref(p->buf + PLAIN, want, 2, true))
		return KSFT_FAIL;
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 0,
		      p->mr->lkey, (uintptr_t)p->buf + PLAIN, MSG),
		 IBV_WC_SUCCESS);
	CHECK(ct_holds(p, want));
	CHECK(memcmp(p->buf + CT1 + 256, p->buf + PLAIN + 512, 256));
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, self->mk[1]->rkey, 0, p->mr->lkey,
		      (uintptr_t)p->buf + OUT, MSG), IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + OUT, p->buf + PLAIN, MSG));
	memset(p->buf + OUT2, 0, UNIT);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, self->mk[1]->rkey, UNIT,
		      p->mr->lkey, (uintptr_t)p->buf + OUT2, UNIT),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + OUT2, p->buf + PLAIN + UNIT, UNIT));
	return KSFT_PASS;
}

/*
 * Ciphertext on the wire (encrypt_on_tx): A SENDs two units of plaintext
 * through its crypto lkey; B receives them in its plain MR as
 * ciphertext.  Sent again into B's crypto mkey (also ciphertext on the
 * wire, the same DEK and tweak), they land as plaintext.
 */
MT_TEST_F(ctr, send_wire_encrypted)
{
	struct pair *p = &self->p;
	uint8_t want[MSG];
	int rst;

	if (!config_a(self) || !config_b(self, true))
		return KSFT_FAIL;
	fill(p->buf + PLAIN, MSG, 29);
	if (!xts_ref(p->buf + PLAIN, want, 2, true))
		return KSFT_FAIL;
	CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, MSG, p->mr->lkey,
			   (uintptr_t)p->buf + OUT, &rst), IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + OUT, want, MSG));
	CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, MSG, self->mk[1]->lkey,
			   0, &rst), IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(ct_holds(p, p->buf + PLAIN));
	/* the reference decrypts what B first got back to A's bytes */
	if (xts_ref(p->buf + OUT, want, 2, false))
		CHECK(!memcmp(want, p->buf + PLAIN, MSG));
	return KSFT_PASS;
}

/*
 * mlx5dv_create_mkey(3): until it is configured, traffic through a
 * crypto mkey fails with an error CQE; A's SEND through it is a local
 * protection error.
 */
MT_TEST_F(ctr, unconfigured)
{
	struct pair *p = &self->p;
	int rst;

	CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, UNIT, p->mr->lkey,
			   (uintptr_t)p->buf + OUT, &rst),
		 IBV_WC_LOC_PROT_ERR);
	return KSFT_PASS;
}

/*
 * Units are ciphered whole: part 0 a SEND of 100 bytes through A's
 * crypto lkey is a local protection error; part 1 an RDMA WRITE of a
 * unit's size from the middle of B's first unit is a remote access
 * error, and nothing lands.
 */
MT_TEST_F_PARTS(ctr, partial_unit)
{
	struct pair *p = &self->p;
	int rst;

	if (!config_a(self) || !config_b(self, false))
		return KSFT_FAIL;
	if (!i) {
		CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, 100, p->mr->lkey,
				   (uintptr_t)p->buf + OUT, &rst),
			 IBV_WC_LOC_PROT_ERR);
		return KSFT_PASS;
	}
	fill(p->buf + OUT2, UNIT, 3);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, self->mk[1]->rkey, 256,
		      p->mr->lkey, (uintptr_t)p->buf + OUT2, UNIT),
		 IBV_WC_REM_ACCESS_ERR);
	CHECK(!memchr_inv0(p->buf + CT0, 256) &&
	      !memchr_inv0(p->buf + CT1, MSG - 256));
	return KSFT_PASS;
}

/*
 * The other data unit sizes, one a part: 520 bytes (not a multiple of
 * the AES block: XTS steals ciphertext for the last one), 4048 and 4096;
 * two units of A's plaintext sent through its crypto lkey arrive as
 * their ciphertext.
 */
MT_TEST_F_PARTS(ctr, unit_sizes)
{
	static const struct {
		enum mlx5dv_block_size bs;
		unsigned int unit;
	} sz[] = {
		{ MLX5DV_BLOCK_SIZE_520, 520 },
		{ MLX5DV_BLOCK_SIZE_4048, 4048 },
		{ MLX5DV_BLOCK_SIZE_4096, 4096 },
	};
	struct pair *p = &self->p;
	uint32_t len = 2 * sz[i].unit;
	struct ibv_sge sge = { (uintptr_t)p->buf + BIG_SRC, len,
			       p->mr->lkey };
	int st, rst;

	if (!CHECK_ERR(configure_bs(p, 0, self->mk[0], &sge, 1,
				    IBV_ACCESS_LOCAL_WRITE, self->dek, true,
				    sz[i].bs, &st), 0) ||
	    !CHECK_EQ(st, IBV_WC_SUCCESS))
		return KSFT_FAIL;
	fill(p->buf + BIG_SRC, len, 50 + i);
	if (!xts_units(p->buf + BIG_SRC, p->buf + BIG_WANT, 2, sz[i].unit,
		       true))
		return KSFT_FAIL;
	CHECK_EQ(send_recv(p, self->mk[0]->lkey, 0, len, p->mr->lkey,
			   (uintptr_t)p->buf + BIG_DST, &rst), IBV_WC_SUCCESS);
	CHECK_EQ(rst, IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + BIG_DST, p->buf + BIG_WANT, len));
	return KSFT_PASS;
}

/* A child as nobody configures a crypto mkey of its own with @arg's DEK. */
static int foreign_dek(void *arg)
{
	struct ctr other = { .child = true };
	struct ibv_sge sge;
	int st, rc;

	rc = ctr_open(&other);
	if (rc == KSFT_PASS) {
		sge = (struct ibv_sge){ (uintptr_t)other.p.buf, MSG,
					other.p.mr->lkey };
		if (CHECK_ERR(configure(&other.p, 0, other.mk[0], &sge, 1,
					IBV_ACCESS_LOCAL_WRITE, arg, true,
					&st), 0))
			CHECK_EQ(st, IBV_WC_MW_BIND_ERR);
	}
	ctr_teardown(&other);
	return rc;
}

/*
 * The DEK a crypto BSF names is the QP's context's own, on the mkey's
 * PD, or the configure completes with MW_BIND_ERR and the mkey stays
 * unconfigured: part 0 a DEK on another PD; part 1 a DEK of a second
 * context of this process; part 2 this context's DEK, named from a
 * context of another user (nobody).
 */
MT_TEST_F_PARTS(ctr, foreign_deks)
{
	struct pair *p = &self->p;
	struct ibv_pd *pd;
	struct ibv_sge sge = { (uintptr_t)p->buf + PLAIN, MSG, p->mr->lkey };
	int st;

	switch (i) {
	case 0:
		self->pd2 = ibv_alloc_pd(p->c.ctx);
		if (!CHECK(self->pd2))
			return KSFT_FAIL;
		self->dek2 = dek_on(p->c.ctx, self->pd2);
		break;
	case 1:
		if (!mt_ctx_open(&self->c2, MT_OPEN_DEFAULT))
			return KSFT_FAIL;
		pd = ibv_alloc_pd(self->c2.ctx);
		if (!CHECK(pd))
			return KSFT_FAIL;
		self->pd2 = pd;
		self->dek2 = dek_on(self->c2.ctx, pd);
		break;
	default:
		CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, foreign_dek, self->dek),
			 KSFT_PASS);
		return KSFT_PASS;
	}
	if (!CHECK(self->dek2) ||
	    !CHECK_ERR(configure(p, 0, self->mk[0], &sge, 1,
				 IBV_ACCESS_LOCAL_WRITE, self->dek2, true,
				 &st), 0))
		return KSFT_FAIL;
	CHECK_EQ(st, IBV_WC_MW_BIND_ERR);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(ctr, write_read_memory_encrypted, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(ctr, send_wire_encrypted, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(ctr, unconfigured, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(ctr, partial_unit, 2, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(ctr, unit_sizes, 3, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(ctr, foreign_deks, 3, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
