// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The netdev as the port's wire (issue 24): a simulated device of its own
 * on the near end of a veth pair whose far end is in another network
 * namespace.  Frames sent from the far namespace (AF_PACKET) that a
 * RAW_PACKET QP's flow (ibv_create_flow(3)) matches land on that QP and
 * not in the near kernel; frames no flow matches reach the near kernel
 * and no QP; a DONT_TRAP flow gives both a copy.  A frame the QP sends
 * to the far end's MAC arrives there byte for byte; one to the device's
 * own MAC loops to a local flow.  Runt frames are counted (fw/datapath's
 * wire line); a second context, of another user, with a QP and no flow,
 * gets nothing; the device deleted, or its veth, during traffic is
 * clean.  The device and its veth are the cases' own; on hardware (or
 * with MLX5X_NO_MODEL) every case skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/capability.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_veth.h"

#define W_DEV		"mlx5x_w"
#define W_NEAR		"mwn0"
#define W_FAR		"mwf0"
#define W_NS		"mwfar"
#define NEAR_IP		"192.168.77.1"
#define FAR_IP		"192.168.77.2"
#define W_DEBUGFS	"/sys/kernel/debug/mlx5x/" W_DEV "/fw/datapath"
#define ETH_TEST	0x88b5		/* IEEE local experimental */
#define SLOT		2048
#define NRECV		16
#define PORT_TRAP	7001
#define PORT_KERNEL	7002
#define PORT_BOTH	7003

static const uint8_t near_mac[6] = { 2, 0x77, 0, 0, 0, 1 };
static const uint8_t far_mac[6] = { 2, 0x77, 0, 0, 0, 2 };

static const struct mt_veth veth = {
	.dev = W_DEV, .near = W_NEAR, .far = W_FAR, .ns = W_NS,
	.near_ip = NEAR_IP, .far_ip = FAR_IP,
	.near_mac = "02:77:00:00:00:01", .far_mac = "02:77:00:00:00:02",
};

static int far_run(const uint8_t *f, size_t len, size_t stride,
		   unsigned int n)
{
	return mt_veth_far_send(&veth, f, len, stride, n);
}

static bool far_send(const uint8_t *f, size_t len, size_t stride,
		     unsigned int n)
{
	return CHECK_EQ(far_run(f, len, stride, n), 0);
}

/* The far end's listener for one ETH_TEST frame. */
static pid_t far_listen(int *fd)
{
	return mt_veth_far_listen(&veth, ETH_TEST, 2, 1, NULL, fd);
}

/* A UDP socket on the near end's @port, non-blocking. */
static int udp_socket(uint16_t port)
{
	return mt_udp_socket(NEAR_IP, port);
}

/* Datagrams the socket holds after a moment; each must be @payload. */
static int udp_count(int s, const uint8_t *payload, size_t len)
{
	return mt_udp_count(s, payload, len, 300);
}

