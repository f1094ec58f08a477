// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One mlx5x IB device: what it learns from firmware at probe, its device
 * operations, registration and release.  Shared by both backends.
 */
#include <linux/debugfs.h>
#include <linux/slab.h>
#include "mlx5x.h"
#include "fs_verbs.h"
#include "fs_dv.h"
#include "fs.h"
#include "kverbs.h"

DEFINE_MUTEX(mlx5x_devices_lock);
LIST_HEAD(mlx5x_devices);

static void mlx5x_dealloc_driver(struct ib_device *ib)
{
	mlx5x_dev_release(to_mdev(ib));
}

/*
 * ib_core gives a device to its kernel clients only if it has the kernel
 * verbs (ib_device_check_mandatory() sets kverbs_provider); without them
 * rdma_cm resolves no address to it (-ENODEV).  Kernel CQs and the GSI
 * QP are kverbs.c's; a kernel PD's local_dma_lkey is the reserved lkey,
 * so no DMA MR is offered (nor the unsafe global rkey).
 */
static struct ib_mr *mlx5x_get_dma_mr(struct ib_pd *pd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct ib_device_ops mlx5x_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MLX5,
	.uverbs_abi_ver = MLX5X_UVERBS_ABI,
	.uverbs_no_driver_id_binding = 0,

	.advise_mr = mlx5x_advise_mr,
	.add_gid = mlx5x_add_gid,
	.alloc_dm = mlx5x_alloc_dm,
	.alloc_hw_port_stats = mlx5x_alloc_hw_port_stats,
	.alloc_mw = mlx5x_alloc_mw,
	.alloc_pd = mlx5x_alloc_pd,
	.alloc_xrcd = mlx5x_alloc_xrcd,
	.alloc_ucontext = mlx5x_alloc_ucontext,
	.attach_mcast = mlx5x_attach_mcast,
	.dealloc_dm = mlx5x_dealloc_dm,
	.dealloc_mw = mlx5x_dealloc_mw,
	.counter_alloc_stats = mlx5x_counter_alloc_stats,
	.counter_bind_qp = mlx5x_counter_bind_qp,
	.counter_dealloc = mlx5x_counter_dealloc,
	.counter_unbind_qp = mlx5x_counter_unbind_qp,
	.counter_update_stats = mlx5x_counter_update_stats,
	.create_ah = mlx5x_create_ah,
	.create_counters = mlx5x_create_counters,
	.create_cq = mlx5x_create_cq,
	.create_flow = mlx5x_create_flow,
	.create_qp = mlx5x_create_qp,
	.create_rwq_ind_table = mlx5x_create_rwq_ind_table,
	.create_srq = mlx5x_create_srq,
	.create_user_ah = mlx5x_create_user_ah,
	.create_wq = mlx5x_create_wq,
	.dealloc_driver = mlx5x_dealloc_driver,
	.dealloc_pd = mlx5x_dealloc_pd,
	.dealloc_xrcd = mlx5x_dealloc_xrcd,
	.dealloc_ucontext = mlx5x_dealloc_ucontext,
	.del_gid = mlx5x_del_gid,
	.dereg_mr = mlx5x_dereg_mr,
	.rereg_user_mr = mlx5x_rereg_user_mr,
	.destroy_ah = mlx5x_destroy_ah,
	.destroy_counters = mlx5x_destroy_counters,
	.destroy_cq = mlx5x_destroy_cq,
	.destroy_flow = mlx5x_destroy_flow,
	.destroy_flow_action = mlx5x_destroy_flow_action,
	.destroy_qp = mlx5x_destroy_qp,
	.destroy_rwq_ind_table = mlx5x_destroy_rwq_ind_table,
	.destroy_srq = mlx5x_destroy_srq,
	.destroy_wq = mlx5x_destroy_wq,
	.detach_mcast = mlx5x_detach_mcast,
	.disassociate_ucontext = mlx5x_disassociate_ucontext,
	.get_dev_fw_str = mlx5x_get_dev_fw_str,
	.get_dma_mr = mlx5x_get_dma_mr,
	.get_hw_stats = mlx5x_get_hw_stats,
	.get_link_layer = mlx5x_get_link_layer,
	.get_port_immutable = mlx5x_get_port_immutable,
	.mmap = mlx5x_mmap,
	.mmap_free = mlx5x_mmap_free,
	.modify_cq = mlx5x_modify_cq,
	.resize_cq = mlx5x_resize_cq,
	.modify_qp = mlx5x_modify_qp,
	.modify_srq = mlx5x_modify_srq,
	.modify_wq = mlx5x_modify_wq,
	.poll_cq = mlx5x_poll_cq,
	.post_recv = mlx5x_post_recv,
	.post_send = mlx5x_post_send,
	.process_mad = mlx5x_process_mad,
	.query_device = mlx5x_query_device,
	.query_pkey = mlx5x_query_pkey,
	.query_port = mlx5x_query_port,
	.query_qp = mlx5x_query_qp,
	.query_srq = mlx5x_query_srq,
	.query_ucontext = mlx5x_query_ucontext,
	.read_counters = mlx5x_read_counters,
	.reg_dm_mr = mlx5x_reg_dm_mr,
	.reg_user_mr = mlx5x_reg_user_mr,
	.req_notify_cq = mlx5x_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, mlx5x_ah, ib),
	INIT_RDMA_OBJ_SIZE(ib_counters, mlx5x_counters, ib),
	INIT_RDMA_OBJ_SIZE(ib_cq, mlx5x_cq, ib),
	INIT_RDMA_OBJ_SIZE(ib_mw, mlx5x_mw, ib),
	INIT_RDMA_OBJ_SIZE(ib_pd, mlx5x_pd, ib),
	INIT_RDMA_OBJ_SIZE(ib_qp, mlx5x_qp, ib),
	INIT_RDMA_OBJ_SIZE(ib_rwq_ind_table, mlx5x_rwq_ind_table, ib),
	INIT_RDMA_OBJ_SIZE(ib_srq, mlx5x_srq, ib),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, mlx5x_ucontext, ib),
	INIT_RDMA_OBJ_SIZE(ib_xrcd, mlx5x_xrcd, ib),
};

