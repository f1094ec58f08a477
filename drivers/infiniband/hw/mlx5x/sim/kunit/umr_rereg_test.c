// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the UMR of the kernel's REG_UMR QP (dp/umr_rereg.c), as the
 * driver posts it for ibv_rereg_mr(): an MR moved to another PD of its
 * context and given other rights, its key unchanged, and what the key
 * then reaches.  Every refusal leaves the MR as it was: a PD of another
 * context, a stale tag, a field besides the PD and the rights, a
 * translation, an indirect mkey, a right to write on pages pinned
 * read-only; and a context's own UMR naming the PD.
 */
#include <linux/bitfield.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include "sk_mkey.h"
#include "../dp/umr.h"
#include "../dp/wqe.h"

#define SK_R_VA		0x7f0000000000ULL
#define SK_R_LEN	(2 * PAGE_SIZE)
/* ctrl 16, UMR ctrl 48, mkey context 64 */
#define SK_R_DS		8
#define SK_R_QPN	0x123
#define SK_R_REREG	(SIM_UMR_MASK_PD | SIM_UMR_MASK_RIGHTS)

struct sk_r {
	u16 uid, uid2;
	u32 pdn, pdn2, pdn_other, umem, umem_ro, mr, mr_ro, mk;
	struct sim_umr_qp kqp;
	struct page *pages;
	u8 wqe[256];
};

static u32 sk_r_mkey(struct kunit *test, struct sk_mkey *m)
{
	u32 index;

	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, m, &index), PRM_STAT_OK);
	return sk_mkey_key(m, index);
}

static void sk_r_init(struct kunit *test, struct sk_r *r)
{
	struct sk_mkey m;
	u64 mtt[2];

	r->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
	KUNIT_ASSERT_NOT_NULL(test, r->pages);
	r->uid = sk_new_uctx(test);
	r->uid2 = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, r->uid, &r->pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, r->uid, &r->pdn2),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, r->uid2, &r->pdn_other),
			PRM_STAT_OK);
	mtt[0] = (u64)(uintptr_t)page_address(r->pages) | SIM_MTT_RD |
		 SIM_MTT_WR;
	mtt[1] = (u64)(uintptr_t)page_address(r->pages + 1) | SIM_MTT_RD |
		 SIM_MTT_WR;
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, r->uid, 2, 2, 0, mtt,
					     &r->umem), PRM_STAT_OK);
	/* the same pages, pinned for reading only */
	mtt[0] &= ~SIM_MTT_WR;
	mtt[1] &= ~SIM_MTT_WR;
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, r->uid, 2, 2, 0, mtt,
					     &r->umem_ro), PRM_STAT_OK);
	/* the MR: local read and write, remote write */
	sk_mkey_direct(test, &m, r->uid, r->pdn, r->umem, 0, SK_R_VA,
		       SK_R_LEN);
	PRM_SET(mkc, m.mkc, rw, 1);
	r->mr = sk_r_mkey(test, &m);
	/* a read-only MR over the read-only pages */
	sk_mkey_direct(test, &m, r->uid, r->pdn, r->umem_ro, 0, SK_R_VA,
		       SK_R_LEN);
	PRM_SET(mkc, m.mkc, lw, 0);
	r->mr_ro = sk_r_mkey(test, &m);
	sk_mkey_umr(test, &m, r->uid, r->pdn, 4, 0, 0);
	r->mk = sk_r_mkey(test, &m);
	/* the kernel's QP: its own context and PD (neither the MR's) */
	r->kqp = (struct sim_umr_qp){ .qpn = SK_R_QPN, .reg_umr = true };
}

static void sk_r_fini(struct kunit *test, struct sk_r *r)
{
	u32 keys[] = { r->mk, r->mr, r->mr_ro };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, r->uid,
						      keys[i] >> 8),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, r->uid, r->umem),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, r->uid, r->umem_ro),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, r->uid, r->pdn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, r->uid, r->pdn2),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, r->uid2, r->pdn_other),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, r->uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, r->uid2), PRM_STAT_OK);
	__free_pages(r->pages, 1);
}

/*
 * The UMR mlx5_ib posts to re-register @key: the MR in use (its state
 * checked), on PD @pdn, with local write, remote read and remote write
 * as @lw, @rr, @rw; @mask as the fields it writes.
 */
static void sk_r_wqe(struct sk_r *r, u32 key, u64 mask, u32 pdn, bool lw,
		     bool rr, bool rw)
{
	struct sim_wqe_ctrl *c = (void *)r->wqe;
	u8 *uc = r->wqe + 16, *mkc = r->wqe + 64;

	memset(r->wqe, 0, sizeof(r->wqe));
	c->opmod_idx_opcode = cpu_to_be32(SIM_OPCODE_UMR);
	c->qpn_ds = cpu_to_be32(SK_R_QPN << 8 | SK_R_DS);
	c->imm = cpu_to_be32(key);
	uc[0] = SIM_UMR_INLINE |
		FIELD_PREP(SIM_UMR_CHECK_STATE, SIM_UMR_MUST_BE_IN_USE);
	*(__be64 *)(uc + 8) = cpu_to_be64(mask);
	PRM_SET(mkc, mkc, pd, pdn);
	PRM_SET(mkc, mkc, lr, 1);
	PRM_SET(mkc, mkc, lw, lw);
	PRM_SET(mkc, mkc, rr, rr);
	PRM_SET(mkc, mkc, rw, rw);
	PRM_SET(mkc, mkc, qpn, SIM_MKEY_QPN_NONE);
	PRM_SET(mkc, mkc, mkey_7_0, key & 0xff);
}

