// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_create_flow / ibv_destroy_flow on RAW_PACKET QPs: the create_flow
 * and destroy_flow device operations.  ib_uverbs has checked CAP_NET_RAW,
 * the QP type, the port, the flags the core knows, the spec sizes and that
 * DONT_TRAP goes with NORMAL flows only; what is left is mlx5_ib's part.
 * A flow is one or two rules of the kernel's steering (fs_rule.c):
 *
 *   NORMAL           bypass priority p (user priority p; upstream's core
 *                    priority 2p + 1), or its don't-trap table (2p) with
 *                    DONT_TRAP: deliver to the QP and go on to priority p;
 *                    a multicast-only flow without DONT_TRAP goes to the
 *                    multicast table after every priority.  EGRESS: the
 *                    same in NIC TX, allowing (or dropping) what it matches
 *   ALL_DEFAULT      leftovers: every multicast and every unicast packet
 *   MC_DEFAULT       leftovers: every multicast packet
 *   SNIFFER          sniffer RX and TX: a copy of every packet
 *
 * Flows that match the same in the same table share one entry whose
 * destinations are all their QPs (fs_rule.c merges them).
 */
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/uverbs_ioctl.h>
#include "fs_dv.h"
#include "fs_verbs.h"
#include "verbs.h"

#define MLX5X_FLOW_MAX_RULES	2

struct mlx5x_verbs_flow {
	struct mlx5x_flow base;
	unsigned int nrules;
	struct mlx5x_fs_rule *rule[MLX5X_FLOW_MAX_RULES];
	struct ib_counters *counters;
};

/* The mlx5 driver data of create_flow: its counters data, if any. */
static int mlx5x_flow_udata(struct ib_udata *udata,
			    struct mlx5_ib_flow_counters_data *data,
			    bool *has_data)
{
	size_t min = offsetofend(struct mlx5_ib_create_flow, reserved);
	struct mlx5_ib_create_flow hdr;
	size_t need;
	int err;

	*has_data = false;
	if (!udata || !udata->inlen)
		return 0;
	if (udata->inlen < min)
		return -EOPNOTSUPP;
	err = ib_copy_from_udata(&hdr, udata, min);
	if (err)
		return err;
	if (hdr.ncounters_data > 1)	/* one counters spec per flow */
		return -EINVAL;
	need = min + hdr.ncounters_data * sizeof(*data);
	if (udata->inlen > need &&
	    !ib_is_udata_cleared(udata, need, udata->inlen - need))
		return -EOPNOTSUPP;
	if (!hdr.ncounters_data)
		return 0;
	if (udata->inlen < need)
		return -EINVAL;
	/* ib_copy_from_udata() reads from the start: skip the header */
	if (copy_from_user(data, (const u8 __user *)udata->inbuf + min,
			   sizeof(*data)))
		return -EFAULT;
	*has_data = true;
	return 0;
}

static void mlx5x_flow_free(struct mlx5x_verbs_flow *flow)
{
	while (flow->nrules)
		mlx5x_fs_rule_del(flow->base.dev, flow->rule[--flow->nrules]);
	if (flow->counters)
		mlx5x_counters_unbind(flow->counters);
	kfree(flow);
}

/* The destroy_flow device operation (fs_flow.c) for a verbs flow. */
static void mlx5x_verbs_flow_destroy(struct mlx5x_flow *base)
{
	mlx5x_flow_free(container_of(base, struct mlx5x_verbs_flow, base));
}

static int mlx5x_flow_add(struct mlx5x_verbs_flow *flow, enum mlx5x_fs_ns ns,
			  unsigned int prio,
			  const struct mlx5x_fs_rule_attr *attr)
{
	struct mlx5x_fs_rule *rule;

	rule = mlx5x_fs_rule_add(flow->base.dev, ns, prio, attr);
	if (IS_ERR(rule))
		return PTR_ERR(rule);
	flow->rule[flow->nrules++] = rule;
	return 0;
}

