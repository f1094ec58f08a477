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

#define DEBUGFS		"/sys/kernel/debug/mlx5x"
#define NPKT		8
#define PKT_LEN		98
#define SLOT		256
#define TAG		0x17
#define CLIENT_MAC	"02:00:00:00:00:01"
#define SERVER_MAC	"02:00:00:00:00:02"

static const uint8_t server_mac[6] = { 2, 0, 0, 0, 0, 2 };
static const uint8_t client_mac[6] = { 2, 0, 0, 0, 0, 1 };

struct env {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *ccq, *scq;
	struct ibv_qp *cqp, *sqp;
	struct ibv_mr *mr;
	uint8_t *buf;		/* slots 0..NPKT-1 send, NPKT.. receive */
	uint32_t tirn, rqn;
	int steer;		/* the steer file, open while rules live */
	int uid;
	int base;
};

static struct ibv_qp *raw_qp(struct env *e, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 64, .max_recv_wr = 64,
			 .max_send_sge = 2, .max_recv_sge = 2 },
		.qp_type = IBV_QPT_RAW_PACKET,
	};
	struct ibv_qp_attr a = { .port_num = 1 };
	struct ibv_qp *qp = ibv_create_qp(e->pd, &attr);

	if (!qp)
		return NULL;
	a.qp_state = IBV_QPS_INIT;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PORT))
		goto err;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		goto err;
	a.qp_state = IBV_QPS_RTS;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		goto err;
	return qp;
err:
	ibv_destroy_qp(qp);
	return NULL;
}

/* Steer @mac to the server's TIR with @tag, through the steer file. */
static bool steer_add(struct env *e, const char *mac, unsigned int tag)
{
	char line[80];
	int len;

	if (e->steer < 0) {
		snprintf(line, sizeof(line), DEBUGFS "/%s/steer",
			 ibv_get_device_name(e->ctx->device));
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

static bool env_open(struct env *e)
{
	struct mlx5dv_qp dv = { .comp_mask = MLX5DV_QP_MASK_RAW_QP_HANDLES };
	struct mlx5dv_obj obj = { .qp = { .out = &dv } };

	memset(e, 0, sizeof(*e));
	e->steer = -1;
	e->base = mt_fw_count(NULL, -1);
	e->ctx = mt_open(MT_OPEN_DEFAULT, &e->uid);
	if (!CHECK(e->ctx))
		return false;
	e->pd = ibv_alloc_pd(e->ctx);
	e->ccq = ibv_create_cq(e->ctx, 64, NULL, NULL, 0);
	e->scq = ibv_create_cq(e->ctx, 64, NULL, NULL, 0);
	e->buf = aligned_alloc(4096, 2 * NPKT * SLOT);
	if (!CHECK(e->pd) || !CHECK(e->ccq) || !CHECK(e->scq) ||
	    !CHECK(e->buf))
		return false;
	memset(e->buf, 0, 2 * NPKT * SLOT);
	e->mr = ibv_reg_mr(e->pd, e->buf, 2 * NPKT * SLOT,
			   IBV_ACCESS_LOCAL_WRITE);
	e->cqp = raw_qp(e, e->ccq);
	e->sqp = raw_qp(e, e->scq);
	if (!CHECK(e->mr) || !CHECK(e->cqp) || !CHECK(e->sqp))
		return false;
	obj.qp.in = e->sqp;
	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0))
		return false;
	e->tirn = dv.tirn;
	e->rqn = dv.rqn;
	return CHECK(e->tirn) && steer_add(e, SERVER_MAC, TAG);
}

static void env_close(struct env *e)
{
	unsteer(e);
	if (e->cqp)
		CHECK_ERR(ibv_destroy_qp(e->cqp), 0);
	if (e->sqp)
		CHECK_ERR(ibv_destroy_qp(e->sqp), 0);
	if (e->mr)
		CHECK_ERR(ibv_dereg_mr(e->mr), 0);
	if (e->ccq)
		CHECK_ERR(ibv_destroy_cq(e->ccq), 0);
	if (e->scq)
		CHECK_ERR(ibv_destroy_cq(e->scq), 0);
	if (e->pd)
		CHECK_ERR(ibv_dealloc_pd(e->pd), 0);
	if (e->ctx)
		CHECK_EQ(ibv_close_device(e->ctx), 0);
	free(e->buf);
	CHECK_EQ(mt_fw_count(NULL, -1), e->base);
}

