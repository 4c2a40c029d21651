// SPDX-License-Identifier: GPL-2.0-only
/*
 * inputs.c - load what the planner needs from the database (see
 * inputs.h).  Each missing piece is refused with the command that
 * produces it ("run 'memcal run' first").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "inputs.h"
#include "memcal_platform.h"
#include "memcal_db_guaranteed.h"
#include "memcal_db_mix.h"

/* note - record a loading warning. */
static void note(struct tune_inputs *ti, const char *msg)
{
	if (ti->n_notes < INPUT_MAX_NOTES)
		snprintf(ti->notes[ti->n_notes++], sizeof(ti->notes[0]), "%s",
			 msg);
}

/* on_sustainable - keep the sustainable bandwidth of each class. */
static int on_sustainable(const struct memcal_sustainable *s, void *user)
{
	struct tune_inputs *ti = user;
	int k = !strcmp(s->traffic, "write");

	ti->in.sustain_bps[k] = s->bandwidth_bps;
	if (s->lower_bound)
		note(ti, k ? "the sustainable write bandwidth is only a lower "
		     "bound (this board could not load its memory)" :
		     "the sustainable read bandwidth is only a lower bound "
		     "(this board could not load its memory)");
	return 0;
}

/**
 * struct wide_bw - the bandwidth figures of a run stored as wide.
 * @n:     how many.
 * @worst: the widest of them.
 */
struct wide_bw {
	int n;
	struct memcal_bw worst;
};

/* on_wide_bw - count the figures whose spread stayed wide, keep the widest. */
static int on_wide_bw(const struct memcal_bw *b, void *user)
{
	struct wide_bw *w = user;

	if (!b->spread_wide)
		return 0;
	if (!w->n++ || b->spread > w->worst.spread)
		w->worst = *b;
	return 0;
}

/* note_wide - warn when the calibration stored wide bandwidth figures. */
static void note_wide(memcal_db *db, struct tune_inputs *ti)
{
	struct wide_bw w = { 0 };
	char msg[sizeof(ti->notes[0])];

	if (memcal_db_bw_list(db, ti->in.calibration_run_id, on_wide_bw, &w) ||
	    !w.n)
		return;
	snprintf(msg, sizeof(msg), "calibration run %lld: %d bandwidth "
		 "figure(s) with a wide spread (widest: %.8s %.9s on CPU %.24s, "
		 "+-%.1f %%): the figures planned from may not repeat; "
		 "calibrate again on an idle machine",
		 (long long)ti->in.calibration_run_id, w.n, w.worst.kind,
		 w.worst.scope, w.worst.cpus, w.worst.spread * 100);
	note(ti, msg);
}

/* on_mix - keep the sustainable figure of each curve of the family. */
static int on_mix(const struct memcal_mix_curve *c, void *user)
{
	struct plan_family *f = &((struct tune_inputs *)user)->in.family;

	if (f->n < PLAN_MAX_MIXES && c->sustainable_bps > 0) {
		f->read_pct[f->n] = c->read_pct;
		f->sustain_bps[f->n] = c->sustainable_bps;
		f->lower_bound[f->n] = c->lower_bound;
		f->n++;
	}
	return 0;
}

/* on_event - keep the chosen, validated event of each class. */
static int on_event(const struct memcal_pmu_event *e, void *user)
{
	struct tune_inputs *ti = user;
	struct tune_counter *k = &ti->in.counter[!strcmp(e->traffic, "write")];

	if (!e->chosen || !(e->bytes_per_event > 0))
		return 0;
	snprintf(k->name, sizeof(k->name), "%s", e->name);
	if (e->perf_type == 4 /* PERF_TYPE_RAW */)
		snprintf(k->event, sizeof(k->event), "raw:0x%llx",
			 (unsigned long long)e->perf_config);
	else if (e->perf_type >= 6 /* PERF_TYPE_MAX: dynamic */ &&
		 e->perf_pmu[0] && tune_event_named(e->perf_pmu, e->perf_config,
						    k->event, sizeof(k->event)))
		;	/* a dynamic type's number changes with the kernel */
	else
		snprintf(k->event, sizeof(k->event), "%u:%llu", e->perf_type,
			 (unsigned long long)e->perf_config);
	k->perf_type = e->perf_type;
	k->perf_config = e->perf_config;
	k->bytes_per_event = e->bytes_per_event;
	k->validated = true;
	return 0;
}

