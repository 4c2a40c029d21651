// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_compare.c - `memcal compare [--board FINGERPRINT|--all] [--k K]`:
 * the units of one board type side by side, one row per unit and one
 * column per figure, with the outliers flagged by the robust rule of
 * figures/fleet.c.  The text and the JSON come from the same judged
 * fleet, so they cannot disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_cmds.h"
#include "memcal_db.h"
#include "memcal_figures.h"

enum { OPT_K = 256 };

/**
 * struct compare_args - parsed options of `memcal compare`.
 * @board: --board value, or NULL.
 * @all:   --all.
 * @k:     the rule's k.
 */
struct compare_args {
	const char *board;
	bool all;
	double k;
};

static const struct cli_option compare_options[] = {
	CLI_OPT_NONEMPTY("board", 0, "FINGERPRINT", struct compare_args, board,
			 "a fingerprint ('memcal compare --all' lists "
			 "them)",
			 "the board type to compare (a unique prefix will do; "
			 "default: the board of the newest run)"),
	CLI_OPT_FLAG("all", 0, struct compare_args, all, "compare the units "
		     "of every board type"),
	CLI_OPT("k", 'k', "K", OPT_K, "flag |x - median| > K x 1.4826 x MAD "
		"(default 3.5)"),
	CLI_OPT_END,
};

/* compare_option - the option callback of cli_parse_options(): --k. */
static int compare_option(struct cli_ctx *ctx, int key, const char *arg,
			  void *user)
{
	struct compare_args *a = user;
	char *end;

	(void)key;
	a->k = strtod(arg, &end);
	if (end == arg || *end || !isfinite(a->k) || a->k <= 0 || a->k > 100)
		return cli_error(ctx, CLI_EXIT_USAGE, "--k '%s': must be a "
				 "number above 0 and at most 100", arg);
	return 0;
}

/**
 * struct boards - the boards chosen, as platform ids.
 * @v, @n: the ids.  @prefix: --board, or NULL for all.
 * @matches: how many boards @prefix matched.
 */
struct boards {
	int64_t *v;
	size_t n;
	const char *prefix;
	size_t matches;
};

/* pick_board - keep a board that --board names (or every one). */
static int pick_board(const struct memcal_platform *p, void *user)
{
	struct boards *b = user;

	if (b->prefix && strncmp(p->fingerprint, b->prefix, strlen(b->prefix)))
		return 0;
	b->matches++;
	return fig_push((void **)&b->v, &b->n, sizeof(p->id), &p->id);
}

