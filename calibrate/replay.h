/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.h - PMU discovery against a recorded board (`memcal run
 * --replay DIR`).
 *
 * A recorded board is a folder (tests/fixtures/boards/ holds ten): the
 * /proc and /sys files discovery reads under proc/ and sys/, and the
 * board's hwloc XML as topology.xml.  Replaying points the procfs and
 * sysfs roots and HWLOC_XMLFILE at them, loads the topology, groups the
 * CPUs into kinds and says, per kind, the read and write event memcal
 * would use there, or exactly why it cannot.  Nothing is measured and
 * nothing is stored: counters of another board cannot be opened here.
 */
#ifndef MEMCAL_REPLAY_H
#define MEMCAL_REPLAY_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "cpu_types.h"
#include "memcal_db_cpu_kind.h"
#include "memcal_platform.h"

/**
 * struct memcal_replay - a recorded board as discovery sees it.
 * @dir:   the folder, as given.
 * @topo:  its topology (from @dir/topology.xml).
 * @types: its kinds of CPU.
 */
struct memcal_replay {
	const char *dir;
	struct memcal_topology topo;
	struct memcal_cpu_types types;
};

int cal_replay_load(const char *dir, struct memcal_replay *r, char *err,
		       size_t errlen);
void cal_replay_free(struct memcal_replay *r);
void cal_replay_print(const struct memcal_replay *r, FILE *out);
json_t *cal_replay_to_json(const struct memcal_replay *r);

const struct memcal_pmu_candidate *
cal_cpu_type_pick(const struct memcal_cpu_type *k, const char *traffic,
		     char *why, size_t len);
void cal_cpu_type_kind(const struct memcal_cpu_types *t, size_t i,
			  struct memcal_cpu_kind *row);
void cal_cpu_types_print(const struct memcal_cpu_types *t, FILE *out);

#endif /* MEMCAL_REPLAY_H */
