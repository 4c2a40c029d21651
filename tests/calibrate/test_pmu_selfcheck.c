// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pmu_selfcheck.c - the overflow-delivery check run for real with a
 * software event standing in for a memory-traffic counter (this machine
 * has no hardware PMU; software events overflow through the same perf
 * path into the same ring buffer), the verdicts for what a board can get
 * wrong, the event each CPU of a big.LITTLE board is checked with (the
 * RK3588 recording replayed, and two fake kinds checked for real), and
 * the detection of other PMU users on a recorded /proc.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpu_types.h"
#include "pmu_selfcheck.h"
#include "replay.h"

#define BOARDS MEMCAL_SOURCE_DIR "/tests/fixtures/boards/"

/*
 * spin - burn @seconds of this thread's CPU time (task-clock counts it;
 * CPU time, not wall time, so a loaded machine changes nothing).
 */
static void spin(double seconds, void *user)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	(void)user;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			n++;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}

/* touched - @bytes of page-aligned memory, every page written. */
static char *touched(size_t bytes)
{
	char *buf = aligned_alloc(4096, bytes);

	cr_assert_not_null(buf);
	memset(buf, 1, bytes);
	return buf;
}

/*
 * An event that overflows every 1 ms of CPU time, 300 times; the rate a
 * regulator needs is checked by the verdicts below, not here (a shared
 * machine gives this thread an unknown share of the CPU).
 */
Test(selfcheck, software_overflows_are_delivered)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK, .sample_period = 1000000 };
	struct memcal_delivery d;

	cr_assert_eq(cal_pmu_check_delivery(&a, 0, 1, 0.3, spin, NULL,
					       &d), 0, "%s", d.message);
	cr_log_info("%s", d.message);
	cr_expect(d.pass, "%s", d.message);
	cr_expect_gt(d.expected, 250, "%.1f overflows implied", d.expected);
	cr_expect_geq((double)d.delivered, 0.9 * d.expected, "%s", d.message);
	cr_expect_leq((double)d.delivered, d.expected + 2, "%s", d.message);
}

/* A counter that counts nothing while the load runs is refused (a pinned
 * thread never migrates). */
Test(selfcheck, counter_that_counts_nothing_fails)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_MIGRATIONS, .sample_period = 1 };
	struct memcal_delivery d;

	cr_assert_eq(cal_pmu_check_delivery(&a, 0, 100, 0.05, spin, NULL,
					       &d), 0, "%s", d.message);
	cr_expect_not(d.pass);
	cr_expect(strstr(d.message, "counted nothing"), "%s", d.message);
}

/* The verdicts for what a board can get wrong, from their figures. */
Test(selfcheck, verdicts)
{
	struct memcal_delivery d = { .cpu = 3, .count = 1000000,
		.expected = 1000, .delivered = 0, .rate_per_s = 0 };

	cal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass);
	cr_expect(strstr(d.message, "no overflow interrupt arrived"), "%s",
		  d.message);
	cr_expect(strstr(d.message, "cpu 3"), "%s", d.message);

	d.delivered = 400;
	d.throttled = true;
	d.rate_per_s = 400;
	cal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass);
	cr_expect(strstr(d.message, "perf_event_max_sample_rate"), "%s",
		  d.message);

	d.delivered = 1000;
	d.throttled = false;
	d.rate_per_s = 100;
	cal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass, "below the needed rate");

	d.rate_per_s = 1000;
	cal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect(d.pass, "%s", d.message);

	d.count = 5000;
	d.expected = 5;
	cal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass, "too few overflows to judge");
}

/* A sample period of 0 is not a sampling counter. */
Test(selfcheck, no_sample_period_is_refused)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK };
	struct memcal_delivery d;

	cr_expect_lt(cal_pmu_check_delivery(&a, 0, 1, 0.01, spin, NULL,
					       &d), 0);
}

