// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_guest.c - the real `memcal overhead` measurement inside a QEMU
 * guest: memreg.ko loaded in monitor-only mode at each period with the
 * master core set, against the same benchmark with the module unloaded.
 * Built statically from calibrate/overhead_bench.c and overhead_kmod.c
 * (libc only), by tests/overhead/guest/overhead-qemu.sh.
 *
 *   ovh_guest --ko /memreg.ko --periods 100,5000 --cpu 0 --master 1
 *             [--master2 0] [--reps 5] [--ms 40] [--bench compute|memory]
 *             [--extra "read_event=cpu-clock"] [--check-contrast]
 *             [--stat median|best]
 *
 * Every repetition runs, for every period and master placement: C (no
 * module), then C' (module loaded at that period), so C and C' are
 * interleaved.  Output, one line per point:
 *   OVH-POINT bench=compute cpu=0 master=1 period_us=100 reps=5
 *             median=1.234 min=1.2 max=1.3 c_ns=... cp_ns=...
 *             cost_ns_per_period=...
 *             best=... (min C' / min C, C's minimum over every point)
 * cost_ns_per_period = (C' - C) / (C' / P) from the medians: the time one
 * period costs the core; under -icount shift=0 a guest ns is one
 * instruction.
 * With --check-contrast: MEMREG-CHECK lines for finite ratios, the
 * chosen statistic >= 0.95, the shortest period costing more than the
 * longest (per placement), and the master comparison having run.  The
 * statistic is the median of the per-repetition ratios (--stat median,
 * for -icount where repetitions agree) or the best ratio min C' / min C
 * (--stat best, for plain TCG on a loaded host: being descheduled only
 * ever adds time, so the minima are the undisturbed runs; C, the same run
 * at every point, takes its minimum over all of them).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overhead_bench.h"
#include "overhead_kmod.h"

#define MAXP	8
#define MAXR	64

/**
 * struct opts - command line.
 * @ko: module.  @extra: more module parameters.  @periods/@np: periods.
 * @cpu: benchmark core.  @masters/@nm: master placements.  @reps, @ms.
 * @bench: benchmark.  @contrast: print the checks.  @best: check the
 * best ratio instead of the median.
 */
struct opts {
	const char *ko, *extra;
	unsigned periods[MAXP], np;
	unsigned cpu;
	int masters[2];
	unsigned nm;
	unsigned reps, ms;
	enum ovh_bench bench;
	int contrast;
	int best;
};

/* guest_read - the memory benchmark's streaming read (sum of words). */
static uint64_t guest_read(void *dst, const void *src, size_t bytes,
			   uint64_t v)
{
	const uint64_t *p = src;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

	(void)dst;
	(void)v;
	for (size_t i = 0; i < bytes / 8; i += 4) {
		s0 += p[i];
		s1 += p[i + 1];
		s2 += p[i + 2];
		s3 += p[i + 3];
	}
	return s0 + s1 + s2 + s3;
}

