// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Capability queries through DEVX general commands
 * (mlx5dv_devx_general_cmd(3)): QUERY_HCA_CAP pages checked against what
 * ibv_query_device(3) and ibv_query_port(3) report, and the ways a
 * general command is refused: by the kernel before it reaches firmware
 * (EINVAL), or by firmware (EREMOTEIO, status and syndrome in the output).
 *
 * Field offsets are bit offsets from <linux/mlx5/mlx5_ifc.h>; see
 * mlx5x_test.h.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_model.h"

#define ROCE_V2_CAP		(1 << 2)	/* roce_version bit */
#define ROCE_V2_UDP_PORT	4791
#define VPORT_IN_BYTES		PRM_QUERY_NIC_VPORT_CONTEXT_IN_BYTES
#define VPORT(f)		PRM_VPORT_OUT_NIC_VPORT_CONTEXT_##f
/* permanent_address: 16 reserved bits, then the MAC's six bytes */
#define VPORT_MAC_BYTE		\
	(VPORT(PERMANENT_ADDRESS_MAC_ADDR_47_32).off / 8)
#define GEN(f)			PRM_CMD_HCA_CAP_##f

static struct ibv_context *ctx;	/* the DEVX context the cases share */
static int base_objects;
static uint8_t out[PRM_QUERY_HCA_CAP_OUT_BYTES];

static int test_open_devx_context(void)
{
	base_objects = mt_fw_total();
	ctx = mt_open(MT_OPEN_DEVX, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static int test_general_caps_match_query_device(void)
{
	struct ibv_device_attr attr = {};
	const void *cap = mt_cap_page(out);

	if (!ctx)
		return mt_skip("no context");

	if (!CHECK_ERR(ibv_query_device(ctx, &attr), 0))
		return KSFT_FAIL;
	if (!CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1),
					out), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
	CHECK_EQ(attr.max_pd, 1LL << mt_get(cap, GEN(LOG_MAX_PD)));
	CHECK_EQ(attr.max_qp, 1LL << mt_get(cap, GEN(LOG_MAX_QP)));
	CHECK_EQ(attr.max_qp_wr, 1LL << mt_get(cap, GEN(LOG_MAX_QP_SZ)));
	CHECK_EQ(attr.max_cq, 1LL << mt_get(cap, GEN(LOG_MAX_CQ)));
	CHECK_EQ(attr.max_mr, 1LL << mt_get(cap, GEN(LOG_MAX_MKEY)));
	CHECK_EQ(attr.max_srq, 1LL << mt_get(cap, GEN(LOG_MAX_SRQ)));
	CHECK_EQ(attr.local_ca_ack_delay,
		 mt_get(cap, GEN(LOCAL_CA_ACK_DELAY)));
	CHECK_EQ(mt_get(cap, GEN(PORT_TYPE)), 1);	/* Ethernet */
	CHECK_EQ(mt_get(cap, GEN(NUM_PORTS)), attr.phys_port_cnt);
	CHECK_EQ(attr.phys_port_cnt, 1);
	CHECK_EQ(mt_get(cap, GEN(ROCE)), 1);
	CHECK(mt_get(cap, GEN(CQE_VERSION)) >= 1);
	CHECK(mt_get(cap, GEN(LOG_MAX_UCTX)) > 0);	/* DEVX offered */
	return KSFT_PASS;
}

/* op_mod bit 0 clear: the maximum the device supports, not the current. */
static int test_general_max_caps(void)
{
	uint8_t cur[PRM_QUERY_HCA_CAP_OUT_BYTES];
	const void *max_cap = mt_cap_page(out), *cur_cap = mt_cap_page(cur);

	if (!ctx)
		return mt_skip("no context");

	if (!CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1),
					cur), 0))
		return KSFT_FAIL;
	if (!CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 0),
					out), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
	CHECK(mt_get(max_cap, GEN(LOG_MAX_PD)) >=
	      mt_get(cur_cap, GEN(LOG_MAX_PD)));
	CHECK(mt_get(max_cap, GEN(LOG_MAX_QP)) >=
	      mt_get(cur_cap, GEN(LOG_MAX_QP)));
	CHECK_EQ(mt_get(max_cap, GEN(PORT_TYPE)),
		 mt_get(cur_cap, GEN(PORT_TYPE)));
	CHECK_EQ(mt_get(max_cap, GEN(NUM_PORTS)),
		 mt_get(cur_cap, GEN(NUM_PORTS)));
	return KSFT_PASS;
}

