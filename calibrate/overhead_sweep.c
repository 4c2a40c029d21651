// SPDX-License-Identifier: GPL-2.0-only
/*
 * overhead_sweep.c - the interrupt-overhead sweep: choose the method
 * (memreg in monitor-only mode, or the labelled user-space proxy) and
 * measure every (benchmark, core, period, master) point with C and C'
 * interleaved in every repetition and every run bounded, longest period
 * first so that a livelocked core skips the shorter ones (see overhead.h).
 */
#include "overhead.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buffers.h"
#include "kernels.h"
#include "measure.h"
#include "overhead_kmod.h"
#include "stats.h"
#include "threads.h"

#include "memreg.h"

/**
 * struct sweep - state of one cal_overhead_measure() call.
 * @ctx, @t, @p, @r: caller's context, topology, request and result.
 * @use_kmod: the memreg method is used.
 * @ko:       memreg.ko path (memreg method).
 * @reg:      regulator core state driven by the proxy timers (or NULL).
 * @nr_slots: CPU slots given to the regulator core.
 * @w:        the benchmarks.
 * @buf:      memory benchmark buffer and @buf_node the node it is on.
 * @cap:      allocated entries of @r->pts.
 * @prog:     progress display.
 */
struct sweep {
	struct cli_ctx *ctx;
	const struct memcal_topology *t;
	const struct overhead_params *p;
	struct overhead_result *r;
	bool use_kmod;
	char ko[256];
	struct memreg *reg;
	unsigned nr_slots;
	struct ovh_workload w[OVH_BENCH_COUNT];
	struct memcal_buffer buf;
	int buf_node;
	size_t cap;
	struct cli_progress prog;
};

/* pin_hook - pin with calibrate's cal_pin_self() (hwloc). */
static int pin_hook(void *user, unsigned cpu)
{
	const struct memcal_topology *t = user;

	return cal_pin_self(t->this_system ? t->hw : NULL, cpu);
}

/* tick_hook - proxy expiry: the regulator core's per-period work. */
static void tick_hook(void *user, unsigned cpu, bool master, uint64_t n)
{
	struct memreg *reg = user;
	memreg_u64 consumed[MEMREG_NR_CLASSES] = { 0 };
	struct memreg_arm arm;

	if (cpu >= reg->cfg.nr_cpus)
		return;
	memreg_replenish(reg, cpu, n + 1, consumed, 0, &arm);
	if (master)
		memreg_master_tick(reg, n + 1);
}

/* core_reset - (re)initialise the core state for @period_us / @master. */
static bool core_reset(struct sweep *s, uint32_t period_us, int master)
{
	struct memreg_cfg cfg;
	const char *why;

	if (!s->reg || (unsigned)master >= s->nr_slots)
		return false;
	memreg_cfg_defaults(&cfg, s->nr_slots);
	cfg.period_ns = (memreg_u64)period_us * 1000u;
	cfg.master_cpu = (memreg_u32)master;
	cfg.flags = MEMREG_F_MONITOR | MEMREG_F_LMS;
	if (memreg_init(s->reg, &cfg, &why) == MEMREG_OK)
		return true;
	cfg.flags = MEMREG_F_MONITOR;
	return memreg_init(s->reg, &cfg, &why) == MEMREG_OK;
}

