// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Builders the selftest programs share; see mlx5x_fixtures.h.  Those of
 * steering and the model's classifier are in mlx5x_fixtures_fs.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include "mlx5x_fixtures.h"
#include "mlx5x_queues.h"

/**
 * mt_ctx_open() - open a context, noting what the model held before it
 * @c: filled; close with mt_ctx_close() whether this worked or not
 * @mode: how
 *
 * Return: true when the context opened (else a failed check).
 */
bool mt_ctx_open(struct mt_ctx *c, enum mt_open_mode mode)
{
	c->base = mt_sim() ? mt_fw_total() : -1;
	c->ctx = mt_open(mode, &c->uid);
	return CHECK(c->ctx);
}

/**
 * mt_ctx_close() - close the context unless the case did, and check
 * that the model holds what it held before the context
 * @c: what mt_ctx_open() filled
 */
void mt_ctx_close(struct mt_ctx *c)
{
	if (c->ctx)
		CHECK_EQ(ibv_close_device(c->ctx), 0);
	c->ctx = NULL;
	if (c->base >= 0 && !CHECK_EQ(mt_fw_total(), c->base))
		mt_fw_dump();
}

static int mt_ctx_setup_mode(void *self, enum mt_open_mode mode)
{
	struct mt_ctx *c = self;

	if (mode == MT_OPEN_NODEVX && !mt_sim()) {
		c->base = -1;	/* nothing opened: the teardown checks nothing */
		return mt_skip("needs the firmware model (to refuse DEVX)");
	}
	return mt_ctx_open(self, mode) ? KSFT_PASS : KSFT_FAIL;
}

static int mt_ctx_setup(void *self)
{
	return mt_ctx_setup_mode(self, MT_OPEN_DEFAULT);
}

static int mt_devx_ctx_setup(void *self)
{
	return mt_ctx_setup_mode(self, MT_OPEN_DEVX);
}

static int mt_nodevx_ctx_setup(void *self)
{
	return mt_ctx_setup_mode(self, MT_OPEN_NODEVX);
}

/**
 * mt_ctx_setup_need() - a fixture's setup on struct mt_ctx: the context
 * opened @mode if the case can run here
 * @c: the fixture
 * @mode: how to open it
 * @need: KSFT_PASS when the case can run here, else KSFT_SKIP with
 *	  mt_skip() saying why; NULL: it can
 *
 * Its teardown is mt_ctx_teardown(), which after a skip checks nothing.
 *
 * Return: KSFT_PASS, KSFT_SKIP, or KSFT_FAIL (a failed check).
 */
int mt_ctx_setup_need(struct mt_ctx *c, enum mt_open_mode mode,
		      int (*need)(void))
{
	int rc = need ? need() : KSFT_PASS;

	if (rc != KSFT_PASS) {
		c->base = -1;
		return rc;
	}
	return mt_ctx_open(c, mode) ? KSFT_PASS : KSFT_FAIL;
}

/* The teardown of a fixture on struct mt_ctx: mt_ctx_close(). */
void mt_ctx_teardown(void *self)
{
	mt_ctx_close(self);
}

const struct mt_fixture mt_ctx_fixture = {
	.name = "mt_ctx",
	.size = sizeof(struct mt_ctx),
	.setup = mt_ctx_setup,
	.teardown = mt_ctx_teardown,
};

const struct mt_fixture mt_devx_ctx_fixture = {
	.name = "mt_devx_ctx",
	.size = sizeof(struct mt_ctx),
	.setup = mt_devx_ctx_setup,
	.teardown = mt_ctx_teardown,
};

const struct mt_fixture mt_nodevx_ctx_fixture = {
	.name = "mt_nodevx_ctx",
	.size = sizeof(struct mt_ctx),
	.setup = mt_nodevx_ctx_setup,
	.teardown = mt_ctx_teardown,
};

static int mt_mq_setup(void *self)
{
	struct mt_mq *m = self;

	m->base = mt_sim() ? mt_fw_total() : -1;
	return mq_open(&m->q) ? KSFT_PASS : KSFT_FAIL;
}

static void mt_mq_teardown(void *self)
{
	struct mt_mq *m = self;

	mq_close(&m->q);
	if (m->base < 0)
		return;
	if (m->q.uid > 0)
		CHECK_EQ(mt_fw_count(NULL, m->q.uid), 0);
	if (!CHECK_EQ(mt_fw_total(), m->base))
		mt_fw_dump();
}

