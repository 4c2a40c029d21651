// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcal_load.c - memcal-load(1): the workloads of the example mix.  A
 * small program that runs on any machine: it streams reads or writes over
 * a buffer, optionally at a given rate and in bursts, or runs a compute
 * loop that touches no memory beyond its registers, for a fixed amount of
 * work (so that execution times compare) or a fixed time.
 *
 *   memcal-load read|write|copy|compute [--mb N] [--iters N] [--ms T]
 *               [--mbps R] [--burst-ms ON --idle-ms OFF]
 *               [--period-us P --jobs N] [--size BYTES] [--tick-us T]
 *
 * Traffic trace: when $MEMCAL_LOAD_TRACE names a file, it writes there,
 * per tick (default 100 us), the bytes it read and wrote (program-visible
 * bytes: a store counts once, not its read-for-ownership).  Periodic jobs
 * (--period-us): $MEMCAL_LOAD_REPORT receives "jobs N misses M max_ns X"
 * with the deadline equal to the period, followed by one line "job_ns T"
 * per job (T: release to completion).  memtune profile and validate read
 * both files.  Exit status 0, or 2 on a usage error.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK (64u << 10)
#define MAX_TICKS (1u << 22)

/* Where the reads end up, so that the compiler keeps them. */
volatile uint64_t memcal_load_sink;

/**
 * struct load - what to do and what was done.
 * @mode:      "read", "write", "copy" or "compute".
 * @total:     bytes (streaming) or iterations (compute) per job; 0 = time.
 * @ms:        run time limit per job in ms (0 = work-bound).
 * @mbps:      rate limit in MB/s (0 = as fast as possible).
 * @burst_ms, @idle_ms: on/off pattern (0 = continuous).
 * @period_us, @jobs: periodic releases (0 = one job).
 * @size:      buffer bytes.
 * @tick_ns:   trace granularity.
 * @buf:       the buffer.
 * @rd, @wr:   per tick bytes read and written.
 * @n_ticks:   ticks used.
 * @t0:        start time.
 * @sink:      keeps the reads from being optimised away.
 */
struct load {
	const char *mode;
	uint64_t total;
	uint64_t ms;
	uint64_t mbps;
	uint64_t burst_ms, idle_ms;
	uint64_t period_us, jobs;
	size_t size;
	uint64_t tick_ns;
	uint64_t *buf;
	uint64_t *rd, *wr;
	size_t n_ticks;
	uint64_t t0;
	uint64_t sink;
};

/* now_ns - CLOCK_MONOTONIC in ns. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* account - add @r/@w bytes to the tick of time @t. */
static void account(struct load *l, uint64_t t, uint64_t r, uint64_t w)
{
	size_t i = (size_t)((t - l->t0) / l->tick_ns);

	if (!l->rd || i >= MAX_TICKS)
		return;
	l->rd[i] += r;
	l->wr[i] += w;
	if (i + 1 > l->n_ticks)
		l->n_ticks = i + 1;
}

