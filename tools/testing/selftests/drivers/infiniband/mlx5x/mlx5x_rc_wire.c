// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC and UC as RoCE v2 on the wire (issue 24 item 4, issue 22 item 3):
 * two simulated devices on the two ends of a veth pair, the far end in a
 * network namespace of its own; this one process opens both (the RDMA
 * subsystem's shared namespace mode) and connects a QP of each by the
 * ports' RoCE v2 link-local GIDs (the MAC is the GID's: no address
 * resolution), so every packet between them crosses the veth.
 *
 * As the IBTA specification (9.7, 9.9) and ibv_post_send(3),
 * ibv_modify_qp(3) and ibv_query_qp(3) describe it:
 *   - a SEND of 0, 1, 1024, 3000 and 65536 bytes at a path MTU of 1024
 *     arrives intact, and the requester's sq_psn (ibv_query_qp) advances
 *     by the packets it took, ceil(len / 1024) and at least 1;
 *   - RDMA WRITE and WRITE with immediate, RDMA READ of several response
 *     packets (one PSN each), FETCH_ADD and CMP_SWAP;
 *   - a bad rkey: IBV_WC_REM_ACCESS_ERR, both QPs in the error state;
 *   - no receive posted, rnr_retry 0 and 1: IBV_WC_RNR_RETRY_EXC_ERR;
 *   - the peer QP destroyed: IBV_WC_RETRY_EXC_ERR after retry_cnt;
 *   - an RDMA TX rule of the near device, or an RDMA RX rule of the far
 *     one, that drops the near QP's packets (mlx5dv_create_flow(3) on a
 *     matcher of MLX5DV_FLOW_TABLE_TYPE_RDMA_TX or _RX on the BTH's
 *     destination QP): each transmission counted and lost, then
 *     IBV_WC_RETRY_EXC_ERR; another QP pair's traffic goes through;
 *   - UC: a SEND of several packets arrives intact;
 *   - raw: with no device on the far end, a packet socket there sees a
 *     3000-byte SEND at path MTU 1024 as SEND FIRST, MIDDLE and LAST,
 *     consecutive PSNs from the QP's sq_psn, 1024, 1024 and 952 bytes of
 *     payload, AckReq on the LAST only; after
 *     mlx5dv_modify_qp_udp_sport(3), a packet from that UDP port.
 * On hardware (or MLX5X_NO_MODEL) every case skips; in a kernel without
 * network namespaces or veth (the debug kernel) too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <sys/socket.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_rdma_fs.h"
#include "mlx5x_rc_pair.h"

#define W_NEAR_DEV	"mlx5x_cn"
#define W_FAR_DEV	"mlx5x_cf"
#define W_NS		"mcfar"
#define ROCE_PORT	4791

static const struct mt_veth veth = {
	.dev = W_NEAR_DEV, .near = "mcn0", .far = "mcf0", .ns = W_NS,
	.near_ip = "192.168.79.1", .far_ip = "192.168.79.2",
	.near_mac = "02:79:00:00:00:01", .far_mac = "02:79:00:00:00:02",
	.no_dad = true,
};
static const struct mt_veth far_dev = { .dev = W_FAR_DEV };
static const struct rp_cfg pair = { .veth = &veth, .far_dev = W_FAR_DEV };
/* the far end's link-local address, from its MAC */
static const uint8_t far_ll[16] = { 0xfe, 0x80, [9] = 0x79, [10] = 0,
				    [11] = 0xff, [12] = 0xfe, [15] = 2 };

MT_FIXTURE(wire);

MT_FIXTURE_SETUP(wire)
{
	return wire_open(self, &pair, true);
}

MT_FIXTURE_TEARDOWN(wire)
{
	wire_close(self);
}

/* No device on the far end: a packet socket there stands for it. */
struct bare {
	struct wire w;
};

MT_FIXTURE(bare);

MT_FIXTURE_SETUP(bare)
{
	return wire_open(&self->w, &pair, false);
}

MT_FIXTURE_TEARDOWN(bare)
{
	wire_teardown(&self->w);
}

/*
 * SENDs of 0, 1, 1024, 3000 and 65536 bytes at path MTU 1024: each
 * arrives intact, and sq_psn advances by the packets it took.
 */
