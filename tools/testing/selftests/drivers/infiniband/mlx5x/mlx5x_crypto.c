// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Crypto offload: the crypto caps mlx5dv_query_device(3) reports in each
 * mode of the model (debugfs fw/crypto: none, plaintext, wrapped),
 * mlx5dv_create_mkey(3) with MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO,
 * mlx5dv_dek_create(3) / query / destroy, mlx5dv_crypto_login(3) and
 * mlx5dv_crypto_login_create(3), then the same objects through raw DEVX
 * mailboxes (every firmware rule, another process's objects), and the
 * access check of fw/mkey_access: traffic through a crypto mkey no UMR
 * configured is an error.
 *
 * Every case sets the mode it needs and leaves the model in "none"; on
 * hardware (no model) they skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define TYPE_DEK		PRM_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY
/* not in 6.1's mlx5_ifc.h (nor 6.12's) */
#define TYPE_CRYPTO_LOGIN	0x1f

#define MODE_MTT		1
#define MODE_KLM		2
#define PAGE			4096
#define NPAGES			4
#define VA			0x7f0000000000ULL
#define KLM_BYTES		16

#define IN(f)			PRM_CREATE_MKEY_IN_##f
#define MKC(f)			PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_##f
#define HDR(f)			PRM_IN_##f

/* An ENCRYPTION_KEY (DEK) or CRYPTO_LOGIN object after the header. */
#define OBJ_BYTES		PRM_ENCRYPTION_KEY_OBJ_BYTES
#define GEN_IN_BYTES		(PRM_IN_BYTES + OBJ_BYTES)
#define O(off, sz)		MT_FIELD(PRM_IN_BYTES * 8 + (off), (sz))
#define DEK(f)			O(PRM_ENCRYPTION_KEY_OBJ_##f.off, \
				  PRM_ENCRYPTION_KEY_OBJ_##f.sz)
#define DEK_KEY_SIZE		DEK(KEY_SIZE)
#define DEK_PURPOSE		DEK(KEY_TYPE)	/* 6.12: key_purpose */
#define DEK_PD			DEK(PD)
#define DEK_KEY_BYTE		(PRM_IN_BYTES + \
				 PRM_ENCRYPTION_KEY_OBJ_KEY_OFF / 8)
#define PURPOSE_TLS		PRM_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_TYPE_TLS
#define PURPOSE_AES_XTS		3	/* not in 6.1's mlx5_ifc.h */
/* reserved in 6.1's encryption_key_obj, named in 6.12's */
#define DEK_STATE		O(0x40, 8)
#define DEK_SW_WRAPPED		O(0x48, 1)
#define DEK_OPAQUE_BYTE		(PRM_IN_BYTES + 0x180 / 8)
/* no kernel's mlx5_ifc.h names these (6.1, 6.12): the model's layout */
#define DEK_HAS_KEYTAG		O(0x58, 1)
#define LOGIN_STATE		O(0x84, 4)
#define LOGIN_CREDENTIAL	O(0x88, 24)
#define LOGIN_IMPORT_KEK	O(0xa8, 24)

static const char opaque[8] = "crypto";

static bool set_mode(const char *mode)
{
	return CHECK_ERR(mt_fw_write("crypto", mode), 0);
}

/*
 * Close @e if it is open, set the crypto mode and open it again: libmlx5
 * reads the crypto caps at open.
 */
static bool reopen(struct mt_devx_env *e, const char *mode)
{
	mt_devx_env_close(e);
	return set_mode(mode) && mt_devx_env_open(e, NPAGES * PAGE);
}

/*
 * A DEVX context with a PD and a umem of NPAGES pages, opened with crypto
 * off or in the wrapped mode; a case may reopen() it in another.  After
 * the case nothing of the context is left in the model, and crypto is
 * off again.
 */
struct crypto_off {
	struct mt_devx_env e;
};

struct crypto_wrapped {
	struct mt_devx_env e;
};

static void crypto_close(struct mt_devx_env *e)
{
	mt_devx_env_close(e);
	set_mode("none");
}

MT_FIXTURE(crypto_off);