/* fmt_value - a figure for the text table: GB/s, ns, or as it is. */
static void fmt_value(const char *name, double v, char *buf, size_t len)
{
	size_t n = strlen(name);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (n > 4 && !strcmp(name + n - 4, "_bps"))
		snprintf(buf, len, "%.2f", v / 1e9);
	else if (n > 3 && !strcmp(name + n - 3, "_ns"))
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* unit_of - the unit a figure's text value is in. */
static const char *unit_of(const char *name)
{
	size_t n = strlen(name);

	if (n > 4 && !strcmp(name + n - 4, "_bps"))
		return "GB/s";
	if (n > 3 && !strcmp(name + n - 3, "_ns"))
		return "ns";
	return "";
}

/* print_fleet - the text form of one judged fleet. */
static void print_fleet(FILE *f, const struct fig_fleet *fl)
{
	char a[32], b[64], t[32];
	size_t flagged = 0;

	fprintf(f, "Board %.16s (%s, %s): %zu unit%s\n",
		fl->platform.fingerprint, fl->platform.cpu_model,
		fl->platform.arch, fl->n_units, fl->n_units == 1 ? "" : "s");
	fprintf(f, "Outlier rule: |x - median| > %g x 1.4826 x MAD per "
		"figure, the MAD at least %g%% of the median\n", fl->k,
		FIG_FLEET_MAD_FLOOR * 100);
	if (fl->n_units < FIG_FLEET_MIN_UNITS)
		fprintf(f, "Only %zu unit%s of this board: cannot judge "
			"outliers (needs at least %d).\n", fl->n_units,
			fl->n_units == 1 ? "" : "s", FIG_FLEET_MIN_UNITS);
	fprintf(f, "\nFigures (column: name, unit, median, threshold):\n");
	for (size_t c = 0; c < fl->n_figs; c++) {
		fmt_value(fl->figs[c].name, fl->figs[c].median, a, sizeof(a));
		if (fl->figs[c].judged) {
			fmt_value(fl->figs[c].name, fl->figs[c].threshold, t,
				  sizeof(t));
			snprintf(b, sizeof(b), "threshold +/- %s", t);
		} else {
			snprintf(b, sizeof(b), "not judged (%zu unit%s)",
				 fl->figs[c].n, fl->figs[c].n == 1 ? "" : "s");
		}
		fprintf(f, "  [%zu] %s%s%s%s  median %s, %s\n", c + 1,
			fl->figs[c].name, unit_of(fl->figs[c].name)[0] ? " (" :
			"", unit_of(fl->figs[c].name), unit_of(fl->figs[c].name)
			[0] ? ")" : "", a, b);
	}
	fprintf(f, "\n%-20s %5s", "unit", "run");
	for (size_t c = 0; c < fl->n_figs; c++) {
		snprintf(a, sizeof(a), "[%zu]", c + 1);
		fprintf(f, " %9s", a);
	}
	fputc('\n', f);
	for (size_t u = 0; u < fl->n_units; u++) {
		fprintf(f, "%-20.20s %5lld", fl->units[u].unit.hostname,
			(long long)fl->units[u].run_id);
		for (size_t c = 0; c < fl->n_figs; c++) {
			fmt_value(fl->figs[c].name, fl->units[u].v[c], a,
				  sizeof(a));
			if (fig_fleet_outlier(fl, u, c))
				strcat(a, "*");
			fprintf(f, " %9s", a);
		}
		fputc('\n', f);
	}
	if (fl->n_units < FIG_FLEET_MIN_UNITS)
		return;
	fprintf(f, "\nOutliers (* above):\n");
	for (size_t u = 0; u < fl->n_units; u++)
		for (size_t c = 0; c < fl->n_figs; c++) {
			if (!fig_fleet_outlier(fl, u, c))
				continue;
			fmt_value(fl->figs[c].name, fl->units[u].v[c], a,
				  sizeof(a));
			fmt_value(fl->figs[c].name, fl->figs[c].median, b,
				  sizeof(b));
			fprintf(f, "  %s (run %lld): [%zu] %s %s %s, median "
				"%s (%+.1f%%)\n", fl->units[u].unit.hostname,
				(long long)fl->units[u].run_id, c + 1,
				fl->figs[c].name, a, unit_of(fl->figs[c].name),
				b, 100 * (fl->units[u].v[c] / fl->figs[c].median
				- 1));
			flagged++;
		}
	if (!flagged)
		fprintf(f, "  none\n");
}

/* newest_board - the board of the newest run into *@id. */
static int newest_board(memcal_db *db, int64_t *id)
{
	struct memcal_run r;
	int64_t run_id;
	int rc = memcal_db_run_latest(db, "bandwidth", &run_id);

	if (!rc)
		rc = memcal_db_run_get(db, run_id, &r);
	if (!rc) {
		*id = r.platform_id;
		memcal_db_run_free(&r);
	}
	return rc;
}

/**
 * cal_cmd_compare() - `memcal compare [--board FINGERPRINT|--all] [--k K]`.
 * The database is opened read-only.
 */
int cal_cmd_compare(struct cli_ctx *ctx, int argc, char **argv)
{
	struct compare_args a = { .k = FIG_FLEET_K_DEFAULT };
	struct boards b = { 0 };
	memcal_db *db = NULL;
	json_t *arr = NULL;
	int rc;

	rc = cli_parse_options(ctx, argc, argv,
			       "[--board FINGERPRINT] [--all] [--k K]",
			       compare_options, compare_option, &a, NULL);
	if (rc)
		return rc;
	if (a.all && a.board)
		return cli_error(ctx, CLI_EXIT_USAGE, "--board and --all "
				 "exclude each other");
	rc = cal_open_db(ctx, MEMCAL_DB_OPEN_READONLY, &db);
	if (rc)
		return rc;
	if (a.all || a.board) {
		b.prefix = a.board;
		rc = memcal_db_platform_list(db, pick_board, &b);
		if (!rc && a.board && b.matches != 1) {
			rc = b.matches ?
			     cli_error(ctx, CLI_EXIT_USAGE, "--board '%s' "
				       "matches %zu boards: give more of the "
				       "fingerprint", a.board, b.matches) :
			     cli_error(ctx, CLI_EXIT_USAGE, "--board '%s' "
				       "matches no board in %s ('memcal "
				       "compare --all' lists them)", a.board,
				       memcal_db_path(db));
			goto out;
		}
	} else {
		int64_t id;

		rc = newest_board(db, &id);
		if (!rc)
			rc = fig_push((void **)&b.v, &b.n, sizeof(id), &id);
	}
	if (rc) {
		rc = cli_error(ctx, cli_exit_for(rc), "%s", memcal_db_errmsg(db));
		goto out;
	}
	arr = json_array();
	for (size_t i = 0; !rc && i < b.n; i++) {
		struct fig_fleet fl;

		rc = fig_fleet_load(db, b.v[i], &fl);
		if (!rc)
			rc = fig_fleet_judge(&fl, a.k);
		if (rc) {
			rc = cli_error(ctx, cli_exit_for(rc), "%s",
				       rc == MEMCAL_ENOMEM ? "out of memory" :
				       memcal_db_errmsg(db));
			break;
		}
		if (ctx->json) {
			json_array_append_new(arr, fig_fleet_json(&fl));
		} else {
			if (i)
				fputc('\n', ctx->out);
			print_fleet(ctx->out, &fl);
		}
		fig_fleet_free(&fl);
	}
	if (!rc && ctx->json)
		rc = cli_emit_json(ctx, json_pack("{s:f, s:o}", "k", a.k,
						  "boards", json_incref(arr)));
out:
	json_decref(arr);
	free(b.v);
	memcal_db_close(db);
	return rc;
}