MT_TEST_F(wire, send_sizes)
{
	static const uint32_t len[] = { 0, 1, 1024, 3000, 65536 };
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND };
	struct ibv_wc wc;
	uint32_t psn, i;

	if (!connect_pair(self, &rc1024))
		return KSFT_FAIL;
	for (i = 0; i < MT_ARRAY_SIZE(len); i++) {
		fill(n->buf, len[i], i + 1);
		memset(f->buf + HALF, 0xee, len[i] + 16);
		psn = sq_psn(n->qp);
		if (!i)
			CHECK_EQ(psn, SQ_PSN);
		if (!CHECK_ERR(post_recv(f, 10 + i, HALF, HALF), 0))
			return KSFT_FAIL;
		wr.wr_id = i;
		if (!CHECK_EQ(post_wait(n, &wr, 0, len[i]), IBV_WC_SUCCESS))
			continue;
		if (CHECK(mt_poll_one(f->cq, &wc, WAIT)) &&
		    mt_wc_is(&wc, 10 + i, IBV_WC_SUCCESS, IBV_WC_RECV))
			CHECK_EQ(wc.byte_len, len[i]);
		CHECK(!memcmp(f->buf + HALF, n->buf, len[i]));
		CHECK_EQ(f->buf[HALF + len[i]], 0xee);
		CHECK_EQ(psn_delta(psn, sq_psn(n->qp)), packets(len[i], 1024));
	}
	return KSFT_PASS;
}

/*
 * RDMA WRITE of 5000 bytes (5 packets) lands at the rkey's address and
 * takes no receive; WRITE with immediate of 3000 takes one.
 */
MT_TEST_F(wire, rdma_write)
{
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = {
		.wr_id = 1, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)f->buf + 8192, f->mr->rkey },
	};
	struct ibv_wc wc;
	uint32_t psn;

	if (!connect_pair(self, &rc1024))
		return KSFT_FAIL;
	fill(n->buf, 8000, 3);
	psn = sq_psn(n->qp);
	CHECK_EQ(post_wait(n, &wr, 0, 5000), IBV_WC_SUCCESS);
	CHECK(!memcmp(f->buf + 8192, n->buf, 5000));
	CHECK_EQ(psn_delta(psn, sq_psn(n->qp)), 5);
	CHECK_EQ(ibv_poll_cq(f->cq, 1, &wc), 0);

	wr = (struct ibv_send_wr){
		.wr_id = 2, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm_data = htonl(0x1234abcd),
		.wr.rdma = { (uintptr_t)f->buf + 32768, f->mr->rkey },
	};
	if (!CHECK_ERR(post_recv(f, 7, HALF, 16), 0))
		return KSFT_FAIL;
	psn = sq_psn(n->qp);
	CHECK_EQ(post_wait(n, &wr, 100, 3000), IBV_WC_SUCCESS);
	if (CHECK(mt_poll_one(f->cq, &wc, WAIT)) &&
	    mt_wc_is(&wc, 7, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM)) {
		CHECK_EQ(wc.byte_len, 3000);
		CHECK(wc.wc_flags & IBV_WC_WITH_IMM);
		CHECK_EQ(ntohl(wc.imm_data), 0x1234abcd);
	}
	CHECK(!memcmp(f->buf + 32768, n->buf + 100, 3000));
	CHECK_EQ(psn_delta(psn, sq_psn(n->qp)), 3);
	return KSFT_PASS;
}

/* RDMA READ of 5000 bytes: 5 response packets, one PSN each. */
MT_TEST_F(wire, rdma_read)
{
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = {
		.wr_id = 3, .opcode = IBV_WR_RDMA_READ,
		.wr.rdma = { (uintptr_t)f->buf + 4096, f->mr->rkey },
	};
	uint32_t psn;

	if (!connect_pair(self, &rc1024))
		return KSFT_FAIL;
	fill(f->buf + 4096, 5000, 9);
	psn = sq_psn(n->qp);
	CHECK_EQ(post_wait(n, &wr, 0, 5000), IBV_WC_SUCCESS);
	CHECK(!memcmp(n->buf, f->buf + 4096, 5000));
	CHECK_EQ(psn_delta(psn, sq_psn(n->qp)), 5);
	return KSFT_PASS;
}

