// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Per-QP counters, as rdma(8)'s "rdma statistic qp" drives them: a QP
 * bound to a counter (by hand, or by the port's auto mode when it moves
 * to INIT) counts what it does in a Q counter set of its own, which
 * "rdma statistic qp show" reads; the port's hw_counters still add up
 * everything, before, during and after the binding.  A QP takes its
 * counter whatever state it is bound in: RST, INIT (it takes effect in
 * RTS) or RTS (at once).  Binding needs CAP_NET_ADMIN; a raw packet QP
 * has no counter of its own (the driver's EOPNOTSUPP, which ib_core
 * reports as ENOMEM).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include "mlx5x_rc.h"

#define WRITES	3
#define STAT	"rdma statistic qp"

static const char *dev_of(struct pair *p)
{
	return ibv_get_device_name(p->c.ctx->device);
}

/*
 * The line of the counter QP @qpn is bound to, from "rdma statistic qp
 * show": each counter's line is followed by one listing its QPs,
 * "LQPN: <3,4>".
 */
#define QP_LINE	STAT " show link %s/1 | awk -v q=%u '/cntn/ { c = $0 } " \
		"/LQPN/ { gsub(/[<>]/, \"\", $2); n = split($2, a, \",\"); " \
		"for (i = 1; i <= n; i++) if (a[i] == q) print c }'"

/* ... that line's counter number */
#define CNTN	" | sed -n 's/.* cntn \\([0-9]*\\) .*/\\1/p'"

/* Whether QP @qpn's counter shows @name at @v (and is there at all). */
static bool qp_shows(struct pair *p, uint32_t qpn, const char *name,
		     long long v)
{
	return mt_sh(QP_LINE " | grep -qw '%s %lld'", dev_of(p), qpn, name,
		     v) == 0;
}

/* Whether QP @qpn is bound to any counter. */
static bool qp_bound(struct pair *p, uint32_t qpn)
{
	return mt_sh(QP_LINE " | grep -q cntn", dev_of(p), qpn) == 0;
}

/* @n RDMA WRITEs from A into B, each completed. */
static int writes(struct pair *p, int n)
{
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { (uintptr_t)p->buf + 16384, p->mr->rkey },
	};
	struct ibv_wc wc;
	int i;

	for (i = 0; i < n; i++) {
		wr.wr_id = 100 + i;
		if (!CHECK_ERR(post_send(p, &wr, 0, 64), 0) ||
		    !poll_one(p->cq[0], &wc) ||
		    !wc_is(&wc, wr.wr_id, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE))
			return KSFT_FAIL;
	}
	return KSFT_PASS;
}

static bool to_state(struct ibv_qp *qp, enum ibv_qp_state s)
{
	struct ibv_qp_attr a = { .qp_state = s, .port_num = 1 };
	int mask = IBV_QP_STATE;

	if (s == IBV_QPS_INIT)
		mask |= IBV_QP_PORT | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS;
	a.qp_access_flags = ALL_ACCESS;
	return CHECK_ERR(ibv_modify_qp(qp, &a, mask), 0);
}

/* Both QPs back to RST; B moved on to @b_state (RST or INIT). */
static bool reset_pair(struct pair *p, enum ibv_qp_state b_state)
{
	return to_state(p->qp[0], IBV_QPS_RESET) &&
	       to_state(p->qp[1], IBV_QPS_RESET) &&
	       (b_state == IBV_QPS_RESET || to_state(p->qp[1], b_state));
}

static bool connect_pair(struct pair *p)
{
	return CHECK_ERR(rc_connect(p, p->qp[0], p->qp[1]->qp_num,
				    ALL_ACCESS, 7), 0) &&
	       CHECK_ERR(rc_connect(p, p->qp[1], p->qp[0]->qp_num,
				    ALL_ACCESS, 7), 0);
}

/*
 * B bound by hand in @state (RTS: as the fixture left it), then WRITES
 * into it: its counter has them all, the port's sum too; unbound, B
 * counts in the port's set again and the sum keeps what it had.
 */
