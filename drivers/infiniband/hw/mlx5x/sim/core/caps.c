// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The capability profile of the simulated ConnectX-6 Dx, as QUERY_HCA_CAP
 * reports it.  The other commands of the model read their limits from
 * these same pages, so what is reported is what is enforced.
 */
#include <linux/slab.h>
#include "../sim_priv.h"
#include "general.h"
#include "../mem/dm.h"
#include "../mem/crypto.h"
#include "../queues/queues.h"

enum {
	SIM_CAP_GENERAL		= 0x00,
	SIM_CAP_ETH_OFFLOADS	= 0x01,
	SIM_CAP_ODP		= 0x02,
	SIM_CAP_ATOMIC		= 0x03,
	SIM_CAP_ROCE		= 0x04,
	SIM_CAP_NIC_FLOW_TABLE	= 0x07,
	SIM_CAP_QOS		= 0x0c,
	SIM_CAP_DEV_MEM		= 0x0f,
	SIM_CAP_DEV_EVENT	= 0x14,
	SIM_CAP_GENERAL_2	= 0x20,
};

#define SIM_CAP_PAGE_BYTES	PRM_UN_BYTES(hca_cap_union)

/* atomic_caps: atomic_operations and atomic_size_qp bits (PRM) */
#define SIM_ATOMIC_OPS_CMP_SWAP		BIT(0)
#define SIM_ATOMIC_OPS_FETCH_ADD	BIT(1)
#define SIM_ATOMIC_SIZE_8		BIT(3)
/* cmd_hca_cap.sigerr_domain_and_sig_type of newer headers */
#define SIM_CAP_SIGERR_DOMAIN_OFF PRM_BIT_OFF(cmd_hca_cap, reserved_at_480)

