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
int mt_find_device(const char *want, char *why, size_t len)
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
int mt_write_file(const char *path, const char *val)
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
		if (got == IBV_EVENT_PORT_ACTIVE || got == IBV_EVENT_PORT_ERR ||
		    got == IBV_EVENT_LID_CHANGE || got == IBV_EVENT_PKEY_CHANGE ||
		    got == IBV_EVENT_GID_CHANGE || got == IBV_EVENT_SM_CHANGE ||
		    got == IBV_EVENT_CLIENT_REREGISTER)
			mt_diag("async event %s (port %d)",
				ibv_event_type_str(got), ev.element.port_num);
		else
			mt_diag("async event %s", ibv_event_type_str(got));
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

/**
 * mt_signal_of() - run an access that may fault
 * @fn: the access
 * @p: the address it is given
 *
 * Return: the signal @fn got (SIGSEGV, SIGBUS), caught, or 0.
 */
int mt_signal_of(void (*fn)(uint8_t *p), uint8_t *p)
{
	struct sigaction sa = { .sa_handler = mt_fault };
	struct sigaction old_segv, old_bus;
	int sig;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sig = sigsetjmp(mt_fault_jmp, 1);
	if (!sig)
		fn(p);
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return sig;
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
