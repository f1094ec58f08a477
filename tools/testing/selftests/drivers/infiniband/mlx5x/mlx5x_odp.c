// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging, as ibv_reg_mr(3) describes IBV_ACCESS_ON_DEMAND: the
 * region's pages are not pinned; the device reaches what the process
 * maps at the time of the access.  So RC traffic works on ODP regions on
 * both sides, pages first touched by the device included; a range the
 * process unmapped is an access error (never a hang, never the old
 * pages); a range mapped anew or copied on write after fork() is seen
 * as it is now.  ibv_query_device_ex(3) advertises it for RC, XRC, UD.
 * ibv_advise_mr(3) prefetches ranges of ODP regions, or refuses them
 * with its errnos.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/wait.h>
#include "mlx5x_odp.h"

#define ODP_BYTES	(64 * MT_PAGE)

/* Fresh anonymous pages, never touched, registered ODP on @p's PD. */
static struct ibv_mr *odp_region(struct pair *p, uint8_t **mem)
{
	return odp_fresh(p, ODP_BYTES, mem);
}

/* B posts a receive of @len bytes at @addr of @mr. */
static int odp_recv(struct pair *p, struct ibv_mr *mr, void *addr,
		    uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = 3, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(p->qp[1], &wr, &bad);
}

/*
 * @fn on a fresh ODP region of @p, with its pages 8 to 11 unmapped if
 * @hole; then the region goes.
 */
static int on_region(struct pair *p, bool hole,
		     int (*fn)(struct pair *p, struct ibv_mr *mr, uint8_t *m))
{
	struct ibv_mr *mr;
	uint8_t *m;
	int rc = odp_check(p);

	if (rc != KSFT_PASS)
		return rc;
	mr = odp_region(p, &m);
	if (!CHECK(mr))
		return KSFT_FAIL;
	if (!hole || CHECK_ERR(munmap(m + 8 * MT_PAGE, 4 * MT_PAGE), 0))
		rc = fn(p, mr, m);
	else
		rc = KSFT_FAIL;
	ibv_dereg_mr(mr);
	munmap(m, ODP_BYTES);
	return rc;
}

/*
 * The device says what it does: ODP on RC (an SRQ's receives too), XRC
 * and UD (send and receive); implicit ODP is mlx5x_odp_implicit's.
 */
MT_TEST_F(pair, caps)
{
	struct ibv_device_attr_ex a = {};
	int rc = odp_check(self);

	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK_ERR(ibv_query_device_ex(self->c.ctx, NULL, &a), 0))
		return KSFT_FAIL;
	CHECK_EQ(a.odp_caps.per_transport_caps.rc_odp_caps & RC_ALL, RC_ALL);
	CHECK_EQ(a.xrc_odp_caps & XRC_ALL, XRC_ALL);
	CHECK_EQ(a.odp_caps.per_transport_caps.ud_odp_caps,
		 IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV);
	return KSFT_PASS;
}

/*
 * SEND from an ODP region into one whose pages only the device ever
 * touched, then RDMA WRITE and READ between two ODP regions, across page
 * boundaries.
 */
MT_TEST_F(pair, rc_traffic)
{
	uint8_t *src, *dst;
	struct ibv_mr *ms = odp_region(self, &src);
	struct ibv_mr *md = odp_region(self, &dst);
	struct ibv_wc wc;
	uint8_t back[3 * MT_PAGE];
	int rc = odp_check(self);

	if (rc != KSFT_PASS)
		return rc;

	if (!CHECK(ms) || !CHECK(md))
		return KSFT_FAIL;
	fill(src + 100, 3 * MT_PAGE, 1);
	if (!CHECK_ERR(odp_recv(self, md, dst + 5 * MT_PAGE + 7, 3 * MT_PAGE), 0))
		return KSFT_FAIL;
	CHECK_EQ(odp_op(self, IBV_WR_SEND, ms->lkey, src + 100, 3 * MT_PAGE,
			0, NULL, &wc), IBV_WC_SUCCESS);
	if (CHECK(poll_one(self->cq[1], &wc))) {
		CHECK_EQ(wc.status, IBV_WC_SUCCESS);
		CHECK_EQ(wc.byte_len, 3 * MT_PAGE);
	}
	CHECK(!memcmp(dst + 5 * MT_PAGE + 7, src + 100, 3 * MT_PAGE));

	/* WRITE into pages of @dst nobody touched yet */
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, ms->lkey, src + 100,
			2 * MT_PAGE, md->rkey, dst + 20 * MT_PAGE + 9, &wc),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(dst + 20 * MT_PAGE + 9, src + 100, 2 * MT_PAGE));

	/* READ it back into untouched pages of @src */
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, ms->lkey, src + 40 * MT_PAGE,
			2 * MT_PAGE, md->rkey, dst + 20 * MT_PAGE + 9, &wc),
		 IBV_WC_SUCCESS);
	memcpy(back, src + 40 * MT_PAGE, 2 * MT_PAGE);
	CHECK(!memcmp(back, src + 100, 2 * MT_PAGE));
	ibv_dereg_mr(ms);
	ibv_dereg_mr(md);
	munmap(src, ODP_BYTES);
	munmap(dst, ODP_BYTES);
	return KSFT_PASS;
}

