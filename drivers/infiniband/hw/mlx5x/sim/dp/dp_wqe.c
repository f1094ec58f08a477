// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A send WQE of an Ethernet (RAW_PACKET) SQ as the device reads it, laid
 * out as wqe.h says: a control segment (opcode, WQE index, size in
 * 16-byte segments, completion request), an Ethernet segment whose inline
 * header (inline_hdr_sz bytes from inline_hdr.start, running on past the
 * segment) starts the packet, then data segments (byte count, lkey,
 * address) or inline data segments (SIM_WQE_INLINE | byte count, then
 * the bytes), each padded to 16 bytes.
 *
 * A send WQE of an RC QP (sim_rc_wqe_parse()): the control segment, a
 * remote address segment for RDMA and atomics, an atomic segment for
 * atomics, then the same data segments; an XRC initiator's has its XRC
 * segment (the XRC SRQ) between the control segment and the rest
 * (sim_xrc_wqe_parse()).  One of a UD QP
 * (sim_ud_wqe_parse()): the control segment, the datagram segment (the
 * 48-byte address vector), then the data segments.
 */
#include "datapath.h"
#include "wqe.h"

/* One data or inline data segment at @off; returns bytes it takes. */
static int sim_wqe_gather(const u8 *wqe, size_t end, size_t off,
			  struct sim_gather *g)
{
	const struct sim_wqe_data *d = (const void *)(wqe + off);
	u32 bc = be32_to_cpu(d->byte_count);

	if (bc & SIM_WQE_INLINE) {
		bc &= ~SIM_WQE_INLINE;
		if (bc > end - off - 4)
			return -EINVAL;
		*g = (struct sim_gather){ .inl = wqe + off + 4, .len = bc };
		return ALIGN(4 + bc, SIM_WQE_SEG);
	}
	/* a zero byte count means 2 GiB: more than any packet */
	if (!bc)
		return -EINVAL;
	*g = (struct sim_gather){
		.lkey = be32_to_cpu(d->lkey),
		.addr = be64_to_cpu(d->addr),
		.len = bc,
	};
	return SIM_WQE_SEG;
}

/*
 * The control segment: opcode, WQE index, size in segments, completion
 * request.  Returns its end, in bytes from the WQE's start.
 */
static size_t sim_wqe_ctrl_read(const struct sim_wqe_ctrl *c, u8 *opcode,
				u16 *index, u8 *ds, bool *signalled)
{
	u32 word = be32_to_cpu(c->opmod_idx_opcode);

	*opcode = word & 0xff;
	*index = (word >> 8) & 0xffff;
	*ds = be32_to_cpu(c->qpn_ds) & SIM_WQE_CTRL_DS_MASK;
	*signalled = c->fm_ce_se & SIM_WQE_CTRL_CQ_UPDATE;
	return (size_t)*ds * SIM_WQE_SEG;
}

/**
 * sim_send_wqe_parse() - read a send WQE of an Ethernet SQ
 * @wqe: its bytes, from the control segment on
 * @len: how many of them are there (at least ds * 16 for a valid WQE)
 * @w: what it says
 *
 * Return: 0; -EINVAL for a WQE whose segments do not fit its size (the
 * device's local length error), -EOPNOTSUPP for an opcode other than
 * SEND (a local QP operation error).  @w->index and @w->ds are set as
 * soon as the control segment is read, for the error CQE.
 */
int sim_send_wqe_parse(const u8 *wqe, size_t len, struct sim_send_wqe *w)
{
	const struct sim_wqe_ctrl *c = (const void *)wqe;
	const struct sim_wqe_eth *e;
	size_t end, off;
	int n;

	if (len < sizeof(*c))
		return -EINVAL;
	end = sim_wqe_ctrl_read(c, &w->opcode, &w->index, &w->ds,
				&w->signalled);
	w->n = 0;
	if (w->opcode != SIM_OPCODE_SEND)
		return -EOPNOTSUPP;
	if (w->ds < 2 || end > len)
		return -EINVAL;
	e = (const void *)(wqe + sizeof(*c));
	w->cs_flags = e->cs_flags;
	w->hdr_len = be16_to_cpu(e->inline_hdr.sz);
	w->hdr = e->inline_hdr.start;
	off = 2 * SIM_WQE_SEG;
	if (w->hdr_len > sizeof(e->inline_hdr.start))
		off += ALIGN(w->hdr_len - sizeof(e->inline_hdr.start),
			     SIM_WQE_SEG);
	if (off > end)
		return -EINVAL;
	while (off < end) {
		n = sim_wqe_gather(wqe, end, off, &w->g[w->n]);
		if (n < 0)
			return n;
		w->n++;
		off += n;
	}
	return 0;
}

/*
 * The control segment of a message's WQE (RC, UC, UD) into @w, the rest
 * of @w cleared.  Returns its end, in bytes from the WQE's start, or 0
 * when the segments do not fit @len.
 */
