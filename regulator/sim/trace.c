// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * trace.c - the trace file reader (format in memreg_sim.h and README.md).
 *
 * One input source of the simulator among others: it only turns a text
 * file into a struct memreg_sim_trace in memory.  Every error names the
 * file and line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "memreg_sim.h"

#define TRACE_LINE_MAX 8192

/**
 * struct trace_reader - parser state
 * @f: input
 * @name: file name for messages
 * @line: current line number
 * @err: message buffer
 * @errlen: its size
 * @status: what the first error was (memcal_status.h)
 */
struct trace_reader {
	FILE *f;
	const char *name;
	unsigned long line;
	char *err;
	size_t errlen;
	int status;
};

/*
 * Format "name:line: message" into the error buffer and note the failure
 * as MEMCAL_ESYNTAX unless a caller noted another; returns that status.
 */
static int trace_error(struct trace_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int trace_error(struct trace_reader *rd, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->err && rd->errlen)
		snprintf(rd->err, rd->errlen, "%s:%lu: %s", rd->name, rd->line, msg);
	if (!rd->status)
		rd->status = MEMCAL_ESYNTAX;
	return rd->status;
}

/*
 * Read the next line that is not blank or a comment into @buf, with the
 * comment stripped and separators (commas, tabs) turned into blanks;
 * *@got says whether there was one (false at end of file).  Returns 0 or
 * the status of the failure.
 */
static int trace_next_line(struct trace_reader *rd, char *buf, size_t len,
			   bool *got)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	*got = false;
	while ((n = getline(&line, &cap, rd->f)) >= 0) {
		char *p;

		rd->line++;
		if (memchr(line, '\0', (size_t)n)) {
			free(line);
			return trace_error(rd, "NUL byte in line");
		}
		if ((size_t)n >= len) {
			free(line);
			return trace_error(rd, "line longer than %zu characters",
					   len - 1);
		}
		memcpy(buf, line, (size_t)n + 1);
		p = strchr(buf, '#');
		if (p)
			*p = '\0';
		for (p = buf; *p; p++)
			if (*p == ',' || *p == '\t' || *p == '\r' || *p == '\n')
				*p = ' ';
		for (p = buf; *p == ' '; p++)
			;
		if (*p) {
			free(line);
			*got = true;
			return 0;
		}
	}
	free(line);
	if (ferror(rd->f)) {
		rd->status = MEMCAL_EIO;
		return trace_error(rd, "read error: %s", strerror(errno));
	}
	return 0;
}

/*
 * Parse an unsigned decimal at *pp (advancing it); MEMCAL_ESYNTAX if there
 * is none.
 */
static int trace_number(char **pp, uint64_t *out)
{
	char *p = *pp, *end;
	unsigned long long v;

	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return MEMCAL_ESYNTAX;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno == ERANGE || (*end && *end != ' '))
		return MEMCAL_ESYNTAX;
	*out = v;
	*pp = end;
	return 0;
}

/* Parse "KEY VALUE" with a numeric value; MEMCAL_ESYNTAX if malformed. */
static int trace_keyval(char *line, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	char *p = line;

	while (*p == ' ')
		p++;
	if (strncmp(p, key, n) || p[n] != ' ')
		return MEMCAL_ESYNTAX;
	p += n;
	if (trace_number(&p, v))
		return MEMCAL_ESYNTAX;
	while (*p == ' ')
		p++;
	return *p ? MEMCAL_ESYNTAX : 0;
}

/* Parse the header up to and including "data". */
static int trace_header(struct trace_reader *rd, char *buf,
			struct memreg_sim_trace_buf *out, int *bytes)
{
	uint64_t v, tick = 0, cores = 0, bpe = 0;
	bool got;
	int rc;

