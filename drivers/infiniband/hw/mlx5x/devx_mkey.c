// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the kernel does with the memory keys and PSVs a process creates
 * through DEVX, beyond the allow-list of devx_kinds_mkey.c.
 *
 * - A CREATE_MKEY mailbox must hold the whole mkey context: firmware
 *   would read past a shorter one.
 * - Indirect (KLM, KSM) mkeys are kept in the device's indirect_mkeys
 *   table, by mkey index: their key (index and tag), table size, owner
 *   and features.  Upstream mlx5 keeps the same set for on-demand paging,
 *   whose page faults name a key the kernel must resolve; here it is what
 *   the kernel knows of the keys processes hand to UMR, shown in debugfs
 *   (indirect_mkeys) and dropped before the mkey is destroyed (kept again
 *   if the destroy fails).  A
 *   direct mkey needs no entry: the kernel forced its umem, which firmware
 *   holds.
 * - One CREATE_PSV per PSV: the destroy the kernel keeps names psv0 only.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "mlx5x.h"
#include "devx_kinds.h"
#include "devx_mkey.h"

/* mkc.crypto_en (two bits at 0x1e3) of newer headers, reserved in 6.1 */
#define MLX5X_MKC_CRYPTO_EN_OFF	(PRM_BIT_OFF(mkc, reserved_at_1e0) + 3)

enum {
	MLX5X_IMKEY_SIG		= 1 << 0,	/* bsf_en */
	MLX5X_IMKEY_CRYPTO	= 1 << 1,	/* crypto_en */
	MLX5X_IMKEY_RINVAL	= 1 << 2,	/* en_rinval */
	MLX5X_IMKEY_UMR		= 1 << 3,	/* umr_en */
	MLX5X_IMKEY_FREE	= 1 << 4,	/* created free */
};

/**
 * struct mlx5x_indirect_mkey - an indirect mkey a process created
 * @key: mkey index << 8 | its tag
 * @ndescs: translation entries, as firmware rounded them
 * @uid: the creating context's uid
 * @mode: MLX5_MKC_ACCESS_MODE_KLMS or _KSM
 * @flags: MLX5X_IMKEY_*
 */
struct mlx5x_indirect_mkey {
	u32 key;
	u32 ndescs;
	u16 uid;
	u8 mode;
	u8 flags;
};

static const void *mlx5x_mkc(const void *in)
{
	return PRM_ADDR(create_mkey_in, in, memory_key_mkey_entry);
}

static u8 mlx5x_mkc_mode(const void *mkc)
{
	return PRM_GET(mkc, mkc, access_mode_4_2) << 2 |
	       PRM_GET(mkc, mkc, access_mode_1_0);
}

/**
 * mlx5x_devx_mkey_check() - a CREATE_MKEY mailbox holds the mkey context
 * @in: the mailbox
 * @inlen: its length
 *
 * Return: 0 or -EINVAL.
 */
int mlx5x_devx_mkey_check(const void *in, size_t inlen)
{
	if (inlen < PRM_BYTE_OFF(create_mkey_in, memory_key_mkey_entry) +
		    PRM_BYTES(mkc))
		return -EINVAL;
	return 0;
}

/**
 * mlx5x_devx_mkey_created() - track an indirect mkey firmware created
 * @obj: the DEVX object, its mkey index in key[0]
 * @in: the CREATE_MKEY mailbox as it ran
 * @out: its output
 *
 * Return: 0, -ENOMEM, or -EBUSY if the index is already tracked.
 */
