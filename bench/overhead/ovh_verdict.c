// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_verdict.c - the host side of bench/overhead's table: reads the raw
 * OVH-RUN / OVH-STATS / OVH-ERROR / OVH-MODULE / OVH-TIMER lines of
 * ovh_table_guest.c (any number of guest boots, concatenated), and prints
 * one row per cell, its verdict against the targets below, the missed
 * cells with their reasons, the cells that met while the other CPU's
 * timer ran late, what the module reported in the cells that met, and
 * how late this guest delivers timers without the module.
 *
 *   ovh_verdict [--cells PATTERNS] [--loads N] [FILE]    (stdin: -)
 *   ovh_verdict --list [--cells PATTERNS]
 *
 * File map: options and input (parse_*), per-cell figures (figures()),
 * targets and verdict (judge()), reasons for a miss (explain()), the
 * timer probe (probe_*), output (print_*).
 *
 * Per load (one module load): C = median of its C runs, C' = median of
 * its C' runs, C'/C, and from memreg's statistics over the C' runs the
 * PMU interrupts per period on the measured CPU (overflows / periods).
 * A cell's figure is the median over its loads; the min..max over loads
 * shows a bistable cell.  Targets:
 *   monitor  C'/C <= 1.20 with the master on the other CPU, <= 1.30 on
 *            the measured one, in EVERY load (no bistable cell);
 *   reg50    C'/C <= 1.012 at 1000 us, <= 1.08 at 100 us, and at most
 *            0.1 PMU interrupts per period;
 *   exhaust  throttled in >= 90 % of the periods (else the cell is not
 *            what it says), at most 1.1 PMU interrupts per period, the
 *            read overshoot at the throttle within the accuracy group's
 *            bound: median <= one granule (guarantee / slack_div), 97th
 *            percentile <= 1.25 granules.
 * Regulated cells with LMS, reclaim and sharing on also need the master
 * to tick in >= 90 % of the periods (without it they do not run); cells
 * with all three off, no master tick at all.
 * Every cell also needs all requested loads, no perf-throttled period and
 * no error.  The targets are judged on medians over at least three
 * loads: the table says so when fewer were asked for.  The instructions
 * per period are (C' - C) / (C' / period) in guest nanoseconds, one each
 * under -icount shift=0.
 *
 * The timer probe (OVH-TIMER, no module loaded): how late a sleeper on
 * each CPU wakes past the grid points of each period while the other CPU
 * spins or idles.  A CPU whose median lateness with the other CPU busy
 * exceeds half a period gets its timers late from the emulator itself;
 * a missed cell whose master sits on that CPU says so with the figures.
 *
 * Exit: 0 when every requested cell has all its loads (whatever the
 * verdicts), 1 when figures are missing or a cell failed, 2 usage.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovh_cells.h"
#include "ovh_raw.h"

#define MAXL	16	/* loads per cell */
#define MAXR	32	/* repetitions per load */
#define MAXKV	32	/* statistics per OVH-STATS line */
#define MAXERR	4	/* errors kept per cell */

/**
 * struct load - one module load of a cell.
 * @c, @cp, @nr: C and C' of each repetition, their count.
 * @key, @val, @nkv: the OVH-STATS figures.
 * @stats: an OVH-STATS line was seen.
 */
struct load {
	double c[MAXR], cp[MAXR];
	unsigned nr;
	char key[MAXKV][24];
	long long val[MAXKV];
	unsigned nkv;
	int stats;
};

/**
 * struct row - one cell: its loads and figures.
 * @cell: the cell.  @want: selected.  @load/@nl: loads seen (by index).
 * @err/@nerr: its OVH-ERROR lines (the cell could not be measured).
 * @mod/@nmod: its OVH-MODULE lines (the module's error file: findings).
 * @ratio, @rmin, @rmax: C'/C median over loads and range.
 * @cost: instructions per period from the median C'/C.
 * @irq, @irq_max: PMU interrupts per period, median and max over loads.
 * @thr: throttles per period (median).  @ticks: master ticks per period.
 * @stale, @perf_thr, @errors, @skipped (master_skipped), @o_per and
 * @o_over (the other CPU's periods and timer overruns): summed over
 * loads.
 * @over_med, @over_p97: overshoot (median over loads).  @granule.
 * @met: verdict.  @why: what missed, filled by judge().
 */
