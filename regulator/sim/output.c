// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * output.c - memreg-sim's printers: a fixed-width table for people and a
 * JSON document (jansson) for programs.  Budgets that are infinite
 * (monitor-only, unregulated CPUs) print as "inf" / null.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stddef.h>

#include "sim_output.h"

/* Print a budget, "inf" when infinite. */
static void put_budget(FILE *f, uint64_t b)
{
	if (b == MEMREG_BUDGET_INF)
		fprintf(f, " %11s", "inf");
	else
		fprintf(f, " %11" PRIu64, b);
}

/* Print one summary line. */
static void put_summary(FILE *f, const char *who, const struct memreg_sim_summary *s)
{
	fprintf(f, "%-6s demanded %" PRIu64 "/%" PRIu64 " served %" PRIu64 "/%" PRIu64
		" achieved %.4f overuse %" PRIu64 "/%" PRIu64 " (max %" PRIu64 "/%" PRIu64
		") throttled %.6f s in %" PRIu64 " periods, %" PRIu64 " throttles"
		" reclaimed %" PRIu64 "/%" PRIu64 " shared %" PRIu64 "/%" PRIu64
		" released %" PRIu64 " restarts %" PRIu64
		" pred-err %.1f/%.1f (%.1f%%/%.1f%%)\n",
		who, s->demanded[0], s->demanded[1], s->served[0], s->served[1],
		s->achieved_ratio, s->overuse[0], s->overuse[1], s->max_overuse[0],
		s->max_overuse[1], (double)s->throttled_ns / 1e9, s->periods_throttled,
		s->throttles, s->reclaimed[0], s->reclaimed[1], s->shared[0],
		s->shared[1], s->released, s->restarts, s->pred_abs_err[0], s->pred_abs_err[1],
		100 * s->pred_rel_err[0], 100 * s->pred_rel_err[1]);
}

void sim_print_table(FILE *f, const struct memreg_sim_config *cfg,
		     const struct memreg_sim_result *res)
{
	const char *unit = cfg->bytes_per_event ? "B/s" : "ev/s";
	size_t i;
	uint32_t cpu;

	fprintf(f, "# period %" PRIu64 " ns, step %" PRIu64 " ns, %zu periods, %u cores"
		" (R/W = read/write events; rates in %s)\n",
		res->period_ns, res->subtick_ns, res->nr_periods, res->nr_cores, unit);
	if (res->nr_rows) {
		fprintf(f, "%7s %3s %11s %11s %11s %11s %11s %11s %11s %11s %8s %12s %12s\n",
			"period", "cpu", "budget.R", "budget.W", "demand.R", "demand.W",
			"used.R", "used.W", "pred.R", "pred.W", "thr.frac",
			"achieved.R", "achieved.W");
		for (i = 0; i < res->nr_rows; i++) {
			const struct memreg_sim_period *p = &res->periods[i];

			fprintf(f, "%7" PRIu64 " %3u", p->period, p->cpu);
			put_budget(f, p->budget_end[0]);
			put_budget(f, p->budget_end[1]);
			fprintf(f, " %11" PRIu64 " %11" PRIu64 " %11" PRIu64 " %11" PRIu64
				" %11" PRIu64 " %11" PRIu64 " %8.4f %12.4g %12.4g\n",
				p->demand[0], p->demand[1], p->consumed[0], p->consumed[1],
				p->predicted[0], p->predicted[1], p->throttled_frac,
				p->achieved[0], p->achieved[1]);
		}
	}
	for (cpu = 0; cpu < res->nr_cores; cpu++) {
		char who[16];

		snprintf(who, sizeof(who), "cpu%u", cpu);
		put_summary(f, who, &res->core[cpu]);
	}
	put_summary(f, "total", &res->total);
}

/** enum sim_json_kind - how a record's member is written as JSON */
enum sim_json_kind {
	SIM_JSON_U64,		/* uint64_t */
	SIM_JSON_U32,		/* uint32_t */
	SIM_JSON_REAL,		/* double */
	SIM_JSON_PAIR_U64,	/* uint64_t[2]: [read, write] */
	SIM_JSON_PAIR_BUDGET,	/* uint64_t[2], an infinite budget as null */
	SIM_JSON_PAIR_REAL,	/* double[2] */
};

/**
 * struct sim_json_field - one member of a record in its JSON object
 * @key:  the member's key
 * @kind: its type and form
 * @off:  offsetof() the member in the record
 */
struct sim_json_field {
	const char *key;
	enum sim_json_kind kind;
	size_t off;
};

