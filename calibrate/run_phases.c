// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_phases.c - every measuring phase of `memcal run` (see run_phases.h).
 */
#include "run_phases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dram_banks.h"
#include "guaranteed.h"
#include "knee.h"
#include "latency.h"
#include "measure.h"
#include "pmu.h"
#include "pmu_selfcheck.h"
#include "replay.h"

/* Read shares tried for mixed traffic (full run; quick uses the middle). */
static const double mixed_shares[] = { 0.25, 0.5, 0.75 };

/**
 * struct run_state - what the phases share.
 * @t, @o:     inputs.
 * @r:         the result being filled.
 * @b:         workers and buffers.
 * @reps, @warmup: repetitions per measurement.
 * @max_reps, @rep_ns, @budget_ns: a bandwidth figure's most repetitions,
 *             shortest repetition and time budget (measure.h).
 * @step, @user: progress callback.
 * @foreign:   worst foreign-load share seen, and @foreign_what where.
 */
struct run_state {
	const struct memcal_topology *t;
	const struct memcal_run_opts *o;
	struct memcal_run_result *r;
	struct memcal_bench b;
	unsigned reps, warmup, max_reps;
	uint64_t rep_ns, budget_ns;
	memcal_step_fn step;
	void *user;
	double foreign;
	char foreign_what[160];
};

/* n_ops - bandwidth kernels measured per point: copy only in a full run. */
static unsigned n_ops(const struct memcal_run_opts *o)
{
	return o->quick ? 3 : 4;
}

/* agg_counts - core counts of the aggregate curve into @k; returns how many. */
static unsigned agg_counts(const struct memcal_run_opts *o, unsigned *k)
{
	unsigned n = 0;

	for (unsigned c = 1; c <= o->n_cpus; c++)
		if (!o->quick || c == 1 || c == o->n_cpus)
			k[n++] = c;
	return n;
}

/* mixed_readers - distinct reader counts for @c cores into @rd. */
static unsigned mixed_readers(const struct memcal_run_opts *o, unsigned c,
			      unsigned *rd)
{
	unsigned n = 0;

	for (size_t i = 0; i < sizeof(mixed_shares) / sizeof(*mixed_shares); i++) {
		unsigned x = (unsigned)(mixed_shares[i] * c + 0.5);
		bool dup = false;

		if (o->quick && mixed_shares[i] != 0.5)
			continue;
		if (x < 1)
			x = 1;
		if (x > c - 1)
			x = c - 1;
		for (unsigned j = 0; j < n; j++)
			dup |= rd[j] == x;
		if (!dup)
			rd[n++] = x;
	}
	return n;
}

/*
 * cal_run_steps - progress steps cal_run_measure() will report for
 * @o (whose @n_cpus must be set).
 */
unsigned cal_run_steps(const struct memcal_run_opts *o)
{
	unsigned k[o->n_cpus ? o->n_cpus : 1], rd[4], steps;
	unsigned na = agg_counts(o, k);

	steps = o->n_cpus * n_ops(o) + na * n_ops(o);
	for (unsigned c = 2; c <= o->n_cpus; c++)
		if (!o->quick || c == o->n_cpus)
			steps += mixed_readers(o, c, rd);
	return steps + 1 /* guaranteed */ + MEMCAL_MIX_COUNT /* latency */ +
	       1 /* PMU */;
}

/* note_foreign - remember the worst foreign load and where it was. */
static void note_foreign(struct run_state *s, double f, const char *what)
{
	if (f > s->foreign) {
		s->foreign = f;
		snprintf(s->foreign_what, sizeof(s->foreign_what), "%s", what);
	}
}

/*
 * measure_point - one bandwidth measurement stored as a row.  @use
 * selects workers, @ops gives per-worker kernels (or NULL for @op).
 */
