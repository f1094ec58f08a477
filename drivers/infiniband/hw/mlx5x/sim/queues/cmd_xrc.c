// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC: domains, XRC SRQs and the QPs of service type XRC.
 *
 * An XRC domain (ALLOC_XRCD) is a number and an owner.  The kernel's are
 * shared: one XRCD serves every process that opened it, as ib_core shares
 * it through a file, so any context may name a domain of uid 0; a user
 * context's own are its alone.
 *
 * An XRC SRQ (CREATE_XRC_SRQ) is an SRQ in a domain: a linked list work
 * queue as an RMP's, on a PD, given by umem (its buffer at
 * create_xrc_srq_in's umem fields, its doorbell record in the context's
 * dbr_umem_id), with the CQ its receives complete in and the user index
 * they carry.  It is kept as an RMP is (struct sim_srq, its work queue in
 * rmpc) and numbered apart from the RMPs, from SIM_XRC_SRQN_BASE: SRQs of
 * both kinds share one number space.  DESTROY_XRC_SRQ, QUERY_XRC_SRQ and
 * ARM_XRC_SRQ (the limit) are those of an RMP.
 *
 * A QP of service type XRC is an initiator (a send queue, no receive
 * queue: rq_type zero length) or a target (no send queue, rq_type SRQ, in
 * a domain, no buffer of its own).  An initiator is made as an RC QP; a
 * target holds its domain, and names neither PD nor CQ nor UAR: what it
 * receives lands in the XRC SRQ each message names (dp/dp_xrc.c), whose
 * PD, CQ and keys are the ones that count.
 */
#include "queues.h"
#include "../dp/datapath.h"

/*
 * The umem fields of CREATE_XRC_SRQ that 6.1's mlx5_ifc.h leaves
 * reserved (the PRM names them), by bit offset: where CREATE_CQ has its
 * own.
 */
#define SIM_XRC_SRQC_DBR_UMEM_ID	0x060	/* xrc_srqc, 32 bits */
#define SIM_CREATE_XRC_SRQ_UMEM_OFFSET	0x280	/* create_xrc_srq_in, 64 */
#define SIM_CREATE_XRC_SRQ_UMEM_ID	0x2c0	/* create_xrc_srq_in, 32 */

/* Log2 of the smallest SRQ WQE over 16 bytes: a next and a data segment. */
#define SIM_XRC_SRQ_MIN_STRIDE	1

static u8 sim_xrc_srq_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    const void *c)
{
	if (PRM_GET(xrc_srqc, c, state) ||
	    PRM_GET(xrc_srqc, c, log_rq_stride) < SIM_XRC_SRQ_MIN_STRIDE ||
	    PRM_GET(xrc_srqc, c, lwm) >=
	    BIT(PRM_GET(xrc_srqc, c, log_xrc_srq_size)) ||
	    PRM_GET(xrc_srqc, c, rlky) || PRM_GET(xrc_srqc, c, cont_srq) ||
	    PRM_GET(xrc_srqc, c, page_offset))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* signatures and cyclic receive WQEs are not offered */
	if (PRM_GET(xrc_srqc, c, log_xrc_srq_size) >
	    SIM_CAP_GEN(sim, log_max_srq_sz) ||
	    (16U << PRM_GET(xrc_srqc, c, log_rq_stride)) >
	    SIM_CAP_GEN(sim, max_wqe_sz_rq) ||
	    PRM_GET(xrc_srqc, c, wq_signature) ||
	    PRM_GET(xrc_srqc, c, basic_cyclic_rcv_wqe))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	return PRM_STAT_OK;
}

/* The XRC SRQ's work queue, laid out as an RMP's for dp/dp_srq.c. */
static void sim_xrc_srq_wq(struct sim_srq *srq, const void *c,
			   const struct sim_qbuf_req *req)
{
	void *wq = PRM_ADDR(rmpc, srq->rmpc, wq);

	PRM_SET(rmpc, srq->rmpc, state, MLX5_RMPC_STATE_RDY);
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST);
	PRM_SET(wq, wq, pd, PRM_GET(xrc_srqc, c, pd));
	PRM_SET(wq, wq, lwm, PRM_GET(xrc_srqc, c, lwm));
	PRM_SET(wq, wq, log_wq_stride, PRM_GET(xrc_srqc, c, log_rq_stride) + 4);
	PRM_SET(wq, wq, log_wq_sz, PRM_GET(xrc_srqc, c, log_xrc_srq_size));
	PRM_SET(wq, wq, wq_umem_valid, 1);
	prm_set_bits(wq, SIM_WQ_UMEM_ID, 32, req->umem_id);
	prm_set_bits(wq, SIM_WQ_UMEM_OFFSET, 32, upper_32_bits(req->umem_off));
	prm_set_bits(wq, SIM_WQ_UMEM_OFFSET + 32, 32,
		     lower_32_bits(req->umem_off));
	PRM_SET(wq, wq, dbr_umem_valid, 1);
	prm_set_bits(wq, SIM_WQ_DBR_UMEM_ID, 32, req->dbr_id);
	PRM_SET64(wq, wq, dbr_addr, req->dbr_addr);
	srq->xrcd = PRM_GET(xrc_srqc, c, xrcd);
	srq->cqn = PRM_GET(xrc_srqc, c, cqn);
	srq->user_index = PRM_GET(xrc_srqc, c, user_index);
}

