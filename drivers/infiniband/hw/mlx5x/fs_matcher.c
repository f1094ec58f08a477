// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_FLOW_MATCHER (mlx5dv_create_flow_matcher): the mask,
 * criteria, namespace and priority every flow made through it shares.
 * Checked here, against the device's capabilities, so a bad matcher
 * never gets as far as a flow: the table type must be one the device
 * offers, the criteria bits sections its tables can match, the mask no
 * longer than fte_match_param and zero outside the enabled sections,
 * the priority one of the namespace's.
 */
#include <rdma/ib_user_ioctl_verbs.h>
#include "fs_dv.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

/* match_criteria_enable bit -> its section of fte_match_param */
static const struct {
	u32 off;
	u32 len;
} mlx5x_match_sections[] = {
	{ PRM_BYTE_OFF(fte_match_param, outer_headers),
	  PRM_BYTES(fte_match_set_lyr_2_4) },
	{ PRM_BYTE_OFF(fte_match_param, misc_parameters),
	  PRM_BYTES(fte_match_set_misc) },
	{ PRM_BYTE_OFF(fte_match_param, inner_headers),
	  PRM_BYTES(fte_match_set_lyr_2_4) },
	{ PRM_BYTE_OFF(fte_match_param, misc_parameters_2),
	  PRM_BYTES(fte_match_set_misc2) },
	{ PRM_BYTE_OFF(fte_match_param, misc_parameters_3),
	  PRM_BYTES(fte_match_set_misc3) },
};

/**
 * mlx5x_ft_type_to_ns() - the namespace of a uapi flow table type
 * @ft_type: MLX5_IB_UAPI_FLOW_TABLE_TYPE_*
 * @ns: its namespace
 *
 * Return: 0, or -EINVAL for an unknown type.
 */
int mlx5x_ft_type_to_ns(u32 ft_type, enum mlx5x_fs_ns *ns)
{
	switch (ft_type) {
	case MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_RX:
		*ns = MLX5X_FS_NS_BYPASS;
		return 0;
	case MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_TX:
		*ns = MLX5X_FS_NS_EGRESS;
		return 0;
	case MLX5_IB_UAPI_FLOW_TABLE_TYPE_FDB:
		*ns = MLX5X_FS_NS_FDB;
		return 0;
	case MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_RX:
		*ns = MLX5X_FS_NS_RDMA_RX;
		return 0;
	case MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_TX:
		*ns = MLX5X_FS_NS_RDMA_TX;
		return 0;
	default:
		return -EINVAL;
	}
}

/* FT_TYPE, or the older FLOW_FLAGS (egress), not both; NIC RX if neither. */
static int mlx5x_matcher_ns(struct uverbs_attr_bundle *attrs,
			    enum mlx5x_fs_ns *ns)
{
	u32 ft_type, flags;
	int err;

	if (uverbs_attr_is_valid(attrs, MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE)) {
		if (uverbs_attr_is_valid(attrs,
					 MLX5_IB_ATTR_FLOW_MATCHER_FLOW_FLAGS))
			return -EINVAL;
		err = uverbs_get_const(&ft_type, attrs,
				       MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE);
		return err ?: mlx5x_ft_type_to_ns(ft_type, ns);
	}
	err = uverbs_get_flags32(&flags, attrs,
				 MLX5_IB_ATTR_FLOW_MATCHER_FLOW_FLAGS,
				 IB_FLOW_ATTR_FLAGS_EGRESS);
	if (err)
		return err;
	*ns = flags ? MLX5X_FS_NS_EGRESS : MLX5X_FS_NS_BYPASS;
	return 0;
}

/*
 * Sections the table type can match: outer, misc (the VXLAN VNI, or the
 * BTH of the RDMA domains) and inner headers.
 */
static u8 mlx5x_criteria_offered(void *prop)
{
	void *f = PRM_ADDR(flow_table_prop_layout, prop, ft_field_support);
	u8 bits = 0;

	if (PRM_GET(flow_table_fields_supported, f, outer_dmac))
		bits |= BIT(0);
	if (PRM_GET(flow_table_fields_supported, f, outer_vxlan_vni) ||
	    PRM_GET(flow_table_fields_supported, f, bth_dst_qp))
		bits |= BIT(1);
	if (PRM_GET(flow_table_fields_supported, f, inner_dmac))
		bits |= BIT(2);
	return bits;
}

