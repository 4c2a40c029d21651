/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workload_run.h - run a workload's command: fork, pin to its CPU with
 * sched_setaffinity, execvp (never a shell), wait, time it.  The
 * memcal-load trace and report files are handed over through the
 * environment (MEMCAL_LOAD_TRACE, MEMCAL_LOAD_REPORT).
 */
#ifndef MEMTUNE_WORKLOAD_RUN_H
#define MEMTUNE_WORKLOAD_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "memcal_status.h"

/**
 * struct runner_job - one running workload.
 * @argv:        command (argv[0] looked up in PATH; "memcal-load" is
 *               first looked for next to the memtune binary).
 * @cpu:         CPU to pin to (-1: not pinned).
 * @trace_path:  value of MEMCAL_LOAD_TRACE, or NULL.
 * @report_path: value of MEMCAL_LOAD_REPORT, or NULL.
 * @before_exec: if set, called in the parent with the child's pid while
 *               the child waits to exec (e.g. to attach perf counters);
 *               a non-zero return kills the child.
 * @hook_user:   handed to @before_exec.
 * @stop_pid:    if not 0, a process (a probe timing this job) that
 *               tune_runner_wait_all() sends SIGINT when this job exits.
 * @pid:         (out) child.
 * @start_ns:    (out) start time.
 * @end_ns:      (out) exit time.
 * @status:      (out) wait status.
 * @done:        (out) reaped.
 */
struct runner_job {
	char **argv;
	int cpu;
	const char *trace_path;
	const char *report_path;
	int (*before_exec)(pid_t pid, void *user);
	void *hook_user;
	pid_t stop_pid;
	pid_t pid;
	uint64_t start_ns, end_ns;
	int status;
	int done;
};

uint64_t tune_runner_now_ns(void);
void tune_runner_sort_times(double *t, unsigned n);
int tune_runner_resolve(const char *name, char *buf, size_t len);
int tune_runner_start(struct runner_job *j, char *err, size_t errlen);
int tune_runner_wait_all(struct runner_job *jobs, int n, uint64_t timeout_ns,
		    char *err, size_t errlen);
int tune_runner_exit_ok(const struct runner_job *j, char *err, size_t errlen);

#endif /* MEMTUNE_WORKLOAD_RUN_H */