static int measure_point(struct run_state *s, const char *scope,
			 enum memcal_op op, const enum memcal_op *ops,
			 const bool *use, double read_share, const char *kind,
			 char *err, size_t errlen)
{
	struct memcal_bw_spec spec = {
		.op = op, .ops = ops, .use = use, .reps = s->reps,
		.warmup = s->warmup, .passes = 1, .min_rep_ns = s->rep_ns,
		.max_reps = s->max_reps, .budget_ns = s->budget_ns,
	};
	struct memcal_bw_result res;
	struct memcal_bw row;
	unsigned cpus[s->b.n], n = 0;
	char what[160];
	int rc;

	for (unsigned i = 0; i < s->b.n; i++)
		if (use[i])
			cpus[n++] = s->b.cpus[i];
	memset(&row, 0, sizeof(row));
	memcal_platform_cpulist_format(cpus, n, row.cpus, sizeof(row.cpus));
	snprintf(what, sizeof(what), "%s %s on CPU %s", scope, kind, row.cpus);
	if (s->step)
		s->step(s->user, what);
	rc = cal_measure_bw(&s->b, &spec, &res, err, errlen);
	if (rc == MEMCAL_EUNSUPPORTED)
		return 0;	/* e.g. no non-temporal store here: skip */
	if (rc)
		return rc;
	note_foreign(s, res.foreign, what);
	snprintf(row.kind, sizeof(row.kind), "%s", kind);
	snprintf(row.scope, sizeof(row.scope), "%s", scope);
	snprintf(row.variant, sizeof(row.variant), "%s", res.variant);
	row.n_cpus = (int)n;
	row.buffer_bytes = (int64_t)s->b.bytes;
	row.read_share = read_share;
	row.repetitions = (int)res.agg.kept;
	row.median_bps = res.agg.median;
	row.min_bps = res.agg.min;
	row.max_bps = res.agg.max;
	row.spread = res.agg.spread;
	row.spread_wide = res.agg.spread > MEMCAL_SPREAD_WIDE;
	if (row.spread_wide) {
		char note[256];

		snprintf(note, sizeof(note), "wide spread: %s +-%.1f%% after %u "
			 "repetitions (above %.0f%%): the figure may not repeat",
			 what, res.agg.spread * 100, res.agg.n,
			 MEMCAL_SPREAD_WIDE * 100);
		if (cal_result_note(s->r, note))
			return MEMCAL_ENOMEM;
	}
	return CAL_RESULT_ADD(s->r, bw, &row);
}

/* phase_bandwidth - per core alone, aggregate 1..N, mixed traffic. */
static int phase_bandwidth(struct run_state *s, char *err, size_t errlen)
{
	static const enum memcal_op ops[] = {
		MEMCAL_OP_READ, MEMCAL_OP_WRITE, MEMCAL_OP_NTWRITE, MEMCAL_OP_COPY,
	};
	unsigned n = s->b.n, k[n], na = agg_counts(s->o, k), rd[4];
	bool use[n];
	enum memcal_op per[n];
	int rc = 0;

	for (unsigned i = 0; !rc && i < n; i++)
		for (unsigned j = 0; !rc && j < n_ops(s->o); j++) {
			for (unsigned x = 0; x < n; x++)
				use[x] = x == i;
			rc = measure_point(s, "core", ops[j], NULL, use, 0,
					   cal_op_name(ops[j]), err, errlen);
		}
	for (unsigned a = 0; !rc && a < na; a++)
		for (unsigned j = 0; !rc && j < n_ops(s->o); j++) {
			for (unsigned x = 0; x < n; x++)
				use[x] = x < k[a];
			rc = measure_point(s, "aggregate", ops[j], NULL, use, 0,
					   cal_op_name(ops[j]), err, errlen);
		}
	for (unsigned c = 2; !rc && c <= n; c++) {
		unsigned nr;

		if (s->o->quick && c != n)
			continue;
		nr = mixed_readers(s->o, c, rd);
		for (unsigned m = 0; !rc && m < nr; m++) {
			for (unsigned x = 0; x < n; x++) {
				use[x] = x < c;
				per[x] = x < rd[m] ? MEMCAL_OP_READ : MEMCAL_OP_WRITE;
			}
			rc = measure_point(s, "aggregate", MEMCAL_OP_READ, per, use,
					   (double)rd[m] / c, "mixed", err, errlen);
		}
	}
	return rc;
}

/*
 * single_bank - the single-bank figures where the board's DRAM mapping is
 * documented and the buffers lie on 2 MiB huge pages (the plan's offsets
 * are then physical), with @streams chains; otherwise both classes are
 * stored as skipped with the reason.
 */
