// SPDX-License-Identifier: GPL-2.0-only
/*
 * document.c - the portable document of one calibration
 * ("memcal.calibration/1"): the board type, the unit, the run, its
 * figures in fig_run_json()'s form and where they came from.  One builder
 * (fig_doc_build()) that `memcal export` writes and `memcal import` uses
 * to recognise a run it already holds, one reader (fig_doc_parse()), and
 * the content key both compare.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_figures.h"
#include "memcal_status.h"

/* fnv1a - 64-bit FNV-1a of @s, continuing from @h. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/*
 * keyed_part - what the content key covers: the board type, the unit,
 * the run and its figures; not the provenance (who exported it, when),
 * so the same run exported twice has one key.  Borrows from @doc.
 */
static json_t *keyed_part(json_t *doc)
{
	json_t *plat = json_object_get(doc, "platform");
	json_t *run = json_object_get(doc, "run");

	return json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?, s:O?}",
			 "fingerprint", json_object_get(plat, "fingerprint"),
			 "unit", json_object_get(doc, "unit"),
			 "kind", json_object_get(run, "kind"),
			 "started_at", json_object_get(run, "started_at"),
			 "finished_at", json_object_get(run, "finished_at"),
			 "figures", json_object_get(doc, "figures"));
}

/**
 * fig_doc_key() - the content key of document @doc into @key: four
 * 64-bit FNV-1a hashes (as the platform fingerprint) of the keyed part
 * written compact, keys sorted, with the precision every document is
 * written with, so the key of a run read from a file is the key of the
 * same run read from the database.
 * Return: MEMCAL_OK or MEMCAL_ENOMEM.
 */
int fig_doc_key(json_t *doc, char key[65])
{
	json_t *k = keyed_part(doc);
	char *txt = k ? json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS |
				   JSON_REAL_PRECISION(FIG_DOC_PRECISION)) :
			NULL;
	uint64_t h[4];

	json_decref(k);
	if (!txt)
		return MEMCAL_ENOMEM;
	for (unsigned i = 0; i < 4; i++)
		h[i] = fnv1a(0xcbf29ce484222325ull ^
			     (0x9e3779b97f4a7c15ull * (i + 1)), txt);
	snprintf(key, 65, "%016llx%016llx%016llx%016llx",
		 (unsigned long long)h[0], (unsigned long long)h[1],
		 (unsigned long long)h[2], (unsigned long long)h[3]);
	free(txt);
	return MEMCAL_OK;
}

/* memory_bytes - the memory of every NUMA node of topology @topo. */
static json_int_t memory_bytes(json_t *topo)
{
	json_int_t sum = 0;
	size_t i;
	json_t *n;

	json_array_foreach(json_object_get(topo, "nodes"), i, n)
		sum += json_integer_value(json_object_get(n, "memory"));
	return sum;
}

/* str_or_null - @s as JSON, null when empty (not readable: not invented). */
static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/**
 * fig_doc_build() - the document of run @run_id: its board type, unit,
 * run row, every figure (fig_run_load(), fig_run_json()), provenance,
 * and its content key.  A run measured before units were recorded takes
 * its hostname and kernel from the board's row, and has no machine-id or
 * serial.  @exporter is the memcal version writing the document.
 * Return: MEMCAL_OK with a new object in *@out, or the database's code
 * (message on @db) or MEMCAL_ENOMEM.
 */
