// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Q counters: what the data path counts into the counter set a QP's or an
 * RQ's context names (qpc.counter_set_id, rqc.counter_set_id; 0 names
 * none).  Every event is counted in one place here, so the names of
 * query_q_counter_out mean the same wherever the event happens:
 *
 * - a responder's requests, by kind, once a message is taken (across
 *   the wire: at its first packet in sequence);
 * - across the wire, at the responder: out_of_sequence (a packet past
 *   the PSN expected), duplicate_request; at the requester:
 *   packet_seq_err (a PSN sequence error NAK received);
 * - out_of_buffer: a packet that found no receive WQE (an RQ's drop, an
 *   RC responder's RNR NAK);
 * - the requester's and the responder's error CQEs, by syndrome: a CQE
 *   error, or a flush, and which error it was.
 *
 * The counters are 32 bits, as the PRM's: they wrap.  The model's lock
 * is held (the data path's, a command's), so a set cannot go away.
 */
#include "../queues/queues.h"
#include "dp_priv.h"
#include "rcw.h"
#include "wqe.h"

/**
 * sim_qc_count() - count one event in a counter set
 * @sim: the model, its lock held
 * @set: the set's id, 0 for none
 * @stat: what happened
 */
void sim_qc_count(struct mlx5x_sim *sim, u32 set, enum sim_qc_stat stat)
{
	struct sim_obj *obj;

	if (!set)
		return;
	obj = xa_load(&sim->objs[SIM_OBJ_Q_COUNTER], set);
	if (obj)
		container_of(obj, struct sim_q_counter, obj)->stat[stat]++;
}

/* One event of @qp's, in the set its context names. */
void sim_qp_count(struct mlx5x_sim *sim, const struct sim_qp *qp,
		  enum sim_qc_stat stat)
{
	/* a DCT keeps its context elsewhere: it counts nowhere yet */
	if (sim_dp_dct(qp))
		return;
	sim_qc_count(sim, PRM_GET(qpc, qp->qpc, counter_set_id), stat);
}

/* A request the responder @qp took, by the WQE opcode that sent it. */
void sim_qp_count_rx(struct mlx5x_sim *sim, const struct sim_qp *qp,
		     u8 opcode)
{
	switch (opcode) {
	case SIM_OPCODE_RDMA_WRITE:
	case SIM_OPCODE_RDMA_WRITE_IMM:
		sim_qp_count(sim, qp, SIM_QC_RX_WRITE);
		break;
	case SIM_OPCODE_RDMA_READ:
		sim_qp_count(sim, qp, SIM_QC_RX_READ);
		break;
	case SIM_OPCODE_ATOMIC_CS:
	case SIM_OPCODE_ATOMIC_FA:
		sim_qp_count(sim, qp, SIM_QC_RX_ATOMIC);
		break;
	}
}

/*
 * A request packet in sequence at the responder @qp on the wire (its
 * SIM_RCW_F_* @flags): a WRITE counts at its first packet.
 */
void sim_qp_count_rx_pkt(struct mlx5x_sim *sim, const struct sim_qp *qp,
			 u32 flags)
{
	if (flags & SIM_RCW_F_READ)
		sim_qp_count(sim, qp, SIM_QC_RX_READ);
	else if (flags & SIM_RCW_F_ATOMIC)
		sim_qp_count(sim, qp, SIM_QC_RX_ATOMIC);
	else if ((flags & SIM_RCW_F_WRITE) && (flags & SIM_RCW_F_FIRST))
		sim_qp_count(sim, qp, SIM_QC_RX_WRITE);
}

/* An error CQE of @qp's (@send: the requester's), by its syndrome. */
void sim_qp_count_cqe(struct mlx5x_sim *sim, const struct sim_qp *qp,
		      bool send, u8 syndrome)
{
	if (syndrome == SIM_CQE_SYND_WR_FLUSH) {
		sim_qp_count(sim, qp, send ? SIM_QC_REQ_CQE_FLUSH_ERROR :
					     SIM_QC_RESP_CQE_FLUSH_ERROR);
		return;
	}
	sim_qp_count(sim, qp, send ? SIM_QC_REQ_CQE_ERROR :
				     SIM_QC_RESP_CQE_ERROR);
	switch (send ? syndrome : 0x100 | syndrome) {
	case SIM_CQE_SYND_RNR_RETRY:
		sim_qp_count(sim, qp, SIM_QC_RNR_NAK_RETRY_ERR);
		break;
	case SIM_CQE_SYND_TRANSPORT_RETRY:
		sim_qp_count(sim, qp, SIM_QC_LOCAL_ACK_TIMEOUT_ERR);
		break;
	case SIM_CQE_SYND_REMOTE_ACCESS:
		sim_qp_count(sim, qp, SIM_QC_REQ_REMOTE_ACCESS_ERRORS);
		break;
	case SIM_CQE_SYND_REMOTE_INVAL_REQ:
		sim_qp_count(sim, qp, SIM_QC_REQ_REMOTE_INVALID_REQUEST);
		break;
	case 0x100 | SIM_CQE_SYND_LOCAL_LENGTH:
		sim_qp_count(sim, qp, SIM_QC_RESP_LOCAL_LENGTH_ERROR);
		break;
	}
}
