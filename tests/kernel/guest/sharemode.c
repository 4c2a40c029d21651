/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sharemode - guest-side checks of memreg's sharing modes (x86 QEMU group
 * "reclaim", std and rt).  Loads /memreg.ko itself with both CPUs
 * regulated on page faults at budget B per period, runs a page-fault hog
 * (/pfload) on cpu0 for the whole window and on cpu1 for its first half
 * (so that some periods have every CPU throttled and some do not),
 * records memreg:period and memreg:throttle, and replays the periods'
 * demand (the events each CPU's memreg:period record counted) through
 * the simulator (regulator/sim and regulator/core, compiled in):
 *
 *   share-param         share takes 0, 1, off, grant, spare, proportional
 *                       (shows 0, 1, spare, proportional) and refuses
 *                       anything else
 *   share-spare-release share=spare: a CPU is released (its period ends
 *                       with an unlimited budget, not throttled) only
 *                       after its own throttle and while the other CPU
 *                       was throttled too, is not throttled again in that
 *                       period (its counter fires no more), and runs on
 *                       past its budget; of the periods in which both
 *                       were throttled at least half release a CPU
 *   share-spare-sim     the simulator, fed each CPU's per-period demand,
 *                       releases the same CPU-periods (all but 20 %)
 *   share-prop-period   share=proportional: a new period (a second
 *                       memreg:period record with the same number) only
 *                       after the CPU's own throttle and while the other
 *                       was throttled; at least half of the periods in
 *                       which both were throttled start one
 *   share-prop-sim      the simulator starts new periods in the same
 *                       CPU-periods (all but 20 %)
 *
 *   sharemode -k MODULE -p PERIOD_US -b BUDGET
 *
 * PERIOD_US and BUDGET are the reclaim group's (BUDGET 10 % of the
 * unregulated page-fault rate over PERIOD_US); the checks run at 4 % of
 * that rate over 2.5 x PERIOD_US (10..30 ms), about 150 periods a mode.
 *
 * The first and last two periods of a window are left out (tracing
 * starts and stops within them).  cpu0, the master, runs a quarter period
 * behind the grid, so its periods overlap two of cpu1's: the rules look
 * at both neighbours, and both throttled in one period number need not
 * mean both throttled at once (hence "at least half").  What is compared
 * with the simulator is which CPU-periods had a release or a new period,
 * not how many new periods: the simulator runs every CPU on the grid.
 * A failing check prints the trace lines of up to three of its periods.
 *
 * Exit status: 0 when every check passed, 1 otherwise, 2 on bad usage.
 * Linked statically, with checklib, for the initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checklib.h"

/* the simulator and the core, as memreg-sim links them */
#include "../../../regulator/core/config.c"
#include "../../../regulator/core/budget.c"
#include "../../../regulator/core/reclaim.c"
#include "../../../regulator/core/master.c"
#include "../../../regulator/core/lms.c"
#include "../../../regulator/sim/sim.c"

#define MAXP 4096		/* periods kept per window */
#define INF_BUDGET 18446744073709551615ULL

static const char *ko = "/memreg.ko";
static int failed;

#define result(name, pass, ...) \
	(failed |= !mr_check(name, pass, __VA_ARGS__))

/**
 * struct slot - what the trace says about one CPU in one period
 * @nrec: memreg:period records (1 + new periods started)
 * @ntr: memreg:throttle records of the read class
 * @used: events of the last record (the period's end)
 * @budget: budget of the last record
 * @thr: the last record ended throttled
 */
struct slot {
	int nrec, ntr;
	unsigned long long used, budget;
	int thr;
};

static struct slot tr[MAXP][2];
static long long lo, hi;	/* period numbers traced */

