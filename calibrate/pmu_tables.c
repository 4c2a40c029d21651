// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_tables.c - candidate memory-traffic events per PMU family.
 *
 * Arm events are the architected/recommended PMUv3 numbers (Arm ARM
 * D7.10 and each core's TRM); libpfm4 names them on Arm builds, the raw
 * number is used when it does not (libpfm4 4.13 has no Cortex-A72/A76).
 * Intel and AMD events exist only as libpfm4 names; every x86 entry is
 * checked against libpfm4 4.13 by tests/calibrate/test_pmu.c (forcing
 * each PMU).  Reads are refills
 * (lines brought in), writes are write-backs (lines sent out); for AMD,
 * whose core PMU counts no write-backs, the write candidate is the refill
 * that ordinary stores cause (read for ownership), one per written line.
 */
#include "pmu.h"

#define ARM(ev, code, tr, desc) { ev, code, true, tr, desc }
#define RAW(code, tr, desc) { NULL, code, true, tr, desc }
#define PFM(ev, tr, desc) { ev, 0, false, tr, desc }

static const struct memcal_pmu_candidate a53_events[] = {
	ARM("L2D_CACHE_REFILL", 0x17, "read", "L2 data refills (MemGuard's event)"),
	ARM("BUS_ACCESS_LD", 0x60, "read", "bus read accesses"),
	ARM("L2D_CACHE_WB", 0x18, "write", "L2 data write-backs"),
	ARM("BUS_ACCESS_ST", 0x61, "write", "bus write accesses"),
};

static const struct memcal_pmu_candidate a72_events[] = {
	ARM(NULL, 0x52, "read", "L2 data refills, reads (L2D_CACHE_REFILL_LD)"),
	ARM(NULL, 0x17, "read", "L2 data refills (L2D_CACHE_REFILL)"),
	ARM(NULL, 0x60, "read", "bus read accesses (BUS_ACCESS_LD)"),
	ARM(NULL, 0x18, "write", "L2 data write-backs (L2D_CACHE_WB)"),
	ARM(NULL, 0x56, "write", "L2 victim write-backs (L2D_CACHE_WB_VICTIM)"),
	ARM(NULL, 0x61, "write", "bus write accesses (BUS_ACCESS_ST)"),
};

static const struct memcal_pmu_candidate a76_events[] = {
	ARM(NULL, 0x2a, "read", "L3 data refills (L3D_CACHE_REFILL)"),
	ARM(NULL, 0x17, "read", "L2 data refills (L2D_CACHE_REFILL)"),
	ARM(NULL, 0x60, "read", "bus read accesses (BUS_ACCESS_RD)"),
	ARM(NULL, 0x18, "write", "L2 data write-backs (L2D_CACHE_WB)"),
	ARM(NULL, 0x61, "write", "bus write accesses (BUS_ACCESS_WR)"),
};

static const struct memcal_pmu_candidate intel_events[] = {
	PFM("LONGEST_LAT_CACHE:MISS", "read", "last-level cache misses"),
	PFM("OFFCORE_REQUESTS:ALL_DATA_RD", "read", "offcore data reads"),
	PFM("L2_LINES_IN:ALL", "read", "lines filled into L2"),
	PFM("L2_LINES_OUT:NON_SILENT", "write", "modified lines evicted from L2"),
	PFM("OFFCORE_REQUESTS:DEMAND_RFO", "write", "offcore reads for ownership"),
};

static const struct memcal_pmu_candidate spr_events[] = {
	PFM("LONGEST_LAT_CACHE:MISS", "read", "last-level cache misses"),
	PFM("OFFCORE_REQUESTS:DATA_RD", "read", "offcore data reads"),
	PFM("L2_LINES_IN:ALL", "read", "lines filled into L2"),
	PFM("L2_LINES_OUT:NON_SILENT", "write", "modified lines evicted from L2"),
};

static const struct memcal_pmu_candidate zen2_events[] = {
	PFM("DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_DRAM", "read",
	    "L1D refills from local DRAM"),
	PFM("DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_DRAM", "write",
	    "L1D refills from local DRAM (stores' RFO)"),
};

static const struct memcal_pmu_candidate zen3_events[] = {
	PFM("ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL", "read",
	    "L1D fills from local DRAM or IO, demand and prefetch"),
	PFM("DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL", "read",
	    "L1D demand fills from local DRAM or IO"),
	PFM("ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL", "write",
	    "L1D fills from local DRAM (stores' RFO)"),
};

static const struct memcal_pmu_candidate zen4_events[] = {
	PFM("ANY_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR", "read",
	    "L1D fills from near DRAM or IO, demand and prefetch"),
	PFM("DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR", "read",
	    "L1D demand fills from near DRAM or IO"),
	PFM("ANY_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR", "write",
	    "L1D fills from near DRAM (stores' RFO)"),
};

/*
 * Intel hybrid parts (Alder/Raptor Lake) have no model table in libpfm4
 * 4.13, which falls back to its architectural PMU (ix86arch) there.  The
 * one architectural memory event is last-level cache misses (event 0x2e,
 * umask 0x41, Intel SDM vol. 3 table 20-1), the same on P- and E-cores;
 * it is given raw because libpfm4 4.13 crashes when ix86arch is forced on
 * a non-Intel machine (tests cannot check a name).  There is no
 * architectural write-back event, so the family has no write candidate.
 */
static const struct memcal_pmu_candidate intel_arch_events[] = {
	RAW(0x412e, "read", "last-level cache misses (architectural "
	    "LONGEST_LAT_CACHE.MISS)"),
};

static const char *const pfm_a53[] = { "arm_ac53", NULL };
static const char *const pfm_none[] = { NULL };
static const char *const pfm_intel[] = { "skl", "skx", "clx", "icl", "icx",
					 NULL };
static const char *const pfm_arch[] = { "ix86arch", NULL };
static const char *const pfm_spr[] = { "spr", NULL };
static const char *const pfm_zen2[] = { "amd64_fam17h_zen2", NULL };
static const char *const pfm_zen3[] = { "amd64_fam19h_zen3", NULL };
static const char *const pfm_zen4[] = { "amd64_fam19h_zen4", NULL };

#define N(a) (sizeof(a) / sizeof((a)[0]))

const struct memcal_pmu_family cal_pmu_families[] = {
	{ "arm_ac53", pfm_a53, 0xd03, a53_events, N(a53_events) },
	{ "arm_ac72", pfm_none, 0xd08, a72_events, N(a72_events) },
	{ "arm_ac76", pfm_none, 0xd0b, a76_events, N(a76_events) },
	{ "intel_core", pfm_intel, 0, intel_events, N(intel_events) },
	{ "intel_arch", pfm_arch, 0, intel_arch_events, N(intel_arch_events) },
	{ "intel_spr", pfm_spr, 0, spr_events, N(spr_events) },
	{ "amd_zen2", pfm_zen2, 0, zen2_events, N(zen2_events) },
	{ "amd_zen3", pfm_zen3, 0, zen3_events, N(zen3_events) },
	{ "amd_zen4", pfm_zen4, 0, zen4_events, N(zen4_events) },
};

const size_t cal_pmu_n_families = N(cal_pmu_families);
