// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* A veth pair as a simulated device's wire (mlx5x_veth.h). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "mlx5x_test.h"
#include "mlx5x_veth.h"

int mt_veth_make(const struct mt_veth *v)
{
	mt_veth_unmake(v);
	if (mt_sh("ip netns add %s", v->ns))
		return mt_skip("no network namespaces in this kernel");
	mt_sh("modprobe -q veth");
	if (v->no_dad)
		mt_sh("ip netns exec %s sysctl -qw net.ipv6.conf.default.accept_dad=0",
		      v->ns);
	if (mt_sh("ip link add %s address %s type veth peer name %s address %s netns %s",
		  v->near, v->near_mac, v->far, v->far_mac, v->ns))
		return mt_skip("no veth pair in this kernel");
	if (v->no_dad &&
	    !CHECK_EQ(mt_sh("sysctl -qw net.ipv6.conf.%s.accept_dad=0",
			    v->near), 0))
		return KSFT_FAIL;
	if (!CHECK_EQ(mt_sh("ip addr add %s/24 dev %s", v->near_ip, v->near),
		      0) ||
	    !CHECK_EQ(mt_sh("ip link set %s up", v->near), 0) ||
	    !CHECK_EQ(mt_sh("ip -n %s addr add %s/24 dev %s", v->ns, v->far_ip,
			    v->far), 0) ||
	    !CHECK_EQ(mt_sh("ip -n %s link set %s up", v->ns, v->far), 0) ||
	    !CHECK_EQ(mt_sh("rdma link add %s type mlx5x netdev %s", v->dev,
			    v->near), 0))
		return KSFT_FAIL;
	return KSFT_PASS;
}

void mt_veth_unmake(const struct mt_veth *v)
{
	mt_sh("rdma link delete %s 2>/dev/null", v->dev);
	mt_sh("ip link del %s 2>/dev/null", v->near);
	mt_sh("ip netns del %s 2>/dev/null", v->ns);
}

struct ibv_context *mt_veth_open(const struct mt_veth *v)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **l;
	int i, n, tries;

	for (tries = 0; !ctx && tries < 40; tries++) {
		l = ibv_get_device_list(&n);
		for (i = 0; l && i < n && !ctx; i++)
			if (!strcmp(ibv_get_device_name(l[i]), v->dev))
				ctx = ibv_open_device(l[i]);
		if (l)
			ibv_free_device_list(l);
		if (!ctx)
			usleep(50 * 1000);
	}
	return ctx;
}

bool mt_veth_enter_far(const struct mt_veth *v)
{
	char path[128];
	bool ok;
	int fd;

	snprintf(path, sizeof(path), "/var/run/netns/%s", v->ns);
	fd = open(path, O_RDONLY);
	ok = fd >= 0 && !setns(fd, CLONE_NEWNET);
	if (fd >= 0)
		close(fd);
	return ok;
}

int mt_packet_socket(const char *ifname, uint16_t proto, int secs)
{
	struct sockaddr_ll a = { .sll_family = AF_PACKET,
				 .sll_protocol = htons(proto) };
	struct timeval tv = { .tv_sec = secs };
	int s = socket(AF_PACKET, SOCK_RAW, htons(proto));

	a.sll_ifindex = if_nametoindex(ifname);
	if (s < 0 || !a.sll_ifindex ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		if (s >= 0)
			close(s);
		return -1;
	}
	return s;
}
