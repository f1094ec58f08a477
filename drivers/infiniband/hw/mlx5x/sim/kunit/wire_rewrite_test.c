// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: a frame from the wire that rules rewrite on its way to the
 * port's default (dp/dp_wire.c, mlx5x_sim_wire_rx_rewrite()): the host's
 * stack gets the rewritten bytes, with the IPv4 and TCP checksums
 * carried along as a ConnectX recomputes them (classify_pkt.c); a frame
 * the rules leave alone goes up as it came; one they drop does not.
 */
#include <linux/etherdevice.h>
#include "sk_fs.h"
#include "../steering/classify.h"
#include "../dp/datapath.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "../dp/dp_priv.h"

#define RX	MLX5_FLOW_TABLE_TYPE_NIC_RX
#define A_FWD	MLX5_FLOW_CONTEXT_ACTION_FWD_DEST
#define A_DROP	MLX5_FLOW_CONTEXT_ACTION_DROP
#define A_MOD	MLX5_FLOW_CONTEXT_ACTION_MOD_HDR
#define DEST_FT	MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE
#define WR_LEN	64		/* Ethernet, IPv4, TCP, 10 bytes of data */
#define WR_IP	ETH_HLEN
#define WR_TCP	(WR_IP + 20)

static u32 wr_sum(const u8 *b, unsigned int n, u32 s)
{
	unsigned int i;

	for (i = 0; i + 1 < n; i += 2)
		s += (u32)b[i] << 8 | b[i + 1];
	if (n & 1)
		s += (u32)b[n - 1] << 8;
	return s;
}

static u16 wr_fold(u32 s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

/* The IPv4 header's sum, and the TCP segment's with its pseudo header. */
static u16 wr_ip_sum(const u8 *f)
{
	return wr_fold(wr_sum(f + WR_IP, 20, 0));
}

static u16 wr_tcp_sum(const u8 *f)
{
	u32 s = wr_sum(f + WR_IP + 12, 8, 0) + 6 + (WR_LEN - WR_TCP);

	return wr_fold(wr_sum(f + WR_TCP, WR_LEN - WR_TCP, s));
}

static void wr_put16(u8 *b, u16 v)
{
	b[0] = v >> 8;
	b[1] = v & 0xff;
}

/* Ethernet + IPv4 + TCP to @dport, TTL 64, both checksums right. */
static void wr_frame(u8 *f, u16 dport)
{
	static const u8 hdr[WR_TCP + 20] = {
		0x02, 0, 0, 0, 0, 0x01,  0x02, 0, 0, 0, 0, 0x02,  0x08, 0x00,
		0x45, 0, 0, WR_LEN - WR_IP, 0x12, 0x34, 0x40, 0, 64, 6, 0, 0,
		10, 0, 0, 1,  10, 0, 0, 2,
		0x30, 0x39, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02,
		0xff, 0xff, 0, 0, 0, 0,
	};

	memset(f, 0xa5, WR_LEN);
	memcpy(f, hdr, sizeof(hdr));
	wr_put16(f + WR_TCP + 2, dport);
	wr_put16(f + WR_IP + 10, ~wr_ip_sum(f));
	wr_put16(f + WR_TCP + 16, ~wr_tcp_sum(f));
}

/*
 * The root table: TCP port 80 rewritten to 443 and TTL 63, then on to
 * an empty table whose miss is the port's default; port 82 dropped.
 */
struct wr_tables {
	u32 t0, t1, g0, mh;
};

static void wr_build(struct kunit *test, struct wr_tables *t)
{
	static const struct sk_mh_act acts[] = {
		{ .type = MLX5_ACTION_TYPE_SET, .length = 16, .data = 443,
		  .field = MLX5_ACTION_IN_FIELD_OUT_TCP_DPORT },
		{ .type = MLX5_ACTION_TYPE_SET, .length = 8, .data = 63,
		  .field = MLX5_ACTION_IN_FIELD_OUT_IP_TTL },
	};
	struct sk_fte e;

	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 0, 4, 0, &t->t0),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_create(test, 0, RX, 1, 4, 0, &t->t1),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_fg_create_dport(test, 0, RX, t->t0, 0, 7,
						 &t->g0), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_modhdr_alloc(test, 0, RX, ARRAY_SIZE(acts),
					      acts, 0, &t->mh), PRM_STAT_OK);
	e = (struct sk_fte){ .type = RX, .ft = t->t0, .fg = t->g0,
			     .index = 0, .dport = 80, .action = A_FWD | A_MOD,
			     .modhdr = t->mh, .ndest = 1,
			     .dest_type = { DEST_FT }, .dest = { t->t1 } };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	e = (struct sk_fte){ .type = RX, .ft = t->t0, .fg = t->g0,
			     .index = 1, .dport = 82, .action = A_DROP };
	KUNIT_ASSERT_EQ(test, sk_fte_set(test, &e), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_ft_root(test, 0, 0, RX, t->t0), PRM_STAT_OK);
}

