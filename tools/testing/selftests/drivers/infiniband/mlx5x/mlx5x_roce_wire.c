// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD as RoCE v2 on the wire (issue 24): a simulated device of its own on
 * the near end of a veth pair whose far end is in another network
 * namespace, where AF_PACKET sockets stand for a remote RoCE port.
 *
 * Transmit: a UD SEND (ibv_post_send(3)) through an AH (ibv_create_ah(3))
 * to a GID of the far end arrives there as one RoCE v2 frame (IBTA Annex
 * A17), checked byte for byte: Ethernet, IPv4 (to the IPv4-mapped GID,
 * the kernel resolving the MAC by ARP) or IPv6 (to the link-local GID),
 * with the AH's traffic class, hop limit and flow label, UDP to 4791
 * from a port of RoCE's range (0xC000..0xFFFF), BTH (UD SEND, with
 * immediate or not, the solicited bit, pad count, P_Key 0xffff, the
 * destination QP, the QP's PSN, advancing), DETH (Q_Key, source QP),
 * immediate, payload, pad and the ICRC, recomputed here.
 *
 * Receive: a frame built here, sent from the far namespace to the near
 * end's IPv4 GID, reaches the UD QP its BTH names (a receive CQE with
 * the GRH flag, the source QP, the immediate data; the IPv4 header in
 * bytes 20..39 of the buffer, then the payload).  Frames of every
 * malformed shape (bad ICRC, cut short, lengths that disagree, a bad
 * IPv4 checksum, a BTH version other than 0, no room for the DETH) are
 * counted in fw/datapath's roce line and in the port's PortRcvErrors
 * (sysfs ports/1/counters) and dropped; a wrong QP or Q_Key
 * is dropped as a ConnectX drops it; an RC packet is counted as not
 * supported yet.  None completes anything; the QP still receives after
 * them.
 *
 * Multicast: once the QP is attached to a group (ibv_attach_mcast(3)), a
 * UD SEND from the far end to the group's address and the multicast QP
 * lands in it; one to another group, to the group but another QP, or
 * after the detach does not.
 *
 * RDMA RX: a rule of the device's RDMA RX domain on the BTH's destination
 * QP (mlx5dv_create_flow(3), MLX5DV_FLOW_TABLE_TYPE_RDMA_RX) through a
 * DEVX table of the domain whose entry drops: a rule on another QP
 * leaves the QP's datagrams alone; one on the QP counts each of them and
 * drops it (fw/datapath's rdma_fs rx_drops), the QP receives nothing;
 * the rule gone, it receives again.  On hardware (or MLX5X_NO_MODEL) every case skips; in a kernel
 * without network namespaces or veth (the debug kernel) too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_rdma_fs.h"
#include "mlx5x_veth.h"
#include "mlx5x_icrc.h"

#define R_DEV		"mlx5x_r"
#define R_NEAR		"mrn0"
#define R_FAR		"mrf0"
#define R_NS		"mrfar"
#define NEAR_IP		"192.168.78.1"
#define FAR_IP		"192.168.78.2"
#define R_DEBUGFS	"/sys/kernel/debug/mlx5x/" R_DEV "/fw/datapath"
#define SLOT		2048
#define NRECV		16
#define QKEY		0x1234567
#define PSN0		0x10ffff
#define ROCE_PORT	4791
#define FRAMES		4
#define ETH_IP		0x0800
#define ETH_IP6		0x86dd

static const uint8_t near_mac[6] = { 2, 0x78, 0, 0, 0, 1 };
static const uint8_t far_mac[6] = { 2, 0x78, 0, 0, 0, 2 };

static const struct mt_veth veth = {
	.dev = R_DEV, .near = R_NEAR, .far = R_FAR, .ns = R_NS,
	.near_ip = NEAR_IP, .far_ip = FAR_IP,
	.near_mac = "02:78:00:00:00:01", .far_mac = "02:78:00:00:00:02",
	.no_dad = true,
};
/* the far end's link-local address, from its MAC */
static const uint8_t far_ll[16] = { 0xfe, 0x80, [9] = 0x78, [10] = 0,
				    [11] = 0xff, [12] = 0xfe, [15] = 2 };

static uint16_t ip_csum(const uint8_t *h, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i < n; i += 2)
		s += h[i] << 8 | h[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* one fw/datapath roce figure, or -1 */
static long long roce_figure(const char *name)
{
	return mt_dp_figure(R_DEBUGFS, "roce ", name);
}

struct rw {
	bool made;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	struct ibv_gid_entry g4, g6;
	uint8_t near_g4[16];
};

/* The port's RoCE v2 GID: IPv4-mapped or link-local; waits 3 s for it. */
static bool find_gid(struct ibv_context *ctx, bool v4,
		     struct ibv_gid_entry *e)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	unsigned int i, tries;

	for (tries = 0; tries < 30; tries++) {
		for (i = 0; i < 16; i++)
			if (!ibv_query_gid_ex(ctx, 1, i, e, 0) &&
			    e->gid_type == IBV_GID_TYPE_ROCE_V2 &&
			    (v4 ? !memcmp(e->gid.raw, mapped, 12) :
			     e->gid.raw[0] == 0xfe && e->gid.raw[1] == 0x80))
				return true;
		usleep(100 * 1000);
	}
	return false;
}

static bool post_recvs(struct rw *w)
{
	struct ibv_recv_wr wr = { .num_sge = 1 }, *bad;
	struct ibv_sge sge = { .length = SLOT, .lkey = w->mr->lkey };
	unsigned int i;

	wr.sg_list = &sge;
	for (i = 0; i < NRECV; i++) {
		wr.wr_id = i;
		sge.addr = (uintptr_t)w->buf + i * SLOT;
		if (ibv_post_recv(w->qp, &wr, &bad))
			return false;
	}
	return true;
}

MT_FIXTURE(rw);

MT_FIXTURE_SETUP(rw)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 16, .max_recv_wr = NRECV,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = QKEY,
	};
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
	ia.send_cq = self->cq;
	ia.recv_cq = self->cq;
	self->qp = ibv_create_qp(self->pd, &ia);
	if (!CHECK(self->mr) || !CHECK(self->qp))
		return KSFT_FAIL;
	if (!CHECK_ERR(ibv_modify_qp(self->qp, &a, IBV_QP_STATE |
				     IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     IBV_QP_QKEY), 0))
		return KSFT_FAIL;
	a.qp_state = IBV_QPS_RTR;
	if (!CHECK_ERR(ibv_modify_qp(self->qp, &a, IBV_QP_STATE), 0))
		return KSFT_FAIL;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = PSN0;
	if (!CHECK_ERR(ibv_modify_qp(self->qp, &a, IBV_QP_STATE |
				     IBV_QP_SQ_PSN), 0) ||
	    !CHECK(post_recvs(self)) ||
	    !CHECK(find_gid(self->ctx, true, &self->g4)) ||
	    !CHECK(find_gid(self->ctx, false, &self->g6)))
		return KSFT_FAIL;
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(rw)
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

