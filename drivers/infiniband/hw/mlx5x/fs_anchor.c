// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_STEERING_ANCHOR: a table a user's own (DEVX) tables may
 * forward to, handing a packet back to the kernel's steering at a given
 * namespace and priority: NIC RX, NIC TX, RDMA RX or RDMA TX, as the
 * device offers them (FDB: no e-switch, EOPNOTSUPP).  Per priority, the kernel makes one anchor
 * table under the shared resource uid (so any context may name it) with
 * two entries: the first forwards into the priority's table (ignoring
 * levels), the one behind it drops.  The forward lives while an anchor
 * object holds it; once the last is destroyed, the table drops what
 * still reaches it.  The table itself lasts as long as the device.
 *
 * The anchors keep their tables and their lock to themselves, apart from
 * the kernel's steering (fs_core.c), which they only ask for a
 * priority's table; the device sets them up after that steering and
 * takes them down before it.
 */
#include <linux/capability.h>
#include <linux/slab.h>
#include "fs_cmd.h"
#include "fs_dv.h"

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

#define MLX5X_ANCHOR_LEVEL	32
#define MLX5X_ANCHOR_GOTO	0	/* flow index of the forward */
#define MLX5X_ANCHOR_DROP	1	/* and of the drop */

/**
 * struct mlx5x_fs_anchor - the anchor table of one priority
 * @ft: its table (shared resource uid); id 0 until the first anchor
 * @fg_goto: its group for the rule into the priority's table
 * @fg_drop: its group for the drop rule behind it
 * @refs: anchors holding the goto rule; at 0 the table drops
 */
struct mlx5x_fs_anchor {
	struct mlx5x_fs_table_ref ft;
	u32 fg_goto;
	u32 fg_drop;
	unsigned int refs;
};

/**
 * struct mlx5x_fs_anchors - the steering anchors of one device
 * @lock: serialises the anchors' changes to their tables
 * @table: per namespace and priority, the anchor table
 */
struct mlx5x_fs_anchors {
	struct mutex lock;
	struct mlx5x_fs_anchor table[MLX5X_FS_NS_NUM][MLX5X_FS_PRIOS];
};

/* One MLX5_IB_OBJECT_STEERING_ANCHOR. */
struct mlx5x_steering_anchor {
	struct mlx5x_dev *dev;
	struct mlx5x_ucontext *uctx;	/* counted against its limit */
	enum mlx5x_fs_ns ns;
	unsigned int prio;
};

static void mlx5x_anchor_table_destroy(struct mlx5x_dev *dev,
				       struct mlx5x_fs_anchor *a)
{
	if (a->fg_drop) {
		mlx5x_fs_cmd_delete_fte(dev, &a->ft, MLX5X_ANCHOR_DROP);
		mlx5x_fs_cmd_destroy_group(dev, &a->ft, a->fg_drop);
	}
	if (a->fg_goto)
		mlx5x_fs_cmd_destroy_group(dev, &a->ft, a->fg_goto);
	if (a->ft.id)
		mlx5x_fs_cmd_destroy_table(dev, &a->ft);
	memset(a, 0, sizeof(*a));
}

/* The anchor table of a priority, with its drop entry, made once. */
static int mlx5x_anchor_table_get(struct mlx5x_dev *dev, u32 type,
				  struct mlx5x_fs_anchor *a)
{
	static const struct mlx5x_fs_table_attr attr = {
		.level = MLX5X_ANCHOR_LEVEL,
		.log_size = 1,
	};
	struct mlx5x_fs_fte_cmd drop = {
		.index = MLX5X_ANCHOR_DROP,
		.action = MLX5_FLOW_CONTEXT_ACTION_DROP,
	};
	int err;

