/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5x_fuzz: what its files share.  A worker thread's state (its
 * context, the handles it holds, its corpus, its random numbers), the
 * building of one RDMA_VERBS_IOCTL call attribute by attribute, and
 * run(), which makes the call under KCOV and counts its outcome.
 *
 * mlx5x_fuzz.c: the UAR and query methods, the workers and main();
 * mlx5x_fuzz_devx.c: the DEVX object, general command, async command and
 * event methods, and the corpus of mailboxes; mlx5x_fuzz_fs.c: flow
 * matchers, mlx5dv flows, flow actions, steering anchors and device
 * memory; mlx5x_fuzz_mem.c: the memory the device reaches (UMEMs over
 * regions of every kind) and the DEVX CQs, RQs, SQs, mkeys and TIRs over
 * it; mlx5x_fuzz_wqe.c: raw packet QPs, MRs, verbs flows and PDs, and the
 * WQEs written into the send and receive rings of all of those queues;
 * mlx5x_fuzz_rc.c: RC traffic between the worker's RC QPs, through
 * libmlx5 and written by hand into their rings, and the guards that no
 * write may reach; mlx5x_fuzz_umr.c: indirect, signature and crypto
 * mkeys, DEKs, the UMR WRs that configure them and traffic through them.
 */
#ifndef MLX5X_FUZZ_H
#define MLX5X_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_user_ioctl.h>
#include "mlx5x_prm.h"

#define MAX_ATTRS	12
#define MAX_HANDLES	64
#define MAX_MBOX	4200
#define CORPUS		128
#define MATCH_BYTES	PRM_FTE_MATCH_PARAM_BYTES
#define MAX_MATCHERS	16
#define MAX_ACTIONS	32
#define MAX_ANCHORS	32
#define MAX_DMS		8
#define FS_CORPUS	32
#define MAX_UMEMS	32
#define MAX_QUEUES	48
#define MAX_RAW		4	/* raw packet QPs */
#define MAX_MRS		8
#define REGIONS		4
#define MAX_RC		6	/* RC QPs, and CQs for them */
#define FZ_PUBS		128	/* guards published to the other workers */
#define FZ_PROCS	256	/* worker processes that count in fz_busy[] */

/**
 * struct call - one RDMA_VERBS_IOCTL call
 * @hdr: its header; hdr.length is set by run()
 * @attrs: its attributes, hdr.num_attrs of them
 * @outs: the attributes the kernel writes through (bit per index of
 *	  @attrs): mutations must not point them anywhere else.  Not sent.
 */
struct call {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[MAX_ATTRS];
	uint32_t outs;
};

/* A DEVX mailbox that reached new code. */
struct input {
	uint16_t len;
	uint8_t buf[MAX_MBOX];
};

/* A steering buffer that reached new code, of a kind of mlx5x_fuzz_fs.c. */
struct fs_input {
	uint8_t kind;
	uint16_t len;
	uint8_t buf[MATCH_BYTES];
};

/**
 * struct fz_matcher - a flow matcher a worker holds
 * @handle: its uverbs handle
 * @ft: MLX5_IB_UAPI_FLOW_TABLE_TYPE_* it was asked for
 * @normal: of flow type NORMAL: flows may be made through it
 * @mask: its match mask, zero past what was given
 */
struct fz_matcher {
	uint32_t handle;
	uint8_t ft;
	bool normal;
	uint8_t mask[MATCH_BYTES];
};

/**
 * struct fz_action - a flow action a worker holds
 * @handle: its uverbs handle
 * @ft: MLX5_IB_UAPI_FLOW_TABLE_TYPE_* it was made for
 */
struct fz_action {
	uint32_t handle;
	uint8_t ft;
};

/* What run() counts calls by: the ops setting w.group, the rest. */
enum fz_group {
	FZ_OTHER,
	FZ_MATCHER,
	FZ_FLOW,
	FZ_ACTION,
	FZ_ANCHOR,
	FZ_DM,
	FZ_UMEM,
	FZ_QUEUE,
	FZ_RAW,
	FZ_RC,
	FZ_UMR,
	FZ_GROUPS,
};

