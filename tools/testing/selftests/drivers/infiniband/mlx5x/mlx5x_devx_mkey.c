// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory keys through DEVX: mlx5dv_devx_obj_create(3) with CREATE_MKEY
 * over a umem (mlx5dv_devx_umem_reg(3)), indirect KLM and KSM mkeys, the
 * PD from ibv_alloc_pd(3), QUERY_MKEY, and every rule firmware applies,
 * refused with EREMOTEIO and status and syndrome in the output.  Then
 * mlx5dv_create_mkey(3), which libmlx5 builds on the same CREATE_MKEY,
 * with each of its flags; PSVs (CREATE_PSV) as its BLOCK_SIGNATURE
 * creates them; the kernel's own rules (mailbox length, one PSV per
 * handle) and its table of indirect mkeys (debugfs indirect_mkeys).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl.h>
#include "mlx5x_test.h"
#include "mlx5x_model.h"
#include "mlx5x_ioctl.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define MODE_PA			0
#define MODE_MTT		MKEY_MODE_MTT
#define MODE_KLM		2
#define MODE_KSM		3

/*
 * libmlx5 44 creates mkeys with UPDATE_TAG (nothing of it in the mailbox)
 * and REMOTE_INVALIDATE (en_rinval): measured, see dv_create_mkey_flags
 */
#define UPDATE_TAG_ERR		0
#define RINVAL_ERR		0

#define PAGE			4096
#define NPAGES			4
#define VA			0x7f0000000000ULL
#define KLM_BYTES		16

#define IN(f)			PRM_CREATE_MKEY_IN_##f
#define MKC(f)			PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_##f
#define QMKC(f)			PRM_QUERY_MKEY_OUT_MEMORY_KEY_MKEY_ENTRY_##f

/* A context with a PD and a umem of NPAGES pages. */
struct env {
	struct ibv_context *ctx;
	int uid;
	struct ibv_pd *pd;
	uint32_t pdn;
	void *buf;
	struct mlx5dv_devx_umem *umem;
};

static bool env_open(struct env *e)
{
	struct mlx5dv_pd dvpd = {};
	struct mlx5dv_obj obj = { .pd = { .out = &dvpd } };
	struct mlx5dv_devx_umem_in uin = {};

	memset(e, 0, sizeof(*e));
	e->ctx = mt_open(MT_OPEN_DEVX, &e->uid);
	if (!CHECK(e->ctx))
		return false;
	e->pd = ibv_alloc_pd(e->ctx);
	if (!CHECK(e->pd))
		return false;
	obj.pd.in = e->pd;
	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD), 0))
		return false;
	e->pdn = dvpd.pdn;
	if (posix_memalign(&e->buf, PAGE, NPAGES * PAGE))
		return CHECK(false);
	memset(e->buf, 0, NPAGES * PAGE);
	/* 4 KiB pages, whatever the memory underneath */
	uin.addr = e->buf;
	uin.size = NPAGES * PAGE;
	uin.access = IBV_ACCESS_LOCAL_WRITE;
	uin.pgsz_bitmap = PAGE;
	e->umem = mlx5dv_devx_umem_reg_ex(e->ctx, &uin);
	return CHECK(e->umem);
}

static void env_close(struct env *e)
{
	if (e->umem)
		CHECK_ERR(mlx5dv_devx_umem_dereg(e->umem), 0);
	if (e->pd)
		CHECK_ERR(ibv_dealloc_pd(e->pd), 0);
	if (e->ctx)
		CHECK_EQ(ibv_close_device(e->ctx), 0);
	if (e->ctx && mt_sim() && e->uid > 0)
		CHECK_EQ(mt_fw_count(NULL, e->uid), 0);
	free(e->buf);
}

/* A CREATE_MKEY mailbox: room for NENT_MAX inline entries. */
#define NENT_MAX	8
struct mkey_in {
	uint8_t b[PRM_CREATE_MKEY_IN_BYTES + NENT_MAX * KLM_BYTES];
	size_t len;
};

static void mkey_init(struct mkey_in *m, int mode, uint32_t pdn,
		      unsigned int nent)
{
	memset(m, 0, sizeof(*m));
	m->len = PRM_CREATE_MKEY_IN_BYTES + nent * KLM_BYTES;
	mq_mkey_in(m->b, mode, pdn);
}

/* Direct over the env's umem: len bytes at offset, seen at va. */
static void mkey_direct(struct mkey_in *m, const struct env *e,
			uint64_t offset, uint64_t va, uint64_t len)
{
	mkey_init(m, MODE_MTT, e->pdn, 0);
	mq_mkey_direct_in(m->b, e->pdn, e->umem->umem_id, offset, va, len);
}

/* Indirect: free with room for size entries, or nent entries in use. */
static void mkey_indirect(struct mkey_in *m, int mode, uint32_t pdn,
			  uint32_t size, unsigned int nent)
{
	mkey_init(m, mode, pdn, nent);
	mt_set(m->b, MKC(FREE), !nent);
	mt_set(m->b, MKC(UMR_EN), 1);
	mt_set(m->b, MKC(TRANSLATIONS_OCTWORD_SIZE), size);
	mt_set(m->b, IN(TRANSLATIONS_OCTWORD_ACTUAL_SIZE), nent);
	if (mode == MODE_KSM)
		mt_set(m->b, MKC(LOG_PAGE_SIZE), 12);
}