/* mkproc - a recorded /proc: nmi_watchdog @wd, perf held by @pid/@comm. */
static void mkproc(char *root, const char *wd, const char *pid,
		   const char *comm)
{
	char p[512];
	FILE *f;

	strcpy(root, "/tmp/memcal-proc-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/sys", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/kernel", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/kernel/nmi_watchdog", root);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fprintf(f, "%s\n", wd);
	fclose(f);
	if (!pid)
		return;
	snprintf(p, sizeof(p), "%s/%s", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/comm", root, pid);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fprintf(f, "%s\n", comm);
	fclose(f);
	snprintf(p, sizeof(p), "%s/%s/fd", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/fd/0", root, pid);
	cr_assert_eq(symlink("/dev/pts/0", p), 0);
	snprintf(p, sizeof(p), "%s/%s/fd/3", root, pid);
	cr_assert_eq(symlink("anon_inode:[perf_event]", p), 0);
	setenv("MEMCAL_PROCFS_ROOT", root, 1);
}

/* rmtree - remove the recorded /proc. */
static void rmtree(const char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
	unsetenv("MEMCAL_PROCFS_ROOT");
}

Test(selfcheck, watchdog_and_perf_named_with_the_remedy)
{
	struct memcal_pmu_users u;
	char root[64];

	mkproc(root, "1", "4321", "perf");
	cr_expect_eq(cal_pmu_find_users(&u), 1);
	cr_expect(u.nmi_watchdog);
	cr_expect_eq(u.n_holders, 1);
	cr_expect(strstr(u.message, "kernel.nmi_watchdog=0"), "%s", u.message);
	cr_expect(strstr(u.message, "4321 (perf)"), "%s", u.message);
	rmtree(root);
}

Test(selfcheck, free_pmu_has_no_message)
{
	struct memcal_pmu_users u;
	char root[64];

	mkproc(root, "0", NULL, NULL);
	setenv("MEMCAL_PROCFS_ROOT", root, 1);
	cr_expect_eq(cal_pmu_find_users(&u), 0);
	cr_expect_str_eq(u.message, "");
	rmtree(root);
}

/* collect - memcal_selfcheck_add_fn: keep up to 8 checks in @user. */
struct collected {
	size_t n;
	struct memcal_selfcheck c[8];
};

static int collect(void *user, const struct memcal_selfcheck *c)
{
	struct collected *k = user;

	cr_assert_lt(k->n, 8);
	k->c[k->n++] = *c;
	return 0;
}

/* A count within the tolerance passes; outside it or zero fails. */
Test(selfcheck, count_verdicts)
{
	struct memcal_selfcheck c = { .event = "raw:0x17" };

	cal_selfcheck_count_verdict(&c, "read", 1000, 1100);
	cr_expect_str_eq(c.verdict, "pass", "%s", c.message);
	cr_expect_str_eq(c.check, "read-count");
	cr_expect_eq(c.tolerance_pct, MEMCAL_SELFCHECK_TOL_PCT);
	cal_selfcheck_count_verdict(&c, "read", 1000, 2000);
	cr_expect_str_eq(c.verdict, "fail", "%s", c.message);
	cr_expect(strstr(c.message, "2.00 per line, outside 15%"), "%s",
		  c.message);
	cal_selfcheck_count_verdict(&c, "write", 1000, 0);
	cr_expect_str_eq(c.verdict, "fail");
	cr_expect_str_eq(c.check, "write-count");
	cr_expect(strstr(c.message, "counted nothing while 1000 lines were "
			 "written") && strstr(c.message, "refused as the write "
			 "event"), "%s", c.message);
}

/* open_sw - a software counter on this thread, disabled. */
static int open_sw(unsigned long long config)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a), .config = config, .disabled = 1 };
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);

	cr_assert_geq(fd, 0, "perf_event_open: %s", strerror(errno));
	return fd;
}

/*
 * Counted for real: a write "event" that counts nothing while a buffer
 * already touched is written (page faults) is refused and loses its
 * chosen mark; the read one is checked separately.  Without a usable
 * PMU both are skipped with the reason, never passed.
 */
Test(selfcheck, counts_refuse_a_write_event_that_counts_zero)
{
	struct memcal_pmu_event ev[2] = {
		{ .name = "page-faults (read stand-in)", .traffic = "read",
		  .opened = true, .chosen = true },
		{ .name = "page-faults (write stand-in)", .traffic = "write",
		  .opened = true, .chosen = true },
	};
	int fds[2] = { open_sw(PERF_COUNT_SW_PAGE_FAULTS),
		       open_sw(PERF_COUNT_SW_PAGE_FAULTS) };
	struct memcal_pmu_report r = { .status = { .available = true },
				       .events = ev, .n_events = 2, .fds = fds };
	size_t bytes = 4 << 20;
	char *buf = touched(bytes);
	struct collected k = { 0 };
	double rate;

	cr_assert_eq(cal_selfcheck_counts(&r, buf, bytes, 64, &rate,
					     collect, &k), 0);
	cr_assert_eq(k.n, 2);
	cr_expect_str_eq(k.c[0].check, "read-count");
	cr_expect_str_eq(k.c[1].check, "write-count");
	cr_expect_eq(k.c[1].expected, bytes / 64);
	cr_expect_str_eq(k.c[1].verdict, "fail", "%s", k.c[1].message);
	cr_expect(strstr(k.c[1].message, "refused"), "%s", k.c[1].message);
	cr_expect_not(ev[1].chosen, "a write event counting zero is refused");
	cr_expect(strstr(ev[1].message, "refused"), "%s", ev[1].message);
	close(fds[0]);
	close(fds[1]);

	k.n = 0;
	r.status.available = false;
	cr_assert_eq(cal_selfcheck_counts(&r, buf, bytes, 64, &rate,
					     collect, &k), 0);
	cr_assert_eq(k.n, 2);
	for (size_t i = 0; i < 2; i++) {
		cr_expect_str_eq(k.c[i].verdict, "skip");
		cr_expect(strstr(k.c[i].message, "no usable PMU counter"));
	}
	free(buf);
}

