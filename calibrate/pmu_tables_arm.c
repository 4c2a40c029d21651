// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_tables_arm.c - memory-traffic event candidates for Arm cores beyond
 * the Cortex-A53/A72/A76 of pmu_tables.c, by MIDR part number (Arm Ltd,
 * implementer 0x41).  Only raw PMUv3 numbers are used: they are fixed by
 * the Arm ARM (common events 0x00-0x3f) and by Arm's recommended
 * IMPLEMENTATION DEFINED numbering (0x40-0xff) that these cores follow,
 * while libpfm4 4.13 names only some of the cores.  Candidates are listed
 * best first; cal_pmu_validate() measures bytes per event and keeps
 * the one that really counts DRAM traffic on the board, so a candidate
 * that counts the wrong level shows up as a wrong transfer size.
 *
 * Which level is the right signal:
 *  - Cortex-A35/A53/A57/A72/A73 clusters: the shared L2 is the last level
 *    in the cluster, so L2D_CACHE_REFILL (0x17) and L2D_CACHE_WB (0x18)
 *    count line transfers to and from the interconnect, i.e. DRAM traffic
 *    unless the SoC has a system cache.  This is MemGuard's choice.
 *  - DynamIQ cores (Cortex-A55, A65, A75, A76, A77, A78, A78AE, A510, A710, X1,
 *    X2; RK3588, Jetson Orin CPU clusters): L2 is private to the core and
 *    the DSU holds a shared L3.  An L2 refill that hits in L3 is no DRAM
 *    traffic, so 0x17 over-counts; L3D_CACHE_REFILL (0x2a) counts the
 *    core's refills from beyond L3.  The core counts no L3 write-backs:
 *    L2D_CACHE_WB (0x18) counts lines the core sends to L3, an upper bound
 *    on DRAM writes (the DSU PMU, arm_dsu_pmu, counts L3 write-backs for
 *    the whole cluster, not per core).
 *  - Neoverse N1/V1/N2/V2 (and their Cortex-X/A7x cousins on servers): L2
 *    private, shared system-level cache in the mesh (CMN).  LL_CACHE_MISS_RD
 *    (0x37) counts reads that miss the last-level (system) cache, the best
 *    per-core DRAM read signal; L2D_CACHE_REFILL counts SLC hits too.
 *    Writes again only as L2 write-backs (0x18), an upper bound.
 *  - BUS_ACCESS (0x19) and BUS_ACCESS_RD/WR (0x60/0x61) count beats or
 *    transactions on the core's master interface; their bytes per event is
 *    the bus width (16 or 32 B, or a line), which validation measures.
 */
#include "pmu_tables_arm.h"

#define RAW(code, tr, desc) { NULL, code, true, tr, desc }

/* Cortex-A35 / A53-like in-order cluster: L2 is the cluster's last level. */
static const struct memcal_pmu_candidate a35_events[] = {
	RAW(0x17, "read", "L2 data refills (L2D_CACHE_REFILL)"),
	RAW(0x60, "read", "bus read accesses (BUS_ACCESS_RD)"),
	RAW(0x18, "write", "L2 data write-backs (L2D_CACHE_WB)"),
	RAW(0x61, "write", "bus write accesses (BUS_ACCESS_WR)"),
};

/* Cortex-A55 (DynamIQ): private L2, optional DSU L3. */
static const struct memcal_pmu_candidate a55_events[] = {
	RAW(0x2a, "read", "L3 data refills (L3D_CACHE_REFILL): DRAM reads when the DSU has an L3"),
	RAW(0x17, "read", "L2 data refills (L2D_CACHE_REFILL): DRAM reads only without an L3"),
	RAW(0x60, "read", "bus read accesses (BUS_ACCESS_RD), core to DSU"),
	RAW(0x18, "write", "L2 data write-backs (L2D_CACHE_WB), to L3 or DRAM"),
	RAW(0x61, "write", "bus write accesses (BUS_ACCESS_WR), core to DSU"),
};