/* FETCH_ADD, then CMP_SWAP missing and hitting: the value before each. */
MT_TEST_F(wire, atomics)
{
	struct end *n = &self->e[0], *f = &self->e[1];
	uint64_t *target = (uint64_t *)(f->buf + 8192);
	uint64_t *result = (uint64_t *)n->buf;
	struct ibv_send_wr wr = {
		.wr_id = 4, .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.wr.atomic = { (uintptr_t)target, 5, 0, f->mr->rkey },
	};
	struct ibv_device_attr da;
	uint32_t psn;

	if (!CHECK_ERR(ibv_query_device(n->ctx, &da), 0))
		return KSFT_FAIL;
	if (da.atomic_cap == IBV_ATOMIC_NONE)
		return mt_skip("the device reports no atomics");
	if (!connect_pair(self, &rc1024))
		return KSFT_FAIL;
	*target = 1000;
	psn = sq_psn(n->qp);
	CHECK_EQ(post_wait(n, &wr, 0, 8), IBV_WC_SUCCESS);
	CHECK_EQ(*result, 1000);
	CHECK_EQ(*target, 1005);
	CHECK_EQ(psn_delta(psn, sq_psn(n->qp)), 1);

	wr = (struct ibv_send_wr){
		.wr_id = 5, .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
		.wr.atomic = { (uintptr_t)target, 7, 99, f->mr->rkey },
	};
	CHECK_EQ(post_wait(n, &wr, 0, 8), IBV_WC_SUCCESS);
	CHECK_EQ(*result, 1005);
	CHECK_EQ(*target, 1005);
	wr.wr.atomic.compare_add = 1005;
	CHECK_EQ(post_wait(n, &wr, 0, 8), IBV_WC_SUCCESS);
	CHECK_EQ(*result, 1005);
	CHECK_EQ(*target, 99);
	CHECK_EQ(psn_delta(psn, sq_psn(n->qp)), 3);
	return KSFT_PASS;
}

/*
 * An RDMA WRITE with an rkey the far end does not have: NAK remote
 * access error; the requester completes IBV_WC_REM_ACCESS_ERR and both
 * QPs are in the error state.
 */
MT_TEST_F(wire, remote_access_error)
{
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = {
		.wr_id = 6, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)f->buf, f->mr->rkey ^ 0x7fff00 },
	};

	if (!connect_pair(self, &rc1024))
		return KSFT_FAIL;
	CHECK_EQ(post_wait(n, &wr, 0, 64), IBV_WC_REM_ACCESS_ERR);
	state_becomes(n->qp, IBV_QPS_ERR);
	state_becomes(f->qp, IBV_QPS_ERR);
	return KSFT_PASS;
}

/* No receive on the far end: RNR NAKs, then IBV_WC_RNR_RETRY_EXC_ERR. */
static int rnr(struct wire *w, uint8_t retry)
{
	struct conn c = rc1024;
	struct ibv_send_wr wr = { .wr_id = 8, .opcode = IBV_WR_SEND };

	c.rnr_retry = retry;
	if (!connect_pair(w, &c))
		return KSFT_FAIL;
	CHECK_EQ(post_wait(&w->e[0], &wr, 0, 100), IBV_WC_RNR_RETRY_EXC_ERR);
	state_becomes(w->e[0].qp, IBV_QPS_ERR);
	/* the responder only said "not ready": it is still in RTS */
	CHECK_EQ(qp_state(w->e[1].qp), IBV_QPS_RTS);
	return KSFT_PASS;
}

MT_TEST_F(wire, rnr_retry_0)
{
	return rnr(self, 0);
}

MT_TEST_F(wire, rnr_retry_1)
{
	return rnr(self, 1);
}

/*
 * The far QP destroyed: no ACK comes back; after retry_cnt retries of
 * the transport timer, IBV_WC_RETRY_EXC_ERR.
 */
MT_TEST_F(wire, retry_exceeded)
{
	struct conn c = rc1024;
	struct ibv_send_wr wr = { .wr_id = 9, .opcode = IBV_WR_SEND };
	struct end *n = &self->e[0], *f = &self->e[1];

	c.retry_cnt = 2;
	c.timeout = 10;		/* 4.096 us << 10: about 4 ms */
	if (!connect_pair(self, &c))
		return KSFT_FAIL;
	CHECK_ERR(ibv_destroy_qp(f->qp), 0);
	f->qp = NULL;
	CHECK_EQ(post_wait(n, &wr, 0, 100), IBV_WC_RETRY_EXC_ERR);
	state_becomes(n->qp, IBV_QPS_ERR);
	return KSFT_PASS;
}

/*
 * The near QP's packets to the far QP dropped by an RDMA rule: of the
 * near device's RDMA TX (@rx false), or of the far device's RDMA RX, which
 * takes a DEVX table of its domain whose entry drops.  The rule counts the
 * first transmission and its retry_cnt retries; no ACK comes back, so the
 * send ends in IBV_WC_RETRY_EXC_ERR.  Rules are made from a DEVX context
 * of the device they are on: they apply to every QP of it.
 */
