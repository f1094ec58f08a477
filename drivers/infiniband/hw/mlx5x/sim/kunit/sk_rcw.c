// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* KUnit helpers of the RC and UC wire suites: see sk_rcw.h. */
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/if_ether.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "sk_rcw.h"
#include "sk_mkey.h"
#include "sk_queues.h"

#define SK_W_MTT_RD	BIT_ULL(0)
#define SK_W_MTT_WR	BIT_ULL(1)
/* The pump stops once nothing crossed for this long. */
#define SK_W_IDLE_MS	50

/**
 * struct sk_rcw_frame - a frame a side put out
 * @node: in its side's out list
 * @nth: its number in its direction
 * @len: its bytes
 * @data: them
 */
struct sk_rcw_frame {
	struct list_head node;
	unsigned int nth;
	u32 len;
	u8 data[];
};

/* Each side's identity, and its port's RoCE v2 GID (IPv4 mapped). */
static const struct mlx5x_sim_params sk_rcw_params[2] = {
	{ .node_guid = SK_GUID, .mtu = SK_MTU,
	  .mac = { 0x0e, 0x42, 0xa1, 0x0b, 0x0c, 0x0d } },
	{ .node_guid = SK_GUID + 1, .mtu = SK_MTU,
	  .mac = { 0x0e, 0x42, 0xa1, 0x0b, 0x0c, 0x0e } },
};

static const u8 sk_rcw_gid[2][16] = {
	{ [10] = 0xff, [11] = 0xff, [12] = 192, [13] = 168, [14] = 91,
	  [15] = 1 },
	{ [10] = 0xff, [11] = 0xff, [12] = 192, [13] = 168, [14] = 91,
	  [15] = 2 },
};

/* The sk_* helpers act on side @i's model. */
static struct sk_rcw_side *sk_rcw_use(struct kunit *test, int i)
{
	struct sk_rcw *w = sk_rcw(test);

	w->ctx.sim = w->s[i].sim;
	return &w->s[i];
}

/* The wire of a side: runs in its worker, under its model's lock. */
static bool sk_rcw_wire_fn(void *ctx, const void *frame, unsigned int len,
			   bool up)
{
	struct sk_rcw_side *s = ctx;
	struct sk_rcw_frame *f;

	if (up)
		return false;
	f = kmalloc(struct_size(f, data, len), GFP_KERNEL);
	if (!f)
		return false;
	f->len = len;
	memcpy(f->data, frame, len);
	spin_lock(&s->lock);
	f->nth = s->sent++;
	list_add_tail(&f->node, &s->out);
	spin_unlock(&s->lock);
	return true;
}

int sk_rcw_init(struct kunit *test)
{
	struct sk_rcw *w = kzalloc(sizeof(*w), GFP_KERNEL);
	struct sk_rcw_side *s;
	int i;

	if (!w)
		return -ENOMEM;
	test->priv = w;
	w->st = MLX5_QPC_ST_RC;
	w->ack_timeout = 20;	/* 4.3 s: a case that waits for it sets less */
	w->retry_count = 7;
	w->rnr_retry = 7;
	w->psn = SK_W_PSN;
	for (i = 0; i < 2; i++) {
		s = &w->s[i];
		spin_lock_init(&s->lock);
		INIT_LIST_HEAD(&s->out);
		s->sim = mlx5x_sim_create(&sk_rcw_params[i]);
		if (IS_ERR(s->sim)) {
			s->sim = NULL;
			return -ENOMEM;
		}
		mlx5x_sim_set_wire(s->sim, sk_rcw_wire_fn, s);
		s->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, SK_W_ORDER);
		if (!s->pages)
			return -ENOMEM;
		s->mem = page_address(s->pages);
	}
	w->ctx.sim = w->s[0].sim;
	w->ctx.base_live = mlx5x_sim_live_objects(w->ctx.sim);
	return 0;
}

static void sk_rcw_free_list(struct list_head *l)
{
	struct sk_rcw_frame *f, *n;

	list_for_each_entry_safe(f, n, l, node)
		kfree(f);
}