static int single_bank(struct run_state *s, const struct memcal_guar_spec *rl,
		       unsigned streams, char *err, size_t errlen)
{
	struct memcal_bank_plan plan;
	struct memcal_guaranteed g[2];
	char why[256];
	double foreign;
	int rc = cal_bank_plan_for(s->r->platform.cpu_model,
				   cal_running_virtualised(), rl->line, &plan,
				   why, sizeof(why));

	if (rc == MEMCAL_ENOMEM)
		return rc;
	if (!rc && (!s->b.bufs[0].hugetlb ||
		    s->b.bufs[0].page != MEMCAL_DRAM_PLAN_PAGE)) {
		snprintf(why, sizeof(why), "the DRAM mapping is documented but "
			 "the buffers are not on 2 MiB hugetlb pages, so the "
			 "bank bits are unknown (reserve some: sysctl "
			 "vm.nr_hugepages)");
		rc = MEMCAL_EUNSUPPORTED;
	}
	if (!rc) {
		struct memcal_guar_spec sb = *rl;

		sb.streams = streams;
		sb.offs = plan.offs;
		sb.n_offs = plan.n_offs;
		rc = cal_guaranteed_measure(&s->b, &sb, "single-bank", g,
					    &foreign, err, errlen);
		if (!rc) {
			note_foreign(s, foreign, "single-bank guaranteed bandwidth");
			for (int c = 0; c < 2; c++)
				snprintf(g[c].source, sizeof(g[c].source), "%s",
					 plan.text);
		}
	}
	cal_bank_plan_free(&plan);
	if (rc == MEMCAL_EUNSUPPORTED) {
		cal_guaranteed_skipped(&g[0], "read", "single-bank", why);
		cal_guaranteed_skipped(&g[1], "write", "single-bank", why);
		rc = 0;
	}
	for (int c = 0; !rc && c < 2; c++)
		if (cal_result_add_guaranteed(s->r, &g[c]))
			rc = MEMCAL_ENOMEM;
	return rc;
}

/*
 * phase_guaranteed - the guaranteed bandwidth: random lines from every
 * measured core at once (stream count from the sweep), reads then writes,
 * then the single-bank figures or why they are skipped.
 */
static int phase_guaranteed(struct run_state *s, char *err, size_t errlen)
{
	struct memcal_guar_spec rl = {
		.reps = s->reps, .warmup = s->warmup,
		.rep_ns = s->o->quick ? MEMCAL_GUAR_REP_NS_QUICK
				      : MEMCAL_GUAR_REP_NS_FULL,
		.line = s->t->line_size,
	};
	struct memcal_guaranteed g[2];
	double foreign;
	int rc;

	if (s->step)
		s->step(s->user, "guaranteed bandwidth, random lines");
	if (!rl.line)
		rl.line = 64;
	rc = cal_guaranteed_measure(&s->b, &rl, "random-line", g, &foreign,
				    err, errlen);
	if (rc)
		return rc;
	note_foreign(s, foreign, "random-line guaranteed bandwidth");
	if (cal_result_add_guaranteed(s->r, &g[0]) ||
	    cal_result_add_guaranteed(s->r, &g[1]))
		return MEMCAL_ENOMEM;
	return single_bank(s, &rl, (unsigned)g[0].streams, err, errlen);
}

/* best_aggregate - highest aggregate median of @kind stored so far. */
static double best_aggregate(const struct memcal_run_result *r,
			     const char *kind)
{
	double best = 0;

	for (size_t i = 0; i < r->fig.n_bw; i++) {
		const struct memcal_bw *b = &r->fig.bw[i];

		if (!strcmp(b->kind, kind) && !strcmp(b->scope, "aggregate") &&
		    b->median_bps > best)
			best = b->median_bps;
	}
	return best;
}

/**
 * struct knee_figures - what a swept curve yields (knee.h), with the
 * lower-bound rule applied.
 * @knee:        the knee finder's outcome.
 * @sustainable: the knee, or for a lower bound the larger of the knee
 *               and @ceiling.
 * @criterion:   the criterion in words.
 */
struct knee_figures {
	struct memcal_knee knee;
	double sustainable;
	char criterion[256];
};

/*
 * knee_of - the knee of @n points of @pts; a curve that never left the
 * bound is a lower bound: the larger of its highest bandwidth and
 * @ceiling (the most the same traffic reached unpaced), described as
 * @what traffic.  Returns 0 or cal_knee_find()'s status when no knee can
 * be computed.
 */
