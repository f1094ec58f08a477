// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Events.  Firmware reports what happens to a resource (a CQ overrun, a
 * QP's error) or to the port as a 64-byte event queue entry, struct
 * mlx5_ifc_eqe_bits, on an EQ of the resource's owner.  The model builds
 * the entry as firmware lays it out and hands it to the one handler the
 * driver registered (mlx5x_sim_set_event_handler()); the driver routes it.
 *
 * Tests raise events by writing fw/raise_event:
 *	EVENT_TYPE [SUB_TYPE] [KIND ID]
 * e.g. "0x4 cq 0x12" (CQ error on CQ 0x12) or "0x9 4" (port active).  The
 * event must be one the model raises, the sub type one it has, the kind
 * one the event applies to, and the object must exist.
 *
 * The profile's device event capability page advertises exactly the
 * events of sim_events[] (sim_events_fill_cap()).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "../sim_priv.h"

/*
 * Where the event data holds the resource: the layouts of the event_data
 * union of mlx5_ifc_eqe_bits.
 */
enum sim_ev_layout {
	SIM_EVL_NONE,
	SIM_EVL_QUEUE,		/* qp_events: queue type and number */
	SIM_EVL_CQ_ERROR,	/* cq_error: cqn and syndrome */
	SIM_EVL_COMP,		/* comp_event: cq_number */
	SIM_EVL_PORT,		/* port_state_change_event: port_num */
};

/* Queue types of qp_events.type (MLX5_EVENT_QUEUE_TYPE_*). */
enum {
	SIM_EV_QUEUE_QP = 0,
	SIM_EV_QUEUE_RQ = 1,
	SIM_EV_QUEUE_SQ = 2,
};

/*
 * struct sim_event - an event the model raises
 * @type: PRM event type
 * @layout: where its data names the resource
 * @kinds: BIT() of the object kinds it names; 0: unaffiliated
 * @sub_types: BIT() of the sub types it carries; BIT(0) alone: none
 */
struct sim_event {
	u8 type;
	u8 layout;
	u32 kinds;
	u32 sub_types;
};

#define SIM_EV_QUEUES	(BIT(SIM_OBJ_QP) | BIT(SIM_OBJ_RQ) | BIT(SIM_OBJ_SQ))

static const struct sim_event sim_events[] = {
	{ SIM_EV_COMP, SIM_EVL_COMP, BIT(SIM_OBJ_CQ), BIT(0) },
	{ SIM_EV_PATH_MIG, SIM_EVL_QUEUE, BIT(SIM_OBJ_QP), BIT(0) },
	{ SIM_EV_COMM_EST, SIM_EVL_QUEUE, BIT(SIM_OBJ_QP), BIT(0) },
	{ SIM_EV_SQ_DRAINED, SIM_EVL_QUEUE, BIT(SIM_OBJ_QP) | BIT(SIM_OBJ_SQ),
	  BIT(0) },
	{ SIM_EV_CQ_ERROR, SIM_EVL_CQ_ERROR, BIT(SIM_OBJ_CQ), BIT(0) },
	{ SIM_EV_WQ_CATAS_ERROR, SIM_EVL_QUEUE, SIM_EV_QUEUES, BIT(0) },
	{ SIM_EV_PATH_MIG_FAILED, SIM_EVL_QUEUE, BIT(SIM_OBJ_QP), BIT(0) },
	{ SIM_EV_PORT_CHANGE, SIM_EVL_PORT, 0,
	  BIT(SIM_PORT_CHANGE_DOWN) | BIT(SIM_PORT_CHANGE_ACTIVE) },
	{ SIM_EV_WQ_INVAL_REQ_ERROR, SIM_EVL_QUEUE, SIM_EV_QUEUES, BIT(0) },
	{ SIM_EV_WQ_ACCESS_ERROR, SIM_EVL_QUEUE, SIM_EV_QUEUES, BIT(0) },
	{ SIM_EV_SRQ_LAST_WQE, SIM_EVL_QUEUE, BIT(SIM_OBJ_QP), BIT(0) },
	{ SIM_EV_SRQ_RQ_LIMIT, SIM_EVL_QUEUE, BIT(SIM_OBJ_RMP), BIT(0) },
};

