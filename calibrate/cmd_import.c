// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_import.c - `memcal import FILE...`: add the runs of documents
 * written by `memcal export` (figures/document.c) to this database, each
 * marked imported and keeping its unit's identity.  A run is known by the
 * document's content key, not by the file's name: a document imported
 * before, or whose run this database measured itself, is skipped and
 * said so.  Each document is stored in its own transaction, so one that
 * is malformed, written by a newer memcal or refused by the database
 * leaves nothing behind and the documents before it stay.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "memcal_cmds.h"
#include "memcal_db.h"
#include "memcal_figures.h"

/**
 * struct ids - run ids gathered from a listing.
 * @v, @n: the ids.  @platform_id: the board whose runs are kept.
 */
struct ids {
	int64_t *v;
	size_t n;
	int64_t platform_id;
};

/* keep_run - collect the runs of one board. */
static int keep_run(const struct memcal_run *r, void *user)
{
	struct ids *ids = user;

	if (r->platform_id != ids->platform_id)
		return 0;
	return fig_push((void **)&ids->v, &ids->n, sizeof(r->id), &r->id);
}

/*
 * find_run() - the run of this database whose content key is @key: an
 * imported one by its stored key, a run measured here by the key of the
 * document it would export as.
 * Return: MEMCAL_OK with *@run_id, MEMCAL_ENOTFOUND, or another code.
 */
static int find_run(memcal_db *db, const char *fingerprint, const char *key,
		    int64_t *run_id)
{
	struct ids ids = { 0 };
	int rc = memcal_db_unit_by_key(db, key, run_id);

	if (rc != MEMCAL_ENOTFOUND)
		return rc;
	rc = memcal_db_platform_find(db, fingerprint, &ids.platform_id);
	if (!rc)
		rc = memcal_db_run_list(db, keep_run, &ids);
	for (size_t i = 0; !rc && i < ids.n; i++) {
		char k[65];
		json_t *doc;

		rc = fig_doc_build(db, ids.v[i], MEMCAL_VERSION, &doc);
		if (rc)
			break;
		rc = fig_doc_key(doc, k);
		json_decref(doc);
		if (!rc && !strcmp(k, key)) {
			*run_id = ids.v[i];
			free(ids.v);
			return MEMCAL_OK;
		}
	}
	free(ids.v);
	return rc ? rc : MEMCAL_ENOTFOUND;
}

/**
 * import_one() - read, check and store document @path.
 * @res: receives the file's entry ("file", "status", and "run_id" or
 *       "error").
 * Return: MEMCAL_OK (imported or skipped) or the code of the refusal.
 */
static int import_one(struct cli_ctx *ctx, memcal_db *db, const char *path,
		      json_t *res)
{
	char err[768], now[32];
	struct fig_doc d;
	json_error_t je;
	int64_t run_id;
	json_t *doc;
	int rc;

	if (access(path, R_OK)) {
		snprintf(err, sizeof(err), "cannot read it: %s",
			 strerror(errno));
		rc = errno == ENOENT ? MEMCAL_ENOTFOUND : MEMCAL_EIO;
		goto refused;
	}
	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		snprintf(err, sizeof(err), "not a JSON document: %s (line %d)",
			 je.text, je.line);
		rc = MEMCAL_ESYNTAX;
		goto refused;
	}
	rc = fig_doc_parse(doc, &d, err, sizeof(err));
	json_decref(doc);
	if (rc)
		goto refused;
	rc = find_run(db, d.platform.fingerprint, d.unit.content_key, &run_id);
	if (!rc) {
		json_object_set_new(res, "status", json_string("skipped"));
		json_object_set_new(res, "run_id", json_integer(run_id));
		if (!ctx->json && ctx->verbosity >= 0)
			fprintf(ctx->out, "%s: skipped: run %lld of unit %s is "
				"already in the database\n", path,
				(long long)run_id, d.unit.hostname);
		fig_doc_free(&d);
		return MEMCAL_OK;
	}
	if (rc == MEMCAL_ENOTFOUND) {
		memcal_db_timestamp(now);
		rc = memcal_db_begin(db);
		if (!rc)
			rc = fig_doc_store(db, &d, path, now, &run_id);
		if (!rc)
			rc = memcal_db_commit(db);
		if (rc)
			memcal_db_rollback(db);
	}
	if (rc) {
		snprintf(err, sizeof(err), "%s", memcal_db_errmsg(db));
		fig_doc_free(&d);
		goto refused;
	}
	json_object_set_new(res, "status", json_string("imported"));
	json_object_set_new(res, "run_id", json_integer(run_id));
	json_object_set_new(res, "hostname", json_string(d.unit.hostname));
	json_object_set_new(res, "fingerprint",
			    json_string(d.platform.fingerprint));
	if (!ctx->json && ctx->verbosity >= 0)
		fprintf(ctx->out, "%s: imported as run %lld (unit %s, board "
			"%.16s)\n", path, (long long)run_id, d.unit.hostname,
			d.platform.fingerprint);
	fig_doc_free(&d);
	return MEMCAL_OK;

refused:
	json_object_set_new(res, "status", json_string("refused"));
	json_object_set_new(res, "error", json_string(err));
	if (!ctx->json)
		fprintf(ctx->err, "%s %s: %s: refused, nothing stored: %s\n",
			ctx->tool, ctx->command, path, err);
	return rc;
}

/**
 * cal_cmd_import() - `memcal import FILE...`.  Every file is tried; the
 * exit status is non-zero when any was refused.
 */
int cal_cmd_import(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option none[] = { CLI_OPT_END };
	size_t refused = 0, imported = 0, skipped = 0;
	int first, rc, worst = MEMCAL_OK;
	memcal_db *db = NULL;
	json_t *files;

	rc = cli_parse_options(ctx, argc, argv, "FILE...", none, NULL, NULL,
			       &first);
	if (rc)
		return rc;
	if (first >= argc)
		return cli_error(ctx, CLI_EXIT_USAGE, "name at least one "
				 "document written by 'memcal export'");
	rc = cal_open_db(ctx, MEMCAL_DB_OPEN_CREATE, &db);
	if (rc)
		return rc;
	files = json_array();
	for (int i = first; files && i < argc; i++) {
		json_t *res = json_pack("{s:s}", "file", argv[i]);

		rc = res ? import_one(ctx, db, argv[i], res) : MEMCAL_ENOMEM;
		if (rc) {
			refused++;
			worst = worst ? worst : rc;
		} else if (!strcmp(json_string_value(json_object_get(res,
				   "status")), "imported")) {
			imported++;
		} else {
			skipped++;
		}
		json_array_append_new(files, res);
	}
	memcal_db_close(db);
	if (!files)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	if (ctx->json) {
		rc = cli_emit_json(ctx, json_pack("{s:I, s:I, s:I, s:o}",
				   "imported", (json_int_t)imported,
				   "skipped", (json_int_t)skipped,
				   "refused", (json_int_t)refused,
				   "files", files));
		if (rc)
			return rc;
	} else {
		json_decref(files);
	}
	if (refused)
		return cli_error(ctx, cli_exit_for(worst), "%zu of %d "
				 "document%s refused (see above); %zu "
				 "imported, %zu already there", refused,
				 argc - first, argc - first == 1 ? "" : "s",
				 imported, skipped);
	return CLI_EXIT_OK;
}
