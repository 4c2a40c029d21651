/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan.h - the planner: from a platform profile, a mix and its workload
 * profiles to a tuned configuration.  The inputs are plain data (the
 * command layer loads them from the database; tests build them by hand),
 * so every choice can be tested against synthetic boards and traces.
 *
 * Steps, each in its own file:
 *   plan_assign.c  cores for workloads the mix leaves unpinned
 *   plan_master.c  the master core: never a real-time core; cheapest by
 *                  measured overhead and load
 *   plan_budget.c  per-core read/write budgets from the traces
 *   plan_mix.c     the platform ceiling per class at the traces' read/write
 *                  mix, from the calibration's bandwidth-latency family
 *   plan_pool.c    the guaranteed pool per class at that mix, from the
 *                  calibration's guaranteed (all-miss) bandwidth
 *   plan_replay.c  core traces and replay through regulator/sim, with
 *                  the regulation-error measure
 *   plan_period.c  the period: overhead against regulation error
 *   plan_lms.c     NLMS taps/step/headroom and reclaim/share modes
 *   plan_exempt.c  the real-time exemption: marking, reasons, replay check
 *   plan_events.c  each CPU's kind and counter events (big.LITTLE, hybrid)
 *   plan.c         the whole sequence
 */
#ifndef MEMTUNE_PLAN_H
#define MEMTUNE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcal_db_cpu_kind.h"
#include "memreg.h"
#include "tuned_config.h"
#include "mix.h"

#define PLAN_MAX_PERIODS 16
#define PLAN_MAX_MIXES 8
#define PLAN_MAX_KINDS 8

/**
 * struct plan_profile - one workload's solo profile.
 * @id:        database id (0 in tests).
 * @source:    "pmu", "declared" or "calibrated".
 * @exec_ns:   median solo execution time.
 * @tick_us:   trace granularity.
 * @len:       samples.
 * @read, @write: bytes per sample (not owned).
 */
struct plan_profile {
	int64_t id;
	char source[16];
	double exec_ns;
	uint32_t tick_us;
	size_t len;
	const uint64_t *read, *write;
};

/**
 * struct plan_family - the calibration's bandwidth-latency family: the
 * sustainable figure per read share of the traffic.
 * @n:           curves (0: none; the per-class figures stand alone).
 * @read_pct:    per curve, its read share in per cent.
 * @sustain_bps: per curve, its sustainable bandwidth (reads + writes).
 * @lower_bound: per curve, the figure is only a lower bound.
 */
struct plan_family {
	int n;
	int read_pct[PLAN_MAX_MIXES];
	double sustain_bps[PLAN_MAX_MIXES];
	bool lower_bound[PLAN_MAX_MIXES];
};

/**
 * struct plan_input - everything the planner reads.
 * @mix:            the mix (checked against the board already).
 * @prof:           per workload of @mix, its profile (same index).
 * @nr_cpus:        CPU numbers 0..nr_cpus-1 exist on the board.
 * @sustain_bps:    sustainable bandwidth per class.
 * @family:         the bandwidth-latency family across read/write mixes.
 * @overhead_ns:    per CPU, measured regulation cost per period (ns).
 * @overhead_method: "memreg", "proxy" or "assumed".
 * @counter:        counter event per class (bytes per event > 0).
 * @periods_us:     candidate periods (0-terminated; empty: defaults).
 * @platform_id, @calibration_run_id, @overhead_run_id: provenance.
 * @fingerprint, @arch, @cpu_model: the board.
 * @cache_bytes:    per CPU, its private data caches in bytes (0: unknown,
 *                  the floors assume PLAN_FLOOR_DEFAULT_CACHE).
 * @kinds:          the kinds of CPU the calibration found, with each
 *                  kind's events (plan_events.c); @n_kinds of them.
 * @guaranteed_bps: per class, the calibration's guaranteed bandwidth
 *                  (every access a DRAM row miss; 0: none), the pool
 *                  real-time and best-effort guarantees must fit in.
 * @guaranteed_method: per class, "random-line", "single-bank" or
 *                  "declared".
 * @guaranteed_source: per class, the figure's criterion or source.
 * @guarantees_from_streaming: plan the guarantees from the streaming
 *                  sustainable figure instead (no guarantee under load).
 * @machine:        provenance for 'memtune check' (the calibrating
 *                  machine's items, the calibration's read figure), or
 *                  NULL; copied into the configuration.
 */
struct plan_input {
	const struct mix *mix;
	struct plan_profile prof[MIX_MAX_WORKLOADS];
	int nr_cpus;
	double sustain_bps[TUNE_NR_CLASSES];
	struct plan_family family;
	double overhead_ns[TUNE_MAX_CPUS];
	char overhead_method[16];
	struct tune_counter counter[TUNE_NR_CLASSES];
	uint32_t periods_us[PLAN_MAX_PERIODS];
	int64_t platform_id, calibration_run_id, overhead_run_id;
	char fingerprint[65];
	char arch[32];
	char cpu_model[128];
	uint64_t cache_bytes[TUNE_MAX_CPUS];
	struct memcal_cpu_kind kinds[PLAN_MAX_KINDS];
	int n_kinds;
	double guaranteed_bps[TUNE_NR_CLASSES];
	char guaranteed_method[TUNE_NR_CLASSES][16];
	char guaranteed_source[TUNE_NR_CLASSES][256];
	bool guarantees_from_streaming;
	const struct tune_machine *machine;
};