/* Read the trace buffer into tr[][] (period numbers from lo). */
static void read_trace(void)
{
	char line[512];
	FILE *f = fopen(MR_TRACE "/trace", "r");

	memset(tr, 0, sizeof(tr));
	lo = -1;
	hi = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long u, b;
		char cls[8];
		long long idx;
		const char *p;
		int cpu, t;

		if ((p = strstr(line, " period: cpu=")) &&
		    sscanf(p, " period: cpu=%d period=%lld read=%llu/%llu write=%*u/%*u throttled=%d",
			   &cpu, &idx, &u, &b, &t) == 5) {
			if (lo < 0)
				lo = idx;
			if (cpu < 0 || cpu > 1 || idx < lo || idx - lo >= MAXP)
				continue;
			tr[idx - lo][cpu].nrec++;
			tr[idx - lo][cpu].used = u;
			tr[idx - lo][cpu].budget = b;
			tr[idx - lo][cpu].thr = t;
			if (idx > hi)
				hi = idx;
		} else if ((p = strstr(line, " throttle: cpu=")) &&
			   sscanf(p, " throttle: cpu=%d period=%lld class=%7s", &cpu, &idx, cls) == 3) {
			if (lo < 0)
				lo = idx;
			if (cpu < 0 || cpu > 1 || idx < lo || idx - lo >= MAXP ||
			    strcmp(cls, "read"))
				continue;
			tr[idx - lo][cpu].ntr++;
		}
	}
	fclose(f);
}

/* Period index i (from lo) is inside the window and fully recorded. */
static int usable(long long i)
{
	return i >= 2 && i <= hi - lo - 2 && tr[i][0].nrec && tr[i][1].nrec;
}

/* Whether memreg:throttle is being recorded. */
static int throttle_traced(void)
{
	char v[8] = "";
	FILE *f = fopen(MR_TRACE "/events/memreg/throttle/enable", "r");

	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
	}
	return v[0] == '1';
}

/*
 * Load with share=@mode at @p_us and budget @b on both CPUs, run the hogs
 * and trace for @secs; fills tr[][] (the module stays loaded).  Returns 0,
 * or -1 when the load failed.
 */
static int traced_window(const char *mode, long long p_us, long long b, int secs,
			 char *why, size_t n)
{
	char params[160];
	pid_t h0, h1;

	snprintf(params, sizeof(params), "cpus=0,1 period_us=%lld read_budget=%lld,%lld "
		 "platform_read=%lld share=%s", p_us, b, b, b * 4, mode);
	if (mr_insmod(ko, params)) {
		snprintf(why, n, "insmod %s failed", params);
		return -1;
	}
	h0 = mr_hog(0, secs + 2);
	h1 = mr_hog(1, secs / 2 + 1);
	mr_sleep(1);
	/* both events on before tracing starts: an enable takes effect late */
	for (int k = 0; k < 5 && !throttle_traced(); k++) {
		mr_write(MR_TRACE "/events/memreg/throttle/enable", "1");
		mr_sleep(0.05);
	}
	mr_trace_on("period");
	mr_sleep(secs);
	mr_trace_off("period");
	mr_write(MR_TRACE "/events/memreg/throttle/enable", "0");
	mr_stop(h1);
	mr_stop(h0);
	read_trace();
	return 0;
}

/*
 * Replay the window's demand (the last record's events of each usable
 * period; others 0) through the simulator in share @mode; per CPU and
 * period in @dec: 1 when the core was released (spare) or started a new
 * period (proportional).  Returns 0, or -1 with @why.
 */
