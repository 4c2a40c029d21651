// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_selfcheck.c - overflow-delivery check and PMU-user detection (see
 * pmu_selfcheck.h).
 *
 * File map (the delivery check itself is in pmu_delivery.c):
 *   other PMU users            nmi_watchdog_on(), scan_perf_holders(),
 *                              cal_pmu_find_users()
 *   the event of each CPU      kind_of(), cal_selfcheck_cpu_event()
 *   the checks of a run        cal_selfcheck_count_verdict(),
 *                              count_median(), cal_selfcheck_counts(),
 *                              kind_count(),
 *                              cal_selfcheck_kind_counts(),
 *                              cal_selfcheck_delivery(),
 *                              cal_selfcheck_users()
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cpu_types.h"
#include "kernels.h"
#include "memcal_status.h"
#include "memreg.h"
#include "pmu_selfcheck.h"
#include "stats.h"

/* Why a check that needs a counter is skipped when none is usable. */
#define NO_COUNTER "skipped: no usable PMU counter on this machine (the " \
	"run's PMU status says why)"

/*
 * read_sysctl - the integer in <procfs>/sys/kernel/@name, or @fallback
 * when it cannot be read.
 */
static int read_sysctl(const char *name, int fallback)
{
	char path[512], buf[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/%s", cal_procfs_root(),
		 name);
	f = fopen(path, "r");
	if (!f)
		return fallback;
	if (!fgets(buf, sizeof(buf), f) || !buf[0] || buf[0] == '\n') {
		fclose(f);
		return fallback;
	}
	fclose(f);
	return atoi(buf);
}

/* nmi_watchdog_on - kernel.nmi_watchdog is 1 (procfs root honoured). */
static bool nmi_watchdog_on(void)
{
	return read_sysctl("nmi_watchdog", 0) == 1;
}

/* holds_perf - process directory @pid has a perf event file open. */
static bool holds_perf(const char *root, const char *pid)
{
	char path[512];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/fd", root, pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char link[800], target[64];
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%.255s", path, e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		found = !strcmp(target, "anon_inode:[perf_event]");
	}
	closedir(d);
	return found;
}

/* scan_perf_holders - every other process with perf events open. */
static void scan_perf_holders(struct memcal_pmu_users *u)
{
	const char *root = cal_procfs_root();
	char self[32];
	struct dirent *e;
	DIR *d = opendir(root);

	snprintf(self, sizeof(self), "%d", (int)getpid());
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[600], comm[32] = "?";
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    !strcmp(e->d_name, self) || !holds_perf(root, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", root, e->d_name);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				snprintf(comm, sizeof(comm), "?");
			comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		if (u->n_holders < 4)
			snprintf(u->holders[u->n_holders],
				 sizeof(u->holders[0]), "%.12s (%.30s)",
				 e->d_name, comm);
		u->n_holders++;
	}
	closedir(d);
}

/*
 * cal_pmu_find_users - who else holds counters: the NMI watchdog (a
 * cycles counter on every CPU) and processes with perf events open (perf
 * record/stat, profilers).  @u->message names them and how to free them.
 * Return: 1 when someone does, 0 when the PMU is free.
 */
