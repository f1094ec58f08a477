// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs flow steering rules, as ibv_create_flow(3) describes them, judged
 * by where the model's classifier (fw/classify) sends packets: the tag
 * and drop actions, priority precedence, DONT_TRAP, two QPs on one match,
 * the default and sniffer rules, counters (ibv_read_counters(3)),
 * egress, the inputs mlx5 refuses with their errno, CAP_NET_RAW, flows
 * left behind by a process, and the per-context flow limit.  The specs
 * are mlx5x_flow's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/capability.h>
#include <infiniband/verbs.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_flow.h"

/* Action tag: the entry reports it; 24 bits at most. */
MT_TEST_F(env, action_tag)
{
	struct ibv_flow_spec_action_tag *tag;
	struct ibv_flow *flow;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7000);
	tag = spec(&f, IBV_FLOW_SPEC_ACTION_TAG, sizeof(*tag));
	tag->tag_id = 0xabcdef;
	flow = flow_create(self, 0, &f);
	if (!CHECK(flow))
		return KSFT_FAIL;
	pkt_udp(&p, mac_b, "1.1.1.1", 7000);
	CHECK(rx_to(self, &p, 1));
	CHECK(strstr(self->trace, "tag value=0xabcdef\n"));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	tag->tag_id = 1 << 24;
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	return KSFT_PASS;
}

/* Action drop: the packet goes nowhere, not even to a later priority. */
MT_TEST_F(env, action_drop)
{
	struct ibv_flow *drop, *fwd;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 1, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7001);
	fwd = flow_create(self, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7001);
	spec(&f, IBV_FLOW_SPEC_ACTION_DROP,
	     sizeof(struct ibv_flow_spec_action_drop));
	drop = flow_create(self, 0, &f);
	if (!CHECK(fwd) || !CHECK(drop))
		return KSFT_FAIL;
	pkt_udp(&p, mac_b, "1.1.1.1", 7001);
	CHECK_EQ(walk(self, "rx", &p), 0);
	CHECK(strstr(self->trace, "verdict to=drop\n"));
	CHECK_EQ(nverdicts(self, "verdict"), 1);
	CHECK_ERR(ibv_destroy_flow(drop), 0);
	CHECK(rx_to(self, &p, 1));
	CHECK_ERR(ibv_destroy_flow(fwd), 0);
	return KSFT_PASS;
}

/* A lower priority number wins, whichever flow came first. */
MT_TEST_F(env, priority)
{
	struct ibv_flow *lo, *hi, *mid;
	struct mt_pkt p = {};
	struct flow f;

	if (raw_qp(self) < 0 || raw_qp(self) < 0)
		return KSFT_FAIL;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 7, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 8000);
	lo = flow_create(self, 0, &f);
	f.attr.priority = 2;
	hi = flow_create(self, 1, &f);
	f.attr.priority = 15;
	mid = flow_create(self, 2, &f);
	if (!CHECK(lo) || !CHECK(hi) || !CHECK(mid))
		return KSFT_FAIL;
	pkt_udp(&p, mac_b, "1.1.1.1", 8000);
	CHECK(rx_to(self, &p, 2));
	CHECK_ERR(ibv_destroy_flow(hi), 0);
	CHECK(rx_to(self, &p, 1));
	CHECK_ERR(ibv_destroy_flow(lo), 0);
	CHECK(rx_to(self, &p, 4));
	CHECK_ERR(ibv_destroy_flow(mid), 0);
	CHECK(rx_to(self, &p, 0));
	/* a more specific flow of a later priority still loses */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 3, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 8000);
	lo = flow_create(self, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 4, 0);
	spec_ipv4(&f, 0, "1.1.1.1");
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 8000);
	hi = flow_create(self, 1, &f);
	if (CHECK(lo) && CHECK(hi))
		CHECK(rx_to(self, &p, 1));
	if (lo)
		CHECK_ERR(ibv_destroy_flow(lo), 0);
	if (hi)
		CHECK_ERR(ibv_destroy_flow(hi), 0);
	return KSFT_PASS;
}

