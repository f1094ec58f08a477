// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the UMR WQE of a memory window (sim_umr_exec()) and remote
 * invalidation (sim_umr_invalidate()).  A window made as mlx5_ib makes
 * one (a free KLM mkey with umr_en, type 2: en_rinval) is bound, by WQEs
 * laid out as libmlx5 lays them out, to an MR granting local write only;
 * then sim_mkey_access() says what its key reaches: the window's range
 * and rights, the MR referenced while bound.  Each spoilt WQE is refused
 * with its syndrome and leaves the window as it was.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include "sk_mkey.h"
#include "sk_queues.h"
#include "../dp/umr.h"
#include "../dp/wqe.h"

#define SK_U_VA		0x7f0000000000ULL
#define SK_U_LEN	(2 * PAGE_SIZE)
#define SK_U_QPN	0x123
#define SK_U_TAG	0x42
/* ctrl 16, UMR ctrl 48, mkey context 64, one KLM padded to 64 */
#define SK_U_DS		12
#define SK_U_DS_INV	8
#define SK_U_KLM_OFF	128

/* libmlx5's UMR flags and mask bits for a bind (providers/mlx5/mlx5dv.h) */
#define SK_U_INLINE	0x80
#define SK_U_CHECK_FREE	0x20
#define SK_U_XLT_OFF	0x10
#define SK_U_CHECK_QPN	0x08
#define SK_U_M_LEN	BIT_ULL(0)
#define SK_U_M_START	BIT_ULL(6)
#define SK_U_M_PD	BIT_ULL(7)
#define SK_U_M_KEY	BIT_ULL(13)
#define SK_U_M_QPN	BIT_ULL(14)
#define SK_U_M_RIGHTS	(BIT_ULL(18) | BIT_ULL(19) | BIT_ULL(20) | BIT_ULL(21))
#define SK_U_M_FREE	BIT_ULL(29)

struct sk_u {
	u16 uid, uid2;
	u32 pdn, pdn2, umem, mr, mr_ro, mw;
	struct sim_umr_qp qp;
	struct page *pages;
	u8 wqe[256];
};

static void sk_u_init(struct kunit *test, struct sk_u *u)
{
	u64 mtt[2];
	struct sk_mkey m;
	u32 index;

	u->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
	KUNIT_ASSERT_NOT_NULL(test, u->pages);
	mtt[0] = (u64)(uintptr_t)page_address(u->pages) | 3;
	mtt[1] = (u64)(uintptr_t)page_address(u->pages + 1) | 3;
	u->uid = sk_new_uctx(test);
	u->uid2 = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, u->uid, &u->pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, u->uid, &u->pdn2),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, u->uid, 2, 2, 0, mtt,
					     &u->umem), PRM_STAT_OK);
	/* the MR: local read and write, no remote right of its own */
	sk_mkey_direct(test, &m, u->uid, u->pdn, u->umem, 0, SK_U_VA,
		       SK_U_LEN);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &index), PRM_STAT_OK);
	u->mr = sk_mkey_key(&m, index);
	/* and one without local write: no window may write through it */
	sk_mkey_direct(test, &m, u->uid, u->pdn, u->umem, 0, SK_U_VA,
		       SK_U_LEN);
	PRM_SET(mkc, m.mkc, lw, 0);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &index), PRM_STAT_OK);
	u->mr_ro = sk_mkey_key(&m, index);
	/* the window, type 2 */
	sk_mkey_umr(test, &m, u->uid, u->pdn, 4, 0, 0);
	PRM_SET(mkc, m.mkc, en_rinval, 1);
	PRM_SET(mkc, m.mkc, mkey_7_0, SK_U_TAG);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &index), PRM_STAT_OK);
	u->mw = sk_mkey_key(&m, index);
	u->qp = (struct sim_umr_qp){ .uid = u->uid, .pdn = u->pdn,
				     .qpn = SK_U_QPN };
}

static void sk_u_fini(struct kunit *test, struct sk_u *u)
{
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, u->uid, u->mw >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, u->uid, u->mr >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, u->uid, u->mr_ro >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, u->uid, u->umem),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, u->uid, u->pdn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, u->uid, u->pdn2),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, u->uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, u->uid2), PRM_STAT_OK);
	__free_pages(u->pages, 1);
}