	if (a->ft.id)
		return 0;
	a->ft.uid = MLX5_SHARED_RESOURCE_UID;
	a->ft.type = type;
	err = mlx5x_fs_cmd_create_table(dev, &a->ft, &attr);
	if (!err)
		err = mlx5x_fs_cmd_create_group(dev, &a->ft, MLX5X_ANCHOR_GOTO,
						MLX5X_ANCHOR_GOTO, 0, NULL,
						&a->fg_goto);
	if (!err)
		err = mlx5x_fs_cmd_create_group(dev, &a->ft, MLX5X_ANCHOR_DROP,
						MLX5X_ANCHOR_DROP, 0, NULL,
						&a->fg_drop);
	if (!err) {
		drop.group = a->fg_drop;
		err = mlx5x_fs_cmd_set_fte(dev, &a->ft, &drop);
		if (err) {
			mlx5x_fs_cmd_destroy_group(dev, &a->ft, a->fg_drop);
			a->fg_drop = 0;
		}
	}
	if (err)
		mlx5x_anchor_table_destroy(dev, a);
	return err;
}

/* The anchor table's forward into the priority's table @prio_ft. */
static int mlx5x_anchor_goto_add(struct mlx5x_dev *dev,
				 struct mlx5x_fs_anchor *a, u32 prio_ft)
{
	const struct mlx5x_fs_dest dest = {
		MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE, prio_ft
	};
	const struct mlx5x_fs_fte_cmd fwd = {
		.group = a->fg_goto,
		.index = MLX5X_ANCHOR_GOTO,
		.ignore_level = true,
		.ndest = 1,
		.dest = &dest,
	};

	return mlx5x_fs_cmd_set_fte(dev, &a->ft, &fwd);
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_STEERING_ANCHOR_CREATE)(
	struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(
		attrs, MLX5_IB_ATTR_STEERING_ANCHOR_CREATE_HANDLE);
	struct mlx5x_dev *dev = to_mdev(uobj->context->device);
	struct mlx5x_ucontext *uctx = to_mucontext(uobj->context);
	struct mlx5x_fs_anchors *anchors = dev->fs_anchors;
	struct mlx5x_steering_anchor *obj;
	struct mlx5x_fs_anchor *a;
	enum mlx5x_fs_ns ns;
	u32 ft_type, prio_ft, type;
	u16 prio;
	int err;

	if (!capable(CAP_NET_RAW))
		return -EPERM;
	err = uverbs_get_const(&ft_type, attrs,
			       MLX5_IB_ATTR_STEERING_ANCHOR_FT_TYPE);
	if (err)
		return err;
	/* a type the device does not offer has no table: EOPNOTSUPP below */
	err = mlx5x_ft_type_to_ns(ft_type, &ns);
	if (err)
		return err;
	err = uverbs_copy_from(&prio, attrs,
			       MLX5_IB_ATTR_STEERING_ANCHOR_PRIORITY);
	if (err)
		return err;
	if (prio >= mlx5x_fs_nprios(ns))
		return -EINVAL;
	prio_ft = mlx5x_fs_prio_table_id(dev, ns, prio);
	if (!prio_ft)
		return -EOPNOTSUPP;
	err = mlx5x_limit_take(uctx, MLX5X_LIMIT_STEERING);
	if (err)
		return err;
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj) {
		mlx5x_limit_put(uctx, MLX5X_LIMIT_STEERING);
		return -ENOMEM;
	}
	type = mlx5x_fs_table_type(ns);
	a = &anchors->table[ns][prio];
	mutex_lock(&anchors->lock);
	err = mlx5x_anchor_table_get(dev, type, a);
	if (!err && !a->refs)
		err = mlx5x_anchor_goto_add(dev, a, prio_ft);
	if (err)
		goto err_unlock;
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_STEERING_ANCHOR_FT_ID,
			     &a->ft.id, sizeof(a->ft.id));
	if (err) {
		if (!a->refs)
			mlx5x_fs_cmd_delete_fte(dev, &a->ft, MLX5X_ANCHOR_GOTO);
		goto err_unlock;
	}
	a->refs++;
	mutex_unlock(&anchors->lock);
	obj->dev = dev;
	obj->uctx = uctx;
	obj->ns = ns;
	obj->prio = prio;
	uobj->object = obj;
	return 0;

err_unlock:
	mutex_unlock(&anchors->lock);
	kfree(obj);
	mlx5x_limit_put(uctx, MLX5X_LIMIT_STEERING);
	return err;
}

