// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Two simulated devices on the two ends of a veth pair, and an RC or UC
 * QP of each connected to the other (mlx5x_rc_pair.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_rc_pair.h"

/* The port's RoCE v2 link-local GID; waits 3 s for it. */
static bool ll_gid(struct ibv_context *ctx, struct ibv_gid_entry *e)
{
	unsigned int i, tries;

	for (tries = 0; tries < 30; tries++) {
		for (i = 0; i < 16; i++)
			if (!ibv_query_gid_ex(ctx, 1, i, e, 0) &&
			    e->gid_type == IBV_GID_TYPE_ROCE_V2 &&
			    e->gid.raw[0] == 0xfe && e->gid.raw[1] == 0x80)
				return true;
		usleep(100 * 1000);
	}
	return false;
}

bool end_open(struct end *e, const struct mt_veth *v)
{
	e->ctx = mt_veth_open(v);
	if (!CHECK(e->ctx) || !CHECK(ll_gid(e->ctx, &e->gid)))
		return false;
	e->pd = ibv_alloc_pd(e->ctx);
	e->cq = ibv_create_cq(e->ctx, 64, NULL, NULL, 0);
	e->buf = aligned_alloc(4096, BUF);
	if (!CHECK(e->pd) || !CHECK(e->cq) || !CHECK(e->buf))
		return false;
	memset(e->buf, 0, BUF);
	e->mr = ibv_reg_mr(e->pd, e->buf, BUF, ALL);
	return CHECK(e->mr);
}

void end_close(struct end *e)
{
	if (e->qp)
		CHECK_ERR(ibv_destroy_qp(e->qp), 0);
	if (e->mr)
		CHECK_ERR(ibv_dereg_mr(e->mr), 0);
	if (e->cq)
		CHECK_ERR(ibv_destroy_cq(e->cq), 0);
	if (e->pd)
		CHECK_ERR(ibv_dealloc_pd(e->pd), 0);
	if (e->ctx)
		CHECK_EQ(ibv_close_device(e->ctx), 0);
	free(e->buf);
}

/**
 * wire_open() - the pair of ends
 * @w: zeroed
 * @cfg: where it lives
 * @far_device: a simulated device on the far end too
 *
 * Return: KSFT_PASS, KSFT_SKIP (no netns or veth), KSFT_FAIL.
 */
int wire_open(struct wire *w, const struct rp_cfg *cfg, bool far_device)
{
	const struct mt_veth *veth = cfg->veth;
	struct mt_veth far = { .dev = cfg->far_dev };
	int made;

	w->cfg = cfg;
	if (mt_has_netns())
		mt_sh("rdma link delete %s 2>/dev/null", cfg->far_dev);
	made = mt_veth_make(veth);
	w->made = true;
	if (made != KSFT_PASS)
		return made;
	if (!end_open(&w->e[0], veth))
		return KSFT_FAIL;
	if (!far_device)
		return KSFT_PASS;
	w->far_made = true;
	if (!CHECK_EQ(mt_sh("ip netns exec %s rdma link add %s type mlx5x netdev %s",
			    veth->ns, cfg->far_dev, veth->far), 0) ||
	    !end_open(&w->e[1], &far))
		return KSFT_FAIL;
	return KSFT_PASS;
}

/* Both ends, the far device and the pair, as far as they were made. */
void wire_close(struct wire *w)
{
	if (w->spare)
		CHECK_ERR(ibv_destroy_qp(w->spare), 0);
	end_close(&w->e[0]);
	end_close(&w->e[1]);
	if (w->far_made)
		mt_sh("rdma link delete %s 2>/dev/null", w->cfg->far_dev);
	if (w->made)
		mt_veth_unmake(w->cfg->veth);
}

const struct conn rc1024 = {
	.type = IBV_QPT_RC, .mtu = IBV_MTU_1024, .access = ALL,
	.rnr_retry = 7, .retry_cnt = 7, .timeout = 14,
};

struct ibv_qp *make_qp(struct end *e, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = e->cq, .recv_cq = e->cq, .qp_type = type,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(e->pd, &ia);

	CHECK(qp);
	return qp;
}

/*
 * @e's QP, RESET to RTS as @c says, to QP @dqpn at GID @dgid; it sends
 * from PSN SQ_PSN and expects SQ_PSN.
 */
bool connect_qp(struct end *e, const struct conn *c, uint32_t dqpn,
		const uint8_t *dgid)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = c->access,
	};
	bool rc = c->type == IBV_QPT_RC;

	if (!CHECK_ERR(ibv_modify_qp(e->qp, &a, IBV_QP_STATE |
				     IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     IBV_QP_ACCESS_FLAGS), 0))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = c->mtu;
	a.dest_qp_num = dqpn;
	a.rq_psn = SQ_PSN;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 1;	/* 0.01 ms */
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.sgid_index = e->gid.gid_index;
	memcpy(a.ah_attr.grh.dgid.raw, dgid, 16);
	if (!CHECK_ERR(ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_AV |
				     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				     IBV_QP_RQ_PSN |
				     (rc ? IBV_QP_MAX_DEST_RD_ATOMIC |
					   IBV_QP_MIN_RNR_TIMER : 0)), 0))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = SQ_PSN;
	a.timeout = c->timeout;
	a.retry_cnt = c->retry_cnt;
	a.rnr_retry = c->rnr_retry;
	a.max_rd_atomic = 4;
	return CHECK_ERR(ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
				       (rc ? IBV_QP_TIMEOUT |
					     IBV_QP_RETRY_CNT |
					     IBV_QP_RNR_RETRY |
					     IBV_QP_MAX_QP_RD_ATOMIC : 0)), 0);
}

