// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RDMA RX and RDMA TX steering domains (issue 24 item 5), as
 * mlx5dv_create_flow_matcher(3), mlx5dv_create_flow(3) and
 * mlx5dv_create_steering_anchor(3) offer them with the table types
 * MLX5DV_FLOW_TABLE_TYPE_RDMA_RX and _RDMA_TX, and as upstream mlx5_ib
 * checks their rules:
 *   - a flow on the BTH's opcode drops that opcode's packets only;
 *   - a flow on the BTH's destination QP counts that QP's RoCE packets
 *     and no other's; RDMA RX takes a DEVX table of its domain (or a QP)
 *     as destination, never DROP alone: a DEVX table whose entry drops
 *     drops, and a packet no entry drops goes on to the RoCE transport;
 *   - RDMA TX drops, counts, forwards to a DEVX table of its domain, and
 *     what it lets through goes on to the wire; no TIR, no table of
 *     another domain;
 *   - steering anchors of both domains: one table per priority, shared,
 *     that a DEVX table of the domain forwards to, handing the packet to
 *     the kernel's table of that priority.
 * The model's classifier (fw/classify, "rdma_rx" and "rdma_tx") walks a
 * RoCE v2 packet through the domain and says where it went; traffic
 * across the wire is in mlx5x_rc_wire.  On hardware every case skips.
 */
#include <stdio.h>
#include "mlx5x_dv_flow.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"
#include "mlx5x_rdma_fs.h"

#define TRACE_BYTES	(64 * 1024)
#define QPN_A		0x123
#define QPN_B		0x456
#define ROCE_PORT	4791
#define UD_SEND_ONLY	0x64
#define UD_SEND_ONLY_IMM 0x65
#define M_BTH_OPCODE	PRM_FTE_MATCH_PARAM_MISC_PARAMETERS_BTH_OPCODE

static char *trace;
static const uint8_t mac_d[6] = { 0x02, 0, 0, 0, 0, 0xd };
static const uint8_t mac_s[6] = { 0x02, 0, 0, 0, 0, 0x5 };

