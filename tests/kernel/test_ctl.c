// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Criterion tests of memreg_ctl against a fake sysfs tree in a temporary
 * directory (regular files stand in for attributes; a directory in place
 * of an attribute makes the write fail like a refused sysfs store).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memreg_ctl.h"
#include "shell.h"

static char root[256];

/* Read ROOT/@rel into a static buffer. */
static const char *get(const char *rel)
{
	static char buf[512];
	char p[512];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "r");
	cr_assert_not_null(f, "open %s", p);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Build a fake /sys/kernel/memreg with cpu0 and cpu1. */
static void setup(void)
{
	static const char *const stats[] = {
		"periods", "throttles", "throttled_ns", "overruns", "read_events",
		"write_events", "read_budget", "write_budget", "read_predicted",
		"write_predicted", "read_pred_error", "write_pred_error",
		"read_donated", "write_donated", "read_reclaimed",
		"write_reclaimed", "running",
	};
	char p[512];

	snprintf(root, sizeof(root), "/tmp/memreg_ctl_test.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(p, sizeof(p), "%s/cpu%d", root, cpu);
		cr_assert_eq(mkdir(p, 0755), 0);
		for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
			char rel[128], val[32];

			snprintf(rel, sizeof(rel), "cpu%d/%s", cpu, stats[i]);
			snprintf(val, sizeof(val), "%zu\n", 100 * (size_t)cpu + i);
			test_put(root, rel, val);
		}
		snprintf(p, sizeof(p), "cpu%d/read_guaranteed", cpu);
		test_put(root, p, "1000\n");
	}
	test_put(root, "period_us", "1000\n");
	test_put(root, "commit", "");
	test_put(root, "error", "none\n");
}

/* Remove the fake tree. */
static void teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(ctl, .init = setup, .fini = teardown);

Test(ctl, stage_and_commit_write_values)
{
	struct memreg_ctl *c = memreg_ctl_open(root);

	cr_assert_not_null(c);
	cr_assert_eq(memreg_ctl_stage(c, "period_us", "2000"), 0);
	cr_assert_str_eq(get("period_us"), "2000\n");
	cr_assert_eq(memreg_ctl_stage_cpu(c, 1, "read_guaranteed", "77"), 0);
	cr_assert_str_eq(get("cpu1/read_guaranteed"), "77\n");
	cr_assert_eq(memreg_ctl_commit(c), 0);
	cr_assert_str_eq(get("commit"), "1\n");
	cr_assert_eq(memreg_ctl_discard(c), 0);
	cr_assert_str_eq(get("commit"), "0\n");
	memreg_ctl_close(c);
}

Test(ctl, root_from_environment_and_trailing_slash)
{
	char withslash[300];
	struct memreg_ctl *c;

	snprintf(withslash, sizeof(withslash), "%s//", root);
	setenv("MEMREG_SYSFS_ROOT", withslash, 1);
	c = memreg_ctl_open(NULL);
	cr_assert_str_eq(memreg_ctl_root(c), root);
	memreg_ctl_close(c);
	unsetenv("MEMREG_SYSFS_ROOT");
	c = memreg_ctl_open(NULL);
	cr_assert_str_eq(memreg_ctl_root(c), MEMREG_CTL_DEFAULT_ROOT);
	memreg_ctl_close(c);
}

Test(ctl, refused_write_reports_module_error)
{
	struct memreg_ctl *c = memreg_ctl_open(root);
	char p[512];

	/* a directory in place of the attribute: open(O_WRONLY) fails */
	snprintf(p, sizeof(p), "%s/lms_taps", root);
	cr_assert_eq(mkdir(p, 0755), 0);
	test_put(root, "error", "lms_taps: 99 out of range 1..16\n");
	cr_assert_lt(memreg_ctl_stage(c, "lms_taps", "99"), 0);
	cr_assert(strstr(memreg_ctl_error(c), "lms_taps") != NULL,
		  "error: %s", memreg_ctl_error(c));
	memreg_ctl_close(c);
}

Test(ctl, missing_attribute_is_enoent)
{
	struct memreg_ctl *c = memreg_ctl_open(root);
	uint64_t v;

	cr_assert_eq(memreg_ctl_read_u64(c, 5, "periods", &v), -ENOENT);
	cr_assert(strstr(memreg_ctl_error(c), "cpu5/periods") != NULL);
	memreg_ctl_close(c);
}