static int knee_of(const struct memcal_lat_point *pts, unsigned n,
		   double ceiling, unsigned n_load, const char *what,
		   struct knee_figures *f)
{
	struct memcal_curve_point curve[n];
	int rc;

	/* The knee uses each point's best repetition: foreign load only
	 * ever adds time to a chase. */
	for (unsigned i = 0; i < n; i++) {
		curve[i].bw = pts[i].bw;
		curve[i].lat = pts[i].lat.min;
	}
	rc = cal_knee_find(curve, n, MEMCAL_KNEE_BOUND_RATIO, &f->knee);
	if (rc)
		return rc;
	f->sustainable = f->knee.bandwidth;
	if (f->knee.lower_bound) {
		if (ceiling > f->sustainable)
			f->sustainable = ceiling;
		snprintf(f->criterion, sizeof(f->criterion),
			 "latency <= %.2f x idle never exceeded with %u load "
			 "core(s): lower bound = highest %s bandwidth measured "
			 "(the cores cannot load this memory)",
			 f->knee.bound_ratio, n_load, what);
	} else {
		snprintf(f->criterion, sizeof(f->criterion), "%s",
			 f->knee.criterion);
	}
	return 0;
}

/*
 * SET_KNEE_FIGURES - knee_of()'s figures @f into @row, a sustainable row
 * or a curve of the family: both store them under the same names.
 */
#define SET_KNEE_FIGURES(row, f) do {					\
	(row)->idle_latency_ns = (f)->knee.idle_lat;			\
	(row)->bound_ratio = (f)->knee.bound_ratio;			\
	(row)->lower_bound = (f)->knee.lower_bound;			\
	snprintf((row)->criterion, sizeof((row)->criterion), "%s",	\
		 (f)->criterion);					\
} while (0)

/*
 * class_rows - the 100 % and 0 % curves are also the read and write
 * traffic classes: their latency points and sustainable figures, the
 * lower bound raised to the best aggregate of the read or write kernel.
 */
static int class_rows(struct run_state *s, enum memcal_op traffic,
		       const struct memcal_lat_point *pts, unsigned n,
		       unsigned n_load)
{
	const char *tr = cal_op_name(traffic);
	struct memcal_sustainable sus = { 0 };
	struct knee_figures f;

	for (unsigned i = 0; i < n; i++) {
		struct memcal_latency_point row = {
			.chase_cpu = (int)s->b.cpus[0], .load_cpus = (int)n_load,
			.pace = pts[i].pace, .bandwidth_bps = pts[i].bw,
			.latency_ns = pts[i].lat.median,
			.latency_min_ns = pts[i].lat.min,
			.latency_max_ns = pts[i].lat.max,
		};

		snprintf(row.traffic, sizeof(row.traffic), "%s", tr);
		if (CAL_RESULT_ADD(s->r, lat, &row))
			return MEMCAL_ENOMEM;
	}
	if (knee_of(pts, n, best_aggregate(s->r, tr), n_load, tr, &f))
		return 0;
	snprintf(sus.traffic, sizeof(sus.traffic), "%s", tr);
	sus.bandwidth_bps = f.sustainable;
	SET_KNEE_FIGURES(&sus, &f);
	return CAL_RESULT_ADD(s->r, sus, &sus);
}

/*
 * mix_peak - aggregate bandwidth of every worker running @k unpaced (the
 * ceiling of a lower-bound curve); 0 when it cannot be measured.
 */
static double mix_peak(struct run_state *s, const struct memcal_kernel *k,
		       char *err, size_t errlen)
{
	struct memcal_bw_spec spec = {
		.kernel = k, .n_use = s->b.n, .reps = s->reps,
		.warmup = s->warmup, .passes = 1,
	};
	struct memcal_bw_result res;

	if (cal_measure_bw(&s->b, &spec, &res, err, errlen))
		return 0;
	return res.agg.median;
}

/*
 * sweep_mix - loaded latency with the generators running mix @idx
 * (read share cal_mix_pct(@idx)), with its unpaced @peak, its knee and
 * sustainable figure as one curve of the family.  The 100 % and 0 %
 * curves also give the read and write rows (class_rows()).
 */
