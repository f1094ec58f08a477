// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the data path's pieces: reading a send WQE as libmlx5
 * lays one out for a RAW_PACKET QP, and writing CQEs as libmlx5 reads
 * them (struct sim_cqe, struct sim_err_cqe).
 */
#include "sim_kunit.h"
#include "../dp/datapath.h"
#include "../dp/wqe.h"

/* A WQE: its control segment and an Ethernet segment, @hdr_len inline. */
static void sk_wqe(u8 *wqe, u8 opcode, u16 idx, u8 ds, u16 hdr_len)
{
	struct sim_wqe_ctrl *c = (void *)wqe;
	struct sim_wqe_eth *e = (void *)(wqe + 16);
	u16 i;

	memset(wqe, 0, SIM_WQE_MAX_BYTES);
	c->opmod_idx_opcode = cpu_to_be32(idx << 8 | opcode);
	c->qpn_ds = cpu_to_be32(0x123 << 8 | ds);
	c->fm_ce_se = SIM_WQE_CTRL_CQ_UPDATE;
	e->cs_flags = SIM_WQE_ETH_L3_CSUM;
	e->inline_hdr.sz = cpu_to_be16(hdr_len);
	for (i = 0; i < hdr_len; i++)
		e->inline_hdr.start[i] = 0xa0 + i;
}

static void sk_dseg(u8 *at, u32 bc, u32 lkey, u64 addr)
{
	struct sim_wqe_data *d = (void *)at;

	d->byte_count = cpu_to_be32(bc);
	d->lkey = cpu_to_be32(lkey);
	d->addr = cpu_to_be64(addr);
}

static void sk_dp_parse_send(struct kunit *test)
{
	u8 *wqe = kunit_kzalloc(test, SIM_WQE_MAX_BYTES, GFP_KERNEL);
	struct sim_send_wqe *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wqe);
	KUNIT_ASSERT_NOT_NULL(test, w);
	/* 18-byte header: 2 in the segment, 16 after it; two data segs */
	sk_wqe(wqe, SIM_OPCODE_SEND, 0x1234, 5, 18);
	sk_dseg(wqe + 48, 100, 0x4567, 0x1000);
	sk_dseg(wqe + 64, 28, 0x89ab, 0x2000);
	KUNIT_ASSERT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			0);
	KUNIT_EXPECT_EQ(test, w->opcode, SIM_OPCODE_SEND);
	KUNIT_EXPECT_EQ(test, w->index, 0x1234);
	KUNIT_EXPECT_EQ(test, w->ds, 5);
	KUNIT_EXPECT_TRUE(test, w->signalled);
	KUNIT_EXPECT_EQ(test, w->cs_flags, SIM_WQE_ETH_L3_CSUM);
	KUNIT_EXPECT_EQ(test, w->hdr_len, 18);
	KUNIT_EXPECT_PTR_EQ(test, w->hdr, (const u8 *)wqe + 30);
	KUNIT_EXPECT_EQ(test, w->hdr[17], 0xa0 + 17);
	KUNIT_ASSERT_EQ(test, w->n, 2);
	KUNIT_EXPECT_EQ(test, w->g[0].lkey, 0x4567);
	KUNIT_EXPECT_EQ(test, w->g[0].addr, 0x1000);
	KUNIT_EXPECT_EQ(test, w->g[0].len, 100);
	KUNIT_EXPECT_NULL(test, w->g[0].inl);
	KUNIT_EXPECT_EQ(test, w->g[1].len, 28);

	/* no inline header (eth_min_inline NONE): data right after it */
	sk_wqe(wqe, SIM_OPCODE_SEND, 7, 3, 0);
	sk_dseg(wqe + 32, 60, 1, 2);
	((struct sim_wqe_ctrl *)wqe)->fm_ce_se = 0;
	KUNIT_ASSERT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			0);
	KUNIT_EXPECT_FALSE(test, w->signalled);
	KUNIT_EXPECT_EQ(test, w->hdr_len, 0);
	KUNIT_EXPECT_EQ(test, w->n, 1);
	KUNIT_EXPECT_EQ(test, w->g[0].len, 60);
}

