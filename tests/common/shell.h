/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shell.h - what the tests that drive the tools as a user would need: run
 * a command line and keep what it printed, write a small file.  Failures
 * of the test's own machinery (no shell, no memory, a file that cannot be
 * created) fail the test with Criterion's asserts.
 */
#ifndef MEMCAL_TEST_SHELL_H
#define MEMCAL_TEST_SHELL_H

#include <stddef.h>

int test_sh(const char *cmd, char **out);
int test_sh_buf(const char *cmd, char *out, size_t len);
void test_put(const char *dir, const char *name, const char *text);

#endif /* MEMCAL_TEST_SHELL_H */
