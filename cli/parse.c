// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - strict parsers for command-line values: whole numbers with a
 * range, sizes with binary/decimal suffixes, and lists such as "0-3,6".
 * Each rejects trailing garbage, signs and overflow, and says why.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "memcal_status.h"

/*
 * parse_digits - a plain decimal number at *s, advancing *s past it.  A
 * NULL *s (an option given no value) is not a number either.
 */
static int parse_digits(const char **s, uint64_t *out, const char **why)
{
	const char *p = *s;
	uint64_t v = 0;

	if (!p || !isdigit((unsigned char)*p)) {
		*why = "expected a whole number";
		return MEMCAL_ESYNTAX;
	}
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10) {
			*why = "number too large";
			return MEMCAL_EINVAL;
		}
		v = v * 10 + d;
	}
	*s = p;
	*out = v;
	return 0;
}

/**
 * cli_parse_u64() - a decimal whole number within [@min, @max].
 * @s: text.  @min, @max: inclusive range.  @out: result.
 * @why: set to a static reason on failure.
 *
 * Return: 0, MEMCAL_ESYNTAX (not a number of this form) or MEMCAL_EINVAL
 * (a well-formed value out of range).
 */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		  const char **why)
{
	uint64_t v;
	int rc;

	rc = parse_digits(&s, &v, why);
	if (rc)
		return rc;
	if (*s) {
		*why = "trailing characters after the number";
		return MEMCAL_ESYNTAX;
	}
	if (v < min || v > max) {
		*why = "number out of range";
		return MEMCAL_EINVAL;
	}
	*out = v;
	return 0;
}

/**
 * cli_parse_id() - a database row id: a whole number from 1 to INT64_MAX.
 * @s: text.  @id: result, untouched on failure.  @why: as cli_parse_u64().
 *
 * Return: as cli_parse_u64().
 */
int cli_parse_id(const char *s, int64_t *id, const char **why)
{
	uint64_t v;
	int rc = cli_parse_u64(s, 1, INT64_MAX, &v, why);

	if (!rc)
		*id = (int64_t)v;
	return rc;
}

/**
 * cli_option_id() - the row id @arg of option --@name into @id.
 *
 * Return: 0, or CLI_EXIT_USAGE with "--NAME 'ARG': why" reported.
 */
int cli_option_id(struct cli_ctx *ctx, const char *name, const char *arg,
		  int64_t *id)
{
	const char *why;

	if (cli_parse_id(arg, id, &why))
		return cli_error(ctx, CLI_EXIT_USAGE, "--%s '%s': %s", name,
				 arg, why);
	return 0;
}

/* size_multiplier - bytes per unit for a suffix ("", K, KiB, MB, G...). */
static int size_multiplier(const char *suf, uint64_t *mult)
{
	static const struct {
		const char *name;
		uint64_t mult;
	} units[] = {
		{ "", 1 }, { "b", 1 },
		{ "k", 1ULL << 10 }, { "kib", 1ULL << 10 }, { "kb", 1000 },
		{ "m", 1ULL << 20 }, { "mib", 1ULL << 20 }, { "mb", 1000000 },
		{ "g", 1ULL << 30 }, { "gib", 1ULL << 30 },
		{ "gb", 1000000000ULL },
		{ "t", 1ULL << 40 }, { "tib", 1ULL << 40 },
		{ "tb", 1000000000000ULL },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(suf, units[i].name)) {
			*mult = units[i].mult;
			return 0;
		}
	return MEMCAL_ENOTFOUND;
}

/**
 * cli_parse_size() - a byte count such as "512M", "2GiB" or "1000000".
 * @s: text.  @out: bytes (non-zero).  @why: static reason on failure.
 *
 * K/M/G/T and KiB/MiB/GiB/TiB are binary; KB/MB/GB/TB decimal.
 * Return: 0, MEMCAL_ESYNTAX (not a number of this form) or MEMCAL_EINVAL
 * (a well-formed value out of range).
 */
int cli_parse_size(const char *s, uint64_t *out, const char **why)
{
	uint64_t v, mult;
	int rc;

	rc = parse_digits(&s, &v, why);
	if (rc)
		return rc;
	if (size_multiplier(s, &mult)) {
		*why = "unknown size suffix (use K, M, G, T, KiB..., KB...)";
		return MEMCAL_ESYNTAX;
	}
	if (v == 0) {
		*why = "size must be greater than zero";
		return MEMCAL_EINVAL;
	}
	if (v > UINT64_MAX / mult) {
		*why = "size too large";
		return MEMCAL_EINVAL;
	}
	*out = v * mult;
	return 0;
}

/**
 * cli_parse_u32_list() - a list of numbers and ranges: "0-3,6,8-9".
 * @s: text.  @min, @max: allowed range of every element.
 * @out: array of @cap elements receiving the expanded list, in order,
 *       without duplicates.  @n: number stored.
 * @why: static reason on failure.
 *
 * Return: 0, MEMCAL_ESYNTAX (not a number of this form) or MEMCAL_EINVAL
 * (a well-formed value out of range).
 */
int cli_parse_u32_list(const char *s, uint32_t min, uint32_t max,
		       uint32_t *out, size_t cap, size_t *n, const char **why)
{
	*n = 0;
	if (!s || !*s) {
		*why = "empty list";
		return MEMCAL_ESYNTAX;
	}
	for (;;) {
		uint64_t lo, hi;
		int rc = parse_digits(&s, &lo, why);

		if (rc)
			return rc;
		hi = lo;
		if (*s == '-') {
			s++;
			rc = parse_digits(&s, &hi, why);
			if (rc)
				return rc;
			if (hi < lo) {
				*why = "range end below its start";
				return MEMCAL_EINVAL;
			}
		}
		if (lo < min || hi > max) {
			*why = "value out of range";
			return MEMCAL_EINVAL;
		}
		for (uint64_t v = lo; v <= hi; v++) {
			bool dup = false;

			for (size_t i = 0; i < *n; i++)
				dup |= out[i] == v;
			if (dup)
				continue;
			if (*n >= cap) {
				*why = "too many values in the list";
				return MEMCAL_EINVAL;
			}
			out[(*n)++] = (uint32_t)v;
		}
		if (*s == '\0')
			return 0;
		if (*s != ',') {
			*why = "expected ',' or '-' between numbers";
			return MEMCAL_ESYNTAX;
		}
		s++;
	}
}
