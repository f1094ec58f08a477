// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_cm on the device's port: rdma_bind_addr(3), rdma_resolve_addr(3)
 * and rdma_resolve_route(3) on the IPv4 address of the port's netdev
 * (MLX5X_NETDEV), which must bind the id to this device, port 1, with
 * the address's IPv4-mapped RoCE GID; in the TCP port space (rping,
 * ucmatose) and the UDP one (udaddy).  rdma_cm sees a device only when
 * ib_core gives it to its kernel clients (Documentation/admin-guide.rst).
 *
 * Then connections, which go through the device's QP1 (the MAD layer's
 * kernel QP: ib_cm's REQ, REP, RTU, REJ, DREQ, DREP and SIDR MADs), as
 * rdma_connect(3), rdma_accept(3) and rdma_reject(3) say: an RC pair that
 * connects, carries a message and disconnects; private data both ways; a
 * rejection; a connection to a port nobody listens on (REJ, reason 8:
 * invalid service ID); and a UD service (SIDR) whose answer is an AH and
 * a remote QP that a datagram then reaches.
 *
 * The cases skip when the netdev has no IPv4 address, or when there is no
 * rdma_cm (/dev/infiniband/rdma_cm: the rdma_ucm module).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ifaddrs.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <rdma/rdma_cma.h>
#include "mlx5x_test.h"

#define EVENT_TIMEOUT_MS	5000
#define RESOLVE_TIMEOUT_MS	2000
#define CONN_BUF		256
#define CM_GRH			40	/* in front of a UD receive */

/* An event channel, the netdev's IPv4 address and the id of the case. */
struct cm {
	struct sockaddr_in addr;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
};

MT_FIXTURE(cm);

/* The first IPv4 address of MLX5X_NETDEV: 0, or -1 if it has none. */
static int netdev_ipv4(struct sockaddr_in *sin)
{
	struct ifaddrs *ifa, *i;
	int ret = -1;

	if (getifaddrs(&ifa))
		return -1;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    strcmp(i->ifa_name, mt.netdev))
			continue;
		memcpy(sin, i->ifa_addr, sizeof(*sin));
		sin->sin_port = 0;
		ret = 0;
		break;
	}
	freeifaddrs(ifa);
	return ret;
}

MT_FIXTURE_SETUP(cm)
{
	char a[INET_ADDRSTRLEN];

	if (netdev_ipv4(&self->addr))
		return mt_skip("%s has no IPv4 address", mt.netdev);
	mt_diag("%s: %s", mt.netdev,
		inet_ntop(AF_INET, &self->addr.sin_addr, a, sizeof(a)));
	self->ch = rdma_create_event_channel();
	if (!self->ch)
		return mt_skip("no rdma_cm (rdma_ucm): %s", strerror(errno));
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(cm)
{
	if (self->id)
		CHECK_ERR(rdma_destroy_id(self->id) ? errno : 0, 0);
	if (self->ch)
		rdma_destroy_event_channel(self->ch);
}

static bool cm_create_id(struct cm *self, enum rdma_port_space ps)
{
	return CHECK_ERR(rdma_create_id(self->ch, &self->id, NULL, ps) ?
			 errno : 0, 0);
}

/* Wait for the id's next event: it must be @want, with status 0. */
static bool cm_wait(struct cm *self, enum rdma_cm_event_type want)
{
	struct pollfd pfd = { .fd = self->ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int type, status;

	if (!CHECK_EQ(poll(&pfd, 1, EVENT_TIMEOUT_MS), 1)) {
		mt_diag("no event in %d ms, want %s", EVENT_TIMEOUT_MS,
			rdma_event_str(want));
		return false;
	}
	if (!CHECK_ERR(rdma_get_cm_event(self->ch, &ev) ? errno : 0, 0))
		return false;
	type = ev->event;
	status = ev->status;
	CHECK_EQ(ev->id, self->id);
	rdma_ack_cm_event(ev);
	mt_diag("event %s status %d", rdma_event_str(type), status);
	return CHECK_EQ(type, want) && CHECK_EQ(status, 0);
}

static bool gid_is_mapped(const union ibv_gid *gid, const struct in_addr *a)
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	};

	return !memcmp(gid->raw, prefix, sizeof(prefix)) &&
	       !memcmp(gid->raw + 12, &a->s_addr, 4);
}

