// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The bytes of a message that cross a signature mkey (sig_bsf.c), as
 * mlx5dv_wr_set_mkey_sig_block(3) describes it: the mkey's layout holds
 * its memory domain, blocks of data each followed by the memory
 * domain's signature (none, T10-DIF, a CRC; sig_crc.c); what a queue
 * reads or writes through the mkey is its wire domain, the same data
 * with the wire domain's signature after each block.  An access's
 * address and length are in the wire domain (the mkey's length stays the
 * layout's): a block is at k * (block + wire signature) there and at
 * k * (block + memory signature) in memory.
 *
 * - Read through the mkey (a SEND's or RDMA WRITE's gather entry, the
 *   target of an RDMA READ): each whole block's memory signature, if
 *   any, is checked as the check mask says (the input domain is the
 *   memory), and stripped; the wire signature, if any, is computed and
 *   inserted, or copied byte by byte from the memory one where the copy
 *   mask says so.
 * - Written through it (a receive's scatter entry, the target of an
 *   RDMA WRITE, an RDMA READ's local entries): each whole block's wire
 *   signature is checked (the input domain is the wire) and stripped;
 *   the memory signature is computed (or copied) and written after the
 *   data.  Bytes of a block the access covers only in part are written
 *   as data, with no signature.
 *
 * A signature that does not match is no error of the transfer: the
 * message completes, and a signature error CQE on the CQ of the QP whose
 * key it was (struct mlx5_sig_err_cqe: the mkey, guard, application or
 * reference tag, the values, the block's wire offset) comes before its
 * completion, for mlx5dv_mkey_check(3).  A message reports its first bad
 * block.  T10-DIF's escapes skip a block's checks where its
 * application tag is 0xffff (and its reference tag 0xffffffff).
 *
 * What the model does not do: a data segment through a signature mkey
 * must lie in one turn of its message (SIM_RC_TURN_BYTES, dp_rc.c), and
 * a message that crosses a signature mkey crosses no crypto mkey: else
 * it is the requester's local protection error.
 */
#include <linux/slab.h>
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "sig.h"
#include "wqe.h"

/* The block layout of a signature mkey's two domains. */
struct sim_sig_geo {
	u32 b;		/* data bytes of a block */
	u32 bm, bw;	/* a block and its signature in memory, on the wire */
	u32 pm, pw;	/* the signatures' bytes */
	u64 memlen;	/* the layout's bytes */
	u64 wirelen;	/* the wire domain's */
};

static void sim_sig_geo(const struct sim_mkey *mkey, struct sim_sig_geo *g)
{
	const struct sim_mkey_sig *s = &mkey->sig;
	u64 full, rem, data;

	g->b = s->mem.kind ? s->mem.block : s->wire.block;
	g->pm = sim_sig_bytes(&s->mem);
	g->pw = sim_sig_bytes(&s->wire);
	g->bm = g->b + g->pm;
	g->bw = g->b + g->pw;
	g->memlen = PRM_GET64(mkc, mkey->mkc, len);
	full = div64_u64_rem(g->memlen, g->bm, &rem);
	data = full * g->b + min_t(u64, rem, g->b);
	full = div64_u64_rem(data, g->b, &rem);
	g->wirelen = full * g->bw + rem;
}

/* Count the pieces of a walk: the access is checked, nothing kept. */
static bool sim_sig_count(void *arg, struct sim_umem *umem, u64 off, u32 len)
{
	return true;
}

/**
 * sim_rc_sig_resolve() - resolve a data segment that names a signature
 * mkey with a signature BSF
 * @sim: the model, its lock held
 * @uid: the context of the queue
 * @pdn: its PD
 * @g: the data segment: its address and length in the wire domain
 * @rights: what the access needs
 * @p: the piece to fill
 *
 * Return: 0 if @g names no such mkey (resolve it as any other); 1 if it
 * does and @p stands for it; -1 if it does and the access is refused
 * (past the wire domain, or the memory domain refuses it).
 */
int sim_rc_sig_resolve(struct mlx5x_sim *sim, u16 uid, u32 pdn,
		       const struct sim_gather *g, u8 rights,
		       struct sim_rc_piece *p)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], g->lkey >> 8);
	const struct sim_mkey *mkey;
	struct sim_sig_geo geo;
	u64 start, w0, k0, k1, m0, m1;

	if (!obj || obj->uid != uid)
		return 0;
	mkey = container_of(obj, struct sim_mkey, obj);
	if (sim_mkey_key(mkey) != g->lkey || !mkey->sig_on)
		return 0;
	if (PRM_GET(mkc, mkey->mkc, length64))
		return -1;
	sim_sig_geo(mkey, &geo);
	start = PRM_GET64(mkc, mkey->mkc, start_addr);
	if (g->addr < start || g->addr - start > geo.wirelen ||
	    g->len > geo.wirelen - (g->addr - start))
		return -1;
	w0 = g->addr - start;
	k0 = div_u64(w0, geo.bw);
	k1 = div_u64(w0 + g->len + geo.bw - 1, geo.bw);
	m0 = k0 * geo.bm;
	m1 = min(k1 * geo.bm, geo.memlen);
	if (m1 > m0 + U32_MAX ||
	    !sim_mkey_xlate_sig(sim, uid, pdn, g->lkey, start + m0, m1 - m0,
				rights, sim_sig_count, NULL))
		return -1;
	*p = (struct sim_rc_piece){ .len = g->len, .sig = mkey, .coff = w0,
				    .sig_uid = uid, .sig_pdn = pdn,
				    .sig_rights = rights };
	return 1;
}

