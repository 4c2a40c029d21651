// SPDX-License-Identifier: GPL-2.0-only
/*
 * mix.c - load and check a workload mix file (see mix.h).  libcyaml does
 * the YAML and the schema; its error messages, which carry the line and
 * column, arrive through the log callback and are collected here.  The
 * consistency checks made afterwards name their line through mix_lines.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cyaml/cyaml.h>
#include <jansson.h>

#include "memreg.h"
#include "mix.h"
#include "mix_lines.h"

/**
 * struct raw_workload - one workload as libcyaml loads it (optional
 * fields are pointers, NULL when absent).  Numbers arrive as their text
 * and are checked by parse_number(), so that a fraction, a sign or a
 * value out of range is refused with its range instead of being
 * truncated or wrapped.
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
	char *cpu;
	char *period_us;
	char *deadline_us;
	char *read_mbps;
	char *write_mbps;
};

/**
 * struct raw_mix - the whole file as libcyaml loads it.
 * @name: mix name.
 * @runs, @percentile, @margin_pct, @rt_exempt: optional settings, as text.
 * @workloads, @workloads_count: the sequence.
 */
struct raw_mix {
	char *name;
	char *runs;
	char *percentile;
	char *margin_pct;
	char *rt_exempt;
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

/* An optional scalar read as text (numbers are parsed by parse_number). */
#define OPT_TEXT(key, type, member)					\
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER |		\
			       CYAML_FLAG_OPTIONAL, type, member, 0, 4096)

static const cyaml_schema_field_t workload_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct raw_workload,
			       name, 0, 4096),
	CYAML_FIELD_STRING_PTR("command", CYAML_FLAG_POINTER |
			       CYAML_FLAG_OPTIONAL, struct raw_workload,
			       command, 1, 4096),
	CYAML_FIELD_SEQUENCE("argv", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct raw_workload, argv, &string_entry, 1,
			     MIX_MAX_ARGS),
	CYAML_FIELD_ENUM("criticality", CYAML_FLAG_DEFAULT,
			 struct raw_workload, criticality, crit_strings,
			 CYAML_ARRAY_LEN(crit_strings)),
	OPT_TEXT("cpu", struct raw_workload, cpu),
	OPT_TEXT("period_us", struct raw_workload, period_us),
	OPT_TEXT("deadline_us", struct raw_workload, deadline_us),
	OPT_TEXT("read_mbps", struct raw_workload, read_mbps),
	OPT_TEXT("write_mbps", struct raw_workload, write_mbps),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t workload_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_workload,
			    workload_fields),
};

static const cyaml_schema_field_t mix_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct raw_mix,
			       name, 0, 4096),
	OPT_TEXT("runs", struct raw_mix, runs),
	OPT_TEXT("percentile", struct raw_mix, percentile),
	OPT_TEXT("margin_pct", struct raw_mix, margin_pct),
	OPT_TEXT("rt_exempt", struct raw_mix, rt_exempt),
	CYAML_FIELD_SEQUENCE("workloads", CYAML_FLAG_POINTER, struct raw_mix,
			     workloads, &workload_entry, 1, MIX_MAX_WORKLOADS),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t mix_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_mix, mix_fields),
};

/**
 * struct num_rule - what one numeric setting accepts.
 * @key:     its key in the file.
 * @integer: whole numbers only (else a decimal fraction is kept exactly
 *           as written, to double precision).
 * @min:     smallest value accepted.
 * @max:     largest value accepted.
 * @unit:    unit and reason shown in the message.
 */
struct num_rule {
	const char *key;
	bool integer;
	double min, max;
	const char *unit;
};

/*
 * The ranges: a job period and deadline inside what memreg can regulate
 * (MEMREG_PERIOD_MIN_NS..MEMREG_PERIOD_MAX_NS); a declared need at most
 * 10^7 MB/s (10 TB/s, above any memory system); a percentile of at least
 * the median, since a real-time budget below the median demand throttles
 * half the periods.
 */
