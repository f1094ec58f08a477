// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Rules of the kernel's flow steering.  Rules are added into (namespace,
 * priority) with a mask and value: the table's groups are made on
 * demand, one per mask (another when full), in slots cut as fs_core's
 * autogroup cuts a table: the first masks get an eighth of the table
 * each (100k rules of one mask sit in one group), the masks after share
 * the last eighth in small slots.  Rules of a priority with the same mask
 * and value share one entry, as fs_core merges them: its destinations
 * and counters are the union of its rules', each counted, and the entry
 * is rewritten (SET_FTE modify) as rules come and go.  The tables are
 * fs_core.c's.
 */
#include <linux/slab.h>
#include "fs_core.h"

/* A group's entries by value. */
static const struct rhashtable_params mlx5x_fs_fte_params = {
	.key_len = MLX5X_FS_MATCH_BYTES,
	.key_offset = offsetof(struct mlx5x_fs_fte, value),
	.head_offset = offsetof(struct mlx5x_fs_fte, node),
	.automatic_shrinking = true,
};

/*
 * The group of @p for a rule: of those with its mask, the one holding an
 * entry of its value (the rule joins it), else one with a free index,
 * else a new one.
 */
static struct mlx5x_fs_group *
mlx5x_fs_group_get(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p,
		   const struct mlx5x_fs_rule_attr *attr)
{
	const void *mask = attr->mask;
	u8 criteria = attr->criteria;
	struct mlx5x_fs_group *fg = NULL;
	struct rhlist_head *list, *pos;
	struct mlx5x_fs_fte *fte;
	unsigned int slot;
	int err;

	/* a rule matching what an entry matches joins it, wherever */
	rcu_read_lock();
	list = rhltable_lookup(&p->ftes, attr->value, mlx5x_fs_pfte_params);
	rhl_for_each_entry_rcu(fte, pos, list, pnode)
		if (fte->fg->criteria == criteria &&
		    !memcmp(fte->fg->mask, mask, MLX5X_FS_MATCH_BYTES)) {
			fg = fte->fg;
			break;
		}
	rcu_read_unlock();
	if (fg)
		return fg;
	list_for_each_entry(fg, &p->groups, node)
		if (fg->criteria == criteria && fg->used < fg->size &&
		    !memcmp(fg->mask, mask, MLX5X_FS_MATCH_BYTES))
			return fg;
	slot = find_first_zero_bit(p->slots, p->nslots);
	if (slot >= p->nslots)
		return ERR_PTR(-ENOSPC);
	fg = kzalloc(sizeof(*fg), GFP_KERNEL);
	if (!fg)
		return ERR_PTR(-ENOMEM);
	fg->slot = slot;
	mlx5x_fs_prio_slot(p, slot, &fg->start, &fg->size);
	ida_init(&fg->busy);
	fg->criteria = criteria;
	memcpy(fg->mask, mask, MLX5X_FS_MATCH_BYTES);
	err = rhashtable_init(&fg->ftes, &mlx5x_fs_fte_params);
	if (err) {
		kfree(fg);
		return ERR_PTR(err);
	}
	err = mlx5x_fs_cmd_create_group(dev, &p->ft, fg->start,
					fg->start + fg->size - 1, criteria,
					mask, &fg->id);
	if (err) {
		rhashtable_destroy(&fg->ftes);
		kfree(fg);
		return ERR_PTR(err);
	}
	set_bit(slot, p->slots);
	/* first in the list: the one with room, for the rules that follow */
	list_add(&fg->node, &p->groups);
	return fg;
}

static void mlx5x_fs_group_put(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p,
			       struct mlx5x_fs_group *fg)
{
	if (fg->used)
		return;
	mlx5x_fs_cmd_destroy_group(dev, &p->ft, fg->id);
	clear_bit(fg->slot, p->slots);
	list_del(&fg->node);
	rhashtable_destroy(&fg->ftes);
	ida_destroy(&fg->busy);
	kfree(fg);
}

/* Does @fte forward to a table (which may sit at any level)? */
static bool mlx5x_fs_fte_to_table(const struct mlx5x_fs_fte *fte)
{
	u32 i;

	for (i = 0; i < fte->ndest; i++)
		if (fte->dest[i].type ==
		    MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE)
			return true;
	return false;
}

