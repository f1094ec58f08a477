// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5dv flow steering path through libmlx5, judged by the model's
 * classifier (fw/classify): mlx5dv_create_flow(3) on the matchers of
 * mlx5dv_create_flow_matcher(3), with the actions of
 * mlx5dv_create_flow_action_modify_header(3) and
 * mlx5dv_create_flow_action_packet_reformat(3).  Destinations (a QP, a
 * DEVX TIR, a DEVX flow table, drop), counters, tags, header rewrites,
 * encapsulation on transmit, egress, priority precedence, a DEVX table
 * handing the packet back through a steering anchor, and a context closed
 * with its flows.  The refusals are mlx5x_dv_flow_refusals'.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"
#include "mlx5x_dv_flow.h"

/*
 * The kernel's chain of tables (Documentation/steering.rst): priority p
 * of NIC RX or TX at level 2p + 2, behind its don't-trap table at 2p + 1;
 * after the 16 priorities, the multicast table (33), then leftovers (34).
 */
#define PRIO_LEVEL(p)	(2 * (p) + 2)
#define LEFTOVERS_LEVEL	34

#define TRACE_BYTES		(64 * 1024)
#define M_DMAC_HI		PRM_FTE_MATCH_PARAM_OUTER_HEADERS_DMAC_47_16
#define M_DMAC_LO		PRM_FTE_MATCH_PARAM_OUTER_HEADERS_DMAC_15_0

static char *trace;

/* Walk mt_tcp80 through the pipeline; the trace into @trace. */
static int walk(const char *dir)
{
	return mt_classify_bytes(dir, 1, mt_tcp80, MT_TCP80_BYTES, trace,
				 TRACE_BYTES);
}

/* The trace holds this formatted line fragment. */
#define traced(...)	mt_traced(trace, __VA_ARGS__)

/*
 * The man page's example: destination MAC and source IPv4 to a
 * RAW_PACKET QP, which receives through its TIR.
 */
MT_TEST_F(env, dest_qp)
{
	struct mlx5dv_flow_match_parameters *mask, *val;
	struct mlx5dv_flow_matcher *m = NULL;
	struct ibv_flow *f = NULL;
	struct ibv_qp *qp = NULL;
	uint32_t tir;

	mask = calloc(1, sizeof(*mask) + MATCH_BYTES);
	val = calloc(1, sizeof(*val) + MATCH_BYTES);
	if (!CHECK(mask) || !CHECK(val))
		goto out;
	qp = mt_raw_qp_tir(self->pd, self->vcq, 16, 1, &tir);
	if (!qp || !tir)
		goto out;
	mask->match_sz = MATCH_BYTES;
	val->match_sz = MATCH_BYTES;
	mt_set(mask->match_buf, M_DMAC_HI, 0xffffffff);
	mt_set(mask->match_buf, M_DMAC_LO, 0xffff);
	mt_set(mask->match_buf, M_SRC_IPV4, 0xffffffff);
	mt_set(val->match_buf, M_DMAC_HI, 0x02000000);
	mt_set(val->match_buf, M_DMAC_LO, 0x0001);
	mt_set(val->match_buf, M_SRC_IPV4, 0x0a000001);
	m = matcher(self->q.ctx, NIC_RX, 0, CRIT_OUTER, mask);
	if (!CHECK(m))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_QP(qp) };

		f = mlx5dv_create_flow(m, val, 1, a);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("result=hit"));
	CHECK(traced("verdict to=tir id=0x%x uid=%d\n", tir, self->q.uid));
	/* the QP is held by the flow */
	CHECK_ERR(ibv_destroy_qp(qp), EBUSY);
	/* once the flow is gone: the port's default */
	CHECK_ERR(ibv_destroy_flow(f), 0);
	f = NULL;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("verdict to=default\n"));
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	if (qp)
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	free(mask);
	free(val);
	return KSFT_PASS;
}

