// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the port's link and its vport counters (dp/dp_vport.c).  While
 * the link is down nothing crosses the wire either way and the internal
 * loopback goes on; QUERY_VPORT_COUNTER counts what crossed, by
 * direction and kind, and only the kernel's uid clears it.
 */
#include <linux/etherdevice.h>
#include "sim_kunit.h"
#include "../steering/classify.h"
#include "../dp/datapath.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "../dp/dp_priv.h"

#define SL_LEN	64

static const u8 sl_other[ETH_ALEN] = { 0x02, 0x77, 0, 0, 0, 2 };

/* How many frames the wire was handed, and how many for the stack. */
struct sl_rec {
	unsigned int out, up;
};

static bool sl_fn(void *ctx, const void *frame, unsigned int len, bool up)
{
	struct sl_rec *r = ctx;

	if (up)
		r->up++;
	else
		r->out++;
	return true;
}

static void sl_frame(u8 *f, const u8 *dmac, const u8 *smac)
{
	memset(f, 0x3c, SL_LEN);
	ether_addr_copy(f, dmac);
	ether_addr_copy(f + ETH_ALEN, smac);
	f[12] = 0x88;
	f[13] = 0xb5;
}

/* Send a frame to @dmac as an SQ of transport domain 0 would. */
static void sl_send(struct kunit *test, const u8 *dmac)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_pkt *p;
	u8 f[SL_LEN];

	sl_frame(f, dmac, sk_params.mac);
	p = sim_dp_pkt(f, SL_LEN);
	KUNIT_ASSERT_NOT_NULL(test, p);
	mutex_lock(&sim->lock);
	sim_dp_wire(sim->dp, p, 0);
	mutex_unlock(&sim->lock);
}

static struct sim_wire *sl_wire(struct kunit *test)
{
	return &sk_sim(test)->dp->wire;
}

/*
 * Down: a frame for the wire is lost, one from it dropped unread (not
 * to the host's stack either); one to the port's own MAC still loops to
 * the stack.  Up again: frames cross.
 */
static void sl_down_up(struct kunit *test)
{
	struct sl_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct mlx5x_sim *sim = sk_sim(test);
	u8 f[SL_LEN];

	KUNIT_ASSERT_NOT_NULL(test, r);
	mlx5x_sim_set_wire(sim, sl_fn, r);
	mlx5x_sim_set_link(sim, false);
	mlx5x_sim_set_link(sim, false);
	KUNIT_EXPECT_EQ(test, sl_wire(test)->link_downs, 1);
	sl_send(test, sl_other);
	sl_send(test, sk_params.mac);
	KUNIT_EXPECT_EQ(test, r->out, 0);
	KUNIT_EXPECT_EQ(test, r->up, 1);
	KUNIT_EXPECT_EQ(test, sl_wire(test)->link_tx_lost, 1);
	sl_frame(f, sk_params.mac, sl_other);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, SL_LEN), 0);
	KUNIT_EXPECT_EQ(test, sl_wire(test)->link_rx_lost, 1);
	KUNIT_EXPECT_EQ(test, sl_wire(test)->rx, 0);

	mlx5x_sim_set_link(sim, true);
	sl_send(test, sl_other);
	KUNIT_EXPECT_EQ(test, r->out, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, SL_LEN), 1);
	KUNIT_EXPECT_EQ(test, sl_wire(test)->link_tx_lost, 1);
	KUNIT_EXPECT_EQ(test, sl_wire(test)->link_downs, 1);
	mlx5x_sim_set_wire(sim, NULL, NULL);
}

/* QUERY_VPORT_COUNTER with @uid, @clear; its status. */
static u8 sl_query(struct kunit *test, u16 uid, bool clear, void *out)
{
	void *in = SK_MBOX(test, query_vport_counter_in);

	PRM_SET(query_vport_counter_in, in, opcode,
		MLX5_CMD_OP_QUERY_VPORT_COUNTER);
	PRM_SET(query_vport_counter_in, in, port_num, 1);
	PRM_SET(query_vport_counter_in, in, clear, clear);
	prm_in_set_uid(in, uid);
	return sk_exec(test, in, PRM_BYTES(query_vport_counter_in), out,
		       PRM_BYTES(query_vport_counter_out));
}

#define SL_GET(out, fld)	PRM_GET64(query_vport_counter_out, out, fld)

