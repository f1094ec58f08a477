// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging on DC, as mlx5dv_query_device(3) promises it in
 * dc_odp_caps (MLX5DV_CONTEXT_MASK_DC_ODP_CAPS, read by libmlx5 from the
 * device's ODP capability page): a DCI's send, RDMA WRITE, READ and
 * atomics, and a DCT's receives through its SRQ, on ODP regions whose
 * pages the process never touched.  Each faults the pages in, at the
 * DCI's side and at the DCT's, and completes once with the data where
 * IBTA puts it.  A remote buffer the process unmapped fails the DCI's
 * WRITE with a remote access error; the DCT, which never goes to error,
 * answers the next message.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include "mlx5x_dc.h"
#include "mlx5x_odp.h"

#define ODP_BYTES	(32 * MT_PAGE)
#define DC_ODP_ALL	(IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_SRQ_RECV | \
			 IBV_ODP_SUPPORT_WRITE | IBV_ODP_SUPPORT_READ | \
			 IBV_ODP_SUPPORT_ATOMIC)

/* The dc fixture and an ODP region on its PD, never touched. */
struct odc {
	struct dc d;
	struct ibv_mr *mr;
	uint8_t *m;
};

MT_FIXTURE(odc);

MT_FIXTURE_SETUP(odc)
{
	struct mlx5dv_context dv = {
		.comp_mask = MLX5DV_CONTEXT_MASK_DC_ODP_CAPS,
	};
	int rc = dc_open(&self->d);

	self->m = MAP_FAILED;
	if (rc != KSFT_PASS)
		return rc;
	rc = odp_ctx_check(self->d.c.ctx);
	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK_ERR(mlx5dv_query_device(self->d.c.ctx, &dv), 0) ||
	    !CHECK(dv.comp_mask & MLX5DV_CONTEXT_MASK_DC_ODP_CAPS))
		return KSFT_FAIL;
	if (!CHECK_EQ(dv.dc_odp_caps & DC_ODP_ALL, DC_ODP_ALL)) {
		mt_diag("dc_odp_caps 0x%x", dv.dc_odp_caps);
		return KSFT_FAIL;
	}
	self->mr = odp_fresh_pd(self->d.pd, ODP_BYTES, &self->m);
	return CHECK(self->mr) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(odc)
{
	/* nothing is in flight: the region goes before its PD */
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->m != MAP_FAILED)
		munmap(self->m, ODP_BYTES);
	dc_close(&self->d);
}

/* A work request of the DCI to DCT 0, from @off of the ODP region. */
static struct dc_wr odc_wr(struct odc *s, enum dc_op op, uint64_t id,
			   uint32_t off, uint32_t len)
{
	struct dc_wr w = dc_wr_to(&s->d, 0, op, id, 0, len);

	w.mr = s->mr;
	w.off = off;
	w.rkey = s->mr->rkey;
	return w;
}

/*
 * A SEND into a receive WQE of DCT 0's SRQ in untouched pages, from
 * pages the CPU wrote but the device never had, across a page boundary
 * at both ends; a second SEND lands in the SRQ's next WQE.
 */
MT_TEST_F(odc, send_to_srq)
{
	uint8_t *src = self->m + 2 * MT_PAGE - 100;
	uint32_t roff = 12 * MT_PAGE - 200;
	long long f = faults();
	struct dc_wr w;

	if (!CHECK_ERR(srq_recv(self->d.srq[0], self->mr, 21, roff, 2 * MSG),
		       0))
		return KSFT_FAIL;
	fill(src, MSG, 5);
	w = odc_wr(self, DC_SEND, 22, src - self->m, MSG);
	if (!CHECK_ERR(dc_post(self->d.dci, self->d.ah, &w), 0))
		return KSFT_FAIL;
	if (send_is(self->d.scq, 22, IBV_WC_SUCCESS, IBV_WC_SEND) &&
	    recv_is(&self->d, 0, 21, MSG))
		CHECK(!memcmp(self->m + roff, src, MSG));
	CHECK(faulted(f));
	fill(src, MSG, 7);
	if (!CHECK_ERR(srq_recv(self->d.srq[0], self->mr, 23, 20 * MT_PAGE,
				MSG), 0))
		return KSFT_FAIL;
	w = odc_wr(self, DC_SEND, 24, src - self->m, MSG);
	CHECK_ERR(dc_post(self->d.dci, self->d.ah, &w), 0);
	if (send_is(self->d.scq, 24, IBV_WC_SUCCESS, IBV_WC_SEND) &&
	    recv_is(&self->d, 0, 23, MSG))
		CHECK(!memcmp(self->m + 20 * MT_PAGE, src, MSG));
	return KSFT_PASS;
}

