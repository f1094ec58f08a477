/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Verbs flow steering (ibv_create_flow): the specs of a flow translated to
 * the PRM's match parameters (fs_specs.c), the flows themselves
 * (fs_verbs.c) and the counters objects flows count into (fs_counters.c).
 */
#ifndef MLX5X_FS_VERBS_H
#define MLX5X_FS_VERBS_H

#include <rdma/mlx5-abi.h>
#include "mlx5x.h"
#include "fs.h"

/**
 * struct mlx5x_flow_match - what a flow's specs ask for
 * @criteria: match_criteria_enable of @mask
 * @mask: fte_match_param: the bits matched
 * @value: fte_match_param: their values
 * @drop: an action drop spec
 * @has_tag: an action tag spec
 * @flow_tag: its tag
 * @counters: an action count spec's counters, or NULL
 */
struct mlx5x_flow_match {
	u8 criteria;
	u8 mask[PRM_BYTES(fte_match_param)];
	u8 value[PRM_BYTES(fte_match_param)];
	bool drop;
	bool has_tag;
	u32 flow_tag;
	struct ib_counters *counters;
};

/**
 * struct mlx5x_counters - an ibv_counters object
 * @ib: the core's
 * @lock: serialises binding, reading and unbinding
 * @fc_id: its flow counter (kernel uid), 0 until a flow first counts
 * @ndesc: counters described (the binding), 0: not bound
 * @desc: (description, index) pairs, <rdma/mlx5-abi.h>
 * @max_index: 1 + the greatest index of @desc
 * @nflows: flows counting into it; the last one's going unbinds it
 */
struct mlx5x_counters {
	struct ib_counters ib;
	struct mutex lock;
	u32 fc_id;
	u32 ndesc;
	struct mlx5_ib_flow_counters_desc *desc;
	u32 max_index;
	unsigned int nflows;
};

static inline struct mlx5x_counters *to_mcounters(struct ib_counters *ib)
{
	return container_of(ib, struct mlx5x_counters, ib);
}

/* fs_specs.c */
int mlx5x_flow_specs_parse(struct mlx5x_dev *dev,
			   const struct ib_flow_attr *attr,
			   struct mlx5x_flow_match *m);
bool mlx5x_flow_mcast_only(const struct ib_flow_attr *attr);

/* fs_verbs.c */
struct ib_flow *mlx5x_create_flow(struct ib_qp *qp, struct ib_flow_attr *attr,
				  struct ib_udata *udata);

/* fs_counters.c */
int mlx5x_create_counters(struct ib_counters *counters,
			  struct uverbs_attr_bundle *attrs);
int mlx5x_destroy_counters(struct ib_counters *counters);
int mlx5x_read_counters(struct ib_counters *counters,
			struct ib_counters_read_attr *read_attr,
			struct uverbs_attr_bundle *attrs);
int mlx5x_counters_bind(struct mlx5x_dev *dev, struct ib_counters *counters,
			const struct mlx5_ib_flow_counters_data *data);
void mlx5x_counters_unbind(struct ib_counters *counters);

#endif /* MLX5X_FS_VERBS_H */