/* What is counted besides calls (stat_add()). */
enum fz_stat {
	FZ_SEND_WQES,		/* send WQEs written into a ring */
	FZ_RECV_WQES,		/* receive WQEs written */
	FZ_DOORBELLS,		/* doorbell records moved */
	FZ_CQES,		/* CQEs found and consumed */
	FZ_CQE_SESSIONS,	/* of them in compressed sessions, the sessions */
	FZ_RO_WRITTEN,		/* read-only regions found changed */
	FZ_RC_WRS,		/* RC send WRs posted through libmlx5 */
	FZ_RC_RECVS,		/* RC receive WRs posted, or written by hand */
	FZ_RC_RAW,		/* RC send WQEs written by hand */
	FZ_RC_OK,		/* RC completions (libmlx5) without error */
	FZ_RC_ERR,		/* and in error */
	FZ_RC_HAND,		/* RC CQEs polled by hand */
	FZ_RC_POLL_ERR,		/* ibv_poll_cq() failures */
	FZ_RC_DRAINS,		/* QPs moved to ERR and seen to complete all */
	FZ_RC_STUCK,		/* QPs in ERR that did not */
	FZ_RC_FOREIGN,		/* or on a CQ another object named */
	FZ_GUARD_CHECKS,	/* guards checked */
	FZ_GUARD_WRITTEN,	/* guards found changed */
	FZ_KILLS,		/* worker processes killed (-k) */
	FZ_KILLS_BUSY,		/* of them holding RC QPs with WQEs posted */
	FZ_UD_WRS,		/* UD send WRs posted through libmlx5 */
	FZ_UD_RECVS,		/* UD and SRQ receives, posted or by hand */
	FZ_UD_RAW,		/* UD send WQEs written by hand */
	FZ_UD_CQES,		/* UD completions polled */
	FZ_UD_SENT,		/* of them (libmlx5) sends without error */
	FZ_UD_DELIVERED,	/* and receives without error */
	FZ_UMR_WRS,		/* UMR WRs (mkey configure...) tried */
	FZ_UMR_HAND,		/* UMR WQEs written by hand, one field mutated */
	FZ_UMR_TRAFFIC,		/* WRs of traffic through the mkeys posted */
	FZ_UMR_OK,		/* the UMR pair's completions without error */
	FZ_UMR_ERR,		/* and in error */
	FZ_UMR_STUCK,		/* WRs of the UMR pair or hand QP not completed */
	FZ_UMR_SQD,		/* its send queues stopped by sig pipelining */
	FZ_RC_WC,		/* RC completions (libmlx5) by status: 32 */
	FZ_UMR_WC = FZ_RC_WC + 32,	/* the UMR pair's, by status: 32 */
	FZ_STATS = FZ_UMR_WC + 32,
};

/**
 * struct fz_region - memory that umems and MRs are made over
 * @base: its first byte (NULL: not mapped now)
 * @len: bytes of the buffer; the mapping is whole pages, @map of them
 * @map: bytes mapped
 * @ro: mapped PROT_READ, filled before with pattern(@seed): the process
 *	cannot write it and no device may, so it must never change
 * @seed: of its pattern
 */
struct fz_region {
	uint8_t *base;
	size_t len, map;
	bool ro;
	uint8_t seed;
};

/**
 * struct fz_umem - a UMEM a worker registered
 * @handle: its uverbs handle
 * @id: its umem id
 * @addr: the address registered
 * @len: its length
 * @wr: registered with IBV_ACCESS_LOCAL_WRITE
 */
struct fz_umem {
	uint32_t handle, id;
	uint8_t *addr;
	uint64_t len;
	bool wr;
};

enum fz_qkind { QK_CQ, QK_RQ, QK_SQ, QK_MKEY, QK_TIR, QK_KINDS };

/**
 * struct fz_queue - a DEVX object over umems, or a queue of a raw QP
 * @handle: its uverbs handle (DEVX), 0 for a raw QP's
 * @id: cqn, rqn, sqn, mkey index or tirn
 * @kind: QK_*
 * @state: RQ, SQ: the state it was last moved to
 * @log_n: log2 of its entries (SQ: basic blocks)
 * @log_stride: log2 of an entry's bytes
 * @ring: its buffer, NULL unless the process may write all of it
 * @dbr: its doorbell record, NULL unless the process may write it
 * @pi: SQ: basic blocks posted; RQ: WQEs posted; CQ: CQEs consumed
 * @cqn: RQ, SQ: the CQ it was made on
 * @errs: CQ: error CQEs found, for the queues on it to be restarted
 * @key: MKEY: its key
 * @va: MKEY: the address it starts at
 * @len: MKEY: its length
 */
struct fz_queue {
	uint32_t handle, id;
	uint8_t kind, state, log_n, log_stride;
	uint8_t *ring;
	uint32_t *dbr;
	uint32_t pi, cqn, errs;
	uint32_t key;
	uint64_t va, len;
};

