// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* KUnit helpers of the suites that create mkeys: see sk_mkey.h. */
#include "sk_mkey.h"

/* What every mkey here says: its owner, access mode, PD, and no QP. */
static void sk_mkey_hdr(struct kunit *test, struct sk_mkey *m, u16 uid,
			u8 mode, u32 pdn, u32 nent)
{
	m->inlen = PRM_BYTES(create_mkey_in) + nent * sizeof(struct sim_klm);
	m->in = sk_mbox(test, m->inlen);
	m->mkc = PRM_ADDR(create_mkey_in, m->in, memory_key_mkey_entry);
	PRM_SET(create_mkey_in, m->in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	PRM_SET(create_mkey_in, m->in, uid, uid);
	PRM_SET(mkc, m->mkc, access_mode_1_0, mode & 3);
	PRM_SET(mkc, m->mkc, access_mode_4_2, mode >> 2);
	PRM_SET(mkc, m->mkc, qpn, SIM_MKEY_QPN_NONE);
	PRM_SET(mkc, m->mkc, pd, pdn);
}

/**
 * sk_mkey_init() - a CREATE_MKEY mailbox for local reads and writes
 * @test: the case
 * @m: where the mailbox goes
 * @uid: the context that creates the mkey
 * @mode: its access mode (MLX5_MKC_ACCESS_MODE_*)
 * @pdn: its PD
 * @nent: how many inline entries (struct sim_klm) the mailbox has room for
 *
 * The mkey context has lr and lw, and nothing of the translation.
 */
void sk_mkey_init(struct kunit *test, struct sk_mkey *m, u16 uid, u8 mode,
		  u32 pdn, u32 nent)
{
	sk_mkey_hdr(test, m, uid, mode, pdn, nent);
	PRM_SET(mkc, m->mkc, lr, 1);
	PRM_SET(mkc, m->mkc, lw, 1);
}

/**
 * sk_mkey_direct() - a direct (MTT) mkey over a umem, of 4 KiB pages
 * @test: the case
 * @m: where the mailbox goes
 * @uid: the context that creates the mkey
 * @pdn: its PD
 * @umem_id: the umem
 * @offset: where in the umem the mkey starts
 * @va: the address it starts at
 * @len: its length in bytes
 *
 * Local reads and writes (sk_mkey_init()), and a translation table of
 * two pages an octword for the pages @va and @len span.
 */
void sk_mkey_direct(struct kunit *test, struct sk_mkey *m, u16 uid, u32 pdn,
		    u32 umem_id, u64 offset, u64 va, u64 len)
{
	sk_mkey_init(test, m, uid, MLX5_MKC_ACCESS_MODE_MTT, pdn, 0);
	PRM_SET(create_mkey_in, m->in, mkey_umem_valid, 1);
	prm_set_bits(m->in, SIM_MKEY_UMEM_ID_OFF, 32, umem_id);
	*(__be64 *)((u8 *)m->in + SIM_MKEY_UMEM_OFFSET_OFF / 8) =
		cpu_to_be64(offset);
	PRM_SET64(mkc, m->mkc, start_addr, va);
	PRM_SET64(mkc, m->mkc, len, len);
	PRM_SET(mkc, m->mkc, log_page_size, 12);
	PRM_SET(mkc, m->mkc, translations_octword_size,
		DIV_ROUND_UP(len + (va & 0xfff), 8192));
}

/**
 * sk_mkey_indirect() - an indirect (KLM or KSM) mkey a UMR may fill
 * @test: the case
 * @m: where the mailbox goes
 * @uid: the context that creates the mkey
 * @mode: MLX5_MKC_ACCESS_MODE_KLMS or MLX5_MKC_ACCESS_MODE_KSM
 * @pdn: its PD
 * @size: translations_octword_size: its room for entries
 * @nent: the entries the mailbox gives (sk_mkey_set_ent()); none makes
 *	the mkey free
 *
 * Local reads and writes (sk_mkey_init()), umr_en, and for KSM entries
 * of 4 KiB.
 */
void sk_mkey_indirect(struct kunit *test, struct sk_mkey *m, u16 uid,
		      u8 mode, u32 pdn, u32 size, u32 nent)
{
	sk_mkey_init(test, m, uid, mode, pdn, nent);
	PRM_SET(mkc, m->mkc, free, !nent);
	PRM_SET(mkc, m->mkc, umr_en, 1);
	PRM_SET(mkc, m->mkc, translations_octword_size, size);
	PRM_SET(create_mkey_in, m->in, translations_octword_actual_size, nent);
	if (mode == MLX5_MKC_ACCESS_MODE_KSM)
		PRM_SET(mkc, m->mkc, log_page_size, 12);
}

/**
 * sk_mkey_umr() - a free KLM mkey as libmlx5's mlx5dv_create_mkey(3)
 * asks for it, for a UMR to fill
 * @test: the case
 * @m: where the mailbox goes
 * @uid: the context that creates the mkey
 * @pdn: its PD
 * @size: translations_octword_size: its room for entries
 * @bsf: bsf_octword_size, 0 for no BSF (sk_mkey_set_bsf())
 * @crypto_en: crypto_en
 *
 * Local reads only, umr_en.
 */
void sk_mkey_umr(struct kunit *test, struct sk_mkey *m, u16 uid, u32 pdn,
		 u32 size, u32 bsf, u32 crypto_en)
{
	sk_mkey_hdr(test, m, uid, MLX5_MKC_ACCESS_MODE_KLMS, pdn, 0);
	PRM_SET(mkc, m->mkc, lr, 1);
	PRM_SET(mkc, m->mkc, free, 1);
	PRM_SET(mkc, m->mkc, umr_en, 1);
	PRM_SET(mkc, m->mkc, translations_octword_size, size);
	sk_mkey_set_bsf(m, bsf, crypto_en);
}

/**
 * sk_mkey_dm() - an mkey over device memory (MEMIC or SW ICM)
 * @test: the case
 * @m: where the mailbox goes
 * @uid: the context that creates the mkey
 * @pdn: its PD
 * @mode: MLX5_MKC_ACCESS_MODE_MEMIC or MLX5_MKC_ACCESS_MODE_SW_ICM
 * @start: the device memory address it starts at
 * @len: its length in bytes
 * @octwords: translations_octword_size
 *
 * Local reads and writes (sk_mkey_init()).
 */
void sk_mkey_dm(struct kunit *test, struct sk_mkey *m, u16 uid, u32 pdn,
		u8 mode, u64 start, u64 len, u32 octwords)
{
	sk_mkey_init(test, m, uid, mode, pdn, 0);
	PRM_SET(mkc, m->mkc, translations_octword_size, octwords);
	PRM_SET64(mkc, m->mkc, start_addr, start);
	PRM_SET64(mkc, m->mkc, len, len);
}

/**
 * sk_mkey_set_ent() - set an inline KLM or KSM entry
 * @m: the mailbox
 * @i: which entry, below the room sk_mkey_indirect() made
 * @key: the mkey it names
 * @bcount: its byte count (KLM)
 * @va: the address in @key it starts at
 */
void sk_mkey_set_ent(struct sk_mkey *m, u32 i, u32 key, u32 bcount, u64 va)
{
	struct sim_klm *klm = PRM_ADDR(create_mkey_in, m->in, klm_pas_mtt);

	klm[i].bcount = cpu_to_be32(bcount);
	klm[i].key = cpu_to_be32(key);
	klm[i].va = cpu_to_be64(va);
}

/**
 * sk_mkey_set_bsf() - the BSF a UMR will fill, and the crypto offload
 * @m: the mailbox
 * @bsf: bsf_octword_size; bsf_en unless 0
 * @crypto_en: crypto_en
 */
void sk_mkey_set_bsf(struct sk_mkey *m, u32 bsf, u32 crypto_en)
{
	prm_set_bits(m->mkc, SIM_MKC_CRYPTO_EN_OFF, SIM_MKC_CRYPTO_EN_BITS,
		     crypto_en);
	PRM_SET(mkc, m->mkc, bsf_en, !!bsf);
	PRM_SET(mkc, m->mkc, bsf_octword_size, bsf);
}

/**
 * sk_mkey_exec() - run a CREATE_MKEY mailbox
 * @test: the case
 * @m: the mailbox
 * @index: where the new mkey's index goes once created, or NULL
 *
 * Return: the PRM status.
 */
u8 sk_mkey_exec(struct kunit *test, const struct sk_mkey *m, u32 *index)
{
	void *out = SK_MBOX(test, create_mkey_out);
	u8 status;

	status = sk_exec(test, m->in, m->inlen, out,
			 PRM_BYTES(create_mkey_out));
	if (!status && index)
		*index = PRM_GET(create_mkey_out, out, mkey_index);
	return status;
}

/**
 * sk_mkey_key() - the key of an mkey created from a mailbox
 * @m: the mailbox
 * @index: the index sk_mkey_exec() gave
 *
 * Return: @index and the mailbox's tag (mkey_7_0), as a key.
 */
u32 sk_mkey_key(const struct sk_mkey *m, u32 index)
{
	return index << 8 | PRM_GET(mkc, m->mkc, mkey_7_0);
}

/**
 * sk_query_mkey() - QUERY_MKEY
 * @test: the case
 * @uid: the context that asks
 * @index: the mkey
 * @out: where the output mailbox (query_mkey_out) goes
 *
 * Return: the PRM status.
 */
u8 sk_query_mkey(struct kunit *test, u16 uid, u32 index, void **out)
{
	void *in = SK_MBOX(test, query_mkey_in);

	*out = SK_MBOX(test, query_mkey_out);
	PRM_SET(query_mkey_in, in, opcode, MLX5_CMD_OP_QUERY_MKEY);
	prm_in_set_uid(in, uid);
	PRM_SET(query_mkey_in, in, mkey_index, index);
	return sk_exec(test, in, PRM_BYTES(query_mkey_in), *out,
		       PRM_BYTES(query_mkey_out));
}

/**
 * sk_destroy_mkey() - DESTROY_MKEY
 * @test: the case
 * @uid: the context that asks
 * @index: the mkey
 *
 * Return: the PRM status.
 */
u8 sk_destroy_mkey(struct kunit *test, u16 uid, u32 index)
{
	void *in = SK_MBOX(test, destroy_mkey_in);
	void *out = SK_MBOX(test, destroy_mkey_out);

	PRM_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	PRM_SET(destroy_mkey_in, in, uid, uid);
	PRM_SET(destroy_mkey_in, in, mkey_index, index);
	return sk_exec(test, in, PRM_BYTES(destroy_mkey_in), out,
		       PRM_BYTES(destroy_mkey_out));
}