/* DONT_TRAP: delivered, and the packet goes on to the next rules. */
MT_TEST_F(env, dont_trap)
{
	struct ibv_flow *dt, *trap, *dt2;
	struct mt_pkt p = {};
	struct flow f;

	if (raw_qp(self) < 0 || raw_qp(self) < 0)
		return KSFT_FAIL;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9000);
	trap = flow_create(self, 1, &f);
	f.attr.flags = IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
	dt = flow_create(self, 0, &f);
	if (!CHECK(trap) || !CHECK(dt))
		return KSFT_FAIL;
	pkt_udp(&p, mac_b, "1.1.1.1", 9000);
	CHECK(rx_to(self, &p, 3));
	/* a don't-trap flow of a later priority, and nothing after it */
	CHECK_ERR(ibv_destroy_flow(trap), 0);
	f.attr.priority = 5;
	dt2 = flow_create(self, 2, &f);
	if (CHECK(dt2)) {
		CHECK(rx_to(self, &p, 5));
		CHECK(strstr(self->trace, "verdict to=default\n"));
		CHECK_ERR(ibv_destroy_flow(dt2), 0);
	}
	CHECK(rx_to(self, &p, 1));
	CHECK(strstr(self->trace, "verdict to=default\n"));
	CHECK_ERR(ibv_destroy_flow(dt), 0);
	/* only NORMAL flows may be don't-trap (ib_uverbs refuses) */
	flow_init(&f, IBV_FLOW_ATTR_ALL_DEFAULT, 0,
		  IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	return KSFT_PASS;
}

/* Two QPs, one match, one priority: both get it, until one goes. */
MT_TEST_F(env, same_match)
{
	struct ibv_flow *a, *b, *c;
	struct mt_pkt p = {};
	struct flow f;

	if (raw_qp(self) < 0 || raw_qp(self) < 0)
		return KSFT_FAIL;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_eth(&f, 0, mac_a);
	a = flow_create(self, 0, &f);
	b = flow_create(self, 1, &f);
	if (!CHECK(a) || !CHECK(b))
		return KSFT_FAIL;
	pkt_udp(&p, mac_a, "1.1.1.1", 1);
	CHECK(rx_to(self, &p, 3));
	/* one entry, two destinations */
	CHECK_EQ(nverdicts(self, "result=hit"), 1);
	CHECK_ERR(ibv_destroy_flow(a), 0);
	CHECK(rx_to(self, &p, 2));
	c = flow_create(self, 2, &f);
	if (CHECK(c)) {
		CHECK(rx_to(self, &p, 6));
		CHECK_ERR(ibv_destroy_flow(b), 0);
		CHECK(rx_to(self, &p, 4));
		CHECK_ERR(ibv_destroy_flow(c), 0);
	}
	CHECK(rx_to(self, &p, 0));
	/* the same QP twice on one match: still one delivery */
	a = flow_create(self, 0, &f);
	b = flow_create(self, 0, &f);
	if (CHECK(a) && CHECK(b)) {
		CHECK(rx_to(self, &p, 1));
		CHECK_ERR(ibv_destroy_flow(a), 0);
		CHECK(rx_to(self, &p, 1));
		CHECK_ERR(ibv_destroy_flow(b), 0);
	}
	/* the same match with another action conflicts */
	a = flow_create(self, 0, &f);
	spec(&f, IBV_FLOW_SPEC_ACTION_DROP,
	     sizeof(struct ibv_flow_spec_action_drop));
	CHECK(!flow_create(self, 1, &f));
	CHECK_ERR(errno, EEXIST);
	if (CHECK(a))
		CHECK_ERR(ibv_destroy_flow(a), 0);
	return KSFT_PASS;
}