static size_t sim_msg_ctrl_read(const u8 *wqe, size_t len,
				struct sim_rc_wqe *w)
{
	const struct sim_wqe_ctrl *c = (const void *)wqe;
	size_t end;

	memset(w, 0, offsetof(struct sim_rc_wqe, g));
	if (len < sizeof(*c))
		return 0;
	end = sim_wqe_ctrl_read(c, &w->opcode, &w->index, &w->ds,
				&w->signalled);
	w->solicited = c->fm_ce_se & SIM_WQE_CTRL_SOLICITED;
	w->imm = c->imm;
	return w->ds && end <= len ? end : 0;
}

/*
 * The data and inline segments of a message's WQE, from @off to @end,
 * into @w's pieces and length.  Returns 0 or -EINVAL.
 */
static int sim_msg_gather(const u8 *wqe, size_t end, size_t off,
			  struct sim_rc_wqe *w)
{
	int n;

	while (off < end) {
		n = sim_wqe_gather(wqe, end, off, &w->g[w->n]);
		if (n < 0)
			return n;
		w->len += w->g[w->n].len;
		w->n++;
		off += n;
	}
	return 0;
}

/*
 * What follows the control segment of an RC WQE (and the XRC segment of
 * an XRC initiator's), from @off to @end, into @w.
 */
static int sim_rc_wqe_rest(const u8 *wqe, size_t end, size_t off,
			   struct sim_rc_wqe *w)
{
	const struct sim_wqe_raddr *r;
	const struct sim_wqe_atomic *a;
	int n;

	switch (w->opcode) {
	case SIM_OPCODE_NOP:
	case SIM_OPCODE_SEND:
	case SIM_OPCODE_SEND_IMM:
	case SIM_OPCODE_SEND_INVAL:	/* the rkey to invalidate in imm */
		break;
	case SIM_OPCODE_RDMA_WRITE:
	case SIM_OPCODE_RDMA_WRITE_IMM:
	case SIM_OPCODE_RDMA_READ:
	case SIM_OPCODE_ATOMIC_CS:
	case SIM_OPCODE_ATOMIC_FA:
		if (off + sizeof(*r) > end)
			return -EINVAL;
		r = (const void *)(wqe + off);
		w->raddr = be64_to_cpu(r->raddr);
		w->rkey = be32_to_cpu(r->rkey);
		off += sizeof(*r);
		break;
	default:
		return -EOPNOTSUPP;
	}
	w->atomic = w->opcode == SIM_OPCODE_ATOMIC_CS ||
		    w->opcode == SIM_OPCODE_ATOMIC_FA;
	if (w->atomic) {
		if (off + sizeof(*a) > end)
			return -EINVAL;
		a = (const void *)(wqe + off);
		w->swap_add = be64_to_cpu(a->swap_add);
		w->compare = be64_to_cpu(a->compare);
		off += sizeof(*a);
	}
	if (w->opcode != SIM_OPCODE_NOP) {
		n = sim_msg_gather(wqe, end, off, w);
		if (n)
			return n;
	}
	if (w->atomic && (w->n != 1 || w->len != sizeof(u64) || w->g[0].inl))
		return -EINVAL;
	/* a READ's segments are where its data lands: memory, never inline */
	if (w->opcode == SIM_OPCODE_RDMA_READ)
		for (n = 0; n < w->n; n++)
			if (w->g[n].inl)
				return -EINVAL;
	return 0;
}

/**
 * sim_rc_wqe_parse() - read a send WQE of an RC QP
 * @wqe: its bytes, from the control segment on
 * @len: how many of them are there
 * @w: what it says
 *
 * Return: 0; -EINVAL for a WQE whose segments do not fit its size, or an
 * atomic whose local buffer is not 8 bytes (a local length error);
 * -EOPNOTSUPP for an opcode the model does not execute (a local QP
 * operation error).  @w->opcode, @w->index and @w->ds are set as soon as
 * the control segment is read, for the error CQE.
 */
int sim_rc_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w)
{
	size_t end = sim_msg_ctrl_read(wqe, len, w);

	if (!end)
		return -EINVAL;
	return sim_rc_wqe_rest(wqe, end, sizeof(struct sim_wqe_ctrl), w);
}

/**
 * sim_xrc_wqe_parse() - read a send WQE of an XRC initiator
 * @wqe: its bytes, from the control segment on
 * @len: how many of them are there
 * @w: what it says; @w->xrc_srqn is the XRC SRQ the message is for
 *
 * The XRC segment follows the control segment; the rest is an RC WQE's.
 *
 * Return: as sim_rc_wqe_parse().
 */
