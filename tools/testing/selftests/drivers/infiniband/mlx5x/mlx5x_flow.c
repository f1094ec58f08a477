// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs flow steering, as ibv_create_flow(3) describes it: flows on
 * RAW_PACKET QPs, judged by where the model's classifier (fw/classify)
 * sends packets.  The man page's example, every spec type matched and not
 * matched, and spec sizes and reserved fields as the kernel sees them.
 * Actions, priorities and the other flow types are mlx5x_flow_rules'.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_flow.h"

/* UDP to 4789, VXLAN with @vni, an inner Ethernet + IPv4 to @dst. */
static void pkt_vxlan(struct mt_pkt *p, uint32_t vni, const char *dst)
{
	mt_pkt_eth(p, mac_b, mac_0, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(p, "10.0.0.1", "10.0.0.2", MT_IP_UDP, 0);
	mt_pkt_l4(p, false, 1234, 4789);
	mt_pkt_put32(p, 0x08000000);
	mt_pkt_put32(p, vni << 8);
	mt_pkt_eth(p, mac_a, mac_b, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(p, "192.168.0.1", dst, MT_IP_UDP, 0);
	mt_pkt_l4(p, false, 1, 2);
}

/* GRE with a key, carrying IPv4. */
static void pkt_gre(struct mt_pkt *p, uint32_t key)
{
	mt_pkt_eth(p, mac_b, mac_0, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(p, "10.0.0.1", "10.0.0.2", MT_IP_GRE, 0);
	mt_pkt_put16(p, 0x2000);
	mt_pkt_put16(p, MT_ETH_IPV4);
	mt_pkt_put32(p, key);
	mt_pkt_ipv4(p, "192.168.0.1", "192.168.0.2", MT_IP_UDP, 0);
	mt_pkt_l4(p, false, 1, 2);
}

/* ---- the cases ---- */

/* As the man page has it, but aligned: its specs have no holes. */
struct raw_eth_flow_attr {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_eth eth;
	struct ibv_flow_spec_ipv4 ipv4;
};

/* ibv_create_flow(3)'s example: destination MAC and source IPv4. */
MT_TEST_F(env, man_example)
{
	struct raw_eth_flow_attr fa = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL, .size = sizeof(fa),
			  .num_of_specs = 2, .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH,
			 .size = sizeof(struct ibv_flow_spec_eth),
			 .val = { .dst_mac = { 0x66, 0x11, 0x22, 0x33, 0x44,
					       0x55 } },
			 .mask = { .dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff,
						0xff },
				   .src_mac = { 0xff, 0xff, 0xff, 0xff, 0xff,
						0xff } } },
		.ipv4 = { .type = IBV_FLOW_SPEC_IPV4,
			  .size = sizeof(struct ibv_flow_spec_ipv4),
			  .val = { .src_ip = 0x0B86C806 },
			  .mask = { .src_ip = 0xFFFFFFFF } },
	};
	char src[INET_ADDRSTRLEN];
	struct ibv_flow *flow;
	struct mt_pkt p = {};

	inet_ntop(AF_INET, &fa.ipv4.val.src_ip, src, sizeof(src));
	flow = ibv_create_flow(self->qp[0], &fa.attr);
	if (!CHECK(flow))
		return KSFT_FAIL;
	mt_pkt_eth(&p, mac_a, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, src, "10.0.0.2", 17, 0);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 1));
	CHECK(strstr(self->trace, "uid="));
	/* another source address, another source MAC: not this flow's */
	p.len = 0;
	mt_pkt_eth(&p, mac_a, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, "10.9.9.9", "10.0.0.2", 17, 0);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 0));
	p.len = 0;
	mt_pkt_eth(&p, mac_a, mac_b, -1, 0x0800);
	mt_pkt_ipv4(&p, src, "10.0.0.2", 17, 0);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	/* gone: the same packet no longer reaches the QP */
	p.len = 0;
	mt_pkt_eth(&p, mac_a, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, src, "10.0.0.2", 17, 0);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 0));
	return KSFT_PASS;
}

