// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: RoCE v2 frames from the wire (dp/dp_ud_wire.c), each handed in
 * from a buffer of exactly its length.  One to a RoCE v2 address of the
 * port is the RDMA engine's, never the host's: a bad ICRC, a frame cut
 * short, a transport the port has not (RD), and a datagram or an RC
 * packet for a QP that does not exist are each counted in their figure
 * and dropped.  The same frame to
 * an address the port does not hold, or once its GID is gone, or to a
 * RoCE v1 entry's address, goes on to the NIC and the host's stack; so
 * does one of another VLAN than its entry's, or of another RoCE version.
 * The bad ICRCs are what PPCNT's rx_icrc_encapsulated reads (ACCESS_REG,
 * dp/dp_port_reg.c), which PCAM offers; the register is the kernel's to
 * read only.  A CNP (dp/dp_cong.c) to a QP of the port is counted as
 * ignored, to no QP dropped, cut short malformed; QUERY_CONG_STATISTICS
 * answers the counts, and only the kernel clears them.  The notification
 * point sends at most one CNP per QP every 4 us (min_time_between_cnps).
 */
#include <linux/etherdevice.h>
#include "sim_kunit.h"
#include "../steering/classify.h"
#include "../dp/datapath.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "../dp/dp_priv.h"
#include "../dp/dp_roce.h"
#include "sk_queues.h"

#define RW_MAX	128

static const u8 rw_gid[16] = {
	[10] = 0xff, [11] = 0xff, [12] = 192, [13] = 168, [14] = 91, [15] = 1,
};

/*
 * A UD SEND of 16 bytes to QP @dqpn at @dgid, RoCE v1 when @v1, with an
 * 802.1Q tag of @tci unless it is negative; returns its length.
 */
static u32 rw_frame_x(u8 *f, const u8 *dgid, u32 dqpn, u8 opcode, bool v1,
		      int tci)
{
	struct sim_roce_ud u = {
		.v4 = true, .hop_limit = 64, .sport = 0xc001,
		.opcode = opcode, .pkey = 0xffff, .dqpn = dqpn,
		.qkey = 0x1111, .sqpn = 0x22, .len = 16,
		.v1 = v1, .tagged = tci >= 0, .vlan = tci,
	};
	u32 hdr;

	memcpy(u.dmac, sk_params.mac, ETH_ALEN);
	eth_random_addr(u.smac);
	memcpy(u.dgid, dgid, 16);
	memcpy(u.sgid, dgid, 15);
	u.sgid[15] = 2;
	hdr = sim_roce_ud_build(&u, f);
	memset(f + hdr, 0x3c, u.len);
	return sim_roce_ud_seal(f, hdr + u.len);
}

static u32 rw_frame(u8 *f, const u8 *dgid, u32 dqpn, u8 opcode)
{
	return rw_frame_x(f, dgid, dqpn, opcode, false, -1);
}