static const struct num_rule rules[] = {
	{ "runs", true, 1, 50, "solo runs per workload" },
	{ "percentile", false, 50, 100, "percent of the periods" },
	{ "margin_pct", false, 0, 400, "percent" },
	{ "cpu", true, 0, 4095, "an OS CPU number" },
	{ "period_us", true, MEMREG_PERIOD_MIN_NS / 1000,
	  MEMREG_PERIOD_MAX_NS / 1000, "us, memreg's period range" },
	{ "deadline_us", true, MEMREG_PERIOD_MIN_NS / 1000,
	  MEMREG_PERIOD_MAX_NS / 1000, "us, memreg's period range" },
	{ "read_mbps", false, 0, 1e7, "MB/s" },
	{ "write_mbps", false, 0, 1e7, "MB/s" },
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
 * tune_mix_split_command() - split @cmd on blanks into a NULL-terminated argv.
 * @cmd:  the string command; nothing in it is interpreted (no quotes,
 *        no variables, no globbing).
 * @argv: set to a malloc'd vector of malloc'd strings.
 * @argc: set to the number of words.
 *
 * Return: MEMCAL_OK, MEMCAL_EINVAL for an empty command, MEMCAL_ENOMEM.
 */
int tune_mix_split_command(const char *cmd, char ***argv, int *argc)
{
	char **v = calloc(MIX_MAX_ARGS + 1, sizeof(*v));
	int n = 0;

	if (!v)
		return MEMCAL_ENOMEM;
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
			return MEMCAL_EINVAL;
		}
		v[n] = strndup(s, (size_t)(p - s));
		if (!v[n++]) {
			for (int i = 0; i < n; i++)
				free(v[i]);
			free(v);
			return MEMCAL_ENOMEM;
		}
	}
	if (!n) {
		free(v);
		return MEMCAL_EINVAL;
	}
	*argv = v;
	*argc = n;
	return MEMCAL_OK;
}

/*
 * errf - format an error naming @path and, when known, @line and @col
 * ("FILE: line L, column C: ...").
 */
