// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: RC, UC and UD; their traffic is dp/dp_rc.c's and
 * dp/dp_ud.c's.  A QP names its PD, its send and receive CQs, the UAR it
 * rings, and one buffer holding the RQ then the SQ, with its doorbell
 * record.  It is born in RST and walks the PRM's state machine one
 * command per transition; a command issued in the wrong state is refused
 * with BAD_QP_STATE, as firmware does.  QUERY_QP answers with
 * the context as created, changed by the transitions.
 */
#include "queues.h"
#include "dct.h"
#include "../dp/datapath.h"

/* A field of the QP context, by bit offset and width. */
struct sim_qpc_field {
	u16 off;
	u8 bits;
};

#define SIM_QPC(fld)	{ PRM_BIT_OFF(qpc, fld), PRM_BIT_SZ(qpc, fld) }
#define SIM_ADS(fld)	SIM_QPC(primary_address_path.fld)

/* The largest receive WQE the profile allows, 16 << log_rq_stride. */
#define SIM_RQ_WQE_BYTES(log)	(16U << (log))

/**
 * struct sim_qp_move - one state transition command
 * @opcode: the command
 * @from: bit per state it may be issued in
 * @to: the state it leaves the QP in
 * @check: what the model validates in the context it carries, or NULL
 * @copy: the fields it sets in the QP's context
 * @ncopy: how many
 * @optional: it sets only what its optional parameter mask names
 *	      (sim_qp_opts[])
 */
struct sim_qp_move {
	u16 opcode;
	u16 from;
	u8 to;
	u8 (*check)(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		    const void *qpc);
	const struct sim_qpc_field *copy;
	unsigned int ncopy;
	bool optional;
};

static const struct sim_qpc_field sim_qp_init_fields[] = {
	SIM_ADS(vhca_port_num), SIM_ADS(pkey_index), SIM_QPC(rre),
	SIM_QPC(rwe), SIM_QPC(rae), SIM_QPC(atomic_mode), SIM_QPC(q_key),
	SIM_QPC(counter_set_id),
};

static const struct sim_qpc_field sim_qp_rtr_fields[] = {
	SIM_QPC(mtu), SIM_QPC(log_msg_max), SIM_QPC(remote_qpn),
	SIM_QPC(next_rcv_psn), SIM_QPC(log_rra_max), SIM_QPC(min_rnr_nak),
	SIM_ADS(pkey_index), SIM_ADS(src_addr_index), SIM_ADS(hop_limit),
	SIM_ADS(tclass), SIM_ADS(flow_label), SIM_ADS(udp_sport),
	SIM_ADS(dscp), SIM_ADS(eth_prio), SIM_ADS(vhca_port_num),
	SIM_ADS(rmac_47_32), SIM_ADS(rmac_31_0), SIM_QPC(q_key),
	SIM_QPC(counter_set_id),
	/* rgid_rip, a word at a time */
	{ PRM_BIT_OFF(qpc, primary_address_path.rgid_rip), 32 },
	{ PRM_BIT_OFF(qpc, primary_address_path.rgid_rip) + 32, 32 },
	{ PRM_BIT_OFF(qpc, primary_address_path.rgid_rip) + 64, 32 },
	{ PRM_BIT_OFF(qpc, primary_address_path.rgid_rip) + 96, 32 },
};

static const struct sim_qpc_field sim_qp_rts_fields[] = {
	SIM_QPC(next_send_psn), SIM_QPC(log_sra_max), SIM_QPC(retry_count),
	SIM_QPC(rnr_retry), SIM_ADS(ack_timeout), SIM_QPC(q_key),
};

/*
 * A move into RTS from RTS, SQER or SQD changes only what its optional
 * parameter mask names, by the bits of MLX5_QP_OPTPAR_* (mlx5_ib names
 * them from the verbs attribute mask); RTS2RTS also moves the QP to
 * another Q counter set (sim_qp_move_counter()).  Any other bit is one
 * the model does not take: a bad field.
 */
#define SIM_QP_OPT_RRE			BIT(1)
#define SIM_QP_OPT_RAE			BIT(2)
#define SIM_QP_OPT_RWE			BIT(3)
#define SIM_QP_OPT_Q_KEY		BIT(5)
#define SIM_QP_OPT_RNR_TIMEOUT		BIT(6)
#define SIM_QP_OPT_ACK_TIMEOUT		BIT(14)
#define SIM_QP_OPT_COUNTER_SET_ID	BIT(25)

