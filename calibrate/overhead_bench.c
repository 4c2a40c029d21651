// SPDX-License-Identifier: GPL-2.0-only
/*
 * overhead_bench.c - the compute and memory benchmarks of `memcal
 * overhead`, the user-space periodic timer threads of the proxy, and one
 * bounded, timed run of a benchmark beside them (see overhead_bench.h).
 * libc and POSIX threads only: the QEMU guest programs build this file.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity, CPU_SET: also in guest builds */
#endif
#include "overhead_bench.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

/* Results of the benchmarks end here so that no work is optimised away. */
static volatile uint64_t ovh_sink;

/* cal_ovh_now_ns - CLOCK_MONOTONIC_RAW in nanoseconds (same clock as
 * calibrate/clock.h, repeated here to keep this file libc-only). */
uint64_t cal_ovh_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* cal_ovh_bench_name - the name stored in the database for @b. */
const char *cal_ovh_bench_name(enum ovh_bench b)
{
	return b == OVH_BENCH_MEMORY ? "memory" : "compute";
}

/* cal_ovh_bench_parse - "compute" or "memory" into @out; 0 or -EINVAL. */
int cal_ovh_bench_parse(const char *name, enum ovh_bench *out)
{
	if (!strcmp(name, "compute"))
		*out = OVH_BENCH_COMPUTE;
	else if (!strcmp(name, "memory"))
		*out = OVH_BENCH_MEMORY;
	else
		return -EINVAL;
	return 0;
}

/*
 * compute_unit - OVH_COMPUTE_UNIT_ITERS steps of a dependent xorshift64*
 * chain with a floating-point accumulation of its output.  Every step
 * depends on the previous one, so the time is latency-bound and does not
 * depend on the memory system.  Returns the new state.
 */
static uint64_t compute_unit(uint64_t x, double *acc)
{
	double a = *acc;

	for (unsigned i = 0; i < OVH_COMPUTE_UNIT_ITERS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		x *= 0x2545F4914F6CDD1Dull;
		a += (double)(x >> 11) * 0x1p-53;
	}
	*acc = a;
	return x;
}

/*
 * cal_ovh_workload_do - run units @first .. @first + @n - 1 of @w without any
 * clock check (used by the guest programs and by the timed loop below one
 * unit at a time).  Returns a checksum that the caller must consume.
 */
uint64_t cal_ovh_workload_do(const struct ovh_workload *w, uint64_t first,
			 uint64_t n)
{
	uint64_t sum = 0;

	if (w->kind == OVH_BENCH_COMPUTE) {
		uint64_t x = first * 0x9E3779B97F4A7C15ull + 1;
		double acc = 0;

		for (uint64_t i = 0; i < n; i++)
			x = compute_unit(x, &acc);
		sum = x ^ (uint64_t)acc;
	} else {
		size_t chunks = w->buf_bytes / OVH_MEMORY_CHUNK;

		for (uint64_t i = 0; i < n; i++) {
			size_t c = chunks ? (size_t)((first + i) % chunks) : 0;
			const char *p = (const char *)w->buf +
					c * (size_t)OVH_MEMORY_CHUNK;

			sum += w->read(NULL, p, OVH_MEMORY_CHUNK, 0);
		}
	}
	return sum;
}

/* cal_ovh_pin_self - pin the calling thread to @cpu; 0 or -errno. */
int cal_ovh_pin_self(unsigned cpu)
{
	cpu_set_t cs;

	if (cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&cs);
	CPU_SET(cpu, &cs);
	if (sched_setaffinity(0, sizeof(cs), &cs) < 0)
		return -errno;
	return 0;
}

/* default_pin - the pinning hook when the spec has none. */
static int default_pin(void *user, unsigned cpu)
{
	(void)user;
	return cal_ovh_pin_self(cpu);
}

