// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Identity queries: adapter (vendor), NIC vport context (GUIDs, MAC) and
 * the special contexts (the reserved lkey).
 */
#include <linux/string.h>
#include "../sim_priv.h"
#include "../dp/datapath.h"

#define SIM_IEEE_VENDOR_ID	0x0002c9
#define SIM_PCI_VENDOR_ID	0x15b3

static u8 sim_query_adapter(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	void *blk = PRM_ADDR(query_adapter_out, ctx->out, query_adapter_struct);

	PRM_SET(query_adapter_param_block, blk, ieee_vendor_id,
		SIM_IEEE_VENDOR_ID);
	PRM_SET(query_adapter_param_block, blk, vsd_vendor_id,
		SIM_PCI_VENDOR_ID);
	return PRM_STAT_OK;
}

/* Only the function's own vport: the model has no e-switch manager. */
static u8 sim_query_nic_vport_context(struct mlx5x_sim *sim,
				      struct sim_cmd_ctx *ctx)
{
	void *vc = PRM_ADDR(query_nic_vport_context_out, ctx->out,
			    nic_vport_context);
	void *mac = PRM_ADDR(nic_vport_context, vc, permanent_address);

	if (PRM_GET(query_nic_vport_context_in, ctx->in, other_vport))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(nic_vport_context, vc, roce_en, 1);
	PRM_SET(nic_vport_context, vc, mtu, sim->params.mtu);
	PRM_SET64(nic_vport_context, vc, system_image_guid,
		  sim->params.node_guid);
	PRM_SET64(nic_vport_context, vc, port_guid, sim->params.node_guid);
	PRM_SET64(nic_vport_context, vc, node_guid, sim->params.node_guid);
	memcpy(PRM_ADDR(mac_address_layout, mac, mac_addr_47_32),
	       sim->params.mac, sizeof(sim->params.mac));
	return PRM_STAT_OK;
}

/*
 * The keys every function has without making them: the reserved lkey,
 * with which the kernel's own queues name their buffers by the address
 * the device reaches them at (mlx5_core reads it at load).  No dump-fill
 * or null mkey: the caps that would advertise them are clear.
 */
static u8 sim_query_special_contexts(struct mlx5x_sim *sim,
				     struct sim_cmd_ctx *ctx)
{
	PRM_SET(query_special_contexts_out, ctx->out, resd_lkey,
		SIM_RESD_LKEY);
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_vport_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_QUERY_ADAPTER, "QUERY_ADAPTER", query_adapter_in,
		query_adapter_out, true, sim_query_adapter),
	SIM_CMD(MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT, "QUERY_NIC_VPORT_CONTEXT",
		query_nic_vport_context_in, query_nic_vport_context_out,
		true, sim_query_nic_vport_context),
	SIM_CMD(MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS, "QUERY_SPECIAL_CONTEXTS",
		query_special_contexts_in, query_special_contexts_out, true,
		sim_query_special_contexts),
};

const struct sim_cmd_set sim_vport_cmds = {
	sim_vport_cmd_list, ARRAY_SIZE(sim_vport_cmd_list)
};
