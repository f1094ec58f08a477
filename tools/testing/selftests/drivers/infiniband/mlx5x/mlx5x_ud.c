// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD QPs and address handles, as ibv_create_ah(3), ibv_post_send(3) (its
 * UD section), ibv_poll_cq(3) and the IBTA say, between two UD QPs of the
 * device on one context (a ConnectX carries them on its internal
 * loopback): datagrams with and without immediate data, into an RQ or an
 * SRQ; the 40 bytes of GRH in front of every received one (RoCE v2 over
 * IPv4: the IPv4 header in its last 20; over IPv6: the IPv6 header; RoCE
 * v1: the IB GRH), from every GID of the port; the source QP and GRH bit
 * in the work completion; what a receiver drops silently (a wrong Q_Key,
 * no receive posted, no such QP, a QP that is not UD); a datagram over the path MTU, a bad
 * lkey and a receive too small completing in error; zero-length
 * datagrams; address handles that leave nothing behind, and are made on
 * a PD of the caller's own context only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/ip.h>
#include "mlx5x_rc.h"

#define QKEY		0x11111111U
#define GRH_BYTES	40
#define RECV_OFF	32768
/* RoCE v2's headers after IPv4's, and its ICRC: UDP, BTH, DETH, ICRC */
#define ROCE_V2_EXTRA	(8 + 12 + 8 + 4)
#define ROCE_NEXT_BTH	0x1b

/*
 * Two UD QPs, A and B, each with its CQ, and one buffer: a pair's, whose
 * open and teardown are the RC tests'; an AH to B.
 */
struct ud {
	struct pair p;
	struct ibv_ah *ah;
	struct ibv_gid_entry gid;
	uint32_t mtu;
};

static bool gid_v4(const struct ibv_gid_entry *e)
{
	static const uint8_t v4_prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(e->gid.raw, v4_prefix, sizeof(v4_prefix));
}

/* The port's first GID of @type, IPv4-mapped or not as @v4 says. */
static bool ud_find_gid(struct ibv_context *ctx, uint32_t type, bool v4,
		     struct ibv_gid_entry *e)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (!ibv_query_gid_ex(ctx, 1, i, e, 0) &&
		    e->gid_type == type && gid_v4(e) == v4)
			return true;
	return false;
}

/* An AH from the port's GID @e to the same address. */
static struct ibv_ah *ud_ah(struct ud *u, const struct ibv_gid_entry *e)
{
	struct ibv_ah_attr a = {
		.is_global = 1, .port_num = 1,
		.grh = {
			.dgid = e->gid, .sgid_index = e->gid_index,
			.hop_limit = 64, .traffic_class = 0x20,
		},
	};

	return ibv_create_ah(u->p.pd, &a);
}

MT_FIXTURE(ud);

MT_FIXTURE_SETUP(ud)
{
	struct ibv_port_attr pa;
	int rc = pair_mem_open(&self->p, BUF_BYTES);
	unsigned int i;

	if (rc != KSFT_PASS)
		return rc;
	/* RoCE v2, over IPv4 where the netdev has an address */
	if (!ud_find_gid(self->p.c.ctx, IBV_GID_TYPE_ROCE_V2, true,
			 &self->gid) &&
	    !ud_find_gid(self->p.c.ctx, IBV_GID_TYPE_ROCE_V2, false,
			 &self->gid))
		return mt_skip("no RoCE v2 GID on port 1");
	if (!CHECK_ERR(ibv_query_port(self->p.c.ctx, 1, &pa), 0))
		return KSFT_FAIL;
	self->mtu = 128U << pa.active_mtu;
	for (i = 0; i < 2; i++) {
		self->p.cq[i] = ibv_create_cq(self->p.c.ctx, 32, NULL, NULL, 0);
		if (!CHECK(self->p.cq[i]))
			return KSFT_FAIL;
		self->p.qp[i] = rts_ud_qp(self->p.pd, self->p.cq[i], QKEY, NULL);
		if (!self->p.qp[i] || mt_case_failures())
			return KSFT_FAIL;
	}
	self->ah = ud_ah(self, &self->gid);
	return CHECK(self->ah) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(ud)
{
	if (self->ah)
		CHECK_ERR(ibv_destroy_ah(self->ah), 0);
	pair_teardown(&self->p);
}

/* Nothing completes on @cq within a tenth of a second. */
static bool poll_none(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	usleep(100 * 1000);
	return CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 0);
}

