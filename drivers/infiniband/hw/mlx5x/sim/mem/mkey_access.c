// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What a memory access through a key resolves to, as the device checks
 * it before it moves a byte: the key names a live mkey with that tag, of
 * the accessor's context and PD; the mkey is in use (not free), grants
 * the access rights asked for, is not a crypto mkey whose crypto BSF no
 * UMR has written, and covers [va, va + len).  An indirect mkey is walked
 * through its KLM or KSM entries, each of which must pass the same checks
 * on its own part, down to the direct mkeys that hold the bytes; one that
 * a UMR gave a repeat block (an interleaved layout) repeats its entries,
 * each moved on by its stride at every repetition.  Below a
 * bound memory window, the MR must grant the local rights the access's
 * stand on (sim_mkey_mw_rights()): a window grants remote access to an MR
 * that itself grants none.  An mkey over device memory (MEMIC, SW_ICM) is
 * zero-based, as ibv_reg_dm_mr(3) has it: the address is an offset from
 * its first byte, which start_addr places.
 *
 * sim_mkey_access() is the one entry point: the data path (a QP's WQE
 * scatter/gather entries, an RDMA READ or WRITE's rkey) calls it with
 * the model's lock held and gets, for a good access, each direct piece
 * through its callback.  Every refusal is a syndrome of enum
 * sim_syndrome, as a completion with error would carry.
 *
 * debugfs fw/mkey_access: write "KEY VA LEN RIGHTS" (RIGHTS: letters of
 * r local read, w local write, R remote read, W remote write, a atomic;
 * "-" none), read the verdict: "ok" and one "seg KEY VA LEN" line per
 * direct piece, or "error NAME SYNDROME".  The probe accesses as the
 * key's own context, through any PD.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "mkey.h"

static const struct {
	u8 right;
	u16 bit;	/* of the mkey context */
} sim_mkey_right_bits[] = {
	{ SIM_MKEY_LOCAL_READ, PRM_BIT_OFF(mkc, lr) },
	{ SIM_MKEY_LOCAL_WRITE, PRM_BIT_OFF(mkc, lw) },
	{ SIM_MKEY_REMOTE_READ, PRM_BIT_OFF(mkc, rr) },
	{ SIM_MKEY_REMOTE_WRITE, PRM_BIT_OFF(mkc, rw) },
	{ SIM_MKEY_ATOMIC, PRM_BIT_OFF(mkc, a) },
};

static bool sim_mkey_grants(const struct sim_mkey *mkey, unsigned int rights)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_mkey_right_bits); i++)
		if ((rights & sim_mkey_right_bits[i].right) &&
		    !prm_get_bits(mkey->mkc, sim_mkey_right_bits[i].bit, 1))
			return false;
	return true;
}

static u32 sim_mkey_walk(struct mlx5x_sim *sim,
			 const struct sim_mkey_access *acc,
			 const struct sim_mkey *mkey, u64 va, u64 len,
			 unsigned int depth);

/*
 * [off, off + len) of an mkey laid out by a repeat block: repetition r of
 * the block holds, in entry order, each entry's byte count from its
 * address + r * its stride.
 */
static u32 sim_mkey_walk_repeat(struct mlx5x_sim *sim,
				const struct sim_mkey_access *acc,
				const struct sim_mkey *mkey, u64 off, u64 len,
				unsigned int depth)
{
	const struct sim_mkey_ent *ent;
	u64 cycle, inner, pos, size, piece, va;
	u32 i, synd;

	cycle = div64_u64_rem(off, mkey->rb_bytes, &inner);
	for (; len; cycle++, inner = 0) {
		if (cycle >= mkey->rb_count)
			return SIM_SYND_MKEY_RANGE;
		for (i = 0, pos = 0; i < mkey->nent && len; i++, pos += size) {
			ent = &mkey->ent[i];
			size = be32_to_cpu(ent->klm.bcount);
			if (inner >= pos + size)
				continue;
			piece = min(len, pos + size - inner);
			if (check_add_overflow(be64_to_cpu(ent->klm.va),
					       cycle * ent->stride + inner - pos,
					       &va))
				return SIM_SYND_MKEY_RANGE;
			synd = sim_mkey_walk(sim, acc,
					     container_of(ent->obj,
							  struct sim_mkey, obj),
					     va, piece, depth + 1);
			if (synd)
				return synd;
			inner += piece;
			len -= piece;
		}
		/* a long access through a fine interleave: let others run */
		cond_resched();
	}
	return 0;
}

