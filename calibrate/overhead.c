// SPDX-License-Identifier: GPL-2.0-only
/*
 * overhead.c - the request of `memcal overhead`: defaults, validation
 * (periods, cores, repetitions) and the result's notes.  The sweep itself
 * is in overhead_sweep.c (see overhead.h).
 */
#include "overhead.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const uint32_t cal_ovh_default_periods[] = { 20, 32, 50, 100, 200, 500, 1000 };
const size_t cal_ovh_n_default_periods =
	sizeof(cal_ovh_default_periods) / sizeof(cal_ovh_default_periods[0]);

/*
 * cal_overhead_params_default - the default request: the default periods,
 * every core of @t, ten repetitions, both benchmarks, the master-core
 * comparison on.
 */
void cal_overhead_params_default(struct overhead_params *p,
			     const struct memcal_topology *t)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->periods_us, cal_ovh_default_periods, sizeof(cal_ovh_default_periods));
	p->n_periods = cal_ovh_n_default_periods;
	for (unsigned i = 0; t && i < t->n_cores && i < OVH_MAX_CPUS; i++)
		p->cpus[p->n_cpus++] = t->cpus[i];
	p->repeat = OVH_DEFAULT_REPEAT;
	p->bench[OVH_BENCH_COMPUTE] = p->bench[OVH_BENCH_MEMORY] = true;
	p->bench_ms = OVH_DEFAULT_BENCH_MS;
	p->master_effect = true;
}

/*
 * cal_overhead_validate_periods - refuse a period of 0, one below the timer
 * resolution @res_ns, one below the regulator's 10 us minimum, or one
 * above 1 s, with a sentence in @err.  Returns 0 or -EINVAL.
 */
int cal_overhead_validate_periods(const uint32_t *periods, size_t n,
			      uint64_t res_ns, char *err, size_t len)
{
	if (!n) {
		snprintf(err, len, "no period given");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t p = periods[i];

		if (p == 0) {
			snprintf(err, len, "a period of 0 us is meaningless: "
				 "periods are in microseconds, %u..%u",
				 OVH_PERIOD_MIN_US, OVH_PERIOD_MAX_US);
			return -EINVAL;
		}
		if ((uint64_t)p * 1000u < res_ns) {
			snprintf(err, len, "period %u us is below the timer "
				 "resolution of this machine (%llu ns)", p,
				 (unsigned long long)res_ns);
			return -EINVAL;
		}
		if (p < OVH_PERIOD_MIN_US) {
			snprintf(err, len, "period %u us is below the "
				 "regulator's minimum of %u us", p,
				 OVH_PERIOD_MIN_US);
			return -EINVAL;
		}
		if (p > OVH_PERIOD_MAX_US) {
			snprintf(err, len, "period %u us is absurdly large: at "
				 "most %u us (1 s)", p, OVH_PERIOD_MAX_US);
			return -EINVAL;
		}
	}
	return 0;
}

/* cal_overhead_timer_res_ns - clock_getres(CLOCK_MONOTONIC) in ns (1 if unknown). */
uint64_t cal_overhead_timer_res_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts))
		return 1;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * cal_overhead_validate - check a whole request against the topology: the
 * periods, cores that exist, a topology of this machine, sane repeat and
 * duration.  Returns 0 or -EINVAL with a sentence in @err.
 */
int cal_overhead_validate(const struct overhead_params *p,
		      const struct memcal_topology *t, char *err, size_t len)
{
	int rc = cal_overhead_validate_periods(p->periods_us, p->n_periods,
					   cal_overhead_timer_res_ns(), err, len);

	if (rc)
		return rc;
	if (!p->n_cpus) {
		snprintf(err, len, "no core given");
		return -EINVAL;
	}
	for (size_t i = 0; i < p->n_cpus; i++) {
		if (!memcal_platform_topology_has_pu(t, p->cpus[i])) {
			char list[128];

			memcal_platform_cpulist_format(t->pus, t->n_pus, list,
					      sizeof(list));
			snprintf(err, len, "cpu %u does not exist on this "
				 "machine (cpus: %s)", p->cpus[i], list);
			return -EINVAL;
		}
	}
	if (!t->this_system) {
		snprintf(err, len, "the topology (%s) is not this machine: "
			 "overhead can only be measured here", t->source);
		return -EINVAL;
	}
	if (p->repeat < 1 || p->repeat > 1000) {
		snprintf(err, len, "--repeat must be 1..1000");
		return -EINVAL;
	}
	if (p->bench_ms < 1 || p->bench_ms > 60000) {
		snprintf(err, len, "benchmark duration must be 1..60000 ms");
		return -EINVAL;
	}
	if (!p->bench[OVH_BENCH_COMPUTE] && !p->bench[OVH_BENCH_MEMORY]) {
		snprintf(err, len, "no benchmark selected");
		return -EINVAL;
	}
	return 0;
}

/*
 * cal_overhead_note - append one line to the result's notes (what the run
 * row stores) and say it on stderr as a warning.
 */
void cal_overhead_note(struct overhead_result *r, const char *fmt, ...)
{
	char line[512];
	size_t old = r->notes ? strlen(r->notes) : 0, add;
	char *n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	add = strlen(line);
	n = realloc(r->notes, old + add + 2);
	if (!n)
		return;
	memcpy(n + old, line, add);
	n[old + add] = '\n';
	n[old + add + 1] = '\0';
	r->notes = n;
}

/* cal_overhead_result_free - release what a result owns. */
void cal_overhead_result_free(struct overhead_result *r)
{
	free(r->pts);
	free(r->models);
	free(r->notes);
	free(r->params_json);
	memset(r, 0, sizeof(*r));
}

/* cal_overhead_params_json - the request as JSON text for the run row
 * (malloc'd; NULL without memory). */
char *cal_overhead_params_json(const struct overhead_params *p)
{
	json_t *o = json_object(), *per = json_array(), *cpus = json_array();
	json_t *b = json_array();
	char *txt;

	for (size_t i = 0; i < p->n_periods; i++)
		json_array_append_new(per, json_integer(p->periods_us[i]));
	for (size_t i = 0; i < p->n_cpus; i++)
		json_array_append_new(cpus, json_integer(p->cpus[i]));
	for (int i = 0; i < OVH_BENCH_COUNT; i++)
		if (p->bench[i])
			json_array_append_new(b, json_string(cal_ovh_bench_name(i)));
	json_object_set_new(o, "periods_us", per);
	json_object_set_new(o, "cores", cpus);
	json_object_set_new(o, "benchmarks", b);
	json_object_set_new(o, "repeat", json_integer(p->repeat));
	json_object_set_new(o, "bench_ms", json_integer(p->bench_ms));
	json_object_set_new(o, "master_effect", json_boolean(p->master_effect));
	json_object_set_new(o, "force_proxy", json_boolean(p->force_proxy));
	txt = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return txt;
}

/* cal_overhead_other_core - *@other: the first core of @t other than @cpu
 * (where the master goes when it is not on the measured core); false when
 * @t has no other. */
bool cal_overhead_other_core(const struct memcal_topology *t, unsigned cpu,
			     unsigned *other)
{
	for (unsigned i = 0; i < t->n_cores; i++)
		if (t->cpus[i] != cpu) {
			*other = t->cpus[i];
			return true;
		}
	return false;
}
