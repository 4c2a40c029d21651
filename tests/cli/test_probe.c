// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probe.c - both tools against broken input, the way a careless or
 * hostile user would feed them: malformed and hostile mix files, paths that
 * are devices, directories, FIFOs or symlinks, databases that are empty,
 * garbage, truncated, foreign or newer, bad option values and outputs that
 * cannot be written.
 *
 * Every case is one row of a table.  The verdict is computed here, the same
 * for every row:
 *  - the tool exits (no signal, no hang: a case is killed after 20 s);
 *  - a failing case exits 1, 2 or 77 and says what was wrong on stderr,
 *    prefixed with the tool's name (or the row's expected words);
 *  - with --json, the same case prints exactly one JSON document on stdout,
 *    {"ok": false, "error": {"code": <the exit status>, "message": ...}};
 *  - nothing in the case's scratch folder is created, changed or removed
 *    (a database is never touched by a refused command; an output that
 *    is a device is written through, not replaced), and /dev/null stays a
 *    character device with no "-journal" beside it.  The devices a case
 *    writes to are its own nodes in the scratch folder (root only).
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <sqlite3.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixture_db.h"
#include "golden.h"

#define MEMCAL MEMCAL_BINARY_DIR "/calibrate/memcal"
#define MEMTUNE MEMCAL_BINARY_DIR "/tuner/memtune"
#define CONFIG_JSON MEMCAL_SOURCE_DIR "/tests/fixtures/export/config.json"
#define PROBE_TIMEOUT_S 20
#define PROBE_MAX_ARGS 16
#define PROBE_MAX_FILES 32

/* Row flags. */
enum {
	P_OK = 1 << 0,		/* the case must succeed (exit 0) */
	P_NO_JSON = 1 << 1,	/* skip the --json rerun */
	P_FIXTURE = 1 << 2,	/* @D/m.db starts as the fixture database */
};

/**
 * struct probe_case - one probe.
 * @name:    what is probed, for failure messages.
 * @tool:    "memcal" or "memtune".
 * @argv:    arguments after the tool's name; "@D" at the start of an
 *           argument stands for the case's scratch folder.
 * @mix:     body of @D/mix.yaml, written before the run (NULL: none).
 * @mix_len: its length when it holds NUL bytes (0: strlen).
 * @prepare: makes what else the case needs in the scratch folder.
 * @stdout_path: where stdout goes (NULL: captured).
 * @flags:   P_* flags.
 * @expect:  words the message must contain, case-insensitive (NULL: any).
 */
struct probe_case {
	const char *name;
	const char *tool;
	const char *argv[PROBE_MAX_ARGS];
	const char *mix;
	size_t mix_len;
	void (*prepare)(const char *dir);
	const char *stdout_path;
	unsigned flags;
	const char *expect;
};

/**
 * struct file_state - one entry of a scratch folder, to see it unchanged.
 * @name: entry name.
 * @mode: lstat() mode.
 * @size: lstat() size.
 * @hash: FNV-1a of a regular file's bytes or a link's target.
 */
struct file_state {
	char name[256];
	mode_t mode;
	off_t size;
	uint64_t hash;
};

/**
 * struct dir_state - a scratch folder's entries.
 * @n:     number of entries.
 * @files: the entries.
 */
struct dir_state {
	int n;
	struct file_state files[PROBE_MAX_FILES];
};

static char scratch[256];

/* fnv - FNV-1a over @len bytes, continuing @h. */
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* hash_file - FNV-1a of the file at @path (0 when unreadable). */
static uint64_t hash_file(const char *path)
{
	uint64_t h = 1469598103934665603ULL;
	char buf[65536];
	ssize_t got;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		h = fnv(h, buf, (size_t)got);
	close(fd);
	return h;
}

/* snapshot - record every entry of @dir. */
static void snapshot(const char *dir, struct dir_state *st)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	cr_assert_not_null(d, "cannot list %s", dir);
	st->n = 0;
	while ((e = readdir(d))) {
		struct file_state *f;
		char path[600];
		struct stat sb;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		cr_assert_lt(st->n, PROBE_MAX_FILES);
		f = &st->files[st->n++];
		snprintf(f->name, sizeof(f->name), "%s", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		cr_assert_eq(lstat(path, &sb), 0);
		f->mode = sb.st_mode;
		f->size = S_ISREG(sb.st_mode) ? sb.st_size : 0;
		f->hash = 0;
		if (S_ISREG(sb.st_mode)) {
			f->hash = hash_file(path);
		} else if (S_ISLNK(sb.st_mode)) {
			char target[512];
			ssize_t n = readlink(path, target, sizeof(target));

			f->hash = fnv(0, target, n > 0 ? (size_t)n : 0);
		}
	}
	closedir(d);
}

/* same_state - describe into @why the first difference; true if none. */
static bool same_state(const struct dir_state *a, const struct dir_state *b,
		       char *why, size_t len)
{
	for (int i = 0; i < b->n; i++) {
		const struct file_state *nb = &b->files[i];
		const struct file_state *na = NULL;

		for (int j = 0; j < a->n && !na; j++)
			if (!strcmp(a->files[j].name, nb->name))
				na = &a->files[j];
		if (!na) {
			snprintf(why, len, "created %s", nb->name);
			return false;
		}
		if (na->mode != nb->mode || na->size != nb->size ||
		    na->hash != nb->hash) {
			snprintf(why, len, "changed %s", nb->name);
			return false;
		}
	}
	if (a->n != b->n) {
		snprintf(why, len, "removed an entry (%d -> %d)", a->n, b->n);
		return false;
	}
	return true;
}

