// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: how RC across the wire (rcw_*.c) recovers, two models back to
 * back (sk_rcw.c): an RDMA WRITE goes on from the packet its NAK names,
 * its RETH's range kept by the responder; a lost atomic ACK brings the
 * atomic again, answered with the value saved, never executed twice; a
 * lost READ request is sent again on the ACK timer; one ACK stands for
 * every WQE before it, and a repeated one is dropped; PSNs wrap at 2^24.
 */
#include "sk_rcw.h"

#define RR_MS	10000

/* A WRITE of 3 MTUs and 5 bytes, its third packet lost; then with imm. */
static void rr_write_resume(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u32 len = 3 * SK_W_PMTU + 5;
	struct sk_rcw_cqe c;

	sk_rcw_connect(test);
	sk_rcw_count(test, A);
	sk_rcw_count(test, B);
	sk_rcw_fate(test, A, 2, SK_W_DROP);
	sk_rcw_fill(test, A, 0, len, 0x10);
	memset(sk_rcw_data(test, B, 0x1000), 0, len + 16);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_WRITE, 0, len, 0x1000,
		    w->s[B].key, 0, 0);
	sk_rcw_pump(test, RR_MS, 1, 0);
	sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	sk_rcw_none(test, B);
	sk_rcw_same(test, 0, 0x1000, len);
	KUNIT_EXPECT_FALSE(test, memchr_inv(sk_rcw_data(test, B, 0x1000 + len),
					    0, 16));
	KUNIT_EXPECT_EQ(test, w->s[A].seen[0].op, SIM_RCW_WRITE_FIRST);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[3].op, SIM_RCW_WRITE_LAST);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].synd,
			SIM_RCW_AETH_NAK | SIM_RCW_NAK_SEQ);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].psn, w->psn + 2);
	/* on from the lost packet: MIDDLE, LAST */
	KUNIT_EXPECT_EQ(test, w->s[A].sent, 6);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[4].op, SIM_RCW_WRITE_MIDDLE);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[4].psn, w->psn + 2);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[5].op, SIM_RCW_WRITE_LAST);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_dups, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends, 1);
	/* B saw the packet after the lost one; A heard its NAK */
	KUNIT_EXPECT_EQ(test, sk_rcw_counted(test, B, SIM_QC_OUT_OF_SEQUENCE),
			1);
	KUNIT_EXPECT_EQ(test, sk_rcw_counted(test, A, SIM_QC_PACKET_SEQ_ERR),
			1);
	KUNIT_EXPECT_EQ(test, sk_rcw_counted(test, B, SIM_QC_RX_WRITE), 1);
	KUNIT_EXPECT_EQ(test,
			sk_rcw_counted(test, B, SIM_QC_DUPLICATE_REQUEST), 0);

	/* with immediate: the last packet takes a receive WQE */
	sk_rcw_fill(test, A, 0x2000, 2 * SK_W_PMTU, 0x20);
	sk_rcw_recv(test, B, 0x3000, 64);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_WRITE_IMM, 0x2000,
		    2 * SK_W_PMTU, 0x2000, w->s[B].key, 0, 0);
	sk_rcw_pump(test, RR_MS, 1, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ, 0).wqe, 1);
	c = sk_rcw_expect(test, B, SIM_CQE_RESP_WR_IMM, 0);
	KUNIT_EXPECT_EQ(test, c.bytes, 2 * SK_W_PMTU);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[6].op, SIM_RCW_WRITE_FIRST);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[7].op, SIM_RCW_WRITE_LAST_IMM);
	KUNIT_EXPECT_EQ(test, memcmp(sk_rcw_data(test, A, 0x2000),
				     sk_rcw_data(test, B, 0x2000),
				     2 * SK_W_PMTU), 0);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), w->psn + 6);
}

/*
 * A compare and swap whose atomic ACK is lost: sent again on the ACK
 * timer, B answers it with the original value it kept; executed again,
 * the compare would fail and say the swapped value.
 */
static void rr_atomic_ack_lost(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u64 *remote = (u64 *)sk_rcw_data(test, B, 0x3000);
	u64 *orig = (u64 *)sk_rcw_data(test, A, 0x3008);

	w->ack_timeout = 14;
	sk_rcw_connect(test);
	sk_rcw_count(test, B);
	sk_rcw_fate(test, B, 0, SK_W_DROP);
	*remote = 10;
	*orig = 0;
	sk_rcw_post(test, A, SIM_OPCODE_ATOMIC_CS, 0x3008, 8, 0x3000,
		    w->s[B].key, 99, 10);
	sk_rcw_pump(test, RR_MS, 1, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ, 0).bytes, 8);
	KUNIT_EXPECT_EQ(test, *remote, 99);
	KUNIT_EXPECT_EQ(test, *orig, 10);
	KUNIT_EXPECT_GE(test, sk_rcw_wire(test, A)->rcw_timeouts, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_dups,
			sk_rcw_wire(test, A)->rcw_timeouts);
	/* each one sent again a duplicate; executed once */
	KUNIT_EXPECT_EQ(test,
			sk_rcw_counted(test, B, SIM_QC_DUPLICATE_REQUEST),
			sk_rcw_wire(test, B)->rcw_dups);
	KUNIT_EXPECT_EQ(test, sk_rcw_counted(test, B, SIM_QC_RX_ATOMIC), 1);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[1].op, SIM_RCW_CMP_SWAP);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[1].psn, w->psn);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[1].op, SIM_RCW_ATOMIC_ACK);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
}

