// SPDX-License-Identifier: GPL-2.0-only
/*
 * mix.c - load and check a workload mix file (see mix.h).  libcyaml does
 * the YAML and the schema; its error messages, which carry the line and
 * column, arrive through the log callback and are collected here.  The
 * consistency checks made afterwards name their line through mix_lines.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cyaml/cyaml.h>
#include <jansson.h>

#include "mix.h"
#include "mix_lines.h"

/**
 * struct raw_workload - one workload as libcyaml loads it (optional
 * fields are pointers, NULL when absent).
 * @name, @command, @argv, @argv_count: identity and command.
 * @criticality: CRIT_RT or CRIT_BE.
 * @cpu, @period_us, @deadline_us, @read_mbps, @write_mbps: optional.
 */
struct raw_workload {
	char *name;
	char *command;
	char **argv;
	unsigned argv_count;
	int criticality;
	int *cpu;
	uint32_t *period_us;
	uint32_t *deadline_us;
	uint64_t *read_mbps;
	uint64_t *write_mbps;
};

/**
 * struct raw_mix - the whole file as libcyaml loads it.
 * @name: mix name.
 * @runs, @percentile, @margin_pct: optional settings.
 * @workloads, @workloads_count: the sequence.
 */
struct raw_mix {
	char *name;
	uint32_t *runs;
	uint32_t *percentile;
	uint32_t *margin_pct;
	struct raw_workload *workloads;
	unsigned workloads_count;
};

enum { CRIT_RT = 0, CRIT_BE = 1 };

static const cyaml_strval_t crit_strings[] = {
	{ "rt", CRIT_RT },
	{ "be", CRIT_BE },
	{ "best-effort", CRIT_BE },
	{ "real-time", CRIT_RT },
};

static const cyaml_schema_value_t string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t workload_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct raw_workload,
			       name, 1, 63),
	CYAML_FIELD_STRING_PTR("command", CYAML_FLAG_POINTER |
			       CYAML_FLAG_OPTIONAL, struct raw_workload,
			       command, 1, 4096),
	CYAML_FIELD_SEQUENCE("argv", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct raw_workload, argv, &string_entry, 1,
			     MIX_MAX_ARGS),
	CYAML_FIELD_ENUM("criticality", CYAML_FLAG_DEFAULT,
			 struct raw_workload, criticality, crit_strings,
			 CYAML_ARRAY_LEN(crit_strings)),
	CYAML_FIELD_INT_PTR("cpu", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			    struct raw_workload, cpu),
	CYAML_FIELD_UINT_PTR("period_us", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, struct raw_workload,
			     period_us),
	CYAML_FIELD_UINT_PTR("deadline_us", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, struct raw_workload,
			     deadline_us),
	CYAML_FIELD_UINT_PTR("read_mbps", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, struct raw_workload,
			     read_mbps),
	CYAML_FIELD_UINT_PTR("write_mbps", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, struct raw_workload,
			     write_mbps),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t workload_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_workload,
			    workload_fields),
};

static const cyaml_schema_field_t mix_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct raw_mix,
			       name, 1, 127),
	CYAML_FIELD_UINT_PTR("runs", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct raw_mix, runs),
	CYAML_FIELD_UINT_PTR("percentile", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, struct raw_mix, percentile),
	CYAML_FIELD_UINT_PTR("margin_pct", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, struct raw_mix, margin_pct),
	CYAML_FIELD_SEQUENCE("workloads", CYAML_FLAG_POINTER, struct raw_mix,
			     workloads, &workload_entry, 1, MIX_MAX_WORKLOADS),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t mix_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_mix, mix_fields),
};

/**
 * struct log_buf - collects libcyaml's error messages.
 * @text: concatenated messages, newlines turned into "; ".
 * @len:  bytes used.
 */
struct log_buf {
	char text[MIX_ERR_LEN];
	size_t len;
};

/*
 * cyaml_log_collect - libcyaml log callback: keep error-level lines (the
 * message and its backtrace, which names line and column).
 */
static void cyaml_log_collect(cyaml_log_t level, void *ctx, const char *fmt,
			      va_list args)
{
	struct log_buf *b = ctx;
	char line[256];
	size_t n;

	if (level < CYAML_LOG_ERROR || b->len + 4 >= sizeof(b->text))
		return;
	vsnprintf(line, sizeof(line), fmt, args);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	if (!strncmp(line, "Load: ", 6))
		memmove(line, line + 6, strlen(line + 6) + 1);
	for (char *p = line; *p == ' ';)
		memmove(p, p + 1, strlen(p));
	if (!line[0] || !strcmp(line, "Backtrace:"))
		return;
	b->len += (size_t)snprintf(b->text + b->len, sizeof(b->text) - b->len,
				   "%s%s", b->len ? "; " : "", line);
	if (b->len >= sizeof(b->text))
		b->len = sizeof(b->text) - 1;
}