/**
 * struct run_state - shared between the control, benchmark and timers.
 * @s:        the spec.
 * @stop:     set by the control thread: everyone finishes now.
 * @ready:    timer threads armed (or failed) so far.
 * @done:     the benchmark thread has finished.
 * @running:  the benchmark is between its start and end time stamps
 *            (timer expiries are counted only then).
 * @err:      first pinning error (-errno) of any thread.
 * @lock, @cond: protect @ready/@done for the control thread's waits.
 * @out:      the benchmark's result.
 * @ticks, @overruns: summed over the timers.
 * @bench_ticks: expiries of the timer on the benchmark's core.
 */
struct run_state {
	const struct ovh_run_spec *s;
	atomic_int stop;
	unsigned ready;
	bool done;
	atomic_int running;
	atomic_int err;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ovh_sample out;
	atomic_ullong ticks, overruns, bench_ticks;
};

/**
 * struct timer_arg - what one timer thread needs.
 * @st:  shared state.
 * @cpu: its core.
 */
struct timer_arg {
	struct run_state *st;
	unsigned cpu;
};

/* pin - pin the calling thread with the spec's hook or the default. */
static int pin(const struct ovh_run_spec *s, unsigned cpu)
{
	return s->pin ? s->pin(s->pin_user, cpu) : default_pin(NULL, cpu);
}

/* signal_ready - under the lock, count an armed timer (or mark the
 * benchmark done) and wake the control thread. */
static void signal_ready(struct run_state *st, bool bench_done)
{
	pthread_mutex_lock(&st->lock);
	if (bench_done)
		st->done = true;
	else
		st->ready++;
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&st->lock);
}

/*
 * leave_fifo - back to SCHED_OTHER before a SCHED_FIFO thread returns.
 * Thread exit may wait on locks (allocator caches, TLS destructors; with
 * AddressSanitizer a spinning one) held by a thread of lower priority that
 * a spinning real-time thread on every CPU would never let run.
 */
static void leave_fifo(bool was_fifo)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (was_fifo)
		pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
}

/*
 * enter_thread - pin the calling thread to @cpu and, if @fifo, raise it to
 * SCHED_FIFO @prio.  A pinning error is recorded in @st and signalled as
 * this thread's ready (@bench: the benchmark's done); it is returned.
 */
