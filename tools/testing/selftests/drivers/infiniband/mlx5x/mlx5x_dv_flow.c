// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5dv flow steering path through libmlx5, judged by the model's
 * classifier (fw/classify): mlx5dv_create_flow_matcher(3),
 * mlx5dv_create_flow(3), mlx5dv_create_flow_action_modify_header(3) and
 * mlx5dv_create_flow_action_packet_reformat(3).  Destinations (a QP, a
 * DEVX TIR, a DEVX flow table, drop), counters, tags, header rewrites,
 * encapsulation on transmit, egress, priority precedence, a DEVX table
 * handing the packet back through a steering anchor, and every refusal
 * with its errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_prm.h"

/*
 * The kernel's chain of tables (Documentation/steering.rst): priority p
 * of NIC RX or TX at level 2p + 2, behind its don't-trap table at 2p + 1;
 * after the 16 priorities, the multicast table (33), then leftovers (34).
 */
#define PRIO_LEVEL(p)	(2 * (p) + 2)
#define LEFTOVERS_LEVEL	34
#include "mlx5x_queues.h"

#define ACT_FWD			PRM_FLOW_CONTEXT_ACTION_FWD_DEST
#define DEST_FLOW_TABLE		1
#define CRIT_OUTER		1
#define CRIT_MISC2		8
#define FTE_IN_BYTES		(PRM_SET_FTE_IN_BYTES + 8)
#define TRACE_BYTES		(64 * 1024)
#define MATCH_BYTES		PRM_FTE_MATCH_PARAM_BYTES
#define M_SRC_IPV4		\
	PRM_FTE_MATCH_PARAM_OUTER_HEADERS_SRC_IPV4_SRC_IPV6_IPV4_LAYOUT_IPV4
#define M_DPORT			PRM_FTE_MATCH_PARAM_OUTER_HEADERS_TCP_DPORT
#define M_DMAC_HI		PRM_FTE_MATCH_PARAM_OUTER_HEADERS_DMAC_47_16
#define M_DMAC_LO		PRM_FTE_MATCH_PARAM_OUTER_HEADERS_DMAC_15_0
#define FIELD_TCP_DPORT		PRM_ACTION_IN_FIELD_OUT_TCP_DPORT
#define NIC_RX			MLX5DV_FLOW_TABLE_TYPE_NIC_RX
#define NIC_TX			MLX5DV_FLOW_TABLE_TYPE_NIC_TX

/* Ethernet 02:..:02 -> 02:..:01, IPv4 10.0.0.1 -> 10.0.0.2, TCP to 80. */
static const uint8_t pkt_bytes[54] = {
	0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x08, 0x00,
	0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 6, 0, 0,
	10, 0, 0, 1, 10, 0, 0, 2,
	0x30, 0x39, 0, 80, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
	0, 0, 0, 0,
};

static char pkt[2 * sizeof(pkt_bytes) + 1];
static char *trace;

/* A DEVX context with queues, a TIR to its RQ, a PD and CQ for verbs. */
struct env {
	struct mq q;
	struct mq_obj cq, rq, tir;
	struct ibv_pd *pd;
	struct ibv_cq *vcq;
};

static bool env_open(struct env *e)
{
	uint32_t in[PRM_CREATE_TIR_IN_BYTES / 4], out[4];

	memset(e, 0, sizeof(*e));
	if (!mq_open(&e->q) || !mq_cq(&e->q, &e->cq) ||
	    !mq_rq(&e->q, e->cq.id, &e->rq))
		return false;
	mq_tir_in(&e->q, in, false, e->rq.id);
	if (!CHECK(mq_create(&e->q, in, sizeof(in), &e->tir, out)))
		return false;
	e->pd = ibv_alloc_pd(e->q.ctx);
	e->vcq = ibv_create_cq(e->q.ctx, 16, NULL, NULL, 0);
	return CHECK(e->pd) && CHECK(e->vcq);
}

/* Close, and check the context's objects all went with it. */
static void env_close(struct env *e)
{
	if (e->vcq)
		CHECK_ERR(ibv_destroy_cq(e->vcq), 0);
	if (e->pd)
		CHECK_ERR(ibv_dealloc_pd(e->pd), 0);
	mq_close(&e->q);
	if (mt_sim() && e->q.uid)
		CHECK_EQ(mt_fw_count(NULL, e->q.uid), 0);
}

/* Classify a packet; the trace in @trace. */
static int walk(const char *dir, const char *hex)
{
	char path[sizeof(mt.dbg) + 16], *line;
	ssize_t n;
	int fd, err = 0;

	trace[0] = '\0';
	snprintf(path, sizeof(path), "%s/classify", mt.dbg);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	if (asprintf(&line, "%s 1 %s\n", dir, hex) < 0) {
		close(fd);
		return -ENOMEM;
	}
	if (write(fd, line, strlen(line)) < 0)
		err = -errno;
	free(line);
	if (!err) {
		n = read(fd, trace, TRACE_BYTES - 1);
		if (n < 0)
			err = -errno;
		else
			trace[n] = '\0';
	}
	close(fd);
	return err;
}

