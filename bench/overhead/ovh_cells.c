// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_cells.c - bench/overhead's cell table (see ovh_cells.h):
 *
 *   ovh_cells_all()     every cell, in table order
 *   ovh_cells_select()  the cells a --cells list of names/patterns names
 *   ovh_cell_params()   memreg.ko's module parameters for a cell
 *   ovh_cell_describe() one line a person reads (--list)
 *
 * Budgets are in CPU cycles (raw event 0x11, the emulated PMU's only
 * counting event, standing in for memory traffic): a task that runs
 * the whole period uses period_us * OVH_CYCLES_PER_US of them.
 */
#include "ovh_cells.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[OVH_CELL_KINDS] = {
	[OVH_CELL_MONITOR] = "monitor",
	[OVH_CELL_REG50] = "reg50",
	[OVH_CELL_EXHAUST] = "exhaust",
};

/* ovh_cell_kind_name - "monitor", "reg50" or "exhaust". */
const char *ovh_cell_kind_name(enum ovh_cell_kind k)
{
	return k < OVH_CELL_KINDS ? kind_names[k] : "?";
}

/*
 * ovh_cells_all - the whole table into @out (at most @max); returns the
 * number of cells.  Monitor only at 1000/100/32 us, regulated with room
 * at 1000/100 us, exhausted at 1000 us; each on CPU 0 and 1, master on
 * the measured CPU and off it, modes on and off.
 */
size_t ovh_cells_all(struct ovh_cell *out, size_t max)
{
	static const struct { enum ovh_cell_kind k; unsigned p; } kp[] = {
		{ OVH_CELL_MONITOR, 1000 }, { OVH_CELL_MONITOR, 100 },
		{ OVH_CELL_MONITOR, 32 }, { OVH_CELL_REG50, 1000 },
		{ OVH_CELL_REG50, 100 }, { OVH_CELL_EXHAUST, 1000 },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(kp) / sizeof(kp[0]); i++)
		for (unsigned cpu = 0; cpu < OVH_CELL_CPUS; cpu++)
			for (int self = 0; self < 2; self++)
				for (int modes = 1; modes >= 0; modes--) {
					struct ovh_cell *c = &out[n];

					if (n >= max)
						return n;
					c->kind = kp[i].k;
					c->period_us = kp[i].p;
					c->cpu = cpu;
					c->master_self = self;
					c->modes = modes;
					snprintf(c->name, sizeof(c->name),
						 "%s-%u-cpu%u-%s-%s",
						 kind_names[c->kind], c->period_us,
						 cpu, self ? "mself" : "mother",
						 modes ? "modes" : "nomodes");
					n++;
				}
	return n;
}

/*
 * ovh_cells_select - the cells named by @patterns, a comma-separated
 * list of names or fnmatch(3) patterns ("monitor-32-*"; NULL, "" or
 * "all": every cell), in table order, into @out (at most @max), count in
 * @n.  Returns 0, or -1 with the reason in @why when an entry matches no
 * cell.
 */
int ovh_cells_select(const char *patterns, struct ovh_cell *out,
		     size_t max, size_t *n, char *why, size_t wlen)
{
	struct ovh_cell all[OVH_CELLS_MAX];
	size_t na = ovh_cells_all(all, OVH_CELLS_MAX);
	bool take[OVH_CELLS_MAX] = { false };
	char buf[1024], *save = NULL;

	*n = 0;
	if (!patterns || !*patterns || !strcmp(patterns, "all"))
		patterns = "*";
	if (strlen(patterns) >= sizeof(buf)) {
		snprintf(why, wlen, "--cells list too long (%zu characters, "
			 "at most %zu)", strlen(patterns), sizeof(buf) - 1);
		return -1;
	}
	memcpy(buf, patterns, strlen(patterns) + 1);
	for (char *p = strtok_r(buf, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		bool hit = false;

		for (size_t i = 0; i < na; i++)
			if (!fnmatch(p, all[i].name, 0))
				take[i] = hit = true;
		if (!hit) {
			snprintf(why, wlen, "--cells: '%s' names no cell "
				 "(--list shows them, e.g. "
				 "monitor-32-cpu0-mother-modes or 'reg50-*')", p);
			return -1;
		}
	}
	for (size_t i = 0; i < na && *n < max; i++)
		if (take[i])
			out[(*n)++] = all[i];
	return 0;
}

/* ovh_cell_master - the master CPU of @c. */
unsigned ovh_cell_master(const struct ovh_cell *c)
{
	return c->master_self ? c->cpu : (c->cpu + 1) % OVH_CELL_CPUS;
}

/* ovh_cell_guarantee - the measured CPU's guarantee in cycles/period
 * (monitor: the module's default, half the platform ceiling). */
unsigned long long ovh_cell_guarantee(const struct ovh_cell *c)
{
	unsigned long long full = c->period_us * OVH_CYCLES_PER_US;

	return c->kind == OVH_CELL_EXHAUST ? full / 2 : 2 * full;
}

/*
 * ovh_cell_params - memreg.ko's parameters for @c into @buf.  The
 * platform ceiling is four periods' cycles, so that two guarantees of
 * twice the task's use fit under it.  Exhausted cells cap the measured
 * CPU's ceiling at its guarantee: LMS, reclaim and sharing could
 * otherwise raise its budget above its use, and the cell would no
 * longer be exhausted every period.  Returns 0, or -1 if @len is short.
 */
int ovh_cell_params(const struct ovh_cell *c, char *buf, size_t len)
{
	unsigned long long full = c->period_us * OVH_CYCLES_PER_US;
	unsigned long long g = ovh_cell_guarantee(c), gb[OVH_CELL_CPUS],
			   cb[OVH_CELL_CPUS];
	int m = c->modes, w;

	w = snprintf(buf, len, "read_event=raw:0x11 period_us=%u "
		     "master_cpu=%u lms=%d reclaim=%d share=%d "
		     "platform_read=%llu", c->period_us, ovh_cell_master(c),
		     m, m, m, 4 * full);
	if (w < 0 || (size_t)w >= len)
		return -1;
	switch (c->kind) {
	case OVH_CELL_MONITOR:
		w += snprintf(buf + w, len - (size_t)w, " monitor=1");
		break;
	case OVH_CELL_REG50:
		w += snprintf(buf + w, len - (size_t)w, " read_budget=%llu", g);
		break;
	default:
		for (unsigned i = 0; i < OVH_CELL_CPUS; i++) {
			gb[i] = i == c->cpu ? g : 2 * full;
			cb[i] = i == c->cpu ? g : 4 * full;
		}
		w += snprintf(buf + w, len - (size_t)w,
			      " read_budget=%llu,%llu read_max=%llu,%llu",
			      gb[0], gb[1], cb[0], cb[1]);
		break;
	}
	return (size_t)w < len ? 0 : -1;
}

/* ovh_cell_describe - @c in words, for --list. */
void ovh_cell_describe(const struct ovh_cell *c, char *buf, size_t len)
{
	static const char *const what[OVH_CELL_KINDS] = {
		[OVH_CELL_MONITOR] = "monitor only",
		[OVH_CELL_REG50] = "regulated, task uses 50 % of its budget",
		[OVH_CELL_EXHAUST] = "regulated, budget exhausted every period",
	};

	snprintf(buf, len, "%-32s %s, %u us, task on CPU %u, master %s, %s",
		 c->name, what[c->kind], c->period_us, c->cpu,
		 c->master_self ? "on it" : "on the other CPU",
		 c->modes ? "lms=1 reclaim=1 share=1" :
			    "lms=0 reclaim=0 share=0");
}