/* Fetch and add on untouched ODP pages, both sides: done once each. */
MT_TEST_F(pair, atomic_once)
{
	uint8_t *m;
	struct ibv_mr *mr = odp_region(self, &m);
	uint64_t *target, *result;
	struct ibv_wc wc;
	int rc = odp_check(self);

	if (rc != KSFT_PASS)
		return rc;

	if (!CHECK(mr))
		return KSFT_FAIL;
	target = (uint64_t *)(m + 30 * MT_PAGE);
	result = (uint64_t *)(m + 50 * MT_PAGE);
	CHECK_EQ(odp_op(self, IBV_WR_ATOMIC_FETCH_AND_ADD, mr->lkey, result, 8,
			mr->rkey, target, &wc), IBV_WC_SUCCESS);
	CHECK_EQ(*result, 0);
	CHECK_EQ(*target, 5);
	CHECK_EQ(odp_op(self, IBV_WR_ATOMIC_FETCH_AND_ADD, mr->lkey, result, 8,
			mr->rkey, target, &wc), IBV_WC_SUCCESS);
	CHECK_EQ(*result, 5);
	CHECK_EQ(*target, 10);
	ibv_dereg_mr(mr);
	munmap(m, ODP_BYTES);
	return KSFT_PASS;
}

/*
 * The device reached a page; the process maps a new one in its place
 * (the old one goes): the device reads the new one, never the old.
 */
MT_TEST_F(pair, remap_seen)
{
	uint8_t *m, *page;
	struct ibv_mr *mr = odp_region(self, &m);
	uint8_t *out = self->buf;
	struct ibv_wc wc;
	int rc = odp_check(self);

	if (rc != KSFT_PASS)
		return rc;

	if (!CHECK(mr))
		return KSFT_FAIL;
	page = m + 10 * MT_PAGE;
	fill(page, MT_PAGE, 3);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, self->mr->lkey, out, MT_PAGE,
			mr->rkey, page, &wc), IBV_WC_SUCCESS);
	CHECK(!memcmp(out, page, MT_PAGE));
	if (!CHECK(mmap(page, MT_PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == page))
		return KSFT_FAIL;
	fill(page, 64, 9);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, self->mr->lkey, out, MT_PAGE,
			mr->rkey, page, &wc), IBV_WC_SUCCESS);
	CHECK(!memcmp(out, page, MT_PAGE));
	ibv_dereg_mr(mr);
	munmap(m, ODP_BYTES);
	return KSFT_PASS;
}

/*
 * After fork(), the parent's pages are shared copy-on-write; the parent
 * writes (and so gets its own copy): the device reads the parent's new
 * bytes, and writes where the parent will read them.
 */
MT_TEST_F(pair, fork_cow)
{
	uint8_t *m;
	struct ibv_mr *mr = odp_region(self, &m);
	uint8_t *out = self->buf;
	struct ibv_wc wc;
	pid_t pid;
	int st;
	int rc = odp_check(self);

	if (rc != KSFT_PASS)
		return rc;

	if (!CHECK(mr))
		return KSFT_FAIL;
	fill(m, MT_PAGE, 4);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, self->mr->lkey, out, MT_PAGE,
			mr->rkey, m, &wc), IBV_WC_SUCCESS);
	pid = fork();
	if (pid == 0)
		_exit(m[0] == 4 ? 0 : 1);
	if (!CHECK(pid > 0) || !CHECK(waitpid(pid, &st, 0) == pid))
		return KSFT_FAIL;
	CHECK(WIFEXITED(st) && !WEXITSTATUS(st));
	fill(m, MT_PAGE, 8);	/* the parent's own copy now */
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_READ, self->mr->lkey, out, MT_PAGE,
			mr->rkey, m, &wc), IBV_WC_SUCCESS);
	CHECK(!memcmp(out, m, MT_PAGE));
	fill(out, MT_PAGE, 12);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, self->mr->lkey, out, MT_PAGE,
			mr->rkey, m + MT_PAGE, &wc), IBV_WC_SUCCESS);
	CHECK(!memcmp(out, m + MT_PAGE, MT_PAGE));
	ibv_dereg_mr(mr);
	munmap(m, ODP_BYTES);
	return KSFT_PASS;
}

