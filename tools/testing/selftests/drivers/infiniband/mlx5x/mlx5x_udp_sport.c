// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv_modify_qp_udp_sport(3): the UDP source port of an RC or UC QP
 * in RTS, set through DEVX on the verbs QP (an RTS2RTS_QP naming nothing
 * but that port).  What the RTS2RTS changes is the port alone: the QP
 * keeps its remote rights and timers, and RDMA WRITE, READ and SEND go
 * on; QUERY_QP reports the port.  Refused, as the man page and libmlx5
 * have it: a UD QP, and a QP not in RTS (EOPNOTSUPP).  A raw RTS2RTS on
 * the verbs QP that names anything else (its rights, say) is the
 * kernel's to refuse (EINVAL), and changes nothing, whether root or an
 * unprivileged owner (nobody, on a pair of its own) sends it; the port
 * alone is the owner's to set without privilege.  mlx5x_rc_wire's
 * udp_sport case sees the port in the frames on the wire.
 */
#include "mlx5x_rc.h"
#include "mlx5x_prm.h"

#define SPORT		55555
#define OPT_95_32_LO	(0x840 + 32)	/* opt_param_mask_95_32, low word */
#define OPT_32_UDP_SPORT	(1U << 2)
#define OPTPAR_RRE	(1U << 1)

/* QUERY_QP of a verbs QP through DEVX: its context into @out. */
static bool query(struct ibv_qp *qp, uint32_t *out, size_t outlen)
{
	uint32_t in[PRM_QUERY_QP_IN_BYTES / 4] = {};

	mt_set(in, PRM_QUERY_QP_IN_OPCODE, PRM_OP_QUERY_QP);
	mt_set(in, PRM_QUERY_QP_IN_QPN, qp->qp_num);
	return CHECK_ERR(mlx5dv_devx_qp_query(qp, in, sizeof(in), out,
					      outlen), 0);
}

/* A WRITE, a READ back and a SEND over the pair: all succeed. */
static void traffic(struct pair *p)
{
	struct ibv_wc wc;

	fill(p->buf, 1000, 3);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_WRITE, p->mr->rkey,
			 (uintptr_t)p->buf + 8192, p->mr->lkey,
			 (uintptr_t)p->buf, 1000), IBV_WC_SUCCESS);
	CHECK_EQ(rc_rdma(p, IBV_WR_RDMA_READ, p->mr->rkey,
			 (uintptr_t)p->buf + 8192, p->mr->lkey,
			 (uintptr_t)p->buf + 16384, 1000), IBV_WC_SUCCESS);
	CHECK(!memcmp(p->buf + 16384, p->buf, 1000));
	if (!CHECK_ERR(post_recv(p, 7, 24576, 64), 0))
		return;
	CHECK_EQ(rc_rdma(p, IBV_WR_SEND, 0, 0, p->mr->lkey,
			 (uintptr_t)p->buf, 64), IBV_WC_SUCCESS);
	if (CHECK(poll_one(p->cq[1], &wc)))
		CHECK(wc_is(&wc, 7, IBV_WC_SUCCESS, IBV_WC_RECV));
}

/*
 * Both QPs of an RC pair in RTS take a port; QUERY_QP says it, and the
 * rights and RNR timer given at connection are still theirs.
 */
MT_TEST_F(pair, rc_in_rts)
{
	uint32_t out[PRM_QUERY_QP_OUT_BYTES / 4];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (!CHECK_ERR(mlx5dv_modify_qp_udp_sport(self->qp[i],
							  SPORT + i), 0) ||
		    !query(self->qp[i], out, sizeof(out)))
			return KSFT_FAIL;
		CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_PRIMARY_ADDRESS_PATH_UDP_SPORT),
			 SPORT + i);
		CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_RRE), 1);
		CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_RWE), 1);
		CHECK(mt_get(out, PRM_QUERY_QP_OUT_QPC_MIN_RNR_NAK) != 0);
	}
	traffic(self);
	/* a second port replaces the first */
	CHECK_ERR(mlx5dv_modify_qp_udp_sport(self->qp[0], SPORT + 7), 0);
	if (query(self->qp[0], out, sizeof(out)))
		CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_PRIMARY_ADDRESS_PATH_UDP_SPORT),
			 SPORT + 7);
	traffic(self);
	return KSFT_PASS;
}

