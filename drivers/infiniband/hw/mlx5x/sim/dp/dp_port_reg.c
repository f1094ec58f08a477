// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's registers a driver reads through ACCESS_REG, as far as the
 * model has them: PCAM, which says what the port offers, and PPCNT's
 * Ethernet extended counters group, whose rx_icrc_encapsulated counts the
 * RoCE packets that came in with a bad ICRC (dp_ud_wire.c), the one
 * counter a ConnectX has for them (mlx5_ib offers it as the port's
 * hw_counter when PCAM's feature_cap_mask says so).
 *
 * Read only (op_mod 1), local port 1, the kernel's (uid 0): a write, any
 * other register, group, port or swid is refused with BAD_PARAM, as
 * firmware refuses what it does not have.  PPCNT's clr empties the group
 * after the answer.
 */
#include "../queues/queues.h"
#include "dp_priv.h"

/* What the register at @reg asks for, answered into @out. */
static bool sim_reg_pcam(struct mlx5x_sim *sim, const void *reg, void *out)
{
	if (PRM_GET(pcam_reg, reg, feature_group) ||
	    PRM_GET(pcam_reg, reg, access_reg_group))
		return false;
	PRM_SET(pcam_reg, out, PRM_PCAM_ICRC_CNT, 1);
	return true;
}

static bool sim_reg_ppcnt(struct mlx5x_sim *sim, const void *reg, void *out)
{
	struct sim_wire *w;

	if (PRM_GET(ppcnt_reg, reg, local_port) != 1 ||
	    PRM_GET(ppcnt_reg, reg, swid) || PRM_GET(ppcnt_reg, reg, pnat) ||
	    PRM_GET(ppcnt_reg, reg, grp) != PRM_PPCNT_ETH_EXTENDED)
		return false;
	PRM_SET(ppcnt_reg, out, local_port, 1);
	PRM_SET(ppcnt_reg, out, grp, PRM_PPCNT_ETH_EXTENDED);
	if (!sim->dp)
		return true;
	w = &sim->dp->wire;
	PRM_SET(ppcnt_reg, out, PRM_PPCNT_EXT(rx_icrc_encapsulated_high),
		upper_32_bits(w->ppcnt_icrc));
	PRM_SET(ppcnt_reg, out, PRM_PPCNT_EXT(rx_icrc_encapsulated_low),
		lower_32_bits(w->ppcnt_icrc));
	if (PRM_GET(ppcnt_reg, reg, clr))
		w->ppcnt_icrc = 0;
	return true;
}

static u8 sim_access_reg(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	size_t in_hdr = PRM_BYTES(access_register_in);
	size_t out_hdr = PRM_BYTES(access_register_out);
	const void *reg = (const u8 *)ctx->in + in_hdr;
	void *data = (u8 *)ctx->out + out_hdr;
	u16 id = PRM_GET(access_register_in, ctx->in, register_id);
	size_t len;
	bool ok;

	if (ctx->uid || ctx->op_mod != PRM_REG_READ)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	switch (id) {
	case PRM_REG_PCAM:
		len = PRM_BYTES(pcam_reg);
		break;
	case PRM_REG_PPCNT:
		len = PRM_BYTES(ppcnt_reg);
		break;
	default:
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	}
	if (ctx->inlen < in_hdr + len)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN, SIM_SYND_BAD_INLEN);
	if (ctx->outlen < out_hdr + len)
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN, SIM_SYND_BAD_OUTLEN);
	ok = id == PRM_REG_PCAM ? sim_reg_pcam(sim, reg, data) :
				   sim_reg_ppcnt(sim, reg, data);
	if (!ok) {
		memset(data, 0, len);
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	}
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_port_reg_list[] = {
	SIM_CMD(MLX5_CMD_OP_ACCESS_REG, "ACCESS_REG",
		access_register_in, access_register_out, false,
		sim_access_reg),
};

const struct sim_cmd_set sim_port_reg_cmds = {
	sim_port_reg_list, ARRAY_SIZE(sim_port_reg_list)
};
