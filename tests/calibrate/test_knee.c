// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_knee.c - the sustainable-bandwidth criterion on synthetic curves:
 * sharp knee, gradual curve, flat curve (lower bound), noisy curve.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "knee.h"
#include "memcal_platform.h"

#define GB 1e9

Test(knee, sharp_knee_is_found_at_the_bound)
{
	/* Flat at 100 ns up to 8 GB/s, then latency jumps to 400 ns. */
	struct memcal_curve_point c[] = {
		{ 0, 100 }, { 2 * GB, 101 }, { 4 * GB, 103 }, { 6 * GB, 106 },
		{ 8 * GB, 110 }, { 9 * GB, 400 }, { 9.2 * GB, 800 },
	};
	struct memcal_knee k;

	cr_assert_eq(cal_knee_find(c, 7, 1.5, &k), 0);
	cr_expect_not(k.lower_bound);
	cr_expect_float_eq(k.idle_lat, 100, 1e-9);
	/* Bound 150 ns lies 40/290 of the way from 8 to 9 GB/s. */
	cr_expect_float_eq(k.bandwidth, 8 * GB + GB * 40.0 / 290.0, 1e3);
	cr_expect_eq(k.knee_index, 5);
	cr_expect(strstr(k.criterion, "1.50") != NULL);
}

Test(knee, gradual_curve_crosses_by_interpolation)
{
	/* Latency grows linearly: 100 ns + 10 ns per GB/s. Bound 150 at 5. */
	struct memcal_curve_point c[11];
	struct memcal_knee k;

	for (int i = 0; i <= 10; i++)
		c[i] = (struct memcal_curve_point){ i * GB, 100 + 10.0 * i };
	cr_assert_eq(cal_knee_find(c, 11, 1.5, &k), 0);
	cr_expect_not(k.lower_bound);
	cr_expect_float_eq(k.bandwidth, 5 * GB, 1e3);
}

Test(knee, flat_curve_is_a_flagged_lower_bound)
{
	struct memcal_curve_point c[] = {
		{ 0, 175 }, { 5 * GB, 176 }, { 10 * GB, 178 }, { 14 * GB, 180 },
	};
	struct memcal_knee k;

	cr_assert_eq(cal_knee_find(c, 4, 0, &k), 0);	/* default bound */
	cr_expect(k.lower_bound);
	cr_expect_float_eq(k.bandwidth, 14 * GB, 1);
	cr_expect_float_eq(k.bound_ratio, MEMCAL_KNEE_BOUND_RATIO, 1e-12);
	cr_expect_eq(k.knee_index, -1);
	cr_expect(strstr(k.criterion, "lower bound") != NULL);
}

Test(knee, noisy_curve_ignores_a_single_spike)
{
	/* +-8 % noise, one spike to 2x at 3 GB/s, real knee past 7 GB/s. */
	struct memcal_curve_point c[] = {
		{ 0, 100 }, { 1 * GB, 108 }, { 2 * GB, 93 }, { 3 * GB, 200 },
		{ 4 * GB, 104 }, { 5 * GB, 97 }, { 6 * GB, 109 },
		{ 7 * GB, 118 }, { 8 * GB, 300 }, { 8.5 * GB, 600 },
	};
	struct memcal_knee k;

	cr_assert_eq(cal_knee_find(c, 10, 1.5, &k), 0);
	cr_expect_not(k.lower_bound);
	cr_expect_gt(k.bandwidth, 7 * GB);
	cr_expect_lt(k.bandwidth, 8 * GB);
}

Test(knee, unordered_points_are_sorted_by_bandwidth)
{
	struct memcal_curve_point c[] = {
		{ 9 * GB, 400 }, { 0, 100 }, { 8 * GB, 110 }, { 9.5 * GB, 900 },
	};
	struct memcal_knee k;

	cr_assert_eq(cal_knee_find(c, 4, 1.5, &k), 0);
	cr_expect_not(k.lower_bound);
	cr_expect_gt(k.bandwidth, 8 * GB);
	cr_expect_lt(k.bandwidth, 9 * GB);
}

Test(knee, bad_curves_are_rejected)
{
	struct memcal_curve_point c[] = { { 0, 0 }, { 1, 100 } };
	struct memcal_knee k;

	cr_expect_eq(cal_knee_find(c, 0, 1.5, &k), MEMCAL_EINVAL);
	cr_expect_eq(cal_knee_find(c, 2, 1.5, &k), MEMCAL_EINVAL);
}