#define SIM_JSON_FIELD(type, key, member, kind) \
	{ key, SIM_JSON_##kind, offsetof(type, member) }
#define PERIOD(key, member, kind) SIM_JSON_FIELD(struct memreg_sim_period, key, member, kind)
#define SUMMARY(key, member, kind) SIM_JSON_FIELD(struct memreg_sim_summary, key, member, kind)

/* A period row: what the core saw and did in one period on one CPU. */
static const struct sim_json_field period_fields[] = {
	PERIOD("period", period, U64),
	PERIOD("cpu", cpu, U32),
	PERIOD("budget_start", budget_start, PAIR_BUDGET),
	PERIOD("budget", budget_end, PAIR_BUDGET),
	PERIOD("demand", demand, PAIR_U64),
	PERIOD("consumed", consumed, PAIR_U64),
	PERIOD("overuse", overuse, PAIR_U64),
	PERIOD("backlog", backlog, PAIR_U64),
	PERIOD("predicted", predicted, PAIR_U64),
	PERIOD("throttled_ns", throttled_ns, U64),
	PERIOD("throttled_frac", throttled_frac, REAL),
	PERIOD("achieved", achieved, PAIR_REAL),
	PERIOD("released", released, U64),
	PERIOD("restarts", restarts, U64),
};

/* A summary, of one core or of all. */
static const struct sim_json_field summary_fields[] = {
	SUMMARY("demanded", demanded, PAIR_U64),
	SUMMARY("served", served, PAIR_U64),
	SUMMARY("overuse", overuse, PAIR_U64),
	SUMMARY("max_overuse", max_overuse, PAIR_U64),
	SUMMARY("reclaimed", reclaimed, PAIR_U64),
	SUMMARY("donated", donated, PAIR_U64),
	SUMMARY("shared", shared, PAIR_U64),
	SUMMARY("throttled_ns", throttled_ns, U64),
	SUMMARY("throttles", throttles, U64),
	SUMMARY("periods_throttled", periods_throttled, U64),
	SUMMARY("released", released, U64),
	SUMMARY("restarts", restarts, U64),
	SUMMARY("pred_abs_err", pred_abs_err, PAIR_REAL),
	SUMMARY("pred_rel_err", pred_rel_err, PAIR_REAL),
	SUMMARY("achieved_ratio", achieved_ratio, REAL),
};

/* One member of a record, by @kind; NULL without memory. */
static json_t *field_json(const void *member, enum sim_json_kind kind)
{
	const uint64_t *u = member;
	const double *d = member;

	switch (kind) {
	case SIM_JSON_U64:
		return json_integer((json_int_t)*u);
	case SIM_JSON_U32:
		return json_integer(*(const uint32_t *)member);
	case SIM_JSON_REAL:
		return json_real(*d);
	case SIM_JSON_PAIR_REAL:
		return json_pack("[f,f]", d[0], d[1]);
	case SIM_JSON_PAIR_U64:
		return json_pack("[I,I]", (json_int_t)u[0], (json_int_t)u[1]);
	case SIM_JSON_PAIR_BUDGET:
		return json_pack("[o,o]",
				 u[0] == MEMREG_BUDGET_INF ? json_null() : json_integer((json_int_t)u[0]),
				 u[1] == MEMREG_BUDGET_INF ? json_null() : json_integer((json_int_t)u[1]));
	}
	return NULL;
}

/* The JSON object of @rec, member by member as @fields (@n) list them;
 * NULL without memory. */
static json_t *record_json(const void *rec, const struct sim_json_field *fields, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && i < n; i++)
		if (json_object_set_new(o, fields[i].key,
					field_json((const char *)rec + fields[i].off, fields[i].kind))) {
			json_decref(o);
			o = NULL;
		}
	return o;
}

#define RECORD_JSON(rec, fields) record_json(rec, fields, sizeof(fields) / sizeof(fields[0]))

int sim_print_json(FILE *f, const struct memreg_sim_config *cfg,
		   const struct memreg_sim_result *res)
{
	json_t *root, *rows = json_array(), *cores = json_array();
	size_t i;
	uint32_t cpu;
	int ret;

	for (i = 0; i < res->nr_rows; i++)
		json_array_append_new(rows, RECORD_JSON(&res->periods[i], period_fields));
	for (cpu = 0; cpu < res->nr_cores; cpu++)
		json_array_append_new(cores, RECORD_JSON(&res->core[cpu], summary_fields));
	root = json_pack("{s:{s:I,s:I,s:I,s:i,s:i,s:s,s:s},s:o,s:o,s:o}",
			 "run", "period_ns", (json_int_t)res->period_ns,
			 "subtick_ns", (json_int_t)res->subtick_ns,
			 "periods", (json_int_t)res->nr_periods,
			 "cores", (int)res->nr_cores,
			 "flags", (int)cfg->reg.flags,
			 "share", (cfg->reg.flags & MEMREG_F_SHARE) ?
				  memreg_share_name(cfg->reg.share_mode) : "off",
			 "rate_unit", cfg->bytes_per_event ? "bytes/s" : "events/s",
			 "periods", rows, "cores", cores,
			 "summary", RECORD_JSON(&res->total, summary_fields));
	if (!root)
		return MEMCAL_ENOMEM;
	ret = json_dumpf(root, f, JSON_COMPACT) ? MEMCAL_EIO : 0;
	fputc('\n', f);
	json_decref(root);
	return ret;
}

void sim_print_json_error(FILE *f, const char *msg)
{
	json_t *o = json_pack("{s:s}", "error", msg);

	if (o) {
		json_dumpf(o, f, JSON_COMPACT);
		fputc('\n', f);
		json_decref(o);
	}
}
