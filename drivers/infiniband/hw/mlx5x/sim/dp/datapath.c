// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The raw-packet data path: what the device does with the send WQEs of
 * its Ethernet SQs.
 *
 * A doorbell rung on a UAR page the driver armed traps, and its work runs
 * in the process that rang (doorbell.c); the others are polled: a
 * per-device worker, while any SQ is ready (or in error with WQEs to
 * flush), reads each such SQ's doorbell record, whose send counter says
 * how many basic blocks software posted, and executes up to
 * SIM_DP_BUDGET WQEs of each per pass.  A pass that did work runs again
 * at once; an idle one soon, or a jiffy later once every doorbell traps;
 * once no SQ is ready the worker stops until MODIFY_SQ makes one ready
 * again.
 *
 * A WQE's packet (the inline L2 header, then its data segments through
 * their lkeys) goes through the NIC TX tables, then to the port's wire
 * (dp_wire.c), which loops it back into the NIC RX tables of the same
 * port, hands it to the netdev, or both.  Every TIR the RX walk reaches
 * gets a copy, unless the TIR blocks self loopback (self_lb_block) for
 * the packet's kind and its transport domain is the sending TIS's.  A
 * direct TIR delivers to its RQ, an indirect one to the RQ of its RQT
 * that its hash picks (dp_rss.c).  The RQ's next WQE (its doorbell
 * record's receive counter says how many were posted) takes the bytes
 * through its data segments, and a CQE goes to the RQ's CQ; no posted
 * WQE, or an RQ not ready: the packet is dropped and the RQ's
 * out_of_buffer counts it.  A receive WQE that fails moves its RQ to ERR,
 * where the pass flushes what is posted to it (dp_rq.c).  A
 * signalled send writes a CQE to the SQ's CQ; a bad WQE or lkey writes an
 * error CQE and moves the SQ to error, where the WQEs after it are
 * flushed.
 *
 * Everything runs under the model's lock, as commands do: a queue, CQ,
 * mkey or umem is never destroyed while a pass looks at it, and every
 * object is found again by number on each pass.
 */
#include <linux/debugfs.h>
#include <linux/if_ether.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include <linux/sched.h>
#include "../steering/classify.h"
#include "datapath.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "wqe.h"

struct sim_umem *sim_dp_umem(struct mlx5x_sim *sim, u32 id)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_UMEM], id);

	return obj ? container_of(obj, struct sim_umem, obj) : NULL;
}

/*
 * Umem @id if queue @q holds it among its references (its buffer or its
 * doorbell record), else NULL: what a queue may keep a pointer to for as
 * long as it exists.
 */
struct sim_umem *sim_q_held_umem(const struct sim_qobj *q, u32 id)
{
	unsigned int i;

	for (i = 0; i < q->refs.n; i++)
		if (q->refs.obj[i]->type == SIM_OBJ_UMEM &&
		    q->refs.obj[i]->id == id)
			return container_of(q->refs.obj[i], struct sim_umem,
					    obj);
	return NULL;
}

/*
 * A queue's doorbell record at @addr of umem @id, when @valid and @q
 * holds that umem: the umem, and in @va the record's address to read in
 * place (NULL: through the umem, an ODP one).
 */
struct sim_umem *sim_q_held_dbr(const struct sim_qobj *q, bool valid,
				u32 id, u64 addr, __be32 **va)
{
	struct sim_umem *dbr = valid ? sim_q_held_umem(q, id) : NULL;

	*va = dbr ? sim_umem_va(dbr, addr, SIM_DBR_BYTES, false) : NULL;
	return dbr;
}

