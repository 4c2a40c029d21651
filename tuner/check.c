// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - 'memtune check': compare a tuned configuration's provenance
 * with the unit it runs on, item by item (check.h).
 *
 * File map:
 *   names, cpu identity in words    tune_check_item_name(), describe()
 *   machine items                   check_cpus(), check_pmus(), check_mem_*(),
 *                                   check_smt(), check_kernel(), check_memreg()
 *   events                          tune_check_events(): open on their CPUs,
 *                                   delivery at the budgets' rate
 *   bandwidth                       tune_check_bw_verdict(), tune_check_bandwidth()
 *   the whole check and its JSON    tune_check_run(), tune_check_json()
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "check.h"
#include "cli.h"
#include "measure.h"
#include "memreg.h"
#include "pmu_delivery.h"
#include "memcal_platform.h"

static const char *const item_names[TUNE_NR_ITEMS] = {
	"cpu-kinds", "pmus", "events", "memory-size", "memory-type", "smt",
	"kernel", "memreg-version", "bandwidth",
};

/** tune_check_item_name() - the stable name of item @id. */
const char *tune_check_item_name(enum tune_check_item_id id)
{
	return (unsigned)id < TUNE_NR_ITEMS ? item_names[id] : "?";
}

/** tune_check_verdict_name() - "pass", "warn", "fail" or "skip". */
const char *tune_check_verdict_name(enum tune_verdict v)
{
	static const char *const names[] = { "pass", "warn", "fail", "skip" };

	return (unsigned)v < 4 ? names[v] : "?";
}

/* set - item @id's verdict and reason. */
static void __attribute__((format(printf, 4, 5)))
set(struct tune_check *r, enum tune_check_item_id id, enum tune_verdict v,
    const char *fmt, ...)
{
	va_list ap;

	r->items[id].name = item_names[id];
	r->items[id].verdict = v;
	va_start(ap, fmt);
	vsnprintf(r->items[id].reason, sizeof(r->items[id].reason), fmt, ap);
	va_end(ap);
}

#define NO_PROVENANCE "unknown: the configuration carries no provenance " \
	"(planned by an older memtune); plan it again to check this item"

/* is_x86 - @p has an x86 identity. */
static bool is_x86(const struct tune_machine_cpu *p)
{
	return p->vendor[0] || p->family;
}

/* same_core - the same kind of core, whatever its revision. */
static bool same_core(const struct tune_machine_cpu *a,
		      const struct tune_machine_cpu *b)
{
	if (is_x86(a) != is_x86(b))
		return false;
	if (is_x86(a))
		return !strcmp(a->vendor, b->vendor) &&
		       a->family == b->family && a->model == b->model;
	return a->implementer == b->implementer && a->part == b->part;
}

/* same_revision - the same core in the same revision. */
static bool same_revision(const struct tune_machine_cpu *a,
			  const struct tune_machine_cpu *b)
{
	return same_core(a, b) && (is_x86(a) ? a->stepping == b->stepping :
		a->variant == b->variant && a->revision == b->revision);
}

/* describe - @p in words: "Cortex-A55 r2p0", "AMD ... (family 25 model 17
 * stepping 1)". */
static const char *describe(const struct tune_machine_cpu *p, char *buf,
			    size_t len)
{
	if (is_x86(p))
		snprintf(buf, len, "%s%s(%s family %u model %u stepping %u)",
			 p->kind, p->kind[0] ? " " : "", p->vendor, p->family,
			 p->model, p->stepping);
	else if (p->implementer || p->part)
		snprintf(buf, len, "%s%sr%up%u (MIDR implementer 0x%02x part "
			 "0x%03x)", p->kind, p->kind[0] ? " " : "", p->variant,
			 p->revision, p->implementer, p->part);
	else
		snprintf(buf, len, "%s", p->kind[0] ? p->kind : "an unknown "
			 "CPU");
	return buf;
}

/* find_cpu - @m's entry for CPU @cpu, or NULL. */
static const struct tune_machine_cpu *find_cpu(const struct tune_machine *m,
					       int cpu)
{
	for (int i = 0; i < m->n_cpus; i++)
		if (m->cpus[i].cpu == cpu)
			return &m->cpus[i];
	return NULL;
}

/* cpus_like - the cpulist of @m's CPUs of @p's core and revision. */
static void cpus_like(const struct tune_machine *m,
		      const struct tune_machine_cpu *p, char *buf, size_t len)
{
	unsigned cpus[TUNE_MACHINE_MAX_CPUS];
	size_t n = 0;

	for (int i = 0; i < m->n_cpus; i++)
		if (same_revision(&m->cpus[i], p))
			cpus[n++] = (unsigned)m->cpus[i].cpu;
	memcal_platform_cpulist_format(cpus, n, buf, len);
}

