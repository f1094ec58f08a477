// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC traffic: what differs from RC (dp_rc.c, whose requester and
 * responder carry it).  An XRC initiator's send WQE names, in its XRC
 * segment, the XRC SRQ its message is for; the message goes to the
 * target QP the initiator is connected to, which takes it if that SRQ
 * exists and is of the target's XRC domain.  Otherwise the target NAKs
 * the request as invalid: the initiator completes with a remote invalid
 * request error and the target goes to ERR, as an RC responder does.
 *
 * A target has no PD, no receive queue and no CQ of its own: the XRC
 * SRQ's PD and context are the ones the message's keys must be of (its
 * receive WQE's lkeys, an RDMA's rkey), its WQEs are taken as a basic
 * SRQ's are (dp_srq.c), and the receive completes in the SRQ's CQ with
 * the SRQ's user index, by which libmlx5 finds the SRQ of the CQE.
 */
#include "../queues/queues.h"
#include "dp_priv.h"
#include "wqe.h"

#define SIM_XRC_NO_PD	BIT(24)

bool sim_dp_xrc(const struct sim_qp *qp)
{
	return PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_XRC;
}

/* A target: receives only, into the XRC SRQs of its domain. */
bool sim_dp_xrc_tgt(const struct sim_qp *qp)
{
	return sim_dp_xrc(qp) && PRM_GET(qpc, qp->qpc, no_sq);
}

static struct sim_srq *sim_xrc_srq_find(struct mlx5x_sim *sim, u32 srqn)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_XRC_SRQ], srqn);

	return obj ? container_of(obj, struct sim_srq, q.obj) : NULL;
}

/**
 * sim_dp_xrc_srq() - the XRC SRQ a target's current message is for
 * @sim: the model, its lock held
 * @qp: any QP
 *
 * Return: the SRQ, or NULL when @qp is no target or the SRQ is gone.
 */
struct sim_srq *sim_dp_xrc_srq(struct mlx5x_sim *sim, const struct sim_qp *qp)
{
	if (!sim_dp_xrc_tgt(qp))
		return NULL;
	return sim_xrc_srq_find(sim, qp->dp.xrc_srqn);
}

/**
 * sim_dp_xrc_target() - a message of an initiator reaches @tgt
 * @sim: the model, its lock held
 * @tgt: the QP the initiator is connected to
 * @srqn: the XRC SRQ the WQE names
 *
 * A message that has taken a WQE already (its earlier turns) stays with
 * its SRQ.
 *
 * Return: 0, or the initiator's error syndrome: a QP that is no target
 * does not answer (the transport's retries run out); an SRQ that is not
 * there, or of another domain, is an invalid request.
 */
u32 sim_dp_xrc_target(struct mlx5x_sim *sim, struct sim_qp *tgt, u32 srqn)
{
	struct sim_srq *srq;

	if (!sim_dp_xrc_tgt(tgt))
		return SIM_CQE_SYND_TRANSPORT_RETRY;
	if (tgt->dp.srq_held)
		return 0;
	srq = sim_xrc_srq_find(sim, srqn);
	if (!srq || srq->xrcd != PRM_GET(qpc, tgt->qpc, xrcd))
		return SIM_CQE_SYND_REMOTE_INVAL_REQ;
	tgt->dp.xrc_srqn = srqn;
	return 0;
}

/**
 * sim_dp_resp_keys() - whose keys a responder's memory is reached with
 * @sim: the model, its lock held
 * @resp: the responder
 * @uid: its context, or for a target the XRC SRQ's
 * @pdn: its PD, or for a target the XRC SRQ's
 *
 * A target whose SRQ is gone has no memory: its PD is one no key has
 * (PD numbers are 24 bits).
 */
void sim_dp_resp_keys(struct mlx5x_sim *sim, const struct sim_qp *resp,
		      u16 *uid, u32 *pdn)
{
	struct sim_srq *srq;

	if (!sim_dp_xrc_tgt(resp)) {
		*uid = resp->q.obj.uid;
		*pdn = sim_qp_pdn(resp);
		return;
	}
	srq = sim_dp_xrc_srq(sim, resp);
	*uid = srq ? srq->q.obj.uid : resp->q.obj.uid;
	*pdn = srq ? PRM_GET(wq, PRM_ADDR(rmpc, srq->rmpc, wq), pd) :
		     SIM_XRC_NO_PD;
}
