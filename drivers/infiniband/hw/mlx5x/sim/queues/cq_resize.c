// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MODIFY_CQ with op_mod RESIZE_CQ: a CQ moves to a new buffer of another
 * size, its CQEs not yet polled kept.  As a ConnectX does it, the device
 * writes a resize CQE (opcode 5, MLX5_CQE_RESIZE_CQ) into the old buffer at
 * its producer index, then writes the CQEs after it into the new buffer,
 * from the next index on.  The driver's library copies the CQEs it has
 * not polled, up to the resize CQE, into the new buffer, each one index
 * further (libmlx5's ibv_resize_cq()), and goes on polling there.
 *
 * Refused: a CQ whose unpolled CQEs would not fit the new size (the
 * IBTA's "cqe must be at least the number of unpolled entries"), one in
 * error, one whose buffer is not a umem (the kernel's), a new buffer the
 * umem does not hold, or a size past the device's.
 */
#include "queues.h"
#include "../dp/datapath.h"

/* The new buffer's umem in modify_cq_in: where create_cq_in has it. */
#define SIM_MODIFY_CQ_UMEM_OFFSET	0x280	/* 64 bits */
#define SIM_MODIFY_CQ_UMEM_ID		0x2c0	/* 32 bits */
/* The resize CQE's opcode (MLX5_CQE_RESIZE_CQ). */
#define SIM_CQE_RESIZE_CQ		0x5
#define SIM_CQ_RESIZE_FIELDS						\
	(MLX5_RESIZE_FIELD_SELECT_RESIZE_FIELD_SELECT_LOG_CQ_SIZE |	\
	 MLX5_RESIZE_FIELD_SELECT_RESIZE_FIELD_SELECT_PAGE_OFFSET |	\
	 MLX5_RESIZE_FIELD_SELECT_RESIZE_FIELD_SELECT_LOG_PAGE_SIZE)

/* The reference of @cq's references that is its buffer's umem. */
static struct sim_obj **sim_cq_buf_ref(struct sim_cq *cq)
{
	unsigned int i;

	for (i = 0; i < cq->q.refs.n; i++)
		if (cq->q.refs.obj[i]->type == SIM_OBJ_UMEM &&
		    cq->q.refs.obj[i]->id == cq->dp.umem_id)
			return &cq->q.refs.obj[i];
	return NULL;
}

/*
 * The resize CQE, at the producer index of the old buffer: false when the
 * buffer may not be written there.
 */
static bool sim_cq_resize_cqe(struct mlx5x_sim *sim, struct sim_cq *cq,
			      struct sim_umem *old)
{
	struct sim_cqe_info info = { .opcode = SIM_CQE_RESIZE_CQ };

	return sim_cq_write(cq, old, &info, mlx5x_sim_clock_ns(sim));
}

/**
 * sim_cq_resize() - MODIFY_CQ's RESIZE_CQ
 * @sim: the model
 * @ctx: the command
 *
 * Return: a PRM status.
 */
u8 sim_cq_resize(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	const void *cqc = PRM_ADDR(modify_cq_in, in, cq_context);
	u32 sel = PRM_GET(modify_cq_in, in,
			  modify_field_select_resize_field_select
			  .resize_field_select.resize_field_select);
	u32 log = PRM_GET(cqc, cqc, log_cq_size), ci, queued;
	struct sim_umem *new, *old;
	struct sim_obj **ref, *obj;
	struct sim_qobj *q;
	struct sim_cq *cq;
	u64 off, len;
	u8 status;

	BUILD_BUG_ON(SIM_MODIFY_CQ_UMEM_ID + 32 >
		     PRM_BIT_OFF(modify_cq_in, cq_umem_valid));
	if (!(sel & MLX5_RESIZE_FIELD_SELECT_RESIZE_FIELD_SELECT_LOG_CQ_SIZE) ||
	    sel & ~SIM_CQ_RESIZE_FIELDS)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (log > SIM_CAP_GEN(sim, log_max_cq_sz))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_CQ,
			      PRM_GET(modify_cq_in, in, cqn), &q);
	if (status)
		return status;
	cq = container_of(q, struct sim_cq, q);
	ref = sim_cq_buf_ref(cq);
	if (!PRM_GET(modify_cq_in, in, cq_umem_valid) || !ref)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_NOT_UMEM);
	if (cq->dp.error)
		return sim_fail(ctx, PRM_STAT_BAD_RES_STATE, SIM_SYND_BAD_STATE);
	old = container_of(*ref, struct sim_umem, obj);
	/* the CQ holds its doorbell record's umem: it is there */
	obj = xa_load(&sim->objs[SIM_OBJ_UMEM],
		      prm_get_bits(cq->cqc, SIM_CQC_DBR_UMEM_ID, 32));
	if (!obj || !sim_umem_rd32(container_of(obj, struct sim_umem, obj),
				   PRM_GET64(cqc, cq->cqc, dbr_addr) +
				   SIM_CQ_DBR_CI, &ci))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	/* the unpolled CQEs, and room for the resize CQE among them */
	queued = (cq->dp.pi - ci) & 0xffffff;
	if (queued >= BIT(log) ||
	    queued >= BIT(PRM_GET(cqc, cq->cqc, log_cq_size)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	off = sim_get64_at(in, SIM_MODIFY_CQ_UMEM_OFFSET);
	len = (u64)SIM_CQE_BYTES(PRM_GET(cqc, cq->cqc, cqe_sz)) << log;
	status = sim_umem_ref(sim, ctx, prm_get_bits(in, SIM_MODIFY_CQ_UMEM_ID,
						     32), off, len, &new);
	if (status)
		return status;
	if (!sim_cq_resize_cqe(sim, cq, old)) {
		sim_obj_put(&new->obj);
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_UMEM_RO);
	}
	*ref = &new->obj;
	sim_obj_put(&old->obj);
	cq->dp.umem_id = new->obj.id;
	cq->dp.umem_off = off;
	sim_dp_cq_bind(sim, cq);
	cq->dp.pi++;
	PRM_SET(cqc, cq->cqc, log_cq_size, log);
	if (sel & MLX5_RESIZE_FIELD_SELECT_RESIZE_FIELD_SELECT_PAGE_OFFSET)
		PRM_SET(cqc, cq->cqc, page_offset,
			PRM_GET(cqc, cqc, page_offset));
	if (sel & MLX5_RESIZE_FIELD_SELECT_RESIZE_FIELD_SELECT_LOG_PAGE_SIZE)
		PRM_SET(cqc, cq->cqc, log_page_size,
			PRM_GET(cqc, cqc, log_page_size));
	return PRM_STAT_OK;
}
