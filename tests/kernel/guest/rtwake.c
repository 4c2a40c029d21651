/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtwake - the real-time checks of the memreg QEMU group "rt" and their
 * probe.  The probe: a SCHED_FIFO task pinned to one CPU that sleeps to
 * absolute deadlines (clock_nanosleep, TIMER_ABSTIME) every INTERVAL
 * microseconds and measures how late it wakes.
 *
 *   rtwake -c CPU -p PRIO -i INTERVAL_US -t SECONDS [-T [-v]]
 *   rtwake -k wakes|idle-latency -P PERIOD_US
 *   rtwake -k events
 *
 * The probe prints "rtwake cpu=C prio=P wakes=N p50_us=A p99_us=B
 * max_us=M over1ms=K" (K wakes later than 1 ms); with -T it traces its
 * wakes and adds the line "rtwake-trace ..." (trace_report()); with -v
 * also one "rtwake-w2r" line, the events in between, for each of the
 * first 20 wakes that took over 1 ms from wakeup to running.  Exit 1
 * when it cannot set its CPU or policy, 2 on bad usage.
 *
 * -k runs checks against the loaded memreg (cpu1 regulated and held
 * beside a /pfload hog) and prints their MEMREG-CHECK lines: "wakes"
 * rt-prio-held-off, rt-prio-wakes and rt-prio-unmap (rt_wakes()),
 * "idle-latency" rt-idle-latency (idle_latency()).  Exit 0 when all pass.
 * "-k events" only enables the traced events (tr_events_on()).
 *
 * Linked statically for the initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checklib.h"

#define MAX_WAKES 200000

static long lat_ns[MAX_WAKES];
static long long dl_ns[MAX_WAKES], ul_ns[MAX_WAKES];

/* qsort comparator for latencies */
static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static long ts_ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

/* ---- the wake traced: where each late wake's time went ---------------- */

/*
 * With -T the probe records, on its CPU, the scheduler's view of each wake
 * through tracefs (clock "mono": the trace's timestamps are the probe's
 * CLOCK_MONOTONIC): the timer interrupt (hrtimer_expire_entry of
 * hrtimer_wakeup), sched_wakeup of the probe, the sched_switch to it, the
 * task the CPU ran when it woke (memreg/N: the CPU was held), and whether
 * the CPU was in the idle loop (cpu_idle) at the deadline.  A wake is then
 *
 *   deadline -> timer interrupt -> sched_wakeup -> sched_switch -> user
 *
 * and "wake-to-run" (sched_wakeup to sched_switch) is the time the CPU's
 * scheduler kept a runnable FIFO task from running: what rt_prio promises
 * to keep short.  The time before sched_wakeup is the delivery of the
 * timer interrupt, which an emulator can delay at will (a halted TCG vCPU
 * is woken by a host thread).
 */
#define TR "/sys/kernel/tracing"

struct ev {
	long long t;		/* ns, CLOCK_MONOTONIC (µs resolution) */
	char kind;		/* 'w' wakeup, 's' switch to the probe, 'S' other
				 * switch, 'i' idle enter, 'x' idle exit, 'h' hrtimer_wakeup
				 * expiry, 'p' memreg period/throttle */
	char cur[24];		/* for switches: next task's comm */
	int left;		/* for switches: the previous task slept (it was
				 * not preempted) */
};

static struct ev *evs;
static size_t nev, capev;

static void tr_put(const char *rel, const char *val)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), TR "/%s", rel);
	f = fopen(p, "w");
	if (!f)
		return;
	fputs(val, f);
	fclose(f);
}

static const char *tr_events[] = {
	"sched/sched_wakeup", "sched/sched_switch", "power/cpu_idle",
	"hrtimer/hrtimer_expire_entry", "memreg/throttle", "memreg/period", NULL
};