static int test_roce_caps(void)
{
	struct ibv_port_attr pattr = {};
	const void *cap = mt_cap_page(out);

	if (!ctx)
		return mt_skip("no context");

	if (!CHECK_ERR(ibv_query_port(ctx, 1, &pattr), 0))
		return KSFT_FAIL;
	if (!CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_ROCE, 1),
					out), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
	CHECK_EQ(mt_get(cap, PRM_ROCE_CAP_ROCE_ADDRESS_TABLE_SIZE),
		 pattr.gid_tbl_len);
	CHECK(mt_get(cap, PRM_ROCE_CAP_ROCE_VERSION) & ROCE_V2_CAP);
	CHECK_EQ(mt_get(cap, PRM_ROCE_CAP_R_ROCE_DEST_UDP_PORT),
		 ROCE_V2_UDP_PORT);
	return KSFT_PASS;
}

static int test_clock_and_msg_size(void)
{
	struct ibv_device_attr_ex attr = {};
	struct ibv_port_attr pattr = {};
	const void *cap = mt_cap_page(out);

	if (!ctx)
		return mt_skip("no context");

	if (!CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1),
					out), 0))
		return KSFT_FAIL;
	CHECK_ERR(ibv_query_device_ex(ctx, NULL, &attr), 0);
	CHECK_EQ(attr.hca_core_clock, mt_get(cap, GEN(DEVICE_FREQUENCY_KHZ)));
	CHECK_ERR(ibv_query_port(ctx, 1, &pattr), 0);
	CHECK_EQ(pattr.max_msg_sz, 1LL << mt_get(cap, GEN(LOG_MAX_MSG)));
	return KSFT_PASS;
}

static int test_nic_vport_context(void)
{
	uint8_t in[VPORT_IN_BYTES] = {}, vout[PRM_VPORT_OUT_BYTES] = {};
	struct ibv_device_attr attr = {};
	uint8_t mac[6];

	if (!ctx)
		return mt_skip("no context");

	if (!CHECK_ERR(ibv_query_device(ctx, &attr), 0))
		return KSFT_FAIL;
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_NIC_VPORT_CONTEXT);
	if (!CHECK_ERR(mt_devx(ctx, in, sizeof(in), vout, sizeof(vout)), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_get(vout, PRM_OUT_STATUS), 0);
	CHECK_EQ(mt_get64(vout, VPORT(NODE_GUID_OFF)), be64toh(attr.node_guid));
	CHECK_EQ(mt_get(vout, VPORT(ROCE_EN)), 1);
	/* the hardware MTU: the netdev's plus L2 header, VLAN tag and FCS */
	if (mt.netdev && mt_netdev_mtu() > 0)
		CHECK_EQ(mt_get(vout, VPORT(MTU)), mt_netdev_mtu() + 22);
	else
		CHECK(mt_get(vout, VPORT(MTU)) > 0);
	if (!mt_netdev_mac(mac))
		CHECK(!memcmp(vout + VPORT_MAC_BYTE, mac, sizeof(mac)));
	return KSFT_PASS;
}

