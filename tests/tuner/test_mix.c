// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mix.c - the mix parser on good and broken files.  Each broken
 * fixture states, in its first lines, the line its error must name
 * ("# expect-line: N") and a phrase the message must contain
 * ("# expect: ...").
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mix.h"

#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/mix/"

/* expect_of - read the expectations of a broken fixture. */
static void expect_of(const char *path, int *line, char *phrase, size_t len)
{
	FILE *f = fopen(path, "r");
	char buf[256];

	cr_assert(f, "cannot open %s", path);
	*line = 0;
	phrase[0] = '\0';
	while (fgets(buf, sizeof(buf), f)) {
		if (sscanf(buf, "# expect-line: %d", line) == 1)
			continue;
		if (!strncmp(buf, "# expect: ", 10)) {
			if (snprintf(phrase, len, "%s", buf + 10) < 0)
				phrase[0] = '\0';
			phrase[strcspn(phrase, "\n")] = '\0';
		}
	}
	fclose(f);
	cr_assert(*line > 0 && phrase[0], "%s lacks its expectations", path);
}

/* check_broken - @name must fail naming its line and phrase. */
static void check_broken(const char *name)
{
	char path[512], err[MIX_ERR_LEN], phrase[128], want[64], want2[64];
	struct mix *m = calloc(1, sizeof(*m));
	int line, rc;

	snprintf(path, sizeof(path), FIX "%s", name);
	expect_of(path, &line, phrase, sizeof(phrase));
	rc = tune_mix_load(path, m, err, sizeof(err));
	cr_assert_neq(rc, MEMCAL_OK, "%s was accepted", name);
	snprintf(want, sizeof(want), ": line %d:", line);
	snprintf(want2, sizeof(want2), ": line %d,", line);
	cr_assert(strstr(err, want) || strstr(err, want2),
		  "%s: error does not name line %d: %s", name, line, err);
	cr_assert(strstr(err, phrase), "%s: error lacks '%s': %s", name,
		  phrase, err);
	cr_assert(strstr(err, path), "%s: error does not name the file: %s",
		  name, err);
	cr_assert_eq(m->n, 0, "a failed load must leave no workloads");
	free(m);
}

Test(mix, good_full_values)
{
	struct mix *m = calloc(1, sizeof(*m));
	char err[MIX_ERR_LEN];

	cr_assert_eq(tune_mix_load(FIX "good_full.yaml", m, err, sizeof(err)),
		     MEMCAL_OK, "%s", err);
	cr_assert_str_eq(m->name, "full");
	cr_assert_eq(m->runs, 5);
	cr_assert_float_eq(m->percentile, 95, 1e-9);
	cr_assert_float_eq(m->margin_pct, 10, 1e-9);
	cr_assert_eq(m->n, 3);
	cr_assert_str_eq(m->wl[0].name, "control");
	cr_assert(m->wl[0].rt);
	cr_assert_eq(m->wl[0].cpu, 1);
	cr_assert_eq(m->wl[0].period_ns, 10000000ull);
	cr_assert_eq(m->wl[0].deadline_ns, 8000000ull);
	cr_assert_float_eq(m->wl[0].read_bps, 200e6, 1);
	cr_assert_float_eq(m->wl[0].write_bps, 50e6, 1);
	cr_assert_eq(m->wl[0].argc, 4);
	cr_assert_str_eq(m->wl[0].argv[3], "1000000");
	cr_assert_null(m->wl[0].argv[4]);
	cr_assert_eq(m->wl[0].line, 7);
	/* a string command is split on blanks, never interpreted */
	cr_assert_eq(m->wl[1].argc, 4);
	cr_assert_str_eq(m->wl[1].argv[0], "memcal-load");
	cr_assert_str_eq(m->wl[1].argv[1], "read");
	cr_assert_str_eq(m->wl[1].argv[3], "64");
	cr_assert_not(m->wl[1].rt);
	cr_assert_eq(m->wl[1].cpu, -1);
	cr_assert_lt(m->wl[1].read_bps, 0, "undeclared need must be < 0");
	cr_assert_not(m->wl[2].rt, "'best-effort' is a synonym of 'be'");
	cr_assert_float_eq(m->wl[2].write_bps, 1000e6, 1);
	tune_mix_free(m);
	free(m);
}

