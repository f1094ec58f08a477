// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the port's counters say of the RoCE v2 frames the wire brings and
 * the device refuses (issue 24 item 6): a simulated device on the near
 * end of a veth pair, an RC QP of it connected to a QP across the wire,
 * and frames built here sent from the far namespace, as a remote port
 * would send them.  The counters are the ones mlx5_ib offers
 * (/sys/class/infiniband/DEV/ports/1/hw_counters, rdma statistic show
 * link DEV/1) and the PMA's (ports/1/counters):
 *   - a bad ICRC: rx_icrc_encapsulated (the port's, PPCNT's Ethernet
 *     extended group) and PortRcvErrors count it, no Q counter does;
 *     the same frame with its ICRC right is received;
 *   - a PSN past the one the responder expects (IBTA 9.7.5.1.2):
 *     out_of_sequence counts each such packet, the responder NAKs the
 *     first with a PSN sequence error naming the PSN it expects;
 *   - a PSN the responder already took (IBTA 9.7.5.1.3): a duplicate,
 *     duplicate_request counts it, it completes nothing again, and the
 *     responder ACKs it again;
 *   - a frame to a QP the device does not have: a well-formed packet the
 *     port received (PortRcvPkts), silently dropped (IBTA 9.6):
 *     in no Q counter, no error; with a bad ICRC, the ICRC counts first;
 *   - an RDMA WRITE too short for its RETH: a malformed packet,
 *     PortRcvErrors, in no Q counter;
 *   - a packet marked Congestion Experienced on the way (ECN 11b, RoCE
 *     v2 annex A17.9): np_ecn_marked_roce_packets counts it, the port
 *     answers the sender's QP with a CNP (np_cnp_sent) and takes the
 *     packet as any other; a datagram's CNP goes to its DETH source QP;
 *   - a CNP to the near QP: rp_cnp_ignored (the model has no rate
 *     limiter to act on it), nothing else moves and the QP goes on; to
 *     no QP, dropped; cut short, malformed.
 * On hardware (or MLX5X_NO_MODEL) every case skips; in a kernel without
 * network namespaces or veth (the debug kernel) too.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_rc_pair.h"
#include "mlx5x_icrc.h"

#define C_DEV		"mlx5x_wc"
#define FAR_QPN		0x321
#define ROCE_PORT	4791
#define PLEN		64
#define OP_SEND_ONLY	0x04
#define OP_WRITE_ONLY	0x0a
#define OP_ACK		0x11
#define OP_UD_SEND	0x64
#define OP_CNP		0x81
#define UD_QKEY		0x11223344
#define CNP_BYTES	16
#define ECN_CE		3
#define RDMA_STAT_HAS	"rdma statistic show link %s/1 | grep -qw 'rx_icrc_encapsulated %lld'"

static const struct mt_veth veth = {
	.dev = C_DEV, .near = "mwn0", .far = "mwf0", .ns = "mwfar",
	.near_ip = "192.168.77.1", .far_ip = "192.168.77.2",
	.near_mac = "02:77:00:00:00:01", .far_mac = "02:77:00:00:00:02",
	.no_dad = true,
};
static const struct rp_cfg cfg = { .veth = &veth, .far_dev = "mlx5x_wcf" };
static const uint8_t near_mac[6] = { 2, 0x77, 0, 0, 0, 1 };
static const uint8_t far_mac[6] = { 2, 0x77, 0, 0, 0, 2 };
/* the far end's link-local address, from its MAC */
static const uint8_t far_ll[16] = { 0xfe, 0x80, [9] = 0x77, [10] = 0,
				    [11] = 0xff, [12] = 0xfe, [15] = 2 };

struct frame {
	uint8_t b[256];
	size_t len;
};

struct wc {
	struct wire w;
};

MT_FIXTURE(wc);