/* chunk - one chunk of work at offset @off; returns bytes or iterations. */
static uint64_t chunk(struct load *l, size_t off)
{
	uint64_t *p = l->buf + off / 8, n = CHUNK / 8, s = 0, x = l->sink | 1;

	if (!strcmp(l->mode, "compute")) {
		for (uint64_t i = 0; i < 4096; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		l->sink ^= x;
		return 4096;
	}
	if (!strcmp(l->mode, "read")) {
		for (uint64_t i = 0; i < n; i++)
			s += p[i];
		l->sink += s;
	} else if (!strcmp(l->mode, "write")) {
		for (uint64_t i = 0; i < n; i++)
			p[i] = i ^ x;
	} else {
		uint64_t *q = l->buf + ((off + l->size / 2) % l->size) / 8;

		for (uint64_t i = 0; i < n / 2; i++)
			q[i] = p[i];
	}
	return CHUNK;
}

/* pace - sleep so that the job's traffic so far keeps to the rate. */
static void pace(const struct load *l, uint64_t start, uint64_t done)
{
	uint64_t due, now = now_ns();
	struct timespec ts;

	if (!l->mbps || !strcmp(l->mode, "compute"))
		return;
	due = start + done * 1000 / l->mbps;	/* MB/s == bytes/us */
	if (due > now + 20000) {
		ts.tv_sec = (time_t)((due - now) / 1000000000ull);
		ts.tv_nsec = (long)((due - now) % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/* idle_phase - in a burst pattern, sleep through the idle part. */
static void idle_phase(const struct load *l, uint64_t start)
{
	uint64_t cycle = (l->burst_ms + l->idle_ms) * 1000000ull, pos;
	struct timespec ts;

	if (!l->burst_ms)
		return;
	pos = (now_ns() - start) % cycle;
	if (pos < l->burst_ms * 1000000ull)
		return;
	pos = cycle - pos;
	ts.tv_sec = (time_t)(pos / 1000000000ull);
	ts.tv_nsec = (long)(pos % 1000000000ull);
	nanosleep(&ts, NULL);
}

/* run_job - one job's work; returns its duration in ns. */
static uint64_t run_job(struct load *l)
{
	uint64_t start = now_ns(), done = 0;
	size_t off = 0;
	bool compute = !strcmp(l->mode, "compute");

	for (;;) {
		uint64_t got = chunk(l, off), t = now_ns();

		done += got;
		if (!strcmp(l->mode, "read"))
			account(l, t, got, 0);
		else if (!strcmp(l->mode, "write"))
			account(l, t, 0, got);
		else if (!compute)
			account(l, t, got / 2, got / 2);
		off = (off + CHUNK) % l->size;
		if (l->total && done >= l->total)
			break;
		if (l->ms && t - start >= l->ms * 1000000ull)
			break;
		pace(l, start, done);
		idle_phase(l, start);
	}
	return now_ns() - start;
}

/* write_trace - the per-tick trace to $MEMCAL_LOAD_TRACE, if set. */
static void write_trace(const struct load *l)
{
	const char *path = getenv("MEMCAL_LOAD_TRACE");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "w")))
		return;
	fprintf(f, "memcal-load-trace 1\ntick_us %llu\nmode %s\n",
		(unsigned long long)(l->tick_ns / 1000), l->mode);
	for (size_t i = 0; i < l->n_ticks; i++)
		fprintf(f, "%llu %llu\n", (unsigned long long)l->rd[i],
			(unsigned long long)l->wr[i]);
	fclose(f);
}

/* arg_u64 - parse a non-negative integer option value or exit 2. */
static uint64_t arg_u64(const char *opt, const char *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = v ? strtoull(v, &end, 10) : 0;
	if (!v || errno || *end || v[0] == '-') {
		fprintf(stderr, "memcal-load: %s needs a non-negative integer\n",
			opt);
		exit(2);
	}
	return x;
}

/* usage - print the synopsis and exit with @code. */
static void usage(int code)
{
	fprintf(code ? stderr : stdout, "usage: memcal-load read|write|copy|"
		"compute [--mb N] [--iters N] [--ms T] [--mbps R]\n"
		"       [--burst-ms ON --idle-ms OFF] [--period-us P --jobs N] "
		"[--size BYTES] [--tick-us T]\n");
	exit(code);
}

/* main - parse, run the jobs, write the trace and report. */
int main(int argc, char **argv)
{
	struct load l = { .size = 64u << 20, .tick_ns = 100000 };
	uint64_t misses = 0, max_ns = 0, next, *resp, n_jobs;
	const char *report;

	if (argc < 2 || !strcmp(argv[1], "--help"))
		usage(argc < 2 ? 2 : 0);
	l.mode = argv[1];
	if (strcmp(l.mode, "read") && strcmp(l.mode, "write") &&
	    strcmp(l.mode, "copy") && strcmp(l.mode, "compute"))
		usage(2);
	/* the numeric options, each times its unit; --size is a size_t */
	const struct {
		const char *name;
		uint64_t *dst;
		uint64_t unit;
	} opts[] = {
		{ "--mb", &l.total, 1u << 20 },
		{ "--iters", &l.total, 1 },
		{ "--ms", &l.ms, 1 },
		{ "--mbps", &l.mbps, 1 },
		{ "--burst-ms", &l.burst_ms, 1 },
		{ "--idle-ms", &l.idle_ms, 1 },
		{ "--period-us", &l.period_us, 1 },
		{ "--jobs", &l.jobs, 1 },
		{ "--tick-us", &l.tick_ns, 1000 },
	};
	for (int i = 2; i < argc; i += 2) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		size_t k = 0;

		if (!strcmp(o, "--size")) {
			l.size = (size_t)arg_u64(o, v);
			continue;
		}
		while (k < sizeof(opts) / sizeof(opts[0]) &&
		       strcmp(o, opts[k].name))
			k++;
		if (k == sizeof(opts) / sizeof(opts[0]))
			usage(2);
		*opts[k].dst = arg_u64(o, v) * opts[k].unit;
	}
	if (!l.total && !l.ms)
		l.total = strcmp(l.mode, "compute") ? 256ull << 20 : 1ull << 26;
	if (l.size < 2 * CHUNK || l.size % CHUNK || !l.tick_ns ||
	    (l.burst_ms && !l.idle_ms)) {
		fprintf(stderr, "memcal-load: --size must be a multiple of "
			"64 KiB (at least 128 KiB), --tick-us > 0, and "
			"--burst-ms needs --idle-ms\n");
		return 2;
	}
	if (!strcmp(l.mode, "compute"))
		l.size = 2 * CHUNK;	/* registers only: no buffer to speak of */
	l.buf = aligned_alloc(4096, l.size);
	l.rd = calloc(MAX_TICKS, sizeof(uint64_t));
	l.wr = calloc(MAX_TICKS, sizeof(uint64_t));
	n_jobs = l.jobs ? l.jobs : 1;
	resp = calloc(n_jobs, sizeof(uint64_t));
	if (!l.buf || !l.rd || !l.wr || !resp) {
		fprintf(stderr, "memcal-load: out of memory\n");
		return 1;
	}
	memset(l.buf, 1, l.size);
	l.t0 = next = now_ns();
	for (uint64_t j = 0; j < n_jobs; j++) {
		uint64_t rel = next, d = run_job(&l), now;

		resp[j] = now_ns() - rel;
		if (d > max_ns)
			max_ns = d;
		if (!l.period_us)
			continue;
		next += l.period_us * 1000;
		now = now_ns();
		if (now > next) {
			misses++;
			next = now;	/* late: release the next job now */
		} else {
			struct timespec ts = {
				.tv_sec = (time_t)((next - now) / 1000000000ull),
				.tv_nsec = (long)((next - now) % 1000000000ull),
			};
			nanosleep(&ts, NULL);
		}
	}
	write_trace(&l);
	report = getenv("MEMCAL_LOAD_REPORT");
	if (report && *report) {
		FILE *f = fopen(report, "w");

		if (f) {
			fprintf(f, "jobs %llu misses %llu max_ns %llu\n",
				(unsigned long long)n_jobs,
				(unsigned long long)misses,
				(unsigned long long)max_ns);
			for (uint64_t j = 0; l.period_us && j < n_jobs; j++)
				fprintf(f, "job_ns %llu\n",
					(unsigned long long)resp[j]);
			fclose(f);
		}
	}
	memcal_load_sink = l.sink;
	free(l.buf);
	free(l.rd);
	free(l.wr);
	free(resp);
	return 0;
}
