// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * AV_QP_MAPPING general objects (type 0x3a), as mlx5dv_map_ah_to_qp(3)
 * creates them: an address vector (a UD or DC destination: its GID, the
 * source GID's index, the priority) mapped to a QP number, whose ECE
 * parameters a ConnectX then applies to traffic to that destination
 * (per-destination congestion control).  The man page calls it a hint:
 * the QP named need not be the caller's, nor exist any more.
 *
 * The loopback has no congestion to control: the mapping is kept,
 * answered by QUERY, and changes nothing of the traffic.  The model
 * checks what it can: no field to modify (modify_field_select 0), a
 * 24-bit QP number, a source GID index of the port's table that holds
 * an address.  The QP is not looked up: a mapping holds no reference,
 * and tells nothing of another context's QPs.
 */
#include "../core/general.h"

/*
 * av_qp_mapping, after the general object header (rdma-core's
 * mlx5_ifc.h; not in the kernel's): modify_field_select (64 bits),
 * reserved (32), qpn (32), then a ud_av of 48 bytes, whose
 * src_addr_index is at the offset below.
 */
#define SIM_AVQ_QPN_OFF		0x60
#define SIM_AVQ_AV_OFF		0x80
#define SIM_AVQ_SGID_OFF	(SIM_AVQ_AV_OFF + 0xe4)
#define SIM_AVQ_BYTES		64

struct sim_av_qp_mapping {
	u8 ctx[SIM_AVQ_BYTES];
};

static u8 sim_avq_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			 void *priv)
{
	const u8 *obj = (const u8 *)ctx->in + PRM_BYTES(general_obj_in_cmd_hdr);
	struct sim_av_qp_mapping *m = priv;
	u32 sgid = prm_get_bits(obj, SIM_AVQ_SGID_OFF, 8);

	if (prm_get_bits(obj, 0, 32) || prm_get_bits(obj, 32, 32) ||
	    prm_get_bits(obj, SIM_AVQ_QPN_OFF, 32) > 0xffffff)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (sgid >= SIM_ROCE_GIDS || !sim->gids[sgid].valid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	memcpy(m->ctx, obj, SIM_AVQ_BYTES);
	return PRM_STAT_OK;
}

static u8 sim_avq_query(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			const void *priv)
{
	const struct sim_av_qp_mapping *m = priv;

	memcpy((u8 *)ctx->out + PRM_BYTES(general_obj_out_cmd_hdr), m->ctx,
	       SIM_AVQ_BYTES);
	return PRM_STAT_OK;
}

const struct sim_gen_type sim_gen_av_qp_mapping = {
	.obj_type = SIM_OBJ_TYPE_AV_QP_MAPPING,
	.name = "av_qp_mapping",
	.create_inlen = PRM_BYTES(general_obj_in_cmd_hdr) + SIM_AVQ_BYTES,
	.query_outlen = PRM_BYTES(general_obj_out_cmd_hdr) + SIM_AVQ_BYTES,
	.priv_size = sizeof(struct sim_av_qp_mapping),
	.create = sim_avq_create,
	.query = sim_avq_query,
};
