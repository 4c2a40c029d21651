/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu_types.h - the kinds of CPU a board has, and the PMU each kind uses.
 *
 * A big.LITTLE or hybrid board has more than one core type, each with its
 * own PMU (its own perf type number) and often its own event table: an
 * RK3588 pairs Cortex-A76 with A55, an Alder Lake desktop part Golden Cove
 * with Gracemont.  Discovery reads only files (through memcal_platform_sysfs_root()
 * and cal_procfs_root()), so a board recorded as a folder of /sys and
 * /proc files replays on any machine:
 *  - Arm: each CPU's MIDR (sysfs regs/identification/midr_el1, else the
 *    processor blocks of /proc/cpuinfo); CPUs with the same implementer
 *    and part form one type;
 *  - x86: vendor, family and model from /proc/cpuinfo; a hybrid part's
 *    cpu_core and cpu_atom PMUs (sysfs bus/event_source/devices/cpu_{core,atom}/cpus) split
 *    the CPUs into two types;
 *  - each type's PMU is the event source whose "cpus" file covers its
 *    CPUs (armv8_cortex_a76, cpu_atom), else the one core PMU ("cpu",
 *    "armv8_pmuv3_0"), with the perf type number read from its "type".
 */
#ifndef MEMCAL_CPU_TYPES_H
#define MEMCAL_CPU_TYPES_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "pmu.h"

#define MEMCAL_MAX_CPU_TYPES 8

/**
 * struct memcal_cpu_type - CPUs of one kind and how their PMU is reached.
 * @label:       human name ("Cortex-A76", "Intel Alder Lake P-core").
 * @cpus:        OS CPU numbers, as a list ("4-7").
 * @n_cpus:      how many.
 * @arm_implementer: MIDR implementer (0 on x86).
 * @arm_part:    MIDR part number (0 on x86).
 * @x86_vendor:  "GenuineIntel", "AuthenticAMD" ("" on Arm).
 * @x86_family:  CPUID family (0 on Arm).
 * @x86_model:   CPUID model (0 on Arm).
 * @hybrid_kind: "core" or "atom" on an Intel hybrid part, else "".
 * @perf_pmu:    the sysfs event source serving these CPUs ("" if none).
 * @perf_type:   its perf type number (-1 if unknown).
 * @pfm_pmu:     the libpfm4 PMU name for this kind ("" if none).
 * @family:      memcal's event table for this kind, or NULL.
 * @why:         when @family is NULL: why no event can be chosen.
 */
struct memcal_cpu_type {
	char label[64];
	char cpus[128];
	unsigned n_cpus;
	unsigned arm_implementer;
	unsigned arm_part;
	char x86_vendor[16];
	unsigned x86_family;
	unsigned x86_model;
	char hybrid_kind[8];
	char perf_pmu[64];
	int perf_type;
	char pfm_pmu[32];
	const struct memcal_pmu_family *family;
	char why[256];
};

/**
 * struct memcal_cpu_types - every kind of CPU found.
 * @n:     entries in @types.
 * @types: the kinds, lowest CPU number first.
 * @error: when discovery failed: what was missing.
 */
struct memcal_cpu_types {
	size_t n;
	struct memcal_cpu_type types[MEMCAL_MAX_CPU_TYPES];
	char error[256];
};

/**
 * struct cal_event_sources - a walk over the event sources (the PMUs)
 * under <sysfs>/bus/event_source/devices, through the sysfs root the
 * replay sets: cal_event_sources_open(), cal_event_sources_next() until
 * NULL, cal_event_sources_close().
 * @d: the open folder.
 */
struct cal_event_sources {
	DIR *d;
};

const char *cal_procfs_root(void);
int cal_read_text(const char *root, const char *rel, char *buf, size_t len);
int cal_event_sources_open(struct cal_event_sources *it);
const char *cal_event_sources_next(struct cal_event_sources *it);
void cal_event_sources_close(struct cal_event_sources *it);
int cal_event_source_read(const char *name, const char *file, char *buf,
			  size_t len);
const char *cal_cpuinfo_value(const char *line, const char *key);
int cal_cpu_types_discover(struct memcal_cpu_types *t);
const struct memcal_pmu_candidate *
cal_pmu_documented(const struct memcal_pmu_family *f, const char *traffic);

#endif /* MEMCAL_CPU_TYPES_H */
