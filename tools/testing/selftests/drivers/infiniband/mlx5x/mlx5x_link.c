// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port follows its wire (issue 24 item 6, and its reliability
 * list): two simulated devices on the two ends of a veth pair, an RC QP
 * of each connected to the other (mlx5x_rc_pair.h).
 *
 * As the IBTA specification (9.7.6.1: the transport timer and
 * retry_count; 16.1.3: PortCounters, PortCountersExtended) and
 * ibv_modify_qp(3), ibv_query_port(3) describe it, and as a ConnectX's
 * QPs see a link that drops (mlx5_ib tells ib_core PORT_ERR and leaves
 * the QPs as they are):
 *   - counters: after a known exchange the port counters of sysfs
 *     (ports/1/counters, PMA MADs ib_core sends the driver), read as
 *     nobody, moved by the packets and bytes that crossed, each way;
 *   - the near netdev down under an RC SEND: nothing goes out, the
 *     requester retries retry_cnt times then completes RETRY_EXC_ERR;
 *   - the far end down (the near one loses its carrier) and up again
 *     within the retries: the SEND completes and arrives intact;
 *   - the netdev's MTU changed during a stream of SENDs: active_mtu
 *     follows, the messages keep arriving; the far end's MTU under the
 *     path's: the packets are lost and the SEND fails cleanly;
 *   - the far end moved to another namespace, and the near netdev
 *     deleted, during traffic: the devices on them go away, the QP left
 *     completes with an error or not at all, nothing hangs.
 * On hardware (or MLX5X_NO_MODEL) every case skips; in a kernel without
 * network namespaces or veth too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_rc_pair.h"

#define L_NEAR_DEV	"mlx5x_ln"
#define L_FAR_DEV	"mlx5x_lf"
#define L_NEAR		"mln0"
#define L_FAR		"mlf0"
#define L_NS		"mlfar"
#define L_NS2		"mlfar2"
#define L_DEBUGFS	"/sys/kernel/debug/mlx5x/" L_NEAR_DEV "/fw/datapath"

static const struct mt_veth veth = {
	.dev = L_NEAR_DEV, .near = L_NEAR, .far = L_FAR, .ns = L_NS,
	.near_ip = "192.168.81.1", .far_ip = "192.168.81.2",
	.near_mac = "02:81:00:00:00:01", .far_mac = "02:81:00:00:00:02",
	.no_dad = true,
};
static const struct rp_cfg pair = { .veth = &veth, .far_dev = L_FAR_DEV };

MT_FIXTURE(wire);

MT_FIXTURE_SETUP(wire)
{
	return wire_open(self, &pair, true);
}

MT_FIXTURE_TEARDOWN(wire)
{
	wire_close(self);
	mt_sh("ip netns del " L_NS2 " 2>/dev/null");
}

/* The port counters ib_core shows (PortCountersExtended, PortRcvErrors). */
enum { XD, RD, XP, RP, UX, UR, MX, MR, RE, NPC };
static const char *const pc_name[NPC] = {
	"port_xmit_data", "port_rcv_data", "port_xmit_packets",
	"port_rcv_packets", "unicast_xmit_packets", "unicast_rcv_packets",
	"multicast_xmit_packets", "multicast_rcv_packets", "port_rcv_errors",
};

/* @dev's counters, read by nobody in a child; false if any is missing. */
static bool port_counters(const char *dev, unsigned long long *v)
{
	unsigned long long *shared;
	char path[160];
	bool ok = false;
	pid_t pid;
	FILE *f;
	int i;

	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(shared != MAP_FAILED))
		return false;
	pid = fork();
	if (!pid) {
		if (!mt_drop_to(MT_UID_NOBODY, 0))
			_exit(2);
		for (i = 0; i < NPC; i++) {
			snprintf(path, sizeof(path),
				 "/sys/class/infiniband/%s/ports/1/counters/%s",
				 dev, pc_name[i]);
			f = fopen(path, "r");
			if (!f || fscanf(f, "%llu", &shared[i]) != 1)
				_exit(10 + i);
			fclose(f);
		}
		_exit(0);
	}
	if (CHECK(pid > 0) && CHECK_EQ(mt_reap(pid), 0)) {
		memcpy(v, shared, NPC * sizeof(*v));
		ok = true;
	}
	munmap(shared, 4096);
	return ok;
}

/* A RoCE v2 packet on the pair: Ethernet, IPv6, UDP, BTH, ICRC. */
#define HDRS		(14 + 40 + 8 + 12 + 4)
#define ACK_BYTES	(HDRS + 4)	/* and its AETH */