/* kinds_summary - "Cortex-A55 on 0-3, Cortex-A76 on 4-7". */
static void kinds_summary(const struct tune_machine *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->n_cpus && used < len; i++) {
		char d[192], list[128];
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = same_revision(&m->cpus[j], &m->cpus[i]);
		if (seen)
			continue;
		cpus_like(m, &m->cpus[i], list, sizeof(list));
		used += (size_t)snprintf(buf + used, len - used, "%s%s on "
					 "CPUs %s", used ? ", " : "",
					 describe(&m->cpus[i], d, sizeof(d)),
					 list);
	}
}

/* check_cpus - each CPU of the configuration against this unit's. */
static void check_cpus(const struct tune_machine *cfg,
		       const struct tune_machine *here, struct tune_check *r)
{
	char first[512] = "", rev[512] = "", d1[192], d2[192], list[128];
	int bad = 0, revs = 0, extra = 0;

	if (!cfg->present || !cfg->n_cpus) {
		set(r, TUNE_ITEM_CPU_KINDS, TUNE_CHECK_WARN, NO_PROVENANCE);
		return;
	}
	if (!here->n_cpus) {
		set(r, TUNE_ITEM_CPU_KINDS, TUNE_CHECK_WARN, "unknown: this "
		    "unit's CPUs cannot be read (/proc/cpuinfo)");
		return;
	}
	for (int i = 0; i < cfg->n_cpus; i++) {
		const struct tune_machine_cpu *p = &cfg->cpus[i];
		const struct tune_machine_cpu *h = find_cpu(here, p->cpu);

		cpus_like(cfg, p, list, sizeof(list));
		if (!h) {
			if (!bad++)
				snprintf(first, sizeof(first), "CPU %d is "
					 "absent, the configuration was tuned "
					 "for %s on CPUs %s", p->cpu,
					 describe(p, d2, sizeof(d2)), list);
		} else if (!same_core(h, p)) {
			if (!bad++)
				snprintf(first, sizeof(first), "CPU %d is %s, "
					 "the configuration was tuned for %s "
					 "on CPUs %s", p->cpu,
					 describe(h, d1, sizeof(d1)),
					 describe(p, d2, sizeof(d2)), list);
		} else if (!same_revision(h, p)) {
			if (!revs++)
				snprintf(rev, sizeof(rev), "CPU %d is %s, the "
					 "configuration was tuned for %s on "
					 "CPUs %s", p->cpu,
					 describe(h, d1, sizeof(d1)),
					 describe(p, d2, sizeof(d2)), list);
		}
	}
	for (int i = 0; i < here->n_cpus; i++)
		extra += !find_cpu(cfg, here->cpus[i].cpu);
	if (bad)
		set(r, TUNE_ITEM_CPU_KINDS, TUNE_CHECK_FAIL, "%s%s: re-tune on "
		    "this board type (memcal run, memtune plan)", first,
		    bad > 1 ? " (and more CPUs differ)" : "");
	else if (revs)
		set(r, TUNE_ITEM_CPU_KINDS, TUNE_CHECK_WARN, "%s: the same "
		    "core in another revision; its events and bandwidth may "
		    "differ (the events and bandwidth items measure them)", rev);
	else if (extra)
		set(r, TUNE_ITEM_CPU_KINDS, TUNE_CHECK_WARN, "the configuration's "
		    "%d CPUs match, but this unit has %d CPUs the "
		    "configuration does not know; memreg leaves them "
		    "unregulated", cfg->n_cpus, extra);
	else {
		kinds_summary(cfg, first, sizeof(first));
		set(r, TUNE_ITEM_CPU_KINDS, TUNE_CHECK_PASS, "%d CPUs as tuned: "
		    "%s", cfg->n_cpus, first);
	}
}

/* pmu_type - the perf type number of event source @name here, -1 if none
 * (or if @name is no plain name). */
static long pmu_type(const char *name)
{
	char path[1024], buf[32];
	long type = -1;
	FILE *f;

	if (!name[0] || strchr(name, '/'))
		return type;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type",
		 memcal_platform_sysfs_root(), name);
	f = fopen(path, "r");
	if (!f)
		return type;
	if (fgets(buf, sizeof(buf), f))
		type = strtol(buf, NULL, 10);
	fclose(f);
	return type;
}

/* pmu_exists - the event source @name is registered on this unit. */
static bool pmu_exists(const char *name)
{
	return pmu_type(name) >= 0;
}

/* check_pmus - every PMU the configuration names exists here and serves
 * the CPUs it served on the tuned board. */
