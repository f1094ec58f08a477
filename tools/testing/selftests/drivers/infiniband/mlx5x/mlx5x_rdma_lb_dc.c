// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DC traffic between QPs of one device through the RDMA RX and RDMA TX
 * steering domains (mlx5x_rdma_lb does RC and UD).  A ConnectX loops it
 * below its transmit steering, packet by packet, as it loops RC: a DCI's
 * requests carry in their BTH the number of the DCT its work request
 * names (mlx5dv_wr_set_dc_addr(3)), the DCT's answers the DCI's number,
 * so a rule on the BTH's destination QP takes them as it takes RC's:
 *   - an RDMA TX counter on a DCT's number counts a DCI's SEND to it,
 *     one packet a path MTU (1024: 3000 bytes are three); one on the
 *     DCI's number counts the DCT's ACK and a READ's responses;
 *   - an RDMA RX drop on the DCT's number loses every try of the DCI's
 *     SEND: retry_cnt (7) retries, then IBV_WC_RETRY_EXC_ERR; the rule
 *     counts 8 and the DCT receives nothing, while the other DCT, under
 *     no rule, receives;
 *   - an RDMA RX drop on the DCI's number loses the DCT's ACKs: the DCT
 *     receives the SEND once (a retry is a duplicate it only ACKs
 *     again), the DCI ends in IBV_WC_RETRY_EXC_ERR and the rule counts
 *     the ACK and its 7 repeats.
 * The DCI addresses the port's RoCE v2 GID (the domains match its UDP
 * and BTH headers); making rules needs CAP_NET_RAW.
 */
#include "mlx5x_dc.h"
#include "mlx5x_dv_flow.h"
#include "mlx5x_rdma_rule.h"

#define BIG		3000

/* The dc fixture, with an AH of the port's RoCE v2 GID and a rule. */
struct lb_dc {
	struct dc d;
	struct ibv_ah *ah;
	struct rdma_rule r;
};

MT_FIXTURE(lb_dc);

