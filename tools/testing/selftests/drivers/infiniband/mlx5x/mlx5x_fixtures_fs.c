// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Builders the selftest programs share for steering: DEVX flow tables,
 * entries and counters, mlx5dv flows and steering anchors, and walks of
 * the model's classifier; see mlx5x_fixtures.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "mlx5x_fixtures.h"
#include "mlx5x_queues.h"

/* ---- DEVX flow steering ---- */

#define MT_FT_NIC_RX		0	/* flow_table_type */
#define MT_FTE_IN_BYTES		(PRM_SET_FTE_IN_BYTES + 8)	/* one dest */

/**
 * mt_devx_rx_table() - a DEVX flow table of NIC RX at level 0, of 16
 * entries, with one group of them all matching the TCP destination port
 * @ctx: the context
 * @ft: the table, or NULL
 * @ft_id: its id
 * @fg: the group, or NULL
 * @fg_id: its id
 *
 * Return: true when both were made (each failure is a failed check).
 */
bool mt_devx_rx_table(struct ibv_context *ctx, struct mlx5dv_devx_obj **ft,
		      uint32_t *ft_id, struct mlx5dv_devx_obj **fg,
		      uint32_t *fg_id)
{
	uint32_t tin[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {};
	uint32_t tout[PRM_CREATE_FLOW_TABLE_OUT_BYTES / 4] = {};
	uint32_t gin[PRM_CREATE_FLOW_GROUP_IN_BYTES / 4] = {};
	uint32_t gout[PRM_CREATE_FLOW_GROUP_OUT_BYTES / 4] = {};

	*fg = NULL;
	*fg_id = 0;
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_TABLE_TYPE, MT_FT_NIC_RX);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LOG_SIZE, 4);
	*ft = mlx5dv_devx_obj_create(ctx, tin, sizeof(tin), tout,
				     sizeof(tout));
	*ft_id = *ft ? mt_get(tout, PRM_CREATE_FLOW_TABLE_OUT_TABLE_ID) : 0;
	if (!CHECK(*ft))
		return false;
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_OPCODE, PRM_OP_CREATE_FLOW_GROUP);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_TYPE, MT_FT_NIC_RX);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_ID, *ft_id);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_END_FLOW_INDEX, 15);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE, 1);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_OUTER_HEADERS_TCP_DPORT,
	       0xffff);
	*fg = mlx5dv_devx_obj_create(ctx, gin, sizeof(gin), gout,
				     sizeof(gout));
	*fg_id = *fg ? mt_get(gout, PRM_CREATE_FLOW_GROUP_OUT_GROUP_ID) : 0;
	return CHECK(*fg);
}

/**
 * mt_devx_fwd() - an entry of a table of mt_devx_rx_table(): packets to
 * a TCP destination port go on to another flow table
 * @ctx: the context
 * @ft: the table's id
 * @fg: its group's id
 * @index: the entry's index (0 to 15)
 * @dport: the port
 * @to: the flow table's id
 * @out: the command's output (16 bytes: status and syndrome), or NULL
 *
 * Return: the entry, or NULL with errno set.
 */
struct mlx5dv_devx_obj *mt_devx_fwd(struct ibv_context *ctx, uint32_t ft,
				    uint32_t fg, uint32_t index,
				    uint16_t dport, uint32_t to, uint32_t *out)
{
	uint32_t in[MT_FTE_IN_BYTES / 4] = {}, own[4];
	uint8_t *list = (uint8_t *)in + PRM_SET_FTE_IN_BYTES;

	mt_set(in, PRM_SET_FTE_IN_OPCODE, PRM_OP_SET_FLOW_TABLE_ENTRY);
	mt_set(in, PRM_SET_FTE_IN_TABLE_TYPE, MT_FT_NIC_RX);
	mt_set(in, PRM_SET_FTE_IN_TABLE_ID, ft);
	mt_set(in, PRM_SET_FTE_IN_FLOW_INDEX, index);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_GROUP_ID, fg);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_ACTION,
	       PRM_FLOW_CONTEXT_ACTION_FWD_DEST);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_DESTINATION_LIST_SIZE, 1);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MATCH_VALUE_OUTER_HEADERS_TCP_DPORT,
	       dport);
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_TYPE, 1); /* table */
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_ID, to);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out ? out : own,
				      16);
}

/**
 * mt_flow_counter() - a DEVX flow counter
 * @ctx: a DEVX context
 * @id: its flow_counter_id (0 when none was made)
 *
 * Return: the counter, or NULL with errno set.
 */
struct mlx5dv_devx_obj *mt_flow_counter(struct ibv_context *ctx, uint32_t *id)
{
	uint32_t in[PRM_ALLOC_FLOW_COUNTER_IN_BYTES / 4] = {};
	uint32_t out[PRM_ALLOC_FLOW_COUNTER_OUT_BYTES / 4] = {};
	struct mlx5dv_devx_obj *o;