/*
 * A QP on each end, connected to each other by their GIDs.  The two
 * devices number their QPs alike: a spare QP on the far end first gives
 * the two QPs different numbers, so that traffic the near device kept to
 * itself (to a QP of its own of that number) could not pass for traffic
 * that crossed the wire.
 */
bool connect_pair(struct wire *w, const struct conn *c)
{
	struct end *n = &w->e[0], *f = &w->e[1];

	n->qp = make_qp(n, c->type);
	w->spare = make_qp(f, c->type);
	f->qp = make_qp(f, c->type);
	if (n->qp && f->qp && !CHECK(n->qp->qp_num != f->qp->qp_num))
		return false;
	return n->qp && f->qp &&
	       connect_qp(n, c, f->qp->qp_num, f->gid.gid.raw) &&
	       connect_qp(f, c, n->qp->qp_num, n->gid.gid.raw);
}

uint32_t sq_psn(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (!CHECK_ERR(ibv_query_qp(qp, &a, IBV_QP_SQ_PSN, &ia), 0))
		return 0;
	return a.sq_psn;
}

enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		return -1;
	return a.qp_state;
}

/* @qp reaches @want within 2 s. */
bool state_becomes(struct ibv_qp *qp, enum ibv_qp_state want)
{
	long end = mt_now_ms() + 2000;

	while (qp_state(qp) != want && mt_now_ms() < end)
		usleep(10 * 1000);
	return CHECK_EQ(qp_state(qp), want);
}

void fill(uint8_t *b, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = seed + i * 13 + (i >> 8);
}

int post_recv(struct end *e, uint64_t id, uint32_t off, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)e->buf + off, len, e->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(e->qp, &wr, &bad);
}

/* The near end's signalled @wr of @len bytes at its @off; its status. */
int post_wait(struct end *e, struct ibv_send_wr *wr, uint32_t off,
	      uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)e->buf + off, len, e->mr->lkey };
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	wr->sg_list = &sge;
	wr->num_sge = 1;
	wr->send_flags |= IBV_SEND_SIGNALED;
	if (!CHECK_ERR(ibv_post_send(e->qp, wr, &bad), 0) ||
	    !CHECK(mt_poll_one(e->cq, &wc, WAIT)))
		return -1;
	CHECK_EQ(wc.wr_id, wr->wr_id);
	return wc.status;
}

/* The PSNs (24 bits) between @from and @to. */
uint32_t psn_delta(uint32_t from, uint32_t to)
{
	return (to - from) & 0xffffff;
}

uint32_t packets(uint32_t len, uint32_t mtu)
{
	return len ? (len + mtu - 1) / mtu : 1;
}