/* @words (4-byte) is what @bytes made of a counter that was at any value. */
static bool words_of(unsigned long long words, unsigned int bytes)
{
	return words == bytes / 4 || words == (bytes + 3) / 4;
}

/*
 * A 3000-byte SEND at path MTU 1024: three packets (1024, 1024, 952
 * bytes of payload) one way, one ACK the other (AckReq on the LAST
 * only).  Each end's counters move by that, as nobody reads them.
 */
MT_TEST_F(wire, counters_exchange)
{
	struct conn c = rc1024;
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = { .wr_id = 1, .opcode = IBV_WR_SEND };
	unsigned long long nb[NPC], na[NPC], fb[NPC], fa[NPC];
	const unsigned int sent = 3 * HDRS + 3000;
	struct ibv_wc wc;

	c.timeout = 20;		/* 4 s: no resend muddles the figures */
	if (!connect_pair(self, &c) ||
	    !port_counters(L_NEAR_DEV, nb) || !port_counters(L_FAR_DEV, fb))
		return KSFT_FAIL;
	fill(n->buf, 3000, 1);
	if (!CHECK_ERR(post_recv(f, 2, HALF, 4096), 0) ||
	    !CHECK_EQ(post_wait(n, &wr, 0, 3000), IBV_WC_SUCCESS))
		return KSFT_FAIL;
	CHECK(mt_poll_one(f->cq, &wc, WAIT));
	CHECK(!memcmp(f->buf + HALF, n->buf, 3000));
	if (!port_counters(L_NEAR_DEV, na) || !port_counters(L_FAR_DEV, fa))
		return KSFT_FAIL;
	CHECK_EQ(na[XP] - nb[XP], 3);
	CHECK_EQ(na[UX] - nb[UX], 3);
	CHECK_EQ(na[RP] - nb[RP], 1);
	CHECK_EQ(na[UR] - nb[UR], 1);
	CHECK(words_of(na[XD] - nb[XD], sent));
	CHECK(words_of(na[RD] - nb[RD], ACK_BYTES));
	CHECK_EQ(fa[RP] - fb[RP], 3);
	CHECK_EQ(fa[UR] - fb[UR], 3);
	CHECK_EQ(fa[XP] - fb[XP], 1);
	CHECK(words_of(fa[RD] - fb[RD], sent));
	CHECK(words_of(fa[XD] - fb[XD], ACK_BYTES));
	CHECK_EQ(na[MX] - nb[MX], 0);
	CHECK_EQ(fa[MR] - fb[MR], 0);
	CHECK_EQ(na[RE] - nb[RE], 0);
	return KSFT_PASS;
}

static enum ibv_port_state port_state(struct ibv_context *ctx)
{
	struct ibv_port_attr pa;

	return ibv_query_port(ctx, 1, &pa) ? IBV_PORT_NOP : pa.state;
}

/* @ctx's port reaches @want within 2 s. */
static bool port_becomes(struct ibv_context *ctx, enum ibv_port_state want)
{
	long end = mt_now_ms() + 2000;

	while (port_state(ctx) != want && mt_now_ms() < end)
		usleep(10 * 1000);
	return CHECK_EQ(port_state(ctx), want);
}

static long long link_figure(const char *name)
{
	return mt_dp_figure(L_DEBUGFS, "link ", name);
}

static long long rcw_figure(const char *name)
{
	return mt_dp_figure(L_DEBUGFS, "rc_wire ", name);
}

/*
 * The near netdev down: the port DOWN, the SEND and its retry_cnt (2)
 * resends lost; RETRY_EXC_ERR, the QP in ERR.  Nothing crossed.
 */
MT_TEST_F(wire, link_down_retry_exceeded)
{
	struct conn c = rc1024;
	struct end *n = &self->e[0];
	struct ibv_send_wr wr = { .wr_id = 3, .opcode = IBV_WR_SEND };
	unsigned long long before[NPC], after[NPC];
	long long lost, downs = link_figure("downs");

	c.retry_cnt = 2;
	c.timeout = 10;		/* 4.096 us << 10: about 4 ms */
	if (!connect_pair(self, &c) ||
	    !CHECK_EQ(mt_sh("ip link set " L_NEAR " down"), 0) ||
	    !port_becomes(n->ctx, IBV_PORT_DOWN) ||
	    !port_counters(L_NEAR_DEV, before))
		return KSFT_FAIL;
	lost = link_figure("tx_lost");
	CHECK_EQ(post_wait(n, &wr, 0, 100), IBV_WC_RETRY_EXC_ERR);
	state_becomes(n->qp, IBV_QPS_ERR);
	CHECK_EQ(link_figure("downs"), downs + 1);
	CHECK_EQ(link_figure("tx_lost"), lost + 3);
	if (port_counters(L_NEAR_DEV, after))
		CHECK_EQ(after[XP], before[XP]);
	CHECK_EQ(mt_sh("ip link set " L_NEAR " up"), 0);
	port_becomes(n->ctx, IBV_PORT_ACTIVE);
	return KSFT_PASS;
}

