// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive side scaling through verbs, from ibv_create_wq(3),
 * ibv_modify_wq(3), ibv_create_rwq_ind_table(3) and ibv_create_qp_ex(3)
 * (rx_hash_conf): the capabilities ibv_query_device_ex() reports, a WQ's
 * life and its states, what is refused and with which errno (as mlx5_ib
 * refuses it), and traffic: UDP packets sent on a RAW_PACKET QP, steered
 * by ibv_create_flow() to an RSS QP, land each in the WQ that Toeplitz
 * over its addresses and ports picks (computed here from the key, as the
 * Microsoft RSS specification defines it).  A WQ of another context can
 * never be named in a table: not through verbs (handles are per
 * context), not through DEVX (firmware checks the RQ's owner).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_rss.h"
#include "mlx5x_queues.h"

/* Toeplitz over @n bytes of @in with rss_key (n <= KEY_LEN - 4). */
static uint32_t toeplitz(const uint8_t *in, unsigned int n)
{
	uint32_t v = (uint32_t)rss_key[0] << 24 | rss_key[1] << 16 | rss_key[2] << 8 |
		     rss_key[3];
	uint32_t h = 0;
	unsigned int i, b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++) {
			if (in[i] & (0x80 >> b))
				h ^= v;
			v = v << 1 | ((rss_key[i + 4] >> (7 - b)) & 1);
		}
	return h;
}

/* Creation must fail with @want; what was made anyway is destroyed. */
static bool qp_refused(struct ibv_qp *qp, int want)
{
	int err = errno;

	if (!CHECK(!qp)) {
		ibv_destroy_qp(qp);
		return false;
	}
	return CHECK_ERR(err, want);
}

/* The WQ (index in the table) the hash of packet @k picks. */
static unsigned int expected_wq(unsigned int k)
{
	uint8_t in[12];
	uint8_t pkt[PKT_LEN];

	rss_make_pkt(pkt, k, rss_server_mac);
	memcpy(in, pkt + 14 + 12, 8);		/* source, destination */
	memcpy(in + 8, pkt + 14 + 20, 4);	/* source, destination port */
	return toeplitz(in, sizeof(in)) % NWQ;
}

static bool post_wq_recv(struct rss_env *e, unsigned int w, unsigned int slot)
{
	return rss_post_recv(e, e->wq[w], w << 8 | slot, slot, e->mr->lkey);
}

/*
 * Every WQ has a receive for each packet; each packet lands in the WQ
 * its hash picks, with its bytes, and no other WQ takes it.
 */
MT_TEST_F(rss_env, traffic)
{
	unsigned int k, w, hit[NWQ] = {}, used = 0;
	uint8_t want[PKT_LEN];
	struct ibv_wc wc;

	for (w = 0; w < NWQ; w++)
		for (k = 0; k < NPKT / NWQ; k++)
			post_wq_recv(self, w, w * (NPKT / NWQ) + k);
	for (k = 0; k < NPKT; k++) {
		unsigned int exp = expected_wq(k);
		unsigned int slot = exp * (NPKT / NWQ) + hit[exp];

		if (!rss_send_pkt(self, k, rss_server_mac))
			break;
		if (hit[exp] == NPKT / NWQ) {
			/* that WQ is out of receives: the packet drops */
			CHECK(rss_none_within(self->rcq, 100, &wc));
			continue;
		}
		if (!CHECK(mt_poll_one(self->rcq, &wc, 2000)))
			break;
		CHECK(mt_wc_is(&wc, exp << 8 | slot, IBV_WC_SUCCESS,
			       IBV_WC_RECV));
		CHECK_EQ(wc.byte_len, PKT_LEN);
		rss_make_pkt(want, k, rss_server_mac);
		CHECK(!memcmp(self->buf + (NPKT + slot) * SLOT, want,
			      PKT_LEN));
		used += !hit[exp]++;
	}
	mt_diag("packets per WQ: %u %u %u %u", hit[0], hit[1], hit[2], hit[3]);
	/* the key spreads these 32 packets over more than one WQ */
	CHECK(used > 1);
	CHECK(rss_none_within(self->rcq, 50, &wc));
	return KSFT_PASS;
}

