// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_common.c - what memtune's subcommands share: opening the database,
 * loading and checking a mix file, loading a tuned configuration by id,
 * newest, or from a JSON file; the record options and output of list,
 * show and delete.  A configuration is addressed by its bare ID; a profile
 * by --profile ID and a validation by --validation ID (each kind numbers
 * its own rows).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "memtune_cmds.h"

/**
 * tune_open_db() - open the database (--db or the default path).
 * @write: open for writing; otherwise read-only.  memtune never creates a
 *         database: every command needs the calibration 'memcal run'
 *         stores, so a missing or empty file is refused untouched.
 * Return: 0 or a CLI exit code (error reported).
 */
int tune_open_db(struct cli_ctx *ctx, bool write, memcal_db **db)
{
	char path[4096], err[512];
	const char *p = ctx->db_path;

	if (!p) {
		if (memcal_db_default_path(path, sizeof(path)))
			return cli_error(ctx, CLI_EXIT_FAILURE, "cannot work "
					 "out the database path: set $MEMCAL_DB "
					 "or give --db");
		p = path;
	}
	if (memcal_db_open(p, write ? 0 : MEMCAL_DB_OPEN_READONLY, db, err,
			   sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	memcal_db_set_busy_timeout(*db, 5000);
	return 0;
}

/**
 * tune_load_mix() - load and check the mix file @path.
 * Return: 0 or a CLI exit code (1 for a bad file, with its line).
 */
int tune_load_mix(struct cli_ctx *ctx, const char *path, struct mix *m)
{
	char err[MIX_ERR_LEN];
	int rc = tune_mix_load(path, m, err, sizeof(err));

	if (rc)
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	return 0;
}

/**
 * tune_check_local_cpus() - refuse a mix naming a CPU this machine does
 * not have (the CPUs memtune itself may run on).
 */
int tune_check_local_cpus(struct cli_ctx *ctx, const struct mix *m)
{
	bool exists[1024];
	char err[MIX_ERR_LEN];
	int n = (int)sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;

	if (n < 1 || n > 1024)
		n = 1024;
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	for (int i = 0; i < n; i++)
		exists[i] = CPU_ISSET(i, &set);
	if (tune_mix_check_cpus(m, exists, n, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	return 0;
}


/* read_file - the whole of @path, malloc'd; NULL with errno set. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (n + 1 < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/**
 * tune_load_config() - a tuned configuration: from JSON @file if given,
 * else row @id, else the newest.
 * @id_out: set to the row id (0 for a file).
 * Return: 0 or a CLI exit code (error reported; says to run 'memtune
 * plan' when there is none).
 */
int tune_load_config(struct cli_ctx *ctx, memcal_db *db, int64_t id,
		     const char *file, struct tune_config *c,
		     int64_t *id_out)
{
	struct memcal_config row;
	char err[512];
	int rc;

	*id_out = 0;
	if (file) {
		char *text = read_file(file);

		if (!text)
			return cli_error(ctx, CLI_EXIT_FAILURE, "cannot read "
					 "%s: %s", file, strerror(errno));
		rc = tune_config_from_text(text, c, err, sizeof(err));
		free(text);
		if (rc)
			return cli_error(ctx, CLI_EXIT_FAILURE, "%s: %s", file,
					 err);
		return 0;
	}
	if (!id && memcal_db_config_latest(db, &id))
		return cli_error(ctx, CLI_EXIT_FAILURE, "no tuned configuration "
				 "in %s: run 'memtune plan MIX.yaml' first",
				 memcal_db_path(db));
	if (memcal_db_config_get(db, id, &row))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s",
				 memcal_db_errmsg(db));
	rc = tune_config_from_text(row.document, c, err, sizeof(err));
	memcal_db_config_free(&row);
	if (rc)
		return cli_error(ctx, CLI_EXIT_FAILURE, "configuration %lld: %s",
				 (long long)id, err);
	*id_out = id;
	return 0;
}

/**
 * tune_open_config() - tune_load_config() for the commands that take
 * --config ID or --file JSON: the database is opened read-only into @db
 * (left NULL for a file) only when no @file is given.
 * Return: 0 or a CLI exit code (error reported).
 */
int tune_open_config(struct cli_ctx *ctx, int64_t id, const char *file,
		     struct tune_config *c, int64_t *id_out, memcal_db **db)
{
	int rc = file ? 0 : tune_open_db(ctx, false, db);

	return rc ? rc : tune_load_config(ctx, *db, id, file, c, id_out);
}

/**
 * tune_parse_args() - cli_parse_options() that also accepts options after
 * positional arguments ("memtune plan mix.yaml --periods 500,1000").
 * @pos:    receives the positional arguments.
 * @maxpos: room in @pos; more is a usage error.
 * @npos:   set to the number found.
 *
 * Return: 0, CLI_HELP_SHOWN or a CLI exit code (error reported).
 */
int tune_parse_args(struct cli_ctx *ctx, int argc, char **argv,
		    const char *synopsis, const struct cli_option *opts,
		    cli_option_fn fn, void *user, char **pos, int maxpos,
		    int *npos)
{
	int base = 0;

	*npos = 0;
	for (;;) {
		int first, rc = cli_parse_options(ctx, argc - base, argv + base,
						  synopsis, opts, fn, user,
						  &first);

		if (rc)
			return rc;
		first += base;
		if (first >= argc)
			return 0;
		if (*npos == maxpos)
			return cli_error(ctx, CLI_EXIT_USAGE, "unexpected "
					 "argument '%s'; see '%s %s --help'",
					 argv[first], ctx->tool, ctx->command);
		pos[(*npos)++] = argv[first];
		base = first;
	}
}

/**
 * tune_mix_prologue() - what profile and validate start with: their
 * options and exactly one mix file, loaded and checked against this
 * machine's CPUs, then the database opened for writing.
 * @synopsis, @opts, @fn, @user: as for tune_parse_args().
 * @m:  receives the mix.
 * @db: receives the database.
 *
 * Return: 0, CLI_HELP_SHOWN or a CLI exit code (error reported).
 */
int tune_mix_prologue(struct cli_ctx *ctx, int argc, char **argv,
		      const char *synopsis, const struct cli_option *opts,
		      cli_option_fn fn, void *user, struct mix *m,
		      memcal_db **db)
{
	char *mixpath = NULL;
	int npos, rc;

	rc = tune_parse_args(ctx, argc, argv, synopsis, opts, fn, user,
			     &mixpath, 1, &npos);
	if (!rc && npos != 1)
		rc = cli_error(ctx, CLI_EXIT_USAGE, "%s takes one mix file; "
			       "see 'memtune %s --help'", ctx->command,
			       ctx->command);
	if (!rc)
		rc = tune_load_mix(ctx, mixpath, m);
	if (!rc)
		rc = tune_check_local_cpus(ctx, m);
	if (!rc)
		rc = tune_open_db(ctx, true, db);
	return rc;
}

/* parse_id - a record id (1 or more) given as @what@arg. */
static int parse_id(struct cli_ctx *ctx, const char *what, const char *arg,
		    int64_t *id)
{
	const char *why;

	if (cli_parse_id(arg, id, &why))
		return cli_error(ctx, CLI_EXIT_USAGE, "%s%s: %s; a record ID is "
				 "a number 'memtune list' shows", what, arg,
				 why);
	return 0;
}

/* rec_option - option callback of list, show and delete. */
static int rec_option(struct cli_ctx *ctx, int key, const char *arg,
		      void *user)
{
	struct rec_opts *o = user;

	switch (key) {
	case 'K':
		if (strcmp(arg, "config") && strcmp(arg, "profile") &&
		    strcmp(arg, "validation"))
			return cli_error(ctx, CLI_EXIT_USAGE, "--kind %s: "
					 "config, profile or validation", arg);
		o->kind = arg;
		return 0;
	default:
		if (o->id)
			return cli_error(ctx, CLI_EXIT_USAGE, "name one record: "
					 "a configuration ID, --profile ID or "
					 "--validation ID");
		o->kind = key == 'P' ? "profile" : "validation";
		return parse_id(ctx, key == 'P' ? "--profile " : "--validation ",
				arg, &o->id);
	}
}

/**
 * tune_rec_args() - parse @argv into @o; a bare ID addresses a
 * configuration.
 * @need: one record must be named.
 */
int tune_rec_args(struct cli_ctx *ctx, int argc, char **argv,
		  const char *synopsis, const struct cli_option *opts,
		  struct rec_opts *o, bool need)
{
	char *pos = NULL;
	int npos, rc;

	memset(o, 0, sizeof(*o));
	rc = tune_parse_args(ctx, argc, argv, synopsis, opts, rec_option, o,
			     &pos, 1, &npos);
	if (rc)
		return rc;
	if (npos && o->id)
		return cli_error(ctx, CLI_EXIT_USAGE, "name one record: a "
				 "configuration ID, --profile ID or "
				 "--validation ID");
	if (npos) {
		o->kind = "config";
		return parse_id(ctx, "", pos, &o->id);
	}
	if (need && !o->id)
		return cli_error(ctx, CLI_EXIT_USAGE, "name a record: a "
				 "configuration ID, --profile ID or "
				 "--validation ID; 'memtune list' shows them");
	return 0;
}

/* record_json - one listed record as an object. */
static json_t *record_json(const struct memcal_record *r)
{
	json_t *o = json_pack("{s:s,s:I,s:s,s:s,s:s,s:I}", "kind", r->kind,
			      "id", (json_int_t)r->id, "created_at",
			      r->created_at, "mix", r->mix, "detail",
			      r->detail, "dependents",
			      (json_int_t)r->dependents);

	if (o && r->name[0])
		json_object_set_new(o, "workload", json_string(r->name));
	if (o && r->parent_id)
		json_object_set_new(o, "config_id",
				    json_integer((json_int_t)r->parent_id));
	return o;
}

/* record_line - one listed record as a line of text. */
static void record_line(FILE *f, const struct memcal_record *r)
{
	char what[400];

	snprintf(what, sizeof(what), "%s%s%s", r->name, r->name[0] ? ": " :
		 "", r->detail);
	fprintf(f, "%-10s %5lld  %-20s  %-16s %s", r->kind, (long long)r->id,
		r->created_at, r->mix, what);
	if (r->dependents)
		fprintf(f, " (%lld %s)", (long long)r->dependents,
			!strcmp(r->kind, "profile") ?
			(r->dependents > 1 ? "configurations" : "configuration") :
			(r->dependents > 1 ? "validations" : "validation"));
	fputc('\n', f);
}

/**
 * tune_rec_sink() - hand one record to @user (a struct rec_sink): a JSON
 * object in its array, else a line of text.
 */
int tune_rec_sink(const struct memcal_record *r, void *user)
{
	struct rec_sink *s = user;

	s->n++;
	if (s->arr)
		return json_array_append_new(s->arr, record_json(r));
	record_line(s->ctx->out, r);
	return 0;
}

/**
 * tune_cmd_end() - what every command frees on its way out: the mix @m
 * with its workloads, the configuration @c and the database @db (each
 * may be NULL).
 * Return: @rc, the command's exit code.
 */
int tune_cmd_end(int rc, struct mix *m, struct tune_config *c,
		 memcal_db *db)
{
	if (m)
		tune_mix_free(m);
	free(m);
	free(c);
	memcal_db_close(db);
	return rc;
}

/** tune_db_error() - a database failure as the command's error. */
int tune_db_error(struct cli_ctx *ctx, memcal_db *db)
{
	return cli_error(ctx, CLI_EXIT_FAILURE, "%s", memcal_db_errmsg(db));
}
