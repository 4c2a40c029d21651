// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu_types.c - group a board's CPUs by kind and find each kind's PMU and
 * event table, from files only (cpu_types.h says which), so that recorded
 * boards replay anywhere.
 *
 * File map:
 *   roots and file reading      cal_procfs_root(), cal_read_text()
 *   the event sources (PMUs)    cal_event_sources_*(), cal_event_source_read()
 *   per-CPU identity            read_cpuinfo(), read_midrs()
 *   grouping into kinds         group_arm(), group_x86()
 *   PMU of a kind               find_event_source()
 *   event table of a kind       x86_pfm_name(), assign_family()
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpu_types.h"
#include "pmu_tables_arm.h"
#include "memcal_platform.h"

#define MAX_CPUS 1024

/**
 * struct cpu_id - what identifies one CPU.
 * @seen:        it appears in /proc/cpuinfo or has a MIDR file.
 * @implementer: Arm MIDR implementer.
 * @part:        Arm MIDR part number.
 */
struct cpu_id {
	bool seen;
	unsigned implementer;
	unsigned part;
};

/**
 * struct cpuinfo - /proc/cpuinfo, reduced to what grouping needs.
 * @cpu:    per OS CPU number.
 * @vendor: x86 vendor_id of the first processor ("" on Arm).
 * @family: x86 cpu family.
 * @model:  x86 model.
 */
struct cpuinfo {
	struct cpu_id cpu[MAX_CPUS];
	char vendor[16];
	unsigned family;
	unsigned model;
};

/*
 * cal_procfs_root - where procfs is read from: $MEMCAL_PROCFS_ROOT,
 * else "/proc" (the companion of memcal_platform_sysfs_root() for recorded boards).
 */
const char *cal_procfs_root(void)
{
	const char *r = getenv("MEMCAL_PROCFS_ROOT");

	return (r && *r) ? r : "/proc";
}

/*
 * cal_read_text - the first line of @root/@rel into @buf, newline cut; 0,
 * MEMCAL_ECANTOPEN or MEMCAL_EIO.
 */
int cal_read_text(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >=
	    sizeof(path))
		return MEMCAL_ECANTOPEN; /* a longer root names no file */
	f = fopen(path, "r");
	if (!f)
		return MEMCAL_ECANTOPEN;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return MEMCAL_EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

#define EVENT_SOURCES "bus/event_source/devices"

/*
 * cal_event_sources_open - start a walk over the event sources; 0, or
 * MEMCAL_ECANTOPEN (no such folder under this sysfs root).
 */
int cal_event_sources_open(struct cal_event_sources *it)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/" EVENT_SOURCES,
		 memcal_platform_sysfs_root());
	it->d = opendir(dir);
	return it->d ? 0 : MEMCAL_ECANTOPEN;
}

/* cal_event_sources_next - the next event source's name, NULL at the end. */
const char *cal_event_sources_next(struct cal_event_sources *it)
{
	struct dirent *e;

	while ((e = readdir(it->d)))
		if (e->d_name[0] != '.')
			return e->d_name;
	return NULL;
}

/* cal_event_sources_close - end a walk cal_event_sources_open() began. */
void cal_event_sources_close(struct cal_event_sources *it)
{
	closedir(it->d);
	it->d = NULL;
}

/*
 * cal_event_source_read - the first line of event source @name's @file
 * ("type", "cpus") into @buf, as cal_read_text().
 */
int cal_event_source_read(const char *name, const char *file, char *buf,
			  size_t len)
{
	char rel[512];

	if ((size_t)snprintf(rel, sizeof(rel), EVENT_SOURCES "/%s/%s", name,
			     file) >= sizeof(rel))
		return MEMCAL_ECANTOPEN;
	return cal_read_text(memcal_platform_sysfs_root(), rel, buf, len);
}

/*
 * cal_cpuinfo_value - the text after "key<spaces>:" in the /proc/cpuinfo
 * @line, or NULL ("model" is not "model name").
 */
const char *cal_cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	for (line += n; *line == ' ' || *line == '\t'; line++)
		;
	if (*line != ':')
		return NULL;
	for (line++; *line == ' ' || *line == '\t'; line++)
		;
	return line;
}

