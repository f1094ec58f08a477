/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the mkey selftests (mlx5x_devx_mkey, mlx5x_indirect_mkey):
 * their fixture, a DEVX environment (mlx5x_fixtures.h) with a umem of
 * NPAGES pages, and CREATE_MKEY mailboxes, direct over that umem or
 * indirect (KLM, KSM) with their entries, created through DEVX, refused
 * or queried.
 */
#ifndef MLX5X_MKEY_H
#define MLX5X_MKEY_H

#include <errno.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define MODE_PA			0
#define MODE_MTT		MKEY_MODE_MTT
#define MODE_KLM		2
#define MODE_KSM		3

#define PAGE			4096
#define NPAGES			4
#define VA			0x7f0000000000ULL
#define KLM_BYTES		16

#define IN(f)			PRM_CREATE_MKEY_IN_##f
#define MKC(f)			PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_##f
#define QMKC(f)			PRM_QUERY_MKEY_OUT_MEMORY_KEY_MKEY_ENTRY_##f

/*
 * The cases' fixture: a DEVX context with a PD and a umem of NPAGES
 * pages; after the case, nothing of the context is left in the model.
 */
MT_FIXTURE(mt_devx_env);

MT_FIXTURE_SETUP(mt_devx_env)
{
	return mt_devx_env_open(self, NPAGES * PAGE) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(mt_devx_env)
{
	mt_devx_env_close(self);
}

/* A CREATE_MKEY mailbox: room for NENT_MAX inline entries. */
#define NENT_MAX	8
struct mkey_in {
	uint8_t b[PRM_CREATE_MKEY_IN_BYTES + NENT_MAX * KLM_BYTES];
	size_t len;
};

static inline void mkey_init(struct mkey_in *m, int mode, uint32_t pdn,
			     unsigned int nent)
{
	memset(m, 0, sizeof(*m));
	m->len = PRM_CREATE_MKEY_IN_BYTES + nent * KLM_BYTES;
	mq_mkey_in(m->b, mode, pdn);
}

/* Direct over the env's umem: len bytes at offset, seen at va. */
static inline void mkey_direct(struct mkey_in *m,
			       const struct mt_devx_env *e, uint64_t offset,
			       uint64_t va, uint64_t len)
{
	mkey_init(m, MODE_MTT, e->pdn, 0);
	mq_mkey_direct_in(m->b, e->pdn, e->umem->umem_id, offset, va, len);
}

/* Indirect: free with room for size entries, or nent entries in use. */
static inline void mkey_indirect(struct mkey_in *m, int mode, uint32_t pdn,
				 uint32_t size, unsigned int nent)
{
	mkey_init(m, mode, pdn, nent);
	mt_set(m->b, MKC(FREE), !nent);
	mt_set(m->b, MKC(UMR_EN), 1);
	mt_set(m->b, MKC(TRANSLATIONS_OCTWORD_SIZE), size);
	mt_set(m->b, IN(TRANSLATIONS_OCTWORD_ACTUAL_SIZE), nent);
	if (mode == MODE_KSM)
		mt_set(m->b, MKC(LOG_PAGE_SIZE), 12);
}

/* klm: byte_count, key, address (struct mlx5_klm) */
static inline void mkey_ent(struct mkey_in *m, unsigned int i, uint32_t key,
			    uint32_t bcount, uint64_t va)
{
	unsigned int off = IN(KLM_PAS_MTT_OFF) + i * KLM_BYTES * 8;

	mt_set(m->b, MT_FIELD(off, 32), bcount);
	mt_set(m->b, MT_FIELD(off + 32, 32), key);
	mq_set64(m->b, off + 64, va);
}

struct mkey {
	struct mlx5dv_devx_obj *obj;
	uint32_t index;
	uint32_t key;
};

static inline struct mlx5dv_devx_obj *mkey_create(struct ibv_context *ctx,
						  struct mkey_in *m,
						  uint32_t *out)
{
	memset(out, 0, PRM_CREATE_MKEY_OUT_BYTES);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, m->b, m->len, out,
				      PRM_CREATE_MKEY_OUT_BYTES);
}

static inline bool mkey_ok(struct ibv_context *ctx, struct mkey_in *m,
			   struct mkey *k)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];

	k->obj = mkey_create(ctx, m, out);
	if (!mt_check(k->obj != NULL, __FILE__, __LINE__,
		      "create: errno %d status %#x syndrome %#x", errno,
		      mt_get(out, PRM_OUT_STATUS), mt_get(out,
							  PRM_OUT_SYNDROME)))
		return false;
	k->index = mt_get(out, PRM_CREATE_MKEY_OUT_MKEY_INDEX);
	k->key = k->index << 8 | mt_get(m->b, MKC(MKEY_7_0));
	return CHECK(k->index != 0);
}

/* Refused by firmware with this status and syndrome; nothing created. */
static inline bool mkey_refused(struct ibv_context *ctx, struct mkey_in *m,
				uint8_t status, uint32_t synd,
				const char *what)
{
	uint32_t out[PRM_CREATE_MKEY_OUT_BYTES / 4];

	return mt_devx_refused(mkey_create(ctx, m, out), out, status, synd,
			       what);
}

static inline int mkey_query(struct mkey *k, uint32_t index, uint32_t *out)
{
	uint32_t in[PRM_QUERY_MKEY_IN_BYTES / 4] = {};

	mt_set(in, PRM_QUERY_MKEY_IN_OPCODE, PRM_OP_QUERY_MKEY);
	mt_set(in, PRM_QUERY_MKEY_IN_MKEY_INDEX, index);
	memset(out, 0, PRM_QUERY_MKEY_OUT_BYTES);
	return mlx5dv_devx_obj_query(k->obj, in, sizeof(in), out,
				     PRM_QUERY_MKEY_OUT_BYTES);
}

#endif /* MLX5X_MKEY_H */
