// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: the flow steering, steering anchor and device memory
 * methods.
 *
 * - flow matchers (MLX5_IB_OBJECT_FLOW_MATCHER): masks within the
 *   sections their criteria enable or not, of every length, every flow
 *   type (NORMAL with a priority), the table type by FT_TYPE, by the
 *   older FLOW_FLAGS, by both or by neither;
 * - mlx5dv flows (MLX5_IB_METHOD_CREATE_FLOW) through the matchers the
 *   worker holds: values within the matcher's mask or not, DROP or
 *   DEFAULT_MISS, a DEVX object or a QP as destination, flow tags, a DEVX
 *   counter at an offset, up to two flow actions;
 * - flow actions: modify header (lists of set, add and copy actions on
 *   header fields) and packet reformat (each type, on each table type,
 *   headers of every length), destroyed by UVERBS_METHOD_FLOW_ACTION_DESTROY;
 * - steering anchors, on every table type and priority;
 * - device memory: MEMIC and SW ICM allocations of every length and
 *   alignment, free, MLX5_IB_METHOD_DM_QUERY and
 *   MLX5_IB_METHOD_DM_MAP_OP_ADDR (not mapped: no mmap).
 *
 * Most calls are well formed for the simulated device (NIC RX and TX
 * tables, 16 priorities, the outer, misc and inner sections, 32 modify
 * header actions, headers up to 128 bytes, a 256 KiB MEMIC window), so
 * that they get past uverbs to the driver's and firmware's checks; the
 * rest carry random types, handles and lengths.  One call in eight is
 * then mutated.  A mask, action list or header that reached new code
 * (KCOV) joins the worker's steering corpus, which later calls mutate.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "mlx5x_fuzz.h"
#include "mlx5x_test.h"

#define FT_NIC_RX	MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_RX
#define FT_NIC_TX	MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_TX
#define FT_TYPES	5	/* NIC RX and TX, FDB, RDMA RX and TX */
#define PRIOS		16	/* of the NIC RX and TX namespaces */
/* a section of fte_match_param, as big as its outer headers */
#define SECTION_BYTES	PRM_FTE_MATCH_SET_LYR_2_4_BYTES
#define SECTIONS	8	/* seven, then reserved bytes */
#define CRITERIA	0x7	/* outer, misc, inner: what the model offers */
#define PRM_ACTION	8	/* bytes of a modify header action */
#define MAX_PRM_ACTIONS	32	/* max_modify_header_actions */
#define ENCAP_MAX	128	/* max_encap_header_size */
#define L2_HDR		14	/* what L3 tunnel to L2 puts back */
#define L2_VLAN_HDR	18
#define DM_TYPE_ENCAP_SW_ICM	4	/* enum mlx5_ib_uapi_dm_type, 6.5 */
#define DM_TYPES	5
#define MEMIC_OPS	3	/* two operations, and one the device lacks */
#define MAX_DM_ALIGN	12	/* log2: 64 << log_max_memic_addr_alignment */
#define RF_L2_TO_L2_TUNNEL \
	MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL
#define RF_L2_TO_L3_TUNNEL \
	MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL
#define RF_L3_TUNNEL_TO_L2 \
	MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2
#define FLOW_COUNTER_OFFSET MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX_OFFSET

enum fz_input_kind {
	IN_MASK,
	IN_ACTIONS,
	IN_REFORMAT,
};

/*
 * Mutate one call in eight: an attribute dropped, shrunk, bit-flipped,
 * renumbered or made mandatory.  Never so that the kernel writes where it
 * was not given a buffer: an output is only shrunk, an inline number
 * (that the kernel would take as an address) never becomes another
 * attribute; a buffer given as input may, being as long as it says.
 */
static void mutate(struct call *c)
{
	unsigned int k, i, last, bits;
	struct ib_uverbs_attr *a;
	bool out;

	if (below(8))
		return;
	for (k = 1 + below(2); k && c->hdr.num_attrs; k--) {
		i = below(c->hdr.num_attrs);
		a = &c->attrs[i];
		out = c->outs & 1U << i;
		switch (below(4)) {
		case 0:	/* dropped: the last takes its place */
			last = --c->hdr.num_attrs;
			*a = c->attrs[last];
			c->outs &= ~(1U << i);
			if (c->outs & 1U << last)
				c->outs |= 1U << i;
			c->outs &= ~(1U << last);
			break;
		case 1:	/* shorter; an input without data gets some */
			if (a->len)
				a->len = below(a->len);
			else if (!out)
				a->len = 1 + below(sizeof(a->data));
			break;
		case 2:
			bits = a->len ? a->len * 8 : 32;
			if (!out && a->len <= sizeof(a->data))
				a->data ^= 1ULL << below(bits);
			else
				a->len = below(a->len + 1);
			break;
		default:
			if (!out && (!a->len || a->len > sizeof(a->data)))
				a->attr_id ^= 1 << below(3);
			else
				a->flags ^= UVERBS_ATTR_F_MANDATORY;
			break;
		}
	}
}