struct row {
	struct ovh_cell cell;
	int want;
	struct load load[MAXL];
	unsigned nl;
	char err[MAXERR][200], mod[MAXL][160];
	unsigned nerr, nmod;
	double ratio, rmin, rmax, cost, irq, irq_max, thr, ticks;
	long long stale, perf_thr, errors, skipped, o_per, o_over;
	double over_med, over_p97, granule;
	int met;
	char why[1024];
};

static struct row rows[OVH_CELLS_MAX];
static size_t nrows;

/**
 * struct probe - the timer probe of one CPU, other-CPU state and period.
 * @cpu, @busy, @period_us: what was probed.
 * @med, @p90, @nl: per load, the median and 90th percentile lateness
 * (ns); the number of loads.
 * @n, @over: wakes and wakes more than a whole period late, summed.
 */
struct probe {
	unsigned cpu, busy, period_us;
	double med[MAXL], p90[MAXL];
	unsigned nl;
	long long n, over;
};

#define MAXPROBE	(OVH_CELL_CPUS * 2 * 4)
static struct probe probes[MAXPROBE];
static size_t nprobes;

/* find - the row of cell @name, or NULL. */
static struct row *find(const char *name)
{
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(rows[i].cell.name, name))
			return &rows[i];
	return NULL;
}

/* probe_find - the probe of @cpu, @busy, @period_us, or NULL. */
static struct probe *probe_find(unsigned cpu, unsigned busy,
				unsigned period_us)
{
	for (size_t i = 0; i < nprobes; i++)
		if (probes[i].cpu == cpu && probes[i].busy == busy &&
		    probes[i].period_us == period_us)
			return &probes[i];
	return NULL;
}

/* stv - statistic @key of @l, or -1 when absent. */
static long long stv(const struct load *l, const char *key)
{
	for (unsigned i = 0; i < l->nkv; i++)
		if (!strcmp(l->key[i], key))
			return l->val[i];
	return -1;
}

/* load_of - the row and load a raw line is about; NULL if malformed. */
static struct load *load_of(const char *line, struct row **rp)
{
	char name[OVH_CELL_NAME];
	long long li;
	struct row *r;

	if (ovh_field(line, "cell", name, sizeof(name)) || ovh_num(line, "load", &li) ||
	    li < 0 || li >= MAXL || !(r = find(name)))
		return NULL;
	if ((unsigned)li >= r->nl)
		r->nl = (unsigned)li + 1;
	*rp = r;
	return &r->load[li];
}

/* parse_stats - the key=value pairs of an OVH-STATS line into @l. */
static void parse_stats(const char *line, struct load *l)
{
	const char *p = line;

	l->stats = 1;
	l->nkv = 0;
	while ((p = strchr(p, ' ')) && l->nkv < MAXKV) {
		char k[24], *end;
		size_t n;
		long long v;

		p++;
		n = strcspn(p, "=");
		if (!n || n >= sizeof(k) || p[n] != '=')
			continue;
		memcpy(k, p, n);
		k[n] = 0;
		errno = 0;
		v = strtoll(p + n + 1, &end, 10);
		if (errno || end == p + n + 1 || (*end && *end != ' ' &&
						  *end != '\r' && *end != '\n'))
			continue;	/* not a number: cell=, kind= */
		snprintf(l->key[l->nkv], sizeof(l->key[0]), "%s", k);
		l->val[l->nkv++] = v;
	}
}

/*
 * parse_timer - an OVH-TIMER line into its probe; 0, or -1 if it is
 * malformed or there are too many probes.
 */
