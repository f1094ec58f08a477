// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Isolation between users, and the capability checks, as processes that
 * are not root: each case forks children that drop to uid 1000 or 1001
 * (no capabilities, or only those named) before they open the device.
 *
 * One context cannot see or touch another's objects through any method:
 * DEVX query/modify naming the other's ids with its own handles, the
 * general command naming them (queries and destroys), creates that
 * reference the other's UMEM, CQ or PD, a QP counting in the other's Q
 * counter set, mmap offsets the other was given, completions on the
 * other's async FD, events of the other's objects; and mlx5x's debugfs
 * is root's only.  The capability checks
 * are upstream's: CAP_NET_RAW for RAW_PACKET QPs, ibv_create_flow,
 * mlx5dv_create_flow and steering anchors, CAP_SYS_RAWIO and CAP_NET_RAW
 * for SW ICM device memory, each EPERM without and accepted with.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"
#include "mlx5x_queues.h"

#define UID_OWNER	1000
#define UID_OTHER	1001

#define QC_QUERY_ID		PRM_QUERY_Q_COUNTER_IN_COUNTER_SET_ID
#define QC_OUT_ID		PRM_ALLOC_Q_COUNTER_OUT_COUNTER_SET_ID
#define EV_COMP			0x00
#define EV_CQ_ERROR		0x04
#define EXTRA_UARS		3

/* What the owner tells the other process. */
struct ids {
	uint32_t pd, cqn, qpn, qc, umem, eqn, uar_page;
	off_t uar_off;		/* of the owner's last UAR */
	bool sim;		/* UAR pages are memory: MAGIC written */
};

/* Written by the owner into its UAR page where the model has memory. */
#define MAGIC		0x6d6c7835786f776eULL
#define MAGIC_OFF	0xf00

/* The 64 bits at MAGIC_OFF of a mapped page, read once. */
static uint64_t load64(void *map)
{
	return __atomic_load_n((uint64_t *)((char *)map + MAGIC_OFF),
			       __ATOMIC_RELAXED);
}

static int pipe_read(int fd, void *p, size_t n)
{
	return read(fd, p, n) == (ssize_t)n ? 0 : -1;
}

static int pipe_write(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n ? 0 : -1;
}

/* No event and no completion arrives on @fd within 200 ms. */
static bool quiet(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 200) == 0;
}

static bool alloc_qc(struct mq *q, struct mq_obj *o)
{
	uint32_t in[4] = {}, out[4] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_ALLOC_Q_COUNTER);
	o->obj = mlx5dv_devx_obj_create(q->ctx, in, sizeof(in), out,
					sizeof(out));
	o->id = o->obj ? mt_get(out, QC_OUT_ID) : 0;
	return CHECK(o->obj);
}

static int query_qc(struct mq_obj *o, uint32_t id)
{
	uint32_t in[8] = {}, out[64] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_Q_COUNTER);
	mt_set(in, QC_QUERY_ID, id);
	return mlx5dv_devx_obj_query(o->obj, in, sizeof(in), out, sizeof(out));
}

/* RST2INIT of DEVX QP @qp, counting in Q counter set @qc. */
static int qp_count_in(struct mq_obj *qp, uint32_t qc)
{
	uint32_t in[PRM_RST2INIT_QP_IN_BYTES / 4] = {}, out[4];

	mt_set(in, PRM_IN_OPCODE, PRM_OP_RST2INIT_QP);
	mt_set(in, PRM_RST2INIT_QP_IN_QPN, qp->id);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_PRIMARY_ADDRESS_PATH_VHCA_PORT_NUM, 1);
	mt_set(in, PRM_RST2INIT_QP_IN_QPC_COUNTER_SET_ID, qc);
	return mlx5dv_devx_obj_modify(qp->obj, in, sizeof(in), out,
				      sizeof(out));
}

/*
 * The other process: its own context and objects, and every way of
 * naming the owner's.  Each refusal counted; 0 when all held.
 */
