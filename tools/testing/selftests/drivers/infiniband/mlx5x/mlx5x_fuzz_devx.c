// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: the DEVX methods.  Object create, modify, query and destroy
 * and the general command, on mailboxes from the worker's corpus,
 * mutated, or fresh with a PRM header (an opcode of the lists below or
 * any, op_mod 0 or not) over a random body, of lengths at and around the
 * edges; the async query and the async command FD it answers on, read
 * now and then; event FDs and subscriptions with random event lists,
 * cookies and FD numbers.  A mailbox that reached new code joins the
 * corpus (keep(), also for the mailboxes of mlx5x_fuzz_mem.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x_fuzz.h"
#include "mlx5x_test.h"

/* Opcodes fresh mailboxes start with: creates, and the rest. */
static const uint16_t create_ops[] = {
	0x800, 0x816, 0x771, 0x939, 0x930, 0x933, 0x936, 0x940, 0x93d,
	0x200, 0xa00, 0x400, 0x900, 0x904, 0x908, 0x912, 0x916, 0x500,
	0x806, 0xa01, 0x502,
};
static const uint16_t other_ops[] = {
	0x100, 0x101, 0x750, 0x752, 0x754, 0x762, 0x773, 0x93b, 0x402,
	0x907, 0x90b, 0x913, 0x917, 0x932, 0x934, 0x937, 0x942,
};

/* A mailbox: from the corpus, mutated, or fresh with a valid header. */
static unsigned int make_mbox(uint8_t *in, const uint16_t *ops,
			      unsigned int nops)
{
	unsigned int len, i, n;

	if (w.ncorpus && below(2)) {
		struct input *s = &w.corpus[below(w.ncorpus)];

		len = s->len;
		memcpy(in, s->buf, len);
		n = 1 + below(8);
		for (i = 0; i < n && len; i++) {
			switch (below(4)) {
			case 0:
				in[below(len)] ^= 1 << below(8);
				break;
			case 1:
				in[below(len)] = rnd();
				break;
			case 2:
				if (len > 16)
					*(uint32_t *)&in[16 + below(len - 16) / 4 * 4] =
						below(2) ? rnd() : below(64);
				break;
			default:
				len = edge_len(len);
				break;
			}
		}
		return len;
	}
	len = edge_len(below(2) ? 64 : 256);
	for (i = 0; i < len; i++)
		in[i] = below(4) ? 0 : rnd();
	if (len >= 2) {
		uint16_t op = below(8) ? ops[below(nops)] : rnd();

		in[0] = op >> 8;
		in[1] = op;
	}
	if (len >= 8 && below(2)) {
		in[4] = 0;
		in[5] = 0;	/* op_mod 0 */
	}
	return len;
}

/* A mailbox that reached new code joins the corpus, or takes a place in it. */
void keep(const uint8_t *in, unsigned int len)
{
	struct input *s;

	if (len > MAX_MBOX)
		return;
	s = &w.corpus[w.ncorpus < CORPUS ? w.ncorpus++ : below(CORPUS)];
	s->len = len;
	memcpy(s->buf, in, len);
}

void op_obj_create(void)
{
	static __thread uint8_t in[MAX_MBOX], out[MAX_MBOX];
	unsigned int len = make_mbox(in, create_ops, MT_ARRAY_SIZE(create_ops));
	struct call c;
	bool fresh;

	call_init(&c, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_CREATE);
	attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, in, len);
	attr_out(&c, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, out, edge_len(16));
	fresh = run(&c);
	if (fresh)
		keep(in, len);
	if (w.ok && w.nobjs < MAX_HANDLES)
		w.objs[w.nobjs++] = c.attrs[0].data;
}

void op_obj_destroy(void)
{
	uint32_t h = pick(w.objs, w.nobjs);
	struct call c;

	call_init(&c, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_DESTROY);
	attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, h);
	run(&c);
	drop(w.objs, &w.nobjs, h);
}

