// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's RoCE address table: SET_ROCE_ADDRESS writes an entry at the
 * index the driver chooses (ib_core's GID table's), QUERY_ROCE_ADDRESS
 * reads it.  The model keeps the address (a GID), its RoCE version, its
 * L3 type and its VLAN (the address is on a VLAN device over the port's
 * netdev), not the MAC the command also carries (the port's is used).
 * An entry written with a zero address is empty.  The wire (dp/) tags
 * the packets sent from an entry with its VLAN, and takes a received
 * frame for an entry only when its VLAN is the entry's (none for none).  The data path builds a
 * UD datagram's source address from the entry its address vector names,
 * and delivers it on the internal loopback when the destination GID is
 * one of the table's (dp/dp_ud.c).
 */
#include "../sim_priv.h"

static bool sim_roce_zero(const u8 *gid)
{
	return !memchr_inv(gid, 0, SIM_GID_BYTES);
}

/* The entry a command names: its index within the table, port 1. */
static u8 sim_roce_index(struct sim_cmd_ctx *ctx, u32 index, u32 port)
{
	if (index >= SIM_ROCE_GIDS || port > 1)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

static u8 sim_set_roce_address(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u32 index = PRM_GET(set_roce_address_in, ctx->in, roce_address_index);
	const void *a = PRM_ADDR(set_roce_address_in, ctx->in, roce_address);
	struct sim_roce_gid *e;
	u32 version, l3;
	u8 status;

	/* the table is the kernel's: a context's mailbox never writes it */
	if (ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_UID);
	status = sim_roce_index(ctx, index,
				PRM_GET(set_roce_address_in, ctx->in,
					vhca_port_num));
	if (status)
		return status;
	version = PRM_GET(roce_addr_layout, a, roce_version);
	l3 = PRM_GET(roce_addr_layout, a, roce_l3_type);
	if ((version != SIM_ROCE_V1 && version != SIM_ROCE_V2) ||
	    (l3 != SIM_ROCE_L3_IPV4 && l3 != SIM_ROCE_L3_IPV6))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	e = &sim->gids[index];
	memcpy(e->gid, PRM_ADDR(roce_addr_layout, a, source_l3_address),
	       SIM_GID_BYTES);
	e->version = version;
	e->l3_type = l3;
	e->vlan_valid = PRM_GET(roce_addr_layout, a, vlan_valid);
	e->vlan_id = e->vlan_valid ? PRM_GET(roce_addr_layout, a, vlan_id) : 0;
	e->valid = !sim_roce_zero(e->gid);
	return PRM_STAT_OK;
}

static u8 sim_query_roce_address(struct mlx5x_sim *sim,
				 struct sim_cmd_ctx *ctx)
{
	u32 index = PRM_GET(query_roce_address_in, ctx->in,
			    roce_address_index);
	void *a = PRM_ADDR(query_roce_address_out, ctx->out, roce_address);
	const struct sim_roce_gid *e;
	u8 status;

	status = sim_roce_index(ctx, index,
				PRM_GET(query_roce_address_in, ctx->in,
					vhca_port_num));
	if (status)
		return status;
	e = &sim->gids[index];
	if (!e->valid)
		return PRM_STAT_OK;
	memcpy(PRM_ADDR(roce_addr_layout, a, source_l3_address), e->gid,
	       SIM_GID_BYTES);
	PRM_SET(roce_addr_layout, a, roce_version, e->version);
	PRM_SET(roce_addr_layout, a, roce_l3_type, e->l3_type);
	PRM_SET(roce_addr_layout, a, vlan_valid, e->vlan_valid);
	PRM_SET(roce_addr_layout, a, vlan_id, e->vlan_id);
	return PRM_STAT_OK;
}

/**
 * sim_roce_gid_find() - whether a GID is one of the port's
 * @sim: the model, its lock held
 * @gid: 16 bytes
 *
 * Return: the index of the first entry that holds it, or -1.
 */
int sim_roce_gid_find(struct mlx5x_sim *sim, const u8 *gid)
{
	unsigned int i;

	lockdep_assert_held(&sim->lock);
	for (i = 0; i < SIM_ROCE_GIDS; i++)
		if (sim->gids[i].valid &&
		    !memcmp(sim->gids[i].gid, gid, SIM_GID_BYTES))
			return i;
	return -1;
}

static const struct sim_cmd sim_roce_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_SET_ROCE_ADDRESS, "SET_ROCE_ADDRESS",
		set_roce_address_in, set_roce_address_out, false,
		sim_set_roce_address),
	SIM_CMD(MLX5_CMD_OP_QUERY_ROCE_ADDRESS, "QUERY_ROCE_ADDRESS",
		query_roce_address_in, query_roce_address_out, false,
		sim_query_roce_address),
};

const struct sim_cmd_set sim_roce_cmds = {
	sim_roce_cmd_list, ARRAY_SIZE(sim_roce_cmd_list)
};
