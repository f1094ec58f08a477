/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the DEVX object methods know of each firmware object kind: the
 * command that creates it, the fields that name a created object, the
 * command that destroys it, and which modify/query commands name it and
 * where.  The tables themselves are data, one file per area
 * (devx_kinds_*.c); devx_kinds.c looks them up.
 */
#ifndef MLX5X_DEVX_KINDS_H
#define MLX5X_DEVX_KINDS_H

#include <linux/types.h>
#include "prm.h"

/* Largest destroy mailbox any kind needs, in bytes. */
#define MLX5X_DEVX_DINBOX_BYTES	64
/* Most fields that together name one object (table type, table, index). */
#define MLX5X_DEVX_KEYS		3
struct mlx5x_devx_obj;

/* Most bits the kernel forces in one create mailbox. */
#define MLX5X_DEVX_FORCE	3

/**
 * struct mlx5x_field - a field of a mailbox, by bit offset and width
 * @off: bit offset
 * @bits: width, at most 32; 0: no field
 */
struct mlx5x_field {
	u16 off;
	u8 bits;
};

enum mlx5x_key_src {
	MLX5X_KEY_NONE,
	MLX5X_KEY_IN,	/* from the create command's input */
	MLX5X_KEY_OUT,	/* from its output */
};

/**
 * struct mlx5x_devx_key - one field naming a created object
 * @src: where the create command holds it
 * @create: its position there
 * @destroy: where the destroy command's input takes it
 */
struct mlx5x_devx_key {
	u8 src;
	struct mlx5x_field create;
	struct mlx5x_field destroy;
};

/**
 * struct mlx5x_devx_kind - one kind of object DEVX may create
 * @name: for logs
 * @create_op: its create opcode
 * @create_op_mod: the op_mod the create command must carry (an opcode
 *		   whose other op_mods modify an existing object)
 * @any_op_mod: the create command's op_mod bits carry a parameter, not
 *		an op_mod (general objects: obj_type): any value is this
 *		kind, unless another kind matches it exactly
 * @destroy_op: its destroy opcode
 * @destroy_inlen: length of the destroy input mailbox
 * @key: the fields naming an object; key[0] is its id
 * @force: one-bit fields of the create input the kernel sets before the
 *	   command runs (the umem_valid bits: a process's buffers are always
 *	   named by umem, never by raw addresses); bits 0: none
 * @span: how many consecutive ids from key[0] one object of this kind
 *	  holds, from its create input (a bulk of flow counters); NULL: one
 * @check: the kind's own rules on a create mailbox before it runs
 *	   (0 or an errno); NULL: none
 * @created: after a create succeeded, what the kernel keeps of it (0 or
 *	     an errno: the object is destroyed again); NULL: nothing
 * @untrack: before the object's destroy runs: the kernel forgets what
 *	     @created kept under the object's id, since firmware may hand
 *	     the id to another context's create as soon as it is free.
 *	     Returns that record, kfree()d once the destroy succeeded; NULL:
 *	     nothing kept.  NULL hook: nothing to forget
 * @retrack: the destroy failed: the object lives on, and so does the
 *	     record @untrack returned (non-NULL), kept again
 * @lapses: the object links another (a QP's membership of a multicast
 *	    group) and firmware drops it by itself when that one goes: a
 *	    destroy firmware refuses as naming what is no longer there
 *	    (EINVAL) frees the handle all the same
 */
struct mlx5x_devx_kind {
	const char *name;
	u16 create_op;
	u16 create_op_mod;
	bool any_op_mod;
	u16 destroy_op;
	u16 destroy_inlen;
	struct mlx5x_devx_key key[MLX5X_DEVX_KEYS];
	struct mlx5x_field force[MLX5X_DEVX_FORCE];
	u32 (*span)(const void *in);
	int (*check)(const void *in, size_t inlen);
	int (*created)(struct mlx5x_devx_obj *obj, const void *in,
		       const void *out);
	void *(*untrack)(struct mlx5x_devx_obj *obj);
	void (*retrack)(struct mlx5x_devx_obj *obj, void *rec);
	bool lapses;
};

/**
 * struct mlx5x_devx_op - a modify or query command and the object it names
 * @opcode: the command
 * @kind: the kind of object it applies to
 * @key: where its input holds each of the kind's keys (bits 0: that key
 *	 is not in this command)
 * @modify: it changes the object (else it only reads it)
 * @op_mod: the op_mod the command must carry, when @has_op_mod (an opcode
 *	    whose other op_mods create objects)
 * @has_op_mod: see @op_mod
 * @count: for a kind with a span: the field of how many ids from key[0]
 *	   the command reaches (0 counts as one), all inside the object's
 *	   span; bits 0: key[0] must be the object's id
 */
struct mlx5x_devx_op {
	u16 opcode;
	const struct mlx5x_devx_kind *kind;
	struct mlx5x_field key[MLX5X_DEVX_KEYS];
	bool modify;
	bool has_op_mod;
	u16 op_mod;
	struct mlx5x_field count;
};

