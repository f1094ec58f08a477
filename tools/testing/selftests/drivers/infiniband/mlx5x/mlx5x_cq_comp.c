// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQE compression, as mlx5dv_create_cq(3) asks for it
 * (MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE, one cqe_comp_res_format) and
 * mlx5dv_query_device(3) offers it (cqe_comp_caps; 128-byte CQEs:
 * MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP).  A device may compress receive
 * completions that arrive together into a session: a title CQE (format
 * 3 in op_own, the session's length in its byte count), then arrays of
 * eight 8-byte mini CQEs in the next slot and every eighth slot after
 * the title.  libmlx5's poll does not decompress, so these cases read
 * the CQ's ring themselves, as a consumer of compressed CQs does, and
 * rebuild each completion: a burst of SENDs posted in one doorbell
 * arrives whole and in order, byte counts and WQE counters right, burst
 * after burst round the ring twice, in every format and in 64- and
 * 128-byte CQEs.  A completion that comes alone is a plain CQE, which
 * libmlx5 polls.  With the model, the bursts must have been compressed.
 * A compressing CQ overruns where a plain one would, and what its ring
 * holds then is whole.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <time.h>
#include "mlx5x_rc.h"

#define BURST		12	/* within the pair's 16 WQEs each side */
#define MSG_BASE	16	/* message i: MSG_BASE + i bytes */
#define RECV_OFF	24576
#define RECV_STRIDE	256
#define FMT_COMPRESSED	3	/* op_own 3:2 */
#define MINI_PER_ARRAY	8
#define RQ_DEPTH	256	/* B's receives: every round's */

/* One completion rebuilt from the ring. */
struct seen {
	uint32_t bcnt;
	uint16_t ctr;
	uint8_t opcode;
};

/* A CQ compressed in @fmt. */
static struct ibv_cq *comp_cq(struct ibv_context *ctx, uint32_t fmt,
			      uint8_t cqe_size)
{
	struct mlx5dv_cq_init_attr dv = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE |
			     MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.cqe_comp_res_format = fmt,
		.cqe_size = cqe_size,
	};

	return dv_cq(ctx, &dv);
}

/*
 * B's QP on a compressed CQ, A's on its own; connected afresh.  B's RQ
 * has room for every receive of the case: libmlx5 frees a receive WQE
 * when it polls its completion, and these are read off the ring instead.
 */
static bool repair(struct pair *p, uint32_t fmt, uint8_t cqe_size)
{
	struct ibv_qp_init_attr b = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = RQ_DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (p->qp[i])
			CHECK_ERR(ibv_destroy_qp(p->qp[i]), 0);
		p->qp[i] = NULL;
	}
	CHECK_ERR(ibv_destroy_cq(p->cq[1]), 0);
	p->cq[1] = comp_cq(p->c.ctx, fmt, cqe_size);
	if (!CHECK(p->cq[1]))
		return false;
	b.send_cq = b.recv_cq = p->cq[1];
	p->qp[0] = rc_qp(p, p->cq[0], IBV_QPT_RC);
	p->qp[1] = ibv_create_qp(p->pd, &b);
	if (!CHECK(p->qp[0]) || !CHECK(p->qp[1]))
		return false;
	return CHECK_ERR(rc_connect(p, p->qp[0], p->qp[1]->qp_num,
				    ALL_ACCESS, 7), 0) &&
	       CHECK_ERR(rc_connect(p, p->qp[1], p->qp[0]->qp_num,
				    ALL_ACCESS, 7), 0);
}

/* The 64-byte CQE of slot @n of @dv's ring. */
static const uint8_t *cqe64(const struct mlx5dv_cq *dv, uint32_t n)
{
	return (const uint8_t *)dv->buf + (n & (dv->cqe_cnt - 1)) *
	       dv->cqe_size + dv->cqe_size - 64;
}

static uint32_t be32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static uint16_t be16_at(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return be16toh(v);
}

/*
 * Read @want completions from slot @ci on, as the device wrote them
 * (plain or compressed in @fmt), within WAIT_MS.  Return: how many, and
 * the sessions they came in through *@sessions.
 */
static unsigned int read_ring(const struct mlx5dv_cq *dv, uint32_t ci,
			      uint32_t fmt, struct seen *out,
			      unsigned int want, unsigned int *sessions)
{
	long end = mt_now_ms() + WAIT_MS;
	unsigned int got = 0, i, n;

	*sessions = 0;
	while (got < want && mt_now_ms() < end) {
		const uint8_t *c = cqe64(dv, ci);
		uint8_t op_own = __atomic_load_n(&c[63], __ATOMIC_ACQUIRE);

		if ((op_own >> 4) == 0xf || (op_own & 1) != !!(ci & dv->cqe_cnt))
			continue;	/* not yet the software's */
		n = ((op_own >> 2) & 3) == FMT_COMPRESSED ? be32_at(c + 44) : 1;
		if (!CHECK(n >= 1 && got + n <= want))
			return got;
		for (i = 0; i < n; i++) {
			const uint8_t *m;

			out[got + i].opcode = op_own >> 4;
			if (n == 1) {
				out[got].bcnt = be32_at(c + 44);
				out[got].ctr = be16_at(c + 60);
				break;
			}
			m = cqe64(dv, ci + (i < MINI_PER_ARRAY ? 1 :
				  i / MINI_PER_ARRAY * MINI_PER_ARRAY)) +
			    (i % MINI_PER_ARRAY) * 8;
			out[got + i].bcnt = be32_at(m + 4);
			out[got + i].ctr =
				fmt == MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX ?
				be16_at(m + 2) : be16_at(c + 60) + i;
		}
		got += n;
		ci += n;
		(*sessions)++;
	}
	return got;
}

