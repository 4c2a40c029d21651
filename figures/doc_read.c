// SPDX-License-Identifier: GPL-2.0-only
/*
 * doc_read.c - the read side of fig_run_json(): each row type's JSON
 * object back into its struct, driven by one table of fields per type,
 * so that a column added to a row is one line here beside its line in
 * json.c (the export/import round trip test catches a missing one).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_figures.h"
#include "memcal_status.h"

/* The type of one field: how its JSON value is read into the struct. */
enum fty { F_STR, F_INT, F_I64, F_U32, F_U64, F_DBL, F_BOOL, F_CPU };

/**
 * struct field - one JSON key of a row and where it goes.
 * @key:  the key; "a.b" is key b of the object at key a.
 * @type: how it is read (F_DBL takes null as not measured, F_CPU takes
 *        null as -1: a check that is not per CPU).
 * @off:  offset in the struct.
 * @size: size of a string buffer (F_STR only).
 */
struct field {
	const char *key;
	enum fty type;
	size_t off;
	size_t size;
};

#define S(T, m)   { #m, F_STR, offsetof(T, m), sizeof(((T *)0)->m) }
#define SK(T, k, m) { k, F_STR, offsetof(T, m), sizeof(((T *)0)->m) }
#define N(T, m, t) { #m, t, offsetof(T, m), 0 }
#define END { NULL, F_INT, 0, 0 }

static const struct field bw_fields[] = {
	S(struct memcal_bw, kind), S(struct memcal_bw, scope),
	S(struct memcal_bw, cpus), N(struct memcal_bw, n_cpus, F_INT),
	S(struct memcal_bw, variant),
	N(struct memcal_bw, buffer_bytes, F_I64),
	N(struct memcal_bw, read_share, F_DBL),
	N(struct memcal_bw, repetitions, F_INT),
	N(struct memcal_bw, median_bps, F_DBL),
	N(struct memcal_bw, min_bps, F_DBL),
	N(struct memcal_bw, max_bps, F_DBL), END,
};

static const struct field lat_fields[] = {
	S(struct memcal_latency_point, traffic),
	N(struct memcal_latency_point, chase_cpu, F_INT),
	N(struct memcal_latency_point, load_cpus, F_INT),
	N(struct memcal_latency_point, pace, F_DBL),
	N(struct memcal_latency_point, bandwidth_bps, F_DBL),
	N(struct memcal_latency_point, latency_ns, F_DBL),
	N(struct memcal_latency_point, latency_min_ns, F_DBL),
	N(struct memcal_latency_point, latency_max_ns, F_DBL), END,
};

static const struct field sus_fields[] = {
	S(struct memcal_sustainable, traffic),
	N(struct memcal_sustainable, bandwidth_bps, F_DBL),
	N(struct memcal_sustainable, idle_latency_ns, F_DBL),
	N(struct memcal_sustainable, bound_ratio, F_DBL),
	S(struct memcal_sustainable, criterion),
	N(struct memcal_sustainable, lower_bound, F_BOOL), END,
};

static const struct field mix_fields[] = {
	N(struct memcal_mix_curve, read_pct, F_INT),
	S(struct memcal_mix_curve, variant),
	N(struct memcal_mix_curve, chase_cpu, F_INT),
	N(struct memcal_mix_curve, load_cpus, F_INT),
	N(struct memcal_mix_curve, peak_bps, F_DBL),
	N(struct memcal_mix_curve, knee_bps, F_DBL),
	N(struct memcal_mix_curve, sustainable_bps, F_DBL),
	N(struct memcal_mix_curve, idle_latency_ns, F_DBL),
	N(struct memcal_mix_curve, bound_ratio, F_DBL),
	N(struct memcal_mix_curve, lower_bound, F_BOOL),
	S(struct memcal_mix_curve, criterion), END,
};

static const struct field point_fields[] = {
	N(struct memcal_mix_point, pace, F_DBL),
	N(struct memcal_mix_point, bandwidth_bps, F_DBL),
	N(struct memcal_mix_point, latency_ns, F_DBL),
	N(struct memcal_mix_point, latency_min_ns, F_DBL),
	N(struct memcal_mix_point, latency_max_ns, F_DBL), END,
};

