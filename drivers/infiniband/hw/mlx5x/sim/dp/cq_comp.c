// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQE compression (cqc.cqe_comp_en, the basic layout): responder CQEs
 * that one hold of the data path writes to a CQ one after another, alike
 * but for their byte counts (and, in the stride-index format, their WQE
 * counters), go to the CQ as one session: a title CQE (the first one, its
 * op_own format 3, its byte count the session's length) in the first
 * slot, then arrays of eight 8-byte mini CQEs in the second slot and in
 * every eighth slot after the title; a session of n CQEs takes n slots,
 * the ones between the arrays left as they were, as a ConnectX leaves
 * them.  A mini CQE is the checksum and, in the CSUM_STRIDX format, the
 * WQE counter (CSUM), or the RSS hash result (HASH), then the byte count.
 * A consumer rebuilds CQE i from the title: the mini CQE's fields, the
 * WQE counter the title's plus i where the format has none.
 *
 * Like a ConnectX, the model compresses only what arrives together: a
 * session is open while one hold lasts and is written when the hold ends
 * (sim_dp_hold_end()), when a CQE that does not fit it comes, or when it
 * is full (cqe_compression_max_num).  A session of one is written as the
 * plain CQE it is, so that a consumer that takes one completion at a time
 * (libmlx5's poll, which does not decompress) never sees a title.  A CQE
 * is compressed only into slots that are there to be written in place
 * and free (a consumer index a ring behind refuses it, as it would a
 * plain CQE): every failure a CQE can meet is met when it arrives, in
 * sim_dp_cqe().
 */
#include "../queues/queues.h"
#include "datapath.h"
#include "dp_priv.h"
#include "wqe.h"

/* What a 64-byte CQE image holds where (struct sim_cqe). */
#define SIM_CQE_HASH_OFF	8	/* rss_hash_result, 4 bytes */
#define SIM_CQE_CSUM_OFF	20	/* check_sum, 2 bytes */
#define SIM_CQE_BCNT_OFF	44	/* byte_cnt, 4 bytes */
#define SIM_CQE_WQE_CTR_OFF	60	/* wqe_counter, 2 bytes */
#define SIM_CQE_OP_OWN_OFF	63
#define SIM_CQE_FORMAT_COMP	(3 << 2)	/* op_own 3:2, compressed */

#define SIM_MINI_CQES		8	/* per array, in one CQE slot */

static u16 sim_cqe_ctr(const u8 *img)
{
	return img[SIM_CQE_WQE_CTR_OFF] << 8 | img[SIM_CQE_WQE_CTR_OFF + 1];
}

/*
 * Whether @img may follow the session's CQEs: the same bytes as the
 * title's but for the byte count, the WQE counter, the owner bit, and
 * the fields the format carries per CQE; the WQE counter the next one
 * unless the format carries it.
 */
static bool sim_cq_comp_like(const struct sim_cq_comp *s, u8 fmt,
			     const u8 *img)
{
	u8 a[64], b[64];

	memcpy(a, s->title, sizeof(a));
	memcpy(b, img, sizeof(b));
	memset(a + SIM_CQE_BCNT_OFF, 0, 4);
	memset(b + SIM_CQE_BCNT_OFF, 0, 4);
	memset(a + SIM_CQE_WQE_CTR_OFF, 0, 2);
	memset(b + SIM_CQE_WQE_CTR_OFF, 0, 2);
	a[SIM_CQE_OP_OWN_OFF] &= ~1;
	b[SIM_CQE_OP_OWN_OFF] &= ~1;
	if (fmt == SIM_MINI_FMT_HASH) {
		memset(a + SIM_CQE_HASH_OFF, 0, 4);
		memset(b + SIM_CQE_HASH_OFF, 0, 4);
	} else {
		memset(a + SIM_CQE_CSUM_OFF, 0, 2);
		memset(b + SIM_CQE_CSUM_OFF, 0, 2);
	}
	if (memcmp(a, b, sizeof(a)))
		return false;
	return fmt == SIM_MINI_FMT_CSUM_STRIDX ||
	       sim_cqe_ctr(img) == (u16)(sim_cqe_ctr(s->title) + s->n);
}

/* The mini CQE of @img, in format @fmt, as the session's next. */
static void sim_cq_comp_mini(struct sim_cq_comp *s, u8 fmt, const u8 *img)
{
	u8 *m = s->mini[s->n];

	memset(m, 0, SIM_MINI_CQE_BYTES);
	if (fmt == SIM_MINI_FMT_HASH) {
		memcpy(m, img + SIM_CQE_HASH_OFF, 4);
	} else {
		memcpy(m, img + SIM_CQE_CSUM_OFF, 2);
		if (fmt == SIM_MINI_FMT_CSUM_STRIDX)
			memcpy(m + 2, img + SIM_CQE_WQE_CTR_OFF, 2);
	}
	memcpy(m + 4, img + SIM_CQE_BCNT_OFF, 4);
}

/* Whether slot @n of @cq is free (its consumer index) and in place. */
static bool sim_cq_comp_room(struct sim_cq *cq, u32 n, u32 ci)
{
	u32 log = PRM_GET(cqc, cq->cqc, log_cq_size);

	if (((n - ci) & 0xffffff) >= BIT(log) && !PRM_GET(cqc, cq->cqc, oi))
		return false;
	return sim_cq_slot_va(cq, n);
}

/**
 * sim_cq_comp_take() - put a CQE into a CQ's compression session
 * @sim: the model, its lock held
 * @cq: the CQ, not in error
 * @info: the CQE
 * @sol: it is solicited
 * @ci: the CQ's consumer index, as just read
 *
 * The session open on @cq is written first when the CQE does not fit it;
 * a CQE that cannot open a session is the caller's to write plainly.
 *
 * Return: true when the CQE is in a session (it is written later).
 */
bool sim_cq_comp_take(struct mlx5x_sim *sim, struct sim_cq *cq,
		      const struct sim_cqe_info *info, bool sol, u32 ci)
{
	struct sim_cq_comp *s = &cq->dp.comp;
	u8 fmt = PRM_GET(cqc, cq->cqc, mini_cqe_res_format);
	u8 img[64];

	if (!PRM_GET(cqc, cq->cqc, cqe_comp_en) || !sim->dp->holding ||
	    info->opcode < SIM_CQE_RESP_WR_IMM ||
	    info->opcode > SIM_CQE_RESP_SEND_INV) {
		sim_cq_comp_flush(sim, cq);
		return false;
	}
	sim_cqe_fill(img, info, 0);
	sim_cqe_stamp(img, sim_dp_clock(sim));
	if (s->n && (s->n == SIM_CQ_COMP_MAX ||
		     s->n >= BIT(PRM_GET(cqc, cq->cqc, log_cq_size)) ||
		     !sim_cq_comp_like(s, fmt, img) ||
		     !sim_cq_comp_room(cq, cq->dp.pi + s->n, ci)))
		sim_cq_comp_flush(sim, cq);
	if (cq->dp.error)
		return false;
	if (!s->n) {
		if (!sim_cq_comp_room(cq, cq->dp.pi, ci))
			return false;
		memcpy(s->title, img, sizeof(img));
		s->sol = false;
		list_add_tail(&s->node, &sim->dp->comp_cqs);
	}
	sim_cq_comp_mini(s, fmt, img);
	s->n++;
	s->sol |= sol;
	return true;
}

/**
 * sim_cq_comp_flush() - write a CQ's open compression session
 * @sim: the model, its lock held
 * @cq: the CQ
 *
 * The arrays first, then the title, its op_own byte last: the session is
 * whole before its owner bit says it is there.  Then the producer index
 * moves past it and the CQ's event may fire, as for so many CQEs.
 */
void sim_cq_comp_flush(struct mlx5x_sim *sim, struct sim_cq *cq)
{
	struct sim_cq_comp *s = &cq->dp.comp;
	u32 log = PRM_GET(cqc, cq->cqc, log_cq_size);
	unsigned int n = s->n, k;
	u8 *title = s->title;
	bool ok = true;
	u8 arr[64];

	if (!n)
		return;
	s->n = 0;
	list_del(&s->node);
	if (cq->dp.error)
		return;		/* it takes no more CQEs */
	if (n > 1) {
		for (k = 0; ok && k * SIM_MINI_CQES < n; k++) {
			memset(arr, 0, sizeof(arr));
			memcpy(arr, s->mini[k * SIM_MINI_CQES],
			       min_t(unsigned int, n - k * SIM_MINI_CQES,
				     SIM_MINI_CQES) * SIM_MINI_CQE_BYTES);
			ok = sim_cq_put_img(cq, cq->dp.buf,
					    cq->dp.pi + (k ? k * SIM_MINI_CQES : 1),
					    arr);
		}
		memset(title + SIM_CQE_BCNT_OFF, 0, 4);
		title[SIM_CQE_BCNT_OFF + 2] = n >> 8;
		title[SIM_CQE_BCNT_OFF + 3] = n;
		title[SIM_CQE_OP_OWN_OFF] |= SIM_CQE_FORMAT_COMP;
		/* the arrays are there before the title says so */
		wmb();
	}
	title[SIM_CQE_OP_OWN_OFF] |= (cq->dp.pi >> log) & 1;
	if (!ok || !sim_cq_put_img(cq, cq->dp.buf, cq->dp.pi, title)) {
		sim_dp_cq_error(sim, cq, SIM_CQ_ERROR_ACCESS);
		return;
	}
	cq->dp.pi += n;
	cq->dp.mod_cqes += n;
	cq->dp.mod_sol |= s->sol;
	/* the CQEs are there before the arm is read */
	smp_mb();
	sim_dp_cq_event(sim, cq, s->sol);
}

/* Every session the hold opened is written as it ends. */
void sim_cq_comp_flush_all(struct mlx5x_sim *sim)
{
	struct sim_cq_comp *s, *next;

	list_for_each_entry_safe(s, next, &sim->dp->comp_cqs, node)
		sim_cq_comp_flush(sim, container_of(s, struct sim_cq, dp.comp));
}
