/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Builders the selftest programs share, for their fixtures and cases:
 *
 *   struct mt_ctx        a context, and the model's objects before it;
 *                        shared fixtures on it (mt_ctx_fixture, ...)
 *   struct mt_devx_env   a DEVX context, a PD and its number, a umem
 *   struct mt_verbs_env  a context, a PD and a CQ, and the model's
 *                        object count before them
 *   mt_raw_qp()          a RAW_PACKET QP, taken to RTS if asked, or
 *                        with its TIR as the model names it
 *   mt_devx_refused()    a DEVX create firmware refused, as it must be
 *   mt_devx_rx_table()   a DEVX flow table, and mt_devx_fwd() an entry
 *   mt_run_child()       a function run in a child (mt_drop_cap())
 *   mt_imkey_*()         the kernel's table of indirect mkeys
 *   mt_dp_figure()       a figure of the model's fw/datapath
 *   mt_classify()        the model's classifier: where a packet goes
 *   struct mt_pkt        a packet built up header by header (mlx5x_pkt.c)
 *
 * Each open function fills what it gets to and checks each step
 * (CHECK()); its close frees what is there, checks that every free
 * succeeds and, on the model, that nothing of the context is left.  So an
 * open that stopped half way is closed like a whole one, as a fixture's
 * teardown is run.
 */
#ifndef MLX5X_FIXTURES_H
#define MLX5X_FIXTURES_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"

#define MT_PAGE		4096

/**
 * struct mt_ctx - a context, and what the model held before it
 * @ctx: the context; a case that closes it itself sets it to NULL
 * @uid: its DEVX uid as the model shows it (0: none; -1: unknown)
 * @base: the model's objects before it (-1 on hardware)
 */
struct mt_ctx {
	struct ibv_context *ctx;
	int uid;
	int base;
};

bool mt_ctx_open(struct mt_ctx *c, enum mt_open_mode mode);
void mt_ctx_close(struct mt_ctx *c);
/*
 * A program's own fixture on struct mt_ctx, with a precondition: its
 * setup returns mt_ctx_setup_need(), its teardown is mt_ctx_teardown().
 * MT_CTX_FIXTURE(fx, mode, need) defines one, fx_fixture; a case on it is
 * MT_TEST_F(mt_ctx, NAME) with MT_CASE_F(fx, NAME).
 */
int mt_ctx_setup_need(struct mt_ctx *c, enum mt_open_mode mode,
		      int (*need)(void));
void mt_ctx_teardown(void *self);

#define MT_CTX_FIXTURE(fx, mode, need)					\
	static int fx##_setup(void *self)				\
	{								\
		return mt_ctx_setup_need(self, (mode), (need));		\
	}								\
	static const struct mt_fixture fx##_fixture = {			\
		.name = #fx,						\
		.size = sizeof(struct mt_ctx),				\
		.setup = fx##_setup,					\
		.teardown = mt_ctx_teardown,				\
	}

/*
 * Fixtures on struct mt_ctx, by how the context is opened; a case on one
 * is MT_TEST_F(mt_ctx, NAME) with MT_CASE_ON(mt_devx_ctx_fixture, NAME).
 * The teardown closes the context unless the case did, and checks that
 * the model holds what it held before.  mt_nodevx_ctx_fixture's setup
 * skips where there is no model (only the model refuses DEVX).
 */
extern const struct mt_fixture mt_ctx_fixture;		/* MT_OPEN_DEFAULT */
extern const struct mt_fixture mt_devx_ctx_fixture;	/* MT_OPEN_DEVX */
extern const struct mt_fixture mt_nodevx_ctx_fixture;	/* MT_OPEN_NODEVX */

/* A case of MT_TEST_F_PARTS(type, nm) on a fixture of another name */
#define MT_CASE_ON_PARTS(fxobj, nm, n, ...)				\
	{ .name = #nm, .fixture = &(fxobj),				\
	  .part_f = test_##nm##_any, .parts = (n), __VA_ARGS__ }

/**
 * struct mt_devx_env - a DEVX context with what most DEVX objects name
 * @ctx: the context (mlx5dv_open_device() with DEVX)
 * @uid: its DEVX uid as the model shows it (-1 on hardware)
 * @pd: a PD of it
 * @pdn: the PD's number
 * @buf: @len bytes, page aligned and zeroed, registered as @umem
 * @len: their length
 * @umem: a DEVX umem over @buf, local write, 4 KiB pages
 */
struct mt_devx_env {
	struct ibv_context *ctx;
	int uid;
	struct ibv_pd *pd;
	uint32_t pdn;
	void *buf;
	size_t len;
	struct mlx5dv_devx_umem *umem;
};

bool mt_devx_env_open(struct mt_devx_env *e, size_t umem_bytes);
void mt_devx_env_close(struct mt_devx_env *e);

/**
 * struct mt_verbs_env - a context with a PD and a CQ, through verbs
 * @ctx: the context, opened as asked (mt_open()); most cases ask for
 *	 MT_OPEN_DEFAULT, ibv_open_device(), where libmlx5 asks for DEVX
 * @uid: its DEVX uid as the model shows it (-1 on hardware)
 * @pd: a PD of it
 * @cq: a CQ of 64 entries, no channel
 * @base: the model's objects before the context (-1 on hardware)
 */
struct mt_verbs_env {
	struct ibv_context *ctx;
	int uid;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	int base;
};

bool mt_verbs_env_open(struct mt_verbs_env *e, enum mt_open_mode mode);
void mt_verbs_env_close(struct mt_verbs_env *e);

struct ibv_qp *mt_raw_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			 unsigned int wrs, unsigned int sges, bool to_rts);
int mt_qp_to_rts(struct ibv_qp *qp);
struct ibv_qp *mt_raw_qp_tir(struct ibv_pd *pd, struct ibv_cq *cq,
			     unsigned int wrs, unsigned int sges,
			     uint32_t *tir);