/*
 * RDMA WRITE, READ and fetch-and-add of the DCI, each between untouched
 * pages of its own and untouched pages behind the DCT.
 */
MT_TEST_F(odc, rdma_and_atomic)
{
	uint8_t *wsrc = self->m + 1 * MT_PAGE;
	uint8_t *wdst = self->m + 6 * MT_PAGE - 64;
	uint8_t *rdst = self->m + 14 * MT_PAGE;
	uint64_t *ctr = (uint64_t *)(self->m + 24 * MT_PAGE);
	uint64_t *old = (uint64_t *)(self->m + 28 * MT_PAGE);
	long long f = faults();
	struct dc_wr w;

	/* WRITE: the source pages are touched here, the target not */
	fill(wsrc, MSG, 3);
	w = odc_wr(self, DC_WRITE, 31, wsrc - self->m, MSG);
	w.raddr = (uintptr_t)wdst;
	CHECK_ERR(dc_post(self->d.dci, self->d.ah, &w), 0);
	if (send_is(self->d.scq, 31, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE))
		CHECK(!memcmp(wdst, wsrc, MSG));
	CHECK(faulted(f));
	/* READ it back into untouched pages */
	w = odc_wr(self, DC_READ, 32, rdst - self->m, MSG);
	w.raddr = (uintptr_t)wdst;
	CHECK_ERR(dc_post(self->d.dci, self->d.ah, &w), 0);
	if (send_is(self->d.scq, 32, IBV_WC_SUCCESS, IBV_WC_RDMA_READ))
		CHECK(!memcmp(rdst, wsrc, MSG));
	/* fetch and add on an untouched page, the old value to another */
	w = odc_wr(self, DC_FADD, 33, (uint8_t *)old - self->m, 8);
	w.raddr = (uintptr_t)ctr;
	w.arg0 = 5;
	CHECK_ERR(dc_post(self->d.dci, self->d.ah, &w), 0);
	if (send_is(self->d.scq, 33, IBV_WC_SUCCESS,
		    IBV_WC_FETCH_ADD)) {
		CHECK_EQ(*ctr, 5);
		CHECK_EQ(*old, 0);
	}
	return KSFT_PASS;
}

/*
 * A WRITE into pages the process unmapped: a remote access error at the
 * DCI, nothing written; the DCT answers the next message.
 */
MT_TEST_F(odc, write_unmapped)
{
	uint8_t *src = self->m;
	struct dc_wr w;

	fill(src, MSG, 9);
	if (!CHECK_ERR(munmap(self->m + 8 * MT_PAGE, 4 * MT_PAGE), 0))
		return KSFT_FAIL;
	w = odc_wr(self, DC_WRITE, 41, 0, MSG);
	w.raddr = (uintptr_t)(self->m + 9 * MT_PAGE);
	CHECK_ERR(dc_post(self->d.dci, self->d.ah, &w), 0);
	CHECK(send_is(self->d.scq, 41, IBV_WC_REM_ACCESS_ERR,
		      IBV_WC_RDMA_WRITE));
	CHECK_ERR(dci_connect_again(self->d.dci), 0);
	w = odc_wr(self, DC_WRITE, 42, 0, MSG);
	w.raddr = (uintptr_t)(self->m + 16 * MT_PAGE);
	CHECK_ERR(dc_post(self->d.dci, self->d.ah, &w), 0);
	if (send_is(self->d.scq, 42, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE))
		CHECK(!memcmp(self->m + 16 * MT_PAGE, src, MSG));
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(odc, send_to_srq),
	MT_CASE_F(odc, rdma_and_atomic),
	MT_CASE_F(odc, write_unmapped),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