static void wr_free(struct kunit *test, struct wr_tables *t)
{
	KUNIT_EXPECT_EQ(test, sk_ft_root(test, 0, 1, RX, 0), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t->t0, 0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fte_delete(test, 0, RX, t->t0, 1),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_fg_destroy(test, 0, RX, t->t0, t->g0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, t->t0), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_ft_destroy(test, 0, RX, t->t1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_modhdr_free(test, 0, t->mh), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static struct sim_wire *wr_wire(struct kunit *test)
{
	return &sk_sim(test)->dp->wire;
}

/* The stack gets the rewritten frame, its checksums still right. */
static void wr_rewritten(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 *f = kunit_kzalloc(test, MLX5X_SIM_WIRE_MAX, GFP_KERNEL);
	u8 orig[WR_LEN];
	unsigned int len = WR_LEN;
	struct wr_tables t;

	KUNIT_ASSERT_NOT_NULL(test, f);
	wr_build(test, &t);
	wr_frame(f, 80);
	memcpy(orig, f, WR_LEN);
	KUNIT_EXPECT_EQ(test, wr_ip_sum(f), 0xffff);
	KUNIT_EXPECT_EQ(test, wr_tcp_sum(f), 0xffff);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx_rewrite(sim, f, &len,
							MLX5X_SIM_WIRE_MAX),
			MLX5X_SIM_WIRE_REWRITTEN);
	KUNIT_EXPECT_EQ(test, len, WR_LEN);
	KUNIT_EXPECT_EQ(test, f[WR_TCP + 2] << 8 | f[WR_TCP + 3], 443);
	KUNIT_EXPECT_EQ(test, f[WR_IP + 8], 63);
	KUNIT_EXPECT_EQ(test, wr_ip_sum(f), 0xffff);
	KUNIT_EXPECT_EQ(test, wr_tcp_sum(f), 0xffff);
	/* nothing else moved: addresses, sequence number, payload */
	KUNIT_EXPECT_EQ(test, memcmp(f, orig, WR_IP + 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(f + WR_IP + 12, orig + WR_IP + 12, 10),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(f + WR_TCP + 4, orig + WR_TCP + 4, 12),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(f + WR_TCP + 20, orig + WR_TCP + 20,
				     WR_LEN - WR_TCP - 20), 0);
	/* the plain call says the stack gets it, and leaves the bytes */
	memcpy(f, orig, WR_LEN);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, WR_LEN), 1);
	KUNIT_EXPECT_EQ(test, memcmp(f, orig, WR_LEN), 0);
	KUNIT_EXPECT_EQ(test, wr_wire(test)->rx_up, 2);
	KUNIT_EXPECT_EQ(test, wr_wire(test)->rx_up_rewritten, 1);
	wr_free(test, &t);
}

/* A wrong TCP checksum stays wrong, by as much: the update is relative. */
static void wr_bad_csum_stays(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 *f = kunit_kzalloc(test, MLX5X_SIM_WIRE_MAX, GFP_KERNEL);
	unsigned int len = WR_LEN;
	struct wr_tables t;

	KUNIT_ASSERT_NOT_NULL(test, f);
	wr_build(test, &t);
	wr_frame(f, 80);
	f[WR_TCP + 17] ^= 0x01;
	KUNIT_EXPECT_NE(test, wr_tcp_sum(f), 0xffff);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx_rewrite(sim, f, &len,
							MLX5X_SIM_WIRE_MAX),
			MLX5X_SIM_WIRE_REWRITTEN);
	KUNIT_EXPECT_EQ(test, wr_ip_sum(f), 0xffff);
	KUNIT_EXPECT_NE(test, wr_tcp_sum(f), 0xffff);
	wr_free(test, &t);
}

/*
 * A frame no rule rewrites goes up as it came (1, the bytes untouched);
 * one a rule drops does not go up (0); without room for the rewritten
 * bytes the frame is dropped, counted.
 */
static void wr_untouched_dropped(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 *f = kunit_kzalloc(test, MLX5X_SIM_WIRE_MAX, GFP_KERNEL);
	u8 orig[WR_LEN];
	unsigned int len = WR_LEN;
	struct wr_tables t;
	u64 dropped;

	KUNIT_ASSERT_NOT_NULL(test, f);
	wr_build(test, &t);
	wr_frame(f, 81);
	memcpy(orig, f, WR_LEN);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx_rewrite(sim, f, &len,
							MLX5X_SIM_WIRE_MAX), 1);
	KUNIT_EXPECT_EQ(test, len, WR_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(f, orig, WR_LEN), 0);
	wr_frame(f, 82);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx_rewrite(sim, f, &len,
							MLX5X_SIM_WIRE_MAX), 0);
	dropped = sim->dp->dropped;
	wr_frame(f, 80);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx_rewrite(sim, f, &len,
							WR_LEN - 1), 0);
	KUNIT_EXPECT_EQ(test, sim->dp->dropped, dropped + 1);
	KUNIT_EXPECT_EQ(test, wr_wire(test)->rx_up, 1);
	KUNIT_EXPECT_EQ(test, wr_wire(test)->rx_up_rewritten, 0);
	wr_free(test, &t);
}

static struct kunit_case wr_cases[] = {
	KUNIT_CASE(wr_rewritten),
	KUNIT_CASE(wr_bad_csum_stays),
	KUNIT_CASE(wr_untouched_dropped),
	{}
};

static struct kunit_suite wr_suite = {
	.name = "mlx5x_sim_wire_rewrite",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = wr_cases,
};

kunit_test_suite(wr_suite);
