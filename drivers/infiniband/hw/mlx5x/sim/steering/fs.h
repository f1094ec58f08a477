/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Flow steering in the firmware model: flow tables, flow groups, flow
 * table entries (FTEs) and the contexts entries use (modify header, packet
 * reformat).  Shared by the fs command files only.
 *
 * How a packet classifier walks it:
 *
 *   sim_flow_table
 *     .groups     the table's groups, ordered by start_flow_index
 *       sim_flow_group
 *         .mask       the match criteria (fte_match_param, masked bits set)
 *         .entries    rhashtable of sim_fte keyed on (value & mask): mask
 *                     the packet's fields with .mask, look the result up
 *     .miss       where a packet no group matches goes (NULL: default)
 *   sim_fte
 *     .value      its match value, already within the group's mask
 *     .acts       actions, destinations, counters, contexts
 *
 * Every object an entry or table names is held with sim_obj_ref() and
 * dropped by the holder's release, so nothing named can go away first.
 */
#ifndef MLX5X_SIM_FS_H
#define MLX5X_SIM_FS_H

#include <linux/list.h>
#include <linux/rhashtable.h>
#include "../sim_priv.h"

/* QUERY_HCA_CAP type of the NIC flow table capabilities. */
#define SIM_FS_CAP_TYPE		0x07

/* Bytes of a match value or mask (struct fte_match_param). */
#define SIM_FS_MATCH_BYTES	PRM_BYTES(fte_match_param)

/* Table types the model offers, as table_type in the mailboxes. */
#define SIM_FS_NTYPES		9	/* NIC_RX (0), NIC_TX (1), SNIFFER_RX (5),
					 * SNIFFER_TX (6), RDMA_RX (7), RDMA_TX
					 * (8); sim_fs_prop() says which the
					 * profile offers
					 */
/* The RDMA domains' table types (mlx5_core's FS_FT_RDMA_RX/TX). */
#define SIM_FS_TYPE_RDMA_RX	0x7
#define SIM_FS_TYPE_RDMA_TX	0x8

/* Actions an entry may carry; anything else is refused. */
#define SIM_FS_ACTIONS	(MLX5_FLOW_CONTEXT_ACTION_ALLOW |		\
			 MLX5_FLOW_CONTEXT_ACTION_DROP |		\
			 MLX5_FLOW_CONTEXT_ACTION_FWD_DEST |		\
			 MLX5_FLOW_CONTEXT_ACTION_COUNT |		\
			 MLX5_FLOW_CONTEXT_ACTION_PACKET_REFORMAT |	\
			 MLX5_FLOW_CONTEXT_ACTION_MOD_HDR)

/**
 * struct sim_flow_table - a flow table
 * @obj: its object; id is the table_id
 * @type: table_type (SIM_FS_NTYPES)
 * @level: its level; a table forwards only to deeper (greater) levels
 * @log_size: it holds flow indexes 0 .. 2^log_size - 1
 * @reformat_en: entries may carry the packet reformat action
 * @miss_domain: a miss leaves the domain (table_miss_action
 *		 SWITCH_DOMAIN): on RDMA RX, on to the RoCE transport, which
 *		 is where the type's default goes too
 * @miss: the table a packet no entry matches goes to
 *	  (table_miss_action FWD); NULL: the type's default.  Referenced.
 * @groups: its flow groups (sim_flow_group.node), by start index
 * @ftes: its entries by flow index
 */
struct sim_flow_table {
	struct sim_obj obj;
	u8 type;
	u8 level;
	u8 log_size;
	bool reformat_en;
	bool miss_domain;
	struct sim_flow_table *miss;
	struct list_head groups;
	struct xarray ftes;
};

/**
 * struct sim_flow_group - a flow group: a range of flow indexes of one
 *			   table whose entries all match on the same mask
 * @obj: its object; id is the group_id
 * @ft: its table (referenced)
 * @node: in @ft->groups
 * @start: first flow index
 * @end: last flow index
 * @criteria: match_criteria_enable
 * @mask: match_criteria
 * @entries: its entries (sim_fte.hnode), keyed on their masked value
 * @nentries: how many
 */
struct sim_flow_group {
	struct sim_obj obj;
	struct sim_flow_table *ft;
	struct list_head node;
	u32 start;
	u32 end;
	u8 criteria;
	u8 mask[SIM_FS_MATCH_BYTES];
	struct rhashtable entries;
	unsigned int nentries;
};