static int sweep_mix(struct run_state *s, unsigned idx, const double *paces,
		     unsigned np, double peak, char *err, size_t errlen)
{
	unsigned n_load = s->b.n - 1, pct = cal_mix_pct(idx);
	const struct memcal_kernel *k = cal_mix_kernel_best(idx);
	struct memcal_lat_spec spec = {
		.kernel = k, .paces = paces, .n_paces = n_load ? np : 1,
		.n_load = n_load,
		.reps = s->o->quick ? MEMCAL_LAT_REPS_QUICK : MEMCAL_LAT_REPS_FULL,
		.chase_ns = s->o->quick ? MEMCAL_CHASE_NS_QUICK
					: MEMCAL_CHASE_NS_FULL,
	};
	struct memcal_lat_point pts[np];
	struct memcal_mix_curve c = { 0 };
	struct knee_figures f;
	struct memcal_procstat ps0, ps1;
	bool have_ps;
	char what[160], name[32];
	int rc;

	if (!k) {
		snprintf(err, errlen, "no mixed kernel on this CPU");
		return MEMCAL_EUNSUPPORTED;
	}
	snprintf(what, sizeof(what), "loaded latency, %u%% read traffic", pct);
	if (s->step)
		s->step(s->user, what);
	have_ps = cal_procstat_read(&ps0) == 0;
	rc = cal_latency_sweep(&s->b, &spec, pts, err, errlen);
	if (have_ps && cal_procstat_read(&ps1) == 0) {
		note_foreign(s, cal_procstat_foreign(&ps0, &ps1, s->b.cpus,
							s->b.n), what);
		cal_procstat_free(&ps1);
	}
	if (have_ps)
		cal_procstat_free(&ps0);
	if (rc)
		return rc;
	if (pct == 100 || pct == 0) {
		rc = class_rows(s, pct ? MEMCAL_OP_READ : MEMCAL_OP_WRITE, pts,
				 spec.n_paces, n_load);
		if (rc)
			return rc;
	}
	c.read_pct = (int)pct;
	snprintf(c.variant, sizeof(c.variant), "%s", k->variant);
	c.chase_cpu = (int)s->b.cpus[0];
	c.load_cpus = (int)n_load;
	c.peak_bps = peak;
	for (unsigned i = 0; i < spec.n_paces && i < MEMCAL_MIX_MAX_POINTS;
	     i++) {
		c.points[i] = (struct memcal_mix_point){
			.pace = pts[i].pace, .bandwidth_bps = pts[i].bw,
			.latency_ns = pts[i].lat.median,
			.latency_min_ns = pts[i].lat.min,
			.latency_max_ns = pts[i].lat.max,
		};
		c.n_points++;
	}
	snprintf(name, sizeof(name), "%u%% read", pct);
	/* all reads or all writes: the read or write kernels' best counts */
	if (pct == 100 || pct == 0)
		peak = fmax(peak, best_aggregate(s->r, pct ? "read" : "write"));
	if (knee_of(pts, spec.n_paces, peak, n_load, name, &f))
		return 0;
	c.knee_bps = f.knee.bandwidth;
	c.sustainable_bps = f.sustainable;
	SET_KNEE_FIGURES(&c, &f);
	return CAL_RESULT_ADD(s->r, mix, &c);
}

/*
 * timeshare_lower_bounds - raise each lower-bound curve between the
 * all-read and all-write ones to what those two give time-shared at its
 * mix: reads at R for a share r of the time and writes at W for the rest
 * carry the mix at 1 / (r / R + (1 - r) / W), so the memory sustains at
 * least that.  Where the cores cannot load the memory, a mixed kernel's
 * own peak can be lower (it runs more instructions per byte).
 */