/* choose_method - memreg if it loads here, else the proxy, with why. */
static void choose_method(struct sweep *s)
{
	struct overhead_result *r = s->r;
	char why[256];

	if (s->p->force_proxy) {
		snprintf(r->method_why, sizeof(r->method_why),
			 "proxy requested (--proxy)");
	} else if (cal_ovh_kmod_probe(s->p->module_path, s->ko, sizeof(s->ko),
				  why, sizeof(why)) == 0) {
		s->use_kmod = true;
		snprintf(r->method, sizeof(r->method), "memreg");
		snprintf(r->method_why, sizeof(r->method_why),
			 "memreg.ko (%s) loaded in monitor-only mode", s->ko);
		return;
	} else {
		snprintf(r->method_why, sizeof(r->method_why),
			 "memreg cannot be loaded: %s", why);
	}
	snprintf(r->method, sizeof(r->method), "proxy");
	s->nr_slots = 0;
	for (unsigned i = 0; i < s->t->n_pus; i++)
		if (s->t->pus[i] + 1 > s->nr_slots)
			s->nr_slots = s->t->pus[i] + 1;
	if (s->nr_slots <= MEMREG_MAX_CPUS)
		s->reg = calloc(1, sizeof(struct memreg));
	cal_overhead_note(r, "method proxy: %s; user-space periodic timer (%s) "
		      "running the regulator core's per-period code: an UPPER "
		      "BOUND, not memreg's own figure", r->method_why,
		      r->fifo ? "SCHED_FIFO 2 over a SCHED_FIFO 1 benchmark" :
		      "SCHED_OTHER, no permission for SCHED_FIFO");
}

/* prepare_memory - the memory benchmark's buffer on @cpu's node. */
static int prepare_memory(struct sweep *s, unsigned cpu, char *err,
			  size_t len)
{
	int node = memcal_platform_topology_cpu_node(s->t, cpu);
	uint64_t bytes = s->p->mem_bytes;
	const struct memcal_kernel *k = cal_kernel_best(MEMCAL_OP_READ);

	if (!k) {
		snprintf(err, len, "no streaming read kernel");
		return -EINVAL;
	}
	if (s->buf.base && s->buf_node == node)
		return 0;
	cal_buffer_free(&s->buf);
	if (!bytes)
		bytes = cal_buffer_default_size(s->t, cpu, true);
	bytes -= bytes % OVH_MEMORY_CHUNK;
	if (bytes < OVH_MEMORY_CHUNK)
		bytes = OVH_MEMORY_CHUNK;
	if (cal_buffer_alloc(&s->buf, bytes, node, err, len))
		return -ENOMEM;
	s->buf_node = node;
	s->w[OVH_BENCH_MEMORY].buf = s->buf.base;
	s->w[OVH_BENCH_MEMORY].buf_bytes = bytes;
	s->w[OVH_BENCH_MEMORY].read = k->fn;
	s->r->mem_bytes = bytes;
	return 0;
}

/* new_point - append a zeroed point to the result; NULL without memory. */
static struct overhead_point *new_point(struct sweep *s)
{
	struct overhead_result *r = s->r;

	if (r->n_pts == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct overhead_point *n = realloc(r->pts, cap * sizeof(*n));

		if (!n)
			return NULL;
		r->pts = n;
		s->cap = cap;
	}
	memset(&r->pts[r->n_pts], 0, sizeof(r->pts[0]));
	return &r->pts[r->n_pts++];
}

/*
 * summarise - fill @pt's ratio statistics from the @n per-repetition
 * baselines @c and bounded runs @cp (ns).  A repetition whose baseline is
 * far slower than its peers' median (the host took the core, stats.h) is
 * dropped when there are at least three.  @scratch holds 3 x @n doubles.
 */
static void summarise(struct overhead_point *pt, const double *c,
		      const double *cp, unsigned n, double *scratch)
{
	double *cs = scratch, *rs = scratch + n, *cps = scratch + 2 * n;
	double medc;
	unsigned k = 0;

	memcpy(cs, c, n * sizeof(*c));
	medc = n ? cal_median(cs, n) : 0;
	for (unsigned i = 0; i < n; i++) {
		if (n >= 3 && c[i] * MEMCAL_COLLAPSE_RATIO > medc) {
			pt->dropped++;
			continue;
		}
		rs[k] = cp[i] / c[i];
		cps[k] = cp[i];
		cs[k] = c[i];
		k++;
	}
	pt->db.repetitions = (int)k;
	if (!k) {
		pt->db.ratio_median = pt->db.ratio_min = pt->db.ratio_max = NAN;
		return;
	}
	pt->db.ratio_min = pt->db.ratio_max = rs[0];
	for (unsigned i = 1; i < k; i++) {
		if (rs[i] < pt->db.ratio_min)
			pt->db.ratio_min = rs[i];
		if (rs[i] > pt->db.ratio_max)
			pt->db.ratio_max = rs[i];
	}
	pt->db.ratio_median = cal_median(rs, k);
	pt->c_ns = cal_median(cs, k);
	pt->cp_ns = cal_median(cps, k);
}

