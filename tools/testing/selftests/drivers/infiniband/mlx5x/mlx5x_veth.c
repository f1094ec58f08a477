// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* A veth pair as a simulated device's wire (mlx5x_veth.h). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_veth.h"

/*
 * Whether the kernel has network namespaces (CONFIG_NET_NS): without,
 * /proc has no net entry among a process's namespaces.  Asked before
 * any command, so that a case skips at once where none can work (the
 * debug kernel): each command costs the time of a process under KASAN.
 */
bool mt_has_netns(void)
{
	return !access("/proc/self/ns/net", F_OK);
}

int mt_veth_make(const struct mt_veth *v)
{
	if (!mt_has_netns())
		return mt_skip("no network namespaces in this kernel");
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
	/* nothing of a pair can have been made */
	if (!mt_has_netns())
		return;
	mt_sh("rdma link delete %s 2>/dev/null", v->dev);
	mt_sh("ip link del %s 2>/dev/null", v->near);
	mt_sh("ip netns del %s 2>/dev/null", v->ns);
}

static struct ibv_context *veth_open(const struct mt_veth *v, bool devx)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *ctx = NULL;
	struct ibv_device **l;
	int i, n, tries;

	for (tries = 0; !ctx && tries < 40; tries++) {
		l = ibv_get_device_list(&n);
		for (i = 0; l && i < n && !ctx; i++)
			if (!strcmp(ibv_get_device_name(l[i]), v->dev))
				ctx = devx ? mlx5dv_open_device(l[i], &attr) :
					     ibv_open_device(l[i]);
		if (l)
			ibv_free_device_list(l);
		if (!ctx)
			usleep(50 * 1000);
	}
	return ctx;
}

struct ibv_context *mt_veth_open(const struct mt_veth *v)
{
	return veth_open(v, false);
}

struct ibv_context *mt_veth_open_devx(const struct mt_veth *v)
{
	return veth_open(v, true);
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

bool mt_frame_is_roce(const uint8_t *f, size_t len)
{
	uint16_t type = len >= 14 ? f[12] << 8 | f[13] : 0;
	size_t l3 = type == ETH_P_IP ? 20 : 40;

	if ((type != ETH_P_IP && type != ETH_P_IPV6) || len < 14 + l3 + 8)
		return false;
	if (f[14 + (type == ETH_P_IP ? 9 : 6)] != 17)
		return false;
	return (f[14 + l3 + 2] << 8 | f[14 + l3 + 3]) == 4791;
}

/* The frames of the largest MTU the tests give a pair, and a length. */
#define MT_FAR_FRAME_MAX	9216

static void far_child(const struct mt_veth *v, uint16_t proto, int secs,
		      unsigned int n,
		      bool (*keep)(const uint8_t *f, size_t len), int fd)
{
	static uint8_t f[MT_FAR_FRAME_MAX + 2];
	ssize_t len;
	int s;

	if (!mt_veth_enter_far(v))
		_exit(2);
	s = mt_packet_socket(v->far, proto, secs);
	if (s < 0 || write(fd, "r", 1) != 1)
		_exit(3);
	while (n) {
		len = recv(s, f + 2, MT_FAR_FRAME_MAX, 0);
		if (len <= 0)
			_exit(4);
		if (keep && !keep(f + 2, len))
			continue;
		f[0] = len >> 8;
		f[1] = len;
		if (write(fd, f, len + 2) != len + 2)
			_exit(5);
		n--;
	}
	_exit(0);
}

pid_t mt_veth_far_listen(const struct mt_veth *v, uint16_t proto, int secs,
			 unsigned int n,
			 bool (*keep)(const uint8_t *f, size_t len), int *rfd)
{
	int fd[2];
	pid_t pid;
	char c;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (!pid) {
		close(fd[0]);
		far_child(v, proto, secs, n, keep, fd[1]);
	}
	close(fd[1]);
	if (pid > 0 && read(fd[0], &c, 1) == 1) {
		*rfd = fd[0];
		return pid;
	}
	close(fd[0]);
	if (pid > 0)
		mt_reap(pid);
	return -1;
}

/* @n bytes from the pipe, which may give a long frame in pieces */
static bool read_full(int fd, uint8_t *b, size_t n)
{
	ssize_t r;

	for (; n; b += r, n -= r) {
		r = read(fd, b, n);
		if (r <= 0)
			return false;
	}
	return true;
}

ssize_t mt_veth_far_frame(int fd, uint8_t *f, size_t max)
{
	uint8_t l[2];
	size_t n;

	if (!read_full(fd, l, 2))
		return -1;
	n = l[0] << 8 | l[1];
	if (n > max || !read_full(fd, f, n))
		return -1;
	return n;
}

int mt_veth_far_send(const struct mt_veth *v, const void *f, size_t len,
		     size_t stride, unsigned int n)
{
	unsigned int i;
	pid_t pid;
	int s;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!mt_veth_enter_far(v))
			_exit(2);
		s = mt_packet_socket(v->far, 0, 2);
		if (s < 0)
			_exit(3);
		for (i = 0; i < n; i++)
			if (send(s, (const uint8_t *)f + i * stride, len, 0) !=
			    (ssize_t)len)
				_exit(4);
		_exit(0);
	}
	return mt_reap(pid);
}

int mt_udp_socket(const char *ip, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	inet_pton(AF_INET, ip, &a.sin_addr);
	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof(a))) {
		close(s);
		return -1;
	}
	return s;
}

int mt_udp_count(int s, const void *payload, size_t len, int ms)
{
	uint8_t b[2048];
	ssize_t n;
	int got = 0;

	usleep(ms * 1000);
	while ((n = recv(s, b, sizeof(b), 0)) >= 0) {
		CHECK_EQ((size_t)n, len);
		CHECK(!memcmp(b, payload, len));
		got++;
	}
	return got;
}