static int other_attacks(const struct ids *v, int go_fd, int ready_fd)
{
	uint32_t in[PRM_CREATE_QP_IN_BYTES / 4], out[PRM_QUERY_CQ_OUT_BYTES / 4];
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5dv_devx_cmd_comp *comp;
	struct mq_obj cq, qc, qp;
	uint16_t evs[] = { EV_COMP, EV_CQ_ERROR };
	long page = sysconf(_SC_PAGESIZE);
	int bad = 0;
	struct mq q;
	void *map;
	char c;

	if (!mq_open(&q) || !mq_cq(&q, &cq) || !alloc_qc(&q, &qc))
		return 10;

	/* its own handles, the owner's ids: the kernel refuses */
	bad += !CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_CQ, v->cqn, out,
				   sizeof(out)),
			  EINVAL);
	bad += !CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_QP, v->qpn, out,
				   sizeof(out)),
			  EINVAL);
	bad += !CHECK_ERR(query_qc(&qc, v->qc), EINVAL);
	/* and its own ids still answer: the refusals are about ownership */
	bad += !CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_CQ, cq.id, out,
				   sizeof(out)),
			  0);
	bad += !CHECK_ERR(query_qc(&qc, qc.id), 0);
	memset(in, 0, PRM_MODIFY_CQ_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_MODIFY_CQ);
	mt_set(in, PRM_MODIFY_CQ_IN_CQN, v->cqn);
	bad += !CHECK_ERR(mlx5dv_devx_obj_modify(cq.obj, in,
						 PRM_MODIFY_CQ_IN_BYTES, out,
						 16), EINVAL);

	/* the general command names no object */
	memset(in, 0, 16);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_CQ);
	mt_set(in, IN_ID, v->cqn);
	bad += !CHECK_ERR(mlx5dv_devx_general_cmd(q.ctx, in, 16, out,
						  sizeof(out)), EINVAL);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_DESTROY_CQ);
	bad += !CHECK_ERR(mlx5dv_devx_general_cmd(q.ctx, in, 16, out, 16),
			  EINVAL);

	/* creates referencing the owner's UMEM, CQ, PD: firmware refuses */
	mq_cq_in(&q, in);
	mt_set(in, CQ_UMEM_ID, v->umem);
	errno = 0;
	bad += !CHECK(!mlx5dv_devx_obj_create(q.ctx, in,
					      PRM_CREATE_CQ_IN_BYTES, out, 16));
	bad += !CHECK_ERR(errno, EREMOTEIO);
	mq_qp_in(&q, in, v->cqn);
	errno = 0;
	bad += !CHECK(!mlx5dv_devx_obj_create(q.ctx, in, sizeof(in), out, 16));
	bad += !CHECK_ERR(errno, EREMOTEIO);
	mq_qp_in(&q, in, cq.id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_PD, v->pd);
	errno = 0;
	bad += !CHECK(!mlx5dv_devx_obj_create(q.ctx, in, sizeof(in), out, 16));
	bad += !CHECK_ERR(errno, EREMOTEIO);
	/*
	 * with its own, the same QP is made; it counts in a Q counter set
	 * of its own, never in the owner's (firmware refuses the transition)
	 */
	if (CHECK(mq_qp(&q, cq.id, &qp))) {
		bad += !CHECK_ERR(qp_count_in(&qp, v->qc), EREMOTEIO);
		bad += !CHECK_ERR(qp_count_in(&qp, qc.id), 0);
		mlx5dv_devx_obj_destroy(qp.obj);
	} else {
		bad++;
	}

	/*
	 * The owner's mmap offset, on this context, is this context's own
	 * (an entry of its own at that offset) or nothing: never the
	 * owner's page, whose MAGIC the model lets us look for.
	 */
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, q.ctx->cmd_fd,
		   v->uar_off);
	if (map != MAP_FAILED) {
		if (v->sim)
			bad += !CHECK(load64(map) != MAGIC);
		munmap(map, page);
	}
	map = mmap(NULL, page, PROT_WRITE, MAP_SHARED, q.ctx->cmd_fd,
		   q.uar->mmap_off);
	bad += !CHECK(map != MAP_FAILED);
	if (map != MAP_FAILED)
		munmap(map, page);

	/* nothing of the owner's reaches its async FD or its events */
	comp = mlx5dv_devx_create_cmd_comp(q.ctx);
	ch = mlx5dv_devx_create_event_channel(q.ctx, 0);
	if (!CHECK(comp) || !CHECK(ch))
		return 12;
	bad += !CHECK_ERR(mlx5dv_devx_subscribe_devx_event(ch, cq.obj,
							   sizeof(evs), evs,
							   1), 0);
	c = 'r';
	if (pipe_write(ready_fd, &c, 1) || pipe_read(go_fd, &c, 1))
		return 13;
	bad += !CHECK(quiet(comp->fd));
	bad += !CHECK(quiet(ch->fd));
	mlx5dv_devx_destroy_event_channel(ch);
	mlx5dv_devx_destroy_cmd_comp(comp);
	mlx5dv_devx_obj_destroy(qc.obj);
	mlx5dv_devx_obj_destroy(cq.obj);
	mq_close(&q);
	return bad ? 1 : 0;
}

