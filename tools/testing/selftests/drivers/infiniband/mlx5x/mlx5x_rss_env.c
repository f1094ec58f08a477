// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The environment of the receive WQ tests (mlx5x_rss.h): a client
 * RAW_PACKET QP whose UDP packets a flow steers to an RSS QP over a
 * table of WQs, and the helpers that make those and move packets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mlx5x_rss.h"

uint8_t rss_key[KEY_LEN] = {
	0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7, 0xfc, 0xa2,
	0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94, 0x6b, 0x9e, 0x38, 0xd9,
	0x2c, 0x9c, 0x03, 0xd1, 0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56,
	0x3d, 0x59, 0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
};

const uint8_t rss_server_mac[6] = { 2, 0, 0, 0, 0, 0x22 };
static const uint8_t client_mac[6] = { 2, 0, 0, 0, 0, 0x11 };

/*
 * Where no completion may come: true if none came within @ms (else @wc
 * holds the one that did).
 */
bool rss_none_within(struct ibv_cq *cq, long ms, struct ibv_wc *wc)
{
	long end = mt_now_ms() + ms;

	do {
		if (ibv_poll_cq(cq, 1, wc))
			return false;
		usleep(200);
	} while (mt_now_ms() < end);
	return true;
}

struct ibv_wq *rss_make_wq(struct ibv_context *ctx, struct ibv_pd *pd,
			   struct ibv_cq *cq, uint32_t flags)
{
	struct ibv_wq_init_attr a = {
		.wq_type = IBV_WQT_RQ, .max_wr = WQ_WRS, .max_sge = 1,
		.pd = pd, .cq = cq,
	};

	if (flags) {
		a.comp_mask = IBV_WQ_INIT_ATTR_FLAGS;
		a.create_flags = flags;
	}
	return ibv_create_wq(ctx, &a);
}

int rss_wq_move(struct ibv_wq *wq, enum ibv_wq_state to)
{
	struct ibv_wq_attr a = { .attr_mask = IBV_WQ_ATTR_STATE,
				 .wq_state = to };

	return ibv_modify_wq(wq, &a);
}

struct ibv_rwq_ind_table *rss_make_tbl(struct ibv_context *ctx,
				       struct ibv_wq **wqs, unsigned int log)
{
	struct ibv_rwq_ind_table_init_attr a = {
		.log_ind_tbl_size = log, .ind_tbl = wqs,
	};

	return ibv_create_rwq_ind_table(ctx, &a);
}

struct ibv_qp *rss_make_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			   struct ibv_rwq_ind_table *tbl, uint8_t fn,
			   uint8_t key_len, uint64_t fields)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_RAW_PACKET,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE |
			     IBV_QP_INIT_ATTR_RX_HASH,
		.pd = pd,
		.rwq_ind_tbl = tbl,
		.rx_hash_conf = {
			.rx_hash_function = fn,
			.rx_hash_key_len = key_len,
			.rx_hash_key = rss_key,
			.rx_hash_fields_mask = fields,
		},
	};

	return ibv_create_qp_ex(ctx, &a);
}

struct ibv_flow *rss_steer(struct ibv_qp *qp, const uint8_t *mac)
{
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_eth eth;
	} fa = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL, .size = sizeof(fa),
			  .num_of_specs = 1, .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH,
			 .size = sizeof(struct ibv_flow_spec_eth) },
	};

	memcpy(fa.eth.val.dst_mac, mac, 6);
	memset(fa.eth.mask.dst_mac, 0xff, 6);
	return ibv_create_flow(qp, &fa.attr);
}