static bool sim_sig_side(const struct sim_rc_side *side)
{
	unsigned int i;

	for (i = 0; i < side->n; i++)
		if (side->p[i].sig)
			return true;
	return false;
}

/**
 * sim_rc_sig_sides() - whether a copy crosses a signature mkey
 * @src: the side read
 * @dst: the side written
 *
 * Return: true if a piece of either is on one: sim_rc_copy_sig().
 */
bool sim_rc_sig_sides(const struct sim_rc_side *src,
		      const struct sim_rc_side *dst)
{
	return sim_sig_side(src) || sim_sig_side(dst);
}

/* @n bytes at @off of a plain piece to or from @buf. */
static bool sim_sig_plain_io(const struct sim_rc_piece *p, u32 off, u8 *buf,
			     u32 n, bool write)
{
	if (p->crypto)
		return false;
	if (p->inl) {
		if (write)
			return false;
		memcpy(buf, p->inl + off, n);
		return true;
	}
	if (p->kva) {
		if (write)
			memcpy(p->kva + off, buf, n);
		else
			memcpy(buf, p->kva + off, n);
		return true;
	}
	return sim_umem_io(p->umem, p->off + off, buf, n, write);
}

/* Collect the pieces of a walk into a struct sim_rc_side. */
static bool sim_sig_add(void *arg, struct sim_umem *umem, u64 off, u32 len)
{
	struct sim_rc_side *side = arg;

	if (side->n == SIM_RC_MAX_SCATTER)
		return false;
	side->p[side->n++] = (struct sim_rc_piece){ .umem = umem, .off = off,
						    .len = len };
	return true;
}

/* Memory bytes [@m0, @m0 + @n) of @p's mkey to or from @buf. */
static bool sim_sig_mem_io(struct mlx5x_sim *sim, const struct sim_rc_piece *p,
			   u64 m0, u8 *buf, u32 n, bool write)
{
	u64 start = PRM_GET64(mkc, p->sig->mkc, start_addr);
	struct sim_rc_side *side;
	unsigned int i;
	bool ok = true;

	if (!n)
		return true;
	side = kmalloc(sizeof(*side), GFP_KERNEL);
	if (!side)
		return false;
	side->n = 0;
	if (!sim_mkey_xlate_sig(sim, p->sig_uid, p->sig_pdn,
				sim_mkey_key(p->sig), start + m0, n,
				p->sig_rights, sim_sig_add, side))
		ok = false;
	for (i = 0; ok && i < side->n; i++) {
		ok = sim_umem_io(side->p[i].umem, side->p[i].off, buf,
				 side->p[i].len, write);
		buf += side->p[i].len;
	}
	kfree(side);
	return ok;
}