Test(ctl, bad_names_refused)
{
	struct memreg_ctl *c = memreg_ctl_open(root);
	char buf[16];

	cr_assert_eq(memreg_ctl_stage(c, "../etc/passwd", "x"), -EINVAL);
	cr_assert_eq(memreg_ctl_stage(c, "", "x"), -EINVAL);
	cr_assert_eq(memreg_ctl_read(c, -1, "a/b", buf, sizeof(buf)), -EINVAL);
	cr_assert_eq(memreg_ctl_stage_cpu(c, -1, "periods", "1"), -EINVAL);
	memreg_ctl_close(c);
}

Test(ctl, read_error_and_numbers)
{
	struct memreg_ctl *c = memreg_ctl_open(root);
	char buf[64];
	uint64_t v;

	cr_assert_eq(memreg_ctl_last_error(c, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "none");
	cr_assert_eq(memreg_ctl_read_u64(c, -1, "period_us", &v), 0);
	cr_assert_eq(v, 1000);
	test_put(root, "period_us", "12abc\n");
	cr_assert_eq(memreg_ctl_read_u64(c, -1, "period_us", &v), -EINVAL);
	memreg_ctl_close(c);
}

/* a CPU's statistics, by name, as memtune validate and memcal read them */
Test(ctl, cpu_stats_by_name)
{
	static const char *const name[] = { "periods", "throttles",
					    "throttled_ns", "read_events",
					    "write_events", "running" };
	static const uint64_t want[] = { 100, 101, 102, 104, 105, 116 };
	struct memreg_ctl *c = memreg_ctl_open(root);
	uint64_t v;

	for (size_t i = 0; i < sizeof(name) / sizeof(name[0]); i++) {
		cr_assert_eq(memreg_ctl_read_u64(c, 1, name[i], &v), 0, "%s",
			     memreg_ctl_error(c));
		cr_assert_eq(v, want[i], "%s: %" PRIu64, name[i], v);
	}
	cr_assert_eq(memreg_ctl_read_u64(c, 3, "periods", &v), -ENOENT);
	memreg_ctl_close(c);
}

Test(ctl, detect_memreg_other_none)
{
	struct memreg_ctl *c = memreg_ctl_open(root);
	struct memreg_ctl *gone;
	char mods[512], other[32] = "";
	char missing[300];

	cr_assert_eq(memreg_ctl_detect(c, "/nonexistent", NULL, 0), MEMREG_CTL_MEMREG);
	snprintf(missing, sizeof(missing), "%s/absent", root);
	gone = memreg_ctl_open(missing);
	snprintf(mods, sizeof(mods), "%s/modules", root);
	test_put(root, "modules", "ext4 1 0 - Live 0x0\nmemguard 20480 0 - Live 0x0\n");
	cr_assert_eq(memreg_ctl_detect(gone, mods, other, sizeof(other)), MEMREG_CTL_OTHER);
	cr_assert_str_eq(other, "memguard");
	test_put(root, "modules", "ext4 1 0 - Live 0x0\n");
	cr_assert_eq(memreg_ctl_detect(gone, mods, NULL, 0), MEMREG_CTL_NONE);
	test_put(root, "modules", "memreg 1 0 - Live 0x0\n");
	cr_assert_eq(memreg_ctl_detect(gone, mods, NULL, 0), MEMREG_CTL_MEMREG);
	memreg_ctl_close(gone);
	memreg_ctl_close(c);
}

Test(ctl, load_missing_file_and_unload_errors)
{
	struct memreg_ctl *c = memreg_ctl_open(root);

	cr_assert_eq(memreg_ctl_load(c, "/nonexistent/memreg.ko", "period_us=1000"), -ENOENT);
	cr_assert(strstr(memreg_ctl_error(c), "/nonexistent/memreg.ko") != NULL);
	/* this machine's kernel has no module support or no memreg loaded */
	cr_assert_lt(memreg_ctl_unload(c), 0);
	cr_assert_neq(memreg_ctl_error(c)[0], '\0');
	memreg_ctl_close(c);
}
