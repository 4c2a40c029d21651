// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_validate_static.c - the static condition of 'memtune validate'
 * against a fake memreg sysfs tree.  Each workload is a shell script that
 * records memreg's committed values when it starts, so the log shows what
 * every co-run ran under: monitor-only, then static budgets (LMS, reclaim
 * and sharing off, every ceiling at its guarantee), then the tuned
 * configuration.  The script also behaves differently per state (sleep,
 * throttle counters), so each condition's figures must land in their own
 * fields of the stored validation.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "memcal_db.h"
#include "memcal_db_job_latency.h"
#include "memcal_db_tune.h"

/*
 * The workload: log "NAME lms reclaim share monitor" and each CPU's read
 * and write guarantee and ceiling; then, monitor-only: 0.2 s; LMS off
 * (static): 1.2 s, 5 throttles of 5000 ns on its core and a job report
 * (what memcal-load writes to $MEMCAL_LOAD_REPORT) of 10 jobs, 3 missed;
 * LMS on (regulated): 0.3 s, 50 throttles of 50000 ns, 10 jobs, none
 * missed.
 */
static const char script[] =
	"r=\"$1\"; log=\"$2\"; name=\"$3\"; cpu=\"$4\"\n"
	"v() { cat \"$r/$1\"; }\n"
	"l=\"$name\"\n"
	"for f in lms reclaim share monitor; do l=\"$l $(v $f)\"; done\n"
	"for c in 0 1; do for f in read_guaranteed read_ceiling "
	"write_guaranteed write_ceiling; do l=\"$l $(v cpu$c/$f)\"; done; "
	"done\n"
	"echo \"$l\" >> \"$log\"\n"
	"add() { n=$(v cpu$cpu/$1); echo $((n + $2)) > \"$r/cpu$cpu/$1\"; }\n"
	"rep() { [ -n \"$MEMCAL_LOAD_REPORT\" ] && echo \"jobs 10 misses $1 "
	"max_ns 1\" > \"$MEMCAL_LOAD_REPORT\"; }\n"
	"if [ \"$(v monitor)\" = 1 ]; then sleep 0.2; rep 0\n"
	"elif [ \"$(v lms)\" = 0 ]; then add throttles 5; "
	"add throttled_ns 5000; sleep 1.2; rep 3\n"
	"else add throttles 50; add throttled_ns 50000; sleep 0.3; rep 0; "
	"fi\nexit 0\n";

/**
 * struct snap - memreg's values as one workload saw them at its start.
 * @name: the workload.
 * @lms, @reclaim, @share, @monitor: modes.
 * @g, @c: per CPU and class (read, write), guarantee and ceiling events.
 */
struct snap {
	char name[16];
	long long lms, reclaim, share, monitor;
	long long g[2][2], c[2][2];
};

/* read_log - the snapshots of workload @name in @path, in run order. */
static int read_log(const char *path, const char *name, struct snap *s,
		    int max)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = 0;

	cr_assert(f, "%s", path);
	while (fgets(line, sizeof(line), f)) {
		struct snap t;

		cr_assert_eq(sscanf(line, "%15s %lld %lld %lld %lld %lld %lld "
				    "%lld %lld %lld %lld %lld %lld", t.name,
				    &t.lms, &t.reclaim, &t.share, &t.monitor,
				    &t.g[0][0], &t.c[0][0], &t.g[0][1],
				    &t.c[0][1], &t.g[1][0], &t.c[1][0],
				    &t.g[1][1], &t.c[1][1]), 13, "%s", line);
		if (strcmp(t.name, name))
			continue;
		cr_assert_lt(n, max, "more runs of %s than expected", name);
		s[n++] = t;
	}
	fclose(f);
	return n;
}

/* cfg_events - cpu @cpu's @what ("guaranteed_events"...) of class @cls. */
static long long cfg_events(json_t *cfg, int cpu, int cls, const char *what)
{
	json_t *c = json_array_get(json_object_get(cfg, "cpus"), (size_t)cpu);

	cr_assert(c, "configuration has cpu %d", cpu);
	return (long long)json_integer_value(json_object_get(json_object_get(
		c, cls ? "write" : "read"), what));
}

/* cfg_mode - the tuned configuration's mode @m (0 or 1). */
static long long cfg_mode(json_t *cfg, const char *m)
{
	return json_is_true(json_object_get(json_object_get(cfg, "modes"), m));
}

/*
 * with_headroom - store @cfg again with every per-CPU ceiling one event
 * above its guarantee (what the guaranteed-bandwidth planner gives LMS
 * and sharing to distribute), so that the static run's ceiling =
 * guarantee differs from the tuned one; @cfg is changed alike.  Returns
 * the new configuration's id.
 */
