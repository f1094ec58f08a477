/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The invariant CRC of a RoCE v2 packet (IBTA Annex A17.3.3), for tests
 * that build frames a remote port would send (mlx5x_roce_wire,
 * mlx5x_wire_counters).
 */
#ifndef MLX5X_ICRC_H
#define MLX5X_ICRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MT_ICRC_MAX	4096	/* the longest packet mt_icrc() takes */

/* CRC-32 (IEEE 802.3, reflected), as zlib's crc32() chains it. */
static inline uint32_t mt_crc32_ieee(uint32_t crc, const uint8_t *p,
				     size_t n)
{
	unsigned int k;

	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320 : crc >> 1;
	}
	return ~crc;
}

/*
 * The ICRC of the RoCE v2 packet at @l3 (@len bytes up to the ICRC, at
 * most MT_ICRC_MAX): over 8 bytes of ones and the packet with its
 * variant fields as ones.
 */
static inline uint32_t mt_icrc(const uint8_t *l3, size_t len, bool v4)
{
	static const uint8_t lrh[8] = { 0xff, 0xff, 0xff, 0xff,
					0xff, 0xff, 0xff, 0xff };
	size_t hl = v4 ? 20 : 40;
	uint8_t m[MT_ICRC_MAX];
	uint32_t crc;

	if (len > sizeof(m))
		return 0;
	memcpy(m, l3, len);
	if (v4) {
		m[1] = m[8] = m[10] = m[11] = 0xff;
	} else {
		m[0] |= 0x0f;
		m[1] = m[2] = m[3] = m[7] = 0xff;
	}
	m[hl + 6] = m[hl + 7] = 0xff;
	m[hl + 8 + 4] = 0xff;
	crc = mt_crc32_ieee(0, lrh, sizeof(lrh));
	return mt_crc32_ieee(crc, m, len);
}

/* The ICRC of the RoCE v2 frame of @len bytes at @f, into its last 4. */
static inline void mt_icrc_seal(uint8_t *f, size_t len, bool v4)
{
	uint32_t c = mt_icrc(f + 14, len - 14 - 4, v4);
	uint8_t *p = f + len - 4;

	p[0] = c;
	p[1] = c >> 8;
	p[2] = c >> 16;
	p[3] = c >> 24;
}

#endif
