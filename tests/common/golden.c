// SPDX-License-Identifier: GPL-2.0-only
/* golden.c - the one golden-file comparison every test uses (golden.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "golden.h"

/**
 * golden_check() - @text must equal the contents of @path.
 * @path: golden file.
 * @text: what the test produced.
 *
 * A missing file fails the test with how to create it.
 */
void golden_check(const char *path, const char *text)
{
	char *want = NULL;
	size_t len = 0;
	FILE *f;

	if (getenv("MEMCAL_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		cr_assert_not_null(f, "cannot write %s", path);
		fputs(text, f);
		cr_assert_eq(fclose(f), 0, "cannot write %s", path);
	}
	f = fopen(path, "r");
	cr_assert_not_null(f, "missing %s (MEMCAL_UPDATE_GOLDEN=1 writes it)",
			   path);
	if (getdelim(&want, &len, '\0', f) < 0) {
		free(want);
		want = calloc(1, 1);
	}
	fclose(f);
	cr_expect_str_eq(text, want, "output differs from %s", path);
	free(want);
}
