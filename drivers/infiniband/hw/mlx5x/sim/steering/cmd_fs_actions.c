// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The contexts flow table entries point at: modify header contexts (a list
 * of set/add/copy actions on header fields) and packet reformat contexts
 * (a header to push, or the L2 header that replaces a decapsulated
 * tunnel).  Entries reference them, so they outlive every entry using
 * them.
 */
#include <linux/slab.h>
#include "fs.h"

#define SIM_MH_ACTION_BYTES	PRM_UN_BYTES(set_add_copy_action_in_auto)

/* Header fields an action may name, and their width in bits. */
static const u8 sim_mh_field_bits[] = {
	[MLX5_ACTION_IN_FIELD_OUT_SMAC_47_16] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_SMAC_15_0] = 16,
	[MLX5_ACTION_IN_FIELD_OUT_ETHERTYPE] = 16,
	[MLX5_ACTION_IN_FIELD_OUT_DMAC_47_16] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_DMAC_15_0] = 16,
	[MLX5_ACTION_IN_FIELD_OUT_IP_DSCP] = 6,
	[MLX5_ACTION_IN_FIELD_OUT_TCP_FLAGS] = 9,
	[MLX5_ACTION_IN_FIELD_OUT_TCP_SPORT] = 16,
	[MLX5_ACTION_IN_FIELD_OUT_TCP_DPORT] = 16,
	[MLX5_ACTION_IN_FIELD_OUT_IP_TTL] = 8,
	[MLX5_ACTION_IN_FIELD_OUT_UDP_SPORT] = 16,
	[MLX5_ACTION_IN_FIELD_OUT_UDP_DPORT] = 16,
	[MLX5_ACTION_IN_FIELD_OUT_SIPV6_127_96] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_SIPV6_95_64] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_SIPV6_63_32] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_SIPV6_31_0] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_DIPV6_127_96] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_DIPV6_95_64] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_DIPV6_63_32] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_DIPV6_31_0] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_SIPV4] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_DIPV4] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_FIRST_VID] = 12,
	[MLX5_ACTION_IN_FIELD_OUT_IPV6_HOPLIMIT] = 8,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_A] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_B] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_0] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_1] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_2] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_3] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_4] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_5] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_6] = 32,
	[MLX5_ACTION_IN_FIELD_METADATA_REG_C_7] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_TCP_SEQ_NUM] = 32,
	[MLX5_ACTION_IN_FIELD_OUT_TCP_ACK_NUM] = 32,
};

static unsigned int sim_mh_width(u32 field)
{
	return field < ARRAY_SIZE(sim_mh_field_bits) ?
	       sim_mh_field_bits[field] : 0;
}

/* Bits [offset, offset + length) lie inside the field; length 0 is 32. */
static bool sim_mh_span_ok(u32 field, u32 offset, u32 length)
{
	unsigned int width = sim_mh_width(field);

	return width && offset + (length ?: 32) <= width;
}

static bool sim_mh_action_ok(const void *act)
{
	switch (PRM_GET(set_action_in, act, action_type)) {
	case MLX5_ACTION_TYPE_SET:
		return sim_mh_span_ok(PRM_GET(set_action_in, act, field),
				      PRM_GET(set_action_in, act, offset),
				      PRM_GET(set_action_in, act, length));
	case MLX5_ACTION_TYPE_ADD:
		return sim_mh_width(PRM_GET(add_action_in, act, field));
	case MLX5_ACTION_TYPE_COPY:
		return sim_mh_span_ok(PRM_GET(copy_action_in, act, src_field),
				      PRM_GET(copy_action_in, act, src_offset),
				      PRM_GET(copy_action_in, act, length)) &&
		       sim_mh_span_ok(PRM_GET(copy_action_in, act, dst_field),
				      PRM_GET(copy_action_in, act, dst_offset),
				      PRM_GET(copy_action_in, act, length));
	default:
		return false;
	}
}

static u8 sim_alloc_modify_hdr(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	u32 type = PRM_GET(alloc_modify_header_context_in, in, table_type);
	u32 n = PRM_GET(alloc_modify_header_context_in, in, num_of_actions);
	const u8 *acts = (const u8 *)in +
			 PRM_BYTES(alloc_modify_header_context_in);
	struct sim_modify_hdr *mh;
	struct sim_obj *obj;
	u32 i;
	u8 status;

	if (!sim_fs_prop(sim, type) || !n ||
	    n > SIM_FS_PROP(sim, type, max_modify_header_actions))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (ctx->inlen < PRM_BYTES(alloc_modify_header_context_in) +
			 n * SIM_MH_ACTION_BYTES)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN, SIM_SYND_BAD_INLEN);
	for (i = 0; i < n; i++)
		if (!sim_mh_action_ok(acts + i * SIM_MH_ACTION_BYTES))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_MODIFY_HDR, &obj);
	if (status)
		return status;
	mh = container_of(obj, struct sim_modify_hdr, obj);
	mh->actions = kmemdup(acts, n * SIM_MH_ACTION_BYTES, GFP_KERNEL);
	if (!mh->actions) {
		sim_obj_destroy(sim, ctx, SIM_OBJ_MODIFY_HDR, obj->id);
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	}
	mh->table_type = type;
	mh->nactions = n;
	PRM_SET(alloc_modify_header_context_out, ctx->out, modify_header_id,
		obj->id);
	return PRM_STAT_OK;
}

