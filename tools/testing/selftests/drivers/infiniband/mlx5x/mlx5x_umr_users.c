// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UMR isolation, tried by the least-privileged user that could break it
 * (nobody, no capability), against what a ConnectX and mlx5_ib allow:
 *
 * - a QP of service type REG_UMR is the driver's alone: its UMRs may
 *   rewrite any mkey of the function (mlx5_ib's umr.c posts them for
 *   every context's re-registrations).  A DEVX CREATE_QP with st REG_UMR
 *   is refused, BAD_PARAM with the bad-field syndrome, while the same
 *   mailbox as an RC QP is made;
 * - a UMR WQE of a user's own RC QP may change its own mkeys' layout and
 *   rights, never their PD (the mkey mask's PD field): mlx5dv offers no
 *   such UMR, and one written by hand (mlx5dv_wr_raw_wqe()) completes
 *   with a local QP operation error, the mkey left on its PD;
 * - ibv_rereg_mr(3) of the user's own MR works, through the driver's
 *   UMR QP, keys kept; a UMR of the user's QP naming another context's
 *   MR (its key is no secret) is refused (MW_BIND_ERR), and that MR
 *   keeps its rights.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"
#include "mlx5x_queues.h"

#define P0		4096
#define SRC		16384
#define MK_ENTRIES	4
#define UMR_DS		8	/* ctrl, UMR ctrl, mkey context: 128 bytes */
#define OP_UMR		0x25
#define CQ_UPDATE	0x08

/* mkey_mask bits of the UMR control segment (PRM; mlx5_ib's MKEY_MASK) */
#define MASK_PD		(1ULL << 7)
#define MASK_LR		(1ULL << 17)
#define MASK_LW		(1ULL << 18)
#define MASK_RR		(1ULL << 19)
#define MASK_RW		(1ULL << 20)
#define MASK_A		(1ULL << 21)
#define MASK_RIGHTS	(MASK_LR | MASK_LW | MASK_RR | MASK_RW | MASK_A)

/* A field of the mkey context, which CREATE_MKEY's mailbox holds at 128 */
static void mkc_set(uint8_t *mkc, struct mt_field f, uint32_t v)
{
	f.off -= PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_FREE.off - 1;
	mt_set(mkc, f, v);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

/*
 * A UMR WQE written by hand on QP @qi of @p: mkey @key, mask @mask, the
 * mkey context's PD @pdn and local rights only.  Returns the status of
 * its completion, or -1.
 */
static int raw_umr(struct pair *p, unsigned int qi, uint32_t key,
		   uint64_t mask, uint32_t pdn)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(p->qp[qi]);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);
	uint8_t w[UMR_DS * 16] = {};
	uint64_t m = htobe64(mask);
	struct ibv_wc wc;

	put_be32(w, OP_UMR);			/* libmlx5 sets the index */
	put_be32(w + 4, p->qp[qi]->qp_num << 8 | UMR_DS);
	w[11] = CQ_UPDATE;
	put_be32(w + 12, key);			/* the mkey it changes */
	memcpy(w + 16 + 8, &m, 8);		/* UMR ctrl: the mkey mask */
	mkc_set(w + 64, PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_PD, pdn);
	mkc_set(w + 64, PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_LR, 1);
	mkc_set(w + 64, PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_LW, 1);
	ibv_wr_start(qx);
	qx->wr_id = 88;
	qx->wr_flags = IBV_SEND_SIGNALED;
	mlx5dv_wr_raw_wqe(dx, w);
	if (!CHECK_ERR(ibv_wr_complete(qx), 0) ||
	    !CHECK(poll_one(p->cq[qi], &wc)))
		return -1;
	mt_diag("raw UMR of %#x, mask %#llx: %s", key,
		(unsigned long long)mask, ibv_wc_status_str(wc.status));
	return wc.status;
}

static uint32_t pdn_of(struct ibv_pd *pd)
{
	struct mlx5dv_pd dpd = {};
	struct mlx5dv_obj o = { .pd = { .in = pd, .out = &dpd } };

	return CHECK_ERR(mlx5dv_init_obj(&o, MLX5DV_OBJ_PD), 0) ? dpd.pdn : 0;
}

/* Configure @mk from QP @qi over 64 bytes of @p's MR at P0: the status. */
static int configure(struct pair *p, unsigned int qi, struct mlx5dv_mkey *mk)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(p->qp[qi]);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(qx);
	struct ibv_sge sge = { (uintptr_t)p->buf + P0, 64, p->mr->lkey };
	struct ibv_wc wc;

	ibv_wr_start(qx);
	qx->wr_id = 77;
	qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mr_list(dx, mk, ALL_ACCESS, 1, &sge);
	if (!CHECK_ERR(ibv_wr_complete(qx), 0) ||
	    !CHECK(poll_one(p->cq[qi], &wc)))
		return -1;
	return wc.status;
}

