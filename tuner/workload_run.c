// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload_run.c - start and reap workload processes (see workload_run.h).  A
 * close-on-exec pipe tells the parent whether execvp() failed, so that a
 * command that does not exist is an error with its name, not a run that
 * "finished" in a millisecond.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload_run.h"

/* cmp_double - qsort comparator, ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/**
 * tune_runner_sort_times() - sort @n run times ascending: the median run
 * is then t[n / 2], the fastest t[0].
 */
void tune_runner_sort_times(double *t, unsigned n)
{
	qsort(t, n, sizeof(*t), cmp_double);
}

/** tune_runner_now_ns() - CLOCK_MONOTONIC in ns. */
uint64_t tune_runner_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * sibling_path - "DIR/memcal-load" where DIR holds the running binary,
 * when argv[0] is the bare name memcal-load and that file exists.
 */
static const char *sibling_path(const char *name, char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (strcmp(name, "memcal-load"))
		return name;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return name;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return name;
	*slash = '\0';
	n = snprintf(buf, len, "%s/%s", self, name);
	if (n < 0 || (size_t)n >= len)
		return name;
	return access(buf, X_OK) ? name : buf;
}

/**
 * tune_runner_resolve() - the file tune_runner_start() would run for @name: the
 * sibling memcal-load, a name with a slash as given, else the first
 * executable match along $PATH (execvp's default when unset); written to
 * @buf as an absolute path without symbolic links.
 * Return: 0, MEMCAL_ENOTFOUND when no executable file answers to @name,
 * or MEMCAL_ERANGE when its path does not fit in @len.
 */
int tune_runner_resolve(const char *name, char *buf, size_t len)
{
	char sib[PATH_MAX], cand[PATH_MAX], real[PATH_MAX];
	const char *file = sibling_path(name, sib, sizeof(sib));
	const char *path = getenv("PATH");

	if (!name || !*name)
		return MEMCAL_ENOTFOUND;
	if (strchr(file, '/')) {
		if (access(file, X_OK) || !realpath(file, real))
			return MEMCAL_ENOTFOUND;
		return snprintf(buf, len, "%s", real) >= (int)len ?
		       MEMCAL_ERANGE : 0;
	}
	if (!path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, n ? path : ".",
			 file);
		if (!access(cand, X_OK) && realpath(cand, real))
			return snprintf(buf, len, "%s", real) >= (int)len ?
			       MEMCAL_ERANGE : 0;
		path += n + (path[n] == ':');
	}
	return MEMCAL_ENOTFOUND;
}

/**
 * tune_runner_start() - fork and exec @j, pinned to @j->cpu.
 * Return: 0, or a MEMCAL_E* code with @err naming the command and the reason.
 */
int tune_runner_start(struct runner_job *j, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const char *file = sibling_path(j->argv[0], path, sizeof(path));
	int pfd[2], gfd[2], child_errno = 0;
	ssize_t got;

	if (pipe2(pfd, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return MEMCAL_ERROR;
	}
	if (pipe2(gfd, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return MEMCAL_ERROR;
	}
	fflush(NULL);
	j->start_ns = tune_runner_now_ns();
	j->done = 0;
	j->pid = fork();
	if (j->pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		close(gfd[0]);
		close(gfd[1]);
		return MEMCAL_ERROR;
	}
	if (j->pid == 0) {
		int e;
		char go;

		close(pfd[0]);
		close(gfd[1]);
		if (read(gfd[0], &go, 1) != 1)
			_exit(126);	/* parent refused: do not run */
		if (j->cpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(j->cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set)) {
				e = errno;
				(void)!write(pfd[1], &e, sizeof(e));
				_exit(127);
			}
		}
		if (j->trace_path)
			setenv("MEMCAL_LOAD_TRACE", j->trace_path, 1);
		if (j->report_path)
			setenv("MEMCAL_LOAD_REPORT", j->report_path, 1);
		execvp(file, j->argv);
		e = errno;
		(void)!write(pfd[1], &e, sizeof(e));
		_exit(127);
	}
	close(pfd[1]);
	close(gfd[0]);
	if (j->before_exec && j->before_exec(j->pid, j->hook_user)) {
		close(gfd[1]);
		close(pfd[0]);
		waitpid(j->pid, &j->status, 0);
		j->done = 1;
		snprintf(err, errlen, "could not prepare '%s' for measurement",
			 j->argv[0]);
		return MEMCAL_ERROR;
	}
	j->start_ns = tune_runner_now_ns();
	(void)!write(gfd[1], "g", 1);
	close(gfd[1]);
	got = read(pfd[0], &child_errno, sizeof(child_errno));
	close(pfd[0]);
	if (got == (ssize_t)sizeof(child_errno)) {
		waitpid(j->pid, &j->status, 0);
		j->done = 1;
		snprintf(err, errlen, "cannot run '%s'%s%.0d: %s", j->argv[0],
			 j->cpu >= 0 ? " pinned to cpu " : "",
			 j->cpu >= 0 ? j->cpu : 0, strerror(child_errno));
		return MEMCAL_ERROR;
	}
	return 0;
}

/**
 * tune_runner_wait_all() - reap every job of @jobs, recording each one's exit
 * time; after @timeout_ns (0: none) the rest are killed.
 * Return: 0, or a MEMCAL_E* code with @err when a timeout struck.
 */
int tune_runner_wait_all(struct runner_job *jobs, int n, uint64_t timeout_ns,
		    char *err, size_t errlen)
{
	uint64_t t0 = tune_runner_now_ns();
	int left = 0, rc = 0;

	for (int i = 0; i < n; i++)
		left += !jobs[i].done;
	while (left > 0) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			for (int i = 0; i < n; i++)
				if (!jobs[i].done && jobs[i].pid == pid) {
					jobs[i].end_ns = tune_runner_now_ns();
					jobs[i].status = status;
					jobs[i].done = 1;
					left--;
					if (jobs[i].stop_pid > 0)
						kill(jobs[i].stop_pid, SIGINT);
				}
			continue;
		}
		if (pid < 0 && errno != EINTR)
			break;
		if (timeout_ns && tune_runner_now_ns() - t0 > timeout_ns && !rc) {
			for (int i = 0; i < n; i++)
				if (!jobs[i].done)
					kill(jobs[i].pid, SIGKILL);
			snprintf(err, errlen, "workloads still running after "
				 "%llu s were killed",
				 (unsigned long long)(timeout_ns / 1000000000ull));
			rc = MEMCAL_ERROR;
		}
		{
			struct timespec ts = { 0, 200000 };

			nanosleep(&ts, NULL);
		}
	}
	return rc;
}

/**
 * tune_runner_exit_ok() - whether @j exited with status 0.
 * Return: 0, or a MEMCAL_E* code with @err describing how it ended.
 */
int tune_runner_exit_ok(const struct runner_job *j, char *err, size_t errlen)
{
	if (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0)
		return 0;
	if (WIFEXITED(j->status))
		snprintf(err, errlen, "'%s' exited with status %d", j->argv[0],
			 WEXITSTATUS(j->status));
	else if (WIFSIGNALED(j->status))
		snprintf(err, errlen, "'%s' was killed by signal %d",
			 j->argv[0], WTERMSIG(j->status));
	else
		snprintf(err, errlen, "'%s' ended abnormally", j->argv[0]);
	return MEMCAL_ERROR;
}
