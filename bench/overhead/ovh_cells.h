/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ovh_cells.h - the cells of bench/overhead's table: what memreg is asked
 * to do in each (monitor only, regulated with room to spare, budget
 * exhausted every period), at which period, with the measured task on
 * which CPU, the master on that CPU or the other one, and the modes on
 * (LMS, reclaim and sharing, as `memtune plan` chooses them) or off (the
 * module's defaults).  Shared by the guest program that measures the
 * cells (ovh_table_guest.c) and the host program that judges them
 * (ovh_verdict.c).  libc only.
 *
 * A cell's name says all of it: KIND-PERIOD-cpuN-MASTER-MODES, e.g.
 * monitor-32-cpu0-mother-modes: monitor only, 32 us, measured task on
 * CPU 0, master on the other CPU (mself: on the measured CPU), LMS,
 * reclaim and share on (nomodes: all three off).
 */
#ifndef MEMCAL_OVH_CELLS_H
#define MEMCAL_OVH_CELLS_H

#include <stdbool.h>
#include <stddef.h>

/* The guest has two CPUs; the master is on the measured one or the other. */
#define OVH_CELL_CPUS	2
/* Most cells in the table. */
#define OVH_CELLS_MAX	64
/* Longest cell name, NUL included. */
#define OVH_CELL_NAME	48

/*
 * Guest CPU cycles per microsecond: QEMU's emulated PMU counts CPU_CYCLES
 * at 1 GHz of the guest's virtual clock (under -icount shift=0 also one
 * instruction per cycle).  Budgets are set from it.
 */
#define OVH_CYCLES_PER_US	1000ull

/* What memreg does in a cell. */
enum ovh_cell_kind {
	OVH_CELL_MONITOR = 0,	/* monitor=1: timers and counters only */
	OVH_CELL_REG50,		/* regulated, guarantee twice the task's use */
	OVH_CELL_EXHAUST,	/* regulated, guarantee half the task's use */
	OVH_CELL_KINDS,
};

/**
 * struct ovh_cell - one cell.
 * @name:        its name (see above).
 * @kind:        what memreg does.
 * @period_us:   the regulation period.
 * @cpu:         the CPU the measured task is pinned to.
 * @master_self: the master is on @cpu (else on the other CPU).
 * @modes:       lms=1 reclaim=1 share=1 (else all 0).
 */
struct ovh_cell {
	char name[OVH_CELL_NAME];
	enum ovh_cell_kind kind;
	unsigned period_us;
	unsigned cpu;
	bool master_self;
	bool modes;
};

const char *ovh_cell_kind_name(enum ovh_cell_kind k);
size_t ovh_cells_all(struct ovh_cell *out, size_t max);
int ovh_cells_select(const char *patterns, struct ovh_cell *out,
		     size_t max, size_t *n, char *why, size_t wlen);
unsigned ovh_cell_master(const struct ovh_cell *c);
unsigned long long ovh_cell_guarantee(const struct ovh_cell *c);
int ovh_cell_params(const struct ovh_cell *c, char *buf, size_t len);
void ovh_cell_describe(const struct ovh_cell *c, char *buf, size_t len);

#endif /* MEMCAL_OVH_CELLS_H */