/* on_kind - keep a kind of CPU and its events (PLAN_MAX_KINDS at most). */
static int on_kind(const struct memcal_cpu_kind *k, void *user)
{
	struct tune_inputs *ti = user;

	if (ti->in.n_kinds < PLAN_MAX_KINDS)
		ti->in.kinds[ti->in.n_kinds++] = *k;
	return 0;
}

/**
 * struct ovh_acc - overhead figures per CPU while walking the rows.
 * @ns:     chosen cost per period, per CPU.
 * @rank:   quality of the figure kept (memreg model 4, memreg points 3,
 *          proxy model 2, proxy points 1).
 * @method: method of the figure kept, per CPU.
 */
struct ovh_acc {
	double ns[TUNE_MAX_CPUS];
	int rank[TUNE_MAX_CPUS];
	bool memreg[TUNE_MAX_CPUS];
};

/* on_model - a fitted model: cost per interrupt. */
static int on_model(const struct memcal_overhead_model *m, void *user)
{
	struct ovh_acc *a = user;
	int r = !strcmp(m->method, "memreg") ? 4 : 2;

	if (m->cpu < 0 || m->cpu >= TUNE_MAX_CPUS || r < a->rank[m->cpu] ||
	    (r == a->rank[m->cpu] && strcmp(m->benchmark, "compute")))
		return 0;
	a->ns[m->cpu] = m->cost_per_irq_ns > 0 ? m->cost_per_irq_ns : 0;
	a->rank[m->cpu] = r;
	a->memreg[m->cpu] = r == 4;
	return 0;
}

/* on_point - a raw point: (ratio - 1) * period, the largest kept. */
static int on_point(const struct memcal_overhead_point *p, void *user)
{
	struct ovh_acc *a = user;
	int r = !strcmp(p->method, "memreg") ? 3 : 1;
	double ns = (p->ratio_median - 1.0) * p->period_us * 1000.0;

	if (p->cpu < 0 || p->cpu >= TUNE_MAX_CPUS || r < a->rank[p->cpu])
		return 0;
	if (r > a->rank[p->cpu] || ns > a->ns[p->cpu])
		a->ns[p->cpu] = ns > 0 ? ns : 0;
	a->rank[p->cpu] = r;
	a->memreg[p->cpu] = r == 3;
	return 0;
}

/**
 * tune_inputs_overhead() - per-CPU regulation cost from the newest overhead run
 * (or the platform run itself); call after tune_inputs_platform().
 * @assume_ns: > 0 stands in when nothing was measured; otherwise that is
 *             an error naming 'memcal overhead'.  Given when a measurement
 *             exists, it has no effect, and a note says so.
 *
 * Return: 0, or a MEMCAL_E* code with @err.
 */
