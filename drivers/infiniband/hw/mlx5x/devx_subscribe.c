// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT (mlx5dv_devx_subscribe_devx_event(3),
 * _fd) and the routing of device events to subscribers.
 *
 * A subscription names an event FD, an event type and, for an affiliated
 * event, the DEVX object it concerns.  The type must be one the device
 * advertises for users (device event capability page: user_affiliated_
 * events for an object, user_unaffiliated_events without one; the
 * completion event is implied for CQs) and, for an object, one that
 * applies to the object's kind (mlx5x_ev_descs[], by create opcode).
 * At most max_event_subs (limits.c) subscriptions per context; subscribing the
 * same thing twice makes two subscriptions, each delivered, as upstream.
 *
 * Events are routed by a hash of (type, creating opcode, object number):
 * an unaffiliated event reaches every subscriber of its type, an
 * affiliated one only the subscribers of that very object, which only its
 * owner context can name.  Destroying the object drops its subscriptions.
 */
#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/mlx5/device.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "mlx5x.h"
#include "devx_kinds.h"
#include "devx_events.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

/* Event types a call may list (upstream's bound), the largest type. */
#define MLX5X_EVENT_TYPES_PER_CALL	16
#define MLX5X_EVENT_TYPE_LAST		255
#define MLX5X_EVENT_ROUTE_BITS		8

/**
 * struct mlx5x_devx_events - a device's event routing
 * @lock: the routes, and every subscription's links
 * @routes: struct mlx5x_ev_route by key
 * @cap: the device event capability page, NULL when not reported
 */
struct mlx5x_devx_events {
	spinlock_t lock;
	DECLARE_HASHTABLE(routes, MLX5X_EVENT_ROUTE_BITS);
	void *cap;
};

/* Subscribers of one (type, object) key. */
struct mlx5x_ev_route {
	struct hlist_node node;
	u64 key;
	struct list_head subs;
};

/* Where an event's data names the object it concerns (mlx5_ifc.h). */
enum mlx5x_ev_layout {
	MLX5X_EVL_QUEUE,	/* qp_events: queue type, qpn_rqn_sqn */
	MLX5X_EVL_CQ_ERROR,	/* cq_error: cqn */
	MLX5X_EVL_COMP,		/* comp_event: cq_number */
	MLX5X_EVL_DCT,		/* dct_events: dct_number */
};

#define MLX5X_EV_KINDS	3

/**
 * struct mlx5x_ev_desc - an affiliated event the driver can route
 * @type: PRM event type
 * @layout: where its data names the object
 * @ops: the create opcodes of the kinds it applies to; 0: unused
 */
struct mlx5x_ev_desc {
	u8 type;
	u8 layout;
	u16 ops[MLX5X_EV_KINDS];
};

static const struct mlx5x_ev_desc mlx5x_ev_descs[] = {
	{ MLX5_EVENT_TYPE_COMP, MLX5X_EVL_COMP, { MLX5_CMD_OP_CREATE_CQ } },
	{ MLX5_EVENT_TYPE_PATH_MIG, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP } },
	{ MLX5_EVENT_TYPE_COMM_EST, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP } },
	{ MLX5_EVENT_TYPE_SQ_DRAINED, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP, MLX5_CMD_OP_CREATE_SQ } },
	{ MLX5_EVENT_TYPE_CQ_ERROR, MLX5X_EVL_CQ_ERROR,
	  { MLX5_CMD_OP_CREATE_CQ } },
	{ MLX5_EVENT_TYPE_WQ_CATAS_ERROR, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP, MLX5_CMD_OP_CREATE_RQ,
	    MLX5_CMD_OP_CREATE_SQ } },
	{ MLX5_EVENT_TYPE_PATH_MIG_FAILED, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP } },
	{ MLX5_EVENT_TYPE_WQ_INVAL_REQ_ERROR, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP, MLX5_CMD_OP_CREATE_RQ,
	    MLX5_CMD_OP_CREATE_SQ } },
	{ MLX5_EVENT_TYPE_WQ_ACCESS_ERROR, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP, MLX5_CMD_OP_CREATE_RQ,
	    MLX5_CMD_OP_CREATE_SQ } },
	{ MLX5_EVENT_TYPE_SRQ_LAST_WQE, MLX5X_EVL_QUEUE,
	  { MLX5_CMD_OP_CREATE_QP } },
	{ MLX5_EVENT_TYPE_DCT_DRAINED, MLX5X_EVL_DCT,
	  { MLX5_CMD_OP_CREATE_DCT } },
	{ MLX5_EVENT_TYPE_DCT_KEY_VIOLATION, MLX5X_EVL_DCT,
	  { MLX5_CMD_OP_CREATE_DCT } },
};

