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
 *   ovh_profile [--cells PATTERNS] [--top N] [--base BASEDIR] DIR
 *
 * DIR: a bench/overhead/run.sh --profile folder: table-raw.txt (the
 * guest's OVH-STATS, OVH-PROF, OVH-MODULE-RANGE and OVH-SYM lines),
 * prof-L.txt (the plugin's file of boot L) and kallsyms.txt (the guest
 * kernel's text symbols: Debian's System.map is a stub, the real one is
 * in the -dbg package).  --top N: each cell's N symbols whose
 * instructions per period changed most between C and C'.  --base: the
 * same of another module (run.sh --base REV), and a table of memreg's
 * own instructions per period, base against DIR, cell by cell.
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

/**
 * struct profile - one run.sh --profile folder, attributed
 * @cells:        the selected cells
 * @ncells:       how many
 * @names:        symbol names (kernel's, then "memreg:..." and the
 *                unknown parts'), @nnames of them
 * @memreg_from:  the first name after the kernel's
 * @ksym:         the kernel's text symbols, sorted, @nksym of them
 * @map_text:     _stext in kallsyms.txt
 * @kernel_text:  _stext in each boot, @have_text: seen
 * @unknown_name: per part, the name of instructions outside any symbol
 * @bysyms:       per-symbol sums wanted (--top, --base)
 */
struct profile {
	struct cell_prof cells[OVH_CELLS_MAX];
	size_t ncells;
	char **names;
	size_t nnames, namecap, memreg_from;
	struct sym *ksym;
	size_t nksym;
	uint64_t map_text;
	uint64_t kernel_text[MAXL];
	bool have_text[MAXL];
	unsigned unknown_name[PARTS];
	bool bysyms;
};

static unsigned top;

/* name_of - the index of @s in the name table, added if new (linear:
 * only memreg's few hundred functions are looked up this way). */
static int name_of(struct profile *pf, const char *s, size_t from,
		   unsigned *out)
{
	for (size_t i = from; i < pf->nnames; i++)
		if (!strcmp(pf->names[i], s)) {
			*out = (unsigned)i;
			return 0;
		}
	if (pf->nnames == pf->namecap) {
		size_t cap = pf->namecap ? pf->namecap * 2 : 1024;
		char **n = realloc(pf->names, cap * sizeof(*n));

		if (!n)
			return -1;
		pf->names = n;
		pf->namecap = cap;
	}
	if (!(pf->names[pf->nnames] = strdup(s)))
		return -1;
	*out = (unsigned)pf->nnames++;
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

/* read_map - the kernel's text symbols; its _stext into pf->map_text. */
static int read_map(struct profile *pf, const char *path)
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
			pf->map_text = a;
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		/* kernel pf->names are taken as they come: no search */
		if (name_of(pf, name, pf->nnames, &id) ||
		    sym_push(&pf->ksym, &pf->nksym, &cap, a, id)) {
			fclose(f);
			fprintf(stderr, "ovh_profile: out of memory\n");
			return -1;
		}
	}
	fclose(f);
	if (!pf->map_text || !pf->nksym) {
		fprintf(stderr, "ovh_profile: %s: no _stext or no text symbols: "
			"not the kernel's kallsyms\n", path);
		return -1;
	}
	qsort(pf->ksym, pf->nksym, sizeof(*pf->ksym), cmp_sym);
	return 0;
}

/* cell_load - the cell and load a raw line pf->names; NULL if none. */
static struct window_load *cell_load(struct profile *pf, const char *line,
				     struct cell_prof **cp)
{
	char name[OVH_CELL_NAME];
	long long l;

	if (ovh_field(line, "cell", name, sizeof(name)) ||
	    ovh_num(line, "load", &l) || l < 0 || l >= MAXL)
		return NULL;
	for (size_t i = 0; i < pf->ncells; i++)
		if (!strcmp(pf->cells[i].cell.name, name)) {
			*cp = &pf->cells[i];
			return &pf->cells[i].load[l];
		}
	return NULL;
}

