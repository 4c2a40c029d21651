// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_quote.c - how the exporters write a value into a generated file
 * so that it stays one value: escaped for a comment or a unit
 * description, single-quoted for sh, quoted for a systemd command line
 * (with its specifier and variable rules), or refused where the file's
 * syntax cannot carry it.  Every name and path an exporter interpolates
 * goes through one of these.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "export.h"

/* put - append @c to @buf at *@n when it fits; false when it does not. */
static bool put(char *buf, size_t len, size_t *n, char c)
{
	if (*n + 1 >= len)
		return false;
	buf[(*n)++] = c;
	buf[*n] = '\0';
	return true;
}

/* is_cc - a control character: C0, DEL or the lead of a UTF-8 C1. */
static bool is_cc(const unsigned char *p)
{
	return *p < 0x20 || *p == 0x7f ||
	       (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
}

/**
 * tune_export_printable() - @s with every control character and backslash
 * written as \xNN, so that it stays on one line of a comment or a unit
 * setting; with @unit, '%' is doubled as well (systemd specifiers).
 * @buf: receives the text (cut, never overrun, when @len is short).
 *
 * Return: @buf.
 */
const char *tune_export_printable(const char *s, bool unit, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char hex[8];
		bool ok = true;

		if (is_cc(p) || *p == '\\') {
			snprintf(hex, sizeof(hex), "\\x%02x", *p);
			for (char *h = hex; *h && ok; h++)
				ok = put(buf, len, &n, *h);
		} else if (unit && *p == '%') {
			ok = put(buf, len, &n, '%') && put(buf, len, &n, '%');
		} else {
			ok = put(buf, len, &n, (char)*p);
		}
		if (!ok)
			break;
	}
	return buf;
}

/* plain - whether @s is non-empty and needs no quoting in sh or a unit. */
static bool plain(const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				   "/._+-:,=@";

	return s[0] && !s[strspn(s, safe)];
}

/**
 * tune_export_sh_quote() - @s as one sh word: as it is when it holds only
 * characters sh gives no meaning to, else in single quotes with each
 * quote written as '\''.  Everything but NUL can be quoted so.
 *
 * Return: 0, or -1 when @len is too small.
 */
int tune_export_sh_quote(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	bool ok;

	if (plain(s))
		return snprintf(buf, len, "%s", s) < (int)len ? 0 : -1;
	ok = put(buf, len, &n, '\'');

	for (const char *p = s; ok && *p; p++)
		if (*p == '\'')
			ok = put(buf, len, &n, '\'') && put(buf, len, &n, '\\') &&
			     put(buf, len, &n, '\'') && put(buf, len, &n, '\'');
		else
			ok = put(buf, len, &n, *p);
	return ok && put(buf, len, &n, '\'') ? 0 : -1;
}

/**
 * tune_export_unit_arg() - @s as one argument of a systemd Exec*= line: as it
 * is when it holds only characters systemd gives no meaning to, else in
 * double quotes, with backslash and double quote escaped (systemd's
 * C-style unescaping inside quotes), '%' doubled (specifiers) and '$'
 * doubled (environment variable expansion).
 * @exe: @s is the executable: systemd refuses an executable name with a
 *       quote or a backslash in it, whatever the quoting.
 *
 * Return: 0, or MEMCAL_EREFUSED with @why set when @s has a control
 * character (or,
 * for @exe, a quote or a backslash), is not an absolute path, or does
 * not fit in @len.
 */
int tune_export_unit_arg(const char *s, bool exe, char *buf, size_t len,
		    const char **why)
{
	size_t n = 0;
	bool ok;

	*why = NULL;
	if (s[0] != '/')
		*why = "is not an absolute path (a unit runs with no working "
		       "directory)";
	for (const unsigned char *p = (const unsigned char *)s; *p && !*why;
	     p++)
		if (is_cc(p))
			*why = "holds a control character, which a unit file "
			       "cannot carry";
		else if (exe && strchr("'\"\\", *p))
			*why = "holds a quote or a backslash, which systemd "
			       "refuses in an executable name";
	if (*why)
		return MEMCAL_EREFUSED;
	if (plain(s)) {
		if (snprintf(buf, len, "%s", s) < (int)len)
			return 0;
		*why = "is too long";
		return MEMCAL_EREFUSED;
	}
	ok = put(buf, len, &n, '"');
	for (const char *p = s; ok && *p; p++) {
		if (*p == '\\' || *p == '"')
			ok = put(buf, len, &n, '\\');
		else if (*p == '%' || *p == '$')
			ok = put(buf, len, &n, *p);
		ok = ok && put(buf, len, &n, *p);
	}
	if (ok && put(buf, len, &n, '"'))
		return 0;
	*why = "is too long";
	return MEMCAL_EREFUSED;
}

/**
 * tune_export_refuse() - record why the export cannot be written and return
 * MEMCAL_EREFUSED.
 */
int tune_export_refuse(struct export_warnings *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->error, sizeof(w->error), fmt, ap);
	va_end(ap);
	return MEMCAL_EREFUSED;
}