MT_FIXTURE_SETUP(crypto_off)
{
	return reopen(&self->e, "none") ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(crypto_off)
{
	crypto_close(&self->e);
}

MT_FIXTURE(crypto_wrapped);

MT_FIXTURE_SETUP(crypto_wrapped)
{
	return reopen(&self->e, "wrapped") ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(crypto_wrapped)
{
	crypto_close(&self->e);
}

/* What libmlx5 reports of crypto in each mode. */
static int test_crypto_caps(void)
{
	static const struct {
		const char *mode;
		uint64_t flags;
		uint8_t import;
	} modes[] = {
		{ "none", 0, 0 },
		{ "plaintext", MLX5DV_CRYPTO_CAPS_CRYPTO, 0 },
		{ "wrapped", MLX5DV_CRYPTO_CAPS_CRYPTO |
			     MLX5DV_CRYPTO_CAPS_WRAPPED_CRYPTO_OPERATIONAL,
		  MLX5DV_CRYPTO_WRAPPED_IMPORT_METHOD_CAP_AES_XTS },
	};
	const uint8_t engines = MLX5DV_CRYPTO_ENGINES_CAP_AES_XTS_SINGLE_BLOCK |
				MLX5DV_CRYPTO_ENGINES_CAP_AES_XTS_MULTI_BLOCK;
	struct mlx5dv_context dv;
	struct ibv_context *ctx;
	char buf[32];
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(modes); i++) {
		if (!set_mode(modes[i].mode))
			break;
		if (CHECK_ERR(mt_fw_knob("crypto", buf, sizeof(buf)), 0))
			CHECK(!strcmp(buf, modes[i].mode));
		ctx = mt_open(MT_OPEN_DEVX, NULL);
		if (!CHECK(ctx))
			break;
		memset(&dv, 0, sizeof(dv));
		dv.comp_mask = MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD;
		if (CHECK_ERR(mlx5dv_query_device(ctx, &dv), 0)) {
			mt_diag("%s: comp_mask %#llx flags %#x engines %#x import %#x log_max_num_deks %u failed_selftests %#x",
				modes[i].mode,
				(unsigned long long)dv.comp_mask,
				dv.crypto_caps.flags,
				dv.crypto_caps.crypto_engines,
				dv.crypto_caps.wrapped_import_method,
				dv.crypto_caps.log_max_num_deks,
				dv.crypto_caps.failed_selftests);
			CHECK(dv.comp_mask & MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD);
			CHECK_EQ(dv.crypto_caps.flags, modes[i].flags);
			CHECK_EQ(dv.crypto_caps.wrapped_import_method,
				 modes[i].import);
			CHECK_EQ(dv.crypto_caps.failed_selftests, 0);
			if (modes[i].flags) {
				CHECK_EQ(dv.crypto_caps.crypto_engines &
					 engines, engines);
				CHECK_EQ(dv.crypto_caps.log_max_num_deks, 12);
			} else {
				CHECK_EQ(dv.crypto_caps.crypto_engines, 0);
			}
		}
		CHECK_EQ(ibv_close_device(ctx), 0);
	}
	/* nothing else is a mode */
	CHECK_ERR(mt_fw_write("crypto", "aes"), -EINVAL);
	set_mode("none");
	return KSFT_PASS;
}

/*
 * fw/mkey_access: write "KEY VA LEN RIGHTS" and read the verdict from
 * the same open file.
 */
static bool probe(uint32_t key, uint64_t va, uint64_t len, const char *rights,
		  char *out, size_t outlen)
{
	char path[sizeof(mt.dbg) + 16], cmd[96];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/mkey_access", mt.dbg);
	fd = open(path, O_RDWR);
	if (!CHECK(fd >= 0))
		return false;
	snprintf(cmd, sizeof(cmd), "0x%x 0x%llx %llu %s", key,
		 (unsigned long long)va, (unsigned long long)len, rights);
	n = write(fd, cmd, strlen(cmd));
	if (!CHECK_EQ(n, (ssize_t)strlen(cmd))) {
		close(fd);
		return false;
	}
	n = read(fd, out, outlen - 1);
	close(fd);
	if (!CHECK(n > 0))
		return false;
	out[n] = '\0';
	mt_diag("mkey_access %s -> %.*s", cmd, (int)strcspn(out, "\n"), out);
	return true;
}

static bool probe_verdict(uint32_t key, uint64_t va, uint64_t len,
			  const char *rights, const char *want)
{
	char out[512];

	return probe(key, va, len, rights, out, sizeof(out)) &&
	       CHECK(!strncmp(out, want, strlen(want)));
}

/*
 * mlx5dv_create_mkey(3) CRYPTO: EOPNOTSUPP from libmlx5 while the caps
 * offer none (no command reaches the device); a free KLM mkey with
 * crypto_en and a crypto BSF (8 octwords with a signature too) once they
 * do.  Nothing can pass through it: it is free, and no UMR configured its
 * crypto BSF.
 */
MT_TEST_F(crypto_off, dv_create_mkey_crypto)
{
	struct mt_devx_env *e = &self->e;
	struct mlx5dv_mkey_init_attr attr = {};
	struct mlx5dv_mkey *mk;
	char line[128], want[128];
	long long cmds;

	attr.pd = e->pd;
	attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
			    MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO;
	attr.max_entries = 1;
	cmds = mt_fw_stat("commands");
	errno = 0;
	mk = mlx5dv_create_mkey(&attr);
	CHECK(!mk);
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK_EQ(mt_fw_stat("commands"), cmds);

	if (!reopen(e, "plaintext"))
		return KSFT_FAIL;
	attr.pd = e->pd;
	attr.max_entries = 3;
	errno = 0;
	mk = mlx5dv_create_mkey(&attr);
	mt_diag("crypto: %s", mk ? "created" : strerror(errno));
	if (CHECK(mk)) {
		CHECK_EQ(attr.max_entries, 4);
		mt_fw_check_owner("mkey", mk->lkey >> 8, e->uid);
		if (CHECK(mt_imkey_line(e->ctx, mk->lkey, line,
					  sizeof(line)))) {
			snprintf(want, sizeof(want),
				 "0x%08x %d klm 4 free umr sig crypto",
				 mk->lkey, e->uid);
			mt_diag("indirect_mkeys: %s", line);
			CHECK(!strcmp(line, want));
		}
		probe_verdict(mk->lkey, 0, 16, "r", "error free 0x53000801");
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
	}
	/* with a signature: two PSVs, and a BSF for both */
	attr.create_flags |= MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE;
	attr.max_entries = 1;
	errno = 0;
	mk = mlx5dv_create_mkey(&attr);
	mt_diag("crypto + signature: %s", mk ? "created" : strerror(errno));
	if (CHECK(mk)) {
		CHECK_EQ(mt_fw_count("psv", e->uid), 2);
		CHECK_ERR(mlx5dv_destroy_mkey(mk), 0);
	}
	CHECK_EQ(mt_fw_count("mkey", e->uid), 0);
	return KSFT_PASS;
}

static void dek_attr(struct mlx5dv_dek_init_attr *a, struct ibv_pd *pd,
		     enum mlx5dv_crypto_key_size size)
{
	memset(a, 0, sizeof(*a));
	a->key_size = size;
	a->key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS;
	a->pd = pd;
	memcpy(a->opaque, opaque, sizeof(a->opaque));
	memset(a->key, 0x42, sizeof(a->key));
}

static void dek_query_ok(struct mlx5dv_dek *dek)
{
	struct mlx5dv_dek_attr qa = {};

	if (CHECK_ERR(mlx5dv_dek_query(dek, &qa), 0)) {
		CHECK_EQ(qa.state, MLX5DV_DEK_STATE_READY);
		CHECK(!memcmp(qa.opaque, opaque, sizeof(opaque)));
	}
}

/*
 * Plaintext DEKs through mlx5dv_dek_create(3): MLX5DV_DEK_INIT_ATTR_
 * CRYPTO_LOGIN with no login object says plaintext; without it libmlx5
 * wants a login (EINVAL).  Bad sizes and purposes are libmlx5's EINVAL;
 * no crypto at all is EOPNOTSUPP.  fw/crypto cannot change under a DEK.
 */
MT_TEST_F(crypto_off, dek_plaintext)
{
	struct mt_devx_env *e = &self->e;
	struct mlx5dv_dek_init_attr a;
	struct mlx5dv_dek *dek;

	dek_attr(&a, e->pd, MLX5DV_CRYPTO_KEY_SIZE_128);
	a.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
	errno = 0;
	CHECK(!mlx5dv_dek_create(e->ctx, &a));
	CHECK_ERR(errno, EOPNOTSUPP);

	if (!reopen(e, "plaintext"))
		return KSFT_FAIL;
	dek_attr(&a, e->pd, MLX5DV_CRYPTO_KEY_SIZE_256);
	a.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
	a.has_keytag = true;
	errno = 0;
	dek = mlx5dv_dek_create(e->ctx, &a);
	mt_diag("plaintext DEK: %s", dek ? "created" : strerror(errno));
	if (CHECK(dek)) {
		dek_query_ok(dek);
		CHECK_EQ(mt_fw_count("general", e->uid), 1);
		/* the mode holds while a DEK exists; the PD too */
		CHECK_ERR(mt_fw_write("crypto", "none"), -EBUSY);
		CHECK_ERR(ibv_dealloc_pd(e->pd), EBUSY);
		CHECK_ERR(mlx5dv_dek_destroy(dek), 0);
	}
	/* no login: libmlx5 takes it for a wrapped key */
	a.comp_mask = 0;
	errno = 0;
	CHECK(!mlx5dv_dek_create(e->ctx, &a));
	CHECK_ERR(errno, EINVAL);
	a.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
	a.key_size = 7;
	errno = 0;
	CHECK(!mlx5dv_dek_create(e->ctx, &a));
	CHECK_ERR(errno, EINVAL);
	a.key_size = MLX5DV_CRYPTO_KEY_SIZE_128;
	a.key_purpose = 5;
	errno = 0;
	CHECK(!mlx5dv_dek_create(e->ctx, &a));
	CHECK_ERR(errno, EINVAL);
	CHECK_EQ(mt_fw_count("general", e->uid), 0);
	return KSFT_PASS;
}

/*
 * Wrapped DEKs: mlx5dv_crypto_login(3) (one session per context),
 * its state, logout; mlx5dv_crypto_login_create(3) objects; a DEK under
 * either, and none without.
 */
MT_TEST_F(crypto_wrapped, dek_wrapped_login)
{
	struct mt_devx_env *e = &self->e;
	struct mlx5dv_crypto_login_attr la = {};
	struct mlx5dv_crypto_login_attr_ex lax = {};
	struct mlx5dv_crypto_login_query_attr lq = {};
	struct mlx5dv_crypto_login_obj *lo;
	enum mlx5dv_crypto_login_state st;
	struct mlx5dv_dek_init_attr a;
	struct mlx5dv_dek *dek;
	char cred[48];

	dek_attr(&a, e->pd, MLX5DV_CRYPTO_KEY_SIZE_128);
	errno = 0;
	CHECK(!mlx5dv_dek_create(e->ctx, &a));
	CHECK_ERR(errno, EINVAL);
	/* a plaintext key in the wrapped mode: EINVAL too */
	a.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
	errno = 0;
	CHECK(!mlx5dv_dek_create(e->ctx, &a));
	CHECK_ERR(errno, EINVAL);
	a.comp_mask = 0;
	if (CHECK_ERR(mlx5dv_crypto_login_query_state(e->ctx, &st), 0))
		CHECK_EQ(st, MLX5DV_CRYPTO_LOGIN_STATE_NO_LOGIN);
	CHECK_ERR(mlx5dv_crypto_logout(e->ctx), ENOENT);

	/*
	 * a credential the device has not: firmware refuses (BAD_PARAM,
	 * which libmlx5 turns into EINVAL), and nothing is left
	 */
	memset(la.credential, 0xc3, sizeof(la.credential));
	la.credential_id = 1;
	CHECK_ERR(mlx5dv_crypto_login(e->ctx, &la), EINVAL);
	CHECK_EQ(mt_fw_count("general", e->uid), 0);
	la.credential_id = 0;
	if (CHECK_ERR(mlx5dv_crypto_login(e->ctx, &la), 0)) {
		if (CHECK_ERR(mlx5dv_crypto_login_query_state(e->ctx, &st), 0))
			CHECK_EQ(st, MLX5DV_CRYPTO_LOGIN_STATE_VALID);
		CHECK_ERR(mlx5dv_crypto_login(e->ctx, &la), EEXIST);
		errno = 0;
		dek = mlx5dv_dek_create(e->ctx, &a);
		mt_diag("wrapped DEK: %s", dek ? "created" : strerror(errno));
		if (CHECK(dek)) {
			dek_query_ok(dek);
			/* logout: the DEK stays, queried still */
			CHECK_ERR(mlx5dv_crypto_logout(e->ctx), 0);
			dek_query_ok(dek);
			CHECK_ERR(mlx5dv_dek_destroy(dek), 0);
		} else {
			CHECK_ERR(mlx5dv_crypto_logout(e->ctx), 0);
		}
		if (CHECK_ERR(mlx5dv_crypto_login_query_state(e->ctx, &st), 0))
			CHECK_EQ(st, MLX5DV_CRYPTO_LOGIN_STATE_NO_LOGIN);
	}

	/* the login object API */
	memset(cred, 0x3c, sizeof(cred));
	lax.credential = cred;
	lax.credential_len = sizeof(cred);
	errno = 0;
	lo = mlx5dv_crypto_login_create(e->ctx, &lax);
	mt_diag("login object: %s", lo ? "created" : strerror(errno));
	if (CHECK(lo)) {
		if (CHECK_ERR(mlx5dv_crypto_login_query(lo, &lq), 0))
			CHECK_EQ(lq.state, MLX5DV_CRYPTO_LOGIN_STATE_VALID);
		a.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
		a.crypto_login = lo;
		dek = mlx5dv_dek_create(e->ctx, &a);
		if (CHECK(dek)) {
			dek_query_ok(dek);
			CHECK_ERR(mlx5dv_dek_destroy(dek), 0);
		}
		CHECK_ERR(mlx5dv_crypto_login_destroy(lo), 0);
	}
	CHECK_EQ(mt_fw_count("general", e->uid), 0);
	return KSFT_PASS;
}

/* Raw DEVX: a DEK mailbox as libmlx5 builds it. */
static void dek_in(uint8_t *in, uint32_t pdn)
{
	memset(in, 0, GEN_IN_BYTES);
	mt_set(in, HDR(OPCODE), PRM_OP_CREATE_GENERAL_OBJECT);
	mt_set(in, HDR(OBJ_TYPE), TYPE_DEK);
	mt_set(in, DEK_KEY_SIZE, 0);
	mt_set(in, DEK_PURPOSE, PURPOSE_AES_XTS);
	mt_set(in, DEK_PD, pdn);
	memcpy(in + DEK_OPAQUE_BYTE, opaque, sizeof(opaque));
	memset(in + DEK_KEY_BYTE, 0x42, 32);
}

static struct mlx5dv_devx_obj *gen_create(struct ibv_context *ctx,
					  uint8_t *in, uint32_t *out,
					  uint32_t *id)
{
	struct mlx5dv_devx_obj *obj;

	memset(out, 0, 16);
	errno = 0;
	obj = mlx5dv_devx_obj_create(ctx, in, GEN_IN_BYTES, out, 16);
	if (obj && id)
		*id = mt_get(out, PRM_OUT_OBJ_ID);
	return obj;
}

static bool refused(struct ibv_context *ctx, uint8_t *in, uint8_t status,
		    uint32_t synd, const char *what)
{
	uint32_t out[4];

	return mt_devx_refused(gen_create(ctx, in, out, NULL), out, status,
			       synd, what);
}

static int gen_query(struct mlx5dv_devx_obj *obj, uint16_t type, uint32_t id,
		     uint8_t *out)
{
	uint32_t in[4] = {};

	mt_set(in, HDR(OPCODE), PRM_OP_QUERY_GENERAL_OBJECT);
	mt_set(in, HDR(OBJ_TYPE), type);
	mt_set(in, HDR(OBJ_ID), id);
	memset(out, 0, GEN_IN_BYTES);
	return mlx5dv_devx_obj_query(obj, in, sizeof(in), out, GEN_IN_BYTES);
}

/*
 * DEKs and logins through raw DEVX mailboxes: each firmware rule, and
 * another process's DEK, PD and login.
 */
MT_TEST_F(crypto_off, devx_dek_rules)
{
	struct mt_devx_env *e = &self->e;
	uint8_t in[GEN_IN_BYTES], q[GEN_IN_BYTES];
	struct mlx5dv_devx_obj *dek;
	uint32_t out[4], id = 0;
	pid_t pid;

	dek_in(in, e->pdn);
	refused(e->ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_OPMOD, "no crypto");

	if (!reopen(e, "plaintext"))
		return KSFT_FAIL;
	dek_in(in, e->pdn);
	mt_set(in, DEK_KEY_SIZE, 2);
	refused(e->ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "key size 2");
	dek_in(in, e->pdn);
	mt_set(in, DEK_PURPOSE, PURPOSE_TLS);
	refused(e->ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_CAP, "TLS key");
	dek_in(in, e->pdn);
	mt_set(in, DEK_SW_WRAPPED, 1);
	refused(e->ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_CAP, "sw_wrapped");
	dek_in(in, e->pdn);
	mt_set(in, DEK_STATE, 1);
	refused(e->ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "state set");
	dek_in(in, e->pdn + 0x1000);
	refused(e->ctx, in, MT_STAT_BAD_RESOURCE, 0x53000006, "no such PD");
	memset(in, 0, GEN_IN_BYTES);
	mt_set(in, HDR(OPCODE), PRM_OP_CREATE_GENERAL_OBJECT);
	mt_set(in, HDR(OBJ_TYPE), TYPE_CRYPTO_LOGIN);
	refused(e->ctx, in, MT_STAT_BAD_PARAM, SYND_BAD_OPMOD,
		"a login in the plaintext mode");

	dek_in(in, e->pdn);
	mt_set(in, DEK_KEY_SIZE, 1);
	dek = gen_create(e->ctx, in, out, &id);
	if (!CHECK(dek))
		return KSFT_FAIL;
	if (CHECK_ERR(gen_query(dek, TYPE_DEK, id, q), 0)) {
		CHECK_EQ(mt_get(q, DEK_STATE), 0);
		CHECK_EQ(mt_get(q, DEK_KEY_SIZE), 1);
		CHECK_EQ(mt_get(q, DEK_PURPOSE), PURPOSE_AES_XTS);
		CHECK_EQ(mt_get(q, DEK_PD), e->pdn);
		CHECK(!memcmp(q + DEK_OPAQUE_BYTE, opaque, sizeof(opaque)));
		/* the key never comes back */
		CHECK_EQ(mt_get(q, O(PRM_ENCRYPTION_KEY_OBJ_KEY_OFF, 32)), 0);
	}
	mt_fw_check_owner("general", id, e->uid);
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *c2 = mt_open(MT_OPEN_DEVX, NULL);
		struct mlx5dv_devx_obj *theirs;
		struct mlx5dv_pd dvpd = {};
		struct mlx5dv_obj o = { .pd = { .out = &dvpd } };
		struct ibv_pd *pd2;
		uint32_t tid, o2[4];
		int bad = 0;

		if (!c2)
			_exit(2);
		pd2 = ibv_alloc_pd(c2);
		o.pd.in = pd2;
		if (!pd2 || mlx5dv_init_obj(&o, MLX5DV_OBJ_PD))
			_exit(2);
		/* a DEK under the parent's PD: not this context's */
		dek_in(in, e->pdn);
		theirs = gen_create(c2, in, o2, NULL);
		bad |= theirs || mt_get(o2, PRM_OUT_SYNDROME) != SYND_NOT_OWNER;
		dek_in(in, dvpd.pdn);
		theirs = gen_create(c2, in, o2, &tid);
		if (!theirs)
			_exit(3);
		/* its own handle naming the parent's DEK: refused */
		bad |= (gen_query(theirs, TYPE_DEK, id, q) != EINVAL) << 1;
		bad |= (gen_query(theirs, TYPE_DEK, tid, q) != 0) << 2;
		bad |= (mlx5dv_devx_obj_destroy(theirs) != 0) << 3;
		ibv_dealloc_pd(pd2);
		ibv_close_device(c2);
		_exit(bad);
	}
	CHECK_EQ(mt_reap(pid), 0);
	CHECK_ERR(mt_fw_write("crypto", "wrapped"), -EBUSY);
	CHECK_ERR(mlx5dv_devx_obj_destroy(dek), 0);

	/* wrapped: no DEK before a login of this very context */
	if (!set_mode("wrapped"))
		return KSFT_FAIL;
	dek_in(in, e->pdn);
	refused(e->ctx, in, MT_STAT_BAD_PARAM, SYND_NO_LOGIN, "no login");
	return KSFT_PASS;
}

