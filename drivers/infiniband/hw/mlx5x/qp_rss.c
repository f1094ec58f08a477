// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RSS QPs: a RAW_PACKET QP created over a receive WQ indirection table
 * (ibv_create_qp_ex() with rx_hash_conf and rwq_ind_tbl).  As in mlx5_ib
 * it is one indirect TIR of the context's transport domain: the table's
 * RQT, Toeplitz with the caller's 40-byte key over the outer fields
 * struct mlx5_ib_create_qp_rss names.  It has no queue of its own: no
 * send side, no state to move (modify_qp and query_qp refuse), QP number
 * 0.  ibv_create_flow() on it forwards to the TIR (mlx5x_qp_tirn()), and
 * each packet lands in the WQ the hash picks (sim/dp/dp_rss.c).
 */
#include <rdma/mlx5-abi.h>
#include <rdma/restrack.h>
#include "verbs.h"

#define MLX5X_RSS_KEY_BYTES	40

#define MLX5X_RSS_IPV4		(MLX5_RX_HASH_SRC_IPV4 | MLX5_RX_HASH_DST_IPV4)
#define MLX5X_RSS_IPV6		(MLX5_RX_HASH_SRC_IPV6 | MLX5_RX_HASH_DST_IPV6)
#define MLX5X_RSS_TCP		(MLX5_RX_HASH_SRC_PORT_TCP | \
				 MLX5_RX_HASH_DST_PORT_TCP)
#define MLX5X_RSS_UDP		(MLX5_RX_HASH_SRC_PORT_UDP | \
				 MLX5_RX_HASH_DST_PORT_UDP)
#define MLX5X_RSS_SRC		(MLX5_RX_HASH_SRC_IPV4 | MLX5_RX_HASH_SRC_IPV6)
#define MLX5X_RSS_DST		(MLX5_RX_HASH_DST_IPV4 | MLX5_RX_HASH_DST_IPV6)
#define MLX5X_RSS_SPORT		(MLX5_RX_HASH_SRC_PORT_TCP | \
				 MLX5_RX_HASH_SRC_PORT_UDP)
#define MLX5X_RSS_DPORT		(MLX5_RX_HASH_DST_PORT_TCP | \
				 MLX5_RX_HASH_DST_PORT_UDP)
/* what the model hashes: outer addresses and ports (no SPI, no inner) */
#define MLX5X_RSS_FIELDS	(MLX5X_RSS_IPV4 | MLX5X_RSS_IPV6 | \
				 MLX5X_RSS_TCP | MLX5X_RSS_UDP)

/**
 * mlx5x_rss_caps() - the RSS capabilities libmlx5 reads
 * @caps: filled with the hash function and the fields offered
 */
void mlx5x_rss_caps(struct mlx5_ib_rss_caps *caps)
{
	caps->rx_hash_function = MLX5_RX_HASH_FUNC_TOEPLITZ;
	caps->rx_hash_fields_mask = MLX5X_RSS_FIELDS;
}

static int mlx5x_rss_read_ucmd(struct ib_udata *udata,
			       struct mlx5_ib_create_qp_rss *ucmd)
{
	if (udata->inlen < offsetofend(typeof(*ucmd), flags) ||
	    udata->outlen < offsetofend(struct mlx5_ib_create_qp_resp,
					bfreg_index))
		return -EINVAL;
	if (udata->inlen > sizeof(*ucmd) &&
	    !ib_is_udata_cleared(udata, sizeof(*ucmd),
				 udata->inlen - sizeof(*ucmd)))
		return -EINVAL;
	if (ib_copy_from_udata(ucmd, udata, sizeof(*ucmd)))
		return -EFAULT;
	/* no other vendor flag applies to an RSS QP (tunnel offloads: none) */
	if (ucmd->flags & ~(MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC |
			    MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_MC))
		return -EINVAL;
	if (ucmd->comp_mask || ucmd->rx_hash_fields_mask & MLX5_RX_HASH_INNER)
		return -EOPNOTSUPP;
	if (ucmd->rx_hash_function != MLX5_RX_HASH_FUNC_TOEPLITZ)
		return -EOPNOTSUPP;
	if (ucmd->rx_key_len != MLX5X_RSS_KEY_BYTES)
		return -EINVAL;
	if (ucmd->rx_hash_fields_mask & ~(u64)MLX5X_RSS_FIELDS)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The outer field selector of @fields: one L3 and at most one L4 type.
 * No field at all hashes nothing: only for a table of one entry, a TIR
 * that serves as a steering destination.
 */
static int mlx5x_rss_select(void *hfso, u64 fields, u32 log_size)
{
	u32 sel = 0;

	if (!fields)
		return log_size ? -EINVAL : 0;
	if (fields & MLX5X_RSS_IPV4 && fields & MLX5X_RSS_IPV6)
		return -EINVAL;
	if (fields & MLX5X_RSS_TCP && fields & MLX5X_RSS_UDP)
		return -EINVAL;
	if (fields & MLX5X_RSS_IPV4)
		PRM_SET(rx_hash_field_select, hfso, l3_prot_type,
			MLX5_L3_PROT_TYPE_IPV4);
	else if (fields & MLX5X_RSS_IPV6)
		PRM_SET(rx_hash_field_select, hfso, l3_prot_type,
			MLX5_L3_PROT_TYPE_IPV6);
	if (fields & MLX5X_RSS_TCP)
		PRM_SET(rx_hash_field_select, hfso, l4_prot_type,
			MLX5_L4_PROT_TYPE_TCP);
	else if (fields & MLX5X_RSS_UDP)
		PRM_SET(rx_hash_field_select, hfso, l4_prot_type,
			MLX5_L4_PROT_TYPE_UDP);
	if (fields & MLX5X_RSS_SRC)
		sel |= MLX5_HASH_FIELD_SEL_SRC_IP;
	if (fields & MLX5X_RSS_DST)
		sel |= MLX5_HASH_FIELD_SEL_DST_IP;
	if (fields & MLX5X_RSS_SPORT)
		sel |= MLX5_HASH_FIELD_SEL_L4_SPORT;
	if (fields & MLX5X_RSS_DPORT)
		sel |= MLX5_HASH_FIELD_SEL_L4_DPORT;
	PRM_SET(rx_hash_field_select, hfso, selected_fields, sel);
	return 0;
}

static int mlx5x_rss_tir_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
				const struct mlx5_ib_create_qp_rss *ucmd,
				struct ib_rwq_ind_table *tbl, u32 tdn)
{
	u32 in[PRM_BYTES(create_tir_in) / 4] = {};
	u32 out[PRM_BYTES(create_tir_out) / 4] = {};
	void *tirc = PRM_ADDR(create_tir_in, in, ctx);
	u32 lb = 0;
	int err;