/*
 * Enabling or disabling an event patches its tracepoint's jump with
 * text_poke_bp(), and under QEMU 7.2's multi-threaded TCG that can leave
 * a vCPU executing the transient int3 for good (scripts/qemu/lib.sh,
 * qemu_x86_accel; the harnesses run single-threaded TCG): with
 * sched_switch, in __schedule with interrupts off, while the patching CPU
 * waits in smp_call_function_many_cond() for it to sync (2 hung boots in
 * 14 std and rt runs of rt-prio-wakes, which toggled the events for each
 * of its three probes).  So a check that runs several probes keeps the
 * events enabled across them (tr_keep()); a probe that finds them all
 * enabled leaves them so and only clears the buffer and switches
 * tracing_on, which patches nothing.  The rt group enables the kernel's
 * own events before memreg loads, when no CPU is busy.
 */
static bool tr_kept;
static bool tr_was[sizeof(tr_events) / sizeof(tr_events[0])];

/* Whether event @k of tr_events is enabled. */
static bool tr_enabled(int k)
{
	char p[256], v[8];
	bool on;
	FILE *f;

	snprintf(p, sizeof(p), TR "/events/%s/enable", tr_events[k]);
	f = fopen(p, "r");
	on = f && fgets(v, sizeof(v), f) && v[0] == '1';
	if (f)
		fclose(f);
	return on;
}

/* Event @k of tr_events on or off. */
static void tr_event_set(int k, bool on)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "events/%s/enable", tr_events[k]);
	tr_put(rel, on ? "1\n" : "0\n");
}

/* Each event of tr_events on (@on), or back to its state before (!@on). */
static void tr_keep(bool on)
{
	int k;

	for (k = 0; tr_events[k]; k++) {
		if (on)
			tr_was[k] = tr_enabled(k);
		if (!tr_was[k])
			tr_event_set(k, on);
	}
}

/*
 * tr_events_on - "-k events": every event of tr_events that exists on,
 * tracing off, for the rt group to run before memreg loads (memreg's own
 * events do not exist yet).  Fails, naming it, when an existing event
 * stays off.
 */
static int tr_events_on(void)
{
	int k, failed = 0;

	for (k = 0; tr_events[k]; k++) {
		char p[256];

		snprintf(p, sizeof(p), TR "/events/%s", tr_events[k]);
		if (access(p, F_OK))
			continue;
		tr_event_set(k, true);
		if (!tr_enabled(k)) {
			fprintf(stderr, "rtwake: cannot enable trace event %s\n", tr_events[k]);
			failed = 1;
		}
	}
	tr_put("tracing_on", "0\n");
	return failed;
}

static void trace_start(int cpu)
{
	char v[64];
	int k;

	for (k = 0, tr_kept = true; tr_events[k]; k++)
		tr_kept &= tr_enabled(k);
	tr_put("tracing_on", "0\n");
	tr_put("trace", "\n");
	tr_put("trace_clock", "mono\n");
	tr_put("buffer_size_kb", "8192\n");
	snprintf(v, sizeof(v), "%x\n", 1u << cpu);
	tr_put("tracing_cpumask", v);
	snprintf(v, sizeof(v), "pid == %d\n", (int)getpid());
	tr_put("events/sched/sched_wakeup/filter", v);
	for (k = 0; !tr_kept && tr_events[k]; k++)
		tr_event_set(k, true);
	tr_put("tracing_on", "1\n");
}

static void trace_stop(void)
{
	int k;

	tr_put("tracing_on", "0\n");
	for (k = 0; !tr_kept && tr_events[k]; k++)
		tr_event_set(k, false);
	tr_put("events/sched/sched_wakeup/filter", "0\n");
	tr_put("tracing_cpumask", "ff\n");
	/* trace_clock stays "mono": setting a clock empties the buffer */
}

static void ev_add(long long t, char kind, const char *cur, int left)
{
	if (nev == capev) {
		size_t cap = capev ? capev * 2 : 4096;
		struct ev *v = realloc(evs, cap * sizeof(*v));

		if (!v)
			return;
		evs = v;
		capev = cap;
	}
	evs[nev].t = t;
	evs[nev].kind = kind;
	snprintf(evs[nev].cur, sizeof(evs[nev].cur), "%s", cur ? cur : "");
	evs[nev].left = left;
	nev++;
}

