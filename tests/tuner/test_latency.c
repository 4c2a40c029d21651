// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_latency.c - the per-job latency probe: cyclictest's histogram and
 * summary output (real captures in tests/fixtures/cyclictest/), the
 * memcal-load job report, percentiles and deadline misses.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "latency_probe.h"

#define CT MEMCAL_SOURCE_DIR "/tests/fixtures/cyclictest/"

/* parse - @text into a fresh distribution of @range us and @deadline_ns. */
static int parse(const char *text, size_t range, uint64_t deadline_ns,
		 struct lat_dist *d, char *err)
{
	cr_assert_eq(tune_lat_dist_init(d, range, deadline_ns), 0);
	return tune_lat_parse_cyclictest(text, d, err, 256);
}

Test(latency, cyclictest_histogram)
{
	char *text = slurp(CT "histogram.txt"), err[256] = "";
	struct lat_dist d;

	cr_assert_not_null(text);
	/* 22 samples 30..49 us in the histogram, 8 past its 50 us, max 140 */
	cr_assert_eq(parse(text, 50, 40000, &d, err), 0, "%s", err);
	cr_expect_eq(d.samples, 30);
	cr_expect_eq(d.overflow, 8);
	cr_expect_eq(d.max_ns, 140000);
	cr_expect_eq(tune_lat_dist_percentile(&d, 50), 39000);
	cr_expect_eq(tune_lat_dist_percentile(&d, 1), 30000);
	/* rank 30 of 30 lies past the histogram: the exact maximum */
	cr_expect_eq(tune_lat_dist_percentile(&d, 99), 140000);
	/* above 40 us: 41, 42, 43, 45, 49, 49 and the 8 overflows */
	cr_expect_eq(d.misses, 14);
	tune_lat_dist_free(&d);

	/* a 1 ms deadline: the maximum is under it, no miss */
	cr_assert_eq(parse(text, 50, 1000000, &d, err), 0, "%s", err);
	cr_expect_eq(d.misses, 0);
	tune_lat_dist_free(&d);
	/* a 100 us deadline past the 50 us histogram: overflows count
	 * (an upper bound) since the maximum is over it */
	cr_assert_eq(parse(text, 50, 100000, &d, err), 0, "%s", err);
	cr_expect_eq(d.misses, 8);
	tune_lat_dist_free(&d);
	free(text);
}

Test(latency, cyclictest_summary)
{
	char *text = slurp(CT "summary.txt"), err[256] = "";
	struct lat_dist d;

	cr_assert_not_null(text);
	cr_assert_eq(parse(text, 1000, 200000, &d, err), 0, "%s", err);
	cr_expect_eq(d.samples, 30);
	cr_expect_eq(d.max_ns, 226000);
	/* only count and maximum: every percentile is the maximum */
	cr_expect_eq(tune_lat_dist_percentile(&d, 50), 226000);
	cr_expect_eq(tune_lat_dist_percentile(&d, 99), 226000);
	cr_expect_eq(d.misses, 30);
	tune_lat_dist_free(&d);
	cr_assert_eq(parse(text, 1000, 1000000, &d, err), 0, "%s", err);
	cr_expect_eq(d.misses, 0);
	tune_lat_dist_free(&d);
	free(text);
}

Test(latency, cyclictest_bad_output)
{
	char *text = slurp(CT "histogram.txt"), err[256] = "";
	struct lat_dist d;

	cr_assert_not_null(text);
	cr_expect_neq(parse("", 50, 1000, &d, err), 0);
	cr_expect(strstr(err, "no histogram or summary"), "%s", err);
	tune_lat_dist_free(&d);
	cr_expect_neq(parse("Unable to change scheduling policy!\n"
			    "Probably missing capabilities\n", 50, 1000, &d,
			    err), 0);
	cr_expect(strstr(err, "Unable to change"), "%s", err);
	tune_lat_dist_free(&d);
	/* cut before its trailer (cyclictest killed, not interrupted) */
	*strstr(text, "# Total") = '\0';
	cr_expect_neq(parse(text, 50, 1000, &d, err), 0);
	cr_expect(strstr(err, "cut short"), "%s", err);
	tune_lat_dist_free(&d);
	cr_expect_neq(parse("000001 12x\n", 50, 1000, &d, err), 0);
	cr_expect(strstr(err, "line 1 is malformed"), "%s", err);
	tune_lat_dist_free(&d);
	cr_expect_neq(parse("000001 000002\n# Total: 000000003\n"
			    "# Max Latencies: 00001\n", 50, 1000, &d, err), 0);
	cr_expect(strstr(err, "counts 2 samples"), "%s", err);
	tune_lat_dist_free(&d);
	free(text);
}

