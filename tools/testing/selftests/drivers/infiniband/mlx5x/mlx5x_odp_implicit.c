// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Implicit on-demand paging, as ibv_reg_mr(3) describes it: with
 * IBV_ACCESS_ON_DEMAND, address NULL and length SIZE_MAX register the
 * whole address space of the process; ibv_query_device_ex(3) says so
 * with IBV_ODP_SUPPORT_IMPLICIT.  Any address the process maps can then
 * be named by the region's keys, the pages faulted in when the device
 * first reaches them: sends and receives, RDMA WRITE, READ and atomics,
 * anywhere (heap, fresh mappings, across the 2 MiB spans the driver
 * follows them in).  What the process unmaps is an access error, what
 * it maps anew is seen as it is now, an address past the user address
 * space is never reached, and ibv_advise_mr(3) prefetches any range.
 * The device keeps no state for what the process no longer maps (the
 * model's count of its entry blocks falls back).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "mlx5x_odp.h"
#include "mlx5x_queues.h"

#define SPAN		(2u << 20)	/* the driver's child of the MR */
#define KERNEL_VA	((void *)0xffff888000001000ull)

/* The implicit region of @pd: access @access, or NULL (errno set). */
static struct ibv_mr *implicit(struct ibv_pd *pd, int access)
{
	return ibv_reg_mr(pd, NULL, SIZE_MAX, access);
}

/* KSFT_PASS when the device offers implicit ODP (which it must). */
static int implicit_check(struct pair *p)
{
	struct ibv_device_attr_ex a = {};
	int rc = odp_check(p);

	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK_ERR(ibv_query_device_ex(p->c.ctx, NULL, &a), 0) ||
	    !CHECK(a.odp_caps.general_caps & IBV_ODP_SUPPORT_IMPLICIT))
		return KSFT_FAIL;
	return KSFT_PASS;
}

/*
 * The implicit region of @p's PD, with @access, on a device that offers
 * it: KSFT_PASS and *@mr, or the skip or failure.
 */
static int implicit_on(struct pair *p, int access, struct ibv_mr **mr)
{
	int rc = implicit_check(p);

	if (rc != KSFT_PASS)
		return rc;
	*mr = implicit(p->pd, access);
	return CHECK(*mr) ? KSFT_PASS : KSFT_FAIL;
}

/* @len fresh anonymous bytes, never touched, or NULL. */
static uint8_t *fresh(size_t len)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return CHECK(m != MAP_FAILED) ? m : NULL;
}

/*
 * A boundary of two spans inside the 3 * SPAN bytes at @m, more than a
 * span from either end.
 */
static uint8_t *span_edge(uint8_t *m)
{
	return (uint8_t *)(((uintptr_t)m + 2 * SPAN) & ~(uintptr_t)(SPAN - 1));
}

/* The model's count of implicit entry blocks; as on hardware, -1. */
static long long blocks(void)
{
	return mt_sim() ? mt_fw_stat("odp_blocks") : -1;
}

/*
 * Whether the count falls to @want within 5 s (the driver frees a span
 * the process unmapped from a work item); as on hardware, true.
 */
static bool blocks_fall_to(long long want)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; mt_sim() && i < 500; i++) {
		if (blocks() <= want)
			return true;
		nanosleep(&ts, NULL);
	}
	return !mt_sim();
}

/* The region, ib_core's fields: address NULL, length SIZE_MAX. */
MT_TEST_F(pair, caps_and_reg)
{
	struct ibv_mr *mr;
	int rc = implicit_check(self);

	if (rc != KSFT_PASS)
		return rc;
	mr = implicit(self->pd, ODP_ACCESS);
	if (!CHECK(mr))
		return KSFT_FAIL;
	CHECK(!mr->addr);
	CHECK_EQ(mr->length, SIZE_MAX);
	CHECK(mr->lkey == mr->rkey);
	CHECK_ERR(ibv_dereg_mr(mr), 0);
	/* ib_core follows no huge pages through an implicit region */
	errno = 0;
	mr = implicit(self->pd, ODP_ACCESS | IBV_ACCESS_HUGETLB);
	CHECK(!mr);
	CHECK_EQ(errno, EINVAL);
	if (mr)
		ibv_dereg_mr(mr);
	return KSFT_PASS;
}

/*
 * SEND from the heap into fresh pages across a span boundary, then
 * WRITE and READ between fresh mappings, all through the one region's
 * keys; each first touch faults.
 */