static int errf(char *err, size_t len, int rc, const char *path, int line,
		int col, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
static int errf(char *err, size_t len, int rc, const char *path, int line,
		int col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (line > 0 && col > 0)
		n = snprintf(err, len, "%s: line %d, column %d: ", path, line,
			     col);
	else if (line > 0)
		n = snprintf(err, len, "%s: line %d: ", path, line);
	else
		n = snprintf(err, len, "%s: ", path);
	if (n < 0 || (size_t)n >= len)
		return rc;
	va_start(ap, fmt);
	vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * key_line - line of key @key in any mapping recorded in @ml (top level
 * first, then the workloads), 0 if none.
 */
static int key_line(const struct mix_lines *ml, const char *key)
{
	for (int k = 0; k < ml->top.n_keys; k++)
		if (!strcmp(ml->top.key[k], key))
			return ml->top.key_line[k];
	for (int i = 0; i < ml->n; i++)
		for (int k = 0; k < ml->wl[i].n_keys; k++)
			if (!strcmp(ml->wl[i].key[k], key))
				return ml->wl[i].key_line[k];
	return 0;
}

/*
 * syntax_error - turn libcyaml's collected log into "FILE: line L, column
 * C: message (where)": the position is the innermost one of the backtrace,
 * or for a missing key the entry that lacks it.
 */
static int syntax_error(const struct log_buf *log, cyaml_err_t cerr,
			const struct mix_lines *ml, const char *path,
			char *err, size_t len)
{
	const char *text = log->len ? log->text : cyaml_strerror(cerr);
	const char *pos = strstr(text, "(line: ");
	const char *semi = strchr(text, ';');
	int line = 0, col = 0;

	if (cerr == CYAML_ERR_OOM)
		return errf(err, len, MEMCAL_ENOMEM, path, 0, 0, "out of memory");
	if (!strncmp(text, "Missing required", 16) &&
	    strstr(text, "sequence entry"))
		pos = strstr(strstr(text, "sequence entry"), "(line: ");
	if (pos)
		sscanf(pos, "(line: %d, column: %d)", &line, &col);
	if (!pos && ml->err_line > 0)
		return errf(err, len, MEMCAL_ESYNTAX, path, ml->err_line,
			    ml->err_col, "%s", ml->err_text);
	if (!strncmp(text, "Unexpected key: ", 16)) {
		/* libcyaml marks the end of the previous value: find the key */
		char key[32] = "";

		sscanf(text + 16, "%31[^; ]", key);
		if (key_line(ml, key)) {
			line = key_line(ml, key);
			col = 0;
		}
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
	return MEMCAL_ESYNTAX;
}

/**
 * read_text() - the whole mix file, read once into memory, so that every
 * later step (libcyaml, the position scan) sees the same bytes and a pipe
 * can be read at all.
 * @path: the file: a regular file, a pipe or a character device; a
 *        directory is refused, and so is anything over MIX_MAX_BYTES.
 * @buf:  set to the malloc'd text, NUL-terminated.
 * @len:  set to its length.
 *
 * A FIFO is opened without blocking, so one that no program writes to
 * reads as empty instead of hanging.
 *
 * Return: MEMCAL_OK, MEMCAL_EIO or MEMCAL_ENOMEM with @err naming @path.
 */
static int read_text(const char *path, char **buf, size_t *len, char *err,
		     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t n = 0;
	struct stat st;
	char *b;

	if (fd < 0)
		return errf(err, errlen, MEMCAL_EIO, path, 0, 0, "cannot read the "
			    "mix file: %s", strerror(errno));
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		return errf(err, errlen, MEMCAL_EIO, path, 0, 0, "cannot read "
			    "the mix file: %s", strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return errf(err, errlen, MEMCAL_EIO, path, 0, 0, "is a directory: "
			    "give the mix file (YAML) itself");
	}
	if (S_ISREG(st.st_mode) && st.st_size > MIX_MAX_BYTES) {
		close(fd);
		return errf(err, errlen, MEMCAL_EIO, path, 0, 0, "is %lld bytes: "
			    "a mix file is at most %d bytes",
			    (long long)st.st_size, MIX_MAX_BYTES);
	}
	/* blocking reads from here: a pipe with a writer is read to its end */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	b = malloc(MIX_MAX_BYTES + 2);
	if (!b) {
		close(fd);
		return MEMCAL_ENOMEM;
	}
	while (n <= MIX_MAX_BYTES) {
		ssize_t got = read(fd, b + n, MIX_MAX_BYTES + 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			close(fd);
			free(b);
			return errf(err, errlen, MEMCAL_EIO, path, 0, 0, "cannot "
				    "read the mix file: %s", strerror(e));
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (!n && S_ISFIFO(st.st_mode)) {
		free(b);
		return errf(err, errlen, MEMCAL_EIO, path, 0, 0, "is a pipe that "
			    "no program is writing to: start the writer "
			    "first, or give the mix file itself");
	}
	if (n > MIX_MAX_BYTES) {
		free(b);
		return errf(err, errlen, MEMCAL_EIO, path, 0, 0, "holds more than "
			    "%d bytes: a mix file is at most that", MIX_MAX_BYTES);
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return MEMCAL_OK;
}

/*
 * shape_error - refuse a document that is not a mapping (empty, only
 * comments, a scalar, a list) or that holds a NUL character, before
 * libcyaml, which has no position for these.  MEMCAL_OK when it is a
 * mapping.
 */
static int shape_error(const struct mix_lines *ml, const char *path,
		       char *err, size_t len)
{
	if (ml->root == MIX_ROOT_NONE)
		return errf(err, len, MEMCAL_ESYNTAX, path, 0, 0, "the mix file "
			    "is empty (or holds only comments): it needs at "
			    "least 'name:' and 'workloads:' (see "
			    "memtune(1), THE MIX FILE)");
	if (ml->root != MIX_ROOT_MAPPING)
		return errf(err, len, MEMCAL_ESYNTAX, path, ml->root_line,
			    ml->root_col, "a mix file is a mapping of settings "
			    "('name: ...', 'workloads: ...'), not a %s",
			    ml->root == MIX_ROOT_SCALAR ? "single value" :
			    "list");
	if (ml->nul_line)
		return errf(err, len, MEMCAL_ESYNTAX, path, ml->nul_line,
			    ml->nul_col, "a value holds a NUL character "
			    "(\\0), which no name, command or number may hold");
	if (ml->doc2_line)
		return errf(err, len, MEMCAL_ESYNTAX, path, ml->doc2_line, 0,
			    "a second YAML document starts here: a mix file "
			    "is one document");
	return MEMCAL_OK;
}

/*
 * bad_char - the first control character of @s (C0, DEL or a UTF-8
 * encoded C1), as a pointer to it, or NULL.
 */
static const char *bad_char(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f ||
		    (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return (const char *)p;
	return NULL;
}

/*
 * check_name - a mix or workload name (@what) must be 1..@max bytes of
 * printable text: names are written into generated files (unit
 * descriptions, script comments) and reports, where a newline or an
 * escape sequence would inject a line or garble a terminal.
 */
static int check_name(const char *s, const char *what, size_t max,
		      const char *path, int line, int col, char *err,
		      size_t len)
{
	const char *bad = bad_char(s);

	if (!s[0])
		return errf(err, len, MEMCAL_EINVAL, path, line, col, "%s is "
			    "empty: give it 1 to %zu characters", what, max);
	if (strlen(s) > max)
		return errf(err, len, MEMCAL_EINVAL, path, line, col, "%s is %zu "
			    "bytes long: the most is %zu", what, strlen(s),
			    max);
	if (bad)
		return errf(err, len, MEMCAL_EINVAL, path, line, col, "%s holds "
			    "a control character (byte 0x%02x at offset %d): "
			    "names are printable text, no newline, tab or "
			    "escape", what, (unsigned char)*bad,
			    (int)(bad - s));
	return MEMCAL_OK;
}

/*
 * number_syntax - whether @s is a plain decimal number: digits with, when
 * @fraction, an optional ".digits" part; no sign, exponent, hex, blanks.
 */
static bool number_syntax(const char *s, bool fraction)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s)
		return false;
	if (fraction && *p == '.') {
		const char *f = ++p;

		while (*p >= '0' && *p <= '9')
			p++;
		if (p == f)
			return false;
	}
	return !*p;
}

/*
 * parse_number - @text of key @key (workload @who, NULL for a top-level
 * setting) checked against its rule; the value in @v.  The message gives
 * the range, the unit and the position of the value.
 */
static int parse_number(const char *text, const char *key, const char *who,
			const struct mix_lines *ml, int idx, const char *path,
			double *v, char *err, size_t len)
{
	const struct num_rule *r = NULL;
	char pre[96] = "";

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].key, key))
			r = &rules[i];
	if (!r)
		return errf(err, len, MEMCAL_EINVAL, path, 0, 0, "internal: no "
			    "rule for '%s'", key);
	if (who)
		snprintf(pre, sizeof(pre), "workload '%s': ", who);
	if (number_syntax(text, !r->integer)) {
		errno = 0;
		*v = strtod(text, NULL);
		if (!errno && *v >= r->min && *v <= r->max)
			return MEMCAL_OK;
	}
	return errf(err, len, MEMCAL_EINVAL, path, tune_mix_lines_key(ml, idx, key),
		    tune_mix_lines_col(ml, idx, key), "%s%s must be %s from %.15g "
		    "to %.15g (%s), not '%s'", pre, key, r->integer ?
		    "a whole number" : "a number (decimals allowed)", r->min,
		    r->max, r->unit, text);
}

/* copy_argv - duplicate libcyaml's argv sequence into @w. */
static int copy_argv(struct mix_workload *w, char **src, unsigned n)
{
	w->argv = calloc(n + 1, sizeof(char *));
	if (!w->argv)
		return MEMCAL_ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		w->argv[i] = strdup(src[i]);
		if (!w->argv[i])
			return MEMCAL_ENOMEM;
	}
	w->argc = (int)n;
	return MEMCAL_OK;
}

/*
 * numbers - parse the optional numeric fields of workload @idx into @w:
 * cpu (-1 when absent), period and deadline in ns (0 when absent), needs
 * in bytes/s (-1 when absent).
 */
static int numbers(const struct raw_workload *r, int idx,
		   const struct mix_lines *ml, const char *path,
		   struct mix_workload *w, char *err, size_t len)
{
	const struct {
		const char *key;
		const char *text;
	} f[] = {
		{ "cpu", r->cpu }, { "period_us", r->period_us },
		{ "deadline_us", r->deadline_us },
		{ "read_mbps", r->read_mbps }, { "write_mbps", r->write_mbps },
	};
	double v[5];

	for (int i = 0; i < 5; i++) {
		v[i] = -1;
		if (f[i].text && parse_number(f[i].text, f[i].key, w->name, ml,
					      idx, path, &v[i], err, len))
			return MEMCAL_EINVAL;
	}
	w->cpu = (int)v[0];
	w->period_ns = v[1] < 0 ? 0 : (uint64_t)v[1] * 1000;
	w->deadline_ns = v[2] < 0 ? 0 : (uint64_t)v[2] * 1000;
	w->read_bps = v[3] < 0 ? -1 : v[3] * 1e6;
	w->write_bps = v[4] < 0 ? -1 : v[4] * 1e6;
	return MEMCAL_OK;
}

/*
 * normalise - check one raw workload and fill @w; errors name the line of
 * the offending key through @ml.
 */
static int normalise(const struct raw_workload *r, int idx,
		     const struct mix_lines *ml, const char *path,
		     struct mix_workload *w, char *err, size_t len)
{
	int line = tune_mix_lines_key(ml, idx, "name");
	int rc;

	rc = check_name(r->name, "workload name", sizeof(w->name) - 1, path,
			line, tune_mix_lines_col(ml, idx, "name"), err, len);
	if (rc)
		return rc;
	snprintf(w->name, sizeof(w->name), "%s", r->name);
	w->line = line;
	w->rt = r->criticality == CRIT_RT;
	rc = numbers(r, idx, ml, path, w, err, len);
	if (rc)
		return rc;
	if (!!r->command == !!r->argv)
		return errf(err, len, MEMCAL_EINVAL, path, line, 0, "workload "
			    "'%s': give exactly one of 'command' (a string, "
			    "split on blanks) or 'argv' (a list)", w->name);
	if (r->command) {
		rc = tune_mix_split_command(r->command, &w->argv, &w->argc);
		if (rc)
			return errf(err, len, rc, path,
				    tune_mix_lines_key(ml, idx, "command"), 0,
				    "workload '%s': command is empty or has "
				    "more than %d words", w->name,
				    MIX_MAX_ARGS);
	} else if (copy_argv(w, r->argv, r->argv_count)) {
		return errf(err, len, MEMCAL_ENOMEM, path, line, 0,
			    "out of memory");
	}
	if (!r->deadline_us && w->rt)
		w->deadline_ns = w->period_ns;
	if (w->rt && !w->deadline_ns)
		return errf(err, len, MEMCAL_EINVAL, path,
			    tune_mix_lines_key(ml, idx, "criticality"), 0,
			    "workload '%s' is real-time but gives neither "
			    "'deadline_us' nor 'period_us'", w->name);
	if (!w->rt && (r->period_us || r->deadline_us))
		return errf(err, len, MEMCAL_EINVAL, path,
			    tune_mix_lines_key(ml, idx, r->deadline_us ?
					  "deadline_us" : "period_us"), 0,
			    "workload '%s' is best-effort: 'period_us' and "
			    "'deadline_us' apply to real-time workloads only",
			    w->name);
	if (w->rt && w->period_ns && w->deadline_ns > w->period_ns)
		return errf(err, len, MEMCAL_EINVAL, path,
			    tune_mix_lines_key(ml, idx, "deadline_us"), 0,
			    "workload '%s': deadline_us exceeds period_us",
			    w->name);
	return MEMCAL_OK;
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
				return errf(err, len, MEMCAL_EINVAL, m->path,
					    tune_mix_lines_key(ml, i, "name"), 0,
					    "workload name '%s' is used twice "
					    "(first on line %d)", b->name,
					    a->line);
			if (a->cpu >= 0 && a->cpu == b->cpu && (a->rt || b->rt))
				return errf(err, len, MEMCAL_EINVAL, m->path,
					    tune_mix_lines_key(ml, i, "cpu"), 0,
					    "workloads '%s' and '%s' share "
					    "cpu %d, but a real-time workload "
					    "needs a core of its own", a->name,
					    b->name, b->cpu);
		}
	return MEMCAL_OK;
}

