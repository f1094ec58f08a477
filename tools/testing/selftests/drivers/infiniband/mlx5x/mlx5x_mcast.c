// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD multicast, as ibv_attach_mcast(3), ibv_query_device(3) and the IBTA
 * say, on the device's internal loopback (a ConnectX loops a multicast
 * datagram back to the QPs of its port that joined the group): the
 * device says how many groups and QPs a group it has; a datagram to a
 * multicast GID and QP 0xffffff reaches every attached UD QP whose Q_Key
 * it carries, each in a receive WQE of its own behind the GRH, and no QP
 * that is not attached or left the group; a group takes no more QPs than
 * the device says; ib_core refuses what is not a multicast GID or a UD
 * QP; ib_core refuses to destroy a QP still attached (EBUSY), and
 * takes a closing context's QPs out of their groups itself.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "mlx5x_rc.h"

#define QKEY		0x22222222U
#define GRH_BYTES	40
#define MC_QPN		0xffffffU
#define NQP		3	/* the sender S, then A and B */
#define LEN		256
#define RECV_OFF	16384	/* each receiver's slot: RECV_OFF * (i + 1) */

struct mc {
	struct pair p;
	struct ibv_cq *cq[NQP];
	struct ibv_qp *qp[NQP];
	struct ibv_ah *ah;
	union ibv_gid mgid;
	int sgid;
};

MT_FIXTURE(mc);

MT_FIXTURE_SETUP(mc)
{
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	int rc = pair_mem_open(&self->p, BUF_BYTES);
	unsigned int i;

	if (rc != KSFT_PASS)
		return rc;
	/* ff0e::1:2:3 (a global-scope IPv6 multicast group) */
	self->mgid.raw[0] = 0xff;
	self->mgid.raw[1] = 0x0e;
	self->mgid.raw[11] = 1;
	self->mgid.raw[13] = 2;
	self->mgid.raw[15] = 3;
	for (i = 0; i < NQP; i++) {
		self->cq[i] = ibv_create_cq(self->p.c.ctx, 16, NULL, NULL, 0);
		if (!CHECK(self->cq[i]))
			return KSFT_FAIL;
		self->qp[i] = rts_ud_qp(self->p.pd, self->cq[i], QKEY, NULL);
		if (!self->qp[i] || mt_case_failures())
			return KSFT_FAIL;
	}
	aa.grh.dgid = self->mgid;
	aa.grh.sgid_index = self->p.gid;
	aa.grh.hop_limit = 1;
	self->ah = ibv_create_ah(self->p.pd, &aa);
	return CHECK(self->ah) ? KSFT_PASS : KSFT_FAIL;
}

MT_FIXTURE_TEARDOWN(mc)
{
	unsigned int i;

	if (self->ah)
		CHECK_ERR(ibv_destroy_ah(self->ah), 0);
	for (i = 0; i < NQP; i++) {
		/* EINVAL where it is not a member */
		if (self->qp[i])
			ibv_detach_mcast(self->qp[i], &self->mgid, 0);
		if (self->qp[i])
			CHECK_ERR(ibv_destroy_qp(self->qp[i]), 0);
		if (self->cq[i])
			CHECK_ERR(ibv_destroy_cq(self->cq[i]), 0);
	}
	pair_teardown(&self->p);
}

/* QP @i posts a receive into its slot. */
static bool mc_recv(struct mc *m, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)m->p.buf + RECV_OFF * i,
		.length = GRH_BYTES + LEN, .lkey = m->p.mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	memset(m->p.buf + RECV_OFF * i, 0xee, GRH_BYTES + LEN);
	return CHECK_ERR(ibv_post_recv(m->qp[i], &wr, &bad), 0);
}

/* S sends LEN bytes to the group, with @qkey; it completes in success. */
static bool mc_send(struct mc *m, uint32_t qkey, uint8_t seed)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)m->p.buf, .length = LEN,
		.lkey = m->p.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 7, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;

	fill(m->p.buf, LEN, seed);
	wr.wr.ud.ah = m->ah;
	wr.wr.ud.remote_qpn = MC_QPN;
	wr.wr.ud.remote_qkey = qkey;
	return CHECK_ERR(ibv_post_send(m->qp[0], &wr, &bad), 0) &&
	       mt_poll_one(m->cq[0], &wc, WAIT_MS) &&
	       mt_wc_is(&wc, 7, IBV_WC_SUCCESS, IBV_WC_SEND);
}

