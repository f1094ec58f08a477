// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz's UMR traffic (mlx5x_fuzz_umr.c): the work requests that
 * give the worker's indirect mkeys their layout.
 *
 * - through libmlx5: mlx5dv_wr_mkey_configure() with its setters
 *   (access flags, a KLM list or an interleaved layout, a signature
 *   block of random domains, tags, masks and block sizes, AES-XTS with
 *   one of the worker's DEKs), the older mlx5dv_wr_mr_list() and
 *   mlx5dv_wr_mr_interleaved(), and LOCAL_INV; mostly well formed, their
 *   entries naming the pair's MRs inside, at and past their ends, the
 *   MR the pair may only read, the guards (no right to write, another
 *   context), the worker's other MRs, its mkeys (nesting, and loops: an
 *   mkey naming itself or one that names it), keys destroyed, any key;
 *   more entries than max_entries now and then;
 * - by hand: a UMR WQE libmlx5 wrote (the template), written into the
 *   ring of a QP of its own with one field mutated (a word of the UMR
 *   control segment, the mkey context, the KLMs or the BSF: a bit
 *   flipped, any value, 0, all ones, one more or less), which the device
 *   must complete, in error or not.
 */
#define _GNU_SOURCE
#include "mlx5x_fuzz_umr.h"

#define U	umr

/* A length at and around the edges of @room bytes. */
uint32_t umr_len(uint32_t room)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return room + 1 + below(64);
	case 2:
		return rnd();
	case 3:
		return room;
	default:
		return 1 + below(room ? room : 1);
	}
}

/**
 * umr_entry() - one entry of a layout (or an SGE of traffic)
 * @s: its key, address and length
 *
 * Mostly inside the pair's MR of every access; at and past its ends;
 * the MR the pair may only read; a guard; another MR of the worker; one
 * of its mkeys (whose address space starts at 0); a key destroyed; any.
 */
void umr_entry(struct ibv_sge *s)
{
	uint64_t base = (uintptr_t)U.area + UMR_SLACK;
	struct mlx5dv_mkey *mk = U.mk[below(UMR_MKEYS)];
	struct ibv_mr *mr = U.mr;
	struct fz_guard *g;
	uint32_t off;

	if (U.good) {	/* a piece of the MR of every access */
		s->lkey = mr->lkey;
		off = below(UMR_MR_LEN - 1);
		s->addr = base + off;
		s->length = 1 + below(UMR_MR_LEN - off < 512 ?
				      UMR_MR_LEN - off : 512);
		return;
	}
	switch (below(16)) {
	case 8:
		mr = U.ro;
		base += UMR_HALF;
		break;
	case 9:
	case 10:
		if (!mk)
			break;
		s->lkey = mk->lkey;
		s->addr = below(4) ? 0 : below(4096);
		s->length = umr_len(1024);
		return;
	case 11:
		g = &M.guard[below(2)];
		if (!g->mr)
			break;
		s->lkey = g->mr->lkey;
		s->addr = (uintptr_t)g->base + below(g->len);
		s->length = umr_len(g->len - (s->addr - (uintptr_t)g->base));
		return;
	case 12:
		mr = M.nmrs ? M.mrs[below(M.nmrs)] : M.work.mr;
		if (!mr)
			mr = U.mr;
		base = (uintptr_t)mr->addr;
		break;
	case 13:
		s->lkey = below(2) ? U.stale[below(UMR_STALE)] : rnd();
		s->addr = below(2) ? base : rnd();
		s->length = umr_len(64);
		return;
	case 14:	/* at the MR's end, or one byte past it */
		s->lkey = mr->lkey;
		s->length = 1 + below(64);
		s->addr = base + UMR_MR_LEN - s->length + below(2);
		return;
	default:
		break;
	}
	s->lkey = mr->lkey;
	off = below(mr == U.mr || mr == U.ro ? UMR_MR_LEN : mr->length);
	s->addr = below(16) ? base + off : base - 1 - below(64);
	s->length = umr_len((mr == U.mr || mr == U.ro ? UMR_MR_LEN :
			     mr->length) - off);
}

