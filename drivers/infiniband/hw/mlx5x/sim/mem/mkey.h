/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Memory keys of the firmware model (cmd_mkey.c). */
#ifndef MLX5X_SIM_MKEY_H
#define MLX5X_SIM_MKEY_H

#include "../sim_priv.h"

/*
 * Fields of create_mkey_in that 6.1's mlx5_ifc.h still calls reserved:
 * newer headers name them mkey_umem_id (32 bits at 0x320) and
 * mkey_umem_offset (64 bits at 0x340).
 */
#define SIM_MKEY_UMEM_ID_OFF	PRM_BIT_OFF(create_mkey_in, reserved_at_320)
#define SIM_MKEY_UMEM_OFFSET_OFF (SIM_MKEY_UMEM_ID_OFF + 0x20)
/* mkc.crypto_en, two bits at 0x1e3 in newer headers (reserved in 6.1) */
#define SIM_MKC_CRYPTO_EN_OFF	(PRM_BIT_OFF(mkc, reserved_at_1e0) + 3)
#define SIM_MKC_CRYPTO_EN_BITS	2
/* a signature mkey's BSF: one 64-byte struct mlx5_bsf, 4 octwords */
#define SIM_MKEY_SIG_BSF_OCTWORDS	4
/* a crypto mkey's BSF: one 64-byte crypto BSF, after the signature one */
#define SIM_MKEY_CRYPTO_BSF_OCTWORDS	4

/*
 * One KLM or KSM entry of klm_pas_mtt, 16 bytes, as <linux/mlx5/qp.h>
 * lays out struct mlx5_klm (byte count, key, address) and struct
 * mlx5_ksm (reserved, key, address).
 */
struct sim_klm {
	__be32 bcount;
	__be32 key;
	__be64 va;
};

/**
 * struct sim_mkey_ent - an entry of an indirect mkey
 * @obj: the mkey it names, referenced
 * @klm: as given (an entry of a repeat block: its byte count, key and
 *	 address, as a KLM)
 * @stride: of a repeat block's entry: how far its address moves on each
 *	    repetition of the block
 */
struct sim_mkey_ent {
	struct sim_obj *obj;
	struct sim_klm klm;
	u32 stride;
};

#define SIM_OCTWORD_BYTES	16
/*
 * Translation tables are kept in 64-byte units (MLX5_UMR_KLM_ALIGNMENT,
 * MLX5_UMR_MTT_ALIGNMENT in <linux/mlx5/device.h>): firmware rounds
 * translations_octword_size up to a multiple of 4 and QUERY_MKEY says so.
 */
#define SIM_MKEY_OCTWORD_ALIGN	4
/* log_page_size of an MTT or KSM mkey: 4 KiB up to 1 GiB */
#define SIM_MKEY_MIN_LOG_PAGE	12
#define SIM_MKEY_MAX_LOG_PAGE	30
#define SIM_MKEY_QPN_NONE	0xffffff

/**
 * struct sim_mkey_crypto - what a crypto BSF configured (dp/crypto_bsf.c)
 * @dek: the DEK object's number, of the mkey's context and PD
 * @mem_encrypted: the memory side holds the ciphertext (decrypt what is
 *	read, encrypt what is written); else the wire side does
 * @unit: the data unit size in bytes
 * @tweak: the first data unit's tweak, as the BSF gives it (big endian)
 */
struct sim_mkey_crypto {
	u32 dek;
	bool mem_encrypted;
	u32 unit;
	u8 tweak[16];
};

/* A signature domain's kind (dp/sig_bsf.c): none, T10-DIF, a CRC */
enum sim_sig_kind {
	SIM_SIG_NONE,
	SIM_SIG_T10DIF,
	SIM_SIG_CRC32,
	SIM_SIG_CRC32C,
};

/**
 * struct sim_sig_domain - what one domain (memory or wire) of a
 * signature BSF says its blocks carry (dp/sig_bsf.c)
 * @kind: enum sim_sig_kind
 * @block: data bytes of a block (each followed by its signature)
 * @seed: the guard's or CRC's initial value: all ones, else 0
 * @ipcs: T10-DIF: the guard is an IP checksum, else a CRC16
 * @inc_ref: T10-DIF: the reference tag grows by one each block
 * @escape: T10-DIF: 1 no check where the application tag is 0xffff; 2
 *	    where it is 0xffff and the reference tag 0xffffffff too
 * @apptag: T10-DIF: application tag
 * @reftag: T10-DIF: the first block's reference tag
 * @psv: the PSV the domain names
 */
