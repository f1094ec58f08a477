// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * hold_ctx: hold a device busy while it goes away (rmmod, rdma link
 * delete), then check the process can let go of it cleanly.
 *
 * Usage: hold_ctx [SECONDS]
 *
 * Opens MLX5X_DEV (default: the first "mlx5x*" device), allocates a PD
 * and a BlueFlame UAR, stores to its doorbell, prints "held", and waits
 * up to SECONDS (default 120) for IBV_EVENT_DEVICE_FATAL.  Then it stores
 * to the UAR again, frees it, deallocates the PD and closes the context.
 * Exit: 0 if all of that worked, 1 on an error, 2 if no event came.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"

static struct ibv_device *find_device(struct ibv_device **list, int n)
{
	const char *want = getenv("MLX5X_DEV");
	int i;

	for (i = 0; i < n; i++) {
		const char *name = ibv_get_device_name(list[i]);

		if (want && *want ? !strcmp(name, want) :
				    !strncmp(name, "mlx5x", 5))
			return list[i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 120;
	struct mlx5dv_devx_uar *uar;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int n = 0, err, rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* a destroy after disassociation returns EIO: take it as done */
	setenv("RDMAV_ALLOW_DISASSOC_DESTROY", "1", 1);
	list = ibv_get_device_list(&n);
	mt.dev = list ? find_device(list, n) : NULL;
	if (!mt.dev) {
		printf("hold_ctx: no device\n");
		return 1;
	}
	ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	if (!ctx) {
		printf("hold_ctx: open: %s\n", strerror(errno));
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (!pd || !uar || !mt_try_write64(uar->reg_addr, 1)) {
		printf("hold_ctx: PD or UAR: %s\n", strerror(errno));
		return 1;
	}
	printf("held %s, uar page %#x\n", ibv_get_device_name(mt.dev),
	       uar->page_id);

	err = mt_wait_event(ctx, IBV_EVENT_DEVICE_FATAL, seconds * 1000, NULL);
	if (err) {
		printf("hold_ctx: no device fatal event: %s\n", strerror(-err));
		rc = 2;
	}
	if (!mt_try_write64(uar->reg_addr, 2))
		rc = 1;
	mlx5dv_devx_free_uar(uar);
	err = ibv_dealloc_pd(pd);
	if (err) {
		printf("hold_ctx: ibv_dealloc_pd: %s\n", strerror(err));
		rc = 1;
	}
	if (ibv_close_device(ctx)) {
		printf("hold_ctx: ibv_close_device: %s\n", strerror(errno));
		rc = 1;
	}
	ibv_free_device_list(list);
	printf("hold_ctx: released, exit %d\n", rc);
	return rc;
}
