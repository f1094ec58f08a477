/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the DEVX queue selftests (mlx5x_devx_cq, mlx5x_devx_qp,
 * mlx5x_devx_mkey) and of the fuzzer's memory ops: a DEVX context with
 * what queues name (a PD, a transport domain, a UAR, a 256 KiB umem, the
 * completion EQ), and a builder per create mailbox (and for MODIFY_RQ/SQ
 * and a direct mkey over a umem).  Each builder fills a mailbox the
 * model accepts; cases then spoil it.
 */
#ifndef MLX5X_QUEUES_H
#define MLX5X_QUEUES_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_model.h"
#include "mlx5x_prm.h"

/* A field of struct wq at bit @wq of a mailbox */
#define WQ_F(wq, f)		MT_FIELD((wq) + PRM_WQ_##f.off, PRM_WQ_##f.sz)
#define WQ_DBR_ADDR(wq)		((wq) + PRM_WQ_DBR_ADDR_OFF)
#define RQ_WQ			(PRM_CREATE_RQ_IN_CTX_WQ_WQ_TYPE.off)
#define SQ_WQ			(PRM_CREATE_SQ_IN_CTX_WQ_WQ_TYPE.off)
#define CQ_CTX			(PRM_CREATE_CQ_IN_CQ_CONTEXT_STATUS.off)
#define QP_CTX			(PRM_CREATE_QP_IN_QPC_STATE.off)

/*
 * The umem ids and offsets of the queues' buffers and doorbell records,
 * which 6.1's mlx5_ifc.h leaves reserved: hand-written here.  6.12's
 * names those of struct wq (dbr_umem_id, wq_umem_id, wq_umem_offset) and
 * create_qp_in.wq_umem_id; the others only rdma-core's mlx5_ifc.h names
 * (create_cq_in.cq_umem_offset/cq_umem_id, cqc.dbr_umem_id,
 * qpc.dbr_umem_id, create_mkey_in.mkey_umem_id/mkey_umem_offset).
 */
#define CQ_UMEM_OFF		0x280			/* 64 bits */
#define CQ_UMEM_ID		MT_FIELD(0x2c0, 32)
#define CQ_DBR_UMEM_ID		MT_FIELD(CQ_CTX + 0x20, 32)
#define WQ_DBR_UMEM_ID(wq)	MT_FIELD((wq) + 0x140, 32)
#define WQ_UMEM_ID(wq)		MT_FIELD((wq) + 0x160, 32)
#define WQ_UMEM_OFF(wq)		((wq) + 0x180)		/* 64 bits */
#define QP_DBR_UMEM_ID		MT_FIELD(QP_CTX + 0x720, 32)
#define QP_UMEM_ID		MT_FIELD(0x840, 32)
#define MKEY_UMEM_ID		MT_FIELD(0x320, 32)
#define MKEY_UMEM_OFFSET_OFF	0x340			/* 64 bits */
/* mkc.crypto_en: reserved in 6.1's (and 6.12's), later ones name it */
#define MKC_CRYPTO_EN		MT_FIELD(0x80 + 0x1e3, 2)

/* Every create output names the new object where create_cq_out does. */
#define OUT_ID			PRM_CREATE_CQ_OUT_CQN
/* Every query, destroy and QP transition input names it there too. */
#define IN_ID			PRM_QUERY_CQ_IN_CQN

#define MKEY_MODE_MTT		1
#define MQ_MKC(f)		PRM_CREATE_MKEY_IN_MEMORY_KEY_MKEY_ENTRY_##f

#define MQ_BYTES		(64 * 4096)
#define MQ_DBR			(MQ_BYTES - 64)

/* RQ and SQ states; QP states as qpc.state has them. */
#define WQ_RST	0
#define WQ_RDY	1
#define WQ_ERR	3
#define QP_RST	0
#define QP_INIT	1
#define QP_RTR	2
#define QP_RTS	3
#define QP_ERR	6

/* @base: objects of the uid in the model once mq_open() is done */
struct mq {
	struct ibv_context *ctx;
	int uid, base;
	void *buf;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_obj *pd_obj, *td_obj;
	uint32_t pd, td, eqn;
};

/*
 * struct mq as a fixture (mlx5x_fixtures.c): MT_TEST_F(mt_mq, NAME) with
 * MT_CASE_ON(mt_mq_fixture, NAME); its teardown closes it and checks that
 * nothing of it is left in the model, which held @base objects before.
 */
struct mt_mq {
	struct mq q;
	int base;
};

extern const struct mt_fixture mt_mq_fixture;

struct mq_obj {
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
};

static inline void mq_set64(void *p, unsigned int off, uint64_t v)
{
	mt_set(p, MT_FIELD(off, 32), v >> 32);
	mt_set(p, MT_FIELD(off + 32, 32), (uint32_t)v);
}

