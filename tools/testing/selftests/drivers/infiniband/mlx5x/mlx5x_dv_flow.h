/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What mlx5x_dv_flow and mlx5x_dv_flow_refusals share: their fixture (a
 * DEVX context with queues, a TIR to its RQ, a PD and a CQ for verbs),
 * flow matchers on the TCP destination port, rules on them with their
 * actions, DEVX flow counters, modify header and packet reformat actions.
 */
#ifndef MLX5X_DV_FLOW_H
#define MLX5X_DV_FLOW_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define CRIT_OUTER		1
#define MATCH_BYTES		PRM_FTE_MATCH_PARAM_BYTES
#define M_SRC_IPV4		\
	PRM_FTE_MATCH_PARAM_OUTER_HEADERS_SRC_IPV4_SRC_IPV6_IPV4_LAYOUT_IPV4
#define M_DPORT			PRM_FTE_MATCH_PARAM_OUTER_HEADERS_TCP_DPORT
#define FIELD_TCP_DPORT		PRM_ACTION_IN_FIELD_OUT_TCP_DPORT
#define NIC_RX			MLX5DV_FLOW_TABLE_TYPE_NIC_RX
#define NIC_TX			MLX5DV_FLOW_TABLE_TYPE_NIC_TX

/*
 * A DEVX context with queues, a TIR to its RQ, a PD and CQ for verbs.
 * After the case nothing of the context is left in the model.
 */
struct env {
	struct mq q;
	struct mq_obj cq, rq, tir;
	struct ibv_pd *pd;
	struct ibv_cq *vcq;
};

static inline bool env_open(struct env *e)
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

/* Close, and check the context's objects all went with it; once only. */
static inline void env_close(struct env *e)
{
	if (e->vcq)
		CHECK_ERR(ibv_destroy_cq(e->vcq), 0);
	if (e->pd)
		CHECK_ERR(ibv_dealloc_pd(e->pd), 0);
	mq_close(&e->q);
	if (mt_sim() && e->q.uid)
		CHECK_EQ(mt_fw_count(NULL, e->q.uid), 0);
	memset(e, 0, sizeof(*e));
}

MT_FIXTURE(env);

MT_FIXTURE_SETUP(env)
{
	return env_open(self) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(env)
{
	env_close(self);
}

/* A match parameter buffer: TCP destination port (mask or value). */
static inline struct mlx5dv_flow_match_parameters *match_dport(uint16_t port)
{
	struct mlx5dv_flow_match_parameters *m;

	m = calloc(1, sizeof(*m) + MATCH_BYTES);
	if (!m)
		return NULL;
	m->match_sz = MATCH_BYTES;
	mt_set(m->match_buf, M_DPORT, port);
	return m;
}

static inline struct mlx5dv_flow_matcher *
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
static inline struct mlx5dv_flow_matcher *
dport_matcher(struct ibv_context *ctx, int ft_type, uint16_t prio)
{
	struct mlx5dv_flow_match_parameters *mask = match_dport(0xffff);
	struct mlx5dv_flow_matcher *m;

	if (!CHECK(mask))
		return NULL;
	m = matcher(ctx, ft_type, prio, CRIT_OUTER, mask);
	free(mask);
	return m;
}

static inline struct ibv_flow *flow(struct mlx5dv_flow_matcher *m,
				    uint16_t port,
				    struct mlx5dv_flow_action_attr *act,
				    size_t n)
{
	return mt_dv_flow(m, match_dport(port), act, n);
}

#define ACT_DEVX(o)	{ .type = MLX5DV_FLOW_ACTION_DEST_DEVX, .obj = (o) }
#define ACT_QP(p)	{ .type = MLX5DV_FLOW_ACTION_DEST_IBV_QP, .qp = (p) }
#define ACT_TAG(t)	{ .type = MLX5DV_FLOW_ACTION_TAG, .tag_value = (t) }
#define ACT_DROP	{ .type = MLX5DV_FLOW_ACTION_DROP }
#define ACT_MISS	{ .type = MLX5DV_FLOW_ACTION_DEFAULT_MISS }
#define ACT_COUNT(o)	{ .type = MLX5DV_FLOW_ACTION_COUNTERS_DEVX, .obj = (o) }
#define ACT_ACTION(a)	{ .type = MLX5DV_FLOW_ACTION_IBV_FLOW_ACTION, \
			  .action = (a) }

/* A DEVX flow counter (mt_flow_counter()), and what it counted. */
static inline struct mlx5dv_devx_obj *counter(struct ibv_context *ctx,
					      uint32_t *id)
{
	return mt_flow_counter(ctx, id);
}

static inline long long counted(struct mlx5dv_devx_obj *o, uint32_t id)
{
	return mt_flow_counted(o, id);
}

/* A modify header setting the TCP destination port. */
static inline struct ibv_flow_action *set_dport(struct ibv_context *ctx,
						int ft_type, uint16_t port,
						size_t n)
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

static inline struct ibv_flow_action *reformat(struct ibv_context *ctx,
					       int type, int ft_type,
					       size_t len)
{
	uint8_t hdr[256] = { 0x02, 0, 0, 0, 0, 0x09 };

	errno = 0;
	return mlx5dv_create_flow_action_packet_reformat(ctx, len, hdr, type,
							 ft_type);
}

#endif /* MLX5X_DV_FLOW_H */
