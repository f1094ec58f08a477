/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the DEVX object methods know of each firmware object kind: the
 * command that creates it, where the created id is, the command that
 * destroys it, and which modify/query commands name it and where.
 */
#ifndef MLX5X_DEVX_KINDS_H
#define MLX5X_DEVX_KINDS_H

#include <linux/types.h>

/* Largest destroy mailbox any kind needs, in bytes. */
#define MLX5X_DEVX_DINBOX_BYTES	16

/**
 * struct mlx5x_field - a field of a mailbox, by bit offset and width
 * @off: bit offset
 * @bits: width, at most 32
 */
struct mlx5x_field {
	u16 off;
	u8 bits;
};

/**
 * struct mlx5x_devx_kind - one kind of object DEVX may create
 * @name: for logs
 * @create_op: its create opcode
 * @destroy_op: its destroy opcode
 * @out_id: where the create command's output holds the new id
 * @destroy_id: where the destroy command's input takes it
 * @destroy_inlen: length of the destroy input mailbox
 */
struct mlx5x_devx_kind {
	const char *name;
	u16 create_op;
	u16 destroy_op;
	struct mlx5x_field out_id;
	struct mlx5x_field destroy_id;
	u16 destroy_inlen;
};

/**
 * struct mlx5x_devx_op - a modify or query command and the object it names
 * @opcode: the command
 * @kind: the kind of object it applies to
 * @id: where its input names the object
 * @modify: it changes the object (else it only reads it)
 */
struct mlx5x_devx_op {
	u16 opcode;
	const struct mlx5x_devx_kind *kind;
	struct mlx5x_field id;
	bool modify;
};

const struct mlx5x_devx_kind *mlx5x_devx_kind_of_create(u16 opcode);
const struct mlx5x_devx_op *mlx5x_devx_op_of(u16 opcode);

struct mlx5x_dev;
struct ib_uobject;

/* A DEVX object and the destroy mailbox built for it at create time. */
struct mlx5x_devx_obj {
	struct mlx5x_dev *dev;
	const struct mlx5x_devx_kind *kind;
	u32 id;
	u32 dinlen;
	u32 dinbox[MLX5X_DEVX_DINBOX_BYTES / 4];
};

int mlx5x_devx_obj_check(struct ib_uobject *uobj, const void *in,
			 size_t inlen, bool modify);

#endif /* MLX5X_DEVX_KINDS_H */
