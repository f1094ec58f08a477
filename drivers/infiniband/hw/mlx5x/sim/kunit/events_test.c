// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: events.  The entry the model hands the driver is laid out as the
 * PRM's 64-byte EQE (checked here byte by byte, not with the macros that
 * built it), each raise reaches the handler exactly once, the device
 * event capability page lists exactly what can be raised, and fw/
 * raise_event refuses what firmware could not raise.
 */
#include <linux/slab.h>
#include "sim_kunit.h"

#define SK_EV_MAX	4

/* What the handler saw. */
struct sk_ev_log {
	unsigned int n;
	u8 eqe[SK_EV_MAX][SIM_EQE_BYTES];
};

static struct sk_ev_log sk_ev_log;

static void sk_ev_handler(void *ctx, const void *eqe)
{
	struct sk_ev_log *log = ctx;

	if (log->n < SK_EV_MAX)
		memcpy(log->eqe[log->n], eqe, SIM_EQE_BYTES);
	log->n++;
}

static int sk_ev_init(struct kunit *test)
{
	int err = sk_init(test);

	if (err)
		return err;
	memset(&sk_ev_log, 0, sizeof(sk_ev_log));
	mlx5x_sim_set_event_handler(sk_sim(test), sk_ev_handler, &sk_ev_log);
	return 0;
}

/* An object of a kind no command creates yet, owned by @uid. */
static u32 sk_ev_obj(struct kunit *test, enum sim_obj_type kind, u16 uid)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cmd_ctx ctx = { .uid = uid };
	struct sim_obj *obj;
	u8 status;

	mutex_lock(&sim->lock);
	status = sim_obj_alloc(sim, &ctx, kind, &obj);
	mutex_unlock(&sim->lock);
	KUNIT_ASSERT_EQ(test, status, PRM_STAT_OK);
	return obj->id;
}

static void sk_ev_obj_del(struct kunit *test, enum sim_obj_type kind,
			  u16 uid, u32 id)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cmd_ctx ctx = { .uid = uid };
	u8 status;

	mutex_lock(&sim->lock);
	status = sim_obj_destroy(sim, &ctx, kind, id);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, status, PRM_STAT_OK);
}

static u64 sk_ev_count(struct kunit *test)
{
	return sk_sim(test)->events;
}

/* Byte offsets in the EQE: type, sub type, then event_data at byte 32. */
#define EQE_TYPE	1
#define EQE_SUB_TYPE	3
#define EQE_DATA	32

static void sk_put24(u8 *p, u32 v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

/* Raise and expect exactly this entry, once. */
static void sk_ev_expect(struct kunit *test, const char *line,
			 const u8 *want)
{
	char buf[64];
	u64 before = sk_ev_count(test);

	sk_ev_log.n = 0;
	strscpy(buf, line, sizeof(buf));
	KUNIT_ASSERT_EQ_MSG(test, sim_event_knob(sk_sim(test), buf), 0, "%s",
			    line);
	KUNIT_ASSERT_EQ_MSG(test, sk_ev_log.n, 1U, "%s", line);
	KUNIT_EXPECT_EQ(test, sk_ev_count(test), before + 1);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(sk_ev_log.eqe[0], want,
					 SIM_EQE_BYTES), 0, "%s", line);
	if (memcmp(sk_ev_log.eqe[0], want, SIM_EQE_BYTES))
		print_hex_dump(KERN_INFO, "got: ", DUMP_PREFIX_OFFSET, 16, 1,
			       sk_ev_log.eqe[0], SIM_EQE_BYTES, false);
}

/* CQ error: cqn in the data's first dword, syndrome (overrun) at byte 11. */
static void sk_ev_cq_error(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	u32 cqn = sk_ev_obj(test, SIM_OBJ_CQ, uid);
	u8 want[SIM_EQE_BYTES] = {};
	char line[32];

	want[EQE_TYPE] = 0x04;
	sk_put24(&want[EQE_DATA + 1], cqn);
	want[EQE_DATA + 11] = 0x01;
	snprintf(line, sizeof(line), "0x04 cq %u", cqn);
	sk_ev_expect(test, line, want);
	sk_ev_obj_del(test, SIM_OBJ_CQ, uid, cqn);
}