static int parse_timer(const char *line)
{
	long long cpu, period, n, med, p90, over;
	char other[8];
	struct probe *p;
	unsigned busy;

	if (ovh_num(line, "cpu", &cpu) || ovh_num(line, "period_us", &period) ||
	    ovh_num(line, "n", &n) || ovh_num(line, "late_med_ns", &med) ||
	    ovh_num(line, "late_p90_ns", &p90) || ovh_num(line, "over_period", &over) ||
	    ovh_field(line, "other", other, sizeof(other)) || cpu < 0 ||
	    cpu >= OVH_CELL_CPUS || period < 1 || n < 1 || over < 0 ||
	    (strcmp(other, "busy") && strcmp(other, "idle")))
		return -1;
	busy = !strcmp(other, "busy");
	p = probe_find((unsigned)cpu, busy, (unsigned)period);
	if (!p) {
		if (nprobes >= MAXPROBE)
			return -1;
		p = &probes[nprobes++];
		p->cpu = (unsigned)cpu;
		p->busy = busy;
		p->period_us = (unsigned)period;
	}
	if (p->nl >= MAXL)
		return -1;
	p->med[p->nl] = (double)med;
	p->p90[p->nl++] = (double)p90;
	p->n += n;
	p->over += over;
	return 0;
}

/*
 * parse_input - read the raw lines of @f into the rows; lines that are
 * not the guest's are skipped.  Returns the number of malformed OVH-
 * lines (reported on stderr).
 */
static int parse_input(FILE *f)
{
	char line[2048];
	int bad = 0;

	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "OVH-");
		struct row *r = NULL;
		struct load *l;

		if (!p)
			continue;
		if (!strncmp(p, "OVH-TIMER ", 10)) {
			if (parse_timer(p)) {
				fprintf(stderr, "ovh_verdict: malformed line: %s", p);
				bad++;
			}
		} else if (!strncmp(p, "OVH-RUN ", 8)) {
			char c[32], cp[32];

			if (!(l = load_of(p, &r)) || ovh_field(p, "c_ns", c, sizeof(c)) ||
			    ovh_field(p, "cp_ns", cp, sizeof(cp)) || l->nr >= MAXR) {
				fprintf(stderr, "ovh_verdict: malformed line: %s", p);
				bad++;
				continue;
			}
			l->c[l->nr] = strtod(c, NULL);
			l->cp[l->nr++] = strtod(cp, NULL);
		} else if (!strncmp(p, "OVH-STATS ", 10)) {
			if (!(l = load_of(p, &r))) {
				fprintf(stderr, "ovh_verdict: malformed line: %s", p);
				bad++;
				continue;
			}
			parse_stats(p, l);
		} else if (!strncmp(p, "OVH-ERROR ", 10) ||
			   !strncmp(p, "OVH-MODULE ", 11)) {
			char name[OVH_CELL_NAME];
			int e = p[4] == 'E';
			long long li;
			const char *t = strstr(p, " load=");

			if (ovh_field(p, "cell", name, sizeof(name)) ||
			    ovh_num(p, "load", &li) || !(r = find(name)) || !t)
				continue;
			t += 6 + strcspn(t + 6, " ");	/* the text */
			t += *t == ' ';
			if (e && r->nerr < MAXERR)
				snprintf(r->err[r->nerr++], sizeof(r->err[0]),
					 "load %lld: %.*s", li,
					 (int)strcspn(t, "\r\n"), t);
			else if (!e && r->nmod < MAXL)
				snprintf(r->mod[r->nmod++], sizeof(r->mod[0]),
					 "%.*s", (int)strcspn(t, "\r\n"), t);
		}
	}
	return bad;
}

/*
 * figures - the per-cell figures of @r from its loads (see the top of
 * the file).  Loads without both runs and statistics are left out.
 */