/* The near QP, connected to FAR_QPN across the wire; it expects SQ_PSN. */
MT_FIXTURE_SETUP(wc)
{
	struct end *n = &self->w.e[0];
	int rc = wire_open(&self->w, &cfg, false);

	if (rc != KSFT_PASS)
		return rc;
	n->qp = make_qp(n, IBV_QPT_RC);
	if (!n->qp || !connect_qp(n, &rc1024, FAR_QPN, far_ll))
		return KSFT_FAIL;
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(wc)
{
	wire_close(&self->w);
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/*
 * A packet of @opcode from the far QP to QP @dqpn of @n, @psnw its BTH's
 * PSN word, @ext bytes of extended headers (zero) then @plen bytes of
 * payload, traffic class @tclass: IPv6 between the link-local GIDs, as
 * a RoCE v2 port sends it.
 */
static void make_pkt(struct frame *fr, const struct end *n, uint8_t opcode,
		     uint32_t dqpn, uint32_t psnw, size_t ext, size_t plen,
		     uint8_t tclass)
{
	uint32_t l4 = 8 + 12 + ext + plen + 4;
	uint8_t *ip = fr->b + 14, *udp = ip + 40, *bth = udp + 8;
	unsigned int i;

	memset(fr, 0, sizeof(*fr));
	memcpy(fr->b, near_mac, 6);
	memcpy(fr->b + 6, far_mac, 6);
	put16(fr->b + 12, ETH_P_IPV6);
	ip[0] = 0x60 | tclass >> 4;
	ip[1] = tclass << 4;
	put16(ip + 4, l4);
	ip[6] = 17;
	ip[7] = 64;
	memcpy(ip + 8, far_ll, 16);
	memcpy(ip + 24, n->gid.gid.raw, 16);
	put16(udp, 0xc123);
	put16(udp + 2, ROCE_PORT);
	put16(udp + 4, l4);
	bth[0] = opcode;
	put16(bth + 2, 0xffff);
	put32(bth + 4, dqpn);
	put32(bth + 8, psnw);
	for (i = 0; i < plen; i++)
		bth[12 + ext + i] = 0x5a ^ i;
	fr->len = 14 + 40 + l4;
	mt_icrc_seal(fr->b, fr->len, false);
}

/*
 * A request of @opcode from the far QP to QP @dqpn of @n at PSN @psn,
 * AckReq set, @ext bytes of extended headers then PLEN bytes of payload.
 */
static void make_req(struct frame *fr, const struct end *n, uint8_t opcode,
		     uint32_t dqpn, uint32_t psn, size_t ext)
{
	make_pkt(fr, n, opcode, dqpn, 0x80000000 | (psn & 0xffffff), ext,
		 PLEN, 0);
}

/* Nothing completes on @cq within 200 ms. */
static void no_completion(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	usleep(200 * 1000);
	CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 0);
}

/* A RoCE v2 frame the near end sent (the far socket sees its own too). */
static bool from_near(const uint8_t *f, size_t len)
{
	return mt_frame_is_roce(f, len) && !memcmp(f + 6, near_mac, 6);
}

/* A file of the port's, under ports/1/@dir, or -1. */
static long long port_file(const char *dir, const char *name)
{
	char path[256], val[64];

	/* ib_core keeps what it read for 10 ms: read afresh */
	usleep(20 * 1000);
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/%s/%s", C_DEV, dir, name);
	if (mt_read_file(path, val, sizeof(val)) < 0)
		return -1;
	return strtoll(val, NULL, 0);
}

enum {
	ICRC, OOS, DUP, OOB, NP_MARKED, NP_CNP, RP_IGNORED, RP_HANDLED,
	RCV_ERR, RCV_PKTS, NCNT
};

static const char *const cnt_dir[NCNT] = {
	"hw_counters", "hw_counters", "hw_counters", "hw_counters",
	"hw_counters", "hw_counters", "hw_counters", "hw_counters",
	"counters", "counters",
};
static const char *const cnt_name[NCNT] = {
	"rx_icrc_encapsulated", "out_of_sequence", "duplicate_request",
	"out_of_buffer", "np_ecn_marked_roce_packets", "np_cnp_sent",
	"rp_cnp_ignored", "rp_cnp_handled", "port_rcv_errors",
	"port_rcv_packets",
};

/* Every counter; one the port lacks is a failed check (and reads -1). */
static void snap(long long *v)
{
	unsigned int i;

	for (i = 0; i < NCNT; i++) {
		v[i] = port_file(cnt_dir[i], cnt_name[i]);
		if (!CHECK(v[i] >= 0))
			fprintf(stderr, "# no %s/%s\n", cnt_dir[i], cnt_name[i]);
	}
}

/*
 * @fr sent from the far end; then every counter moved by @want (waiting
 * up to 3 s for the first one that should move).
 */
static void send_expect(const struct frame *fr, const long long *want)
{
	long long before[NCNT], after[NCNT];
	unsigned int i, first = NCNT;
	long end;

	snap(before);
	for (i = 0; i < NCNT && first == NCNT; i++)
		if (want[i])
			first = i;
	if (!CHECK_EQ(mt_veth_far_send(&veth, fr->b, fr->len, 0, 1), 0))
		return;
	end = mt_now_ms() + 3000;
	while (first < NCNT && mt_now_ms() < end &&
	       port_file(cnt_dir[first], cnt_name[first]) == before[first])
		usleep(10 * 1000);
	if (first == NCNT)
		usleep(300 * 1000);
	snap(after);
	for (i = 0; i < NCNT; i++)
		if (!CHECK_EQ(after[i] - before[i], want[i]))
			fprintf(stderr, "# %s\n", cnt_name[i]);
}

/* A bad ICRC: the port's rx_icrc_encapsulated; made right, received. */
MT_TEST_F(wc, bad_icrc)
{
	static const long long bad[NCNT] = { [ICRC] = 1, [RCV_ERR] = 1 };
	static const long long good[NCNT] = { [RCV_PKTS] = 1 };
	struct end *n = &self->w.e[0];
	struct frame fr;
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(n, 7, 0, 4096), 0))
		return KSFT_FAIL;
	make_req(&fr, n, OP_SEND_ONLY, n->qp->qp_num, SQ_PSN, 0);
	fr.b[fr.len - 2] ^= 0x10;
	send_expect(&fr, bad);
	no_completion(n->cq);
	fr.b[fr.len - 2] ^= 0x10;
	send_expect(&fr, good);
	if (CHECK(mt_poll_one(n->cq, &wc, WAIT)) &&
	    mt_wc_is(&wc, 7, IBV_WC_SUCCESS, IBV_WC_RECV))
		CHECK_EQ(wc.byte_len, PLEN);
	return KSFT_PASS;
}