int fig_doc_build(memcal_db *db, int64_t run_id, const char *exporter,
		  json_t **out)
{
	struct memcal_platform p;
	struct memcal_unit u;
	struct memcal_run r;
	struct fig_run f;
	json_t *doc = NULL, *topo, *params, *figs;
	char key[65];
	int rc;

	*out = NULL;
	rc = memcal_db_run_get(db, run_id, &r);
	if (rc)
		return rc;
	rc = memcal_db_platform_get(db, r.platform_id, &p);
	if (rc)
		goto out_run;
	rc = memcal_db_unit_get(db, run_id, &u);
	if (rc == MEMCAL_ENOTFOUND) {
		snprintf(u.hostname, sizeof(u.hostname), "%s", p.hostname);
		snprintf(u.kernel, sizeof(u.kernel), "%s", p.kernel);
		rc = MEMCAL_OK;
	}
	if (rc)
		goto out_platform;
	rc = fig_run_load(db, run_id, &f);
	if (rc)
		goto out_platform;
	figs = fig_run_json(&f);
	fig_run_free(&f);
	topo = json_loads(p.topology_json, 0, NULL);
	params = json_loads(r.params_json, 0, NULL);
	if (!params)
		params = json_object();
	doc = json_pack("{s:s, s:{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:I, s:o},"
			" s:{s:s, s:o, s:o},"
			" s:{s:s, s:s, s:s, s:O, s:s},"
			" s:{s:s, s:s, s:s, s:s, s:O, s:o, s:o}, s:o}",
			"schema", FIG_DOC_SCHEMA,
			"platform", "fingerprint", p.fingerprint,
			"arch", p.arch, "cpu_model", p.cpu_model,
			"packages", p.packages, "numa_nodes", p.numa_nodes,
			"cores", p.cores, "pus", p.pus,
			"memory_bytes", memory_bytes(topo),
			"topology", topo ? topo : json_object(),
			"unit", "hostname", u.hostname,
			"machine_id", str_or_null(u.machine_id),
			"serial", str_or_null(u.serial),
			"run", "kind", r.kind, "started_at", r.started_at,
			"finished_at", r.finished_at,
			"params", params,
			"notes", r.notes ? r.notes : "",
			"provenance", "memcal_version", r.tool_version,
			"kernel", u.kernel, "date", r.finished_at,
			"exported_by", exporter,
			"options", params,
			"imported_at", str_or_null(u.imported_at),
			"imported_from", str_or_null(u.imported_from),
			"figures", figs);
	json_decref(params);
	if (doc && !fig_doc_key(doc, key)) {
		json_object_set_new(doc, "content_key", json_string(key));
		*out = doc;
	} else {
		json_decref(doc);
		rc = MEMCAL_ENOMEM;
	}
out_platform:
	memcal_db_platform_free(&p);
out_run:
	memcal_db_run_free(&r);
	return rc;
}

/* copy_str - string @key of @o into @buf, or why not into @err. */
static int copy_str(json_t *o, const char *where, const char *key,
		    bool nullable, char *buf, size_t size, char *err,
		    size_t len)
{
	json_t *v = json_object_get(o, key);

	if (nullable && json_is_null(v)) {
		buf[0] = '\0';
		return MEMCAL_OK;
	}
	if (!json_is_string(v) || json_string_length(v) >= size) {
		snprintf(err, len, "\"%s\".\"%s\" %s", where, key,
			 !v ? "is missing" : !json_is_string(v) ?
			 "must be a string" : "is too long");
		return MEMCAL_ESYNTAX;
	}
	memcpy(buf, json_string_value(v), json_string_length(v) + 1);
	return MEMCAL_OK;
}

/* copy_int - non-negative integer @key of @o into *@v, or why not. */
static int copy_int(json_t *o, const char *key, int *v, char *err,
		    size_t len)
{
	json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
	    json_integer_value(j) > INT32_MAX) {
		snprintf(err, len, "\"platform\".\"%s\" must be a count", key);
		return MEMCAL_ESYNTAX;
	}
	*v = (int)json_integer_value(j);
	return MEMCAL_OK;
}

/* How a field of the document's head is read. */
enum head_type { H_STR, H_NULLABLE, H_NONEMPTY, H_COUNT };

/**
 * struct head_field - one string or count of the document's head.
 * @where: the document's object that holds it.
 * @key:   its key there.
 * @type:  a string (null allowed for H_NULLABLE, empty refused for
 *         H_NONEMPTY) or a count.
 * @off:   offset in struct fig_doc.
 * @size:  size of a string buffer.
 */
struct head_field {
	const char *where, *key;
	enum head_type type;
	size_t off, size;
};

#define H(where, key, type, m)						\
	{ where, key, type, offsetof(struct fig_doc, m),		\
	  sizeof(((struct fig_doc *)0)->m) }