/**
 * struct plan_traces - per-core demand at the common tick, in bytes.
 * @tick_us: common granularity.
 * @len:     samples per core.
 * @bytes:   [(tick * nr_cpus + cpu) * 2 + class].
 * @nr_cpus: cores.
 * @has_work: per CPU, some workload is placed there.
 * @rt:      per CPU, a real-time workload is placed there.
 */
struct plan_traces {
	uint32_t tick_us;
	size_t len;
	uint64_t *bytes;
	int nr_cpus;
	bool has_work[TUNE_MAX_CPUS];
	bool rt[TUNE_MAX_CPUS];
};

/**
 * struct plan_exempt_figures - one class's traffic of the real-time-exempt
 * cores in a replay (plan_exempt.c).
 * @any:            some core is exempt.
 * @pct_bps:        their summed traffic per period at the mix percentile.
 * @peak_bps:       ... at its peak.
 * @total_peak_bps: all cores' traffic in the busiest period.
 * @over_periods:   periods where the exempt cores alone exceeded the
 *                  sustainable bandwidth.
 */
struct plan_exempt_figures {
	bool any;
	double pct_bps, peak_bps, total_peak_bps;
	size_t over_periods;
};

/**
 * struct plan_score - what one replay says about one configuration.
 * @overhead:   mean fraction of a regulated core lost to the period timer.
 * @overuse:    fraction of served traffic that ran above the core's
 *              budget rate inside a period (bursts a long period lets
 *              through).
 * @rt_throttle: mean fraction of time real-time cores were throttled.
 * @be_unserved: fraction of best-effort demand not served.
 * @pred_err:   mean relative LMS prediction error.
 * @platform_excess: fraction of served traffic that ran above the
 *              platform ceiling (all cores of a period together): what
 *              spare and proportional sharing hand out beyond it.  Not in
 *              @cost; the choice of the sharing mode adds it.
 * @cost:       the weighted sum the planner minimises.
 * @exempt:     per class, the real-time-exempt cores' traffic.
 * @exempt_periods: periods replayed.
 * @digest:     a hash of every core's per-period budgets and served
 *              traffic: two replays with the same @digest did the same.
 */
struct plan_score {
	double overhead;
	double overuse;
	double rt_throttle;
	double be_unserved;
	double pred_err;
	double platform_excess;
	double cost;
	struct plan_exempt_figures exempt[TUNE_NR_CLASSES];
	size_t exempt_periods;
	uint64_t digest;
};

int tune_plan_run(const struct plan_input *in, struct tune_config *out,
	     char *err, size_t errlen);

/* plan_assign.c */
int tune_plan_assign(const struct plan_input *in, int *cpu_of,
		struct tune_config *out, char *err, size_t errlen);
/* plan_master.c */
int tune_plan_master(const struct plan_input *in, const int *cpu_of,
		struct tune_config *out, char *err, size_t errlen);
/* plan_budget.c */
int tune_plan_budgets(const struct plan_input *in, const struct plan_traces *t,
		 uint32_t period_us, struct tune_config *out, bool explain,
		 bool settled, char *err, size_t errlen);
double tune_plan_percentile(uint64_t *v, size_t n, double pct);
/* plan_mix.c */
/**
 * struct plan_mix - the platform ceilings at the traces' read/write mix.
 * @share:       read bytes over all bytes of the traces (NAN: no traffic).
 * @from_family: the family gave the ceilings (else the per-class figures).
 * @total_bps:   the family's sustainable figure interpolated at @share.
 * @lo_pct, @hi_pct, @lo_bps, @hi_bps: the measured curves around it.
 * @lower_bound: either of them is only a lower bound.
 * @reserve_bps: per class, the least it cannot do without.
 * @ceiling_bps: per class, the ceiling the budgets are fitted under.
 */
struct plan_mix {
	double share;
	bool from_family;
	double total_bps;
	int lo_pct, hi_pct;
	double lo_bps, hi_bps;
	bool lower_bound;
	double reserve_bps[TUNE_NR_CLASSES];
	double ceiling_bps[TUNE_NR_CLASSES];
};
double tune_plan_mix_share(const struct plan_traces *t);
int tune_plan_mix_interpolate(const struct plan_family *f, double share,
			 struct plan_mix *m);
int tune_plan_mix_ceilings(const struct plan_input *in, const struct plan_traces *t,
		      const double *reserve, double sec, struct plan_mix *m,
		      char *err, size_t errlen);