/* put - write @len bytes of @body to @dir/@name. */
static void put(const char *dir, const char *name, const void *body,
		size_t len)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(body, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

/* at - @dir/@name into @buf. */
static const char *at(char *buf, size_t len, const char *dir,
		      const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* ---- what cases prepare ------------------------------------------------ */

static void make_dir(const char *d)
{
	char p[600];

	cr_assert_eq(mkdir(at(p, sizeof(p), d, "sub"), 0755), 0);
}

static void make_fifo(const char *d)
{
	char p[600];

	cr_assert_eq(mkfifo(at(p, sizeof(p), d, "fifo"), 0644), 0);
}

static void make_loop(const char *d)
{
	char p[600];

	cr_assert_eq(symlink("loop", at(p, sizeof(p), d, "loop")), 0);
}

/*
 * make_devices - @d/null and @d/full, character devices like /dev/null and
 * /dev/full, so that a tool that replaces its output by a regular file
 * damages the scratch folder, not the machine.
 */
static void make_devices(const char *d)
{
	char p[600];

	if (mknod(at(p, sizeof(p), d, "null"), S_IFCHR | 0666, makedev(1, 3)) ||
	    mknod(at(p, sizeof(p), d, "full"), S_IFCHR | 0666, makedev(1, 7)))
		cr_skip_test("cannot create device nodes (%s): run as root",
			     strerror(errno));
}

static void make_empty_db(const char *d)
{
	put(d, "m.db", "", 0);
}

static void make_text_db(const char *d)
{
	static const char text[] = "this is not a database\n";

	put(d, "m.db", text, sizeof(text) - 1);
}

/* make_garbage_db - a file that starts like SQLite and is garbage after. */
static void make_garbage_db(const char *d)
{
	char buf[8192];

	memset(buf, 0xa5, sizeof(buf));
	memcpy(buf, "SQLite format 3", 16);
	put(d, "m.db", buf, sizeof(buf));
}

/*
 * fixture_at - the fixture database as @d/@name: a byte copy of the one
 * setup() made, since making it takes dozens of fsyncs and most cases
 * start from it.
 */
static void fixture_at(const char *d, const char *name)
{
	char from[300], p[600], buf[65536];
	ssize_t got;
	int in, out;

	snprintf(from, sizeof(from), "%s/fixture.db", scratch);
	in = open(from, O_RDONLY);
	cr_assert_geq(in, 0, "%s: %s", from, strerror(errno));
	out = open(at(p, sizeof(p), d, name), O_WRONLY | O_CREAT | O_TRUNC,
		   0644);
	cr_assert_geq(out, 0, "%s: %s", p, strerror(errno));
	while ((got = read(in, buf, sizeof(buf))) > 0)
		cr_assert_eq(write(out, buf, (size_t)got), got, "%s", p);
	cr_assert_eq(got, 0, "%s: %s", from, strerror(errno));
	close(in);
	cr_assert_eq(close(out), 0);
}

/* make_truncated_db - the fixture cut to its first 3 pages. */
static void make_truncated_db(const char *d)
{
	char p[600];

	fixture_at(d, "m.db");
	cr_assert_eq(truncate(at(p, sizeof(p), d, "m.db"), 3 * 4096), 0);
}

/* make_db_version - the fixture with PRAGMA user_version set to @version. */
static void make_db_version(const char *d, int version)
{
	char p[600], sql[64];
	sqlite3 *h;

	fixture_at(d, "m.db");
	cr_assert_eq(sqlite3_open(at(p, sizeof(p), d, "m.db"), &h), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", version);
	cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "PRAGMA journal_mode=DELETE", NULL, NULL,
				  NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_close(h), SQLITE_OK);
}

static void make_newer_db(const char *d)
{
	make_db_version(d, 9999);
}

/* make_foreign_db - a valid SQLite file of some other program. */
static void make_foreign_db(const char *d)
{
	char p[600];
	sqlite3 *h;

	cr_assert_eq(sqlite3_open(at(p, sizeof(p), d, "m.db"), &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "CREATE TABLE notes(id INTEGER, body "
				  "TEXT); INSERT INTO notes VALUES(1, 'x');",
				  NULL, NULL, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_close(h), SQLITE_OK);
}

/* make_link_to_file - @d/link -> @d/target.html (existing content). */
static void make_link_to_file(const char *d)
{
	char p[600];

	put(d, "target.html", "keep me\n", 8);
	cr_assert_eq(symlink("target.html", at(p, sizeof(p), d, "link")), 0);
}

static void make_readonly_file(const char *d)
{
	char p[600];

	put(d, "ro.html", "keep me\n", 8);
	cr_assert_eq(chmod(at(p, sizeof(p), d, "ro.html"), 0444), 0);
}

/* ---- the cases --------------------------------------------------------- */

#define MIX_HEAD "name: probe\nworkloads:\n"
#define WL_BE "  - name: be\n    command: memcal-load read --mb 8\n" \
	      "    criticality: be\n"
#define WL_RT(extra) "  - name: rt\n    command: memcal-load compute\n" \
		     "    criticality: rt\n    period_us: 10000\n" \
		     "    cpu: 1\n" extra
#define PLAN(...) .tool = "memtune", .argv = { "plan", "@D/mix.yaml", "--db", "@D/m.db", \
			       ##__VA_ARGS__, NULL }, .flags = P_FIXTURE

/* A best-effort workload and a real-time one with this period_us or cpu. */
#define RT_PERIOD(v) MIX_HEAD WL_BE "  - name: rt\n    command: memcal-load " \
	"compute\n    criticality: rt\n    period_us: " v "\n    cpu: 1\n"
#define RT_CPU(v) MIX_HEAD WL_BE "  - name: rt\n    command: memcal-load " \
	"compute\n    criticality: rt\n    period_us: 10000\n    cpu: " v "\n"

static const char nul_mix[] = "name: pro\0be\nworkloads:\n" WL_BE;

static const struct probe_case mix_cases[] = {
	{ "mix empty", PLAN(), .mix = "" },
	{ "mix comments only", PLAN(), .mix = "# nothing here\n# at all\n" },
	{ "mix blank lines", PLAN(), .mix = "\n\n   \n\t\n" },
	{ "mix document marker only", PLAN(), .mix = "---\n...\n" },
	{ "mix a scalar", PLAN(), .mix = "hello\n" },
	{ "mix a list", PLAN(), .mix = "- a\n- b\n" },
	{ "mix binary", PLAN(), .mix = "\x01\x02\xff\xfe\x80\n" },
	{ "mix NUL byte", PLAN(), .mix = nul_mix,
	  .mix_len = sizeof(nul_mix) - 1 },
	{ "mix invalid UTF-8 name", PLAN(),
	  .mix = "name: \xff\xfe\nworkloads:\n" WL_BE },
	{ "mix name with newline", PLAN(),
	  .mix = "name: \"a\\nExecStartPre=/bin/sh\"\nworkloads:\n" WL_BE,
	  .expect = "name" },
	{ "mix name with tab", PLAN(),
	  .mix = "name: \"a\\tb\"\nworkloads:\n" WL_BE, .expect = "name" },
	{ "mix name with escape", PLAN(),
	  .mix = "name: \"\\e[31mred\"\nworkloads:\n" WL_BE },
	{ "workload name with newline", PLAN(),
	  .mix = MIX_HEAD "  - name: \"x\\ny\"\n    command: memcal-load\n"
		 "    criticality: be\n", .expect = "name" },
	{ "workload name with carriage return", PLAN(),
	  .mix = MIX_HEAD "  - name: \"x\\ry\"\n    command: memcal-load\n"
		 "    criticality: be\n", .expect = "name" },
	{ "tab indentation", PLAN(),
	  .mix = "name: probe\nworkloads:\n\t- name: be\n" },
	{ "unterminated quote", PLAN(),
	  .mix = "name: \"probe\nworkloads:\n" WL_BE },
	{ "unknown top-level key", PLAN(),
	  .mix = "name: probe\ncolour: blue\nworkloads:\n" WL_BE,
	  .expect = "colour" },
	{ "no workloads", PLAN(), .mix = "name: probe\n" },
	{ "workloads empty list", PLAN(), .mix = "name: probe\nworkloads: []\n" },
	{ "workloads a scalar", PLAN(), .mix = "name: probe\nworkloads: 3\n" },
	{ "duplicate key", PLAN(), .mix = "name: a\nname: b\nworkloads:\n"
	  WL_BE },
	{ "period_us negative", PLAN(), .mix = RT_PERIOD("-1"),
	  .expect = "period_us" },
	{ "period_us fractional", PLAN(), .mix = RT_PERIOD("10000.5"),
	  .expect = "period_us" },
	{ "period_us huge", PLAN(), .mix = RT_PERIOD("99999999999999999999999"),
	  .expect = "period_us" },
	{ "period_us 71 minutes", PLAN(), .mix = RT_PERIOD("4260000000"),
	  .expect = "period_us" },
	{ "period_us zero", PLAN(), .mix = RT_PERIOD("0"),
	  .expect = "period_us" },
	{ "period_us text", PLAN(), .mix = RT_PERIOD("soon"),
	  .expect = "period_us" },
	{ "deadline after period", PLAN(), .mix = MIX_HEAD WL_BE
	  WL_RT("    deadline_us: 20000\n"), .expect = "deadline" },
	{ "read_mbps 2^64-1", PLAN(), .mix = MIX_HEAD WL_BE
	  WL_RT("    read_mbps: 18446744073709551615\n"),
	  .expect = "read_mbps" },
	{ "write_mbps negative", PLAN(), .mix = MIX_HEAD WL_BE
	  WL_RT("    write_mbps: -5\n"), .expect = "write_mbps" },
	{ "percentile over 100", PLAN(), .mix = "name: p\npercentile: 150\n"
	  "workloads:\n" WL_BE, .expect = "percentile" },
	{ "percentile zero", PLAN(), .mix = "name: p\npercentile: 0\n"
	  "workloads:\n" WL_BE, .expect = "percentile" },
	{ "percentile negative", PLAN(), .mix = "name: p\npercentile: -1\n"
	  "workloads:\n" WL_BE, .expect = "percentile" },
	{ "runs zero", PLAN(), .mix = "name: p\nruns: 0\nworkloads:\n" WL_BE,
	  .expect = "runs" },
	{ "runs absurd", PLAN(), .mix = "name: p\nruns: 4000000000\n"
	  "workloads:\n" WL_BE, .expect = "runs" },
	{ "margin negative", PLAN(), .mix = "name: p\nmargin_pct: -20\n"
	  "workloads:\n" WL_BE, .expect = "margin_pct" },
	{ "cpu negative", PLAN(), .mix = RT_CPU("-1"),
	  .expect = "cpu" },
	{ "cpu absent from the machine", PLAN(), .mix = RT_CPU("99999"),
	  .expect = "cpu" },
	{ "cpu a list", PLAN(), .mix = RT_CPU("0-3"),
	  .expect = "cpu" },
	{ "argv empty", PLAN(), .mix = MIX_HEAD
	  "  - name: be\n    argv: []\n    criticality: be\n" },
	{ "argv holds an empty string", PLAN(), .mix = MIX_HEAD
	  "  - name: be\n    argv: [\"\"]\n    criticality: be\n" },
	{ "command blank", PLAN(), .mix = MIX_HEAD
	  "  - name: be\n    command: \"   \"\n    criticality: be\n" },
	{ "criticality unknown", PLAN(), .mix = MIX_HEAD
	  "  - name: be\n    command: memcal-load\n    criticality: hard\n",
	  .expect = "criticality" },
	{ "deep nesting", PLAN(), .mix = "name: [[[[[[[[[[[[[[[[[[[[[[[[[[[["
	  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	  "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
	  "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
	  "]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n" },
	{ "alias bomb", PLAN(), .mix = "a: &a [x, x, x, x, x, x, x, x]\n"
	  "b: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
	  "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\n"
	  "d: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
	  "e: &e [*d, *d, *d, *d, *d, *d, *d, *d]\n"
	  "name: *e\nworkloads:\n" WL_BE },
	{ "mix /dev/null", .tool = "memtune", .argv = { "plan", "@D/null", "--db",
	  "@D/m.db", NULL } },
	{ "mix a directory", .tool = "memtune", .argv = { "plan", "@D/sub", "--db", "@D/m.db",
	  NULL }, .prepare = make_dir },
	{ "mix missing", .tool = "memtune", .argv = { "plan", "@D/nope.yaml", "--db",
	  "@D/m.db", NULL }, .expect = "nope.yaml" },
	{ "mix a FIFO with no writer", .tool = "memtune", .argv = { "plan", "@D/fifo", "--db",
	  "@D/m.db", NULL }, .prepare = make_fifo },
	{ "mix /dev/zero", .tool = "memtune", .argv = { "plan", "/dev/zero", "--db",
	  "@D/m.db", NULL } },
	{ "mix a symlink loop", .tool = "memtune", .argv = { "plan", "@D/loop", "--db",
	  "@D/m.db", NULL }, .prepare = make_loop },
	{ "profile: mix empty", .tool = "memtune", .argv = { "profile", "@D/mix.yaml", "--db",
	  "@D/m.db", NULL }, .mix = "" },
	{ "profile: mix comments only", .tool = "memtune", .argv = { "profile", "@D/mix.yaml",
	  "--db", "@D/m.db", NULL }, .mix = "# x\n" },
	{ "validate: mix empty", .tool = "memtune", .argv = { "validate", "@D/mix.yaml",
	  "--db", "@D/m.db", NULL }, .mix = "" },
	{ "validate: mix /dev/null", .tool = "memtune", .argv = { "validate", "@D/null",
	  "--db", "@D/m.db", NULL } },
};

/* The read commands, each against each broken database. */
#define SHOW .tool = "memcal", .argv = { "show", "--db", "@D/m.db", NULL }
#define REPORT .tool = "memcal", .argv = { "report", "--db", "@D/m.db", "--out", \
			   "@D/r.html", NULL }
#define TREPORT .tool = "memtune", .argv = { "report", "--db", "@D/m.db", "--out", \
			     "@D/r.html", NULL }
#define EXPORT .tool = "memtune", .argv = { "export", "--format", "json", "--db", \
			    "@D/m.db", NULL }
