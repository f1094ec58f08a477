// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Indirect memory keys: free KLM and KSM mkeys and ones with entries
 * through DEVX CREATE_MKEY (mlx5dv_devx_obj_create(3)), then
 * mlx5dv_create_mkey(3), which libmlx5 builds on the same CREATE_MKEY,
 * with each of its flags; PSVs (CREATE_PSV) as its BLOCK_SIGNATURE
 * creates them, one per handle; and the kernel's table of indirect mkeys
 * (debugfs indirect_mkeys).  Direct mkeys and the rules every mkey
 * follows are mlx5x_devx_mkey's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_model.h"
#include "mlx5x_mkey.h"

/*
 * libmlx5 44 creates mkeys with UPDATE_TAG (nothing of it in the mailbox)
 * and REMOTE_INVALIDATE (en_rinval): measured, see dv_create_mkey_flags
 */
#define UPDATE_TAG_ERR		0
#define RINVAL_ERR		0

/*
 * mlx5dv_create_mkey(3), INDIRECT: libmlx5 creates a free KLM mkey with
 * umr_en through DEVX CREATE_MKEY, with room for max_entries rounded up
 * to a multiple of 4, and writes that number back.  The profile's cap,
 * 1 << log_max_klm_list_size = 65536 entries, is more than the u16 can
 * ask for; 65535 rounds past the u16 in libmlx5 and reaches firmware as
 * a table of 0 entries, which it refuses (BAD_PARAM: EINVAL).  The cap
 * itself is tried through DEVX in indirect_mkey_free and in
 * mlx5x_devx_mkey's create_mkey_rules.
 */
MT_TEST_F(mt_devx_env, dv_create_mkey_indirect)
{
	static const uint16_t req[][2] = {
		{ 1, 4 }, { 3, 4 }, { 4, 4 }, { 5, 8 }, { 64, 64 },
		{ 0xfffc, 0xfffc }, { 0xfffd, 0 }, { 0xffff, 0 },
	};
	struct mlx5dv_mkey_init_attr attr = {};
	struct mlx5dv_mkey *mk;
	long long cmds, errs;
	unsigned int i;

	attr.pd = self->pd;
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
		mt_fw_check_owner("mkey", mk->lkey >> 8, self->uid);
		CHECK_ERR(ibv_dealloc_pd(self->pd), EBUSY);
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
		if (mt_sim())
			CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
	}
	/* two at once: distinct keys */
	attr.max_entries = 4;
	mk = mlx5dv_create_mkey(&attr);
	if (CHECK(mk)) {
		struct mlx5dv_mkey *mk2 = mlx5dv_create_mkey(&attr);

		if (CHECK(mk2)) {
			CHECK(mk2->lkey != mk->lkey);
			if (mt_sim())
				CHECK_EQ(mt_fw_count("mkey", self->uid), 2);
			CHECK_ERR(mlx5dv_destroy_mkey(mk2), 0);
		}
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
	}
	return KSFT_PASS;
}

/* Free KLM and KSM mkeys: the table rounded to 64 bytes, up to the cap. */
MT_TEST_F(mt_devx_env, indirect_mkey_free)
{
	static const uint32_t sizes[][2] = {
		{ 1, 4 }, { 3, 4 }, { 4, 4 }, { 5, 8 }, { 1 << 16, 1 << 16 },
	};
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	struct mkey_in m;
	struct mkey k;
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(sizes); i++) {
		mkey_indirect(&m, i & 1 ? MODE_KSM : MODE_KLM, self->pdn,
			      sizes[i][0], 0);
		mt_set(m.b, MKC(MKEY_7_0), i);
		if (!mkey_ok(self->ctx, &m, &k))
			continue;
		mt_fw_check_owner("mkey", k.index, self->uid);
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
	return KSFT_PASS;
}