/* ALL_DEFAULT and MC_DEFAULT: what no other flow took. */
MT_TEST_F(env, default_rules)
{
	struct ibv_flow *all, *mc, *normal;
	struct mt_pkt p = {};
	struct flow f;

	if (raw_qp(self) < 0 || raw_qp(self) < 0)
		return KSFT_FAIL;
	flow_init(&f, IBV_FLOW_ATTR_MC_DEFAULT, 0, 0);
	mc = flow_create(self, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_eth(&f, 0, mac_mc);
	normal = flow_create(self, 2, &f);
	if (!CHECK(mc) || !CHECK(normal))
		return KSFT_FAIL;
	pkt_udp(&p, mac_b, "1.1.1.1", 1);
	CHECK(rx_to(self, &p, 0));
	pkt_udp(&p, (const uint8_t[]){ 0x01, 0, 0x5e, 0, 0, 9 },
		"239.0.0.9", 1);
	CHECK(rx_to(self, &p, 1));
	/* a normal flow takes its multicast packets first */
	pkt_udp(&p, mac_mc, "239.0.0.1", 1);
	CHECK(rx_to(self, &p, 4));
	flow_init(&f, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
	all = flow_create(self, 1, &f);
	if (CHECK(all)) {
		pkt_udp(&p, mac_b, "1.1.1.1", 1);
		CHECK(rx_to(self, &p, 2));
		/* both default rules want multicast: both get it */
		pkt_udp(&p, (const uint8_t[]){ 0x01, 0, 0x5e, 0, 0, 9 },
			"239.0.0.9", 1);
		CHECK(rx_to(self, &p, 3));
		CHECK_ERR(ibv_destroy_flow(all), 0);
	}
	CHECK_ERR(ibv_destroy_flow(mc), 0);
	CHECK_ERR(ibv_destroy_flow(normal), 0);
	pkt_udp(&p, mac_b, "1.1.1.1", 1);
	CHECK(rx_to(self, &p, 0));
	/* no default rule on the egress side */
	flow_init(&f, IBV_FLOW_ATTR_MC_DEFAULT, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	return KSFT_PASS;
}

/* SNIFFER: a copy of every packet, received or sent, besides its way. */
MT_TEST_F(env, sniffer)
{
	struct ibv_flow *sn, *normal;
	struct mt_pkt p = {};
	struct flow f;

	if (raw_qp(self) < 0)
		return KSFT_FAIL;
	flow_init(&f, IBV_FLOW_ATTR_SNIFFER, 0, 0);
	sn = flow_create(self, 0, &f);
	if (!sn && errno == EOPNOTSUPP)
		return mt_skip("the device has no sniffer tables");
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9100);
	normal = flow_create(self, 1, &f);
	if (!CHECK(sn) || !CHECK(normal))
		return KSFT_FAIL;
	pkt_udp(&p, mac_b, "1.1.1.1", 9100);
	CHECK(rx_to(self, &p, 3));
	pkt_udp(&p, mac_b, "1.1.1.1", 9101);
	CHECK_EQ(walk(self, "rx", &p), 0);
	CHECK(to_qp(self, 0) && !to_qp(self, 1));
	CHECK(strstr(self->trace, "verdict to=default\n"));
	CHECK_EQ(walk(self, "tx", &p), 0);
	CHECK(to_qp(self, 0));
	CHECK(strstr(self->trace, "verdict to=wire\n"));
	CHECK_ERR(ibv_destroy_flow(sn), 0);
	CHECK_ERR(ibv_destroy_flow(normal), 0);
	CHECK_EQ(walk(self, "tx", &p), 0);
	CHECK(!to_qp(self, 0));
	return KSFT_PASS;
}

/* Counters: bound at the flow's creation, read after classifying. */
MT_TEST_F(env, counters)
{
	struct ibv_counter_attach_attr at = {};
	struct ibv_flow_spec_counter_action *cs;
	struct ibv_counters_init_attr ia = {};
	struct ibv_flow *flow, *flow2;
	struct ibv_counters *cnt;
	uint64_t v[3] = {};
	struct mt_pkt p = {};
	struct flow f;

	cnt = ibv_create_counters(self->v.ctx, &ia);
	if (!CHECK(cnt))
		return KSFT_FAIL;
	at.counter_desc = IBV_COUNTER_PACKETS;
	at.index = 0;
	CHECK_ERR(ibv_attach_counters_point_flow(cnt, &at, NULL), 0);
	at.counter_desc = IBV_COUNTER_BYTES;
	at.index = 2;
	CHECK_ERR(ibv_attach_counters_point_flow(cnt, &at, NULL), 0);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9200);
	cs = spec(&f, IBV_FLOW_SPEC_ACTION_COUNT, sizeof(*cs));
	cs->counters = cnt;
	flow = flow_create(self, 0, &f);
	if (CHECK(flow)) {
		pkt_udp(&p, mac_b, "1.1.1.1", 9200);
		CHECK(rx_to(self, &p, 1));
		CHECK(strstr(self->trace, "counter id=0x"));
		CHECK(rx_to(self, &p, 1));
		pkt_udp(&p, mac_b, "1.1.1.1", 9201);
		CHECK(rx_to(self, &p, 0));
		CHECK_ERR(ibv_read_counters(cnt, v, 3, 0), 0);
		CHECK_EQ(v[0], 2);
		CHECK_EQ(v[1], 0);
		CHECK_EQ(v[2], 2 * p.len);
		/* the binding names index 2: a shorter array is refused */
		CHECK_ERR(ibv_read_counters(cnt, v, 2, 0), EINVAL);
		/*
		 * a second flow counting into the same object (libmlx5
		 * sends no binding for it): the values add up
		 */
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 9202);
		cs = spec(&f, IBV_FLOW_SPEC_ACTION_COUNT, sizeof(*cs));
		cs->counters = cnt;
		flow2 = flow_create(self, 0, &f);
		if (CHECK(flow2)) {
			pkt_udp(&p, mac_b, "1.1.1.1", 9202);
			CHECK(rx_to(self, &p, 1));
			memset(v, 0, sizeof(v));
			CHECK_ERR(ibv_read_counters(cnt, v, 3, 0), 0);
			CHECK_EQ(v[0], 3);
			CHECK_EQ(v[2], 3 * p.len);
			CHECK_ERR(ibv_destroy_flow(flow2), 0);
		}
		CHECK_ERR(ibv_destroy_flow(flow), 0);
	}
	CHECK_ERR(ibv_destroy_counters(cnt), 0);
	return KSFT_PASS;
}

