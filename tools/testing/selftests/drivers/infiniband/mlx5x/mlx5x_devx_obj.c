// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX objects: mlx5dv_devx_obj_create(3), _query, _modify, _destroy on
 * the kinds the kernel allows, and every rule that keeps them safe: the
 * allow-list, the object id of a modify/query mailbox, the kernel-built
 * destroy, firmware errors handed back with status and syndrome, and
 * teardown of what a closed context left.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"

#define QC_OUT_ID		PRM_ALLOC_Q_COUNTER_OUT_COUNTER_SET_ID
#define QC_QUERY_ID		PRM_QUERY_Q_COUNTER_IN_COUNTER_SET_ID
#define QC_QUERY_IN_BYTES	PRM_QUERY_Q_COUNTER_IN_BYTES
#define QC_QUERY_OUT_BYTES	PRM_QUERY_Q_COUNTER_OUT_BYTES
#define FC_BULK			\
	PRM_ALLOC_FLOW_COUNTER_IN_FLOW_COUNTER_BULK
#define FC_OUT_ID		PRM_ALLOC_FLOW_COUNTER_OUT_FLOW_COUNTER_ID
#define FC_QUERY_ID		PRM_QUERY_FLOW_COUNTER_IN_FLOW_COUNTER_ID
#define FC_QUERY_IN_BYTES	PRM_QUERY_FLOW_COUNTER_IN_BYTES
/* the header and one traffic_counter */
#define FC_QUERY_OUT_BYTES	(PRM_QUERY_FLOW_COUNTER_OUT_BYTES + \
				 PRM_TRAFFIC_COUNTER_BYTES)
#define FC_PACKETS_OFF		\
	(PRM_QUERY_FLOW_COUNTER_OUT_FLOW_STATISTICS_OFF + \
	 PRM_TRAFFIC_COUNTER_PACKETS_OFF)

struct devx_obj {
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
};

static struct mlx5dv_devx_obj *create(struct ibv_context *ctx, uint16_t op,
				      uint32_t *out, size_t outlen)
{
	uint32_t in[4] = {};

	mt_set(in, PRM_IN_OPCODE, op);
	memset(out, 0, outlen);
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, outlen);
}

static bool create_q_counter(struct ibv_context *ctx, struct devx_obj *o)
{
	uint32_t out[4];

	o->obj = create(ctx, PRM_OP_ALLOC_Q_COUNTER, out, sizeof(out));
	if (!CHECK(o->obj))
		return false;
	o->id = mt_get(out, QC_OUT_ID);
	return CHECK(o->id != 0);
}

static bool create_flow_counter(struct ibv_context *ctx, struct devx_obj *o)
{
	uint32_t out[4];

	o->obj = create(ctx, PRM_OP_ALLOC_FLOW_COUNTER, out, sizeof(out));
	if (!CHECK(o->obj))
		return false;
	o->id = mt_get(out, FC_OUT_ID);
	return CHECK(o->id != 0);
}

static int query_q_counter(struct devx_obj *o, uint16_t op, uint32_t id)
{
	uint32_t in[QC_QUERY_IN_BYTES / 4] = {};
	uint32_t out[QC_QUERY_OUT_BYTES / 4] = {};

	mt_set(in, PRM_IN_OPCODE, op);
	mt_set(in, QC_QUERY_ID, id);
	return mlx5dv_devx_obj_query(o->obj, in, sizeof(in), out,
				     sizeof(out));
}

MT_TEST_F(mt_ctx, q_counter_create_query_destroy)
{
	struct devx_obj qc;

	if (!create_q_counter(self->ctx, &qc))
		return KSFT_FAIL;
	mt_fw_check_owner("q_counter", qc.id, self->uid);
	CHECK_ERR(query_q_counter(&qc, PRM_OP_QUERY_Q_COUNTER, qc.id), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(qc.obj), 0);
	if (mt_sim())
		CHECK_EQ(mt_fw_count("q_counter", self->uid), 0);
	return KSFT_PASS;
}

MT_TEST_F(mt_ctx, flow_counter_create_query_destroy)
{
	uint32_t in[FC_QUERY_IN_BYTES / 4] = {};
	uint32_t out[FC_QUERY_OUT_BYTES / 4] = {};
	struct devx_obj fc;

	if (!create_flow_counter(self->ctx, &fc))
		return KSFT_FAIL;
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	mt_set(in, FC_QUERY_ID, fc.id);
	CHECK_ERR(mlx5dv_devx_obj_query(fc.obj, in, sizeof(in), out,
					sizeof(out)), 0);
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
	CHECK_EQ(mt_get64(out, FC_PACKETS_OFF), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(fc.obj), 0);
	return KSFT_PASS;
}