/* A work queue's buffer and doorbell record: umems only. */
static bool sim_dp_wq_mem(struct mlx5x_sim *sim, const void *wq,
			  struct sim_umem **buf, u64 *buf_off,
			  struct sim_umem **dbr, u64 *dbr_off)
{
	if (!PRM_GET(wq, wq, wq_umem_valid) || !PRM_GET(wq, wq, dbr_umem_valid))
		return false;
	*buf = sim_dp_umem(sim, prm_get_bits(wq, SIM_WQ_UMEM_ID, 32));
	*dbr = sim_dp_umem(sim, prm_get_bits(wq, SIM_WQ_DBR_UMEM_ID, 32));
	*buf_off = sim_get64_at(wq, SIM_WQ_UMEM_OFFSET);
	*dbr_off = PRM_GET64(wq, wq, dbr_addr);
	return *buf && *dbr;
}

/* Scatter @p into receive WQE @wqe of RQ @rq; returns a CQE syndrome. */
static u32 sim_dp_scatter(struct mlx5x_sim *sim, struct sim_wq *rq,
			  const u8 *wqe, u32 stride, const struct sim_pkt *p)
{
	const void *wq = PRM_ADDR(rqc, rq->ctx, wq);
	u32 pdn = PRM_GET(wq, wq, pd);
	const struct sim_wqe_data *d;
	u32 done = 0, n, synd, i;
	struct sim_umem *umem;
	u64 off;

	for (i = 0; i + SIM_WQE_SEG <= stride && done < p->len;
	     i += SIM_WQE_SEG) {
		d = (const void *)(wqe + i);
		if (be32_to_cpu(d->lkey) == SIM_INVALID_LKEY)
			break;
		n = min_t(u32, be32_to_cpu(d->byte_count), p->len - done);
		synd = sim_mkey_xlate(sim, rq->q.obj.uid, pdn,
				      be32_to_cpu(d->lkey),
				      be64_to_cpu(d->addr), n, true, &umem,
				      &off);
		if (synd)
			return synd;
		if (!sim_umem_io(umem, off, (void *)p->data + done, n, true))
			return SIM_CQE_SYND_LOCAL_PROT;
		done += n;
	}
	return done < p->len ? SIM_CQE_SYND_LOCAL_LENGTH : 0;
}

/* Receive @p on @rq: its next WQE, then a CQE; no WQE: dropped. */
static void sim_dp_receive(struct sim_dp *dp, struct sim_wq *rq,
			   const struct sim_pkt *p)
{
	struct mlx5x_sim *sim = dp->sim;
	const void *wq = PRM_ADDR(rqc, rq->ctx, wq);
	struct sim_cqe_info info = {};
	u64 buf_off, dbr_off;
	struct sim_umem *buf, *dbr;
	u32 pi, stride, n;

	if (PRM_GET(rqc, rq->ctx, state) != MLX5_RQC_STATE_RDY ||
	    !sim_dp_wq_mem(sim, wq, &buf, &buf_off, &dbr, &dbr_off) ||
	    !sim_umem_rd32(dbr, dbr_off + SIM_DBR_RCV, &pi) ||
	    (u16)pi == rq->dp.cc) {
		rq->dp.out_of_buffer++;
		sim_qc_count(sim, PRM_GET(rqc, rq->ctx, counter_set_id),
			     SIM_QC_OUT_OF_BUFFER);
		dp->dropped++;
		return;
	}
	stride = BIT(PRM_GET(wq, wq, log_wq_stride));
	n = BIT(PRM_GET(wq, wq, log_wq_sz));
	stride = min_t(u32, stride, sizeof(dp->rwqe));
	info.wqe_counter = rq->dp.cc;
	info.user_index = PRM_GET(rqc, rq->ctx, user_index);
	info.qpn = rq->q.obj.id;
	info.wqe_opcode = SIM_OPCODE_SEND;
	if (!sim_umem_io(buf, buf_off + (u64)(rq->dp.cc & (n - 1)) * stride,
			 dp->rwqe, stride, false))
		info.syndrome = SIM_CQE_SYND_LOCAL_PROT;
	else
		info.syndrome = sim_dp_scatter(sim, rq, dp->rwqe, stride, p);
	rq->dp.cc++;
	if (info.syndrome) {
		info.opcode = SIM_CQE_RESP_ERR;
	} else {
		info.opcode = SIM_CQE_RESP_SEND;
		info.byte_cnt = p->len;
		info.tagged = true;
		info.flow_tag = p->flow_tag;
		sim_cqe_rx_offloads(p->data, p->len, &info);
		rq->dp.packets++;
		dp->rx_packets++;
	}
	sim_dp_rq_complete(sim, rq, &info);
}

