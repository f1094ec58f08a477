// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5dv flow path in one run.
 *
 * Rule insertion rate (mlx5dv_create_flow into one flow matcher, each
 * rule a distinct source IPv4 address with a drop): at SMALL rules
 * (inserting the first SMALL into an empty priority) and at LARGE
 * (inserting the last SMALL on top of LARGE - SMALL), each ROUNDS times,
 * median and best, and their ratio.  The machine's other load moves
 * single figures a lot; the median of rounds taken close together is the
 * figure to compare.
 *
 * Classification cost, on the simulated device (its classifier; skipped,
 * saying so, elsewhere): a packet hitting the one rule of the matcher's
 * group, a packet hitting one of LARGE rules in that one group, and a
 * packet missing all of 64 groups (63 more matchers of the same priority,
 * each its own mask), per packet.
 *
 * Usage: mlx5x_flow_bench [IBDEV] [SMALL] [LARGE]
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <infiniband/mlx5dv.h>
#include "flow_bench.h"

#define MATCH_BYTES	512	/* fte_match_param */
#define SRC_IPV4_OFF	44	/* outer_headers.src_ipv4, bytes */
#define DST_IPV4_OFF	60	/* outer_headers.dst_ipv4 */
#define CRIT_OUTER	1
#define ROUNDS		5
#define SRC_BASE	0x0a000000	/* 10.0.0.0: the rules' sources */
#define PKT_DST		0x0a010001	/* 10.1.0.1 */
#define NO_SRC		0x0b000000	/* 11.0.0.0: no rule's source */
#define MORE_GROUPS	63
#define PACKETS		2000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A match parameter buffer with @ip at byte @off (source or dest IPv4). */
static struct mlx5dv_flow_match_parameters *params_at(unsigned int off,
						     uint32_t ip)
{
	struct mlx5dv_flow_match_parameters *p;
	uint32_t be = htonl(ip);

	p = calloc(1, sizeof(*p) + MATCH_BYTES);
	if (!p)
		return NULL;
	p->match_sz = MATCH_BYTES;
	memcpy((uint8_t *)p->match_buf + off, &be, 4);
	return p;
}

static struct mlx5dv_flow_match_parameters *params(uint32_t ip)
{
	return params_at(SRC_IPV4_OFF, ip);
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!name || !strcmp(ibv_get_device_name(list[i]), name)) {
			ctx = ibv_open_device(list[i]);
			break;
		}
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/* Insert rules [from, to) into @m; seconds, or < 0 on failure. */
static double insert(struct mlx5dv_flow_matcher *m,
		     struct mlx5dv_flow_match_parameters *val,
		     struct ibv_flow **flows, long from, long to)
{
	struct mlx5dv_flow_action_attr drop = {
		.type = MLX5DV_FLOW_ACTION_DROP,
	};
	double t0 = now_s();
	long i;

	for (i = from; i < to; i++) {
		uint32_t ip = htonl(SRC_BASE + (uint32_t)i);

		memcpy((uint8_t *)val->match_buf + SRC_IPV4_OFF, &ip, 4);
		flows[i] = mlx5dv_create_flow(m, val, 1, &drop);
		if (!flows[i]) {
			fprintf(stderr, "flow bench: rule %ld: %s\n", i,
				strerror(errno));
			return -1;
		}
	}
	return now_s() - t0;
}

/* Destroy rules [from, to), last first; seconds, or < 0. */
static double destroy(struct ibv_flow **flows, long from, long to)
{
	double t0 = now_s();
	long i;

	for (i = to - 1; i >= from; i--)
		if (ibv_destroy_flow(flows[i])) {
			fprintf(stderr, "flow bench: removing rule %ld failed\n", i);
			return -1;
		}
	return now_s() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Insert [from, to) ROUNDS times (destroying them between rounds):
 * the median and the best rate.
 */
static int rates(struct mlx5dv_flow_matcher *m,
		 struct mlx5dv_flow_match_parameters *val,
		 struct ibv_flow **flows, long from, long to, double *median,
		 double *best)
{
	double r[ROUNDS], t;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		t = insert(m, val, flows, from, to);
		if (t < 0 || destroy(flows, from, to) < 0)
			return -1;
		r[i] = (to - from) / t;
	}
	qsort(r, ROUNDS, sizeof(r[0]), cmp_double);
	*median = r[ROUNDS / 2];
	*best = r[ROUNDS - 1];
	return 0;
}

