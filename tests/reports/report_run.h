/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_run.h - run `memcal report` / `memtune report` in-process for the
 * tests, with stdout and stderr captured in memory.  It brings golden.h
 * (slurp(), golden_check()) with it.
 */
#ifndef MEMCAL_REPORT_RUN_H
#define MEMCAL_REPORT_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "golden.h"

/**
 * struct run_out - what one command printed.
 * @rc:  exit code.
 * @out: stdout text (malloc'd, NUL-terminated).
 * @err: stderr text (malloc'd).
 */
struct run_out {
	int rc;
	char *out;
	char *err;
};

struct cli_ctx;
typedef int (*run_cmd_fn)(struct cli_ctx *ctx, int argc, char **argv);

int run_command(struct run_out *o, run_cmd_fn fn, const char *tool,
		const char *command, const char *db, const char *const *args);
int run_report(struct run_out *o, const char *tool, const char *db,
	       const char *const *args);
void run_out_free(struct run_out *o);
size_t count_str(const char *hay, const char *needle);

#endif /* MEMCAL_REPORT_RUN_H */
