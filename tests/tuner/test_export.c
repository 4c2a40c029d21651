// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_export.c - every exporter against golden files rendered from one
 * fixed configuration (tests/fixtures/export/config.json), plus the
 * values a reader can check by hand: event budgets in the modprobe line,
 * MBA percent rounded up to the granularity, MiB/s with mba_MBps.
 * MEMCAL_UPDATE_GOLDEN=1 rewrites the golden files (review the diff).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "golden.h"
#include "shell.h"
#include "tuned_config.h"

#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/export/"

/* load_named - the fixture configuration FIX/@name. */
static struct tune_config *load_named(const char *name)
{
	struct tune_config *c = calloc(1, sizeof(*c));
	char path[512], *text, err[512];

	snprintf(path, sizeof(path), FIX "%s", name);
	text = slurp(path);
	cr_assert(text, "fixture %s missing", name);
	cr_assert_eq(tune_config_from_text(text, c, err, sizeof(err)), 0, "%s", err);
	free(text);
	return c;
}

/* load - the fixture configuration. */
static struct tune_config *load(void)
{
	return load_named("config.json");
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
 * render_named - @format of fixture @config with @o into a string;
 * compares it with FIX/@golden (golden_check()).  Returns the text.
 */
static char *render_named(const char *config, const char *format,
			  struct export_opts *o, const char *golden,
			  struct export_warnings *w)
{
	struct tune_config *c = load_named(config);
	char path[512], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert(f);
	cr_assert_eq(tune_export_render(c, format, o, f, w), 0);
	fclose(f);
	unsource(text);
	snprintf(path, sizeof(path), FIX "%s", golden);
	golden_check(path, text);
	free(c);
	return text;
}

/* render - render_named() of the fixture config.json. */
static char *render(const char *format, struct export_opts *o,
		    const char *golden, struct export_warnings *w)
{
	return render_named("config.json", format, o, golden, w);
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

	cr_assert_eq(tune_config_from_text(text, b, err, sizeof(err)), 0, "%s", err);
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
	cr_assert_null(strstr(text, "\nmemreg\n"), "the modules-load.d line "
		       "belongs in its own file:\n%s", text);
	cr_assert_null(strstr(text, "---- file:"), "%s", text);
	free(text);
}

Test(export, modules_load)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render("modules-load", &o, "modules_load.golden", &w);
	int words = 0;

	/* one module name, and nothing else but comments */
	for (char *l = text; *l; l = strchr(l, '\n') + 1) {
		if (*l != '#') {
			cr_assert(!strncmp(l, "memreg\n", 7), "%s", l);
			words++;
		}
	}
	cr_assert_eq(words, 1, "%s", text);
	cr_assert_eq(w.n, 0);
	free(text);
}

Test(export, systemd)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render("systemd", &o, "systemd.golden", &w);

	cr_assert(strstr(text, "ExecStart=/usr/bin/memtune apply --file "
			 "/etc/memcal/tuned-config.json\n"), "%s", text);
	/* apply checks first: a failing unit leaves memreg unloaded */
	cr_assert(!strstr(text, "--force"), "%s", text);
	cr_assert(strstr(text, "# apply runs 'memtune check' first: when an "
			 "item fails"), "%s", text);
	cr_assert(strstr(text, "memreg stays unloaded") &&
		  strstr(text, "journalctl -u memreg-tune"), "%s", text);
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
	cr_assert(strstr(text, "echo 'MB:0=80;1=80' > "
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
	struct export_opts o = opts(-1);
	struct export_warnings w;
	char *text;

	/* detected from the root schemata: values above 100 are MiB/s */
	o.resctrl_root = FIX "resctrl_mbps";
	text = render("resctrl", &o, "resctrl_mbps.golden", &w);

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
	cr_assert(strstr(text, "echo MB:0=80 >"), "%s", text);
	free(text);
}

Test(export, pqos)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render("pqos", &o, "pqos.golden", &w);

	cr_assert(strstr(text, "pqos -I -e 'mba:1=80;mba:2=80' -a "
			 "'core:1=2;core:2=3'\n"), "%s", text);
	free(text);
}

