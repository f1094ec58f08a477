// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RDMA RX and RDMA TX steering domains (mlx5dv_create_flow_matcher(3)
 * with MLX5DV_FLOW_TABLE_TYPE_RDMA_RX / _RDMA_TX) on traffic between two
 * QPs of one device.  A ConnectX loops such traffic below its transmit
 * steering: every packet walks the sender's RDMA TX tables and the
 * receiver's RDMA RX tables as one across the wire does, so:
 *   - a UD datagram to QP B, under an RDMA RX rule on B's QP number that
 *     forwards to a table whose entry drops, never arrives (the send
 *     completes: UD is unreliable) and the rule's counter counts it;
 *     once the rule is gone, the next one arrives;
 *   - an RDMA TX rule on B's QP number with a counter counts each of A's
 *     datagrams to B, which arrive all the same;
 *   - an RDMA TX rule that drops a multicast datagram drops it before
 *     the port loops it to the group's members on the port, as it does
 *     before the wire: a member QP B gets nothing, the rule counts it;
 *   - an RC SEND from A to B under the RDMA RX drop is lost each time it
 *     is sent: A's ACK timer runs out retry_cnt times, then the send ends
 *     in IBV_WC_RETRY_EXC_ERR (ibv_poll_cq(3)) and A goes to the error
 *     state; the rule counts the first transmission and every retry;
 *   - a message is its packets, one a path MTU: a counter counts each,
 *     and a rule on the BTH's opcode (SEND MIDDLE) loses only the
 *     messages that have such a packet;
 *   - B's answers walk B's RDMA TX and A's RDMA RX: a READ's responses
 *     (one a path MTU), a SEND's ACK, an atomic's ACK; one dropped, A
 *     hears nothing and retries as for a lost request (a SEND B took
 *     is not received twice), then IBV_WC_RETRY_EXC_ERR;
 *   - so do its NAKs (remote access) and RNR NAKs: counted in B's RDMA
 *     TX; lost in A's RDMA RX, A hears of no error and no RNR, its ACK
 *     timer runs out instead and the WR ends in IBV_WC_RETRY_EXC_ERR.
 * The QPs use the port's RoCE v2 GID (the domains match the UDP and BTH
 * headers), and the rules are made on the QPs' own context, which, to
 * make flow rules at all, needs CAP_NET_RAW (Documentation/security.rst).
 */
#include "mlx5x_dv_flow.h"
#include "mlx5x_rc.h"
#include "mlx5x_rdma_rule.h"

#define QKEY		0x11111111U
#define GRH_BYTES	40
#define RECV_OFF	32768
#define LEN		64

/* A pair of QPs of @type on the port's RoCE v2 GID, and a rule. */
struct lb {
	struct pair p;
	struct ibv_ah *ah;
	struct rdma_rule r;
};

/* The pair; RC's QPs connected with @rnr_retry. */
static int lb_open(struct lb *s, enum ibv_qp_type type, uint8_t rnr_retry)
{
	struct ibv_ah_attr aa = {
		.is_global = 1, .port_num = 1, .grh.hop_limit = 64,
	};
	unsigned int i;
	int rc = pair_mem_open(&s->p, BUF_BYTES);

	if (rc != KSFT_PASS)
		return rc;
	s->p.gid = roce_v2_gid(s->p.c.ctx);
	if (s->p.gid < 0)
		return mt_skip("no RoCE v2 GID on port 1");
	for (i = 0; i < 2; i++) {
		s->p.cq[i] = ibv_create_cq(s->p.c.ctx, 32, NULL, NULL, 0);
		if (!CHECK(s->p.cq[i]))
			return KSFT_FAIL;
		s->p.qp[i] = type == IBV_QPT_UD ?
			     rts_ud_qp(s->p.pd, s->p.cq[i], QKEY, NULL) :
			     rc_qp(&s->p, s->p.cq[i], type);
		if (!CHECK(s->p.qp[i]))
			return KSFT_FAIL;
	}
	if (type != IBV_QPT_UD)
		return CHECK_ERR(rc_connect(&s->p, s->p.qp[0],
					    s->p.qp[1]->qp_num, ALL_ACCESS,
					    rnr_retry), 0) &&
		       CHECK_ERR(rc_connect(&s->p, s->p.qp[1],
					    s->p.qp[0]->qp_num, ALL_ACCESS,
					    rnr_retry),
				 0) ? KSFT_PASS : KSFT_FAIL;
	aa.grh.sgid_index = s->p.gid;
	if (!CHECK_ERR(ibv_query_gid(s->p.c.ctx, 1, s->p.gid, &aa.grh.dgid),
		       0))
		return KSFT_FAIL;
	s->ah = ibv_create_ah(s->p.pd, &aa);
	return CHECK(s->ah) ? KSFT_PASS : KSFT_FAIL;
}

