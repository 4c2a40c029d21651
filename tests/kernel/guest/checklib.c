// SPDX-License-Identifier: GPL-2.0
/*
 * checklib.c - the guest checkers' shared library (interface and file map
 * in checklib.h): check lines, sysfs access, workloads, trace parsing,
 * statistics.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "checklib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- plan and verdict lines ---------------------------------------- */

void mr_plan(const char *name, ...)
{
	va_list ap;
	const char *s;

	fputs("MEMREG-PLAN", stdout);
	va_start(ap, name);
	for (s = name; s; s = va_arg(ap, const char *))
		printf(" %s", s);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int mr_check(const char *name, int pass, const char *fmt, ...)
{
	va_list ap;

	printf("MEMREG-CHECK %s %s ", name, pass ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return pass;
}

/* ---- sysfs and other files ------------------------------------------ */

static void vpath(char *p, size_t n, const char *fmt, va_list ap)
{
	int k = snprintf(p, n, "%s/", MR_SYSFS);

	vsnprintf(p + k, n - (size_t)k, fmt, ap);
}

static const char *read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return buf;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

long long mr_get(const char *fmt, ...)
{
	char p[256], buf[64];
	va_list ap;

	va_start(ap, fmt);
	vpath(p, sizeof(p), fmt, ap);
	va_end(ap);
	return strtoll(read_line(p, buf, sizeof(buf)), NULL, 10);
}

long long mr_cpu(int cpu, const char *name)
{
	return mr_get("cpu%d/%s", cpu, name);
}

const char *mr_gets(char *buf, size_t n, const char *fmt, ...)
{
	char p[256];
	va_list ap;

	va_start(ap, fmt);
	vpath(p, sizeof(p), fmt, ap);
	va_end(ap);
	return read_line(p, buf, n);
}

/* O_TRUNC as the shell's ">": opening the trace buffer so clears it */
int mr_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t w;
	int err;

	if (fd < 0)
		return -errno;
	w = write(fd, val, strlen(val));
	err = w < 0 ? -errno : 0;
	close(fd);
	return err;
}

int mr_put(const char *val, const char *fmt, ...)
{
	char p[256];
	va_list ap;

	va_start(ap, fmt);
	vpath(p, sizeof(p), fmt, ap);
	va_end(ap);
	return mr_write(p, val);
}

int mr_putll(long long val, const char *fmt, ...)
{
	char p[256], v[32];
	va_list ap;

	va_start(ap, fmt);
	vpath(p, sizeof(p), fmt, ap);
	va_end(ap);
	snprintf(v, sizeof(v), "%lld\n", val);
	return mr_write(p, v);
}

int mr_commit(void)
{
	return mr_put("1\n", "commit");
}

/* ---- workloads ------------------------------------------------------ */

int mr_run(char *out, size_t n, char *const argv[])
{
	int fd[2], st;
	size_t got = 0;
	ssize_t r;
	pid_t pid;

	if (n)
		out[0] = '\0';
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while (n && got < n - 1 && (r = read(fd[0], out + got, n - 1 - got)) > 0)
		got += (size_t)r;
	if (n)
		out[got] = '\0';
	{
		char sink[256];

		while (read(fd[0], sink, sizeof(sink)) > 0)
			;
	}
	close(fd[0]);
	if (n)
		out[strcspn(out, "\n")] = '\0';
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

pid_t mr_spawn(const char *out, char *const argv[])
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0)
			dup2(fd, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int mr_klog_has(const char *needle)
{
	static char buf[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

pid_t mr_hog(int cpu, int secs)
{
	char c[16], t[16];
	char *argv[] = { "/pfload", "-c", c, "-t", t, NULL };

	snprintf(c, sizeof(c), "%d", cpu);
	snprintf(t, sizeof(t), "%d", secs);
	return mr_spawn(NULL, argv);
}

void mr_stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		mr_reap(pid);
	}
}

int mr_reap(pid_t pid)
{
	int st;

	if (pid <= 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

double mr_field(const char *line, const char *key, double def)
{
	size_t k = strlen(key);
	const char *p;

	for (p = line; (p = strstr(p, key)); p += k) {
		if ((p == line || p[-1] == ' ') && p[k] == '=')
			return strtod(p + k + 1, NULL);
	}
	return def;
}

/* ---- tracepoints ---------------------------------------------------- */

static void trace_put(const char *val, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", MR_TRACE, rel);
	mr_write(p, val);
}

void mr_trace_on(const char *event)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "events/memreg/%s/enable", event);
	trace_put("0\n", "tracing_on");
	trace_put("\n", "trace");
	trace_put("4096\n", "buffer_size_kb");
	trace_put("1\n", rel);
	trace_put("1\n", "tracing_on");
}

void mr_trace_off(const char *event)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "events/memreg/%s/enable", event);
	trace_put("0\n", "tracing_on");
	trace_put("0\n", rel);
}