static void timeshare_lower_bounds(struct memcal_run_result *r)
{
	const struct memcal_mix_curve *rd = NULL, *wr = NULL;

	for (size_t i = 0; i < r->fig.n_mix; i++) {
		if (r->fig.mix[i].read_pct == 100)
			rd = &r->fig.mix[i];
		if (r->fig.mix[i].read_pct == 0)
			wr = &r->fig.mix[i];
	}
	if (!rd || !wr || !(rd->sustainable_bps > 0) ||
	    !(wr->sustainable_bps > 0))
		return;
	for (size_t i = 0; i < r->fig.n_mix; i++) {
		struct memcal_mix_curve *c = &r->fig.mix[i];
		double share = c->read_pct / 100.0, ts;

		if (!c->lower_bound || c == rd || c == wr)
			continue;
		ts = 1 / (share / rd->sustainable_bps +
			  (1 - share) / wr->sustainable_bps);
		if (ts <= c->sustainable_bps)
			continue;
		c->sustainable_bps = ts;
		snprintf(c->criterion, sizeof(c->criterion),
			 "latency <= %.2f x idle never exceeded with %d load "
			 "core(s): lower bound = the 100 %% and 0 %% read "
			 "figures time-shared at this mix, above the highest "
			 "%d%% read bandwidth measured (the cores cannot load "
			 "this memory)", c->bound_ratio, c->load_cpus,
			 c->read_pct);
	}
}

/*
 * phase_latency - the unpaced peak of every read share of the family
 * (first: it runs on the chaser's buffer too), then the chase built once
 * and every share swept, 100 % read first.
 */
static int phase_latency(struct run_state *s, char *err, size_t errlen)
{
	unsigned steps = s->o->quick ? MEMCAL_PACE_STEPS_QUICK
				     : MEMCAL_PACE_STEPS_FULL;
	double paces[steps + 1], peak[MEMCAL_MIX_COUNT];
	int rc = 0;

	for (unsigned i = 0; i <= steps; i++)
		paces[i] = (double)i / steps;
	for (unsigned m = 0; m < MEMCAL_MIX_COUNT; m++) {
		const struct memcal_kernel *k = cal_mix_kernel_best(m);

		peak[m] = k ? mix_peak(s, k, err, errlen) : 0;
	}
	if (cal_chase_build(s->b.bufs[0].base, s->b.bytes,
			       s->t->line_size, 0x5eed)) {
		snprintf(err, errlen, "cannot build the pointer chase over %zu "
			 "bytes", s->b.bytes);
		return MEMCAL_ENOMEM;
	}
	for (unsigned m = 0; !rc && m < MEMCAL_MIX_COUNT; m++)
		rc = sweep_mix(s, m, paces, steps + 1, peak[m], err, errlen);
	if (!rc)
		timeshare_lower_bounds(s->r);
	return rc;
}

/**
 * struct pmu_job - PMU discovery, validation and the count self-checks
 * on worker 0.
 * @b:    bench (buffer 0 is used).
 * @line: cache line size, bytes.
 * @r:    the result the self-checks go to.
 * @rep:  the report.
 * @read_rate: the read event's count per second in its self-check.
 * @rc:   result.
 */
struct pmu_job {
	struct memcal_bench *b;
	unsigned line;
	struct memcal_run_result *r;
	struct memcal_pmu_report rep;
	double read_rate;
	int rc;
};

/* pmu_worker - team function: counters count the thread that opens them. */
static void pmu_worker(unsigned idx, void *arg)
{
	struct pmu_job *j = arg;

	if (idx != 0)
		return;
	j->rc = cal_pmu_discover(&j->rep);
	if (!j->rc && j->rep.status.available)
		cal_pmu_validate(&j->rep, j->b->bufs[0].base, j->b->bytes);
	if (!j->rc)
		j->rc = cal_selfcheck_counts(&j->rep, j->b->bufs[0].base,
						j->b->bytes, j->line,
						&j->read_rate,
						cal_result_add_selfcheck,
						j->r);
}

/*
 * kinds_store - the kinds of CPU and each kind's documented events, for
 * memtune to give every CPU its own (a discovery that fails stores no
 * kind: every CPU then counts the run's event); the kinds' count
 * self-checks may take an event away again.  Returns MEMCAL_OK or
 * MEMCAL_ENOMEM.
 */
static int kinds_store(struct memcal_run_result *r)
{
	static struct memcal_cpu_types t;	/* large; one run at a time */
	int rc = MEMCAL_OK;

	if (cal_cpu_types_discover(&t))
		return MEMCAL_OK;
	for (size_t i = 0; !rc && i < t.n; i++) {
		struct memcal_cpu_kind k;

		cal_cpu_type_kind(&t, i, &k);
		rc = CAL_RESULT_ADD(r, kinds, &k);
	}
	return rc;
}