Test(export, pqos_mbps)
{
	struct export_opts o = opts(1);
	struct export_warnings w;
	char *text;

	o.resctrl_root = FIX "resctrl_mbps";
	text = render("pqos", &o, "pqos_mbps.golden", &w);
	cr_assert(strstr(text, "'mba_max:1=6959;mba_max:2=6959'"), "%s",
		  text);
	free(text);
}

Test(export, unknown_format)
{
	struct tune_config *c = load();
	struct export_opts o = opts(0);
	struct export_warnings w;

	cr_assert_eq(tune_export_render(c, "yaml", &o, stdout, &w),
		     MEMCAL_EFORMAT);
	free(c);
}

Test(export, rdt_value_rounding)
{
	struct rdt_info ri = { .gran = 10, .min = 10, .mbps = false };

	cr_assert_eq(tune_rdt_value(&ri, 7296e6, 10e9), 80);
	cr_assert_eq(tune_rdt_value(&ri, 7000e6, 10e9), 70, "exact stays");
	cr_assert_eq(tune_rdt_value(&ri, 1e6, 10e9), 10, "never below min");
	cr_assert_eq(tune_rdt_value(&ri, 20e9, 10e9), 100, "never above 100");
	/* the steps are min + N x gran: 5, 15, 25 ... 95, then 100 */
	ri.min = 5;
	cr_assert_eq(tune_rdt_value(&ri, 7296e6, 10e9), 75);
	cr_assert_eq(tune_rdt_value(&ri, 1500e6, 10e9), 15, "a step stays");
	cr_assert_eq(tune_rdt_value(&ri, 9600e6, 10e9), 100);
	cr_assert(tune_rdt_no_limit(&ri, 100, 10e9));
	cr_assert_not(tune_rdt_no_limit(&ri, 95, 10e9));
	ri.min = 10;
	ri.gran = 1;
	cr_assert_eq(tune_rdt_value(&ri, 7296e6, 10e9), 73);
	ri.mbps = true;
	cr_assert_eq(tune_rdt_value(&ri, 1048576.0 * 3 + 1, 10e9), 4);
}

/* render_raw - @format of @c with @o into a string (no golden); rc in *@rc. */
static char *render_raw(const struct tune_config *c, const char *format,
			const struct export_opts *o, struct export_warnings *w,
			int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert(f);
	*rc = tune_export_render(c, format, o, f, w);
	fclose(f);
	return text;
}

/*
 * sh - run @cmd with sh, its stdout and stderr in @buf; the exit status
 * (-1 when it did not exit).
 */
static int sh(const char *cmd, char *buf, size_t len)
{
	char full[4096];

	snprintf(full, sizeof(full), "(%s) 2>&1", cmd);
	return test_sh_buf(full, buf, len);
}

/* rm_tree - remove the scratch directory @dir and all it holds. */
static void rm_tree(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* A mix name that would inject a line into any file that took it raw. */
#define EVIL_MIX "evil\nExecStartPre=/bin/false\n$(touch pwned)'%h\\"

Test(export, modprobe_file_passes_kmod)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *c = load();
	char dir[] = "/tmp/memtune-kmod-XXXXXX", cmd[512], buf[65536];
	char *text, *opt;
	int rc;

	if (access("/usr/sbin/modprobe", X_OK) && access("/sbin/modprobe",
							  X_OK))
		cr_skip_test("kmod's modprobe is not installed");
	snprintf(c->mix, sizeof(c->mix), "%s", EVIL_MIX);
	text = render_raw(c, "modprobe", &o, &w, &rc);
	cr_assert_eq(rc, 0);
	cr_assert(mkdtemp(dir));
	test_put(dir, "memreg.conf", text);
	snprintf(cmd, sizeof(cmd), "PATH=/usr/sbin:/sbin:$PATH modprobe -C "
		 "%s --showconfig", dir);
	cr_assert_eq(sh(cmd, buf, sizeof(buf)), 0, "%s", buf);
	cr_assert_null(strstr(buf, "ERROR"), "kmod rejects a line:\n%s", buf);
	cr_assert_null(strstr(buf, "bad line"), "%s", buf);
	opt = strstr(buf, "options memreg period_us=1000 master_cpu=0 "
		     "cpus=1-3 read_event=raw:0x17 ");
	cr_assert(opt && (opt == buf || opt[-1] == '\n'), "kmod does not "
		  "show memreg's options:\n%s", buf);
	rm_tree(dir);
	free(text);
	free(c);
}

