// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The netdev under the device (MLX5X_NETDEV): read from sysfs, changed
 * through rtnetlink in this process.  No ip(8): the kernel handles the
 * change, notifier chain and all, in the calling thread, so a fault the
 * sweep armed in it reaches the driver's netdev events, not a fork.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include "mlx5x_test.h"

/* Return: the netdev's MTU, or -1. */
int mt_netdev_mtu(void)
{
	char path[128], buf[32];

	if (!mt.netdev)
		return -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", mt.netdev);
	if (mt_read_file(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

int mt_netdev_mac(uint8_t mac[6])
{
	char path[128], buf[64];

	if (!mt.netdev)
		return -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", mt.netdev);
	if (mt_read_file(path, buf, sizeof(buf)))
		return -1;
	if (sscanf(buf, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		   &mac[2], &mac[3], &mac[4], &mac[5]) != 6)
		return -1;
	return 0;
}

struct mt_nl_req {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
	char attrs[2 * RTA_SPACE(sizeof(uint32_t))];
};

static void mt_nl_put(struct mt_nl_req *req, unsigned short type,
		      const void *data, unsigned short len)
{
	struct rtattr *rta = (void *)((char *)req +
				      NLMSG_ALIGN(req->nh.nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	req->nh.nlmsg_len = NLMSG_ALIGN(req->nh.nlmsg_len) +
			    RTA_ALIGN(rta->rta_len);
}

/* One flag of ifi_flags: set on MT_ON, cleared on MT_OFF. */
static void mt_nl_flag(struct ifinfomsg *ifi, unsigned int flag,
		       enum mt_switch sw)
{
	if (sw == MT_KEEP)
		return;
	ifi->ifi_change |= flag;
	if (sw == MT_ON)
		ifi->ifi_flags |= flag;
}

static const char *mt_switch_name(enum mt_switch sw)
{
	return sw == MT_ON ? "on" : sw == MT_OFF ? "off" : "kept";
}

/**
 * mt_netdev_set() - change the netdev, as one RTM_NEWLINK
 * @l: what to change; MT_KEEP and mtu 0 leave a field as it is
 *
 * Return: 0, or a negative errno (the kernel's answer, or -ENODEV
 * without MLX5X_NETDEV).
 */
int mt_netdev_set(const struct mt_link *l)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct mt_nl_req req = {
		.nh = {
			.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
			.nlmsg_type = RTM_NEWLINK,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		},
		.ifi.ifi_family = AF_UNSPEC,
	};
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	ssize_t n;
	int fd, err;

	if (!mt.netdev)
		return -ENODEV;
	mt_diag("netdev %s: up %s, carrier %s, arp %s, mtu %d", mt.netdev,
		mt_switch_name(l->up), mt_switch_name(l->carrier),
		mt_switch_name(l->arp), l->mtu);
	req.ifi.ifi_index = if_nametoindex(mt.netdev);
	if (!req.ifi.ifi_index)
		return -errno;
	mt_nl_flag(&req.ifi, IFF_UP, l->up);
	/* ARP on is NOARP off */
	mt_nl_flag(&req.ifi, IFF_NOARP,
		   l->arp == MT_KEEP ? MT_KEEP :
		   l->arp == MT_ON ? MT_OFF : MT_ON);
	if (l->carrier != MT_KEEP) {
		uint8_t on = l->carrier == MT_ON;

		mt_nl_put(&req, IFLA_CARRIER, &on, sizeof(on));
	}
	if (l->mtu) {
		uint32_t mtu = l->mtu;

		mt_nl_put(&req, IFLA_MTU, &mtu, sizeof(mtu));
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) != (ssize_t)req.nh.nlmsg_len) {
		err = -errno;
		close(fd);
		return err;
	}
	n = recv(fd, &ack, sizeof(ack), 0);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	if (n < (ssize_t)sizeof(ack) || ack.nh.nlmsg_type != NLMSG_ERROR)
		return -EPROTO;
	if (ack.err.error)
		mt_diag("netdev %s: %s", mt.netdev, strerror(-ack.err.error));
	return ack.err.error;
}

/* Bring the netdev back to up with carrier, whatever a case left. */
int mt_netdev_set_up(void)
{
	return mt_netdev_set(&(struct mt_link){ .up = MT_ON,
						.carrier = MT_ON });
}
