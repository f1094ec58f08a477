// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* KUnit helpers of the queue and transport suites: see sk_queues.h. */
#include "sk_queues.h"

/* Every create_*_out's id, and every destroy/query input's: 24 bits. */
#define SK_ID_OFF	0x48
#define SK_ID_BITS	24
#define SK_Q_OUT_BYTES	16

/* A context made without caps: no TIS or SQ (MLX5_UCTX_CAP_RAW_TX). */
void sk_q_init(struct kunit *test, struct sk_q *r)
{
	sk_q_init_cap(test, r, 0);
}

/*
 * A context made with @cap (MLX5_UCTX_CAP_*), or none at all for
 * SK_Q_KERNEL: then everything is the kernel's (uid 0).
 */
void sk_q_init_cap(struct kunit *test, struct sk_q *r, u32 cap)
{
	u64 *mtt = kunit_kcalloc(test, SK_Q_PAGES, sizeof(*mtt), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, mtt);
	for (i = 0; i < SK_Q_PAGES; i++)
		mtt[i] = 0x100000ULL + i * 0x1000ULL + 3;
	r->uid = 0;
	if (cap != SK_Q_KERNEL) {
		KUNIT_ASSERT_EQ(test, sk_create_uctx(test, cap, &r->uid),
				PRM_STAT_OK);
		KUNIT_ASSERT_NE(test, r->uid, 0);
	}
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, r->uid, &r->pd), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, r->uid, &r->uar),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, r->uid, &r->td), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_umem(test, r->uid, SK_Q_PAGES,
					     SK_Q_PAGES, 0, mtt, &r->umem),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, mlx5x_sim_comp_eqn(sk_sim(test), 0, &r->eqn), 0);
}

/* Free what sk_q_init() made, once the case's queues are gone. */
void sk_q_fini(struct kunit *test, const struct sk_q *r)
{
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, r->uid, r->umem),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, r->uid, r->td), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, r->uid, r->uar),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, r->uid, r->pd), PRM_STAT_OK);
	if (r->uid)
		KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, r->uid),
				PRM_STAT_OK);
}

u8 sk_q_create(struct kunit *test, const void *in, size_t inlen,
	       size_t outlen, u32 *id)
{
	void *out = sk_mbox(test, outlen);
	u8 status = sk_exec(test, in, inlen, out, outlen);

	if (id)
		*id = prm_get_bits(out, SK_ID_OFF, SK_ID_BITS);
	return status;
}

u8 sk_q_destroy(struct kunit *test, u16 opcode, u16 uid, u32 id)
{
	void *in = sk_mbox(test, 16);
	void *out = sk_mbox(test, SK_Q_OUT_BYTES);

	prm_set_bits(in, 0, 16, opcode);
	prm_in_set_uid(in, uid);
	prm_set_bits(in, SK_ID_OFF, SK_ID_BITS, id);
	return sk_exec(test, in, 16, out, SK_Q_OUT_BYTES);
}

u8 sk_q_query(struct kunit *test, u16 opcode, u16 uid, u32 id, void *out,
	      size_t outlen)
{
	void *in = sk_mbox(test, 16);

	prm_set_bits(in, 0, 16, opcode);
	prm_in_set_uid(in, uid);
	prm_set_bits(in, SK_ID_OFF, SK_ID_BITS, id);
	return sk_exec(test, in, 16, out, outlen);
}

unsigned int sk_users(struct kunit *test, enum sim_obj_type type, u32 id)
{
	struct sim_obj *obj = xa_load(&sk_sim(test)->objs[type], id);

	KUNIT_ASSERT_NOT_NULL(test, obj);
	return obj->users;
}

/* A CQ of 16 64-byte CQEs at the start of the umem. */
void *sk_cq_in(struct kunit *test, const struct sk_q *r)
{
	void *in = SK_MBOX(test, create_cq_in);
	void *cqc = PRM_ADDR(create_cq_in, in, cq_context);

	PRM_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	PRM_SET(create_cq_in, in, uid, r->uid);
	PRM_SET(create_cq_in, in, cq_umem_valid, 1);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_ID, 32, r->umem);
	PRM_SET(cqc, cqc, log_cq_size, 4);
	PRM_SET(cqc, cqc, uar_page, r->uar);
	PRM_SET(cqc, cqc, c_eqn_or_apu_element, r->eqn);
	PRM_SET(cqc, cqc, dbr_umem_valid, 1);
	prm_set_bits(cqc, SIM_CQC_DBR_UMEM_ID, 32, r->umem);
	PRM_SET64(cqc, cqc, dbr_addr, SK_Q_DBR);
	return in;
}

