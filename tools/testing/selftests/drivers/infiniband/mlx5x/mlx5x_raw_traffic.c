// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Raw packets through the simulated device's data path: two RAW_PACKET
 * QPs of one context, a steering rule of the kernel's (the device's
 * debugfs "steer" file) sending one destination MAC to the server QP's
 * TIR with a flow tag, sends posted on the client, receives on the
 * server, both CQs polled: bytes, CQE fields, order, the out-of-buffer
 * drop counter (fw/datapath), a bad lkey's error CQE and the flush after
 * it, unsteered packets, and queues destroyed with traffic in flight.
 * The model's wire loops every transmitted packet back into its receive
 * steering (Documentation/datapath.rst); on hardware the cases skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"

#define DEBUGFS		"/sys/kernel/debug/mlx5x"
#define NPKT		8
#define PKT_LEN		98
#define SLOT		256
#define TAG		0x17
#define CLIENT_MAC	"02:00:00:00:00:01"
#define SERVER_MAC	"02:00:00:00:00:02"

static const uint8_t server_mac[6] = { 2, 0, 0, 0, 0, 2 };
static const uint8_t client_mac[6] = { 2, 0, 0, 0, 0, 1 };

/*
 * A context with a client and a server RAW_PACKET QP in RTS, each on a CQ
 * of its own (the client's is the environment's), a buffer registered
 * for both, and the server's MAC steered to its TIR with TAG.  After the
 * case nothing of it is left in the model.
 */
struct env {
	struct mt_verbs_env v;
	struct ibv_cq *scq;
	struct ibv_qp *cqp, *sqp;
	struct ibv_mr *mr;
	uint8_t *buf;		/* slots 0..NPKT-1 send, NPKT.. receive */
	uint32_t tirn, rqn;
	int steer;		/* the steer file, open while rules live */
};

/* Steer @mac to the server's TIR with @tag, through the steer file. */
static bool steer_add(struct env *e, const char *mac, unsigned int tag)
{
	char line[80];
	int len;

	if (e->steer < 0) {
		snprintf(line, sizeof(line), DEBUGFS "/%s/steer",
			 ibv_get_device_name(e->v.ctx->device));
		e->steer = open(line, O_WRONLY);
		if (!CHECK(e->steer >= 0))
			return false;
	}
	len = snprintf(line, sizeof(line), "3 0x%x %s 0x%x", e->tirn, mac,
		       tag);
	return CHECK_EQ(write(e->steer, line, len), len);
}

static void unsteer(struct env *e)
{
	if (e->steer >= 0)
		close(e->steer);
	e->steer = -1;
}

MT_FIXTURE(env);

MT_FIXTURE_SETUP(env)
{
	struct mlx5dv_qp dv = { .comp_mask = MLX5DV_QP_MASK_RAW_QP_HANDLES };
	struct mlx5dv_obj obj = { .qp = { .out = &dv } };

	self->steer = -1;
	if (!mt_verbs_env_open(&self->v, MT_OPEN_DEFAULT))
		return KSFT_FAIL;
	self->scq = ibv_create_cq(self->v.ctx, 64, NULL, NULL, 0);
	self->buf = aligned_alloc(4096, 2 * NPKT * SLOT);
	if (!CHECK(self->scq) || !CHECK(self->buf))
		return KSFT_FAIL;
	memset(self->buf, 0, 2 * NPKT * SLOT);
	self->mr = ibv_reg_mr(self->v.pd, self->buf, 2 * NPKT * SLOT,
			      IBV_ACCESS_LOCAL_WRITE);
	self->cqp = mt_raw_qp(self->v.pd, self->v.cq, 64, 2, true);
	self->sqp = mt_raw_qp(self->v.pd, self->scq, 64, 2, true);
	if (!CHECK(self->mr) || !CHECK(self->cqp) || !CHECK(self->sqp))
		return KSFT_FAIL;
	obj.qp.in = self->sqp;
	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0))
		return KSFT_FAIL;
	self->tirn = dv.tirn;
	self->rqn = dv.rqn;
	if (!CHECK(self->tirn) || !steer_add(self, SERVER_MAC, TAG))
		return KSFT_FAIL;
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(env)
{
	unsteer(self);
	if (self->cqp)
		CHECK_ERR(ibv_destroy_qp(self->cqp), 0);
	if (self->sqp)
		CHECK_ERR(ibv_destroy_qp(self->sqp), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->scq)
		CHECK_ERR(ibv_destroy_cq(self->scq), 0);
	mt_verbs_env_close(&self->v);
	free(self->buf);
}