/* read_raw - the guest lines the profile needs. */
static int read_raw(struct profile *pf, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f) {
		fprintf(stderr, "ovh_profile: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct cell_prof *c;
		struct window_load *w = cell_load(pf, line, &c);
		long long v, l;
		unsigned long long a;

		if (!strncmp(line, "OVH-PROF load=", 14)) {
			if (ovh_num(line, "load", &l) || l < 0 || l >= MAXL ||
			    ovh_hex(line, "kernel_text", &a))
				goto bad;
			pf->kernel_text[l] = a;
			pf->have_text[l] = true;
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
			if (ovh_hex(line, "base", &a) ||
			    ovh_num(line, "size", &v) || v <= 0)
				goto bad;
			w->base = a;
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
			if (name_of(pf, full, pf->memreg_from, &id) ||
			    sym_push(&w->msym, &w->nmsym, &w->msymcap, sa, id))
				goto bad;
		}
	}
	fclose(f);
	for (size_t i = 0; i < pf->ncells; i++)
		for (unsigned l = 0; l < MAXL; l++)
			if (pf->cells[i].load[l].nmsym)
				qsort(pf->cells[i].load[l].msym,
				      pf->cells[i].load[l].nmsym,
				      sizeof(struct sym), cmp_sym);
	return 0;
bad:
	fprintf(stderr, "ovh_profile: %s: malformed or unstorable line: %s",
		path, line);
	fclose(f);
	return -1;
}

/* attribute - one block's @execs runs of @insns instructions at @vaddr,
 * in window @win of load @l of cell @c. */
static void attribute(struct profile *pf, struct cell_prof *c, unsigned l,
		      int win,
		      uint64_t vaddr, uint64_t insns, uint64_t execs)
{
	struct window_load *w = &c->load[l];
	uint64_t off = pf->kernel_text[l] - pf->map_text;

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
			s = sym_find(pf->ksym, pf->nksym, a - off);
		}
		w->sum[win][p] += execs;
		if (!c->bysym[win])
			continue;
		name = s ? s->name : pf->unknown_name[p];
		c->bysym[win][name] += (double)execs;
		if (s && s->addr == (p == KERNEL ? a - off : a))
			c->calls[win][name] += (double)execs;
	}
}