/* One completion within @ms, or false. */
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

/* What a sent frame must carry. */
struct want {
	bool v4, imm, se;
	uint8_t tclass, hop;
	uint32_t flow, psn, len;
	const uint8_t *sgid, *dgid, *payload;
};

static void check_frame(struct rw *w, const uint8_t *f, ssize_t n,
			const struct want *x)
{
	size_t hl = x->v4 ? 20 : 40, ext = x->imm ? 12 : 8;
	uint32_t pad = -x->len & 3;
	size_t l4 = 8 + 12 + ext + x->len + pad + 4;
	const uint8_t *ip = f + 14, *udp = ip + hl, *bth = udp + 8;
	const uint8_t *deth = bth + 12;
	uint32_t i;

	if (!CHECK_EQ(n, 14 + hl + l4))
		return;
	CHECK(!memcmp(f, far_mac, 6));
	CHECK(!memcmp(f + 6, near_mac, 6));
	CHECK_EQ(get16(f + 12), x->v4 ? ETH_IP : ETH_IP6);
	if (x->v4) {
		CHECK_EQ(ip[0], 0x45);
		CHECK_EQ(ip[1], x->tclass);
		CHECK_EQ(get16(ip + 2), 20 + l4);
		CHECK_EQ(get16(ip + 4), 0);		/* identification */
		CHECK_EQ(get16(ip + 6), 0x4000);	/* DF */
		CHECK_EQ(ip[8], x->hop);
		CHECK_EQ(ip[9], 17);
		CHECK_EQ(ip_csum(ip, 20), 0);
		CHECK(!memcmp(ip + 12, x->sgid + 12, 4));
		CHECK(!memcmp(ip + 16, x->dgid + 12, 4));
	} else {
		CHECK_EQ(get32(ip), 6U << 28 | (uint32_t)x->tclass << 20 |
			 x->flow);
		CHECK_EQ(get16(ip + 4), l4);
		CHECK_EQ(ip[6], 17);
		CHECK_EQ(ip[7], x->hop);
		CHECK(!memcmp(ip + 8, x->sgid, 16));
		CHECK(!memcmp(ip + 24, x->dgid, 16));
	}
	CHECK(get16(udp) >= 0xc000);
	CHECK_EQ(get16(udp + 2), ROCE_PORT);
	CHECK_EQ(get16(udp + 4), l4);
	CHECK_EQ(get16(udp + 6), 0);
	CHECK_EQ(bth[0], x->imm ? 0x65 : 0x64);
	CHECK_EQ(bth[1], (x->se ? 0x80 : 0) | pad << 4);
	CHECK_EQ(get16(bth + 2), 0xffff);
	CHECK_EQ(get32(bth + 4), 0x77);		/* the AH's QP */
	CHECK_EQ(get32(bth + 8), x->psn);
	CHECK_EQ(get32(deth), QKEY);
	CHECK_EQ(get32(deth + 4), w->qp->qp_num);
	if (x->imm)
		CHECK_EQ(get32(deth + 8), 0xfeedf00d);
	CHECK(!memcmp(bth + 12 + ext, x->payload, x->len));
	for (i = 0; i < pad; i++)
		CHECK_EQ(bth[12 + ext + x->len + i], 0);
	CHECK_EQ(mt_icrc(ip, hl + l4 - 4, x->v4),
		 (uint32_t)f[n - 4] | f[n - 3] << 8 | f[n - 2] << 16 |
		 (uint32_t)f[n - 1] << 24);
}

