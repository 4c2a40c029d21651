// SPDX-License-Identifier: GPL-2.0-only
/* test_notes.c - cli_note_vadd(): a table of sentences in fixed slots. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"

static char tab[3][16];
static size_t n;

static void add(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	CLI_NOTE_VADD(tab, &n, fmt, ap);
	va_end(ap);
}

Test(notes, said_once_cut_visibly_dropped_when_full)
{
	add("cpu %d idle", 1);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(tab[0], "cpu 1 idle");
	add("cpu %d idle", 1);
	cr_assert_eq(n, 1, "a sentence already in the table is not added again");
	add("a sentence longer than %d bytes", 16);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(tab[1], "a sentenc [...]", "the cut shows: '%s'", tab[1]);
	cr_assert_eq(strlen(tab[1]), sizeof(tab[1]) - 1, "the slot is filled");
	add("third");
	add("fourth");
	cr_assert_eq(n, 3, "a full table drops the sentence");
	cr_assert_str_eq(tab[2], "third");
}