	rc = trace_next_line(rd, buf, TRACE_LINE_MAX, &got);
	if (rc)
		return rc;
	if (!got)
		return trace_error(rd, "empty file: expected 'memreg-trace 1'");
	if (trace_keyval(buf, "memreg-trace", &v) || v != 1)
		return trace_error(rd, "not a memreg trace: first line must be 'memreg-trace 1'");
	*bytes = 0;
	for (;;) {
		char word[32];

		rc = trace_next_line(rd, buf, TRACE_LINE_MAX, &got);
		if (rc)
			return rc;
		if (!got)
			return trace_error(rd, "missing 'data' line");
		if (sscanf(buf, " %31s", word) != 1)
			return trace_error(rd, "malformed header line");
		if (!strcmp(word, "data")) {
			break;
		} else if (!strcmp(word, "tick_ns")) {
			if (trace_keyval(buf, "tick_ns", &tick) || !tick)
				return trace_error(rd, "tick_ns must be a positive integer");
		} else if (!strcmp(word, "cores")) {
			if (trace_keyval(buf, "cores", &cores) || !cores ||
			    cores > MEMREG_MAX_CPUS)
				return trace_error(rd, "cores must be 1..%d", MEMREG_MAX_CPUS);
		} else if (!strcmp(word, "bytes_per_event")) {
			if (trace_keyval(buf, "bytes_per_event", &bpe) || !bpe ||
			    bpe > 1u << 20)
				return trace_error(rd, "bytes_per_event must be 1..1048576");
		} else if (!strcmp(word, "unit")) {
			char unit[32], extra[2];

			if (sscanf(buf, " unit %31s %1s", unit, extra) != 1)
				return trace_error(rd, "unit must be 'events' or 'bytes'");
			if (!strcmp(unit, "bytes"))
				*bytes = 1;
			else if (strcmp(unit, "events"))
				return trace_error(rd, "unit must be 'events' or 'bytes', not '%s'",
						   unit);
		} else {
			return trace_error(rd, "unknown header key '%s'", word);
		}
	}
	if (!tick)
		return trace_error(rd, "header lacks tick_ns");
	if (!cores)
		return trace_error(rd, "header lacks cores");
	if (*bytes && !bpe)
		return trace_error(rd, "unit bytes needs bytes_per_event");
	out->trace.tick_ns = tick;
	out->trace.nr_cores = (uint32_t)cores;
	out->bytes_per_event = (uint32_t)bpe;
	return 0;
}

int memreg_sim_trace_parse(FILE *f, const char *name,
			   struct memreg_sim_trace_buf *out,
			   char *err, size_t errlen)
{
	struct trace_reader rd = { f, name ? name : "trace", 0, err, errlen,
				   MEMCAL_OK };
	size_t cap = 0, n = 0, per;
	uint64_t *data = NULL;
	char *buf;
	int bytes = 0, rc;
	bool got;

	memset(out, 0, sizeof(*out));
	buf = malloc(TRACE_LINE_MAX);
	if (!buf) {
		rd.status = MEMCAL_ENOMEM;
		trace_error(&rd, "out of memory");
		return rd.status;
	}
	if (trace_header(&rd, buf, out, &bytes))
		goto fail;
	per = (size_t)out->trace.nr_cores * 2;
	while (!(rc = trace_next_line(&rd, buf, TRACE_LINE_MAX, &got)) && got) {
		char *p = buf;
		size_t i;

		if (n + per > cap) {
			size_t ncap = cap ? cap * 2 : per * 1024;
			uint64_t *nd = realloc(data, ncap * sizeof(*nd));

			if (!nd) {
				rd.status = MEMCAL_ENOMEM;
				trace_error(&rd, "out of memory");
				goto fail;
			}
			data = nd;
			cap = ncap;
		}
		for (i = 0; i < per; i++) {
			uint64_t v;

			if (trace_number(&p, &v)) {
				while (*p == ' ')
					p++;
				if (!*p)
					trace_error(&rd, "expected %zu numbers (read and write per core), got %zu",
						    per, i);
				else
					trace_error(&rd, "not a non-negative integer: '%.20s'", p);
				goto fail;
			}
			data[n + i] = bytes ? v / out->bytes_per_event : v;
		}
		while (*p == ' ')
			p++;
		if (*p) {
			trace_error(&rd, "more than %zu numbers on a data line", per);
			goto fail;
		}
		n += per;
	}
	if (rc)
		goto fail;
	if (!n) {
		trace_error(&rd, "trace has no data lines");
		goto fail;
	}
	free(buf);
	out->data = data;
	out->trace.events = data;
	out->trace.nr_ticks = n / per;
	return 0;
fail:
	free(buf);
	free(data);
	memset(out, 0, sizeof(*out));
	return rd.status ? rd.status : MEMCAL_ESYNTAX;
}

void memreg_sim_trace_free(struct memreg_sim_trace_buf *buf)
{
	if (!buf)
		return;
	free(buf->data);
	memset(buf, 0, sizeof(*buf));
}