/* Only the allow-listed create opcodes reach firmware. */
MT_TEST_F(mt_ctx, create_opcode_not_allowed)
{
	static const uint16_t ops[] = { 0x100, 0x101, 0x600, 0x7fff, 0 };
	long long cmds = mt_sim() ? mt_fw_stat("commands") : 0;
	uint32_t out[4];
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(ops); i++) {
		errno = 0;
		CHECK(!create(self->ctx, ops[i], out, sizeof(out)));
		CHECK_ERR(errno, EINVAL);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	return KSFT_PASS;
}

/* A query must name the handle's own object, with a command of its kind. */
MT_TEST_F(mt_ctx, query_must_name_own_object)
{
	uint32_t in[FC_QUERY_IN_BYTES / 4] = {};
	uint32_t out[FC_QUERY_OUT_BYTES / 4] = {};
	struct devx_obj qc, qc2, fc;

	if (!create_q_counter(self->ctx, &qc) ||
	    !create_q_counter(self->ctx, &qc2) ||
	    !create_flow_counter(self->ctx, &fc))
		goto out;
	/* another object's id, even one of the same context */
	CHECK_ERR(query_q_counter(&qc, PRM_OP_QUERY_Q_COUNTER, qc2.id), EINVAL);
	CHECK_ERR(query_q_counter(&qc, PRM_OP_QUERY_Q_COUNTER, 0), EINVAL);
	/* a command of another kind */
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	mt_set(in, FC_QUERY_ID, qc.id);
	CHECK_ERR(mlx5dv_devx_obj_query(qc.obj, in, sizeof(in), out,
					sizeof(out)), EINVAL);
	/* a create opcode is no query */
	CHECK_ERR(query_q_counter(&qc, PRM_OP_ALLOC_Q_COUNTER, qc.id), EINVAL);
	/* no modify command is allowed on a counter */
	CHECK_ERR(mlx5dv_devx_obj_modify(qc.obj, in, sizeof(in), out,
					 sizeof(out)), EINVAL);
	/* a mailbox too short to hold the id */
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	mt_set(in, FC_QUERY_ID, fc.id);
	CHECK_ERR(mlx5dv_devx_obj_query(fc.obj, in, 16, out, sizeof(out)),
		  EINVAL);
	CHECK_ERR(mlx5dv_devx_obj_query(fc.obj, in, sizeof(in), out,
					sizeof(out)), 0);
out:
	/* left for ibv_close_device() to tear down */
	CHECK_EQ(ibv_close_device(self->ctx), 0);
	self->ctx = NULL;
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count("q_counter", self->uid), 0);
		CHECK_EQ(mt_fw_count("flow_counter", -1), 0);
	}
	return KSFT_PASS;
}

/* Firmware's refusal comes back as EREMOTEIO with status and syndrome. */
MT_TEST_F(mt_ctx, firmware_error_status_syndrome)
{
	uint32_t in[4] = {}, out[4];
	struct mlx5dv_devx_obj *obj;

	mt_set(in, PRM_IN_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	mt_set(in, FC_BULK, 3);		/* 3 * 128: no bulk size */
	memset(out, 0xa5, sizeof(out));
	errno = 0;
	obj = mlx5dv_devx_obj_create(self->ctx, in, sizeof(in), out,
				     sizeof(out));
	if (CHECK(!obj)) {
		CHECK_ERR(errno, EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_PARAM);
		CHECK(mt_get(out, PRM_OUT_SYNDROME) != 0);
	}
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count("flow_counter", -1), 0);
		CHECK_EQ(mt_fw_fail_opcode(PRM_OP_ALLOC_Q_COUNTER), 0);
		errno = 0;
		CHECK(!create(self->ctx, PRM_OP_ALLOC_Q_COUNTER, out,
			      sizeof(out)));
		CHECK_ERR(errno, EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_INTERNAL_ERR);
		CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_INJECTED);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
		CHECK_EQ(mt_fw_count("q_counter", self->uid), 0);
	}
	return KSFT_PASS;
}

/* Destroy commands are spared by fault injection: teardown never fails. */
MT_TEST_F(mt_ctx, destroy_spared_by_fault_injection)
{
	struct devx_obj qc;

	if (!create_q_counter(self->ctx, &qc))
		return KSFT_FAIL;
	CHECK_EQ(mt_fw_fail_next(1), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(qc.obj), 0);
	CHECK_EQ(mt_fw_fail_next(0), 0);
	CHECK_EQ(mt_fw_count("q_counter", self->uid), 0);
	return KSFT_PASS;
}

