// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD multicast between users, each rule tried by an ordinary user
 * (nobody) against root's objects, as ibv_attach_mcast(3) and mlx5_ib's
 * DEVX have it: a process attaches and detaches QPs of its own context
 * only.  By verbs it names a QP by a handle of its own context (ib_uverbs
 * finds no QP of root's there); by a DEVX ATTACH_TO_MCG mailbox naming
 * root's QP number, firmware refuses (bad resource: not the context's
 * QP) and mlx5_ib hands back EREMOTEIO with the mailbox; DETACH_FROM_MCG
 * is no general command (EINVAL), only the destroy of the attachment the
 * DEVX create made.  A datagram to a group reaches the attached QPs of
 * every context, and no QP that is not attached.  The device's group and
 * QP-per-group limits are ENOMEM to verbs (EXCEED_LIM to DEVX), and what
 * a process held is freed when it exits: root then has every group.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_rc.h"
#include "mlx5x_prm.h"
#include "mlx5x_model.h"

#define QKEY		0x33333333U
#define GRH_BYTES	40
#define MC_QPN		0xffffffU
#define LEN		128
#define ROFF		16384		/* the member's receive slot */
#define QUIET_MS	100
/* PRM statuses (MLX5_CMD_STAT_*) */
#define STAT_BAD_PARAM	0x03
#define STAT_BAD_RES	0x05
#define STAT_EXCEED_LIM	0x08
/* attach_to_mcg_in (detach_from_mcg_in is laid out alike) */
#define MCG_QPN		MT_FIELD(0x48, 24)
#define MCG_GID_OFF	0x10
#define MCG_IN_BYTES	0x20
#define MAX_GROUPS	1024	/* more than a case fills */

/*
 * One user's multicast: a context, PD and buffer (in @p), a sender S
 * (p.qp[0]) and a member M (p.qp[1]) on CQs of their own, an AH to the
 * group @mgid.
 */
struct side {
	struct pair p;
	struct ibv_ah *ah;
	union ibv_gid mgid;
};

/* Group @n: ff0e::1:0:n, a global-scope IPv6 multicast address. */
static void group_gid(union ibv_gid *gid, unsigned int n)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0xff;
	gid->raw[1] = 0x0e;
	gid->raw[11] = 1;
	gid->raw[14] = n >> 8;
	gid->raw[15] = n;
}

static int side_open(struct side *s)
{
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1 };
	int rc = pair_mem_open(&s->p, BUF_BYTES);
	unsigned int i;

	if (rc != KSFT_PASS)
		return rc;
	group_gid(&s->mgid, 0);
	for (i = 0; i < 2; i++) {
		s->p.cq[i] = ibv_create_cq(s->p.c.ctx, 16, NULL, NULL, 0);
		if (!CHECK(s->p.cq[i]))
			return KSFT_FAIL;
		s->p.qp[i] = rts_ud_qp(s->p.pd, s->p.cq[i], QKEY, NULL);
		if (!s->p.qp[i] || mt_case_failures())
			return KSFT_FAIL;
	}
	aa.grh.dgid = s->mgid;
	aa.grh.sgid_index = s->p.gid;
	aa.grh.hop_limit = 1;
	s->ah = ibv_create_ah(s->p.pd, &aa);
	return CHECK(s->ah) ? KSFT_PASS : KSFT_FAIL;
}

static void side_close(struct side *s)
{
	if (s->ah)
		CHECK_ERR(ibv_destroy_ah(s->ah), 0);
	/* EINVAL where M is not a member */
	if (s->p.qp[1])
		ibv_detach_mcast(s->p.qp[1], &s->mgid, 0);
	pair_teardown(&s->p);
}

/* M posts a receive into its slot. */
static bool side_recv(struct side *s)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->p.buf + ROFF,
		.length = GRH_BYTES + LEN, .lkey = s->p.mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	memset(s->p.buf + ROFF, 0xee, GRH_BYTES + LEN);
	return CHECK_ERR(ibv_post_recv(s->p.qp[1], &wr, &bad), 0);
}

