// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The operation windows of MEMIC (mlx5dv_dm_map_op_addr()) on a device
 * whose MEMIC is memory of the host (the model).
 *
 * On a ConnectX an operation window is a range of the BAR that the
 * device decodes: a store to byte X of an atomic-increment window adds
 * what it stores to byte X of the allocation, a load from byte X of a
 * test-and-set window returns that byte and sets all its bits (0xff, as
 * rdma-core 44's test_mlx5_dm_ops expects of a ConnectX), each an atomic
 * operation of the device.  The model's windows are pages of the host,
 * which no store reaches the model through, so a mapping of one never
 * gets a page table entry (uar_trap.c, armed for good): every access
 * faults, and the fault handler decodes the instruction (uar_emul.c),
 * has the backend perform the operation (the model: an atomic operation
 * of the CPU on the allocation's bytes), puts a load's result in its
 * register and steps the process past the instruction.
 *
 * Served are the plain MOV, MOVZX and MOVSX of a general register or an
 * immediate, of a size the device memory caps advertise for the window's
 * operation (memic_atomic_increment, memic_atomic_test_and_set), to a
 * byte of the allocation that the instruction names: a store to an
 * increment window, a load from a test-and-set window.  Anything else
 * (a string or SSE instruction, a locked read-modify-write, a size not
 * advertised, a byte past the allocation, a load of an increment window,
 * the kernel's own access through copy_from_user()) is an access the
 * device does not decode: SIGBUS, never memory.
 */
#include <linux/mm.h>
#include "dm.h"

/* Whether the caps advertise @size-byte accesses for operation @op. */
static bool mlx5x_memic_op_size(struct mlx5x_dev *dev, u8 op, u8 size)
{
	size_t off = op == DM_MEMIC_OP_ATOMIC_INC ? DM_CAP_MEMIC_INC_SIZES_OFF :
		     DM_CAP_MEMIC_TAS_SIZES_OFF;
	u32 sizes = prm_get_bits(dev->dm->cap, off, DM_CAP_MEMIC_SIZES_BITS);

	return size && is_power_of_2(size) && (sizes & size);
}

/**
 * mlx5x_memic_op_fault() - an access to a mapping of an operation window
 * @vmf: the fault
 * @mop: the window; its allocation lives as long as the mapping does
 *
 * Return: VM_FAULT_NOPAGE when the access was performed and stepped
 * over, VM_FAULT_SIGBUS for an access the device does not decode.
 */
vm_fault_t mlx5x_memic_op_fault(struct vm_fault *vmf,
				struct mlx5x_memic_op *mop)
{
	struct mlx5x_dm *dm = mop->dm;
	struct mlx5x_dev *dev = to_mdev(dm->ib.device);
	unsigned long off = vmf->real_address - vmf->vma->vm_start;
	unsigned long first = offset_in_page(mop->addr);
	struct mlx5x_emul_insn in;
	u64 old;

	if (off < first || off - first >= dm->req_length)
		return VM_FAULT_SIGBUS;
	off -= first;
	if (!dev->backend->memic_op || !mlx5x_emul_decode(vmf, &in) ||
	    !mlx5x_memic_op_size(dev, mop->op, in.size) ||
	    in.size > dm->req_length - off)
		return VM_FAULT_SIGBUS;
	/* an increment is a store of the addend, a test-and-set a load */
	if (in.load != (mop->op == DM_MEMIC_OP_ATOMIC_TEST_SET) ||
	    (!in.load && !in.known))
		return VM_FAULT_SIGBUS;
	if (dev->backend->memic_op(dev, mop->addr + off, in.size, in.val, &old))
		return VM_FAULT_SIGBUS;
	mlx5x_emul_finish(&in, old);
	return VM_FAULT_NOPAGE;
}
