// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_overhead_input.c - bad input to `memcal overhead` is refused
 * clearly (exit 2, a JSON error naming the problem) and nothing is
 * measured or stored: the database file is never created.
 */
#include <criterion/criterion.h>
#include <errno.h>

#include "overhead.h"
#include "ovh_test_util.h"

/* refused - run with @args and check exit 2, a message containing
 * @needle, and no database file. */
static void refused(const char *const *args, const char *needle)
{
	char db[128];
	struct ovh_run r;
	json_t *e;
	const char *msg;

	ovh_tmp_db(db, sizeof(db), "input");
	r = ovh_cmd(db, args);
	cr_assert_eq(r.rc, CLI_EXIT_USAGE, "rc %d for %s: %s", r.rc, args[1],
		     r.out);
	cr_assert_not_null(r.json, "not JSON: %s", r.out);
	e = json_object_get(r.json, "error");
	cr_assert_not_null(e, "no error object: %s", r.out);
	msg = json_string_value(json_object_get(e, "message"));
	cr_assert(msg && strstr(msg, needle), "message '%s' lacks '%s'",
		  msg ? msg : "(none)", needle);
	cr_assert_neq(access(db, F_OK), 0, "a database was created");
	ovh_run_free(&r);
}

Test(overhead_input, period_zero)
{
	const char *a[] = { "--periods", "1000,0", NULL };

	refused(a, "period of 0 us");
}

Test(overhead_input, period_below_minimum)
{
	const char *a[] = { "--periods", "5", NULL };

	refused(a, "below the regulator's minimum");
}

Test(overhead_input, period_absurd)
{
	const char *a[] = { "--periods", "5000000", NULL };

	refused(a, "absurdly large");
}

Test(overhead_input, period_garbage)
{
	const char *a[] = { "--periods", "10x", NULL };

	refused(a, "--periods");
}

Test(overhead_input, core_missing)
{
	const char *a[] = { "--cores", "4095", "--periods", "1000", NULL };

	refused(a, "cpu 4095 does not exist");
}

Test(overhead_input, bad_repeat_and_benchmark)
{
	const char *a[] = { "--repeat", "0", NULL };
	const char *b[] = { "--benchmarks", "compute,bogus", NULL };
	const char *c[] = { "stray", NULL };

	refused(a, "--repeat");
	refused(b, "unknown benchmark 'bogus'");
	refused(c, "unexpected argument");
}

/* The resolution check itself, with a coarse (jiffy-like) timer. */
Test(overhead_input, below_timer_resolution)
{
	const uint32_t p[] = { 10000, 1000 };
	char err[256];

	cr_assert_eq(cal_overhead_validate_periods(p, 2, 4000000, err, sizeof(err)),
		     -EINVAL);
	cr_assert(strstr(err, "period 1000 us is below the timer resolution"),
		  "%s", err);
	cr_assert_eq(cal_overhead_validate_periods(p, 1, 4000000, err, sizeof(err)),
		     0);
	cr_assert_eq(cal_overhead_validate_periods(cal_ovh_default_periods,
					       cal_ovh_n_default_periods,
					       cal_overhead_timer_res_ns(), err,
					       sizeof(err)), 0, "%s", err);
	cr_assert_eq(cal_overhead_validate_periods(p, 0, 1, err, sizeof(err)),
		     -EINVAL);
}
