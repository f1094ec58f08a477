// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's debugfs, as the selftests see it: its object
 * table, its statistics and its fault knobs; see mlx5x_test.h.  On
 * hardware (or with MLX5X_NO_MODEL) mt_sim() is false and cases that need
 * the model skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlx5x_test.h"

/* Disarm every fault knob of the model: a case may stop half way. */
void mt_fw_disarm(void)
{
	if (!mt_sim())
		return;
	mt_fw_write("fail_nth", "0");
	mt_fw_fail_next(0);
	mt_fw_fail_opcode(-1);
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