MT_FIXTURE_SETUP(lb_dc)
{
	struct ibv_ah_attr a;
	int rc = dc_open(&self->d), gid;

	if (rc != KSFT_PASS)
		return rc;
	gid = roce_v2_gid(self->d.c.ctx);
	if (gid < 0)
		return mt_skip("no RoCE v2 GID on port 1");
	if (!CHECK_ERR(fill_ah(self->d.c.ctx, gid, &a), 0))
		return KSFT_FAIL;
	self->ah = ibv_create_ah(self->d.pd, &a);
	return CHECK(self->ah) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(lb_dc)
{
	rdma_rule_close(&self->r);
	if (self->ah)
		CHECK_ERR(ibv_destroy_ah(self->ah), 0);
	dc_close(&self->d);
}

/* The DCI sends @len bytes to DCT @i as WR @id, which completes with @st. */
static bool dc_send(struct lb_dc *s, unsigned int i, uint64_t id,
		    uint32_t len, enum ibv_wc_status st)
{
	struct dc_wr w = dc_wr_to(&s->d, i, DC_SEND, id, 0, len);

	return CHECK_ERR(dc_post(s->d.dci, s->ah, &w), 0) &&
	       send_is(s->d.scq, id, st, IBV_WC_SEND);
}

/* DCT @i's SRQ gets a receive WQE @id of BIG bytes. */
static bool dct_recv(struct lb_dc *s, unsigned int i, uint64_t id)
{
	return CHECK_ERR(srq_recv(s->d.srq[i], s->d.mr, id, RECV_OFF, BIG),
			 0);
}

/* Nothing completes on DCT @i's CQ within a tenth of a second. */
static bool dct_got_nothing(struct lb_dc *s, unsigned int i)
{
	struct ibv_wc wc;

	usleep(100 * 1000);
	return CHECK_EQ(ibv_poll_cq(s->d.rcq[i], 1, &wc), 0);
}

/*
 * RDMA TX counters: on DCT 0's number, the DCI's SEND of BIG bytes is 3
 * packets; on the DCI's number, the DCT's ACK of it is one, and a READ
 * of BIG bytes from DCT 0 three responses more.
 */
MT_TEST_F(lb_dc, dc_counted)
{
	struct dc_wr w;

	if (!rdma_rule_open(self->d.c.ctx, &self->r, RDMA_TX,
			    self->d.dct[0]->qp_num, false) ||
	    !dct_recv(self, 0, 1))
		return KSFT_FAIL;
	if (!dc_send(self, 0, 10, BIG, IBV_WC_SUCCESS) ||
	    !recv_is(&self->d, 0, 1, BIG))
		return KSFT_FAIL;
	CHECK_EQ(rdma_rule_counted(&self->r), 3);
	rdma_rule_close(&self->r);

	if (!rdma_rule_open(self->d.c.ctx, &self->r, RDMA_TX,
			    self->d.dci->qp_num, false) ||
	    !dct_recv(self, 0, 2))
		return KSFT_FAIL;
	if (!dc_send(self, 0, 11, MSG, IBV_WC_SUCCESS) ||
	    !recv_is(&self->d, 0, 2, MSG))
		return KSFT_FAIL;
	CHECK_EQ(rdma_rule_counted(&self->r), 1);
	w = dc_wr_to(&self->d, 0, DC_READ, 12, 0, BIG);
	w.rkey = self->d.mr->rkey;
	w.raddr = (uintptr_t)self->d.buf + RECV_OFF;
	if (!CHECK_ERR(dc_post(self->d.dci, self->ah, &w), 0) ||
	    !send_is(self->d.scq, 12, IBV_WC_SUCCESS, IBV_WC_RDMA_READ))
		return KSFT_FAIL;
	CHECK_EQ(rdma_rule_counted(&self->r), 4);
	return KSFT_PASS;
}

/*
 * RDMA RX drop on DCT 0's number: the DCI's SEND to it is lost at every
 * try and ends in IBV_WC_RETRY_EXC_ERR, 8 counted, DCT 0 receiving
 * nothing; once the DCI is back in RTS, DCT 1 receives its SEND.
 */
MT_TEST_F(lb_dc, dc_request_drop)
{
	if (!rdma_rule_open(self->d.c.ctx, &self->r, RDMA_RX,
			    self->d.dct[0]->qp_num, true) ||
	    !dct_recv(self, 0, 1) || !dct_recv(self, 1, 2))
		return KSFT_FAIL;
	if (!dc_send(self, 0, 20, MSG, IBV_WC_RETRY_EXC_ERR))
		return KSFT_FAIL;
	CHECK_EQ(rdma_rule_counted(&self->r), 8);
	dct_got_nothing(self, 0);
	if (!CHECK_ERR(dci_connect_again(self->d.dci), 0) ||
	    !dc_send(self, 1, 21, MSG, IBV_WC_SUCCESS))
		return KSFT_FAIL;
	recv_is(&self->d, 1, 2, MSG);
	return KSFT_PASS;
}

/*
 * RDMA RX drop on the DCI's number: DCT 0 takes the SEND once, its ACK
 * and the 7 ACKs of the duplicates are lost, the SEND ends in
 * IBV_WC_RETRY_EXC_ERR; the rule counts 8.
 */
MT_TEST_F(lb_dc, dc_ack_drop)
{
	if (!rdma_rule_open(self->d.c.ctx, &self->r, RDMA_RX,
			    self->d.dci->qp_num, true) ||
	    !dct_recv(self, 0, 1) || !dct_recv(self, 0, 2))
		return KSFT_FAIL;
	if (!dc_send(self, 0, 30, MSG, IBV_WC_RETRY_EXC_ERR))
		return KSFT_FAIL;
	CHECK_EQ(rdma_rule_counted(&self->r), 8);
	recv_is(&self->d, 0, 1, MSG);
	dct_got_nothing(self, 0);
	return KSFT_PASS;
}

#define LB_DC_CASE(nm)	MT_CASE_F(lb_dc, nm, \
				  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT)

static const struct mt_case cases[] = {
	LB_DC_CASE(dc_counted),
	LB_DC_CASE(dc_request_drop),
	LB_DC_CASE(dc_ack_drop),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