/* KLM and KSM mkeys with entries: those mkeys stay until they go. */
MT_TEST_F(mt_devx_env, indirect_mkey_entries)
{
	uint32_t out[PRM_QUERY_MKEY_OUT_BYTES / 4];
	unsigned int klm0 = PRM_QUERY_MKEY_OUT_BSF0_KLM0_PAS_MTT0_1_OFF;
	struct mkey d[2], klm, ksm;
	struct mkey_in m;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		mkey_direct(&m, self, i * PAGE, VA + i * PAGE, PAGE);
		mt_set(m.b, MKC(MKEY_7_0), 0x20 + i);
		if (!mkey_ok(self->ctx, &m, &d[i]))
			return KSFT_FAIL;
	}
	mkey_indirect(&m, MODE_KLM, self->pdn, 4, 3);
	mkey_ent(&m, 0, d[0].key, 0x800, VA);
	mkey_ent(&m, 1, d[1].key, PAGE, VA + PAGE);
	mkey_ent(&m, 2, d[0].key, 0x800, VA + 0x800);
	mq_set64(m.b, MKC(LEN_OFF), 2 * PAGE);
	if (!mkey_ok(self->ctx, &m, &klm))
		return KSFT_FAIL;
	if (CHECK_ERR(mkey_query(&klm, klm.index, out), 0)) {
		CHECK_EQ(mt_get(out, QMKC(FREE)), 0);
		CHECK_EQ(mt_get(out, MT_FIELD(klm0, 32)), 0x800);
		CHECK_EQ(mt_get(out, MT_FIELD(klm0 + 32, 32)), d[0].key);
	}
	mkey_indirect(&m, MODE_KSM, self->pdn, 4, 2);
	mkey_ent(&m, 0, d[1].key, 0, VA + PAGE);
	mkey_ent(&m, 1, d[0].key, 0, VA);
	mq_set64(m.b, MKC(LEN_OFF), 2 * PAGE);
	if (!mkey_ok(self->ctx, &m, &ksm))
		return KSFT_FAIL;
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
	mkey_indirect(&m, MODE_KLM, self->pdn, 4, 1);
	mkey_ent(&m, 0, d[0].key ^ 0xff, PAGE, VA);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_RESOURCE, SYND_NO_OBJECT,
		     "entry with a wrong tag");
	mkey_ent(&m, 0, d[0].key, PAGE, VA);
	mq_set64(m.b, MKC(LEN_OFF), PAGE + 1);
	mkey_refused(self->ctx, &m, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
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
		CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
	return KSFT_PASS;
}

/*
 * The kernel keeps each indirect mkey a process creates through DEVX,
 * with its tag, rounded size and features, until firmware destroyed it;
 * a direct mkey is not in the table.
 */