/* Destroy what sk_rcw_side_init() made of side @i, as far as it got. */
static void sk_rcw_side_fini(struct kunit *test, int i)
{
	struct sk_rcw_side *s = sk_rcw_use(test, i);

	if (s->qpn)
		sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, s->uid, s->qpn);
	if (s->qc)
		sk_dealloc_q_counter(test, 0, s->qc);
	if (s->cqn)
		sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, s->uid, s->cqn);
	if (s->key)
		sk_destroy_mkey(test, s->uid, s->key >> 8);
	if (s->umem)
		sk_destroy_umem(test, s->uid, s->umem);
	if (s->td)
		sk_dealloc_td(test, s->uid, s->td);
	if (s->uar)
		sk_dealloc_uar(test, s->uid, s->uar);
	if (s->pd)
		sk_dealloc_pd(test, s->uid, s->pd);
	if (s->uid)
		sk_destroy_uctx(test, s->uid);
	KUNIT_EXPECT_EQ_MSG(test, sk_live(test), 0, "side %d", i);
}

/*
 * The objects first, each model's then the model: then nothing reaches
 * the pages.
 */
void sk_rcw_exit(struct kunit *test)
{
	struct sk_rcw *w = test->priv;
	struct sk_rcw_side *s;
	int i;

	if (!w)
		return;
	for (i = 0; i < 2; i++) {
		if (!w->s[i].sim)
			continue;
		sk_rcw_side_fini(test, i);
		mlx5x_sim_destroy(w->s[i].sim);
	}
	for (i = 0; i < 2; i++) {
		s = &w->s[i];
		sk_rcw_free_list(&s->out);
		kfree(s->held);
		if (s->pages)
			__free_pages(s->pages, SK_W_ORDER);
	}
	kfree(w);
}

static struct sk_q sk_rcw_q(const struct sk_rcw_side *s)
{
	return (struct sk_q){ .uid = s->uid, .pd = s->pd, .uar = s->uar,
			      .td = s->td, .umem = s->umem, .eqn = s->eqn };
}

/* Side @i's context, umem, mkey, CQ and QP (in RST). */
static void sk_rcw_side_init(struct kunit *test, int i)
{
	struct sk_rcw_side *s = sk_rcw_use(test, i);
	struct mlx5x_sim *sim = s->sim;
	u64 mtt[SK_W_PAGES];
	struct sk_mkey m;
	struct sk_q r;
	void *in, *cqc, *qpc;
	u32 idx;

	for (idx = 0; idx < SK_W_PAGES; idx++)
		mtt[idx] = (u64)(uintptr_t)(s->mem + idx * PAGE_SIZE) |
			   SK_W_MTT_RD | SK_W_MTT_WR;
	for (idx = 0; idx < SK_W_CQES; idx++)
		s->mem[SK_W_CQ + idx * 64 + 63] = 0xf0;
	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, 0, &s->uid), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, s->uid, &s->pd), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, s->uid, &s->uar),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, s->uid, &s->td), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, s->uid, SK_W_PAGES,
					     SK_W_PAGES, 0, mtt, &s->umem),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_comp_eqn(sim, 0, &s->eqn), 0);

	sk_mkey_direct(test, &m, s->uid, s->pd, s->umem, SK_W_DATA, 0,
		       SK_W_DATA_LEN);
	PRM_SET(mkc, m.mkc, rr, 1);
	PRM_SET(mkc, m.mkc, rw, 1);
	PRM_SET(mkc, m.mkc, a, 1);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &m, &idx), PRM_STAT_OK);
	s->key = sk_mkey_key(&m, idx);

	r = sk_rcw_q(s);
	in = sk_cq_in(test, &r);
	cqc = PRM_ADDR(create_cq_in, in, cq_context);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET + 32, 32, SK_W_CQ);
	PRM_SET64(cqc, cqc, dbr_addr, SK_W_CQ_DBR);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_cq_in),
					  PRM_BYTES(create_cq_out), &s->cqn),
			PRM_STAT_OK);

	in = sk_qp_in(test, &r, s->cqn);
	qpc = PRM_ADDR(create_qp_in, in, qpc);
	PRM_SET(qpc, qpc, st, sk_rcw(test)->st);
	PRM_SET64(qpc, qpc, dbr_addr, SK_W_QP_DBR);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					  PRM_BYTES(create_qp_out), &s->qpn),
			PRM_STAT_OK);

	mutex_lock(&sim->lock);
	memcpy(sim->gids[0].gid, sk_rcw_gid[i], 16);
	sim->gids[0].version = SIM_ROCE_V2;
	sim->gids[0].l3_type = SIM_ROCE_L3_IPV4;
	sim->gids[0].valid = true;
	mutex_unlock(&sim->lock);
}