struct sim_sig_domain {
	u8 kind;
	u32 block;
	bool seed;
	bool ipcs;
	bool inc_ref;
	u8 escape;
	u16 apptag;
	u32 reftag;
	u32 psv;
};

/**
 * struct sim_mkey_sig - a signature BSF as the data path applies it
 * @mem: the memory domain
 * @wire: the wire domain
 * @check: byte mask of the input domain's signature bytes checked
 * @copy: byte mask of them copied to the output domain (same block
 *	  structure in both domains), else computed
 */
struct sim_mkey_sig {
	struct sim_sig_domain mem, wire;
	u8 check;
	u8 copy;
};

/**
 * struct sim_mkey - a memory key
 * @obj: its table entry; obj.id is the mkey index
 * @mkc: its context as QUERY_MKEY returns it
 * @access_mode: MLX5_MKC_ACCESS_MODE_MTT, _KLMS or _KSM
 * @depth: how many indirect mkeys a lookup crosses: 0 for a direct mkey,
 *	   1 + the deepest of its entries for an indirect one
 * @nent: entries of an indirect mkey given at create time
 * @ent: the entries, each mkey named referenced
 * @pd: its protection domain, referenced
 * @umem: the umem of a direct mkey, referenced (NULL for the kernel's raw
 *	  translation)
 * @umem_off: where in @umem its first byte (start_addr) is
 * @dm: the MEMIC allocation or SW_ICM object a device memory mkey covers,
 *	referenced
 * @crypto_configured: a crypto mkey (crypto_en) has had its crypto BSF
 *	(DEK, tweak, data unit) written by a UMR WQE (dp/crypto_bsf.c).
 *	Created false: until then every access through it is refused
 *	(sim_mkey_access()).
 * @crypto: that BSF, as the data path applies it (dp/dp_crypto.c)
 * @mw: a memory window bound by a UMR WQE (dp/dp_umr.c): its one entry
 *	is the MR the bind named, of which an access through the window
 *	needs only the local rights its remote ones stand on
 * @umr_ent: the entry a UMR WQE wrote (@ent then points here)
 * @klm_list: its KLM list was written by mlx5dv_wr_mkey_configure()'s
 *	UMR (dp/umr_mkey.c), which LOCAL_INV frees again
 * @rb_count: its UMR gave a repeat block (dp/umr_repeat.c): its @ent are
 *	repeated this many times; 0 for a KLM list
 * @rb_bytes: the bytes of one repetition, the sum of the entries' counts
 * @sig_on: a signature mkey (bsf_en, no crypto) has a signature BSF
 *	(dp/sig_bsf.c): an access through it is in the wire domain
 *	(dp/dp_sig.c)
 * @sig: that BSF
 */
struct sim_mkey {
	struct sim_obj obj;
	u8 mkc[PRM_BYTES(mkc)];
	u8 access_mode;
	u8 depth;
	u32 nent;
	struct sim_mkey_ent *ent;
	struct sim_obj *pd;
	struct sim_umem *umem;
	u64 umem_off;
	struct sim_obj *dm;
	bool crypto_configured;
	struct sim_mkey_crypto crypto;
	bool mw;
	struct sim_mkey_ent umr_ent;
	bool klm_list;
	u32 rb_count;
	u32 rb_bytes;
	bool sig_on;
	struct sim_mkey_sig sig;
};

static inline u32 sim_mkey_key(const struct sim_mkey *mkey)
{
	return mkey->obj.id << 8 | PRM_GET(mkc, mkey->mkc, mkey_7_0);
}

void sim_mkey_release(struct sim_obj *obj);

/* mkey_dm.c: mkeys over device memory (access mode MEMIC or SW_ICM) */
static inline bool sim_mkey_mode_dm(u8 mode)
{
	return mode == MLX5_MKC_ACCESS_MODE_MEMIC ||
	       mode == MLX5_MKC_ACCESS_MODE_SW_ICM;
}

u8 sim_mkey_dm(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       struct sim_mkey *mkey, u64 octwords);

static inline bool sim_mkey_crypto(const struct sim_mkey *mkey)
{
	return prm_get_bits(mkey->mkc, SIM_MKC_CRYPTO_EN_OFF,
			    SIM_MKC_CRYPTO_EN_BITS);
}

/*
 * A signature mkey (bsf_en without crypto): rdma-core's
 * test_mkey_sig_pipelining_* give one remote write over an MR of local
 * write alone and write through it, as a ConnectX lets them: its entries
 * need only the local rights its remote ones stand on, as a window's MR
 * (sim_mkey_mw_rights()).
 */
static inline bool sim_mkey_sig_capable(const struct sim_mkey *mkey)
{
	return PRM_GET(mkc, mkey->mkc, bsf_en) && !sim_mkey_crypto(mkey);
}

