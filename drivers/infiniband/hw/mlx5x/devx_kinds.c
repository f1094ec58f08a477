// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DEVX allow-lists: every object kind a process may create through
 * MLX5_IB_METHOD_DEVX_OBJ_CREATE, and every command that may modify or
 * query one, gathered from the tables of each area.  Anything not listed
 * is refused before the backend sees it.
 */
#include "mlx5x.h"
#include "devx_kinds.h"

static const struct mlx5x_devx_kind_set *const mlx5x_devx_kind_sets[] = {
	&mlx5x_devx_basic_kinds,
	&mlx5x_devx_mkey_kinds,
	&mlx5x_devx_general_kinds,
	&mlx5x_devx_fs_kinds,
	&mlx5x_devx_queue_kinds,
};

/**
 * mlx5x_devx_kind_of_create() - the kind a create command makes
 * @in: a DEVX_OBJ_CREATE mailbox, at least a command header long
 *
 * Return: the kind, or NULL when DEVX may not create with this opcode and
 * op_mod.
 */
const struct mlx5x_devx_kind *mlx5x_devx_kind_of_create(const void *in)
{
	const struct mlx5x_devx_kind *any = NULL;
	u16 opcode = prm_in_opcode(in);
	unsigned int s, i;

	for (s = 0; s < ARRAY_SIZE(mlx5x_devx_kind_sets); s++) {
		const struct mlx5x_devx_kind_set *set = mlx5x_devx_kind_sets[s];

		for (i = 0; i < set->nkinds; i++) {
			if (set->kinds[i].create_op != opcode)
				continue;
			if (set->kinds[i].create_op_mod == prm_in_op_mod(in))
				return &set->kinds[i];
			if (set->kinds[i].any_op_mod && !any)
				any = &set->kinds[i];
		}
	}
	return any;
}

/**
 * mlx5x_devx_op_of() - what a modify or query command applies to
 * @opcode: opcode of a DEVX_OBJ_MODIFY or _QUERY mailbox
 * @modify: the method is a modify (else a query)
 *
 * Return: the entry, or NULL when the opcode is not allowed there.
 */
const struct mlx5x_devx_op *mlx5x_devx_op_of(u16 opcode, bool modify)
{
	unsigned int s, i;

	for (s = 0; s < ARRAY_SIZE(mlx5x_devx_kind_sets); s++) {
		const struct mlx5x_devx_kind_set *set = mlx5x_devx_kind_sets[s];

		for (i = 0; i < set->nops; i++)
			if (set->ops[i].opcode == opcode &&
			    set->ops[i].modify == modify)
				return &set->ops[i];
	}
	return NULL;
}
