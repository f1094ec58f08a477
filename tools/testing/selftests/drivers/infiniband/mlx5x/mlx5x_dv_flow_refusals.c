// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the mlx5dv flow steering path refuses, each with its errno: flow
 * matchers (mlx5dv_create_flow_matcher(3)) out of range, flow actions
 * (mlx5dv_create_flow_action_modify_header(3),
 * mlx5dv_create_flow_action_packet_reformat(3)) on table types or of
 * sizes the device does not take, rules (mlx5dv_create_flow(3)) whose
 * actions or values do not fit, and a rule without CAP_NET_RAW.  What
 * the rules do is mlx5x_dv_flow's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <linux/capability.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"
#include "mlx5x_dv_flow.h"

#define CRIT_MISC2		8

/* The flow matcher's checks: ranges, criteria, mask. */
MT_TEST_F(mt_ctx, matcher_ranges)
{
	struct mlx5dv_flow_match_parameters *mask;
	struct ibv_context *ctx = self->ctx;
	struct mlx5dv_flow_matcher *m;

	mask = calloc(1, sizeof(*mask) + MATCH_BYTES + 8);
	if (!CHECK(mask))
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
	/* the RDMA domains are offered (mlx5x_rdma_fs tries them) */
	m = matcher(ctx, MLX5DV_FLOW_TABLE_TYPE_RDMA_RX, 0, 0, mask);
	CHECK(m);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	m = matcher(ctx, MLX5DV_FLOW_TABLE_TYPE_RDMA_TX, 15, 0, mask);
	CHECK(m);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	/* they match outer headers and the BTH, no inner headers */
	CHECK(!matcher(ctx, MLX5DV_FLOW_TABLE_TYPE_RDMA_RX, 0, 4, mask));
	CHECK_ERR(errno, EINVAL);
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
	return KSFT_PASS;
}

/* Flow actions legal only on some table types; their own checks. */
MT_TEST_F(mt_ctx, action_refusals)
{
	struct ibv_context *ctx = self->ctx;
	struct ibv_flow_action *a;

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
	/* RDMA TX is offered, but rewrites no header */
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
MT_TEST_F(env, flow_refusals)
{
	struct mlx5dv_flow_matcher *rx = NULL, *tx = NULL;
	struct ibv_flow_action *mh_tx = NULL, *mh_rx = NULL;
	struct mlx5dv_flow_match_parameters *v;
	struct mq_obj otir = {};
	struct ibv_flow *f;
	struct env o = {};

	if (!env_open(&o))
		goto out;
	rx = dport_matcher(self->q.ctx, NIC_RX, 0);
	tx = dport_matcher(self->q.ctx, NIC_TX, 0);
	mh_tx = set_dport(self->q.ctx, NIC_TX, 1, 1);
	mh_rx = set_dport(self->q.ctx, NIC_RX, 1, 1);
	if (!CHECK(rx) || !CHECK(tx) || !CHECK(mh_tx) || !CHECK(mh_rx))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = {
			ACT_DEVX(self->tir.obj), ACT_TAG(1 << 24),
		};

		CHECK(!flow(rx, 80, a, 2));
		CHECK_ERR(errno, EINVAL);
	}
	{	/* a TIR from a transmit table */
		struct mlx5dv_flow_action_attr a[] = {
			ACT_DEVX(self->tir.obj),
		};

		CHECK(!flow(tx, 80, a, 1));
		CHECK_ERR(errno, EINVAL);
	}
	{	/* a destination and drop: libmlx5 refuses the pair itself */
		struct mlx5dv_flow_action_attr a[] = {
			ACT_DEVX(self->tir.obj), ACT_DROP,
		};

		CHECK(!flow(rx, 80, a, 2));
		CHECK_ERR(errno, EOPNOTSUPP);
	}
	{	/* a receive rule that sends the packet nowhere */
		struct mlx5dv_flow_action_attr a[] = { ACT_TAG(1) };

		CHECK(!flow(rx, 80, a, 1));
		CHECK_ERR(errno, EINVAL);
	}
	{	/* a modify header made for the other table type */
		struct mlx5dv_flow_action_attr a[] = {
			ACT_ACTION(mh_tx), ACT_DEVX(self->tir.obj),
		};

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
	return KSFT_PASS;
}

/* In a child: a matcher, then a rule once CAP_NET_RAW is dropped. */
static int rule_without_net_raw(void *arg)
{
	struct mlx5dv_flow_action_attr a[] = { ACT_DROP };
	struct mlx5dv_flow_matcher *m;
	struct env e;

	(void)arg;
	if (!env_open(&e))
		return 2;
	if (!mt_drop_cap(CAP_NET_RAW))
		return 3;
	m = dport_matcher(e.q.ctx, NIC_RX, 0);
	if (!m)
		return 5;
	return flow(m, 80, a, 1) ? 6 : errno == EPERM ? 0 : 7;
}

/* CREATE_FLOW needs CAP_NET_RAW; a matcher does not. */
static int test_needs_cap_net_raw(void)
{
	CHECK_EQ(mt_run_child(rule_without_net_raw, NULL), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_devx_ctx_fixture, matcher_ranges),
	MT_CASE_ON(mt_devx_ctx_fixture, action_refusals),
	MT_CASE_F(env, flow_refusals),
	MT_CASE(needs_cap_net_raw),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