MT_TEST_F(mt_devx_env, indirect_mkey_tracked)
{
	char line[128], want[128];
	int uid = self->uid;
	struct mkey_in m;
	struct mkey k, d;

	mkey_indirect(&m, MODE_KSM, self->pdn, 5, 0);
	mt_set(m.b, MKC(MKEY_7_0), 0xa7);
	mt_set(m.b, MKC(EN_RINVAL), 1);
	if (!mkey_ok(self->ctx, &m, &k))
		return KSFT_FAIL;
	mkey_direct(&m, self, 0, VA, PAGE);
	if (!mkey_ok(self->ctx, &m, &d))
		return KSFT_FAIL;
	if (CHECK(mt_imkey_line(self->ctx, k.key, line, sizeof(line)))) {
		mt_diag("indirect_mkeys: %s", line);
		uid = mt_imkey_uid(line, self->uid);
		snprintf(want, sizeof(want), "0x%08x %d ksm 8 free umr rinval",
			 k.key, uid);
		CHECK(!strcmp(line, want));
		CHECK(mt_imkey_line(self->ctx, d.key, line, sizeof(line)));
		CHECK(!line[0]);
		CHECK_EQ(mt_imkey_count(self->ctx, uid), 1);
	}
	/* gone from the table once firmware destroyed it */
	CHECK_ERR(mlx5dv_devx_obj_destroy(k.obj), 0);
	CHECK_EQ(mt_imkey_count(self->ctx, uid), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(d.obj), 0);
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
MT_TEST_F(mt_devx_env, psv)
{
	uint32_t out[PSV_OUT_BYTES / 4];
	struct mlx5dv_devx_obj *p;
	struct mt_devx_env b;
	long long cmds;

	if (!mt_devx_env_open(&b, NPAGES * PAGE))
		goto out;
	cmds = mt_fw_stat("commands");
	CHECK(!psv_create(self->ctx, self->pdn, 2, out));
	CHECK_ERR(errno, EINVAL);
	CHECK(!psv_create(self->ctx, self->pdn, 0, out));
	CHECK_ERR(errno, EINVAL);
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	CHECK(!psv_create(self->ctx, b.pdn, 1, out));
	CHECK_ERR(errno, EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_NOT_OWNER);
	p = psv_create(self->ctx, self->pdn, 1, out);
	if (CHECK(p)) {
		mt_fw_check_owner("psv", mt_get(out, PSV_INDEX(0)), self->uid);
		CHECK_EQ(mt_get(out, PSV_INDEX(1)), 0);
		CHECK_ERR(ibv_dealloc_pd(self->pd), EBUSY);
		CHECK_ERR(mlx5dv_devx_obj_destroy(p), 0);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_count("psv", self->uid), 0);
out:
	mt_devx_env_close(&b);
	return KSFT_PASS;
}

/*
 * mlx5dv_create_mkey(3) flags.  libmlx5 44 checks the flags and the caps
 * it read at open (QUERY_HCA_CAP through DEVX) before any command:
 * BLOCK_SIGNATURE needs sho and sigerr_domain_and_sig_type, which the
 * profile has; CRYPTO needs crypto caps, which it has not: EOPNOTSUPP.
 * A signature mkey is a KLM mkey with a 4-octword BSF and two PSVs.
 */
MT_TEST_F(mt_devx_env, dv_create_mkey_flags)
{
	struct mlx5dv_context dv = {};
	struct mlx5dv_mkey_init_attr attr = {};
	struct mlx5dv_mkey *mk;
	char line[128], want[128];
	long long cmds;
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

	dv.comp_mask = MLX5DV_CONTEXT_MASK_SIGNATURE_OFFLOAD |
		       MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD;
	if (CHECK_ERR(mlx5dv_query_device(self->ctx, &dv), 0)) {
		mt_diag("sig block_prot %#x, crypto flags %#x",
			dv.sig_caps.block_prot, dv.crypto_caps.flags);
		CHECK(dv.sig_caps.block_prot != 0);
		CHECK_EQ(dv.crypto_caps.flags, 0);
	}
	attr.pd = self->pd;
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
		mt_fw_check_owner("mkey", mk->lkey >> 8, self->uid);
		if (CHECK(mt_imkey_line(self->ctx, mk->lkey, line,
					sizeof(line)))) {
			snprintf(want, sizeof(want), "0x%08x %d klm 4 %s",
				 mk->lkey, mt_imkey_uid(line, self->uid),
				 fl[i].feat);
			mt_diag("indirect_mkeys: %s", line);
			CHECK(!strcmp(line, want));
		}
		if (mt_sim() && (fl[i].flags &
				 MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE))
			/* a memory and a wire PSV */
			CHECK_EQ(mt_fw_count("psv", self->uid), 2);
		CHECK_ERR(ibv_dealloc_pd(self->pd), EBUSY);
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
		if (mt_sim()) {
			CHECK_EQ(mt_fw_count("mkey", self->uid), 0);
			CHECK_EQ(mt_fw_count("psv", self->uid), 0);
		}
		CHECK_EQ(mt_imkey_count(self->ctx, self->uid), 0);
	}
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(mt_devx_env, dv_create_mkey_indirect),
	MT_CASE_F(mt_devx_env, indirect_mkey_free),
	MT_CASE_F(mt_devx_env, indirect_mkey_entries),
	MT_CASE_F(mt_devx_env, indirect_mkey_tracked),
	MT_CASE_F(mt_devx_env, psv),
	MT_CASE_F(mt_devx_env, dv_create_mkey_flags),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
