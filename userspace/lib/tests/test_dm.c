// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_shim_test: libmlx5x's device memory on a live device (TAP).
 * Usage: mlx5x_shim_test [IBDEV]; default: the first "mlx5x*" device.
 * Exits 4 (skip) without one, 1 if a case fails.  Needs CAP_SYS_RAWIO
 * and CAP_NET_RAW (SW ICM is privileged).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <mlx5x/dm.h>

static int n, failed;

static void ok(int cond, const char *name)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %d %s\n", cond ? "" : "not ", n, name);
}

static struct ibv_context *open_dev(const char *want)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; list && list[i]; i++) {
		const char *name = ibv_get_device_name(list[i]);

		if (want ? !strcmp(name, want) : !strncmp(name, "mlx5x", 5)) {
			ctx = ibv_open_device(list[i]);
			break;
		}
	}
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"memic", "steering", "header_modify", "pattern", "encap",
	};
	struct ibv_alloc_dm_attr attr = { .length = 4096 };
	struct ibv_context *ctx = open_dev(argc > 1 ? argv[1] : NULL);
	struct mlx5x_dm *a, *b;
	char name[64];
	int t;

	printf("TAP version 13\n");
	if (!ctx) {
		printf("1..0 # SKIP no mlx5x device\n");
		return 4;
	}
	printf("1..8\n");
	for (t = MLX5X_DM_TYPE_STEERING_SW_ICM;
	     t <= MLX5X_DM_TYPE_ENCAP_SW_ICM; t++) {
		a = mlx5x_alloc_dm(ctx, &attr, t);
		snprintf(name, sizeof(name), "alloc_free_%s", names[t]);
		if (a)
			printf("# %s at %#llx\n", names[t],
			       (unsigned long long)a->icm_addr);
		else
			printf("# %s: %s\n", names[t], strerror(errno));
		ok(a && a->icm_addr && a->type == (uint32_t)t &&
		   !mlx5x_free_dm(a), name);
	}
	a = mlx5x_alloc_dm(ctx, &attr, MLX5X_DM_TYPE_ENCAP_SW_ICM);
	b = mlx5x_alloc_dm(ctx, &attr, MLX5X_DM_TYPE_ENCAP_SW_ICM);
	ok(a && b && (a->icm_addr + 4096 <= b->icm_addr ||
		      b->icm_addr + 4096 <= a->icm_addr), "encap_distinct");
	if (a)
		mlx5x_free_dm(a);
	if (b)
		mlx5x_free_dm(b);
	errno = 0;
	ok(!mlx5x_alloc_dm(ctx, &attr, MLX5X_DM_TYPE_MEMIC) &&
	   errno == EOPNOTSUPP && !mlx5x_alloc_dm(ctx, &attr, 5) &&
	   errno == EOPNOTSUPP, "type_refused");
	attr.comp_mask = 1;
	ok(!mlx5x_alloc_dm(ctx, &attr, MLX5X_DM_TYPE_ENCAP_SW_ICM) &&
	   errno == EINVAL, "comp_mask_refused");
	attr.comp_mask = 0;
	attr.length = 0;
	ok(!mlx5x_alloc_dm(ctx, &attr, MLX5X_DM_TYPE_ENCAP_SW_ICM) &&
	   errno == EINVAL, "length_refused");
	ibv_close_device(ctx);
	printf("# shim: %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