static inline struct mlx5dv_devx_obj *mq_alloc(struct ibv_context *ctx,
					       uint16_t op, uint32_t *id)
{
	uint32_t in[4] = {}, out[4] = {};
	struct mlx5dv_devx_obj *obj;

	mt_set(in, PRM_IN_OPCODE, op);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	*id = obj ? mt_get(out, OUT_ID) : 0;
	return obj;
}

/* Open a DEVX context with a PD, a TD, a UAR, a umem and the EQ. */
static inline bool mq_open(struct mq *q)
{
	memset(q, 0, sizeof(*q));
	if (posix_memalign(&q->buf, 4096, MQ_BYTES))
		return false;
	memset(q->buf, 0, MQ_BYTES);
	q->ctx = mt_open(MT_OPEN_DEVX, &q->uid);
	if (!CHECK(q->ctx))
		return false;
	q->pd_obj = mq_alloc(q->ctx, PRM_OP_ALLOC_PD, &q->pd);
	q->td_obj = mq_alloc(q->ctx, PRM_OP_ALLOC_TRANSPORT_DOMAIN, &q->td);
	q->uar = mlx5dv_devx_alloc_uar(q->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	q->umem = mlx5dv_devx_umem_reg(q->ctx, q->buf, MQ_BYTES,
				       IBV_ACCESS_LOCAL_WRITE);
	if (!CHECK(q->pd_obj) || !CHECK(q->td_obj) || !CHECK(q->uar) ||
	    !CHECK(q->umem) ||
	    !CHECK_ERR(mlx5dv_devx_query_eqn(q->ctx, 0, &q->eqn), 0))
		return false;
	q->base = mt_sim() ? mt_fw_count(NULL, q->uid) : 0;
	return true;
}

/* Close the context: the kernel destroys whatever it still holds. */
static inline void mq_close(struct mq *q)
{
	if (q->ctx)
		CHECK_EQ(ibv_close_device(q->ctx), 0);
	q->ctx = NULL;
	free(q->buf);
	q->buf = NULL;
}

/* Create from @in; on failure @out holds status and syndrome. */
static inline bool mq_create(struct mq *q, const void *in, size_t inlen,
			     struct mq_obj *o, uint32_t *out)
{
	memset(out, 0, 16);
	o->obj = mlx5dv_devx_obj_create(q->ctx, in, inlen, out, 16);
	o->id = o->obj ? mt_get(out, OUT_ID) : 0;
	return o->obj;
}

/* A create that must fail with EREMOTEIO, this status and syndrome. */
static inline bool mq_refused(struct mq *q, const void *in, size_t inlen,
			      uint32_t status, uint32_t syndrome)
{
	uint32_t out[4];
	struct mq_obj o;

	errno = 0;
	if (!CHECK(!mq_create(q, in, inlen, &o, out))) {
		mlx5dv_devx_obj_destroy(o.obj);
		return false;
	}
	return CHECK_ERR(errno, EREMOTEIO) &&
	       CHECK_EQ(mt_get(out, PRM_OUT_STATUS), status) &&
	       CHECK_EQ(mt_get(out, PRM_OUT_SYNDROME), syndrome);
}

/* QUERY_* (16-byte input naming @id) into @out. */
static inline int mq_query(struct mq_obj *o, uint16_t op, uint32_t id,
			   void *out, size_t outlen)
{
	uint32_t in[4] = {};

	mt_set(in, PRM_IN_OPCODE, op);
	mt_set(in, IN_ID, id);
	memset(out, 0, outlen);
	return mlx5dv_devx_obj_query(o->obj, in, sizeof(in), out, outlen);
}

/* 16 CQEs of 64 bytes at the umem's start. */
static inline void mq_cq_in(struct mq *q, uint32_t *in)
{
	memset(in, 0, PRM_CREATE_CQ_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_CQ);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_UMEM_VALID, 1);
	mt_set(in, CQ_UMEM_ID, q->umem->umem_id);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_LOG_CQ_SIZE, 4);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_UAR_PAGE, q->uar->page_id);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_C_EQN_OR_APU_ELEMENT, q->eqn);
	mt_set(in, PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_UMEM_VALID, 1);
	mt_set(in, CQ_DBR_UMEM_ID, q->umem->umem_id);
	mt_set(in, MT_FIELD(PRM_CREATE_CQ_IN_CQ_CONTEXT_DBR_ADDR_OFF + 32, 32),
	       MQ_DBR);
}

static inline bool mq_cq(struct mq *q, struct mq_obj *o)
{
	uint32_t in[PRM_CREATE_CQ_IN_BYTES / 4], out[4];

	mq_cq_in(q, in);
	return CHECK(mq_create(q, in, sizeof(in), o, out));
}

