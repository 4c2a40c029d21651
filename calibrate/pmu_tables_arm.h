/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu_tables_arm.h - memory-traffic event candidates for the Arm cores
 * that pmu_tables.c does not list (it has Cortex-A53, A72, A76).
 *
 * Hook: cal_pmu_family_find() in pmu.c searches
 * cal_pmu_families[] and then cal_pmu_families_arm[] (same struct,
 * matched by MIDR part number).  See docs/arm64.md for which event
 * counts DRAM traffic on which core.
 */
#ifndef MEMCAL_PMU_TABLES_ARM_H
#define MEMCAL_PMU_TABLES_ARM_H

#include "pmu.h"

extern const struct memcal_pmu_family cal_pmu_families_arm[];
extern const size_t cal_pmu_n_families_arm;

#endif /* MEMCAL_PMU_TABLES_ARM_H */