/* In the order they are checked: the first wrong one is reported. */
static const struct head_field head_fields[] = {
	H("platform", "fingerprint", H_NONEMPTY, platform.fingerprint),
	H("platform", "arch", H_STR, platform.arch),
	H("platform", "cpu_model", H_STR, platform.cpu_model),
	H("platform", "packages", H_COUNT, platform.packages),
	H("platform", "numa_nodes", H_COUNT, platform.numa_nodes),
	H("platform", "cores", H_COUNT, platform.cores),
	H("platform", "pus", H_COUNT, platform.pus),
	H("unit", "hostname", H_STR, unit.hostname),
	H("unit", "machine_id", H_NULLABLE, unit.machine_id),
	H("unit", "serial", H_NULLABLE, unit.serial),
	H("provenance", "kernel", H_STR, unit.kernel),
	H("run", "kind", H_STR, run.kind),
	H("run", "started_at", H_STR, run.started_at),
	H("run", "finished_at", H_STR, run.finished_at),
	H("provenance", "memcal_version", H_STR, run.tool_version),
};
#undef H

/* read_head - field @h of @doc into @d, or why not into @err. */
static int read_head(json_t *doc, const struct head_field *h,
		     struct fig_doc *d, char *err, size_t len)
{
	json_t *o = json_object_get(doc, h->where);
	char *p = (char *)d + h->off;
	int rc;

	if (h->type == H_COUNT)
		return copy_int(o, h->key, (int *)p, err, len);
	rc = copy_str(o, h->where, h->key, h->type == H_NULLABLE, p, h->size,
		      err, len);
	if (!rc && h->type == H_NONEMPTY && !p[0]) {
		snprintf(err, len, "\"%s\".\"%s\" is empty", h->where, h->key);
		rc = MEMCAL_ESYNTAX;
	}
	return rc;
}

/*
 * check_schema - "memcal.calibration/MAJOR[.MINOR]": a newer major is
 * refused (MEMCAL_ENEWER) with the reason, anything else not of that form
 * is malformed.
 */
static int check_schema(json_t *doc, char *err, size_t len)
{
	static const char prefix[] = "memcal.calibration/";
	const char *s = json_string_value(json_object_get(doc, "schema"));
	char *end;
	long major;

	if (!s || strncmp(s, prefix, sizeof(prefix) - 1)) {
		snprintf(err, len, "not a memcal calibration document: "
			 "\"schema\" must be \"%s\"", FIG_DOC_SCHEMA);
		return MEMCAL_ESYNTAX;
	}
	major = strtol(s + sizeof(prefix) - 1, &end, 10);
	if (end == s + sizeof(prefix) - 1 || (*end && *end != '.') ||
	    major < 1) {
		snprintf(err, len, "\"schema\" \"%s\" has no valid version", s);
		return MEMCAL_ESYNTAX;
	}
	if (major > FIG_DOC_MAJOR) {
		snprintf(err, len, "schema \"%s\" is newer than this memcal "
			 "reads (%s): import it with a newer memcal", s,
			 FIG_DOC_SCHEMA);
		return MEMCAL_ENEWER;
	}
	return MEMCAL_OK;
}

/**
 * fig_doc_parse() - read document @doc into @d (release with
 * fig_doc_free()): its schema version, board type, unit, run and
 * figures, and its content key checked against its contents.
 * Return: MEMCAL_OK; MEMCAL_ENEWER for a newer major version;
 * MEMCAL_ESYNTAX for anything malformed; MEMCAL_ENOMEM.  @err then says
 * what, naming the key; @d holds nothing.
 */