/* klm: byte_count, key, address (struct mlx5_klm) */
static void mkey_ent(struct mkey_in *m, unsigned int i, uint32_t key,
		     uint32_t bcount, uint64_t va)
{
	unsigned int off = IN(KLM_PAS_MTT_OFF) + i * KLM_BYTES * 8;

	mt_set(m->b, MT_FIELD(off, 32), bcount);
	mt_set(m->b, MT_FIELD(off + 32, 32), key);
	mq_set64(m->b, off + 64, va);
}

struct mkey {
	struct mlx5dv_devx_obj *obj;
	uint32_t index;
	uint32_t key;
};

static struct mlx5dv_devx_obj *mkey_create(struct ibv_context *ctx,
					   struct mkey_in *m, uint32_t *out)
{
	memset(out, 0, PRM_CREATE_MKEY_OUT_BYTES);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, m->b, m->len, out,
				      PRM_CREATE_MKEY_OUT_BYTES);
}

static bool mkey_ok(struct ibv_context *ctx, struct mkey_in *m,
		    struct mkey *k)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];

	k->obj = mkey_create(ctx, m, out);
	if (!mt_check(k->obj != NULL, __FILE__, __LINE__,
		      "create: errno %d status %#x syndrome %#x", errno,
		      mt_get(out, PRM_OUT_STATUS), mt_get(out,
							  PRM_OUT_SYNDROME)))
		return false;
	k->index = mt_get(out, PRM_CREATE_MKEY_OUT_MKEY_INDEX);
	k->key = k->index << 8 | mt_get(m->b, MKC(MKEY_7_0));
	return CHECK(k->index != 0);
}

/* Refused by firmware with this status and syndrome; nothing created. */
static bool mkey_refused(struct ibv_context *ctx, struct mkey_in *m,
			 uint8_t status, uint32_t synd, const char *what)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	struct mlx5dv_devx_obj *obj = mkey_create(ctx, m, out);
	bool ok = true;

	mt_diag("expect a refusal: %s", what);
	if (!CHECK(!obj)) {
		mlx5dv_devx_obj_destroy(obj);
		return false;
	}
	ok &= CHECK_ERR(errno, EREMOTEIO);
	ok &= CHECK_EQ(mt_get(out, PRM_OUT_STATUS), status);
	ok &= CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), synd);
	return ok;
}

static int mkey_query(struct mkey *k, uint32_t index, uint32_t *out)
{
	uint32_t in[PRM_QUERY_MKEY_IN_BYTES / 4] = {};

	mt_set(in, PRM_QUERY_MKEY_IN_OPCODE, PRM_OP_QUERY_MKEY);
	mt_set(in, PRM_QUERY_MKEY_IN_MKEY_INDEX, index);
	memset(out, 0, PRM_QUERY_MKEY_OUT_BYTES);
	return mlx5dv_devx_obj_query(k->obj, in, sizeof(in), out,
				     PRM_QUERY_MKEY_OUT_BYTES);
}