/* A RoCE v2 UD packet of @opcode to QP @qpn, 16 bytes of payload, IPv4. */
static void roce_pkt(struct mt_pkt *p, uint8_t opcode, uint32_t qpn)
{
	static const uint8_t payload[16 + 4];	/* and the ICRC */

	memset(p, 0, sizeof(*p));
	mt_pkt_eth(p, mac_d, mac_s, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(p, "10.0.0.1", "10.0.0.2", MT_IP_UDP, 0);
	mt_pkt_l4(p, false, 0xc000, ROCE_PORT);
	mt_pkt_put32(p, opcode << 24 | 0xffff);	/* BTH: P_Key */
	mt_pkt_put32(p, qpn);
	mt_pkt_put32(p, 7);				/* PSN */
	mt_pkt_put32(p, 0x11111111);			/* DETH: Q_Key */
	mt_pkt_put32(p, 0x99);				/* source QP */
	mt_pkt_put(p, payload, sizeof(payload));
	mt_pkt_ipv4_finish(p, 14);
}

/* Walk a packet of @opcode to QP @qpn through @dir ("rdma_rx", ...). */
static int walk_op(const char *dir, uint8_t opcode, uint32_t qpn)
{
	struct mt_pkt p;

	roce_pkt(&p, opcode, qpn);
	return mt_classify_bytes(dir, 1, p.b, p.len, trace, TRACE_BYTES);
}

static int walk_qp(const char *dir, uint32_t qpn)
{
	return walk_op(dir, UD_SEND_ONLY, qpn);
}

/* The trace holds this formatted line fragment. */
#define traced(...)	mt_traced(trace, __VA_ARGS__)

/*
 * RDMA RX, QP A's packets counted and forwarded to a DEVX table of the
 * domain with no entry: counted, then on to the transport; QP B's are
 * not counted.  The table's entry made a drop: A's are dropped, B's not.
 */
MT_TEST_F(env, rx_count_and_drop_qp)
{
	struct mlx5dv_flow_matcher *m = NULL;
	struct mlx5dv_devx_obj *cnt = NULL;
	struct ibv_flow *f = NULL;
	struct rdma_ft t = {};
	uint32_t cnt_id = 0;

	m = rdma_qp_matcher(self->q.ctx, RDMA_RX, 0);
	cnt = counter(self->q.ctx, &cnt_id);
	if (!CHECK(m) || !CHECK(cnt) ||
	    !rdma_ft_open(self->q.ctx, &t, PRM_FT_RDMA_RX, 20, 0))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(t.ft),
						       ACT_COUNT(cnt) };

		f = rdma_qp_flow(m, QPN_A, a, 2);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk_qp("rdma_rx", QPN_A), 0);
	CHECK(traced("packet dir=rdma_rx"));
	CHECK(traced("table id=0x%x type=rdma_rx level=20 uid=%d\n", t.id,
		     self->q.uid));
	CHECK(traced("verdict to=drop\n"));
	CHECK_EQ(counted(cnt, cnt_id), 1);
	CHECK_EQ(walk_qp("rdma_rx", QPN_B), 0);
	CHECK(traced("verdict to=roce\n"));
	CHECK(!strstr(trace, "verdict to=drop"));
	CHECK_EQ(counted(cnt, cnt_id), 1);
	CHECK_EQ(walk_qp("rdma_rx", QPN_A), 0);
	CHECK_EQ(counted(cnt, cnt_id), 2);

	/* the entry gone: A's packets counted, then on to the transport */
	CHECK_ERR(mlx5dv_devx_obj_destroy(t.fte), 0);
	t.fte = NULL;
	CHECK_EQ(walk_qp("rdma_rx", QPN_A), 0);
	CHECK(traced("forward table=0x%x\n", t.id));
	CHECK(traced("verdict to=roce\n"));
	CHECK_EQ(counted(cnt, cnt_id), 3);
	/* the rule holds its destination table, empty as it is */
	CHECK_ERR(mlx5dv_devx_obj_destroy(t.fg), 0);
	t.fg = NULL;
	CHECK_ERR(mlx5dv_devx_obj_destroy(t.ft), EBUSY);
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	rdma_ft_close(&t);
	if (cnt)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cnt), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	return KSFT_PASS;
}

/* RDMA TX: a counted drop for QP A; B's packets go on to the wire. */
MT_TEST_F(env, tx_drop_qp)
{
	struct mlx5dv_flow_matcher *m = NULL;
	struct mlx5dv_devx_obj *cnt = NULL;
	struct ibv_flow *f = NULL;
	uint32_t cnt_id = 0;

	m = rdma_qp_matcher(self->q.ctx, RDMA_TX, 15);
	cnt = counter(self->q.ctx, &cnt_id);
	if (!CHECK(m) || !CHECK(cnt))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_COUNT(cnt),
						       ACT_DROP };

		f = rdma_qp_flow(m, QPN_A, a, 2);
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk_qp("rdma_tx", QPN_A), 0);
	CHECK(traced("packet dir=rdma_tx"));
	CHECK(traced("verdict to=drop\n"));
	CHECK_EQ(counted(cnt, cnt_id), 1);
	CHECK_EQ(walk_qp("rdma_tx", QPN_B), 0);
	CHECK(traced("verdict to=wire\n"));
	CHECK_EQ(counted(cnt, cnt_id), 1);
	/* the NIC's tables never see the RDMA domain's rules */
	CHECK_EQ(walk_qp("tx", QPN_A), 0);
	CHECK(!strstr(trace, "verdict to=drop"));
	CHECK_EQ(counted(cnt, cnt_id), 1);
	CHECK_ERR(ibv_destroy_flow(f), 0);
	f = NULL;
	CHECK_EQ(walk_qp("rdma_tx", QPN_A), 0);
	CHECK(traced("verdict to=wire\n"));
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	if (cnt)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cnt), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	return KSFT_PASS;
}