/*
 * Write @fte to firmware: SET_FTE creating it, or modifying its action,
 * destinations and counters when firmware holds it already.
 */
static int mlx5x_fs_fte_write(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p,
			      struct mlx5x_fs_group *fg,
			      struct mlx5x_fs_fte *fte)
{
	struct mlx5x_fs_dest dest[MLX5X_FS_FTE_MAX_DEST];
	u32 counter[MLX5X_FS_FTE_MAX_COUNTERS];
	struct mlx5x_fs_fte_cmd cmd = {
		.group = fg->id,
		.index = fg->start + fte->index,
		.ignore_level = mlx5x_fs_fte_to_table(fte),
		.modify = fte->in_hw,
		.action = fte->action,
		.flow_tag = fte->flow_tag,
		.modify_header_id = fte->modify_header_id,
		.reformat_id = fte->reformat_id,
		.value = fte->value,
		.ndest = fte->ndest,
		.dest = dest,
		.ncounter = fte->ncounter,
		.counter = counter,
	};
	u32 i;
	int err;

	for (i = 0; i < fte->ndest; i++) {
		dest[i].type = fte->dest[i].type;
		dest[i].id = fte->dest[i].id;
	}
	for (i = 0; i < fte->ncounter; i++)
		counter[i] = fte->counter[i].id;
	err = mlx5x_fs_cmd_set_fte(dev, &p->ft, &cmd);
	if (!err)
		fte->in_hw = true;
	return err;
}

static void mlx5x_fs_fte_erase(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p,
			       struct mlx5x_fs_group *fg,
			       struct mlx5x_fs_fte *fte)
{
	if (fte->in_hw)
		mlx5x_fs_cmd_delete_fte(dev, &p->ft, fg->start + fte->index);
	fte->in_hw = false;
}

/* Take (@add) or drop one rule's want of (@type, @id) in @refs. */
static int mlx5x_fs_ref_change(struct mlx5x_fs_ref *refs, u32 *n, u32 max,
			       u8 type, u32 id, bool add)
{
	u32 i;

	for (i = 0; i < *n; i++)
		if (refs[i].type == type && refs[i].id == id)
			break;
	if (add) {
		if (i == *n) {
			if (*n == max)
				return -ENOSPC;
			refs[i].type = type;
			refs[i].id = id;
			refs[i].refs = 0;
			(*n)++;
		}
		refs[i].refs++;
		return 0;
	}
	if (i < *n && !--refs[i].refs) {
		memmove(&refs[i], &refs[i + 1], (*n - i - 1) * sizeof(*refs));
		(*n)--;
	}
	return 0;
}

/* Add (@add) or remove @rule's destinations and counters from its entry. */
static int mlx5x_fs_fte_apply(struct mlx5x_fs_fte *fte,
			      const struct mlx5x_fs_rule *rule, bool add)
{
	u32 i;
	int err = 0;

	for (i = 0; !err && i < rule->ndest; i++)
		err = mlx5x_fs_ref_change(fte->dest, &fte->ndest,
					  MLX5X_FS_FTE_MAX_DEST,
					  rule->dest[i].type, rule->dest[i].id,
					  add);
	for (i = 0; !err && i < rule->ncounter; i++)
		err = mlx5x_fs_ref_change(fte->counter, &fte->ncounter,
					  MLX5X_FS_FTE_MAX_COUNTERS, 0,
					  rule->counter[i], add);
	return err;
}

/* The rule's own view of @attr: its destinations (and the next table). */
static int mlx5x_fs_rule_init(struct mlx5x_fs_rule *rule,
			      struct mlx5x_fs_prio *p,
			      const struct mlx5x_fs_rule_attr *attr)
{
	if (attr->ndest > MLX5X_FS_MAX_DEST ||
	    attr->ncounter > MLX5X_FS_MAX_COUNTERS)
		return -EINVAL;
	rule->ndest = attr->ndest;
	memcpy(rule->dest, attr->dest, attr->ndest * sizeof(*attr->dest));
	if (attr->fwd_next) {
		if (!p->miss)
			return -EOPNOTSUPP;
		rule->dest[rule->ndest].type =
			MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE;
		rule->dest[rule->ndest++].id = p->miss;
	}
	rule->ncounter = attr->ncounter;
	memcpy(rule->counter, attr->counter,
	       attr->ncounter * sizeof(*attr->counter));
	return 0;
}

