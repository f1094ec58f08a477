// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared helpers of the mlx5x selftests; see mlx5x_test.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"

#define MT_DEBUGFS	"/sys/kernel/debug/mlx5x"

struct mt_env mt;

static struct {
	unsigned int pass, fail, skip;
	unsigned int case_failures;	/* failed checks in the running case */
	char skip_reason[256];
} mt_run;

void mt_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int mt_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mt_run.skip_reason, sizeof(mt_run.skip_reason), fmt, ap);
	va_end(ap);
	return KSFT_SKIP;
}

bool mt_check(bool ok, const char *file, int line, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (ok)
		return true;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	mt_diag("%s:%d: check failed: %s", file, line, what);
	mt_run.case_failures++;
	return false;
}

/* Failed checks so far in the running case (in a child: in the child). */
unsigned int mt_case_failures(void)
{
	return mt_run.case_failures;
}

bool mt_check_eq(long long got, long long want, const char *sgot,
		 const char *swant, const char *file, int line)
{
	if (got == want)
		return true;
	mt_diag("%s:%d: check failed: %s == %s: got %lld (%#llx), want %lld (%#llx)",
		file, line, sgot, swant, got, got, want, want);
	mt_run.case_failures++;
	return false;
}

static const char *mt_errname(int err)
{
	const char *name = err ? strerrorname_np(abs(err)) : "0";

	return name ? name : "?";
}

bool mt_check_err(int got, int want, const char *sgot, const char *file,
		  int line)
{
	if (got == want)
		return true;
	mt_diag("%s:%d: check failed: %s: got %d (%s), want %d (%s)", file,
		line, sgot, got, mt_errname(got), want, mt_errname(want));
	mt_run.case_failures++;
	return false;
}

static void mt_set_dbg(void)
{
	const char *hw = getenv("MLX5X_NO_MODEL");
	char path[sizeof(mt.dbg) + 16];

	/* run as on hardware: the model's debugfs is not looked at */
	if (hw && *hw && strcmp(hw, "0")) {
		mt.dbg[0] = '\0';
		return;
	}
	snprintf(mt.dbg, sizeof(mt.dbg), MT_DEBUGFS "/%s/fw", mt.dev_name);
	snprintf(path, sizeof(path), "%s/objects", mt.dbg);
	if (access(path, R_OK))
		mt.dbg[0] = '\0';
}

