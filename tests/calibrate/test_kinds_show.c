// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kinds_show.c - the kinds of CPU a run stored, as `memcal show`
 * prints them: the RK3588 fixture's two kinds (discovery replayed, the
 * rows memcal run stores) in a fixture database, then `memcal show --run`
 * in text and JSON; a run without kinds has neither the block nor the key.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_db.h"
#include "golden.h"
#include "replay.h"

#define MEMCAL MEMCAL_BINARY_DIR "/calibrate/memcal"
#define BOARDS MEMCAL_SOURCE_DIR "/tests/fixtures/boards/"

/* show - "memcal --db @db ARGS" stdout (malloc'd); exit status in @rc. */
static char *show(const char *db, const char *args, int *rc)
{
	char cmd[1024], out[] = "/tmp/memcal-kinds-XXXXXX";
	int fd = mkstemp(out);
	char *text;

	cr_assert_geq(fd, 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), MEMCAL " --db %s %s > %s 2>&1", db, args, out);
	*rc = system(cmd);
	text = slurp(out);
	unlink(out);
	cr_assert(text);
	return text;
}

Test(kinds_show, stored_kinds_are_shown_in_text_and_json)
{
	char path[] = "/tmp/memcal-kinds-XXXXXX.db", err[1024] = "", args[64];
	struct memcal_cpu_kind k[8];
	struct memcal_replay r;
	struct fixture_ids ids;
	memcal_db *db;
	json_t *doc, *kinds;
	char *text;
	size_t n;
	int rc, fd = mkstemps(path, 3);

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	snprintf(args, sizeof(args), "show --run %lld", (long long)ids.run_id);
	text = show(path, args, &rc);
	cr_assert_eq(rc, 0, "%s", text);
	cr_expect_null(strstr(text, "CPU kinds:"), "no kinds stored: %s", text);
	free(text);

	cr_assert_eq(cal_replay_load(BOARDS "rk3588", &r, err, sizeof(err)), 0, "%s", err);
	n = r.types.n;
	for (size_t i = 0; i < n; i++)
		cal_cpu_type_kind(&r.types, i, &k[i]);
	cal_replay_free(&r);
	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(memcal_db_begin(db), 0);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(memcal_db_cpu_kind_store(db, ids.run_id, &k[i]), 0);
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);

	text = show(path, args, &rc);
	cr_assert_eq(rc, 0, "%s", text);
	cr_expect(strstr(text, "CPU kinds:\n  cpus 0-3: Cortex-A55 (PMU armv8_cortex_a55)\n"
			 "    read  armv8_cortex_a55:0x2a ("), "%s", text);
	cr_expect(strstr(text, "  cpus 4-7: Cortex-A76 (PMU armv8_cortex_a76)\n"
			 "    read  armv8_cortex_a76:0x2a ("), "%s", text);
	free(text);
	snprintf(args, sizeof(args), "--json show --run %lld", (long long)ids.run_id);
	text = show(path, args, &rc);
	cr_assert_eq(rc, 0, "%s", text);
	doc = json_loads(text, 0, NULL);
	cr_assert(doc, "%s", text);
	kinds = json_object_get(json_object_get(doc, "result"), "cpu_kinds");
	cr_assert_eq(json_array_size(kinds), 2, "%s", text);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(
		json_array_get(kinds, 1), "write"), "event")), "armv8_cortex_a76:0x18");
	json_decref(doc);
	free(text);
	unlink(path);
}
