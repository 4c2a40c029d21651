// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_profile.c - where the instructions of bench/overhead's cells went:
 * the counts of the QEMU plugin (ovh_insn_plugin.c, one dump file per
 * boot) attributed to memreg's functions, the rest of the kernel
 * (the guest's kallsyms of one boot, relocated to each boot by its
 * _stext) and the task, per cell,
 * in the C runs (no module) and the C' runs (module loaded), per period
 * of the measured CPU.  Under -icount these are exact counts of what both
 * vCPUs executed, so they separate memreg's own cost from where the
 * emulator's timers happened to land (bench/overhead/README.md).
 *
 *   ovh_profile --raw RAW --dumps DIR --kallsyms FILE
 *               [--cells PATTERNS] [--top N]
 *
 * RAW: bench/overhead/run.sh --profile's table-raw.txt (OVH-STATS,
 * OVH-PROF, OVH-MODULE-RANGE and OVH-SYM lines); DIR: its prof-L.txt,
 * the plugin's file of boot L; FILE: the guest kernel's text symbols in
 * /proc/kallsyms form (run.sh's kallsyms.txt: Debian's System.map is a
 * stub, the real one is in the -dbg package).  --top N: each cell's N symbols whose
 * instructions per period changed most between C and C'.
 * Exit: 0, 1 when a cell has no profiled load or a file is unreadable or
 * malformed, 2 on bad arguments.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovh_cells.h"
#include "ovh_raw.h"

#define MAXL		16	/* loads */
#define MAXDUMP		4096	/* markers per boot */
/* Guest addresses below this are user space (AArch64, 48-bit VA). */
#define USER_TOP	0x0001000000000000ull
#define INSN_BYTES	4

/* What executed an instruction. */
enum part { MEMREG, KERNEL, TASK, PARTS };

/**
 * struct sym - a function's start
 * @addr: its address (memreg: in its load; kernel: in --kallsyms' boot)
 * @name: index into the name table
 */
struct sym {
	uint64_t addr;
	unsigned name;
};

/**
 * struct window_load - one cell's profile in one boot
 * @have:     its OVH-PROF line was seen
 * @periods:  the measured CPU's periods over the C' runs
 * @dump:     the plugin dumps holding the C runs [0] and C' runs [1]
 * @base:     memreg's core address and @size its size
 * @msym:     memreg's functions in this load, sorted, @nmsym of them
 * @sum:      instructions by window and part
 * @seen:     dumps found for the windows
 */
struct window_load {
	bool have;
	long long periods;
	unsigned dump[2];
	uint64_t base, size;
	struct sym *msym;
	size_t nmsym, msymcap;
	uint64_t sum[2][PARTS];
	bool seen[2];
};

/**
 * struct cell_prof - a cell's profile
 * @cell:  the cell
 * @load:  per boot
 * @bysym: with --top, instructions per name by window, over all loads
 * @calls: with --top, entries per name by window (its first instruction
 *         executed: a call, or a jump to its start), over all loads
 * @periods_all: periods over the loads that have a profile
 */
struct cell_prof {
	struct ovh_cell cell;
	struct window_load load[MAXL];
	double *bysym[2];
	double *calls[2];
	long long periods_all;
};

static struct cell_prof cells[OVH_CELLS_MAX];
static size_t ncells;
static char **names;
static size_t nnames, namecap;
static struct sym *ksym;
static size_t nksym;
static uint64_t map_text;
static uint64_t kernel_text[MAXL];
static bool have_text[MAXL];
static unsigned top;

/* name_of - the index of @s in the name table, added if new (linear:
 * only memreg's few hundred functions are looked up this way). */
static int name_of(const char *s, size_t from, unsigned *out)
{
	for (size_t i = from; i < nnames; i++)
		if (!strcmp(names[i], s)) {
			*out = (unsigned)i;
			return 0;
		}
	if (nnames == namecap) {
		size_t cap = namecap ? namecap * 2 : 1024;
		char **n = realloc(names, cap * sizeof(*n));

		if (!n)
			return -1;
		names = n;
		namecap = cap;
	}
	if (!(names[nnames] = strdup(s)))
		return -1;
	*out = (unsigned)nnames++;
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* sym_find - the function @addr falls in: the last start at or below it;
 * NULL below the first. */
static const struct sym *sym_find(const struct sym *s, size_t n,
				  uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &s[lo - 1] : NULL;
}

/* sym_push - append (@addr, @name) to @s. */
static int sym_push(struct sym **s, size_t *n, size_t *cap, uint64_t addr,
		    unsigned name)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		struct sym *t = realloc(*s, c * sizeof(*t));

		if (!t)
			return -1;
		*s = t;
		*cap = c;
	}
	(*s)[*n].addr = addr;
	(*s)[(*n)++].name = name;
	return 0;
}

