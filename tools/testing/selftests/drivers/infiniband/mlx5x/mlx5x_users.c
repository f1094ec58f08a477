// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Cases that run as users other than root: a child process drops to a
 * uid (and its gid, no supplementary groups) with only the capabilities
 * it keeps, then does what such a user would.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "mlx5x_test.h"

/**
 * mt_drop_to() - become another user
 * @uid: the uid, and the gid, to take
 * @keep: the capabilities kept (MT_CAP() bits); all others are dropped
 *
 * The model's debugfs is forgotten too (mt_sim() is false afterwards):
 * such a user cannot read it.
 *
 * Return: true when it worked.
 */
bool mt_drop_to(uid_t uid, uint64_t keep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	unsigned int i;

	mt.dbg[0] = '\0';
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    prctl(PR_SET_KEEPCAPS, 1) || setresuid(uid, uid, uid))
		return false;
	for (i = 0; i < 2; i++)
		data[i].effective = data[i].permitted =
			(uint32_t)(keep >> (32 * i));
	if (syscall(SYS_capset, &hdr, data))
		return false;
	return geteuid() == uid && !prctl(PR_SET_KEEPCAPS, 0);
}

/**
 * mt_reap() - wait for a child
 * @pid: the child (a failed fork's -1 is taken too)
 *
 * Return: its exit status, or -1 when it did not exit.
 */
int mt_reap(pid_t pid)
{
	int status;

	if (pid <= 0 || mt_waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/**
 * mt_run_as() - run a function in a child dropped to another user
 * @uid: the user
 * @keep: the capabilities it keeps
 * @fn: what it runs; its return value is the child's exit status
 * @arg: passed to @fn
 *
 * Return: @fn's value; MT_CHILD_FAILED when a check in the child failed;
 * 100 when the drop failed; -1 when the child died.
 */
int mt_run_as(uid_t uid, uint64_t keep, int (*fn)(void *), void *arg)
{
	pid_t pid;

	fflush(stdout);
	pid = mt_fork();
	if (pid == 0) {
		int rc = mt_drop_to(uid, keep) ? fn(arg) : 100;

		if (mt_case_failures())
			rc = MT_CHILD_FAILED;
		fflush(stdout);
		_exit(rc);
	}
	return mt_reap(pid);
}
