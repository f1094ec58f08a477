// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Packets the selftest programs build byte by byte (struct mt_pkt of
 * mlx5x_fixtures.h): Ethernet, IPv4 and IPv6, TCP and UDP headers, and
 * the IPv4 header checksum.
 */
#include <string.h>
#include <arpa/inet.h>
#include "mlx5x_fixtures.h"

void mt_pkt_put(struct mt_pkt *p, const void *b, unsigned int n)
{
	if (!CHECK(p->len + n <= sizeof(p->b)))
		return;
	memcpy(p->b + p->len, b, n);
	p->len += n;
}

void mt_pkt_put16(struct mt_pkt *p, uint16_t v)
{
	v = htons(v);
	mt_pkt_put(p, &v, 2);
}

void mt_pkt_put32(struct mt_pkt *p, uint32_t v)
{
	v = htonl(v);
	mt_pkt_put(p, &v, 4);
}

/* Ethernet to @dmac from @smac, 802.1Q tag @vid unless it is negative. */
void mt_pkt_eth(struct mt_pkt *p, const uint8_t *dmac, const uint8_t *smac,
		int vid, uint16_t type)
{
	mt_pkt_put(p, dmac, 6);
	mt_pkt_put(p, smac, 6);
	if (vid >= 0) {
		mt_pkt_put16(p, MT_ETH_VLAN);
		mt_pkt_put16(p, vid);
	}
	mt_pkt_put16(p, type);
}

/*
 * IPv4 from @src to @dst (dotted quads); total length 60 and no checksum
 * until mt_pkt_ipv4_finish() sets both.
 */
void mt_pkt_ipv4(struct mt_pkt *p, const char *src, const char *dst,
		 uint8_t proto, uint8_t tos)
{
	uint8_t h[20] = { 0x45, tos, 0, 60, 0, 0, 0x40, 0, 64, proto };

	inet_pton(AF_INET, src, h + 12);
	inet_pton(AF_INET, dst, h + 16);
	mt_pkt_put(p, h, sizeof(h));
}

/* IPv6 from @src to @dst, with a flow label; payload length 40. */
void mt_pkt_ipv6(struct mt_pkt *p, const char *src, const char *dst,
		 uint8_t next, uint32_t label)
{
	uint8_t h[40] = { 0x60, 0, 0, 0, 0, 40, next, 64 };

	h[1] = (label >> 16) & 0xf;
	h[2] = label >> 8;
	h[3] = label;
	inet_pton(AF_INET6, src, h + 8);
	inet_pton(AF_INET6, dst, h + 24);
	mt_pkt_put(p, h, sizeof(h));
}

/* TCP (a SYN, no options) or UDP (length 8, no checksum) ports. */
void mt_pkt_l4(struct mt_pkt *p, bool tcp, uint16_t sport, uint16_t dport)
{
	static const uint8_t tcp_rest[16] = { [8] = 0x50, [9] = 0x02 };

	mt_pkt_put16(p, sport);
	mt_pkt_put16(p, dport);
	if (tcp) {
		mt_pkt_put(p, tcp_rest, sizeof(tcp_rest));
	} else {
		mt_pkt_put16(p, 8);
		mt_pkt_put16(p, 0);
	}
}

/* The Internet checksum of @len bytes (even) at @h. */
uint16_t mt_ip_csum(const uint8_t *h, unsigned int len)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * The IPv4 header at byte @ip ends the packet's headers: its total length
 * and, for UDP, the UDP length cover the rest of the packet; then its
 * checksum.
 */
void mt_pkt_ipv4_finish(struct mt_pkt *p, unsigned int ip)
{
	uint8_t *h = p->b + ip;
	unsigned int len = p->len - ip;
	uint16_t c;

	h[2] = len >> 8;
	h[3] = len;
	if (h[9] == MT_IP_UDP) {
		h[24] = (len - 20) >> 8;
		h[25] = len - 20;
	}
	h[10] = 0;
	h[11] = 0;
	c = mt_ip_csum(h, 20);
	h[10] = c >> 8;
	h[11] = c;
}