static u8 sim_create_xrc_srq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *c = PRM_ADDR(create_xrc_srq_in, ctx->in,
				 xrc_srq_context_entry);
	u32 log_sz = PRM_GET(xrc_srqc, c, log_xrc_srq_size);
	struct sim_qbuf_req req = {
		.umem_valid = PRM_GET(create_xrc_srq_in, ctx->in,
				      xrc_srq_umem_valid),
		.umem_id = prm_get_bits(ctx->in, SIM_CREATE_XRC_SRQ_UMEM_ID, 32),
		.umem_off = sim_get64_at(ctx->in,
					 SIM_CREATE_XRC_SRQ_UMEM_OFFSET),
		.dbr_valid = PRM_GET(xrc_srqc, c, dbr_umem_valid),
		.dbr_id = prm_get_bits(c, SIM_XRC_SRQC_DBR_UMEM_ID, 32),
		.dbr_addr = (u64)PRM_GET(xrc_srqc, c, db_record_addr_h) << 32 |
			    PRM_GET(xrc_srqc, c, db_record_addr_l) << 2,
		.pas_off = PRM_BIT_OFF(create_xrc_srq_in, pas),
		.log_page = PRM_GET(xrc_srqc, c, log_page_size),
	};
	struct sim_refs refs = {};
	struct sim_qobj *q;
	u8 status;

	status = sim_xrc_srq_check(sim, ctx, c);
	if (status)
		return status;
	/* the data path reads WQEs only from a buffer a umem gives */
	if (!req.umem_valid || !req.dbr_valid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_NOT_UMEM);
	req.len = (16ULL << PRM_GET(xrc_srqc, c, log_rq_stride)) << log_sz;
	status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_PD,
			       PRM_GET(xrc_srqc, c, pd));
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_XRCD,
				       PRM_GET(xrc_srqc, c, xrcd));
	if (!status)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_CQ,
				       PRM_GET(xrc_srqc, c, cqn));
	if (!status)
		status = sim_qbuf_take(sim, ctx, &req, &refs);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	status = sim_q_alloc(sim, ctx, SIM_OBJ_XRC_SRQ, &refs, &q);
	if (status)
		return status;
	sim_xrc_srq_wq(container_of(q, struct sim_srq, q), c, &req);
	PRM_SET(create_xrc_srq_out, ctx->out, xrc_srqn, q->obj.id);
	return PRM_STAT_OK;
}

static u8 sim_xrc_srq_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     u32 n, struct sim_srq **srq)
{
	struct sim_qobj *q;
	u8 status;

	status = sim_q_lookup(sim, ctx, SIM_OBJ_XRC_SRQ, n, &q);
	if (!status)
		*srq = container_of(q, struct sim_srq, q);
	return status;
}

static u8 sim_query_xrc_srq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	void *c = PRM_ADDR(query_xrc_srq_out, ctx->out, xrc_srq_context_entry);
	struct sim_srq *srq;
	void *wq;
	u8 status;

	status = sim_xrc_srq_lookup(sim, ctx, PRM_GET(query_xrc_srq_in,
						      ctx->in, xrc_srqn), &srq);
	if (status)
		return status;
	wq = PRM_ADDR(rmpc, srq->rmpc, wq);
	PRM_SET(xrc_srqc, c, log_xrc_srq_size, PRM_GET(wq, wq, log_wq_sz));
	PRM_SET(xrc_srqc, c, log_rq_stride, PRM_GET(wq, wq, log_wq_stride) - 4);
	PRM_SET(xrc_srqc, c, xrcd, srq->xrcd);
	PRM_SET(xrc_srqc, c, cqn, srq->cqn);
	PRM_SET(xrc_srqc, c, user_index, srq->user_index);
	PRM_SET(xrc_srqc, c, pd, PRM_GET(wq, wq, pd));
	PRM_SET(xrc_srqc, c, lwm, PRM_GET(wq, wq, lwm));
	PRM_SET(xrc_srqc, c, wqe_cnt, srq->dp.cc);
	return PRM_STAT_OK;
}

/*
 * Arm the limit: once a receive leaves fewer WQEs than lwm posted, the
 * SRQ raises SRQ_RQ_LIMIT and lwm goes back to 0 (dp/dp_srq.c).
 */