/* S sends LEN bytes of @seed's pattern to the group; a success. */
static bool side_send(struct side *s, uint8_t seed)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->p.buf, .length = LEN,
		.lkey = s->p.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 2, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { s->ah, MC_QPN, QKEY },
	}, *bad;
	struct ibv_wc wc;

	fill(s->p.buf, LEN, seed);
	return CHECK_ERR(ibv_post_send(s->p.qp[0], &wr, &bad), 0) &&
	       poll_one(s->p.cq[0], &wc) &&
	       mt_wc_is(&wc, 2, IBV_WC_SUCCESS, IBV_WC_SEND);
}

/* M received @seed's datagram, sent to its group, from QP @src. */
static bool side_got(struct side *s, uint8_t seed, uint32_t src)
{
	const uint8_t *slot = s->p.buf + ROFF;
	uint8_t want[LEN];
	struct ibv_wc wc;

	if (!poll_one(s->p.cq[1], &wc) ||
	    !mt_wc_is(&wc, 1, IBV_WC_SUCCESS, IBV_WC_RECV))
		return false;
	fill(want, LEN, seed);
	/* RoCE v2 over IPv6: the destination at bytes 24..39 of the GRH */
	return CHECK_EQ(wc.byte_len, GRH_BYTES + LEN) &
	       CHECK_EQ(wc.src_qp, src) &
	       CHECK(!memcmp(slot + GRH_BYTES, want, LEN)) &
	       CHECK(!memcmp(slot + 24, s->mgid.raw, 16));
}

/* Nothing completes on M's CQ within QUIET_MS. */
static bool side_quiet(struct side *s)
{
	struct ibv_wc wc;

	usleep(QUIET_MS * 1000);
	return CHECK_EQ(ibv_poll_cq(s->p.cq[1], 1, &wc), 0);
}

/* An ATTACH_TO_MCG (or DETACH_FROM_MCG) mailbox of QP @qpn, @gid. */
static void mcg_in(uint32_t *in, uint16_t op, uint32_t qpn,
		   const union ibv_gid *gid)
{
	memset(in, 0, MCG_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, op);
	mt_set(in, MCG_QPN, qpn);
	memcpy((uint8_t *)in + MCG_GID_OFF, gid->raw, 16);
}

/*
 * The DEVX attachment of QP @qpn to @gid; NULL with errno set, the
 * status and syndrome in @out, when it is refused.
 */
static struct mlx5dv_devx_obj *devx_attach(struct ibv_context *ctx,
					   uint32_t qpn,
					   const union ibv_gid *gid,
					   uint32_t *out)
{
	uint32_t in[MCG_IN_BYTES / 4];

	mcg_in(in, PRM_OP_ATTACH_TO_MCG, qpn, gid);
	memset(out, 0, 16);
	errno = 0;
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, 16);
}

/*
 * A DEVX attachment firmware refuses: EREMOTEIO, and on the model
 * (@sim, known before the drop) its status and syndrome.
 */
static void devx_refused(struct ibv_context *ctx, uint32_t qpn,
			 const union ibv_gid *gid, bool sim, uint32_t status,
			 uint32_t syndrome)
{
	struct mlx5dv_devx_obj *o;
	uint32_t out[4];

	o = devx_attach(ctx, qpn, gid, out);
	if (!CHECK(!o)) {
		mlx5dv_devx_obj_destroy(o);
		return;
	}
	CHECK_ERR(errno, EREMOTEIO);
	CHECK_EQ(mt_get(out, PRM_OUT_STATUS), status);
	if (sim)
		CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), syndrome);
}

/* Root's side, and what the child is told: whether this is the model. */
struct victim {
	struct side s;
	bool sim;
};

MT_FIXTURE(victim);

MT_FIXTURE_SETUP(victim)
{
	self->sim = mt_sim();
	return side_open(&self->s);
}

MT_FIXTURE_TEARDOWN(victim)
{
	side_close(&self->s);
}

/*
 * Verbs, in nobody's own context: root's M by its handle (a copy of
 * root's ibv_qp, in the child's memory since the fork, pointed at the
 * child's context) names no QP there: attach and detach fail and change
 * nothing of root's.
 */