/*
 * A type 2 bind as libmlx5 writes it: window @u->mw to new key @key,
 * bound to @u->qp, over [@va, @va + @len) of the MR, with remote read and
 * write.
 */
static void sk_u_bind(struct sk_u *u, u32 key, u64 va, u32 len)
{
	struct sim_wqe_ctrl *c = (void *)u->wqe;
	u8 *uc = u->wqe + 16, *mkc = u->wqe + 64;
	struct sim_klm *klm = (void *)(u->wqe + SK_U_KLM_OFF);

	memset(u->wqe, 0, sizeof(u->wqe));
	c->opmod_idx_opcode = cpu_to_be32(SIM_OPCODE_UMR);
	c->qpn_ds = cpu_to_be32(SK_U_QPN << 8 | SK_U_DS);
	c->imm = cpu_to_be32(u->mw);
	uc[0] = SK_U_INLINE | SK_U_XLT_OFF | SK_U_CHECK_FREE;
	*(__be16 *)(uc + 4) = cpu_to_be16(4);
	*(__be64 *)(uc + 8) = cpu_to_be64(SK_U_M_FREE | SK_U_M_KEY |
					  SK_U_M_QPN | SK_U_M_LEN |
					  SK_U_M_START | SK_U_M_RIGHTS);
	PRM_SET(mkc, mkc, rr, 1);
	PRM_SET(mkc, mkc, rw, 1);
	PRM_SET(mkc, mkc, qpn, u->qp.qpn);
	PRM_SET(mkc, mkc, mkey_7_0, key & 0xff);
	PRM_SET64(mkc, mkc, start_addr, va);
	PRM_SET64(mkc, mkc, len, len);
	klm->bcount = cpu_to_be32(len);
	klm->key = cpu_to_be32(u->mr);
	klm->va = cpu_to_be64(va);
}

/* LOCAL_INV of @key as libmlx5 writes it: a zero-length type 2 bind. */
static void sk_u_inv(struct sk_u *u, u32 key)
{
	struct sim_wqe_ctrl *c = (void *)u->wqe;
	u8 *uc = u->wqe + 16, *mkc = u->wqe + 64;

	memset(u->wqe, 0, sizeof(u->wqe));
	c->opmod_idx_opcode = cpu_to_be32(SIM_OPCODE_UMR);
	c->qpn_ds = cpu_to_be32(SK_U_QPN << 8 | SK_U_DS_INV);
	c->imm = cpu_to_be32(key);
	uc[0] = SK_U_INLINE | SK_U_XLT_OFF | SK_U_CHECK_QPN;
	*(__be64 *)(uc + 8) = cpu_to_be64(SK_U_M_FREE | SK_U_M_KEY |
					  SK_U_M_QPN);
	PRM_SET(mkc, mkc, free, 1);
	PRM_SET(mkc, mkc, qpn, SIM_MKEY_QPN_NONE);
}

static u32 sk_u_exec(struct kunit *test, struct sk_u *u)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	mutex_lock(&sim->lock);
	synd = sim_umr_exec(sim, &u->qp, u->wqe, sizeof(u->wqe));
	mutex_unlock(&sim->lock);
	return synd;
}

/* What an access of @rights through @key, by @u->qp, gets. */
static u32 sk_u_access(struct kunit *test, struct sk_u *u, u32 key, u64 va,
		       u64 len, unsigned int rights)
{
	struct sim_mkey_access acc = {
		.uid = u->uid, .pdn = u->pdn, .key = key, .va = va,
		.len = len, .rights = rights,
	};
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	mutex_lock(&sim->lock);
	synd = sim_mkey_access(sim, &acc);
	mutex_unlock(&sim->lock);
	return synd;
}

static bool sk_u_invalidate(struct kunit *test, struct sk_u *u, u32 key)
{
	struct mlx5x_sim *sim = sk_sim(test);
	bool done;

	mutex_lock(&sim->lock);
	done = sim_umr_invalidate(sim, &u->qp, key);
	mutex_unlock(&sim->lock);
	return done;
}

/*
 * Bound: the key reaches the window's range with its rights (remote write
 * on an MR that has none), nothing past it, and holds the MR; a second
 * bind is refused; LOCAL_INV frees it, and lets the MR go.
 */