int tune_inputs_overhead(memcal_db *db, struct tune_inputs *ti, double assume_ns,
		    char *err, size_t errlen)
{
	struct ovh_acc a;
	int64_t runs[2] = { 0, ti->in.calibration_run_id };
	int n = ti->in.nr_cpus, have = 0, memreg = 0;

	memset(&a, 0, sizeof(a));
	if (memcal_db_run_latest(db, "overhead", &runs[0]))
		runs[0] = 0;
	for (int r = 0; r < 2 && !have; r++) {
		if (!runs[r])
			continue;
		memcal_db_overhead_model_list(db, runs[r], on_model, &a);
		memcal_db_overhead_list(db, runs[r], on_point, &a);
		for (int c = 0; c < n; c++)
			have += a.rank[c] > 0;
		if (have)
			ti->in.overhead_run_id = runs[r];
	}
	if (!have && !(assume_ns > 0)) {
		snprintf(err, errlen, "no regulation-overhead measurement in "
			 "the database: run 'memcal overhead' first (or give "
			 "--assume-overhead-ns to plan with a stated figure)");
		return MEMCAL_ENOTFOUND;
	}
	for (int c = 0; c < n; c++) {
		if (!a.rank[c]) {
			double sum = 0;
			int k = 0;

			for (int d = 0; d < n; d++)
				if (a.rank[d]) {
					sum += a.ns[d];
					k++;
				}
			a.ns[c] = k ? sum / k : assume_ns;
		}
		ti->in.overhead_ns[c] = a.ns[c];
		memreg += a.memreg[c];
	}
	snprintf(ti->in.overhead_method, sizeof(ti->in.overhead_method), "%s",
		 !have ? "assumed" : memreg ? "memreg" : "proxy");
	if (!have)
		note(ti, "no overhead was measured: the planner assumed the "
		     "--assume-overhead-ns figure for every core");
	else if (have < n)
		note(ti, "overhead was not measured on every core: the others "
		     "were given the mean of the measured ones");
	if (have && assume_ns > 0) {
		char msg[256];

		snprintf(msg, sizeof(msg), "--assume-overhead-ns %.0f was "
			 "ignored: run %lld measured the overhead (%s), and a "
			 "measurement always wins; the option stands in only "
			 "when 'memcal overhead' has not run",
			 assume_ns, (long long)ti->in.overhead_run_id,
			 memreg ? "memreg" : "proxy");
		note(ti, msg);
	}
	return 0;
}

/**
 * tune_inputs_platform() - load the newest platform profile into @ti: the
 * board, its sustainable bandwidth and its counter events.
 *
 * Return: 0, or a MEMCAL_E* code with @err naming what to run first.
 */
int tune_inputs_platform(memcal_db *db, struct tune_inputs *ti, char *err,
		    size_t errlen)
{
	struct plan_input *in = &ti->in;
	struct memcal_run run;
	struct memcal_pmu_status pmu;

	if (memcal_db_run_latest(db, "bandwidth", &in->calibration_run_id)) {
		snprintf(err, errlen, "no platform profile in %s yet: run "
			 "'memcal run' first", memcal_db_path(db));
		return MEMCAL_ENOTFOUND;
	}
	if (memcal_db_run_get(db, in->calibration_run_id, &run) ||
	    memcal_db_platform_get(db, run.platform_id, &ti->platform)) {
		snprintf(err, errlen, "%s", memcal_db_errmsg(db));
		return MEMCAL_ERROR;
	}
	memcal_db_run_free(&run);
	in->platform_id = ti->platform.id;
	in->nr_cpus = ti->platform.pus > 0 ? ti->platform.pus :
		      ti->platform.cores;
	if (in->nr_cpus > TUNE_MAX_CPUS)
		in->nr_cpus = TUNE_MAX_CPUS;
	snprintf(in->fingerprint, sizeof(in->fingerprint), "%s",
		 ti->platform.fingerprint);
	snprintf(in->arch, sizeof(in->arch), "%s", ti->platform.arch);
	snprintf(in->cpu_model, sizeof(in->cpu_model), "%s",
		 ti->platform.cpu_model);
	memcal_db_sustainable_list(db, in->calibration_run_id, on_sustainable,
				   ti);
	if (!(in->sustain_bps[0] > 0)) {
		snprintf(err, errlen, "calibration run %lld has no sustainable "
			 "read bandwidth: run 'memcal run' (not --quick) first",
			 (long long)in->calibration_run_id);
		return MEMCAL_ENOTFOUND;
	}
	if (!(in->sustain_bps[1] > 0)) {
		in->sustain_bps[1] = in->sustain_bps[0];
		note(ti, "no sustainable write bandwidth was measured: the "
		     "read figure stands in for it");
	}
	note_wide(db, ti);
	memcal_db_mix_curve_list(db, in->calibration_run_id, on_mix, ti);
	memcal_db_pmu_event_list(db, in->calibration_run_id, on_event, ti);
	in->n_kinds = 0;
	memcal_db_cpu_kind_list(db, in->calibration_run_id, on_kind, ti);
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		if (!in->counter[k].validated) {
			struct tune_counter *c = &in->counter[k];

			/* memreg's software stand-in; a cache line per count */
			snprintf(c->event, sizeof(c->event), "%s",
				 k ? "none" : "page-faults");
			c->bytes_per_event = 64;
		}
	if (!memcal_db_pmu_status_get(db, in->calibration_run_id, &pmu) &&
	    !pmu.available)
		note(ti, "this board has no usable PMU: memreg can count only a "
		     "software stand-in event here, so budgets are not enforced "
		     "against real memory traffic");
	return 0;
}