static const struct {
	u32 bit;
	struct sim_qpc_field f;
} sim_qp_opts[] = {
	{ SIM_QP_OPT_RRE, SIM_QPC(rre) },
	{ SIM_QP_OPT_RAE, SIM_QPC(rae) },
	{ SIM_QP_OPT_RWE, SIM_QPC(rwe) },
	{ SIM_QP_OPT_Q_KEY, SIM_QPC(q_key) },
	{ SIM_QP_OPT_RNR_TIMEOUT, SIM_QPC(min_rnr_nak) },
	{ SIM_QP_OPT_ACK_TIMEOUT, SIM_ADS(ack_timeout) },
};

/* The path names the device's one port and the only P_Key index. */
static u8 sim_qp_check_port(struct sim_cmd_ctx *ctx, const void *qpc)
{
	if (PRM_GET(qpc, qpc, primary_address_path.vhca_port_num) != 1 ||
	    PRM_GET(qpc, qpc, primary_address_path.pkey_index))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

static u8 sim_qp_check_init(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    const void *qpc)
{
	return sim_qp_check_port(ctx, qpc);
}

/*
 * Ready to receive: a peer QP, a path MTU the port carries (IB MTU codes
 * 1..5, 256 << (code - 1) bytes), message and responder limits within the
 * caps, and a destination MAC.
 */
static u8 sim_qp_check_rtr(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   const void *qpc)
{
	u32 mtu = PRM_GET(qpc, qpc, mtu);

	if (!PRM_GET(qpc, qpc, remote_qpn) ||
	    mtu < MLX5_QPC_MTU_256_BYTES || mtu > MLX5_QPC_MTU_4K_BYTES ||
	    (128U << mtu) > sim->params.mtu ||
	    (!PRM_GET(qpc, qpc, primary_address_path.rmac_47_32) &&
	     !PRM_GET(qpc, qpc, primary_address_path.rmac_31_0)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (PRM_GET(qpc, qpc, log_msg_max) > SIM_CAP_GEN(sim, log_max_msg) ||
	    PRM_GET(qpc, qpc, log_rra_max) >
	    SIM_CAP_GEN(sim, log_max_ra_res_qp))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return sim_qp_check_port(ctx, qpc);
}

/*
 * A UD QP names no peer and no path: ready to receive once its message
 * limit is within the caps (the path MTU it asks for is bounded by the
 * port's when a datagram is sent).
 */
static u8 sim_qp_check_ud_rtr(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			      const void *qpc)
{
	u32 mtu = PRM_GET(qpc, qpc, mtu);

	if (mtu < MLX5_QPC_MTU_256_BYTES || mtu > MLX5_QPC_MTU_4K_BYTES)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (PRM_GET(qpc, qpc, log_msg_max) > SIM_CAP_GEN(sim, log_max_msg))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return sim_qp_check_port(ctx, qpc);
}

static u8 sim_qp_check_rts(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   const void *qpc)
{
	if (PRM_GET(qpc, qpc, log_sra_max) >
	    SIM_CAP_GEN(sim, log_max_ra_req_qp))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return PRM_STAT_OK;
}

#define SIM_QPS(s)	BIT(MLX5_QPC_STATE_##s)
#define SIM_QP_ANY	(SIM_QPS(RST) | SIM_QPS(INIT) | SIM_QPS(RTR) |	\
			 SIM_QPS(RTS) | SIM_QPS(SQER) | SIM_QPS(SQD) |	\
			 SIM_QPS(ERR) | BIT(SIM_QPC_STATE_SQ_DRAINED))
#define SIM_QP_MOVE(op, f, t, chk, fields) {				\
	.opcode = (op), .from = (f), .to = MLX5_QPC_STATE_##t,		\
	.check = (chk), .copy = (fields), .ncopy = ARRAY_SIZE(fields) }
#define SIM_QP_OPT_MOVE(op, f) {					\
	.opcode = (op), .from = (f), .to = MLX5_QPC_STATE_RTS,		\
	.optional = true }