#define DB_ROWS(what, prep)						\
	{ "show: " what, SHOW, .prepare = prep },			\
	{ "memcal report: " what, REPORT, .prepare = prep },		\
	{ "memtune report: " what, TREPORT, .prepare = prep },		\
	{ "export: " what, EXPORT, .prepare = prep }

static void make_db_dir(const char *d)
{
	char p[600];

	cr_assert_eq(mkdir(at(p, sizeof(p), d, "m.db"), 0755), 0);
}

static const struct probe_case db_cases[] = {
	DB_ROWS("database missing", NULL),
	DB_ROWS("database an empty file", make_empty_db),
	DB_ROWS("database a text file", make_text_db),
	DB_ROWS("database garbage after the header", make_garbage_db),
	DB_ROWS("database truncated", make_truncated_db),
	DB_ROWS("database from a newer memcal", make_newer_db),
	DB_ROWS("database of another program", make_foreign_db),
	DB_ROWS("database a directory", make_db_dir),
	{ "show: database /dev/null", .tool = "memcal", .argv = { "show", "--db", "@D/null",
	  NULL } },
	{ "export: database /dev/null", .tool = "memtune", .argv = { "export", "--format",
	  "json", "--db", "@D/null", NULL } },
	{ "plan: database /dev/null", .tool = "memtune", .argv = { "plan", "@D/mix.yaml",
	  "--db", "@D/null", NULL }, .mix = MIX_HEAD WL_BE },
	{ "show: database in a missing folder", .tool = "memcal", .argv = { "show", "--db",
	  "@D/none/m.db", NULL } },
	{ "plan: bad mix, new database", .tool = "memtune", .argv = { "plan", "@D/mix.yaml",
	  "--db", "@D/new.db", NULL }, .mix = "name: [\n" },
	{ "plan: bad mix, empty database", .tool = "memtune", .argv = { "plan", "@D/mix.yaml",
	  "--db", "@D/m.db", NULL }, .mix = "name: [\n",
	  .prepare = make_empty_db },
	{ "show: run that does not exist", .tool = "memcal", .argv = { "show", "--run",
	  "424242", "--db", "@D/m.db", NULL }, .flags = P_FIXTURE },
	{ "report: run that does not exist", .tool = "memcal", .argv = { "report", "--run",
	  "424242", "--db", "@D/m.db", "--out", "@D/r.html", NULL },
	  .flags = P_FIXTURE },
	{ "export: config that does not exist", .tool = "memtune", .argv = { "export",
	  "--format", "json", "--config", "424242", "--db", "@D/m.db",
	  NULL }, .flags = P_FIXTURE },
	{ "export: config file missing", .tool = "memtune", .argv = { "export", "--format",
	  "json", "--file", "@D/nope.json", NULL }, .expect = "nope.json" },
	{ "export: config file not JSON", .tool = "memtune", .argv = { "export", "--format",
	  "json", "--file", "@D/mix.yaml", NULL }, .mix = "name: x\n" },
	{ "export: config file a directory", .tool = "memtune", .argv = { "export",
	  "--format", "json", "--file", "@D/sub", NULL },
	  .prepare = make_dir },
	{ "check: config that does not exist", .tool = "memtune", .argv = { "check",
	  "--config", "424242", "--db", "@D/m.db", NULL }, .flags = P_FIXTURE },
	{ "check: config file missing", .tool = "memtune", .argv = { "check", "--file",
	  "@D/nope.json", NULL }, .expect = "nope.json" },
	{ "check: config file not JSON", .tool = "memtune", .argv = { "check", "--file",
	  "@D/mix.yaml", NULL }, .mix = "name: x\n" },
	{ "check: config file a directory", .tool = "memtune", .argv = { "check",
	  "--file", "@D/sub", NULL }, .prepare = make_dir },
};

