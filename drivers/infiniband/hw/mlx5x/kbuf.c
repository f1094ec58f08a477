// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Buffers of kernel queues: physically contiguous zeroed pages, mapped
 * for the device and registered as a umem of the kernel (uid 0), so that
 * a kernel CQ or QP names its buffer by umem id as a process's does
 * (ubuf.c).  No process can name them: a context's DEVX commands carry
 * its own uid, and firmware keeps the kernel's umems to the kernel.
 */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <rdma/ib_verbs.h>
#include "kverbs.h"

static int mlx5x_kbuf_register(struct mlx5x_dev *dev, struct mlx5x_kbuf *buf)
{
	u32 out[PRM_BYTES(create_umem_out) / 4] = {};
	size_t nmtt = buf->len >> PAGE_SHIFT, inlen, i;
	__be64 *mtt;
	void *in;
	int err;

	in = mlx5x_umem_in(0, nmtt, 0, &inlen, &mtt);
	if (!in)
		return -ENOMEM;
	for (i = 0; i < nmtt; i++)
		mtt[i] = cpu_to_be64((buf->dma + (i << PAGE_SHIFT)) |
				     MLX5X_MTT_READ | MLX5X_MTT_WRITE);
	err = mlx5x_cmd_run(dev, in, inlen, out, sizeof(out));
	if (!err)
		buf->id = PRM_GET(create_umem_out, out, umem_id);
	kvfree(in);
	return err;
}

/**
 * mlx5x_kbuf_get() - zeroed kernel pages the device can reach
 * @dev: the device
 * @len: bytes wanted, nonzero; rounded up to whole pages
 * @buf: filled in; release with mlx5x_kbuf_put()
 *
 * Return: 0 or a negative errno.
 */
int mlx5x_kbuf_get(struct mlx5x_dev *dev, size_t len, struct mlx5x_kbuf *buf)
{
	int err;

	buf->len = PAGE_ALIGN(len);
	buf->va = alloc_pages_exact(buf->len, GFP_KERNEL | __GFP_ZERO);
	if (!buf->va)
		return -ENOMEM;
	buf->dma = ib_dma_map_single(&dev->ib, buf->va, buf->len,
				     DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(&dev->ib, buf->dma)) {
		err = -ENOMEM;
		goto err_free;
	}
	err = mlx5x_kbuf_register(dev, buf);
	if (err)
		goto err_unmap;
	return 0;

err_unmap:
	ib_dma_unmap_single(&dev->ib, buf->dma, buf->len, DMA_BIDIRECTIONAL);
err_free:
	free_pages_exact(buf->va, buf->len);
	buf->va = NULL;
	return err;
}

/**
 * mlx5x_kbuf_put() - unregister and free a buffer of mlx5x_kbuf_get()
 * @dev: the device
 * @buf: the buffer; nothing is done if it was never got
 *
 * Called once the queue using it is destroyed.  Should firmware still
 * hold the umem, the pages stay allocated: the device may reach them.
 */
void mlx5x_kbuf_put(struct mlx5x_dev *dev, struct mlx5x_kbuf *buf)
{
	u32 in[PRM_BYTES(destroy_umem_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_umem_out) / 4] = {};

	if (!buf->va)
		return;
	PRM_SET(destroy_umem_in, in, opcode, MLX5_CMD_OP_DESTROY_UMEM);
	PRM_SET(destroy_umem_in, in, umem_id, buf->id);
	if (mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out))) {
		ibdev_err(&dev->ib, "kernel umem 0x%x kept: its pages stay\n",
			  buf->id);
		return;
	}
	ib_dma_unmap_single(&dev->ib, buf->dma, buf->len, DMA_BIDIRECTIONAL);
	free_pages_exact(buf->va, buf->len);
	buf->va = NULL;
}