static int verbs_foreign(void *arg)
{
	struct victim *v = arg;
	struct ibv_context *ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	struct ibv_cq *cq = ctx ? ibv_create_cq(ctx, 4, NULL, NULL, 0) : NULL;
	struct ibv_qp fake;

	if (!CHECK(pd) || !CHECK(cq))
		goto out;
	fake = *v->s.p.qp[1];
	fake.context = ctx;
	fake.pd = pd;
	fake.send_cq = cq;
	fake.recv_cq = cq;
	errno = 0;
	CHECK(ibv_attach_mcast(&fake, &v->s.mgid, 0));
	if (!CHECK(errno == EINVAL || errno == ENOENT))
		mt_diag("attach: errno %d", errno);
	errno = 0;
	CHECK(ibv_detach_mcast(&fake, &v->s.mgid, 0));
	if (!CHECK(errno == EINVAL || errno == ENOENT))
		mt_diag("detach: errno %d", errno);
out:
	if (cq)
		CHECK_ERR(ibv_destroy_cq(cq), 0);
	if (pd)
		CHECK_ERR(ibv_dealloc_pd(pd), 0);
	if (ctx)
		CHECK_ERR(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

MT_TEST_F(victim, verbs_foreign_qp)
{
	struct side *s = &self->s;

	/* root's M not attached: nobody's attach made it no member */
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, verbs_foreign, self), KSFT_PASS);
	if (side_recv(s) && side_send(s, 1))
		side_quiet(s);
	errno = 0;
	CHECK(ibv_detach_mcast(s->p.qp[1], &s->mgid, 0));
	CHECK_ERR(errno, EINVAL);
	/* attached: nobody's detach left it a member */
	if (!CHECK_ERR(ibv_attach_mcast(s->p.qp[1], &s->mgid, 0), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, verbs_foreign, self), KSFT_PASS);
	if (side_send(s, 2))
		side_got(s, 2, s->p.qp[0]->qp_num);
	return KSFT_PASS;
}

/*
 * DEVX, in nobody's own context: ATTACH_TO_MCG naming root's M is
 * firmware's to refuse (a bad resource: no QP of this context); as a
 * general command, neither it nor DETACH_FROM_MCG is allowed (EINVAL).
 */
static int devx_foreign(void *arg)
{
	uint32_t in[MCG_IN_BYTES / 4], out[4];
	struct victim *v = arg;
	uint32_t qpn = v->s.p.qp[1]->qp_num;
	struct ibv_context *ctx = mt_open(MT_OPEN_DEVX, NULL);

	if (!CHECK(ctx))
		return KSFT_FAIL;
	devx_refused(ctx, qpn, &v->s.mgid, v->sim, STAT_BAD_RES,
		     SYND_NOT_OWNER);
	mcg_in(in, PRM_OP_DETACH_FROM_MCG, qpn, &v->s.mgid);
	CHECK_ERR(mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out,
					  sizeof(out)), EINVAL);
	mcg_in(in, PRM_OP_ATTACH_TO_MCG, qpn, &v->s.mgid);
	CHECK_ERR(mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out,
					  sizeof(out)), EINVAL);
	CHECK_ERR(ibv_close_device(ctx), 0);
	return KSFT_PASS;
}

MT_TEST_F(victim, devx_foreign_qp)
{
	struct side *s = &self->s;

	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, devx_foreign, self), KSFT_PASS);
	if (side_recv(s) && side_send(s, 3))
		side_quiet(s);
	/* not a member, so not one twice: root attaches it */
	if (!CHECK_ERR(ibv_attach_mcast(s->p.qp[1], &s->mgid, 0), 0))
		return KSFT_FAIL;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, devx_foreign, self), KSFT_PASS);
	if (side_send(s, 4))
		side_got(s, 4, s->p.qp[0]->qp_num);
	return KSFT_PASS;
}