static int64_t with_headroom(const char *path, json_t *cfg)
{
	struct memcal_config c;
	json_t *cpu;
	char err[256], *text;
	memcal_db *db;
	size_t i;
	int64_t id;

	json_array_foreach(json_object_get(cfg, "cpus"), i, cpu)
		for (int k = 0; k < 2; k++) {
			json_t *b = json_object_get(cpu, k ? "write" : "read");
			json_int_t g = json_integer_value(json_object_get(b,
				"guaranteed_events"));

			json_object_set_new(b, "ceiling_events",
					    json_integer(g + 1));
		}
	text = json_dumps(cfg, 0);
	cr_assert(text);
	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_db_config_latest(db, &id), 0);
	cr_assert_eq(memcal_db_config_get(db, id, &c), 0);
	free(c.document);
	c.document = text;
	c.id = 0;
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_config_store(db, &c), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	id = c.id;
	c.document = NULL;
	memcal_db_config_free(&c);
	free(text);
	memcal_db_close(db);
	return id;
}

/* collect - the stored results of one validation (callback). */
static int collect(const struct memcal_validation_result *r, void *user)
{
	struct memcal_validation_result *a = user;

	a[r->cpu] = *r;
	return 0;
}

/* conds - the conditions of the stored latency rows (callback). */
static int conds(const struct memcal_job_latency *l, void *user)
{
	strcat(user, l->condition);
	strcat(user, " ");
	cr_assert_gt(l->samples, 0, "%s", l->condition);
	return 0;
}