/* The trace holds this formatted line fragment. */
__printf(1, 2) static bool traced(const char *fmt, ...)
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

/* A match parameter buffer: TCP destination port (mask or value). */
static struct mlx5dv_flow_match_parameters *match_dport(uint16_t port)
{
	struct mlx5dv_flow_match_parameters *m;

	m = calloc(1, sizeof(*m) + MATCH_BYTES);
	if (!m)
		return NULL;
	m->match_sz = MATCH_BYTES;
	mt_set(m->match_buf, M_DPORT, port);
	return m;
}

static struct mlx5dv_flow_matcher *
matcher(struct ibv_context *ctx, int ft_type, uint16_t prio, uint8_t crit,
	struct mlx5dv_flow_match_parameters *mask)
{
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.priority = prio,
		.match_criteria_enable = crit,
		.match_mask = mask,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = ft_type,
	};

	errno = 0;
	return mlx5dv_create_flow_matcher(ctx, &attr);
}

/* A dport matcher of @ft_type at @prio. */
static struct mlx5dv_flow_matcher *dport_matcher(struct ibv_context *ctx,
						 int ft_type, uint16_t prio)
{
	struct mlx5dv_flow_match_parameters *mask = match_dport(0xffff);
	struct mlx5dv_flow_matcher *m;

	if (!CHECK(mask))
		return NULL;
	m = matcher(ctx, ft_type, prio, CRIT_OUTER, mask);
	free(mask);
	return m;
}

static struct ibv_flow *flow(struct mlx5dv_flow_matcher *m, uint16_t port,
			     struct mlx5dv_flow_action_attr *act, size_t n)
{
	struct mlx5dv_flow_match_parameters *v = match_dport(port);
	struct ibv_flow *f;

	if (!CHECK(v))
		return NULL;
	errno = 0;
	f = mlx5dv_create_flow(m, v, n, act);
	free(v);
	return f;
}

#define ACT_DEVX(o)	{ .type = MLX5DV_FLOW_ACTION_DEST_DEVX, .obj = (o) }
#define ACT_QP(p)	{ .type = MLX5DV_FLOW_ACTION_DEST_IBV_QP, .qp = (p) }
#define ACT_TAG(t)	{ .type = MLX5DV_FLOW_ACTION_TAG, .tag_value = (t) }
#define ACT_DROP	{ .type = MLX5DV_FLOW_ACTION_DROP }
#define ACT_MISS	{ .type = MLX5DV_FLOW_ACTION_DEFAULT_MISS }
#define ACT_COUNT(o)	{ .type = MLX5DV_FLOW_ACTION_COUNTERS_DEVX, .obj = (o) }
#define ACT_ACTION(a)	{ .type = MLX5DV_FLOW_ACTION_IBV_FLOW_ACTION, \
			  .action = (a) }

/* A DEVX RX table at level 0 with one group on the TCP port. */
static struct mlx5dv_devx_obj *devx_table(struct ibv_context *ctx,
					  uint32_t *ft_id,
					  struct mlx5dv_devx_obj **fg,
					  uint32_t *fg_id)
{
	uint32_t tin[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {};
	uint32_t tout[PRM_CREATE_FLOW_TABLE_OUT_BYTES / 4] = {};
	uint32_t gin[PRM_CREATE_FLOW_GROUP_IN_BYTES / 4] = {};
	uint32_t gout[PRM_CREATE_FLOW_GROUP_OUT_BYTES / 4] = {};
	struct mlx5dv_devx_obj *ft;

	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LOG_SIZE, 4);
	ft = mlx5dv_devx_obj_create(ctx, tin, sizeof(tin), tout, sizeof(tout));
	if (!CHECK(ft))
		return NULL;
	*ft_id = mt_get(tout, PRM_CREATE_FLOW_TABLE_OUT_TABLE_ID);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_OPCODE, PRM_OP_CREATE_FLOW_GROUP);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_ID, *ft_id);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_END_FLOW_INDEX, 15);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE, CRIT_OUTER);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_OUTER_HEADERS_TCP_DPORT,
	       0xffff);
	*fg = mlx5dv_devx_obj_create(ctx, gin, sizeof(gin), gout,
				     sizeof(gout));
	CHECK(*fg);
	*fg_id = *fg ? mt_get(gout, PRM_CREATE_FLOW_GROUP_OUT_GROUP_ID) : 0;
	return ft;
}

