// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_DEVX_OBJ: firmware objects a process creates with its own
 * mailboxes.  The kernel checks each mailbox against the allow-lists of
 * devx_kinds.c, stamps the context's uid, and keeps the destroy mailbox it
 * computed at create time: the user never supplies one.
 */
#include <linux/mlx5/cq.h>
#include <linux/slab.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/uverbs_std_types.h>
#include "mlx5x.h"
#include "devx_kinds.h"
#include "verbs.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

static void mlx5x_devx_build_destroy(struct mlx5x_devx_obj *obj, u16 uid)
{
	const struct mlx5x_devx_kind *kind = obj->kind;
	unsigned int k;

	BUILD_BUG_ON(sizeof(obj->dinbox) < PRM_CMD_HDR_BYTES);
	memset(obj->dinbox, 0, sizeof(obj->dinbox));
	obj->dinlen = kind->destroy_inlen;
	prm_set_bits(obj->dinbox, 0, 16, kind->destroy_op);
	prm_in_set_uid(obj->dinbox, uid);
	for (k = 0; k < MLX5X_DEVX_KEYS; k++)
		if (kind->key[k].src != MLX5X_KEY_NONE)
			prm_set_bits(obj->dinbox, kind->key[k].destroy.off,
				     kind->key[k].destroy.bits, obj->key[k]);
}

/* Every key lies inside the mailbox it is read from. */
static bool mlx5x_devx_keys_fit(const struct mlx5x_devx_kind *kind,
				size_t inlen, size_t outlen)
{
	unsigned int k;

	for (k = 0; k < MLX5X_DEVX_KEYS; k++) {
		const struct mlx5x_devx_key *key = &kind->key[k];

		if (key->src == MLX5X_KEY_IN &&
		    !mlx5x_field_in(&key->create, inlen))
			return false;
		if (key->src == MLX5X_KEY_OUT &&
		    !mlx5x_field_in(&key->create, outlen))
			return false;
	}
	return true;
}

/* Set the bits the kind forces, once the mailbox is known to hold them. */
static bool mlx5x_devx_force(const struct mlx5x_devx_kind *kind, void *in,
			     size_t inlen)
{
	unsigned int i;

	for (i = 0; i < MLX5X_DEVX_FORCE; i++) {
		const struct mlx5x_field *f = &kind->force[i];

		if (!f->bits)
			continue;
		if (!mlx5x_field_in(f, inlen))
			return false;
		prm_set_bits(in, f->off, f->bits, 1);
	}
	return true;
}

static void mlx5x_devx_read_keys(struct mlx5x_devx_obj *obj, const void *in,
				 const void *out)
{
	unsigned int k;

	for (k = 0; k < MLX5X_DEVX_KEYS; k++) {
		const struct mlx5x_devx_key *key = &obj->kind->key[k];

		if (key->src != MLX5X_KEY_NONE)
			obj->key[k] = mlx5x_field_get(
				key->src == MLX5X_KEY_IN ? in : out,
				&key->create);
	}
}

static int mlx5x_devx_destroy(struct mlx5x_devx_obj *obj)
{
	u32 out[PRM_OUT_HDR_BYTES / 4 + 2] = {};
	int err;

	err = mlx5x_cmd_exec(obj->dev, obj->dinbox, obj->dinlen, out,
			     sizeof(out));
	if (err == -EREMOTEIO) {
		ibdev_dbg(&obj->dev->ib, "destroy %s 0x%x: status 0x%x syndrome 0x%x\n",
			  obj->kind->name, obj->key[0], prm_out_status(out),
			  prm_out_syndrome(out));
		return mlx5x_cmd_errno(out);
	}
	return err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_CREATE)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE);
	void *in = uverbs_attr_get_alloced_ptr(
		attrs, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN);
	int inlen = uverbs_attr_get_len(attrs,
					MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN);
	int outlen = uverbs_attr_get_len(attrs,
					 MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT);
	const struct mlx5x_devx_kind *kind;
	struct mlx5x_ucontext *uctx;
	struct mlx5x_devx_obj *obj;
	void *out;
	int err;

	uctx = mlx5x_attrs_devx_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	kind = mlx5x_devx_kind_of_create(in);
	if (!kind || !mlx5x_devx_keys_fit(kind, inlen, outlen) ||
	    !mlx5x_devx_force(kind, in, inlen))
		return -EINVAL;
	err = kind->check ? kind->check(in, inlen) : 0;
	if (err)
		return err;

	out = uverbs_zalloc(attrs, outlen);
	if (IS_ERR(out))
		return PTR_ERR(out);
	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_DEVX_OBJS);
	if (err)
		return err;
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj) {
		mlx5x_limit_put(uctx, MLX5X_LIMIT_DEVX_OBJS);
		return -ENOMEM;
	}
	obj->dev = to_mdev(uctx->ib.device);
	obj->kind = kind;
	INIT_LIST_HEAD(&obj->event_subs);

	prm_in_set_uid(in, uctx->devx_uid);
	err = mlx5x_cmd_exec(obj->dev, in, inlen, out, outlen);
	if (err) {
		/* a firmware error still hands status and syndrome back */
		if (err == -EREMOTEIO &&
		    uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT,
				   out, outlen))
			err = -EFAULT;
		goto err_free;
	}
	mlx5x_devx_read_keys(obj, in, out);
	obj->span = kind->span ? kind->span(in) : 1;
	mlx5x_devx_build_destroy(obj, uctx->devx_uid);

	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, out,
			     outlen);
	if (!err && kind->created)
		err = kind->created(obj, in, out);
	if (err)
		goto err_destroy;
	uobj->object = obj;
	return 0;

