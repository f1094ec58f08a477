// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Steering anchors hand real packets back to the kernel (issue 24 item
 * 3, mlx5dv_create_steering_anchor(3): "reinject the packet back into
 * the kernel for additional processing").  A simulated device of its own
 * on the near end of a veth pair; UDP datagrams sent from the far
 * namespace to port ORIG.  An unprivileged user (nobody, CAP_NET_RAW
 * kept, as flow steering needs) steers them: a matcher's rule at
 * priority 0 sends them to the user's own DEVX table, whose entry
 * rewrites the UDP destination port to NEW (a modify header) and
 * forwards to the anchor of a priority.  From there the kernel's
 * steering goes on, and what reaches the port's default goes to the
 * near kernel's stack as rewritten: a socket on NEW receives it (its
 * UDP checksum carried along, or the stack would drop it), a socket on
 * ORIG does not.  Once the anchor is destroyed, the anchor's table drops
 * what the rule still sends it (neither socket receives); once the rule
 * goes too, the datagrams reach ORIG unmodified, as with no rule.  The
 * anchor's priority decides which kernel rules the packet still meets: a
 * rule at priority 3 dropping port NEW stops what an anchor of priority
 * 3 hands back, not what one of priority 4 does.  On hardware (or with
 * MLX5X_NO_MODEL) every case skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_prm.h"
#include "mlx5x_veth.h"

#define AW_DEV		"mlx5x_aw"
#define NEAR_IP		"192.168.78.1"
#define FAR_IP		"192.168.78.2"
#define AW_DEBUGFS	"/sys/kernel/debug/mlx5x/" AW_DEV "/fw/datapath"
#define PORT_ORIG	7101
#define PORT_NEW	7102
#define NO_PRIO		(-1)

#define FT_NIC_RX	0		/* flow_table_type */
#define CRIT_OUTER	1		/* match_criteria_enable */
#define DEST_FT		1		/* destination_type: a flow table */
#define FIELD_UDP_DPORT	0xc		/* MLX5_ACTION_IN_FIELD_OUT_UDP_DPORT */
#define FTE_IN_BYTES	(PRM_SET_FTE_IN_BYTES + PRM_DEST_FORMAT_STRUCT_BYTES)
#define MH_IN_BYTES	(PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_BYTES + \
			 PRM_SET_ACTION_IN_BYTES)

static const uint8_t near_mac[6] = { 2, 0x78, 0, 0, 0, 1 };
static const uint8_t far_mac[6] = { 2, 0x78, 0, 0, 0, 2 };
static const char payload[] = "handed back by a steering anchor";

static const struct mt_veth veth = {
	.dev = AW_DEV, .near = "mawn0", .far = "mawf0", .ns = "mawfar",
	.near_ip = NEAR_IP, .far_ip = FAR_IP,
	.near_mac = "02:78:00:00:00:01", .far_mac = "02:78:00:00:00:02",
};

/* A UDP datagram from the far end to ORIG, both checksums right. */
static void make_datagram(struct mt_pkt *p)
{
	uint8_t ph[sizeof(p->b) + 12] = {};
	unsigned int ulen;
	uint16_t c;

	memset(p, 0, sizeof(*p));
	mt_pkt_eth(p, near_mac, far_mac, -1, MT_ETH_IPV4);
	mt_pkt_ipv4(p, FAR_IP, NEAR_IP, MT_IP_UDP, 0);
	mt_pkt_l4(p, false, 40000, PORT_ORIG);
	mt_pkt_put(p, payload, sizeof(payload));
	mt_pkt_ipv4_finish(p, 14);
	/* the pseudo header (addresses, protocol, length), then the UDP */
	ulen = p->len - 34;
	memcpy(ph, p->b + 26, 8);
	ph[9] = MT_IP_UDP;
	ph[10] = ulen >> 8;
	ph[11] = ulen;
	memcpy(ph + 12, p->b + 34, ulen);
	c = mt_ip_csum(ph, (12 + ulen + 1) & ~1U);
	c = c ? c : 0xffff;
	p->b[40] = c >> 8;
	p->b[41] = c;
}

/* ---- the user: nobody with CAP_NET_RAW, in a child ---- */

