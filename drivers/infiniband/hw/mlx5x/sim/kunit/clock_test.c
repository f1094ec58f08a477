// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the device's free-running clock: a 1 GHz counter from
 * the model's creation, which CQEs carry big endian in their timestamp
 * field.
 */
#include <linux/delay.h>
#include <linux/timekeeping.h>
#include "sim_kunit.h"
#include "../queues/queues.h"
#include "../dp/datapath.h"
#include "../dp/wqe.h"
#include "../dp/dp_priv.h"

static u64 sk_clock_cqe(struct kunit *test, u8 opcode)
{
	struct sim_cqe_info info = { .opcode = opcode, .qpn = 7 };
	u8 cqe[64];
	__be64 ts;

	sim_cqe_fill(cqe, &info, true);
	sim_cqe_stamp(cqe, mlx5x_sim_clock_ns(sk_sim(test)));
	KUNIT_EXPECT_EQ(test, cqe[63], opcode << 4 | 1);
	memcpy(&ts, cqe + offsetof(struct sim_cqe, timestamp), sizeof(ts));
	return be64_to_cpu(ts);
}

/* Two CQEs 20 ms apart: their timestamps as far apart as ktime says. */
static void sk_clock_tracks_ktime(struct kunit *test)
{
	u64 k0, k1, t0, t1;

	k0 = ktime_get_ns();
	t0 = sk_clock_cqe(test, SIM_CQE_REQ);
	msleep(20);
	t1 = sk_clock_cqe(test, SIM_CQE_RESP_SEND);
	k1 = ktime_get_ns();
	KUNIT_EXPECT_GT(test, t0, 0);
	KUNIT_EXPECT_GE(test, t1 - t0, 20 * NSEC_PER_MSEC);
	KUNIT_EXPECT_LE(test, t1 - t0, k1 - k0);
	/* counted from the model's creation, not from boot */
	KUNIT_EXPECT_LT(test, t1, k1);
}

/* An error CQE has none: its syndromes are where a timestamp would be. */
static void sk_clock_err_cqe(struct kunit *test)
{
	struct sim_cqe_info info = {
		.opcode = SIM_CQE_REQ_ERR, .qpn = 0x42,
		.syndrome = SIM_CQE_SYND_LOCAL_PROT, .wqe_opcode = 0x0a,
	};
	struct sim_err_cqe e;

	sim_cqe_fill((u8 *)&e, &info, false);
	sim_cqe_stamp((u8 *)&e, ~0ULL);
	KUNIT_EXPECT_EQ(test, e.syndrome, SIM_CQE_SYND_LOCAL_PROT);
	KUNIT_EXPECT_EQ(test, e.vendor_err_synd, 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(e.rsvd1, 0, sizeof(e.rsvd1)));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(e.s_wqe_opcode_qpn),
			0x0a << 24 | 0x42);
	KUNIT_EXPECT_EQ(test, e.op_own, SIM_CQE_REQ_ERR << 4);
}

/*
 * The CQEs of one hold of the data path carry one reading of the clock,
 * taken by the first; the next hold reads it again, later; outside a
 * hold each CQE reads it.
 */
static void sk_clock_one_per_hold(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u64 a, b, c, d, e;

	mutex_lock(&sim->lock);
	sim_dp_hold_begin(sim->dp);
	a = sim_dp_clock(sim);
	udelay(100);
	b = sim_dp_clock(sim);
	sim_dp_hold_end(sim->dp);
	udelay(100);
	c = sim_dp_clock(sim);
	udelay(100);
	d = sim_dp_clock(sim);
	sim_dp_hold_begin(sim->dp);
	e = sim_dp_clock(sim);
	sim_dp_hold_end(sim->dp);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_GT(test, a, 0);
	KUNIT_EXPECT_EQ(test, a, b);
	KUNIT_EXPECT_GE(test, c, b + 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_GE(test, d, c + 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_GE(test, e, d);
	KUNIT_EXPECT_LE(test, e, mlx5x_sim_clock_ns(sim));
}

static struct kunit_case sk_clock_cases[] = {
	KUNIT_CASE(sk_clock_tracks_ktime),
	KUNIT_CASE(sk_clock_err_cqe),
	KUNIT_CASE(sk_clock_one_per_hold),
	{}
};

static struct kunit_suite sk_clock_suite = {
	.name = "mlx5x_sim_clock",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_clock_cases,
};

kunit_test_suite(sk_clock_suite);