Test(export, modprobe_refuses_what_kmod_cannot_carry)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *c = load();
	char *text;
	int rc;

	snprintf(c->counter[0].event, sizeof(c->counter[0].event),
		 "raw:0x17 evil=1");
	text = render_raw(c, "modprobe", &o, &w, &rc);
	cr_assert_eq(rc, MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "read event 'raw:0x17 evil=1' holds ' ', "
			 "which a modprobe.d options line cannot carry"), "%s",
		  w.error);
	cr_assert_null(strstr(text, "options"), "%s", text);
	free(text);
	snprintf(c->counter[0].event, sizeof(c->counter[0].event),
		 "raw:0x17\n");
	text = render_raw(c, "modprobe", &o, &w, &rc);
	cr_assert_eq(rc, MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "read event 'raw:0x17\\x0a' holds "
			 "'\\x0a', which a modprobe.d options line cannot "
			 "carry"), "%s", w.error);
	cr_assert_str_eq(tune_export_strerror(rc, &w), w.error);
	free(text);
	free(c);
}

/* Every line of @text that is not a comment must be in @allowed. */
static void no_injected_line(const char *text, const char *const *allowed)
{
	const char *l = text;

	while (*l) {
		size_t n = strcspn(l, "\n");
		bool ok = *l == '#' || n == 0;

		for (int i = 0; !ok && allowed[i]; i++)
			ok = !strncmp(l, allowed[i], strlen(allowed[i]));
		cr_assert(ok, "unexpected line '%.*s' in:\n%s", (int)n, l, text);
		l += n + (l[n] == '\n');
	}
}

Test(export, systemd_quotes_paths_and_names, .timeout = 60)
{
	static const char *const keys[] = {
		"[Unit]", "[Service]", "[Install]", "Description=",
		"Documentation=", "After=", "ConditionPathExists=", "Type=",
		"RemainAfterExit=", "ExecStart=", "ExecStop=", "WantedBy=",
		NULL,
	};
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *c = load();
	char dir[] = "/tmp/memtune-unit-XXXXXX", bindir[128], bin[256];
	char conf[512], cmd[1024], buf[8192], *text;
	int rc;

	cr_assert(mkdtemp(dir));
	snprintf(bindir, sizeof(bindir), "%s/my bin 100%%", dir);
	cr_assert_eq(mkdir(bindir, 0700), 0);
	snprintf(bin, sizeof(bin), "%s/mem tune", bindir);
	snprintf(cmd, sizeof(cmd), "cp /bin/true '%s'", bin);
	cr_assert_eq(system(cmd), 0);
	snprintf(conf, sizeof(conf), "%s/it's \"50%%\" $HOME.json", bindir);
	snprintf(c->mix, sizeof(c->mix), "%s", EVIL_MIX);
	o.memtune_path = bin;
	o.config_path = conf;
	text = render_raw(c, "systemd", &o, &w, &rc);
	cr_assert_eq(rc, 0, "%s", w.error);
	no_injected_line(text, keys);
	cr_assert(strstr(text, "Description=memcal: regulate memory bandwidth "
			 "for mix 'evil\\x0aExecStartPre=/bin/false\\x0a"
			 "$(touch pwned)'%%h\\x5c' "), "%s", text);
	snprintf(buf, sizeof(buf), "ExecStart=\"%s/my bin 100%%%%/mem tune\" "
		 "apply --file \"%s/my bin 100%%%%/it's \\\"50%%%%\\\" "
		 "$$HOME.json\"\n", dir, dir);
	cr_assert(strstr(text, buf), "want %s in:\n%s", buf, text);
	snprintf(buf, sizeof(buf), "ConditionPathExists=%s/my bin 100%%%%/"
		 "it's \"50%%%%\" $HOME.json\n", dir);
	cr_assert(strstr(text, buf), "want %s in:\n%s", buf, text);
	test_put(dir, "memreg-tune.service", text);
	if (access("/usr/bin/systemd-analyze", X_OK))
		cr_skip_test("systemd-analyze is not installed");
	snprintf(cmd, sizeof(cmd), "cd %s && SYSTEMD_LOG_LEVEL=warning "
		 "systemd-analyze verify --man=no ./memreg-tune.service", dir);
	rc = sh(cmd, buf, sizeof(buf));
	cr_assert_eq(rc, 0, "systemd-analyze verify refuses the unit (%d):\n"
		     "%s\n%s", rc, buf, text);
	cr_assert_eq(buf[0], '\0', "systemd-analyze warns:\n%s\n%s", buf,
		     text);
	rm_tree(dir);
	free(text);
	free(c);
}