/* Completion: cq_number at data bytes 25-27. */
static void sk_ev_comp(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	u32 cqn = sk_ev_obj(test, SIM_OBJ_CQ, uid);
	u8 want[SIM_EQE_BYTES] = {};
	char line[32];

	sk_put24(&want[EQE_DATA + 25], cqn);
	snprintf(line, sizeof(line), "0 cq 0x%x", cqn);
	sk_ev_expect(test, line, want);
	sk_ev_obj_del(test, SIM_OBJ_CQ, uid, cqn);
}

/* QP/RQ/SQ events: queue type at data byte 20, number at bytes 25-27. */
static void sk_ev_queue(struct kunit *test)
{
	static const struct {
		enum sim_obj_type kind;
		const char *name;
		u8 type;
		u8 qtype;
	} cases[] = {
		{ SIM_OBJ_QP, "qp", 0x05, 0 },	/* WQ_CATAS_ERROR */
		{ SIM_OBJ_RQ, "rq", 0x05, 1 },
		{ SIM_OBJ_SQ, "sq", 0x03, 2 },	/* SQ_DRAINED */
		{ SIM_OBJ_QP, "qp", 0x01, 0 },	/* PATH_MIG */
		{ SIM_OBJ_QP, "qp", 0x02, 0 },	/* COMM_EST */
		{ SIM_OBJ_QP, "qp", 0x07, 0 },	/* PATH_MIG_FAILED */
		{ SIM_OBJ_QP, "qp", 0x10, 0 },	/* WQ_INVAL_REQ_ERROR */
		{ SIM_OBJ_SQ, "sq", 0x11, 2 },	/* WQ_ACCESS_ERROR */
		{ SIM_OBJ_QP, "qp", 0x13, 0 },	/* SRQ_LAST_WQE */
	};
	u16 uid = sk_new_uctx(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 id = sk_ev_obj(test, cases[i].kind, uid);
		u8 want[SIM_EQE_BYTES] = {};
		char line[32];

		want[EQE_TYPE] = cases[i].type;
		want[EQE_DATA + 20] = cases[i].qtype;
		sk_put24(&want[EQE_DATA + 25], id);
		snprintf(line, sizeof(line), "%u %s %u", cases[i].type,
			 cases[i].name, id);
		sk_ev_expect(test, line, want);
		sk_ev_obj_del(test, cases[i].kind, uid, id);
	}
}

/* Port change: sub type DOWN (1) or ACTIVE (4); port 1 in the top nibble. */
static void sk_ev_port_change(struct kunit *test)
{
	u8 want[SIM_EQE_BYTES] = {};

	want[EQE_TYPE] = 0x09;
	want[EQE_SUB_TYPE] = 4;
	want[EQE_DATA + 8] = 0x10;
	sk_ev_expect(test, "0x9 4\n", want);
	want[EQE_SUB_TYPE] = 1;
	sk_ev_expect(test, " 9\t1 ", want);

	sk_ev_log.n = 0;
	mlx5x_sim_port_change(sk_sim(test), false);
	KUNIT_ASSERT_EQ(test, sk_ev_log.n, 1U);
	KUNIT_EXPECT_EQ(test, memcmp(sk_ev_log.eqe[0], want, SIM_EQE_BYTES),
			0);
	mlx5x_sim_port_change(sk_sim(test), true);
	KUNIT_ASSERT_EQ(test, sk_ev_log.n, 2U);
	KUNIT_EXPECT_EQ(test, sk_ev_log.eqe[1][EQE_SUB_TYPE], 4);
}

