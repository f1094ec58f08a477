// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: UMR, signature and crypto mkeys, as an unprivileged
 * process uses them (mlx5dv_create_mkey(3), mlx5dv_wr_mkey_configure(3),
 * mlx5dv_dek_create(3)).
 *
 * Each worker keeps a pair of RC QPs made with mlx5dv_create_qp() for
 * MKEY_CONFIGURE, MR_LIST and MR_INTERLEAVED (now and then with
 * SIG_PIPELINING), connected to each other on one CQ; indirect mkeys of
 * random flags (BLOCK_SIGNATURE, CRYPTO, UPDATE_TAG, REMOTE_INVALIDATE,
 * now and then any) and max_entries; DEKs of random key sizes,
 * purposes and keys, made, destroyed (also under an mkey configured with
 * them) in whatever crypto mode and login state the device is (the op
 * moves fw/crypto now and then, when it may, and logs in and out with
 * random credentials); and its memory: an MR of every access and one
 * the pair may only read, each over one half of a fenced area but for
 * UMR_SLACK bytes at either end.  The mkeys are configured by the WRs
 * of mlx5x_fuzz_umr_wr.c, and traffic runs through them: RDMA WRITE,
 * READ and SEND of one to three SGEs, through the mkeys as lkeys and
 * rkeys (their address space starts at 0, offsets at and past their
 * ends) or any key umr_entry() picks, a receive posted on the peer for
 * each SEND through the same.
 *
 * Checks of the model:
 * - every WR completes, in error or not: the pair's signaled WRs within
 *   UMR_WAIT_MS; after an error both QPs are moved to ERR and their
 *   receives must all be flushed within UMR_WAIT_MS too, then the pair
 *   is connected again; a WQE written by hand completes within
 *   UMR_WAIT_MS (else FZ_UMR_STUCK: a finding);
 * - no byte of the area outside the MR of every access changes, whatever
 *   an mkey was configured with (the slack beside the MRs, on the same
 *   pinned pages, and the read-only MR); the guards of mlx5x_fuzz_rc.c
 *   too (FZ_GUARD_WRITTEN);
 * - and, as everywhere, the kernel log stays clean (guest-fuzz.sh).
 * The traffic's doorbells trap, so the data path runs within the posting
 * call (ibv_wr_complete()): KCOV sees what that call executed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include "mlx5x_fuzz_umr.h"

#define U	umr

__thread struct fz_umr umr;

/* Remember a key destroyed, for entries to name. */
static void umr_stale(uint32_t key)
{
	U.stale[below(UMR_STALE)] = key;
}

static struct ibv_qp *umr_qp_new(struct ibv_cq *cq)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 32, .max_recv_wr = 16,
			 .max_send_sge = 4, .max_recv_sge = 4,
			 .max_inline_data = 256 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = M.pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND |
				  IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_RDMA_READ |
				  IBV_QP_EX_WITH_LOCAL_INV,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		.send_ops_flags = MLX5DV_QP_EX_WITH_MKEY_CONFIGURE |
				  MLX5DV_QP_EX_WITH_MR_LIST |
				  MLX5DV_QP_EX_WITH_MR_INTERLEAVED,
	};
	struct ibv_qp *qp;

	if (!below(4)) {
		dv.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS;
		dv.create_flags = MLX5DV_QP_CREATE_SIG_PIPELINING;
	}
	cov_start();
	qp = mlx5dv_create_qp(w.ctx, &a, &dv);
	ran(qp != NULL);
	return qp;
}

/* The QP in slot @i of the pair, its ring as libmlx5 writes it. */
static bool umr_pair_qp(unsigned int i)
{
	struct mlx5dv_qp dq = {};
	struct mlx5dv_obj o = { .qp = { .out = &dq } };
	struct fz_umr_qp *q = &U.q[i];

	q->qp = umr_qp_new(U.cq);
	if (!q->qp)
		return false;
	o.qp.in = q->qp;
	if (mlx5dv_init_obj(&o, MLX5DV_OBJ_QP))
		return true;	/* no template from it */
	q->ring = dq.sq.wqe_cnt ? dq.sq.buf : NULL;
	q->bbs = dq.sq.wqe_cnt;
	q->dbr = (uint32_t *)dq.dbrec;
	return true;
}