static void check_pmus(const struct tune_machine *cfg,
		       const struct tune_machine *here, struct tune_check *r)
{
	char seen[8][64], shown[512] = "";
	size_t used = 0;
	int n = 0;

	if (!cfg->present) {
		set(r, TUNE_ITEM_PMUS, TUNE_CHECK_WARN, NO_PROVENANCE);
		return;
	}
	for (int i = 0; i < cfg->n_cpus; i++) {
		const struct tune_machine_cpu *p = &cfg->cpus[i];
		const struct tune_machine_cpu *h = find_cpu(here, p->cpu);
		bool dup = false;

		if (!p->pmu[0])
			continue;
		for (int j = 0; j < n && !dup; j++)
			dup = !strcmp(seen[j], p->pmu);
		if (!pmu_exists(p->pmu)) {
			set(r, TUNE_ITEM_PMUS, TUNE_CHECK_FAIL, "PMU %s, which "
			    "counts CPU %d's events in the configuration, is "
			    "not registered on this unit (no %s/bus/"
			    "event_source/devices/%s): its events count "
			    "nothing here; load the PMU driver or re-tune on "
			    "this board type", p->pmu, p->cpu,
			    memcal_platform_sysfs_root(), p->pmu);
			return;
		}
		if (h && strcmp(h->pmu, p->pmu)) {
			set(r, TUNE_ITEM_PMUS, TUNE_CHECK_FAIL, "CPU %d is "
			    "served by PMU %s here, the configuration counts "
			    "it on %s: re-tune on this board type", p->cpu,
			    h->pmu[0] ? h->pmu : "(none)", p->pmu);
			return;
		}
		if (!dup && n < 8) {
			snprintf(seen[n++], sizeof(seen[0]), "%s", p->pmu);
			used += (size_t)snprintf(shown + used, used <
						 sizeof(shown) ? sizeof(shown) -
						 used : 0, "%s%s", used ? ", " :
						 "", p->pmu);
		}
	}
	if (!n)
		set(r, TUNE_ITEM_PMUS, TUNE_CHECK_PASS, "the configuration names "
		    "no hardware PMU (the tuned board had none); its events "
		    "are checked by the events item");
	else
		set(r, TUNE_ITEM_PMUS, TUNE_CHECK_PASS, "registered here and "
		    "serving the same CPUs: %s", shown);
}

/* gib - bytes in GiB. */
static double gib(uint64_t b)
{
	return (double)b / (1024.0 * 1024 * 1024);
}

/* check_mem_size - MemTotal, with slack for the kernel's reservations. */
static void check_mem_size(const struct tune_machine *cfg,
			   const struct tune_machine *here,
			   struct tune_check *r)
{
	double d;

	if (!cfg->present || !cfg->mem_bytes) {
		set(r, TUNE_ITEM_MEM_SIZE, TUNE_CHECK_WARN, "%s",
		    cfg->present ? "unknown: the tuned board's memory size "
		    "was not recorded" : NO_PROVENANCE);
		return;
	}
	if (!here->mem_bytes) {
		set(r, TUNE_ITEM_MEM_SIZE, TUNE_CHECK_WARN, "unknown: this "
		    "unit's memory size cannot be read (/proc/meminfo)");
		return;
	}
	d = 100.0 * fabs((double)here->mem_bytes - (double)cfg->mem_bytes) /
	    (double)cfg->mem_bytes;
	if (d > TUNE_CHECK_MEM_SLACK_PCT)
		set(r, TUNE_ITEM_MEM_SIZE, TUNE_CHECK_WARN, "this unit has "
		    "%.1f GiB, the configuration was tuned with %.1f GiB: "
		    "another memory population can change the bandwidth "
		    "(the bandwidth item measures it)", gib(here->mem_bytes),
		    gib(cfg->mem_bytes));
	else
		set(r, TUNE_ITEM_MEM_SIZE, TUNE_CHECK_PASS, "%.1f GiB, as tuned "
		    "(%.1f GiB)", gib(here->mem_bytes), gib(cfg->mem_bytes));
}

/* known - a DIMM field that says something. */
static bool known(const char *s)
{
	return s[0] && strcmp(s, "unknown");
}

