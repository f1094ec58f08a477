// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the data path's way to memory: sim_mkey_xlate() (an lkey, an
 * address and a length through a direct mkey over a umem) and
 * sim_umem_io() over real pages, across a page boundary, as each page's
 * MTT access bits allow.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include "sk_mkey.h"
#include "../dp/datapath.h"
#include "../dp/wqe.h"

#define SK_X_PAGES	2
#define SK_X_VA		0x7f0000001000ULL
#define SK_X_TAG	0x5a
#define SK_X_OFF	0x100	/* the mkey starts this far into the umem */
#define SK_X_LEN	(SK_X_PAGES * PAGE_SIZE - SK_X_OFF)

struct sk_x {
	u16 uid;
	u32 pdn, pdn2, umem, mkey;
	struct page *pages;
};

static void sk_x_init(struct kunit *test, struct sk_x *x, bool lw)
{
	u64 mtt[SK_X_PAGES];
	struct sk_mkey m;
	unsigned int i;
	u32 index;

	x->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
	KUNIT_ASSERT_NOT_NULL(test, x->pages);
	for (i = 0; i < SK_X_PAGES; i++)
		mtt[i] = (u64)(uintptr_t)page_address(x->pages + i) | 3;
	x->uid = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, x->uid, &x->pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, x->uid, &x->pdn2),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, x->uid, SK_X_PAGES,
					     SK_X_PAGES, 0, mtt, &x->umem),
			PRM_STAT_OK);
	sk_mkey_direct(test, &m, x->uid, x->pdn, x->umem, SK_X_OFF,
		       SK_X_VA + SK_X_OFF, SK_X_LEN);
	PRM_SET(mkc, m.mkc, lw, lw);
	PRM_SET(mkc, m.mkc, mkey_7_0, SK_X_TAG);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &index), PRM_STAT_OK);
	x->mkey = sk_mkey_key(&m, index);
}

static void sk_x_fini(struct kunit *test, struct sk_x *x)
{
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, x->uid, x->mkey >> 8),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, x->uid, x->umem),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, x->uid, x->pdn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, x->uid, x->pdn2),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, x->uid), PRM_STAT_OK);
	__free_pages(x->pages, 1);
}

static u32 sk_xlate(struct kunit *test, struct sk_x *x, u16 uid, u32 pdn,
		    u32 key, u64 va, u32 len, bool write, u64 *off)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_umem *umem = NULL;
	u32 synd;

	mutex_lock(&sim->lock);
	synd = sim_mkey_xlate(sim, uid, pdn, key, va, len, write, &umem, off);
	if (!synd && umem->obj.id != x->umem)
		synd = ~0U;
	mutex_unlock(&sim->lock);
	return synd;
}

static void sk_xlate_checks(struct kunit *test)
{
	const u32 prot = SIM_CQE_SYND_LOCAL_PROT;
	u64 start = SK_X_VA + SK_X_OFF, off = 0;
	struct sk_x x;

	sk_x_init(test, &x, true);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey,
				       start + 10, 20, false, &off), 0);
	KUNIT_EXPECT_EQ(test, off, SK_X_OFF + 10);
	/* the whole mkey, for writing; nothing past its end */
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey, start,
				       SK_X_LEN, true, &off), 0);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey, start,
				       SK_X_LEN + 1, false, &off), prot);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey,
				       start - 1, 4, false, &off), prot);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey,
				       ~0ULL - 2, 8, false, &off), prot);
	/* another tag, another index, another PD, another context */
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey ^ 1,
				       start, 4, false, &off), prot);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn,
				       x.mkey + 0x100, start, 4, false, &off),
			prot);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn2, x.mkey,
				       start, 4, false, &off), prot);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, 0, x.pdn, x.mkey, start, 4,
				       false, &off), prot);
	sk_x_fini(test, &x);

	/* without local write: read only */
	sk_x_init(test, &x, false);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey, start,
				       4, false, &off), 0);
	KUNIT_EXPECT_EQ(test, sk_xlate(test, &x, x.uid, x.pdn, x.mkey, start,
				       4, true, &off), prot);
	sk_x_fini(test, &x);
}