/* The owner: objects, extra UARs, an async query left unread, events. */
static int owner_run(int ids_fd, int go_fd, bool events)
{
	struct mlx5dv_devx_uar *uars[EXTRA_UARS] = {};
	struct mlx5dv_devx_async_cmd_hdr *resp;
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5dv_devx_cmd_comp *comp;
	uint32_t in[4] = {}, out[PRM_QUERY_CQ_OUT_BYTES / 4];
	uint16_t ev = EV_CQ_ERROR;
	long page = sysconf(_SC_PAGESIZE);
	struct mq_obj cq, qp, qc;
	void *map = MAP_FAILED;
	struct ids v = {};
	int bad = 0, i;
	struct mq q;
	char c;

	if (!mq_open(&q) || !mq_cq(&q, &cq) || !mq_qp(&q, cq.id, &qp) ||
	    !alloc_qc(&q, &qc))
		return 20;
	for (i = 0; i < EXTRA_UARS; i++) {
		uars[i] = mlx5dv_devx_alloc_uar(q.ctx,
						MLX5DV_UAR_ALLOC_TYPE_NC);
		if (!CHECK(uars[i]))
			return 22;
	}
	comp = mlx5dv_devx_create_cmd_comp(q.ctx);
	ch = mlx5dv_devx_create_event_channel(q.ctx, 0);
	if (!CHECK(comp) || !CHECK(ch) ||
	    !CHECK_ERR(mlx5dv_devx_subscribe_devx_event(ch, cq.obj,
							sizeof(ev), &ev, 7), 0))
		return 23;
	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_CQ);
	mt_set(in, IN_ID, cq.id);
	if (!CHECK_ERR(mlx5dv_devx_obj_query_async(cq.obj, in, sizeof(in),
						   sizeof(out), 42, comp), 0))
		return 24;

	v.pd = q.pd;
	v.cqn = cq.id;
	v.qpn = qp.id;
	v.qc = qc.id;
	v.umem = q.umem->umem_id;
	v.eqn = q.eqn;
	v.uar_off = uars[EXTRA_UARS - 1]->mmap_off;
	v.sim = events;
	if (events) {
		map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED,
			   q.ctx->cmd_fd, v.uar_off);
		if (!CHECK(map != MAP_FAILED))
			return 27;
		__atomic_store_n((uint64_t *)((char *)map + MAGIC_OFF), MAGIC,
				 __ATOMIC_RELAXED);
	}
	if (pipe_write(ids_fd, &v, sizeof(v)) || pipe_read(go_fd, &c, 1))
		return 25;

	/* everything is still there and still the owner's */
	bad += !CHECK_ERR(mq_query(&cq, PRM_OP_QUERY_CQ, cq.id, out,
				   sizeof(out)),
			  0);
	bad += !CHECK_ERR(mq_query(&qp, PRM_OP_QUERY_QP, qp.id, out,
				   sizeof(out)),
			  0);
	bad += !CHECK_ERR(query_qc(&qc, qc.id), 0);
	/* its completion came to its own FD */
	resp = calloc(1, sizeof(*resp) + sizeof(out));
	if (!resp)
		return 26;
	bad += !CHECK_ERR(mlx5dv_devx_get_async_cmd_comp(comp, resp,
							 sizeof(*resp) +
							 sizeof(out)), 0);
	bad += !CHECK_EQ(resp->wr_id, 42);
	free(resp);
	/* and the event raised on its CQ to its own channel */
	if (events) {
		struct mlx5dv_devx_async_event_hdr *eh;
		char buf[sizeof(*eh) + 64];

		eh = (void *)buf;
		/* no event (nobody raised it): reading would block for ever */
		if (CHECK(!quiet(ch->fd))) {
			bad += !CHECK_EQ(mlx5dv_devx_get_event(ch, eh,
							       sizeof(buf)),
					 sizeof(buf));
			bad += !CHECK_EQ(eh->cookie, 7);
		} else {
			bad++;
		}
	}
	if (map != MAP_FAILED) {
		/* still ours, as written */
		bad += !CHECK_EQ(load64(map), MAGIC);
		munmap(map, page);
	}
	mlx5dv_devx_destroy_event_channel(ch);
	mlx5dv_devx_destroy_cmd_comp(comp);
	for (i = 0; i < EXTRA_UARS; i++)
		mlx5dv_devx_free_uar(uars[i]);
	mlx5dv_devx_obj_destroy(qc.obj);
	mlx5dv_devx_obj_destroy(qp.obj);
	mlx5dv_devx_obj_destroy(cq.obj);
	mq_close(&q);
	return bad ? 1 : 0;
}