/*
 * settings - the mix's name and top-level settings, checked, into @m
 * (defaults: 3 runs, 99th percentile, 20 % margin).
 */
static int settings(const struct raw_mix *raw, const struct mix_lines *ml,
		    struct mix *m, char *err, size_t len)
{
	double v;
	int rc;

	rc = check_name(raw->name, "the mix name", sizeof(m->name) - 1,
			m->path, tune_mix_lines_key(ml, -1, "name"),
			tune_mix_lines_col(ml, -1, "name"), err, len);
	if (rc)
		return rc;
	snprintf(m->name, sizeof(m->name), "%s", raw->name);
	m->runs = 3;
	m->percentile = 99;
	m->margin_pct = 20;
	if (raw->runs) {
		rc = parse_number(raw->runs, "runs", NULL, ml, -1, m->path, &v,
				  err, len);
		m->runs = (unsigned)v;
	}
	if (!rc && raw->percentile)
		rc = parse_number(raw->percentile, "percentile", NULL, ml, -1,
				  m->path, &m->percentile, err, len);
	if (!rc && raw->margin_pct)
		rc = parse_number(raw->margin_pct, "margin_pct", NULL, ml, -1,
				  m->path, &m->margin_pct, err, len);
	if (!rc && raw->rt_exempt) {
		m->rt_exempt = !strcmp(raw->rt_exempt, "true");
		if (!m->rt_exempt && strcmp(raw->rt_exempt, "false"))
			rc = errf(err, len, MEMCAL_EINVAL, m->path,
				  tune_mix_lines_key(ml, -1, "rt_exempt"),
				  tune_mix_lines_col(ml, -1, "rt_exempt"),
				  "rt_exempt must be true or false (monitor the "
				  "real-time cores but never throttle them), "
				  "not '%s'", raw->rt_exempt);
	}
	return rc;
}