/* Whether TIR @tir refuses a packet its own transport domain sent. */
static bool sim_dp_lb_blocked(const struct sim_tir *tir, u32 tdn,
			      const struct sim_pkt *p)
{
	u32 block = PRM_GET(tirc, tir->tirc, self_lb_block);
	bool mc = p->data[0] & 1;

	if (PRM_GET(tirc, tir->tirc, transport_domain) != tdn)
		return false;
	return block & (mc ? MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST :
			     MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST);
}

/* A packet the RX walk took to TIR @obj (dp_wire.c). */
void sim_dp_to_tir(struct sim_dp *dp, struct sim_obj *obj, u32 tdn,
		   const struct sim_pkt *p)
{
	struct sim_tir *tir = container_of(obj, struct sim_tir, q.obj);
	struct sim_obj *dest = tir->dest;
	struct sim_rqt *rqt;

	if (sim_dp_lb_blocked(tir, tdn, p) || !dest) {
		dp->dropped++;
		return;
	}
	if (dest->type == SIM_OBJ_RQT) {
		rqt = container_of(dest, struct sim_rqt, obj);
		dest = rqt->size ? sim_rss_rq(tir->tirc, rqt, p) : NULL;
	}
	if (!dest || dest->type != SIM_OBJ_RQ) {
		dp->dropped++;
		return;
	}
	sim_dp_receive(dp, container_of(dest, struct sim_wq, q.obj), p);
}

struct sim_pkt *sim_dp_pkt(const u8 *bytes, u32 len)
{
	struct sim_pkt *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	memcpy(p->data, bytes, len);
	p->len = len;
	sim_pkt_parse(p);
	return p;
}

/* Gather the packet of dp->w; returns a CQE syndrome. */
static u32 sim_dp_gather(struct sim_dp *dp, struct sim_wq *sq, u8 *pkt,
			 u32 *len)
{
	const struct sim_send_wqe *w = &dp->w;
	u32 pdn = PRM_GET(wq, PRM_ADDR(sqc, sq->ctx, wq), pd);
	struct sim_umem *umem;
	u32 i, synd;
	u64 off;

	if (w->hdr_len > SIM_PKT_MAX)
		return SIM_CQE_SYND_LOCAL_LENGTH;
	memcpy(pkt, w->hdr, w->hdr_len);
	*len = w->hdr_len;
	for (i = 0; i < w->n; i++) {
		const struct sim_gather *g = &w->g[i];

		if (g->len > SIM_PKT_MAX - *len)
			return SIM_CQE_SYND_LOCAL_LENGTH;
		if (g->inl) {
			memcpy(pkt + *len, g->inl, g->len);
		} else {
			synd = sim_mkey_xlate(dp->sim, sq->q.obj.uid, pdn,
					      g->lkey, g->addr, g->len, false,
					      &umem, &off);
			if (synd)
				return synd;
			if (!sim_umem_io(umem, off, pkt + *len, g->len,
					 false))
				return SIM_CQE_SYND_LOCAL_PROT;
		}
		*len += g->len;
	}
	return *len < ETH_HLEN ? SIM_CQE_SYND_LOCAL_LENGTH : 0;
}

/* The transport domain of the SQ's TIS: loopback is judged by it. */
static u32 sim_dp_sq_tdn(struct mlx5x_sim *sim, struct sim_wq *sq)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_TIS],
				      PRM_GET(sqc, sq->ctx, tis_num_0));

	return obj ? PRM_GET(tisc, container_of(obj, struct sim_tis,
						q.obj)->tisc,
			     transport_domain) : 0;
}