MT_TEST_F(pair, traffic)
{
	uint8_t *heap = malloc(3 * MT_PAGE + 100);
	uint8_t *a = fresh(3 * SPAN), *b = fresh(2 * SPAN);
	uint8_t *dst, back[2 * MT_PAGE];
	struct ibv_recv_wr rwr = { .wr_id = 3, .num_sge = 1 }, *bad;
	struct ibv_sge sge;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	long long f;
	int rc = implicit_on(self, ODP_ACCESS, &mr);

	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK(heap) || !a || !b)
		return KSFT_FAIL;
	fill(heap, 3 * MT_PAGE + 100, 1);
	/* the receive crosses from one span of @a into the next */
	dst = span_edge(a) - MT_PAGE - 11;
	sge = (struct ibv_sge){ (uintptr_t)dst, 3 * MT_PAGE, mr->lkey };
	rwr.sg_list = &sge;
	f = faults();
	if (!CHECK_ERR(ibv_post_recv(self->qp[1], &rwr, &bad), 0))
		return KSFT_FAIL;
	CHECK_EQ(odp_op(self, IBV_WR_SEND, mr->lkey, heap + 100, 3 * MT_PAGE,
			0, NULL, &wc), IBV_WC_SUCCESS);
	if (CHECK(poll_one(self->cq[1], &wc))) {
		CHECK_EQ(wc.status, IBV_WC_SUCCESS);
		CHECK_EQ(wc.byte_len, 3 * MT_PAGE);
	}
	CHECK(!memcmp(dst, heap + 100, 3 * MT_PAGE));
	CHECK(faulted(f));

	/* WRITE from @a into untouched pages of @b, READ it back into @a */
	f = faults();
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, mr->lkey, dst, 2 * MT_PAGE,
			mr->rkey, b + SPAN + 5, &wc), IBV_WC_SUCCESS);
	CHECK(!memcmp(b + SPAN + 5, dst, 2 * MT_PAGE));
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, mr->lkey, a + 7 * MT_PAGE,
			2 * MT_PAGE, mr->rkey, b + SPAN + 5, &wc),
		 IBV_WC_SUCCESS);
	memcpy(back, a + 7 * MT_PAGE, sizeof(back));
	CHECK(!memcmp(back, heap + 100, sizeof(back)));
	CHECK(faulted(f));

	/* fetch and add on a word of @b nobody touched */
	CHECK_EQ(odp_op(self, IBV_WR_ATOMIC_FETCH_AND_ADD, mr->lkey,
			a + 9 * MT_PAGE, 8, mr->rkey, b + 40 * MT_PAGE, &wc),
		 IBV_WC_SUCCESS);
	CHECK_EQ(*(uint64_t *)(b + 40 * MT_PAGE), 5);
	CHECK_EQ(*(uint64_t *)(a + 9 * MT_PAGE), 0);
	CHECK_ERR(ibv_dereg_mr(mr), 0);
	munmap(a, 3 * SPAN);
	munmap(b, 2 * SPAN);
	free(heap);
	return KSFT_PASS;
}

/*
 * The device reached a page; the process maps a new one in its place:
 * the device reads the new one.  Then it unmaps the range: a WRITE there
 * is a remote access error, and nothing of the range stays with the
 * device.
 */
MT_TEST_F(pair, remap_and_unmap)
{
	uint8_t *m = fresh(4 * SPAN), *out = self->buf;
	long long before = blocks();
	struct ibv_mr *mr;
	struct ibv_wc wc;
	int i, rc = implicit_on(self, ODP_ACCESS, &mr);

	if (rc != KSFT_PASS)
		return rc;
	if (!m)
		return KSFT_FAIL;
	fill(m + SPAN, MT_PAGE, 3);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, self->mr->lkey, out, MT_PAGE,
			mr->rkey, m + SPAN, &wc), IBV_WC_SUCCESS);
	CHECK(!memcmp(out, m + SPAN, MT_PAGE));
	if (!CHECK(mmap(m + SPAN, MT_PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		   m + SPAN))
		return KSFT_FAIL;
	fill(m + SPAN, 64, 9);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, self->mr->lkey, out, MT_PAGE,
			mr->rkey, m + SPAN, &wc), IBV_WC_SUCCESS);
	CHECK(!memcmp(out, m + SPAN, MT_PAGE));
	/* a page in each of the four spans: the device keeps four */
	for (i = 0; i < 4; i++)
		CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, self->mr->lkey, out,
				64, mr->rkey, m + i * SPAN + 64, &wc),
			 IBV_WC_SUCCESS);
	if (mt_sim())
		CHECK(blocks() >= before + 4);
	CHECK_ERR(munmap(m, 4 * SPAN), 0);
	CHECK(blocks_fall_to(before));
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, self->mr->lkey, out, 64,
			mr->rkey, m + SPAN, &wc), IBV_WC_REM_ACCESS_ERR);
	CHECK_ERR(ibv_dereg_mr(mr), 0);
	return KSFT_PASS;
}

