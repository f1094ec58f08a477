// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the queue objects share: the references a queue holds on the
 * objects its context names, and its buffers, which a user context must
 * give as umems.
 */
#include <linux/math64.h>
#include <linux/slab.h>
#include "queues.h"

/**
 * sim_refs_take() - reference an object for a queue being made
 * @sim: the model
 * @ctx: the command
 * @refs: the queue's references so far
 * @type: kind of the object named
 * @id: its number
 *
 * Return: a PRM status; on error @refs is unchanged.
 */
u8 sim_refs_take(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 struct sim_refs *refs, enum sim_obj_type type, u32 id)
{
	struct sim_obj *obj;
	u8 status;

	if (refs->n >= SIM_Q_REFS)
		return sim_fail(ctx, PRM_STAT_INTERNAL_ERR,
				SIM_SYND_EXHAUSTED);
	status = sim_obj_ref(sim, ctx, type, id, &obj);
	if (status)
		return status;
	refs->obj[refs->n++] = obj;
	return PRM_STAT_OK;
}

/**
 * sim_refs_drop() - drop every reference of a queue
 * @refs: its references; empty afterwards
 */
void sim_refs_drop(struct sim_refs *refs)
{
	while (refs->n)
		sim_obj_put(refs->obj[--refs->n]);
}

/**
 * sim_uar_check() - the UAR a queue rings must be one of its context's
 * @sim: the model
 * @ctx: the create command
 * @index: the UAR named
 *
 * The queue does not hold it: the driver frees a UAR when its last
 * mapping goes, a release that cannot fail, and libmlx5 frees its UARs
 * before the context's DEVX objects when the context is closed.  Like a
 * doorbell rung on a freed UAR page, a queue whose UAR is gone simply
 * hears nothing.
 *
 * Return: a PRM status.
 */
u8 sim_uar_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx, u32 index)
{
	struct sim_obj *obj;

	return sim_obj_lookup(sim, ctx, SIM_OBJ_UAR, index, &obj);
}

/**
 * sim_raw_tx_check() - may the command's context make a sending object
 * @sim: the model
 * @ctx: a CREATE_TIS or CREATE_SQ
 *
 * An SQ puts frames of the process's making on the wire (and, through
 * the NIC RX tables, into other processes' queues), and a TIS is what an
 * SQ sends through.  Firmware lets a user context create them only if it
 * was created with MLX5_UCTX_CAP_RAW_TX, which the driver grants to a
 * process with CAP_NET_RAW; the kernel (uid 0) may always.
 *
 * Return: a PRM status.
 */
u8 sim_raw_tx_check(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	if (sim_uctx_cap(sim, ctx->uid) & MLX5_UCTX_CAP_RAW_TX)
		return PRM_STAT_OK;
	return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_RAW_TX_PRIV);
}

static u8 sim_refs_umem(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			struct sim_refs *refs, u32 id, u64 off, u64 len)
{
	struct sim_umem *umem;
	u8 status;

	if (refs->n >= SIM_Q_REFS)
		return sim_fail(ctx, PRM_STAT_INTERNAL_ERR,
				SIM_SYND_EXHAUSTED);
	status = sim_umem_ref(sim, ctx, id, off, len, &umem);
	if (status)
		return status;
	refs->obj[refs->n++] = &umem->obj;
	return PRM_STAT_OK;
}

/**
 * sim_qbuf_take() - check and reference the buffers of a queue
 * @sim: the model
 * @ctx: the create command
 * @req: where the command puts them, and how many bytes the queue needs
 * @refs: the queue's references; the umems are added
 *
 * A user context names both the work buffer and the doorbell record by
 * umem, and each umem must hold the whole range; raw addresses (PAS and
 * dbr_addr) are the kernel's alone, and then the mailbox must hold a PAS
 * entry for each page of the buffer.  The doorbell record is 8 bytes,
 * 8-byte aligned.
 *
 * Return: a PRM status.
 */
u8 sim_qbuf_take(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 const struct sim_qbuf_req *req, struct sim_refs *refs)
{
	u8 status;

	if (!req->len)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if ((!req->umem_valid || !req->dbr_valid) && ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_NOT_UMEM);
	if (req->dbr_addr % SIM_DBR_BYTES)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (req->umem_valid) {
		status = sim_refs_umem(sim, ctx, refs, req->umem_id,
				       req->umem_off, req->len);
		if (status)
			return status;
	} else {
		u64 npas = div64_u64(req->len + (4096ULL << req->log_page) - 1,
				     4096ULL << req->log_page);

		if (npas > (ctx->inlen * 8 - req->pas_off) / 64)
			return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN,
					SIM_SYND_BAD_INLEN);
	}
	if (req->dbr_valid)
		return sim_refs_umem(sim, ctx, refs, req->dbr_id,
				     req->dbr_addr, SIM_DBR_BYTES);
	return PRM_STAT_OK;
}

/**
 * sim_q_alloc() - create a queue object holding the references given
 * @sim: the model
 * @ctx: the create command
 * @type: its kind
 * @refs: references taken for it: moved into the object, or dropped if
 *	  it cannot be made
 * @qp: the new object
 *
 * Return: a PRM status.
 */
u8 sim_q_alloc(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       enum sim_obj_type type, struct sim_refs *refs,
	       struct sim_qobj **qp)
{
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_alloc(sim, ctx, type, &obj);
	if (status) {
		sim_refs_drop(refs);
		return status;
	}
	*qp = container_of(obj, struct sim_qobj, obj);
	(*qp)->refs = *refs;
	refs->n = 0;
	return PRM_STAT_OK;
}

/**
 * sim_q_lookup() - a queue object the command's context owns
 * @sim: the model
 * @ctx: the command naming it
 * @type: its kind
 * @id: its number
 * @qp: the object
 *
 * Return: a PRM status.
 */
u8 sim_q_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		enum sim_obj_type type, u32 id, struct sim_qobj **qp)
{
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_lookup(sim, ctx, type, id, &obj);
	if (!status)
		*qp = container_of(obj, struct sim_qobj, obj);
	return status;
}

void sim_q_release(struct sim_obj *obj)
{
	sim_refs_drop(&container_of(obj, struct sim_qobj, obj)->refs);
}

void sim_tir_release(struct sim_obj *obj)
{
	struct sim_qobj *q = container_of(obj, struct sim_qobj, obj);

	sim_q_release(obj);
	sim_obj_put(container_of(q, struct sim_tir, q)->dest);
}

void sim_rqt_release(struct sim_obj *obj)
{
	struct sim_rqt *rqt = container_of(obj, struct sim_rqt, obj);
	u32 i;

	for (i = 0; i < rqt->size; i++)
		sim_obj_put(rqt->rq[i]);
	kvfree(rqt->rq);
}