int cal_pmu_find_users(struct memcal_pmu_users *u)
{
	size_t off = 0;

	memset(u, 0, sizeof(*u));
	u->nmi_watchdog = nmi_watchdog_on();
	u->paranoid = read_sysctl("perf_event_paranoid", 2);
	scan_perf_holders(u);
	if (u->nmi_watchdog)
		off += (size_t)snprintf(u->message, sizeof(u->message),
					"the NMI watchdog holds a counter on "
					"every CPU (free it: sysctl "
					"kernel.nmi_watchdog=0)");
	if (u->n_holders) {
		off += (size_t)snprintf(u->message + off,
					sizeof(u->message) - off,
					"%s%u process%s hold%s perf events "
					"(stop %s", off ? "; " : "",
					u->n_holders,
					u->n_holders > 1 ? "es" : "",
					u->n_holders > 1 ? "" : "s",
					u->n_holders > 1 ? "them" : "it");
		for (unsigned i = 0; i < u->n_holders && i < 4 &&
		     off < sizeof(u->message); i++)
			off += (size_t)snprintf(u->message + off,
						sizeof(u->message) - off,
						"%s%s", i ? ", " : ": ",
						u->holders[i]);
		if (off < sizeof(u->message))
			off += (size_t)snprintf(u->message + off,
						sizeof(u->message) - off, ")");
	}
	if (u->paranoid > 2 && geteuid() != 0 && off < sizeof(u->message))
		snprintf(u->message + off, sizeof(u->message) - off,
			 "%skernel.perf_event_paranoid is %d: only root may "
			 "open counters (run as root, or sysctl "
			 "kernel.perf_event_paranoid=2)", off ? "; " : "",
			 u->paranoid);
	return u->nmi_watchdog || u->n_holders;
}

/* kind_of - the kind of @kinds whose cpulist holds @cpu, or NULL. */
static const struct memcal_cpu_kind *
kind_of(const struct memcal_cpu_kind *kinds, size_t n, unsigned cpu)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t list[1024];
		const char *why;
		size_t m;

		if (cli_parse_u32_list(kinds[i].cpus, 0, 1023, list, 1024, &m,
				       &why))
			continue;
		for (size_t j = 0; j < m; j++)
			if (list[j] == cpu)
				return &kinds[i];
	}
	return NULL;
}

/*
 * cal_selfcheck_cpu_event - the @traffic event ("read" or "write") a
 * check counts on @cpu with, by memtune's rule: with several kinds of CPU
 * in @kinds, the kind's own event (its memreg spec, "9:0x2a": the type
 * is the kind's PMU); else, or when the kind has none, the run's chosen
 * event of @r.  Return: 0, or MEMCAL_ENOTFOUND when there is neither.
 */
int cal_selfcheck_cpu_event(const struct memcal_pmu_report *r,
			       const struct memcal_cpu_kind *kinds,
			       size_t n_kinds, unsigned cpu,
			       const char *traffic,
			       struct memcal_selfcheck_event *e)
{
	const struct memcal_cpu_kind *k = kind_of(kinds, n_kinds, cpu);
	int cls = strcmp(traffic, "write") ? 0 : 1;
	const struct memcal_pmu_event *run = NULL;
	struct memreg_event ev;
	const char *why;

	memset(e, 0, sizeof(*e));
	e->attr.size = sizeof(e->attr);
	if (n_kinds > 1 && k && k->event[cls][0] &&
	    !memreg_event_parse(k->event[cls],
				(memreg_u32)strlen(k->event[cls]), &ev, &why) &&
	    ev.counted && (!ev.pmu || k->perf_type >= 0)) {
		/* a spec names the kind's own PMU: its type on this kernel */
		e->attr.type = ev.pmu ? (uint32_t)k->perf_type : ev.type;
		e->attr.config = ev.config;
		snprintf(e->event, sizeof(e->event), "%s", k->event[cls]);
		snprintf(e->whose, sizeof(e->whose), "%s (cpus %s) counts its "
			 "own %s %s%s%s", k->label, k->cpus, k->event[cls],
			 k->event_name[cls], k->perf_pmu[0] ? " on " : "",
			 k->perf_pmu);
		return 0;
	}
	for (size_t i = 0; i < r->n_events; i++)
		if (r->events[i].chosen &&
		    !strcmp(r->events[i].traffic, traffic))
			run = &r->events[i];
	if (!run)
		return MEMCAL_ENOTFOUND;
	e->attr.type = run->perf_type;
	e->attr.config = run->perf_config;
	e->attr.config1 = run->perf_config1;
	snprintf(e->event, sizeof(e->event), "%s", run->name);
	if (k)
		snprintf(e->whose, sizeof(e->whose), "%s (cpus %s) counts the "
			 "run's %s", k->label, k->cpus, run->name);
	return 0;
}

