// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MADs the device answers itself: the Performance Management class's
 * port counters (IBTA 16.1.3), from the vport's traffic counters
 * (QUERY_VPORT_COUNTER), as mlx5_ib answers them on an Ethernet port.
 * ib_core asks them to fill ports/N/counters/ in sysfs, which any user
 * may read; a PMA GET that arrives on QP1 is answered the same way.
 *
 * ClassPortInfo says the extended (64-bit) counters exist, so ib_core
 * shows PortCountersExtended's traffic counters: RoCE v2 packets and
 * their bytes (in 4-byte words, as the IBTA counts data) that crossed
 * the port's wire.  PortCounters (the error counters beside them) come
 * from the same answer: PortRcvErrors the frames received in error,
 * PortXmitDiscards those the wire refused; the link's own error
 * counters (symbol errors, link recovery) are 0: the port has no PHY.
 * Every other MAD goes on to the MAD layer's agents.
 */
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include "mlx5x.h"

/* Read the vport's counters into @out (query_vport_counter_out). */
static int mlx5x_query_vport_counter(struct mlx5x_dev *dev, void *out,
				     size_t outlen)
{
	u32 in[PRM_BYTES(query_vport_counter_in) / 4] = {};

	PRM_SET(query_vport_counter_in, in, opcode,
		 MLX5_CMD_OP_QUERY_VPORT_COUNTER);
	PRM_SET(query_vport_counter_in, in, port_num, MLX5X_PORT);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, outlen);
}

#define MLX5X_VP(out, fld)	PRM_GET64(query_vport_counter_out, out, fld)

/* What the PMA counters are made of: RoCE v2 traffic, and errors. */
struct mlx5x_pma_sums {
	u64 xmit_words, rcv_words;
	u64 xmit_uc, rcv_uc, xmit_mc, rcv_mc;
	u64 rcv_errors, xmit_discards;
};

static void mlx5x_pma_sum(struct mlx5x_pma_sums *s, const void *out)
{
	s->xmit_words = (MLX5X_VP(out, transmitted_ib_unicast.octets) +
			 MLX5X_VP(out, transmitted_ib_multicast.octets)) / 4;
	s->rcv_words = (MLX5X_VP(out, received_ib_unicast.octets) +
			MLX5X_VP(out, received_ib_multicast.octets)) / 4;
	s->xmit_uc = MLX5X_VP(out, transmitted_ib_unicast.packets);
	s->rcv_uc = MLX5X_VP(out, received_ib_unicast.packets);
	s->xmit_mc = MLX5X_VP(out, transmitted_ib_multicast.packets);
	s->rcv_mc = MLX5X_VP(out, received_ib_multicast.packets);
	s->rcv_errors = MLX5X_VP(out, received_errors.packets);
	s->xmit_discards = MLX5X_VP(out, transmit_errors.packets);
}

static void mlx5x_pma_ext(struct ib_pma_portcounters_ext *c,
			  const struct mlx5x_pma_sums *s)
{
	c->port_xmit_data = cpu_to_be64(s->xmit_words);
	c->port_rcv_data = cpu_to_be64(s->rcv_words);
	c->port_xmit_packets = cpu_to_be64(s->xmit_uc + s->xmit_mc);
	c->port_rcv_packets = cpu_to_be64(s->rcv_uc + s->rcv_mc);
	c->port_unicast_xmit_packets = cpu_to_be64(s->xmit_uc);
	c->port_unicast_rcv_packets = cpu_to_be64(s->rcv_uc);
	c->port_multicast_xmit_packets = cpu_to_be64(s->xmit_mc);
	c->port_multicast_rcv_packets = cpu_to_be64(s->rcv_mc);
}

/* The IBTA's counters stop at their largest value; they do not wrap. */
static __be16 mlx5x_pma16(u64 v)
{
	return cpu_to_be16(min_t(u64, v, U16_MAX));
}

static __be32 mlx5x_pma32(u64 v)
{
	return cpu_to_be32(min_t(u64, v, U32_MAX));
}

static void mlx5x_pma_basic(struct ib_pma_portcounters *c,
			    const struct mlx5x_pma_sums *s)
{
	c->port_rcv_errors = mlx5x_pma16(s->rcv_errors);
	c->port_xmit_discards = mlx5x_pma16(s->xmit_discards);
	c->port_xmit_data = mlx5x_pma32(s->xmit_words);
	c->port_rcv_data = mlx5x_pma32(s->rcv_words);
	c->port_xmit_packets = mlx5x_pma32(s->xmit_uc + s->xmit_mc);
	c->port_rcv_packets = mlx5x_pma32(s->rcv_uc + s->rcv_mc);
}

/* A PMA GET: ClassPortInfo, PortCounters, PortCountersExtended. */
static int mlx5x_pma_get(struct mlx5x_dev *dev, const struct ib_mad *in,
			 struct ib_mad *out)
{
	struct ib_pma_mad *pma = (struct ib_pma_mad *)out;
	__be16 attr = in->mad_hdr.attr_id;
	struct ib_class_port_info cpi = {};
	struct mlx5x_pma_sums sums;
	void *cnt;
	int err;

	out->mad_hdr = in->mad_hdr;
	out->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	out->mad_hdr.status = 0;
	if (attr == IB_PMA_CLASS_PORT_INFO) {
		cpi.base_version = 1;
		cpi.class_version = 1;
		cpi.capability_mask = IB_PMA_CLASS_CAP_EXT_WIDTH;
		memcpy(pma->data, &cpi, sizeof(cpi));
		return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
	}
	if (attr != IB_PMA_PORT_COUNTERS && attr != IB_PMA_PORT_COUNTERS_EXT) {
		out->mad_hdr.status =
			cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
		return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
	}
	cnt = kzalloc(PRM_BYTES(query_vport_counter_out), GFP_KERNEL);
	if (!cnt)
		return IB_MAD_RESULT_FAILURE;
	err = mlx5x_query_vport_counter(dev, cnt,
					PRM_BYTES(query_vport_counter_out));
	if (!err) {
		/* the port selected is echoed: the device has one */
		pma->data[1] = in->data[41];
		mlx5x_pma_sum(&sums, cnt);
		if (attr == IB_PMA_PORT_COUNTERS_EXT)
			mlx5x_pma_ext((void *)pma->data, &sums);
		else
			mlx5x_pma_basic((void *)pma->data, &sums);
	}
	kfree(cnt);
	return err ? IB_MAD_RESULT_FAILURE :
		     IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}

int mlx5x_process_mad(struct ib_device *ib, int mad_flags, u32 port,
		      const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		      const struct ib_mad *in, struct ib_mad *out,
		      size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	struct mlx5x_dev *dev = to_mdev(ib);

	if (in->mad_hdr.mgmt_class != IB_MGMT_CLASS_PERF_MGMT ||
	    in->mad_hdr.method != IB_MGMT_METHOD_GET ||
	    !MLX5X_CAP_GEN(dev, vport_counters))
		return IB_MAD_RESULT_SUCCESS;
	return mlx5x_pma_get(dev, in, out);
}
