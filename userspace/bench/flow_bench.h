/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* mlx5x_flow_bench: the classifier's part (flow_bench_classify.c). */
#ifndef FLOW_BENCH_H
#define FLOW_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLASSIFY_ROUNDS	5

/*
 * One measurement: @packets packets from @src_base + 0 .. @nsrc - 1 to
 * @dst, each expected to hit a drop rule (@hit) or to miss every rule.
 */
struct classify_run {
	uint32_t src_base;
	long nsrc;
	uint32_t dst;
	long packets;
	bool hit;
};

/* Per packet, over CLASSIFY_ROUNDS rounds; groups the last one looked in. */
struct classify_cost {
	double median_us;
	double best_us;
	unsigned int groups;
};

/* The device's classifier file in @path; 0, or -errno if absent. */
int classify_path(char *path, size_t len, const char *ibdev);
int classify_cost(const char *path, const struct classify_run *run,
		  struct classify_cost *out);

#endif