/* Firmware answers a capability type it does not offer with BAD_PARAM. */
static int test_unsupported_cap_type(void)
{
	static const uint16_t op_mods[] = {
		MT_CAP_OPMOD(0x3f, 1),
		MT_CAP_OPMOD(0x40, 1),
	};
	unsigned int i;

	if (!ctx)
		return mt_skip("no context");

	for (i = 0; i < MT_ARRAY_SIZE(op_mods); i++) {
		mt_diag("op_mod %#x", op_mods[i]);
		CHECK_ERR(mt_query_hca_cap(ctx, op_mods[i], out), EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_PARAM);
		CHECK(mt_get(out, PRM_OUT_SYNDROME) != 0);
	}
	return KSFT_PASS;
}

/* other_function needs e-switch manager rights this function lacks. */
static int test_other_function_refused(void)
{
	uint8_t in[PRM_QUERY_HCA_CAP_IN_BYTES] = {};

	if (!ctx)
		return mt_skip("no context");

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_HCA_CAP);
	mt_set(in, PRM_QUERY_HCA_CAP_IN_OP_MOD,
	       MT_CAP_OPMOD(MT_CAP_GENERAL, 1));
	mt_set(in, PRM_QUERY_HCA_CAP_IN_OTHER_FUNCTION, 1);
	CHECK_ERR(mt_devx(ctx, in, sizeof(in), out, sizeof(out)), EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_PARAM);
	return KSFT_PASS;
}

/*
 * Commands that create objects, and opcodes that do not exist, are not
 * general commands: the kernel refuses them before firmware sees them.
 */
static int test_opcode_not_allowed(void)
{
	static const uint16_t opcodes[] = {
		PRM_OP_CREATE_MKEY, PRM_OP_ALLOC_PD, PRM_OP_CREATE_UCTX,
		0x7fff, 0xffff,
	};
	uint8_t in[PRM_VPORT_OUT_BYTES] = {};
	long long cmds = mt_fw_stat("commands");
	unsigned int i;

	if (!ctx)
		return mt_skip("no context");

	for (i = 0; i < MT_ARRAY_SIZE(opcodes); i++) {
		mt_diag("opcode %#x", opcodes[i]);
		mt_set(in, PRM_IN_OPCODE, opcodes[i]);
		CHECK_ERR(mt_devx(ctx, in, sizeof(in), out, sizeof(out)),
			  EINVAL);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	return KSFT_PASS;
}

/*
 * Mailboxes shorter than the 16-byte command header
 * (general_obj_in_cmd_hdr / general_obj_out_cmd_hdr) are refused by
 * uverbs' attribute checks: EINVAL, firmware never sees them.
 */
static int test_short_mailboxes(void)
{
	static const size_t lens[] = { 4, 8, PRM_IN_BYTES - 1 };
	uint8_t in[PRM_QUERY_HCA_CAP_IN_BYTES] = {};
	long long cmds = mt_fw_stat("commands");
	unsigned int i;

	if (!ctx)
		return mt_skip("no context");

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_HCA_CAP);
	mt_set(in, PRM_QUERY_HCA_CAP_IN_OP_MOD,
	       MT_CAP_OPMOD(MT_CAP_GENERAL, 1));
	for (i = 0; i < MT_ARRAY_SIZE(lens); i++) {
		mt_diag("inlen %zu", lens[i]);
		CHECK_ERR(mt_devx(ctx, in, lens[i], out, sizeof(out)), EINVAL);
		mt_diag("outlen %zu", lens[i]);
		CHECK_ERR(mt_devx(ctx, in, sizeof(in), out, lens[i]), EINVAL);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_stat("commands"), cmds);
	return KSFT_PASS;
}

/* The output's header, then the general page's layout (cmd_hca_cap). */
#define CAP_OUT_HDR		16
#define GENERAL_CAP_BYTES	256

/*
 * An output mailbox that holds the header but not the capability page
 * asked for: the kernel passes the length on as it is (it is at least the
 * header), and firmware refuses the command with BAD_OUTPUT_LEN, which
 * comes back as EREMOTEIO with the status in the output.  One that holds
 * the page, if not the whole union of pages, is answered with what fits,
 * as rdma-core's DEVX tests read the general page into 2048 bytes.
 */
