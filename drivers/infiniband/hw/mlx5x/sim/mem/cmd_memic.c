// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MEMIC: ALLOC_MEMIC, DEALLOC_MEMIC and MODIFY_MEMIC, and the device
 * memory capability page.
 *
 * The MEMIC window of the BAR is backed by ordinary kernel pages that the
 * driver maps into processes as it would map the BAR.  The driver picks a
 * range of whole pages; the model places the allocation at the first
 * offset in that range with the asked alignment that no other allocation
 * overlaps, and answers NO_RESOURCES when there is none (the driver then
 * tries the next range).  Allocations are kernel-owned (the mailboxes
 * carry no uid) and shared: any context's mkey may cover one.
 *
 * A new allocation reads as zeroes in every window, whoever held its
 * pages before (sim_memic_scrub()).
 *
 * The data path reaches the MEMIC window through sim->memic_umem: a umem
 * that is not in the object table, listing the window's pages readable
 * and writable, at BAR offset SIM_MEMIC_BAR_START + its offset.  An mkey
 * over an allocation (mkey_dm.c) resolves to a piece of it.
 *
 * MODIFY_MEMIC hands out the window of an atomic operation over an
 * allocation: the same offset, SIM_MEMIC_SIZE further per operation.  The
 * model cannot see stores to host memory: the driver traps a process's
 * accesses to a window (dm_op_trap.c) and hands each to
 * mlx5x_sim_memic_atomic(), which performs the operation on the MEMIC's
 * byte.  One-byte operands only (memic_atomic_increment and
 * memic_atomic_test_and_set advertise bit 0), so no byte order is
 * chosen for wider ones.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include "dm.h"
#include "../core/general.h"

/**
 * sim_dev_mem_caps_fill() - the device memory capability page
 * @page: QUERY_HCA_CAP type 0xf, zeroed
 */
void sim_dev_mem_caps_fill(void *page)
{
	PRM_SET(device_mem_cap, page, memic, 1);
	PRM_SET(device_mem_cap, page, log_min_memic_alloc_size,
		DM_MEMIC_BASE_LOG);
	PRM_SET(device_mem_cap, page, log_max_memic_addr_alignment,
		SIM_MEMIC_MAX_LOG_ALIGN);
	PRM_SET64(device_mem_cap, page, memic_bar_start_addr,
		  SIM_MEMIC_BAR_START);
	PRM_SET(device_mem_cap, page, memic_bar_size, SIM_MEMIC_SIZE);
	PRM_SET(device_mem_cap, page, max_memic_size, SIM_MEMIC_SIZE);
	PRM_SET(device_mem_cap, page, memic_operations, SIM_MEMIC_OPS);
	prm_set_bits(page, DM_CAP_MEMIC_INC_SIZES_OFF, DM_CAP_MEMIC_SIZES_BITS,
		     SIM_MEMIC_OP_SIZES);
	prm_set_bits(page, DM_CAP_MEMIC_TAS_SIZES_OFF, DM_CAP_MEMIC_SIZES_BITS,
		     SIM_MEMIC_OP_SIZES);
	PRM_SET(device_mem_cap, page, log_sw_icm_alloc_granularity,
		SIM_ICM_LOG_GRANULE);
	PRM_SET64(device_mem_cap, page, steering_sw_icm_start_address,
		  SIM_ICM_STEERING_START);
	PRM_SET(device_mem_cap, page, log_steering_sw_icm_size,
		SIM_ICM_LOG_STEERING);
	PRM_SET64(device_mem_cap, page, header_modify_sw_icm_start_address,
		  SIM_ICM_HDR_MODIFY_START);
	PRM_SET(device_mem_cap, page, log_header_modify_sw_icm_size,
		SIM_ICM_LOG_HDR_MODIFY);
	PRM_SET64(device_mem_cap, page,
		  header_modify_pattern_sw_icm_start_address,
		  SIM_ICM_PATTERN_START);
	PRM_SET(device_mem_cap, page, log_header_modify_pattern_sw_icm_size,
		SIM_ICM_LOG_PATTERN);
	dm_set64(page, DM_CAP_ENCAP_ICM_START_OFF, SIM_ICM_ENCAP_START);
	prm_set_bits(page, DM_CAP_LOG_ENCAP_ICM_SIZE_OFF,
		     DM_CAP_LOG_ENCAP_ICM_SIZE_BITS, SIM_ICM_LOG_ENCAP);
}

