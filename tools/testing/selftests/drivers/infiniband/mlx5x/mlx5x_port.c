// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Ethernet (RoCE) port: ibv_query_port(3), mlx5dv_query_port(3),
 * ibv_query_gid(3), ibv_query_pkey(3), and the port state following the
 * netdev, with the async events ibv_get_async_event(3) delivers.
 *
 * The cases that change the netdev (state, carrier, MTU) need
 * MLX5X_NETDEV and put it back as they found it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"

#define EVENT_TIMEOUT_MS	5000
#define GID_TABLE_LEN		256
#define PKEY_DEFAULT		0xffff

/* IB headers a RoCE packet carries: GRH, UDP, BTH, XRC, AtomicETH, ICRC */
#define ROCE_HDR_BYTES		(40 + 8 + 12 + 4 + 28 + 4)

static struct ibv_context *ctx;

/* The IB MTU that fits an Ethernet MTU, as ib_core's iboe_get_mtu(). */
static enum ibv_mtu roce_mtu(int eth_mtu)
{
	int mtu = eth_mtu - ROCE_HDR_BYTES;

	if (mtu >= 4096)
		return IBV_MTU_4096;
	if (mtu >= 2048)
		return IBV_MTU_2048;
	if (mtu >= 1024)
		return IBV_MTU_1024;
	if (mtu >= 512)
		return IBV_MTU_512;
	return IBV_MTU_256;
}

static int test_open_context(void)
{
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static int test_query_port(void)
{
	struct ibv_port_attr attr = {};

	if (!ctx)
		return mt_skip("no context");
	if (!CHECK_ERR(ibv_query_port(ctx, 1, &attr), 0))
		return KSFT_FAIL;
	CHECK_EQ(attr.state, IBV_PORT_ACTIVE);
	CHECK_EQ(attr.phys_state, 5);	/* LinkUp */
	CHECK_EQ(attr.link_layer, IBV_LINK_LAYER_ETHERNET);
	CHECK_EQ(attr.gid_tbl_len, GID_TABLE_LEN);
	CHECK_EQ(attr.max_mtu, IBV_MTU_4096);
	CHECK_EQ(attr.pkey_tbl_len, 1);
	if (!CHECK(attr.port_cap_flags & IBV_PORT_IP_BASED_GIDS))
		mt_diag("port_cap_flags %#x", attr.port_cap_flags);
	CHECK_EQ(attr.lid, 0);
	if (mt.netdev)
		CHECK_EQ(attr.active_mtu, roce_mtu(mt_netdev_mtu()));
	return KSFT_PASS;
}

static int test_query_bad_ports(void)
{
	static const uint8_t ports[] = { 0, 2, 255 };
	struct ibv_port_attr attr;
	unsigned int i;

	if (!ctx)
		return mt_skip("no context");
	for (i = 0; i < MT_ARRAY_SIZE(ports); i++) {
		mt_diag("port %u", ports[i]);
		CHECK_ERR(ibv_query_port(ctx, ports[i], &attr), EINVAL);
	}
	return KSFT_PASS;
}

static int test_mlx5dv_query_port(void)
{
	static const uint32_t bad[] = { 0, 2, 1000 };
	struct mlx5dv_port info;
	unsigned int i;

	if (!ctx)
		return mt_skip("no context");
	memset(&info, 0xa5, sizeof(info));
	CHECK_ERR(mlx5dv_query_port(ctx, 1, &info), 0);
	/* no e-switch: no vport fields offered */
	CHECK_EQ(info.flags, 0);
	for (i = 0; i < MT_ARRAY_SIZE(bad); i++) {
		mt_diag("port %u", bad[i]);
		CHECK_ERR(mlx5dv_query_port(ctx, bad[i], &info), EINVAL);
	}
	return KSFT_PASS;
}

/*
 * GIDs 0 and 1 are the port's default GIDs for RoCE v1 and v2: the
 * link-local address fe80::/64 with the modified EUI-64 of the MAC.
 */
static int test_default_gid(void)
{
	struct ibv_gid_entry e0 = {}, e1 = {};
	union ibv_gid gid = {}, want = {};
	uint8_t mac[6];
	int i;

	if (!ctx)
		return mt_skip("no context");
	if (!CHECK_EQ(ibv_query_gid(ctx, 1, 0, &gid), 0))
		return KSFT_FAIL;
	for (i = 0; i < 16 && !gid.raw[i]; i++)
		;
	CHECK(i < 16);
	CHECK_ERR(ibv_query_gid_ex(ctx, 1, 0, &e0, 0), 0);
	CHECK_ERR(ibv_query_gid_ex(ctx, 1, 1, &e1, 0), 0);
	CHECK_EQ(e0.gid_type, IBV_GID_TYPE_ROCE_V1);
	CHECK_EQ(e1.gid_type, IBV_GID_TYPE_ROCE_V2);
	CHECK(!memcmp(&e0.gid, &gid, sizeof(gid)));
	CHECK(!memcmp(&e1.gid, &gid, sizeof(gid)));
	if (mt_netdev_mac(mac))
		return KSFT_PASS;
	want.raw[0] = 0xfe;
	want.raw[1] = 0x80;
	want.raw[8] = mac[0] ^ 2;
	want.raw[9] = mac[1];
	want.raw[10] = mac[2];
	want.raw[11] = 0xff;
	want.raw[12] = 0xfe;
	want.raw[13] = mac[3];
	want.raw[14] = mac[4];
	want.raw[15] = mac[5];
	if (!CHECK(!memcmp(&gid, &want, sizeof(gid))))
		mt_diag("gid %016llx:%016llx",
			(unsigned long long)be64toh(gid.global.subnet_prefix),
			(unsigned long long)be64toh(gid.global.interface_id));
	return KSFT_PASS;
}

/* An Ethernet port has one P_Key, the default; ibv_query_pkey() reads
 * it from sysfs, in network byte order.
 */
static int test_query_pkey(void)
{
	uint16_t pkey = 0;

	if (!ctx)
		return mt_skip("no context");
	CHECK_EQ(ibv_query_pkey(ctx, 1, 0, &pkey), 0);
	CHECK_EQ(be16toh(pkey), PKEY_DEFAULT);
	CHECK(ibv_query_pkey(ctx, 1, 1, &pkey) != 0);
	return KSFT_PASS;
}

static int check_state(enum ibv_port_state want)
{
	struct ibv_port_attr attr = {};

	if (!CHECK_ERR(ibv_query_port(ctx, 1, &attr), 0))
		return -1;
	return CHECK_EQ(attr.state, want) ? 0 : -1;
}

/* One netdev change: the event it must raise and the state after it. */
static void expect_change(const struct mt_link *change,
			  enum ibv_event_type event, enum ibv_port_state state)
{
	int port = -1;

	if (!CHECK_ERR(mt_netdev_set(change), 0))
		return;
	CHECK_ERR(mt_wait_event(ctx, event, EVENT_TIMEOUT_MS, &port), 0);
	CHECK_EQ(port, 1);
	check_state(state);
}

static int test_link_down_up_events(void)
{
	if (!ctx)
		return mt_skip("no context");
	expect_change(&(struct mt_link){ .up = MT_OFF },
		      IBV_EVENT_PORT_ERR, IBV_PORT_DOWN);
	expect_change(&(struct mt_link){ .up = MT_ON },
		      IBV_EVENT_PORT_ACTIVE, IBV_PORT_ACTIVE);
	mt_netdev_set_up();
	return KSFT_PASS;
}

/* The port follows the carrier too, not only the administrative state. */
static int test_carrier_events(void)
{
	if (!ctx)
		return mt_skip("no context");
	expect_change(&(struct mt_link){ .carrier = MT_OFF },
		      IBV_EVENT_PORT_ERR, IBV_PORT_DOWN);
	expect_change(&(struct mt_link){ .carrier = MT_ON },
		      IBV_EVENT_PORT_ACTIVE, IBV_PORT_ACTIVE);
	mt_netdev_set_up();
	return KSFT_PASS;
}

/* Port state events seen within @ms; others are reported and ignored. */
static int port_events(int ms)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	int n = 0;

	while (poll(&pfd, 1, ms) > 0) {
		if (ibv_get_async_event(ctx, &ev))
			break;
		mt_diag("async event %s (port %d)",
			ibv_event_type_str(ev.event_type),
			ev.element.port_num);
		if (ev.event_type == IBV_EVENT_PORT_ACTIVE ||
		    ev.event_type == IBV_EVENT_PORT_ERR)
			n++;
		ibv_ack_async_event(&ev);
	}
	return n;
}