/* Outputs that cannot be written, or must be written through. */
#define REPORT_TO(path) .tool = "memcal", .argv = { "report", "--db", "@D/m.db", "--out", \
				    path, NULL }
#define EXPORT_TO(path) .tool = "memtune", .argv = { "export", "--format", "json", \
				     "--file", CONFIG_JSON, "--out", path, \
				     NULL }

static const struct probe_case out_cases[] = {
	{ "report --out a directory", REPORT_TO("@D/sub"),
	  .prepare = make_dir, .flags = P_FIXTURE },
	{ "report --out in a missing folder", REPORT_TO("@D/no/r.html"),
	  .flags = P_FIXTURE },
	{ "report --out /dev/full", REPORT_TO("@D/full"),
	  .flags = P_FIXTURE },
	{ "export --out a directory", EXPORT_TO("@D/sub"),
	  .prepare = make_dir },
	{ "export --out in a missing folder", EXPORT_TO("@D/no/c.json") },
	{ "export --out /dev/full", EXPORT_TO("@D/full") },
	{ "report --out a read-only file's folder entry",
	  REPORT_TO("@D/ro.html/x"), .prepare = make_readonly_file,
	  .flags = P_FIXTURE },
	{ "show to a full disk", .tool = "memcal", .argv = { "show", "--db", "@D/m.db", NULL },
	  .stdout_path = "/dev/full", .flags = P_FIXTURE | P_NO_JSON,
	  .expect = "write" },
	{ "show --json to a full disk", .tool = "memcal", .argv = { "show", "--json", "--db",
	  "@D/m.db", NULL }, .stdout_path = "/dev/full",
	  .flags = P_FIXTURE | P_NO_JSON },
	{ "export to a full disk", .tool = "memtune", .argv = { "export", "--format", "json",
	  "--file", CONFIG_JSON, NULL }, .stdout_path = "/dev/full",
	  .flags = P_NO_JSON },
	{ "report --out - to a full disk", REPORT_TO("-"),
	  .stdout_path = "/dev/full", .flags = P_FIXTURE | P_NO_JSON },
	{ "--help to a full disk", .tool = "memcal", .argv = { "--help", NULL },
	  .stdout_path = "/dev/full", .flags = P_NO_JSON },
	{ "report --out /dev/null", REPORT_TO("@D/null"),
	  .flags = P_FIXTURE | P_OK },
	{ "export --out /dev/null", EXPORT_TO("@D/null"), .flags = P_OK },
	{ "report --out -", REPORT_TO("-"), .flags = P_FIXTURE | P_OK },
};

