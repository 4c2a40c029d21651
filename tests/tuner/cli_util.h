/* SPDX-License-Identifier: GPL-2.0-only */
/* cli_util.h - helpers of the memtune end-to-end tests (cli_util.c). */
#ifndef MEMTUNE_TEST_CLI_UTIL_H
#define MEMTUNE_TEST_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "golden.h"
#include "shell.h"

#define MEMTUNE MEMCAL_BINARY_DIR "/tuner/memtune"
#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/mix/"

/**
 * struct out - a finished memtune run.
 * @rc:   exit status.
 * @text: stdout, then stderr.
 * @out:  stdout alone (the JSON document with --json).
 */
struct out {
	int rc;
	char text[65536];
	char out[65536];
};

void run(struct out *o, const char *const *args);
json_t *json_result(const char *out, json_error_t *je);
void scratch(char *dir, size_t len);
void seed(const char *dbpath, double bps, double ovh_ns);
void seed_family(const char *dbpath, const double *gbs);
void seed_fp(const char *dbpath, double bps, double ovh_ns,
	     const char *fingerprint);
void write_mix(const char *dir, char *path, size_t len, const char *body);
extern const char small_mix[];
void this_fingerprint(char *out, size_t len);
void get(const char *dir, const char *name, char *buf, size_t len);
void fake_sysfs(const char *dir, char *root, size_t len, bool rt_exempt);

#endif /* MEMTUNE_TEST_CLI_UTIL_H */