/* A UDP datagram from the far end to the near end's @port. */
static void make_udp(struct mt_pkt *p, uint16_t port, const uint8_t *payload,
		     size_t len)
{
	memset(p, 0, sizeof(*p));
	mt_pkt_eth(p, near_mac, far_mac, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(p, FAR_IP, NEAR_IP, MT_IP_UDP, 0);
	mt_pkt_l4(p, false, 40000, port);
	mt_pkt_put(p, payload, len);
	mt_pkt_ipv4_finish(p, 14);
}

/* A frame of ETH_TEST to @dmac from the near end, @seq in its payload. */
static void make_test(struct mt_pkt *p, const uint8_t *dmac, uint8_t seq)
{
	uint8_t payload[100];

	memset(p, 0, sizeof(*p));
	memset(payload, seq, sizeof(payload));
	mt_pkt_eth(p, dmac, near_mac, -1, ETH_TEST);
	mt_pkt_put(p, payload, sizeof(payload));
}

/* One value of fw/datapath's wire line, or -1. */
static long long wire_figure(const char *name)
{
	return mt_dp_figure(W_DEBUGFS, "wire ", name);
}

/*
 * The device on the near end, a context on it, a RAW_PACKET QP in RTS
 * with NRECV receives posted, a buffer: slots 0..NRECV-1 receive, the
 * next one sends.
 */
struct wire {
	bool made;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
};

static bool post_recvs(struct ibv_qp *qp, struct ibv_mr *mr, uint8_t *buf)
{
	struct ibv_recv_wr wr = { .num_sge = 1 }, *bad;
	struct ibv_sge sge = { .length = SLOT, .lkey = mr->lkey };
	unsigned int i;

	wr.sg_list = &sge;
	for (i = 0; i < NRECV; i++) {
		wr.wr_id = i;
		sge.addr = (uintptr_t)buf + i * SLOT;
		if (ibv_post_recv(qp, &wr, &bad))
			return false;
	}
	return true;
}

MT_FIXTURE(wire);

MT_FIXTURE_SETUP(wire)
{
	int made = mt_veth_make(&veth);

	self->made = true;
	if (made != KSFT_PASS)
		return made;
	self->ctx = mt_veth_open(&veth);
	if (!CHECK(self->ctx))
		return KSFT_FAIL;
	self->pd = ibv_alloc_pd(self->ctx);
	self->cq = ibv_create_cq(self->ctx, 64, NULL, NULL, 0);
	self->buf = aligned_alloc(4096, (NRECV + 1) * SLOT);
	if (!CHECK(self->pd) || !CHECK(self->cq) || !CHECK(self->buf))
		return KSFT_FAIL;
	memset(self->buf, 0, (NRECV + 1) * SLOT);
	self->mr = ibv_reg_mr(self->pd, self->buf, (NRECV + 1) * SLOT,
			      IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(self->mr))
		return KSFT_FAIL;
	self->qp = mt_raw_qp(self->pd, self->cq, 64, 1, true);
	if (!CHECK(self->qp) ||
	    !CHECK(post_recvs(self->qp, self->mr, self->buf)))
		return KSFT_FAIL;
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(wire)
{
	if (self->qp)
		CHECK_ERR(ibv_destroy_qp(self->qp), 0);
	if (self->mr)
		CHECK_ERR(ibv_dereg_mr(self->mr), 0);
	if (self->cq)
		CHECK_ERR(ibv_destroy_cq(self->cq), 0);
	if (self->pd)
		CHECK_ERR(ibv_dealloc_pd(self->pd), 0);
	if (self->ctx)
		CHECK_EQ(ibv_close_device(self->ctx), 0);
	free(self->buf);
	if (self->made)
		mt_veth_unmake(&veth);
}

/* A flow of @qp: UDP to the near end's IP and @port (and MAC). */
static struct ibv_flow *flow_udp(struct ibv_qp *qp, uint16_t port,
				 bool dont_trap)
{
	struct {
		struct ibv_flow_attr a;
		struct ibv_flow_spec_eth eth;
		struct ibv_flow_spec_ipv4 ip;
		struct ibv_flow_spec_tcp_udp udp;
	} f = {
		.a = { .type = IBV_FLOW_ATTR_NORMAL, .size = sizeof(f),
		       .num_of_specs = 3, .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH, .size = sizeof(f.eth) },
		.ip = { .type = IBV_FLOW_SPEC_IPV4, .size = sizeof(f.ip) },
		.udp = { .type = IBV_FLOW_SPEC_UDP, .size = sizeof(f.udp) },
	};

	if (dont_trap)
		f.a.flags = IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
	memcpy(f.eth.val.dst_mac, near_mac, 6);
	memset(f.eth.mask.dst_mac, 0xff, 6);
	inet_pton(AF_INET, NEAR_IP, &f.ip.val.dst_ip);
	f.ip.mask.dst_ip = 0xffffffff;
	f.udp.val.dst_port = htons(port);
	f.udp.mask.dst_port = 0xffff;
	return ibv_create_flow(qp, &f.a);
}

/* A flow of @qp: ETH_TEST frames to @dmac. */
static struct ibv_flow *flow_test(struct ibv_qp *qp, const uint8_t *dmac)
{
	struct {
		struct ibv_flow_attr a;
		struct ibv_flow_spec_eth eth;
	} f = {
		.a = { .type = IBV_FLOW_ATTR_NORMAL, .size = sizeof(f),
		       .num_of_specs = 1, .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH, .size = sizeof(f.eth) },
	};

	memcpy(f.eth.val.dst_mac, dmac, 6);
	memset(f.eth.mask.dst_mac, 0xff, 6);
	f.eth.val.ether_type = htons(ETH_TEST);
	f.eth.mask.ether_type = 0xffff;
	return ibv_create_flow(qp, &f.a);
}

/* One completion of @cq within @ms; false if none (no check fails). */
static bool poll_wc(struct ibv_cq *cq, struct ibv_wc *wc, long ms)
{
	long end = mt_now_ms() + ms;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return CHECK_EQ(n, 1);
		usleep(1000);
	} while (mt_now_ms() < end);
	return false;
}

/* Receive completions of @cq within @ms; each checked against @f. */
static int qp_count(struct ibv_cq *cq, const uint8_t *buf, long ms,
		    const uint8_t *f, size_t len)
{
	struct ibv_wc wc;
	int got = 0;

	while (poll_wc(cq, &wc, ms)) {
		if (wc.opcode != IBV_WC_RECV)
			continue;
		CHECK_EQ(wc.status, IBV_WC_SUCCESS);
		CHECK_EQ(wc.byte_len, len);
		if (wc.wr_id < NRECV && wc.byte_len == len)
			CHECK(!memcmp(buf + wc.wr_id * SLOT, f, len));
		got++;
		ms = 100;
	}
	return got;
}

/*
 * The second context: another user's (nobody, CAP_NET_RAW kept for its
 * RAW_PACKET QP), with a QP and receives posted but no flow.  Says it is
 * ready on @fd, then counts what its QP receives in a second.
 */
static int stranger(void *arg)
{
	int fd = *(int *)arg;
	struct ibv_context *ctx = mt_veth_open(&veth);
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	struct ibv_cq *cq = ctx ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;
	uint8_t *buf = aligned_alloc(4096, NRECV * SLOT);
	struct ibv_mr *mr = pd && buf ? ibv_reg_mr(pd, buf, NRECV * SLOT,
						  IBV_ACCESS_LOCAL_WRITE) : NULL;
	struct ibv_qp *qp = mr ? mt_raw_qp(pd, cq, 64, 1, true) : NULL;
	struct ibv_wc wc;
	int got = 0;

	if (!qp || !post_recvs(qp, mr, buf) || write(fd, "r", 1) != 1)
		return 3;
	while (poll_wc(cq, &wc, 1500))
		got++;
	ibv_destroy_qp(qp);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(buf);
	return got ? 1 : 0;
}

/*
 * (a) A frame a flow matches lands on its QP, byte for byte, and not in
 * the near kernel; another user's context, with a QP and no flow, gets
 * nothing.
 */
MT_TEST_F(wire, trapped)
{
	const uint8_t payload[] = "trapped by a flow";
	struct ibv_flow *fl = flow_udp(self->qp, PORT_TRAP, false);
	int s = udp_socket(PORT_TRAP), fd[2];
	struct mt_pkt p;
	char c;
	pid_t pid;

	if (!CHECK(fl) || !CHECK(s >= 0) || !CHECK(!pipe(fd)))
		return KSFT_FAIL;
	pid = fork();
	if (!pid) {
		close(fd[0]);
		if (!mt_drop_to(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW)))
			_exit(2);
		_exit(stranger(&fd[1]));
	}
	close(fd[1]);
	CHECK_EQ(read(fd[0], &c, 1), 1);
	close(fd[0]);
	make_udp(&p, PORT_TRAP, payload, sizeof(payload));
	CHECK(far_send(p.b, p.len, 0, 1));
	CHECK_EQ(qp_count(self->cq, self->buf, 2000, p.b, p.len), 1);
	CHECK_EQ(udp_count(s, payload, sizeof(payload)), 0);
	/* the stranger's QP received nothing */
	CHECK_EQ(mt_reap(pid), 0);
	close(s);
	CHECK_ERR(ibv_destroy_flow(fl), 0);
	return KSFT_PASS;
}