/* Mutate, then run. */
static bool fs_run(struct call *c)
{
	mutate(c);
	return run(c);
}

/* A buffer of @kind from the steering corpus, bit-flipped; 0 if none. */
static unsigned int fs_seed(unsigned int kind, uint8_t *buf)
{
	struct fs_input *s;
	unsigned int i, n;

	for (i = 0; i < 4 && w.nfs_corpus; i++) {
		s = &w.fs_corpus[below(w.nfs_corpus)];
		if (s->kind != kind || !s->len)
			continue;
		memcpy(buf, s->buf, s->len);
		for (n = 1 + below(4); n; n--)
			buf[below(s->len)] ^= 1 << below(8);
		return s->len;
	}
	return 0;
}

static void fs_keep(unsigned int kind, const uint8_t *buf, unsigned int len)
{
	struct fs_input *s;

	if (!len || len > MATCH_BYTES)
		return;
	s = &w.fs_corpus[w.nfs_corpus < FS_CORPUS ? w.nfs_corpus++ :
			 below(FS_CORPUS)];
	s->kind = kind;
	s->len = len;
	memcpy(s->buf, buf, len);
}

/* A table type: mostly one the device offers, NIC RX or NIC TX. */
static uint32_t ft_type(void)
{
	switch (below(8)) {
	case 0:
		return below(4) ? below(FT_TYPES) : rnd();
	case 1:
	case 2:
	case 3:
		return FT_NIC_TX;
	default:
		return FT_NIC_RX;
	}
}

/* A constant (CONST_IN: 8 bytes), or once in a while of 1, 2 or 4. */
static void attr_const(struct call *c, uint16_t id, uint64_t val)
{
	attr_num(c, id, val, below(16) ? 8 : 1U << below(4));
}

/* A length for a typed attribute of @len bytes: it, or a wrong one. */
static unsigned int typed_len(unsigned int len)
{
	return below(16) ? len : 1U << below(4);
}

/* Handles of a worker's flow matchers and actions, by index. */
static uint32_t pick_matcher(struct fz_matcher **m)
{
	*m = NULL;
	if (!w.nmatchers || !below(8))
		return rnd() % 200;
	*m = &w.matchers[below(w.nmatchers)];
	return (*m)->handle;
}

static void drop_matcher(uint32_t handle)
{
	unsigned int i;

	for (i = 0; i < w.nmatchers; i++)
		if (w.matchers[i].handle == handle) {
			if (i != --w.nmatchers)
				w.matchers[i] = w.matchers[w.nmatchers];
			return;
		}
}

/* An action for a table type @ft, mostly one made for it; or any id. */
static uint32_t pick_action(uint32_t ft)
{
	unsigned int i, tries;

	if (!w.nactions || !below(8))
		return rnd() % 200;
	for (tries = 0; tries < 4; tries++) {
		i = below(w.nactions);
		if (w.actions[i].ft == ft)
			break;
	}
	return w.actions[i].handle;
}

static void drop_action(uint32_t handle)
{
	unsigned int i;

	for (i = 0; i < w.nactions; i++)
		if (w.actions[i].handle == handle) {
			w.actions[i] = w.actions[--w.nactions];
			return;
		}
}

/*
 * A mask for @criteria: a few bytes of each section it enables, now and
 * then a whole section; once in a while a bit anywhere.
 */
static void make_mask(uint8_t *mask, unsigned int criteria)
{
	unsigned int s, n;
	uint8_t *sec;

	memset(mask, 0, MATCH_BYTES);
	for (s = 0; s < SECTIONS; s++) {
		if (!(criteria & 1U << s))
			continue;
		sec = mask + s * SECTION_BYTES;
		if (!below(8)) {
			memset(sec, 0xff, SECTION_BYTES);
			continue;
		}
		for (n = 1 + below(6); n; n--)
			sec[below(SECTION_BYTES)] = below(2) ? 0xff : rnd();
	}
	if (!below(16))
		mask[below(MATCH_BYTES)] |= 1 << below(8);
}

