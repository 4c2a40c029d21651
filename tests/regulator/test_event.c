// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_event.c - the event-spec parser memreg.ko and memtune share
 * (memreg_event_parse(), the per-CPU list "CPUS:SPEC,CPUS:SPEC").
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "memreg.h"

static int parse(const char *s, struct memreg_event *ev, const char **why)
{
	return memreg_event_parse(s, (memreg_u32)strlen(s), ev, why);
}

Test(event, named_software_events)
{
	struct memreg_event ev;
	const char *why = "unset";

	cr_assert_eq(parse("page-faults", &ev, &why), MEMREG_OK);
	cr_assert_eq(ev.counted, 1);
	cr_assert_eq(ev.type, MEMREG_EV_TYPE_SOFTWARE);
	cr_assert_eq(ev.config, MEMREG_EV_SW_PAGE_FAULTS);
	cr_assert_str_empty(why);
	cr_assert_eq(parse("cpu-clock", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.config, MEMREG_EV_SW_CPU_CLOCK);
	cr_assert_eq(parse("none", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.counted, 0);
	cr_assert_eq(parse("", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.counted, 0);
}

Test(event, raw_and_typed_numbers_in_c_syntax)
{
	struct memreg_event ev;

	cr_assert_eq(parse("raw:0x11", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.type, MEMREG_EV_TYPE_RAW);
	cr_assert_eq(ev.config, 0x11);
	cr_assert_eq(parse("raw:010", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.config, 8, "a leading 0 is octal");
	cr_assert_eq(parse("1:2", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.type, 1);
	cr_assert_eq(ev.config, 2);
	cr_assert_eq(parse("0x8:0xFFFFFFFFFFFFFFFF", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.type, 8);
	cr_assert_eq(ev.config, ~0ULL);
}

Test(event, bad_specs_are_refused_with_a_reason)
{
	static const char *const bad[] = {
		"raw", "raw:", "raw:zz", "raw:0x", "raw:0x1g", "-1:2", "1x:1",
		"2:1", "5:1", "0x100000000:1", "raw:0x10000000000000000",
		"page-fault", "NONE", "raw :1", "raw:1 ",
		"raw:0x0000000000000000000000000000001",
		"0x80000000:1", "cpu core:1", "cpu/x:1", ":1", "cpu_core:",
		"cpu_core:0xg", "tracepoint:1", "breakpoint:1", "decoy:a:1",
		"a_thirty_two_character_pmu_name:1",
	};
	struct memreg_event ev;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;

		cr_assert_eq(parse(bad[i], &ev, &why), MEMREG_EINVAL, "'%s' accepted", bad[i]);
		cr_assert(why && *why, "'%s' refused without a reason", bad[i]);
		cr_assert_eq(ev.counted, 0, "'%s': a refused spec counts nothing", bad[i]);
	}
}

Test(event, reasons_say_what_is_wrong)
{
	struct memreg_event ev;
	const char *why;

	parse("2:1", &ev, &why);
	cr_assert(strstr(why, "tracepoint"), "%s", why);
	parse("raw:0x10000000000000000", &ev, &why);
	cr_assert(strstr(why, "too large"), "%s", why);
	parse("bogus", &ev, &why);
	cr_assert(strstr(why, "raw:0xNN"), "%s", why);
}

Test(event, pmu_names_are_kept_for_the_kernel_to_resolve)
{
	static const struct {
		const char *spec, *pmu;
		unsigned long long config;
	} ok[] = {
		{ "armv8_pmuv3:0x11", "armv8_pmuv3", 0x11 },
		{ "cpu:0x412e", "cpu", 0x412e },
		{ "cpu_core:0x412e", "cpu_core", 0x412e },
		{ "armv8_cortex_a76:0x2a", "armv8_cortex_a76", 0x2a },
		{ "decoyB:7", "decoyB", 7 },
		{ "hisi_sccl1_ddrc0.x-1:010", "hisi_sccl1_ddrc0.x-1", 8 },
		{ "_x:0", "_x", 0 },
	};
	struct memreg_event ev;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		why = "unset";
		cr_assert_eq(parse(ok[i].spec, &ev, &why), MEMREG_OK, "'%s': %s",
			     ok[i].spec, why);
		cr_assert_str_empty(why);
		cr_assert_eq(ev.counted, 1);
		cr_assert_eq(ev.type, MEMREG_EV_TYPE_NAMED, "'%s'", ok[i].spec);
		cr_assert_eq(ev.config, ok[i].config, "'%s'", ok[i].spec);
		cr_assert_eq(ev.pmu_len, strlen(ok[i].pmu));
		cr_assert_eq(strncmp(ev.pmu, ok[i].pmu, ev.pmu_len), 0, "'%s'", ok[i].spec);
	}
	/* the fixed types keep their numbers; a numeric type is not a name */
	cr_assert_eq(parse("software:2", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.type, MEMREG_EV_TYPE_SOFTWARE);
	cr_assert_null(ev.pmu);
	cr_assert_eq(parse("raw:0x11", &ev, NULL), MEMREG_OK);
	cr_assert_null(ev.pmu);
	cr_assert_eq(parse("8:0x11", &ev, NULL), MEMREG_OK);
	cr_assert_eq(ev.type, 8);
	cr_assert_null(ev.pmu);
	cr_assert_eq(parse("0x7fffffff:1", &ev, NULL), MEMREG_OK);
	parse("tracepoint:1", &ev, &why);
	cr_assert(strstr(why, "tracepoint"), "%s", why);
	parse("cpu/x:1", &ev, &why);
	cr_assert(strstr(why, "PMU name"), "%s", why);
}

/* Parse @list for @nr CPUs into per-CPU configs; returns the first error. */
static int walk(const char *list, unsigned int nr, unsigned long long cfg[64],
		const char **why, char bad[64])
{
	struct memreg_event_iter it;
	struct memreg_event_entry e;
	unsigned int c;
	int ret;

	for (c = 0; c < 64; c++)
		cfg[c] = ~0ULL;
	memreg_event_list_begin(&it, list, nr);
	while ((ret = memreg_event_list_next(&it, &e, why)) == 1)
		for (c = e.first; c <= e.last; c++)
			cfg[c] = e.event.counted ? e.event.config : 0xdead;
	if (ret < 0)
		snprintf(bad, 64, "%.*s", (int)e.tok_len, e.tok);
	return ret;
}

Test(event_list, per_cpu_entries_and_ranges)
{
	unsigned long long cfg[64];
	const char *why;
	char bad[64];

	cr_assert_eq(walk("0-3:raw:0x11,4-7:raw:0x08", 8, cfg, &why, bad), 0);
	cr_assert_eq(cfg[0], 0x11);
	cr_assert_eq(cfg[3], 0x11);
	cr_assert_eq(cfg[4], 0x08);
	cr_assert_eq(cfg[7], 0x08);
	cr_assert_eq(cfg[8], ~0ULL, "a CPU not named keeps the default");
	cr_assert_eq(walk("1:none,0:page-faults\n", 2, cfg, &why, bad), 0,
		     "one trailing newline (a sysfs write)");
	cr_assert_eq(cfg[1], 0xdead);
	cr_assert_eq(cfg[0], MEMREG_EV_SW_PAGE_FAULTS);
	cr_assert_eq(walk("", 4, cfg, &why, bad), 0);
	cr_assert_eq(cfg[0], ~0ULL);
	cr_assert_eq(walk("63:4:0x2a", 64, cfg, &why, bad), 0);
	cr_assert_eq(cfg[63], 0x2a);
	cr_assert_eq(walk("0-63:cpu-clock", 64, cfg, &why, bad), 0);
	cr_assert_eq(cfg[63], MEMREG_EV_SW_CPU_CLOCK);
	cr_assert_eq(walk("0-3:armv8_cortex_a55:0x2a,4-7:armv8_cortex_a76:0x2b",
			  8, cfg, &why, bad), 0, "%s", why);
	cr_assert_eq(cfg[3], 0x2a);
	cr_assert_eq(cfg[4], 0x2b);
}

Test(event_list, bad_entries_are_named)
{
	static const struct {
		const char *list, *tok, *why;
	} cases[] = {
		{ "0:raw:0x11,1:raw:zz", "1:raw:zz", "not a number" },
		{ "0,1:raw:0x11", "0", "no ':'" },
		{ "0:raw:0x11,", "0:raw:0x11", "empty entry" },
		{ "0:raw:1,,1:raw:2", "", "empty entry" },
		{ "2:raw:0x11", "2:raw:0x11", "beyond" },
		{ "1-0:raw:1", "1-0:raw:1", "ends before" },
		{ "0-1:raw:1,1:raw:2", "1:raw:2", "named twice" },
		{ "a:raw:1", "a:raw:1", "CPU number" },
		{ "64:raw:1", "64:raw:1", "CPU number" },
		{ "0:", "0:", "empty event spec" },
		{ "0:bogus", "0:bogus", "not an event spec" },
		{ "0:raw:1\n\n", "0:raw:1\n", "not a number" },
	};
	unsigned long long cfg[64];
	char bad[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;

		cr_assert_eq(walk(cases[i].list, 2, cfg, &why, bad), MEMREG_EINVAL,
			     "'%s' accepted", cases[i].list);
		cr_assert_str_eq(bad, cases[i].tok, "'%s': named '%s'", cases[i].list, bad);
		cr_assert(why && strstr(why, cases[i].why), "'%s': reason '%s'",
			  cases[i].list, why ? why : "(null)");
	}
}
