// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The packet classifier: a packet walks the steering pipeline from the
 * root table of its direction, as the device would steer it, and every
 * step is written to a trace:
 *
 *   packet dir=rx port=1 len=60
 *   table id=0x1 type=rx level=0 uid=0
 *   group id=0x2 start=0 end=0 result=miss
 *   group id=0x3 start=1 end=1 result=hit fte=0x4 index=1 uid=0
 *   counter id=0x5 packets=1 bytes=60
 *   reformat id=0x6 type=3 len=110->60
 *   modify id=0x7 action=set field=dmac_15_0 old=0x2 new=0x3
 *   tag value=0x12
 *   forward table=0x8
 *   miss table=0x9
 *   verdict to=tir id=0xa uid=1
 *
 * A table's groups are tried in order; a group masks the packet with its
 * mask and looks the result up in its hash of entries (no entry is
 * scanned).  The first entry hit acts: counters, decapsulation, header
 * rewrites, encapsulation, then drop, forward (every destination gets a
 * copy) or allow.  A packet no group matches goes to the table's miss
 * table, or to the type's default: the port's own delivery on receive
 * (verdict to=default), the wire on transmit (verdict to=wire).
 *
 * When a sniffer root of the packet's direction is set, a copy of the
 * packet walks it too, after the packet itself (tables type=sniffer_rx or
 * sniffer_tx); a copy no entry takes is discarded (verdict to=discard).
 *
 * A RoCE packet of the device's QPs walks an RDMA domain too
 * (sim_classify_rdma()): RDMA RX once the port took it for the RoCE
 * transport, RDMA TX before it leaves for the wire (tables type=rdma_rx
 * or rdma_tx).  What no entry drops goes on: to the transport (verdict
 * to=roce) or to the wire (verdict to=wire).
 */
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "classify.h"

/* Tables one packet may visit, over all its copies: bounds a loop. */
#define SIM_WALK_MAX_TABLES	256
/* Copies waiting to be walked. */
#define SIM_WALK_MAX_PENDING	64

#define SIM_MH_BYTES		PRM_UN_BYTES(set_add_copy_action_in_auto)

/* A packet (or a copy) and the table it is to walk next. */
struct sim_walk_step {
	struct sim_flow_table *ft;
	struct sim_pkt *p;
};

/*
 * The walk runs from an explicit stack of steps, not by recursion: a
 * chain of tables may be 64 long, and a loop (ignore_flow_level) longer.
 */
struct sim_walk {
	struct seq_buf *s;
	struct sim_walk_out *out;
	unsigned int passed;	/* copies that reached the type's default */
	unsigned int tables;
	unsigned int npending;
	struct sim_walk_step pending[SIM_WALK_MAX_PENDING];
	u8 key[SIM_FS_MATCH_BYTES];
	u8 old[SIM_PKT_CSUM_SPAN];
};

static const char *sim_table_type_name(u8 type)
{
	switch (type) {
	case MLX5_FLOW_TABLE_TYPE_NIC_TX:
		return "tx";
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_RX:
		return "sniffer_rx";
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_TX:
		return "sniffer_tx";
	case SIM_FS_TYPE_RDMA_RX:
		return "rdma_rx";
	case SIM_FS_TYPE_RDMA_TX:
		return "rdma_tx";
	default:
		return "rx";
	}
}

/* A copy that ends here: kept for the data path, if it asked. */
static void sim_walk_deliver(struct sim_walk *w, struct sim_obj *tir,
			     const struct sim_pkt *p)
{
	struct sim_walk_out *o = w->out;

	if (!o)
		return;
	if (o->n == SIM_WALK_MAX_OUT) {
		seq_buf_printf(w->s, "verdict to=error reason=copies\n");
		return;
	}
	o->p[o->n] = kmemdup(p, sizeof(*p), GFP_KERNEL);
	if (!o->p[o->n]) {
		seq_buf_printf(w->s, "verdict to=error reason=nomem\n");
		return;
	}
	o->tir[o->n++] = tir;
}