static u8 sim_arm_xrc_srq(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u32 lwm = PRM_GET(arm_xrc_srq_in, ctx->in, lwm);
	struct sim_srq *srq;
	void *wq;
	u8 status;

	if (ctx->op_mod != MLX5_ARM_XRC_SRQ_IN_OP_MOD_XRC_SRQ)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	status = sim_xrc_srq_lookup(sim, ctx, PRM_GET(arm_xrc_srq_in, ctx->in,
						      xrc_srqn), &srq);
	if (status)
		return status;
	wq = PRM_ADDR(rmpc, srq->rmpc, wq);
	if (lwm >= BIT(PRM_GET(wq, wq, log_wq_sz)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(wq, wq, lwm, lwm);
	return PRM_STAT_OK;
}

/* An initiator: a send queue, as an RC QP's; no receive queue. */
static u8 sim_xrc_ini_refs(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			   const void *qpc, struct sim_qbuf_req *req,
			   struct sim_refs *refs)
{
	u32 log_sq = PRM_GET(qpc, qpc, log_sq_size);
	u8 status;

	if (log_sq > SIM_CAP_GEN(sim, log_max_qp_sz))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	req->len = (u64)SIM_SEND_WQE_BB << log_sq;
	status = sim_refs_take(sim, ctx, refs, SIM_OBJ_PD,
			       PRM_GET(qpc, qpc, pd));
	if (!status)
		status = sim_refs_take(sim, ctx, refs, SIM_OBJ_CQ,
				       PRM_GET(qpc, qpc, cqn_snd));
	if (!status)
		status = sim_refs_take(sim, ctx, refs, SIM_OBJ_CQ,
				       PRM_GET(qpc, qpc, cqn_rcv));
	if (!status)
		status = sim_uar_check(sim, ctx, PRM_GET(qpc, qpc, uar_page));
	if (!status)
		status = sim_qbuf_take(sim, ctx, req, refs);
	return status;
}

/**
 * sim_create_xrc_qp() - CREATE_QP of service type XRC
 * @sim: the model
 * @ctx: the command, its context of st XRC
 *
 * Return: a PRM status.
 */
u8 sim_create_xrc_qp(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *qpc = PRM_ADDR(create_qp_in, ctx->in, qpc);
	u32 rq_type = PRM_GET(qpc, qpc, rq_type);
	bool tgt = PRM_GET(qpc, qpc, no_sq);
	struct sim_qbuf_req req;
	struct sim_refs refs = {};
	struct sim_qobj *q;
	struct sim_qp *qp;
	u8 status;

	if (PRM_GET(qpc, qpc, state) != MLX5_QPC_STATE_RST ||
	    PRM_GET(create_qp_in, ctx->in, input_qpn) ||
	    PRM_GET(qpc, qpc, rlky) ||
	    (tgt && rq_type != SIM_QPC_RQ_SRQ) ||
	    (!tgt && rq_type != SIM_QPC_RQ_ZERO_LEN))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	sim_qp_qbuf_req(ctx->in, &req);
	if (tgt)
		status = sim_refs_take(sim, ctx, &refs, SIM_OBJ_XRCD,
				       PRM_GET(qpc, qpc, xrcd));
	else
		status = sim_xrc_ini_refs(sim, ctx, qpc, &req, &refs);
	if (status) {
		sim_refs_drop(&refs);
		return status;
	}
	status = sim_q_alloc(sim, ctx, SIM_OBJ_QP, &refs, &q);
	if (status)
		return status;
	qp = container_of(q, struct sim_qp, q);
	memcpy(qp->qpc, qpc, PRM_BYTES(qpc));
	if (!tgt && req.umem_valid) {
		qp->dp.buf_umem = req.umem_id;
		qp->dp.buf_off = req.umem_off;
	}
	sim_dp_qp_bind(sim, qp);
	PRM_SET(create_qp_out, ctx->out, qpn, q->obj.id);
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_xrc_cmd_list[] = {
	SIM_ALLOC_CMD(MLX5_CMD_OP_ALLOC_XRCD, "ALLOC_XRCD", alloc_xrcd_in,
		      alloc_xrcd_out, SIM_OBJ_XRCD, xrcd),
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_XRCD, "DEALLOC_XRCD", dealloc_xrcd_in,
		     dealloc_xrcd_out, SIM_OBJ_XRCD, xrcd),
	SIM_CMD(MLX5_CMD_OP_CREATE_XRC_SRQ, "CREATE_XRC_SRQ",
		create_xrc_srq_in, create_xrc_srq_out, true,
		sim_create_xrc_srq),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_XRC_SRQ, "DESTROY_XRC_SRQ",
		     destroy_xrc_srq_in, destroy_xrc_srq_out, SIM_OBJ_XRC_SRQ,
		     xrc_srqn),
	SIM_CMD(MLX5_CMD_OP_QUERY_XRC_SRQ, "QUERY_XRC_SRQ", query_xrc_srq_in,
		query_xrc_srq_out, true, sim_query_xrc_srq),
	SIM_CMD(MLX5_CMD_OP_ARM_XRC_SRQ, "ARM_XRC_SRQ", arm_xrc_srq_in,
		arm_xrc_srq_out, true, sim_arm_xrc_srq),
};

const struct sim_cmd_set sim_xrc_cmds = {
	sim_xrc_cmd_list, ARRAY_SIZE(sim_xrc_cmd_list)
};