static void sk_umr_bind_inv(struct kunit *test)
{
	const unsigned int rw = SIM_MKEY_REMOTE_WRITE;
	u64 va = SK_U_VA + 256;
	u32 key;
	struct sk_u u;

	sk_u_init(test, &u);
	key = (u.mw & ~0xff) | ((SK_U_TAG + 1) & 0xff);
	sk_u_bind(&u, key, va, 1024);
	KUNIT_EXPECT_EQ(test, sk_u_exec(test, &u), 0);
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, key, va, 1024, rw), 0);
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, key, va + 1, 1024, rw),
			SIM_SYND_MKEY_RANGE);
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, key, va, 8,
					  SIM_MKEY_ATOMIC),
			SIM_SYND_MKEY_ACCESS);
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, u.mw, va, 8, rw),
			SIM_SYND_NO_OBJECT);
	/* the MR itself still grants no remote access */
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, u.mr, va, 8, rw),
			SIM_SYND_MKEY_ACCESS);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, u.mr >> 8), 1);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, u.uid, u.mr >> 8),
			PRM_STAT_RESOURCE_BUSY);
	/* in use: no second type 2 bind */
	sk_u_bind(&u, key + 1, va, 64);
	KUNIT_EXPECT_EQ(test, sk_u_exec(test, &u), SIM_CQE_SYND_MW_BIND);
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, key, va, 1024, rw), 0);
	/* LOCAL_INV: from another QP, with a stale key, then right */
	sk_u_inv(&u, key);
	u.qp.qpn++;
	KUNIT_EXPECT_EQ(test, sk_u_exec(test, &u), SIM_CQE_SYND_MW_BIND);
	u.qp.qpn--;
	sk_u_inv(&u, u.mw);
	KUNIT_EXPECT_EQ(test, sk_u_exec(test, &u), SIM_CQE_SYND_MW_BIND);
	sk_u_inv(&u, key);
	KUNIT_EXPECT_EQ(test, sk_u_exec(test, &u), 0);
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, key & ~0xff, va, 8, rw),
			SIM_SYND_MKEY_FREE);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, u.mr >> 8), 0);
	sk_u_fini(test, &u);
}

/* A SEND with invalidate: only by the QP it is bound to, by its key. */
static void sk_umr_remote_inv(struct kunit *test)
{
	u64 va = SK_U_VA;
	u32 key;
	struct sk_u u;

	sk_u_init(test, &u);
	key = (u.mw & ~0xff) | 7;
	sk_u_bind(&u, key, va, 4096);
	KUNIT_ASSERT_EQ(test, sk_u_exec(test, &u), 0);
	KUNIT_EXPECT_FALSE(test, sk_u_invalidate(test, &u, key ^ 1));
	KUNIT_EXPECT_FALSE(test, sk_u_invalidate(test, &u, u.mr));
	u.qp.pdn = u.pdn2;
	KUNIT_EXPECT_FALSE(test, sk_u_invalidate(test, &u, key));
	u.qp.pdn = u.pdn;
	u.qp.uid = u.uid2;
	KUNIT_EXPECT_FALSE(test, sk_u_invalidate(test, &u, key));
	u.qp.uid = u.uid;
	u.qp.qpn++;
	KUNIT_EXPECT_FALSE(test, sk_u_invalidate(test, &u, key));
	u.qp.qpn--;
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, key, va, 8,
					  SIM_MKEY_REMOTE_READ), 0);
	KUNIT_EXPECT_TRUE(test, sk_u_invalidate(test, &u, key));
	KUNIT_EXPECT_EQ(test, sk_u_access(test, &u, key, va, 8,
					  SIM_MKEY_REMOTE_READ),
			SIM_SYND_MKEY_FREE);
	KUNIT_EXPECT_FALSE(test, sk_u_invalidate(test, &u, key));
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, u.mr >> 8), 0);
	sk_u_fini(test, &u);
}

enum sk_u_spoil {
	SK_U_SHORT, SK_U_NOT_INLINE, SK_U_OFFSET, SK_U_PD_MASK, SK_U_PAD,
	SK_U_OTHER_UID, SK_U_OTHER_PD, SK_U_PAST_MR, SK_U_TOO_LONG,
	SK_U_WRITE_NO_LW, SK_U_OTHER_QPN, SK_U_MR_TAG, SK_U_MR_IS_MW,
	SK_U_NO_QPN_MASK, SK_U_SPOILS,
};

