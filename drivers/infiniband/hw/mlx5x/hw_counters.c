// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's hardware counters (rdma statistic; sysfs ports/1/hw_counters),
 * as mlx5_ib offers them: the device allocates one Q counter set for its
 * port when it registers, every QP the driver moves to INIT counts in it
 * (qp_rc.c sets qpc.counter_set_id), and the counters are read with
 * QUERY_Q_COUNTER under the names of query_q_counter_out.  When PCAM
 * says the port counts RoCE packets with a bad ICRC, the port's
 * rx_icrc_encapsulated follows them, read from PPCNT's Ethernet extended
 * group: a bad ICRC is no QP's (nothing of the packet can be trusted).
 * When firmware lets the function read its congestion statistics
 * (cc_query_allowed), the port's notification and reaction point
 * counters follow the Q counters, as mlx5_ib lists them, read with
 * QUERY_CONG_STATISTICS.
 * A QP bound to a counter of its own (rdma statistic qp) counts in a set
 * of its own instead: qp_counter.c.
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

#define MLX5X_CONG_CNT(fld) { .name = #fld, \
	.off = PRM_BYTE_OFF(query_cong_statistics_out, fld##_high) }

/* The congestion counters, 64 bits each (their high word at .off). */
static const struct mlx5x_hw_counter mlx5x_cong_cnts[] = {
	MLX5X_CONG_CNT(rp_cnp_ignored),
	MLX5X_CONG_CNT(rp_cnp_handled),
	MLX5X_CONG_CNT(np_ecn_marked_roce_packets),
	MLX5X_CONG_CNT(np_cnp_sent),
};

#define MLX5X_ICRC_NAME	"rx_icrc_encapsulated"

/* Where the congestion counters start in the list, and the ICRC's. */
static unsigned int mlx5x_hw_icrc_at(const struct mlx5x_dev *dev)
{
	return ARRAY_SIZE(mlx5x_q_cnts) +
	       (dev->cong_cnt ? ARRAY_SIZE(mlx5x_cong_cnts) : 0);
}

/* The counters the port lists: Q counters, congestion, the port's own. */
static unsigned int mlx5x_hw_num(const struct mlx5x_dev *dev)
{
	return mlx5x_hw_icrc_at(dev) + dev->icrc_cnt;
}

/*
 * Read port register @id (@len bytes, its selectors in @reg) into @data.
 * Return: 0 or a negative errno.
 */
static int mlx5x_reg_read(struct mlx5x_dev *dev, u16 id, const void *reg,
			  void *data, size_t len)
{
	size_t in_sz = PRM_BYTES(access_register_in) + len;
	size_t out_sz = PRM_BYTES(access_register_out) + len;
	void *in, *out;
	int err;

	in = kzalloc(in_sz, GFP_KERNEL);
	out = kzalloc(out_sz, GFP_KERNEL);
	err = -ENOMEM;
	if (!in || !out)
		goto out;
	PRM_SET(access_register_in, in, opcode, MLX5_CMD_OP_ACCESS_REG);
	PRM_SET(access_register_in, in, op_mod, PRM_REG_READ);
	PRM_SET(access_register_in, in, register_id, id);
	memcpy((u8 *)in + PRM_BYTES(access_register_in), reg, len);
	err = mlx5x_cmd_run(dev, in, in_sz, out, out_sz);
	if (!err)
		memcpy(data, (u8 *)out + PRM_BYTES(access_register_out), len);
out:
	kfree(in);
	kfree(out);
	return err;
}

/* Whether PCAM says the port counts RoCE packets with a bad ICRC. */
static bool mlx5x_has_icrc_cnt(struct mlx5x_dev *dev)
{
	u32 reg[PRM_BYTES(pcam_reg) / 4] = {};
	u32 cap[PRM_BYTES(pcam_reg) / 4];

	if (!MLX5X_CAP_GEN(dev, pcam_reg) ||
	    mlx5x_reg_read(dev, PRM_REG_PCAM, reg, cap, sizeof(cap)))
		return false;
	return PRM_GET(pcam_reg, cap, PRM_PCAM_ICRC_CNT);
}

/* The port's rx_icrc_encapsulated, into @v. */
static int mlx5x_icrc_read(struct mlx5x_dev *dev, u64 *v)
{
	u32 reg[PRM_BYTES(ppcnt_reg) / 4] = {};
	void *cnt;
	int err;

	cnt = kzalloc(PRM_BYTES(ppcnt_reg), GFP_KERNEL);
	if (!cnt)
		return -ENOMEM;
	PRM_SET(ppcnt_reg, reg, local_port, 1);
	PRM_SET(ppcnt_reg, reg, grp, PRM_PPCNT_ETH_EXTENDED);
	err = mlx5x_reg_read(dev, PRM_REG_PPCNT, reg, cnt,
			     PRM_BYTES(ppcnt_reg));
	if (!err)
		*v = (u64)PRM_GET(ppcnt_reg, cnt, PRM_PPCNT_EXT(
				  rx_icrc_encapsulated_high)) << 32 |
		     PRM_GET(ppcnt_reg, cnt, PRM_PPCNT_EXT(
			     rx_icrc_encapsulated_low));
	kfree(cnt);
	return err;
}

/* The congestion counters, into @v (as many as mlx5x_cong_cnts). */
static int mlx5x_cong_read(struct mlx5x_dev *dev, u64 *v)
{
	u32 in[PRM_BYTES(query_cong_statistics_in) / 4] = {};
	unsigned int i;
	void *out;
	int err;

	out = kzalloc(PRM_BYTES(query_cong_statistics_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	PRM_SET(query_cong_statistics_in, in, opcode,
		MLX5_CMD_OP_QUERY_CONG_STATISTICS);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out,
			    PRM_BYTES(query_cong_statistics_out));
	for (i = 0; !err && i < ARRAY_SIZE(mlx5x_cong_cnts); i++) {
		__be32 *w = (__be32 *)((u8 *)out + mlx5x_cong_cnts[i].off);

		/* the high word, then the low one: 4-byte aligned only */
		v[i] = (u64)be32_to_cpu(w[0]) << 32 | be32_to_cpu(w[1]);
	}
	kfree(out);
	return err;
}

/**
 * mlx5x_q_counter_alloc() - allocate a Q counter set of the kernel's
 * @dev: the device
 * @id: its counter_set_id, on success
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_q_counter_alloc(struct mlx5x_dev *dev, u32 *id)
{
	u32 in[PRM_BYTES(alloc_q_counter_in) / 4] = {};
	u32 out[PRM_BYTES(alloc_q_counter_out) / 4] = {};
	int err;

	PRM_SET(alloc_q_counter_in, in, opcode, MLX5_CMD_OP_ALLOC_Q_COUNTER);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*id = PRM_GET(alloc_q_counter_out, out, counter_set_id);
	return err;
}

/**
 * mlx5x_q_counter_free() - free a Q counter set no QP counts in
 * @dev: the device
 * @id: its counter_set_id; 0, none
 */
void mlx5x_q_counter_free(struct mlx5x_dev *dev, u32 id)
{
	u32 in[PRM_BYTES(dealloc_q_counter_in) / 4] = {};
	u32 out[PRM_BYTES(dealloc_q_counter_out) / 4] = {};

	if (!id)
		return;
	PRM_SET(dealloc_q_counter_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_Q_COUNTER);
	PRM_SET(dealloc_q_counter_in, in, counter_set_id, id);
	mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * mlx5x_q_counter_read() - a Q counter set's counters, into @stats
 * @dev: the device
 * @id: its counter_set_id
 * @stats: as mlx5x_hw_stats_alloc() made it; the port's own counters
 *	   after the Q counters are left as they are
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_q_counter_read(struct mlx5x_dev *dev, u32 id,
			 struct rdma_hw_stats *stats)
{
	u32 in[PRM_BYTES(query_q_counter_in) / 4] = {};
	unsigned int i;
	void *out;
	int err;

	out = kzalloc(PRM_BYTES(query_q_counter_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	PRM_SET(query_q_counter_in, in, opcode, MLX5_CMD_OP_QUERY_Q_COUNTER);
	PRM_SET(query_q_counter_in, in, counter_set_id, id);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out,
			    PRM_BYTES(query_q_counter_out));
	if (!err)
		for (i = 0; i < ARRAY_SIZE(mlx5x_q_cnts); i++)
			stats->value[i] = be32_to_cpup((__be32 *)
					  ((u8 *)out + mlx5x_q_cnts[i].off));
	kfree(out);
	return err;
}

/**
 * mlx5x_hw_stats_alloc() - the counters the port lists, zero
 * @dev: the device
 *
 * The port's and every per-QP counter set's have the same list: ib_core
 * adds them up by index.
 *
 * Return: the stats, or NULL.
 */
struct rdma_hw_stats *mlx5x_hw_stats_alloc(struct mlx5x_dev *dev)
{
	return rdma_alloc_hw_stats_struct(dev->q_descs, mlx5x_hw_num(dev),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * mlx5x_hw_counters_init() - allocate the port's default Q counter set
 * @dev: the device, before it registers
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_hw_counters_init(struct mlx5x_dev *dev)
{
	unsigned int i, j;

	dev->icrc_cnt = mlx5x_has_icrc_cnt(dev);
	dev->cong_cnt = MLX5X_CAP_GEN(dev, cc_query_allowed);
	/* what ib_core lists, the device's until it is released */
	dev->q_descs = kcalloc(mlx5x_hw_num(dev), sizeof(*dev->q_descs),
			       GFP_KERNEL);
	if (!dev->q_descs)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(mlx5x_q_cnts); i++)
		dev->q_descs[i].name = mlx5x_q_cnts[i].name;
	if (dev->cong_cnt)
		for (j = 0; j < ARRAY_SIZE(mlx5x_cong_cnts); j++, i++)
			dev->q_descs[i].name = mlx5x_cong_cnts[j].name;
	if (dev->icrc_cnt)
		dev->q_descs[i].name = MLX5X_ICRC_NAME;
	return mlx5x_q_counter_alloc(dev, &dev->q_counter);
}

/**
 * mlx5x_hw_counters_cleanup() - free the port's Q counter set
 * @dev: the device, unregistered (no QP counts in the set any more)
 */
void mlx5x_hw_counters_cleanup(struct mlx5x_dev *dev)
{
	kfree(dev->q_descs);
	dev->q_descs = NULL;
	mlx5x_q_counter_free(dev, dev->q_counter);
	dev->q_counter = 0;
}

/* ib_device_ops.alloc_hw_port_stats */
struct rdma_hw_stats *mlx5x_alloc_hw_port_stats(struct ib_device *ib,
						u32 port)
{
	return mlx5x_hw_stats_alloc(to_mdev(ib));
}

/* ib_device_ops.get_hw_stats: the set's counters, as firmware has them */
int mlx5x_get_hw_stats(struct ib_device *ib, struct rdma_hw_stats *stats,
		       u32 port, int index)
{
	struct mlx5x_dev *dev = to_mdev(ib);
	int err;

	if (!dev->q_counter || !port)
		return 0;
	err = mlx5x_q_counter_read(dev, dev->q_counter, stats);
	if (!err && dev->cong_cnt)
		err = mlx5x_cong_read(dev,
				      &stats->value[ARRAY_SIZE(mlx5x_q_cnts)]);
	if (!err && dev->icrc_cnt)
		err = mlx5x_icrc_read(dev,
				      &stats->value[mlx5x_hw_icrc_at(dev)]);
	return err ?: mlx5x_hw_num(dev);
}
