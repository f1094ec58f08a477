// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: receive side scaling (dp/dp_rss.c): the Toeplitz hash against
 * the Microsoft RSS specification's verification vectors (whose key is
 * the one rdma-core's test_rss_traffic uses), the input an indirect TIR's
 * field selector takes from a packet, and the RQT entry it picks.
 */
#include <linux/in.h>
#include <linux/slab.h>
#include "sim_kunit.h"
#include "../steering/classify.h"
#include "../queues/queues.h"
#include "../dp/dp_priv.h"

static const u8 sk_rss_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* One vector: source and destination, IPv4 and ports; both hashes. */
struct sk_rss_vec {
	u8 src[4], dst[4];
	u16 sport, dport;
	u32 ip, ip_l4;
};

static const struct sk_rss_vec sk_rss_vecs[] = {
	{ { 66, 9, 149, 187 }, { 161, 142, 100, 80 }, 2794, 1766,
	  0x323e8fc2, 0x51ccc178 },
	{ { 199, 92, 111, 2 }, { 65, 69, 140, 83 }, 14230, 4739,
	  0xd718262a, 0xc626b0ea },
	{ { 24, 19, 198, 95 }, { 12, 22, 207, 184 }, 12898, 38024,
	  0xd2d0a5de, 0x5c2b394a },
};

static void sk_be16(u8 *at, u16 v)
{
	at[0] = v >> 8;
	at[1] = v;
}

static void sk_rss_input(const struct sk_rss_vec *v, u8 *in)
{
	memcpy(in, v->src, 4);
	memcpy(in + 4, v->dst, 4);
	sk_be16(in + 8, v->sport);
	sk_be16(in + 10, v->dport);
}

/* The verification vectors: addresses alone, and with the ports. */
static void sk_rss_toeplitz_vectors(struct kunit *test)
{
	unsigned int i;
	u8 in[12];

	for (i = 0; i < ARRAY_SIZE(sk_rss_vecs); i++) {
		sk_rss_input(&sk_rss_vecs[i], in);
		KUNIT_EXPECT_EQ_MSG(test, sim_rss_toeplitz(sk_rss_key, in, 8),
				    sk_rss_vecs[i].ip, "vector %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sim_rss_toeplitz(sk_rss_key, in, 12),
				    sk_rss_vecs[i].ip_l4, "vector %u", i);
	}
	KUNIT_EXPECT_EQ(test, sim_rss_toeplitz(sk_rss_key, in, 0), 0);
}

/* An Ethernet, IPv4 and TCP (or UDP) packet of vector @v, parsed. */
static struct sim_pkt *sk_rss_pkt(struct kunit *test,
				  const struct sk_rss_vec *v, u8 proto)
{
	struct sim_pkt *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	u8 *d;

	KUNIT_ASSERT_NOT_NULL(test, p);
	d = p->data;
	memset(d, 0x11, 12);
	sk_be16(d + 12, 0x0800);
	d += 14;
	d[0] = 0x45;
	sk_be16(d + 2, 40);
	d[8] = 64;
	d[9] = proto;
	memcpy(d + 12, v->src, 4);
	memcpy(d + 16, v->dst, 4);
	d += 20;
	sk_be16(d, v->sport);
	sk_be16(d + 2, v->dport);
	d[12] = 0x50;
	p->len = 14 + 20 + 20;
	sim_pkt_parse(p);
	KUNIT_ASSERT_EQ(test, p->l3, 14);
	KUNIT_ASSERT_EQ(test, p->l4, 34);
	return p;
}

/* A TIR context: Toeplitz (or XOR8) over @fields of IPv4 or 6, TCP/UDP. */
static void sk_rss_tirc(u8 *tirc, u32 fn, bool v6, bool udp, u32 fields)
{
	void *sel = PRM_ADDR(tirc, tirc, rx_hash_field_selector_outer);

	memset(tirc, 0, PRM_BYTES(tirc));
	PRM_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	PRM_SET(tirc, tirc, rx_hash_fn, fn);
	memcpy(PRM_ADDR(tirc, tirc, rx_hash_toeplitz_key), sk_rss_key,
	       sizeof(sk_rss_key));
	PRM_SET(rx_hash_field_select, sel, l3_prot_type, v6);
	PRM_SET(rx_hash_field_select, sel, l4_prot_type, udp);
	PRM_SET(rx_hash_field_select, sel, selected_fields, fields);
}

