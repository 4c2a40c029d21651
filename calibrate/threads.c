// SPDX-License-Identifier: GPL-2.0-only
/*
 * threads.c - pinned worker team with a barrier start (see threads.h).
 */
#include "threads.h"
#include "overhead_bench.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/**
 * struct memcal_worker - one pinned thread.
 * @team:  owning team.
 * @index: position in the team.
 * @cpu:   OS CPU it is pinned to.
 * @tid:   pthread handle.
 * @pin_rc: result of pinning (0 or -errno), reported by create.
 */
struct memcal_worker {
	struct memcal_team *team;
	unsigned index;
	unsigned cpu;
	pthread_t tid;
	int pin_rc;
};

/**
 * struct memcal_team - shared state of the team.
 * @hw:       topology used for binding.
 * @n:        number of workers.
 * @workers:  the workers.
 * @lock, @wake, @done_cv: protect and signal the fields below.
 * @generation: bumped for every job; workers wait for a new value.
 * @active:   workers taking part in the current job (first @active).
 * @fn, @arg: the current job.
 * @running:  workers that have not finished the current job.
 * @ready:    workers that finished start-up (pinning).
 * @quit:     set by destroy.
 * @arrived:  active workers at the start barrier of the current job.
 * @started:  the job number whose start barrier is open.
 */
struct memcal_team {
	hwloc_topology_t hw;
	unsigned n;
	struct memcal_worker *workers;
	pthread_mutex_t lock;
	pthread_cond_t wake, done_cv;
	unsigned long generation;
	unsigned active;
	memcal_team_fn fn;
	void *arg;
	unsigned running;
	unsigned ready;
	bool quit;
	atomic_uint arrived;
	atomic_ulong started;
};

/* Spins at the start barrier before a waiting worker yields its CPU. */
#define START_SPINS	(1u << 16)

/*
 * start_barrier - wait until all @n active workers of job @gen are here.
 * A spinning barrier: a futex-based one wakes the workers one by one,
 * and on a small machine the last can start milliseconds after the
 * first, which a repetition then counts as time.  A worker that has spun
 * for long yields, so a host that took a CPU away is not made worse.
 */
static void start_barrier(struct memcal_team *t, unsigned n, unsigned long gen)
{
	unsigned spins = 0;

	if (atomic_fetch_add(&t->arrived, 1) + 1 == n) {
		atomic_store(&t->arrived, 0);
		atomic_store(&t->started, gen);
		return;
	}
	while (atomic_load(&t->started) != gen)
		if (++spins > START_SPINS)
			sched_yield();
}

/*
 * cal_pin_self - pin the calling thread to OS CPU @cpu.  With a
 * topology of this machine hwloc binds it; with a recorded or synthetic
 * topology (or @hw NULL) the kernel is asked directly (cal_ovh_pin_self(),
 * which the libc-only guest builds use too), so a CPU that does not exist
 * here fails.  Returns 0 or -errno.
 */
int cal_pin_self(hwloc_topology_t hw, unsigned cpu)
{
	if (hw && hwloc_topology_is_thissystem(hw)) {
		hwloc_bitmap_t set = hwloc_bitmap_alloc();
		int rc;

		if (!set)
			return -ENOMEM;
		hwloc_bitmap_only(set, cpu);
		rc = hwloc_set_cpubind(hw, set,
				       HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
		hwloc_bitmap_free(set);
		if (rc == 0)
			return 0;
		/* fall through to the plain system call */
	}
	return cal_ovh_pin_self(cpu);
}

/* worker_main - pin, report ready, then run jobs until told to quit. */
static void *worker_main(void *p)
{
	struct memcal_worker *w = p;
	struct memcal_team *t = w->team;
	unsigned long seen = 0;
	unsigned n;

	w->pin_rc = cal_pin_self(t->hw, w->cpu);
	pthread_mutex_lock(&t->lock);
	t->ready++;
	pthread_cond_broadcast(&t->done_cv);
	for (;;) {
		while (!t->quit && t->generation == seen)
			pthread_cond_wait(&t->wake, &t->lock);
		if (t->quit)
			break;
		seen = t->generation;
		if (w->index >= t->active)
			continue;
		n = t->active;
		pthread_mutex_unlock(&t->lock);
		start_barrier(t, n, seen);
		t->fn(w->index, t->arg);
		pthread_mutex_lock(&t->lock);
		if (--t->running == 0)
			pthread_cond_broadcast(&t->done_cv);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/*
 * cal_team_create - start @n workers, worker i pinned to @cpus[i].
 * Fails (and starts nothing) when a thread cannot be created or pinned.
 * Returns 0 or -errno.
 */
int cal_team_create(struct memcal_team **out, hwloc_topology_t hw,
		       const unsigned *cpus, unsigned n)
{
	struct memcal_team *t;
	unsigned i, started = 0;
	int rc = 0;

	*out = NULL;
	if (n == 0)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->workers = calloc(n, sizeof(*t->workers));
	if (!t->workers) {
		free(t);
		return -ENOMEM;
	}
	t->hw = hw;
	t->n = n;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	pthread_cond_init(&t->done_cv, NULL);
	for (i = 0; i < n; i++) {
		struct memcal_worker *w = &t->workers[i];

		w->team = t;
		w->index = i;
		w->cpu = cpus[i];
		rc = pthread_create(&w->tid, NULL, worker_main, w);
		if (rc) {
			rc = -rc;
			break;
		}
		started++;
	}
	pthread_mutex_lock(&t->lock);
	while (t->ready < started)
		pthread_cond_wait(&t->done_cv, &t->lock);
	pthread_mutex_unlock(&t->lock);
	for (i = 0; !rc && i < started; i++)
		if (t->workers[i].pin_rc)
			rc = t->workers[i].pin_rc;
	t->n = started;
	if (rc) {
		cal_team_destroy(t);
		return rc;
	}
	*out = t;
	return 0;
}

/*
 * cal_team_run_subset - run @fn on the first @n workers together
 * (barrier start) and wait until all of them return.  Returns 0 or -errno.
 */
int cal_team_run_subset(struct memcal_team *t, unsigned n,
			   memcal_team_fn fn, void *arg)
{
	if (n == 0 || n > t->n)
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	t->fn = fn;
	t->arg = arg;
	t->active = n;
	t->running = n;
	t->generation++;
	pthread_cond_broadcast(&t->wake);
	while (t->running)
		pthread_cond_wait(&t->done_cv, &t->lock);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

/* cal_team_run - run @fn on every worker of the team. */
int cal_team_run(struct memcal_team *t, memcal_team_fn fn, void *arg)
{
	return cal_team_run_subset(t, t->n, fn, arg);
}

/* cal_team_destroy - stop and join every worker, free the team. */
void cal_team_destroy(struct memcal_team *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	t->quit = true;
	pthread_cond_broadcast(&t->wake);
	pthread_mutex_unlock(&t->lock);
	for (unsigned i = 0; i < t->n; i++)
		pthread_join(t->workers[i].tid, NULL);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->wake);
	pthread_cond_destroy(&t->done_cv);
	free(t->workers);
	free(t);
}