/*
 * phase_pmu - discover and validate PMU events and the kinds of CPU, then
 * the self-checks: the read and write counts (on worker 0, which opened
 * the events, then once per kind of CPU with the kind's own events),
 * overflow delivery on every CPU of the run with its kind's event, other
 * PMU users.  "No PMU" is a result: the checks that need
 * one are stored as skipped, with why.
 */
static int phase_pmu(struct run_state *s)
{
	struct pmu_job j = { .b = &s->b, .r = s->r,
			     .line = s->t->line_size };
	int rc = 0;

	if (s->step)
		s->step(s->user, "PMU events and self-checks");
	cal_team_run_subset(s->b.team, 1, pmu_worker, &j);
	if (!j.rc)
		j.rc = kinds_store(s->r);
	if (!j.rc)
		j.rc = cal_selfcheck_kind_counts(s->r->fig.kinds,
						    s->r->fig.n_kinds,
						    s->b.cpus, s->b.n,
						    s->b.bufs[0].base,
						    s->b.bytes, j.line,
						    cal_result_add_selfcheck,
						    s->r);
	if (!j.rc)
		j.rc = cal_selfcheck_delivery(&j.rep, s->r->fig.kinds,
						 s->r->fig.n_kinds,
						 s->b.cpus, s->b.n,
						 j.read_rate,
						 s->b.bufs[0].base, s->b.bytes,
						 cal_result_add_selfcheck,
						 s->r);
	if (!j.rc)
		j.rc = cal_selfcheck_users(cal_result_add_selfcheck, s->r);
	if (j.rc) {
		cal_pmu_report_free(&j.rep);
		return MEMCAL_ENOMEM;
	}
	s->r->fig.pmu = j.rep.status;
	for (size_t i = 0; !rc && i < j.rep.n_events; i++)
		if (CAL_RESULT_ADD(s->r, ev, &j.rep.events[i]))
			rc = MEMCAL_ENOMEM;
	if (!j.rep.status.available)
		cal_result_note(s->r, j.rep.status.message);
	cal_pmu_report_free(&j.rep);
	return rc;
}

/*
 * idle_check - how busy the machine is before anything is measured: the
 * busiest CPU's share used by others over MEMCAL_IDLE_CHECK_NS.  A busy
 * machine is noted in the run (its figures will be low and noisy).
 */
static void idle_check(struct run_state *s)
{
	struct memcal_procstat a, b;
	struct timespec ts = { 0, MEMCAL_IDLE_CHECK_NS };
	double f;
	char note[160];

	if (cal_procstat_read(&a))
		return;
	nanosleep(&ts, NULL);
	if (cal_procstat_read(&b) == 0) {
		f = cal_procstat_foreign(&a, &b, NULL, 0);
		if (f > MEMCAL_FOREIGN_WARN) {
			snprintf(note, sizeof(note), "machine busy before the "
				 "run: up to %.0f%% of a CPU used by other "
				 "processes", f * 100);
			cal_result_note(s->r, note);
		}
		cal_procstat_free(&b);
	}
	cal_procstat_free(&a);
}

/* params_json - the parameters of the run as stored JSON text. */
static char *params_json(const struct run_state *s)
{
	json_t *cpus = json_array(), *doc;
	char *txt;

	for (unsigned i = 0; i < s->b.n; i++)
		json_array_append_new(cpus, json_integer(s->b.cpus[i]));
	doc = json_pack("{s:b, s:o, s:I, s:i, s:i, s:f, s:f, s:s, s:b, s:b}",
			"quick", s->o->quick, "cpus", cpus,
			"size", (json_int_t)s->b.bytes, "repeat", (int)s->reps,
			"warmup", (int)s->warmup,
			"knee_bound_ratio", MEMCAL_KNEE_BOUND_RATIO,
			"collapse_ratio", MEMCAL_COLLAPSE_RATIO,
			"topology_source", s->t->source,
			"thp", s->b.bufs[0].thp, "hugetlb", s->b.bufs[0].hugetlb);
	txt = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	return txt;
}

/*
 * note_llc_bound - say so in @r when a measured CPU's reported LLC was too
 * large to be a real cache and the default buffers were sized from the
 * bound instead (cal_llc_sizing_bytes()).
 */
