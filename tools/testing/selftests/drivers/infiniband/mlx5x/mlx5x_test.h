/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Shared helpers of the mlx5x selftests: TAP output in kselftest's format,
 * the device under test, the firmware model's debugfs, PRM mailboxes.
 *
 * Each program is a table of cases run by mt_main() (mlx5x_harness.c),
 * each case alone or on a fixture (struct mt_fixture).  A case returns
 * KSFT_PASS, KSFT_FAIL or KSFT_SKIP (with a reason set by mt_skip()); a
 * failed CHECK*() inside a case fails it whatever it returns.
 *
 * Environment:
 *   MLX5X_DEV     the device to test; default: the first ibv device whose
 *                 name starts with "mlx5x"
 *   MLX5X_NETDEV  the netdev of its port; cases that change it skip if unset
 *   MLX5X_NO_MODEL  set (not "0"): ignore the model's debugfs, as on
 *                 hardware, so a simulated device shows what a real one
 *                 would skip
 *
 * On the simulated device the firmware model's debugfs
 * (/sys/kernel/debug/mlx5x/DEV/fw) is used to see its object table and to
 * inject faults; on hardware the cases that need it skip.
 */
#ifndef MLX5X_TEST_H
#define MLX5X_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <infiniband/verbs.h>
#include "mlx5x_prm.h"

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

#define MT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The kernel's __printf(): the compiler checks the format and arguments. */
#ifndef __printf
#define MT_ATTRIBUTE(a)		__attribute__(a)
#define __printf(a, b)		MT_ATTRIBUTE((format(printf, a, b)))
#endif

/* The device under test. */
struct mt_env {
	char dev_name[64];
	struct ibv_device **list;
	struct ibv_device *dev;
	const char *netdev;	/* MLX5X_NETDEV, or NULL */
	char dbg[256];		/* the model's fw/ directory, "" if none */
};

extern struct mt_env mt;

/* Flags of a case. */
/*
 * MT_SHARED: the case makes what the cases after it share (a context kept
 * in a static); the fault sweep runs it, unarmed, before each later case's
 * own run.  A fixture (below) is the better tool for new cases.
 */
#define MT_SHARED	1U
/* Needs: a case whose needs are not met here skips, saying which. */
#define MT_NEEDS_MODEL	2U	/* the firmware model's debugfs (mt_sim()) */
#define MT_NEEDS_ROOT	4U	/* euid 0: to drop to other users, set knobs */
#define MT_NEEDS_NETDEV	8U	/* MLX5X_NETDEV, the port's netdev */

/**
 * struct mt_fixture - the state a case works on, made afresh for each run
 * @name: the fixture's name
 * @size: the state's size; it starts zeroed
 * @setup: makes it; returns KSFT_PASS, or KSFT_SKIP (with mt_skip()) or
 *	   KSFT_FAIL, and then the case does not run
 * @teardown: frees what the setup got to; runs after every setup, also one
 *	      that stopped half way, whatever the case returned
 *
 * The shape of kselftest_harness.h's FIXTURE, FIXTURE_SETUP,
 * FIXTURE_TEARDOWN and TEST_F, on a table of cases:
 *
 *	struct env { struct ibv_context *ctx; };
 *	MT_FIXTURE(env);
 *	MT_FIXTURE_SETUP(env) { self->ctx = ...; return KSFT_PASS; }
 *	MT_FIXTURE_TEARDOWN(env) { if (self->ctx) ...; }
 *	MT_TEST_F(env, name) { ... self->ctx ...; return KSFT_PASS; }
 *	static const struct mt_case cases[] = {
 *		MT_CASE_F(env, name, .flags = MT_NEEDS_MODEL),
 *	};
 *
 * A check that fails in the setup or the teardown fails the case.
 */
struct mt_fixture {
	const char *name;
	size_t size;
	int (*setup)(void *self);
	void (*teardown)(void *self);
};

/*
 * A case is run(), or, made of independent parts (each making and
 * freeing its own, nothing shared between them), part(0) to
 * part(parts - 1) in turn.  The fault sweep sweeps each part on its own,
 * as "NAME/I": a point costs its part up to it, not the whole case, and
 * MLX5X_ONLY=NAME/I runs that part alone.  A case on a fixture is
 * run_f() or part_f() instead, each run (each part) on a fixture of its
 * own.
 */
struct mt_case {
	const char *name;
	int (*run)(void);
	unsigned int flags;
	int (*part)(unsigned int i);
	unsigned int parts;
	/* why the fault sweep leaves the case out, which it says; or NULL */
	const char *unswept;
	const struct mt_fixture *fixture;
	int (*run_f)(void *self);
	int (*part_f)(void *self, unsigned int i);
};

/* struct @fx's fixture: declares its setup and teardown, defines fx_fixture */
#define MT_FIXTURE(fx)							\
	static int fx##_setup(struct fx *self);				\
	static void fx##_teardown(struct fx *self);			\
	static int fx##_setup_any(void *self)				\
	{								\
		return fx##_setup(self);				\
	}								\
	static void fx##_teardown_any(void *self)			\
	{								\
		fx##_teardown(self);					\
	}								\
	static const struct mt_fixture fx##_fixture = {			\
		.name = #fx,						\
		.size = sizeof(struct fx),				\
		.setup = fx##_setup_any,				\
		.teardown = fx##_teardown_any,				\
	}