static const struct sim_qp_move sim_qp_moves[] = {
	SIM_QP_MOVE(MLX5_CMD_OP_RST2INIT_QP, SIM_QPS(RST), INIT,
		    sim_qp_check_init, sim_qp_init_fields),
	SIM_QP_MOVE(MLX5_CMD_OP_INIT2INIT_QP, SIM_QPS(INIT), INIT,
		    sim_qp_check_init, sim_qp_init_fields),
	SIM_QP_MOVE(MLX5_CMD_OP_INIT2RTR_QP, SIM_QPS(INIT), RTR,
		    sim_qp_check_rtr, sim_qp_rtr_fields),
	SIM_QP_MOVE(MLX5_CMD_OP_RTR2RTS_QP, SIM_QPS(RTR), RTS,
		    sim_qp_check_rts, sim_qp_rts_fields),
	SIM_QP_OPT_MOVE(MLX5_CMD_OP_RTS2RTS_QP, SIM_QPS(RTS)),
	/* RC errors take a QP to ERR; a UD send error to SQER */
	SIM_QP_OPT_MOVE(MLX5_CMD_OP_SQERR2RTS_QP, SIM_QPS(SQER)),
	SIM_QP_OPT_MOVE(MLX5_CMD_OP_SQD_RTS_QP,
			SIM_QPS(SQD) | BIT(SIM_QPC_STATE_SQ_DRAINED)),
	{ .opcode = MLX5_CMD_OP_2ERR_QP, .from = SIM_QP_ANY,
	  .to = MLX5_QPC_STATE_ERR },
	{ .opcode = MLX5_CMD_OP_2RST_QP, .from = SIM_QP_ANY,
	  .to = MLX5_QPC_STATE_RST },
};

/**
 * sim_gsi_qp() - the port's QP1, if the kernel made one
 * @sim: the model, its lock held
 *
 * Return: the QP, or NULL.  QP number 1 on the wire is this QP, whatever
 * its own number (which is never 1: numbers are the model's).
 */
struct sim_qp *sim_gsi_qp(struct mlx5x_sim *sim)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_QP], sim->gsi_qpn);
	struct sim_qp *qp;

	if (!sim->gsi_qpn || !obj)
		return NULL;
	qp = container_of(obj, struct sim_qp, q.obj);
	return PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_QP1 ? qp : NULL;
}

/*
 * What only the kernel may ask for: QP1 (one on the port: the MAD
 * layer's), a REG_UMR QP (whose UMRs change any context's mkeys:
 * dp/umr_rereg.c), and the reserved lkey (rlky), with which a WQE names
 * memory by the address the device reaches it at.
 */
