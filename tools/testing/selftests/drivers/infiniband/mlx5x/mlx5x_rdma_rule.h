/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What mlx5x_rdma_lb and mlx5x_rdma_lb_dc share: the port's RoCE v2 GID,
 * and a rule of an RDMA domain on the packets to one QP number that
 * counts them and may drop them.
 */
#ifndef MLX5X_RDMA_RULE_H
#define MLX5X_RDMA_RULE_H

#include "mlx5x_rdma_fs.h"

/* The port's first RoCE v2 GID's index, or -1. */
static inline int roce_v2_gid(struct ibv_context *ctx)
{
	struct ibv_gid_entry e;
	int i;

	for (i = 0; i < 16; i++)
		if (!ibv_query_gid_ex(ctx, 1, i, &e, 0) &&
		    e.gid_type == IBV_GID_TYPE_ROCE_V2)
			return i;
	return -1;
}

/**
 * struct rdma_rule - a rule of an RDMA domain and its parts
 * @m: its matcher
 * @cnt: its DEVX counter
 * @cnt_id: the counter's id
 * @flow: the rule
 * @t: the DEVX table of the domain it forwards to, if any
 */
struct rdma_rule {
	struct mlx5dv_flow_matcher *m;
	struct mlx5dv_devx_obj *cnt;
	uint32_t cnt_id;
	struct ibv_flow *flow;
	struct rdma_ft t;
};

/*
 * A rule of @ft_type on QP @qpn's packets: it counts them, and drops them
 * when @drop: on RDMA RX by forwarding them to a DEVX table of the domain
 * whose entry drops them (RDMA RX takes no DROP of its own), on RDMA TX
 * with its DROP action.
 */
static inline bool rdma_rule_open(struct ibv_context *ctx,
				  struct rdma_rule *r, int ft_type,
				  uint32_t qpn, bool drop)
{
	struct mlx5dv_flow_action_attr a[2] = {
		{ .type = MLX5DV_FLOW_ACTION_COUNTERS_DEVX },
	};

	r->m = rdma_qp_matcher(ctx, ft_type, 0);
	r->cnt = mt_flow_counter(ctx, &r->cnt_id);
	if (!CHECK(r->m) || !CHECK(r->cnt))
		return false;
	a[0].obj = r->cnt;
	if (drop && ft_type == RDMA_TX) {
		a[1].type = MLX5DV_FLOW_ACTION_DROP;
	} else if (drop) {
		if (!rdma_ft_open(ctx, &r->t, PRM_FT_RDMA_RX, 20, 0))
			return false;
		a[1].type = MLX5DV_FLOW_ACTION_DEST_DEVX;
		a[1].obj = r->t.ft;
	}
	r->flow = rdma_qp_flow(r->m, qpn, a, drop ? 2 : 1);
	return CHECK(r->flow);
}

/* What the rule's counter counted. */
static inline long long rdma_rule_counted(const struct rdma_rule *r)
{
	return mt_flow_counted(r->cnt, r->cnt_id);
}

static inline void rdma_rule_close(struct rdma_rule *r)
{
	if (r->flow)
		CHECK_ERR(ibv_destroy_flow(r->flow), 0);
	r->flow = NULL;
	rdma_ft_close(&r->t);
	if (r->cnt)
		CHECK_ERR(mlx5dv_devx_obj_destroy(r->cnt), 0);
	r->cnt = NULL;
	if (r->m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(r->m), 0);
	r->m = NULL;
}

#endif /* MLX5X_RDMA_RULE_H */