/* EGRESS: drop or allow what the function sends, by priority. */
MT_TEST_F(env, egress)
{
	struct ibv_flow *drop, *allow;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 3, IBV_FLOW_ATTR_FLAGS_EGRESS);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9300);
	spec(&f, IBV_FLOW_SPEC_ACTION_DROP,
	     sizeof(struct ibv_flow_spec_action_drop));
	drop = flow_create(self, 0, &f);
	if (!CHECK(drop))
		return KSFT_FAIL;
	pkt_udp(&p, mac_b, "1.1.1.1", 9300);
	CHECK_EQ(walk(self, "tx", &p), 0);
	CHECK(strstr(self->trace, "type=tx"));
	CHECK(strstr(self->trace, "verdict to=drop\n"));
	/* received packets never meet egress flows */
	CHECK(rx_to(self, &p, 0));
	pkt_udp(&p, mac_b, "1.1.1.1", 9301);
	CHECK_EQ(walk(self, "tx", &p), 0);
	CHECK(strstr(self->trace, "verdict to=wire\n"));
	/* an allow of an earlier priority lets it out */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 1, IBV_FLOW_ATTR_FLAGS_EGRESS);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9300);
	allow = flow_create(self, 0, &f);
	if (CHECK(allow)) {
		pkt_udp(&p, mac_b, "1.1.1.1", 9300);
		CHECK_EQ(walk(self, "tx", &p), 0);
		CHECK(strstr(self->trace, "verdict to=wire\n"));
		CHECK(!strstr(self->trace, "verdict to=drop"));
		CHECK_ERR(ibv_destroy_flow(allow), 0);
	}
	/* a don't-trap egress flow goes on to the drop */
	f.attr.flags |= IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
	allow = flow_create(self, 0, &f);
	if (CHECK(allow)) {
		CHECK_EQ(walk(self, "tx", &p), 0);
		CHECK(strstr(self->trace, "verdict to=drop\n"));
		CHECK_ERR(ibv_destroy_flow(allow), 0);
	}
	CHECK_ERR(ibv_destroy_flow(drop), 0);
	return KSFT_PASS;
}

