// SPDX-License-Identifier: GPL-2.0-only
/*
 * mix_lines.c - where things are in a mix file.  libcyaml reports schema
 * errors with their line and column, but the checks memtune makes after
 * loading (a core that does not exist, a duplicate name) need positions
 * too.  This walks the text once with libyaml's event parser and records
 * the shape of the document's root, the line of each top-level key, and
 * for each entry of the top-level "workloads" sequence the line of the
 * entry and of each of its keys, with the column of each value.
 */
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "memcal_status.h"
#include "mix_lines.h"

/*
 * record_key - remember that key @key of mapping @e starts at @line
 * (1-based); silently drops what does not fit.
 */
static void record_key(struct mix_line_entry *e, const char *key, int line)
{
	if (e->n_keys >= MIX_LINES_KEYS)
		return;
	snprintf(e->key[e->n_keys], sizeof(e->key[0]), "%.31s", key);
	e->key_line[e->n_keys] = line;
	e->val_col[e->n_keys] = 0;
	e->n_keys++;
}

/* record_value - the value of @e's last key starts at column @col. */
static void record_value(struct mix_line_entry *e, int col)
{
	if (e->n_keys > 0 && !e->val_col[e->n_keys - 1])
		e->val_col[e->n_keys - 1] = col;
}

/*
 * entry_of - the mapping whose keys are recorded at depth @d: the
 * top-level mapping (depth 0) or a workload entry (depth 2, inside the
 * top-level workloads sequence); NULL for any other.
 */
static struct mix_line_entry *entry_of(struct mix_lines *ml, int d,
				       bool in_wl_seq, int idx)
{
	if (d == 0)
		return &ml->top;
	if (d == 2 && in_wl_seq && idx >= 0 && idx < MIX_LINES_MAX)
		return &ml->wl[idx];
	return NULL;
}

/*
 * offset_pos - 1-based line and column (in bytes) of byte @off of @buf,
 * for libyaml's encoding errors, which give only an offset.
 */
