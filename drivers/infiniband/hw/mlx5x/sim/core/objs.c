// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The model's object table: every firmware object with its id, its owner
 * (uid) and how many other objects reference it.
 */
#include <linux/slab.h>
#include "../sim_priv.h"
#include "../mem/mkey.h"
#include "../mem/psv.h"
#include "general.h"
#include "../steering/fs.h"
#include "../queues/queues.h"
#include "../queues/dct.h"
#include "../mem/dm.h"

static const struct sim_type_info sim_types[SIM_OBJ_NTYPES] = {
	[SIM_OBJ_UCTX] = { "uctx", 1, sizeof(struct sim_uctx) },
	[SIM_OBJ_PD] = { "pd", 1, sizeof(struct sim_obj) },
	[SIM_OBJ_UAR] = { "uar", 1, sizeof(struct sim_uar), sim_uar_release },
	[SIM_OBJ_TD] = { "td", 1, sizeof(struct sim_obj) },
	[SIM_OBJ_Q_COUNTER] = { "q_counter", 1,
				sizeof(struct sim_q_counter) },
	[SIM_OBJ_FLOW_COUNTER] = { "flow_counter", 1,
				   sizeof(struct sim_flow_counter),
				   sim_flow_counter_release },
	[SIM_OBJ_EQ] = { "eq", 1, sizeof(struct sim_obj), .shared = true },
	[SIM_OBJ_UMEM] = { "umem", 1, sizeof(struct sim_umem),
			   sim_umem_release },
	[SIM_OBJ_FLOW_TABLE] = { "flow_table", 1, sizeof(struct sim_flow_table),
				 sim_flow_table_release },
	[SIM_OBJ_FLOW_GROUP] = { "flow_group", 1, sizeof(struct sim_flow_group),
				 sim_flow_group_release },
	[SIM_OBJ_FTE] = { "fte", 1, sizeof(struct sim_fte), sim_fte_release },
	[SIM_OBJ_MODIFY_HDR] = { "modify_hdr", 1, sizeof(struct sim_modify_hdr),
				 sim_modify_hdr_release },
	[SIM_OBJ_PKT_REFORMAT] = { "pkt_reformat", 1,
				   sizeof(struct sim_pkt_reformat),
				   sim_pkt_reformat_release },
	/*
	 * From 8: the first indices make keys the device reads as marks
	 * with tag 0, which drivers give: index 0 is the reserved lkey's,
	 * index 1 key 0x100 the invalid lkey that ends a scatter list
	 * (MLX5_INVALID_LKEY), index 4 key 0x400 the op of a UMR's repeat
	 * block where a KLM has its key (dp/umr_repeat.c).
	 */
	[SIM_OBJ_MKEY] = { "mkey", 8, sizeof(struct sim_mkey),
			   sim_mkey_release },
	[SIM_OBJ_CQ] = { "cq", 1, sizeof(struct sim_cq), sim_q_release },
	[SIM_OBJ_RQ] = { "rq", 1, sizeof(struct sim_wq), sim_q_release },
	[SIM_OBJ_SQ] = { "sq", 1, sizeof(struct sim_wq), sim_q_release },
	[SIM_OBJ_RQT] = { "rqt", 1, sizeof(struct sim_rqt), sim_rqt_release },
	[SIM_OBJ_TIR] = { "tir", 1, sizeof(struct sim_tir), sim_tir_release },
	[SIM_OBJ_TIS] = { "tis", 1, sizeof(struct sim_tis), sim_q_release },
	[SIM_OBJ_QP] = { "qp", 1, sizeof(struct sim_qp), sim_q_release },
	[SIM_OBJ_RMP] = { "rmp", 1, sizeof(struct sim_srq), sim_q_release },
	/* the kernel's XRCDs are shared, as an XRCD is between processes */
	[SIM_OBJ_XRCD] = { "xrcd", 1, sizeof(struct sim_obj), .shared = true },
	/* numbered apart from the RMPs: one SRQ number space */
	[SIM_OBJ_XRC_SRQ] = { "xrc_srq", SIM_XRC_SRQN_BASE, sizeof(struct sim_srq),
			      sim_q_release },
	/* numbered apart from the QPs: one QP number space */
	[SIM_OBJ_DCT] = { "dct", SIM_DCTN_BASE, sizeof(struct sim_dct),
			  sim_q_release },
	[SIM_OBJ_GENERAL] = { "general", 1, sizeof(struct sim_general),
			      sim_general_release },
	[SIM_OBJ_PSV] = { "psv", 1, sizeof(struct sim_psv), sim_psv_release },
	[SIM_OBJ_MEMIC] = { "memic", 1, sizeof(struct sim_memic),
			    .shared = true },
};

