// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x: look into a simulated mlx5x device and break it on purpose.
 *
 * Reads and writes the device's debugfs (/sys/kernel/debug/mlx5x/DEV; the
 * MLX5X_DEBUGFS environment variable names another root): the open user
 * contexts, the firmware model's objects grouped by the context that owns
 * them, its command statistics, its fault injection, and where its
 * steering sends a packet (classify).  --json prints
 * the same as one JSON document for scripts.  Exit status: 0, 1 on an
 * error (message on stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct ctx_row {
	unsigned int uid;
	int pid;
	char comm[64];
};

struct obj_row {
	char type[32];
	unsigned int id;
	unsigned int uid;
	unsigned int users;
};

struct table {
	struct ctx_row *ctx;
	unsigned int nctx;
	struct obj_row *obj;
	unsigned int nobj;
};

static const char *root;
static const char *dev_name;
static bool json;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mlx5x: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static FILE *open_dev_file(const char *file, const char *mode)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", root, dev_name, file);
	f = fopen(path, mode);
	if (!f) {
		fprintf(stderr, "mlx5x: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* The device: -d, or the only one there is. */
static void pick_device(void)
{
	struct dirent *de;
	unsigned int n = 0;
	static char only[256];
	DIR *d;

	if (dev_name)
		return;
	d = opendir(root);
	if (!d)
		die("no mlx5x debugfs at %s (module loaded? debugfs mounted?)",
		    root);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(only, sizeof(only), "%s", de->d_name);
		n++;
	}
	closedir(d);
	if (n == 0)
		die("no mlx5x device under %s", root);
	if (n > 1)
		die("several devices under %s: name one with -d", root);
	dev_name = only;
}

static void *grow(void *v, unsigned int n, size_t size)
{
	v = realloc(v, (n + 1) * size);
	if (!v)
		die("%s", strerror(ENOMEM));
	return v;
}

static void read_contexts(struct table *t)
{
	char line[256];
	FILE *f = open_dev_file("contexts", "r");

	if (!fgets(line, sizeof(line), f))	/* header */
		die("%s: empty contexts file", dev_name);
	while (fgets(line, sizeof(line), f)) {
		struct ctx_row r = {};
		int pos = 0;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%u %d %n", &r.uid, &r.pid, &pos) < 2)
			die("bad contexts line: %s", line);
		snprintf(r.comm, sizeof(r.comm), "%s", line + pos);
		t->ctx = grow(t->ctx, t->nctx, sizeof(*t->ctx));
		t->ctx[t->nctx++] = r;
	}
	fclose(f);
}

static void read_objects(struct table *t)
{
	char line[256];
	FILE *f = open_dev_file("fw/objects", "r");

	if (!fgets(line, sizeof(line), f))
		die("%s: empty objects file", dev_name);
	while (fgets(line, sizeof(line), f)) {
		struct obj_row r = {};

		if (sscanf(line, "%31s %x %u %u", r.type, &r.id, &r.uid,
			   &r.users) != 4)
			die("bad objects line: %s", line);
		t->obj = grow(t->obj, t->nobj, sizeof(*t->obj));
		t->obj[t->nobj++] = r;
	}
	fclose(f);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static unsigned int objects_of(const struct table *t, unsigned int uid)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->nobj; i++)
		n += t->obj[i].uid == uid;
	return n;
}

static int cmd_contexts(void)
{
	struct table t = {};
	unsigned int i;

	read_contexts(&t);
	read_objects(&t);
	if (json) {
		printf("{\"device\": ");
		json_str(dev_name);
		printf(", \"contexts\": [");
		for (i = 0; i < t.nctx; i++) {
			printf("%s{\"uid\": %u, \"pid\": %d, \"comm\": ",
			       i ? ", " : "", t.ctx[i].uid, t.ctx[i].pid);
			json_str(t.ctx[i].comm);
			printf(", \"devx\": %s, \"objects\": %u}",
			       t.ctx[i].uid ? "true" : "false",
			       t.ctx[i].uid ? objects_of(&t, t.ctx[i].uid) : 0);
		}
		printf("]}\n");
		return 0;
	}
	printf("%-6s %-8s %-16s %s\n", "UID", "PID", "COMMAND", "OBJECTS");
	for (i = 0; i < t.nctx; i++) {
		if (t.ctx[i].uid)
			printf("%-6u %-8d %-16s %u\n", t.ctx[i].uid,
			       t.ctx[i].pid, t.ctx[i].comm,
			       objects_of(&t, t.ctx[i].uid));
		else
			printf("%-6s %-8d %-16s %s\n", "-", t.ctx[i].pid,
			       t.ctx[i].comm, "(no DEVX: objects are the kernel's)");
	}
	return 0;
}

static const struct ctx_row *ctx_of(const struct table *t, unsigned int uid)
{
	unsigned int i;

	for (i = 0; uid && i < t->nctx; i++)
		if (t->ctx[i].uid == uid)
			return &t->ctx[i];
	return NULL;
}

static int by_uid_type_id(const void *a, const void *b)
{
	const struct obj_row *x = a, *y = b;
	int c;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	c = strcmp(x->type, y->type);
	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void print_owner(const struct table *t, unsigned int uid)
{
	const struct ctx_row *c = ctx_of(t, uid);

	if (!uid)
		printf("uid 0 (kernel)\n");
	else if (c)
		printf("uid %u (pid %d, %s)\n", uid, c->pid, c->comm);
	else
		printf("uid %u (no open context)\n", uid);
}

static int cmd_objects(long want_uid, const char *want_type)
{
	struct table t = {};
	unsigned int i, shown = 0;
	long last = -1;

	read_contexts(&t);
	read_objects(&t);
	qsort(t.obj, t.nobj, sizeof(*t.obj), by_uid_type_id);
	if (json) {
		printf("{\"device\": ");
		json_str(dev_name);
		printf(", \"objects\": [");
	}
	for (i = 0; i < t.nobj; i++) {
		const struct obj_row *o = &t.obj[i];
		const struct ctx_row *c = ctx_of(&t, o->uid);

		if (want_uid >= 0 && o->uid != want_uid)
			continue;
		if (want_type && strcmp(o->type, want_type))
			continue;
		if (json) {
			printf("%s{\"type\": ", shown ? ", " : "");
			json_str(o->type);
			printf(", \"id\": %u, \"uid\": %u, \"users\": %u, \"pid\": ",
			       o->id, o->uid, o->users);
			if (c)
				printf("%d", c->pid);
			else
				printf("null");
			printf("}");
		} else {
			if (o->uid != last) {
				if (shown)
					putchar('\n');
				print_owner(&t, o->uid);
				printf("  %-14s %-10s %s\n", "TYPE", "ID",
				       "USERS");
				last = o->uid;
			}
			printf("  %-14s 0x%-8x %u\n", o->type, o->id,
			       o->users);
		}
		shown++;
	}
	if (json)
		printf("]}\n");
	else if (!shown)
		printf("no objects\n");
	return 0;
}

static int cmd_stats(void)
{
	char key[64];
	unsigned long long val;
	FILE *f = open_dev_file("fw/stats", "r");
	bool first = true;

	if (json) {
		printf("{\"device\": ");
		json_str(dev_name);
	}
	while (fscanf(f, "%63s %llu", key, &val) == 2) {
		if (json)
			printf(", \"%s\": %llu", key, val);
		else
			printf("%-10s %llu\n", key, val);
		first = false;
	}
	fclose(f);
	if (json)
		printf("}\n");
	if (first)
		die("%s: empty stats", dev_name);
	return 0;
}

static long read_knob(const char *file)
{
	FILE *f = open_dev_file(file, "r");
	long v;

	if (fscanf(f, "%ld", &v) != 1)
		die("cannot read %s", file);
	fclose(f);
	return v;
}

static void write_knob(const char *file, long v)
{
	FILE *f = open_dev_file(file, "w");

	if (fprintf(f, "%ld\n", v) < 0 || fclose(f))
		die("cannot write %s (value refused)", file);
}

static long parse_num(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || end == s || v < lo || v > hi)
		die("bad number: %s", s);
	return v;
}

static int cmd_fault(int argc, char **argv)
{
	if (argc == 1 || !strcmp(argv[1], "show")) {
		long next = read_knob("fw/fail_next");
		long op = read_knob("fw/fail_opcode");

		if (json)
			printf("{\"fail_next\": %ld, \"fail_opcode\": %ld}\n",
			       next, op);
		else
			printf("fail_next   %ld\nfail_opcode %s%lx\n", next,
			       op < 0 ? "none" : "0x", op < 0 ? 0 : op);
		return 0;
	}
	if (!strcmp(argv[1], "next") && argc == 3) {
		write_knob("fw/fail_next", parse_num(argv[2], 0, 0x7fffffff));
		return 0;
	}
	if (!strcmp(argv[1], "opcode") && argc == 3) {
		write_knob("fw/fail_opcode", parse_num(argv[2], 0, 0xffff));
		return 0;
	}
	if (!strcmp(argv[1], "clear") && argc == 2) {
		write_knob("fw/fail_next", 0);
		write_knob("fw/fail_opcode", -1);
		return 0;
	}
	return 2;
}

static int cmd_devices(void)
{
	struct dirent *de;
	bool first = true;
	DIR *d = opendir(root);

	if (!d)
		die("no mlx5x debugfs at %s (module loaded? debugfs mounted?)",
		    root);
	if (json)
		printf("{\"devices\": [");
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (json) {
			printf("%s", first ? "" : ", ");
			json_str(de->d_name);
		} else {
			printf("%s\n", de->d_name);
		}
		first = false;
	}
	closedir(d);
	if (json)
		printf("]}\n");
	return 0;
}