static void figures(struct row *r)
{
	double ratio[MAXL], irq[MAXL], thr[MAXL], tk[MAXL], om[MAXL], op[MAXL];
	unsigned n = 0, no = 0, nt = 0;

	r->rmin = INFINITY;
	r->rmax = r->irq_max = 0;
	for (unsigned i = 0; i < r->nl; i++) {
		struct load *l = &r->load[i];
		long long per = stv(l, "periods");

		if (!l->nr || !l->stats || per <= 0)
			continue;
		ratio[n] = ovh_median(l->cp, l->nr) / ovh_median(l->c, l->nr);
		irq[n] = (double)stv(l, "overflows") / (double)per;
		thr[n] = (double)stv(l, "throttles") / (double)per;
		if (stv(l, "master_ticks") >= 0)
			tk[nt++] = (double)stv(l, "master_ticks") / (double)per;
		r->rmin = fmin(r->rmin, ratio[n]);
		r->rmax = fmax(r->rmax, ratio[n]);
		r->irq_max = fmax(r->irq_max, irq[n]);
		r->stale += stv(l, "stale") > 0 ? stv(l, "stale") : 0;
		r->perf_thr += stv(l, "perf_throttled") > 0 ?
			       stv(l, "perf_throttled") : 0;
		r->errors += stv(l, "errors") > 0 ? stv(l, "errors") : 0;
		r->skipped += stv(l, "master_skipped") > 0 ?
			      stv(l, "master_skipped") : 0;
		if (stv(l, "other_periods") >= 0 && stv(l, "other_overruns") >= 0) {
			r->o_per += stv(l, "other_periods");
			r->o_over += stv(l, "other_overruns");
		}
		if (stv(l, "traced") > 0) {
			om[no] = (double)stv(l, "over_median");
			op[no++] = (double)stv(l, "over_p97");
		}
		if (stv(l, "guarantee") > 0 && stv(l, "slack_div") > 0)
			r->granule = (double)stv(l, "guarantee") /
				     (double)stv(l, "slack_div");
		n++;
	}
	r->nl = n;	/* from here on: loads with figures */
	r->ratio = ovh_median(ratio, n);
	r->irq = ovh_median(irq, n);
	r->thr = ovh_median(thr, n);
	r->ticks = ovh_median(tk, nt);	/* NAN: not reported */
	r->over_med = ovh_median(om, no);
	r->over_p97 = ovh_median(op, no);
	r->cost = n ? (1 - 1 / r->ratio) * r->cell.period_us * 1e3 : NAN;
}

/* add - append a reason (printf format) to @r->why. */
__attribute__((format(printf, 2, 3)))
static void add(struct row *r, const char *fmt, ...)
{
	size_t n = strlen(r->why);
	va_list ap;

	if (n + 2 >= sizeof(r->why))
		return;
	if (n) {
		r->why[n++] = ';';
		r->why[n++] = ' ';
	}
	va_start(ap, fmt);
	vsnprintf(r->why + n, sizeof(r->why) - n, fmt, ap);
	va_end(ap);
}

/*
 * judge - @r's verdict against its targets (see the top of the file);
 * the missed targets go to @r->why.  @loads: loads requested.
 */
static void judge(struct row *r, unsigned loads)
{
	const struct ovh_cell *c = &r->cell;
	double lim;

	r->why[0] = 0;
	if (r->nl < loads)
		add(r, "%u load(s) with figures, %u requested", r->nl, loads);
	if (!r->nl) {
		r->met = 0;
		return;
	}
	switch (c->kind) {
	case OVH_CELL_MONITOR:
		lim = c->master_self ? 1.30 : 1.20;
		if (r->rmax > lim)
			add(r, "C'/C %.4f > %.2f in a load", r->rmax, lim);
		break;
	case OVH_CELL_REG50:
		lim = c->period_us >= 1000 ? 1.012 : 1.08;
		if (r->ratio > lim)
			add(r, "C'/C %.4f > %.3f", r->ratio, lim);
		if (r->irq > 0.1)
			add(r, "%.2f PMU interrupts per period > 0.1", r->irq);
		break;
	default:
		if (r->thr < 0.9)
			add(r, "throttled in %.0f %% of the periods < 90 %%: "
			    "not exhausted every period", 100 * r->thr);
		if (r->irq > 1.1)
			add(r, "%.2f PMU interrupts per period > 1.1", r->irq);
		if (isnan(r->over_med))
			add(r, "no throttle traced");
		else if (r->over_med > r->granule)
			add(r, "median overshoot %.0f > granule %.0f cycles",
			    r->over_med, r->granule);
		else if (r->over_p97 > 1.25 * r->granule)
			add(r, "97th percentile overshoot %.0f > 1.25 x granule "
			    "%.0f cycles", r->over_p97, r->granule);
		break;
	}
	/* a regulated cell with modes on measures nothing of them when the
	 * master does not tick (starved by the task or the throttle) */
	if (c->kind != OVH_CELL_MONITOR && c->modes && !isnan(r->ticks) &&
	    r->ticks < 0.9)
		add(r, "the master ticked in %.0f %% of the periods < 90 %%",
		    100 * r->ticks);
	/* with every mode off nothing needs the master: no tick at all */
	if (!c->modes && r->ticks > 0)
		add(r, "the master ticked (%.2f per period) with every mode off",
		    r->ticks);
	if (r->perf_thr)
		add(r, "perf throttled the counter in %lld period(s)",
		    r->perf_thr);
	if (r->nerr)
		add(r, "%u error(s) reported", r->nerr);
	r->met = !r->why[0];
}

