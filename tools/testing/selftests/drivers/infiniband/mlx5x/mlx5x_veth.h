/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A veth pair as a simulated device's wire: the near end in this
 * namespace with the device on it, the far end in a namespace of its
 * own (mlx5x_wire, mlx5x_roce_wire).
 */
#ifndef MLX5X_VETH_H
#define MLX5X_VETH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <infiniband/verbs.h>

/**
 * struct mt_veth - names and addresses of a pair
 * @dev: the simulated device on the near end
 * @near: the near end's name
 * @far: the far end's
 * @ns: the far namespace
 * @near_ip: the near end's IPv4 address (a /24)
 * @far_ip: the far end's
 * @near_mac: the near end's MAC, as ip(8) writes it
 * @far_mac: the far end's
 * @no_dad: IPv6 addresses usable at once, without duplicate detection
 */
struct mt_veth {
	const char *dev, *near, *far, *ns;
	const char *near_ip, *far_ip;
	const char *near_mac, *far_mac;
	bool no_dad;
};

/* Whether the kernel has network namespaces at all. */
bool mt_has_netns(void);
/* The pair, the far namespace and the device; KSFT_SKIP without netns or veth. */
int mt_veth_make(const struct mt_veth *v);
void mt_veth_unmake(const struct mt_veth *v);
/* The device by name, once its uverbs node is there; NULL after 2 s. */
struct ibv_context *mt_veth_open(const struct mt_veth *v);
/* The same, a DEVX context (mlx5dv_open_device()). */
struct ibv_context *mt_veth_open_devx(const struct mt_veth *v);
/* In a child: enter the far namespace. */
bool mt_veth_enter_far(const struct mt_veth *v);
/* A packet socket on @ifname (this namespace's) for @proto, @secs to read. */
int mt_packet_socket(const char *ifname, uint16_t proto, int secs);
/*
 * From the far end: @n frames of @len bytes at @f, each @stride apart, by
 * a child in the far namespace.  Returns its status (0: all sent).
 */
int mt_veth_far_send(const struct mt_veth *v, const void *f, size_t len,
		     size_t stride, unsigned int n);
/* A non-blocking UDP socket bound to @ip and @port; -1 on failure. */
int mt_udp_socket(const char *ip, uint16_t port);
/*
 * The datagrams @s holds after @ms; each must be @len bytes of @payload
 * (a failed check otherwise).
 */
int mt_udp_count(int s, const void *payload, size_t len, int ms);

/* Is the Ethernet frame RoCE v2: IPv4 or IPv6, UDP to port 4791? */
bool mt_frame_is_roce(const uint8_t *f, size_t len);

/**
 * mt_veth_far_listen() - a child that passes on what the far end receives
 * @v: the pair
 * @proto: the ethertype it listens for (ETH_P_ALL: any)
 * @secs: how long it waits for each frame before it gives up (exit 4)
 * @n: the frames it passes on, then it exits 0
 * @keep: which frames count (NULL: all)
 * @rfd: the read end, for mt_veth_far_frame(); the caller closes it
 *
 * Return: the child's pid, once it listens; -1 if it could not start.
 */
pid_t mt_veth_far_listen(const struct mt_veth *v, uint16_t proto, int secs,
			 unsigned int n,
			 bool (*keep)(const uint8_t *f, size_t len), int *rfd);
/* The next frame the listener passed on, at most @max bytes; -1 at its end. */
ssize_t mt_veth_far_frame(int fd, uint8_t *f, size_t max);

#endif
