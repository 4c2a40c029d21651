// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_browser.c - the HTML report rendered by headless Chromium (Debian's
 * chromium, installed by scripts/setup) into a PNG: the browser must exit
 * 0 and the PNG must exist, be a PNG and be of non-trivial size.  The
 * pages and screenshots are kept in the build tree
 * (tests/reports/report-*.html, report-*.png) for a person to look at.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture_report.h"
#include "report_run.h"

#define CHROMIUM "/usr/bin/chromium"

/*
 * render - write @tool's report of @db_path to the build tree as @name.html
 * and screenshot it with Chromium into @name.png.
 */
static void render(const char *tool, const char *db_path, const char *name)
{
	char html[512], png[512], cmd[2048], prof[] = "/tmp/memcal-chr-XXXXXX";
	const char *args[] = { "--out", html, NULL };
	unsigned char sig[8];
	struct run_out o;
	struct stat st;
	FILE *f;
	int rc;

	snprintf(html, sizeof(html), "%s/tests/reports/%s.html",
		 MEMCAL_BINARY_DIR, name);
	snprintf(png, sizeof(png), "%s/tests/reports/%s.png", MEMCAL_BINARY_DIR,
		 name);
	cr_assert_eq(run_report(&o, tool, db_path, args), 0, "%s", o.err);
	run_out_free(&o);
	unlink(png);
	cr_assert(mkdtemp(prof));
	snprintf(cmd, sizeof(cmd), "timeout 25 " CHROMIUM " --headless "
		 "--no-sandbox --disable-gpu --disable-quic --no-first-run "
		 "--disable-background-networking --disable-component-update "
		 "--disable-sync --hide-scrollbars --user-data-dir=%s "
		 "--screenshot=%s --window-size=1200,3000 file://%s "
		 ">%s.log 2>&1", prof, png, html, png);
	rc = system(cmd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", prof);
	if (system(cmd))
		cr_log_warn("could not remove %s", prof);
	cr_assert_eq(rc, 0, "chromium failed (status %d); see %s.log", rc, png);
	cr_assert_eq(stat(png, &st), 0, "no screenshot %s", png);
	cr_expect_gt(st.st_size, 20000, "screenshot only %lld bytes",
		     (long long)st.st_size);
	f = fopen(png, "rb");
	cr_assert(f);
	cr_assert_eq(fread(sig, 1, 8, f), 8);
	fclose(f);
	cr_expect_eq(memcmp(sig, "\x89PNG\r\n\x1a\n", 8), 0, "not a PNG");
}

/*
 * dom - the document Chromium builds from the page @name.html of the
 * build tree (--dump-dom), as a string: what a reader's browser sees.
 */
static char *dom(const char *name)
{
	char html[512], out[512], cmd[2048], prof[] = "/tmp/memcal-chr-XXXXXX";
	char *s;
	int rc;

	snprintf(html, sizeof(html), "%s/tests/reports/%s.html",
		 MEMCAL_BINARY_DIR, name);
	snprintf(out, sizeof(out), "%s/tests/reports/%s.dom",
		 MEMCAL_BINARY_DIR, name);
	cr_assert(mkdtemp(prof));
	snprintf(cmd, sizeof(cmd), "timeout 25 " CHROMIUM " --headless "
		 "--no-sandbox --disable-gpu --no-first-run "
		 "--disable-background-networking --user-data-dir=%s "
		 "--dump-dom file://%s >%s 2>/dev/null", prof, html, out);
	rc = system(cmd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", prof);
	if (system(cmd))
		cr_log_warn("could not remove %s", prof);
	cr_assert_eq(rc, 0, "chromium --dump-dom failed (status %d)", rc);
	s = slurp(out);
	cr_assert(s && strstr(s, "</html>"), "no DOM in %s", out);
	return s;
}

Test(browser, renders_the_reports, .timeout = 120)
{
	const char *dir = fix_tmpdir();
	char db[256];
	struct fix_ids ids;

	if (access(CHROMIUM, X_OK))
		cr_skip_test("%s is not installed (scripts/setup installs "
			     "chromium)", CHROMIUM);
	cr_assert(dir);
	snprintf(db, sizeof(db), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(db, FIX_ALL, &ids), 0);
	render("memcal", db, "report-memcal");
	render("memtune", db, "report-memtune");
	/* charts that need care: master placements, a livelocked point, a
	 * knee past the curve, a log budget axis, 100 us ticks in 1 ms */
	snprintf(db, sizeof(db), "%s/charts.db", dir);
	cr_assert_eq(fix_create_charts(db, &ids), 0);
	render("memtune", db, "report-charts");
	{
		/* the browser's own parse of that page holds the marks */
		char *d = dom("report-charts");

		cr_expect_eq(count_str(d, "class=\"chart\""), 5);
		cr_expect_eq(count_str(d, "class=\"mark lower-bound\""), 2);
		cr_expect(strstr(d, "CPU 1, master on CPU 0"));
		cr_expect(strstr(d, "GB/s, log scale)"));
		cr_expect(strstr(d, "past the measured curve"));
		cr_expect(strstr(d, "150 of 200 periods of 1000 us shown"));
		free(d);
	}
	snprintf(db, sizeof(db), "%s/empty.db", dir);
	cr_assert_eq(fix_create(db, 0, &ids), 0);
	render("memcal", db, "report-empty");
}