/* base_spec - a run spec of benchmark @b on @cpu with no timer. */
static struct ovh_run_spec base_spec(struct sweep *s, enum ovh_bench b,
				     unsigned cpu)
{
	struct ovh_run_spec sp = {
		.w = &s->w[b], .bench_cpu = cpu, .master_cpu = -1,
		.limit_ns = 20ull * s->p->bench_ms * 1000000ull + 1000000000ull,
		.pin = pin_hook, .pin_user = (void *)s->t,
		.bench_fifo = s->r->fifo,
	};

	return sp;
}

/* Pause between runs: keeps SCHED_FIFO work under the kernel's RT
 * bandwidth limit (95 %) and lets the rest of a shared machine run. */
#define OVH_GAP_US	5000
/* Retries of a proxy run whose own-core timer barely fired. */
#define OVH_STARVED_RETRIES	2

/* run_c - one baseline run C (no regulator, no timer). */
static int run_c(struct sweep *s, enum ovh_bench b, unsigned cpu,
		 struct ovh_sample *out, char *err, size_t len)
{
	struct ovh_run_spec sp = base_spec(s, b, cpu);
	int rc;

	usleep(OVH_GAP_US);
	rc = cal_ovh_run_once(&sp, out);
	if (rc)
		snprintf(err, len, "benchmark on cpu %u failed: %s", cpu,
			 strerror(-rc));
	return rc;
}

/*
 * run_cp - one run C' at @period_us with the master on @master, bounded
 * by @limit_ns: memreg loaded for the run (memreg method) or the proxy's
 * timer threads on the benchmark's core and the master core.
 */
static int run_cp(struct sweep *s, enum ovh_bench b, unsigned cpu,
		  uint32_t period_us, int master, uint64_t limit_ns,
		  struct ovh_sample *out, char *err, size_t len)
{
	struct ovh_run_spec sp = base_spec(s, b, cpu);
	int rc;

	sp.limit_ns = limit_ns;
	sp.master_cpu = master;
	if (s->use_kmod) {
		rc = cal_ovh_kmod_load(s->ko, period_us, master, NULL, err, len);
		if (rc)
			return rc;
		rc = cal_ovh_run_once(&sp, out);
		if (!rc && cal_ovh_kmod_periods(cpu, &out->ticks))
			out->ticks = 0;	/* statistic unreadable: unknown */
		if (cal_ovh_kmod_unload(rc ? NULL : err, len) && !rc)
			return MEMCAL_ERROR;
	} else {
		sp.period_ns = (uint64_t)period_us * 1000u;
		sp.timer_cpus[sp.n_timers++] = cpu;
		if (master >= 0 && (unsigned)master != cpu)
			sp.timer_cpus[sp.n_timers++] = (unsigned)master;
		sp.fifo = s->r->fifo;
		for (int tries = 0; tries <= OVH_STARVED_RETRIES; tries++) {
			double expect;

			if (core_reset(s, period_us, master)) {
				sp.tick = tick_hook;
				sp.tick_user = s->reg;
			}
			usleep(OVH_GAP_US);
			rc = cal_ovh_run_once(&sp, out);
			expect = (double)out->elapsed_ns / (1e3 * period_us);
			if (rc || !out->complete || expect < 4 ||
			    (double)out->bench_ticks >= expect / 4)
				break;
			s->r->starved_retries++;
		}
	}
	if (rc && !*err)
		snprintf(err, len, "run at %u us on cpu %u failed: %s",
			 period_us, cpu, strerror(rc < 0 ? -rc : rc));
	if (!rc && !isfinite(out->est_ns))
		out->est_ns = (double)out->elapsed_ns; /* a lower bound */
	return rc;
}

