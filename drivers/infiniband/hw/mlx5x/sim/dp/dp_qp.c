// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the QP engines (dp_rc.c for RC and UC, dp_ud.c for UD) share: a
 * QP's doorbell record, its receive WQEs (taken from its own RQ or, by
 * dp_srq.c, from its SRQ; resolved for writing; completed; flushed in
 * ERR), its CQEs, the keys of a WQE's data segments resolved and a
 * message's bytes copied between two sides' memory, and the skeleton of
 * a QP's turn in the worker.
 *
 * Every byte goes through sim_mkey_xlate_each() (the key's owner, PD,
 * rights and range at every mkey crossed; a segment through an indirect
 * mkey is one piece per direct mkey, SIM_RC_MAX_SCATTER pieces a side at
 * most) and sim_umem_io() (the umem's page bits).
 */
#include <linux/mm.h>
#include <linux/overflow.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "wqe.h"

/**
 * sim_dp_qp_bind() - resolve a new QP's buffer and doorbell record
 * @sim: the model, its lock held
 * @qp: the QP CREATE_QP just made, its qpc and buffer set
 *
 * Once, rather than at each doorbell and receive.  Only umems among the
 * QP's own references are taken (an XRC target, which holds none, has
 * neither), kept until it is destroyed under the same lock; the record
 * of a umem that is not ODP stays at one kernel address for the umem's
 * life.
 */
void sim_dp_qp_bind(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	qp->dp.buf = qp->dp.buf_umem ?
		     sim_q_held_umem(&qp->q, qp->dp.buf_umem) : NULL;
	qp->dp.dbr = sim_q_held_dbr(&qp->q,
				    PRM_GET(qpc, qp->qpc, dbr_umem_valid),
				    prm_get_bits(qp->qpc, SIM_QPC_DBR_UMEM_ID,
						 32),
				    PRM_GET64(qpc, qp->qpc, dbr_addr),
				    &qp->dp.dbr_va);
}

/* A counter of the QP's doorbell record: SIM_DBR_RCV or SIM_DBR_SND. */
static bool sim_qp_dbr_rd(struct sim_qp *qp, u32 off, u32 *val)
{
	return sim_umem_rec_rd32(qp->dp.dbr, qp->dp.dbr_va,
				 PRM_GET64(qpc, qp->qpc, dbr_addr), off, val);
}

static u32 sim_rq_stride(const struct sim_qp *qp)
{
	return SIM_WQE_SEG << PRM_GET(qpc, qp->qpc, log_rq_stride);
}

static bool sim_rq_regular(const struct sim_qp *qp)
{
	return PRM_GET(qpc, qp->qpc, rq_type) == SIM_QPC_RQ_REGULAR;
}

/* Bytes of the RQ, which the SQ follows in the QP's buffer. */
u64 sim_rq_bytes(const struct sim_qp *qp)
{
	if (!sim_rq_regular(qp))
		return 0;
	return (u64)sim_rq_stride(qp) << PRM_GET(qpc, qp->qpc, log_rq_size);
}

/* Receive WQEs posted and not consumed (the doorbell record's count). */
static bool sim_rq_posted(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	u32 pi;

	return sim_rq_regular(qp) && sim_qp_dbr_rd(qp, SIM_DBR_RCV, &pi) &&
	       (u16)pi != qp->dp.rq_cc;
}

/*
 * Take the receive WQE a message lands in, its index in @wqe: the RQ's
 * next, or one of the SRQ's, which the QP holds until the message
 * completes (dp_srq.c).  False when none is posted.
 */
bool sim_rq_take(struct mlx5x_sim *sim, struct sim_qp *qp, u16 *wqe)
{
	if (sim_rq_regular(qp)) {
		*wqe = qp->dp.rq_cc;
		return sim_rq_posted(sim, qp);
	}
	if (!sim_dp_srq_take(sim, qp))
		return false;
	*wqe = qp->dp.srq_wqe;
	return true;
}

/* The WQE taken has completed, or been flushed. */
void sim_rq_done(struct sim_qp *qp)
{
	if (sim_rq_regular(qp))
		qp->dp.rq_cc++;
	else
		qp->dp.srq_held = false;
}

/* What a QP in ERR flushes: its RQ's WQEs, or the one it holds of an SRQ. */
static bool sim_rq_flushable(struct mlx5x_sim *sim, struct sim_qp *qp,
			     u16 *wqe)
{
	if (sim_rq_regular(qp))
		return sim_rq_take(sim, qp, wqe);
	*wqe = qp->dp.srq_wqe;
	return qp->dp.srq_held;
}

/* Where the receive WQE the QP took keeps its data segments. */
static bool sim_rq_at(struct mlx5x_sim *sim, struct sim_qp *qp,
		      struct sim_rq_at *at)
{
	u32 n = BIT(PRM_GET(qpc, qp->qpc, log_rq_size));

	if (!sim_rq_regular(qp))
		return sim_dp_srq_at(sim, qp, at);
	at->umem = qp->dp.buf;
	at->off = qp->dp.buf_off + (u64)(qp->dp.rq_cc & (n - 1)) *
				   sim_rq_stride(qp);
	at->len = min_t(u32, sim_rq_stride(qp), SIM_DP_MAX_RQ_WQE);
	at->uid = qp->q.obj.uid;
	at->pdn = sim_qp_pdn(qp);
	at->rlky = sim_qp_rlky(qp);
	return at->umem;
}

/*
 * A QP whose CQ refused a CQE (the CQ overran, or may not be written: its
 * CQ error event said so) cannot report the WQE: it goes to ERR, and the
 * WQ catastrophic error is raised on it (IBTA C9-218 and C11-37: each
 * work queue that tries to use the CQ gets an affiliated asynchronous
 * error), once until it is back in RST.  A DCT has no such state or
 * event: its CQE is lost, and it goes on.
 */
static void sim_qp_cqe_refused(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	if (qp->q.obj.type != SIM_OBJ_QP)
		return;
	if (sim_qp_state(qp) != SIM_QP_ST(ERR)) {
		PRM_SET(qpc, qp->qpc, state, SIM_QP_ST(ERR));
		sim_dp_kick(sim);
	}
	if (qp->dp.catas)
		return;
	qp->dp.catas = true;
	sim_event_emit(sim, SIM_EV_WQ_CATAS_ERROR, SIM_OBJ_QP, qp->q.obj.id,
		       0);
}

/*
 * A CQE of @qp's; an XRC target's receive completes in its XRC SRQ's CQ,
 * with the SRQ's user index.
 */
void sim_rc_cqe(struct mlx5x_sim *sim, struct sim_qp *qp, bool send,
		struct sim_cqe_info *info)
{
	struct sim_srq *srq = send ? NULL : sim_dp_xrc_srq(sim, qp);
	u32 cqn;

	info->qpn = qp->q.obj.id;
	if (info->opcode == SIM_CQE_REQ_ERR || info->opcode == SIM_CQE_RESP_ERR)
		sim_qp_count_cqe(sim, qp, send, info->syndrome);
	if (srq) {
		info->user_index = srq->user_index;
		cqn = srq->cqn;
	} else {
		info->user_index = PRM_GET(qpc, qp->qpc, user_index);
		cqn = send ? PRM_GET(qpc, qp->qpc, cqn_snd) :
			     PRM_GET(qpc, qp->qpc, cqn_rcv);
	}
	if (!sim_dp_cqe(sim, cqn, info))
		sim_qp_cqe_refused(sim, qp);
}

/*
 * A range named by the reserved lkey: on the simulated device (virtual
 * DMA) the address is the kernel's mapping of the bytes, and every page
 * of the range must be one of its memory.  Returns the bytes, or NULL.
 */
static u8 *sim_rc_resd_range(u64 addr, u32 len)
{
	u64 last, pg;

	if (check_add_overflow(addr, (u64)len - 1, &last))
		return NULL;
	for (pg = addr & PAGE_MASK; pg <= last; pg += PAGE_SIZE) {
		if (!virt_addr_valid((void *)(uintptr_t)pg))
			return NULL;
		if (pg + PAGE_SIZE < pg)
			break;
	}
	return (u8 *)(uintptr_t)addr;
}

/* One more piece of @arg, a struct sim_rc_side: false once it is full. */
static bool sim_rc_add_piece(void *arg, struct sim_umem *umem, u64 off,
			     u32 len)
{
	struct sim_rc_side *side = arg;

	if (side->n == SIM_RC_MAX_SCATTER)
		return false;
	side->p[side->n++] = (struct sim_rc_piece){ .umem = umem,
						    .off = off, .len = len };
	return true;
}

/*
 * Resolve the data segments @g of a queue of context @uid, PD @pdn for
 * @rights into @side; false when a key refuses.  With @rlky (a QP the
 * kernel made so), the reserved lkey names memory by address; else it
 * is a key like any other, and no mkey has it.
 */
bool sim_rc_resolve_rlky(struct mlx5x_sim *sim, u16 uid, u32 pdn, bool rlky,
			 const struct sim_gather *g, unsigned int n,
			 u8 rights, struct sim_rc_side *side)
{
	struct sim_rc_piece *p;
	unsigned int i, first;

	side->n = 0;
	for (i = 0; i < n; i++) {
		if (!g[i].len && !g[i].inl)
			continue;
		if (side->n == SIM_RC_MAX_SCATTER)
			return false;
		p = &side->p[side->n++];
		p->len = g[i].len;
		p->inl = g[i].inl;
		p->umem = NULL;
		p->kva = NULL;
		p->off = 0;
		p->crypto = NULL;
		p->sig = NULL;
		if (p->inl)
			continue;
		if (rlky && g[i].lkey == SIM_RESD_LKEY) {
			p->kva = sim_rc_resd_range(g[i].addr, g[i].len);
			if (!p->kva)
				return false;
			continue;
		}
		/* a signature mkey's wire bytes: one piece (dp_sig.c) */
		switch (sim_rc_sig_resolve(sim, uid, pdn, &g[i], rights, p)) {
		case 1:
			continue;
		case -1:
			return false;
		}
		/* the pieces of its mkey's direct mkeys, in order */
		side->n--;
		first = side->n;
		if (!sim_mkey_xlate_crypto(sim, uid, pdn, g[i].lkey, g[i].addr,
					   g[i].len, rights, sim_rc_add_piece,
					   side))
			return false;
		sim_rc_crypto_mark(sim, g[i].lkey, g[i].addr, side, first);
	}
	return true;
}

/* The same for a queue of a process's: no reserved lkey. */
bool sim_rc_resolve(struct mlx5x_sim *sim, u16 uid, u32 pdn,
		    const struct sim_gather *g, unsigned int n,
		    u8 rights, struct sim_rc_side *side)
{
	return sim_rc_resolve_rlky(sim, uid, pdn, false, g, n, rights, side);
}

/* The piece of @side that byte @skip falls in, and where in it. */
static void sim_rc_seek(const struct sim_rc_side *side, u64 skip,
			unsigned int *i, u32 *at)
{
	for (*i = 0; *i < side->n && skip >= side->p[*i].len; (*i)++)
		skip -= side->p[*i].len;
	*at = *i < side->n ? skip : 0;
}

/*
 * Copy the message's bytes [@skip, @skip + @len) from @src to @dst
 * through the bounce buffer.  Returns 0, or which side's memory refused:
 * 1 the source, 2 the destination (a page the umem's bits forbid).
 */
int sim_rc_copy(struct sim_dp *dp, const struct sim_rc_side *src,
		const struct sim_rc_side *dst, u64 skip, u64 len)
{
	const struct sim_rc_piece *s, *d;
	unsigned int si, di;
	u32 sat, dat, n;

	if (sim_rc_sig_sides(src, dst))
		return sim_rc_copy_sig(dp, src, dst, skip, len);
	if (sim_rc_crypto_sides(src, dst))
		return sim_rc_copy_crypto(dp, src, dst, skip, len);
	sim_rc_seek(src, skip, &si, &sat);
	sim_rc_seek(dst, skip, &di, &dat);
	while (len) {
		while (si < src->n && sat == src->p[si].len) {
			si++;
			sat = 0;
		}
		while (di < dst->n && dat == dst->p[di].len) {
			di++;
			dat = 0;
		}
		if (si == src->n)
			return 1;
		if (di == dst->n)
			return 2;
		s = &src->p[si];
		d = &dst->p[di];
		n = min3((u64)(s->len - sat), (u64)(d->len - dat), len);
		n = min_t(u32, n, sizeof(dp->bounce));
		if (s->inl)
			memcpy(dp->bounce, s->inl + sat, n);
		else if (s->kva)
			memcpy(dp->bounce, s->kva + sat, n);
		else if (!sim_umem_io(s->umem, s->off + sat, dp->bounce, n,
				      false))
			return 1;
		/* inline bytes are the WQE's: never a destination */
		if (d->inl)
			return 2;
		if (d->kva)
			memcpy(d->kva + dat, dp->bounce, n);
		else if (!sim_umem_io(d->umem, d->off + dat, dp->bounce, n,
				      true))
			return 2;
		sat += n;
		dat += n;
		len -= n;
	}
	return 0;
}

/*
 * The responder's receive WQE, resolved for writing into @side; returns
 * 0, or the responder's error syndrome.  The caller has taken it
 * (sim_rq_take()): the RQ's next, or the one it holds of its SRQ.
 */
u32 sim_rc_recv_wqe(struct sim_dp *dp, struct sim_qp *resp,
		    struct sim_rc_side *side)
{
	struct mlx5x_sim *sim = dp->sim;
	struct sim_gather *g = dp->rc_scatter;
	const struct sim_wqe_data *d;
	struct sim_rq_at at = {};
	unsigned int i, k = 0;

	if (!sim_rq_at(sim, resp, &at) ||
	    !sim_umem_io(at.umem, at.off, dp->rwqe, at.len, false))
		return SIM_CQE_SYND_LOCAL_PROT;
	for (i = 0; i + SIM_WQE_SEG <= at.len; i += SIM_WQE_SEG) {
		d = (const void *)(dp->rwqe + i);
		if (be32_to_cpu(d->lkey) == SIM_INVALID_LKEY)
			break;
		g[k++] = (struct sim_gather){
			.lkey = be32_to_cpu(d->lkey),
			.addr = be64_to_cpu(d->addr),
			.len = be32_to_cpu(d->byte_count),
		};
	}
	if (!sim_rc_resolve_rlky(sim, at.uid, at.pdn, at.rlky, g, k,
				 SIM_MKEY_LOCAL_WRITE, side))
		return SIM_CQE_SYND_LOCAL_PROT;
	return 0;
}

/* Flush the receive WQEs of a QP in ERR: a flush CQE each. */
unsigned int sim_rc_flush_rq(struct sim_dp *dp, struct sim_qp *qp,
			     unsigned int budget)
{
	struct sim_cqe_info info = {
		.opcode = SIM_CQE_RESP_ERR,
		.syndrome = SIM_CQE_SYND_WR_FLUSH,
	};
	unsigned int done = 0;

	while (done < budget &&
	       sim_rq_flushable(dp->sim, qp, &info.wqe_counter)) {
		sim_rq_done(qp);
		sim_rc_cqe(dp->sim, qp, false, &info);
		done++;
	}
	/* on an SRQ, the QP has taken its last WQE */
	if (done < budget)
		sim_dp_srq_last_wqe(dp->sim, qp);
	return done;
}

/**
 * sim_dp_qp_turn() - a QP's turn, whatever its transport
 * @dp: the data path, the model's lock held
 * @qp: the QP, in a state its transport serves
 * @budget: work it may do
 * @active: set: the QP needs the worker again
 * @one: executes, or flushes, the send WQE at the consumer index, and
 *	 returns the work done, or 0 when the WQE must wait
 *
 * In ERR every posted receive WQE is flushed; then the send WQEs posted
 * go to @one in order, within @budget.
 *
 * Return: the work done.
 */
unsigned int sim_dp_qp_turn(struct sim_dp *dp, struct sim_qp *qp,
			    unsigned int budget, bool *active,
			    sim_dp_sq_one_fn one)
{
	unsigned int done = 0, n;
	u32 pi, nbb;

	if (!qp->dp.buf || !qp->dp.dbr)
		return 0;
	*active = true;
	if (sim_qp_state(qp) == SIM_QP_ST(ERR))
		done = sim_rc_flush_rq(dp, qp, budget);
	if (PRM_GET(qpc, qp->qpc, no_sq))
		return done;
	nbb = BIT(PRM_GET(qpc, qp->qpc, log_sq_size));
	while (done < budget &&
	       sim_qp_dbr_rd(qp, SIM_DBR_SND, &pi) &&
	       (u16)pi != qp->dp.sq_cc) {
		n = one(dp, qp, qp->dp.buf, nbb);
		if (!n)
			break;
		done += n;
	}
	return done;
}
