// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A first look at an mlx5x device through libmlx5: open it with DEVX, ask
 * firmware for its general capabilities, allocate a PD and a UAR.
 *
 * Usage: mlx5x_hello [IBDEV]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/mlx5dv.h>

#define OP_QUERY_HCA_CAP	0x100
#define CAP_GENERAL_CUR		0x1
#define HCA_CAP_OUT_BYTES	0x1010
#define CAP_OFF			16	/* capability page in the output */

/* A field of a big-endian PRM layout, by bit offset and width. */
static uint32_t prm_get(const void *p, unsigned int off, unsigned int sz)
{
	const uint32_t *w = (const uint32_t *)p + off / 32;
	unsigned int shift = 32 - sz - off % 32;

	return (ntohl(*w) >> shift) & (sz == 32 ? ~0U : (1U << sz) - 1);
}

static struct ibv_device *find_dev(struct ibv_device **list, const char *name)
{
	for (; *list; list++)
		if (!name ? !strncmp(ibv_get_device_name(*list), "mlx5x", 5) :
		    !strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}

static int show_caps(struct ibv_context *ctx)
{
	uint32_t in[4] = { htonl(OP_QUERY_HCA_CAP << 16),
			   htonl(CAP_GENERAL_CUR) };
	static uint32_t out[HCA_CAP_OUT_BYTES / 4];
	const uint8_t *cap = (const uint8_t *)out + CAP_OFF;

	if (mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out))) {
		perror("QUERY_HCA_CAP");
		return -1;
	}
	/* bit offsets of cmd_hca_cap in <linux/mlx5/mlx5_ifc.h> */
	printf("firmware caps: log_max_qp %u, log_max_pd %u, port_type %s, num_ports %u, log_max_uctx %u\n",
	       prm_get(cap, 0x9b, 5), prm_get(cap, 0x32b, 5),
	       prm_get(cap, 0x1b6, 2) == 1 ? "Ethernet" : "IB",
	       prm_get(cap, 0x1b8, 8), prm_get(cap, 0x463, 5));
	return 0;
}

int main(int argc, char **argv)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_device_attr dattr;
	struct mlx5dv_devx_uar *uar;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct mlx5dv_pd dvpd;
	struct mlx5dv_obj obj = { .pd = { .out = &dvpd } };
	struct ibv_device *dev;
	struct ibv_pd *pd;
	int ret = 1;

	list = ibv_get_device_list(NULL);
	if (!list) {
		perror("ibv_get_device_list");
		return 1;
	}
	dev = find_dev(list, argc > 1 ? argv[1] : NULL);
	if (!dev) {
		fprintf(stderr, "no mlx5x device\n");
		goto out_list;
	}
	ctx = mlx5dv_open_device(dev, &attr);
	if (!ctx) {
		perror("mlx5dv_open_device");
		goto out_list;
	}
	if (ibv_query_device(ctx, &dattr)) {
		perror("ibv_query_device");
		goto out_ctx;
	}
	printf("%s: vendor 0x%04x part 0x%x fw %s, DEVX context open\n",
	       ibv_get_device_name(dev), dattr.vendor_id,
	       dattr.vendor_part_id, dattr.fw_ver);
	if (show_caps(ctx))
		goto out_ctx;

	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		perror("ibv_alloc_pd");
		goto out_ctx;
	}
	obj.pd.in = pd;
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD)) {
		perror("mlx5dv_init_obj");
		goto out_pd;
	}
	printf("PD allocated: pdn 0x%x\n", dvpd.pdn);

	uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (!uar) {
		perror("mlx5dv_devx_alloc_uar");
		goto out_pd;
	}
	printf("UAR allocated: page %u mapped at %p\n", uar->page_id,
	       uar->base_addr);
	mlx5dv_devx_free_uar(uar);
	ret = 0;
out_pd:
	ibv_dealloc_pd(pd);
out_ctx:
	ibv_close_device(ctx);
out_list:
	ibv_free_device_list(list);
	return ret;
}