/* One transition of side @i's QP, its peer the other side's. */
static void sk_rcw_move(struct kunit *test, int i, u16 opcode)
{
	struct sk_rcw *w = sk_rcw(test);
	struct sk_rcw_side *s = sk_rcw_use(test, i);
	const u8 *mac = sk_rcw_params[!i].mac;
	void *in, *qpc, *ads;
	bool uc = w->st == MLX5_QPC_ST_UC;

	in = sk_qp_move_in(test, opcode, s->uid, s->qpn, &qpc);
	ads = PRM_ADDR(qpc, qpc, primary_address_path);
	PRM_SET(qpc, qpc, remote_qpn, w->s[!i].qpn);
	PRM_SET(qpc, qpc, next_rcv_psn, w->psn);
	PRM_SET(qpc, qpc, next_send_psn, w->psn);
	PRM_SET(qpc, qpc, rae, !uc);
	PRM_SET(qpc, qpc, rre, !uc);
	PRM_SET(qpc, qpc, min_rnr_nak, 1);
	PRM_SET(qpc, qpc, retry_count, w->retry_count);
	PRM_SET(qpc, qpc, rnr_retry, w->rnr_retry);
	if (uc) {
		PRM_SET(qpc, qpc, log_sra_max, 0);
		PRM_SET(qpc, qpc, log_rra_max, 0);
	}
	PRM_SET(ads, ads, ack_timeout, w->ack_timeout);
	PRM_SET(ads, ads, rmac_47_32, mac[0] << 8 | mac[1]);
	PRM_SET(ads, ads, rmac_31_0, mac[2] << 24 | mac[3] << 16 |
		mac[4] << 8 | mac[5]);
	PRM_SET(ads, ads, src_addr_index, 0);
	memcpy(PRM_ADDR(ads, ads, rgid_rip), sk_rcw_gid[!i], 16);
	KUNIT_ASSERT_EQ_MSG(test, sk_exec(test, in, PRM_BYTES(rst2init_qp_in),
					  SK_MBOX(test, rst2init_qp_out),
					  PRM_BYTES(rst2init_qp_out)),
			    PRM_STAT_OK, "side %d op %#x synd %#x", i, opcode,
			    sk_syndrome(test));
}

/**
 * sk_rcw_connect() - both sides' objects, their QPs connected, in RTS
 * @test: the case; its sk_rcw's st and timers set as it wants them
 */
void sk_rcw_connect(struct kunit *test)
{
	static const u16 ops[] = {
		MLX5_CMD_OP_RST2INIT_QP, MLX5_CMD_OP_INIT2RTR_QP,
		MLX5_CMD_OP_RTR2RTS_QP,
	};
	unsigned int k;

	sk_rcw_side_init(test, 0);
	sk_rcw_side_init(test, 1);
	for (k = 0; k < ARRAY_SIZE(ops); k++) {
		sk_rcw_move(test, 0, ops[k]);
		sk_rcw_move(test, 1, ops[k]);
	}
	sk_rcw_use(test, 0);
}

/*
 * Side @side's QP counts in a Q counter set of the kernel's from here
 * on, as a QP of mlx5_ib's does in the port's.
 */
