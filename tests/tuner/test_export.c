// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_export.c - every exporter against golden files rendered from one
 * fixed configuration (tests/fixtures/export/config.json), plus the
 * values a reader can check by hand: event budgets in the modprobe line,
 * MBA percent rounded up to the granularity, MiB/s with mba_MBps.
 * MEMTUNE_UPDATE_GOLDEN=1 rewrites the golden files (review the diff).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuned_config.h"
#include "export.h"

#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/export/"

/* slurp - a whole file, malloc'd (NULL if absent). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* load - the fixture configuration. */
static struct tune_config *load(void)
{
	struct tune_config *c = calloc(1, sizeof(*c));
	char *text = slurp(FIX "config.json"), err[512];

	cr_assert(text, "fixture config.json missing");
	cr_assert_eq(config_from_text(text, c, err, sizeof(err)), 0, "%s", err);
	free(text);
	return c;
}

/*
 * unsource - replace the source directory in @text by "@SRC@" (in place),
 * so golden files do not depend on where the checkout lives.
 */
static void unsource(char *text)
{
	const char *src = MEMCAL_SOURCE_DIR;
	size_t n = strlen(src);
	char *p;

	while ((p = strstr(text, src))) {
		memcpy(p, "@SRC@", 5);
		memmove(p + 5, p + n, strlen(p + n) + 1);
	}
}

/*
 * render - @format with @o into a string; compares with (or, with
 * MEMTUNE_UPDATE_GOLDEN, writes) FIX/@golden.  Returns the text.
 */
static char *render(const char *format, struct export_opts *o,
		    const char *golden, struct export_warnings *w)
{
	struct tune_config *c = load();
	char path[512], *text = NULL, *want;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert(f);
	cr_assert_eq(export_render(c, format, o, f, w), 0);
	fclose(f);
	unsource(text);
	snprintf(path, sizeof(path), FIX "%s", golden);
	if (getenv("MEMTUNE_UPDATE_GOLDEN")) {
		FILE *g = fopen(path, "w");

		cr_assert(g);
		fputs(text, g);
		fclose(g);
	}
	want = slurp(path);
	cr_assert(want, "golden file %s missing", golden);
	cr_assert_str_eq(text, want, "%s differs from %s:\n%s", format,
			 golden, text);
	free(want);
	free(c);
	return text;
}

/* opts - exporter options pointing at the fixture resctrl tree. */
static struct export_opts opts(int mbps)
{
	struct export_opts o = {
		.config_id = 42, .resctrl_root = FIX "resctrl",
		.mba_mbps = mbps, .memtune_path = "/usr/bin/memtune",
		.config_path = "/etc/memcal/tuned-config.json",
	};
	return o;
}

Test(export, json_round_trips)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *a = load(), *b = calloc(1, sizeof(*b));
	char *text = render("json", &o, "json.golden", &w), err[512];

	cr_assert_eq(config_from_text(text, b, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(b->period_us, a->period_us);
	cr_assert_eq(b->cpus[2].b[0].guaranteed_events,
		     a->cpus[2].b[0].guaranteed_events);
	cr_assert_eq(w.n, 0);
	free(text);
	free(a);
	free(b);
}

Test(export, modprobe)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render("modprobe", &o, "modprobe.golden", &w);

	cr_assert(strstr(text, "options memreg period_us=1000 master_cpu=0 "
			 "cpus=1-3 read_event=raw:0x17 write_event=raw:0x18"),
		  "%s", text);
	/* 256 MB/s for 1 ms at 64 B per event = 4000 events; idle cpu 0: 1 */
	cr_assert(strstr(text, " read_budget=1,4000,76000,76000 "), "%s", text);
	cr_assert(strstr(text, " platform_read=156250 "), "%s", text);
	cr_assert(strstr(text, " lms=1 reclaim=1 share=1 lms_taps=4 "
			 "lms_mu=32768 lms_headroom=6554"), "%s", text);
	cr_assert(strstr(text, "# ---- file: /etc/modules-load.d/memreg.conf "
			 "----\n"), "%s", text);
	cr_assert(strstr(text, "\nmemreg\n"));
	free(text);
}