/* An entry of a DEVX RX table forwarding port @dport to table @to. */
static struct mlx5dv_devx_obj *devx_fwd(struct ibv_context *ctx, uint32_t ft,
					uint32_t fg, uint32_t dport, uint32_t to)
{
	uint32_t in[FTE_IN_BYTES / 4] = {}, out[4];
	uint8_t *list = (uint8_t *)in + PRM_SET_FTE_IN_BYTES;

	mt_set(in, PRM_SET_FTE_IN_OPCODE, PRM_OP_SET_FLOW_TABLE_ENTRY);
	mt_set(in, PRM_SET_FTE_IN_TABLE_ID, ft);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_GROUP_ID, fg);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_ACTION, ACT_FWD);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_DESTINATION_LIST_SIZE, 1);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MATCH_VALUE_OUTER_HEADERS_TCP_DPORT,
	       dport);
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_TYPE, DEST_FLOW_TABLE);
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_ID, to);
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
}

static struct mlx5dv_devx_obj *counter(struct ibv_context *ctx, uint32_t *id)
{
	uint32_t in[PRM_ALLOC_FLOW_COUNTER_IN_BYTES / 4] = {};
	uint32_t out[PRM_ALLOC_FLOW_COUNTER_OUT_BYTES / 4] = {};
	struct mlx5dv_devx_obj *o;

	mt_set(in, PRM_ALLOC_FLOW_COUNTER_IN_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	o = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	*id = o ? mt_get(out, PRM_ALLOC_FLOW_COUNTER_OUT_FLOW_COUNTER_ID) : 0;
	return o;
}

/* The packets a counter counted, or -1. */
static long long counted(struct mlx5dv_devx_obj *o, uint32_t id)
{
	uint32_t in[PRM_QUERY_FLOW_COUNTER_IN_BYTES / 4] = {}, out[8] = {};

	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_FLOW_COUNTER_ID, id);
	if (mlx5dv_devx_obj_query(o, in, sizeof(in), out, sizeof(out)))
		return -1;
	return mt_get64(out, PRM_QUERY_FLOW_COUNTER_OUT_FLOW_STATISTICS_OFF +
			 PRM_TRAFFIC_COUNTER_PACKETS_OFF);
}

/* A modify header setting the TCP destination port. */
static struct ibv_flow_action *set_dport(struct ibv_context *ctx, int ft_type,
					 uint16_t port, size_t n)
{
	uint64_t acts[40] = {};
	size_t i;

	for (i = 0; i < n && i < 40; i++) {
		mt_set(&acts[i], PRM_SET_ACTION_IN_ACTION_TYPE, 1);
		mt_set(&acts[i], PRM_SET_ACTION_IN_FIELD, FIELD_TCP_DPORT);
		mt_set(&acts[i], PRM_SET_ACTION_IN_LENGTH, 16);
		mt_set(&acts[i], PRM_SET_ACTION_IN_DATA, port);
	}
	errno = 0;
	return mlx5dv_create_flow_action_modify_header(ctx, n * 8, acts,
						       ft_type);
}

static struct ibv_flow_action *reformat(struct ibv_context *ctx, int type,
					int ft_type, size_t len)
{
	uint8_t hdr[256] = { 0x02, 0, 0, 0, 0, 0x09 };

	errno = 0;
	return mlx5dv_create_flow_action_packet_reformat(ctx, len, hdr, type,
							 ft_type);
}

/* The flow matcher's checks: ranges, criteria, mask. */
static int test_matcher_ranges(void)
{
	struct mlx5dv_flow_match_parameters *mask;
	struct mlx5dv_flow_matcher *m;
	struct ibv_context *ctx;
	int uid;

	ctx = mt_open(MT_OPEN_DEVX, &uid);
	mask = calloc(1, sizeof(*mask) + MATCH_BYTES + 8);
	if (!CHECK(ctx) || !CHECK(mask))
		return KSFT_FAIL;
	mask->match_sz = MATCH_BYTES;
	m = matcher(ctx, NIC_RX, 15, 0, mask);
	CHECK(m);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	m = matcher(ctx, NIC_TX, 0, 0, mask);
	CHECK(m);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	/* a priority past the namespace's 16 */
	CHECK(!matcher(ctx, NIC_RX, 16, 0, mask));
	CHECK_ERR(errno, EINVAL);
	/* an unknown table type; table types the device does not offer */
	CHECK(!matcher(ctx, 9, 0, 0, mask));
	CHECK_ERR(errno, EINVAL);
	CHECK(!matcher(ctx, MLX5DV_FLOW_TABLE_TYPE_FDB, 0, 0, mask));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!matcher(ctx, MLX5DV_FLOW_TABLE_TYPE_RDMA_RX, 0, 0, mask));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!matcher(ctx, MLX5DV_FLOW_TABLE_TYPE_RDMA_TX, 0, 0, mask));
	CHECK_ERR(errno, EOPNOTSUPP);
	/* a mask longer than fte_match_param */
	mask->match_sz = MATCH_BYTES + 8;
	CHECK(!matcher(ctx, NIC_RX, 0, 0, mask));
	CHECK_ERR(errno, EINVAL);
	mask->match_sz = MATCH_BYTES;
	/* criteria the tables cannot match (misc parameters 2) */
	CHECK(!matcher(ctx, NIC_RX, 0, CRIT_MISC2, mask));
	CHECK_ERR(errno, EINVAL);
	/* a mask bit outside the enabled sections */
	mt_set(mask->match_buf, M_DPORT, 0xffff);
	CHECK(!matcher(ctx, NIC_RX, 0, 0, mask));
	CHECK_ERR(errno, EINVAL);
	m = matcher(ctx, NIC_RX, 0, CRIT_OUTER, mask);
	CHECK(m);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	free(mask);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

