// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_probe.c - per-job timing of real-time workloads for 'memtune
 * validate' (see latency_probe.h).
 *
 * Two sources fill one kind of distribution:
 *  - the workload's own jobs: memcal-load with --period-us writes its
 *    report ($MEMCAL_LOAD_REPORT) as "jobs N misses M max_ns X" followed
 *    by one "job_ns T" line per job (T: release to completion);
 *  - cyclictest (rt-tests), started pinned to the workload's core with
 *    the workload's period as its interval, at SCHED_FIFO priority
 *    LAT_PROBE_PRIORITY, with a histogram (-h) as wide as twice the
 *    deadline.  Each sample is the wake-up latency of a job released on
 *    that core at that period; a sample above the deadline is a job that
 *    could not even start before its deadline.  cyclictest is stopped
 *    with SIGINT when the workload exits and prints its histogram then.
 *
 * Percentiles are nearest-rank over 1 us buckets; a rank that falls past
 * the histogram is reported as the exact maximum.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "latency_probe.h"

/* Largest cyclictest output read back (its histogram is ~14 B a bucket). */
#define LAT_MAX_OUTPUT (16u << 20)

/**
 * tune_lat_range_us() - the histogram range used for @deadline_ns: twice the
 * deadline, at least 1 ms, at most LAT_MAX_BUCKETS us, so that every
 * deadline miss up to 100 ms is counted exactly.
 */
size_t tune_lat_range_us(uint64_t deadline_ns)
{
	uint64_t r = 2 * (deadline_ns / 1000) + 1;

	if (r < 1000)
		r = 1000;
	return r > LAT_MAX_BUCKETS ? LAT_MAX_BUCKETS : (size_t)r;
}

/**
 * tune_lat_dist_init() - an empty distribution of @n_buckets 1 us buckets
 * (1..LAT_MAX_BUCKETS) with deadline @deadline_ns.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int tune_lat_dist_init(struct lat_dist *d, size_t n_buckets, uint64_t deadline_ns)
{
	memset(d, 0, sizeof(*d));
	if (!n_buckets || n_buckets > LAT_MAX_BUCKETS)
		return -EINVAL;
	d->counts = calloc(n_buckets, sizeof(*d->counts));
	if (!d->counts)
		return -ENOMEM;
	d->n_buckets = n_buckets;
	d->deadline_ns = deadline_ns;
	return 0;
}

/* tune_lat_dist_free() - release @d's histogram; @d is empty afterwards. */
void tune_lat_dist_free(struct lat_dist *d)
{
	free(d->counts);
	memset(d, 0, sizeof(*d));
}

/* tune_lat_dist_add() - one sample of @ns nanoseconds. */
void tune_lat_dist_add(struct lat_dist *d, uint64_t ns)
{
	uint64_t b = ns / 1000;

	if (b < d->n_buckets)
		d->counts[b]++;
	else
		d->overflow++;
	d->samples++;
	if (ns > d->max_ns)
		d->max_ns = ns;
	if (ns > d->deadline_ns)
		d->misses++;
}

/**
 * tune_lat_dist_merge() - add the samples of @s (same range and deadline) to @d.
 * Return: 0 or -EINVAL when the two differ in range or deadline.
 */
int tune_lat_dist_merge(struct lat_dist *d, const struct lat_dist *s)
{
	if (d->n_buckets != s->n_buckets || d->deadline_ns != s->deadline_ns)
		return -EINVAL;
	for (size_t i = 0; i < d->n_buckets; i++)
		d->counts[i] += s->counts[i];
	d->overflow += s->overflow;
	d->samples += s->samples;
	d->misses += s->misses;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
	return 0;
}

/**
 * tune_lat_dist_percentile() - nearest-rank @pct percentile (0 < pct <= 100) in
 * ns: the start of the first bucket whose cumulative count reaches the
 * rank, or the maximum when the rank lies past the histogram.  0 when the
 * distribution is empty.
 */
uint64_t tune_lat_dist_percentile(const struct lat_dist *d, double pct)
{
	uint64_t rank, cum = 0;

	if (!d->samples)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)d->samples);
	if (rank < 1)
		rank = 1;
	if (rank > d->samples)
		rank = d->samples;
	for (size_t i = 0; i < d->n_buckets; i++) {
		cum += d->counts[i];
		if (cum >= rank)
			return (uint64_t)i * 1000;
	}
	return d->max_ns;
}

/* skip_blank - @s past spaces and tabs. */
static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * read_u64 - a decimal at @s (after blanks); *@end past it.  0, or
 * MEMCAL_ESYNTAX when there is none.
 */