/* rdma statistic shows the port's rx_icrc_encapsulated as sysfs does. */
MT_TEST_F(wc, rdma_statistic)
{
	static const long long bad[NCNT] = { [ICRC] = 1, [RCV_ERR] = 1 };
	struct end *n = &self->w.e[0];
	struct frame fr;
	long long v;

	if (access("/usr/bin/rdma", X_OK) && access("/sbin/rdma", X_OK))
		return mt_skip("no rdma tool");
	make_req(&fr, n, OP_SEND_ONLY, n->qp->qp_num, SQ_PSN, 0);
	fr.b[fr.len - 1] ^= 1;
	send_expect(&fr, bad);
	v = port_file("hw_counters", "rx_icrc_encapsulated");
	CHECK(v > 0);
	CHECK_EQ(mt_sh(RDMA_STAT_HAS, C_DEV, v), 0);
	return KSFT_PASS;
}

/*
 * @fr sent as send_expect() does, and the near QP's answer to it on the
 * far end: an ACKNOWLEDGE to FAR_QPN at @psn.  Returns its AETH
 * syndrome, or -1 when none came.
 */
static int answered(const struct frame *fr, const long long *want,
		    uint32_t psn)
{
	uint8_t f[512];
	const uint8_t *bth = f + 14 + 40 + 8;
	int syndrome = -1;
	ssize_t len;
	pid_t pid;
	int fd;

	pid = mt_veth_far_listen(&veth, ETH_P_ALL, 5, 1, from_near, &fd);
	if (!CHECK(pid > 0))
		return -1;
	send_expect(fr, want);
	len = mt_veth_far_frame(fd, f, sizeof(f));
	/* Ethernet, IPv6, UDP, BTH, AETH, ICRC */
	if (CHECK(len >= 14 + 40 + 8 + 12 + 4 + 4)) {
		CHECK_EQ(bth[0], OP_ACK);
		CHECK_EQ(get32(bth + 4) & 0xffffff, FAR_QPN);
		CHECK_EQ(get32(bth + 8) & 0xffffff, psn);
		syndrome = bth[12];
	}
	close(fd);
	CHECK_EQ(mt_reap(pid), 0);
	return syndrome;
}