/* Send @len bytes from the send slot through @ah; the send completes. */
static bool send_ud(struct rw *w, struct ibv_ah *ah, uint32_t len, bool imm,
		    bool se)
{
	struct ibv_sge sge = { .addr = (uintptr_t)w->buf + NRECV * SLOT,
			       .length = len, .lkey = w->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 100, .sg_list = &sge, .num_sge = 1,
		.opcode = imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED | (se ? IBV_SEND_SOLICITED : 0),
		.imm_data = htonl(0xfeedf00d),
	}, *bad;
	struct ibv_wc wc;

	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = 0x77;
	wr.wr.ud.remote_qkey = QKEY;
	if (!CHECK_ERR(ibv_post_send(w->qp, &wr, &bad), 0) ||
	    !CHECK(poll_wc(w->cq, &wc, 3000)))
		return false;
	CHECK_EQ(wc.wr_id, 100);
	return CHECK_EQ(wc.status, IBV_WC_SUCCESS);
}

/* (a) UD SENDs to the far end's GIDs: the frames there, byte for byte. */
MT_TEST_F(rw, transmit)
{
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	uint8_t *payload = self->buf + NRECV * SLOT, f[SLOT], far4[16] = {};
	struct want x = { .payload = payload };
	struct ibv_ah *ah4, *ah6;
	unsigned int i;
	int fd;
	pid_t pid;
	ssize_t n;

	for (i = 0; i < SLOT; i++)
		payload[i] = i * 7 + 1;
	far4[10] = far4[11] = 0xff;
	inet_pton(AF_INET, FAR_IP, far4 + 12);
	memcpy(aa.grh.dgid.raw, far4, 16);
	aa.grh.sgid_index = self->g4.gid_index;
	aa.grh.hop_limit = 33;
	aa.grh.traffic_class = 0x48;
	ah4 = ibv_create_ah(self->pd, &aa);
	memcpy(aa.grh.dgid.raw, far_ll, 16);
	aa.grh.sgid_index = self->g6.gid_index;
	aa.grh.flow_label = 0x12345;
	ah6 = ibv_create_ah(self->pd, &aa);
	if (!mt_check(ah4 && ah6, __FILE__, __LINE__, "ibv_create_ah: %s",
		      strerror(errno))) {
		if (ah4)
			ibv_destroy_ah(ah4);
		return KSFT_FAIL;
	}
	pid = mt_veth_far_listen(&veth, ETH_P_ALL, 3, FRAMES, mt_frame_is_roce,
				 &fd);
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	/* IPv4: with immediate, solicited; then 1 byte (3 of pad) */
	x.v4 = true;
	x.sgid = self->g4.gid.raw;
	x.dgid = far4;
	x.tclass = 0x48;
	x.hop = 33;
	CHECK(send_ud(self, ah4, 1000, true, true));
	CHECK(send_ud(self, ah4, 1, false, false));
	/* IPv6 link-local: 0 bytes, then 61 (3 of pad) with immediate */
	CHECK(send_ud(self, ah6, 0, false, false));
	CHECK(send_ud(self, ah6, 61, true, false));
	n = mt_veth_far_frame(fd, f, sizeof(f));
	x.imm = x.se = true;
	x.len = 1000;
	x.psn = PSN0;
	check_frame(self, f, n, &x);
	n = mt_veth_far_frame(fd, f, sizeof(f));
	x.imm = x.se = false;
	x.len = 1;
	x.psn = PSN0 + 1;
	check_frame(self, f, n, &x);
	x.v4 = false;
	x.sgid = self->g6.gid.raw;
	x.dgid = far_ll;
	x.flow = 0x12345;
	n = mt_veth_far_frame(fd, f, sizeof(f));
	x.len = 0;
	x.psn = PSN0 + 2;
	check_frame(self, f, n, &x);
	n = mt_veth_far_frame(fd, f, sizeof(f));
	x.imm = true;
	x.len = 61;
	x.psn = PSN0 + 3;
	check_frame(self, f, n, &x);
	close(fd);
	CHECK_EQ(mt_reap(pid), 0);
	CHECK_EQ(roce_figure("tx"), FRAMES);
	CHECK_ERR(ibv_destroy_ah(ah4), 0);
	CHECK_ERR(ibv_destroy_ah(ah6), 0);
	return KSFT_PASS;
}