/* Close up to six descriptors; -1 stands for none. */
static void close_fds(int a, int b, int c, int d, int e, int f)
{
	int fds[] = { a, b, c, d, e, f };
	unsigned int i;

	for (i = 0; i < MT_ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * uid 1000 makes objects; uid 1001 names them every way it can.  The
 * model (when there) raises a CQ error on the owner's CQ meanwhile.
 */
static int test_objects_of_another_user(void)
{
	int ids[2], ready[2], go_owner[2], go_other[2];
	bool events = mt_sim();
	pid_t owner, other;
	struct ids v;
	char c = 'g', line[64];

	if (!CHECK(!pipe(ids)) || !CHECK(!pipe(ready)) ||
	    !CHECK(!pipe(go_owner)) || !CHECK(!pipe(go_other)))
		return KSFT_FAIL;
	/*
	 * Each process keeps only the ends it uses, so that a child that
	 * gives up early is an end of file to the one waiting on it.
	 */
	fflush(stdout);
	owner = mt_fork();
	if (owner == 0) {
		int rc;

		close_fds(ids[0], ready[0], ready[1], go_owner[1], go_other[0],
			  go_other[1]);
		rc = mt_drop_to(UID_OWNER, 0) ?
		     owner_run(ids[1], go_owner[0], events) : 100;
		fflush(stdout);
		_exit(rc);
	}
	close(ids[1]);
	if (!CHECK(owner > 0) || !CHECK(!pipe_read(ids[0], &v, sizeof(v))))
		goto out;
	other = mt_fork();
	if (other == 0) {
		int rc;

		close_fds(ids[0], ready[0], go_owner[0], go_owner[1],
			  go_other[1], -1);
		rc = mt_drop_to(UID_OTHER, 0) ?
		     other_attacks(&v, go_other[0], ready[1]) : 100;
		fflush(stdout);
		_exit(rc);
	}
	close(ready[1]);
	ready[1] = -1;
	if (CHECK(other > 0) && CHECK(!pipe_read(ready[0], &c, 1)) && events) {
		snprintf(line, sizeof(line), "0x%x cq 0x%x", EV_CQ_ERROR,
			 v.cqn);
		CHECK_ERR(mt_fw_write("raise_event", line), 0);
		snprintf(line, sizeof(line), "0x%x cq 0x%x", EV_COMP, v.cqn);
		CHECK_ERR(mt_fw_write("raise_event", line), 0);
	}
	c = 'g';
	CHECK(!pipe_write(go_other[1], &c, 1));
	CHECK_EQ(mt_reap(other), 0);
out:
	CHECK(!pipe_write(go_owner[1], &c, 1));
	CHECK_EQ(mt_reap(owner), 0);
	close_fds(ids[0], ready[0], ready[1], go_owner[0], go_owner[1], -1);
	close_fds(go_other[0], go_other[1], -1, -1, -1, -1);
	return KSFT_PASS;
}

/* Every file of mlx5x's debugfs: mode 0?00, and closed to a user. */
static int open_each(void *arg)
{
	const char *paths = arg;
	int bad = 0;

	for (; *paths; paths += strlen(paths) + 1) {
		int fd = open(paths, O_RDONLY);

		if (fd >= 0) {
			mt_diag("%s opened by uid %d", paths, getuid());
			close(fd);
			bad++;
		} else if (errno != EACCES) {
			mt_diag("%s: %s", paths, strerror(errno));
			bad++;
		}
	}
	return bad ? 1 : 0;
}

static void walk(const char *dir, char **list, size_t *len, int *n, int *bad)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char path[512];
		struct stat st;
		size_t l;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(path, list, len, n, bad);
			continue;
		}
		if (st.st_mode & 0077) {
			mt_diag("%s has mode %o", path, st.st_mode & 07777);
			(*bad)++;
		}
		l = strlen(path) + 1;
		*list = realloc(*list, *len + l + 1);
		if (!*list)
			return;
		memcpy(*list + *len, path, l);
		*len += l;
		(*list)[*len] = '\0';
		(*n)++;
	}
	closedir(dp);
}

