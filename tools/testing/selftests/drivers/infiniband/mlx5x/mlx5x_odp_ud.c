// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging on UD: ibv_query_device_ex(3) says
 * IBV_ODP_SUPPORT_SEND and _RECV for UD, so a datagram may be sent from
 * and received into ODP pages the device never had: it faults them in
 * and arrives once, GRH and payload, in the receive WQE at the head.
 * Pages the process unmapped fail where they are: a receive buffer with
 * the receiver's local protection error (the sender, unacknowledged,
 * completes), a send buffer with the sender's, nothing arriving.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include "mlx5x_odp.h"

#define ODP_BYTES	(32 * MT_PAGE)
#define QKEY		0x11110000
#define GRH		40

struct oud {
	struct pair p;
	struct ibv_ah *ah;	/* to B, on the port's own GID */
	struct ibv_mr *mr;	/* ODP, over m */
	uint8_t *m;
};

MT_FIXTURE(oud);

MT_FIXTURE_SETUP(oud)
{
	struct pair *p = &self->p;
	struct ibv_ah_attr a = {
		.is_global = 1, .port_num = 1,
		.grh = { .hop_limit = 64 },
	};
	int rc = odp_pair_open(p);
	unsigned int i;

	self->m = MAP_FAILED;
	if (rc != KSFT_PASS)
		return rc;
	for (i = 0; i < 2; i++) {
		p->cq[i] = ibv_create_cq(p->c.ctx, 32, NULL, NULL, 0);
		if (!CHECK(p->cq[i]))
			return KSFT_FAIL;
		p->qp[i] = rts_ud_qp(p->pd, p->cq[i], QKEY, NULL);
		if (!CHECK(p->qp[i]) || mt_case_failures())
			return KSFT_FAIL;
	}
	a.grh.sgid_index = p->gid;
	if (!CHECK_ERR(ibv_query_gid(p->c.ctx, 1, p->gid, &a.grh.dgid), 0))
		return KSFT_FAIL;
	self->ah = ibv_create_ah(p->pd, &a);
	if (!CHECK(self->ah))
		return KSFT_FAIL;
	self->mr = odp_fresh(p, ODP_BYTES, &self->m);
	return CHECK(self->mr) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(oud)
{
	if (self->ah)
		CHECK_ERR(ibv_destroy_ah(self->ah), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->m != MAP_FAILED)
		munmap(self->m, ODP_BYTES);
	pair_teardown(&self->p);
}

/* B's receive of @len bytes at @addr of the ODP region. */
static int recv_at(struct oud *u, uint64_t id, uint8_t *addr, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, u->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(u->p.qp[1], &wr, &bad);
}

/* A's datagram of @len bytes at @addr of the ODP region, to B: its CQE. */
static int send_from(struct oud *u, uint8_t *addr, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, u->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 8, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { .ah = u->ah, .remote_qpn = u->p.qp[1]->qp_num,
			   .remote_qkey = QKEY },
	}, *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(ibv_post_send(u->p.qp[0], &wr, &bad), 0) ||
	    !CHECK(poll_one(u->p.cq[0], &wc)))
		return -1;
	return wc.status;
}

/* B's next completion: of receive @id, @status. */
static bool recv_is(struct oud *u, uint64_t id, enum ibv_wc_status status,
		    struct ibv_wc *wc)
{
	return CHECK(poll_one(u->p.cq[1], wc)) && CHECK_EQ(wc->wr_id, id) &&
	       CHECK_EQ(wc->status, status);
}

/*
 * From a page the device never had into two it never had (the payload
 * across their boundary): the datagram arrives once, GRH then payload.
 */
MT_TEST_F(oud, send_recv_faults_in)
{
	uint8_t *src = self->m + 2 * MT_PAGE + 300;
	uint8_t *dst = self->m + 6 * MT_PAGE - 500;
	long long f = faults();
	struct ibv_wc wc;

	fill(src, 1000, 6);
	if (!CHECK_ERR(recv_at(self, 1, dst, GRH + 1000), 0))
		return KSFT_FAIL;
	CHECK_EQ(send_from(self, src, 1000), IBV_WC_SUCCESS);
	if (recv_is(self, 1, IBV_WC_SUCCESS, &wc)) {
		CHECK_EQ(wc.byte_len, GRH + 1000);
		CHECK_EQ(wc.src_qp, self->p.qp[0]->qp_num);
		CHECK(!memcmp(dst + GRH, src, 1000));
	}
	CHECK(faulted(f));
	CHECK_EQ(ibv_poll_cq(self->p.cq[1], 1, &wc), 0);
	return KSFT_PASS;
}

/* Into pages the process unmapped: the receiver's error; A completes. */
MT_TEST_F(oud, recv_unmapped)
{
	struct ibv_wc wc;

	if (!CHECK_ERR(munmap(self->m + 8 * MT_PAGE, 4 * MT_PAGE), 0) ||
	    !CHECK_ERR(recv_at(self, 2, self->m + 9 * MT_PAGE, 256), 0))
		return KSFT_FAIL;
	fill(self->p.buf, 64, 7);
	CHECK_EQ(send_from(self, self->m, 64), IBV_WC_SUCCESS);
	recv_is(self, 2, IBV_WC_LOC_PROT_ERR, &wc);
	return KSFT_PASS;
}

/* From pages the process unmapped: the sender's error; nothing arrives. */
MT_TEST_F(oud, send_unmapped)
{
	struct ibv_wc wc;

	if (!CHECK_ERR(munmap(self->m + 8 * MT_PAGE, 4 * MT_PAGE), 0) ||
	    !CHECK_ERR(recv_at(self, 3, self->m, 256), 0))
		return KSFT_FAIL;
	CHECK_EQ(send_from(self, self->m + 9 * MT_PAGE, 64),
		 IBV_WC_LOC_PROT_ERR);
	usleep(100 * 1000);
	CHECK_EQ(ibv_poll_cq(self->p.cq[1], 1, &wc), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(oud, send_recv_faults_in),
	MT_CASE_F(oud, recv_unmapped),
	MT_CASE_F(oud, send_unmapped),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