/*
 * Each window (the MEMIC, then one per operation) is one physically
 * contiguous block, as a BAR is: a mapping of an allocation is one range
 * of page frames.
 */
#define SIM_MEMIC_ORDER		(SIM_MEMIC_LOG_SIZE - PAGE_SHIFT)

/* The MEMIC window as the data path reaches it: one umem over its pages. */
static struct sim_umem *sim_memic_umem_new(struct page *first)
{
	struct sim_umem *umem = kzalloc(sizeof(*umem), GFP_KERNEL);
	u64 i;

	if (!umem)
		return NULL;
	umem->mtt = kcalloc(SIM_MEMIC_PAGES, sizeof(*umem->mtt), GFP_KERNEL);
	if (!umem->mtt) {
		kfree(umem);
		return NULL;
	}
	for (i = 0; i < SIM_MEMIC_PAGES; i++)
		umem->mtt[i] = (u64)(uintptr_t)page_address(nth_page(first, i)) |
			       SIM_MTT_RD | SIM_MTT_WR;
	umem->nmtt = SIM_MEMIC_PAGES;
	umem->log_page = PAGE_SHIFT;
	return umem;
}

int sim_memic_init(struct mlx5x_sim *sim)
{
	unsigned int w;

	sim->memic_pages = kcalloc(SIM_MEMIC_WINDOWS,
				   sizeof(*sim->memic_pages), GFP_KERNEL);
	if (!sim->memic_pages)
		return -ENOMEM;
	for (w = 0; w < SIM_MEMIC_WINDOWS; w++) {
		sim->memic_pages[w] = alloc_pages(GFP_KERNEL | __GFP_ZERO,
						  SIM_MEMIC_ORDER);
		if (!sim->memic_pages[w]) {
			sim_memic_free(sim);
			return -ENOMEM;
		}
	}
	sim->memic_umem = sim_memic_umem_new(sim->memic_pages[0]);
	if (!sim->memic_umem) {
		sim_memic_free(sim);
		return -ENOMEM;
	}
	return 0;
}

void sim_memic_free(struct mlx5x_sim *sim)
{
	unsigned int w;

	if (sim->memic_umem) {
		kfree(sim->memic_umem->mtt);
		kfree(sim->memic_umem);
		sim->memic_umem = NULL;
	}
	if (!sim->memic_pages)
		return;
	for (w = 0; w < SIM_MEMIC_WINDOWS; w++)
		if (sim->memic_pages[w])
			__free_pages(sim->memic_pages[w], SIM_MEMIC_ORDER);
	kfree(sim->memic_pages);
	sim->memic_pages = NULL;
}

/**
 * mlx5x_sim_memic_page() - the page behind a BAR offset of device memory
 * @sim: the model
 * @bar_off: offset in the BAR: the MEMIC or one of its operation windows
 *
 * The pages of one window follow each other, so one mapping covers an
 * allocation.
 *
 * Return: the page, or NULL outside the windows.
 */
struct page *mlx5x_sim_memic_page(struct mlx5x_sim *sim, u64 bar_off)
{
	u64 rel = bar_off - SIM_MEMIC_BAR_START;

	if (bar_off < SIM_MEMIC_BAR_START ||
	    rel >= (u64)SIM_MEMIC_SIZE * SIM_MEMIC_WINDOWS)
		return NULL;
	return nth_page(sim->memic_pages[rel >> SIM_MEMIC_LOG_SIZE],
			(rel & (SIM_MEMIC_SIZE - 1)) >> PAGE_SHIFT);
}

/**
 * mlx5x_sim_memic_atomic() - an access to an operation window
 * @sim: the model
 * @bar_off: the BAR offset accessed, in an operation window
 * @size: bytes accessed: one, the only size the caps advertise
 * @operand: what a store wrote (an increment's addend)
 * @old: filled in: the MEMIC's byte before the operation
 *
 * Atomic increment adds @operand to the byte at the same offset of the
 * MEMIC, test-and-set sets all its bits (0xff); both read it in the same
 * atomic operation of the CPU, so that any number of processes, and the
 * MEMIC's own mapping, see them whole.  The driver has checked that the
 * byte is in an allocation whose window the access came through.
 *
 * Return: 0, or -EINVAL for an offset outside the operation windows or
 * an operand size not advertised.
 */