static int test_debugfs_root_only(void)
{
	char *list = NULL;
	size_t len = 0;
	int n = 0, bad = 0;

	if (access("/sys/kernel/debug/mlx5x", R_OK))
		return mt_skip("no /sys/kernel/debug/mlx5x");
	walk("/sys/kernel/debug/mlx5x", &list, &len, &n, &bad);
	if (!CHECK(list) || !CHECK(n > 0))
		return KSFT_FAIL;
	mt_diag("%d debugfs files", n);
	CHECK_EQ(bad, 0);
	CHECK_EQ(mt_run_as(UID_OWNER, 0, open_each, list), 0);
	free(list);
	return KSFT_PASS;
}

/* A QP of @type (an enum ibv_qp_type) on @e's PD and CQ, or NULL. */
static struct ibv_qp *qp_of(struct mt_verbs_env *e, void *type)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.qp_type = (enum ibv_qp_type)(long)type,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ibv_create_qp(e->pd, &attr);
}

/* A verbs CQ and PD, and a QP of @arg's type on them: errno of the QP. */
static int verbs_qp(void *arg)
{
	struct mt_verbs_env e;
	struct ibv_qp *qp;
	int err;

	if (!mt_verbs_env_open(&e, MT_OPEN_DEVX))
		return 90;
	qp = qp_of(&e, arg);
	err = qp ? 0 : errno;
	if (qp)
		ibv_destroy_qp(qp);
	mt_verbs_env_close(&e);
	return err;
}