void op_obj_cmd(void)
{
	static __thread uint8_t in[MAX_MBOX], out[MAX_MBOX];
	unsigned int len = make_mbox(in, other_ops, MT_ARRAY_SIZE(other_ops));
	unsigned int m = below(3);
	struct call c;

	if (m == 2) {	/* the general command, on no object */
		call_init(&c, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_OTHER);
		attr_in(&c, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, in, len);
		attr_out(&c, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, out,
			 edge_len(256));
	} else {
		call_init(&c, MLX5_IB_OBJECT_DEVX_OBJ,
			  m ? MLX5_IB_METHOD_DEVX_OBJ_QUERY :
			  MLX5_IB_METHOD_DEVX_OBJ_MODIFY);
		attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE,
			 pick(w.objs, w.nobjs));
		attr_in(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, in, len);
		attr_out(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, out,
			 edge_len(256));
	}
	if (run(&c))
		keep(in, len);
}

void op_async(void)
{
	static __thread uint8_t in[MAX_MBOX], out[8192];
	struct call c;
	uint64_t wr_id = rnd();
	unsigned int len;

	if (w.async_fd < 0 || !below(16)) {
		if (w.async_fd >= 0)
			close(w.async_fd);
		call_init(&c, MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD,
			  MLX5_IB_METHOD_DEVX_ASYNC_CMD_FD_ALLOC);
		attr_val(&c, MLX5_IB_ATTR_DEVX_ASYNC_CMD_FD_ALLOC_HANDLE, 0);
		c.attrs[0].data = -1;
		run(&c);
		w.async_fd = w.ok ? (int)c.attrs[0].data : -1;
		if (w.async_fd >= 0)
			fcntl(w.async_fd, F_SETFL, O_NONBLOCK);
	}
	if (below(2)) {
		len = make_mbox(in, other_ops, MT_ARRAY_SIZE(other_ops));
		call_init(&c, MLX5_IB_OBJECT_DEVX_OBJ,
			  MLX5_IB_METHOD_DEVX_OBJ_ASYNC_QUERY);
		attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_HANDLE,
			 pick(w.objs, w.nobjs));
		attr_in(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_CMD_IN, in, len);
		/* a CONST_IN: 8 bytes, whatever the type */
		attr_num(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_OUT_LEN,
			 below(2) ? edge_len(256) : rnd(), below(16) ? 8 : 2);
		attr_val(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_FD,
			 below(8) ? (uint64_t)w.async_fd : rnd() % 64);
		attr_in(&c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_WR_ID, &wr_id,
			sizeof(wr_id));
		if (run(&c))
			keep(in, len);
	}
	if (w.async_fd >= 0)
		(void)!read(w.async_fd, out, below(2) ? sizeof(out) : below(64));
}

void op_events(void)
{
	uint16_t list[16];
	uint64_t cookie = rnd();
	uint32_t fdnum = rnd();
	unsigned int i, n = below(17);
	uint8_t buf[512];
	struct call c;

	if (w.event_fd < 0 || !below(16)) {
		if (w.event_fd >= 0)
			close(w.event_fd);
		call_init(&c, MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD,
			  MLX5_IB_METHOD_DEVX_ASYNC_EVENT_FD_ALLOC);
		attr_val(&c, MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_HANDLE, 0);
		c.attrs[0].data = -1;
		attr_num(&c, MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_FLAGS,
			 below(4) ? below(2) : rnd(), 8);
		run(&c);
		w.event_fd = w.ok ? (int)c.attrs[0].data : -1;
		if (w.event_fd >= 0)
			fcntl(w.event_fd, F_SETFL, O_NONBLOCK);
	}
	for (i = 0; i < n; i++)
		list[i] = below(4) ? below(0x30) : rnd();
	call_init(&c, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT);
	attr_val(&c, MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_HANDLE,
		 below(8) ? (uint64_t)w.event_fd : rnd() % 64);
	if (below(2))
		attr_val(&c, MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_OBJ_HANDLE,
			 pick(w.objs, w.nobjs));
	attr_in(&c, MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_TYPE_NUM_LIST, list,
		n * 2 + (below(8) ? 0 : 1));
	if (below(2))
		attr_in(&c, MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_COOKIE, &cookie,
			sizeof(cookie));
	if (below(2))
		attr_in(&c, MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_NUM, &fdnum,
			sizeof(fdnum));
	run(&c);
	if (w.event_fd >= 0)
		(void)!read(w.event_fd, buf, below(2) ? sizeof(buf) : below(40));
}