/* A direct mkey over a umem: owned, queried, and holding PD and umem. */
static int test_direct(void)
{
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	struct mkey k;
	struct env e;

	if (!env_open(&e))
		goto out;
	mkey_direct(&m, &e, 0x1100, VA + 0x100, 2 * PAGE);
	mt_set(m.b, MKC(MKEY_7_0), 0x5a);
	mt_set(m.b, MKC(RR), 1);
	mt_set(m.b, MKC(RW), 1);
	if (!mkey_ok(e.ctx, &m, &k))
		goto out;
	mt_fw_check_owner("mkey", k.index, e.uid);
	if (CHECK_ERR(mkey_query(&k, k.index, out), 0)) {
		CHECK_EQ(mt_get(out, QMKC(MKEY_7_0)), 0x5a);
		CHECK_EQ(mt_get(out, QMKC(FREE)), 0);
		CHECK_EQ(mt_get(out, QMKC(ACCESS_MODE_1_0)), MODE_MTT);
		CHECK_EQ(mt_get(out, QMKC(RW)), 1);
		CHECK_EQ(mt_get(out, QMKC(PD)), e.pdn);
		CHECK_EQ(mt_get64(out, QMKC(START_ADDR_OFF)), VA + 0x100);
		CHECK_EQ(mt_get64(out, QMKC(LEN_OFF)), 2 * PAGE);
		/* 3 pages need 2 octwords: kept as 4 (64 bytes) */
		CHECK_EQ(mt_get(out, QMKC(TRANSLATIONS_OCTWORD_SIZE)), 4);
		/* the kernel forced the umem bit: firmware shows no trace */
	}
	/* a query must name the handle's own mkey */
	CHECK_ERR(mkey_query(&k, k.index + 1, out), EINVAL);
	/* PD and umem are in use until the mkey goes */
	CHECK_ERR(ibv_dealloc_pd(e.pd), EBUSY);
	CHECK_ERR(mlx5dv_devx_umem_dereg(e.umem), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(k.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/*
 * A process cannot hand firmware page addresses: the kernel forces
 * mkey_umem_valid, so a mailbox with inline addresses and no umem names
 * umem 0, which does not exist.
 */
static int test_direct_no_raw_addresses(void)
{
	struct mkey_in m;
	struct env e;

	if (!env_open(&e))
		goto out;
	mkey_init(&m, MODE_MTT, e.pdn, 1);
	mq_set64(m.b, MKC(START_ADDR_OFF), VA);
	mq_set64(m.b, MKC(LEN_OFF), PAGE);
	mt_set(m.b, MKC(LOG_PAGE_SIZE), 12);
	mt_set(m.b, MKC(TRANSLATIONS_OCTWORD_SIZE), 1);
	mt_set(m.b, IN(TRANSLATIONS_OCTWORD_ACTUAL_SIZE), 1);
	mq_set64(m.b, IN(KLM_PAS_MTT_OFF), 0x100000 | 3);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "inline page address, no umem");
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Each rule of CREATE_MKEY: EREMOTEIO, status and syndrome. */
static int test_rules(void)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	long long cmds;
	struct env e;

	if (!env_open(&e))
		goto out;
#define DIRECT()	mkey_direct(&m, &e, 0, VA, 2 * PAGE)
	mkey_direct(&m, &e, 0, VA, NPAGES * PAGE + 1);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "one byte beyond the umem");
	mkey_direct(&m, &e, 0x10, VA, PAGE);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "va and umem byte at different page offsets");
	DIRECT();
	mt_set(m.b, MKC(LOG_PAGE_SIZE), 13);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "pages larger than the umem's");
	DIRECT();
	mt_set(m.b, MKC(LOG_PAGE_SIZE), 11);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "pages under 4 KiB");
	DIRECT();
	mt_set(m.b, MKC(TRANSLATIONS_OCTWORD_SIZE), 0);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "no translation table");
	DIRECT();
	mt_set(m.b, MKEY_UMEM_ID, e.umem->umem_id + 1000);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "no such umem");
	DIRECT();
	mt_set(m.b, MKC(QPN), 0);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "qpn 0");
	DIRECT();
	mt_set(m.b, MKC(ACCESS_MODE_1_0), MODE_PA);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "physical address mode");
	DIRECT();
	mt_set(m.b, MKC(LW), 0);
	mt_set(m.b, MKC(RW), 1);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "remote write without local write");
	DIRECT();
	mt_set(m.b, MKC(BSF_EN), 1);
	mt_set(m.b, MKC(BSF_OCTWORD_SIZE), 4);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "signature (bsf_en) on a direct mkey");
	mkey_indirect(&m, MODE_KLM, e.pdn, 4, 0);
	mt_set(m.b, MKC(BSF_EN), 1);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "signature mkey without its 4-octword BSF");
	mt_set(m.b, MKC(BSF_OCTWORD_SIZE), 4);
	mt_set(m.b, MKC(UMR_EN), 0);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "signature mkey UMR cannot configure");
	mkey_indirect(&m, MODE_KLM, e.pdn, 4, 0);
	mt_set(m.b, MKC(EN_RINVAL), 1);
	mt_set(m.b, MKC(UMR_EN), 0);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "remote invalidation without umr_en");
	DIRECT();
	mt_set(m.b, MKC_CRYPTO_EN, 1);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_CAP, "crypto_en");
	/* op_mod: not a CREATE_MKEY the kernel lets through */
	DIRECT();
	mt_set(m.b, IN(OP_MOD), 1);
	cmds = mt_fw_stat("commands");
	CHECK(!mkey_create(e.ctx, &m, out));
	CHECK_ERR(errno, EINVAL);
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	DIRECT();
	mt_set(m.b, MKC(PD), e.pdn + 1000);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "no such PD");
	mkey_indirect(&m, MODE_KLM, e.pdn, 0, 0);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "indirect without room");
	mkey_indirect(&m, MODE_KLM, e.pdn, (1 << 16) + 1, 0);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_CAP,
		     "past log_max_klm_list_size");
#undef DIRECT
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Free KLM and KSM mkeys: the table rounded to 64 bytes, up to the cap. */
static int test_indirect_free(void)
{
	static const uint32_t sizes[][2] = {
		{ 1, 4 }, { 3, 4 }, { 4, 4 }, { 5, 8 }, { 1 << 16, 1 << 16 },
	};
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	struct mkey k;
	struct env e;
	unsigned int i;

	if (!env_open(&e))
		goto out;
	for (i = 0; i < MT_ARRAY_SIZE(sizes); i++) {
		mkey_indirect(&m, i & 1 ? MODE_KSM : MODE_KLM, e.pdn,
			      sizes[i][0], 0);
		mt_set(m.b, MKC(MKEY_7_0), i);
		if (!mkey_ok(e.ctx, &m, &k))
			continue;
		mt_fw_check_owner("mkey", k.index, e.uid);
		if (CHECK_ERR(mkey_query(&k, k.index, out), 0)) {
			CHECK_EQ(mt_get(out, QMKC(FREE)), 1);
			CHECK_EQ(mt_get(out, QMKC(UMR_EN)), 1);
			CHECK_EQ(mt_get(out, QMKC(MKEY_7_0)), i);
			CHECK_EQ(mt_get(out, QMKC(ACCESS_MODE_1_0)),
				 i & 1 ? MODE_KSM : MODE_KLM);
			CHECK_EQ(mt_get(out, QMKC(TRANSLATIONS_OCTWORD_SIZE)),
				 sizes[i][1]);
		}
		CHECK_ERR(mlx5dv_devx_obj_destroy(k.obj), 0);
	}
out:
	env_close(&e);
	return KSFT_PASS;
}

