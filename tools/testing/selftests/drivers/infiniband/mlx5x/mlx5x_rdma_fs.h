/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The RDMA RX and RDMA TX steering domains, for the cases that use them
 * (mlx5x_rdma_fs, mlx5x_rc_wire): a flow matcher on the BTH's destination
 * QP, a flow on it, and a DEVX table of a domain whose one entry (on
 * every packet) drops or forwards to another table.
 */
#ifndef MLX5X_RDMA_FS_H
#define MLX5X_RDMA_FS_H

#include <errno.h>
#include <stdlib.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"

#define RDMA_RX			MLX5DV_FLOW_TABLE_TYPE_RDMA_RX
#define RDMA_TX			MLX5DV_FLOW_TABLE_TYPE_RDMA_TX
/* their PRM table types (mlx5_core's FS_FT_RDMA_RX/TX) */
#define PRM_FT_RDMA_RX		7
#define PRM_FT_RDMA_TX		8
#define CRIT_MISC		2
#define M_BTH_DST_QP		PRM_FTE_MATCH_PARAM_MISC_PARAMETERS_BTH_DST_QP

/* A match parameter buffer on the BTH's destination QP (mask or value). */
static inline struct mlx5dv_flow_match_parameters *rdma_match_qp(uint32_t qpn)
{
	struct mlx5dv_flow_match_parameters *m;

	m = calloc(1, sizeof(*m) + PRM_FTE_MATCH_PARAM_BYTES);
	if (!m)
		return NULL;
	m->match_sz = PRM_FTE_MATCH_PARAM_BYTES;
	mt_set(m->match_buf, M_BTH_DST_QP, qpn);
	return m;
}

/* A matcher of @ft_type (RDMA_RX, RDMA_TX) at @prio on the destination QP. */
static inline struct mlx5dv_flow_matcher *
rdma_qp_matcher(struct ibv_context *ctx, int ft_type, uint16_t prio)
{
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.priority = prio,
		.match_criteria_enable = CRIT_MISC,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = ft_type,
	};
	struct mlx5dv_flow_matcher *m;

	attr.match_mask = rdma_match_qp(0xffffff);
	if (!CHECK(attr.match_mask))
		return NULL;
	errno = 0;
	m = mlx5dv_create_flow_matcher(ctx, &attr);
	free(attr.match_mask);
	return m;
}

/* A flow of @m for packets to QP @qpn, with @n actions; errno on failure. */
static inline struct ibv_flow *rdma_qp_flow(struct mlx5dv_flow_matcher *m,
					    uint32_t qpn,
					    struct mlx5dv_flow_action_attr *act,
					    size_t n)
{
	return mt_dv_flow(m, rdma_match_qp(qpn), act, n);
}

/**
 * struct rdma_ft - a DEVX table of an RDMA domain with one catch-all entry
 * @ft: the table
 * @fg: its group (no match criteria)
 * @fte: its entry
 * @id: the table's id
 */
struct rdma_ft {
	struct mlx5dv_devx_obj *ft, *fg, *fte;
	uint32_t id;
};

/*
 * A table of PRM type @type at @level whose entry drops every packet
 * (@to 0) or forwards it to table @to (ignoring levels); false on failure,
 * with what was made in @t.
 */
static inline bool rdma_ft_open(struct ibv_context *ctx, struct rdma_ft *t,
				uint32_t type, uint32_t level, uint32_t to)
{
	uint32_t tin[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {};
	uint32_t gin[PRM_CREATE_FLOW_GROUP_IN_BYTES / 4] = {};
	uint32_t ein[(PRM_SET_FTE_IN_BYTES +
		      PRM_DEST_FORMAT_STRUCT_BYTES) / 4] = {};
	uint8_t *list = (uint8_t *)ein + PRM_SET_FTE_IN_BYTES;
	uint32_t out[PRM_CREATE_FLOW_TABLE_OUT_BYTES / 4] = {};
	uint32_t gout[PRM_CREATE_FLOW_GROUP_OUT_BYTES / 4] = {};

	memset(t, 0, sizeof(*t));
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_TABLE_TYPE, type);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LEVEL, level);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LOG_SIZE, 2);
	t->ft = mlx5dv_devx_obj_create(ctx, tin, sizeof(tin), out,
				       sizeof(out));
	if (!CHECK(t->ft))
		return false;
	t->id = mt_get(out, PRM_CREATE_FLOW_TABLE_OUT_TABLE_ID);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_OPCODE, PRM_OP_CREATE_FLOW_GROUP);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_TYPE, type);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_ID, t->id);
	t->fg = mlx5dv_devx_obj_create(ctx, gin, sizeof(gin), gout,
				       sizeof(gout));
	if (!CHECK(t->fg))
		return false;
	mt_set(ein, PRM_SET_FTE_IN_OPCODE, PRM_OP_SET_FLOW_TABLE_ENTRY);
	mt_set(ein, PRM_SET_FTE_IN_TABLE_TYPE, type);
	mt_set(ein, PRM_SET_FTE_IN_TABLE_ID, t->id);
	mt_set(ein, PRM_SET_FTE_IN_FLOW_CONTEXT_GROUP_ID,
	       mt_get(gout, PRM_CREATE_FLOW_GROUP_OUT_GROUP_ID));
	if (to) {
		mt_set(ein, PRM_SET_FTE_IN_IGNORE_FLOW_LEVEL, 1);
		mt_set(ein, PRM_SET_FTE_IN_FLOW_CONTEXT_ACTION,
		       PRM_FLOW_CONTEXT_ACTION_FWD_DEST);
		mt_set(ein, PRM_SET_FTE_IN_FLOW_CONTEXT_DESTINATION_LIST_SIZE,
		       1);
		mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_TYPE, 1);
		mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_ID, to);
	} else {
		mt_set(ein, PRM_SET_FTE_IN_FLOW_CONTEXT_ACTION,
		       PRM_FLOW_CONTEXT_ACTION_DROP);
	}
	t->fte = mlx5dv_devx_obj_create(ctx, ein, sizeof(ein), out, 16);
	return CHECK(t->fte);
}

static inline void rdma_ft_close(struct rdma_ft *t)
{
	if (t->fte)
		CHECK_ERR(mlx5dv_devx_obj_destroy(t->fte), 0);
	if (t->fg)
		CHECK_ERR(mlx5dv_devx_obj_destroy(t->fg), 0);
	if (t->ft)
		CHECK_ERR(mlx5dv_devx_obj_destroy(t->ft), 0);
	memset(t, 0, sizeof(*t));
}

#endif /* MLX5X_RDMA_FS_H */