Test(export, systemd)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render("systemd", &o, "systemd.golden", &w);

	cr_assert(strstr(text, "ExecStart=/usr/bin/memtune apply --file "
			 "/etc/memcal/tuned-config.json\n"), "%s", text);
	cr_assert(strstr(text, "Type=oneshot\n"));
	cr_assert(strstr(text, "[Install]\nWantedBy=multi-user.target\n"));
	cr_assert_geq(w.n, 1);
	free(text);
}

Test(export, resctrl_percent_rounded_up)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render("resctrl", &o, "resctrl.golden", &w);

	/* cpu 2: 4864 + 2432 MB/s of 10000 = 72.96 % -> 80 at 10 % steps,
	 * on both MBA domains of the fixture */
	cr_assert(strstr(text, "echo \"MB:0=80;1=80\" > "
			 "\"$R/memcal_cpu2/schemata\""), "%s", text);
	cr_assert(strstr(text, "echo 3 > \"$R/memcal_cpu3/cpus_list\""));
	cr_assert_null(strstr(text, "memcal_cpu1"), "the real-time core must "
		       "stay unthrottled");
	cr_assert(strstr(text, "# warning: MBA has no regulation period"));
	cr_assert_geq(w.n, 4);
	free(text);
}

Test(export, resctrl_mbps)
{
	struct export_opts o = opts(1);
	struct export_warnings w;
	char *text = render("resctrl", &o, "resctrl_mbps.golden", &w);

	/* 7296e6 B/s = 6958.008 MiB/s, rounded up */
	cr_assert(strstr(text, "MB:0=6959;1=6959"), "%s", text);
	cr_assert(strstr(text, "mount -t resctrl resctrl -o mba_MBps"));
	free(text);
}

Test(export, resctrl_without_info_warns)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text;

	o.resctrl_root = FIX "no-such-resctrl";
	text = render("resctrl", &o, "resctrl_noinfo.golden", &w);
	cr_assert(strstr(w.text[0], "no MBA information"), "%s", w.text[0]);
	cr_assert(strstr(text, "MB:0=80\""), "%s", text);
	free(text);
}

Test(export, pqos)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render("pqos", &o, "pqos.golden", &w);

	cr_assert(strstr(text, "pqos -I -e \"mba:1=80;mba:2=80\" -a "
			 "\"core:1=2;core:2=3\"\n"), "%s", text);
	free(text);
}

Test(export, pqos_mbps)
{
	struct export_opts o = opts(1);
	struct export_warnings w;
	char *text = render("pqos", &o, "pqos_mbps.golden", &w);

	cr_assert(strstr(text, "\"mba_max:1=6959;mba_max:2=6959\""), "%s",
		  text);
	free(text);
}

Test(export, unknown_format)
{
	struct tune_config *c = load();
	struct export_opts o = opts(0);
	struct export_warnings w;

	cr_assert_eq(export_render(c, "yaml", &o, stdout, &w), -1);
	free(c);
}

Test(export, rdt_value_rounding)
{
	struct rdt_info ri = { .gran = 10, .min = 10, .mbps = false };

	cr_assert_eq(rdt_value(&ri, 7296e6, 10e9), 80);
	cr_assert_eq(rdt_value(&ri, 7000e6, 10e9), 70, "exact stays");
	cr_assert_eq(rdt_value(&ri, 1e6, 10e9), 10, "never below min");
	cr_assert_eq(rdt_value(&ri, 20e9, 10e9), 100, "never above 100");
	ri.gran = 1;
	cr_assert_eq(rdt_value(&ri, 7296e6, 10e9), 73);
	ri.mbps = true;
	cr_assert_eq(rdt_value(&ri, 1048576.0 * 3 + 1, 10e9), 4);
}
