// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_DEVX_UMEM: user memory pinned for the device and named by
 * a umem id that DEVX objects (CQs, QPs, mkeys, ...) use for their buffers.
 * The kernel pins the pages and writes their bus addresses into the
 * CREATE_UMEM mailbox itself: a process never hands firmware an address.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

/* Firmware pages are 4 KiB; log_page_size counts from there. */
#define MLX5X_ADAPTER_PAGE_SHIFT	12

struct mlx5x_devx_umem {
	struct mlx5x_dev *dev;
	struct ib_umem *umem;
	u16 uid;
	u32 id;
};

/*
 * The page size to describe @umem in: the largest in @bitmap that names
 * no byte beyond the pages ib_umem_get() pinned.  Those are whole CPU
 * pages, so blocks of PAGE_SIZE or less cover nothing more; a larger
 * block covers only pinned memory when the umem starts on a block
 * boundary and its length is a multiple of the block, so the size is
 * halved until it does (at worst down to PAGE_SIZE, which always fits).
 * Blocks larger than the umem itself could never fit it: they are not
 * tried.  Return: the size, or 0 when @bitmap offers none.
 */
static unsigned long mlx5x_umem_page_size(struct ib_umem *umem,
					  unsigned long bitmap)
{
	unsigned long page_size;

	bitmap &= GENMASK_ULL(max_t(u64, order_base_2(umem->length),
				    PAGE_SHIFT),
			      MLX5X_ADAPTER_PAGE_SHIFT);
	if (!bitmap)
		return 0;
	page_size = ib_umem_find_best_pgsz(umem, bitmap, umem->address);
	while (page_size > PAGE_SIZE &&
	       (ib_umem_dma_offset(umem, page_size) ||
		umem->length % page_size))
		page_size >>= 1;
	return page_size;
}

static void *mlx5x_umem_build_create(struct uverbs_attr_bundle *attrs,
				     struct ib_umem *umem, u16 uid,
				     size_t *inlen)
{
	unsigned long pgsz_bitmap;
	struct ib_block_iter biter;
	unsigned long page_size;
	size_t nmtt, i = 0;
	void *in, *um;
	__be64 *mtt;
	u64 flags;
	int err;

	/*
	 * Without a bitmap the caller promises no umem_offset on objects
	 * built over the umem: any page size from 4 KiB up will do.
	 */
	err = uverbs_get_const_default(&pgsz_bitmap, attrs,
				       MLX5_IB_ATTR_DEVX_UMEM_REG_PGSZ_BITMAP,
				       GENMASK_ULL(63,
						   MLX5X_ADAPTER_PAGE_SHIFT));
	if (err)
		return ERR_PTR(err);
	page_size = mlx5x_umem_page_size(umem, pgsz_bitmap);
	if (!page_size)
		return ERR_PTR(-EINVAL);

	nmtt = ib_umem_num_dma_blocks(umem, page_size);
	*inlen = PRM_BYTES(create_umem_in) + nmtt * PRM_BYTES(mtt);
	in = uverbs_zalloc(attrs, *inlen);
	if (IS_ERR(in))
		return in;
	um = PRM_ADDR(create_umem_in, in, umem);
	PRM_SET(create_umem_in, in, opcode, MLX5_CMD_OP_CREATE_UMEM);
	PRM_SET(create_umem_in, in, uid, uid);
	PRM_SET64(umem, um, num_of_mtt, nmtt);
	PRM_SET(umem, um, log_page_size,
		order_base_2(page_size) - MLX5X_ADAPTER_PAGE_SHIFT);
	PRM_SET(umem, um, page_offset, ib_umem_dma_offset(umem, page_size));

	flags = MLX5X_MTT_READ | (umem->writable ? MLX5X_MTT_WRITE : 0);
	mtt = PRM_ADDR(umem, um, mtt);
	rdma_umem_for_each_dma_block(umem, &biter, page_size)
		mtt[i++] = cpu_to_be64(rdma_block_iter_dma_address(&biter) |
				       flags);
	return in;
}