/* ETH: MACs, ethertype and the VLAN tag. */
MT_TEST_F(env, spec_eth)
{
	struct ibv_flow_spec_eth *eth;
	struct ibv_flow *flow;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	eth = spec_eth(&f, 0, mac_a);
	memcpy(eth->val.src_mac, mac_b, 6);
	memcpy(eth->mask.src_mac, mac_ff, 6);
	eth->val.ether_type = htons(0x0800);
	eth->mask.ether_type = 0xffff;
	eth->val.vlan_tag = htons(100);
	eth->mask.vlan_tag = htons(0x0fff);
	flow = flow_create(self, 0, &f);
	if (!CHECK(flow))
		return KSFT_FAIL;
	mt_pkt_eth(&p, mac_a, mac_b, 100, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 17, 0);
	CHECK(rx_to(self, &p, 1));
	p.len = 0;
	mt_pkt_eth(&p, mac_a, mac_b, 101, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 17, 0);
	CHECK(rx_to(self, &p, 0));
	p.len = 0;
	mt_pkt_eth(&p, mac_a, mac_b, -1, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 17, 0);
	CHECK(rx_to(self, &p, 0));
	p.len = 0;
	mt_pkt_eth(&p, mac_a, mac_b, 100, 0x86dd);
	mt_pkt_ipv6(&p, "fe80::1", "fe80::2", 17, 0);
	CHECK(rx_to(self, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	return KSFT_PASS;
}

/* IPV4 (extended): destination, protocol, TOS. */
MT_TEST_F(env, spec_ipv4)
{
	struct ibv_flow_spec_ipv4_ext *ip;
	struct ibv_flow *flow;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip = spec_ipv4(&f, 0, "10.1.2.3");
	ip->val.proto = 6;
	ip->mask.proto = 0xff;
	ip->val.tos = 0x20;
	ip->mask.tos = 0xff;
	flow = flow_create(self, 0, &f);
	if (!CHECK(flow))
		return KSFT_FAIL;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "10.1.2.3", 6, 0x20);
	mt_pkt_l4(&p, true, 1, 2);
	CHECK(rx_to(self, &p, 1));
	p.len = 0;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "10.1.2.3", 6, 0x00);
	mt_pkt_l4(&p, true, 1, 2);
	CHECK(rx_to(self, &p, 0));
	p.len = 0;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "10.1.2.3", 17, 0x20);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 0));
	pkt_udp(&p, mac_b, "10.1.2.4", 2);
	CHECK(rx_to(self, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	return KSFT_PASS;
}

/* IPV6: destination, next header, flow label. */
MT_TEST_F(env, spec_ipv6)
{
	struct ibv_flow_spec_ipv6 *ip;
	struct ibv_flow *flow;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip = spec(&f, IBV_FLOW_SPEC_IPV6, sizeof(*ip));
	inet_pton(AF_INET6, "2001:db8::7", ip->val.dst_ip);
	memset(ip->mask.dst_ip, 0xff, 16);
	ip->val.next_hdr = 17;
	ip->mask.next_hdr = 0xff;
	ip->val.flow_label = htonl(0x12345);
	ip->mask.flow_label = htonl(0xfffff);
	flow = flow_create(self, 0, &f);
	if (!CHECK(flow))
		return KSFT_FAIL;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x86dd);
	mt_pkt_ipv6(&p, "fe80::1", "2001:db8::7", 17, 0x12345);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 1));
	p.len = 0;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x86dd);
	mt_pkt_ipv6(&p, "fe80::1", "2001:db8::7", 17, 0x12346);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 0));
	p.len = 0;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x86dd);
	mt_pkt_ipv6(&p, "fe80::1", "2001:db8::8", 17, 0x12345);
	mt_pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(self, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	return KSFT_PASS;
}