int mlx5x_devx_mkey_created(struct mlx5x_devx_obj *obj,
				   const void *in, const void *out)
{
	const void *mkc = mlx5x_mkc(in);
	struct mlx5x_indirect_mkey *ent;
	u8 mode = mlx5x_mkc_mode(mkc);
	int err;

	if (mode != MLX5_MKC_ACCESS_MODE_KLMS &&
	    mode != MLX5_MKC_ACCESS_MODE_KSM)
		return 0;
	ent = kzalloc(sizeof(*ent), GFP_KERNEL);
	if (!ent)
		return -ENOMEM;
	ent->key = obj->key[0] << 8 | PRM_GET(mkc, mkc, mkey_7_0);
	/* firmware keeps the table in 64-byte units (MLX5_UMR_KLM_ALIGNMENT) */
	ent->ndescs = round_up(PRM_GET(mkc, mkc, translations_octword_size),
			       4);
	ent->uid = prm_in_uid(in);
	ent->mode = mode;
	ent->flags = (PRM_GET(mkc, mkc, bsf_en) ? MLX5X_IMKEY_SIG : 0) |
		     (prm_get_bits(mkc, MLX5X_MKC_CRYPTO_EN_OFF, 2) ?
		      MLX5X_IMKEY_CRYPTO : 0) |
		     (PRM_GET(mkc, mkc, en_rinval) ? MLX5X_IMKEY_RINVAL : 0) |
		     (PRM_GET(mkc, mkc, umr_en) ? MLX5X_IMKEY_UMR : 0) |
		     (PRM_GET(mkc, mkc, free) ? MLX5X_IMKEY_FREE : 0);
	/* an index firmware handed out twice would be a firmware bug */
	err = xa_insert(&obj->dev->indirect_mkeys, obj->key[0], ent,
			GFP_KERNEL);
	if (err)
		kfree(ent);
	return err;
}

/**
 * mlx5x_devx_mkey_untrack() - forget an mkey about to be destroyed
 * @obj: the DEVX object
 *
 * Before the destroy, as upstream does: once firmware frees the index,
 * another context's CREATE_MKEY may get it, and its entry must find the
 * slot free.
 *
 * Return: the entry (NULL for a direct mkey), for mlx5x_devx_mkey_retrack()
 * should the destroy fail.
 */
void *mlx5x_devx_mkey_untrack(struct mlx5x_devx_obj *obj)
{
	return xa_erase(&obj->dev->indirect_mkeys, obj->key[0]);
}

/**
 * mlx5x_devx_mkey_retrack() - the destroy failed: track the mkey again
 * @obj: the DEVX object, still alive in firmware
 * @rec: what mlx5x_devx_mkey_untrack() returned
 *
 * Firmware still holds the index, so no other entry can have taken the
 * slot; only a failed allocation loses the entry (the mkey then goes
 * unlisted in debugfs, nothing else).
 */
void mlx5x_devx_mkey_retrack(struct mlx5x_devx_obj *obj, void *rec)
{
	if (xa_insert(&obj->dev->indirect_mkeys, obj->key[0], rec,
		      GFP_KERNEL))
		kfree(rec);
}

/**
 * mlx5x_devx_psv_check() - a CREATE_PSV mailbox asks for one PSV
 * @in: the mailbox
 * @inlen: its length
 *
 * Return: 0 or -EINVAL.
 */
int mlx5x_devx_psv_check(const void *in, size_t inlen)
{
	if (!mlx5x_field_in(&(struct mlx5x_field)MLX5X_FIELD(create_psv_in,
							      num_psv),
			    inlen) ||
	    PRM_GET(create_psv_in, in, num_psv) != 1)
		return -EINVAL;
	return 0;
}

static int mlx5x_indirect_mkeys_show(struct seq_file *m, void *unused)
{
	struct mlx5x_dev *dev = m->private;
	struct mlx5x_indirect_mkey *ent;
	unsigned long index;

	seq_puts(m, "key uid mode ndescs flags\n");
	xa_lock(&dev->indirect_mkeys);
	xa_for_each(&dev->indirect_mkeys, index, ent)
		seq_printf(m, "0x%08x %u %s %u%s%s%s%s%s\n", ent->key, ent->uid,
			   ent->mode == MLX5_MKC_ACCESS_MODE_KSM ? "ksm" :
								    "klm",
			   ent->ndescs,
			   ent->flags & MLX5X_IMKEY_FREE ? " free" : "",
			   ent->flags & MLX5X_IMKEY_UMR ? " umr" : "",
			   ent->flags & MLX5X_IMKEY_SIG ? " sig" : "",
			   ent->flags & MLX5X_IMKEY_CRYPTO ? " crypto" : "",
			   ent->flags & MLX5X_IMKEY_RINVAL ? " rinval" : "");
	xa_unlock(&dev->indirect_mkeys);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mlx5x_indirect_mkeys);

/**
 * mlx5x_devx_mkey_debugfs_init() - the indirect_mkeys file of a device
 * @dev: its debugfs directory exists
 */
void mlx5x_devx_mkey_debugfs_init(struct mlx5x_dev *dev)
{
	debugfs_create_file("indirect_mkeys", 0400, dev->dbg, dev,
			    &mlx5x_indirect_mkeys_fops);
}