/*
 * classify: hand a packet to fw/classify and print the trace as a table,
 * one row per step (STEP and its key=value pairs), or as JSON: {"device",
 * "steps": [{"step": ..., key: value, ...}], "verdicts": [...]}.
 */
#define TRACE_MAX	(64 * 1024)

static bool hex_ok(const char *h)
{
	size_t n = 0;

	for (; *h; h++) {
		if (*h == ':' || *h == ' ')
			continue;
		if (!isxdigit((unsigned char)*h))
			return false;
		n++;
	}
	return n && !(n & 1);
}

static void json_step(char *line, bool first)
{
	char *tok, *save, *eq;

	tok = strtok_r(line, " ", &save);
	printf("%s{\"step\": ", first ? "" : ", ");
	json_str(tok);
	while ((tok = strtok_r(NULL, " ", &save))) {
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		printf(", ");
		json_str(tok);
		printf(": ");
		json_str(eq + 1);
	}
	printf("}");
}

static void print_trace(char *trace)
{
	char *line, *save, *rest;
	unsigned int n = 0;

	if (json) {
		printf("{\"device\": ");
		json_str(dev_name);
		printf(", \"steps\": [");
	} else {
		printf("%-4s %-9s %s\n", "#", "STEP", "DETAIL");
	}
	for (line = strtok_r(trace, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		if (json) {
			json_step(line, !n);
			continue;
		}
		rest = strchr(line, ' ');
		if (rest)
			*rest++ = '\0';
		printf("%-4u %-9s %s\n", n, line, rest ? rest : "");
	}
	if (json)
		printf("]}\n");
}

static int cmd_classify(int argc, char **argv)
{
	char path[512], *req, *trace;
	long port = 1;
	ssize_t len;
	int fd;

	if (argc < 3 || argc > 4 ||
	    (strcmp(argv[1], "rx") && strcmp(argv[1], "tx") &&
	     strcmp(argv[1], "rdma_rx") && strcmp(argv[1], "rdma_tx")) ||
	    !hex_ok(argv[2]))
		return 2;
	if (argc == 4)
		port = parse_num(argv[3], 1, 255);
	snprintf(path, sizeof(path), "%s/%s/fw/classify", root, dev_name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		die("cannot open fw/classify: %s", strerror(errno));
	if (asprintf(&req, "%s %ld %s\n", argv[1], port, argv[2]) < 0)
		die("%s", "out of memory");
	if (write(fd, req, strlen(req)) < 0)
		die("packet refused: %s", strerror(errno));
	free(req);
	trace = malloc(TRACE_MAX);
	if (!trace)
		die("%s", "out of memory");
	len = read(fd, trace, TRACE_MAX - 1);
	close(fd);
	if (len <= 0)
		die("%s", "no trace");
	trace[len] = '\0';
	print_trace(trace);
	free(trace);
	return 0;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: mlx5x [-d DEV] [--json] COMMAND\n"
		"  devices                  the mlx5x devices\n"
		"  contexts                 open user contexts: uid, pid, command, objects\n"
		"  objects [--uid N] [--type T]\n"
		"                           firmware objects, grouped by owning context\n"
		"  stats                    commands run, failed; live objects\n"
		"  fault [show]             the fault injection settings\n"
		"  fault next N             fail the next N commands\n"
		"  fault opcode OP          fail every command with opcode OP\n"
		"  fault clear              no more injected failures\n"
		"  classify rx|tx|rdma_rx|rdma_tx HEX [PORT]\n"
		"                           where steering sends a packet (HEX: its\n"
		"                           bytes from the Ethernet header), step by step\n"
		"Environment: MLX5X_DEBUGFS (default /sys/kernel/debug/mlx5x)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "uid", required_argument, NULL, 'u' },
		{ "type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *want_type = NULL;
	long want_uid = -1;
	int c, rc;

	root = getenv("MLX5X_DEBUGFS") ?: "/sys/kernel/debug/mlx5x";
	while ((c = getopt_long(argc, argv, "d:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev_name = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'u':
			want_uid = parse_num(optarg, 0, 0xffff);
			break;
		case 't':
			want_type = optarg;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		print_help(stderr);
		return 2;
	}
	if (!strcmp(argv[0], "devices"))
		return cmd_devices();
	pick_device();
	if (!strcmp(argv[0], "contexts") && argc == 1)
		rc = cmd_contexts();
	else if (!strcmp(argv[0], "objects"))
		rc = argc == 1 ? cmd_objects(want_uid, want_type) : 2;
	else if (!strcmp(argv[0], "stats") && argc == 1)
		rc = cmd_stats();
	else if (!strcmp(argv[0], "fault"))
		rc = cmd_fault(argc, argv);
	else if (!strcmp(argv[0], "classify"))
		rc = cmd_classify(argc, argv);
	else
		rc = 2;
	if (rc == 2)
		print_help(stderr);
	return rc;
}
