// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Event queues.  On a ConnectX the core driver creates one completion EQ
 * per vector; the model creates them itself when the device is made, owned
 * by uid 0, so that CQs have EQ numbers to name.
 */
#include "../sim_priv.h"

int sim_eqs_init(struct mlx5x_sim *sim)
{
	struct sim_cmd_ctx ctx = {};
	struct sim_obj *obj;
	unsigned int v;

	for (v = 0; v < SIM_COMP_VECTORS; v++) {
		if (sim_obj_alloc(sim, &ctx, SIM_OBJ_EQ, &obj)) {
			sim_eqs_free(sim);
			return -ENOMEM;
		}
		sim->comp_eqn[v] = obj->id;
	}
	return 0;
}

void sim_eqs_free(struct mlx5x_sim *sim)
{
	struct sim_cmd_ctx ctx = {};
	unsigned int v;

	for (v = 0; v < SIM_COMP_VECTORS; v++)
		if (sim->comp_eqn[v])
			sim_obj_destroy(sim, &ctx, SIM_OBJ_EQ,
					sim->comp_eqn[v]);
	memset(sim->comp_eqn, 0, sizeof(sim->comp_eqn));
}

/**
 * mlx5x_sim_comp_eqn() - the completion EQ of a vector
 * @sim: the model
 * @vector: completion vector, below mlx5x_sim_comp_vectors()
 * @eqn: its EQ number
 */
int mlx5x_sim_comp_eqn(struct mlx5x_sim *sim, unsigned int vector, u32 *eqn)
{
	if (vector >= SIM_COMP_VECTORS)
		return -EINVAL;
	*eqn = sim->comp_eqn[vector];
	return 0;
}

unsigned int mlx5x_sim_comp_vectors(struct mlx5x_sim *sim)
{
	return SIM_COMP_VECTORS;
}
