// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Implicit on-demand paging: one ODP umem over the whole user address
 * space (an implicit ODP MR's, ibv_reg_mr(3) with address 0 and length
 * SIZE_MAX), its page N the process's page at N << 12.
 *
 * A table of that many entries is not made.  The entries live in blocks
 * of SIM_ODP_BLOCK (2 MiB of the address space each), made by the driver
 * when it takes up a span for the device (its child of the MR, odp.c)
 * and freed when it drops the span; an entry of no block is absent, and
 * an access to it faults as any absent page of an ODP umem does
 * (mem/odp.c).  Blocks are made and freed under the model's lock, a
 * freed one leaves the table under the ODP lock too, and the data path
 * reads the entries only under that lock: it never reads a freed block.
 *
 * A ConnectX builds the same out of a KSM mkey whose entries name one
 * child mkey a span, null until the span is first faulted; the model
 * serves the MR's mkey from the umem directly, so its faults, rights and
 * invalidation are those of any ODP umem.
 */
#include <linux/slab.h>
#include "../sim_priv.h"

/* The block holding entry @i of implicit umem @umem, or NULL. */
u64 *sim_odp_sparse_ent(struct sim_umem *umem, u64 i)
{
	u64 *blk = xa_load(&umem->blocks, i >> SIM_ODP_BLOCK_SHIFT);

	return blk ? blk + (i & (SIM_ODP_BLOCK - 1)) : NULL;
}

/* Whether every entry of [@first, @first + @n) has a block; n nonzero. */
static bool sim_odp_sparse_has(struct sim_umem *umem, u64 first, u64 n)
{
	u64 b;

	for (b = first >> SIM_ODP_BLOCK_SHIFT;
	     b <= (first + n - 1) >> SIM_ODP_BLOCK_SHIFT; b++)
		if (!xa_load(&umem->blocks, b))
			return false;
	return true;
}

/**
 * sim_odp_sparse_map() - set entries of an implicit umem
 * @umem: the umem, the ODP lock held
 * @first: the first entry, inside the umem
 * @n: entries, inside the umem
 * @ents: their values
 *
 * Return: 0, or -EINVAL when a block of them was not made: none is set.
 */
int sim_odp_sparse_map(struct sim_umem *umem, u64 first, u64 n,
		       const u64 *ents)
{
	u64 i;

	if (n && !sim_odp_sparse_has(umem, first, n))
		return -EINVAL;
	for (i = 0; i < n; i++)
		*sim_odp_sparse_ent(umem, first + i) = ents[i];
	return 0;
}

/**
 * sim_odp_sparse_zap() - make entries of an implicit umem absent
 * @umem: the umem, the ODP lock held
 * @first: the first entry
 * @n: entries, clipped to the umem
 *
 * Only the blocks there are visited: a zap of the whole umem is cheap.
 */
void sim_odp_sparse_zap(struct sim_umem *umem, u64 first, u64 n)
{
	u64 last, b, lo, hi;
	unsigned long idx;
	u64 *blk;

	if (!n || first >= umem->nmtt)
		return;
	last = first + min(n, umem->nmtt - first) - 1;
	xa_for_each_range(&umem->blocks, idx, blk,
			  first >> SIM_ODP_BLOCK_SHIFT,
			  last >> SIM_ODP_BLOCK_SHIFT) {
		b = (u64)idx << SIM_ODP_BLOCK_SHIFT;
		lo = max(first, b);
		hi = min(last, b + SIM_ODP_BLOCK - 1);
		memset(blk + (lo - b), 0, (hi - lo + 1) * sizeof(*blk));
	}
}

/* Every block of an implicit umem that goes; nothing reaches it now. */
void sim_odp_sparse_release(struct sim_umem *umem)
{
	unsigned long idx;
	u64 *blk;

	xa_for_each(&umem->blocks, idx, blk) {
		kfree(blk);
		umem->odp->odp_blocks--;
	}
	xa_destroy(&umem->blocks);
}