/**
 * struct sim_fte_dest - one destination of an entry
 * @type: destination_type (FLOW_TABLE or TIR)
 * @id: destination_id
 * @obj: the table or TIR (referenced)
 */
struct sim_fte_dest {
	u8 type;
	u32 id;
	struct sim_obj *obj;
};

/**
 * struct sim_fte_counter - one flow counter an entry counts into
 * @id: flow_counter_id, possibly inside a bulk
 * @obj: the counter or bulk holding it (referenced)
 */
struct sim_fte_counter {
	u32 id;
	struct sim_obj *obj;
};

/**
 * struct sim_fte_acts - what an entry does with a packet it matches
 * @action: MLX5_FLOW_CONTEXT_ACTION_* bits
 * @flow_tag: reported in the CQE
 * @reformat: packet reformat context (PACKET_REFORMAT), referenced
 * @modhdr: modify header context (MOD_HDR), referenced
 * @ndest: destinations (FWD_DEST)
 * @dest: them
 * @ncounter: flow counters (COUNT)
 * @counter: them
 */
struct sim_fte_acts {
	u16 action;
	u32 flow_tag;
	struct sim_obj *reformat;
	struct sim_obj *modhdr;
	u32 ndest;
	struct sim_fte_dest *dest;
	u32 ncounter;
	struct sim_fte_counter *counter;
};

/**
 * struct sim_fte - a flow table entry
 * @obj: its object (its id is the model's own; flow_index names it)
 * @fg: its group (referenced)
 * @flow_index: its index in the table
 * @hnode: in @fg->entries
 * @value: match_value; value & ~mask is zero, so it is its own hash key
 * @acts: what it does
 */
struct sim_fte {
	struct sim_obj obj;
	struct sim_flow_group *fg;
	u32 flow_index;
	struct rhash_head hnode;
	u8 value[SIM_FS_MATCH_BYTES];
	struct sim_fte_acts acts;
};

/**
 * struct sim_modify_hdr - a modify header context
 * @obj: its object; id is the modify_header_id
 * @table_type: the table type whose entries may use it
 * @nactions: how many actions
 * @actions: them, as the command gave them (8 bytes each)
 */
struct sim_modify_hdr {
	struct sim_obj obj;
	u8 table_type;
	u8 nactions;
	u8 *actions;
};

/**
 * struct sim_pkt_reformat - a packet reformat context
 * @obj: its object; id is the packet_reformat_id
 * @type: reformat_type
 * @size: bytes of @data
 * @data: the header it inserts
 */
struct sim_pkt_reformat {
	struct sim_obj obj;
	u8 type;
	u16 size;
	u8 *data;
};

extern const struct rhashtable_params sim_fte_ht_params;

/* The model has no e-switch: no command may name another vport. */
static inline u8 sim_fs_own_vport(struct sim_cmd_ctx *ctx, u32 other_vport,
				  u32 vport_number)
{
	if (other_vport || vport_number)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	return PRM_STAT_OK;
}

/* fs_caps.c */
void *sim_fs_prop(struct mlx5x_sim *sim, u32 table_type);
#define SIM_FS_PROP(sim, type, fld) ({					\
	void *__p = sim_fs_prop(sim, type);				\
	__p ? PRM_GET(flow_table_prop_layout, __p, fld) : 0;		\
})
u8 sim_fs_criteria_supported(struct mlx5x_sim *sim, u32 table_type);

/* cmd_flow_table.c */
u8 sim_flow_table_get(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		      u32 type, u32 id, struct sim_flow_table **ftp);
void sim_flow_table_release(struct sim_obj *obj);

/* cmd_flow_group.c */
void sim_flow_group_release(struct sim_obj *obj);

/* cmd_fte.c */
void sim_fte_release(struct sim_obj *obj);
struct sim_fte *sim_fte_lookup(struct sim_flow_group *fg, const void *value);

/* cmd_fs_actions.c */
void sim_modify_hdr_release(struct sim_obj *obj);
void sim_pkt_reformat_release(struct sim_obj *obj);
bool sim_fs_reformat_ok(struct mlx5x_sim *sim, u32 table_type,
			u32 reformat_type);

/* cmd_counters.c */
u8 sim_flow_counter_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			u32 id, struct sim_obj **objp);

#endif /* MLX5X_SIM_FS_H */
