// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Writing a CQE to a CQ, for every engine of the data path: the CQ's
 * doorbell record (its consumer index: a CQ a whole ring behind
 * overflows), the slot the producer index names, the owner bit, and the
 * completion event of an armed CQ.
 */
#include "../queues/queues.h"
#include "datapath.h"
#include "dp_priv.h"
#include "wqe.h"

/* The CQ takes no more CQEs, and a CQ error event says why. */
void sim_dp_cq_error(struct mlx5x_sim *sim, struct sim_cq *cq, u8 syndrome)
{
	cq->dp.error = true;
	sim_event_emit(sim, SIM_EV_CQ_ERROR, SIM_OBJ_CQ, cq->q.obj.id,
		       syndrome);
}

/**
 * sim_dp_cq_bind() - resolve where a CQ's CQEs and doorbell record are
 * @sim: the model, its lock held
 * @cq: a CQ just created, or just moved to a new buffer (cq_resize.c)
 *
 * Once per buffer rather than once per CQE.  Only umems among the CQ's
 * own references are taken: they stay for as long as the CQ (destroyed
 * under the same lock, these pointers with it), and the doorbell record
 * of a umem that is not ODP stays at one kernel address for the umem's
 * life.  A kernel CQ (its buffer given by PAS) has none: the data path
 * writes no CQE to it.
 */
void sim_dp_cq_bind(struct mlx5x_sim *sim, struct sim_cq *cq)
{
	cq->dp.buf = cq->dp.umem_id ? sim_q_held_umem(&cq->q, cq->dp.umem_id) :
				      NULL;
	cq->dp.dbr = sim_q_held_dbr(&cq->q,
				    PRM_GET(cqc, cq->cqc, dbr_umem_valid),
				    prm_get_bits(cq->cqc, SIM_CQC_DBR_UMEM_ID,
						 32),
				    PRM_GET64(cqc, cq->cqc, dbr_addr),
				    &cq->dp.dbr_va);
}

/* A word of a CQ's doorbell record (@off: SIM_CQ_DBR_CI or _ARM). */
static bool sim_cq_dbr_rd(struct sim_cq *cq, u32 off, u32 *val)
{
	return sim_umem_rec_rd32(cq->dp.dbr, cq->dp.dbr_va,
				 PRM_GET64(cqc, cq->cqc, dbr_addr), off, val);
}

/*
 * Write @len bytes of @cqe at @at of @buf (a 64-byte CQE, or a padded
 * one: 64 bytes of padding, then the CQE): the whole slot must be
 * writable, or nothing of it is written; the data first, the op_own byte
 * last, so the entry is whole before its owner byte says it is there.  In
 * place when the slot is in one pinned page (every CQ libmlx5 makes), else
 * through sim_umem_io() (an ODP umem).
 */
static bool sim_cqe_put(struct sim_umem *buf, u64 at, const u8 *cqe,
			size_t len)
{
	u8 *va = sim_umem_va(buf, at, len, true);

	if (va) {
		memcpy(va, cqe, len - 1);
		/* the CQE's other bytes before its op_own byte */
		wmb();
		WRITE_ONCE(va[len - 1], cqe[len - 1]);
		return true;
	}
	if (!sim_umem_writable(buf, at, len) ||
	    !sim_umem_io(buf, at, (void *)cqe, len - 1, true))
		return false;
	wmb();	/* as above */
	return sim_umem_io(buf, at + len - 1, (void *)cqe + len - 1, 1, true);
}

/* Bytes a CQE is written as: 64, or a padded 128-byte one whole. */
static u32 sim_cq_put_len(const struct sim_cq *cq)
{
	return PRM_GET(cqc, cq->cqc, cqe_sz) == SIM_CQE_SZ_128_PAD ? 128 : 64;
}

/* Where in its umem slot @n of @cq's ring (@len bytes of it) starts. */
static u64 sim_cq_slot_at(const struct sim_cq *cq, u32 n, u32 len)
{
	u32 log = PRM_GET(cqc, cq->cqc, log_cq_size);
	u32 stride = SIM_CQE_BYTES(PRM_GET(cqc, cq->cqc, cqe_sz));

	return cq->dp.umem_off + (n & (BIT(log) - 1)) * stride + stride - len;
}

/* Whether slot @n of @cq is in a page the model writes in place. */
bool sim_cq_slot_va(const struct sim_cq *cq, u32 n)
{
	u32 len = sim_cq_put_len(cq);

	return sim_umem_va(cq->dp.buf, sim_cq_slot_at(cq, n, len), len, true);
}

/**
 * sim_cq_put_img() - write a 64-byte CQE image into a slot of a CQ
 * @cq: the CQ
 * @buf: where it goes: the CQ's buffer, or the old one of a resize
 * @n: the slot, a count the ring's size wraps
 * @img: the image, its owner bit set
 *
 * A 128-byte CQE holds the 64-byte one in its second half; a padded one
 * is written whole, the first half zeros (a full 128-byte line, as a host
 * with 128-byte cache lines wants it).
 *
 * Return: false when @buf may not be written there.
 */