static int test_short_output_bad_output_len(void)
{
	static const size_t lens[] = {
		PRM_IN_BYTES, 64, CAP_OUT_HDR + GENERAL_CAP_BYTES - 1,
	};
	uint8_t in[PRM_QUERY_HCA_CAP_IN_BYTES] = {};
	unsigned int i;

	if (!ctx)
		return mt_skip("no context");

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_HCA_CAP);
	mt_set(in, PRM_QUERY_HCA_CAP_IN_OP_MOD,
	       MT_CAP_OPMOD(MT_CAP_GENERAL, 1));
	for (i = 0; i < MT_ARRAY_SIZE(lens); i++) {
		mt_diag("outlen %zu", lens[i]);
		memset(out, 0xa5, sizeof(out));
		CHECK_ERR(mt_devx(ctx, in, sizeof(in), out, lens[i]),
			  EREMOTEIO);
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_BAD_OUTPUT_LEN);
		/* nothing is written past the buffer given */
		CHECK_EQ(out[lens[i]], 0xa5);
	}
	memset(out, 0xa5, sizeof(out));
	if (CHECK_ERR(mt_devx(ctx, in, sizeof(in), out, CAP_OUT_HDR + 2048), 0)) {
		CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
		CHECK_EQ(out[CAP_OUT_HDR + 2048], 0xa5);
	}
	return KSFT_PASS;
}

static int test_firmware_error_returned(void)
{
	if (!ctx)
		return mt_skip("no context");
	if (!CHECK_EQ(mt_fw_fail_next(1), 0))
		return KSFT_FAIL;
	CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1), out),
		  EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), MT_STAT_INTERNAL_ERR);
	CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), SYND_INJECTED);
	/* one failure only */
	CHECK_ERR(mt_query_hca_cap(ctx, MT_CAP_OPMOD(MT_CAP_GENERAL, 1), out),
		  0);
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), 0);
	return KSFT_PASS;
}

/* Capabilities yes, the NIC vport context no. */
MT_TEST_F(mt_ctx, no_devx_queries)
{
	uint8_t in[VPORT_IN_BYTES] = {}, vout[PRM_VPORT_OUT_BYTES];

	CHECK_EQ(self->uid, 0);
	CHECK_ERR(mt_query_hca_cap(self->ctx, MT_CAP_OPMOD(MT_CAP_ROCE, 1),
				   out), 0);
	CHECK_EQ(mt_get(mt_cap_page(out), PRM_ROCE_CAP_R_ROCE_DEST_UDP_PORT),
		 ROCE_V2_UDP_PORT);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_NIC_VPORT_CONTEXT);
	CHECK_ERR(mt_devx(self->ctx, in, sizeof(in), vout, sizeof(vout)),
		  EINVAL);
	return KSFT_PASS;
}

/* Every refused and failed command above left nothing behind. */
static int test_close_context_no_leak(void)
{
	if (!ctx)
		return mt_skip("no context");
	CHECK_EQ(ibv_close_device(ctx), 0);
	ctx = NULL;
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), base_objects);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(open_devx_context, .flags = MT_SHARED),
	MT_CASE(general_caps_match_query_device),
	MT_CASE(general_max_caps),
	MT_CASE(roce_caps),
	MT_CASE(clock_and_msg_size),
	MT_CASE(nic_vport_context),
	MT_CASE(unsupported_cap_type),
	MT_CASE(other_function_refused),
	MT_CASE(opcode_not_allowed),
	MT_CASE(short_mailboxes),
	MT_CASE(short_output_bad_output_len),
	MT_CASE(firmware_error_returned, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(mt_nodevx_ctx_fixture, no_devx_queries,
		   .flags = MT_NEEDS_MODEL),
	MT_CASE(close_context_no_leak),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
