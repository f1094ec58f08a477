/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Verbs objects of mlx5x: CQs, QPs and MRs created through the upstream mlx5
 * uverbs ABI (<rdma/mlx5-abi.h>), for user contexts only.
 */
#ifndef MLX5X_VERBS_H
#define MLX5X_VERBS_H

#include <linux/mlx5/qp.h>
#include "mlx5x.h"

/*
 * Fields that name a buffer by umem.  The PRM has them; 6.1's mlx5_ifc.h
 * still calls the bits reserved, so their bit offsets are given here.
 */
#define MLX5X_CQC_DBR_UMEM_ID		0x020	/* cqc, 32 bits */
#define MLX5X_CREATE_CQ_UMEM_ID		0x2c0	/* create_cq_in, 32 bits */
#define MLX5X_WQ_DBR_UMEM_ID		0x140	/* wq, 32 bits */
#define MLX5X_WQ_UMEM_ID		0x160	/* wq, 32 bits */
#define MLX5X_QPC_DBR_UMEM_ID		0x720	/* qpc, 32 bits */
#define MLX5X_CREATE_QP_UMEM_ID		0x840	/* create_qp_in, 32 bits */

/* A doorbell record: two big-endian counters. */
#define MLX5X_DBR_BYTES			8
#define MLX5X_SEND_WQE_BB		64
#define MLX5X_QPN_MASK			GENMASK(23, 0)

struct mlx5x_cq {
	struct ib_cq ib;
	u32 cqn;
	u16 uid;
	u16 cqe_size;
	struct mutex resize_mutex;	/* one resize at a time: @buf */
	struct mlx5x_ubuf buf;
	struct mlx5x_ubuf db;
	struct mlx5x_kcq *k;		/* a kernel consumer's (kcq.c) */
};

/* Where a CQ's CQEs and doorbell record are, for CREATE_CQ (cq.c). */
struct mlx5x_cq_place {
	u32 buf_id;
	u32 db_id;
	u64 db_off;
	u32 uar;
	u16 cqe_size;
	bool pad;		/* 128-byte CQEs written whole */
	bool comp;		/* CQEs compressed, */
	u8 mini_format;		/* mini CQEs of this format */
};

int mlx5x_cq_fw_create(struct mlx5x_dev *dev, struct mlx5x_cq *cq,
		       const struct mlx5x_cq_place *pl, unsigned int log_size,
		       u32 eqn);
int mlx5x_cq_fw_destroy(struct mlx5x_dev *dev, struct mlx5x_cq *cq);

/* The RQ, SQ, TIR and TIS of a RAW_PACKET QP; 0: not (or no longer) made. */
struct mlx5x_raw_qp {
	u32 rqn;
	u32 sqn;
	u32 tirn;
	u32 tisn;
	u8 rq_state;		/* MLX5_RQC_STATE_* */
	u8 sq_state;		/* MLX5_SQC_STATE_* */
	struct mlx5x_ubuf sq_buf;
};

/* A QP's user index: 24 bits, all set when it has none. */
#define MLX5X_UIDX_MASK		GENMASK(23, 0)

struct mlx5x_qp {
	struct ib_qp ib;
	u16 uid;
	u32 qpn;		/* firmware QP (RC); unused for RAW_PACKET */
	u32 user_index;
	u32 uar_index;
	u32 sq_wqe_cnt;
	u32 rq_wqe_cnt;
	u32 rq_wqe_shift;
	u32 flags;		/* MLX5_QP_FLAG_* asked for */
	u32 create_flags;	/* IB_QP_CREATE_* granted */
	enum ib_qp_state state;
	/* state and counter changes, one at a time */
	struct mutex lock;
	/* bound to a counter that takes effect in RTS (qp_counter.c) */
	bool counter_pending;
	u8 port;
	struct mlx5x_ubuf buf;
	struct mlx5x_ubuf db;
	struct mlx5x_raw_qp raw;
	struct mlx5x_kqp *k;	/* a kernel consumer's (kqp.c) */
	struct mlx5x_dct *dct;	/* a DC target's (qp_dc.c) */
	/* a DCI's stream channels, and streams it keeps in error (log2) */
	u8 dci_log_streams, dci_log_errored;
};

/**
 * struct mlx5x_srq - a shared receive queue, an RMP of firmware (srq.c)
 * @ib: the core's SRQ
 * @uid: its context
 * @srqn: the RMP
 * @max: WQEs of the buffer, a power of two
 * @max_gs: data segments a WQE holds
 * @wqe_shift: log2 of a WQE's bytes
 * @buf: the WQEs
 * @db: the doorbell record
 */
