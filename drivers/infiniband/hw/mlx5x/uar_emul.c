// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A store to a UAR page of the simulated device, completed without the
 * page: as a hypervisor completes a guest's MMIO write to a device it
 * emulates, the driver steps the process past the instruction.
 *
 * The model reads what a doorbell announces from the doorbell records in
 * host memory, never from the UAR page, so a store there has no effect
 * to keep: stepping past it leaves the mapping without a page table
 * entry, and the next doorbell traps too (uar_trap.c).  Only the plain
 * stores a compiler makes of a doorbell or a BlueFlame copy are stepped
 * over (MOV and the SSE/AVX moves to memory, 64-bit code, no string
 * instruction, no lock or segment prefix), and only when the address the
 * instruction names is the one that faulted; anything else gets the page
 * mapped, as before.
 *
 * The operation windows of MEMIC (dm_op_trap.c) use the same decoder for
 * the loads and stores a process makes of one byte or word there: MOV
 * to and from memory, MOVZX and MOVSX from it (mlx5x_emul_decode());
 * the window's operation gives a load its value, which goes to the
 * destination register as the instruction would have put it
 * (mlx5x_emul_finish()).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include "mlx5x.h"

#ifdef CONFIG_X86_64
#include <asm/ptrace.h>

/* The longest x86 instruction. */
#define UE_MAX_INSN	15

struct ue_insn {
	const u8 *b;
	unsigned int n, i;
	bool opsz;		/* 0x66 */
	bool rep;		/* 0xf2 or 0xf3 */
	u8 rex;			/* REX bits W R X B, from REX or VEX */
	bool rexp;		/* a REX prefix */
	bool vex;
	u8 op;
	bool twobyte;		/* 0x0f map */
};

static bool ue_byte(struct ue_insn *d, u8 *v)
{
	if (d->i >= d->n)
		return false;
	*v = d->b[d->i++];
	return true;
}

static bool ue_disp(struct ue_insn *d, unsigned int bytes, s64 *v)
{
	u8 b[4];
	unsigned int k;

	for (k = 0; k < bytes; k++)
		if (!ue_byte(d, &b[k]))
			return false;
	*v = bytes == 1 ? (s8)b[0] :
	     (s32)(b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24);
	return true;
}

/* General register @r (0-15, in encoding order) of the user's context. */
static unsigned long *ue_regp(struct pt_regs *regs, unsigned int r)
{
	switch (r) {
	case 0: return &regs->ax;
	case 1: return &regs->cx;
	case 2: return &regs->dx;
	case 3: return &regs->bx;
	case 4: return &regs->sp;
	case 5: return &regs->bp;
	case 6: return &regs->si;
	case 7: return &regs->di;
	case 8: return &regs->r8;
	case 9: return &regs->r9;
	case 10: return &regs->r10;
	case 11: return &regs->r11;
	case 12: return &regs->r12;
	case 13: return &regs->r13;
	case 14: return &regs->r14;
	default: return &regs->r15;
	}
}

static unsigned long ue_reg(const struct pt_regs *regs, unsigned int r)
{
	return *ue_regp((struct pt_regs *)regs, r);
}

/* Prefixes, REX or VEX, and the opcode. */
static bool ue_opcode(struct ue_insn *d)
{
	u8 b, v1, v2;

	for (;;) {
		if (!ue_byte(d, &b))
			return false;
		if (b == 0x66)
			d->opsz = true;
		else if (b == 0xf2 || b == 0xf3)
			d->rep = true;
		else if (b == 0x2e || b == 0x3e || b == 0x26 || b == 0x36)
			continue;	/* no segment in 64-bit code */
		else
			break;		/* lock, fs, gs, 0x67: not a plain store */
	}
	if ((b & 0xf0) == 0x40) {
		d->rex = b & 0xf;
		d->rexp = true;
		if (!ue_byte(d, &b))
			return false;
	}
	if (b == 0xc5 || b == 0xc4) {
		if (d->rex || d->opsz || d->rep || !ue_byte(d, &v1))
			return false;
		d->vex = true;
		d->twobyte = true;
		/* R, X, B are stored inverted */
		d->rex = (~v1 >> 5) & 0x4;
		if (b == 0xc4) {
			if ((v1 & 0x1f) != 1 || !ue_byte(d, &v2))
				return false;	/* map 0f only */
			d->rex |= (~v1 >> 5) & 0x3;
			d->rex |= (v2 >> 4) & 0x8;
		}
		return ue_byte(d, &d->op);
	}
	if (b == 0x0f) {
		d->twobyte = true;
		return ue_byte(d, &d->op);
	}
	d->op = b;
	return true;
}

/* Bytes of immediate after the operand, or -1 if not a plain store. */
static int ue_store_imm(const struct ue_insn *d, u8 reg)
{
	if (d->twobyte) {
		switch (d->op) {
		case 0x11:	/* movups, movupd, movss, movsd */
		case 0x29:	/* movaps, movapd */
		case 0x2b:	/* movntps, movntpd */
		case 0x7f:	/* movdqa, movdqu, movq mm */
		case 0xe7:	/* movntdq, movntq */
		case 0xd6:	/* movq xmm */
			return 0;
		case 0xc3:	/* movnti */
			return d->vex ? -1 : 0;
		}
		return -1;
	}
	if (d->rep)
		return -1;
	switch (d->op) {
	case 0x88:
	case 0x89:
		return 0;
	case 0xc6:
		return reg ? -1 : 1;
	case 0xc7:
		return reg ? -1 : (d->opsz ? 2 : 4);
	}
	return -1;
}