bool sim_cq_put_img(struct sim_cq *cq, struct sim_umem *buf, u32 n,
		    const u8 *img)
{
	u32 len = sim_cq_put_len(cq);
	u8 cqe[128];

	memset(cqe, 0, len - 64);
	memcpy(cqe + len - 64, img, 64);
	return sim_cqe_put(buf, sim_cq_slot_at(cq, n, len), cqe, len);
}

/**
 * sim_cq_write() - lay out and write the CQE at a CQ's producer index
 * @cq: the CQ
 * @buf: where it goes: the CQ's buffer, or the old one of a resize
 * @info: what the CQE says
 * @ts: its timestamp
 *
 * The producer index is the caller's to move.
 *
 * Return: false when @buf may not be written there.
 */
bool sim_cq_write(struct sim_cq *cq, struct sim_umem *buf,
		  const struct sim_cqe_info *info, u64 ts)
{
	u32 log = PRM_GET(cqc, cq->cqc, log_cq_size);
	u8 img[64];

	sim_cqe_fill(img, info, (cq->dp.pi >> log) & 1);
	sim_cqe_stamp(img, ts);
	return sim_cq_put_img(cq, buf, cq->dp.pi, img);
}

/**
 * sim_dp_cq_event() - raise a CQ's completion event, if it is armed for it
 * @sim: the model, its lock held
 * @cq: the CQ, a CQE written to it since its last event
 * @sol: that CQE was solicited or an error (or, with moderation, one of
 *	 those it holds since its last event)
 *
 * Once per arm (the arm word's sequence number, which the driver moves
 * on when it re-arms); one armed for solicited completions only for a
 * solicited CQE or an error; and as its moderation allows (cq_mod.c).
 */
void sim_dp_cq_event(struct mlx5x_sim *sim, struct sim_cq *cq, bool sol)
{
	u32 word;

	if (!sim_cq_dbr_rd(cq, SIM_CQ_DBR_ARM, &word))
		return;
	if (SIM_CQ_ARM_CMD(word) > SIM_CQ_ARM_SOLICITED ||
	    (cq->dp.fired && cq->dp.sn == SIM_CQ_ARM_SN(word)))
		return;
	/* a moderated CQ's event stands for every CQE since the last one */
	if (SIM_CQ_ARM_CMD(word) == SIM_CQ_ARM_SOLICITED &&
	    !(sol || (sim_cq_moderated(cq) && cq->dp.mod_sol)))
		return;
	if (!sim_cq_mod_due(sim->dp, cq))
		return;
	cq->dp.fired = true;
	cq->dp.sn = SIM_CQ_ARM_SN(word);
	sim_cq_mod_fired(cq);
	sim_event_emit(sim, SIM_EV_COMP, SIM_OBJ_CQ, cq->q.obj.id, 0);
}

/*
 * Write one CQE to CQ @cqn.  A CQ whose consumer index (its doorbell
 * record) is a whole ring behind overflows: unless it ignores overruns
 * (cqc.oi) it takes no more CQEs and a CQ error event is raised.  A
 * doorbell record the device may not read, or a CQE slot it may not
 * write (the umem's pages are read-only), is an access violation, with
 * the same outcome.  Returns false when the CQ is in error (it was, or
 * is now): the CQE is lost, and the queue that completed may say so.
 */
bool sim_dp_cqe(struct mlx5x_sim *sim, u32 cqn,
		const struct sim_cqe_info *info)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_CQ], cqn);
	bool sol;
	struct sim_cq *cq;
	u32 log, ci;

	if (!obj)
		return true;
	cq = container_of(obj, struct sim_cq, q.obj);
	if (cq->dp.error)
		return false;
	if (!cq->dp.buf || !cq->dp.dbr)
		return true;
	log = PRM_GET(cqc, cq->cqc, log_cq_size);
	if (!sim_cq_dbr_rd(cq, SIM_CQ_DBR_CI, &ci)) {
		sim_dp_cq_error(sim, cq, SIM_CQ_ERROR_ACCESS);
		return false;
	}
	sol = info->solicited || info->opcode == SIM_CQE_REQ_ERR ||
	      info->opcode == SIM_CQE_RESP_ERR;
	/* into a compression session (cq_comp.c), or the session written */
	if (sim_cq_comp_take(sim, cq, info, sol, ci))
		return true;
	if (cq->dp.error)
		return false;
	if (((cq->dp.pi - ci) & 0xffffff) >= BIT(log) &&
	    !PRM_GET(cqc, cq->cqc, oi)) {
		sim_dp_cq_error(sim, cq, SIM_CQ_ERROR_OVERRUN);
		return false;
	}
	if (!sim_cq_write(cq, cq->dp.buf, info, sim_dp_clock(sim))) {
		sim_dp_cq_error(sim, cq, SIM_CQ_ERROR_ACCESS);
		return false;
	}
	cq->dp.pi++;
	cq->dp.mod_cqes++;
	cq->dp.mod_sol |= sol;
	/* the CQE is there before the arm is read: a driver arms, then looks */
	smp_mb();
	sim_dp_cq_event(sim, cq, sol);
	return true;
}