/*
 * The man page's example: destination MAC and source IPv4 to a
 * RAW_PACKET QP, which receives through its TIR.
 */
static int test_dest_qp(void)
{
	struct mlx5dv_flow_match_parameters *mask, *val;
	struct ibv_qp_init_attr qa = {
		.cap = { .max_recv_wr = 16, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RAW_PACKET,
	};
	struct mlx5dv_flow_matcher *m = NULL;
	struct mt_objs before = {}, after = {};
	struct ibv_flow *f = NULL;
	struct ibv_qp *qp = NULL;
	struct mt_obj tir;
	struct env e;

	if (!mt_sim())
		return mt_skip("no classifier on hardware");
	mask = calloc(1, sizeof(*mask) + MATCH_BYTES);
	val = calloc(1, sizeof(*val) + MATCH_BYTES);
	if (!env_open(&e) || !CHECK(mask) || !CHECK(val))
		goto out;
	qa.send_cq = e.vcq;
	qa.recv_cq = e.vcq;
	CHECK_EQ(mt_fw_read(&before), 0);
	qp = ibv_create_qp(e.pd, &qa);
	CHECK_EQ(mt_fw_read(&after), 0);
	if (!CHECK(qp) ||
	    !CHECK_EQ(mt_fw_added(&before, &after, "tir", &tir, 1), 1))
		goto out;
	mask->match_sz = MATCH_BYTES;
	val->match_sz = MATCH_BYTES;
	mt_set(mask->match_buf, M_DMAC_HI, 0xffffffff);
	mt_set(mask->match_buf, M_DMAC_LO, 0xffff);
	mt_set(mask->match_buf, M_SRC_IPV4, 0xffffffff);
	mt_set(val->match_buf, M_DMAC_HI, 0x02000000);
	mt_set(val->match_buf, M_DMAC_LO, 0x0001);
	mt_set(val->match_buf, M_SRC_IPV4, 0x0a000001);
	m = matcher(e.q.ctx, NIC_RX, 0, CRIT_OUTER, mask);
	if (!CHECK(m))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_QP(qp) };

		f = mlx5dv_create_flow(m, val, 1, a);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("result=hit"));
	CHECK(traced("verdict to=tir id=0x%x uid=%d\n", tir.id, e.q.uid));
	/* the QP is held by the flow */
	CHECK_ERR(ibv_destroy_qp(qp), EBUSY);
	/* once the flow is gone: the port's default */
	CHECK_ERR(ibv_destroy_flow(f), 0);
	f = NULL;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("verdict to=default\n"));
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	if (qp)
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	mt_fw_free(&before);
	mt_fw_free(&after);
	free(mask);
	free(val);
	env_close(&e);
	return KSFT_PASS;
}

/* A DEVX TIR and a DEVX flow table as destinations; a tag. */
static int test_dest_devx(void)
{
	struct mlx5dv_flow_matcher *m = NULL;
	struct ibv_flow *f = NULL, *g = NULL;
	struct mlx5dv_devx_obj *ft = NULL, *fg = NULL;
	uint32_t ft_id = 0, fg_id;
	struct env e;

	if (!mt_sim())
		return mt_skip("no classifier on hardware");
	if (!env_open(&e))
		goto out;
	m = dport_matcher(e.q.ctx, NIC_RX, 4);
	if (!CHECK(m))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = {
			ACT_DEVX(e.tir.obj), ACT_TAG(0x12),
		};

		f = flow(m, 80, a, 2);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("tag value=0x12\n"));
	CHECK(traced("verdict to=tir id=0x%x uid=%d\n", e.tir.id, e.q.uid));
	/* the TIR is the rule's destination: firmware keeps it */
	CHECK_ERR(mlx5dv_devx_obj_destroy(e.tir.obj), EBUSY);
	CHECK_ERR(ibv_destroy_flow(f), 0);
	f = NULL;

	ft = devx_table(e.q.ctx, &ft_id, &fg, &fg_id);
	if (!ft || !fg)
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(ft) };

		g = flow(m, 80, a, 1);
	}
	if (!CHECK(g))
		goto out;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("forward table=0x%x\ntable id=0x%x type=rx level=0 uid=%d\n",
		     ft_id, ft_id, e.q.uid));
	CHECK(traced("verdict to=default\n"));
	/* a flow group is no destination */
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(fg) };

		CHECK(!flow(m, 81, a, 1));
		CHECK_ERR(errno, EINVAL);
	}