/* Access flags: mostly every right, else a random subset, now and then any. */
static uint32_t umr_access(void)
{
	if (U.good || below(2))
		return ALL_ACCESS;
	return below(8) ? rnd() & ALL_ACCESS : (uint32_t)rnd();
}

/*
 * @n entries of a layout, as a list (@sge) and interleaved (@il); the
 * length of the list, and of one repetition of the interleaved layout,
 * in lay_len[].
 */
static __thread uint64_t lay_len[2];

static void umr_layout(struct mlx5dv_mr_interleaved *il, struct ibv_sge *sge,
		       unsigned int n)
{
	unsigned int i;

	lay_len[0] = lay_len[1] = 0;
	for (i = 0; i < n; i++) {
		umr_entry(&sge[i]);
		if (below(2) && sge[i].length > 512)
			sge[i].length = 1 + below(512);
		il[i] = (struct mlx5dv_mr_interleaved){
			.addr = sge[i].addr, .bytes_count = sge[i].length,
			.bytes_skip = U.good || below(2) ? 0 : below(8) ?
				      below(256) : (uint32_t)rnd(),
			.lkey = sge[i].lkey,
		};
		lay_len[0] += sge[i].length;
		lay_len[1] += sge[i].length;
	}
}

/* A repeat count: a few mostly, any now and then. */
static uint32_t umr_repeat(void)
{
	return U.good || below(4) ? 1 + below(4) : (uint32_t)rnd();
}

/* A signature domain: T10-DIF or CRC of random fields. */
static void umr_domain(struct mlx5dv_sig_block_domain *d,
		       struct mlx5dv_sig_t10dif *dif, struct mlx5dv_sig_crc *crc)
{
	memset(d, 0, sizeof(*d));
	*dif = (struct mlx5dv_sig_t10dif){
		.bg_type = U.good || below(8) ? below(2) : rnd() % 4,
		.bg = rnd(), .app_tag = rnd(), .ref_tag = rnd(),
		.flags = U.good || below(2) ? 0 : below(4) ? rnd() & 7 : rnd(),
	};
	*crc = (struct mlx5dv_sig_crc){
		.type = U.good || below(8) ? below(3) : rnd() % 5,
		.seed = below(2) ? 0 : below(2) ? ~0ULL : rnd(),
	};
	d->sig_type = U.good || below(8) ? below(2) : rnd() % 4;
	if (d->sig_type == MLX5DV_SIG_TYPE_CRC)
		d->sig.crc = crc;
	else
		d->sig.dif = dif;
	d->block_size = U.good || below(8) ? below(5) : rnd() % 8;
	d->comp_mask = U.good || below(16) ? 0 : rnd();
}

/* The worker's DEK in a random slot, or NULL. */
static struct mlx5dv_dek *umr_dek(void)
{
	return U.dek[below(UMR_DEKS)];
}

/* The setters umr_setters() calls, bit by bit. */
enum { SET_ACCESS = 1, SET_LAYOUT = 2, SET_SIG = 4, SET_CRYPTO = 8 };

/* the DEK of the crypto setter umr_plan() planned */
static __thread struct mlx5dv_dek *plan_dek;

/* Which setters mkey @mi is configured with: mostly what its flags want. */
static unsigned int umr_plan(unsigned int mi)
{
	uint32_t f = U.mk_flags[mi];
	unsigned int plan = 0;

	if (U.good || below(4))
		plan |= SET_ACCESS;
	if (U.good || below(8))
		plan |= SET_LAYOUT;
	if ((f & MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE) ? below(4) :
	    !below(16))
		plan |= SET_SIG;
	plan_dek = umr_dek();
	if (plan_dek && ((f & MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO) ?
			 below(4) : !below(16)))
		plan |= SET_CRYPTO;
	return plan ? plan : SET_ACCESS;
}

/*
 * The setters of @plan on @dx for mkey @mi: access, a layout of @k
 * entries, a signature block, crypto.
 */