	mt_set(in, PRM_ALLOC_FLOW_COUNTER_IN_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	o = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	*id = o ? mt_get(out, PRM_ALLOC_FLOW_COUNTER_OUT_FLOW_COUNTER_ID) : 0;
	return o;
}

/**
 * mt_flow_counted() - the packets a flow counter counted
 * @o: the counter (or the bulk holding it)
 * @id: its flow_counter_id
 *
 * Return: the count, or -1 when the query failed.
 */
long long mt_flow_counted(struct mlx5dv_devx_obj *o, uint32_t id)
{
	uint32_t in[PRM_QUERY_FLOW_COUNTER_IN_BYTES / 4] = {}, out[8] = {};

	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	mt_set(in, PRM_QUERY_FLOW_COUNTER_IN_FLOW_COUNTER_ID, id);
	if (mlx5dv_devx_obj_query(o, in, sizeof(in), out, sizeof(out)))
		return -1;
	return mt_get64(out, PRM_QUERY_FLOW_COUNTER_OUT_FLOW_STATISTICS_OFF +
			 PRM_TRAFFIC_COUNTER_PACKETS_OFF);
}

/**
 * mt_dv_flow() - mlx5dv_create_flow(3) of a match value, which it frees
 * @m: the matcher
 * @v: the value (calloc'ed), or NULL when making it failed (a failed check)
 * @act: the actions
 * @n: how many
 *
 * Return: the flow, or NULL with errno set.
 */
struct ibv_flow *mt_dv_flow(struct mlx5dv_flow_matcher *m,
			    struct mlx5dv_flow_match_parameters *v,
			    struct mlx5dv_flow_action_attr *act, size_t n)
{
	struct ibv_flow *f;

	if (!CHECK(v))
		return NULL;
	errno = 0;
	f = mlx5dv_create_flow(m, v, n, act);
	free(v);
	return f;
}

/**
 * mt_anchor() - a steering anchor (mlx5dv_create_steering_anchor(3))
 * @ctx: the context
 * @type: its MLX5DV_FLOW_TABLE_TYPE_*
 * @prio: its priority
 *
 * Return: the anchor, or NULL with errno set.
 */
struct mlx5dv_steering_anchor *mt_anchor(struct ibv_context *ctx, int type,
					 int prio)
{
	struct mlx5dv_steering_anchor_attr attr = {
		.ft_type = type, .priority = prio,
	};

	errno = 0;
	return mlx5dv_create_steering_anchor(ctx, &attr);
}

/**
 * mt_traced() - whether a classifier trace holds a line fragment
 * @trace: the trace
 * @fmt: the fragment, printf-style
 *
 * The trace goes to the log when it lacks the fragment.
 *
 * Return: whether it holds it.
 */
bool mt_traced(const char *trace, const char *fmt, ...)
{
	char want[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (strstr(trace, want))
		return true;
	mt_diag("trace lacks \"%s\":\n%s", want, trace);
	return false;
}

/* ---- the model's classifier ---- */

/* Ethernet 02:..:02 -> 02:..:01, IPv4 10.0.0.1 -> 10.0.0.2, TCP to 80. */
const uint8_t mt_tcp80[MT_TCP80_BYTES] = {
	0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x08, 0x00,
	0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, 6, 0, 0,
	10, 0, 0, 1, 10, 0, 0, 2,
	0x30, 0x39, 0, 80, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
	0, 0, 0, 0,
};

/**
 * mt_classify() - walk a packet through the model's steering pipeline
 * (fw/classify) and read the trace of the walk back
 * @dir: "rx" or "tx"
 * @port: the port it arrives on or leaves by
 * @hex: the packet's bytes, each as two hex digits
 * @trace: the trace, NUL-terminated ("" when there is none)
 * @len: @trace's size
 *
 * Return: 0, or the -errno of opening the file, of the write (the model
 * refuses what it cannot parse with -EINVAL) or of the read.
 */
int mt_classify(const char *dir, int port, const char *hex, char *trace,
		size_t len)
{
	char path[sizeof(mt.dbg) + 16], *line;
	int fd, err = 0;
	ssize_t n;

	trace[0] = '\0';
	snprintf(path, sizeof(path), "%s/classify", mt.dbg);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	if (asprintf(&line, "%s %d %s\n", dir, port, hex) < 0) {
		close(fd);
		return -ENOMEM;
	}
	if (write(fd, line, strlen(line)) < 0)
		err = -errno;
	free(line);
	if (!err) {
		n = read(fd, trace, len - 1);
		if (n < 0)
			err = -errno;
		else
			trace[n] = '\0';
	}
	close(fd);
	return err;
}

/**
 * mt_classify_bytes() - mt_classify() of a packet of @n bytes
 * @dir: "rx" or "tx"
 * @port: the port
 * @pkt: the packet
 * @n: its length
 * @trace: the trace, NUL-terminated
 * @len: @trace's size
 *
 * Return: as mt_classify().
 */
int mt_classify_bytes(const char *dir, int port, const void *pkt, size_t n,
		      char *trace, size_t len)
{
	const uint8_t *b = pkt;
	char *hex = malloc(2 * n + 1);
	size_t i;
	int err;

	trace[0] = '\0';
	if (!hex)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", b[i]);
	hex[2 * n] = '\0';
	err = mt_classify(dir, port, hex, trace, len);
	free(hex);
	return err;
}
