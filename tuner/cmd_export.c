// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_export.c - memtune export --format FMT: render a tuned
 * configuration (newest, --config ID, or --file JSON) to stdout or --out
 * FILE.  --out goes through cli_output_open(): a regular file is replaced
 * atomically, so a failed export never leaves half a file, and a device
 * or FIFO is written through.  What the format cannot express is printed
 * as warnings (cli_warn(): stderr and the JSON envelope).  With --json and
 * no --out (or "--out -") the envelope carries the export itself.
 * --format bundle writes many files (export_bundle.c): a new folder, or a
 * tar file when --out ends in ".tar".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "export.h"
#include "export_bundle.h"
#include "memtune_cmds.h"

/**
 * struct export_args - options of 'memtune export'.
 * @format: --format.
 * @id:     --config (0: newest).
 * @file:   --file.
 * @out:    --out.
 * @o:      exporter knobs.
 * @b:      where the bundle's parts come from.
 */
struct export_args {
	const char *format;
	int64_t id;
	const char *file;
	const char *out;
	struct export_opts o;
	struct bundle_opts b;
};

/* export_option - option callback: --mba-mbps ('M'), --mba-percent ('P'). */
static int export_option(struct cli_ctx *ctx, int key, const char *arg,
			 void *user)
{
	struct export_args *a = user;

	(void)arg;
	if (a->o.mba_mbps == (key == 'M' ? 0 : 1))
		return cli_error(ctx, CLI_EXIT_USAGE, "--mba-mbps and "
				 "--mba-percent contradict each other: give "
				 "one (or neither, to follow the resctrl "
				 "mount)");
	a->o.mba_mbps = key == 'M';
	return 0;
}

/*
 * render_error - report tune_export_render()'s failure @rc: an unknown format is
 * a usage error, a refusal or a write error a failure.
 */
static int render_error(struct cli_ctx *ctx, const struct export_args *a,
			const struct export_warnings *w, int rc)
{
	if (rc == MEMCAL_EFORMAT)
		return cli_error(ctx, CLI_EXIT_USAGE, "unknown export format "
				 "'%s': use json, modprobe, modules-load, "
				 "systemd, resctrl, pqos or bundle", a->format);
	return cli_error(ctx, CLI_EXIT_FAILURE, "%s", tune_export_strerror(rc, w));
}

/*
 * render_to - render into --out (or stdout) through cli_output_open(): a
 * regular file is replaced atomically, a device or FIFO written through.
 * Return: 0 or a CLI exit code (error reported).
 */
static int render_to(struct cli_ctx *ctx, const struct tune_config *c,
		     struct export_args *a, struct export_warnings *w)
{
	struct cli_output out;
	int rc = cli_output_open(ctx, &out, a->out);

	if (rc)
		return rc;
	rc = tune_export_render(c, a->format, &a->o, out.f, w);
	if (rc == MEMCAL_EFORMAT || rc == MEMCAL_EREFUSED) {
		cli_output_abort(&out);
		return render_error(ctx, a, w, rc);
	}
	if (rc)
		return cli_output_fail(ctx, &out, 0);
	return cli_output_commit(ctx, &out);
}

/* is_tar - @path names a tar file ("*.tar"). */
static bool is_tar(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcmp(path + n - 4, ".tar");
}

/*
 * render_bundle - the bundle into the folder --out (new or empty), or
 * into --out FILE.tar through cli_output_open() (replaced atomically).
 * Return: 0 or a CLI exit code (error reported).
 */
static int render_bundle(struct cli_ctx *ctx, const struct tune_config *c,
			 struct export_args *a, struct export_warnings *w)
{
	struct tune_bundle b;
	struct cli_output out;
	char err[1024];
	int rc;

	if (!a->out || !strcmp(a->out, "-"))
		return cli_error(ctx, CLI_EXIT_USAGE, "--format bundle writes "
				 "many files: give --out DIR or --out FILE.tar");
	w->n = 0;
	w->error[0] = '\0';
	if (!strcmp(c->pool_from, "streaming"))
		tune_export_warn(w, "%s", TUNE_STREAMING_WARNING);
	rc = tune_bundle_build(c, &a->o, &a->b, &b, w);
	if (rc)
		return render_error(ctx, a, w, rc);
	if (!is_tar(a->out)) {
		rc = tune_bundle_write_dir(&b, a->out, err, sizeof(err));
		tune_bundle_free(&b);
		return rc ? cli_error(ctx, cli_exit_for(rc), "%s", err) : 0;
	}
	rc = cli_output_open(ctx, &out, a->out);
	if (!rc) {
		rc = tune_bundle_write_tar(&b, out.f, (long long)time(NULL));
		if (rc == MEMCAL_EREFUSED) {
			cli_output_abort(&out);
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "a path of the "
				       "bundle is too long for a tar file: "
				       "write a folder instead");
		} else if (rc || fflush(out.f) || ferror(out.f)) {
			rc = cli_output_fail(ctx, &out, 0);
		} else {
			rc = cli_output_commit(ctx, &out);
		}
	}
	tune_bundle_free(&b);
	return rc;
}

/*
 * render_mem - render into a string, for --json with the export on
 * stdout (the envelope carries it).
 */