static void umr_connect(void)
{
	U.failed = false;
	U.sends = U.recvs = 0;
	/* a few RNR retries: a SEND without its receive fails, not waits */
	U.ready = rc_plain_connect(w.ctx, U.q[0].qp, U.q[1].qp->qp_num,
				   ALL_ACCESS, 3) &&
		  rc_plain_connect(w.ctx, U.q[1].qp, U.q[0].qp->qp_num,
				   ALL_ACCESS, 3);
}

/* The hand QP, connected to itself, its CQ and ring for the hand writer. */
static void umr_hand_qp(void)
{
	struct mlx5dv_qp dq = {};
	struct mlx5dv_cq dc = {};
	struct mlx5dv_obj o = { .qp = { .out = &dq } };
	struct fz_queue rq;

	cov_start();
	U.hcq = ibv_create_cq(w.ctx, 64, NULL, NULL, 0);
	ran(U.hcq != NULL);
	if (!U.hcq)
		return;
	U.hqp = umr_qp_new(U.hcq);
	o.qp.in = U.hqp;
	o.cq.in = U.hcq;
	o.cq.out = &dc;
	if (!U.hqp || mlx5dv_init_obj(&o, MLX5DV_OBJ_QP | MLX5DV_OBJ_CQ))
		return;
	qp_rings(&dq, U.hqp->qp_num, &U.hsq, &rq);
	cq_ring(&dc, &U.hcqv);
	U.hout = 0;
	U.hready = rc_plain_connect(w.ctx, U.hqp, U.hqp->qp_num, ALL_ACCESS,
				    7);
}

/* The area, filled with its pattern, fenced, and the two MRs over it. */
static bool umr_memory(void)
{
	if (!U.area) {
		U.seed = rnd();
		U.area = fenced_map(UMR_AREA, U.seed);
		if (!U.area)
			return false;
	}
	if (!U.mr) {
		cov_start();
		U.mr = ibv_reg_mr(M.pd, U.area + UMR_SLACK, UMR_MR_LEN,
				  ALL_ACCESS);
		ran(U.mr != NULL);
	}
	if (!U.ro) {
		cov_start();
		U.ro = ibv_reg_mr(M.pd, U.area + UMR_HALF + UMR_SLACK,
				  UMR_MR_LEN, IBV_ACCESS_REMOTE_READ);
		ran(U.ro != NULL);
	}
	return U.mr && U.ro;
}

/* What the op needs, one piece a call: false until all is there. */
static bool umr_setup(void)
{
	if (!umr_memory())
		return false;
	if (!U.cq) {
		cov_start();
		U.cq = ibv_create_cq(w.ctx, 128, NULL, NULL, 0);
		ran(U.cq != NULL);
		return false;
	}
	if (!U.q[0].qp || !U.q[1].qp) {
		if ((U.q[0].qp || umr_pair_qp(0)) && umr_pair_qp(1))
			umr_connect();
		return false;
	}
	if (!U.hqp && !U.hcq) {
		umr_hand_qp();
		return false;
	}
	if (!M.guard[0].mr || !M.guard[1].mr)
		guard_make(below(2));
	return true;
}