/*
 * read_cpuinfo - each processor block of /proc/cpuinfo: its number, its
 * Arm implementer and part, and the x86 identity (taken from the first
 * block: x86 CPUID family and model are the same on every core of a
 * package, hybrid parts included).
 */
static int read_cpuinfo(struct cpuinfo *ci)
{
	char path[512], line[512];
	long cpu = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpuinfo", cal_procfs_root());
	f = fopen(path, "r");
	if (!f)
		return MEMCAL_ECANTOPEN;
	while (fgets(line, sizeof(line), f)) {
		const char *v;

		line[strcspn(line, "\n")] = '\0';
		if ((v = cal_cpuinfo_value(line, "processor"))) {
			cpu = strtol(v, NULL, 10);
			if (cpu >= 0 && cpu < MAX_CPUS)
				ci->cpu[cpu].seen = true;
		} else if (cpu < 0 || cpu >= MAX_CPUS) {
			continue;
		} else if ((v = cal_cpuinfo_value(line, "CPU implementer"))) {
			ci->cpu[cpu].implementer = (unsigned)strtoul(v, NULL, 0);
		} else if ((v = cal_cpuinfo_value(line, "CPU part"))) {
			ci->cpu[cpu].part = (unsigned)strtoul(v, NULL, 0);
		} else if ((v = cal_cpuinfo_value(line, "vendor_id")) && !ci->vendor[0]) {
			snprintf(ci->vendor, sizeof(ci->vendor), "%s", v);
		} else if ((v = cal_cpuinfo_value(line, "cpu family")) && !ci->family) {
			ci->family = (unsigned)strtoul(v, NULL, 10);
		} else if ((v = cal_cpuinfo_value(line, "model")) && !ci->model) {
			ci->model = (unsigned)strtoul(v, NULL, 10);
		}
	}
	fclose(f);
	return 0;
}

/*
 * read_midrs - each CPU's MIDR_EL1 from sysfs (arm64 kernels export it
 * per CPU); it overrides /proc/cpuinfo, which some kernels print for the
 * reading CPU only.
 */
static void read_midrs(struct cpuinfo *ci)
{
	for (unsigned c = 0; c < MAX_CPUS; c++) {
		char rel[128], buf[64];
		unsigned long long midr;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%u/regs/"
			 "identification/midr_el1", c);
		if (cal_read_text(memcal_platform_sysfs_root(), rel, buf, sizeof(buf)))
			continue;
		midr = strtoull(buf, NULL, 0);
		ci->cpu[c].seen = true;
		ci->cpu[c].implementer = (unsigned)(midr >> 24) & 0xff;
		ci->cpu[c].part = (unsigned)(midr >> 4) & 0xfff;
	}
}

/*
 * read_cpulist - parse the cpulist file @root/@rel into @cpus[0..*@n);
 * 0 or the status of the read or the parse.
 */
static int read_cpulist(const char *root, const char *rel, uint32_t *cpus,
			size_t *n)
{
	char buf[1024];
	const char *why;
	int rc = cal_read_text(root, rel, buf, sizeof(buf));

	if (!rc)
		rc = cli_parse_u32_list(buf, 0, MAX_CPUS - 1, cpus, MAX_CPUS, n,
					&why);
	return rc;
}

/* set_cpus - @t's CPU list from @cpus (@n of them). */
static void set_cpus(struct memcal_cpu_type *t, const uint32_t *cpus,
		     size_t n)
{
	unsigned u[MAX_CPUS];

	for (size_t i = 0; i < n; i++)
		u[i] = cpus[i];
	t->n_cpus = (unsigned)n;
	memcal_platform_cpulist_format(u, n, t->cpus, sizeof(t->cpus));
}

