// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: TIS, RQT and TIR: what each references, what their create and
 * modify commands check, and what QUERY returns.
 */
#include "sk_queues.h"

/* A context with a CQ and two RQs on it, for RQTs and TIRs to name. */
struct sk_rx {
	struct sk_q r;
	u32 cqn;
	u32 rqn[2];
};

static void sk_rx_init(struct kunit *test, struct sk_rx *x)
{
	sk_q_init(test, &x->r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &x->r, &x->cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_rq(test, &x->r, x->cqn, &x->rqn[0]),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_rq(test, &x->r, x->cqn, &x->rqn[1]),
			PRM_STAT_OK);
}

static void sk_rx_fini(struct kunit *test, struct sk_rx *x)
{
	u16 uid = x->r.uid;

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ, uid,
					   x->rqn[0]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ, uid,
					   x->rqn[1]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, uid,
					   x->cqn), PRM_STAT_OK);
	sk_q_fini(test, &x->r);
}

static u8 sk_tis_run(struct kunit *test, const void *in, u32 *tisn)
{
	return sk_q_create(test, in, PRM_BYTES(create_tis_in),
			   PRM_BYTES(create_tis_out), tisn);
}

static void sk_tis(struct kunit *test)
{
	void *out = SK_MBOX(test, query_tis_out);
	const void *qtisc = PRM_ADDR(query_tis_out, out, tis_context);
	void *min = SK_MBOX(test, modify_tis_in);
	void *mout = SK_MBOX(test, modify_tis_out);
	void *mtisc = PRM_ADDR(modify_tis_in, min, ctx);
	struct sk_q r, other;
	void *in, *tisc;
	u32 tisn;

	sk_q_init_cap(test, &r, MLX5_UCTX_CAP_RAW_TX);
	sk_q_init(test, &other);
	in = sk_tis_in(test, &r);
	tisc = PRM_ADDR(create_tis_in, in, ctx);
	PRM_SET(tisc, tisc, lag_tx_port_affinity, 2);
	KUNIT_EXPECT_EQ(test, sk_tis_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(tisc, tisc, lag_tx_port_affinity, 1);
	PRM_SET(tisc, tisc, tls_en, 1);
	KUNIT_EXPECT_EQ(test, sk_tis_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(tisc, tisc, tls_en, 0);
	PRM_SET(tisc, tisc, underlay_qpn, 5);
	KUNIT_EXPECT_EQ(test, sk_tis_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tisc, tisc, underlay_qpn, 0);
	PRM_SET(tisc, tisc, transport_domain, other.td);
	KUNIT_EXPECT_EQ(test, sk_tis_run(test, in, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(tisc, tisc, transport_domain, r.td);
	KUNIT_ASSERT_EQ(test, sk_tis_run(test, in, &tisn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TD, r.td), 1);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, r.uid, r.td),
			PRM_STAT_RESOURCE_BUSY);

	/* MODIFY_TIS: prio only, as the bitmask says */
	PRM_SET(modify_tis_in, min, opcode, MLX5_CMD_OP_MODIFY_TIS);
	PRM_SET(modify_tis_in, min, uid, r.uid);
	PRM_SET(modify_tis_in, min, tisn, tisn);
	PRM_SET(modify_tis_in, min, bitmask.prio, 1);
	PRM_SET(tisc, mtisc, prio, 5 << 1);
	PRM_SET(tisc, mtisc, lag_tx_port_affinity, 0);
	KUNIT_EXPECT_EQ(test, sk_exec(test, min, PRM_BYTES(modify_tis_in), mout,
				      PRM_BYTES(modify_tis_out)), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_TIS, r.uid,
					 tisn, out, PRM_BYTES(query_tis_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(tisc, qtisc, prio), 5 << 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(tisc, qtisc, lag_tx_port_affinity), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(tisc, qtisc, transport_domain), r.td);
	/* unknown bitmask bits; another context */
	prm_set_bits(PRM_ADDR(modify_tis_in, min, bitmask), 40, 1, 1);
	KUNIT_EXPECT_EQ(test, sk_exec(test, min, PRM_BYTES(modify_tis_in), mout,
				      PRM_BYTES(modify_tis_out)),
			PRM_STAT_BAD_PARAM);
	prm_set_bits(PRM_ADDR(modify_tis_in, min, bitmask), 40, 1, 0);
	PRM_SET(modify_tis_in, min, uid, other.uid);
	KUNIT_EXPECT_EQ(test, sk_exec(test, min, PRM_BYTES(modify_tis_in), mout,
				      PRM_BYTES(modify_tis_out)),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIS, r.uid,
					   tisn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	sk_q_fini(test, &other);
}

static u8 sk_rqt_query(struct kunit *test, u16 uid, u32 rqtn, void **rqtc,
		       size_t entries)
{
	size_t outlen = PRM_BYTES(query_rqt_out) + entries * PRM_BYTES(rq_num);
	void *out = sk_mbox(test, outlen);

	*rqtc = PRM_ADDR(query_rqt_out, out, rqt_context);
	return sk_q_query(test, MLX5_CMD_OP_QUERY_RQT, uid, rqtn, out, outlen);
}

static u32 sk_rqt_entry(const void *rqtc, unsigned int i)
{
	return PRM_GET(rq_num, (const u8 *)PRM_ADDR(rqtc, rqtc, rq_num) +
		       i * PRM_BYTES(rq_num), rq_num);
}

static void sk_rqt(struct kunit *test)
{
	struct sk_rx x, other;
	u32 list[3], rqtn;
	size_t inlen;
	void *in, *rqtc;

	sk_rx_init(test, &x);
	sk_rx_init(test, &other);
	list[0] = x.rqn[0];
	list[1] = x.rqn[1];
	list[2] = x.rqn[0];	/* an RQ may appear more than once */
	in = sk_rqt_in(test, &x.r, 4, list, 3, &inlen);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), &rqtn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 2);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[1]), 1);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ,
					   x.r.uid, x.rqn[1]),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_ASSERT_EQ(test, sk_rqt_query(test, x.r.uid, rqtn, &rqtc, 3),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqtc, rqtc, rqt_max_size), 4);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqtc, rqtc, rqt_actual_size), 3);
	KUNIT_EXPECT_EQ(test, sk_rqt_entry(rqtc, 0), x.rqn[0]);
	KUNIT_EXPECT_EQ(test, sk_rqt_entry(rqtc, 1), x.rqn[1]);
	KUNIT_EXPECT_EQ(test, sk_rqt_entry(rqtc, 2), x.rqn[0]);
	/* an output too short for the list */
	KUNIT_EXPECT_EQ(test, sk_rqt_query(test, x.r.uid, rqtn, &rqtc, 2),
			PRM_STAT_BAD_OUTPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_rqt_query(test, other.r.uid, rqtn, &rqtc, 3),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);

	/* MODIFY_RQT replaces the list: one entry, rqn[1] */
	in = sk_rqt_in(test, &x.r, 0, &x.rqn[1], 1, &inlen);
	PRM_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_MODIFY_RQT);
	PRM_SET(modify_rqt_in, in, rqtn, rqtn);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(modify_rqt_out), NULL),
			PRM_STAT_BAD_PARAM);	/* no rqn_list bit */
	PRM_SET(modify_rqt_in, in, bitmask.rqn_list, 1);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(modify_rqt_out), NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[1]), 1);
	KUNIT_ASSERT_EQ(test, sk_rqt_query(test, x.r.uid, rqtn, &rqtc, 1),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqtc, rqtc, rqt_max_size), 4);
	KUNIT_EXPECT_EQ(test, PRM_GET(rqtc, rqtc, rqt_actual_size), 1);
	KUNIT_EXPECT_EQ(test, sk_rqt_entry(rqtc, 0), x.rqn[1]);
	/* another context's RQ cannot go in; the old list stays */
	in = sk_rqt_in(test, &x.r, 0, &other.rqn[0], 1, &inlen);
	PRM_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_MODIFY_RQT);
	PRM_SET(modify_rqt_in, in, rqtn, rqtn);
	PRM_SET(modify_rqt_in, in, bitmask.rqn_list, 1);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(modify_rqt_out), NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[1]), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, other.rqn[0]), 0);
	/* more entries than the size set at creation */
	in = sk_rqt_in(test, &x.r, 0, list, 3, &inlen);
	PRM_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_MODIFY_RQT);
	PRM_SET(modify_rqt_in, in, rqtn, rqtn);
	PRM_SET(modify_rqt_in, in, bitmask.rqn_list, 1);
	PRM_SET(rqtc, PRM_ADDR(modify_rqt_in, in, ctx), rqt_actual_size, 5);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(modify_rqt_out), NULL),
			PRM_STAT_BAD_PARAM);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQT,
					   x.r.uid, rqtn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[1]), 0);
	sk_rx_fini(test, &x);
	sk_rx_fini(test, &other);
}