static void sk_dp_parse_inline(struct kunit *test)
{
	u8 *wqe = kunit_kzalloc(test, SIM_WQE_MAX_BYTES, GFP_KERNEL);
	struct sim_send_wqe *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wqe);
	KUNIT_ASSERT_NOT_NULL(test, w);
	/* inline data of 20 bytes: 4 + 20 -> two segments, then a data seg */
	sk_wqe(wqe, SIM_OPCODE_SEND, 1, 5, 0);
	*(__be32 *)(wqe + 32) = cpu_to_be32(SIM_WQE_INLINE | 20);
	memset(wqe + 36, 0x5a, 20);
	sk_dseg(wqe + 64, 8, 3, 4);
	KUNIT_ASSERT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			0);
	KUNIT_ASSERT_EQ(test, w->n, 2);
	KUNIT_EXPECT_PTR_EQ(test, w->g[0].inl, (const u8 *)wqe + 36);
	KUNIT_EXPECT_EQ(test, w->g[0].len, 20);
	KUNIT_EXPECT_EQ(test, w->g[1].lkey, 3);
}

static void sk_dp_parse_bad(struct kunit *test)
{
	u8 *wqe = kunit_kzalloc(test, SIM_WQE_MAX_BYTES, GFP_KERNEL);
	struct sim_send_wqe *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wqe);
	KUNIT_ASSERT_NOT_NULL(test, w);
	/* an RDMA write on an Ethernet SQ: local QP operation error */
	sk_wqe(wqe, SIM_OPCODE_RDMA_WRITE, 9, 3, 0);
	KUNIT_EXPECT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, w->index, 9);
	/* no Ethernet segment */
	sk_wqe(wqe, SIM_OPCODE_SEND, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			-EINVAL);
	/* more segments than the bytes there */
	sk_wqe(wqe, SIM_OPCODE_SEND, 0, 4, 0);
	KUNIT_EXPECT_EQ(test, sim_send_wqe_parse(wqe, 48, w), -EINVAL);
	KUNIT_EXPECT_EQ(test, sim_send_wqe_parse(wqe, 8, w), -EINVAL);
	/* an inline header longer than the WQE */
	sk_wqe(wqe, SIM_OPCODE_SEND, 0, 2, 40);
	KUNIT_EXPECT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			-EINVAL);
	/* inline data running past the WQE's end */
	sk_wqe(wqe, SIM_OPCODE_SEND, 0, 3, 0);
	*(__be32 *)(wqe + 32) = cpu_to_be32(SIM_WQE_INLINE | 13);
	KUNIT_EXPECT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			-EINVAL);
	/* a zero byte count: 2 GiB */
	sk_wqe(wqe, SIM_OPCODE_SEND, 0, 3, 0);
	sk_dseg(wqe + 32, 0, 1, 2);
	KUNIT_EXPECT_EQ(test, sim_send_wqe_parse(wqe, SIM_WQE_MAX_BYTES, w),
			-EINVAL);
}

static void sk_dp_cqe_recv(struct kunit *test)
{
	struct sim_cqe_info info = {
		.opcode = SIM_CQE_RESP_SEND, .qpn = 0x55, .user_index = 0x77,
		.wqe_counter = 0x1234, .byte_cnt = 98, .tagged = true,
		.flow_tag = 0xabcdef, .hds_ip_ext = 6, .l4_l3_hdr_type = 0x28,
	};
	struct sim_cqe c;

	memset(&c, 0xee, sizeof(c));
	sim_cqe_fill((u8 *)&c, &info, true);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.byte_cnt), 98);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(c.wqe_counter), 0x1234);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.srqn), 0x77);
	/* a raw RQ's CQE: the flow tag where an RC CQE has the QPN */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.sop_drop_qpn), 0xabcdef);
	KUNIT_EXPECT_EQ(test, c.hds_ip_ext, 6);
	KUNIT_EXPECT_EQ(test, c.l4_l3_hdr_type, 0x28);
	KUNIT_EXPECT_EQ(test, c.op_own, SIM_CQE_RESP_SEND << 4 | 1);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(c.rsvd0, 0, sizeof(c.rsvd0)));

	/* an RC receive: the QPN, and the immediate as it was sent */
	info.tagged = false;
	info.opcode = SIM_CQE_RESP_SEND_IMM;
	info.imm = cpu_to_be32(0xfeed);
	sim_cqe_fill((u8 *)&c, &info, true);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.sop_drop_qpn), 0x55);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.imm), 0xfeed);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(c.vlan_info), 0);

	/* a UD receive that came tagged: the tag, PCP and VID, as it was */
	info.l4_l3_hdr_type = SIM_CQE_CVLAN;
	info.vlan_info = 5 << 13 | 77;
	sim_cqe_fill((u8 *)&c, &info, true);
	KUNIT_EXPECT_EQ(test, c.l4_l3_hdr_type, SIM_CQE_CVLAN);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(c.vlan_info), 5 << 13 | 77);

	/* a requester's: the WQE's opcode above the QPN, for libmlx5 */
	info.opcode = SIM_CQE_REQ;
	info.wqe_opcode = SIM_OPCODE_RDMA_READ;
	sim_cqe_fill((u8 *)&c, &info, false);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.sop_drop_qpn),
			SIM_OPCODE_RDMA_READ << 24 | 0x55);
	KUNIT_EXPECT_EQ(test, c.op_own, SIM_CQE_REQ << 4);
}