/*
 * RDMA RX on the BTH's opcode: UD SEND ONLY dropped (through a DEVX
 * table that drops), SEND ONLY with immediate on to the transport.
 */
MT_TEST_F(env, rx_drop_opcode)
{
	struct mlx5dv_flow_match_parameters *mask = NULL, *val;
	struct mlx5dv_flow_matcher *m = NULL;
	struct ibv_flow *f = NULL;
	struct rdma_ft t = {};

	mask = calloc(1, sizeof(*mask) + MATCH_BYTES);
	val = calloc(1, sizeof(*val) + MATCH_BYTES);
	if (!CHECK(mask) || !CHECK(val))
		goto out;
	mask->match_sz = MATCH_BYTES;
	val->match_sz = MATCH_BYTES;
	mt_set(mask->match_buf, M_BTH_OPCODE, 0xff);
	mt_set(val->match_buf, M_BTH_OPCODE, UD_SEND_ONLY);
	m = matcher(self->q.ctx, RDMA_RX, 1, CRIT_MISC, mask);
	if (!CHECK(m) || !rdma_ft_open(self->q.ctx, &t, PRM_FT_RDMA_RX, 20, 0))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(t.ft) };

		f = mt_dv_flow(m, val, a, 1);
		val = NULL;
	}
	if (!CHECK(f))
		goto out;
	CHECK_EQ(walk_op("rdma_rx", UD_SEND_ONLY, QPN_B), 0);
	CHECK(traced("verdict to=drop\n"));
	CHECK_EQ(walk_op("rdma_rx", UD_SEND_ONLY_IMM, QPN_B), 0);
	CHECK(traced("verdict to=roce\n"));
	CHECK(!strstr(trace, "verdict to=drop"));
out:
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	rdma_ft_close(&t);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	free(mask);
	free(val);
	return KSFT_PASS;
}

/* What upstream mlx5_ib and the device refuse in the RDMA domains. */
MT_TEST_F(env, refusals)
{
	struct mlx5dv_flow_matcher *rx = NULL, *tx = NULL;
	struct rdma_ft nic = {}, rtx = {};
	uint32_t in[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {}, out[4];

	rx = rdma_qp_matcher(self->q.ctx, RDMA_RX, 0);
	tx = rdma_qp_matcher(self->q.ctx, RDMA_TX, 0);
	if (!CHECK(rx) || !CHECK(tx) ||
	    !rdma_ft_open(self->q.ctx, &rtx, PRM_FT_RDMA_TX, 20, 0) ||
	    !rdma_ft_open(self->q.ctx, &nic, 0 /* NIC RX */, 20, 0))
		goto out;
	/* RDMA RX: a DEVX table or a QP, nothing else */
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DROP };

		CHECK(!rdma_qp_flow(rx, QPN_A, a, 1));
		CHECK_ERR(errno, EINVAL);
		CHECK(!rdma_qp_flow(rx, QPN_A, NULL, 0));
		CHECK_ERR(errno, EINVAL);
	}
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(self->tir.obj) };

		CHECK(!rdma_qp_flow(rx, QPN_A, a, 1));
		CHECK_ERR(errno, EINVAL);
		CHECK(!rdma_qp_flow(tx, QPN_A, a, 1));
		CHECK_ERR(errno, EINVAL);
	}
	/* a table of another domain, or of the other direction */
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(nic.ft) };

		CHECK(!rdma_qp_flow(rx, QPN_A, a, 1));
		CHECK(!rdma_qp_flow(tx, QPN_A, a, 1));
	}
	{
		struct mlx5dv_flow_action_attr a[] = { ACT_DEVX(rtx.ft) };

		CHECK(!rdma_qp_flow(rx, QPN_A, a, 1));
	}
	/* no header rewrites, no reformat: the domains offer neither */
	CHECK(!set_dport(self->q.ctx, RDMA_RX, 1, 1));
	CHECK_ERR(errno, EOPNOTSUPP);
	/* a DEVX table of RDMA RX deeper than the device's levels */
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_TABLE_TYPE, PRM_FT_RDMA_RX);
	mt_set(in, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LEVEL, 64);
	mt_devx_refused(mlx5dv_devx_obj_create(self->q.ctx, in, sizeof(in),
					       out, sizeof(out)),
			out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD, "level 64");
