// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX create+destroy latency against the uverbs floor on the same device,
 * in one run: ALLOC_PD/DEALLOC_PD through mlx5dv_devx_obj_create/_destroy
 * beside ibv_alloc_pd/ibv_dealloc_pd, which execute the same firmware
 * commands through the verbs path.  Prints each median and their ratio.
 *
 * Usage: mlx5x_bench [IBDEV] [ITERATIONS]
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/mlx5dv.h>
#include "bench_time.h"

#define OP_ALLOC_PD	0x800
#define ROUNDS		7

/* One round: mean ns per create+destroy pair, or < 0 on failure. */
static double round_verbs(struct ibv_context *ctx, int n)
{
	double t0 = bench_now_ns();
	int i;

	for (i = 0; i < n; i++) {
		struct ibv_pd *pd = ibv_alloc_pd(ctx);

		if (!pd || ibv_dealloc_pd(pd))
			return -1;
	}
	return (bench_now_ns() - t0) / n;
}

static double round_devx(struct ibv_context *ctx, int n)
{
	uint32_t in[4] = { htonl(OP_ALLOC_PD << 16) }, out[4];
	double t0 = bench_now_ns();
	int i;

	for (i = 0; i < n; i++) {
		struct mlx5dv_devx_obj *obj;

		obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out,
					     sizeof(out));
		if (!obj || mlx5dv_devx_obj_destroy(obj))
			return -1;
	}
	return (bench_now_ns() - t0) / n;
}

int main(int argc, char **argv)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	double verbs[ROUNDS], devx[ROUNDS];
	struct ibv_device **list, **d;
	struct ibv_context *ctx;
	int n = argc > 2 ? atoi(argv[2]) : 20000, r;

	list = ibv_get_device_list(NULL);
	for (d = list; d && *d; d++)
		if (argc > 1 ? !strcmp(ibv_get_device_name(*d), argv[1]) :
		    !strncmp(ibv_get_device_name(*d), "mlx5x", 5))
			break;
	if (!d || !*d) {
		fprintf(stderr, "no mlx5x device\n");
		return 1;
	}
	ctx = mlx5dv_open_device(*d, &attr);
	if (!ctx || n <= 0) {
		perror("mlx5dv_open_device");
		return 1;
	}
	/* interleaved rounds, so drift hits both sides alike */
	for (r = 0; r < ROUNDS; r++) {
		verbs[r] = round_verbs(ctx, n);
		devx[r] = round_devx(ctx, n);
		if (verbs[r] < 0 || devx[r] < 0) {
			perror("create/destroy");
			return 1;
		}
	}
	qsort(verbs, ROUNDS, sizeof(double), bench_cmp_double);
	qsort(devx, ROUNDS, sizeof(double), bench_cmp_double);
	printf("bench: %s, %d create+destroy pairs x %d rounds, medians:\n",
	       ibv_get_device_name(*d), n, ROUNDS);
	printf("bench: uverbs floor ibv_alloc_pd+ibv_dealloc_pd   %8.0f ns\n",
	       verbs[ROUNDS / 2]);
	printf("bench: DEVX ALLOC_PD obj_create+obj_destroy       %8.0f ns\n",
	       devx[ROUNDS / 2]);
	printf("bench: ratio DEVX / uverbs floor                  %8.2f (goal <= 1.5)\n",
	       devx[ROUNDS / 2] / verbs[ROUNDS / 2]);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return 0;
}
