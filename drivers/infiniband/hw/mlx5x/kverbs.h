/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Kernel verbs: the queues of kernel consumers (the MAD layer's QP1 and
 * its CQ, ib_cm's address handles), which the driver itself writes,
 * rings and polls, as mlx5_ib does for its kernel QPs.  Their buffers are
 * kernel pages registered with firmware as umems of the kernel (uid 0);
 * their WQEs name memory by the reserved lkey.
 */
#ifndef MLX5X_KVERBS_H
#define MLX5X_KVERBS_H

#include <linux/mlx5/qp.h>
#include "verbs.h"

/**
 * struct mlx5x_kbuf - kernel pages the device reaches through a umem
 * @va: the pages, physically contiguous, zeroed
 * @len: their bytes, a multiple of PAGE_SIZE
 * @dma: the address the device reaches @va at
 * @id: the umem (uid 0) firmware knows them by
 */
struct mlx5x_kbuf {
	void *va;
	size_t len;
	dma_addr_t dma;
	u32 id;
};

/**
 * struct mlx5x_kcq - what the driver keeps of a kernel CQ (kcq.c)
 * @buf: the CQEs (64 bytes each), then the doorbell record
 * @dbr: the doorbell record: consumer index, then the arm word
 * @lock: serialises polling, arming, and the purge of a destroyed QP
 * @nent: entries, a power of two
 * @cons_index: CQEs polled
 * @arm_sn: completion events taken, modulo 4 (the arm word's sn)
 */
struct mlx5x_kcq {
	struct mlx5x_kbuf buf;
	__be32 *dbr;
	spinlock_t lock;
	u32 nent;
	u32 cons_index;
	u32 arm_sn;
};

/**
 * struct mlx5x_kqp - what the driver keeps of a kernel QP (kqp.c)
 * @buf: the receive queue, then the send queue, then the doorbell record
 * @dbr: the doorbell record: receive counter, then send counter
 * @sq_lock: serialises posting sends and completing them
 * @rq_lock: the same for receives
 * @sq_bbs: send queue basic blocks (64 bytes), a power of two
 * @sq_pi: basic blocks posted
 * @sq_ci: basic blocks completed
 * @sq_wrid: each send WQE's work request id, by its first basic block
 * @sq_nbb: and its size in basic blocks
 * @max_send_sge: gather entries a send WQE has room for
 * @sig_all: every send WQE asks for a CQE (IB_SIGNAL_ALL_WR)
 * @rq_wqes: receive WQEs, a power of two
 * @rq_shift: log2 of a receive WQE's bytes
 * @rq_pi: receive WQEs posted
 * @rq_ci: receive WQEs completed
 * @rq_wrid: each receive WQE's work request id
 */
struct mlx5x_kqp {
	struct mlx5x_kbuf buf;
	__be32 *dbr;
	spinlock_t sq_lock;
	spinlock_t rq_lock;
	u32 sq_bbs;
	u32 sq_pi;
	u32 sq_ci;
	u64 *sq_wrid;
	u8 *sq_nbb;
	u32 max_send_sge;
	bool sig_all;
	u32 rq_wqes;
	u32 rq_shift;
	u32 rq_pi;
	u32 rq_ci;
	u64 *rq_wrid;
};

/* kbuf.c */
int mlx5x_kbuf_get(struct mlx5x_dev *dev, size_t len, struct mlx5x_kbuf *buf);
void mlx5x_kbuf_put(struct mlx5x_dev *dev, struct mlx5x_kbuf *buf);

/* kverbs.c */
int mlx5x_kverbs_init(struct mlx5x_dev *dev);
void mlx5x_kverbs_cleanup(struct mlx5x_dev *dev);
void mlx5x_kverbs_doorbell(struct mlx5x_dev *dev);

/* kcq.c */
int mlx5x_kcq_create(struct mlx5x_dev *dev, struct mlx5x_cq *cq,
		     const struct ib_cq_init_attr *attr);
void mlx5x_kcq_destroy(struct mlx5x_dev *dev, struct mlx5x_cq *cq);
void mlx5x_kcq_purge(struct mlx5x_cq *cq, u32 qpn);
int mlx5x_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int mlx5x_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

/* kqp.c */
int mlx5x_kqp_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     struct ib_qp_init_attr *attr);
void mlx5x_kqp_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp);
bool mlx5x_kqp_complete(struct mlx5x_qp *qp, bool send, u16 wqe_counter,
			u64 *wr_id);
int mlx5x_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr);
int mlx5x_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr);

/**
 * struct mlx5x_umr_wr - a UMR the driver posts on its UMR QP
 * @wr: the work request (opcode MLX5X_WR_UMR; ex.imm_data: the mkey)
 * @flags: the UMR control segment's flags (MLX5_UMR_*)
 * @mask: the fields of @mkc it writes (MLX5_MKEY_MASK_*)
 * @mkc: the mkey context segment
 */
struct mlx5x_umr_wr {
	struct ib_send_wr wr;
	u8 flags;
	u64 mask;
	u8 mkc[PRM_BYTES(mkc)];
};

u32 mlx5x_umr_wqe(const struct ib_send_wr *wr, void *seg);
int mlx5x_umr_init(struct mlx5x_dev *dev);
void mlx5x_umr_start(struct mlx5x_dev *dev);
void mlx5x_umr_cleanup(struct mlx5x_dev *dev);

/* ah.c */
int mlx5x_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		    struct ib_udata *udata);

#endif /* MLX5X_KVERBS_H */