/* Where a packet no entry of a table of @type sends on goes. */
static void sim_verdict_default(struct sim_walk *w, u8 type,
				const struct sim_pkt *p)
{
	const char *to;

	switch (type) {
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_RX:
	case MLX5_FLOW_TABLE_TYPE_SNIFFER_TX:
		seq_buf_printf(w->s, "verdict to=discard\n");
		return;
	case MLX5_FLOW_TABLE_TYPE_NIC_TX:
	case SIM_FS_TYPE_RDMA_TX:
		to = "wire";
		break;
	case SIM_FS_TYPE_RDMA_RX:
		to = "roce";
		break;
	default:
		to = "default";
		break;
	}
	seq_buf_printf(w->s, "verdict to=%s\n", to);
	/* the wire, the transport or the port's default: the caller's */
	w->passed++;
	sim_walk_deliver(w, NULL, p);
}

static void sim_walk_push(struct sim_walk *w, struct sim_flow_table *ft,
			  struct sim_pkt *p)
{
	if (w->npending == SIM_WALK_MAX_PENDING) {
		seq_buf_printf(w->s, "verdict to=error reason=copies\n");
		kfree(p);
		return;
	}
	w->pending[w->npending].ft = ft;
	w->pending[w->npending].p = p;
	w->npending++;
}

static void sim_walk_counters(struct sim_walk *w, const struct sim_fte_acts *a,
			      const struct sim_pkt *p)
{
	struct sim_flow_counter *fc;
	struct sim_fc_stat *st;
	u32 i;

	for (i = 0; i < a->ncounter; i++) {
		fc = container_of(a->counter[i].obj, struct sim_flow_counter,
				  obj);
		st = &fc->stat[a->counter[i].id - fc->obj.id];
		st->packets++;
		st->octets += p->wire_len ?: p->len;
		seq_buf_printf(w->s, "counter id=0x%x packets=%llu bytes=%llu\n",
			       a->counter[i].id, st->packets, st->octets);
	}
}

static void sim_walk_reformat(struct sim_walk *w, struct sim_obj *obj,
			      struct sim_pkt *p)
{
	struct sim_pkt_reformat *r = container_of(obj, struct sim_pkt_reformat,
						  obj);
	u16 before = p->len;

	if (sim_pkt_reformat(p, r))
		seq_buf_printf(w->s, "reformat id=0x%x type=%u len=%u->%u\n",
			       obj->id, r->type, before, p->len);
	else
		seq_buf_printf(w->s,
			       "reformat id=0x%x type=%u result=not_applied\n",
			       obj->id, r->type);
}

/* One set, add or copy action on @p. */
static void sim_walk_mh_action(struct sim_walk *w, u32 id, const u8 *act,
			       struct sim_pkt *p)
{
	u32 type = PRM_GET(set_action_in, act, action_type);
	u32 field, old, src, len, off, m, val;
	unsigned int width, swidth;

	if (type == MLX5_ACTION_TYPE_COPY) {
		field = PRM_GET(copy_action_in, act, dst_field);
		len = PRM_GET(copy_action_in, act, length) ?: 32;
		m = len >= 32 ? ~0U : BIT(len) - 1;
		if (!sim_pkt_field_get(p, PRM_GET(copy_action_in, act,
						  src_field), &src, &swidth) ||
		    !sim_pkt_field_get(p, field, &old, &width))
			goto absent;
		off = PRM_GET(copy_action_in, act, dst_offset);
		src = (src >> PRM_GET(copy_action_in, act, src_offset)) & m;
		val = (old & ~(m << off)) | (src << off);
	} else {
		field = PRM_GET(set_action_in, act, field);
		if (!sim_pkt_field_get(p, field, &old, &width))
			goto absent;
		if (type == MLX5_ACTION_TYPE_ADD) {
			val = old + PRM_GET(add_action_in, act, data);
		} else {
			len = PRM_GET(set_action_in, act, length) ?: 32;
			off = PRM_GET(set_action_in, act, offset);
			m = (len >= 32 ? ~0U : BIT(len) - 1) << off;
			val = (old & ~m) |
			      ((PRM_GET(set_action_in, act, data) << off) & m);
		}
	}
	if (width < 32)
		val &= BIT(width) - 1;
	sim_pkt_field_set(p, field, val);
	seq_buf_printf(w->s, "modify id=0x%x action=%s field=%s old=0x%x new=0x%x\n",
		       id, type == MLX5_ACTION_TYPE_COPY ? "copy" :
		       type == MLX5_ACTION_TYPE_ADD ? "add" : "set",
		       sim_pkt_field_name(field), old, val);
	return;
absent:
	seq_buf_printf(w->s, "modify id=0x%x field=%s result=absent\n", id,
		       sim_pkt_field_name(field));
}