/*
 * Delivery checked on every CPU of the run with the chosen read event
 * (task-clock standing in, its rate as the count check would give it):
 * one row per CPU, each with the overflows implied and delivered.  The
 * rate part of the verdict depends on this thread's share of a shared
 * CPU, so only delivery itself is asserted here.
 */
Test(selfcheck, delivery_on_each_cpu)
{
	struct memcal_pmu_event ev = { .name = "task-clock", .traffic = "read",
		.perf_type = PERF_TYPE_SOFTWARE,
		.perf_config = PERF_COUNT_SW_TASK_CLOCK, .opened = true,
		.chosen = true };
	struct memcal_pmu_report r = { .status = { .available = true },
				       .events = &ev, .n_events = 1 };
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned cpus[2] = { 0, 1 };
	size_t bytes = 1 << 20;
	char *buf = touched(bytes);
	struct collected k = { 0 };

	cr_assert_eq(cal_selfcheck_delivery(&r, NULL, 0, cpus, n > 1 ? 2 : 1, 1e9,
					       buf, bytes, collect, &k), 0);
	cr_assert_eq(k.n, n > 1 ? 2u : 1u);
	for (size_t i = 0; i < k.n; i++) {
		cr_log_info("%s: %s", k.c[i].verdict, k.c[i].message);
		cr_expect_str_eq(k.c[i].check, "delivery");
		cr_expect_eq(k.c[i].cpu, (int)cpus[i]);
		cr_expect_gt(k.c[i].expected, 10, "%s", k.c[i].message);
		cr_expect_geq(k.c[i].measured, 0.9 * k.c[i].expected, "%s",
			      k.c[i].message);
		/* pass, or fail only for the rate this shared CPU gave the
		 * load: never for delivery itself */
		cr_expect(!strcmp(k.c[i].verdict, "pass") ||
			  (!strcmp(k.c[i].verdict, "fail") &&
			   strstr(k.c[i].message, "interrupts arrive, but only")),
			  "%s: %s", k.c[i].verdict, k.c[i].message);
	}
	k.n = 0;
	ev.chosen = false;
	cr_assert_eq(cal_selfcheck_delivery(&r, NULL, 0, cpus, 1, 1e9, buf, bytes,
					       collect, &k), 0);
	cr_assert_eq(k.n, 1);
	cr_expect_str_eq(k.c[0].verdict, "skip");
	cr_expect(strstr(k.c[0].message, "no read event passed validation"));
	free(buf);
}

/*
 * The RK3588 recording replayed: each CPU is asked for its own kind's
 * event on its kind's PMU (A55 type 8, A76 type 9), not the run's one
 * event; a one-kind board and a CPU of no kind use the run's event.
 */
