/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * golden.h - compare a test's output with a golden file, and read a whole
 * file.  With MEMCAL_UPDATE_GOLDEN set to anything but "" or "0" in the
 * environment, golden_check() rewrites the file first (review the diff
 * before committing it).
 */
#ifndef MEMCAL_TEST_GOLDEN_H
#define MEMCAL_TEST_GOLDEN_H

char *slurp(const char *path);
void golden_check(const char *path, const char *text);

#endif /* MEMCAL_TEST_GOLDEN_H */