/*
 * Check block @k's signature @sig in domain @d (the input domain,
 * @domain) against its data, bytes as the check mask says; the first
 * error of the copy goes to @dp for its QP's CQE.
 */
static void sim_sig_check(struct sim_dp *dp, const struct sim_mkey *mkey,
			  const struct sim_sig_domain *d, u8 domain,
			  const u8 *data, const u8 *sig, u64 k, u64 off)
{
	u8 want[SIM_SIG_MAX_BYTES], bad = 0;
	u32 n = sim_sig_bytes(d), i;
	struct sim_sig_err *e = &dp->sig_err;
	u16 app = sig[2] << 8 | sig[3];
	u32 ref;

	sim_sig_compute(d, data, k, want);
	for (i = 0; i < n; i++)
		if ((mkey->sig.check & BIT(7 - i)) && sig[i] != want[i])
			bad |= BIT(7 - i);
	if (!bad || dp->sig_err_on)
		return;
	memset(e, 0, sizeof(*e));
	e->mkey = sim_mkey_key(mkey);
	e->domain = domain;
	e->offset = off;
	if (d->kind != SIM_SIG_T10DIF) {
		e->syndrome = SIM_SIG_ERR_GUARD;
		e->exp_sig = sig[0] << 24 | sig[1] << 16 | sig[2] << 8 | sig[3];
		e->act_sig = want[0] << 24 | want[1] << 16 | want[2] << 8 |
			     want[3];
		dp->sig_err_on = true;
		return;
	}
	ref = sig[4] << 24 | sig[5] << 16 | sig[6] << 8 | sig[7];
	if ((d->escape && app == U16_MAX &&
	     (d->escape == 1 || ref == U32_MAX)))
		return;
	/* T10-DIF's order: the guard, the application tag, the reference */
	if (bad & 0xc0)
		e->syndrome = SIM_SIG_ERR_GUARD;
	else if (bad & 0x30)
		e->syndrome = SIM_SIG_ERR_APPTAG;
	else
		e->syndrome = SIM_SIG_ERR_REFTAG;
	e->exp_sig = sig[0] << 24 | sig[1] << 16 | app;
	e->act_sig = want[0] << 24 | want[1] << 16 | want[2] << 8 | want[3];
	e->exp_ref = ref;
	e->act_ref = want[4] << 24 | want[5] << 16 | want[6] << 8 | want[7];
	dp->sig_err_on = true;
}

/*
 * The output domain's signature of block @k into @out: copied from the
 * input's @in byte by byte where the copy mask says so, else computed.
 */
static void sim_sig_make(const struct sim_mkey *mkey,
			 const struct sim_sig_domain *d, const u8 *data,
			 const u8 *in, u64 k, u8 *out)
{
	u32 i;

	sim_sig_compute(d, data, k, out);
	if (!in)
		return;
	for (i = 0; i < sim_sig_bytes(d); i++)
		if (mkey->sig.copy & BIT(7 - i))
			out[i] = in[i];
}

/* The bounds of a piece's blocks: first, past the last, in memory. */
static void sim_sig_span(const struct sim_rc_piece *p,
			 const struct sim_sig_geo *g, u64 *k0, u64 *k1,
			 u64 *m0, u64 *m1)
{
	*k0 = div_u64(p->coff, g->bw);
	*k1 = div_u64(p->coff + p->len + g->bw - 1, g->bw);
	*m0 = *k0 * g->bm;
	*m1 = min(*k1 * g->bm, g->memlen);
}

