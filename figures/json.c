// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - the one JSON form of a run's figures and of the rows other
 * documents embed.  Every number goes through fig_num(), so a figure that
 * was not measured is null, never NaN (which JSON cannot carry) or 0.
 */
#include <math.h>

#include "memcal_figures.h"

/* fig_num() - a JSON number, or null when @v is not finite. */
json_t *fig_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* bw_json - one bandwidth row. */
static json_t *bw_json(const struct memcal_bw *b)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:I, s:o, s:i, s:o, s:o, "
			 "s:o, s:o, s:b}", "kind", b->kind, "scope", b->scope,
			 "cpus", b->cpus, "n_cpus", b->n_cpus,
			 "variant", b->variant,
			 "buffer_bytes", (json_int_t)b->buffer_bytes,
			 "read_share", fig_num(b->read_share),
			 "repetitions", b->repetitions,
			 "median_bps", fig_num(b->median_bps),
			 "min_bps", fig_num(b->min_bps),
			 "max_bps", fig_num(b->max_bps),
			 "spread", fig_num(b->spread),
			 "spread_wide", b->spread_wide);
}

/* lat_json - one loaded-latency point. */
static json_t *lat_json(const struct memcal_latency_point *p)
{
	return json_pack("{s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o}",
			 "traffic", p->traffic, "chase_cpu", p->chase_cpu,
			 "load_cpus", p->load_cpus, "pace", fig_num(p->pace),
			 "bandwidth_bps", fig_num(p->bandwidth_bps),
			 "latency_ns", fig_num(p->latency_ns),
			 "latency_min_ns", fig_num(p->latency_min_ns),
			 "latency_max_ns", fig_num(p->latency_max_ns));
}

/* sus_json - one sustainable-bandwidth figure. */
static json_t *sus_json(const struct memcal_sustainable *s)
{
	return json_pack("{s:s, s:o, s:o, s:o, s:s, s:b}", "traffic",
			 s->traffic, "bandwidth_bps", fig_num(s->bandwidth_bps),
			 "idle_latency_ns", fig_num(s->idle_latency_ns),
			 "bound_ratio", fig_num(s->bound_ratio),
			 "criterion", s->criterion,
			 "lower_bound", s->lower_bound);
}

/**
 * fig_pmu_event_json() - one PMU event considered, with the perf
 * encoding it was opened with.
 */
json_t *fig_pmu_event_json(const struct memcal_pmu_event *e)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:I, s:I, s:b, s:o, s:o, s:b, "
			 "s:s}", "name", e->name, "pmu", e->pmu,
			 "traffic", e->traffic, "perf_type", (int)e->perf_type,
			 "perf_config", (json_int_t)e->perf_config,
			 "perf_config1", (json_int_t)e->perf_config1,
			 "opened", e->opened,
			 "bytes_per_event", fig_num(e->bytes_per_event),
			 "error_pct", fig_num(e->error_pct),
			 "chosen", e->chosen, "message", e->message);
}

/* ov_json - one interrupt-overhead point. */
static json_t *ov_json(const struct memcal_overhead_point *p)
{
	return json_pack("{s:i, s:i, s:s, s:s, s:i, s:b, s:i, s:o, s:o, s:o, "
			 "s:b}", "cpu", p->cpu, "period_us", p->period_us,
			 "benchmark", p->benchmark, "method", p->method,
			 "master_cpu", p->master_cpu,
			 "on_master", p->master_cpu == p->cpu,
			 "repetitions", p->repetitions,
			 "ratio_median", fig_num(p->ratio_median),
			 "ratio_min", fig_num(p->ratio_min),
			 "ratio_max", fig_num(p->ratio_max),
			 "lower_bound", p->lower_bound);
}

/* om_json - one fitted overhead model. */
static json_t *om_json(const struct memcal_overhead_model *m)
{
	return json_pack("{s:i, s:s, s:s, s:o, s:o, s:o}", "cpu", m->cpu,
			 "benchmark", m->benchmark, "method", m->method,
			 "cost_per_irq_ns", fig_num(m->cost_per_irq_ns),
			 "base_ratio", fig_num(m->base_ratio),
			 "r2", fig_num(m->r2));
}

/**
 * fig_mix_curve_json() - one curve of the bandwidth-latency family: its
 * figures and its points by ascending pace.
 */
json_t *fig_mix_curve_json(const struct memcal_mix_curve *c)
{
	json_t *pts = json_array();

	for (int i = 0; pts && i < c->n_points; i++)
		json_array_append_new(pts, json_pack(
			"{s:o, s:o, s:o, s:o, s:o}",
			"pace", fig_num(c->points[i].pace),
			"bandwidth_bps", fig_num(c->points[i].bandwidth_bps),
			"latency_ns", fig_num(c->points[i].latency_ns),
			"latency_min_ns", fig_num(c->points[i].latency_min_ns),
			"latency_max_ns", fig_num(c->points[i].latency_max_ns)));
	return json_pack("{s:i, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:b, "
			 "s:s, s:o}", "read_pct", c->read_pct,
			 "variant", c->variant, "chase_cpu", c->chase_cpu,
			 "load_cpus", c->load_cpus,
			 "peak_bps", fig_num(c->peak_bps),
			 "knee_bps", fig_num(c->knee_bps),
			 "sustainable_bps", fig_num(c->sustainable_bps),
			 "idle_latency_ns", fig_num(c->idle_latency_ns),
			 "bound_ratio", fig_num(c->bound_ratio),
			 "lower_bound", c->lower_bound,
			 "criterion", c->criterion, "points", pts);
}

