// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * FLOW_METER_ASO general objects: a bulk of 1 << log_obj_range ASO
 * objects (two meters each), driven by ASO work requests over the PD
 * named at create time, as mlx5e's TC meters and DPDK's mlx5 meters use
 * them.  The limits are the QoS page's: log_meter_aso_granularity and
 * log_meter_aso_max_alloc bound one bulk, log_max_num_meter_aso all of
 * them together.
 *
 * The model keeps the PD (referenced) and the initial parameters of the
 * first object's two meters, which a query returns.  The ASO data path
 * that updates them is not modelled, and nothing is modifiable by
 * MODIFY_GENERAL_OBJECT.
 */
#include <linux/string.h>
#include "../core/general.h"

struct sim_meter_aso {
	struct sim_obj *pd;
	u8 log_range;
	u8 params[2][PRM_BYTES(flow_meter_parameters)];
};

#define SIM_METER_MODE_PACKETS	1	/* 0: bytes */
#define SIM_METER_COLOR_RED	2	/* green, yellow, red */

/**
 * sim_flow_meter_aso_caps() - the flow meter limits of the profile
 * @qos: the QoS capability page
 */
void sim_flow_meter_aso_caps(void *qos)
{
	PRM_SET(qos_cap, qos, log_meter_aso_granularity,
		SIM_METER_ASO_GRANULARITY);
	PRM_SET(qos_cap, qos, log_meter_aso_max_alloc, SIM_METER_ASO_MAX_ALLOC);
	PRM_SET(qos_cap, qos, log_max_num_meter_aso, SIM_METER_ASO_MAX);
}

static u32 sim_meter_weight(const void *priv)
{
	const struct sim_meter_aso *m = priv;

	return BIT(m->log_range);
}

/* QUERY_HCA_CAP type of the QoS page */
#define SIM_CAP_QOS_TYPE	0x0c

static u32 sim_meter_qos(struct mlx5x_sim *sim, size_t off, size_t bits)
{
	return prm_get_bits(sim->caps[SIM_CAP_QOS_TYPE], off, bits);
}

#define SIM_METER_QOS(sim, fld)						\
	sim_meter_qos(sim, PRM_BIT_OFF(qos_cap, fld), PRM_BIT_SZ(qos_cap, fld))

static u32 sim_meter_max(struct mlx5x_sim *sim)
{
	return BIT(SIM_METER_QOS(sim, log_max_num_meter_aso));
}

static u8 sim_meter_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   void *priv)
{
	const void *obj = PRM_ADDR(create_flow_meter_aso_obj_in, ctx->in,
				   flow_meter_aso_obj);
	u32 range = PRM_GET(general_obj_in_cmd_hdr, ctx->in,
			    PRM_GENERAL_LOG_OBJ_RANGE);
	struct sim_meter_aso *m = priv;
	unsigned int i;
	u8 status;

	if (range < SIM_METER_QOS(sim, log_meter_aso_granularity))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (range > SIM_METER_QOS(sim, log_meter_aso_max_alloc))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	/* the meters' initial parameters, as the PRM defines their values */
	for (i = 0; i < 2; i++) {
		const void *p = PRM_ADDR(flow_meter_aso_obj, obj,
					 flow_meter_parameters[i]);

		if (PRM_GET(flow_meter_parameters, p, meter_mode) >
		    SIM_METER_MODE_PACKETS ||
		    PRM_GET(flow_meter_parameters, p, start_color) >
		    SIM_METER_COLOR_RED)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		memcpy(m->params[i], p, sizeof(m->params[i]));
	}
	/* ASO work requests run under this PD: the context's own */
	status = sim_obj_ref(sim, ctx, SIM_OBJ_PD,
			     PRM_GET(flow_meter_aso_obj, obj,
				     meter_aso_access_pd), &m->pd);
	if (status)
		return status;
	m->log_range = range;
	return PRM_STAT_OK;
}

static u8 sim_meter_query(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			  const void *priv)
{
	const struct sim_meter_aso *m = priv;
	void *obj = (u8 *)ctx->out + PRM_BYTES(general_obj_out_cmd_hdr);
	unsigned int i;

	PRM_SET(flow_meter_aso_obj, obj, meter_aso_access_pd, m->pd->id);
	for (i = 0; i < 2; i++)
		memcpy(PRM_ADDR(flow_meter_aso_obj, obj,
				flow_meter_parameters[i]),
		       m->params[i], sizeof(m->params[i]));
	return PRM_STAT_OK;
}

static void sim_meter_release(void *priv)
{
	struct sim_meter_aso *m = priv;

	sim_obj_put(m->pd);
}

const struct sim_gen_type sim_gen_flow_meter_aso = {
	.obj_type = MLX5_GENERAL_OBJECT_TYPES_FLOW_METER_ASO,
	.name = "flow_meter_aso",
	.create_inlen = PRM_BYTES(create_flow_meter_aso_obj_in),
	.query_outlen = PRM_BYTES(general_obj_out_cmd_hdr) +
			PRM_BYTES(flow_meter_aso_obj),
	.priv_size = sizeof(struct sim_meter_aso),
	.bulk = true,
	.max_objs = sim_meter_max,
	.weight = sim_meter_weight,
	.create = sim_meter_create,
	.query = sim_meter_query,
	.release = sim_meter_release,
};