void sk_rcw_count(struct kunit *test, int side)
{
	struct sk_rcw_side *s = sk_rcw_use(test, side);
	struct sim_obj *obj;

	KUNIT_ASSERT_EQ(test, sk_alloc_q_counter(test, 0, &s->qc),
			PRM_STAT_OK);
	obj = xa_load(&s->sim->objs[SIM_OBJ_QP], s->qpn);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	PRM_SET(qpc, container_of(obj, struct sim_qp, q.obj)->qpc,
		counter_set_id, s->qc);
	sk_rcw_use(test, 0);
}

/* What side @side's QP counted of @stat. */
u32 sk_rcw_counted(struct kunit *test, int side, enum sim_qc_stat stat)
{
	struct sk_rcw_side *s = &sk_rcw(test)->s[side];
	struct sim_obj *obj = xa_load(&s->sim->objs[SIM_OBJ_Q_COUNTER], s->qc);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return container_of(obj, struct sim_q_counter, obj)->stat[stat];
}

/* Frame @nth that side @side puts out meets @what. */
void sk_rcw_fate(struct kunit *test, int side, unsigned int nth, int what)
{
	struct sk_rcw_side *s = &sk_rcw(test)->s[side];

	KUNIT_ASSERT_LT(test, s->nfates, SK_W_FATES);
	s->fates[s->nfates++] = (struct sk_rcw_fate){ nth, what };
}

u8 *sk_rcw_data(struct kunit *test, int side, u32 off)
{
	return sk_rcw(test)->s[side].mem + SK_W_DATA + off;
}

static void sk_rcw_dbr(struct sk_rcw_side *s, u32 at, u32 val)
{
	/* the WQE's bytes before the count that names it */
	wmb();
	WRITE_ONCE(*(__be32 *)(s->mem + at), cpu_to_be32(val));
	mlx5x_sim_doorbell(s->sim);
}

/* A receive WQE of @len bytes at @off of side @side's data. */
void sk_rcw_recv(struct kunit *test, int side, u32 off, u32 len)
{
	struct sk_rcw_side *s = &sk_rcw(test)->s[side];
	struct sim_wqe_data *d = (void *)(s->mem + (s->rq_pi & 15) * 64);

	memset(d, 0, 64);
	d[0].byte_count = cpu_to_be32(len);
	d[0].lkey = cpu_to_be32(s->key);
	d[0].addr = cpu_to_be64(off);
	d[1].lkey = cpu_to_be32(SIM_INVALID_LKEY);
	s->rq_pi++;
	sk_rcw_dbr(s, SK_W_QP_DBR + SIM_DBR_RCV, s->rq_pi);
}

/**
 * sk_rcw_post() - post a signalled send WQE of one basic block
 * @test: the case
 * @side: its side
 * @opcode: SIM_OPCODE_*
 * @off: its local buffer, at this address of the side's mkey
 * @len: its bytes (0: no data segment)
 * @raddr: an RDMA or atomic WQE's remote address
 * @rkey: its R_Key
 * @swap_add: an atomic's swap or add operand
 * @compare: a compare and swap's compare operand
 */