	err = mlx5x_rss_select(PRM_ADDR(tirc, tirc,
					rx_hash_field_selector_outer),
			       ucmd->rx_hash_fields_mask,
			       tbl->log_ind_tbl_size);
	if (err)
		return err;
	if (ucmd->flags & MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC)
		lb |= MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST;
	if (ucmd->flags & MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_MC)
		lb |= MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST;
	PRM_SET(create_tir_in, in, opcode, MLX5_CMD_OP_CREATE_TIR);
	PRM_SET(create_tir_in, in, uid, qp->uid);
	PRM_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	PRM_SET(tirc, tirc, indirect_table, tbl->ind_tbl_num);
	PRM_SET(tirc, tirc, transport_domain, tdn);
	PRM_SET(tirc, tirc, self_lb_block, lb);
	PRM_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_TOEPLITZ);
	memcpy(PRM_ADDR(tirc, tirc, rx_hash_toeplitz_key), ucmd->rx_hash_key,
	       MLX5X_RSS_KEY_BYTES);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		qp->raw.tirn = PRM_GET(create_tir_out, out, tirn);
	return err;
}

/**
 * mlx5x_rss_create() - create an RSS QP: the TIR over its table
 * @dev: the device
 * @qp: the QP
 * @attr: the verbs attributes: RAW_PACKET, the table, no send CQ
 * @udata: struct mlx5_ib_create_qp_rss in, struct mlx5_ib_create_qp_resp
 *	   out
 *
 * Refuses what mlx5_ib refuses, with its errno.
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_rss_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     struct ib_qp_init_attr *attr, struct ib_udata *udata)
{
	struct mlx5x_ucontext *uctx =
		rdma_udata_to_drv_context(udata, struct mlx5x_ucontext, ib);
	struct mlx5_ib_create_qp_resp resp = {};
	struct mlx5_ib_create_qp_rss ucmd = {};
	int err;

	if (attr->qp_type != IB_QPT_RAW_PACKET || !uctx->cqe_version ||
	    attr->send_cq || attr->create_flags)
		return -EINVAL;
	if (!capable(CAP_NET_RAW))
		return -EPERM;
	err = mlx5x_rss_read_ucmd(udata, &ucmd);
	if (err)
		return err;
	qp->uid = to_mpd(qp->ib.pd)->uid;
	qp->flags = ucmd.flags;
	qp->state = IB_QPS_RESET;
	qp->port = MLX5X_PORT;
	err = mlx5x_rss_tir_create(dev, qp, &ucmd, attr->rwq_ind_tbl,
				   uctx->tdn);
	if (err)
		return err;
	if (uctx->devx_uid) {
		resp.comp_mask = MLX5_IB_CREATE_QP_RESP_MASK_TIRN;
		resp.tirn = qp->raw.tirn;
	}
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err) {
		mlx5x_fw_destroy(dev, qp->uid, MLX5_CMD_OP_DESTROY_TIR,
				 &qp->raw.tirn);
		return err;
	}
	/* QP number 0, as mlx5_ib's: not one for restrack's table */
	qp->ib.qp_num = 0;
	rdma_restrack_no_track(&qp->ib.res);
	return 0;
}