static const struct field guar_fields[] = {
	S(struct memcal_guaranteed, traffic),
	S(struct memcal_guaranteed, method),
	S(struct memcal_guaranteed, status),
	N(struct memcal_guaranteed, bandwidth_bps, F_DBL),
	N(struct memcal_guaranteed, min_bps, F_DBL),
	N(struct memcal_guaranteed, max_bps, F_DBL),
	S(struct memcal_guaranteed, cpus),
	N(struct memcal_guaranteed, n_cpus, F_INT),
	N(struct memcal_guaranteed, buffer_bytes, F_I64),
	N(struct memcal_guaranteed, streams, F_INT),
	N(struct memcal_guaranteed, repetitions, F_INT),
	S(struct memcal_guaranteed, criterion),
	S(struct memcal_guaranteed, source), END,
};

static const struct field pmu_fields[] = {
	N(struct memcal_pmu_status, available, F_BOOL),
	S(struct memcal_pmu_status, pmu_name),
	S(struct memcal_pmu_status, message), END,
};

static const struct field ev_fields[] = {
	S(struct memcal_pmu_event, name), S(struct memcal_pmu_event, pmu),
	S(struct memcal_pmu_event, traffic),
	N(struct memcal_pmu_event, perf_type, F_U32),
	N(struct memcal_pmu_event, perf_config, F_U64),
	N(struct memcal_pmu_event, perf_config1, F_U64),
	N(struct memcal_pmu_event, opened, F_BOOL),
	N(struct memcal_pmu_event, bytes_per_event, F_DBL),
	N(struct memcal_pmu_event, error_pct, F_DBL),
	N(struct memcal_pmu_event, chosen, F_BOOL),
	S(struct memcal_pmu_event, message), END,
};

static const struct field sc_fields[] = {
	S(struct memcal_selfcheck, check),
	N(struct memcal_selfcheck, cpu, F_CPU),
	S(struct memcal_selfcheck, event),
	N(struct memcal_selfcheck, expected, F_DBL),
	N(struct memcal_selfcheck, measured, F_DBL),
	N(struct memcal_selfcheck, tolerance_pct, F_DBL),
	S(struct memcal_selfcheck, verdict),
	S(struct memcal_selfcheck, message), END,
};

static const struct field kind_fields[] = {
	S(struct memcal_cpu_kind, cpus), S(struct memcal_cpu_kind, label),
	S(struct memcal_cpu_kind, perf_pmu),
	N(struct memcal_cpu_kind, perf_type, F_INT),
	SK(struct memcal_cpu_kind, "read.event", event[0]),
	SK(struct memcal_cpu_kind, "read.name", event_name[0]),
	SK(struct memcal_cpu_kind, "read.why", why[0]),
	SK(struct memcal_cpu_kind, "write.event", event[1]),
	SK(struct memcal_cpu_kind, "write.name", event_name[1]),
	SK(struct memcal_cpu_kind, "write.why", why[1]), END,
};

static const struct field ov_fields[] = {
	N(struct memcal_overhead_point, cpu, F_INT),
	N(struct memcal_overhead_point, period_us, F_INT),
	S(struct memcal_overhead_point, benchmark),
	S(struct memcal_overhead_point, method),
	N(struct memcal_overhead_point, master_cpu, F_INT),
	N(struct memcal_overhead_point, repetitions, F_INT),
	N(struct memcal_overhead_point, ratio_median, F_DBL),
	N(struct memcal_overhead_point, ratio_min, F_DBL),
	N(struct memcal_overhead_point, ratio_max, F_DBL),
	N(struct memcal_overhead_point, lower_bound, F_BOOL), END,
};

static const struct field om_fields[] = {
	N(struct memcal_overhead_model, cpu, F_INT),
	S(struct memcal_overhead_model, benchmark),
	S(struct memcal_overhead_model, method),
	N(struct memcal_overhead_model, cost_per_irq_ns, F_DBL),
	N(struct memcal_overhead_model, base_ratio, F_DBL),
	N(struct memcal_overhead_model, r2, F_DBL), END,
};

