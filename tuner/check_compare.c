// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_compare.c - the machine items of 'memtune check': each item of a
 * configuration's provenance against this unit's, no measurement.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "memcal_platform.h"

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

/* tune_check_find_cpu() - @m's entry for CPU @cpu, or NULL. */
const struct tune_machine_cpu *tune_check_find_cpu(const struct tune_machine *m,
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

/*
 * tuned_for - into @buf, that CPU @h here is not the @p the configuration
 * was tuned for on CPUs @list.
 */
static void tuned_for(char *buf, size_t len, const struct tune_machine_cpu *h,
		      const struct tune_machine_cpu *p, const char *list)
{
	char d1[192], d2[192];

	snprintf(buf, len, "CPU %d is %s, the configuration was tuned for %s "
		 "on CPUs %s", p->cpu, describe(h, d1, sizeof(d1)),
		 describe(p, d2, sizeof(d2)), list);
}

/* check_cpus - each CPU of the configuration against this unit's. */
static void check_cpus(const struct tune_machine *cfg,
		       const struct tune_machine *here, struct tune_check *r)
{
	char first[512] = "", rev[512] = "", d2[192], list[128];
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
		const struct tune_machine_cpu *h =
			tune_check_find_cpu(here, p->cpu);

		cpus_like(cfg, p, list, sizeof(list));
		if (!h) {
			if (!bad++)
				snprintf(first, sizeof(first), "CPU %d is "
					 "absent, the configuration was tuned "
					 "for %s on CPUs %s", p->cpu,
					 describe(p, d2, sizeof(d2)), list);
		} else if (!same_core(h, p)) {
			if (!bad++)
				tuned_for(first, sizeof(first), h, p, list);
		} else if (!same_revision(h, p)) {
			if (!revs++)
				tuned_for(rev, sizeof(rev), h, p, list);
		}
	}
	for (int i = 0; i < here->n_cpus; i++)
		extra += !tune_check_find_cpu(cfg, here->cpus[i].cpu);
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

/* tune_check_pmu_type() - the perf type number of event source @name
 * here, -1 if none (or if @name is no plain name). */
long tune_check_pmu_type(const char *name)
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
	return tune_check_pmu_type(name) >= 0;
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
		const struct tune_machine_cpu *h =
			tune_check_find_cpu(here, p->cpu);
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