/* KLM and KSM mkeys with entries: those mkeys stay until they go. */
static int test_indirect_entries(void)
{
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	unsigned int klm0 = PRM_QUERY_MKEY_OUT_BSF0_KLM0_PAS_MTT0_1_OFF;
	struct mkey d[2], klm, ksm;
	struct mkey_in m;
	struct env e;
	unsigned int i;

	if (!env_open(&e))
		goto out;
	for (i = 0; i < 2; i++) {
		mkey_direct(&m, &e, i * PAGE, VA + i * PAGE, PAGE);
		mt_set(m.b, MKC(MKEY_7_0), 0x20 + i);
		if (!mkey_ok(e.ctx, &m, &d[i]))
			goto out;
	}
	mkey_indirect(&m, MODE_KLM, e.pdn, 4, 3);
	mkey_ent(&m, 0, d[0].key, 0x800, VA);
	mkey_ent(&m, 1, d[1].key, PAGE, VA + PAGE);
	mkey_ent(&m, 2, d[0].key, 0x800, VA + 0x800);
	mq_set64(m.b, MKC(LEN_OFF), 2 * PAGE);
	if (!mkey_ok(e.ctx, &m, &klm))
		goto out;
	if (CHECK_ERR(mkey_query(&klm, klm.index, out), 0)) {
		CHECK_EQ(mt_get(out, QMKC(FREE)), 0);
		CHECK_EQ(mt_get(out, MT_FIELD(klm0, 32)), 0x800);
		CHECK_EQ(mt_get(out, MT_FIELD(klm0 + 32, 32)), d[0].key);
	}
	mkey_indirect(&m, MODE_KSM, e.pdn, 4, 2);
	mkey_ent(&m, 0, d[1].key, 0, VA + PAGE);
	mkey_ent(&m, 1, d[0].key, 0, VA);
	mq_set64(m.b, MKC(LEN_OFF), 2 * PAGE);
	if (!mkey_ok(e.ctx, &m, &ksm))
		goto out;
	if (mt_sim()) {
		const struct mt_obj *o;
		struct mt_objs s;

		if (CHECK_EQ(mt_fw_read(&s), 0)) {
			o = mt_fw_find(&s, "mkey", d[0].index);
			if (CHECK(o))
				CHECK_EQ(o->users, 3);
			mt_fw_free(&s);
		}
	}
	/* a key whose tag is not the mkey's names nothing */
	mkey_indirect(&m, MODE_KLM, e.pdn, 4, 1);
	mkey_ent(&m, 0, d[0].key ^ 0xff, PAGE, VA);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "entry with a wrong tag");
	mkey_ent(&m, 0, d[0].key, PAGE, VA);
	mq_set64(m.b, MKC(LEN_OFF), PAGE + 1);
	mkey_refused(e.ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "longer than its entries");
	/* busy while inside an indirect mkey, then free to go */
	CHECK_ERR(mlx5dv_devx_obj_destroy(d[0].obj), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(d[1].obj), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(klm.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(d[0].obj), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(ksm.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(d[0].obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(d[1].obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Another context's PD (same process) is not this context's to use. */
static int test_wrong_pd(void)
{
	struct env a = {}, b = {};
	struct mkey_in m;

	if (!env_open(&a) || !env_open(&b))
		goto out;
	mkey_direct(&m, &a, 0, VA, PAGE);
	mt_set(m.b, MKC(PD), b.pdn);
	mkey_refused(a.ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NOT_OWNER,
		     "another context's PD");
	mkey_indirect(&m, MODE_KLM, b.pdn, 4, 0);
	mkey_refused(a.ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NOT_OWNER,
		     "another context's PD, indirect");
	mkey_direct(&m, &a, 0, VA, PAGE);
	mt_set(m.b, MKEY_UMEM_ID, b.umem->umem_id);
	mkey_refused(a.ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NOT_OWNER,
		     "another context's umem");
out:
	env_close(&b);
	env_close(&a);
	return KSFT_PASS;
}

/*
 * Another process, with its own context, names this process's PD and
 * mkey in its mailboxes: firmware refuses, ours stay intact.
 */
static int test_other_process(void)
{
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	int status = -1;
	struct mkey_in m;
	struct mkey mine;
	struct env e;
	pid_t pid;

	if (!env_open(&e))
		goto out;
	mkey_direct(&m, &e, 0, VA, PAGE);
	if (!mkey_ok(e.ctx, &m, &mine))
		goto out;
	pid = mt_fork();
	if (pid == 0) {
		uint32_t cout[PRM_CREATE_MKEY_OUT_BYTES / 4];
		struct mlx5dv_devx_obj *obj;
		struct mkey theirs;
		struct env c;
		int bad = 0;

		if (!env_open(&c))
			_exit(2);
		/* our PD */
		mkey_direct(&m, &c, 0, VA, PAGE);
		mt_set(m.b, MKC(PD), e.pdn);
		obj = mkey_create(c.ctx, &m, cout);
		bad |= (obj || errno != EREMOTEIO ||
			mt_get(cout, PRM_OUT_SYNDROME) != SYND_NOT_OWNER) << 0;
		/* our mkey in its KLM */
		mkey_indirect(&m, MODE_KLM, c.pdn, 4, 1);
		mkey_ent(&m, 0, mine.key, PAGE, VA);
		mq_set64(m.b, MKC(LEN_OFF), PAGE);
		obj = mkey_create(c.ctx, &m, cout);
		bad |= (obj || errno != EREMOTEIO ||
			mt_get(cout, PRM_OUT_SYNDROME) != SYND_NOT_OWNER) << 1;
		/* its own handle naming our index: the kernel says no */
		mkey_direct(&m, &c, 0, VA, PAGE);
		if (!mkey_ok(c.ctx, &m, &theirs))
			_exit(4);
		bad |= (mkey_query(&theirs, mine.index, out) != EINVAL) << 2;
		bad |= (mlx5dv_devx_obj_destroy(theirs.obj) != 0) << 3;
		env_close(&c);
		_exit(bad);
	}
	if (CHECK(pid > 0)) {
		CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
		CHECK(WIFEXITED(status));
		CHECK_EQ(WEXITSTATUS(status), 0);
	}
	CHECK_ERR(mkey_query(&mine, mine.index, out), 0);
	mt_fw_check_owner("mkey", mine.index, e.uid);
	CHECK_ERR(mlx5dv_devx_obj_destroy(mine.obj), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* DEVX object methods by raw ioctl: the handle stays in our hands. */
static int raw_create(struct ibv_context *ctx, struct mkey_in *m,
		      uint32_t *out, size_t outlen, uint32_t *handle)
{
	struct mt_ioctl c;
	int h, err;

	mt_ioctl_init(&c, MLX5_IB_OBJECT_DEVX_OBJ,
		      MLX5_IB_METHOD_DEVX_OBJ_CREATE);
	h = mt_ioctl_new(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE);
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, m->b, m->len);
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, out, outlen);
	err = mt_ioctl_run(ctx, &c);
	if (!err)
		*handle = c.attrs[h].data;
	return err;
}

static int raw_destroy(struct ibv_context *ctx, uint32_t handle)
{
	struct mt_ioctl c;

	mt_ioctl_init(&c, MLX5_IB_OBJECT_DEVX_OBJ,
		      MLX5_IB_METHOD_DEVX_OBJ_DESTROY);
	mt_ioctl_handle(&c, MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, handle);
	return mt_ioctl_run(ctx, &c);
}

/* The second destroy of one handle finds nothing: uverbs says so. */
static int test_destroy_twice(void)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4] = {};
	struct mkey_in m;
	uint32_t handle = 0;
	struct env e;
	int err;

	if (!env_open(&e))
		goto out;
	mkey_indirect(&m, MODE_KLM, e.pdn, 4, 0);
	if (!CHECK_ERR(raw_create(e.ctx, &m, out, sizeof(out), &handle), 0))
		goto out;
	mt_fw_check_owner("mkey", mt_get(out, PRM_CREATE_MKEY_OUT_MKEY_INDEX),
			  e.uid);
	CHECK_ERR(raw_destroy(e.ctx, handle), 0);
	err = raw_destroy(e.ctx, handle);
	mt_diag("second destroy: %s", strerror(err));
	CHECK(err == EINVAL || err == ENOENT);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/*
 * A process killed with mkeys (direct, indirect pointing at it, free)
 * and its umem and PD: the model is left with nothing of its uid.
 */
static int test_process_death(void)
{
	int pfd[2], status, uid = -1, i;
	pid_t pid;

	if (!mt_sim())
		return mt_skip("needs the firmware model");
	if (!CHECK_EQ(pipe(pfd), 0))
		return KSFT_FAIL;
	pid = mt_fork();
	if (pid == 0) {
		struct mkey d, k, f;
		struct mkey_in m;
		struct env c;

		close(pfd[0]);
		if (!env_open(&c))
			_exit(2);
		mkey_direct(&m, &c, 0, VA, 2 * PAGE);
		if (!mkey_ok(c.ctx, &m, &d))
			_exit(3);
		mkey_indirect(&m, MODE_KLM, c.pdn, 4, 1);
		mkey_ent(&m, 0, d.key, PAGE, VA);
		mq_set64(m.b, MKC(LEN_OFF), PAGE);
		if (!mkey_ok(c.ctx, &m, &k))
			_exit(4);
		mkey_indirect(&m, MODE_KSM, c.pdn, 64, 0);
		if (!mkey_ok(c.ctx, &m, &f))
			_exit(5);
		if (write(pfd[1], &c.uid, sizeof(c.uid)) != sizeof(c.uid))
			_exit(6);
		pause();
		_exit(7);
	}
	close(pfd[1]);
	if (!CHECK(pid > 0))
		goto out;
	if (CHECK_EQ(read(pfd[0], &uid, sizeof(uid)), sizeof(uid))) {
		CHECK(uid > 0);
		CHECK_EQ(mt_fw_count("mkey", uid), 3);
	}
	kill(pid, SIGKILL);
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status));
	/* the context's file is released as the process dies */
	for (i = 0; i < 100 && mt_fw_count(NULL, uid) > 0; i++)
		usleep(20000);
	CHECK_EQ(mt_fw_count(NULL, uid), 0);
out:
	close(pfd[0]);
	return KSFT_PASS;
}

/* A failed CREATE_MKEY leaves nothing, in the model or in uverbs. */
static int test_fault_injection(void)
{
	struct mkey_in m;
	struct mkey k;
	struct env e;

	if (!mt_sim())
		return mt_skip("needs the firmware model");
	if (!env_open(&e))
		goto out;
	CHECK_EQ(mt_fw_fail_opcode(PRM_OP_CREATE_MKEY), 0);
	mkey_indirect(&m, MODE_KLM, e.pdn, 4, 0);
	mkey_refused(e.ctx, &m, MT_STAT_INTERNAL_ERR, SYND_INJECTED,
		     "injected fault");
	mkey_direct(&m, &e, 0, VA, PAGE);
	mkey_refused(e.ctx, &m, MT_STAT_INTERNAL_ERR, SYND_INJECTED,
		     "injected fault, direct");
	CHECK_EQ(mt_fw_fail_opcode(-1), 0);
	CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
	/* and the next one works, and its destroy is spared */
	if (mkey_ok(e.ctx, &m, &k)) {
		CHECK_EQ(mt_fw_fail_next(1), 0);
		CHECK_ERR(mlx5dv_devx_obj_destroy(k.obj), 0);
		CHECK_EQ(mt_fw_fail_next(0), 0);
	}
out:
	env_close(&e);
	return KSFT_PASS;
}

/*
 * mlx5dv_create_mkey(3), INDIRECT: libmlx5 creates a free KLM mkey with
 * umr_en through DEVX CREATE_MKEY, with room for max_entries rounded up
 * to a multiple of 4, and writes that number back.  The profile's cap,
 * 1 << log_max_klm_list_size = 65536 entries, is more than the u16 can
 * ask for; 65535 rounds past the u16 in libmlx5 and reaches firmware as
 * a table of 0 entries, which it refuses (BAD_PARAM: EINVAL).  The cap
 * itself is tried through DEVX in indirect_mkey_free and create_mkey_rules.
 */
static int test_dv_create_mkey(void)
{
	static const uint16_t req[][2] = {
		{ 1, 4 }, { 3, 4 }, { 4, 4 }, { 5, 8 }, { 64, 64 },
		{ 0xfffc, 0xfffc }, { 0xfffd, 0 }, { 0xffff, 0 },
	};
	struct mlx5dv_mkey_init_attr attr = {};
	struct mlx5dv_mkey *mk;
	long long cmds, errs;
	struct env e;
	unsigned int i;

	if (!env_open(&e))
		goto out;
	attr.pd = e.pd;
	attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT;
	for (i = 0; i < MT_ARRAY_SIZE(req); i++) {
		cmds = mt_fw_stat("commands");
		errs = mt_fw_stat("failed");
		attr.max_entries = req[i][0];
		errno = 0;
		mk = mlx5dv_create_mkey(&attr);
		mt_diag("max_entries %u: %s, max_entries now %u, key %#x",
			req[i][0], mk ? "created" : strerror(errno),
			attr.max_entries, mk ? mk->lkey : 0);
		/* one CREATE_MKEY each time */
		if (mt_sim())
			CHECK_EQ(mt_fw_stat("commands") - cmds, 1);
		if (!req[i][1]) {
			CHECK(!mk);
			CHECK_ERR(errno, EINVAL);
			if (mt_sim())
				CHECK_EQ(mt_fw_stat("failed") - errs, 1);
			continue;
		}
		if (!CHECK(mk))
			continue;
		CHECK_EQ(attr.max_entries, req[i][1]);
		CHECK_EQ(mk->rkey, mk->lkey);
		/* the model holds it, this context's, at index lkey >> 8 */
		mt_fw_check_owner("mkey", mk->lkey >> 8, e.uid);
		CHECK_ERR(ibv_dealloc_pd(e.pd), EBUSY);
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
		if (mt_sim())
			CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
	}
	/* two at once: distinct keys */
	attr.max_entries = 4;
	mk = mlx5dv_create_mkey(&attr);
	if (CHECK(mk)) {
		struct mlx5dv_mkey *mk2 = mlx5dv_create_mkey(&attr);

		if (CHECK(mk2)) {
			CHECK(mk2->lkey != mk->lkey);
			if (mt_sim())
				CHECK_EQ(mt_fw_count("mkey", e.uid), 2);
			CHECK_ERR(mlx5dv_destroy_mkey(mk2), 0);
		}
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
	}
out:
	env_close(&e);
	return KSFT_PASS;
}

/*
 * The kernel's table of indirect mkeys (debugfs indirect_mkeys): the line
 * of key, or NULL.  Return: whether the file could be read.
 */
static bool imkey_line(struct ibv_context *ctx, uint32_t key, char *line,
		       size_t len)
{
	char path[256], want[16];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5x/%s/indirect_mkeys",
		 ctx->device->name);
	f = fopen(path, "r");
	if (!f)
		return false;
	snprintf(want, sizeof(want), "0x%08x ", key);
	line[0] = '\0';
	while (!found && fgets(line, len, f))
		found = !strncmp(line, want, strlen(want));
	if (!found)
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	fclose(f);
	return true;
}

/* How many lines of the table belong to uid. */
static int imkey_count(const char *dev, int uid)
{
	char path[256], line[128];
	unsigned int key, u;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5x/%s/indirect_mkeys",
		 dev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "0x%x %u", &key, &u) == 2 && (int)u == uid)
			n++;
	fclose(f);
	return n;
}

