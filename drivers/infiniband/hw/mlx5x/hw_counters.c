// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's hardware counters (rdma statistic; sysfs ports/1/hw_counters),
 * as mlx5_ib offers them: the device allocates one Q counter set for its
 * port when it registers, every QP the driver moves to INIT counts in it
 * (qp_rc.c sets qpc.counter_set_id), and the counters are read with
 * QUERY_Q_COUNTER under the names of query_q_counter_out.
 */
#include "mlx5x.h"

struct mlx5x_hw_counter {
	const char *name;
	u16 off;	/* of its 32 bits in query_q_counter_out */
};

#define MLX5X_QCNT(fld) \
	{ .name = #fld, .off = PRM_BYTE_OFF(query_q_counter_out, fld) }

/* The counters, in the order ib_core lists them. */
static const struct mlx5x_hw_counter mlx5x_q_cnts[] = {
	MLX5X_QCNT(rx_write_requests),
	MLX5X_QCNT(rx_read_requests),
	MLX5X_QCNT(rx_atomic_requests),
	MLX5X_QCNT(out_of_buffer),
	MLX5X_QCNT(out_of_sequence),
	MLX5X_QCNT(duplicate_request),
	MLX5X_QCNT(rnr_nak_retry_err),
	MLX5X_QCNT(packet_seq_err),
	MLX5X_QCNT(implied_nak_seq_err),
	MLX5X_QCNT(local_ack_timeout_err),
	MLX5X_QCNT(resp_local_length_error),
	MLX5X_QCNT(resp_cqe_error),
	MLX5X_QCNT(req_cqe_error),
	MLX5X_QCNT(req_remote_invalid_request),
	MLX5X_QCNT(req_remote_access_errors),
	MLX5X_QCNT(resp_remote_access_errors),
	MLX5X_QCNT(resp_cqe_flush_error),
	MLX5X_QCNT(req_cqe_flush_error),
};

/**
 * mlx5x_hw_counters_init() - allocate the port's default Q counter set
 * @dev: the device, before it registers
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_hw_counters_init(struct mlx5x_dev *dev)
{
	u32 in[PRM_BYTES(alloc_q_counter_in) / 4] = {};
	u32 out[PRM_BYTES(alloc_q_counter_out) / 4] = {};
	unsigned int i;
	int err;

	/* what ib_core lists, the device's until it is released */
	dev->q_descs = kcalloc(ARRAY_SIZE(mlx5x_q_cnts),
			       sizeof(*dev->q_descs), GFP_KERNEL);
	if (!dev->q_descs)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(mlx5x_q_cnts); i++)
		dev->q_descs[i].name = mlx5x_q_cnts[i].name;
	PRM_SET(alloc_q_counter_in, in, opcode, MLX5_CMD_OP_ALLOC_Q_COUNTER);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	dev->q_counter = PRM_GET(alloc_q_counter_out, out, counter_set_id);
	return 0;
}

/**
 * mlx5x_hw_counters_cleanup() - free the port's Q counter set
 * @dev: the device, unregistered (no QP counts in the set any more)
 */
void mlx5x_hw_counters_cleanup(struct mlx5x_dev *dev)
{
	u32 in[PRM_BYTES(dealloc_q_counter_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_q_counter_out) / 4] = {};

	kfree(dev->q_descs);
	dev->q_descs = NULL;
	if (!dev->q_counter)
		return;
	PRM_SET(dealloc_q_counter_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_Q_COUNTER);
	PRM_SET(dealloc_q_counter_in, in, counter_set_id, dev->q_counter);
	mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	dev->q_counter = 0;
}

/* ib_device_ops.alloc_hw_port_stats */
struct rdma_hw_stats *mlx5x_alloc_hw_port_stats(struct ib_device *ib,
						u32 port)
{
	return rdma_alloc_hw_stats_struct(to_mdev(ib)->q_descs,
					  ARRAY_SIZE(mlx5x_q_cnts),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/* ib_device_ops.get_hw_stats: the set's counters, as firmware has them */
int mlx5x_get_hw_stats(struct ib_device *ib, struct rdma_hw_stats *stats,
		       u32 port, int index)
{
	struct mlx5x_dev *dev = to_mdev(ib);
	u32 in[PRM_BYTES(query_q_counter_in) / 4] = {};
	unsigned int i;
	void *out;
	int err;

	if (!dev->q_counter || !port)
		return 0;
	out = kzalloc(PRM_BYTES(query_q_counter_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	PRM_SET(query_q_counter_in, in, opcode, MLX5_CMD_OP_QUERY_Q_COUNTER);
	PRM_SET(query_q_counter_in, in, counter_set_id, dev->q_counter);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out,
			    PRM_BYTES(query_q_counter_out));
	if (!err)
		for (i = 0; i < ARRAY_SIZE(mlx5x_q_cnts); i++)
			stats->value[i] = be32_to_cpup((__be32 *)
					  ((u8 *)out + mlx5x_q_cnts[i].off));
	kfree(out);
	return err ?: ARRAY_SIZE(mlx5x_q_cnts);
}