out:
	rdma_ft_close(&nic);
	rdma_ft_close(&rtx);
	if (tx)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(tx), 0);
	if (rx)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(rx), 0);
	return KSFT_PASS;
}

/*
 * Anchors of both domains: shared per priority; a DEVX table of the
 * domain forwards to it, and the packet goes on through the kernel's
 * table of that priority to the domain's default.
 */
MT_TEST_F(env, anchors)
{
	static const int types[] = { RDMA_RX, RDMA_TX };
	static const uint32_t prm[] = { PRM_FT_RDMA_RX, PRM_FT_RDMA_TX };
	static const char *const dir[] = { "rdma_rx", "rdma_tx" };
	static const char *const to[] = { "roce", "wire" };
	struct mlx5dv_flow_matcher *m = NULL;
	struct mlx5dv_steering_anchor *a = NULL, *b = NULL;
	struct ibv_flow *f = NULL;
	struct rdma_ft t = {};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		a = mt_anchor(self->q.ctx, types[i], 3);
		b = mt_anchor(self->q.ctx, types[i], 3);
		if (!CHECK(a) || !CHECK(b))
			break;
		CHECK_EQ(a->id, b->id);
		m = rdma_qp_matcher(self->q.ctx, types[i], 0);
		if (!CHECK(m) ||
		    !rdma_ft_open(self->q.ctx, &t, prm[i], 20, a->id))
			break;
		{
			struct mlx5dv_flow_action_attr act[] = {
				ACT_DEVX(t.ft)
			};

			f = rdma_qp_flow(m, QPN_A, act, 1);
		}
		if (!CHECK(f))
			break;
		CHECK_EQ(walk_qp(dir[i], QPN_A), 0);
		CHECK(traced("forward table=0x%x\n", t.id));
		CHECK(traced("forward table=0x%x\ntable id=0x%x type=%s level=32 uid=%d\n",
			     a->id, a->id, dir[i], PRM_SHARED_RESOURCE_UID));
		CHECK(traced("verdict to=%s\n", to[i]));
		CHECK_ERR(ibv_destroy_flow(f), 0);
		f = NULL;
		rdma_ft_close(&t);
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
		m = NULL;
		CHECK_ERR(mlx5dv_destroy_steering_anchor(b), 0);
		b = NULL;
		CHECK_ERR(mlx5dv_destroy_steering_anchor(a), 0);
		a = NULL;
		/* priorities 0-15 */
		CHECK(!mt_anchor(self->q.ctx, types[i], 16));
		CHECK_ERR(errno, EINVAL);
	}
	if (f)
		CHECK_ERR(ibv_destroy_flow(f), 0);
	rdma_ft_close(&t);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	if (b)
		CHECK_ERR(mlx5dv_destroy_steering_anchor(b), 0);
	if (a)
		CHECK_ERR(mlx5dv_destroy_steering_anchor(a), 0);
	return KSFT_PASS;
}

#define RDMA_CASE(nm)	MT_CASE_F(env, nm, \
				  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT)

static const struct mt_case cases[] = {
	RDMA_CASE(rx_count_and_drop_qp),
	RDMA_CASE(tx_drop_qp),
	RDMA_CASE(rx_drop_opcode),
	RDMA_CASE(refusals),
	RDMA_CASE(anchors),
};

int main(void)
{
	int ret;

	trace = malloc(TRACE_BYTES);
	if (!trace)
		return KSFT_FAIL;
	ret = mt_main(cases, MT_ARRAY_SIZE(cases));
	free(trace);
	return ret;
}