/*
 * A range of the region the process unmapped: a WRITE to it is a remote
 * access error, a SEND from it a local protection error; the QP in
 * error, no hang, nothing written anywhere.
 */
static int unmapped_write(struct pair *p, struct ibv_mr *mr, uint8_t *m)
{
	struct ibv_wc wc;

	fill(p->buf, 256, 2);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf, 256,
			mr->rkey, m + 9 * MT_PAGE, &wc), IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

static int unmapped_send(struct pair *p, struct ibv_mr *mr, uint8_t *m)
{
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(p, 3, 32768, 256), 0))
		return KSFT_FAIL;
	CHECK_EQ(odp_op(p, IBV_WR_SEND, mr->lkey, m + 8 * MT_PAGE, 256, 0,
			NULL, &wc), IBV_WC_LOC_PROT_ERR);
	/* B's receive buffer: untouched */
	CHECK(!p->buf[32768]);
	return KSFT_PASS;
}

MT_TEST_F(pair, unmapped_write)
{
	return on_region(self, true, unmapped_write);
}

MT_TEST_F(pair, unmapped_send)
{
	return on_region(self, true, unmapped_send);
}

/* The same as nobody, in a process of its own: no privilege needed. */
static int nobody_unmapped(void *arg)
{
	struct pair p = {};

	(void)arg;
	if (pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7) != KSFT_PASS)
		return KSFT_FAIL;
	return on_region(&p, true, unmapped_write);
}

static int test_unmapped_nobody(void)
{
	if (!kernel_has_odp())
		return mt_skip("the kernel has no on-demand paging");
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody_unmapped, NULL), KSFT_PASS);
	return KSFT_PASS;
}

/*
 * ibv_advise_mr(3): a prefetch makes the pages present, for the CPU
 * (mincore(2)) and for the device: the model's fault counter does not
 * move when the device then reaches them. As on hardware, with no
 * model to count faults, the residency and the data are what is checked.
 */
#define BIG_PAGES	600	/* more than the driver maps at once */

/* ibv_advise_mr() of one range. */
static int advise(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		  uint32_t flags, uint32_t lkey, void *addr, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)addr, len, lkey };

	return ibv_advise_mr(pd, advice, flags, &sge, 1);
}

/*
 * A WRITE into untouched pages faults (the counter counts); into pages
 * prefetched for writing with FLUSH, it does not.
 */
static int prefetch_write(struct pair *p, struct ibv_mr *mr, uint8_t *m)
{
	struct ibv_wc wc;
	long long f;

	f = faults();
	fill(p->buf, 2 * MT_PAGE, 3);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf,
			2 * MT_PAGE, mr->rkey, m, &wc), IBV_WC_SUCCESS);
	CHECK(faulted(f));

	CHECK_EQ(resident(m + 16 * MT_PAGE, 2), 0);
	CHECK_ERR(advise(p->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
			 IBV_ADVISE_MR_FLAG_FLUSH, mr->lkey, m + 16 * MT_PAGE,
			 2 * MT_PAGE), 0);
	CHECK_EQ(resident(m + 16 * MT_PAGE, 2), 2);
	f = faults();
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf,
			2 * MT_PAGE, mr->rkey, m + 16 * MT_PAGE, &wc),
		 IBV_WC_SUCCESS);
	CHECK_EQ(faults(), f);
	CHECK(!memcmp(m + 16 * MT_PAGE, p->buf, 2 * MT_PAGE));
	return KSFT_PASS;
}

MT_TEST_F(pair, prefetch_write)
{
	return on_region(self, false, prefetch_write);
}

/*
 * PREFETCH gives the pages for reading only: a READ of them takes no
 * fault, a WRITE into them does (and then lands).
 */
static int prefetch_read(struct pair *p, struct ibv_mr *mr, uint8_t *m)
{
	uint8_t zero[MT_PAGE] = {};
	struct ibv_wc wc;
	long long f;

	CHECK_ERR(advise(p->pd, IBV_ADVISE_MR_ADVICE_PREFETCH,
			 IBV_ADVISE_MR_FLAG_FLUSH, mr->lkey, m, 2 * MT_PAGE), 0);
	CHECK_EQ(resident(m, 2), 2);
	f = faults();
	fill(p->buf, MT_PAGE, 5);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_READ, p->mr->lkey, p->buf,
			MT_PAGE, mr->rkey, m, &wc), IBV_WC_SUCCESS);
	CHECK_EQ(faults(), f);
	CHECK(!memcmp(p->buf, zero, MT_PAGE));
	fill(p->buf, MT_PAGE, 6);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf,
			MT_PAGE, mr->rkey, m + MT_PAGE, &wc), IBV_WC_SUCCESS);
	CHECK(faulted(f));
	CHECK(!memcmp(m + MT_PAGE, p->buf, MT_PAGE));
	return KSFT_PASS;
}

