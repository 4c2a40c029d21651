/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * overhead_bench.h - the fixed benchmarks of `memcal overhead` and the
 * machinery that times one of them on a pinned core, optionally beside a
 * user-space periodic timer (the proxy for the regulator's interrupt).
 *
 * This file and overhead_bench.c depend on libc and POSIX threads only, so
 * the QEMU guest programs (tests/overhead/guest, bench/overhead) compile
 * them unchanged into static binaries.
 *
 * Benchmarks are cut into "units" of work; a run does a fixed number of
 * units and checks the clock after each, so that a run the timer starves
 * (a livelocked core: the timer costs more than its period) stops at a
 * wall-clock bound instead of hanging, and still yields an estimate of
 * its duration (elapsed / fraction done).
 *
 *  compute: a dependent integer xorshift/multiply chain plus a
 *           floating-point accumulation; the result goes to a volatile
 *           sink, so the compiler cannot drop it.  No memory traffic.
 *  memory:  a streaming read (the caller's kernel, e.g. calibrate's
 *           best READ kernel) over a buffer several times the last-level
 *           cache, one chunk per unit, wrapping around.
 */
#ifndef MEMCAL_OVERHEAD_BENCH_H
#define MEMCAL_OVERHEAD_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which benchmark. */
enum ovh_bench {
	OVH_BENCH_COMPUTE = 0,
	OVH_BENCH_MEMORY,
	OVH_BENCH_COUNT,
};

/* Iterations of the compute chain per unit. */
#define OVH_COMPUTE_UNIT_ITERS	16384u
/* Bytes the memory benchmark reads per unit. */
#define OVH_MEMORY_CHUNK	(1u << 20)

/* Read kernel contract of calibrate/kernels.h (READ: returns the sum). */
typedef uint64_t (*ovh_read_fn)(void *dst, const void *src, size_t bytes,
				uint64_t value);

/**
 * struct ovh_workload - one benchmark, ready to run.
 * @kind:      compute or memory.
 * @units:     units per run (fixed once calibrated; C and C' do the same).
 * @buf:       memory benchmark: the buffer (64-byte aligned).
 * @buf_bytes: its size, a multiple of OVH_MEMORY_CHUNK.
 * @read:      memory benchmark: the streaming read kernel.
 */
struct ovh_workload {
	enum ovh_bench kind;
	uint64_t units;
	const void *buf;
	size_t buf_bytes;
	ovh_read_fn read;
};

/* Called by the timer thread at every expiry (proxy work), may be NULL.
 * @master is true on the master core's timer. */
typedef void (*ovh_tick_fn)(void *user, unsigned cpu, bool master,
			    uint64_t period_no);
/* Pins the calling thread to @cpu; returns 0 or -errno.  NULL: the
 * built-in sched_setaffinity() is used. */
typedef int (*ovh_pin_fn)(void *user, unsigned cpu);

/* SCHED_FIFO priorities: the timers preempt the benchmark. */
#define OVH_PRIO_BENCH	1
#define OVH_PRIO_TIMER	2

/* Most timer threads one run may have. */
#define OVH_MAX_TIMERS	4

/**
 * struct ovh_run_spec - one timed run of a workload.
 * @w:          the workload.
 * @bench_cpu:  core the benchmark thread is pinned to.
 * @period_ns:  timer period; 0 runs with no timer (the baseline C).
 * @timer_cpus: cores that get a periodic timer thread (proxy only).
 * @n_timers:   entries in @timer_cpus (0..OVH_MAX_TIMERS).
 * @master_cpu: the timer on this core also runs the master hook (-1: none).
 * @limit_ns:   wall-clock bound of the run; past it the run is stopped.
 * @fifo:       timer threads run SCHED_FIFO OVH_PRIO_TIMER (else
 *              SCHED_OTHER): they preempt the benchmark at once, as an
 *              interrupt would.
 * @bench_fifo: the benchmark runs SCHED_FIFO OVH_PRIO_BENCH, so that
 *              other processes of a shared machine cannot take its core
 *              (only the timers, at a higher priority, can).
 * @pin, @pin_user:  pinning hook (NULL: sched_setaffinity).
 * @tick, @tick_user: per-expiry work of the timer threads (NULL: none).
 */
struct ovh_run_spec {
	const struct ovh_workload *w;
	unsigned bench_cpu;
	uint64_t period_ns;
	unsigned timer_cpus[OVH_MAX_TIMERS];
	unsigned n_timers;
	int master_cpu;
	uint64_t limit_ns;
	bool fifo;
	bool bench_fifo;
	ovh_pin_fn pin;
	void *pin_user;
	ovh_tick_fn tick;
	void *tick_user;
};

/**
 * struct ovh_sample - outcome of one run.
 * @elapsed_ns: wall time the benchmark thread ran.
 * @units_done: units completed (== units when @complete).
 * @complete:   the run finished within its bound.
 * @est_ns:     estimated full duration: @elapsed_ns if complete, else
 *              elapsed * units / units_done (infinite if none was done).
 * @ticks:      timer expiries handled while the benchmark ran, all
 *              timers together.
 * @overruns:   periods the timers missed meanwhile (expiry later than
 *              one period).
 * @bench_ticks: the part of @ticks from the timer on the benchmark's
 *              core (a run where it stayed far below elapsed / period
 *              did not really run beside its timer).
 */
struct ovh_sample {
	uint64_t elapsed_ns;
	uint64_t units_done;
	bool complete;
	double est_ns;
	uint64_t ticks;
	uint64_t overruns;
	uint64_t bench_ticks;
};

/* Return codes (0 is success; negative errno-style otherwise). */
#define OVH_OK		0

const char *cal_ovh_bench_name(enum ovh_bench b);
int cal_ovh_bench_parse(const char *name, enum ovh_bench *out);
uint64_t cal_ovh_workload_do(const struct ovh_workload *w, uint64_t first,
			 uint64_t n);
int cal_ovh_run_once(const struct ovh_run_spec *s, struct ovh_sample *out);
int cal_ovh_calibrate_units(struct ovh_workload *w, unsigned cpu,
			uint64_t target_ns, bool fifo, ovh_pin_fn pin,
			void *pin_user);
bool cal_ovh_fifo_allowed(void);
uint64_t cal_ovh_now_ns(void);
int cal_ovh_pin_self(unsigned cpu);

#endif /* MEMCAL_OVERHEAD_BENCH_H */