Test(validate_static, static_then_regulated_settings_and_fields,
     .timeout = 300)
{
	char dir[64], db[128], mix[128], root[256], fp[80], sh[160];
	char logp[160], body[2048], lat[256] = "", err[256], cid[24];
	struct memcal_validation_result res[2];
	struct out *o = malloc(sizeof(*o));
	struct snap s[8];
	json_error_t je;
	json_t *doc, *cfg, *r0, *r1;
	memcal_db *h;
	int64_t vid;
	FILE *f;
	int n;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	snprintf(sh, sizeof(sh), "%s/probe.sh", dir);
	snprintf(logp, sizeof(logp), "%s/states.log", dir);
	f = fopen(sh, "w");
	cr_assert(f);
	fputs(script, f);
	fclose(f);
	this_fingerprint(fp, sizeof(fp));
	seed_fp(db, 10e9, 20000, fp);
	fake_sysfs(dir, root, sizeof(root), true);
	snprintf(body, sizeof(body),
		 "name: states\nruns: 1\nworkloads:\n"
		 "  - name: be\n    argv: [sh, %s, %s, %s, be, \"0\"]\n"
		 "    criticality: be\n    cpu: 0\n"
		 "  - name: rt\n    argv: [sh, %s, %s, %s, rt, \"1\"]\n"
		 "    criticality: rt\n    cpu: 1\n    deadline_us: 50000\n"
		 "    period_us: 50000\n    read_mbps: 50\n",
		 sh, root, logp, sh, root, logp);
	write_mix(dir, mix, sizeof(mix), body);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, &je);
	cr_assert(doc, "%s", o->text);
	cfg = json_deep_copy(json_object_get(doc, "document"));
	json_decref(doc);
	cr_assert(cfg_mode(cfg, "lms"), "the tuned configuration adapts: %s",
		  o->out);
	snprintf(cid, sizeof(cid), "%lld", (long long)with_headroom(db, cfg));
	remove(logp);

	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "validate",
		mix, "--config", cid, "--sysfs", root, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, &je);
	cr_assert(doc, "%s", o->text);
	cr_assert(json_is_true(json_object_get(doc, "regulated")));
	cr_assert(json_is_true(json_object_get(doc, "static")));
	vid = json_integer_value(json_object_get(doc, "validation_id"));

	/* memreg's state at the start of each co-run, in order */
	n = read_log(logp, "be", s, 8);
	cr_assert_eq(n, 3, "unregulated, static, regulated: %d runs", n);
	cr_assert_eq(s[0].monitor, 1, "unregulated: monitor-only");
	cr_assert_eq(s[1].monitor, 0, "static: regulating");
	cr_assert_eq(s[1].lms, 0, "static: LMS off");
	cr_assert_eq(s[1].reclaim, 0, "static: reclaim off");
	cr_assert_eq(s[1].share, 0, "static: sharing off");
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 2; k++) {
			cr_assert_eq(s[1].g[c][k], cfg_events(cfg, c, k,
				     "guaranteed_events"), "cpu%d class %d", c,
				     k);
			cr_assert_eq(s[1].c[c][k], s[1].g[c][k], "static: cpu%d "
				     "class %d ceiling = guarantee", c, k);
			cr_assert_eq(s[2].g[c][k], cfg_events(cfg, c, k,
				     "guaranteed_events"));
			cr_assert_eq(s[2].c[c][k], s[2].g[c][k] + 1,
				     "regulated: cpu%d class %d ceiling as tuned",
				     c, k);
		}
	cr_assert_eq(s[2].monitor, 0);
	cr_assert_eq(s[2].lms, 1, "regulated: LMS as tuned");
	cr_assert_eq(s[2].reclaim, cfg_mode(cfg, "reclaim"));
	cr_assert_eq(s[2].share, cfg_mode(cfg, "share"));
	/* the real-time workload: timed alone first, then the same three */
	cr_assert_eq(read_log(logp, "rt", s, 8), 4);

	/* the JSON output: each condition's figures in its own fields */
	r0 = json_array_get(json_object_get(doc, "results"), 0);
	r1 = json_array_get(json_object_get(doc, "results"), 1);
	cr_assert_eq(json_integer_value(json_object_get(r0, "static_throttles")),
		     5, "%s", o->out);
	cr_assert_eq(json_integer_value(json_object_get(r0, "throttles")), 50,
		     "%s", o->out);
	cr_assert_eq(json_integer_value(json_object_get(r1,
		     "static_deadline_misses")), 3, "%s", o->out);
	cr_assert_eq(json_integer_value(json_object_get(r1, "deadline_misses")),
		     0, "%s", o->out);
	cr_assert_gt(json_real_value(json_object_get(r0, "slowdown_static")),
		     json_real_value(json_object_get(r0, "slowdown_regulated")),
		     "%s", o->out);
	json_decref(doc);

	/* stored: the static columns, and a 'static' latency row */
	cr_assert_eq(memcal_db_open(db, 0, &h, err, sizeof(err)), 0, "%s",
		     err);
	memset(res, 0, sizeof(res));
	cr_assert_eq(memcal_db_validation_result_list(h, vid, collect, res), 0);
	for (int c = 0; c < 2; c++) {
		cr_assert(res[c].has_static, "cpu %d", c);
		cr_assert_geq(res[c].static_ns, 1.2e9, "cpu %d", c);
		cr_assert_geq(res[c].regulated_ns, 0.3e9, "cpu %d", c);
		cr_assert_lt(res[c].regulated_ns, res[c].static_ns, "cpu %d",
			     c);
		cr_assert_eq(res[c].static_throttles, 5, "cpu %d", c);
		cr_assert_eq(res[c].static_throttled_ns, 5000, "cpu %d", c);
		cr_assert_eq(res[c].throttles, 50, "cpu %d", c);
		cr_assert_eq(res[c].throttled_ns, 50000, "cpu %d", c);
	}
	cr_assert_eq(res[1].static_deadline_misses, 3);
	cr_assert_eq(res[1].deadline_misses, 0);
	cr_assert_eq(memcal_db_job_latency_list(h, vid, conds, lat), 0);
	cr_assert_str_eq(lat, "solo unregulated static regulated ");
	memcal_db_close(h);

	/* show: static against regulated, side by side */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show",
		"--validation", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "unregulated, static and regulated"), "%s",
		  o->text);
	cr_assert(strstr(o->text, "static against regulated"), "%s", o->text);
	cr_assert(strstr(o->text, "be               be  ") &&
		  strstr(o->text, "throughput "), "%s", o->text);
	cr_assert(strstr(o->text, "rt               rt  ") &&
		  strstr(o->text, ", misses 3/0\n"), "%s", o->text);
	cr_assert_null(strstr(o->text, "static not measured"), "%s", o->text);

	/* --no-static: no static run, NULL in the database, said so */
	remove(logp);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "validate", mix,
		"--config", cid, "--sysfs", root, "--no-static", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "(unregulated and regulated)"), "%s",
		  o->text);
	cr_assert(strstr(o->text, "co-scheduled run, regulated") &&
		  !strstr(o->text, "co-scheduled run, static"), "%s", o->text);
	cr_assert(strstr(o->text, "static      not measured (--no-static)"),
		  "%s", o->text);
	cr_assert_eq(read_log(logp, "be", s, 8), 2);
	cr_assert_eq(s[1].lms, 1, "straight to the tuned configuration");
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "show",
		"--validation", "2", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, &je);
	cr_assert(doc, "%s", o->text);
	r0 = json_array_get(json_object_get(doc, "results"), 0);
	cr_assert(json_is_false(json_object_get(r0, "has_static")), "%s",
		  o->out);
	cr_assert(json_is_null(json_object_get(r0, "static_ns")), "%s",
		  o->out);
	cr_assert(json_is_false(json_object_get(doc, "static")), "%s", o->out);
	json_decref(doc);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show",
		"--validation", "2", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "static not measured"), "%s", o->text);
	/* the static slot of the throughput is "-", not 0 */
	cr_assert(strstr(o->text, "be               be  ") &&
		  strstr(o->text, "/-/"), "%s", o->text);
	json_decref(cfg);
	free(o);
}