static void matcher_destroy(void)
{
	struct fz_matcher *m;
	uint32_t h = pick_matcher(&m);
	struct call c;

	call_init(&c, MLX5_IB_OBJECT_FLOW_MATCHER,
		  MLX5_IB_METHOD_FLOW_MATCHER_DESTROY);
	attr_val(&c, MLX5_IB_ATTR_FLOW_MATCHER_DESTROY_HANDLE, h);
	fs_run(&c);
	/* one with flows stays (EBUSY): more flows may be made through it */
	if (w.ok || errno != EBUSY)
		drop_matcher(h);
}

/**
 * op_matcher() - create or destroy a flow matcher
 *
 * MATCH_MASK, FLOW_TYPE (an enum: the elem id says the type, NORMAL's data
 * is its u16 priority), MATCH_CRITERIA (u8), FT_TYPE or FLOW_FLAGS.
 */
void op_matcher(void)
{
	static __thread uint8_t mask[MAX_MBOX];
	unsigned int criteria, type, len, ft = FT_NIC_RX;
	struct ib_uverbs_attr *a;
	struct fz_matcher *m;
	uint64_t flags, prio;	/* a u16, in a buffer as long as any length */
	struct call c;

	w.group = FZ_MATCHER;
	if (w.nmatchers && (w.nmatchers == MAX_MATCHERS || !below(4))) {
		matcher_destroy();
		return;
	}
	criteria = below(4) ? below(CRITERIA + 1) :
		   below(2) ? 1U << below(8) : (uint8_t)rnd();
	len = below(4) ? 0 : fs_seed(IN_MASK, mask);
	if (!len) {
		make_mask(mask, criteria);
		len = below(4) ? MATCH_BYTES :
		      below(2) ? SECTION_BYTES * (1 + below(SECTIONS)) :
		      edge_len(MATCH_BYTES);
	}
	type = below(8) ? MLX5_IB_FLOW_TYPE_NORMAL : below(6);
	prio = below(8) ? below(PRIOS) : (uint16_t)rnd();

	call_init(&c, MLX5_IB_OBJECT_FLOW_MATCHER,
		  MLX5_IB_METHOD_FLOW_MATCHER_CREATE);
	attr_val(&c, MLX5_IB_ATTR_FLOW_MATCHER_CREATE_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_FLOW_MATCHER_MATCH_MASK, mask, len);
	a = &c.attrs[c.hdr.num_attrs];
	if (type == MLX5_IB_FLOW_TYPE_NORMAL)
		attr_in(&c, MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE, &prio,
			typed_len(2));
	else	/* no data */
		attr_in(&c, MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE, &prio,
			below(8) ? 0 : 2);
	a->attr_data.enum_data.elem_id = type;
	if (!below(32))
		a->attr_data.enum_data.reserved = 1 << below(8);
	attr_num(&c, MLX5_IB_ATTR_FLOW_MATCHER_MATCH_CRITERIA, criteria,
		 typed_len(1));
	switch (below(8)) {
	case 0:	/* the older way: egress or not */
		flags = below(4) ? IBV_FLOW_ATTR_FLAGS_EGRESS * below(2) :
			rnd();
		ft = flags ? FT_NIC_TX : FT_NIC_RX;
		attr_num(&c, MLX5_IB_ATTR_FLOW_MATCHER_FLOW_FLAGS, flags,
			 below(8) ? 8 : 4);
		break;
	case 1:	/* neither: NIC RX */
		break;
	case 2:	/* both: refused */
		attr_num(&c, MLX5_IB_ATTR_FLOW_MATCHER_FLOW_FLAGS, 0, 8);
		ft = ft_type();
		attr_const(&c, MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE, ft);
		break;
	default:
		ft = ft_type();
		attr_const(&c, MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE, ft);
		break;
	}
	if (fs_run(&c))
		fs_keep(IN_MASK, mask, len);
	if (!w.ok || w.nmatchers == MAX_MATCHERS)
		return;
	m = &w.matchers[w.nmatchers++];
	m->handle = c.attrs[0].data;
	m->ft = ft;
	m->normal = type == MLX5_IB_FLOW_TYPE_NORMAL;
	memset(m->mask, 0, sizeof(m->mask));
	memcpy(m->mask, mask, len < MATCH_BYTES ? len : MATCH_BYTES);
}