/**
 * mix_split_command() - split @cmd on blanks into a NULL-terminated argv.
 * @cmd:  the string command; nothing in it is interpreted (no quotes,
 *        no variables, no globbing).
 * @argv: set to a malloc'd vector of malloc'd strings.
 * @argc: set to the number of words.
 *
 * Return: MIX_OK, MIX_EINVAL for an empty command, MIX_ENOMEM.
 */
int mix_split_command(const char *cmd, char ***argv, int *argc)
{
	char **v = calloc(MIX_MAX_ARGS + 1, sizeof(*v));
	int n = 0;

	if (!v)
		return MIX_ENOMEM;
	for (const char *p = cmd; *p;) {
		const char *s;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (n == MIX_MAX_ARGS) {
			for (int i = 0; i < n; i++)
				free(v[i]);
			free(v);
			return MIX_EINVAL;
		}
		v[n] = strndup(s, (size_t)(p - s));
		if (!v[n++]) {
			for (int i = 0; i < n; i++)
				free(v[i]);
			free(v);
			return MIX_ENOMEM;
		}
	}
	if (!n) {
		free(v);
		return MIX_EINVAL;
	}
	*argv = v;
	*argc = n;
	return MIX_OK;
}

/* errf - format an error naming @path and, when known, @line. */
static int errf(char *err, size_t len, int rc, const char *path, int line,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int errf(char *err, size_t len, int rc, const char *path, int line,
		const char *fmt, ...)
{
	va_list ap;
	int n;

	n = line > 0 ? snprintf(err, len, "%s: line %d: ", path, line) :
		       snprintf(err, len, "%s: ", path);
	if (n < 0 || (size_t)n >= len)
		return rc;
	va_start(ap, fmt);
	vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * syntax_error - turn libcyaml's collected log into "FILE: line L, column
 * C: message (where)": the position is the innermost one of the backtrace,
 * or for a missing key the entry that lacks it.
 */
static int syntax_error(const struct log_buf *log, cyaml_err_t cerr,
			const char *path, char *err, size_t len)
{
	const char *text = log->len ? log->text : cyaml_strerror(cerr);
	const char *pos = strstr(text, "(line: ");
	const char *semi = strchr(text, ';');
	int line = 0, col = 0;

	if (cerr == CYAML_ERR_OOM)
		return errf(err, len, MIX_ENOMEM, path, 0, "out of memory");
	if (!strncmp(text, "Missing required", 16) &&
	    strstr(text, "sequence entry"))
		pos = strstr(strstr(text, "sequence entry"), "(line: ");
	if (pos)
		sscanf(pos, "(line: %d, column: %d)", &line, &col);
	if (!strncmp(text, "Unexpected key: ", 16)) {
		/* libcyaml marks the end of the previous value: find the key */
		struct mix_lines *ml = calloc(1, sizeof(*ml));
		char key[32] = "";

		sscanf(text + 16, "%31[^; ]", key);
		if (ml && !mix_lines_scan(path, ml))
			for (int i = 0; i < ml->n; i++)
				for (int k = 0; k < ml->wl[i].n_keys; k++)
					if (!strcmp(ml->wl[i].key[k], key)) {
						line = ml->wl[i].key_line[k];
						col = 0;
					}
		free(ml);
	}
	if (line > 0 && strstr(text, "mapping field 'criticality'") &&
	    strstr(text, "Invalid"))
		snprintf(err, len, "%s: line %d, column %d: criticality must be "
			 "'rt' (real-time) or 'be' (best-effort)", path, line,
			 col);
	else if (line > 0)
		snprintf(err, len, "%s: line %d%s%.0d: %.*s (%s)", path, line,
			 col ? ", column " : "", col,
			 semi ? (int)(semi - text) : (int)strlen(text), text,
			 semi ? semi + 2 : "");
	else
		snprintf(err, len, "%s: %s", path, text);
	return MIX_ESYNTAX;
}

/* copy_argv - duplicate libcyaml's argv sequence into @w. */
static int copy_argv(struct mix_workload *w, char **src, unsigned n)
{
	w->argv = calloc(n + 1, sizeof(char *));
	if (!w->argv)
		return MIX_ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		w->argv[i] = strdup(src[i]);
		if (!w->argv[i])
			return MIX_ENOMEM;
	}
	w->argc = (int)n;
	return MIX_OK;
}

/*
 * normalise - check one raw workload and fill @w; errors name the line of
 * the offending key through @ml.
 */
static int normalise(const struct raw_workload *r, int idx,
		     const struct mix_lines *ml, const char *path,
		     struct mix_workload *w, char *err, size_t len)
{
	int line = mix_lines_key(ml, idx, "name");
	int rc;

	snprintf(w->name, sizeof(w->name), "%s", r->name);
	w->line = line;
	w->rt = r->criticality == CRIT_RT;
	w->cpu = r->cpu ? *r->cpu : -1;
	w->read_bps = r->read_mbps ? (double)*r->read_mbps * 1e6 : -1;
	w->write_bps = r->write_mbps ? (double)*r->write_mbps * 1e6 : -1;
	if (r->cpu && *r->cpu < 0)
		return errf(err, len, MIX_EINVAL, path,
			    mix_lines_key(ml, idx, "cpu"), "workload '%s': "
			    "cpu must be an OS CPU number >= 0, not %d",
			    w->name, *r->cpu);
	if (!!r->command == !!r->argv)
		return errf(err, len, MIX_EINVAL, path, line, "workload '%s': "
			    "give exactly one of 'command' (a string, split on "
			    "blanks) or 'argv' (a list)", w->name);
	if (r->command) {
		rc = mix_split_command(r->command, &w->argv, &w->argc);
		if (rc)
			return errf(err, len, rc, path,
				    mix_lines_key(ml, idx, "command"),
				    "workload '%s': command is empty or has "
				    "more than %d words", w->name,
				    MIX_MAX_ARGS);
	} else if (copy_argv(w, r->argv, r->argv_count)) {
		return errf(err, len, MIX_ENOMEM, path, line, "out of memory");
	}
	if (r->period_us)
		w->period_ns = (uint64_t)*r->period_us * 1000;
	if (r->deadline_us)
		w->deadline_ns = (uint64_t)*r->deadline_us * 1000;
	else if (w->rt)
		w->deadline_ns = w->period_ns;
	if (w->rt && !w->deadline_ns)
		return errf(err, len, MIX_EINVAL, path,
			    mix_lines_key(ml, idx, "criticality"),
			    "workload '%s' is real-time but gives neither "
			    "'deadline_us' nor 'period_us'", w->name);
	if (!w->rt && (r->period_us || r->deadline_us))
		return errf(err, len, MIX_EINVAL, path,
			    mix_lines_key(ml, idx, r->deadline_us ?
					  "deadline_us" : "period_us"),
			    "workload '%s' is best-effort: 'period_us' and "
			    "'deadline_us' apply to real-time workloads only",
			    w->name);
	if (w->rt && w->period_ns && w->deadline_ns > w->period_ns)
		return errf(err, len, MIX_EINVAL, path,
			    mix_lines_key(ml, idx, "deadline_us"),
			    "workload '%s': deadline_us exceeds period_us",
			    w->name);
	return MIX_OK;
}

/*
 * check_mix - consistency across workloads: unique names; a real-time
 * workload pinned to a core that no other workload is pinned to.
 */
static int check_mix(struct mix *m, const struct mix_lines *ml, char *err,
		     size_t len)
{
	for (int i = 0; i < m->n; i++)
		for (int j = 0; j < i; j++) {
			const struct mix_workload *a = &m->wl[j], *b = &m->wl[i];

			if (!strcmp(a->name, b->name))
				return errf(err, len, MIX_EINVAL, m->path,
					    mix_lines_key(ml, i, "name"),
					    "workload name '%s' is used twice "
					    "(first on line %d)", b->name,
					    a->line);
			if (a->cpu >= 0 && a->cpu == b->cpu && (a->rt || b->rt))
				return errf(err, len, MIX_EINVAL, m->path,
					    mix_lines_key(ml, i, "cpu"),
					    "workloads '%s' and '%s' share "
					    "cpu %d, but a real-time workload "
					    "needs a core of its own", a->name,
					    b->name, b->cpu);
		}
	return MIX_OK;
}

/**
 * mix_load() - read, parse and check a mix file.
 * @path:   the YAML file.
 * @m:      filled on success (free with mix_free()); zeroed first.
 * @err:    receives "FILE: line N[, column C]: what is wrong" on error.
 * @errlen: size of @err.
 *
 * Return: MIX_OK or a MIX_E* code.
 */
int mix_load(const char *path, struct mix *m, char *err, size_t errlen)
{
	struct log_buf log = { .len = 0 };
	const cyaml_config_t cfg = {
		.log_fn = cyaml_log_collect, .log_ctx = &log,
		.mem_fn = cyaml_mem, .log_level = CYAML_LOG_ERROR,
		.flags = CYAML_CFG_DEFAULT,
	};
	struct raw_mix *raw = NULL;
	struct mix_lines *ml;
	cyaml_err_t cerr;
	FILE *probe;
	int rc = MIX_OK;

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	probe = fopen(path, "r");
	if (!probe)
		return errf(err, errlen, MIX_EIO, path, 0, "cannot read the "
			    "mix file: %s", strerror(errno));
	fclose(probe);
	cerr = cyaml_load_file(path, &cfg, &mix_schema, (cyaml_data_t **)&raw,
			       NULL);
	if (cerr != CYAML_OK)
		return syntax_error(&log, cerr, path, err, errlen);
	ml = calloc(1, sizeof(*ml));
	if (!ml) {
		cyaml_free(&cfg, &mix_schema, raw, 0);
		return MIX_ENOMEM;
	}
	mix_lines_scan(path, ml);
	snprintf(m->name, sizeof(m->name), "%s", raw->name);
	m->runs = raw->runs ? *raw->runs : 3;
	m->percentile = raw->percentile ? *raw->percentile : 99;
	m->margin_pct = raw->margin_pct ? *raw->margin_pct : 20;
	if (m->runs < 1 || m->runs > 50)
		rc = errf(err, errlen, MIX_EINVAL, path, 0, "runs must be "
			  "1..50, not %u", m->runs);
	else if (m->percentile < 50 || m->percentile > 100)
		rc = errf(err, errlen, MIX_EINVAL, path, 0, "percentile must "
			  "be 50..100, not %g", m->percentile);
	else if (m->margin_pct > 400)
		rc = errf(err, errlen, MIX_EINVAL, path, 0, "margin_pct must "
			  "be 0..400, not %g", m->margin_pct);
	for (unsigned i = 0; !rc && i < raw->workloads_count; i++) {
		rc = normalise(&raw->workloads[i], (int)i, ml, path,
			       &m->wl[i], err, errlen);
		m->n = (int)i + 1;
	}
	if (!rc)
		rc = check_mix(m, ml, err, errlen);
	cyaml_free(&cfg, &mix_schema, raw, 0);
	free(ml);
	if (rc)
		mix_free(m);
	return rc;
}

/**
 * mix_check_cpus() - refuse a mix that pins a workload to a CPU that does
 * not exist on this board.
 * @cpu_exists: per OS CPU number, whether it exists (online).
 * @nr_cpus:    entries in @cpu_exists.
 *
 * Return: MIX_OK or MIX_EINVAL with @err naming the line.
 */
int mix_check_cpus(const struct mix *m, const bool *cpu_exists, int nr_cpus,
		   char *err, size_t errlen)
{
	for (int i = 0; i < m->n; i++) {
		const struct mix_workload *w = &m->wl[i];

		if (w->cpu >= 0 && (w->cpu >= nr_cpus || !cpu_exists[w->cpu]))
			return errf(err, errlen, MIX_EINVAL, m->path, w->line,
				    "workload '%s' names cpu %d, which does "
				    "not exist on this board (it has %d CPUs, "
				    "0-%d)", w->name, w->cpu, nr_cpus,
				    nr_cpus - 1);
	}
	return MIX_OK;
}

/** mix_find() - index of the workload named @name, or -1. */
int mix_find(const struct mix *m, const char *name)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->wl[i].name, name))
			return i;
	return -1;
}

/** mix_argv_json() - the command of @w as a JSON array (malloc'd text). */
char *mix_argv_json(const struct mix_workload *w)
{
	json_t *a = json_array();
	char *s;

	for (int i = 0; a && i < w->argc; i++)
		json_array_append_new(a, json_string(w->argv[i]));
	s = a ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	return s;
}

/** mix_free() - release the argument vectors of @m. */
void mix_free(struct mix *m)
{
	for (int i = 0; i < MIX_MAX_WORKLOADS; i++) {
		struct mix_workload *w = &m->wl[i];

		for (int k = 0; w->argv && w->argv[k]; k++)
			free(w->argv[k]);
		free(w->argv);
		w->argv = NULL;
		w->argc = 0;
	}
	m->n = 0;
}