/* Option values. */
static const struct probe_case option_cases[] = {
	{ "show --run text", .tool = "memcal", .argv = { "show", "--run", "abc", "--db",
	  "@D/m.db", NULL }, .flags = P_FIXTURE },
	{ "show --run negative", .tool = "memcal", .argv = { "show", "--run", "-1", "--db",
	  "@D/m.db", NULL }, .flags = P_FIXTURE },
	{ "show --run overflow", .tool = "memcal", .argv = { "show", "--run",
	  "99999999999999999999999", "--db", "@D/m.db", NULL },
	  .flags = P_FIXTURE },
	{ "show --run empty", .tool = "memcal", .argv = { "show", "--run", "", "--db",
	  "@D/m.db", NULL }, .flags = P_FIXTURE },
	{ "run --cores open range", .tool = "memcal", .argv = { "run", "--cores", "0-",
	  "--db", "@D/m.db", NULL } },
	{ "run --cores absent", .tool = "memcal", .argv = { "run", "--cores", "99999",
	  "--db", "@D/m.db", NULL } },
	{ "run --cores text", .tool = "memcal", .argv = { "run", "--cores", "a", "--db",
	  "@D/m.db", NULL } },
	{ "run --cores reversed", .tool = "memcal", .argv = { "run", "--cores", "1-0", "--db",
	  "@D/m.db", NULL } },
	{ "run --size unit", .tool = "memcal", .argv = { "run", "--size", "1Q", "--db",
	  "@D/m.db", NULL } },
	{ "run --size zero", .tool = "memcal", .argv = { "run", "--size", "0", "--db",
	  "@D/m.db", NULL } },
	{ "run --size exabytes", .tool = "memcal", .argv = { "run", "--size", "16E", "--db",
	  "@D/m.db", NULL } },
	{ "run --repeat zero", .tool = "memcal", .argv = { "run", "--repeat", "0", "--db",
	  "@D/m.db", NULL } },
	{ "run --repeat negative", .tool = "memcal", .argv = { "run", "--repeat", "-1",
	  "--db", "@D/m.db", NULL } },
	{ "run stray argument", .tool = "memcal", .argv = { "run", "now", "--db", "@D/m.db",
	  NULL } },
	{ "overhead --periods zero", .tool = "memcal", .argv = { "overhead", "--periods", "0",
	  "--db", "@D/m.db", NULL } },
	{ "overhead --periods negative", .tool = "memcal", .argv = { "overhead", "--periods",
	  "-5", "--db", "@D/m.db", NULL } },
	{ "overhead --periods text", .tool = "memcal", .argv = { "overhead", "--periods",
	  "fast", "--db", "@D/m.db", NULL } },
	{ "report --format unknown", .tool = "memcal", .argv = { "report", "--format", "pdf",
	  "--db", "@D/m.db", NULL }, .flags = P_FIXTURE, .expect = "pdf" },
	{ "export --format unknown", .tool = "memtune", .argv = { "export", "--format", "xml",
	  "--file", CONFIG_JSON, NULL }, .expect = "xml" },
	{ "export --format missing its value", .tool = "memtune", .argv = { "export",
	  "--format", NULL } },
	{ "export no format", .tool = "memtune", .argv = { "export", "--file", CONFIG_JSON,
	  NULL } },
	{ "export --config text", .tool = "memtune", .argv = { "export", "--format", "json",
	  "--config", "x", "--db", "@D/m.db", NULL }, .flags = P_FIXTURE },
	{ "check --tolerance text", .tool = "memtune", .argv = { "check", "--tolerance",
	  "ten", "--file", CONFIG_JSON, NULL }, .expect = "tolerance" },
	{ "check --tolerance 100", .tool = "memtune", .argv = { "check", "--tolerance",
	  "100", "--file", CONFIG_JSON, NULL }, .expect = "tolerance" },
	{ "check --no-bandwidth with a value", .tool = "memtune", .argv = { "check",
	  "--no-bandwidth=yes", "--file", CONFIG_JSON, NULL } },
	{ "memcal unknown command", .tool = "memcal", .argv = { "calibrate", NULL },
	  .expect = "calibrate" },
	{ "memtune unknown command", .tool = "memtune", .argv = { "tune", NULL },
	  .expect = "tune" },
	{ "memcal unknown option", .tool = "memcal", .argv = { "show", "--colour", NULL },
	  .expect = "colour" },
	{ "memtune unknown option", .tool = "memtune", .argv = { "plan", "--fast", NULL },
	  .expect = "fast" },
	{ "memcal no command", .tool = "memcal", .argv = { NULL } },
	{ "memtune no command", .tool = "memtune", .argv = { NULL } },
	{ "plan two mix files", .tool = "memtune", .argv = { "plan", "@D/mix.yaml",
	  "@D/mix.yaml", "--db", "@D/m.db", NULL },
	  .mix = MIX_HEAD WL_BE },
	{ "--db with no value", .tool = "memcal", .argv = { "show", "--db", NULL } },
	{ "--db empty", .tool = "memcal", .argv = { "show", "--db", "", NULL } },
};