/* An mkey mailbox over the env's umem (direct) or the key (indirect). */
static void mkey_init(uint8_t *in, int mode, uint32_t pdn, unsigned int nent)
{
	memset(in, 0, PRM_CREATE_MKEY_IN_BYTES + nent * KLM_BYTES);
	mq_mkey_in(in, mode, pdn);
}

static struct mlx5dv_devx_obj *mkey_create(struct ibv_context *ctx,
					   uint8_t *in, size_t len,
					   uint32_t *key, uint32_t *out)
{
	struct mlx5dv_devx_obj *obj;

	memset(out, 0, PRM_CREATE_MKEY_OUT_BYTES);
	errno = 0;
	obj = mlx5dv_devx_obj_create(ctx, in, len, out,
				     PRM_CREATE_MKEY_OUT_BYTES);
	if (obj && key)
		*key = mt_get(out, PRM_CREATE_MKEY_OUT_MKEY_INDEX) << 8 |
		       mt_get(in, MKC(MKEY_7_0));
	return obj;
}

static struct mlx5dv_devx_obj *direct_mkey(struct mt_devx_env *e,
					   uint32_t *key)
{
	uint8_t in[PRM_CREATE_MKEY_IN_BYTES];
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];

	/* the whole umem, 4 KiB pages: NPAGES / 2 octwords */
	mkey_init(in, MODE_MTT, e->pdn, 0);
	mq_mkey_direct_in(in, e->pdn, e->umem->umem_id, 0, VA, NPAGES * PAGE);
	mt_set(in, MKC(MKEY_7_0), 0x3c);
	return mkey_create(e->ctx, in, sizeof(in), key, out);
}