/**
 * struct fz_raw - a raw packet QP with its CQ and flows (libibverbs)
 * @sq: its send queue as the WQE writers see it
 * @rq: its receive queue
 * @cq: its CQ, for both
 */
struct fz_raw {
	struct ibv_qp *qp;
	struct ibv_cq *ibcq;
	struct ibv_flow *flows[2];
	struct fz_queue sq, rq, cq;
};

/**
 * struct fz_rc_cq - a CQ of RC QPs
 * @cq: it; NULL: the slot is free
 * @v: its ring, as poll_cq() polls it
 * @hand: polled by hand since a QP on it went raw; libmlx5 never again
 * @lost: libmlx5's poll failed on it once
 * @users: QPs on it
 * @cap: its CQEs
 */
struct fz_rc_cq {
	struct ibv_cq *cq;
	struct fz_queue v;
	bool hand, lost;
	unsigned int users, cap;
};

/**
 * struct fz_rc - an RC (or UC) QP
 * @qp: it; NULL: the slot is free
 * @cq: its send and receive CQ, an index in fz_mem.rcq
 * @raw: its rings are written by hand; libmlx5 never posts on it again
 * @posted: WQEs were posted since it was last reset or drained
 * @failed: a completion in error was seen: the QP is in ERR, most likely
 * @clean: of a pair connected as applications do, where most WRs are
 *	   well formed, so that traffic flows
 * @marks: the drain's markers seen (bit 0 send, bit 1 receive)
 * @need: CQEs it may have outstanding (its SQ's basic blocks and RQ's WQEs)
 * @sq: its send ring as the hand writer sees it
 * @rq: its receive ring
 * @max_sge: its max_send_sge
 * @max_rsge: its max_recv_sge
 * @dest: the QP number it was last connected to
 */
struct fz_rc {
	struct ibv_qp *qp;
	unsigned int cq;
	bool raw, posted, failed, clean;
	uint8_t marks;
	uint32_t need;
	struct fz_queue sq, rq;
	uint32_t max_sge, max_rsge, dest;
};

/**
 * struct fz_guard - memory behind a key that must never be written
 * @base: its first byte (NULL: none now)
 * @len: bytes
 * @seed: of its pattern
 * @mr: the MR over it: in another context with every access (the
 *	worker's QPs may not use it), or in the worker's PD with no right to
 *	write (pinned read-only)
 */
struct fz_guard {
	uint8_t *base;
	size_t len;
	uint8_t seed;
	struct ibv_mr *mr;
};

/**
 * struct fz_victim - RC traffic of the guard context, from a canary
 * @canary: memory pinned writable, which its QPs only ever send from
 * @cq: the CQ of both QPs
 * @qp: two RC QPs connected to each other
 * @rmr: the MR of @rbuf, where the SENDs land
 * @rbuf: GUARD_BYTES
 * @out: WRs posted and not yet completed
 */
struct fz_victim {
	struct fz_guard canary;
	struct ibv_cq *cq;
	struct ibv_qp *qp[2];
	struct ibv_mr *rmr;
	uint8_t *rbuf;
	unsigned int out;
};

/* A guard a worker published, for the others to try (fz_pubs). */
struct fz_pub {
	uint64_t addr;
	uint32_t key, len;
};

/**
 * struct fz_mem - what mlx5x_fuzz_mem.c, _wqe.c and _rc.c keep
 *
 * The umems, queues and raw QPs are the worker's current context's; the
 * regions outlive it, to be checked and made anew once it is closed.
 * @lab: the context has @pdn, @tdn, @tisn, @uar and @eqn for queues
 */
struct fz_mem {
	struct fz_region rg[REGIONS];
	struct fz_umem umems[MAX_UMEMS];
	struct fz_queue q[MAX_QUEUES];
	unsigned int numems, nq;
	bool lab;
	unsigned int lab_tries;
	uint32_t pdn, tdn, tisn, uar, eqn;
	struct ibv_pd *pd;
	struct fz_raw raw[MAX_RAW];
	struct ibv_mr *mrs[MAX_MRS];
	unsigned int nraw, nmrs;
	struct fz_rc rc[MAX_RC];
	struct fz_rc_cq rcq[MAX_RC];
	struct fz_guard guard[2], work;
	struct fz_victim victim;
	struct ibv_context *gctx;
	struct ibv_pd *gpd;
	uint32_t stale[4];
	int gid;
	uint64_t wr_id;
};

