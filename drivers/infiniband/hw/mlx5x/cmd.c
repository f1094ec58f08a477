// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The command channel: the one place where the method layer hands a PRM
 * mailbox to the backend, firmware or model.
 */
#include <linux/slab.h>
#include "mlx5x.h"

/**
 * mlx5x_cmd_exec() - execute a command mailbox
 * @dev: device
 * @in: input mailbox
 * @inlen: its length
 * @out: output mailbox, status and syndrome in its first 8 bytes
 * @outlen: its length
 *
 * Return: 0 when firmware completed the command with status OK,
 * -EREMOTEIO when it completed it with an error (the output mailbox holds
 * status and syndrome), another negative errno when the command could not
 * be delivered.
 */
int mlx5x_cmd_exec(struct mlx5x_dev *dev, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	int err;

	if (inlen < PRM_CMD_HDR_BYTES || outlen < PRM_OUT_HDR_BYTES)
		return -EINVAL;
	err = dev->backend->exec(dev, in, inlen, out, outlen);
	if (err)
		return err;
	return prm_out_status(out) ? -EREMOTEIO : 0;
}

/**
 * mlx5x_cmd_errno() - the errno a failed command means to a kernel caller
 * @out: output mailbox of a command that completed with an error
 */
int mlx5x_cmd_errno(const void *out)
{
	switch (prm_out_status(out)) {
	case PRM_STAT_OK:
		return 0;
	case PRM_STAT_BAD_OP:
		return -EOPNOTSUPP;
	case PRM_STAT_BAD_PARAM:
	case PRM_STAT_BAD_RESOURCE:
	case PRM_STAT_BAD_INDEX:
	case PRM_STAT_BAD_INPUT_LEN:
	case PRM_STAT_BAD_OUTPUT_LEN:
		return -EINVAL;
	case PRM_STAT_BAD_SYS_STATE:
	case PRM_STAT_INTERNAL_ERR:
		return -EIO;
	case PRM_STAT_RESOURCE_BUSY:
		return -EBUSY;
	case PRM_STAT_EXCEED_LIM:
	case PRM_STAT_NO_RESOURCES:
		return -ENOMEM;
	case PRM_STAT_BAD_RES_STATE:
		return -EINVAL;
	default:
		return -EIO;
	}
}

/**
 * mlx5x_cmd_run() - execute a command the driver itself issues
 * @dev: device
 * @in: input mailbox
 * @inlen: its length
 * @out: output mailbox
 * @outlen: its length
 *
 * Like mlx5x_cmd_exec(), but a firmware error is logged with its status
 * and syndrome and turned into the errno it means.
 */
int mlx5x_cmd_run(struct mlx5x_dev *dev, const void *in, size_t inlen,
		  void *out, size_t outlen)
{
	int err = mlx5x_cmd_exec(dev, in, inlen, out, outlen);

	if (err != -EREMOTEIO)
		return err;
	ibdev_dbg(&dev->ib, "command 0x%x failed: status 0x%x syndrome 0x%x\n",
		  prm_in_opcode(in), prm_out_status(out),
		  prm_out_syndrome(out));
	return mlx5x_cmd_errno(out);
}

/**
 * mlx5x_query_hca_cap() - read one current capability page
 * @dev: device
 * @type: capability type (op_mod bits 15:1)
 * @cap: a new buffer with the page; the caller frees it
 */
int mlx5x_query_hca_cap(struct mlx5x_dev *dev, u16 type, void **cap)
{
	u32 in[PRM_BYTES(query_hca_cap_in) / 4] = {};
	size_t outlen = PRM_BYTES(query_hca_cap_out);
	void *out;
	int err;

	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	PRM_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	PRM_SET(query_hca_cap_in, in, op_mod, PRM_CAP_OPMOD(type, 1));
	err = mlx5x_cmd_run(dev, in, sizeof(in), out, outlen);
	if (err) {
		kfree(out);
		return err;
	}
	*cap = kmemdup(PRM_ADDR(query_hca_cap_out, out, capability),
		       PRM_UN_BYTES(hca_cap_union), GFP_KERNEL);
	kfree(out);
	return *cap ? 0 : -ENOMEM;
}