/* A context without DEVX may create nothing. */
static int test_no_devx_context_creates_nothing(void)
{
	/* the kernel's own (the port's counter set) stay */
	int kernel = mt_fw_count("q_counter", -1);
	struct ibv_context *ctx;
	uint32_t out[4];

	ctx = mt_open(MT_OPEN_NODEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	errno = 0;
	CHECK(!create(ctx, PRM_OP_ALLOC_Q_COUNTER, out, sizeof(out)));
	CHECK(errno == EINVAL || errno == EOPNOTSUPP);
	CHECK_EQ(mt_fw_count("q_counter", -1), kernel);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

/*
 * Many objects left behind by a closed context: all destroyed (the
 * teardown closes it, and checks nothing is left).
 */
MT_TEST_F(mt_ctx, teardown_destroys_everything)
{
	struct devx_obj o;
	int i;

	for (i = 0; i < 100; i++) {
		if (!create_flow_counter(self->ctx, &o) ||
		    (i < 50 && !create_q_counter(self->ctx, &o)))
			break;
	}
	if (mt_sim()) {
		CHECK_EQ(mt_fw_count("flow_counter", -1), 100);
		CHECK_EQ(mt_fw_count("q_counter", self->uid), 50);
	}
	return KSFT_PASS;
}

/* mlx5dv_devx_query_eqn(3): vector 0 is a live EQ; beyond the vectors no. */
MT_TEST_F(mt_ctx, query_eqn)
{
	struct ibv_context *ctx = self->ctx;
	uint32_t eqn = 0;

	if (CHECK_ERR(mlx5dv_devx_query_eqn(ctx, 0, &eqn), 0))
		mt_fw_check_owner("eq", eqn, 0);
	CHECK_ERR(mlx5dv_devx_query_eqn(ctx, ctx->num_comp_vectors, &eqn),
		  EINVAL);
	CHECK_ERR(mlx5dv_devx_query_eqn(ctx, ~0U, &eqn), EINVAL);
	return KSFT_PASS;
}

#define UMEM_BYTES	(3 * 4096)

/* mlx5dv_devx_umem_reg(3): pinned, owned by the context's uid, released. */
MT_TEST_F(mt_ctx, umem_register_deregister)
{
	struct mlx5dv_devx_umem_in uin = {};
	struct ibv_context *ctx = self->ctx;
	struct mlx5dv_devx_umem *umem;
	void *buf = NULL;

	if (posix_memalign(&buf, 4096, UMEM_BYTES))
		return mt_skip("no memory");
	memset(buf, 0, UMEM_BYTES);
	umem = mlx5dv_devx_umem_reg(ctx, buf, UMEM_BYTES,
				    IBV_ACCESS_LOCAL_WRITE);
	if (CHECK(umem)) {
		CHECK(umem->umem_id != 0);
		mt_fw_check_owner("umem", umem->umem_id, self->uid);
		CHECK_ERR(mlx5dv_devx_umem_dereg(umem), 0);
	}
	/* unaligned start and length: still whole pages underneath */
	umem = mlx5dv_devx_umem_reg(ctx, (char *)buf + 100, 5000, 0);
	if (CHECK(umem))
		CHECK_ERR(mlx5dv_devx_umem_dereg(umem), 0);
	/* no length, or an access flag DEVX does not take */
	errno = 0;
	CHECK(!mlx5dv_devx_umem_reg(ctx, buf, 0, 0));
	CHECK(errno != 0);
	errno = 0;
	CHECK(!mlx5dv_devx_umem_reg(ctx, buf, UMEM_BYTES,
				    IBV_ACCESS_MW_BIND));
	CHECK(errno == EINVAL || errno == EOPNOTSUPP);
	/* a page-size bitmap with no size at or above 4 KiB */
	uin.addr = buf;
	uin.size = UMEM_BYTES;
	uin.pgsz_bitmap = 0x800;
	errno = 0;
	CHECK(!mlx5dv_devx_umem_reg_ex(ctx, &uin));
	CHECK_ERR(errno, EINVAL);
	if (mt_sim()) {
		/* firmware refuses: the pages are released, nothing left */
		CHECK_EQ(mt_fw_fail_opcode(PRM_OP_CREATE_UMEM), 0);
		errno = 0;
		CHECK(!mlx5dv_devx_umem_reg(ctx, buf, UMEM_BYTES, 0));
		CHECK(errno != 0);
		CHECK_EQ(mt_fw_fail_opcode(-1), 0);
		CHECK_EQ(mt_fw_count("umem", self->uid), 0);
	}
	/* left for ibv_close_device() to tear down */
	CHECK(mlx5dv_devx_umem_reg(ctx, buf, UMEM_BYTES, 0));
	CHECK(mlx5dv_devx_umem_reg(ctx, buf, 4096, 0));
	CHECK_EQ(ibv_close_device(ctx), 0);
	self->ctx = NULL;
	free(buf);
	return KSFT_PASS;
}

/* Only a DEVX context registers umems. */
static int test_umem_needs_devx(void)
{
	struct ibv_context *ctx;
	void *buf;

	if (posix_memalign(&buf, 4096, 4096))
		return mt_skip("no memory");
	ctx = mt_open(MT_OPEN_NODEVX, NULL);
	if (CHECK(ctx)) {
		errno = 0;
		CHECK(!mlx5dv_devx_umem_reg(ctx, buf, 4096, 0));
		CHECK(errno == EINVAL || errno == EOPNOTSUPP);
		CHECK_EQ(ibv_close_device(ctx), 0);
	}
	free(buf);
	return KSFT_PASS;
}

#define ASYNC_BUDGET	(1024 * 1024)	/* unread output bytes per FD */
#define ASYNC_OUT_MAX	0xffff

static int query_async(struct devx_obj *o, uint32_t id, size_t outlen,
		       uint64_t wr_id, struct mlx5dv_devx_cmd_comp *comp)
{
	uint32_t in[QC_QUERY_IN_BYTES / 4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_Q_COUNTER);
	mt_set(in, QC_QUERY_ID, id);
	return mlx5dv_devx_obj_query_async(o->obj, in, sizeof(in), outlen,
					   wr_id, comp);
}

/*
 * mlx5dv_devx_obj_query_async(3): the completion is read back from the
 * FD with its wr_id and the output; poll says when; an empty
 * non-blocking FD says EAGAIN; a short buffer ENOSPC.
 */
MT_TEST_F(mt_ctx, async_query_completion)
{
	size_t rlen = sizeof(struct mlx5dv_devx_async_cmd_hdr) +
		      QC_QUERY_OUT_BYTES;
	struct mlx5dv_devx_async_cmd_hdr *resp = calloc(1, rlen);
	struct mlx5dv_devx_cmd_comp *comp;
	struct pollfd pfd = { .events = POLLIN };
	struct devx_obj qc;

	if (!resp)
		return mt_skip("no memory");
	comp = mlx5dv_devx_create_cmd_comp(self->ctx);
	if (!CHECK(comp) || !create_q_counter(self->ctx, &qc))
		goto out;
	pfd.fd = comp->fd;
	/* never block: a query that failed completes nothing to wait for */
	CHECK_EQ(fcntl(comp->fd, F_SETFL, O_NONBLOCK), 0);
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	CHECK_ERR(query_async(&qc, qc.id, QC_QUERY_OUT_BYTES, 0x1234abcd,
			      comp), 0);
	CHECK_EQ(poll(&pfd, 1, 1000), 1);
	CHECK(pfd.revents & POLLIN);
	/* too small for wr_id and output */
	CHECK_ERR(mlx5dv_devx_get_async_cmd_comp(comp, resp, 16), ENOSPC);
	if (CHECK_ERR(mlx5dv_devx_get_async_cmd_comp(comp, resp, rlen), 0)) {
		CHECK_EQ(resp->wr_id, 0x1234abcd);
		CHECK_EQ(mt_get(resp->out_data, PRM_OUT_STATUS), 0);
	}
	/* nothing left: a non-blocking read says so */
	CHECK_EQ(read(comp->fd, resp, rlen), -1);
	CHECK_ERR(errno, EAGAIN);
	/* the same checks as a synchronous query, before anything queues */
	CHECK_ERR(query_async(&qc, qc.id + 1, QC_QUERY_OUT_BYTES, 1, comp),
		  EINVAL);
	CHECK_ERR(query_async(&qc, qc.id, 4, 1, comp), EINVAL);
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	/* a completion left unread is freed with the FD */
	CHECK_ERR(query_async(&qc, qc.id, QC_QUERY_OUT_BYTES, 2, comp), 0);
	mlx5dv_devx_destroy_cmd_comp(comp);
	CHECK_ERR(mlx5dv_devx_obj_destroy(qc.obj), 0);
out:
	free(resp);
	return KSFT_PASS;
}

/* Unread output is bounded per FD: EAGAIN past it, room again once read. */
MT_TEST_F(mt_ctx, async_query_budget)
{
	size_t rlen = sizeof(struct mlx5dv_devx_async_cmd_hdr) + ASYNC_OUT_MAX;
	struct mlx5dv_devx_async_cmd_hdr *resp = malloc(rlen);
	struct mlx5dv_devx_cmd_comp *comp;
	struct devx_obj qc;
	unsigned int i, fit = ASYNC_BUDGET / ASYNC_OUT_MAX;

	if (!resp)
		return mt_skip("no memory");
	comp = mlx5dv_devx_create_cmd_comp(self->ctx);
	if (!CHECK(comp) || !create_q_counter(self->ctx, &qc))
		goto out;
	/* never block: a query that failed completes nothing to wait for */
	CHECK_EQ(fcntl(comp->fd, F_SETFL, O_NONBLOCK), 0);
	for (i = 0; i < fit; i++)
		if (!CHECK_ERR(query_async(&qc, qc.id, ASYNC_OUT_MAX, i, comp),
			       0))
			break;
	mt_diag("%u queries of %u bytes queued", i, ASYNC_OUT_MAX);
	CHECK_ERR(query_async(&qc, qc.id, ASYNC_OUT_MAX, fit, comp), EAGAIN);
	if (CHECK_ERR(mlx5dv_devx_get_async_cmd_comp(comp, resp, rlen), 0))
		CHECK_EQ(resp->wr_id, 0);
	CHECK_ERR(query_async(&qc, qc.id, ASYNC_OUT_MAX, fit, comp), 0);
	/* completions come back in order */
	for (i = 1; i <= fit; i++)
		if (!CHECK_ERR(mlx5dv_devx_get_async_cmd_comp(comp, resp, rlen),
			       0) || !CHECK_EQ(resp->wr_id, i))
			break;
	mlx5dv_devx_destroy_cmd_comp(comp);
out:
	free(resp);
	return KSFT_PASS;
}

/*
 * Another process, with its own DEVX context, names this process's object
 * ids in its mailboxes: refused, and this process's objects are untouched.
 */
MT_TEST_F(mt_ctx, two_processes_isolated)
{
	struct devx_obj mine;
	pid_t pid;

	if (!create_q_counter(self->ctx, &mine))
		return KSFT_FAIL;
	pid = mt_fork();
	if (pid == 0) {
		struct ibv_context *c2 = mt_open(MT_OPEN_DEVX, NULL);
		struct devx_obj theirs;
		int bad = 0;

		if (!c2 || !create_q_counter(c2, &theirs))
			_exit(2);
		/* its own handle, the other process's id: the kernel says no */
		bad |= query_q_counter(&theirs, PRM_OP_QUERY_Q_COUNTER,
				       mine.id) != EINVAL;
		/* its own object still answers */
		bad |= query_q_counter(&theirs, PRM_OP_QUERY_Q_COUNTER,
				       theirs.id) != 0;
		bad |= mlx5dv_devx_obj_destroy(theirs.obj) != 0;
		ibv_close_device(c2);
		_exit(bad);
	}
	CHECK_EQ(mt_reap(pid), 0);
	/* ours is intact and still ours */
	CHECK_ERR(query_q_counter(&mine, PRM_OP_QUERY_Q_COUNTER, mine.id), 0);
	mt_fw_check_owner("q_counter", mine.id, self->uid);
	CHECK_ERR(mlx5dv_devx_obj_destroy(mine.obj), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_devx_ctx_fixture, two_processes_isolated),
	MT_CASE_ON(mt_devx_ctx_fixture, async_query_completion),
	MT_CASE_ON(mt_devx_ctx_fixture, async_query_budget),
	MT_CASE_ON(mt_devx_ctx_fixture, umem_register_deregister),
	MT_CASE(umem_needs_devx, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_devx_ctx_fixture, query_eqn),
	MT_CASE_ON(mt_devx_ctx_fixture, q_counter_create_query_destroy),
	MT_CASE_ON(mt_devx_ctx_fixture, flow_counter_create_query_destroy),
	MT_CASE_ON(mt_devx_ctx_fixture, create_opcode_not_allowed),
	MT_CASE_ON(mt_devx_ctx_fixture, query_must_name_own_object),
	MT_CASE_ON(mt_devx_ctx_fixture, firmware_error_status_syndrome),
	MT_CASE_ON(mt_devx_ctx_fixture, destroy_spared_by_fault_injection,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE(no_devx_context_creates_nothing, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_devx_ctx_fixture, teardown_destroys_everything),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