const char *sim_obj_type_name(enum sim_obj_type type)
{
	return type < SIM_OBJ_NTYPES ? sim_types[type].name : "?";
}

void sim_objs_init(struct mlx5x_sim *sim)
{
	int t;

	for (t = 0; t < SIM_OBJ_NTYPES; t++)
		xa_init_flags(&sim->objs[t], XA_FLAGS_ALLOC);
}

/**
 * sim_obj_alloc() - create an object owned by the command's uid
 * @sim: the model
 * @ctx: the command creating it
 * @type: kind of object
 * @objp: the new object, zeroed beyond its header
 *
 * Return: a PRM status.
 */
u8 sim_obj_alloc(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 enum sim_obj_type type, struct sim_obj **objp)
{
	return sim_obj_alloc_in(sim, ctx, type, sim_types[type].min_id,
				sim->max_id[type], objp);
}

/**
 * sim_obj_alloc_in() - create an object numbered within [@min, @max]
 * @sim: the model
 * @ctx: the command creating it
 * @type: kind of object
 * @min: its lowest possible number
 * @max: its highest; @min == @max asks for that number
 * @objp: the new object, zeroed beyond its header
 *
 * For the kinds whose number the object's own context chooses (a
 * reserved QPN range is numbered by its first QPN).
 *
 * Return: a PRM status.
 */
u8 sim_obj_alloc_in(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		    enum sim_obj_type type, u32 min, u32 max,
		    struct sim_obj **objp)
{
	const struct sim_type_info *ti = &sim_types[type];
	struct sim_obj *obj;
	u32 id;
	int err;

	obj = kzalloc(ti->size, GFP_KERNEL);
	if (!obj)
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES, SIM_SYND_NO_MEM);
	err = xa_alloc(&sim->objs[type], &id, obj, XA_LIMIT(min, max),
		       GFP_KERNEL);
	if (err) {
		kfree(obj);
		return sim_fail(ctx, PRM_STAT_NO_RESOURCES,
				err == -EBUSY ? SIM_SYND_EXHAUSTED :
						SIM_SYND_NO_MEM);
	}
	obj->type = type;
	obj->id = id;
	obj->uid = ctx->uid;
	sim->live++;
	*objp = obj;
	return PRM_STAT_OK;
}

/**
 * sim_obj_lookup() - find an object the command's uid may use
 * @sim: the model
 * @ctx: the command naming it
 * @type: kind of object
 * @id: its number
 * @objp: the object found
 *
 * Firmware lets a context reach only the objects it owns.
 *
 * Return: a PRM status.
 */
u8 sim_obj_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		  enum sim_obj_type type, u32 id, struct sim_obj **objp)
{
	struct sim_obj *obj = xa_load(&sim->objs[type], id);

	if (!obj)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	if (obj->uid != ctx->uid)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	*objp = obj;
	return PRM_STAT_OK;
}

/**
 * sim_obj_ref() - take a reference on an object a command names
 * @sim: the model
 * @ctx: the command that makes a new or changed object point at it
 * @type: kind of object
 * @id: its number
 * @objp: the object, whose users count now includes the caller
 *
 * A context may reference its own objects, and the kernel's objects of a
 * shared kind, and objects of the shared resource uid; never another
 * context's.  The kernel (uid 0) may reference any object, as a
 * function's own driver does on a ConnectX: its steering rules forward
 * into TIRs and tables that contexts created.  Drop with sim_obj_put().
 *
 * Return: a PRM status.
 */