/* Find the device: by MLX5X_DEV, else the first "mlx5x*" one. */
static int mt_find_device(const char *want, char *why, size_t len)
{
	int i, n = 0;

	if (mt.list)
		ibv_free_device_list(mt.list);
	mt.dev = NULL;
	mt.list = ibv_get_device_list(&n);
	if (!mt.list) {
		snprintf(why, len, "ibv_get_device_list: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *name = ibv_get_device_name(mt.list[i]);

		if (want ? !strcmp(name, want) : !strncmp(name, "mlx5x", 5)) {
			mt.dev = mt.list[i];
			break;
		}
	}
	if (!mt.dev) {
		snprintf(why, len, "no RDMA device %s", want ? want : "mlx5x*");
		mt.dbg[0] = '\0';
		return -1;
	}
	snprintf(mt.dev_name, sizeof(mt.dev_name), "%s",
		 ibv_get_device_name(mt.dev));
	mt_set_dbg();
	return 0;
}

/**
 * mt_refresh_device() - look the device up again, by name
 *
 * After the device was removed and added back, the old ibv_device is stale.
 * Return: 0 when found.
 */
int mt_refresh_device(void)
{
	char why[128];
	char name[sizeof(mt.dev_name)];

	snprintf(name, sizeof(name), "%s", mt.dev_name);
	if (mt_find_device(name, why, sizeof(why))) {
		mt_diag("%s", why);
		return -1;
	}
	return 0;
}

/* Disarm every fault knob of the model: a case may stop half way. */
void mt_fw_disarm(void)
{
	if (!mt_sim())
		return;
	mt_fw_write("fail_nth", "0");
	mt_fw_fail_next(0);
	mt_fw_fail_opcode(-1);
}

/**
 * mt_case_run() - run a case, or one of its parts
 * @c: the case
 * @part: its part, or -1 for the whole case (every part, in turn)
 *
 * Return: KSFT_FAIL if a part failed, KSFT_SKIP if every part skipped,
 * else KSFT_PASS.
 */
int mt_case_run(const struct mt_case *c, int part)
{
	unsigned int i, skips = 0;
	bool failed = false;
	int rc;

	if (!c->part)
		return c->run();
	if (part >= 0)
		return c->part(part);
	for (i = 0; i < c->parts; i++) {
		rc = c->part(i);
		failed |= rc == KSFT_FAIL;
		skips += rc == KSFT_SKIP;
	}
	if (failed)
		return KSFT_FAIL;
	return skips == c->parts ? KSFT_SKIP : KSFT_PASS;
}

/* MLX5X_ONLY: NAME, or NAME/I for part I alone; is case @c selected? */
static bool mt_selected(const char *only, const struct mt_case *c,
			int *part)
{
	size_t len = strlen(c->name);
	char *end;
	long i;

	*part = -1;
	if (!only)
		return true;
	if (strncmp(only, c->name, len))
		return false;
	if (!only[len])
		return true;
	if (only[len] != '/' || !c->part)
		return false;
	i = strtol(only + len + 1, &end, 10);
	if (end == only + len + 1 || *end || i < 0 || i >= c->parts)
		return false;
	*part = i;
	return true;
}

/**
 * mt_main() - run a table of cases and report them in TAP
 * @cases: the cases, in order
 * @n: how many
 *
 * Return: the exit code: KSFT_FAIL if a case failed, KSFT_SKIP if there is
 * no device or every case skipped, KSFT_PASS otherwise.
 */
int mt_main(const struct mt_case *cases, unsigned int n)
{
	const char *netdev = getenv("MLX5X_NETDEV");
	const char *want = getenv("MLX5X_DEV");
	const char *only;
	char why[128];
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/*
	 * A helper process that ended early (its setup failed) makes a write
	 * to it fail with EPIPE, which the case checks, rather than kill it.
	 */
	signal(SIGPIPE, SIG_IGN);
	printf("TAP version 13\n");
	if (want && !*want)
		want = NULL;
	if (mt_find_device(want, why, sizeof(why))) {
		printf("1..0 # SKIP %s\n", why);
		return KSFT_SKIP;
	}
	mt.netdev = netdev && *netdev ? netdev : NULL;
	printf("1..%u\n", n);
	mt_diag("device %s, netdev %s, firmware model %s", mt.dev_name,
		mt.netdev ? mt.netdev : "(MLX5X_NETDEV unset)",
		mt_sim() ? mt.dbg : "absent");

	only = getenv("MLX5X_ONLY");
	mt_fault_setup();
	for (i = 0; i < n; i++) {
		int rc, part;

		mt_run.case_failures = 0;
		mt_run.skip_reason[0] = '\0';
		if (!mt_selected(only, &cases[i], &part)) {
			printf("ok %u %s # SKIP not selected\n", i + 1,
			       cases[i].name);
			continue;
		}
		if (mt_sweeping()) {
			rc = mt_sweep_case(cases, i, part);
		} else {
			mt_fault_arm();
			rc = mt_case_run(&cases[i], part);
			mt_fault_report(cases[i].name);
			mt_fw_disarm();
		}
		if (rc == KSFT_FAIL || mt_run.case_failures) {
			mt_run.fail++;
			printf("not ok %u %s\n", i + 1, cases[i].name);
		} else if (rc == KSFT_SKIP) {
			mt_run.skip++;
			printf("ok %u %s # SKIP %s\n", i + 1, cases[i].name,
			       mt_run.skip_reason);
		} else {
			mt_run.pass++;
			printf("ok %u %s\n", i + 1, cases[i].name);
		}
	}
	mt_sweep_summary();
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
	       mt_run.pass, mt_run.fail, mt_run.skip);
	ibv_free_device_list(mt.list);
	mt.list = NULL;
	if (mt_run.fail)
		return KSFT_FAIL;
	if (!mt_run.pass && mt_run.skip)
		return KSFT_SKIP;
	return KSFT_PASS;
}

/**
 * mt_sh() - run a shell command, its output as TAP diagnostics
 * @fmt: the command
 *
 * Return: its exit status, 128 + signal if killed, -1 if it did not run.
 */