/* A READ request lost: the ACK timer sends it again. */
static void rr_read_req_lost(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u32 len = 2 * SK_W_PMTU;
	u64 n;

	/* 67 ms: a loaded host answers the resent request in time */
	w->ack_timeout = 14;
	sk_rcw_connect(test);
	sk_rcw_fate(test, A, 0, SK_W_DROP);
	sk_rcw_fill(test, B, 0x1000, len, 0x42);
	sk_rcw_post(test, A, SIM_OPCODE_RDMA_READ, 0x2000, len, 0x1000,
		    w->s[B].key, 0, 0);
	sk_rcw_pump(test, RR_MS, 1, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ, 0).bytes,
			len);
	sk_rcw_same(test, 0x2000, 0x1000, len);
	/*
	 * The timer may run out again before the responses are in (a slow
	 * host): each request after the lost one is answered, all but the
	 * first as a duplicate.
	 */
	n = sk_rcw_wire(test, A)->rcw_resends;
	KUNIT_EXPECT_GE(test, n, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_timeouts, n);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_dups, n - 1);
	KUNIT_EXPECT_EQ(test, w->s[A].sent, n + 1);
	KUNIT_EXPECT_EQ(test, w->s[B].sent, 2 * n);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[1].op, SIM_RCW_READ_REQ);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[1].psn, w->psn);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), w->psn + 2);
	sk_rcw_none(test, A);
}

/*
 * Four SENDs, the first three ACKs lost and the last one repeated: the
 * last ACK completes all four, in order, and its copy is dropped.
 */
static void rr_ack_coalesced(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	unsigned int i;

	sk_rcw_connect(test);
	for (i = 0; i < 3; i++)
		sk_rcw_fate(test, B, i, SK_W_DROP);
	sk_rcw_fate(test, B, 3, SK_W_DUP);
	for (i = 0; i < 4; i++) {
		sk_rcw_fill(test, A, i * 64, 8, i);
		sk_rcw_recv(test, B, 0x1000 + i * 64, 64);
	}
	for (i = 0; i < 4; i++)
		sk_rcw_send(test, A, i * 64, 8);
	sk_rcw_pump(test, RR_MS, 4, 4);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, A, SIM_CQE_REQ,
						    0).wqe, i);
		KUNIT_EXPECT_EQ(test, sk_rcw_expect(test, B, SIM_CQE_RESP_SEND,
						    0).bytes, 8);
	}
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, w->s[A].sent, 4);
	KUNIT_EXPECT_EQ(test, w->s[B].sent, 4);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_timeouts, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, A)->rcw_resends, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
}

/* PSNs from 2^24 - 2 on: they wrap to 0, a NAK across the wrap too. */
static void rr_psn_wrap(struct kunit *test)
{
	struct sk_rcw *w = sk_rcw(test);
	u32 len = 3 * SK_W_PMTU + 5;

	w->psn = SIM_RCW_PSN_MASK - 1;
	sk_rcw_connect(test);
	sk_rcw_fate(test, A, 2, SK_W_DROP);
	sk_rcw_fill(test, A, 0, len, 0x55);
	sk_rcw_recv(test, B, 0x1000, 0x2000);
	sk_rcw_send(test, A, 0, len);
	sk_rcw_pump(test, RR_MS, 1, 1);
	sk_rcw_delivered(test, len);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[1].psn, SIM_RCW_PSN_MASK);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[2].psn, 0);
	KUNIT_EXPECT_EQ(test, w->s[A].seen[3].psn, 1);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].synd,
			SIM_RCW_AETH_NAK | SIM_RCW_NAK_SEQ);
	KUNIT_EXPECT_EQ(test, w->s[B].seen[0].psn, 0);
	KUNIT_EXPECT_EQ(test, sk_rcw_wire(test, B)->rcw_naks, 1);
	KUNIT_EXPECT_EQ(test, sk_rcw_send_psn(test, A), 2);
	sk_rcw_none(test, A);
	sk_rcw_none(test, B);
	KUNIT_EXPECT_EQ(test, sk_rcw_state(test, A), MLX5_QPC_STATE_RTS);
}

static struct kunit_case rr_cases[] = {
	KUNIT_CASE(rr_write_resume),
	KUNIT_CASE(rr_atomic_ack_lost),
	KUNIT_CASE(rr_read_req_lost),
	KUNIT_CASE(rr_ack_coalesced),
	KUNIT_CASE(rr_psn_wrap),
	{}
};

static struct kunit_suite rr_suite = {
	.name = "mlx5x_sim_rcw_recover",
	.init = sk_rcw_init,
	.exit = sk_rcw_exit,
	.test_cases = rr_cases,
};

kunit_test_suite(rr_suite);