void sk_rcw_post(struct kunit *test, int side, u8 opcode, u32 off, u32 len,
		 u64 raddr, u32 rkey, u64 swap_add, u64 compare)
{
	struct sk_rcw_side *s = &sk_rcw(test)->s[side];
	u8 *wqe = s->mem + SK_W_SQ + (s->sq_pi & 15) * SIM_SEND_WQE_BB;
	struct sim_wqe_ctrl *c = (void *)wqe;
	bool atomic = opcode == SIM_OPCODE_ATOMIC_CS ||
		      opcode == SIM_OPCODE_ATOMIC_FA;
	bool rdma = atomic || opcode == SIM_OPCODE_RDMA_READ ||
		    opcode == SIM_OPCODE_RDMA_WRITE ||
		    opcode == SIM_OPCODE_RDMA_WRITE_IMM;
	unsigned int ds = 1;
	struct sim_wqe_raddr *ra;
	struct sim_wqe_atomic *at;
	struct sim_wqe_data *d;

	memset(wqe, 0, SIM_SEND_WQE_BB);
	if (rdma) {
		ra = (void *)(wqe + ds++ * SIM_WQE_SEG);
		ra->raddr = cpu_to_be64(raddr);
		ra->rkey = cpu_to_be32(rkey);
	}
	if (atomic) {
		at = (void *)(wqe + ds++ * SIM_WQE_SEG);
		at->swap_add = cpu_to_be64(swap_add);
		at->compare = cpu_to_be64(compare);
	}
	if (len) {
		d = (void *)(wqe + ds++ * SIM_WQE_SEG);
		d->byte_count = cpu_to_be32(len);
		d->lkey = cpu_to_be32(s->key);
		d->addr = cpu_to_be64(off);
	}
	c->opmod_idx_opcode = cpu_to_be32((u32)s->sq_pi << 8 | opcode);
	c->qpn_ds = cpu_to_be32(s->qpn << 8 | ds);
	c->fm_ce_se = SIM_WQE_CTRL_CQ_UPDATE;
	s->sq_pi++;
	sk_rcw_dbr(s, SK_W_QP_DBR + SIM_DBR_SND, s->sq_pi);
}

/* The CQE at @ci of side @s, if the model has written it. */
static const u8 *sk_rcw_cqe_at(struct sk_rcw_side *s, u32 ci)
{
	const u8 *cqe = s->mem + SK_W_CQ + (ci % SK_W_CQES) * 64;
	u8 op_own = READ_ONCE(cqe[63]);

	if (op_own >> 4 == 0xf || (op_own & 1) != ((ci / SK_W_CQES) & 1))
		return NULL;
	/* the owner bit before the bytes it vouches for */
	rmb();
	return cqe;
}

static unsigned int sk_rcw_ready(struct sk_rcw_side *s)
{
	unsigned int n = 0;

	while (n < SK_W_CQES && sk_rcw_cqe_at(s, s->cq_ci + n))
		n++;
	return n;
}

/**
 * sk_rcw_cqe() - read side @side's next CQE
 * @test: the case
 * @side: the side
 * @c: the CQE, as read
 *
 * Return: false when there is none.
 */
bool sk_rcw_cqe(struct kunit *test, int side, struct sk_rcw_cqe *c)
{
	struct sk_rcw_side *s = &sk_rcw(test)->s[side];
	const u8 *p = sk_rcw_cqe_at(s, s->cq_ci);
	const struct sim_cqe *cqe = (const void *)p;
	const struct sim_err_cqe *err = (const void *)p;

	if (!p)
		return false;
	c->op = cqe->op_own >> 4;
	c->synd = c->op == SIM_CQE_REQ_ERR || c->op == SIM_CQE_RESP_ERR ?
		  err->syndrome : 0;
	c->bytes = be32_to_cpu(cqe->byte_cnt);
	c->wqe = be16_to_cpu(cqe->wqe_counter);
	s->cq_ci++;
	WRITE_ONCE(*(__be32 *)(s->mem + SK_W_CQ_DBR),
		   cpu_to_be32(s->cq_ci & 0xffffff));
	return true;
}

/* Side @side's @len bytes at @off: a pattern of @seed. */
void sk_rcw_fill(struct kunit *test, int side, u32 off, u32 len, u8 seed)
{
	u8 *p = sk_rcw_data(test, side, off);
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = seed + i * 7;
}

/* Read side @side's next CQE, expecting one of @op with @synd. */
struct sk_rcw_cqe sk_rcw_expect(struct kunit *test, int side, u8 op,
				u8 synd)
{
	struct sk_rcw_cqe c = {};

	KUNIT_EXPECT_TRUE_MSG(test, sk_rcw_cqe(test, side, &c),
			      "side %d: no CQE", side);
	KUNIT_EXPECT_EQ_MSG(test, c.op, op, "side %d", side);
	KUNIT_EXPECT_EQ_MSG(test, c.synd, synd, "side %d", side);
	return c;
}