Test(mix, good_minimal_defaults)
{
	struct mix *m = calloc(1, sizeof(*m));
	char err[MIX_ERR_LEN];

	cr_assert_eq(tune_mix_load(FIX "good_minimal.yaml", m, err, sizeof(err)),
		     MEMCAL_OK, "%s", err);
	cr_assert_eq(m->runs, 3);
	cr_assert_float_eq(m->percentile, 99, 1e-9);
	cr_assert_float_eq(m->margin_pct, 20, 1e-9);
	cr_assert_eq(m->n, 1);
	cr_assert_eq(m->wl[0].argc, 1);
	tune_mix_free(m);
	free(m);
}

Test(mix, shell_characters_are_not_interpreted)
{
	char **argv;
	int argc;

	cr_assert_eq(tune_mix_split_command("echo $HOME 'a b' ; rm -rf /x",
				       &argv, &argc), MEMCAL_OK);
	cr_assert_eq(argc, 8);
	cr_assert_str_eq(argv[1], "$HOME");
	cr_assert_str_eq(argv[2], "'a");
	cr_assert_str_eq(argv[4], ";");
	cr_assert_null(argv[8]);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	cr_assert_eq(tune_mix_split_command("  \t ", &argv, &argc), MEMCAL_EINVAL);
}

Test(mix, missing_file)
{
	struct mix *m = calloc(1, sizeof(*m));
	char err[MIX_ERR_LEN];

	cr_assert_eq(tune_mix_load(FIX "no-such.yaml", m, err, sizeof(err)),
		     MEMCAL_EIO);
	cr_assert(strstr(err, "No such file"), "%s", err);
	free(m);
}

Test(mix, core_that_does_not_exist)
{
	struct mix *m = calloc(1, sizeof(*m));
	bool exists[2] = { true, true };
	char err[MIX_ERR_LEN];

	cr_assert_eq(tune_mix_load(FIX "cpu_missing.yaml", m, err, sizeof(err)),
		     MEMCAL_OK, "%s", err);
	cr_assert_eq(tune_mix_check_cpus(m, exists, 2, err, sizeof(err)),
		     MEMCAL_EINVAL);
	cr_assert(strstr(err, "line 4:"), "%s", err);
	cr_assert(strstr(err, "cpu 99"), "%s", err);
	cr_assert(strstr(err, "does not exist"), "%s", err);
	m->wl[0].cpu = 1;
	cr_assert_eq(tune_mix_check_cpus(m, exists, 2, err, sizeof(err)), MEMCAL_OK);
	exists[1] = false;	/* offline */
	cr_assert_eq(tune_mix_check_cpus(m, exists, 2, err, sizeof(err)),
		     MEMCAL_EINVAL);
	tune_mix_free(m);
	free(m);
}

Test(mix, argv_json)
{
	struct mix *m = calloc(1, sizeof(*m));
	char err[MIX_ERR_LEN], *s;

	cr_assert_eq(tune_mix_load(FIX "good_full.yaml", m, err, sizeof(err)),
		     MEMCAL_OK, "%s", err);
	s = tune_mix_argv_json(&m->wl[1]);
	cr_assert_str_eq(s, "[\"memcal-load\",\"read\",\"--mb\",\"64\"]");
	free(s);
	tune_mix_free(m);
	free(m);
}