Test(export, systemd_refuses_what_a_unit_cannot_carry)
{
	static const struct {
		const char *bin, *conf, *why;
	} bad[] = {
		{ "/opt/it's/memtune", NULL, "--memtune '/opt/it's/memtune' "
		  "holds a quote or a backslash, which systemd refuses in an "
		  "executable name" },
		{ "bin/memtune", NULL, "--memtune 'bin/memtune' is not an "
		  "absolute path" },
		{ NULL, "/etc/a\nb.json", "--config-path '/etc/a\\x0ab.json' "
		  "holds a control character" },
		{ NULL, "/etc/conf.json ", "ends with a blank" },
		{ NULL, "conf.json", "is not an absolute path" },
	};
	struct tune_config *c = load();

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct export_opts o = opts(0);
		struct export_warnings w;
		char *text;
		int rc;

		if (bad[i].bin)
			o.memtune_path = bad[i].bin;
		if (bad[i].conf)
			o.config_path = bad[i].conf;
		text = render_raw(c, "systemd", &o, &w, &rc);
		cr_assert_eq(rc, MEMCAL_EREFUSED, "case %zu accepted", i);
		cr_assert(strstr(w.error, bad[i].why), "case %zu: %s", i,
			  w.error);
		cr_assert_eq(text[0], '\0', "a refused export wrote:\n%s",
			     text);
		free(text);
	}
	free(c);
}

Test(export, resctrl_script_is_safe_shell, .timeout = 60)
{
	static const char *const cmds[] = {
		"set -e", "R=", "[ -e ", "mkdir -p ", "echo ", NULL,
	};
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *c = load();
	char dir[] = "/tmp/memtune-sh-XXXXXX", root[256], cmd[2048];
	char buf[8192], want[512], *text, *got;
	int rc;

	snprintf(c->mix, sizeof(c->mix), "%s", EVIL_MIX);
	snprintf(c->cpus[2].workloads, sizeof(c->cpus[2].workloads),
		 "a\nrm -rf /tmp/x");
	text = render_raw(c, "resctrl", &o, &w, &rc);
	cr_assert_eq(rc, 0, "%s", w.error);
	no_injected_line(text, cmds);
	cr_assert(mkdtemp(dir));
	test_put(dir, "memcal-resctrl.sh", text);
	snprintf(cmd, sizeof(cmd), "bash -n %s/memcal-resctrl.sh && sh -n "
		 "%s/memcal-resctrl.sh", dir, dir);
	cr_assert_eq(sh(cmd, buf, sizeof(buf)), 0, "%s", buf);
	/* run it on a stand-in resctrl whose path needs quoting; a stub
	 * mount proves the script does not remount what exists */
	snprintf(root, sizeof(root), "%s/res ctrl 'x' %%s", dir);
	cr_assert_eq(mkdir(root, 0700), 0);
	test_put(root, "schemata", "MB:0=100;1=100\n");
	test_put(dir, "mount", "#!/bin/sh\necho mount called >&2\nexit 9\n");
	snprintf(cmd, sizeof(cmd), "chmod +x %s/mount && cd %s && PATH=%s:$PATH "
		 "RESCTRL=\"$PWD/res ctrl 'x' %%s\" sh ./memcal-resctrl.sh",
		 dir, dir, dir);
	cr_assert_eq(sh(cmd, buf, sizeof(buf)), 0, "%s", buf);
	cr_assert_eq(buf[0], '\0', "%s", buf);
	snprintf(want, sizeof(want), "%s/memcal_cpu2/schemata", root);
	got = slurp(want);
	cr_assert(got, "the script did not write %s", want);
	cr_assert_str_eq(got, "MB:0=80;1=80\n");
	free(got);
	snprintf(want, sizeof(want), "%s/memcal_cpu3/cpus_list", root);
	got = slurp(want);
	cr_assert(got);
	cr_assert_str_eq(got, "3\n");
	free(got);
	cr_assert_neq(access("pwned", F_OK), 0);
	rm_tree(dir);
	free(text);
	free(c);
}

