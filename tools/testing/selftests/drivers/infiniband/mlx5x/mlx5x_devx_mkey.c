// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory keys through DEVX: mlx5dv_devx_obj_create(3) with CREATE_MKEY
 * over a umem (mlx5dv_devx_umem_reg(3)), the PD from ibv_alloc_pd(3),
 * QUERY_MKEY, and every rule firmware applies, refused with EREMOTEIO
 * and status and syndrome in the output; another context's and another
 * process's PD, umem and mkeys; a process that dies with its mkeys; the
 * kernel's own rules (mailbox length, one destroy per handle).  Indirect
 * mkeys, mlx5dv_create_mkey(3) and PSVs are mlx5x_indirect_mkey's.
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
#include "mlx5x_mkey.h"

/* A direct mkey over a umem: owned, queried, and holding PD and umem. */
MT_TEST_F(mt_devx_env, direct_mkey_over_umem)
{
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	struct mkey k;

	mkey_direct(&m, self, 0x1100, VA + 0x100, 2 * PAGE);
	mt_set(m.b, MKC(MKEY_7_0), 0x5a);
	mt_set(m.b, MKC(RR), 1);
	mt_set(m.b, MKC(RW), 1);
	if (!mkey_ok(self->ctx, &m, &k))
		return KSFT_FAIL;
	mt_fw_check_owner("mkey", k.index, self->uid);
	if (CHECK_ERR(mkey_query(&k, k.index, out), 0)) {
		CHECK_EQ(mt_get(out, QMKC(MKEY_7_0)), 0x5a);
		CHECK_EQ(mt_get(out, QMKC(FREE)), 0);
		CHECK_EQ(mt_get(out, QMKC(ACCESS_MODE_1_0)), MODE_MTT);
		CHECK_EQ(mt_get(out, QMKC(RW)), 1);
		CHECK_EQ(mt_get(out, QMKC(PD)), self->pdn);
		CHECK_EQ(mt_get64(out, QMKC(START_ADDR_OFF)), VA + 0x100);
		CHECK_EQ(mt_get64(out, QMKC(LEN_OFF)), 2 * PAGE);
		/* 3 pages need 2 octwords: kept as 4 (64 bytes) */
		CHECK_EQ(mt_get(out, QMKC(TRANSLATIONS_OCTWORD_SIZE)), 4);
		/* the kernel forced the umem bit: firmware shows no trace */
	}
	/* a query must name the handle's own mkey */
	CHECK_ERR(mkey_query(&k, k.index + 1, out), EINVAL);
	/* PD and umem are in use until the mkey goes */
	CHECK_ERR(ibv_dealloc_pd(self->pd), EBUSY);
	CHECK_ERR(mlx5dv_devx_umem_dereg(self->umem), EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(k.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
	return KSFT_PASS;
}

/*
 * A process cannot hand firmware page addresses: the kernel forces
 * mkey_umem_valid, so a mailbox with inline addresses and no umem names
 * umem 0, which does not exist.
 */
MT_TEST_F(mt_devx_env, direct_mkey_no_raw_addresses)
{
	struct mkey_in m;

	mkey_init(&m, MODE_MTT, self->pdn, 1);
	mq_set64(m.b, MKC(START_ADDR_OFF), VA);
	mq_set64(m.b, MKC(LEN_OFF), PAGE);
	mt_set(m.b, MKC(LOG_PAGE_SIZE), 12);
	mt_set(m.b, MKC(TRANSLATIONS_OCTWORD_SIZE), 1);
	mt_set(m.b, IN(TRANSLATIONS_OCTWORD_ACTUAL_SIZE), 1);
	mq_set64(m.b, IN(KLM_PAS_MTT_OFF), 0x100000 | 3);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "inline page address, no umem");
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
	return KSFT_PASS;
}

/* Each rule of CREATE_MKEY: EREMOTEIO, status and syndrome. */
MT_TEST_F(mt_devx_env, create_mkey_rules)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	long long cmds;

#define DIRECT()	mkey_direct(&m, self, 0, VA, 2 * PAGE)
	mkey_direct(&m, self, 0, VA, NPAGES * PAGE + 1);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "one byte beyond the umem");
	mkey_direct(&m, self, 0x10, VA, PAGE);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "va and umem byte at different page offsets");
	DIRECT();
	mt_set(m.b, MKC(LOG_PAGE_SIZE), 13);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "pages larger than the umem's");
	DIRECT();
	mt_set(m.b, MKC(LOG_PAGE_SIZE), 11);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "pages under 4 KiB");
	DIRECT();
	mt_set(m.b, MKC(TRANSLATIONS_OCTWORD_SIZE), 0);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "no translation table");
	DIRECT();
	mt_set(m.b, MKEY_UMEM_ID, self->umem->umem_id + 1000);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "no such umem");
	DIRECT();
	mt_set(m.b, MKC(QPN), 0);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "qpn 0");
	DIRECT();
	mt_set(m.b, MKC(ACCESS_MODE_1_0), MODE_PA);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "physical address mode");
	DIRECT();
	mt_set(m.b, MKC(LW), 0);
	mt_set(m.b, MKC(RW), 1);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "remote write without local write");
	DIRECT();
	mt_set(m.b, MKC(BSF_EN), 1);
	mt_set(m.b, MKC(BSF_OCTWORD_SIZE), 4);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "signature (bsf_en) on a direct mkey");
	mkey_indirect(&m, MODE_KLM, self->pdn, 4, 0);
	mt_set(m.b, MKC(BSF_EN), 1);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "signature mkey without its 4-octword BSF");
	mt_set(m.b, MKC(BSF_OCTWORD_SIZE), 4);
	mt_set(m.b, MKC(UMR_EN), 0);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "signature mkey UMR cannot configure");
	mkey_indirect(&m, MODE_KLM, self->pdn, 4, 0);
	mt_set(m.b, MKC(EN_RINVAL), 1);
	mt_set(m.b, MKC(UMR_EN), 0);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "remote invalidation without umr_en");
	DIRECT();
	mt_set(m.b, MKC_CRYPTO_EN, 1);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_CAP,
		     "crypto_en");
	/* op_mod: not a CREATE_MKEY the kernel lets through */
	DIRECT();
	mt_set(m.b, IN(OP_MOD), 1);
	cmds = mt_fw_stat("commands");
	CHECK(!mkey_create(self->ctx, &m, out));
	CHECK_ERR(errno, EINVAL);
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	DIRECT();
	mt_set(m.b, MKC(PD), self->pdn + 1000);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "no such PD");
	mkey_indirect(&m, MODE_KLM, self->pdn, 0, 0);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
		     "indirect without room");
	mkey_indirect(&m, MODE_KLM, self->pdn, (1 << 16) + 1, 0);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_CAP,
		     "past log_max_klm_list_size");