/* A's @len bytes at @a_off are B's at @b_off. */
void sk_rcw_same(struct kunit *test, u32 a_off, u32 b_off, u32 len)
{
	KUNIT_EXPECT_EQ_MSG(test, memcmp(sk_rcw_data(test, A, a_off),
					 sk_rcw_data(test, B, b_off), len), 0,
			    "A at %#x, B at %#x, %u bytes", a_off, b_off,
			    len);
}

/*
 * A SEND of A's @len bytes from 0 completed on both sides, into B's
 * receive at 0x1000.
 */
void sk_rcw_delivered(struct kunit *test, u32 len)
{
	sk_rcw_expect(test, A, SIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test,
			sk_rcw_expect(test, B, SIM_CQE_RESP_SEND, 0).bytes,
			len);
	sk_rcw_same(test, 0, 0x1000, len);
}

/* Side @side has no CQE. */
void sk_rcw_none(struct kunit *test, int side)
{
	struct sk_rcw_cqe c;

	KUNIT_EXPECT_FALSE_MSG(test, sk_rcw_cqe(test, side, &c),
			       "side %d: CQE op %#x synd %#x", side, c.op,
			       c.synd);
}

static const int *sk_rcw_fate_of(struct sk_rcw_side *s, unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < s->nfates; i++)
		if (s->fates[i].nth == nth)
			return &s->fates[i].what;
	return NULL;
}

/* Give frame @f (consumed) to side @to's model. */
static void sk_rcw_give(struct sk_rcw_side *to, struct sk_rcw_frame *f)
{
	mlx5x_sim_wire_rx(to->sim, f->data, f->len);
	kfree(f);
}

/* Frame @f of side @s on its way to side @to, as its fate says. */
static void sk_rcw_hand(struct sk_rcw_side *s, struct sk_rcw_side *to,
			struct sk_rcw_frame *f)
{
	const int *what = sk_rcw_fate_of(s, f->nth);
	struct sk_rcw_frame *held = s->held;
	struct sk_rcw_frame *dup;

	s->held = NULL;
	if (s->drop_all || (what && *what == SK_W_DROP)) {
		kfree(f);
	} else if (what && *what == SK_W_HOLD) {
		s->held = f;
	} else {
		if (what && *what == SK_W_SPOIL)
			f->data[f->len - 5] ^= 0x40;
		dup = what && *what == SK_W_DUP ?
		      kmemdup(f, struct_size(f, data, f->len), GFP_KERNEL) :
		      NULL;
		sk_rcw_give(to, f);
		if (dup)
			sk_rcw_give(to, dup);
	}
	if (held)
		sk_rcw_give(to, held);
}

/* Keep frame @f's BTH in its side's log. */
static void sk_rcw_see(struct sk_rcw_side *s, const struct sk_rcw_frame *f)
{
	struct sk_rcw_seen *seen;
	struct sim_roce_ud u;

	if (f->nth >= SK_W_LOG)
		return;
	seen = &s->seen[f->nth];
	if (sim_roce_parse(f->data, f->len, &u) != SIM_ROCE_OTHER)
		return;
	seen->op = u.opcode;
	seen->ackreq = u.ackreq;
	seen->psn = u.psn;
	if (sim_rcw_op(u.opcode) & SIM_RCW_F_AETH && u.len)
		seen->synd = u.payload[0];
}

/* Hand on what both sides put out; returns how many frames crossed. */
static unsigned int sk_rcw_cross(struct sk_rcw *w)
{
	struct sk_rcw_frame *f, *n;
	unsigned int moved = 0;
	LIST_HEAD(l);
	int i;

	for (i = 0; i < 2; i++) {
		spin_lock(&w->s[i].lock);
		list_splice_tail_init(&w->s[i].out, &l);
		spin_unlock(&w->s[i].lock);
		list_for_each_entry_safe(f, n, &l, node) {
			list_del(&f->node);
			sk_rcw_see(&w->s[i], f);
			sk_rcw_hand(&w->s[i], &w->s[!i], f);
			moved++;
		}
	}
	return moved;
}