Test(export, pqos_line_is_one_command)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *c = load();
	char dir[] = "/tmp/memtune-pqos-XXXXXX", cmd[1024], buf[4096];
	char *text;
	int rc;

	snprintf(c->mix, sizeof(c->mix), "%s", EVIL_MIX);
	text = render_raw(c, "pqos", &o, &w, &rc);
	cr_assert_eq(rc, 0);
	no_injected_line(text, (const char *const[]){ "pqos -I -e ", NULL });
	/* a stub pqos prints its arguments, one per line */
	cr_assert(mkdtemp(dir));
	test_put(dir, "pqos", "#!/bin/sh\nfor a; do echo \"[$a]\"; done\n");
	test_put(dir, "run.sh", text);
	snprintf(cmd, sizeof(cmd), "chmod +x %s/pqos && PATH=%s:$PATH sh "
		 "%s/run.sh", dir, dir, dir);
	cr_assert_eq(sh(cmd, buf, sizeof(buf)), 0, "%s", buf);
	cr_assert_str_eq(buf, "[-I]\n[-e]\n[mba:1=80;mba:2=80]\n[-a]\n"
			 "[core:1=2;core:2=3]\n");
	rm_tree(dir);
	free(text);
	free(c);
}

Test(export, mbps_on_a_percent_mount_is_refused)
{
	struct export_opts o = opts(1);
	struct export_warnings w;
	struct tune_config *c = load();
	char *text;
	int rc;

	text = render_raw(c, "resctrl", &o, &w, &rc);
	cr_assert_eq(rc, MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "--mba-mbps: resctrl at " FIX "resctrl is "
			 "in percent mode, where MiB/s values are refused; "
			 "remount it with 'umount"), "%s", w.error);
	free(text);
	text = render_raw(c, "pqos", &o, &w, &rc);
	cr_assert_eq(rc, MEMCAL_EREFUSED);
	free(text);
	o = opts(0);
	o.resctrl_root = FIX "resctrl_mbps";
	text = render_raw(c, "resctrl", &o, &w, &rc);
	cr_assert_eq(rc, MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "--mba-percent: resctrl at "), "%s",
		  w.error);
	free(text);
	/* nothing to check against: MiB/s as asked, with a warning */
	o = opts(1);
	o.resctrl_root = FIX "no-such-resctrl";
	text = render_raw(c, "resctrl", &o, &w, &rc);
	cr_assert_eq(rc, 0);
	cr_assert(strstr(text, "echo MB:0=6959 >"), "%s", text);
	cr_assert(strstr(text, "# warning: MiB/s values: the target's resctrl "
			 "must be mounted with -o mba_MBps (not checked"),
		  "%s", text);
	free(text);
	free(c);
}

Test(export, limits_that_round_to_no_limit_are_said)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *c = load();
	char *text;
	int rc;

	/* cpu 2 guaranteed 9.7 GB/s of 10: rounds up to 100 % */
	c->cpus[2].b[TUNE_READ].guaranteed_bps = 9.0e9;
	c->cpus[2].b[TUNE_WRITE].guaranteed_bps = 0.7e9;
	text = render_raw(c, "resctrl", &o, &w, &rc);
	cr_assert_eq(rc, 0);
	cr_assert(strstr(text, "# warning: cpu 2: its guarantee (9700 MB/s) "
			 "rounds to 100 %, which is no limit\n"), "%s", text);
	cr_assert_null(strstr(text, "every class is unlimited"), "%s", text);
	free(text);
	c->cpus[3].b[TUNE_READ].guaranteed_bps = 9.5e9;
	text = render_raw(c, "pqos", &o, &w, &rc);
	cr_assert_eq(rc, 0);
	cr_assert(strstr(text, "# warning: every class is unlimited: this "
			 "export changes nothing on the target"), "%s", text);
	free(text);
	free(c);
}