/* Without a handler events are still raised and counted, then dropped. */
static void sk_ev_no_handler(struct kunit *test)
{
	u64 before = sk_ev_count(test);
	char buf[] = "0x9 1";

	mlx5x_sim_set_event_handler(sk_sim(test), NULL, NULL);
	KUNIT_EXPECT_EQ(test, sim_event_knob(sk_sim(test), buf), 0);
	KUNIT_EXPECT_EQ(test, sk_ev_log.n, 0U);
	KUNIT_EXPECT_EQ(test, sk_ev_count(test), before + 1);
}

/* Refused lines raise nothing and count nothing. */
static void sk_ev_refused(struct kunit *test)
{
	static const struct {
		const char *fmt;
		int err;
	} cases[] = {
		{ "", -EINVAL },
		{ " \t ", -EINVAL },
		{ "zz", -EINVAL },
		{ "0x9 zz", -EINVAL },
		{ "0x06", -EINVAL },		/* not an event it raises */
		{ "0x08", -EINVAL },
		{ "0xff", -EINVAL },
		{ "0x109 4", -EINVAL },		/* no 9-bit event types */
		{ "-1", -EINVAL },
		{ "0x9", -EINVAL },		/* port change needs a sub type */
		{ "0x9 2", -EINVAL },		/* not a sub type it raises */
		{ "0x9 99", -EINVAL },
		{ "0x9 4 cq %u", -EINVAL },	/* unaffiliated, with object */
		{ "0x04", -EINVAL },		/* affiliated, no object */
		{ "0x04 cq", -EINVAL },
		{ "0x04 cq x", -EINVAL },
		{ "0x04 bogus %u", -EINVAL },
		{ "0x04 qp %u", -EINVAL },	/* CQ error names a CQ */
		{ "0x01 rq %u", -EINVAL },	/* path migration: QPs only */
		{ "0x03 rq %u", -EINVAL },	/* SQ drained: not an RQ */
		{ "0x04 1 cq %u", -EINVAL },	/* CQ error has no sub type */
		{ "0x04 cq 0x%x", -ENOENT },	/* no such CQ */
		{ "0x04 cq 0", -ENOENT },
		{ "0x04 cq 0xffffffff", -ENOENT },
		{ "0x04 cq 0x100000000", -EINVAL },
		{ "0x9 4 1 2 3", -EINVAL },	/* too many words */
		{ "1 2 3 4 5 6", -EINVAL },
	};
	u16 uid = sk_new_uctx(test);
	u32 cqn = sk_ev_obj(test, SIM_OBJ_CQ, uid);
	u32 qpn = sk_ev_obj(test, SIM_OBJ_QP, uid);
	u64 before = sk_ev_count(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 id = cqn;
		char buf[64];

		/* name the CQ where a CQ is asked, its number + 1 for ENOENT */
		if (cases[i].err == -ENOENT)
			id++;
		snprintf(buf, sizeof(buf), cases[i].fmt, id);
		KUNIT_EXPECT_EQ_MSG(test, sim_event_knob(sk_sim(test), buf),
				    cases[i].err, "'%s'", buf);
	}
	KUNIT_EXPECT_EQ(test, sk_ev_log.n, 0U);
	KUNIT_EXPECT_EQ(test, sk_ev_count(test), before);
	/* a QP number that is a CQ's number too names the CQ for 0x04 */
	KUNIT_EXPECT_EQ(test, sim_event_raise(sk_sim(test), 0x04, 0, SIM_OBJ_QP,
					      qpn), -EINVAL);
	KUNIT_EXPECT_EQ(test, sim_event_raise(sk_sim(test), 0x04, 0,
					      SIM_OBJ_NTYPES, cqn), -EINVAL);
	KUNIT_EXPECT_EQ(test, sim_event_raise(sk_sim(test), 0x04, 32,
					      SIM_OBJ_CQ, cqn), -EINVAL);
	sk_ev_obj_del(test, SIM_OBJ_CQ, uid, cqn);
	sk_ev_obj_del(test, SIM_OBJ_QP, uid, qpn);
	/* a destroyed object raises nothing */
	KUNIT_EXPECT_EQ(test, sim_event_raise(sk_sim(test), 0x04, 0, SIM_OBJ_CQ,
					      cqn), -ENOENT);
	KUNIT_EXPECT_EQ(test, sk_ev_log.n, 0U);
}