static int read_u64(const char *s, uint64_t *v, const char **end)
{
	char *e;
	unsigned long long x;

	s = skip_blank(s);
	if (*s < '0' || *s > '9')
		return MEMCAL_ESYNTAX;
	errno = 0;
	x = strtoull(s, &e, 10);
	if (errno)
		return MEMCAL_ESYNTAX;
	*v = x;
	*end = e;
	return 0;
}

/* after_tag - the text after @tag when @line starts with it, else NULL. */
static const char *after_tag(const char *line, const char *tag)
{
	size_t n = strlen(tag);

	return strncmp(line, tag, n) ? NULL : line + n;
}

/* summary_field - the number after "@key:" in a "T: ..." line. */
static int summary_field(const char *line, const char *key, uint64_t *v)
{
	char pat[16];
	const char *p, *end;

	snprintf(pat, sizeof(pat), " %s:", key);
	p = strstr(line, pat);
	return p ? read_u64(p + strlen(pat), v, &end) : MEMCAL_ESYNTAX;
}

/**
 * struct ct_parse - what one pass over cyclictest output found.
 * @hist_lines: histogram lines seen.
 * @total:      "# Total:" (samples inside the histogram), -1 if absent.
 * @overflow:   "# Histogram Overflows:" of thread 0.
 * @max_us:     "# Max Latencies:" (or the summary's Max), -1 if absent.
 * @summary:    a "T: 0" summary line was seen.
 * @cycles:     its C: count.
 */
struct ct_parse {
	uint64_t hist_lines;
	int64_t total;
	uint64_t overflow;
	int64_t max_us;
	bool summary;
	uint64_t cycles;
};

/*
 * ct_line - fold one line of cyclictest output into @p and @d; 0 or
 * MEMCAL_ESYNTAX.
 */
static int ct_line(const char *line, struct ct_parse *p, struct lat_dist *d)
{
	const char *v, *end;
	uint64_t b, c;

	if (line[0] >= '0' && line[0] <= '9') {
		/* "BUCKET COUNT [COUNT...]": thread 0's count */
		if (read_u64(line, &b, &end) || read_u64(end, &c, &end) ||
		    end[strspn(end, "0123456789 \t\r")])
			return MEMCAL_ESYNTAX;
		p->hist_lines++;
		if (b < d->n_buckets) {
			d->counts[b] += c;
			if (b * 1000 > d->deadline_ns)
				d->misses += c;
		} else {
			p->overflow += c;
		}
		d->samples += c;
		return 0;
	}
	if ((v = after_tag(line, "# Total:")))
		return read_u64(v, &b, &end) ? MEMCAL_ESYNTAX : (p->total = (int64_t)b, 0);
	if ((v = after_tag(line, "# Histogram Overflows:")))
		return read_u64(v, &b, &end) ? MEMCAL_ESYNTAX : (p->overflow += b, 0);
	if ((v = after_tag(line, "# Max Latencies:")))
		return read_u64(v, &b, &end) ? MEMCAL_ESYNTAX : (p->max_us = (int64_t)b, 0);
	if ((v = after_tag(line, "T:")) && !read_u64(v, &b, &end) && b == 0) {
		if (summary_field(line, "C", &p->cycles) ||
		    summary_field(line, "Max", &c))
			return MEMCAL_ESYNTAX;
		p->summary = true;
		if (p->max_us < 0)
			p->max_us = (int64_t)c;
	}
	return 0;
}

/**
 * tune_lat_parse_cyclictest() - fill @d (initialised, empty; its range and
 * deadline set) from cyclictest's output for one thread.
 *
 * Histogram format (-h US): lines "BUCKET COUNT" for 0..US-1 us, then
 * "# Total:", "# Min/Avg/Max Latencies:", "# Histogram Overflows:".
 * Overflows are samples of at least US us: past @d's range, and deadline
 * misses when US us exceeds the deadline.  Summary format (-q, no -h):
 * the final "T: 0 (...) P:.. I:.. C: N Min: .. Act: .. Avg: .. Max: M"
 * line gives only the count and the maximum: every sample is then put
 * past the range (so each percentile reads as the maximum, an upper
 * bound) and, when the maximum is over the deadline, every sample counts
 * as a miss (an upper bound too).
 * Return: 0, or a MEMCAL_E* code with @err naming what was missing or malformed.
 */
