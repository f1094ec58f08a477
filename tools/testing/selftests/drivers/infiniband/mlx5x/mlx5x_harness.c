// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The selftests' harness: TAP output in kselftest's format, the checks,
 * and the runner of a program's table of cases, with their fixtures;
 * see mlx5x_test.h.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "mlx5x_test.h"

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

/* Why a case of these needs cannot run here, or NULL when it can. */
static const char *mt_unmet(unsigned int flags)
{
	if ((flags & MT_NEEDS_MODEL) && !mt_sim())
		return "needs the firmware model";
	if ((flags & MT_NEEDS_ROOT) && geteuid())
		return "needs root";
	if ((flags & MT_NEEDS_NETDEV) && !mt.netdev)
		return "needs MLX5X_NETDEV";
	return NULL;
}

/*
 * One run of a case's body (@part < 0) or of one part: on a fixture of
 * its own when the case has one, set up before and torn down after,
 * whatever the body returned.  A setup that skipped or failed (by its
 * return or by a check) is the run's result; the body does not run.
 */
static int mt_unit_body(const struct mt_case *c, int part)
{
	const struct mt_fixture *fx = c->fixture;
	unsigned int failures = mt_run.case_failures;
	void *self;
	int rc;

	if (!fx)
		return part < 0 ? c->run() : c->part(part);
	self = calloc(1, fx->size);
	if (!CHECK(self))
		return KSFT_FAIL;
	rc = fx->setup(self);
	if (rc == KSFT_PASS && mt_run.case_failures != failures)
		rc = KSFT_FAIL;
	if (rc == KSFT_PASS)
		rc = part < 0 ? c->run_f(self) : c->part_f(self, part);
	fx->teardown(self);
	free(self);
	return rc;
}

/*
 * A body's result is KSFT_PASS, _SKIP or _FAIL; anything else (a child's
 * exit status passed on: MT_CHILD_FAILED, a failed drop, a death) fails.
 */
static int mt_unit_run(const struct mt_case *c, int part)
{
	int rc = mt_unit_body(c, part);

	if (rc == KSFT_PASS || rc == KSFT_SKIP || rc == KSFT_FAIL)
		return rc;
	mt_diag("the case returned %d, which is no result: a failure", rc);
	return KSFT_FAIL;
}

/**
 * mt_case_run() - run a case, or one of its parts
 * @c: the case
 * @part: its part, or -1 for the whole case (every part, in turn)
 *
 * A case whose needs (MT_NEEDS_*) are not met here skips, saying which.
 *
 * Return: KSFT_FAIL if a part failed, KSFT_SKIP if every part skipped,
 * else KSFT_PASS.
 */
int mt_case_run(const struct mt_case *c, int part)
{
	const char *unmet = mt_unmet(c->flags);
	unsigned int i, skips = 0;
	bool failed = false;
	int rc;

	if (unmet)
		return mt_skip("%s", unmet);
	if (!c->parts || part >= 0)
		return mt_unit_run(c, part);
	for (i = 0; i < c->parts; i++) {
		rc = mt_unit_run(c, i);
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
	if (only[len] != '/' || !c->parts)
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
