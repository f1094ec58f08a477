/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the DEVX event selftests (mlx5x_devx_events,
 * mlx5x_devx_events_lifetime): the PRM event types they subscribe to, an
 * event as the channel's FD returns it, a read that cannot hang, events
 * raised by the firmware model (fw/raise_event), and a DEVX CQ to raise
 * affiliated events on.
 */
#ifndef MLX5X_DEVX_EVENTS_H
#define MLX5X_DEVX_EVENTS_H

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>
#include "mlx5x_queues.h"

/* PRM event types and PORT_CHANGE sub types (<linux/mlx5/device.h>). */
#define EV_COMP			0x00
#define EV_CQ_ERROR		0x04
#define EV_WQ_CATAS_ERROR	0x05
#define EV_PORT_CHANGE		0x09
#define EV_NOT_RAISED		0x06
#define PORT_DOWN		1
#define PORT_ACTIVE		4

#define EQE_BYTES		PRM_EQE_BYTES

/* how long a read waits for an event that should be there already */
#define EVENT_WAIT_MS		5000

struct event {
	uint64_t cookie;
	uint8_t eqe[EQE_BYTES];
};

static inline int raise_event(const char *line)
{
	return mt_fw_write("raise_event", line);
}

static inline int raise_on(unsigned int type, const char *kind, uint32_t id)
{
	char line[64];

	snprintf(line, sizeof(line), "0x%x %s 0x%x", type, kind, id);
	return raise_event(line);
}

static inline struct mlx5dv_devx_event_channel *
channel(struct ibv_context *ctx, unsigned int flags)
{
	struct mlx5dv_devx_event_channel *ch;

	ch = mlx5dv_devx_create_event_channel(ctx, flags);
	CHECK(ch);
	return ch;
}

static inline int subscribe(struct mlx5dv_devx_event_channel *ch,
			    struct mlx5dv_devx_obj *obj, uint16_t type,
			    uint64_t cookie)
{
	return mlx5dv_devx_subscribe_devx_event(ch, obj, sizeof(type), &type,
						cookie);
}

static inline void set_nonblock(struct mlx5dv_devx_event_channel *ch)
{
	CHECK_EQ(fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK),
		 0);
}

/*
 * One read; returns its length, or -errno.  On a blocking channel it waits
 * at most EVENT_WAIT_MS (then -ETIMEDOUT): when a step before it failed,
 * as under the fault sweep, the event never comes and the case must fail,
 * not hang.
 */
static inline ssize_t get_event(struct mlx5dv_devx_event_channel *ch,
				struct event *ev)
{
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };
	ssize_t n;

	if (!(fcntl(ch->fd, F_GETFL) & O_NONBLOCK) &&
	    poll(&p, 1, EVENT_WAIT_MS) == 0)
		return -ETIMEDOUT;
	memset(ev, 0xa5, sizeof(*ev));
	n = mlx5dv_devx_get_event(ch,
				  (struct mlx5dv_devx_async_event_hdr *)ev,
				  sizeof(*ev));
	return n < 0 ? -errno : n;
}

/*
 * A DEVX CQ: 64 CQEs in a umem page, its doorbell record in the next page,
 * a UAR and the EQ of vector 0; the umem fields 6.1's mlx5_ifc.h leaves
 * reserved are mlx5x_queues.h's.
 */
#define CQ_BUF_BYTES		8192

struct cq {
	struct mlx5dv_devx_obj *obj;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_uar *uar;
	void *buf;
	uint32_t cqn;
};

/* Free what there is of @cq; a zeroed one has nothing. */
static inline void cq_free(struct cq *cq)
{
	if (cq->obj)
		CHECK_ERR(mlx5dv_devx_obj_destroy(cq->obj), 0);
	if (cq->umem)
		CHECK_ERR(mlx5dv_devx_umem_dereg(cq->umem), 0);
	if (cq->uar)
		mlx5dv_devx_free_uar(cq->uar);
	free(cq->buf);
	memset(cq, 0, sizeof(*cq));
}

/* Return: 0, -EINVAL when DEVX may not create a CQ, else -1 (failed). */
static inline int cq_create(struct ibv_context *c, struct cq *cq)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4] = {}, out[4] = {};
	uint32_t eqn;
	int err;

	memset(cq, 0, sizeof(*cq));
	if (posix_memalign(&cq->buf, 4096, CQ_BUF_BYTES))
		return -1;
	memset(cq->buf, 0, CQ_BUF_BYTES);
	cq->umem = mlx5dv_devx_umem_reg(c, cq->buf, CQ_BUF_BYTES,
					IBV_ACCESS_LOCAL_WRITE);
	cq->uar = mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (!cq->umem || !cq->uar || mlx5dv_devx_query_eqn(c, 0, &eqn)) {
		cq_free(cq);
		return -1;
	}
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_CQ);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, 6);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_UAR_PAGE, cq->uar->page_id);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_C_EQN_OR_APU_ELEMENT, eqn);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_PAGE_SIZE, 0);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_UMEM_VALID, 1);
	mt_set(in, CQ_DBR_UMEM_ID, cq->umem->umem_id);
	mt_set(in, MT_FIELD(PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_ADDR_OFF + 32, 32),
	       4096);
	mt_set(in, MT_FIELD(CQ_UMEM_OFF + 32, 32), 0);
	mt_set(in, CQ_UMEM_ID, cq->umem->umem_id);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_UMEM_VALID, 1);
	cq->obj = mlx5dv_devx_obj_create(c, in, sizeof(in), out, sizeof(out));
	if (!cq->obj) {
		err = errno;
		mt_diag("CREATE_CQ: errno %d status 0x%x syndrome 0x%x", err,
			mt_get(out, PRM_OUT_STATUS),
			mt_get(out, PRM_OUT_SYNDROME));
		cq_free(cq);
		return err == EINVAL && !mt_get(out, PRM_OUT_STATUS) ?
			-EINVAL : -1;
	}
	cq->cqn = mt_get(out, PRM_CREATE_CQ_OUT_CQN);
	return 0;
}

/* Make a CQ, or say why the case cannot run. */
static inline int need_cq(struct ibv_context *c, struct cq *cq)
{
	int err = cq_create(c, cq);

	if (err == -EINVAL)
		return mt_skip("DEVX cannot create a CQ here");
	return CHECK_EQ(err, 0) ? KSFT_PASS : KSFT_FAIL;
}

#endif /* MLX5X_DEVX_EVENTS_H */