/* The destination of a received packet: the QP's TIR. */
static void mlx5x_flow_to_tir(struct mlx5x_fs_rule_attr *r, u32 tirn)
{
	r->action = MLX5_FLOW_CONTEXT_ACTION_FWD_DEST;
	r->ndest = 1;
	r->dest[0].type = MLX5_IFC_FLOW_DESTINATION_TYPE_TIR;
	r->dest[0].id = tirn;
}

/* ALL_DEFAULT and MC_DEFAULT: by the multicast bit of the destination MAC. */
static int mlx5x_flow_leftovers(struct mlx5x_verbs_flow *flow,
				const struct ib_flow_attr *attr, u32 tirn)
{
	struct mlx5x_flow_match *m;
	struct mlx5x_fs_rule_attr r = {};
	u8 *dmac_c, *dmac_v;
	int err;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	dmac_c = PRM_ADDR(fte_match_set_lyr_2_4,
			  PRM_ADDR(fte_match_param, m->mask, outer_headers),
			  dmac_47_16);
	dmac_v = PRM_ADDR(fte_match_set_lyr_2_4,
			  PRM_ADDR(fte_match_param, m->value, outer_headers),
			  dmac_47_16);
	dmac_c[0] = 0x01;
	dmac_v[0] = 0x01;
	r.criteria = BIT(MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_OUTER_HEADERS);
	r.mask = m->mask;
	r.value = m->value;
	mlx5x_flow_to_tir(&r, tirn);
	err = mlx5x_flow_add(flow, MLX5X_FS_NS_LEFTOVERS, 0, &r);
	if (!err && attr->type == IB_FLOW_ATTR_ALL_DEFAULT) {
		dmac_v[0] = 0;
		err = mlx5x_flow_add(flow, MLX5X_FS_NS_LEFTOVERS, 0, &r);
	}
	kfree(m);
	return err;
}

/* SNIFFER: every packet, received and sent, to the QP. */
static int mlx5x_flow_sniffer(struct mlx5x_verbs_flow *flow, u32 tirn)
{
	static const u8 none[PRM_BYTES(fte_match_param)];
	struct mlx5x_fs_rule_attr r = {
		.mask = none,
		.value = none,
	};
	int err;

	/* -EOPNOTSUPP from the first when the device has no sniffer */
	mlx5x_flow_to_tir(&r, tirn);
	err = mlx5x_flow_add(flow, MLX5X_FS_NS_SNIFFER_RX, 0, &r);
	if (!err)
		err = mlx5x_flow_add(flow, MLX5X_FS_NS_SNIFFER_TX, 0, &r);
	return err;
}

/* NORMAL: the specs, in the priority (and table) the flags choose. */
static int mlx5x_flow_normal(struct mlx5x_verbs_flow *flow,
			     const struct ib_flow_attr *attr, u32 tirn,
			     const struct mlx5_ib_flow_counters_data *data)
{
	bool dont_trap = attr->flags & IB_FLOW_ATTR_FLAGS_DONT_TRAP;
	bool egress = attr->flags & IB_FLOW_ATTR_FLAGS_EGRESS;
	struct mlx5x_fs_rule_attr r = {};
	struct mlx5x_flow_match *m;
	enum mlx5x_fs_ns ns;
	unsigned int prio = attr->priority;
	int err;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	err = mlx5x_flow_specs_parse(flow->base.dev, attr, m);
	if (err)
		goto out;
	if (egress) {
		ns = dont_trap ? MLX5X_FS_NS_EGRESS_DT : MLX5X_FS_NS_EGRESS;
	} else if (dont_trap) {
		ns = MLX5X_FS_NS_BYPASS_DT;
	} else if (mlx5x_flow_mcast_only(attr)) {
		ns = MLX5X_FS_NS_MCAST;
		prio = 0;
	} else {
		ns = MLX5X_FS_NS_BYPASS;
	}
	r.criteria = m->criteria;
	r.mask = m->mask;
	r.value = m->value;
	r.flow_tag = m->has_tag ? m->flow_tag : 0;
	if (m->drop) {
		r.action = MLX5_FLOW_CONTEXT_ACTION_DROP;
	} else {
		/* a sent packet is allowed on, or goes on to the next table */
		if (egress)
			r.action = dont_trap ? 0 : MLX5_FLOW_CONTEXT_ACTION_ALLOW;
		else
			mlx5x_flow_to_tir(&r, tirn);
		r.fwd_next = dont_trap;
	}
	if (m->counters) {
		err = mlx5x_counters_bind(flow->base.dev, m->counters, data);
		if (err)
			goto out;
		flow->counters = m->counters;
		r.ncounter = 1;
		r.counter[0] = to_mcounters(m->counters)->fc_id;
	} else if (data) {
		err = -EINVAL;	/* counters data for no counters spec */
		goto out;
	}
	err = mlx5x_flow_add(flow, ns, prio, &r);
out:
	kfree(m);
	return err;
}

