// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * User contexts: the mlx5 alloc_ucontext ABI, context import
 * (QUERY_CONTEXT) and the mmap of UAR pages.
 *
 * Only dynamic UARs are offered: tot_bfregs is 0, so libmlx5 maps no
 * static UAR pages at open and allocates UAR objects when it needs them.
 */
#include <linux/cache.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x.h"
#include "verbs.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

static void mlx5x_fill_ucontext_resp(struct mlx5x_ucontext *uctx,
				     struct mlx5_ib_alloc_ucontext_resp *resp)
{
	struct mlx5x_dev *dev = to_mdev(uctx->ib.device);

	resp->qp_tab_size = 1U << MLX5X_CAP_GEN(dev, log_max_qp);
	resp->bf_reg_size = 1U << MLX5X_CAP_GEN(dev, log_bf_reg_size);
	resp->tot_bfregs = 0;
	resp->cache_line_size = cache_line_size();
	resp->max_sq_desc_sz = MLX5X_CAP_GEN(dev, max_wqe_sz_sq);
	resp->max_rq_desc_sz = MLX5X_CAP_GEN(dev, max_wqe_sz_rq);
	resp->max_send_wqebb = 1U << MLX5X_CAP_GEN(dev, log_max_qp_sz);
	resp->max_recv_wr = 1U << MLX5X_CAP_GEN(dev, log_max_qp_sz);
	resp->max_srq_recv_wr = 1U << MLX5X_CAP_GEN(dev, log_max_srq_sz);
	resp->num_ports = dev->ib.phys_port_cnt;
	resp->cqe_version = uctx->cqe_version;
	resp->cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE |
			      MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	resp->eth_min_inline = MLX5_USER_INLINE_MODE_NONE;
	resp->log_uar_size = PAGE_SHIFT;
	resp->num_uars_per_page = MLX5X_CAP_GEN(dev, uar_4k) ?
		MLX5X_CAP_GEN(dev, num_of_uars_per_page) : 1;
	/*
	 * A process may change the tag of its mkeys by UMR: nothing in the
	 * kernel keys on the tag (the indirect mkey table is by index), so,
	 * as upstream mlx5, always.
	 */
	resp->comp_mask |= MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_MKEY_UPDATE_TAG;
	/*
	 * SQD to RTS, which signature pipelining needs: where the device
	 * drains a send queue on a signature error, as mlx5_ib says it
	 */
	if (MLX5X_CAP_GEN(dev, drain_sigerr))
		resp->comp_mask |= MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_SQD2RTS;
	/*
	 * The clock info page, for mlx5dv_ts_to_ns() (clock.c), paired
	 * anew with the real time; and the core clock page, whose first
	 * eight bytes are the device's clock (ibv_query_rt_values_ex()).
	 */
	if (dev->clock_info) {
		mlx5x_clock_update(dev);
		resp->clock_info_versions = BIT(MLX5_IB_CLOCK_INFO_V1);
		resp->comp_mask |=
			MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET;
		resp->hca_core_clock_offset = 0;
	}
}

static int mlx5x_read_ucontext_req(struct ib_udata *udata,
				   struct mlx5_ib_alloc_ucontext_req_v2 *req)
{
	size_t v0 = sizeof(struct mlx5_ib_alloc_ucontext_req);
	size_t min_v2 = offsetof(struct mlx5_ib_alloc_ucontext_req_v2,
				 max_cqe_version);
	int err;

	/* libmlx5 retries with shorter requests; any of them is valid */
	if (udata->inlen != v0 && udata->inlen < min_v2)
		return -EINVAL;
	if (udata->inlen > sizeof(*req) &&
	    !ib_is_udata_cleared(udata, sizeof(*req),
				 udata->inlen - sizeof(*req)))
		return -EOPNOTSUPP;
	err = ib_copy_from_udata(req, udata, min(udata->inlen, sizeof(*req)));
	if (err)
		return err;
	if (req->flags & ~MLX5_IB_ALLOC_UCTX_DEVX)
		return -EOPNOTSUPP;
	if (req->comp_mask || req->reserved0 || req->reserved1 ||
	    req->reserved2)
		return -EOPNOTSUPP;
	if (req->num_low_latency_bfregs > req->total_num_bfregs)
		return -EINVAL;
	return 0;
}