void sim_modify_hdr_release(struct sim_obj *obj)
{
	kfree(container_of(obj, struct sim_modify_hdr, obj)->actions);
}

/**
 * sim_fs_reformat_ok() - may tables of a type apply a reformat type?
 * @sim: the model
 * @table_type: the table type
 * @reformat_type: reformat_type of a packet reformat context
 *
 * Return: true when the type's capabilities offer it.
 */
bool sim_fs_reformat_ok(struct mlx5x_sim *sim, u32 table_type,
			u32 reformat_type)
{
	switch (reformat_type) {
	case MLX5_REFORMAT_TYPE_L2_TO_VXLAN:
	case MLX5_REFORMAT_TYPE_L2_TO_NVGRE:
	case MLX5_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
		return SIM_FS_PROP(sim, table_type, reformat);
	case MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
		return SIM_FS_PROP(sim, table_type, reformat_l3_tunnel_to_l2);
	case MLX5_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
		return SIM_FS_PROP(sim, table_type, reformat_l2_to_l3_tunnel);
	default:
		return false;
	}
}

/* Ethernet header without and with a VLAN tag: what decap puts back. */
#define SIM_L2_HDR_BYTES	14
#define SIM_L2_VLAN_HDR_BYTES	18

static bool sim_reformat_size_ok(struct mlx5x_sim *sim, u32 type, u32 size)
{
	void *page = sim->caps[SIM_FS_CAP_TYPE];

	if (type == MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2)
		return size == SIM_L2_HDR_BYTES || size == SIM_L2_VLAN_HDR_BYTES;
	return size && size <= PRM_GET(flow_table_nic_cap, page,
				       max_encap_header_size);
}

static u8 sim_alloc_pkt_reformat(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	const void *rc = PRM_ADDR(alloc_packet_reformat_context_in, ctx->in,
				  packet_reformat_context);
	u32 type = PRM_GET(packet_reformat_context_in, rc, reformat_type);
	u32 size = PRM_GET(packet_reformat_context_in, rc, reformat_data_size);
	const u8 *data = PRM_ADDR(packet_reformat_context_in, rc,
				  reformat_data);
	struct sim_pkt_reformat *pr;
	struct sim_obj *obj;
	u32 t;
	bool offered = false;
	u8 status;

	for (t = 0; t < SIM_FS_NTYPES; t++)
		offered |= sim_fs_reformat_ok(sim, t, type);
	if (!offered || !sim_reformat_size_ok(sim, type, size) ||
	    PRM_GET(packet_reformat_context_in, rc, reformat_param_0) ||
	    PRM_GET(packet_reformat_context_in, rc, reformat_param_1))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (ctx->inlen < (size_t)(data - (const u8 *)ctx->in) + size)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN, SIM_SYND_BAD_INLEN);
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_PKT_REFORMAT, &obj);
	if (status)
		return status;
	pr = container_of(obj, struct sim_pkt_reformat, obj);
	pr->data = kmemdup(data, size, GFP_KERNEL);
	if (!pr->data) {
		sim_obj_destroy(sim, ctx, SIM_OBJ_PKT_REFORMAT, obj->id);
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	}
	pr->type = type;
	pr->size = size;
	PRM_SET(alloc_packet_reformat_context_out, ctx->out,
		packet_reformat_id, obj->id);
	return PRM_STAT_OK;
}

void sim_pkt_reformat_release(struct sim_obj *obj)
{
	kfree(container_of(obj, struct sim_pkt_reformat, obj)->data);
}

static const struct sim_cmd sim_fs_action_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_ALLOC_MODIFY_HEADER_CONTEXT,
		"ALLOC_MODIFY_HEADER_CONTEXT", alloc_modify_header_context_in,
		alloc_modify_header_context_out, true, sim_alloc_modify_hdr),
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_MODIFY_HEADER_CONTEXT,
		     "DEALLOC_MODIFY_HEADER_CONTEXT",
		     dealloc_modify_header_context_in,
		     dealloc_modify_header_context_out, SIM_OBJ_MODIFY_HDR,
		     modify_header_id),
	SIM_CMD(MLX5_CMD_OP_ALLOC_PACKET_REFORMAT_CONTEXT,
		"ALLOC_PACKET_REFORMAT_CONTEXT",
		alloc_packet_reformat_context_in,
		alloc_packet_reformat_context_out, true,
		sim_alloc_pkt_reformat),
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_PACKET_REFORMAT_CONTEXT,
		     "DEALLOC_PACKET_REFORMAT_CONTEXT",
		     dealloc_packet_reformat_context_in,
		     dealloc_packet_reformat_context_out, SIM_OBJ_PKT_REFORMAT,
		     packet_reformat_id),
};

const struct sim_cmd_set sim_fs_action_cmds = {
	sim_fs_action_cmd_list, ARRAY_SIZE(sim_fs_action_cmd_list)
};