/* A RoCE v2 UD frame from the far end to the QP, over IPv4. */
struct frame {
	uint8_t b[SLOT];
	size_t len;
};

/* Its ICRC, over what it holds after the Ethernet header. */
static void seal(struct frame *fr)
{
	mt_icrc_seal(fr->b, fr->len, true);
}

static void make_roce(struct frame *fr, struct rw *w, uint8_t opcode,
		      uint32_t dqpn, uint32_t qkey, const uint8_t *payload,
		      uint32_t len)
{
	bool imm = opcode == 0x65;
	size_t ext = opcode == 0x64 || imm ? 8 + 4 * imm : 0;
	uint32_t pad = -len & 3, l4 = 8 + 12 + ext + len + pad + 4;
	uint8_t *ip = fr->b + 14, *udp = ip + 20, *bth = udp + 8;

	memset(fr, 0, sizeof(*fr));
	memcpy(fr->b, near_mac, 6);
	memcpy(fr->b + 6, far_mac, 6);
	put16(fr->b + 12, ETH_IP);
	ip[0] = 0x45;
	ip[1] = 0x10;
	put16(ip + 2, 20 + l4);
	put16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = 17;
	inet_pton(AF_INET, FAR_IP, ip + 12);
	memcpy(ip + 16, w->g4.gid.raw + 12, 4);
	put16(ip + 10, ip_csum(ip, 20));
	put16(udp, 0xc0de);
	put16(udp + 2, ROCE_PORT);
	put16(udp + 4, l4);
	bth[0] = opcode;
	bth[1] = pad << 4;
	put16(bth + 2, 0xffff);
	put32(bth + 4, dqpn);
	put32(bth + 8, 42);
	if (ext) {
		put32(bth + 12, qkey);
		put32(bth + 16, 0x99);
		if (imm)
			put32(bth + 20, 0xabad1dea);
	}
	memcpy(bth + 12 + ext, payload, len);
	fr->len = 14 + 20 + l4;
	seal(fr);
}

