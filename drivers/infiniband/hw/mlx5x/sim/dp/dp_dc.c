// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DC traffic: what differs from RC (dp_rc.c, whose requester and
 * responder carry it).  A DC initiator (DCI) is connected to no QP: each
 * send WQE names, in its address vector, the DCT its message is for and
 * the DC access key it carries, and the message is executed as an RC
 * message against that DCT, with the RC requester's checks, retries and
 * errors.  The DCT answers only a request whose key is its own: any
 * other is dropped there, counted in its context
 * (dc_access_key_violation_count), and never answered, so the DCI's
 * retries run out (a transport retry error); a DCT that is gone, or
 * drained, does not answer either.
 *
 * The DC access key is the protection between contexts: a DCI of any
 * context reaches a DCT whose key it carries, as on a ConnectX.  What
 * the message then touches of the DCT's side is reached with the DCT's
 * keys: its PD and context (sim_dp_resp_keys()), its SRQ's receive
 * WQEs, and an RDMA's rkey, which must be of the DCT's PD.
 *
 * A DCI made with stream channels (mlx5dv_create_qp(3)'s dci_streams)
 * names a stream in each send WQE (mlx5dv_wr_set_dc_addr_stream()).  An
 * error puts the WQE's stream in error, not the DCI: the WQE completes
 * with its error, and later WQEs of that stream are flushed
 * (IBV_WC_WR_FLUSH_ERR) while the others go on, until the stream is reset
 * (mlx5dv_dci_stream_id_reset(3), queues/cmd_dct.c).  The DCI goes to
 * ERR once 2^log_num_dci_errored_streams streams are in error; a DCI
 * without streams has 2^0, so its first error takes it to ERR, as an RC
 * QP's does.
 *
 * A DCT receives through its SRQ one message at a time: a SEND that has
 * taken a receive WQE and goes on in later turns holds it, and a message
 * of another DCI waits (is tried again in the worker's next pass) until
 * it ends.  A DCT never goes to ERR: a responder's error completes its
 * receive WQE in error and NAKs the DCI, which goes to ERR.
 */
#include "../queues/dct.h"
#include "dp_priv.h"

bool sim_dp_dci(const struct sim_qp *qp)
{
	return qp->q.obj.type == SIM_OBJ_QP &&
	       PRM_GET(qpc, qp->qpc, st) == MLX5_QPC_ST_DCI;
}

bool sim_dp_dct(const struct sim_qp *qp)
{
	return qp->q.obj.type == SIM_OBJ_DCT;
}

/* Whether @id is a DCI in the midst of a message. */
static bool sim_dc_mid_message(struct mlx5x_sim *sim, u32 id)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_QP], id);
	struct sim_qp *qp;

	if (!obj)
		return false;
	qp = container_of(obj, struct sim_qp, q.obj);
	return sim_dp_dci(qp) && qp->dp.msg_off &&
	       sim_qp_state(qp) == SIM_QP_ST(RTS);
}

/**
 * sim_dp_dc_target() - the DCT a DCI's message reaches
 * @sim: the model, its lock held
 * @dci: the requester
 * @w: its send WQE, as read
 * @wait: set when the DCT is receiving another DCI's message
 *
 * Return: the DCT's responder, or NULL when nothing answers: no such
 * DCT, one drained, or a key that is not the DCT's (counted).
 */
struct sim_qp *sim_dp_dc_target(struct mlx5x_sim *sim, struct sim_qp *dci,
				const struct sim_rc_wqe *w, bool *wait)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_DCT], w->dctn);
	struct sim_dct *dct;
	u32 n;

	if (!obj)
		return NULL;
	dct = container_of(obj, struct sim_dct, qp.q.obj);
	if (PRM_GET(dctc, dct->dctc, state) != MLX5_DCTC_STATE_ACTIVE)
		return NULL;
	if (PRM_GET64(dctc, dct->dctc, dc_access_key) != w->dc_key) {
		n = PRM_GET(dctc, dct->dctc, dc_access_key_violation_count);
		if (n != U32_MAX)
			PRM_SET(dctc, dct->dctc, dc_access_key_violation_count,
				n + 1);
		return NULL;
	}
	if (dct->qp.dp.srq_held && dct->holder != dci->q.obj.id &&
	    sim_dc_mid_message(sim, dct->holder)) {
		*wait = true;
		return NULL;
	}
	dct->holder = dci->q.obj.id;
	return &dct->qp;
}

/* Whether DCI @qp's stream @stream is in error. */
bool sim_dci_stream_errored(const struct sim_qp *qp, u16 stream)
{
	unsigned int i;

	for (i = 0; i < qp->dp.n_errored; i++)
		if (qp->dp.dci_errored[i] == stream)
			return true;
	return false;
}

/**
 * sim_dci_stream_fail() - a send WQE of DCI @qp completed in error
 * @qp: the DCI
 * @stream: the WQE's stream
 *
 * Return: true when the DCI goes to ERR: the error put the last stream
 * it may keep in error there.
 */
bool sim_dci_stream_fail(struct sim_qp *qp, u16 stream)
{
	u32 max = BIT(PRM_GET(qpc, qp->qpc, log_num_dci_errored_streams));

	if (!sim_dci_stream_errored(qp, stream) &&
	    qp->dp.n_errored < ARRAY_SIZE(qp->dp.dci_errored))
		qp->dp.dci_errored[qp->dp.n_errored++] = stream;
	return qp->dp.n_errored >= max;
}