struct mlx5x_srq {
	struct ib_srq ib;
	u16 uid;
	u32 srqn;
	u32 max;
	u32 max_gs;
	u32 wqe_shift;
	struct mlx5x_ubuf buf;
	struct mlx5x_ubuf db;
};

static inline struct mlx5x_srq *to_msrq(struct ib_srq *ib)
{
	return container_of(ib, struct mlx5x_srq, ib);
}

static inline struct mlx5x_cq *to_mcq(struct ib_cq *ib)
{
	return container_of(ib, struct mlx5x_cq, ib);
}

static inline struct mlx5x_qp *to_mqp(struct ib_qp *ib)
{
	return container_of(ib, struct mlx5x_qp, ib);
}

/* ubuf.c */
/* RC and UC: one firmware QP, connected to one other (qp_rc.c) */
static inline bool mlx5x_qp_connected(enum ib_qp_type type)
{
	return type == IB_QPT_RC || type == IB_QPT_UC;
}

/*
 * RC, UC, UD (QP1 too) and XRC: one firmware QP over one buffer
 * (qp_rc.c, qp_ud.c; an XRC target has none: xrc.c)
 */
static inline bool mlx5x_qp_is_fw_qp(enum ib_qp_type type)
{
	return mlx5x_qp_connected(type) || type == IB_QPT_UD ||
	       type == IB_QPT_XRC_INI || type == IB_QPT_XRC_TGT ||
	       type == IB_QPT_GSI || type == IB_QPT_DRIVER;
}

void *mlx5x_umem_in(u16 uid, size_t nmtt, u32 page_offset, size_t *inlen,
		    __be64 **mtt);
int mlx5x_ubuf_get(struct mlx5x_dev *dev, u16 uid, u64 addr, size_t len,
		   int access, struct mlx5x_ubuf *buf);
void mlx5x_ubuf_put(struct mlx5x_dev *dev, struct mlx5x_ubuf *buf);
void mlx5x_ubuf_orphans_put(struct mlx5x_dev *dev, u16 uid);

/* cq.c */
#ifdef MLX5X_CREATE_CQ_TAKES_ATTRS
int mlx5x_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct uverbs_attr_bundle *attrs);
#else
int mlx5x_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata);
#endif
int mlx5x_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
void mlx5x_cq_comp_event(struct mlx5x_dev *dev, u32 cqn);
void mlx5x_cq_event(struct mlx5x_dev *dev, const void *eqe);
void mlx5x_qp_event(struct mlx5x_dev *dev, const void *eqe);
int mlx5x_modify_cq(struct ib_cq *ibcq, u16 count, u16 period);
int mlx5x_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);

/* odp.c: only with ib_core's on-demand paging */
#if IS_ENABLED(CONFIG_INFINIBAND_ON_DEMAND_PAGING)
/* The backend serves page faults (the ODP state is made for them). */
static inline bool mlx5x_odp_supported(struct mlx5x_dev *dev)
{
	return dev->backend->odp_enable;
}

/* ... and firmware, probed, has ODP capabilities to offer (query.c). */
static inline bool mlx5x_odp_offered(struct mlx5x_dev *dev)
{
	return mlx5x_odp_supported(dev) && dev->odp_cap;
}

int mlx5x_odp_init(struct mlx5x_dev *dev);
void mlx5x_odp_cleanup(struct mlx5x_dev *dev);
bool mlx5x_odp_fault(struct mlx5x_dev *dev, u32 qpn, u32 umem_id, u64 off,
		     u64 len, bool write);
int mlx5x_odp_get(struct mlx5x_dev *dev, struct mlx5x_mr *mr, u64 start,
		  u64 length, int access);
int mlx5x_odp_start(struct mlx5x_dev *dev, struct mlx5x_mr *mr);
int mlx5x_advise_mr(struct ib_pd *pd, enum ib_uverbs_advise_mr_advice advice,
		    u32 flags, struct ib_sge *sg_list, u32 num_sge,
		    struct uverbs_attr_bundle *attrs);
void mlx5x_odp_put(struct mlx5x_dev *dev, struct mlx5x_mr *mr);
u64 mlx5x_odp_mkey_len(const struct mlx5x_mr *mr, u64 length);
#else
static inline bool mlx5x_odp_supported(struct mlx5x_dev *dev)
{
	return false;
}

static inline bool mlx5x_odp_offered(struct mlx5x_dev *dev)
{
	return false;
}

static inline int mlx5x_odp_init(struct mlx5x_dev *dev)
{
	return 0;
}

static inline void mlx5x_odp_cleanup(struct mlx5x_dev *dev)
{
}

static inline bool mlx5x_odp_fault(struct mlx5x_dev *dev, u32 qpn,
				   u32 umem_id, u64 off, u64 len, bool write)
{
	return false;
}