int mr_trace_line(const char *line, struct mr_trace_rec *r)
{
	const char *p = line[0] == '#' ? NULL : strchr(line, '[');
	long long sec, usec;
	char *end;
	int n = 0;

	if (!p)
		return 0;
	r->cpu = (int)strtol(p + 1, &end, 10);
	if (end == p + 1 || *end != ']')
		return 0;
	/* the flags, then "SECONDS.MICROSECONDS: " */
	if (sscanf(end + 1, " %*s %lld.%lld: %n", &sec, &usec, &n) != 2 || !n)
		return 0;
	r->ns = sec * 1000000000LL + usec * 1000LL;
	r->event = end + 1 + n;
	return 1;
}

/* for_each_event: call FN on the text after "EVENT: cpu=CPU " of every
 * matching line of the trace buffer */
static void for_each_event(const char *event, int cpu,
			   void (*fn)(const char *rest, void *arg), void *arg)
{
	char line[512], tag[64];
	struct mr_trace_rec r;
	size_t len;
	FILE *f = fopen(MR_TRACE "/trace", "r");

	if (!f)
		return;
	len = (size_t)snprintf(tag, sizeof(tag), "%s: cpu=%d ", event, cpu);
	while (fgets(line, sizeof(line), f))
		if (mr_trace_line(line, &r) && !strncmp(r.event, tag, len))
			fn(r.event + len, arg);
	fclose(f);
}

struct vec {
	void *v;
	size_t n, cap, size;
};

static void *vec_push(struct vec *a)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		void *v = realloc(a->v, cap * a->size);

		if (!v)
			return NULL;
		a->v = v;
		a->cap = cap;
	}
	return (char *)a->v + a->size * a->n++;
}

static void add_period(const char *rest, void *arg)
{
	struct mr_period p;
	struct mr_period *slot;

	if (sscanf(rest, "period=%lld read=%lld/%lld", &p.idx, &p.used, &p.budget) != 3)
		return;
	p.throttled = (int)mr_field(rest, "throttled", 0);
	p.stale = (int)mr_field(rest, "stale", 0);
	slot = vec_push(arg);
	if (slot)
		*slot = p;
}

static int by_idx(const void *a, const void *b)
{
	long long x = ((const struct mr_period *)a)->idx;
	long long y = ((const struct mr_period *)b)->idx;

	return (x > y) - (x < y);
}

size_t mr_trace_periods(int cpu, struct mr_period **out)
{
	struct vec a = { .size = sizeof(struct mr_period) };

	for_each_event("period", cpu, add_period, &a);
	if (a.n)
		qsort(a.v, a.n, a.size, by_idx);
	*out = a.v;
	return a.n;
}

/* ---- statistics ----------------------------------------------------- */

/*
 * scan_tasks - call @fn with each task's pid and name (its comm, newline
 * removed) until it returns non-zero; that value, 0 after the last
 * task, or -1 when /proc cannot be read.
 */
static long scan_tasks(long (*fn)(long pid, const char *comm, const void *arg),
		       const void *arg)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long r = 0;

	if (!d)
		return -1;
	while (!r && (e = readdir(d))) {
		char path[300], comm[64] = "";
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			r = fn(atol(e->d_name), comm, arg);
		}
		fclose(f);
	}
	closedir(d);
	return r;
}

static long count_prefix(long pid, const char *comm, const void *arg)
{
	struct { const char *prefix; int n; } *c = (void *)arg;

	(void)pid;
	c->n += !strncmp(comm, c->prefix, strlen(c->prefix));
	return 0;
}

int mr_tasks(const char *prefix)
{
	struct { const char *prefix; int n; } c = { prefix, 0 };

	return scan_tasks(count_prefix, &c) < 0 ? -1 : c.n;
}

static long match_comm(long pid, const char *comm, const void *arg)
{
	return strcmp(comm, arg) ? 0 : pid;
}

pid_t mr_task_pid(const char *comm)
{
	long pid = scan_tasks(match_comm, comm);

	return pid > 0 ? (pid_t)pid : -1;
}

int mr_stat_field(pid_t pid, int n, char *buf, size_t len)
{
	char path[64], line[1024], *p;
	FILE *f;
	int k;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	/* the command may hold spaces: count from its closing parenthesis */
	p = strrchr(line, ')');
	for (k = 2; p && k < n; k++)
		p = strchr(p + 1, ' ');
	if (!p || n < 3)
		return -1;
	snprintf(buf, len, "%.*s", (int)strcspn(p + 1, " \n"), p + 1);
	return buf[0] ? 0 : -1;
}

long mr_throttle_prio(int cpu)
{
	char comm[32], field[32];
	pid_t pid;

	snprintf(comm, sizeof(comm), "memreg/%d", cpu);
	pid = mr_task_pid(comm);
	if (pid < 0 || mr_stat_field(pid, 40, field, sizeof(field)))
		return -1;
	return atol(field);
}

int mr_insmod(const char *ko, const char *params)
{
	char cmd[600], out[8];
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };

	snprintf(cmd, sizeof(cmd), "insmod %s %s", ko, params);
	return mr_run(out, sizeof(out), argv);
}

int mr_rmmod(void)
{
	char out[8];
	char *argv[] = { "/bin/sh", "-c", "rmmod memreg", NULL };

	return mr_run(out, sizeof(out), argv);
}