/* ---- the runner -------------------------------------------------------- */

/**
 * struct probe_result - what one run left.
 * @status: exit status, -SIG when killed by a signal, -1000 on timeout.
 * @out:    stdout (malloc'd; empty when redirected).
 * @err:    stderr (malloc'd).
 */
struct probe_result {
	int status;
	char *out;
	char *err;
};

/* expand - one argument with "@D" replaced by @dir. */
static char *expand(const char *arg, const char *dir)
{
	char *s;

	if (strncmp(arg, "@D", 2))
		return strdup(arg);
	cr_assert_geq(asprintf(&s, "%s%s", dir, arg + 2), 0);
	return s;
}

/* run_case - run @c with --json after its first word when @json. */
static void run_case(const struct probe_case *c, const char *dir, bool json,
		     struct probe_result *r)
{
	char outp[600], errp[600];
	char *argv[PROBE_MAX_ARGS + 3];
	posix_spawn_file_actions_t fa;
	int n = 0, st, rc;
	pid_t pid;

	snprintf(outp, sizeof(outp), "%s.stdout", scratch);
	snprintf(errp, sizeof(errp), "%s.stderr", scratch);
	argv[n++] = strdup(c->tool);
	for (int i = 0; c->argv[i]; i++) {
		argv[n++] = expand(c->argv[i], dir);
		if (json && i == 0)
			argv[n++] = strdup("--json");
	}
	if (json && !c->argv[0])
		argv[n++] = strdup("--json");
	argv[n] = NULL;

