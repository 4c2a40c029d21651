// SPDX-License-Identifier: GPL-2.0-only
/*
 * shell.c - run a command line for a test and keep its standard output;
 * write a file of a test's making.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "shell.h"

/**
 * test_sh() - run @cmd with sh; its whole standard output, NUL-terminated,
 * into *@out (malloc'd; NULL @out: dropped).
 * Return: the exit status, or -1 when the command did not exit.
 */
int test_sh(const char *cmd, char **out)
{
	size_t n = 0, cap = 1 << 12;
	char *buf = malloc(cap);
	FILE *p;
	int st;

	cr_assert_not_null(buf);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "popen %s", cmd);
	for (size_t r; (r = fread(buf + n, 1, cap - n - 1, p)) > 0;) {
		n += r;
		if (n + 1 == cap) {
			buf = realloc(buf, cap *= 2);
			cr_assert_not_null(buf);
		}
	}
	buf[n] = '\0';
	st = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/**
 * test_sh_buf() - test_sh() with the output cut to fit @out (@len bytes,
 * NUL included).
 * Return: the exit status, or -1 when the command did not exit.
 */
int test_sh_buf(const char *cmd, char *out, size_t len)
{
	char *all;
	int rc = test_sh(cmd, &all);

	snprintf(out, len, "%s", all);
	free(all);
	return rc;
}

/* test_put() - write @text into @dir/@name, replacing what was there. */
void test_put(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f, "create %s", path);
	cr_assert_eq(fputs(text, f) < 0, 0, "write %s", path);
	cr_assert_eq(fclose(f), 0, "write %s", path);
}