/*
 * The destination of a flow on a table type @ft: DROP, DEFAULT_MISS, a
 * DEVX object (a TIR or a flow table, when the worker made one), a QP (a
 * random id: the worker makes none), none (NIC TX: on to the wire), or
 * two of them.
 */
static void flow_dest(struct call *c, uint32_t ft)
{
	uint64_t flags = 0;

	switch (ft == FT_NIC_TX && below(2) ? 6 : below(8)) {
	case 0:
	case 1:
		flags = MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DROP;
		break;
	case 2:
		flags = MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DEFAULT_MISS;
		break;
	case 3:
	case 4:
		attr_val(c, MLX5_IB_ATTR_CREATE_FLOW_DEST_DEVX,
			 pick(w.objs, w.nobjs));
		break;
	case 5:
		attr_val(c, MLX5_IB_ATTR_CREATE_FLOW_DEST_QP, rnd() % 200);
		break;
	case 6:
		break;
	default:
		flags = below(2) ? rnd() : 3;
		if (below(2))
			attr_val(c, MLX5_IB_ATTR_CREATE_FLOW_DEST_DEVX,
				 pick(w.objs, w.nobjs));
		if (below(2))
			attr_val(c, MLX5_IB_ATTR_CREATE_FLOW_DEST_QP,
				 rnd() % 200);
		break;
	}
	if (flags || !below(16))
		attr_num(c, MLX5_IB_ATTR_CREATE_FLOW_FLAGS, flags,
			 below(8) ? 8 : 4);
}

static void flow_destroy(void)
{
	uint32_t h = pick(w.flows, w.nflows);
	struct call c;

	call_init(&c, UVERBS_OBJECT_FLOW, MLX5_IB_METHOD_DESTROY_FLOW);
	attr_val(&c, MLX5_IB_ATTR_DESTROY_FLOW_HANDLE, h);
	fs_run(&c);
	drop(w.flows, &w.nflows, h);
}

/**
 * op_flow() - create or destroy an mlx5dv flow
 *
 * MATCH_VALUE (within the matcher's mask, mostly), MATCHER, a destination
 * (flow_dest()), TAG, ARR_FLOW_ACTIONS, ARR_COUNTERS_DEVX and its
 * ARR_COUNTERS_DEVX_OFFSET.
 */
void op_flow(void)
{
	static __thread uint8_t value[MAX_MBOX];
	uint32_t acts[3], ctrs[2], offs[2], ft, matcher;
	unsigned int len, i, n;
	struct fz_matcher *m;
	uint64_t r;
	struct call c;

	w.group = FZ_FLOW;
	if (w.nflows && (w.nflows == MAX_HANDLES || !below(3))) {
		flow_destroy();
		return;
	}
	matcher = pick_matcher(&m);
	if (m && !m->normal && below(4))	/* through which none is made */
		matcher = pick_matcher(&m);
	ft = m ? m->ft : FT_NIC_RX;
	for (i = 0; i < MATCH_BYTES; i += sizeof(r)) {
		r = rnd();
		memcpy(&value[i], &r, sizeof(r));
	}
	if (m && below(16))
		for (i = 0; i < MATCH_BYTES; i++)
			value[i] &= m->mask[i];
	len = below(4) ? MATCH_BYTES : edge_len(MATCH_BYTES);

	call_init(&c, UVERBS_OBJECT_FLOW, MLX5_IB_METHOD_CREATE_FLOW);
	attr_val(&c, MLX5_IB_ATTR_CREATE_FLOW_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_CREATE_FLOW_MATCH_VALUE, value, len);
	attr_val(&c, MLX5_IB_ATTR_CREATE_FLOW_MATCHER, matcher);
	flow_dest(&c, ft);
	if (!below(4))
		attr_num(&c, MLX5_IB_ATTR_CREATE_FLOW_TAG,
			 below(8) ? below(1 << 24) : rnd(), typed_len(4));
	if (!below(3)) {	/* one or two actions, at most */
		n = below(8) ? 1 + below(2) : below(4);
		for (i = 0; i < n; i++)
			acts[i] = pick_action(ft);
		attr_in(&c, MLX5_IB_ATTR_CREATE_FLOW_ARR_FLOW_ACTIONS, acts,
			n * sizeof(acts[0]));
	}
	if (!below(6)) {	/* one counter, at an offset into its bulk */
		ctrs[0] = pick(w.objs, w.nobjs);
		ctrs[1] = pick(w.objs, w.nobjs);
		attr_in(&c, MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX, ctrs,
			below(8) ? sizeof(ctrs[0]) : below(3) * 4);
		if (below(2)) {
			offs[0] = below(4) ? 0 : below(2) ? below(64) : rnd();
			offs[1] = 0;
			attr_in(&c, FLOW_COUNTER_OFFSET, offs,
				below(8) ? sizeof(offs[0]) : below(9));
		}
	}
	fs_run(&c);
	if (w.ok && w.nflows < MAX_HANDLES)
		w.flows[w.nflows++] = c.attrs[0].data;
}