/* lookup - @key of @o, descending one object per "a." prefix. */
static json_t *lookup(json_t *o, const char *key)
{
	const char *dot = strchr(key, '.');
	char head[64];

	if (!dot)
		return json_object_get(o, key);
	snprintf(head, sizeof(head), "%.*s", (int)(dot - key), key);
	return lookup(json_object_get(o, head), dot + 1);
}

/*
 * read_fields() - every field of @fl from @o into the struct at @row.
 * Return: MEMCAL_OK, or MEMCAL_ESYNTAX with the key and what is wrong in
 * @err.
 */
static int read_fields(json_t *o, const struct field *fl, void *row,
		       char *err, size_t len)
{
	if (!json_is_object(o)) {
		snprintf(err, len, "is not an object");
		return MEMCAL_ESYNTAX;
	}
	for (; fl->key; fl++) {
		json_t *v = lookup(o, fl->key);
		char *p = (char *)row + fl->off;
		const char *want = NULL;

		switch (fl->type) {
		case F_STR:
			if (!json_is_string(v))
				want = "a string";
			else if (json_string_length(v) >= fl->size)
				want = "a shorter string";
			else
				memcpy(p, json_string_value(v),
				       json_string_length(v) + 1);
			break;
		case F_INT:
		case F_U32:
			if (!json_is_integer(v) ||
			    json_integer_value(v) < (fl->type == F_INT ?
						     INT32_MIN : 0) ||
			    json_integer_value(v) > (fl->type == F_INT ?
						     INT32_MAX : UINT32_MAX))
				want = "a 32-bit integer";
			else if (fl->type == F_INT)
				*(int *)p = (int)json_integer_value(v);
			else
				*(uint32_t *)p = (uint32_t)json_integer_value(v);
			break;
		case F_CPU:
			if (json_is_null(v))
				*(int *)p = -1;
			else if (!json_is_integer(v) ||
				 json_integer_value(v) < 0 ||
				 json_integer_value(v) > INT32_MAX)
				want = "a CPU number or null";
			else
				*(int *)p = (int)json_integer_value(v);
			break;
		case F_I64:
		case F_U64:
			if (!json_is_integer(v))
				want = "an integer";
			else if (fl->type == F_I64)
				*(int64_t *)p = json_integer_value(v);
			else /* fig_pmu_event_json() wrote it as int64 */
				*(uint64_t *)p = (uint64_t)json_integer_value(v);
			break;
		case F_DBL:
			if (json_is_null(v))
				*(double *)p = NAN;
			else if (!json_is_number(v))
				want = "a number or null";
			else
				*(double *)p = json_number_value(v);
			break;
		case F_BOOL:
			if (!json_is_boolean(v))
				want = "true or false";
			else
				*(bool *)p = json_is_true(v);
			break;
		}
		if (want) {
			snprintf(err, len, "\"%s\" %s %s", fl->key,
				 v ? "must be" : "is missing: it must be",
				 want);
			return MEMCAL_ESYNTAX;
		}
	}
	return MEMCAL_OK;
}

/*
 * read_points - the "points" of one mix curve into @c.
 * Return: MEMCAL_OK or MEMCAL_ESYNTAX (message in @err).
 */
static int read_points(json_t *o, struct memcal_mix_curve *c, char *err,
		       size_t len)
{
	json_t *pts = json_object_get(o, "points"), *e;
	size_t i;
	int rc;

	if (!json_is_array(pts) || json_array_size(pts) > MEMCAL_MIX_MAX_POINTS) {
		snprintf(err, len, "\"points\" must be an array of at most %d",
			 MEMCAL_MIX_MAX_POINTS);
		return MEMCAL_ESYNTAX;
	}
	json_array_foreach(pts, i, e) {
		char sub[192];

		rc = read_fields(e, point_fields, &c->points[i], sub,
				 sizeof(sub));
		if (rc) {
			snprintf(err, len, "point %zu: %s", i, sub);
			return rc;
		}
	}
	c->n_points = (int)json_array_size(pts);
	return MEMCAL_OK;
}

/*
 * read_rows() - the array at @key of @fig into a malloc'd array *@arr of
 * *@n rows of @elem bytes, each read by @fl (and @extra when not NULL).
 * Return: MEMCAL_OK, MEMCAL_ENOMEM, or MEMCAL_ESYNTAX (message in @err).
 */