/* An mkey in slot @i made, or the one there destroyed. */
static void umr_mkey(unsigned int i)
{
	static const uint32_t more[] = {
		0, 0, MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE,
		MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO,
		MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE |
		MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO,
		MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG,
		MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE,
	};
	struct mlx5dv_mkey_init_attr a = {
		.pd = M.pd,
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				more[below(MT_ARRAY_SIZE(more))],
		.max_entries = below(4) ? 1 + below(4) : below(8) ?
			       1 + below(UMR_ENTRIES) : rnd(),
	};

	if (U.mk[i]) {
		umr_stale(U.mk[i]->lkey);
		cov_start();
		ran(!mlx5dv_destroy_mkey(U.mk[i]));
		note("umr: mkey %#x destroyed (%s)", U.mk[i]->lkey,
		     w.ok ? "ok" : strerror(errno));
		/*
		 * A failed destroy may leave it half torn down: libmlx5 44
		 * destroys its PSVs one by one first, each forgotten once
		 * gone, and returns at the first step that fails, the
		 * signature context kept with a PSV pointer NULL, which a
		 * configure then reads through.
		 */
		if (w.ok) {
			U.mk[i] = NULL;
			U.mk_len[i] = 0;
		} else {
			U.mk_torn[i] = true;
		}
		return;
	}
	if (!below(16))
		a.create_flags = rnd() & 0x3f;
	cov_start();
	U.mk[i] = mlx5dv_create_mkey(&a);
	ran(U.mk[i] != NULL);
	if (!U.mk[i])
		return;
	U.mk_flags[i] = a.create_flags;
	U.mk_len[i] = 0;
	U.mk_torn[i] = false;
	U.mk_ent[i] = a.max_entries ? a.max_entries : 1;
	note("umr: mkey %#x, flags %#x, %u entries", U.mk[i]->lkey,
	     a.create_flags, a.max_entries);
}

/*
 * The device's crypto mode moved (fw/crypto, as root: refused while
 * crypto objects exist), plaintext mostly.
 */
static void umr_mode(void)
{
	static const char *const modes[] = {
		"none", "plaintext", "plaintext", "wrapped",
	};
	const char *mode = modes[below(MT_ARRAY_SIZE(modes))];
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5x/%s/fw/crypto",
		 ibv_get_device_name(w.ctx->device));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, mode, strlen(mode)) > 0)
		note("umr: crypto mode %s", mode);
	close(fd);
}

/* A DEK in slot @i made (random size, purpose, key), or destroyed. */
static void umr_dek_op(unsigned int i)
{
	struct mlx5dv_dek_init_attr a = {
		.key_size = below(8) ? below(2) : rnd() % 4,
		.has_keytag = !below(4),
		.key_purpose = below(8) ? 0 : rnd() % 3,
		.pd = M.pd,
		.comp_mask = below(2) ? MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN : 0,
	};
	struct mlx5dv_dek_attr qa = {};

	if (U.dek[i]) {
		cov_start();
		if (below(4)) {
			ran(!mlx5dv_dek_query(U.dek[i], &qa));
			return;
		}
		ran(!mlx5dv_dek_destroy(U.dek[i]));
		note("umr: dek destroyed (%s)", w.ok ? "ok" : strerror(errno));
		if (w.ok)
			U.dek[i] = NULL;
		return;
	}
	fill((uint8_t *)a.key, sizeof(a.key));
	fill((uint8_t *)a.opaque, sizeof(a.opaque));
	cov_start();
	U.dek[i] = mlx5dv_dek_create(w.ctx, &a);
	ran(U.dek[i] != NULL);
	note("umr: dek of size %d, purpose %d: %s", a.key_size, a.key_purpose,
	     U.dek[i] ? "made" : strerror(errno));
	if (!U.dek[i] && errno == EOPNOTSUPP && below(2))
		umr_mode();	/* no crypto: the device may get it */
}

/* The crypto mode moved, or a login or logout with random credentials. */
static void umr_login(void)
{
	struct mlx5dv_crypto_login_attr la = {
		.credential_id = below(4) ? 0 : rnd(),
		.import_kek_id = below(4) ? 0 : rnd(),
	};

	switch (below(4)) {
	case 0:
		umr_mode();
		break;
	case 1:
		cov_start();
		ran(!mlx5dv_crypto_logout(w.ctx));
		break;
	default:
		fill((uint8_t *)la.credential, sizeof(la.credential));
		cov_start();
		ran(!mlx5dv_crypto_login(w.ctx, &la));
		break;
	}
}