static bool lb_rule(struct lb *s, int ft_type, uint32_t qpn, bool drop)
{
	return rdma_rule_open(s->p.c.ctx, &s->r, ft_type, qpn, drop);
}

static void lb_rule_close(struct lb *s)
{
	rdma_rule_close(&s->r);
}

static void lb_close(struct lb *s)
{
	lb_rule_close(s);
	if (s->ah)
		CHECK_ERR(ibv_destroy_ah(s->ah), 0);
	pair_teardown(&s->p);
}

struct lb_ud {
	struct lb s;
};

struct lb_rc {
	struct lb s;
};

struct lb_rc1 {
	struct lb s;
};

MT_FIXTURE(lb_ud);

MT_FIXTURE_SETUP(lb_ud)
{
	return lb_open(&self->s, IBV_QPT_UD, 0);
}

MT_FIXTURE_TEARDOWN(lb_ud)
{
	lb_close(&self->s);
}

MT_FIXTURE(lb_rc);

MT_FIXTURE_SETUP(lb_rc)
{
	return lb_open(&self->s, IBV_QPT_RC, 7);
}

MT_FIXTURE_TEARDOWN(lb_rc)
{
	lb_close(&self->s);
}

/* RC with rnr_retry 1: a SEND no receive WQE waits for fails at once. */
MT_FIXTURE(lb_rc1);

MT_FIXTURE_SETUP(lb_rc1)
{
	return lb_open(&self->s, IBV_QPT_RC, 1);
}

MT_FIXTURE_TEARDOWN(lb_rc1)
{
	lb_close(&self->s);
}

/* B's receive WQE @id of @len bytes. */
static bool post_recv_len(struct lb *s, uint64_t id, uint32_t len)
{
	return CHECK_ERR(post_recv(&s->p, id, RECV_OFF, len), 0);
}

/* B's receive WQE @id of LEN bytes behind @grh bytes of GRH. */
static bool post_recv_b(struct lb *s, uint64_t id, uint32_t grh)
{
	return post_recv_len(s, id, grh + LEN);
}

/* A posts @wr, signalled: its completion's status. */
static int post_a(struct lb *s, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_post_send(s->p.qp[0], wr, &bad), 0) ||
	    !CHECK(mt_poll_one(s->p.cq[0], &wc, WAIT_MS)))
		return -1;
	CHECK_EQ(wc.wr_id, wr->wr_id);
	return wc.status;
}

/*
 * A sends @len bytes to B, a datagram on UD (through @ah to QP @dqpn):
 * its completion's status.
 */
static int send_to(struct lb *s, uint64_t id, uint32_t len,
		   struct ibv_ah *ah, uint32_t dqpn)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->p.buf, .length = len,
		.lkey = s->p.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	};

	if (ah) {
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = dqpn;
		wr.wr.ud.remote_qkey = QKEY;
	}
	return post_a(s, &wr);
}

static int send_len(struct lb *s, uint64_t id, uint32_t len)
{
	return send_to(s, id, len, s->ah, s->p.qp[1]->qp_num);
}

static int send_a(struct lb *s, uint64_t id)
{
	return send_len(s, id, LEN);
}

/* B's next completion is receive @id of @len bytes. */
static bool received(struct lb *s, uint64_t id, uint32_t len)
{
	struct ibv_wc wc;

	return CHECK(mt_poll_one(s->p.cq[1], &wc, WAIT_MS)) &&
	       mt_wc_is(&wc, id, IBV_WC_SUCCESS, IBV_WC_RECV) &&
	       CHECK_EQ(wc.byte_len, len);
}

