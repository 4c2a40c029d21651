// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_fleet.c - the fleet section of the calibration report: when the
 * database holds more than one unit of the reported board, the units side
 * by side with the outliers flagged (figures/fleet.c, the rule and data
 * `memcal compare` prints), as HTML and as the report's JSON.
 */
#include <math.h>
#include <string.h>

#include "report.h"

/**
 * report_load_fleet() - the units of the reported board into @r->fleet,
 * judged with the default k; @r->have_fleet only when there are two or
 * more.  Return: MEMCAL_OK or the database's code.
 */
int report_load_fleet(struct report *r, memcal_db *db)
{
	int rc;

	if (!r->have_run)
		return MEMCAL_OK;
	rc = fig_fleet_load(db, r->run.platform_id, &r->fleet);
	if (!rc)
		rc = fig_fleet_judge(&r->fleet, FIG_FLEET_K_DEFAULT);
	if (rc) {
		fig_fleet_free(&r->fleet);
		return rc;
	}
	r->have_fleet = r->fleet.n_units > 1;
	if (!r->have_fleet)
		fig_fleet_free(&r->fleet);
	return MEMCAL_OK;
}

/* cell - one figure as the table prints it: GB/s, ns, or as it is. */
static void cell(FILE *f, const char *name, double v)
{
	size_t n = strlen(name);

	if (!isfinite(v))
		fputs("&ndash;", f);
	else if (n > 4 && !strcmp(name + n - 4, "_bps"))
		fprintf(f, "%.2f", v / 1e9);
	else if (n > 3 && !strcmp(name + n - 3, "_ns"))
		fprintf(f, "%.1f", v);
	else
		fprintf(f, "%.4g", v);
}

/**
 * report_write_fleet_html() - the fleet section: the rule, the table of
 * units (flagged cells marked), and the flagged units; nothing without a
 * fleet.  Return: MEMCAL_OK or MEMCAL_EIO.
 */
int report_write_fleet_html(FILE *f, const struct report *r)
{
	const struct fig_fleet *fl = &r->fleet;
	size_t flagged = 0;

	if (!r->have_fleet)
		return MEMCAL_OK;
	fprintf(f, "<h2 id=\"fleet\">Fleet</h2>\n<p>%zu units of this board "
		"type in the database, each with its newest calibration. A "
		"figure is flagged when |x &minus; median| &gt; %g &times; "
		"1.4826 &times; MAD over the units (the MAD at least %g%% of "
		"the median). Bandwidth in GB/s, latency in ns.</p>\n",
		fl->n_units, fl->k, FIG_FLEET_MAD_FLOOR * 100);
	if (fl->n_units < FIG_FLEET_MIN_UNITS)
		fprintf(f, "<div class=\"absent\"><p>Fewer than %d units: "
			"outliers cannot be judged.</p></div>\n",
			FIG_FLEET_MIN_UNITS);
	fputs("<div class=\"wide\"><table>\n<tr><th>unit</th><th>run</th>", f);
	for (size_t c = 0; c < fl->n_figs; c++) {
		fputs("<th>", f);
		report_html_escape(f, fl->figs[c].name);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t u = 0; u < fl->n_units; u++) {
		fputs("<tr><td>", f);
		report_html_escape(f, fl->units[u].unit.hostname);
		fprintf(f, "%s</td><td class=\"num\">%lld</td>",
			fl->units[u].run_id == r->run.id ? " (this report)" : "",
			(long long)fl->units[u].run_id);
		for (size_t c = 0; c < fl->n_figs; c++) {
			bool out = fig_fleet_outlier(fl, u, c);

			fprintf(f, "<td class=\"num%s\">", out ? " out" : "");
			cell(f, fl->figs[c].name, fl->units[u].v[c]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
	if (fl->n_units < FIG_FLEET_MIN_UNITS)
		return ferror(f) ? MEMCAL_EIO : MEMCAL_OK;
	fputs("<h3>Flagged units</h3>\n<ul>\n", f);
	for (size_t u = 0; u < fl->n_units; u++) {
		if (!fl->units[u].n_outliers)
			continue;
		fputs("<li>", f);
		report_html_escape(f, fl->units[u].unit.hostname);
		fprintf(f, " (run %lld):", (long long)fl->units[u].run_id);
		for (size_t c = 0, n = 0; c < fl->n_figs; c++) {
			if (!fig_fleet_outlier(fl, u, c))
				continue;
			fputs(n++ ? ", " : " ", f);
			report_html_escape(f, fl->figs[c].name);
			fprintf(f, " %+.1f%%", 100 * (fl->units[u].v[c] /
						       fl->figs[c].median - 1));
		}
		fputs("</li>\n", f);
		flagged++;
	}
	if (!flagged)
		fputs("<li>none</li>\n", f);
	fputs("</ul>\n", f);
	return ferror(f) ? MEMCAL_EIO : MEMCAL_OK;
}
