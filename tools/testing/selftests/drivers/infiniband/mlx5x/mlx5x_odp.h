/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the on-demand paging tests share (mlx5x_odp*.c):
 * whether the device offers ODP, one RC operation of the pair's A, the
 * pages present, and the model's count of page faults.
 */
#ifndef MLX5X_ODP_H
#define MLX5X_ODP_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "mlx5x_rc.h"

#define ODP_ACCESS	(ALL_ACCESS | IBV_ACCESS_ON_DEMAND)
#define RC_ALL		(IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV | \
			 IBV_ODP_SUPPORT_WRITE | IBV_ODP_SUPPORT_READ | \
			 IBV_ODP_SUPPORT_ATOMIC | IBV_ODP_SUPPORT_SRQ_RECV)
#define XRC_ALL		(IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_SRQ_RECV | \
			 IBV_ODP_SUPPORT_WRITE | IBV_ODP_SUPPORT_READ | \
			 IBV_ODP_SUPPORT_ATOMIC)

/* Whether the running kernel's ib_core has on-demand paging at all. */
static inline bool kernel_has_odp(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256];
	bool has = false;

	if (!f)
		return true;	/* cannot tell: expect it */
	while (!has && fgets(line, sizeof(line), f))
		has = strstr(line, " ib_umem_odp_map_dma_and_lock") != NULL;
	fclose(f);
	return has;
}

/*
 * KSFT_PASS when the device offers ODP on RC; a skip on a kernel built
 * without it (CONFIG_INFINIBAND_ON_DEMAND_PAGING); a failure when the
 * kernel has it and the device does not say so.
 */
static inline int odp_ctx_check(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex a = {};

	if (!CHECK_ERR(ibv_query_device_ex(ctx, NULL, &a), 0))
		return KSFT_FAIL;
	if (a.odp_caps.general_caps & IBV_ODP_SUPPORT)
		return KSFT_PASS;
	if (!CHECK(!kernel_has_odp()))
		return KSFT_FAIL;
	return mt_skip("the kernel has no on-demand paging");
}

static inline int odp_check(struct pair *p)
{
	return odp_ctx_check(p->c.ctx);
}

/* The pair's context, PD and buffer, on a device that offers ODP. */
static inline int odp_pair_open(struct pair *p)
{
	int rc = pair_mem_open(p, BUF_BYTES);

	return rc == KSFT_PASS ? odp_check(p) : rc;
}

/*
 * @len bytes of fresh anonymous pages, never touched, at *@mem
 * (MAP_FAILED if none), registered ODP on @pd: the MR, or NULL.
 */
static inline struct ibv_mr *odp_fresh_pd(struct ibv_pd *pd, size_t len,
					  uint8_t **mem)
{
	struct ibv_mr *mr;

	*mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(*mem != MAP_FAILED))
		return NULL;
	mr = ibv_reg_mr(pd, *mem, len, ODP_ACCESS);
	if (!mr)
		mt_diag("ibv_reg_mr(ON_DEMAND): errno %d", errno);
	return mr;
}

/* odp_fresh_pd() on @p's PD. */
static inline struct ibv_mr *odp_fresh(struct pair *p, size_t len,
				       uint8_t **mem)
{
	return odp_fresh_pd(p->pd, len, mem);
}

/* How many of the @n pages at @m the process has present (mincore). */
static inline int resident(void *m, int n)
{
	unsigned char v[1024];
	int i, r = 0;

	if (n > 1024 || mincore(m, (size_t)n * MT_PAGE, v))
		return -1;
	for (i = 0; i < n; i++)
		r += v[i] & 1;
	return r;
}

/* A's one-SGE @op with @lkey at @laddr, to @rkey at @raddr: its CQE. */
static inline int odp_op(struct pair *p, enum ibv_wr_opcode op,
			 uint32_t lkey, void *laddr, uint32_t len,
			 uint32_t rkey, void *raddr, struct ibv_wc *wc)
{
	struct ibv_sge sge = { (uintptr_t)laddr, len, lkey };
	struct ibv_send_wr wr = {
		.wr_id = 9, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = (uintptr_t)raddr, .rkey = rkey },
	}, *bad;

	if (op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.remote_addr = (uintptr_t)raddr;
		wr.wr.atomic.rkey = rkey;
		wr.wr.atomic.compare_add = 5;
	}
	if (!CHECK_ERR(ibv_post_send(p->qp[0], &wr, &bad), 0) ||
	    !CHECK(poll_one(p->cq[0], wc)))
		return -1;
	return wc->status;
}

/*
 * The model's count of device page faults; fails the case if the model
 * has none. As on hardware (no model) there is no counter: -1.
 */
static inline long long faults(void)
{
	long long n;

	if (!mt_sim())
		return -1;
	n = mt_fw_stat("odp_faults");
	CHECK(n >= 0);
	return n;
}

/* Whether the device faulted since faults() said @f; as on hardware, yes. */
static inline bool faulted(long long f)
{
	return !mt_sim() || faults() > f;
}

#endif /* MLX5X_ODP_H */