/* B's receive of @len bytes at RECV_OFF. */
static int ud_post_recv(struct ud *u, uint64_t id, uint32_t len)
{
	return post_recv(&u->p, id, RECV_OFF, len);
}

/* A's signalled datagram of @len bytes from offset 0, to @qpn with @qkey. */
static int ud_post_send(struct ud *u, struct ibv_send_wr *wr, uint32_t len,
		     uint32_t qpn, uint32_t qkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)u->p.buf, .length = len,
		.lkey = u->p.mr->lkey,
	};
	struct ibv_send_wr *bad;

	if (!wr->opcode)
		wr->opcode = IBV_WR_SEND;
	wr->sg_list = &sge;
	wr->num_sge = 1;
	wr->send_flags |= IBV_SEND_SIGNALED;
	if (!wr->wr.ud.ah)
		wr->wr.ud.ah = u->ah;
	wr->wr.ud.remote_qpn = qpn;
	wr->wr.ud.remote_qkey = qkey;
	return ibv_post_send(u->p.qp[0], wr, &bad);
}

/*
 * A sends @len bytes, B receives them behind the GRH: both complete, the
 * receive with the byte count, source QP and flags ibv_poll_cq(3) gives.
 */
static bool exchange(struct ud *u, struct ibv_send_wr *wr, uint32_t len,
		     struct ibv_wc *rwc)
{
	struct ibv_wc wc;
	bool ok;

	fill(u->p.buf, len, len);
	memset(u->p.buf + RECV_OFF, 0xee, GRH_BYTES + len + 64);
	if (!CHECK_ERR(ud_post_recv(u, 2, GRH_BYTES + len + 64), 0) ||
	    !CHECK_ERR(ud_post_send(u, wr, len, u->p.qp[1]->qp_num, QKEY), 0))
		return false;
	if (!mt_poll_one(u->p.cq[0], &wc, WAIT_MS) ||
	    !mt_wc_is(&wc, wr->wr_id, IBV_WC_SUCCESS, IBV_WC_SEND))
		return false;
	if (!mt_poll_one(u->p.cq[1], rwc, WAIT_MS) ||
	    !mt_wc_is(rwc, 2, IBV_WC_SUCCESS, IBV_WC_RECV))
		return false;
	ok = CHECK_EQ(rwc->byte_len, GRH_BYTES + len) &
	     CHECK_EQ(rwc->src_qp, u->p.qp[0]->qp_num) &
	     CHECK_EQ(rwc->qp_num, u->p.qp[1]->qp_num) &
	     CHECK(rwc->wc_flags & IBV_WC_GRH) &
	     CHECK(!memcmp(u->p.buf + RECV_OFF + GRH_BYTES, u->p.buf, len)) &
	     CHECK_EQ(u->p.buf[RECV_OFF + GRH_BYTES + len], 0xee);
	return ok;
}

/*
 * The GRH of a datagram of @len bytes from and to @e, hop limit 64,
 * traffic class 0x20: for RoCE v2 over IPv4 the IPv4 header in bytes
 * 20..39, its checksum valid; otherwise an IPv6 header (RoCE v2: UDP
 * next; RoCE v1: the IB GRH, a BTH next).
 */