/*
 * The kernel keeps each indirect mkey a process creates through DEVX,
 * with its tag, rounded size and features, until firmware destroyed it;
 * a direct mkey is not in the table.
 */
static int test_indirect_tracked(void)
{
	char line[128], want[128];
	struct mkey_in m;
	struct mkey k, d;
	struct env e;

	if (!env_open(&e))
		goto out;
	mkey_indirect(&m, MODE_KSM, e.pdn, 5, 0);
	mt_set(m.b, MKC(MKEY_7_0), 0xa7);
	mt_set(m.b, MKC(EN_RINVAL), 1);
	if (!mkey_ok(e.ctx, &m, &k))
		goto out;
	mkey_direct(&m, &e, 0, VA, PAGE);
	if (!mkey_ok(e.ctx, &m, &d))
		goto out;
	if (CHECK(imkey_line(e.ctx, k.key, line, sizeof(line)))) {
		mt_diag("indirect_mkeys: %s", line);
		snprintf(want, sizeof(want), "0x%08x %d ksm 8 free umr rinval",
			 k.key, e.uid);
		CHECK(!strcmp(line, want));
		CHECK(imkey_line(e.ctx, d.key, line, sizeof(line)));
		CHECK(!line[0]);
		CHECK_EQ(imkey_count(e.ctx->device->name, e.uid), 1);
	}
	/* gone from the table once firmware destroyed it */
	CHECK_ERR(mlx5dv_devx_obj_destroy(k.obj), 0);
	CHECK_EQ(imkey_count(e.ctx->device->name, e.uid), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(d.obj), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* A CREATE_MKEY mailbox too short for the mkey context never runs. */
static int test_short_mailbox(void)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	long long cmds;
	struct env e;
	size_t lens[] = { 16, 0x10 + 0x40 - 4 };
	unsigned int i;

	if (!env_open(&e))
		goto out;
	for (i = 0; i < MT_ARRAY_SIZE(lens); i++) {
		mkey_indirect(&m, MODE_KLM, e.pdn, 4, 0);
		m.len = lens[i];
		cmds = mt_fw_stat("commands");
		CHECK(!mkey_create(e.ctx, &m, out));
		CHECK_ERR(errno, EINVAL);
		if (mt_sim())
			CHECK_EQ(mt_fw_stat("commands"), cmds);
	}
	/*
	 * long enough for the kernel (the context, no more): firmware
	 * wants the whole create_mkey_in
	 */
	mkey_indirect(&m, MODE_KLM, e.pdn, 4, 0);
	m.len = 0x10 + 0x40;
	mkey_refused(e.ctx, &m, MT_STAT_BAD_INPUT_LEN, SYND_BAD_INLEN,
		     "mailbox without the rest of create_mkey_in");
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

#define PSV_IN_BYTES		PRM_CREATE_PSV_IN_BYTES
#define PSV_OUT_BYTES		PRM_CREATE_PSV_OUT_BYTES
#define PSV_NUM			PRM_CREATE_PSV_IN_NUM_PSV
#define PSV_PD			PRM_CREATE_PSV_IN_PD
#define PSV_INDEX(i)		((i) ? PRM_CREATE_PSV_OUT_PSV1_INDEX : \
				       PRM_CREATE_PSV_OUT_PSV0_INDEX)

static struct mlx5dv_devx_obj *psv_create(struct ibv_context *ctx,
					  uint32_t pdn, unsigned int num,
					  uint32_t *out)
{
	uint32_t in[PSV_IN_BYTES / 4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_PSV);
	mt_set(in, PSV_NUM, num);
	mt_set(in, PSV_PD, pdn);
	memset(out, 0, PSV_OUT_BYTES);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, PSV_OUT_BYTES);
}

