// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_raw.c - key=value fields of the guest's raw lines, and medians
 * (ovh_raw.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovh_raw.h"

/* ovh_field - the value of " KEY=" in @line into @buf; 0 or -1. */
int ovh_field(const char *line, const char *key, char *buf, size_t len)
{
	char pat[40];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	n = strcspn(p, " \r\n");
	if (n >= len)
		return -1;
	memcpy(buf, p, n);
	buf[n] = 0;
	return 0;
}

/*
 * number - " KEY=" of @line, whole: a signed decimal into *@s when @s is
 * not NULL, else an unsigned number in @base into *@u; 0 or -1.
 */
static int number(const char *line, const char *key, int base,
		  long long *s, unsigned long long *u)
{
	char b[32], *end;

	if (ovh_field(line, key, b, sizeof(b)))
		return -1;
	errno = 0;
	if (s)
		*s = strtoll(b, &end, base);
	else
		*u = strtoull(b, &end, base);
	return errno || end == b || *end ? -1 : 0;
}

/* ovh_num - the decimal integer " KEY=" of @line into @v; 0 or -1. */
int ovh_num(const char *line, const char *key, long long *v)
{
	return number(line, key, 10, v, NULL);
}

/* ovh_hex - the hexadecimal " KEY=" of @line into @v; 0 or -1. */
int ovh_hex(const char *line, const char *key, unsigned long long *v)
{
	return number(line, key, 16, NULL, v);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ovh_median - of @n values, at most OVH_MEDIAN_MAX (sorts a copy); NAN
 * when @n is 0 or too many. */
double ovh_median(const double *v, unsigned n)
{
	double t[OVH_MEDIAN_MAX];

	if (!n || n > OVH_MEDIAN_MAX)
		return NAN;
	memcpy(t, v, n * sizeof(*v));
	qsort(t, n, sizeof(*t), cmp_d);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}