int tune_lat_parse_cyclictest(const char *text, struct lat_dist *d, char *err,
			 size_t errlen)
{
	struct ct_parse p = { .total = -1, .max_us = -1 };
	const char *s = text;
	int line_no = 0;

	while (*s) {
		char line[256];
		size_t n = strcspn(s, "\n");

		line_no++;
		snprintf(line, sizeof(line), "%.*s", (int)(n < 255 ? n : 255),
			 s);
		if (ct_line(line, &p, d)) {
			snprintf(err, errlen, "cyclictest output line %d is "
				 "malformed: '%.80s'", line_no, line);
			return MEMCAL_ESYNTAX;
		}
		s += n + (s[n] == '\n');
	}
	if (p.hist_lines) {
		if (p.max_us < 0 || p.total < 0) {
			snprintf(err, errlen, "cyclictest histogram has no "
				 "'# Total' or '# Max Latencies' line: the run "
				 "was cut short");
			return MEMCAL_ESYNTAX;
		}
		if ((uint64_t)p.total != d->samples) {
			snprintf(err, errlen, "cyclictest histogram counts %llu "
				 "samples but '# Total' says %lld",
				 (unsigned long long)d->samples,
				 (long long)p.total);
			return MEMCAL_ESYNTAX;
		}
		d->overflow += p.overflow;
		d->samples += p.overflow;
		if ((uint64_t)p.hist_lines * 1000 > d->deadline_ns)
			d->misses += p.overflow;
		else if ((uint64_t)p.max_us * 1000 > d->deadline_ns)
			d->misses += p.overflow;	/* upper bound */
		d->max_ns = (uint64_t)p.max_us * 1000;
		return 0;
	}
	if (p.summary) {
		d->overflow = d->samples = p.cycles;
		d->max_ns = (uint64_t)p.max_us * 1000;
		d->misses = d->max_ns > d->deadline_ns ? p.cycles : 0;
		return 0;
	}
	snprintf(err, errlen, "no histogram or summary in cyclictest output%s"
		 "%.120s", text[0] ? ": " : " (empty)", text);
	err[strcspn(err, "\n")] = '\0';
	return MEMCAL_ESYNTAX;
}

/**
 * tune_lat_parse_job_report() - fill @d (initialised, empty) from a memcal-load
 * job report: "jobs N misses M max_ns X" then N lines "job_ns T".
 * Return: 0, or a MEMCAL_E* code with @err when the header is missing or the number of
 * per-job lines differs from N.
 */
int tune_lat_parse_job_report(const char *text, struct lat_dist *d, char *err,
			 size_t errlen)
{
	unsigned long long jobs, misses, max_ns;
	const char *s = strchr(text, '\n');
	uint64_t seen = 0;

	if (sscanf(text, "jobs %llu misses %llu max_ns %llu", &jobs, &misses,
		   &max_ns) != 3 || !s) {
		snprintf(err, errlen, "the job report does not start with "
			 "'jobs N misses M max_ns X'");
		return MEMCAL_ESYNTAX;
	}
	for (s++; *s; s += strcspn(s, "\n"), s += *s == '\n') {
		const char *end;
		uint64_t v;

		if (strncmp(s, "job_ns ", 7) || read_u64(s + 7, &v, &end) ||
		    (*end != '\n' && *end)) {
			snprintf(err, errlen, "job report line %llu is not "
				 "'job_ns T'", (unsigned long long)seen + 2);
			return MEMCAL_ESYNTAX;
		}
		tune_lat_dist_add(d, v);
		seen++;
	}
	if (seen != jobs || !seen) {
		snprintf(err, errlen, "the job report announces %llu jobs but "
			 "times %llu", jobs, (unsigned long long)seen);
		return MEMCAL_ESYNTAX;
	}
	return 0;
}

/* read_file - all of @path (at most LAT_MAX_OUTPUT), malloc'd; NULL. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = f ? malloc(LAT_MAX_OUTPUT + 1) : NULL;
	size_t n = 0;

	if (buf)
		n = fread(buf, 1, LAT_MAX_OUTPUT, f);
	if (f)
		fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/**
 * tune_lat_read_job_report() - tune_lat_parse_job_report() of the file @path.
 * Return: 0, or a MEMCAL_E* code with @err.
 */
int tune_lat_read_job_report(const char *path, struct lat_dist *d, char *err,
			size_t errlen)
{
	char *text = read_file(path);
	int rc;

	if (!text) {
		snprintf(err, errlen, "cannot read the job report %s", path);
		return MEMCAL_EIO;
	}
	rc = tune_lat_parse_job_report(text, d, err, errlen);
	free(text);
	return rc;
}

/**
 * tune_lat_reports_jobs() - whether the command @argv times its own jobs:
 * memcal-load with --period-us.
 */