static const struct sim_event *sim_event_find(unsigned int type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_events); i++)
		if (sim_events[i].type == type)
			return &sim_events[i];
	return NULL;
}

static u8 sim_queue_type(enum sim_obj_type kind)
{
	switch (kind) {
	case SIM_OBJ_RQ:
		return SIM_EV_QUEUE_RQ;
	case SIM_OBJ_SQ:
		return SIM_EV_QUEUE_SQ;
	default:
		return SIM_EV_QUEUE_QP;
	}
}

/*
 * Lay out the entry as firmware writes it to the EQ; @syndrome is a CQ
 * error's (SIM_CQ_ERROR_*).
 */
static void sim_event_build(const struct sim_event *ev, u8 sub_type,
			    enum sim_obj_type kind, u32 id, u8 syndrome,
			    void *eqe)
{
	void *data = PRM_ADDR(eqe, eqe, event_data);

	memset(eqe, 0, SIM_EQE_BYTES);
	PRM_SET(eqe, eqe, event_type, ev->type);
	PRM_SET(eqe, eqe, event_sub_type, sub_type);
	switch (ev->layout) {
	case SIM_EVL_QUEUE:
		PRM_SET(qp_events, data, type, sim_queue_type(kind));
		PRM_SET(qp_events, data, qpn_rqn_sqn, id);
		break;
	case SIM_EVL_CQ_ERROR:
		PRM_SET(cq_error, data, cqn, id);
		PRM_SET(cq_error, data, syndrome, syndrome);
		break;
	case SIM_EVL_COMP:
		PRM_SET(comp_event, data, cq_number, id);
		break;
	case SIM_EVL_PORT:
		PRM_SET(port_state_change_event, data, port_num, 1);
		break;
	}
}

/**
 * sim_event_raise() - raise one event, as firmware would
 * @sim: the model
 * @type: PRM event type
 * @sub_type: its sub type; 0 for events that have none
 * @kind: the kind of object it concerns, or -1 for an unaffiliated event
 * @id: that object's number
 *
 * Builds the event queue entry and hands it to the driver's handler, if
 * one is registered, under the model's lock: an object is never destroyed
 * between the check that it exists and the delivery.
 *
 * Return: 0; -EINVAL for an event the model does not raise, a sub type it
 * does not have, a kind it does not apply to or a missing/superfluous
 * object; -ENOENT when there is no such object.
 */
int sim_event_raise(struct mlx5x_sim *sim, unsigned int type,
		    unsigned int sub_type, int kind, u32 id)
{
	const struct sim_event *ev = sim_event_find(type);
	u32 eqe[SIM_EQE_BYTES / 4];
	int err = 0;

	if (!ev || sub_type >= 32 || !(ev->sub_types & BIT(sub_type)))
		return -EINVAL;
	if (ev->kinds ? kind < 0 || kind >= SIM_OBJ_NTYPES ||
			!(ev->kinds & BIT(kind)) : kind >= 0)
		return -EINVAL;

	mutex_lock(&sim->lock);
	if (kind >= 0 && !xa_load(&sim->objs[kind], id)) {
		err = -ENOENT;
	} else {
		sim_event_build(ev, sub_type, kind, id, SIM_CQ_ERROR_OVERRUN,
				eqe);
		sim->events++;
		if (sim->event_fn)
			sim->event_fn(sim->event_ctx, eqe);
	}
	mutex_unlock(&sim->lock);
	return err;
}

/**
 * sim_event_emit() - raise an event the model found itself (a CQ overrun)
 * @sim: the model, its lock held
 * @type: PRM event type; the event has no sub type
 * @kind: the kind of object it concerns
 * @id: that object's number, an object that exists
 * @syndrome: for a CQ error, why (SIM_CQ_ERROR_*); else 0
 */
void sim_event_emit(struct mlx5x_sim *sim, unsigned int type,
		    enum sim_obj_type kind, u32 id, u8 syndrome)
{
	const struct sim_event *ev = sim_event_find(type);
	u32 eqe[SIM_EQE_BYTES / 4];

	lockdep_assert_held(&sim->lock);
	if (!ev)
		return;
	sim_event_build(ev, 0, kind, id, syndrome, eqe);
	sim->events++;
	if (sim->event_fn)
		sim->event_fn(sim->event_ctx, eqe);
}