/* An address never mapped, as the target of a WRITE: remote error. */
static int write_unmapped(struct pair *p, struct ibv_mr *mr)
{
	uint8_t *m = fresh(SPAN);
	struct ibv_wc wc;

	if (!m || !CHECK_ERR(munmap(m, SPAN), 0))
		return KSFT_FAIL;
	fill(p->buf, 256, 2);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf, 256,
			mr->rkey, m + 100, &wc), IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/* An address past the user address space, as a SEND's source. */
static int send_kernel(struct pair *p, struct ibv_mr *mr)
{
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(p, 3, 32768, 256), 0))
		return KSFT_FAIL;
	CHECK_EQ(odp_op(p, IBV_WR_SEND, mr->lkey, KERNEL_VA, 256, 0, NULL,
			&wc), IBV_WC_LOC_PROT_ERR);
	CHECK(!p->buf[32768]);
	return KSFT_PASS;
}

/* An address past the user address space, as a WRITE's target. */
static int write_kernel(struct pair *p, struct ibv_mr *mr)
{
	struct ibv_wc wc;

	fill(p->buf, 256, 2);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf, 256,
			mr->rkey, KERNEL_VA, &wc), IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

static int with_region(struct pair *p,
		       int (*fn)(struct pair *p, struct ibv_mr *mr))
{
	struct ibv_mr *mr;
	int rc = implicit_on(p, ODP_ACCESS, &mr);

	if (rc != KSFT_PASS)
		return rc;
	rc = fn(p, mr);
	CHECK_ERR(ibv_dereg_mr(mr), 0);
	return rc;
}

MT_TEST_F(pair, write_unmapped)
{
	return with_region(self, write_unmapped);
}

MT_TEST_F(pair, send_kernel)
{
	return with_region(self, send_kernel);
}

MT_TEST_F(pair, write_kernel)
{
	return with_region(self, write_kernel);
}

/* As nobody, in a process of its own: the same refusals, unprivileged. */
static int nobody(void *arg)
{
	int (*fn)(struct pair *p, struct ibv_mr *mr) = arg;
	struct pair p = {};
	int rc;

	if (pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7) != KSFT_PASS)
		return KSFT_FAIL;
	rc = with_region(&p, fn);
	return rc;
}

static int test_kernel_nobody(void)
{
	if (!kernel_has_odp())
		return mt_skip("the kernel has no on-demand paging");
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody, write_kernel), KSFT_PASS);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody, send_kernel), KSFT_PASS);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody, write_unmapped),
		 KSFT_PASS);
	return KSFT_PASS;
}

/*
 * No queue in an ODP umem.  The device writes a CQ's entries and reads
 * its doorbell record without taking page faults, so the umem of an ODP
 * region, explicit or implicit, which the context itself owns, is never
 * a CQ's buffer or doorbell record.  As nobody with a DEVX context: the
 * umem ids between two DEVX umems registered around the two regions
 * (theirs, and nothing else of the context's) are refused with
 * BAD_PARAM and BAD_FIELD, not as missing or foreign objects, while the
 * DEVX umem after them takes a CQ.
 */
static int odp_umem_child(void *arg)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4], out[4];
	struct mlx5dv_devx_umem *after = NULL;
	struct ibv_mr *mr[2] = {};
	struct mq *q = arg;
	struct mq_obj cq;
	uint8_t *m = NULL;
	struct ibv_pd *pd;
	void *buf = NULL;
	uint32_t id;
	int rc = KSFT_FAIL;

	if (mq_open(q))
		rc = odp_ctx_check(q->ctx);
	pd = rc == KSFT_PASS ? ibv_alloc_pd(q->ctx) : NULL;
	if (rc != KSFT_PASS || !CHECK(pd))
		goto out;
	mr[0] = odp_fresh_pd(pd, SPAN, &m);
	mr[1] = implicit(pd, ODP_ACCESS);
	if (CHECK(mr[0]) && CHECK(mr[1]) &&
	    CHECK_ERR(posix_memalign(&buf, MT_PAGE, MQ_BYTES), 0))
		after = mlx5dv_devx_umem_reg(q->ctx, buf, MQ_BYTES,
					     IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(after) || !CHECK(after->umem_id > q->umem->umem_id + 2))
		goto mrs;
	for (id = q->umem->umem_id + 1; id < after->umem_id; id++) {
		mq_cq_in(q, in);
		mt_set(in, CQ_UMEM_ID, id);
		mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM,
			   SYND_BAD_FIELD);
		mq_cq_in(q, in);
		mt_set(in, CQ_DBR_UMEM_ID, id);
		mq_refused(q, in, sizeof(in), MT_STAT_BAD_PARAM,
			   SYND_BAD_FIELD);
	}
	mq_cq_in(q, in);
	mt_set(in, CQ_UMEM_ID, after->umem_id);
	mt_set(in, CQ_DBR_UMEM_ID, after->umem_id);
	if (CHECK(mq_create(q, in, sizeof(in), &cq, out)))
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	CHECK_ERR(mlx5dv_devx_umem_dereg(after), 0);
mrs:
	for (id = 0; id < 2; id++)
		if (mr[id])
			CHECK_ERR(ibv_dereg_mr(mr[id]), 0);
	if (m && m != MAP_FAILED)
		munmap(m, SPAN);
	free(buf);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
	rc = KSFT_PASS;
