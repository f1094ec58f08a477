// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_UAR: dynamic UAR pages, allocated one at a time by
 * mlx5dv_devx_alloc_uar() and by libmlx5 for its queues, then mmapped at
 * the offset returned here.
 */
#include <linux/slab.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "mlx5x.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

int mlx5x_uar_alloc(struct mlx5x_dev *dev, u16 uid, u32 *index)
{
	u32 in[PRM_BYTES(alloc_uar_in) / 4] = {};
	u32 out[PRM_BYTES(alloc_uar_out) / 4] = {};
	int err;

	PRM_SET(alloc_uar_in, in, opcode, MLX5_CMD_OP_ALLOC_UAR);
	PRM_SET(alloc_uar_in, in, uid, uid);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*index = PRM_GET(alloc_uar_out, out, uar);
	return err;
}

/* DEALLOC_UAR of @index, of context @uid (0: the kernel's). */
int mlx5x_uar_free(struct mlx5x_dev *dev, u16 uid, u32 index)
{
	u32 in[PRM_BYTES(dealloc_uar_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_uar_out) / 4] = {};

	PRM_SET(dealloc_uar_in, in, opcode, MLX5_CMD_OP_DEALLOC_UAR);
	PRM_SET(dealloc_uar_in, in, uid, uid);
	PRM_SET(dealloc_uar_in, in, uar, index);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_UAR_OBJ_ALLOC)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	enum mlx5_ib_uapi_uar_alloc_type type;
	struct mlx5x_ucontext *uctx;
	struct mlx5x_uar_entry *ue;
	struct mlx5x_dev *dev;
	u32 length = PAGE_SIZE;
	u64 offset;
	int err;

	uctx = mlx5x_attrs_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	dev = to_mdev(uctx->ib.device);

	err = uverbs_get_const(&type, attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE);
	if (err)
		return err;
	if (type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF &&
	    type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC)
		return -EOPNOTSUPP;
	if (type == MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF && !MLX5X_CAP_GEN(dev, bf))
		return -EOPNOTSUPP;

	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_UARS);
	if (err)
		return err;
	ue = kzalloc(sizeof(*ue), GFP_KERNEL);
	if (!ue) {
		mlx5x_limit_put(uctx, MLX5X_LIMIT_UARS);
		return -ENOMEM;
	}
	ue->mm.type = MLX5X_MMAP_UAR;
	ue->uid = uctx->devx_uid;
	ue->wc = type == MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF;
	err = mlx5x_uar_alloc(dev, ue->uid, &ue->index);
	if (err) {
		kfree(ue);
		mlx5x_limit_put(uctx, MLX5X_LIMIT_UARS);
		return err;
	}
	/* from here on the entry owns the UAR: mmap_free releases both */
	err = mlx5x_mmap_entry_insert(&uctx->ib, &ue->mm, length);
	if (err) {
		mlx5x_mmap_free(&ue->mm.rdma);
		mlx5x_limit_put(uctx, MLX5X_LIMIT_UARS);
		return err;
	}
	uobj->object = ue;
	uverbs_finalize_uobj_create(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);

	offset = rdma_user_mmap_get_offset(&ue->mm.rdma);
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
			     &offset, sizeof(offset));
	if (err)
		return err;
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
			     &ue->index, sizeof(ue->index));
	if (err)
		return err;
	return uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
			      &length, sizeof(length));
}

static int mlx5x_uar_obj_cleanup(struct ib_uobject *uobj,
				 enum rdma_remove_reason why,
				 struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_uar_entry *ue = uobj->object;

	rdma_user_mmap_entry_remove(&ue->mm.rdma);
	mlx5x_limit_put(to_mucontext(uobj->context), MLX5X_LIMIT_UARS);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_UAR_OBJ_ALLOC,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE,
			MLX5_IB_OBJECT_UAR,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE,
			     enum mlx5_ib_uapi_uar_alloc_type,
			     UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
			    UVERBS_ATTR_TYPE(u32),
			    UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
			    UVERBS_ATTR_TYPE(u32),
			    UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
			    UVERBS_ATTR_TYPE(u64),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	MLX5_IB_METHOD_UAR_OBJ_DESTROY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE,
			MLX5_IB_OBJECT_UAR,
			UVERBS_ACCESS_DESTROY,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(MLX5_IB_OBJECT_UAR,
			    UVERBS_TYPE_ALLOC_IDR(mlx5x_uar_obj_cleanup),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_ALLOC),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_DESTROY));

const struct uapi_definition mlx5x_uar_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(MLX5_IB_OBJECT_UAR),
	{}
};
