// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging over huge pages: ibv_reg_mr(3)'s IBV_ACCESS_HUGETLB
 * with IBV_ACCESS_ON_DEMAND says the range is of huge pages, which the
 * kernel then follows a huge page at a time.  RC traffic reaches every
 * byte of such a region as of any other: across the boundary of two huge
 * pages, at the region's first and last byte when it starts and ends
 * inside one, by SEND, RDMA WRITE and READ and an atomic; pages the
 * process drops are dropped for the device too.  A region said
 * to be of huge pages that is not registers (as on mlx5_ib), but the
 * device's access to it fails, as to pages it cannot map.  The cases
 * make 2 MiB huge pages for themselves (root), and put the count back.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include "mlx5x_odp.h"

#define HUGE		(2UL << 20)
#define HUGE_BYTES	(2 * HUGE)
#define NR_HUGE		"/proc/sys/vm/nr_hugepages"
/* the region: from inside the first huge page to inside the second */
#define HEAD		12345
#define TAIL		777

struct huge {
	struct pair p;
	long nr;		/* the count before, to put back; -1: none */
	uint8_t *m;		/* HUGE_BYTES of huge pages */
};

MT_FIXTURE(huge);

static long nr_huge(void)
{
	char v[32];

	return mt_read_file(NR_HUGE, v, sizeof(v)) < 0 ? -1 : atol(v);
}

static bool set_nr_huge(long n)
{
	return mt_sh("echo %ld > " NR_HUGE, n) == 0;
}

/* Whether any of the @n bytes at @p is not @c. */
static bool memchr_inv(const uint8_t *p, int c, size_t n)
{
	while (n--)
		if (*p++ != c)
			return true;
	return false;
}

/* B posts a receive of @len bytes at @addr, of the MR of @lkey. */
static int post_recv_sge(struct pair *p, uint64_t id, uint32_t lkey,
			 void *addr, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(p->qp[1], &wr, &bad);
}

MT_FIXTURE_SETUP(huge)
{
	int rc = pair_open(&self->p, IBV_QPT_RC, ALL_ACCESS, 7);

	self->nr = -1;
	self->m = MAP_FAILED;
	if (rc != KSFT_PASS)
		return rc;
	rc = odp_check(&self->p);
	if (rc != KSFT_PASS)
		return rc;
	self->nr = nr_huge();
	if (self->nr >= 0 && self->nr < 4 && !set_nr_huge(self->nr + 4))
		self->nr = -1;
	self->m = mmap(NULL, HUGE_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (self->m == MAP_FAILED)
		return mt_skip("no 2 MiB huge pages to be had");
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(huge)
{
	if (self->m != MAP_FAILED)
		munmap(self->m, HUGE_BYTES);
	if (self->nr >= 0)
		set_nr_huge(self->nr);
	pair_teardown(&self->p);
}

/*
 * Untouched huge pages, registered from HEAD to TAIL bytes before their
 * end: WRITE across the two, READ back what the CPU wrote, SEND to the
 * first byte, WRITE the last, add to a word; dropped, READ zeros.
 */
MT_TEST_F(huge, rc_traffic)
{
	struct pair *p = &self->p;
	uint8_t *m = self->m, *end = m + HUGE_BYTES - TAIL;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	long long f = faults();
	uint64_t *word;

	mr = ibv_reg_mr(p->pd, m + HEAD, HUGE_BYTES - HEAD - TAIL,
			ODP_ACCESS | IBV_ACCESS_HUGETLB);
	if (!CHECK(mr))
		return KSFT_FAIL;
	fill(p->buf, 2 * MT_PAGE, 1);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf,
			2 * MT_PAGE, mr->rkey, m + HUGE - MT_PAGE - 3, &wc),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(m + HUGE - MT_PAGE - 3, p->buf, 2 * MT_PAGE));
	CHECK(faulted(f));

	fill(m + HUGE + HUGE / 2 + 100, 3000, 2);
	memset(p->buf, 0, 3000);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_READ, p->mr->lkey, p->buf, 3000,
			mr->rkey, m + HUGE + HUGE / 2 + 100, &wc),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf, m + HUGE + HUGE / 2 + 100, 3000));

	fill(p->buf, 100, 3);
	if (CHECK_ERR(post_recv_sge(p, 4, mr->lkey, m + HEAD, 100), 0)) {
		CHECK_EQ(odp_op(p, IBV_WR_SEND, p->mr->lkey, p->buf, 100, 0,
				NULL, &wc), IBV_WC_SUCCESS);
		if (CHECK(poll_one(p->cq[1], &wc)))
			CHECK_EQ(wc.status, IBV_WC_SUCCESS);
		CHECK(!memcmp(m + HEAD, p->buf, 100));
	}

	p->buf[0] = 0xa5;
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf, 1,
			mr->rkey, end - 1, &wc), IBV_WC_SUCCESS);
	CHECK_EQ(end[-1], 0xa5);

	word = (uint64_t *)(m + HUGE + 4096);
	*word = 37;
	CHECK_EQ(odp_op(p, IBV_WR_ATOMIC_FETCH_AND_ADD, p->mr->lkey, p->buf,
			8, mr->rkey, word, &wc), IBV_WC_SUCCESS);
	CHECK_EQ(*word, 42);
	CHECK_EQ(*(uint64_t *)p->buf, 37);

	/*
	 * the pages dropped (the device's taken back first): a READ sees
	 * the fresh zero pages the CPU would, not what was there
	 */
	if (CHECK_ERR(madvise(m, HUGE_BYTES, MADV_DONTNEED), 0)) {
		fill(p->buf, 3000, 5);
		CHECK_EQ(odp_op(p, IBV_WR_RDMA_READ, p->mr->lkey, p->buf, 3000,
				mr->rkey, m + HUGE + HUGE / 2 + 100, &wc),
			 IBV_WC_SUCCESS);
		CHECK(!memchr_inv(p->buf, 0, 3000));
		CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf, 1,
				mr->rkey, end - 1, &wc), IBV_WC_SUCCESS);
		CHECK_EQ(end[-1], 0);
	}

	/* past the region's last byte: the rkey does not reach */
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf, 2,
			mr->rkey, end - 1, &wc), IBV_WC_REM_ACCESS_ERR);
	CHECK_ERR(ibv_dereg_mr(mr), 0);
	return KSFT_PASS;
}

/*
 * Ordinary pages said to be huge: the region registers; the device's
 * WRITE into it finds no huge page to map and fails as a refused access.
 */
MT_TEST_F(huge, not_huge)
{
	struct pair *p = &self->p;
	uint8_t *m = mmap(NULL, HUGE_BYTES, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ibv_mr *mr;
	struct ibv_wc wc;

	if (!CHECK(m != MAP_FAILED))
		return KSFT_FAIL;
	madvise(m, HUGE_BYTES, MADV_NOHUGEPAGE);
	mr = ibv_reg_mr(p->pd, m, HUGE_BYTES,
			ODP_ACCESS | IBV_ACCESS_HUGETLB);
	if (CHECK(mr)) {
		fill(p->buf, 64, 4);
		CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf, 64,
				mr->rkey, m + 8192, &wc),
			 IBV_WC_REM_ACCESS_ERR);
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	}
	munmap(m, HUGE_BYTES);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(huge, rc_traffic, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(huge, not_huge, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