out:
	mq_close(q);
	return rc;
}

static int test_odp_umem_nobody(void)
{
	struct mq q;

	if (!mt_sim())
		return mt_skip("the statuses checked are the model's");
	if (!kernel_has_odp())
		return mt_skip("the kernel has no on-demand paging");
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, odp_umem_child, &q), KSFT_PASS);
	return KSFT_PASS;
}

/*
 * ibv_advise_mr(3) on the region: a range of 600 pages over two spans
 * is made present; a WRITE into it then takes no fault.  A range the
 * process does not map, with FLUSH: EFAULT; without, best effort: 0.
 */
MT_TEST_F(pair, prefetch)
{
	uint8_t *m = fresh(3 * SPAN), *hole = fresh(SPAN);
	uint8_t *at;
	struct ibv_sge sge;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	long long f;
	int rc = implicit_on(self, ODP_ACCESS, &mr);

	if (rc != KSFT_PASS)
		return rc;
	if (!m || !hole || !CHECK_ERR(munmap(hole, SPAN), 0))
		return KSFT_FAIL;
	at = span_edge(m) - 300 * MT_PAGE;
	sge = (struct ibv_sge){ (uintptr_t)at, 600 * MT_PAGE, mr->lkey };
	CHECK_ERR(ibv_advise_mr(self->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
				IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1), 0);
	CHECK_EQ(resident(at, 600), 600);
	f = faults();
	fill(self->buf, 256, 4);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, self->mr->lkey, self->buf,
			256, mr->rkey, at + 299 * MT_PAGE + 4000, &wc),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(at + 299 * MT_PAGE + 4000, self->buf, 256));
	if (mt_sim())
		CHECK_EQ(faults(), f);
	sge = (struct ibv_sge){ (uintptr_t)hole, 4 * MT_PAGE, mr->lkey };
	CHECK_ERR(ibv_advise_mr(self->pd, IBV_ADVISE_MR_ADVICE_PREFETCH,
				IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1), EFAULT);
	CHECK_ERR(ibv_advise_mr(self->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0,
				&sge, 1), 0);
	CHECK_ERR(ibv_dereg_mr(mr), 0);
	munmap(m, 3 * SPAN);
	return KSFT_PASS;
}

/*
 * A region without local write: the device reads through it, never
 * writes: a receive into it is a local protection error.
 */
MT_TEST_F(pair, read_only)
{
	uint8_t *m = fresh(SPAN);
	struct ibv_recv_wr rwr = { .wr_id = 3, .num_sge = 1 }, *bad;
	struct ibv_sge sge;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	int rc = implicit_on(self, IBV_ACCESS_ON_DEMAND, &mr);

	if (rc != KSFT_PASS)
		return rc;
	if (!m)
		return KSFT_FAIL;
	fill(m, 256, 6);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, mr->lkey, m, 256,
			self->mr->rkey, self->buf + 4096, &wc),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(self->buf + 4096, m, 256));
	sge = (struct ibv_sge){ (uintptr_t)(m + MT_PAGE), 256, mr->lkey };
	rwr.sg_list = &sge;
	if (!CHECK_ERR(ibv_post_recv(self->qp[1], &rwr, &bad), 0))
		return KSFT_FAIL;
	CHECK_EQ(odp_op(self, IBV_WR_SEND, self->mr->lkey, self->buf, 256, 0,
			NULL, &wc), IBV_WC_REM_OP_ERR);
	if (CHECK(poll_one(self->cq[1], &wc)))
		CHECK_EQ(wc.status, IBV_WC_LOC_PROT_ERR);
	CHECK_ERR(ibv_dereg_mr(mr), 0);
	munmap(m, SPAN);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, caps_and_reg),
	MT_CASE_F(pair, traffic),
	MT_CASE_F(pair, remap_and_unmap),
	MT_CASE_F(pair, write_unmapped),
	MT_CASE_F(pair, send_kernel),
	MT_CASE_F(pair, write_kernel),
	MT_CASE(kernel_nobody, .flags = MT_NEEDS_ROOT),
	MT_CASE(odp_umem_nobody, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, prefetch),
	MT_CASE_F(pair, read_only),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