/* The id is bound to the device under test, port 1, at the address. */
static void cm_check_bound(struct cm *self)
{
	struct sockaddr_in *src =
		(struct sockaddr_in *)rdma_get_local_addr(self->id);

	if (CHECK(self->id->verbs))
		CHECK(!strcmp(ibv_get_device_name(self->id->verbs->device),
			      mt.dev_name));
	CHECK_EQ(self->id->port_num, 1);
	CHECK_EQ(src->sin_family, AF_INET);
	CHECK_EQ(src->sin_addr.s_addr, self->addr.sin_addr.s_addr);
}

/*
 * rdma_resolve_addr() from no source to the port's own address: the id
 * is bound to this device, with the address's IPv4-mapped GIDs (the
 * RoCE GIDs ib_core put in the table for it) as source and destination.
 */
MT_TEST_F(cm, resolve_addr)
{
	if (!cm_create_id(self, RDMA_PS_TCP))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_resolve_addr(self->id, NULL,
					 (struct sockaddr *)&self->addr,
					 RESOLVE_TIMEOUT_MS) ? errno : 0, 0) ||
	    !cm_wait(self, RDMA_CM_EVENT_ADDR_RESOLVED))
		return KSFT_FAIL;
	cm_check_bound(self);
	CHECK(gid_is_mapped(&self->id->route.addr.addr.ibaddr.sgid,
			    &self->addr.sin_addr));
	CHECK(gid_is_mapped(&self->id->route.addr.addr.ibaddr.dgid,
			    &self->addr.sin_addr));
	return KSFT_PASS;
}

/* Address, then route: one path between the two mapped GIDs. */
static int resolve_route(struct cm *self, enum rdma_port_space ps)
{
	struct ibv_sa_path_rec *p;

	if (!cm_create_id(self, ps))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_resolve_addr(self->id, NULL,
					 (struct sockaddr *)&self->addr,
					 RESOLVE_TIMEOUT_MS) ? errno : 0, 0) ||
	    !cm_wait(self, RDMA_CM_EVENT_ADDR_RESOLVED))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_resolve_route(self->id, RESOLVE_TIMEOUT_MS) ?
		       errno : 0, 0) ||
	    !cm_wait(self, RDMA_CM_EVENT_ROUTE_RESOLVED))
		return KSFT_FAIL;
	cm_check_bound(self);
	if (!CHECK_EQ(self->id->route.num_paths, 1) ||
	    !CHECK(self->id->route.path_rec))
		return KSFT_FAIL;
	p = self->id->route.path_rec;
	CHECK(gid_is_mapped(&p->sgid, &self->addr.sin_addr));
	CHECK(gid_is_mapped(&p->dgid, &self->addr.sin_addr));
	return KSFT_PASS;
}

/* The TCP port space: rping's and ucmatose's active side. */
MT_TEST_F(cm, resolve_route)
{
	return resolve_route(self, RDMA_PS_TCP);
}

/* The UDP port space: udaddy's active side. */
MT_TEST_F(cm, resolve_route_udp)
{
	return resolve_route(self, RDMA_PS_UDP);
}

/*
 * rdma_bind_addr() to the address, then rdma_listen(): the passive side
 * of rping and ucmatose, bound to this device with a port of its own.
 */
MT_TEST_F(cm, bind_listen)
{
	if (!cm_create_id(self, RDMA_PS_TCP))
		return KSFT_FAIL;
	if (!CHECK_ERR(rdma_bind_addr(self->id,
				      (struct sockaddr *)&self->addr) ?
		       errno : 0, 0))
		return KSFT_FAIL;
	cm_check_bound(self);
	CHECK(rdma_get_src_port(self->id) != 0);
	CHECK_ERR(rdma_listen(self->id, 1) ? errno : 0, 0);
	return KSFT_PASS;
}

