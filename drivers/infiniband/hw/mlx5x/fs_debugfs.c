// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * debugfs "steer": rules of the kernel's own steering for tests, until
 * the verbs and mlx5dv flow entry points carry traffic to a QP.  Each
 * line written adds one rule in the NIC RX bypass namespace:
 *
 *	PRIO TIRN DMAC [FLOW_TAG]
 *
 * e.g. "3 0x12 02:00:00:00:00:02 0x7": packets to that destination MAC
 * go to TIR 0x12 with flow tag 7.  The rules live as long as the file is
 * open: closing it deletes them, so close it before destroying the QP
 * whose TIR they name.  While it is open the device cannot go away.
 *
 * The rules are the kernel's (uid 0), so the file checks what firmware
 * would check of a process's own rule: the TIR must be one that a
 * context opened by the writing process owns (QUERY_TIR under that
 * context's uid succeeds).  A writer can steer packets only to itself,
 * never into another process's queues.  The file is root's (0200), as
 * all of debugfs is.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include "fs.h"

#define MLX5X_STEER_DBG_MAX	64
#define MLX5X_FS_CRITERIA_OUTER	BIT(0)

struct mlx5x_steer_file {
	struct mlx5x_dev *dev;
	unsigned int n;
	struct mlx5x_fs_rule *rule[MLX5X_STEER_DBG_MAX];
};

static int mlx5x_steer_open(struct inode *inode, struct file *file)
{
	struct mlx5x_dev *dev = inode->i_private;
	struct mlx5x_steer_file *sf;

	if (!ib_device_try_get(&dev->ib))
		return -ENODEV;
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf) {
		ib_device_put(&dev->ib);
		return -ENOMEM;
	}
	sf->dev = dev;
	file->private_data = sf;
	return nonseekable_open(inode, file);
}

static int mlx5x_steer_release(struct inode *inode, struct file *file)
{
	struct mlx5x_steer_file *sf = file->private_data;
	struct mlx5x_dev *dev = sf->dev;

	while (sf->n)
		mlx5x_fs_rule_del(dev, sf->rule[--sf->n]);
	kfree(sf);
	ib_device_put(&dev->ib);
	return 0;
}

/* "PRIO TIRN DMAC [TAG]" into a rule's attributes. */
static int mlx5x_steer_parse(char *buf, unsigned int *prio,
			     struct mlx5x_fs_rule_attr *a, void *mask,
			     void *value)
{
	void *mh = PRM_ADDR(fte_match_param, mask, outer_headers);
	void *vh = PRM_ADDR(fte_match_param, value, outer_headers);
	char *prio_s = strsep(&buf, " \t");
	char *tir_s = strsep(&buf, " \t");
	char *mac_s = strsep(&buf, " \t");
	u8 mac[ETH_ALEN];

	if (!prio_s || !tir_s || !mac_s || kstrtouint(prio_s, 0, prio) ||
	    *prio >= MLX5X_FS_PRIOS || kstrtou32(tir_s, 0, &a->dest[0].id) ||
	    !mac_pton(mac_s, mac))
		return -EINVAL;
	if (buf && kstrtou32(strim(buf), 0, &a->flow_tag))
		return -EINVAL;
	if (a->flow_tag > 0xffffff)
		return -EINVAL;
	memset(PRM_ADDR(fte_match_set_lyr_2_4, mh, dmac_47_16), 0xff,
	       ETH_ALEN);
	ether_addr_copy(PRM_ADDR(fte_match_set_lyr_2_4, vh, dmac_47_16), mac);
	a->criteria = MLX5X_FS_CRITERIA_OUTER;
	a->mask = mask;
	a->value = value;
	a->action = MLX5_FLOW_CONTEXT_ACTION_FWD_DEST;
	a->ndest = 1;
	a->dest[0].type = MLX5_IFC_FLOW_DESTINATION_TYPE_TIR;
	return 0;
}

/* Whether a context the current process opened owns TIR @tirn. */
static bool mlx5x_steer_owns_tir(struct mlx5x_dev *dev, u32 tirn)
{
	u32 in[PRM_BYTES(query_tir_in) / 4] = {};
	struct mlx5x_ucontext *uctx;
	bool owned = false;
	void *out;

	out = kzalloc(PRM_BYTES(query_tir_out), GFP_KERNEL);
	if (!out)
		return false;
	PRM_SET(query_tir_in, in, opcode, MLX5_CMD_OP_QUERY_TIR);
	PRM_SET(query_tir_in, in, tirn, tirn);
	mutex_lock(&dev->uctx_lock);
	list_for_each_entry(uctx, &dev->uctx_list, node) {
		if (uctx->pid != task_tgid_nr(current) || !uctx->devx_uid)
			continue;
		prm_in_set_uid(in, uctx->devx_uid);
		if (!mlx5x_cmd_exec(dev, in, sizeof(in), out,
				    PRM_BYTES(query_tir_out))) {
			owned = true;
			break;
		}
	}
	mutex_unlock(&dev->uctx_lock);
	kfree(out);
	return owned;
}

static ssize_t mlx5x_steer_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct mlx5x_steer_file *sf = file->private_data;
	struct mlx5x_fs_rule_attr a = {};
	struct mlx5x_fs_rule *rule;
	void *mask = NULL, *value = NULL;
	unsigned int prio;
	char *buf;
	int err;

	if (count > 128 || sf->n == MLX5X_STEER_DBG_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mask = kzalloc(PRM_BYTES(fte_match_param), GFP_KERNEL);
	value = kzalloc(PRM_BYTES(fte_match_param), GFP_KERNEL);
	err = !mask || !value ? -ENOMEM :
	      mlx5x_steer_parse(strim(buf), &prio, &a, mask, value);
	if (!err && !mlx5x_steer_owns_tir(sf->dev, a.dest[0].id))
		err = -EACCES;
	if (!err) {
		rule = mlx5x_fs_rule_add(sf->dev, MLX5X_FS_NS_BYPASS, prio, &a);
		if (IS_ERR(rule))
			err = PTR_ERR(rule);
		else
			sf->rule[sf->n++] = rule;
	}
	kfree(value);
	kfree(mask);
	kfree(buf);
	return err ?: count;
}

static const struct file_operations mlx5x_steer_fops = {
	.owner = THIS_MODULE,
	.open = mlx5x_steer_open,
	.release = mlx5x_steer_release,
	.write = mlx5x_steer_write,
	.llseek = noop_llseek,
};

/**
 * mlx5x_fs_debugfs_init() - publish the device's "steer" file
 * @dev: the device, whose debugfs directory exists
 */
void mlx5x_fs_debugfs_init(struct mlx5x_dev *dev)
{
	debugfs_create_file("steer", 0200, dev->dbg, dev, &mlx5x_steer_fops);
}