static int rdma_drop(struct wire *w, bool rx)
{
	struct end *n = &w->e[0];
	struct ibv_send_wr wr = { .wr_id = 11, .opcode = IBV_WR_SEND };
	struct mlx5dv_flow_matcher *m = NULL;
	struct mlx5dv_devx_obj *cnt = NULL;
	struct ibv_flow *fl = NULL;
	struct ibv_context *ctx;
	struct rdma_ft t = {};
	struct conn c = rc1024;
	uint32_t cnt_id = 0;

	c.retry_cnt = 2;
	c.timeout = 10;		/* 4.096 us << 10: about 4 ms */
	if (!connect_pair(w, &c))
		return KSFT_FAIL;
	ctx = mt_veth_open_devx(rx ? &far_dev : &veth);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	m = rdma_qp_matcher(ctx, rx ? RDMA_RX : RDMA_TX, 0);
	cnt = mt_flow_counter(ctx, &cnt_id);
	if (!CHECK(m) || !CHECK(cnt) ||
	    (rx && !rdma_ft_open(ctx, &t, PRM_FT_RDMA_RX, 20, 0)))
		goto out;
	{
		struct mlx5dv_flow_action_attr a[] = {
			{ .type = MLX5DV_FLOW_ACTION_COUNTERS_DEVX, .obj = cnt },
			rx ? (struct mlx5dv_flow_action_attr){
				.type = MLX5DV_FLOW_ACTION_DEST_DEVX,
				.obj = t.ft } :
			     (struct mlx5dv_flow_action_attr){
				.type = MLX5DV_FLOW_ACTION_DROP },
		};

		fl = rdma_qp_flow(m, w->e[1].qp->qp_num, a, 2);
	}
	if (!CHECK(fl))
		goto out;
	CHECK_EQ(post_wait(n, &wr, 0, 100), IBV_WC_RETRY_EXC_ERR);
	state_becomes(n->qp, IBV_QPS_ERR);
	CHECK_EQ(mt_flow_counted(cnt, cnt_id), 1 + c.retry_cnt);
out:
	if (fl)
		CHECK_ERR(ibv_destroy_flow(fl), 0);
	rdma_ft_close(&t);
	if (cnt)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cnt), 0);
	if (m)
		CHECK_ERR(mlx5dv_destroy_flow_matcher(m), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

MT_TEST_F(wire, rdma_tx_drop)
{
	return rdma_drop(self, false);
}

MT_TEST_F(wire, rdma_rx_drop)
{
	return rdma_drop(self, true);
}

/* UC: a 3000-byte SEND at path MTU 1024, three packets, intact. */
MT_TEST_F(wire, uc_send)
{
	static const struct conn uc = {
		.type = IBV_QPT_UC, .mtu = IBV_MTU_1024,
		.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
	};
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = { .wr_id = 11, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;
	uint32_t psn;

	if (!connect_pair(self, &uc))
		return KSFT_FAIL;
	fill(n->buf, 3000, 77);
	if (!CHECK_ERR(post_recv(f, 12, HALF, 4096), 0))
		return KSFT_FAIL;
	psn = sq_psn(n->qp);
	CHECK_EQ(post_wait(n, &wr, 0, 3000), IBV_WC_SUCCESS);
	if (CHECK(mt_poll_one(f->cq, &wc, WAIT)) &&
	    mt_wc_is(&wc, 12, IBV_WC_SUCCESS, IBV_WC_RECV))
		CHECK_EQ(wc.byte_len, 3000);
	CHECK(!memcmp(f->buf + HALF, n->buf, 3000));
	CHECK_EQ(psn_delta(psn, sq_psn(n->qp)), 3);
	return KSFT_PASS;
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/*
 * With no device on the far end, a 3000-byte SEND at path MTU 1024 to a
 * QP there: SEND FIRST, MIDDLE and LAST (opcodes 0, 1, 2) to the QP,
 * PSNs SQ_PSN, +1, +2 (wrapping at 24 bits), 1024, 1024 and 952 bytes of
 * payload, AckReq on the LAST only.
 */
MT_TEST_F(bare, raw_segments)
{
	static const uint8_t opcode[3] = { 0x00, 0x01, 0x02 };
	static const uint32_t plen[3] = { 1024, 1024, 952 };
	struct end *n = &self->w.e[0];
	struct ibv_send_wr wr = { .wr_id = 1, .opcode = IBV_WR_SEND };
	struct ibv_sge sge = { (uintptr_t)n->buf, 3000, n->mr->lkey };
	struct ibv_send_wr *bad;
	uint8_t f[4096];
	const uint8_t *bth;
	unsigned int i;
	ssize_t len;
	pid_t pid;
	int fd;

	n->qp = make_qp(n, IBV_QPT_RC);
	if (!n->qp || !connect_qp(n, &rc1024, 0x123, far_ll))
		return KSFT_FAIL;
	fill(n->buf, 3000, 5);
	pid = mt_veth_far_listen(&veth, ETH_P_ALL, 5, 3, mt_frame_is_roce, &fd);
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	CHECK_ERR(ibv_post_send(n->qp, &wr, &bad), 0);
	for (i = 0; i < 3; i++) {
		len = mt_veth_far_frame(fd, f, sizeof(f));
		if (!CHECK(len > 0))
			break;
		bth = f + 14 + 40 + 8;
		CHECK_EQ(get16(f + 12), ETH_P_IPV6);
		CHECK(!memcmp(f + 14 + 24, far_ll, 16));
		CHECK(!memcmp(f + 14 + 8, n->gid.gid.raw, 16));
		CHECK_EQ(bth[0], opcode[i]);
		CHECK_EQ(bth[1] & 0x30, 0);		/* no pad */
		CHECK_EQ(get32(bth + 4) & 0xffffff, 0x123);
		CHECK_EQ(!!(bth[8] & 0x80), i == 2);	/* AckReq */
		CHECK_EQ(get32(bth + 8) & 0xffffff,
			 (SQ_PSN + i) & 0xffffff);
		/* Ethernet, IPv6, UDP, BTH, payload, ICRC */
		CHECK_EQ(len, 14 + 40 + 8 + 12 + plen[i] + 4);
		CHECK(!memcmp(bth + 12, n->buf + 1024 * i, plen[i]));
	}
	close(fd);
	CHECK_EQ(mt_reap(pid), 0);
	return KSFT_PASS;
}

/*
 * mlx5dv_modify_qp_udp_sport(3) of an RC QP in RTS: its next packet on
 * the wire comes from that UDP port, to RoCE's 4791.
 */
MT_TEST_F(bare, udp_sport)
{
	struct end *n = &self->w.e[0];
	struct ibv_send_wr wr = { .wr_id = 1, .opcode = IBV_WR_SEND };
	struct ibv_sge sge = { (uintptr_t)n->buf, 100, n->mr->lkey };
	struct ibv_send_wr *bad;
	const uint8_t *udp;
	uint8_t f[4096];
	ssize_t len;
	pid_t pid;
	int fd;

	n->qp = make_qp(n, IBV_QPT_RC);
	if (!n->qp || !connect_qp(n, &rc1024, 0x123, far_ll) ||
	    !CHECK_ERR(mlx5dv_modify_qp_udp_sport(n->qp, 55555), 0))
		return KSFT_FAIL;
	pid = mt_veth_far_listen(&veth, ETH_P_ALL, 5, 1, mt_frame_is_roce, &fd);
	if (!CHECK(pid > 0))
		return KSFT_FAIL;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	CHECK_ERR(ibv_post_send(n->qp, &wr, &bad), 0);
	len = mt_veth_far_frame(fd, f, sizeof(f));
	if (CHECK(len > 14 + 40 + 8)) {
		udp = f + 14 + 40;
		CHECK_EQ(get16(udp), 55555);
		CHECK_EQ(get16(udp + 2), ROCE_PORT);
	}
	close(fd);
	CHECK_EQ(mt_reap(pid), 0);
	return KSFT_PASS;
}

#define WIRE_CASE(nm)	MT_CASE_F(wire, nm, \
				  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT)

static const struct mt_case cases[] = {
	WIRE_CASE(send_sizes),
	WIRE_CASE(rdma_write),
	WIRE_CASE(rdma_read),
	WIRE_CASE(atomics),
	WIRE_CASE(remote_access_error),
	WIRE_CASE(rnr_retry_0),
	WIRE_CASE(rnr_retry_1),
	WIRE_CASE(retry_exceeded),
	WIRE_CASE(rdma_tx_drop),
	WIRE_CASE(rdma_rx_drop),
	WIRE_CASE(uc_send),
	MT_CASE_F(bare, raw_segments, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(bare, udp_sport, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