/* Ethernet + IPv4 + UDP (no checksum), payload of @seq repeated. */
static void make_pkt(uint8_t *buf, const uint8_t *dmac, unsigned int seq)
{
	uint8_t payload[PKT_LEN - 42];
	struct mt_pkt p = {};

	mt_pkt_eth(&p, dmac, client_mac, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(&p, "10.0.0.1", "10.0.0.2", MT_IP_UDP, 0);
	mt_pkt_l4(&p, false, 12345, 4791);
	memset(payload, seq, sizeof(payload));
	mt_pkt_put(&p, payload, sizeof(payload));
	mt_pkt_ipv4_finish(&p, 14);
	CHECK_EQ(p.len, PKT_LEN);
	memcpy(buf, p.b, PKT_LEN);
}

static bool post_recv(struct env *e, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf + (NPKT + i % NPKT) * SLOT,
		.length = SLOT, .lkey = e->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = 100 + i, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return CHECK_ERR(ibv_post_recv(e->sqp, &wr, &bad), 0);
}

static bool post_send(struct env *e, unsigned int i, const uint8_t *dmac,
		      uint32_t lkey)
{
	uint8_t *p = e->buf + (i % NPKT) * SLOT;
	struct ibv_sge sge = { .addr = (uintptr_t)p, .length = PKT_LEN,
			       .lkey = lkey };
	struct ibv_send_wr wr = {
		.wr_id = i, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	make_pkt(p, dmac, i);
	return CHECK_ERR(ibv_post_send(e->cqp, &wr, &bad), 0);
}

/* The model's fw/datapath into @buf; 0 or a negative errno. */
static int dp_read(char *buf, size_t len)
{
	char path[sizeof(mt.dbg) + 16];

	snprintf(path, sizeof(path), "%s/datapath", mt.dbg);
	return mt_read_file(path, buf, len);
}

static void dump_dp(void)
{
	char buf[8192], *line, *next;

	if (dp_read(buf, sizeof(buf)))
		return;
	for (line = buf; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		mt_diag("datapath: %s", line);
	}
}

static void dump_wc(const char *what, const struct ibv_wc *wc, int n)
{
	int i;

	for (i = 0; i < n; i++)
		mt_diag("%s wc: wr_id %llu status %d opcode %d len %u qp 0x%x",
			what, (unsigned long long)wc[i].wr_id, wc[i].status,
			wc[i].opcode, wc[i].byte_len, wc[i].qp_num);
}

/* Poll @cq until @n completions or two seconds; returns how many. */
static int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n)
{
	struct timespec t0, t;
	int got = 0, r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return r;
		got += r;
		if (got == n)
			break;
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 2);
	return got;
}

/*
 * Completions on @cq within a short wait, where none is expected.  The
 * model steers and delivers (or drops) a packet before it writes the
 * send's CQE, so once the sender's completion is in, whatever the packet
 * made is there too: the wait is a margin, not poll_n()'s two seconds.
 */
static int poll_none(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	usleep(100 * 1000);
	return ibv_poll_cq(cq, 1, &wc);
}

/* The server RQ's out_of_buffer count in fw/datapath, or -1. */
static long long rq_drops(const struct env *e)
{
	char line[32];

	snprintf(line, sizeof(line), "rq 0x%x ", e->rqn);
	return mt_dp_figure(NULL, line, "out_of_buffer");
}

MT_TEST_F(env, traffic)
{
	struct ibv_wc wc[NPKT];
	unsigned int i;
	int n;
	uint8_t want[PKT_LEN];

	for (i = 0; i < NPKT; i++)
		post_recv(self, i);
	for (i = 0; i < NPKT; i++)
		post_send(self, i, server_mac, self->mr->lkey);
	n = poll_n(self->v.cq, wc, NPKT);
	if (n != NPKT) {
		dump_wc("client", wc, n);
		dump_dp();
	}
	if (CHECK_EQ(n, NPKT))
		for (i = 0; i < NPKT; i++) {
			CHECK_EQ(wc[i].status, IBV_WC_SUCCESS);
			CHECK_EQ(wc[i].opcode, IBV_WC_SEND);
			CHECK_EQ(wc[i].wr_id, i);
			CHECK_EQ(wc[i].qp_num, self->cqp->qp_num);
		}
	n = poll_n(self->scq, wc, NPKT);
	if (n != NPKT)
		dump_wc("server", wc, n);
	if (CHECK_EQ(n, NPKT))
		for (i = 0; i < NPKT; i++) {
			CHECK_EQ(wc[i].status, IBV_WC_SUCCESS);
			CHECK_EQ(wc[i].opcode, IBV_WC_RECV);
			CHECK_EQ(wc[i].wr_id, 100 + i);	/* in order */
			CHECK_EQ(wc[i].byte_len, PKT_LEN);
			/* a raw RQ's CQE carries the flow tag there */
			CHECK_EQ(wc[i].qp_num, TAG);
			make_pkt(want, server_mac, i);
			CHECK(!memcmp(self->buf + (NPKT + i) * SLOT, want,
				      PKT_LEN));
		}
	CHECK_EQ(rq_drops(self), 0);
	return KSFT_PASS;
}

