// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet.c - the units of one board type side by side, and the outliers
 * among them.  A unit's figures are taken from fig_run_json()'s form of
 * its newest bandwidth run by a table that names, per section, the keys
 * that identify a row and the numbers that are settings rather than
 * figures; every other real number of a row is a figure, so a column
 * added to a row shows up here without a change.
 *
 * The outlier rule is robust to the outliers it looks for: per figure,
 * the median and the median absolute deviation (MAD) over the units; a
 * unit is flagged when |x - median| > k * 1.4826 * MAD.  The MAD is
 * floored at FIG_FLEET_MAD_FLOOR of the median, so that identical units
 * do not flag measurement noise.  Fewer than FIG_FLEET_MIN_UNITS units
 * cannot be judged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_figures.h"
#include "memcal_status.h"

/**
 * struct section - how figures are named and chosen in one section of
 * fig_run_json().
 * @key:    the section ("bandwidth").
 * @label:  its short name in a figure's name ("bw").
 * @ids:    keys naming a row, in order (NULL-terminated).
 * @skip:   real numbers that are settings or a figure's noise, not figures
 *          (NULL-terminated).
 * @only_measured: skip rows whose "status" is "skipped".
 */
struct section {
	const char *key;
	const char *label;
	const char *ids[4];
	const char *skip[6];
	bool only_measured;
};

static const struct section sections[] = {
	{ "bandwidth", "bw", { "kind", "scope", "cpus", NULL },
	  { "read_share", "min_bps", "max_bps", "spread", NULL }, false },
	{ "sustainable", "sustainable", { "traffic", NULL },
	  { "bound_ratio", NULL }, false },
	{ "mix_curves", "mix", { "read_pct", NULL },
	  { "bound_ratio", NULL }, false },
	{ "guaranteed", "guaranteed", { "traffic", "method", NULL },
	  { "min_bps", "max_bps", NULL }, true },
	{ "latency", "latency", { "traffic", "load_cpus", "pace", NULL },
	  { "pace", "bandwidth_bps", "latency_min_ns", "latency_max_ns",
	    NULL }, false },
	{ "overhead_models", "irq", { "cpu", "benchmark", NULL },
	  { "base_ratio", "r2", NULL }, false },
};

/* in_list - @s is one of the NULL-terminated @list. */
static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/*
 * figure_index - the column of @name in @fl into *@c, added when new.
 * Return: MEMCAL_OK or MEMCAL_ENOMEM.
 */
static int figure_index(struct fig_fleet *fl, const char *name, size_t *c)
{
	struct fig_fleet_figure nf = { 0 };

	for (size_t i = 0; i < fl->n_figs; i++)
		if (!strcmp(fl->figs[i].name, name)) {
			*c = i;
			return MEMCAL_OK;
		}
	snprintf(nf.name, sizeof(nf.name), "%s", name);
	if (fig_push((void **)&fl->figs, &fl->n_figs, sizeof(nf), &nf))
		return MEMCAL_ENOMEM;
	for (size_t u = 0; u < fl->n_units; u++) {
		double *v = realloc(fl->units[u].v, fl->n_figs * sizeof(*v));

		if (!v)
			return MEMCAL_ENOMEM;
		v[fl->n_figs - 1] = NAN;
		fl->units[u].v = v;
	}
	*c = fl->n_figs - 1;
	return MEMCAL_OK;
}

/* row_name - "@label id id ... @value" into @buf. */
static void row_name(const struct section *s, json_t *row, const char *value,
		     char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", s->label);

	for (const char *const *id = s->ids; *id && n < len; id++) {
		json_t *v = json_object_get(row, *id);

		if (json_is_string(v))
			n += (size_t)snprintf(buf + n, len - n, " %s",
					      json_string_value(v));
		else if (json_is_number(v))
			n += (size_t)snprintf(buf + n, len - n, " %s=%g", *id,
					      json_number_value(v));
	}
	if (n < len)
		snprintf(buf + n, len - n, " %s", value);
}

/*
 * add_figures() - every figure of unit @u from @figs (fig_run_json()'s
 * form) into @fl.  Return: MEMCAL_OK or MEMCAL_ENOMEM.
 */
static int add_figures(struct fig_fleet *fl, size_t u, json_t *figs)
{
	for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
		const struct section *sec = &sections[s];
		json_t *row;
		size_t i;

		json_array_foreach(json_object_get(figs, sec->key), i, row) {
			const char *k;
			json_t *v;

			if (sec->only_measured && !strcmp("skipped",
			    json_string_value(json_object_get(row, "status"))))
				continue;
			json_object_foreach(row, k, v) {
				char name[sizeof(fl->figs[0].name)];
				size_t c;

				if (!json_is_real(v) || in_list(sec->skip, k) ||
				    in_list(sec->ids, k))
					continue;
				row_name(sec, row, k, name, sizeof(name));
				if (figure_index(fl, name, &c))
					return MEMCAL_ENOMEM;
				if (isnan(fl->units[u].v[c]))
					fl->units[u].v[c] = json_real_value(v);
			}
		}
	}
	return MEMCAL_OK;
}