/* Copy the WQE at basic block @bb (wrapping at the ring's end). */
bool sim_dp_read_wqe(struct sim_dp *dp, struct sim_umem *buf, u64 buf_off,
		     u32 nbb, u16 bb)
{
	u32 i, ds;

	if (!sim_umem_io(buf, buf_off + (u64)(bb & (nbb - 1)) *
			 SIM_SEND_WQE_BB, dp->wqe, SIM_SEND_WQE_BB, false))
		return false;
	ds = be32_to_cpu(((__be32 *)dp->wqe)[1]) & 0x3f;
	/* the largest ds the mask lets through fits the buffer */
	BUILD_BUG_ON(sizeof(dp->wqe) < ALIGN(0x3f * SIM_WQE_SEG,
					     SIM_SEND_WQE_BB));
	for (i = 1; i * SIM_SEND_WQE_BB < ds * SIM_WQE_SEG; i++)
		if (!sim_umem_io(buf, buf_off + (u64)((bb + i) & (nbb - 1)) *
				 SIM_SEND_WQE_BB, dp->wqe + i * SIM_SEND_WQE_BB,
				 SIM_SEND_WQE_BB, false))
			return false;
	return true;
}

/* Execute dp->w of @sq (in RDY); returns the syndrome of its CQE. */
static u32 sim_dp_send(struct sim_dp *dp, struct sim_wq *sq, int parsed)
{
	u8 *pkt;
	u32 len, synd;

	if (parsed == -EOPNOTSUPP)
		return SIM_CQE_SYND_LOCAL_QP_OP;
	if (parsed)
		return SIM_CQE_SYND_LOCAL_LENGTH;
	pkt = kmalloc(SIM_PKT_MAX, GFP_KERNEL);
	if (!pkt)
		return SIM_CQE_SYND_LOCAL_QP_OP;
	synd = sim_dp_gather(dp, sq, pkt, &len);
	if (!synd) {
		struct sim_pkt *p = sim_dp_pkt(pkt, len);

		sq->dp.packets++;
		dp->tx_packets++;
		if (p)
			sim_dp_wire(dp, p, sim_dp_sq_tdn(dp->sim, sq));
		else
			dp->dropped++;
	}
	kfree(pkt);
	return synd;
}

/*
 * Up to @budget WQEs of @sq.  In RDY each is executed; the first that
 * fails gets an error CQE and moves the SQ to ERR, where the rest are
 * flushed (a flush CQE each).  Returns the WQEs done.
 */
static unsigned int sim_dp_sq(struct sim_dp *dp, struct sim_wq *sq,
			      unsigned int budget)
{
	struct mlx5x_sim *sim = dp->sim;
	const void *wq = PRM_ADDR(sqc, sq->ctx, wq);
	u32 nbb = BIT(PRM_GET(wq, wq, log_wq_sz));
	struct sim_cqe_info info = {};
	struct sim_umem *buf, *dbr;
	unsigned int done = 0;
	u64 buf_off, dbr_off;
	u32 pi, nbbs;
	bool err;
	int parsed;

	if (!sim_dp_wq_mem(sim, wq, &buf, &buf_off, &dbr, &dbr_off))
		return 0;
	info.qpn = sq->q.obj.id;
	info.wqe_opcode = SIM_OPCODE_SEND;
	info.user_index = PRM_GET(sqc, sq->ctx, user_index);
	while (done < budget &&
	       sim_umem_rd32(dbr, dbr_off + SIM_DBR_SND, &pi) &&
	       (u16)pi != sq->dp.cc) {
		err = PRM_GET(sqc, sq->ctx, state) == MLX5_SQC_STATE_ERR;
		memset(&dp->w, 0, sizeof(dp->w));
		if (!sim_dp_read_wqe(dp, buf, buf_off, nbb, sq->dp.cc))
			parsed = -EINVAL;
		else
			parsed = sim_send_wqe_parse(dp->wqe, sizeof(dp->wqe),
						    &dp->w);
		nbbs = DIV_ROUND_UP(max_t(u32, dp->w.ds, 1) * SIM_WQE_SEG,
				    SIM_SEND_WQE_BB);
		info.wqe_counter = dp->w.index;
		info.syndrome = err ? SIM_CQE_SYND_WR_FLUSH :
				      sim_dp_send(dp, sq, parsed);
		sq->dp.cc += nbbs;
		dp->wqes++;
		done++;
		if (info.syndrome) {
			info.opcode = SIM_CQE_REQ_ERR;
			PRM_SET(sqc, sq->ctx, state, MLX5_SQC_STATE_ERR);
		} else if (dp->w.signalled) {
			info.opcode = SIM_CQE_REQ;
		} else {
			continue;
		}
		/*
		 * A CQE its CQ refuses: the SQ goes to ERR with the WQ
		 * catastrophic error, as an RQ does (dp_rq.c), unless it
		 * was in ERR already
		 */
		if (!sim_dp_cqe(sim, PRM_GET(sqc, sq->ctx, cqn), &info) &&
		    !err) {
			PRM_SET(sqc, sq->ctx, state, MLX5_SQC_STATE_ERR);
			sim_event_emit(sim, SIM_EV_WQ_CATAS_ERROR, SIM_OBJ_SQ,
				       sq->q.obj.id, 0);
		}
	}
	return done;
}