static const struct mlx5x_ev_desc *mlx5x_ev_desc_of(unsigned int type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5x_ev_descs); i++)
		if (mlx5x_ev_descs[i].type == type)
			return &mlx5x_ev_descs[i];
	return NULL;
}

static bool mlx5x_ev_applies(const struct mlx5x_ev_desc *d, u16 create_op)
{
	unsigned int i;

	for (i = 0; i < MLX5X_EV_KINDS; i++)
		if (d->ops[i] && d->ops[i] == create_op)
			return true;
	return false;
}

/* Bit @type of a user_(un)affiliated_events mask: 64-bit BE words. */
static bool mlx5x_ev_mask_has(const void *mask, unsigned int type)
{
	return prm_get_bits(mask, type / 64 * 64 + 63 - type % 64, 1);
}

/* Without the capability page: upstream's legacy sets. */
static bool mlx5x_ev_unaffiliated(struct mlx5x_devx_events *ev,
				  unsigned int type)
{
	if (!ev->cap)
		return type == MLX5_EVENT_TYPE_PORT_CHANGE;
	return mlx5x_ev_mask_has(PRM_ADDR(device_event_cap, ev->cap,
					  user_unaffiliated_events), type);
}

static bool mlx5x_ev_affiliated(struct mlx5x_devx_events *ev,
				unsigned int type)
{
	if (!ev->cap || type == MLX5_EVENT_TYPE_COMP)
		return mlx5x_ev_desc_of(type);
	return mlx5x_ev_mask_has(PRM_ADDR(device_event_cap, ev->cap,
					  user_affiliated_events), type);
}

static u64 mlx5x_ev_key(unsigned int type, u16 create_op, u32 id)
{
	return (u64)type | (u64)create_op << 8 | (u64)id << 24;
}

static u16 mlx5x_ev_queue_op(unsigned int queue_type)
{
	switch (queue_type) {
	case MLX5_EVENT_QUEUE_TYPE_QP:
		return MLX5_CMD_OP_CREATE_QP;
	case MLX5_EVENT_QUEUE_TYPE_RQ:
		return MLX5_CMD_OP_CREATE_RQ;
	case MLX5_EVENT_QUEUE_TYPE_SQ:
		return MLX5_CMD_OP_CREATE_SQ;
	case MLX5_EVENT_QUEUE_TYPE_DCT:
		return MLX5_CMD_OP_CREATE_DCT;
	default:
		return 0;
	}
}

/* The routing key of an event queue entry; false: nobody can want it. */
static bool mlx5x_ev_key_of_eqe(struct mlx5x_devx_events *ev,
				const void *eqe, u64 *key)
{
	unsigned int type = PRM_GET(eqe, eqe, event_type);
	const void *data = PRM_ADDR(eqe, eqe, event_data);
	const struct mlx5x_ev_desc *d;
	u16 op;
	u32 id;

	if (mlx5x_ev_unaffiliated(ev, type)) {
		*key = mlx5x_ev_key(type, 0, 0);
		return true;
	}
	d = mlx5x_ev_desc_of(type);
	if (!d)
		return false;
	switch (d->layout) {
	case MLX5X_EVL_QUEUE:
		op = mlx5x_ev_queue_op(PRM_GET(qp_events, data, type));
		id = PRM_GET(qp_events, data, qpn_rqn_sqn);
		break;
	case MLX5X_EVL_CQ_ERROR:
		op = MLX5_CMD_OP_CREATE_CQ;
		id = PRM_GET(cq_error, data, cqn);
		break;
	case MLX5X_EVL_COMP:
		op = MLX5_CMD_OP_CREATE_CQ;
		id = PRM_GET(comp_event, data, cq_number);
		break;
	default:
		op = MLX5_CMD_OP_CREATE_DCT;
		id = PRM_GET(dct_events, data, dct_number);
		break;
	}
	if (!op || !mlx5x_ev_applies(d, op))
		return false;
	*key = mlx5x_ev_key(type, op, id);
	return true;
}

static struct mlx5x_ev_route *mlx5x_ev_route_find(struct mlx5x_devx_events *ev,
						  u64 key)
{
	struct mlx5x_ev_route *r;

	hash_for_each_possible(ev->routes, r, node, key)
		if (r->key == key)
			return r;
	return NULL;
}