/*
 * The far end down (the near one loses its carrier) while a SEND waits
 * for its ACK, up again within the retries: the SEND completes, intact.
 */
MT_TEST_F(wire, link_flap_resumes)
{
	struct conn c = rc1024;
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = { .wr_id = 4, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_sge sge;
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	long long lost, resends;

	c.timeout = 16;		/* about 270 ms, 7 times */
	if (!connect_pair(self, &c) ||
	    !CHECK_ERR(post_recv(f, 5, HALF, 4096), 0) ||
	    !CHECK_EQ(mt_sh("ip -n " L_NS " link set " L_FAR " down"), 0) ||
	    !port_becomes(n->ctx, IBV_PORT_DOWN))
		return KSFT_FAIL;
	lost = link_figure("tx_lost");
	resends = rcw_figure("resends");
	fill(n->buf, 3000, 9);
	sge = (struct ibv_sge){ (uintptr_t)n->buf, 3000, n->mr->lkey };
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (!CHECK_ERR(ibv_post_send(n->qp, &wr, &bad), 0))
		return KSFT_FAIL;
	usleep(150 * 1000);
	CHECK_EQ(ibv_poll_cq(n->cq, 1, &wc), 0);
	CHECK(link_figure("tx_lost") >= lost + 3);
	CHECK_EQ(mt_sh("ip -n " L_NS " link set " L_FAR " up"), 0);
	port_becomes(n->ctx, IBV_PORT_ACTIVE);
	if (CHECK(mt_poll_one(n->cq, &wc, WAIT)))
		CHECK(mt_wc_is(&wc, 4, IBV_WC_SUCCESS, IBV_WC_SEND));
	if (CHECK(mt_poll_one(f->cq, &wc, WAIT)) &&
	    mt_wc_is(&wc, 5, IBV_WC_SUCCESS, IBV_WC_RECV))
		CHECK_EQ(wc.byte_len, 3000);
	CHECK(!memcmp(f->buf + HALF, n->buf, 3000));
	CHECK(rcw_figure("resends") > resends);
	CHECK_EQ(qp_state(n->qp), IBV_QPS_RTS);
	return KSFT_PASS;
}

static enum ibv_mtu active_mtu(struct ibv_context *ctx)
{
	struct ibv_port_attr pa;

	return ibv_query_port(ctx, 1, &pa) ? 0 : pa.active_mtu;
}

/* SENDs of 4000 bytes, @n of them, each landing at its slot. */
static void post_stream(struct end *n, struct end *f, unsigned int count)
{
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_sge sge;
	unsigned int i;

	for (i = 0; i < count; i++) {
		CHECK_ERR(post_recv(f, 100 + i, HALF + i * 4096, 4096), 0);
		sge = (struct ibv_sge){ (uintptr_t)n->buf + i * 4096, 4000,
					n->mr->lkey };
		wr.wr_id = 100 + i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		CHECK_ERR(ibv_post_send(n->qp, &wr, &bad), 0);
	}
}

/*
 * The near MTU to 1280, then 600, during a stream at path MTU 1024:
 * active_mtu follows (1024, then 256: what fits under the RoCE headers),
 * and every message arrives (the far end still takes 1024).  Then the
 * far end's MTU to 600: its packets are lost there; RETRY_EXC_ERR.
 */
MT_TEST_F(wire, mtu_change_stream)
{
	struct conn c = rc1024;
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_send_wr wr = { .wr_id = 9, .opcode = IBV_WR_SEND };
	struct ibv_wc wc;
	unsigned int i, got = 0;

	c.timeout = 14;
	c.retry_cnt = 3;
	if (!connect_pair(self, &c))
		return KSFT_FAIL;
	CHECK_EQ(active_mtu(n->ctx), IBV_MTU_1024);
	fill(n->buf, 8 * 4096, 3);
	post_stream(n, f, 8);
	CHECK_EQ(mt_sh("ip link set " L_NEAR " mtu 1280"), 0);
	CHECK_EQ(active_mtu(n->ctx), IBV_MTU_1024);
	CHECK_EQ(mt_sh("ip link set " L_NEAR " mtu 600"), 0);
	CHECK_EQ(active_mtu(n->ctx), IBV_MTU_256);
	for (i = 0; i < 8; i++)
		if (CHECK(mt_poll_one(n->cq, &wc, WAIT)))
			got += wc.status == IBV_WC_SUCCESS;
	CHECK_EQ(got, 8);
	for (i = 0; i < 8; i++)
		CHECK(mt_poll_one(f->cq, &wc, WAIT));
	for (i = 0; i < 8; i++)
		CHECK(!memcmp(f->buf + HALF + i * 4096, n->buf + i * 4096,
			      4000));

	CHECK_EQ(mt_sh("ip -n " L_NS " link set " L_FAR " mtu 600"), 0);
	CHECK_ERR(post_recv(f, 1, HALF, 4096), 0);
	CHECK_EQ(post_wait(n, &wr, 0, 3000), IBV_WC_RETRY_EXC_ERR);
	state_becomes(n->qp, IBV_QPS_ERR);
	return KSFT_PASS;
}

/* Close what is left of an end whose device went away. */
static void end_gone(struct end *e)
{
	if (e->qp)
		ibv_destroy_qp(e->qp);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->cq)
		ibv_destroy_cq(e->cq);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->ctx)
		ibv_close_device(e->ctx);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