	/*
	 * posix_spawn, not fork: forking this process, with the sanitizers'
	 * shadow memory mapped, costs more than the run it starts.
	 */
	cr_assert_eq(posix_spawn_file_actions_init(&fa), 0);
	cr_assert_eq(posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						      O_RDONLY, 0), 0);
	cr_assert_eq(posix_spawn_file_actions_addopen(&fa, 1,
		     c->stdout_path ? c->stdout_path : outp,
		     O_WRONLY | O_CREAT | O_TRUNC, 0644), 0);
	cr_assert_eq(posix_spawn_file_actions_addopen(&fa, 2, errp,
		     O_WRONLY | O_CREAT | O_TRUNC, 0644), 0);
	cr_assert_eq(posix_spawn_file_actions_addchdir_np(&fa, dir), 0);
	rc = posix_spawn(&pid, strcmp(c->tool, "memcal") ? MEMTUNE : MEMCAL,
			 &fa, NULL, argv, environ);
	cr_assert_eq(rc, 0, "[%s] cannot start %s: %s", c->name, c->tool,
		     strerror(rc));
	posix_spawn_file_actions_destroy(&fa);
	/* polled each millisecond: most runs take a few tens of them */
	for (int t = 0; ; t++) {
		struct timespec ts = { 0, 1000 * 1000 };
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (t >= PROBE_TIMEOUT_S * 1000) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			st = -1;
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (st == -1)
		r->status = -1000;
	else if (WIFSIGNALED(st))
		r->status = -WTERMSIG(st);
	else
		r->status = WEXITSTATUS(st);
	r->out = c->stdout_path ? strdup("") : slurp(outp);
	r->err = slurp(errp);
	cr_assert(r->out && r->err, "cannot read %s or %s", outp, errp);
	for (int i = 0; i < n; i++)
		free(argv[i]);
}

/* contains_ci - @hay contains @needle, ignoring case. */
static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

/* check_json_error - the verdict on a --json run's stdout. */
static void check_json_error(const struct probe_case *c,
			     const struct probe_result *r)
{
	json_error_t je;
	json_t *doc = json_loads(r->out, 0, &je), *err, *ok;

	cr_expect_not_null(doc, "[%s --json] stdout is not one JSON document "
			   "(%s): %.200s", c->name, je.text, r->out);
	if (!doc)
		return;
	ok = json_object_get(doc, "ok");
	err = json_object_get(doc, "error");
	cr_expect(json_is_false(ok), "[%s --json] \"ok\" is not false",
		  c->name);
	cr_expect(json_is_object(err), "[%s --json] no \"error\" object",
		  c->name);
	cr_expect(json_is_string(json_object_get(doc, "tool")) &&
		  !strcmp(json_string_value(json_object_get(doc, "tool")),
			  c->tool), "[%s --json] \"tool\" is not %s", c->name,
		  c->tool);
	if (json_is_object(err)) {
		const char *m = json_string_value(json_object_get(err,
								  "message"));

		cr_expect(m && *m, "[%s --json] empty error message", c->name);
		cr_expect_eq(json_integer_value(json_object_get(err, "code")),
			     r->status, "[%s --json] error.code %lld, exit %d",
			     c->name, json_integer_value(json_object_get(err,
				"code")), r->status);
		if (m && c->expect)
			cr_expect(contains_ci(m, c->expect), "[%s --json] "
				  "message does not name '%s': %s", c->name,
				  c->expect, m);
	}
	json_decref(doc);
}

/* dev_null_intact - /dev/null is still the character device, alone. */
static void dev_null_intact(const struct probe_case *c)
{
	struct stat sb;

	cr_expect(!stat("/dev/null", &sb) && S_ISCHR(sb.st_mode),
		  "[%s] /dev/null is no longer a character device", c->name);
	cr_expect(access("/dev/null-journal", F_OK) &&
		  access("/dev/null-wal", F_OK) &&
		  access("/dev/null-shm", F_OK),
		  "[%s] left a journal beside /dev/null", c->name);
}