static int test_raw_packet_qp_needs_net_raw(void)
{
	void *raw = (void *)(long)IBV_QPT_RAW_PACKET;

	CHECK_ERR(mt_run_as(UID_OWNER, 0, verbs_qp, raw), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_SYS_RAWIO), verbs_qp,
				    raw), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_NET_RAW), verbs_qp, raw), 0);
	/* an RC QP needs nothing */
	CHECK_ERR(mt_run_as(UID_OWNER, 0, verbs_qp, (void *)(long)IBV_QPT_RC),
		  0);
	return KSFT_PASS;
}

/* ibv_create_flow(3) on a QP of @arg's type: errno. */
static int verbs_flow(void *arg)
{
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_eth eth;
	} f = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL, .size = sizeof(f),
			  .num_of_specs = 1, .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH,
			 .size = sizeof(struct ibv_flow_spec_eth),
			 .val.dst_mac = { 2, 0, 0, 0, 0, 1 },
			 .mask.dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff } },
	};
	struct mt_verbs_env e;
	struct ibv_flow *flow;
	struct ibv_qp *qp;
	int err;

	if (!mt_verbs_env_open(&e, MT_OPEN_DEVX))
		return 90;
	qp = qp_of(&e, arg);
	if (!qp)
		return 92;
	flow = ibv_create_flow(qp, &f.attr);
	err = flow ? 0 : errno;
	if (flow)
		ibv_destroy_flow(flow);
	ibv_destroy_qp(qp);
	mt_verbs_env_close(&e);
	return err;
}

static int test_create_flow_needs_net_raw(void)
{
	int with;

	with = mt_run_as(UID_OWNER, MT_CAP(CAP_NET_RAW), verbs_flow,
		      (void *)(long)IBV_QPT_RAW_PACKET);
	/* ib_core refuses before the QP is looked at */
	CHECK_ERR(mt_run_as(UID_OWNER, 0, verbs_flow, (void *)(long)IBV_QPT_RC),
		  with == EOPNOTSUPP ? with : EPERM);
	if (with == EOPNOTSUPP)
		return mt_skip("the device has no ibv_create_flow");
	CHECK_ERR(with, 0);
	return KSFT_PASS;
}

/*
 * mlx5dv_create_flow(3) of a drop rule on TCP port 7 through a matcher of
 * NIC RX: errno of the flow (the matcher needs no capability).
 */
static int dv_flow(void *unused)
{
	struct mlx5dv_flow_action_attr drop = {
		.type = MLX5DV_FLOW_ACTION_DROP,
	};
	struct ibv_context *ctx = mt_open(MT_OPEN_DEVX, NULL);
	struct mlx5dv_flow_match_parameters *mask, *val;
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.match_criteria_enable = 1,	/* outer headers */
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};
	struct mlx5dv_flow_matcher *m = NULL;
	struct ibv_flow *f = NULL;
	int err = 91;

	(void)unused;
	if (!ctx)
		return 90;
	mask = calloc(1, sizeof(*mask) + PRM_FTE_MATCH_PARAM_BYTES);
	val = calloc(1, sizeof(*val) + PRM_FTE_MATCH_PARAM_BYTES);
	if (mask && val) {
		mask->match_sz = PRM_FTE_MATCH_PARAM_BYTES;
		val->match_sz = PRM_FTE_MATCH_PARAM_BYTES;
		mt_set(mask->match_buf,
		       PRM_FTE_MATCH_PARAM_OUTER_HEADERS_TCP_DPORT, 0xffff);
		mt_set(val->match_buf,
		       PRM_FTE_MATCH_PARAM_OUTER_HEADERS_TCP_DPORT, 7);
		attr.match_mask = mask;
		m = mlx5dv_create_flow_matcher(ctx, &attr);
	}
	if (m) {
		f = mlx5dv_create_flow(m, val, 1, &drop);
		err = f ? 0 : errno;
	}
	if (f)
		ibv_destroy_flow(f);
	if (m)
		mlx5dv_destroy_flow_matcher(m);
	free(mask);
	free(val);
	ibv_close_device(ctx);
	return err;
}

