// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fault injection around the cases of a selftest program.
 *
 * One fault around one run (to reproduce a point):
 *   MLX5X_ONLY=CASE     run only that case; the others are skipped
 *   MLX5X_FAULT=fw:K    the K-th firmware command from the case's start
 *                       fails (the model's fw/fail_nth)
 *   MLX5X_FAULT=slab:K  the K-th slab allocation of this thread's system
 *                       calls fails (/proc/thread-self/fail-nth, failslab)
 * After the case: "# fault KIND K hit CASE" if the fault point was
 * reached, "# fault KIND K miss CASE" if the case ended before it.
 *
 * The sweep (scripts/vm/guest-faults.sh), in this process:
 *   MLX5X_SWEEP="fw slab"  for each selected case and kind, K = 1, 2, ...
 *                       until the case ends before reaching K: a child
 *                       runs the case with fault K armed, and the parent
 *                       checks that the child exited by itself (no
 *                       signal, no timeout), that the model holds no
 *                       object of a user context and exactly the objects
 *                       it held before, and that the kernel log gained no
 *                       line matching MLX5X_SWEEP_BAD (an extended
 *                       regular expression).  "Before" is after one run
 *                       of the case with no fault: what the kernel makes
 *                       once and keeps for the device's life (a steering
 *                       anchor's table) is then there already.
 *   MLX5X_SWEEP_SPARSE=1   every K up to 16, then steps of K/8
 *   MLX5X_SWEEP_MAXK=N     no K above N
 *   MLX5X_SWEEP_UNTIL=T    stop at T (seconds since the epoch)
 *   MLX5X_SWEEP_SHARD=I/N  only the cases (or parts) U with U % N == I,
 *                       U counted in the program's order (ignored with
 *                       SPARSE): N sweeps, one per I, cover every case
 *   MLX5X_SWEEP_COUNT=1    count the points, and sweep only the first of
 *                       each kind, to time it
 * Under the sweep a loop that repeats the same calls runs at its swept
 * size (mt_loop_size()): each point costs the case up to it, so a loop of
 * N costs O(N^2) runs.  For the same reason a case of independent parts
 * is swept part by part ("CASE/I"; MLX5X_ONLY=CASE/I runs part I).  The
 * slab counter is held over fork() and the commands of mt_sh(): what
 * they allocate is the kernel's process code, not the driver's; a child
 * of mt_fork() counts on from where its parent was, so K fails the K-th
 * allocation along every process path of the case.  A case whose
 * mt_case.unswept says why is left out.
 * A second run with no fault arms both counters far beyond reach: they
 * count down, so what is left tells how many points of each kind the case
 * reaches.  (Not the first run: it reaches more, making what the kernel
 * keeps once made, dentries of the files it opens among them.)
 * Forking instead of exec'ing a program per point keeps a point's cost
 * near that of the case itself.  A point at K costs about the first
 * point's time plus the share K/M of the case's, so all M points of a
 * kind take about M times the mean of the first point's time and the
 * count run's.  Per case and kind: "# sweep CASE KIND: N points of M
 * reached, B bad; all in ~S s"; last, "# sweep: fw N slab N bad N runs
 * N", "# sweep: reached fw N slab N", "# sweep: all points in ~S s" and,
 * when time ran out, "# sweep: budget spent".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "mlx5x_test.h"

#define SWEEP_CHILD_SECS	120
/* objects the kernel makes for any context */
#define SWEEP_SHARED_UID	PRM_SHARED_RESOURCE_UID
#define SWEEP_TAIL		3000	/* bytes of a bad run's output shown */
#define SWEEP_COUNT_K		(1U << 30)	/* a point no case reaches */

enum {
	VERDICT_HIT = 10, VERDICT_MISS, VERDICT_UNKNOWN,
	VERDICT_SKIP,		/* the run without a fault skipped */
	VERDICT_FIXTURE,	/* a fixture before the case failed */
};

static struct {
	char kind[8];
	unsigned int k;
	int nth_fd;
	long child_left;	/* least left by a waited child's count, or -1 */
} mt_inject = { .nth_fd = -1, .child_left = -1 };