/* What mlx5 refuses, with upstream's errno. */
MT_TEST_F(env, bad_inputs)
{
	struct ibv_qp_init_attr rc_attr = {
		.send_cq = self->v.cq,
		.recv_cq = self->v.cq,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_flow_spec_ipv4_ext *ip;
	struct ibv_flow_spec_eth *eth;
	struct ibv_flow_spec_ipv6 *ip6;
	struct ibv_qp *rc;
	struct flow f;

	/* an attribute size that does not hold its specs */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	f.attr.num_of_specs = 2;
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* fields the device does not match: IPv4 TTL, IPv6 hop limit */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip = spec_ipv4(&f, 0, "1.2.3.4");
	ip->mask.ttl = 0xff;
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip6 = spec(&f, IBV_FLOW_SPEC_IPV6, sizeof(*ip6));
	ip6->mask.hop_limit = 0xff;
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
	/* a partly masked ethertype beside an IP spec */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	eth = spec_eth(&f, 0, mac_a);
	eth->val.ether_type = htons(0x0800);
	eth->mask.ether_type = htons(0xff00);
	spec_ipv4(&f, 0, "1.2.3.4");
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* an ethertype that is not the IP spec's */
	eth->mask.ether_type = 0xffff;
	eth->val.ether_type = htons(0x86dd);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* two protocols */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	spec_l4(&f, IBV_FLOW_SPEC_TCP, 1);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* priorities 0..15 (mlx5 answers ENOMEM, as upstream) */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 16, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, ENOMEM);
	/* flags: bit 0 (the old ALLOW_LOOP_BACK) and beyond are refused */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 1 << 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	f.attr.flags = 1 << 3;
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* an unknown type of flow, of spec */
	flow_init(&f, 4, 0, 0);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* a QP that is not RAW_PACKET */
	rc = ibv_create_qp(self->v.pd, &rc_attr);
	if (CHECK(rc)) {
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
		errno = 0;
		CHECK(!ibv_create_flow(rc, &f.attr));
		CHECK_ERR(errno, EINVAL);
		CHECK_ERR(ibv_destroy_qp(rc), 0);
	}
	/* a QP with flows cannot be destroyed before them */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	{
		struct ibv_flow *flow = flow_create(self, 0, &f);

		if (CHECK(flow)) {
			CHECK_ERR(ibv_destroy_qp(self->qp[0]), EBUSY);
			CHECK_ERR(ibv_destroy_flow(flow), 0);
		}
	}
	return KSFT_PASS;
}

/* In a child: a flow once CAP_NET_RAW is dropped; 0 when refused. */
static int flow_without_net_raw(void *arg)
{
	struct flow f;
	struct env e;

	(void)arg;
	if (!env_open(&e))
		return 2;
	if (!mt_drop_cap(CAP_NET_RAW))
		return 3;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	return flow_create(&e, 0, &f) ? 5 : errno == EPERM ? 0 : 6;
}