#define MT_FIXTURE_SETUP(fx)	static int fx##_setup(struct fx *self)
#define MT_FIXTURE_TEARDOWN(fx)	static void fx##_teardown(struct fx *self)

/* A case's body on fixture @fx: test_NAME(self) */
#define MT_TEST_F(fx, nm)						\
	static int test_##nm(struct fx *self);				\
	static int test_##nm##_any(void *self)				\
	{								\
		return test_##nm(self);					\
	}								\
	static int test_##nm(struct fx *self)
/* A case of parts on fixture @fx: test_NAME(self, i), a fixture per part */
#define MT_TEST_F_PARTS(fx, nm)						\
	static int test_##nm(struct fx *self, unsigned int i);		\
	static int test_##nm##_any(void *self, unsigned int i)		\
	{								\
		return test_##nm(self, i);				\
	}								\
	static int test_##nm(struct fx *self, unsigned int i)

/* Entries of a table of cases; the rest are designated initializers. */
#define MT_CASE(nm, ...)	{ .name = #nm, .run = test_##nm, __VA_ARGS__ }
#define MT_CASE_F(fx, nm, ...)	MT_CASE_ON(fx##_fixture, nm, __VA_ARGS__)
/* A case of MT_TEST_F(type, nm) on a fixture of another name (shared ones) */
#define MT_CASE_ON(fxobj, nm, ...)					\
	{ .name = #nm, .fixture = &(fxobj), .run_f = test_##nm##_any,	\
	  __VA_ARGS__ }
