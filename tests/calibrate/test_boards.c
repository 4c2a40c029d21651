// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_boards.c - recorded boards replayed: each folder of
 * tests/fixtures/boards/ holds the /proc and /sys files CPU-type discovery
 * reads and an hwloc XML of the board (SOURCE says where the values come
 * from).  For each board the kinds of CPU, their PMU and the documented
 * read and write events are checked here, the topology must load with as
 * many CPUs as discovery found, and `memcal run --replay` must print the
 * board's golden replay.txt and replay.json (MEMCAL_UPDATE_GOLDEN=1
 * rewrites them: review the diff).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>
#include <unistd.h>

#include "golden.h"
#include "replay.h"

#define BOARDS MEMCAL_SOURCE_DIR "/tests/fixtures/boards/"
#define MEMCAL MEMCAL_BINARY_DIR "/calibrate/memcal"

static const char *const all_boards[] = {
	"adl", "imx8m", "orin", "rk3588", "rpi4", "rpi5", "spr", "zcu102",
	"zen4", "zen5",
};

/* board - replay @name and check its XML has as many CPUs as discovery. */
static struct memcal_cpu_types board(const char *name)
{
	struct memcal_replay r;
	struct memcal_cpu_types t;
	char dir[512], err[1024] = "";
	unsigned cpus = 0;

	snprintf(dir, sizeof(dir), BOARDS "%s", name);
	cr_assert_eq(cal_replay_load(dir, &r, err, sizeof(err)), 0, "%s: %s",
		     name, err);
	t = r.types;
	for (size_t i = 0; i < t.n; i++)
		cpus += t.types[i].n_cpus;
	cr_expect_eq(r.topo.n_pus, cpus, "%s: the XML has %u CPUs, discovery "
		     "%u", name, r.topo.n_pus, cpus);
	cal_replay_free(&r);
	cr_expect_null(getenv("MEMCAL_SYSFS_ROOT"), "the roots are restored");
	return t;
}

/*
 * memcal - "cd BOARDS && memcal ARGS --db <scratch>" with stdout in
 * @out (malloc'd) and stderr in @err (malloc'd); the exit status.
 */
static int memcal(const char *args, char **out, char **err)
{
	char cmd[1024], tmp[] = "/tmp/memcal-replay-XXXXXX", path[600];
	int st;

	cr_assert_not_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "cd " BOARDS " && " MEMCAL " %s --db "
		 "%s/m.db >%s/out 2>%s/err", args, tmp, tmp, tmp);
	st = system(cmd);
	snprintf(path, sizeof(path), "%s/m.db", tmp);
	cr_expect_neq(access(path, F_OK), 0, "%s: a database was created",
		      args);
	snprintf(path, sizeof(path), "%s/out", tmp);
	*out = slurp(path);
	unlink(path);
	snprintf(path, sizeof(path), "%s/err", tmp);
	*err = slurp(path);
	unlink(path);
	rmdir(tmp);
	cr_assert(*out && *err);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* kind_reads - @k's documented read event is the raw PMUv3 @code. */
static void kind_reads(const struct memcal_cpu_type *k, uint64_t code)
{
	const struct memcal_pmu_candidate *c =
		cal_pmu_documented(k->family, "read");

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
		cr_expect_not_null(cal_pmu_documented(t.types[i].family,
							 "read"));
		cr_expect_null(cal_pmu_documented(t.types[i].family,
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

/*
 * `memcal run --quick --replay BOARD` on all ten boards: text and JSON
 * against the board's golden replay.txt and replay.json, the same output
 * without --quick, exit 0, nothing stored, measured and stored false.
 */
Test(boards, replay_all_ten)
{
	for (size_t i = 0; i < sizeof(all_boards) / sizeof(all_boards[0]); i++) {
		const char *b = all_boards[i];
		char args[256], path[512], *out, *err, *again, *err2;
		json_t *doc, *res;

		snprintf(args, sizeof(args), "run --quick --replay %s", b);
		cr_expect_eq(memcal(args, &out, &err), 0, "%s: %s", b, err);
		snprintf(path, sizeof(path), BOARDS "%s/replay.txt", b);
		golden_check(path, out);
		cr_expect_str_eq(err, "", "%s", b);
		snprintf(args, sizeof(args), "run --replay %s", b);
		cr_expect_eq(memcal(args, &again, &err2), 0, "%s: %s", b, err2);
		cr_expect_str_eq(again, out, "%s: --quick changes nothing", b);
		free(out);
		free(err);
		free(again);
		free(err2);

		snprintf(args, sizeof(args), "--json run --quick --replay %s", b);
		cr_expect_eq(memcal(args, &out, &err), 0, "%s: %s", b, err);
		snprintf(path, sizeof(path), BOARDS "%s/replay.json", b);
		golden_check(path, out);
		doc = json_loads(out, 0, NULL);
		cr_assert_not_null(doc, "%s: not JSON: %s", b, out);
		res = json_object_get(doc, "result");
		cr_expect(json_is_false(json_object_get(res, "measured")), "%s", b);
		cr_expect(json_is_false(json_object_get(res, "stored")), "%s", b);
		cr_expect_eq(json_array_size(json_object_get(res, "cpu_types")),
			     board(b).n, "%s", b);
		json_decref(doc);
		free(out);
		free(err);
	}
}

/* Bad --replay input: what was wrong and what to do, non-zero, no file. */
Test(boards, replay_bad_input)
{
	char *out, *err;

	cr_expect_eq(memcal("run --replay /nonexistent-board", &out, &err), 1);
	cr_expect(strstr(err, "/nonexistent-board") &&
		  strstr(err, "a recorded board is a folder with proc/cpuinfo"),
		  "%s", err);
	free(out);
	free(err);
	cr_expect_eq(memcal("run --replay rk3588/sys", &out, &err), 1);
	cr_expect(strstr(err, "rk3588/sys/proc/cpuinfo") != NULL, "%s", err);
	free(out);
	free(err);
	cr_expect_eq(memcal("run --replay rk3588 --cores 0", &out, &err), 2);
	cr_expect(strstr(err, "--cores does not apply") != NULL, "%s", err);
	free(out);
	free(err);
	cr_expect_eq(memcal("run --replay ''", &out, &err), 2);
	cr_expect(strstr(err, "--replay needs the folder") != NULL, "%s", err);
	free(out);
	free(err);
}

/* A missing /proc/cpuinfo is an error that names the file. */
Test(boards, missing_cpuinfo)
{
	struct memcal_cpu_types t;

	setenv("MEMCAL_PROCFS_ROOT", "/nonexistent-proc", 1);
	cr_expect_eq(cal_cpu_types_discover(&t), MEMCAL_ECANTOPEN);
	cr_expect(strstr(t.error, "/nonexistent-proc/cpuinfo") != NULL, "%s",
		  t.error);
	unsetenv("MEMCAL_PROCFS_ROOT");
}
