// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MEMIC copy bandwidth through the process's mapping of device memory
 * (ibv_memcpy_to_dm / ibv_memcpy_from_dm, which libmlx5 runs over the
 * mmapped MEMIC), beside plain memcpy between two host buffers of the
 * same size, in one run.  Prints the median of several rounds of each.
 *
 * On the simulated device MEMIC is host memory mapped cached, so the
 * figures show what libmlx5's copy loop costs against memcpy; on a
 * ConnectX they show the BAR's write-combining and read paths.
 *
 * Usage: mlx5x_dm_bench [IBDEV] [BYTES] [ITERATIONS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#define ROUNDS	7

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

enum what { PLAIN, TO_DM, FROM_DM };

/* One round: MB/s, or < 0 on failure. */
static double round_mbps(enum what w, struct ibv_dm *dm, uint8_t *src,
			 uint8_t *dst, size_t len, int iters)
{
	double t0 = now_s(), t;
	int i;

	for (i = 0; i < iters; i++) {
		switch (w) {
		case PLAIN:
			memcpy(dst, src, len);
			/* keep the copy from being elided */
			__asm__ __volatile__("" : : "r"(dst) : "memory");
			break;
		case TO_DM:
			if (ibv_memcpy_to_dm(dm, 0, src, len))
				return -1;
			break;
		case FROM_DM:
			if (ibv_memcpy_from_dm(dst, dm, 0, len))
				return -1;
			break;
		}
	}
	t = now_s() - t0;
	return (double)len * iters / t / 1e6;
}

static double median_mbps(enum what w, struct ibv_dm *dm, uint8_t *src,
			  uint8_t *dst, size_t len, int iters)
{
	double r[ROUNDS];
	int i;

	for (i = 0; i < ROUNDS; i++) {
		r[i] = round_mbps(w, dm, src, dst, len, iters);
		if (r[i] < 0)
			return -1;
	}
	qsort(r, ROUNDS, sizeof(r[0]), cmp_double);
	return r[ROUNDS / 2];
}

int main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : NULL;
	size_t len = argc > 2 ? strtoul(argv[2], NULL, 0) : 65536;
	int iters = argc > 3 ? atoi(argv[3]) : 2000;
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_alloc_dm_attr attr = { .length = len };
	struct ibv_context *ctx = NULL;
	double plain, to, from;
	uint8_t *src, *dst;
	struct ibv_dm *dm;
	int i;

	for (i = 0; list && list[i]; i++)
		if (want ? !strcmp(ibv_get_device_name(list[i]), want) :
			   !strncmp(ibv_get_device_name(list[i]), "mlx5x", 5)) {
			ctx = ibv_open_device(list[i]);
			break;
		}
	if (list)
		ibv_free_device_list(list);
	if (!ctx || len % 4 || iters <= 0) {
		fprintf(stderr, "mlx5x_dm_bench: no device, or a bad size\n");
		return 1;
	}
	dm = ibv_alloc_dm(ctx, &attr);
	src = aligned_alloc(64, len);
	dst = aligned_alloc(64, len);
	if (!dm || !src || !dst) {
		perror("mlx5x_dm_bench: ibv_alloc_dm");
		return 1;
	}
	memset(src, 0xa5, len);
	memset(dst, 0, len);
	plain = median_mbps(PLAIN, dm, src, dst, len, iters);
	to = median_mbps(TO_DM, dm, src, dst, len, iters);
	from = median_mbps(FROM_DM, dm, src, dst, len, iters);
	if (to < 0 || from < 0 || memcmp(src, dst, len)) {
		fprintf(stderr, "mlx5x_dm_bench: copy failed\n");
		return 1;
	}
	printf("MEMIC copy, %zu bytes x %d, median of %d rounds:\n", len,
	       iters, ROUNDS);
	printf("  memcpy host->host     %10.0f MB/s\n", plain);
	printf("  ibv_memcpy_to_dm      %10.0f MB/s  (%.2fx memcpy)\n", to,
	       to / plain);
	printf("  ibv_memcpy_from_dm    %10.0f MB/s  (%.2fx memcpy)\n", from,
	       from / plain);
	ibv_free_dm(dm);
	ibv_close_device(ctx);
	free(src);
	free(dst);
	return 0;
}