/* (b) A frame no flow matches reaches the kernel, and no QP. */
MT_TEST_F(wire, unmatched_to_kernel)
{
	const uint8_t payload[] = "for the kernel";
	struct ibv_flow *fl = flow_udp(self->qp, PORT_TRAP, false);
	int s = udp_socket(PORT_KERNEL);
	struct mt_pkt p;

	if (!CHECK(fl) || !CHECK(s >= 0))
		return KSFT_FAIL;
	make_udp(&p, PORT_KERNEL, payload, sizeof(payload));
	CHECK(far_send(p.b, p.len, 0, 3));
	CHECK_EQ(udp_count(s, payload, sizeof(payload)), 3);
	CHECK_EQ(qp_count(self->cq, self->buf, 200, p.b, p.len), 0);
	CHECK(wire_figure("rx_up") >= 3);
	close(s);
	CHECK_ERR(ibv_destroy_flow(fl), 0);
	return KSFT_PASS;
}

/* (c) DONT_TRAP: the QP gets a copy, and so does the kernel. */
MT_TEST_F(wire, dont_trap_both)
{
	const uint8_t payload[] = "for both";
	struct ibv_flow *fl = flow_udp(self->qp, PORT_BOTH, true);
	int s = udp_socket(PORT_BOTH);
	struct mt_pkt p;

	if (!CHECK(fl) || !CHECK(s >= 0))
		return KSFT_FAIL;
	make_udp(&p, PORT_BOTH, payload, sizeof(payload));
	CHECK(far_send(p.b, p.len, 0, 1));
	CHECK_EQ(qp_count(self->cq, self->buf, 2000, p.b, p.len), 1);
	CHECK_EQ(udp_count(s, payload, sizeof(payload)), 1);
	close(s);
	CHECK_ERR(ibv_destroy_flow(fl), 0);
	return KSFT_PASS;
}