/* Poll the pair's CQ once: completions counted, errors noted. */
static unsigned int umr_poll(void)
{
	struct ibv_wc wc[16];
	int n, i;

	n = ibv_poll_cq(U.cq, MT_ARRAY_SIZE(wc), wc);
	for (i = 0; i < n; i++) {
		if (wc[i].wr_id == U.pend_id) {
			U.mk_len[U.pend_mk] = wc[i].status ? 0 : U.pend_len;
			U.mk_blk[U.pend_mk] = U.pend_blk;
		}
		if (wc[i].wr_id & UMR_RECV)
			U.recvs -= U.recvs > 0;
		else
			U.sends -= U.sends > 0;
		U.failed |= wc[i].status != IBV_WC_SUCCESS;
		stat_add(wc[i].status ? FZ_UMR_ERR : FZ_UMR_OK, 1);
		stat_add(FZ_UMR_WC + wc[i].status % 32, 1);
	}
	return n > 0 ? n : 0;
}

/* @qp's state as the kernel reports it, or -1 */
static int umr_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	return ibv_query_qp(qp, &a, IBV_QP_STATE, &ia) ? -1 :
	       (int)a.qp_state;
}

/*
 * Whether signature pipelining stopped a QP of the pair: after a
 * signature error, a QP made with MLX5DV_QP_CREATE_SIG_PIPELINING
 * executes no WQE with a fence (the mkey configure's) but goes to SQD
 * (mlx5dv_create_qp(3)), until the application moves it on.  If so both
 * go to ERR, which flushes what they hold.
 */
static bool umr_stopped(void)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	unsigned int i, sqd = 0;

	for (i = 0; i < 2; i++)
		sqd += umr_state(U.q[i].qp) == IBV_QPS_SQD;
	if (!sqd)
		return false;
	note("umr: a send queue stopped (SQD): both QPs to ERR");
	stat_add(FZ_UMR_SQD, 1);
	U.failed = true;
	for (i = 0; i < 2; i++)
		ibv_modify_qp(U.q[i].qp, &a, IBV_QP_STATE);
	return true;
}

/*
 * Poll until *@left is 0 or UMR_WAIT_MS pass (from a stop of signature
 * pipelining on, if there is one); a finding if it is not.
 */
static void umr_until(unsigned int *left, const char *what)
{
	long end = now_ms() + UMR_WAIT_MS, look = now_ms() + 100;

	while (*left && now_ms() < end) {
		if (umr_poll())
			continue;
		usleep(500);
		if (now_ms() < look)
			continue;
		look = now_ms() + 100;
		if (umr_stopped())
			end = now_ms() + UMR_WAIT_MS;
	}
	if (!*left || resilient)
		return;
	fprintf(stderr, "fuzz: FINDING: %u %s of the UMR pair did not complete in %d ms; QP %#x in state %d, QP %#x in state %d\n",
		*left, what, UMR_WAIT_MS, U.q[0].qp->qp_num,
		umr_state(U.q[0].qp), U.q[1].qp->qp_num,
		umr_state(U.q[1].qp));
	trace_dump();
	stat_add(FZ_UMR_STUCK, 1);
	*left = 0;
}

/*
 * Every signaled WR of the pair completes; after an error both QPs go
 * to ERR, every receive is flushed, and the pair is connected again.
 */
static void umr_wait(void)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

	if (!U.cq)
		return;
	umr_until(&U.sends, "send WRs");
	if (!U.failed)
		return;
	if (!ibv_modify_qp(U.q[0].qp, &a, IBV_QP_STATE) &&
	    !ibv_modify_qp(U.q[1].qp, &a, IBV_QP_STATE))
		umr_until(&U.recvs, "receives (flushed)");
	umr_connect();
}

/**
 * umr_wait_hand() - the hand QP's WQEs complete, in error or not
 *
 * Within UMR_WAIT_MS, or that is a finding.  After an error the QP is
 * reset (its counter and libmlx5's record start over) and connected.
 */
