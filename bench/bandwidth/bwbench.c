// SPDX-License-Identifier: GPL-2.0-only
/*
 * bwbench.c - one memcal bandwidth measurement from the command line, for
 * side-by-side comparison with likwid-bench (compare.sh).  It uses the
 * same code path as `memcal run`: pinned team, NUMA-placed pre-faulted
 * huge-page buffers, best kernel variant, warm-up, repetitions of a full
 * run's minimum length until the median is tight or the figure's budget
 * is spent, collapse filter.  Output: one line
 *   <op> <cpus> <variant> <median GB/s> <min> <max> <kept> <foreign %>
 *   <spread %> <passes>
 * where GB/s counts program-visible bytes (10^9 bytes per second) and
 * the spread is half the median's 95 % interval over the median.
 *
 * -o random gives the guaranteed bandwidth's random-line read figure
 * instead (guaranteed.h: every CPU of the list at once, chains from the
 * sweep, a full run's repetition length); its spread column is "-".
 *
 * usage: memcal-bwbench -o read|write|ntwrite|copy|random -c CPULIST
 *                       [-s MiB per thread] [-r reps] [-w warmup]
 *                       [-x]   (exactly -r repetitions of one pass each)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guaranteed.h"
#include "measure.h"
#include "run_phases.h"

/* parse_cpus - "0-3,5" into @cpus (at most @cap); returns the count. */
static unsigned parse_cpus(const char *s, unsigned *cpus, unsigned cap)
{
	unsigned n = 0;

	while (*s && n < cap) {
		char *end;
		unsigned lo = (unsigned)strtoul(s, &end, 10), hi = lo;

		if (*end == '-')
			hi = (unsigned)strtoul(end + 1, &end, 10);
		for (unsigned c = lo; c <= hi && n < cap; c++)
			cpus[n++] = c;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
	return n;
}

/* random_line - the random-line read figure of every worker at once. */
static int random_line(struct memcal_bench *b, const struct memcal_topology *t,
		       const struct memcal_bw_spec *spec, const char *cpulist)
{
	struct memcal_guar_spec g = {
		.reps = spec->reps, .warmup = spec->warmup,
		.rep_ns = MEMCAL_GUAR_REP_NS_FULL,
		.line = t->line_size,
	};
	struct memcal_guaranteed out[2];
	double foreign;
	char err[512];

	if (!g.line)
		g.line = 64;
	if (cal_guaranteed_measure(b, &g, "random-line", out, &foreign, err,
				   sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("random %s random-line %.3f %.3f %.3f %d %.0f - %d\n", cpulist,
	       out[0].bandwidth_bps / 1e9, out[0].min_bps / 1e9,
	       out[0].max_bps / 1e9, out[0].repetitions, foreign * 100,
	       out[0].streams);
	return 0;
}

/* main - measure once and print the line described above. */
int main(int argc, char **argv)
{
	struct memcal_topology t;
	struct memcal_bench b;
	struct memcal_bw_spec spec = {
		.reps = MEMCAL_REPS_FULL, .warmup = MEMCAL_WARMUP_FULL,
		.passes = 1, .min_rep_ns = MEMCAL_REP_NS_FULL,
		.max_reps = MEMCAL_MAX_REPS_FULL,
		.budget_ns = MEMCAL_BW_BUDGET_NS_FULL,
	};
	struct memcal_bw_result r;
	const char *cpulist = "0";
	unsigned cpus[256], n;
	size_t mib = 512;
	char err[512];
	bool random = false;
	int c, rc;

	spec.op = MEMCAL_OP_READ;
	while ((c = getopt(argc, argv, "o:c:s:r:w:x")) != -1) {
		switch (c) {
		case 'o':
			random = !strcmp(optarg, "random");
			if (!random && cal_op_parse(optarg, &spec.op)) {
				fprintf(stderr, "unknown op %s\n", optarg);
				return 2;
			}
			break;
		case 'c':
			cpulist = optarg;
			break;
		case 's':
			mib = strtoul(optarg, NULL, 10);
			break;
		case 'r':
			spec.reps = (unsigned)atoi(optarg);
			break;
		case 'w':
			spec.warmup = (unsigned)atoi(optarg);
			break;
		case 'x':
			spec.min_rep_ns = 0;
			spec.max_reps = 0;
			break;
		default:
			fprintf(stderr, "usage: %s -o OP -c CPUS [-s MiB] [-r N] "
				"[-w N] [-x]\n", argv[0]);
			return 2;
		}
	}
	n = parse_cpus(cpulist, cpus, 256);
	if (!n || memcal_platform_topology_load(&t, NULL, err, sizeof(err))) {
		fprintf(stderr, "bad CPU list or topology: %s\n", err);
		return 1;
	}
	if (cal_bench_init(&b, &t, cpus, n, mib << 20, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	spec.n_use = n;
	if (random) {
		rc = random_line(&b, &t, &spec, cpulist);
		cal_bench_fini(&b);
		memcal_platform_topology_free(&t);
		return rc;
	}
	if (cal_measure_bw(&b, &spec, &r, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("%s %s %s %.3f %.3f %.3f %u %.0f %.1f %u\n",
	       cal_op_name(spec.op), cpulist, r.variant, r.agg.median / 1e9,
	       r.agg.min / 1e9, r.agg.max / 1e9, r.agg.kept, r.foreign * 100,
	       r.agg.spread * 100, r.passes);
	cal_bench_fini(&b);
	memcal_platform_topology_free(&t);
	return 0;
}