/**
 * mlx5x_devx_event() - route one device event to its subscribers
 * @dev: the device that raised it
 * @eqe: the event queue entry, MLX5X_EQE_BYTES
 *
 * Called by the backend, in any context that may take a spinlock.
 */
void mlx5x_devx_event(struct mlx5x_dev *dev, const void *eqe)
{
	struct mlx5x_devx_events *ev = dev->devx_events;
	struct mlx5x_event_sub *sub;
	struct mlx5x_ev_route *r;
	unsigned long flags;
	u64 key;

	if (!ev || !mlx5x_ev_key_of_eqe(ev, eqe, &key))
		return;
	spin_lock_irqsave(&ev->lock, flags);
	r = mlx5x_ev_route_find(ev, key);
	if (r)
		list_for_each_entry(sub, &r->subs, route_link)
			if (!sub->muted)
				mlx5x_event_file_deliver(sub, eqe);
	spin_unlock_irqrestore(&ev->lock, flags);
}

/* Take a subscription off every list; the table lock is held. */
static void mlx5x_ev_unlink(struct mlx5x_event_sub *sub)
{
	struct mlx5x_ev_route *r = sub->route;

	list_del(&sub->route_link);
	if (list_empty(&r->subs)) {
		hash_del(&r->node);
		kfree(r);
	}
	list_del(&sub->file_link);
	list_del_init(&sub->obj_link);
	mlx5x_event_file_unqueue(sub);
}

static void mlx5x_ev_free(struct mlx5x_event_sub *sub)
{
	if (sub->eventfd)
		eventfd_ctx_put(sub->eventfd);
	atomic_dec(&sub->uctx->devx_event_subs);
	kfree(sub);
}

/* Free subscriptions gathered on @gone through their file_link. */
static void mlx5x_ev_free_list(struct list_head *gone)
{
	struct mlx5x_event_sub *sub, *tmp;

	list_for_each_entry_safe(sub, tmp, gone, file_link)
		mlx5x_ev_free(sub);
}

/**
 * mlx5x_devx_unsubscribe_file() - drop every subscription of an event FD
 * @dev: its device
 * @f: the file, being destroyed
 */
void mlx5x_devx_unsubscribe_file(struct mlx5x_dev *dev,
				 struct mlx5x_event_file *f)
{
	struct mlx5x_devx_events *ev = dev->devx_events;
	struct mlx5x_event_sub *sub, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&ev->lock, flags);
	list_for_each_entry_safe(sub, tmp, &f->subs, file_link) {
		mlx5x_ev_unlink(sub);
		list_add(&sub->file_link, &gone);
	}
	spin_unlock_irqrestore(&ev->lock, flags);
	mlx5x_ev_free_list(&gone);
}

/**
 * mlx5x_devx_obj_unsubscribe() - drop every subscription to an object
 * @obj: a DEVX object whose firmware object was just destroyed
 *
 * No event is delivered for it afterwards.
 */
void mlx5x_devx_obj_unsubscribe(struct mlx5x_devx_obj *obj)
{
	struct mlx5x_devx_events *ev = obj->dev->devx_events;
	struct mlx5x_event_sub *sub, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&ev->lock, flags);
	list_for_each_entry_safe(sub, tmp, &obj->event_subs, obj_link) {
		mlx5x_ev_unlink(sub);
		list_add(&sub->file_link, &gone);
	}
	spin_unlock_irqrestore(&ev->lock, flags);
	mlx5x_ev_free_list(&gone);
}

/**
 * mlx5x_devx_obj_mute() - stop or resume delivering an object's events
 * @obj: a DEVX object
 * @muted: true before its destroy runs; false again if the destroy failed
 *
 * From the moment firmware frees the object's number, an event with that
 * number is another object's, perhaps another context's: the object's
 * subscribers must not receive it, whether or not they are yet dropped.
 */
void mlx5x_devx_obj_mute(struct mlx5x_devx_obj *obj, bool muted)
{
	struct mlx5x_devx_events *ev = obj->dev->devx_events;
	struct mlx5x_event_sub *sub;
	unsigned long flags;

	if (!ev)
		return;
	spin_lock_irqsave(&ev->lock, flags);
	list_for_each_entry(sub, &obj->event_subs, obj_link)
		sub->muted = muted;
	spin_unlock_irqrestore(&ev->lock, flags);
}

/* Is every listed type one the caller may subscribe to here? */
static bool mlx5x_ev_types_valid(struct mlx5x_devx_events *ev,
				 const u16 *types, int n,
				 struct mlx5x_devx_obj *obj)
{
	const struct mlx5x_ev_desc *d;
	int i;