/* A cyclic work queue of 16 64-byte entries at bit @wq of @in. */
static inline void mq_wq(struct mq *q, uint32_t *in, unsigned int wq)
{
	mt_set(in, WQ_F(wq, WQ_TYPE), 1);			/* cyclic */
	mt_set(in, WQ_F(wq, PD), q->pd);
	mt_set(in, WQ_F(wq, UAR_PAGE), q->uar->page_id);
	mt_set(in, WQ_F(wq, LOG_WQ_STRIDE), 6);
	mt_set(in, WQ_F(wq, LOG_WQ_SZ), 4);
	mt_set(in, WQ_F(wq, DBR_UMEM_VALID), 1);
	mt_set(in, WQ_F(wq, WQ_UMEM_VALID), 1);
	mt_set(in, WQ_UMEM_ID(wq), q->umem->umem_id);
	mt_set(in, WQ_DBR_UMEM_ID(wq), q->umem->umem_id);
	mt_set(in, MT_FIELD(WQ_DBR_ADDR(wq) + 32, 32), MQ_DBR);
}

static inline void mq_rq_in(struct mq *q, uint32_t *in, uint32_t cqn)
{
	memset(in, 0, PRM_CREATE_RQ_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_RQ);
	mt_set(in, PRM_CREATE_RQ_IN_CTX_CQN, cqn);
	mq_wq(q, in, RQ_WQ);
}

static inline bool mq_rq(struct mq *q, uint32_t cqn, struct mq_obj *o)
{
	uint32_t in[PRM_CREATE_RQ_IN_BYTES / 4], out[4];

	mq_rq_in(q, in, cqn);
	return CHECK(mq_create(q, in, sizeof(in), o, out));
}

static inline void mq_tis_in(struct mq *q, uint32_t *in)
{
	memset(in, 0, PRM_CREATE_TIS_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_TIS);
	mt_set(in, PRM_CREATE_TIS_IN_CTX_PRIO, 2 << 1);
	mt_set(in, PRM_CREATE_TIS_IN_CTX_TRANSPORT_DOMAIN, q->td);
}

static inline bool mq_tis(struct mq *q, struct mq_obj *o)
{
	uint32_t in[PRM_CREATE_TIS_IN_BYTES / 4], out[4];

	mq_tis_in(q, in);
	return CHECK(mq_create(q, in, sizeof(in), o, out));
}

static inline void mq_sq_in(struct mq *q, uint32_t *in, uint32_t cqn,
			    uint32_t tisn)
{
	memset(in, 0, PRM_CREATE_SQ_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_SQ);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_CQN, cqn);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_TIS_LST_SZ, 1);
	mt_set(in, PRM_CREATE_SQ_IN_CTX_TIS_NUM_0, tisn);
	mq_wq(q, in, SQ_WQ);
}

static inline bool mq_sq(struct mq *q, uint32_t cqn, uint32_t tisn,
			 struct mq_obj *o)
{
	uint32_t in[PRM_CREATE_SQ_IN_BYTES / 4], out[4];

	mq_sq_in(q, in, cqn, tisn);
	return CHECK(mq_create(q, in, sizeof(in), o, out));
}

/* MODIFY_RQ of RQ @id from state @cur to @next; MODIFY_SQ is alike. */
static inline void mq_wq_move_in(uint32_t *in, bool sq, uint32_t id,
				 uint32_t cur, uint32_t next)
{
	memset(in, 0, PRM_MODIFY_RQ_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, sq ? PRM_OP_MODIFY_SQ : PRM_OP_MODIFY_RQ);
	mt_set(in, PRM_MODIFY_RQ_IN_RQ_STATE, cur);
	mt_set(in, PRM_MODIFY_RQ_IN_RQN, id);
	mt_set(in, PRM_MODIFY_RQ_IN_CTX_STATE, next);
}

/*
 * CREATE_MKEY of access @mode on PD @pdn, local read and write, no QP;
 * @in zeroed, PRM_CREATE_MKEY_IN_BYTES and its entries.
 */
static inline void mq_mkey_in(void *in, int mode, uint32_t pdn)
{
	mt_set(in, PRM_CREATE_MKEY_IN_OPCODE, PRM_OP_CREATE_MKEY);
	mt_set(in, MQ_MKC(ACCESS_MODE_1_0), mode & 3);
	mt_set(in, MQ_MKC(ACCESS_MODE_4_2), mode >> 2);
	mt_set(in, MQ_MKC(QPN), 0xffffff);
	mt_set(in, MQ_MKC(LR), 1);
	mt_set(in, MQ_MKC(LW), 1);
	mt_set(in, MQ_MKC(PD), pdn);
}