/* check_mem_type - the SMBIOS DIMM type and speed. */
static void check_mem_type(const struct tune_machine *cfg,
			   const struct tune_machine *here,
			   struct tune_check *r)
{
	if (!cfg->present) {
		set(r, TUNE_ITEM_MEM_TYPE, TUNE_CHECK_WARN, NO_PROVENANCE);
		return;
	}
	if (!known(cfg->dimm_type) && !known(cfg->dimm_speed)) {
		set(r, TUNE_ITEM_MEM_TYPE, TUNE_CHECK_WARN, "unknown: the "
		    "tuned board's firmware gave no memory type or speed "
		    "(SMBIOS); this unit has %s at %s", here->dimm_type,
		    here->dimm_speed);
		return;
	}
	if (!known(here->dimm_type) && !known(here->dimm_speed)) {
		set(r, TUNE_ITEM_MEM_TYPE, TUNE_CHECK_WARN, "unknown: this "
		    "unit's firmware tables (SMBIOS, /sys/firmware/dmi) are "
		    "absent or unreadable; the configuration was tuned with "
		    "%s at %s", cfg->dimm_type, cfg->dimm_speed);
		return;
	}
	if (known(cfg->dimm_type) && known(here->dimm_type) &&
	    strcmp(cfg->dimm_type, here->dimm_type)) {
		set(r, TUNE_ITEM_MEM_TYPE, TUNE_CHECK_FAIL, "this unit's "
		    "memory is %s, the configuration was tuned with %s: "
		    "re-tune on this memory", here->dimm_type,
		    cfg->dimm_type);
		return;
	}
	if (known(cfg->dimm_speed) && known(here->dimm_speed) &&
	    strcmp(cfg->dimm_speed, here->dimm_speed)) {
		bool slower = atoi(here->dimm_speed) < atoi(cfg->dimm_speed);

		set(r, TUNE_ITEM_MEM_TYPE, slower ? TUNE_CHECK_FAIL :
		    TUNE_CHECK_WARN, "this unit's memory runs at %s, the "
		    "configuration was tuned at %s: %s", here->dimm_speed,
		    cfg->dimm_speed, slower ? "the guarantees assume faster "
		    "memory; re-tune on this unit's memory" : "budgets for "
		    "the slower memory are conservative here");
		return;
	}
	set(r, TUNE_ITEM_MEM_TYPE, known(here->dimm_type) &&
	    known(here->dimm_speed) ? TUNE_CHECK_PASS : TUNE_CHECK_WARN,
	    "%s at %s, as tuned (%s at %s)", here->dimm_type, here->dimm_speed,
	    cfg->dimm_type, cfg->dimm_speed);
}

/* check_smt - simultaneous multithreading on or off as tuned. */
static void check_smt(const struct tune_machine *cfg,
		      const struct tune_machine *here, struct tune_check *r)
{
	if (!cfg->present || cfg->smt < 0 || here->smt < 0)
		set(r, TUNE_ITEM_SMT, TUNE_CHECK_WARN, "%s", !cfg->present ?
		    NO_PROVENANCE : cfg->smt < 0 ? "unknown: the tuned "
		    "board's SMT state was not recorded" : "unknown: this "
		    "unit's SMT state cannot be read");
	else if (cfg->smt != here->smt)
		set(r, TUNE_ITEM_SMT, TUNE_CHECK_FAIL, "SMT is %s on this "
		    "unit, the configuration was tuned with SMT %s: sibling "
		    "threads share a core's bandwidth and the CPU numbers "
		    "move; turn SMT %s (the 'nosmt' boot option or "
		    "/sys/devices/system/cpu/smt/control) or re-tune",
		    here->smt ? "on" : "off", cfg->smt ? "on" : "off",
		    cfg->smt ? "on" : "off");
	else
		set(r, TUNE_ITEM_SMT, TUNE_CHECK_PASS, "SMT %s, as tuned",
		    here->smt ? "on" : "off");
}

/* check_kernel - the kernel release. */
static void check_kernel(const struct tune_machine *cfg,
			 const struct tune_machine *here, struct tune_check *r)
{
	if (!cfg->present || !cfg->kernel[0] || !here->kernel[0])
		set(r, TUNE_ITEM_KERNEL, TUNE_CHECK_WARN, "%s", !cfg->present ?
		    NO_PROVENANCE : !cfg->kernel[0] ? "unknown: the tuned "
		    "board's kernel was not recorded" : "unknown: this "
		    "unit's kernel release cannot be read "
		    "(/proc/sys/kernel/osrelease)");
	else if (strcmp(cfg->kernel, here->kernel))
		set(r, TUNE_ITEM_KERNEL, TUNE_CHECK_WARN, "this unit runs "
		    "kernel %s, the configuration was tuned on %s: memreg "
		    "must be built for this kernel (dkms), and a numeric PMU "
		    "type may name another PMU here (the events item opens "
		    "them)", here->kernel, cfg->kernel);
	else
		set(r, TUNE_ITEM_KERNEL, TUNE_CHECK_PASS, "kernel %s, as tuned",
		    here->kernel);
}

/* check_memreg - the memreg version the configuration was made for
 * against the loaded one, else the one this memtune ships. */