/**
 * struct mcfg - one master configuration of a (benchmark, core) series.
 * @master: master core.
 * @ruined: a run hit the bound at @ruined_at us: shorter periods skipped.
 * @ruined_at: that period.
 */
struct mcfg {
	int master;
	bool ruined;
	uint32_t ruined_at;
};

/* note_ruin - the notes for a configuration that livelocked at @pi. */
static void note_ruin(struct sweep *s, enum ovh_bench b, unsigned cpu,
		      const struct mcfg *m, const uint32_t *per, size_t pi,
		      size_t n)
{
	char skipped[256] = "";
	size_t o = 0;

	for (size_t j = pi + 1; j < n && o < sizeof(skipped) - 16; j++)
		o += (size_t)snprintf(skipped + o, sizeof(skipped) - o, "%s%u",
				      o ? "," : "", per[j]);
	cal_overhead_note(s->r, "livelock: cpu %u %s master %d at %u us: a run "
		      "did not finish within %.0fx C; stored as measured "
		      "(ratio extrapolated from the work done: a lower bound)%s%s%s",
		      cpu, cal_ovh_bench_name(b), m->master, per[pi], OVH_MAX_RATIO,
		      o ? "; skipped shorter periods " : "", skipped,
		      o ? " us" : "");
	cli_warn(s->ctx, "cpu %u %s, master %d: livelocked at %u us%s", cpu,
		 cal_ovh_bench_name(b), m->master, per[pi],
		 o ? ", shorter periods skipped" : "");
}

/*
 * measure_group - the repetitions of (@b, @cpu, @period_us) for every
 * master configuration not yet ruined: in each repetition one C, then
 * one C' per configuration, so drift affects C and C' alike.  Appends
 * one point per configuration measured.  Returns 0 or an error code.
 */