/**
 * struct steer - what the user made
 * @ctx: its DEVX context on the device
 * @an: the steering anchor
 * @ft: its DEVX flow table (NIC RX), @fg a group on the UDP port
 * @mh: the modify header setting the port to NEW
 * @fte: the entry: port ORIG, rewritten, on to the anchor
 * @m: a matcher at priority 0 on the UDP port; @f its rule to @ft
 * @mdrop: a matcher at another priority; @fdrop its rule dropping NEW
 */
struct steer {
	struct ibv_context *ctx;
	struct mlx5dv_steering_anchor *an;
	struct mlx5dv_devx_obj *ft, *fg, *mh, *fte;
	uint32_t ft_id, fg_id, mh_id;
	struct mlx5dv_flow_matcher *m, *mdrop;
	struct ibv_flow *f, *fdrop;
};

static struct ibv_context *open_devx(void)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *ctx = NULL;
	struct ibv_device **l;
	int i, n;

	l = ibv_get_device_list(&n);
	for (i = 0; l && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(l[i]), AW_DEV))
			ctx = mlx5dv_open_device(l[i], &attr);
	if (l)
		ibv_free_device_list(l);
	return ctx;
}

/* A DEVX create; its id from the output's field @id_field. */
static struct mlx5dv_devx_obj *create(struct ibv_context *ctx, void *in,
				      size_t inlen, struct mt_field id_field,
				      uint32_t *id)
{
	uint32_t out[16] = {};
	struct mlx5dv_devx_obj *o;

	o = mlx5dv_devx_obj_create(ctx, in, inlen, out, sizeof(out));
	*id = o ? mt_get(out, id_field) : 0;
	if (!o)
		mt_diag("a DEVX object: errno %d, status 0x%x, syndrome 0x%x",
			errno, mt_get(out, PRM_OUT_STATUS),
			mt_get(out, PRM_OUT_SYNDROME));
	return o;
}

static bool user_table(struct steer *st)
{
	uint32_t tin[PRM_CREATE_FLOW_TABLE_IN_BYTES / 4] = {};
	uint32_t gin[PRM_CREATE_FLOW_GROUP_IN_BYTES / 4] = {};
	uint32_t min[MH_IN_BYTES / 4] = {};
	uint8_t *act = (uint8_t *)min + PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_BYTES;

	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_OPCODE, PRM_OP_CREATE_FLOW_TABLE);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_TABLE_TYPE, FT_NIC_RX);
	mt_set(tin, PRM_CREATE_FLOW_TABLE_IN_FLOW_TABLE_CONTEXT_LOG_SIZE, 2);
	st->ft = create(st->ctx, tin, sizeof(tin),
			PRM_CREATE_FLOW_TABLE_OUT_TABLE_ID, &st->ft_id);
	if (!st->ft)
		return false;
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_OPCODE, PRM_OP_CREATE_FLOW_GROUP);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_TYPE, FT_NIC_RX);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_TABLE_ID, st->ft_id);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_END_FLOW_INDEX, 3);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE, CRIT_OUTER);
	mt_set(gin, PRM_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_OUTER_HEADERS_UDP_DPORT,
	       0xffff);
	st->fg = create(st->ctx, gin, sizeof(gin),
			PRM_CREATE_FLOW_GROUP_OUT_GROUP_ID, &st->fg_id);
	if (!st->fg)
		return false;
	mt_set(min, PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_OPCODE,
	       PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT);
	mt_set(min, PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_TABLE_TYPE, FT_NIC_RX);
	mt_set(min, PRM_ALLOC_MODIFY_HEADER_CONTEXT_IN_NUM_OF_ACTIONS, 1);
	mt_set(act, PRM_SET_ACTION_IN_ACTION_TYPE, 1);	/* set */
	mt_set(act, PRM_SET_ACTION_IN_FIELD, FIELD_UDP_DPORT);
	mt_set(act, PRM_SET_ACTION_IN_LENGTH, 16);
	mt_set(act, PRM_SET_ACTION_IN_DATA, PORT_NEW);
	st->mh = create(st->ctx, min, sizeof(min),
			PRM_ALLOC_MODIFY_HEADER_CONTEXT_OUT_MODIFY_HEADER_ID,
			&st->mh_id);
	return st->mh;
}