static void check_memreg(const struct tune_machine *cfg,
			 const struct tune_machine *here, const char *shipped,
			 struct tune_check *r)
{
	if (!cfg->present || !cfg->memreg_version[0])
		set(r, TUNE_ITEM_MEMREG, TUNE_CHECK_WARN, "%s", !cfg->present ?
		    NO_PROVENANCE : "unknown: the configuration does not "
		    "say which memreg it was made for");
	else if (here->memreg_version[0] &&
		 strcmp(here->memreg_version, cfg->memreg_version))
		set(r, TUNE_ITEM_MEMREG, TUNE_CHECK_FAIL, "memreg %s is "
		    "loaded, the configuration was made for memreg %s: "
		    "install memreg %s (or plan and export the configuration "
		    "with this memreg's memtune)", here->memreg_version,
		    cfg->memreg_version, cfg->memreg_version);
	else if (here->memreg_version[0])
		set(r, TUNE_ITEM_MEMREG, TUNE_CHECK_PASS, "memreg %s is "
		    "loaded, the version the configuration was made for",
		    here->memreg_version);
	else if (strcmp(shipped, cfg->memreg_version))
		set(r, TUNE_ITEM_MEMREG, TUNE_CHECK_WARN, "memreg is not "
		    "loaded; the configuration was made for memreg %s, this "
		    "memtune goes with memreg %s: make sure apply loads a "
		    "memreg %s", cfg->memreg_version, shipped,
		    cfg->memreg_version);
	else
		set(r, TUNE_ITEM_MEMREG, TUNE_CHECK_PASS, "memreg is not "
		    "loaded; the configuration was made for memreg %s, the "
		    "version this memtune goes with", cfg->memreg_version);
}

/**
 * tune_check_compare() - the machine items of @c against @here; no
 * measurement.  @memreg_shipped: the memreg version this memtune goes
 * with (MEMREG_VERSION), for a unit where memreg is not loaded yet.
 */
void tune_check_compare(const struct tune_config *c,
			const struct tune_machine *here,
			const char *memreg_shipped, struct tune_check *r)
{
	const struct tune_machine *cfg = &c->machine;

	check_cpus(cfg, here, r);
	check_pmus(cfg, here, r);
	check_mem_size(cfg, here, r);
	check_mem_type(cfg, here, r);
	check_smt(cfg, here, r);
	check_kernel(cfg, here, r);
	check_memreg(cfg, here, memreg_shipped, r);
}

/* ---- events ------------------------------------------------------- */

/**
 * struct event_load - what the delivery check runs while it counts: page
 * faults on fresh pages (the software stand-in events count them) and a
 * streaming read well beyond the caches (hardware memory events).
 * @buf, @bytes: the read buffer (a whole number of MiB).
 * @pos:         where the next read starts.
 * @sink:        the reads' sum, kept.
 */
struct event_load {
	unsigned char *buf;
	size_t bytes, pos;
	volatile uint64_t sink;
};

/* now_s - monotonic seconds. */
static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* run_load - memcal_load_fn: faults and reads for @seconds, in steps
 * short enough (64 fresh pages, 1 MiB of the buffer) to end on time. */
static void run_load(double seconds, void *user)
{
	struct event_load *l = user;
	double end = now_s() + seconds;

	do {
		size_t len = 64 * 4096, chunk = 1 << 20;
		unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t sum = 0;

		if (p != MAP_FAILED) {
			madvise(p, len, MADV_NOHUGEPAGE);
			for (size_t i = 0; i < len; i += 4096)
				p[i] = (unsigned char)i;
			munmap(p, len);
		}
		for (size_t i = 0; l->buf && i < chunk; i += 64)
			sum += l->buf[l->pos + i];
		if (l->buf)
			l->pos = (l->pos + chunk) % l->bytes;
		l->sink += sum;
	} while (now_s() < end);
}

/*
 * resolve - @spec as a perf encoding: memreg's own spec syntax, or
 * PMU_NAME:CONFIG with the type read from this unit's event source.
 * Sets @counted (false for "none"); returns 0, or MEMCAL_ESYNTAX or
 * MEMCAL_ENOTFOUND with @why.
 */
static int resolve(const char *spec, struct perf_event_attr *a,
		   bool *counted, char *why, size_t len)
{
	struct memreg_event ev;
	const char *w = "";
	char name[64];
	const char *colon = strchr(spec, ':');
	unsigned long long config;
	char *end;
	long type;

	memset(a, 0, sizeof(*a));
	*counted = true;
	if (!memreg_event_parse(spec, (memreg_u32)strlen(spec), &ev, &w)) {
		a->type = ev.type;
		a->config = ev.config;
		*counted = ev.counted;
		return 0;
	}
	if (!colon || (size_t)(colon - spec) >= sizeof(name)) {
		snprintf(why, len, "'%s' is not an event spec: %s", spec, w);
		return MEMCAL_ESYNTAX;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(colon - spec), spec);
	config = strtoull(colon + 1, &end, 0);
	if (*end || end == colon + 1) {
		snprintf(why, len, "'%s' is not an event spec: %s", spec, w);
		return MEMCAL_ESYNTAX;
	}
	type = pmu_type(name);
	if (type < 0) {
		snprintf(why, len, "event '%s': no PMU named %s on this unit",
			 spec, name);
		return MEMCAL_ENOTFOUND;
	}
	a->type = (uint32_t)type;
	a->config = config;
	return 0;
}