/* twin - the row of @r's cell with the master (@master) or modes
 * (@modes) flipped, if it has figures; else NULL. */
static const struct row *twin(const struct row *r, int master, int modes)
{
	for (size_t i = 0; i < nrows; i++) {
		const struct ovh_cell *a = &rows[i].cell, *b = &r->cell;

		if (rows[i].nl && a->kind == b->kind &&
		    a->period_us == b->period_us && a->cpu == b->cpu &&
		    a->master_self == (master ? !b->master_self : b->master_self) &&
		    a->modes == (modes ? !b->modes : b->modes))
			return &rows[i];
	}
	return NULL;
}

/* probe_late - the median over loads of @p's median lateness (ns). */
static double probe_late(const struct probe *p)
{
	return ovh_median(p->med, p->nl);
}

/*
 * late_master - the probe of @r's master CPU, if the master is not on the
 * measured CPU and this guest delivers that CPU's timers more than half
 * a period late while the measured CPU runs; else NULL.
 */
static const struct probe *late_master(const struct row *r)
{
	const struct probe *p;

	if (r->cell.master_self)
		return NULL;
	p = probe_find(ovh_cell_master(&r->cell), 1, r->cell.period_us);
	return p && probe_late(p) > r->cell.period_us * 1e3 / 2 ? p : NULL;
}

/* probe_explain - what the timer probe says about @r's master CPU. */
static void probe_explain(const struct row *r, FILE *out)
{
	const struct probe *p = late_master(r);
	const struct probe *q = probe_find(p->cpu, 0, p->period_us);

	fprintf(out, "    without memreg, a sleeper on idle CPU %u wakes a "
		"median %.1f us past its grid point while CPU %u runs (%lld "
		"of %lld wakes more than a period late)", p->cpu,
		probe_late(p) / 1e3, r->cell.cpu, p->over, p->n);
	if (q)
		fprintf(out, ", %.1f us while CPU %u idles too", probe_late(q) /
			1e3, r->cell.cpu);
	fprintf(out, ": this emulator delivers the idle vCPU's timer "
		"interrupts late, so the master's ticks land in later "
		"periods; not the module's cost\n");
}

/*
 * explain - why @r missed, from what memreg's statistics and the
 * neighbouring cells show, on @out.
 */
static void explain(const struct row *r, FILE *out)
{
	const struct row *m = twin(r, 1, 0), *d = twin(r, 0, 1);

	fprintf(out, "  %s: %s\n", r->cell.name, r->why);
	if (!r->nl)
		goto errors;
	if (r->cell.kind == OVH_CELL_EXHAUST)
		fprintf(out, "    %.2f PMU interrupts and %.2f throttles per "
			"period; master ticks %.2f per period\n", r->irq,
			r->thr, r->ticks);
	else
		fprintf(out, "    costs %.0f instructions per period (both "
			"vCPUs: they share the -icount clock); master ticks "
			"%.2f per period; %.2f PMU interrupts per period\n",
			r->cost, r->ticks, r->irq);
	if (r->rmax - r->rmin > 0.02)
		fprintf(out, "    bistable: C'/C %.4f..%.4f across loads\n",
			r->rmin, r->rmax);
	if (m && r->cell.kind != OVH_CELL_EXHAUST)
		fprintf(out, "    master %s: %+.0f instructions per period "
			"(%s: %.0f)\n", r->cell.master_self ? "on the measured "
			"CPU" : "on the other CPU", r->cost - m->cost,
			m->cell.name, m->cost);
	if (d && r->cell.kind != OVH_CELL_EXHAUST)
		fprintf(out, "    lms/reclaim/share %s: %+.0f instructions per "
			"period against %s\n", r->cell.modes ? "on" : "off",
			r->cost - d->cost, d->cell.name);
	if (!isnan(r->ticks) && r->ticks < 0.9)
		fprintf(out, "    the master ticked in %.0f %% of the periods "
			"(starved, late or skipped)\n", 100 * r->ticks);
	if (r->skipped)
		fprintf(out, "    %lld master ticks skipped (master_skipped)\n",
			r->skipped);
	if (r->o_over * 100 > r->o_per)
		fprintf(out, "    the other CPU's period timer overran %lld "
			"times in %lld periods (its timers fire late too)\n",
			r->o_over, r->o_per);
	if (late_master(r))
		probe_explain(r, out);
	if (r->stale)
		fprintf(out, "    %lld stale budgets (the master's tick late "
			"or skipped)\n", r->stale);
	if (r->errors)
		fprintf(out, "    %lld failed core calls (errors)\n", r->errors);
errors:
	for (unsigned i = 0; i < r->nerr; i++)
		fprintf(out, "    %s\n", r->err[i]);
	if (r->nmod)
		fprintf(out, "    the module's error file in %u load(s), e.g.: "
			"%s\n", r->nmod, r->mod[0]);
}