/* Header fields a modify header action may name, with their widths. */
static const struct {
	uint8_t field;
	uint8_t bits;
} mh_fields[] = {
	{ 0x01, 32 }, { 0x02, 16 }, { 0x03, 16 }, { 0x04, 32 }, { 0x05, 16 },
	{ 0x06, 6 }, { 0x07, 9 }, { 0x08, 16 }, { 0x09, 16 }, { 0x0a, 8 },
	{ 0x0b, 16 }, { 0x0c, 16 }, { 0x0d, 32 }, { 0x0e, 32 }, { 0x0f, 32 },
	{ 0x10, 32 }, { 0x11, 32 }, { 0x12, 32 }, { 0x13, 32 }, { 0x14, 32 },
	{ 0x15, 32 }, { 0x16, 32 }, { 0x17, 12 }, { 0x47, 8 }, { 0x49, 32 },
	{ 0x50, 32 }, { 0x51, 32 }, { 0x52, 32 }, { 0x53, 32 }, { 0x54, 32 },
	{ 0x55, 32 }, { 0x56, 32 }, { 0x57, 32 }, { 0x58, 32 }, { 0x59, 32 },
	{ 0x5b, 32 },
};

/*
 * One PRM action (set_add_copy_action_in_auto, big endian): SET, ADD or
 * COPY of a span inside a known field; one in sixteen has a bit of its
 * first dword flipped (type, field, offset or length).
 */
static void prm_action(uint8_t *act)
{
	unsigned int s = below(MT_ARRAY_SIZE(mh_fields));
	unsigned int d = below(MT_ARRAY_SIZE(mh_fields));
	unsigned int bits = mh_fields[s].bits, type = 1 + below(3);
	unsigned int len, off, doff = 0;
	uint32_t dw0, dw1 = rnd();

	if (type == 3 && mh_fields[d].bits < bits)
		bits = mh_fields[d].bits;
	len = 1 + below(bits);
	off = below(mh_fields[s].bits - len + 1);
	if (type == 2) {	/* ADD: the whole field */
		off = 0;
		len = 0;
	} else if (type == 3) {
		doff = below(mh_fields[d].bits - len + 1);
		dw1 = (uint32_t)mh_fields[d].field << 16 | doff << 8;
	}
	/* type 4, field 12, offset 5 at bit 19, length 5 (0 is 32) at 27 */
	dw0 = type << 28 | (uint32_t)mh_fields[s].field << 16 | off << 8 |
	      (len & 31);
	if (!below(16))
		dw0 ^= 1U << below(32);
	dw0 = htobe32(dw0);
	dw1 = htobe32(dw1);
	memcpy(act, &dw0, sizeof(dw0));
	memcpy(act + 4, &dw1, sizeof(dw1));
}

static void modify_header(void)
{
	static __thread uint8_t acts[MAX_MBOX];
	unsigned int n, i, len;
	uint32_t ft = ft_type();
	struct call c;

	len = below(4) ? 0 : fs_seed(IN_ACTIONS, acts);
	if (!len) {
		n = below(8) ? 1 + below(MAX_PRM_ACTIONS) :
		    below(2 * MAX_PRM_ACTIONS);
		for (i = 0; i < n; i++)
			prm_action(acts + i * PRM_ACTION);
		len = below(16) ? n * PRM_ACTION : edge_len(n * PRM_ACTION);
	}
	call_init(&c, UVERBS_OBJECT_FLOW_ACTION,
		  MLX5_IB_METHOD_FLOW_ACTION_CREATE_MODIFY_HEADER);
	attr_val(&c, MLX5_IB_ATTR_CREATE_MODIFY_HEADER_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_CREATE_MODIFY_HEADER_ACTIONS_PRM, acts, len);
	attr_const(&c, MLX5_IB_ATTR_CREATE_MODIFY_HEADER_FT_TYPE, ft);
	if (fs_run(&c))
		fs_keep(IN_ACTIONS, acts, len);
	if (w.ok && w.nactions < MAX_ACTIONS)
		w.actions[w.nactions++] = (struct fz_action){
			c.attrs[0].data, ft };
}