/*
 * DEVX on nobody's own QP: the attachment is a member until it is
 * destroyed (DETACH_FROM_MCG); twice is a bad parameter; a short mailbox
 * is the kernel's to refuse.  A QP destroyed while attached leaves the
 * group by itself, and its attachment is destroyed all the same; one
 * left at exit goes with the context.
 */
static int devx_own(void *arg)
{
	struct victim *v = arg;
	struct mlx5dv_devx_obj *o;
	uint32_t in[MCG_IN_BYTES / 4], out[4], qpn;
	struct side a = {};
	struct ibv_qp *m;
	int rc = side_open(&a);

	if (rc != KSFT_PASS)
		goto out;
	qpn = a.p.qp[1]->qp_num;
	mcg_in(in, PRM_OP_ATTACH_TO_MCG, qpn, &a.mgid);
	errno = 0;
	CHECK(!mlx5dv_devx_obj_create(a.p.c.ctx, in, 16, out, 16));
	CHECK_ERR(errno, EINVAL);

	o = devx_attach(a.p.c.ctx, qpn, &a.mgid, out);
	if (!CHECK(o))
		goto out;
	devx_refused(a.p.c.ctx, qpn, &a.mgid, v->sim, STAT_BAD_PARAM,
		     SYND_DUP_MATCH);
	if (side_recv(&a) && side_send(&a, 5))
		side_got(&a, 5, a.p.qp[0]->qp_num);
	CHECK_ERR(mlx5dv_devx_obj_destroy(o), 0);
	if (side_recv(&a) && side_send(&a, 6))
		side_quiet(&a);

	/* attached, then its QP destroyed (ib_core knows of no attachment) */
	m = rts_ud_qp(a.p.pd, a.p.cq[1], QKEY, NULL);
	if (!m)
		goto out;
	o = devx_attach(a.p.c.ctx, m->qp_num, &a.mgid, out);
	CHECK_ERR(ibv_destroy_qp(m), 0);
	if (CHECK(o))
		CHECK_ERR(mlx5dv_devx_obj_destroy(o), 0);
	/* and one left for the context's close */
	CHECK(devx_attach(a.p.c.ctx, qpn, &a.mgid, out));
out:
	side_close(&a);
	return rc;
}

MT_TEST_F(victim, devx_own_qp)
{
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, devx_own, self), KSFT_PASS);
	return KSFT_PASS;
}

/*
 * Nobody sends to root's group, which root's M joined; nobody's own M,
 * of the same Q_Key with a receive posted but not attached, gets nothing.
 * (@qpn: nobody's sender, for the parent's check.)
 */
struct crossing {
	struct victim *v;
	uint32_t *qpn;
};

static int send_to_group(void *arg)
{
	struct crossing *x = arg;
	struct side a = {};
	int rc = side_open(&a);

	if (rc != KSFT_PASS)
		goto out;
	*x->qpn = a.p.qp[0]->qp_num;
	if (side_recv(&a) && side_send(&a, 7))
		side_quiet(&a);
out:
	side_close(&a);
	return rc;
}

MT_TEST_F(victim, unattached_gets_nothing)
{
	struct crossing x = { self, mmap(NULL, MT_PAGE, PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0) };
	struct side *s = &self->s;

	if (!CHECK(x.qpn != MAP_FAILED) ||
	    !CHECK_ERR(ibv_attach_mcast(s->p.qp[1], &s->mgid, 0), 0) ||
	    !side_recv(s))
		return KSFT_FAIL;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, send_to_group, &x), KSFT_PASS);
	/* a group is joined by GID: root's member got nobody's datagram */
	side_got(s, 7, *x.qpn);
	munmap(x.qpn, MT_PAGE);
	return KSFT_PASS;
}

/*
 * The limits, as nobody: M joins as many groups as the device says, the
 * next is ENOMEM (verbs) or EXCEED_LIM (DEVX, once one is free again);
 * a group takes as many QPs as the device says, the next is ENOMEM.  All
 * left for the process's exit.
 */
