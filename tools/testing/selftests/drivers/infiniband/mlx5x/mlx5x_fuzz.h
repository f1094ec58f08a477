/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5x_fuzz: what its files share.  A worker thread's state (its
 * context, the handles it holds, its corpus, its random numbers), the
 * building of one RDMA_VERBS_IOCTL call attribute by attribute, and
 * run(), which makes the call under KCOV and counts its outcome.
 *
 * mlx5x_fuzz.c: the DEVX, UMEM, UAR, event and async FD, PD and query
 * methods, the workers and main(); mlx5x_fuzz_fs.c: flow matchers,
 * mlx5dv flows, flow actions, steering anchors and device memory.
 */
#ifndef MLX5X_FUZZ_H
#define MLX5X_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_user_ioctl.h>

#define MAX_ATTRS	12
#define MAX_HANDLES	64
#define MAX_MBOX	4200
#define CORPUS		128
#define MATCH_BYTES	512	/* fte_match_param */
#define MAX_MATCHERS	16
#define MAX_ACTIONS	32
#define MAX_ANCHORS	32
#define MAX_DMS		8
#define FS_CORPUS	32

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
	FZ_GROUPS,
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
	uint32_t objs[MAX_HANDLES], umems[MAX_HANDLES], uars[MAX_HANDLES];
	unsigned int nobjs, numems, nuars;
	int async_fd, event_fd;
	struct ibv_pd *pds[16];
	unsigned int npds;
	struct fz_matcher matchers[MAX_MATCHERS];
	struct fz_action actions[MAX_ACTIONS];
	uint32_t flows[MAX_HANDLES], anchors[MAX_ANCHORS], dms[MAX_DMS];
	unsigned int nmatchers, nactions, nflows, nanchors, ndms;
	void *buf;
	size_t buf_len;
	uint64_t *kcov;
	int kcov_fd;
	struct input corpus[CORPUS];
	unsigned int ncorpus;
	struct fs_input fs_corpus[FS_CORPUS];
	unsigned int nfs_corpus;
	uint64_t rng;
	enum fz_group group;	/* of the op running */
	bool ok;	/* the last call succeeded */
};

extern __thread struct fuzz_worker w;

uint64_t rnd(void);
unsigned int below(unsigned int n);
unsigned int edge_len(unsigned int unit);

void call_init(struct call *c, uint16_t obj, uint16_t method);
void attr_in(struct call *c, uint16_t id, const void *p, size_t len);
void attr_out(struct call *c, uint16_t id, void *p, size_t len);
void attr_val(struct call *c, uint16_t id, uint64_t val);
void attr_num(struct call *c, uint16_t id, uint64_t val, size_t len);
bool run(struct call *c);

uint32_t pick(uint32_t *h, unsigned int n);
void drop(uint32_t *h, unsigned int *n, uint32_t id);

/* mlx5x_fuzz_fs.c */
void op_matcher(void);
void op_flow(void);
void op_action(void);
void op_anchor(void);
void op_dm(void);

#endif /* MLX5X_FUZZ_H */
