/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers shared by the KUnit suites of the firmware model: a fresh model
 * per test case, and one function per command that builds its mailbox
 * with PRM_SET, runs it and returns the PRM status.
 */
#ifndef MLX5X_SIM_KUNIT_H
#define MLX5X_SIM_KUNIT_H

#include <kunit/test.h>
#include "../sim_priv.h"

/**
 * struct sk_ctx - what one test case works on (test->priv)
 * @sim: the model under test; NULL once the case destroyed it itself
 * @syndrome: syndrome of the last command run through sk_exec()
 * @base_live: objects the model holds of its own once created (its EQs)
 */
struct sk_ctx {
	struct mlx5x_sim *sim;
	u32 syndrome;
	unsigned int base_live;
};

/* Identity of the model every case starts with. */
#define SK_GUID		0x0c42a1fffe0b0c0dULL
#define SK_MTU		1500
extern const struct mlx5x_sim_params sk_params;

int sk_init(struct kunit *test);
void sk_exit(struct kunit *test);

static inline struct mlx5x_sim *sk_sim(struct kunit *test)
{
	return ((struct sk_ctx *)test->priv)->sim;
}

static inline u32 sk_syndrome(struct kunit *test)
{
	return ((struct sk_ctx *)test->priv)->syndrome;
}

/* Live objects beyond those the model made for itself. */
static inline unsigned int sk_live(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;

	return mlx5x_sim_live_objects(ctx->sim) - ctx->base_live;
}

/* A command the case expects refused with status @st and syndrome @synd. */
#define SK_EXPECT_FAIL(test, expr, st, synd) do {			\
	KUNIT_EXPECT_EQ(test, (expr), (st));				\
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), (u32)(synd));		\
} while (0)

void *sk_mbox(struct kunit *test, size_t len);
#define SK_MBOX(test, typ)	sk_mbox(test, PRM_BYTES(typ))

u8 sk_exec(struct kunit *test, const void *in, size_t inlen, void *out,
	   size_t outlen);

u8 sk_create_uctx(struct kunit *test, u32 cap, u16 *uid);
u8 sk_destroy_uctx(struct kunit *test, u16 uid);
u8 sk_alloc_pd(struct kunit *test, u16 uid, u32 *pdn);
u8 sk_dealloc_pd(struct kunit *test, u16 uid, u32 pdn);
u8 sk_alloc_td(struct kunit *test, u16 uid, u32 *tdn);
u8 sk_dealloc_td(struct kunit *test, u16 uid, u32 tdn);
u8 sk_alloc_uar(struct kunit *test, u16 uid, u32 *index);
u8 sk_dealloc_uar(struct kunit *test, u16 uid, u32 index);
u8 sk_alloc_q_counter(struct kunit *test, u16 uid, u32 *id);
u8 sk_dealloc_q_counter(struct kunit *test, u16 uid, u32 id);
u8 sk_alloc_flow_counter(struct kunit *test, u16 uid, u32 *id);
u8 sk_dealloc_flow_counter(struct kunit *test, u16 uid, u32 id);
u8 sk_create_umem(struct kunit *test, u16 uid, u64 nmtt, unsigned int room,
		  u32 log_page, const u64 *mtt, u32 *id);
u8 sk_create_umem_off(struct kunit *test, u16 uid, u64 nmtt,
		      unsigned int room, u32 log_page, u32 page_offset,
		      const u64 *mtt, u32 *id);
u8 sk_destroy_umem(struct kunit *test, u16 uid, u32 id);
u8 sk_query_cap(struct kunit *test, u16 op_mod, bool other_function,
		void **cap);

/* A user context the case needs to exist. */
u16 sk_new_uctx(struct kunit *test);

/* Mark an object referenced (users) as a later command set would. */
void sk_set_users(struct kunit *test, enum sim_obj_type type, u32 id,
		  unsigned int users);

#endif /* MLX5X_SIM_KUNIT_H */