static int fill_limits(void *arg)
{
	struct victim *v = arg;
	struct ibv_device_attr da;
	struct ibv_qp *q[64] = {};
	union ibv_gid gid;
	struct side a = {};
	uint32_t out[4];
	unsigned int i;
	int rc = side_open(&a);

	if (rc != KSFT_PASS ||
	    !CHECK_ERR(ibv_query_device(a.p.c.ctx, &da), 0))
		return KSFT_FAIL;
	if (da.max_mcast_grp > MAX_GROUPS || da.max_mcast_qp_attach > 64)
		return mt_skip("%d groups of %d QPs: too many to fill here",
			       da.max_mcast_grp, da.max_mcast_qp_attach);
	for (i = 0; i < (unsigned int)da.max_mcast_grp; i++) {
		group_gid(&gid, i);
		if (!CHECK_ERR(ibv_attach_mcast(a.p.qp[1], &gid, 0), 0)) {
			mt_diag("group %u of %d refused", i + 1,
				da.max_mcast_grp);
			return KSFT_FAIL;
		}
	}
	group_gid(&gid, i);
	errno = 0;
	CHECK(ibv_attach_mcast(a.p.qp[1], &gid, 0));
	CHECK_ERR(errno, ENOMEM);
	devx_refused(a.p.c.ctx, a.p.qp[1]->qp_num, &gid, v->sim,
		     STAT_EXCEED_LIM, SYND_EXHAUSTED);
	/* one group free again: DEVX takes it */
	group_gid(&gid, 0);
	CHECK_ERR(ibv_detach_mcast(a.p.qp[1], &gid, 0), 0);
	CHECK(devx_attach(a.p.c.ctx, a.p.qp[1]->qp_num, &gid, out));

	/* group 1 has M: the device's count of QPs less one join it */
	group_gid(&gid, 1);
	for (i = 0; i < (unsigned int)da.max_mcast_qp_attach; i++) {
		q[i] = rts_ud_qp(a.p.pd, a.p.cq[1], QKEY, NULL);
		if (!q[i])
			return KSFT_FAIL;
		errno = 0;
		if (i + 1 < (unsigned int)da.max_mcast_qp_attach) {
			CHECK_ERR(ibv_attach_mcast(q[i], &gid, 0), 0);
		} else {
			CHECK(ibv_attach_mcast(q[i], &gid, 0));
			CHECK_ERR(errno, ENOMEM);
		}
	}
	/* everything left to the exit: ib_core detaches and destroys */
	return KSFT_PASS;
}

MT_TEST_F(victim, limits_freed_at_exit)
{
	struct side *s = &self->s;
	struct ibv_device_attr da;
	union ibv_gid gid;
	unsigned int i, n;

	if (!CHECK_ERR(ibv_query_device(s->p.c.ctx, &da), 0))
		return KSFT_FAIL;
	if (da.max_mcast_grp > MAX_GROUPS)
		return mt_skip("%d groups: too many to fill here",
			       da.max_mcast_grp);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, fill_limits, self), KSFT_PASS);
	/* nobody's groups went with it: root has every one */
	for (n = 0; n < (unsigned int)da.max_mcast_grp; n++) {
		group_gid(&gid, n);
		if (!CHECK_ERR(ibv_attach_mcast(s->p.qp[1], &gid, 0), 0)) {
			mt_diag("group %u of %d refused", n + 1,
				da.max_mcast_grp);
			break;
		}
	}
	group_gid(&gid, n);
	errno = 0;
	CHECK(ibv_attach_mcast(s->p.qp[1], &gid, 0));
	CHECK_ERR(errno, ENOMEM);
	for (i = 0; i < n; i++) {
		group_gid(&gid, i);
		CHECK_ERR(ibv_detach_mcast(s->p.qp[1], &gid, 0), 0);
	}
	return KSFT_PASS;
}

/* Every case drops from root to nobody. */
static const struct mt_case cases[] = {
	MT_CASE_F(victim, verbs_foreign_qp, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, devx_foreign_qp, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, devx_own_qp, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, unattached_gets_nothing, .flags = MT_NEEDS_ROOT),
	MT_CASE_F(victim, limits_freed_at_exit, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