int sim_xrc_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w)
{
	const struct sim_wqe_xrc *x;
	size_t end = sim_msg_ctrl_read(wqe, len, w);
	size_t off = sizeof(struct sim_wqe_ctrl);

	if (!end || off + sizeof(*x) > end)
		return -EINVAL;
	x = (const void *)(wqe + off);
	w->xrc_srqn = be32_to_cpu(x->xrc_srqn) & 0xffffff;
	return sim_rc_wqe_rest(wqe, end, off + sizeof(*x), w);
}

/**
 * sim_dci_wqe_parse() - read a send WQE of a DC initiator
 * @wqe: its bytes, from the control segment on
 * @len: how many of them are there
 * @w: what it says; @w->dctn and @w->dc_key name the DCT the message is
 *     for and the key it carries
 *
 * The datagram segment (an address vector whose first 8 bytes are the
 * DC access key) follows the control segment; the rest is an RC WQE's.
 * A NOP connects to nothing: it has no address vector.
 *
 * Return: as sim_rc_wqe_parse().
 */
int sim_dci_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w)
{
	const struct sim_wqe_ctrl *c = (const void *)wqe;
	size_t end = sim_msg_ctrl_read(wqe, len, w);
	size_t off = sizeof(struct sim_wqe_ctrl);
	const struct sim_wqe_av *a;
	__be64 key;

	if (!end)
		return -EINVAL;
	if (w->opcode == SIM_OPCODE_NOP)
		return 0;
	if (off + sizeof(*a) > end)
		return -EINVAL;
	a = (const void *)(wqe + off);
	memcpy(&key, a, sizeof(key));
	w->dc_key = be64_to_cpu(key);
	w->dctn = be32_to_cpu(a->dqp_dct) & 0xffffff;
	w->stream = c->dci_stream[0] << 8 | c->dci_stream[1];
	return sim_rc_wqe_rest(wqe, end, off + sizeof(*a), w);
}

/* The address vector @a of a datagram's or a DCI's send WQE. */
static void sim_wqe_av_read(const struct sim_wqe_av *a, struct sim_ud_av *av)
{
	u32 fl;

	av->qkey = be32_to_cpu(a->qkey);
	av->dqpn = be32_to_cpu(a->dqp_dct) & 0xffffff;
	/* RoCE: every packet has a GRH, whatever bit 30 says (libmlx5: 0) */
	fl = be32_to_cpu(a->grh_gid_fl);
	av->sgid_index = (fl >> 20) & 0xff;
	av->flow_label = fl & 0xfffff;
	av->tclass = a->tclass;
	av->hop_limit = a->hop_limit;
	memcpy(av->dgid, a->rgid, sizeof(av->dgid));
	memcpy(av->rmac, a->rmac, sizeof(av->rmac));
	av->udp_sport = be16_to_cpu(a->rlid);
	av->prio = (a->stat_rate_sl >> 1) & 7;
}

/**
 * sim_dci_wqe_av() - the address vector of a DC initiator's send WQE
 * @wqe: its bytes, from the control segment on, as sim_dci_wqe_parse()
 *	 read them
 * @len: how many of them are there
 * @av: filled (its @qkey is the DC access key's top half: no Q_Key)
 *
 * Return: false when the WQE has no room for one.
 */
bool sim_dci_wqe_av(const u8 *wqe, size_t len, struct sim_ud_av *av)
{
	size_t off = sizeof(struct sim_wqe_ctrl);

	if (off + sizeof(struct sim_wqe_av) > len)
		return false;
	sim_wqe_av_read((const void *)(wqe + off), av);
	return true;
}

/**
 * sim_ud_wqe_parse() - read a send WQE of a UD QP
 * @wqe: its bytes, from the control segment on
 * @len: how many of them are there
 * @w: what it says (the fields of an RC WQE that a datagram has)
 * @av: its address vector
 *
 * Return: 0; -EINVAL for a WQE whose segments do not fit its size (a
 * local length error); -EOPNOTSUPP for an opcode other than SEND, SEND
 * with immediate and NOP (a local QP operation error).
 */
int sim_ud_wqe_parse(const u8 *wqe, size_t len, struct sim_rc_wqe *w,
		     struct sim_ud_av *av)
{
	size_t end, off = sizeof(struct sim_wqe_ctrl);
	const struct sim_wqe_av *a;

	memset(av, 0, sizeof(*av));
	end = sim_msg_ctrl_read(wqe, len, w);
	if (!end)
		return -EINVAL;
	if (w->opcode == SIM_OPCODE_NOP)
		return 0;
	if (w->opcode != SIM_OPCODE_SEND && w->opcode != SIM_OPCODE_SEND_IMM)
		return -EOPNOTSUPP;
	if (off + sizeof(*a) > end)
		return -EINVAL;
	sim_wqe_av_read((const void *)(wqe + off), av);
	return sim_msg_gather(wqe, end, off + sizeof(*a), w);
}