/**
 * sim_dp_turn() - one queue's turn
 * @dp: the data path, the model's lock held
 * @obj: an SQ (raw), an RQ (its flush, in ERR) or a QP (RC, UC, UD, ...)
 * @room: WQEs it may execute
 *
 * Return: the work done, in WQEs.
 */
unsigned int sim_dp_turn(struct sim_dp *dp, struct sim_obj *obj,
			 unsigned int room)
{
	struct sim_qp *qp;
	struct sim_wq *sq;
	bool active = false;
	unsigned int done;
	u32 state;

	if (obj->type == SIM_OBJ_QP) {
		qp = container_of(obj, struct sim_qp, q.obj);
		if (sim_qp_datagram(qp))
			done = sim_dp_ud_qp(dp, qp, room, &active);
		else
			done = sim_dp_rc_qp(dp, qp, room, &active);
		/* the kernel's QPs ring mlx5x_sim_doorbell(): no polling */
		dp->pass_active += active && !sim_qp_rlky(qp);
		return done;
	}
	sq = container_of(obj, struct sim_wq, q.obj);
	if (obj->type == SIM_OBJ_RQ) {
		/* an RQ in ERR: what is posted to it is flushed */
		if (PRM_GET(rqc, sq->ctx, state) != MLX5_RQC_STATE_ERR)
			return 0;
		dp->pass_active++;
		return sim_dp_rq_flush(dp, sq, room);
	}
	state = PRM_GET(sqc, sq->ctx, state);
	if (state != MLX5_SQC_STATE_RDY && state != MLX5_SQC_STATE_ERR)
		return 0;
	dp->pass_active++;
	return sim_dp_sq(dp, sq, room);
}

/*
 * The queues of table @type from *@cursor on, each its turn, while the
 * hold's bounds allow (@done WQEs executed, @looked queues looked at).
 * Returns true when the hold is spent: *@cursor names where the pass
 * goes on.
 */
bool sim_dp_walk(struct sim_dp *dp, enum sim_obj_type type,
		 unsigned long *cursor, unsigned int *done,
		 unsigned int *looked)
{
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each_start(&dp->sim->objs[type], id, obj, *cursor) {
		if (*done >= SIM_DP_HOLD_WQES || *looked >= SIM_DP_HOLD_SQS) {
			*cursor = id;
			return true;
		}
		(*looked)++;
		*done += sim_dp_turn(dp, obj, min_t(unsigned int, SIM_DP_BUDGET,
						    SIM_DP_HOLD_WQES - *done));
	}
	return false;
}

/**
 * sim_dp_hold_begin() - a hold of the data path starts
 * @dp: the data path, the model's lock just taken
 *
 * Its completions are stamped with one reading of the clock, taken when
 * the first of them is written (sim_dp_clock()).
 */
