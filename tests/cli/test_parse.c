// SPDX-License-Identifier: GPL-2.0-only
/* test_parse.c - the strict value parsers of cli/parse.c. */
#include <criterion/criterion.h>

#include "cli.h"
#include "memcal_status.h"

Test(parse, u64_accepts_range_and_rejects_garbage)
{
	const char *why = NULL;
	uint64_t v;

	cr_assert_eq(cli_parse_u64("42", 1, 100, &v, &why), 0);
	cr_assert_eq(v, 42);
	cr_assert_eq(cli_parse_u64("0", 1, 100, &v, &why), MEMCAL_EINVAL);
	cr_assert_str_eq(why, "number out of range");
	cr_assert_eq(cli_parse_u64("101", 1, 100, &v, &why), MEMCAL_EINVAL);
	cr_assert_eq(cli_parse_u64("-1", 0, 100, &v, &why), MEMCAL_ESYNTAX);
	cr_assert_eq(cli_parse_u64("12abc", 0, 100, &v, &why), MEMCAL_ESYNTAX);
	cr_assert_str_eq(why, "trailing characters after the number");
	cr_assert_eq(cli_parse_u64("", 0, 100, &v, &why), MEMCAL_ESYNTAX);
	cr_assert_eq(cli_parse_u64(" 5", 0, 100, &v, &why), MEMCAL_ESYNTAX);
	cr_assert_eq(cli_parse_u64("18446744073709551616", 0, UINT64_MAX, &v,
				   &why), MEMCAL_EINVAL);
	cr_assert_str_eq(why, "number too large");
	cr_assert_eq(cli_parse_u64("18446744073709551615", 0, UINT64_MAX, &v,
				   &why), 0);
	cr_assert_eq(v, UINT64_MAX);
}

Test(parse, id_is_1_to_int64_max_and_left_alone_on_failure)
{
	const char *why = NULL;
	int64_t id = 7;

	cr_assert_eq(cli_parse_id("9223372036854775807", &id, &why), 0);
	cr_assert_eq(id, INT64_MAX);
	id = 7;
	cr_assert_eq(cli_parse_id("0", &id, &why), MEMCAL_EINVAL);
	cr_assert_str_eq(why, "number out of range");
	cr_assert_eq(cli_parse_id("9223372036854775808", &id, &why),
		     MEMCAL_EINVAL);
	cr_assert_eq(cli_parse_id("3x", &id, &why), MEMCAL_ESYNTAX);
	cr_assert_eq(id, 7);
}

Test(parse, sizes_with_binary_and_decimal_suffixes)
{
	const char *why;
	uint64_t v;

	cr_assert_eq(cli_parse_size("512", &v, &why), 0);
	cr_assert_eq(v, 512);
	cr_assert_eq(cli_parse_size("4K", &v, &why), 0);
	cr_assert_eq(v, 4096);
	cr_assert_eq(cli_parse_size("256MiB", &v, &why), 0);
	cr_assert_eq(v, 256ULL << 20);
	cr_assert_eq(cli_parse_size("2g", &v, &why), 0);
	cr_assert_eq(v, 2ULL << 30);
	cr_assert_eq(cli_parse_size("3MB", &v, &why), 0);
	cr_assert_eq(v, 3000000);
	cr_assert_eq(cli_parse_size("0", &v, &why), MEMCAL_EINVAL);
	cr_assert_eq(cli_parse_size("1X", &v, &why), MEMCAL_ESYNTAX);
	cr_assert_not_null(strstr(why, "suffix"));
	cr_assert_eq(cli_parse_size("99999999999T", &v, &why), MEMCAL_EINVAL);
	cr_assert_str_eq(why, "size too large");
	cr_assert_eq(cli_parse_size("1.5G", &v, &why), MEMCAL_ESYNTAX);
}

/* An option given no value reaches the parsers as NULL: not a number. */
Test(parse, no_value_is_not_a_number)
{
	const char *why = NULL;
	uint64_t v = 7;

	cr_assert_eq(cli_parse_u64(NULL, 0, 100, &v, &why), MEMCAL_ESYNTAX);
	cr_assert_str_eq(why, "expected a whole number");
	why = NULL;
	cr_assert_eq(cli_parse_size(NULL, &v, &why), MEMCAL_ESYNTAX);
	cr_assert_str_eq(why, "expected a whole number");
	cr_assert_eq(v, 7, "a refused value leaves the result alone");
}

Test(parse, lists_and_ranges)
{
	uint32_t out[8];
	const char *why;
	size_t n;

	cr_assert_eq(cli_parse_u32_list("0-3,6", 0, 63, out, 8, &n, &why), 0);
	cr_assert_eq(n, 5);
	cr_assert_eq(out[3], 3);
	cr_assert_eq(out[4], 6);
	cr_assert_eq(cli_parse_u32_list("2,2,1-2", 0, 63, out, 8, &n, &why), 0);
	cr_assert_eq(n, 2, "duplicates are dropped");
	cr_assert_eq(cli_parse_u32_list("3-1", 0, 63, out, 8, &n, &why), MEMCAL_EINVAL);
	cr_assert_str_eq(why, "range end below its start");
	cr_assert_eq(cli_parse_u32_list("0-9", 0, 63, out, 8, &n, &why), MEMCAL_EINVAL);
	cr_assert_str_eq(why, "too many values in the list");
	cr_assert_eq(cli_parse_u32_list("64", 0, 63, out, 8, &n, &why), MEMCAL_EINVAL);
	cr_assert_eq(cli_parse_u32_list("1;2", 0, 63, out, 8, &n, &why), MEMCAL_ESYNTAX);
	cr_assert_eq(cli_parse_u32_list("1,", 0, 63, out, 8, &n, &why), MEMCAL_ESYNTAX);
	cr_assert_eq(cli_parse_u32_list("", 0, 63, out, 8, &n, &why), MEMCAL_ESYNTAX);
	cr_assert_eq(cli_parse_u32_list("20,32,1000", 1, 1000000, out, 8, &n,
					&why), 0);
	cr_assert_eq(out[2], 1000);
}