/* BURST SENDs from A, posted in one doorbell, their completions taken. */
static bool send_burst(struct pair *p, unsigned int round)
{
	struct ibv_send_wr wr[BURST], *bad;
	struct ibv_sge sge[BURST];
	struct ibv_wc wc;
	unsigned int i;

	for (i = 0; i < BURST; i++)
		if (!CHECK_ERR(post_recv(p, 100 + i, RECV_OFF +
					 i * RECV_STRIDE, RECV_STRIDE), 0))
			return false;
	fill(p->buf, 4096, round);
	memset(wr, 0, sizeof(wr));
	for (i = 0; i < BURST; i++) {
		sge[i] = (struct ibv_sge){ (uintptr_t)p->buf + i * 256,
					   MSG_BASE + i, p->mr->lkey };
		wr[i] = (struct ibv_send_wr){
			.wr_id = 200 + i, .sg_list = &sge[i], .num_sge = 1,
			.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
			.next = i + 1 < BURST ? &wr[i + 1] : NULL,
		};
	}
	if (!CHECK_ERR(ibv_post_send(p->qp[0], wr, &bad), 0))
		return false;
	for (i = 0; i < BURST; i++)
		if (!CHECK(poll_one(p->cq[0], &wc)) ||
		    !CHECK(wc_is(&wc, 200 + i, IBV_WC_SUCCESS, IBV_WC_SEND)))
			return false;
	return true;
}

/*
 * One SEND alone (a plain CQE: libmlx5 polls it), then rounds of BURST
 * SENDs in one doorbell each, read off B's ring (the consumer index given
 * back through the CQ's doorbell record): each whole, in order, on past
 * the ring's end.
 */
static int burst(struct pair *p, uint32_t fmt, uint8_t cqe_size)
{
	unsigned int i, round, sessions, all = 0;
	struct seen seen[BURST];
	struct mlx5dv_cq dv;
	struct mlx5dv_obj obj = { .cq = { NULL, &dv } };
	struct ibv_wc wc;
	uint32_t ci = 1;

	if (!repair(p, fmt, cqe_size))
		return KSFT_FAIL;
	obj.cq.in = p->cq[1];
	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), 0) ||
	    !CHECK_EQ(dv.cqe_size, cqe_size))
		return KSFT_FAIL;
	fill(p->buf, 4096, fmt);
	if (!CHECK_ERR(post_recv(p, 1, RECV_OFF, RECV_STRIDE), 0) ||
	    !CHECK_EQ(rc_rdma(p, IBV_WR_SEND, 0, 0, p->mr->lkey,
			      (uintptr_t)p->buf, 40), IBV_WC_SUCCESS) ||
	    !CHECK(poll_one(p->cq[1], &wc)) ||
	    !CHECK(wc_is(&wc, 1, IBV_WC_SUCCESS, IBV_WC_RECV)) ||
	    !CHECK_EQ(wc.byte_len, 40))
		return KSFT_FAIL;
	/* libmlx5 took the first completion: the rest from slot 1 on */
	for (round = 0; round * BURST < 2 * dv.cqe_cnt; round++) {
		if (!send_burst(p, round) ||
		    !CHECK_EQ(read_ring(&dv, ci, fmt, seen, BURST, &sessions),
			      BURST))
			return KSFT_FAIL;
		for (i = 0; i < BURST; i++) {
			CHECK_EQ(seen[i].opcode, MLX5_CQE_RESP_SEND);
			CHECK_EQ(seen[i].bcnt, MSG_BASE + i);
			CHECK_EQ(seen[i].ctr, (uint16_t)(seen[0].ctr + i));
			CHECK(!memcmp(p->buf + RECV_OFF + i * RECV_STRIDE,
				      p->buf + i * 256, MSG_BASE + i));
		}
		ci += BURST;
		all += sessions;
		__atomic_store_n(&dv.dbrec[0], htobe32(ci & 0xffffff),
				 __ATOMIC_RELEASE);
	}
	printf("# format %u, %u-byte CQEs: %u completions in %u sessions\n",
	       fmt, cqe_size, round * BURST, all);
	if (mt_sim())
		CHECK(all < round * BURST);
	return KSFT_PASS;
}

/*
 * A compressing CQ whose consumer never gives slots back overruns where a
 * plain one would: the bursts fill its 64 slots (the last burst's first
 * four completions still in a session of their own), the next completion
 * finds no room, IBV_EVENT_CQ_ERR (ibv_get_async_event(3)), and the QP
 * that could not complete goes to error.  What the ring holds is whole.
 */