u8 sk_create_cq(struct kunit *test, const struct sk_q *r, u32 *cqn)
{
	return sk_q_create(test, sk_cq_in(test, r), PRM_BYTES(create_cq_in),
			   PRM_BYTES(create_cq_out), cqn);
}

void sk_wq_fill(void *wq, const struct sk_q *r, u32 stride)
{
	PRM_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	PRM_SET(wq, wq, pd, r->pd);
	PRM_SET(wq, wq, log_wq_stride, stride);
	PRM_SET(wq, wq, log_wq_sz, 4);
	PRM_SET(wq, wq, wq_umem_valid, 1);
	prm_set_bits(wq, SIM_WQ_UMEM_ID, 32, r->umem);
	PRM_SET(wq, wq, dbr_umem_valid, 1);
	prm_set_bits(wq, SIM_WQ_DBR_UMEM_ID, 32, r->umem);
	PRM_SET64(wq, wq, dbr_addr, SK_Q_DBR);
}

/* An RQ of 16 64-byte WQEs. */
void *sk_rq_in(struct kunit *test, const struct sk_q *r, u32 cqn)
{
	void *in = SK_MBOX(test, create_rq_in);
	void *rqc = PRM_ADDR(create_rq_in, in, ctx);

	PRM_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	PRM_SET(create_rq_in, in, uid, r->uid);
	PRM_SET(rqc, rqc, cqn, cqn);
	sk_wq_fill(PRM_ADDR(rqc, rqc, wq), r, 6);
	return in;
}

u8 sk_create_rq(struct kunit *test, const struct sk_q *r, u32 cqn, u32 *rqn)
{
	return sk_q_create(test, sk_rq_in(test, r, cqn),
			   PRM_BYTES(create_rq_in), PRM_BYTES(create_rq_out),
			   rqn);
}

void *sk_tis_in(struct kunit *test, const struct sk_q *r)
{
	void *in = SK_MBOX(test, create_tis_in);
	void *tisc = PRM_ADDR(create_tis_in, in, ctx);

	PRM_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	PRM_SET(create_tis_in, in, uid, r->uid);
	PRM_SET(tisc, tisc, prio, 3 << 1);
	PRM_SET(tisc, tisc, transport_domain, r->td);
	return in;
}

u8 sk_create_tis(struct kunit *test, const struct sk_q *r, u32 *tisn)
{
	return sk_q_create(test, sk_tis_in(test, r), PRM_BYTES(create_tis_in),
			   PRM_BYTES(create_tis_out), tisn);
}

/* An SQ of 16 WQEBBs. */
void *sk_sq_in(struct kunit *test, const struct sk_q *r, u32 cqn, u32 tisn)
{
	void *in = SK_MBOX(test, create_sq_in);
	void *sqc = PRM_ADDR(create_sq_in, in, ctx);
	void *wq = PRM_ADDR(sqc, sqc, wq);

	PRM_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	PRM_SET(create_sq_in, in, uid, r->uid);
	PRM_SET(sqc, sqc, cqn, cqn);
	PRM_SET(sqc, sqc, tis_lst_sz, 1);
	PRM_SET(sqc, sqc, tis_num_0, tisn);
	sk_wq_fill(wq, r, 6);
	PRM_SET(wq, wq, uar_page, r->uar);
	return in;
}

u8 sk_create_sq(struct kunit *test, const struct sk_q *r, u32 cqn, u32 tisn,
		u32 *sqn)
{
	return sk_q_create(test, sk_sq_in(test, r, cqn, tisn),
			   PRM_BYTES(create_sq_in), PRM_BYTES(create_sq_out),
			   sqn);
}