static int measure_group(struct sweep *s, enum ovh_bench b, unsigned cpu,
			 const uint32_t *per, size_t pi, size_t n_per,
			 struct mcfg *cfg, unsigned ncfg, char *err,
			 size_t len)
{
	unsigned R = s->p->repeat, nrep[2] = { 0, 0 };
	uint32_t P = per[pi];
	double *c = calloc(R, sizeof(double));
	double *cp = calloc(2 * (size_t)R, sizeof(double));
	double *scratch = calloc(3 * (size_t)R, sizeof(double));
	bool was_ruined[2] = { cfg[0].ruined, ncfg > 1 && cfg[1].ruined };
	uint64_t ticks[2] = { 0, 0 }, over[2] = { 0, 0 };
	struct memcal_procstat before = { 0 }, after = { 0 };
	unsigned meas[3] = { cpu, (unsigned)cfg[0].master,
			     (unsigned)cfg[ncfg - 1].master };
	double foreign = 0;
	int rc = 0, have_ps;

	if (!c || !cp || !scratch) {
		rc = -ENOMEM;
		snprintf(err, len, "out of memory");
		goto out;
	}
	have_ps = cal_procstat_read(&before) == 0;
	for (unsigned rep = 0; rep < R; rep++) {
		struct ovh_sample smp;
		bool any = false;

		rc = run_c(s, b, cpu, &smp, err, len);
		if (rc)
			goto out;
		c[rep] = smp.est_ns;
		for (unsigned k = 0; k < ncfg; k++) {
			double lim = OVH_MAX_RATIO * c[rep];

			if (cfg[k].ruined)
				continue;
			if (lim < c[rep] + 4e3 * P)
				lim = c[rep] + 4e3 * P;
			rc = run_cp(s, b, cpu, P, cfg[k].master, (uint64_t)lim,
				    &smp, err, len);
			if (rc)
				goto out;
			cli_debug(s->ctx, "%s cpu %u %u us master %d rep %u: "
				  "C %.2f ms, C' %.2f ms%s, %llu ticks, %llu "
				  "overruns", cal_ovh_bench_name(b), cpu, P,
				  cfg[k].master, rep, c[rep] / 1e6,
				  smp.est_ns / 1e6,
				  smp.complete ? "" : " (bound hit)",
				  (unsigned long long)smp.ticks,
				  (unsigned long long)smp.overruns);
			cp[k * R + rep] = smp.est_ns;
			nrep[k] = rep + 1;
			ticks[k] += smp.ticks;
			over[k] += smp.overruns;
			any = true;
			if (!smp.complete) {
				cfg[k].ruined = true;
				cfg[k].ruined_at = P;
			}
		}
		if (!any)
			break;
	}
	if (have_ps && cal_procstat_read(&after) == 0)
		foreign = cal_procstat_foreign(&before, &after, meas, 3);
	for (unsigned k = 0; k < ncfg; k++) {
		struct overhead_point *pt;

		if (was_ruined[k] || !nrep[k])
			continue;
		pt = new_point(s);
		if (!pt) {
			rc = -ENOMEM;
			snprintf(err, len, "out of memory");
			goto out;
		}
		pt->db.cpu = (int)cpu;
		pt->db.period_us = (int)P;
		snprintf(pt->db.benchmark, sizeof(pt->db.benchmark), "%s",
			 cal_ovh_bench_name(b));
		snprintf(pt->db.method, sizeof(pt->db.method), "%s",
			 s->r->method);
		pt->db.master_cpu = cfg[k].master;
		pt->ruined = cfg[k].ruined;
		pt->db.lower_bound = pt->ruined;
		pt->ticks = ticks[k];
		pt->overruns = over[k];
		pt->foreign = foreign;
		summarise(pt, c, cp + k * R, nrep[k], scratch);
		if (pt->ruined)
			note_ruin(s, b, cpu, &cfg[k], per, pi, n_per);
	}
	if (foreign > MEMCAL_FOREIGN_WARN)
		cal_overhead_note(s->r, "cpu %u %s at %u us: %.0f%% of the machine "
			      "was used by others meanwhile", cpu,
			      cal_ovh_bench_name(b), P, 100 * foreign);
out:
	cal_procstat_free(&before);
	cal_procstat_free(&after);
	free(c);
	free(cp);
	free(scratch);
	return rc;
}

/* cmp_desc - qsort: periods longest first. */
static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * sweep_series - all periods of benchmark @b on @cpu, longest first,
 * with the master elsewhere and (master effect) on @cpu itself.
 */