static int mlx5x_query_identity(struct mlx5x_dev *dev)
{
	size_t outlen = max(PRM_BYTES(query_adapter_out),
			    PRM_BYTES(query_nic_vport_context_out));
	u32 in[PRM_BYTES(query_nic_vport_context_in) / 4] = {};
	void *out, *vc;
	int err;

	BUILD_BUG_ON(PRM_BYTES(query_adapter_in) > sizeof(in));
	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	PRM_SET(query_adapter_in, in, opcode, MLX5_CMD_OP_QUERY_ADAPTER);
	err = mlx5x_cmd_run(dev, in, PRM_BYTES(query_adapter_in), out,
			    PRM_BYTES(query_adapter_out));
	if (err)
		goto out;
	dev->vendor_id = PRM_GET(query_adapter_param_block,
				 PRM_ADDR(query_adapter_out, out,
					  query_adapter_struct),
				 ieee_vendor_id);

	memset(in, 0, sizeof(in));
	PRM_SET(query_nic_vport_context_in, in, opcode,
		MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out,
			    PRM_BYTES(query_nic_vport_context_out));
	if (err)
		goto out;
	vc = PRM_ADDR(query_nic_vport_context_out, out, nic_vport_context);
	dev->node_guid = cpu_to_be64(PRM_GET64(nic_vport_context, vc,
					       node_guid));
	dev->sys_image_guid = cpu_to_be64(PRM_GET64(nic_vport_context, vc,
						    system_image_guid));
out:
	kfree(out);
	return err;
}

/* Read what firmware reports: capabilities, vendor, GUIDs. */
static int mlx5x_dev_probe_fw(struct mlx5x_dev *dev)
{
	int err;

	err = mlx5x_query_hca_cap(dev, 0x0, &dev->hca_cap);
	if (err)
		return err;
	err = mlx5x_query_hca_cap(dev, 0x4, &dev->roce_cap);
	if (err)
		return err;
	/* the current caps hold the endianness mode mlx5_core set */
	if (MLX5X_CAP_GEN(dev, atomic)) {
		err = mlx5x_query_hca_cap(dev, 0x3, &dev->atomic_cap);
		if (err)
			return err;
	}
	/* what a page fault may stop, per transport (odp.c, query.c) */
	if (MLX5X_CAP_GEN(dev, pg)) {
		err = mlx5x_query_hca_cap(dev, 0x2, &dev->odp_cap);
		if (err)
			return err;
	}
	err = mlx5x_query_identity(dev);
	if (err)
		return err;
	err = mlx5x_dm_dev_init(dev);
	if (err)
		return err;
	err = mlx5x_clock_init(dev);
	if (err)
		return err;
	/*
	 * Queries of contexts without DEVX run under this uid.  It is no
	 * process's, so it gets no capability: a capability is granted to a
	 * context for what its process may do (ucontext.c), as upstream
	 * creates its whitelist uid.
	 */
	if (MLX5X_CAP_GEN(dev, log_max_uctx))
		return mlx5x_uctx_create(dev, 0, &dev->whitelist_uid);
	return 0;
}