static int read_rows(json_t *fig, const char *key, const struct field *fl,
		     int (*extra)(json_t *, struct memcal_mix_curve *, char *,
				  size_t),
		     void **arr, size_t *n, size_t elem, char *err, size_t len)
{
	json_t *a = json_object_get(fig, key), *e;
	size_t i;

	if (!json_is_array(a)) {
		snprintf(err, len, "\"figures\".\"%s\" %s", key,
			 a ? "must be an array" : "is missing");
		return MEMCAL_ESYNTAX;
	}
	*arr = calloc(json_array_size(a) ? json_array_size(a) : 1, elem);
	if (!*arr)
		return MEMCAL_ENOMEM;
	json_array_foreach(a, i, e) {
		char sub[192];
		void *row = (char *)*arr + i * elem;
		int rc = read_fields(e, fl, row, sub, sizeof(sub));

		if (!rc && extra)
			rc = extra(e, row, sub, sizeof(sub));
		if (rc) {
			snprintf(err, len, "\"figures\".\"%s\"[%zu]: %s", key,
				 i, sub);
			return rc;
		}
	}
	*n = json_array_size(a);
	return MEMCAL_OK;
}

/**
 * fig_run_from_json() - the inverse of fig_run_json(): @fig's rows into
 * @f (zeroed first; release with fig_run_free()).  Keys the reader does
 * not know are ignored; a missing or mistyped one is an error.
 * Return: MEMCAL_OK, MEMCAL_ENOMEM, or MEMCAL_ESYNTAX with the key and
 * what is wrong in @err (@f then holds nothing).
 */
int fig_run_from_json(json_t *fig, struct fig_run *f, char *err, size_t len)
{
	json_t *pmu = json_object_get(fig, "pmu");
	int rc;

	memset(f, 0, sizeof(*f));
	if (!json_is_object(fig)) {
		snprintf(err, len, "\"figures\" must be an object");
		return MEMCAL_ESYNTAX;
	}
#define ROWS(key, fl, extra, arr)					\
	(rc ? rc : read_rows(fig, key, fl, extra, (void **)&f->arr,	\
			     &f->n_##arr, sizeof(*f->arr), err, len))
	rc = MEMCAL_OK;
	rc = ROWS("bandwidth", bw_fields, NULL, bw);
	rc = ROWS("latency", lat_fields, NULL, lat);
	rc = ROWS("sustainable", sus_fields, NULL, sus);
	rc = ROWS("mix_curves", mix_fields, read_points, mix);
	rc = ROWS("guaranteed", guar_fields, NULL, guar);
	rc = ROWS("pmu_events", ev_fields, NULL, ev);
	rc = ROWS("pmu_selfchecks", sc_fields, NULL, sc);
	rc = ROWS("cpu_kinds", kind_fields, NULL, kinds);
	rc = ROWS("overhead", ov_fields, NULL, ov);
	rc = ROWS("overhead_models", om_fields, NULL, om);
#undef ROWS
	if (!rc && !json_is_null(pmu)) {
		char sub[192];

		rc = read_fields(pmu, pmu_fields, &f->pmu, sub, sizeof(sub));
		if (rc)
			snprintf(err, len, "\"figures\".\"pmu\": %s", sub);
		f->have_pmu = !rc;
	}
	if (rc)
		fig_run_free(f);
	return rc;
}

/**
 * fig_run_store() - every row of @f as figures of run @run_id, inside
 * the caller's transaction.
 * Return: MEMCAL_OK or the database's code (message on @db).
 */
int fig_run_store(memcal_db *db, int64_t run_id, const struct fig_run *f)
{
	int rc = MEMCAL_OK;

	/* every row of every array, unless a store failed before */
#define STORE(arr, type, list, store)					\
	for (size_t i = 0; !rc && i < f->n_##arr; i++)			\
		rc = store(db, run_id, &f->arr[i]);
	FIG_RUN_ROWS(STORE)
#undef STORE
	if (!rc && f->have_pmu)
		rc = memcal_db_pmu_status_store(db, run_id, &f->pmu);
	return rc;
}