static uint16_t ip_csum(const uint8_t *h, unsigned int len)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < len; i += 2)
		sum += h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/* Ethernet + IPv4 + UDP (no checksum), payload of @seq repeated. */
static void make_pkt(uint8_t *p, const uint8_t *dmac, unsigned int seq)
{
	uint16_t c;

	memset(p, 0, PKT_LEN);
	memcpy(p, dmac, 6);
	memcpy(p + 6, client_mac, 6);
	p[12] = 0x08;
	p[14] = 0x45;
	p[17] = PKT_LEN - 14;
	p[22] = 64;
	p[23] = 17;
	p[26] = 10; p[29] = 1;
	p[30] = 10; p[33] = 2;
	c = ip_csum(p + 14, 20);
	p[24] = c >> 8;
	p[25] = c & 0xff;
	p[34] = 0x30; p[35] = 0x39;
	p[36] = 0x12; p[37] = 0xb7;
	p[39] = PKT_LEN - 34;
	memset(p + 42, seq, PKT_LEN - 42);
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

static void dump_dp(void)
{
	char line[256];
	FILE *f = fopen(DEBUGFS "/mlx5x_0/fw/datapath", "r");

	while (f && fgets(line, sizeof(line), f))
		mt_diag("datapath: %s", line);
	if (f)
		fclose(f);
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
	char buf[8192], want[32], path[256], *l;
	long long v = -1;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), DEBUGFS "/%s/fw/datapath",
		 ibv_get_device_name(e->ctx->device));
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	snprintf(want, sizeof(want), "rq 0x%x ", e->rqn);
	l = strstr(buf, want);
	if (l)
		sscanf(l + strlen(want), "packets %*u out_of_buffer %lld", &v);
	return v;
}

