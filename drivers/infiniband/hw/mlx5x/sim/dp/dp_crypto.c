// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The bytes of a message that cross a configured crypto mkey
 * (crypto_bsf.c): AES-XTS, with the DEK's cipher of the kernel's crypto
 * API (mem/gen_dek.c), one data unit at a time.
 *
 * A crypto mkey's address space is cut into data units from its start
 * address: unit i is [start + i * unit, start + (i + 1) * unit), and its
 * tweak is the BSF's initial tweak plus i.  The profile's multi-block
 * engine takes the BSF's tweak as a big-endian number
 * (aes_xts_multi_block_be_tweak); AES-XTS (IEEE 1619, and the kernel's
 * xts template) takes the data unit number as 16 little-endian bytes,
 * so the IV is that sum, byte-reversed.  libmlx5 writes the caller's
 * initial_tweak into the BSF byte-reversed: to the caller, the first
 * unit's IV is initial_tweak as given, and each next one that plus 1,
 * little endian.  The memory side holds the
 * plaintext and the wire the ciphertext (encrypted wire orders), or the
 * other way (encrypted memory orders): what the device reads through the
 * mkey is encrypted or decrypted on its way to the wire, what it writes
 * through it is decrypted or encrypted on its way to memory.
 *
 * A unit is ciphered whole, so an access through a crypto mkey covers
 * whole units: a data segment (a gather or scatter entry, or an RDMA
 * range) that starts or ends inside a unit, or a message that ends inside
 * one of the scatter side's units, is a protection error of that side
 * (the requester's LOCAL_PROT for its gather list, the responder's for
 * its receive WQE or rkey).  A unit's bytes may lie on several direct
 * mkeys, through the crypto mkey's KLM entries.  The cipher runs in the
 * worker, under the model's lock (a mutex): it may sleep; a DEK that
 * has gone, or is no longer usable, fails the side that names it.
 */
#include <linux/slab.h>
#include "../mem/crypto.h"
#include "../mem/mkey.h"
#include "../queues/queues.h"
#include "dp_priv.h"
#include "wqe.h"

/* The largest data unit (crypto_bsf.c), and a plain chunk */
#define SIM_CRYPTO_BUF		8192

/**
 * sim_rc_crypto_mark() - note the crypto mkey of a data segment's pieces
 * @sim: the model, its lock held
 * @key: the segment's key, which sim_mkey_xlate_crypto() granted
 * @va: its first byte, in the key's address space
 * @side: the side its pieces were added to
 * @first: its first piece
 */
void sim_rc_crypto_mark(struct mlx5x_sim *sim, u32 key, u64 va,
			struct sim_rc_side *side, unsigned int first)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_MKEY], key >> 8);
	const struct sim_mkey *mkey;
	unsigned int i;
	u64 coff;

	if (!obj)
		return;
	mkey = container_of(obj, struct sim_mkey, obj);
	if (!sim_mkey_crypto(mkey) || !mkey->crypto_configured)
		return;
	coff = va - PRM_GET64(mkc, mkey->mkc, start_addr);
	for (i = first; i < side->n; i++) {
		side->p[i].crypto = mkey;
		side->p[i].coff = coff;
		coff += side->p[i].len;
	}
}

static bool sim_rc_crypto_side(const struct sim_rc_side *side)
{
	unsigned int i;

	for (i = 0; i < side->n; i++)
		if (side->p[i].crypto)
			return true;
	return false;
}

/**
 * sim_rc_crypto_sides() - whether a copy crosses a crypto mkey
 * @src: the side read
 * @dst: the side written
 *
 * Return: true if a piece of either is on one: sim_rc_copy_crypto().
 */
bool sim_rc_crypto_sides(const struct sim_rc_side *src,
			 const struct sim_rc_side *dst)
{
	return sim_rc_crypto_side(src) || sim_rc_crypto_side(dst);
}

/* The piece of @side that byte @at falls in, and where in it; false: none */
static bool sim_crypto_seek(const struct sim_rc_side *side, u64 at,
			    unsigned int *i, u32 *in)
{
	for (*i = 0; *i < side->n && at >= side->p[*i].len; (*i)++)
		at -= side->p[*i].len;
	*in = at;
	return *i < side->n;
}

/* Bytes [@at, @at + @n) of @side's memory to or from @buf, as they are. */
static bool sim_crypto_raw(const struct sim_rc_side *side, u64 at, u8 *buf,
			   u32 n, bool write)
{
	const struct sim_rc_piece *p;
	unsigned int i;
	u32 in, k;

	if (n && !sim_crypto_seek(side, at, &i, &in))
		return false;
	for (; n; i++, in = 0) {
		if (i == side->n)
			return false;
		p = &side->p[i];
		k = min(n, p->len - in);
		if (p->inl) {
			if (write)
				return false;
			memcpy(buf, p->inl + in, k);
		} else if (p->kva) {
			if (write)
				memcpy(p->kva + in, buf, k);
			else
				memcpy(buf, p->kva + in, k);
		} else if (!sim_umem_io(p->umem, p->off + in, buf, k, write)) {
			return false;
		}
		buf += k;
		n -= k;
	}
	return true;
}

/**
 * struct sim_crypto_unit - the data unit a byte of a side falls in
 * @mkey: the crypto mkey
 * @at: the unit's first byte, in the side's bytes
 * @index: its number in the mkey
 */
struct sim_crypto_unit {
	const struct sim_mkey *mkey;
	u64 at;
	u64 index;
};

/*
 * The unit of @side's byte @at (on piece @i, @in bytes into it): false
 * unless all of the unit lies on the side, through the same mkey.
 */