static int test_dv_create_flow_needs_net_raw(void)
{
	CHECK_ERR(mt_run_as(UID_OWNER, 0, dv_flow, NULL), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_SYS_RAWIO), dv_flow,
				    NULL), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_NET_RAW), dv_flow, NULL), 0);
	return KSFT_PASS;
}

static int anchor(void *unused)
{
	struct mlx5dv_steering_anchor_attr attr = {
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
		.priority = 0,
	};
	struct ibv_context *ctx = mt_open(MT_OPEN_DEVX, NULL);
	struct mlx5dv_steering_anchor *sa;
	int err;

	(void)unused;
	if (!ctx)
		return 90;
	sa = mlx5dv_create_steering_anchor(ctx, &attr);
	err = sa ? 0 : errno;
	if (sa)
		mlx5dv_destroy_steering_anchor(sa);
	ibv_close_device(ctx);
	return err;
}

static int test_steering_anchor_needs_net_raw(void)
{
	CHECK_ERR(mt_run_as(UID_OWNER, 0, anchor, NULL), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_SYS_RAWIO), anchor,
				    NULL), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_NET_RAW), anchor, NULL), 0);
	return KSFT_PASS;
}

/* mlx5dv_alloc_dm(3) of the type in @arg, one byte: errno. */
static int alloc_dm(void *arg)
{
	struct mlx5dv_alloc_dm_attr dv = {
		.type = (enum mlx5dv_alloc_dm_type)(long)arg,
	};
	struct ibv_alloc_dm_attr attr = { .length = 64 };
	struct ibv_context *ctx = mt_open(MT_OPEN_DEVX, NULL);
	struct ibv_dm *dm;
	int err;

	if (!ctx)
		return 90;
	dm = mlx5dv_alloc_dm(ctx, &attr, &dv);
	err = dm ? 0 : errno;
	if (dm)
		ibv_free_dm(dm);
	ibv_close_device(ctx);
	return err;
}

static int test_sw_icm_needs_sys_rawio_and_net_raw(void)
{
	void *icm = (void *)(long)MLX5DV_DM_TYPE_STEERING_SW_ICM;
	int both;

	both = mt_run_as(UID_OWNER, MT_CAP(CAP_NET_RAW) | MT_CAP(CAP_SYS_RAWIO),
		      alloc_dm, icm);
	if (both == EOPNOTSUPP)
		return mt_skip("no steering SW ICM on the device");
	CHECK_ERR(both, 0);
	CHECK_ERR(mt_run_as(UID_OWNER, 0, alloc_dm, icm), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_NET_RAW), alloc_dm,
				    icm), EPERM);
	CHECK_ERR(mt_run_as(UID_OWNER, MT_CAP(CAP_SYS_RAWIO), alloc_dm,
				    icm), EPERM);
	/* MEMIC needs no capability */
	CHECK_ERR(mt_run_as(UID_OWNER, 0, alloc_dm,
			 (void *)(long)MLX5DV_DM_TYPE_MEMIC), 0);
	return KSFT_PASS;
}

/* Every case drops from root to other users, or lists root's debugfs. */
static const struct mt_case cases[] = {
	MT_CASE(objects_of_another_user, .flags = MT_NEEDS_ROOT),
	MT_CASE(debugfs_root_only, .flags = MT_NEEDS_ROOT),
	MT_CASE(raw_packet_qp_needs_net_raw, .flags = MT_NEEDS_ROOT),
	MT_CASE(create_flow_needs_net_raw, .flags = MT_NEEDS_ROOT),
	MT_CASE(dv_create_flow_needs_net_raw, .flags = MT_NEEDS_ROOT),
	MT_CASE(steering_anchor_needs_net_raw, .flags = MT_NEEDS_ROOT),
	MT_CASE(sw_icm_needs_sys_rawio_and_net_raw, .flags = MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
