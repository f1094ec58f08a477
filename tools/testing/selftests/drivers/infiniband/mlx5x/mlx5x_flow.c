// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs flow steering, as ibv_create_flow(3) describes it: flows on
 * RAW_PACKET QPs, judged by where the model's classifier (fw/classify)
 * sends packets.  The man page's example, every spec type matched and not
 * matched, priority precedence, DONT_TRAP, two QPs on one match, the
 * default and sniffer rules, counters (ibv_read_counters(3)), drop,
 * egress, and the inputs mlx5 refuses, with their errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include "mlx5x_test.h"

#define TRACE_BYTES	(64 * 1024)
#define FLOW_BYTES	1024
#define MAX_QPS		4

struct env {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	int base;			/* model objects before the context */
	unsigned int nqps;
	struct ibv_qp *qp[MAX_QPS];
	uint32_t tir[MAX_QPS];		/* each QP's TIR, as the trace names it */
	char *trace;
};

/* A flow attribute and its specs, built up spec by spec. */
struct flow {
	union {
		struct ibv_flow_attr attr;
		uint8_t bytes[FLOW_BYTES];
	};
};

/* A packet, built up header by header. */
struct pkt {
	uint8_t b[512];
	unsigned int len;
};

static const uint8_t mac_a[6] = { 0x66, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t mac_b[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b };
static const uint8_t mac_0[6];
static const uint8_t mac_ff[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mac_mc[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

/* ---- the environment ---- */

static bool env_open(struct env *e)
{
	memset(e, 0, sizeof(*e));
	e->base = mt_fw_count(NULL, -1);
	e->trace = malloc(TRACE_BYTES);
	e->ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!CHECK(e->trace) || !CHECK(e->ctx))
		return false;
	e->pd = ibv_alloc_pd(e->ctx);
	e->cq = ibv_create_cq(e->ctx, 64, NULL, NULL, 0);
	return CHECK(e->pd) && CHECK(e->cq);
}

static void env_close(struct env *e)
{
	while (e->nqps)
		CHECK_ERR(ibv_destroy_qp(e->qp[--e->nqps]), 0);
	if (e->cq)
		CHECK_ERR(ibv_destroy_cq(e->cq), 0);
	if (e->pd)
		CHECK_ERR(ibv_dealloc_pd(e->pd), 0);
	if (e->ctx)
		CHECK_EQ(ibv_close_device(e->ctx), 0);
	free(e->trace);
	if (mt_sim() && !CHECK_EQ(mt_fw_count(NULL, -1), e->base))
		mt_fw_dump();
}

static struct ibv_qp *qp_create(struct env *e, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = type,
	};

	return ibv_create_qp(e->pd, &attr);
}

/*
 * A RAW_PACKET QP: its number in @e; on the model, its TIR is the one the
 * QP added to the model's objects.
 */
static int raw_qp(struct env *e)
{
	struct mt_objs before = {}, after = {};
	struct mt_obj tir = {};
	struct ibv_qp *qp;
	int i = e->nqps;

	if (!CHECK(i < MAX_QPS))
		return -1;
	if (mt_sim() && !CHECK_EQ(mt_fw_read(&before), 0))
		return -1;
	qp = qp_create(e, IBV_QPT_RAW_PACKET);
	if (!CHECK(qp)) {
		mt_fw_free(&before);
		return -1;
	}
	e->qp[i] = qp;
	e->nqps++;
	if (!mt_sim())
		return i;
	if (CHECK_EQ(mt_fw_read(&after), 0))
		CHECK_EQ(mt_fw_added(&before, &after, "tir", &tir, 1), 1);
	mt_fw_free(&before);
	mt_fw_free(&after);
	e->tir[i] = tir.id;
	return i;
}

/* ---- flows ---- */

static void flow_init(struct flow *f, enum ibv_flow_attr_type type,
		      uint16_t prio, uint32_t flags)
{
	memset(f, 0, sizeof(*f));
	f->attr.type = type;
	f->attr.size = sizeof(f->attr);
	f->attr.priority = prio;
	f->attr.port = 1;
	f->attr.flags = flags;
}

static void *spec(struct flow *f, uint32_t type, size_t size)
{
	struct ibv_flow_spec *s = (void *)(f->bytes + f->attr.size);

	s->hdr.type = type;
	s->hdr.size = size;
	f->attr.size += size;
	f->attr.num_of_specs++;
	return s;
}

static struct ibv_flow_spec_eth *spec_eth(struct flow *f, uint32_t inner,
					  const uint8_t *dmac)
{
	struct ibv_flow_spec_eth *s = spec(f, IBV_FLOW_SPEC_ETH | inner,
					   sizeof(*s));

	memcpy(s->val.dst_mac, dmac, 6);
	memcpy(s->mask.dst_mac, mac_ff, 6);
	return s;
}

static struct ibv_flow_spec_ipv4_ext *spec_ipv4(struct flow *f,
						uint32_t inner,
						const char *dst)
{
	struct ibv_flow_spec_ipv4_ext *s = spec(f, IBV_FLOW_SPEC_IPV4_EXT |
						inner, sizeof(*s));

	inet_pton(AF_INET, dst, &s->val.dst_ip);
	s->mask.dst_ip = 0xffffffff;
	return s;
}

static struct ibv_flow_spec_tcp_udp *spec_l4(struct flow *f, uint32_t type,
					     uint16_t dport)
{
	struct ibv_flow_spec_tcp_udp *s = spec(f, type, sizeof(*s));

	s->val.dst_port = htons(dport);
	s->mask.dst_port = 0xffff;
	return s;
}

static struct ibv_flow *flow_create(struct env *e, int qp, struct flow *f)
{
	errno = 0;
	return ibv_create_flow(e->qp[qp], &f->attr);
}

/* ---- packets ---- */

static void put(struct pkt *p, const void *b, unsigned int n)
{
	memcpy(p->b + p->len, b, n);
	p->len += n;
}

static void put16(struct pkt *p, uint16_t v)
{
	v = htons(v);
	put(p, &v, 2);
}

static void put32(struct pkt *p, uint32_t v)
{
	v = htonl(v);
	put(p, &v, 4);
}

static void pkt_eth(struct pkt *p, const uint8_t *dmac, const uint8_t *smac,
		    int vid, uint16_t type)
{
	put(p, dmac, 6);
	put(p, smac, 6);
	if (vid >= 0) {
		put16(p, 0x8100);
		put16(p, vid);
	}
	put16(p, type);
}

static void pkt_ipv4(struct pkt *p, const char *src, const char *dst,
		     uint8_t proto, uint8_t tos)
{
	uint8_t h[20] = { 0x45, tos, 0, 60, 0, 0, 0x40, 0, 64, proto };

	inet_pton(AF_INET, src, h + 12);
	inet_pton(AF_INET, dst, h + 16);
	put(p, h, sizeof(h));
}

static void pkt_ipv6(struct pkt *p, const char *dst, uint8_t next,
		     uint32_t label)
{
	uint8_t h[40] = { 0x60 | 0, 0, 0, 0, 0, 40, next, 64 };

	h[1] = (label >> 16) & 0xf;
	h[2] = label >> 8;
	h[3] = label;
	inet_pton(AF_INET6, "fe80::1", h + 8);
	inet_pton(AF_INET6, dst, h + 24);
	put(p, h, sizeof(h));
}

static void pkt_l4(struct pkt *p, bool tcp, uint16_t sport, uint16_t dport)
{
	static const uint8_t tcp_rest[16] = { [8] = 0x50, [9] = 0x02 };

	put16(p, sport);
	put16(p, dport);
	if (tcp) {
		put(p, tcp_rest, sizeof(tcp_rest));
	} else {
		put16(p, 8);
		put16(p, 0);
	}
}

/* UDP to 4789, VXLAN with @vni, an inner Ethernet + IPv4 to @dst. */
static void pkt_vxlan(struct pkt *p, uint32_t vni, const char *dst)
{
	pkt_eth(p, mac_b, mac_0, -1, 0x0800);
	pkt_ipv4(p, "10.0.0.1", "10.0.0.2", 17, 0);
	pkt_l4(p, false, 1234, 4789);
	put32(p, 0x08000000);
	put32(p, vni << 8);
	pkt_eth(p, mac_a, mac_b, -1, 0x0800);
	pkt_ipv4(p, "192.168.0.1", dst, 17, 0);
	pkt_l4(p, false, 1, 2);
}

/* GRE with a key, carrying IPv4. */
static void pkt_gre(struct pkt *p, uint32_t key)
{
	pkt_eth(p, mac_b, mac_0, -1, 0x0800);
	pkt_ipv4(p, "10.0.0.1", "10.0.0.2", 47, 0);
	put16(p, 0x2000);
	put16(p, 0x0800);
	put32(p, key);
	pkt_ipv4(p, "192.168.0.1", "192.168.0.2", 17, 0);
	pkt_l4(p, false, 1, 2);
}

/* A UDP packet to @dmac, IPv4 @dst, UDP port @dport. */
static void pkt_udp(struct pkt *p, const uint8_t *dmac, const char *dst,
		    uint16_t dport)
{
	p->len = 0;
	pkt_eth(p, dmac, mac_b, -1, 0x0800);
	pkt_ipv4(p, "10.0.0.1", dst, 17, 0);
	pkt_l4(p, false, 1000, dport);
}

/* ---- the classifier ---- */

/* Walk @p through the pipeline; the trace into e->trace. */
static int walk(struct env *e, const char *dir, const struct pkt *p)
{
	char path[sizeof(mt.dbg) + 16], *line, *at;
	unsigned int i;
	ssize_t n;
	int fd, err = 0;

	e->trace[0] = '\0';
	snprintf(path, sizeof(path), "%s/classify", mt.dbg);
	line = malloc(16 + 2 * p->len);
	if (!line)
		return -ENOMEM;
	at = line + sprintf(line, "%s 1 ", dir);
	for (i = 0; i < p->len; i++)
		at += sprintf(at, "%02x", p->b[i]);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		free(line);
		return -errno;
	}
	if (write(fd, line, strlen(line)) < 0)
		err = -errno;
	if (!err) {
		n = read(fd, e->trace, TRACE_BYTES - 1);
		if (n < 0)
			err = -errno;
		else
			e->trace[n] = '\0';
	}
	close(fd);
	free(line);
	return err;
}

