// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX kinds that carry nothing but an id: protection, transport and
 * XRC domains, Q counters and flow counters.  Field positions come from
 * <linux/mlx5/mlx5_ifc.h>.
 */
#include "mlx5x.h"
#include "devx_kinds.h"

/* A flow counter allocation covers one counter or a bulk of them. */
static u32 mlx5x_flow_counter_span(const void *in)
{
	u32 log = PRM_GET(alloc_flow_counter_in, in,
			  flow_counter_bulk_log_size);

	if (log)
		return BIT(log);
	return MLX5_FC_BULK_SIZE_FACTOR *
	       PRM_GET(alloc_flow_counter_in, in, flow_counter_bulk) ?: 1;
}

enum {
	KIND_PD,
	KIND_TD,
	KIND_XRCD,
	KIND_Q_COUNTER,
	KIND_FLOW_COUNTER,
	KIND_MAX,
};

static const struct mlx5x_devx_kind mlx5x_basic_kinds[KIND_MAX] = {
	[KIND_PD] = MLX5X_KIND("pd", MLX5_CMD_OP_ALLOC_PD,
			       MLX5_CMD_OP_DEALLOC_PD, dealloc_pd_in,
			       MLX5X_KEY_FROM_OUT(alloc_pd_out, pd,
						  dealloc_pd_in, pd)),
	[KIND_TD] = MLX5X_KIND("td", MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN,
			       MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
			       dealloc_transport_domain_in,
			       MLX5X_KEY_FROM_OUT(alloc_transport_domain_out,
						  transport_domain,
						  dealloc_transport_domain_in,
						  transport_domain)),
	[KIND_XRCD] = MLX5X_KIND("xrcd", MLX5_CMD_OP_ALLOC_XRCD,
				 MLX5_CMD_OP_DEALLOC_XRCD, dealloc_xrcd_in,
				 MLX5X_KEY_FROM_OUT(alloc_xrcd_out, xrcd,
						    dealloc_xrcd_in, xrcd)),
	[KIND_Q_COUNTER] = MLX5X_KIND("q_counter",
				      MLX5_CMD_OP_ALLOC_Q_COUNTER,
				      MLX5_CMD_OP_DEALLOC_Q_COUNTER,
				      dealloc_q_counter_in,
				      MLX5X_KEY_FROM_OUT(alloc_q_counter_out,
							 counter_set_id,
							 dealloc_q_counter_in,
							 counter_set_id)),
	[KIND_FLOW_COUNTER] = {
		MLX5X_KIND_OPS("flow_counter", MLX5_CMD_OP_ALLOC_FLOW_COUNTER,
			       MLX5_CMD_OP_DEALLOC_FLOW_COUNTER,
			       dealloc_flow_counter_in),
		.key = { MLX5X_KEY_FROM_OUT(alloc_flow_counter_out,
					    flow_counter_id,
					    dealloc_flow_counter_in,
					    flow_counter_id) },
		.span = mlx5x_flow_counter_span,
	},
};

static const struct mlx5x_devx_op mlx5x_basic_ops[] = {
	MLX5X_OP(MLX5_CMD_OP_QUERY_Q_COUNTER,
		 &mlx5x_basic_kinds[KIND_Q_COUNTER], false,
		 MLX5X_FIELD(query_q_counter_in, counter_set_id)),
	{
		.opcode = MLX5_CMD_OP_QUERY_FLOW_COUNTER,
		.kind = &mlx5x_basic_kinds[KIND_FLOW_COUNTER],
		.key = { MLX5X_FIELD(query_flow_counter_in, flow_counter_id) },
		.count = MLX5X_FIELD(query_flow_counter_in, num_of_counters),
	},
};

const struct mlx5x_devx_kind_set mlx5x_devx_basic_kinds = {
	.kinds = mlx5x_basic_kinds,
	.nkinds = ARRAY_SIZE(mlx5x_basic_kinds),
	.ops = mlx5x_basic_ops,
	.nops = ARRAY_SIZE(mlx5x_basic_ops),
};