/* A side's verbs objects: PD, CQ, MR over its buffer, and the id's QP. */
struct cm_res {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char buf[CONN_BUF];
};

/* The passive side: a listening id on a channel of its own. */
struct cm_listener {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct sockaddr_in addr;	/* where it listens */
};

/* The channel's next event, which must be @want (with @status); NULL if
 * it is not, or none comes.  The caller acks it.
 */
static struct rdma_cm_event *cm_expect(struct rdma_event_channel *ch,
				       enum rdma_cm_event_type want,
				       int status)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	if (!CHECK_EQ(poll(&pfd, 1, EVENT_TIMEOUT_MS), 1)) {
		mt_diag("no event in %d ms, want %s", EVENT_TIMEOUT_MS,
			rdma_event_str(want));
		return NULL;
	}
	if (!CHECK_ERR(rdma_get_cm_event(ch, &ev) ? errno : 0, 0))
		return NULL;
	mt_diag("event %s status %d", rdma_event_str(ev->event), ev->status);
	if (!CHECK_EQ(ev->event, want) || !CHECK_EQ(ev->status, status)) {
		rdma_ack_cm_event(ev);
		return NULL;
	}
	return ev;
}

static bool cm_expect_ack(struct rdma_event_channel *ch,
			  enum rdma_cm_event_type want)
{
	struct rdma_cm_event *ev = cm_expect(ch, want, 0);

	if (ev)
		rdma_ack_cm_event(ev);
	return ev;
}

/* Listen on the netdev's address, at a port rdma_cm picks. */
static bool cm_listen(struct cm *self, struct cm_listener *l,
		      enum rdma_port_space ps)
{
	l->ch = rdma_create_event_channel();
	if (!CHECK(l->ch) ||
	    !CHECK_ERR(rdma_create_id(l->ch, &l->id, NULL, ps) ? errno : 0, 0))
		return false;
	l->addr = self->addr;
	if (!CHECK_ERR(rdma_bind_addr(l->id, (struct sockaddr *)&l->addr) ?
		       errno : 0, 0) ||
	    !CHECK_ERR(rdma_listen(l->id, 4) ? errno : 0, 0))
		return false;
	l->addr.sin_port = rdma_get_src_port(l->id);
	return true;
}

static void cm_unlisten(struct cm_listener *l)
{
	if (l->id)
		CHECK_ERR(rdma_destroy_id(l->id) ? errno : 0, 0);
	if (l->ch)
		rdma_destroy_event_channel(l->ch);
}

/* The active side: the fixture's id, its address and route resolved. */
static bool cm_resolve(struct cm *self, const struct sockaddr_in *to,
		       enum rdma_port_space ps)
{
	return cm_create_id(self, ps) &&
	       CHECK_ERR(rdma_resolve_addr(self->id, NULL,
					   (struct sockaddr *)to,
					   RESOLVE_TIMEOUT_MS) ? errno : 0, 0) &&
	       cm_wait(self, RDMA_CM_EVENT_ADDR_RESOLVED) &&
	       CHECK_ERR(rdma_resolve_route(self->id, RESOLVE_TIMEOUT_MS) ?
			 errno : 0, 0) &&
	       cm_wait(self, RDMA_CM_EVENT_ROUTE_RESOLVED);
}

/* PD, CQ, MR and a QP of @type on @id, as rping makes them. */
static bool cm_res_make(struct rdma_cm_id *id, struct cm_res *r,
			enum ibv_qp_type type)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = type,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_all = 1,
	};

	r->id = id;
	r->pd = ibv_alloc_pd(id->verbs);
	if (!CHECK(r->pd))
		return false;
	r->cq = ibv_create_cq(id->verbs, 8, NULL, NULL, 0);
	if (!CHECK(r->cq))
		return false;
	r->mr = ibv_reg_mr(r->pd, r->buf, sizeof(r->buf),
			   IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(r->mr))
		return false;
	qa.send_cq = r->cq;
	qa.recv_cq = r->cq;
	return CHECK_ERR(rdma_create_qp(id, r->pd, &qa) ? errno : 0, 0);
}