/* TCP and UDP: ports, and the protocol they imply. */
MT_TEST_F(env, spec_tcp_udp)
{
	struct ibv_flow *ft, *fu;
	struct mt_pkt p = {};
	struct flow f;

	if (raw_qp(self) < 0)
		return KSFT_FAIL;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_TCP, 80)->val.src_port = htons(5555);
	((struct ibv_flow_spec_tcp_udp *)(f.bytes + sizeof(f.attr)))
		->mask.src_port = 0xffff;
	ft = flow_create(self, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 80);
	fu = flow_create(self, 1, &f);
	if (!CHECK(ft) || !CHECK(fu))
		return KSFT_FAIL;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 6, 0);
	mt_pkt_l4(&p, true, 5555, 80);
	CHECK(rx_to(self, &p, 1));
	p.len = 0;
	mt_pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	mt_pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 6, 0);
	mt_pkt_l4(&p, true, 5556, 80);
	CHECK(rx_to(self, &p, 0));
	pkt_udp(&p, mac_b, "2.2.2.2", 80);
	CHECK(rx_to(self, &p, 2));
	pkt_udp(&p, mac_b, "2.2.2.2", 81);
	CHECK(rx_to(self, &p, 0));
	CHECK_ERR(ibv_destroy_flow(ft), 0);
	CHECK_ERR(ibv_destroy_flow(fu), 0);
	return KSFT_PASS;
}

/* VXLAN with inner specs (IBV_FLOW_SPEC_INNER). */
MT_TEST_F(env, spec_vxlan_inner)
{
	struct ibv_flow_spec_tunnel *vx;
	struct ibv_flow *flow;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 4789);
	vx = spec(&f, IBV_FLOW_SPEC_VXLAN_TUNNEL, sizeof(*vx));
	vx->val.tunnel_id = htonl(42);
	vx->mask.tunnel_id = htonl(0xffffff);
	spec_eth(&f, IBV_FLOW_SPEC_INNER, mac_a);
	spec_ipv4(&f, IBV_FLOW_SPEC_INNER, "192.168.7.7");
	flow = flow_create(self, 0, &f);
	if (!CHECK(flow))
		return KSFT_FAIL;
	pkt_vxlan(&p, 42, "192.168.7.7");
	CHECK(rx_to(self, &p, 1));
	p.len = 0;
	pkt_vxlan(&p, 43, "192.168.7.7");
	CHECK(rx_to(self, &p, 0));
	p.len = 0;
	pkt_vxlan(&p, 42, "192.168.7.8");
	CHECK(rx_to(self, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	return KSFT_PASS;
}

/* GRE: protocol and key; GRE flags cannot be matched. */
MT_TEST_F(env, spec_gre)
{
	struct ibv_flow_spec_gre *gre;
	struct ibv_flow *flow;
	struct mt_pkt p = {};
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	gre = spec(&f, IBV_FLOW_SPEC_GRE, sizeof(*gre));
	gre->val.protocol = htons(0x0800);
	gre->mask.protocol = 0xffff;
	gre->val.key = htonl(0xabcd);
	gre->mask.key = 0xffffffff;
	flow = flow_create(self, 0, &f);
	if (!CHECK(flow))
		return KSFT_FAIL;
	pkt_gre(&p, 0xabcd);
	CHECK(rx_to(self, &p, 1));
	p.len = 0;
	pkt_gre(&p, 0xabce);
	CHECK(rx_to(self, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	gre->mask.c_ks_res0_ver = htons(0x2000);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
	return KSFT_PASS;
}

/* MPLS: the profile offers no MPLS field, so a label mask is refused. */
MT_TEST_F(env, spec_mpls)
{
	struct ibv_flow_spec_mpls *mpls;
	struct ibv_flow *flow;
	struct flow f;

	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 6635);
	mpls = spec(&f, IBV_FLOW_SPEC_MPLS, sizeof(*mpls));
	mpls->val.label = htonl(100 << 12);
	mpls->mask.label = htonl(0xfffff000);
	CHECK(!flow_create(self, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
	/* no field masked: nothing to refuse */
	mpls->mask.label = 0;
	flow = flow_create(self, 0, &f);
	if (CHECK(flow))
		CHECK_ERR(ibv_destroy_flow(flow), 0);
	return KSFT_PASS;
}

/*
 * ib_uverbs' own create_flow command, as libibverbs would write it but
 * with the spec given as is (libibverbs sizes the specs it knows itself):
 * the flow's handle, or -errno.
 */
static long raw_create_flow(struct env *e, int qp, uint32_t type,
			    uint16_t size, uint16_t reserved,
			    const void *filters, size_t flen)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_create_flow cmd;
		uint8_t spec[64];
	} req = {};
	struct ib_uverbs_create_flow_resp resp = {};
	struct ib_uverbs_flow_spec_hdr *sh = (void *)req.spec;
	size_t words = (sizeof(req.cmd) + sizeof(req.spec)) / 8;

	req.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			  IB_USER_VERBS_EX_CMD_CREATE_FLOW;
	req.hdr.in_words = words;
	req.hdr.out_words = sizeof(resp) / 8;
	req.ex.response = (uintptr_t)&resp;
	req.cmd.qp_handle = e->qp[qp]->handle;
	req.cmd.flow_attr.type = IBV_FLOW_ATTR_NORMAL;
	/* the attribute holds at least the spec's header */
	req.cmd.flow_attr.size = size < sizeof(*sh) ? sizeof(*sh) : size;
	req.cmd.flow_attr.num_of_specs = 1;
	req.cmd.flow_attr.port = 1;
	sh->type = type;
	sh->size = size;
	sh->reserved = reserved;
	memcpy(req.spec + sizeof(*sh), filters, flen);
	if (write(e->v.ctx->cmd_fd, &req, sizeof(req)) < 0)
		return -errno;
	return resp.flow_handle;
}

static int raw_destroy_flow(struct env *e, uint32_t handle)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_destroy_flow cmd;
	} req = {};

	req.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			  IB_USER_VERBS_EX_CMD_DESTROY_FLOW;
	req.hdr.in_words = sizeof(req.cmd) / 8;
	req.cmd.flow_handle = handle;
	return write(e->v.ctx->cmd_fd, &req, sizeof(req)) < 0 ? -errno : 0;
}