/*
 * Two unicast frames and a broadcast sent, one received, one refused
 * unread: each in its counter, bytes too; what looped (to the port's own
 * MAC) and what was lost on a dead link nowhere.  A user reads them and
 * may not clear them; the kernel clears them.
 */
static void sl_counters(struct kunit *test)
{
	struct sl_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	void *out = SK_MBOX(test, query_vport_counter_out);
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid = sk_new_uctx(test);
	u8 f[SL_LEN];

	KUNIT_ASSERT_NOT_NULL(test, r);
	mlx5x_sim_set_wire(sim, sl_fn, r);
	sl_send(test, sl_other);
	sl_send(test, sl_other);
	sl_send(test, (const u8 *)"\xff\xff\xff\xff\xff\xff");
	sl_send(test, sk_params.mac);
	mlx5x_sim_set_link(sim, false);
	sl_send(test, sl_other);
	mlx5x_sim_set_link(sim, true);
	sl_frame(f, sk_params.mac, sl_other);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, SL_LEN), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_wire_rx(sim, f, ETH_HLEN - 1),
			-EINVAL);

	KUNIT_ASSERT_EQ(test, sl_query(test, uid, false, out), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, SL_GET(out, transmitted_eth_unicast.packets), 2);
	KUNIT_EXPECT_EQ(test, SL_GET(out, transmitted_eth_unicast.octets),
			2 * SL_LEN);
	KUNIT_EXPECT_EQ(test, SL_GET(out, transmitted_eth_broadcast.packets),
			1);
	KUNIT_EXPECT_EQ(test, SL_GET(out, received_eth_unicast.packets), 1);
	KUNIT_EXPECT_EQ(test, SL_GET(out, received_eth_unicast.octets),
			SL_LEN);
	KUNIT_EXPECT_EQ(test, SL_GET(out, received_errors.packets), 1);
	KUNIT_EXPECT_EQ(test, SL_GET(out, transmitted_ib_unicast.packets), 0);
	KUNIT_EXPECT_EQ(test, SL_GET(out, received_ib_unicast.packets), 0);
	KUNIT_EXPECT_EQ(test, SL_GET(out, transmit_errors.packets), 0);

	SK_EXPECT_FAIL(test, sl_query(test, uid, true, out),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	KUNIT_ASSERT_EQ(test, sl_query(test, 0, true, out), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, SL_GET(out, transmitted_eth_unicast.packets), 2);
	KUNIT_ASSERT_EQ(test, sl_query(test, 0, false, out), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, SL_GET(out, transmitted_eth_unicast.packets), 0);
	KUNIT_EXPECT_EQ(test, SL_GET(out, received_errors.packets), 0);
	mlx5x_sim_set_wire(sim, NULL, NULL);
}

/* Another vport, another port, another op_mod: refused. */
static void sl_query_refused(struct kunit *test)
{
	void *out = SK_MBOX(test, query_vport_counter_out);
	void *in = SK_MBOX(test, query_vport_counter_in);
	size_t inlen = PRM_BYTES(query_vport_counter_in);
	size_t outlen = PRM_BYTES(query_vport_counter_out);

	PRM_SET(query_vport_counter_in, in, opcode,
		MLX5_CMD_OP_QUERY_VPORT_COUNTER);
	PRM_SET(query_vport_counter_in, in, other_vport, 1);
	PRM_SET(query_vport_counter_in, in, vport_number, 1);
	SK_EXPECT_FAIL(test, sk_exec(test, in, inlen, out, outlen),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(query_vport_counter_in, in, other_vport, 0);
	PRM_SET(query_vport_counter_in, in, vport_number, 0);
	PRM_SET(query_vport_counter_in, in, port_num, 2);
	SK_EXPECT_FAIL(test, sk_exec(test, in, inlen, out, outlen),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(query_vport_counter_in, in, port_num, 0);
	PRM_SET(query_vport_counter_in, in, op_mod, 1);
	SK_EXPECT_FAIL(test, sk_exec(test, in, inlen, out, outlen),
		       PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	PRM_SET(query_vport_counter_in, in, op_mod, 0);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_OK);
}

static struct kunit_case sl_cases[] = {
	KUNIT_CASE(sl_down_up),
	KUNIT_CASE(sl_counters),
	KUNIT_CASE(sl_query_refused),
	{}
};

static struct kunit_suite sl_suite = {
	.name = "mlx5x_sim_link",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sl_cases,
};

kunit_test_suite(sl_suite);