static void sim_walk_modify(struct sim_walk *w, struct sim_obj *obj,
			    struct sim_pkt *p)
{
	struct sim_modify_hdr *mh = container_of(obj, struct sim_modify_hdr,
						 obj);
	u16 l3 = p->l3, l4 = p->l4;
	u8 proto = p->l4_proto;
	u32 i, span = min_t(u32, p->len, SIM_PKT_CSUM_SPAN);

	memcpy(w->old, p->data, span);
	for (i = 0; i < mh->nactions; i++)
		sim_walk_mh_action(w, obj->id, mh->actions + i * SIM_MH_BYTES,
				   p);
	sim_pkt_parse(p);
	/* the rewritten headers' checksums, as the device recomputes them */
	if (p->l3 == l3 && p->l4 == l4 && p->l4_proto == proto)
		sim_pkt_csum_update(p, w->old, span);
}

static bool sim_reformat_is_decap(struct sim_obj *obj)
{
	return container_of(obj, struct sim_pkt_reformat, obj)->type ==
	       MLX5_REFORMAT_TYPE_L3_TUNNEL_TO_L2;
}

/*
 * Every destination of an entry gets the packet: a TIR ends its copy
 * here, a table takes it next.  Pushed last first, so the trace follows
 * the destination list; the last table takes @p itself.
 */
static void sim_walk_forward(struct sim_walk *w, const struct sim_fte_acts *a,
			     struct sim_pkt *p)
{
	const struct sim_fte_dest *d;
	struct sim_pkt *copy;
	bool used = false;
	u32 i;

	for (i = 0; i < a->ndest; i++) {
		d = &a->dest[i];
		if (d->type == MLX5_IFC_FLOW_DESTINATION_TYPE_TIR) {
			seq_buf_printf(w->s, "verdict to=tir id=0x%x uid=%u\n",
				       d->id, d->obj->uid);
			sim_walk_deliver(w, d->obj, p);
		} else {
			seq_buf_printf(w->s, "forward table=0x%x\n", d->id);
		}
	}
	for (i = a->ndest; i-- > 0;) {
		d = &a->dest[i];
		if (d->type != MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE)
			continue;
		copy = used ? kmemdup(p, sizeof(*p), GFP_KERNEL) : p;
		if (!copy) {
			seq_buf_printf(w->s, "verdict to=error reason=nomem\n");
			continue;
		}
		used = true;
		sim_walk_push(w, container_of(d->obj, struct sim_flow_table,
					      obj), copy);
	}
	if (!used)
		kfree(p);
}

/* What an entry does to @p, which it consumes. */
static void sim_walk_fte(struct sim_walk *w, struct sim_fte *fte,
			 struct sim_pkt *p)
{
	const struct sim_fte_acts *a = &fte->acts;

	if (a->action & MLX5_FLOW_CONTEXT_ACTION_COUNT)
		sim_walk_counters(w, a, p);
	if (a->reformat && sim_reformat_is_decap(a->reformat))
		sim_walk_reformat(w, a->reformat, p);
	if (a->modhdr)
		sim_walk_modify(w, a->modhdr, p);
	if (a->reformat && !sim_reformat_is_decap(a->reformat))
		sim_walk_reformat(w, a->reformat, p);
	if (a->flow_tag) {
		seq_buf_printf(w->s, "tag value=0x%x\n", a->flow_tag);
		p->flow_tag = a->flow_tag;
	}
	if (a->action & MLX5_FLOW_CONTEXT_ACTION_FWD_DEST) {
		sim_walk_forward(w, a, p);
		return;
	}
	if (a->action & MLX5_FLOW_CONTEXT_ACTION_DROP)
		seq_buf_printf(w->s, "verdict to=drop\n");
	else
		sim_verdict_default(w, fte->fg->ft->type, p);
	kfree(p);
}