/*
 * A big.LITTLE configuration (config_pcpu.json: cpus 0-1 Cortex-A55 on
 * PMU type 8, cpus 2-3 Cortex-A76 on type 9): the modprobe line gives
 * each CPU its own events, the JSON keeps them, show prints them.
 */
Test(export, per_cpu_events)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	struct tune_config *b = calloc(1, sizeof(*b)), *c = load_named("config_pcpu.json");
	char *text = render_named("config_pcpu.json", "modprobe", &o,
				  "modprobe_pcpu.golden", &w), err[512], *shown = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert(strstr(text, " read_event_cpus=0-1:8:0x2a,2-3:9:0x2a "
			 "write_event_cpus=0-1:8:0x18,2-3:9:0x18\n"), "%s", text);
	free(text);
	text = render_named("config_pcpu.json", "json", &o, "json_pcpu.golden", &w);
	cr_assert_eq(tune_config_from_text(text, b, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(b->cpus[3].event[TUNE_READ], "9:0x2a");
	cr_assert_str_eq(b->cpus[0].event[TUNE_WRITE], "8:0x18");
	cr_assert_str_eq(b->cpus[2].kind, "Cortex-A76");
	f = open_memstream(&shown, &len);
	cr_assert(f);
	tune_config_print(f, c, 42);
	fclose(f);
	golden_check(FIX "show_pcpu.golden", shown);
	cr_assert(strstr(shown, "    cpus 2-3 (Cortex-A76): read 9:0x2a, write 9:0x18\n"),
		  "%s", shown);
	free(shown);
	free(text);
	free(b);
	free(c);
}

/* Per-CPU events that are no memreg spec are refused with the CPU named. */
Test(export, per_cpu_event_not_a_spec_is_refused)
{
	static const char *const bad[] = { "raw:0xzz", "2:1", "raw:1 x", "bogus" };
	char *text = slurp(FIX "config_pcpu.json"), err[512];

	cr_assert(text);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tune_config *c = calloc(1, sizeof(*c));
		char *p = strstr(text, "\"event\": \"9:0x2a\""), *doc;
		size_t n;

		cr_assert(p);
		n = (size_t)(p - text);
		doc = malloc(strlen(text) + 64);
		cr_assert(doc);
		sprintf(doc, "%.*s\"event\": \"%s\"%s", (int)n, text, bad[i],
			p + strlen("\"event\": \"9:0x2a\""));
		cr_assert_neq(tune_config_from_text(doc, c, err, sizeof(err)), 0,
			      "'%s' accepted", bad[i]);
		cr_assert(strstr(err, "cpu 2 read.event") && strstr(err, bad[i]),
			  "%s: %s", bad[i], err);
		free(doc);
		free(c);
	}
	free(text);
}

/*
 * The arm64 guest's two CPUs as two kinds (config_guest_pcpu.json, monitor
 * only): the modprobe line the arm64 group pcpu loads memreg with
 * (scripts/arm64/memreg-qemu-arm64 puts this golden file in the guest).
 */
Test(export, guest_per_cpu_events)
{
	struct export_opts o = opts(0);
	struct export_warnings w;
	char *text = render_named("config_guest_pcpu.json", "modprobe", &o,
				  "modprobe_guest_pcpu.golden", &w);

	cr_assert(strstr(text, " read_event=page-faults write_event=none "), "%s", text);
	cr_assert(strstr(text, " monitor=1 "), "%s", text);
	cr_assert(strstr(text, " read_event_cpus=0:raw:0x11,1:raw:0x08\n"), "%s", text);
	cr_assert_null(strstr(text, "write_event_cpus"), "%s", text);
	free(text);
}