static bool far_send(const struct frame *fr)
{
	pid_t pid = fork();
	int s;

	if (pid < 0)
		return false;
	if (!pid) {
		if (!mt_veth_enter_far(&veth))
			_exit(2);
		s = mt_packet_socket(R_FAR, 0, 3);
		if (s < 0)
			_exit(3);
		_exit(send(s, fr->b, fr->len, 0) == (ssize_t)fr->len ? 0 : 4);
	}
	return CHECK_EQ(mt_reap(pid), 0);
}

/* The good frame arrives: its CQE, its GRH and payload in the buffer. */
static void check_received(struct rw *w, const struct frame *fr,
			   uint32_t len)
{
	struct ibv_wc wc;
	uint8_t *b;

	if (!CHECK(poll_wc(w->cq, &wc, 3000)))
		return;
	CHECK_EQ(wc.status, IBV_WC_SUCCESS);
	CHECK_EQ(wc.opcode, IBV_WC_RECV);
	CHECK_EQ(wc.byte_len, 40 + len);
	CHECK(wc.wc_flags & IBV_WC_GRH);
	CHECK(wc.wc_flags & IBV_WC_WITH_IMM);
	CHECK_EQ(ntohl(wc.imm_data), 0xabad1dea);
	CHECK_EQ(wc.src_qp, 0x99);
	if (!CHECK(wc.wr_id < NRECV))
		return;
	b = w->buf + wc.wr_id * SLOT;
	CHECK(!memcmp(b + 20, fr->b + 14, 20));
	CHECK(!memcmp(b + 40, fr->b + 14 + 20 + 8 + 12 + 12, len));
}

