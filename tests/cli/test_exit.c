// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_exit.c - cli_exit_for(), the one mapping from a library status to
 * an exit code: every enum memcal_status value (read from its header, so
 * a code added later is covered) maps as the table in docs/design.md
 * ("Status codes") says, and the two tools' man pages list exactly the
 * exit codes the function and the parser can give.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memcal_status.h"

#define MAX_CODES 64

struct status_code {
	char name[48];
	int value;
};

/* read_file - the whole of @rel (under the source tree), NUL-terminated. */
static char *read_file(const char *rel)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", MEMCAL_SOURCE_DIR, rel);
	f = fopen(path, "r");
	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* header_codes - the enumerators of enum memcal_status, from its header. */
static size_t header_codes(struct status_code *c)
{
	char *text = read_file("db/status/memcal_status.h");
	char *p = strstr(text, "enum memcal_status {");
	size_t n = 0;

	cr_assert_not_null(p);
	for (char *line = strtok(p, "\n"); line && !strchr(line, '}');
	     line = strtok(NULL, "\n")) {
		char name[48];
		int value;

		if (sscanf(line, " %47[A-Z_] = %d", name, &value) != 2)
			continue;
		cr_assert_lt(n, MAX_CODES);
		snprintf(c[n].name, sizeof(c[n].name), "%s", name);
		c[n++].value = value;
	}
	free(text);
	return n;
}

/*
 * design_exit - the exit code docs/design.md gives @name: its own row,
 * else the "any other" row.
 */
static int design_exit(const char *table, const char *name)
{
	char row[128];
	const char *p;
	int code;

	snprintf(row, sizeof(row), "| `%.47s` | ", name);
	p = strstr(table, row);
	if (!p) {
		p = strstr(table, "| any other `MEMCAL_E*` | ");
		cr_assert_not_null(p, "design.md: no row for %s nor 'any "
				   "other'", name);
		p += strlen("| any other `MEMCAL_E*` | ");
	} else {
		p += strlen(row);
	}
	cr_assert_eq(sscanf(p, "%d", &code), 1, "design.md: row of %s has "
		     "no exit code", name);
	return code;
}

Test(exit, every_status_maps_as_design_md_says)
{
	struct status_code c[MAX_CODES];
	size_t n = header_codes(c);
	char *design = read_file("docs/design.md");
	char *table = strstr(design, "| status | exit code |");
	int rows = 0;

	cr_assert_not_null(table, "design.md has no status -> exit table");
	/* the header reads as it should: 23 codes today, numbered 0.. */
	cr_assert_geq(n, 23, "read %zu codes from memcal_status.h", n);
	for (size_t i = 0; i < n; i++) {
		int want = design_exit(table, c[i].name);

		cr_expect_eq(c[i].value, (int)i, "%s is not %zu", c[i].name,
			     i);
		cr_expect_eq(cli_exit_for(c[i].value), want,
			     "cli_exit_for(%s) = %d, design.md says %d",
			     c[i].name, cli_exit_for(c[i].value), want);
		cr_expect(want == CLI_EXIT_OK || want == CLI_EXIT_FAILURE ||
			  want == CLI_EXIT_UNSUPPORTED, "%s -> %d", c[i].name,
			  want);
	}
	/* every row of the table names a code the header has */
	for (const char *p = strstr(table, "\n| `"); p && p[1] == '|';
	     p = strchr(p + 1, '\n'), rows++) {
		char name[48];
		size_t i;

		if (sscanf(p, "\n| `%47[A-Z_]`", name) != 1) {
			rows--;		/* the "any other" row */
			continue;
		}
		for (i = 0; i < n && strcmp(c[i].name, name); i++)
			;
		cr_expect_lt(i, n, "design.md names %s, not a status", name);
	}
	cr_expect_eq(rows, 2, "design.md table: %d named rows", rows);
	free(design);
}

Test(exit, success_is_zero_and_unknown_is_failure)
{
	cr_expect_eq(cli_exit_for(MEMCAL_OK), 0);
	cr_expect_eq(cli_exit_for(MEMCAL_EUNSUPPORTED), 77);
	cr_expect_eq(cli_exit_for(MEMCAL_ENOMEM), 1);
	/* a value no enumerator has still fails the command */
	cr_expect_eq(cli_exit_for(-1), CLI_EXIT_FAILURE);
	cr_expect_eq(cli_exit_for(1000), CLI_EXIT_FAILURE);
}

Test(exit, help_shown_is_no_exit_code)
{
	cr_expect(CLI_HELP_SHOWN < 0 || CLI_HELP_SHOWN > 255);
}

/*
 * man_codes - the exit codes listed in @page's EXIT STATUS section (".B N"
 * after ".TP"), as a bit set of 0..127.
 */
static unsigned long long man_codes(const char *page, unsigned long long *hi)
{
	char *text = read_file(page);
	char *p = strstr(text, ".SH EXIT STATUS\n");
	char *end;
	unsigned long long lo = 0;

	cr_assert_not_null(p, "%s has no EXIT STATUS", page);
	end = strstr(p + 1, "\n.SH ");
	cr_assert_not_null(end);
	*end = '\0';
	*hi = 0;
	while ((p = strstr(p, ".TP\n.B "))) {
		int code;

		p += strlen(".TP\n.B ");
		cr_assert_eq(sscanf(p, "%d", &code), 1);
		cr_assert(code >= 0 && code < 128);
		if (code < 64)
			lo |= 1ULL << code;
		else
			*hi |= 1ULL << (code - 64);
	}
	free(text);
	return lo;
}

Test(exit, man_pages_list_the_codes_of_cli_exit_for)
{
	static const char *const pages[] = { "man/memcal.1", "man/memtune.1" };

	for (size_t i = 0; i < 2; i++) {
		unsigned long long hi, lo = man_codes(pages[i], &hi);

		/* 0, 1, 77 from cli_exit_for(); 2 from the parser */
		cr_expect_eq(lo, (1ULL << CLI_EXIT_OK) |
			     (1ULL << CLI_EXIT_FAILURE) |
			     (1ULL << CLI_EXIT_USAGE), "%s: %llx", pages[i],
			     lo);
		cr_expect_eq(hi, 1ULL << (CLI_EXIT_UNSUPPORTED - 64),
			     "%s: %llx", pages[i], hi);
	}
}