void umr_wait_hand(void)
{
	long end = now_ms() + UMR_WAIT_MS;
	unsigned int n;

	while (U.hout && now_ms() < end) {
		n = cq_take(&U.hcqv, false);
		U.hout -= n < U.hout ? n : U.hout;
		if (!n)
			usleep(500);
	}
	if (U.hout && !resilient) {
		fprintf(stderr, "fuzz: FINDING: a UMR WQE written by hand did not complete in %d ms\n",
			UMR_WAIT_MS);
		trace_dump();
		stat_add(FZ_UMR_STUCK, 1);
	}
	if (!U.hout && !U.hcqv.errs)
		return;
	U.hout = 0;
	U.hcqv.errs = 0;
	U.hsq.pi = 0;	/* RESET: libmlx5 cleared the record */
	U.hready = rc_plain_connect(w.ctx, U.hqp, U.hqp->qp_num, ALL_ACCESS,
				    7);
}

/*
 * One SGE of traffic: through an mkey mostly, else umr_entry()'s; in a
 * good op, inside the layout an mkey was given, if one was.
 */
static void umr_sge(struct ibv_sge *s, bool remote)
{
	unsigned int i = below(UMR_MKEYS), j;
	struct mlx5dv_mkey *mk = U.mk[i];
	uint64_t len;

	for (j = 0; U.good && j < UMR_MKEYS; j++, i = (i + 1) % UMR_MKEYS) {
		mk = U.mk[i];
		len = U.mk_len[i];
		if (!mk || !len || len > (1U << 30))
			continue;
		s->lkey = remote ? mk->rkey : mk->lkey;
		if (U.mk_blk[i] && len >= U.mk_blk[i]) {	/* whole blocks */
			s->addr = 0;
			s->length = U.mk_blk[i] *
				    (1 + below(len / U.mk_blk[i]));
			return;
		}
		s->addr = below(len);
		s->length = 1 + below(len - s->addr < 4096 ?
				      len - s->addr : 4096);
		return;
	}
	if (mk && !U.good && below(4)) {
		s->lkey = remote ? mk->rkey : mk->lkey;
		s->addr = below(4) ? below(64) : below(8192);
		s->length = below(4) ? 1 + below(256) : umr_len(4096);
		return;
	}
	umr_entry(s);
	if (remote && s->lkey == U.mr->lkey)
		s->lkey = U.mr->rkey;
	else if (remote && s->lkey == U.ro->lkey)
		s->lkey = U.ro->rkey;
}

/* A receive on QP @qi through one or two SGEs; false if refused. */
static bool umr_recv(unsigned int qi)
{
	struct ibv_sge s[2];
	struct ibv_recv_wr wr = {
		.wr_id = UMR_RECV | (++M.wr_id & 0xffffffff), .sg_list = s,
		.num_sge = 1 + below(2),
	}, *bad;

	if (U.recvs >= 12)
		return false;
	umr_sge(&s[0], false);
	umr_sge(&s[1], false);
	if (ibv_post_recv(U.q[qi].qp, &wr, &bad))
		return false;
	U.recvs++;
	return true;
}

/* 1..4 signaled WRs of traffic through the mkeys, on QP @qi. */
static void umr_traffic(unsigned int qi)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(U.q[qi].qp);
	struct ibv_sge s[MAX_WRS][3], r;
	unsigned int n = 1 + below(4), i, k;
	int err;

	if (!U.ready)	/* not in RTS: nothing would complete */
		return;
	ibv_wr_start(qx);
	for (i = 0; i < n; i++) {
		qx->wr_id = ++M.wr_id & ~(MARK | UMR_RECV);
		qx->wr_flags = IBV_SEND_SIGNALED;
		k = 1 + below(3);
		umr_sge(&r, true);
		switch (below(3)) {
		case 0:
			if (umr_recv(!qi)) {
				ibv_wr_send(qx);
				break;
			}
			/* fall through */
		case 1:
			ibv_wr_rdma_write(qx, r.lkey, r.addr);
			break;
		default:
			ibv_wr_rdma_read(qx, r.lkey, r.addr);
			break;
		}
		umr_sge(&s[i][0], false);
		umr_sge(&s[i][1], false);
		umr_sge(&s[i][2], false);
		ibv_wr_set_sge_list(qx, k, s[i]);
	}
	cov_start();
	err = ibv_wr_complete(qx);
	errno = err;
	ran(!err);
	note("umr: qp %#x: %u WRs of traffic: %s", U.q[qi].qp->qp_num, n,
	     err ? strerror(err) : "posted");
	if (err)
		return;
	U.sends += n;
	stat_add(FZ_UMR_TRAFFIC, n);
}

