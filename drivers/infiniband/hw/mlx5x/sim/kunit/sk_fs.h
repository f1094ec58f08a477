/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the KUnit suites of flow steering: one builder per flow
 * table, flow group, flow table entry and modify header command, each
 * filling a valid mailbox that a case may then spoil, and the tree of
 * steering objects most entry cases start from.
 */
#ifndef MLX5X_SK_FS_H
#define MLX5X_SK_FS_H

#include "sim_kunit.h"

void *sk_ft_in(struct kunit *test, u16 uid, u32 type, u32 level,
	       u32 log_size, u32 miss);
u8 sk_ft_exec(struct kunit *test, const void *in, u32 *id);
u8 sk_ft_create(struct kunit *test, u16 uid, u32 type, u32 level,
		u32 log_size, u32 miss, u32 *id);
u8 sk_ft_destroy(struct kunit *test, u16 uid, u32 type, u32 id);
u8 sk_ft_query(struct kunit *test, u16 uid, u32 type, u32 id, void **ftc);
u8 sk_ft_modify(struct kunit *test, u16 uid, u32 type, u32 id, u32 select,
		u32 miss);
u8 sk_ft_root(struct kunit *test, u16 uid, u16 op_mod, u32 type, u32 id);

void sk_mask_eth_dport(void *m);
void *sk_fg_in(struct kunit *test, u16 uid, u32 type, u32 ft, u32 start,
	       u32 end, u8 criteria);
u8 sk_fg_exec(struct kunit *test, const void *in, u32 *id);
u8 sk_fg_create_mask(struct kunit *test, u16 uid, u32 type, u32 ft,
		     u32 start, u32 end, u8 criteria, void (*mask)(void *m),
		     u32 *id);
u8 sk_fg_create(struct kunit *test, u16 uid, u32 type, u32 ft, u32 start,
		u32 end, u32 *id);
u8 sk_fg_create_dport(struct kunit *test, u16 uid, u32 type, u32 ft,
		      u32 start, u32 end, u32 *id);
u8 sk_fg_destroy(struct kunit *test, u16 uid, u32 type, u32 ft, u32 id);
u8 sk_fg_query(struct kunit *test, u16 uid, u32 type, u32 ft, u32 id,
	       void **outp);

/**
 * struct sk_fte - what one SET_FLOW_TABLE_ENTRY says
 * @uid: the context that sets it
 * @op_mod: 0 to add the entry, 1 to modify it
 * @type: the table's type (MLX5_FLOW_TABLE_TYPE_*)
 * @ft: the table
 * @fg: the group
 * @index: the entry's flow index
 * @ethertype: the outer ethertype to match
 * @dport: the outer TCP destination port to match
 * @sport: the outer TCP source port (in no group's mask here)
 * @action: MLX5_FLOW_CONTEXT_ACTION_*
 * @flow_tag: the flow tag
 * @ndest: how many of @dest_type and @dest to list
 * @dest_type: each destination's type (MLX5_IFC_FLOW_DESTINATION_TYPE_*)
 * @dest: each destination's id
 * @ncnt: how many of @cnt to list, after the destinations
 * @cnt: the flow counters
 * @reformat: the packet reformat context
 * @modhdr: the modify header context
 * @mask: modify_enable_mask, for @op_mod 1
 * @ignore_level: ignore_flow_level
 * @vport: vport_number
 */
struct sk_fte {
	u16 uid;
	u16 op_mod;
	u32 type;
	u32 ft;
	u32 fg;
	u32 index;
	u16 ethertype;
	u16 dport;
	u16 sport;
	u32 action;
	u32 flow_tag;
	u32 ndest;
	u32 dest_type[4];
	u32 dest[4];
	u32 ncnt;
	u32 cnt[4];
	u32 reformat;
	u32 modhdr;
	u32 mask;
	bool ignore_level;
	u32 vport;
};

void *sk_fte_in(struct kunit *test, const struct sk_fte *e, size_t *inlen);
u8 sk_fte_set(struct kunit *test, const struct sk_fte *e);
u8 sk_fte_delete(struct kunit *test, u16 uid, u32 type, u32 ft, u32 index);
u8 sk_fte_query(struct kunit *test, u16 uid, u32 type, u32 ft, u32 index,
		u32 room, void **outp);

/**
 * struct sk_mh_act - one action of a modify header context
 * @type: MLX5_ACTION_TYPE_SET, _ADD or _COPY
 * @field: the field set, added to, or copied from
 * @offset: the first bit in @field (set and copy)
 * @length: how many bits (set and copy)
 * @dst_field: the field copied to (copy)
 * @data: the value set or added (set and add)
 */
struct sk_mh_act {
	u8 type;
	u16 field;
	u8 offset;
	u8 length;
	u16 dst_field;
	u32 data;
};

u8 sk_modhdr_alloc(struct kunit *test, u16 uid, u32 type, u32 n,
		   const struct sk_mh_act *acts, size_t short_by, u32 *id);
u8 sk_modhdr_free(struct kunit *test, u16 uid, u32 id);

/**
 * struct sk_tree - a receive table at level 1 with a group over entries
 * 0..7 (sk_fg_create()'s mask), a table at level 2 and a flow counter
 * @ft: the level 1 table
 * @fg: its group
 * @next: the level 2 table
 * @cnt: the counter
 */
struct sk_tree {
	u32 ft, fg, next, cnt;
};

void sk_tree_build(struct kunit *test, u16 uid, struct sk_tree *t);
void sk_tree_free(struct kunit *test, u16 uid, struct sk_tree *t);
struct sk_fte sk_fwd_count(u16 uid, struct sk_tree *t, u32 index);

#endif /* MLX5X_SK_FS_H */