/*
 * PSNs past the expected one: each counted in out_of_sequence; the
 * first NAKed (PSN sequence error, AETH syndrome 0x60, at the PSN the
 * responder expects).  Then the expected one is received.
 */
MT_TEST_F(wc, psn_ahead)
{
	static const long long oos[NCNT] = { [OOS] = 1, [RCV_PKTS] = 1 };
	static const long long good[NCNT] = { [RCV_PKTS] = 1 };
	struct end *n = &self->w.e[0];
	struct frame fr;
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(n, 8, 0, 4096), 0))
		return KSFT_FAIL;
	make_req(&fr, n, OP_SEND_ONLY, n->qp->qp_num, SQ_PSN + 3, 0);
	CHECK_EQ(answered(&fr, oos, SQ_PSN), 0x60);
	make_req(&fr, n, OP_SEND_ONLY, n->qp->qp_num, SQ_PSN + 5, 0);
	send_expect(&fr, oos);
	no_completion(n->cq);
	make_req(&fr, n, OP_SEND_ONLY, n->qp->qp_num, SQ_PSN, 0);
	send_expect(&fr, good);
	if (CHECK(mt_poll_one(n->cq, &wc, WAIT)))
		CHECK(mt_wc_is(&wc, 8, IBV_WC_SUCCESS, IBV_WC_RECV));
	return KSFT_PASS;
}

/*
 * A SEND received, then sent again at its PSN: duplicate_request, no
 * second completion, and an ACK again (its AckReq) at that PSN.
 */
MT_TEST_F(wc, duplicate)
{
	static const long long dup[NCNT] = { [DUP] = 1, [RCV_PKTS] = 1 };
	static const long long good[NCNT] = { [RCV_PKTS] = 1 };
	struct end *n = &self->w.e[0];
	struct frame fr;
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(n, 9, 0, 4096), 0) ||
	    !CHECK_ERR(post_recv(n, 10, 4096, 4096), 0))
		return KSFT_FAIL;
	make_req(&fr, n, OP_SEND_ONLY, n->qp->qp_num, SQ_PSN, 0);
	send_expect(&fr, good);
	if (CHECK(mt_poll_one(n->cq, &wc, WAIT)))
		CHECK(mt_wc_is(&wc, 9, IBV_WC_SUCCESS, IBV_WC_RECV));
	/* an ACK: AETH syndrome 0 (credits in its low bits) */
	CHECK_EQ(answered(&fr, dup, SQ_PSN) & 0xe0, 0);
	no_completion(n->cq);
	return KSFT_PASS;
}

/*
 * To a QP the device does not have: received, dropped, no error, no Q
 * counter; with a bad ICRC, the ICRC is what counts.
 */
MT_TEST_F(wc, no_such_qp)
{
	static const long long rcv[NCNT] = { [RCV_PKTS] = 1 };
	static const long long bad[NCNT] = { [ICRC] = 1, [RCV_ERR] = 1 };
	struct end *n = &self->w.e[0];
	struct frame fr;

	if (!CHECK_ERR(post_recv(n, 11, 0, 4096), 0))
		return KSFT_FAIL;
	make_req(&fr, n, OP_SEND_ONLY, 0xfffff0, SQ_PSN, 0);
	send_expect(&fr, rcv);
	fr.b[fr.len - 3] ^= 4;
	send_expect(&fr, bad);
	no_completion(n->cq);
	return KSFT_PASS;
}

/* An RDMA WRITE cut in its RETH: malformed, an error, no Q counter. */
MT_TEST_F(wc, short_reth)
{
	static const long long bad[NCNT] = { [RCV_ERR] = 1 };
	struct end *n = &self->w.e[0];
	struct frame fr;
	uint8_t *l4;

	make_req(&fr, n, OP_WRITE_ONLY, n->qp->qp_num, SQ_PSN, 0);
	/* 12 bytes after the BTH: less than a RETH's 16 */
	fr.len = 14 + 40 + 8 + 12 + 12 + 4;
	l4 = fr.b + 14 + 40;
	put16(fr.b + 14 + 4, fr.len - 14 - 40);
	put16(l4 + 4, fr.len - 14 - 40);
	mt_icrc_seal(fr.b, fr.len, false);
	send_expect(&fr, bad);
	return KSFT_PASS;
}