out:
	if (g)
		CHECK_ERR(ibv_destroy_flow(g), 0);
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	if (fg)
		CHECK_ERR(mlx5dv_devx_obj_destroy(fg), 0);
	if (ft)
		CHECK_ERR(mlx5dv_devx_obj_destroy(ft), 0);
	env_close(&e);
	return KSFT_PASS;
}

/* Drop, counted by a DEVX flow counter; DEFAULT_MISS. */
static int test_drop_count(void)
{
	struct mlx5dv_flow_matcher *m = NULL;
	struct mlx5dv_devx_obj *cnt = NULL;
	struct ibv_flow *f = NULL;
	uint32_t cnt_id = 0;
	struct env e;

	if (!mt_sim())
		return mt_skip("no classifier on hardware");
	if (!env_open(&e))
		goto out;
	m = dport_matcher(e.q.ctx, NIC_RX, 0);
	cnt = counter(e.q.ctx, &cnt_id);
	if (!CHECK(m) || !CHECK(cnt))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_COUNT(cnt),
						       ACT_DROP };

		f = flow(m, 80, a, 2);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(counted(cnt, cnt_id), 0);
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("counter id=0x%x packets=1 bytes=54\n", cnt_id));
	CHECK(traced("verdict to=drop\n"));
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK_EQ(counted(cnt, cnt_id), 2);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cnt), EBUSY);
	CHECK_ERR(ibv_destroy_flow(f), 0);
	/* default miss: on to the leftovers namespace, then the default */
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_MISS };

		f = flow(m, 80, a, 1);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("result=hit"));
	CHECK(traced("type=rx level=%d uid=0\nmiss table=default\nverdict to=default\n",
		     LEFTOVERS_LEVEL));
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	if (cnt)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cnt), 0);
	env_close(&e);
	return KSFT_PASS;
}

/* A modify header on receive; encapsulation and egress on transmit. */
static int test_actions(void)
{
	struct mlx5dv_flow_matcher *rx = NULL, *tx = NULL;
	struct ibv_flow_action *mh = NULL, *encap = NULL;
	struct ibv_flow *f = NULL, *g = NULL;
	struct env e;

	if (!mt_sim())
		return mt_skip("no classifier on hardware");
	if (!env_open(&e))
		goto out;
	rx = dport_matcher(e.q.ctx, NIC_RX, 1);
	tx = dport_matcher(e.q.ctx, NIC_TX, 1);
	mh = set_dport(e.q.ctx, NIC_RX, 443, 1);
	encap = reformat(e.q.ctx,
			 MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
			 NIC_TX, 50);
	if (!CHECK(rx) || !CHECK(tx) || !CHECK(mh) || !CHECK(encap))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_ACTION(mh),
						       ACT_DEVX(e.tir.obj) };

		f = flow(rx, 80, a, 2);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("action=set field=tcp_dport old=0x50 new=0x1bb\n"));
	CHECK(traced("verdict to=tir id=0x%x", e.tir.id));
	/* in use by the flow */
	CHECK_ERR(ibv_destroy_flow_action(mh), EBUSY);
	/* egress with encapsulation: no destination, on to the wire */
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_ACTION(encap) };

		g = flow(tx, 80, a, 1);
	}
	if (!CHECK(g))
		goto out;
	CHECK_EQ(walk("tx", pkt), 0);
	CHECK(traced("type=tx level=%d uid=0\ngroup id=", PRIO_LEVEL(1)));
	CHECK(traced("result=hit"));
	CHECK(traced("len=54->104\n"));
	CHECK(traced("verdict to=wire\n"));
out:
	if (g)
		CHECK_ERR(ibv_destroy_flow(g), 0);
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (mh)
		CHECK_ERR(ibv_destroy_flow_action(mh), 0);
	if (encap)
		CHECK_ERR(ibv_destroy_flow_action(encap), 0);
	if (rx)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(rx), 0);
	if (tx)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(tx), 0);
	env_close(&e);
	return KSFT_PASS;
}

