// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: RoCE v2 frames (dp/dp_roce.c).  A UD packet is built byte for
 * byte as the reference frame (whose ICRC rxe accepts: the same frames
 * cross to rxe in scripts/vm/guest-roce-wire.sh); it parses back; every
 * truncation of it, a bad ICRC, a bad IPv4 checksum, a UDP length that
 * is not the IP one and a BTH version other than 0 are refused, each
 * from a buffer of exactly its length (KASAN sees any read past it);
 * another transport's packet is told apart; IPv6 with pad and immediate
 * data goes there and back.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "../dp/dp_roce.h"

/* "hello roce!!" from 192.168.77.1 QP 0x12 to 192.168.77.2 QP 5 */
static const u8 rt_ref[] = {
	0x02, 0x77, 0x00, 0x00, 0x00, 0x02, 0x02, 0x77, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x00, 0x45, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0x1f, 0x59, 0xc0, 0xa8, 0x4d, 0x01, 0xc0, 0xa8, 0x4d, 0x02, 0xc1, 0x23,
	0x12, 0xb7, 0x00, 0x2c, 0x00, 0x00, 0x64, 0x00, 0xff, 0xff, 0x00, 0x00,
	0x00, 0x05, 0x00, 0x00, 0x00, 0x07, 0x11, 0x11, 0x11, 0x11, 0x00, 0x00,
	0x00, 0x12, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x72, 0x6f, 0x63, 0x65,
	0x21, 0x21, 0xc0, 0x24, 0x64, 0x96
};

#define RT_L3		14
#define RT_BTH		(RT_L3 + 20 + 8)
#define RT_PAYLOAD	(RT_BTH + 12 + 8)

static void rt_v4(struct sim_roce_ud *u)
{
	static const u8 dmac[6] = { 2, 0x77, 0, 0, 0, 2 };
	static const u8 smac[6] = { 2, 0x77, 0, 0, 0, 1 };

	memset(u, 0, sizeof(*u));
	memcpy(u->dmac, dmac, 6);
	memcpy(u->smac, smac, 6);
	u->v4 = true;
	u->sgid[10] = 0xff;
	u->sgid[11] = 0xff;
	u->sgid[12] = 192;
	u->sgid[13] = 168;
	u->sgid[14] = 77;
	memcpy(u->dgid, u->sgid, 15);
	u->sgid[15] = 1;
	u->dgid[15] = 2;
	u->hop_limit = 64;
	u->sport = 0xc123;
	u->opcode = SIM_ROCE_UD_SEND;
	u->pkey = 0xffff;
	u->dqpn = 5;
	u->psn = 7;
	u->qkey = 0x11111111;
	u->sqpn = 0x12;
	u->len = 12;
}

static enum sim_roce_verdict rt_parse(struct kunit *test, const u8 *f,
				      u32 len, struct sim_roce_ud *u)
{
	u8 *copy = kmemdup(f, len ?: 1, GFP_KERNEL);
	enum sim_roce_verdict v;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	v = sim_roce_parse(copy, len, u);
	kfree(copy);
	return v;
}

static void rt_build_v4(struct kunit *test)
{
	u8 f[sizeof(rt_ref) + 8] = {};
	struct sim_roce_ud u;
	u32 hdr, len;

	rt_v4(&u);
	hdr = sim_roce_ud_build(&u, f);
	KUNIT_EXPECT_EQ(test, hdr, RT_PAYLOAD);
	memcpy(f + hdr, "hello roce!!", 12);
	len = sim_roce_ud_seal(f, hdr + 12);
	KUNIT_ASSERT_EQ(test, len, sizeof(rt_ref));
	KUNIT_EXPECT_EQ_MSG(test, memcmp(f, rt_ref, sizeof(rt_ref)), 0,
			    "built %*ph", (int)sizeof(rt_ref), f);
}