/**
 * sk_rcw_pump() - carry frames both ways until the sides are quiet
 * @test: the case
 * @ms: how long at most
 * @want0: CQEs side 0 is to have ready (unread)
 * @want1: side 1's
 *
 * Return: the frames that crossed.  Stops once both sides have their
 * CQEs and no frame crossed for SK_W_IDLE_MS; a frame held back is let
 * go when nothing followed it.
 */
unsigned int sk_rcw_pump(struct kunit *test, unsigned int ms,
			 unsigned int want0, unsigned int want1)
{
	struct sk_rcw *w = sk_rcw(test);
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	unsigned long quiet = jiffies;
	unsigned int total = 0, n;
	int i;

	while (time_before(jiffies, end)) {
		n = sk_rcw_cross(w);
		total += n;
		if (n) {
			quiet = jiffies;
		} else {
			for (i = 0; i < 2; i++) {
				if (w->s[i].held) {
					sk_rcw_give(&w->s[!i], w->s[i].held);
					w->s[i].held = NULL;
				}
			}
		}
		if (sk_rcw_ready(&w->s[0]) >= want0 &&
		    sk_rcw_ready(&w->s[1]) >= want1 &&
		    time_after(jiffies, quiet + msecs_to_jiffies(SK_W_IDLE_MS)))
			break;
		usleep_range(200, 500);
	}
	return total;
}

u32 sk_rcw_state(struct kunit *test, int side)
{
	struct sk_rcw_side *s = sk_rcw_use(test, side);

	return sk_qp_state(test, s->uid, s->qpn);
}

/* The QP's next_send_psn, as QUERY_QP reports it. */
u32 sk_rcw_send_psn(struct kunit *test, int side)
{
	struct sk_rcw_side *s = sk_rcw_use(test, side);
	void *out = SK_MBOX(test, query_qp_out);

	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, s->uid,
					 s->qpn, out,
					 PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	return PRM_GET(qpc, PRM_ADDR(query_qp_out, out, qpc), next_send_psn);
}

/* Hand @len bytes of @f to side @to, from a buffer of exactly that size. */
void sk_rcw_inject(struct kunit *test, int to, const u8 *f, u32 len)
{
	u8 *copy = kmemdup(f, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	mlx5x_sim_wire_rx(sk_rcw(test)->s[to].sim, copy, len);
	kfree(copy);
}

/**
 * sk_rcw_build() - a packet of side @from's QP to the other's, sealed
 * @test: the case
 * @from: the side it seems to come from
 * @opcode: its BTH opcode
 * @psn: its PSN
 * @ext: its extended headers, as on the wire
 * @ext_len: their bytes
 * @len: bytes of payload (0x5a) after them
 * @f: where it goes, room for SK_W_PMTU + 128 bytes
 *
 * Return: its length.
 */
u32 sk_rcw_build(struct kunit *test, int from, u8 opcode, u32 psn,
		 const u8 *ext, u32 ext_len, u32 len, u8 *f)
{
	struct sk_rcw *w = sk_rcw(test);
	struct sim_roce_ud u = {
		.v4 = true, .hop_limit = 64, .sport = 0xc001,
		.opcode = opcode, .pkey = 0xffff, .dqpn = w->s[!from].qpn,
		.psn = psn, .len = len,
	};
	u32 hdr;

	memcpy(u.dmac, sk_rcw_params[!from].mac, ETH_ALEN);
	memcpy(u.smac, sk_rcw_params[from].mac, ETH_ALEN);
	memcpy(u.sgid, sk_rcw_gid[from], 16);
	memcpy(u.dgid, sk_rcw_gid[!from], 16);
	hdr = sim_roce_build(&u, ext, ext_len, f);
	memset(f + hdr, 0x5a, len);
	return sim_roce_ud_seal(f, hdr + len);
}