static void sk_rqt_rules(struct kunit *test)
{
	struct sk_rx x;
	size_t inlen;
	u32 rqtn;
	void *in, *rqtc;

	sk_rx_init(test, &x);
	in = sk_rqt_in(test, &x.r, 1, x.rqn, 2, &inlen);
	rqtc = PRM_ADDR(create_rqt_in, in, rqt_context);
	/* actual size above max, zero, or max zero */
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), NULL),
			PRM_STAT_BAD_PARAM);
	PRM_SET(rqtc, rqtc, rqt_max_size, 2);
	PRM_SET(rqtc, rqtc, rqt_actual_size, 0);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), NULL),
			PRM_STAT_BAD_PARAM);
	PRM_SET(rqtc, rqtc, rqt_max_size, 0);
	PRM_SET(rqtc, rqtc, rqt_actual_size, 2);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	/* the largest table the field can ask for */
	PRM_SET(rqtc, rqtc, rqt_max_size, 0xffff);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), &rqtn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQT,
					   x.r.uid, rqtn), PRM_STAT_OK);
	/* the list must fit the mailbox */
	PRM_SET(rqtc, rqtc, rqt_max_size, 8);
	PRM_SET(rqtc, rqtc, rqt_actual_size, 3);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), NULL),
			PRM_STAT_BAD_INPUT_LEN);
	/* only RQs, no other list type */
	PRM_SET(rqtc, rqtc, rqt_actual_size, 2);
	PRM_SET(rqtc, rqtc, list_q_type, 1);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), NULL),
			PRM_STAT_BAD_PARAM);
	PRM_SET(rqtc, rqtc, list_q_type, 0);
	/* an RQ that does not exist: the first one's reference is undone */
	PRM_SET(rq_num, (u8 *)PRM_ADDR(rqtc, rqtc, rq_num) + 4, rq_num,
		x.rqn[1] + 10);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, inlen,
					  PRM_BYTES(create_rqt_out), NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 0);
	sk_rx_fini(test, &x);
}