/* Nothing completes on B's CQ within a tenth of a second. */
static bool nothing_received(struct lb *s)
{
	struct ibv_wc wc;

	usleep(100 * 1000);
	return CHECK_EQ(ibv_poll_cq(s->p.cq[1], 1, &wc), 0);
}

/* QP @i of the pair (0: A, 1: B) is in the error state. */
static void in_error(struct lb *s, int i)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (CHECK_ERR(ibv_query_qp(s->p.qp[i], &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_ERR);
}

static void a_in_error(struct lb *s)
{
	in_error(s, 0);
}

/*
 * Under the rule just made, two datagrams of A through @ah to QP @dqpn
 * complete and B gets neither, the rule counting both; the rule gone,
 * the next arrives.
 */
static int ud_lost_then_received(struct lb *s, struct ibv_ah *ah,
				 uint32_t dqpn, uint64_t id)
{
	if (!post_recv_b(s, 1, GRH_BYTES))
		return KSFT_FAIL;
	CHECK_EQ(send_to(s, id, LEN, ah, dqpn), IBV_WC_SUCCESS);
	CHECK_EQ(send_to(s, id + 1, LEN, ah, dqpn), IBV_WC_SUCCESS);
	nothing_received(s);
	CHECK_EQ(rdma_rule_counted(&s->r), 2);
	lb_rule_close(s);
	CHECK_EQ(send_to(s, id + 2, LEN, ah, dqpn), IBV_WC_SUCCESS);
	received(s, 1, GRH_BYTES + LEN);
	return KSFT_PASS;
}

/*
 * RDMA RX drop on B: A's datagrams to B complete and never arrive, each
 * counted.  The rule gone, B receives.
 */
MT_TEST_F(lb_ud, ud_rx_drop)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_RX, s->p.qp[1]->qp_num, true))
		return KSFT_FAIL;
	return ud_lost_then_received(s, s->ah, s->p.qp[1]->qp_num, 10);
}

/* An RDMA TX counter on B's QP number counts A's datagrams to B. */
MT_TEST_F(lb_ud, ud_tx_count)
{
	struct lb *s = &self->s;
	unsigned int i;

	if (!lb_rule(s, RDMA_TX, s->p.qp[1]->qp_num, false))
		return KSFT_FAIL;
	for (i = 0; i < 3; i++) {
		if (!post_recv_b(s, i, GRH_BYTES))
			return KSFT_FAIL;
		CHECK_EQ(send_a(s, 20 + i), IBV_WC_SUCCESS);
		received(s, i, GRH_BYTES + LEN);
	}
	CHECK_EQ(rdma_rule_counted(&s->r), 3);
	return KSFT_PASS;
}

/*
 * RDMA RX drop on B: A's RC SEND to B is lost at every try; with the
 * pair's retry_cnt of 7 the rule counts 8 packets, the send ends in a
 * retry-exceeded error and A goes to ERR; B received nothing.
 */
MT_TEST_F(lb_rc, rc_rx_drop_retry_exceeded)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_RX, s->p.qp[1]->qp_num, true) ||
	    !post_recv_b(s, 1, 0))
		return KSFT_FAIL;
	CHECK_EQ(send_a(s, 30), IBV_WC_RETRY_EXC_ERR);
	CHECK_EQ(rdma_rule_counted(&s->r), 8);
	a_in_error(s);
	nothing_received(s);
	return KSFT_PASS;
}

/*
 * An RDMA RX rule on B that counts and forwards to a table of the domain
 * with no entry: the packet misses there and goes on to the transport;
 * A's RC SEND arrives, counted once.
 */
MT_TEST_F(lb_rc, rc_rx_count)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_RX, s->p.qp[1]->qp_num, true))
		return KSFT_FAIL;
	CHECK_ERR(mlx5dv_devx_obj_destroy(s->r.t.fte), 0);
	s->r.t.fte = NULL;
	if (!post_recv_b(s, 1, 0))
		return KSFT_FAIL;
	CHECK_EQ(send_a(s, 40), IBV_WC_SUCCESS);
	received(s, 1, LEN);
	CHECK_EQ(rdma_rule_counted(&s->r), 1);
	return KSFT_PASS;
}

/*
 * An RDMA RX rule of priority 1 on the BTH's opcode @op alone that
 * forwards to a DEVX table of the domain whose entry drops.
 */