MT_TEST_F(pair, prefetch_read)
{
	return on_region(self, false, prefetch_read);
}

/*
 * PREFETCH_NO_FAULT gives the device the page the process wrote, and
 * faults nothing in: the untouched page stays absent, for the CPU and
 * the device.
 */
static int prefetch_no_fault(struct pair *p, struct ibv_mr *mr, uint8_t *m)
{
	struct ibv_wc wc;
	long long f;

	m[0] = 1;
	CHECK_ERR(advise(p->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT,
			 IBV_ADVISE_MR_FLAG_FLUSH, mr->lkey, m, 2 * MT_PAGE), 0);
	CHECK_EQ(resident(m, 2), 1);
	f = faults();
	fill(p->buf, 2 * MT_PAGE, 7);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey, p->buf,
			MT_PAGE, mr->rkey, m, &wc), IBV_WC_SUCCESS);
	CHECK_EQ(faults(), f);
	CHECK_EQ(odp_op(p, IBV_WR_RDMA_WRITE, p->mr->lkey,
			p->buf + MT_PAGE, MT_PAGE, mr->rkey, m + MT_PAGE,
			&wc), IBV_WC_SUCCESS);
	CHECK(faulted(f));
	CHECK(!memcmp(m, p->buf, 2 * MT_PAGE));
	return KSFT_PASS;
}

MT_TEST_F(pair, prefetch_no_fault)
{
	return on_region(self, false, prefetch_no_fault);
}

/* A range of more pages than the driver maps at once: all of it. */
MT_TEST_F(pair, prefetch_big)
{
	size_t len = (size_t)BIG_PAGES * MT_PAGE;
	uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ibv_mr *mr;
	struct ibv_wc wc;
	long long f;
	int rc = odp_check(self);

	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK(m != MAP_FAILED))
		return KSFT_FAIL;
	mr = ibv_reg_mr(self->pd, m, len, ODP_ACCESS);
	if (!CHECK(mr))
		return KSFT_FAIL;
	CHECK_ERR(advise(self->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
			 IBV_ADVISE_MR_FLAG_FLUSH, mr->lkey, m + 100, len - 100),
		  0);
	CHECK_EQ(resident(m, BIG_PAGES), BIG_PAGES);
	f = faults();
	fill(self->buf, MT_PAGE, 9);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, self->mr->lkey, self->buf,
			MT_PAGE, mr->rkey, m + len - MT_PAGE, &wc),
		 IBV_WC_SUCCESS);
	CHECK_EQ(odp_op(self, IBV_WR_RDMA_WRITE, self->mr->lkey, self->buf,
			MT_PAGE, mr->rkey, m, &wc), IBV_WC_SUCCESS);
	CHECK_EQ(faults(), f);
	CHECK(!memcmp(m + len - MT_PAGE, self->buf, MT_PAGE));
	ibv_dereg_mr(mr);
	munmap(m, len);
	return KSFT_PASS;
}

/*
 * What ibv_advise_mr(3) refuses, with its errnos: an lkey of no ODP
 * region (ENOENT), of another PD's or a write prefetch of a read-only
 * one (EPERM), a range outside the region or not mapped (EFAULT), flags
 * or no range at all (EINVAL), an advice not known (EOPNOTSUPP).
 * Without FLUSH, prefetch is best effort: a range not mapped is no error.
 */