	for (i = 0; i < n; i++) {
		if (types[i] > MLX5X_EVENT_TYPE_LAST)
			return false;
		if (!obj) {
			if (!mlx5x_ev_unaffiliated(ev, types[i]))
				return false;
			continue;
		}
		d = mlx5x_ev_desc_of(types[i]);
		if (!d || !mlx5x_ev_affiliated(ev, types[i]) ||
		    !mlx5x_ev_applies(d, obj->kind->create_op))
			return false;
	}
	return true;
}

/* What one call asks for, read and checked before anything is made. */
struct mlx5x_sub_req {
	struct mlx5x_ucontext *uctx;
	struct mlx5x_event_file *file;
	struct mlx5x_devx_obj *obj;
	const u16 *types;
	int n;
	u64 cookie;
	int redirect_fd;	/* -1: none */
};

static int mlx5x_sub_req_read(struct uverbs_attr_bundle *attrs,
			      struct mlx5x_sub_req *req)
{
	struct ib_uobject *uobj;
	int err;

	req->uctx = mlx5x_attrs_devx_uctx(attrs);
	if (IS_ERR(req->uctx))
		return PTR_ERR(req->uctx);
	uobj = uverbs_attr_get_uobject(attrs,
				       MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_HANDLE);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	req->file = container_of(uobj, struct mlx5x_event_file, uobj);
	uobj = uverbs_attr_get_uobject(attrs,
				       MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_OBJ_HANDLE);
	req->obj = IS_ERR(uobj) ? NULL : uobj->object;

	req->redirect_fd = -1;
	if (uverbs_attr_is_valid(attrs,
				 MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_NUM)) {
		err = uverbs_copy_from(&req->redirect_fd, attrs,
				       MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_NUM);
		if (err)
			return err;
		if (req->redirect_fd < 0)
			return -EBADF;
	}
	req->cookie = 0;
	if (uverbs_attr_is_valid(attrs,
				 MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_COOKIE)) {
		/* an eventfd carries no cookie */
		if (req->redirect_fd >= 0)
			return -EINVAL;
		err = uverbs_copy_from(&req->cookie, attrs,
				       MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_COOKIE);
		if (err)
			return err;
	}

	req->n = uverbs_attr_ptr_get_array_size(
		attrs, MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_TYPE_NUM_LIST,
		sizeof(u16));
	if (req->n < 0)
		return req->n;
	if (!req->n || req->n > MLX5X_EVENT_TYPES_PER_CALL)
		return -EINVAL;
	req->types = uverbs_attr_get_alloced_ptr(
		attrs, MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_TYPE_NUM_LIST);
	if (!mlx5x_ev_types_valid(to_mdev(req->uctx->ib.device)->devx_events,
				  req->types, req->n, req->obj))
		return -EINVAL;
	return 0;
}

/* Make the subscriptions of @req, unlinked, on @subs; routes on @spare. */
static int mlx5x_sub_alloc(const struct mlx5x_sub_req *req,
			   struct list_head *subs, struct hlist_head *spare)
{
	struct mlx5x_event_sub *sub;
	struct mlx5x_ev_route *r;
	int i;

	for (i = 0; i < req->n; i++) {
		sub = kzalloc(sizeof(*sub), GFP_KERNEL);
		if (!sub)
			return -ENOMEM;
		INIT_LIST_HEAD(&sub->obj_link);
		INIT_LIST_HEAD(&sub->pending);
		INIT_LIST_HEAD(&sub->route_link);
		sub->file = req->file;
		sub->uctx = req->uctx;
		sub->cookie = req->cookie;
		list_add_tail(&sub->file_link, subs);
		if (req->redirect_fd >= 0) {
			sub->eventfd = eventfd_ctx_fdget(req->redirect_fd);
			if (IS_ERR(sub->eventfd)) {
				int err = PTR_ERR(sub->eventfd);

				sub->eventfd = NULL;
				return err;
			}
		}
		r = kzalloc(sizeof(*r), GFP_KERNEL);
		if (!r)
			return -ENOMEM;
		hlist_add_head(&r->node, spare);
	}
	return 0;
}

/* Hang each subscription on its route, its file and its object. */
static int mlx5x_sub_link(struct mlx5x_devx_events *ev,
			  const struct mlx5x_sub_req *req,
			  struct list_head *subs, struct hlist_head *spare)
{
	struct mlx5x_event_sub *sub, *tmp;
	struct mlx5x_ev_route *r;
	unsigned long flags;
	u16 op = req->obj ? req->obj->kind->create_op : 0;
	u32 id = req->obj ? req->obj->key[0] : 0;
	int i = 0;