err_destroy:
	mlx5x_devx_destroy(obj);
err_free:
	kfree(obj);
	mlx5x_limit_put(uctx, MLX5X_LIMIT_DEVX_OBJS);
	return err;
}

/* Ids key[0] .. key[0] + count - 1 of the mailbox lie in the object's span. */
static bool mlx5x_devx_in_span(const struct mlx5x_devx_obj *obj,
			       const void *in, size_t inlen,
			       const struct mlx5x_devx_op *op)
{
	u64 id, n;

	if (!mlx5x_field_in(&op->count, inlen))
		return false;
	id = mlx5x_field_get(in, &op->key[0]);
	n = mlx5x_field_get(in, &op->count) ?: 1;
	return id >= obj->key[0] && id + n <= (u64)obj->key[0] + obj->span;
}

/**
 * mlx5x_devx_obj_check() - may this mailbox modify or query this handle?
 * @uobj: the handle passed
 * @in: the mailbox
 * @inlen: its length
 * @modify: a modify (else a query) method
 *
 * The mailbox must be one allowed for the handle's kind and name the very
 * object of the handle.  Return: 0 or -EINVAL.
 */
int mlx5x_devx_obj_check(struct ib_uobject *uobj, const void *in,
			 size_t inlen, bool modify)
{
	const struct mlx5x_devx_op *op;
	struct mlx5x_devx_obj *obj;
	unsigned int k;

	if (uobj_get_object_id(uobj) != MLX5_IB_OBJECT_DEVX_OBJ)
		return -EINVAL;
	obj = uobj->object;
	op = mlx5x_devx_op_of(prm_in_opcode(in), modify);
	if (!op || op->kind != obj->kind ||
	    (op->has_op_mod && prm_in_op_mod(in) != op->op_mod))
		return -EINVAL;
	for (k = 0; k < MLX5X_DEVX_KEYS; k++) {
		const struct mlx5x_field *f = &op->key[k];

		if (!f->bits)
			continue;
		if (!mlx5x_field_in(f, inlen))
			return -EINVAL;
		if (k == 0 && op->count.bits) {
			if (!mlx5x_devx_in_span(obj, in, inlen, op))
				return -EINVAL;
		} else if (mlx5x_field_get(in, f) != obj->key[k]) {
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * mlx5dv_modify_qp_udp_sport(3): RTS2RTS_QP that names nothing but the
 * UDP source port, in its second optional parameter mask.
 */
static bool mlx5x_devx_qp_udp_sport(const void *in, size_t inlen)
{
	return prm_in_opcode(in) == MLX5_CMD_OP_RTS2RTS_QP &&
	       inlen >= PRM_BYTES(rts2rts_qp_in) &&
	       !prm_get_bits(in, PRM_QP_MOD_QPC_EXT_OFF, 1) &&
	       !PRM_GET(rts2rts_qp_in, in, opt_param_mask) &&
	       !prm_get_bits(in, PRM_QP_MOD_OPT_95_32_OFF, 32) &&
	       prm_get_bits(in, PRM_QP_MOD_OPT_95_32_OFF + 32, 32) ==
	       PRM_QPC_OPT_32_UDP_SPORT;
}

/*
 * What libmlx5 sends through DEVX about a verbs QP: for an RC QP, QUERY_QP
 * (mlx5dv_qp_cancel_posted_send_wrs(3)) and INIT2INIT_QP (its
 * drain_sigerr, for signature pipelining); for an RC or UC QP, the
 * RTS2RTS_QP of its UDP source port; for a DCI, RTS2RTS_QP with the QPC
 * extension (mlx5dv_dci_stream_id_reset(3)), which sets nothing else of
 * it.
 */
static bool mlx5x_devx_qp_cmd(const struct mlx5x_qp *qp, const void *in,
			      size_t inlen, bool modify)
{
	u16 opcode = prm_in_opcode(in);

	if (qp->ib.qp_type == IB_QPT_DRIVER)
		return modify && !qp->dct && opcode == MLX5_CMD_OP_RTS2RTS_QP &&
		       inlen >= PRM_BYTES(rts2rts_qp_in) &&
		       prm_get_bits(in, PRM_QP_MOD_QPC_EXT_OFF, 1);
	if (modify && (qp->ib.qp_type == IB_QPT_RC ||
		       qp->ib.qp_type == IB_QPT_UC) &&
	    mlx5x_devx_qp_udp_sport(in, inlen))
		return true;
	if (qp->ib.qp_type != IB_QPT_RC)
		return false;
	if (modify)
		return opcode == MLX5_CMD_OP_INIT2INIT_QP &&
		       inlen >= PRM_BYTES(init2init_qp_in);
	return opcode == MLX5_CMD_OP_QUERY_QP &&
	       inlen >= PRM_BYTES(query_qp_in);
}

/*
 * A verbs QP's handle: only the commands above, naming that very QP,
 * with its own uid: no command that moves it between states behind the
 * kernel's back.  Returns the uid to run the mailbox with, or a negative
 * errno.
 */
static int mlx5x_devx_qp_check(struct ib_uobject *uobj, const void *in,
			       size_t inlen, bool modify)
{
	struct mlx5x_qp *qp = to_mqp(uobj->object);

	if (!mlx5x_devx_qp_cmd(qp, in, inlen, modify) ||
	    PRM_GET(init2init_qp_in, in, qpn) != qp->qpn)
		return -EINVAL;
	return qp->uid;
}

/*
 * A verbs CQ's handle (mlx5dv_devx_cq_query(3), _modify): QUERY_CQ, and
 * MODIFY_CQ of its moderation (what ibv_modify_cq() sets), naming that
 * very CQ, with its own uid.  mlx5_ib passes any MODIFY_CQ; not here a
 * resize or a move to another EQ behind the kernel's back, which tracks
 * both.  Returns the uid to run the mailbox with, or a negative errno.
 */
static int mlx5x_devx_cq_check(struct ib_uobject *uobj, const void *in,
			       size_t inlen, bool modify)
{
	struct mlx5x_cq *cq = to_mcq(uobj->object);
	u16 opcode = prm_in_opcode(in);
	bool ok;

	if (modify)
		ok = opcode == MLX5_CMD_OP_MODIFY_CQ &&
		     inlen >= PRM_BYTES(modify_cq_in) &&
		     prm_in_op_mod(in) == MLX5_MODIFY_CQ_IN_OP_MOD_MODIFY_CQ &&
		     !(PRM_GET(modify_cq_in, in,
			       modify_field_select_resize_field_select
			       .modify_field_select.modify_field_select) &
		       ~(MLX5_CQ_MODIFY_PERIOD | MLX5_CQ_MODIFY_COUNT));
	else
		ok = opcode == MLX5_CMD_OP_QUERY_CQ &&
		     inlen >= PRM_BYTES(query_cq_in);
	/* cqn is at the same place in both inputs */
	if (!ok || PRM_GET(query_cq_in, in, cqn) != cq->cqn)
		return -EINVAL;
	return cq->uid;
}

static int mlx5x_devx_obj_cmd(struct uverbs_attr_bundle *attrs, u16 handle,
			      u16 cmd_in, u16 cmd_out, bool modify)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, handle);
	void *in = uverbs_attr_get_alloced_ptr(attrs, cmd_in);
	int inlen = uverbs_attr_get_len(attrs, cmd_in);
	int outlen = uverbs_attr_get_len(attrs, cmd_out);
	struct mlx5x_ucontext *uctx;
	struct mlx5x_devx_obj *obj;
	struct mlx5x_dev *dev;
	int err, err2, uid;
	u16 type;
	void *out;

	uctx = mlx5x_attrs_devx_uctx(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	type = uobj_get_object_id(uobj);
	if (type == UVERBS_OBJECT_QP || type == UVERBS_OBJECT_CQ) {
		uid = type == UVERBS_OBJECT_QP ?
		      mlx5x_devx_qp_check(uobj, in, inlen, modify) :
		      mlx5x_devx_cq_check(uobj, in, inlen, modify);
		if (uid < 0)
			return uid;
		dev = to_mdev(uobj->context->device);
	} else {
		err = mlx5x_devx_obj_check(uobj, in, inlen, modify);
		if (err)
			return err;
		obj = uobj->object;
		dev = obj->dev;
		uid = uctx->devx_uid;
	}

	out = uverbs_zalloc(attrs, outlen);
	if (IS_ERR(out))
		return PTR_ERR(out);
	prm_in_set_uid(in, uid);
	err = mlx5x_cmd_exec(dev, in, inlen, out, outlen);
	if (err && err != -EREMOTEIO)
		return err;
	err2 = uverbs_copy_to(attrs, cmd_out, out, outlen);
	return err2 ?: err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_MODIFY)(
	struct uverbs_attr_bundle *attrs)
{
	return mlx5x_devx_obj_cmd(attrs, MLX5_IB_ATTR_DEVX_OBJ_MODIFY_HANDLE,
				  MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_IN,
				  MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_OUT, true);
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_QUERY)(
	struct uverbs_attr_bundle *attrs)
{
	return mlx5x_devx_obj_cmd(attrs, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE,
				  MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN,
				  MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, false);
}

/*
 * Destroy with the mailbox built at create time.  Firmware refuses while
 * another object still references this one: the core then retries in a
 * later pass of context teardown, after the referencing object is gone.
 * A link firmware already dropped (its QP destroyed first) is gone too.
 */
static int mlx5x_devx_obj_cleanup(struct ib_uobject *uobj,
				  enum rdma_remove_reason why,
				  struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_devx_obj *obj = uobj->object;
	const struct mlx5x_devx_kind *kind = obj->kind;
	void *rec = NULL;
	int err;

	/*
	 * Whatever the kernel keeps under the object's id is let go before
	 * firmware frees the id: a create of another context that gets the
	 * id next must neither fail on a stale record nor have its events
	 * delivered to this object's subscribers.
	 */
	if (kind->untrack)
		rec = kind->untrack(obj);
	mlx5x_devx_obj_mute(obj, true);
	err = mlx5x_devx_destroy(obj);
	if (err == -EINVAL && kind->lapses)
		err = 0;
	if (err) {
		mlx5x_devx_obj_mute(obj, false);
		if (rec)
			kind->retrack(obj, rec);
		return err;
	}
	kfree(rec);
	mlx5x_devx_obj_unsubscribe(obj);
	kfree(obj);
	mlx5x_limit_put(to_mucontext(uobj->context), MLX5X_LIMIT_DEVX_OBJS);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_OBJ_CREATE,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE,
			MLX5_IB_OBJECT_DEVX_OBJ,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN,
			   UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_in_cmd_hdr)),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT,
			    UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_out_cmd_hdr)),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	MLX5_IB_METHOD_DEVX_OBJ_DESTROY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE,
			MLX5_IB_OBJECT_DEVX_OBJ,
			UVERBS_ACCESS_DESTROY,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_OBJ_MODIFY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_HANDLE,
			UVERBS_IDR_ANY_OBJECT,
			UVERBS_ACCESS_WRITE,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_IN,
			   UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_in_cmd_hdr)),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_OUT,
			    UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_out_cmd_hdr)),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_OBJ_QUERY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE,
			UVERBS_IDR_ANY_OBJECT,
			UVERBS_ACCESS_READ,
			UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN,
			   UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_in_cmd_hdr)),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT,
			    UVERBS_ATTR_MIN_SIZE(
				PRM_BYTES(general_obj_out_cmd_hdr)),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(MLX5_IB_OBJECT_DEVX_OBJ,
			    UVERBS_TYPE_ALLOC_IDR(mlx5x_devx_obj_cleanup),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OBJ_CREATE),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OBJ_DESTROY),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OBJ_MODIFY),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OBJ_QUERY));

static bool mlx5x_devx_obj_is_supported(struct ib_device *ib)
{
	return MLX5X_CAP_GEN(to_mdev(ib), log_max_uctx);
}

const struct uapi_definition mlx5x_devx_obj_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(
		MLX5_IB_OBJECT_DEVX_OBJ,
		UAPI_DEF_IS_OBJ_SUPPORTED(mlx5x_devx_obj_is_supported)),
	{}
};