/**
 * mlx5x_sim_odp_implicit() - make a umem the implicit ODP umem of the
 * user address space
 * @sim: the model
 * @umem_id: a umem as sim_odp_claim() takes it, of 4 KiB pages from the
 *	     first byte of its first page; its own entries are dropped
 * @writable: its pages may be given writable
 * @npages: the address space's 4 KiB pages; below 1 << 52
 *
 * Return: 0, sim_odp_claim()'s errno, or -EINVAL (its pages or @npages
 * do not fit).
 */
int mlx5x_sim_odp_implicit(struct mlx5x_sim *sim, u32 umem_id,
			   bool writable, u64 npages)
{
	struct sim_umem *umem;
	u64 *old = NULL;
	int err;

	mutex_lock(&sim->lock);
	err = sim_odp_claim(sim, umem_id, &umem);
	if (!err && (umem->log_page != 12 || umem->page_offset || !npages ||
		     npages >= BIT_ULL(52)))
		err = -EINVAL;
	if (!err) {
		spin_lock(&sim->odp_lock);
		old = umem->mtt;
		umem->mtt = NULL;
		xa_init(&umem->blocks);
		umem->sparse = true;
		umem->nmtt = npages;
		umem->ro_pages = npages;
		umem->odp_wr = writable;
		umem->odp = sim;
		spin_unlock(&sim->odp_lock);
	}
	mutex_unlock(&sim->lock);
	kvfree(old);
	return err;
}

static int sim_odp_blocks_make(struct mlx5x_sim *sim, struct sim_umem *umem,
			       u64 b, u64 last)
{
	u64 *blk;
	int err;

	for (; b <= last; b++) {
		if (xa_load(&umem->blocks, b))
			continue;
		blk = kcalloc(SIM_ODP_BLOCK, sizeof(*blk), GFP_KERNEL);
		if (!blk)
			return -ENOMEM;
		err = xa_insert(&umem->blocks, b, blk, GFP_KERNEL);
		if (err) {
			kfree(blk);
			return err;
		}
		sim->odp_blocks++;
	}
	return 0;
}

static void sim_odp_blocks_free(struct mlx5x_sim *sim, struct sim_umem *umem,
				u64 b, u64 last)
{
	u64 *blk;

	for (; b <= last; b++) {
		spin_lock(&sim->odp_lock);
		blk = xa_erase(&umem->blocks, b);
		spin_unlock(&sim->odp_lock);
		sim->odp_blocks -= !!blk;
		kfree(blk);
	}
}

/**
 * mlx5x_sim_odp_blocks() - make or free the entries of a span of an
 * implicit ODP umem
 * @sim: the model
 * @umem_id: the umem (mlx5x_sim_odp_implicit())
 * @first: the span's first entry, a multiple of SIM_ODP_BLOCK
 * @n: its entries, a multiple of SIM_ODP_BLOCK, inside the umem
 * @make: make the blocks (absent entries), else free them (whatever
 *	  entries they hold are gone: absent)
 *
 * Return: 0, -EINVAL (no such umem, or a span not of whole blocks inside
 * it), or -ENOMEM (blocks made before stay, for the caller to free).
 */
int mlx5x_sim_odp_blocks(struct mlx5x_sim *sim, u32 umem_id, u64 first,
			 u64 n, bool make)
{
	const u64 mask = SIM_ODP_BLOCK - 1;
	struct sim_umem *umem;
	u64 b, last;
	int err = 0;

	mutex_lock(&sim->lock);
	umem = sim_odp_umem(sim, umem_id);
	if (!umem || !umem->sparse || !n || (first | n) & mask ||
	    first >= umem->nmtt || n > umem->nmtt - first) {
		err = -EINVAL;
		goto out;
	}
	b = first >> SIM_ODP_BLOCK_SHIFT;
	last = (first + n - 1) >> SIM_ODP_BLOCK_SHIFT;
	if (make)
		err = sim_odp_blocks_make(sim, umem, b, last);
	else
		sim_odp_blocks_free(sim, umem, b, last);
out:
	mutex_unlock(&sim->lock);
	return err;
}