static bool sim_crypto_unit_of(const struct sim_rc_side *side, u64 at,
			       unsigned int i, u32 in,
			       struct sim_crypto_unit *u)
{
	const struct sim_rc_piece *p = &side->p[i];
	u32 size = p->crypto->crypto.unit;
	u64 c = p->coff + in, rel = c % size, want, left = size;

	if (rel > at)
		return false;
	u->mkey = p->crypto;
	u->at = at - rel;
	u->index = c / size;
	want = c - rel;
	if (!sim_crypto_seek(side, u->at, &i, &in))
		return false;
	for (; left; i++, in = 0) {
		if (i == side->n)
			return false;
		p = &side->p[i];
		if (p->crypto != u->mkey || p->coff + in != want)
			return false;
		want += min_t(u64, left, p->len - in);
		left -= min_t(u64, left, p->len - in);
	}
	return true;
}

/* Encrypt or decrypt unit @u in @buf with its mkey's DEK and tweak. */
static bool sim_crypto_cipher(struct mlx5x_sim *sim,
			      const struct sim_crypto_unit *u, u8 *buf,
			      bool encrypt)
{
	const struct sim_mkey *mkey = u->mkey;
	struct crypto_sync_skcipher *tfm;
	__be64 tweak[2];
	__le64 iv[2];
	u64 lo, hi;

	tfm = sim_dek_cipher_of(sim, mkey->obj.uid, mkey->pd->id,
				mkey->crypto.dek);
	if (!tfm)
		return false;
	/* the BSF's big-endian tweak plus the unit's index, little endian */
	memcpy(tweak, mkey->crypto.tweak, sizeof(tweak));
	hi = be64_to_cpu(tweak[0]);
	lo = be64_to_cpu(tweak[1]);
	hi += lo + u->index < lo;
	lo += u->index;
	iv[0] = cpu_to_le64(lo);
	iv[1] = cpu_to_le64(hi);
	return !sim_dek_tfm_crypt(tfm, buf, mkey->crypto.unit, (u8 *)iv,
				  encrypt);
}

/*
 * The bytes [@at, @at + @n) of @src as they go on the wire, into @out;
 * @unit holds a whole unit on the way.
 */
static bool sim_crypto_read(struct mlx5x_sim *sim,
			    const struct sim_rc_side *src, u64 at, u8 *out,
			    u32 n, u8 *unit)
{
	struct sim_crypto_unit u;
	unsigned int i;
	u32 in, k;

	while (n) {
		if (!sim_crypto_seek(src, at, &i, &in))
			return false;
		if (!src->p[i].crypto) {
			k = min(n, src->p[i].len - in);
			if (!sim_crypto_raw(src, at, out, k, false))
				return false;
		} else {
			if (!sim_crypto_unit_of(src, at, i, in, &u) ||
			    !sim_crypto_raw(src, u.at, unit,
					    u.mkey->crypto.unit, false) ||
			    !sim_crypto_cipher(sim, &u, unit,
					       !u.mkey->crypto.mem_encrypted))
				return false;
			k = min_t(u64, n, u.at + u.mkey->crypto.unit - at);
			memcpy(out, unit + (at - u.at), k);
		}
		at += k;
		out += k;
		n -= k;
	}
	return true;
}

static u64 sim_crypto_bytes(const struct sim_rc_side *side)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < side->n; i++)
		n += side->p[i].len;
	return n;
}

/*
 * sim_rc_copy_crypto() - sim_rc_copy() of a message that crosses a crypto
 * mkey on either side: each unit of the destination is written whole,
 * from the source's bytes as they are on the wire (a unit that straddles
 * [@skip, @skip + @len) is written whole each time: the same bytes).
 * Returns as sim_rc_copy() does.
 */
int sim_rc_copy_crypto(struct sim_dp *dp, const struct sim_rc_side *src,
		       const struct sim_rc_side *dst, u64 skip, u64 len)
{
	u64 at = skip, end = skip + len, total = sim_crypto_bytes(src);
	struct sim_crypto_unit u;
	u8 *wire, *unit;
	unsigned int i;
	int bad = 0;
	u32 in, k;

	wire = kmalloc(SIM_CRYPTO_BUF, GFP_KERNEL);
	unit = kmalloc(SIM_CRYPTO_BUF, GFP_KERNEL);
	if (!wire || !unit) {
		bad = 2;
		goto out;
	}
	while (at < end) {
		if (!sim_crypto_seek(dst, at, &i, &in)) {
			bad = 2;
			break;
		}
		if (!dst->p[i].crypto) {
			k = min3(end - at, (u64)dst->p[i].len - in,
				 (u64)SIM_CRYPTO_BUF);
			if (!sim_crypto_read(dp->sim, src, at, wire, k, unit)) {
				bad = 1;
				break;
			}
			if (!sim_crypto_raw(dst, at, wire, k, true)) {
				bad = 2;
				break;
			}
			at += k;
			continue;
		}
		/* a unit of the destination: whole, inside the message */
		if (!sim_crypto_unit_of(dst, at, i, in, &u) ||
		    u.at + u.mkey->crypto.unit > total) {
			bad = 2;
			break;
		}
		k = u.mkey->crypto.unit;
		if (!sim_crypto_read(dp->sim, src, u.at, wire, k, unit)) {
			bad = 1;
			break;
		}
		if (!sim_crypto_cipher(dp->sim, &u, wire,
				       u.mkey->crypto.mem_encrypted) ||
		    !sim_crypto_raw(dst, u.at, wire, k, true)) {
			bad = 2;
			break;
		}
		at = u.at + k;
	}
out:
	kfree(unit);
	kfree(wire);
	return bad;
}