/* cmp_d - qsort for doubles. */
static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* median - of @n values (sorts a copy). */
static double median(const double *v, unsigned n)
{
	double t[MAXR];

	memcpy(t, v, n * sizeof(*v));
	qsort(t, n, sizeof(*t), cmp_d);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* parse - the command line into @o; 0 or -1. */
static int parse(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ko = "/memreg.ko";
	o->masters[0] = 1;
	o->nm = 1;
	o->reps = 5;
	o->ms = 40;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--check-contrast")) {
			o->contrast = 1;
			continue;
		}
		if (!v)
			return -1;
		i++;
		if (!strcmp(a, "--ko"))
			o->ko = v;
		else if (!strcmp(a, "--extra"))
			o->extra = v;
		else if (!strcmp(a, "--stat"))
			o->best = !strcmp(v, "best");
		else if (!strcmp(a, "--cpu"))
			o->cpu = (unsigned)atoi(v);
		else if (!strcmp(a, "--master"))
			o->masters[0] = atoi(v);
		else if (!strcmp(a, "--master2")) {
			o->masters[1] = atoi(v);
			o->nm = 2;
		} else if (!strcmp(a, "--reps"))
			o->reps = (unsigned)atoi(v);
		else if (!strcmp(a, "--ms"))
			o->ms = (unsigned)atoi(v);
		else if (!strcmp(a, "--bench")) {
			if (cal_ovh_bench_parse(v, &o->bench))
				return -1;
		} else if (!strcmp(a, "--periods")) {
			char buf[128], *s = NULL;

			snprintf(buf, sizeof(buf), "%s", v);
			for (char *t = strtok_r(buf, ",", &s); t && o->np < MAXP;
			     t = strtok_r(NULL, ",", &s))
				o->periods[o->np++] = (unsigned)atoi(t);
		} else
			return -1;
	}
	if (!o->np || !o->reps || o->reps > MAXR)
		return -1;
	return 0;
}

