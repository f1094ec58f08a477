// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Builders the selftest programs share; see mlx5x_fixtures.h.
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

/* ---- DEVX flow steering ---- */

#define MT_FT_NIC_RX		0	/* flow_table_type */
#define MT_FTE_IN_BYTES		(PRM_SET_FTE_IN_BYTES + 8)	/* one dest */

/**
 * mt_devx_rx_table() - a DEVX flow table of NIC RX at level 0, of 16
 * entries, with one group of them all matching the TCP destination port
 * @ctx: the context
 * @ft: the table, or NULL
 * @ft_id: its id
 * @fg: the group, or NULL
 * @fg_id: its id
 *
 * Return: true when both were made (each failure is a failed check).
 */
bool mt_devx_rx_table(struct ibv_context *ctx, struct mlx5dv_devx_obj **ft,
		      uint32_t *ft_id, struct mlx5dv_devx_obj **fg,
		      uint32_t *fg_id)
{
	uint32_t tin[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {};
	uint32_t tout[PRM_CREATE_FLOW_TABLE_OUT_BYTES / 4] = {};
	uint32_t gin[PRM_CREATE_FLOW_GROUP_IN_BYTES / 4] = {};
	uint32_t gout[PRM_CREATE_FLOW_GROUP_OUT_BYTES / 4] = {};

	*fg = NULL;
	*fg_id = 0;
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_TABLE_TYPE, MT_FT_NIC_RX);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LOG_SIZE, 4);
	*ft = mlx5dv_devx_obj_create(ctx, tin, sizeof(tin), tout,
				     sizeof(tout));
	*ft_id = *ft ? mt_get(tout, PRM_CREATE_FLOW_TABLE_OUT_TABLE_ID) : 0;
	if (!CHECK(*ft))
		return false;
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_OPCODE, PRM_OP_CREATE_FLOW_GROUP);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_TYPE, MT_FT_NIC_RX);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_ID, *ft_id);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_END_FLOW_INDEX, 15);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE, 1);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_OUTER_HEADERS_TCP_DPORT,
	       0xffff);
	*fg = mlx5dv_devx_obj_create(ctx, gin, sizeof(gin), gout,
				     sizeof(gout));
	*fg_id = *fg ? mt_get(gout, PRM_CREATE_FLOW_GROUP_OUT_GROUP_ID) : 0;
	return CHECK(*fg);
}

/**
 * mt_devx_fwd() - an entry of a table of mt_devx_rx_table(): packets to
 * a TCP destination port go on to another flow table
 * @ctx: the context
 * @ft: the table's id
 * @fg: its group's id
 * @index: the entry's index (0 to 15)
 * @dport: the port
 * @to: the flow table's id
 * @out: the command's output (16 bytes: status and syndrome), or NULL
 *
 * Return: the entry, or NULL with errno set.
 */
struct mlx5dv_devx_obj *mt_devx_fwd(struct ibv_context *ctx, uint32_t ft,
				    uint32_t fg, uint32_t index,
				    uint16_t dport, uint32_t to, uint32_t *out)
{
	uint32_t in[MT_FTE_IN_BYTES / 4] = {}, own[4];
	uint8_t *list = (uint8_t *)in + PRM_SET_FTE_IN_BYTES;

	mt_set(in, PRM_SET_FTE_IN_OPCODE, PRM_OP_SET_FLOW_TABLE_ENTRY);
	mt_set(in, PRM_SET_FTE_IN_TABLE_TYPE, MT_FT_NIC_RX);
	mt_set(in, PRM_SET_FTE_IN_TABLE_ID, ft);
	mt_set(in, PRM_SET_FTE_IN_FLOW_INDEX, index);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_GROUP_ID, fg);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_ACTION,
	       PRM_FLOW_CONTEXT_ACTION_FWD_DEST);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_DESTINATION_LIST_SIZE, 1);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MATCH_VALUE_OUTER_HEADERS_TCP_DPORT,
	       dport);
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_TYPE, 1); /* table */
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_ID, to);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out ? out : own,
				      16);
}

/**
 * mt_flow_counter() - a DEVX flow counter
 * @ctx: a DEVX context
 * @id: its flow_counter_id (0 when none was made)
 *
 * Return: the counter, or NULL with errno set.
 */
struct mlx5dv_devx_obj *mt_flow_counter(struct ibv_context *ctx, uint32_t *id)
{
	uint32_t in[PRM_ALLOC_FLOW_COUNTER_IN_BYTES / 4] = {};
	uint32_t out[PRM_ALLOC_FLOW_COUNTER_OUT_BYTES / 4] = {};
	struct mlx5dv_devx_obj *o;

