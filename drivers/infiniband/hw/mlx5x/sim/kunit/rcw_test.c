// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: RC across a wire that loses, repeats and reorders (rcw_*.c),
 * between two models back to back (sk_rcw.c).  A message is cut by the
 * path MTU into packets of consecutive PSNs, the last asking for the
 * ACK; a packet lost is NAKed once (PSN sequence error) and sent again;
 * a duplicate request is answered again and never executed twice; an
 * ACK lost is recovered by the ACK timer, and a requester that hears
 * nothing fails with a transport retry error once retry_count is spent.
 */
#include "sk_rcw.h"

/* How long a case waits for what it expects (the worker polls). */
#define RT_MS	10000

static void rt_send(struct kunit *test)
{
	static const u32 lens[] = { 1, SK_W_PMTU, 3 * SK_W_PMTU + 5 };
	struct sk_rcw *w = sk_rcw(test);
	const struct sk_rcw_seen *seen = w->s[A].seen;
	u32 psn = SK_W_PSN, k, i, n, pkts = 0;
	struct sk_rcw_cqe c;

	sk_rcw_connect(test);
	for (k = 0; k < ARRAY_SIZE(lens); k++) {
		sk_rcw_fill(test, A, 0, lens[k], k + 1);
		memset(sk_rcw_data(test, B, 0x1000), 0, 0x1000);
		sk_rcw_recv(test, B, 0x1000, 0x1000);
		sk_rcw_send(test, A, 0, lens[k]);
		sk_rcw_pump(test, RT_MS, 1, 1);
		c = sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
		KUNIT_EXPECT_EQ(test, c.wqe, k);
		c = sk_rcw_expect(test, B, SIM_CQE_RESP_SEND, 0);
		KUNIT_EXPECT_EQ(test, c.bytes, lens[k]);
		sk_rcw_same(test, 0, 0x1000, lens[k]);
		n = DIV_ROUND_UP(lens[k], SK_W_PMTU);
		for (i = 0; i < n; i++, pkts++, psn++) {
			u8 op = n == 1 ? SIM_RCW_SEND_ONLY :
				!i ? SIM_RCW_SEND_FIRST :
				i == n - 1 ? SIM_RCW_SEND_LAST :
				SIM_RCW_SEND_MIDDLE;

			KUNIT_EXPECT_EQ_MSG(test, seen[pkts].op, op,
					    "len %u pkt %u", lens[k], i);
			KUNIT_EXPECT_EQ(test, seen[pkts].psn, psn);
			KUNIT_EXPECT_EQ(test, seen[pkts].ackreq, i == n - 1);
		}
		/* one ACK, of the last PSN */
		KUNIT_EXPECT_EQ(test, w->s[B].sent, k + 1);
		KUNIT_EXPECT_EQ(test, w->s[B].seen[k].op, SIM_RCW_ACK);
		KUNIT_EXPECT_EQ(test, w->s[B].seen[k].psn, psn - 1);
		KUNIT_EXPECT_EQ(test, w->s[B].seen[k].synd & SIM_RCW_AETH_KIND,
				SIM_RCW_AETH_ACK);
	}
	KUNIT_EXPECT_EQ(test, w->s[A].sent, pkts);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), psn);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_naks, 0);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
}

/* The second packet of three lost: NAKed once, sent again from there. */
static void rt_drop_middle(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u32 len = 3 * SK_W_PMTU + 5;

	sk_rcw_connect(test);
	sk_rcw_fate(test, A, 1, SK_W_DROP);
	sk_rcw_fill(test, A, 0, len, 3);
	sk_rcw_recv(test, B, 0x1000, 0x2000);
	sk_rcw_send(test, A, 0, len);
	sk_rcw_pump(test, RT_MS, 1, 1);
	sk_rcw_delivered(test, len);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	/* B's first word: a PSN sequence error NAK of the lost PSN */
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].op, SIM_RCW_ACK);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].synd,
			SIM_RCW_AETH_NAK | SIM_RCW_NAK_SEQ);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].psn, SK_W_PSN + 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_timeouts, 0);
	/*
	 * 4 packets, then the message again from the NAK's PSN (rcw_ack.c,
	 * IBTA 9.7.5.2.2): its MIDDLE packets and its LAST
	 */
	KUNIT_EXPECT_EQ(test, w->s[A].sent, 7);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[4].psn, SK_W_PSN + 1);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[4].op, SIM_RCW_SEND_MIDDLE);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[6].psn, SK_W_PSN + 3);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[6].op, SIM_RCW_SEND_LAST);
	KUNIT_EXPECT_TRUE(test, w->s[A].seen[6].ackreq);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), SK_W_PSN + 4);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

/* Two packets swapped on the way: the same as one lost, then recovered. */
static void rt_reorder(struct kunit *test)
{
	u32 len = 2 * SK_W_PMTU;

	sk_rcw_connect(test);
	sk_rcw_fate(test, A, 0, SK_W_HOLD);
	sk_rcw_fill(test, A, 0, len, 9);
	sk_rcw_recv(test, B, 0x1000, 0x2000);
	sk_rcw_send(test, A, 0, len);
	sk_rcw_pump(test, RT_MS, 1, 1);
	sk_rcw_delivered(test, len);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends, 1);
}

