// SPDX-License-Identifier: GPL-2.0-only
/*
 * bwbench.c - one memcal bandwidth measurement from the command line, for
 * side-by-side comparison with likwid-bench (compare.sh).  It uses the
 * same code path as `memcal run`: pinned team, NUMA-placed pre-faulted
 * huge-page buffers, best kernel variant, warm-up, repetitions, collapse
 * filter.  Output: one line
 *   <op> <cpus> <variant> <median GB/s> <min> <max> <kept> <foreign %>
 * where GB/s counts program-visible bytes (10^9 bytes per second).
 *
 * usage: memcal-bwbench -o read|write|ntwrite|copy -c CPULIST
 *                       [-s MiB per thread] [-r reps] [-w warmup]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"

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

/* main - measure once and print the line described above. */
int main(int argc, char **argv)
{
	struct memcal_topology t;
	struct memcal_bench b;
	struct memcal_bw_spec spec = { .reps = 10, .warmup = 2, .passes = 1 };
	struct memcal_bw_result r;
	const char *cpulist = "0";
	unsigned cpus[256], n;
	size_t mib = 512;
	char err[512];
	int c;

	spec.op = MEMCAL_OP_READ;
	while ((c = getopt(argc, argv, "o:c:s:r:w:")) != -1) {
		switch (c) {
		case 'o':
			if (cal_op_parse(optarg, &spec.op)) {
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
		default:
			fprintf(stderr, "usage: %s -o OP -c CPUS [-s MiB] [-r N] "
				"[-w N]\n", argv[0]);
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
	if (cal_measure_bw(&b, &spec, &r, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("%s %s %s %.3f %.3f %.3f %u %.0f\n", cal_op_name(spec.op),
	       cpulist, r.variant, r.agg.median / 1e9, r.agg.min / 1e9,
	       r.agg.max / 1e9, r.agg.kept, r.foreign * 100);
	cal_bench_fini(&b);
	memcal_platform_topology_free(&t);
	return 0;
}