bool mt_devx_refused(struct mlx5dv_devx_obj *obj, const void *out,
		     uint8_t status, uint32_t synd, const char *what);

/* DEVX flow steering: a table of NIC RX, an entry forwarding a TCP port */
bool mt_devx_rx_table(struct ibv_context *ctx, struct mlx5dv_devx_obj **ft,
		      uint32_t *ft_id, struct mlx5dv_devx_obj **fg,
		      uint32_t *fg_id);
struct mlx5dv_devx_obj *mt_devx_fwd(struct ibv_context *ctx, uint32_t ft,
				    uint32_t fg, uint32_t index,
				    uint16_t dport, uint32_t to, uint32_t *out);
/* A flow of a matcher, a steering anchor; what a classifier trace holds */
struct ibv_flow *mt_dv_flow(struct mlx5dv_flow_matcher *m,
			    struct mlx5dv_flow_match_parameters *v,
			    struct mlx5dv_flow_action_attr *act, size_t n);
struct mlx5dv_steering_anchor *mt_anchor(struct ibv_context *ctx, int type,
					 int prio);
__printf(2, 3) bool mt_traced(const char *trace, const char *fmt, ...);

/* DEVX flow counters: one, and the packets it counted */
struct mlx5dv_devx_obj *mt_flow_counter(struct ibv_context *ctx, uint32_t *id);
long long mt_flow_counted(struct mlx5dv_devx_obj *o, uint32_t id);

/* Children: what a process without a capability may do */
bool mt_drop_cap(unsigned int cap);
int mt_run_child(int (*fn)(void *), void *arg);

/* The kernel's table of indirect mkeys (debugfs indirect_mkeys) */
bool mt_imkey_line(struct ibv_context *ctx, uint32_t key, char *line,
		   size_t len);
int mt_imkey_uid(const char *line, int uid);
int mt_imkey_count(struct ibv_context *ctx, int uid);

/* The model's classifier (fw/classify), and a packet to walk through it */
long long mt_dp_figure(const char *path, const char *line, const char *name);

#define MT_TCP80_BYTES	54
extern const uint8_t mt_tcp80[MT_TCP80_BYTES];

int mt_classify(const char *dir, int port, const char *hex, char *trace,
		size_t len);
int mt_classify_bytes(const char *dir, int port, const void *pkt, size_t n,
		      char *trace, size_t len);

/**
 * struct mt_pkt - a packet, built up header by header
 * @b: its bytes
 * @len: how many are in use
 */
struct mt_pkt {
	uint8_t b[512];
	unsigned int len;
};

#define MT_ETH_IPV4	0x0800
#define MT_ETH_IPV6	0x86dd
#define MT_ETH_VLAN	0x8100
#define MT_IP_TCP	6
#define MT_IP_UDP	17
#define MT_IP_GRE	47

void mt_pkt_put(struct mt_pkt *p, const void *b, unsigned int n);
void mt_pkt_put16(struct mt_pkt *p, uint16_t v);
void mt_pkt_put32(struct mt_pkt *p, uint32_t v);
void mt_pkt_eth(struct mt_pkt *p, const uint8_t *dmac, const uint8_t *smac,
		int vid, uint16_t type);
void mt_pkt_ipv4(struct mt_pkt *p, const char *src, const char *dst,
		 uint8_t proto, uint8_t tos);
void mt_pkt_ipv6(struct mt_pkt *p, const char *src, const char *dst,
		 uint8_t next, uint32_t label);
void mt_pkt_l4(struct mt_pkt *p, bool tcp, uint16_t sport, uint16_t dport);
void mt_pkt_ipv4_finish(struct mt_pkt *p, unsigned int ip);
uint16_t mt_ip_csum(const uint8_t *h, unsigned int len);

/* Completions: one polled within @ms, and what it says */
bool mt_poll_one(struct ibv_cq *cq, struct ibv_wc *wc, long ms);
bool mt_wc_is(const struct ibv_wc *wc, uint64_t wr_id,
	      enum ibv_wc_status status, enum ibv_wc_opcode opcode);

#endif /* MLX5X_FIXTURES_H */
