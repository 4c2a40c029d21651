// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_boards.c - recorded boards replayed: each folder of
 * tests/fixtures/boards/ holds the /proc and /sys files CPU-type discovery
 * reads and an hwloc XML of the board (SOURCE says where the values come
 * from).  For each board the kinds of CPU, their PMU and the documented
 * read and write events must match the board's golden "expected" file
 * (MEMCAL_UPDATE_GOLDEN=1 rewrites it: review the diff), and the topology
 * must load with as many CPUs as discovery found.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_types.h"
#include "golden.h"
#include "memcal_platform.h"

#define BOARDS MEMCAL_SOURCE_DIR "/tests/fixtures/boards/"

/* event_text - "0x17 (L2 data refills ...)" or a libpfm4 name, or none. */
static void event_text(const struct memcal_pmu_candidate *c, char *buf,
		       size_t len)
{
	if (!c)
		snprintf(buf, len, "none");
	else if (c->has_raw)
		snprintf(buf, len, "raw 0x%llx, %s",
			 (unsigned long long)c->raw, c->what);
	else
		snprintf(buf, len, "%s, %s", c->event, c->what);
}

/* describe - what discovery found on the board, one block per kind. */
static char *describe(const struct memcal_cpu_types *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	for (size_t i = 0; i < t->n; i++) {
		const struct memcal_cpu_type *k = &t->types[i];
		char rd[192], wr[192];

		event_text(memcal_pmu_documented(k->family, "read"), rd,
			   sizeof(rd));
		event_text(memcal_pmu_documented(k->family, "write"), wr,
			   sizeof(wr));
		fprintf(f, "cpus %s (%u): %s\n", k->cpus, k->n_cpus, k->label);
		fprintf(f, "  pmu: %s (perf type %d)%s%s\n",
			k->perf_pmu[0] ? k->perf_pmu : "none", k->perf_type,
			k->pfm_pmu[0] ? ", libpfm4 " : "", k->pfm_pmu);
		if (k->family)
			fprintf(f, "  table: %s\n  read: %s\n  write: %s\n",
				k->family->name, rd, wr);
		else
			fprintf(f, "  no event: %s\n", k->why);
	}
	fclose(f);
	return text;
}

/* replay - discover @board's CPU kinds through its recorded roots. */
static void replay(const char *board, struct memcal_cpu_types *t)
{
	char sys[512], proc[512];

	snprintf(sys, sizeof(sys), BOARDS "%s/sys", board);
	snprintf(proc, sizeof(proc), BOARDS "%s/proc", board);
	setenv("MEMCAL_SYSFS_ROOT", sys, 1);
	setenv("MEMCAL_PROCFS_ROOT", proc, 1);
	cr_assert_eq(memcal_cpu_types_discover(t), 0, "%s: %s", board,
		     t->error);
	unsetenv("MEMCAL_SYSFS_ROOT");
	unsetenv("MEMCAL_PROCFS_ROOT");
}

/* check_golden - @text against @board/expected. */
static void check_golden(const char *board, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), BOARDS "%s/expected", board);
	golden_check(path, text);
}

/* check_topology - the board's XML loads and has @cpus processing units. */
static void check_topology(const char *board, unsigned cpus)
{
	struct memcal_topology topo;
	char path[512], err[256] = "";

	snprintf(path, sizeof(path), BOARDS "%s/topology.xml", board);
	setenv("HWLOC_XMLFILE", path, 1);
	cr_assert_eq(memcal_topology_load(&topo, NULL, err, sizeof(err)), 0,
		     "%s: %s", board, err);
	unsetenv("HWLOC_XMLFILE");
	cr_expect_eq(topo.n_pus, cpus, "%s: the XML has %u CPUs, discovery "
		     "%u", board, topo.n_pus, cpus);
	memcal_topology_free(&topo);
}

/* board - replay @board: golden description, topology, CPU count. */
static struct memcal_cpu_types board(const char *name)
{
	struct memcal_cpu_types t;
	unsigned cpus = 0;
	char *text;

	replay(name, &t);
	text = describe(&t);
	check_golden(name, text);
	free(text);
	for (size_t i = 0; i < t.n; i++)
		cpus += t.types[i].n_cpus;
	check_topology(name, cpus);
	return t;
}

