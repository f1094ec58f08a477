// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the crypto BSF of mlx5dv_wr_set_mkey_crypto()'s UMR, as
 * sim_crypto_bsf_parse() (dp/crypto_bsf.c) reads it: the BSF libmlx5 44
 * writes is taken, with what it configures; each encryption order and
 * data unit selector; every reserved byte, a foreign size or type, a
 * standard other than AES-XTS, a partial raw data size and the DEK
 * pointer's reserved bits are refused; random bytes never make it take
 * what it does not execute.
 */
#include <kunit/test.h>
#include "../mem/mkey.h"
#include "../dp/umr.h"

#define SK_B_BYTES	64

/* A crypto BSF as libmlx5 writes it: order 0, 512-byte units, DEK 0x123 */
static void sk_b_good(u8 *b)
{
	static const u8 tweak[16] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5,
				      0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab,
				      0xac, 0xad, 0xae, 0xaf };

	memset(b, 0, SK_B_BYTES);
	b[0] = 0x81;			/* 64 bytes (2 << 6), crypto (1) */
	memset(b + 4, 0xff, 4);		/* raw data size: all */
	b[8] = 1;			/* 512 bytes */
	memcpy(b + 16, tweak, sizeof(tweak));
	b[34] = 0x01;			/* DEK 0x000123, big endian */
	b[35] = 0x23;
	memset(b + 40, 0x5c, 8);	/* keytag: taken as given */
}

static void sk_crypto_bsf_good(struct kunit *test)
{
	struct sim_mkey_crypto cfg = {};
	u8 b[SK_B_BYTES];

	sk_b_good(b);
	KUNIT_ASSERT_TRUE(test, sim_crypto_bsf_parse(b, &cfg));
	KUNIT_EXPECT_EQ(test, cfg.dek, 0x123);
	KUNIT_EXPECT_FALSE(test, cfg.mem_encrypted);
	KUNIT_EXPECT_EQ(test, cfg.unit, 512);
	KUNIT_EXPECT_EQ(test, memcmp(cfg.tweak, b + 16, 16), 0);
}

/* Orders 0 and 2 hold ciphertext on the wire, 1 and 3 in memory. */
static void sk_crypto_bsf_orders(struct kunit *test)
{
	struct sim_mkey_crypto cfg;
	u8 b[SK_B_BYTES];
	unsigned int o;

	for (o = 0; o < 4; o++) {
		sk_b_good(b);
		b[1] = o;
		KUNIT_EXPECT_TRUE(test, sim_crypto_bsf_parse(b, &cfg));
		KUNIT_EXPECT_EQ(test, cfg.mem_encrypted, o & 1);
	}
	for (o = 4; o < 256; o += 17) {
		b[1] = o;
		KUNIT_EXPECT_FALSE(test, sim_crypto_bsf_parse(b, &cfg));
	}
}

/* Data unit selectors: the five the model ciphers; 1 MiB and others not. */
static void sk_crypto_bsf_units(struct kunit *test)
{
	static const u32 unit[8] = { 0, 512, 520, 4096, 4160, 0, 4048, 0 };
	struct sim_mkey_crypto cfg;
	u8 b[SK_B_BYTES];
	unsigned int s;

	for (s = 0; s < ARRAY_SIZE(unit); s++) {
		sk_b_good(b);
		b[8] = s;
		cfg.unit = 0;
		KUNIT_EXPECT_EQ(test, sim_crypto_bsf_parse(b, &cfg), !!unit[s]);
		if (unit[s])
			KUNIT_EXPECT_EQ(test, cfg.unit, unit[s]);
	}
}

/* Each byte that must hold one value, spoilt alone, is refused. */
static void sk_crypto_bsf_refused(struct kunit *test)
{
	static const u8 fixed[] = {
		0,			/* size and type */
		2,			/* reserved */
		3,			/* standard */
		4, 5, 6, 7,		/* raw data size */
		9, 10, 11, 12, 13, 14, 15,
		32,			/* the DEK pointer's reserved bits */
		36, 37, 38, 39,
		48, 49, 50, 51, 52, 53, 54, 55,
		56, 57, 58, 59, 60, 61, 62, 63,
	};
	struct sim_mkey_crypto cfg;
	u8 b[SK_B_BYTES];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fixed); i++) {
		sk_b_good(b);
		b[fixed[i]] ^= 0x01;
		KUNIT_EXPECT_FALSE_MSG(test, sim_crypto_bsf_parse(b, &cfg),
				       "byte %u", fixed[i]);
	}
	/* a signature BSF's size and type, a 32-byte crypto one */
	sk_b_good(b);
	b[0] = 0x80;
	KUNIT_EXPECT_FALSE(test, sim_crypto_bsf_parse(b, &cfg));
	b[0] = 0x41;
	KUNIT_EXPECT_FALSE(test, sim_crypto_bsf_parse(b, &cfg));
	/* the tweak and keytag are anything */
	sk_b_good(b);
	memset(b + 16, 0xff, 16);
	memset(b + 40, 0, 8);
	KUNIT_EXPECT_TRUE(test, sim_crypto_bsf_parse(b, &cfg));
}

/*
 * Hostile BSFs: 4096 of random bytes around a good one (a few bytes
 * each, from a fixed seed).  Whatever is taken configures a unit the
 * model ciphers and a 24-bit DEK, and came with no reserved byte set.
 */
static void sk_crypto_bsf_random(struct kunit *test)
{
	static const u8 reserved[] = { 2, 9, 10, 11, 12, 13, 14, 15, 32,
				       36, 37, 38, 39, 48, 55, 63 };
	struct sim_mkey_crypto cfg;
	u32 x = 0x2545f491, taken = 0;
	unsigned int n, k, r;
	u8 b[SK_B_BYTES];

	for (n = 0; n < 4096; n++) {
		sk_b_good(b);
		for (k = 0; k < 1 + n % 4; k++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			b[x % SK_B_BYTES] = x >> 8;
		}
		if (!sim_crypto_bsf_parse(b, &cfg))
			continue;
		taken++;
		KUNIT_EXPECT_TRUE(test, cfg.unit == 512 || cfg.unit == 520 ||
				  cfg.unit == 4048 || cfg.unit == 4096 ||
				  cfg.unit == 4160);
		KUNIT_EXPECT_LT(test, cfg.dek, 1U << 24);
		KUNIT_EXPECT_EQ(test, b[0], 0x81);
		for (r = 0; r < ARRAY_SIZE(reserved); r++)
			KUNIT_EXPECT_EQ(test, b[reserved[r]], 0);
	}
	/* the tweak and keytag take most changes: some are taken */
	KUNIT_EXPECT_GT(test, taken, 0U);
}

static struct kunit_case sk_crypto_bsf_cases[] = {
	KUNIT_CASE(sk_crypto_bsf_good),
	KUNIT_CASE(sk_crypto_bsf_orders),
	KUNIT_CASE(sk_crypto_bsf_units),
	KUNIT_CASE(sk_crypto_bsf_refused),
	KUNIT_CASE(sk_crypto_bsf_random),
	{}
};

static struct kunit_suite sk_crypto_bsf_suite = {
	.name = "mlx5x_sim_crypto_bsf",
	.test_cases = sk_crypto_bsf_cases,
};

kunit_test_suite(sk_crypto_bsf_suite);
