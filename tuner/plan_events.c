// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_events.c - each CPU's kind and counter events.  A big.LITTLE or
 * hybrid board has a PMU per kind of core: `memcal run` stored the kinds
 * and each kind's documented read and write event (table cpu_kind).  With
 * more than one kind every CPU counts its kind's event (memreg's
 * read_event_cpus=, cpuN/read_event); with one kind, or for a class a
 * kind has no event for, the CPU counts the class's validated counter
 * event.  Budgets stay in the class's bytes per event: the kinds'
 * documented events count cache lines, as the validated one does.
 *
 * Events are exported by PMU name ("armv8_cortex_a76:0x2a"), which memreg
 * resolves on the target: a dynamic PMU's type number is given at boot in
 * registration order, so another kernel, device tree or driver load order
 * gives it to another PMU.  A database from before memcal stored the
 * names gives numbers; the kind's stored PMU name replaces its own type,
 * and every export of a number that stays says why it is fragile.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "memreg.h"
#include "plan.h"

static const char *const cls_name[TUNE_NR_CLASSES] = { "read", "write" };

/* kind_of - the kind whose cpulist holds @cpu, or NULL. */
static const struct memcal_cpu_kind *kind_of(const struct plan_input *in,
					     int cpu)
{
	for (int i = 0; i < in->n_kinds; i++) {
		uint32_t list[TUNE_MAX_CPUS];
		const char *why;
		size_t n;

		if (cli_parse_u32_list(in->kinds[i].cpus, 0, TUNE_MAX_CPUS - 1,
				       list, TUNE_MAX_CPUS, &n, &why))
			continue;
		for (size_t j = 0; j < n; j++)
			if (list[j] == (uint32_t)cpu)
				return &in->kinds[i];
	}
	return NULL;
}

/* explain_kind - one sentence per kind: its CPUs and what they count. */
static void explain_kind(const struct memcal_cpu_kind *k, bool own,
			 const struct tune_config *c, struct tune_config *out)
{
	char what[TUNE_NR_CLASSES][640];

	for (int cls = 0; cls < TUNE_NR_CLASSES; cls++) {
		if (own && k->event[cls][0])
			snprintf(what[cls], sizeof(what[cls]), "%ss with %s (%s%s%s)",
				 cls_name[cls], k->event[cls], k->event_name[cls],
				 k->perf_pmu[0] ? " on PMU " : "", k->perf_pmu);
		else
			snprintf(what[cls], sizeof(what[cls]), "%ss with the run's "
				 "'%s'%s%s", cls_name[cls], c->counter[cls].event,
				 own && k->why[cls][0] ? ": " : "",
				 own ? k->why[cls] : "");
	}
	tune_config_explain(out, "cpus %s (%s) count %s and %s", k->cpus, k->label,
		       what[0], what[1]);
}

/* PERF_TYPE_MAX: types from here are dynamic, given at registration. */
#define EV_TYPE_DYNAMIC 6U

bool tune_event_named(const char *pmu, uint64_t config, char *buf, size_t len)
{
	char spec[MEMREG_EVENT_LEN];
	struct memreg_event ev;
	int n = snprintf(spec, sizeof(spec), "%s:0x%llx", pmu,
			 (unsigned long long)config);

	if (n < 0 || (size_t)n >= sizeof(spec) || (size_t)n >= len ||
	    memreg_event_parse(spec, (memreg_u32)n, &ev, NULL) || !ev.pmu)
		return false;
	memcpy(buf, spec, (size_t)n + 1);
	return true;
}

/* numeric_type - whether @spec gives a dynamic type by number, in *@type. */
static bool numeric_type(const char *spec, unsigned *type)
{
	struct memreg_event ev;

	if (memreg_event_parse(spec, (memreg_u32)strlen(spec), &ev, NULL) ||
	    !ev.counted || ev.pmu || ev.type < EV_TYPE_DYNAMIC)
		return false;
	*type = ev.type;
	return true;
}

int tune_config_numeric_events(const struct tune_config *c, char *buf,
			       size_t len)
{
	const char *first = NULL;
	unsigned type, first_type = 0;
	int n = 0;

	for (int cls = 0; cls < TUNE_NR_CLASSES; cls++)
		if (numeric_type(c->counter[cls].event, &type) && n++ == 0) {
			first = c->counter[cls].event;
			first_type = type;
		}
	for (int i = 0; i < c->n_cpus; i++)
		for (int cls = 0; cls < TUNE_NR_CLASSES; cls++)
			if (numeric_type(c->cpus[i].event[cls], &type) && n++ == 0) {
				first = c->cpus[i].event[cls];
				first_type = type;
			}
	if (!n)
		return 0;
	snprintf(buf, len, "event '%s'%s gives PMU type %u: PMUs are numbered "
		 "in the order they register, so on another kernel it may name "
		 "another PMU and memreg counts the wrong event silently; re-run "
		 "'memcal run' to store PMU names", first,
		 n > 1 ? " (and others)" : "", first_type);
	return n;
}

/**
 * tune_plan_events() - fill each CPU's kind and own events in @out from
 * @in->kinds, and say so.
 * Return: 0, or MEMCAL_EINVAL when a stored event is not a memreg spec.
 */
int tune_plan_events(const struct plan_input *in, struct tune_config *out,
		char *err, size_t errlen)
{
	bool own = in->n_kinds > 1, any = false;

	for (int i = 0; i < out->n_cpus; i++) {
		struct tune_cpu *p = &out->cpus[i];
		const struct memcal_cpu_kind *k = kind_of(in, p->cpu);

		if (!k)
			continue;
		snprintf(p->kind, sizeof(p->kind), "%s", k->label);
		for (int cls = 0; own && cls < TUNE_NR_CLASSES; cls++) {
			struct memreg_event ev;
			const char *why = "";

			if (!k->event[cls][0])
				continue;
			if (memreg_event_parse(k->event[cls],
					       (memreg_u32)strlen(k->event[cls]),
					       &ev, &why)) {
				snprintf(err, errlen, "calibration run %lld stores "
					 "%s event '%s' for cpus %s, which memreg "
					 "cannot take (%s): run 'memcal run' again",
					 (long long)in->calibration_run_id,
					 cls_name[cls], k->event[cls], k->cpus, why);
				return MEMCAL_EINVAL;
			}
			/* an older run stored the kind's type: use its name */
			if (ev.pmu || ev.type < EV_TYPE_DYNAMIC || !k->perf_pmu[0] ||
			    ev.type != (memreg_u32)k->perf_type ||
			    !tune_event_named(k->perf_pmu, ev.config, p->event[cls],
					      sizeof(p->event[cls])))
				snprintf(p->event[cls], sizeof(p->event[cls]), "%s",
					 k->event[cls]);
			any = true;
		}
	}
	for (int i = 0; own && i < in->n_kinds; i++)
		explain_kind(&in->kinds[i], own, out, out);
	if (any)
		tune_config_warn(out, "each kind of CPU counts its own documented "
			    "events; budgets convert them at the class's %.0f "
			    "(read) and %.0f (write) bytes per event, measured "
			    "on the run's events only",
			    out->counter[TUNE_READ].bytes_per_event,
			    out->counter[TUNE_WRITE].bytes_per_event);
	return 0;
}