/* One table: its groups in order, the first entry hit, or its miss. */
static void sim_walk_table(struct sim_walk *w, struct sim_flow_table *ft,
			   struct sim_pkt *p)
{
	struct sim_flow_group *fg;
	struct sim_fte *fte;
	unsigned int i;

	if (++w->tables > SIM_WALK_MAX_TABLES) {
		seq_buf_printf(w->s, "verdict to=loop table=0x%x\n",
			       ft->obj.id);
		kfree(p);
		return;
	}
	seq_buf_printf(w->s, "table id=0x%x type=%s level=%u uid=%u\n",
		       ft->obj.id, sim_table_type_name(ft->type), ft->level,
		       ft->obj.uid);
	list_for_each_entry(fg, &ft->groups, node) {
		for (i = 0; i < SIM_FS_MATCH_BYTES; i++)
			w->key[i] = p->match[i] & fg->mask[i];
		fte = sim_fte_lookup(fg, w->key);
		if (!fte) {
			seq_buf_printf(w->s,
				       "group id=0x%x start=%u end=%u result=miss\n",
				       fg->obj.id, fg->start, fg->end);
			continue;
		}
		seq_buf_printf(w->s,
			       "group id=0x%x start=%u end=%u result=hit fte=0x%x index=%u uid=%u\n",
			       fg->obj.id, fg->start, fg->end, fte->obj.id,
			       fte->flow_index, fte->obj.uid);
		sim_walk_fte(w, fte, p);
		return;
	}
	if (ft->miss) {
		seq_buf_printf(w->s, "miss table=0x%x\n", ft->miss->obj.id);
		sim_walk_push(w, ft->miss, p);
		return;
	}
	seq_buf_printf(w->s, "miss table=default\n");
	sim_verdict_default(w, ft->type, p);
	kfree(p);
}

/*
 * Walk @p (consumed) from @root until no copy is left; a copy walks
 * @sniffer (if any) after it.
 */
static void sim_walk(struct sim_walk *w, struct sim_flow_table *root,
		     struct sim_flow_table *sniffer, struct sim_pkt *p)
{
	struct sim_walk_step st;
	struct sim_pkt *copy;

	if (sniffer) {
		copy = kmemdup(p, sizeof(*p), GFP_KERNEL);
		if (copy)
			sim_walk_push(w, sniffer, copy);
		else
			seq_buf_printf(w->s, "verdict to=error reason=nomem\n");
	}
	sim_walk_push(w, root, p);
	while (w->npending) {
		st = w->pending[--w->npending];
		sim_walk_table(w, st.ft, st.p);
	}
}

/*
 * Walk @p (consumed) from the root of @type, a copy from the root of
 * @sniffer (0: none) too.  Return: the copies that reached @type's
 * default.
 */
static unsigned int sim_classify_type(struct mlx5x_sim *sim, u32 type,
				      u32 sniffer, struct sim_pkt *p,
				      struct seq_buf *s,
				      struct sim_walk_out *out)
{
	unsigned int passed;
	struct sim_walk *w;

	lockdep_assert_held(&sim->lock);
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		seq_buf_printf(s, "verdict to=error reason=nomem\n");
		kfree(p);
		return 0;
	}
	w->s = s;
	w->out = out;
	if (sim->fs_root[type]) {
		sim_walk(w, sim->fs_root[type],
			 sniffer ? sim->fs_root[sniffer] : NULL, p);
	} else {
		seq_buf_printf(s, "root table=none\n");
		sim_verdict_default(w, type, p);
		kfree(p);
	}
	passed = w->passed;
	kfree(w);
	return passed;
}