static void mlx5x_umem_destroy_cmd(struct mlx5x_devx_umem *obj, void *in)
{
	PRM_SET(destroy_umem_in, in, opcode, MLX5_CMD_OP_DESTROY_UMEM);
	PRM_SET(destroy_umem_in, in, uid, obj->uid);
	PRM_SET(destroy_umem_in, in, umem_id, obj->id);
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_UMEM_REG)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE);
	u32 out[PRM_BYTES(create_umem_out) / 4] = {};
	struct mlx5x_ucontext *uctx;
	struct mlx5x_devx_umem *obj;
	u64 addr, len;
	size_t inlen;
	u32 access;
	void *in;
	int err;

	uctx = mlx5x_attrs_devx_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	if (uverbs_attr_is_valid(attrs, MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD))
		return -EOPNOTSUPP;
	err = uverbs_get_flags32(&access, attrs,
				 MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS,
				 IB_ACCESS_LOCAL_WRITE |
				 IB_ACCESS_REMOTE_WRITE |
				 IB_ACCESS_REMOTE_READ |
				 IB_ACCESS_RELAXED_ORDERING);
	if (err)
		return err;
	err = uverbs_copy_from(&addr, attrs, MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR);
	if (err)
		return err;
	err = uverbs_copy_from(&len, attrs, MLX5_IB_ATTR_DEVX_UMEM_REG_LEN);
	if (err)
		return err;
	err = ib_check_mr_access(uctx->ib.device, access);
	if (err)
		return err;
	if (!len || len > SIZE_MAX || addr + len < addr)
		return -EINVAL;

	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_UMEMS);
	if (err)
		return err;
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj) {
		err = -ENOMEM;
		goto err_limit;
	}
	obj->dev = to_mdev(uctx->ib.device);
	obj->uid = uctx->devx_uid;
	obj->umem = ib_umem_get(uctx->ib.device, addr, len, access);
	if (IS_ERR(obj->umem)) {
		err = PTR_ERR(obj->umem);
		goto err_free;
	}
	in = mlx5x_umem_build_create(attrs, obj->umem, obj->uid, &inlen);
	if (IS_ERR(in)) {
		err = PTR_ERR(in);
		goto err_release;
	}
	err = mlx5x_cmd_run(obj->dev, in, inlen, out, sizeof(out));
	if (err)
		goto err_release;
	obj->id = PRM_GET(create_umem_out, out, umem_id);

	uobj->object = obj;
	uverbs_finalize_uobj_create(attrs, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE);
	return uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID,
			      &obj->id, sizeof(obj->id));

err_release:
	ib_umem_release(obj->umem);
err_free:
	kfree(obj);
err_limit:
	mlx5x_limit_put(uctx, MLX5X_LIMIT_UMEMS);
	return err;
}

/* Firmware refuses while an object still uses the umem: retried later. */
static int mlx5x_devx_umem_cleanup(struct ib_uobject *uobj,
				   enum rdma_remove_reason why,
				   struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_devx_umem *obj = uobj->object;
	u32 in[PRM_BYTES(destroy_umem_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_umem_out) / 4] = {};
	int err;

	mlx5x_umem_destroy_cmd(obj, in);
	err = mlx5x_cmd_run(obj->dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	ib_umem_release(obj->umem);
	kfree(obj);
	mlx5x_limit_put(to_mucontext(uobj->context), MLX5X_LIMIT_UMEMS);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_UMEM_REG,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE,
			MLX5_IB_OBJECT_DEVX_UMEM,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR,
			   UVERBS_ATTR_TYPE(u64),
			   UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_UMEM_REG_LEN,
			   UVERBS_ATTR_TYPE(u64),
			   UA_MANDATORY),
	UVERBS_ATTR_RAW_FD(MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD,
			   UA_OPTIONAL),
	UVERBS_ATTR_FLAGS_IN(MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS,
			     enum ib_access_flags),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_DEVX_UMEM_REG_PGSZ_BITMAP,
			     u64),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID,
			    UVERBS_ATTR_TYPE(u32),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	MLX5_IB_METHOD_DEVX_UMEM_DEREG,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_UMEM_DEREG_HANDLE,
			MLX5_IB_OBJECT_DEVX_UMEM,
			UVERBS_ACCESS_DESTROY,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(MLX5_IB_OBJECT_DEVX_UMEM,
			    UVERBS_TYPE_ALLOC_IDR(mlx5x_devx_umem_cleanup),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_UMEM_REG),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_UMEM_DEREG));

static bool mlx5x_devx_umem_is_supported(struct ib_device *ib)
{
	return MLX5X_CAP_GEN(to_mdev(ib), log_max_uctx) &&
	       MLX5X_CAP_GEN(to_mdev(ib), log_max_umem);
}

const struct uapi_definition mlx5x_devx_umem_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(
		MLX5_IB_OBJECT_DEVX_UMEM,
		UAPI_DEF_IS_OBJ_SUPPORTED(mlx5x_devx_umem_is_supported)),
	{}
};