Test(selfcheck, cpu_event_is_the_kinds_own_on_big_little)
{
	struct memcal_pmu_event ev[2] = {
		{ .name = "RUN_READ", .traffic = "read", .perf_type = 4,
		  .perf_config = 0x17, .opened = true, .chosen = true },
		{ .name = "RUN_WRITE", .traffic = "write", .perf_type = 4,
		  .perf_config = 0x18, .opened = true, .chosen = true },
	};
	struct memcal_pmu_report r = { .status = { .available = true },
				       .events = ev, .n_events = 2 };
	struct memcal_selfcheck_event e;
	struct memcal_cpu_kind k[MEMCAL_MAX_CPU_TYPES];
	struct memcal_replay rp;
	char err[1024] = "";
	size_t n;

	cr_assert_eq(cal_replay_load(BOARDS "rk3588", &rp, err,
					sizeof(err)), 0, "%s", err);
	n = rp.types.n;
	cr_assert_eq(n, 2);
	for (size_t i = 0; i < n; i++)
		cal_cpu_type_kind(&rp.types, i, &k[i]);
	cal_replay_free(&rp);

	for (unsigned cpu = 0; cpu < 8; cpu++) {
		bool big = cpu >= 4;

		cr_assert_eq(cal_selfcheck_cpu_event(&r, k, n, cpu, "read",
							&e), 0);
		cr_expect_eq(e.attr.type, big ? 9u : 8u, "cpu %u", cpu);
		cr_expect_eq(e.attr.config, 0x2a, "cpu %u", cpu);
		cr_expect_str_eq(e.event, big ? "armv8_cortex_a76:0x2a" :
				 "armv8_cortex_a55:0x2a", "named, opened by type");
		cr_expect(strstr(e.whose, big ? "Cortex-A76 (cpus 4-7) counts "
				 "its own armv8_cortex_a76:0x2a" : "Cortex-A55 "
				 "(cpus 0-3) counts its own armv8_cortex_a55:0x2a"),
			  "%s", e.whose);
		cr_assert_eq(cal_selfcheck_cpu_event(&r, k, n, cpu, "write",
							&e), 0);
		cr_expect_eq(e.attr.type, big ? 9u : 8u, "cpu %u", cpu);
		cr_expect_eq(e.attr.config, 0x18, "cpu %u", cpu);
	}

	/* A CPU of no kind: the run's event, with no kind named. */
	cr_assert_eq(cal_selfcheck_cpu_event(&r, k, n, 9, "read", &e), 0);
	cr_expect_eq(e.attr.type, 4u);
	cr_expect_eq(e.attr.config, 0x17);
	cr_expect_str_eq(e.event, "RUN_READ");
	cr_expect_str_eq(e.whose, "");

	/* One kind: its event is the run's (memtune's rule), named so. */
	cr_assert_eq(cal_selfcheck_cpu_event(&r, k + 1, 1, 5, "write",
						&e), 0);
	cr_expect_eq(e.attr.type, 4u);
	cr_expect_eq(e.attr.config, 0x18);
	cr_expect_str_eq(e.event, "RUN_WRITE");
	cr_expect(strstr(e.whose, "Cortex-A76 (cpus 4-7) counts the run's "
			 "RUN_WRITE"), "%s", e.whose);

	/* A kind without its own event and no run event: nothing to check. */
	k[0].event[0][0] = '\0';
	ev[0].chosen = false;
	cr_expect_eq(cal_selfcheck_cpu_event(&r, k, n, 1, "read", &e),
		     MEMCAL_ENOTFOUND);
	cr_expect_eq(cal_selfcheck_cpu_event(&r, k, n, 5, "read", &e), 0);
	cr_expect_eq(e.attr.type, 9u);
}

/*
 * Two fake kinds on this machine's CPUs 0 and 1, each with its own
 * software event (cpu-clock, task-clock) and no run event: delivery on
 * each CPU samples its kind's event, and each row names the kind.
 */
Test(selfcheck, delivery_uses_each_kinds_event)
{
	struct memcal_cpu_kind kinds[2] = {
		{ .cpus = "0", .label = "Little", .perf_type = 1,
		  .event = { "1:0x0", "" }, .event_name = { "cpu-clock", "" } },
		{ .cpus = "1", .label = "Big", .perf_type = 1,
		  .event = { "1:0x1", "" }, .event_name = { "task-clock", "" } },
	};
	struct memcal_pmu_report r = { .status = { .available = true } };
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned cpus[2] = { 0, 1 };
	size_t bytes = 1 << 20;
	char *buf = touched(bytes);
	struct collected k = { 0 };

	cr_assert_eq(cal_selfcheck_delivery(&r, kinds, 2, cpus,
					       n > 1 ? 2 : 1, 1e9, buf, bytes,
					       collect, &k), 0);
	cr_assert_eq(k.n, n > 1 ? 2u : 1u);
	for (size_t i = 0; i < k.n; i++) {
		cr_log_info("%s: %s", k.c[i].verdict, k.c[i].message);
		cr_expect_eq(k.c[i].cpu, (int)cpus[i]);
		cr_expect_str_eq(k.c[i].event, kinds[i].event[0]);
		cr_expect(strstr(k.c[i].message, i ? "Big (cpus 1) counts its "
				 "own 1:0x1 task-clock: cpu 1:" : "Little "
				 "(cpus 0) counts its own 1:0x0 cpu-clock: "
				 "cpu 0:"), "%s", k.c[i].message);
		cr_expect_geq(k.c[i].measured, 0.9 * k.c[i].expected, "%s",
			      k.c[i].message);
	}
	free(buf);
}