/* Piece @p's wire bytes, read through its mkey, into @out. */
static bool sim_sig_read(struct sim_dp *dp, const struct sim_rc_piece *p,
			 u8 *out)
{
	const struct sim_mkey *mkey = p->sig;
	const struct sim_mkey_sig *s = &mkey->sig;
	u8 *mbuf, *wbuf, *mb, *wb;
	struct sim_sig_geo g;
	u64 k0, k1, m0, m1, k, avail;
	bool ok = false;

	sim_sig_geo(mkey, &g);
	sim_sig_span(p, &g, &k0, &k1, &m0, &m1);
	mbuf = kvmalloc(m1 - m0 + 1, GFP_KERNEL);
	wbuf = kvzalloc((k1 - k0) * g.bw + 1, GFP_KERNEL);
	if (!mbuf || !wbuf || !sim_sig_mem_io(dp->sim, p, m0, mbuf, m1 - m0,
					      false))
		goto out;
	for (k = k0; k < k1; k++) {
		mb = mbuf + (k - k0) * g.bm;
		wb = wbuf + (k - k0) * g.bw;
		avail = m1 - k * g.bm;
		memcpy(wb, mb, min_t(u64, avail, g.b));
		if (avail < g.b)
			break;
		if (g.pm && avail >= g.bm)
			sim_sig_check(dp, mkey, &s->mem, SIM_SIG_DOMAIN_MEM,
				      mb, mb + g.b, k, k * g.bw);
		if (g.pw)
			sim_sig_make(mkey, &s->wire, mb,
				     g.pm && avail >= g.bm ? mb + g.b : NULL,
				     k, wb + g.b);
	}
	memcpy(out, wbuf + (p->coff - k0 * g.bw), p->len);
	ok = true;
out:
	kvfree(wbuf);
	kvfree(mbuf);
	return ok;
}

/* Piece @p's wire bytes @in, written through its mkey. */
static bool sim_sig_write(struct sim_dp *dp, const struct sim_rc_piece *p,
			  const u8 *in)
{
	const struct sim_mkey *mkey = p->sig;
	const struct sim_mkey_sig *s = &mkey->sig;
	u64 k0, k1, m0, m1, k, avail, ws, a, e, n, w1 = p->coff + p->len;
	struct sim_sig_geo g;
	const u8 *wb;
	bool ok = false;
	u8 *mbuf, *mb;

	sim_sig_geo(mkey, &g);
	sim_sig_span(p, &g, &k0, &k1, &m0, &m1);
	mbuf = kvmalloc(m1 - m0 + 1, GFP_KERNEL);
	if (!mbuf || !sim_sig_mem_io(dp->sim, p, m0, mbuf, m1 - m0, false))
		goto out;
	for (k = k0; k < k1; k++) {
		ws = k * g.bw;
		a = max(ws, p->coff);
		e = min(ws + g.bw, w1);
		mb = mbuf + (k - k0) * g.bm;
		avail = m1 - k * g.bm;
		/* the data bytes it covers */
		n = min3(e, ws + g.b, ws + avail);
		if (n > a)
			memcpy(mb + (a - ws), in + (a - p->coff), n - a);
		if (a != ws || e < ws + g.b || avail < g.b)
			continue;
		wb = in + (ws - p->coff);
		if (g.pw && e == ws + g.bw)
			sim_sig_check(dp, mkey, &s->wire, SIM_SIG_DOMAIN_WIRE,
				      wb, wb + g.b, k, ws);
		if (g.pm && avail >= g.bm)
			sim_sig_make(mkey, &s->mem, mb,
				     g.pw && e == ws + g.bw ? wb + g.b : NULL,
				     k, mb + g.b);
	}
	ok = sim_sig_mem_io(dp->sim, p, m0, mbuf, m1 - m0, true);
out:
	kvfree(mbuf);
	return ok;
}

/*
 * sim_rc_copy_sig() - sim_rc_copy() of a message that crosses a
 * signature mkey on either side: the source's wire bytes [@skip, @skip +
 * @len) are gathered, then scattered; a signature mkey's piece is read
 * or written whole, so it must lie inside them.  Returns as sim_rc_copy()
 * does; dp->sig_err holds the first signature error.
 */