static void umr_setters(struct mlx5dv_qp_ex *dx, unsigned int plan,
			unsigned int k)
{
	static __thread struct ibv_sge sge[UMR_ENTRIES + 4];
	static __thread struct mlx5dv_mr_interleaved il[UMR_ENTRIES + 4];
	struct mlx5dv_sig_block_domain mem, wire;
	struct mlx5dv_sig_t10dif dif[2];
	struct mlx5dv_sig_crc crc[2];
	struct mlx5dv_sig_block_attr sa = {};
	struct mlx5dv_crypto_attr ca = {};
	bool blocks;
	uint32_t r;

	if (plan & SET_ACCESS)
		mlx5dv_wr_set_mkey_access_flags(dx, umr_access());
	/*
	 * Good and with blocks (signature, crypto): one entry of whole
	 * 512-byte blocks, the traffic through it whole blocks too.
	 */
	blocks = U.good && (plan & (SET_SIG | SET_CRYPTO));
	U.pend_blk = blocks ? 512 : 0;
	if ((plan & SET_LAYOUT) && blocks) {
		sge[0].lkey = U.mr->lkey;
		sge[0].length = 512 * (1 + below(4));
		sge[0].addr = (uintptr_t)U.mr->addr +
			      below(UMR_MR_LEN - sge[0].length + 1);
		mlx5dv_wr_set_mkey_layout_list(dx, 1, sge);
		U.pend_len = sge[0].length;
	} else if (plan & SET_LAYOUT) {
		umr_layout(il, sge, k);
		if (below(3)) {
			mlx5dv_wr_set_mkey_layout_list(dx, k, sge);
			U.pend_len = lay_len[0];
		} else {
			r = umr_repeat();
			mlx5dv_wr_set_mkey_layout_interleaved(dx, r, k, il);
			U.pend_len = lay_len[1] * r;
		}
	}
	if (plan & SET_SIG) {
		umr_domain(&mem, &dif[0], &crc[0]);
		umr_domain(&wire, &dif[1], &crc[1]);
		if (blocks)
			mem.block_size = wire.block_size = MLX5DV_BLOCK_SIZE_512;
		sa.mem = below(blocks ? 2 : 4) ? &mem : NULL;
		sa.wire = (blocks ? !sa.mem : below(4)) || !sa.mem ? &wire :
			  NULL;
		sa.flags = U.good || below(4) ? 0 : below(2) ?
			   MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK : rnd();
		sa.check_mask = U.good || below(4) ? 0xff : rnd();
		sa.copy_mask = rnd();
		sa.comp_mask = U.good || below(16) ? 0 : rnd();
		mlx5dv_wr_set_mkey_sig_block(dx, &sa);
	}
	ca.dek = plan_dek;
	if (plan & SET_CRYPTO) {
		ca.crypto_standard = U.good || below(16) ? 0 : rnd() % 3;
		ca.encrypt_on_tx = below(2);
		ca.signature_crypto_order = U.good || below(8) ? below(2) :
					    rnd() % 4;
		ca.data_unit_size = blocks ? MLX5DV_BLOCK_SIZE_512 :
				    U.good || below(8) ? below(5) : rnd() % 8;
		fill((uint8_t *)ca.initial_tweak, sizeof(ca.initial_tweak));
		fill((uint8_t *)ca.keytag, sizeof(ca.keytag));
		ca.comp_mask = U.good || below(16) ? 0 : rnd();
		mlx5dv_wr_set_mkey_crypto(dx, &ca);
	}
}

/*
 * Whether a UMR WQE with BSFs, of up to @k entries, posted on @q at
 * counter @from, ends before the ring does: control, UMR control and
 * mkey context (128 bytes), the entries and their header, two BSFs.
 */
static bool umr_bsf_fits(const struct fz_umr_qp *q, uint32_t from,
			 unsigned int k)
{
	uint32_t room = (q->bbs - (from & (q->bbs - 1))) * BB;

	return q->bbs && 128 + ((16 * (k + 1) + BB - 1) & ~(BB - 1)) + 128 <=
			 room;
}