/* read the CPU's trace buffer into evs[] (in time order) */
static void trace_read(int cpu, int me)
{
	char path[128], line[512], name[24];
	FILE *f;

	snprintf(path, sizeof(path), TR "/per_cpu/cpu%d/trace", cpu);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		struct mr_trace_rec r;
		const char *e;
		long long t;

		if (!mr_trace_line(line, &r))
			continue;
		t = r.ns;
		e = r.event;
		if (!strncmp(e, "sched_wakeup: ", 14)) {
			ev_add(t, 'w', NULL, 0);
		} else if (!strncmp(e, "sched_switch: ", 14)) {
			const char *n = strstr(e, "next_comm=");
			const char *q = strstr(e, "next_pid=");
			const char *st = strstr(e, "prev_state=");

			if (!n || !q || !st || sscanf(n, "next_comm=%23s", name) != 1)
				continue;
			ev_add(t, atoi(q + 9) == me ? 's' : 'S', name, st[11] != 'R');
		} else if (!strncmp(e, "cpu_idle: state=", 16)) {
			ev_add(t, strtoul(e + 16, NULL, 10) == 4294967295UL ? 'x' : 'i', NULL, 0);
		} else if (!strncmp(e, "hrtimer_expire_entry: ", 22)) {
			char fn[24] = "";
			const char *q = strstr(e, "function=");

			if (q)
				sscanf(q, "function=%23s", fn);
			ev_add(t, strcmp(fn, "hrtimer_wakeup") ? 'H' : 'h', fn, 0);
		} else if (!strncmp(e, "throttle: ", 10) || !strncmp(e, "period: ", 8)) {
			ev_add(t, 'p', e[0] == 't' ? "throttle" : "period", 0);
		}
	}
	if (f)
		fclose(f);
}