/* Make KIND:K the fault to arm; slab's counter is this thread's fail-nth. */
static void mt_fault_select(const char *kind, unsigned int k)
{
	snprintf(mt_inject.kind, sizeof(mt_inject.kind), "%s", kind);
	mt_inject.k = k;
	if (!strcmp(kind, "slab") && mt_inject.nth_fd < 0)
		mt_inject.nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
}

/* Parse MLX5X_FAULT: a single fault around each case that runs. */
void mt_fault_setup(void)
{
	const char *f = getenv("MLX5X_FAULT");
	unsigned int k;
	char kind[8];

	if (f && sscanf(f, "%7[a-z]:%u", kind, &k) == 2 && k)
		mt_fault_select(kind, k);
}

void mt_fault_arm(void)
{
	char buf[16];

	if (!mt_inject.k)
		return;
	snprintf(buf, sizeof(buf), "%u", mt_inject.k);
	if (!strcmp(mt_inject.kind, "fw"))
		mt_fw_write("fail_nth", buf);
	else if (mt_inject.nth_fd >= 0)
		/* last: from here on this thread's allocations count */
		pwrite(mt_inject.nth_fd, buf, strlen(buf), 0);
}

/* What a fail-nth counter file says is left of it, or -1. */
static long mt_nth_read(int fd)
{
	char buf[24];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* Disarm the fault; return what was left of its counter, or -1. */
static long mt_fault_left(void)
{
	char buf[16] = "";
	long left = -1;

	if (!strcmp(mt_inject.kind, "fw")) {
		if (!mt_fw_knob("fail_nth", buf, sizeof(buf)))
			left = strtol(buf, NULL, 10);
		mt_fw_write("fail_nth", "0");
		return left;
	}
	if (mt_inject.nth_fd < 0)
		return -1;
	left = mt_nth_read(mt_inject.nth_fd);
	pwrite(mt_inject.nth_fd, "0", 1, 0);
	/* a child's path that went further counts: see mt_fork() */
	if (left >= 0 && mt_inject.child_left >= 0 &&
	    mt_inject.child_left < left)
		left = mt_inject.child_left;
	return left;
}

/*
 * The commands a case runs (mt_sh()), and fork() itself (mt_fork()),
 * allocate in the kernel's process code, not in the driver's: a few
 * hundred slab points a fork, each costing a whole run of the case, and
 * none of them reaching mlx5x.  The slab counter is held over them: what
 * is left of it is read, the counter stopped, and the same written back
 * after.
 */
long mt_slab_hold(void)
{
	long held;

	if (mt_inject.nth_fd < 0)
		return 0;
	held = mt_nth_read(mt_inject.nth_fd);
	if (held <= 0)
		return 0;
	pwrite(mt_inject.nth_fd, "0", 1, 0);
	return held;
}

void mt_slab_resume(long held)
{
	char buf[24];

	if (held <= 0 || mt_inject.nth_fd < 0)
		return;
	snprintf(buf, sizeof(buf), "%ld", held);
	pwrite(mt_inject.nth_fd, buf, strlen(buf), 0);
}

/**
 * mt_fork() - fork(), the slab fault going on in both processes
 *
 * fail-nth is the thread's, and the kernel starts a child without one.
 * Here the child's counter starts where the parent's was at the fork, and
 * both go on counting: fault K fails the K-th allocation of the case
 * along the parent's path and along each child's, fork() itself not
 * counted.  What a child's counter had left is read when the case waits
 * for it with mt_waitpid(), so that a fault fired in a child is a point
 * reached, and a count run counts the longest path.
 *
 * Return: as fork().
 */
pid_t mt_fork(void)
{
	long held = mt_slab_hold();
	pid_t pid = fork();

	if (pid)
		mt_slab_resume(held);
	else if (mt_inject.nth_fd >= 0) {
		/* the parent thread's file: the child has its own counter */
		close(mt_inject.nth_fd);
		mt_inject.child_left = -1;
		mt_inject.nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
		mt_slab_resume(held);
	}
	return pid;
}

/* What the slab counter of ended child @pid had left, or -1. */
static long mt_child_left(pid_t pid)
{
	char path[64];
	long left;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/fail-nth", pid, pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	left = mt_nth_read(fd);
	close(fd);
	return left;
}

/**
 * mt_waitpid() - waitpid() for a child of mt_fork()
 * @pid: the child
 * @status: as waitpid()'s
 * @options: as waitpid()'s
 *
 * Under the slab fault, the ended child's counter is read before it is
 * reaped (waitid() with WNOWAIT leaves it a zombie, which still has it).
 *
 * Return: as waitpid().
 */
pid_t mt_waitpid(pid_t pid, int *status, int options)
{
	siginfo_t si = {};
	long held, left;

	if (mt_inject.nth_fd < 0 || pid <= 0)
		return waitpid(pid, status, options);
	held = mt_slab_hold();
	if (!waitid(P_PID, pid, &si,
		    WEXITED | WNOWAIT | (options & WNOHANG)) &&
	    si.si_pid == pid) {
		left = mt_child_left(pid);
		if (left >= 0 && (mt_inject.child_left < 0 ||
				  left < mt_inject.child_left))
			mt_inject.child_left = left;
	}
	mt_slab_resume(held);
	return waitpid(pid, status, options);
}

static int mt_fault_verdict_of(long left)
{
	if (left < 0)
		return VERDICT_UNKNOWN;
	return left ? VERDICT_MISS : VERDICT_HIT;
}

void mt_fault_report(const char *name)
{
	static const char *const word[] = { "hit", "miss", "unknown" };

	if (!mt_inject.k)
		return;
	printf("# fault %s %u %s %s\n", mt_inject.kind, mt_inject.k,
	       word[mt_fault_verdict_of(mt_fault_left()) - VERDICT_HIT], name);
}

/* The sweep's state in the parent. */
static struct {
	const char *kinds;
	const struct mt_case *cases;	/* the program's table */
	unsigned int index;		/* the case swept */
	int part;			/* and its part swept, or -1 */
	char name[80];			/* the case, or "CASE/PART" */
	bool sparse, count_only;
	unsigned int maxk, shard, nshards;
	unsigned int units;	/* cases and parts met, for the shards */
	time_t until;
	bool spent;
	regex_t bad;
	bool have_bad;
	int kmsg;	/* /dev/kmsg, read from where the sweep began */
	int out;	/* a memfd: the running child's stdout and stderr */
	long *left;	/* shared: what the child's counters had left, by kind */
	long count_ms;	/* how long the case's count run took */
	unsigned long points[2], reached[2], fails, runs;
	double all_s;	/* estimated: every point reached, in seconds */
} sw = { .kmsg = -1, .out = -1, .nshards = 1 };

bool mt_sweeping(void)
{
	const char *k = getenv("MLX5X_SWEEP");

	return k && *k;
}

/**
 * mt_loop_size() - how many times a loop of the same calls runs
 * @n: its size in the suite
 * @swept: its size under the fault sweep; where it is chosen, say why it
 *	is enough (a table that grows with the loop has to grow past its
 *	first step: an xarray's node holds 64 entries)
 *
 * Return: @swept under the sweep (MLX5X_SWEEP), else @n.
 */
unsigned int mt_loop_size(unsigned int n, unsigned int swept)
{
	return mt_sweeping() && swept < n ? swept : n;
}

static void mt_sweep_init(void)
{
	const char *v;

	if (sw.kinds)
		return;
	sw.kinds = getenv("MLX5X_SWEEP");
	v = getenv("MLX5X_SWEEP_SPARSE");
	sw.sparse = v && *v && strcmp(v, "0");
	v = getenv("MLX5X_SWEEP_MAXK");
	sw.maxk = v ? strtoul(v, NULL, 10) : 0;
	v = getenv("MLX5X_SWEEP_UNTIL");
	sw.until = v ? strtoll(v, NULL, 10) : 0;
	v = getenv("MLX5X_SWEEP_COUNT");
	sw.count_only = v && *v && strcmp(v, "0");
	v = getenv("MLX5X_SWEEP_SHARD");
	if (v && *v && !sw.sparse &&
	    (sscanf(v, "%u/%u", &sw.shard, &sw.nshards) != 2 ||
	     !sw.nshards || sw.shard >= sw.nshards)) {
		mt_diag("sweep: MLX5X_SWEEP_SHARD=%s is no I/N with I < N", v);
		sw.shard = 0;
		sw.nshards = 1;
	}
	v = getenv("MLX5X_SWEEP_BAD");
	if (v && *v) {
		sw.have_bad = !regcomp(&sw.bad, v, REG_EXTENDED | REG_NOSUB);
		if (!sw.have_bad)
			mt_diag("sweep: MLX5X_SWEEP_BAD is no regular expression");
	}
	sw.kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (sw.kmsg >= 0)
		lseek(sw.kmsg, 0, SEEK_END);
	sw.out = memfd_create("mlx5x-sweep", MFD_CLOEXEC);
	sw.left = mmap(NULL, 2 * sizeof(*sw.left), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sw.left == MAP_FAILED)
		sw.left = NULL;
	/* what a case's own children leave behind is reaped here */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* Kernel log records since the last call that match; each printed. */
static unsigned int mt_sweep_klog(void)
{
	/* above a record's longest: a buffer too short is EINVAL */
	static char rec[8192];
	unsigned int n = 0;
	ssize_t len;

	if (sw.kmsg < 0 || !sw.have_bad)
		return 0;
	for (;;) {
		const char *msg;

		len = read(sw.kmsg, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (len <= 0)
			break;
		rec[len] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (!regexec(&sw.bad, msg, 0, NULL, 0)) {
			printf("#   kernel: %.*s\n", (int)strcspn(msg, "\n"),
			       msg);
			n++;
		}
	}
	return n;
}

/* The last bytes of the child's output, as diagnostics. */
static void mt_sweep_tail(void)
{
	char buf[SWEEP_TAIL + 1];
	off_t end = lseek(sw.out, 0, SEEK_END);
	off_t from = end > SWEEP_TAIL ? end - SWEEP_TAIL : 0;
	ssize_t n = pread(sw.out, buf, SWEEP_TAIL, from);
	char *line, *save = NULL;

	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("#   | %s\n", line);
}

/* Arm both kinds' counters beyond reach, or read what they left. */
static void mt_sweep_counters(bool arm)
{
	static const char *const kinds[] = { "fw", "slab" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		/* slab last to arm, first to read: the fw knob's I/O allocates */
		const char *kind = kinds[arm ? i : 1 - i];

		mt_fault_select(kind, SWEEP_COUNT_K);
		if (arm)
			mt_fault_arm();
		else
			sw.left[!strcmp(kind, "slab")] = mt_fault_left();
	}
}

/*
 * In the child: run the fixtures before the case unarmed, arm KIND:K, run
 * the case, exit with the verdict.  K 0 is a run without a fault, KIND
 * "none" (the first) or "count" (which counts the points).
 */
static void mt_sweep_child(const struct mt_case *c, const char *kind,
			   unsigned int k)
{
	unsigned int i;
	int rc;

	setpgid(0, 0);	/* the case and whatever it forks: one group */
	dup2(sw.out, STDOUT_FILENO);
	dup2(sw.out, STDERR_FILENO);
	alarm(SWEEP_CHILD_SECS);
	for (i = 0; i < sw.index; i++) {
		if (!(sw.cases[i].flags & MT_SHARED))
			continue;
		if (mt_case_run(&sw.cases[i], -1) != KSFT_PASS) {
			fflush(stdout);
			_exit(VERDICT_FIXTURE);
		}
	}
	if (!k) {
		bool count = !strcmp(kind, "count");

		if (count)
			mt_sweep_counters(true);
		rc = mt_case_run(c, sw.part);
		fflush(stdout);
		if (count)
			mt_sweep_counters(false);
		_exit(rc == KSFT_SKIP ? VERDICT_SKIP : VERDICT_MISS);
	}
	mt_fault_select(kind, k);
	mt_fault_arm();
	mt_case_run(c, sw.part);
	fflush(stdout);
	_exit(mt_fault_verdict_of(mt_fault_left()));
}

/*
 * One point: the case in a child with KIND:K armed.  @base is the model's
 * object count before (NULL: not compared); after a bad run it becomes
 * what was left, so one leak is reported once.  Return: VERDICT_HIT or VERDICT_MISS, or -1 when
 * the child gave none; *@bad: the run broke a rule.
 */
static int mt_sweep_point(const struct mt_case *c, const char *kind,
			  unsigned int k, unsigned int *base, bool *bad)
{
	unsigned int users = 0, i, klog;
	struct mt_objs s = {};
	int status = -1, verdict;
	char why[96] = "";
	pid_t pid;

	ftruncate(sw.out, 0);
	lseek(sw.out, 0, SEEK_SET);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		mt_sweep_child(c, kind, k);
	sw.runs++;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		snprintf(why, sizeof(why), "no child: %s", strerror(errno));
	/*
	 * Processes of the case that outlived it go now, and are reaped (the
	 * ones that had ended first, so that only the living count).
	 */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	if (pid > 0 && !kill(-pid, SIGKILL) && !why[0])
		snprintf(why, sizeof(why), "processes of the case outlived it");
	while (waitpid(-1, NULL, 0) > 0)
		;
	mt_fw_disarm();	/* whatever the child left armed */
	verdict = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (verdict == VERDICT_FIXTURE && !why[0])
		snprintf(why, sizeof(why), "a fixture failed without a fault");
	if (verdict != VERDICT_HIT && verdict != VERDICT_MISS &&
	    !(verdict == VERDICT_SKIP && !k)) {
		verdict = -1;
		if (!why[0] && WIFSIGNALED(status))
			snprintf(why, sizeof(why), "killed by signal %d",
				 WTERMSIG(status));
		else if (!why[0])
			snprintf(why, sizeof(why), "exit %d, no verdict",
				 WEXITSTATUS(status));
	}
	if (mt_fw_read(&s)) {
		snprintf(why, sizeof(why), "the model's table is gone");
	} else {
		for (i = 0; i < s.n; i++)
			users += s.v[i].uid && s.v[i].uid != SWEEP_SHARED_UID;
		if (!why[0] && (users || (base && s.n != *base)))
			snprintf(why, sizeof(why),
				 "%u objects (%u of users), %d before",
				 s.n, users, base ? (int)*base : -1);
	}
	klog = mt_sweep_klog();
	if (!why[0] && klog)
		snprintf(why, sizeof(why), "%u kernel reports", klog);
	*bad = why[0];
	if (*bad) {
		printf("# not ok %s %s:%u: %s\n", sw.name, kind, k, why);
		mt_sweep_tail();
		for (i = 0; i < s.n; i++)
			if (s.v[i].uid && s.v[i].uid != SWEEP_SHARED_UID)
				printf("#   left: %s 0x%x uid %u\n",
				       s.v[i].type, s.v[i].id, s.v[i].uid);
		if (base)
			*base = s.n;
	}
	mt_fw_free(&s);
	return verdict;
}

static bool mt_sweep_over(void)
{
	if (sw.until && time(NULL) >= sw.until)
		sw.spent = true;
	return sw.spent;
}

/* Sweep one case for one kind; return how many points were bad. */
static unsigned int mt_sweep_kind(const struct mt_case *c, const char *kind,
				  unsigned int *base)
{
	unsigned int k = 1, n = 0, nbad = 0;
	long left = sw.left[!strcmp(kind, "slab")], reached = -1, t, first = 0;
	char reach[24] = "?", all[32] = "";
	int verdict;
	bool bad;

	/* what the count run left of the counter armed beyond reach */
	if (left > 0) {
		reached = SWEEP_COUNT_K - left;
		snprintf(reach, sizeof(reach), "%ld", reached);
		sw.reached[!strcmp(kind, "slab")] += reached;
	}
	while (!mt_sweep_over() && (!sw.count_only || (!n && reached))) {
		t = mt_now_ms();
		verdict = mt_sweep_point(c, kind, k, base, &bad);
		if (!n)
			first = mt_now_ms() - t;
		nbad += bad;
		if (verdict == VERDICT_MISS)
			break;
		n++;
		/* without a verdict K may not have been reached: stop */
		k += sw.sparse && k >= 16 ? k / 8 : 1;
		if (verdict < 0 || (sw.maxk && k > sw.maxk))
			break;
	}
	if (reached > 0 && n) {
		double s = reached * (first + sw.count_ms) / 2000.0;

		snprintf(all, sizeof(all), "; all in ~%.0f s", s);
		sw.all_s += s;
	}
	printf("# sweep %s %s: %u points of %s reached, %u bad%s\n", sw.name,
	       kind, n, reach, nbad, all);
	sw.points[!strcmp(kind, "slab")] += n;
	sw.fails += nbad;
	return nbad;
}

/* Sweep the case, or its part sw.part, over every kind of MLX5X_SWEEP. */
static int mt_sweep_unit(const struct mt_case *c)
{
	char kinds[32], *kind, *save = NULL;
	unsigned int bad = 0, base;
	bool warm, counted;
	int total;

	if (sw.part < 0)
		snprintf(sw.name, sizeof(sw.name), "%s", c->name);
	else
		snprintf(sw.name, sizeof(sw.name), "%s/%d", c->name, sw.part);
	mt_sweep_klog();	/* what came before is not this case's */
	/* the run without a fault: what the model holds after it is "before" */
	if (mt_sweep_point(c, "none", 0, NULL, &warm) == VERDICT_SKIP)
		return mt_skip("the case skips without a fault");
	if (warm)
		sw.fails++;
	total = mt_fw_total();
	if (total < 0)
		return KSFT_FAIL;
	base = total;
	sw.left[0] = sw.left[1] = -1;
	sw.count_ms = mt_now_ms();
	mt_sweep_point(c, "count", 0, &base, &counted);
	sw.count_ms = mt_now_ms() - sw.count_ms;
	if (counted)
		sw.fails++;
	snprintf(kinds, sizeof(kinds), "%s", sw.kinds);
	for (kind = strtok_r(kinds, " ,", &save); kind;
	     kind = strtok_r(NULL, " ,", &save)) {
		if (strcmp(kind, "fw") && strcmp(kind, "slab"))
			return mt_skip("unknown fault kind %s", kind);
		bad += mt_sweep_kind(c, kind, &base);
	}
	return bad || warm || counted ? KSFT_FAIL : KSFT_PASS;
}

/**
 * mt_sweep_case() - sweep one case over every kind of MLX5X_SWEEP
 * @cases: the program's cases
 * @i: which one; the MT_SHARED cases before it run first, unarmed
 * @part: the case's part to sweep, or -1: each part on its own, in turn
 *	  (the whole case when it has none)
 *
 * Return: KSFT_PASS when every point was clean, KSFT_SKIP when the
 * device has no model, the budget was spent before it began or the case
 * skips without a fault, else KSFT_FAIL.
 */
int mt_sweep_case(const struct mt_case *cases, unsigned int i, int part)
{
	const struct mt_case *c = &cases[i];
	int p = part, last = part, rc, units = 0, skips = 0;
	bool failed = false;

	mt_sweep_init();
	sw.cases = cases;
	sw.index = i;
	if (!mt_sim())
		return mt_skip("the sweep needs the firmware model");
	if (c->unswept)
		return mt_skip("not swept: %s", c->unswept);
	if (mt_sweep_over())
		return mt_skip("the sweep's budget is spent");
	if (sw.out < 0 || !sw.left)
		return KSFT_FAIL;
	if (part < 0 && c->parts) {
		p = 0;
		last = c->parts - 1;
	}
	for (; p <= last; p++) {
		sw.part = p;
		/* another shard's */
		if (sw.units++ % sw.nshards != sw.shard)
			continue;
		rc = mt_sweep_unit(c);
		failed |= rc == KSFT_FAIL;
		skips += rc == KSFT_SKIP;
		units++;
	}
	if (!units)
		return mt_skip("another shard's");
	if (failed)
		return KSFT_FAIL;
	return skips == units ? KSFT_SKIP : KSFT_PASS;
}

/* The totals, after the last case. */
void mt_sweep_summary(void)
{
	if (!sw.kinds)
		return;
	printf("# sweep: fw %lu slab %lu bad %lu runs %lu\n", sw.points[0],
	       sw.points[1], sw.fails, sw.runs);
	printf("# sweep: reached fw %lu slab %lu\n", sw.reached[0],
	       sw.reached[1]);
	printf("# sweep: all points in ~%.0f s\n", sw.all_s);
	if (sw.spent)
		printf("# sweep: budget spent\n");
}