/**
 * sim_classify_walk() - steer a parsed packet through one direction
 * @sim: the model, its lock held
 * @tx: through the NIC TX tables, else NIC RX
 * @p: the packet (parsed), consumed
 * @s: where the trace goes (may be a zero-sized seq_buf)
 * @out: where the copies ended (TIRs, the wire), or NULL
 *
 * The one walker of the pipeline: the debugfs classifier and the data
 * path both steer through it.  Counters the packet hits count it.
 */
void sim_classify_walk(struct mlx5x_sim *sim, bool tx, struct sim_pkt *p,
		       struct seq_buf *s, struct sim_walk_out *out)
{
	if (tx)
		sim_classify_type(sim, MLX5_FLOW_TABLE_TYPE_NIC_TX,
				  MLX5_FLOW_TABLE_TYPE_SNIFFER_TX, p, s, out);
	else
		sim_classify_type(sim, MLX5_FLOW_TABLE_TYPE_NIC_RX,
				  MLX5_FLOW_TABLE_TYPE_SNIFFER_RX, p, s, out);
}

/**
 * sim_classify_rdma() - steer a RoCE packet through an RDMA domain
 * @sim: the model, its lock held
 * @tx: through RDMA TX (sent by a QP of the device), else RDMA RX
 * @p: the packet (parsed), consumed
 * @s: where the trace goes (may be a zero-sized seq_buf)
 *
 * Counters the packet hits count it.
 *
 * Return: true when it goes on (to the wire, or to the RoCE transport):
 * no entry dropped it, or a copy of it got past one that did.
 */
bool sim_classify_rdma(struct mlx5x_sim *sim, bool tx, struct sim_pkt *p,
		       struct seq_buf *s)
{
	return sim_classify_type(sim, tx ? SIM_FS_TYPE_RDMA_TX :
				 SIM_FS_TYPE_RDMA_RX, 0, p, s, NULL);
}


/* Steer a packet through @type's tables (NIC or RDMA); the trace's length. */
static int sim_classify_trace(struct mlx5x_sim *sim, u32 type, u8 port,
			      const void *bytes, size_t len, char *trace,
			      size_t size)
{
	struct seq_buf s;
	struct sim_pkt *p;

	if (port != 1 || len < 14 || len > SIM_PKT_MAX || !size)
		return -EINVAL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	memcpy(p->data, bytes, len);
	p->len = len;
	sim_pkt_parse(p);
	seq_buf_init(&s, trace, size);
	seq_buf_printf(&s, "packet dir=%s port=%u len=%zu\n",
		       sim_table_type_name(type), port, len);
	mutex_lock(&sim->lock);
	if (type == SIM_FS_TYPE_RDMA_RX || type == SIM_FS_TYPE_RDMA_TX)
		sim_classify_rdma(sim, type == SIM_FS_TYPE_RDMA_TX, p, &s);
	else
		sim_classify_walk(sim, type == MLX5_FLOW_TABLE_TYPE_NIC_TX, p,
				  &s, NULL);
	mutex_unlock(&sim->lock);
	if (seq_buf_has_overflowed(&s)) {
		trace[size - 1] = '\0';
		return -ENOSPC;
	}
	/* seq_buf leaves room: terminate after what it wrote */
	if (seq_buf_used(&s) >= size)
		return -ENOSPC;
	trace[seq_buf_used(&s)] = '\0';
	return seq_buf_used(&s);
}

/**
 * mlx5x_sim_classify() - steer a packet and say where it goes and why
 * @sim: the model
 * @tx: transmitted by the function (NIC TX tables) rather than received
 * @port: the port it arrives on or leaves by (1)
 * @bytes: the packet, from its Ethernet header
 * @len: its length, 14 to SIM_PKT_MAX
 * @trace: where the trace goes, NUL-terminated
 * @size: room in @trace
 *
 * Counters the packet hits count it, as they would on the device.
 *
 * Return: the trace's length, -EINVAL for a bad port or length, -ENOMEM,
 * or -ENOSPC when the trace did not fit.
 */
int mlx5x_sim_classify(struct mlx5x_sim *sim, bool tx, u8 port,
		       const void *bytes, size_t len, char *trace, size_t size)
{
	return sim_classify_trace(sim, tx ? MLX5_FLOW_TABLE_TYPE_NIC_TX :
				  MLX5_FLOW_TABLE_TYPE_NIC_RX, port, bytes,
				  len, trace, size);
}