/* remove_entry - nftw() callback: remove one entry (children first). */
static int remove_entry(const char *path, const struct stat *sb, int type,
			struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* one_pass - run @c once (plain or --json) in a fresh scratch folder. */
static void one_pass(const struct probe_case *c, bool json)
{
	struct dir_state before, after;
	struct probe_result r;
	char dir[300], why[300];

	snprintf(dir, sizeof(dir), "%s/case", scratch);
	/* in process: a shell and rm for each of ~300 runs cost seconds */
	cr_assert(!nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS) ||
		  errno == ENOENT, "cannot remove %s: %s", dir,
		  strerror(errno));
	cr_assert_eq(mkdir(dir, 0755), 0);
	if (c->flags & P_FIXTURE)
		fixture_at(dir, "m.db");
	if (c->mix)
		put(dir, "mix.yaml", c->mix,
		    c->mix_len ? c->mix_len : strlen(c->mix));
	make_devices(dir);
	if (c->prepare)
		c->prepare(dir);
	snapshot(dir, &before);
	run_case(c, dir, json, &r);
	snapshot(dir, &after);

	cr_expect_neq(r.status, -1000, "[%s%s] still running after %d s",
		      c->name, json ? " --json" : "", PROBE_TIMEOUT_S);
	cr_expect(r.status >= 0 || r.status == -1000, "[%s%s] killed by "
		  "signal %d", c->name, json ? " --json" : "", -r.status);
	if (c->flags & P_OK) {
		cr_expect_eq(r.status, 0, "[%s] exit %d: %s", c->name,
			     r.status, r.err);
	} else {
		cr_expect(r.status == 1 || r.status == 2 || r.status == 77,
			  "[%s%s] exit %d, want 1, 2 or 77; stderr: %.300s",
			  c->name, json ? " --json" : "", r.status, r.err);
		if (!json) {
			cr_expect(contains_ci(r.err, c->tool), "[%s] no "
				  "message naming the tool on stderr: '%s'",
				  c->name, r.err);
			if (c->expect)
				cr_expect(contains_ci(r.err, c->expect),
					  "[%s] message does not name '%s': "
					  "%s", c->name, c->expect, r.err);
		} else {
			check_json_error(c, &r);
		}
	}
	cr_expect(same_state(&before, &after, why, sizeof(why)),
		  "[%s%s] the command %s", c->name, json ? " --json" : "",
		  why);
	dev_null_intact(c);
	free(r.out);
	free(r.err);
}

/* probe_table - every row of @cases, plain and with --json. */
static void probe_table(const struct probe_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		one_pass(&cases[i], false);
		if (!(cases[i].flags & (P_OK | P_NO_JSON)))
			one_pass(&cases[i], true);
	}
	cr_log_info("%zu cases", n);
}

/* setup - the scratch folder, holding the fixture database cases copy. */
static void setup(void)
{
	struct fixture_ids ids;
	char p[300];

	snprintf(scratch, sizeof(scratch), "/tmp/memcal-probe-XXXXXX");
	cr_assert_not_null(mkdtemp(scratch));
	snprintf(p, sizeof(p), "%s/fixture.db", scratch);
	cr_assert_eq(fixture_db_create(p, &ids), 0);
	/* the tools run with this environment: no default database */
	cr_assert_eq(setenv("MEMCAL_DB", "/nonexistent/probe-must-not-use.db",
			    1), 0);
}

static void teardown(void)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s' '%s.stdout' '%s.stderr'",
		 scratch, scratch, scratch);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(probe, .init = setup, .fini = teardown, .timeout = 600);

#define TABLE(t) probe_table(t, sizeof(t) / sizeof((t)[0]))

Test(probe, mix_files) { TABLE(mix_cases); }
Test(probe, databases) { TABLE(db_cases); }
Test(probe, outputs) { TABLE(out_cases); }
Test(probe, options) { TABLE(option_cases); }

/*
 * An --out that is a symlink is followed (the link stays, its target gets
 * the report) or refused (exit 1 or 2, the target untouched): never is the
 * link replaced by a regular file.
 */
Test(probe, out_symlink)
{
	static const struct probe_case c = {
		.name = "report --out a symlink", .tool = "memcal",
		.argv = { "report", "--db", "@D/m.db", "--out", "@D/link",
			  NULL },
		.prepare = make_link_to_file, .flags = P_FIXTURE,
	};
	struct probe_result r;
	char dir[300], link[600], target[600];
	struct stat sb;
	char *body;

	snprintf(dir, sizeof(dir), "%s/case", scratch);
	cr_assert_eq(mkdir(dir, 0755), 0);
	fixture_at(dir, "m.db");
	c.prepare(dir);
	run_case(&c, dir, false, &r);
	cr_assert_eq(lstat(at(link, sizeof(link), dir, "link"), &sb), 0);
	cr_expect(S_ISLNK(sb.st_mode), "the symlink was replaced");
	body = slurp(at(target, sizeof(target), dir, "target.html"));
	cr_assert_not_null(body, "the link's target %s is gone", target);
	if (r.status == 0)
		cr_expect(strstr(body, "<html") || strstr(body, "<!DOCTYPE"),
			  "exit 0 but the link's target has no report");
	else
		cr_expect((r.status == 1 || r.status == 2) &&
			  !strcmp(body, "keep me\n"), "refused with exit %d "
			  "but the target changed or the status is wrong",
			  r.status);
	free(body);
	free(r.out);
	free(r.err);
}