static int enter_thread(struct run_state *st, unsigned cpu, bool fifo,
			int prio, bool bench)
{
	int rc = pin(st->s, cpu);

	if (rc) {
		atomic_store(&st->err, rc);
		signal_ready(st, bench);
		return rc;
	}
	if (fifo) {
		struct sched_param sp = { .sched_priority = prio };

		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
	return 0;
}

/*
 * timer_main - a periodic timer in user space: sleep to an absolute
 * deadline on CLOCK_MONOTONIC, run the tick hook, advance by one period;
 * expiries that come later than a whole period are counted as overruns
 * and skipped (as hrtimer_forward() does), so a timer that costs more
 * than its period never queues up work.  Runs until @stop.
 */
static void *timer_main(void *p)
{
	struct timer_arg *a = p;
	struct run_state *st = a->st;
	const struct ovh_run_spec *s = st->s;
	bool master = s->master_cpu >= 0 && (unsigned)s->master_cpu == a->cpu;
	uint64_t period = s->period_ns, ticks = 0, over = 0, n = 0;
	struct timespec ts;
	uint64_t next;
	int rc;

	if (enter_thread(st, a->cpu, s->fifo, OVH_PRIO_TIMER, false))
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	next = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec +
	       period;
	signal_ready(st, false);
	while (!atomic_load_explicit(&st->stop, memory_order_relaxed)) {
		uint64_t now;

		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (rc == EINTR)
			continue;
		if (rc) {
			atomic_store(&st->err, -rc);
			break;
		}
		if (atomic_load_explicit(&st->running, memory_order_relaxed))
			ticks++;
		if (s->tick)
			s->tick(s->tick_user, a->cpu, master, n);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000000000ull +
		      (uint64_t)ts.tv_nsec;
		next += period;
		n++;
		if (next <= now) {
			uint64_t miss = (now - next) / period + 1;

			if (atomic_load_explicit(&st->running,
						 memory_order_relaxed))
				over += miss;
			n += miss;
			next += miss * period;
		}
	}
	atomic_fetch_add(&st->ticks, ticks);
	if (a->cpu == s->bench_cpu)
		atomic_fetch_add(&st->bench_ticks, ticks);
	atomic_fetch_add(&st->overruns, over);
	leave_fifo(s->fifo);
	return NULL;
}

/*
 * bench_main - the benchmark thread: pin, run the units one at a time,
 * stop early when the control thread says so or the bound has passed.
 */
static void *bench_main(void *p)
{
	struct run_state *st = p;
	const struct ovh_run_spec *s = st->s;
	const struct ovh_workload *w = s->w;
	uint64_t sum = 0, i, t0, t1 = 0, deadline;

	if (enter_thread(st, s->bench_cpu, s->bench_fifo, OVH_PRIO_BENCH,
			 true))
		return NULL;
	atomic_store(&st->running, 1);
	t0 = cal_ovh_now_ns();
	deadline = t0 + s->limit_ns;
	for (i = 0; i < w->units; i++) {
		sum += cal_ovh_workload_do(w, i, 1);
		t1 = cal_ovh_now_ns();
		if (t1 > deadline ||
		    atomic_load_explicit(&st->stop, memory_order_relaxed)) {
			i++;
			break;
		}
	}
	atomic_store(&st->running, 0);
	ovh_sink += sum;
	st->out.elapsed_ns = t1 - t0;
	st->out.units_done = i;
	st->out.complete = i == w->units && t1 <= deadline;
	leave_fifo(s->bench_fifo);
	signal_ready(st, true);
	return NULL;
}

/* abs_deadline - CLOCK_MONOTONIC timespec @ns from now. */
static struct timespec abs_deadline(uint64_t ns)
{
	struct timespec ts;
	uint64_t t;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + ns;
	ts.tv_sec = (time_t)(t / 1000000000ull);
	ts.tv_nsec = (long)(t % 1000000000ull);
	return ts;
}

/*
 * cal_ovh_run_once - time one run of @s->w on @s->bench_cpu, with a periodic
 * timer thread on every core of @s->timer_cpus when @s->period_ns is
 * non-zero.  The run is bounded: the benchmark stops at @s->limit_ns and
 * the control thread (the caller, which must not be pinned to a timed
 * core) gives up waiting shortly after that and stops everyone, so a
 * livelocked core costs at most about the bound.  Returns 0 with @out
 * filled, -EINVAL for a bad spec, or the -errno of a failed pin/thread.
 */
int cal_ovh_run_once(const struct ovh_run_spec *s, struct ovh_sample *out)
{
	struct run_state st;
	struct timer_arg ta[OVH_MAX_TIMERS];
	pthread_t tt[OVH_MAX_TIMERS], bt;
	pthread_condattr_t ca;
	unsigned n_timers = s->period_ns ? s->n_timers : 0, started = 0;
	struct timespec until;
	int rc = 0;

	if (!s->w || !s->w->units || s->n_timers > OVH_MAX_TIMERS ||
	    !s->limit_ns || (s->w->kind == OVH_BENCH_MEMORY &&
			     (!s->w->read || s->w->buf_bytes < OVH_MEMORY_CHUNK)))
		return -EINVAL;
	memset(&st, 0, sizeof(st));
	st.s = s;
	pthread_mutex_init(&st.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&st.cond, &ca);
	pthread_condattr_destroy(&ca);

	for (unsigned i = 0; i < n_timers; i++) {
		ta[i].st = &st;
		ta[i].cpu = s->timer_cpus[i];
		if (pthread_create(&tt[i], NULL, timer_main, &ta[i])) {
			rc = -EAGAIN;
			break;
		}
		started++;
	}
	/* wait until every timer is armed, so C' is timed under all of them */
	until = abs_deadline(2000000000ull);
	pthread_mutex_lock(&st.lock);
	while (st.ready < started &&
	       pthread_cond_timedwait(&st.cond, &st.lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&st.lock);
	if (!rc && !atomic_load(&st.err)) {
		if (pthread_create(&bt, NULL, bench_main, &st)) {
			rc = -EAGAIN;
		} else {
			until = abs_deadline(s->limit_ns + 100000000ull);
			pthread_mutex_lock(&st.lock);
			while (!st.done &&
			       pthread_cond_timedwait(&st.cond, &st.lock,
						      &until) != ETIMEDOUT)
				;
			pthread_mutex_unlock(&st.lock);
			atomic_store(&st.stop, 1);
			pthread_join(bt, NULL);
		}
	}
	atomic_store(&st.stop, 1);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tt[i], NULL);
	pthread_cond_destroy(&st.cond);
	pthread_mutex_destroy(&st.lock);
	if (!rc)
		rc = atomic_load(&st.err);
	if (rc)
		return rc;
	*out = st.out;
	out->ticks = atomic_load(&st.ticks);
	out->overruns = atomic_load(&st.overruns);
	out->bench_ticks = atomic_load(&st.bench_ticks);
	if (out->complete)
		out->est_ns = (double)out->elapsed_ns;
	else if (out->units_done)
		out->est_ns = (double)out->elapsed_ns * (double)s->w->units /
			      (double)out->units_done;
	else
		out->est_ns = INFINITY;
	return 0;
}

/* median3 - the median of three values. */
static uint64_t median3(uint64_t a, uint64_t b, uint64_t c)
{
	if (a > b) {
		uint64_t t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

/*
 * cal_ovh_calibrate_units - choose @w->units so that one run without a timer
 * on @cpu takes about @target_ns: double from a few units until a run
 * takes a quarter of the target, scale, then check with the median of
 * three runs and rescale once (one run disturbed by the host must not
 * set the length).  @fifo: run as the measurement will (SCHED_FIFO).
 * Returns 0 or -errno.
 */
int cal_ovh_calibrate_units(struct ovh_workload *w, unsigned cpu,
			uint64_t target_ns, bool fifo, ovh_pin_fn pinfn,
			void *pin_user)
{
	struct ovh_run_spec s = {
		.w = w, .bench_cpu = cpu, .master_cpu = -1,
		.limit_ns = 60ull * 1000000000ull, .bench_fifo = fifo,
		.pin = pinfn, .pin_user = pin_user,
	};
	struct ovh_sample smp[3];
	int rc;

	if (!target_ns)
		return -EINVAL;
	w->units = 2;
	for (;;) {
		rc = cal_ovh_run_once(&s, &smp[0]);
		if (rc)
			return rc;
		if (smp[0].elapsed_ns >= target_ns / 4 ||
		    w->units >= (1ull << 40))
			break;
		w->units *= 2;
	}
	for (int pass = 0; pass < 2; pass++) {
		uint64_t el = pass ? median3(smp[0].elapsed_ns,
					     smp[1].elapsed_ns,
					     smp[2].elapsed_ns) :
				     smp[0].elapsed_ns;
		double u;

		if (!el)
			break;
		u = (double)w->units * (double)target_ns / (double)el;
		w->units = u < 1 ? 1 : (uint64_t)u;
		for (int i = 0; i < 3 && !pass; i++) {
			rc = cal_ovh_run_once(&s, &smp[i]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* try_fifo - thread body: can this process make a thread SCHED_FIFO? */
static void *try_fifo(void *p)
{
	struct sched_param sp = { .sched_priority = 1 };

	*(int *)p = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	return NULL;
}

/*
 * cal_ovh_fifo_allowed - true when timer threads may run SCHED_FIFO (root or
 * an RLIMIT_RTPRIO); tried on a throw-away thread.
 */
bool cal_ovh_fifo_allowed(void)
{
	pthread_t t;
	int res = -1;

	if (pthread_create(&t, NULL, try_fifo, &res))
		return false;
	pthread_join(t, NULL);
	return res == 0;
}