/* A UD QP, and an RC QP not yet in RTS: EOPNOTSUPP (the man page's RTS). */
MT_TEST_F(pair, refused)
{
	struct ibv_qp *ud = rts_ud_qp(self->pd, self->cq[0], 0x11, NULL);
	struct ibv_qp *rc = rc_qp(self, self->cq[0], IBV_QPT_RC);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1 };

	if (CHECK(ud)) {
		CHECK_ERR(mlx5dv_modify_qp_udp_sport(ud, SPORT), EOPNOTSUPP);
		CHECK_ERR(ibv_destroy_qp(ud), 0);
	}
	if (!CHECK(rc))
		return KSFT_FAIL;
	CHECK_ERR(mlx5dv_modify_qp_udp_sport(rc, SPORT), EOPNOTSUPP);
	CHECK_ERR(ibv_modify_qp(rc, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
	CHECK_ERR(mlx5dv_modify_qp_udp_sport(rc, SPORT), EOPNOTSUPP);
	CHECK_ERR(ibv_destroy_qp(rc), 0);
	return KSFT_PASS;
}

/*
 * A raw RTS2RTS on the verbs QP that also names its remote read right
 * (taking it away behind the kernel's back), or a second-mask bit other
 * than the port's: EINVAL, and the QP reads as before.
 */
static int raw_rts2rts(struct pair *p)
{
	uint32_t in[PRM_RTS2RTS_QP_IN_BYTES / 4] = {};
	uint32_t out[PRM_QUERY_QP_OUT_BYTES / 4] = {};
	struct ibv_qp *qp = p->qp[1];
	uint16_t before;

	if (!query(qp, out, sizeof(out)))
		return KSFT_FAIL;
	before = mt_get(out, PRM_QUERY_QP_OUT_QPC_PRIMARY_ADDRESS_PATH_UDP_SPORT);
	mt_set(in, PRM_RTS2RTS_QP_IN_OPCODE, PRM_OP_RTS2RTS_QP);
	mt_set(in, PRM_RTS2RTS_QP_IN_QPN, qp->qp_num);
	mt_set(in, PRM_RTS2RTS_QP_IN_QPC_PRIMARY_ADDRESS_PATH_UDP_SPORT, SPORT);
	mt_set(in, MT_FIELD(OPT_95_32_LO, 32), OPT_32_UDP_SPORT);
	mt_set(in, PRM_RTS2RTS_QP_IN_OPT_PARAM_MASK, OPTPAR_RRE);
	CHECK_ERR(mlx5dv_devx_qp_modify(qp, in, sizeof(in), out, sizeof(out)),
		  EINVAL);
	mt_set(in, PRM_RTS2RTS_QP_IN_OPT_PARAM_MASK, 0);
	mt_set(in, MT_FIELD(OPT_95_32_LO, 32), OPT_32_UDP_SPORT | 1);
	CHECK_ERR(mlx5dv_devx_qp_modify(qp, in, sizeof(in), out, sizeof(out)),
		  EINVAL);
	if (query(qp, out, sizeof(out))) {
		CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_RRE), 1);
		CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_PRIMARY_ADDRESS_PATH_UDP_SPORT),
			 before);
	}
	traffic(p);
	return KSFT_PASS;
}

/*
 * As nobody, with no capability, on a pair of its own: the port is the
 * owner's to set (the man page asks for nothing more), the rest of a raw
 * RTS2RTS is refused to it as to root.
 */
static int nobody_rts2rts(void *arg)
{
	struct pair p = { 0 };
	uint32_t out[PRM_QUERY_QP_OUT_BYTES / 4];

	(void)arg;
	if (pair_open(&p, IBV_QPT_RC, ALL_ACCESS, 7) == KSFT_PASS &&
	    CHECK_ERR(mlx5dv_modify_qp_udp_sport(p.qp[1], SPORT + 3), 0) &&
	    query(p.qp[1], out, sizeof(out))) {
		CHECK_EQ(mt_get(out, PRM_QUERY_QP_OUT_QPC_PRIMARY_ADDRESS_PATH_UDP_SPORT),
			 SPORT + 3);
		raw_rts2rts(&p);
	}
	pair_teardown(&p);
	return KSFT_PASS;
}

MT_TEST_F(pair, raw_rts2rts_refused)
{
	raw_rts2rts(self);
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody_rts2rts, NULL), KSFT_PASS);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, rc_in_rts),
	MT_CASE_F(pair, refused),
	MT_CASE_F(pair, raw_rts2rts_refused),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