/* A WQ in ERR takes nothing; back through RESET to RDY it takes again. */
MT_TEST_F(rss_env, wq_states)
{
	unsigned int exp = expected_wq(0);
	struct ibv_wq *wq = self->wq[exp];
	struct ibv_wq_attr a = { .attr_mask = IBV_WQ_ATTR_STATE |
					      IBV_WQ_ATTR_CURR_STATE };
	struct ibv_wc wc;

	/* the state the caller says it is in must be the one it is in */
	a.curr_wq_state = IBV_WQS_RESET;
	a.wq_state = IBV_WQS_RDY;
	CHECK(ibv_modify_wq(wq, &a) != 0);
	CHECK_EQ(wq->state, IBV_WQS_RDY);
	CHECK_ERR(rss_wq_move(wq, IBV_WQS_ERR), 0);
	CHECK_EQ(wq->state, IBV_WQS_ERR);
	/* ERR goes to RESET only */
	CHECK(rss_wq_move(wq, IBV_WQS_RDY) != 0);
	CHECK_EQ(wq->state, IBV_WQS_ERR);
	/* a receive posted in ERR is flushed, never filled (mlx5x_wq) */
	post_wq_recv(self, exp, 0);
	rss_send_pkt(self, 0, rss_server_mac);
	if (CHECK(mt_poll_one(self->rcq, &wc, 2000)))
		CHECK(mt_wc_is(&wc, exp << 8, IBV_WC_WR_FLUSH_ERR,
			       IBV_WC_RECV));
	CHECK(rss_none_within(self->rcq, 100, &wc));
	CHECK_ERR(rss_wq_move(wq, IBV_WQS_RESET), 0);
	CHECK_ERR(rss_wq_move(wq, IBV_WQS_RDY), 0);
	post_wq_recv(self, exp, 1);
	rss_send_pkt(self, 0, rss_server_mac);
	if (CHECK(mt_poll_one(self->rcq, &wc, 2000)))
		CHECK(mt_wc_is(&wc, exp << 8 | 1, IBV_WC_SUCCESS,
			       IBV_WC_RECV));
	return KSFT_PASS;
}

/* What is in use cannot go (ib_core): EBUSY, and it still works. */
MT_TEST_F(rss_env, in_use)
{
	CHECK_ERR(ibv_destroy_wq(self->wq[1]), EBUSY);
	CHECK_ERR(ibv_destroy_rwq_ind_table(self->tbl), EBUSY);
	return KSFT_PASS;
}

/*
 * An RSS QP has no state of its own (mlx5_ib refuses modify and query,
 * with ENOSYS; here EOPNOTSUPP) and sends nothing.
 */
MT_TEST_F(rss_env, rss_qp_stateless)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_qp_init_attr init;

	CHECK(ibv_modify_qp(self->rss, &a, IBV_QP_STATE | IBV_QP_PORT) != 0);
	CHECK(ibv_query_qp(self->rss, &a, IBV_QP_STATE, &init) != 0);
	return KSFT_PASS;
}

/* ibv_query_device_ex(): RSS on RAW_PACKET QPs, Toeplitz, outer fields. */
MT_TEST_F(mt_ctx, caps)
{
	struct ibv_device_attr_ex a = {};
	uint64_t want = UDP4_FIELDS | IBV_RX_HASH_SRC_IPV6 |
			IBV_RX_HASH_DST_IPV6 | IBV_RX_HASH_SRC_PORT_TCP |
			IBV_RX_HASH_DST_PORT_TCP;

	if (!CHECK_ERR(ibv_query_device_ex(self->ctx, NULL, &a), 0))
		return KSFT_FAIL;
	CHECK(a.rss_caps.supported_qpts & (1U << IBV_QPT_RAW_PACKET));
	CHECK(a.rss_caps.max_rwq_indirection_tables > 0);
	CHECK(a.rss_caps.max_rwq_indirection_table_size >= NWQ);
	CHECK_EQ(a.rss_caps.rx_hash_function, IBV_RX_HASH_FUNC_TOEPLITZ);
	CHECK_EQ(a.rss_caps.rx_hash_fields_mask & want, want);
	/* not hashed by the model: not offered */
	CHECK_EQ(a.rss_caps.rx_hash_fields_mask &
		 (IBV_RX_HASH_INNER | IBV_RX_HASH_IPSEC_SPI), 0);
	CHECK(a.max_wq_type_rq >= NWQ);
	return KSFT_PASS;
}

/* A WQ's life: RESET when made, RDY, ERR, RESET, RDY, destroyed. */
MT_TEST_F(mt_ctx, wq_life)
{
	struct ibv_pd *pd = ibv_alloc_pd(self->ctx);
	struct ibv_cq *cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	struct ibv_wq *wq;

	if (!CHECK(pd) || !CHECK(cq))
		return KSFT_FAIL;
	wq = rss_make_wq(self->ctx, pd, cq, 0);
	if (CHECK(wq)) {
		CHECK(wq->wq_num != 0);
		CHECK_EQ(wq->state, IBV_WQS_RESET);
		CHECK_ERR(rss_wq_move(wq, IBV_WQS_RDY), 0);
		CHECK_ERR(rss_wq_move(wq, IBV_WQS_RDY), 0);
		CHECK_ERR(rss_wq_move(wq, IBV_WQS_ERR), 0);
		CHECK_ERR(rss_wq_move(wq, IBV_WQS_RESET), 0);
		CHECK_ERR(rss_wq_move(wq, IBV_WQS_RDY), 0);
		CHECK_ERR(rss_wq_move(wq, IBV_WQS_RESET), 0);
		/* RESET goes to RDY only */
		CHECK(rss_wq_move(wq, IBV_WQS_ERR) != 0);
		CHECK_EQ(wq->state, IBV_WQS_RESET);
		CHECK_ERR(ibv_destroy_wq(wq), 0);
	}
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
	return KSFT_PASS;
}