/*
 * numbered_elsewhere - a numeric dynamic PMU type in @spec that is not
 * the type of the PMU the configuration counts CPU @cpu with: PMU numbers
 * are given at boot in registration order, so on another kernel or device
 * tree the number names another PMU.  True with @why.
 */
static bool numbered_elsewhere(const struct tune_config *c, int cpu,
			       const char *spec, const struct perf_event_attr *a,
			       char *why, size_t len)
{
	const struct tune_machine_cpu *p = find_cpu(&c->machine, cpu);
	long here;

	if (!p || !p->pmu[0] || a->type < PERF_TYPE_MAX ||
	    spec[0] < '0' || spec[0] > '9')
		return false;
	here = pmu_type(p->pmu);
	if (here < 0 || here == (long)a->type)
		return false;
	snprintf(why, len, "names perf type %u, but %s, the PMU the "
		 "configuration counts this CPU with, is type %ld on this "
		 "unit: the number names another PMU here; export the events "
		 "by PMU name (%s:CONFIG) or re-tune", a->type, p->pmu, here,
		 p->pmu);
	return true;
}

/*
 * deliver - open @a on @cpu and measure its overflow delivery at @needed
 * per second: a short count first, to choose a sample period that makes
 * about four times the overflows needed.  Returns true when it passed;
 * @msg says what was seen.
 */
static bool deliver(struct perf_event_attr *a, unsigned cpu, double needed,
		    struct event_load *l, char *msg, size_t len)
{
	struct memcal_delivery d;
	double rate, t0 = now_s();
	int rc;

	a->sample_period = 1ull << 62;
	rc = cal_pmu_check_delivery(a, cpu, needed, 0.05, run_load, l, &d);
	if (rc || !d.count) {
		if (!rc)
			cal_pmu_delivery_verdict(&d, a->sample_period, needed);
		snprintf(msg, len, "%s", d.message);
		return false;
	}
	rate = (double)d.count / (now_s() - t0);
	a->sample_period = (uint64_t)(rate / (4 * needed));
	if (!a->sample_period)
		a->sample_period = 1;
	rc = cal_pmu_check_delivery(a, cpu, needed, 0.25, run_load, l, &d);
	snprintf(msg, len, "%s", d.message);
	return !rc && d.pass;
}

/**
 * tune_check_events() - each regulated CPU's read and write events,
 * opened on that CPU and checked to deliver overflows at the rate the
 * budgets need (one a period).  CPUs this unit lacks are the cpu-kinds
 * item's to report.
 */
void tune_check_events(const struct tune_config *c, struct tune_check *r)
{
	struct event_load l = { .bytes = 64u << 20 };
	double needed = 1e6 / (c->period_us > 0 ? c->period_us : 1000);
	char msg[384], last[384] = "";
	int checked = 0;

	l.buf = mmap(NULL, l.bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l.buf == MAP_FAILED)
		l.buf = NULL;
	else
		memset(l.buf, 1, l.bytes);
	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];

		if (!p->regulated)
			continue;
		for (int k = 0; k < TUNE_NR_CLASSES; k++) {
			const char *spec = tune_cpu_event(c, p, k);
			struct perf_event_attr a;
			bool counted;
			int rc;

			if (k && !strcmp(spec, tune_cpu_event(c, p, 0)))
				continue;	/* the same event: once */
			rc = resolve(spec, &a, &counted, msg, sizeof(msg));
			if (!rc && !counted)
				continue;	/* "none" */
			if (!rc && numbered_elsewhere(c, p->cpu, spec, &a, msg,
						      sizeof(msg)))
				rc = MEMCAL_EBOARD;
			if (!rc && deliver(&a, (unsigned)p->cpu, needed, &l,
					   msg, sizeof(msg))) {
				checked++;
				snprintf(last, sizeof(last), "%s", msg);
				continue;
			}
			set(r, TUNE_ITEM_EVENTS, TUNE_CHECK_FAIL, "cpu %d %s "
			    "event '%s': %s", p->cpu, k ? "write" : "read",
			    spec, msg);
			goto out;
		}
	}
	if (checked)
		set(r, TUNE_ITEM_EVENTS, TUNE_CHECK_PASS, "%d events open on "
		    "their CPUs and deliver at the %.0f/s a %d us period "
		    "needs (last: %s)", checked, needed, c->period_us, last);
	else
		set(r, TUNE_ITEM_EVENTS, TUNE_CHECK_SKIP, "skipped: the "
		    "configuration counts no event on any regulated CPU");
out:
	if (l.buf)
		munmap(l.buf, l.bytes);
}