/* main - measure, print the points (and the checks), exit 0 or 1. */
int main(int argc, char **argv)
{
	static double c[MAXP][2][MAXR], cp[MAXP][2][MAXR];
	struct opts o;
	struct ovh_workload w = { 0 };
	struct ovh_run_spec s = { 0 };
	struct ovh_sample smp;
	char why[512];
	double med[MAXP][2], best[MAXP][2];
	int fails = 0, below = 0, rc;

	if (parse(argc, argv, &o)) {
		fprintf(stderr, "usage: ovh_guest --ko PATH --periods LIST "
			"--cpu N --master M [--master2 M] [--reps R] [--ms D] "
			"[--bench compute|memory] [--extra PARAMS] "
			"[--check-contrast]\n");
		return 2;
	}
	w.kind = o.bench;
	if (o.bench == OVH_BENCH_MEMORY) {
		size_t bytes = 32u << 20;
		void *b = aligned_alloc(64, bytes);

		if (!b)
			return 1;
		memset(b, 1, bytes);
		w.buf = b;
		w.buf_bytes = bytes;
		w.read = guest_read;
	}
	rc = cal_ovh_calibrate_units(&w, o.cpu, (uint64_t)o.ms * 1000000u,
				 cal_ovh_fifo_allowed(), NULL, NULL);
	if (rc) {
		printf("OVH-ERROR calibrate rc=%d\n", rc);
		return 1;
	}
	s.w = &w;
	s.bench_cpu = o.cpu;
	s.master_cpu = -1;
	s.bench_fifo = cal_ovh_fifo_allowed();
	printf("OVH-INFO bench=%s units=%llu ms=%u reps=%u fifo=%d\n",
	       cal_ovh_bench_name(o.bench), (unsigned long long)w.units, o.ms,
	       o.reps, s.bench_fifo);
	for (unsigned r = 0; r < o.reps; r++) {
		for (unsigned p = 0; p < o.np; p++) {
			for (unsigned m = 0; m < o.nm; m++) {
				s.limit_ns = 30ull * o.ms * 1000000u;
				if ((rc = cal_ovh_run_once(&s, &smp))) {
					printf("OVH-ERROR run rc=%d\n", rc);
					return 1;
				}
				c[p][m][r] = smp.est_ns;
				if (cal_ovh_kmod_load(o.ko, o.periods[p], o.masters[m],
						  o.extra, why, sizeof(why))) {
					printf("OVH-ERROR %s\n", why);
					return 1;
				}
				s.limit_ns = (uint64_t)(8 * c[p][m][r]) +
					     4000ull * o.periods[p];
				rc = cal_ovh_run_once(&s, &smp);
				if (cal_ovh_kmod_unload(why, sizeof(why))) {
					printf("OVH-ERROR %s\n", why);
					return 1;
				}
				if (rc)
					return 1;
				cp[p][m][r] = isfinite(smp.est_ns) ? smp.est_ns :
					      (double)smp.elapsed_ns;
				printf("OVH-REP rep=%u period_us=%u master=%d "
				       "c_ns=%.0f cp_ns=%.0f%s\n", r,
				       o.periods[p], o.masters[m], c[p][m][r],
				       cp[p][m][r],
				       smp.complete ? "" : " livelocked");
				fflush(stdout);
			}
		}
	}
	/*
	 * C is the same run everywhere (the module unloaded, the same CPU):
	 * the best statistic's baseline is its minimum over every point, so
	 * that a point whose few C runs were all disturbed does not get a
	 * baseline slower than its own undisturbed C' runs.
	 */
	double minc = INFINITY;

	for (unsigned p = 0; p < o.np; p++)
		for (unsigned m = 0; m < o.nm; m++)
			for (unsigned r = 0; r < o.reps; r++)
				minc = c[p][m][r] < minc ? c[p][m][r] : minc;
	for (unsigned p = 0; p < o.np; p++) {
		for (unsigned m = 0; m < o.nm; m++) {
			double ratio[MAXR], lo = INFINITY, hi = 0, mc, mcp;
			double mincp = INFINITY;

			for (unsigned r = 0; r < o.reps; r++) {
				ratio[r] = cp[p][m][r] / c[p][m][r];
				lo = ratio[r] < lo ? ratio[r] : lo;
				hi = ratio[r] > hi ? ratio[r] : hi;
				mincp = cp[p][m][r] < mincp ? cp[p][m][r] : mincp;
				if (!isfinite(ratio[r]))
					fails |= 1;
			}
			med[p][m] = median(ratio, o.reps);
			best[p][m] = mincp / minc;
			if ((o.best ? best[p][m] : med[p][m]) < 0.95)
				below = 1;
			mc = median(c[p][m], o.reps);
			mcp = median(cp[p][m], o.reps);
			printf("OVH-POINT bench=%s cpu=%u master=%d period_us=%u "
			       "reps=%u median=%.4f min=%.4f max=%.4f best=%.4f "
			       "c_ns=%.0f cp_ns=%.0f cost_ns_per_period=%.0f\n",
			       cal_ovh_bench_name(o.bench), o.cpu, o.masters[m],
			       o.periods[p], o.reps, med[p][m], lo, hi,
			       best[p][m], mc, mcp,
			       (mcp - mc) / (mcp / (1e3 * o.periods[p])));
		}
	}
	if (o.contrast) {
		unsigned lo = 0, hi = 0;

		for (unsigned p = 1; p < o.np; p++) {
			if (o.periods[p] < o.periods[lo])
				lo = p;
			if (o.periods[p] > o.periods[hi])
				hi = p;
		}
		double (*st)[2] = o.best ? best : med;

		printf("MEMREG-CHECK ovh-finite %s every C'/C finite\n",
		       fails ? "FAIL" : "PASS");
		printf("MEMREG-CHECK ovh-ge1 %s every %s C'/C >= 0.95\n",
		       below ? "FAIL" : "PASS", o.best ? "best" : "median");
		fails |= below;
		for (unsigned m = 0; m < o.nm; m++) {
			int ok = st[lo][m] > st[hi][m];

			fails |= !ok << 1;
			printf("MEMREG-CHECK ovh-contrast-m%d %s %s: %u us %.4f > "
			       "%u us %.4f\n", o.masters[m], ok ? "PASS" : "FAIL",
			       o.best ? "best" : "median", o.periods[lo],
			       st[lo][m], o.periods[hi], st[hi][m]);
		}
		printf("MEMREG-CHECK ovh-master %s placements measured: %u "
		       "(master %d vs %d)\n", o.nm == 2 ? "PASS" : "FAIL", o.nm,
		       o.masters[0], o.nm == 2 ? o.masters[1] : -1);
	}
	return fails ? 1 : 0;
}