/* Cortex-A57 / A73: shared cluster L2 is the last level, R/W split events. */
static const struct memcal_pmu_candidate a57_events[] = {
	RAW(0x52, "read", "L2 data refills, reads (L2D_CACHE_REFILL_RD)"),
	RAW(0x17, "read", "L2 data refills (L2D_CACHE_REFILL)"),
	RAW(0x60, "read", "bus read accesses (BUS_ACCESS_RD)"),
	RAW(0x18, "write", "L2 data write-backs (L2D_CACHE_WB)"),
	RAW(0x56, "write", "L2 victim write-backs (L2D_CACHE_WB_VICTIM)"),
	RAW(0x61, "write", "bus write accesses (BUS_ACCESS_WR)"),
};

/* Big DynamIQ cores (A75/A77/A78/X1/A710/X2): private L2, DSU L3. */
static const struct memcal_pmu_candidate dynamiq_big_events[] = {
	RAW(0x2a, "read", "L3 data refills (L3D_CACHE_REFILL)"),
	RAW(0x37, "read", "last-level cache read misses (LL_CACHE_MISS_RD)"),
	RAW(0x17, "read", "L2 data refills (L2D_CACHE_REFILL): counts L3 hits too"),
	RAW(0x60, "read", "bus read accesses (BUS_ACCESS_RD), core to DSU"),
	RAW(0x18, "write", "L2 data write-backs (L2D_CACHE_WB), to L3 or DRAM"),
	RAW(0x61, "write", "bus write accesses (BUS_ACCESS_WR), core to DSU"),
};

/* Neoverse N1/V1/N2/V2: private L2, system-level cache in the mesh. */
static const struct memcal_pmu_candidate neoverse_events[] = {
	RAW(0x37, "read", "last-level (system) cache read misses (LL_CACHE_MISS_RD)"),
	RAW(0x2a, "read", "L3 data refills (L3D_CACHE_REFILL)"),
	RAW(0x17, "read", "L2 data refills (L2D_CACHE_REFILL): counts SLC hits too"),
	RAW(0x60, "read", "bus read accesses (BUS_ACCESS_RD)"),
	RAW(0x18, "write", "L2 data write-backs (L2D_CACHE_WB), to the SLC or DRAM"),
	RAW(0x61, "write", "bus write accesses (BUS_ACCESS_WR)"),
};

static const char *const pfm_none[] = { NULL };
static const char *const pfm_a55[] = { "arm_ac55", NULL };
static const char *const pfm_a57[] = { "arm_ac57", NULL };
static const char *const pfm_n1[] = { "arm_n1", NULL };
static const char *const pfm_v1[] = { "arm_v1", NULL };
static const char *const pfm_n2[] = { "arm_n2", NULL };

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define FAM(name, pfm, part, ev) { name, pfm, part, ev, N(ev) }

const struct memcal_pmu_family cal_pmu_families_arm[] = {
	FAM("arm_ac35", pfm_none, 0xd04, a35_events),
	FAM("arm_ac55", pfm_a55, 0xd05, a55_events),
	FAM("arm_ac57", pfm_a57, 0xd07, a57_events),
	FAM("arm_ac73", pfm_none, 0xd09, a57_events),
	FAM("arm_ac75", pfm_none, 0xd0a, dynamiq_big_events),
	FAM("arm_ac77", pfm_none, 0xd0d, dynamiq_big_events),
	FAM("arm_ac78", pfm_none, 0xd41, dynamiq_big_events),
	FAM("arm_ac78ae", pfm_none, 0xd42, dynamiq_big_events),
	FAM("arm_x1", pfm_none, 0xd44, dynamiq_big_events),
	FAM("arm_ac510", pfm_none, 0xd46, a55_events),
	FAM("arm_ac710", pfm_none, 0xd47, dynamiq_big_events),
	FAM("arm_x2", pfm_none, 0xd48, dynamiq_big_events),
	FAM("arm_n1", pfm_n1, 0xd0c, neoverse_events),
	FAM("arm_v1", pfm_v1, 0xd40, neoverse_events),
	FAM("arm_n2", pfm_n2, 0xd49, neoverse_events),
	FAM("arm_v2", pfm_none, 0xd4f, neoverse_events),
};

const size_t cal_pmu_n_families_arm = N(cal_pmu_families_arm);