void sim_dp_hold_begin(struct sim_dp *dp)
{
	dp->holding = true;
	dp->hold_ns = 0;
}

/*
 * @dp's hold ends: the model's lock is about to be released, and the CQE
 * compression sessions the hold opened are written.
 */
void sim_dp_hold_end(struct sim_dp *dp)
{
	sim_cq_comp_flush_all(dp->sim);
	dp->holding = false;
}

/**
 * sim_dp_clock() - the device's clock for a CQE's timestamp
 * @sim: the model, its lock held
 *
 * Within a hold of the data path, the value the hold first read: every
 * CQE the hold writes has the same timestamp, and a later hold's are no
 * smaller.  Under TCG a guest's clock is an emulated HPET, a couple of
 * microseconds a read: read per CQE, it was a large part of a message's
 * latency.  Outside a hold (a command flushes a queue) the clock is read.
 *
 * Return: nanoseconds since the model was created (mlx5x_sim_clock_ns()).
 */
u64 sim_dp_clock(struct mlx5x_sim *sim)
{
	struct sim_dp *dp = sim->dp;

	if (!dp || !dp->holding)
		return mlx5x_sim_clock_ns(sim);
	if (!dp->hold_ns)
		dp->hold_ns = mlx5x_sim_clock_ns(sim) ?: 1;
	return dp->hold_ns;
}

/*
 * The worker's scheduling class, set by the worker itself (@again: it
 * runs again at once).  It sleeps in the real-time class, so that a pass
 * a doorbell or the quick poll's timer asks for runs at once, ahead of
 * the processes that spin on their CQs (a time-sharing worker waited
 * for them to give the CPU up: milliseconds under a ping-pong).  Busy
 * for longer than SIM_DP_RT_NS without a break, it goes down to the
 * time-sharing class, so that no traffic, however much of it a context
 * posts, takes the CPU from other processes for longer than that.
 */
static void sim_dp_class(struct sim_dp *dp, bool again)
{
	u64 now = local_clock();

	if (!again) {
		dp->burst_ns = 0;
		if (!dp->rt) {
			sched_set_fifo_low(current);
			dp->rt = true;
		}
	} else if (!dp->burst_ns) {
		dp->burst_ns = now;
	} else if (dp->rt && sim_dp_since(now, dp->burst_ns) > SIM_DP_RT_NS) {
		sched_set_normal(current, 0);
		dp->rt = false;
		dp->demotions++;
	}
}

/*
 * One hold of the model's lock: from dp->cursor on, the SQs that are
 * ready or in error, each up to SIM_DP_BUDGET WQEs, until the hold's
 * bounds are reached (the pass goes on in the next hold, at once) or
 * the table's end (the pass is over).  A pass that found a queue to
 * serve is followed by another: at once if it did work, a jiffy later if
 * it did none; once none is ready the worker stops until sim_dp_kick().
 */