/**
 * fig_selfcheck_json() - one PMU self-check (cpu null for a check that is
 * not per CPU).
 */
json_t *fig_selfcheck_json(const struct memcal_selfcheck *c)
{
	return json_pack("{s:s, s:o, s:s, s:o, s:o, s:o, s:s, s:s}", "check",
			 c->check, "cpu", c->cpu >= 0 ? json_integer(c->cpu) :
			 json_null(), "event", c->event, "expected",
			 fig_num(c->expected), "measured", fig_num(c->measured),
			 "tolerance_pct", fig_num(c->tolerance_pct), "verdict",
			 c->verdict, "message", c->message);
}

/**
 * fig_guaranteed_json() - @n guaranteed-bandwidth figures: every field,
 * and "stands" true on the figure that stands for its class
 * (memcal_db_guaranteed_choose()).
 */
json_t *fig_guaranteed_json(const struct memcal_guaranteed *g, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:o, s:o, s:o, s:s, s:i, s:I, s:i, "
			"s:i, s:s, s:s, s:b}",
			"traffic", g[i].traffic, "method", g[i].method,
			"status", g[i].status,
			"bandwidth_bps", fig_num(g[i].bandwidth_bps),
			"min_bps", fig_num(g[i].min_bps),
			"max_bps", fig_num(g[i].max_bps),
			"cpus", g[i].cpus, "n_cpus", g[i].n_cpus,
			"buffer_bytes", (json_int_t)g[i].buffer_bytes,
			"streams", g[i].streams, "repetitions", g[i].repetitions,
			"criterion", g[i].criterion, "source", g[i].source,
			"stands", memcal_db_guaranteed_choose(g, n, g[i].traffic) ==
				  &g[i]));
	return a;
}

/**
 * fig_cpu_kinds_json() - @n kinds of CPU with the event each counts
 * with per class, or why it has none.
 */
json_t *fig_cpu_kinds_json(const struct memcal_cpu_kind *k, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:i, s:{s:s, s:s, s:s}, s:{s:s, s:s, s:s}}",
			"cpus", k[i].cpus, "label", k[i].label, "perf_pmu", k[i].perf_pmu,
			"perf_type", k[i].perf_type, "read", "event", k[i].event[0],
			"name", k[i].event_name[0], "why", k[i].why[0], "write",
			"event", k[i].event[1], "name", k[i].event_name[1], "why",
			k[i].why[1]));
	return a;
}

/* ARRAY_OF - @a = a JSON array of the @n rows at @rows, each through @one. */
#define ARRAY_OF(a, rows, n, one)					\
	do {								\
		(a) = json_array();					\
		for (size_t i_ = 0; (a) && i_ < (n); i_++)		\
			json_array_append_new((a), one(&(rows)[i_]));	\
	} while (0)

/**
 * fig_run_json() - every figure of @f as one JSON object: "bandwidth",
 * "latency", "sustainable", "mix_curves", "guaranteed", "pmu" (the
 * verdict, or null when the run stored none), "pmu_events",
 * "pmu_selfchecks", "cpu_kinds", "overhead", "overhead_models"; an array
 * is empty when the run stored no such row.
 * Return: a new object, or NULL when memory ran out.
 */
json_t *fig_run_json(const struct fig_run *f)
{
	json_t *bw, *lat, *sus, *mix, *ev, *sc, *ov, *om;

	ARRAY_OF(bw, f->bw, f->n_bw, bw_json);
	ARRAY_OF(lat, f->lat, f->n_lat, lat_json);
	ARRAY_OF(sus, f->sus, f->n_sus, sus_json);
	ARRAY_OF(mix, f->mix, f->n_mix, fig_mix_curve_json);
	ARRAY_OF(ev, f->ev, f->n_ev, fig_pmu_event_json);
	ARRAY_OF(sc, f->sc, f->n_sc, fig_selfcheck_json);
	ARRAY_OF(ov, f->ov, f->n_ov, ov_json);
	ARRAY_OF(om, f->om, f->n_om, om_json);
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:o}", "bandwidth", bw, "latency", lat,
			 "sustainable", sus, "mix_curves", mix,
			 "guaranteed", fig_guaranteed_json(f->guar, f->n_guar),
			 "pmu", f->have_pmu ? json_pack("{s:b, s:s, s:s}",
			 "available", f->pmu.available, "pmu_name",
			 f->pmu.pmu_name, "message", f->pmu.message) :
			 json_null(), "pmu_events", ev, "pmu_selfchecks", sc,
			 "cpu_kinds", fig_cpu_kinds_json(f->kinds, f->n_kinds),
			 "overhead", ov, "overhead_models", om);
}
