/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A uverbs ioctl built by hand, for the cases that issue methods the way a
 * newer rdma-core would, or as no library would (a handle kept after
 * destroy, an attribute of the wrong size).
 *
 *	struct mt_ioctl c;
 *	int h;
 *
 *	mt_ioctl_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
 *	h = mt_ioctl_new(&c, UVERBS_ATTR_ALLOC_DM_HANDLE);
 *	mt_ioctl_in64(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, length, 8);
 *	mt_ioctl_ptr(&c, ..., &start, sizeof(start));
 *	err = mt_ioctl_run(ctx, &c);	// 0 or errno
 *	handle = c.attrs[h].data;
 */
#ifndef MLX5X_IOCTL_H
#define MLX5X_IOCTL_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/ib_user_ioctl_verbs.h>

#define MT_IOCTL_MAX_ATTRS	16

struct mt_ioctl {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[MT_IOCTL_MAX_ATTRS];
};

/* A method of an object, on the mlx5 driver; no attributes yet. */
static inline void mt_ioctl_init(struct mt_ioctl *c, uint16_t object,
				 uint16_t method)
{
	memset(c, 0, sizeof(*c));
	c->hdr.object_id = object;
	c->hdr.method_id = method;
	c->hdr.driver_id = RDMA_DRIVER_MLX5;
}

/* Appends an attribute; returns its index, to read its data back. */
static inline int mt_ioctl_attr(struct mt_ioctl *c, uint16_t id, uint16_t len,
				uint64_t data, uint16_t flags)
{
	struct ib_uverbs_attr *a = &c->attrs[c->hdr.num_attrs];

	a->attr_id = id;
	a->len = len;
	a->data = data;
	a->flags = flags;
	return c->hdr.num_attrs++;
}

/* The handle of the object the method creates (mandatory). */
static inline int mt_ioctl_new(struct mt_ioctl *c, uint16_t id)
{
	return mt_ioctl_attr(c, id, 0, 0, UVERBS_ATTR_F_MANDATORY);
}

/* The handle of an existing object (mandatory). */
static inline int mt_ioctl_handle(struct mt_ioctl *c, uint16_t id,
				  uint32_t handle)
{
	return mt_ioctl_attr(c, id, 0, handle, UVERBS_ATTR_F_MANDATORY);
}

/* An input of up to 8 bytes: carried inline in the attribute. */
static inline int mt_ioctl_in64(struct mt_ioctl *c, uint16_t id, uint64_t val,
				uint16_t len)
{
	return mt_ioctl_attr(c, id, len, val, UVERBS_ATTR_F_MANDATORY);
}

/* A buffer the kernel reads (over 8 bytes) or writes. */
static inline int mt_ioctl_ptr(struct mt_ioctl *c, uint16_t id,
			       const void *p, uint16_t len)
{
	return mt_ioctl_attr(c, id, len, (uintptr_t)p, 0);
}

/* Issues it: 0, or the errno. */
static inline int mt_ioctl_run(struct ibv_context *ctx, struct mt_ioctl *c)
{
	c->hdr.length = sizeof(c->hdr) +
			c->hdr.num_attrs * sizeof(c->attrs[0]);
	return ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, c) ? errno : 0;
}

#endif /* MLX5X_IOCTL_H */