/*
 * A packet reformat: L2 to L2 tunnel or L2 to L3 tunnel on NIC TX, L3
 * tunnel to L2 on NIC RX (an Ethernet header, with or without VLAN), the
 * others (L2 tunnel to L2: not offered) on any table type.
 */
static void reformat(void)
{
	static __thread uint8_t data[MAX_MBOX];
	uint32_t type, ft = FT_NIC_TX;
	unsigned int len, i;
	struct call c;

	switch (below(8)) {
	case 0:
	case 1:
	case 2:
		type = RF_L2_TO_L2_TUNNEL;
		len = 1 + below(ENCAP_MAX);
		break;
	case 3:
	case 4:
		type = RF_L2_TO_L3_TUNNEL;
		len = 1 + below(ENCAP_MAX);
		break;
	case 5:
	case 6:
		type = RF_L3_TUNNEL_TO_L2;
		ft = FT_NIC_RX;
		len = below(2) ? L2_HDR : L2_VLAN_HDR;
		break;
	default:
		type = below(4) ? below(5) : rnd();
		ft = ft_type();
		len = edge_len(ENCAP_MAX);
		break;
	}
	if (!below(8))
		ft = ft_type();
	if (!below(8))
		len = edge_len(ENCAP_MAX);
	for (i = 0; i < len; i++)
		data[i] = rnd();
	if (!below(4)) {
		i = fs_seed(IN_REFORMAT, data);
		len = i ?: len;
	}
	call_init(&c, UVERBS_OBJECT_FLOW_ACTION,
		  MLX5_IB_METHOD_FLOW_ACTION_CREATE_PACKET_REFORMAT);
	attr_val(&c, MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_HANDLE, 0);
	attr_const(&c, MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_TYPE, type);
	attr_const(&c, MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_FT_TYPE, ft);
	if (below(16))
		attr_in(&c, MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_DATA_BUF, data,
			len);
	if (fs_run(&c))
		fs_keep(IN_REFORMAT, data, len);
	if (w.ok && w.nactions < MAX_ACTIONS)
		w.actions[w.nactions++] = (struct fz_action){
			c.attrs[0].data, ft };
}

/**
 * op_action() - create a flow action, or destroy one
 *
 * Creates: modify_header(), reformat().  An action a flow uses stays
 * (EBUSY): more flows may use it.
 */
void op_action(void)
{
	struct call c;
	uint32_t h;

	w.group = FZ_ACTION;
	if (w.nactions && (w.nactions == MAX_ACTIONS || !below(4))) {
		h = below(8) ? w.actions[below(w.nactions)].handle :
		    rnd() % 200;
		call_init(&c, UVERBS_OBJECT_FLOW_ACTION,
			  UVERBS_METHOD_FLOW_ACTION_DESTROY);
		attr_val(&c, UVERBS_ATTR_DESTROY_FLOW_ACTION_HANDLE, h);
		fs_run(&c);
		if (w.ok || errno != EBUSY)
			drop_action(h);
		return;
	}
	if (below(2))
		modify_header();
	else
		reformat();
}

/**
 * op_anchor() - create or destroy a steering anchor
 *
 * FT_TYPE, PRIORITY (u16), FT_ID (u32 out).
 */