/* Bytes of a general register operand: 8 with REX.W, 2 with 0x66, or 4. */
static u8 ue_opsize(const struct ue_insn *d)
{
	return d->rex & 8 ? 8 : d->opsz ? 2 : 4;
}

/*
 * A load into a general register: MOV (0x8a, 0x8b), MOVZX and MOVSX
 * (0x0f 0xb6, 0xb7, 0xbe, 0xbf); the bytes it reads, or 0 if not one.
 */
static u8 ue_load_size(const struct ue_insn *d)
{
	if (d->rep || d->vex)
		return 0;
	if (d->twobyte)
		return (d->op & 0xf6) == 0xb6 ? 1 + (d->op & 1) : 0;
	if (d->op == 0x8a)
		return 1;
	return d->op == 0x8b ? ue_opsize(d) : 0;
}

/*
 * Byte register @reg: without a REX prefix, 4 to 7 are AH, CH, DH, BH
 * (bits 8-15 of the first four); the register and the shift.
 */
static unsigned int ue_reg8(const struct ue_insn *d, unsigned int reg,
			    unsigned int *shift)
{
	*shift = !d->rexp && reg >= 4 ? 8 : 0;
	return *shift ? reg - 4 : reg;
}

/* What a store of a general register or an immediate writes. */
static void ue_store_val(const struct ue_insn *d, const struct pt_regs *regs,
			 unsigned int reg, const u8 *imm,
			 struct mlx5x_emul_insn *in)
{
	unsigned int shift, r;
	s64 v;

	in->known = true;
	switch (d->twobyte ? 0x100 | d->op : d->op) {
	case 0x88:
		r = ue_reg8(d, reg, &shift);
		in->val = (ue_reg(regs, r) >> shift) & 0xff;
		return;
	case 0x89:
	case 0x1c3:
		in->val = ue_reg(regs, reg);
		break;
	case 0xc6:
		in->val = imm[0];
		return;
	case 0xc7:
		v = in->size == 2 ? (s16)(imm[0] | imm[1] << 8) :
		    (s32)(imm[0] | imm[1] << 8 | imm[2] << 16 |
			  (u32)imm[3] << 24);
		in->val = v;
		break;
	default:
		in->known = false;
		return;
	}
	if (in->size < 8)
		in->val &= (1ULL << (in->size * 8)) - 1;
}

/* Where the operand is, in @regs' context, and the instruction's length. */
static bool ue_operand(struct ue_insn *d, u8 modrm, int imm,
		       const struct pt_regs *regs, unsigned long *ea)
{
	u8 mod = modrm >> 6, rm = modrm & 7, sib;
	unsigned long addr = 0;
	bool rip = false;
	s64 disp = 0;

	if (rm == 4) {
		unsigned int base, index;

		if (!ue_byte(d, &sib))
			return false;
		base = (sib & 7) | (d->rex & 1) << 3;
		index = ((sib >> 3) & 7) | (d->rex & 2) << 2;
		if (index != 4)
			addr += ue_reg(regs, index) << (sib >> 6);
		if ((sib & 7) == 5 && mod == 0) {
			if (!ue_disp(d, 4, &disp))
				return false;
		} else {
			addr += ue_reg(regs, base);
		}
	} else if (rm == 5 && mod == 0) {
		rip = true;
		if (!ue_disp(d, 4, &disp))
			return false;
	} else {
		addr += ue_reg(regs, rm | (d->rex & 1) << 3);
	}
	if (mod == 1 && !ue_disp(d, 1, &disp))
		return false;
	if (mod == 2 && !ue_disp(d, 4, &disp))
		return false;
	if (d->i + imm > d->n)
		return false;
	if (rip)
		addr = regs->ip + d->i + imm;
	*ea = addr + disp;
	return true;
}

/*
 * Decode the load or store at the start of @buf (@n bytes of it
 * readable), in @regs' context: @in, and the address it reaches.
 */
static bool ue_decode(const u8 *buf, unsigned int n, const struct pt_regs *regs,
		      struct mlx5x_emul_insn *in, unsigned long *ea)
{
	struct ue_insn d = { .b = buf, .n = n };
	unsigned int reg;
	u8 modrm;
	int imm = 0;