/* ib_uverbs wants CAP_NET_RAW for any flow: a child without it. */
static int test_needs_cap_net_raw(void)
{
	CHECK_EQ(mt_run_child(flow_without_net_raw, NULL), 0);
	return KSFT_PASS;
}

/*
 * Flows left behind go with their process, leaving nothing in firmware.
 * (A process's contexts go when its last mapping of them does: at exit.)
 */
static int test_exit_with_flows(void)
{
	int base = mt_fw_count(NULL, -1);
	pid_t pid;

	pid = mt_fork();
	if (pid == 0) {
		struct ibv_counters_init_attr ia = {};
		struct ibv_counter_attach_attr at = {};
		struct ibv_flow_spec_counter_action *cs;
		struct ibv_counters *cnt;
		struct flow f;
		struct env e;
		int i, bad = 0;

		if (!env_open(&e) || raw_qp(&e) < 0)
			_exit(2);
		cnt = ibv_create_counters(e.v.ctx, &ia);
		if (!cnt || ibv_attach_counters_point_flow(cnt, &at, NULL))
			_exit(3);
		for (i = 0; i < 2; i++) {
			flow_init(&f, IBV_FLOW_ATTR_NORMAL, i, 0);
			spec_eth(&f, 0, mac_a);
			bad |= !flow_create(&e, i, &f);
			f.attr.flags = IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
			bad |= !flow_create(&e, i, &f);
		}
		flow_init(&f, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
		bad |= !flow_create(&e, 1, &f);
		flow_init(&f, IBV_FLOW_ATTR_SNIFFER, 0, 0);
		bad |= !flow_create(&e, 1, &f);
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 5);
		cs = spec(&f, IBV_FLOW_SPEC_ACTION_COUNT, sizeof(*cs));
		cs->counters = cnt;
		bad |= !flow_create(&e, 0, &f);
		_exit(bad ? 4 : 0);
	}
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_reap(pid), 0);
	if (mt_sim() && !CHECK_EQ(mt_fw_count(NULL, -1), base))
		mt_fw_dump();
	return KSFT_PASS;
}

/* At the limit ENOSPC; one destroyed lets the next in; per context. */
MT_TEST_F(env, flow_limit)
{
	struct ibv_flow *fl[5] = {}, *more;
	long old;
	struct env o = {};
	struct flow f;
	unsigned int i;

	/* the module's per-context flow limit (limits.c) */
	if (mt_param_get("max_flows", &old))
		return mt_skip("no module parameter max_flows");
	if (!env_open(&o))
		goto out;
	if (!CHECK_ERR(mt_param_set("max_flows", 4), 0))
		goto out;
	for (i = 0; i < 5; i++) {
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 7000 + i);
		fl[i] = flow_create(self, 0, &f);
		if (i < 4) {
			CHECK(fl[i]);
		} else {
			CHECK(!fl[i]);
			CHECK_ERR(errno, ENOSPC);
		}
	}
	/* another context has its own count */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7100);
	more = flow_create(&o, 0, &f);
	if (CHECK(more))
		CHECK_ERR(ibv_destroy_flow(more), 0);
	/* one destroyed: the next is let in, the one after refused */
	if (fl[0])
		CHECK_ERR(ibv_destroy_flow(fl[0]), 0);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7200);
	fl[0] = flow_create(self, 0, &f);
	CHECK(fl[0]);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7201);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, ENOSPC);
	for (i = 0; i < 5; i++)
		if (fl[i])
			CHECK_ERR(ibv_destroy_flow(fl[i]), 0);
out:
	CHECK_ERR(mt_param_set("max_flows", old), 0);
	env_close(&o);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(env, action_tag, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, action_drop, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, priority, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, dont_trap, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, same_match, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, default_rules, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, sniffer, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, counters, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, egress, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, bad_inputs),
	MT_CASE(needs_cap_net_raw),
	MT_CASE(exit_with_flows),
	MT_CASE_F(env, flow_limit),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