const struct mt_fixture mt_mq_fixture = {
	.name = "mt_mq",
	.size = sizeof(struct mt_mq),
	.setup = mt_mq_setup,
	.teardown = mt_mq_teardown,
};

/**
 * mt_devx_env_open() - open a DEVX context with a PD and a umem
 * @e: filled as far as it gets; close with mt_devx_env_close() either way
 * @umem_bytes: the umem's length, a multiple of MT_PAGE
 *
 * Return: true when every step worked (each failure is a failed check).
 */
bool mt_devx_env_open(struct mt_devx_env *e, size_t umem_bytes)
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
	if (posix_memalign(&e->buf, MT_PAGE, umem_bytes))
		return CHECK(false);
	e->len = umem_bytes;
	memset(e->buf, 0, umem_bytes);
	/* 4 KiB pages, whatever the memory underneath */
	uin.addr = e->buf;
	uin.size = umem_bytes;
	uin.access = IBV_ACCESS_LOCAL_WRITE;
	uin.pgsz_bitmap = MT_PAGE;
	e->umem = mlx5dv_devx_umem_reg_ex(e->ctx, &uin);
	return CHECK(e->umem);
}

/**
 * mt_devx_env_close() - free what mt_devx_env_open() made
 * @e: the environment, whole or made half way
 *
 * Checks each free, and that the model holds nothing of the context after.
 */
void mt_devx_env_close(struct mt_devx_env *e)
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
	memset(e, 0, sizeof(*e));
}

/**
 * mt_verbs_env_open() - open a context with a PD and a CQ
 * @e: filled as far as it gets; close with mt_verbs_env_close() either way
 * @mode: how the context is opened (MT_OPEN_NODEVX needs the model)
 *
 * Return: true when every step worked (each failure is a failed check).
 */
bool mt_verbs_env_open(struct mt_verbs_env *e, enum mt_open_mode mode)
{
	memset(e, 0, sizeof(*e));
	e->base = mt_sim() ? mt_fw_count(NULL, -1) : -1;
	e->ctx = mt_open(mode, &e->uid);
	if (!CHECK(e->ctx))
		return false;
	e->pd = ibv_alloc_pd(e->ctx);
	e->cq = ibv_create_cq(e->ctx, 64, NULL, NULL, 0);
	return CHECK(e->pd) && CHECK(e->cq);
}

/**
 * mt_verbs_env_close() - free what mt_verbs_env_open() made
 * @e: the environment, whole or made half way
 *
 * The caller frees what it made on the environment first.  Checks each
 * free, and that the model holds what it held before the context.
 */
void mt_verbs_env_close(struct mt_verbs_env *e)
{
	if (e->cq)
		CHECK_ERR(ibv_destroy_cq(e->cq), 0);
	if (e->pd)
		CHECK_ERR(ibv_dealloc_pd(e->pd), 0);
	if (e->ctx)
		CHECK_EQ(ibv_close_device(e->ctx), 0);
	if (e->base >= 0 && !CHECK_EQ(mt_fw_count(NULL, -1), e->base))
		mt_fw_dump();
	memset(e, 0, sizeof(*e));
}

/**
 * mt_qp_to_rts() - take a RAW_PACKET QP from RESET through INIT and RTR
 * to RTS on port 1
 * @qp: the QP
 *
 * Return: 0, or the errno of the transition that failed.
 */
int mt_qp_to_rts(struct ibv_qp *qp)
{
	static const enum ibv_qp_state steps[] = {
		IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS,
	};
	struct ibv_qp_attr a = { .port_num = 1 };
	unsigned int i;
	int err;

	for (i = 0; i < MT_ARRAY_SIZE(steps); i++) {
		a.qp_state = steps[i];
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE |
				    (i ? 0 : IBV_QP_PORT));
		if (err)
			return err;
	}
	return 0;
}

/**
 * mt_raw_qp() - create a RAW_PACKET QP on one CQ
 * @pd: its PD
 * @cq: its send and receive CQ
 * @wrs: send and receive queue depth
 * @sges: scatter/gather entries per WR, each way
 * @to_rts: take it to RTS (mt_qp_to_rts())
 *
 * Return: the QP, or NULL (errno set; a QP made but not moved is destroyed).
 */