static u8 sim_qp_check_kernel(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			      const void *qpc)
{
	bool gsi = PRM_GET(qpc, qpc, st) == MLX5_QPC_ST_QP1;
	bool reg_umr = PRM_GET(qpc, qpc, st) == MLX5_QPC_ST_REG_UMR;

	if (ctx->uid && (gsi || reg_umr || PRM_GET(qpc, qpc, rlky)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (gsi && sim_gsi_qp(sim))
		return sim_fail(ctx, PRM_STAT_BAD_RES_STATE, SIM_SYND_IN_USE);
	return PRM_STAT_OK;
}

/**
 * sim_qp_qbuf_req() - where CREATE_QP puts a QP's buffer and record
 * @in: the CREATE_QP mailbox (of any service type: XRC's too)
 * @req: filled in, but for the bytes the QP needs
 */
void sim_qp_qbuf_req(const void *in, struct sim_qbuf_req *req)
{
	const void *qpc = PRM_ADDR(create_qp_in, in, qpc);

	*req = (struct sim_qbuf_req){
		.umem_valid = PRM_GET(create_qp_in, in, wq_umem_valid),
		.umem_id = prm_get_bits(in, SIM_CREATE_QP_UMEM_ID, 32),
		.umem_off = sim_get64_at(in, SIM_CREATE_QP_UMEM_OFFSET),
		.dbr_valid = PRM_GET(qpc, qpc, dbr_umem_valid),
		.dbr_id = prm_get_bits(qpc, SIM_QPC_DBR_UMEM_ID, 32),
		.dbr_addr = PRM_GET64(qpc, qpc, dbr_addr),
		.pas_off = PRM_BIT_OFF(create_qp_in, pas),
		.log_page = PRM_GET(qpc, qpc, log_page_size),
	};
}

static u8 sim_create_qp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *qpc = PRM_ADDR(create_qp_in, ctx->in, qpc);
	u32 log_sq = PRM_GET(qpc, qpc, log_sq_size);
	u32 log_rq = PRM_GET(qpc, qpc, log_rq_size);
	u32 stride = PRM_GET(qpc, qpc, log_rq_stride);
	u32 rq_type = PRM_GET(qpc, qpc, rq_type);
	u32 max_log = SIM_CAP_GEN(sim, log_max_qp_sz);
	struct sim_qbuf_req req;
	struct sim_refs refs = {};
	struct sim_qobj *q;
	struct sim_qp *qp;
	u8 status;

	BUILD_BUG_ON(SIM_QPC_DBR_UMEM_ID + 32 != PRM_BIT_SZ(create_qp_in, qpc));
	BUILD_BUG_ON(SIM_CREATE_QP_UMEM_ID + 32 >
		     PRM_BIT_OFF(create_qp_in, wq_umem_valid));
	/* XRC initiators and targets: cmd_xrc.c */
	if (PRM_GET(qpc, qpc, st) == MLX5_QPC_ST_XRC)
		return sim_create_xrc_qp(sim, ctx);
	sim_qp_qbuf_req(ctx->in, &req);
	/* DC initiators: what differs is cmd_dct.c's to check */
	if (PRM_GET(qpc, qpc, st) == MLX5_QPC_ST_DCI) {
		status = sim_dci_check(sim, ctx, qpc);
		if (status)
			return status;
	}
	/* RC, UC, UD, DCI, the kernel's QP1 and UMR QP; no QPN of the caller's */
	if ((PRM_GET(qpc, qpc, st) != MLX5_QPC_ST_RC &&
	     PRM_GET(qpc, qpc, st) != MLX5_QPC_ST_UC &&
	     PRM_GET(qpc, qpc, st) != MLX5_QPC_ST_UD &&
	     PRM_GET(qpc, qpc, st) != MLX5_QPC_ST_DCI &&
	     PRM_GET(qpc, qpc, st) != MLX5_QPC_ST_QP1 &&
	     PRM_GET(qpc, qpc, st) != MLX5_QPC_ST_REG_UMR) ||
	    PRM_GET(qpc, qpc, state) != MLX5_QPC_STATE_RST ||
	    PRM_GET(create_qp_in, ctx->in, input_qpn) ||
	    (rq_type != SIM_QPC_RQ_REGULAR && rq_type != SIM_QPC_RQ_ZERO_LEN &&
	     rq_type != SIM_QPC_RQ_SRQ))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	status = sim_qp_check_kernel(sim, ctx, qpc);
	if (status)
		return status;
	if (log_sq > max_log || log_rq > max_log ||
	    SIM_RQ_WQE_BYTES(stride) > SIM_CAP_GEN(sim, max_wqe_sz_rq))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (rq_type == SIM_QPC_RQ_REGULAR)
		req.len = (u64)SIM_RQ_WQE_BYTES(stride) << log_rq;
	if (!PRM_GET(qpc, qpc, no_sq))
		req.len += (u64)SIM_SEND_WQE_BB << log_sq;

	status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_PD,
			       PRM_GET(qpc, qpc, pd));
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_CQ,
				       PRM_GET(qpc, qpc, cqn_snd));
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_CQ,
				       PRM_GET(qpc, qpc, cqn_rcv));
	/* on an SRQ (an RMP of the same context), held while the QP lives */
	if (!status && rq_type == SIM_QPC_RQ_SRQ)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_RMP,
				       PRM_GET(qpc, qpc, srqn_rmpn_xrqn));
	if (!status)
		status = sim_uar_check(sim, ctx, PRM_GET(qpc, qpc, uar_page));
	if (!status)
		status = sim_qbuf_take(sim, ctx, &req, &refs);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	status = sim_q_alloc(sim, ctx, SIM_OBJ_QP, &refs, &q);
	if (status)
		return status;
	qp = container_of(q, struct sim_qp, q);
	memcpy(qp->qpc, qpc, PRM_BYTES(qpc));
	if (req.umem_valid) {
		qp->dp.buf_umem = req.umem_id;
		qp->dp.buf_off = req.umem_off;
	}
	sim_dp_qp_bind(sim, qp);
	if (PRM_GET(qpc, qpc, st) == MLX5_QPC_ST_QP1)
		sim->gsi_qpn = q->obj.id;
	PRM_SET(create_qp_out, ctx->out, qpn, q->obj.id);
	return PRM_STAT_OK;
}