static bool mlx5x_fs_fte_same_acts(const struct mlx5x_fs_fte *fte,
				   const struct mlx5x_fs_rule_attr *attr)
{
	u32 action = attr->action & ~(MLX5_FLOW_CONTEXT_ACTION_FWD_DEST |
				      MLX5_FLOW_CONTEXT_ACTION_COUNT);

	return fte->action == action && fte->flow_tag == attr->flow_tag &&
	       fte->modify_header_id == attr->modify_header_id &&
	       fte->reformat_id == attr->reformat_id;
}

/* A new entry of @fg for @attr's value, not yet written. */
static struct mlx5x_fs_fte *mlx5x_fs_fte_new(struct mlx5x_fs_group *fg,
					     const struct mlx5x_fs_rule_attr *attr)
{
	const u8 *mask = attr->mask, *value = attr->value;
	struct mlx5x_fs_fte *fte;
	unsigned int i;

	fte = kzalloc(sizeof(*fte), GFP_KERNEL);
	if (!fte)
		return NULL;
	for (i = 0; i < MLX5X_FS_MATCH_BYTES; i++)
		fte->value[i] = value[i] & mask[i];
	fte->action = attr->action & ~(MLX5_FLOW_CONTEXT_ACTION_FWD_DEST |
				       MLX5_FLOW_CONTEXT_ACTION_COUNT);
	fte->flow_tag = attr->flow_tag;
	fte->modify_header_id = attr->modify_header_id;
	fte->reformat_id = attr->reformat_id;
	return fte;
}

/* Join @rule to an entry of @fg; under the lock. */
static int mlx5x_fs_rule_join(struct mlx5x_dev *dev, struct mlx5x_fs_prio *p,
			      struct mlx5x_fs_group *fg,
			      struct mlx5x_fs_rule *rule,
			      const struct mlx5x_fs_rule_attr *attr)
{
	struct mlx5x_fs_fte *fte, *key;
	int err;

	key = mlx5x_fs_fte_new(fg, attr);
	if (!key)
		return -ENOMEM;
	fte = rhashtable_lookup_fast(&fg->ftes, key->value,
				     mlx5x_fs_fte_params);
	if (fte) {
		kfree(key);
		if (!mlx5x_fs_fte_same_acts(fte, attr))
			return -EEXIST;
		err = mlx5x_fs_fte_apply(fte, rule, true);
		if (!err)
			err = mlx5x_fs_fte_write(dev, p, fg, fte);
		if (err) {
			mlx5x_fs_fte_apply(fte, rule, false);
			return err;
		}
		fte->nrules++;
		rule->fte = fte;
		return 0;
	}
	fte = key;
	err = ida_alloc_max(&fg->busy, fg->size - 1, GFP_KERNEL);
	if (err < 0) {
		kfree(fte);
		return err;
	}
	fte->index = err;
	err = mlx5x_fs_fte_apply(fte, rule, true);
	if (!err)
		err = rhashtable_insert_fast(&fg->ftes, &fte->node,
					     mlx5x_fs_fte_params);
	if (err) {
		ida_free(&fg->busy, fte->index);
		kfree(fte);
		return err;
	}
	fte->fg = fg;
	err = rhltable_insert(&p->ftes, &fte->pnode, mlx5x_fs_pfte_params);
	if (!err) {
		err = mlx5x_fs_fte_write(dev, p, fg, fte);
		if (err)
			rhltable_remove(&p->ftes, &fte->pnode,
					mlx5x_fs_pfte_params);
	}
	if (err) {
		rhashtable_remove_fast(&fg->ftes, &fte->node,
				       mlx5x_fs_fte_params);
		ida_free(&fg->busy, fte->index);
		kfree(fte);
		return err;
	}
	fg->used++;
	fte->nrules = 1;
	rule->fte = fte;
	return 0;
}

/* A value may set only bits its mask matches on (fs_core checks so too). */
static bool mlx5x_fs_value_in_mask(const u8 *value, const u8 *mask)
{
	unsigned int i;

	for (i = 0; i < MLX5X_FS_MATCH_BYTES; i++)
		if (value[i] & ~mask[i])
			return false;
	return true;
}