/* The lower priority number wins; without it, the next one acts. */
static int test_priority(void)
{
	struct mlx5dv_flow_matcher *hi = NULL, *lo = NULL;
	struct ibv_flow *f = NULL, *g = NULL;
	struct env e;

	if (!mt_sim())
		return mt_skip("no classifier on hardware");
	if (!env_open(&e))
		goto out;
	hi = dport_matcher(e.q.ctx, NIC_RX, 2);
	lo = dport_matcher(e.q.ctx, NIC_RX, 5);
	if (!CHECK(hi) || !CHECK(lo))
		goto out;
	{
		struct mlx5dv_flow_action_attr d[] = { ACT_DEVX(e.tir.obj) };
		struct mlx5dv_flow_action_attr a[] = { ACT_DROP };

		g = flow(lo, 80, d, 1);
		f = flow(hi, 80, a, 1);
	}
	if (!CHECK(f) || !CHECK(g))
		goto out;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("type=rx level=%d uid=0\ngroup id=", PRIO_LEVEL(2)));
	CHECK(traced("verdict to=drop\n"));
	CHECK_ERR(ibv_destroy_flow(f), 0);
	f = NULL;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("type=rx level=%d uid=0\ngroup id=", PRIO_LEVEL(5)));
	CHECK(traced("verdict to=tir id=0x%x", e.tir.id));
	/* a matcher with a flow is busy */
	CHECK_ERR(mlx5dv_destroy_flow_matcher(lo), EBUSY);
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (g)
		CHECK_ERR(ibv_destroy_flow(g), 0);
	if (hi)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(hi), 0);
	if (lo)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(lo), 0);
	env_close(&e);
	return KSFT_PASS;
}

/*
 * Priority 1 sends the packet to a DEVX table, whose entry forwards it
 * to the steering anchor of priority 3: it continues in the kernel's
 * table of priority 3, where a matcher's rule tags it to the TIR.
 */
static int test_anchor(void)
{
	struct mlx5dv_flow_matcher *m1 = NULL, *m3 = NULL;
	struct mlx5dv_devx_obj *ft = NULL, *fg = NULL, *fte = NULL;
	struct mlx5dv_steering_anchor_attr aa = {
		.ft_type = NIC_RX, .priority = 3,
	};
	struct mlx5dv_steering_anchor *an = NULL;
	struct ibv_flow *f = NULL, *g = NULL;
	uint32_t ft_id = 0, fg_id = 0;
	struct env e;

	if (!mt_sim())
		return mt_skip("no classifier on hardware");
	if (!env_open(&e))
		goto out;
	an = mlx5dv_create_steering_anchor(e.q.ctx, &aa);
	m1 = dport_matcher(e.q.ctx, NIC_RX, 1);
	m3 = dport_matcher(e.q.ctx, NIC_RX, 3);
	ft = devx_table(e.q.ctx, &ft_id, &fg, &fg_id);
	if (!CHECK(an) || !CHECK(m1) || !CHECK(m3) || !ft || !fg)
		goto out;
	fte = devx_fwd(e.q.ctx, ft_id, fg_id, 80, an->id);
	if (!CHECK(fte))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(ft) };
		struct mlx5dv_flow_action_attr b[] = { ACT_DEVX(e.tir.obj),
						       ACT_TAG(0x77) };

		f = flow(m1, 80, a, 1);
		g = flow(m3, 80, b, 2);
	}
	if (!CHECK(f) || !CHECK(g))
		goto out;
	CHECK_EQ(walk("rx", pkt), 0);
	CHECK(traced("forward table=0x%x\ntable id=0x%x type=rx level=0 uid=%d\n",
		     ft_id, ft_id, e.q.uid));
	CHECK(traced("forward table=0x%x\ntable id=0x%x type=rx level=32 uid=65535\n",
		     an->id, an->id));
	CHECK(traced("type=rx level=%d uid=0\ngroup id=", PRIO_LEVEL(3)));
	CHECK(traced("tag value=0x77\nverdict to=tir id=0x%x", e.tir.id));
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (g)
		CHECK_ERR(ibv_destroy_flow(g), 0);
	if (fte)
		CHECK_ERR(mlx5dv_devx_obj_destroy(fte), 0);
	if (fg)
		CHECK_ERR(mlx5dv_devx_obj_destroy(fg), 0);
	if (ft)
		CHECK_ERR(mlx5dv_devx_obj_destroy(ft), 0);
	if (m1)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m1), 0);
	if (m3)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m3), 0);
	if (an)
		CHECK_ERR(mlx5dv_destroy_steering_anchor(an), 0);
	env_close(&e);
	return KSFT_PASS;
}

