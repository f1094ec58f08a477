// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DC control path, on the fixture of mlx5x_dc (mlx5x_dc.h): what
 * mlx5dv_create_qp(3) and the moves of mlx5_ib refuse for a DCI or a
 * DCT; mlx5dv_map_ah_to_qp(3), which maps an address handle to a DCI (a
 * hint for the destination's congestion control): it succeeds, twice,
 * and the traffic through the AH is what it was; the model's checks of
 * the AV_QP_MAPPING object behind it, and its table of DCTs.
 */
#include "mlx5x_dc.h"

/*
 * What is refused (mlx5dv_create_qp(3), and the moves mlx5_ib allows):
 * a DCT without an SRQ; a DCT moved past RTR, or to INIT without its
 * access flags; a DCI given a peer (IBV_QP_DEST_QPN) at RTR.
 */
MT_TEST_F(dc, refusals)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS };
	struct ibv_qp *qp;

	errno = 0;
	qp = dct_qp(self->c.ctx, self->pd, self->rcq[0], NULL, KEY);
	if (!CHECK(!qp))
		ibv_destroy_qp(qp);
	else
		CHECK_EQ(errno, EINVAL);
	CHECK_ERR(ibv_modify_qp(self->dct[0], &a, IBV_QP_STATE), EINVAL);
	qp = dct_qp(self->c.ctx, self->pd, self->rcq[0], self->srq[0], KEY);
	if (CHECK(qp)) {
		a.qp_state = IBV_QPS_INIT;
		a.port_num = 1;
		CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE |
					IBV_QP_PKEY_INDEX | IBV_QP_PORT),
			  EINVAL);
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	}
	qp = dci_qp(self->c.ctx, self->pd, self->scq);
	if (CHECK(qp)) {
		a.qp_state = IBV_QPS_INIT;
		a.port_num = 1;
		CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE |
					IBV_QP_PKEY_INDEX | IBV_QP_PORT), 0);
		a.qp_state = IBV_QPS_RTR;
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = self->dct[0]->qp_num;
		CHECK_ERR(ibv_modify_qp(qp, &a, IBV_QP_STATE |
					IBV_QP_PATH_MTU | IBV_QP_DEST_QPN),
			  EINVAL);
		CHECK_ERR(ibv_destroy_qp(qp), 0);
	}
	return KSFT_PASS;
}

/* av_qp_mapping after the general object header (rdma-core's mlx5_ifc.h) */
#define TYPE_AV_QP_MAPPING	0x3a
#define AVQ_BYTES		64
#define AVQ_SELECT		MT_FIELD(PRM_IN_BYTES * 8, 32)
#define AVQ_QPN			MT_FIELD(PRM_IN_BYTES * 8 + 0x60, 32)
#define AVQ_SGID		MT_FIELD(PRM_IN_BYTES * 8 + 0x80 + 0xe4, 8)

/*
 * mlx5dv_map_ah_to_qp(3): the AH of a DCT's address mapped to the DCI,
 * again (a duplicate is ignored), and traffic through the AH as before.
 */
MT_TEST_F(dc, ah_to_qp)
{
	struct dc_wr w;
	int err;

	err = mlx5dv_map_ah_to_qp(self->ah, self->dci->qp_num);
	if (err == EOPNOTSUPP)
		return mt_skip("no AV_QP_MAPPING objects");
	CHECK_ERR(err, 0);
	CHECK_ERR(mlx5dv_map_ah_to_qp(self->ah, self->dci->qp_num), 0);
	fill(self->buf, MSG, 0x77);
	CHECK_ERR(srq_recv(self->srq[0], self->mr, 22, RECV_OFF, MSG), 0);
	w = dc_wr_to(self, 0, DC_SEND, 23, 0, MSG);
	CHECK_ERR(dc_post(self->dci, self->ah, &w), 0);
	if (send_is(self->scq, 23, IBV_WC_SUCCESS, IBV_WC_SEND) &&
	    recv_is(self, 0, 22, MSG))
		CHECK(!memcmp(self->buf + RECV_OFF, self->buf, MSG));
	return KSFT_PASS;
}

/*
 * The model's checks of an AV_QP_MAPPING mailbox (DEVX): a field to
 * modify, a QP number of more than 24 bits, a source GID index that
 * holds no address are refused; a valid one is made and destroyed.
 */
MT_TEST_F(dc, av_qp_mapping_refusals)
{
	uint8_t in[PRM_IN_BYTES + AVQ_BYTES];
	struct mlx5dv_devx_obj *obj;
	uint32_t out[4];

	memset(in, 0, sizeof(in));
	mt_set(in, PRM_IN_OPCODE, PRM_OP_CREATE_GENERAL_OBJECT);
	mt_set(in, PRM_IN_OBJ_TYPE, TYPE_AV_QP_MAPPING);
	mt_set(in, AVQ_QPN, self->dci->qp_num);
	mt_set(in, AVQ_SGID, self->gid);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	if (CHECK(obj))
		CHECK_ERR(mlx5dv_devx_obj_destroy(obj), 0);
	mt_set(in, AVQ_SELECT, 1);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	mt_devx_refused(obj, out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
			"modify_field_select");
	mt_set(in, AVQ_SELECT, 0);
	mt_set(in, AVQ_QPN, 1U << 24);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	mt_devx_refused(obj, out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
			"a QP number of 25 bits");
	mt_set(in, AVQ_QPN, self->dci->qp_num);
	mt_set(in, AVQ_SGID, 255);
	obj = mlx5dv_devx_obj_create(self->c.ctx, in, sizeof(in), out,
				     sizeof(out));
	mt_devx_refused(obj, out, MT_STAT_BAD_PARAM, SYND_BAD_FIELD,
			"a GID index without an address");
	return KSFT_PASS;
}

/* The model's table: a DCT of the context per DCT, none once gone. */
MT_TEST_F(dc, fw_objects)
{
	CHECK_EQ(mt_fw_count("dct", self->c.uid), NDCT);
	CHECK_ERR(ibv_destroy_qp(self->dct[0]), 0);
	self->dct[0] = NULL;
	CHECK_EQ(mt_fw_count("dct", self->c.uid), NDCT - 1);
	return KSFT_PASS;
}

static const struct mt_case cases[] = {
	MT_CASE_F(dc, refusals),
	MT_CASE_F(dc, ah_to_qp),
	MT_CASE_F(dc, av_qp_mapping_refusals, .flags = MT_NEEDS_MODEL),
	MT_CASE_F(dc, fw_objects, .flags = MT_NEEDS_MODEL),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