static void offset_pos(const char *buf, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && buf[i]; i++) {
		if (buf[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

/**
 * tune_mix_lines_scan() - record the shape of the document and the positions
 * of its settings, workloads and their keys.
 * @buf: the mix file's text.
 * @len: its length.
 * @ml:  filled; zeroed first.
 *
 * Return: 0, MEMCAL_ENOMEM, or MEMCAL_ESYNTAX when the text cannot be
 * parsed (the caller then
 * reports libcyaml's own error, which names the line).
 */
int tune_mix_lines_scan(const char *buf, size_t len, struct mix_lines *ml)
{
	/* one open mapping or sequence of the document */
	struct frame {
		bool map;		/* mapping (else sequence) */
		bool expect_key;	/* next node in this mapping is a key */
		bool wl_seq;		/* the top-level workloads sequence */
		char key[32];		/* last key seen in this mapping */
	} st[16];
	yaml_parser_t p;
	yaml_event_t ev;
	int d = -1, idx = -1, rc = 0;
	bool root_seen = false;

	memset(ml, 0, sizeof(*ml));
	if (!yaml_parser_initialize(&p))
		return MEMCAL_ENOMEM;
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	for (bool done = false; !done;) {
		struct mix_line_entry *e;
		int line, col;
		bool is_key = false, node = false;

		if (!yaml_parser_parse(&p, &ev)) {
			ml->err_line = (int)p.problem_mark.line + 1;
			ml->err_col = (int)p.problem_mark.column + 1;
			if (p.error == YAML_READER_ERROR)
				offset_pos(buf, p.problem_offset,
					   &ml->err_line, &ml->err_col);
			snprintf(ml->err_text, sizeof(ml->err_text), "%s%s%s",
				 p.problem ? p.problem : "YAML error",
				 p.context ? " " : "",
				 p.context ? p.context : "");
			rc = MEMCAL_ESYNTAX;
			break;
		}
		line = (int)ev.start_mark.line + 1;
		col = (int)ev.start_mark.column + 1;
		node = ev.type == YAML_SCALAR_EVENT ||
		       ev.type == YAML_MAPPING_START_EVENT ||
		       ev.type == YAML_SEQUENCE_START_EVENT ||
		       ev.type == YAML_ALIAS_EVENT;
		if (node && !root_seen) {
			root_seen = true;
			ml->root = ev.type == YAML_MAPPING_START_EVENT ?
				   MIX_ROOT_MAPPING :
				   ev.type == YAML_SEQUENCE_START_EVENT ?
				   MIX_ROOT_SEQUENCE : MIX_ROOT_SCALAR;
			/* "---" with nothing after it is an empty document */
			if (ev.type == YAML_SCALAR_EVENT &&
			    !ev.data.scalar.length &&
			    ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
				ml->root = MIX_ROOT_NONE;
			ml->root_line = line;
			ml->root_col = col;
		}
		if (ev.type == YAML_SCALAR_EVENT && !ml->nul_line &&
		    strlen((char *)ev.data.scalar.value) !=
		    ev.data.scalar.length) {
			ml->nul_line = line;
			ml->nul_col = col;
		}
		if (node && d >= 0 && st[d].map) {
			is_key = st[d].expect_key;
			st[d].expect_key = !st[d].expect_key;
		}
		e = d >= 0 ? entry_of(ml, d, d >= 1 && st[1].wl_seq, idx) :
		    NULL;
		if (is_key && ev.type == YAML_SCALAR_EVENT) {
			snprintf(st[d].key, sizeof(st[d].key), "%.31s",
				 (char *)ev.data.scalar.value);
			if (d == 0 && !strcmp(st[d].key, "workloads"))
				ml->workloads_line = line;
			if (e)
				record_key(e, st[d].key, line);
		} else if (node && e && d >= 0 && st[d].map) {
			record_value(e, col);
		}
		switch (ev.type) {
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (d + 1 >= (int)(sizeof(st) / sizeof(st[0]))) {
				rc = -1;
				done = true;
				break;
			}
			d++;
			memset(&st[d], 0, sizeof(st[d]));
			st[d].map = ev.type == YAML_MAPPING_START_EVENT;
			st[d].expect_key = st[d].map;
			st[d].wl_seq = !st[d].map && d == 1 && st[0].map &&
				       !strcmp(st[0].key, "workloads");
			if (d == 0 && st[d].map)
				ml->top.line = line;
			if (st[d].map && d == 2 && st[1].wl_seq) {
				idx++;
				if (idx < MIX_LINES_MAX)
					ml->wl[idx].line = line;
				ml->n = idx + 1 < MIX_LINES_MAX ?
					idx + 1 : MIX_LINES_MAX;
			}
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			d--;
			break;
		case YAML_DOCUMENT_START_EVENT:
			/* a mix is one document: note where a second starts */
			if (root_seen && !ml->doc2_line) {
				ml->doc2_line = line;
				done = true;
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return rc;
}

/* entry - mapping @idx: a workload (>= 0) or the top level (-1). */
static const struct mix_line_entry *entry(const struct mix_lines *ml,
					  int idx)
{
	if (idx == -1)
		return &ml->top;
	if (idx < 0 || idx >= ml->n || idx >= MIX_LINES_MAX)
		return NULL;
	return &ml->wl[idx];
}

/**
 * tune_mix_lines_key() - line of key @key of workload @idx (-1: the top-level
 * mapping), else the line of that mapping, else 0 when unknown.
 */
int tune_mix_lines_key(const struct mix_lines *ml, int idx, const char *key)
{
	const struct mix_line_entry *e = entry(ml, idx);

	if (!e)
		return 0;
	for (int i = 0; key && i < e->n_keys; i++)
		if (!strcmp(e->key[i], key))
			return e->key_line[i];
	return e->line;
}

/**
 * tune_mix_lines_col() - column of the value of key @key of workload @idx
 * (-1: the top-level mapping), 0 when unknown.
 */
int tune_mix_lines_col(const struct mix_lines *ml, int idx, const char *key)
{
	const struct mix_line_entry *e = entry(ml, idx);

	for (int i = 0; e && key && i < e->n_keys; i++)
		if (!strcmp(e->key[i], key))
			return e->val_col[i];
	return 0;
}