static void rt_parse_v4(struct kunit *test)
{
	struct sim_roce_ud u, want;
	u8 dgid[16];
	bool v1;
	int vid;

	KUNIT_ASSERT_EQ(test, rt_parse(test, rt_ref, sizeof(rt_ref), &u),
			SIM_ROCE_OK);
	rt_v4(&want);
	KUNIT_EXPECT_TRUE(test, u.v4);
	KUNIT_EXPECT_EQ(test, memcmp(u.sgid, want.sgid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(u.dgid, want.dgid, 16), 0);
	KUNIT_EXPECT_EQ(test, u.opcode, SIM_ROCE_UD_SEND);
	KUNIT_EXPECT_EQ(test, u.dqpn, 5);
	KUNIT_EXPECT_EQ(test, u.psn, 7);
	KUNIT_EXPECT_EQ(test, u.qkey, 0x11111111);
	KUNIT_EXPECT_EQ(test, u.sqpn, 0x12);
	KUNIT_EXPECT_EQ(test, u.pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, u.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, u.len, 12);
	KUNIT_EXPECT_EQ(test, sim_roce_dip(rt_ref, sizeof(rt_ref), dgid, &v1,
					   &vid), true);
	KUNIT_EXPECT_FALSE(test, v1);
	KUNIT_EXPECT_EQ(test, vid, -1);
	KUNIT_EXPECT_EQ(test, memcmp(dgid, want.dgid, 16), 0);
	/* Ethernet padding after the IP packet is not the packet's */
	{
		u8 padded[sizeof(rt_ref) + 6] = {};

		memcpy(padded, rt_ref, sizeof(rt_ref));
		KUNIT_EXPECT_EQ(test, rt_parse(test, padded, sizeof(padded),
					       &u), SIM_ROCE_OK);
		KUNIT_EXPECT_EQ(test, u.len, 12);
	}
}

static void rt_truncated(struct kunit *test)
{
	struct sim_roce_ud u;
	u32 len;

	for (len = 0; len < sizeof(rt_ref); len++)
		KUNIT_EXPECT_NE_MSG(test, rt_parse(test, rt_ref, len, &u),
				    SIM_ROCE_OK, "length %u", len);
}

/* What rt_ref is with byte @at XORed with @x. */
static enum sim_roce_verdict rt_bent(struct kunit *test, u32 at, u8 x)
{
	u8 f[sizeof(rt_ref)];
	struct sim_roce_ud u;

	memcpy(f, rt_ref, sizeof(f));
	f[at] ^= x;
	return rt_parse(test, f, sizeof(f), &u);
}

static void rt_refused(struct kunit *test)
{
	/* the last ICRC byte, a payload byte, the destination QP */
	KUNIT_EXPECT_EQ(test, rt_bent(test, sizeof(rt_ref) - 1, 1),
			SIM_ROCE_BAD_ICRC);
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_PAYLOAD, 0x20),
			SIM_ROCE_BAD_ICRC);
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_BTH + 7, 1), SIM_ROCE_BAD_ICRC);
	/* masked fields: the UDP checksum and the BTH's byte 4 */
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_L3 + 20 + 6, 0x12),
			SIM_ROCE_OK);
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_BTH + 4, 0xc0), SIM_ROCE_OK);
	/* the IPv4 checksum, the UDP length, the BTH version */
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_L3 + 10, 1),
			SIM_ROCE_MALFORMED);
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_L3 + 20 + 5, 4),
			SIM_ROCE_MALFORMED);
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_BTH + 1, 1),
			SIM_ROCE_MALFORMED);
	/* another UDP port, another ethertype: not RoCE v2 */
	KUNIT_EXPECT_EQ(test, rt_bent(test, RT_L3 + 20 + 3, 1), SIM_ROCE_NOT);
	KUNIT_EXPECT_EQ(test, rt_bent(test, 12, 0x80), SIM_ROCE_NOT);
}

static void rt_other_transport(struct kunit *test)
{
	u8 f[sizeof(rt_ref) + 8] = {};
	struct sim_roce_ud u;
	u32 hdr, len;

	rt_v4(&u);
	hdr = sim_roce_ud_build(&u, f);
	f[RT_BTH] = 0x04;	/* RC SEND only */
	len = sim_roce_ud_seal(f, hdr + 12);
	KUNIT_EXPECT_EQ(test, rt_parse(test, f, len, &u), SIM_ROCE_OTHER);
	KUNIT_EXPECT_EQ(test, u.dqpn, 5);
}

static void rt_v6_pad_imm(struct kunit *test)
{
	u8 f[SIM_ROCE_UD_HDR_MAX + 8] = {};
	struct sim_roce_ud u, back;
	u32 hdr, len;

	rt_v4(&u);
	u.v4 = false;
	memset(u.sgid, 0, 16);
	memset(u.dgid, 0, 16);
	u.sgid[0] = 0xfe;
	u.sgid[1] = 0x80;
	memcpy(u.dgid, u.sgid, 15);
	u.sgid[15] = 1;
	u.dgid[15] = 2;
	u.tclass = 0x28;
	u.flow_label = 0xabcde;
	u.opcode = SIM_ROCE_UD_SEND_IMM;
	u.se = true;
	u.imm = cpu_to_be32(0xdeadbeef);
	u.len = 3;
	hdr = sim_roce_ud_build(&u, f);
	KUNIT_EXPECT_EQ(test, hdr, 14 + 40 + 8 + 12 + 8 + 4);
	memcpy(f + hdr, "abc", 3);
	len = sim_roce_ud_seal(f, hdr + 3);
	KUNIT_EXPECT_EQ(test, len, hdr + 3 + 1 + 4);
	KUNIT_EXPECT_EQ(test, f[14 + 40 + 8 + 1], 0x80 | 1 << 4);
	KUNIT_ASSERT_EQ(test, rt_parse(test, f, len, &back), SIM_ROCE_OK);
	KUNIT_EXPECT_FALSE(test, back.v4);
	KUNIT_EXPECT_EQ(test, back.len, 3);
	KUNIT_EXPECT_TRUE(test, back.se);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.imm), 0xdeadbeef);
	KUNIT_EXPECT_EQ(test, back.tclass, 0x28);
	KUNIT_EXPECT_EQ(test, back.flow_label, 0xabcde);
	KUNIT_EXPECT_EQ(test, memcmp(back.sgid, u.sgid, 16), 0);
	/* the traffic class and flow label are masked from the ICRC */
	f[15] ^= 0xff;
	KUNIT_EXPECT_EQ(test, rt_parse(test, f, len, &back), SIM_ROCE_OK);
	/* the payload length is not */
	f[14 + 5] ^= 4;
	KUNIT_EXPECT_NE(test, rt_parse(test, f, len, &back), SIM_ROCE_OK);
}

