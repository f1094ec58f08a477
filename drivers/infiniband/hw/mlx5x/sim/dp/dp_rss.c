// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive side scaling: which RQ of an indirect TIR's RQT a packet goes
 * to.  The TIR names a hash function, the outer header fields it hashes
 * (rx_hash_field_selector_outer: IPv4 or IPv6, TCP or UDP, and which of
 * source and destination address, source and destination port) and, for
 * Toeplitz, its 40-byte key (rx_hash_toeplitz_key).
 *
 * The input is the selected fields in the order the Microsoft RSS
 * specification gives, as ConnectX takes them: source address,
 * destination address, source port, destination port, each in network
 * order.  A packet that is not of the selector's L3 type, or not of its
 * L4 type when ports are selected, gives no input for them: its hash is
 * that of what is left (0 when nothing is).  Toeplitz XORs into the
 * result, for each set bit of the input (most significant first), the 32
 * bits of the key that start at that bit.  INVERTED_XOR8 is the inverse
 * of the XOR of the input's bytes.  The RQ is the RQT's entry at the hash
 * modulo its size: its low bits, for the power-of-two tables verbs make.
 *
 * Not modelled: rx_hash_symmetric (the model hashes as without it) and
 * the IPsec SPI field (no input from it).
 */
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include "../steering/classify.h"
#include "../queues/queues.h"
#include "dp_priv.h"

#define SIM_RSS_KEY_BYTES	40
/* two IPv6 addresses and two ports */
#define SIM_RSS_MAX_INPUT	36

/**
 * sim_rss_toeplitz() - the Toeplitz hash of @len bytes
 * @key: SIM_RSS_KEY_BYTES bytes
 * @in: the input
 * @len: its bytes, at most SIM_RSS_KEY_BYTES - 4
 *
 * Return: the hash.
 */
u32 sim_rss_toeplitz(const u8 *key, const u8 *in, unsigned int len)
{
	u32 window = (u32)key[0] << 24 | key[1] << 16 | key[2] << 8 | key[3];
	u32 hash = 0;
	unsigned int i, b;

	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			if (in[i] & (0x80 >> b))
				hash ^= window;
			/* the next key bit enters the window */
			window <<= 1;
			if (key[i + 4] & (0x80 >> b))
				window |= 1;
		}
	}
	return hash;
}

/* The input @sel picks from @p into @in: its bytes. */
static unsigned int sim_rss_input(const void *sel, const struct sim_pkt *p,
				  u8 *in)
{
	u32 fields = PRM_GET(rx_hash_field_select, sel, selected_fields);
	bool v6 = PRM_GET(rx_hash_field_select, sel, l3_prot_type);
	u8 l4 = PRM_GET(rx_hash_field_select, sel, l4_prot_type) ?
		IPPROTO_UDP : IPPROTO_TCP;
	const u8 *l3 = p->data + p->l3;
	unsigned int n = 0, alen = v6 ? 16 : 4, soff, doff;

	if (!p->l3 || (l3[0] >> 4) != (v6 ? 6 : 4))
		return 0;
	soff = v6 ? offsetof(struct ipv6hdr, saddr) :
		    offsetof(struct iphdr, saddr);
	doff = v6 ? offsetof(struct ipv6hdr, daddr) :
		    offsetof(struct iphdr, daddr);
	if (p->l3 + doff + alen > p->len)
		return 0;
	if (fields & BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_SRC_IP)) {
		memcpy(in + n, l3 + soff, alen);
		n += alen;
	}
	if (fields & BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_DST_IP)) {
		memcpy(in + n, l3 + doff, alen);
		n += alen;
	}
	if (!p->l4 || p->l4_proto != l4 || p->l4 + 4 > p->len)
		return n;
	if (fields & BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_L4_SPORT)) {
		memcpy(in + n, p->data + p->l4, 2);
		n += 2;
	}
	if (fields & BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_L4_DPORT)) {
		memcpy(in + n, p->data + p->l4 + 2, 2);
		n += 2;
	}
	return n;
}

/**
 * sim_rss_hash() - the hash an indirect TIR computes for a packet
 * @tirc: the TIR's context
 * @p: the packet, parsed
 *
 * Return: the hash.
 */
u32 sim_rss_hash(const void *tirc, const struct sim_pkt *p)
{
	u8 key[SIM_RSS_KEY_BYTES], in[SIM_RSS_MAX_INPUT], x = 0;
	unsigned int n, i;

	n = sim_rss_input(PRM_ADDR(tirc, tirc, rx_hash_field_selector_outer),
			  p, in);
	if (PRM_GET(tirc, tirc, rx_hash_fn) == MLX5_RX_HASH_FN_TOEPLITZ) {
		memcpy(key, PRM_ADDR(tirc, tirc, rx_hash_toeplitz_key),
		       sizeof(key));
		return sim_rss_toeplitz(key, in, n);
	}
	for (i = 0; i < n; i++)
		x ^= in[i];
	return (u8)~x;
}

/**
 * sim_rss_rq() - the RQ of @rqt that an indirect TIR gives a packet
 * @tirc: the TIR's context
 * @rqt: its RQT, with at least one entry
 * @p: the packet
 *
 * Return: the entry's object.
 */
struct sim_obj *sim_rss_rq(const void *tirc, const struct sim_rqt *rqt,
			   const struct sim_pkt *p)
{
	return rqt->rq[sim_rss_hash(tirc, p) % rqt->size];
}
