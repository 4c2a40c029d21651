// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ovh_profile.c - bench/overhead's instruction profile: the QEMU
 * plugin (ovh_insn_plugin) counts a bare-metal AArch64 program's
 * instructions exactly and splits them at its markers
 * (tests/fixtures/overhead/marks.S, run under qemu-system-aarch64
 * -icount, as the bench runs its guest); ovh_profile attributes a dump
 * to memreg, the kernel (relocated kallsyms) and the task, per period,
 * compares memreg's cost with a base module's, and refuses what it
 * cannot read.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell.h"

#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/overhead/"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ovh-profile-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(test_sh_buf(cmd, NULL, 0), 0);
}

TestSuite(ovh_profile, .init = make_dir, .fini = remove_dir);

/* window_sums - the instructions of each "M n" dump and of the "E" one
 * in the plugin file @path; how many windows. */
static int window_sums(const char *path, uint64_t *sum, int max)
{
	FILE *f = fopen(path, "r");
	char line[128];
	int w = -1;

	cr_assert_not_null(f, "no plugin output %s", path);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, n, e;

		if (line[0] == 'M' || line[0] == 'E') {
			cr_assert_lt(w + 1, max);
			sum[++w] = 0;
		} else if (sscanf(line, "T %llx %llu %llu", &a, &n, &e) == 3) {
			cr_assert_geq(w, 0, "a block before any marker");
			sum[w] += n * e;
		}
	}
	fclose(f);
	return w + 1;
}

Test(ovh_profile, plugin_counts_every_instruction_between_markers)
{
	char cmd[2048], out[4096];
	uint64_t sum[8];
	int n;

	/* an arm64 host builds it with its own compiler */
	snprintf(cmd, sizeof(cmd),
		 "cc=aarch64-linux-gnu-gcc; [ \"$(uname -m)\" = aarch64 ] && "
		 "cc=cc; \"$cc\" -nostdlib -static "
		 "-Wl,-Ttext=0x40080000 -o '%s/m.elf' '%smarks.S' 2>&1 && "
		 "timeout 60 qemu-system-aarch64 -M virt -cpu max "
		 "-display none -monitor none -serial none -semihosting "
		 "-accel tcg,thread=single -icount shift=0 -kernel '%s/m.elf' "
		 "-plugin '%s',out='%s/prof.txt' 2>&1", dir, FIX, dir,
		 OVH_INSN_PLUGIN, dir);
	cr_assert_eq(test_sh_buf(cmd, out, sizeof(out)), 0,
		     "the program did not build or run to its exit "
		     "(scripts/setup installs the arm64 cross compiler and "
		     "qemu-system-arm):\n%s", out);
	snprintf(cmd, sizeof(cmd), "%s/prof.txt", dir);
	n = window_sums(cmd, sum, 8);
	cr_assert_eq(n, 3, "two markers and the exit: %d dumps", n);
	/* every instruction once: mov, 1000 x 2, hint, mov, 500 x 2, hint,
	 * adr, mov, hlt */
	cr_assert_eq(sum[0] + sum[1] + sum[2], 3007,
		     "%" PRIu64 " + %" PRIu64 " + %" PRIu64, sum[0], sum[1],
		     sum[2]);
	/* the first window ends at its marker's block: the marker (2002
	 * instructions from the start) plus at most that block's rest */
	cr_assert(sum[0] >= 2002 && sum[0] <= 2005, "%" PRIu64, sum[0]);
	cr_assert(sum[1] >= 1002 - 3 && sum[1] <= 1005, "%" PRIu64, sum[1]);
}

Test(ovh_profile, plugin_refuses_bad_arguments)
{
	char cmd[1024], out[4096];

	snprintf(cmd, sizeof(cmd),
		 "timeout 30 qemu-system-aarch64 -M virt -display none "
		 "-monitor none -serial none -plugin '%s',bogus=1 2>&1",
		 OVH_INSN_PLUGIN);
	cr_assert_neq(test_sh_buf(cmd, out, sizeof(out)), 0);
	cr_assert_not_null(strstr(out, "unknown argument 'bogus=1'"), "%s",
			   out);
	snprintf(cmd, sizeof(cmd),
		 "timeout 30 qemu-system-aarch64 -M virt -display none "
		 "-monitor none -serial none -plugin '%s' 2>&1",
		 OVH_INSN_PLUGIN);
	cr_assert_neq(test_sh_buf(cmd, out, sizeof(out)), 0);
	cr_assert_not_null(strstr(out, "no out=FILE"), "%s", out);
}

