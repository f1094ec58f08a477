// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory in traffic, as ibv_reg_dm_mr(3) and ibv_alloc_dm(3)
 * define it: an MR over MEMIC is zero-based (IBV_ACCESS_ZERO_BASED is
 * required): address 0 of the MR is byte dm_offset of the allocation.
 * Such an MR is the source and the target of SENDs, RDMA WRITE and READ
 * and atomics, as lkey and as rkey, as any MR is; what lands is read with
 * ibv_memcpy_from_dm(), what is sent written with ibv_memcpy_to_dm().
 * Past the MR's length (even inside the allocation) an access is a local
 * protection error, or a remote access error through its rkey.
 *
 * The pair: A and B, RC, each with a DM of DM_BYTES and an MR over all of
 * it with every right MEMIC takes, and one over its second half.
 */
#define _GNU_SOURCE
#include "mlx5x_rc.h"

#define DM_BYTES	4096
#define HALF		(DM_BYTES / 2)
#define MSG		1024
#define DM_ACCESS	(IBV_ACCESS_ZERO_BASED | ALL_ACCESS)

struct dmt {
	struct pair p;
	struct ibv_dm *dm[2];
	struct ibv_mr *mr[2];	/* all of each DM */
	struct ibv_mr *half[2];	/* each DM's second half */
};

MT_FIXTURE(dmt);

MT_FIXTURE_SETUP(dmt)
{
	struct ibv_alloc_dm_attr attr = { .length = DM_BYTES };
	struct ibv_device_attr_ex dev;
	unsigned int i;
	int rc = pair_open(&self->p, IBV_QPT_RC, ALL_ACCESS, 7);

	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK_ERR(ibv_query_device_ex(self->p.c.ctx, NULL, &dev), 0))
		return KSFT_FAIL;
	if (dev.max_dm_size < 2 * DM_BYTES)
		return mt_skip("no device memory (max_dm_size %llu)",
			       (unsigned long long)dev.max_dm_size);
	for (i = 0; i < 2; i++) {
		self->dm[i] = ibv_alloc_dm(self->p.c.ctx, &attr);
		if (!CHECK(self->dm[i]))
			return KSFT_FAIL;
		self->mr[i] = ibv_reg_dm_mr(self->p.pd, self->dm[i], 0,
					    DM_BYTES, DM_ACCESS);
		self->half[i] = ibv_reg_dm_mr(self->p.pd, self->dm[i], HALF,
					      HALF, DM_ACCESS);
		if (!CHECK(self->mr[i]) || !CHECK(self->half[i]))
			return KSFT_FAIL;
	}
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(dmt)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (self->half[i])
			CHECK_ERR(ibv_dereg_mr(self->half[i]), 0);
		if (self->mr[i])
			CHECK_ERR(ibv_dereg_mr(self->mr[i]), 0);
		/* a DM goes after the MRs over it, before its context */
		if (self->dm[i])
			CHECK_ERR(ibv_free_dm(self->dm[i]), 0);
	}
	pair_teardown(&self->p);
}

/* Post on QP @from a SEND of @len bytes at (@lkey, @addr): its status. */
static int sendrecv(struct pair *p, unsigned int from, uint32_t lkey,
		    uint64_t addr, uint32_t rkey_lkey, uint64_t raddr,
		    uint32_t len, uint32_t *got)
{
	struct ibv_sge s = { addr, len, lkey }, r = { raddr, len, rkey_lkey };
	struct ibv_send_wr swr = {
		.wr_id = 1, .sg_list = &s, .num_sge = 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *sbad;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &r, .num_sge = 1 },
			   *rbad;
	struct ibv_wc wc;

	*got = 0;
	if (!CHECK_ERR(ibv_post_recv(p->qp[!from], &rwr, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[from], &swr, &sbad), 0) ||
	    !CHECK(poll_one(p->cq[from], &wc)))
		return -1;
	if (wc.status != IBV_WC_SUCCESS)
		return wc.status;
	if (!CHECK(poll_one(p->cq[!from], &wc)))
		return -1;
	*got = wc.byte_len;
	return wc.status;
}

/* QP @from's RDMA or atomic @wr (its sge and remote set): its status. */
static int post_one(struct pair *p, unsigned int from, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	wr->wr_id = 3;
	wr->send_flags = IBV_SEND_SIGNALED;
	if (!CHECK_ERR(ibv_post_send(p->qp[from], wr, &bad), 0) ||
	    !CHECK(poll_one(p->cq[from], &wc)))
		return -1;
	return wc.status;
}

static bool dm_read(struct ibv_dm *dm, uint64_t off, void *buf, size_t len)
{
	return CHECK_ERR(ibv_memcpy_from_dm(buf, dm, off, len), 0);
}