#undef DIRECT
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
	return KSFT_PASS;
}

/* Another context's PD (same process) is not this context's to use. */
MT_TEST_F(mt_devx_env, wrong_pd_or_umem)
{
	struct mt_devx_env b;
	struct mkey_in m;

	if (!mt_devx_env_open(&b, NPAGES * PAGE))
		goto out;
	mkey_direct(&m, self, 0, VA, PAGE);
	mt_set(m.b, MKC(PD), b.pdn);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NOT_OWNER,
		     "another context's PD");
	mkey_indirect(&m, MODE_KLM, b.pdn, 4, 0);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NOT_OWNER,
		     "another context's PD, indirect");
	mkey_direct(&m, self, 0, VA, PAGE);
	mt_set(m.b, MKEY_UMEM_ID, b.umem->umem_id);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NOT_OWNER,
		     "another context's umem");
out:
	mt_devx_env_close(&b);
	return KSFT_PASS;
}

/*
 * Another process, with its own context, names this process's PD and
 * mkey in its mailboxes: firmware refuses, ours stay intact.
 */
MT_TEST_F(mt_devx_env, other_process_isolated)
{
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	struct mkey mine;
	pid_t pid;

	mkey_direct(&m, self, 0, VA, PAGE);
	if (!mkey_ok(self->ctx, &m, &mine))
		return KSFT_FAIL;
	pid = mt_fork();
	if (pid == 0) {
		uint32_t cout[PRM_CREATE_MKEY_OUT_BYTES / 4];
		struct mlx5dv_devx_obj *obj;
		struct mkey theirs;
		struct mt_devx_env c;
		int bad = 0;

		if (!mt_devx_env_open(&c, NPAGES * PAGE))
			_exit(2);
		/* our PD */
		mkey_direct(&m, &c, 0, VA, PAGE);
		mt_set(m.b, MKC(PD), self->pdn);
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
		mt_devx_env_close(&c);
		_exit(bad);
	}
	CHECK_EQ(mt_reap(pid), 0);
	CHECK_ERR(mkey_query(&mine, mine.index, out), 0);
	mt_fw_check_owner("mkey", mine.index, self->uid);
	CHECK_ERR(mlx5dv_devx_obj_destroy(mine.obj), 0);
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
MT_TEST_F(mt_devx_env, destroy_twice)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4] = {};
	struct mkey_in m;
	uint32_t handle = 0;
	int err;

	mkey_indirect(&m, MODE_KLM, self->pdn, 4, 0);
	if (!CHECK_ERR(raw_create(self->ctx, &m, out, sizeof(out), &handle),
		       0))
		return KSFT_FAIL;
	mt_fw_check_owner("mkey", mt_get(out, PRM_CREATE_MKEY_OUT_MKEY_INDEX),
			  self->uid);
	CHECK_ERR(raw_destroy(self->ctx, handle), 0);
	err = raw_destroy(self->ctx, handle);
	mt_diag("second destroy: %s", strerror(err));
	CHECK(err == EINVAL || err == ENOENT);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
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

	if (!CHECK_EQ(pipe(pfd), 0))
		return KSFT_FAIL;
	pid = mt_fork();
	if (pid == 0) {
		struct mkey d, k, f;
		struct mkey_in m;
		struct mt_devx_env c;

		close(pfd[0]);
		if (!mt_devx_env_open(&c, NPAGES * PAGE))
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
MT_TEST_F(mt_devx_env, fault_injection)
{
	struct mkey_in m;
	struct mkey k;

	CHECK_EQ(mt_fw_fail_opcode(PRM_OP_CREATE_MKEY), 0);
	mkey_indirect(&m, MODE_KLM, self->pdn, 4, 0);
	mkey_refused(self->ctx, &m, MT_STAT_INTERNAL_ERR, SYND_INJECTED,
		     "injected fault");
	mkey_direct(&m, self, 0, VA, PAGE);
	mkey_refused(self->ctx, &m, MT_STAT_INTERNAL_ERR, SYND_INJECTED,
		     "injected fault, direct");
	CHECK_EQ(mt_fw_fail_opcode(-1), 0);
	CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
	/* and the next one works, and its destroy is spared */
	if (mkey_ok(self->ctx, &m, &k)) {
		CHECK_EQ(mt_fw_fail_next(1), 0);
		CHECK_ERR(mlx5dv_devx_obj_destroy(k.obj), 0);
		CHECK_EQ(mt_fw_fail_next(0), 0);
	}
	return KSFT_PASS;
}

/* A CREATE_MKEY mailbox too short for the mkey context never runs. */
MT_TEST_F(mt_devx_env, short_mailbox)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	long long cmds;
	size_t lens[] = { 16, 0x10 + 0x40 - 4 };
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(lens); i++) {
		mkey_indirect(&m, MODE_KLM, self->pdn, 4, 0);
		m.len = lens[i];
		cmds = mt_fw_stat("commands");
		CHECK(!mkey_create(self->ctx, &m, out));
		CHECK_ERR(errno, EINVAL);
		if (mt_sim())
			CHECK_EQ(mt_fw_stat("commands"), cmds);
	}
	/*
	 * long enough for the kernel (the context, no more): firmware
	 * wants the whole create_mkey_in
	 */
	mkey_indirect(&m, MODE_KLM, self->pdn, 4, 0);
	m.len = 0x10 + 0x40;
	mkey_refused(self->ctx, &m, MT_STAT_BAD_INPUT_LEN, SYND_BAD_INLEN,
		     "mailbox without the rest of create_mkey_in");
	if (mt_sim())
		CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(mt_devx_env, direct_mkey_over_umem),
	MT_CASE_F(mt_devx_env, direct_mkey_no_raw_addresses),
	MT_CASE_F(mt_devx_env, create_mkey_rules),
	MT_CASE_F(mt_devx_env, wrong_pd_or_umem),
	MT_CASE_F(mt_devx_env, other_process_isolated),
	MT_CASE_F(mt_devx_env, destroy_twice),
	MT_CASE(process_death, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(mt_devx_env, fault_injection, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(mt_devx_env, short_mailbox),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