/* [off, off + len) of an indirect mkey, through its entries */
static u32 sim_mkey_walk_entries(struct mlx5x_sim *sim,
				 const struct sim_mkey_access *acc,
				 const struct sim_mkey *mkey, u64 off, u64 len,
				 unsigned int depth)
{
	bool ksm = mkey->access_mode == MLX5_MKC_ACCESS_MODE_KSM;
	u32 log_page = PRM_GET(mkc, mkey->mkc, log_page_size);
	u64 pos = 0, piece, size, inner;
	const struct sim_mkey_ent *ent;
	struct sim_mkey_access mw;
	u32 i, synd;

	/*
	 * a window's MR, and a signature mkey's entries, are reached with
	 * the local rights of the access
	 */
	if (mkey->mw || sim_mkey_sig_capable(mkey)) {
		mw = *acc;
		mw.rights = sim_mkey_mw_rights(acc->rights);
		acc = &mw;
	}
	if (mkey->rb_count)
		return sim_mkey_walk_repeat(sim, acc, mkey, off, len, depth);
	for (i = 0; i < mkey->nent && len; i++, pos += size) {
		ent = &mkey->ent[i];
		size = ksm ? BIT_ULL(log_page) : be32_to_cpu(ent->klm.bcount);
		if (off >= pos + size)
			continue;
		inner = off - pos;
		piece = min(len, size - inner);
		synd = sim_mkey_walk(sim, acc,
				     container_of(ent->obj, struct sim_mkey, obj),
				     be64_to_cpu(ent->klm.va) + inner, piece,
				     depth + 1);
		if (synd)
			return synd;
		off += piece;
		len -= piece;
	}
	return len ? SIM_SYND_MKEY_RANGE : 0;
}

static u32 sim_mkey_walk(struct mlx5x_sim *sim,
			 const struct sim_mkey_access *acc,
			 const struct sim_mkey *mkey, u64 va, u64 len,
			 unsigned int depth)
{
	const void *mkc = mkey->mkc;
	u64 start = PRM_GET64(mkc, mkc, start_addr);
	u64 size = PRM_GET64(mkc, mkc, len);
	u64 off;

	/* creation bounds the depth; a walk never goes past the cap */
	if (depth > SIM_CAP_GEN(sim, max_indirection))
		return SIM_SYND_MKEY_RANGE;
	if (PRM_GET(mkc, mkc, free))
		return SIM_SYND_MKEY_FREE;
	if (!sim_mkey_grants(mkey, acc->rights))
		return SIM_SYND_MKEY_ACCESS;
	if (sim_mkey_crypto(mkey) && !mkey->crypto_configured)
		return SIM_SYND_CRYPTO_UNCONF;
	/* a cipher is applied to the key the access names, no deeper one */
	if (sim_mkey_crypto(mkey) && (depth || !acc->crypto))
		return SIM_SYND_MKEY_ACCESS;
	/* a signature mkey is reached by its BSF's caller, by its own key */
	if (mkey->sig_on != (acc->sig && !depth))
		return SIM_SYND_MKEY_ACCESS;
	/*
	 * Device memory is zero-based (ibv_reg_dm_mr(3)): the address is an
	 * offset from the mkey's first byte, which start_addr places.
	 */
	if (sim_mkey_mode_dm(mkey->access_mode)) {
		off = va;
		va = start + off;
	} else {
		if (va < start)
			return SIM_SYND_MKEY_RANGE;
		off = va - start;
	}
	if (!PRM_GET(mkc, mkc, length64) && (off > size || len > size - off))
		return SIM_SYND_MKEY_RANGE;
	if (mkey->access_mode == MLX5_MKC_ACCESS_MODE_KLMS ||
	    mkey->access_mode == MLX5_MKC_ACCESS_MODE_KSM)
		return sim_mkey_walk_entries(sim, acc, mkey, off, len, depth);
	return acc->seg ? acc->seg(acc->arg, mkey, va, len) : 0;
}

/**
 * sim_mkey_access() - check a memory access through a key, and resolve it
 * @sim: the model, its lock held
 * @acc: the access: who makes it, through which key, where, what rights,
 *	 and what to call for each direct piece
 *
 * Context: sim->lock held (the mkeys must not change under the walk).
 *
 * Return: 0 if the access may proceed (@acc->seg was called for every
 * piece, in order, and returned 0), else the syndrome of the first check
 * that refused it: NO_OBJECT (no such mkey, or another tag), NOT_OWNER
 * (another context's key), MKEY_PD, MKEY_FREE, MKEY_ACCESS,
 * CRYPTO_UNCONF, MKEY_RANGE, BAD_FIELD (rights outside enum
 * sim_mkey_rights, or va + len wraps), or what @acc->seg returned.
 */
u32 sim_mkey_access(struct mlx5x_sim *sim, const struct sim_mkey_access *acc)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], acc->key >> 8);
	struct sim_mkey *mkey;
	u64 end;

	lockdep_assert_held(&sim->lock);
	if (acc->rights & ~SIM_MKEY_RIGHTS_ALL ||
	    check_add_overflow(acc->va, acc->len, &end))
		return SIM_SYND_BAD_FIELD;
	if (!obj)
		return SIM_SYND_NO_OBJECT;
	mkey = container_of(obj, struct sim_mkey, obj);
	if (sim_mkey_key(mkey) != acc->key)
		return SIM_SYND_NO_OBJECT;
	if (obj->uid != acc->uid)
		return SIM_SYND_NOT_OWNER;
	if (acc->pdn != SIM_MKEY_ANY_PD && mkey->pd->id != acc->pdn)
		return SIM_SYND_MKEY_PD;
	return sim_mkey_walk(sim, acc, mkey, acc->va, acc->len, 0);
}