int sim_rc_copy_sig(struct sim_dp *dp, const struct sim_rc_side *src,
		    const struct sim_rc_side *dst, u64 skip, u64 len)
{
	const struct sim_rc_side *side[2] = { src, dst };
	const struct sim_rc_piece *p;
	u64 at, a, e, end = skip + len;
	unsigned int s, i;
	int bad = 0;
	bool had;
	u8 *wire;

	dp->sig_err_on = false;
	dp->sig_err_dst = false;
	wire = kvmalloc(len + 1, GFP_KERNEL);
	if (!wire)
		return 2;
	for (s = 0; s < 2 && !bad; s++) {
		at = 0;
		for (i = 0; i < side[s]->n && !bad; at += p->len, i++) {
			p = &side[s]->p[i];
			a = max(at, skip);
			e = min(at + p->len, end);
			if (a >= e)
				continue;
			if (!p->sig) {
				if (!sim_sig_plain_io(p, a - at,
						      wire + (a - skip),
						      e - a, s))
					bad = s + 1;
				continue;
			}
			if (a != at || e != at + p->len) {
				bad = 1;	/* a piece cut by the turn */
				break;
			}
			had = dp->sig_err_on;
			if (s ? !sim_sig_write(dp, p, wire + (a - skip)) :
				!sim_sig_read(dp, p, wire + (a - skip)))
				bad = s + 1;
			if (!had && dp->sig_err_on)
				dp->sig_err_dst = s;
		}
		/* the source's bytes must all be there */
		if (!s && !bad && at < end)
			bad = 1;
	}
	kvfree(wire);
	return bad;
}

/**
 * sim_rc_sig_report() - the signature error CQE of the last copy, if it
 * met one on a key of @qp's
 * @dp: the data path, the model's lock held
 * @qp: the QP
 * @send: it was its send queue's (its gather entries, an RDMA READ's
 *	  local ones), else its receive queue's or its rkey's
 */
void sim_rc_sig_report(struct sim_dp *dp, struct sim_qp *qp, bool send)
{
	struct sim_cqe_info info = { .opcode = SIM_CQE_SIG_ERR,
				     .sig = &dp->sig_err };

	if (!dp->sig_err_on)
		return;
	dp->sig_err_on = false;
	sim_rc_cqe(dp->sim, qp, send, &info);
}

/**
 * sim_rc_sig_drain() - signature pipelining: whether @qp's send queue
 * stops before the WQE read into @dp->wqe
 * @dp: the data path, the model's lock held
 * @qp: the QP, in RTS
 *
 * On a QP with drain_sigerr (MLX5DV_QP_CREATE_SIG_PIPELINING: libmlx5
 * sets it by INIT2INIT_QP), after a WQE of @qp's met a signature error
 * on its own keys (its signature error CQE written), the next WQE with
 * a fence (libmlx5's IBV_SEND_FENCE) is not executed: the send queue is drained, the QP
 * goes to SQD with an SQ_DRAINED event, and QUERY_QP's
 * hw_sq_wqebb_counter names that WQE, for
 * mlx5dv_qp_cancel_posted_send_wrs(3); SQD_RTS_QP goes on from it.  A
 * next WQE without a fence goes on as if nothing happened.
 *
 * Return: true if the send queue was drained.
 */
bool sim_rc_sig_drain(struct sim_dp *dp, struct sim_qp *qp)
{
	const struct sim_wqe_ctrl *c = (const void *)dp->wqe;

	if (!qp->dp.sig_drain)
		return false;
	qp->dp.sig_drain = false;
	if (!PRM_GET(qpc, qp->qpc, drain_sigerr) ||
	    !(c->fm_ce_se & SIM_WQE_CTRL_FENCE_MASK))
		return false;
	PRM_SET(qpc, qp->qpc, state, SIM_QPC_STATE_SQ_DRAINED);
	sim_event_emit(dp->sim, SIM_EV_SQ_DRAINED, SIM_OBJ_QP, qp->q.obj.id,
		       0);
	return true;
}