/* Does the trace deliver to QP @qp of @e? */
static bool to_qp(struct env *e, int qp)
{
	char want[64];

	snprintf(want, sizeof(want), "verdict to=tir id=0x%x ", e->tir[qp]);
	return strstr(e->trace, want);
}

static int nverdicts(const struct env *e, const char *what)
{
	const char *s = e->trace;
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* @p received goes to exactly QPs in @mask (bit per QP of @e). */
static bool rx_to(struct env *e, const struct pkt *p, unsigned int mask)
{
	unsigned int i, n = 0;
	bool ok = true;

	if (!CHECK_EQ(walk(e, "rx", p), 0))
		return false;
	for (i = 0; i < e->nqps; i++) {
		if (to_qp(e, i) != !!(mask & 1U << i))
			ok = false;
		n += !!(mask & 1U << i);
	}
	if (nverdicts(e, "verdict to=tir") != (int)n)
		ok = false;
	if (!n && !strstr(e->trace, "verdict to=default"))
		ok = false;
	if (!ok)
		mt_diag("trace:\n%s", e->trace);
	return ok;
}

static const char no_model[] = "no classifier on hardware";

/* ---- the cases ---- */

/* As the man page has it, but aligned: its specs have no holes. */
struct raw_eth_flow_attr {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_eth eth;
	struct ibv_flow_spec_ipv4 ipv4;
};

/* ibv_create_flow(3)'s example: destination MAC and source IPv4. */
static int test_man_example(void)
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
	struct pkt p = {};
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	inet_ntop(AF_INET, &fa.ipv4.val.src_ip, src, sizeof(src));
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow = ibv_create_flow(e.qp[0], &fa.attr);
	if (!CHECK(flow))
		goto out;
	pkt_eth(&p, mac_a, mac_0, -1, 0x0800);
	pkt_ipv4(&p, src, "10.0.0.2", 17, 0);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 1));
	CHECK(strstr(e.trace, "uid="));
	/* another source address, another source MAC: not this flow's */
	p.len = 0;
	pkt_eth(&p, mac_a, mac_0, -1, 0x0800);
	pkt_ipv4(&p, "10.9.9.9", "10.0.0.2", 17, 0);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 0));
	p.len = 0;
	pkt_eth(&p, mac_a, mac_b, -1, 0x0800);
	pkt_ipv4(&p, src, "10.0.0.2", 17, 0);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	/* gone: the same packet no longer reaches the QP */
	p.len = 0;
	pkt_eth(&p, mac_a, mac_0, -1, 0x0800);
	pkt_ipv4(&p, src, "10.0.0.2", 17, 0);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 0));
