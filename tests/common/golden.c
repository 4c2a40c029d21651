// SPDX-License-Identifier: GPL-2.0-only
/*
 * golden.c - the one golden-file comparison every test uses, and the
 * whole-file read it is built on (golden.h).
 */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"

/**
 * slurp() - the whole of @path as a NUL-terminated string.
 * @path: file to read.
 *
 * Binary files are read whole (the NUL added after the last byte).
 *
 * Return: the text (malloc'd), or NULL when @path cannot be read.
 */
char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	buf[len] = '\0';
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* updating - whether MEMCAL_UPDATE_GOLDEN asks for the files rewritten. */
static bool updating(void)
{
	const char *v = getenv("MEMCAL_UPDATE_GOLDEN");

	return v && *v && strcmp(v, "0");
}

/* line_of - the 1-based line of byte @at in @s. */
static unsigned line_of(const char *s, size_t at)
{
	unsigned line = 1;

	for (size_t i = 0; i < at; i++)
		line += s[i] == '\n';
	return line;
}

/**
 * golden_check() - @text must equal the contents of @path.
 * @path: golden file.
 * @text: what the test produced.
 *
 * A difference fails the test (and it goes on) with the first differing
 * line and byte; a missing file fails it with how to create it.
 */
void golden_check(const char *path, const char *text)
{
	char *want;
	size_t i = 0;

	if (updating()) {
		FILE *f = fopen(path, "w");

		cr_assert_not_null(f, "cannot write %s", path);
		fputs(text, f);
		cr_assert_eq(fclose(f), 0, "cannot write %s", path);
	}
	want = slurp(path);
	cr_assert_not_null(want, "missing %s (MEMCAL_UPDATE_GOLDEN=1 writes it)",
			   path);
	while (text[i] && text[i] == want[i])
		i++;
	cr_expect(!text[i] && !want[i],
		  "%s differs at line %u (byte %zu): got \"%.60s\", want "
		  "\"%.60s\" (MEMCAL_UPDATE_GOLDEN=1 rewrites it)", path,
		  line_of(text, i), i, text + i, want + i);
	free(want);
}