static const struct sim_qp_move *sim_qp_move_of(u16 opcode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_qp_moves); i++)
		if (sim_qp_moves[i].opcode == opcode)
			return &sim_qp_moves[i];
	return NULL;
}

/*
 * Every transition command: qpn at the same place; those that carry a
 * context carry it at the same place too (checked below).
 */
/*
 * libmlx5's INIT2INIT_QP for MLX5DV_QP_CREATE_SIG_PIPELINING: its
 * optional parameter mask names drain_sigerr alone, the one field it
 * sets (dp/dp_sig.c); where the device does not drain, BAD_CAP.
 */
#define SIM_QP_OPT_DRAIN_SIGERR	BIT(11)

static u8 sim_qp_drain_sigerr(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			      struct sim_qp *qp, const void *qpc)
{
	if (!SIM_CAP_GEN(sim, drain_sigerr))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (PRM_GET(qpc, qp->qpc, st) != MLX5_QPC_ST_RC)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(qpc, qp->qpc, drain_sigerr, PRM_GET(qpc, qpc, drain_sigerr));
	return PRM_STAT_OK;
}

/*
 * The counter set a context names (0: none): one of the command's
 * context's, or the kernel's (mlx5_ib counts every QP in its default set).
 */
static u8 sim_qp_check_counter(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			       const void *qpc)
{
	u32 id = PRM_GET(qpc, qpc, counter_set_id);
	struct sim_obj *obj;

	if (!id)
		return PRM_STAT_OK;
	obj = xa_load(&sim->objs[SIM_OBJ_Q_COUNTER], id);
	if (!obj || (obj->uid && obj->uid != ctx->uid))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

/*
 * RTS2RTS takes qpc.counter_set_id when its optional parameter mask
 * names it (mlx5_ib's per-QP counters): the QP counts in that set from
 * then on.  Where the device cannot, BAD_CAP.
 */
static u8 sim_qp_move_counter(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			      struct sim_qp *qp, const void *qpc)
{
	u8 status;

	if (!SIM_CAP_GEN(sim, rts2rts_qp_counters_set_id))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	status = sim_qp_check_counter(sim, ctx, qpc);
	if (status)
		return status;
	PRM_SET(qpc, qp->qpc, counter_set_id,
		PRM_GET(qpc, qpc, counter_set_id));
	return PRM_STAT_OK;
}

/*
 * What an optional move's masks ask of @qp: the bits of the first mask
 * it takes (@mask), and whether RTS2RTS's second (opt_param_mask_95_32,
 * prm.h) sets the UDP source port, of an RC or UC QP where
 * rts2rts_qp_udp_sport says so.
 */
static u8 sim_qp_opt_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   const struct sim_qp_move *mv,
			   const struct sim_qp *qp, u32 *mask, bool *sport)
{
	u32 ok = 0, hi, lo;
	unsigned int i, st;

	for (i = 0; i < ARRAY_SIZE(sim_qp_opts); i++)
		ok |= sim_qp_opts[i].bit;
	if (mv->opcode == MLX5_CMD_OP_RTS2RTS_QP)
		ok |= SIM_QP_OPT_COUNTER_SET_ID;
	*mask = PRM_GET(rts2rts_qp_in, ctx->in, opt_param_mask);
	if (*mask & ~ok)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	*sport = false;
	if (mv->opcode != MLX5_CMD_OP_RTS2RTS_QP)
		return PRM_STAT_OK;
	hi = prm_get_bits(ctx->in, PRM_QP_MOD_OPT_95_32_OFF, 32);
	lo = prm_get_bits(ctx->in, PRM_QP_MOD_OPT_95_32_OFF + 32, 32);
	if (hi || (lo & ~PRM_QPC_OPT_32_UDP_SPORT))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (!lo)
		return PRM_STAT_OK;
	if (!sim_cap_gen(sim, SIM_CAP_RTS2RTS_UDP_SPORT_OFF, 1))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	st = PRM_GET(qpc, qp->qpc, st);
	if (st != MLX5_QPC_ST_RC && st != MLX5_QPC_ST_UC)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	*sport = true;
	return PRM_STAT_OK;
}