/**
 * sim_mkey_access_verdict() - name of a sim_mkey_access() result
 * @syndrome: what it returned
 *
 * Return: a short name ("ok" for 0, "other" for one it does not return).
 */
const char *sim_mkey_access_verdict(u32 syndrome)
{
	switch (syndrome) {
	case 0:
		return "ok";
	case SIM_SYND_NO_OBJECT:
		return "no_object";
	case SIM_SYND_NOT_OWNER:
		return "not_owner";
	case SIM_SYND_MKEY_PD:
		return "pd";
	case SIM_SYND_MKEY_FREE:
		return "free";
	case SIM_SYND_MKEY_ACCESS:
		return "access";
	case SIM_SYND_CRYPTO_UNCONF:
		return "crypto_unconfigured";
	case SIM_SYND_MKEY_RANGE:
		return "range";
	case SIM_SYND_BAD_FIELD:
		return "bad_field";
	default:
		return "other";
	}
}

/* debugfs fw/mkey_access */
#define SIM_ACCESS_OUT	4096

struct sim_access_file {
	struct mlx5x_sim *sim;
	struct seq_buf s;
	char out[SIM_ACCESS_OUT];
};

static u32 sim_access_seg(void *arg, const struct sim_mkey *direct, u64 va,
			  u64 len)
{
	struct seq_buf *s = arg;

	seq_buf_printf(s, "seg 0x%x 0x%llx %llu\n", sim_mkey_key(direct), va,
		       len);
	return 0;
}

static int sim_access_parse_rights(const char *str, unsigned int *rights)
{
	static const char letters[] = "rwRWa";
	const char *p;

	*rights = 0;
	if (!strcmp(str, "-"))
		return 0;
	for (; *str; str++) {
		p = strchr(letters, *str);
		if (!p)
			return -EINVAL;
		*rights |= BIT(p - letters);
	}
	return 0;
}

static int sim_access_open(struct inode *inode, struct file *file)
{
	struct sim_access_file *af = kzalloc(sizeof(*af), GFP_KERNEL);

	if (!af)
		return -ENOMEM;
	af->sim = inode->i_private;
	seq_buf_init(&af->s, af->out, sizeof(af->out));
	file->private_data = af;
	return nonseekable_open(inode, file);
}

static int sim_access_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static ssize_t sim_access_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct sim_access_file *af = file->private_data;
	struct sim_mkey_access acc = { .pdn = SIM_MKEY_ANY_PD,
				       .seg = sim_access_seg, .arg = &af->s };
	char *buf, *p, *tok[4];
	struct sim_obj *obj;
	unsigned int i;
	u32 synd;
	int ret = -EINVAL;

	if (count > 128)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = strim(buf);
	for (i = 0; i < ARRAY_SIZE(tok); i++) {
		tok[i] = strsep(&p, " \t");
		if (!tok[i] || !*tok[i])
			goto out;
	}
	if (p || kstrtou32(tok[0], 0, &acc.key) ||
	    kstrtou64(tok[1], 0, &acc.va) || kstrtou64(tok[2], 0, &acc.len) ||
	    sim_access_parse_rights(tok[3], &acc.rights))
		goto out;
	/* the verdict first: "ok", replaced if the access is refused */
	seq_buf_clear(&af->s);
	seq_buf_printf(&af->s, "ok\n");
	mutex_lock(&af->sim->lock);
	/* as the key's own context would access it */
	obj = xa_load(&af->sim->objs[SIM_OBJ_MKEY], acc.key >> 8);
	acc.uid = obj ? obj->uid : 0;
	synd = sim_mkey_access(af->sim, &acc);
	mutex_unlock(&af->sim->lock);
	if (synd) {
		seq_buf_clear(&af->s);
		seq_buf_printf(&af->s, "error %s 0x%x\n",
			       sim_mkey_access_verdict(synd), synd);
	}
	ret = count;
	*ppos = 0;
out:
	kfree(buf);
	return ret;
}

static ssize_t sim_access_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct sim_access_file *af = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, af->out,
				       seq_buf_used(&af->s));
}

static const struct file_operations sim_access_fops = {
	.owner = THIS_MODULE,
	.open = sim_access_open,
	.release = sim_access_release,
	.write = sim_access_write,
	.read = sim_access_read,
	.llseek = noop_llseek,
};

/**
 * sim_mkey_access_debugfs_init() - publish fw/mkey_access
 * @sim: the model, whose debugfs directory exists
 */
void sim_mkey_access_debugfs_init(struct mlx5x_sim *sim)
{
	debugfs_create_file("mkey_access", 0600, sim->dbg, sim,
			    &sim_access_fops);
}