/* A DEVX TIR and a DEVX flow table as destinations; a tag. */
MT_TEST_F(env, dest_devx_tir_table_tag)
{
	struct mlx5dv_flow_matcher *m = NULL;
	struct ibv_flow *f = NULL, *g = NULL;
	struct mlx5dv_devx_obj *ft = NULL, *fg = NULL;
	uint32_t ft_id = 0, fg_id;

	m = dport_matcher(self->q.ctx, NIC_RX, 4);
	if (!CHECK(m))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = {
			ACT_DEVX(self->tir.obj), ACT_TAG(0x12),
		};

		f = flow(m, 80, a, 2);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("tag value=0x12\n"));
	CHECK(traced("verdict to=tir id=0x%x uid=%d\n", self->tir.id,
		     self->q.uid));
	/* the TIR is the rule's destination: firmware keeps it */
	CHECK_ERR(mlx5dv_devx_obj_destroy(self->tir.obj), EBUSY);
	CHECK_ERR(ibv_destroy_flow(f), 0);
	f = NULL;

	if (!mt_devx_rx_table(self->q.ctx, &ft, &ft_id, &fg, &fg_id))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(ft) };

		g = flow(m, 80, a, 1);
	}
	if (!CHECK(g))
		goto out;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("forward table=0x%x\ntable id=0x%x type=rx level=0 uid=%d\n",
		     ft_id, ft_id, self->q.uid));
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
	return KSFT_PASS;
}

/* Drop, counted by a DEVX flow counter; DEFAULT_MISS. */
MT_TEST_F(env, drop_counter_default_miss)
{
	struct mlx5dv_flow_matcher *m = NULL;
	struct mlx5dv_devx_obj *cnt = NULL;
	struct ibv_flow *f = NULL;
	uint32_t cnt_id = 0;

	m = dport_matcher(self->q.ctx, NIC_RX, 0);
	cnt = counter(self->q.ctx, &cnt_id);
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
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("counter id=0x%x packets=1 bytes=54\n", cnt_id));
	CHECK(traced("verdict to=drop\n"));
	CHECK_EQ(walk("rx"), 0);
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
	CHECK_EQ(walk("rx"), 0);
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
	return KSFT_PASS;
}

/* A modify header on receive; encapsulation and egress on transmit. */
MT_TEST_F(env, modify_header_encap_egress)
{
	struct mlx5dv_flow_matcher *rx = NULL, *tx = NULL;
	struct ibv_flow_action *mh = NULL, *encap = NULL;
	struct ibv_flow *f = NULL, *g = NULL;

	rx = dport_matcher(self->q.ctx, NIC_RX, 1);
	tx = dport_matcher(self->q.ctx, NIC_TX, 1);
	mh = set_dport(self->q.ctx, NIC_RX, 443, 1);
	encap = reformat(self->q.ctx,
			 MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
			 NIC_TX, 50);
	if (!CHECK(rx) || !CHECK(tx) || !CHECK(mh) || !CHECK(encap))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = {
			ACT_ACTION(mh), ACT_DEVX(self->tir.obj),
		};

		f = flow(rx, 80, a, 2);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("action=set field=tcp_dport old=0x50 new=0x1bb\n"));
	CHECK(traced("verdict to=tir id=0x%x", self->tir.id));
	/* in use by the flow */
	CHECK_ERR(ibv_destroy_flow_action(mh), EBUSY);
	/* egress with encapsulation: no destination, on to the wire */
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_ACTION(encap) };

		g = flow(tx, 80, a, 1);
	}
	if (!CHECK(g))
		goto out;
	CHECK_EQ(walk("tx"), 0);
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
	return KSFT_PASS;
}

/* The lower priority number wins; without it, the next one acts. */
MT_TEST_F(env, priority_precedence)
{
	struct mlx5dv_flow_matcher *hi = NULL, *lo = NULL;
	struct ibv_flow *f = NULL, *g = NULL;

	hi = dport_matcher(self->q.ctx, NIC_RX, 2);
	lo = dport_matcher(self->q.ctx, NIC_RX, 5);
	if (!CHECK(hi) || !CHECK(lo))
		goto out;
	{
		struct mlx5dv_flow_action_attr d[] = {
			ACT_DEVX(self->tir.obj),
		};
		struct mlx5dv_flow_action_attr a[] = { ACT_DROP };

		g = flow(lo, 80, d, 1);
		f = flow(hi, 80, a, 1);
	}
	if (!CHECK(f) || !CHECK(g))
		goto out;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("type=rx level=%d uid=0\ngroup id=", PRIO_LEVEL(2)));
	CHECK(traced("verdict to=drop\n"));
	CHECK_ERR(ibv_destroy_flow(f), 0);
	f = NULL;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("type=rx level=%d uid=0\ngroup id=", PRIO_LEVEL(5)));
	CHECK(traced("verdict to=tir id=0x%x", self->tir.id));
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
	return KSFT_PASS;
}