/* A KLM mkey in use with one entry over @key, crypto or not. */
static void klm_in(uint8_t *in, uint32_t pdn, uint32_t key, bool crypto)
{
	unsigned int off = IN(KLM_PAS_MTT_OFF);

	mkey_init(in, MODE_KLM, pdn, 1);
	mt_set(in, MKC(UMR_EN), 1);
	mt_set(in, MKC(TRANSLATIONS_OCTWORD_SIZE), 4);
	mt_set(in, IN(TRANSLATIONS_OCTWORD_ACTUAL_SIZE), 1);
	mq_set64(in, MKC(LEN_OFF), PAGE);
	mt_set(in, MT_FIELD(off, 32), PAGE);
	mt_set(in, MT_FIELD(off + 32, 32), key);
	mq_set64(in, off + 64, VA + PAGE);
	if (crypto) {
		mt_set(in, MKC_CRYPTO_EN, 1);
		mt_set(in, MKC(BSF_EN), 1);
		mt_set(in, MKC(BSF_OCTWORD_SIZE), 4);
	}
}

static bool mkey_refused(struct ibv_context *ctx, uint8_t *in, size_t len,
			 uint32_t synd, const char *what)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];

	return mt_devx_refused(mkey_create(ctx, in, len, NULL, out), out,
			       MT_STAT_BAD_PARAM, synd, what);
}