#define CELL "monitor-1000-cpu0-mother-modes"

/* synthetic_in - in folder @d, a boot whose kernel sits 2 MiB above the
 * kallsyms' boot, memreg at 0xffff800001000000, and one cell with 10
 * periods. */
static void synthetic_in(const char *d, const char *dump)
{
	test_put(d, "kallsyms.txt",
		 "ffff800008010000 T _stext\n"
		 "ffff800008010000 T func_a\n"
		 "ffff800008010100 t func_b\n"
		 "ffff800008010200 D not_text\n");
	test_put(d, "table-raw.txt",
		 "OVH-PROF load=0 kernel_text=ffff800008210000\n"
		 "OVH-MODULE-RANGE cell=" CELL " load=0 "
		 "base=ffff800001000000 size=8192\n"
		 "OVH-SYM cell=" CELL " load=0 ffff800001000000 mrk_timer_fn\n"
		 "OVH-SYM cell=" CELL " load=0 ffff800001000080 "
		 "memreg_replenish\n"
		 "OVH-STATS cell=" CELL " load=0 kind=monitor periods=10 "
		 "overflows=0\n"
		 "OVH-PROF cell=" CELL " load=0 c=1 cp=3\n");
	test_put(d, "prof-0.txt", dump);
}

static void synthetic(const char *dump)
{
	synthetic_in(dir, dump);
}

/* A dump: C window 1 (task 1000, func_a 100), C' window 3 (task 1000,
 * func_a 160 + 10, func_b 10, mrk_timer_fn 10, memreg_replenish 10). */
static const char dump_ok[] =
	"# ovh-insn-profile 1\n"
	"M 0\n"
	"T ffff800008210000 4 1000\n"
	"M 1\n"
	"T 400000 10 100\n"
	"T ffff800008210000 2 50\n"
	"M 2\n"
	"T ffff800008210100 4 1000\n"
	"M 3\n"
	"T 400000 10 100\n"
	"T ffff800008210000 2 80\n"
	"T ffff8000082100fc 2 10\n"
	"T ffff800001000078 4 5\n"
	"E\n"
	"T ffff800008210000 4 1000\n";

static int profile(const char *extra, char *out, size_t len)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "'%s' --cells " CELL " %s '%s' 2>&1",
		 OVH_PROFILE, extra, dir);
	return test_sh_buf(cmd, out, len);
}

/* numbers - the figures after the cell's name on its table row. */
static int numbers(const char *out, const char *after, double *v, int max)
{
	const char *p = strstr(out, after);
	int n = 0;

	cr_assert_not_null(p, "no '%s' in:\n%s", after, out);
	p += strlen(after);
	while (n < max && *p && *p != '\n') {
		char *end;
		double x = strtod(p, &end);

		if (end == p) {
			p++;
			continue;
		}
		v[n++] = x;
		p = end;
	}
	return n;
}

Test(ovh_profile, attributes_each_part_per_period)
{
	char out[8192];
	double v[16];

	synthetic(dump_ok);
	cr_assert_eq(profile("--top 4", out, sizeof(out)), 0, "%s", out);
	/* loads, then each part's median [min..max] (".." splits them) */
	cr_assert_eq(numbers(out, "\n" CELL " ", v, 16), 13, "%s", out);
	cr_assert_eq(v[0], 1);
	cr_assert_eq(v[1], 2, "memreg: 20 instructions / 10 periods\n%s", out);
	cr_assert_eq(v[4], 8, "kernel+: (180 - 100) / 10\n%s", out);
	cr_assert_eq(v[7], 0, "task+: the same work in C and C'\n%s", out);
	cr_assert_eq(v[10], 10, "all+\n%s", out);
	/* C, C', C' - C per period; entries per period, instructions per
	 * entry in C' */
	cr_assert_eq(numbers(out, "\nfunc_a ", v, 16), 5, "%s", out);
	cr_assert(v[0] == 10 && v[1] == 17 && v[2] == 7, "%s", out);
	cr_assert(v[3] == 8 && v[4] == 2.1, "80 entries, 170 instructions\n%s",
		  out);
	cr_assert_eq(numbers(out, "\nfunc_b ", v, 16), 5, "%s", out);
	cr_assert(v[0] == 0 && v[1] == 1 && v[2] == 1, "%s", out);
	cr_assert(v[3] == 1 && v[4] == 1, "entered mid-block\n%s", out);
	/* entered only mid-function: no entry, "nan" per entry */
	cr_assert_eq(numbers(out, "\nmemreg:mrk_timer_fn ", v, 16), 5, "%s",
		     out);
	cr_assert(v[1] == 1 && v[2] == 1 && v[3] == 0 && isnan(v[4]), "%s",
		  out);
	cr_assert_eq(numbers(out, "\nmemreg:memreg_replenish ", v, 16), 5,
		     "%s", out);
	cr_assert(v[1] == 1 && v[3] == 0.5 && v[4] == 2, "%s", out);
}

