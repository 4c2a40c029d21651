/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inputs.h - gather the planner's inputs from the database: the newest
 * platform profile (calibration run), its sustainable and guaranteed
 * bandwidth, its bandwidth-latency family across read/write mixes and
 * counter events, the newest interrupt-overhead measurement, and the
 * newest workload profiles of a mix.
 */
#ifndef MEMTUNE_INPUTS_H
#define MEMTUNE_INPUTS_H

#include "memcal_db_tune.h"
#include "plan.h"

#define INPUT_MAX_NOTES 8

/**
 * struct tune_inputs - planner inputs and the storage behind them.
 * @in:        what tune_plan_run() reads.
 * @platform:  the board's row.
 * @profiles:  loaded profiles (trace arrays owned here), per workload.
 * @have:      per workload, whether a profile was found.
 * @n_notes:   warnings met while loading (copied into the config).
 * @notes:     their text.
 * @machine:   the provenance @in.machine points at (inputs.c
 *             tune_inputs_machine()).
 */
struct tune_inputs {
	struct plan_input in;
	struct memcal_platform platform;
	struct memcal_profile profiles[MIX_MAX_WORKLOADS];
	bool have[MIX_MAX_WORKLOADS];
	int n_notes;
	char notes[INPUT_MAX_NOTES][256];
	struct tune_machine machine;
};

int tune_inputs_platform(memcal_db *db, struct tune_inputs *ti, char *err,
		    size_t errlen);
int tune_inputs_guaranteed(memcal_db *db, struct tune_inputs *ti,
		      bool from_streaming, char *err, size_t errlen);
int tune_inputs_overhead(memcal_db *db, struct tune_inputs *ti, double assume_ns,
		    char *err, size_t errlen);
int tune_inputs_profiles(memcal_db *db, const struct mix *m,
		    struct tune_inputs *ti, char *err, size_t errlen);
void tune_inputs_machine(memcal_db *db, struct tune_inputs *ti);
void tune_inputs_free(struct tune_inputs *ti);

#endif /* MEMTUNE_INPUTS_H */
