// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DC targets: CREATE_DCT, QUERY_DCT, DRAIN_DCT, DESTROY_DCT; and what
 * CREATE_QP checks of a DC initiator (DCI).  A DCT is born active (ready
 * to receive: RTR in verbs' terms); it names its PD, the CQ its receives
 * complete in and the SRQ it always receives through, of the creator's
 * context; the DC access key every request must carry; the access rights
 * and RNR timer of its responder.  Its messages are dp/dp_dc.c's.
 *
 * DCT numbers are numbered apart from QP numbers, from SIM_DCTN_BASE: no
 * QP has such a number, as on a ConnectX, where both come from the one
 * QP number space.
 */
#include "dct.h"
#include "../dp/datapath.h"

/* The device's one port. */
#define SIM_DCT_PORT		1

/*
 * The responder's QP context of @dct, which the RC engine reads: the
 * fields a DCT shares with an RC QP, in RTR, on its SRQ.
 */
static void sim_dct_qpc(struct sim_dct *dct)
{
	const void *d = dct->dctc;
	void *q = dct->qp.qpc;

	PRM_SET(qpc, q, state, MLX5_QPC_STATE_RTR);
	PRM_SET(qpc, q, st, SIM_QPC_ST_DCT);
	PRM_SET(qpc, q, pd, PRM_GET(dctc, d, pd));
	PRM_SET(qpc, q, user_index, PRM_GET(dctc, d, user_index));
	PRM_SET(qpc, q, cqn_rcv, PRM_GET(dctc, d, cqn));
	PRM_SET(qpc, q, cqn_snd, PRM_GET(dctc, d, cqn));
	PRM_SET(qpc, q, rq_type, SIM_QPC_RQ_SRQ);
	PRM_SET(qpc, q, srqn_rmpn_xrqn, PRM_GET(dctc, d, srqn_xrqn));
	PRM_SET(qpc, q, no_sq, 1);
	PRM_SET(qpc, q, rre, PRM_GET(dctc, d, rre));
	PRM_SET(qpc, q, rwe, PRM_GET(dctc, d, rwe));
	PRM_SET(qpc, q, rae, PRM_GET(dctc, d, rae));
	PRM_SET(qpc, q, atomic_mode, PRM_GET(dctc, d, atomic_mode));
	PRM_SET(qpc, q, min_rnr_nak, PRM_GET(dctc, d, min_rnr_nak));
	PRM_SET(qpc, q, mtu, PRM_GET(dctc, d, mtu));
}

/*
 * What the model checks of a DCT's context: one port, its only P_Key, a
 * path MTU the port carries; no reserved lkey (no kernel DC), no scatter
 * of data to CQEs (not advertised).
 */
static u8 sim_dctc_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			 const void *dctc)
{
	u32 mtu = PRM_GET(dctc, dctc, mtu);

	if (PRM_GET(dctc, dctc, port) != SIM_DCT_PORT ||
	    PRM_GET(dctc, dctc, pkey_index) || PRM_GET(dctc, dctc, rlky) ||
	    PRM_GET(dctc, dctc, cs_res) ||
	    mtu < MLX5_QPC_MTU_256_BYTES || mtu > MLX5_QPC_MTU_4K_BYTES ||
	    (128U << mtu) > sim->params.mtu)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

static u8 sim_create_dct(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *dctc = PRM_ADDR(create_dct_in, ctx->in, dct_context_entry);
	struct sim_refs refs = {};
	struct sim_dct *dct;
	struct sim_qobj *q;
	u8 status;

	if (!SIM_CAP_GEN(sim, dct))
		return sim_fail(ctx, PRM_STAT_BAD_OP, SIM_SYND_BAD_OPCODE);
	status = sim_dctc_check(sim, ctx, dctc);
	if (status)
		return status;
	/* all of the creator's context (or the kernel's shared ones) */
	status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_PD,
			       PRM_GET(dctc, dctc, pd));
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_CQ,
				       PRM_GET(dctc, dctc, cqn));
	/* a DCT receives through an SRQ, always */
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_RMP,
				       PRM_GET(dctc, dctc, srqn_xrqn));
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	status = sim_q_alloc(sim, ctx, SIM_OBJ_DCT, &refs, &q);
	if (status)
		return status;
	dct = container_of(q, struct sim_dct, qp.q);
	memcpy(dct->dctc, dctc, PRM_BYTES(dctc));
	PRM_SET(dctc, dct->dctc, state, MLX5_DCTC_STATE_ACTIVE);
	PRM_SET(dctc, dct->dctc, dc_access_key_violation_count, 0);
	sim_dct_qpc(dct);
	PRM_SET(create_dct_out, ctx->out, dctn, q->obj.id);
	return PRM_STAT_OK;
}

static u8 sim_dct_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			 u32 dctn, struct sim_dct **dct)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_DCT, dctn, &q);
	if (!status)
		*dct = container_of(q, struct sim_dct, qp.q);
	return status;
}

static u8 sim_query_dct(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_dct *dct;
	u8 status;

	status = sim_dct_lookup(sim, ctx, PRM_GET(query_dct_in, ctx->in, dctn),
				&dct);
	if (!status)
		memcpy(PRM_ADDR(query_dct_out, ctx->out, dct_context_entry),
		       dct->dctc, PRM_BYTES(dctc));
	return status;
}