	spin_lock_irqsave(&ev->lock, flags);
	spin_lock(&req->file->lock);
	if (req->file->destroyed) {
		spin_unlock(&req->file->lock);
		spin_unlock_irqrestore(&ev->lock, flags);
		return -EIO;
	}
	spin_unlock(&req->file->lock);
	list_for_each_entry_safe(sub, tmp, subs, file_link) {
		u64 key = mlx5x_ev_key(req->types[i++], op, id);

		r = mlx5x_ev_route_find(ev, key);
		if (!r) {
			r = hlist_entry(spare->first, struct mlx5x_ev_route,
					node);
			hlist_del(&r->node);
			r->key = key;
			INIT_LIST_HEAD(&r->subs);
			hash_add(ev->routes, &r->node, key);
		}
		sub->route = r;
		list_add_tail(&sub->route_link, &r->subs);
		list_move_tail(&sub->file_link, &req->file->subs);
		if (req->obj)
			list_add_tail(&sub->obj_link, &req->obj->event_subs);
	}
	spin_unlock_irqrestore(&ev->lock, flags);
	return 0;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT)(
	struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_event_sub *sub;
	struct mlx5x_ev_route *r;
	struct mlx5x_sub_req req;
	struct hlist_node *tmp;
	HLIST_HEAD(spare);
	LIST_HEAD(subs);
	int err, made = 0;

	err = mlx5x_sub_req_read(attrs, &req);
	if (err)
		return err;
	if (atomic_add_return(req.n, &req.uctx->devx_event_subs) >
	    mlx5x_limit_event_subs()) {
		atomic_sub(req.n, &req.uctx->devx_event_subs);
		return -ENOSPC;
	}
	err = mlx5x_sub_alloc(&req, &subs, &spare);
	if (!err)
		err = mlx5x_sub_link(to_mdev(req.uctx->ib.device)->devx_events,
				     &req, &subs, &spare);
	if (err) {
		/* those made give their count back as they are freed */
		list_for_each_entry(sub, &subs, file_link)
			made++;
		atomic_sub(req.n - made, &req.uctx->devx_event_subs);
		mlx5x_ev_free_list(&subs);
	}
	hlist_for_each_entry_safe(r, tmp, &spare, node)
		kfree(r);
	return err;
}

/**
 * mlx5x_devx_events_init() - the routing table of a device
 * @dev: a device whose general capabilities are known
 *
 * Reads the device event capability page when the device has one.
 */
int mlx5x_devx_events_init(struct mlx5x_dev *dev)
{
	struct mlx5x_devx_events *ev;
	int err;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	spin_lock_init(&ev->lock);
	hash_init(ev->routes);
	if (MLX5X_CAP_GEN(dev, event_cap)) {
		err = mlx5x_query_hca_cap(dev, MLX5_CAP_DEV_EVENT, &ev->cap);
		if (err) {
			kfree(ev);
			return err;
		}
	}
	dev->devx_events = ev;
	return 0;
}

/**
 * mlx5x_devx_events_cleanup() - free the routing table
 * @dev: a device no event reaches any more; every context is gone
 */
void mlx5x_devx_events_cleanup(struct mlx5x_dev *dev)
{
	struct mlx5x_devx_events *ev = dev->devx_events;

	if (!ev)
		return;
	if (!hash_empty(ev->routes))
		ibdev_err(&dev->ib, "devx events: routes left at removal\n");
	kfree(ev->cap);
	kfree(ev);
	dev->devx_events = NULL;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT,
	UVERBS_ATTR_FD(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_HANDLE,
		       MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD,
		       UVERBS_ACCESS_READ,
		       UA_MANDATORY),
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_OBJ_HANDLE,
			MLX5_IB_OBJECT_DEVX_OBJ,
			UVERBS_ACCESS_READ,
			UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_TYPE_NUM_LIST,
			   UVERBS_ATTR_MIN_SIZE(sizeof(u16)),
			   UA_MANDATORY,
			   UA_ALLOC_AND_COPY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_COOKIE,
			   UVERBS_ATTR_TYPE(u64),
			   UA_OPTIONAL),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_NUM,
			   UVERBS_ATTR_TYPE(u32),
			   UA_OPTIONAL));

ADD_UVERBS_METHODS(mlx5x_devx_subscribe,
		   MLX5_IB_OBJECT_DEVX,
		   &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT));

const struct uapi_definition mlx5x_devx_subscribe_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(MLX5_IB_OBJECT_DEVX, &mlx5x_devx_subscribe),
	{}
};