static bool sk_mask_bit(const void *mask, unsigned int type)
{
	return prm_get_bits(mask, type / 64 * 64 + 63 - type % 64, 1);
}

/* Can @type be raised at all: unaffiliated with some sub type, or on
 * some kind's object?
 */
static bool sk_ev_raisable(struct kunit *test, unsigned int type,
			   const u32 *ids, bool affiliated)
{
	unsigned int sub, kind;

	if (!affiliated) {
		for (sub = 0; sub < 32; sub++)
			if (!sim_event_raise(sk_sim(test), type, sub, -1, 0))
				return true;
		return false;
	}
	for (kind = 0; kind < SIM_OBJ_NTYPES; kind++)
		if (ids[kind] &&
		    !sim_event_raise(sk_sim(test), type, 0, kind, ids[kind]))
			return true;
	return false;
}

/*
 * The capability page: event_cap set, and a type's bit in
 * user_affiliated_events / user_unaffiliated_events exactly when the model
 * raises it that way (the completion event, implied for CQs, excepted).
 */
static void sk_ev_caps(struct kunit *test)
{
	static const enum sim_obj_type kinds[] = {
		SIM_OBJ_CQ, SIM_OBJ_QP, SIM_OBJ_RQ, SIM_OBJ_SQ, SIM_OBJ_PD,
		SIM_OBJ_RMP,
	};
	u32 ids[SIM_OBJ_NTYPES] = {};
	u16 uid = sk_new_uctx(test);
	void *gen, *cap, *aff, *unaff;
	unsigned int i, t;

	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0, 1), false,
					   &gen), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(cmd_hca_cap, gen, event_cap), 1);
	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0x14, 1), false,
					   &cap), PRM_STAT_OK);
	aff = PRM_ADDR(device_event_cap, cap, user_affiliated_events);
	unaff = PRM_ADDR(device_event_cap, cap, user_unaffiliated_events);

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		ids[kinds[i]] = sk_ev_obj(test, kinds[i], uid);
	for (t = 0; t < 256; t++) {
		bool a = sk_ev_raisable(test, t, ids, true);
		bool u = sk_ev_raisable(test, t, ids, false);

		KUNIT_EXPECT_FALSE_MSG(test, a && u, "type 0x%x both", t);
		KUNIT_EXPECT_EQ_MSG(test, sk_mask_bit(aff, t), a && t != 0,
				    "affiliated 0x%x", t);
		KUNIT_EXPECT_EQ_MSG(test, sk_mask_bit(unaff, t), u,
				    "unaffiliated 0x%x", t);
	}
	/* the ones the driver's routing relies on */
	KUNIT_EXPECT_TRUE(test, sk_mask_bit(unaff, 0x09));
	KUNIT_EXPECT_TRUE(test, sk_mask_bit(aff, 0x04));
	KUNIT_EXPECT_TRUE(test, sk_mask_bit(aff, 0x05));
	KUNIT_EXPECT_FALSE(test, sk_mask_bit(aff, 0x00));
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		sk_ev_obj_del(test, kinds[i], uid, ids[kinds[i]]);
}

static struct kunit_case sk_ev_cases[] = {
	KUNIT_CASE(sk_ev_cq_error),
	KUNIT_CASE(sk_ev_comp),
	KUNIT_CASE(sk_ev_queue),
	KUNIT_CASE(sk_ev_port_change),
	KUNIT_CASE(sk_ev_no_handler),
	KUNIT_CASE(sk_ev_refused),
	KUNIT_CASE(sk_ev_caps),
	{}
};

static struct kunit_suite sk_ev_suite = {
	.name = "mlx5x_sim_events",
	.init = sk_ev_init,
	.exit = sk_exit,
	.test_cases = sk_ev_cases,
};

kunit_test_suite(sk_ev_suite);
