// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the port's wire (dp/dp_wire.c) with no steering rule: what comes
 * in reaches the host's stack, refused lengths are counted and never
 * parsed; what leaves goes out on the wire, to the host's stack when it
 * is for the port's own address, and is dropped when no wire is set.
 */
#include <linux/etherdevice.h>
#include "sim_kunit.h"
#include "../steering/classify.h"
#include "../dp/datapath.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "../dp/dp_priv.h"

#define SW_MAX	8
#define SW_LEN	64

/* What the wire was handed, in order. */
struct sw_rec {
	unsigned int n;
	bool up[SW_MAX];
	unsigned int len[SW_MAX];
	u8 data[SW_MAX][SW_LEN];
};

static bool sw_fn(void *ctx, const void *frame, unsigned int len, bool up)
{
	struct sw_rec *r = ctx;

	if (r->n == SW_MAX)
		return false;
	r->up[r->n] = up;
	r->len[r->n] = len;
	memcpy(r->data[r->n], frame, min_t(unsigned int, len, SW_LEN));
	r->n++;
	return true;
}

/* A frame of SW_LEN bytes to @dmac, ethertype 0x88b5. */
static void sw_frame(u8 *f, const u8 *dmac)
{
	memset(f, 0x5a, SW_LEN);
	ether_addr_copy(f, dmac);
	ether_addr_copy(f + ETH_ALEN, sk_params.mac);
	f[12] = 0x88;
	f[13] = 0xb5;
}

static struct sim_wire *sw_wire(struct kunit *test)
{
	return &sk_sim(test)->dp->wire;
}

/*
 * Under an Ethernet header, or over MLX5X_SIM_WIRE_MAX: refused,
 * counted.  Over SIM_PKT_MAX (and not RoCE v2 to the port): past the
 * NIC's steering to the host's stack, as a ConnectX's netdev takes what
 * its MTU lets through, counted in rx_long.
 */
static void sw_rx_bad_length(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 *f = kunit_kzalloc(test, MLX5X_SIM_WIRE_MAX + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, ETH_HLEN - 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, SIM_PKT_MAX + 1), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, MLX5X_SIM_WIRE_MAX),
			1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f,
						MLX5X_SIM_WIRE_MAX + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->rx_bad, 3);
	KUNIT_EXPECT_EQ(test, atomic64_read(&sw_wire(test)->rx_long), 2);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->rx, 0);
}

/* No rule: every frame goes to the host's stack; short ones counted. */
static void sw_rx_default(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u8 f[SW_LEN];

	sw_frame(f, sk_params.mac);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, SW_LEN), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, ETH_HLEN), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, ETH_ZLEN), 1);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->rx, 3);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->rx_up, 3);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->rx_short, 1);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->rx_bad, 0);
	KUNIT_EXPECT_EQ(test, sim->dp->rx_packets, 0);
}

/* Send a frame to @dmac as an SQ of transport domain 0 would. */
static void sw_send(struct kunit *test, const u8 *dmac, u8 *f)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_pkt *p;

	sw_frame(f, dmac);
	p = sim_dp_pkt(f, SW_LEN);
	KUNIT_ASSERT_NOT_NULL(test, p);
	mutex_lock(&sim->lock);
	sim_dp_wire(sim->dp, p, 0);
	mutex_unlock(&sim->lock);
}

/*
 * No rule: a frame to another MAC goes out as sent; one to the port's
 * own MAC goes to the host's stack and not out; a broadcast goes out,
 * and not to the host's stack.
 */
static void sw_tx(struct kunit *test)
{
	static const u8 other[ETH_ALEN] = { 0x02, 0x77, 0, 0, 0, 2 };
	struct sw_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct mlx5x_sim *sim = sk_sim(test);
	u8 f[SW_LEN];

	KUNIT_ASSERT_NOT_NULL(test, r);
	mlx5x_sim_set_wire(sim, sw_fn, r);
	sw_send(test, other, f);
	KUNIT_ASSERT_EQ(test, r->n, 1);
	KUNIT_EXPECT_FALSE(test, r->up[0]);
	KUNIT_EXPECT_EQ(test, r->len[0], SW_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(r->data[0], f, SW_LEN), 0);

	sw_send(test, sk_params.mac, f);
	KUNIT_ASSERT_EQ(test, r->n, 2);
	KUNIT_EXPECT_TRUE(test, r->up[1]);
	KUNIT_EXPECT_EQ(test, memcmp(r->data[1], f, SW_LEN), 0);

	sw_send(test, (const u8 *)"\xff\xff\xff\xff\xff\xff", f);
	KUNIT_ASSERT_EQ(test, r->n, 3);
	KUNIT_EXPECT_FALSE(test, r->up[2]);
	KUNIT_EXPECT_EQ(test, memcmp(r->data[2], f, SW_LEN), 0);

	KUNIT_EXPECT_EQ(test, sw_wire(test)->tx, 2);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->tx_up, 1);
	KUNIT_EXPECT_EQ(test, sim->dp->dropped, 0);
	mlx5x_sim_set_wire(sim, NULL, NULL);
}

/* No wire: what would go out, or up, is dropped and counted. */
static void sw_tx_no_wire(struct kunit *test)
{
	static const u8 other[ETH_ALEN] = { 0x02, 0x77, 0, 0, 0, 2 };
	struct sw_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct mlx5x_sim *sim = sk_sim(test);
	u8 f[SW_LEN];

	KUNIT_ASSERT_NOT_NULL(test, r);
	mlx5x_sim_set_wire(sim, sw_fn, r);
	mlx5x_sim_set_wire(sim, NULL, NULL);
	sw_send(test, other, f);
	sw_send(test, sk_params.mac, f);
	KUNIT_EXPECT_EQ(test, r->n, 0);
	KUNIT_EXPECT_EQ(test, sim->dp->dropped, 2);
	KUNIT_EXPECT_EQ(test, sw_wire(test)->tx, 0);
}

static struct kunit_case sw_cases[] = {
	KUNIT_CASE(sw_rx_bad_length),
	KUNIT_CASE(sw_rx_default),
	KUNIT_CASE(sw_tx),
	KUNIT_CASE(sw_tx_no_wire),
	{}
};

static struct kunit_suite sw_suite = {
	.name = "mlx5x_sim_wire",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sw_cases,
};

kunit_test_suite(sw_suite);