static void sim_dp_work(struct kthread_work *work)
{
	struct sim_dp *dp = container_of(work, struct sim_dp, work.work);
	unsigned int looked = 0, done = 0;
	struct mlx5x_sim *sim = dp->sim;
	bool cut = false, again = false, armed = false;
	unsigned long delay;
	u64 start, held, now;

	/* before the pass looks: what is rung after this traps */
	if (!dp->cursor && dp->phase == SIM_OBJ_SQ)
		armed = sim_dp_rearm(dp);
	mutex_lock(&sim->lock);
	if (dp->stopping) {
		mutex_unlock(&sim->lock);
		return;
	}
	start = local_clock();
	sim_dp_hold_begin(dp);
	sim_cq_mod_expire(dp);
	/* the SQs, the RQs, then the QPs, within the same bounds */
	while (!cut) {
		cut = sim_dp_walk(dp, dp->phase, &dp->cursor, &done, &looked);
		if (cut || dp->phase == SIM_OBJ_QP)
			break;
		dp->phase = dp->phase == SIM_OBJ_SQ ? SIM_OBJ_RQ : SIM_OBJ_QP;
		dp->cursor = 0;
	}
	sim_dp_hold_end(dp);
	dp->pass_done += done;
	held = sim_dp_since(local_clock(), start);
	dp->holds++;
	dp->ns += held;
	dp->max_hold_ns = max(dp->max_hold_ns, held);
	if (cut) {
		kthread_queue_delayed_work(dp->kw, &dp->work, 0);
		again = true;
		goto out;
	}
	dp->passes++;
	dp->busy_passes += !!dp->pass_done;
	now = local_clock();
	if (dp->pass_done)
		dp->last_busy_ns = now;
	if (!dp->pass_active) {
		/* nothing ready: the worker stops until sim_dp_kick() */
	} else if (dp->pass_done) {
		kthread_queue_delayed_work(dp->kw, &dp->work, 0);
		again = true;
	} else if (!armed &&
		   sim_dp_since(now, dp->last_busy_ns) < SIM_DP_QUICK_NS) {
		/* traffic a moment ago: look again soon, asleep meanwhile */
		hrtimer_start(&dp->timer, ns_to_ktime(SIM_DP_POLL_NS),
			      HRTIMER_MODE_REL);
		dp->quick_polls++;
		dp->rearm = true;
	} else {
		/* every doorbell traps, or traffic is long gone */
		delay = 1;
		kthread_queue_delayed_work(dp->kw, &dp->work, delay);
	}
	dp->cursor = 0;
	dp->phase = SIM_OBJ_SQ;
	dp->pass_active = 0;
	dp->pass_done = 0;
out:
	mutex_unlock(&sim->lock);
	sim_dp_class(dp, again);
}

/**
 * sim_dp_kick() - an SQ changed state: let the worker look
 * @sim: the model, its lock held
 */
void sim_dp_kick(struct mlx5x_sim *sim)
{
	lockdep_assert_held(&sim->lock);
	if (sim->dp && !sim->dp->stopping)
		kthread_mod_delayed_work(sim->dp->kw, &sim->dp->work, 0);
}

/**
 * mlx5x_sim_doorbell() - the kernel rang a doorbell of one of its queues
 * @sim: the model
 *
 * A process's store to a UAR page traps into mlx5x_sim_rung()
 * (doorbell.c); the kernel's queues ring this instead, from any context
 * (ib_mad posts under a spinlock), and are not polled.  The caller's QP keeps the data
 * path alive: a device's QPs are gone before its data path stops.
 */
void mlx5x_sim_doorbell(struct mlx5x_sim *sim)
{
	struct sim_dp *dp = sim->dp;

	if (dp && !READ_ONCE(dp->stopping))
		kthread_mod_delayed_work(dp->kw, &dp->work, 0);
}

/* The quick poll's timer: the pass runs in the worker, as every pass. */
static enum hrtimer_restart sim_dp_timer(struct hrtimer *t)
{
	struct sim_dp *dp = container_of(t, struct sim_dp, timer);

	kthread_mod_delayed_work(dp->kw, &dp->work, 0);
	return HRTIMER_NORESTART;
}

/**
 * sim_dp_init() - give the model its data path
 * @sim: the model
 *
 * Return: 0, or -ENOMEM (or another errno of its thread's creation).
 */
