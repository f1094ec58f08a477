// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: RC and UC across the wire (rcw_*.c), two models back to back
 * (sk_rcw.c): what a responder refuses or cannot take yet (RNR NAK, a
 * bad R_Key), a READ response lost, UC losing a message and only it, and
 * RC packets too short for their extended headers, which are counted
 * and dropped without a byte past their end read.
 */
#include "sk_rcw.h"

#define RE_MS	10000

/* No receive WQE, rnr_retry 0: one RNR NAK, and the SEND fails. */
static void re_rnr_exceeded(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);

	w->rnr_retry = 0;
	sk_rcw_connect(test);
	sk_rcw_send(test, A, 0, 64);
	sk_rcw_pump(test, RE_MS, 1, 0);
	sk_rcw_expect(test, A, SIM_CQE_REQ_ERR, SIM_CQE_SYND_RNR_RETRY);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].op, SIM_RCW_ACK);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].synd & SIM_RCW_AETH_KIND,
			SIM_RCW_AETH_RNR);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].psn, SK_W_PSN);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_ERR);
	/* an RNR NAK takes the responder nowhere */
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

/* rnr_retry 7: RNR NAKs until a receive WQE is posted, then delivered. */
static void re_rnr_then_posted(struct kunit *test)
{
	u32 len = 2 * SK_W_PMTU + 3;

	sk_rcw_connect(test);
	sk_rcw_fill(test, A, 0, len, 0x31);
	sk_rcw_send(test, A, 0, len);
	sk_rcw_pump(test, 200, 0, 0);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_GE(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	sk_rcw_recv(test, B, 0x1000, 0x1000);
	sk_rcw_pump(test, RE_MS, 1, 1);
	sk_rcw_delivered(test, len);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

/* A WRITE with an R_Key B has not: NAK remote access, both QPs in ERR. */
static void re_bad_rkey(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);

	sk_rcw_connect(test);
	sk_rcw_fill(test, A, 0, 32, 7);
	memset(sk_rcw_data(test, B, 0), 0, 64);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_WRITE, 0, 32, 0,
		    w->s[B].key + 0x100, 0, 0);
	sk_rcw_send(test, A, 64, 8);
	sk_rcw_pump(test, RE_MS, 2, 0);
	sk_rcw_expect(test, A, SIM_CQE_REQ_ERR, SIM_CQE_SYND_REMOTE_ACCESS);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ_ERR,
				     SIM_CQE_SYND_WR_FLUSH).wqe, 1);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].synd,
			SIM_RCW_AETH_NAK | SIM_RCW_NAK_ACCESS);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	KUNIT_EXPECT_FALSE(test, memchr_inv(sk_rcw_data(test, B, 0), 0, 64));
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_ERR);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_ERR);
}

/* The responder in ERR flushes the receive WQEs posted to it, in order. */
static void re_err_flush(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	unsigned int i;

	sk_rcw_connect(test);
	sk_rcw_recv(test, B, 0x1000, 64);
	sk_rcw_recv(test, B, 0x1100, 64);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_WRITE, 0, 16, 0x1000,
		    w->s[B].key ^ 0xff, 0, 0);
	sk_rcw_pump(test, RE_MS, 1, 2);
	sk_rcw_expect(test, A, SIM_CQE_REQ_ERR, SIM_CQE_SYND_REMOTE_ACCESS);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, B, SIM_CQE_RESP_ERR,
						    SIM_CQE_SYND_WR_FLUSH).wqe,
				i);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_ERR);
}

/*
 * A WRITE with immediate whose last packet finds no receive WQE: RNR
 * NAKed at that packet, the bytes before it kept; once a receive WQE is
 * posted the message goes on from there.
 */
static void re_write_imm_rnr(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u32 len = 2 * SK_W_PMTU;
	struct sk_rcw_cqe c;

	sk_rcw_connect(test);
	sk_rcw_fill(test, A, 0, len, 0x66);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_WRITE_IMM, 0, len, 0x1000,
		    w->s[B].key, 0, 0);
	sk_rcw_pump(test, 200, 0, 0);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_GE(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].synd & SIM_RCW_AETH_KIND,
			SIM_RCW_AETH_RNR);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].psn, w->psn + 1);
	sk_rcw_recv(test, B, 0x3000, 64);
	sk_rcw_pump(test, RE_MS, 1, 1);
	sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	c = sk_rcw_expect(test, B, SIM_CQE_RESP_WR_IMM, 0);
	KUNIT_EXPECT_EQ(test, c.bytes, len);
	sk_rcw_same(test, 0, 0x1000, len);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), w->psn + 2);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

/* A READ of 3 MTUs and a byte, its second response lost: read again. */
static void re_read_lost(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u32 len = 3 * SK_W_PMTU + 1;
	struct sk_rcw_cqe c;

	sk_rcw_connect(test);
	sk_rcw_fate(test, B, 1, SK_W_DROP);
	sk_rcw_fill(test, B, 0x1000, len, 0x77);
	memset(sk_rcw_data(test, A, 0x2000), 0, len);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_READ, 0x2000, len, 0x1000,
		    w->s[B].key, 0, 0);
	sk_rcw_pump(test, RE_MS, 1, 0);
	c = sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, c.bytes, len);
	sk_rcw_same(test, 0x2000, 0x1000, len);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].op, SIM_RCW_READ_FIRST);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[1].op, SIM_RCW_READ_MIDDLE);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[3].op, SIM_RCW_READ_LAST);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[3].psn, SK_W_PSN + 3);
	KUNIT_EXPECT_GE(test, sk_rcw_wire(test, A)->rcw_resends, 1);
	KUNIT_EXPECT_GE(test, w->s[A].sent, 2);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[1].op, SIM_RCW_READ_REQ);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), SK_W_PSN + 4);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
}