/* Ethernet port, RoCE v2, 4K UAR pages, one UAR per page. */
static void sim_caps_general(void *c)
{
	PRM_SET(cmd_hca_cap, c, hca_cap_2, 1);
	PRM_SET(cmd_hca_cap, c, log_max_srq_sz, 15);
	PRM_SET(cmd_hca_cap, c, log_max_qp_sz, 15);
	PRM_SET(cmd_hca_cap, c, log_max_qp, 16);
	PRM_SET(cmd_hca_cap, c, log_max_srq, 16);
	PRM_SET(cmd_hca_cap, c, xrc, 1);
	PRM_SET(cmd_hca_cap, c, log_max_xrcd, 16);
	PRM_SET(cmd_hca_cap, c, log_max_cq_sz, 22);
	PRM_SET(cmd_hca_cap, c, log_max_cq, 16);
	PRM_SET(cmd_hca_cap, c, cq_moderation, 1);
	/* 128-byte CQEs written whole, padded (dp/dp_cq.c) */
	PRM_SET(cmd_hca_cap, c, cqe_128_always, 1);
	/* CQE compression, the basic layout, every format (dp/cq_comp.c) */
	PRM_SET(cmd_hca_cap, c, cqe_compression, 1);
	PRM_SET(cmd_hca_cap, c, cqe_compression_128, 1);
	PRM_SET(cmd_hca_cap, c, mini_cqe_resp_stride_index, 1);
	PRM_SET(cmd_hca_cap, c, cqe_compression_max_num, SIM_CQ_COMP_MAX);
	PRM_SET(cmd_hca_cap, c, log_max_eq_sz, 22);
	PRM_SET(cmd_hca_cap, c, log_max_mkey, 20);
	PRM_SET(cmd_hca_cap, c, log_max_eq, 6);
	PRM_SET(cmd_hca_cap, c, max_indirection, 4);
	PRM_SET(cmd_hca_cap, c, log_max_mrw_sz, 64);
	PRM_SET(cmd_hca_cap, c, log_max_klm_list_size, 16);
	PRM_SET(cmd_hca_cap, c, log_max_ra_req_qp, 4);
	PRM_SET(cmd_hca_cap, c, log_max_ra_res_qp, 4);
	/* DC: DCIs with stream channels, DCTs (queues/cmd_dct.c, dp/dp_dc.c) */
	PRM_SET(cmd_hca_cap, c, dct, 1);
	PRM_SET(cmd_hca_cap, c, log_max_dci_stream_channels,
		SIM_DCI_LOG_MAX_STREAMS);
	PRM_SET(cmd_hca_cap, c, log_max_dci_errored_streams,
		SIM_DCI_LOG_MAX_ERRORED);
	/* the QPC extension of RTS2RTS_QP (a stream's reset) */
	prm_set_bits(c, SIM_CAP_QPC_EXTENSION_OFF, 1, 1);
	/* mlx5dv_modify_qp_udp_sport(3): queues/cmd_qp.c */
	prm_set_bits(c, SIM_CAP_RTS2RTS_UDP_SPORT_OFF, 1, 1);
	PRM_SET(cmd_hca_cap, c, log_max_ra_req_dc, 4);
	PRM_SET(cmd_hca_cap, c, log_max_ra_res_dc, 4);
	PRM_SET(cmd_hca_cap, c, gid_table_size, 4);	/* 8 << 4 (IB ports) */
	PRM_SET(cmd_hca_cap, c, pkey_table_size, 0);
	PRM_SET(cmd_hca_cap, c, nic_flow_table, 1);
	PRM_SET(cmd_hca_cap, c, block_lb_mc, 1);
	/* multicast groups of UD QPs (queues/cmd_mcg.c) */
	PRM_SET(cmd_hca_cap, c, log_max_mcg, SIM_MCG_LOG_MAX);
	PRM_SET(cmd_hca_cap, c, max_qp_mcg, SIM_MCG_MAX_QPS);
	PRM_SET(cmd_hca_cap, c, local_ca_ack_delay, 16);
	PRM_SET(cmd_hca_cap, c, port_type, 1);		/* Ethernet */
	PRM_SET(cmd_hca_cap, c, num_ports, 1);
	PRM_SET(cmd_hca_cap, c, log_max_msg, 30);
	PRM_SET(cmd_hca_cap, c, max_tc, 8);
	PRM_SET(cmd_hca_cap, c, cqe_version, 1);
	PRM_SET(cmd_hca_cap, c, event_cap, 1);
	PRM_SET(cmd_hca_cap, c, eth_net_offloads, 1);
	PRM_SET(cmd_hca_cap, c, roce, 1);
	PRM_SET(cmd_hca_cap, c, vport_counters, 1);
	PRM_SET(cmd_hca_cap, c, rc, 1);
	PRM_SET(cmd_hca_cap, c, atomic, 1);
	PRM_SET(cmd_hca_cap, c, pg, 1);			/* sim_caps_odp() */
	PRM_SET(cmd_hca_cap, c, uc, 1);
	PRM_SET(cmd_hca_cap, c, ud, 1);
	PRM_SET(cmd_hca_cap, c, uar_4k, 1);
	PRM_SET(cmd_hca_cap, c, uar_sz, 12);
	PRM_SET(cmd_hca_cap, c, log_pg_sz, 12);
	PRM_SET(cmd_hca_cap, c, bf, 1);
	/*
	 * BlueFlame: the model reads every WQE from its ring, so what a
	 * BlueFlame copy writes to a UAR page is nothing to it, and each of
	 * the copy's stores would trap (uar_trap.c).  Registers of 32 bytes,
	 * two 16-byte buffers, hold no WQE (a control segment is 16 bytes
	 * and libmlx5 copies no WQE of one segment): libmlx5 rings the 8-byte
	 * doorbell, one store, for every post.
	 */
	PRM_SET(cmd_hca_cap, c, log_bf_reg_size, 5);
	PRM_SET(cmd_hca_cap, c, max_wqe_sz_sq, 1024);
	PRM_SET(cmd_hca_cap, c, max_wqe_sz_rq, 512);
	PRM_SET(cmd_hca_cap, c, log_max_transport_domain, 16);
	PRM_SET(cmd_hca_cap, c, log_max_pd, 18);
	PRM_SET(cmd_hca_cap, c, log_max_rq, 16);
	PRM_SET(cmd_hca_cap, c, log_max_sq, 16);
	PRM_SET(cmd_hca_cap, c, log_max_tir, 16);
	PRM_SET(cmd_hca_cap, c, log_max_tis, 16);
	PRM_SET(cmd_hca_cap, c, log_max_rqt, 16);
	PRM_SET(cmd_hca_cap, c, log_max_rqt_size, 16);
	PRM_SET(cmd_hca_cap, c, log_max_wq_sz, 16);
	PRM_SET(cmd_hca_cap, c, log_max_uctx, 10);
	PRM_SET(cmd_hca_cap, c, max_qp_cnt, 255);
	/* ACCESS_REG answers PCAM and PPCNT's counters (dp/dp_port_reg.c) */
	PRM_SET(cmd_hca_cap, c, pcam_reg, 1);
	/* QUERY_CONG_STATISTICS answers the port's np/rp (dp/dp_cong.c) */
	PRM_SET(cmd_hca_cap, c, cc_query_allowed, 1);
	PRM_SET(cmd_hca_cap, c, max_flow_counter_31_16, 0x100);
	PRM_SET(cmd_hca_cap, c, flow_counter_bulk_alloc, 0xff);	/* 128..16K */
	PRM_SET(cmd_hca_cap, c, log_max_flow_counter_bulk, 14);
	PRM_SET(cmd_hca_cap, c, log_max_umem, 16);
	PRM_SET(cmd_hca_cap, c, max_num_eqs, 64);
	PRM_SET(cmd_hca_cap, c, log_uar_page_sz, 0);	/* 4 KiB << 0 */
	PRM_SET(cmd_hca_cap, c, num_of_uars_per_page, 1);
	PRM_SET(cmd_hca_cap, c, device_frequency_khz, 1000000);
	/*
	 * Signature offload: sho, and sigerr_domain_and_sig_type (bit 0x480,
	 * reserved in 6.1's mlx5_ifc.h), which libmlx5 needs both of before
	 * it offers mlx5dv_create_mkey(3) BLOCK_SIGNATURE.  Crypto:
	 * mem/crypto_caps.c.
	 */
	PRM_SET(cmd_hca_cap, c, sho, 1);
	/* a signature error drains the send queue (dp/dp_sig.c) */
	PRM_SET(cmd_hca_cap, c, drain_sigerr, 1);
	/* RTS2RTS moves a QP to another Q counter set (rdma statistic qp) */
	PRM_SET(cmd_hca_cap, c, rts2rts_qp_counters_set_id, 1);
	prm_set_bits(c, SIM_CAP_SIGERR_DOMAIN_OFF, 1, 1);
	PRM_SET(cmd_hca_cap, c, uctx_cap,
		MLX5_UCTX_CAP_RAW_TX | MLX5_UCTX_CAP_INTERNAL_DEV_RES);
}

