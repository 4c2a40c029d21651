/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mix_lines.h - positions of workloads and their keys in a mix file, for
 * messages about errors found after libcyaml has loaded it.
 */
#ifndef MEMTUNE_MIX_LINES_H
#define MEMTUNE_MIX_LINES_H

#include <stdbool.h>

#define MIX_LINES_MAX 64
#define MIX_LINES_KEYS 16

/**
 * struct mix_line_entry - where one workload entry and its keys are.
 * @line:     line of the entry (1-based).
 * @n_keys:   keys recorded.
 * @key:      key names.
 * @key_line: line of each key.
 */
struct mix_line_entry {
	int line;
	int n_keys;
	char key[MIX_LINES_KEYS][32];
	int key_line[MIX_LINES_KEYS];
};

/**
 * struct mix_lines - positions in one mix file.
 * @workloads_line: line of the "workloads" key (0 if absent).
 * @n:              workload entries seen.
 * @wl:             per entry.
 */
struct mix_lines {
	int workloads_line;
	int n;
	struct mix_line_entry wl[MIX_LINES_MAX];
};

int mix_lines_scan(const char *path, struct mix_lines *ml);
int mix_lines_key(const struct mix_lines *ml, int idx, const char *key);

#endif /* MEMTUNE_MIX_LINES_H */