/* The child: REG_UMR refused from its DEVX context, RC made. */
static int reg_umr_child(void *arg)
{
	uint32_t in[PRM_CREATE_QP_IN_BYTES / 4], out[4];
	struct mq_obj cq, qp;
	struct mq q;

	(void)arg;
	if (!mq_open(&q) || !mq_cq(&q, &cq))
		return KSFT_FAIL;
	mq_qp_in(&q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_ST, 0xc);		/* REG_UMR */
	mq_refused(&q, in, sizeof(in), MT_STAT_BAD_PARAM, SYND_BAD_FIELD);
	mq_qp_in(&q, in, cq.id);				/* RC */
	if (CHECK(mq_create(&q, in, sizeof(in), &qp, out)))
		CHECK_ERR(mlx5dv_devx_obj_destroy(qp.obj), 0);
	CHECK_ERR(mlx5dv_devx_obj_destroy(cq.obj), 0);
	mq_close(&q);
	return KSFT_PASS;
}

static int test_reg_umr_qp_nobody(void)
{
	return mt_run_as(MT_UID_NOBODY, 0, reg_umr_child, NULL);
}

/* Both QPs of @p through RESET and connected again, after an error. */
static bool reconnect(struct pair *p)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (!CHECK_ERR(ibv_modify_qp(p->qp[i], &a, IBV_QP_STATE), 0))
			return false;
	return CHECK_ERR(rc_connect(p, p->qp[0], p->qp[1]->qp_num, ALL_ACCESS,
				    7), 0) &&
	       CHECK_ERR(rc_connect(p, p->qp[1], p->qp[0]->qp_num, ALL_ACCESS,
				    7), 0);
}

static const struct mkey_pair_attr child_at = {
	.dv_ops = MLX5DV_QP_EX_WITH_MR_LIST | MLX5DV_QP_EX_WITH_RAW_WQE,
	.sges = 1, .entries = MK_ENTRIES, .optional = true,
};

/*
 * The child: its own mkey, its own QPs; a UMR moving the mkey to its
 * second PD, then one moving it to the PD number @arg (root's): each a
 * local QP operation error.  The mkey stays on its PD: a list of that
 * PD's MR configures it, and a WRITE through it lands there.
 */