int mt_sh(const char *fmt, ...)
{
	char cmd[512], full[560], line[512];
	va_list ap;
	long held;
	FILE *f;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	mt_diag("$ %s", cmd);
	snprintf(full, sizeof(full), "( %s ) 2>&1", cmd);
	fflush(stdout);
	/* the command's process is not the case's subject: see mt_fork() */
	held = mt_slab_hold();
	f = popen(full, "r");
	if (!f) {
		mt_slab_resume(held);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		mt_diag("  %s", line);
	}
	st = pclose(f);
	mt_slab_resume(held);
	if (st == -1)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Read the file at @path into @buf, NUL-ended; 0 or a negative errno. */
int mt_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* Write @val to the file at @path; 0 or a negative errno. */
static int mt_write_file(const char *path, const char *val)
{
	ssize_t len = strlen(val);
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != len)
		err = -errno;
	close(fd);
	return err;
}

#define MT_PARAMS	"/sys/module/mlx5x/parameters"

/**
 * mt_param_get() - read a module parameter of mlx5x (limits.c)
 * @name: its name
 * @val: where its value goes
 *
 * Return: 0, or a negative errno (-ENOENT: no such parameter).
 */
int mt_param_get(const char *name, long *val)
{
	char path[128], buf[32], *end;
	int err;

	snprintf(path, sizeof(path), MT_PARAMS "/%s", name);
	err = mt_read_file(path, buf, sizeof(buf));
	if (err)
		return err;
	*val = strtol(buf, &end, 10);
	return end != buf && (*end == '\n' || !*end) ? 0 : -EINVAL;
}

/**
 * mt_param_set() - write a module parameter of mlx5x
 * @name: its name
 * @val: the value
 *
 * Return: 0, or a negative errno.
 */
int mt_param_set(const char *name, long val)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), MT_PARAMS "/%s", name);
	snprintf(buf, sizeof(buf), "%ld\n", val);
	return mt_write_file(path, buf);
}

/**
 * mt_open() - open a context on the device
 * @mode: how
 * @uid: if not NULL, the context's DEVX uid as the model's table shows
 *	 it (0: no DEVX), or -1 when unknown (no model, or ambiguous)
 *
 * Return: the context, or NULL with errno set.
 */
struct ibv_context *mt_open(enum mt_open_mode mode, int *uid)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct mt_objs before = {}, after = {};
	struct ibv_context *ctx = NULL;
	struct mt_obj added[2];
	unsigned int n;
	int err = 0;

	if (uid)
		*uid = -1;
	if (mt_sim() && mt_fw_read(&before))
		mt_diag("cannot read the model's objects");
	switch (mode) {
	case MT_OPEN_DEFAULT:
		ctx = ibv_open_device(mt.dev);
		break;
	case MT_OPEN_DEVX:
		ctx = mlx5dv_open_device(mt.dev, &attr);
		break;
	case MT_OPEN_NODEVX:
		if (!mt_sim()) {
			errno = EOPNOTSUPP;
			break;
		}
		/* libmlx5 retries without DEVX when CREATE_UCTX fails */
		if (mt_fw_fail_opcode(PRM_OP_CREATE_UCTX))
			break;
		ctx = ibv_open_device(mt.dev);
		err = errno;
		if (mt_fw_fail_opcode(-1))
			mt_diag("cannot disarm fail_opcode");
		errno = err;
		break;
	}
	err = errno;
	if (ctx && uid && mt_sim() && !mt_fw_read(&after)) {
		n = mt_fw_added(&before, &after, "uctx", added,
				MT_ARRAY_SIZE(added));
		if (n == 1)
			*uid = added[0].id;
		else if (n == 0)
			*uid = 0;
	}
	mt_fw_free(&before);
	mt_fw_free(&after);
	errno = err;
	return ctx;
}

long mt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/**
 * mt_wait_event() - wait for one kind of async event
 * @ctx: context
 * @type: the event awaited; others are acknowledged and reported
 * @timeout_ms: how long
 * @port: if not NULL, the port number the event names
 *
 * Return: 0 when it arrived, -ETIMEDOUT, or another negative errno.
 */
int mt_wait_event(struct ibv_context *ctx, enum ibv_event_type type,
		  int timeout_ms, int *port)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	long deadline = mt_now_ms() + timeout_ms;
	struct ibv_async_event ev;
	enum ibv_event_type got;
	int flags;

	flags = fcntl(ctx->async_fd, F_GETFL);
	if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK))
		return -errno;
	for (;;) {
		long left = deadline - mt_now_ms();
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -ETIMEDOUT;
		if (ibv_get_async_event(ctx, &ev)) {
			if (errno == EAGAIN)
				continue;
			return errno ? -errno : -EIO;
		}
		got = ev.event_type;
		mt_diag("async event %s (port %d)", ibv_event_type_str(got),
			ev.element.port_num);
		if (got == type && port)
			*port = ev.element.port_num;
		ibv_ack_async_event(&ev);
		if (got == type)
			return 0;
	}
}