/* Hand @len bytes of @f in, from a buffer of exactly that size. */
static int rw_rx(struct kunit *test, const u8 *f, u32 len)
{
	u8 *copy = kmemdup(f, len, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	ret = mlx5x_sim_wire_rx(sk_sim(test), copy, len);
	kfree(copy);
	return ret;
}

static void rw_set_gid(struct kunit *test, u8 version, bool valid)
{
	struct mlx5x_sim *sim = sk_sim(test);

	mutex_lock(&sim->lock);
	memcpy(sim->gids[5].gid, rw_gid, 16);
	sim->gids[5].version = version;
	sim->gids[5].l3_type = SIM_ROCE_L3_IPV4;
	sim->gids[5].valid = valid;
	mutex_unlock(&sim->lock);
}

static void rw_refused(struct kunit *test)
{
	struct sim_wire *w = &sk_sim(test)->dp->wire;
	u8 f[RW_MAX];
	u32 len, cut;

	rw_set_gid(test, SIM_ROCE_V2, true);
	len = rw_frame(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 0);
	KUNIT_EXPECT_EQ(test, w->roce_rx, 1);
	KUNIT_EXPECT_EQ(test, w->roce_dropped, 1);
	f[len - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 0);
	KUNIT_EXPECT_EQ(test, w->roce_bad_icrc, 1);
	f[len - 1] ^= 1;
	/* every cut that still shows UDP to 4791 is malformed */
	for (cut = ETH_HLEN + 20 + 8; cut < len; cut++)
		KUNIT_EXPECT_EQ(test, rw_rx(test, f, cut), 0);
	KUNIT_EXPECT_EQ(test, w->roce_malformed, len - (ETH_HLEN + 20 + 8));
	/* RC's SEND only, to no QP: dropped as a datagram to none is */
	len = rw_frame(f, rw_gid, 0xabcde, 0x04);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 0);
	KUNIT_EXPECT_EQ(test, w->roce_dropped, 2);
	KUNIT_EXPECT_EQ(test, w->roce_rx_rc, 0);
	/* RD's SEND only: a transport the port has not */
	len = rw_frame(f, rw_gid, 0xabcde, 0x44);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 0);
	KUNIT_EXPECT_EQ(test, w->roce_unsupported, 1);
	KUNIT_EXPECT_EQ(test, w->roce_rx_ud, 0);
	KUNIT_EXPECT_EQ(test, w->rx_up, 0);
	KUNIT_EXPECT_EQ(test, sk_sim(test)->dp->rx_packets, 0);
}

static void rw_not_the_port(struct kunit *test)
{
	struct sim_wire *w = &sk_sim(test)->dp->wire;
	u8 f[RW_MAX], other[16];
	u32 len;

	memcpy(other, rw_gid, 16);
	other[15] = 9;
	rw_set_gid(test, SIM_ROCE_V2, true);
	len = rw_frame(f, other, 0xabcde, SIM_ROCE_UD_SEND);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	len = rw_frame(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND);
	rw_set_gid(test, SIM_ROCE_V1, true);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	rw_set_gid(test, SIM_ROCE_V2, false);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	KUNIT_EXPECT_EQ(test, w->roce_rx, 0);
	KUNIT_EXPECT_EQ(test, w->rx_up, 3);
}

/* Entry 5's VLAN: @vid, or none when negative. */
static void rw_set_vlan(struct kunit *test, int vid)
{
	struct mlx5x_sim *sim = sk_sim(test);

	mutex_lock(&sim->lock);
	sim->gids[5].vlan_valid = vid >= 0;
	sim->gids[5].vlan_id = vid >= 0 ? vid : 0;
	mutex_unlock(&sim->lock);
}

/* A frame is the engine's only with its entry's VLAN and RoCE version. */
static void rw_vlan_version(struct kunit *test)
{
	struct sim_wire *w = &sk_sim(test)->dp->wire;
	u8 f[RW_MAX];
	u32 len;

	rw_set_gid(test, SIM_ROCE_V2, true);
	rw_set_vlan(test, 77);
	/* untagged, a priority tag (VLAN 0), another VLAN: the NIC's */
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, false, -1);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, false, 3 << 13);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, false, 78);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	KUNIT_EXPECT_EQ(test, w->roce_rx, 0);
	/* its VLAN, priority 5: the engine's; no such QP, dropped */
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, false,
			 5 << 13 | 77);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 0);
	KUNIT_EXPECT_EQ(test, w->roce_rx, 1);
	KUNIT_EXPECT_EQ(test, w->roce_dropped, 1);
	/* RoCE v1 to a v2 entry: the NIC's */
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, true, 77);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	/* a v1 entry on no VLAN: v1 untagged is the engine's, tagged not */
	rw_set_gid(test, SIM_ROCE_V1, true);
	rw_set_vlan(test, -1);
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, true, -1);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 0);
	KUNIT_EXPECT_EQ(test, w->roce_rx, 2);
	KUNIT_EXPECT_EQ(test, w->roce_dropped, 2);
	f[len - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 0);
	KUNIT_EXPECT_EQ(test, w->roce_bad_icrc, 1);
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, true, 77);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	len = rw_frame_x(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND, false, -1);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, len), 1);
	KUNIT_EXPECT_EQ(test, w->roce_rx, 3);
	KUNIT_EXPECT_EQ(test, w->roce_malformed, 0);
	KUNIT_EXPECT_EQ(test, w->rx_up, 6);
}