static bool lb_op_rule(struct lb *s, uint8_t op)
{
	struct mlx5dv_flow_match_parameters *mask, *val;
	struct mlx5dv_flow_action_attr a[1] = {
		{ .type = MLX5DV_FLOW_ACTION_DEST_DEVX },
	};

	mask = calloc(1, sizeof(*mask) + PRM_FTE_MATCH_PARAM_BYTES);
	val = calloc(1, sizeof(*val) + PRM_FTE_MATCH_PARAM_BYTES);
	if (!CHECK(mask) || !CHECK(val))
		goto fail;
	mask->match_sz = PRM_FTE_MATCH_PARAM_BYTES;
	val->match_sz = PRM_FTE_MATCH_PARAM_BYTES;
	mt_set(mask->match_buf, PRM_FTE_MATCH_PARAM_MISC_PARAMETERS_BTH_OPCODE,
	       0xff);
	mt_set(val->match_buf, PRM_FTE_MATCH_PARAM_MISC_PARAMETERS_BTH_OPCODE,
	       op);
	s->r.m = matcher(s->p.c.ctx, RDMA_RX, 1, CRIT_MISC, mask);
	free(mask);
	mask = NULL;
	if (!CHECK(s->r.m) ||
	    !rdma_ft_open(s->p.c.ctx, &s->r.t, PRM_FT_RDMA_RX, 20, 0))
		goto fail;
	a[0].obj = s->r.t.ft;
	s->r.flow = mt_dv_flow(s->r.m, val, a, 1);
	return CHECK(s->r.flow);
fail:
	free(mask);
	free(val);
	return false;
}

/*
 * A SEND of 3000 bytes at the pair's path MTU of 1024 is three packets
 * (SEND FIRST, MIDDLE, LAST): an RDMA TX counter on B counts three.  A
 * rule on the BTH's opcode that drops RC SEND MIDDLE (1) leaves a
 * one-packet SEND alone and loses the three-packet one at every try.
 */
MT_TEST_F(lb_rc, rc_packets)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_TX, s->p.qp[1]->qp_num, false) ||
	    !post_recv_len(s, 1, 4096))
		return KSFT_FAIL;
	CHECK_EQ(send_len(s, 50, 3000), IBV_WC_SUCCESS);
	received(s, 1, 3000);
	CHECK_EQ(rdma_rule_counted(&s->r), 3);
	lb_rule_close(s);

	if (!lb_op_rule(s, 0x01) || !post_recv_len(s, 2, 4096))
		return KSFT_FAIL;
	CHECK_EQ(send_len(s, 51, 1000), IBV_WC_SUCCESS);
	received(s, 2, 1000);
	if (!post_recv_len(s, 3, 4096))
		return KSFT_FAIL;
	CHECK_EQ(send_len(s, 52, 3000), IBV_WC_RETRY_EXC_ERR);
	nothing_received(s);
	return KSFT_PASS;
}

/* A's RDMA READ of @len bytes of B's half of the buffer: its status. */
static int read_len(struct lb *s, uint32_t len)
{
	return rc_rdma(&s->p, IBV_WR_RDMA_READ, s->p.mr->rkey,
		       (uintptr_t)s->p.buf + RECV_OFF, s->p.mr->lkey,
		       (uintptr_t)s->p.buf, len);
}

/* A's fetch and add of 1 to 8 bytes of B's half: its status. */
static int fetch_add(struct lb *s)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->p.buf, .length = 8,
		.lkey = s->p.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 7, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.atomic = {
			.remote_addr = (uintptr_t)s->p.buf + RECV_OFF,
			.compare_add = 1, .rkey = s->p.mr->rkey,
		},
	};

	return post_a(s, &wr);
}

/*
 * What B sends A back is packets too, walking B's RDMA TX: an RDMA TX
 * counter on A's QP number counts a READ of 3000 bytes at path MTU 1024
 * as three READ responses (FIRST, MIDDLE, LAST), a SEND's ACK as one,
 * and an atomic's ACK as one.
 */