#define MT_CASE_F_PARTS(fx, nm, n, ...)					\
	{ .name = #nm, .fixture = &fx##_fixture,			\
	  .part_f = test_##nm##_any, .parts = (n), __VA_ARGS__ }

int mt_main(const struct mt_case *cases, unsigned int n);
int mt_case_run(const struct mt_case *c, int part);

/* Fault injection around cases (mlx5x_faults.c). */
void mt_fault_setup(void);
void mt_fault_arm(void);
void mt_fault_report(const char *name);
long mt_slab_hold(void);
void mt_slab_resume(long held);
pid_t mt_fork(void);
pid_t mt_waitpid(pid_t pid, int *status, int options);
bool mt_sweeping(void);
unsigned int mt_loop_size(unsigned int n, unsigned int swept);
int mt_sweep_case(const struct mt_case *cases, unsigned int i, int part);
void mt_sweep_summary(void);
__printf(1, 2) int mt_skip(const char *fmt, ...);
__printf(1, 2) void mt_diag(const char *fmt, ...);
int mt_refresh_device(void);
int mt_find_device(const char *want, char *why, size_t len);

__printf(4, 5)
bool mt_check(bool ok, const char *file, int line, const char *fmt, ...);
bool mt_check_eq(long long got, long long want, const char *sgot,
		 const char *swant, const char *file, int line);
bool mt_check_err(int got, int want, const char *sgot, const char *file,
		  int line);
unsigned int mt_case_failures(void);

/* A failed check is reported and fails the case; each yields the result. */
#define CHECK(cond)							\
	mt_check(!!(cond), __FILE__, __LINE__, "%s", #cond)
#define CHECK_EQ(got, want)						\
	mt_check_eq((long long)(got), (long long)(want), #got, #want,	\
		    __FILE__, __LINE__)
/* an errno value: 0, positive as libibverbs returns them, or negative */
#define CHECK_ERR(got, want)						\
	mt_check_err((got), (want), #got, __FILE__, __LINE__)

/*
 * Other users (mlx5x_users.c): cases that try what an unprivileged
 * process can do run it in a child that drops to such a user.
 */
#define MT_UID_NOBODY		65534
#define MT_CAP(c)		(1ULL << (c))
/* mt_run_as(): the child's function returned, but a check in it failed */
#define MT_CHILD_FAILED		101

bool mt_drop_to(uid_t uid, uint64_t keep);
int mt_reap(pid_t pid);
int mt_run_as(uid_t uid, uint64_t keep, int (*fn)(void *), void *arg);

/* Commands and the netdev. */
__printf(1, 2) int mt_sh(const char *fmt, ...);
long mt_now_ms(void);
int mt_read_file(const char *path, char *buf, size_t len);
int mt_write_file(const char *path, const char *val);
int mt_param_get(const char *name, long *val);
int mt_param_set(const char *name, long val);

/* The netdev (mlx5x_netdev.c): changed through rtnetlink, in this thread. */
enum mt_switch { MT_KEEP, MT_ON, MT_OFF };
struct mt_link {
	enum mt_switch up, carrier, arp;
	int mtu;		/* 0: kept */
};

int mt_netdev_mtu(void);
int mt_netdev_mac(uint8_t mac[6]);
int mt_netdev_set(const struct mt_link *l);
int mt_netdev_set_up(void);

/* Contexts. */
enum mt_open_mode {
	MT_OPEN_DEFAULT,	/* ibv_open_device(): libmlx5 asks for DEVX */
	MT_OPEN_DEVX,		/* mlx5dv_open_device(MLX5DV_CONTEXT_FLAGS_DEVX) */
	MT_OPEN_NODEVX,		/* DEVX refused by the model: needs mt_sim() */
};

struct ibv_context *mt_open(enum mt_open_mode mode, int *uid);
int mt_wait_event(struct ibv_context *ctx, enum ibv_event_type type,
		  int timeout_ms, int *port);
bool mt_try_write64(void *addr, uint64_t val);
int mt_signal_of(void (*fn)(uint8_t *p), uint8_t *p);

/* The firmware model: its object table, statistics and fault injection. */
struct mt_obj {
	char type[16];
	uint32_t id;
	uint32_t uid;
	uint32_t users;
};

struct mt_objs {
	unsigned int n;
	struct mt_obj *v;
};

bool mt_sim(void);
int mt_fw_read(struct mt_objs *s);
void mt_fw_free(struct mt_objs *s);
int mt_fw_total(void);
int mt_fw_count(const char *type, long uid);
const struct mt_obj *mt_fw_find(const struct mt_objs *s, const char *type,
				uint32_t id);
bool mt_fw_check_owner(const char *type, uint32_t id, int uid);
unsigned int mt_fw_added(const struct mt_objs *before,
			 const struct mt_objs *after, const char *type,
			 struct mt_obj *out, unsigned int max);
int mt_fw_write(const char *file, const char *val);
int mt_fw_knob(const char *file, char *buf, size_t len);
int mt_fw_fail_next(unsigned int n);
int mt_fw_fail_opcode(int opcode);
void mt_fw_disarm(void);
long long mt_fw_stat(const char *key);
void mt_fw_dump(void);

/*
 * PRM mailboxes (<linux/mlx5/mlx5_ifc.h>) are big endian; a field is named
 * by its bit offset and width, as mlx5_ifc.h lays them out.  Fields never
 * straddle a dword except 64-bit ones, which are 64-bit aligned.
 */
struct mt_field {
	unsigned short off;	/* bits from the start of the mailbox */
	unsigned short sz;	/* bits, at most 32 */
};

#define MT_FIELD(off, sz)	((struct mt_field){ (off), (sz) })

static inline uint32_t mt_get(const void *p, struct mt_field f)
{
	const uint8_t *b = (const uint8_t *)p + f.off / 32 * 4;
	uint32_t dw = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
		      (uint32_t)b[2] << 8 | b[3];
	uint32_t mask = f.sz == 32 ? ~0U : (1U << f.sz) - 1;

	return (dw >> (32 - f.sz - f.off % 32)) & mask;
}

static inline void mt_set(void *p, struct mt_field f, uint32_t val)
{
	uint8_t *b = (uint8_t *)p + f.off / 32 * 4;
	unsigned int shift = 32 - f.sz - f.off % 32;
	uint32_t mask = (f.sz == 32 ? ~0U : (1U << f.sz) - 1) << shift;
	uint32_t dw = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
		      (uint32_t)b[2] << 8 | b[3];

	dw = (dw & ~mask) | ((val << shift) & mask);
	b[0] = dw >> 24;
	b[1] = dw >> 16;
	b[2] = dw >> 8;
	b[3] = dw;
}

/* A 64-bit field at bit offset @off. */
static inline uint64_t mt_get64(const void *p, unsigned int off)
{
	return (uint64_t)mt_get(p, MT_FIELD(off, 32)) << 32 |
	       mt_get(p, MT_FIELD(off + 32, 32));
}

/*
 * Opcodes, field positions and sizes are mlx5x_prm.h's, generated from
 * mlx5_ifc.h: PRM_OP_*, PRM_<STRUCT>_<FIELD>.  Every command starts with
 * opcode and uid, every reply with status and syndrome, as the general
 * object header (PRM_IN_*, PRM_OUT_*) lays them out.
 */

/* Command status (PRM; <linux/mlx5/device.h>, not mlx5_ifc.h). */
#define MT_STAT_INTERNAL_ERR	0x01
#define MT_STAT_BAD_PARAM	0x03
#define MT_STAT_BAD_RESOURCE	0x05
#define MT_STAT_BAD_RES_STATE	0x09
#define MT_STAT_BAD_QP_STATE	0x10
#define MT_STAT_BAD_INPUT_LEN	0x50
#define MT_STAT_BAD_OUTPUT_LEN	0x51

/* QUERY_HCA_CAP's op_mod: the capability type, then current/max. */
#define MT_CAP_OPMOD(type, cur)	((type) << 1 | ((cur) ? 1 : 0))
#define MT_CAP_GENERAL		PRM_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE
#define MT_CAP_ROCE		PRM_SET_HCA_CAP_OP_MOD_ROCE

int mt_devx(struct ibv_context *ctx, const void *in, size_t inlen, void *out,
	    size_t outlen);
int mt_query_hca_cap(struct ibv_context *ctx, uint16_t op_mod, void *out);
const void *mt_cap_page(const void *out);

#endif /* MLX5X_TEST_H */