static int simulate(memreg_u32 mode, long long p_us, long long b,
		    unsigned char *dec, char *why, size_t n)
{
	static uint64_t ev[MAXP * 4];
	static struct memreg_sim_period rows[MAXP * 2];
	static struct memreg_sim_result res;
	static struct memreg_sim_config cfg;
	struct memreg_sim_trace t;
	long long i, np = hi - lo + 1;
	uint32_t cpu;

	if (np <= 0 || np > MAXP) {
		snprintf(why, n, "no trace");
		return -1;
	}
	memset(ev, 0, sizeof(ev));
	for (i = 0; i < np; i++)
		for (cpu = 0; cpu < 2; cpu++)
			ev[(i * 2 + cpu) * 2] = usable(i) ? tr[i][cpu].used : 0;
	t.tick_ns = (uint64_t)p_us * 1000;
	t.nr_cores = 2;
	t.nr_ticks = (size_t)np;
	t.events = ev;
	memset(&cfg, 0, sizeof(cfg));
	memreg_cfg_defaults(&cfg.reg, 2);
	cfg.reg.period_ns = t.tick_ns;
	cfg.reg.flags = MEMREG_F_SHARE | MEMREG_F_UNCOUNTED_WRITE;
	cfg.reg.share_mode = mode;
	cfg.reg.platform_ceiling[MEMREG_READ] = (uint64_t)b * 4;
	for (cpu = 0; cpu < 2; cpu++) {
		cfg.reg.cpu[cpu].guaranteed[MEMREG_READ] = (uint64_t)b;
		cfg.reg.cpu[cpu].ceiling[MEMREG_READ] = (uint64_t)b * 4;
	}
	memset(&res, 0, sizeof(res));
	res.periods = rows;
	res.periods_cap = MAXP * 2;
	if (memreg_sim_run(&cfg, &t, &res, why, n))
		return -1;
	for (i = 0; i < np * 2; i++)
		dec[i] = mode == MEMREG_SHARE_SPARE ? rows[i].released > 0 :
			 rows[i].restarts > 0;
	return 0;
}

/*
 * Compare the guest's per CPU-period decisions @g with the simulator's
 * @s, fed the same demand: the counts, and the CPU-periods they differ
 * in.  The simulator runs every CPU on the grid; the master CPU's quarter
 * period offset makes some of the guest's periods resolve in the next
 * one (judge()), and a host that stalls a vCPU shifts a throttle across a
 * period's end, hence the allowance of 20 % of the decisions, at least 3.
 */
static void compare(const char *name, const unsigned char *g, const unsigned char *s)
{
	long long i, n = 0, ng = 0, ns = 0, diff = 0, allowed;

	for (i = 0; i <= hi - lo; i++) {
		int c;

		if (!usable(i))
			continue;
		n++;
		for (c = 0; c < 2; c++) {
			ng += g[2 * i + c];
			ns += s[2 * i + c];
			diff += g[2 * i + c] != s[2 * i + c];
		}
	}
	allowed = (ng > ns ? ng : ns) / 5;
	allowed = allowed < 3 ? 3 : allowed;
	result(name, n >= 20 && ng >= 5 && diff <= allowed,
	       "%lld periods per CPU: the guest decided in %lld CPU-periods, the "
	       "simulator in %lld, they differ in %lld (<= %lld)",
	       n, ng, ns, diff, allowed);
}

static void param_check(long long p_us, long long b)
{
	char params[128], v[5][32];
	int bad, badlen;

	snprintf(params, sizeof(params), "cpus=0,1 period_us=%lld read_budget=%lld,%lld "
		 "platform_read=%lld share=spare", p_us, b, b, b * 4);
	if (mr_insmod(ko, params)) {
		result("share-param", 0, "insmod %s failed", params);
		return;
	}
	mr_gets(v[0], sizeof(v[0]), "share");
	mr_put("proportional\n", "share");
	mr_gets(v[1], sizeof(v[1]), "share");
	mr_put("1\n", "share");
	mr_gets(v[2], sizeof(v[2]), "share");
	mr_put("off\n", "share");
	mr_gets(v[3], sizeof(v[3]), "share");
	bad = mr_put("2\n", "share");
	badlen = mr_put("proportionally\n", "share");
	mr_gets(v[4], sizeof(v[4]), "share");
	mr_put("0\n", "commit");
	mr_rmmod();
	result("share-param", !strcmp(v[0], "spare") && !strcmp(v[1], "proportional") &&
	       !strcmp(v[2], "1") && !strcmp(v[3], "0") && bad == -EINVAL &&
	       badlen == -EINVAL && !strcmp(v[4], "0"),
	       "share=spare reads '%s'; proportional '%s'; 1 '%s'; off '%s'; "
	       "2 and proportionally refused (%d %d), still '%s'",
	       v[0], v[1], v[2], v[3], bad, badlen, v[4]);
}