int mr_set_online(int cpu, int on)
{
	char path[80];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return mr_write(path, on ? "1" : "0");
}

long long mr_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int mr_timers(int cpu, const char *fn, long long p_ns, struct mr_timers *t)
{
	FILE *f = fopen("/proc/timer_list", "r");
	size_t len = strlen(fn);
	char line[512];
	int cur = -1, want = 0;

	t->n = 0;
	t->phase = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		long long soft;
		const char *p;

		if (sscanf(line, "cpu: %d", &cur) == 1)
			continue;
		if (want && (p = strstr(line, "expires at ")) &&
		    sscanf(p, "expires at %lld-", &soft) == 1) {
			t->phase = soft % p_ns;
			want = 0;
			continue;
		}
		/* " #0: <hash>, mrk_timer_fn [memreg], S:01" */
		p = strstr(line, ", ");
		want = cur == cpu && line[0] == ' ' && line[1] == '#' && p &&
		       !strncmp(p + 2, fn, len) &&
		       (p[2 + len] == ' ' || p[2 + len] == ',');
		t->n += want;
	}
	fclose(f);
	return 0;
}

int mr_timers_want(int cpu, const char *fn, long long p_ns, int want,
		   struct mr_timers *t)
{
	int rc = mr_timers(cpu, fn, p_ns, t);

	for (int i = 0; i < 5 && !rc && t->n != want; i++) {
		mr_sleep(0.01);
		rc = mr_timers(cpu, fn, p_ns, t);
	}
	return rc;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double mr_quantile(double *v, size_t n, double q)
{
	size_t k;

	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), by_value);
	k = (size_t)((double)n * q);
	return v[(k ? k : 1) - 1];
}

double mr_median(double *v, size_t n)
{
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), by_value);
	return v[(n + 1) / 2 - 1];
}

double mr_per(double a, double b)
{
	return a / (b != 0 ? b : 1);
}

/* ---- the calling thread -------------------------------------------- */

int mr_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

void mr_sleep(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- page-fault workloads ------------------------------------------ */

long long mr_round(double x)
{
	return llrint(x);
}

struct mr_pf mr_pf(int cpu, double secs)
{
	char c[16], t[16];
	char *argv[] = { "/pfload", "-c", c, "-t", t, NULL };
	struct mr_pf r;

	snprintf(c, sizeof(c), "%d", cpu);
	snprintf(t, sizeof(t), "%g", secs);
	mr_run(r.line, sizeof(r.line), argv);
	r.faults = mr_field(r.line, "faults", 0);
	r.secs = mr_field(r.line, "secs", 0);
	r.rate = mr_field(r.line, "rate", 0);
	return r;
}

struct mr_left mr_left_out(void)
{
	char *argv[] = { "/bin/sh", "-c", "dmesg | grep 'cpu 1 is not "
			 "regulated' | tail -1 | cut -c1-200", NULL };
	struct mr_left l = { 0 };

	l.logged = mr_run(l.msg, sizeof(l.msg), argv) == 0;
	l.sh[0] = mr_cpu(0, "read_shared");
	l.th[0] = mr_cpu(0, "throttles");
	mr_sleep(1.0);
	l.sh[1] = mr_cpu(0, "read_shared");
	l.th[1] = mr_cpu(0, "throttles");
	return l;
}

struct mr_pp mr_per_period(int cpu, double secs, const char *stat)
{
	long long e0 = mr_cpu(cpu, "read_events"), n0 = mr_cpu(cpu, "periods"), s0 = mr_cpu(cpu, stat);
	struct mr_pp r;

	mr_pf(cpu, secs);
	r.periods = mr_cpu(cpu, "periods") - n0;
	r.events = mr_cpu(cpu, "read_events") - e0;
	r.used = mr_round(mr_per((double)r.events, (double)r.periods));
	r.stat = mr_cpu(cpu, stat) - s0;
	return r;
}

/*
 * The emulated CPU manages only 5,000..25,000 page faults per second
 * (depending on the host's load), so a 1 ms period would leave budgets of
 * 1..10 events, where one event of rounding is already 10-100 %.  Pick the
 * period (10..100 ms) that gives the smallest budget (10 % of R0) at least
 * 20 events: period_us = 20 / (0.1 * R0) s.
 */
long long mr_pick_period(double r0)
{
	return r0 > 20000 ? 10000 : r0 < 2000 ? 100000 : mr_round(2e8 / r0);
}

/* ---- sub-commands -------------------------------------------------- */

int mr_dispatch(const struct mr_cmd *cmds, size_t n, int argc, char **argv)
{
	const char *prog = argc > 0 ? argv[0] : "?";
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < n; i++)
		if (!strcmp(argv[1], cmds[i].name) && argc - 2 == cmds[i].nargs)
			return cmds[i].fn(argv + 2);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s %s %s%s%s\n", i ? "      " : "usage:", prog, cmds[i].name,
			*cmds[i].args ? " " : "", cmds[i].args);
	return 2;
}