/* mkey_access.c: what a memory access through a key resolves to */

/* rights an access needs, one per access bit of the mkey context */
enum sim_mkey_rights {
	SIM_MKEY_LOCAL_READ	= BIT(0),	/* lr */
	SIM_MKEY_LOCAL_WRITE	= BIT(1),	/* lw */
	SIM_MKEY_REMOTE_READ	= BIT(2),	/* rr */
	SIM_MKEY_REMOTE_WRITE	= BIT(3),	/* rw */
	SIM_MKEY_ATOMIC		= BIT(4),	/* a */
	SIM_MKEY_RIGHTS_ALL	= BIT(5) - 1,
};

/**
 * typedef sim_mkey_seg_fn - one piece of an access, on a direct mkey
 * @arg: &struct sim_mkey_access.arg
 * @direct: the direct mkey (MTT, MEMIC or SW_ICM access mode) that holds it
 * @va: its first byte, in @direct's address space (start_addr based)
 * @len: its bytes
 *
 * Return: 0 to go on; a sim_syndrome stops the walk and is returned.
 */
typedef u32 (*sim_mkey_seg_fn)(void *arg, const struct sim_mkey *direct,
			       u64 va, u64 len);

/**
 * struct sim_mkey_access - one memory access through a key
 * @uid: the context making it (its QP's uid); the key must be its own
 * @pdn: the accessing QP's PD, which must be the key's; SIM_MKEY_ANY_PD
 *	 skips that check (the debugfs probe)
 * @key: the lkey or rkey: mkey index << 8 | tag
 * @va: first byte, in the key's address space
 * @len: bytes
 * @rights: enum sim_mkey_rights the access needs, at every mkey it crosses
 * @seg: called for each piece on a direct mkey, in address order; NULL
 *	 only checks
 * @arg: for @seg
 * @crypto: the caller applies a configured crypto mkey's cipher to the
 *	 bytes (dp/dp_crypto.c): only then may @key be one
 * @sig: the caller applies a signature mkey's BSF (dp/dp_sig.c), and
 *	 @va and @len are in its memory domain: only then may @key be one
 */
struct sim_mkey_access {
	u16 uid;
	u32 pdn;
	u32 key;
	u64 va;
	u64 len;
	unsigned int rights;
	sim_mkey_seg_fn seg;
	void *arg;
	bool crypto;
	bool sig;
};

#define SIM_MKEY_ANY_PD		U32_MAX

/*
 * What an access through a bound memory window needs of the MR beneath
 * (IBTA 10.6.7.2): remote read stands on local read, remote write and
 * atomics on local write.
 */
static inline unsigned int sim_mkey_mw_rights(unsigned int rights)
{
	unsigned int local = 0;

	if (rights & (SIM_MKEY_LOCAL_READ | SIM_MKEY_REMOTE_READ))
		local |= SIM_MKEY_LOCAL_READ;
	if (rights & (SIM_MKEY_LOCAL_WRITE | SIM_MKEY_REMOTE_WRITE |
		      SIM_MKEY_ATOMIC))
		local |= SIM_MKEY_LOCAL_WRITE;
	return local;
}

void sim_mkey_drop_entries(struct sim_mkey *mkey);

u32 sim_mkey_access(struct mlx5x_sim *sim, const struct sim_mkey_access *acc);
const char *sim_mkey_access_verdict(u32 syndrome);
void sim_mkey_access_debugfs_init(struct mlx5x_sim *sim);

/* dp/mkey_xlate.c: the data path's translation of (lkey, address, length) */
bool sim_mkey_xlate_rights(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			   u64 va, u32 len, u8 rights, struct sim_umem **umem,
			   u64 *off);
u32 sim_mkey_xlate(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key, u64 va,
		   u32 len, bool write, struct sim_umem **umem, u64 *off);
/* one piece of a range: its umem, where in it, how many bytes */
typedef bool (*sim_xlate_piece_fn)(void *arg, struct sim_umem *umem, u64 off,
				   u32 len);
bool sim_mkey_xlate_each(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			 u64 va, u32 len, u8 rights, sim_xlate_piece_fn fn,
			 void *arg);
bool sim_mkey_xlate_crypto(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			   u64 va, u32 len, u8 rights, sim_xlate_piece_fn fn,
			   void *arg);
bool sim_mkey_xlate_sig(struct mlx5x_sim *sim, u16 uid, u32 pdn, u32 key,
			u64 va, u32 len, u8 rights, sim_xlate_piece_fn fn,
			void *arg);

#endif /* MLX5X_SIM_MKEY_H */