int mlx5x_sim_memic_atomic(struct mlx5x_sim *sim, u64 bar_off, u8 size,
			   u64 operand, u64 *old)
{
	u64 rel = bar_off - SIM_MEMIC_BAR_START;
	u64 win = rel >> SIM_MEMIC_LOG_SIZE;
	u8 *p, cur, seen;

	if (bar_off < SIM_MEMIC_BAR_START || win < 1 ||
	    win >= SIM_MEMIC_WINDOWS || size != 1 ||
	    !(SIM_MEMIC_OP_SIZES & size))
		return -EINVAL;
	p = page_address(sim->memic_pages[0]) + (rel & (SIM_MEMIC_SIZE - 1));
	if (win - 1 == DM_MEMIC_OP_ATOMIC_TEST_SET) {
		*old = xchg(p, 0xff);
		return 0;
	}
	cur = READ_ONCE(*p);
	while ((seen = cmpxchg(p, cur, (u8)(cur + operand))) != cur)
		cur = seen;
	*old = cur;
	return 0;
}

/**
 * sim_memic_find() - the allocation that holds a BAR range
 * @sim: the model
 * @addr: BAR offset of its first byte
 * @len: its length; 0 asks for the allocation starting exactly at @addr
 *
 * Return: the allocation, or NULL.
 */
struct sim_memic *sim_memic_find(struct mlx5x_sim *sim, u64 addr, u64 len)
{
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each(&sim->objs[SIM_OBJ_MEMIC], id, obj) {
		struct sim_memic *m = container_of(obj, struct sim_memic, obj);

		if (!len ? addr == m->addr :
		    addr >= m->addr && len <= m->size &&
		    addr - m->addr <= m->size - len)
			return m;
	}
	return NULL;
}

static bool sim_memic_overlaps(struct mlx5x_sim *sim, u64 addr, u32 size)
{
	struct sim_obj *obj;
	unsigned long id;

	xa_for_each(&sim->objs[SIM_OBJ_MEMIC], id, obj) {
		struct sim_memic *m = container_of(obj, struct sim_memic, obj);

		if (addr < m->addr + m->size && m->addr < addr + size)
			return true;
	}
	return false;
}

/*
 * Scrub the pages a new allocation at @addr, @size bytes, touches, in
 * every window: no process reads what an earlier allocation left there.
 * A mapping covers whole pages, and an earlier owner of a page could
 * have written anywhere in it, so every byte of those pages is zeroed
 * but the bytes of other live allocations (in 64-byte units, the MEMIC's
 * granule).  Runs before the new one is in the table.
 */
static void sim_memic_scrub(struct mlx5x_sim *sim, u64 addr, u32 size)
{
	u64 at = round_down(addr, PAGE_SIZE);
	u64 end = round_up(addr + size, PAGE_SIZE);
	unsigned int w;

	if (!sim->memic_pages)
		return;
	for (; at < end; at += DM_MEMIC_BASE_SIZE) {
		if (sim_memic_overlaps(sim, at, DM_MEMIC_BASE_SIZE))
			continue;
		for (w = 0; w < SIM_MEMIC_WINDOWS; w++)
			memset(page_address(sim->memic_pages[w]) +
			       (at - SIM_MEMIC_BAR_START), 0,
			       DM_MEMIC_BASE_SIZE);
	}
}

static u8 sim_memic_bad(struct sim_cmd_ctx *ctx)
{
	return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
}

