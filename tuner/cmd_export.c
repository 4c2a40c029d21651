// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_export.c - memtune export --format FMT: render a tuned
 * configuration (newest, --config ID, or --file JSON) to stdout or --out
 * FILE.  --out is written to a temporary file and renamed, so a failed
 * export never leaves half a file; what the format cannot express is
 * printed as warnings on stderr (and in --json output).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "memtune_cmds.h"

/**
 * struct export_args - options of 'memtune export'.
 * @format: --format.
 * @id:     --config (0: newest).
 * @file:   --file.
 * @out:    --out.
 * @o:      exporter knobs.
 */
struct export_args {
	const char *format;
	int64_t id;
	const char *file;
	const char *out;
	struct export_opts o;
};

/* export_option - option callback. */
static int export_option(struct cli_ctx *ctx, int key, const char *arg,
			 void *user)
{
	struct export_args *a = user;

	switch (key) {
	case 'f':
		a->format = arg;
		return 0;
	case 'c':
		return tune_parse_id(ctx, arg, &a->id);
	case 'F':
		a->file = arg;
		return 0;
	case 'o':
		a->out = arg;
		return 0;
	case 'R':
		a->o.resctrl_root = arg;
		return 0;
	case 'M':
	case 'P':
		if (a->o.mba_mbps == (key == 'M' ? 0 : 1))
			return cli_error(ctx, CLI_EXIT_USAGE, "--mba-mbps and "
					 "--mba-percent contradict each other: "
					 "give one (or neither, to follow the "
					 "resctrl mount)");
		a->o.mba_mbps = key == 'M';
		return 0;
	case 'm':
		a->o.memtune_path = arg;
		return 0;
	case 'C':
		a->o.config_path = arg;
		return 0;
	}
	return CLI_EXIT_USAGE;
}

/* render_to - render into @path via a temporary file and rename. */
static int render_to(struct cli_ctx *ctx, const struct tune_config *c,
		     struct export_args *a, struct export_warnings *w)
{
	char tmp[4096];
	FILE *f;
	int rc;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", a->out, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot write %s: %s",
				 a->out, strerror(errno));
	rc = export_render(c, a->format, &a->o, f, w);
	if (fclose(f) || rc || rename(tmp, a->out)) {
		int e = errno;

		unlink(tmp);
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot write %s: %s",
				 a->out, rc ? export_strerror(rc, w) :
				 strerror(e));
	}
	return 0;
}

/* render_mem - render into a string (for --json without --out). */
static int render_mem(struct cli_ctx *ctx, const struct tune_config *c,
		      struct export_args *a, struct export_warnings *w,
		      char **text)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	int rc;

	if (!f)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = export_render(c, a->format, &a->o, f, w);
	fclose(f);
	return rc ? cli_error(ctx, CLI_EXIT_FAILURE, "%s",
			      export_strerror(rc, w)) : 0;
}

/* emit - warnings and the JSON summary. */
static int emit(struct cli_ctx *ctx, const struct export_args *a,
		int64_t id, const struct export_warnings *w, char *text)
{
	json_t *warn = json_array();

	for (int i = 0; i < w->n; i++) {
		if (!ctx->json)
			cli_warn(ctx, "%s", w->text[i]);
		json_array_append_new(warn, json_string(w->text[i]));
	}
	if (!ctx->json) {
		json_decref(warn);
		if (a->out)
			cli_info(ctx, "wrote %s (%s)", a->out, a->format);
		return 0;
	}
	return cli_emit_json(ctx, json_pack("{s:s,s:I,s:s?,s:s?,s:o}",
					    "format", a->format, "config_id",
					    (json_int_t)id, "out", a->out,
					    "content", text, "warnings",
					    warn));
}

/**
 * memtune_cmd_export() - 'memtune export --format json|modprobe|
 * modules-load|systemd|resctrl|pqos [--config ID | --file JSON]
 * [--out FILE]'.
 */
int memtune_cmd_export(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "format", 'f', "FMT", 'f', "json, modprobe, modules-load, "
		  "systemd, resctrl or pqos" },
		{ "config", 'c', "ID", 'c', "tuned configuration (default: the "
		  "newest)" },
		{ "file", 0, "JSON", 'F', "read the configuration from a JSON "
		  "export instead of the database" },
		{ "out", 'o', "FILE", 'o', "write here instead of stdout" },
		{ "resctrl-root", 0, "DIR", 'R', "resctrl mount to read MBA "
		  "granularity and domains from (/sys/fs/resctrl)" },
		{ "mba-mbps", 0, NULL, 'M', "MBA values in MiB/s (mba_MBps)" },
		{ "mba-percent", 0, NULL, 'P', "MBA values in percent" },
		{ "memtune", 0, "PATH", 'm', "memtune binary the systemd unit "
		  "runs (/usr/local/bin/memtune)" },
		{ "config-path", 0, "PATH", 'C', "JSON file the systemd unit "
		  "applies (/etc/memcal/tuned-config.json)" },
		{ NULL, 0, NULL, 0, NULL },
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
	rc = cli_parse_options(ctx, argc, argv, "--format FMT [--config ID] "
			       "[--out FILE]", opts, export_option, &a, &first);
	if (!rc && (first != argc || !a.format))
		rc = cli_error(ctx, CLI_EXIT_USAGE, "export needs --format "
			       "json|modprobe|modules-load|systemd|resctrl|pqos "
			       "and no other arguments");
	if (!rc && strcmp(a.format, "json") && strcmp(a.format, "modprobe") &&
	    strcmp(a.format, "modules-load") &&
	    strcmp(a.format, "systemd") && strcmp(a.format, "resctrl") &&
	    strcmp(a.format, "pqos"))
		rc = cli_error(ctx, CLI_EXIT_USAGE, "unknown export format '%s': "
			       "use json, modprobe, modules-load, systemd, "
			       "resctrl or pqos", a.format);
	if (!rc && !a.file)
		rc = tune_open_db(ctx, false, &db);
	if (!rc)
		rc = tune_load_config(ctx, db, a.id, a.file, c, &id);
	if (!rc) {
		a.o.config_id = id;
		if (a.out)
			rc = render_to(ctx, c, &a, &w);
		else if (ctx->json)
			rc = render_mem(ctx, c, &a, &w, &text);
		else if ((rc = export_render(c, a.format, &a.o, ctx->out,
					     &w)))
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s",
				       export_strerror(rc, &w));
	}
	if (!rc)
		rc = emit(ctx, &a, id, &w, text);
	free(text);
	free(c);
	memcal_db_close(db);
	return rc;
}