static void cm_res_drop(struct cm_res *r)
{
	if (r->id && r->id->qp)
		rdma_destroy_qp(r->id);
	if (r->mr)
		CHECK_ERR(ibv_dereg_mr(r->mr), 0);
	if (r->cq)
		CHECK_ERR(ibv_destroy_cq(r->cq), 0);
	if (r->pd)
		CHECK_ERR(ibv_dealloc_pd(r->pd), 0);
}

/* Both sides' objects, the passive side's id, then the listener. */
static void cm_drop_sides(struct cm_res *act, struct cm_res *pas,
			  struct cm_listener *l)
{
	cm_res_drop(act);
	cm_res_drop(pas);
	if (pas->id)
		CHECK_ERR(rdma_destroy_id(pas->id) ? errno : 0, 0);
	cm_unlisten(l);
}

/* One completion of @cq, within the event timeout. */
static bool cm_poll(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n = 0;

	for (i = 0; i < EVENT_TIMEOUT_MS * 10 && !n; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (!n)
			usleep(100);
	}
	if (!CHECK_EQ(n, 1))
		return false;
	mt_diag("wc: opcode %d status %s byte_len %u", wc->opcode,
		ibv_wc_status_str(wc->status), wc->byte_len);
	return CHECK_EQ(wc->status, IBV_WC_SUCCESS);
}

static bool cm_post_recv(struct cm_res *r)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)r->buf, .length = sizeof(r->buf),
		.lkey = r->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	memset(r->buf, 0, sizeof(r->buf));
	return CHECK_ERR(ibv_post_recv(r->id->qp, &wr, &bad), 0);
}

/* A SEND of @msg from @r (UD: to @ah, @qpn, @qkey); its completion. */
static bool cm_send(struct cm_res *r, const char *msg, struct ibv_ah *ah,
		    uint32_t qpn, uint32_t qkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)r->buf, .length = strlen(msg) + 1,
		.lkey = r->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND,
	};
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	strcpy(r->buf, msg);
	if (ah) {
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = qpn;
		wr.wr.ud.remote_qkey = qkey;
	}
	return CHECK_ERR(ibv_post_send(r->id->qp, &wr, &bad), 0) &&
	       cm_poll(r->cq, &wc) && CHECK_EQ(wc.opcode, IBV_WC_SEND) &&
	       CHECK_EQ(wc.wr_id, 1);
}

/* An event's private data begins with @want (the rest is padding). */
static bool cm_private(const void *data, unsigned int len, const char *want)
{
	if (!CHECK(data) || !CHECK(len >= strlen(want) + 1))
		return false;
	return CHECK(!strcmp(data, want));
}

/*
 * The RC handshake, both sides: REQ with the active side's private data,
 * CONNECT_REQUEST at the listener, REP with the passive side's, RTU;
 * ESTABLISHED on both.  @pas gets the connection's id and resources.
 */
static bool cm_connect_rc(struct cm *self, struct cm_listener *l,
			  struct cm_res *act, struct cm_res *pas)
{
	struct rdma_conn_param cp = {
		.private_data = "hello from the active side",
		.private_data_len = sizeof("hello from the active side"),
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
	struct rdma_cm_event *ev;