/*
 * Priority 1 sends the packet to a DEVX table, whose entry forwards it
 * to the steering anchor of priority 3: it continues in the kernel's
 * table of priority 3, where a matcher's rule tags it to the TIR.
 */
MT_TEST_F(env, devx_table_to_anchor)
{
	struct mlx5dv_flow_matcher *m1 = NULL, *m3 = NULL;
	struct mlx5dv_devx_obj *ft = NULL, *fg = NULL, *fte = NULL;
	struct mlx5dv_steering_anchor_attr aa = {
		.ft_type = NIC_RX, .priority = 3,
	};
	struct mlx5dv_steering_anchor *an = NULL;
	struct ibv_flow *f = NULL, *g = NULL;
	uint32_t ft_id = 0, fg_id = 0;

	an = mlx5dv_create_steering_anchor(self->q.ctx, &aa);
	m1 = dport_matcher(self->q.ctx, NIC_RX, 1);
	m3 = dport_matcher(self->q.ctx, NIC_RX, 3);
	if (!CHECK(an) || !CHECK(m1) || !CHECK(m3) ||
	    !mt_devx_rx_table(self->q.ctx, &ft, &ft_id, &fg, &fg_id))
		goto out;
	fte = mt_devx_fwd(self->q.ctx, ft_id, fg_id, 0, 80, an->id, NULL);
	if (!CHECK(fte))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(ft) };
		struct mlx5dv_flow_action_attr b[] = {
			ACT_DEVX(self->tir.obj), ACT_TAG(0x77),
		};

		f = flow(m1, 80, a, 1);
		g = flow(m3, 80, b, 2);
	}
	if (!CHECK(f) || !CHECK(g))
		goto out;
	CHECK_EQ(walk("rx"), 0);
	CHECK(traced("forward table=0x%x\ntable id=0x%x type=rx level=0 uid=%d\n",
		     ft_id, ft_id, self->q.uid));
	CHECK(traced("forward table=0x%x\ntable id=0x%x type=rx level=32 uid=65535\n",
		     an->id, an->id));
	CHECK(traced("type=rx level=%d uid=0\ngroup id=", PRIO_LEVEL(3)));
	CHECK(traced("tag value=0x77\nverdict to=tir id=0x%x", self->tir.id));
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
	return KSFT_PASS;
}

/* Closing a context with flows, actions and matchers frees them all. */
MT_TEST_F(env, close_with_flows)
{
	struct mlx5dv_flow_matcher *m;
	struct ibv_flow_action *mh;

	m = dport_matcher(self->q.ctx, NIC_RX, 7);
	mh = set_dport(self->q.ctx, NIC_RX, 443, 1);
	if (!CHECK(m) || !CHECK(mh))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = {
			ACT_ACTION(mh), ACT_DEVX(self->tir.obj),
		};

		CHECK(flow(m, 80, a, 2));
		CHECK(flow(m, 81, a, 2));
	}
out:
	env_close(self);	/* checks the model holds nothing of the uid */
	if (mt_sim()) {
		CHECK_EQ(walk("rx"), 0);
		CHECK(traced("verdict to=default\n"));
	}
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(env, dest_qp, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, dest_devx_tir_table_tag, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, drop_counter_default_miss, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, modify_header_encap_egress, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, priority_precedence, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, devx_table_to_anchor, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, close_with_flows),
};

int main(void)
{
	trace = malloc(TRACE_BYTES);
	if (!trace)
		return KSFT_FAIL;
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