static int test_traffic(void)
{
	struct ibv_wc wc[NPKT];
	struct env e;
	unsigned int i;
	int n;
	uint8_t want[PKT_LEN];

	if (!mt_sim())
		return mt_skip("the steer file and loopback are the model's");
	if (!env_open(&e))
		goto out;
	for (i = 0; i < NPKT; i++)
		post_recv(&e, i);
	for (i = 0; i < NPKT; i++)
		post_send(&e, i, server_mac, e.mr->lkey);
	n = poll_n(e.ccq, wc, NPKT);
	if (n != NPKT) {
		dump_wc("client", wc, n);
		dump_dp();
	}
	if (CHECK_EQ(n, NPKT))
		for (i = 0; i < NPKT; i++) {
			CHECK_EQ(wc[i].status, IBV_WC_SUCCESS);
			CHECK_EQ(wc[i].opcode, IBV_WC_SEND);
			CHECK_EQ(wc[i].wr_id, i);
			CHECK_EQ(wc[i].qp_num, e.cqp->qp_num);
		}
	n = poll_n(e.scq, wc, NPKT);
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
			CHECK(!memcmp(e.buf + (NPKT + i) * SLOT, want,
				      PKT_LEN));
		}
	CHECK_EQ(rq_drops(&e), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* No receive WQE posted: the packets are dropped and counted. */
static int test_no_rq_wqe(void)
{
	struct ibv_wc wc[4];
	struct env e;
	unsigned int i;

	if (!mt_sim())
		return mt_skip("the steer file and loopback are the model's");
	if (!env_open(&e))
		goto out;
	for (i = 0; i < 3; i++)
		post_send(&e, i, server_mac, e.mr->lkey);
	CHECK_EQ(poll_n(e.ccq, wc, 3), 3);
	CHECK_EQ(poll_none(e.scq), 0);
	CHECK_EQ(rq_drops(&e), 3);
	/* one posted now takes the next packet */
	post_recv(&e, 0);
	post_send(&e, 3, server_mac, e.mr->lkey);
	CHECK_EQ(poll_n(e.scq, wc, 1), 1);
	CHECK_EQ(wc[0].byte_len, PKT_LEN);
	CHECK_EQ(rq_drops(&e), 3);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* A packet no rule takes reaches no RQ. */
static int test_unsteered(void)
{
	struct ibv_wc wc[2];
	struct env e;

	if (!mt_sim())
		return mt_skip("the steer file and loopback are the model's");
	if (!env_open(&e))
		goto out;
	post_recv(&e, 0);
	post_send(&e, 0, client_mac, e.mr->lkey);
	CHECK_EQ(poll_n(e.ccq, wc, 1), 1);
	CHECK_EQ(wc[0].status, IBV_WC_SUCCESS);
	CHECK_EQ(poll_none(e.scq), 0);
	CHECK_EQ(rq_drops(&e), 0);
	/* the server's own MAC still gets through, into the same WQE */
	post_send(&e, 1, server_mac, e.mr->lkey);
	CHECK_EQ(poll_n(e.scq, wc, 1), 1);
	CHECK_EQ(wc[0].wr_id, 100);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* A bad lkey: local protection error, then the rest flushed. */
static int test_bad_lkey(void)
{
	struct ibv_wc wc[2];
	struct env e;

	if (!mt_sim())
		return mt_skip("the steer file and loopback are the model's");
	if (!env_open(&e))
		goto out;
	post_recv(&e, 0);
	post_send(&e, 0, server_mac, e.mr->lkey ^ 0xff);
	post_send(&e, 1, server_mac, e.mr->lkey);
	if (CHECK_EQ(poll_n(e.ccq, wc, 2), 2)) {
		CHECK_EQ(wc[0].status, IBV_WC_LOC_PROT_ERR);
		CHECK_EQ(wc[0].wr_id, 0);
		CHECK_EQ(wc[1].status, IBV_WC_WR_FLUSH_ERR);
		CHECK_EQ(wc[1].wr_id, 1);
	}
	CHECK_EQ(poll_none(e.scq), 0);
out:
	env_close(&e);
	return KSFT_PASS;
}

/* Queues destroyed while the device still has WQEs of theirs to run. */
static int test_destroy_in_flight(unsigned int round)
{
	struct env e;
	unsigned int i;

	if (!mt_sim())
		return mt_skip("the steer file and loopback are the model's");
	if (env_open(&e)) {
		for (i = 0; i < 32; i++)
			post_recv(&e, i);
		for (i = 0; i < 48; i++)
			post_send(&e, i, server_mac, e.mr->lkey);
		/* a later round lets the device run longer first */
		usleep(round * 500);
	}
	env_close(&e);
	return KSFT_PASS;
}

/* passes and busy_ns of fw/datapath; false if unreadable. */
static bool dp_figures(const struct env *e, long long *passes,
		       long long *ns)
{
	char path[256];
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), DEBUGFS "/%s/fw/datapath",
		 ibv_get_device_name(e->ctx->device));
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "passes %lld busy_passes %*d busy_ns %lld", passes,
		    ns) == 2;
	fclose(f);
	return ok;
}

/*
 * The worker polls while an SQ is ready, and stops once none is: its
 * passes over 200 ms of an idle ready SQ, then over 200 ms with none.
 */
static int test_worker_cost(void)
{
	long long p0, p1, p2, n0, n1, n2;
	struct ibv_qp *qp;
	struct env e;

	if (!mt_sim())
		return mt_skip("fw/datapath is the model's");
	if (!env_open(&e))
		goto out;
	CHECK(dp_figures(&e, &p0, &n0));
	usleep(200000);
	CHECK(dp_figures(&e, &p1, &n1));
	CHECK(p1 > p0);
	if (p1 > p0)
		mt_diag("idle ready SQs: %lld passes in 200 ms, %lld ns each",
			p1 - p0, (n1 - n0) / (p1 - p0));
	/* no SQ ready: the worker stops (one last pass may run) */
	unsteer(&e);
	qp = e.cqp;
	e.cqp = NULL;
	CHECK_ERR(ibv_destroy_qp(qp), 0);
	qp = e.sqp;
	e.sqp = NULL;
	CHECK_ERR(ibv_destroy_qp(qp), 0);
	usleep(50000);
	CHECK(dp_figures(&e, &p1, &n1));
	usleep(200000);
	CHECK(dp_figures(&e, &p2, &n2));
	CHECK_EQ(p2, p1);
out:
	env_close(&e);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	{ "traffic", test_traffic },
	{ "no_rq_wqe", test_no_rq_wqe },
	{ "unsteered", test_unsteered },
	{ "bad_lkey", test_bad_lkey },
	{ .name = "destroy_in_flight", .part = test_destroy_in_flight,
	  .parts = 5 },
	{ "worker_cost", test_worker_cost },
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
