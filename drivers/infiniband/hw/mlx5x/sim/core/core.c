// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's command dispatcher: checks a mailbox the way the
 * device's firmware does before any handler sees it, then runs it.
 */
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include "../sim_priv.h"
#include "../mem/dm.h"
#include "../dp/datapath.h"

const struct sim_cmd_set *const sim_cmd_sets[] = {
	&sim_caps_cmds,
	&sim_uctx_cmds,
	&sim_pd_cmds,
	&sim_uar_cmds,
	&sim_vport_cmds,
	&sim_vport_counter_cmds,
	&sim_port_reg_cmds,
	&sim_cong_cmds,
	&sim_counter_cmds,
	&sim_umem_cmds,
	&sim_mkey_cmds,
	&sim_psv_cmds,
	&sim_general_cmds,
	&sim_flow_table_cmds,
	&sim_flow_group_cmds,
	&sim_fte_cmds,
	&sim_fs_action_cmds,
	&sim_cq_cmds,
	&sim_wq_cmds,
	&sim_tir_cmds,
	&sim_qp_cmds,
	&sim_roce_cmds,
	&sim_mcg_cmds,
	&sim_srq_cmds,
	&sim_xrc_cmds,
	&sim_dct_cmds,
	&sim_fs_root_cmds,
	&sim_memic_cmds,
};

const unsigned int sim_n_cmd_sets = ARRAY_SIZE(sim_cmd_sets);

static const struct sim_cmd *sim_find_cmd(u16 opcode)
{
	unsigned int s, i;

	for (s = 0; s < ARRAY_SIZE(sim_cmd_sets); s++) {
		const struct sim_cmd_set *set = sim_cmd_sets[s];

		for (i = 0; i < set->count; i++)
			if (set->cmds[i].opcode == opcode)
				return &set->cmds[i];
	}
	return NULL;
}

/* A destroy, or a command whose op_mod makes it one: never failed. */
static bool sim_cmd_destroys(const struct sim_cmd *cmd, u16 op_mod)
{
	return cmd && (cmd->destroy ||
		       (op_mod < 32 && (cmd->destroy_op_mods & BIT(op_mod))));
}

/*
 * Fault injection: the next N commands, the N-th command from now only, or
 * every command of one opcode; never a destroy command.
 */
static bool sim_inject_fault(struct mlx5x_sim *sim, const struct sim_cmd *cmd,
			     u16 opcode, u16 op_mod)
{
	if (sim_cmd_destroys(cmd, op_mod))
		return false;
	if (sim->fail_opcode == opcode)
		return true;
	if (sim->fail_next) {
		sim->fail_next--;
		return true;
	}
	if (sim->fail_nth)
		return --sim->fail_nth == 0;
	return false;
}

static u8 sim_check_and_run(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	u16 opcode = prm_in_opcode(ctx->in);
	const struct sim_cmd *cmd = sim_find_cmd(opcode);

	if (sim_inject_fault(sim, cmd, opcode, ctx->op_mod))
		return sim_fail(ctx, PRM_STAT_INTERNAL_ERR, SIM_SYND_INJECTED);
	if (!cmd)
		return sim_fail(ctx, PRM_STAT_BAD_OP, SIM_SYND_BAD_OPCODE);
	if (ctx->inlen < cmd->inlen)
		return sim_fail(ctx, PRM_STAT_BAD_INPUT_LEN, SIM_SYND_BAD_INLEN);
	if (ctx->outlen < cmd->outlen)
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN,
				SIM_SYND_BAD_OUTLEN);
	if (cmd->has_uid && !sim_uid_valid(sim, ctx->uid) &&
	    !(ctx->uid == SIM_SHARED_UID && sim_shared_uid_cmd(opcode)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_UID);
	ctx->cmd = cmd;
	return cmd->exec(sim, ctx);
}

/**
 * mlx5x_sim_exec() - execute one command mailbox
 * @sim: the model
 * @in: input mailbox
 * @inlen: its length in bytes
 * @out: output mailbox; status and syndrome are always written
 * @outlen: its length in bytes
 *
 * Return: 0 when the command was delivered (its outcome is in the output
 * mailbox's status), -EINVAL when either mailbox is shorter than its header.
 */
int mlx5x_sim_exec(struct mlx5x_sim *sim, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct sim_cmd_ctx ctx = {
		.in = in, .inlen = inlen, .out = out, .outlen = outlen,
	};
	u8 status;

	if (inlen < PRM_CMD_HDR_BYTES || outlen < PRM_OUT_HDR_BYTES)
		return -EINVAL;
	ctx.uid = prm_in_uid(in);
	ctx.op_mod = prm_in_op_mod(in);
	memset(out, 0, outlen);

	mutex_lock(&sim->lock);
	sim->cmds++;
	status = sim_check_and_run(sim, &ctx);
	if (status)
		sim->cmd_errors++;
	mutex_unlock(&sim->lock);

	if (status)
		memset(out, 0, outlen);
	prm_out_set_status(out, status, status ? ctx.syndrome : 0);
	return 0;
}

u64 mlx5x_sim_clock_ns(const struct mlx5x_sim *sim)
{
	return ktime_get_ns() - sim->clock_epoch;
}

struct mlx5x_sim *mlx5x_sim_create(const struct mlx5x_sim_params *params)
{
	struct mlx5x_sim *sim;
	int err;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return ERR_PTR(-ENOMEM);
	mutex_init(&sim->lock);
	spin_lock_init(&sim->odp_lock);
	sim->params = *params;
	sim->fail_opcode = -1;
	sim->clock_epoch = ktime_get_ns();
	INIT_LIST_HEAD(&sim->mcgs);
	sim_objs_init(sim);
	err = sim_caps_init(sim);
	if (err)
		goto err_free;
	err = sim_eqs_init(sim);
	if (err)
		goto err_caps;
	err = sim_memic_init(sim);
	if (err)
		goto err_eqs;
	err = sim_dp_init(sim);
	if (err)
		goto err_memic;
	return sim;

err_memic:
	sim_memic_free(sim);
err_eqs:
	sim_eqs_free(sim);
err_caps:
	sim_caps_free(sim);
err_free:
	kfree(sim);
	return ERR_PTR(err);
}

void mlx5x_sim_destroy(struct mlx5x_sim *sim)
{
	sim_dp_fini(sim);	/* no pass runs from here on */
	debugfs_remove_recursive(sim->dbg);
	sim_eqs_free(sim);
	sim_fs_roots_drop(sim);
	sim_objs_destroy_all(sim);
	sim_mcgs_free(sim);
	sim_memic_free(sim);
	sim_caps_free(sim);
	mutex_destroy(&sim->lock);
	kfree(sim);
}

unsigned int mlx5x_sim_live_objects(struct mlx5x_sim *sim)
{
	unsigned int live;

	mutex_lock(&sim->lock);
	live = sim->live;
	mutex_unlock(&sim->lock);
	return live;
}
