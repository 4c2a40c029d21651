// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_guaranteed.c - the guaranteed bandwidth on this machine: the
 * random-line figure agrees with an independent random-access loop
 * written here (not the kernel's code) and is clearly below the streaming
 * aggregate read measured in the same process.  Registered SERIAL: it
 * measures bandwidth.  The figures are printed for quoting.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "buffers.h"
#include "clock.h"
#include "guaranteed.h"
#include "measure.h"

/* Rounds of (kernel, independent loop) measured alternately. */
#define ROUNDS		11
/* Length of each measurement of a round. */
#define ROUND_NS	80000000ull

/**
 * struct indep - one thread of the independent loop.
 * @base, @lines: its buffer, in 64-B lines.
 * @cpu:   CPU it pins itself to.
 * @ns:    how long it runs.
 * @t0, @t1, @n: start, end, lines read.
 * @sum:   the loads' sum (kept).
 */
struct indep {
	const char *base;
	uint64_t lines;
	unsigned cpu;
	uint64_t ns;
	uint64_t t0, t1, n, sum;
};

/*
 * indep_thread - random line reads the plain way: xorshift64 addresses,
 * eight independent loads per step (nothing chains them: the core keeps
 * as many in flight as it can).
 */
static void *indep_thread(void *arg)
{
	struct indep *d = arg;
	cpu_set_t set;
	uint64_t x = 0x2545f4914f6cdd1dull ^ d->cpu, sum = 0, n = 0, end;

	CPU_ZERO(&set);
	CPU_SET(d->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	d->t0 = memcal_now_ns();
	end = d->t0 + d->ns;
	do {
		for (int i = 0; i < 1024; i++)
			for (int k = 0; k < 8; k++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				sum += *(const volatile uint64_t *)
					(d->base + (x % d->lines) * 64);
			}
		n += 1024 * 8;
	} while (memcal_now_ns() < end);
	d->t1 = memcal_now_ns();
	d->n = n;
	d->sum = sum;
	return NULL;
}

/* indep_bw - the independent loop on every buffer of @b at once, B/s. */
static double indep_bw(struct memcal_bench *b)
{
	struct indep d[b->n];
	pthread_t th[b->n];
	uint64_t first = UINT64_MAX, last = 0, lines = 0;

	for (unsigned i = 0; i < b->n; i++) {
		d[i] = (struct indep){ .base = b->bufs[i].base, .lines = b->bytes / 64,
				       .cpu = b->cpus[i], .ns = ROUND_NS };
		cr_assert_eq(pthread_create(&th[i], NULL, indep_thread, &d[i]), 0);
	}
	for (unsigned i = 0; i < b->n; i++) {
		pthread_join(th[i], NULL);
		first = d[i].t0 < first ? d[i].t0 : first;
		last = d[i].t1 > last ? d[i].t1 : last;
		lines += d[i].n;
	}
	return (double)lines * 64 * 1e9 / (double)(last - first);
}

/* median_of - the median of @n values (sorted in place). */
static double median_of(double *v, unsigned n)
{
	return cal_median(v, n);
}

/*
 * anon_huge_mib - MiB of this process on transparent huge pages: random
 * lines on base pages also pay a page walk each, which the figure then
 * includes (printed so a reader can tell).
 */
static long anon_huge_mib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb < 0 ? -1 : kb >> 10;
}

Test(guaranteed, random_line_agrees_with_an_independent_loop_and_is_below_streaming,
     .timeout = 170)
{
	struct memcal_topology t;
	struct memcal_bench b;
	struct memcal_bw_spec sp = { .op = MEMCAL_OP_READ, .reps = 3,
				     .warmup = 1, .passes = 1 };
	struct memcal_bw_result stream;
	struct memcal_guar_spec gs = { .reps = 3, .warmup = 1,
				       .rep_ns = MEMCAL_GUAR_REP_NS_QUICK,
				       .line = 64 };
	struct memcal_guaranteed g[2];
	double foreign, k[ROUNDS], ind[ROUNDS], ratio[ROUNDS], km, im, rm;
	unsigned cpus[2], n;
	uint64_t size, t0, phase_ns;
	char err[512];

	cr_assert_eq(memcal_platform_topology_load(&t, NULL, err, sizeof(err)),
		     0, "%s", err);
	n = t.n_cores > 1 ? 2 : 1;
	for (unsigned i = 0; i < n; i++)
		cpus[i] = t.cpus[i];
	size = cal_buffer_size_for(&t, cpus, n, 0, true);
	cr_assert_eq(cal_bench_init(&b, &t, cpus, n, size, err, sizeof(err)),
		     0, "%s", err);
	sp.n_use = n;
	cr_assert_eq(cal_measure_bw(&b, &sp, &stream, err, sizeof(err)), 0,
		     "%s", err);
	t0 = memcal_now_ns();
	cr_assert_eq(cal_guaranteed_measure(&b, &gs, "random-line", g,
					    &foreign, err, sizeof(err)), 0,
		     "%s", err);
	phase_ns = memcal_now_ns() - t0;
	/* side by side: the kernel at the swept stream count, then the loop */
	for (unsigned r = 0; r < ROUNDS; r++) {
		k[r] = cal_guaranteed_rep(&b, 64, (unsigned)g[0].streams, false,
					  ROUND_NS, NULL, 0);
		ind[r] = indep_bw(&b);
		ratio[r] = k[r] / ind[r];
	}
	/* the median of per-round ratios cancels the host's drift best */
	rm = median_of(ratio, ROUNDS);
	km = median_of(k, ROUNDS);
	im = median_of(ind, ROUNDS);
	printf("guaranteed on %u core(s), %llu MiB per core: random-line read "
	       "%.2f GB/s (%d streams; side by side %.2f), write %.2f GB/s; "
	       "independent loop %.2f GB/s; kernel/loop %.2f; streaming aggregate read %.2f "
	       "GB/s; read/streaming %.2f; quick phase %.2f s; %ld MiB on "
	       "huge pages, foreign load %.0f%%\n", n,
	       (unsigned long long)(b.bytes >> 20), g[0].bandwidth_bps / 1e9,
	       g[0].streams, km / 1e9, g[1].bandwidth_bps / 1e9, im / 1e9,
	       rm, stream.agg.median / 1e9, g[0].bandwidth_bps / stream.agg.median,
	       phase_ns / 1e9, anon_huge_mib(), foreign * 100);
	fflush(stdout);
	/*
	 * The median of the per-round ratios within 0.5..1.6: the two loops
	 * reach their misses in flight differently (chains of the swept count
	 * against whatever the out-of-order window finds among independent
	 * loads), repetitions on this shared VM spread about 10 % and the
	 * host's load drifts by tens of per cent between moments (alternating
	 * short rounds and taking the median ratio cancels most of that; a
	 * fresh-clone CI run on an otherwise idle host still saw 0.60).  A
	 * kernel that counted twice the lines it touches (2.0), or hit the
	 * caches (many times), lands outside 0.5..1.6.
	 */
	cr_expect(rm > 0.5 && rm < 1.6, "random-line kernel / independent "
		  "loop = %.2f (medians %.2f and %.2f GB/s)", rm, km / 1e9,
		  im / 1e9);
	cr_expect(g[0].bandwidth_bps < 0.8 * stream.agg.median,
		  "guaranteed read %.2f GB/s is not below 0.8 x streaming "
		  "%.2f GB/s", g[0].bandwidth_bps / 1e9,
		  stream.agg.median / 1e9);
	cr_expect(g[1].bandwidth_bps > 0 && g[1].streams == g[0].streams);
	cr_expect_eq(g[0].n_cpus, (int)n);
	cal_bench_fini(&b);
	memcal_platform_topology_free(&t);
}