/**
 * mlx5x_sim_set_event_handler() - where the model's events go
 * @sim: the model
 * @fn: called with each event queue entry (SIM_EQE_BYTES); NULL: none
 * @ctx: passed to @fn
 *
 * @fn runs under the model's command lock: it must not issue commands.
 */
void mlx5x_sim_set_event_handler(struct mlx5x_sim *sim,
				 mlx5x_sim_event_fn fn, void *ctx)
{
	mutex_lock(&sim->lock);
	sim->event_fn = fn;
	sim->event_ctx = ctx;
	mutex_unlock(&sim->lock);
}

/**
 * mlx5x_sim_port_change() - the port went up or down
 * @sim: the model
 * @up: its new state
 *
 * Raises PORT_CHANGE with sub type ACTIVE or DOWN.
 */
void mlx5x_sim_port_change(struct mlx5x_sim *sim, bool up)
{
	sim_event_raise(sim, SIM_EV_PORT_CHANGE,
			up ? SIM_PORT_CHANGE_ACTIVE : SIM_PORT_CHANGE_DOWN,
			-1, 0);
}

/* One bit of a user_(un)affiliated_events mask: 64-bit big-endian words. */
static void sim_event_cap_set(void *mask, unsigned int type)
{
	prm_set_bits(mask, type / 64 * 64 + 63 - type % 64, 1, 1);
}

/**
 * sim_events_fill_cap() - the device event capability page
 * @page: a zeroed capability page (device_event_cap)
 *
 * Every event of the model a user may subscribe to: affiliated events in
 * user_affiliated_events, the others in user_unaffiliated_events.  The
 * completion event is not listed: it is implied for CQs.
 */
void sim_events_fill_cap(void *page)
{
	void *aff = PRM_ADDR(device_event_cap, page, user_affiliated_events);
	void *unaff = PRM_ADDR(device_event_cap, page,
			       user_unaffiliated_events);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_events); i++) {
		if (sim_events[i].type == SIM_EV_COMP)
			continue;
		sim_event_cap_set(sim_events[i].kinds ? aff : unaff,
				  sim_events[i].type);
	}
}

static int sim_event_kind(const char *name)
{
	int t;

	for (t = 0; t < SIM_OBJ_NTYPES; t++)
		if (!strcmp(name, sim_obj_type_name(t)))
			return t;
	return -1;
}

#define SIM_EV_KNOB_WORDS	4

/**
 * sim_event_knob() - raise the event a line of fw/raise_event describes
 * @sim: the model
 * @buf: "EVENT_TYPE [SUB_TYPE] [KIND ID]", NUL-terminated; modified
 *
 * Return: 0, or the error of sim_event_raise(); -EINVAL for a line that
 * does not parse.
 */
int sim_event_knob(struct mlx5x_sim *sim, char *buf)
{
	char *word[SIM_EV_KNOB_WORDS + 1];
	unsigned int n = 0, type, sub = 0;
	int kind = -1;
	u32 id = 0;
	char *tok;

	while ((tok = strsep(&buf, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (n == ARRAY_SIZE(word))
			return -EINVAL;
		word[n++] = tok;
	}
	if (n < 1 || n > SIM_EV_KNOB_WORDS || kstrtouint(word[0], 0, &type))
		return -EINVAL;
	if ((n == 2 || n == 4) && kstrtouint(word[1], 0, &sub))
		return -EINVAL;
	if (n >= 3) {
		kind = sim_event_kind(word[n - 2]);
		if (kind < 0 || kstrtou32(word[n - 1], 0, &id))
			return -EINVAL;
	}
	return sim_event_raise(sim, type, sub, kind, id);
}

#define SIM_EV_KNOB_MAX		64

static ssize_t sim_raise_event_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	struct mlx5x_sim *sim = file->private_data;
	char buf[SIM_EV_KNOB_MAX];
	int err;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	err = sim_event_knob(sim, buf);
	return err ?: count;
}

static const struct file_operations sim_raise_event_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_raise_event_write,
};

/**
 * sim_events_debugfs_init() - publish fw/raise_event
 * @sim: the model, whose fw/ directory exists
 */
void sim_events_debugfs_init(struct mlx5x_sim *sim)
{
	debugfs_create_file("raise_event", 0200, sim->dbg, sim,
			    &sim_raise_event_fops);
}