/**
 * tune_mix_load() - read, parse and check a mix file; the one loader every
 * command that takes a mix goes through.
 * @path:   the YAML file (a regular file, a pipe or a character device).
 * @m:      filled on success (free with tune_mix_free()); zeroed first.
 * @err:    receives "FILE: line N[, column C]: what is wrong" on error.
 * @errlen: size of @err.
 *
 * Return: MEMCAL_OK or a MIX_E* code.
 */
int tune_mix_load(const char *path, struct mix *m, char *err, size_t errlen)
{
	struct log_buf log = { .len = 0 };
	const cyaml_config_t cfg = {
		.log_fn = cyaml_log_collect, .log_ctx = &log,
		.mem_fn = cyaml_mem, .log_level = CYAML_LOG_ERROR,
		.flags = CYAML_CFG_DEFAULT,
	};
	struct raw_mix *raw = NULL;
	struct mix_lines *ml = NULL;
	cyaml_err_t cerr;
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	rc = read_text(path, &text, &len, err, errlen);
	if (rc)
		return rc;
	ml = calloc(1, sizeof(*ml));
	if (!ml) {
		free(text);
		return MEMCAL_ENOMEM;
	}
	/* a text libyaml cannot parse is left to libcyaml's message, with
	 * libyaml's own position when libcyaml gives none */
	if (!tune_mix_lines_scan(text, len, ml))
		rc = shape_error(ml, path, err, errlen);
	if (!rc) {
		cerr = cyaml_load_data((const uint8_t *)text, len, &cfg,
				       &mix_schema, (cyaml_data_t **)&raw, NULL);
		if (cerr != CYAML_OK)
			rc = syntax_error(&log, cerr, ml, path, err, errlen);
		else if (!raw)	/* an empty document loads as nothing */
			rc = errf(err, errlen, MEMCAL_ESYNTAX, path, 0, 0, "the "
				  "mix file holds no mapping: it needs at "
				  "least 'name:' and 'workloads:'");
	}
	if (!rc)
		rc = settings(raw, ml, m, err, errlen);
	for (unsigned i = 0; !rc && i < raw->workloads_count; i++) {
		rc = normalise(&raw->workloads[i], (int)i, ml, path,
			       &m->wl[i], err, errlen);
		m->n = (int)i + 1;
	}
	if (!rc)
		rc = check_mix(m, ml, err, errlen);
	if (raw)
		cyaml_free(&cfg, &mix_schema, raw, 0);
	free(ml);
	free(text);
	if (rc)
		tune_mix_free(m);
	return rc;
}