/*
 * RC atomics (dp/dp_rc.c): compare and swap and fetch and add on 8 bytes,
 * answered in host byte order, the mode mlx5_ib asks for.
 */
static void sim_caps_atomic(void *c)
{
	PRM_SET(atomic_caps, c, atomic_operations,
		SIM_ATOMIC_OPS_CMP_SWAP | SIM_ATOMIC_OPS_FETCH_ADD);
	PRM_SET(atomic_caps, c, atomic_size_qp, SIM_ATOMIC_SIZE_8);
	PRM_SET(atomic_caps, c, atomic_req_8B_endianness_mode, 1);
	PRM_SET(atomic_caps, c, supported_atomic_req_8B_endianness_mode_1, 1);
}

static void sim_caps_roce(void *c)
{
	PRM_SET(roce_cap, c, l3_type, 0x3);		/* IPv4 and IPv6 */
	PRM_SET(roce_cap, c, roce_version, 0x4);	/* RoCE v2 */
	PRM_SET(roce_cap, c, r_roce_dest_udp_port, 4791);
	PRM_SET(roce_cap, c, r_roce_max_src_udp_port, 0xffff);
	PRM_SET(roce_cap, c, r_roce_min_src_udp_port, 0xc000);
	PRM_SET(roce_cap, c, roce_address_table_size, 256);
}

/*
 * On-demand paging (mem/odp.c): what a WQE of each transport may meet an
 * absent page in and be stopped and resumed.  RC and DC (whose DCI
 * executes as RC, dp/dp_dc.c): every operation and receives through an
 * SRQ, an RC QP's own RQ too; XRC through its SRQ; UD sends and
 * receives; UC and raw packet queues none.
 */