/* Set what an optional move's masks name, from the command's context. */
static void sim_qp_opt_apply(struct sim_qp *qp, const void *qpc, u32 mask,
			     bool sport)
{
	const struct sim_qpc_field *f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_qp_opts); i++) {
		if (!(mask & sim_qp_opts[i].bit))
			continue;
		f = &sim_qp_opts[i].f;
		prm_set_bits(qp->qpc, f->off, f->bits,
			     prm_get_bits(qpc, f->off, f->bits));
	}
	if (sport)
		PRM_SET(qpc, qp->qpc, primary_address_path.udp_sport,
			PRM_GET(qpc, qpc, primary_address_path.udp_sport));
}

static u8 sim_qp_modify(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const struct sim_qp_move *mv = sim_qp_move_of(ctx->cmd->opcode);
	const void *qpc = PRM_ADDR(rst2init_qp_in, ctx->in, qpc);
	struct sim_qobj *q;
	struct sim_qp *qp;
	bool sport = false;
	unsigned int i;
	u32 opt = 0;
	u8 status;

	BUILD_BUG_ON(PRM_BIT_OFF(sqerr2rts_qp_in, opt_param_mask) !=
		     PRM_BIT_OFF(rts2rts_qp_in, opt_param_mask) ||
		     PRM_BIT_OFF(sqd2rts_qp_in, opt_param_mask) !=
		     PRM_BIT_OFF(rts2rts_qp_in, opt_param_mask));
	BUILD_BUG_ON(PRM_BIT_OFF(qp_2err_in, qpn) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpn) ||
		     PRM_BIT_OFF(qp_2rst_in, qpn) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpn) ||
		     PRM_BIT_OFF(init2rtr_qp_in, qpc) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpc) ||
		     PRM_BIT_OFF(rtr2rts_qp_in, qpc) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpc) ||
		     PRM_BIT_OFF(rts2rts_qp_in, qpc) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpc) ||
		     PRM_BIT_OFF(init2init_qp_in, qpc) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpc) ||
		     PRM_BIT_OFF(sqerr2rts_qp_in, qpc) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpc) ||
		     PRM_BIT_OFF(sqd2rts_qp_in, qpc) !=
		     PRM_BIT_OFF(rst2init_qp_in, qpc));
	if (!mv)
		return sim_fail(ctx, PRM_STAT_BAD_OP, SIM_SYND_BAD_OPCODE);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_QP,
			      PRM_GET(rst2init_qp_in, ctx->in, qpn), &q);
	if (status)
		return status;
	qp = container_of(q, struct sim_qp, q);
	if (!(mv->from & BIT(PRM_GET(qpc, qp->qpc, state))))
		return sim_fail(ctx, PRM_STAT_BAD_QP_STATE, SIM_SYND_BAD_STATE);
	if (mv->opcode == MLX5_CMD_OP_INIT2INIT_QP &&
	    PRM_GET(init2init_qp_in, ctx->in, opt_param_mask) ==
	    SIM_QP_OPT_DRAIN_SIGERR)
		return sim_qp_drain_sigerr(sim, ctx, qp, qpc);
	/* the QPC extension: a DCI's stream reset (cmd_dct.c) */
	if (sim_qp_ext(ctx)) {
		if (mv->opcode != MLX5_CMD_OP_RTS2RTS_QP)
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		return sim_dci_stream_reset(sim, ctx, qp);
	}
	/*
	 * a DCI, as a UD QP, names its peer in each WQE: no path here; the
	 * UMR QP has no peer at all
	 */
	if (mv->to == MLX5_QPC_STATE_RTR &&
	    (sim_qp_datagram(qp) ||
	     PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_REG_UMR ||
	     PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_DCI)) {
		status = sim_qp_check_ud_rtr(sim, ctx, qpc);
		if (status)
			return status;
	} else if (mv->check) {
		status = mv->check(sim, ctx, qpc);
		if (status)
			return status;
	}
	if (mv->to == MLX5_QPC_STATE_INIT || mv->to == MLX5_QPC_STATE_RTR) {
		status = sim_qp_check_counter(sim, ctx, qpc);
		if (status)
			return status;
	}
	if (mv->optional) {
		status = sim_qp_opt_check(sim, ctx, mv, qp, &opt, &sport);
		if (status)
			return status;
	}
	if (opt & SIM_QP_OPT_COUNTER_SET_ID) {
		status = sim_qp_move_counter(sim, ctx, qp, qpc);
		if (status)
			return status;
	}
	if (mv->optional)
		sim_qp_opt_apply(qp, qpc, opt, sport);
	for (i = 0; i < mv->ncopy; i++)
		prm_set_bits(qp->qpc, mv->copy[i].off, mv->copy[i].bits,
			     prm_get_bits(qpc, mv->copy[i].off,
					  mv->copy[i].bits));
	PRM_SET(qpc, qp->qpc, state, mv->to);
	/* a QP back in RST starts its queues again, as libmlx5 does */
	if (mv->to == MLX5_QPC_STATE_RST) {
		qp->dp.sq_cc = 0;
		qp->dp.rq_cc = 0;
		qp->dp.msg_off = 0;
		qp->dp.rnr_tries = 0;
		qp->dp.ack_lost = false;
		qp->dp.srq_held = false;
		qp->dp.last_wqe = false;
		qp->dp.catas = false;
		qp->dp.n_errored = 0;
		memset(&qp->dp.rcw, 0, sizeof(qp->dp.rcw));
	}
	/* the data path sends from RTS and flushes in ERR */
	if (mv->to == MLX5_QPC_STATE_RTS || mv->to == MLX5_QPC_STATE_ERR)
		sim_dp_kick(sim);
	return PRM_STAT_OK;
}

