// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging behind a shared receive queue: ibv_query_device_ex(3)
 * says IBV_ODP_SUPPORT_SRQ_RECV for RC (and XRC), so an SRQ's receive
 * WQEs may name ODP regions whose pages the process never touched.  A
 * SEND landing there faults the pages in and lands once, in the WQE at
 * the SRQ's head, whatever the page faults in between; the next SEND
 * takes the next WQE.  A receive buffer the process unmapped fails the
 * SEND, as any receive buffer the device cannot reach does, and takes
 * no WQE after it.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include "mlx5x_odp.h"

#define ODP_BYTES	(32 * MT_PAGE)

struct osrq {
	struct pair p;		/* B's QP on the SRQ */
	struct ibv_srq *srq;
	struct ibv_mr *mr;	/* ODP, over m */
	uint8_t *m;
};

MT_FIXTURE(osrq);

MT_FIXTURE_SETUP(osrq)
{
	struct pair *p = &self->p;
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16, .max_sge = 1 } };
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_send_sge = 1 },
	};
	struct ibv_device_attr_ex a = {};
	int rc = odp_pair_open(p);
	unsigned int i;

	self->m = MAP_FAILED;
	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK_ERR(ibv_query_device_ex(p->c.ctx, NULL, &a), 0) ||
	    !CHECK(a.odp_caps.per_transport_caps.rc_odp_caps &
		   IBV_ODP_SUPPORT_SRQ_RECV))
		return KSFT_FAIL;
	self->srq = ibv_create_srq(p->pd, &sa);
	if (!CHECK(self->srq))
		return KSFT_FAIL;
	for (i = 0; i < 2; i++) {
		p->cq[i] = ibv_create_cq(p->c.ctx, 32, NULL, NULL, 0);
		if (!CHECK(p->cq[i]))
			return KSFT_FAIL;
	}
	p->qp[0] = rc_qp(p, p->cq[0], IBV_QPT_RC);
	qa.send_cq = p->cq[1];
	qa.recv_cq = p->cq[1];
	qa.srq = self->srq;
	p->qp[1] = ibv_create_qp(p->pd, &qa);
	if (!CHECK(p->qp[0]) || !CHECK(p->qp[1]) ||
	    !CHECK_ERR(rc_connect(p, p->qp[0], p->qp[1]->qp_num, ALL_ACCESS,
				  7), 0) ||
	    !CHECK_ERR(rc_connect(p, p->qp[1], p->qp[0]->qp_num, ALL_ACCESS,
				  7), 0))
		return KSFT_FAIL;
	self->mr = odp_fresh(p, ODP_BYTES, &self->m);
	return CHECK(self->mr) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(osrq)
{
	struct pair *p = &self->p;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (p->qp[i])
			CHECK_ERR(ibv_destroy_qp(p->qp[i]), 0);
		p->qp[i] = NULL;
	}
	if (self->srq)
		CHECK_ERR(ibv_destroy_srq(self->srq), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->m != MAP_FAILED)
		munmap(self->m, ODP_BYTES);
	pair_teardown(p);
}

/* A receive of @len bytes at @addr of the ODP region, on the SRQ. */
static int post_srq(struct osrq *s, uint64_t id, uint8_t *addr, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, s->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(s->srq, &wr, &bad);
}

/* B's next completion is of receive @id, @status, @len bytes. */
static bool recv_is(struct osrq *s, uint64_t id, enum ibv_wc_status status,
		    uint32_t len)
{
	struct ibv_wc wc;

	if (!CHECK(poll_one(s->p.cq[1], &wc)))
		return false;
	return CHECK_EQ(wc.wr_id, id) && CHECK_EQ(wc.status, status) &&
	       (status != IBV_WC_SUCCESS || CHECK_EQ(wc.byte_len, len));
}

/*
 * Two receives in untouched ODP pages, the second across a page
 * boundary: two SENDs land in them, in order, once each.
 */
MT_TEST_F(osrq, recv_faults_in)
{
	struct pair *p = &self->p;
	uint8_t *r1 = self->m + 3 * MT_PAGE + 100;
	uint8_t *r2 = self->m + 10 * MT_PAGE - 50;
	long long f = faults();
	struct ibv_wc wc;

	if (!CHECK_ERR(post_srq(self, 1, r1, 2048), 0) ||
	    !CHECK_ERR(post_srq(self, 2, r2, MT_PAGE + 100), 0))
		return KSFT_FAIL;
	fill(p->buf, 2048, 1);
	CHECK_EQ(odp_op(p, IBV_WR_SEND, p->mr->lkey, p->buf, 2048, 0, NULL,
			&wc), IBV_WC_SUCCESS);
	if (recv_is(self, 1, IBV_WC_SUCCESS, 2048))
		CHECK(!memcmp(r1, p->buf, 2048));
	CHECK(faulted(f));
	fill(p->buf, MT_PAGE + 100, 2);
	CHECK_EQ(odp_op(p, IBV_WR_SEND, p->mr->lkey, p->buf, MT_PAGE + 100,
			0, NULL, &wc), IBV_WC_SUCCESS);
	if (recv_is(self, 2, IBV_WC_SUCCESS, MT_PAGE + 100))
		CHECK(!memcmp(r2, p->buf, MT_PAGE + 100));
	/* nothing more: each receive completed once */
	CHECK_EQ(ibv_poll_cq(p->cq[1], 1, &wc), 0);
	return KSFT_PASS;
}

/*
 * A receive buffer the process unmapped: the SEND into it fails at both
 * ends, the receive with a local protection error; the receive after
 * it stays posted (flushed when B's QP goes to error).
 */
MT_TEST_F(osrq, recv_unmapped)
{
	struct pair *p = &self->p;
	struct ibv_wc wc;

	if (!CHECK_ERR(munmap(self->m + 8 * MT_PAGE, 4 * MT_PAGE), 0) ||
	    !CHECK_ERR(post_srq(self, 1, self->m + 9 * MT_PAGE, 256), 0) ||
	    !CHECK_ERR(post_srq(self, 2, self->m, 256), 0))
		return KSFT_FAIL;
	fill(p->buf, 256, 3);
	CHECK_EQ(odp_op(p, IBV_WR_SEND, p->mr->lkey, p->buf, 256, 0, NULL,
			&wc), IBV_WC_REM_OP_ERR);
	recv_is(self, 1, IBV_WC_LOC_PROT_ERR, 0);
	/* the next WQE was not taken: nothing landed in it */
	CHECK(!self->m[0]);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(osrq, recv_faults_in),
	MT_CASE_F(osrq, recv_unmapped),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
