// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Device attributes, from the capabilities firmware reported. */
#include <rdma/mlx5-abi.h>
#include "verbs.h"

/* A WQE data segment is 16 bytes; the control segment takes one. */
#define MLX5X_WQE_SEG_BYTES	16

/* IB_ODP_SUPPORT_* of transport @tr, as the ODP page gives them. */
static u32 mlx5x_odp_caps(struct mlx5x_dev *dev, enum prm_odp_transport tr)
{
	const void *c = dev->odp_cap;
	u32 caps = 0;

	if (PRM_GET_ODP(c, tr, send))
		caps |= IB_ODP_SUPPORT_SEND;
	if (PRM_GET_ODP(c, tr, receive))
		caps |= IB_ODP_SUPPORT_RECV;
	if (PRM_GET_ODP(c, tr, write))
		caps |= IB_ODP_SUPPORT_WRITE;
	if (PRM_GET_ODP(c, tr, read))
		caps |= IB_ODP_SUPPORT_READ;
	if (PRM_GET_ODP(c, tr, atomic))
		caps |= IB_ODP_SUPPORT_ATOMIC;
	if (PRM_GET_ODP(c, tr, srq_receive))
		caps |= IB_ODP_SUPPORT_SRQ_RECV;
	return caps;
}

/*
 * Atomics as a ConnectX reports them: compare and swap and fetch and add
 * on 8 bytes of a QP, answered in host byte order (endianness mode 1;
 * mode 0, big endian, is what no verbs consumer expects).
 */
static enum ib_atomic_cap mlx5x_atomic_cap(struct mlx5x_dev *dev)
{
	const void *c = dev->atomic_cap;
	u32 ops = BIT(0) | BIT(1);	/* compare and swap, fetch and add */

	if (!c || (PRM_GET(atomic_caps, c, atomic_operations) & ops) != ops ||
	    !(PRM_GET(atomic_caps, c, atomic_size_qp) & BIT(3)) ||
	    !PRM_GET(atomic_caps, c, atomic_req_8B_endianness_mode))
		return IB_ATOMIC_NONE;
	return IB_ATOMIC_HCA;
}

static void mlx5x_fill_attrs(struct mlx5x_dev *dev, struct ib_device_attr *a)
{
	u32 max_sge = MLX5X_CAP_GEN(dev, max_wqe_sz_rq) / MLX5X_WQE_SEG_BYTES;

	a->fw_ver = dev->fw_ver;
	a->sys_image_guid = dev->sys_image_guid;
	a->vendor_id = dev->vendor_id;
	a->vendor_part_id = dev->vendor_part_id;
	a->hw_ver = dev->hw_rev;
	a->max_mr_size = U64_MAX;
	a->page_size_cap = ~(u32)((1ULL << MLX5X_CAP_GEN(dev, log_pg_sz)) - 1);
	a->max_qp = 1 << MLX5X_CAP_GEN(dev, log_max_qp);
	a->max_qp_wr = 1 << MLX5X_CAP_GEN(dev, log_max_qp_sz);
	a->max_send_sge = max_sge - 1;
	a->max_recv_sge = max_sge;
	a->max_sge_rd = max_sge - 1;
	a->max_cq = 1 << MLX5X_CAP_GEN(dev, log_max_cq);
	a->max_cqe = (1 << MLX5X_CAP_GEN(dev, log_max_cq_sz)) - 1;
	a->max_mr = 1 << MLX5X_CAP_GEN(dev, log_max_mkey);
	a->max_dm_size = mlx5x_dm_max_size(dev);
	a->max_pd = 1 << MLX5X_CAP_GEN(dev, log_max_pd);
	a->max_qp_rd_atom = 1 << MLX5X_CAP_GEN(dev, log_max_ra_res_qp);
	a->max_qp_init_rd_atom = 1 << MLX5X_CAP_GEN(dev, log_max_ra_req_qp);
	a->max_res_rd_atom = a->max_qp_rd_atom * a->max_qp;
	a->max_srq = 1 << MLX5X_CAP_GEN(dev, log_max_srq);
	a->max_srq_wr = (1 << MLX5X_CAP_GEN(dev, log_max_srq_sz)) - 1;
	a->max_srq_sge = max_sge - 1;
	a->max_pkeys = 1;
	a->local_ca_ack_delay = MLX5X_CAP_GEN(dev, local_ca_ack_delay);
	a->atomic_cap = mlx5x_atomic_cap(dev);
	a->masked_atomic_cap = IB_ATOMIC_NONE;
	a->max_ah = INT_MAX;
	/* UD multicast groups (mcast.c) */
	a->max_mcast_grp = 1 << MLX5X_CAP_GEN(dev, log_max_mcg);
	a->max_mcast_qp_attach = MLX5X_CAP_GEN(dev, max_qp_mcg);
	a->max_total_mcast_qp_attach = a->max_mcast_qp_attach *
				       a->max_mcast_grp;
	/* RSS: receive WQs, their tables, RSS QPs (wq.c, qp_rss.c) */
	a->max_wq_type_rq = 1 << MLX5X_CAP_GEN(dev, log_max_rq);
	a->rss_caps.supported_qpts = BIT(IB_QPT_RAW_PACKET);
	a->rss_caps.max_rwq_indirection_tables =
		1 << MLX5X_CAP_GEN(dev, log_max_rqt);
	a->rss_caps.max_rwq_indirection_table_size =
		1 << MLX5X_CAP_GEN(dev, log_max_rqt_size);
	a->hca_core_clock = MLX5X_CAP_GEN(dev, device_frequency_khz);
	/* a CQE's timestamp: the 1 GHz clock, 63 bits before it wraps */
	a->timestamp_mask = 0x7fffffffffffffffULL;
	a->device_cap_flags = IB_DEVICE_PORT_ACTIVE_EVENT |
			      IB_DEVICE_SYS_IMAGE_GUID |
			      IB_DEVICE_RC_RNR_NAK_GEN |
			      IB_DEVICE_XRC |		/* xrc.c */
			      IB_DEVICE_MEM_WINDOW |	/* mw.c */
			      IB_DEVICE_MEM_WINDOW_TYPE_2B;
	if (dev->fs)	/* ibv_create_flow: fs_verbs.c */
		a->device_cap_flags |= IB_DEVICE_MANAGED_FLOW_STEERING;
	a->kernel_cap_flags = dev->backend->user_unreg ?
			      IBK_ALLOW_USER_UNREG : 0;
	if (MLX5X_CAP_GEN(dev, block_lb_mc))	/* RAW_PACKET QPs: qp.c */
		a->kernel_cap_flags |= IBK_BLOCK_MULTICAST_LOOPBACK;
	/*
	 * on-demand paging of MRs where the device's page faults stop and
	 * resume a WQE (odp.c), per transport as its ODP page says; of the
	 * whole address space too where the backend can (odp_implicit.c)
	 */
	if (mlx5x_odp_offered(dev)) {
		a->kernel_cap_flags |= IBK_ON_DEMAND_PAGING;
		a->odp_caps.general_caps = IB_ODP_SUPPORT;
		if (dev->backend->odp_implicit)
			a->odp_caps.general_caps |= IB_ODP_SUPPORT_IMPLICIT;
		a->odp_caps.per_transport_caps.rc_odp_caps =
			mlx5x_odp_caps(dev, PRM_ODP_RC);
		a->odp_caps.per_transport_caps.uc_odp_caps =
			mlx5x_odp_caps(dev, PRM_ODP_UC);
		a->odp_caps.per_transport_caps.ud_odp_caps =
			mlx5x_odp_caps(dev, PRM_ODP_UD);
		a->odp_caps.per_transport_caps.xrc_odp_caps =
			mlx5x_odp_caps(dev, PRM_ODP_XRC);
	}
	/* kernel PDs take the reserved lkey (kverbs.c) */
	if (dev->kverbs)
		a->kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
}