/* QP @i received S's datagram, behind a GRH whose destination is the group. */
static bool mc_got(struct mc *m, unsigned int i)
{
	const uint8_t *slot = m->p.buf + RECV_OFF * i;
	struct ibv_wc wc;

	if (!mt_poll_one(m->cq[i], &wc, WAIT_MS) ||
	    !mt_wc_is(&wc, i, IBV_WC_SUCCESS, IBV_WC_RECV))
		return false;
	/* RoCE v2 over IPv6: the IPv6 header's destination at bytes 24..39 */
	return CHECK_EQ(wc.byte_len, GRH_BYTES + LEN) &
	       CHECK_EQ(wc.src_qp, m->qp[0]->qp_num) &
	       CHECK(wc.wc_flags & IBV_WC_GRH) &
	       CHECK(!memcmp(slot + GRH_BYTES, m->p.buf, LEN)) &
	       CHECK(!memcmp(slot + 24, m->mgid.raw, 16));
}

/* Nothing completes on @cq within a tenth of a second. */
static bool mc_none(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	usleep(100 * 1000);
	return CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 0);
}

MT_TEST_F(mc, device_caps)
{
	struct ibv_device_attr a;

	if (!CHECK_ERR(ibv_query_device(self->p.c.ctx, &a), 0))
		return KSFT_FAIL;
	CHECK(a.max_mcast_grp > 0);
	CHECK(a.max_mcast_qp_attach > 0);
	CHECK(a.max_total_mcast_qp_attach >=
	      a.max_mcast_grp * a.max_mcast_qp_attach);
	return KSFT_PASS;
}

MT_TEST_F(mc, every_member_receives)
{
	unsigned int i;

	for (i = 1; i < NQP; i++)
		if (!CHECK_ERR(ibv_attach_mcast(self->qp[i], &self->mgid, 0), 0) ||
		    !mc_recv(self, i))
			return KSFT_FAIL;
	if (!mc_send(self, QKEY, 1))
		return KSFT_FAIL;
	for (i = 1; i < NQP; i++)
		mc_got(self, i);
	/* twice: each member takes a WQE of its own each time */
	for (i = 1; i < NQP; i++)
		mc_recv(self, i);
	if (mc_send(self, QKEY, 2))
		for (i = 1; i < NQP; i++)
			mc_got(self, i);
	return KSFT_PASS;
}

MT_TEST_F(mc, left_group_gets_nothing)
{
	if (!CHECK_ERR(ibv_attach_mcast(self->qp[1], &self->mgid, 0), 0) ||
	    !CHECK_ERR(ibv_attach_mcast(self->qp[2], &self->mgid, 0), 0) ||
	    !CHECK_ERR(ibv_detach_mcast(self->qp[2], &self->mgid, 0), 0))
		return KSFT_FAIL;
	if (!mc_recv(self, 1) || !mc_recv(self, 2) || !mc_send(self, QKEY, 3))
		return KSFT_FAIL;
	mc_got(self, 1);
	mc_none(self->cq[2]);
	/* detached twice: not a member */
	errno = 0;
	CHECK(ibv_detach_mcast(self->qp[2], &self->mgid, 0));
	return KSFT_PASS;
}

MT_TEST_F(mc, not_attached_gets_nothing)
{
	if (!mc_recv(self, 1) || !mc_send(self, QKEY, 4))
		return KSFT_FAIL;
	mc_none(self->cq[1]);
	return KSFT_PASS;
}

MT_TEST_F(mc, wrong_qkey_dropped)
{
	if (!CHECK_ERR(ibv_attach_mcast(self->qp[1], &self->mgid, 0), 0) ||
	    !mc_recv(self, 1) || !mc_send(self, QKEY + 1, 5))
		return KSFT_FAIL;
	mc_none(self->cq[1]);
	return KSFT_PASS;
}