/* The other CPU (1 - @c) was throttled in a period overlapping @c's @i. */
static int other_throttled(long long i, int c)
{
	long long j;

	for (j = i - 1; j <= i + 1; j++)
		if (j >= 0 && j <= hi - lo && tr[j][1 - c].ntr)
			return 1;
	return 0;
}

/* One line on the window: what the trace holds per CPU (diagnosis). */
static void summary(const char *mode)
{
	long long i, rec[2] = { 0, 0 }, thr[2] = { 0, 0 }, inf[2] = { 0, 0 };
	unsigned long long used[2] = { 0, 0 };
	int c;

	for (i = 0; i <= hi - lo; i++)
		for (c = 0; c < 2; c++) {
			rec[c] += tr[i][c].nrec;
			thr[c] += tr[i][c].ntr;
			inf[c] += tr[i][c].nrec && tr[i][c].budget == INF_BUDGET;
			used[c] += tr[i][c].used;
		}
	printf("sharemode: share=%s periods %lld..%lld: records %lld/%lld, "
	       "throttles %lld/%lld, unlimited budgets %lld/%lld, events %llu/%llu\n",
	       mode, lo, hi, rec[0], rec[1], thr[0], thr[1], inf[0], inf[1],
	       used[0], used[1]);
}

/* Print the trace lines of period @idx (diagnosis). */
static void raw(long long idx)
{
	char line[512], tag[40];
	FILE *f = fopen(MR_TRACE "/trace", "r");

	if (!f)
		return;
	snprintf(tag, sizeof(tag), " period=%lld ", idx);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, tag) || strstr(line, "LOST"))
			printf("sharemode:   %s", line);
	fclose(f);
}

/* Print CPU @c's period @i and its neighbours, both CPUs (diagnosis). */
static void show(long long i, int c)
{
	long long j;

	printf("sharemode: cpu%d period %lld:", c, lo + i);
	for (j = i - 1; j <= i + 1; j++) {
		int k;

		if (j < 0 || j > hi - lo)
			continue;
		for (k = 0; k < 2; k++)
			printf(" [%lld cpu%d rec=%d thr=%d used=%llu budget=%lld end-throttled=%d]",
			       lo + j, k, tr[j][k].nrec, tr[j][k].ntr, tr[j][k].used,
			       tr[j][k].budget == INF_BUDGET ? -1LL : (long long)tr[j][k].budget,
			       tr[j][k].thr);
	}
	printf("\n");
	raw(lo + i);
}

/*
 * The judgement of both modes, per CPU and period.  A CPU was released
 * (spare: its period ended with an unlimited budget, not throttled) or
 * started a new period (proportional: a second memreg:period record with
 * its period's number) in its period i.  The master CPU runs a quarter
 * period behind the grid, so a CPU's period overlaps two of the other's:
 * "the other was throttled" looks at both neighbours, and a period in
 * which both were throttled but not at the same time resolves in
 * neither; hence the liveness bound (half of such periods at least)
 * beside the exact rules.
 */