void op_anchor(void)
{
	uint64_t prio = below(8) ? below(PRIOS) : (uint16_t)rnd(), ft_id;
	struct call c;
	uint32_t h;

	w.group = FZ_ANCHOR;
	if (w.nanchors && (w.nanchors == MAX_ANCHORS || !below(3))) {
		h = pick(w.anchors, w.nanchors);
		call_init(&c, MLX5_IB_OBJECT_STEERING_ANCHOR,
			  MLX5_IB_METHOD_STEERING_ANCHOR_DESTROY);
		attr_val(&c, MLX5_IB_ATTR_STEERING_ANCHOR_DESTROY_HANDLE, h);
		fs_run(&c);
		drop(w.anchors, &w.nanchors, h);
		return;
	}
	call_init(&c, MLX5_IB_OBJECT_STEERING_ANCHOR,
		  MLX5_IB_METHOD_STEERING_ANCHOR_CREATE);
	attr_val(&c, MLX5_IB_ATTR_STEERING_ANCHOR_CREATE_HANDLE, 0);
	attr_const(&c, MLX5_IB_ATTR_STEERING_ANCHOR_FT_TYPE, ft_type());
	attr_in(&c, MLX5_IB_ATTR_STEERING_ANCHOR_PRIORITY, &prio,
		typed_len(2));
	if (below(16))
		attr_out(&c, MLX5_IB_ATTR_STEERING_ANCHOR_FT_ID, &ft_id,
			 typed_len(4));
	fs_run(&c);
	if (w.ok && w.nanchors < MAX_ANCHORS)
		w.anchors[w.nanchors++] = c.attrs[0].data;
}

/*
 * Allocate device memory: MEMIC mostly (its type given or by default),
 * of a length that leaves room for the other workers, sometimes the
 * whole window; SW ICM of the four types, of granule multiples; or any
 * type and length.  START_OFFSET is mandatory, PAGE_INDEX not.
 */
static void dm_alloc(void)
{
	uint64_t len, off, page, align;
	struct call c;
	uint32_t type;

	switch (below(8)) {
	case 0:
	case 1:
	case 2:
	case 3:
	case 4:
		type = MLX5_IB_UAPI_DM_TYPE_MEMIC;
		len = below(8) ? 1 + below(8192) :
		      below(2) ? edge_len(64) : 1ULL << below(20);
		break;
	case 5:
	case 6:
		type = 1 + below(DM_TYPES - 1);
		len = below(4) ? 4096ULL << below(8) : 1 + below(1 << 20);
		break;
	default:
		type = below(2) ? below(8) : rnd();
		len = below(2) ? rnd() : edge_len(64);
		break;
	}
	align = below(8) ? below(MAX_DM_ALIGN + 1) :
		below(2) ? 64 : (uint32_t)rnd();

	call_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	attr_val(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0);
	attr_in(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, &len, typed_len(8));
	attr_in(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, &align, typed_len(4));
	if (type != MLX5_IB_UAPI_DM_TYPE_MEMIC || below(2))
		attr_const(&c, MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE, type);
	if (below(16))
		attr_out(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &off,
			 typed_len(8));
	if (below(2))
		attr_out(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, &page,
			 typed_len(2));
	fs_run(&c);
	if (w.ok && w.ndms < MAX_DMS)
		w.dms[w.ndms++] = c.attrs[0].data;
}

/**
 * op_dm() - device memory: allocate, free, query or map an operation
 *
 * A worker holds a few DMs at most: when full, it frees one.
 */
void op_dm(void)
{
	uint64_t off, page, len;
	unsigned int op;
	struct call c;
	uint32_t h;

	w.group = FZ_DM;
	op = w.ndms ? below(8) : 0;
	if (op < 3 && w.ndms == MAX_DMS)
		op = 3;
	switch (op) {
	case 0:
	case 1:
	case 2:
		dm_alloc();
		return;
	case 3:
	case 4:
		h = pick(w.dms, w.ndms);
		call_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE);
		attr_val(&c, UVERBS_ATTR_FREE_DM_HANDLE, h);
		fs_run(&c);
		drop(w.dms, &w.ndms, h);
		return;
	case 5:
		call_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_QUERY);
		attr_val(&c, MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE,
			 pick(w.dms, w.ndms));
		attr_out(&c, MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET, &off,
			 typed_len(8));
		attr_out(&c, MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX, &page,
			 typed_len(2));
		attr_out(&c, MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH, &len,
			 typed_len(8));
		break;
	default:	/* the window of a MEMIC operation */
		call_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR);
		attr_val(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE,
			 pick(w.dms, w.ndms));
		attr_num(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP,
			 below(8) ? below(MEMIC_OPS) : rnd(), typed_len(1));
		attr_out(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET,
			 &off, typed_len(8));
		if (below(2))
			attr_out(&c,
				 MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX,
				 &page, typed_len(2));
		break;
	}
	fs_run(&c);
}