/* No receive WQE posted: the packets are dropped and counted. */
MT_TEST_F(env, no_rq_wqe)
{
	struct ibv_wc wc[4];
	unsigned int i;

	for (i = 0; i < 3; i++)
		post_send(self, i, server_mac, self->mr->lkey);
	CHECK_EQ(poll_n(self->v.cq, wc, 3), 3);
	CHECK_EQ(poll_none(self->scq), 0);
	CHECK_EQ(rq_drops(self), 3);
	/* one posted now takes the next packet */
	post_recv(self, 0);
	post_send(self, 3, server_mac, self->mr->lkey);
	CHECK_EQ(poll_n(self->scq, wc, 1), 1);
	CHECK_EQ(wc[0].byte_len, PKT_LEN);
	CHECK_EQ(rq_drops(self), 3);
	return KSFT_PASS;
}

/* A packet no rule takes reaches no RQ. */
MT_TEST_F(env, unsteered)
{
	struct ibv_wc wc[2];

	post_recv(self, 0);
	post_send(self, 0, client_mac, self->mr->lkey);
	CHECK_EQ(poll_n(self->v.cq, wc, 1), 1);
	CHECK_EQ(wc[0].status, IBV_WC_SUCCESS);
	CHECK_EQ(poll_none(self->scq), 0);
	CHECK_EQ(rq_drops(self), 0);
	/* the server's own MAC still gets through, into the same WQE */
	post_send(self, 1, server_mac, self->mr->lkey);
	CHECK_EQ(poll_n(self->scq, wc, 1), 1);
	CHECK_EQ(wc[0].wr_id, 100);
	return KSFT_PASS;
}

/* A bad lkey: local protection error, then the rest flushed. */
MT_TEST_F(env, bad_lkey)
{
	struct ibv_wc wc[2];

	post_recv(self, 0);
	post_send(self, 0, server_mac, self->mr->lkey ^ 0xff);
	post_send(self, 1, server_mac, self->mr->lkey);
	if (CHECK_EQ(poll_n(self->v.cq, wc, 2), 2)) {
		CHECK_EQ(wc[0].status, IBV_WC_LOC_PROT_ERR);
		CHECK_EQ(wc[0].wr_id, 0);
		CHECK_EQ(wc[1].status, IBV_WC_WR_FLUSH_ERR);
		CHECK_EQ(wc[1].wr_id, 1);
	}
	CHECK_EQ(poll_none(self->scq), 0);
	return KSFT_PASS;
}

/* Queues destroyed while the device still has WQEs of theirs to run. */
MT_TEST_F_PARTS(env, destroy_in_flight)
{
	unsigned int j;

	for (j = 0; j < 32; j++)
		post_recv(self, j);
	for (j = 0; j < 48; j++)
		post_send(self, j, server_mac, self->mr->lkey);
	/* a later round lets the device run longer first */
	usleep(i * 500);
	return KSFT_PASS;
}

/* passes and busy_ns of fw/datapath; false if unreadable. */
static bool dp_figures(long long *passes, long long *ns)
{
	*passes = mt_dp_figure(NULL, "passes ", "passes");
	*ns = mt_dp_figure(NULL, "passes ", "busy_ns");
	return *passes >= 0 && *ns >= 0;
}

/*
 * The worker polls while an SQ is ready, and stops once none is: its
 * passes over 200 ms of an idle ready SQ, then over 200 ms with none.
 */
MT_TEST_F(env, worker_cost)
{
	long long p0, p1, p2, n0, n1, n2;
	struct ibv_qp *qp;

	CHECK(dp_figures(&p0, &n0));
	usleep(200000);
	CHECK(dp_figures(&p1, &n1));
	CHECK(p1 > p0);
	if (p1 > p0)
		mt_diag("idle ready SQs: %lld passes in 200 ms, %lld ns each",
			p1 - p0, (n1 - n0) / (p1 - p0));
	/* no SQ ready: the worker stops (one last pass may run) */
	unsteer(self);
	qp = self->cqp;
	self->cqp = NULL;
	CHECK_ERR(ibv_destroy_qp(qp), 0);
	qp = self->sqp;
	self->sqp = NULL;
	CHECK_ERR(ibv_destroy_qp(qp), 0);
	usleep(50000);
	CHECK(dp_figures(&p1, &n1));
	usleep(200000);
	CHECK(dp_figures(&p2, &n2));
	CHECK_EQ(p2, p1);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(env, traffic, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, no_rq_wqe, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, unsteered, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, bad_lkey, .flags = MT_NEEDS_MODEL),
	MT_CASE_F_PARTS(env, destroy_in_flight, 5, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(env, worker_cost, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