	mt_set(in, PRM_ALLOC_FLOW_COUNTER_IN_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	o = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	*id = o ? mt_get(out, PRM_ALLOC_FLOW_COUNTER_OUT_FLOW_COUNTER_ID) : 0;
	return o;
}

/**
 * mt_flow_counted() - the packets a flow counter counted
 * @o: the counter (or the bulk holding it)
 * @id: its flow_counter_id
 *
 * Return: the count, or -1 when the query failed.
 */
long long mt_flow_counted(struct mlx5dv_devx_obj *o, uint32_t id)
{
	uint32_t in[PRM_QUERY_FLOW_COUNTER_IN_BYTES / 4] = {}, out[8] = {};

	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_FLOW_COUNTER_ID, id);
	if (mlx5dv_devx_obj_query(o, in, sizeof(in), out, sizeof(out)))
		return -1;
	return mt_get64(out, PRM_QUERY_FLOW_COUNTER_OUT_FLOW_STATISTICS_OFF +
			 PRM_TRAFFIC_COUNTER_PACKETS_OFF);
}

/**
 * mt_dv_flow() - mlx5dv_create_flow(3) of a match value, which it frees
 * @m: the matcher
 * @v: the value (calloc'ed), or NULL when making it failed (a failed check)
 * @act: the actions
 * @n: how many
 *
 * Return: the flow, or NULL with errno set.
 */
struct ibv_flow *mt_dv_flow(struct mlx5dv_flow_matcher *m,
			    struct mlx5dv_flow_match_parameters *v,
			    struct mlx5dv_flow_action_attr *act, size_t n)
{
	struct ibv_flow *f;

	if (!CHECK(v))
		return NULL;
	errno = 0;
	f = mlx5dv_create_flow(m, v, n, act);
	free(v);
	return f;
}

/**
 * mt_anchor() - a steering anchor (mlx5dv_create_steering_anchor(3))
 * @ctx: the context
 * @type: its MLX5DV_FLOW_TABLE_TYPE_*
 * @prio: its priority
 *
 * Return: the anchor, or NULL with errno set.
 */
struct mlx5dv_steering_anchor *mt_anchor(struct ibv_context *ctx, int type,
					 int prio)
{
	struct mlx5dv_steering_anchor_attr attr = {
		.ft_type = type, .priority = prio,
	};

	errno = 0;
	return mlx5dv_create_steering_anchor(ctx, &attr);
}

/**
 * mt_traced() - whether a classifier trace holds a line fragment
 * @trace: the trace
 * @fmt: the fragment, printf-style
 *
 * The trace goes to the log when it lacks the fragment.
 *
 * Return: whether it holds it.
 */
bool mt_traced(const char *trace, const char *fmt, ...)
{
	char want[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (strstr(trace, want))
		return true;
	mt_diag("trace lacks \"%s\":\n%s", want, trace);
	return false;
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

/* ---- the model's classifier ---- */

/* Ethernet 02:..:02 -> 02:..:01, IPv4 10.0.0.1 -> 10.0.0.2, TCP to 80. */
const uint8_t mt_tcp80[MT_TCP80_BYTES] = {
	0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x08, 0x00,
	0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 6, 0, 0,
	10, 0, 0, 1, 10, 0, 0, 2,
	0x30, 0x39, 0, 80, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
	0, 0, 0, 0,
};

/**
 * mt_classify() - walk a packet through the model's steering pipeline
 * (fw/classify) and read the trace of the walk back
 * @dir: "rx" or "tx"
 * @port: the port it arrives on or leaves by
 * @hex: the packet's bytes, each as two hex digits
 * @trace: the trace, NUL-terminated ("" when there is none)
 * @len: @trace's size
 *
 * Return: 0, or the -errno of opening the file, of the write (the model
 * refuses what it cannot parse with -EINVAL) or of the read.
 */
int mt_classify(const char *dir, int port, const char *hex, char *trace,
		size_t len)
{
	char path[sizeof(mt.dbg) + 16], *line;
	int fd, err = 0;
	ssize_t n;

	trace[0] = '\0';
	snprintf(path, sizeof(path), "%s/classify", mt.dbg);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	if (asprintf(&line, "%s %d %s\n", dir, port, hex) < 0) {
		close(fd);
		return -ENOMEM;
	}
	if (write(fd, line, strlen(line)) < 0)
		err = -errno;
	free(line);
	if (!err) {
		n = read(fd, trace, len - 1);
		if (n < 0)
			err = -errno;
		else
			trace[n] = '\0';
	}
	close(fd);
	return err;
}

/**
 * mt_classify_bytes() - mt_classify() of a packet of @n bytes
 * @dir: "rx" or "tx"
 * @port: the port
 * @pkt: the packet
 * @n: its length
 * @trace: the trace, NUL-terminated
 * @len: @trace's size
 *
 * Return: as mt_classify().
 */
int mt_classify_bytes(const char *dir, int port, const void *pkt, size_t n,
		      char *trace, size_t len)
{
	const uint8_t *b = pkt;
	char *hex = malloc(2 * n + 1);
	size_t i;
	int err;

	trace[0] = '\0';
	if (!hex)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", b[i]);
	hex[2 * n] = '\0';
	err = mt_classify(dir, port, hex, trace, len);
	free(hex);
	return err;
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