/*
 * The create flags of ibv_create_wq(3) the device does not do: VLAN
 * stripping, scatter of the FCS, end padding (EOPNOTSUPP), delay drop
 * (EOPNOTSUPP; EPERM without CAP_SYS_RAWIO).
 */
MT_TEST_F(mt_ctx, wq_refusals)
{
	static const uint32_t flags[] = {
		IBV_WQ_FLAGS_CVLAN_STRIPPING, IBV_WQ_FLAGS_SCATTER_FCS,
		IBV_WQ_FLAGS_PCI_WRITE_END_PADDING, IBV_WQ_FLAGS_DELAY_DROP,
	};
	struct ibv_pd *pd = ibv_alloc_pd(self->ctx);
	struct ibv_cq *cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	struct ibv_wq_init_attr a = {
		.wq_type = IBV_WQT_RQ, .max_wr = 1U << 30, .max_sge = 1,
	};
	struct ibv_wq *wq;
	unsigned int i;

	if (!CHECK(pd) || !CHECK(cq))
		return KSFT_FAIL;
	for (i = 0; i < MT_ARRAY_SIZE(flags); i++) {
		wq = rss_make_wq(self->ctx, pd, cq, flags[i]);
		mt_diag("create flag 0x%x", flags[i]);
		if (!CHECK(!wq))
			ibv_destroy_wq(wq);
		else
			CHECK_ERR(errno, EOPNOTSUPP);
	}
	/* more WQEs than a WQ has */
	a.pd = pd;
	a.cq = cq;
	wq = ibv_create_wq(self->ctx, &a);
	if (!CHECK(!wq))
		ibv_destroy_wq(wq);
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
	return KSFT_PASS;
}

/*
 * What mlx5_ib refuses of an RSS QP: another hash function or key
 * length, IPv4 with IPv6 fields, TCP with UDP, inner fields (no tunnel
 * offloads), no field over a table of more than one entry; the model
 * also refuses the IPsec SPI it does not hash.  One field-less QP over a
 * one-entry table is a steering destination, and is made.
 */
MT_TEST_F(mt_ctx, rss_refusals)
{
	struct ibv_pd *pd = ibv_alloc_pd(self->ctx);
	struct ibv_cq *cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	struct ibv_rwq_ind_table *tbl = NULL, *one = NULL;
	struct ibv_wq *wq[NWQ] = {};
	struct ibv_qp *qp;
	unsigned int i;

	if (!CHECK(pd) || !CHECK(cq))
		return KSFT_FAIL;
	for (i = 0; i < NWQ; i++) {
		wq[i] = rss_make_wq(self->ctx, pd, cq, 0);
		if (!CHECK(wq[i]))
			goto out;
	}
	tbl = rss_make_tbl(self->ctx, wq, LOG_TBL);
	one = rss_make_tbl(self->ctx, wq, 0);
	if (!CHECK(tbl) || !CHECK(one))
		goto out;
	qp_refused(rss_make_qp(self->ctx, pd, tbl, 2, KEY_LEN, UDP4_FIELDS),
		   EOPNOTSUPP);
	qp_refused(rss_make_qp(self->ctx, pd, tbl, IBV_RX_HASH_FUNC_TOEPLITZ,
			       16, UDP4_FIELDS), EINVAL);
	qp_refused(rss_make_qp(self->ctx, pd, tbl, IBV_RX_HASH_FUNC_TOEPLITZ,
			       KEY_LEN, IBV_RX_HASH_SRC_IPV4 |
			       IBV_RX_HASH_DST_IPV6), EINVAL);
	qp_refused(rss_make_qp(self->ctx, pd, tbl, IBV_RX_HASH_FUNC_TOEPLITZ,
			       KEY_LEN, IBV_RX_HASH_SRC_PORT_TCP |
			       IBV_RX_HASH_DST_PORT_UDP), EINVAL);
	qp_refused(rss_make_qp(self->ctx, pd, tbl, IBV_RX_HASH_FUNC_TOEPLITZ,
			       KEY_LEN, UDP4_FIELDS | IBV_RX_HASH_INNER),
		   EOPNOTSUPP);
	qp_refused(rss_make_qp(self->ctx, pd, tbl, IBV_RX_HASH_FUNC_TOEPLITZ,
			       KEY_LEN, IBV_RX_HASH_IPSEC_SPI), EOPNOTSUPP);
	qp_refused(rss_make_qp(self->ctx, pd, tbl, IBV_RX_HASH_FUNC_TOEPLITZ,
			       KEY_LEN, 0), EINVAL);
	qp = rss_make_qp(self->ctx, pd, one, IBV_RX_HASH_FUNC_TOEPLITZ,
			 KEY_LEN, 0);
	if (CHECK(qp))
		CHECK_ERR(ibv_destroy_qp(qp), 0);
out:
	if (one)
		CHECK_ERR(ibv_destroy_rwq_ind_table(one), 0);
	if (tbl)
		CHECK_ERR(ibv_destroy_rwq_ind_table(tbl), 0);
	for (i = 0; i < NWQ; i++)
		if (wq[i])
			CHECK_ERR(ibv_destroy_wq(wq[i]), 0);
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
	return KSFT_PASS;
}