static u32 rt_be16(const u8 *p)
{
	return p[0] << 8 | p[1];
}

static u32 rt_be32(const u8 *p)
{
	return rt_be16(p) << 16 | rt_be16(p + 2);
}

/* RoCE v1 (IBTA A16) under an 802.1Q tag: Ethertype 0x8915, the GRH */
static void rt_v1_tagged(struct kunit *test)
{
	u8 f[SIM_ROCE_UD_HDR_MAX + 8] = {};
	struct sim_roce_ud u, back;
	u32 hdr, len;

	rt_v4(&u);
	u.v1 = true;
	u.tagged = true;
	u.vlan = 5 << 13 | 77;
	u.tclass = 0x28;
	u.len = 3;
	hdr = sim_roce_ud_build(&u, f);
	KUNIT_EXPECT_EQ(test, hdr, 14 + 4 + 40 + 12 + 8);
	KUNIT_EXPECT_EQ(test, rt_be16(f + 12), 0x8100);
	KUNIT_EXPECT_EQ(test, rt_be16(f + 14), 5 << 13 | 77);
	KUNIT_EXPECT_EQ(test, rt_be16(f + 16), 0x8915);
	KUNIT_EXPECT_EQ(test, rt_be32(f + 18), 6U << 28 | 0x28 << 20);
	/* payload length: BTH, DETH, payload, pad, ICRC */
	KUNIT_EXPECT_EQ(test, rt_be16(f + 22), 12 + 8 + 4 + 4);
	KUNIT_EXPECT_EQ(test, f[24], 0x1b);
	KUNIT_EXPECT_EQ(test, f[25], 64);
	KUNIT_EXPECT_EQ(test, memcmp(f + 26, u.sgid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(f + 42, u.dgid, 16), 0);
	KUNIT_EXPECT_EQ(test, f[58], SIM_ROCE_UD_SEND);
	memcpy(f + hdr, "abc", 3);
	len = sim_roce_ud_seal(f, hdr + 3);
	KUNIT_EXPECT_EQ(test, len, hdr + 3 + 1 + 4);
	KUNIT_ASSERT_EQ(test, rt_parse(test, f, len, &back), SIM_ROCE_OK);
	KUNIT_EXPECT_TRUE(test, back.v1);
	KUNIT_EXPECT_FALSE(test, back.v4);
	KUNIT_EXPECT_TRUE(test, back.tagged);
	KUNIT_EXPECT_EQ(test, back.vlan, 5 << 13 | 77);
	KUNIT_EXPECT_EQ(test, back.len, 3);
	KUNIT_EXPECT_EQ(test, back.qkey, u.qkey);
	KUNIT_EXPECT_EQ(test, memcmp(back.dgid, u.dgid, 16), 0);
	/* the tag is not in the ICRC; the GRH's traffic class is masked */
	f[15] ^= 0x0f;
	f[18] ^= 0x0f;
	KUNIT_EXPECT_EQ(test, rt_parse(test, f, len, &back), SIM_ROCE_OK);
	/* the next header is: another is no RoCE v1 */
	f[24] = 0x11;
	KUNIT_EXPECT_EQ(test, rt_parse(test, f, len, &back), SIM_ROCE_NOT);
	f[24] = 0x1b;
	/* the GIDs are covered */
	f[57] ^= 1;
	KUNIT_EXPECT_EQ(test, rt_parse(test, f, len, &back), SIM_ROCE_BAD_ICRC);
}

static void rt_sport(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sim_roce_sport(0), 0xc000);
	KUNIT_EXPECT_EQ(test, sim_roce_sport(0x3fff), 0xffff);
	KUNIT_EXPECT_EQ(test, sim_roce_sport(0xfc000), 0xc03f);
	KUNIT_EXPECT_EQ(test, sim_roce_sport(0xfffff), 0xffc0);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE(rt_build_v4),
	KUNIT_CASE(rt_parse_v4),
	KUNIT_CASE(rt_truncated),
	KUNIT_CASE(rt_refused),
	KUNIT_CASE(rt_other_transport),
	KUNIT_CASE(rt_v6_pad_imm),
	KUNIT_CASE(rt_v1_tagged),
	KUNIT_CASE(rt_sport),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "mlx5x_sim_roce",
	.test_cases = rt_cases,
};

kunit_test_suite(rt_suite);