/**
 * mlx5x_fs_rule_add() - add a rule to the kernel's table of a priority
 * @dev: device
 * @ns: namespace
 * @prio: priority, below mlx5x_fs_nprios(@ns)
 * @attr: what it matches and does; destinations are forwarded to
 *	  ignoring levels (a user's table may sit at any level)
 *
 * A rule matching what a rule of the priority matches joins its entry
 * (see struct mlx5x_fs_rule_attr).
 *
 * Return: the rule, or an ERR_PTR: -EINVAL for a bad namespace or
 * priority, -EOPNOTSUPP when the device has no such table (or no next
 * priority for @attr->fwd_next), -ENOSPC when the table or the entry is
 * full, -EEXIST when a rule of the priority matches the same with other
 * actions, or the errno of a refused command.
 */
struct mlx5x_fs_rule *mlx5x_fs_rule_add(struct mlx5x_dev *dev,
					enum mlx5x_fs_ns ns, unsigned int prio,
					const struct mlx5x_fs_rule_attr *attr)
{
	struct mlx5x_fs_rule *rule;
	struct mlx5x_fs_group *fg;
	struct mlx5x_fs_prio *p;
	int err;

	if (!dev->fs || ns >= MLX5X_FS_NS_NUM || prio >= mlx5x_fs_nprios(ns) ||
	    !attr->mask || !attr->value ||
	    !mlx5x_fs_value_in_mask(attr->value, attr->mask))
		return ERR_PTR(-EINVAL);
	rule = kzalloc(sizeof(*rule), GFP_KERNEL);
	if (!rule)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&dev->fs->lock);
	p = mlx5x_fs_prio_get(dev, ns, prio);
	if (IS_ERR(p)) {
		err = PTR_ERR(p);
		goto err_unlock;
	}
	err = mlx5x_fs_rule_init(rule, p, attr);
	if (err)
		goto err_put;
	fg = mlx5x_fs_group_get(dev, p, attr);
	if (IS_ERR(fg)) {
		err = PTR_ERR(fg);
		goto err_put;
	}
	err = mlx5x_fs_rule_join(dev, p, fg, rule, attr);
	if (err) {
		mlx5x_fs_group_put(dev, p, fg);
		goto err_put;
	}
	mutex_unlock(&dev->fs->lock);
	rule->prio = p;
	rule->fg = fg;
	return rule;

err_put:
	mlx5x_fs_prio_put(dev, p);
err_unlock:
	mutex_unlock(&dev->fs->lock);
	kfree(rule);
	return ERR_PTR(err);
}

/**
 * mlx5x_fs_rule_del() - delete a rule mlx5x_fs_rule_add() added
 * @dev: device
 * @rule: the rule, freed
 *
 * Its entry loses what no other rule of it wants; the last rule's going
 * deletes it.
 */
void mlx5x_fs_rule_del(struct mlx5x_dev *dev, struct mlx5x_fs_rule *rule)
{
	struct mlx5x_fs_prio *p = rule->prio;
	struct mlx5x_fs_group *fg = rule->fg;
	struct mlx5x_fs_fte *fte = rule->fte;

	mutex_lock(&dev->fs->lock);
	mlx5x_fs_fte_apply(fte, rule, false);
	if (--fte->nrules) {
		/*
		 * Shrink it; should firmware refuse, write it anew rather
		 * than leave a destination behind that no rule wants.
		 */
		if (mlx5x_fs_fte_write(dev, p, fg, fte)) {
			mlx5x_fs_fte_erase(dev, p, fg, fte);
			if (mlx5x_fs_fte_write(dev, p, fg, fte))
				dev_warn_ratelimited(&dev->ib.dev,
						     "flow entry %u of table 0x%x lost\n",
						     fte->index, p->ft.id);
		}
		goto out;
	}
	mlx5x_fs_fte_erase(dev, p, fg, fte);
	rhltable_remove(&p->ftes, &fte->pnode, mlx5x_fs_pfte_params);
	rhashtable_remove_fast(&fg->ftes, &fte->node, mlx5x_fs_fte_params);
	ida_free(&fg->busy, fte->index);
	fg->used--;
	kfree(fte);
	mlx5x_fs_group_put(dev, p, fg);
	mlx5x_fs_prio_put(dev, p);
out:
	mutex_unlock(&dev->fs->lock);
	kfree(rule);
}
