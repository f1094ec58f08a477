/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the KUnit suites that create mkeys (mkey, access, crypto,
 * signature, device memory, translation): one CREATE_MKEY builder per
 * kind of mkey, each filling a valid mailbox that a case may then spoil,
 * and QUERY_MKEY and DESTROY_MKEY.
 */
#ifndef MLX5X_SK_MKEY_H
#define MLX5X_SK_MKEY_H

#include "sim_kunit.h"
#include "../mem/mkey.h"

/**
 * struct sk_mkey - a CREATE_MKEY mailbox
 * @in: the mailbox, with room for its inline entries
 * @mkc: its mkey context
 * @inlen: its length
 */
struct sk_mkey {
	void *in;
	void *mkc;
	size_t inlen;
};

void sk_mkey_init(struct kunit *test, struct sk_mkey *m, u16 uid, u8 mode,
		  u32 pdn, u32 nent);
void sk_mkey_direct(struct kunit *test, struct sk_mkey *m, u16 uid, u32 pdn,
		    u32 umem_id, u64 offset, u64 va, u64 len);
void sk_mkey_indirect(struct kunit *test, struct sk_mkey *m, u16 uid,
		      u8 mode, u32 pdn, u32 size, u32 nent);
void sk_mkey_umr(struct kunit *test, struct sk_mkey *m, u16 uid, u32 pdn,
		 u32 size, u32 bsf, u32 crypto_en);
void sk_mkey_dm(struct kunit *test, struct sk_mkey *m, u16 uid, u32 pdn,
		u8 mode, u64 start, u64 len, u32 octwords);
void sk_mkey_set_ent(struct sk_mkey *m, u32 i, u32 key, u32 bcount, u64 va);
void sk_mkey_set_bsf(struct sk_mkey *m, u32 bsf, u32 crypto_en);
u8 sk_mkey_exec(struct kunit *test, const struct sk_mkey *m, u32 *index);
u32 sk_mkey_key(const struct sk_mkey *m, u32 index);
u8 sk_query_mkey(struct kunit *test, u16 uid, u32 index, void **out);
u8 sk_destroy_mkey(struct kunit *test, u16 uid, u32 index);

#endif /* MLX5X_SK_MKEY_H */
