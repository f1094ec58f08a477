// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_cm on the device's port: rdma_bind_addr(3), rdma_resolve_addr(3)
 * and rdma_resolve_route(3) on the IPv4 address of the port's netdev
 * (MLX5X_NETDEV), which must bind the id to this device, port 1, with
 * the address's IPv4-mapped RoCE GID; in the TCP port space (rping,
 * ucmatose) and the UDP one (udaddy).  rdma_cm sees a device only when
 * ib_core gives it to its kernel clients (Documentation/admin-guide.rst).
 *
 * The cases skip when the netdev has no IPv4 address, or when there is no
 * rdma_cm (/dev/infiniband/rdma_cm: the rdma_ucm module).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ifaddrs.h>
#include <poll.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <rdma/rdma_cma.h>
#include "mlx5x_test.h"

#define EVENT_TIMEOUT_MS	5000
#define RESOLVE_TIMEOUT_MS	2000

/* An event channel, the netdev's IPv4 address and the id of the case. */
struct cm {
	struct sockaddr_in addr;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
};

MT_FIXTURE(cm);

/* The first IPv4 address of MLX5X_NETDEV: 0, or -1 if it has none. */
static int netdev_ipv4(struct sockaddr_in *sin)
{
	struct ifaddrs *ifa, *i;
	int ret = -1;

	if (getifaddrs(&ifa))
		return -1;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    strcmp(i->ifa_name, mt.netdev))
			continue;
		memcpy(sin, i->ifa_addr, sizeof(*sin));
		sin->sin_port = 0;
		ret = 0;
		break;
	}
	freeifaddrs(ifa);
	return ret;
}

MT_FIXTURE_SETUP(cm)
{
	char a[INET_ADDRSTRLEN];

	if (netdev_ipv4(&self->addr))
		return mt_skip("%s has no IPv4 address", mt.netdev);
	mt_diag("%s: %s", mt.netdev,
		inet_ntop(AF_INET, &self->addr.sin_addr, a, sizeof(a)));
	self->ch = rdma_create_event_channel();
	if (!self->ch)
		return mt_skip("no rdma_cm (rdma_ucm): %s", strerror(errno));
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(cm)
{
	if (self->id)
		CHECK_ERR(rdma_destroy_id(self->id) ? errno : 0, 0);
	if (self->ch)
		rdma_destroy_event_channel(self->ch);
}

static bool cm_create_id(struct cm *self, enum rdma_port_space ps)
{
	return CHECK_ERR(rdma_create_id(self->ch, &self->id, NULL, ps) ?
			 errno : 0, 0);
}

/* Wait for the id's next event: it must be @want, with status 0. */
static bool cm_wait(struct cm *self, enum rdma_cm_event_type want)
{
	struct pollfd pfd = { .fd = self->ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int type, status;

	if (!CHECK_EQ(poll(&pfd, 1, EVENT_TIMEOUT_MS), 1)) {
		mt_diag("no event in %d ms, want %s", EVENT_TIMEOUT_MS,
			rdma_event_str(want));
		return false;
	}
	if (!CHECK_ERR(rdma_get_cm_event(self->ch, &ev) ? errno : 0, 0))
		return false;
	type = ev->event;
	status = ev->status;
	CHECK_EQ(ev->id, self->id);
	rdma_ack_cm_event(ev);
	mt_diag("event %s status %d", rdma_event_str(type), status);
	return CHECK_EQ(type, want) && CHECK_EQ(status, 0);
}

static bool gid_is_mapped(const union ibv_gid *gid, const struct in_addr *a)
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	};

	return !memcmp(gid->raw, prefix, sizeof(prefix)) &&
	       !memcmp(gid->raw + 12, &a->s_addr, 4);
}

/* The id is bound to the device under test, port 1, at the address. */
static void cm_check_bound(struct cm *self)
{
	struct sockaddr_in *src =
		(struct sockaddr_in *)rdma_get_local_addr(self->id);

	if (CHECK(self->id->verbs))
		CHECK(!strcmp(ibv_get_device_name(self->id->verbs->device),
			      mt.dev_name));
	CHECK_EQ(self->id->port_num, 1);
	CHECK_EQ(src->sin_family, AF_INET);
	CHECK_EQ(src->sin_addr.s_addr, self->addr.sin_addr.s_addr);
}

/*
 * rdma_resolve_addr() from no source to the port's own address: the id
 * is bound to this device, with the address's IPv4-mapped GIDs (the
 * RoCE GIDs ib_core put in the table for it) as source and destination.
 */
MT_TEST_F(cm, resolve_addr)
{
	if (!cm_create_id(self, RDMA_PS_TCP))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_resolve_addr(self->id, NULL,
					 (struct sockaddr *)&self->addr,
					 RESOLVE_TIMEOUT_MS) ? errno : 0, 0) ||
	    !cm_wait(self, RDMA_CM_EVENT_ADDR_RESOLVED))
		return KSFT_FAIL;
	cm_check_bound(self);
	CHECK(gid_is_mapped(&self->id->route.addr.addr.ibaddr.sgid,
			    &self->addr.sin_addr));
	CHECK(gid_is_mapped(&self->id->route.addr.addr.ibaddr.dgid,
			    &self->addr.sin_addr));
	return KSFT_PASS;
}

/* Address, then route: one path between the two mapped GIDs. */
static int resolve_route(struct cm *self, enum rdma_port_space ps)
{
	struct ibv_sa_path_rec *p;

	if (!cm_create_id(self, ps))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_resolve_addr(self->id, NULL,
					 (struct sockaddr *)&self->addr,
					 RESOLVE_TIMEOUT_MS) ? errno : 0, 0) ||
	    !cm_wait(self, RDMA_CM_EVENT_ADDR_RESOLVED))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_resolve_route(self->id, RESOLVE_TIMEOUT_MS) ?
		       errno : 0, 0) ||
	    !cm_wait(self, RDMA_CM_EVENT_ROUTE_RESOLVED))
		return KSFT_FAIL;
	cm_check_bound(self);
	if (!CHECK_EQ(self->id->route.num_paths, 1) ||
	    !CHECK(self->id->route.path_rec))
		return KSFT_FAIL;
	p = self->id->route.path_rec;
	CHECK(gid_is_mapped(&p->sgid, &self->addr.sin_addr));
	CHECK(gid_is_mapped(&p->dgid, &self->addr.sin_addr));
	return KSFT_PASS;
}

/* The TCP port space: rping's and ucmatose's active side. */
MT_TEST_F(cm, resolve_route)
{
	return resolve_route(self, RDMA_PS_TCP);
}

/* The UDP port space: udaddy's active side. */
MT_TEST_F(cm, resolve_route_udp)
{
	return resolve_route(self, RDMA_PS_UDP);
}

/*
 * rdma_bind_addr() to the address, then rdma_listen(): the passive side
 * of rping and ucmatose, bound to this device with a port of its own.
 */
MT_TEST_F(cm, bind_listen)
{
	if (!cm_create_id(self, RDMA_PS_TCP))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_bind_addr(self->id,
				      (struct sockaddr *)&self->addr) ?
		       errno : 0, 0))
		return KSFT_FAIL;
	cm_check_bound(self);
	CHECK(rdma_get_src_port(self->id) != 0);
	CHECK_ERR(rdma_listen(self->id, 1) ? errno : 0, 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(cm, resolve_addr, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, resolve_route, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, resolve_route_udp, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, bind_listen, .flags = MT_NEEDS_NETDEV),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
