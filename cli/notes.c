// SPDX-License-Identifier: GPL-2.0-only
/*
 * notes.c - the sentences a command collects for its reader (a report's
 * warnings, a tuned configuration's explanations), kept in a table of
 * fixed slots: cli_note_vadd(), and cli_note_add() for a format's own
 * arguments.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void cli_note_vadd(char *tab, size_t len, size_t max, size_t *n, const char *fmt, va_list ap)
{
	static const char more[] = " [...]";
	char *slot = tab + *n * len;

	if (*n >= max || len < sizeof(more))
		return;
	if (vsnprintf(slot, len, fmt, ap) >= (int)len)
		memcpy(slot + len - sizeof(more), more, sizeof(more));
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(tab + i * len, slot))
			return;		/* said already */
	(*n)++;
}

void cli_note_add(char *tab, size_t len, size_t max, size_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_note_vadd(tab, len, max, n, fmt, ap);
	va_end(ap);
}