/**
 * tune_inputs_guaranteed() - the guaranteed bandwidth of each class of the
 * calibration run (memcal_db_guaranteed_pick(): declared, else
 * single-bank, else random-line); call after tune_inputs_platform().
 * @from_streaming: --guarantees-from-streaming: plan the guarantees from
 *                  the streaming figure; a missing figure is then no
 *                  error, and a stored one is not used (a note says so).
 *
 * Return: 0, or MEMCAL_ENOTFOUND with @err saying how to get a figure.
 */
int tune_inputs_guaranteed(memcal_db *db, struct tune_inputs *ti,
		      bool from_streaming, char *err, size_t errlen)
{
	static const char *const cls[] = { "read", "write" };
	struct plan_input *in = &ti->in;
	int have = 0;

	in->guarantees_from_streaming = from_streaming;
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		struct memcal_guaranteed g;

		in->guaranteed_bps[k] = 0;
		if (memcal_db_guaranteed_pick(db, in->calibration_run_id, cls[k],
					      &g) || !(g.bandwidth_bps > 0)) {
			if (from_streaming)
				continue;
			snprintf(err, errlen, "%s; or plan with "
				 "--guarantees-from-streaming (guarantees from "
				 "the streaming figure: they may not hold when "
				 "every access misses its row)",
				 memcal_db_errmsg(db));
			return MEMCAL_ENOTFOUND;
		}
		have++;
		in->guaranteed_bps[k] = g.bandwidth_bps;
		snprintf(in->guaranteed_method[k],
			 sizeof(in->guaranteed_method[k]), "%s", g.method);
		snprintf(in->guaranteed_source[k],
			 sizeof(in->guaranteed_source[k]), "%s",
			 g.source[0] && !strcmp(g.method, "declared") ?
			 g.source : g.criterion);
	}
	if (from_streaming && have)
		note(ti, "--guarantees-from-streaming: the calibration's "
		     "guaranteed bandwidth was not used");
	return 0;
}

/*
 * on_profile - keep the profile of a workload of the mix (the newest
 * comes first; a later row of the same workload is ignored).
 */
static int on_profile(const struct memcal_profile *p, void *user)
{
	void **ctx = user;
	struct tune_inputs *ti = ctx[0];
	const struct mix *m = ctx[1];
	int i = tune_mix_find(m, p->workload);
	struct memcal_profile *d;

	if (i < 0 || ti->have[i])
		return 0;
	d = &ti->profiles[i];
	*d = *p;
	d->argv_json = p->argv_json ? strdup(p->argv_json) : NULL;
	d->trace_read = malloc((p->trace_len ? p->trace_len : 1) * 8);
	d->trace_write = malloc((p->trace_len ? p->trace_len : 1) * 8);
	if (!d->trace_read || !d->trace_write)
		return MEMCAL_ENOMEM;
	memcpy(d->trace_read, p->trace_read, p->trace_len * 8);
	memcpy(d->trace_write, p->trace_write, p->trace_len * 8);
	ti->have[i] = true;
	return 0;
}

/**
 * tune_inputs_profiles() - load the newest profile of every workload of @m on
 * the platform of @ti, refusing when one is missing.
 * Return: 0, or a MEMCAL_E* code with @err naming 'memtune profile'.
 */
int tune_inputs_profiles(memcal_db *db, const struct mix *m,
		    struct tune_inputs *ti, char *err, size_t errlen)
{
	void *ctx[2] = { ti, (void *)m };
	int rc;