/* A CNP the near end sent, for the far end's QP: its 94 bytes checked. */
static bool is_cnp(const uint8_t *f, size_t len, const struct end *n)
{
	const uint8_t *ip = f + 14, *bth = ip + 40 + 8;
	unsigned int i;

	if (!CHECK_EQ(len, 14 + 40 + 8 + 12 + CNP_BYTES + 4))
		return false;
	CHECK(!memcmp(f, far_mac, 6));
	/* DSCP 48, no ECN of its own; back along the packet's GIDs */
	CHECK_EQ((get32(ip) >> 20) & 0xff, 48 << 2);
	CHECK(!memcmp(ip + 8, n->gid.gid.raw, 16));
	CHECK(!memcmp(ip + 24, far_ll, 16));
	CHECK_EQ(bth[1], 0);
	CHECK_EQ(get32(bth) & 0xffff, 0xffff);
	/* the BECN bit, the far QP, PSN 0 and no AckReq */
	CHECK_EQ(get32(bth + 4), 0x40000000 | FAR_QPN);
	CHECK_EQ(get32(bth + 8), 0);
	for (i = 0; i < CNP_BYTES; i++)
		CHECK_EQ(bth[12 + i], 0);
	CHECK_EQ(mt_icrc(ip, len - 14 - 4, false),
		 (uint32_t)f[len - 4] | f[len - 3] << 8 | f[len - 2] << 16 |
		 (uint32_t)f[len - 1] << 24);
	return true;
}

/*
 * @fr, a packet marked Congestion Experienced, sent as send_expect()
 * does: counted as marked and as a CNP sent; what the near end sends
 * back reaches the far end: one CNP (is_cnp()) and @acks ACKs, in any
 * order.
 */
static void marked_answered(const struct frame *fr, const struct end *n,
			    unsigned int acks)
{
	static const long long ce[NCNT] = { [NP_MARKED] = 1, [NP_CNP] = 1,
					    [RCV_PKTS] = 1 };
	unsigned int cnps = 0, got = 0, i;
	uint8_t f[512];
	ssize_t len;
	pid_t pid;
	int fd;

	pid = mt_veth_far_listen(&veth, ETH_P_ALL, 5, acks + 1, from_near,
				 &fd);
	if (!CHECK(pid > 0))
		return;
	send_expect(fr, ce);
	for (i = 0; i < acks + 1; i++) {
		len = mt_veth_far_frame(fd, f, sizeof(f));
		if (!CHECK(len > 14 + 40 + 8 + 12))
			break;
		if (f[14 + 40 + 8] == OP_CNP)
			cnps += is_cnp(f, len, n);
		else
			got += f[14 + 40 + 8] == OP_ACK;
	}
	close(fd);
	CHECK_EQ(mt_reap(pid), 0);
	CHECK_EQ(cnps, 1);
	CHECK_EQ(got, acks);
}

/*
 * A SEND marked Congestion Experienced: counted as marked, answered by
 * a CNP to the far QP (besides the ACK) and received as any other.
 */
MT_TEST_F(wc, ecn_marked)
{
	struct end *n = &self->w.e[0];
	struct frame fr;
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(n, 12, 0, 4096), 0))
		return KSFT_FAIL;
	make_pkt(&fr, n, OP_SEND_ONLY, n->qp->qp_num, 0x80000000 | SQ_PSN, 0,
		 PLEN, ECN_CE);
	marked_answered(&fr, n, 1);
	if (CHECK(mt_poll_one(n->cq, &wc, WAIT)) &&
	    mt_wc_is(&wc, 12, IBV_WC_SUCCESS, IBV_WC_RECV))
		CHECK_EQ(wc.byte_len, PLEN);
	return KSFT_PASS;
}

/*
 * The same for a datagram: the CNP goes to the DETH's source QP.  (The
 * near end's RC QP is set aside for the case: received on the UD QP.)
 */