static int refused(struct pair *p, struct ibv_mr *mr, uint8_t *m)
{
	struct ibv_pd *pd2 = ibv_alloc_pd(p->c.ctx);
	struct ibv_mr *ro = ibv_reg_mr(p->pd, m + 32 * MT_PAGE, 8 * MT_PAGE,
				       IBV_ACCESS_ON_DEMAND);
	struct ibv_mr *other = pd2 ? ibv_reg_mr(pd2, m + 40 * MT_PAGE,
						8 * MT_PAGE, ODP_ACCESS) : NULL;
	const int pf = IBV_ADVISE_MR_ADVICE_PREFETCH;
	const int fl = IBV_ADVISE_MR_FLAG_FLUSH;
	struct ibv_sge sge = { (uintptr_t)m, MT_PAGE, mr->lkey };

	if (!CHECK(pd2) || !CHECK(ro) || !CHECK(other))
		return KSFT_FAIL;
	CHECK_ERR(advise(p->pd, pf, fl, p->mr->lkey, p->buf, 64), ENOENT);
	CHECK_ERR(advise(p->pd, pf, fl, mr->lkey ^ 0x80, m, 64), ENOENT);
	CHECK_ERR(advise(p->pd, pf, fl, other->lkey, m + 40 * MT_PAGE, 64),
		  EPERM);
	CHECK_ERR(advise(p->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, fl,
			 ro->lkey, m + 32 * MT_PAGE, 64), EPERM);
	CHECK_ERR(advise(p->pd, pf, fl, ro->lkey, m + 32 * MT_PAGE, 64), 0);
	CHECK_ERR(advise(p->pd, pf, fl, mr->lkey, m + ODP_BYTES - 100, 200),
		  EFAULT);
	CHECK_ERR(advise(p->pd, pf, fl, mr->lkey, m - MT_PAGE, 64), EFAULT);
	CHECK_ERR(advise(p->pd, pf, fl, mr->lkey, m, UINT32_MAX), EFAULT);
	CHECK_ERR(advise(p->pd, pf, fl << 1, mr->lkey, m, 64), EINVAL);
	CHECK_ERR(ibv_advise_mr(p->pd, pf, fl, &sge, 0), EINVAL);
	CHECK_ERR(advise(p->pd, 3, fl, mr->lkey, m, 64), EOPNOTSUPP);
	/* the hole the process unmapped */
	CHECK_ERR(advise(p->pd, pf, fl, mr->lkey, m + 6 * MT_PAGE,
			 4 * MT_PAGE), EFAULT);
	CHECK_ERR(advise(p->pd, pf, 0, mr->lkey, m + 6 * MT_PAGE,
			 4 * MT_PAGE), 0);
	CHECK_ERR(advise(p->pd, pf, 0, mr->lkey, m - MT_PAGE, 64), EFAULT);
	ibv_dereg_mr(other);
	ibv_dereg_mr(ro);
	ibv_dealloc_pd(pd2);
	return KSFT_PASS;
}

MT_TEST_F(pair, prefetch_refused)
{
	return on_region(self, true, refused);
}

/* Another user's ODP region, by its lkey and address. */
struct foreign {
	uint32_t lkey;
	uint8_t *addr;
};

/*
 * As nobody, in a context of its own: its own region prefetches; the
 * root process's is refused (EPERM: not its PD).
 */
static int nobody_prefetch(void *arg)
{
	const struct foreign *f = arg;
	struct pair p = {};
	uint8_t *m;
	struct ibv_mr *mr;

	if (pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7) != KSFT_PASS ||
	    odp_check(&p) != KSFT_PASS)
		return KSFT_FAIL;
	mr = odp_region(&p, &m);
	if (!CHECK(mr))
		return KSFT_FAIL;
	CHECK_ERR(advise(p.pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
			 IBV_ADVISE_MR_FLAG_FLUSH, mr->lkey, m, 4 * MT_PAGE), 0);
	CHECK_EQ(resident(m, 4), 4);
	CHECK_ERR(advise(p.pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
			 IBV_ADVISE_MR_FLAG_FLUSH, f->lkey, f->addr,
			 4 * MT_PAGE), EPERM);
	return KSFT_PASS;
}

/* ... and the root process's pages stay as they were: absent. */
MT_TEST_F(pair, prefetch_nobody)
{
	struct foreign f;
	struct ibv_mr *mr = odp_region(self, &f.addr);
	int rc = odp_check(self);

	if (rc != KSFT_PASS)
		return rc;
	if (!CHECK(mr))
		return KSFT_FAIL;
	f.lkey = mr->lkey;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody_prefetch, &f), KSFT_PASS);
	CHECK_EQ(resident(f.addr, 4), 0);
	ibv_dereg_mr(mr);
	munmap(f.addr, ODP_BYTES);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, caps),
	MT_CASE_F(pair, rc_traffic),
	MT_CASE_F(pair, atomic_once),
	MT_CASE_F(pair, remap_seen),
	MT_CASE_F(pair, fork_cow),
	MT_CASE_F(pair, prefetch_write, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, prefetch_read, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, prefetch_no_fault, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, prefetch_big, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, prefetch_refused),
	MT_CASE_F(pair, prefetch_nobody, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, unmapped_write),
	MT_CASE_F(pair, unmapped_send),
	MT_CASE(unmapped_nobody, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