/*
 * test_dm_traffic's exchange: A sends MSG bytes from its DM to B's, and
 * B sends them back into A's DM at another offset; each lands where the
 * zero-based address says.
 */
MT_TEST_F(dmt, send_dm_to_dm)
{
	struct pair *p = &self->p;
	uint8_t want[MSG], got[MSG];
	uint32_t n;

	fill(want, MSG, 3);
	if (!CHECK_ERR(ibv_memcpy_to_dm(self->dm[0], 0, want, MSG), 0))
		return KSFT_FAIL;
	CHECK_EQ(sendrecv(p, 0, self->mr[0]->lkey, 0, self->mr[1]->lkey, 0,
			  MSG, &n), IBV_WC_SUCCESS);
	CHECK_EQ(n, MSG);
	if (dm_read(self->dm[1], 0, got, MSG))
		CHECK(!memcmp(got, want, MSG));
	CHECK_EQ(sendrecv(p, 1, self->mr[1]->lkey, 0, self->mr[0]->lkey,
			  MSG, MSG, &n), IBV_WC_SUCCESS);
	if (dm_read(self->dm[0], MSG, got, MSG))
		CHECK(!memcmp(got, want, MSG));
	return KSFT_PASS;
}

/*
 * As rdma-core's traffic() orders it: both sides' receives posted first
 * (A's into its DM, B's into its own), then A sends, then B sends back.
 */
MT_TEST_F(dmt, receives_first)
{
	struct pair *p = &self->p;
	struct ibv_sge ra = { 0, MSG, self->mr[0]->lkey },
		       rb = { 0, MSG, self->mr[1]->lkey },
		       sa = { 0, MSG, self->mr[0]->lkey },
		       sb = { 0, MSG, self->mr[1]->lkey };
	struct ibv_recv_wr rwa = { .wr_id = 10, .sg_list = &ra, .num_sge = 1 },
			   rwb = { .wr_id = 11, .sg_list = &rb, .num_sge = 1 },
			   *rbad;
	struct ibv_send_wr swa = {
		.wr_id = 12, .sg_list = &sa, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, swb = swa, *sbad;
	uint8_t a[MSG], b[MSG], got[MSG];
	struct ibv_wc wc;

	swb.sg_list = &sb;
	fill(a, MSG, 1);
	fill(b, MSG, 2);
	if (!CHECK_ERR(ibv_memcpy_to_dm(self->dm[0], 0, a, MSG), 0) ||
	    !CHECK_ERR(ibv_post_recv(p->qp[0], &rwa, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_recv(p->qp[1], &rwb, &rbad), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[0], &swa, &sbad), 0) ||
	    !CHECK(poll_one(p->cq[0], &wc)) ||
	    !CHECK_EQ(wc.status, IBV_WC_SUCCESS) ||
	    !CHECK(poll_one(p->cq[1], &wc)) ||
	    !CHECK_EQ(wc.status, IBV_WC_SUCCESS))
		return KSFT_FAIL;
	if (dm_read(self->dm[1], 0, got, MSG))
		CHECK(!memcmp(got, a, MSG));
	if (!CHECK_ERR(ibv_memcpy_to_dm(self->dm[1], 0, b, MSG), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[1], &swb, &sbad), 0) ||
	    !CHECK(poll_one(p->cq[1], &wc)) ||
	    !CHECK_EQ(wc.status, IBV_WC_SUCCESS) ||
	    !CHECK(poll_one(p->cq[0], &wc)) ||
	    !CHECK_EQ(wc.status, IBV_WC_SUCCESS))
		return KSFT_FAIL;
	if (dm_read(self->dm[0], 0, got, MSG))
		CHECK(!memcmp(got, b, MSG));
	return KSFT_PASS;
}

/*
 * Between host memory and device memory, both ways, and through the MR
 * over the second half: its address 0 is the DM's byte HALF.
 */
MT_TEST_F(dmt, send_host_and_dm)
{
	struct pair *p = &self->p;
	uint8_t got[MSG];
	uint32_t n;

	fill(p->buf, MSG, 9);
	CHECK_EQ(sendrecv(p, 0, p->mr->lkey, (uintptr_t)p->buf,
			  self->half[1]->lkey, 16, MSG, &n), IBV_WC_SUCCESS);
	if (dm_read(self->dm[1], HALF + 16, got, MSG))
		CHECK(!memcmp(got, p->buf, MSG));
	CHECK_EQ(sendrecv(p, 1, self->half[1]->lkey, 16, p->mr->lkey,
			  (uintptr_t)p->buf + 8192, MSG, &n), IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + 8192, p->buf, MSG));
	return KSFT_PASS;
}

/*
 * test_dm_remote_traffic: RDMA WRITE from A's DM into B's DM by its
 * rkey, and RDMA READ of it back into host memory.
 */