static sigjmp_buf mt_fault_jmp;

static void mt_fault(int sig)
{
	siglongjmp(mt_fault_jmp, sig);
}

/*
 * Store to a mapping, as a doorbell is rung: one 64-bit store the compiler
 * may not drop; a SIGSEGV or SIGBUS is caught and reported.
 */
bool mt_try_write64(void *addr, uint64_t val)
{
	struct sigaction sa = { .sa_handler = mt_fault };
	struct sigaction old_segv, old_bus;
	bool ok;
	int sig;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sig = sigsetjmp(mt_fault_jmp, 1);
	if (!sig) {
		__atomic_store_n((uint64_t *)addr, val, __ATOMIC_RELEASE);
		ok = true;
	} else {
		mt_diag("store to %p: %s", addr, strsignal(sig));
		ok = false;
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return ok;
}

bool mt_sim(void)
{
	return mt.dbg[0];
}

/**
 * mt_fw_read() - snapshot the model's object table
 * @s: filled; release with mt_fw_free()
 *
 * Return: 0, or a negative errno.
 */
int mt_fw_read(struct mt_objs *s)
{
	char path[sizeof(mt.dbg) + 16], line[128];
	struct mt_obj o, *v;
	FILE *f;

	s->n = 0;
	s->v = NULL;
	snprintf(path, sizeof(path), "%s/objects", mt.dbg);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		memset(&o, 0, sizeof(o));
		if (sscanf(line, "%15s %x %u %u", o.type, &o.id, &o.uid,
			   &o.users) != 4)
			continue;	/* the header */
		v = realloc(s->v, (s->n + 1) * sizeof(*v));
		if (!v) {
			fclose(f);
			mt_fw_free(s);
			return -ENOMEM;
		}
		s->v = v;
		s->v[s->n++] = o;
	}
	fclose(f);
	return 0;
}

void mt_fw_free(struct mt_objs *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* Return: how many objects the model holds, or -1. */
int mt_fw_total(void)
{
	return mt_fw_count(NULL, -1);
}

/**
 * mt_fw_count() - count objects in the model's table
 * @type: "pd", "uar", ...; NULL for any
 * @uid: owner; -1 for any
 *
 * Return: the count, or -1 when the table cannot be read.
 */
int mt_fw_count(const char *type, long uid)
{
	struct mt_objs s;
	unsigned int i;
	int n = 0;

	if (!mt_sim() || mt_fw_read(&s))
		return -1;
	for (i = 0; i < s.n; i++)
		if ((!type || !strcmp(s.v[i].type, type)) &&
		    (uid < 0 || s.v[i].uid == uid))
			n++;
	mt_fw_free(&s);
	return n;
}

const struct mt_obj *mt_fw_find(const struct mt_objs *s, const char *type,
				uint32_t id)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].type, type) && s->v[i].id == id)
			return &s->v[i];
	return NULL;
}

/**
 * mt_fw_check_owner() - the model holds this object, owned by this uid
 * @type: object type, as the objects table names it
 * @id: its id
 * @uid: the owner it must have; negative: any
 *
 * Each mismatch is a failed check of the running case.  Without the model
 * there is nothing to look at: true.
 */
bool mt_fw_check_owner(const char *type, uint32_t id, int uid)
{
	const struct mt_obj *o;
	struct mt_objs s;
	bool ok;

	if (!mt_sim())
		return true;
	if (!CHECK_EQ(mt_fw_read(&s), 0))
		return false;
	o = mt_fw_find(&s, type, id);
	ok = mt_check(o != NULL, __FILE__, __LINE__, "%s %#x in the model",
		      type, id);
	if (o && uid >= 0)
		ok &= CHECK_EQ(o->uid, uid);
	mt_fw_free(&s);
	return ok;
}

/**
 * mt_fw_added() - objects of a snapshot that an earlier one lacks
 * @before: earlier snapshot
 * @after: later snapshot
 * @type: only of this type; NULL for any
 * @out: the first @max of them
 * @max: room in @out
 *
 * Return: how many there are (may exceed @max).
 */
unsigned int mt_fw_added(const struct mt_objs *before,
			 const struct mt_objs *after, const char *type,
			 struct mt_obj *out, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < after->n; i++) {
		const struct mt_obj *o = &after->v[i];

		if (type && strcmp(o->type, type))
			continue;
		if (mt_fw_find(before, o->type, o->id))
			continue;
		if (n < max)
			out[n] = *o;
		n++;
	}
	return n;
}