/* read_map - the kernel's text symbols; its _stext into map_text. */
static int read_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], t;
	unsigned long long a;
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "ovh_profile: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned id;

		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
			continue;
		if (!strcmp(name, "_stext"))
			map_text = a;
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		/* kernel names are taken as they come: no search */
		if (name_of(name, nnames, &id) ||
		    sym_push(&ksym, &nksym, &cap, a, id)) {
			fclose(f);
			fprintf(stderr, "ovh_profile: out of memory\n");
			return -1;
		}
	}
	fclose(f);
	if (!map_text || !nksym) {
		fprintf(stderr, "ovh_profile: %s: no _stext or no text symbols: "
			"not the kernel's kallsyms\n", path);
		return -1;
	}
	qsort(ksym, nksym, sizeof(*ksym), cmp_sym);
	return 0;
}

/* cell_load - the cell and load a raw line names; NULL if none. */
static struct window_load *cell_load(const char *line, struct cell_prof **cp)
{
	char name[OVH_CELL_NAME];
	long long l;

	if (ovh_field(line, "cell", name, sizeof(name)) ||
	    ovh_num(line, "load", &l) || l < 0 || l >= MAXL)
		return NULL;
	for (size_t i = 0; i < ncells; i++)
		if (!strcmp(cells[i].cell.name, name)) {
			*cp = &cells[i];
			return &cells[i].load[l];
		}
	return NULL;
}

/* hexfield - the hexadecimal " KEY=" of @line; 0 or -1. */
static int hexfield(const char *line, const char *key, uint64_t *v)
{
	char b[32], *end;

	if (ovh_field(line, key, b, sizeof(b)))
		return -1;
	errno = 0;
	*v = strtoull(b, &end, 16);
	return errno || end == b || *end ? -1 : 0;
}

/* read_raw - the guest lines the profile needs. */
static int read_raw(const char *path, size_t memreg_from)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f) {
		fprintf(stderr, "ovh_profile: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct cell_prof *c;
		struct window_load *w = cell_load(line, &c);
		long long v, l;
		uint64_t a;

		if (!strncmp(line, "OVH-PROF load=", 14)) {
			if (ovh_num(line, "load", &l) || l < 0 || l >= MAXL ||
			    hexfield(line, "kernel_text", &a))
				goto bad;
			kernel_text[l] = a;
			have_text[l] = true;
		} else if (!w) {
			continue;
		} else if (!strncmp(line, "OVH-PROF ", 9)) {
			if (ovh_num(line, "c", &v) || v < 0 || v >= MAXDUMP ||
			    ovh_num(line, "cp", &l) || l < 0 || l >= MAXDUMP)
				goto bad;
			w->dump[0] = (unsigned)v;
			w->dump[1] = (unsigned)l;
			w->have = true;
		} else if (!strncmp(line, "OVH-STATS ", 10)) {
			if (ovh_num(line, "periods", &w->periods))
				goto bad;
		} else if (!strncmp(line, "OVH-MODULE-RANGE ", 17)) {
			if (hexfield(line, "base", &w->base) ||
			    ovh_num(line, "size", &v) || v <= 0)
				goto bad;
			w->size = (uint64_t)v;
		} else if (!strncmp(line, "OVH-SYM ", 8)) {
			char name[256], full[300];
			unsigned long long sa;
			unsigned id;
			const char *p = strstr(line, " load=");

			p = p ? strchr(p + 1, ' ') : NULL;
			if (!p || sscanf(p, " %llx %255s", &sa, name) != 2)
				goto bad;
			snprintf(full, sizeof(full), "memreg:%s", name);
			if (name_of(full, memreg_from, &id) ||
			    sym_push(&w->msym, &w->nmsym, &w->msymcap, sa, id))
				goto bad;
		}
	}
	fclose(f);
	for (size_t i = 0; i < ncells; i++)
		for (unsigned l = 0; l < MAXL; l++)
			if (cells[i].load[l].nmsym)
				qsort(cells[i].load[l].msym,
				      cells[i].load[l].nmsym,
				      sizeof(struct sym), cmp_sym);
	return 0;
bad:
	fprintf(stderr, "ovh_profile: %s: malformed or unstorable line: %s",
		path, line);
	fclose(f);
	return -1;
}

/* Names of the parts an instruction falls in outside any symbol. */
static unsigned unknown_name[PARTS];

/* attribute - one block's @execs runs of @insns instructions at @vaddr,
 * in window @win of load @l of cell @c. */
