// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast groups of the port: ATTACH_TO_MCG adds a UD QP to the group
 * of a multicast GID (made when its first QP joins), DETACH_FROM_MCG takes
 * it out (the group goes with its last QP).  A command names a QP of its
 * own context.  The caps bound the groups (log_max_mcg) and the QPs of
 * each (max_qp_mcg): past them the command fails with EXCEED_LIM.  A
 * destroyed QP leaves every group it was in (DESTROY_QP, cmd_qp.c).
 *
 * The data path (dp/dp_ud.c) delivers a datagram sent to a multicast GID
 * and QP 0xffffff to every QP of that GID's group, each taking its own
 * receive WQE, as a ConnectX loops multicast back within its port.
 */
#include <net/ipv6.h>
#include "../sim_priv.h"
#include "queues.h"

/**
 * sim_mcg_gid() - whether a GID is a multicast address
 * @gid: 16 bytes: IPv6 ff00::/8, or IPv4-mapped 224.0.0.0/4
 */
bool sim_mcg_gid(const u8 *gid)
{
	const struct in6_addr *a = (const struct in6_addr *)gid;

	return ipv6_addr_is_multicast(a) ||
	       (ipv6_addr_v4mapped(a) && ipv4_is_multicast(a->s6_addr32[3]));
}

/**
 * sim_mcg_find() - the group of a multicast GID
 * @sim: the model, its lock held
 * @gid: 16 bytes
 *
 * Return: the group, or NULL when no QP is attached to @gid.
 */
struct sim_mcg *sim_mcg_find(struct mlx5x_sim *sim, const u8 *gid)
{
	struct sim_mcg *g;

	lockdep_assert_held(&sim->lock);
	list_for_each_entry(g, &sim->mcgs, node)
		if (!memcmp(g->gid, gid, SIM_GID_BYTES))
			return g;
	return NULL;
}

static int sim_mcg_slot(const struct sim_mcg *g, u32 qpn)
{
	unsigned int i;

	for (i = 0; i < g->n; i++)
		if (g->qpn[i] == qpn)
			return i;
	return -1;
}

/* Takes QP @qpn out of @g; the group goes with its last QP. */
static void sim_mcg_drop(struct mlx5x_sim *sim, struct sim_mcg *g, int slot)
{
	g->qpn[slot] = g->qpn[--g->n];
	if (g->n)
		return;
	list_del(&g->node);
	sim->n_mcgs--;
	kfree(g);
}

/*
 * The UD QP the command names, of the command's own context, and its
 * multicast GID (ATTACH_TO_MCG's layout is DETACH_FROM_MCG's).
 */
static u8 sim_mcg_args(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		       const u8 **gid, u32 *qpn)
{
	struct sim_qobj *q;
	struct sim_qp *qp;
	u8 status;

	*qpn = PRM_GET(attach_to_mcg_in, ctx->in, qpn);
	*gid = PRM_ADDR(attach_to_mcg_in, ctx->in, multicast_gid);
	status = sim_q_lookup(sim, ctx, SIM_OBJ_QP, *qpn, &q);
	if (status)
		return status;
	qp = container_of(q, struct sim_qp, q);
	if (PRM_GET(qpc, qp->qpc, st) != MLX5_QPC_ST_UD || !sim_mcg_gid(*gid))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

static u8 sim_attach_to_mcg(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_mcg *g;
	const u8 *gid;
	u32 qpn;
	u8 status;

	status = sim_mcg_args(sim, ctx, &gid, &qpn);
	if (status)
		return status;
	g = sim_mcg_find(sim, gid);
	if (g && sim_mcg_slot(g, qpn) >= 0)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_DUP_MATCH);
	if (g && g->n >= SIM_MCG_MAX_QPS)
		return sim_fail(ctx, PRM_STAT_EXCEED_LIM, SIM_SYND_EXHAUSTED);
	if (!g) {
		if (sim->n_mcgs >= BIT(SIM_MCG_LOG_MAX))
			return sim_fail(ctx, PRM_STAT_EXCEED_LIM,
					SIM_SYND_EXHAUSTED);
		g = kzalloc(sizeof(*g), GFP_KERNEL);
		if (!g)
			return sim_fail(ctx, PRM_STAT_NO_RESOURCES,
					SIM_SYND_NO_MEM);
		memcpy(g->gid, gid, SIM_GID_BYTES);
		list_add_tail(&g->node, &sim->mcgs);
		sim->n_mcgs++;
	}
	g->qpn[g->n++] = qpn;
	return PRM_STAT_OK;
}

static u8 sim_detach_from_mcg(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	struct sim_mcg *g;
	const u8 *gid;
	int slot = -1;
	u32 qpn;
	u8 status;

	status = sim_mcg_args(sim, ctx, &gid, &qpn);
	if (status)
		return status;
	g = sim_mcg_find(sim, gid);
	if (g)
		slot = sim_mcg_slot(g, qpn);
	if (slot < 0)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_NO_OBJECT);
	sim_mcg_drop(sim, g, slot);
	return PRM_STAT_OK;
}

/**
 * sim_mcg_forget() - a QP is gone: it leaves every group
 * @sim: the model, its lock held
 * @qpn: its number
 */
void sim_mcg_forget(struct mlx5x_sim *sim, u32 qpn)
{
	struct sim_mcg *g, *tmp;
	int slot;

	list_for_each_entry_safe(g, tmp, &sim->mcgs, node) {
		slot = sim_mcg_slot(g, qpn);
		if (slot >= 0)
			sim_mcg_drop(sim, g, slot);
	}
}

/* The model goes: its groups with it. */
void sim_mcgs_free(struct mlx5x_sim *sim)
{
	struct sim_mcg *g, *tmp;

	list_for_each_entry_safe(g, tmp, &sim->mcgs, node)
		kfree(g);
	INIT_LIST_HEAD(&sim->mcgs);
	sim->n_mcgs = 0;
}

static const struct sim_cmd sim_mcg_cmd_list[] = {
	SIM_CMD(MLX5_CMD_OP_ATTACH_TO_MCG, "ATTACH_TO_MCG", attach_to_mcg_in,
		attach_to_mcg_out, true, sim_attach_to_mcg),
	/*
	 * A teardown: ib_core detaches a closing context's QPs before it
	 * destroys them, and cannot destroy one whose detach failed, so
	 * fault injection spares it as it spares destroys.
	 */
	SIM_DESTROY_CMD(MLX5_CMD_OP_DETACH_FROM_MCG, "DETACH_FROM_MCG",
			detach_from_mcg_in, detach_from_mcg_out, true,
			sim_detach_from_mcg),
};

const struct sim_cmd_set sim_mcg_cmds = {
	sim_mcg_cmd_list, ARRAY_SIZE(sim_mcg_cmd_list)
};
