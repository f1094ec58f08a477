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

/* The pair, the far namespace and the device; KSFT_SKIP without netns or veth. */
int mt_veth_make(const struct mt_veth *v);
void mt_veth_unmake(const struct mt_veth *v);
/* The device by name, once its uverbs node is there; NULL after 2 s. */
struct ibv_context *mt_veth_open(const struct mt_veth *v);
/* In a child: enter the far namespace. */
bool mt_veth_enter_far(const struct mt_veth *v);
/* A packet socket on @ifname (this namespace's) for @proto, @secs to read. */
int mt_packet_socket(const char *ifname, uint16_t proto, int secs);

#endif