static void sk_umem_io_pages(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 data[64], back[64];
	struct sim_umem *umem;
	struct sk_x x;
	u8 *p0, *p1;
	u32 v;

	sk_x_init(test, &x, true);
	p0 = page_address(x.pages);
	p1 = page_address(x.pages + 1);
	memset(data, 0x3c, sizeof(data));
	mutex_lock(&sim->lock);
	umem = container_of(xa_load(&sim->objs[SIM_OBJ_UMEM], x.umem),
			    struct sim_umem, obj);
	/* 32 bytes on each side of the page boundary */
	KUNIT_EXPECT_TRUE(test, sim_umem_io(umem, PAGE_SIZE - 32, data,
					    sizeof(data), true));
	KUNIT_EXPECT_EQ(test, p0[PAGE_SIZE - 32], 0x3c);
	KUNIT_EXPECT_EQ(test, p1[31], 0x3c);
	KUNIT_EXPECT_EQ(test, p1[32], 0);
	KUNIT_EXPECT_TRUE(test, sim_umem_io(umem, PAGE_SIZE - 32, back,
					    sizeof(back), false));
	KUNIT_EXPECT_EQ(test, memcmp(data, back, sizeof(back)), 0);
	/* a doorbell record: big-endian */
	p1[100] = 0x12;
	p1[101] = 0x34;
	p1[102] = 0x56;
	p1[103] = 0x78;
	KUNIT_EXPECT_TRUE(test, sim_umem_rd32(umem, PAGE_SIZE + 100, &v));
	KUNIT_EXPECT_EQ(test, v, 0x12345678);
	/* nothing outside the umem */
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, 2 * PAGE_SIZE - 4, back,
					     8, false));
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, ~0ULL, back, 1, false));
	mutex_unlock(&sim->lock);
	sk_x_fini(test, &x);
}

/*
 * The access bits of each page's MTT entry, as the device checks them on
 * DMA: a write needs wr_en, a read rd_en, and an access stops (false) at
 * the first page that refuses it, nothing copied from there on.
 */
static void sk_umem_io_access(struct kunit *test)
{
	/* read-write, read-only, write-only, neither */
	static const u64 bits[] = { 3, 1, 2, 0 };
	struct mlx5x_sim *sim = sk_sim(test);
	u8 data[64], back[64], *p[4];
	u64 mtt[ARRAY_SIZE(bits)];
	struct sim_umem *umem;
	struct page *pages;
	unsigned int i;
	u32 id, v;

	pages = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		p[i] = page_address(pages + i);
		memset(p[i], 0x10 + i, PAGE_SIZE);
		mtt[i] = (u64)(uintptr_t)p[i] | bits[i];
	}
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, ARRAY_SIZE(mtt),
					     ARRAY_SIZE(mtt), 0, mtt, &id),
			PRM_STAT_OK);
	memset(data, 0x3c, sizeof(data));
	mutex_lock(&sim->lock);
	umem = container_of(xa_load(&sim->objs[SIM_OBJ_UMEM], id),
			    struct sim_umem, obj);
	KUNIT_EXPECT_EQ(test, umem->ro_pages, 2);
	/* from the writable page into the read-only one: stops there */
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, PAGE_SIZE - 32, data,
					     sizeof(data), true));
	KUNIT_EXPECT_EQ(test, p[0][PAGE_SIZE - 1], 0x3c);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(p[1], 0x11, PAGE_SIZE), NULL);
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, PAGE_SIZE + 100, data, 1,
					     true));
	KUNIT_EXPECT_EQ(test, p[1][100], 0x11);
	/* both readable */
	KUNIT_EXPECT_TRUE(test, sim_umem_io(umem, PAGE_SIZE - 32, back,
					    sizeof(back), false));
	KUNIT_EXPECT_EQ(test, back[31], 0x3c);
	KUNIT_EXPECT_EQ(test, back[32], 0x11);
	/* read-only into write-only: the first half only */
	memset(back, 0xee, sizeof(back));
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, 2 * PAGE_SIZE - 32, back,
					     sizeof(back), false));
	KUNIT_EXPECT_EQ(test, back[31], 0x11);
	KUNIT_EXPECT_EQ(test, back[32], 0xee);
	KUNIT_EXPECT_FALSE(test, sim_umem_rd32(umem, 2 * PAGE_SIZE, &v));
	KUNIT_EXPECT_TRUE(test, sim_umem_io(umem, 2 * PAGE_SIZE, data,
					    sizeof(data), true));
	KUNIT_EXPECT_EQ(test, p[2][63], 0x3c);
	/* neither: no access at all */
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, 3 * PAGE_SIZE, back, 1,
					     false));
	KUNIT_EXPECT_FALSE(test, sim_umem_io(umem, 3 * PAGE_SIZE, data, 1,
					     true));
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(p[3], 0x13, PAGE_SIZE), NULL);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
	__free_pages(pages, 2);
}