static u8 sk_tir_run(struct kunit *test, const void *in, u32 *tirn)
{
	return sk_q_create(test, in, PRM_BYTES(create_tir_in),
			   PRM_BYTES(create_tir_out), tirn);
}

static void sk_tir_direct(struct kunit *test)
{
	void *out = SK_MBOX(test, query_tir_out);
	const void *qtirc = PRM_ADDR(query_tir_out, out, tir_context);
	struct sk_rx x, other;
	void *in, *tirc;
	u32 tirn;

	sk_rx_init(test, &x);
	sk_rx_init(test, &other);
	in = sk_tir_in(test, &x.r, false, x.rqn[0]);
	tirc = PRM_ADDR(create_tir_in, in, ctx);
	/* no hash on a direct TIR, no indirect table */
	PRM_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_TOEPLITZ);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tirc, tirc, rx_hash_fn, 0);
	PRM_SET(tirc, tirc, indirect_table, 1);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tirc, tirc, indirect_table, 0);
	/* no LRO, TLS or tunnel offloads */
	PRM_SET(tirc, tirc, packet_merge_mask, 1);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(tirc, tirc, packet_merge_mask, 0);
	PRM_SET(tirc, tirc, tunneled_offload_en, 1);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(tirc, tirc, tunneled_offload_en, 0);
	PRM_SET(tirc, tirc, disp_type, 2);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_DIRECT);
	/* another context's RQ or TD */
	PRM_SET(tirc, tirc, inline_rqn, other.rqn[0]);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(tirc, tirc, inline_rqn, x.rqn[0]);
	PRM_SET(tirc, tirc, transport_domain, other.r.td);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(tirc, tirc, transport_domain, x.r.td);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TD, x.r.td), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 0);

	PRM_SET(tirc, tirc, self_lb_block, 1);
	KUNIT_ASSERT_EQ(test, sk_tir_run(test, in, &tirn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TD, x.r.td), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 1);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQ,
					   x.r.uid, x.rqn[0]),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_TIR, x.r.uid,
					 tirn, out, PRM_BYTES(query_tir_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(tirc, qtirc, inline_rqn), x.rqn[0]);
	KUNIT_EXPECT_EQ(test, PRM_GET(tirc, qtirc, self_lb_block), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(tirc, qtirc, transport_domain), x.r.td);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIR,
					   other.r.uid, tirn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIR,
					   x.r.uid, tirn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_TD, x.r.td), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 0);

	/* no transport domain (0) is one; a TD never allocated is not */
	PRM_SET(tirc, tirc, transport_domain, 0x7777);
	KUNIT_EXPECT_NE(test, sk_tir_run(test, in, NULL), PRM_STAT_OK);
	PRM_SET(tirc, tirc, transport_domain, 0);
	KUNIT_ASSERT_EQ(test, sk_tir_run(test, in, &tirn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 1);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIR,
					   x.r.uid, tirn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQ, x.rqn[0]), 0);
	sk_rx_fini(test, &x);
	sk_rx_fini(test, &other);
}