/**
 * struct mlx5x_devx_kind_set - the kinds and commands of one area
 * @kinds: object kinds
 * @nkinds: how many
 * @ops: modify and query commands
 * @nops: how many
 */
struct mlx5x_devx_kind_set {
	const struct mlx5x_devx_kind *kinds;
	unsigned int nkinds;
	const struct mlx5x_devx_op *ops;
	unsigned int nops;
};

#define MLX5X_FIELD(typ, fld) {						\
	.off = PRM_BIT_OFF(typ, fld), .bits = PRM_BIT_SZ(typ, fld) }

/* Key of a kind: ctyp.cfld of the create input or output, dtyp.dfld. */
#define MLX5X_KEY_FROM_OUT(ctyp, cfld, dtyp, dfld) {			\
	.src = MLX5X_KEY_OUT, .create = MLX5X_FIELD(ctyp, cfld),	\
	.destroy = MLX5X_FIELD(dtyp, dfld) }
#define MLX5X_KEY_FROM_IN(ctyp, cfld, dtyp, dfld) {			\
	.src = MLX5X_KEY_IN, .create = MLX5X_FIELD(ctyp, cfld),	\
	.destroy = MLX5X_FIELD(dtyp, dfld) }

/*
 * The initializers of a kind created by cop, destroyed by dop with a dtyp
 * mailbox; inside braces, followed by .key = { ... } and MLX5X_FORCE():
 *	{ MLX5X_KIND_OPS("cq", ..., destroy_cq_in),
 *	  .key = { MLX5X_KEY_FROM_OUT(...) },
 *	  MLX5X_FORCE(MLX5X_FIELD(create_cq_in, cq_umem_valid)) }
 */
#define MLX5X_KIND_OPS(nm, cop, dop, dtyp)				\
	.name = (nm), .create_op = (cop), .destroy_op = (dop),		\
	.destroy_inlen = PRM_BYTES(dtyp) +				\
		BUILD_BUG_ON_ZERO(PRM_BYTES(dtyp) >			\
				  MLX5X_DEVX_DINBOX_BYTES)

/* Bits of the create input the kernel sets to 1. */
#define MLX5X_FORCE(...)	.force = { __VA_ARGS__ }

/* A kind destroyed by dtyp, named by the keys that follow. */
#define MLX5X_KIND(nm, cop, dop, dtyp, ...) {				\
	MLX5X_KIND_OPS(nm, cop, dop, dtyp), .key = { __VA_ARGS__ } }

/* A command of kind kp (a pointer), the kind's keys at the fields given. */
#define MLX5X_OP(opc, kp, mod, ...) {					\
	.opcode = (opc), .kind = (kp), .modify = (mod),			\
	.key = { __VA_ARGS__ } }

/* The same, for a command only with op_mod opm. */
#define MLX5X_OP_MOD(opc, opm, kp, mod, ...) {				\
	.opcode = (opc), .kind = (kp), .modify = (mod),			\
	.has_op_mod = true, .op_mod = (opm), .key = { __VA_ARGS__ } }

extern const struct mlx5x_devx_kind_set mlx5x_devx_basic_kinds;
extern const struct mlx5x_devx_kind_set mlx5x_devx_mkey_kinds;
extern const struct mlx5x_devx_kind_set mlx5x_devx_general_kinds;
extern const struct mlx5x_devx_kind_set mlx5x_devx_fs_kinds;
extern const struct mlx5x_devx_kind_set mlx5x_devx_queue_kinds;

const struct mlx5x_devx_kind *mlx5x_devx_kind_of_create(const void *in);
const struct mlx5x_devx_op *mlx5x_devx_op_of(u16 opcode, bool modify);

struct mlx5x_dev;
struct ib_uobject;

/* A DEVX object and the destroy mailbox built for it at create time. */
struct mlx5x_devx_obj {
	struct mlx5x_dev *dev;
	const struct mlx5x_devx_kind *kind;
	u32 key[MLX5X_DEVX_KEYS];
	u32 span;
	u32 dinlen;
	u32 dinbox[MLX5X_DEVX_DINBOX_BYTES / 4];
	struct list_head event_subs;	/* devx_subscribe.c */
};

/* A field is inside a mailbox of len bytes. */
static inline bool mlx5x_field_in(const struct mlx5x_field *f, size_t len)
{
	/*
	 * The whole big-endian word: prm_get_bits()/prm_set_bits() read and
	 * write the 32 bits around the field (KASAN, from the fuzzer: a
	 * mailbox of 277 bytes and a field in its last word but one byte).
	 */
	return (f->off / 32 + 1) * 32 <= len * 8;
}

static inline u32 mlx5x_field_get(const void *p, const struct mlx5x_field *f)
{
	return prm_get_bits(p, f->off, f->bits);
}

void mlx5x_devx_obj_unsubscribe(struct mlx5x_devx_obj *obj);
void mlx5x_devx_obj_mute(struct mlx5x_devx_obj *obj, bool muted);
int mlx5x_devx_obj_check(struct ib_uobject *uobj, const void *in,
			 size_t inlen, bool modify);

#endif /* MLX5X_DEVX_KINDS_H */
