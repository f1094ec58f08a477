/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What mlx5x_flow and mlx5x_flow_rules share: their fixture (a context
 * with RAW_PACKET QPs, each QP's TIR as the model names it), verbs flow
 * attributes built up spec by spec, and the model's classifier
 * (fw/classify) walking a packet and telling which QPs it reached.
 */
#ifndef MLX5X_FLOW_H
#define MLX5X_FLOW_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"

#define TRACE_BYTES	(64 * 1024)
#define FLOW_BYTES	1024
#define MAX_QPS		4

/*
 * A context, a PD and a CQ, and RAW_PACKET QPs on them: the first made
 * with the context, the others by raw_qp().  After the case the model
 * holds what it held before the context.
 */
struct env {
	struct mt_verbs_env v;
	unsigned int nqps;
	struct ibv_qp *qp[MAX_QPS];
	uint32_t tir[MAX_QPS];	/* each QP's TIR, as the trace names it */
	char *trace;
};

/* A flow attribute and its specs, built up spec by spec. */
struct flow {
	union {
		struct ibv_flow_attr attr;
		uint8_t bytes[FLOW_BYTES];
	};
};

static const uint8_t mac_a[6] = { 0x66, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t mac_b[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b };
static const uint8_t mac_0[6];
static const uint8_t mac_ff[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mac_mc[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

/* ---- the environment ---- */

/* A RAW_PACKET QP (mt_raw_qp_tir()): its index in @e. */
static inline int raw_qp(struct env *e)
{
	int i = e->nqps;

	if (!CHECK(i < MAX_QPS))
		return -1;
	e->qp[i] = mt_raw_qp_tir(e->v.pd, e->v.cq, 16, 1, &e->tir[i]);
	if (!e->qp[i])
		return -1;
	e->nqps++;
	return i;
}

static inline bool env_open(struct env *e)
{
	memset(e, 0, sizeof(*e));
	if (!mt_verbs_env_open(&e->v, MT_OPEN_DEFAULT))
		return false;
	e->trace = malloc(TRACE_BYTES);
	if (!CHECK(e->trace))
		return false;
	return raw_qp(e) == 0;
}

static inline void env_close(struct env *e)
{
	while (e->nqps)
		CHECK_ERR(ibv_destroy_qp(e->qp[--e->nqps]), 0);
	mt_verbs_env_close(&e->v);
	free(e->trace);
	e->trace = NULL;
}

MT_FIXTURE(env);

MT_FIXTURE_SETUP(env)
{
	return env_open(self) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(env)
{
	env_close(self);
}

/* ---- flows ---- */

static inline void flow_init(struct flow *f, enum ibv_flow_attr_type type,
			     uint16_t prio, uint32_t flags)
{
	memset(f, 0, sizeof(*f));
	f->attr.type = type;
	f->attr.size = sizeof(f->attr);
	f->attr.priority = prio;
	f->attr.port = 1;
	f->attr.flags = flags;
}

static inline void *spec(struct flow *f, uint32_t type, size_t size)
{
	struct ibv_flow_spec *s = (void *)(f->bytes + f->attr.size);

	s->hdr.type = type;
	s->hdr.size = size;
	f->attr.size += size;
	f->attr.num_of_specs++;
	return s;
}

static inline struct ibv_flow_spec_eth *spec_eth(struct flow *f,
						 uint32_t inner,
						 const uint8_t *dmac)
{
	struct ibv_flow_spec_eth *s = spec(f, IBV_FLOW_SPEC_ETH | inner,
					   sizeof(*s));

	memcpy(s->val.dst_mac, dmac, 6);
	memcpy(s->mask.dst_mac, mac_ff, 6);
	return s;
}

static inline struct ibv_flow_spec_ipv4_ext *spec_ipv4(struct flow *f,
						       uint32_t inner,
						       const char *dst)
{
	struct ibv_flow_spec_ipv4_ext *s = spec(f, IBV_FLOW_SPEC_IPV4_EXT |
						inner, sizeof(*s));

	inet_pton(AF_INET, dst, &s->val.dst_ip);
	s->mask.dst_ip = 0xffffffff;
	return s;
}

static inline struct ibv_flow_spec_tcp_udp *spec_l4(struct flow *f,
						    uint32_t type,
						    uint16_t dport)
{
	struct ibv_flow_spec_tcp_udp *s = spec(f, type, sizeof(*s));

	s->val.dst_port = htons(dport);
	s->mask.dst_port = 0xffff;
	return s;
}

static inline struct ibv_flow *flow_create(struct env *e, int qp,
					   struct flow *f)
{
	errno = 0;
	return ibv_create_flow(e->qp[qp], &f->attr);
}

/* ---- packets ---- */

/* A UDP packet to @dmac, IPv4 @dst, UDP port @dport. */
static inline void pkt_udp(struct mt_pkt *p, const uint8_t *dmac,
			   const char *dst, uint16_t dport)
{
	p->len = 0;
	mt_pkt_eth(p, dmac, mac_b, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(p, "10.0.0.1", dst, MT_IP_UDP, 0);
	mt_pkt_l4(p, false, 1000, dport);
}

/* ---- the classifier ---- */

/* Walk @p through the pipeline; the trace into e->trace. */
static inline int walk(struct env *e, const char *dir, const struct mt_pkt *p)
{
	return mt_classify_bytes(dir, 1, p->b, p->len, e->trace, TRACE_BYTES);
}

/* Does the trace deliver to QP @qp of @e? */
static inline bool to_qp(struct env *e, int qp)
{
	char want[64];

	snprintf(want, sizeof(want), "verdict to=tir id=0x%x ", e->tir[qp]);
	return strstr(e->trace, want);
}

static inline int nverdicts(const struct env *e, const char *what)
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
static inline bool rx_to(struct env *e, const struct mt_pkt *p,
			 unsigned int mask)
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

#endif /* MLX5X_FLOW_H */