/* `rdma link show @dev` fails within 3 s: the device is gone. */
static bool device_gone(const char *dev)
{
	long end = mt_now_ms() + 3000;

	while (mt_sh("rdma link show %s >/dev/null 2>&1", dev) == 0 &&
	       mt_now_ms() < end)
		usleep(50 * 1000);
	return CHECK(mt_sh("rdma link show %s >/dev/null 2>&1", dev) != 0);
}

/*
 * The far end moved to another namespace during a stream: the far
 * device goes with its netdev's old self, the near port loses its
 * carrier; what the near QP sent completes RETRY_EXC_ERR, or SUCCESS
 * for what was ACKed before.
 */
MT_TEST_F(wire, far_end_moved)
{
	struct conn c = rc1024;
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_wc wc;
	unsigned int i, err = 0;

	c.timeout = 10;
	c.retry_cnt = 2;
	if (!connect_pair(self, &c))
		return KSFT_FAIL;
	fill(n->buf, 8 * 4096, 4);
	post_stream(n, f, 8);
	mt_sh("ip netns add " L_NS2);
	CHECK_EQ(mt_sh("ip -n " L_NS " link set " L_FAR " netns " L_NS2), 0);
	device_gone(L_FAR_DEV);
	for (i = 0; i < 8; i++) {
		if (!CHECK(mt_poll_one(n->cq, &wc, WAIT)))
			break;
		CHECK(wc.status == IBV_WC_SUCCESS ||
		      wc.status == IBV_WC_RETRY_EXC_ERR ||
		      wc.status == IBV_WC_WR_FLUSH_ERR);
		err += wc.status != IBV_WC_SUCCESS;
	}
	CHECK(port_state(n->ctx) == IBV_PORT_DOWN);
	end_gone(f);
	self->spare = NULL;
	self->far_made = false;
	/* the near device is as it was: a new QP may be made */
	CHECK(err == 0 || qp_state(n->qp) == IBV_QPS_ERR);
	return KSFT_PASS;
}

/*
 * The near netdev deleted during a stream (the veth pair with it): both
 * devices go away, their contexts disassociated, and every call on what
 * is left of them returns.
 */
MT_TEST_F(wire, near_deleted)
{
	struct conn c = rc1024;
	struct end *n = &self->e[0], *f = &self->e[1];
	struct ibv_wc wc;

	c.timeout = 10;
	c.retry_cnt = 2;
	if (!connect_pair(self, &c))
		return KSFT_FAIL;
	fill(n->buf, 8 * 4096, 5);
	post_stream(n, f, 8);
	CHECK_EQ(mt_sh("ip link del " L_NEAR), 0);
	device_gone(L_NEAR_DEV);
	device_gone(L_FAR_DEV);
	/* a disassociated context: no hang, no completion from the dead */
	ibv_poll_cq(n->cq, 1, &wc);
	end_gone(n);
	if (self->spare)
		ibv_destroy_qp(self->spare);
	self->spare = NULL;
	end_gone(f);
	self->far_made = false;
	return KSFT_PASS;
}

#define LINK_CASE(nm)	MT_CASE_F(wire, nm, \
				  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT)

static const struct mt_case cases[] = {
	LINK_CASE(counters_exchange),
	LINK_CASE(link_down_retry_exceeded),
	LINK_CASE(link_flap_resumes),
	LINK_CASE(mtu_change_stream),
	LINK_CASE(far_end_moved),
	LINK_CASE(near_deleted),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