/* Direct, over umem @umem_id: @len bytes at @offset, seen at @va. */
static inline void mq_mkey_direct_in(void *in, uint32_t pdn,
				     uint32_t umem_id, uint64_t offset,
				     uint64_t va, uint64_t len)
{
	mq_mkey_in(in, MKEY_MODE_MTT, pdn);
	mt_set(in, MKEY_UMEM_ID, umem_id);
	mq_set64(in, MKEY_UMEM_OFFSET_OFF, offset);
	mq_set64(in, MQ_MKC(START_ADDR_OFF), va);
	mq_set64(in, MQ_MKC(LEN_OFF), len);
	mt_set(in, MQ_MKC(LOG_PAGE_SIZE), 12);
	mt_set(in, MQ_MKC(TRANSLATIONS_OCTWORD_SIZE),
	       (len + (va & 4095) + 2 * 4096 - 1) / (2 * 4096));
}

/* An RQT of @n RQs; @in has room for PRM_CREATE_RQT_IN_BYTES + 4n. */
static inline size_t mq_rqt_in(uint32_t *in, uint16_t op, uint32_t max,
			       const uint32_t *rqn, unsigned int n)
{
	size_t len = PRM_CREATE_RQT_IN_BYTES + 4 * n;
	unsigned int i;

	memset(in, 0, len);
	mt_set(in, PRM_IN_OPCODE, op);
	mt_set(in, PRM_CREATE_RQT_IN_RQT_CONTEXT_RQT_MAX_SIZE, max);
	mt_set(in, PRM_CREATE_RQT_IN_RQT_CONTEXT_RQT_ACTUAL_SIZE, n);
	for (i = 0; i < n; i++)
		mt_set(in, MT_FIELD(PRM_CREATE_RQT_IN_RQT_CONTEXT_RQ_NUM_OFF +
				    32 * i + 8, 24), rqn[i]);
	return len;
}

/* A TIR to RQ @dest, or through RQT @dest by Toeplitz over the IPs. */
static inline void mq_tir_in(struct mq *q, uint32_t *in, bool indirect,
			     uint32_t dest)
{
	memset(in, 0, PRM_CREATE_TIR_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_TIR);
	mt_set(in, PRM_CREATE_TIR_IN_CTX_TRANSPORT_DOMAIN, q->td);
	if (!indirect) {
		mt_set(in, PRM_CREATE_TIR_IN_CTX_INLINE_RQN, dest);
		return;
	}
	mt_set(in, PRM_CREATE_TIR_IN_CTX_DISP_TYPE, 1);
	mt_set(in, PRM_CREATE_TIR_IN_CTX_INDIRECT_TABLE, dest);
	mt_set(in, PRM_CREATE_TIR_IN_CTX_RX_HASH_FN, 2);	/* Toeplitz */
	mt_set(in, PRM_CREATE_TIR_IN_CTX_RX_HASH_FIELD_SELECTOR_OUTER_SELECTED_FIELDS,
	       3);
}

/* An RC QP: 16 64-byte receive WQEs then 16 WQEBBs, one CQ for both. */
static inline void mq_qp_in(struct mq *q, uint32_t *in, uint32_t cqn)
{
	memset(in, 0, PRM_CREATE_QP_IN_BYTES);
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_QP);
	mt_set(in, PRM_CREATE_QP_IN_WQ_UMEM_VALID, 1);
	mt_set(in, QP_UMEM_ID, q->umem->umem_id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_PD, q->pd);
	mt_set(in, PRM_CREATE_QP_IN_QPC_UAR_PAGE, q->uar->page_id);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_RQ_SIZE, 4);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_RQ_STRIDE, 2);
	mt_set(in, PRM_CREATE_QP_IN_QPC_LOG_SQ_SIZE, 4);
	mt_set(in, PRM_CREATE_QP_IN_QPC_CQN_SND, cqn);
	mt_set(in, PRM_CREATE_QP_IN_QPC_CQN_RCV, cqn);
	mt_set(in, PRM_CREATE_QP_IN_QPC_DBR_UMEM_VALID, 1);
	mt_set(in, QP_DBR_UMEM_ID, q->umem->umem_id);
	mt_set(in, MT_FIELD(PRM_CREATE_QP_IN_QPC_DBR_ADDR_OFF + 32, 32),
	       MQ_DBR);
}

static inline bool mq_qp(struct mq *q, uint32_t cqn, struct mq_obj *o)
{
	uint32_t in[PRM_CREATE_QP_IN_BYTES / 4], out[4];

	mq_qp_in(q, in, cqn);
	return CHECK(mq_create(q, in, sizeof(in), o, out));
}

#endif /* MLX5X_QUEUES_H */