static inline int mlx5x_odp_get(struct mlx5x_dev *dev, struct mlx5x_mr *mr,
				u64 start, u64 length, int access)
{
	return -EOPNOTSUPP;
}

static inline int mlx5x_odp_start(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
	return -EOPNOTSUPP;
}

static inline void mlx5x_odp_put(struct mlx5x_dev *dev, struct mlx5x_mr *mr)
{
}

static inline u64 mlx5x_odp_mkey_len(const struct mlx5x_mr *mr, u64 length)
{
	return length;
}

static inline int mlx5x_advise_mr(struct ib_pd *pd,
				  enum ib_uverbs_advise_mr_advice advice,
				  u32 flags, struct ib_sge *sg_list,
				  u32 num_sge,
				  struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}
#endif

/* mr.c */
struct ib_mr *mlx5x_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				u64 iova, int access, struct ib_udata *udata);
int mlx5x_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
void mlx5x_mr_mkc(void *mkc, u32 pdn, int access, u8 key);
struct ib_mr *mlx5x_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				  u64 length, u64 iova, int access,
				  struct ib_pd *pd, struct ib_udata *udata);

/* umr.c: the driver's UMR QP, of this QP type, posting this WR */
#define MLX5X_QPT_REG_UMR	IB_QPT_RESERVED1
#define MLX5X_WR_UMR		IB_WR_RESERVED1
int mlx5x_umr_rereg(struct mlx5x_dev *dev, u32 mkey, u32 pdn, int access);
u8 mlx5x_mkey_variant_next(void);

#define MLX5X_MKEY_QPN_NONE	0xffffff

/* mw.c: a memory window, one mkey of firmware (@mkey: index << 8 | tag) */
struct mlx5x_mw {
	struct ib_mw ib;
	u32 mkey;
	u16 uid;
};

static inline struct mlx5x_mw *to_mmw(struct ib_mw *ib)
{
	return container_of(ib, struct mlx5x_mw, ib);
}

int mlx5x_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int mlx5x_dealloc_mw(struct ib_mw *ibmw);

/* qp.c */
int mlx5x_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata);
int mlx5x_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata);
int mlx5x_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init);
int mlx5x_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int mlx5x_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int mlx5x_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);

/* qp_dc.c: DC initiators and targets (IB_QPT_DRIVER) */
struct mlx5_ib_create_qp;
int mlx5x_dc_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_init_attr *attr,
		    const struct mlx5_ib_create_qp *ucmd);
int mlx5x_dc_modify(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_attr *attr, int mask, struct ib_udata *udata);
int mlx5x_dct_query(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_attr *attr);
int mlx5x_dct_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp);

/* qp_rc.c */
int mlx5x_rc_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    struct ib_qp_init_attr *attr);
int mlx5x_rc_modify(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		    const struct ib_qp_attr *attr, int mask,
		    enum ib_qp_state cur, enum ib_qp_state next);
int mlx5x_rc_query(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		   struct ib_qp_attr *attr);
int mlx5x_rc_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp);
int mlx5x_rc_move_counter(struct mlx5x_dev *dev, struct mlx5x_qp *qp, u32 id);

/* qp_counter.c */
u32 mlx5x_qp_counter_id(struct mlx5x_dev *dev, struct mlx5x_qp *qp);
int mlx5x_qp_counter_reached_rts(struct mlx5x_dev *dev, struct mlx5x_qp *qp);
int mlx5x_counter_bind_qp(struct rdma_counter *counter, struct ib_qp *ibqp);
int mlx5x_counter_unbind_qp(struct ib_qp *ibqp);
int mlx5x_counter_dealloc(struct rdma_counter *counter);
struct rdma_hw_stats *mlx5x_counter_alloc_stats(struct rdma_counter *counter);
int mlx5x_counter_update_stats(struct rdma_counter *counter);

/* qp_ud.c */
u32 mlx5x_qp_st(enum ib_qp_type type);
void mlx5x_ud_apply(const struct ib_qp_attr *attr, int mask, void *qpc);

/* ah.c: the port's GIDs, address handles */
/*
 * An address handle.  A process's AH is libmlx5's (it builds the address
 * vector itself); a kernel consumer's keeps the vector its WQEs carry.
 */
struct mlx5x_ah {
	struct ib_ah ib;
	bool kernel;
	struct mlx5_av av;
};

int mlx5x_add_gid(const struct ib_gid_attr *attr, void **context);
int mlx5x_del_gid(const struct ib_gid_attr *attr, void **context);
int mlx5x_create_user_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			 struct ib_udata *udata);
int mlx5x_destroy_ah(struct ib_ah *ibah, u32 flags);