static int bound_in(struct pair *p, enum ibv_qp_state state)
{
	long long w = hw_counter(p->c.ctx, "rx_write_requests");
	uint32_t qpn = p->qp[1]->qp_num;

	if (access("/usr/bin/rdma", X_OK) && access("/sbin/rdma", X_OK))
		return mt_skip("no rdma tool");
	if (!CHECK(w >= 0))
		return KSFT_FAIL;
	if (state != IBV_QPS_RTS && !reset_pair(p, state))
		return KSFT_FAIL;
	if (!CHECK_EQ(mt_sh(STAT " bind link %s/1 lqpn %u", dev_of(p), qpn),
		      0))
		return KSFT_FAIL;
	CHECK(qp_bound(p, qpn));
	if (state != IBV_QPS_RTS && !connect_pair(p))
		return KSFT_FAIL;
	if (writes(p, WRITES) != KSFT_PASS)
		return KSFT_FAIL;
	CHECK(qp_shows(p, qpn, "rx_write_requests", WRITES));
	CHECK(qp_shows(p, qpn, "rx_read_requests", 0));
	CHECK_EQ(hw_counter(p->c.ctx, "rx_write_requests") - w, WRITES);

	if (!CHECK_EQ(mt_sh("c=$(" QP_LINE CNTN "); " STAT " unbind link %s/1 cntn $c lqpn %u",
			    dev_of(p), qpn, dev_of(p), qpn), 0))
		return KSFT_FAIL;
	CHECK(!qp_bound(p, qpn));
	if (writes(p, 1) != KSFT_PASS)
		return KSFT_FAIL;
	CHECK_EQ(hw_counter(p->c.ctx, "rx_write_requests") - w, WRITES + 1);
	return KSFT_PASS;
}

MT_TEST_F(pair, bind_in_rts)
{
	return bound_in(self, IBV_QPS_RTS);
}

MT_TEST_F(pair, bind_in_reset)
{
	return bound_in(self, IBV_QPS_RESET);
}

MT_TEST_F(pair, bind_in_init)
{
	return bound_in(self, IBV_QPS_INIT);
}

/*
 * Auto mode by QP type: both QPs, reconnected, are bound to one counter
 * of their own, where the WRITES and the READ B answered count.  Auto
 * mode is the port's: off again whatever happened.
 */
MT_TEST_F(pair, auto_type)
{
	struct ibv_send_wr wr = {
		.wr_id = 9, .opcode = IBV_WR_RDMA_READ,
		.wr.rdma = { (uintptr_t)self->buf + 16384, self->mr->rkey },
	};
	uint32_t a = self->qp[0]->qp_num, b = self->qp[1]->qp_num;
	struct ibv_wc wc;
	int rc = KSFT_FAIL;

	if (!CHECK_EQ(mt_sh(STAT " set link %s/1 auto type on",
			    dev_of(self)), 0))
		return KSFT_FAIL;
	if (!reset_pair(self, IBV_QPS_RESET) || !connect_pair(self))
		goto out;
	CHECK(qp_bound(self, a));
	CHECK(qp_bound(self, b));
	if (writes(self, WRITES) != KSFT_PASS ||
	    !CHECK_ERR(post_send(self, &wr, 0, 64), 0) ||
	    !poll_one(self->cq[0], &wc) ||
	    !wc_is(&wc, 9, IBV_WC_SUCCESS, IBV_WC_RDMA_READ))
		goto out;
	CHECK(mt_sh(STAT " show link %s/1 | grep -Eq 'LQPN: <(%u,%u|%u,%u)>'",
		    dev_of(self), a, b, b, a) == 0);
	CHECK(qp_shows(self, a, "rx_write_requests", WRITES));
	CHECK(qp_shows(self, b, "rx_read_requests", 1));
	rc = KSFT_PASS;
out:
	CHECK_EQ(mt_sh(STAT " set link %s/1 auto off", dev_of(self)), 0);
	return rc;
}

/* A raw packet QP counts where its RQ says: no counter of its own. */
MT_TEST_F(pair, raw_refused)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = self->cq[0], .recv_cq = self->cq[0],
		.qp_type = IBV_QPT_RAW_PACKET,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *raw = ibv_create_qp(self->pd, &ia);

	if (!CHECK(raw))
		return KSFT_FAIL;
	CHECK(mt_sh(STAT " bind link %s/1 lqpn %u", dev_of(self),
		    raw->qp_num) != 0);
	CHECK(!qp_bound(self, raw->qp_num));
	CHECK_ERR(ibv_destroy_qp(raw), 0);
	return KSFT_PASS;
}

/* As nobody: neither bind another's QP nor set the port's auto mode. */
static int nobody_binds(void *arg)
{
	struct pair *p = arg;

	CHECK(mt_sh(STAT " bind link %s/1 lqpn %u", dev_of(p),
		    p->qp[1]->qp_num) != 0);
	CHECK(mt_sh(STAT " set link %s/1 auto type on", dev_of(p)) != 0);
	return KSFT_PASS;
}

MT_TEST_F(pair, bind_unprivileged)
{
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody_binds, self), KSFT_PASS);
	CHECK(!qp_bound(self, self->qp[1]->qp_num));
	CHECK(mt_sh(STAT " mode link %s/1 | grep -qw on",
		    dev_of(self)) != 0);
	return writes(self, 1);
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, bind_in_rts, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, bind_in_reset, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, bind_in_init, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, auto_type, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, raw_refused, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(pair, bind_unprivileged, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