static void sim_caps_odp(void *c)
{
	static const struct {
		enum prm_odp_transport tr;
		bool recv, rdma, srq;
	} tr[] = {
		{ PRM_ODP_RC, true, true, true },
		{ PRM_ODP_UD, true, false, false },
		{ PRM_ODP_XRC, false, true, true },
		{ PRM_ODP_DC, false, true, true },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tr); i++) {
		PRM_SET_ODP(c, tr[i].tr, send, 1);
		PRM_SET_ODP(c, tr[i].tr, receive, tr[i].recv);
		PRM_SET_ODP(c, tr[i].tr, write, tr[i].rdma);
		PRM_SET_ODP(c, tr[i].tr, read, tr[i].rdma);
		PRM_SET_ODP(c, tr[i].tr, atomic, tr[i].rdma);
		PRM_SET_ODP(c, tr[i].tr, srq_receive, tr[i].srq);
	}
}

struct sim_cap_page {
	u8 type;
	void (*fill)(void *page);
};

/* Types not listed are answered with BAD_PARAM, as firmware does. */
static const struct sim_cap_page sim_cap_pages[] = {
	{ SIM_CAP_GENERAL, sim_caps_general },
	{ SIM_CAP_ETH_OFFLOADS, NULL },
	{ SIM_CAP_ODP, sim_caps_odp },
	{ SIM_CAP_ATOMIC, sim_caps_atomic },
	{ SIM_CAP_ROCE, sim_caps_roce },
	{ SIM_CAP_NIC_FLOW_TABLE, sim_fs_caps_fill },
	{ SIM_CAP_QOS, NULL },
	{ SIM_CAP_DEV_MEM, sim_dev_mem_caps_fill },
	{ SIM_CAP_DEV_EVENT, sim_events_fill_cap },
	{ SIM_CAP_CRYPTO_TYPE, sim_crypto_caps_fill },
	{ SIM_CAP_GENERAL_2, NULL },
};

int sim_caps_init(struct mlx5x_sim *sim)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_cap_pages); i++) {
		const struct sim_cap_page *cp = &sim_cap_pages[i];
		void *page = kzalloc(SIM_CAP_PAGE_BYTES, GFP_KERNEL);

		if (!page) {
			sim_caps_free(sim);
			return -ENOMEM;
		}
		if (cp->fill)
			cp->fill(page);
		sim->caps[cp->type] = page;
	}
	sim_general_caps(sim->caps[SIM_CAP_GENERAL],
			 sim->caps[SIM_CAP_GENERAL_2], sim->caps[SIM_CAP_QOS]);
	sim_crypto_set_mode(sim, SIM_CRYPTO_NONE);
	sim->max_id[SIM_OBJ_UCTX] = 1U << SIM_CAP_GEN(sim, log_max_uctx);
	sim->max_id[SIM_OBJ_PD] = 1U << SIM_CAP_GEN(sim, log_max_pd);
	sim->max_id[SIM_OBJ_UAR] = 1U << 16;
	sim->max_id[SIM_OBJ_Q_COUNTER] = SIM_CAP_GEN(sim, max_qp_cnt);
	sim->max_id[SIM_OBJ_FLOW_COUNTER] =
		SIM_CAP_GEN(sim, max_flow_counter_31_16) << 16 |
		SIM_CAP_GEN(sim, max_flow_counter_15_0);
	sim->max_id[SIM_OBJ_UMEM] = 1U << SIM_CAP_GEN(sim, log_max_umem);
	sim->max_id[SIM_OBJ_EQ] = SIM_CAP_GEN(sim, max_num_eqs);
	sim->max_id[SIM_OBJ_TD] =
		1U << SIM_CAP_GEN(sim, log_max_transport_domain);
	sim->max_id[SIM_OBJ_MKEY] = 1U << SIM_CAP_GEN(sim, log_max_mkey);
	sim->max_id[SIM_OBJ_CQ] = 1U << SIM_CAP_GEN(sim, log_max_cq);
	sim->max_id[SIM_OBJ_QP] = 1U << SIM_CAP_GEN(sim, log_max_qp);
	sim->max_id[SIM_OBJ_RMP] = 1U << SIM_CAP_GEN(sim, log_max_srq);
	sim->max_id[SIM_OBJ_XRCD] = 1U << SIM_CAP_GEN(sim, log_max_xrcd);
	sim->max_id[SIM_OBJ_XRC_SRQ] = SIM_XRC_SRQN_BASE +
		(1U << SIM_CAP_GEN(sim, log_max_srq)) - 1;
	sim->max_id[SIM_OBJ_DCT] = SIM_DCTN_BASE +
		(1U << SIM_CAP_GEN(sim, log_max_qp)) - 1;
	sim->max_id[SIM_OBJ_RQ] = 1U << SIM_CAP_GEN(sim, log_max_rq);
	sim->max_id[SIM_OBJ_SQ] = 1U << SIM_CAP_GEN(sim, log_max_sq);
	sim->max_id[SIM_OBJ_TIR] = 1U << SIM_CAP_GEN(sim, log_max_tir);
	sim->max_id[SIM_OBJ_TIS] = 1U << SIM_CAP_GEN(sim, log_max_tis);
	sim->max_id[SIM_OBJ_RQT] = 1U << SIM_CAP_GEN(sim, log_max_rqt);
	/* ids of these are firmware's own: 24 bits, as in their mailboxes */
	sim->max_id[SIM_OBJ_FLOW_TABLE] = BIT(24) - 1;
	sim->max_id[SIM_OBJ_FLOW_GROUP] = BIT(24) - 1;
	sim->max_id[SIM_OBJ_FTE] = BIT(24) - 1;
	sim->max_id[SIM_OBJ_MODIFY_HDR] = BIT(24) - 1;
	sim->max_id[SIM_OBJ_PKT_REFORMAT] = BIT(24) - 1;
	sim->max_id[SIM_OBJ_GENERAL] = SIM_RSVD_QPN_BASE - 1;
	sim->max_id[SIM_OBJ_PSV] = BIT(24) - 1;
	sim->max_id[SIM_OBJ_MEMIC] = SIM_MEMIC_SIZE / DM_MEMIC_BASE_SIZE;
	return 0;
}