/* kind_reads - @k's documented read event is the raw PMUv3 @code. */
static void kind_reads(const struct memcal_cpu_type *k, uint64_t code)
{
	const struct memcal_pmu_candidate *c =
		memcal_pmu_documented(k->family, "read");

	cr_assert_not_null(c, "%s: no read event", k->label);
	cr_expect(c->has_raw && c->raw == code, "%s reads with 0x%llx, want "
		  "0x%llx", k->label, (unsigned long long)c->raw,
		  (unsigned long long)code);
}

TestSuite(boards);

/*
 * Boards with one kind of Arm core: its documented read event.  In-order
 * clusters whose shared L2 is the last level read with L2 refills
 * (MemGuard's 0x17; the A72's read-only 0x52); DynamIQ cores with a DSU L3
 * with L3 refills (0x2a).
 */
Test(boards, uniform_arm)
{
	static const struct { const char *board; uint64_t read; } rows[] = {
		{ "zcu102", 0x17 }, { "imx8m", 0x17 }, { "rpi4", 0x52 },
		{ "rpi5", 0x2a }, { "orin", 0x2a },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct memcal_cpu_types t = board(rows[i].board);

		cr_assert_eq(t.n, 1, "%s", rows[i].board);
		cr_expect_geq(t.types[0].perf_type, 0, "%s", rows[i].board);
		kind_reads(&t.types[0], rows[i].read);
	}
}

/* big.LITTLE: two kinds, each with its own PMU and perf type. */
Test(boards, rk3588_a55_a76)
{
	struct memcal_cpu_types t = board("rk3588");

	cr_assert_eq(t.n, 2);
	cr_expect_str_eq(t.types[0].cpus, "0-3");
	cr_expect_str_eq(t.types[0].perf_pmu, "armv8_cortex_a55");
	cr_expect_str_eq(t.types[1].cpus, "4-7");
	cr_expect_str_eq(t.types[1].perf_pmu, "armv8_cortex_a76");
	cr_expect_neq(t.types[0].perf_type, t.types[1].perf_type);
	cr_expect_neq(t.types[0].family, t.types[1].family);
	kind_reads(&t.types[0], 0x2a);
	kind_reads(&t.types[1], 0x2a);
}

/* Hybrid Intel: P- and E-cores apart; only the architectural read event. */
Test(boards, alder_lake_hybrid)
{
	struct memcal_cpu_types t = board("adl");

	cr_assert_eq(t.n, 2);
	cr_expect_str_eq(t.types[0].perf_pmu, "cpu_core");
	cr_expect_str_eq(t.types[0].cpus, "0-15");
	cr_expect_str_eq(t.types[1].perf_pmu, "cpu_atom");
	cr_expect_str_eq(t.types[1].cpus, "16-23");
	for (size_t i = 0; i < 2; i++) {
		cr_expect_str_eq(t.types[i].pfm_pmu, "ix86arch");
		cr_expect_not_null(memcal_pmu_documented(t.types[i].family,
							 "read"));
		cr_expect_null(memcal_pmu_documented(t.types[i].family,
						     "write"));
	}
}

Test(boards, sapphire_rapids)
{
	struct memcal_cpu_types t = board("spr");

	cr_assert_eq(t.n, 1);
	cr_expect_str_eq(t.types[0].perf_pmu, "cpu");
	cr_expect_str_eq(t.types[0].pfm_pmu, "spr");
}

Test(boards, zen4)
{
	struct memcal_cpu_types t = board("zen4");

	cr_assert_eq(t.n, 1);
	cr_expect_str_eq(t.types[0].pfm_pmu, "amd64_fam19h_zen4");
}

/* Recorded in a KVM guest: no PMU, and no table for Zen 5; it says so. */
Test(boards, zen5_guest)
{
	struct memcal_cpu_types t = board("zen5");

	cr_assert_eq(t.n, 1);
	cr_expect_null(t.types[0].family);
	cr_expect_str_eq(t.types[0].perf_pmu, "");
	cr_expect(strstr(t.types[0].why, "Zen 5") != NULL, "%s",
		  t.types[0].why);
}

/* A missing /proc/cpuinfo is an error that names the file. */
Test(boards, missing_cpuinfo)
{
	struct memcal_cpu_types t;

	setenv("MEMCAL_PROCFS_ROOT", "/nonexistent-proc", 1);
	cr_expect_eq(memcal_cpu_types_discover(&t), -1);
	cr_expect(strstr(t.error, "/nonexistent-proc/cpuinfo") != NULL, "%s",
		  t.error);
	unsetenv("MEMCAL_PROCFS_ROOT");
}