/*
 * In-place access (sim_umem_va()): the page's own address for a range in
 * one page whose entry permits the access, NULL for anything
 * sim_umem_io() would refuse and for a range across pages.
 */
static void sk_umem_va(struct kunit *test)
{
	static const u64 bits[] = { 3, 1, 2, 0 };
	struct mlx5x_sim *sim = sk_sim(test);
	u64 mtt[ARRAY_SIZE(bits)];
	struct sim_umem *umem;
	struct page *pages;
	unsigned int i;
	u8 *p[4];
	u32 id;

	pages = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		p[i] = page_address(pages + i);
		mtt[i] = (u64)(uintptr_t)p[i] | bits[i];
	}
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, 0, ARRAY_SIZE(mtt),
					     ARRAY_SIZE(mtt), 0, mtt, &id),
			PRM_STAT_OK);
	mutex_lock(&sim->lock);
	umem = container_of(xa_load(&sim->objs[SIM_OBJ_UMEM], id),
			    struct sim_umem, obj);
	KUNIT_EXPECT_PTR_EQ(test, sim_umem_va(umem, 64, 64, true), p[0] + 64);
	KUNIT_EXPECT_PTR_EQ(test, sim_umem_va(umem, 0, PAGE_SIZE, false),
			    p[0]);
	/* across a page boundary: not in place */
	KUNIT_EXPECT_NULL(test, sim_umem_va(umem, PAGE_SIZE - 32, 64, false));
	/* read-only: read, not written */
	KUNIT_EXPECT_PTR_EQ(test, sim_umem_va(umem, PAGE_SIZE + 8, 8, false),
			    p[1] + 8);
	KUNIT_EXPECT_NULL(test, sim_umem_va(umem, PAGE_SIZE + 8, 8, true));
	/* write-only, then neither */
	KUNIT_EXPECT_NULL(test, sim_umem_va(umem, 2 * PAGE_SIZE, 8, false));
	KUNIT_EXPECT_PTR_EQ(test, sim_umem_va(umem, 2 * PAGE_SIZE, 8, true),
			    p[2]);
	KUNIT_EXPECT_NULL(test, sim_umem_va(umem, 3 * PAGE_SIZE, 8, false));
	KUNIT_EXPECT_NULL(test, sim_umem_va(umem, 3 * PAGE_SIZE, 8, true));
	/* outside the umem, and nothing */
	KUNIT_EXPECT_NULL(test,
			  sim_umem_va(umem, 4 * PAGE_SIZE - 4, 8, false));
	KUNIT_EXPECT_NULL(test, sim_umem_va(umem, ~0ULL, 1, false));
	KUNIT_EXPECT_NULL(test, sim_umem_va(umem, 0, 0, false));
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, 0, id), PRM_STAT_OK);
	__free_pages(pages, 2);
}

static struct kunit_case sk_xlate_cases[] = {
	KUNIT_CASE(sk_xlate_checks),
	KUNIT_CASE(sk_umem_io_pages),
	KUNIT_CASE(sk_umem_io_access),
	KUNIT_CASE(sk_umem_va),
	{}
};

static struct kunit_suite sk_xlate_suite = {
	.name = "mlx5x_sim_xlate",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_xlate_cases,
};

kunit_test_suite(sk_xlate_suite);
