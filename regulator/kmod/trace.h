/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of memreg: memreg:period (one per CPU per period, from the
 * period timer, describing the period that just ended: events used, its
 * final budget, whether it ended throttled, whether its budget was the
 * guarantee because the master had published none for it) and
 * memreg:throttle (when a CPU exhausts its budget).
 * Record them with `perf record -e 'memreg:*'` or trace-cmd.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM memreg

#if !defined(MEMREG_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define MEMREG_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(period,
	TP_PROTO(int cpu, u64 idx, u64 used_r, u64 used_w, u64 budget_r,
		 u64 budget_w, int throttled, int stale),
	TP_ARGS(cpu, idx, used_r, used_w, budget_r, budget_w, throttled, stale),
	TP_STRUCT__entry(
		__field(int, cpu)
		__field(u64, idx)
		__field(u64, used_r)
		__field(u64, used_w)
		__field(u64, budget_r)
		__field(u64, budget_w)
		__field(int, throttled)
		__field(int, stale)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->idx = idx;
		__entry->used_r = used_r;
		__entry->used_w = used_w;
		__entry->budget_r = budget_r;
		__entry->budget_w = budget_w;
		__entry->throttled = throttled;
		__entry->stale = stale;
	),
	TP_printk("cpu=%d period=%llu read=%llu/%llu write=%llu/%llu throttled=%d stale=%d",
		  __entry->cpu, __entry->idx, __entry->used_r, __entry->budget_r,
		  __entry->used_w, __entry->budget_w, __entry->throttled,
		  __entry->stale)
);

TRACE_EVENT(throttle,
	TP_PROTO(int cpu, u64 idx, int cls, u64 used, u64 budget),
	TP_ARGS(cpu, idx, cls, used, budget),
	TP_STRUCT__entry(
		__field(int, cpu)
		__field(u64, idx)
		__field(int, cls)
		__field(u64, used)
		__field(u64, budget)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->idx = idx;
		__entry->cls = cls;
		__entry->used = used;
		__entry->budget = budget;
	),
	TP_printk("cpu=%d period=%llu class=%s used=%llu budget=%llu",
		  __entry->cpu, __entry->idx, __entry->cls ? "write" : "read",
		  __entry->used, __entry->budget)
);

#endif /* MEMREG_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