/* PSVs through DEVX: one per handle, under a PD of the context's own. */
static int test_psv(void)
{
	uint32_t out[PSV_OUT_BYTES / 4];
	struct mlx5dv_devx_obj *p;
	struct env a = {}, b = {};
	long long cmds;

	if (!env_open(&a) || !env_open(&b))
		goto out;
	cmds = mt_fw_stat("commands");
	CHECK(!psv_create(a.ctx, a.pdn, 2, out));
	CHECK_ERR(errno, EINVAL);
	CHECK(!psv_create(a.ctx, a.pdn, 0, out));
	CHECK_ERR(errno, EINVAL);
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	CHECK(!psv_create(a.ctx, b.pdn, 1, out));
	CHECK_ERR(errno, EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_NOT_OWNER);
	p = psv_create(a.ctx, a.pdn, 1, out);
	if (CHECK(p)) {
		mt_fw_check_owner("psv", mt_get(out, PSV_INDEX(0)), a.uid);
		CHECK_EQ(mt_get(out, PSV_INDEX(1)), 0);
		CHECK_ERR(ibv_dealloc_pd(a.pd), EBUSY);
		CHECK_ERR(mlx5dv_devx_obj_destroy(p), 0);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_count("psv", a.uid), 0);
out:
	env_close(&b);
	env_close(&a);
	return KSFT_PASS;
}

