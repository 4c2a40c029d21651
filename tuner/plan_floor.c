// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_floor.c - the least budget a regulated real-time core gets,
 * whatever its profile saw.
 *
 * A profile is a trace of one solo run at 100 us granularity.  It cannot
 * see three things that a real-time task meets once it shares the board:
 *
 *   cache refills  another task runs on the core between two jobs (or a
 *                  co-runner evicts its lines), so a job may start with
 *                  cold private caches and refill them: up to the size of
 *                  the core's private data caches, in one burst, inside a
 *                  single regulation period.  The floor therefore holds one
 *                  full refill per period, whatever the period's length.
 *   write-backs    a write-back is charged to the core whose fill evicts the
 *                  dirty line, not to the core that dirtied it: the same
 *                  refill may evict up to one private cache of lines dirtied
 *                  by the previous task, so a task that writes nothing
 *                  still needs that much write budget per period.
 *   noise          the trace is a sample (timer jitter, rounding to whole
 *                  counter events, page-table walks and stack traffic a
 *                  100 us tick averages away, the calibration's own error):
 *                  PLAN_FLOOR_NOISE_SHARE (1 %) of the measured sustainable
 *                  bandwidth of the class.
 *
 * floor(class) = private cache bytes + 1 % x sustainable bandwidth x period,
 * per period.  The private caches are the data and unified caches of the
 * CPU below its last level (the last-level cache is shared by design and a
 * hit there costs no memory traffic); a board whose topology lists no
 * cache is assumed to have PLAN_FLOOR_DEFAULT_CACHE and the plan says so.
 * Short periods make the floor expensive (a whole refill per period), which
 * the period choice weighs: a period whose floors do not fit is skipped.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/**
 * tune_plan_floor() - the floor of CPU @cpu for class @k at a period of @sec
 * seconds, into @f.
 */
void tune_plan_floor(const struct plan_input *in, int cpu, int k, double sec,
		struct tune_plan_floor *f)
{
	uint64_t cache = cpu >= 0 && cpu < TUNE_MAX_CPUS ?
			 in->cache_bytes[cpu] : 0;

	f->cache_known = cache > 0;
	f->cache = cache ? cache : PLAN_FLOOR_DEFAULT_CACHE;
	f->refill = (double)f->cache;
	f->noise = PLAN_FLOOR_NOISE_SHARE * in->sustain_bps[k] * sec;
	f->bytes = f->refill + f->noise;
}

/* cpulist_has - whether the cpulist text @list ("0-3,8") names @cpu. */
static bool cpulist_has(const char *list, int cpu)
{
	const char *p = list;

	while (p && *p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			return false;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

/**
 * tune_plan_floor_caches() - per CPU 0..@nr_cpus-1, the bytes of its private
 * data caches, from the platform profile's topology document.
 * Return: the number of CPUs whose caches were found (the others get 0).
 */
int tune_plan_floor_caches(const char *topology_json, int nr_cpus,
		      uint64_t *cache_bytes)
{
	json_t *doc = topology_json ? json_loads(topology_json, 0, NULL) :
		      NULL;
	json_t *caches = json_object_get(doc, "caches"), *c;
	int found = 0;
	size_t i;

	for (int cpu = 0; cpu < nr_cpus && cpu < TUNE_MAX_CPUS; cpu++) {
		int top = 0;

		cache_bytes[cpu] = 0;
		json_array_foreach(caches, i, c) {
			int lvl = (int)json_integer_value(json_object_get(c,
								"level"));

			if (cpulist_has(json_string_value(json_object_get(c,
						"cpus")), cpu) && lvl > top)
				top = lvl;
		}
		json_array_foreach(caches, i, c) {
			int lvl = (int)json_integer_value(json_object_get(c,
								"level"));
			json_int_t size = json_integer_value(json_object_get(c,
								"size"));

			if (size > 0 && (lvl < top || top == 1) &&
			    cpulist_has(json_string_value(json_object_get(c,
						"cpus")), cpu))
				cache_bytes[cpu] += (uint64_t)size;
		}
		found += cache_bytes[cpu] > 0;
	}
	json_decref(doc);
	return found;
}
