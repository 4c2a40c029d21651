/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * golden.h - compare a test's output with a golden file.  With
 * MEMCAL_UPDATE_GOLDEN=1 in the environment the file is rewritten first
 * (review the diff before committing it).
 */
#ifndef MEMCAL_TEST_GOLDEN_H
#define MEMCAL_TEST_GOLDEN_H

void golden_check(const char *path, const char *text);

#endif /* MEMCAL_TEST_GOLDEN_H */