/**
 * mlx5x_create_flow() - the create_flow device operation
 * @qp: a RAW_PACKET QP (with EGRESS, only the means to the device)
 * @attr: the flow, its specs behind it
 * @udata: struct mlx5_ib_create_flow, optional
 *
 * Return: the flow, or an ERR_PTR: -ENOMEM for a priority above 15 (as
 * upstream), -EINVAL for flags other than DONT_TRAP and EGRESS, EGRESS
 * with a default type, a QP that is not RAW_PACKET, bad specs or counters
 * data; -EOPNOTSUPP for a mask or type the device cannot do; -EEXIST
 * when a flow of the priority matches the same with other actions.
 */
struct ib_flow *mlx5x_create_flow(struct ib_qp *qp, struct ib_flow_attr *attr,
				  struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(qp->device);
	bool egress = attr->flags & IB_FLOW_ATTR_FLAGS_EGRESS;
	struct mlx5_ib_flow_counters_data data;
	struct mlx5x_ucontext *uctx;
	struct mlx5x_verbs_flow *flow;
	bool has_data;
	u32 tirn = 0;
	int err;

	err = mlx5x_flow_udata(udata, &data, &has_data);
	if (err)
		return ERR_PTR(err);
	if (attr->priority >= MLX5X_FS_PRIOS)
		return ERR_PTR(-ENOMEM);
	if (attr->flags & ~(IB_FLOW_ATTR_FLAGS_DONT_TRAP |
			    IB_FLOW_ATTR_FLAGS_EGRESS))
		return ERR_PTR(-EINVAL);
	if (egress && (attr->type == IB_FLOW_ATTR_ALL_DEFAULT ||
		       attr->type == IB_FLOW_ATTR_MC_DEFAULT))
		return ERR_PTR(-EINVAL);
	if (!dev->fs)
		return ERR_PTR(-EOPNOTSUPP);
	err = mlx5x_qp_tirn(qp, &tirn);
	if (err && !egress)
		return ERR_PTR(err);
	uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ucontext, ib);
	if (uctx) {
		err = mlx5x_limit_take(uctx, MLX5X_LIMIT_FLOWS);
		if (err)
			return ERR_PTR(err);
	}
	flow = kzalloc(sizeof(*flow), GFP_KERNEL);
	if (!flow) {
		if (uctx)
			mlx5x_limit_put(uctx, MLX5X_LIMIT_FLOWS);
		return ERR_PTR(-ENOMEM);
	}
	flow->base.dev = dev;
	flow->base.uctx = uctx;
	flow->base.destroy = mlx5x_verbs_flow_destroy;
	switch (attr->type) {
	case IB_FLOW_ATTR_NORMAL:
		err = mlx5x_flow_normal(flow, attr, tirn,
					has_data ? &data : NULL);
		break;
	case IB_FLOW_ATTR_ALL_DEFAULT:
	case IB_FLOW_ATTR_MC_DEFAULT:
		err = mlx5x_flow_leftovers(flow, attr, tirn);
		break;
	case IB_FLOW_ATTR_SNIFFER:
		err = egress ? -EINVAL : mlx5x_flow_sniffer(flow, tirn);
		break;
	default:
		err = -EINVAL;
		break;
	}
	if (err) {
		mlx5x_flow_free(flow);
		if (uctx)
			mlx5x_limit_put(uctx, MLX5X_LIMIT_FLOWS);
		return ERR_PTR(err);
	}
	return &flow->base.ib;
}