	if (!ue_opcode(&d) || !ue_byte(&d, &modrm) || modrm >> 6 == 3)
		return false;		/* to or from a register */
	reg = ((modrm >> 3) & 7) | (d.rex & 4) << 1;
	in->size = ue_load_size(&d);
	in->load = in->size;
	if (!in->load) {
		imm = ue_store_imm(&d, (modrm >> 3) & 7);
		if (imm < 0)
			return false;
		if (!d.twobyte)
			in->size = d.op == 0x88 || d.op == 0xc6 ? 1 :
				   ue_opsize(&d);
		else if (d.op == 0xc3)
			in->size = d.rex & 8 ? 8 : 4;
	}
	if (!ue_operand(&d, modrm, imm, regs, ea))
		return false;
	if (!in->load)
		ue_store_val(&d, regs, reg, buf + d.i, in);
	in->len = d.i + imm;
	in->reg = reg;
	in->op = d.twobyte ? 0x100 | d.op : d.op;
	in->rex = d.rex;
	in->rexp = d.rexp;
	in->opsz = d.opsz;
	return true;
}

/**
 * mlx5x_emul_decode() - decode the faulting process's access
 * @vmf: a fault on a mapping the driver emulates
 * @in: filled in
 *
 * Return: true when the fault was the process's own plain load or store
 * (as uar_emul.c's comment lists them) of the faulting address, a load
 * faulting as a read and a store as a write; the instruction is not
 * stepped over yet (mlx5x_emul_finish()).
 */
bool mlx5x_emul_decode(struct vm_fault *vmf, struct mlx5x_emul_insn *in)
{
	struct pt_regs *regs = task_pt_regs(current);
	u8 buf[UE_MAX_INSN];
	unsigned long ea;
	unsigned int n;

	memset(in, 0, sizeof(*in));
	if ((vmf->flags & (FAULT_FLAG_USER | FAULT_FLAG_REMOTE)) !=
	    FAULT_FLAG_USER ||
	    current->mm != vmf->vma->vm_mm || !user_64bit_mode(regs) ||
	    (regs->flags & X86_EFLAGS_TF))
		return false;
	/* the instruction just ran, so its bytes are mapped */
	n = min_t(unsigned long, UE_MAX_INSN,
		  PAGE_SIZE - offset_in_page(regs->ip));
	if (copy_from_user_nofault(buf, (const void __user *)regs->ip, n))
		return false;
	if (n < UE_MAX_INSN &&
	    !copy_from_user_nofault(buf + n, (const void __user *)
				    (regs->ip + n), UE_MAX_INSN - n))
		n = UE_MAX_INSN;
	if (!ue_decode(buf, n, regs, in, &ea) || ea != vmf->real_address ||
	    in->load == !!(vmf->flags & FAULT_FLAG_WRITE)) {
		in->known = false;
		return false;
	}
	return true;
}

/* Write @v, @size bytes of it, to register @p as an operand of @size. */
static void ue_reg_write(unsigned long *p, u8 size, unsigned int shift, u64 v)
{
	unsigned long mask;

	if (size >= 4) {
		/* a 32-bit destination clears the upper half */
		*p = size == 8 ? v : (u32)v;
		return;
	}
	mask = (size == 1 ? 0xffUL : 0xffffUL) << shift;
	*p = (*p & ~mask) | ((v << shift) & mask);
}

/**
 * mlx5x_emul_finish() - complete a decoded access, step past it
 * @in: from mlx5x_emul_decode()
 * @val: a load's value, @in->size bytes of it
 */
void mlx5x_emul_finish(const struct mlx5x_emul_insn *in, u64 val)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct ue_insn d = { .rex = in->rex, .rexp = in->rexp,
			     .opsz = in->opsz };
	unsigned int shift = 0, r = in->reg;
	u8 dst = ue_opsize(&d);

	if (in->size < 8)
		val &= (1ULL << (in->size * 8)) - 1;
	if (in->load) {
		switch (in->op) {
		case 0x8a:
			r = ue_reg8(&d, r, &shift);
			dst = 1;
			break;
		case 0x1be:
			val = (s64)(s8)val;
			break;
		case 0x1bf:
			val = (s64)(s16)val;
			break;
		}
		ue_reg_write(ue_regp(regs, r), dst, shift, val);
	}
	regs->ip += in->len;
}

/**
 * mlx5x_uar_emulate_store() - step the faulting process past its store
 * @vmf: a fault on a mapping of a UAR page
 * @st: filled in: what the store wrote, when it is an 8-byte store of a
 *	general register (a doorbell as libmlx5 rings it)
 *
 * Return: true when the fault was the process's own plain store to the
 * faulting address, and its instruction pointer now points past it.
 */
bool mlx5x_uar_emulate_store(struct vm_fault *vmf, struct mlx5x_uar_store *st)
{
	struct mlx5x_emul_insn in;

	st->known = false;
	if (!mlx5x_emul_decode(vmf, &in) || in.load)
		return false;
	st->known = in.known && in.size == 8 && in.op != 0xc7;
	st->val = in.val;
	mlx5x_emul_finish(&in, 0);
	return true;
}
#else
bool mlx5x_emul_decode(struct vm_fault *vmf, struct mlx5x_emul_insn *in)
{
	memset(in, 0, sizeof(*in));
	return false;
}

void mlx5x_emul_finish(const struct mlx5x_emul_insn *in, u64 val)
{
}

bool mlx5x_uar_emulate_store(struct vm_fault *vmf, struct mlx5x_uar_store *st)
{
	st->known = false;
	return false;
}
#endif