#define RW_REG_BYTES	(PRM_BYTES(access_register_in) + PRM_BYTES(ppcnt_reg))

/*
 * ACCESS_REG of register @id with @op_mod and @uid, its selectors in
 * @reg (@len bytes), the register's answer into @data; returns the status.
 */
static u8 rw_reg(struct kunit *test, u16 id, u16 op_mod, u16 uid,
		 const void *reg, void *data, size_t len)
{
	u8 *in = sk_mbox(test, RW_REG_BYTES);
	u8 *out = sk_mbox(test, RW_REG_BYTES);
	u8 st;

	PRM_SET(access_register_in, in, opcode, MLX5_CMD_OP_ACCESS_REG);
	PRM_SET(access_register_in, in, op_mod, op_mod);
	PRM_SET(access_register_in, in, register_id, id);
	/* the uid, where every command's header has it */
	in[2] = uid >> 8;
	in[3] = uid;
	memcpy(in + PRM_BYTES(access_register_in), reg, len);
	st = sk_exec(test, in, PRM_BYTES(access_register_in) + len, out,
		     PRM_BYTES(access_register_out) + len);
	memcpy(data, out + PRM_BYTES(access_register_out), len);
	return st;
}

/* PPCNT's Ethernet extended group, port @port, @clr: its ICRC count. */
static u64 rw_ppcnt(struct kunit *test, u8 port, u8 grp, bool clr, u8 *st)
{
	u8 *reg = sk_mbox(test, PRM_BYTES(ppcnt_reg));
	u8 *data = sk_mbox(test, PRM_BYTES(ppcnt_reg));

	PRM_SET(ppcnt_reg, reg, local_port, port);
	PRM_SET(ppcnt_reg, reg, grp, grp);
	PRM_SET(ppcnt_reg, reg, clr, clr);
	*st = rw_reg(test, PRM_REG_PPCNT, PRM_REG_READ, 0, reg, data,
		     PRM_BYTES(ppcnt_reg));
	return (u64)PRM_GET(ppcnt_reg, data,
			    PRM_PPCNT_EXT(rx_icrc_encapsulated_high)) << 32 |
	       PRM_GET(ppcnt_reg, data, PRM_PPCNT_EXT(rx_icrc_encapsulated_low));
}