static int sweep_series(struct sweep *s, enum ovh_bench b, unsigned cpu,
			const uint32_t *per, size_t n_per, char *err,
			size_t len)
{
	struct mcfg cfg[2];
	unsigned ncfg = 0;
	unsigned other;
	bool has_other = cal_overhead_other_core(s->t, cpu, &other);

	memset(cfg, 0, sizeof(cfg));
	if (has_other)
		cfg[ncfg++].master = (int)other;
	if (s->p->master_effect || !has_other)
		cfg[ncfg++].master = (int)cpu;
	for (size_t i = 0; i < n_per; i++) {
		char what[64];
		int rc;

		snprintf(what, sizeof(what), "%s cpu %u %u us",
			 cal_ovh_bench_name(b), cpu, per[i]);
		cli_progress_step(&s->prog, what);
		if (cfg[0].ruined && (ncfg < 2 || cfg[1].ruined))
			continue;
		rc = measure_group(s, b, cpu, per, i, n_per, cfg, ncfg, err,
				   len);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * cal_overhead_measure - measure the request @p on the machine @t into @r
 * (zeroed here): method, points and models, notes.  Nothing is stored.
 * Returns 0, MEMCAL_EINVAL (bad request; @err says why),
 * MEMCAL_ENOMEM or MEMCAL_ERROR (a failed run, load or unload).
 */
int cal_overhead_measure(struct cli_ctx *ctx, const struct memcal_topology *t,
		     const struct overhead_params *p, struct overhead_result *r,
		     char *err, size_t len)
{
	struct sweep s;
	uint32_t per[OVH_MAX_PERIODS];
	size_t nb = 0;
	uint64_t t0 = cal_ovh_now_ns();
	int rc = 0;

	memset(r, 0, sizeof(*r));
	err[0] = '\0';
	memcal_db_timestamp(r->started_at);
	if (cal_overhead_validate(p, t, err, len))
		return MEMCAL_EINVAL;
	memset(&s, 0, sizeof(s));
	s.ctx = ctx;
	s.t = t;
	s.p = p;
	s.r = r;
	s.buf_node = -2;
	r->timer_res_ns = (double)cal_overhead_timer_res_ns();
	r->bench_ms = p->bench_ms;
	r->repeat = p->repeat;
	r->params_json = cal_overhead_params_json(p);
	r->fifo = cal_ovh_fifo_allowed();
	choose_method(&s);
	cli_info(ctx, "overhead: method %s (%s)", r->method, r->method_why);
	memcpy(per, p->periods_us, p->n_periods * sizeof(per[0]));
	qsort(per, p->n_periods, sizeof(per[0]), cmp_desc);
	for (int b = 0; b < OVH_BENCH_COUNT; b++)
		nb += p->bench[b];
	for (size_t i = 0; i < p->n_periods; i++)
		if ((uint64_t)per[i] * 4 > (uint64_t)p->bench_ms * 1000)
			cal_overhead_note(r, "period %u us: fewer than 4 periods per "
				      "%u ms run, the ratio is coarse", per[i],
				      p->bench_ms);
	cli_progress_begin(&s.prog, ctx, "overhead",
			   (unsigned)(nb * p->n_cpus * p->n_periods));
	for (int b = 0; b < OVH_BENCH_COUNT && !rc; b++) {
		if (!p->bench[b])
			continue;
		s.w[b].kind = (enum ovh_bench)b;
		for (size_t i = 0; i < p->n_cpus && !rc; i++) {
			if (b == OVH_BENCH_MEMORY &&
			    prepare_memory(&s, p->cpus[i], err, len)) {
				rc = MEMCAL_ENOMEM;
				break;
			}
			if (!r->units[b]) {
				rc = cal_ovh_calibrate_units(&s.w[b], p->cpus[i],
					(uint64_t)p->bench_ms * 1000000ull,
					r->fifo, pin_hook, (void *)t);
				if (rc) {
					snprintf(err, len, "calibrating the %s "
						 "benchmark on cpu %u failed: %s",
						 cal_ovh_bench_name(b), p->cpus[i],
						 strerror(-rc));
					rc = MEMCAL_ERROR;
					break;
				}
				r->units[b] = s.w[b].units;
			}
			if (sweep_series(&s, (enum ovh_bench)b, p->cpus[i], per,
					 p->n_periods, err, len))
				rc = MEMCAL_ERROR;
		}
	}
	cli_progress_end(&s.prog);
	cal_buffer_free(&s.buf);
	free(s.reg);
	if (r->starved_retries)
		cal_overhead_note(r, "%u proxy runs were rerun: the timer on the "
			      "benchmark's core barely fired", r->starved_retries);
	if (!rc && cal_overhead_fit_models(r))
		rc = MEMCAL_ENOMEM;
	r->elapsed_s = (double)(cal_ovh_now_ns() - t0) / 1e9;
	return rc;
}