/* read_dumps - boot @l's plugin file: each cell window's blocks. */
static int read_dumps(struct profile *pf, const char *dir, unsigned l)
{
	static struct { struct cell_prof *c; int win; } want[MAXDUMP];
	char path[4096], line[256];
	struct cell_prof *cur = NULL;
	int win = 0;
	FILE *f;

	memset(want, 0, sizeof(want));
	for (size_t i = 0; i < pf->ncells; i++) {
		struct window_load *w = &pf->cells[i].load[l];

		for (int k = 0; w->have && k < 2; k++) {
			want[w->dump[k]].c = &pf->cells[i];
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
				attribute(pf, cur, l, win, a, n, e);
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
static void print_top(const struct profile *pf, const struct cell_prof *c)
{
	unsigned *order = malloc(pf->nnames * sizeof(*order));

	if (!order || c->periods_all <= 0) {
		free(order);
		return;
	}
	for (size_t i = 0; i < pf->nnames; i++)
		order[i] = (unsigned)i;
	sorting = c;
	qsort(order, pf->nnames, sizeof(*order), cmp_abs_delta);
	printf("\n%s: the %u symbols that changed most, instructions per "
	       "period over every load; entries per period and instructions "
	       "per entry in C'\n%-44s %10s %10s %10s %9s %9s\n",
	       c->cell.name, top, "symbol", "C", "C'", "C' - C", "entries",
	       "per entry");
	for (unsigned i = 0; i < top && i < pf->nnames; i++) {
		unsigned k = order[i];
		double n = c->calls[1][k];

		printf("%-44.44s %10.1f %10.1f %+10.1f %9.3f %9.1f\n",
		       pf->names[k], c->bysym[0][k] / (double)c->periods_all,
		       c->bysym[1][k] / (double)c->periods_all, delta_of(k),
		       n / (double)c->periods_all,
		       n > 0 ? c->bysym[1][k] / n : NAN);
	}
	free(order);
}

/* report - the table, and with --top each cell's symbols; 0, or 1 when
 * a cell has no profiled load. */
static int report(struct profile *pf)
{
	int rc = 0;

	printf("instructions per period of the measured CPU (both vCPUs), "
	       "median over loads [min..max]:\n"
	       "memreg: memreg's own code in the C' runs; kernel+, task+, "
	       "all+: the rest of the kernel, the task, everything, C' runs "
	       "less C runs\n");
	printf("%-34s %5s  %8s %17s  %8s %17s  %8s %17s  %8s %17s\n", "cell",
	       "loads", "memreg", "", "kernel+", "", "task+", "", "all+", "");
	for (size_t i = 0; i < pf->ncells; i++) {
		struct cell_prof *c = &pf->cells[i];
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
	for (size_t i = 0; top && i < pf->ncells; i++)
		print_top(pf, &pf->cells[i]);
	return rc;
}

/* load - read run.sh --profile folder @dir for the cells of @pat into
 * @pf (allocated here); 0, 1 on a bad file, 2 on bad patterns. */
static int load(struct profile *pf, const char *dir, const char *pat)
{
	static struct ovh_cell sel[OVH_CELLS_MAX];
	char path[4096], why[256];

	if (ovh_cells_select(pat, sel, OVH_CELLS_MAX, &pf->ncells, why,
			     sizeof(why))) {
		fprintf(stderr, "ovh_profile: %s\n", why);
		return 2;
	}
	for (size_t i = 0; i < pf->ncells; i++)
		pf->cells[i].cell = sel[i];
	snprintf(path, sizeof(path), "%s/kallsyms.txt", dir);
	if (read_map(pf, path))
		return 1;
	pf->memreg_from = pf->nnames;
	snprintf(path, sizeof(path), "%s/table-raw.txt", dir);
	if (name_of(pf, "memreg:?", pf->memreg_from, &pf->unknown_name[MEMREG]) ||
	    name_of(pf, "kernel:?", pf->memreg_from, &pf->unknown_name[KERNEL]) ||
	    name_of(pf, "[task]", pf->memreg_from, &pf->unknown_name[TASK]) ||
	    read_raw(pf, path))
		return 1;
	for (size_t i = 0; pf->bysyms && i < pf->ncells; i++)
		for (int k = 0; k < 2; k++)
			if (!(pf->cells[i].bysym[k] = calloc(pf->nnames,
							     sizeof(double))) ||
			    !(pf->cells[i].calls[k] = calloc(pf->nnames,
							     sizeof(double)))) {
				fprintf(stderr, "ovh_profile: out of memory\n");
				return 1;
			}
	for (unsigned l = 0; l < MAXL; l++) {
		bool any = false;

		for (size_t i = 0; i < pf->ncells; i++)
			any |= pf->cells[i].load[l].have;
		if (!any)
			continue;
		if (!pf->have_text[l]) {
			fprintf(stderr, "ovh_profile: %s: no OVH-PROF "
				"kernel_text line for load %u\n", path, l);
			return 1;
		}
		if (read_dumps(pf, dir, l))
			return 1;
	}
	return 0;
}

/* name_find - the index of @name in @pf's memreg names, or -1. */
static long name_find(const struct profile *pf, const char *name)
{
	for (size_t i = pf->memreg_from; i < pf->nnames; i++)
		if (!strcmp(pf->names[i], name))
			return (long)i;
	return -1;
}

/* Entry points whose rates the comparison shows: name, column. */
static const struct { const char *name, *col; } rates[] = {
	{ "memreg:mrk_timer_fn", "timer" },
	{ "memreg:memreg_master_tick", "tick" },
	{ "memreg:mrk_overflow_work", "ovf" },
};
#define NRATES	(sizeof(rates) / sizeof(rates[0]))
/* The predictor: unchanged code whose cost depends on the demand seen. */
#define LMS_NAME	"memreg:memreg_lms_update"
/* The module's PLT veneers (ovh_prof_guest.c): their use depends on
 * where KASLR put the module, load by load. */
#define PLT_NAME	"memreg:[.plt]"

/**
 * struct cell_sum - a cell's memreg figures over every load, per period
 * @memreg: memreg's own instructions in the C' runs
 * @lms:    of which the LMS predictor's
 * @plt:    of which the PLT veneers'
 * @rate:   entries of each of rates[]
 */
struct cell_sum {
	double memreg, lms, plt, rate[NRATES];
};

/* cell_sum - @c's figures (NAN without a profiled load). */
static struct cell_sum cell_sum(const struct profile *pf,
				const struct cell_prof *c)
{
	struct cell_sum cs = { NAN, NAN, NAN, { NAN, NAN, NAN } };
	double mem = 0, periods = 0;
	long k;

	for (unsigned l = 0; l < MAXL; l++) {
		const struct window_load *w = &c->load[l];

		if (!w->have || !w->seen[0] || !w->seen[1] || w->periods <= 0)
			continue;
		mem += (double)w->sum[1][MEMREG];
		periods += (double)w->periods;
	}
	if (periods <= 0)
		return cs;
	cs.memreg = mem / periods;
	k = name_find(pf, LMS_NAME);
	cs.lms = k < 0 ? 0 : c->bysym[1][k] / periods;
	k = name_find(pf, PLT_NAME);
	cs.plt = k < 0 ? 0 : c->bysym[1][k] / periods;
	for (size_t i = 0; i < NRATES; i++) {
		k = name_find(pf, rates[i].name);
		cs.rate[i] = k < 0 ? 0 : c->calls[1][k] / periods;
	}
	return cs;
}

/*
 * compare - memreg's own instructions per period in @base and @pf, cell
 * by cell; returns how many cells are dearer without the predictor.
 */
static int compare(const struct profile *base, const struct profile *pf)
{
	unsigned dearer = 0, moved = 0, rates_differ = 0, n = 0;

	printf("\nmemreg's own instructions per period of the measured CPU "
	       "(both vCPUs), C' runs, over every load, base against this "
	       "module;\ncode: the same without the LMS predictor (unchanged "
	       "code whose cost follows the demand it sees) and the PLT "
	       "veneers (their use follows where KASLR put the module);\n"
	       "entries per period of the period timer, the master tick and "
	       "the overflow work\n");
	printf("%-34s %8s %8s %7s  %8s %8s %7s  %13s %13s %13s  %s\n", "cell",
	       "base", "this", "diff", "code", "code", "diff", "timer", "tick",
	       "ovf", "verdict");
	for (size_t i = 0; i < pf->ncells; i++) {
		const struct cell_prof *c = &pf->cells[i];
		const struct cell_prof *b = NULL;
		struct cell_sum x, y;
		double xc, yc;
		bool differ = false;
		const char *v;

		for (size_t j = 0; j < base->ncells; j++)
			if (!strcmp(base->cells[j].cell.name, c->cell.name))
				b = &base->cells[j];
		if (!b)
			continue;
		x = cell_sum(base, b);
		y = cell_sum(pf, c);
		if (isnan(x.memreg) && isnan(y.memreg))
			continue;	/* measured in neither run */
		xc = x.memreg - x.lms - x.plt;
		yc = y.memreg - y.lms - y.plt;
		printf("%-34s %8.0f %8.0f %+7.0f  %8.0f %8.0f %+7.0f ",
		       c->cell.name, x.memreg, y.memreg, y.memreg - x.memreg,
		       xc, yc, yc - xc);
		for (size_t r = 0; r < NRATES; r++) {
			printf(" %6.3f>%6.3f", x.rate[r], y.rate[r]);
			differ |= fabs(y.rate[r] - x.rate[r]) >
				  0.02 * fmax(x.rate[r], y.rate[r]);
		}
		if (isnan(x.memreg) || isnan(y.memreg)) {
			v = "no figures";
		} else if (y.memreg <= x.memreg) {
			v = "not dearer";
		} else if (yc <= xc) {
			v = "code not dearer";
			moved++;
		} else {
			v = "DEARER";
			dearer++;
		}
		rates_differ += differ;
		n++;
		printf("  %s%s\n", v, differ ? " (rates differ)" : "");
	}
	printf("%u cells: %u dearer, %u dearer only in the predictor or the "
	       "veneers, %u with entry rates more than 2 %% apart (the "
	       "emulator's timer delivery: bench/overhead/README.md)\n", n,
	       dearer, moved, rates_differ);
	return (int)dearer;
}

static int usage(FILE *f, int rc)
{
	fprintf(f, "usage: ovh_profile [--cells PATTERNS] [--top N] "
		"[--base BASEDIR] DIR\n");
	return rc;
}

int main(int argc, char **argv)
{
	static struct profile pf, base;
	const char *dir = NULL, *bdir = NULL, *pat = "all";
	int i, rc;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return usage(stdout, 0);
		if (a[0] != '-') {
			if (dir)
				return usage(stderr, 2);
			dir = a;
			continue;
		}
		if (!v)
			return usage(stderr, 2);
		if (!strcmp(a, "--cells"))
			pat = v;
		else if (!strcmp(a, "--base"))
			bdir = v;
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
	if (!dir)
		return usage(stderr, 2);
	pf.bysyms = top || bdir;
	base.bysyms = true;
	if ((rc = load(&pf, dir, pat)) || (bdir && (rc = load(&base, bdir, pat))))
		return rc;
	rc = report(&pf);
	if (bdir && compare(&base, &pf))
		rc = 1;
	return rc;
}
