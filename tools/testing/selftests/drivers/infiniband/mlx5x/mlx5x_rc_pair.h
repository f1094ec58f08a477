/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Two simulated devices on the two ends of a veth pair, one process
 * holding both, and an RC or UC QP of each connected to the other by the
 * ports' RoCE v2 link-local GIDs (mlx5x_rc_wire, mlx5x_link).
 */
#ifndef MLX5X_RC_PAIR_H
#define MLX5X_RC_PAIR_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include "mlx5x_veth.h"

#define BUF		(256 * 1024)
#define HALF		(BUF / 2)
#define WAIT		5000
#define SQ_PSN		0xfffffe	/* wraps within the first message */
#define ALL		(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

/* One end: a device, its link-local RoCE v2 GID, a PD, CQ and MR. */
struct end {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	uint8_t *buf;
	struct ibv_gid_entry gid;
};

/**
 * struct rp_cfg - where a pair lives
 * @veth: the veth pair, its far namespace and the near device
 * @far_dev: the far device's name (in @veth's namespace)
 */
struct rp_cfg {
	const struct mt_veth *veth;
	const char *far_dev;
};

struct wire {
	const struct rp_cfg *cfg;
	bool made, far_made;
	struct end e[2];	/* 0: near (the requester), 1: far */
	struct ibv_qp *spare;	/* on the far end (connect_pair()) */
};

/* How a QP is connected. */
struct conn {
	enum ibv_qp_type type;
	enum ibv_mtu mtu;
	int access;		/* what the peer may do to this QP's memory */
	uint8_t rnr_retry, retry_cnt, timeout;
};

extern const struct conn rc1024;

/* The pair; @far_device: a simulated device on the far end too. */
int wire_open(struct wire *w, const struct rp_cfg *cfg, bool far_device);
void wire_close(struct wire *w);
bool end_open(struct end *e, const struct mt_veth *v);
void end_close(struct end *e);
struct ibv_qp *make_qp(struct end *e, enum ibv_qp_type type);
bool connect_qp(struct end *e, const struct conn *c, uint32_t dqpn,
		const uint8_t *dgid);
bool connect_pair(struct wire *w, const struct conn *c);
uint32_t sq_psn(struct ibv_qp *qp);
enum ibv_qp_state qp_state(struct ibv_qp *qp);
bool state_becomes(struct ibv_qp *qp, enum ibv_qp_state want);
void fill(uint8_t *b, size_t n, uint8_t seed);
int post_recv(struct end *e, uint64_t id, uint32_t off, uint32_t len);
int post_wait(struct end *e, struct ibv_send_wr *wr, uint32_t off,
	      uint32_t len);
uint32_t psn_delta(uint32_t from, uint32_t to);
uint32_t packets(uint32_t len, uint32_t mtu);

#endif