struct ibv_qp *mt_raw_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			 unsigned int wrs, unsigned int sges, bool to_rts)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = wrs,
			.max_recv_wr = wrs,
			.max_send_sge = sges,
			.max_recv_sge = sges,
		},
		.qp_type = IBV_QPT_RAW_PACKET,
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &attr);
	int err;

	if (!qp || !to_rts)
		return qp;
	err = mt_qp_to_rts(qp);
	if (!err)
		return qp;
	ibv_destroy_qp(qp);
	errno = err;
	return NULL;
}

/**
 * mt_raw_qp_tir() - mt_raw_qp(), not moved, and the TIR to its RQ as the
 * model names it
 * @pd: its PD
 * @cq: its send and receive CQ
 * @wrs: send and receive queue depth
 * @sges: scatter/gather entries per WR, each way
 * @tir: the TIR's number on the model, which a trace of the classifier
 *	 names; 0 without the model, or when it was not found
 *
 * Return: the QP, or NULL; each failure (of finding the TIR too) is a
 * failed check.
 */
struct ibv_qp *mt_raw_qp_tir(struct ibv_pd *pd, struct ibv_cq *cq,
			     unsigned int wrs, unsigned int sges,
			     uint32_t *tir)
{
	struct mt_objs before = {}, after = {};
	struct mt_obj o = {};
	struct ibv_qp *qp;

	*tir = 0;
	if (mt_sim() && !CHECK_EQ(mt_fw_read(&before), 0))
		return NULL;
	qp = mt_raw_qp(pd, cq, wrs, sges, false);
	if (CHECK(qp) && mt_sim() && CHECK_EQ(mt_fw_read(&after), 0) &&
	    CHECK_EQ(mt_fw_added(&before, &after, "tir", &o, 1), 1))
		*tir = o.id;
	mt_fw_free(&before);
	mt_fw_free(&after);
	return qp;
}

/**
 * mt_devx_refused() - check that firmware refused a DEVX create
 * @obj: what the create returned; destroyed if it was made (a failed
 *	 check)
 * @out: the create's output
 * @status: the status it must hold
 * @synd: the syndrome it must hold
 * @what: what was wrong with the command, for the log
 *
 * errno, as the create left it, must be EREMOTEIO.
 *
 * Return: whether every check held.
 */
bool mt_devx_refused(struct mlx5dv_devx_obj *obj, const void *out,
		     uint8_t status, uint32_t synd, const char *what)
{
	int err = errno;
	bool ok;

	mt_diag("expect a refusal: %s", what);
	if (!CHECK(!obj)) {
		mlx5dv_devx_obj_destroy(obj);
		return false;
	}
	ok = CHECK_ERR(err, EREMOTEIO);
	ok &= CHECK_EQ(mt_get(out, PRM_OUT_STATUS), status);
	ok &= CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), synd);
	return ok;
}

/* ---- children ---- */

/**
 * mt_drop_cap() - stop using a capability: it leaves the effective set
 * @cap: the capability (CAP_*)
 *
 * What was opened with it stays open: a child opens what a case needs,
 * then drops the capability the case is about.
 *
 * Return: true when it worked.
 */
bool mt_drop_cap(unsigned int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (cap >= 64 || syscall(SYS_capget, &hdr, data))
		return false;
	data[cap / 32].effective &= ~(1U << (cap % 32));
	return !syscall(SYS_capset, &hdr, data);
}

/**
 * mt_run_child() - run a function in a child process, as the same user
 * @fn: what it runs; its return value is the child's exit status
 * @arg: passed to @fn
 *
 * mt_run_as() without the drop to another user.
 *
 * Return: @fn's value; MT_CHILD_FAILED when a check in the child failed;
 * -1 when the child died.
 */
int mt_run_child(int (*fn)(void *), void *arg)
{
	pid_t pid;

	fflush(stdout);
	pid = mt_fork();
	if (pid == 0) {
		int rc = fn(arg);

		if (mt_case_failures())
			rc = MT_CHILD_FAILED;
		fflush(stdout);
		_exit(rc);
	}
	return mt_reap(pid);
}

/* ---- the kernel's table of indirect mkeys ---- */

/* debugfs mlx5x/DEV/indirect_mkeys of @ctx's device, or NULL */
static FILE *mt_imkey_open(struct ibv_context *ctx)
{
	char path[256];

	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/mlx5x/%s/indirect_mkeys",
		 ctx->device->name);
	return fopen(path, "r");
}