static u8 sim_alloc_memic(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *in = ctx->in;
	u64 start = PRM_GET64(alloc_memic_in, in, range_start_addr);
	u32 range = PRM_GET(alloc_memic_in, in, range_size);
	u32 size = PRM_GET(alloc_memic_in, in, memic_size);
	u32 log_align = PRM_GET(alloc_memic_in, in, log_memic_addr_alignment);
	u64 end = SIM_MEMIC_BAR_START + SIM_MEMIC_SIZE;
	struct sim_memic *m;
	struct sim_obj *obj;
	u64 addr, align;
	u8 status;

	if (ctx->op_mod)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	/* no uid field: only the kernel allocates */
	if (ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_UID);
	if (log_align > SIM_MEMIC_MAX_LOG_ALIGN)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	if (!size || size % DM_MEMIC_BASE_SIZE || size > SIM_MEMIC_SIZE)
		return sim_memic_bad(ctx);
	/* the range lies in the MEMIC window and can hold the allocation */
	if (start < SIM_MEMIC_BAR_START || start >= end || range < size ||
	    range > end - start)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_MEMIC_RANGE);
	align = (u64)DM_MEMIC_BASE_SIZE << log_align;
	for (addr = ALIGN(start, align); addr + size <= start + range;
	     addr += align)
		if (!sim_memic_overlaps(sim, addr, size))
			break;
	if (addr + size > start + range)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_EXHAUSTED);
	sim_memic_scrub(sim, addr, size);
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_MEMIC, &obj);
	if (status)
		return status;
	m = container_of(obj, struct sim_memic, obj);
	m->addr = addr;
	m->size = size;
	PRM_SET64(alloc_memic_out, ctx->out, memic_start_addr, addr);
	return PRM_STAT_OK;
}

static u8 sim_dealloc_memic(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u64 addr = PRM_GET64(dealloc_memic_in, ctx->in, memic_start_addr);
	u32 size = PRM_GET(dealloc_memic_in, ctx->in, memic_size);
	struct sim_memic *m = sim_memic_find(sim, addr, 0);

	if (ctx->op_mod)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	if (ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_UID);
	if (!m || m->size != size)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE,
				SIM_SYND_MEMIC_RANGE);
	/* operation windows and mkeys over it must go first */
	if (m->ops)
		return sim_fail(ctx, PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	return sim_obj_destroy(sim, ctx, SIM_OBJ_MEMIC, m->obj.id);
}

static u8 sim_modify_memic(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u64 addr = PRM_GET64(modify_memic_in, ctx->in, memic_start_addr);
	u32 op = PRM_GET(modify_memic_in, ctx->in, memic_operation_type);
	struct sim_memic *m = sim_memic_find(sim, addr, 0);

	if (ctx->op_mod != MLX5_MODIFY_MEMIC_OP_MOD_ALLOC &&
	    ctx->op_mod != MLX5_MODIFY_MEMIC_OP_MOD_DEALLOC)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	if (op >= 32 || !(SIM_MEMIC_OPS & BIT(op)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	/* the allocations are the kernel's, as the window mappings are */
	if (!m || ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE,
				SIM_SYND_MEMIC_RANGE);
	if (ctx->op_mod == MLX5_MODIFY_MEMIC_OP_MOD_DEALLOC) {
		if (!(m->ops & BIT(op)))
			return sim_fail(ctx, PRM_STAT_BAD_RES_STATE,
					SIM_SYND_BAD_STATE);
		m->ops &= ~BIT(op);
		return PRM_STAT_OK;
	}
	if (m->ops & BIT(op))
		return sim_fail(ctx, PRM_STAT_BAD_RES_STATE, SIM_SYND_BAD_STATE);
	m->ops |= BIT(op);
	PRM_SET64(modify_memic_out, ctx->out, memic_operation_addr,
		  addr + (u64)SIM_MEMIC_SIZE * (op + 1));
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_memic_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_ALLOC_MEMIC, "ALLOC_MEMIC", alloc_memic_in,
		alloc_memic_out, false, sim_alloc_memic),
	SIM_DESTROY_CMD(MLX5_CMD_OP_DEALLOC_MEMIC, "DEALLOC_MEMIC",
			dealloc_memic_in, dealloc_memic_out, false,
			sim_dealloc_memic),
	/* releasing an operation window is a teardown */
	SIM_CMD_DESTROY_OPMODS(MLX5_CMD_OP_MODIFY_MEMIC, "MODIFY_MEMIC",
			       modify_memic_in, modify_memic_out, true,
			       BIT(MLX5_MODIFY_MEMIC_OP_MOD_DEALLOC),
			       sim_modify_memic),
};

const struct sim_cmd_set sim_memic_cmds = {
	sim_memic_cmd_list, ARRAY_SIZE(sim_memic_cmd_list)
};
