// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues of user contexts (ibv_create_cq and friends through
 * libmlx5): the buffer and doorbell record the process gives are pinned
 * and registered as UMEMs of its context (ubuf.c), the CQ is created on
 * the device's completion EQ of the vector asked for, with the context's
 * UAR for doorbells.  libmlx5 polls and arms the CQ in userspace; the
 * kernel neither polls nor arms it.  MODIFY_CQ changes moderation, or
 * moves the CQ to a new buffer of another size (ibv_resize_cq).  A
 * kernel consumer's CQ is kcq.c's.
 */
#include <linux/log2.h>
#include <linux/mlx5/cq.h>
#include <rdma/mlx5-abi.h>
#include "kverbs.h"

/* cqc.mini_cqe_res_format of libmlx5's one format, or an errno. */
static int mlx5x_cq_mini_format(struct mlx5x_dev *dev,
				const struct mlx5_ib_create_cq *ucmd)
{
	switch (ucmd->cqe_comp_res_format) {
	case MLX5_IB_CQE_RES_FORMAT_HASH:
		return 0;	/* the RSS hash result */
	case MLX5_IB_CQE_RES_FORMAT_CSUM:
		return MLX5_CQE_FORMAT_CSUM;
	case MLX5_IB_CQE_RES_FORMAT_CSUM_STRIDX:
		return MLX5X_CAP_GEN(dev, mini_cqe_resp_stride_index) ?
		       MLX5_CQE_FORMAT_CSUM_STRIDX : -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

static int mlx5x_cq_read_ucmd(struct mlx5x_dev *dev, struct ib_udata *udata,
			      struct mlx5_ib_create_cq *ucmd)
{
	size_t known = sizeof(*ucmd);

	if (udata->inlen < offsetof(struct mlx5_ib_create_cq, flags))
		return -EINVAL;
	if (udata->inlen > known &&
	    !ib_is_udata_cleared(udata, known, udata->inlen - known))
		return -EOPNOTSUPP;
	if (ib_copy_from_udata(ucmd, udata, min(udata->inlen, known)))
		return -EFAULT;
	if (ucmd->cqe_size != 64 && ucmd->cqe_size != 128)
		return -EINVAL;
	if (ucmd->reserved0 || ucmd->reserved1)
		return -EINVAL;
	/* real-time stamps: not in the profile */
	if (ucmd->flags & ~(MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX |
			    MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD))
		return -EOPNOTSUPP;
	if (ucmd->cqe_comp_en > 1 ||
	    (!ucmd->cqe_comp_en && ucmd->cqe_comp_res_format))
		return -EINVAL;
	/* compression: for the CQE size firmware compresses, one format */
	if (ucmd->cqe_comp_en &&
	    !(ucmd->cqe_size == 128 ? MLX5X_CAP_GEN(dev, cqe_compression_128) :
	      MLX5X_CAP_GEN(dev, cqe_compression)))
		return -EOPNOTSUPP;
	if (ucmd->cqe_comp_en && mlx5x_cq_mini_format(dev, ucmd) < 0)
		return mlx5x_cq_mini_format(dev, ucmd);
	/* padding: of 128-byte CQEs, on a device that writes them whole */
	if (ucmd->flags & MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD &&
	    (ucmd->cqe_size != 128 || !MLX5X_CAP_GEN(dev, cqe_128_always)))
		return -EOPNOTSUPP;
	/* no static UARs are handed out: the CQ names a dynamic one */
	if (!(ucmd->flags & MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX))
		return -EINVAL;
	if (ucmd->db_addr % MLX5X_DBR_BYTES)
		return -EINVAL;
	return 0;
}

/**
 * mlx5x_cq_fw_create() - CREATE_CQ for a verbs CQ
 * @dev: the device
 * @cq: the CQ; its uid says whose, its number is set
 * @pl: where its CQEs and doorbell record are, its UAR and CQE size
 * @log_size: log2 of its entries
 * @eqn: the EQ of its completion events
 *
 * Return: 0 or the errno of the command.
 */
int mlx5x_cq_fw_create(struct mlx5x_dev *dev, struct mlx5x_cq *cq,
		       const struct mlx5x_cq_place *pl, unsigned int log_size,
		       u32 eqn)
{
	u32 in[PRM_BYTES(create_cq_in) / 4] = {};
	u32 out[PRM_BYTES(create_cq_out) / 4] = {};
	void *cqc = PRM_ADDR(create_cq_in, in, cq_context);
	int err;

	PRM_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	PRM_SET(create_cq_in, in, uid, cq->uid);
	PRM_SET(create_cq_in, in, cq_umem_valid, 1);
	prm_set_bits(in, MLX5X_CREATE_CQ_UMEM_ID, 32, pl->buf_id);
	PRM_SET(cqc, cqc, cqe_sz, pl->pad ? CQE_STRIDE_128_PAD :
		pl->cqe_size == 128 ? MLX5_CQC_CQE_SZ_128_BYTES :
		MLX5_CQC_CQE_SZ_64_BYTES);
	if (pl->comp) {
		PRM_SET(cqc, cqc, cqe_comp_en, 1);
		PRM_SET(cqc, cqc, mini_cqe_res_format, pl->mini_format);
	}
	PRM_SET(cqc, cqc, log_cq_size, log_size);
	PRM_SET(cqc, cqc, uar_page, pl->uar);
	PRM_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	PRM_SET(cqc, cqc, log_page_size, PAGE_SHIFT - 12);
	PRM_SET(cqc, cqc, dbr_umem_valid, 1);
	prm_set_bits(cqc, MLX5X_CQC_DBR_UMEM_ID, 32, pl->db_id);
	PRM_SET64(cqc, cqc, dbr_addr, pl->db_off);
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		cq->cqn = PRM_GET(create_cq_out, out, cqn);
	return err;
}

int mlx5x_cq_fw_destroy(struct mlx5x_dev *dev, struct mlx5x_cq *cq)
{
	u32 in[PRM_BYTES(destroy_cq_in) / 4] = {};
	u32 out[PRM_BYTES(destroy_cq_out) / 4] = {};

	PRM_SET(destroy_cq_in, in, opcode, MLX5_CMD_OP_DESTROY_CQ);
	PRM_SET(destroy_cq_in, in, uid, cq->uid);
	PRM_SET(destroy_cq_in, in, cqn, cq->cqn);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

static int mlx5x_cq_create(struct ib_cq *ibcq,
			   const struct ib_cq_init_attr *attr,
			   struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibcq->device);
	struct mlx5_ib_create_cq_resp resp = {};
	struct mlx5_ib_create_cq ucmd = {};
	struct mlx5x_ucontext *uctx;
	struct mlx5x_cq *cq = to_mcq(ibcq);
	struct mlx5x_cq_place pl;
	unsigned int log_size;
	u32 eqn;
	int err;

	/*
	 * Completion timestamps: every CQE carries the device's clock, the
	 * consumer (libmlx5) reads it; a kernel CQ's ib_wc has no room
	 * for one.  Anything else (IGNORE_OVERRUN) is not offered.
	 */
	if (attr->flags & ~IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION ||
	    (attr->flags && !udata))
		return -EOPNOTSUPP;
	if (attr->cqe <= 0 ||
	    attr->cqe >= (1 << MLX5X_CAP_GEN(dev, log_max_cq_sz)))
		return -EINVAL;
	/* a kernel consumer's: the driver polls it (kcq.c) */
	if (!udata)
		return mlx5x_kcq_create(dev, cq, attr);
	err = mlx5x_cq_read_ucmd(dev, udata, &ucmd);
	if (err)
		return err;
	err = dev->backend->comp_eqn(dev, attr->comp_vector, &eqn);
	if (err)
		return -EINVAL;
	uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ucontext, ib);
	cq->uid = uctx->devx_uid;

	cq->cqe_size = ucmd.cqe_size;
	mutex_init(&cq->resize_mutex);
	/* one entry more than asked for, to a power of two, as mlx5 does */
	log_size = order_base_2(attr->cqe + 1);
	err = mlx5x_ubuf_get(dev, cq->uid, ucmd.buf_addr,
			     (size_t)ucmd.cqe_size << log_size,
			     IB_ACCESS_LOCAL_WRITE, &cq->buf);
	if (err)
		return err;
	err = mlx5x_ubuf_get(dev, cq->uid, ucmd.db_addr, MLX5X_DBR_BYTES,
			     IB_ACCESS_LOCAL_WRITE, &cq->db);
	if (err)
		goto err_buf;
	pl = (struct mlx5x_cq_place){
		.buf_id = cq->buf.id,
		.db_id = cq->db.id,
		.uar = ucmd.uar_page_index,
		.cqe_size = ucmd.cqe_size,
		.pad = !!(ucmd.flags & MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD),
		.comp = ucmd.cqe_comp_en,
	};
	if (pl.comp)
		pl.mini_format = mlx5x_cq_mini_format(dev, &ucmd);
	err = mlx5x_cq_fw_create(dev, cq, &pl, log_size, eqn);
	if (err)
		goto err_db;
	/* completion events find it by number (mlx5x_cq_comp_event()) */
	err = xa_err(xa_store(&dev->cqs, cq->cqn, cq, GFP_KERNEL));
	if (err)
		goto err_fw;
	ibcq->cqe = (1 << log_size) - 1;

	resp.cqn = cq->cqn;
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err)
		goto err_cq;
	return 0;

err_cq:
	xa_erase(&dev->cqs, cq->cqn);
err_fw:
	mlx5x_cq_fw_destroy(dev, cq);
err_db:
	mlx5x_ubuf_put(dev, &cq->db);
err_buf:
	mlx5x_ubuf_put(dev, &cq->buf);
	return err;
}