/*
 * mlx5dv_create_mkey(3) flags.  libmlx5 44 checks the flags and the caps
 * it read at open (QUERY_HCA_CAP through DEVX) before any command:
 * BLOCK_SIGNATURE needs sho and sigerr_domain_and_sig_type, which the
 * profile has; CRYPTO needs crypto caps, which it has not: EOPNOTSUPP.
 * A signature mkey is a KLM mkey with a 4-octword BSF and two PSVs.
 */
static int test_dv_create_mkey_flags(void)
{
	struct mlx5dv_context dv = {};
	struct mlx5dv_mkey_init_attr attr = {};
	struct mlx5dv_mkey *mk;
	char line[128], want[128];
	long long cmds;
	struct env e;
	unsigned int i;
	static const struct {
		uint32_t flags;
		int err;	/* 0: created */
		const char *feat;
	} fl[] = {
		{ 0, EOPNOTSUPP, NULL },
		{ 1 << 5, EOPNOTSUPP, NULL },
		{ MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
		  MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO, EOPNOTSUPP, NULL },
		{ MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
		  MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE, 0,
		  "free umr sig" },
		{ MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
		  MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG, UPDATE_TAG_ERR,
		  "free umr" },
		{ MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
		  MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE, RINVAL_ERR,
		  "free umr rinval" },
	};

	if (!env_open(&e))
		goto out;
	dv.comp_mask = MLX5DV_CONTEXT_MASK_SIGNATURE_OFFLOAD |
		       MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD;
	if (CHECK_ERR(mlx5dv_query_device(e.ctx, &dv), 0)) {
		mt_diag("sig block_prot %#x, crypto flags %#x",
			dv.sig_caps.block_prot, dv.crypto_caps.flags);
		CHECK(dv.sig_caps.block_prot != 0);
		CHECK_EQ(dv.crypto_caps.flags, 0);
	}
	attr.pd = e.pd;
	for (i = 0; i < MT_ARRAY_SIZE(fl); i++) {
		attr.create_flags = fl[i].flags;
		attr.max_entries = 1;
		cmds = mt_fw_stat("commands");
		errno = 0;
		mk = mlx5dv_create_mkey(&attr);
		mt_diag("flags %#x: %s", fl[i].flags,
			mk ? "created" : strerror(errno));
		if (fl[i].err) {
			CHECK(!mk);
			CHECK_ERR(errno, fl[i].err);
			/* refused in libmlx5: nothing reached the device */
			if (mt_sim())
				CHECK_EQ(mt_fw_stat("commands"), cmds);
			continue;
		}
		if (!CHECK(mk))
			continue;
		CHECK_EQ(attr.max_entries, 4);
		mt_fw_check_owner("mkey", mk->lkey >> 8, e.uid);
		if (CHECK(imkey_line(e.ctx, mk->lkey, line, sizeof(line)))) {
			snprintf(want, sizeof(want), "0x%08x %d klm 4 %s",
				 mk->lkey, e.uid, fl[i].feat);
			mt_diag("indirect_mkeys: %s", line);
			CHECK(!strcmp(line, want));
		}
		if (mt_sim() && (fl[i].flags &
				 MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE))
			/* a memory and a wire PSV */
			CHECK_EQ(mt_fw_count("psv", e.uid), 2);
		CHECK_ERR(ibv_dealloc_pd(e.pd), EBUSY);
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
		if (mt_sim()) {
			CHECK_EQ(mt_fw_count("mkey", e.uid), 0);
			CHECK_EQ(mt_fw_count("psv", e.uid), 0);
		}
		CHECK_EQ(imkey_count(e.ctx->device->name, e.uid), 0);
	}
out:
	env_close(&e);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	{ "dv_create_mkey_indirect", test_dv_create_mkey },
	{ "direct_mkey_over_umem", test_direct },
	{ "direct_mkey_no_raw_addresses", test_direct_no_raw_addresses },
	{ "create_mkey_rules", test_rules },
	{ "indirect_mkey_free", test_indirect_free },
	{ "indirect_mkey_entries", test_indirect_entries },
	{ "wrong_pd_or_umem", test_wrong_pd },
	{ "other_process_isolated", test_other_process },
	{ "destroy_twice", test_destroy_twice },
	{ "process_death", test_process_death },
	{ "fault_injection", test_fault_injection },
	{ "indirect_mkey_tracked", test_indirect_tracked },
	{ "short_mailbox", test_short_mailbox },
	{ "psv", test_psv },
	{ "dv_create_mkey_flags", test_dv_create_mkey_flags },
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