/* The port's PortRcvErrors (sysfs, from a PMA MAD); -1 if unread. */
static long long rcv_errors(void)
{
	long long v = -1;
	FILE *f;

	f = fopen("/sys/class/infiniband/" R_DEV
		  "/ports/1/counters/port_rcv_errors", "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* A bad frame: @figure counts it, and nothing completes. */
static void check_refused(struct frame *fr, const char *figure)
{
	long long before = roce_figure(figure);
	long end;

	if (!CHECK(far_send(fr)))
		return;
	end = mt_now_ms() + 3000;
	while (roce_figure(figure) == before && mt_now_ms() < end)
		usleep(10 * 1000);
	CHECK_EQ(roce_figure(figure), before + 1);
}

/*
 * (b) Frames from the far end: a good one lands in the QP; each malformed
 * one is counted and dropped; the QP still receives after them.
 */
MT_TEST_F(rw, receive_and_malformed)
{
	uint8_t payload[200];
	struct frame good, fr;
	struct ibv_wc wc;
	uint32_t qpn = self->qp->qp_num;
	long long errors;
	unsigned int i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = 0xa0 ^ i;
	make_roce(&good, self, 0x65, qpn, QKEY, payload, sizeof(payload));
	CHECK(far_send(&good));
	check_received(self, &good, sizeof(payload));
	CHECK_EQ(roce_figure("rx_ud"), 1);
	errors = rcv_errors();
	CHECK(errors >= 0);

	/* a bad ICRC */
	fr = good;
	fr.b[fr.len - 1] ^= 0x40;
	check_refused(&fr, "bad_icrc");
	/* a payload byte changed in flight */
	fr = good;
	fr.b[fr.len - 10] ^= 1;
	check_refused(&fr, "bad_icrc");
	/* cut short: the IP length says more than the frame has */
	fr = good;
	fr.len -= 30;
	check_refused(&fr, "malformed");
	/* cut in the BTH */
	fr = good;
	fr.len = 14 + 20 + 8 + 6;
	check_refused(&fr, "malformed");
	/* the UDP length is not the IP one */
	fr = good;
	put16(fr.b + 14 + 20 + 4, get16(fr.b + 14 + 20 + 4) - 4);
	seal(&fr);
	check_refused(&fr, "malformed");
	/* a bad IPv4 header checksum */
	fr = good;
	fr.b[14 + 10] ^= 0x11;
	check_refused(&fr, "malformed");
	/* a BTH version other than 0 */
	fr = good;
	fr.b[14 + 20 + 8 + 1] |= 1;
	seal(&fr);
	check_refused(&fr, "malformed");
	/* UD SEND with immediate with no room for its DETH and immediate */
	make_roce(&fr, self, 0x04, qpn, 0, NULL, 0);
	fr.b[14 + 20 + 8] = 0x65;
	seal(&fr);
	check_refused(&fr, "malformed");
	/* each bad ICRC or malformed one counts in PortRcvErrors */
	CHECK_EQ(rcv_errors(), errors + 8);
	/* no such QP; the wrong Q_Key */
	make_roce(&fr, self, 0x65, qpn + 1000, QKEY, payload, 16);
	check_refused(&fr, "dropped");
	make_roce(&fr, self, 0x65, qpn, QKEY + 1, payload, 16);
	check_refused(&fr, "dropped");
	/* an RC SEND to the UD QP: no RC QP of that number takes it */
	make_roce(&fr, self, 0x04, qpn, 0, payload, 16);
	check_refused(&fr, "dropped");
	/* an RD SEND: a transport the port has not */
	make_roce(&fr, self, 0x44, qpn, 0, payload, 16);
	check_refused(&fr, "unsupported");

	/* those were well-formed: received, not in error */
	CHECK_EQ(rcv_errors(), errors + 8);
	/* nothing completed; the QP still receives */
	CHECK(!poll_wc(self->cq, &wc, 200));
	CHECK(far_send(&good));
	check_received(self, &good, sizeof(payload));
	CHECK_EQ(roce_figure("rx_ud"), 2);
	return KSFT_PASS;
}

/* @good, sent to IPv4 group 239.1.2.@g (its MAC) and QP @dqpn instead. */
static void to_group(struct frame *fr, const struct frame *good, uint8_t g,
		     uint32_t dqpn)
{
	uint8_t *ip = fr->b + 14;

	*fr = *good;
	memcpy(fr->b, (uint8_t []){ 1, 0, 0x5e, 1, 2, g }, 6);
	memcpy(ip + 16, (uint8_t []){ 239, 1, 2, g }, 4);
	put16(ip + 10, 0);
	put16(ip + 10, ip_csum(ip, 20));
	put32(ip + 20 + 8 + 4, dqpn);
	seal(fr);
}

/*
 * (c) Multicast from the far end: a UD SEND to a group the QP is
 * attached to, and to the multicast QP, lands in it; one to another
 * group, or once the QP is detached, does not; one to the group but to
 * another QP number is dropped.
 */
MT_TEST_F(rw, multicast_receive)
{
	union ibv_gid gid = { .raw = { [10] = 0xff, 0xff, 239, 1, 2, 7 } };
	uint8_t payload[100];
	struct frame good, fr;
	struct ibv_wc wc;
	long long rx;
	unsigned int i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = 0x3c ^ i;
	make_roce(&good, self, 0x65, self->qp->qp_num, QKEY, payload,
		  sizeof(payload));
	if (!CHECK_ERR(ibv_attach_mcast(self->qp, &gid, 0), 0))
		return KSFT_FAIL;
	to_group(&fr, &good, 7, 0xffffff);
	CHECK(far_send(&fr));
	check_received(self, &fr, sizeof(payload));
	rx = roce_figure("rx_ud");
	/* a group no QP of the device is in: not the RDMA engine's */
	to_group(&fr, &good, 8, 0xffffff);
	CHECK(far_send(&fr));
	CHECK(!poll_wc(self->cq, &wc, 300));
	/* the group, but a QP number of its own: dropped */
	to_group(&fr, &good, 7, self->qp->qp_num);
	check_refused(&fr, "dropped");
	CHECK_ERR(ibv_detach_mcast(self->qp, &gid, 0), 0);
	to_group(&fr, &good, 7, 0xffffff);
	CHECK(far_send(&fr));
	CHECK(!poll_wc(self->cq, &wc, 300));
	CHECK_EQ(roce_figure("rx_ud"), rx);
	return KSFT_PASS;
}

/* A DEVX RDMA RX rule on QP @qpn to @t, counting in @cnt; NULL on failure. */
static struct ibv_flow *rx_drop_rule(struct mlx5dv_flow_matcher *m,
				     uint32_t qpn, struct rdma_ft *t,
				     struct mlx5dv_devx_obj *cnt)
{
	struct mlx5dv_flow_action_attr a[] = {
		{ .type = MLX5DV_FLOW_ACTION_DEST_DEVX, .obj = t->ft },
		{ .type = MLX5DV_FLOW_ACTION_COUNTERS_DEVX, .obj = cnt },
	};

	return rdma_qp_flow(m, qpn, a, 2);
}

/* (d) RDMA RX drops the QP's datagrams, and only while its rule lives. */
MT_TEST_F(rw, rdma_rx_drop)
{
	struct mlx5dv_flow_matcher *m = NULL;
	struct mlx5dv_devx_obj *cnt = NULL;
	struct ibv_flow *other = NULL, *fl = NULL;
	struct ibv_context *ctx;
	struct rdma_ft t = {};
	uint32_t qpn = self->qp->qp_num, cnt_id = 0;
	uint8_t payload[64] = { 1, 2, 3 };
	long long drops = mt_dp_figure(R_DEBUGFS, "rdma_fs ", "rx_drops");
	struct frame good;
	struct ibv_wc wc;

	ctx = mt_veth_open_devx(&veth);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	m = rdma_qp_matcher(ctx, RDMA_RX, 0);
	cnt = mt_flow_counter(ctx, &cnt_id);
	if (!CHECK(m) || !CHECK(cnt) ||
	    !rdma_ft_open(ctx, &t, PRM_FT_RDMA_RX, 20, 0))
		goto out;
	make_roce(&good, self, 0x65, qpn, QKEY, payload, sizeof(payload));
	/* a rule on another QP: the datagram arrives, uncounted */
	other = rx_drop_rule(m, qpn + 1, &t, cnt);
	if (!CHECK(other) || !CHECK(far_send(&good)))
		goto out;
	check_received(self, &good, sizeof(payload));
	CHECK_EQ(mt_flow_counted(cnt, cnt_id), 0);
	/* a rule on this QP: counted, dropped, nothing completes */
	fl = rx_drop_rule(m, qpn, &t, cnt);
	if (!CHECK(fl) || !CHECK(far_send(&good)) || !CHECK(far_send(&good)))
		goto out;
	CHECK(!poll_wc(self->cq, &wc, 500));
	CHECK_EQ(mt_flow_counted(cnt, cnt_id), 2);
	CHECK_EQ(mt_dp_figure(R_DEBUGFS, "rdma_fs ", "rx_drops"), drops + 2);
	/* the rule gone: the QP receives again */
	CHECK_ERR(ibv_destroy_flow(fl), 0);
	fl = NULL;
	if (CHECK(far_send(&good)))
		check_received(self, &good, sizeof(payload));
	CHECK_EQ(mt_flow_counted(cnt, cnt_id), 2);
out:
	if (fl)
		CHECK_ERR(ibv_destroy_flow(fl), 0);
	if (other)
		CHECK_ERR(ibv_destroy_flow(other), 0);
	rdma_ft_close(&t);
	if (cnt)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cnt), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(rw, transmit, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(rw, receive_and_malformed,
		  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(rw, multicast_receive,
		  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(rw, rdma_rx_drop, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