/*
 * Counted for real, once per kind on a CPU of that kind: Little's read
 * "event" (page faults on a touched buffer) counts nothing and is refused
 * (the kind loses it, with why); Big's (cpu-clock, nanoseconds, not
 * lines) counts but is off; a kind with no CPU in the run is skipped; a
 * board of one kind gets no per-kind rows.
 */
Test(selfcheck, kind_counts_once_per_kind_on_its_cpu)
{
	struct memcal_cpu_kind kinds[3] = {
		{ .cpus = "0", .label = "Little", .perf_type = 1,
		  .event = { "1:0x2", "" }, .event_name = { "page-faults" } },
		{ .cpus = "1", .label = "Big", .perf_type = 1,
		  .event = { "1:0x0", "" }, .event_name = { "cpu-clock" } },
		{ .cpus = "5", .label = "Absent", .perf_type = 1,
		  .event = { "", "1:0x0" } },
	};
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned cpus[2] = { 0, 1 };
	size_t bytes = 4 << 20;
	char *buf = touched(bytes);
	struct collected k = { 0 };

	cr_assert_eq(cal_selfcheck_kind_counts(kinds, 1, cpus, 1, buf,
						  bytes, 64, collect, &k), 0);
	cr_expect_eq(k.n, 0, "one kind: its events are the run's");
	cr_assert_eq(cal_selfcheck_kind_counts(kinds, 3, cpus,
						  n > 1 ? 2 : 1, buf, bytes,
						  64, collect, &k), 0);
	cr_assert_eq(k.n, 3);
	for (size_t i = 0; i < k.n; i++)
		cr_log_info("%s %s cpu %d: %s", k.c[i].check, k.c[i].verdict,
			    k.c[i].cpu, k.c[i].message);

	cr_expect_str_eq(k.c[0].check, "read-count");
	cr_expect_eq(k.c[0].cpu, 0);
	cr_expect_str_eq(k.c[0].event, "1:0x2");
	cr_expect_str_eq(k.c[0].verdict, "fail");
	cr_expect(strstr(k.c[0].message, "Little (cpus 0) counts its own "
			 "1:0x2 page-faults: 1:0x2 counted nothing while "
			 "65536 lines were read"), "%s", k.c[0].message);
	cr_expect_str_eq(kinds[0].event[0], "", "refused, not kept");
	cr_expect(strstr(kinds[0].why[0], "refused: 1:0x2 counted nothing "
			 "in the self-check on cpu 0"), "%s", kinds[0].why[0]);

	cr_expect_str_eq(k.c[1].check, "read-count");
	if (n > 1) {
		cr_expect_eq(k.c[1].cpu, 1);
		cr_expect_str_eq(k.c[1].event, "1:0x0");
		cr_expect_gt(k.c[1].measured, 0, "%s", k.c[1].message);
		cr_expect(strstr(k.c[1].message, "Big (cpus 1) counts its own "
				 "1:0x0 cpu-clock: 1:0x0 counted "), "%s",
			  k.c[1].message);
		cr_expect_str_eq(kinds[1].event[0], "1:0x0", "counts: kept");
	} else {
		cr_expect_str_eq(k.c[1].verdict, "skip");
	}

	cr_expect_str_eq(k.c[2].check, "write-count");
	cr_expect_str_eq(k.c[2].verdict, "skip");
	cr_expect(strstr(k.c[2].message, "no CPU of the run is a Absent "
			 "(cpus 5), so its write 1:0x0 is not checked"), "%s",
		  k.c[2].message);
	free(buf);
}

/* Another PMU user is a warning naming it; a free PMU passes. */
Test(selfcheck, users_verdicts)
{
	struct collected k = { 0 };
	char root[64];

	mkproc(root, "1", "4321", "perf");
	cr_assert_eq(cal_selfcheck_users(collect, &k), 0);
	cr_expect_str_eq(k.c[0].check, "pmu-users");
	cr_expect_str_eq(k.c[0].verdict, "warn");
	cr_expect(strstr(k.c[0].message, "4321 (perf)") &&
		  strstr(k.c[0].message, "kernel.nmi_watchdog=0"), "%s",
		  k.c[0].message);
	rmtree(root);
	mkproc(root, "0", NULL, NULL);
	setenv("MEMCAL_PROCFS_ROOT", root, 1);
	cr_assert_eq(cal_selfcheck_users(collect, &k), 0);
	cr_expect_str_eq(k.c[1].verdict, "pass", "%s", k.c[1].message);
	rmtree(root);
}