/**
 * mt_imkey_line() - the line of a key in the kernel's table of indirect
 * mkeys (debugfs indirect_mkeys: "KEY UID FEATURES...")
 * @ctx: a context of the device
 * @key: the mkey
 * @line: its line, without the newline; "" when the key is not there
 * @len: @line's size
 *
 * Return: whether the table could be read.
 */
bool mt_imkey_line(struct ibv_context *ctx, uint32_t key, char *line,
		   size_t len)
{
	FILE *f = mt_imkey_open(ctx);
	bool found = false;
	char want[16];

	line[0] = '\0';
	if (!f)
		return false;
	snprintf(want, sizeof(want), "0x%08x ", key);
	while (!found && fgets(line, len, f))
		found = !strncmp(line, want, strlen(want));
	if (!found)
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	fclose(f);
	return true;
}

/**
 * mt_imkey_uid() - the uid a line of the table names
 * @line: the line (mt_imkey_line())
 * @uid: the context's uid as the model shows it, or -1
 *
 * Return: @uid when the model shows it, else the kernel's word for it, as
 * on hardware; -1 when the line names none.
 */
int mt_imkey_uid(const char *line, int uid)
{
	int named = -1;

	if (uid >= 0)
		return uid;
	if (sscanf(line, "0x%*x %d", &named) != 1)
		mt_diag("no uid in '%s'", line);
	return named;
}

/**
 * mt_imkey_count() - how many lines of the table belong to a uid
 * @ctx: a context of the device
 * @uid: the uid
 *
 * Return: the count, or -1 when the table cannot be read.
 */
int mt_imkey_count(struct ibv_context *ctx, int uid)
{
	FILE *f = mt_imkey_open(ctx);
	unsigned int key, u;
	char line[128];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "0x%x %u", &key, &u) == 2 && (int)u == uid)
			n++;
	fclose(f);
	return n;
}

/* ---- the model's data path figures ---- */

/**
 * mt_dp_figure() - one figure of the model's fw/datapath
 * @path: the file; NULL: the datapath file of the device under test
 * @line: how the figure's line starts ("passes ", "wire ", "roce ",
 *	  "rq 0x12 ")
 * @name: the figure: the word its value follows on that line
 *
 * Return: its value (decimal, or hexadecimal after 0x), or -1 when the
 * file, the line or the figure is not there.
 */
long long mt_dp_figure(const char *path, const char *line, const char *name)
{
	char dflt[sizeof(mt.dbg) + 16], buf[16384], *l, *w, *ls, *ws;

	if (!path) {
		snprintf(dflt, sizeof(dflt), "%s/datapath", mt.dbg);
		path = dflt;
	}
	if (mt_read_file(path, buf, sizeof(buf)))
		return -1;
	for (l = strtok_r(buf, "\n", &ls); l; l = strtok_r(NULL, "\n", &ls)) {
		if (strncmp(l, line, strlen(line)))
			continue;
		for (w = strtok_r(l, " ", &ws); w; w = strtok_r(NULL, " ", &ws))
			if (!strcmp(w, name)) {
				w = strtok_r(NULL, " ", &ws);
				return w ? strtoll(w, NULL, 0) : -1;
			}
		return -1;
	}
	return -1;
}

/* Poll @cq for one completion, within @ms. */
bool mt_poll_one(struct ibv_cq *cq, struct ibv_wc *wc, long ms)
{
	long end = mt_now_ms() + ms;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return CHECK_EQ(n, 1);
		usleep(200);
	} while (mt_now_ms() < end);
	return CHECK(!"a completion within the time");
}

/* @wc completes @wr_id with @status, and @opcode if it succeeded. */
bool mt_wc_is(const struct ibv_wc *wc, uint64_t wr_id,
	      enum ibv_wc_status status, enum ibv_wc_opcode opcode)
{
	bool ok = CHECK_EQ(wc->wr_id, wr_id) & CHECK_EQ(wc->status, status);

	if (status == IBV_WC_SUCCESS)
		ok &= CHECK_EQ(wc->opcode, opcode);
	if (!ok)
		mt_diag("wc: wr_id %llu status %s opcode %d",
			(unsigned long long)wc->wr_id,
			ibv_wc_status_str(wc->status), wc->opcode);
	return ok;
}
