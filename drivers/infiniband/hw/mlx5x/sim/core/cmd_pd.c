// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Protection domains and transport domains: an id and an owner each. */
#include "../sim_priv.h"

static const struct sim_cmd sim_pd_cmd_list[] = {
	SIM_ALLOC_CMD(MLX5_CMD_OP_ALLOC_PD, "ALLOC_PD", alloc_pd_in,
		      alloc_pd_out, SIM_OBJ_PD, pd),
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_PD, "DEALLOC_PD", dealloc_pd_in,
		     dealloc_pd_out, SIM_OBJ_PD, pd),
	SIM_ALLOC_CMD(MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN,
		      "ALLOC_TRANSPORT_DOMAIN", alloc_transport_domain_in,
		      alloc_transport_domain_out, SIM_OBJ_TD,
		      transport_domain),
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
		     "DEALLOC_TRANSPORT_DOMAIN", dealloc_transport_domain_in,
		     dealloc_transport_domain_out, SIM_OBJ_TD,
		     transport_domain),
};

const struct sim_cmd_set sim_pd_cmds = {
	sim_pd_cmd_list, ARRAY_SIZE(sim_pd_cmd_list)
};
