// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Protection and transport domains.  Also MLX5_IB_METHOD_PD_QUERY
 * (ibv_import_pd).
 */
#include <rdma/uverbs_ioctl.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

int mlx5x_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibpd->device);
	struct mlx5x_pd *pd = to_mpd(ibpd);
	u32 in[PRM_BYTES(alloc_pd_in) / 4] = {};
	u32 out[PRM_BYTES(alloc_pd_out) / 4] = {};
	struct mlx5x_ucontext *uctx;
	int err;

	uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ucontext, ib);
	pd->uid = uctx ? uctx->devx_uid : 0;
	PRM_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	PRM_SET(alloc_pd_in, in, uid, pd->uid);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	pd->pdn = PRM_GET(alloc_pd_out, out, pd);

	if (udata) {
		struct mlx5_ib_alloc_pd_resp resp = { .pdn = pd->pdn };

		err = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
		if (err) {
			mlx5x_dealloc_pd(ibpd, udata);
			return err;
		}
	}
	return 0;
}

int mlx5x_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibpd->device);
	struct mlx5x_pd *pd = to_mpd(ibpd);
	u32 in[PRM_BYTES(dealloc_pd_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_pd_out) / 4] = {};

	PRM_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	PRM_SET(dealloc_pd_in, in, uid, pd->uid);
	PRM_SET(dealloc_pd_in, in, pd, pd->pdn);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/*
 * ibv_import_pd() in another process (or a second context on a dup of the
 * same command file) learns the PD's number here: libmlx5 needs it for
 * mlx5dv_init_obj() and DEVX objects.  The handle is looked up in the
 * caller's own file, so only a PD it shares can be named.
 */
static int UVERBS_HANDLER(MLX5_IB_METHOD_PD_QUERY)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *ibpd = uverbs_attr_get_obj(attrs,
						 MLX5_IB_ATTR_QUERY_PD_HANDLE);
	u32 pdn = to_mpd(ibpd)->pdn;

	return uverbs_copy_to(attrs, MLX5_IB_ATTR_QUERY_PD_RESP_PDN, &pdn,
			      sizeof(pdn));
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_PD_QUERY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_QUERY_PD_HANDLE, UVERBS_OBJECT_PD,
			UVERBS_ACCESS_READ, UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_QUERY_PD_RESP_PDN,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY));

ADD_UVERBS_METHODS(mlx5x_pd_methods,
		   UVERBS_OBJECT_PD,
		   &UVERBS_METHOD(MLX5_IB_METHOD_PD_QUERY));

const struct uapi_definition mlx5x_pd_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_PD, &mlx5x_pd_methods),
	{}
};

/**
 * mlx5x_td_alloc() - allocate a transport domain
 * @dev: device
 * @uid: owner
 * @tdn: its number
 */
int mlx5x_td_alloc(struct mlx5x_dev *dev, u16 uid, u32 *tdn)
{
	u32 in[PRM_BYTES(alloc_transport_domain_in) / 4] = {};
	u32 out[PRM_BYTES(alloc_transport_domain_out) / 4] = {};
	int err;

	PRM_SET(alloc_transport_domain_in, in, opcode,
		MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	PRM_SET(alloc_transport_domain_in, in, uid, uid);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*tdn = PRM_GET(alloc_transport_domain_out, out,
			       transport_domain);
	return err;
}

void mlx5x_td_free(struct mlx5x_dev *dev, u16 uid, u32 tdn)
{
	u32 in[PRM_BYTES(dealloc_transport_domain_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_transport_domain_out) / 4] = {};

	PRM_SET(dealloc_transport_domain_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN);
	PRM_SET(dealloc_transport_domain_in, in, uid, uid);
	PRM_SET(dealloc_transport_domain_in, in, transport_domain, tdn);
	if (mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out)))
		ibdev_err(&dev->ib, "DEALLOC_TRANSPORT_DOMAIN 0x%x failed: status 0x%x syndrome 0x%x\n",
			  tdn, prm_out_status(out), prm_out_syndrome(out));
}
