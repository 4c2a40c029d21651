/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mix_lines.h - positions of the settings, workloads and their keys in a
 * mix file, and the shape of its document, for messages about errors
 * found after libcyaml has loaded it (or before, for a document that is
 * not a mapping).
 */
#ifndef MEMTUNE_MIX_LINES_H
#define MEMTUNE_MIX_LINES_H

#include <stdbool.h>
#include <stddef.h>

#define MIX_LINES_MAX 64
#define MIX_LINES_KEYS 16

/**
 * struct mix_line_entry - where one mapping and its keys are.
 * @line:     line of the mapping (1-based).
 * @n_keys:   keys recorded.
 * @key:      key names.
 * @key_line: line of each key.
 * @val_col:  column (1-based) of each key's value.
 */
struct mix_line_entry {
	int line;
	int n_keys;
	char key[MIX_LINES_KEYS][32];
	int key_line[MIX_LINES_KEYS];
	int val_col[MIX_LINES_KEYS];
};

/* Shape of the document's root node. */
enum mix_root {
	MIX_ROOT_NONE = 0,	/* empty, or only comments */
	MIX_ROOT_MAPPING,
	MIX_ROOT_SEQUENCE,
	MIX_ROOT_SCALAR,
};

/**
 * struct mix_lines - positions in one mix file.
 * @root:           shape of the first document's root node.
 * @root_line:      its line; @root_col its column.
 * @top:            the top-level mapping's keys (name, runs, ...).
 * @workloads_line: line of the "workloads" key (0 if absent).
 * @n:              workload entries seen.
 * @wl:             per entry.
 * @nul_line:       line of the first scalar holding a NUL character (an
 *                  escaped "\0", which C strings would cut), 0 if none;
 *                  @nul_col its column.
 * @doc2_line:      line of a second YAML document, 0 if there is none.
 * @err_line:       where libyaml stopped on a syntax or encoding error (0:
 *                  none or unknown); @err_col its column, @err_text its
 *                  reason.
 */
struct mix_lines {
	enum mix_root root;
	int root_line, root_col;
	struct mix_line_entry top;
	int workloads_line;
	int n;
	struct mix_line_entry wl[MIX_LINES_MAX];
	int nul_line, nul_col;
	int doc2_line;
	int err_line, err_col;
	char err_text[128];
};

int tune_mix_lines_scan(const char *buf, size_t len, struct mix_lines *ml);
int tune_mix_lines_key(const struct mix_lines *ml, int idx, const char *key);
int tune_mix_lines_col(const struct mix_lines *ml, int idx, const char *key);

#endif /* MEMTUNE_MIX_LINES_H */