/* The create_cq device operation; its last argument differs (compat.h). */
#ifdef MLX5X_CREATE_CQ_TAKES_ATTRS
int mlx5x_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct uverbs_attr_bundle *attrs)
{
	return mlx5x_cq_create(ibcq, attr, attrs ? &attrs->driver_udata : NULL);
}
#else
int mlx5x_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata)
{
	return mlx5x_cq_create(ibcq, attr, udata);
}
#endif

int mlx5x_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibcq->device);
	struct mlx5x_cq *cq = to_mcq(ibcq);
	int err;

	/*
	 * No completion event reaches it once firmware freed its number for
	 * another CQ: out of the table first.  A DEVX object of the context
	 * may still use it: firmware says so, and then it stays.
	 */
	if (cq->k) {
		mlx5x_kcq_destroy(dev, cq);
		return 0;
	}
	xa_erase(&dev->cqs, cq->cqn);
	err = mlx5x_cq_fw_destroy(dev, cq);
	if (err) {
		xa_store(&dev->cqs, cq->cqn, cq, GFP_KERNEL);
		return err;
	}
	mlx5x_ubuf_put(dev, &cq->db);
	mlx5x_ubuf_put(dev, &cq->buf);
	return 0;
}

int mlx5x_modify_cq(struct ib_cq *ibcq, u16 count, u16 period)
{
	struct mlx5x_dev *dev = to_mdev(ibcq->device);
	struct mlx5x_cq *cq = to_mcq(ibcq);
	u32 in[PRM_BYTES(modify_cq_in) / 4] = {};
	u32 out[PRM_BYTES(modify_cq_out) / 4] = {};
	void *cqc = PRM_ADDR(modify_cq_in, in, cq_context);

	if (!MLX5X_CAP_GEN(dev, cq_moderation))
		return -EOPNOTSUPP;
	if (period > MLX5_MAX_CQ_PERIOD)
		return -EINVAL;
	PRM_SET(modify_cq_in, in, opcode, MLX5_CMD_OP_MODIFY_CQ);
	PRM_SET(modify_cq_in, in, op_mod, MLX5_MODIFY_CQ_IN_OP_MOD_MODIFY_CQ);
	PRM_SET(modify_cq_in, in, uid, cq->uid);
	PRM_SET(modify_cq_in, in, cqn, cq->cqn);
	PRM_SET(modify_cq_in, in,
		modify_field_select_resize_field_select.modify_field_select
		.modify_field_select,
		MLX5_CQ_MODIFY_PERIOD | MLX5_CQ_MODIFY_COUNT);
	PRM_SET(cqc, cqc, cq_period, period);
	PRM_SET(cqc, cqc, cq_max_count, count);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/* MODIFY_CQ's RESIZE_CQ: the CQ to @log_size entries in buffer @buf. */
static int mlx5x_cq_fw_resize(struct mlx5x_dev *dev, struct mlx5x_cq *cq,
			      unsigned int log_size,
			      const struct mlx5x_ubuf *buf)
{
	u32 in[PRM_BYTES(modify_cq_in) / 4] = {};
	u32 out[PRM_BYTES(modify_cq_out) / 4] = {};
	void *cqc = PRM_ADDR(modify_cq_in, in, cq_context);

	PRM_SET(modify_cq_in, in, opcode, MLX5_CMD_OP_MODIFY_CQ);
	PRM_SET(modify_cq_in, in, op_mod, MLX5_MODIFY_CQ_IN_OP_MOD_RESIZE_CQ);
	PRM_SET(modify_cq_in, in, uid, cq->uid);
	PRM_SET(modify_cq_in, in, cqn, cq->cqn);
	PRM_SET(modify_cq_in, in,
		modify_field_select_resize_field_select.resize_field_select
		.resize_field_select,
		MLX5_RESIZE_FIELD_SELECT_RESIZE_FIELD_SELECT_LOG_CQ_SIZE);
	PRM_SET(cqc, cqc, log_cq_size, log_size);
	PRM_SET(modify_cq_in, in, cq_umem_valid, 1);
	/* modify_cq_in has the umem where create_cq_in has it */
	prm_set_bits(in, MLX5X_CREATE_CQ_UMEM_ID, 32, buf->id);
	return mlx5x_cmd_run(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * mlx5x_resize_cq() - the resize_cq device operation (ibv_resize_cq)
 * @ibcq: the CQ
 * @entries: at least this many entries
 * @udata: libmlx5's command: the new buffer, its CQE size
 *
 * The new buffer is pinned, the device moves the CQ to it (the CQEs not
 * yet polled stay, libmlx5 copies them over), then the old buffer is
 * released.  A size the CQ already has changes nothing, as on mlx5_ib.
 *
 * Return: 0, -EINVAL for a size past the device's or fewer entries than
 * are waiting to be polled, -EOPNOTSUPP for a kernel CQ, or the errno of
 * pinning the buffer.
 */
int mlx5x_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct mlx5x_dev *dev = to_mdev(ibcq->device);
	struct mlx5x_cq *cq = to_mcq(ibcq);
	struct mlx5_ib_resize_cq ucmd;
	struct mlx5x_ubuf buf, old;
	unsigned int log_size;
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	if (entries < 1 ||
	    entries >= (1 << MLX5X_CAP_GEN(dev, log_max_cq_sz)))
		return -EINVAL;
	if (udata->inlen < sizeof(ucmd))
		return -EINVAL;
	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	if (ucmd.reserved0 || ucmd.reserved1 ||
	    ucmd.cqe_size != cq->cqe_size)
		return -EINVAL;
	log_size = order_base_2(entries + 1);
	mutex_lock(&cq->resize_mutex);
	if (log_size == order_base_2(ibcq->cqe + 1)) {
		err = 0;
		goto out;
	}
	err = mlx5x_ubuf_get(dev, cq->uid, ucmd.buf_addr,
			     (size_t)ucmd.cqe_size << log_size,
			     IB_ACCESS_LOCAL_WRITE, &buf);
	if (err)
		goto out;
	err = mlx5x_cq_fw_resize(dev, cq, log_size, &buf);
	if (err) {
		mlx5x_ubuf_put(dev, &buf);
		goto out;
	}
	old = cq->buf;
	cq->buf = buf;
	ibcq->cqe = (1 << log_size) - 1;
	mlx5x_ubuf_put(dev, &old);
out:
	mutex_unlock(&cq->resize_mutex);
	return err;
}

/**
 * mlx5x_cq_comp_event() - a completion event of CQ @cqn: its handler runs
 * @dev: the device
 * @cqn: the CQ, a verbs one or not
 *
 * Called from the backend's event handler, which the CQ's destroy
 * command waits for (the model's lock): a CQ found here is not freed
 * before this returns.  ib_uverbs' handler queues the event on the CQ's
 * completion channel, where ibv_get_cq_event() finds it.
 */
void mlx5x_cq_comp_event(struct mlx5x_dev *dev, u32 cqn)
{
	struct mlx5x_cq *cq = xa_load(&dev->cqs, cqn);

	if (!cq)
		return;
	/* the next arm names the next event (a process's: libmlx5 counts) */
	if (cq->k)
		WRITE_ONCE(cq->k->arm_sn, cq->k->arm_sn + 1);
	if (cq->ib.comp_handler)
		cq->ib.comp_handler(&cq->ib, cq->ib.cq_context);
}

/**
 * mlx5x_cq_event() - a CQ error of a verbs CQ: IB_EVENT_CQ_ERR
 * @dev: the device
 * @eqe: the model's event (any type: others are not this function's)
 *
 * A CQ overrun, or a CQ buffer the device may not write, takes the CQ to
 * error; ib_uverbs' handler queues the event for ibv_get_async_event().
 * Called as mlx5x_cq_comp_event() is: the CQ is not freed meanwhile.
 */
void mlx5x_cq_event(struct mlx5x_dev *dev, const void *eqe)
{
	struct ib_event ev = { .device = &dev->ib, .event = IB_EVENT_CQ_ERR };
	struct mlx5x_cq *cq;

	if (PRM_GET(eqe, eqe, event_type) != MLX5_EVENT_TYPE_CQ_ERROR)
		return;
	cq = xa_load(&dev->cqs, PRM_GET(cq_error, PRM_ADDR(eqe, eqe,
							   event_data),
					cqn));
	if (!cq || !cq->ib.event_handler)
		return;
	ev.element.cq = &cq->ib;
	cq->ib.event_handler(&ev, cq->ib.cq_context);
}