/* print_table - the rows, the count met, the missed cells and why. */
static void print_table(FILE *out, unsigned loads)
{
	size_t met = 0, n = 0, late = 0;

	if (loads < 3)
		fprintf(out, "NOTE: %u load(s) per cell; the targets "
			"are judged on medians over at least 3\n", loads);
	fprintf(out, "%-32s %5s %-25s %8s %7s %-17s %s\n", "cell", "loads",
		"C'/C median [min..max]", "instr/P", "irq/P",
		"overshoot/gran.", "verdict");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		char ov[32] = "-";

		if (!r->want)
			continue;
		n++;
		met += r->met;
		if (r->cell.kind == OVH_CELL_EXHAUST && !isnan(r->over_med))
			snprintf(ov, sizeof(ov), "%.0f/%.0f", r->over_med,
				 r->granule);
		if (!r->nl)
			fprintf(out, "%-32s %2u/%-2u %-25s %8s %7s %-17s %s\n",
				r->cell.name, r->nl, loads, "-", "-", "-", "-",
				"MISSED");
		else
		{
			char cost[16] = "-";

			if (r->cell.kind != OVH_CELL_EXHAUST)
				snprintf(cost, sizeof(cost), "%.0f", r->cost);
			fprintf(out, "%-32s %2u/%-2u %.4f [%.4f..%.4f]   %8s "
				"%7.2f %-17s %s\n", r->cell.name, r->nl, loads,
				r->ratio, r->rmin, r->rmax, cost, r->irq, ov,
				r->met ? "MET" : "MISSED");
		}
	}
	fprintf(out, "\n%zu of %zu cells MET\n", met, n);
	for (size_t i = 0; i < nrows; i++)
		late += rows[i].want && !rows[i].met && late_master(&rows[i]);
	if (late)
		fprintf(out, "%zu missed cell(s) have their master on a CPU "
			"whose timers this guest delivers late without the "
			"module (timer probe below)\n", late);
	if (met < n) {
		fprintf(out, "\nMissed cells and why:\n");
		for (size_t i = 0; i < nrows; i++)
			if (rows[i].want && !rows[i].met)
				explain(&rows[i], out);
	}
	for (size_t i = 0, head = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		if (!r->want || !r->met || r->o_over * 10 <= r->o_per)
			continue;
		if (!head++)
			fprintf(out, "\nCells that MET while the other CPU's "
				"period timer overran in more than 10 %% of its "
				"periods (their figures leave out that CPU's "
				"missing periods):\n");
		fprintf(out, "  %s: %lld overruns in %lld periods\n",
			r->cell.name, r->o_over, r->o_per);
	}
	for (size_t i = 0, head = 0; i < nrows; i++) {
		if (!rows[i].want || !rows[i].met || !rows[i].nmod)
			continue;
		if (!head++)
			fprintf(out, "\nWhat the module reported in cells "
				"that MET:\n");
		fprintf(out, "  %s, %u load(s), e.g.: %s\n", rows[i].cell.name,
			rows[i].nmod, rows[i].mod[0]);
	}
}

