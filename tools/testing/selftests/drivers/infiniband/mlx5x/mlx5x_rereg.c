// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_rereg_mr(3): "conceptually ... deregister memory region followed by
 * register memory region.  Where possible, resources are reused".  What
 * the region allows after it is what it was given: its new rights, its
 * new PD, its new range.  As on mlx5_ib, a new PD or new rights keep the
 * region's keys (a UMR rewrites its mkey), and a new range gives new
 * ones; either way the keys in the ibv_mr are the ones to use.  And no
 * re-registration lets the device write pages the process could not.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include "mlx5x_rc.h"

#define RD_ONLY		(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ)

/* A SEND of 256 bytes from A's half to B's; the status A's CQE gives. */
static int send_status(struct pair *p, uint32_t lkey)
{
	struct ibv_sge sge = { (uintptr_t)p->buf, 256, lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(p, 2, 32768, 256), 0) ||
	    !CHECK_ERR(ibv_post_send(p->qp[0], &wr, &bad), 0) ||
	    !CHECK(poll_one(p->cq[0], &wc)))
		return -1;
	return wc.status;
}

/*
 * New rights take effect at once on the same keys: without remote write
 * a WRITE to the rkey is a remote access error, a READ still works.
 */
MT_TEST_F(pair, access_in_place)
{
	uint32_t lkey = self->mr->lkey, rkey = self->mr->rkey;
	uint8_t *b = self->buf;

	fill(b + 40000, 512, 4);
	if (!CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_ACCESS,
				    NULL, NULL, 0, RD_ONLY), 0))
		return KSFT_FAIL;
	CHECK_EQ(self->mr->lkey, lkey);
	CHECK_EQ(self->mr->rkey, rkey);
	CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_READ, rkey, (uintptr_t)b + 40000,
			 lkey, (uintptr_t)b, 512), IBV_WC_SUCCESS);
	CHECK(!memcmp(b, b + 40000, 512));
	CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_WRITE, rkey, (uintptr_t)b + 50000,
			 lkey, (uintptr_t)b, 512), IBV_WC_REM_ACCESS_ERR);
	return KSFT_PASS;
}

/* The rights given back, the same rkey takes a WRITE again. */
MT_TEST_F(pair, access_restored)
{
	uint32_t rkey = self->mr->rkey;
	uint8_t *b = self->buf;

	fill(b, 512, 6);
	if (!CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_ACCESS,
				    NULL, NULL, 0, RD_ONLY), 0) ||
	    !CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_ACCESS,
				    NULL, NULL, 0, ALL_ACCESS), 0))
		return KSFT_FAIL;
	CHECK_EQ(self->mr->rkey, rkey);
	CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_WRITE, rkey, (uintptr_t)b + 50000,
			 self->mr->lkey, (uintptr_t)b, 512), IBV_WC_SUCCESS);
	CHECK(!memcmp(b + 50000, b, 512));
	return KSFT_PASS;
}

/*
 * On another PD, the region is no longer the QPs': a SEND from it is a
 * local protection error.  Back on theirs (a new pair: the first is in
 * error), it works, with the keys it always had.
 */
MT_TEST_F(pair, pd_in_place)
{
	struct ibv_pd *other = ibv_alloc_pd(self->c.ctx);
	uint32_t lkey = self->mr->lkey;
	int rc;

	if (!CHECK(other))
		return KSFT_FAIL;
	if (CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_PD, other,
				   NULL, 0, 0), 0)) {
		CHECK_EQ(self->mr->lkey, lkey);
		CHECK_EQ(self->mr->pd, other);
		CHECK_EQ(send_status(self, lkey), IBV_WC_LOC_PROT_ERR);
		CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_PD,
				       self->pd, NULL, 0, 0), 0);
	}
	/* the PD goes once no region is on it */
	CHECK_ERR(ibv_dealloc_pd(other), 0);
	pair_teardown(self);
	memset(self, 0, sizeof(*self));
	rc = pair_open(self, IBV_QPT_RC, ALL_ACCESS, 7);
	if (rc != KSFT_PASS)
		return rc;
	other = ibv_alloc_pd(self->c.ctx);
	if (!CHECK(other))
		return KSFT_FAIL;
	lkey = self->mr->lkey;
	if (CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_PD, other,
				   NULL, 0, 0), 0) &&
	    CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_PD,
				   self->pd, NULL, 0, 0), 0)) {
		CHECK_EQ(self->mr->lkey, lkey);
		CHECK_EQ(send_status(self, lkey), IBV_WC_SUCCESS);
	}
	CHECK_ERR(ibv_dealloc_pd(other), 0);
	return KSFT_PASS;
}

/*
 * A new range: the region covers the new bytes (through the keys
 * ibv_rereg_mr() leaves in the ibv_mr), and no longer the old ones.
 */