/* srq.c */
int mlx5x_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *attr,
		     struct ib_udata *udata);
int mlx5x_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		     enum ib_srq_attr_mask mask, struct ib_udata *udata);
int mlx5x_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int mlx5x_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
void mlx5x_srq_event(struct mlx5x_dev *dev, const void *eqe);

/* xrc.c: XRC domains, XRC SRQs, XRC target QPs */
struct mlx5x_xrcd {
	struct ib_xrcd ib;
	u32 xrcdn;
};

static inline struct mlx5x_xrcd *to_mxrcd(struct ib_xrcd *ib)
{
	return container_of(ib, struct mlx5x_xrcd, ib);
}

int mlx5x_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);
int mlx5x_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);
int mlx5x_xrc_tgt_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
			 struct ib_qp_init_attr *attr);
int mlx5x_xrc_srq_create(struct mlx5x_dev *dev, struct mlx5x_srq *srq,
			 struct ib_srq_init_attr *attr, u32 uidx);
int mlx5x_xrc_srq_destroy(struct mlx5x_dev *dev, struct mlx5x_srq *srq);
int mlx5x_xrc_srq_arm(struct mlx5x_dev *dev, struct mlx5x_srq *srq, u32 limit);
int mlx5x_xrc_srq_query(struct mlx5x_dev *dev, struct mlx5x_srq *srq,
			u32 *lwm);

/* qp_raw.c */
/* Where an RQ's WQEs go and what it is on, for CREATE_RQ. */
struct mlx5x_rq_place {
	u16 uid;
	u32 pdn;
	u32 cqn;
	u32 user_index;
	const struct mlx5x_ubuf *buf;
	const struct mlx5x_ubuf *db;
	u32 log_stride;
	u32 count;
};

int mlx5x_rq_fw_create(struct mlx5x_dev *dev, const struct mlx5x_rq_place *pl,
		       u32 *rqn);
int mlx5x_rq_fw_move(struct mlx5x_dev *dev, u16 uid, u32 rqn, u8 cur, u8 next);
int mlx5x_fw_destroy(struct mlx5x_dev *dev, u16 uid, u16 opcode, u32 *id);
int mlx5x_raw_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     struct ib_qp_init_attr *attr, u32 tdn);
int mlx5x_raw_modify(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     enum ib_qp_state cur, enum ib_qp_state next);
int mlx5x_raw_destroy(struct mlx5x_dev *dev, struct mlx5x_qp *qp);
unsigned long mlx5x_raw_wq_key(u8 type, u32 num);
int mlx5x_qp_tirn(struct ib_qp *ibqp, u32 *tirn);

/* qp_rss.c: a RAW_PACKET QP over an indirection table: one TIR */
struct mlx5_ib_rss_caps;
void mlx5x_rss_caps(struct mlx5_ib_rss_caps *caps);
int mlx5x_rss_create(struct mlx5x_dev *dev, struct mlx5x_qp *qp,
		     struct ib_qp_init_attr *attr, struct ib_udata *udata);

/*
 * wq.c: receive work queues (an RQ of firmware each) and their
 * indirection tables (an RQT each)
 */
struct mlx5x_rwq {
	struct ib_wq ib;
	u16 uid;
	u32 rqn;
	struct mlx5x_ubuf buf;
	struct mlx5x_ubuf db;
};

struct mlx5x_rwq_ind_table {
	struct ib_rwq_ind_table ib;
	u16 uid;
	u32 rqtn;
};

static inline struct mlx5x_rwq *to_mrwq(struct ib_wq *ib)
{
	return container_of(ib, struct mlx5x_rwq, ib);
}

static inline struct mlx5x_rwq_ind_table *
to_mind_tbl(struct ib_rwq_ind_table *ib)
{
	return container_of(ib, struct mlx5x_rwq_ind_table, ib);
}

struct ib_wq *mlx5x_create_wq(struct ib_pd *pd, struct ib_wq_init_attr *attr,
			      struct ib_udata *udata);
int mlx5x_modify_wq(struct ib_wq *ibwq, struct ib_wq_attr *attr, u32 mask,
		    struct ib_udata *udata);
int mlx5x_destroy_wq(struct ib_wq *ibwq, struct ib_udata *udata);
void mlx5x_wq_event(struct mlx5x_dev *dev, const void *eqe);
int mlx5x_create_rwq_ind_table(struct ib_rwq_ind_table *ibtbl,
			       struct ib_rwq_ind_table_init_attr *attr,
			       struct ib_udata *udata);
int mlx5x_destroy_rwq_ind_table(struct ib_rwq_ind_table *ibtbl);

#endif /* MLX5X_VERBS_H */