static int rss_env_setup(void *arg)
{
	struct rss_env *self = arg;
	unsigned int i;

	if (!mt_verbs_env_open(&self->v, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	self->rcq = ibv_create_cq(self->v.ctx, 2 * NPKT, NULL, NULL, 0);
	self->buf = aligned_alloc(4096, 2 * NPKT * SLOT);
	if (!CHECK(self->rcq) || !CHECK(self->buf))
		return KSFT_FAIL;
	memset(self->buf, 0, 2 * NPKT * SLOT);
	self->mr = ibv_reg_mr(self->v.pd, self->buf, 2 * NPKT * SLOT,
			      IBV_ACCESS_LOCAL_WRITE);
	self->cqp = mt_raw_qp(self->v.pd, self->v.cq, NPKT, 1, true);
	if (!CHECK(self->mr) || !CHECK(self->cqp))
		return KSFT_FAIL;
	for (i = 0; i < NWQ; i++) {
		self->wq[i] = rss_make_wq(self->v.ctx, self->v.pd, self->rcq,
					   0);
		if (!CHECK(self->wq[i]) ||
		    !CHECK_ERR(rss_wq_move(self->wq[i], IBV_WQS_RDY), 0))
			return KSFT_FAIL;
	}
	self->tbl = rss_make_tbl(self->v.ctx, self->wq, LOG_TBL);
	if (!CHECK(self->tbl))
		return KSFT_FAIL;
	self->rss = rss_make_qp(self->v.ctx, self->v.pd, self->tbl,
				 IBV_RX_HASH_FUNC_TOEPLITZ, KEY_LEN,
				 UDP4_FIELDS);
	if (!CHECK(self->rss))
		return KSFT_FAIL;
	self->flow = rss_steer(self->rss, rss_server_mac);
	return CHECK(self->flow) ? KSFT_PASS : KSFT_FAIL;
}

static void rss_env_teardown(void *arg)
{
	struct rss_env *self = arg;
	unsigned int i;

	if (self->flow)
		CHECK_ERR(ibv_destroy_flow(self->flow), 0);
	if (self->rss)
		CHECK_ERR(ibv_destroy_qp(self->rss), 0);
	if (self->tbl)
		CHECK_ERR(ibv_destroy_rwq_ind_table(self->tbl), 0);
	for (i = 0; i < NWQ; i++)
		if (self->wq[i])
			CHECK_ERR(ibv_destroy_wq(self->wq[i]), 0);
	if (self->cqp)
		CHECK_ERR(ibv_destroy_qp(self->cqp), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->rcq)
		CHECK_ERR(ibv_destroy_cq(self->rcq), 0);
	mt_verbs_env_close(&self->v);
	free(self->buf);
}

/* Packet @k: UDP over IPv4, addresses and ports of its own. */
static void pkt_fields(unsigned int k, char *src, char *dst, uint16_t *sport,
		       uint16_t *dport)
{
	sprintf(src, "10.%u.%u.1", k & 3, k);
	sprintf(dst, "192.168.%u.2", k * 7 % 256);
	*sport = 1000 + 37 * k;
	*dport = 5000 + k;
}

/* Packet @k to Ethernet address @mac. */
void rss_make_pkt(uint8_t *b, unsigned int k, const uint8_t *mac)
{
	uint8_t payload[PKT_LEN - 42];
	struct mt_pkt p = {};
	char src[16], dst[16];
	uint16_t sport, dport;

	pkt_fields(k, src, dst, &sport, &dport);
	mt_pkt_eth(&p, mac, client_mac, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(&p, src, dst, MT_IP_UDP, 0);
	mt_pkt_l4(&p, false, sport, dport);
	memset(payload, k, sizeof(payload));
	mt_pkt_put(&p, payload, sizeof(payload));
	mt_pkt_ipv4_finish(&p, 14);
	CHECK_EQ(p.len, PKT_LEN);
	memcpy(b, p.b, PKT_LEN);
}

/* A receive of @wr_id on @wq into receive slot @slot, through @lkey. */
bool rss_post_recv(struct rss_env *e, struct ibv_wq *wq, uint64_t wr_id,
		   unsigned int slot, uint32_t lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf + (NPKT + slot) * SLOT,
		.length = SLOT, .lkey = lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return CHECK_ERR(ibv_post_wq_recv(wq, &wr, &bad), 0);
}

/* Packet @k to @dst from the client QP: sent, and its completion seen. */
bool rss_send_pkt(struct rss_env *e, unsigned int k, const uint8_t *dst)
{
	uint8_t *p = e->buf + k * SLOT;
	struct ibv_sge sge = { .addr = (uintptr_t)p, .length = PKT_LEN,
			       .lkey = e->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = k, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;

	rss_make_pkt(p, k, dst);
	return CHECK_ERR(ibv_post_send(e->cqp, &wr, &bad), 0) &&
	       CHECK(mt_poll_one(e->v.cq, &wc, 2000)) &&
	       CHECK(mt_wc_is(&wc, k, IBV_WC_SUCCESS, IBV_WC_SEND));
}

const struct mt_fixture rss_env_fixture = {
	.name = "rss_env",
	.size = sizeof(struct rss_env),
	.setup = rss_env_setup,
	.teardown = rss_env_teardown,
};
