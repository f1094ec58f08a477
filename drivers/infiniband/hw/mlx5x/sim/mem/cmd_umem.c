// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UMEMs: lists of the pages of a process's buffer, by bus address, that
 * other objects then name by umem id.
 */
#include <linux/slab.h>
#include "../sim_priv.h"

/* Largest page firmware accepts in a umem: log 4 KiB << 18 = 1 GiB. */
#define SIM_UMEM_MAX_LOG_PAGE	18
/* An MTT entry: the page address from bit 8 up, access bits below. */
#define SIM_MTT_ADDR_MASK	(~0xffULL)

void sim_umem_release(struct sim_obj *obj)
{
	struct sim_umem *umem = container_of(obj, struct sim_umem, obj);

	/* a notifier that found it before it left the table is done */
	if (umem->odp) {
		spin_lock(&umem->odp->odp_lock);
		spin_unlock(&umem->odp->odp_lock);
	}
	if (umem->sparse)
		sim_odp_sparse_release(umem);
	kvfree(umem->mtt);
}

/**
 * sim_umem_writable() - whether the device may write a range of a umem
 * @umem: the umem
 * @offset: the range's first byte, from the umem's first byte
 * @len: its length, nonzero
 *
 * Return: true when the range is inside the umem and every page it
 * touches is writable (wr_en).
 */
bool sim_umem_writable(const struct sim_umem *umem, u64 offset, u64 len)
{
	u64 first, last;

	/* an ODP umem's pages come and go: the device never keeps one */
	if (!len || !sim_umem_holds(umem, offset, len) || umem->odp)
		return false;
	if (!umem->ro_pages)
		return true;
	first = (umem->page_offset + offset) >> umem->log_page;
	last = (umem->page_offset + offset + len - 1) >> umem->log_page;
	for (; first <= last; first++)
		if (!(umem->mtt[first] & SIM_MTT_WR))
			return false;
	return true;
}

/**
 * sim_umem_ref() - reference a umem as the buffer of another object
 * @sim: the model
 * @ctx: the command creating that object
 * @id: umem id it names
 * @offset: where its buffer starts in the umem, in bytes
 * @len: how many bytes it needs
 * @umemp: the umem; drop with sim_obj_put(&umem->obj)
 *
 * The umem must belong to the command's context and hold the whole range.
 *
 * Return: a PRM status.
 */
u8 sim_umem_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx, u32 id,
		u64 offset, u64 len, struct sim_umem **umemp)
{
	struct sim_umem *umem;
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_ref(sim, ctx, SIM_OBJ_UMEM, id, &obj);
	if (status)
		return status;
	umem = container_of(obj, struct sim_umem, obj);
	/* an ODP umem is its one mkey's, the first to name it (mem/odp.c) */
	if ((umem->odp && obj->users > 1) || !len ||
	    !sim_umem_holds(umem, offset, len)) {
		sim_obj_put(obj);
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	}
	*umemp = umem;
	return PRM_STAT_OK;
}

static u8 sim_create_umem(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const void *um = PRM_ADDR(create_umem_in, ctx->in, umem);
	u64 nmtt = PRM_GET64(umem, um, num_of_mtt);
	u32 log_page = PRM_GET(umem, um, log_page_size);
	u32 page_offset = PRM_GET(umem, um, page_offset);
	size_t room = (ctx->inlen - PRM_BYTES(create_umem_in)) /
		      PRM_BYTES(mtt);
	struct sim_umem *umem;
	struct sim_obj *obj;
	u64 *mtt;
	u8 status;
	u64 i;

	if (!nmtt || nmtt > room)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN,
				SIM_SYND_BAD_INLEN);
	if (log_page > SIM_UMEM_MAX_LOG_PAGE)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	log_page += 12;
	/* the buffer starts inside its first page */
	if (page_offset >> log_page)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	mtt = kvmalloc_array(nmtt, sizeof(*mtt), GFP_KERNEL);
	if (!mtt)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	for (i = 0; i < nmtt; i++) {
		mtt[i] = be64_to_cpu(((const __be64 *)
				      PRM_ADDR(umem, um, mtt))[i]);
		/* every entry is the start of a page of the umem's size */
		if (mtt[i] & SIM_MTT_ADDR_MASK & ((1ULL << log_page) - 1)) {
			kvfree(mtt);
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
		}
	}

	status = sim_obj_alloc(sim, ctx, SIM_OBJ_UMEM, &obj);
	if (status) {
		kvfree(mtt);
		return status;
	}
	umem = container_of(obj, struct sim_umem, obj);
	umem->mtt = mtt;
	umem->nmtt = nmtt;
	for (i = 0; i < nmtt; i++)
		umem->ro_pages += !(mtt[i] & SIM_MTT_WR);
	umem->log_page = log_page;
	umem->page_offset = page_offset;
	PRM_SET(create_umem_out, ctx->out, umem_id, obj->id);
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_umem_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_CREATE_UMEM, "CREATE_UMEM", create_umem_in,
		create_umem_out, true, sim_create_umem),
	SIM_FREE_CMD(MLX5_CMD_OP_DESTROY_UMEM, "DESTROY_UMEM",
		     destroy_umem_in, destroy_umem_out, SIM_OBJ_UMEM, umem_id),
};

const struct sim_cmd_set sim_umem_cmds = {
	sim_umem_cmd_list, ARRAY_SIZE(sim_umem_cmd_list)
};