/*
 * cal_selfcheck_count_verdict - judge a read or write event that
 * counted @count while a kernel moved @lines cache lines of @traffic:
 * within MEMCAL_SELFCHECK_TOL_PCT it passes; zero is refused.
 */
void cal_selfcheck_count_verdict(struct memcal_selfcheck *c,
				    const char *traffic, double lines,
				    double count)
{
	const char *done = strcmp(traffic, "write") ? "read" : "written";
	double ratio = lines > 0 ? count / lines : 0;

	snprintf(c->check, sizeof(c->check), "%s-count", traffic);
	c->expected = lines;
	c->measured = count > 0 ? count : 0;
	c->tolerance_pct = MEMCAL_SELFCHECK_TOL_PCT;
	if (!(count > 0)) {
		snprintf(c->verdict, sizeof(c->verdict), "fail");
		snprintf(c->message, sizeof(c->message), "%s counted nothing "
			 "while %.0f lines were %s: it does not count %s "
			 "traffic here, so it is refused as the %s event",
			 c->event, lines, done, traffic, traffic);
	} else if (fabs(ratio - 1) * 100 <= MEMCAL_SELFCHECK_TOL_PCT) {
		snprintf(c->verdict, sizeof(c->verdict), "pass");
		snprintf(c->message, sizeof(c->message), "%s counted %.0f for "
			 "%.0f lines %s (%.2f per line, within %.0f%%)",
			 c->event, count, lines, done, ratio,
			 MEMCAL_SELFCHECK_TOL_PCT);
	} else {
		snprintf(c->verdict, sizeof(c->verdict), "fail");
		snprintf(c->message, sizeof(c->message), "%s counted %.0f for "
			 "%.0f lines %s (%.2f per line, outside %.0f%%): "
			 "budgets in lines would be off by that factor",
			 c->event, count, lines, done, ratio,
			 MEMCAL_SELFCHECK_TOL_PCT);
	}
}

/* skip - a check that cannot run here, with the reason. */
static int skip(memcal_selfcheck_add_fn add, void *user, const char *check,
		const char *why)
{
	struct memcal_selfcheck c = { .cpu = -1 };

	snprintf(c.check, sizeof(c.check), "%s", check);
	snprintf(c.verdict, sizeof(c.verdict), "skip");
	snprintf(c.message, sizeof(c.message), "%s", why);
	return add(user, &c);
}

/*
 * checked_event - the event of @r to check for @traffic: the chosen one,
 * else the first candidate that opened (so its failure is on record);
 * -1 when none opened.
 */
static int checked_event(const struct memcal_pmu_report *r,
			 const char *traffic)
{
	int first = -1;

	for (size_t i = 0; i < r->n_events; i++) {
		if (strcmp(r->events[i].traffic, traffic) || r->fds[i] < 0)
			continue;
		if (r->events[i].chosen)
			return (int)i;
		if (first < 0)
			first = (int)i;
	}
	return first;
}

/*
 * count_median - what @fd counts in one pass of the read (@wr: write)
 * kernel over @buf: the median of three passes after a warm-up, 0 when
 * none could be read.  @secs receives the length of one pass (0 when
 * none was read).
 */
static double count_median(int fd, bool wr, void *buf, size_t bytes,
			   double *secs)
{
	double v[3], total = 0;
	unsigned n = 0;

	*secs = 0;
	cal_pmu_count_pass(fd, wr, buf, bytes);
	for (unsigned p = 0; p < 3; p++) {
		struct timespec t0, t1;
		double got;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		got = cal_pmu_count_pass(fd, wr, buf, bytes);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (got < 0)
			continue;
		v[n++] = got;
		total += (double)(t1.tv_sec - t0.tv_sec) +
			 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	}
	if (!n)
		return 0;
	*secs = total / n;
	return cal_median(v, n);
}