/*
 * Whether libmlx5 44 may be given this configure WR of mkey flags @f.  It
 * writes BSFs when the signature setter runs, the crypto setter runs, or
 * the WR resets the signature (crypto_umr_wqe_finalize(),
 * umr_wqe_finalize()); and then
 * - a BSF that would start past the ring's end goes before the ring's
 *   start (qend - seg + the ring), outside its buffer;
 * - a crypto mkey's crypto BSF is written again, naming the DEK of the
 *   last crypto setter, read through whether destroyed or not.
 * Its bug and its rule, which the fuzzer keeps clear of: such a WR only
 * where it ends before the ring does, and on a crypto mkey only with a
 * crypto setter (naming a DEK that exists).
 */
static bool umr_bsf_safe(const struct fz_umr_qp *q, uint32_t from,
			 unsigned int k, unsigned int plan,
			 const struct mlx5dv_mkey_conf_attr *ca, uint32_t f)
{
	if (!(plan & (SET_SIG | SET_CRYPTO)) &&
	    !(ca->conf_flags & MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR))
		return true;
	if ((f & MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO) && !(plan & SET_CRYPTO))
		return false;
	return umr_bsf_fits(q, from, k);
}

/* Keep the WQE libmlx5 just wrote on @q between counters @from and @to. */
static void umr_keep(const struct fz_umr_qp *q, uint32_t from, uint32_t to)
{
	uint32_t bbs = (to - from) & 0xffff, i;

	if (!q->ring || !bbs || bbs > WQE_MAX / BB || bbs > q->bbs)
		return;
	for (i = 0; i < bbs; i++)
		memcpy(U.tmpl + i * BB,
		       q->ring + ((from + i) & (q->bbs - 1)) * BB, BB);
	U.tlen = bbs * BB;
}

/**
 * umr_configure() - a WR that configures mkey @mi, posted on QP @qi
 * @qi: 0 or 1
 * @mi: the mkey's slot (an mkey exists there)
 *
 * mlx5dv_wr_mkey_configure() and its setters, mlx5dv_wr_mr_list(),
 * mlx5dv_wr_mr_interleaved()
 * or LOCAL_INV; signaled.  A UMR WQE libmlx5 posted becomes the template.
 */
void umr_configure(unsigned int qi, unsigned int mi)
{
	static __thread struct ibv_sge sge[UMR_ENTRIES + 4];
	static __thread struct mlx5dv_mr_interleaved il[UMR_ENTRIES + 4];
	struct fz_umr_qp *q = &U.q[qi];
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(q->qp);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);
	struct mlx5dv_mkey_conf_attr ca = {
		.conf_flags = U.good || below(4) ? 0 : below(2) ?
			      MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR : rnd(),
		.comp_mask = U.good || below(16) ? 0 : rnd(),
	};
	struct mlx5dv_mkey *mk = U.mk[mi];
	unsigned int kind = below(8), k, plan;
	uint32_t r;
	uint32_t from = be32toh(q->dbr[1]) & 0xffff;
	int err;

	/* not in RTS: nothing would complete; a torn mkey: see umr_mkey() */
	if (!U.ready || U.mk_torn[mi])
		return;
	k = U.good || below(4) ? 1 + below(U.mk_ent[mi]) :
	    below(UMR_ENTRIES + 4);
	if (k > UMR_ENTRIES + 4)
		k = UMR_ENTRIES + 4;
	U.pend_len = 0;
	U.pend_blk = 0;
	ibv_wr_start(qx);
	qx->wr_id = ++M.wr_id & ~(MARK | UMR_RECV);	/* not 0: pend_id */
	qx->wr_flags = IBV_SEND_SIGNALED | (below(8) ? IBV_SEND_INLINE : 0);
	switch (kind) {
	case 0:
		umr_layout(il, sge, k);
		mlx5dv_wr_mr_list(dx, mk, umr_access(), k, sge);
		U.pend_len = lay_len[0];
		break;
	case 1:
		umr_layout(il, sge, k);
		r = umr_repeat();
		mlx5dv_wr_mr_interleaved(dx, mk, umr_access(), r, k, il);
		U.pend_len = lay_len[1] * r;
		break;
	case 2:
		ibv_wr_local_inv(qx, below(8) ? mk->rkey : mk->rkey ^ 1);
		break;
	default:
		/*
		 * Exactly the setters it is told of: libmlx5 writes the WQE
		 * at the last one, so with fewer (or none) it posts nothing
		 * and ibv_wr_complete() still succeeds.
		 */
		plan = umr_plan(mi);
		if (!umr_bsf_safe(q, from, k, plan, &ca, U.mk_flags[mi])) {
			plan = (plan & ~(SET_SIG | SET_CRYPTO)) ?: SET_ACCESS;
			ca.conf_flags &= ~MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR;
		}
		mlx5dv_wr_mkey_configure(dx, mk, __builtin_popcount(plan),
					 &ca);
		umr_setters(dx, plan, k);
		break;
	}
	cov_start();
	err = ibv_wr_complete(qx);
	errno = err;
	ran(!err);
	stat_add(FZ_UMR_WRS, 1);
	note("umr: qp %#x configures mkey %#x (kind %u, %u entries): %s",
	     q->qp->qp_num, mk->lkey, kind, k, err ? strerror(err) : "posted");
	if (err)
		return;
	U.sends++;
	U.pend_id = qx->wr_id;
	U.pend_mk = mi;
	if (kind != 2)
		umr_keep(q, from, be32toh(q->dbr[1]) & 0xffff);
}