void tune_plan_mix_explain(const struct plan_input *in, const struct plan_mix *m,
		      struct tune_config *out);
/* plan_pool.c */
#define PLAN_BE_POOL_SHARE 0.05
/*
 * The fewest events any guarantee or ceiling is given: memreg's default
 * slack_div, below which it refuses a guarantee on an event it cannot
 * re-arm (a software event, regulator/kmod/config.c).
 */
#define PLAN_MIN_EVENTS MEMREG_SLACK_DIV_DEFAULT
/* PLAN_STR - a numeric macro as a string literal, for messages. */
#define PLAN_STR_(x) #x
#define PLAN_STR(x) PLAN_STR_(x)
#define PLAN_BE_PERCENTILE 10
/**
 * struct plan_pool - the guaranteed pool per class, what every guarantee
 * is reserved from.
 * @streaming:   --guarantees-from-streaming: the pool is the platform
 *               ceiling (the streaming figure), no all-miss guarantee.
 * @share:       the read share the pool is taken at (NAN: none, the
 *               classes stand alone).
 * @mix_bps:     the guaranteed figure at @share (harmonic, plan_pool.c).
 * @reserve_bps: per class, the real-time needs and one event per
 *               best-effort core, reserved before the split.
 * @pool_bps:    per class, the guaranteed pool.
 */
struct plan_pool {
	bool streaming;
	double share;
	double mix_bps;
	double reserve_bps[TUNE_NR_CLASSES];
	double pool_bps[TUNE_NR_CLASSES];
};
int tune_plan_pool(const struct plan_input *in, const struct plan_mix *mix,
		   const double *reserve, double sec, struct plan_pool *p,
		   char *err, size_t errlen);
void tune_plan_pool_explain(const struct plan_input *in,
			    const struct plan_pool *p, struct tune_config *out);
/* plan_floor.c */
#define PLAN_FLOOR_NOISE_SHARE 0.01
#define PLAN_FLOOR_DEFAULT_CACHE (1u << 20)
/**
 * struct tune_plan_floor - the floor of one real-time core and one class.
 * @refill: bytes per period to refill its private caches.
 * @noise:  bytes per period for what the trace cannot see.
 * @bytes:  @refill + @noise.
 * @cache:  the private cache size used.
 * @cache_known: @cache came from the platform profile.
 */
struct tune_plan_floor {
	double refill, noise, bytes;
	uint64_t cache;
	bool cache_known;
};
void tune_plan_floor(const struct plan_input *in, int cpu, int k, double sec,
		struct tune_plan_floor *f);
int tune_plan_floor_caches(const char *topology_json, int nr_cpus,
		      uint64_t *cache_bytes);
/* plan_replay.c */
struct memreg_sim_result;
int tune_plan_traces_build(const struct plan_input *in, const int *cpu_of,
		      struct plan_traces *t, char *err, size_t errlen);
void tune_plan_traces_free(struct plan_traces *t);
int tune_plan_replay(const struct plan_input *in, const struct plan_traces *t,
		const struct tune_config *c, struct plan_score *s,
		char *err, size_t errlen);
int tune_plan_simulate(const struct tune_config *c, const struct plan_traces *t,
		       uint64_t *ev, struct memreg_sim_result *res, char *err,
		       size_t errlen);
/* plan_period.c */
int tune_plan_period(const struct plan_input *in, const struct plan_traces *t,
		struct tune_config *out, char *err, size_t errlen);
/* plan_exempt.c */
void tune_plan_exempt_mark(const struct plan_input *in, const struct plan_traces *t,
		      struct tune_config *out);
void tune_plan_exempt_explain_budgets(const struct plan_input *in,
				 struct tune_config *out);
void tune_plan_exempt_score(const struct tune_config *c,
		       const struct memreg_sim_result *res, double percentile,
		       struct plan_score *s);
void tune_plan_exempt_explain_replay(const struct plan_input *in,
				const struct plan_score *s,
				struct tune_config *out);
/* plan_lms.c */
int tune_plan_lms(const struct plan_input *in, const struct plan_traces *t,
	     struct tune_config *out, char *err, size_t errlen);

/* plan_events.c */
int tune_plan_events(const struct plan_input *in, struct tune_config *out,
		char *err, size_t errlen);

/*
 * tune_event_named() - write "PMU:0xCONFIG" to @buf if it fits and memreg
 * takes it as a spec that names its PMU; returns whether it did.
 */
bool tune_event_named(const char *pmu, uint64_t config, char *buf,
		      size_t len);

/*
 * tune_config_numeric_events() - if @c still gives a counter event by a
 * dynamic PMU type number ("8:0x2a": a database from before memcal stored
 * PMU names), write the warning every export prints to @buf and return
 * how many events do; else 0.
 */
int tune_config_numeric_events(const struct tune_config *c, char *buf,
			       size_t len);

#endif /* MEMTUNE_PLAN_H */