/**
 * struct load_state - what fig_fleet_load() walks the runs with.
 * @db: the database.  @fl: the fleet being filled.  @rc: first failure.
 */
struct load_state {
	memcal_db *db;
	struct fig_fleet *fl;
	int rc;
};

/* same_unit - @a and @b are one unit (hostname, machine-id and serial). */
static bool same_unit(const struct memcal_unit *a, const struct memcal_unit *b)
{
	return !strcmp(a->hostname, b->hostname) &&
	       !strcmp(a->machine_id, b->machine_id) &&
	       !strcmp(a->serial, b->serial);
}

/* add_run - the newest bandwidth run of each unit of the board (walked newest first). */
static int add_run(const struct memcal_run *r, void *user)
{
	struct load_state *ls = user;
	struct fig_fleet *fl = ls->fl;
	struct fig_fleet_unit nu = { .run_id = r->id };
	struct memcal_platform p;
	struct fig_run f;
	json_t *figs;
	int rc;

	if (r->platform_id != fl->platform_id || !strcmp(r->kind, "overhead"))
		return 0;
	rc = memcal_db_unit_get(ls->db, r->id, &nu.unit);
	if (rc == MEMCAL_ENOTFOUND) {
		rc = memcal_db_platform_get(ls->db, r->platform_id, &p);
		if (!rc) {
			snprintf(nu.unit.hostname, sizeof(nu.unit.hostname),
				 "%s", p.hostname);
			memcal_db_platform_free(&p);
		}
	}
	if (rc)
		return ls->rc = rc;
	for (size_t i = 0; i < fl->n_units; i++)
		if (same_unit(&fl->units[i].unit, &nu.unit))
			return 0;
	snprintf(nu.started_at, sizeof(nu.started_at), "%s", r->started_at);
	rc = fig_push((void **)&fl->units, &fl->n_units, sizeof(nu), &nu);
	if (!rc) {
		fl->units[fl->n_units - 1].v = calloc(fl->n_figs ? fl->n_figs :
						      1, sizeof(double));
		if (!fl->units[fl->n_units - 1].v)
			rc = MEMCAL_ENOMEM;
		for (size_t i = 0; !rc && i < fl->n_figs; i++)
			fl->units[fl->n_units - 1].v[i] = NAN;
	}
	if (!rc)
		rc = fig_run_load(ls->db, r->id, &f);
	if (rc)
		return ls->rc = rc;
	figs = fig_run_json(&f);
	fig_run_free(&f);
	rc = figs ? add_figures(fl, fl->n_units - 1, figs) : MEMCAL_ENOMEM;
	json_decref(figs);
	return ls->rc = rc;
}