void sim_caps_free(struct mlx5x_sim *sim)
{
	unsigned int i;

	for (i = 0; i < PRM_CAP_TYPE_MAX; i++) {
		kfree(sim->caps[i]);
		sim->caps[i] = NULL;
	}
}

u32 sim_cap_gen(struct mlx5x_sim *sim, size_t bit_off, size_t bit_sz)
{
	return prm_get_bits(sim->caps[SIM_CAP_GENERAL], bit_off, bit_sz);
}

/* The model reports the same values as maximum and as current. */
/*
 * The bytes of capability page @type an output mailbox must hold: the
 * layout of the general pages, the whole page for the others.
 */
static size_t sim_cap_bytes(unsigned int type)
{
	switch (type) {
	case SIM_CAP_GENERAL:
		return PRM_BYTES(cmd_hca_cap);
	case SIM_CAP_GENERAL_2:
		return PRM_BYTES(cmd_hca_cap_2);
	default:
		return SIM_CAP_PAGE_BYTES;
	}
}

/*
 * An output mailbox shorter than the union of every page will do, as on a
 * ConnectX, if it holds the page asked for (rdma-core's DEVX tests read
 * the general page into 2048 bytes); it gets what fits.
 */
static u8 sim_query_hca_cap(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx)
{
	size_t off = PRM_BYTE_OFF(query_hca_cap_out, capability);
	unsigned int type = ctx->op_mod >> 1;

	if (PRM_GET(query_hca_cap_in, ctx->in, other_function))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	if (type >= PRM_CAP_TYPE_MAX || !sim->caps[type])
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_OPMOD);
	if (ctx->outlen < off + sim_cap_bytes(type))
		return sim_fail(ctx, PRM_STAT_BAD_OUTPUT_LEN,
				SIM_SYND_BAD_OUTLEN);
	memcpy((u8 *)ctx->out + off, sim->caps[type],
	       min_t(size_t, ctx->outlen - off, SIM_CAP_PAGE_BYTES));
	return PRM_STAT_OK;
}

static const struct sim_cmd sim_caps_cmd_list[] = {
	/* at least the smallest page; the page's own is checked after */
	{
		.opcode = MLX5_CMD_OP_QUERY_HCA_CAP, .name = "QUERY_HCA_CAP",
		.inlen = PRM_BYTES(query_hca_cap_in),
		.outlen = PRM_BYTE_OFF(query_hca_cap_out, capability) +
			  (PRM_BYTES(cmd_hca_cap) < PRM_BYTES(cmd_hca_cap_2) ?
			   PRM_BYTES(cmd_hca_cap) : PRM_BYTES(cmd_hca_cap_2)),
		.has_uid = true, .exec = sim_query_hca_cap,
	},
};

const struct sim_cmd_set sim_caps_cmds = {
	sim_caps_cmd_list, ARRAY_SIZE(sim_caps_cmd_list)
};