static void check_grh(const uint8_t *g, const struct ibv_gid_entry *e,
		      uint32_t len)
{
	bool v2 = e->gid_type == IBV_GID_TYPE_ROCE_V2;
	struct iphdr ip;
	uint32_t vtf;

	if (v2 && gid_v4(e)) {
		memcpy(&ip, g + 20, sizeof(ip));
		CHECK_EQ(ip.version, 4);
		CHECK_EQ(ip.ihl, 5);
		CHECK_EQ(ip.tos, 0x20);
		CHECK_EQ(ip.protocol, IPPROTO_UDP);
		CHECK_EQ(ip.ttl, 64);
		CHECK_EQ(ntohs(ip.tot_len), 20 + ROCE_V2_EXTRA + len);
		CHECK(!memcmp(&ip.saddr, e->gid.raw + 12, 4));
		CHECK(!memcmp(&ip.daddr, e->gid.raw + 12, 4));
		CHECK_EQ(mt_ip_csum(g + 20, 20), 0);
		return;
	}
	vtf = (uint32_t)g[0] << 24 | g[1] << 16 | g[2] << 8 | g[3];
	CHECK_EQ(vtf >> 28, 6);
	CHECK_EQ((vtf >> 20) & 0xff, 0x20);
	CHECK_EQ(g[6], v2 ? IPPROTO_UDP : ROCE_NEXT_BTH);
	CHECK_EQ(g[7], 64);
	CHECK(!memcmp(g + 8, e->gid.raw, 16));
	CHECK(!memcmp(g + 24, e->gid.raw, 16));
}

/* A datagram, and its GRH: the IPv4 header of RoCE v2 in bytes 20..39. */
MT_TEST_F(ud, send_recv)
{
	struct ibv_send_wr wr = { .wr_id = 1 };
	struct ibv_wc wc;

	if (!exchange(self, &wr, 300, &wc))
		return KSFT_FAIL;
	CHECK(!(wc.wc_flags & IBV_WC_WITH_IMM));
	check_grh(self->p.buf + RECV_OFF, &self->gid, 300);
	return KSFT_PASS;
}

/* SEND with immediate: the immediate data in the receive's completion. */
MT_TEST_F(ud, send_imm)
{
	struct ibv_send_wr wr = {
		.wr_id = 3, .opcode = IBV_WR_SEND_WITH_IMM,
		.imm_data = htonl(0x12345678),
	};
	struct ibv_wc wc;

	if (!exchange(self, &wr, 64, &wc))
		return KSFT_FAIL;
	if (CHECK(wc.wc_flags & IBV_WC_WITH_IMM))
		CHECK_EQ(ntohl(wc.imm_data), 0x12345678);
	return KSFT_PASS;
}

/* A zero-length datagram: the GRH alone, 40 bytes. */
MT_TEST_F(ud, zero_length)
{
	struct ibv_send_wr wr = { .wr_id = 4 };
	struct ibv_wc wc;

	exchange(self, &wr, 0, &wc);
	return KSFT_PASS;
}

/*
 * From every other GID of the port: RoCE v2 over IPv6 puts the IPv6
 * header in the GRH's place, RoCE v1 the IB GRH.
 */
MT_TEST_F(ud, grh_every_gid)
{
	struct ibv_gid_entry e;
	unsigned int i, tested = 0;
	struct ibv_wc wc;

	for (i = 0; i < 16; i++) {
		struct ibv_send_wr wr = { .wr_id = 5 };

		if (ibv_query_gid_ex(self->p.c.ctx, 1, i, &e, 0) ||
		    i == self->gid.gid_index)
			continue;
		tested++;
		CHECK_ERR(ibv_destroy_ah(self->ah), 0);
		self->ah = ud_ah(self, &e);
		if (!CHECK(self->ah) || !exchange(self, &wr, 100, &wc))
			return KSFT_FAIL;
		check_grh(self->p.buf + RECV_OFF, &e, 100);
	}
	if (!tested)
		return mt_skip("no other GID on port 1");
	return KSFT_PASS;
}

/*
 * A UD QP on an SRQ takes its datagrams from the SRQ's WQEs, the GRH
 * first, as from an RQ of its own.
 */