/* The user's entry: ORIG rewritten to NEW, on to the anchor's table. */
static bool user_entry(struct steer *st)
{
	uint32_t in[FTE_IN_BYTES / 4] = {}, out[4] = {};
	uint8_t *list = (uint8_t *)in + PRM_SET_FTE_IN_BYTES;

	mt_set(in, PRM_SET_FTE_IN_OPCODE, PRM_OP_SET_FLOW_TABLE_ENTRY);
	mt_set(in, PRM_SET_FTE_IN_TABLE_TYPE, FT_NIC_RX);
	mt_set(in, PRM_SET_FTE_IN_TABLE_ID, st->ft_id);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_GROUP_ID, st->fg_id);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_ACTION,
	       PRM_FLOW_CONTEXT_ACTION_MOD_HDR |
	       PRM_FLOW_CONTEXT_ACTION_FWD_DEST);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MODIFY_HEADER_ID, st->mh_id);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_DESTINATION_LIST_SIZE, 1);
	mt_set(in, PRM_SET_FTE_IN_FLOW_CONTEXT_MATCH_VALUE_OUTER_HEADERS_UDP_DPORT,
	       PORT_ORIG);
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_TYPE, DEST_FT);
	mt_set(list, PRM_DEST_FORMAT_STRUCT_DESTINATION_ID, st->an->id);
	st->fte = mlx5dv_devx_obj_create(st->ctx, in, sizeof(in), out,
					 sizeof(out));
	if (!st->fte)
		mt_diag("the entry: errno %d, status 0x%x, syndrome 0x%x",
			errno, mt_get(out, PRM_OUT_STATUS),
			mt_get(out, PRM_OUT_SYNDROME));
	return st->fte;
}

/* A matcher of NIC RX at @prio on the UDP destination port. */
static struct mlx5dv_flow_matcher *udp_matcher(struct ibv_context *ctx,
					       uint16_t prio)
{
	struct mlx5dv_flow_match_parameters *mask;
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.priority = prio,
		.match_criteria_enable = CRIT_OUTER,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};
	struct mlx5dv_flow_matcher *m;

	mask = calloc(1, sizeof(*mask) + PRM_FTE_MATCH_PARAM_BYTES);
	if (!mask)
		return NULL;
	mask->match_sz = PRM_FTE_MATCH_PARAM_BYTES;
	mt_set(mask->match_buf, PRM_FTE_MATCH_PARAM_OUTER_HEADERS_UDP_DPORT,
	       0xffff);
	attr.match_mask = mask;
	m = mlx5dv_create_flow_matcher(ctx, &attr);
	free(mask);
	return m;
}

static struct ibv_flow *udp_rule(struct mlx5dv_flow_matcher *m,
				 uint16_t port,
				 struct mlx5dv_flow_action_attr *act)
{
	struct mlx5dv_flow_match_parameters *v;
	struct ibv_flow *f;

	v = calloc(1, sizeof(*v) + PRM_FTE_MATCH_PARAM_BYTES);
	if (!v)
		return NULL;
	v->match_sz = PRM_FTE_MATCH_PARAM_BYTES;
	mt_set(v->match_buf, PRM_FTE_MATCH_PARAM_OUTER_HEADERS_UDP_DPORT,
	       port);
	f = mlx5dv_create_flow(m, v, 1, act);
	free(v);
	return f;
}

/* A step the user could not take: said, with its errno. */
static bool fail_at(const char *what)
{
	mt_diag("%s: errno %d", what, errno);
	return false;
}

/*
 * Everything, in the order the packet meets it: a rule of @drop_prio
 * (NO_PRIO: none) dropping NEW, the anchor of @anchor_prio, the user's
 * table and entry, and the rule at priority 0 into that table.
 */
static bool steer_up(struct steer *st, int anchor_prio, int drop_prio)
{
	struct mlx5dv_steering_anchor_attr aa = {
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
		.priority = anchor_prio,
	};
	struct mlx5dv_flow_action_attr drop = {
		.type = MLX5DV_FLOW_ACTION_DROP,
	};
	struct mlx5dv_flow_action_attr to_table = {
		.type = MLX5DV_FLOW_ACTION_DEST_DEVX,
	};

	st->ctx = open_devx();
	if (!st->ctx)
		return fail_at("open the device");
	if (drop_prio != NO_PRIO) {
		st->mdrop = udp_matcher(st->ctx, drop_prio);
		if (!st->mdrop)
			return fail_at("the matcher of the drop");
		st->fdrop = udp_rule(st->mdrop, PORT_NEW, &drop);
		if (!st->fdrop)
			return fail_at("the drop rule");
	}
	st->an = mlx5dv_create_steering_anchor(st->ctx, &aa);
	if (!st->an)
		return fail_at("the anchor");
	if (!user_table(st) || !user_entry(st))
		return false;
	st->m = udp_matcher(st->ctx, 0);
	if (!st->m)
		return fail_at("the matcher into the table");
	to_table.obj = st->ft;
	st->f = udp_rule(st->m, PORT_ORIG, &to_table);
	return st->f || fail_at("the rule into the table");
}