static u32 sk_r_exec(struct kunit *test, struct sk_r *r,
		     const struct sim_umr_qp *qp)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	mutex_lock(&sim->lock);
	synd = sim_umr_exec(sim, qp, r->wqe, sizeof(r->wqe));
	mutex_unlock(&sim->lock);
	return synd;
}

/* What an access of @rights to @key from a QP on @pdn gets. */
static u32 sk_r_access(struct kunit *test, struct sk_r *r, u32 key, u32 pdn,
		       unsigned int rights)
{
	struct sim_mkey_access acc = {
		.uid = r->uid, .pdn = pdn, .key = key, .va = SK_R_VA,
		.len = 64, .rights = rights,
	};
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	mutex_lock(&sim->lock);
	synd = sim_mkey_access(sim, &acc);
	mutex_unlock(&sim->lock);
	return synd;
}

/*
 * Moved to the second PD with remote read instead of remote write: the
 * same key reaches the pages from that PD for what it now grants, and
 * not from the first; moved back, as before.
 */
static void sk_umr_rereg_pd_rights(struct kunit *test)
{
	struct sk_r r;

	sk_r_init(test, &r);
	KUNIT_EXPECT_EQ(test, sk_r_access(test, &r, r.mr, r.pdn,
					  SIM_MKEY_REMOTE_WRITE), 0);
	sk_r_wqe(&r, r.mr, SK_R_REREG, r.pdn2, true, true, false);
	KUNIT_ASSERT_EQ(test, sk_r_exec(test, &r, &r.kqp), 0);
	KUNIT_EXPECT_NE(test, sk_r_access(test, &r, r.mr, r.pdn,
					  SIM_MKEY_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, sk_r_access(test, &r, r.mr, r.pdn2,
					  SIM_MKEY_REMOTE_READ), 0);
	KUNIT_EXPECT_NE(test, sk_r_access(test, &r, r.mr, r.pdn2,
					  SIM_MKEY_REMOTE_WRITE), 0);
	/* the first PD is free of it: only the second is held */
	sk_r_wqe(&r, r.mr, SK_R_REREG, r.pdn, true, false, true);
	KUNIT_ASSERT_EQ(test, sk_r_exec(test, &r, &r.kqp), 0);
	KUNIT_EXPECT_EQ(test, sk_r_access(test, &r, r.mr, r.pdn,
					  SIM_MKEY_REMOTE_WRITE), 0);
	KUNIT_EXPECT_NE(test, sk_r_access(test, &r, r.mr, r.pdn,
					  SIM_MKEY_REMOTE_READ), 0);
	sk_r_fini(test, &r);
}

/* Each refused UMR leaves the MR on its PD with its rights. */
static void sk_umr_rereg_refusals(struct kunit *test)
{
	struct sim_umr_qp user;
	struct sk_r r;

	sk_r_init(test, &r);
	user = (struct sim_umr_qp){ .uid = r.uid, .pdn = r.pdn,
				    .qpn = SK_R_QPN };
	/* a PD of another context */
	sk_r_wqe(&r, r.mr, SK_R_REREG, r.pdn_other, true, false, true);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp),
			SIM_CQE_SYND_MW_BIND);
	/* a stale tag */
	sk_r_wqe(&r, r.mr ^ 0x5a, SK_R_REREG, r.pdn2, true, false, true);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp),
			SIM_CQE_SYND_MW_BIND);
	/* the length besides (a new translation is a new MR) */
	sk_r_wqe(&r, r.mr, SK_R_REREG | SIM_UMR_MASK_LEN, r.pdn2, true, false,
		 true);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp),
			SIM_CQE_SYND_LOCAL_QP_OP);
	/* an indirect mkey: mlx5dv_wr_mkey_configure()'s */
	sk_r_wqe(&r, r.mk, SK_R_REREG, r.pdn2, true, false, true);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp),
			SIM_CQE_SYND_MW_BIND);
	/* write on pages pinned for reading: local, remote, atomic */
	sk_r_wqe(&r, r.mr_ro, SK_R_REREG, r.pdn, true, true, false);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp),
			SIM_CQE_SYND_MW_BIND);
	sk_r_wqe(&r, r.mr_ro, SK_R_REREG, r.pdn, false, true, true);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp),
			SIM_CQE_SYND_MW_BIND);
	sk_r_wqe(&r, r.mr_ro, SK_R_REREG | SIM_UMR_MASK_A, r.pdn, false,
		 true, false);
	PRM_SET(mkc, r.wqe + 64, a, 1);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp),
			SIM_CQE_SYND_MW_BIND);
	/* but remote read there is fine */
	sk_r_wqe(&r, r.mr_ro, SK_R_REREG, r.pdn, false, true, false);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &r.kqp), 0);
	/* a context's own QP moves no mkey to another PD */
	sk_r_wqe(&r, r.mr, SK_R_REREG, r.pdn2, true, false, true);
	KUNIT_EXPECT_EQ(test, sk_r_exec(test, &r, &user),
			SIM_CQE_SYND_LOCAL_QP_OP);
	KUNIT_EXPECT_EQ(test, sk_r_access(test, &r, r.mr, r.pdn,
					  SIM_MKEY_REMOTE_WRITE), 0);
	KUNIT_EXPECT_NE(test, sk_r_access(test, &r, r.mr, r.pdn2,
					  SIM_MKEY_LOCAL_READ), 0);
	sk_r_fini(test, &r);
}

static struct kunit_case sk_umr_rereg_cases[] = {
	KUNIT_CASE(sk_umr_rereg_pd_rights),
	KUNIT_CASE(sk_umr_rereg_refusals),
	{}
};

static struct kunit_suite sk_umr_rereg_suite = {
	.name = "mlx5x_sim_umr_rereg",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_umr_rereg_cases,
};

kunit_test_suite(sk_umr_rereg_suite);
