// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Classification cost, for mlx5x_flow_bench: a UDP/IPv4 packet written to
 * the simulated device's classifier (debugfs fw/classify, root only), the
 * trace read back and checked, timed per packet.  The figure includes the
 * debugfs write and read and the trace's formatting, the same for every
 * rule count; what grows with the rules is the walk itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench_time.h"
#include "flow_bench.h"

#define DEBUGFS		"/sys/kernel/debug/mlx5x"
#define TRACE_BYTES	(64 * 1024)
#define PKT_BYTES	60

static char trace[TRACE_BYTES];

int classify_path(char *path, size_t len, const char *ibdev)
{
	snprintf(path, len, DEBUGFS "/%s/fw/classify", ibdev);
	return access(path, W_OK) ? -errno : 0;
}

/* Ethernet, IPv4 (@src, @dst), UDP 4000 -> 5000, as hex. */
static void packet_hex(char *hex, uint32_t src, uint32_t dst)
{
	uint8_t p[PKT_BYTES] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55,	/* dmac */
		0x00, 0x66, 0x77, 0x88, 0x99, 0xaa,	/* smac */
		0x08, 0x00,				/* IPv4 */
		0x45, 0x00, 0x00, PKT_BYTES - 14,	/* version, len */
		0x00, 0x00, 0x00, 0x00, 0x40, 0x11,	/* ttl, UDP */
	};
	int i;

	for (i = 0; i < 4; i++) {
		p[26 + i] = src >> (24 - 8 * i);
		p[30 + i] = dst >> (24 - 8 * i);
	}
	p[34] = 4000 >> 8;
	p[35] = 4000 & 0xff;
	p[36] = 5000 >> 8;
	p[37] = 5000 & 0xff;
	p[39] = PKT_BYTES - 34;			/* UDP length */
	for (i = 0; i < PKT_BYTES; i++)
		sprintf(hex + 2 * i, "%02x", p[i]);
}

/* Classify one packet; the trace in trace[]. */
static int classify(const char *path, uint32_t src, uint32_t dst)
{
	char line[16 + 2 * PKT_BYTES];
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	strcpy(line, "rx 1 ");
	packet_hex(line + 5, src, dst);
	strcat(line, "\n");
	if (write(fd, line, strlen(line)) < 0)
		err = -errno;
	n = err ? 0 : read(fd, trace, sizeof(trace) - 1);
	if (n < 0)
		err = -errno;
	else
		trace[n] = '\0';
	close(fd);
	return err;
}

/* Group lookups in the trace, and whether one hit and the packet dropped. */
static unsigned int trace_groups(bool *hit_drop)
{
	unsigned int n = 0;
	const char *s;

	for (s = trace; (s = strstr(s, "\ngroup ")); s++)
		n++;
	*hit_drop = strstr(trace, "result=hit") &&
		    strstr(trace, "verdict to=drop");
	return n;
}

int classify_cost(const char *path, const struct classify_run *run,
		  struct classify_cost *out)
{
	double r[CLASSIFY_ROUNDS];
	struct timespec t0, t1;
	unsigned int groups = 0;
	bool hit;
	long i;
	int k, err;

	for (k = 0; k < CLASSIFY_ROUNDS; k++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < run->packets; i++) {
			/* spread over the rules: a stride prime to their count */
			uint32_t src = run->src_base +
				       (uint32_t)(i * 7919 % run->nsrc);

			err = classify(path, src, run->dst);
			if (err)
				return err;
			groups = trace_groups(&hit);
			if (hit != run->hit) {
				fprintf(stderr, "flow bench: packet from %#x %s:\n%s",
					src, run->hit ? "missed" : "hit", trace);
				return -EPROTO;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		r[k] = ((t1.tv_sec - t0.tv_sec) * 1e9 +
			(t1.tv_nsec - t0.tv_nsec)) / 1e3 / run->packets;
	}
	qsort(r, CLASSIFY_ROUNDS, sizeof(r[0]), bench_cmp_double);
	out->median_us = r[CLASSIFY_ROUNDS / 2];
	out->best_us = r[0];
	out->groups = groups;
	return 0;
}