Test(latency, job_report)
{
	struct lat_dist d;
	char err[256] = "";

	cr_assert_eq(tune_lat_dist_init(&d, tune_lat_range_us(20000000), 20000000), 0);
	cr_assert_eq(tune_lat_parse_job_report("jobs 3 misses 1 max_ns 25000000\n"
		"job_ns 10000000\njob_ns 25000000\njob_ns 12000500\n", &d, err,
		sizeof(err)), 0, "%s", err);
	cr_expect_eq(d.samples, 3);
	cr_expect_eq(d.misses, 1);
	cr_expect_eq(d.max_ns, 25000000);
	cr_expect_eq(tune_lat_dist_percentile(&d, 50), 12000000);
	cr_expect_eq(tune_lat_dist_percentile(&d, 99), 25000000);
	tune_lat_dist_free(&d);

	cr_assert_eq(tune_lat_dist_init(&d, 1000, 1000), 0);
	cr_expect_neq(tune_lat_parse_job_report("jobs 3 misses 0 max_ns 5\n"
		"job_ns 1\njob_ns 2\n", &d, err, sizeof(err)), 0);
	cr_expect(strstr(err, "announces 3 jobs but times 2"), "%s", err);
	tune_lat_dist_free(&d);
	cr_assert_eq(tune_lat_dist_init(&d, 1000, 1000), 0);
	cr_expect_neq(tune_lat_parse_job_report("jobs 1 misses 0 max_ns 5\n",
		&d, err, sizeof(err)), 0, "a report without job lines");
	tune_lat_dist_free(&d);
	cr_assert_eq(tune_lat_dist_init(&d, 1000, 1000), 0);
	cr_expect_neq(tune_lat_parse_job_report("job_ns 1\n", &d, err,
		sizeof(err)), 0);
	cr_expect(strstr(err, "does not start with"), "%s", err);
	tune_lat_dist_free(&d);
}

Test(latency, statistics)
{
	struct lat_dist a, b;

	cr_assert_eq(tune_lat_dist_init(&a, 100, 50000), 0);
	cr_assert_eq(tune_lat_dist_init(&b, 100, 50000), 0);
	for (uint64_t i = 1; i <= 100; i++)
		tune_lat_dist_add(i <= 50 ? &a : &b, i * 1000);
	cr_assert_eq(tune_lat_dist_merge(&a, &b), 0);
	cr_expect_eq(a.samples, 100);
	/* 51..100 us are over 50 us; 100 us is past the 100-bucket range */
	cr_expect_eq(a.misses, 50);
	cr_expect_eq(a.overflow, 1);
	cr_expect_eq(tune_lat_dist_percentile(&a, 50), 50000);
	cr_expect_eq(tune_lat_dist_percentile(&a, 99), 99000);
	cr_expect_eq(tune_lat_dist_percentile(&a, 100), 100000);
	tune_lat_dist_free(&b);
	cr_assert_eq(tune_lat_dist_init(&b, 10, 50000), 0);
	cr_expect_neq(tune_lat_dist_merge(&a, &b), 0, "different ranges merge");
	tune_lat_dist_free(&a);
	tune_lat_dist_free(&b);
	cr_expect_eq(tune_lat_range_us(20000000), 40001);
	cr_expect_eq(tune_lat_range_us(10000), 1000);
	cr_expect_eq(tune_lat_range_us(1000000000), LAT_MAX_BUCKETS);
	cr_expect_eq(tune_lat_dist_init(&a, 0, 1), -EINVAL);
}

Test(latency, which_probe)
{
	char *self[] = { "/usr/bin/memcal-load", "read", "--period-us",
			 "20000", NULL };
	char *once[] = { "memcal-load", "read", "--mb", "8", NULL };
	char *other[] = { "control-loop", "--period-us", "1", NULL };

	cr_expect(tune_lat_reports_jobs(self));
	cr_expect(!tune_lat_reports_jobs(once), "no periodic jobs to report");
	cr_expect(!tune_lat_reports_jobs(other), "only memcal-load reports jobs");
}