#define SK_IPS	(BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_SRC_IP) | \
		 BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_DST_IP))
#define SK_PORTS (BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_L4_SPORT) | \
		  BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_L4_DPORT))

/*
 * What the selector takes: addresses and ports of a TCP packet; the
 * addresses alone; the ports of a selector for UDP are not taken from a
 * TCP packet; an IPv6 selector takes nothing from an IPv4 packet; the
 * source address alone is the hash of its 4 bytes; XOR8 inverts the XOR
 * of the bytes.
 */
static void sk_rss_tir_hash(struct kunit *test)
{
	const struct sk_rss_vec *v = &sk_rss_vecs[0];
	struct sim_pkt *p = sk_rss_pkt(test, v, IPPROTO_TCP);
	u8 tirc[PRM_BYTES(tirc)], in[12];
	u32 fields = SK_IPS | SK_PORTS;

	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_TOEPLITZ, false, false, fields);
	KUNIT_EXPECT_EQ(test, sim_rss_hash(tirc, p), v->ip_l4);
	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_TOEPLITZ, false, false, SK_IPS);
	KUNIT_EXPECT_EQ(test, sim_rss_hash(tirc, p), v->ip);
	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_TOEPLITZ, false, true, fields);
	KUNIT_EXPECT_EQ(test, sim_rss_hash(tirc, p), v->ip);
	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_TOEPLITZ, true, false, fields);
	KUNIT_EXPECT_EQ(test, sim_rss_hash(tirc, p), 0);
	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_TOEPLITZ, false, false,
		    BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_SRC_IP));
	sk_rss_input(v, in);
	KUNIT_EXPECT_EQ(test, sim_rss_hash(tirc, p),
			sim_rss_toeplitz(sk_rss_key, in, 4));
	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_INVERTED_XOR8, false, false,
		    SK_IPS);
	KUNIT_EXPECT_EQ(test, sim_rss_hash(tirc, p),
			(u8)~(66 ^ 9 ^ 149 ^ 187 ^ 161 ^ 142 ^ 100 ^ 80));
	p = sk_rss_pkt(test, v, IPPROTO_UDP);
	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_TOEPLITZ, false, true, fields);
	KUNIT_EXPECT_EQ(test, sim_rss_hash(tirc, p), v->ip_l4);
}

/* The entry: the hash modulo the table's size. */
static void sk_rss_entry(struct kunit *test)
{
	struct sim_obj objs[8] = {}, *rq[8];
	struct sim_rqt rqt = { .size = 8, .max_size = 8, .rq = rq };
	u8 tirc[PRM_BYTES(tirc)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rq); i++)
		rq[i] = &objs[i];
	sk_rss_tirc(tirc, MLX5_RX_HASH_FN_TOEPLITZ, false, false,
		    SK_IPS | SK_PORTS);
	for (i = 0; i < ARRAY_SIZE(sk_rss_vecs); i++)
		KUNIT_EXPECT_PTR_EQ(test,
				    sim_rss_rq(tirc, &rqt,
					       sk_rss_pkt(test, &sk_rss_vecs[i],
							  IPPROTO_TCP)),
				    rq[sk_rss_vecs[i].ip_l4 % 8]);
	rqt.size = 3;
	KUNIT_EXPECT_PTR_EQ(test,
			    sim_rss_rq(tirc, &rqt,
				       sk_rss_pkt(test, &sk_rss_vecs[0],
						  IPPROTO_TCP)),
			    rq[sk_rss_vecs[0].ip_l4 % 3]);
}

static struct kunit_case sk_rss_cases[] = {
	KUNIT_CASE(sk_rss_toeplitz_vectors),
	KUNIT_CASE(sk_rss_tir_hash),
	KUNIT_CASE(sk_rss_entry),
	{}
};

static struct kunit_suite sk_rss_suite = {
	.name = "mlx5x_sim_rss",
	.test_cases = sk_rss_cases,
};

kunit_test_suite(sk_rss_suite);