MT_TEST_F(mc, group_is_bounded)
{
	struct ibv_device_attr a;
	struct ibv_qp **qp;
	unsigned int i, n;

	if (!CHECK_ERR(ibv_query_device(self->p.c.ctx, &a), 0))
		return KSFT_FAIL;
	n = a.max_mcast_qp_attach;
	if (n > 256)
		return mt_skip("groups of %u QPs: too many to fill here", n);
	qp = calloc(n + 1, sizeof(*qp));
	if (!CHECK(qp))
		return KSFT_FAIL;
	for (i = 0; i <= n && !mt_case_failures(); i++) {
		qp[i] = rts_ud_qp(self->p.pd, self->cq[1], QKEY, NULL);
		if (!qp[i])
			break;
		if (i < n) {
			if (!CHECK_ERR(ibv_attach_mcast(qp[i], &self->mgid, 0),
				       0))
				mt_diag("QP %u of %u refused", i + 1, n);
		} else {
			errno = 0;
			CHECK(ibv_attach_mcast(qp[i], &self->mgid, 0));
			CHECK_ERR(errno, ENOMEM);
		}
	}
	for (i = 0; i <= n; i++) {
		if (!qp[i])
			continue;
		if (i < n)
			CHECK_ERR(ibv_detach_mcast(qp[i], &self->mgid, 0), 0);
		CHECK_ERR(ibv_destroy_qp(qp[i]), 0);
	}
	free(qp);
	/* the group is empty again: one member receives alone */
	if (CHECK_ERR(ibv_attach_mcast(self->qp[2], &self->mgid, 0), 0) &&
	    mc_recv(self, 2) && mc_send(self, QKEY, 6))
		mc_got(self, 2);
	return KSFT_PASS;
}

MT_TEST_F(mc, refusals)
{
	union ibv_gid uni = {};
	struct ibv_qp *rc;

	/* a unicast GID is no group */
	ibv_query_gid(self->p.c.ctx, 1, self->p.gid, &uni);
	errno = 0;
	CHECK(ibv_attach_mcast(self->qp[1], &uni, 0));
	CHECK_ERR(errno, EINVAL);
	/* an RC QP joins no group */
	rc = rc_qp(&self->p, self->cq[1], IBV_QPT_RC);
	if (!CHECK(rc))
		return KSFT_FAIL;
	errno = 0;
	CHECK(ibv_attach_mcast(rc, &self->mgid, 0));
	CHECK_ERR(errno, EINVAL);
	CHECK_ERR(ibv_destroy_qp(rc), 0);
	return KSFT_PASS;
}

MT_TEST_F(mc, member_not_destroyed)
{
	if (!CHECK_ERR(ibv_attach_mcast(self->qp[1], &self->mgid, 0), 0))
		return KSFT_FAIL;
	/* ib_core: a member is busy; it stays one, and receives */
	errno = ibv_destroy_qp(self->qp[1]);
	CHECK_ERR(errno, EBUSY);
	if (mc_recv(self, 1) && mc_send(self, QKEY, 8))
		mc_got(self, 1);
	return KSFT_PASS;
}

/*
 * A process that exits with a member: ib_core takes it out of the group
 * as it destroys the QP; a second context's member then receives alone.
 */
static void mc_member_exits(struct ibv_device *dev, const union ibv_gid *mgid)
{
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = QKEY,
	};
	struct ibv_pd *pd;
	struct ibv_qp *qp;

	if (!ctx)
		_exit(2);
	pd = ibv_alloc_pd(ctx);
	ia.send_cq = ia.recv_cq = pd ? ibv_create_cq(ctx, 4, NULL, NULL, 0) :
				       NULL;
	qp = ia.send_cq ? ibv_create_qp(pd, &ia) : NULL;
	if (!qp || ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				 IBV_QP_PORT | IBV_QP_QKEY) ||
	    ibv_attach_mcast(qp, mgid, 0))
		_exit(1);
	/* gone with its QP a member, its objects left for ib_core */
	_exit(0);
}

MT_TEST_F(mc, exited_member_leaves)
{
	int status = -1;
	pid_t pid;

	pid = fork();
	if (!pid)
		mc_member_exits(self->p.c.ctx->device, &self->mgid);
	if (!CHECK(pid > 0) || !CHECK_EQ(waitpid(pid, &status, 0), pid) ||
	    !CHECK_EQ(status, 0))
		return KSFT_FAIL;
	if (CHECK_ERR(ibv_attach_mcast(self->qp[2], &self->mgid, 0), 0) &&
	    mc_recv(self, 2) && mc_send(self, QKEY, 9))
		mc_got(self, 2);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(mc, device_caps),
	MT_CASE_F(mc, every_member_receives),
	MT_CASE_F(mc, left_group_gets_nothing),
	MT_CASE_F(mc, not_attached_gets_nothing),
	MT_CASE_F(mc, wrong_qkey_dropped),
	MT_CASE_F(mc, group_is_bounded),
	MT_CASE_F(mc, refusals),
	MT_CASE_F(mc, member_not_destroyed),
	MT_CASE_F(mc, exited_member_leaves),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