/* The matchers and rules that make 63 more groups in the same priority. */
struct more_groups {
	struct mlx5dv_flow_matcher *m[MORE_GROUPS];
	struct ibv_flow *f[MORE_GROUPS];
};

static void more_groups_free(struct more_groups *g)
{
	int i;

	for (i = 0; i < MORE_GROUPS; i++) {
		if (g->f[i])
			ibv_destroy_flow(g->f[i]);
		if (g->m[i])
			mlx5dv_destroy_flow_matcher(g->m[i]);
	}
}

/*
 * Masks of every source prefix /1 to /31 and destination prefix /1 to
 * /32, one matcher and one drop rule each (172.16.0.0 and 192.168.0.0
 * under the mask: the bench's packets differ in their first bit).
 */
static int more_groups_make(struct ibv_context *ctx, struct more_groups *g)
{
	struct mlx5dv_flow_action_attr drop = {
		.type = MLX5DV_FLOW_ACTION_DROP,
	};
	struct mlx5dv_flow_matcher_attr ma = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.match_criteria_enable = CRIT_OUTER,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};
	struct mlx5dv_flow_match_parameters *val;
	unsigned int off;
	uint32_t mask;
	int i, len;

	for (i = 0; i < MORE_GROUPS; i++) {
		len = i < 31 ? i + 1 : i - 30;
		off = i < 31 ? SRC_IPV4_OFF : DST_IPV4_OFF;
		mask = ~0u << (32 - len);
		ma.match_mask = params_at(off, mask);
		val = params_at(off, (i < 31 ? 0xac100000 : 0xc0a80000) & mask);
		if (ma.match_mask && val)
			g->m[i] = mlx5dv_create_flow_matcher(ctx, &ma);
		if (g->m[i])
			g->f[i] = mlx5dv_create_flow(g->m[i], val, 1, &drop);
		free(ma.match_mask);
		free(val);
		if (!g->f[i]) {
			fprintf(stderr, "flow bench: group %d: %s\n", i,
				strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* The classification figures, printed after the insertion figures. */
struct classify_figs {
	char path[256];		/* the classifier; "" when there is none */
	struct classify_cost one, big, groups;
};

static int cost(struct classify_figs *fig, const char *what,
		const struct classify_run *run, struct classify_cost *c)
{
	int err = classify_cost(fig->path, run, c);

	if (err)
		fprintf(stderr, "flow bench: classify %s: %s\n", what,
			strerror(-err));
	return err ? -1 : 0;
}

/* A packet hitting the one rule of the matcher's group. */
static int classify_one(struct classify_figs *fig,
			struct mlx5dv_flow_matcher *m,
			struct mlx5dv_flow_match_parameters *val,
			struct ibv_flow **flows)
{
	struct classify_run run = {
		.src_base = SRC_BASE,
		.nsrc = 1,
		.dst = PKT_DST,
		.packets = PACKETS,
		.hit = true,
	};
	int err;

	if (!fig->path[0])
		return 0;
	if (insert(m, val, flows, 0, 1) < 0)
		return -1;
	err = cost(fig, "1 rule", &run, &fig->one);
	if (destroy(flows, 0, 1) < 0)
		return -1;
	return err;
}

/*
 * With rules [0, @from) in the group, the rest up to @large: a packet
 * hitting one of them, then (63 more matchers of the priority) a packet
 * missing all 64 groups; the rules from @from on are destroyed after.
 */
static int classify_large(struct ibv_context *ctx, struct classify_figs *fig,
			  struct mlx5dv_flow_matcher *m,
			  struct mlx5dv_flow_match_parameters *val,
			  struct ibv_flow **flows, long from, long large)
{
	struct classify_run run = {
		.src_base = SRC_BASE,
		.nsrc = large,
		.dst = PKT_DST,
		.packets = PACKETS,
		.hit = true,
	};
	struct more_groups g = {};
	int err;

	if (!fig->path[0])
		return 0;
	if (insert(m, val, flows, from, large) < 0)
		return -1;
	err = cost(fig, "one group", &run, &fig->big);
	if (!err)
		err = more_groups_make(ctx, &g);
	if (!err) {
		/* sources no rule has: every group looked in, none hit */
		run.src_base = NO_SRC;
		run.hit = false;
		err = cost(fig, "64 groups", &run, &fig->groups);
	}
	more_groups_free(&g);
	if (destroy(flows, from, large) < 0)
		return -1;
	return err;
}

static void cost_print(const char *what, const struct classify_cost *c)
{
	printf("  %-34s median %6.1f us, best %6.1f us (%u group lookups)\n",
	       what, c->median_us, c->best_us, c->groups);
}

static void classify_print(const struct classify_figs *fig, long large)
{
	char what[64];

	if (!fig->path[0]) {
		printf("classification: skipped, no classifier (not the simulated device, or not root)\n");
		return;
	}
	printf("classification (%d packets a round, %d rounds, per packet, debugfs round trip included):\n",
	       PACKETS, CLASSIFY_ROUNDS);
	cost_print("1 rule in the group, hit", &fig->one);
	snprintf(what, sizeof(what), "%ld rules in one group, hit", large);
	cost_print(what, &fig->big);
	cost_print("64 groups, miss in all", &fig->groups);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	long small = argc > 2 ? atol(argv[2]) : 1000;
	long large = argc > 3 ? atol(argv[3]) : 100000;
	struct mlx5dv_flow_matcher_attr ma = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.match_criteria_enable = CRIT_OUTER,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};
	double med_s, best_s, med_l, best_l, t_fill, t_del;
	struct mlx5dv_flow_match_parameters *val;
	struct classify_figs fig = {};
	struct mlx5dv_flow_matcher *m;
	struct ibv_context *ctx;
	struct ibv_flow **flows;

	if (small < 1 || large < small) {
		fprintf(stderr, "usage: %s [IBDEV] [SMALL] [LARGE]\n", argv[0]);
		return 2;
	}
	ctx = open_dev(name);
	ma.match_mask = params(0xffffffff);
	val = params(0);
	flows = calloc(large, sizeof(*flows));
	if (!ctx || !ma.match_mask || !val || !flows) {
		fprintf(stderr, "flow bench: setup failed: %s\n",
			strerror(errno));
		return 1;
	}
	m = mlx5dv_create_flow_matcher(ctx, &ma);
	if (!m) {
		fprintf(stderr, "flow bench: matcher: %s\n", strerror(errno));
		return 1;
	}
	if (classify_path(fig.path, sizeof(fig.path),
			  ibv_get_device_name(ctx->device)))
		fig.path[0] = '\0';
	/* at SMALL: the first SMALL rules of an empty priority */
	if (rates(m, val, flows, 0, small, &med_s, &best_s) ||
	    classify_one(&fig, m, val, flows))
		return 1;
	/* at LARGE: the last SMALL rules, on top of LARGE - SMALL */
	t_fill = insert(m, val, flows, 0, large - small);
	if (t_fill < 0 ||
	    rates(m, val, flows, large - small, large, &med_l, &best_l) ||
	    classify_large(ctx, &fig, m, val, flows, large - small, large))
		return 1;
	t_del = destroy(flows, 0, large - small);
	if (t_del < 0)
		return 1;
	printf("flow insert (mlx5dv_create_flow, one matcher, %d rounds):\n",
	       ROUNDS);
	printf("  at %6ld rules: median %7.0f/s, best %7.0f/s\n", small,
	       med_s, best_s);
	printf("  at %6ld rules: median %7.0f/s, best %7.0f/s\n", large,
	       med_l, best_l);
	printf("  ratio %ld/%ld: %.2f (median), %.2f (best)\n", large, small,
	       med_l / med_s, best_l / best_s);
	printf("  filling 0-%ld: %.0f/s; destroying them: %.0f/s\n",
	       large - small, (large - small) / t_fill,
	       (large - small) / t_del);
	classify_print(&fig, large);
	mlx5dv_destroy_flow_matcher(m);
	free(flows);
	free(val);
	free(ma.match_mask);
	ibv_close_device(ctx);
	return 0;
}