/*
 * crypto_en through raw CREATE_MKEY: BAD_CAP without crypto; only on an
 * indirect umr_en mkey with a crypto BSF; crypto_en 2 is reserved.  Then
 * the access check: a KLM mkey in use passes traffic to its direct mkey,
 * the same with crypto_en does not until a UMR configures it.
 */
MT_TEST_F(crypto_off, crypto_mkey_access)
{
	struct mt_devx_env *e = &self->e;
	uint8_t in[PRM_CREATE_MKEY_IN_BYTES + KLM_BYTES];
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];
	struct mlx5dv_devx_obj *direct = NULL, *plain = NULL, *crypto = NULL;
	uint32_t dkey = 0, pkey = 0, ckey = 0;
	char verdict[512], want[96];

	direct = direct_mkey(e, &dkey);
	if (!CHECK(direct))
		goto out;
	klm_in(in, e->pdn, dkey, true);
	mkey_refused(e->ctx, in, sizeof(in), SYND_BAD_CAP,
		     "crypto_en, no caps");
	if (!set_mode("plaintext"))
		goto out;
	klm_in(in, e->pdn, dkey, true);
	mt_set(in, MKC(UMR_EN), 0);
	mkey_refused(e->ctx, in, sizeof(in), SYND_BAD_FIELD, "no umr_en");
	klm_in(in, e->pdn, dkey, true);
	mt_set(in, MKC(BSF_EN), 0);
	mt_set(in, MKC(BSF_OCTWORD_SIZE), 0);
	mkey_refused(e->ctx, in, sizeof(in), SYND_BAD_FIELD, "no BSF");
	klm_in(in, e->pdn, dkey, true);
	mt_set(in, MKC_CRYPTO_EN, 2);
	mkey_refused(e->ctx, in, sizeof(in), SYND_BAD_FIELD, "crypto_en 2");
	mkey_init(in, MODE_MTT, e->pdn, 0);
	mq_mkey_direct_in(in, e->pdn, e->umem->umem_id, 0, 0, PAGE);
	mt_set(in, MKC_CRYPTO_EN, 1);
	mkey_refused(e->ctx, in, PRM_CREATE_MKEY_IN_BYTES, SYND_BAD_FIELD,
		     "crypto_en on a direct mkey");

	klm_in(in, e->pdn, dkey, false);
	plain = mkey_create(e->ctx, in, sizeof(in), &pkey, out);
	klm_in(in, e->pdn, dkey, true);
	crypto = mkey_create(e->ctx, in, sizeof(in), &ckey, out);
	if (!CHECK(plain) || !CHECK(crypto))
		goto out;
	/* the direct mkey: its pages, its range */
	if (probe(dkey, VA + 16, 100, "rw", verdict, sizeof(verdict))) {
		snprintf(want, sizeof(want), "ok\nseg 0x%x 0x%llx 100\n", dkey,
			 (unsigned long long)VA + 16);
		CHECK(!strcmp(verdict, want));
	}
	probe_verdict(dkey, VA + NPAGES * PAGE - 8, 16, "r",
		      "error range 0x53000803");
	probe_verdict(dkey, VA, 8, "W", "error access 0x53000802");
	/* through the KLM mkey: its one entry, a page into the direct one */
	if (probe(pkey, 8, 64, "r", verdict, sizeof(verdict))) {
		snprintf(want, sizeof(want), "ok\nseg 0x%x 0x%llx 64\n", dkey,
			 (unsigned long long)VA + PAGE + 8);
		CHECK(!strcmp(verdict, want));
	}
	probe_verdict(pkey, PAGE - 8, 16, "r", "error range 0x53000803");
	/* the crypto one: no UMR wrote its crypto BSF */
	probe_verdict(ckey, 8, 64, "r", "error crypto_unconfigured 0x53000805");
	probe_verdict(ckey + 1, 8, 64, "r", "error no_object");
	CHECK_ERR(mt_fw_write("mkey_access", "1 2"), -EINVAL);
out:
	if (crypto)
		CHECK_ERR(mlx5dv_devx_obj_destroy(crypto), 0);
	if (plain)
		CHECK_ERR(mlx5dv_devx_obj_destroy(plain), 0);
	if (direct)
		CHECK_ERR(mlx5dv_devx_obj_destroy(direct), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(crypto_caps, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(crypto_off, dv_create_mkey_crypto, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(crypto_off, dek_plaintext, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(crypto_wrapped, dek_wrapped_login, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(crypto_off, devx_dek_rules, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(crypto_off, crypto_mkey_access, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
