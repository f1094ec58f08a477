// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What tests need to see of the model or break in it:
 *   objects      every firmware object: type, id, owner uid, users
 *   stats        commands executed, commands failed, live objects
 *   fail_next    write N: the next N commands fail with INTERNAL_ERR
 *   fail_nth     write N: the N-th command from now fails, only it; reads
 *                what is left to count (0: spent or disarmed)
 *   fail_opcode  write an opcode: every command with it fails; -1 clears
 *   raise_event  write "EVENT_TYPE [SUB_TYPE] [KIND ID]": see events.c
 *   classify     write "rx|tx PORT HEX", read the trace: see
 *                steering/classify.c
 *   crypto       the crypto the profile offers: none|plaintext|wrapped
 *   mkey_access  write "KEY VA LEN RIGHTS", read the verdict: mem/mkey_access.c
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "../sim_priv.h"
#include "../mem/crypto.h"
#include "../mem/mkey.h"
#include "../dp/datapath.h"

static int sim_objects_show(struct seq_file *m, void *unused)
{
	struct mlx5x_sim *sim = m->private;
	struct sim_obj *obj;
	unsigned long id;
	int t;

	seq_puts(m, "type id uid users\n");
	mutex_lock(&sim->lock);
	for (t = 0; t < SIM_OBJ_NTYPES; t++)
		xa_for_each(&sim->objs[t], id, obj)
			seq_printf(m, "%s 0x%x %u %u\n", sim_obj_type_name(t),
				   obj->id, obj->uid, obj->users);
	mutex_unlock(&sim->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_objects);

static int sim_stats_show(struct seq_file *m, void *unused)
{
	struct mlx5x_sim *sim = m->private;

	mutex_lock(&sim->lock);
	seq_printf(m, "commands %llu\nfailed %llu\nobjects %u\nevents %llu\n",
		   sim->cmds, sim->cmd_errors, sim->live, sim->events);
	/* on-demand paging (mem/odp.c) */
	seq_printf(m, "odp_faults %llu\nodp_resumes %llu\nodp_zaps %llu\n",
		   sim->odp_faults, sim->odp_resumes, READ_ONCE(sim->odp_zaps));
	seq_printf(m, "odp_blocks %llu\n", sim->odp_blocks);
	mutex_unlock(&sim->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_stats);

static int sim_fail_next_get(void *data, u64 *val)
{
	struct mlx5x_sim *sim = data;

	mutex_lock(&sim->lock);
	*val = sim->fail_next;
	mutex_unlock(&sim->lock);
	return 0;
}

static int sim_fail_next_set(void *data, u64 val)
{
	struct mlx5x_sim *sim = data;

	if (val > UINT_MAX)
		return -EINVAL;
	mutex_lock(&sim->lock);
	sim->fail_next = val;
	mutex_unlock(&sim->lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(sim_fail_next_fops, sim_fail_next_get,
			 sim_fail_next_set, "%llu\n");

static int sim_fail_nth_get(void *data, u64 *val)
{
	struct mlx5x_sim *sim = data;

	mutex_lock(&sim->lock);
	*val = sim->fail_nth;
	mutex_unlock(&sim->lock);
	return 0;
}

static int sim_fail_nth_set(void *data, u64 val)
{
	struct mlx5x_sim *sim = data;

	if (val > UINT_MAX)
		return -EINVAL;
	mutex_lock(&sim->lock);
	sim->fail_nth = val;
	mutex_unlock(&sim->lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(sim_fail_nth_fops, sim_fail_nth_get,
			 sim_fail_nth_set, "%llu\n");

static int sim_fail_opcode_get(void *data, u64 *val)
{
	struct mlx5x_sim *sim = data;

	mutex_lock(&sim->lock);
	*val = (s64)sim->fail_opcode;
	mutex_unlock(&sim->lock);
	return 0;
}

static int sim_fail_opcode_set(void *data, u64 val)
{
	struct mlx5x_sim *sim = data;
	s64 op = (s64)val;

	if (op < -1 || op > 0xffff)
		return -EINVAL;
	mutex_lock(&sim->lock);
	sim->fail_opcode = op;
	mutex_unlock(&sim->lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(sim_fail_opcode_fops, sim_fail_opcode_get,
			 sim_fail_opcode_set, "%lld\n");

/**
 * mlx5x_sim_debugfs_init() - publish the model's knobs
 * @sim: the model
 * @parent: directory of the device; the model's files go into "fw" below it
 */
void mlx5x_sim_debugfs_init(struct mlx5x_sim *sim, struct dentry *parent)
{
	sim->dbg = debugfs_create_dir("fw", parent);
	debugfs_create_file("objects", 0400, sim->dbg, sim, &sim_objects_fops);
	debugfs_create_file("stats", 0400, sim->dbg, sim, &sim_stats_fops);
	debugfs_create_file_unsafe("fail_next", 0600, sim->dbg, sim,
				   &sim_fail_next_fops);
	debugfs_create_file_unsafe("fail_nth", 0600, sim->dbg, sim,
				   &sim_fail_nth_fops);
	debugfs_create_file_unsafe("fail_opcode", 0600, sim->dbg, sim,
				   &sim_fail_opcode_fops);
	sim_events_debugfs_init(sim);
	sim_classify_debugfs_init(sim);
	sim_crypto_debugfs_init(sim);
	sim_mkey_access_debugfs_init(sim);
	sim_dp_debugfs_init(sim);
}
