// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: block signatures (dp/sig_crc.c) against known vectors, and the
 * signature BSF of mlx5dv_wr_set_mkey_sig_block()'s UMR as
 * sim_sig_bsf_parse() (dp/sig_bsf.c) reads it: the BSFs libmlx5 44
 * writes (taken from its UMRs) are taken with what they configure;
 * reserved bits, CRC64-XP10, unknown block sizes, mixed block sizes and
 * an empty BSF are refused; random bytes never make it take what it
 * does not execute.
 */
#include <kunit/test.h>
#include <linux/random.h>
#include "../dp/sig.h"

#define SK_S_BYTES	64

static const u8 sk_s_check[] = "123456789";

/* The catalogue's check values of each CRC over "123456789". */
static void sk_sig_vectors(struct kunit *test)
{
	const u8 *c = sk_s_check;

	KUNIT_EXPECT_EQ(test, sim_sig_crc16_t10dif(0, c, 9), 0xd0db);
	KUNIT_EXPECT_EQ(test, sim_sig_crc32(true, c, 9), 0xcbf43926);
	KUNIT_EXPECT_EQ(test, sim_sig_crc32c(true, c, 9), 0xe3069283);
	/* RFC 1071's example words 0001 f203 f4f5 f6f7: sum ddf2 */
	KUNIT_EXPECT_EQ(test, sim_sig_ipcs(0, (const u8 *)"\x00\x01\xf2\x03"
					   "\xf4\xf5\xf6\xf7", 8),
			(u16)~0xddf2);
}

/* A T10-DIF is guard, application tag, reference tag (+ block), BE. */
static void sk_sig_dif_layout(struct kunit *test)
{
	struct sim_sig_domain d = {
		.kind = SIM_SIG_T10DIF, .block = 512, .inc_ref = true,
		.apptag = 0xabcd, .reftag = 0x01234567,
	};
	u8 data[512], sig[8];
	u16 guard;

	memset(data, 0x63, sizeof(data));
	guard = sim_sig_crc16_t10dif(0, data, sizeof(data));
	sim_sig_compute(&d, data, 2, sig);
	KUNIT_EXPECT_EQ(test, sig[0] << 8 | sig[1], guard);
	KUNIT_EXPECT_EQ(test, sig[2], 0xab);
	KUNIT_EXPECT_EQ(test, sig[3], 0xcd);
	KUNIT_EXPECT_EQ(test, sig[7], 0x69);	/* 0x67 + block 2 */
	KUNIT_EXPECT_EQ(test, sim_sig_bytes(&d), 8U);
	d.kind = SIM_SIG_CRC32C;
	sim_sig_compute(&d, data, 0, sig);
	KUNIT_EXPECT_EQ(test, (u32)(sig[0] << 24 | sig[1] << 16 |
				    sig[2] << 8 | sig[3]),
			sim_sig_crc32c(false, data, sizeof(data)));
	KUNIT_EXPECT_EQ(test, sim_sig_bytes(&d), 4U);
}

/* The test_mkey_sig_t10dif BSF: wire T10-DIF, 512, PSV 4, all flags. */
static const u8 sk_s_dif[SK_S_BYTES] = {
	0x80, 0xff, 0x01, 0x00, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
	[32] = 0xc0, 0x00, 0xab, 0xcd, 0x01, 0x23, 0x45, 0x67,
	0x01, 0x88, 0x00, 0x00, 0x00, 0x42, 0xff, 0xff,
};

/* The test_mkey_sig_crc one: wire CRC32, seed all ones, PSV 4. */
static const u8 sk_s_crc[SK_S_BYTES] = {
	0x80, 0xf0, 0x01, 0x00, 0xff, 0xff, 0xff, 0xff,
	0x22, 0x00, 0x00, 0x04,
};

/* Memory and wire CRC32C with seed 0, the same structure, copy mask. */
static const u8 sk_s_sbs[SK_S_BYTES] = {
	0x90, 0xf0, 0xf0, 0x03, 0xff, 0xff, 0xff, 0xff,
	0x43, 0x00, 0x00, 0x02, 0x43, 0x00, 0x00, 0x01,
};