MT_TEST_F(pair, translation)
{
	uint8_t *b = self->buf;
	uint8_t *other = aligned_alloc(MT_PAGE, 2 * MT_PAGE);

	if (!CHECK(other))
		return KSFT_FAIL;
	fill(other, 2 * MT_PAGE, 8);
	if (CHECK_ERR(ibv_rereg_mr(self->mr, IBV_REREG_MR_CHANGE_TRANSLATION,
				   NULL, other, 2 * MT_PAGE, 0), 0)) {
		CHECK_EQ((uintptr_t)self->mr->addr, (uintptr_t)other);
		CHECK_EQ(self->mr->length, 2 * MT_PAGE);
		/* A reads B's new range into its own, through the MR */
		CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_READ, self->mr->rkey,
				 (uintptr_t)other + MT_PAGE, self->mr->lkey,
				 (uintptr_t)other, 512), IBV_WC_SUCCESS);
		CHECK(!memcmp(other, other + MT_PAGE, 512));
		/* the old range is outside the region */
		CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_READ, self->mr->rkey,
				 (uintptr_t)b + 4096, self->mr->lkey,
				 (uintptr_t)other, 64), IBV_WC_REM_ACCESS_ERR);
	}
	/* the MR names other's pages until it goes */
	CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	self->mr = NULL;
	free(other);
	return KSFT_PASS;
}

/*
 * An on-demand paging MR takes a new range as a pinned one does: the
 * region then covers the new bytes (mlx5_ib registers it anew), which the
 * device pages in when it first touches them.
 */
MT_TEST_F(pair, odp_translation)
{
	const int rights = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
			   IBV_ACCESS_ON_DEMAND;
	struct ibv_device_attr_ex attr = {};
	uint8_t *a = aligned_alloc(MT_PAGE, 2 * MT_PAGE);
	uint8_t *b = aligned_alloc(MT_PAGE, 2 * MT_PAGE);
	struct ibv_mr *mr = NULL;

	if (ibv_query_device_ex(self->c.ctx, NULL, &attr) ||
	    !(attr.odp_caps.general_caps & IBV_ODP_SUPPORT) ||
	    !(attr.odp_caps.per_transport_caps.rc_odp_caps &
	      IBV_ODP_SUPPORT_READ)) {
		free(a);
		free(b);
		mt_diag("the device pages no RC READ on demand (odp_caps)");
		return KSFT_SKIP;
	}
	if (!CHECK(a) || !CHECK(b))
		goto out;
	fill(a, 2 * MT_PAGE, 3);
	fill(b, 2 * MT_PAGE, 9);
	mr = ibv_reg_mr(self->pd, a, 2 * MT_PAGE, rights);
	if (!CHECK(mr) ||
	    !CHECK_ERR(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL,
				    b, 2 * MT_PAGE, 0), 0))
		goto out;
	CHECK_EQ((uintptr_t)mr->addr, (uintptr_t)b);
	/* B's second page read into its first, both through the MR */
	CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_READ, mr->rkey,
			 (uintptr_t)b + MT_PAGE, mr->lkey, (uintptr_t)b, 512),
		 IBV_WC_SUCCESS);
	CHECK(!memcmp(b, b + MT_PAGE, 512));
	/* A's pages are outside the region now */
	CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_READ, mr->rkey, (uintptr_t)a,
			 mr->lkey, (uintptr_t)b, 64), IBV_WC_REM_ACCESS_ERR);
out:
	if (mr)
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	free(a);
	free(b);
	return KSFT_PASS;
}

/* A file only root may write: what no process of another user may. */
static char ro_path[64];

static int ro_attacker(void *unused)
{
	struct mt_ctx c = {};
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	void *map;
	int fd, rc;

	(void)unused;
	if (!mt_ctx_open(&c, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	fd = open(ro_path, O_RDONLY);
	pd = ibv_alloc_pd(c.ctx);
	/* the page cache's pages themselves, until the process writes */
	map = mmap(NULL, MT_PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	if (!CHECK(fd >= 0) || !CHECK(pd) || !CHECK(map != MAP_FAILED))
		return KSFT_FAIL;
	/* the pages can be read: a region may read them */
	mr = ibv_reg_mr(pd, map, MT_PAGE, 0);
	if (!mr)
		mt_diag("ibv_reg_mr: errno %d", errno);
	if (CHECK(mr)) {
		/* and not be written, whatever the rights asked after */
		rc = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
				  IBV_ACCESS_LOCAL_WRITE |
				  IBV_ACCESS_REMOTE_WRITE);
		CHECK(rc != 0);
		rc = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
				  IBV_ACCESS_LOCAL_WRITE);
		CHECK(rc != 0);
		CHECK_ERR(ibv_dereg_mr(mr), 0);
	}
	munmap(map, MT_PAGE);
	close(fd);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
	mt_ctx_close(&c);
	return KSFT_PASS;
}

/*
 * A process registers a file it may only read, read-only, then asks for
 * write rights: refused, as registering it writable is (its pages were
 * pinned for reading); the file is as it was.
 */
MT_TEST_F(pair, read_only_pages_stay)
{
	char page[MT_PAGE], now[MT_PAGE];
	int fd;

	(void)self;	/* the pair's context: the device is there */
	fill((uint8_t *)page, sizeof(page), 11);
	snprintf(ro_path, sizeof(ro_path), "/tmp/mlx5x_rereg_ro.%d", getpid());
	fd = open(ro_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (!CHECK(fd >= 0) ||
	    !CHECK_EQ(write(fd, page, sizeof(page)), sizeof(page)))
		return KSFT_FAIL;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, ro_attacker, NULL), KSFT_PASS);
	CHECK_EQ(pread(fd, now, sizeof(now), 0), sizeof(now));
	CHECK(!memcmp(page, now, sizeof(page)));
	close(fd);
	unlink(ro_path);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, access_in_place),
	MT_CASE_F(pair, access_restored),
	MT_CASE_F(pair, pd_in_place),
	MT_CASE_F(pair, translation),
	MT_CASE_F(pair, odp_translation),
	MT_CASE_F(pair, read_only_pages_stay, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