/* Flow actions legal only on some table types; their own checks. */
static int test_action_refusals(void)
{
	struct ibv_flow_action *a;
	struct ibv_context *ctx;
	int uid;

	ctx = mt_open(MT_OPEN_DEVX, &uid);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	/* encapsulation on receive, decapsulation on transmit */
	CHECK(!reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
			NIC_RX, 50));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL,
			NIC_RX, 50));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
			NIC_TX, 14));
	CHECK_ERR(errno, EOPNOTSUPP);
	errno = 0;
	CHECK(!mlx5dv_create_flow_action_packet_reformat(ctx, 0, NULL,
		MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2, NIC_RX));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
			MLX5DV_FLOW_TABLE_TYPE_FDB, 50));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
			9, 50));
	CHECK_ERR(errno, EINVAL);
	/* a header past max_encap_header_size (128) */
	CHECK(!reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
			NIC_TX, 129));
	CHECK_ERR(errno, EINVAL);
	/* the L3 tunnel to L2 header is 14 or 18 bytes */
	a = reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
		     NIC_RX, 14);
	CHECK(a);
	if (a)
		CHECK_ERR(ibv_destroy_flow_action(a), 0);
	CHECK(!reformat(ctx, MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
			NIC_RX, 20));
	CHECK_ERR(errno, EINVAL);
	/* modify header: table types, count, fields */
	a = set_dport(ctx, NIC_TX, 8080, 32);
	CHECK(a);
	if (a)
		CHECK_ERR(ibv_destroy_flow_action(a), 0);
	CHECK(!set_dport(ctx, NIC_RX, 1, 33));
	CHECK_ERR(errno, EINVAL);
	CHECK(!set_dport(ctx, MLX5DV_FLOW_TABLE_TYPE_RDMA_TX, 1, 1));
	CHECK_ERR(errno, EOPNOTSUPP);
	CHECK(!set_dport(ctx, 9, 1, 1));
	CHECK_ERR(errno, EINVAL);
	{
		uint64_t bad = 0;

		mt_set(&bad, PRM_SET_ACTION_IN_ACTION_TYPE, 1);
		mt_set(&bad, PRM_SET_ACTION_IN_FIELD, 0xfff);
		errno = 0;
		CHECK(!mlx5dv_create_flow_action_modify_header(ctx, 8, &bad,
							       NIC_RX));
		CHECK_ERR(errno, EINVAL);
	}
	CHECK_EQ(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

/*
 * A TIR of another context whose handle is past every handle of the
 * first: 64 flow counters first, so the handle cannot alias one of ours.
 */
static bool other_tir(struct env *o, struct mq_obj *tir)
{
	uint32_t in[PRM_CREATE_TIR_IN_BYTES / 4], out[4], id;
	int i;

	for (i = 0; i < 64; i++)
		if (!counter(o->q.ctx, &id))
			return false;
	mq_tir_in(&o->q, in, false, o->rq.id);
	return mq_create(&o->q, in, sizeof(in), tir, out);
}

/* CREATE_FLOW's refusals, each with its errno. */
static int test_flow_refusals(void)
{
	struct mlx5dv_flow_matcher *rx = NULL, *tx = NULL;
	struct ibv_flow_action *mh_tx = NULL, *mh_rx = NULL;
	struct mlx5dv_flow_match_parameters *v;
	struct mq_obj otir = {};
	struct ibv_flow *f;
	struct env e = {}, o = {};

	if (!env_open(&e) || !env_open(&o))
		goto out;
	rx = dport_matcher(e.q.ctx, NIC_RX, 0);
	tx = dport_matcher(e.q.ctx, NIC_TX, 0);
	mh_tx = set_dport(e.q.ctx, NIC_TX, 1, 1);
	mh_rx = set_dport(e.q.ctx, NIC_RX, 1, 1);
	if (!CHECK(rx) || !CHECK(tx) || !CHECK(mh_tx) || !CHECK(mh_rx))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(e.tir.obj),
						       ACT_TAG(1 << 24) };

		CHECK(!flow(rx, 80, a, 2));
		CHECK_ERR(errno, EINVAL);
	}
	{	/* a TIR from a transmit table */
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(e.tir.obj) };

		CHECK(!flow(tx, 80, a, 1));
		CHECK_ERR(errno, EINVAL);
	}
	{	/* a destination and drop: libmlx5 refuses the pair itself */
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(e.tir.obj),
						       ACT_DROP };

		CHECK(!flow(rx, 80, a, 2));
		CHECK_ERR(errno, EOPNOTSUPP);
	}
	{	/* a receive rule that sends the packet nowhere */
		struct mlx5dv_flow_action_attr a[] = { ACT_TAG(1) };

		CHECK(!flow(rx, 80, a, 1));
		CHECK_ERR(errno, EINVAL);
	}
	{	/* a modify header made for the other table type */
		struct mlx5dv_flow_action_attr a[] = { ACT_ACTION(mh_tx),
						       ACT_DEVX(e.tir.obj) };

		CHECK(!flow(rx, 80, a, 2));
		CHECK_ERR(errno, EINVAL);
	}
	{	/* two modify headers */
		struct mlx5dv_flow_action_attr a[] = { ACT_ACTION(mh_rx),
						       ACT_ACTION(mh_rx),
						       ACT_DROP };

		CHECK(!flow(rx, 80, a, 3));
		CHECK(errno == EINVAL);
	}
	{	/* a value outside the matcher's mask */
		struct mlx5dv_flow_action_attr a[] = { ACT_DROP };

		v = match_dport(80);
		if (CHECK(v)) {
			mt_set(v->match_buf, M_SRC_IPV4, 1);
			errno = 0;
			CHECK(!mlx5dv_create_flow(rx, v, 1, a));
			CHECK_ERR(errno, EINVAL);
			free(v);
		}
	}
	{	/* the same match twice: merged, as fs_core merges them */
		struct mlx5dv_flow_action_attr a[] = { ACT_DROP };
		struct mlx5dv_flow_action_attr t[] = { ACT_MISS };
		struct ibv_flow *g;

		f = flow(rx, 80, a, 1);
		CHECK(f);
		g = flow(rx, 80, a, 1);
		CHECK(g);
		/* but not with other actions: EEXIST */
		CHECK(!flow(rx, 80, t, 1));
		CHECK_ERR(errno, EEXIST);
		if (g)
			CHECK_ERR(ibv_destroy_flow(g), 0);
		if (f)
			CHECK_ERR(ibv_destroy_flow(f), 0);
	}
	if (CHECK(other_tir(&o, &otir))) {
		/* another context's TIR: its handle names nothing here */
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(otir.obj) };

		CHECK(!flow(rx, 80, a, 1));
		CHECK_ERR(errno, ENOENT);
	}