/*
 * cal_selfcheck_counts - the read and the write event each count the
 * lines of one pass over @buf (@bytes, lines of @line bytes), separately;
 * the median of three passes after a warm-up is judged.  An event that
 * counts nothing loses its "chosen" mark.  @read_rate receives the read
 * event's count per second (0 when unknown).  Runs on the thread that
 * opened @r's events.  Return: 0, or MEMCAL_ENOMEM when @add fails.
 */
int cal_selfcheck_counts(struct memcal_pmu_report *r, void *buf,
			    size_t bytes, unsigned line, double *read_rate,
			    memcal_selfcheck_add_fn add, void *user)
{
	static const char *const traffic[] = { "read", "write" };
	char why[512];

	*read_rate = 0;
	bytes -= bytes % MEMCAL_KERNEL_GRANULE;
	for (size_t t = 0; t < 2; t++) {
		struct memcal_selfcheck c = { .cpu = -1 };
		bool wr = t == 1;
		double secs = 0;
		int i;

		snprintf(c.check, sizeof(c.check), "%s-count", traffic[t]);
		if (!r->status.available) {
			if (skip(add, user, c.check, NO_COUNTER))
				return MEMCAL_ENOMEM;
			continue;
		}
		i = checked_event(r, traffic[t]);
		if (i < 0) {
			snprintf(why, sizeof(why), "skipped: no %s event of %s "
				 "opened, so none can be checked", traffic[t],
				 r->family ? r->family->name : "this PMU");
			if (skip(add, user, c.check, why))
				return MEMCAL_ENOMEM;
			continue;
		}
		snprintf(c.event, sizeof(c.event), "%s", r->events[i].name);
		cal_selfcheck_count_verdict(&c, traffic[t],
					       (double)bytes / line,
					       count_median(r->fds[i], wr, buf,
							    bytes, &secs));
		if (!(c.measured > 0) && r->events[i].chosen) {
			r->events[i].chosen = false;
			snprintf(r->events[i].message,
				 sizeof(r->events[i].message), "refused: "
				 "counted nothing in the self-check");
		}
		if (!wr && secs > 0)
			*read_rate = c.measured / secs;
		if (add(user, &c))
			return MEMCAL_ENOMEM;
	}
	return 0;
}

/*
 * kind_count - one count check of kind @i of @kinds: its own @traffic
 * event on @cpu (a CPU of that kind), the calling thread moved there for
 * the check and back.  An event that counts nothing is refused: the kind
 * then counts the run's event, as memtune will plan it.
 * Return: what @add returns.
 */
static int kind_count(struct memcal_cpu_kind *kinds, size_t n_kinds,
		      size_t i, unsigned cpu, const char *traffic, void *buf,
		      size_t bytes, unsigned line,
		      memcal_selfcheck_add_fn add, void *user)
{
	static const struct memcal_pmu_report no_run;
	struct memcal_selfcheck c = { .cpu = (int)cpu }, v = { 0 };
	struct memcal_cpu_kind *k = &kinds[i];
	struct memcal_selfcheck_event e;
	int cls = strcmp(traffic, "write") ? 0 : 1;
	cpu_set_t set, old;
	double secs;
	int fd;

	if (cal_selfcheck_cpu_event(&no_run, kinds, n_kinds, cpu, traffic,
				       &e))
		return 0;
	snprintf(c.check, sizeof(c.check), "%s-count", traffic);
	snprintf(c.event, sizeof(c.event), "%s", e.event);
	e.attr.disabled = 1;
	e.attr.exclude_hv = 1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_getaffinity(0, sizeof(old), &old) ||
	    sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(c.verdict, sizeof(c.verdict), "fail");
		snprintf(c.message, sizeof(c.message), "%.300s: cannot run on "
			 "cpu %u to check it: %s", e.whose, cpu,
			 strerror(errno));
		return add(user, &c);
	}
	fd = (int)syscall(__NR_perf_event_open, &e.attr, 0, -1, -1, 0);
	if (fd < 0) {
		snprintf(c.verdict, sizeof(c.verdict), "fail");
		snprintf(c.message, sizeof(c.message), "%.300s: "
			 "perf_event_open on cpu %u: %s (the kind's PMU does "
			 "not take this event here)", e.whose, cpu,
			 strerror(errno));
	} else {
		snprintf(v.event, sizeof(v.event), "%s", e.event);
		cal_selfcheck_count_verdict(&v, traffic,
					       (double)bytes / line,
					       count_median(fd, cls, buf, bytes,
							    &secs));
		close(fd);
		c.expected = v.expected;
		c.measured = v.measured;
		c.tolerance_pct = v.tolerance_pct;
		snprintf(c.verdict, sizeof(c.verdict), "%s", v.verdict);
		snprintf(c.message, sizeof(c.message), "%.250s: %.255s",
			 e.whose, v.message);
		if (!(c.measured > 0)) {
			k->event[cls][0] = '\0';
			snprintf(k->why[cls], sizeof(k->why[cls]), "refused: "
				 "%s counted nothing in the self-check on cpu "
				 "%u", e.event, cpu);
		}
	}
	sched_setaffinity(0, sizeof(old), &old);
	return add(user, &c);
}

