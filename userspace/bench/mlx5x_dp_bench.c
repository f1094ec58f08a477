// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Whether one context's traffic can stall the device for the others: the
 * latency of a simple command (ALLOC_PD + DEALLOC_PD through DEVX) from
 * context B, first with the device idle, then while context A keeps
 * NQPS raw packet QPs busy with sends, as fast as it can post them (each
 * QP 15 unsignalled sends and a signalled one per round, one CQ for all).
 * Prints the median, the 99th percentile and the worst of each, the
 * sends A posted, and the data path's longest hold of the model's lock
 * (debugfs fw/datapath, when readable).  Then A stops sending and keeps
 * its QPs ready: what the idle device costs, the worker's passes and
 * the time they took, a second.
 *
 * Each side runs for SECS seconds (at most 200000 commands).
 *
 * Usage: mlx5x_dp_bench [IBDEV] [NQPS] [SECS]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "bench_time.h"

#define OP_ALLOC_PD	0x800
#define BURST		16
#define FRAME		64

static struct ibv_device *find_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL), **d;

	for (d = list; d && *d; d++)
		if (name ? !strcmp(ibv_get_device_name(*d), name) :
			   !strncmp(ibv_get_device_name(*d), "mlx5x", 5))
			return *d;
	return NULL;
}

/*
 * ALLOC_PD + DEALLOC_PD through DEVX, for @secs seconds or @n times,
 * whichever ends first: each in @lat (us), sorted.  Returns how many.
 */
static int measure(struct ibv_context *ctx, double *lat, int n, double secs)
{
	uint32_t in[4] = { htonl(OP_ALLOC_PD << 16) }, out[4];
	double end = bench_now_ns() + secs * 1e9;
	int i;

	for (i = 0; i < n && bench_now_ns() < end; i++) {
		struct mlx5dv_devx_obj *obj;
		double t0 = bench_now_ns();

		obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out,
					     sizeof(out));
		if (!obj || mlx5dv_devx_obj_destroy(obj))
			return -1;
		lat[i] = (bench_now_ns() - t0) / 1e3;
	}
	qsort(lat, i, sizeof(*lat), bench_cmp_double);
	return i;
}

static void report(const char *what, const double *lat, int n)
{
	printf("%-30s %7d ops  median %6.1f us  p99 %7.1f us  p99.9 %8.1f us  max %9.1f us\n",
	       what, n, lat[n / 2], lat[n * 99 / 100], lat[n * 999 / 1000],
	       lat[n - 1]);
}

/* A raw packet QP on @cq, taken to RTS. */
static struct ibv_qp *raw_qp(struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 2 * BURST, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1,
			 .max_inline_data = FRAME },
		.qp_type = IBV_QPT_RAW_PACKET,
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_qp *qp = ibv_create_qp(pd, &init);

	if (!qp)
		return NULL;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PORT))
		goto err;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		goto err;
	a.qp_state = IBV_QPS_RTS;
	if (!ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return qp;
err:
	ibv_destroy_qp(qp);
	return NULL;
}

/*
 * Context A: NQPS QPs kept busy until killed.  Writes the number of QPs
 * it made to @ready, and counts the sends it posts in @posted[0]; once
 * @posted[1] is set, it posts no more and sleeps, its QPs still ready.
 */
static void load(struct ibv_device *dev, int nqps, int ready,
		 uint64_t *posted)
{
	struct ibv_qp **qp = calloc(nqps, sizeof(*qp));
	uint8_t frame[FRAME] = { 0x02, 0, 0, 0, 0, 0x99, 0x02, 0, 0, 0, 0, 1,
				 0x08, 0x00 };
	struct ibv_sge sge = { .addr = (uintptr_t)frame, .length = FRAME };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
	}, *bad;
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	struct ibv_cq *cq = pd ? ibv_create_cq(ctx, 2 * nqps, NULL, NULL,
					      0) : NULL;
	struct ibv_wc wc[64];
	int n = 0, i, j, k;

	for (; cq && qp && n < nqps; n++) {
		qp[n] = raw_qp(pd, cq);
		if (!qp[n])
			break;
	}
	if (write(ready, &n, sizeof(n)) != sizeof(n) || !n)
		_exit(1);
	for (;;) {
		while (__atomic_load_n(&posted[1], __ATOMIC_RELAXED))
			pause();
		for (i = 0; i < n; i++) {
			for (j = 0; j < BURST; j++) {
				wr.send_flags = IBV_SEND_INLINE |
					(j == BURST - 1 ? IBV_SEND_SIGNALED :
							  0);
				if (ibv_post_send(qp[i], &wr, &bad))
					break;
				__atomic_fetch_add(posted, 1,
						   __ATOMIC_RELAXED);
			}
		}
		/* one signalled send per QP and round to reap */
		for (k = 0; k < n;) {
			int got = ibv_poll_cq(cq, 64, wc);

			if (got < 0)
				_exit(2);
			k += got;
		}
	}
}