/*
 * A netdev change that leaves the port as it was (here: ARP off and on,
 * each a NETDEV_CHANGE) raises no port event: PORT_ACTIVE and PORT_ERR
 * report transitions, as mlx5_ib reports them.
 */
static int test_no_event_without_state_change(void)
{
	if (!ctx)
		return mt_skip("no context");
	port_events(1000);	/* drain what earlier cases raised */
	CHECK_ERR(mt_netdev_set(&(struct mt_link){ .arp = MT_OFF }), 0);
	CHECK_ERR(mt_netdev_set(&(struct mt_link){ .arp = MT_ON }), 0);
	CHECK_EQ(port_events(1500), 0);
	check_state(IBV_PORT_ACTIVE);
	return KSFT_PASS;
}

static int test_active_mtu_follows_netdev(void)
{
	static const int mtus[] = { 9000, 4200, 2200, 1500, 1200, 700 };
	struct ibv_port_attr attr;
	struct mt_link link = {};
	unsigned int i;
	int orig;

	if (!ctx)
		return mt_skip("no context");
	orig = mt_netdev_mtu();
	if (!CHECK(orig > 0))
		return KSFT_FAIL;
	for (i = 0; i < MT_ARRAY_SIZE(mtus); i++) {
		link.mtu = mtus[i];
		if (!CHECK_ERR(mt_netdev_set(&link), 0))
			break;
		memset(&attr, 0, sizeof(attr));
		CHECK_ERR(ibv_query_port(ctx, 1, &attr), 0);
		CHECK_EQ(attr.active_mtu, roce_mtu(mtus[i]));
		CHECK_EQ(attr.max_mtu, IBV_MTU_4096);
	}
	link.mtu = orig;
	CHECK_ERR(mt_netdev_set(&link), 0);
	return KSFT_PASS;
}

static int test_close_context(void)
{
	if (!ctx)
		return mt_skip("no context");
	CHECK_EQ(ibv_close_device(ctx), 0);
	ctx = NULL;
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE(open_context, .flags = MT_SHARED),
	MT_CASE(query_port),
	MT_CASE(query_bad_ports),
	MT_CASE(mlx5dv_query_port),
	MT_CASE(default_gid),
	MT_CASE(query_pkey),
	MT_CASE(link_down_up_events, .flags = MT_NEEDS_NETDEV),
	MT_CASE(carrier_events, .flags = MT_NEEDS_NETDEV),
	MT_CASE(no_event_without_state_change, .flags = MT_NEEDS_NETDEV),
	MT_CASE(active_mtu_follows_netdev, .flags = MT_NEEDS_NETDEV),
	MT_CASE(close_context),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