struct wake {
	long long d, h, w, s, u;	/* deadline, timer, wakeup, switch, user */
	int held, halted;
	char cur[24];
};

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * Put the traced wakes together: each sched_wakeup of the probe with the
 * deadline it served (the last one at or before it), the timer expiry
 * before it, the next switch to the probe, the task then current and
 * whether the CPU was in the idle loop at the deadline.  A wakeup while
 * the probe itself was current (its timer expired before it slept) is
 * passed over: it waited for nothing.  A wake is "held" when the CPU ran
 * COMM_HELD (memreg's throttle thread) when it woke, and "kept" when the
 * CPU entered the idle loop again or switched to another task before the
 * probe ran, or switched to that thread: the scheduler chose the
 * injection over a runnable FIFO task (a task of higher priority, such
 * as an interrupt thread on PREEMPT_RT, may run first).  A wake-to-run over 1 ms with neither is a stall of the CPU
 * itself (the emulator's: it does nothing but leave the idle loop).
 * Prints the summary line and, with VERBOSE, the events between wakeup
 * and run of the first 20 wakes whose wake-to-run exceeded 1 ms.
 */
static void trace_report(int cpu, const long long *dl, const long long *ul, long n,
			 int verbose, const char *comm_held, const char *comm_me)
{
	long long *w2r = calloc(nev + 1, sizeof(*w2r));
	long long *hw2r = calloc(nev + 1, sizeof(*hw2r));
	long long sum_tim = 0, sum_sch = 0, sum_usr = 0;
	long nw = 0, nheld = 0, over = 0, hover = 0, hkept = 0, hkept_over = 0, hended = 0;
	long late = 0, late_tim = 0, late_halted = 0, shown = 0;
	char cur[24] = "?";
	int idle_d = 0;
	size_t i, k, kd = 0;
	long j = 0;

	for (i = 0; i < nev && w2r && hw2r; i++) {
		struct wake wk = { 0 };
		int kept = 0, ended = 0;

		if (evs[i].kind == 'S' || evs[i].kind == 's')
			snprintf(cur, sizeof(cur), "%s", evs[i].cur);
		if (evs[i].kind != 'w' || !strcmp(cur, comm_me))
			continue;
		wk.w = evs[i].t;
		while (j + 1 < n && dl[j + 1] <= wk.w + 1000)	/* µs rounding */
			j++;
		if (j >= n || dl[j] > wk.w + 1000)
			continue;
		wk.d = dl[j];
		wk.u = ul[j];
		snprintf(wk.cur, sizeof(wk.cur), "%s", cur);
		wk.held = !strcmp(cur, comm_held);
		for (; kd < nev && evs[kd].t <= wk.d; kd++)
			if (evs[kd].kind == 'i' || evs[kd].kind == 'x')
				idle_d = evs[kd].kind == 'i';
		wk.halted = idle_d;
		wk.h = wk.w;
		for (k = i; k > 0 && evs[k - 1].t >= wk.d - 1000; k--)
			if (evs[k - 1].kind == 'h') {
				wk.h = evs[k - 1].t;
				break;
			}
		for (k = i + 1; k < nev && !wk.s; k++) {
			if (evs[k].kind == 's') {
				wk.s = evs[k].t;
				ended = evs[k].left;
			}
			else if (evs[k].kind == 'i' ||
				 (evs[k].kind == 'S' && !strcmp(evs[k].cur, comm_held)))
				kept = 1;
		}
		if (!wk.s)
			continue;
		w2r[nw++] = wk.s - wk.w;
		over += wk.s - wk.w > 1000000;
		if (wk.held) {
			hw2r[nheld++] = wk.s - wk.w;
			hover += wk.s - wk.w > 1000000;
			hkept += kept;
			hkept_over += kept && wk.s - wk.w > 1000000;
			hended += ended;
		}
		if (verbose && wk.s - wk.w > 1000000 && shown++ < 20) {
			printf("rtwake-w2r ran=%s wake-to-run=%lldus events between (us, i/x idle enter/exit, S switch, p memreg, h/H timer):",
			       wk.cur, (wk.s - wk.w) / 1000);
			for (k = i + 1; k < nev && evs[k].t < wk.s; k++)
				printf(" +%lld%c%s", (evs[k].t - wk.w) / 1000, evs[k].kind, evs[k].cur);
			printf("\n");
		}
		if (wk.u - wk.d <= 1000000)
			continue;
		late++;
		late_tim += wk.w - wk.d > 1000000;
		late_halted += wk.halted;
		sum_tim += wk.w - wk.d;
		sum_sch += wk.s - wk.w;
		sum_usr += wk.u - wk.s;
	}
	if (w2r && hw2r) {
		qsort(w2r, nw, sizeof(*w2r), cmp_ll);
		qsort(hw2r, nheld, sizeof(*hw2r), cmp_ll);
	}
	printf("rtwake-trace cpu=%d traced=%ld w2r_over1ms=%ld w2r_p50_us=%lld w2r_p99_us=%lld held=%ld held_kept=%ld held_waited_end=%ld held_over1ms=%ld held_kept_over1ms=%ld held_p50_us=%lld held_max_us=%lld late=%ld late_timer=%ld late_halted=%ld late_mean_timer_us=%lld late_mean_sched_us=%lld late_mean_user_us=%lld\n",
	       cpu, nw, over, nw ? w2r[nw / 2] / 1000 : 0,
	       nw ? w2r[(nw * 99 + 99) / 100 - 1] / 1000 : 0, nheld, hkept, hended, hover, hkept_over,
	       nheld ? hw2r[nheld / 2] / 1000 : 0, nheld ? hw2r[nheld - 1] / 1000 : 0,
	       late, late_tim, late_halted, late ? sum_tim / late / 1000 : 0,
	       late ? sum_sch / late / 1000 : 0, late ? sum_usr / late / 1000 : 0);
	free(w2r);
	free(hw2r);
}

/* ---- the checks (group rt): rtwake -k wakes|idle-latency -P PERIOD_US -- */

/* run the probe on cpu1 (FIFO 20, every 2 ms, 2 s, traced): its summary
 * in SUM, its traced line in TRC; every line it printed goes to the log
 * after LABEL */
static void probe(const char *label, char *sum, char *trc, size_t n)
{
	char *argv[] = { "/rtwake", "-c", "1", "-p", "20", "-i", "2000", "-t", "2",
			 "-T", "-v", NULL };
	char line[1024];
	FILE *f;

	sum[0] = trc[0] = '\0';
	mr_reap(mr_spawn("/tmp/rtwake.out", argv));
	f = fopen("/tmp/rtwake.out", "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		printf("rt: %s: %s\n", label, line);
		if (!strncmp(line, "rtwake ", 7))
			snprintf(sum, n, "%s", line);
		else if (!strncmp(line, "rtwake-trace ", 13))
			snprintf(trc, n, "%s", line);
	}
	if (f)
		fclose(f);
}

/* probe() while /pfload hogs cpu1 */
static void probe_beside_hog(const char *label, char *sum, char *trc, size_t n)
{
	char *hog[] = { "/pfload", "-c", "1", "-t", "3", NULL };
	pid_t w = mr_spawn(NULL, hog);

	mr_sleep(0.3);
	probe(label, sum, trc, n);
	mr_reap(w);
}


/*
 * rt-prio-unmap (rt_prio=20, cpu1 held beside its hog): a SCHED_FIFO 20
 * task on cpu1 maps and touches 8 MiB, sleeps 1 ms and unmaps it, in a
 * loop for 3 s: woken, it preempts the throttle thread's idle injection
 * and is in munmap() when that injection ends.  An injection that ends
 * while another task runs leaves that task a need_resched the preempt
 * count does not show; munmap's page-table loop (zap_pte_range) polls
 * need_resched() and calls cond_resched(), so on a kernel without full
 * preemption it spins forever unless the flag is folded (throttle.c).
 * The task must finish within 20 s, after at least 3 rounds (a loaded TCG
 * host manages about 10 in the 3 s; without the fold the task stayed
 * stuck in the first run that tried).
 */
static int rt_unmap(void)
{
	int fd[2], st = 0, done = 0;
	long rounds = -1;
	double t;
	pid_t w;

	if (pipe(fd))
		return mr_check("rt-prio-unmap", 0, "pipe: %s", strerror(errno));
	fflush(stdout);
	w = fork();
	if (w == 0) {
		struct sched_param sp = { .sched_priority = 20 };
		struct timespec ms = { 0, 1000000 }, t0, now;
		size_t len = 8 << 20;
		long k = 0;

		close(fd[0]);
		if (mr_pin(1) || sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(1);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (m == MAP_FAILED)
				_exit(1);
			memset(m, 1, len);
			/* the held CPU injects idle while this sleeps; woken,
			 * the task preempts the injection and unmaps at once,
			 * so the injection's end falls inside munmap() */
			nanosleep(&ms, NULL);
			munmap(m, len);
			k++;
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while (now.tv_sec - t0.tv_sec < 3);
		if (write(fd[1], &k, sizeof(k)) != sizeof(k))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	for (t = 0; w > 0 && t < 20 && !done; t += 0.1) {
		mr_sleep(0.1);
		done = waitpid(w, &st, WNOHANG) == w;
	}
	if (done && read(fd[0], &rounds, sizeof(rounds)) != sizeof(rounds))
		rounds = -1;
	close(fd[0]);
	return mr_check("rt-prio-unmap", done && WIFEXITED(st) && WEXITSTATUS(st) == 0 && rounds >= 3,
			"FIFO 20 task on the held cpu1, 8 MiB map/touch/sleep/unmap rounds for 3 s: %s, %ld rounds (exit status %d)",
			done ? "finished" : "still running after 20 s (stuck in the kernel: see the kernel log)",
			rounds, done ? st : -1);
}

/* share of wakes over 1 ms: A of B, 3 decimals (1 when B is 0) */
static double share(double a, double b)
{
	return b > 0 ? round(a / b * 1000) / 1000 : 1;
}

/*
 * rt-wakes (cpu0 and cpu1 regulated, cpu1's hog held most of each period
 * of P us): a SCHED_FIFO 20 task woken every 2 ms on cpu1, its wakes traced
 * (trace_report()).  What rt_prio promises is judged on the wakes that
 * found cpu1 held: from sched_wakeup to the task running, not from its
 * deadline, because under TCG the timer interrupt of a halted or busy
 * vCPU itself arrives milliseconds late (an idle CPU without memreg
 * shows it as often as a held one), which no kernel can help.
 *
 *   rt-prio-held-off  rt_prio=0 (the throttle thread at FIFO 50, above the
 *                     task): at least 90 % of the held wakes run only when
 *                     the hold ends (the thread sleeps), none by
 *                     preempting it (what a memreg whose thread stays
 *                     above rt_prio does; the share of held periods
 *                     depends on the host's speed, so no time is judged)
 *   rt-prio-wakes     rt_prio=20 (thread at 19): no held wake is kept (the
 *                     CPU never idles again or runs another task before
 *                     the task runs), and the share of held wakes not
 *                     running within 1 ms is at most 0.05 above that of
 *                     an idle cpu1 (the emulator's stalls of a CPU
 *                     leaving its idle loop, measured in the same boot:
 *                     they show as a wake-to-run over 1 ms with nothing
 *                     in between, about 1 % of wakes)
 *   rt-prio-unmap     above
 */
static int rt_wakes(long long P)
{
	static char isum[1024], itrc[1024], fsum[1024], ftrc[1024], osum[1024], otrc[1024];
	double iover, itr, fheld, fend, fp50, oheld, okept, oover, okover;
	long long t0, k0, t1, k1;
	long prio;
	pid_t w;
	int ok;

	mr_put("1\n", "monitor");
	mr_commit();
	tr_keep(true);
	probe("idle cpu1", isum, itrc, sizeof(isum));
	mr_put("0\n", "monitor");
	mr_commit();
	probe_beside_hog("held, rt_prio=0", fsum, ftrc, sizeof(fsum));
	/* The kernel's real-time throttling (95 % of a second) charges the
	 * injected idle to the throttle thread and then stops every RT task
	 * on the CPU, the probe included (README): off, as README advises
	 * where rt_prio matters. */
	mr_write("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	mr_put("20\n", "rt_prio");
	mr_commit();
	prio = mr_throttle_prio(1);
	t0 = mr_cpu(1, "throttles"); k0 = mr_cpu(1, "periods");
	probe_beside_hog("held, rt_prio=20", osum, otrc, sizeof(osum));
	t1 = mr_cpu(1, "throttles"); k1 = mr_cpu(1, "periods");
	w = mr_spawn(NULL, (char *[]){ "/pfload", "-c", "1", "-t", "4", NULL });
	mr_sleep(0.3);
	ok = rt_unmap();
	mr_reap(w);
	tr_keep(false);
	mr_write("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	mr_put("0\n", "rt_prio");
	mr_commit();

	itr = mr_field(itrc, "traced", 0);
	iover = mr_field(itrc, "w2r_over1ms", 0);
	fheld = mr_field(ftrc, "held", 0);
	fend = mr_field(ftrc, "held_waited_end", 0);
	fp50 = mr_field(ftrc, "held_p50_us", 0);
	oheld = mr_field(otrc, "held", 0);
	okept = mr_field(otrc, "held_kept", 0);
	oover = mr_field(otrc, "held_over1ms", 0);
	okover = mr_field(otrc, "held_kept_over1ms", 0);
	ok &= mr_check("rt-prio-held-off", fheld >= 10 && fend >= 0.9 * fheld,
		       "rt_prio=0 (thread prio 50 above the FIFO 20 task): %.0f wakes on the held cpu1, %.0f waited for the hold to end, wake-to-run median %.0fus; %s",
		       fheld, fend, fp50, fsum);
	ok &= mr_check("rt-prio-wakes",
		       oheld >= 100 && okept == 0 && share(oover, oheld) <= share(iover, itr) + 0.05,
		       "rt_prio=20 (thread prio %ld), throttles meanwhile %lld in %lld periods of %lldus: %.0f wakes on the held cpu1, %.0f kept waiting (%.0f of them over 1 ms), %.0f not running within 1 ms of their wakeup (share %.3f; idle cpu1 %.0f of %.0f, %.3f); wall time from the deadline: held %s; idle %s",
		       prio, t1 - t0, k1 - k0, P, oheld, okept, okover, oover, share(oover, oheld),
		       iover, itr, share(iover, itr), osum, isum);
	return ok;
}

/*
 * rt-idle-latency (same load, P us periods): the cpuidle exit latency the
 * idle injections of a held CPU allow, read with a kretprobe on memreg's
 * mrk_idle_latency() (throttle.c: what the throttle thread hands to
 * play_idle_precise(); cpuidle's own functions are notrace, so no probe
 * there): P/20 with rt_prio off, min(P/20, 100 us) with rt_prio=20, never
 * "no limit" (U64_MAX: the deepest state).  A TCG guest has no cpuidle
 * driver, so the state a board then enters, and what leaving it costs,
 * shows only on a board (/sys/devices/system/cpu/cpuN/cpuidle/stateK/).
 */
/* the latency limits of the holds traced in S seconds of a hog on cpu1:
 * how many, the smallest and the largest */
static void idle_limits(double s, long *n, unsigned long long *lo, unsigned long long *hi)
{
	char *hog[] = { "/pfload", "-c", "1", "-t", "2", NULL };
	char line[512];
	pid_t w;
	FILE *f;

	*n = 0;
	*lo = ~0ULL;
	*hi = 0;
	tr_put("tracing_on", "0\n");
	tr_put("trace", "\n");
	/* room for the group's sched events too (init.sh keeps them on) */
	tr_put("buffer_size_kb", "8192\n");
	tr_put("events/rtwake_kp/idlelat/enable", "1\n");
	tr_put("tracing_on", "1\n");
	w = mr_spawn(NULL, hog);
	mr_sleep(s);
	tr_put("tracing_on", "0\n");
	mr_reap(w);
	tr_put("events/rtwake_kp/idlelat/enable", "0\n");
	f = fopen(TR "/trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " idlelat: ");
		char *l = p ? strstr(p, " lat=") : NULL;
		unsigned long long v;

		if (!l || sscanf(l, " lat=%llu", &v) != 1)
			continue;
		(*n)++;
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
	if (f)
		fclose(f);
}

static int idle_latency(long long P)
{
	unsigned long long want0 = (unsigned long long)P * 1000 / 20;
	unsigned long long want20 = want0 < 100000 ? want0 : 100000;
	unsigned long long lo0, hi0, lo20, hi20;
	long n0, n20;
	int rc;
	char sym[128] = "", cmd[256], line[256], why[256] = "";
	FILE *f = fopen("/proc/kallsyms", "r");
	int fd;

	/* the function's name, a compiler's clone (.isra, .constprop) included */
	while (f && !sym[0] && fgets(line, sizeof(line), f)) {
		char name[128];

		if (sscanf(line, "%*s %*s %127s", name) == 1 && !strncmp(name, "mrk_idle_latency", 16) &&
		    (!name[16] || name[16] == '.'))
			snprintf(sym, sizeof(sym), "%s", name);
	}
	if (f)
		fclose(f);
	snprintf(cmd, sizeof(cmd), "r:rtwake_kp/idlelat memreg:%s lat=$retval:u64\n",
		 sym[0] ? sym : "mrk_idle_latency");
	/* write(2), not stdio: glibc's append mode seeks, which tracefs refuses */
	fd = open(TR "/kprobe_events", O_WRONLY | O_APPEND);
	rc = fd >= 0 && write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd);
	if (fd >= 0)
		close(fd);
	if (!rc) {
		int e = errno;

		f = fopen(TR "/error_log", "r");
		if (f && !fread(why, 1, sizeof(why) - 1, f))
			why[0] = '\0';
		if (f)
			fclose(f);
		why[strcspn(why, "\n")] = '\0';
		return mr_check("rt-idle-latency", 0, "cannot add a kretprobe on memreg:%s: %s (%s)",
				sym[0] ? sym : "mrk_idle_latency (not in /proc/kallsyms)", strerror(e), why);
	}
	idle_limits(1.5, &n0, &lo0, &hi0);
	mr_put("20\n", "rt_prio");
	mr_commit();
	idle_limits(1.5, &n20, &lo20, &hi20);
	mr_put("0\n", "rt_prio");
	mr_commit();
	tr_put("kprobe_events", "-:rtwake_kp/idlelat\n");
	return mr_check("rt-idle-latency",
			n0 >= 10 && lo0 == want0 && hi0 == want0 && n20 >= 10 && lo20 == want20 &&
				hi20 == want20,
			"period %lldus: rt_prio=0: %ld holds with exit latency limits %llu..%llu ns (want %llu); rt_prio=20: %ld with %llu..%llu ns (want %llu)",
			P, n0, lo0, hi0, want0, n20, lo20, hi20, want20);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { 0 };
	struct timespec next, now;
	long interval_us = 2000, secs = 2, end, i, n = 0, over = 0;
	int cpu = 0, prio = 20, opt, trace = 0, verbose = 0;
	const char *check = NULL;
	long long P = 0;
	char held[32];
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:p:i:t:Tvk:P:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 'p': prio = atoi(optarg); break;
		case 'i': interval_us = atol(optarg); break;
		case 't': secs = atol(optarg); break;
		case 'T': trace = 1; break;
		case 'v': verbose = 1; break;
		case 'k': check = optarg; break;
		case 'P': P = atoll(optarg); break;
		default:
			fprintf(stderr, "usage: rtwake -c CPU -p PRIO -i INTERVAL_US -t SECONDS [-T [-v]]\n");
			return 2;
		}
	}
	if (check && P > 0 && !strcmp(check, "wakes"))
		return !rt_wakes(P);
	if (check && P > 0 && !strcmp(check, "idle-latency"))
		return !idle_latency(P);
	if (check && !strcmp(check, "events"))
		return tr_events_on();
	if (check) {
		fprintf(stderr, "usage: rtwake -k wakes|idle-latency -P PERIOD_US | -k events\n");
		return 2;
	}
	if (interval_us < 100 || secs < 1 || prio < 1 || prio > 99) {
		fprintf(stderr, "rtwake: interval >= 100 us, seconds >= 1, prio 1..99\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("rtwake: sched_setaffinity");
		return 1;
	}
	sp.sched_priority = prio;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("rtwake: sched_setscheduler");
		return 1;
	}
	mlockall(MCL_CURRENT | MCL_FUTURE);
	memset(lat_ns, 0, sizeof(lat_ns));	/* fault the tables in now */
	memset(dl_ns, 0, sizeof(dl_ns));
	memset(ul_ns, 0, sizeof(ul_ns));
	if (trace)
		trace_start(cpu);
	clock_gettime(CLOCK_MONOTONIC, &next);
	end = ts_ns(&next) + secs * 1000000000L;
	while (n < MAX_WAKES) {
		next.tv_nsec += interval_us * 1000;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		if (ts_ns(&next) > end)
			break;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		lat_ns[n] = ts_ns(&now) - ts_ns(&next);
		dl_ns[n] = ts_ns(&next);
		ul_ns[n] = ts_ns(&now);
		if (lat_ns[n] > 1000000)
			over++;
		n++;
		/* a late wake skips the deadlines it missed */
		if (ts_ns(&now) > ts_ns(&next) + interval_us * 1000)
			next = now;
	}
	if (trace) {
		trace_stop();
		trace_read(cpu, (int)getpid());
	}
	qsort(lat_ns, n, sizeof(lat_ns[0]), cmp_long);
	i = n ? (n * 99 + 99) / 100 - 1 : 0;
	printf("rtwake cpu=%d prio=%d wakes=%ld p50_us=%ld p99_us=%ld max_us=%ld over1ms=%ld\n",
	       cpu, prio, n, n ? lat_ns[n / 2] / 1000 : 0, n ? lat_ns[i] / 1000 : 0,
	       n ? lat_ns[n - 1] / 1000 : 0, over);
	if (trace) {
		snprintf(held, sizeof(held), "memreg/%d", cpu);
		trace_report(cpu, dl_ns, ul_ns, n, verbose, held, "rtwake");
	}
	return 0;
}