static void sk_dp_cqe_err(struct kunit *test)
{
	struct sim_cqe_info info = {
		.opcode = SIM_CQE_REQ_ERR, .qpn = 0x99, .user_index = 3,
		.wqe_counter = 17, .wqe_opcode = SIM_OPCODE_SEND,
		.syndrome = SIM_CQE_SYND_LOCAL_PROT,
	};
	struct sim_err_cqe e;

	sim_cqe_fill((u8 *)&e, &info, true);
	KUNIT_EXPECT_EQ(test, e.syndrome, SIM_CQE_SYND_LOCAL_PROT);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(e.s_wqe_opcode_qpn),
			SIM_OPCODE_SEND << 24 | 0x99);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(e.wqe_counter), 17);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(e.srqn), 3);
	KUNIT_EXPECT_EQ(test, e.op_own, SIM_CQE_REQ_ERR << 4 | 1);
}

/* Ethernet + IPv4 (checksum right) + UDP with no checksum. */
static const u8 sk_udp4[42] = {
	2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00,
	0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0x66, 0xcf,
	10, 0, 0, 1, 10, 0, 0, 2,
	0x30, 0x39, 0x12, 0xb7, 0, 8, 0, 0,
};

static void sk_dp_rx_offloads(struct kunit *test)
{
	struct sim_cqe_info info = {};
	u8 pkt[sizeof(sk_udp4)];

	memcpy(pkt, sk_udp4, sizeof(pkt));
	sim_cqe_rx_offloads(pkt, sizeof(pkt), &info);
	KUNIT_EXPECT_EQ(test, info.hds_ip_ext, SIM_CQE_L3_OK | SIM_CQE_L4_OK);
	KUNIT_EXPECT_EQ(test, info.l4_l3_hdr_type,
			SIM_CQE_L4_UDP << 4 | SIM_CQE_L3_IPV4 << 2);
	/* a bad IPv4 header checksum: the type, but no L3_OK */
	pkt[25] ^= 1;
	sim_cqe_rx_offloads(pkt, sizeof(pkt), &info);
	KUNIT_EXPECT_EQ(test, info.hds_ip_ext, 0);
	KUNIT_EXPECT_EQ(test, info.l4_l3_hdr_type, SIM_CQE_L3_IPV4 << 2);
	/* not IP at all */
	pkt[12] = 0x88;
	sim_cqe_rx_offloads(pkt, sizeof(pkt), &info);
	KUNIT_EXPECT_EQ(test, info.l4_l3_hdr_type, 0);
	sim_cqe_rx_offloads(pkt, 10, &info);
	KUNIT_EXPECT_EQ(test, info.hds_ip_ext, 0);
}

static struct kunit_case sk_dp_cases[] = {
	KUNIT_CASE(sk_dp_parse_send),
	KUNIT_CASE(sk_dp_parse_inline),
	KUNIT_CASE(sk_dp_parse_bad),
	KUNIT_CASE(sk_dp_cqe_recv),
	KUNIT_CASE(sk_dp_cqe_err),
	KUNIT_CASE(sk_dp_rx_offloads),
	{}
};

static struct kunit_suite sk_dp_suite = {
	.name = "mlx5x_sim_datapath",
	.test_cases = sk_dp_cases,
};

kunit_test_suite(sk_dp_suite);