static int mlx5x_steering_anchor_cleanup(struct ib_uobject *uobj,
					 enum rdma_remove_reason why,
					 struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_steering_anchor *obj = uobj->object;
	struct mlx5x_dev *dev = obj->dev;
	struct mlx5x_fs_anchors *anchors = dev->fs_anchors;
	struct mlx5x_fs_anchor *a = &anchors->table[obj->ns][obj->prio];

	mutex_lock(&anchors->lock);
	if (!--a->refs)
		mlx5x_fs_cmd_delete_fte(dev, &a->ft, MLX5X_ANCHOR_GOTO);
	mutex_unlock(&anchors->lock);
	mlx5x_limit_put(obj->uctx, MLX5X_LIMIT_STEERING);
	kfree(obj);
	return 0;
}

/**
 * mlx5x_fs_anchors_init() - make room for a device's steering anchors
 * @dev: device whose kernel steering is built (mlx5x_fs_init())
 *
 * No table is made: an anchor table comes with its priority's first
 * anchor.
 *
 * Return: 0 or -ENOMEM.
 */
int mlx5x_fs_anchors_init(struct mlx5x_dev *dev)
{
	struct mlx5x_fs_anchors *anchors;

	anchors = kzalloc(sizeof(*anchors), GFP_KERNEL);
	if (!anchors)
		return -ENOMEM;
	mutex_init(&anchors->lock);
	dev->fs_anchors = anchors;
	return 0;
}

/**
 * mlx5x_fs_anchors_cleanup() - destroy the anchor tables of a device
 * @dev: device whose anchor objects are all gone; before
 *	 mlx5x_fs_cleanup(), since the tables forward into the kernel's
 *
 * Does nothing when mlx5x_fs_anchors_init() did not run or failed.
 */
void mlx5x_fs_anchors_cleanup(struct mlx5x_dev *dev)
{
	struct mlx5x_fs_anchors *anchors = dev->fs_anchors;
	unsigned int ns, prio;

	if (!anchors)
		return;
	for (ns = 0; ns < MLX5X_FS_NS_NUM; ns++)
		for (prio = 0; prio < MLX5X_FS_PRIOS; prio++)
			mlx5x_anchor_table_destroy(dev,
						   &anchors->table[ns][prio]);
	mutex_destroy(&anchors->lock);
	kfree(anchors);
	dev->fs_anchors = NULL;
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_STEERING_ANCHOR_CREATE,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_STEERING_ANCHOR_CREATE_HANDLE,
			MLX5_IB_OBJECT_STEERING_ANCHOR,
			UVERBS_ACCESS_NEW,
			UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_STEERING_ANCHOR_FT_TYPE,
			     enum mlx5_ib_uapi_flow_table_type,
			     UA_MANDATORY),
	UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_STEERING_ANCHOR_PRIORITY,
			   UVERBS_ATTR_TYPE(u16),
			   UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_STEERING_ANCHOR_FT_ID,
			    UVERBS_ATTR_TYPE(u32),
			    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	MLX5_IB_METHOD_STEERING_ANCHOR_DESTROY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_STEERING_ANCHOR_DESTROY_HANDLE,
			MLX5_IB_OBJECT_STEERING_ANCHOR,
			UVERBS_ACCESS_DESTROY,
			UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(
	MLX5_IB_OBJECT_STEERING_ANCHOR,
	UVERBS_TYPE_ALLOC_IDR(mlx5x_steering_anchor_cleanup),
	&UVERBS_METHOD(MLX5_IB_METHOD_STEERING_ANCHOR_CREATE),
	&UVERBS_METHOD(MLX5_IB_METHOD_STEERING_ANCHOR_DESTROY));

static bool mlx5x_steering_anchor_is_supported(struct ib_device *ib)
{
	return to_mdev(ib)->fs_anchors;
}

const struct uapi_definition mlx5x_steering_anchor_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(
		MLX5_IB_OBJECT_STEERING_ANCHOR,
		UAPI_DEF_IS_OBJ_SUPPORTED(mlx5x_steering_anchor_is_supported)),
	{}
};