/* ---- bandwidth ---------------------------------------------------- */

/**
 * tune_check_bw_verdict() - the bandwidth item from the calibration's
 * figure @calibrated and the unit's @measured (bytes/s), within
 * @tolerance_pct either way: below fails (the guarantees assume memory
 * this unit does not have), above warns (the budgets are conservative).
 * @cpus: where it was measured; @foreign: share of the machine others
 * used meanwhile (named when it could explain a failure).
 */
void tune_check_bw_verdict(struct tune_check_item *it, double calibrated,
			   double measured, double tolerance_pct,
			   const char *cpus, double foreign)
{
	double dev = 100.0 * (measured - calibrated) / calibrated;
	char busy[160] = "";

	it->name = item_names[TUNE_ITEM_BANDWIDTH];
	if (foreign > MEMCAL_FOREIGN_WARN)
		snprintf(busy, sizeof(busy), " (other programs used %.0f %% "
			 "of the machine meanwhile: check again on an idle "
			 "unit)", 100 * foreign);
	if (dev < -tolerance_pct) {
		it->verdict = TUNE_CHECK_FAIL;
		snprintf(it->reason, sizeof(it->reason), "read bandwidth on "
			 "CPUs %s is %.2f GB/s, %.0f %% below the "
			 "calibration's %.2f GB/s (tolerance %g %%): this "
			 "unit's memory is slower than the tuned board's "
			 "(population, speed or a fault) and the guarantees "
			 "would not hold; check its memory or re-tune on it%s",
			 cpus, measured / 1e9, -dev, calibrated / 1e9,
			 tolerance_pct, busy);
	} else if (dev > tolerance_pct) {
		it->verdict = TUNE_CHECK_WARN;
		snprintf(it->reason, sizeof(it->reason), "read bandwidth on "
			 "CPUs %s is %.2f GB/s, %.0f %% above the "
			 "calibration's %.2f GB/s (tolerance %g %%): the "
			 "budgets are conservative here; re-tune to use the "
			 "difference", cpus, measured / 1e9, dev,
			 calibrated / 1e9, tolerance_pct);
	} else {
		it->verdict = TUNE_CHECK_PASS;
		snprintf(it->reason, sizeof(it->reason), "read bandwidth on "
			 "CPUs %s is %.2f GB/s, within %g %% of the "
			 "calibration's %.2f GB/s (%+.0f %%)", cpus,
			 measured / 1e9, tolerance_pct, calibrated / 1e9, dev);
	}
}

/*
 * measure_read - all-core read bandwidth on @cpus; 0 or a MEMCAL_E* code
 * with @err.  A few seconds, not a calibration: together the buffers
 * cover twice the last-level cache (a streaming read that large misses
 * it), at least 64 MiB each, where the calibration's quick run gives each
 * CPU four times the cache; never more than @cal_bytes, the calibration's
 * own buffer (0: unknown), so that a calibration made with small buffers
 * (--size) is compared like with like.
 */
static int measure_read(const unsigned *cpus, unsigned n, uint64_t cal_bytes,
			double *bps, double *foreign, char *err,
			size_t errlen)
{
	struct memcal_bw_spec s = { .op = MEMCAL_OP_READ, .n_use = n,
				    .reps = 3, .warmup = 1, .passes = 1 };
	struct memcal_bench *b = calloc(1, sizeof(*b));
	struct memcal_topology t;
	struct memcal_bw_result res;
	uint64_t bytes = MEMCAL_BUF_MIN_BYTES;
	int rc;

	if (!b) {
		snprintf(err, errlen, "out of memory");
		return MEMCAL_ENOMEM;
	}
	rc = memcal_platform_topology_load(&t, NULL, err, errlen);
	if (rc)
		goto out_free;
	for (unsigned i = 0; i < n; i++) {
		uint64_t llc = cal_buffer_default_size(&t, cpus[i], true) /
			       MEMCAL_BUF_LLC_FACTOR_QUICK;

		if (2 * llc / n > bytes)
			bytes = 2 * llc / n;
	}
	if (cal_bytes && cal_bytes < bytes)
		bytes = cal_bytes;
	rc = cal_bench_init(b, &t, cpus, n, (size_t)bytes, err, errlen);
	if (rc)
		goto out_topo;
	rc = cal_measure_bw(b, &s, &res, err, errlen);
	if (!rc) {
		*bps = res.agg.median;
		*foreign = res.foreign;
	}
	cal_bench_fini(b);
out_topo:
	memcal_platform_topology_free(&t);
out_free:
	free(b);
	return rc;
}

/**
 * tune_check_bandwidth() - measure the read bandwidth where the
 * calibration measured its figure and judge it (tune_check_bw_verdict()).
 */