out:
	if (mh_tx)
		CHECK_ERR(ibv_destroy_flow_action(mh_tx), 0);
	if (mh_rx)
		CHECK_ERR(ibv_destroy_flow_action(mh_rx), 0);
	if (rx)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(rx), 0);
	if (tx)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(tx), 0);
	env_close(&o);
	env_close(&e);
	return KSFT_PASS;
}

/* CREATE_FLOW needs CAP_NET_RAW; a matcher does not. */
static int test_needs_cap(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	int status;
	pid_t pid;

	pid = mt_fork();
	if (pid == 0) {
		struct mlx5dv_flow_matcher *m;
		struct env e;

		if (!env_open(&e))
			_exit(2);
		if (syscall(SYS_capget, &hdr, data))
			_exit(3);
		data[CAP_NET_RAW / 32].effective &= ~(1U << (CAP_NET_RAW % 32));
		if (syscall(SYS_capset, &hdr, data))
			_exit(4);
		m = dport_matcher(e.q.ctx, NIC_RX, 0);
		if (!m)
			_exit(5);
		{
			struct mlx5dv_flow_action_attr a[] = { ACT_DROP };

			_exit(flow(m, 80, a, 1) ? 6 : errno == EPERM ? 0 : 7);
		}
	}
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	return KSFT_PASS;
}

/* Closing a context with flows, actions and matchers frees them all. */
static int test_close_with_flows(void)
{
	struct mlx5dv_flow_matcher *m;
	struct ibv_flow_action *mh;
	struct env e;

	if (!env_open(&e))
		goto out;
	m = dport_matcher(e.q.ctx, NIC_RX, 7);
	mh = set_dport(e.q.ctx, NIC_RX, 443, 1);
	if (!CHECK(m) || !CHECK(mh))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_ACTION(mh),
						       ACT_DEVX(e.tir.obj) };

		CHECK(flow(m, 80, a, 2));
		CHECK(flow(m, 81, a, 2));
	}
out:
	env_close(&e);	/* checks the model holds nothing of the uid */
	if (mt_sim()) {
		CHECK_EQ(walk("rx", pkt), 0);
		CHECK(traced("verdict to=default\n"));
	}
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	{ "matcher_ranges", test_matcher_ranges },
	{ "dest_qp", test_dest_qp },
	{ "dest_devx_tir_table_tag", test_dest_devx },
	{ "drop_counter_default_miss", test_drop_count },
	{ "modify_header_encap_egress", test_actions },
	{ "priority_precedence", test_priority },
	{ "devx_table_to_anchor", test_anchor },
	{ "action_refusals", test_action_refusals },
	{ "flow_refusals", test_flow_refusals },
	{ "needs_cap_net_raw", test_needs_cap },
	{ "close_with_flows", test_close_with_flows },
};

int main(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(pkt_bytes); i++)
		sprintf(pkt + 2 * i, "%02x", pkt_bytes[i]);
	trace = malloc(TRACE_BYTES);
	if (!trace)
		return KSFT_FAIL;
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