int mlx5x_alloc_ucontext(struct ib_ucontext *ibuctx, struct ib_udata *udata)
{
	struct mlx5x_ucontext *uctx = to_mucontext(ibuctx);
	struct mlx5x_dev *dev = to_mdev(ibuctx->device);
	struct mlx5_ib_alloc_ucontext_req_v2 req = {};
	struct mlx5_ib_alloc_ucontext_resp resp = {};
	int err;

	err = mlx5x_read_ucontext_req(udata, &req);
	if (err)
		return err;

	if (req.flags & MLX5_IB_ALLOC_UCTX_DEVX) {
		u32 cap = 0;

		if (!MLX5X_CAP_GEN(dev, log_max_uctx))
			return -EOPNOTSUPP;
		if (capable(CAP_NET_RAW) &&
		    (MLX5X_CAP_GEN(dev, uctx_cap) & MLX5_UCTX_CAP_RAW_TX))
			cap |= MLX5_UCTX_CAP_RAW_TX;
		/* firmware lets such a context own SW ICM (dm_icm.c) */
		if (capable(CAP_SYS_RAWIO) &&
		    (MLX5X_CAP_GEN(dev, uctx_cap) &
		     MLX5_UCTX_CAP_INTERNAL_DEV_RES))
			cap |= MLX5_UCTX_CAP_INTERNAL_DEV_RES;
		err = mlx5x_uctx_create(dev, cap, &uctx->devx_uid);
		if (err)
			return err;
	}
	err = mlx5x_td_alloc(dev, uctx->devx_uid, &uctx->tdn);
	if (err)
		goto err_uctx;

	uctx->cqe_version = min_t(u8, req.max_cqe_version,
				  MLX5X_CAP_GEN(dev, cqe_version));
	mlx5x_fill_ucontext_resp(uctx, &resp);
	resp.response_length = min_t(size_t, udata->outlen, sizeof(resp));
	err = ib_copy_to_udata(udata, &resp, resp.response_length);
	if (err)
		goto err_td;

	uctx->pid = task_tgid_nr(current);
	get_task_comm(uctx->comm, current);
	mutex_lock(&dev->uctx_lock);
	list_add_tail(&uctx->node, &dev->uctx_list);
	mutex_unlock(&dev->uctx_lock);
	return 0;

err_td:
	mlx5x_td_free(dev, uctx->devx_uid, uctx->tdn);
err_uctx:
	if (uctx->devx_uid)
		mlx5x_uctx_destroy(dev, uctx->devx_uid);
	return err;
}

void mlx5x_dealloc_ucontext(struct ib_ucontext *ibuctx)
{
	struct mlx5x_ucontext *uctx = to_mucontext(ibuctx);
	struct mlx5x_dev *dev = to_mdev(ibuctx->device);

	mutex_lock(&dev->uctx_lock);
	list_del(&uctx->node);
	mutex_unlock(&dev->uctx_lock);
	mlx5x_td_free(dev, uctx->devx_uid, uctx->tdn);
	if (uctx->devx_uid) {
		mlx5x_ubuf_orphans_put(dev, uctx->devx_uid);
		mlx5x_uctx_destroy(dev, uctx->devx_uid);
	}
}

int mlx5x_query_ucontext(struct ib_ucontext *ibuctx,
			 struct uverbs_attr_bundle *attrs)
{
	struct mlx5_ib_alloc_ucontext_resp resp = {};

	mlx5x_fill_ucontext_resp(to_mucontext(ibuctx), &resp);
	resp.response_length =
		min_t(size_t, sizeof(resp),
		      uverbs_attr_get_len(attrs,
					  MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX));
	return uverbs_copy_to_struct_or_zero(attrs,
					     MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
					     &resp, sizeof(resp));
}

/*
 * Mappings are zapped by the core on disassociation; those of UAR pages
 * that trap get the core's operations back.  Nothing else of the context
 * touches the device.
 */
void mlx5x_disassociate_ucontext(struct ib_ucontext *ibuctx)
{
	mlx5x_uar_trap_disassociate(to_mucontext(ibuctx));
}

/**
 * mlx5x_mmap_entry_insert() - give an mmap entry its page offset
 * @uctx: the context it belongs to
 * @mm: the entry, its type set
 * @length: bytes it maps
 *
 * UAR pages get offsets below the first that carries an mmap command,
 * device memory the offsets of MLX5X_MMAP_DEVICE_MEM (see mlx5x.h).
 */
int mlx5x_mmap_entry_insert(struct ib_ucontext *uctx,
			    struct mlx5x_mmap_entry *mm, size_t length)
{
	u32 dm_first = MLX5X_MMAP_DEVICE_MEM << 16;

	if (mm->type == MLX5X_MMAP_UAR)
		return rdma_user_mmap_entry_insert_range(uctx, &mm->rdma,
			length, 0, MLX5X_MMAP_UAR_PGOFF_END - 1);
	return rdma_user_mmap_entry_insert_range(uctx, &mm->rdma, length,
						 dm_first, dm_first + 0xffff);
}

/*
 * The entry a mapping's page offset names, as mlx5x_mmap_entry_insert()
 * placed it; a mapping of another length or a private one names none.
 */
static struct rdma_user_mmap_entry *
mlx5x_mmap_entry_get(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	unsigned long pgoff = vma->vm_pgoff, idx;
	struct rdma_user_mmap_entry *entry;
	bool dm;

	if (pgoff < MLX5X_MMAP_UAR_PGOFF_END)
		return rdma_user_mmap_entry_get(uctx, vma);
	if (pgoff >> 24 || !(vma->vm_flags & VM_SHARED) ||
	    ((pgoff >> MLX5X_MMAP_CMD_SHIFT) & 0xff) != MLX5X_MMAP_DEVICE_MEM)
		return NULL;
	idx = (pgoff & 0xff) | ((pgoff >> 16) & 0xff) << 8;
	entry = rdma_user_mmap_entry_get_pgoff(uctx,
					       MLX5X_MMAP_DEVICE_MEM << 16 |
					       idx);
	if (!entry)
		return NULL;
	dm = to_mmap_entry(entry)->type != MLX5X_MMAP_UAR;
	if (!dm || entry->npages * PAGE_SIZE != vma->vm_end - vma->vm_start) {
		rdma_user_mmap_entry_put(entry);
		return NULL;
	}
	return entry;
}