/*
 * debugfs "classify": write "rx|tx|rdma_rx|rdma_tx PORT HEXBYTES" (bytes
 * as pairs of hex digits, optionally separated by ':' or spaces), then
 * read the trace from the same open file.
 */
#define SIM_TRACE_BYTES	(64 * 1024)

struct sim_classify_file {
	struct mlx5x_sim *sim;
	char *trace;
	int len;
};

static int sim_classify_open(struct inode *inode, struct file *file)
{
	struct sim_classify_file *cf = kzalloc(sizeof(*cf), GFP_KERNEL);

	if (!cf)
		return -ENOMEM;
	cf->trace = kvzalloc(SIM_TRACE_BYTES, GFP_KERNEL);
	if (!cf->trace) {
		kfree(cf);
		return -ENOMEM;
	}
	cf->sim = inode->i_private;
	file->private_data = cf;
	return nonseekable_open(inode, file);
}

static int sim_classify_release(struct inode *inode, struct file *file)
{
	struct sim_classify_file *cf = file->private_data;

	kvfree(cf->trace);
	kfree(cf);
	return 0;
}

/* "DIR PORT HEX": the packet into @pkt; its length or -EINVAL. */
static int sim_classify_parse(char *buf, u32 *type, u8 *port, u8 *pkt)
{
	static const u32 types[] = {
		MLX5_FLOW_TABLE_TYPE_NIC_RX, MLX5_FLOW_TABLE_TYPE_NIC_TX,
		SIM_FS_TYPE_RDMA_RX, SIM_FS_TYPE_RDMA_TX,
	};
	char *dir = strsep(&buf, " \t");
	char *portstr = strsep(&buf, " \t");
	int len = 0, hi, i;

	if (!dir || !portstr || !buf)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(dir, sim_table_type_name(types[i])))
			break;
	if (i == ARRAY_SIZE(types))
		return -EINVAL;
	*type = types[i];
	if (kstrtou8(portstr, 0, port))
		return -EINVAL;
	while (*buf) {
		if (*buf == ':' || isspace(*buf)) {
			buf++;
			continue;
		}
		hi = hex_to_bin(buf[0]);
		if (hi < 0 || hex_to_bin(buf[1]) < 0 || len >= SIM_PKT_MAX)
			return -EINVAL;
		pkt[len++] = hi << 4 | hex_to_bin(buf[1]);
		buf += 2;
	}
	return len;
}

static ssize_t sim_classify_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct sim_classify_file *cf = file->private_data;
	char *buf;
	u8 *pkt;
	u32 type;
	u8 port;
	int len, ret;

	if (count > SIM_PKT_MAX * 3 + 32)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	pkt = kmalloc(SIM_PKT_MAX, GFP_KERNEL);
	if (!pkt) {
		kfree(buf);
		return -ENOMEM;
	}
	len = sim_classify_parse(strim(buf), &type, &port, pkt);
	ret = len < 0 ? len :
	      sim_classify_trace(cf->sim, type, port, pkt, len, cf->trace,
				 SIM_TRACE_BYTES);
	kfree(pkt);
	kfree(buf);
	if (ret < 0)
		return ret;
	cf->len = ret;
	*ppos = 0;	/* the next read starts at the new trace */
	return count;
}

static ssize_t sim_classify_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct sim_classify_file *cf = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, cf->trace, cf->len);
}

static const struct file_operations sim_classify_fops = {
	.owner = THIS_MODULE,
	.open = sim_classify_open,
	.release = sim_classify_release,
	.write = sim_classify_write,
	.read = sim_classify_read,
	.llseek = noop_llseek,	/* no_llseek is gone in 6.12 */
};

/**
 * sim_classify_debugfs_init() - publish fw/classify
 * @sim: the model, whose debugfs directory exists
 */
void sim_classify_debugfs_init(struct mlx5x_sim *sim)
{
	debugfs_create_file("classify", 0600, sim->dbg, sim,
			    &sim_classify_fops);
}