/* No byte of the area outside the MR of every access has changed. */
static void umr_check(void)
{
	size_t k, bad = 0, first = 0;

	if (!U.area)
		return;
	for (k = 0; k < UMR_AREA; k++) {
		if (k == UMR_SLACK)
			k += UMR_MR_LEN;
		if (U.area[k] != gpattern(U.seed, k) && !bad++)
			first = k;
	}
	stat_add(FZ_GUARD_CHECKS, 1);
	if (!bad)
		return;
	fprintf(stderr, "fuzz: FINDING: the UMR area changed outside its MR: %zu bytes, the first at offset %#zx (%#x, not %#x)\n",
		bad, first, U.area[first], gpattern(U.seed, first));
	trace_dump();
	stat_add(FZ_GUARD_WRITTEN, 1);
	for (k = 0; k < UMR_AREA; k++)
		if (k < UMR_SLACK || k >= UMR_SLACK + UMR_MR_LEN)
			U.area[k] = gpattern(U.seed, k);
}

/**
 * op_umr() - mkeys, DEKs, their configuration and traffic through them
 */
void op_umr(void)
{
	struct mlx5dv_mkey_err e;
	unsigned int i = below(UMR_MKEYS);
	int err;

	w.group = FZ_UMR;
	if (!w.ctx || !pd_get() || !umr_setup())
		return;
	if (!U.ready) {
		umr_connect();
		return;
	}
	U.good = below(2);
	switch (below(16)) {
	case 0:
		umr_mkey(i);
		break;
	case 1:
		umr_dek_op(below(UMR_DEKS));
		break;
	case 2:
		if (!below(4)) {
			umr_login();
		} else if (U.mk[i] && !U.mk_torn[i]) {
			cov_start();
			err = mlx5dv_mkey_check(U.mk[i], &e);
			errno = err;
			ran(!err);
		}
		break;
	case 3:
	case 4:
		umr_hand();
		break;
	case 5:
	case 6:
	case 7:
	case 8:
	case 9:
		if (!U.mk[i]) {
			umr_mkey(i);
			break;
		}
		umr_configure(below(2), i);
		if (!U.good)
			break;
		/* and traffic through what it configured */
		umr_wait();
		umr_traffic(below(2));
		break;
	default:
		umr_traffic(below(2));
		break;
	}
	umr_wait();
	umr_check();
	guard_check(0, false);
	guard_check(1, false);
}

/*
 * Before the context closes: the pair, the hand QP, the mkeys and DEKs
 * and the MRs destroyed (one time in four left for the close), the area
 * checked and unmapped.
 */
void umr_release(void)
{
	bool leave = !below(4);
	unsigned int i;

	w.group = FZ_UMR;
	if (!leave) {
		for (i = 0; i < 2; i++)
			if (U.q[i].qp)
				ran(!ibv_destroy_qp(U.q[i].qp));
		if (U.hqp)
			ran(!ibv_destroy_qp(U.hqp));
		for (i = 0; i < UMR_MKEYS; i++)
			if (U.mk[i])
				ran(!mlx5dv_destroy_mkey(U.mk[i]));
		for (i = 0; i < UMR_DEKS; i++)
			if (U.dek[i])
				ran(!mlx5dv_dek_destroy(U.dek[i]));
		if (U.mr)
			ran(!ibv_dereg_mr(U.mr));
		if (U.ro)
			ran(!ibv_dereg_mr(U.ro));
		if (U.cq)
			ran(!ibv_destroy_cq(U.cq));
		if (U.hcq)
			ran(!ibv_destroy_cq(U.hcq));
	}
	umr_check();
	if (U.area)
		fenced_unmap(U.area, UMR_AREA);
	memset(&U, 0, sizeof(U));
}