/* One word of the template, mutated: not its index, QPN nor fm_ce_se. */
static void umr_mutate(uint8_t *b, unsigned int ds)
{
	unsigned int words = ds * SEG / 4, k;
	uint32_t v;

	if (words <= 4)
		return;
	k = below(16) ? 4 + below(words - 4) : below(2) ? 3 : 1;
	memcpy(&v, b + 4 * k, 4);
	v = be32toh(v);
	switch (below(6)) {
	case 0:
		v = rnd();
		break;
	case 1:
		v = 0;
		break;
	case 2:
		v = ~0U;
		break;
	case 3:
		v += below(2) ? 1 : -1;
		break;
	default:
		v ^= 1U << below(32);
		break;
	}
	if (k == 1)	/* the size: keep the QPN */
		v = (be32toh(*(uint32_t *)(b + 4)) & ~0x3fU) | (v & 0x3f);
	put32(b + 4 * k, v);
}

/**
 * umr_hand() - the template, one field mutated, by hand on the hand QP
 *
 * Its index and QPN made the QP's, a CQE asked for; then the record.
 */
void umr_hand(void)
{
	static __thread uint8_t wqe[WQE_MAX];
	unsigned int ds;

	if (!U.hready || !U.tlen || !U.hsq.ring || !U.hsq.dbr)
		return;
	memset(wqe, 0, sizeof(wqe));
	memcpy(wqe, U.tmpl, U.tlen);
	ds = wqe[7] & 0x3f;
	if (!ds || ds * SEG > U.tlen)
		return;
	put32(wqe, (U.hsq.pi & 0xffff) << 8 | wqe[3]);
	put32(wqe + 4, U.hqp->qp_num << 8 | ds);
	wqe[11] |= CQ_UPDATE;
	umr_mutate(wqe, ds);
	note("umr: by hand on qp %#x: %08x %08x %08x %08x", U.hqp->qp_num,
	     be32toh(*(uint32_t *)wqe), be32toh(*(uint32_t *)(wqe + 4)),
	     be32toh(*(uint32_t *)(wqe + 16)), be32toh(*(uint32_t *)(wqe + 28)));
	sq_put(&U.hsq, wqe, wqe[7] & 0x3f);
	__atomic_store_n(&U.hsq.dbr[1], htobe32(U.hsq.pi & 0xffff),
			 __ATOMIC_RELEASE);
	U.hout++;
	stat_add(FZ_UMR_HAND, 1);
	umr_wait_hand();
}