/*
 * cal_selfcheck_kind_counts - on a board with several kinds of CPU
 * (@n_kinds > 1), each kind's own read and write event counts the lines
 * of one pass over @buf (@bytes, lines of @line bytes) on the kind's
 * first CPU among @cpus, once per kind and class, with the rule of
 * cal_selfcheck_count_verdict(); the message names the kind.  An
 * event that counts nothing is taken from @kinds (its why says so).  A
 * kind with no CPU in the run is stored as skipped.  One kind: nothing
 * (the run's events are the kind's, checked by cal_selfcheck_counts).
 * Return: 0, or MEMCAL_ENOMEM when @add fails.
 */
int cal_selfcheck_kind_counts(struct memcal_cpu_kind *kinds,
				 size_t n_kinds, const unsigned *cpus,
				 unsigned n, void *buf, size_t bytes,
				 unsigned line, memcal_selfcheck_add_fn add,
				 void *user)
{
	static const char *const traffic[] = { "read", "write" };

	bytes -= bytes % MEMCAL_KERNEL_GRANULE;
	for (size_t i = 0; n_kinds > 1 && i < n_kinds; i++) {
		const struct memcal_cpu_kind *k = &kinds[i];
		unsigned j = 0;

		while (j < n && kind_of(kinds, n_kinds, cpus[j]) != k)
			j++;
		for (size_t t = 0; t < 2; t++) {
			char check[16], why[512];

			if (!k->event[t][0])
				continue;
			if (j < n) {
				if (kind_count(kinds, n_kinds, i, cpus[j],
					       traffic[t], buf, bytes, line,
					       add, user))
					return MEMCAL_ENOMEM;
				continue;
			}
			snprintf(check, sizeof(check), "%s-count", traffic[t]);
			snprintf(why, sizeof(why), "skipped: no CPU of the run "
				 "is a %s (cpus %s), so its %s %s is not "
				 "checked", k->label, k->cpus, traffic[t],
				 k->event[t]);
			if (skip(add, user, check, why))
				return MEMCAL_ENOMEM;
		}
	}
	return 0;
}

/**
 * struct read_load - the load of the delivery check.
 * @buf:   buffer read.
 * @bytes: its size (a multiple of MEMCAL_KERNEL_GRANULE).
 * @k:     the read kernel.
 */
struct read_load {
	void *buf;
	size_t bytes;
	const struct memcal_kernel *k;
};

/* read_for - read @user's buffer over and over for @seconds. */
static void read_for(double seconds, void *user)
{
	struct read_load *l = user;
	struct timespec t0, t;
	volatile uint64_t sink = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sink += l->k->fn(l->buf, l->buf, l->bytes, 1);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
	(void)sink;
}