/* The anchor goes; the rule and the user's entry still send to its table. */
static bool steer_anchor_down(struct steer *st)
{
	bool ok = !mlx5dv_destroy_steering_anchor(st->an);

	st->an = NULL;
	return ok;
}

/* The rule into the user's table, and the entry, go too. */
static bool steer_rule_down(struct steer *st)
{
	bool ok = !ibv_destroy_flow(st->f) &&
		  !mlx5dv_devx_obj_destroy(st->fte);

	st->f = NULL;
	st->fte = NULL;
	return ok;
}

static bool steer_down(struct steer *st)
{
	bool ok = true;

	if (st->f)
		ok &= !ibv_destroy_flow(st->f);
	if (st->fdrop)
		ok &= !ibv_destroy_flow(st->fdrop);
	if (st->m)
		ok &= !mlx5dv_destroy_flow_matcher(st->m);
	if (st->mdrop)
		ok &= !mlx5dv_destroy_flow_matcher(st->mdrop);
	if (st->fte)
		ok &= !mlx5dv_devx_obj_destroy(st->fte);
	if (st->mh)
		ok &= !mlx5dv_devx_obj_destroy(st->mh);
	if (st->fg)
		ok &= !mlx5dv_devx_obj_destroy(st->fg);
	if (st->ft)
		ok &= !mlx5dv_devx_obj_destroy(st->ft);
	if (st->an)
		ok &= !mlx5dv_destroy_steering_anchor(st->an);
	if (st->ctx)
		ok &= !ibv_close_device(st->ctx);
	return ok;
}

/*
 * The user's child: steers as asked, says 'k' (or 'e') on @reply after
 * each step, and takes the next step ('a': the anchor goes, 'r': the
 * rule goes, anything else: all goes) when a byte comes on @cmd.
 */
static int steer_child(int cmd, int reply, int anchor_prio, int drop_prio)
{
	struct steer st = {};
	bool ok;
	char c;

	ok = mt_drop_to(MT_UID_NOBODY, MT_CAP(CAP_NET_RAW)) &&
	     steer_up(&st, anchor_prio, drop_prio);
	if (!ok)
		mt_diag("the user could not steer: errno %d", errno);
	while (write(reply, ok ? "k" : "e", 1) == 1 && ok &&
	       read(cmd, &c, 1) == 1) {
		if (c == 'a')
			ok = steer_anchor_down(&st);
		else if (c == 'r')
			ok = steer_rule_down(&st);
		else
			break;
	}
	return steer_down(&st) && ok ? 0 : 1;
}

/**
 * struct user - the parent's end of a user's child
 * @pid: the child
 * @cmd: where its steps are asked for
 * @reply: where it answers
 */
struct user {
	pid_t pid;
	int cmd, reply;
};

static bool user_start(struct user *u, int anchor_prio, int drop_prio)
{
	int c[2], r[2];

	if (pipe(c) || pipe(r))
		return false;
	u->pid = fork();
	if (!u->pid) {
		close(c[1]);
		close(r[0]);
		_exit(steer_child(c[0], r[1], anchor_prio, drop_prio));
	}
	close(c[0]);
	close(r[1]);
	u->cmd = c[1];
	u->reply = r[0];
	return u->pid > 0;
}

/* The user's answer: true when the step before it worked. */
static bool user_ok(struct user *u)
{
	char c = 0;

	return read(u->reply, &c, 1) == 1 && c == 'k';
}

static bool user_step(struct user *u, char step)
{
	return write(u->cmd, &step, 1) == 1 && user_ok(u);
}

/* The user tears everything down; its status. */
static int user_end(struct user *u)
{
	close(u->cmd);
	close(u->reply);
	return mt_reap(u->pid);
}

/* ---- the cases ---- */

/* The pair and the device; a socket on each port. */
struct aw {
	bool made;
	int s_orig, s_new;
	struct mt_pkt p;
};

MT_FIXTURE(aw);