/**
 * tune_mix_check_cpus() - refuse a mix that pins a workload to a CPU that does
 * not exist on this board.
 * @cpu_exists: per OS CPU number, whether it exists (online).
 * @nr_cpus:    entries in @cpu_exists.
 *
 * Return: MEMCAL_OK or MEMCAL_EINVAL with @err naming the line.
 */
int tune_mix_check_cpus(const struct mix *m, const bool *cpu_exists, int nr_cpus,
		   char *err, size_t errlen)
{
	for (int i = 0; i < m->n; i++) {
		const struct mix_workload *w = &m->wl[i];

		if (w->cpu >= 0 && (w->cpu >= nr_cpus || !cpu_exists[w->cpu]))
			return errf(err, errlen, MEMCAL_EINVAL, m->path, w->line, 0,
				    "workload '%s' names cpu %d, which does "
				    "not exist on this board (it has %d CPUs, "
				    "0-%d)", w->name, w->cpu, nr_cpus,
				    nr_cpus - 1);
	}
	return MEMCAL_OK;
}

/** tune_mix_find() - index of the workload named @name, or TUNE_MIX_NONE. */
int tune_mix_find(const struct mix *m, const char *name)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->wl[i].name, name))
			return i;
	return TUNE_MIX_NONE;
}

/** tune_mix_argv_json() - the command of @w as a JSON array (malloc'd text). */
char *tune_mix_argv_json(const struct mix_workload *w)
{
	json_t *a = json_array();
	char *s;

	for (int i = 0; a && i < w->argc; i++)
		json_array_append_new(a, json_string(w->argv[i]));
	s = a ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	return s;
}

/** tune_mix_free() - release the argument vectors of @m. */
void tune_mix_free(struct mix *m)
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