void *sk_rqt_in(struct kunit *test, const struct sk_q *r, u32 max,
		const u32 *rqn, u32 n, size_t *inlen)
{
	void *in, *rqtc;
	u32 i;

	*inlen = PRM_BYTES(create_rqt_in) + n * PRM_BYTES(rq_num);
	in = sk_mbox(test, *inlen);
	rqtc = PRM_ADDR(create_rqt_in, in, rqt_context);
	PRM_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_CREATE_RQT);
	PRM_SET(create_rqt_in, in, uid, r->uid);
	PRM_SET(rqtc, rqtc, rqt_max_size, max);
	PRM_SET(rqtc, rqtc, rqt_actual_size, n);
	for (i = 0; i < n; i++)
		PRM_SET(rq_num, (u8 *)PRM_ADDR(rqtc, rqtc, rq_num) +
			i * PRM_BYTES(rq_num), rq_num, rqn[i]);
	return in;
}

/* Direct to RQ @dest, or indirect through RQT @dest by Toeplitz on IPs. */
void *sk_tir_in(struct kunit *test, const struct sk_q *r, bool indirect,
		u32 dest)
{
	void *in = SK_MBOX(test, create_tir_in);
	void *tirc = PRM_ADDR(create_tir_in, in, ctx);
	void *sel = PRM_ADDR(tirc, tirc, rx_hash_field_selector_outer);

	PRM_SET(create_tir_in, in, opcode, MLX5_CMD_OP_CREATE_TIR);
	PRM_SET(create_tir_in, in, uid, r->uid);
	PRM_SET(tirc, tirc, transport_domain, r->td);
	if (!indirect) {
		PRM_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_DIRECT);
		PRM_SET(tirc, tirc, inline_rqn, dest);
		return in;
	}
	PRM_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	PRM_SET(tirc, tirc, indirect_table, dest);
	PRM_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_TOEPLITZ);
	PRM_SET(tirc, tirc, rx_hash_toeplitz_key[0], 0x2cc681d1);
	PRM_SET(rx_hash_field_select, sel, selected_fields,
		BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_SRC_IP) |
		BIT(MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_DST_IP));
	return in;
}

/* An RC QP on one CQ: 16 64-byte receive WQEs, then 16 WQEBBs. */
void *sk_qp_in(struct kunit *test, const struct sk_q *r, u32 cqn)
{
	void *in = SK_MBOX(test, create_qp_in);
	void *qpc = PRM_ADDR(create_qp_in, in, qpc);

	PRM_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	PRM_SET(create_qp_in, in, uid, r->uid);
	PRM_SET(create_qp_in, in, wq_umem_valid, 1);
	prm_set_bits(in, SIM_CREATE_QP_UMEM_ID, 32, r->umem);
	PRM_SET(qpc, qpc, st, MLX5_QPC_ST_RC);
	PRM_SET(qpc, qpc, pd, r->pd);
	PRM_SET(qpc, qpc, uar_page, r->uar);
	PRM_SET(qpc, qpc, log_rq_size, 4);
	PRM_SET(qpc, qpc, log_rq_stride, 2);
	PRM_SET(qpc, qpc, log_sq_size, 4);
	PRM_SET(qpc, qpc, cqn_snd, cqn);
	PRM_SET(qpc, qpc, cqn_rcv, cqn);
	PRM_SET(qpc, qpc, dbr_umem_valid, 1);
	prm_set_bits(qpc, SIM_QPC_DBR_UMEM_ID, 32, r->umem);
	PRM_SET64(qpc, qpc, dbr_addr, SK_Q_DBR);
	return in;
}

u8 sk_create_qp(struct kunit *test, const struct sk_q *r, u32 cqn, u32 *qpn)
{
	return sk_q_create(test, sk_qp_in(test, r, cqn),
			   PRM_BYTES(create_qp_in), PRM_BYTES(create_qp_out),
			   qpn);
}

u8 sk_wq_modify(struct kunit *test, bool sq, u16 uid, u32 id, u32 cur,
		u32 next)
{
	void *in = SK_MBOX(test, modify_rq_in);
	void *out = SK_MBOX(test, modify_rq_out);

	BUILD_BUG_ON(PRM_BYTES(modify_rq_in) != PRM_BYTES(modify_sq_in));
	if (sq) {
		PRM_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
		PRM_SET(modify_sq_in, in, sq_state, cur);
		PRM_SET(modify_sq_in, in, sqn, id);
		PRM_SET(sqc, PRM_ADDR(modify_sq_in, in, ctx), state, next);
	} else {
		PRM_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
		PRM_SET(modify_rq_in, in, rq_state, cur);
		PRM_SET(modify_rq_in, in, rqn, id);
		PRM_SET(rqc, PRM_ADDR(modify_rq_in, in, ctx), state, next);
	}
	prm_in_set_uid(in, uid);
	return sk_exec(test, in, PRM_BYTES(modify_rq_in), out,
		       PRM_BYTES(modify_rq_out));
}

