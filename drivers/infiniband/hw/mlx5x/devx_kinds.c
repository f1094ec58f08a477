// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DEVX allow-lists, as data: every object kind a process may create
 * through MLX5_IB_METHOD_DEVX_OBJ_CREATE, and every command that may modify
 * or query one.  Anything not listed here is refused before the backend
 * sees it.  Field positions come from <linux/mlx5/mlx5_ifc.h>.
 */
#include "mlx5x.h"
#include "devx_kinds.h"

#define FIELD(typ, fld) {						\
	.off = PRM_BIT_OFF(typ, fld), .bits = PRM_BIT_SZ(typ, fld) }

#define KIND(nm, cop, dop, out_typ, out_fld, din_typ, din_fld) {	\
	.name = (nm), .create_op = (cop), .destroy_op = (dop),		\
	.out_id = FIELD(out_typ, out_fld),				\
	.destroy_id = FIELD(din_typ, din_fld),				\
	.destroy_inlen = PRM_BYTES(din_typ) +				\
		BUILD_BUG_ON_ZERO(PRM_BYTES(din_typ) >			\
				  MLX5X_DEVX_DINBOX_BYTES) }

enum {
	KIND_PD,
	KIND_TD,
	KIND_Q_COUNTER,
	KIND_FLOW_COUNTER,
	KIND_MAX,
};

static const struct mlx5x_devx_kind mlx5x_devx_kinds[KIND_MAX] = {
	[KIND_PD] = KIND("pd", MLX5_CMD_OP_ALLOC_PD, MLX5_CMD_OP_DEALLOC_PD,
			 alloc_pd_out, pd, dealloc_pd_in, pd),
	[KIND_TD] = KIND("td", MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN,
			 MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
			 alloc_transport_domain_out, transport_domain,
			 dealloc_transport_domain_in, transport_domain),
	[KIND_Q_COUNTER] = KIND("q_counter", MLX5_CMD_OP_ALLOC_Q_COUNTER,
				MLX5_CMD_OP_DEALLOC_Q_COUNTER,
				alloc_q_counter_out, counter_set_id,
				dealloc_q_counter_in, counter_set_id),
	[KIND_FLOW_COUNTER] = KIND("flow_counter",
				   MLX5_CMD_OP_ALLOC_FLOW_COUNTER,
				   MLX5_CMD_OP_DEALLOC_FLOW_COUNTER,
				   alloc_flow_counter_out, flow_counter_id,
				   dealloc_flow_counter_in, flow_counter_id),
};

#define OP(opc, k, typ, fld, mod) {					\
	.opcode = (opc), .kind = &mlx5x_devx_kinds[k],			\
	.id = FIELD(typ, fld), .modify = (mod) }

static const struct mlx5x_devx_op mlx5x_devx_ops[] = {
	OP(MLX5_CMD_OP_QUERY_Q_COUNTER, KIND_Q_COUNTER, query_q_counter_in,
	   counter_set_id, false),
	OP(MLX5_CMD_OP_QUERY_FLOW_COUNTER, KIND_FLOW_COUNTER,
	   query_flow_counter_in, flow_counter_id, false),
};

/**
 * mlx5x_devx_kind_of_create() - the kind a create command makes
 * @opcode: opcode of a DEVX_OBJ_CREATE mailbox
 *
 * Return: the kind, or NULL when DEVX may not create with this opcode.
 */
const struct mlx5x_devx_kind *mlx5x_devx_kind_of_create(u16 opcode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5x_devx_kinds); i++)
		if (mlx5x_devx_kinds[i].create_op == opcode)
			return &mlx5x_devx_kinds[i];
	return NULL;
}

/**
 * mlx5x_devx_op_of() - what a modify or query command applies to
 * @opcode: opcode of a DEVX_OBJ_MODIFY or _QUERY mailbox
 *
 * Return: the entry, or NULL when the opcode is not allowed.
 */
const struct mlx5x_devx_op *mlx5x_devx_op_of(u16 opcode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5x_devx_ops); i++)
		if (mlx5x_devx_ops[i].opcode == opcode)
			return &mlx5x_devx_ops[i];
	return NULL;
}