/* Each spoilt bind: its syndrome, and the window stays free and empty. */
static void sk_umr_refusals(struct kunit *test)
{
	static const u32 want[SK_U_SPOILS] = {
		[SK_U_SHORT] = SIM_CQE_SYND_LOCAL_LENGTH,
		[SK_U_NOT_INLINE] = SIM_CQE_SYND_LOCAL_QP_OP,
		[SK_U_OFFSET] = SIM_CQE_SYND_LOCAL_QP_OP,
		[SK_U_PD_MASK] = SIM_CQE_SYND_LOCAL_QP_OP,
		[SK_U_PAD] = SIM_CQE_SYND_LOCAL_QP_OP,
	};
	u8 *uc, *mkc;
	struct sim_klm *klm;
	struct sim_wqe_ctrl *c;
	unsigned int i;
	struct sk_u u;
	u32 key;

	sk_u_init(test, &u);
	key = (u.mw & ~0xff) | 9;
	c = (void *)u.wqe;
	uc = u.wqe + 16;
	mkc = u.wqe + 64;
	klm = (void *)(u.wqe + SK_U_KLM_OFF);
	for (i = 0; i < SK_U_SPOILS; i++) {
		sk_u_bind(&u, key, SK_U_VA, 512);
		switch (i) {
		case SK_U_SHORT:
			c->qpn_ds = cpu_to_be32(SK_U_QPN << 8 | 7);
			break;
		case SK_U_NOT_INLINE:
			uc[0] &= ~SK_U_INLINE;
			break;
		case SK_U_OFFSET:
			*(__be16 *)(uc + 6) = cpu_to_be16(4);
			break;
		case SK_U_PD_MASK:
			*(__be64 *)(uc + 8) |= cpu_to_be64(SK_U_M_PD);
			break;
		case SK_U_PAD:
			klm[2].key = cpu_to_be32(u.mr);
			break;
		case SK_U_OTHER_UID:
			u.qp.uid = u.uid2;
			break;
		case SK_U_OTHER_PD:
			u.qp.pdn = u.pdn2;
			break;
		case SK_U_PAST_MR:
			klm->va = cpu_to_be64(SK_U_VA + SK_U_LEN - 256);
			break;
		case SK_U_TOO_LONG:
			PRM_SET64(mkc, mkc, len, 513);
			break;
		case SK_U_WRITE_NO_LW:
			/* remote write stands on the MR's local write */
			klm->key = cpu_to_be32(u.mr_ro);
			break;
		case SK_U_OTHER_QPN:
			PRM_SET(mkc, mkc, qpn, SK_U_QPN + 1);
			break;
		case SK_U_MR_TAG:
			klm->key = cpu_to_be32(u.mr ^ 1);
			break;
		case SK_U_MR_IS_MW:
			klm->key = cpu_to_be32(u.mw);
			break;
		case SK_U_NO_QPN_MASK:
			*(__be64 *)(uc + 8) &= ~cpu_to_be64(SK_U_M_QPN);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, sk_u_exec(test, &u),
				    want[i] ?: SIM_CQE_SYND_MW_BIND,
				    "spoil %u", i);
		u.qp = (struct sim_umr_qp){ .uid = u.uid, .pdn = u.pdn,
					    .qpn = SK_U_QPN };
		KUNIT_EXPECT_EQ_MSG(test, sk_u_access(test, &u, key, SK_U_VA,
						      8, 0),
				    SIM_SYND_NO_OBJECT, "spoil %u", i);
		KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_MKEY, u.mr >> 8),
				0);
	}
	/* unspoilt, it binds */
	sk_u_bind(&u, key, SK_U_VA, 512);
	KUNIT_EXPECT_EQ(test, sk_u_exec(test, &u), 0);
	sk_u_inv(&u, key);
	KUNIT_EXPECT_EQ(test, sk_u_exec(test, &u), 0);
	sk_u_fini(test, &u);
}

static struct kunit_case sk_umr_cases[] = {
	KUNIT_CASE(sk_umr_bind_inv),
	KUNIT_CASE(sk_umr_remote_inv),
	KUNIT_CASE(sk_umr_refusals),
	{}
};

static struct kunit_suite sk_umr_suite = {
	.name = "mlx5x_sim_umr",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_umr_cases,
};

kunit_test_suite(sk_umr_suite);