static void rw_icrc_register(struct kunit *test)
{
	u8 *pcam = sk_mbox(test, PRM_BYTES(pcam_reg));
	u8 *reg = sk_mbox(test, PRM_BYTES(pcam_reg));
	u8 f[RW_MAX], st;
	u32 len;

	KUNIT_EXPECT_EQ(test, rw_reg(test, PRM_REG_PCAM, PRM_REG_READ, 0,
				     reg, pcam, PRM_BYTES(pcam_reg)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(pcam_reg, pcam, PRM_PCAM_ICRC_CNT), 1);
	rw_set_gid(test, SIM_ROCE_V2, true);
	len = rw_frame(f, rw_gid, 0xabcde, SIM_ROCE_UD_SEND);
	KUNIT_EXPECT_EQ(test, rw_ppcnt(test, 1, PRM_PPCNT_ETH_EXTENDED, false,
				       &st), 0);
	KUNIT_EXPECT_EQ(test, st, PRM_STAT_OK);
	/* a well-formed one is no ICRC error; two bad ones are */
	rw_rx(test, f, len);
	f[len - 2] ^= 8;
	rw_rx(test, f, len);
	rw_rx(test, f, len);
	KUNIT_EXPECT_EQ(test, rw_ppcnt(test, 1, PRM_PPCNT_ETH_EXTENDED, false,
				       &st), 2);
	/* clr: the answer, then nothing */
	KUNIT_EXPECT_EQ(test, rw_ppcnt(test, 1, PRM_PPCNT_ETH_EXTENDED, true,
				       &st), 2);
	KUNIT_EXPECT_EQ(test, rw_ppcnt(test, 1, PRM_PPCNT_ETH_EXTENDED, false,
				       &st), 0);
	KUNIT_EXPECT_EQ(test, sk_sim(test)->dp->wire.roce_bad_icrc, 2);
	/* another port or group: refused, nothing answered */
	rw_rx(test, f, len);
	KUNIT_EXPECT_EQ(test, rw_ppcnt(test, 2, PRM_PPCNT_ETH_EXTENDED, false,
				       &st), 0);
	KUNIT_EXPECT_EQ(test, st, PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, rw_ppcnt(test, 1, 0, false, &st), 0);
	KUNIT_EXPECT_EQ(test, st, PRM_STAT_BAD_PARAM);
	/* a write, a user's uid, another register: refused */
	KUNIT_EXPECT_EQ(test, rw_reg(test, PRM_REG_PCAM, 0, 0, reg, pcam,
				     PRM_BYTES(pcam_reg)), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, rw_reg(test, PRM_REG_PCAM, PRM_REG_READ, 1, reg,
				     pcam, PRM_BYTES(pcam_reg)),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, rw_reg(test, 0x5001, PRM_REG_READ, 0, reg, pcam,
				     PRM_BYTES(pcam_reg)), PRM_STAT_BAD_PARAM);
	/* a register's selectors cut short: refused */
	KUNIT_EXPECT_EQ(test, rw_reg(test, PRM_REG_PPCNT, PRM_REG_READ, 0, reg,
				     pcam, PRM_BYTES(pcam_reg)),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, rw_ppcnt(test, 1, PRM_PPCNT_ETH_EXTENDED, false,
				       &st), 1);
}

/* A CNP to QP @dqpn at @dgid with @len (<= 24) reserved bytes. */
static u32 rw_cnp_frame(u8 *f, const u8 *dgid, u32 dqpn, u32 len)
{
	static const u8 reserved[24];
	struct sim_roce_ud u = {
		.v4 = true, .hop_limit = 64, .sport = 0xc001,
		.opcode = SIM_ROCE_CNP, .pkey = 0xffff, .dqpn = dqpn,
	};

	memcpy(u.dmac, sk_params.mac, ETH_ALEN);
	eth_random_addr(u.smac);
	memcpy(u.dgid, dgid, 16);
	memcpy(u.sgid, dgid, 15);
	u.sgid[15] = 2;
	return sim_roce_ud_seal(f, sim_roce_build(&u, reserved, len, f));
}

/* QUERY_CONG_STATISTICS as @uid, @op_mod, @clear: its status. */
static u8 rw_cong(struct kunit *test, u16 uid, u16 op_mod, bool clear,
		  u64 *ignored, u64 *marked, u64 *sent)
{
	void *in = SK_MBOX(test, query_cong_statistics_in);
	void *out = SK_MBOX(test, query_cong_statistics_out);
	u8 st;

	PRM_SET(query_cong_statistics_in, in, opcode,
		MLX5_CMD_OP_QUERY_CONG_STATISTICS);
	PRM_SET(query_cong_statistics_in, in, op_mod, op_mod);
	PRM_SET(query_cong_statistics_in, in, clear, clear);
	((u8 *)in)[2] = uid >> 8;
	((u8 *)in)[3] = uid;
	st = sk_exec(test, in, PRM_BYTES(query_cong_statistics_in), out,
		     PRM_BYTES(query_cong_statistics_out));
#define RW_CONG(f) ((u64)PRM_GET(query_cong_statistics_out, out, f##_high) \
		    << 32 | PRM_GET(query_cong_statistics_out, out, f##_low))
	*ignored = RW_CONG(rp_cnp_ignored);
	*marked = RW_CONG(np_ecn_marked_roce_packets);
	*sent = RW_CONG(np_cnp_sent);
#undef RW_CONG
	KUNIT_EXPECT_EQ(test, ((u64)PRM_GET(query_cong_statistics_out, out,
					    rp_cnp_handled_high) << 32) |
			PRM_GET(query_cong_statistics_out, out,
				rp_cnp_handled_low), 0);
	return st;
}

/*
 * The spacing of CNPs, on given clock readings (two frames from the wire
 * come further apart than 4 us under TCG, so traffic cannot show it):
 * one per QP per 4 us, each QP on its own, a reading of 0 as good as any.
 */
static void rw_cnp_spacing(struct kunit *test)
{
	struct sim_qp *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct sim_qp *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	u64 t = 5 * NSEC_PER_SEC;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_TRUE(test, sim_cnp_due_at(a, t));
	KUNIT_EXPECT_FALSE(test, sim_cnp_due_at(a, t + 1));
	KUNIT_EXPECT_FALSE(test, sim_cnp_due_at(a, t + 3999));
	KUNIT_EXPECT_TRUE(test, sim_cnp_due_at(b, t + 3999));
	KUNIT_EXPECT_TRUE(test, sim_cnp_due_at(a, t + 4000));
	KUNIT_EXPECT_FALSE(test, sim_cnp_due_at(a, t + 7999));
	KUNIT_EXPECT_TRUE(test, sim_cnp_due_at(a, t + 8000));
	memset(b, 0, sizeof(*b));
	KUNIT_EXPECT_TRUE(test, sim_cnp_due_at(b, 0));
	KUNIT_EXPECT_FALSE(test, sim_cnp_due_at(b, 100));
}

static void rw_cnp(struct kunit *test)
{
	struct sim_wire *w = &sk_sim(test)->dp->wire;
	u64 ign, marked, sent;
	u8 f[RW_MAX];
	struct sk_q r;
	u32 cqn, qpn;

	KUNIT_EXPECT_EQ(test, SIM_CAP_GEN(sk_sim(test), cc_query_allowed), 1);
	rw_set_gid(test, SIM_ROCE_V2, true);
	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);
	/* to the QP, twice: ignored; to no QP: dropped; short: malformed */
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, rw_cnp_frame(f, rw_gid, qpn, 16)),
			0);
	KUNIT_EXPECT_EQ(test, rw_rx(test, f, rw_cnp_frame(f, rw_gid, qpn, 20)),
			0);
	KUNIT_EXPECT_EQ(test, w->rp_cnp_ignored, 2);
	rw_rx(test, f, rw_cnp_frame(f, rw_gid, qpn + 1000, 16));
	KUNIT_EXPECT_EQ(test, w->roce_dropped, 1);
	rw_rx(test, f, rw_cnp_frame(f, rw_gid, qpn, 12));
	KUNIT_EXPECT_EQ(test, w->roce_malformed, 1);
	KUNIT_EXPECT_EQ(test, w->rp_cnp_ignored, 2);
	KUNIT_EXPECT_EQ(test, w->np_cnp_sent, 0);
	/* the counts; a user's clear and another op_mod refused */
	KUNIT_EXPECT_EQ(test, rw_cong(test, r.uid, 0, false, &ign, &marked,
				      &sent), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, ign, 2);
	KUNIT_EXPECT_EQ(test, marked + sent, 0);
	KUNIT_EXPECT_EQ(test, rw_cong(test, r.uid, 0, true, &ign, &marked,
				      &sent), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, rw_cong(test, 0, 1, false, &ign, &marked,
				      &sent), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, w->rp_cnp_ignored, 2);
	/* the kernel's clear: the answer, then nothing */
	KUNIT_EXPECT_EQ(test, rw_cong(test, 0, 0, true, &ign, &marked, &sent),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, ign, 2);
	KUNIT_EXPECT_EQ(test, rw_cong(test, 0, 0, false, &ign, &marked,
				      &sent), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, ign, 0);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

static struct kunit_case rw_cases[] = {
	KUNIT_CASE(rw_refused),
	KUNIT_CASE(rw_not_the_port),
	KUNIT_CASE(rw_vlan_version),
	KUNIT_CASE(rw_icrc_register),
	KUNIT_CASE(rw_cnp),
	KUNIT_CASE(rw_cnp_spacing),
	{}
};

static struct kunit_suite rw_suite = {
	.name = "mlx5x_sim_roce_wire",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = rw_cases,
};

kunit_test_suite(rw_suite);
