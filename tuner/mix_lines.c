// SPDX-License-Identifier: GPL-2.0-only
/*
 * mix_lines.c - where things are in a mix file.  libcyaml reports schema
 * errors with their line and column, but the checks memtune makes after
 * loading (a core that does not exist, a duplicate name) need positions
 * too.  This walks the file once with libyaml's event parser and records,
 * for each entry of the top-level "workloads" sequence, the line of the
 * entry and of each of its keys.
 */
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "mix_lines.h"

/*
 * record_key - remember that key @key of workload @idx starts at @line
 * (1-based); silently drops what does not fit.
 */
static void record_key(struct mix_lines *ml, int idx, const char *key,
		       int line)
{
	struct mix_line_entry *e;

	if (idx < 0 || idx >= MIX_LINES_MAX)
		return;
	e = &ml->wl[idx];
	if (e->n_keys >= MIX_LINES_KEYS)
		return;
	snprintf(e->key[e->n_keys], sizeof(e->key[0]), "%.31s", key);
	e->key_line[e->n_keys] = line;
	e->n_keys++;
}

/**
 * mix_lines_scan() - record the positions of workloads and their keys.
 * @path: the mix file.
 * @ml:   filled; zeroed first.
 *
 * Return: 0, or -1 when the file cannot be read or parsed (the caller then
 * reports libcyaml's own error, which names the line).
 */
int mix_lines_scan(const char *path, struct mix_lines *ml)
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
	FILE *f = fopen(path, "r");
	int d = -1, idx = -1, rc = 0;

	memset(ml, 0, sizeof(*ml));
	if (!f)
		return -1;
	if (!yaml_parser_initialize(&p)) {
		fclose(f);
		return -1;
	}
	yaml_parser_set_input_file(&p, f);
	for (bool done = false; !done;) {
		int line;
		bool is_key = false, node = false;

		if (!yaml_parser_parse(&p, &ev)) {
			rc = -1;
			break;
		}
		line = (int)ev.start_mark.line + 1;
		node = ev.type == YAML_SCALAR_EVENT ||
		       ev.type == YAML_MAPPING_START_EVENT ||
		       ev.type == YAML_SEQUENCE_START_EVENT ||
		       ev.type == YAML_ALIAS_EVENT;
		if (node && d >= 0 && st[d].map) {
			is_key = st[d].expect_key;
			st[d].expect_key = !st[d].expect_key;
		}
		if (is_key && ev.type == YAML_SCALAR_EVENT) {
			snprintf(st[d].key, sizeof(st[d].key), "%.31s",
				 (char *)ev.data.scalar.value);
			if (d == 0 && !strcmp(st[d].key, "workloads"))
				ml->workloads_line = line;
			if (d == 2 && st[1].wl_seq)
				record_key(ml, idx, st[d].key, line);
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
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	fclose(f);
	return rc;
}

/**
 * mix_lines_key() - line of key @key of workload @idx, else the line of
 * the workload's entry, else 0 when unknown.
 */
int mix_lines_key(const struct mix_lines *ml, int idx, const char *key)
{
	const struct mix_line_entry *e;

	if (idx < 0 || idx >= ml->n || idx >= MIX_LINES_MAX)
		return 0;
	e = &ml->wl[idx];
	for (int i = 0; key && i < e->n_keys; i++)
		if (!strcmp(e->key[i], key))
			return e->key_line[i];
	return e->line;
}