static u8 sk_tir_modify(struct kunit *test, u16 uid, u32 tirn, u32 mask,
			u32 rqtn, u32 fn, u32 fields)
{
	void *in = SK_MBOX(test, modify_tir_in);
	void *out = SK_MBOX(test, modify_tir_out);
	void *tirc = PRM_ADDR(modify_tir_in, in, ctx);

	PRM_SET(modify_tir_in, in, opcode, MLX5_CMD_OP_MODIFY_TIR);
	PRM_SET(modify_tir_in, in, uid, uid);
	PRM_SET(modify_tir_in, in, tirn, tirn);
	prm_set_bits(PRM_ADDR(modify_tir_in, in, bitmask), 32, 32, mask);
	PRM_SET(tirc, tirc, indirect_table, rqtn);
	PRM_SET(tirc, tirc, rx_hash_fn, fn);
	PRM_SET(rx_hash_field_select,
		PRM_ADDR(tirc, tirc, rx_hash_field_selector_outer),
		selected_fields, fields);
	PRM_SET(tirc, tirc, self_lb_block, 2);
	return sk_exec(test, in, PRM_BYTES(modify_tir_in), out,
		       PRM_BYTES(modify_tir_out));
}

static void sk_tir_indirect(struct kunit *test)
{
	void *out = SK_MBOX(test, query_tir_out);
	const void *qtirc = PRM_ADDR(query_tir_out, out, tir_context);
	const void *qsel = PRM_ADDR(tirc, qtirc, rx_hash_field_selector_outer);
	struct sk_rx x;
	u32 rqt[2], tirn, dtirn;
	size_t inlen;
	void *in, *tirc, *sel;
	unsigned int i;

	sk_rx_init(test, &x);
	for (i = 0; i < 2; i++) {
		in = sk_rqt_in(test, &x.r, 2, x.rqn, 2, &inlen);
		KUNIT_ASSERT_EQ(test, sk_q_create(test, in, inlen,
						  PRM_BYTES(create_rqt_out),
						  &rqt[i]), PRM_STAT_OK);
	}
	in = sk_tir_in(test, &x.r, true, rqt[0]);
	tirc = PRM_ADDR(create_tir_in, in, ctx);
	sel = PRM_ADDR(tirc, tirc, rx_hash_field_selector_outer);
	/* a hash is needed, of the known functions, over known fields */
	PRM_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_NONE);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tirc, tirc, rx_hash_fn, 3);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_INVERTED_XOR8);
	PRM_SET(tirc, tirc, rx_hash_symmetric, 1);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tirc, tirc, rx_hash_symmetric, 0);
	PRM_SET(rx_hash_field_select, sel, selected_fields, BIT(5));
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(rx_hash_field_select, sel, selected_fields, 3);
	PRM_SET(rx_hash_field_select,
		PRM_ADDR(tirc, tirc, rx_hash_field_selector_inner),
		selected_fields, 3);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(rx_hash_field_select,
		PRM_ADDR(tirc, tirc, rx_hash_field_selector_inner),
		selected_fields, 0);
	/* an inline RQ besides the table */
	PRM_SET(tirc, tirc, inline_rqn, x.rqn[0]);
	KUNIT_EXPECT_EQ(test, sk_tir_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	PRM_SET(tirc, tirc, inline_rqn, 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQT, rqt[0]), 0);
	KUNIT_ASSERT_EQ(test, sk_tir_run(test, in, &tirn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQT, rqt[0]), 1);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_RQT,
					   x.r.uid, rqt[0]),
			PRM_STAT_RESOURCE_BUSY);

	/* move it to the other table, with a new hash and self-loopback */
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, tirn,
					    SIM_TIR_MASK_INDIRECT_TABLE |
					    SIM_TIR_MASK_HASH |
					    SIM_TIR_MASK_SELF_LB, rqt[1],
					    MLX5_RX_HASH_FN_TOEPLITZ, 0xf),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQT, rqt[0]), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQT, rqt[1]), 1);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_TIR, x.r.uid,
					 tirn, out, PRM_BYTES(query_tir_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(tirc, qtirc, indirect_table), rqt[1]);
	KUNIT_EXPECT_EQ(test, PRM_GET(rx_hash_field_select, qsel,
				      selected_fields), 0xf);
	KUNIT_EXPECT_EQ(test, PRM_GET(tirc, qtirc, self_lb_block), 2);
	/* the modify sent no key: the hash's key is now zero */
	KUNIT_EXPECT_EQ(test, PRM_GET(tirc, qtirc, rx_hash_toeplitz_key[0]), 0);
	/* refused: LRO, tunnels, unknown bits, a bad hash, a foreign table */
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, tirn,
					    SIM_TIR_MASK_PACKET_MERGE, 0, 0, 0),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, tirn,
					    SIM_TIR_MASK_TUNNELED, 0, 0, 0),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, tirn, BIT(7), 0, 0,
					    0), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, tirn,
					    SIM_TIR_MASK_HASH, 0, 0, 3),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, tirn,
					    SIM_TIR_MASK_INDIRECT_TABLE,
					    rqt[1] + 5, 0, 0),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQT, rqt[1]), 1);

	/* a direct TIR has no table or hash to change */
	in = sk_tir_in(test, &x.r, false, x.rqn[1]);
	KUNIT_ASSERT_EQ(test, sk_tir_run(test, in, &dtirn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, dtirn,
					    SIM_TIR_MASK_INDIRECT_TABLE,
					    rqt[0], 0, 0),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_tir_modify(test, x.r.uid, dtirn,
					    SIM_TIR_MASK_SELF_LB, 0, 0, 0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_RQT, rqt[0]), 0);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIR,
					   x.r.uid, dtirn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_TIR,
					   x.r.uid, tirn), PRM_STAT_OK);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, sk_q_destroy(test,
						   MLX5_CMD_OP_DESTROY_RQT,
						   x.r.uid, rqt[i]),
				PRM_STAT_OK);
	sk_rx_fini(test, &x);
}

static struct kunit_case sk_tir_cases[] = {
	KUNIT_CASE(sk_tis),
	KUNIT_CASE(sk_rqt),
	KUNIT_CASE(sk_rqt_rules),
	KUNIT_CASE(sk_tir_direct),
	KUNIT_CASE(sk_tir_indirect),
	{}
};

static struct kunit_suite sk_tir_suite = {
	.name = "mlx5x_sim_tir",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_tir_cases,
};

kunit_test_suite(sk_tir_suite);