MT_TEST_F(lb_rc, rc_responses_counted)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_TX, s->p.qp[0]->qp_num, false))
		return KSFT_FAIL;
	fill(s->p.buf + RECV_OFF, 3000, 3);
	CHECK_EQ(read_len(s, 3000), IBV_WC_SUCCESS);
	CHECK(!memcmp(s->p.buf, s->p.buf + RECV_OFF, 3000));
	CHECK_EQ(rdma_rule_counted(&s->r), 3);
	if (!post_recv_b(s, 1, 0))
		return KSFT_FAIL;
	CHECK_EQ(send_a(s, 70), IBV_WC_SUCCESS);
	received(s, 1, LEN);
	CHECK_EQ(rdma_rule_counted(&s->r), 4);
	CHECK_EQ(fetch_add(s), IBV_WC_SUCCESS);
	CHECK_EQ(rdma_rule_counted(&s->r), 5);
	return KSFT_PASS;
}

/*
 * A rule on RDMA READ ONLY (0x10) in A's RDMA RX loses each response
 * to A's one-packet READ: its ACK timer runs out retry_cnt times, then
 * the READ ends in a retry-exceeded error and A goes to ERR.
 */
MT_TEST_F(lb_rc, rc_read_resp_drop)
{
	struct lb *s = &self->s;

	if (!lb_op_rule(s, 0x10))
		return KSFT_FAIL;
	CHECK_EQ(read_len(s, LEN), IBV_WC_RETRY_EXC_ERR);
	a_in_error(s);
	return KSFT_PASS;
}

/*
 * An RDMA RX drop on A loses B's ACKs: B takes A's SEND once (a retry
 * is a duplicate it ACKs again, executing nothing), A's ACK timer runs
 * out retry_cnt times and its SEND ends in a retry-exceeded error; the
 * rule counts the ACK and the 7 ACKs again, and the port's
 * duplicate_request counter the 7 duplicates B received.
 */
MT_TEST_F(lb_rc, rc_ack_drop)
{
	struct lb *s = &self->s;
	long long dups = hw_counter(s->p.c.ctx, "duplicate_request");

	if (!lb_rule(s, RDMA_RX, s->p.qp[0]->qp_num, true) ||
	    !post_recv_b(s, 1, 0) || !post_recv_b(s, 2, 0))
		return KSFT_FAIL;
	CHECK_EQ(send_a(s, 80), IBV_WC_RETRY_EXC_ERR);
	CHECK_EQ(rdma_rule_counted(&s->r), 8);
	CHECK(dups >= 0);
	CHECK_EQ(hw_counter(s->p.c.ctx, "duplicate_request") - dups, 7);
	a_in_error(s);
	received(s, 1, LEN);
	nothing_received(s);
	return KSFT_PASS;
}

/* A's RDMA WRITE of LEN bytes across the end of B's MR: its status. */
static int write_past_end(struct lb *s)
{
	return rc_rdma(&s->p, IBV_WR_RDMA_WRITE, s->p.mr->rkey,
		       (uintptr_t)s->p.buf + BUF_BYTES - 8, s->p.mr->lkey,
		       (uintptr_t)s->p.buf, LEN);
}

/*
 * B NAKs what it may not do with a packet that walks B's RDMA TX and
 * A's RDMA RX as an ACK does: an RDMA TX counter on A's QP number counts
 * the remote access NAK of A's WRITE across the end of B's MR, which
 * ends in IBV_WC_REM_ACCESS_ERR; both QPs go to ERR.
 */
MT_TEST_F(lb_rc, rc_nak_counted)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_TX, s->p.qp[0]->qp_num, false))
		return KSFT_FAIL;
	CHECK_EQ(write_past_end(s), IBV_WC_REM_ACCESS_ERR);
	CHECK_EQ(rdma_rule_counted(&s->r), 1);
	a_in_error(s);
	in_error(s, 1);
	return KSFT_PASS;
}

/*
 * The NAK lost in A's RDMA RX: A hears nothing of B's error.  B, in ERR
 * since it NAKed, answers none of A's retries; A's ACK timer runs out
 * retry_cnt times and the WRITE ends in IBV_WC_RETRY_EXC_ERR, not in a
 * remote access error; the rule counts the one NAK.
 */
MT_TEST_F(lb_rc, rc_nak_drop)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_RX, s->p.qp[0]->qp_num, true))
		return KSFT_FAIL;
	CHECK_EQ(write_past_end(s), IBV_WC_RETRY_EXC_ERR);
	CHECK_EQ(rdma_rule_counted(&s->r), 1);
	a_in_error(s);
	in_error(s, 1);
	return KSFT_PASS;
}

