// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * output.c - memreg-sim's printers: a fixed-width table for people and a
 * JSON document (jansson) for programs.  Budgets that are infinite
 * (monitor-only, unregulated CPUs) print as "inf" / null.
 */
#include <inttypes.h>
#include <jansson.h>

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

/* A JSON [read, write] pair of integers (null for infinite budgets). */
static json_t *pair_u64(const uint64_t v[2], int inf_is_null)
{
	json_t *a = json_array();
	int c;

	for (c = 0; c < 2; c++) {
		if (inf_is_null && v[c] == MEMREG_BUDGET_INF)
			json_array_append_new(a, json_null());
		else
			json_array_append_new(a, json_integer((json_int_t)v[c]));
	}
	return a;
}

/* A JSON [read, write] pair of reals. */
static json_t *pair_real(const double v[2])
{
	return json_pack("[f,f]", v[0], v[1]);
}

/* One summary object. */
static json_t *summary_json(const struct memreg_sim_summary *s)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:o,s:o,s:f}",
			 "demanded", pair_u64(s->demanded, 0),
			 "served", pair_u64(s->served, 0),
			 "overuse", pair_u64(s->overuse, 0),
			 "max_overuse", pair_u64(s->max_overuse, 0),
			 "reclaimed", pair_u64(s->reclaimed, 0),
			 "donated", pair_u64(s->donated, 0),
			 "shared", pair_u64(s->shared, 0),
			 "throttled_ns", (json_int_t)s->throttled_ns,
			 "throttles", (json_int_t)s->throttles,
			 "periods_throttled", (json_int_t)s->periods_throttled,
			 "released", (json_int_t)s->released,
			 "restarts", (json_int_t)s->restarts,
			 "pred_abs_err", pair_real(s->pred_abs_err),
			 "pred_rel_err", pair_real(s->pred_rel_err),
			 "achieved_ratio", s->achieved_ratio);
}

int sim_print_json(FILE *f, const struct memreg_sim_config *cfg,
		   const struct memreg_sim_result *res)
{
	json_t *root, *rows = json_array(), *cores = json_array();
	size_t i;
	uint32_t cpu;
	int ret;

	for (i = 0; i < res->nr_rows; i++) {
		const struct memreg_sim_period *p = &res->periods[i];

		json_array_append_new(rows,
			json_pack("{s:I,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:f,s:o,s:I,s:I}",
				  "period", (json_int_t)p->period, "cpu", (int)p->cpu,
				  "budget_start", pair_u64(p->budget_start, 1),
				  "budget", pair_u64(p->budget_end, 1),
				  "demand", pair_u64(p->demand, 0),
				  "consumed", pair_u64(p->consumed, 0),
				  "overuse", pair_u64(p->overuse, 0),
				  "backlog", pair_u64(p->backlog, 0),
				  "predicted", pair_u64(p->predicted, 0),
				  "throttled_ns", (json_int_t)p->throttled_ns,
				  "throttled_frac", p->throttled_frac,
				  "achieved", pair_real(p->achieved),
				  "released", (json_int_t)p->released,
				  "restarts", (json_int_t)p->restarts));
	}
	for (cpu = 0; cpu < res->nr_cores; cpu++)
		json_array_append_new(cores, summary_json(&res->core[cpu]));
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
			 "summary", summary_json(&res->total));
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