	if (!cm_res_make(self->id, act, IBV_QPT_RC) ||
	    !CHECK_ERR(rdma_connect(self->id, &cp) ? errno : 0, 0))
		return false;
	ev = cm_expect(l->ch, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	if (!ev)
		return false;
	cm_private(ev->param.conn.private_data,
		   ev->param.conn.private_data_len,
		   "hello from the active side");
	pas->id = ev->id;
	rdma_ack_cm_event(ev);
	if (!cm_res_make(pas->id, pas, IBV_QPT_RC) || !cm_post_recv(pas))
		return false;
	cp.private_data = "and hello back";
	cp.private_data_len = sizeof("and hello back");
	if (!CHECK_ERR(rdma_accept(pas->id, &cp) ? errno : 0, 0))
		return false;
	ev = cm_expect(self->ch, RDMA_CM_EVENT_ESTABLISHED, 0);
	if (!ev)
		return false;
	cm_private(ev->param.conn.private_data,
		   ev->param.conn.private_data_len, "and hello back");
	rdma_ack_cm_event(ev);
	return cm_expect_ack(l->ch, RDMA_CM_EVENT_ESTABLISHED);
}

/*
 * rping's life in one process: connect, a SEND from the active side into
 * the passive side's posted receive, then rdma_disconnect() (a DREQ): the
 * passive side's DISCONNECTED, its own rdma_disconnect() (the DREP), and
 * the active side's DISCONNECTED.
 */
MT_TEST_F(cm, connect_rc)
{
	static const char msg[] = "a message over a connection rdma_cm made";
	struct cm_res act = {}, pas = {};
	struct cm_listener l = {};
	struct ibv_wc wc;

	if (cm_listen(self, &l, RDMA_PS_TCP) &&
	    cm_resolve(self, &l.addr, RDMA_PS_TCP) &&
	    cm_connect_rc(self, &l, &act, &pas) &&
	    cm_send(&act, msg, NULL, 0, 0) && cm_poll(pas.cq, &wc) &&
	    CHECK_EQ(wc.opcode, IBV_WC_RECV) &&
	    CHECK_EQ(wc.byte_len, sizeof(msg)) &&
	    CHECK(!strcmp(pas.buf, msg)) &&
	    CHECK_ERR(rdma_disconnect(self->id) ? errno : 0, 0) &&
	    cm_expect_ack(l.ch, RDMA_CM_EVENT_DISCONNECTED) &&
	    CHECK_ERR(rdma_disconnect(pas.id) ? errno : 0, 0))
		cm_expect_ack(self->ch, RDMA_CM_EVENT_DISCONNECTED);
	cm_drop_sides(&act, &pas, &l);
	return KSFT_PASS;
}

/*
 * rdma_reject(3) with private data: the active side's event is REJECTED,
 * its status the REJ's reason, 28 (consumer-defined, IBTA 12.6.7.2), and
 * its private data the passive side's.
 */
MT_TEST_F(cm, connect_reject)
{
	struct rdma_conn_param cp = {
		.private_data = "knock", .private_data_len = sizeof("knock"),
	};
	struct rdma_cm_id *conn = NULL;
	struct cm_listener l = {};
	struct rdma_cm_event *ev;
	struct cm_res act = {};

	if (cm_listen(self, &l, RDMA_PS_TCP) &&
	    cm_resolve(self, &l.addr, RDMA_PS_TCP) &&
	    cm_res_make(self->id, &act, IBV_QPT_RC) &&
	    CHECK_ERR(rdma_connect(self->id, &cp) ? errno : 0, 0))
		ev = cm_expect(l.ch, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	else
		ev = NULL;
	if (ev) {
		conn = ev->id;
		rdma_ack_cm_event(ev);
		CHECK_ERR(rdma_reject(conn, "go away", sizeof("go away")) ?
			  errno : 0, 0);
		ev = cm_expect(self->ch, RDMA_CM_EVENT_REJECTED, 28);
		if (ev) {
			cm_private(ev->param.conn.private_data,
				   ev->param.conn.private_data_len,
				   "go away");
			rdma_ack_cm_event(ev);
		}
	}
	cm_res_drop(&act);
	if (conn)
		CHECK_ERR(rdma_destroy_id(conn) ? errno : 0, 0);
	cm_unlisten(&l);
	return KSFT_PASS;
}

/*
 * A connection to a port nobody listens on any more: ib_cm answers the
 * REQ with a REJ, reason 8 (invalid service ID), and the active side's
 * event is REJECTED with that status.
 */
MT_TEST_F(cm, connect_no_listener)
{
	struct rdma_conn_param cp = { .retry_count = 7 };
	struct cm_listener l = {};
	struct cm_res act = {};
	struct sockaddr_in to;

	if (!cm_listen(self, &l, RDMA_PS_TCP))
		return KSFT_FAIL;
	to = l.addr;
	cm_unlisten(&l);
	if (cm_resolve(self, &to, RDMA_PS_TCP) &&
	    cm_res_make(self->id, &act, IBV_QPT_RC) &&
	    CHECK_ERR(rdma_connect(self->id, &cp) ? errno : 0, 0)) {
		struct rdma_cm_event *ev =
			cm_expect(self->ch, RDMA_CM_EVENT_REJECTED, 8);

		if (ev)
			rdma_ack_cm_event(ev);
	}
	cm_res_drop(&act);
	return KSFT_PASS;
}

/*
 * udaddy's exchange: in the UDP port space rdma_connect() is a SIDR REQ;
 * the listener's rdma_accept() answers with its QP and Q_Key (SIDR REP),
 * and the active side's ESTABLISHED carries them with an AH, through
 * which a datagram reaches the passive side's QP: 40 bytes of GRH, then
 * the payload, from the active side's QP.
 */
MT_TEST_F(cm, sidr_ud)
{
	static const char msg[] = "a datagram to a service rdma_cm resolved";
	struct rdma_conn_param cp = {
		.private_data = "sidr", .private_data_len = sizeof("sidr"),
	};
	struct cm_res act = {}, pas = {};
	struct ibv_ah *ah = NULL;
	struct cm_listener l = {};
	struct rdma_cm_event *ev;
	uint32_t qpn = 0, qkey = 0;
	struct ibv_wc wc;

	if (!cm_listen(self, &l, RDMA_PS_UDP) ||
	    !cm_resolve(self, &l.addr, RDMA_PS_UDP) ||
	    !cm_res_make(self->id, &act, IBV_QPT_UD) ||
	    !CHECK_ERR(rdma_connect(self->id, &cp) ? errno : 0, 0))
		goto out;
	ev = cm_expect(l.ch, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	if (!ev)
		goto out;
	cm_private(ev->param.ud.private_data,
		   ev->param.ud.private_data_len, "sidr");
	pas.id = ev->id;
	rdma_ack_cm_event(ev);
	if (!cm_res_make(pas.id, &pas, IBV_QPT_UD) || !cm_post_recv(&pas))
		goto out;
	cp.private_data = NULL;
	cp.private_data_len = 0;
	cp.qp_num = pas.id->qp->qp_num;
	if (!CHECK_ERR(rdma_accept(pas.id, &cp) ? errno : 0, 0))
		goto out;
	ev = cm_expect(self->ch, RDMA_CM_EVENT_ESTABLISHED, 0);
	if (!ev)
		goto out;
	qpn = ev->param.ud.qp_num;
	qkey = ev->param.ud.qkey;
	ah = ibv_create_ah(act.pd, &ev->param.ud.ah_attr);
	rdma_ack_cm_event(ev);
	mt_diag("SIDR REP: qpn 0x%x qkey 0x%x", qpn, qkey);
	if (CHECK_EQ(qpn, pas.id->qp->qp_num) && CHECK(ah) &&
	    cm_send(&act, msg, ah, qpn, qkey) && cm_poll(pas.cq, &wc) &&
	    CHECK_EQ(wc.opcode, IBV_WC_RECV) &&
	    CHECK_EQ(wc.byte_len, CM_GRH + sizeof(msg)) &&
	    CHECK_EQ(wc.src_qp, act.id->qp->qp_num))
		CHECK(!strcmp(pas.buf + CM_GRH, msg));
out:
	if (ah)
		CHECK_ERR(ibv_destroy_ah(ah), 0);
	cm_drop_sides(&act, &pas, &l);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(cm, resolve_addr, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, resolve_route, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, resolve_route_udp, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, bind_listen, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, connect_rc, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, connect_reject, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, connect_no_listener, .flags = MT_NEEDS_NETDEV),
	MT_CASE_F(cm, sidr_ud, .flags = MT_NEEDS_NETDEV),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