/*
 * An RNR NAK is a packet too: A's SEND with no receive WQE posted at B
 * meets one, waits B's timer, meets a second and, rnr_retry (1) spent,
 * ends in IBV_WC_RNR_RETRY_EXC_ERR; an RDMA TX counter on A's QP number
 * counts the two.
 */
MT_TEST_F(lb_rc1, rc_rnr_nak_counted)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_TX, s->p.qp[0]->qp_num, false))
		return KSFT_FAIL;
	CHECK_EQ(send_a(s, 90), IBV_WC_RNR_RETRY_EXC_ERR);
	CHECK_EQ(rdma_rule_counted(&s->r), 2);
	a_in_error(s);
	return KSFT_PASS;
}

/*
 * The RNR NAKs lost in A's RDMA RX: A hears nothing, so no RNR retry is
 * spent; its ACK timer runs out retry_cnt (7) times, each retry NAKed
 * again and lost, and the SEND ends in IBV_WC_RETRY_EXC_ERR; the rule
 * counts the 8 RNR NAKs.  B received nothing.
 */
MT_TEST_F(lb_rc1, rc_rnr_nak_drop)
{
	struct lb *s = &self->s;

	if (!lb_rule(s, RDMA_RX, s->p.qp[0]->qp_num, true))
		return KSFT_FAIL;
	CHECK_EQ(send_a(s, 91), IBV_WC_RETRY_EXC_ERR);
	CHECK_EQ(rdma_rule_counted(&s->r), 8);
	a_in_error(s);
	nothing_received(s);
	return KSFT_PASS;
}

/* ff0e::1:2:3, a global-scope IPv6 multicast group */
static const union ibv_gid lb_mgid = {
	.raw = { 0xff, 0x0e, [11] = 1, [13] = 2, [15] = 3 },
};

#define MC_QPN		0xffffffU

/*
 * B a member of a group, an RDMA TX rule on the multicast QP number that
 * counts and drops: RDMA TX sees a datagram before the port loops it to
 * its own members or puts it on the wire, so B gets nothing and the
 * rule counts each; the rule gone, B receives.
 */
MT_TEST_F(lb_ud, ud_mcast_tx_drop)
{
	struct ibv_ah_attr aa = {
		.is_global = 1, .port_num = 1, .grh.hop_limit = 1,
		.grh.dgid = lb_mgid, .grh.sgid_index = self->s.p.gid,
	};
	struct lb *s = &self->s;
	struct ibv_ah *ah;

	if (!CHECK_ERR(ibv_attach_mcast(s->p.qp[1], &lb_mgid, 0), 0))
		return KSFT_FAIL;
	ah = ibv_create_ah(s->p.pd, &aa);
	if (CHECK(ah) && lb_rule(s, RDMA_TX, MC_QPN, true))
		ud_lost_then_received(s, ah, MC_QPN, 60);
	if (ah)
		CHECK_ERR(ibv_destroy_ah(ah), 0);
	CHECK_ERR(ibv_detach_mcast(s->p.qp[1], &lb_mgid, 0), 0);
	return KSFT_PASS;
}

#define LB_CASE(fx, nm)	MT_CASE_F(fx, nm, \
				  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT)

static const struct mt_case cases[] = {
	LB_CASE(lb_ud, ud_rx_drop),
	LB_CASE(lb_ud, ud_tx_count),
	LB_CASE(lb_ud, ud_mcast_tx_drop),
	LB_CASE(lb_rc, rc_rx_drop_retry_exceeded),
	LB_CASE(lb_rc, rc_rx_count),
	LB_CASE(lb_rc, rc_packets),
	LB_CASE(lb_rc, rc_responses_counted),
	LB_CASE(lb_rc, rc_read_resp_drop),
	LB_CASE(lb_rc, rc_ack_drop),
	LB_CASE(lb_rc, rc_nak_counted),
	LB_CASE(lb_rc, rc_nak_drop),
	LB_CASE(lb_rc1, rc_rnr_nak_counted),
	LB_CASE(lb_rc1, rc_rnr_nak_drop),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
