/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * threads.h - a team of worker threads, each pinned to one CPU, that run
 * the same function together from a common barrier start.
 *
 * The team is created once (threads are pinned and stay alive) and then
 * runs any number of jobs: cal_team_run() wakes every worker, the
 * workers meet at a barrier so they start within microseconds of each
 * other, each calls fn(index, arg), and cal_team_run() returns when
 * all of them have finished.  Time the work inside fn with
 * memcal_now_ns() (clock.h).  Used by `memcal run` and `memcal overhead`.
 */
#ifndef MEMCAL_THREADS_H
#define MEMCAL_THREADS_H

#include <stdbool.h>
#include <stddef.h>

#include <hwloc.h>

struct memcal_team;

/* Work function: @index is the worker's position in the team (0..n-1). */
typedef void (*memcal_team_fn)(unsigned index, void *arg);

int cal_pin_self(hwloc_topology_t hw, unsigned cpu);
int cal_team_create(struct memcal_team **out, hwloc_topology_t hw,
		       const unsigned *cpus, unsigned n);
int cal_team_run(struct memcal_team *team, memcal_team_fn fn, void *arg);
int cal_team_run_subset(struct memcal_team *team, unsigned n,
			   memcal_team_fn fn, void *arg);
void cal_team_destroy(struct memcal_team *team);

#endif /* MEMCAL_THREADS_H */
