// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UAR pages.  On a ConnectX a UAR is a page of the device's BAR holding
 * doorbell and BlueFlame registers; here it is a page of memory the model
 * owns, handed to the driver for mapping.
 */
#include <linux/gfp.h>
#include "../sim_priv.h"

void sim_uar_release(struct sim_obj *obj)
{
	struct sim_uar *uar = container_of(obj, struct sim_uar, obj);

	if (uar->page)
		__free_page(uar->page);
}

static u8 sim_alloc_uar(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	struct sim_obj *obj;
	u8 status;

	if (!page)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	status = sim_obj_alloc(sim, ctx, SIM_OBJ_UAR, &obj);
	if (status) {
		__free_page(page);
		return status;
	}
	container_of(obj, struct sim_uar, obj)->page = page;
	PRM_SET(alloc_uar_out, ctx->out, uar, obj->id);
	return PRM_STAT_OK;
}

/**
 * mlx5x_sim_uar_page() - the memory behind an allocated UAR
 * @sim: the model
 * @index: UAR index returned by ALLOC_UAR
 *
 * Return: the page, or NULL when no such UAR exists.  The page stays valid
 * until DEALLOC_UAR of that index.
 */
struct page *mlx5x_sim_uar_page(struct mlx5x_sim *sim, u32 index)
{
	struct sim_obj *obj;
	struct page *page = NULL;

	mutex_lock(&sim->lock);
	obj = xa_load(&sim->objs[SIM_OBJ_UAR], index);
	if (obj)
		page = container_of(obj, struct sim_uar, obj)->page;
	mutex_unlock(&sim->lock);
	return page;
}

static const struct sim_cmd sim_uar_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_ALLOC_UAR, "ALLOC_UAR", alloc_uar_in,
		alloc_uar_out, true, sim_alloc_uar),
	SIM_FREE_CMD(MLX5_CMD_OP_DEALLOC_UAR, "DEALLOC_UAR", dealloc_uar_in,
		     dealloc_uar_out, SIM_OBJ_UAR, uar),
};

const struct sim_cmd_set sim_uar_cmds = {
	sim_uar_cmd_list, ARRAY_SIZE(sim_uar_cmd_list)
};