Test(ovh_profile, refuses_what_it_cannot_read)
{
	char out[8192], path[128];

	synthetic("# ovh-insn-profile 1\nM 1\nT ffff800008210000 two 3\n");
	cr_assert_eq(profile("", out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "malformed: T ffff800008210000 two"),
			   "%s", out);

	synthetic("# ovh-insn-profile 1\nF out of memory\n");
	cr_assert_eq(profile("", out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "out of memory"), "%s", out);

	synthetic(dump_ok);
	snprintf(path, sizeof(path), "%s/prof-0.txt", dir);
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(profile("", out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "prof-0.txt: No such file"), "%s", out);

	synthetic(dump_ok);
	test_put(dir, "kallsyms.txt", "ffff800008010200 D data_only\n");
	cr_assert_eq(profile("", out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "not the kernel's kallsyms"), "%s", out);

	synthetic(dump_ok);
	cr_assert_eq(profile("--top x", out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "--top 'x'"), "%s", out);
}

/* base_dump - @dump_ok with memreg's block run @execs times (the C'
 * window's memreg: 4 instructions each). */
static void base_dump(unsigned execs)
{
	char d[128], text[1024], *p;

	snprintf(d, sizeof(d), "%s/base", dir);
	cr_assert_eq(mkdir(d, 0755), 0);
	snprintf(text, sizeof(text), "%s", dump_ok);
	p = strstr(text, "T ffff800001000078 4 5\n");
	cr_assert_not_null(p);
	snprintf(p, sizeof(text) - (size_t)(p - text),
		 "T ffff800001000078 4 %u\nE\n", execs);
	synthetic_in(d, text);
}

/* with_base - profile() against the base folder; the comparison row's
 * figures into @v (base, this, difference; the same without the LMS
 * predictor; entry rates). */
static int with_base(char *out, size_t len, double *v)
{
	char extra[256];
	const char *row;
	int rc;

	snprintf(extra, sizeof(extra), "--base '%s/base'", dir);
	rc = profile(extra, out, len);
	row = strstr(out, "verdict\n");
	cr_assert_not_null(row, "no comparison in:\n%s", out);
	cr_assert_geq(numbers(row, "\n" CELL " ", v, 16), 6, "%s", out);
	return rc;
}

/* The comparison with a base whose memreg block ran @execs times. */
static const struct {
	unsigned execs;		/* base's: 4 instructions each */
	int rc;
	double base;		/* memreg per period, base's */
	const char *verdict, *summary;
} base_cases[] = {
	{ 50, 0, 20, "not dearer", "1 cells: 0 dearer" },
	{ 1, 1, 0.4, "DEARER", "1 cells: 1 dearer" },
};

Test(ovh_profile, compares_memreg_with_a_base)
{
	for (size_t i = 0; i < sizeof(base_cases) / sizeof(*base_cases); i++) {
		char out[8192], cmd[128];
		double v[16];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s/base'", dir);
		cr_assert_eq(test_sh_buf(cmd, NULL, 0), 0);
		synthetic(dump_ok);
		base_dump(base_cases[i].execs);
		cr_assert_eq(with_base(out, sizeof(out), v), base_cases[i].rc,
			     "%s", out);
		/* this module: 20 instructions over 10 periods */
		cr_assert(fabs(v[0] - base_cases[i].base) < 0.5 && v[1] == 2,
			  "%s", out);
		cr_assert_not_null(strstr(out, base_cases[i].verdict), "%s",
				   out);
		cr_assert_not_null(strstr(out, base_cases[i].summary), "%s",
				   out);
	}
}