/* Spec sizes and reserved fields, as the kernel sees them. */
MT_TEST_F(env, bad_spec_size)
{
	/* a UDP filter of 8 bytes: the port pair and 4 more */
	uint8_t udp[16] = { 0, 80, 0, 0, 0, 0, 0, 0,
			    0xff, 0xff, 0, 0, 0, 0, 0, 0 };
	long h;

	/* the size its filters have: accepted */
	h = raw_create_flow(self, 0, IBV_FLOW_SPEC_UDP, 16, 0, udp, 8);
	CHECK(h >= 0);
	if (h >= 0)
		CHECK_EQ(raw_destroy_flow(self, h), 0);
	/* larger, the bytes the kernel does not know zero: accepted */
	h = raw_create_flow(self, 0, IBV_FLOW_SPEC_UDP, 24, 0, udp, 16);
	CHECK(h >= 0);
	if (h >= 0)
		CHECK_EQ(raw_destroy_flow(self, h), 0);
	/* ... masking what it does not know: refused */
	udp[13] = 1;
	CHECK_EQ(raw_create_flow(self, 0, IBV_FLOW_SPEC_UDP, 24, 0, udp, 16),
		 -EINVAL);
	/* filters not a multiple of 4 bytes, or no header */
	CHECK_EQ(raw_create_flow(self, 0, IBV_FLOW_SPEC_UDP, 18, 0, udp, 10),
		 -EINVAL);
	CHECK_EQ(raw_create_flow(self, 0, IBV_FLOW_SPEC_UDP, 4, 0, udp, 0),
		 -EINVAL);
	/* the reserved field, an unknown type */
	CHECK_EQ(raw_create_flow(self, 0, IBV_FLOW_SPEC_UDP, 16, 1, udp, 8),
		 -EINVAL);
	CHECK_EQ(raw_create_flow(self, 0, 0x99, 16, 0, udp, 8), -EINVAL);
	/* ESP and IB specs: not on this device */
	CHECK_EQ(raw_create_flow(self, 0, IBV_FLOW_SPEC_ESP, 24, 0, udp, 16),
		 -EOPNOTSUPP);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(env, man_example, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, spec_eth, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, spec_ipv4, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, spec_ipv6, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, spec_tcp_udp, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, spec_vxlan_inner, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, spec_gre, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, spec_mpls, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, bad_spec_size),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
