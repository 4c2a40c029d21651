// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_phases.c - every measuring phase of `memcal run` (see run_phases.h).
 */
#include "run_phases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "knee.h"
#include "latency.h"
#include "measure.h"
#include "pmu.h"

/* Read shares tried for mixed traffic (full run; quick uses the middle). */
static const double mixed_shares[] = { 0.25, 0.5, 0.75 };

/**
 * struct run_state - what the phases share.
 * @t, @o:     inputs.
 * @r:         the result being filled.
 * @b:         workers and buffers.
 * @reps, @warmup: repetitions per measurement.
 * @step, @user: progress callback.
 * @foreign:   worst foreign-load share seen, and @foreign_what where.
 */
struct run_state {
	const struct memcal_topology *t;
	const struct memcal_run_opts *o;
	struct memcal_run_result *r;
	struct memcal_bench b;
	unsigned reps, warmup;
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
 * memcal_run_steps - progress steps memcal_run_measure() will report for
 * @o (whose @n_cpus must be set).
 */
unsigned memcal_run_steps(const struct memcal_run_opts *o)
{
	unsigned k[o->n_cpus ? o->n_cpus : 1], rd[4], steps;
	unsigned na = agg_counts(o, k);

	steps = o->n_cpus * n_ops(o) + na * n_ops(o);
	for (unsigned c = 2; c <= o->n_cpus; c++)
		if (!o->quick || c == o->n_cpus)
			steps += mixed_readers(o, c, rd);
	return steps + 2 /* latency */ + 1 /* PMU */;
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
		.warmup = s->warmup, .passes = 1,
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
	memcal_cpulist_format(cpus, n, row.cpus, sizeof(row.cpus));
	snprintf(what, sizeof(what), "%s %s on CPU %s", scope, kind, row.cpus);
	if (s->step)
		s->step(s->user, what);
	rc = memcal_measure_bw(&s->b, &spec, &res, err, errlen);
	if (rc == MEMCAL_CAL_EUNSUPPORTED)
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
	return memcal_result_add_bw(s->r, &row) ? MEMCAL_CAL_ENOMEM : 0;
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
					   memcal_op_name(ops[j]), err, errlen);
		}
	for (unsigned a = 0; !rc && a < na; a++)
		for (unsigned j = 0; !rc && j < n_ops(s->o); j++) {
			for (unsigned x = 0; x < n; x++)
				use[x] = x < k[a];
			rc = measure_point(s, "aggregate", ops[j], NULL, use, 0,
					   memcal_op_name(ops[j]), err, errlen);
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

/* best_aggregate - highest aggregate median of @kind stored so far. */
static double best_aggregate(const struct memcal_run_result *r,
			     const char *kind)
{
	double best = 0;

	for (size_t i = 0; i < r->n_bw; i++)
		if (!strcmp(r->bw[i].kind, kind) &&
		    !strcmp(r->bw[i].scope, "aggregate") &&
		    r->bw[i].median_bps > best)
			best = r->bw[i].median_bps;
	return best;
}

/* sweep_one - loaded latency for one traffic class, then its knee. */
static int sweep_one(struct run_state *s, enum memcal_op traffic,
		     const double *paces, unsigned np, char *err, size_t errlen)
{
	unsigned n_load = s->b.n - 1;
	struct memcal_lat_spec spec = {
		.traffic = traffic, .paces = paces, .n_paces = n_load ? np : 1,
		.n_load = n_load,
		.reps = s->o->quick ? MEMCAL_LAT_REPS_QUICK : MEMCAL_LAT_REPS_FULL,
		.chase_ns = s->o->quick ? MEMCAL_CHASE_NS_QUICK
					: MEMCAL_CHASE_NS_FULL,
	};
	struct memcal_lat_point pts[np];
	struct memcal_curve_point curve[np];
	struct memcal_sustainable *sus = &s->r->sus[s->r->n_sus];
	struct memcal_knee knee;
	const char *tr = memcal_op_name(traffic);
	struct memcal_procstat ps0, ps1;
	bool have_ps;
	char what[160];
	int rc;

	snprintf(what, sizeof(what), "loaded latency, %s traffic", tr);
	if (s->step)
		s->step(s->user, what);
	have_ps = memcal_procstat_read(&ps0) == 0;
	rc = memcal_latency_sweep(&s->b, &spec, pts, err, errlen);
	if (have_ps && memcal_procstat_read(&ps1) == 0) {
		note_foreign(s, memcal_procstat_foreign(&ps0, &ps1, s->b.cpus,
							s->b.n), what);
		memcal_procstat_free(&ps1);
	}
	if (have_ps)
		memcal_procstat_free(&ps0);
	if (rc)
		return rc;
	for (unsigned i = 0; i < spec.n_paces; i++) {
		struct memcal_latency_point row = {
			.chase_cpu = (int)s->b.cpus[0], .load_cpus = (int)n_load,
			.pace = pts[i].pace, .bandwidth_bps = pts[i].bw,
			.latency_ns = pts[i].lat.median,
			.latency_min_ns = pts[i].lat.min,
			.latency_max_ns = pts[i].lat.max,
		};

		snprintf(row.traffic, sizeof(row.traffic), "%s", tr);
		if (memcal_result_add_latency(s->r, &row))
			return MEMCAL_CAL_ENOMEM;
		/* The knee uses each point's best repetition: foreign load
		 * only ever adds time to a chase. */
		curve[i].bw = pts[i].bw;
		curve[i].lat = pts[i].lat.min;
	}
	if (memcal_knee_find(curve, spec.n_paces, MEMCAL_KNEE_BOUND_RATIO,
			     &knee))
		return 0;
	memset(sus, 0, sizeof(*sus));
	snprintf(sus->traffic, sizeof(sus->traffic), "%s", tr);
	sus->bandwidth_bps = knee.bandwidth;
	sus->idle_latency_ns = knee.idle_lat;
	sus->bound_ratio = knee.bound_ratio;
	sus->lower_bound = knee.lower_bound;
	if (knee.lower_bound) {
		double agg = best_aggregate(s->r, tr);

		if (agg > sus->bandwidth_bps)
			sus->bandwidth_bps = agg;
		snprintf(sus->criterion, sizeof(sus->criterion),
			 "latency <= %.2f x idle never exceeded with %u load "
			 "core(s): lower bound = highest %s bandwidth measured "
			 "(the cores cannot load this memory)",
			 knee.bound_ratio, n_load, tr);
	} else {
		snprintf(sus->criterion, sizeof(sus->criterion), "%s",
			 knee.criterion);
	}
	s->r->n_sus++;
	return 0;
}

/* phase_latency - build the chase once, sweep read then write traffic. */
static int phase_latency(struct run_state *s, char *err, size_t errlen)
{
	unsigned steps = s->o->quick ? MEMCAL_PACE_STEPS_QUICK
				     : MEMCAL_PACE_STEPS_FULL;
	double paces[steps + 1];
	int rc;

	for (unsigned i = 0; i <= steps; i++)
		paces[i] = (double)i / steps;
	if (memcal_chase_build(s->b.bufs[0].base, s->b.bytes,
			       memcal_topology_line_size(s->t), 0x5eed) < 0) {
		snprintf(err, errlen, "cannot build the pointer chase over %zu "
			 "bytes", s->b.bytes);
		return MEMCAL_CAL_ENOMEM;
	}
	rc = sweep_one(s, MEMCAL_OP_READ, paces, steps + 1, err, errlen);
	if (!rc)
		rc = sweep_one(s, MEMCAL_OP_WRITE, paces, steps + 1, err, errlen);
	return rc;
}

/**
 * struct pmu_job - PMU discovery and validation on worker 0.
 * @b:   bench (buffer 0 is used).
 * @rep: the report.
 * @rc:  result.
 */
struct pmu_job {
	struct memcal_bench *b;
	struct memcal_pmu_report rep;
	int rc;
};

/* pmu_worker - team function: counters count the thread that opens them. */
static void pmu_worker(unsigned idx, void *arg)
{
	struct pmu_job *j = arg;

	if (idx != 0)
		return;
	j->rc = memcal_pmu_discover(&j->rep);
	if (!j->rc && j->rep.status.available)
		memcal_pmu_validate(&j->rep, j->b->bufs[0].base, j->b->bytes);
}

/* phase_pmu - discover and validate PMU events; "no PMU" is a result. */
static int phase_pmu(struct run_state *s)
{
	struct pmu_job j = { .b = &s->b };
	int rc = 0;

	if (s->step)
		s->step(s->user, "PMU events");
	memcal_team_run_subset(s->b.team, 1, pmu_worker, &j);
	if (j.rc) {
		memcal_pmu_report_free(&j.rep);
		return MEMCAL_CAL_ENOMEM;
	}
	s->r->pmu = j.rep.status;
	for (size_t i = 0; !rc && i < j.rep.n_events; i++)
		if (memcal_result_add_pmu_event(s->r, &j.rep.events[i]))
			rc = MEMCAL_CAL_ENOMEM;
	if (!j.rep.status.available)
		memcal_result_note(s->r, j.rep.status.message);
	memcal_pmu_report_free(&j.rep);
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

	if (memcal_procstat_read(&a))
		return;
	nanosleep(&ts, NULL);
	if (memcal_procstat_read(&b) == 0) {
		f = memcal_procstat_foreign(&a, &b, NULL, 0);
		if (f > MEMCAL_FOREIGN_WARN) {
			snprintf(note, sizeof(note), "machine busy before the "
				 "run: up to %.0f%% of a CPU used by other "
				 "processes", f * 100);
			memcal_result_note(s->r, note);
		}
		memcal_procstat_free(&b);
	}
	memcal_procstat_free(&a);
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
 * memcal_run_measure - run every phase for @o on topology @t into @r
 * (which must be zeroed; its platform is filled here too).  @o->cpus is
 * required.  Returns 0 or a MEMCAL_CAL_* code with @err set.
 */
int memcal_run_measure(const struct memcal_topology *t,
		       const struct memcal_run_opts *o,
		       struct memcal_run_result *r, memcal_step_fn step,
		       void *user, char *err, size_t errlen)
{
	struct run_state s = { .t = t, .o = o, .r = r, .step = step,
			       .user = user };
	uint64_t size = o->size;
	int rc;

	if (!o->cpus || !o->n_cpus) {
		snprintf(err, errlen, "no CPUs to measure");
		return MEMCAL_CAL_EINVAL;
	}
	for (unsigned i = 0; !size && i < o->n_cpus; i++) {
		uint64_t d = memcal_buffer_default_size(t, o->cpus[i], o->quick);

		if (d > size)
			size = d;
	}
	s.reps = o->repeat ? o->repeat
			   : o->quick ? MEMCAL_REPS_QUICK : MEMCAL_REPS_FULL;
	s.warmup = o->quick ? MEMCAL_WARMUP_QUICK : MEMCAL_WARMUP_FULL;
	if (memcal_platform_describe(t, &r->platform)) {
		snprintf(err, errlen, "cannot describe the platform");
		return MEMCAL_CAL_ENOMEM;
	}
	snprintf(r->run.kind, sizeof(r->run.kind), "%s",
		 o->quick ? "quick" : "full");
	snprintf(r->run.tool_version, sizeof(r->run.tool_version), "%s",
		 MEMCAL_VERSION);
	memcal_db_timestamp(r->run.started_at);
	idle_check(&s);
	if (step)
		step(user, "allocating buffers");
	rc = memcal_bench_init(&s.b, t, o->cpus, o->n_cpus, size, err, errlen);
	if (rc)
		return rc;
	r->run.params_json = params_json(&s);
	if (!s.b.bufs[0].thp && !s.b.bufs[0].hugetlb)
		memcal_result_note(r, "buffers on base pages (no huge pages "
				   "offered): figures include TLB misses");
	rc = phase_bandwidth(&s, err, errlen);
	if (!rc)
		rc = phase_latency(&s, err, errlen);
	if (!rc)
		rc = phase_pmu(&s);
	if (!rc && s.foreign > MEMCAL_FOREIGN_WARN) {
		char note[256];

		snprintf(note, sizeof(note), "foreign load up to %.0f%% of a "
			 "CPU during %s: figures may be low", s.foreign * 100,
			 s.foreign_what);
		memcal_result_note(r, note);
	}
	memcal_db_timestamp(r->run.finished_at);
	memcal_bench_fini(&s.b);
	return rc;
}