static int pd_mask_child(void *arg)
{
	uint32_t root_pdn = *(uint32_t *)arg;
	struct mlx5dv_mkey *mk[2] = {};
	struct ibv_pd *pd2 = NULL;
	struct pair p = {};
	int rc = mkey_pair_open(&p, mk, &child_at);

	if (rc != KSFT_PASS)
		goto out;
	pd2 = ibv_alloc_pd(p.c.ctx);
	if (!CHECK(pd2))
		goto out;
	CHECK_EQ(raw_umr(&p, 1, mk[1]->lkey, MASK_PD, pdn_of(pd2)),
		 IBV_WC_LOC_QP_OP_ERR);
	CHECK_EQ(raw_umr(&p, 0, mk[1]->lkey, MASK_PD | MASK_RIGHTS, root_pdn),
		 IBV_WC_LOC_QP_OP_ERR);
	if (!reconnect(&p))
		goto out;
	CHECK_EQ(configure(&p, 0, mk[1]), IBV_WC_SUCCESS);
	fill(p.buf + SRC, 64, 3);
	CHECK_EQ(rc_rdma(&p, IBV_WR_RDMA_WRITE, mk[1]->rkey, 0, p.mr->lkey,
			 (uintptr_t)p.buf + SRC, 64), IBV_WC_SUCCESS);
	CHECK(!memcmp(p.buf + P0, p.buf + SRC, 64));
out:
	if (pd2)
		CHECK_ERR(ibv_dealloc_pd(pd2), 0);
	mkeys_destroy(mk);
	pair_teardown(&p);
	return rc;
}

MT_TEST_F(pair, umr_pd_mask_nobody)
{
	uint32_t pdn = pdn_of(self->pd);

	return mt_run_as(MT_UID_NOBODY, 0, pd_mask_child, &pdn);
}

/*
 * The child: a UMR of its QP naming root's MR (key @arg), taking its
 * remote rights away: refused (MW_BIND_ERR).  Then ibv_rereg_mr() of its
 * own MR's rights: keys kept, the new rights in force.
 */
static int rereg_child(void *arg)
{
	uint32_t root_key = *(uint32_t *)arg;
	struct mlx5dv_mkey *mk[2] = {};
	struct pair p = {};
	uint32_t lkey, rkey;
	int rc = mkey_pair_open(&p, mk, &child_at);

	if (rc != KSFT_PASS)
		goto out;
	CHECK_EQ(raw_umr(&p, 1, root_key, MASK_RIGHTS, pdn_of(p.pd)),
		 IBV_WC_MW_BIND_ERR);
	if (!reconnect(&p))
		goto out;
	lkey = p.mr->lkey;
	rkey = p.mr->rkey;
	fill(p.buf + SRC, 64, 5);
	if (!CHECK_ERR(ibv_rereg_mr(p.mr, IBV_REREG_MR_CHANGE_ACCESS, NULL,
				    NULL, 0, IBV_ACCESS_LOCAL_WRITE |
				    IBV_ACCESS_REMOTE_READ), 0))
		goto out;
	CHECK_EQ(p.mr->lkey, lkey);
	CHECK_EQ(p.mr->rkey, rkey);
	CHECK_EQ(rc_rdma(&p, IBV_WR_RDMA_READ, rkey, (uintptr_t)p.buf + SRC,
			 lkey, (uintptr_t)p.buf + P0, 64), IBV_WC_SUCCESS);
	CHECK(!memcmp(p.buf + P0, p.buf + SRC, 64));
	CHECK_EQ(rc_rdma(&p, IBV_WR_RDMA_WRITE, rkey, (uintptr_t)p.buf + P0,
			 lkey, (uintptr_t)p.buf + SRC, 64),
		 IBV_WC_REM_ACCESS_ERR);
out:
	mkeys_destroy(mk);
	pair_teardown(&p);
	return rc;
}

MT_TEST_F(pair, rereg_own_mr_nobody)
{
	uint32_t key = self->mr->lkey;
	uint8_t *b = self->buf;

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, rereg_child, &key), KSFT_PASS);
	/* root's MR keeps every right: a remote WRITE through its rkey */
	fill(b + SRC, 64, 9);
	CHECK_EQ(rc_rdma(self, IBV_WR_RDMA_WRITE, self->mr->rkey,
			 (uintptr_t)b + P0, self->mr->lkey,
			 (uintptr_t)b + SRC, 64), IBV_WC_SUCCESS);
	CHECK(!memcmp(b + P0, b + SRC, 64));
	CHECK_EQ(self->mr->lkey, key);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(reg_umr_qp_nobody, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, umr_pd_mask_nobody, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, rereg_own_mr_nobody, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