/* arm_core_name - a readable name for Arm Ltd part @part. */
static const char *arm_core_name(unsigned part)
{
	static const struct { unsigned part; const char *name; } names[] = {
		{ 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" },
		{ 0xd05, "Cortex-A55" }, { 0xd07, "Cortex-A57" },
		{ 0xd08, "Cortex-A72" }, { 0xd09, "Cortex-A73" },
		{ 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" },
		{ 0xd0c, "Neoverse N1" }, { 0xd0d, "Cortex-A77" },
		{ 0xd40, "Neoverse V1" }, { 0xd41, "Cortex-A78" },
		{ 0xd42, "Cortex-A78AE" }, { 0xd44, "Cortex-X1" },
		{ 0xd46, "Cortex-A510" }, { 0xd47, "Cortex-A710" },
		{ 0xd48, "Cortex-X2" }, { 0xd49, "Neoverse N2" },
		{ 0xd4f, "Neoverse V2" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].part == part)
			return names[i].name;
	return NULL;
}

/* group_arm - one kind per (implementer, part), in CPU order. */
static void group_arm(const struct cpuinfo *ci, struct memcal_cpu_types *t)
{
	bool done[MAX_CPUS] = { false };

	for (unsigned c = 0; c < MAX_CPUS; c++) {
		struct memcal_cpu_type *k;
		uint32_t cpus[MAX_CPUS];
		const char *name;
		size_t n = 0;

		if (!ci->cpu[c].seen || done[c] || !ci->cpu[c].part)
			continue;
		if (t->n == MEMCAL_MAX_CPU_TYPES)
			return;
		k = &t->types[t->n++];
		k->arm_implementer = ci->cpu[c].implementer;
		k->arm_part = ci->cpu[c].part;
		for (unsigned d = c; d < MAX_CPUS; d++)
			if (ci->cpu[d].seen && !done[d] &&
			    ci->cpu[d].implementer == k->arm_implementer &&
			    ci->cpu[d].part == k->arm_part) {
				done[d] = true;
				cpus[n++] = d;
			}
		set_cpus(k, cpus, n);
		name = k->arm_implementer == 0x41 ? arm_core_name(k->arm_part)
						  : NULL;
		if (name)
			snprintf(k->label, sizeof(k->label), "%s", name);
		else
			snprintf(k->label, sizeof(k->label), "Arm implementer "
				 "0x%02x part 0x%03x", k->arm_implementer,
				 k->arm_part);
	}
}

/*
 * group_x86 - one kind, or two on a hybrid part (the kernel's cpu_core and
 * cpu_atom PMUs list their CPUs).
 */
static void group_x86(const struct cpuinfo *ci, struct memcal_cpu_types *t)
{
	static const char *const kinds[] = { "core", "atom" };
	uint32_t cpus[MAX_CPUS];
	size_t n = 0;

	for (size_t i = 0; i < 2; i++) {
		struct memcal_cpu_type *k;
		char rel[64];
		size_t got;

		snprintf(rel, sizeof(rel), "bus/event_source/devices/cpu_%s/cpus",
			 kinds[i]);
		if (read_cpulist(memcal_platform_sysfs_root(), rel, cpus, &got) ||
		    !got)
			continue;
		k = &t->types[t->n++];
		snprintf(k->hybrid_kind, sizeof(k->hybrid_kind), "%s",
			 kinds[i]);
		set_cpus(k, cpus, got);
	}
	if (!t->n) {
		for (unsigned c = 0; c < MAX_CPUS; c++)
			if (ci->cpu[c].seen)
				cpus[n++] = c;
		set_cpus(&t->types[t->n++], cpus, n);
	}
	for (size_t i = 0; i < t->n; i++) {
		struct memcal_cpu_type *k = &t->types[i];
		bool intel = !strcmp(ci->vendor, "GenuineIntel");

		snprintf(k->x86_vendor, sizeof(k->x86_vendor), "%s",
			 ci->vendor);
		k->x86_family = ci->family;
		k->x86_model = ci->model;
		snprintf(k->label, sizeof(k->label), "%s family 0x%x model "
			 "0x%x%s%s", intel ? "Intel" : "AMD", ci->family,
			 ci->model, k->hybrid_kind[0] ? ", " : "",
			 !strcmp(k->hybrid_kind, "core") ? "P-core" :
			 k->hybrid_kind[0] ? "E-core" : "");
	}
}

/* covers - every CPU of @k is in the cpulist @list. */
static bool covers(const char *list, const struct memcal_cpu_type *k)
{
	uint32_t have[MAX_CPUS], want[MAX_CPUS];
	size_t nh, nw;
	const char *why;

	if (cli_parse_u32_list(list, 0, MAX_CPUS - 1, have, MAX_CPUS, &nh,
			       &why) ||
	    cli_parse_u32_list(k->cpus, 0, MAX_CPUS - 1, want, MAX_CPUS, &nw,
			       &why))
		return false;
	for (size_t i = 0; i < nw; i++) {
		bool found = false;

		for (size_t j = 0; j < nh && !found; j++)
			found = have[j] == want[i];
		if (!found)
			return false;
	}
	return true;
}

/* is_core_pmu_name - an event source that is a CPU's own PMU. */
static bool is_core_pmu_name(const char *name)
{
	return !strcmp(name, "cpu") || !strncmp(name, "cpu_", 4) ||
	       !strncmp(name, "armv8", 5) || !strncmp(name, "armv7", 5);
}

/*
 * find_event_source - the PMU serving @k: a core PMU whose "cpus" file
 * covers @k's CPUs, else the one core PMU without a "cpus" file (a
 * uniform board: "cpu" on x86, "armv8_pmuv3_0" on ACPI Arm).
 */
static void find_event_source(struct memcal_cpu_type *k)
{
	struct cal_event_sources it;
	char fallback[64] = "";
	const char *name;

	k->perf_type = -1;
	if (cal_event_sources_open(&it))
		return;
	while ((name = cal_event_sources_next(&it))) {
		char list[1024];

		if (!is_core_pmu_name(name))
			continue;
		if (cal_event_source_read(name, "cpus", list, sizeof(list))) {
			if (!fallback[0] || strcmp(name, fallback) < 0)
				snprintf(fallback, sizeof(fallback), "%.63s",
					 name);
			continue;
		}
		if (covers(list, k)) {
			snprintf(k->perf_pmu, sizeof(k->perf_pmu), "%.63s",
				 name);
			break;
		}
	}
	cal_event_sources_close(&it);
	if (!k->perf_pmu[0])
		snprintf(k->perf_pmu, sizeof(k->perf_pmu), "%s", fallback);
	if (k->perf_pmu[0]) {
		char buf[32];

		if (!cal_event_source_read(k->perf_pmu, "type", buf,
					   sizeof(buf)))
			k->perf_type = atoi(buf);
	}
}

/*
 * x86_pfm_name - the libpfm4 core PMU for an x86 kind, or NULL with @why
 * (the same names libpfm4 4.13 detects on that part; Intel SDM vol. 4 and
 * AMD's PPRs give the model numbers).
 */
static const char *x86_pfm_name(const struct memcal_cpu_type *k, char *why,
				size_t len)
{
	static const struct { unsigned model; const char *pfm; } intel[] = {
		{ 0x4e, "skl" }, { 0x5e, "skl" }, { 0x55, "skx" },
		{ 0x6a, "icx" }, { 0x6c, "icx" }, { 0x7d, "icl" },
		{ 0x7e, "icl" }, { 0x8f, "spr" },
		/* hybrid Alder/Raptor Lake: only architectural events */
		{ 0x97, "ix86arch" }, { 0x9a, "ix86arch" },
		{ 0xb7, "ix86arch" }, { 0xba, "ix86arch" },
		{ 0xbf, "ix86arch" },
	};
	unsigned f = k->x86_family, m = k->x86_model;

	if (!strcmp(k->x86_vendor, "GenuineIntel") && f == 6) {
		for (size_t i = 0; i < sizeof(intel) / sizeof(intel[0]); i++)
			if (intel[i].model == m)
				return intel[i].pfm;
		snprintf(why, len, "Intel family 6 model 0x%x has no memcal "
			 "event table: calibrate on the board, where libpfm4's "
			 "own detection and validation decide", m);
		return NULL;
	}
	if (!strcmp(k->x86_vendor, "AuthenticAMD")) {
		if (f == 0x17 && m >= 0x30)
			return "amd64_fam17h_zen2";
		if (f == 0x19 && (m <= 0x0f || (m >= 0x20 && m <= 0x5f)))
			return "amd64_fam19h_zen3";
		if (f == 0x19)
			return "amd64_fam19h_zen4";
		if (f == 0x1a) {
			snprintf(why, len, "AMD family 0x1a (Zen 5) model 0x%x: "
				 "libpfm4 4.13 has no Zen 5 PMU and memcal no "
				 "verified raw encoding of its DRAM fill "
				 "events, so no event is chosen", m);
			return NULL;
		}
	}
	snprintf(why, len, "%s family 0x%x model 0x%x has no memcal event "
		 "table", k->x86_vendor[0] ? k->x86_vendor : "unknown vendor",
		 f, m);
	return NULL;
}

/* assign_family - @k's event table and libpfm4 PMU, or why there is none. */
static void assign_family(struct memcal_cpu_type *k)
{
	const char *pfm = NULL;

	if (k->arm_part) {
		if (k->arm_implementer != 0x41) {
			snprintf(k->why, sizeof(k->why), "%s: memcal's tables "
				 "cover Arm Ltd cores (implementer 0x41) only",
				 k->label);
			return;
		}
		k->family = cal_pmu_family_find(NULL, k->arm_part);
		if (!k->family)
			snprintf(k->why, sizeof(k->why), "%s (part 0x%03x) has "
				 "no memcal event table", k->label,
				 k->arm_part);
	} else {
		pfm = x86_pfm_name(k, k->why, sizeof(k->why));
		if (pfm)
			k->family = cal_pmu_family_find(pfm, 0);
		if (pfm && !k->family)
			snprintf(k->why, sizeof(k->why), "libpfm4 PMU %s has no "
				 "memcal event table", pfm);
	}
	if (k->family && k->family->pfm_names[0])
		snprintf(k->pfm_pmu, sizeof(k->pfm_pmu), "%s",
			 pfm ? pfm : k->family->pfm_names[0]);
}

/*
 * cal_cpu_types_discover - every kind of CPU of this board (or of the
 * board recorded under the sysfs and procfs roots).  Return: 0, or
 * MEMCAL_ENOMEM, MEMCAL_ECANTOPEN or MEMCAL_ENOTFOUND (no processor) with
 * @t->error saying what could not be read.
 */
int cal_cpu_types_discover(struct memcal_cpu_types *t)
{
	struct cpuinfo *ci = calloc(1, sizeof(*ci));
	bool arm = false;

	memset(t, 0, sizeof(*t));
	if (!ci) {
		snprintf(t->error, sizeof(t->error), "out of memory");
		return MEMCAL_ENOMEM;
	}
	if (read_cpuinfo(ci)) {
		snprintf(t->error, sizeof(t->error), "cannot read %s/cpuinfo",
			 cal_procfs_root());
		free(ci);
		return MEMCAL_ECANTOPEN;
	}
	read_midrs(ci);
	for (unsigned c = 0; c < MAX_CPUS && !arm; c++)
		arm = ci->cpu[c].seen && ci->cpu[c].part;
	if (arm)
		group_arm(ci, t);
	else
		group_x86(ci, t);
	free(ci);
	if (!t->n) {
		snprintf(t->error, sizeof(t->error), "no processor found in "
			 "%s/cpuinfo", cal_procfs_root());
		return MEMCAL_ENOTFOUND;
	}
	for (size_t i = 0; i < t->n; i++) {
		find_event_source(&t->types[i]);
		assign_family(&t->types[i]);
	}
	return 0;
}

/*
 * cal_pmu_documented - the table's preferred candidate for @traffic
 * ("read" or "write"): the first one listed, which is the event the core's
 * documentation names for that traffic.  NULL when the family has none.
 */
const struct memcal_pmu_candidate *
cal_pmu_documented(const struct memcal_pmu_family *f, const char *traffic)
{
	for (size_t i = 0; f && i < f->n_events; i++)
		if (!strcmp(f->events[i].traffic, traffic))
			return &f->events[i];
	return NULL;
}
