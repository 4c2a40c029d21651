// SPDX-License-Identifier: GPL-2.0-only
/*
 * knee.c - sustainable bandwidth from a latency curve (criterion in knee.h).
 */
#include "knee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_platform.h"

/* cmp_bw - order curve points by bandwidth. */
static int cmp_bw(const void *a, const void *b)
{
	const struct memcal_curve_point *x = a, *y = b;

	return x->bw < y->bw ? -1 : x->bw > y->bw;
}

/*
 * cal_knee_find - apply the criterion to @pts[0..n) (any order) with
 * @bound_ratio (<= 1 selects MEMCAL_KNEE_BOUND_RATIO).  Returns 0, or
 * MEMCAL_EINVAL for an empty curve or non-positive latencies.
 */
int cal_knee_find(const struct memcal_curve_point *pts, size_t n,
		     double bound_ratio, struct memcal_knee *out)
{
	struct memcal_curve_point *v;
	double bound;
	size_t i, cross = n;

	memset(out, 0, sizeof(*out));
	out->knee_index = -1;
	if (n == 0)
		return MEMCAL_EINVAL;
	if (bound_ratio <= 1)
		bound_ratio = MEMCAL_KNEE_BOUND_RATIO;
	v = malloc(n * sizeof(*v));
	if (!v)
		return MEMCAL_ENOMEM;
	memcpy(v, pts, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_bw);
	for (i = 0; i < n; i++)
		if (!(v[i].lat > 0)) {
			free(v);
			return MEMCAL_EINVAL;
		}
	out->idle_lat = v[0].lat;
	out->bound_ratio = bound_ratio;
	bound = bound_ratio * v[0].lat;
	for (i = 1; i < n; i++) {
		if (v[i].lat <= bound)
			continue;
		if (i + 1 == n || v[i + 1].lat > bound) {
			cross = i;
			break;
		}
	}
	if (cross == n) {
		out->bandwidth = v[n - 1].bw;
		out->lower_bound = true;
	} else {
		/* Last point inside the bound before the crossing. */
		size_t in = cross - 1;
		double dl = v[cross].lat - v[in].lat;
		double f = dl > 0 ? (bound - v[in].lat) / dl : 0;

		if (f < 0)
			f = 0;
		if (f > 1)
			f = 1;
		out->bandwidth = v[in].bw + f * (v[cross].bw - v[in].bw);
		out->knee_index = (int)cross;
	}
	snprintf(out->criterion, sizeof(out->criterion),
		 "highest aggregate bandwidth with loaded latency <= %.2f x "
		 "idle latency (idle = lowest-load point, latency = best "
		 "repetition); the crossing must persist for 2 points; linear "
		 "interpolation at the bound%s",
		 bound_ratio, out->lower_bound
		 ? "; never crossed: lower bound" : "");
	free(v);
	return MEMCAL_OK;
}