/* No mask bit outside the sections @criteria enables. */
static bool mlx5x_mask_in_criteria(const u8 *mask, u8 criteria)
{
	size_t i, s;

	for (i = 0; i < MLX5X_MATCH_BYTES; i++) {
		if (!mask[i])
			continue;
		for (s = 0; s < ARRAY_SIZE(mlx5x_match_sections); s++)
			if ((criteria & BIT(s)) &&
			    i >= mlx5x_match_sections[s].off &&
			    i < mlx5x_match_sections[s].off +
				mlx5x_match_sections[s].len)
				break;
		if (s == ARRAY_SIZE(mlx5x_match_sections))
			return false;
	}
	return true;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_FLOW_MATCHER_CREATE)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_FLOW_MATCHER_CREATE_HANDLE);
	struct mlx5x_dev *dev = to_mdev(uobj->context->device);
	struct mlx5x_ucontext *uctx = to_mucontext(uobj->context);
	struct mlx5x_flow_matcher *m;
	void *prop;
	int err;

	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_STEERING);
	if (err)
		return err;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		mlx5x_limit_put(uctx, MLX5X_LIMIT_STEERING);
		return -ENOMEM;
	}
	m->mask_len = uverbs_attr_get_len(attrs,
					  MLX5_IB_ATTR_FLOW_MATCHER_MATCH_MASK);
	err = uverbs_copy_from(&m->mask, attrs,
			       MLX5_IB_ATTR_FLOW_MATCHER_MATCH_MASK);
	if (err)
		goto err_free;
	m->flow_type = uverbs_attr_get_enum_id(
		attrs, MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE);
	if (m->flow_type == MLX5_IB_FLOW_TYPE_NORMAL) {
		err = uverbs_copy_from(&m->priority, attrs,
				       MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE);
		if (err)
			goto err_free;
	}
	err = uverbs_copy_from(&m->criteria, attrs,
			       MLX5_IB_ATTR_FLOW_MATCHER_MATCH_CRITERIA);
	if (err)
		goto err_free;
	err = mlx5x_matcher_ns(attrs, &m->ns);
	if (err)
		goto err_free;
	/* a table type the device does not offer (FDB: no e-switch) */
	prop = mlx5x_fs_prop(dev, mlx5x_fs_table_type(m->ns));
	if (!prop || !mlx5x_fs_prio_table_id(dev, m->ns, 0)) {
		err = -EOPNOTSUPP;
		goto err_free;
	}
	if (m->priority >= mlx5x_fs_nprios(m->ns) ||
	    (m->criteria & ~mlx5x_criteria_offered(prop)) ||
	    !mlx5x_mask_in_criteria(m->mask, m->criteria)) {
		err = -EINVAL;
		goto err_free;
	}
	m->dev = dev;
	atomic_set(&m->usecnt, 0);
	uobj->object = m;
	return 0;

err_free:
	kfree(m);
	mlx5x_limit_put(uctx, MLX5X_LIMIT_STEERING);
	return err;
}

static int mlx5x_flow_matcher_cleanup(struct ib_uobject *uobj,
				      enum rdma_remove_reason why,
				      struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_flow_matcher *m = uobj->object;

	if (atomic_read(&m->usecnt))
		return -EBUSY;
	kfree(m);
	mlx5x_limit_put(to_mucontext(uobj->context), MLX5X_LIMIT_STEERING);
	return 0;
}

/* The flow type's data: a NORMAL matcher's priority, nothing for others. */
static const struct uverbs_attr_spec mlx5x_flow_types[] = {
	[MLX5_IB_FLOW_TYPE_NORMAL] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		.u.ptr = { .len = sizeof(u16), .min_len = sizeof(u16) },
	},
	[MLX5_IB_FLOW_TYPE_SNIFFER] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		UVERBS_ATTR_NO_DATA(),
	},
	[MLX5_IB_FLOW_TYPE_ALL_DEFAULT] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		UVERBS_ATTR_NO_DATA(),
	},
	[MLX5_IB_FLOW_TYPE_MC_DEFAULT] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		UVERBS_ATTR_NO_DATA(),
	},
};

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_FLOW_MATCHER_CREATE,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_FLOW_MATCHER_CREATE_HANDLE,
			MLX5_IB_OBJECT_FLOW_MATCHER,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_FLOW_MATCHER_MATCH_MASK,
			   UVERBS_ATTR_SIZE(1, MLX5X_MATCH_BYTES),
			   UA_MANDATORY),
	UVERBS_ATTR_ENUM_IN(MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE,
			    mlx5x_flow_types,
			    UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_FLOW_MATCHER_MATCH_CRITERIA,
			   UVERBS_ATTR_TYPE(u8),
			   UA_MANDATORY),
	UVERBS_ATTR_FLAGS_IN(MLX5_IB_ATTR_FLOW_MATCHER_FLOW_FLAGS,
			     enum ib_flow_flags,
			     UA_OPTIONAL),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE,
			     enum mlx5_ib_uapi_flow_table_type,
			     UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	MLX5_IB_METHOD_FLOW_MATCHER_DESTROY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_FLOW_MATCHER_DESTROY_HANDLE,
			MLX5_IB_OBJECT_FLOW_MATCHER,
			UVERBS_ACCESS_DESTROY,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	MLX5_IB_OBJECT_FLOW_MATCHER,
	UVERBS_TYPE_ALLOC_IDR(mlx5x_flow_matcher_cleanup),
	&UVERBS_METHOD(MLX5_IB_METHOD_FLOW_MATCHER_CREATE),
	&UVERBS_METHOD(MLX5_IB_METHOD_FLOW_MATCHER_DESTROY));

static bool mlx5x_flow_matcher_is_supported(struct ib_device *ib)
{
	return to_mdev(ib)->fs;
}

const struct uapi_definition mlx5x_flow_matcher_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(
		MLX5_IB_OBJECT_FLOW_MATCHER,
		UAPI_DEF_IS_OBJ_SUPPORTED(mlx5x_flow_matcher_is_supported)),
	{}
};