MT_TEST_F(ud, srq_recv)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_send_wr wr = { .wr_id = 30 };
	struct ibv_sge sge = {
		.addr = (uintptr_t)self->p.buf + RECV_OFF, .length = 4096,
		.lkey = self->p.mr->lkey,
	};
	struct ibv_recv_wr rwr = { .wr_id = 31, .sg_list = &sge,
				   .num_sge = 1 };
	struct ibv_recv_wr *bad;
	struct ibv_qp *qp = NULL;
	struct ibv_srq *srq;
	struct ibv_wc wc;

	srq = ibv_create_srq(self->p.pd, &sa);
	if (!srq && errno == EOPNOTSUPP)
		return mt_skip("no SRQs");
	if (!CHECK(srq))
		return KSFT_FAIL;
	qp = rts_ud_qp(self->p.pd, self->p.cq[1], QKEY, srq);
	fill(self->p.buf, 200, 9);
	if (qp && !mt_case_failures() &&
	    CHECK_ERR(ibv_post_srq_recv(srq, &rwr, &bad), 0) &&
	    CHECK_ERR(ud_post_send(self, &wr, 200, qp->qp_num, QKEY), 0)) {
		if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
			mt_wc_is(&wc, 30, IBV_WC_SUCCESS, IBV_WC_SEND);
		if (mt_poll_one(self->p.cq[1], &wc, WAIT_MS) &&
		    mt_wc_is(&wc, 31, IBV_WC_SUCCESS, IBV_WC_RECV)) {
			CHECK_EQ(wc.qp_num, qp->qp_num);
			CHECK_EQ(wc.src_qp, self->p.qp[0]->qp_num);
			CHECK_EQ(wc.byte_len, GRH_BYTES + 200);
			CHECK(!memcmp(self->p.buf + RECV_OFF + GRH_BYTES,
				      self->p.buf, 200));
			check_grh(self->p.buf + RECV_OFF, &self->gid, 200);
		}
	}
	if (qp)
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	CHECK_ERR(ibv_destroy_srq(srq), 0);
	return KSFT_PASS;
}

/*
 * A Q_Key the receiver does not have: dropped there, silently; the
 * sender completes.  The receive WQE waits for the next datagram; a
 * Q_Key with its high bit set stands for the sending QP's own.
 */
MT_TEST_F(ud, wrong_qkey)
{
	struct ibv_send_wr wr = { .wr_id = 8 };
	struct ibv_wc wc;

	if (!CHECK_ERR(ud_post_recv(self, 9, 4096), 0) ||
	    !CHECK_ERR(ud_post_send(self, &wr, 64, self->p.qp[1]->qp_num,
				 QKEY + 1), 0))
		return KSFT_FAIL;
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 8, IBV_WC_SUCCESS, IBV_WC_SEND);
	poll_none(self->p.cq[1]);
	wr = (struct ibv_send_wr){ .wr_id = 10 };
	if (!CHECK_ERR(ud_post_send(self, &wr, 64, self->p.qp[1]->qp_num,
				 0x80000000U), 0))
		return KSFT_FAIL;
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 10, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (mt_poll_one(self->p.cq[1], &wc, WAIT_MS))
		mt_wc_is(&wc, 9, IBV_WC_SUCCESS, IBV_WC_RECV);
	return KSFT_PASS;
}

/*
 * No receive WQE posted: UD has no RNR, the datagram is dropped at the
 * receiver and the sender completes; a receive posted afterwards waits
 * for the next one.
 */
MT_TEST_F(ud, no_recv_dropped)
{
	struct ibv_send_wr wr = { .wr_id = 32 };
	struct ibv_wc wc;

	if (!CHECK_ERR(ud_post_send(self, &wr, 64, self->p.qp[1]->qp_num,
				    QKEY), 0))
		return KSFT_FAIL;
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 32, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (!CHECK_ERR(ud_post_recv(self, 33, 4096), 0))
		return KSFT_FAIL;
	poll_none(self->p.cq[1]);
	return KSFT_PASS;
}

/*
 * A datagram to a QP number that does not exist, or to an RC QP: it
 * completes at the sender and reaches nothing.
 */
