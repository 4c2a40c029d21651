/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * memreg_sim.h - trace-driven simulator of the memory-bandwidth regulator.
 *
 * The simulator drives the very regulator core the kernel module runs
 * (regulator/core/) with recorded per-core demand, period by period, the
 * way the kernel glue would: every CPU replenishes at each period start,
 * the master ticks after them, counters "overflow" exactly when a class
 * exhausts its remaining budget (plus an optional slack), reclaim and
 * spare sharing go through the same entry points.  It does no printing
 * and no I/O (trace files are parsed by memreg_sim_trace_parse(), a
 * separate, optional input source); the tuner calls it with traces it
 * read from the database.
 *
 * Time model.  The trace gives, for each core, the events each class
 * wants in every tick of tick_ns.  The regulation period need not be a
 * multiple of the tick: both are cut into sub-ticks of
 * g = gcd(period_ns, tick_ns), a tick's demand being spread evenly over
 * its sub-ticks (integer shares that sum exactly to the tick's demand).
 * Within a sub-tick a core's demand arrives uniformly in time; when class
 * k exhausts its remaining budget r_k at fraction r_k / w_k of the
 * sub-tick (delayed by slack_events), the core's overflow handler runs
 * with the exact count; if it throttles, the rest of the period is
 * throttled time.  A partial last period is dropped.  Cores are stepped
 * in CPU order within a sub-tick; a core released by a spare grant
 * resumes the part of the sub-tick it had left unserved.
 *
 * Demand a throttled core could not serve is dropped, or, with
 * carry_backlog, carried into the next sub-tick (the task falls behind).
 *
 * Thread safety: memreg_sim_run() keeps all state on the heap of the call;
 * several threads may run simulations at once.
 */
#ifndef MEMREG_SIM_H
#define MEMREG_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "memreg.h"
#include "memcal_status.h"

/**
 * struct memreg_sim_trace - per-core demand trace, in memory
 * @tick_ns: duration of one sample (trace granularity), > 0
 * @nr_cores: cores in the trace, 1..MEMREG_MAX_CPUS; core i is CPU slot i
 * @nr_ticks: samples per core
 * @events: events wanted, indexed [(tick * nr_cores + core) * 2 + class]
 *	(class MEMREG_READ or MEMREG_WRITE); values above MEMREG_EVENTS_MAX
 *	are saturated
 */
struct memreg_sim_trace {
	uint64_t tick_ns;
	uint32_t nr_cores;
	size_t nr_ticks;
	const uint64_t *events;
};

/**
 * struct memreg_sim_config - one simulation
 * @reg: the regulator configuration exactly as the module would get it;
 *	@reg.nr_cpus must equal the trace's @nr_cores
 * @slack_events: events a core still causes after exhausting a class
 *	before its overflow handler runs (PMU skid, interrupt latency)
 * @carry_backlog: non-zero: unserved demand is carried forward
 * @bytes_per_event: bytes per event for the achieved bandwidth; 0 reports
 *	events per second
 * @max_subticks: most sub-ticks per tick resampling may create (0: 1000)
 */
struct memreg_sim_config {
	struct memreg_cfg reg;
	uint64_t slack_events;
	int carry_backlog;
	uint32_t bytes_per_event;
	uint32_t max_subticks;
};

/**
 * struct memreg_sim_period - one core in one period
 * @period: period index, from 0
 * @cpu: CPU slot
 * @demand: per class, events the trace asked for in this period
 * @budget_start: per class, budget at the period start (after donation);
 *	MEMREG_BUDGET_INF in monitor-only mode
 * @budget_end: per class, budget at the period end (reclaim and spare
 *	grants added)
 * @consumed: per class, events served
 * @overuse: per class, events served beyond @budget_end (slack)
 * @backlog: per class, unserved events carried out of the period
 * @predicted: per class, the LMS prediction made for this period
 * @throttled_ns: time the core was throttled in the period
 * @throttled_frac: @throttled_ns / period_ns
 * @achieved: per class, served rate: bytes/s (or events/s, see
 *	@bytes_per_event)
 * @released: 1 if spare sharing released the core in this period
 * @restarts: new periods proportional sharing started in this period
 */
struct memreg_sim_period {
	uint64_t period;
	uint32_t cpu;
	uint64_t demand[MEMREG_NR_CLASSES];
	uint64_t budget_start[MEMREG_NR_CLASSES];
	uint64_t budget_end[MEMREG_NR_CLASSES];
	uint64_t consumed[MEMREG_NR_CLASSES];
	uint64_t overuse[MEMREG_NR_CLASSES];
	uint64_t backlog[MEMREG_NR_CLASSES];
	uint64_t predicted[MEMREG_NR_CLASSES];
	uint64_t throttled_ns;
	double throttled_frac;
	double achieved[MEMREG_NR_CLASSES];
	uint64_t released;
	uint64_t restarts;
};

/**
 * struct memreg_sim_summary - totals over the run, for one core or all
 * @demanded: per class, events the trace asked for
 * @served: per class, events served
 * @overuse: per class, events served beyond the budget, summed
 * @max_overuse: per class, the largest over-use in one period
 * @reclaimed: per class, events taken from the reclaim pool
 * @donated: per class, events donated to the pool
 * @shared: per class, events received as spare grants
 * @released: periods spare sharing released the core until their end
 * @restarts: new periods proportional sharing started early
 * @throttled_ns: total throttled time
 * @throttles: running -> throttled transitions
 * @periods_throttled: core-periods with any throttled time
 * @pred_abs_err: per class, mean |demand - prediction| over scored
 *	predictions (events; demand as counted, i.e. served)
 * @pred_rel_err: per class, @pred_abs_err / mean served per period
 *	(0 when nothing was served)
 * @achieved_ratio: served / demanded over both classes (1 if nothing
 *	was demanded)
 */
struct memreg_sim_summary {
	uint64_t demanded[MEMREG_NR_CLASSES];
	uint64_t served[MEMREG_NR_CLASSES];
	uint64_t overuse[MEMREG_NR_CLASSES];
	uint64_t max_overuse[MEMREG_NR_CLASSES];
	uint64_t reclaimed[MEMREG_NR_CLASSES];
	uint64_t donated[MEMREG_NR_CLASSES];
	uint64_t shared[MEMREG_NR_CLASSES];
	uint64_t released;
	uint64_t restarts;
	uint64_t throttled_ns;
	uint64_t throttles;
	uint64_t periods_throttled;
	double pred_abs_err[MEMREG_NR_CLASSES];
	double pred_rel_err[MEMREG_NR_CLASSES];
	double achieved_ratio;
};

/**
 * struct memreg_sim_result - what a run produces (caller-provided)
 * @periods: caller-provided array for per-period rows, period-major
 *	(row = period * nr_cores + cpu), or NULL for the summary only
 * @periods_cap: rows @periods can hold; rows beyond it are not written
 * @nr_periods: (out) periods simulated
 * @nr_rows: (out) rows written to @periods
 * @nr_cores: (out) cores simulated
 * @period_ns: (out) the regulation period
 * @subtick_ns: (out) the simulation step g
 * @core: (out) per-core summaries
 * @total: (out) the summary over all cores (errors averaged over cores)
 */
struct memreg_sim_result {
	struct memreg_sim_period *periods;
	size_t periods_cap;
	size_t nr_periods;
	size_t nr_rows;
	uint32_t nr_cores;
	uint64_t period_ns;
	uint64_t subtick_ns;
	struct memreg_sim_summary core[MEMREG_MAX_CPUS];
	struct memreg_sim_summary total;
};

/*
 * Number of whole periods of @period_ns that @trace covers (0 if the
 * period and tick have no usable common step, see @max_subticks), so a
 * caller can size memreg_sim_result.periods: rows = periods * nr_cores.
 */
size_t memreg_sim_nr_periods(const struct memreg_sim_trace *trace,
			     uint64_t period_ns, uint32_t max_subticks);

/*
 * Run @cfg over @trace, filling @res (its @periods/@periods_cap set by
 * the caller, everything else is overwritten).  Returns MEMCAL_OK, or
 * with the reason in @err: MEMCAL_EINVAL (a value out of its range) or
 * MEMCAL_ERANGE (values inconsistent with each other) for a bad
 * configuration or trace, MEMCAL_ENOMEM, or MEMCAL_ERROR when the
 * regulator refused a period.
 */
int memreg_sim_run(const struct memreg_sim_config *cfg,
		   const struct memreg_sim_trace *trace,
		   struct memreg_sim_result *res, char *err, size_t errlen);

/**
 * struct memreg_sim_trace_buf - a trace parsed from a file, owning its data
 * @trace: the trace; @trace.events points into @data
 * @data: heap storage (free with memreg_sim_trace_free())
 * @bytes_per_event: from the file's header (0 if absent)
 */
struct memreg_sim_trace_buf {
	struct memreg_sim_trace trace;
	uint64_t *data;
	uint32_t bytes_per_event;
};

/*
 * Parse a trace file (format in regulator/sim/README.md):
 *
 *   memreg-trace 1
 *   tick_ns 100000
 *   cores 2
 *   unit events            (or: unit bytes, with bytes_per_event N)
 *   data
 *   120 30 4000 100        one line per tick: read0 write0 read1 write1 ...
 *
 * '#' starts a comment; numbers are separated by blanks or commas.
 * Returns MEMCAL_OK, or MEMCAL_ESYNTAX (MEMCAL_EIO, MEMCAL_ENOMEM) with a
 * message "NAME:LINE: what is wrong" in @err.
 */
int memreg_sim_trace_parse(FILE *f, const char *name,
			   struct memreg_sim_trace_buf *out,
			   char *err, size_t errlen);

/* Free what memreg_sim_trace_parse() allocated. */
void memreg_sim_trace_free(struct memreg_sim_trace_buf *buf);

#endif /* MEMREG_SIM_H */