Test(mix, bad_syntax) { check_broken("bad_syntax.yaml"); }
Test(mix, bad_type) { check_broken("bad_type.yaml"); }
Test(mix, bad_criticality) { check_broken("bad_criticality.yaml"); }
Test(mix, bad_unknown_key) { check_broken("bad_unknown_key.yaml"); }
Test(mix, bad_missing_name) { check_broken("bad_missing_name.yaml"); }
Test(mix, bad_rt_no_deadline) { check_broken("bad_rt_no_deadline.yaml"); }
Test(mix, bad_both_commands) { check_broken("bad_both_commands.yaml"); }
Test(mix, bad_duplicate) { check_broken("bad_duplicate.yaml"); }
Test(mix, bad_rt_shared_cpu) { check_broken("bad_rt_shared_cpu.yaml"); }
Test(mix, bad_deadline) { check_broken("bad_deadline.yaml"); }
Test(mix, bad_empty_command) { check_broken("bad_empty_command.yaml"); }
Test(mix, bad_no_workloads) { check_broken("bad_no_workloads.yaml"); }
Test(mix, bad_period_fraction) { check_broken("bad_period_fraction.yaml"); }
Test(mix, bad_period_long) { check_broken("bad_period_long.yaml"); }
Test(mix, bad_period_short) { check_broken("bad_period_short.yaml"); }
Test(mix, bad_deadline_negative) { check_broken("bad_deadline_negative.yaml"); }
Test(mix, bad_read_wrap) { check_broken("bad_read_wrap.yaml"); }
Test(mix, bad_write_negative) { check_broken("bad_write_negative.yaml"); }
Test(mix, bad_write_exponent) { check_broken("bad_write_exponent.yaml"); }
Test(mix, bad_cpu_negative) { check_broken("bad_cpu_negative.yaml"); }
Test(mix, bad_percentile_low) { check_broken("bad_percentile_low.yaml"); }
Test(mix, bad_percentile_high) { check_broken("bad_percentile_high.yaml"); }
Test(mix, bad_runs_zero) { check_broken("bad_runs_zero.yaml"); }
Test(mix, bad_runs_fraction) { check_broken("bad_runs_fraction.yaml"); }
Test(mix, bad_margin_high) { check_broken("bad_margin_high.yaml"); }
Test(mix, bad_name_newline) { check_broken("bad_name_newline.yaml"); }
Test(mix, bad_mix_name_escape) { check_broken("bad_mix_name_escape.yaml"); }
Test(mix, bad_name_tab) { check_broken("bad_name_tab.yaml"); }
Test(mix, bad_name_long) { check_broken("bad_name_long.yaml"); }
Test(mix, bad_name_empty) { check_broken("bad_name_empty.yaml"); }
Test(mix, bad_nul) { check_broken("bad_nul.yaml"); }
Test(mix, bad_root_scalar) { check_broken("bad_root_scalar.yaml"); }
Test(mix, bad_root_list) { check_broken("bad_root_list.yaml"); }
Test(mix, bad_root_null) { check_broken("bad_root_null.yaml"); }

Test(mix, fractions_kept_exactly)
{
	struct mix *m = calloc(1, sizeof(*m));
	char err[MIX_ERR_LEN];

	cr_assert_eq(tune_mix_load(FIX "good_fraction.yaml", m, err, sizeof(err)),
		     MEMCAL_OK, "%s", err);
	cr_assert_eq(m->percentile, 99.9, "99.9 must not become 99");
	cr_assert_eq(m->margin_pct, 12.5);
	cr_assert_eq(m->wl[0].period_ns, 1000000000ull, "1 s is the longest");
	cr_assert_eq(m->wl[0].deadline_ns, 10000ull, "10 us is the shortest");
	cr_assert_float_eq(m->wl[0].read_bps, 0.5e6, 1e-6);
	cr_assert_float_eq(m->wl[0].write_bps, 1e13, 1);
	tune_mix_free(m);
	free(m);
}

/*
 * refused - tune_mix_load(@path) must fail with @rc, name @path and say
 * @phrase; nothing may be left loaded.
 */
static void refused(const char *path, int rc, const char *phrase)
{
	struct mix *m = calloc(1, sizeof(*m));
	char err[MIX_ERR_LEN];

	m->n = 7;
	cr_assert_eq(tune_mix_load(path, m, err, sizeof(err)), rc, "%s: %s", path,
		     err);
	cr_assert(!strncmp(err, path, strlen(path)) &&
		  err[strlen(path)] == ':', "error does not start with the "
		  "file: %s", err);
	cr_assert(strstr(err, phrase), "%s: error lacks '%s': %s", path,
		  phrase, err);
	cr_assert_eq(m->n, 0);
	free(m);
}