MT_TEST_F(ud, no_such_qp)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = self->p.cq[1], .recv_cq = self->p.cq[1],
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE,
	};
	struct ibv_recv_wr *bad;
	struct ibv_sge sge = {
		.addr = (uintptr_t)self->p.buf + RECV_OFF, .length = 4096,
		.lkey = self->p.mr->lkey,
	};
	struct ibv_recv_wr rwr = { .wr_id = 11, .sg_list = &sge,
				   .num_sge = 1 };
	uint32_t qpns[2] = { 0xfffff0 };
	struct ibv_qp *rc = ibv_create_qp(self->p.pd, &ia);
	struct ibv_wc wc;
	unsigned int i;

	if (!CHECK(rc))
		return KSFT_FAIL;
	qpns[1] = rc->qp_num;
	if (CHECK_ERR(ibv_modify_qp(rc, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0) &&
	    CHECK_ERR(ibv_post_recv(rc, &rwr, &bad), 0) &&
	    CHECK_ERR(ud_post_recv(self, 12, 4096), 0)) {
		for (i = 0; i < 2; i++) {
			struct ibv_send_wr wr = { .wr_id = 13 + i };

			if (!CHECK_ERR(ud_post_send(self, &wr, 64, qpns[i],
						    QKEY), 0))
				break;
			if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
				mt_wc_is(&wc, 13 + i, IBV_WC_SUCCESS,
					 IBV_WC_SEND);
		}
		poll_none(self->p.cq[1]);
	}
	CHECK_ERR(ibv_destroy_qp(rc), 0);
	return KSFT_PASS;
}

/*
 * A datagram larger than the path MTU: a local length error, and the
 * QP's send queue in error (SQE), where the WR behind it is flushed;
 * back to RTS, it sends again.  Nothing reached the receiver.
 */
MT_TEST_F(ud, over_mtu)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS };
	struct ibv_send_wr wr = { .wr_id = 15 };
	struct ibv_qp_init_attr ia;
	struct ibv_wc wc;

	if (!CHECK_ERR(ud_post_recv(self, 16, 8192), 0) ||
	    !CHECK_ERR(ud_post_send(self, &wr, self->mtu + 1,
				 self->p.qp[1]->qp_num, QKEY), 0))
		return KSFT_FAIL;
	wr = (struct ibv_send_wr){ .wr_id = 17 };
	if (!CHECK_ERR(ud_post_send(self, &wr, 8, self->p.qp[1]->qp_num,
				    QKEY), 0))
		return KSFT_FAIL;
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 15, IBV_WC_LOC_LEN_ERR, 0);
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 17, IBV_WC_WR_FLUSH_ERR, 0);
	poll_none(self->p.cq[1]);
	if (CHECK_ERR(ibv_query_qp(self->p.qp[0], &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_SQE);
	a.qp_state = IBV_QPS_RTS;
	if (!CHECK_ERR(ibv_modify_qp(self->p.qp[0], &a, IBV_QP_STATE), 0))
		return KSFT_FAIL;
	/* the MTU itself fits */
	wr = (struct ibv_send_wr){ .wr_id = 18 };
	if (!CHECK_ERR(ud_post_send(self, &wr, self->mtu, self->p.qp[1]->qp_num,
				 QKEY), 0))
		return KSFT_FAIL;
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 18, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (mt_poll_one(self->p.cq[1], &wc, WAIT_MS) &&
	    mt_wc_is(&wc, 16, IBV_WC_SUCCESS, IBV_WC_RECV))
		CHECK_EQ(wc.byte_len, GRH_BYTES + self->mtu);
	return KSFT_PASS;
}

/* A bad lkey: a local protection error at the sender, nothing arrives. */
MT_TEST_F(ud, bad_lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)self->p.buf, .length = 64,
		.lkey = self->p.mr->lkey ^ 0x80,
	};
	struct ibv_send_wr wr = {
		.wr_id = 19, .opcode = IBV_WR_SEND, .sg_list = &sge,
		.num_sge = 1, .send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { self->ah, self->p.qp[1]->qp_num, QKEY },
	};
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	if (!CHECK_ERR(ud_post_recv(self, 20, 4096), 0) ||
	    !CHECK_ERR(ibv_post_send(self->p.qp[0], &wr, &bad), 0))
		return KSFT_FAIL;
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 19, IBV_WC_LOC_PROT_ERR, 0);
	poll_none(self->p.cq[1]);
	return KSFT_PASS;
}

/*
 * A receive too small for the GRH and the payload: a local length error
 * at the receiver, which goes to ERR; the sender completes.
 */