/*
 * cal_selfcheck_delivery - on each of @cpus, its read event
 * (cal_selfcheck_cpu_event() with @kinds) sampled as the regulator
 * will use it must deliver its overflow interrupts at
 * MEMCAL_SELFCHECK_PERIOD_US's rate.  The sample period is taken from
 * @read_rate so that the load should overflow four times as often as
 * needed.  Return: 0, or MEMCAL_ENOMEM when @add fails.
 */
int cal_selfcheck_delivery(const struct memcal_pmu_report *r,
			      const struct memcal_cpu_kind *kinds,
			      size_t n_kinds, const unsigned *cpus, unsigned n,
			      double read_rate, void *buf, size_t bytes,
			      memcal_selfcheck_add_fn add, void *user)
{
	double needed = 1e6 / MEMCAL_SELFCHECK_PERIOD_US;
	struct read_load load = {
		.buf = buf, .bytes = bytes - bytes % MEMCAL_KERNEL_GRANULE,
		.k = cal_kernel_best(MEMCAL_OP_READ),
	};

	if (!r->status.available || !load.k)
		return skip(add, user, "delivery", NO_COUNTER);
	for (unsigned i = 0; i < n; i++) {
		struct memcal_selfcheck c = { .cpu = (int)cpus[i],
			.tolerance_pct = 100 * (1 - MEMCAL_DELIVERY_MIN_RATIO) };
		struct memcal_selfcheck_event e;
		struct memcal_delivery d;
		int rc;

		snprintf(c.check, sizeof(c.check), "delivery");
		if (cal_selfcheck_cpu_event(r, kinds, n_kinds, cpus[i],
					       "read", &e)) {
			snprintf(c.verdict, sizeof(c.verdict), "skip");
			snprintf(c.message, sizeof(c.message), "skipped: no "
				 "read event passed validation, so delivery "
				 "cannot be checked with it on cpu %u",
				 cpus[i]);
			if (add(user, &c))
				return MEMCAL_ENOMEM;
			continue;
		}
		e.attr.exclude_kernel = 1;
		e.attr.sample_period = read_rate > 4 * needed ?
			(uint64_t)(read_rate / (4 * needed)) : 1;
		snprintf(c.event, sizeof(c.event), "%s", e.event);
		rc = cal_pmu_check_delivery(&e.attr, cpus[i], needed,
					       MEMCAL_SELFCHECK_DELIVERY_S,
					       read_for, &load, &d);
		c.expected = d.expected;
		c.measured = (double)d.delivered;
		snprintf(c.verdict, sizeof(c.verdict), "%s",
			 !rc && d.pass ? "pass" : "fail");
		snprintf(c.message, sizeof(c.message), "%.250s%s%.255s", e.whose,
			 e.whose[0] ? ": " : "", d.message);
		if (add(user, &c))
			return MEMCAL_ENOMEM;
	}
	return 0;
}

/*
 * cal_selfcheck_users - another user of the PMU (the NMI watchdog, a
 * running perf) or a perf_event_paranoid that locks this user out: "warn"
 * with who and how to free it, else "pass".  Return: what @add returns.
 */
int cal_selfcheck_users(memcal_selfcheck_add_fn add, void *user)
{
	struct memcal_selfcheck c = { .cpu = -1 };
	struct memcal_pmu_users u;

	snprintf(c.check, sizeof(c.check), "pmu-users");
	cal_pmu_find_users(&u);
	c.measured = (double)u.n_holders + u.nmi_watchdog;
	snprintf(c.verdict, sizeof(c.verdict), "%s", u.message[0] ? "warn"
		 : "pass");
	snprintf(c.message, sizeof(c.message), "%s", u.message[0] ? u.message
		 : "no other user of the PMU: NMI watchdog off, no other "
		 "process has perf events open");
	return add(user, &c);
}
