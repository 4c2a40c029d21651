/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mix.h - the workload mix file (YAML, read with libcyaml).
 *
 *   name: example                 # mix name (profiles are stored under it)
 *   runs: 3                       # solo repetitions per workload (1..50)
 *   percentile: 99                # trace percentile sizing RT budgets
 *                                 # (50..100, decimals kept: 99.9)
 *   margin_pct: 20                # added on top of that percentile (0..400)
 *   rt_exempt: false              # true: real-time cores monitored, never
 *                                 # throttled; best-effort budgets leave
 *                                 # room for their profiled demand
 *   workloads:
 *     - name: control             # unique within the mix
 *       argv: [memcal-load, compute, --ms, "200"]   # or
 *       command: "memcal-load compute --ms 200"     # split on whitespace
 *       criticality: rt           # rt | be
 *       period_us: 10000          # rt: job period (deadline defaults to it)
 *       deadline_us: 8000         # rt: relative deadline
 *       cpu: 1                    # optional OS CPU number
 *       read_mbps: 200            # optional declared need (MB/s, 10^6 B)
 *       write_mbps: 50
 *
 * Every error names the file, line and column.  Commands are argv lists
 * run with execvp(); a string command is split on blanks, never handed to
 * a shell.  Names are 1..63 (mix: 127) bytes of printable text: no
 * control character, since they are written into generated files.
 * Numbers are plain decimals inside the range of their setting: whole
 * numbers for runs, cpu, period_us and deadline_us (10..1000000 us, the
 * regulator's period range), decimals allowed for percentile, margin_pct
 * and the needs (0..10^7 MB/s); a sign, an exponent or a fraction where a
 * whole number is expected is refused, never truncated.  The file is a
 * regular file, a pipe or a character device of at most MIX_MAX_BYTES.
 */
#ifndef MEMTUNE_MIX_H
#define MEMTUNE_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcal_status.h"

#define MIX_MAX_WORKLOADS 64
#define MIX_MAX_ARGS 64
#define MIX_ERR_LEN 512
#define MIX_MAX_BYTES (1 << 20)	/* largest mix file read */

/**
 * struct mix_workload - one workload of a mix, normalised.
 * @name:        unique name.
 * @argv:        NULL-terminated argument vector (malloc'd).
 * @argc:        number of arguments.
 * @rt:          real-time (true) or best-effort.
 * @cpu:         OS CPU number, or -1 when the planner chooses.
 * @period_ns:   real-time job period (0 if none given).
 * @deadline_ns: real-time relative deadline (0 for best-effort).
 * @read_bps, @write_bps: declared need in bytes/s, or -1 when not declared.
 * @line:        line of the workload's entry in the file (for messages).
 */
struct mix_workload {
	char name[64];
	char **argv;
	int argc;
	bool rt;
	int cpu;
	uint64_t period_ns;
	uint64_t deadline_ns;
	double read_bps, write_bps;
	int line;
};

/**
 * struct mix - a parsed, checked mix file.
 * @name:       mix name.
 * @path:       file it came from.
 * @runs:       solo repetitions per workload.
 * @percentile: trace percentile that sizes real-time budgets (50..100).
 * @margin_pct: margin added on top of it, percent.
 * @rt_exempt:  real-time cores are monitored but never throttled.
 * @n:          number of workloads.
 * @wl:         the workloads.
 */
struct mix {
	char name[128];
	char path[512];
	unsigned runs;
	double percentile;
	double margin_pct;
	bool rt_exempt;
	int n;
	struct mix_workload wl[MIX_MAX_WORKLOADS];
};

int tune_mix_load(const char *path, struct mix *m, char *err, size_t errlen);
int tune_mix_check_cpus(const struct mix *m, const bool *cpu_exists, int nr_cpus,
		   char *err, size_t errlen);
void tune_mix_free(struct mix *m);
int tune_mix_split_command(const char *cmd, char ***argv, int *argc);
/* What tune_mix_find() returns for a name the mix does not have. */
#define TUNE_MIX_NONE (-1)
int tune_mix_find(const struct mix *m, const char *name);
char *tune_mix_argv_json(const struct mix_workload *w);

#endif /* MEMTUNE_MIX_H */