MT_TEST_F(pair, overrun)
{
	struct seen seen[BURST];
	struct mlx5dv_cq dv;
	struct mlx5dv_obj obj = { .cq = { NULL, &dv } };
	unsigned int round, got = 0, n, want, sessions, i;
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND }, *bad;
	struct ibv_sge sge = { 0, MSG_BASE, 0 };
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (!repair(self, MLX5DV_CQE_RES_FORMAT_CSUM, 64))
		return KSFT_FAIL;
	obj.cq.in = self->cq[1];
	if (!CHECK_ERR(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), 0))
		return KSFT_FAIL;
	for (round = 0; (round + 1) * BURST <= dv.cqe_cnt; round++)
		if (!send_burst(self, round))
			return KSFT_FAIL;
	/* the rest of the ring, then one more: unsignalled, no retry */
	sge.addr = (uintptr_t)self->buf;
	sge.lkey = self->mr->lkey;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	for (i = 0; i <= dv.cqe_cnt - round * BURST; i++) {
		CHECK_ERR(post_recv(self, 300 + i, RECV_OFF, RECV_STRIDE), 0);
		CHECK_ERR(ibv_post_send(self->qp[0], &wr, &bad), 0);
	}
	CHECK_EQ(mt_wait_event(self->c.ctx, IBV_EVENT_CQ_ERR, 3 * WAIT_MS,
			       NULL), 0);
	if (CHECK_ERR(ibv_query_qp(self->qp[1], &a, IBV_QP_STATE, &ia), 0))
		CHECK_EQ(a.qp_state, IBV_QPS_ERR);
	while (got < dv.cqe_cnt) {
		want = dv.cqe_cnt - got < BURST ? dv.cqe_cnt - got : BURST;
		n = read_ring(&dv, got, MLX5DV_CQE_RES_FORMAT_CSUM, seen, want,
			      &sessions);
		if (!CHECK_EQ(n, want))
			break;
		for (i = 0; i < n; i++)
			CHECK_EQ(seen[i].opcode, MLX5_CQE_RESP_SEND);
		got += n;
	}
	CHECK_EQ(got, dv.cqe_cnt);
	return KSFT_PASS;
}

/* What the device offers: every format, both CQE sizes, 64 a session. */
MT_TEST_F(pair, caps)
{
	struct mlx5dv_context dc = {
		.comp_mask = MLX5DV_CONTEXT_MASK_CQE_COMPRESION,
	};

	if (!CHECK_ERR(mlx5dv_query_device(self->c.ctx, &dc), 0))
		return KSFT_FAIL;
	if (!dc.cqe_comp_caps.max_num) {
		CHECK(!mt_sim());
		return mt_skip("no CQE compression");
	}
	CHECK(dc.comp_mask & MLX5DV_CONTEXT_MASK_CQE_COMPRESION);
	CHECK(dc.cqe_comp_caps.supported_format &
	      MLX5DV_CQE_RES_FORMAT_HASH);
	CHECK(dc.cqe_comp_caps.supported_format &
	      MLX5DV_CQE_RES_FORMAT_CSUM);
	if (mt_sim()) {
		CHECK_EQ(dc.cqe_comp_caps.max_num, 64);
		CHECK(dc.cqe_comp_caps.supported_format &
		      MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX);
		CHECK(dc.flags & MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP);
	}
	return KSFT_PASS;
}

/* Two formats at once: the kernel's EINVAL (libmlx5 passes it on). */
MT_TEST_F(pair, two_formats)
{
	errno = 0;
	CHECK(!comp_cq(self->c.ctx, MLX5DV_CQE_RES_FORMAT_HASH |
		       MLX5DV_CQE_RES_FORMAT_CSUM, 64));
	CHECK_ERR(errno, EINVAL);
	return KSFT_PASS;
}

MT_TEST_F(pair, burst_hash)
{
	return burst(self, MLX5DV_CQE_RES_FORMAT_HASH, 64);
}

MT_TEST_F(pair, burst_csum)
{
	return burst(self, MLX5DV_CQE_RES_FORMAT_CSUM, 64);
}

MT_TEST_F(pair, burst_csum_stridx)
{
	return burst(self, MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX, 64);
}

MT_TEST_F(pair, burst_128)
{
	struct mlx5dv_context dc = {};

	if (!CHECK_ERR(mlx5dv_query_device(self->c.ctx, &dc), 0))
		return KSFT_FAIL;
	if (!(dc.flags & MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP))
		return mt_skip("no compression of 128-byte CQEs");
	return burst(self, MLX5DV_CQE_RES_FORMAT_CSUM, 128);
}

static const struct mt_case cases[] = {
	MT_CASE_F(pair, caps),
	MT_CASE_F(pair, two_formats),
	MT_CASE_F(pair, burst_hash),
	MT_CASE_F(pair, burst_csum),
	MT_CASE_F(pair, burst_csum_stridx),
	MT_CASE_F(pair, burst_128),
	MT_CASE_F(pair, overrun),
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