static void attribute(struct cell_prof *c, unsigned l, int win,
		      uint64_t vaddr, uint64_t insns, uint64_t execs)
{
	struct window_load *w = &c->load[l];
	uint64_t off = kernel_text[l] - map_text;

	for (uint64_t i = 0; i < insns; i++) {
		uint64_t a = vaddr + i * INSN_BYTES;
		const struct sym *s = NULL;
		enum part p;
		unsigned name;

		if (a < USER_TOP) {
			p = TASK;
		} else if (a >= w->base && a - w->base < w->size) {
			p = MEMREG;
			s = sym_find(w->msym, w->nmsym, a);
		} else {
			p = KERNEL;
			s = sym_find(ksym, nksym, a - off);
		}
		w->sum[win][p] += execs;
		if (!c->bysym[win])
			continue;
		name = s ? s->name : unknown_name[p];
		c->bysym[win][name] += (double)execs;
		if (s && s->addr == (p == KERNEL ? a - off : a))
			c->calls[win][name] += (double)execs;
	}
}

/* read_dumps - boot @l's plugin file: each cell window's blocks. */
static int read_dumps(const char *dir, unsigned l)
{
	static struct { struct cell_prof *c; int win; } want[MAXDUMP];
	char path[4096], line[256];
	struct cell_prof *cur = NULL;
	int win = 0;
	FILE *f;

	memset(want, 0, sizeof(want));
	for (size_t i = 0; i < ncells; i++) {
		struct window_load *w = &cells[i].load[l];

		for (int k = 0; w->have && k < 2; k++) {
			want[w->dump[k]].c = &cells[i];
			want[w->dump[k]].win = k;
		}
	}
	snprintf(path, sizeof(path), "%s/prof-%u.txt", dir, l);
	if (!(f = fopen(path, "r"))) {
		fprintf(stderr, "ovh_profile: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, n, e;
		unsigned m;

		if (line[0] == 'M' && sscanf(line, "M %u", &m) == 1) {
			cur = m < MAXDUMP ? want[m].c : NULL;
			win = m < MAXDUMP ? want[m].win : 0;
			if (cur)
				cur->load[l].seen[win] = true;
		} else if (line[0] == 'E') {
			cur = NULL;
		} else if (line[0] == 'F') {
			fprintf(stderr, "ovh_profile: %s: the plugin ran out of "
				"memory; its counts are incomplete\n", path);
			fclose(f);
			return -1;
		} else if (line[0] == 'T') {
			if (sscanf(line, "T %llx %llu %llu", &a, &n, &e) != 3) {
				fprintf(stderr, "ovh_profile: %s: malformed: %s",
					path, line);
				fclose(f);
				return -1;
			}
			if (cur)
				attribute(cur, l, win, a, n, e);
		}
	}
	fclose(f);
	return 0;
}

/* per_period - @x instructions over @l's periods. */
static double per_period(double x, const struct window_load *w)
{
	return w->periods > 0 ? x / (double)w->periods : NAN;
}

/* print_med - a median [min..max] of @n values. */
static void print_med(const double *v, unsigned n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (unsigned i = 0; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	if (!n)
		printf("  %8s %17s", "-", "");
	else
		printf("  %8.0f [%7.0f..%7.0f]", ovh_median(v, n), lo, hi);
}

/* The cell whose symbols print_top() sorts (qsort has no argument). */
static const struct cell_prof *sorting;

static double delta_of(unsigned name)
{
	return (sorting->bysym[1][name] - sorting->bysym[0][name]) /
	       (double)sorting->periods_all;
}

static int cmp_abs_delta(const void *a, const void *b)
{
	double x = fabs(delta_of(*(const unsigned *)a));
	double y = fabs(delta_of(*(const unsigned *)b));

	return (x < y) - (x > y);
}

/* print_top - @c's symbols whose instructions per period changed most. */
static void print_top(const struct cell_prof *c)
{
	unsigned *order = malloc(nnames * sizeof(*order));

	if (!order || c->periods_all <= 0) {
		free(order);
		return;
	}
	for (size_t i = 0; i < nnames; i++)
		order[i] = (unsigned)i;
	sorting = c;
	qsort(order, nnames, sizeof(*order), cmp_abs_delta);
	printf("\n%s: the %u symbols that changed most, instructions per "
	       "period over every load; entries per period and instructions "
	       "per entry in C'\n%-44s %10s %10s %10s %9s %9s\n",
	       c->cell.name, top, "symbol", "C", "C'", "C' - C", "entries",
	       "per entry");
	for (unsigned i = 0; i < top && i < nnames; i++) {
		unsigned k = order[i];
		double n = c->calls[1][k];

		printf("%-44.44s %10.1f %10.1f %+10.1f %9.3f %9.1f\n",
		       names[k], c->bysym[0][k] / (double)c->periods_all,
		       c->bysym[1][k] / (double)c->periods_all, delta_of(k),
		       n / (double)c->periods_all,
		       n > 0 ? c->bysym[1][k] / n : NAN);
	}
	free(order);
}

/* report - the table, and with --top each cell's symbols; 0, or 1 when
 * a cell has no profiled load. */
static int report(void)
{
	int rc = 0;

	printf("instructions per period of the measured CPU (both vCPUs), "
	       "median over loads [min..max]:\n"
	       "memreg: memreg's own code in the C' runs; kernel+, task+, "
	       "all+: the rest of the kernel, the task, everything, C' runs "
	       "less C runs\n");
	printf("%-34s %5s  %8s %17s  %8s %17s  %8s %17s  %8s %17s\n", "cell",
	       "loads", "memreg", "", "kernel+", "", "task+", "", "all+", "");
	for (size_t i = 0; i < ncells; i++) {
		struct cell_prof *c = &cells[i];
		double v[PARTS + 1][MAXL];
		unsigned n = 0;

		for (unsigned l = 0; l < MAXL; l++) {
			const struct window_load *w = &c->load[l];
			double all = 0;

			if (!w->have || !w->seen[0] || !w->seen[1] ||
			    w->periods <= 0)
				continue;
			v[MEMREG][n] = per_period((double)w->sum[1][MEMREG], w);
			for (int p = KERNEL; p < PARTS; p++) {
				v[p][n] = per_period((double)w->sum[1][p] -
						     (double)w->sum[0][p], w);
				all += v[p][n];
			}
			v[PARTS][n] = all + v[MEMREG][n];
			n++;
			c->periods_all += w->periods;
		}
		printf("%-34s %5u", c->cell.name, n);
		for (int p = 0; p <= PARTS; p++)
			print_med(v[p], n);
		printf("\n");
		if (!n)
			rc = 1;
	}
	for (size_t i = 0; top && i < ncells; i++)
		print_top(&cells[i]);
	return rc;
}

static int usage(FILE *f, int rc)
{
	fprintf(f, "usage: ovh_profile --raw RAW --dumps DIR --kallsyms FILE "
		"[--cells PATTERNS] [--top N]\n");
	return rc;
}

int main(int argc, char **argv)
{
	static struct ovh_cell sel[OVH_CELLS_MAX];
	const char *raw = NULL, *dir = NULL, *map = NULL, *pat = "all";
	char why[256];
	size_t memreg_from;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return usage(stdout, 0);
		if (!v)
			return usage(stderr, 2);
		if (!strcmp(a, "--raw"))
			raw = v;
		else if (!strcmp(a, "--dumps"))
			dir = v;
		else if (!strcmp(a, "--kallsyms"))
			map = v;
		else if (!strcmp(a, "--cells"))
			pat = v;
		else if (!strcmp(a, "--top")) {
			char *end;
			long t = strtol(v, &end, 10);

			if (*end || end == v || t < 0 || t > 1000) {
				fprintf(stderr, "ovh_profile: --top '%s': a "
					"number 0..1000\n", v);
				return 2;
			}
			top = (unsigned)t;
		} else
			return usage(stderr, 2);
		i++;
	}
	if (!raw || !dir || !map)
		return usage(stderr, 2);
	if (ovh_cells_select(pat, sel, OVH_CELLS_MAX, &ncells, why,
			     sizeof(why))) {
		fprintf(stderr, "ovh_profile: %s\n", why);
		return 2;
	}
	for (size_t i = 0; i < ncells; i++)
		cells[i].cell = sel[i];
	if (read_map(map))
		return 1;
	memreg_from = nnames;
	if (name_of("memreg:?", memreg_from, &unknown_name[MEMREG]) ||
	    name_of("kernel:?", memreg_from, &unknown_name[KERNEL]) ||
	    name_of("[task]", memreg_from, &unknown_name[TASK]) ||
	    read_raw(raw, memreg_from))
		return 1;
	for (size_t i = 0; top && i < ncells; i++)
		for (int k = 0; k < 2; k++)
			if (!(cells[i].bysym[k] = calloc(nnames,
							 sizeof(double))) ||
			    !(cells[i].calls[k] = calloc(nnames,
							 sizeof(double)))) {
				fprintf(stderr, "ovh_profile: out of memory\n");
				return 1;
			}
	for (unsigned l = 0; l < MAXL; l++) {
		bool any = false;

		for (size_t i = 0; i < ncells; i++)
			any |= cells[i].load[l].have;
		if (!any)
			continue;
		if (!have_text[l]) {
			fprintf(stderr, "ovh_profile: %s: no OVH-PROF "
				"kernel_text line for load %u\n", raw, l);
			return 1;
		}
		if (read_dumps(dir, l))
			return 1;
	}
	rc = report();
	return rc;
}