/* A SEND, a READ, an atomic, each delivered twice: executed once. */
static void rt_duplicates(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	struct sim_wire *wb = sk_rcw_wire(test, B);
	u64 *remote = (u64 *)sk_rcw_data(test, B, 0x3000);
	u64 *orig = (u64 *)sk_rcw_data(test, A, 0x3008);

	sk_rcw_connect(test);
	sk_rcw_fate(test, A, 0, SK_W_DUP);
	sk_rcw_fate(test, A, 1, SK_W_DUP);
	sk_rcw_fate(test, A, 2, SK_W_DUP);

	sk_rcw_fill(test, A, 0, 8, 1);
	sk_rcw_recv(test, B, 0x1000, 64);
	sk_rcw_recv(test, B, 0x1100, 64);
	sk_rcw_send(test, A, 0, 8);
	sk_rcw_pump(test, RT_MS, 1, 1);
	sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, B, SIM_CQE_RESP_SEND, 0).bytes, 8);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, wb->rcw_dups, 1);
	KUNIT_EXPECT_EQ(test, w->s[B].sent, 2);	/* ACKed again */

	sk_rcw_fill(test, B, 0x2000, 256, 5);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_READ, 0x2000, 256, 0x2000,
		    w->s[B].key, 0, 0);
	sk_rcw_pump(test, RT_MS, 1, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ, 0).wqe, 1);
	sk_rcw_same(test, 0x2000, 0x2000, 256);
	KUNIT_EXPECT_EQ(test, wb->rcw_dups, 2);
	KUNIT_EXPECT_EQ(test, w->s[B].sent, 4);	/* answered twice */
	KUNIT_EXPECT_EQ(test, w->s[B].seen[2].op, SIM_RCW_READ_ONLY);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[3].op, SIM_RCW_READ_ONLY);

	*remote = 5;
	*orig = 0;
	sk_rcw_post(test, A, SIM_OPCODE_ATOMIC_FA, 0x3008, 8, 0x3000,
		    w->s[B].key, 3, 0);
	sk_rcw_pump(test, RT_MS, 1, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ, 0).wqe, 2);
	KUNIT_EXPECT_EQ(test, *remote, 8);
	KUNIT_EXPECT_EQ(test, *orig, 5);
	KUNIT_EXPECT_EQ(test, wb->rcw_dups, 3);
	KUNIT_EXPECT_EQ(test, w->s[B].sent, 6);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[5].op, SIM_RCW_ATOMIC_ACK);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, wb->rcw_naks, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

/* The ACK lost: A's timer runs out, A sends again, B ACKs the duplicate. */
static void rt_ack_lost(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);

	w->ack_timeout = 10;	/* 4 ms */
	sk_rcw_connect(test);
	sk_rcw_fate(test, B, 0, SK_W_DROP);
	sk_rcw_fill(test, A, 0, 16, 2);
	sk_rcw_recv(test, B, 0x1000, 64);
	sk_rcw_recv(test, B, 0x1100, 64);
	sk_rcw_send(test, A, 0, 16);
	sk_rcw_pump(test, RT_MS, 1, 1);
	sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, B, SIM_CQE_RESP_SEND, 0).bytes, 16);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_GE(test, sk_rcw_wire(test, A)->rcw_timeouts, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends,
			sk_rcw_wire(test, A)->rcw_timeouts);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_dups,
			sk_rcw_wire(test, A)->rcw_timeouts);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[1].psn, SK_W_PSN);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
}

/*
 * Nothing reaches B: after retry_count retries the first WQE fails with a
 * transport retry error, the QP goes to ERR, and the rest are flushed in
 * order.
 */
static void rt_retry_exceeded(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	struct sk_rcw_cqe c;
	unsigned int i;

	w->ack_timeout = 8;	/* 1 ms */
	w->retry_count = 2;
	sk_rcw_connect(test);
	w->s[A].drop_all = true;
	for (i = 0; i < 3; i++) {
		sk_rcw_recv(test, B, 0x1000 + i * 64, 64);
		sk_rcw_send(test, A, i * 64, 32);
	}
	sk_rcw_pump(test, RT_MS, 3, 0);
	c = sk_rcw_expect(test, A, SIM_CQE_REQ_ERR, SIM_CQE_SYND_TRANSPORT_RETRY);
	KUNIT_EXPECT_EQ(test, c.wqe, 0);
	for (i = 1; i < 3; i++) {
		c = sk_rcw_expect(test, A, SIM_CQE_REQ_ERR, SIM_CQE_SYND_WR_FLUSH);
		KUNIT_EXPECT_EQ(test, c.wqe, i);
	}
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_timeouts,
			w->retry_count + 1);
	/* the WQEs after the failed one are flushed, not sent again */
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends,
			w->retry_count);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_ERR);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

/* A packet spoilt on the way: its ICRC is wrong, dropped, sent again. */
static void rt_bad_icrc(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);

	w->ack_timeout = 10;
	sk_rcw_connect(test);
	sk_rcw_fate(test, A, 0, SK_W_SPOIL);
	sk_rcw_fill(test, A, 0, 100, 4);
	sk_rcw_recv(test, B, 0x1000, 128);
	sk_rcw_send(test, A, 0, 100);
	sk_rcw_pump(test, RT_MS, 1, 1);
	sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, B, SIM_CQE_RESP_SEND, 0).bytes,
			100);
	sk_rcw_same(test, 0, 0x1000, 100);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->roce_bad_icrc, 1);
	KUNIT_EXPECT_GE(test, sk_rcw_wire(test, A)->rcw_timeouts, 1);
	sk_rcw_none(test, B);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE(rt_send),
	KUNIT_CASE(rt_drop_middle),
	KUNIT_CASE(rt_reorder),
	KUNIT_CASE(rt_duplicates),
	KUNIT_CASE(rt_ack_lost),
	KUNIT_CASE(rt_retry_exceeded),
	KUNIT_CASE(rt_bad_icrc),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "mlx5x_sim_rcw",
	.init = sk_rcw_init,
	.exit = sk_rcw_exit,
	.test_cases = rt_cases,
};

kunit_test_suite(rt_suite);