static u8 sim_query_qp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_qp *qp;
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_QP,
			      PRM_GET(query_qp_in, ctx->in, qpn), &q);
	if (status)
		return status;
	qp = container_of(q, struct sim_qp, q);
	memcpy(PRM_ADDR(query_qp_out, ctx->out, qpc), qp->qpc, PRM_BYTES(qpc));
	/* where the send queue stands: the next WQE the device executes */
	PRM_SET(qpc, PRM_ADDR(query_qp_out, ctx->out, qpc),
		hw_sq_wqebb_counter, qp->dp.sq_cc);
	return 0;
}

#define SIM_QP_MODIFY_CMD(op, nm, typ)					\
	SIM_CMD(op, nm, typ##_in, typ##_out, true, sim_qp_modify)

/*
 * QUERY_QP answers the QP context and the reserved bytes after it; what
 * follows (the PAS, and in later mlx5_ifc.h a QPC extension) is written
 * only when asked.  The output need not hold it, so its minimum is the
 * same whatever kernel header the model is built with.
 */
#define SIM_QUERY_QP_OUTLEN	(PRM_BYTE_OFF(query_qp_out, qpc) + \
				 PRM_BYTES(qpc) + 16)

/* A QP destroyed leaves its multicast groups (cmd_mcg.c). */
static u8 sim_destroy_qp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u8 status = sim_exec_destroy(sim, ctx);

	if (!status)
		sim_mcg_forget(sim, PRM_GET(destroy_qp_in, ctx->in, qpn));
	return status;
}

static const struct sim_cmd sim_qp_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_QP, "CREATE_QP", create_qp_in,
		create_qp_out, true, sim_create_qp),
	SIM_FREE_CMD_EXEC(MLX5_CMD_OP_DESTROY_QP, "DESTROY_QP", destroy_qp_in,
			  destroy_qp_out, SIM_OBJ_QP, qpn, sim_destroy_qp),
	{
		.opcode = MLX5_CMD_OP_QUERY_QP,
		.name = "QUERY_QP",
		.inlen = PRM_BYTES(query_qp_in),
		.outlen = SIM_QUERY_QP_OUTLEN,
		.has_uid = true,
		.exec = sim_query_qp,
	},
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_RST2INIT_QP, "RST2INIT_QP",
			  rst2init_qp),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_INIT2INIT_QP, "INIT2INIT_QP",
			  init2init_qp),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_INIT2RTR_QP, "INIT2RTR_QP",
			  init2rtr_qp),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_RTR2RTS_QP, "RTR2RTS_QP", rtr2rts_qp),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_RTS2RTS_QP, "RTS2RTS_QP", rts2rts_qp),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_SQERR2RTS_QP, "SQERR2RTS_QP",
			  sqerr2rts_qp),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_SQD_RTS_QP, "SQD_RTS_QP", sqd2rts_qp),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_2ERR_QP, "2ERR_QP", qp_2err),
	SIM_QP_MODIFY_CMD(MLX5_CMD_OP_2RST_QP, "2RST_QP", qp_2rst),
};

const struct sim_cmd_set sim_qp_cmds = {
	sim_qp_cmd_list, ARRAY_SIZE(sim_qp_cmd_list)
};