int fig_doc_parse(json_t *doc, struct fig_doc *d, char *err, size_t len)
{
	json_t *plat = json_object_get(doc, "platform");
	json_t *unit = json_object_get(doc, "unit");
	json_t *run = json_object_get(doc, "run");
	json_t *topo = json_object_get(plat, "topology");
	json_t *params = json_object_get(run, "params");
	char key[65];
	int rc;

	memset(d, 0, sizeof(*d));
	if (!json_is_object(doc)) {
		snprintf(err, len, "the document is not a JSON object");
		return MEMCAL_ESYNTAX;
	}
	rc = check_schema(doc, err, len);
	if (rc)
		return rc;
	if (!json_is_object(plat) || !json_is_object(unit) ||
	    !json_is_object(run) || !json_is_object(topo) ||
	    !json_is_object(params)) {
		snprintf(err, len, "\"platform\" (with a \"topology\" object), "
			 "\"unit\" and \"run\" (with a \"params\" object) must "
			 "be objects");
		return MEMCAL_ESYNTAX;
	}
	for (size_t i = 0;
	     !rc && i < sizeof(head_fields) / sizeof(head_fields[0]); i++)
		rc = read_head(doc, &head_fields[i], d, err, len);
	if (!rc && !json_is_string(json_object_get(run, "notes"))) {
		snprintf(err, len, "\"run\".\"notes\" must be a string");
		rc = MEMCAL_ESYNTAX;
	}
	if (!rc && !json_is_string(json_object_get(doc, "content_key"))) {
		snprintf(err, len, "\"content_key\" is missing");
		rc = MEMCAL_ESYNTAX;
	}
	if (rc)
		return rc;
	rc = fig_run_from_json(json_object_get(doc, "figures"), &d->fig, err,
			       len);
	if (rc)
		return rc;
	rc = fig_doc_key(doc, key);
	if (!rc && strcmp(key, json_string_value(json_object_get(doc,
							  "content_key")))) {
		snprintf(err, len, "\"content_key\" does not match the "
			 "document's contents: it was changed after 'memcal "
			 "export' wrote it");
		rc = MEMCAL_ESYNTAX;
	}
	if (rc) {
		fig_doc_free(d);
		return rc;
	}
	snprintf(d->unit.content_key, sizeof(d->unit.content_key), "%s", key);
	d->platform.topology_json = json_dumps(topo, JSON_COMPACT |
					       JSON_SORT_KEYS);
	d->run.params_json = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	d->run.notes = strdup(json_string_value(json_object_get(run, "notes")));
	if (!d->platform.topology_json || !d->run.params_json ||
	    !d->run.notes) {
		fig_doc_free(d);
		return MEMCAL_ENOMEM;
	}
	return MEMCAL_OK;
}

/* fig_doc_free() - release what fig_doc_parse() allocated. */
void fig_doc_free(struct fig_doc *d)
{
	fig_run_free(&d->fig);
	free(d->platform.topology_json);
	free(d->run.params_json);
	free(d->run.notes);
	memset(d, 0, sizeof(*d));
}

/**
 * fig_doc_store() - store parsed document @d as a run of this database,
 * inside the caller's transaction: its board type (an existing row of
 * the same fingerprint is kept as it is), the run, every figure, and the
 * unit marked imported at @now from @from.
 * Return: MEMCAL_OK with the new run's id in *@run_id, or the database's
 * code (message on @db).
 */
int fig_doc_store(memcal_db *db, struct fig_doc *d, const char *from,
		  const char *now, int64_t *run_id)
{
	int rc = memcal_db_platform_find(db, d->platform.fingerprint,
					 &d->platform.id);

	if (rc == MEMCAL_ENOTFOUND) {
		snprintf(d->platform.hostname, sizeof(d->platform.hostname),
			 "%s", d->unit.hostname);
		snprintf(d->platform.kernel, sizeof(d->platform.kernel), "%s",
			 d->unit.kernel);
		rc = memcal_db_platform_store(db, &d->platform);
	}
	if (rc)
		return rc;
	d->run.platform_id = d->platform.id;
	rc = memcal_db_run_store(db, &d->run);
	if (!rc)
		rc = fig_run_store(db, d->run.id, &d->fig);
	snprintf(d->unit.imported_at, sizeof(d->unit.imported_at), "%s", now);
	snprintf(d->unit.imported_from, sizeof(d->unit.imported_from), "%s",
		 from);
	if (!rc)
		rc = memcal_db_unit_store(db, d->run.id, &d->unit);
	if (!rc)
		*run_id = d->run.id;
	return rc;
}