/* cmp_probe - qsort for probes: by period (longest first), CPU, busy. */
static int cmp_probe(const void *a, const void *b)
{
	const struct probe *x = a, *y = b;

	if (x->period_us != y->period_us)
		return x->period_us < y->period_us ? 1 : -1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (int)y->busy - (int)x->busy;
}

/* print_probes - the timer probe's figures, if the input had any. */
static void print_probes(FILE *out)
{
	if (!nprobes)
		return;
	qsort(probes, nprobes, sizeof(*probes), cmp_probe);
	fprintf(out, "\nTimer delivery in this guest without memreg (a sleeper "
		"pinned to a CPU, lateness past each grid point, median over "
		"loads):\n%-6s %-3s %-10s %12s %12s %s\n", "period", "cpu",
		"other CPU", "median us", "p90 us", "wakes > 1 period late");
	for (size_t i = 0; i < nprobes; i++) {
		const struct probe *p = &probes[i];

		fprintf(out, "%-6u %-3u %-10s %12.1f %12.1f %lld of %lld\n",
			p->period_us, p->cpu, p->busy ? "busy" : "idle",
			probe_late(p) / 1e3, ovh_median(p->p90, p->nl) / 1e3,
			p->over, p->n);
	}
}

/* usage - the command line on @f; returns @rc. */
static int usage(FILE *f, int rc)
{
	fprintf(f, "usage: ovh_verdict [--cells PATTERNS] [--loads N] [FILE]\n"
		"       ovh_verdict --list [--cells PATTERNS]\n"
		"Judges the raw lines of bench/overhead's guest runs (FILE or "
		"stdin) against\nthe targets of bench/overhead/README.md.\n");
	return rc;
}

/* main - options, input, figures, verdicts, table. */
int main(int argc, char **argv)
{
	static struct ovh_cell sel[OVH_CELLS_MAX];
	const char *pat = "all", *path = "-";
	unsigned loads = 3;
	int list = 0, bad, complete = 1;
	char why[256];
	size_t ns;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--list"))
			list = 1;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return usage(stdout, 0);
		else if (!strcmp(a, "--cells") && i + 1 < argc)
			pat = argv[++i];
		else if (!strcmp(a, "--loads") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);

			if (*end || v < 1 || v > MAXL) {
				fprintf(stderr, "ovh_verdict: --loads '%s': a "
					"number of loads 1..%d\n", argv[i], MAXL);
				return 2;
			}
			loads = (unsigned)v;
		} else if (a[0] != '-' || !strcmp(a, "-"))
			path = a;
		else {
			fprintf(stderr, "ovh_verdict: unknown option '%s'\n", a);
			return usage(stderr, 2);
		}
	}
	if (ovh_cells_select(pat, sel, OVH_CELLS_MAX, &ns, why, sizeof(why))) {
		fprintf(stderr, "ovh_verdict: %s\n", why);
		return 2;
	}
	if (list) {
		for (size_t i = 0; i < ns; i++) {
			char d[256];

			ovh_cell_describe(&sel[i], d, sizeof(d));
			printf("%s\n", d);
		}
		return 0;
	}
	{
		struct ovh_cell all[OVH_CELLS_MAX];

		nrows = ovh_cells_all(all, OVH_CELLS_MAX);
		for (size_t i = 0; i < nrows; i++) {
			rows[i].cell = all[i];
			for (size_t j = 0; j < ns; j++)
				rows[i].want |= !strcmp(all[i].name, sel[j].name);
		}
	}
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "ovh_verdict: cannot read %s: %s\n", path,
			strerror(errno));
		return 2;
	}
	bad = parse_input(f);
	if (f != stdin)
		fclose(f);
	for (size_t i = 0; i < nrows; i++)
		figures(&rows[i]);	/* all: explain() compares with twins */
	for (size_t i = 0; i < nrows; i++) {
		if (!rows[i].want)
			continue;
		judge(&rows[i], loads);
		complete &= rows[i].nl >= loads && !rows[i].nerr;
	}
	print_table(stdout, loads);
	print_probes(stdout);
	return bad || !complete ? 1 : 0;
}