/* CQE compression and padding, as firmware's caps say (cq.c takes them). */
static void mlx5x_cqe_caps(struct mlx5x_dev *dev,
			   struct mlx5_ib_query_device_resp *resp)
{
	if (MLX5X_CAP_GEN(dev, cqe_128_always))
		resp->flags |= MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD;
	if (MLX5X_CAP_GEN(dev, cqe_compression_128))
		resp->flags |= MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_COMP;
	if (!MLX5X_CAP_GEN(dev, cqe_compression))
		return;
	resp->cqe_comp_caps.max_num =
		MLX5X_CAP_GEN(dev, cqe_compression_max_num);
	resp->cqe_comp_caps.supported_format = MLX5_IB_CQE_RES_FORMAT_HASH |
					       MLX5_IB_CQE_RES_FORMAT_CSUM;
	if (MLX5X_CAP_GEN(dev, mini_cqe_resp_stride_index))
		resp->cqe_comp_caps.supported_format |=
			MLX5_IB_CQE_RES_FORMAT_CSUM_STRIDX;
}

int mlx5x_query_device(struct ib_device *ib, struct ib_device_attr *attr,
		       struct ib_udata *uhw)
{
	struct mlx5x_dev *dev = to_mdev(ib);
	struct mlx5_ib_query_device_resp resp = {};
	size_t min_resp = offsetofend(typeof(resp), response_length);

	if (uhw && uhw->inlen && !ib_is_udata_cleared(uhw, 0, uhw->inlen))
		return -EINVAL;
	if (uhw && uhw->outlen && uhw->outlen < min_resp)
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	mlx5x_fill_attrs(dev, attr);

	if (!uhw || !uhw->outlen)
		return 0;
	/* of the optional capabilities RSS, CQE layouts and DCI streams */
	mlx5x_rss_caps(&resp.rss_caps);
	mlx5x_cqe_caps(dev, &resp);
	if (MLX5X_CAP_GEN(dev, dct)) {
		resp.dci_streams_caps.max_log_num_concurent =
			MLX5X_CAP_GEN(dev, log_max_dci_stream_channels);
		resp.dci_streams_caps.max_log_num_errored =
			MLX5X_CAP_GEN(dev, log_max_dci_errored_streams);
	}
	resp.response_length = min_t(size_t, uhw->outlen, sizeof(resp));
	return ib_copy_to_udata(uhw, &resp, resp.response_length);
}

void mlx5x_get_dev_fw_str(struct ib_device *ib, char *str)
{
	u64 fw = to_mdev(ib)->fw_ver;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%04u",
		 (u32)(fw >> 32), (u32)((fw >> 16) & 0xffff),
		 (u32)(fw & 0xffff));
}