/* A figure of the data path's line in debugfs (@key "max_hold_ns"...). */
static double dp_figure(const char *dev, const char *key)
{
	char path[256], line[512], *p;
	double v = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/mlx5x/%s/fw/datapath", dev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f)) {
		p = strstr(line, key);
		if (p)
			v = strtod(p + strlen(key), NULL);
	}
	fclose(f);
	return v;
}

/* What the device costs a second while A's QPs are ready and idle. */
static void idle_cost(const char *dev, int made, uint64_t *posted)
{
	double p0, b0, p1, b1, t0, t;

	__atomic_store_n(&posted[1], 1, __ATOMIC_RELAXED);
	sleep(1);	/* the last sends complete, the quick polls end */
	p0 = dp_figure(dev, "passes ");
	b0 = dp_figure(dev, "busy_ns ");
	t0 = bench_now_ns();
	sleep(3);
	t = (bench_now_ns() - t0) / 1e9;
	p1 = dp_figure(dev, "passes ");
	b1 = dp_figure(dev, "busy_ns ");
	if (p0 < 0 || b0 < 0)
		return;
	printf("idle, %d QPs ready: %.0f passes/s, %.1f us/s in them (%.4f%% of a CPU)\n",
	       made, (p1 - p0) / t, (b1 - b0) / t / 1e3,
	       (b1 - b0) / t / 1e9 * 100);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	int nqps = argc > 2 ? atoi(argv[2]) : 512;
	double secs = argc > 3 ? atof(argv[3]) : 3;
	int n = 200000, got, made = 0, fd[2];
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	uint64_t *posted;
	struct ibv_context *ctx;
	struct ibv_device *dev;
	double *lat, t0;
	pid_t pid;

	dev = find_dev(name);
	lat = calloc(n, sizeof(*lat));
	posted = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!dev || !lat || posted == MAP_FAILED || pipe(fd)) {
		fprintf(stderr, "dp_bench: no device\n");
		return 1;
	}
	ctx = mlx5dv_open_device(dev, &attr);
	got = ctx ? measure(ctx, lat, n, secs) : -1;
	if (got <= 0) {
		fprintf(stderr, "dp_bench: DEVX ALLOC_PD failed\n");
		return 1;
	}
	printf("dp_bench: %s, ALLOC_PD+DEALLOC_PD from context B for %.1f s\n",
	       ibv_get_device_name(dev), secs);
	report("B alone (device idle)", lat, got);

	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		load(dev, nqps, fd[1], posted);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &made, sizeof(made)) != sizeof(made) || !made) {
		fprintf(stderr, "dp_bench: context A made no QP\n");
		return 1;
	}
	usleep(200000);
	__atomic_store_n(posted, 0, __ATOMIC_RELAXED);
	t0 = bench_now_ns();
	got = measure(ctx, lat, n, secs);
	if (got <= 0) {
		fprintf(stderr, "dp_bench: DEVX ALLOC_PD failed under load\n");
		kill(pid, SIGKILL);
		return 1;
	}
	t0 = (bench_now_ns() - t0) / 1e9;
	idle_cost(ibv_get_device_name(dev), made, posted);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	{
		char what[64];

		snprintf(what, sizeof(what), "B while A sends on %d QPs", made);
		report(what, lat, got);
	}
	printf("A posted %.0f sends/s meanwhile; longest data path hold: %.1f us\n",
	       __atomic_load_n(posted, __ATOMIC_RELAXED) / t0,
	       dp_figure(ibv_get_device_name(dev), "max_hold_ns ") / 1e3);
	ibv_close_device(ctx);
	return 0;
}