bool tune_lat_reports_jobs(char *const *argv)
{
	const char *b = strrchr(argv[0], '/');

	if (strcmp(b ? b + 1 : argv[0], "memcal-load"))
		return false;
	for (int i = 1; argv[i]; i++)
		if (!strcmp(argv[i], "--period-us"))
			return true;
	return false;
}

/* cyclictest_path - $MEMTUNE_CYCLICTEST, else "cyclictest" (PATH). */
static const char *cyclictest_path(void)
{
	const char *p = getenv("MEMTUNE_CYCLICTEST");

	return p && *p ? p : "cyclictest";
}

/**
 * tune_lat_cyclictest_available() - whether cyclictest can be run: found in
 * PATH (or at $MEMTUNE_CYCLICTEST) and executable.  @why says otherwise.
 */
bool tune_lat_cyclictest_available(char *why, size_t len)
{
	const char *name = cyclictest_path(), *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/')) {
		if (!access(name, X_OK))
			return true;
		snprintf(why, len, "%s is not executable: %s", name,
			 strerror(errno));
		return false;
	}
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name);
		if (n && !access(buf, X_OK))
			return true;
		path += n + (path[n] == ':');
	}
	snprintf(why, len, "cyclictest (Debian package rt-tests) is not "
		 "installed: run 'scripts/setup' or 'apt-get install rt-tests'");
	return false;
}

/**
 * tune_lat_probe_start() - start cyclictest pinned to @cpu with interval
 * @period_ns, histogram range tune_lat_range_us(@deadline_ns), its output to a
 * temporary file.  Return: 0, or a MEMCAL_E* code with @err.
 */
int tune_lat_probe_start(struct lat_probe *p, int cpu, uint64_t period_ns,
		    uint64_t deadline_ns, char *err, size_t errlen)
{
	char a_cpu[16], a_int[24], a_hist[24], a_prio[8];
	char *argv[] = { (char *)cyclictest_path(), "-q", "-m", "--threads=1",
			 "-a", a_cpu, "-p", a_prio, "-i", a_int, "-h", a_hist,
			 NULL };
	int fd;

	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	p->range_us = (unsigned)tune_lat_range_us(deadline_ns);
	snprintf(a_cpu, sizeof(a_cpu), "%d", cpu);
	snprintf(a_int, sizeof(a_int), "%llu",
		 (unsigned long long)(period_ns / 1000 ? period_ns / 1000 : 1));
	snprintf(a_hist, sizeof(a_hist), "%u", p->range_us);
	snprintf(a_prio, sizeof(a_prio), "%d", LAT_PROBE_PRIORITY);
	snprintf(p->out_path, sizeof(p->out_path), "/tmp/memtune-probe-XXXXXX");
	fd = mkstemp(p->out_path);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a file for cyclictest's "
			 "output: %s", strerror(errno));
		return MEMCAL_EIO;
	}
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(fd);
		unlink(p->out_path);
		p->pid = 0;
		return MEMCAL_ERROR;
	}
	if (p->pid == 0) {
		if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	return 0;
}

/* reap - wait up to 5 s for @pid after SIGINT, then SIGKILL it. */
static void reap(pid_t pid)
{
	int status;

	kill(pid, SIGINT);
	for (int i = 0; i < 500; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		struct timespec ts = { 0, 10000000 };

		if (r == pid || (r < 0 && errno == ECHILD))
			return;	/* ECHILD: another wait reaped it */
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

/**
 * tune_lat_probe_stop() - stop @p's cyclictest (SIGINT: it prints its
 * histogram) and parse its output into @d, initialised here with @p's
 * range and @deadline_ns.  @d is left empty on failure.
 * Return: 0, or a MEMCAL_E* code with @err (cyclictest's own message where it failed).
 */
int tune_lat_probe_stop(struct lat_probe *p, uint64_t deadline_ns,
		   struct lat_dist *d, char *err, size_t errlen)
{
	char *text;
	int rc = MEMCAL_ENOMEM;

	memset(d, 0, sizeof(*d));
	if (!p->pid) {
		snprintf(err, errlen, "cyclictest was not started");
		return MEMCAL_EMISUSE;
	}
	reap(p->pid);
	p->pid = 0;
	text = read_file(p->out_path);
	unlink(p->out_path);
	if (!text) {
		snprintf(err, errlen, "cannot read cyclictest's output");
		return MEMCAL_EIO;
	}
	if (tune_lat_dist_init(d, p->range_us, deadline_ns))
		snprintf(err, errlen, "out of memory");
	else if ((rc = tune_lat_parse_cyclictest(text, d, err, errlen)))
		tune_lat_dist_free(d);
	free(text);
	return rc;
}
