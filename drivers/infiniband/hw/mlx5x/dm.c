// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory through uverbs: the alloc_dm / dealloc_dm device
 * operations behind UVERBS_METHOD_DM_ALLOC and _FREE, the mlx5 attributes
 * of DM_ALLOC (type in; start offset and page index out), and the mlx5
 * methods on DM objects: MLX5_IB_METHOD_DM_QUERY (what libmlx5 needs to
 * map a DM imported from another context) and
 * MLX5_IB_METHOD_DM_MAP_OP_ADDR (the window of a MEMIC operation).
 */
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/uverbs_std_types.h>
#include "dm.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

/**
 * mlx5x_alloc_dm() - the alloc_dm device operation
 * @ib: device
 * @ibuctx: the calling context
 * @attr: length, alignment (log2) and flags asked for
 * @attrs: the call, with the mlx5 attributes
 */
struct ib_dm *mlx5x_alloc_dm(struct ib_device *ib, struct ib_ucontext *ibuctx,
			     struct ib_dm_alloc_attr *attr,
			     struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_ucontext *uctx = to_mucontext(ibuctx);
	enum mlx5_ib_uapi_dm_type type;
	struct ib_dm *dm;
	int err;

	err = uverbs_get_const_default(&type, attrs,
				       MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE,
				       MLX5_IB_UAPI_DM_TYPE_MEMIC);
	if (err)
		return ERR_PTR(err);
	/* no flags are defined */
	if (attr->flags)
		return ERR_PTR(-EOPNOTSUPP);
	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_DM);
	if (err)
		return ERR_PTR(err);
	switch ((u32)type) {
	case MLX5_IB_UAPI_DM_TYPE_MEMIC:
		dm = mlx5x_memic_alloc(uctx, attr, attrs);
		break;
	case MLX5_IB_UAPI_DM_TYPE_STEERING_SW_ICM:
	case MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_SW_ICM:
	case MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM:
	case MLX5_IB_UAPI_DM_TYPE_ENCAP_SW_ICM:
		dm = mlx5x_sw_icm_alloc(uctx, attr, attrs, type);
		break;
	default:
		dm = ERR_PTR(-EOPNOTSUPP);
		break;
	}
	if (IS_ERR(dm))
		mlx5x_limit_put(uctx, MLX5X_LIMIT_DM);
	return dm;
}

/**
 * mlx5x_dealloc_dm() - the dealloc_dm device operation
 * @ibdm: the DM; ib_core refuses while an MR covers it
 * @attrs: the call
 */
int mlx5x_dealloc_dm(struct ib_dm *ibdm, struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_ucontext *uctx = to_mucontext(ibdm->uobject->context);
	struct mlx5x_dm *dm = to_mdm(ibdm);
	int err = 0;

	if (dm->type == MLX5_IB_UAPI_DM_TYPE_MEMIC)
		mlx5x_memic_dealloc(dm);
	else
		err = mlx5x_sw_icm_dealloc(dm);
	if (!err)
		mlx5x_limit_put(uctx, MLX5X_LIMIT_DM);
	return err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DM_QUERY)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_dm *ibdm = uverbs_attr_get_obj(attrs,
						 MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE);
	struct mlx5x_dm *dm = to_mdm(ibdm);
	u64 offset;
	u16 page_idx;
	int err;

	/* only MEMIC is mapped: SW ICM has nothing to import */
	if (dm->type != MLX5_IB_UAPI_DM_TYPE_MEMIC)
		return -EOPNOTSUPP;
	page_idx = mlx5x_memic_page_index(&dm->mm);
	offset = offset_in_page(dm->addr);
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX,
			     &page_idx, sizeof(page_idx));
	if (!err)
		err = uverbs_copy_to(attrs,
				     MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET,
				     &offset, sizeof(offset));
	if (!err)
		err = uverbs_copy_to(attrs, MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH,
				     &dm->req_length, sizeof(dm->req_length));
	return err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DM_MAP_OP_ADDR)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_dm *ibdm = uverbs_attr_get_obj(attrs,
				MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE);
	struct mlx5x_dm *dm = to_mdm(ibdm);
	u64 offset;
	u16 page_idx;
	u8 op;
	int err;

	err = uverbs_copy_from(&op, attrs, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP);
	if (err)
		return err;
	if (dm->type != MLX5_IB_UAPI_DM_TYPE_MEMIC)
		return -EOPNOTSUPP;
	err = mlx5x_memic_map_op(dm, op, &offset, &page_idx);
	if (err)
		return err;
	err = uverbs_copy_to(attrs,
			     MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET,
			     &offset, sizeof(offset));
	if (err)
		return err;
	return uverbs_copy_to(attrs, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX,
			      &page_idx, sizeof(page_idx));
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DM_QUERY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE, UVERBS_OBJECT_DM,
			UVERBS_ACCESS_READ, UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET,
			    UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX,
			    UVERBS_ATTR_TYPE(u16), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH,
			    UVERBS_ATTR_TYPE(u64), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DM_MAP_OP_ADDR,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE,
			UVERBS_OBJECT_DM, UVERBS_ACCESS_READ, UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP,
			   UVERBS_ATTR_TYPE(u8), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET,
			    UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX,
			    UVERBS_ATTR_TYPE(u16), UA_OPTIONAL));

ADD_UVERBS_ATTRIBUTES_SIMPLE(
	mlx5x_dm_alloc_attrs, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC,
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET,
			    UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX,
			    UVERBS_ATTR_TYPE(u16), UA_OPTIONAL),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE,
			     enum mlx5_ib_uapi_dm_type, UA_OPTIONAL));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_DM,
			      &UVERBS_METHOD(MLX5_IB_METHOD_DM_MAP_OP_ADDR),
			      &UVERBS_METHOD(MLX5_IB_METHOD_DM_QUERY));

const struct uapi_definition mlx5x_dm_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DM, &mlx5x_dm_alloc_attrs),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_DM),
	{}
};