MT_TEST_F(ud, recv_too_small)
{
	struct ibv_send_wr wr = { .wr_id = 21 };
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_wc wc;

	if (!CHECK_ERR(ud_post_recv(self, 22, GRH_BYTES + 63), 0) ||
	    !CHECK_ERR(ud_post_send(self, &wr, 64, self->p.qp[1]->qp_num,
				    QKEY), 0))
		return KSFT_FAIL;
	if (mt_poll_one(self->p.cq[0], &wc, WAIT_MS))
		mt_wc_is(&wc, 21, IBV_WC_SUCCESS, IBV_WC_SEND);
	if (mt_poll_one(self->p.cq[1], &wc, WAIT_MS))
		mt_wc_is(&wc, 22, IBV_WC_LOC_LEN_ERR, 0);
	if (CHECK_ERR(ibv_query_qp(self->p.qp[1], &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_ERR);
	return KSFT_PASS;
}

/* The Q_Key a QP was given is the one ibv_query_qp() reports. */
MT_TEST_F(ud, query_qkey)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (CHECK_ERR(ibv_query_qp(self->p.qp[1], &a, IBV_QP_QKEY, &ia), 0))
		CHECK_EQ(a.qkey, QKEY);
	CHECK_EQ(ia.qp_type, IBV_QPT_UD);
	return KSFT_PASS;
}

/*
 * Address handles are the software's: many created and destroyed leave
 * no firmware object behind; one without a GRH is refused on RoCE.
 */
MT_TEST_F(ud, ah_no_leak)
{
	struct ibv_ah_attr nogrh = { .port_num = 1, .dlid = 1 };
	int before = mt_sim() ? mt_fw_total() : 0;
	struct ibv_ah *ah;
	unsigned int i;

	for (i = 0; i < 200; i++) {
		ah = ud_ah(self, &self->gid);
		if (!CHECK(ah))
			break;
		CHECK_ERR(ibv_destroy_ah(ah), 0);
	}
	if (mt_sim())
		CHECK_EQ(mt_fw_total(), before);
	ah = ibv_create_ah(self->p.pd, &nogrh);
	if (!CHECK(!ah))
		ibv_destroy_ah(ah);
	return KSFT_PASS;
}

/*
 * An AH is made on a PD of the caller's own context: the fixture's PD
 * handed, by its handle, to a context that has none is refused there,
 * and nothing is made.
 */
MT_TEST_F(ud, ah_other_context)
{
	struct ibv_context *other = ibv_open_device(self->p.c.ctx->device);
	struct ibv_context *mine = self->p.pd->context;
	struct ibv_ah_attr a = {
		.is_global = 1, .port_num = 1,
		.grh = {
			.dgid = self->gid.gid,
			.sgid_index = self->gid.gid_index, .hop_limit = 64,
		},
	};
	struct ibv_ah *ah;

	if (!CHECK(other))
		return KSFT_FAIL;
	/* libmlx5 sends the command on the PD's context: the other one */
	self->p.pd->context = other;
	errno = 0;
	ah = ibv_create_ah(self->p.pd, &a);
	self->p.pd->context = mine;
	/* ib_core: no such handle in that context */
	if (!CHECK(!ah))
		ibv_destroy_ah(ah);
	else
		CHECK_ERR(errno, ENOENT);
	CHECK_ERR(ibv_close_device(other), 0);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(ud, send_recv),
	MT_CASE_F(ud, send_imm),
	MT_CASE_F(ud, zero_length),
	MT_CASE_F(ud, grh_every_gid),
	MT_CASE_F(ud, srq_recv),
	MT_CASE_F(ud, wrong_qkey),
	MT_CASE_F(ud, no_recv_dropped),
	MT_CASE_F(ud, no_such_qp),
	MT_CASE_F(ud, over_mtu),
	MT_CASE_F(ud, bad_lkey),
	MT_CASE_F(ud, recv_too_small),
	MT_CASE_F(ud, query_qkey),
	MT_CASE_F(ud, ah_no_leak),
	MT_CASE_F(ud, ah_other_context),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