/* cmp_unit - units by hostname, then machine-id, serial and run. */
static int cmp_unit(const void *a, const void *b)
{
	const struct fig_fleet_unit *x = a, *y = b;
	int c = strcmp(x->unit.hostname, y->unit.hostname);

	if (!c)
		c = strcmp(x->unit.machine_id, y->unit.machine_id);
	if (!c)
		c = strcmp(x->unit.serial, y->unit.serial);
	return c ? c : (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

/**
 * fig_fleet_load() - the units of board @platform_id (each unit's newest
 * full or quick run) and their figures, sorted by hostname.  Judge them
 * with fig_fleet_judge(); release with fig_fleet_free().
 * Return: MEMCAL_OK or the database's code (message on @db) or
 * MEMCAL_ENOMEM (@fl then holds nothing).
 */
int fig_fleet_load(memcal_db *db, int64_t platform_id, struct fig_fleet *fl)
{
	struct load_state ls = { .db = db, .fl = fl };
	int rc;

	memset(fl, 0, sizeof(*fl));
	fl->platform_id = platform_id;
	rc = memcal_db_platform_get(db, platform_id, &fl->platform);
	if (!rc)
		rc = memcal_db_run_list(db, add_run, &ls);
	if (!rc)
		rc = ls.rc;
	if (rc) {
		fig_fleet_free(fl);
		return rc;
	}
	qsort(fl->units, fl->n_units, sizeof(*fl->units), cmp_unit);
	return MEMCAL_OK;
}

/* cmp_double - ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* median - of the @n values at @v (sorted in place). */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/**
 * fig_fleet_judge() - per figure, the median and MAD over the units that
 * have it, and which units lie more than @k scaled MADs away; a figure
 * fewer than FIG_FLEET_MIN_UNITS units have is not judged.
 * Return: MEMCAL_OK or MEMCAL_ENOMEM.
 */
int fig_fleet_judge(struct fig_fleet *fl, double k)
{
	double *v = calloc(fl->n_units ? fl->n_units : 1, sizeof(*v));

	if (!v)
		return MEMCAL_ENOMEM;
	fl->k = k;
	for (size_t u = 0; u < fl->n_units; u++)
		fl->units[u].n_outliers = 0;
	for (size_t c = 0; c < fl->n_figs; c++) {
		struct fig_fleet_figure *fg = &fl->figs[c];
		size_t n = 0;

		for (size_t u = 0; u < fl->n_units; u++)
			if (isfinite(fl->units[u].v[c]))
				v[n++] = fl->units[u].v[c];
		fg->n = n;
		fg->judged = n >= FIG_FLEET_MIN_UNITS;
		fg->median = n ? median(v, n) : NAN;
		for (size_t i = 0; i < n; i++)
			v[i] = fabs(v[i] - fg->median);
		fg->mad = n ? median(v, n) : NAN;
		fg->threshold = k * 1.4826 * fmax(fg->mad, FIG_FLEET_MAD_FLOOR *
						  fabs(fg->median));
		fg->n_outliers = 0;
		for (size_t u = 0; fg->judged && u < fl->n_units; u++) {
			double x = fl->units[u].v[c];

			if (isfinite(x) && fabs(x - fg->median) > fg->threshold) {
				fg->n_outliers++;
				fl->units[u].n_outliers++;
			}
		}
	}
	free(v);
	return MEMCAL_OK;
}

/**
 * fig_fleet_outlier() - unit @u's figure @c is flagged.
 */
bool fig_fleet_outlier(const struct fig_fleet *fl, size_t u, size_t c)
{
	const struct fig_fleet_figure *fg = &fl->figs[c];
	double x = fl->units[u].v[c];

	return fg->judged && isfinite(x) &&
	       fabs(x - fg->median) > fg->threshold;
}

/* fig_fleet_free() - release what fig_fleet_load() allocated. */
void fig_fleet_free(struct fig_fleet *fl)
{
	for (size_t u = 0; u < fl->n_units; u++)
		free(fl->units[u].v);
	free(fl->units);
	free(fl->figs);
	memcal_db_platform_free(&fl->platform);
	memset(fl, 0, sizeof(*fl));
}

/* empty_null - @s as JSON, null when empty. */
static json_t *empty_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/**
 * fig_fleet_json() - a judged fleet as JSON: the board, the rule, one
 * object per figure (median, MAD, threshold, whether judged), one per
 * unit (identity, run, every figure, the figures flagged) and the
 * outliers as (unit, figure) pairs.
 * Return: a new object, or NULL when memory ran out.
 */
json_t *fig_fleet_json(const struct fig_fleet *fl)
{
	json_t *figs = json_array(), *units = json_array(), *out = json_array();
	bool judged = fl->n_units >= FIG_FLEET_MIN_UNITS;

	for (size_t c = 0; figs && c < fl->n_figs; c++) {
		const struct fig_fleet_figure *fg = &fl->figs[c];

		json_array_append_new(figs, json_pack(
			"{s:s, s:I, s:o, s:o, s:o, s:b}", "name", fg->name,
			"units", (json_int_t)fg->n, "median", fig_num(fg->median),
			"mad", fig_num(fg->mad),
			"threshold", fig_num(fg->judged ? fg->threshold : NAN),
			"judged", fg->judged));
	}
	for (size_t u = 0; units && u < fl->n_units; u++) {
		const struct fig_fleet_unit *un = &fl->units[u];
		json_t *vals = json_object(), *flagged = json_array();

		for (size_t c = 0; vals && flagged && c < fl->n_figs; c++) {
			json_object_set_new(vals, fl->figs[c].name,
					    fig_num(un->v[c]));
			if (fig_fleet_outlier(fl, u, c)) {
				json_array_append_new(flagged,
					json_string(fl->figs[c].name));
				json_array_append_new(out, json_pack(
					"{s:s, s:I, s:s, s:o, s:o}", "unit",
					un->unit.hostname, "run_id",
					(json_int_t)un->run_id, "figure",
					fl->figs[c].name, "value",
					fig_num(un->v[c]), "median",
					fig_num(fl->figs[c].median)));
			}
		}
		json_array_append_new(units, json_pack(
			"{s:s, s:o, s:o, s:I, s:s, s:b, s:o, s:o}",
			"hostname", un->unit.hostname,
			"machine_id", empty_null(un->unit.machine_id),
			"serial", empty_null(un->unit.serial),
			"run_id", (json_int_t)un->run_id,
			"started_at", un->started_at,
			"imported", un->unit.imported_at[0] != '\0',
			"figures", vals, "outliers", flagged));
	}
	return json_pack("{s:s, s:s, s:s, s:I, s:{s:f, s:f, s:i, s:s}, s:b,"
			 " s:o, s:o, s:o, s:o}",
			 "fingerprint", fl->platform.fingerprint,
			 "cpu_model", fl->platform.cpu_model,
			 "arch", fl->platform.arch,
			 "unit_count", (json_int_t)fl->n_units,
			 "rule", "k", fl->k, "mad_floor", FIG_FLEET_MAD_FLOOR,
			 "min_units", FIG_FLEET_MIN_UNITS, "text",
			 "|x - median| > k * 1.4826 * max(MAD, mad_floor * "
			 "|median|)", "judged", judged,
			 "reason", judged ? json_null() : json_sprintf(
			 "fewer than %d units of this board: cannot judge "
			 "outliers", FIG_FLEET_MIN_UNITS),
			 "figures", figs, "units", units, "outliers", out);
}