MT_TEST_F(dmt, rdma_write_read)
{
	struct pair *p = &self->p;
	struct ibv_sge sge = { 0, MSG, self->mr[0]->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = 100, .rkey = self->mr[1]->rkey },
	};
	uint8_t want[MSG], got[MSG];

	fill(want, MSG, 17);
	if (!CHECK_ERR(ibv_memcpy_to_dm(self->dm[0], 0, want, MSG), 0))
		return KSFT_FAIL;
	CHECK_EQ(post_one(p, 0, &wr), IBV_WC_SUCCESS);
	if (dm_read(self->dm[1], 100, got, MSG))
		CHECK(!memcmp(got, want, MSG));
	sge = (struct ibv_sge){ (uintptr_t)p->buf, MSG, p->mr->lkey };
	wr.opcode = IBV_WR_RDMA_READ;
	CHECK_EQ(post_one(p, 0, &wr), IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf, want, MSG));
	return KSFT_PASS;
}

/* Fetch-and-add and compare-and-swap on 8 bytes of B's DM by its rkey. */
MT_TEST_F(dmt, atomics)
{
	struct pair *p = &self->p;
	struct ibv_sge sge = { (uintptr_t)p->buf, 8, p->mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.wr.atomic = { .remote_addr = 64, .compare_add = 5,
			       .rkey = self->half[1]->rkey },
	};
	uint64_t v = 1000, got;

	if (!CHECK_ERR(ibv_memcpy_to_dm(self->dm[1], HALF + 64, &v, 8), 0))
		return KSFT_FAIL;
	CHECK_EQ(post_one(p, 0, &wr), IBV_WC_SUCCESS);
	memcpy(&got, p->buf, 8);
	CHECK_EQ(got, 1000);
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.compare_add = 1005;
	wr.wr.atomic.swap = 7;
	CHECK_EQ(post_one(p, 0, &wr), IBV_WC_SUCCESS);
	memcpy(&got, p->buf, 8);
	CHECK_EQ(got, 1005);
	if (dm_read(self->dm[1], HALF + 64, &got, 8))
		CHECK_EQ(got, 7);
	return KSFT_PASS;
}

/*
 * Past the half MR's end, though inside its DM: through the rkey a
 * remote access error, nothing written past it.
 */
MT_TEST_F(dmt, rkey_past_the_mr)
{
	struct pair *p = &self->p;
	struct ibv_sge sge = { (uintptr_t)p->buf, 64, p->mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = HALF - 32,
			     .rkey = self->half[1]->rkey },
	};
	uint8_t got[64], zero[64] = {};

	fill(p->buf, 64, 1);
	if (!CHECK_ERR(ibv_memcpy_to_dm(self->dm[1], 0, zero, 64), 0))
		return KSFT_FAIL;
	CHECK_EQ(post_one(p, 0, &wr), IBV_WC_REM_ACCESS_ERR);
	if (dm_read(self->dm[1], DM_BYTES - 32, got, 32))
		CHECK(!memcmp(got, zero, 32));
	return KSFT_PASS;
}

/* A gather entry past the half MR's end: a local protection error. */
MT_TEST_F(dmt, lkey_past_the_mr)
{
	struct pair *p = &self->p;
	uint32_t n;

	CHECK_EQ(sendrecv(p, 0, self->half[0]->lkey, HALF - 8, p->mr->lkey,
			  (uintptr_t)p->buf, 16, &n), IBV_WC_LOC_PROT_ERR);
	return KSFT_PASS;
}

/* A DM MR without remote write: a write through its rkey is refused. */
MT_TEST_F(dmt, rkey_without_right)
{
	struct pair *p = &self->p;
	struct ibv_mr *ro = ibv_reg_dm_mr(p->pd, self->dm[1], 0, HALF,
					  IBV_ACCESS_ZERO_BASED |
					  IBV_ACCESS_REMOTE_READ);
	struct ibv_sge sge = { (uintptr_t)p->buf, 8, p->mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
	};

	if (!CHECK(ro))
		return KSFT_FAIL;
	wr.wr.rdma.rkey = ro->rkey;
	CHECK_EQ(post_one(p, 0, &wr), IBV_WC_REM_ACCESS_ERR);
	CHECK_ERR(ibv_dereg_mr(ro), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(dmt, send_dm_to_dm),
	MT_CASE_F(dmt, receives_first),
	MT_CASE_F(dmt, send_host_and_dm),
	MT_CASE_F(dmt, rdma_write_read),
	MT_CASE_F(dmt, atomics),
	MT_CASE_F(dmt, rkey_past_the_mr),
	MT_CASE_F(dmt, lkey_past_the_mr),
	MT_CASE_F(dmt, rkey_without_right),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