out:
	env_close(&e);
	return KSFT_PASS;
}

/* ETH: MACs, ethertype and the VLAN tag. */
static int test_spec_eth(void)
{
	struct ibv_flow_spec_eth *eth;
	struct ibv_flow *flow;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	eth = spec_eth(&f, 0, mac_a);
	memcpy(eth->val.src_mac, mac_b, 6);
	memcpy(eth->mask.src_mac, mac_ff, 6);
	eth->val.ether_type = htons(0x0800);
	eth->mask.ether_type = 0xffff;
	eth->val.vlan_tag = htons(100);
	eth->mask.vlan_tag = htons(0x0fff);
	flow = flow_create(&e, 0, &f);
	if (!CHECK(flow))
		goto out;
	pkt_eth(&p, mac_a, mac_b, 100, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 17, 0);
	CHECK(rx_to(&e, &p, 1));
	p.len = 0;
	pkt_eth(&p, mac_a, mac_b, 101, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 17, 0);
	CHECK(rx_to(&e, &p, 0));
	p.len = 0;
	pkt_eth(&p, mac_a, mac_b, -1, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 17, 0);
	CHECK(rx_to(&e, &p, 0));
	p.len = 0;
	pkt_eth(&p, mac_a, mac_b, 100, 0x86dd);
	pkt_ipv6(&p, "fe80::2", 17, 0);
	CHECK(rx_to(&e, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* IPV4 (extended): destination, protocol, TOS. */
static int test_spec_ipv4(void)
{
	struct ibv_flow_spec_ipv4_ext *ip;
	struct ibv_flow *flow;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip = spec_ipv4(&f, 0, "10.1.2.3");
	ip->val.proto = 6;
	ip->mask.proto = 0xff;
	ip->val.tos = 0x20;
	ip->mask.tos = 0xff;
	flow = flow_create(&e, 0, &f);
	if (!CHECK(flow))
		goto out;
	pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "10.1.2.3", 6, 0x20);
	pkt_l4(&p, true, 1, 2);
	CHECK(rx_to(&e, &p, 1));
	p.len = 0;
	pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "10.1.2.3", 6, 0x00);
	pkt_l4(&p, true, 1, 2);
	CHECK(rx_to(&e, &p, 0));
	p.len = 0;
	pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "10.1.2.3", 17, 0x20);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 0));
	pkt_udp(&p, mac_b, "10.1.2.4", 2);
	CHECK(rx_to(&e, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* IPV6: destination, next header, flow label. */
static int test_spec_ipv6(void)
{
	struct ibv_flow_spec_ipv6 *ip;
	struct ibv_flow *flow;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip = spec(&f, IBV_FLOW_SPEC_IPV6, sizeof(*ip));
	inet_pton(AF_INET6, "2001:db8::7", ip->val.dst_ip);
	memset(ip->mask.dst_ip, 0xff, 16);
	ip->val.next_hdr = 17;
	ip->mask.next_hdr = 0xff;
	ip->val.flow_label = htonl(0x12345);
	ip->mask.flow_label = htonl(0xfffff);
	flow = flow_create(&e, 0, &f);
	if (!CHECK(flow))
		goto out;
	pkt_eth(&p, mac_b, mac_0, -1, 0x86dd);
	pkt_ipv6(&p, "2001:db8::7", 17, 0x12345);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 1));
	p.len = 0;
	pkt_eth(&p, mac_b, mac_0, -1, 0x86dd);
	pkt_ipv6(&p, "2001:db8::7", 17, 0x12346);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 0));
	p.len = 0;
	pkt_eth(&p, mac_b, mac_0, -1, 0x86dd);
	pkt_ipv6(&p, "2001:db8::8", 17, 0x12345);
	pkt_l4(&p, false, 1, 2);
	CHECK(rx_to(&e, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* TCP and UDP: ports, and the protocol they imply. */
static int test_spec_tcp_udp(void)
{
	struct ibv_flow *ft, *fu;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0 || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_TCP, 80)->val.src_port = htons(5555);
	((struct ibv_flow_spec_tcp_udp *)(f.bytes + sizeof(f.attr)))
		->mask.src_port = 0xffff;
	ft = flow_create(&e, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 80);
	fu = flow_create(&e, 1, &f);
	if (!CHECK(ft) || !CHECK(fu))
		goto out;
	pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 6, 0);
	pkt_l4(&p, true, 5555, 80);
	CHECK(rx_to(&e, &p, 1));
	p.len = 0;
	pkt_eth(&p, mac_b, mac_0, -1, 0x0800);
	pkt_ipv4(&p, "1.1.1.1", "2.2.2.2", 6, 0);
	pkt_l4(&p, true, 5556, 80);
	CHECK(rx_to(&e, &p, 0));
	pkt_udp(&p, mac_b, "2.2.2.2", 80);
	CHECK(rx_to(&e, &p, 2));
	pkt_udp(&p, mac_b, "2.2.2.2", 81);
	CHECK(rx_to(&e, &p, 0));
	CHECK_ERR(ibv_destroy_flow(ft), 0);
	CHECK_ERR(ibv_destroy_flow(fu), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* VXLAN with inner specs (IBV_FLOW_SPEC_INNER). */
static int test_spec_vxlan_inner(void)
{
	struct ibv_flow_spec_tunnel *vx;
	struct ibv_flow *flow;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 4789);
	vx = spec(&f, IBV_FLOW_SPEC_VXLAN_TUNNEL, sizeof(*vx));
	vx->val.tunnel_id = htonl(42);
	vx->mask.tunnel_id = htonl(0xffffff);
	spec_eth(&f, IBV_FLOW_SPEC_INNER, mac_a);
	spec_ipv4(&f, IBV_FLOW_SPEC_INNER, "192.168.7.7");
	flow = flow_create(&e, 0, &f);
	if (!CHECK(flow))
		goto out;
	pkt_vxlan(&p, 42, "192.168.7.7");
	CHECK(rx_to(&e, &p, 1));
	p.len = 0;
	pkt_vxlan(&p, 43, "192.168.7.7");
	CHECK(rx_to(&e, &p, 0));
	p.len = 0;
	pkt_vxlan(&p, 42, "192.168.7.8");
	CHECK(rx_to(&e, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* GRE: protocol and key; GRE flags cannot be matched. */
static int test_spec_gre(void)
{
	struct ibv_flow_spec_gre *gre;
	struct ibv_flow *flow;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	gre = spec(&f, IBV_FLOW_SPEC_GRE, sizeof(*gre));
	gre->val.protocol = htons(0x0800);
	gre->mask.protocol = 0xffff;
	gre->val.key = htonl(0xabcd);
	gre->mask.key = 0xffffffff;
	flow = flow_create(&e, 0, &f);
	if (!CHECK(flow))
		goto out;
	pkt_gre(&p, 0xabcd);
	CHECK(rx_to(&e, &p, 1));
	p.len = 0;
	pkt_gre(&p, 0xabce);
	CHECK(rx_to(&e, &p, 0));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	gre->mask.c_ks_res0_ver = htons(0x2000);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* MPLS: the profile offers no MPLS field, so a label mask is refused. */
static int test_spec_mpls(void)
{
	struct ibv_flow_spec_mpls *mpls;
	struct ibv_flow *flow;
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 6635);
	mpls = spec(&f, IBV_FLOW_SPEC_MPLS, sizeof(*mpls));
	mpls->val.label = htonl(100 << 12);
	mpls->mask.label = htonl(0xfffff000);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
	/* no field masked: nothing to refuse */
	mpls->mask.label = 0;
	flow = flow_create(&e, 0, &f);
	if (CHECK(flow))
		CHECK_ERR(ibv_destroy_flow(flow), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Action tag: the entry reports it; 24 bits at most. */
static int test_action_tag(void)
{
	struct ibv_flow_spec_action_tag *tag;
	struct ibv_flow *flow;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7000);
	tag = spec(&f, IBV_FLOW_SPEC_ACTION_TAG, sizeof(*tag));
	tag->tag_id = 0xabcdef;
	flow = flow_create(&e, 0, &f);
	if (!CHECK(flow))
		goto out;
	pkt_udp(&p, mac_b, "1.1.1.1", 7000);
	CHECK(rx_to(&e, &p, 1));
	CHECK(strstr(e.trace, "tag value=0xabcdef\n"));
	CHECK_ERR(ibv_destroy_flow(flow), 0);
	tag->tag_id = 1 << 24;
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Action drop: the packet goes nowhere, not even to a later priority. */
static int test_action_drop(void)
{
	struct ibv_flow *drop, *fwd;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 1, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7001);
	fwd = flow_create(&e, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7001);
	spec(&f, IBV_FLOW_SPEC_ACTION_DROP,
	     sizeof(struct ibv_flow_spec_action_drop));
	drop = flow_create(&e, 0, &f);
	if (!CHECK(fwd) || !CHECK(drop))
		goto out;
	pkt_udp(&p, mac_b, "1.1.1.1", 7001);
	CHECK_EQ(walk(&e, "rx", &p), 0);
	CHECK(strstr(e.trace, "verdict to=drop\n"));
	CHECK_EQ(nverdicts(&e, "verdict"), 1);
	CHECK_ERR(ibv_destroy_flow(drop), 0);
	CHECK(rx_to(&e, &p, 1));
	CHECK_ERR(ibv_destroy_flow(fwd), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* A lower priority number wins, whichever flow came first. */
static int test_priority(void)
{
	struct ibv_flow *lo, *hi, *mid;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0 || raw_qp(&e) < 0 ||
	    raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 7, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 8000);
	lo = flow_create(&e, 0, &f);
	f.attr.priority = 2;
	hi = flow_create(&e, 1, &f);
	f.attr.priority = 15;
	mid = flow_create(&e, 2, &f);
	if (!CHECK(lo) || !CHECK(hi) || !CHECK(mid))
		goto out;
	pkt_udp(&p, mac_b, "1.1.1.1", 8000);
	CHECK(rx_to(&e, &p, 2));
	CHECK_ERR(ibv_destroy_flow(hi), 0);
	CHECK(rx_to(&e, &p, 1));
	CHECK_ERR(ibv_destroy_flow(lo), 0);
	CHECK(rx_to(&e, &p, 4));
	CHECK_ERR(ibv_destroy_flow(mid), 0);
	CHECK(rx_to(&e, &p, 0));
	/* a more specific flow of a later priority still loses */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 3, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 8000);
	lo = flow_create(&e, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 4, 0);
	spec_ipv4(&f, 0, "1.1.1.1");
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 8000);
	hi = flow_create(&e, 1, &f);
	if (CHECK(lo) && CHECK(hi))
		CHECK(rx_to(&e, &p, 1));
	if (lo)
		CHECK_ERR(ibv_destroy_flow(lo), 0);
	if (hi)
		CHECK_ERR(ibv_destroy_flow(hi), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* DONT_TRAP: delivered, and the packet goes on to the next rules. */
static int test_dont_trap(void)
{
	struct ibv_flow *dt, *trap, *dt2;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0 || raw_qp(&e) < 0 ||
	    raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9000);
	trap = flow_create(&e, 1, &f);
	f.attr.flags = IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
	dt = flow_create(&e, 0, &f);
	if (!CHECK(trap) || !CHECK(dt))
		goto out;
	pkt_udp(&p, mac_b, "1.1.1.1", 9000);
	CHECK(rx_to(&e, &p, 3));
	/* a don't-trap flow of a later priority, and nothing after it */
	CHECK_ERR(ibv_destroy_flow(trap), 0);
	f.attr.priority = 5;
	dt2 = flow_create(&e, 2, &f);
	if (CHECK(dt2)) {
		CHECK(rx_to(&e, &p, 5));
		CHECK(strstr(e.trace, "verdict to=default\n"));
		CHECK_ERR(ibv_destroy_flow(dt2), 0);
	}
	CHECK(rx_to(&e, &p, 1));
	CHECK(strstr(e.trace, "verdict to=default\n"));
	CHECK_ERR(ibv_destroy_flow(dt), 0);
	/* only NORMAL flows may be don't-trap (ib_uverbs refuses) */
	flow_init(&f, IBV_FLOW_ATTR_ALL_DEFAULT, 0,
		  IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Two QPs, one match, one priority: both get it, until one goes. */
static int test_same_match(void)
{
	struct ibv_flow *a, *b, *c;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0 || raw_qp(&e) < 0 ||
	    raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_eth(&f, 0, mac_a);
	a = flow_create(&e, 0, &f);
	b = flow_create(&e, 1, &f);
	if (!CHECK(a) || !CHECK(b))
		goto out;
	pkt_udp(&p, mac_a, "1.1.1.1", 1);
	CHECK(rx_to(&e, &p, 3));
	/* one entry, two destinations */
	CHECK_EQ(nverdicts(&e, "result=hit"), 1);
	CHECK_ERR(ibv_destroy_flow(a), 0);
	CHECK(rx_to(&e, &p, 2));
	c = flow_create(&e, 2, &f);
	if (CHECK(c)) {
		CHECK(rx_to(&e, &p, 6));
		CHECK_ERR(ibv_destroy_flow(b), 0);
		CHECK(rx_to(&e, &p, 4));
		CHECK_ERR(ibv_destroy_flow(c), 0);
	}
	CHECK(rx_to(&e, &p, 0));
	/* the same QP twice on one match: still one delivery */
	a = flow_create(&e, 0, &f);
	b = flow_create(&e, 0, &f);
	if (CHECK(a) && CHECK(b)) {
		CHECK(rx_to(&e, &p, 1));
		CHECK_ERR(ibv_destroy_flow(a), 0);
		CHECK(rx_to(&e, &p, 1));
		CHECK_ERR(ibv_destroy_flow(b), 0);
	}
	/* the same match with another action conflicts */
	a = flow_create(&e, 0, &f);
	spec(&f, IBV_FLOW_SPEC_ACTION_DROP,
	     sizeof(struct ibv_flow_spec_action_drop));
	CHECK(!flow_create(&e, 1, &f));
	CHECK_ERR(errno, EEXIST);
	if (CHECK(a))
		CHECK_ERR(ibv_destroy_flow(a), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* ALL_DEFAULT and MC_DEFAULT: what no other flow took. */
static int test_default_rules(void)
{
	struct ibv_flow *all, *mc, *normal;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0 || raw_qp(&e) < 0 ||
	    raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_MC_DEFAULT, 0, 0);
	mc = flow_create(&e, 0, &f);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_eth(&f, 0, mac_mc);
	normal = flow_create(&e, 2, &f);
	if (!CHECK(mc) || !CHECK(normal))
		goto out;
	pkt_udp(&p, mac_b, "1.1.1.1", 1);
	CHECK(rx_to(&e, &p, 0));
	pkt_udp(&p, (const uint8_t[]){ 0x01, 0, 0x5e, 0, 0, 9 },
		"239.0.0.9", 1);
	CHECK(rx_to(&e, &p, 1));
	/* a normal flow takes its multicast packets first */
	pkt_udp(&p, mac_mc, "239.0.0.1", 1);
	CHECK(rx_to(&e, &p, 4));
	flow_init(&f, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
	all = flow_create(&e, 1, &f);
	if (CHECK(all)) {
		pkt_udp(&p, mac_b, "1.1.1.1", 1);
		CHECK(rx_to(&e, &p, 2));
		/* both default rules want multicast: both get it */
		pkt_udp(&p, (const uint8_t[]){ 0x01, 0, 0x5e, 0, 0, 9 },
			"239.0.0.9", 1);
		CHECK(rx_to(&e, &p, 3));
		CHECK_ERR(ibv_destroy_flow(all), 0);
	}
	CHECK_ERR(ibv_destroy_flow(mc), 0);
	CHECK_ERR(ibv_destroy_flow(normal), 0);
	pkt_udp(&p, mac_b, "1.1.1.1", 1);
	CHECK(rx_to(&e, &p, 0));
	/* no default rule on the egress side */
	flow_init(&f, IBV_FLOW_ATTR_MC_DEFAULT, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* SNIFFER: a copy of every packet, received or sent, besides its way. */
static int test_sniffer(void)
{
	struct ibv_flow *sn, *normal;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0 || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_SNIFFER, 0, 0);
	sn = flow_create(&e, 0, &f);
	if (!sn && errno == EOPNOTSUPP) {
		env_close(&e);
		return mt_skip("the device has no sniffer tables");
	}
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9100);
	normal = flow_create(&e, 1, &f);
	if (!CHECK(sn) || !CHECK(normal))
		goto out;
	pkt_udp(&p, mac_b, "1.1.1.1", 9100);
	CHECK(rx_to(&e, &p, 3));
	pkt_udp(&p, mac_b, "1.1.1.1", 9101);
	CHECK_EQ(walk(&e, "rx", &p), 0);
	CHECK(to_qp(&e, 0) && !to_qp(&e, 1));
	CHECK(strstr(e.trace, "verdict to=default\n"));
	CHECK_EQ(walk(&e, "tx", &p), 0);
	CHECK(to_qp(&e, 0));
	CHECK(strstr(e.trace, "verdict to=wire\n"));
	CHECK_ERR(ibv_destroy_flow(sn), 0);
	CHECK_ERR(ibv_destroy_flow(normal), 0);
	CHECK_EQ(walk(&e, "tx", &p), 0);
	CHECK(!to_qp(&e, 0));
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Counters: bound at the flow's creation, read after classifying. */
static int test_counters(void)
{
	struct ibv_counter_attach_attr at = {};
	struct ibv_flow_spec_counter_action *cs;
	struct ibv_counters_init_attr ia = {};
	struct ibv_flow *flow, *flow2;
	struct ibv_counters *cnt;
	uint64_t v[3] = {};
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	cnt = ibv_create_counters(e.ctx, &ia);
	if (!CHECK(cnt))
		goto out;
	at.counter_desc = IBV_COUNTER_PACKETS;
	at.index = 0;
	CHECK_ERR(ibv_attach_counters_point_flow(cnt, &at, NULL), 0);
	at.counter_desc = IBV_COUNTER_BYTES;
	at.index = 2;
	CHECK_ERR(ibv_attach_counters_point_flow(cnt, &at, NULL), 0);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9200);
	cs = spec(&f, IBV_FLOW_SPEC_ACTION_COUNT, sizeof(*cs));
	cs->counters = cnt;
	flow = flow_create(&e, 0, &f);
	if (CHECK(flow)) {
		pkt_udp(&p, mac_b, "1.1.1.1", 9200);
		CHECK(rx_to(&e, &p, 1));
		CHECK(strstr(e.trace, "counter id=0x"));
		CHECK(rx_to(&e, &p, 1));
		pkt_udp(&p, mac_b, "1.1.1.1", 9201);
		CHECK(rx_to(&e, &p, 0));
		CHECK_ERR(ibv_read_counters(cnt, v, 3, 0), 0);
		CHECK_EQ(v[0], 2);
		CHECK_EQ(v[1], 0);
		CHECK_EQ(v[2], 2 * p.len);
		/* the binding names index 2: a shorter array is refused */
		CHECK_ERR(ibv_read_counters(cnt, v, 2, 0), EINVAL);
		/*
		 * a second flow counting into the same object (libmlx5
		 * sends no binding for it): the values add up
		 */
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 9202);
		cs = spec(&f, IBV_FLOW_SPEC_ACTION_COUNT, sizeof(*cs));
		cs->counters = cnt;
		flow2 = flow_create(&e, 0, &f);
		if (CHECK(flow2)) {
			pkt_udp(&p, mac_b, "1.1.1.1", 9202);
			CHECK(rx_to(&e, &p, 1));
			memset(v, 0, sizeof(v));
			CHECK_ERR(ibv_read_counters(cnt, v, 3, 0), 0);
			CHECK_EQ(v[0], 3);
			CHECK_EQ(v[2], 3 * p.len);
			CHECK_ERR(ibv_destroy_flow(flow2), 0);
		}
		CHECK_ERR(ibv_destroy_flow(flow), 0);
	}
	CHECK_ERR(ibv_destroy_counters(cnt), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* EGRESS: drop or allow what the function sends, by priority. */
static int test_egress(void)
{
	struct ibv_flow *drop, *allow;
	struct pkt p = {};
	struct flow f;
	struct env e;

	if (!mt_sim())
		return mt_skip(no_model);
	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 3, IBV_FLOW_ATTR_FLAGS_EGRESS);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9300);
	spec(&f, IBV_FLOW_SPEC_ACTION_DROP,
	     sizeof(struct ibv_flow_spec_action_drop));
	drop = flow_create(&e, 0, &f);
	if (!CHECK(drop))
		goto out;
	pkt_udp(&p, mac_b, "1.1.1.1", 9300);
	CHECK_EQ(walk(&e, "tx", &p), 0);
	CHECK(strstr(e.trace, "type=tx"));
	CHECK(strstr(e.trace, "verdict to=drop\n"));
	/* received packets never meet egress flows */
	CHECK(rx_to(&e, &p, 0));
	pkt_udp(&p, mac_b, "1.1.1.1", 9301);
	CHECK_EQ(walk(&e, "tx", &p), 0);
	CHECK(strstr(e.trace, "verdict to=wire\n"));
	/* an allow of an earlier priority lets it out */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 1, IBV_FLOW_ATTR_FLAGS_EGRESS);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 9300);
	allow = flow_create(&e, 0, &f);
	if (CHECK(allow)) {
		pkt_udp(&p, mac_b, "1.1.1.1", 9300);
		CHECK_EQ(walk(&e, "tx", &p), 0);
		CHECK(strstr(e.trace, "verdict to=wire\n"));
		CHECK(!strstr(e.trace, "verdict to=drop"));
		CHECK_ERR(ibv_destroy_flow(allow), 0);
	}
	/* a don't-trap egress flow goes on to the drop */
	f.attr.flags |= IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
	allow = flow_create(&e, 0, &f);
	if (CHECK(allow)) {
		CHECK_EQ(walk(&e, "tx", &p), 0);
		CHECK(strstr(e.trace, "verdict to=drop\n"));
		CHECK_ERR(ibv_destroy_flow(allow), 0);
	}
	CHECK_ERR(ibv_destroy_flow(drop), 0);
out:
	env_close(&e);
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
	if (write(e->ctx->cmd_fd, &req, sizeof(req)) < 0)
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
	return write(e->ctx->cmd_fd, &req, sizeof(req)) < 0 ? -errno : 0;
}

/* Spec sizes and reserved fields, as the kernel sees them. */
static int test_bad_spec_size(void)
{
	/* a UDP filter of 8 bytes: the port pair and 4 more */
	uint8_t udp[16] = { 0, 80, 0, 0, 0, 0, 0, 0,
			    0xff, 0xff, 0, 0, 0, 0, 0, 0 };
	struct env e;
	long h;

	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	/* the size its filters have: accepted */
	h = raw_create_flow(&e, 0, IBV_FLOW_SPEC_UDP, 16, 0, udp, 8);
	CHECK(h >= 0);
	if (h >= 0)
		CHECK_EQ(raw_destroy_flow(&e, h), 0);
	/* larger, the bytes the kernel does not know zero: accepted */
	h = raw_create_flow(&e, 0, IBV_FLOW_SPEC_UDP, 24, 0, udp, 16);
	CHECK(h >= 0);
	if (h >= 0)
		CHECK_EQ(raw_destroy_flow(&e, h), 0);
	/* ... masking what it does not know: refused */
	udp[13] = 1;
	CHECK_EQ(raw_create_flow(&e, 0, IBV_FLOW_SPEC_UDP, 24, 0, udp, 16),
		 -EINVAL);
	/* filters not a multiple of 4 bytes, or no header */
	CHECK_EQ(raw_create_flow(&e, 0, IBV_FLOW_SPEC_UDP, 18, 0, udp, 10),
		 -EINVAL);
	CHECK_EQ(raw_create_flow(&e, 0, IBV_FLOW_SPEC_UDP, 4, 0, udp, 0),
		 -EINVAL);
	/* the reserved field, an unknown type */
	CHECK_EQ(raw_create_flow(&e, 0, IBV_FLOW_SPEC_UDP, 16, 1, udp, 8),
		 -EINVAL);
	CHECK_EQ(raw_create_flow(&e, 0, 0x99, 16, 0, udp, 8), -EINVAL);
	/* ESP and IB specs: not on this device */
	CHECK_EQ(raw_create_flow(&e, 0, IBV_FLOW_SPEC_ESP, 24, 0, udp, 16),
		 -EOPNOTSUPP);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* What mlx5 refuses, with upstream's errno. */
static int test_bad_inputs(void)
{
	struct ibv_flow_spec_ipv4_ext *ip;
	struct ibv_flow_spec_eth *eth;
	struct ibv_flow_spec_ipv6 *ip6;
	struct ibv_qp *rc;
	struct flow f;
	struct env e;

	if (!env_open(&e) || raw_qp(&e) < 0)
		goto out;
	/* an attribute size that does not hold its specs */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	f.attr.num_of_specs = 2;
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* fields the device does not match: IPv4 TTL, IPv6 hop limit */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip = spec_ipv4(&f, 0, "1.2.3.4");
	ip->mask.ttl = 0xff;
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	ip6 = spec(&f, IBV_FLOW_SPEC_IPV6, sizeof(*ip6));
	ip6->mask.hop_limit = 0xff;
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EOPNOTSUPP);
	/* a partly masked ethertype beside an IP spec */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	eth = spec_eth(&f, 0, mac_a);
	eth->val.ether_type = htons(0x0800);
	eth->mask.ether_type = htons(0xff00);
	spec_ipv4(&f, 0, "1.2.3.4");
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* an ethertype that is not the IP spec's */
	eth->mask.ether_type = 0xffff;
	eth->val.ether_type = htons(0x86dd);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* two protocols */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	spec_l4(&f, IBV_FLOW_SPEC_TCP, 1);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* priorities 0..15 (mlx5 answers ENOMEM, as upstream) */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 16, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, ENOMEM);
	/* flags: bit 0 (the old ALLOW_LOOP_BACK) and beyond are refused */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 1 << 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
	f.attr.flags = 1 << 3;
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* an unknown type of flow, of spec */
	flow_init(&f, 4, 0, 0);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, EINVAL);
	/* a QP that is not RAW_PACKET */
	rc = qp_create(&e, IBV_QPT_RC);
	if (CHECK(rc)) {
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
		errno = 0;
		CHECK(!ibv_create_flow(rc, &f.attr));
		CHECK_ERR(errno, EINVAL);
		CHECK_ERR(ibv_destroy_qp(rc), 0);
	}
	/* a QP with flows cannot be destroyed before them */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
	{
		struct ibv_flow *flow = flow_create(&e, 0, &f);

		if (CHECK(flow)) {
			CHECK_ERR(ibv_destroy_qp(e.qp[0]), EBUSY);
			CHECK_ERR(ibv_destroy_flow(flow), 0);
		}
	}
out:
	env_close(&e);
	return KSFT_PASS;
}

/* ib_uverbs wants CAP_NET_RAW for any flow: a child without it. */
static int test_needs_cap(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	int status;
	pid_t pid;

	pid = mt_fork();
	if (pid == 0) {
		struct ibv_flow *flow;
		struct flow f;
		struct env e;

		if (!env_open(&e) || raw_qp(&e) < 0)
			_exit(2);
		if (syscall(SYS_capget, &hdr, data))
			_exit(3);
		data[CAP_NET_RAW / 32].effective &= ~(1U << (CAP_NET_RAW % 32));
		if (syscall(SYS_capset, &hdr, data))
			_exit(4);
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 1);
		flow = flow_create(&e, 0, &f);
		_exit(flow ? 5 : errno == EPERM ? 0 : 6);
	}
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	return KSFT_PASS;
}

/*
 * Flows left behind go with their process, leaving nothing in firmware.
 * (A process's contexts go when its last mapping of them does: at exit.)
 */
static int test_exit_with_flows(void)
{
	int base = mt_fw_count(NULL, -1), status;
	pid_t pid;

	pid = mt_fork();
	if (pid == 0) {
		struct ibv_counters_init_attr ia = {};
		struct ibv_counter_attach_attr at = {};
		struct ibv_flow_spec_counter_action *cs;
		struct ibv_counters *cnt;
		struct flow f;
		struct env e;
		int i, bad = 0;

		if (!env_open(&e) || raw_qp(&e) < 0 || raw_qp(&e) < 0)
			_exit(2);
		cnt = ibv_create_counters(e.ctx, &ia);
		if (!cnt || ibv_attach_counters_point_flow(cnt, &at, NULL))
			_exit(3);
		for (i = 0; i < 2; i++) {
			flow_init(&f, IBV_FLOW_ATTR_NORMAL, i, 0);
			spec_eth(&f, 0, mac_a);
			bad |= !flow_create(&e, i, &f);
			f.attr.flags = IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
			bad |= !flow_create(&e, i, &f);
		}
		flow_init(&f, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
		bad |= !flow_create(&e, 1, &f);
		flow_init(&f, IBV_FLOW_ATTR_SNIFFER, 0, 0);
		bad |= !flow_create(&e, 1, &f);
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 5);
		cs = spec(&f, IBV_FLOW_SPEC_ACTION_COUNT, sizeof(*cs));
		cs->counters = cnt;
		bad |= !flow_create(&e, 0, &f);
		_exit(bad ? 4 : 0);
	}
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	if (mt_sim() && !CHECK_EQ(mt_fw_count(NULL, -1), base))
		mt_fw_dump();
	return KSFT_PASS;
}

/* At the limit ENOSPC; one destroyed lets the next in; per context. */
static int test_flow_limit(void)
{
	struct ibv_flow *fl[5] = {}, *more;
	long old;
	struct env e = {}, o = {};
	struct flow f;
	unsigned int i;

	/* the module's per-context flow limit (limits.c) */
	if (mt_param_get("max_flows", &old))
		return mt_skip("no module parameter max_flows");
	if (!env_open(&e) || raw_qp(&e) < 0 || !env_open(&o) ||
	    raw_qp(&o) < 0)
		goto out;
	if (!CHECK_ERR(mt_param_set("max_flows", 4), 0))
		goto out;
	for (i = 0; i < 5; i++) {
		flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
		spec_l4(&f, IBV_FLOW_SPEC_UDP, 7000 + i);
		fl[i] = flow_create(&e, 0, &f);
		if (i < 4) {
			CHECK(fl[i]);
		} else {
			CHECK(!fl[i]);
			CHECK_ERR(errno, ENOSPC);
		}
	}
	/* another context has its own count */
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7100);
	more = flow_create(&o, 0, &f);
	if (CHECK(more))
		CHECK_ERR(ibv_destroy_flow(more), 0);
	/* one destroyed: the next is let in, the one after refused */
	if (fl[0])
		CHECK_ERR(ibv_destroy_flow(fl[0]), 0);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7200);
	fl[0] = flow_create(&e, 0, &f);
	CHECK(fl[0]);
	flow_init(&f, IBV_FLOW_ATTR_NORMAL, 0, 0);
	spec_l4(&f, IBV_FLOW_SPEC_UDP, 7201);
	CHECK(!flow_create(&e, 0, &f));
	CHECK_ERR(errno, ENOSPC);
	for (i = 0; i < 5; i++)
		if (fl[i])
			CHECK_ERR(ibv_destroy_flow(fl[i]), 0);
out:
	CHECK_ERR(mt_param_set("max_flows", old), 0);
	if (o.ctx)
		env_close(&o);
	env_close(&e);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	{ "man_example", test_man_example },
	{ "spec_eth", test_spec_eth },
	{ "spec_ipv4", test_spec_ipv4 },
	{ "spec_ipv6", test_spec_ipv6 },
	{ "spec_tcp_udp", test_spec_tcp_udp },
	{ "spec_vxlan_inner", test_spec_vxlan_inner },
	{ "spec_gre", test_spec_gre },
	{ "spec_mpls", test_spec_mpls },
	{ "action_tag", test_action_tag },
	{ "action_drop", test_action_drop },
	{ "priority", test_priority },
	{ "dont_trap", test_dont_trap },
	{ "same_match", test_same_match },
	{ "default_rules", test_default_rules },
	{ "sniffer", test_sniffer },
	{ "counters", test_counters },
	{ "egress", test_egress },
	{ "bad_spec_size", test_bad_spec_size },
	{ "bad_inputs", test_bad_inputs },
	{ "needs_cap_net_raw", test_needs_cap },
	{ "exit_with_flows", test_exit_with_flows },
	{ "flow_limit", test_flow_limit },
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