u8 sim_obj_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       enum sim_obj_type type, u32 id, struct sim_obj **objp)
{
	struct sim_obj *obj = xa_load(&sim->objs[type], id);

	if (!obj)
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NO_OBJECT);
	if (ctx->uid && obj->uid != ctx->uid &&
	    !(obj->uid == 0 && sim_types[type].shared) &&
	    !sim_shared_uid_ref(ctx->uid, obj->uid))
		return sim_fail(ctx, PRM_STAT_BAD_RESOURCE, SIM_SYND_NOT_OWNER);
	obj->users++;
	*objp = obj;
	return PRM_STAT_OK;
}

/**
 * sim_obj_put() - drop a reference sim_obj_ref() took
 * @obj: the object, or NULL
 */
void sim_obj_put(struct sim_obj *obj)
{
	if (obj && !WARN_ON(!obj->users))
		obj->users--;
}

static void sim_obj_free(struct mlx5x_sim *sim, struct sim_obj *obj)
{
	void (*release)(struct sim_obj *obj) = sim_types[obj->type].release;

	xa_erase(&sim->objs[obj->type], obj->id);
	if (release)
		release(obj);
	sim->live--;
	kfree(obj);
}

/**
 * sim_obj_destroy() - destroy an object the command's uid owns
 * @sim: the model
 * @ctx: the destroy command
 * @type: kind of object
 * @id: its number
 *
 * Return: a PRM status; an object still referenced is busy.
 */
u8 sim_obj_destroy(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		   enum sim_obj_type type, u32 id)
{
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_lookup(sim, ctx, type, id, &obj);
	if (status)
		return status;
	if (obj->users)
		return sim_fail(ctx, PRM_STAT_RESOURCE_BUSY, SIM_SYND_IN_USE);
	sim_obj_free(sim, obj);
	return PRM_STAT_OK;
}

/* The generic handlers of SIM_ALLOC_CMD and SIM_FREE_CMD entries. */
u8 sim_exec_alloc(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const struct sim_cmd *cmd = ctx->cmd;
	struct sim_obj *obj;
	u8 status;

	status = sim_obj_alloc(sim, ctx, cmd->obj_type, &obj);
	if (status)
		return status;
	prm_set_bits(ctx->out, cmd->id_off, cmd->id_bits, obj->id);
	return PRM_STAT_OK;
}

u8 sim_exec_destroy(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	const struct sim_cmd *cmd = ctx->cmd;

	return sim_obj_destroy(sim, ctx, cmd->obj_type,
			       prm_get_bits(ctx->in, cmd->id_off,
					    cmd->id_bits));
}

bool sim_uid_valid(struct mlx5x_sim *sim, u16 uid)
{
	return !uid || xa_load(&sim->objs[SIM_OBJ_UCTX], uid);
}

bool sim_uid_has_objects(struct mlx5x_sim *sim, u16 uid)
{
	struct sim_obj *obj;
	unsigned long id;
	int t;

	for (t = 0; t < SIM_OBJ_NTYPES; t++) {
		if (t == SIM_OBJ_UCTX)
			continue;
		xa_for_each(&sim->objs[t], id, obj)
			if (obj->uid == uid)
				return true;
	}
	return false;
}

/*
 * Tear down whatever is left when the device goes away.  A correct driver
 * leaves nothing: report what is found so tests see the leak.
 */
void sim_objs_destroy_all(struct mlx5x_sim *sim)
{
	struct sim_obj *obj;
	unsigned long id;
	int t;

	bool progress = true;

	if (sim->live)
		pr_err("mlx5x_sim: LEAK: %u firmware objects left at device removal\n",
		       sim->live);
	/* referencing objects first, as a driver would destroy them */
	while (sim->live && progress) {
		progress = false;
		for (t = SIM_OBJ_NTYPES - 1; t >= 0; t--)
			xa_for_each(&sim->objs[t], id, obj)
				if (!obj->users) {
					sim_obj_free(sim, obj);
					progress = true;
				}
	}
	for (t = SIM_OBJ_NTYPES - 1; t >= 0; t--) {
		xa_for_each(&sim->objs[t], id, obj) {
			pr_err("mlx5x_sim: %s 0x%x still has %u users\n",
			       sim_obj_type_name(t), obj->id, obj->users);
			obj->users = 0;
			sim_obj_free(sim, obj);
		}
		xa_destroy(&sim->objs[t]);
	}
}