/**
 * mt_fw_write() - write a string to one of the model's debugfs files
 * @file: "fail_next", "fail_opcode"
 * @val: what to write
 *
 * Return: 0, or a negative errno.
 */
int mt_fw_write(const char *file, const char *val)
{
	char path[sizeof(mt.dbg) + 16];

	snprintf(path, sizeof(path), "%s/%s", mt.dbg, file);
	return mt_write_file(path, val);
}

/* Fail the next @n commands with INTERNAL_ERR; 0 disarms. */
int mt_fw_fail_next(unsigned int n)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", n);
	return mt_fw_write("fail_next", buf);
}

/**
 * mt_fw_fail_opcode() - fail every command with this opcode
 * @opcode: the opcode; -1 disarms
 *
 * A knob that parses its input as unsigned refuses "-1" (mlx5x_open's
 * fault_knobs case reports that); the 64-bit two's complement of -1
 * disarms it then, so that one bug does not cascade through every case.
 *
 * Return: 0, or a negative errno.
 */
int mt_fw_fail_opcode(int opcode)
{
	char buf[32];
	int err;

	snprintf(buf, sizeof(buf), "%d", opcode);
	err = mt_fw_write("fail_opcode", buf);
	if (err == -EINVAL && opcode < 0) {
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)(long long)opcode);
		err = mt_fw_write("fail_opcode", buf);
	}
	return err;
}

/**
 * mt_fw_knob() - read one of the model's debugfs files
 * @file: its name
 * @buf: its contents, without the trailing newline
 * @len: room in @buf
 *
 * Return: 0, or a negative errno.
 */
int mt_fw_knob(const char *file, char *buf, size_t len)
{
	char path[sizeof(mt.dbg) + 16];
	int err;

	snprintf(path, sizeof(path), "%s/%s", mt.dbg, file);
	err = mt_read_file(path, buf, len);
	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/* Return: the "commands", "failed" or "objects" statistic, or -1. */
long long mt_fw_stat(const char *key)
{
	char path[sizeof(mt.dbg) + 16], line[64], name[32];
	long long val, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stats", mt.dbg);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %lld", name, &val) == 2 &&
		    !strcmp(name, key))
			ret = val;
	fclose(f);
	return ret;
}

/* The object table, as diagnostics. */
void mt_fw_dump(void)
{
	struct mt_objs s;
	unsigned int i;

	if (!mt_sim() || mt_fw_read(&s))
		return;
	mt_diag("model objects (%u): type id uid users", s.n);
	for (i = 0; i < s.n && i < 40; i++)
		mt_diag("  %s 0x%x %u %u", s.v[i].type, s.v[i].id, s.v[i].uid,
			s.v[i].users);
	if (s.n > 40)
		mt_diag("  ...");
	mt_fw_free(&s);
}

/**
 * mt_devx() - run a general command through DEVX
 * @ctx: context
 * @in: input mailbox
 * @inlen: its length
 * @out: output mailbox
 * @outlen: its length
 *
 * Return: 0, or the errno mlx5dv_devx_general_cmd() returns; on EREMOTEIO
 * the output holds status and syndrome.
 */
int mt_devx(struct ibv_context *ctx, const void *in, size_t inlen, void *out,
	    size_t outlen)
{
	return mlx5dv_devx_general_cmd(ctx, in, inlen, out, outlen);
}

/* QUERY_HCA_CAP into @out, which holds PRM_QUERY_HCA_CAP_OUT_BYTES. */
int mt_query_hca_cap(struct ibv_context *ctx, uint16_t op_mod, void *out)
{
	uint8_t in[PRM_QUERY_HCA_CAP_IN_BYTES] = {};

	mt_set(in, PRM_IN_OPCODE, PRM_OP_QUERY_HCA_CAP);
	mt_set(in, PRM_QUERY_HCA_CAP_IN_OP_MOD, op_mod);
	memset(out, 0, PRM_QUERY_HCA_CAP_OUT_BYTES);
	return mt_devx(ctx, in, sizeof(in), out, PRM_QUERY_HCA_CAP_OUT_BYTES);
}

/* The capability page of a QUERY_HCA_CAP output. */
const void *mt_cap_page(const void *out)
{
	return (const uint8_t *)out + 16;
}
