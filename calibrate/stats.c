// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - medians, collapse filtering and /proc/stat foreign load.
 */
#include "stats.h"
#include "memcal_status.h"
#include "memcal_figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmp_double - qsort comparator, ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * cal_median - median of @v[0..n) (sorts @v in place); the mean of
 * the two middle values for even @n; 0 for n == 0.
 */
double cal_median(double *v, unsigned n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * cal_median_ci_rank - the 1-based rank j such that the j-th smallest
 * and the j-th largest of @n repetitions bound the median with at least
 * MEMCAL_CI_LEVEL confidence (distribution-free: the number of
 * repetitions below the median is binomial(n, 1/2)).  1 (min and max)
 * when @n is too small for that confidence; 0 for @n == 0.
 */
unsigned cal_median_ci_rank(unsigned n)
{
	double tail = (1 - MEMCAL_CI_LEVEL) / 2, p = ldexp(1.0, -(int)n);
	double cum = 0, term = p;
	unsigned j = 0;

	if (n == 0)
		return 0;
	/* Largest j with P(B <= j - 1) <= tail; term = C(n, k) / 2^n. */
	for (unsigned k = 0; k < n; k++) {
		cum += term;
		if (cum > tail)
			break;
		j = k + 1;
		term = term * (double)(n - k) / (double)(k + 1);
	}
	return j ? j : 1;
}

/* ci_from_sorted - the median's interval of sorted @v[0..n) into @s. */
static void ci_from_sorted(const double *v, unsigned n, struct memcal_stats *s)
{
	unsigned j = cal_median_ci_rank(n);

	s->ci_lo = v[j - 1];
	s->ci_hi = v[n - j];
	s->spread = s->median > 0 ? (s->ci_hi - s->ci_lo) / (2 * s->median) : 0;
}

/*
 * cal_spread - the spread (stats.h) of @samples[0..n) as they stand, no
 * collapse filtering: what the repetition loop checks as it goes.  1 when
 * @n is 0 or memory runs out (keep repeating).
 */
double cal_spread(const double *samples, unsigned n)
{
	struct memcal_stats s = { 0 };
	double *v;

	if (n == 0 || !(v = malloc(n * sizeof(*v))))
		return 1;
	memcpy(v, samples, n * sizeof(*v));
	s.median = cal_median(v, n);
	ci_from_sorted(v, n, &s);
	free(v);
	return s.spread;
}

/*
 * cal_stats_compute - drop collapsed repetitions of @samples (see
 * stats.h) and summarise the rest into @out.  @higher_is_better is true
 * for bandwidths and false for times/latencies.  Returns 0, MEMCAL_EINVAL
 * when @n is 0 or MEMCAL_ENOMEM.
 */
int cal_stats_compute(const double *samples, unsigned n,
			 bool higher_is_better, struct memcal_stats *out)
{
	double *v, med;
	unsigned k = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return MEMCAL_EINVAL;
	v = malloc(n * sizeof(*v));
	if (!v)
		return MEMCAL_ENOMEM;
	memcpy(v, samples, n * sizeof(*v));
	med = cal_median(v, n);
	for (unsigned i = 0; i < n; i++) {
		bool collapsed = higher_is_better
			? samples[i] < MEMCAL_COLLAPSE_RATIO * med
			: samples[i] * MEMCAL_COLLAPSE_RATIO > med;
		if (!collapsed)
			v[k++] = samples[i];
	}
	out->n = n;
	out->kept = k;
	out->dropped = n - k;
	out->median = cal_median(v, k);
	out->min = v[0];
	out->max = v[k - 1];
	ci_from_sorted(v, k, out);
	free(v);
	return 0;
}

/* cal_procstat_free - release a snapshot. */
void cal_procstat_free(struct memcal_procstat *s)
{
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

/*
 * cal_procstat_read - snapshot /proc/stat into @s (free it with
 * cal_procstat_free()).  Returns 0, MEMCAL_ECANTOPEN or MEMCAL_ENOMEM.
 */
int cal_procstat_read(struct memcal_procstat *s)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];
	struct memcal_procstat_cpu row;

	memset(s, 0, sizeof(*s));
	if (!f)
		return MEMCAL_ECANTOPEN;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[10] = { 0 };
		unsigned id;

		if (strncmp(line, "procs_running ", 14) == 0) {
			s->procs_running = (unsigned)atoi(line + 14);
			continue;
		}
		if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu",
			   &id, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) < 9)
			continue;
		/* user nice system idle iowait irq softirq steal */
		row = (struct memcal_procstat_cpu){
			.id = id,
			.busy = v[0] + v[1] + v[2] + v[5] + v[6],
			.total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] +
				 v[6] + v[7],
			.steal = v[7],
		};
		if (fig_push((void **)&s->cpu, &s->n_cpus, sizeof(row), &row)) {
			fclose(f);
			cal_procstat_free(s);
			return MEMCAL_ENOMEM;
		}
	}
	fclose(f);
	return 0;
}

/* is_measured - whether @cpu is one of @measured. */
static int is_measured(unsigned cpu, const unsigned *measured, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (measured[i] == cpu)
			return 1;
	return 0;
}

/*
 * cal_procstat_foreign - share of the machine used by others between
 * two snapshots: the larger of (a) steal time on the measured CPUs (the
 * host took them) and (b) busy time on the CPUs not measured (another
 * process competes for memory).  0..1; 0 when nothing could be compared.
 */
double cal_procstat_foreign(const struct memcal_procstat *a,
			       const struct memcal_procstat *b,
			       const unsigned *measured, unsigned n_measured)
{
	double worst = 0;

	for (size_t i = 0; i < a->n_cpus && i < b->n_cpus; i++) {
		const struct memcal_procstat_cpu *x = &a->cpu[i], *y = &b->cpu[i];
		double tot, share;

		if (x->id != y->id)
			continue;
		tot = (double)(y->total - x->total);
		if (tot <= 0)
			continue;
		if (is_measured(x->id, measured, n_measured))
			share = (double)(y->steal - x->steal) / tot;
		else
			share = (double)(y->busy - x->busy) / tot;
		if (share > worst)
			worst = share;
	}
	return worst;
}