/* Without CAP_NET_RAW: WQs and tables yes, an RSS QP no (EPERM). */
static int no_net_raw(void *arg)
{
	struct ibv_context *ctx = arg;
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_rwq_ind_table *tbl;
	struct ibv_wq *wq;

	if (!CHECK(mt_drop_cap(CAP_NET_RAW)) || !CHECK(pd) || !CHECK(cq))
		return 1;
	wq = rss_make_wq(ctx, pd, cq, 0);
	if (!CHECK(wq))
		return 1;
	tbl = rss_make_tbl(ctx, &wq, 0);
	if (CHECK(tbl)) {
		qp_refused(rss_make_qp(ctx, pd, tbl,
				       IBV_RX_HASH_FUNC_TOEPLITZ, KEY_LEN, 0),
			   EPERM);
		CHECK_ERR(ibv_destroy_rwq_ind_table(tbl), 0);
	}
	CHECK_ERR(ibv_destroy_wq(wq), 0);
	CHECK_ERR(ibv_destroy_cq(cq), 0);
	CHECK_ERR(ibv_dealloc_pd(pd), 0);
	return 0;
}

MT_TEST_F(mt_ctx, unprivileged)
{
	CHECK_EQ(mt_run_child(no_net_raw, self->ctx), 0);
	return KSFT_PASS;
}

/*
 * Another context cannot name this one's WQ: through verbs its handle
 * means nothing there (ib_uverbs finds no such object: ENOENT); through
 * DEVX firmware refuses an RQT naming an RQ of another owner.
 */
MT_TEST_F(rss_env, foreign_wq)
{
	struct mt_verbs_env o = {};
	uint32_t in[(PRM_CREATE_RQT_IN_BYTES + 8) / 4];
	uint32_t out[PRM_CREATE_RQT_OUT_BYTES / 4] = {};
	struct ibv_rwq_ind_table *tbl;
	struct mlx5dv_devx_obj *rqt;
	uint32_t rqn = self->wq[0]->wq_num;
	size_t len;

	if (!CHECK(mt_verbs_env_open(&o, MT_OPEN_DEFAULT)))
		return KSFT_FAIL;
	tbl = rss_make_tbl(o.ctx, self->wq, 0);
	if (!CHECK(!tbl))
		ibv_destroy_rwq_ind_table(tbl);
	else
		CHECK_ERR(errno, ENOENT);
	len = mq_rqt_in(in, PRM_OP_CREATE_RQT, 1, &rqn, 1);
	rqt = mlx5dv_devx_obj_create(o.ctx, in, len, out, sizeof(out));
	if (!CHECK(!rqt))
		mlx5dv_devx_obj_destroy(rqt);
	else
		CHECK_ERR(errno, EREMOTEIO);
	mt_verbs_env_close(&o);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_ON(mt_ctx_fixture, caps),
	MT_CASE_ON(mt_ctx_fixture, wq_life),
	MT_CASE_ON(mt_ctx_fixture, wq_refusals),
	MT_CASE_ON(mt_ctx_fixture, rss_refusals),
	MT_CASE_ON(mt_ctx_fixture, unprivileged),
	MT_CASE_ON(rss_env_fixture, traffic, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(rss_env_fixture, wq_states, .flags = MT_NEEDS_MODEL),
	MT_CASE_ON(rss_env_fixture, in_use),
	MT_CASE_ON(rss_env_fixture, rss_qp_stateless),
	MT_CASE_ON(rss_env_fixture, foreign_wq),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
