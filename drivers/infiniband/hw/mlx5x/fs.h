/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel's own flow steering (fs_core.c): the tables of each
 * namespace and priority, created by the kernel (uid 0) at probe and
 * chained so that a packet no rule of a priority takes goes on to the
 * next, as mlx5_core's fs_core builds them on a ConnectX; and the small
 * API the rest of the driver adds rules through (fs_rule.c).
 */
#ifndef MLX5X_FS_H
#define MLX5X_FS_H

#include "mlx5x.h"

/**
 * enum mlx5x_fs_ns - the kernel's namespaces
 * @MLX5X_FS_NS_BYPASS: NIC RX: user flows, MLX5X_FS_PRIOS priorities
 * @MLX5X_FS_NS_LEFTOVERS: NIC RX: what nothing else took (default rules)
 * @MLX5X_FS_NS_EGRESS: NIC TX: user flows, MLX5X_FS_PRIOS priorities
 * @MLX5X_FS_NS_BYPASS_DT: NIC RX: the don't-trap rules of each bypass
 *	priority, looked up just before it (MLX5X_FS_PRIOS priorities)
 * @MLX5X_FS_NS_EGRESS_DT: NIC TX: the same before each egress priority
 * @MLX5X_FS_NS_MCAST: NIC RX: multicast-only user flows, after bypass
 * @MLX5X_FS_NS_SNIFFER_RX: sniffer RX: a copy of every received packet
 *	(one priority; none when the device has no sniffer tables)
 * @MLX5X_FS_NS_SNIFFER_TX: sniffer TX: a copy of every sent packet
 * @MLX5X_FS_NS_FDB: FDB (flow matchers), when the device offers it
 * @MLX5X_FS_NS_RDMA_RX: RDMA RX (flow matchers), when offered
 * @MLX5X_FS_NS_RDMA_TX: RDMA TX (flow matchers), when offered
 * @MLX5X_FS_NS_NUM: how many
 */
enum mlx5x_fs_ns {
	MLX5X_FS_NS_BYPASS,
	MLX5X_FS_NS_LEFTOVERS,
	MLX5X_FS_NS_EGRESS,
	MLX5X_FS_NS_BYPASS_DT,
	MLX5X_FS_NS_EGRESS_DT,
	MLX5X_FS_NS_MCAST,
	MLX5X_FS_NS_SNIFFER_RX,
	MLX5X_FS_NS_SNIFFER_TX,
	MLX5X_FS_NS_FDB,
	MLX5X_FS_NS_RDMA_RX,
	MLX5X_FS_NS_RDMA_TX,
	MLX5X_FS_NS_NUM,
};

#define MLX5X_FS_PRIOS		16
/* Table types of the RDMA namespaces (mlx5_core's FS_FT_RDMA_RX/TX) */
#define MLX5X_FT_TYPE_RDMA_RX	0x7
#define MLX5X_FT_TYPE_RDMA_TX	0x8
/* QUERY_HCA_CAP type of the NIC flow table page */
#define MLX5X_CAP_NIC_FLOW_TABLE 0x7
#define MLX5X_FS_MAX_DEST	4
#define MLX5X_FS_MAX_COUNTERS	4
/* What one entry may hold when rules merge into it. */
#define MLX5X_FS_FTE_MAX_DEST	32
#define MLX5X_FS_FTE_MAX_COUNTERS 16
/* The bytes of a match mask or value (fte_match_param). */
#define MLX5X_FS_MATCH_BYTES	PRM_BYTES(fte_match_param)

/**
 * struct mlx5x_fs_dest - where a rule sends a packet
 * @type: MLX5_IFC_FLOW_DESTINATION_TYPE_* (FLOW_TABLE, TIR)
 * @id: the table or TIR
 */
struct mlx5x_fs_dest {
	u8 type;
	u32 id;
};

/**
 * struct mlx5x_fs_rule_attr - one rule
 * @criteria: match_criteria_enable
 * @mask: fte_match_param: the bits matched (the rule's group has it)
 * @value: fte_match_param: their values, within @mask
 * @action: MLX5_FLOW_CONTEXT_ACTION_* (FWD_DEST, COUNT set from the lists)
 * @flow_tag: reported in the CQE
 * @modify_header_id: with MOD_HDR
 * @reformat_id: with PACKET_REFORMAT
 * @ndest: destinations
 * @dest: them
 * @ncounter: flow counters
 * @counter: their ids
 * @fwd_next: also forward to the next priority's table (don't trap)
 *
 * A rule whose mask and value equal those of a rule already in the
 * priority joins its entry (fs_core does the same): the entry's
 * destinations and counters are the union of its rules', and its other
 * actions must be the same (-EEXIST otherwise).
 */
struct mlx5x_fs_rule_attr {
	u8 criteria;
	const void *mask;
	const void *value;
	u32 action;
	u32 flow_tag;
	u32 modify_header_id;
	u32 reformat_id;
	u32 ndest;
	struct mlx5x_fs_dest dest[MLX5X_FS_MAX_DEST];
	u32 ncounter;
	u32 counter[MLX5X_FS_MAX_COUNTERS];
	bool fwd_next;
};

struct mlx5x_fs_rule;

/**
 * struct mlx5x_fs - the kernel's steering of one device
 * @lock: serialises rule changes
 * @prio: per namespace and priority, its table (NULL: none)
 * @ft_cap: QUERY_HCA_CAP flow table (NIC) capabilities, current
 *
 * The steering anchors keep their own state (fs_anchor.c).
 */
struct mlx5x_fs {
	struct mutex lock;
	void *ft_cap;
	struct mlx5x_fs_prio *prio[MLX5X_FS_NS_NUM][MLX5X_FS_PRIOS];
};

int mlx5x_fs_init(struct mlx5x_dev *dev);
void mlx5x_fs_cleanup(struct mlx5x_dev *dev);
struct mlx5x_fs_rule *mlx5x_fs_rule_add(struct mlx5x_dev *dev,
					enum mlx5x_fs_ns ns, unsigned int prio,
					const struct mlx5x_fs_rule_attr *attr);
void mlx5x_fs_rule_del(struct mlx5x_dev *dev, struct mlx5x_fs_rule *rule);
u32 mlx5x_fs_table_type(enum mlx5x_fs_ns ns);
unsigned int mlx5x_fs_nprios(enum mlx5x_fs_ns ns);
u32 mlx5x_fs_prio_table_id(struct mlx5x_dev *dev, enum mlx5x_fs_ns ns,
			   unsigned int prio);

/* fs_caps.c: what the device's flow table capabilities offer */
void *mlx5x_fs_prop(struct mlx5x_dev *dev, u32 table_type);
bool mlx5x_fs_reformat_en(struct mlx5x_dev *dev, u32 table_type);

/*
 * fs_anchor.c: steering anchors, set up after mlx5x_fs_init() and taken
 * down before mlx5x_fs_cleanup()
 */
int mlx5x_fs_anchors_init(struct mlx5x_dev *dev);
void mlx5x_fs_anchors_cleanup(struct mlx5x_dev *dev);

#endif /* MLX5X_FS_H */