/* scratch_file - a file in a fresh temporary directory holding @body. */
static void scratch_file(char *path, size_t len, const char *name,
			 const char *body)
{
	char dir[] = "/tmp/memtune-mix-XXXXXX";
	FILE *f;

	cr_assert(mkdtemp(dir));
	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert(f);
	fputs(body, f);
	fclose(f);
}

Test(mix, empty_file_is_refused)
{
	char path[256];

	scratch_file(path, sizeof(path), "empty.yaml", "");
	refused(path, MEMCAL_ESYNTAX, "the mix file is empty (or holds only "
		"comments): it needs at least 'name:' and 'workloads:'");
}

Test(mix, comment_only_file_is_refused)
{
	char path[256];

	scratch_file(path, sizeof(path), "c.yaml", "# nothing\n\n# here\n");
	refused(path, MEMCAL_ESYNTAX, "the mix file is empty");
	scratch_file(path, sizeof(path), "d.yaml", "---\n...\n");
	refused(path, MEMCAL_ESYNTAX, "the mix file is empty");
}

Test(mix, dev_null_is_refused)
{
	refused("/dev/null", MEMCAL_ESYNTAX, "empty");
}

Test(mix, directory_is_refused)
{
	refused(FIX, MEMCAL_EIO, "is a directory: give the mix file (YAML) "
		"itself");
}

Test(mix, huge_file_is_refused)
{
	char path[256], cmd[512];

	scratch_file(path, sizeof(path), "huge.yaml", "");
	cr_assert_eq(truncate(path, 3 << 20), 0);
	refused(path, MEMCAL_EIO, "is 3145728 bytes: a mix file is at most "
		"1048576 bytes");
	refused("/dev/zero", MEMCAL_EIO, "holds more than 1048576 bytes");
	snprintf(cmd, sizeof(cmd), "rm -f %s", path);
	cr_assert_eq(system(cmd), 0);
}

Test(mix, fifo_without_writer_does_not_hang, .timeout = 10)
{
	char path[256];

	scratch_file(path, sizeof(path), "fifo", "");
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(mkfifo(path, 0600), 0);
	refused(path, MEMCAL_EIO, "is a pipe that no program is writing to");
	unlink(path);
}

Test(mix, pipe_with_writer_is_read, .timeout = 10)
{
	struct mix *m = calloc(1, sizeof(*m));
	char path[64], err[MIX_ERR_LEN];
	int fd[2];
	pid_t pid;

	cr_assert_eq(pipe(fd), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		const char body[] = "name: piped\nworkloads:\n  - name: a\n"
				    "    command: /bin/true\n"
				    "    criticality: be\n";

		close(fd[0]);
		usleep(100000);	/* the reader is waiting by now */
		_exit(write(fd[1], body, sizeof(body) - 1) !=
		      (ssize_t)sizeof(body) - 1);
	}
	close(fd[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd[0]);
	cr_assert_eq(tune_mix_load(path, m, err, sizeof(err)), MEMCAL_OK, "%s", err);
	cr_assert_str_eq(m->name, "piped");
	cr_assert_eq(m->n, 1);
	close(fd[0]);
	waitpid(pid, NULL, 0);
	tune_mix_free(m);
	free(m);
}
Test(mix, bad_two_documents) { check_broken("bad_two_documents.yaml"); }
Test(mix, bad_utf8) { check_broken("bad_utf8.yaml"); }
Test(mix, bad_empty_value) { check_broken("bad_empty_value.yaml"); }
Test(mix, bad_too_many) { check_broken("bad_too_many.yaml"); }
Test(mix, bad_deep) { check_broken("bad_deep.yaml"); }

Test(mix, shipped_example_loads)
{
	struct mix *m = calloc(1, sizeof(*m));
	char err[MIX_ERR_LEN];

	cr_assert_eq(tune_mix_load(MEMCAL_SOURCE_DIR "/tuner/examples/example.yaml",
			      m, err, sizeof(err)), MEMCAL_OK, "%s", err);
	cr_assert_str_eq(m->name, "example");
	cr_assert_geq(m->n, 2);
	tune_mix_free(m);
	free(m);
}