static void sk_sig_bsf_good(struct kunit *test)
{
	struct sim_mkey_sig cfg;

	KUNIT_ASSERT_TRUE(test, sim_sig_bsf_parse(sk_s_dif, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.mem.kind, SIM_SIG_NONE);
	KUNIT_EXPECT_EQ(test, cfg.wire.kind, SIM_SIG_T10DIF);
	KUNIT_EXPECT_EQ(test, cfg.wire.block, 512U);
	KUNIT_EXPECT_EQ(test, cfg.wire.psv, 4U);
	KUNIT_EXPECT_TRUE(test, cfg.wire.seed);
	KUNIT_EXPECT_FALSE(test, cfg.wire.ipcs);
	KUNIT_EXPECT_TRUE(test, cfg.wire.inc_ref);
	KUNIT_EXPECT_EQ(test, cfg.wire.escape, 2);
	KUNIT_EXPECT_EQ(test, cfg.wire.apptag, 0xabcd);
	KUNIT_EXPECT_EQ(test, cfg.wire.reftag, 0x01234567U);
	KUNIT_EXPECT_EQ(test, cfg.check, 0xff);

	KUNIT_ASSERT_TRUE(test, sim_sig_bsf_parse(sk_s_crc, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.wire.kind, SIM_SIG_CRC32);
	KUNIT_EXPECT_TRUE(test, cfg.wire.seed);
	KUNIT_EXPECT_EQ(test, cfg.check, 0xf0);

	KUNIT_ASSERT_TRUE(test, sim_sig_bsf_parse(sk_s_sbs, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.mem.kind, SIM_SIG_CRC32C);
	KUNIT_EXPECT_EQ(test, cfg.wire.kind, SIM_SIG_CRC32C);
	KUNIT_EXPECT_EQ(test, cfg.mem.block, 4096U);
	KUNIT_EXPECT_EQ(test, cfg.wire.block, 4096U);
	KUNIT_EXPECT_FALSE(test, cfg.mem.seed);
	KUNIT_EXPECT_EQ(test, cfg.copy, 0xf0);
	KUNIT_EXPECT_EQ(test, cfg.mem.psv, 1U);
	KUNIT_EXPECT_EQ(test, cfg.wire.psv, 2U);
}

/* Each change refused: the byte, and the value put there. */
static void sk_sig_bsf_refused(struct kunit *test)
{
	static const struct {
		const u8 *base;
		u8 at, val;
	} bad[] = {
		{ sk_s_dif, 0, 0x00 },	/* no basic section */
		{ sk_s_dif, 0, 0xc0 },	/* a crypto BSF after it */
		{ sk_s_dif, 0, 0x81 },	/* reserved size bits */
		{ sk_s_dif, 2, 0x05 },	/* 1 GiB blocks */
		{ sk_s_dif, 2, 0x07 },	/* a reserved block size */
		{ sk_s_dif, 3, 0x01 },	/* a block size without signature */
		{ sk_s_dif, 7, 0x00 },	/* a partial raw data size */
		{ sk_s_dif, 15, 0x01 },	/* a PSV without signature */
		{ sk_s_dif, 12, 0x22 },	/* a CRC without a block size */
		{ sk_s_dif, 16, 0x01 },	/* the extended section */
		{ sk_s_dif, 32, 0x00 },	/* inline section not valid */
		{ sk_s_dif, 33, 0x01 },	/* reserved valid/refresh bits */
		{ sk_s_dif, 40, 0x03 },	/* an unknown guard type */
		{ sk_s_dif, 41, 0x08 },	/* no repeating block */
		{ sk_s_dif, 41, 0x89 },	/* reserved seed bits */
		{ sk_s_dif, 42, 0x01 },	/* reserved bytes */
		{ sk_s_dif, 44, 0x01 },
		{ sk_s_dif, 45, 0x43 },	/* both escapes */
		{ sk_s_dif, 45, 0x80 },	/* a reserved flag */
		{ sk_s_dif, 47, 0x00 },	/* a partial application tag mask */
		{ sk_s_crc, 8, 0x52 },	/* CRC64-XP10 */
		{ sk_s_crc, 8, 0x20 },	/* no repeating block */
		{ sk_s_crc, 8, 0x26 },	/* reserved selector bits */
		{ sk_s_crc, 8, 0x32 },	/* an unknown CRC */
		{ sk_s_crc, 8, 0x00 },	/* neither CRC nor T10-DIF */
		{ sk_s_crc, 36, 0x01 },	/* an inline section with a CRC */
		{ sk_s_sbs, 8, 0x23 },	/* copy: kinds differ */
		{ sk_s_sbs, 0, 0x80 },	/* two block sizes (4096, 0xf0) */
	};
	struct sim_mkey_sig cfg;
	u8 b[SK_S_BYTES];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(b, bad[i].base, SK_S_BYTES);
		b[bad[i].at] = bad[i].val;
		KUNIT_EXPECT_FALSE_MSG(test, sim_sig_bsf_parse(b, &cfg),
				       "case %u: byte %u = 0x%02x", i,
				       bad[i].at, bad[i].val);
	}
	/* no signature in either domain */
	memset(b, 0, SK_S_BYTES);
	b[0] = 0x80;
	memset(b + 4, 0xff, 4);
	KUNIT_EXPECT_FALSE(test, sim_sig_bsf_parse(b, &cfg));
}

/* Random changes of a good BSF: what is taken is what is executed. */
static void sk_sig_bsf_random(struct kunit *test)
{
	struct sim_mkey_sig cfg;
	u8 b[SK_S_BYTES];
	unsigned int i, taken = 0;

	for (i = 0; i < 4096; i++) {
		memcpy(b, i & 1 ? sk_s_dif : sk_s_crc, SK_S_BYTES);
		b[get_random_u32() % SK_S_BYTES] = get_random_u32();
		if (!sim_sig_bsf_parse(b, &cfg))
			continue;
		taken++;
		KUNIT_EXPECT_TRUE(test, cfg.mem.kind || cfg.wire.kind);
		KUNIT_EXPECT_LE(test, cfg.mem.kind, SIM_SIG_CRC32C);
		KUNIT_EXPECT_LE(test, cfg.wire.kind, SIM_SIG_CRC32C);
		if (cfg.mem.kind && cfg.wire.kind)
			KUNIT_EXPECT_EQ(test, cfg.mem.block, cfg.wire.block);
		KUNIT_EXPECT_EQ(test, b[0] & ~0x10, 0x80);
		KUNIT_EXPECT_FALSE(test, memchr_inv(b + 16, 0, 16));
	}
	/* tags, check mask and PSV take most changes: some are taken */
	KUNIT_EXPECT_GT(test, taken, 0U);
}

static struct kunit_case sk_sig_bsf_cases[] = {
	KUNIT_CASE(sk_sig_vectors),
	KUNIT_CASE(sk_sig_dif_layout),
	KUNIT_CASE(sk_sig_bsf_good),
	KUNIT_CASE(sk_sig_bsf_refused),
	KUNIT_CASE(sk_sig_bsf_random),
	{}
};

static struct kunit_suite sk_sig_bsf_suite = {
	.name = "mlx5x_sim_sig_bsf",
	.test_cases = sk_sig_bsf_cases,
};

kunit_test_suite(sk_sig_bsf_suite);