	ti->in.mix = m;
	rc = memcal_db_profile_latest(db, ti->in.platform_id, m->name,
				      on_profile, ctx);
	if (rc) {
		snprintf(err, errlen, "%s", rc == MEMCAL_ENOMEM ?
			 "out of memory loading profiles" :
			 memcal_db_errmsg(db));
		return rc;
	}
	for (int i = 0; i < m->n; i++) {
		const struct memcal_profile *p = &ti->profiles[i];
		struct plan_profile *q = &ti->in.prof[i];

		if (!ti->have[i]) {
			snprintf(err, errlen, "workload '%s' of mix '%s' has no "
				 "profile on this board: run 'memtune profile "
				 "%s' first", m->wl[i].name, m->name, m->path);
			return MEMCAL_ENOTFOUND;
		}
		q->id = p->id;
		snprintf(q->source, sizeof(q->source), "%s", p->trace_source);
		q->exec_ns = p->exec_median_ns;
		q->tick_us = (uint32_t)p->trace_period_us;
		q->len = p->trace_len;
		q->read = p->trace_read;
		q->write = p->trace_write;
	}
	return 0;
}

/** tune_inputs_free() - release the loaded rows. */
void tune_inputs_free(struct tune_inputs *ti)
{
	memcal_db_platform_free(&ti->platform);
	for (int i = 0; i < MIX_MAX_WORKLOADS; i++)
		if (ti->have[i])
			memcal_db_profile_free(&ti->profiles[i]);
	memset(ti->have, 0, sizeof(ti->have));
}

/* on_read_bw - keep the all-core read figure: the most CPUs, then the highest. */
static int on_read_bw(const struct memcal_bw *b, void *user)
{
	struct tune_machine *m = user;

	if (strcmp(b->kind, "read") || strcmp(b->scope, "aggregate") ||
	    !(b->median_bps > 0) || b->n_cpus < m->bw_n_cpus ||
	    (b->n_cpus == m->bw_n_cpus && b->median_bps <= m->bw_read_bps))
		return 0;
	m->bw_read_bps = b->median_bps;
	m->bw_n_cpus = b->n_cpus;
	snprintf(m->bw_cpus, sizeof(m->bw_cpus), "%s", b->cpus);
	snprintf(m->bw_variant, sizeof(m->bw_variant), "%s", b->variant);
	m->bw_buffer_bytes = b->buffer_bytes > 0 ? (uint64_t)b->buffer_bytes : 0;
	return 0;
}

/* this_fingerprint - whether this machine is the board with @fp. */
static bool is_this_board(const char *fp)
{
	struct memcal_topology t;
	struct memcal_platform p;
	char err[256];
	bool same = false;

	if (memcal_platform_topology_load(&t, NULL, err, sizeof(err)))
		return false;
	if (!memcal_platform_describe(&t, &p)) {
		same = !strcmp(p.fingerprint, fp);
		memcal_db_platform_free(&p);
	}
	memcal_platform_topology_free(&t);
	return same;
}

/**
 * tune_inputs_machine() - the provenance 'memtune check' compares a unit
 * with: the calibration's all-core read figure, and the calibrating
 * machine's items when the plan runs on it (same fingerprint; planning
 * elsewhere from a copied database records none, and check then says
 * "unknown" rather than compare with the wrong machine).  The memreg
 * version is the one this memtune goes with.  Call after
 * tune_inputs_platform().
 */
void tune_inputs_machine(memcal_db *db, struct tune_inputs *ti)
{
	struct tune_machine *m = &ti->machine;

	if (is_this_board(ti->platform.fingerprint)) {
		tune_machine_probe(m);
	} else {
		memset(m, 0, sizeof(*m));
		m->smt = -1;
		note(ti, "the plan runs on another machine than the "
		     "calibrated board: the configuration carries no machine "
		     "provenance, and 'memtune check' reports those items "
		     "unknown");
	}
	snprintf(m->memreg_version, sizeof(m->memreg_version), "%s",
		 MEMREG_VERSION);
	memcal_db_bw_list(db, ti->in.calibration_run_id, on_read_bw, m);
	ti->in.machine = m;
}