static int render_mem(struct cli_ctx *ctx, const struct tune_config *c,
		      struct export_args *a, struct export_warnings *w,
		      char **text)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	int rc;

	if (!f)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = tune_export_render(c, a->format, &a->o, f, w);
	fclose(f);
	return rc ? render_error(ctx, a, w, rc) : 0;
}

/*
 * emit - the exporter's warnings (cli_warn(): stderr and the envelope) and
 * the JSON result: {"db" or "file", "config_id", "format", "out"}, plus
 * the export itself when stdout carries the envelope: "document" (an object) for the json
 * format, "files": [{"name": "-", "content"}] for a text format.
 */
static int emit(struct cli_ctx *ctx, const struct export_args *a,
		memcal_db *db, int64_t id, const struct export_warnings *w,
		char *text)
{
	json_t *res;

	for (int i = 0; i < w->n; i++)
		cli_warn(ctx, "%s", w->text[i]);
	if (!ctx->json) {
		if (a->out && strcmp(a->out, "-"))
			cli_info(ctx, "wrote %s (%s)", a->out, a->format);
		return 0;
	}
	res = json_pack("{s:s?,s:s?,s:I,s:s,s:s}", "db",
			db ? memcal_db_path(db) : NULL, "file", a->file,
			"config_id", (json_int_t)id, "format", a->format,
			"out", a->out ? a->out : "-");
	if (text)
		cli_carry(res, !strcmp(a->format, "json"), text);
	return cli_emit_json(ctx, res);
}

/**
 * tune_cmd_export() - 'memtune export --format json|modprobe|
 * modules-load|systemd|resctrl|pqos|bundle [--config ID | --file JSON]
 * [--out FILE]'.
 */
int tune_cmd_export(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		CLI_OPT_STRING("format", 'f', "FMT", struct export_args, format,
			       "json, modprobe, modules-load, systemd, "
			       "resctrl, pqos or bundle (--out DIR or "
			       "FILE.tar)"),
		TUNE_OPT_CONFIG(struct export_args),
		TUNE_OPT_FILE(struct export_args, "read the configuration "
			      "from a JSON export instead of the database"),
		CLI_OPT_STRING("out", 'o', "FILE", struct export_args, out,
			       "write here instead of stdout (- for stdout; "
			       "see memtune(1) for devices, FIFOs, links)"),
		CLI_OPT_STRING("resctrl-root", 0, "DIR", struct export_args,
			       o.resctrl_root, "resctrl mount to read MBA "
			       "granularity and domains from (/sys/fs/resctrl)"),
		CLI_OPT("mba-mbps", 0, NULL, 'M', "MBA values in MiB/s "
			"(mba_MBps)"),
		CLI_OPT("mba-percent", 0, NULL, 'P', "MBA values in percent"),
		CLI_OPT_STRING("memtune", 0, "PATH", struct export_args,
			       o.memtune_path, "memtune binary the systemd "
			       "unit runs (/usr/local/bin/memtune)"),
		CLI_OPT_STRING("config-path", 0, "PATH", struct export_args,
			       o.config_path, "JSON file the systemd unit "
			       "applies (/etc/memcal/tuned-config.json)"),
		CLI_OPT_STRING("kmod-src", 0, "DIR", struct export_args,
			       b.kmod_src, "bundle: memreg's sources, kmod/ "
			       "and core/ (default: /usr/src/memreg-VERSION, "
			       "else the source tree memtune was built from)"),
		CLI_OPT_STRING("module", 0, "KO", struct export_args, b.module,
			       "bundle: a prebuilt memreg.ko to carry for the "
			       "kernel it was built for"),
		CLI_OPT_STRING("bundle-memtune", 0, "FILE", struct export_args,
			       b.memtune, "bundle: the static memtune to "
			       "carry (default: this one if static, else the "
			       "build's memtune-static; '' none)"),
		CLI_OPT_END,
	};
	struct export_args a = { .o = { .mba_mbps = -1 } };
	struct tune_config *c = calloc(1, sizeof(*c));
	struct export_warnings w = { 0 };
	memcal_db *db = NULL;
	char *text = NULL;
	int64_t id = 0;
	int first, rc;

	if (!c)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = cli_parse_options(ctx, argc, argv, "--format FMT", opts,
			       export_option, &a, &first);
	if (!rc && (first != argc || !a.format))
		rc = cli_error(ctx, CLI_EXIT_USAGE, "export needs --format "
			       "json|modprobe|modules-load|systemd|resctrl|pqos|"
			       "bundle "
			       "and no other arguments");
	if (!rc)
		rc = tune_open_config(ctx, a.id, a.file, c, &id, &db);
	if (!rc) {
		a.o.config_id = id;
		if (!strcmp(a.format, "bundle"))
			rc = render_bundle(ctx, c, &a, &w);
		else if (ctx->json && (!a.out || !strcmp(a.out, "-")))
			rc = render_mem(ctx, c, &a, &w, &text);
		else
			rc = render_to(ctx, c, &a, &w);
	}
	if (!rc)
		rc = emit(ctx, &a, db, id, &w, text);
	free(text);
	return tune_cmd_end(rc, NULL, c, db);
}
