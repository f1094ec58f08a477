// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The SET_PSV WQE (opcode 0x20): what libmlx5 posts after the UMR of a
 * mlx5dv_wr_mkey_configure() with mlx5dv_wr_set_mkey_sig_block(), one for
 * each signature domain, to set the domain's PSV (mem/cmd_psv.c) to its
 * initial signature state (struct mlx5_seg_set_psv: the PSV's number,
 * syndrome and status, the transient signature, the reference tag).
 * The PSV must be one of the QP's context on the QP's PD, its syndrome
 * and status 0; else the WQE completes with a local QP operation error.
 */
#include "../mem/psv.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "wqe.h"

/**
 * struct sim_wqe_set_psv - the SET_PSV segment, after the control segment
 * @psv_num: the PSV
 * @syndrome: 0
 * @status: 0
 * @transient_sig: guard seed and application tag, or CRC seed
 * @ref_tag: reference tag
 */
struct sim_wqe_set_psv {
	__be32 psv_num;
	__be16 syndrome;
	__be16 status;
	__be32 transient_sig;
	__be32 ref_tag;
};

static_assert(sizeof(struct sim_wqe_set_psv) == SIM_WQE_SEG);

/**
 * sim_dp_set_psv() - execute the SET_PSV WQE of an RC QP
 * @dp: the data path, the model's lock held; the WQE in @dp->wqe
 * @qp: the QP that posted it
 *
 * Return: 0, or the syndrome of its error CQE.
 */
u32 sim_dp_set_psv(struct sim_dp *dp, struct sim_qp *qp)
{
	const struct sim_wqe_set_psv *s =
		(const void *)(dp->wqe + sizeof(struct sim_wqe_ctrl));
	const struct sim_wqe_ctrl *c = (const void *)dp->wqe;
	struct sim_obj *obj;
	struct sim_psv *psv;

	if ((be32_to_cpu(c->qpn_ds) & SIM_WQE_CTRL_DS_MASK) < 2)
		return SIM_CQE_SYND_LOCAL_LENGTH;
	obj = xa_load(&dp->sim->objs[SIM_OBJ_PSV], be32_to_cpu(s->psv_num));
	if (!obj || obj->uid != qp->q.obj.uid || s->syndrome || s->status)
		return SIM_CQE_SYND_LOCAL_QP_OP;
	psv = container_of(obj, struct sim_psv, obj);
	if (!psv->pd || psv->pd->id != sim_qp_pdn(qp))
		return SIM_CQE_SYND_LOCAL_QP_OP;
	psv->transient_sig = be32_to_cpu(s->transient_sig);
	psv->ref_tag = be32_to_cpu(s->ref_tag);
	return 0;
}