/* UC: a middle packet lost loses that message; the next one arrives. */
static void re_uc_lost(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u32 len = 3 * SK_W_PMTU + 5;
	struct sk_rcw_cqe c;
	u32 at;

	w->st = MLX5_QPC_ST_UC;
	sk_rcw_connect(test);
	sk_rcw_fate(test, A, 1, SK_W_DROP);
	sk_rcw_fill(test, A, 0, len, 1);
	sk_rcw_fill(test, A, 0x1000, 100, 2);
	sk_rcw_recv(test, B, 0x1000, 0x1000);
	sk_rcw_recv(test, B, 0x2000, 0x1000);
	sk_rcw_send(test, A, 0, len);
	sk_rcw_send(test, A, 0x1000, 100);
	sk_rcw_pump(test, RE_MS, 2, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ, 0).wqe, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ, 0).wqe, 1);
	c = sk_rcw_expect(test, B, SIM_CQE_RESP_SEND, 0);
	KUNIT_EXPECT_EQ(test, c.bytes, 100);
	at = c.wqe ? 0x2000 : 0x1000;
	sk_rcw_same(test, 0x1000, at, 100);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	/* no answers on UC: nothing went back, nothing was sent again */
	KUNIT_EXPECT_EQ(test, w->s[B].sent, 0);
	KUNIT_EXPECT_EQ(test, w->s[A].sent, 5);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[4].op,
			SIM_RCW_UC | SIM_RCW_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), SK_W_PSN + 5);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

/*
 * RC packets cut inside their RETH, AETH or AtomicETH (each from a
 * buffer of exactly its length): malformed, dropped, nothing answered;
 * then a good SEND at the same PSN is taken.
 */
static void re_malformed(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	static const struct {
		int from;
		u8 opcode;
		u32 ext;
	} cut[] = {
		{ A, SIM_RCW_WRITE_ONLY, SIM_RCW_RETH - 1 },
		{ A, SIM_RCW_WRITE_FIRST, 8 },
		{ A, SIM_RCW_READ_REQ, SIM_RCW_RETH - 4 },
		{ A, SIM_RCW_CMP_SWAP, SIM_RCW_ATOMICETH - 1 },
		{ A, SIM_RCW_FETCH_ADD, 12 },
		{ B, SIM_RCW_ACK, SIM_RCW_AETH - 1 },
		{ B, SIM_RCW_READ_ONLY, 2 },
		{ B, SIM_RCW_ATOMIC_ACK, SIM_RCW_AETH + 4 },
		{ A, SIM_RCW_SEND_ONLY_IMM, 3 },
	};
	u8 *f = kunit_kzalloc(test, SK_W_PMTU + 128, GFP_KERNEL);
	u8 ext[SIM_RCW_ATOMICETH] = {};
	unsigned int k, to_a = 0, to_b = 0;
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, f);
	sk_rcw_connect(test);
	sim_rcw_put32(ext + 8, w->s[B].key);
	for (k = 0; k < ARRAY_SIZE(cut); k++) {
		len = sk_rcw_build(test, cut[k].from, cut[k].opcode, SK_W_PSN,
				   ext, cut[k].ext, 0, f);
		sk_rcw_inject(test, !cut[k].from, f, len);
		if (cut[k].from == A)
			to_b++;
		else
			to_a++;
	}
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->roce_malformed, to_b);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->roce_malformed, to_a);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->roce_rx_rc, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->roce_rx_rc, 0);
	sk_rcw_pump(test, 200, 0, 0);
	KUNIT_EXPECT_EQ(test, w->s[A].sent, 0);
	KUNIT_EXPECT_EQ(test, w->s[B].sent, 0);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);

	sk_rcw_fill(test, A, 0, 40, 9);
	sk_rcw_recv(test, B, 0x1000, 64);
	sk_rcw_send(test, A, 0, 40);
	sk_rcw_pump(test, RE_MS, 1, 1);
	sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, B, SIM_CQE_RESP_SEND, 0).bytes, 40);
	sk_rcw_same(test, 0, 0x1000, 40);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, B), MLX5_QPC_STATE_RTS);
}

static struct kunit_case re_cases[] = {
	KUNIT_CASE(re_rnr_exceeded),
	KUNIT_CASE(re_rnr_then_posted),
	KUNIT_CASE(re_bad_rkey),
	KUNIT_CASE(re_err_flush),
	KUNIT_CASE(re_write_imm_rnr),
	KUNIT_CASE(re_read_lost),
	KUNIT_CASE(re_uc_lost),
	KUNIT_CASE(re_malformed),
	{}
};

static struct kunit_suite re_suite = {
	.name = "mlx5x_sim_rcw_err",
	.init = sk_rcw_init,
	.exit = sk_rcw_exit,
	.test_cases = re_cases,
};

kunit_test_suite(re_suite);