MT_FIXTURE_SETUP(aw)
{
	int made = mt_veth_make(&veth);
	struct ibv_context *ctx;

	self->made = true;
	self->s_orig = -1;
	self->s_new = -1;
	if (made != KSFT_PASS)
		return made;
	/* the device's uverbs node is there for the user's child */
	ctx = mt_veth_open(&veth);
	if (!CHECK(ctx))
		return KSFT_FAIL;
	ibv_close_device(ctx);
	self->s_orig = mt_udp_socket(NEAR_IP, PORT_ORIG);
	self->s_new = mt_udp_socket(NEAR_IP, PORT_NEW);
	if (!CHECK(self->s_orig >= 0) || !CHECK(self->s_new >= 0))
		return KSFT_FAIL;
	make_datagram(&self->p);
	return KSFT_PASS;
}

MT_FIXTURE_TEARDOWN(aw)
{
	if (self->s_orig >= 0)
		close(self->s_orig);
	if (self->s_new >= 0)
		close(self->s_new);
	if (self->made)
		mt_veth_unmake(&veth);
}

/* @n datagrams from the far end; how many each socket got. */
static void send_count(struct aw *self, unsigned int n, int *orig, int *new)
{
	CHECK_EQ(mt_veth_far_send(&veth, self->p.b, self->p.len, 0, n), 0);
	*orig = mt_udp_count(self->s_orig, payload, sizeof(payload), 400);
	*new = mt_udp_count(self->s_new, payload, sizeof(payload), 0);
}

static long long wire_figure(const char *name)
{
	return mt_dp_figure(AW_DEBUGFS, "wire ", name);
}

/*
 * The anchor hands the rewritten datagram to the kernel's stack; gone,
 * its table drops what the rule still sends; the rule gone too, the
 * datagram reaches its own port as it came.
 */
MT_TEST_F(aw, reinject)
{
	long long before;
	struct user u;
	int orig, new;

	/* no rule: ORIG gets it as sent */
	send_count(self, 1, &orig, &new);
	CHECK_EQ(orig, 1);
	CHECK_EQ(new, 0);
	before = wire_figure("rx_up_rewritten");
	if (!CHECK(before >= 0) || !CHECK(user_start(&u, 2, NO_PRIO)))
		return KSFT_FAIL;
	if (!CHECK(user_ok(&u))) {
		user_end(&u);
		return KSFT_FAIL;
	}
	send_count(self, 3, &orig, &new);
	CHECK_EQ(new, 3);
	CHECK_EQ(orig, 0);
	CHECK_EQ(wire_figure("rx_up_rewritten") - before, 3);

	/* the anchor destroyed, the rule kept: dropped, nobody gets it */
	CHECK(user_step(&u, 'a'));
	send_count(self, 2, &orig, &new);
	CHECK_EQ(new, 0);
	CHECK_EQ(orig, 0);

	/* the rule destroyed too: ORIG gets it unmodified */
	CHECK(user_step(&u, 'r'));
	send_count(self, 2, &orig, &new);
	CHECK_EQ(orig, 2);
	CHECK_EQ(new, 0);
	CHECK_EQ(wire_figure("rx_up_rewritten") - before, 3);
	CHECK_EQ(user_end(&u), 0);
	return KSFT_PASS;
}

/*
 * A kernel rule at priority 3 drops port NEW: the anchor of priority 3
 * hands the packet back in front of it (dropped), the anchor of priority
 * 4 behind it (to the stack).
 */
MT_TEST_F(aw, anchor_priority)
{
	static const struct { int anchor, got; } runs[] = {
		{ 3, 0 }, { 4, 1 },
	};
	unsigned int i;
	struct user u;
	int orig, new;

	for (i = 0; i < MT_ARRAY_SIZE(runs); i++) {
		if (!CHECK(user_start(&u, runs[i].anchor, 3)))
			return KSFT_FAIL;
		if (!CHECK(user_ok(&u))) {
			user_end(&u);
			return KSFT_FAIL;
		}
		send_count(self, 1, &orig, &new);
		mt_diag("anchor of priority %d: NEW got %d", runs[i].anchor,
			new);
		CHECK_EQ(new, runs[i].got);
		CHECK_EQ(orig, 0);
		CHECK_EQ(user_end(&u), 0);
	}
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(aw, reinject, .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
	MT_CASE_F(aw, anchor_priority,
		  .flags = MT_NEEDS_MODEL | MT_NEEDS_ROOT),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