void tune_check_bandwidth(const struct tune_config *c,
			  const struct tune_check_opts *o,
			  struct tune_check *r)
{
	const struct tune_machine *cfg = &c->machine;
	uint32_t cpus[TUNE_MACHINE_MAX_CPUS];
	unsigned ucpus[TUNE_MACHINE_MAX_CPUS];
	char err[512];
	const char *why;
	size_t n = 0;

	if (o->no_bandwidth) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_SKIP, "skipped "
		    "(--no-bandwidth): the unit's bandwidth was not compared "
		    "with the calibration's");
		return;
	}
	if (!(cfg->bw_read_bps > 0) || !cfg->bw_cpus[0]) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_WARN, "unknown: the "
		    "configuration carries no calibration bandwidth figure "
		    "(planned by an older memtune, or from a calibration "
		    "without an all-core read measurement); plan it again");
		return;
	}
	if (cli_parse_u32_list(cfg->bw_cpus, 0, 4095, cpus,
			       TUNE_MACHINE_MAX_CPUS, &n, &why) || !n) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_FAIL, "the "
		    "configuration's bandwidth CPUs '%s' are not a CPU list",
		    cfg->bw_cpus);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!find_cpu(&r->here, (int)cpus[i])) {
			set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_FAIL, "the "
			    "calibration measured on CPUs %s; this unit has no "
			    "CPU %u: re-tune on this board type", cfg->bw_cpus,
			    cpus[i]);
			return;
		}
		ucpus[i] = cpus[i];
	}
	r->calibrated_bps = cfg->bw_read_bps;
	snprintf(r->bw_cpus, sizeof(r->bw_cpus), "%s", cfg->bw_cpus);
	if (measure_read(ucpus, (unsigned)n, cfg->bw_buffer_bytes,
			 &r->measured_bps, &r->foreign, err, sizeof(err))) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_FAIL, "cannot measure "
		    "the read bandwidth on CPUs %s: %s", cfg->bw_cpus, err);
		return;
	}
	tune_check_bw_verdict(&r->items[TUNE_ITEM_BANDWIDTH], cfg->bw_read_bps,
			      r->measured_bps, o->tolerance_pct, cfg->bw_cpus,
			      r->foreign);
}

/**
 * tune_check_run() - the whole check of @c on this machine into @r.
 */
void tune_check_run(const struct tune_config *c,
		    const struct tune_check_opts *o, struct tune_check *r)
{
	memset(r, 0, sizeof(*r));
	tune_machine_probe(&r->here);
	tune_check_compare(c, &r->here, MEMREG_VERSION, r);
	tune_check_events(c, r);
	tune_check_bandwidth(c, o, r);
}

/**
 * tune_check_failed() - how many items failed, their names
 * comma-separated in @names.
 */
int tune_check_failed(const struct tune_check *r, char *names, size_t len)
{
	size_t used = 0;
	int n = 0;

	if (len)
		names[0] = '\0';
	for (int i = 0; i < TUNE_NR_ITEMS; i++)
		if (r->items[i].verdict == TUNE_CHECK_FAIL) {
			n++;
			used += (size_t)snprintf(names + used, used < len ?
						 len - used : 0, "%s%s", used ?
						 ", " : "", item_names[i]);
		}
	return n;
}

/**
 * tune_check_json() - {verdict, failed: [names], tolerance_pct,
 * bandwidth: {calibrated_bps, measured_bps, cpus} | null, items: [{item,
 * verdict, reason}]}; NULL when out of memory.
 */
json_t *tune_check_json(const struct tune_check *r,
			const struct tune_check_opts *o)
{
	json_t *items = json_array(), *failed = json_array(), *bw;
	int warned = 0, nfail = 0;

	for (int i = 0; items && failed && i < TUNE_NR_ITEMS; i++) {
		const struct tune_check_item *it = &r->items[i];

		json_array_append_new(items, json_pack("{s:s,s:s,s:s}", "item",
			item_names[i], "verdict",
			tune_check_verdict_name(it->verdict), "reason",
			it->reason));
		if (it->verdict == TUNE_CHECK_FAIL) {
			nfail++;
			json_array_append_new(failed, json_string(item_names[i]));
		}
		warned += it->verdict == TUNE_CHECK_WARN;
	}
	bw = r->measured_bps > 0 ? json_pack("{s:f,s:f,s:s}", "calibrated_bps",
		r->calibrated_bps, "measured_bps", r->measured_bps, "cpus",
		r->bw_cpus) : json_null();
	return json_pack("{s:s,s:o,s:f,s:b,s:o,s:o}", "verdict", nfail ? "fail" :
			 warned ? "warn" : "pass", "failed", failed ? failed :
			 json_array(), "tolerance_pct", o->tolerance_pct,
			 "bandwidth_checked", !o->no_bandwidth, "bandwidth", bw,
			 "items", items ? items : json_array());
}