/*
 * DRAIN_DCT: the DCT takes no new message; one it is receiving (its SRQ
 * WQE held) ends first.  The loopback has no packet in flight: it is
 * drained at once.
 */
static u8 sim_drain_dct(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_dct *dct;
	u8 status;

	status = sim_dct_lookup(sim, ctx, PRM_GET(drain_dct_in, ctx->in, dctn),
				&dct);
	if (status)
		return status;
	if (PRM_GET(dctc, dct->dctc, state) != MLX5_DCTC_STATE_ACTIVE)
		return sim_fail(ctx, PRM_STAT_BAD_RES_STATE, SIM_SYND_BAD_STATE);
	PRM_SET(dctc, dct->dctc, state, MLX5_DCTC_STATE_DRAINED);
	return PRM_STAT_OK;
}

/**
 * sim_dci_check() - what CREATE_QP checks of a DCI's context
 * @sim: the model
 * @ctx: the command
 * @qpc: its QP context, of service type DCI
 *
 * A DCI sends only: no receive queue of its own (none, or an SRQ it
 * never takes from, as mlx5_ib gives it); stream channels, and streams
 * kept in error, within the caps.
 *
 * Return: a PRM status.
 */
u8 sim_dci_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 const void *qpc)
{
	u32 rq_type = PRM_GET(qpc, qpc, rq_type);

	if (!SIM_CAP_GEN(sim, dct))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if ((rq_type != SIM_QPC_RQ_ZERO_LEN && rq_type != SIM_QPC_RQ_SRQ) ||
	    PRM_GET(qpc, qpc, log_rq_size) || PRM_GET(qpc, qpc, no_sq))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (PRM_GET(qpc, qpc, log_num_dci_stream_channels) >
	    SIM_CAP_GEN(sim, log_max_dci_stream_channels) ||
	    PRM_GET(qpc, qpc, log_num_dci_errored_streams) >
	    SIM_CAP_GEN(sim, log_max_dci_errored_streams))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return PRM_STAT_OK;
}

/*
 * The QPC extension of RTS2RTS_QP (newer mlx5_ifc.h than 6.1's): the
 * qpc_ext bit, then after the QPC a 64-bit opt_param_mask_95_32 (both in
 * prm.h) and the extended context, whose dci_stream_channel_id resets a
 * DCI's stream.
 */
#define SIM_QP_MOD_QPC_EXT_AT		0x880
#define SIM_QPC_EXT_DCI_STREAM_OFF	(SIM_QP_MOD_QPC_EXT_AT + 0x10)
#define SIM_QP_MOD_EXT_BYTES		((SIM_QP_MOD_QPC_EXT_AT + 0x600) / 8)
#define SIM_QPC_OPT_32_DCI_STREAM	BIT(0)

/* Whether a modify command carries the QPC extension. */
bool sim_qp_ext(const struct sim_cmd_ctx *ctx)
{
	return prm_get_bits(ctx->in, PRM_QP_MOD_QPC_EXT_OFF, 1);
}

/**
 * sim_dci_stream_reset() - RTS2RTS_QP with the QPC extension
 * @sim: the model
 * @ctx: the command, its qpc_ext bit set
 * @qp: the QP, in RTS
 *
 * What the extension modifies of a QP in RTS is one thing here: a DCI's
 * stream in error taken out of error (mlx5dv_dci_stream_id_reset(3)).  A
 * mailbox too short for the extension, another field of it, a QP that
 * is not a DCI, or a stream that is not in error, is a bad parameter.
 *
 * Return: a PRM status.
 */
u8 sim_dci_stream_reset(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			struct sim_qp *qp)
{
	unsigned int i;
	u16 stream;

	if (ctx->inlen < SIM_QP_MOD_EXT_BYTES)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_INLEN);
	if (prm_get_bits(ctx->in, PRM_QP_MOD_OPT_95_32_OFF, 32) ||
	    prm_get_bits(ctx->in, PRM_QP_MOD_OPT_95_32_OFF + 32, 32) !=
	    SIM_QPC_OPT_32_DCI_STREAM ||
	    PRM_GET(qpc, qp->qpc, st) != MLX5_QPC_ST_DCI)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	stream = prm_get_bits(ctx->in, SIM_QPC_EXT_DCI_STREAM_OFF, 16);
	for (i = 0; i < qp->dp.n_errored; i++) {
		if (qp->dp.dci_errored[i] != stream)
			continue;
		qp->dp.dci_errored[i] = qp->dp.dci_errored[--qp->dp.n_errored];
		sim_dp_kick(sim);
		return PRM_STAT_OK;
	}
	return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
}

static const struct sim_cmd sim_dct_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_DCT, "CREATE_DCT", create_dct_in,
		create_dct_out, true, sim_create_dct),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_DCT, "DESTROY_DCT", destroy_dct_in,
		     destroy_dct_out, SIM_OBJ_DCT, dctn),
	SIM_CMD(MLX5_CMD_OP_QUERY_DCT, "QUERY_DCT", query_dct_in,
		query_dct_out, true, sim_query_dct),
	SIM_CMD(MLX5_CMD_OP_DRAIN_DCT, "DRAIN_DCT", drain_dct_in,
		drain_dct_out, true, sim_drain_dct),
};

const struct sim_cmd_set sim_dct_cmds = {
	sim_dct_cmd_list, ARRAY_SIZE(sim_dct_cmd_list)
};