static void judge(const char *name, int spare, long long b, unsigned char *g)
{
	long long i, n = 0, both = 0, resolved = 0, got_all = 0, unowned = 0;
	long long lonely = 0, twice = 0, ran = 0, extra = 0;
	int c, bad, shown = 0;

	for (i = 0; i <= hi - lo; i++) {
		int x[2];

		g[2 * i] = g[2 * i + 1] = 0;
		if (!usable(i))
			continue;
		n++;
		for (c = 0; c < 2; c++) {
			const struct slot *s = &tr[i][c];

			x[c] = spare ? s->budget == INF_BUDGET && !s->thr : s->nrec > 1;
			g[2 * i + c] = (unsigned char)x[c];
			got_all += x[c];
			/* every release or new period follows this CPU's throttle */
			bad = spare ? x[c] && !s->ntr : s->nrec - 1 > s->ntr;
			unowned += bad;
			/* ... while the other CPU was throttled too */
			bad |= 2 * (x[c] && !other_throttled(i, c));
			lonely += bad >> 1;
			if (bad && shown++ < 3)
				show(i, c);
			/* released: its counter does not fire again */
			twice += spare && s->ntr > 1;
			extra += s->nrec - 1;
			ran += spare && x[c] && s->used > (unsigned long long)b * 3 / 2;
		}
		if (tr[i][0].ntr && tr[i][1].ntr) {
			both++;
			resolved += x[0] || x[1];
		}
	}
	if (spare)
		result(name, both >= 10 && resolved * 2 >= both && !unowned && !lonely &&
		       !twice && !extra && ran * 2 >= got_all,
		       "%lld periods per CPU traced; %lld CPU-periods released, "
		       "%lld periods with both CPUs throttled, of which %lld released "
		       "a CPU (>= half); released without its own throttle %lld, "
		       "without the other's %lld, throttled twice %lld, new "
		       "periods %lld (all 0); released and used > 1.5 B %lld "
		       "(>= half)", n, got_all, both, resolved, unowned, lonely,
		       twice, extra, ran);
	else
		result(name, both >= 10 && resolved * 2 >= both && !unowned && !lonely &&
		       got_all >= 5,
		       "%lld periods per CPU traced; %lld CPU-periods started a new "
		       "period (%lld new periods), %lld periods with both CPUs "
		       "throttled, of which %lld started one (>= half); new periods "
		       "without their own throttle %lld, without the other's %lld (0)",
		       n, got_all, extra, both, resolved, unowned, lonely);
}

static void mode_checks(const char *mode, long long p_us, long long b, int secs)
{
	static unsigned char g[MAXP * 2], s[MAXP * 2];
	int spare = !strcmp(mode, "spare");
	const char *tn = spare ? "share-spare-release" : "share-prop-period";
	const char *sn = spare ? "share-spare-sim" : "share-prop-sim";
	char why[320];

	if (traced_window(mode, p_us, b, secs, why, sizeof(why))) {
		result(tn, 0, "%s", why);
		result(sn, 0, "%s", why);
		return;
	}
	summary(mode);
	judge(tn, spare, b, g);
	mr_rmmod();	/* after judge(): the trace names the module's events */
	if (simulate(spare ? MEMREG_SHARE_SPARE : MEMREG_SHARE_PROPORTIONAL,
		     p_us, b, s, why, sizeof(why))) {
		result(sn, 0, "simulator: %s", why);
		return;
	}
	compare(sn, g, s);
}

int main(int argc, char **argv)
{
	long long p_us = 0, b = 0;
	int opt, secs;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "k:p:b:")) != -1) {
		switch (opt) {
		case 'k': ko = optarg; break;
		case 'p': p_us = atoll(optarg); break;
		case 'b': b = atoll(optarg); break;
		default: return 2;
		}
	}
	if (p_us < 1000 || b < 8) {
		fprintf(stderr, "usage: sharemode -k MODULE -p PERIOD_US -b BUDGET\n");
		return 2;
	}
	/*
	 * B is 10 % of the unregulated rate over PERIOD_US: here 4 % of it
	 * over a period of 10..30 ms (2.5 x PERIOD_US), so that both CPUs
	 * throttle early in their periods, at least 16 events (two samples
	 * of the slack scheme's 8), and about 150 periods in 2..5 s
	 */
	{
		long long pc = p_us * 5 / 2;

		pc = pc < 10000 ? 10000 : pc > 30000 ? 30000 : pc;
		b = b * 2 * pc / (5 * p_us);
		b = b < 16 ? 16 : b;
		p_us = pc;
	}
	secs = (int)((150 * p_us + 999999) / 1000000);
	secs = secs < 2 ? 2 : secs;
	printf("sharemode: period %lld us, budget %lld, %d s per mode\n", p_us, b, secs);
	param_check(p_us, b);
	mode_checks("spare", p_us, b, secs);
	mode_checks("proportional", p_us, b, secs);
	return failed;
}
