/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What the benchmarks time with, and how they sort what they measured. */
#ifndef MLX5X_BENCH_TIME_H
#define MLX5X_BENCH_TIME_H

#include <time.h>

/* CLOCK_MONOTONIC, in nanoseconds. */
static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* qsort() order of doubles, smallest first. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif /* MLX5X_BENCH_TIME_H */