static void note_llc_bound(const struct memcal_topology *t,
			   const struct memcal_run_opts *o,
			   struct memcal_run_result *r)
{
	for (unsigned i = 0; i < o->n_cpus; i++) {
		const struct memcal_cache *llc =
			memcal_platform_topology_llc(t, o->cpus[i]);
		bool implausible;
		uint64_t used = cal_llc_sizing_bytes(llc, &implausible);
		char note[320];

		if (!implausible)
			continue;
		snprintf(note, sizeof(note), "the L%d cache reported for CPU "
			 "%u (%llu MiB for %u PU%s) is larger than any real "
			 "cache: buffers sized from %llu MiB; --size overrides",
			 llc->level, o->cpus[i],
			 (unsigned long long)(llc->size >> 20),
			 llc->n_cpus ? llc->n_cpus : 1,
			 llc->n_cpus > 1 ? "s" : "",
			 (unsigned long long)(used >> 20));
		cal_result_note(r, note);
		return;
	}
}

/*
 * cal_run_measure - run every phase for @o on topology @t into @r
 * (which must be zeroed; its platform is filled here too).  @o->cpus is
 * required.  Returns 0 or a MEMCAL_CAL_* code with @err set.
 */
int cal_run_measure(const struct memcal_topology *t,
		       const struct memcal_run_opts *o,
		       struct memcal_run_result *r, memcal_step_fn step,
		       void *user, char *err, size_t errlen)
{
	struct run_state s = { .t = t, .o = o, .r = r, .step = step,
			       .user = user };
	uint64_t size;
	int rc;

	if (!o->cpus || !o->n_cpus) {
		snprintf(err, errlen, "no CPUs to measure");
		return MEMCAL_EINVAL;
	}
	size = cal_buffer_size_for(t, o->cpus, o->n_cpus, o->size, o->quick);
	s.reps = o->repeat ? o->repeat
			   : o->quick ? MEMCAL_REPS_QUICK : MEMCAL_REPS_FULL;
	s.warmup = o->quick ? MEMCAL_WARMUP_QUICK : MEMCAL_WARMUP_FULL;
	s.max_reps = o->repeat ? 0 : o->quick ? MEMCAL_MAX_REPS_QUICK
					       : MEMCAL_MAX_REPS_FULL;
	s.rep_ns = o->quick ? MEMCAL_REP_NS_QUICK : MEMCAL_REP_NS_FULL;
	s.budget_ns = o->quick ? MEMCAL_BW_BUDGET_NS_QUICK
			       : MEMCAL_BW_BUDGET_NS_FULL;
	if (memcal_platform_describe(t, &r->platform)) {
		snprintf(err, errlen, "cannot describe the platform");
		return MEMCAL_ENOMEM;
	}
	snprintf(r->run.kind, sizeof(r->run.kind), "%s",
		 o->quick ? "quick" : "full");
	snprintf(r->run.tool_version, sizeof(r->run.tool_version), "%s",
		 MEMCAL_VERSION);
	memcal_db_timestamp(r->run.started_at);
	idle_check(&s);
	if (step)
		step(user, "allocating buffers");
	rc = cal_bench_init(&s.b, t, o->cpus, o->n_cpus, size, err, errlen);
	if (rc)
		return rc;
	r->run.params_json = params_json(&s);
	if (!o->size)
		note_llc_bound(t, o, r);
	if (!s.b.bufs[0].thp && !s.b.bufs[0].hugetlb)
		cal_result_note(r, "buffers on base pages (no huge pages "
				   "offered): figures include TLB misses");
	rc = phase_bandwidth(&s, err, errlen);
	if (!rc)
		rc = phase_guaranteed(&s, err, errlen);
	if (!rc)
		rc = phase_latency(&s, err, errlen);
	if (!rc)
		rc = phase_pmu(&s);
	if (!rc && s.foreign > MEMCAL_FOREIGN_WARN) {
		char note[256];

		snprintf(note, sizeof(note), "foreign load up to %.0f%% of a "
			 "CPU during %s: figures may be low", s.foreign * 100,
			 s.foreign_what);
		cal_result_note(r, note);
	}
	memcal_db_timestamp(r->run.finished_at);
	cal_bench_fini(&s.b);
	return rc;
}