static void mlx5x_dev_free_fw(struct mlx5x_dev *dev)
{
	if (dev->whitelist_uid)
		mlx5x_uctx_destroy(dev, dev->whitelist_uid);
	dev->whitelist_uid = 0;
	mlx5x_clock_cleanup(dev);
	mlx5x_dm_dev_cleanup(dev);
	kfree(dev->odp_cap);
	kfree(dev->atomic_cap);
	kfree(dev->roce_cap);
	kfree(dev->hca_cap);
	dev->odp_cap = NULL;
	dev->atomic_cap = NULL;
	dev->roce_cap = NULL;
	dev->hca_cap = NULL;
}

/**
 * mlx5x_dev_register() - probe firmware and register the IB device
 * @dev: device allocated with ib_alloc_device(), backend and netdev set
 * @name: IB device name
 *
 * On success the device belongs to ib_core: it is released through
 * mlx5x_dev_release() once unregistered.  On failure the caller still owns
 * @dev and its backend.
 */
int mlx5x_dev_register(struct mlx5x_dev *dev, const char *name)
{
	struct ib_device *ib = &dev->ib;
	int err;

	mutex_init(&dev->uctx_lock);
	INIT_LIST_HEAD(&dev->uctx_list);
	INIT_LIST_HEAD(&dev->ubuf_orphans);
	mutex_init(&dev->trap_lock);
	INIT_LIST_HEAD(&dev->traps);
	xa_init(&dev->indirect_mkeys);
	xa_init(&dev->cqs);
	xa_init(&dev->srqs);
	xa_init(&dev->qps);
	xa_init(&dev->wqs);
	xa_init(&dev->raw_wqs);
	err = mlx5x_dev_probe_fw(dev);
	if (err)
		goto err_fw;
	err = mlx5x_devx_events_init(dev);
	if (err)
		goto err_fw;
	err = mlx5x_fs_init(dev);
	if (err)
		goto err_fw;
	err = mlx5x_fs_anchors_init(dev);
	if (err)
		goto err_fw;
	err = mlx5x_kverbs_init(dev);
	if (!err)
		err = mlx5x_umr_init(dev);
	if (err)
		goto err_fw;
	err = mlx5x_hw_counters_init(dev);
	if (err)
		goto err_fw;

	ib->node_type = RDMA_NODE_IB_CA;
	ib->phys_port_cnt = 1;
	ib->num_comp_vectors = dev->backend->comp_vectors(dev);
	ib->node_guid = dev->node_guid;
	if (!ib->node_desc[0])
		strscpy(ib->node_desc, "mlx5x simulated ConnectX",
			sizeof(ib->node_desc));
	ib->driver_def = mlx5x_uapi_defs;
	ib_set_device_ops(ib, &mlx5x_dev_ops);

	err = ib_device_set_netdev(ib, dev->netdev, MLX5X_PORT);
	if (err)
		goto err_fw;
	mlx5x_port_init_state(dev);

	mutex_lock(&mlx5x_devices_lock);
	list_add_tail(&dev->list, &mlx5x_devices);
	mutex_unlock(&mlx5x_devices_lock);

	err = ib_register_device(ib, name, dev->dma_device);
	if (err)
		goto err_list;
	mlx5x_umr_start(dev);
	return 0;

err_list:
	mutex_lock(&mlx5x_devices_lock);
	list_del(&dev->list);
	mutex_unlock(&mlx5x_devices_lock);
err_fw:
	mlx5x_hw_counters_cleanup(dev);
	mlx5x_umr_cleanup(dev);
	mlx5x_kverbs_cleanup(dev);
	mlx5x_fs_anchors_cleanup(dev);
	mlx5x_fs_cleanup(dev);
	mlx5x_devx_events_cleanup(dev);
	mlx5x_dev_free_fw(dev);
	/*
	 * The caller frees @dev with ib_dealloc_device(), which calls the
	 * dealloc_driver op of the ops set above: what it would release is
	 * released here, or the caller's still.
	 */
	ib->ops.dealloc_driver = NULL;
	return err;
}

/**
 * mlx5x_dev_release() - free what the device holds once unregistered
 * @dev: device; ib_core frees the structure itself afterwards
 */
void mlx5x_dev_release(struct mlx5x_dev *dev)
{
	mutex_lock(&mlx5x_devices_lock);
	list_del(&dev->list);
	mutex_unlock(&mlx5x_devices_lock);
	mlx5x_hw_counters_cleanup(dev);
	mlx5x_umr_cleanup(dev);
	mlx5x_kverbs_cleanup(dev);
	mlx5x_fs_anchors_cleanup(dev);
	mlx5x_fs_cleanup(dev);
	mlx5x_dev_free_fw(dev);
	dev->backend->release(dev);
	mlx5x_devx_events_cleanup(dev);	/* no event comes any more */
	debugfs_remove_recursive(dev->dbg);
}
