// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Criterion tests of the guest checkers' trace-line splitter,
 * mr_trace_line() (tests/kernel/guest/checklib.c), on lines in the format
 * of /sys/kernel/tracing/trace and its per-CPU files, which the rt wake
 * checks (rtwake.c), the arm64 accuracy split (pmu_check.c) and the
 * memreg:period readers parse with it.
 */
#include <criterion/criterion.h>

#include "guest/checklib.h"

/* Lines of each kind the checkers read, and how they split. */
static const struct {
	const char *line;
	int cpu;
	long long ns;
	const char *event;
} good[] = {
	{ "          <idle>-0       [001] d.h1.   123.456789: "
	  "irq_handler_entry: irq=11 name=arm-pmu\n", 1, 123456789000LL,
	  "irq_handler_entry: irq=11 name=arm-pmu\n" },
	/* a task name with '/' and ':', a three-digit CPU */
	{ " kworker/u4:1-37      [012] dN.2.  4567.000001: "
	  "sched_switch: prev_comm=kworker/u4:1 prev_pid=37\n", 12, 4567000001000LL,
	  "sched_switch: prev_comm=kworker/u4:1 prev_pid=37\n" },
	/* memreg's own event, no newline */
	{ "    spin-88   [000] d.h..  10.000100: throttle: cpu=0 period=7 "
	  "class=read used=120 budget=100", 0, 10000100000LL,
	  "throttle: cpu=0 period=7 class=read used=120 budget=100" },
};

Test(trace_line, splits_cpu_time_and_event)
{
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct mr_trace_rec r;

		cr_assert_eq(mr_trace_line(good[i].line, &r), 1, "line %zu", i);
		cr_expect_eq(r.cpu, good[i].cpu, "line %zu: cpu %d", i, r.cpu);
		cr_expect_eq(r.ns, good[i].ns, "line %zu: %lld ns", i, r.ns);
		cr_expect_str_eq(r.event, good[i].event, "line %zu", i);
	}
}

Test(trace_line, refuses_comments_and_malformed_lines)
{
	struct mr_trace_rec r;
	const char *bad[] = {
		"# tracer: nop\n",
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n",
		"\n",
		"no brackets at all\n",
		"  task-1 [x01] d.... 1.000001: period: cpu=0\n",	/* CPU not a number */
		"  task-1 [001 d.... 1.000001: period: cpu=0\n",	/* unclosed */
		"  task-1 [001] d.... no-time: period: cpu=0\n",
		"  task-1 [001] d.... 1.000001 period: cpu=0\n",	/* no colon */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(mr_trace_line(bad[i], &r), 0, "line %zu: '%s'", i, bad[i]);
}