MT_TEST_F(wc, ecn_marked_ud)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qkey = UD_QKEY };
	struct end *n = &self->w.e[0];
	struct ibv_qp *rc = n->qp;
	struct frame fr;
	struct ibv_wc wc;

	n->qp = make_qp(n, IBV_QPT_UD);
	if (!n->qp ||
	    !CHECK_ERR(ibv_modify_qp(n->qp, &a, IBV_QP_STATE |
				     IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     IBV_QP_QKEY), 0))
		goto out;
	a.qp_state = IBV_QPS_RTR;
	if (!CHECK_ERR(ibv_modify_qp(n->qp, &a, IBV_QP_STATE), 0))
		goto out;
	a.qp_state = IBV_QPS_RTS;
	if (!CHECK_ERR(ibv_modify_qp(n->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN),
		       0) ||
	    !CHECK_ERR(post_recv(n, 14, 0, 4096), 0))
		goto out;
	/* DETH: the Q_Key, then the source QP */
	make_pkt(&fr, n, OP_UD_SEND, n->qp->qp_num, 0, 8, PLEN, ECN_CE);
	put32(fr.b + 14 + 40 + 8 + 12, UD_QKEY);
	put32(fr.b + 14 + 40 + 8 + 12 + 4, FAR_QPN);
	mt_icrc_seal(fr.b, fr.len, false);
	/* a datagram is not acknowledged: the CNP alone comes back */
	marked_answered(&fr, n, 0);
	/* a UD receive: the 40 bytes of a GRH, then the payload */
	if (CHECK(mt_poll_one(n->cq, &wc, WAIT)) &&
	    mt_wc_is(&wc, 14, IBV_WC_SUCCESS, IBV_WC_RECV)) {
		CHECK_EQ(wc.byte_len, 40 + PLEN);
		CHECK_EQ(wc.src_qp, FAR_QPN);
	}
out:
	if (n->qp)
		CHECK_ERR(ibv_destroy_qp(n->qp), 0);
	n->qp = rc;
	return KSFT_PASS;
}

/*
 * CNPs from the far end: to the near QP, ignored (counted, nothing else
 * moves, and the QP receives on); to no QP, dropped; cut short,
 * malformed.
 */
MT_TEST_F(wc, cnp_received)
{
	static const long long ign[NCNT] = { [RP_IGNORED] = 1,
					     [RCV_PKTS] = 1 };
	static const long long rcv[NCNT] = { [RCV_PKTS] = 1 };
	static const long long bad[NCNT] = { [RCV_ERR] = 1 };
	struct end *n = &self->w.e[0];
	struct frame fr;
	struct ibv_wc wc;

	if (!CHECK_ERR(post_recv(n, 13, 0, 4096), 0))
		return KSFT_FAIL;
	make_pkt(&fr, n, OP_CNP, 0x40000000 | n->qp->qp_num, 0, 0, CNP_BYTES,
		 0);
	send_expect(&fr, ign);
	no_completion(n->cq);
	make_pkt(&fr, n, OP_CNP, 0x40000000 | 0xfffff0, 0, 0, CNP_BYTES, 0);
	send_expect(&fr, rcv);
	make_pkt(&fr, n, OP_CNP, 0x40000000 | n->qp->qp_num, 0, 0, 8, 0);
	send_expect(&fr, bad);
	make_req(&fr, n, OP_SEND_ONLY, n->qp->qp_num, SQ_PSN, 0);
	send_expect(&fr, rcv);
	if (CHECK(mt_poll_one(n->cq, &wc, WAIT)))
		CHECK(mt_wc_is(&wc, 13, IBV_WC_SUCCESS, IBV_WC_RECV));
	return KSFT_PASS;
}

#define WC_CASE(nm)	MT_CASE_F(wc, nm, \
				  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT)

static const struct mt_case cases[] = {
	WC_CASE(bad_icrc),
	WC_CASE(rdma_statistic),
	WC_CASE(psn_ahead),
	WC_CASE(duplicate),
	WC_CASE(no_such_qp),
	WC_CASE(short_reth),
	WC_CASE(ecn_marked),
	WC_CASE(ecn_marked_ud),
	WC_CASE(cnp_received),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
