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
static unsigned long ue_reg(const struct pt_regs *regs, unsigned int r)
{
	switch (r) {
	case 0: return regs->ax;
	case 1: return regs->cx;
	case 2: return regs->dx;
	case 3: return regs->bx;
	case 4: return regs->sp;
	case 5: return regs->bp;
	case 6: return regs->si;
	case 7: return regs->di;
	case 8: return regs->r8;
	case 9: return regs->r9;
	case 10: return regs->r10;
	case 11: return regs->r11;
	case 12: return regs->r12;
	case 13: return regs->r13;
	case 14: return regs->r14;
	default: return regs->r15;
	}
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

/*
 * Decode the store at the start of @buf (@n bytes of it readable): its
 * length, and the address it writes, in @regs' context.
 */
static bool ue_decode(const u8 *buf, unsigned int n, const struct pt_regs *regs,
		      unsigned int *len, unsigned long *ea,
		      struct mlx5x_uar_store *st)
{
	struct ue_insn d = { .b = buf, .n = n };
	unsigned long addr = 0;
	u8 modrm, mod, rm, sib;
	bool rip = false;
	s64 disp = 0;
	int imm;

	if (!ue_opcode(&d) || !ue_byte(&d, &modrm))
		return false;
	mod = modrm >> 6;
	rm = modrm & 7;
	if (mod == 3)
		return false;		/* to a register */
	imm = ue_store_imm(&d, (modrm >> 3) & 7);
	if (imm < 0)
		return false;
	/* MOV r64 to memory: the 8 bytes it writes are a register's */
	st->known = !d.twobyte && d.op == 0x89 && (d.rex & 8) && !d.opsz;
	if (st->known)
		st->val = ue_reg(regs, ((modrm >> 3) & 7) | (d.rex & 4) << 1);
	if (rm == 4) {
		unsigned int base, index;

		if (!ue_byte(&d, &sib))
			return false;
		base = (sib & 7) | (d.rex & 1) << 3;
		index = ((sib >> 3) & 7) | (d.rex & 2) << 2;
		if (index != 4)
			addr += ue_reg(regs, index) << (sib >> 6);
		if ((sib & 7) == 5 && mod == 0) {
			if (!ue_disp(&d, 4, &disp))
				return false;
		} else {
			addr += ue_reg(regs, base);
		}
	} else if (rm == 5 && mod == 0) {
		rip = true;
		if (!ue_disp(&d, 4, &disp))
			return false;
	} else {
		addr += ue_reg(regs, rm | (d.rex & 1) << 3);
	}
	if (mod == 1 && !ue_disp(&d, 1, &disp))
		return false;
	if (mod == 2 && !ue_disp(&d, 4, &disp))
		return false;
	if (d.i + imm > d.n)
		return false;
	*len = d.i + imm;
	if (rip)
		addr = regs->ip + *len;
	*ea = addr + disp;
	return true;
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
	struct pt_regs *regs = task_pt_regs(current);
	u8 buf[UE_MAX_INSN];
	unsigned long ea;
	unsigned int len, n;

	st->known = false;
	if ((vmf->flags & (FAULT_FLAG_USER | FAULT_FLAG_WRITE |
			   FAULT_FLAG_REMOTE)) !=
	    (FAULT_FLAG_USER | FAULT_FLAG_WRITE) ||
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
	if (!ue_decode(buf, n, regs, &len, &ea, st) ||
	    ea != vmf->real_address) {
		st->known = false;
		return false;
	}
	regs->ip += len;
	return true;
}
#else
bool mlx5x_uar_emulate_store(struct vm_fault *vmf, struct mlx5x_uar_store *st)
{
	st->known = false;
	return false;
}
#endif