void *sk_qp_move_in(struct kunit *test, u16 opcode, u16 uid, u32 qpn,
		    void **qpcp)
{
	void *in = SK_MBOX(test, rst2init_qp_in);
	void *qpc = PRM_ADDR(rst2init_qp_in, in, qpc);
	void *ads = PRM_ADDR(qpc, qpc, primary_address_path);

	PRM_SET(rst2init_qp_in, in, opcode, opcode);
	PRM_SET(rst2init_qp_in, in, uid, uid);
	PRM_SET(rst2init_qp_in, in, qpn, qpn);
	PRM_SET(ads, ads, vhca_port_num, 1);
	PRM_SET(qpc, qpc, rre, 1);
	PRM_SET(qpc, qpc, rwe, 1);
	PRM_SET(qpc, qpc, mtu, MLX5_QPC_MTU_1K_BYTES);
	PRM_SET(qpc, qpc, log_msg_max, 30);
	PRM_SET(qpc, qpc, remote_qpn, 0x123);
	PRM_SET(qpc, qpc, next_rcv_psn, 0x4242);
	PRM_SET(qpc, qpc, log_rra_max, 2);
	PRM_SET(ads, ads, rmac_47_32, 0x0e42);
	PRM_SET(ads, ads, rmac_31_0, 0xa10b0c0d);
	PRM_SET(ads, ads, hop_limit, 64);
	PRM_SET(qpc, qpc, next_send_psn, 0x1717);
	PRM_SET(qpc, qpc, log_sra_max, 2);
	PRM_SET(qpc, qpc, retry_count, 7);
	PRM_SET(qpc, qpc, rnr_retry, 7);
	PRM_SET(ads, ads, ack_timeout, 14);
	if (qpcp)
		*qpcp = qpc;
	return in;
}

u8 sk_qp_move(struct kunit *test, u16 opcode, u16 uid, u32 qpn)
{
	void *in = sk_qp_move_in(test, opcode, uid, qpn, NULL);
	void *out = SK_MBOX(test, rst2init_qp_out);

	return sk_exec(test, in, PRM_BYTES(rst2init_qp_in), out,
		       PRM_BYTES(rst2init_qp_out));
}

u32 sk_qp_state(struct kunit *test, u16 uid, u32 qpn)
{
	void *out = SK_MBOX(test, query_qp_out);

	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	return PRM_GET(qpc, PRM_ADDR(query_qp_out, out, qpc), state);
}

/* MODIFY_CQ's RESIZE_CQ to @log entries at @off of umem @umem. */
u8 sk_cq_resize(struct kunit *test, u16 uid, u32 cqn, u32 sel, u32 log,
		u32 umem, u64 off)
{
	void *in = SK_MBOX(test, modify_cq_in);
	void *out = SK_MBOX(test, modify_cq_out);
	void *cqc = PRM_ADDR(modify_cq_in, in, cq_context);

	PRM_SET(modify_cq_in, in, opcode, MLX5_CMD_OP_MODIFY_CQ);
	PRM_SET(modify_cq_in, in, uid, uid);
	PRM_SET(modify_cq_in, in, op_mod, MLX5_MODIFY_CQ_IN_OP_MOD_RESIZE_CQ);
	PRM_SET(modify_cq_in, in, cqn, cqn);
	PRM_SET(modify_cq_in, in, modify_field_select_resize_field_select
		.resize_field_select.resize_field_select, sel);
	PRM_SET(cqc, cqc, log_cq_size, log);
	PRM_SET(modify_cq_in, in, cq_umem_valid, 1);
	/* where create_cq_in has them */
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_ID, 32, umem);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET, 32, off >> 32);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET + 32, 32, (u32)off);
	return sk_exec(test, in, PRM_BYTES(modify_cq_in), out,
		       PRM_BYTES(modify_cq_out));
}
