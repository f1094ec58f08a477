/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the receive WQ tests share (mlx5x_rss_env.c): a context whose
 * RAW_PACKET client QP sends UDP packets that a flow steers to an RSS QP
 * over a table of WQs, and the helpers that make WQs, tables and RSS QPs
 * and move packets through them.  mlx5x_rss.c tests RSS itself,
 * mlx5x_wq.c a WQ's flush and its asynchronous errors.
 */
#ifndef MLX5X_RSS_H
#define MLX5X_RSS_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"

#define LOG_TBL		2
#define NWQ		(1 << LOG_TBL)
#define WQ_WRS		16
#define NPKT		32
#define PKT_LEN		90
#define SLOT		256
#define KEY_LEN		40

#define UDP4_FIELDS	(IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4 | \
			 IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP)

/* rdma-core's tests' key (a Toeplitz key as the RSS specification's) */
extern uint8_t rss_key[KEY_LEN];
/* where the client sends: the environment's flow steers this MAC */
extern const uint8_t rss_server_mac[6];

/*
 * A context with: a client RAW_PACKET QP in RTS on the environment's CQ;
 * NWQ WQs, ready, on a CQ of their own; a table of them; an RSS QP
 * hashing UDP over IPv4 with the key; a flow of the server MAC to it;
 * a buffer registered for all.
 */
struct rss_env {
	struct mt_verbs_env v;
	struct ibv_cq *rcq;
	struct ibv_qp *cqp, *rss;
	struct ibv_wq *wq[NWQ];
	struct ibv_rwq_ind_table *tbl;
	struct ibv_flow *flow;
	struct ibv_mr *mr;
	uint8_t *buf;		/* send slots 0..NPKT-1, receive slots after */
};

extern const struct mt_fixture rss_env_fixture;

bool rss_none_within(struct ibv_cq *cq, long ms, struct ibv_wc *wc);
struct ibv_wq *rss_make_wq(struct ibv_context *ctx, struct ibv_pd *pd,
			   struct ibv_cq *cq, uint32_t flags);
int rss_wq_move(struct ibv_wq *wq, enum ibv_wq_state to);
struct ibv_rwq_ind_table *rss_make_tbl(struct ibv_context *ctx,
				       struct ibv_wq **wqs, unsigned int log);
struct ibv_qp *rss_make_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			   struct ibv_rwq_ind_table *tbl, uint8_t fn,
			   uint8_t key_len, uint64_t fields);
struct ibv_flow *rss_steer(struct ibv_qp *qp, const uint8_t *mac);
void rss_make_pkt(uint8_t *b, unsigned int k, const uint8_t *mac);
bool rss_post_recv(struct rss_env *e, struct ibv_wq *wq, uint64_t wr_id,
		   unsigned int slot, uint32_t lkey);
bool rss_send_pkt(struct rss_env *e, unsigned int k, const uint8_t *dst);

#endif