/**
 * struct fuzz_worker - the state of one worker thread (one context)
 *
 * The handles are those of objects the worker made and has not
 * destroyed, as far as it knows; closing the context frees them all.
 */
struct fuzz_worker {
	struct ibv_context *ctx;
	int fd;
	uint32_t objs[MAX_HANDLES], uars[MAX_HANDLES];
	unsigned int nobjs, nuars;
	int async_fd, event_fd;
	struct ibv_pd *pds[16];
	unsigned int npds;
	struct fz_matcher matchers[MAX_MATCHERS];
	struct fz_action actions[MAX_ACTIONS];
	uint32_t flows[MAX_HANDLES], anchors[MAX_ANCHORS], dms[MAX_DMS];
	unsigned int nmatchers, nactions, nflows, nanchors, ndms;
	struct fz_mem mem;
	uint64_t *kcov;
	int kcov_fd;
	struct input corpus[CORPUS];
	unsigned int ncorpus;
	struct fs_input fs_corpus[FS_CORPUS];
	unsigned int nfs_corpus;
	uint64_t rng;
	unsigned int slot, proc;	/* in fz_pubs, in fz_busy */
	enum fz_group group;	/* of the op running */
	bool ok;	/* the last call succeeded */
};

extern __thread struct fuzz_worker w;
extern bool resilient;
/* shared by every worker: guards published, RC QPs busy per process */
extern struct fz_pub *fz_pubs;
extern int *fz_busy;

uint64_t rnd(void);
unsigned int below(unsigned int n);
unsigned int edge_len(unsigned int unit);

void call_init(struct call *c, uint16_t obj, uint16_t method);
void attr_in(struct call *c, uint16_t id, const void *p, size_t len);
void attr_out(struct call *c, uint16_t id, void *p, size_t len);
void attr_val(struct call *c, uint16_t id, uint64_t val);
void attr_num(struct call *c, uint16_t id, uint64_t val, size_t len);
bool run(struct call *c);
void cov_start(void);
bool ran(bool ok);
void stat_add(enum fz_stat s, unsigned long long n);

uint32_t pick(uint32_t *h, unsigned int n);
void drop(uint32_t *h, unsigned int *n, uint32_t id);

/* mlx5x_fuzz_devx.c */
void op_obj_create(void);
void op_obj_destroy(void);
void op_obj_cmd(void);
void op_async(void);
void op_events(void);
void keep(const uint8_t *in, unsigned int len);

/* mlx5x_fuzz_fs.c */
void op_matcher(void);
void op_flow(void);
void op_action(void);
void op_anchor(void);
void op_dm(void);

/* mlx5x_fuzz_mem.c */
void op_umem(void);
void op_queue(void);
void mem_reset(void);
uint8_t *region_pick(uint64_t *len, bool *ro);
bool region_holds(const uint8_t *p, uint64_t len, bool *ro);
unsigned int poll_cq(struct fz_queue *cq);
unsigned int cq_take(struct fz_queue *cq, bool any);
struct fz_queue *pick_queue(unsigned int kind);
struct fz_queue *find_queue(unsigned int kind, uint32_t id);
void queue_restart(struct fz_queue *q);

/* mlx5x_fuzz_wqe.c */
void op_wqe(void);
void op_raw(void);
void raw_release(void);
void op_pd(void);
bool pd_get(void);
struct mlx5dv_qp;
struct mlx5dv_cq;
void qp_rings(const struct mlx5dv_qp *dq, uint32_t qpn, struct fz_queue *sq,
	      struct fz_queue *rq);
void cq_ring(const struct mlx5dv_cq *dc, struct fz_queue *cq);
/* a data segment's key, address and length, for recv_segs() */
typedef void fz_pick_fn(uint32_t *key, uint64_t *addr, uint32_t *len,
			void *arg);
void sq_put(struct fz_queue *q, const uint8_t *wqe, unsigned int ds);
void wq_doorbell(struct fz_queue *q, bool sq);
void recv_segs(uint8_t *p, uint32_t bytes, fz_pick_fn *pick, void *arg);
unsigned int recv_wqes(struct fz_queue *q, fz_pick_fn *pick, void *arg);
void mr_dereg(void);
void print_datapath(const char *dev);

/* mlx5x_fuzz_rc.c */
void op_rc(void);
void op_rc_post(void);
void rc_release(void);

/* mlx5x_fuzz_umr.c */
void op_umr(void);
void umr_release(void);

/* mlx5x_fuzz_ud.c */
void op_ud(void);
void op_ud_post(void);
void ud_release(void);

#endif /* MLX5X_FUZZ_H */
