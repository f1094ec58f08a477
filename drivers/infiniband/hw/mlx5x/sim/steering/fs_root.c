// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SET_FLOW_TABLE_ROOT: the table of each type where the device starts
 * steering a packet.  The root belongs to the kernel's steering (uid 0):
 * user contexts reach the pipeline through the kernel's rules, never by
 * replacing its root.  The root table is referenced, so it cannot be
 * destroyed while it is the root.
 */
#include "fs.h"

enum {
	SIM_ROOT_CONNECT = 0,
	SIM_ROOT_DISCONNECT = 1,
};

static void sim_fs_root_set(struct mlx5x_sim *sim, u32 type,
			    struct sim_flow_table *ft)
{
	struct sim_flow_table *old = sim->fs_root[type];

	sim_obj_put(old ? &old->obj : NULL);
	sim->fs_root[type] = ft;
}

static u8 sim_set_flow_table_root(struct mlx5x_sim *sim,
				  struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	u32 type = PRM_GET(set_flow_table_root_in, in, table_type);
	u32 id = PRM_GET(set_flow_table_root_in, in, table_id);
	struct sim_flow_table *ft;
	struct sim_obj *obj;
	u8 status;

	status = sim_fs_own_vport(ctx,
				  PRM_GET(set_flow_table_root_in, in,
					  other_vport),
				  PRM_GET(set_flow_table_root_in, in,
					  vport_number));
	if (status)
		return status;
	if (ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_NOT_OWNER);
	if (!sim_fs_prop(sim, type) || type >= SIM_FS_NTYPES ||
	    PRM_GET(set_flow_table_root_in, in, table_of_other_vport) ||
	    PRM_GET(set_flow_table_root_in, in, table_vport_number) ||
	    PRM_GET(set_flow_table_root_in, in,
		    table_eswitch_owner_vhca_id_valid) ||
	    PRM_GET(set_flow_table_root_in, in, underlay_qpn))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	switch (ctx->op_mod) {
	case SIM_ROOT_CONNECT:
		status = sim_flow_table_get(sim, ctx, type, id, &ft);
		if (status)
			return status;
		status = sim_obj_ref(sim, ctx, SIM_OBJ_FLOW_TABLE, id, &obj);
		if (status)
			return status;
		sim_fs_root_set(sim, type, ft);
		return PRM_STAT_OK;
	case SIM_ROOT_DISCONNECT:
		if (id)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		sim_fs_root_set(sim, type, NULL);
		return PRM_STAT_OK;
	default:
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	}
}

/**
 * sim_fs_roots_drop() - forget the roots when the device goes away
 * @sim: the model
 *
 * A driver disconnects its roots before destroying its tables; this drops
 * what one that did not left, so the tables show up as leaks, not as
 * referenced objects.
 */
void sim_fs_roots_drop(struct mlx5x_sim *sim)
{
	u32 type;

	for (type = 0; type < SIM_FS_NTYPES; type++)
		sim_fs_root_set(sim, type, NULL);
}

/**
 * sim_shared_uid_cmd() - may a command run under the shared resource uid
 * @opcode: its opcode
 *
 * Return: true for the flow table, group and entry commands: the kernel
 * makes a steering anchor's table with them under that uid.
 */
bool sim_shared_uid_cmd(u16 opcode)
{
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_FLOW_TABLE:
	case MLX5_CMD_OP_DESTROY_FLOW_TABLE:
	case MLX5_CMD_OP_QUERY_FLOW_TABLE:
	case MLX5_CMD_OP_MODIFY_FLOW_TABLE:
	case MLX5_CMD_OP_CREATE_FLOW_GROUP:
	case MLX5_CMD_OP_DESTROY_FLOW_GROUP:
	case MLX5_CMD_OP_QUERY_FLOW_GROUP:
	case MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY:
	case MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY:
	case MLX5_CMD_OP_QUERY_FLOW_TABLE_ENTRY:
		return true;
	default:
		return false;
	}
}

static const struct sim_cmd sim_fs_root_cmd_list[] = {
	/* disconnecting the root is a teardown */
	SIM_CMD_DESTROY_OPMODS(MLX5_CMD_OP_SET_FLOW_TABLE_ROOT,
			       "SET_FLOW_TABLE_ROOT", set_flow_table_root_in,
			       set_flow_table_root_out, true,
			       BIT(SIM_ROOT_DISCONNECT),
			       sim_set_flow_table_root),
};

const struct sim_cmd_set sim_fs_root_cmds = {
	sim_fs_root_cmd_list, ARRAY_SIZE(sim_fs_root_cmd_list)
};