/*
 * Every mapping is of an entry: a UAR page handed out by UAR_OBJ_ALLOC,
 * or device memory (dm_memic.c).
 */
int mlx5x_mmap(struct ib_ucontext *ibuctx, struct vm_area_struct *vma)
{
	struct mlx5x_dev *dev = to_mdev(ibuctx->device);
	struct rdma_user_mmap_entry *entry;
	struct mlx5x_uar_entry *ue;
	unsigned long pfn;
	pgprot_t prot;
	int err;

	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	if (!(vma->vm_pgoff >> 16) &&
	    (vma->vm_pgoff >> MLX5X_MMAP_CMD_SHIFT) == MLX5X_MMAP_CLOCK_INFO)
		return mlx5x_clock_mmap(dev, vma);
	if (!(vma->vm_pgoff >> 16) &&
	    (vma->vm_pgoff >> MLX5X_MMAP_CMD_SHIFT) == MLX5X_MMAP_CORE_CLOCK)
		return mlx5x_core_clock_mmap(to_mucontext(ibuctx), vma);
	entry = mlx5x_mmap_entry_get(ibuctx, vma);
	if (!entry)
		return -EINVAL;
	if (to_mmap_entry(entry)->type != MLX5X_MMAP_UAR) {
		err = mlx5x_dm_mmap(ibuctx, vma, to_mmap_entry(entry));
		goto out;
	}
	ue = to_uar_entry(entry);
	err = dev->backend->uar_pfn(dev, ue->index, &pfn);
	if (err)
		goto out;
	if (dev->backend->uar_cached)
		prot = vma->vm_page_prot;
	else if (ue->wc)
		prot = pgprot_writecombine(vma->vm_page_prot);
	else
		prot = pgprot_noncached(vma->vm_page_prot);
	err = rdma_user_mmap_io(ibuctx, vma, pfn, PAGE_SIZE, prot, entry);
	/* the model's doorbells trap (uar_trap.c); the trap keeps the ref */
	if (!err && dev->backend->rung &&
	    !mlx5x_uar_trap_mmap(to_mucontext(ibuctx), vma, entry, pfn))
		return 0;
out:
	rdma_user_mmap_entry_put(entry);
	return err;
}

/*
 * The last reference to an entry is gone: give a UAR page back to
 * firmware; device memory has its own.
 */
void mlx5x_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct mlx5x_dev *dev = to_mdev(entry->ucontext->device);
	struct mlx5x_uar_entry *ue = to_uar_entry(entry);
	int err;

	if (to_mmap_entry(entry)->type != MLX5X_MMAP_UAR) {
		mlx5x_dm_mmap_free(to_mmap_entry(entry));
		return;
	}
	err = mlx5x_uar_free(dev, ue->uid, ue->index);
	if (err)
		ibdev_err(&dev->ib, "DEALLOC_UAR 0x%x failed: %d\n",
			  ue->index, err);
	kfree(ue);
}

/**
 * mlx5x_attrs_uctx() - the mlx5x context a method call runs in
 * @attrs: the call's attribute bundle
 *
 * Return: the context, or an ERR_PTR when the file has none (yet, or any
 * more after disassociation).
 */
struct mlx5x_ucontext *mlx5x_attrs_uctx(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuctx = ib_uverbs_get_ucontext(attrs);

	if (IS_ERR(ibuctx))
		return ERR_CAST(ibuctx);
	return to_mucontext(ibuctx);
}

/**
 * mlx5x_attrs_devx_uctx() - the context of a call that needs DEVX
 * @attrs: the call's attribute bundle
 *
 * Return: the context, or an ERR_PTR: -EINVAL when it was opened without
 * DEVX (it has no uid to stamp on a mailbox).
 */
struct mlx5x_ucontext *mlx5x_attrs_devx_uctx(struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_ucontext *uctx = mlx5x_attrs_uctx(attrs);

	if (!IS_ERR(uctx) && !uctx->devx_uid)
		return ERR_PTR(-EINVAL);
	return uctx;
}

ADD_UVERBS_ATTRIBUTES_SIMPLE(
	mlx5x_query_context,
	UVERBS_OBJECT_DEVICE,
	UVERBS_METHOD_QUERY_CONTEXT,
	UVERBS_ATTR_PTR_OUT(
		MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
		UVERBS_ATTR_STRUCT(struct mlx5_ib_alloc_ucontext_resp,
				   dump_fill_mkey),
		UA_MANDATORY));

const struct uapi_definition mlx5x_ucontext_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &mlx5x_query_context),
	{}
};