int sim_dp_init(struct mlx5x_sim *sim)
{
	struct sim_dp *dp = kzalloc(sizeof(*dp), GFP_KERNEL);

	if (!dp)
		return -ENOMEM;
	dp->sim = sim;
	dp->phase = SIM_OBJ_SQ;
	dp->kw = kthread_create_worker(0, "mlx5x_dp");
	if (IS_ERR(dp->kw)) {
		int err = PTR_ERR(dp->kw);

		kfree(dp);
		return err;
	}
	/* real-time while it waits for work: sim_dp_class() */
	sched_set_fifo_low(dp->kw->task);
	dp->rt = true;
	kthread_init_delayed_work(&dp->work, sim_dp_work);
	sim_cq_mod_init(dp);
	INIT_LIST_HEAD(&dp->comp_cqs);
	hrtimer_init(&dp->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	dp->timer.function = sim_dp_timer;
	sim->dp = dp;
	return 0;
}

/**
 * sim_dp_fini() - stop the worker for good and free the data path
 * @sim: the model, its lock not held
 */
void sim_dp_fini(struct mlx5x_sim *sim)
{
	struct sim_dp *dp = sim->dp;

	if (!dp)
		return;
	mutex_lock(&sim->lock);
	dp->stopping = true;
	mutex_unlock(&sim->lock);
	/*
	 * No pass arms the timer once stopping is seen; the timer may have
	 * queued the work before it is cancelled, so the work goes last.
	 */
	hrtimer_cancel(&dp->timer);
	sim_cq_mod_fini(dp);
	kthread_cancel_delayed_work_sync(&dp->work);
	kthread_destroy_worker(dp->kw);
	sim->dp = NULL;
	kfree(dp);
}

/*
 * debugfs "datapath": the worker's figures, then each RQ and SQ that
 * carried traffic or dropped some:
 *   passes N busy_passes N busy_ns N wqes N tx_packets N rx_packets N
 *   dropped N holds N max_hold_ns N rc_messages N rnr_naks N quick_polls N
 *   demotions N rungs N rung_wqes N rung_named N rung_ns N rung_wait_ns N
 *   rung_late N
 *   rq 0x12 packets N out_of_buffer N
 *   sq 0x13 packets N
 *   qp 0x14 messages N sq_cc N rq_cc N
 */
static int sim_dp_show(struct seq_file *m, void *unused)
{
	struct mlx5x_sim *sim = m->private;
	struct sim_dp *dp = sim->dp;
	struct sim_obj *obj;
	struct sim_qp *qp;
	struct sim_wq *wq;
	unsigned long id;

	mutex_lock(&sim->lock);
	seq_printf(m, "passes %llu busy_passes %llu busy_ns %llu wqes %llu tx_packets %llu rx_packets %llu dropped %llu holds %llu max_hold_ns %llu rc_messages %llu rnr_naks %llu quick_polls %llu demotions %llu rungs %llu rung_wqes %llu rung_named %llu rung_ns %llu rung_wait_ns %llu rung_late %llu\n",
		   dp->passes, dp->busy_passes, dp->ns, dp->wqes,
		   dp->tx_packets, dp->rx_packets, dp->dropped, dp->holds,
		   dp->max_hold_ns, dp->rc_messages, dp->rnr_naks,
		   dp->quick_polls, dp->demotions, dp->rungs, dp->rung_wqes,
		   dp->rung_named, dp->rung_ns, dp->rung_wait_ns,
		   dp->rung_late);
	sim_dp_wire_show(m, dp);
	xa_for_each(&sim->objs[SIM_OBJ_RQ], id, obj) {
		wq = container_of(obj, struct sim_wq, q.obj);
		seq_printf(m, "rq 0x%x packets %llu out_of_buffer %llu\n",
			   obj->id, wq->dp.packets, wq->dp.out_of_buffer);
	}
	xa_for_each(&sim->objs[SIM_OBJ_SQ], id, obj) {
		wq = container_of(obj, struct sim_wq, q.obj);
		seq_printf(m, "sq 0x%x packets %llu\n", obj->id,
			   wq->dp.packets);
	}
	xa_for_each(&sim->objs[SIM_OBJ_QP], id, obj) {
		qp = container_of(obj, struct sim_qp, q.obj);
		seq_printf(m, "qp 0x%x messages %llu sq_cc %u rq_cc %u\n",
			   obj->id, qp->dp.messages, qp->dp.sq_cc,
			   qp->dp.rq_cc);
	}
	mutex_unlock(&sim->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_dp);

/**
 * sim_dp_debugfs_init() - publish fw/datapath
 * @sim: the model, whose debugfs directory exists
 */
void sim_dp_debugfs_init(struct mlx5x_sim *sim)
{
	debugfs_create_file("datapath", 0400, sim->dbg, sim, &sim_dp_fops);
}