static bool post_frame(struct wire *w, const struct mt_pkt *p)
{
	uint8_t *slot = w->buf + NRECV * SLOT;
	struct ibv_sge sge = { .addr = (uintptr_t)slot, .length = p->len,
			       .lkey = w->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1000, .sg_list = &sge,
				  .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;

	memcpy(slot, p->b, p->len);
	return CHECK_ERR(ibv_post_send(w->qp, &wr, &bad), 0);
}

/*
 * (d) A frame to the far end's MAC arrives there byte for byte; one to
 * the device's own MAC loops to the flow that asks for it, and does not
 * go out.
 */
MT_TEST_F(wire, transmit)
{
	struct ibv_flow *fl = flow_test(self->qp, near_mac);
	uint8_t got[SLOT];
	struct mt_pkt p;
	int fd;
	ssize_t n;
	pid_t pid;

	if (!CHECK(fl))
		return KSFT_FAIL;
	pid = far_listen(&fd);
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	make_test(&p, far_mac, 0x5a);
	CHECK(post_frame(self, &p));
	n = mt_veth_far_frame(fd, got, sizeof(got));
	if (CHECK_EQ(n, (ssize_t)p.len))
		CHECK(!memcmp(got, p.b, p.len));
	close(fd);
	CHECK_EQ(mt_reap(pid), 0);
	CHECK(wire_figure("tx") >= 1);
	CHECK_EQ(qp_count(self->cq, self->buf, 200, p.b, p.len), 0);

	/* to itself: the flow's QP receives it, the far end does not */
	pid = far_listen(&fd);
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	make_test(&p, near_mac, 0xa5);
	CHECK(post_frame(self, &p));
	CHECK_EQ(qp_count(self->cq, self->buf, 2000, p.b, p.len), 1);
	/* the listener times out with nothing */
	CHECK_EQ(mt_veth_far_frame(fd, got, sizeof(got)), -1);
	close(fd);
	CHECK(mt_reap(pid) != 0);
	CHECK_ERR(ibv_destroy_flow(fl), 0);
	return KSFT_PASS;
}

/*
 * (e) Runt and truncated frames from the far end: counted, nothing
 * breaks, and a frame after them still lands on its QP.
 */
MT_TEST_F(wire, runts)
{
	static const uint8_t lens[] = { 14, 15, 20, 34, 41, 59 };
	const uint8_t payload[] = "after the runts, a frame of full size";
	struct ibv_flow *fl = flow_udp(self->qp, PORT_TRAP, false);
	long long before = wire_figure("rx_short");
	struct mt_pkt p;
	unsigned int i;

	if (!CHECK(fl) || !CHECK(before >= 0))
		return KSFT_FAIL;
	/* headers that claim more than the frame holds */
	make_udp(&p, PORT_TRAP, payload, sizeof(payload));
	p.b[14] = 0x4f;			/* IHL 15: 60 bytes of IPv4 header */
	for (i = 0; i < MT_ARRAY_SIZE(lens); i++)
		CHECK(far_send(p.b, lens[i], 0, 1));
	make_udp(&p, PORT_TRAP, payload, sizeof(payload));
	CHECK(far_send(p.b, p.len, 0, 1));
	CHECK_EQ(qp_count(self->cq, self->buf, 2000, p.b, p.len), 1);
	CHECK_EQ(wire_figure("rx_short") - before, MT_ARRAY_SIZE(lens));
	CHECK_ERR(ibv_destroy_flow(fl), 0);
	return KSFT_PASS;
}

/* Frames from the far end while @cmd runs: a flood in a child. */
static bool flood_during(const char *cmd)
{
	struct mt_pkt p;
	pid_t pid;
	int i;

	make_udp(&p, PORT_KERNEL, (const uint8_t *)"flood", 5);
	pid = fork();
	if (!pid) {
		/* until the veth is gone under it */
		for (i = 0; i < 20; i++)
			if (far_run(p.b, p.len, 0, 100))
				_exit(1);
		_exit(0);
	}
	usleep(100 * 1000);
	CHECK_EQ(mt_sh("%s", cmd), 0);
	mt_reap(pid);
	return true;
}

/* (f) The device deleted during traffic, then its veth. */
static int test_delete_during_traffic(void)
{
	int made = mt_veth_make(&veth);

	if (made != KSFT_PASS) {
		mt_veth_unmake(&veth);
		return made;
	}
	flood_during("rdma link delete " W_DEV);
	CHECK(mt_sh("rdma link show " W_DEV " >/dev/null 2>&1") != 0);
	CHECK_EQ(mt_sh("rdma link add " W_DEV " type mlx5x netdev " W_NEAR),
		 0);
	flood_during("ip link del " W_NEAR);
	/* the netdev took the device with it */
	usleep(500 * 1000);
	CHECK(mt_sh("rdma link show " W_DEV " >/dev/null 2>&1") != 0);
	mt_veth_unmake(&veth);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(wire, trapped, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(wire, unmatched_to_kernel,
		  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(wire, dont_trap_both,
		  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(wire, transmit, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(wire, runts, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE(delete_during_traffic,
		.flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
