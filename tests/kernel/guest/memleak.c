// SPDX-License-Identifier: GPL-2.0
/*
 * memleak - the cycles groups' leak check (cycles_no_leak in lib.sh):
 * memory figures before the load/unload cycles, the check after them.
 *
 *   memleak usage             "E V C": perf_event objects, vmalloc, per-CPU
 *   memleak check N E V C     nothing left after N load/unload cycles
 *                             (cycles-no-leak)
 */
#include "checklib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mem_usage: perf_event objects in use (/proc/slabinfo, -1 without the
 * cache; SLUB counts every object of a CPU's current slab as active:
 * shrinking the cache first hands those slabs back, so the count is
 * exact), VmallocUsed and Percpu (/proc/meminfo, kB) */
struct mem {
	long long perf_objs, vmalloc_kb, percpu_kb;
};

static struct mem mem_usage(void)
{
	struct mem m = { -1, 0, 0 };
	char line[512], name[64];
	long long v;
	FILE *f;

	mr_write("/sys/kernel/slab/perf_event/shrink", "1\n");
	f = fopen("/proc/slabinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", name, &v) == 2 && !strcmp(name, "perf_event"))
			m.perf_objs = v;
	if (f)
		fclose(f);
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmallocUsed: %lld", &v) == 1)
			m.vmalloc_kb = v;
		if (sscanf(line, "Percpu: %lld", &v) == 1)
			m.percpu_kb = v;
	}
	if (f)
		fclose(f);
	return m;
}

/*
 * cycles-no-leak N E0 V0 C0: after N load/unload cycles that started at
 * the figures E0 V0 C0 (memleak usage): no perf counter left (the
 * perf_event slab cache holds at most 8 objects more than before: other
 * perf users may come and go), vmalloc use grown by less than 1 MiB (the
 * core's state alone is ~43 KiB a load: leaking it every cycle would show)
 * and per-CPU memory back within 64 KiB
 */
static int cycles_no_leak(long long n, long long e0, long long v0, long long c0)
{
	struct mem m = mem_usage();

	return mr_check("cycles-no-leak",
			e0 >= 0 && m.perf_objs <= e0 + 8 && m.vmalloc_kb < v0 + 1024 && m.percpu_kb <= c0 + 64,
			"perf_event objects %lld->%lld, VmallocUsed %lld->%lld kB, Percpu %lld->%lld kB after %lld cycles",
			e0, m.perf_objs, v0, m.vmalloc_kb, c0, m.percpu_kb, n);
}

static int cmd_usage(char **a)
{
	struct mem m = mem_usage();

	(void)a;
	return printf("%lld %lld %lld\n", m.perf_objs, m.vmalloc_kb, m.percpu_kb) < 0;
}

static int cmd_check(char **a)
{
	return !cycles_no_leak(atoll(a[0]), atoll(a[1]), atoll(a[2]), atoll(a[3]));
}

static const struct mr_cmd cmds[] = {
	{ "usage", 0, "", cmd_usage },
	{ "check", 4, "N E0 V0 C0", cmd_check },
};

int main(int argc, char **argv)
{
	return mr_dispatch(cmds, sizeof(cmds) / sizeof(cmds[0]), argc, argv);
}
