// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine.c - the machine items 'memtune check' compares (struct
 * tune_machine): read from this machine's files, and carried in a tuned
 * configuration's provenance.  Everything is read through the roots the
 * recorded boards replay with (memcal_platform_sysfs_root(),
 * cal_procfs_root(), HWLOC_XMLFILE), so a test can stand on another board.
 *
 *   per CPU    /proc/cpuinfo (x86 vendor, family, model, stepping; Arm
 *              implementer, variant, part, revision), overridden by sysfs
 *              regs/identification/midr_el1; the kind and its PMU from
 *              calibrate's discovery (cpu_types.c)
 *   memory     /proc/meminfo MemTotal; the SMBIOS memory devices (type 17)
 *              of the table the kernel exports, /sys/firmware/dmi/tables/DMI
 *              (what dmidecode reads), else /sys/firmware/dmi/entries:
 *              type and the slowest configured speed
 *   smt        /sys/devices/system/cpu/smt/active, else the topology
 *   kernel     /proc/sys/kernel/osrelease
 *   memreg     /sys/module/memreg/version
 */
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "cpu_types.h"
#include "memcal_db.h"
#include "memcal_platform.h"

/* cpu_slot - @m's entry for OS CPU @cpu, added in order; NULL when full. */
static struct tune_machine_cpu *cpu_slot(struct tune_machine *m, long cpu)
{
	int i;

	if (cpu < 0 || cpu >= 1024)
		return NULL;
	for (i = 0; i < m->n_cpus; i++)
		if (m->cpus[i].cpu == cpu)
			return &m->cpus[i];
	if (m->n_cpus == TUNE_MACHINE_MAX_CPUS)
		return NULL;
	for (i = m->n_cpus; i > 0 && m->cpus[i - 1].cpu > cpu; i--)
		m->cpus[i] = m->cpus[i - 1];
	memset(&m->cpus[i], 0, sizeof(m->cpus[i]));
	m->cpus[i].cpu = (int)cpu;
	m->n_cpus++;
	return &m->cpus[i];
}

/*
 * cpuinfo_ids - the numeric identity fields of a processor block: x86's
 * in decimal, arm64's as the kernel prints them (hexadecimal with 0x).
 */
static const struct {
	const char *key;
	size_t off;
	int base;
} cpuinfo_ids[] = {
	{ "cpu family", offsetof(struct tune_machine_cpu, family), 10 },
	{ "model", offsetof(struct tune_machine_cpu, model), 10 },
	{ "stepping", offsetof(struct tune_machine_cpu, stepping), 10 },
	{ "CPU implementer", offsetof(struct tune_machine_cpu, implementer), 0 },
	{ "CPU variant", offsetof(struct tune_machine_cpu, variant), 0 },
	{ "CPU part", offsetof(struct tune_machine_cpu, part), 0 },
	{ "CPU revision", offsetof(struct tune_machine_cpu, revision), 0 },
};

/* read_id - if @line is one of cpuinfo_ids, store its value in @p. */
static void read_id(struct tune_machine_cpu *p, const char *line)
{
	size_t n = sizeof(cpuinfo_ids) / sizeof(cpuinfo_ids[0]);

	for (size_t i = 0; i < n; i++) {
		const char *v = cal_cpuinfo_value(line, cpuinfo_ids[i].key);

		if (v) {
			*(unsigned *)((char *)p + cpuinfo_ids[i].off) =
				(unsigned)strtoul(v, NULL, cpuinfo_ids[i].base);
			return;
		}
	}
}

/* read_cpuinfo - each processor block's identity. */
static void read_cpuinfo(struct tune_machine *m)
{
	char path[1024], line[512];
	struct tune_machine_cpu *p = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpuinfo", cal_procfs_root());
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *v;

		line[strcspn(line, "\n")] = '\0';
		if ((v = cal_cpuinfo_value(line, "processor")))
			p = cpu_slot(m, strtol(v, NULL, 10));
		else if (!p)
			continue;
		else if ((v = cal_cpuinfo_value(line, "vendor_id")))
			snprintf(p->vendor, sizeof(p->vendor), "%s", v);
		else
			read_id(p, line);
	}
	fclose(f);
}

/* read_midrs - sysfs MIDR_EL1 per CPU: some kernels print /proc/cpuinfo
 * for the reading CPU only. */
static void read_midrs(struct tune_machine *m)
{
	for (int c = 0; c < 1024; c++) {
		char rel[128], buf[64];
		unsigned long long midr;
		struct tune_machine_cpu *p;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/regs/"
			 "identification/midr_el1", c);
		if (cal_read_text(memcal_platform_sysfs_root(), rel, buf, sizeof(buf)))
			continue;
		p = cpu_slot(m, c);
		if (!p)
			continue;
		midr = strtoull(buf, NULL, 0);
		p->implementer = (unsigned)(midr >> 24) & 0xff;
		p->variant = (unsigned)(midr >> 20) & 0xf;
		p->part = (unsigned)(midr >> 4) & 0xfff;
		p->revision = (unsigned)midr & 0xf;
	}
}

/* read_kinds - each CPU's kind and PMU as calibrate's discovery sees them. */
static void read_kinds(struct tune_machine *m)
{
	struct memcal_cpu_types *t = calloc(1, sizeof(*t));

	if (!t || cal_cpu_types_discover(t)) {
		free(t);
		return;
	}
	for (size_t k = 0; k < t->n; k++) {
		uint32_t cpus[1024];
		size_t n = 0;
		const char *why;

		if (cli_parse_u32_list(t->types[k].cpus, 0, 1023, cpus, 1024,
				       &n, &why))
			continue;
		for (size_t i = 0; i < n; i++) {
			struct tune_machine_cpu *p = cpu_slot(m, cpus[i]);

			if (!p)
				continue;
			snprintf(p->kind, sizeof(p->kind), "%s",
				 t->types[k].label);
			snprintf(p->pmu, sizeof(p->pmu), "%s",
				 t->types[k].perf_pmu);
		}
	}
	free(t);
}

/* dimm_type_name - SMBIOS type 17 "Memory Type" byte in words. */
static const char *dimm_type_name(unsigned v)
{
	static const struct { unsigned v; const char *name; } names[] = {
		{ 0x07, "RAM" }, { 0x0f, "SDRAM" }, { 0x12, "DDR" },
		{ 0x13, "DDR2" }, { 0x18, "DDR3" }, { 0x1a, "DDR4" },
		{ 0x1b, "LPDDR" }, { 0x1c, "LPDDR2" }, { 0x1d, "LPDDR3" },
		{ 0x1e, "LPDDR4" }, { 0x20, "HBM" }, { 0x21, "HBM2" },
		{ 0x22, "DDR5" }, { 0x23, "LPDDR5" }, { 0x24, "HBM3" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].v == v)
			return names[i].name;
	return NULL;
}

/**
 * struct dimms - the SMBIOS memory devices seen so far.
 * @type:    the first populated device's type in words (NULL: none).
 * @mixed:   another populated device has another type.
 * @slowest: the slowest configured speed in MT/s (0: none given).
 */
struct dimms {
	const char *type;
	bool mixed;
	unsigned slowest;
};

/*
 * take_dimm - one SMBIOS structure of @n bytes (at least its formatted
 * area); a type 17 memory device with a size counts.  Offsets from the
 * SMBIOS specification (DSP0134), type 17: length 0x01, size 0x0c, type
 * 0x12, speed 0x15, configured speed 0x20.
 */
static void take_dimm(const unsigned char *raw, size_t n, struct dimms *d)
{
	unsigned speed, size;
	const char *t;

	if (n < 0x17 || raw[0] != 17 || raw[1] < 0x17 || raw[1] > n)
		return;
	size = raw[0x0c] | (unsigned)raw[0x0d] << 8;
	if (!size || size == 0xffff)
		return;		/* an empty slot, or unknown */
	speed = raw[0x15] | (unsigned)raw[0x16] << 8;
	if (raw[1] >= 0x22 && (raw[0x20] | raw[0x21]))
		speed = raw[0x20] | (unsigned)raw[0x21] << 8;
	if (speed && speed != 0xffff && (!d->slowest || speed < d->slowest))
		d->slowest = speed;
	t = dimm_type_name(raw[0x12]);
	if (t && d->type && strcmp(t, d->type))
		d->mixed = true;
	if (t && !d->type)
		d->type = t;
}

/* slurp - up to @cap bytes of @path into @buf; bytes read, 0 if none. */
static size_t slurp(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/*
 * read_dmi_table - the whole SMBIOS table the kernel exports (what
 * dmidecode reads): each structure's formatted area, then its strings up
 * to a double NUL.  Returns false when the table cannot be read.
 */
static bool read_dmi_table(const char *root, struct dimms *d)
{
	size_t cap = 1 << 20, n, i = 0;
	unsigned char *t = malloc(cap);
	char path[1024];

	snprintf(path, sizeof(path), "%s/firmware/dmi/tables/DMI", root);
	n = t ? slurp(path, t, cap) : 0;
	if (!n) {
		free(t);
		return false;
	}
	while (i + 4 <= n && t[i] != 127 && t[i + 1] >= 4) {
		size_t next = i + t[i + 1];

		take_dimm(t + i, n - i, d);
		while (next + 1 < n && (t[next] || t[next + 1]))
			next++;
		i = next + 2;
	}
	free(t);
	return true;
}

/* read_dmi_entries - the per-structure files of the dmi-sysfs module. */
static void read_dmi_entries(const char *root, struct dimms *d)
{
	char dir[1024];
	struct dirent *e;
	DIR *dh;

	snprintf(dir, sizeof(dir), "%s/firmware/dmi/entries", root);
	dh = opendir(dir);
	if (!dh)
		return;
	while ((e = readdir(dh))) {
		unsigned char raw[256];
		char path[1400];
		size_t n;

		if (strncmp(e->d_name, "17-", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/raw", dir, e->d_name);
		n = slurp(path, raw, sizeof(raw));
		take_dimm(raw, n, d);
	}
	closedir(dh);
}

/*
 * read_dimms - the populated memory devices' type and the slowest
 * configured speed, from the SMBIOS table, else the dmi-sysfs entries;
 * "unknown" when the firmware gives neither (never a guess).
 */
static void read_dimms(struct tune_machine *m)
{
	const char *root = memcal_platform_sysfs_root();
	struct dimms d = { 0 };

	snprintf(m->dimm_type, sizeof(m->dimm_type), "unknown");
	snprintf(m->dimm_speed, sizeof(m->dimm_speed), "unknown");
	if (!read_dmi_table(root, &d))
		read_dmi_entries(root, &d);
	if (d.type)
		snprintf(m->dimm_type, sizeof(m->dimm_type), "%s%s", d.type,
			 d.mixed ? " (mixed)" : "");
	if (d.slowest)
		snprintf(m->dimm_speed, sizeof(m->dimm_speed), "%u MT/s",
			 d.slowest);
}

/* read_mem_total - MemTotal in bytes, 0 when unreadable. */
static uint64_t read_mem_total(void)
{
	char path[1024], line[256];
	unsigned long long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/meminfo", cal_procfs_root());
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

/* read_smt - 1 on, 0 off, -1 unknown. */
static int read_smt(void)
{
	struct memcal_topology t;
	struct memcal_platform p;
	char buf[32], err[256];
	int smt = -1;

	if (!cal_read_text(memcal_platform_sysfs_root(),
		       "devices/system/cpu/smt/active", buf, sizeof(buf)) &&
	    (!strcmp(buf, "0") || !strcmp(buf, "1")))
		return buf[0] == '1';
	if (memcal_platform_topology_load(&t, NULL, err, sizeof(err)))
		return smt;
	if (!memcal_platform_describe(&t, &p)) {
		if (p.cores > 0 && p.pus > 0)
			smt = p.pus > p.cores;
		memcal_db_platform_free(&p);
	}
	memcal_platform_topology_free(&t);
	return smt;
}

/**
 * tune_machine_probe() - this machine's items, read through the replay
 * roots; what cannot be read stays unknown ("", 0, -1, "unknown").
 * @m->memreg_version is the loaded memreg's ("" when none is loaded).
 */
void tune_machine_probe(struct tune_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->present = true;
	read_cpuinfo(m);
	read_midrs(m);
	read_kinds(m);
	read_dimms(m);
	m->mem_bytes = read_mem_total();
	m->smt = read_smt();
	if (cal_read_text(cal_procfs_root(), "sys/kernel/osrelease", m->kernel,
		      sizeof(m->kernel)))
		m->kernel[0] = '\0';
	if (cal_read_text(memcal_platform_sysfs_root(), "module/memreg/version",
		      m->memreg_version, sizeof(m->memreg_version)))
		m->memreg_version[0] = '\0';
}

/* cpu_json - one CPU's identity, x86 or Arm fields as it has them. */
static json_t *cpu_json(const struct tune_machine_cpu *p)
{
	json_t *o = json_pack("{s:i,s:s,s:s}", "cpu", p->cpu, "kind", p->kind,
			      "pmu", p->pmu);

	if (!o)
		return NULL;
	if (p->vendor[0] || p->family)
		json_object_update_new(o, json_pack("{s:s,s:i,s:i,s:i}",
			"vendor", p->vendor, "family", (int)p->family, "model",
			(int)p->model, "stepping", (int)p->stepping));
	else
		json_object_update_new(o, json_pack("{s:i,s:i,s:i,s:i}",
			"implementer", (int)p->implementer, "part",
			(int)p->part, "variant", (int)p->variant, "revision",
			(int)p->revision));
	return o;
}

/** tune_machine_to_json() - provenance.machine; NULL when out of memory. */
json_t *tune_machine_to_json(const struct tune_machine *m)
{
	json_t *cpus = json_array();

	for (int i = 0; cpus && i < m->n_cpus; i++)
		json_array_append_new(cpus, cpu_json(&m->cpus[i]));
	return json_pack("{s:o,s:{s:o,s:s,s:s},s:o,s:s,s:s}",
		"cpus", cpus ? cpus : json_array(),
		"memory", "total_bytes", m->mem_bytes ?
		json_integer((json_int_t)m->mem_bytes) : json_null(),
		"dimm_type", m->dimm_type[0] ? m->dimm_type : "unknown",
		"dimm_speed", m->dimm_speed[0] ? m->dimm_speed : "unknown",
		"smt", m->smt < 0 ? json_null() : json_boolean(m->smt),
		"kernel", m->kernel, "memreg_version", m->memreg_version);
}

/** tune_machine_bw_json() - provenance.bandwidth. */
json_t *tune_machine_bw_json(const struct tune_machine *m)
{
	return json_pack("{s:f,s:s,s:i,s:s,s:I}", "read_bps", m->bw_read_bps,
			 "cpus", m->bw_cpus, "n_cpus", m->bw_n_cpus, "variant",
			 m->bw_variant, "buffer_bytes",
			 (json_int_t)m->bw_buffer_bytes);
}

/* get_uint - @o's member @key as a whole number >= 0 into @v (absent: 0). */
static int get_uint(json_t *o, const char *key, unsigned *v)
{
	json_t *j = json_object_get(o, key);

	*v = 0;
	if (!j)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
	    json_integer_value(j) > 0xffffffffLL)
		return MEMCAL_ESYNTAX;
	*v = (unsigned)json_integer_value(j);
	return 0;
}

/* get_str - @o's member @key into @buf ("" when absent, refused when not
 * a string). */
static int get_str(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *j = json_object_get(o, key);

	buf[0] = '\0';
	if (!j || json_is_null(j))
		return 0;
	if (!json_is_string(j))
		return MEMCAL_ESYNTAX;
	snprintf(buf, len, "%s", json_string_value(j));
	return 0;
}

/* read_cpu - one provenance.machine.cpus entry. */
static int read_cpu(json_t *o, struct tune_machine_cpu *p)
{
	json_t *cpu = json_object_get(o, "cpu");

	if (!json_is_object(o) || !json_is_integer(cpu) ||
	    json_integer_value(cpu) < 0 || json_integer_value(cpu) > 4095)
		return MEMCAL_ESYNTAX;
	p->cpu = (int)json_integer_value(cpu);
	return get_str(o, "kind", p->kind, sizeof(p->kind)) ||
	       get_str(o, "pmu", p->pmu, sizeof(p->pmu)) ||
	       get_str(o, "vendor", p->vendor, sizeof(p->vendor)) ||
	       get_uint(o, "family", &p->family) ||
	       get_uint(o, "model", &p->model) ||
	       get_uint(o, "stepping", &p->stepping) ||
	       get_uint(o, "implementer", &p->implementer) ||
	       get_uint(o, "part", &p->part) ||
	       get_uint(o, "variant", &p->variant) ||
	       get_uint(o, "revision", &p->revision) ? MEMCAL_ESYNTAX : 0;
}

/* read_machine - provenance.machine into @m; 0 or MEMCAL_ESYNTAX. */
static int read_machine(json_t *j, struct tune_machine *m)
{
	json_t *cpus = json_object_get(j, "cpus"), *mem, *v, *smt;
	size_t i;

	if (!json_is_object(j) || !json_is_array(cpus) ||
	    json_array_size(cpus) > TUNE_MACHINE_MAX_CPUS)
		return MEMCAL_ESYNTAX;
	json_array_foreach(cpus, i, v) {
		if (read_cpu(v, &m->cpus[m->n_cpus]))
			return MEMCAL_ESYNTAX;
		m->n_cpus++;
	}
	mem = json_object_get(j, "memory");
	v = json_object_get(mem, "total_bytes");
	if (mem && !json_is_object(mem))
		return MEMCAL_ESYNTAX;
	if (v && !json_is_null(v)) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return MEMCAL_ESYNTAX;
		m->mem_bytes = (uint64_t)json_integer_value(v);
	}
	smt = json_object_get(j, "smt");
	if (smt && !json_is_null(smt) && !json_is_boolean(smt))
		return MEMCAL_ESYNTAX;
	m->smt = json_is_boolean(smt) ? json_is_true(smt) : -1;
	if (get_str(mem, "dimm_type", m->dimm_type, sizeof(m->dimm_type)) ||
	    get_str(mem, "dimm_speed", m->dimm_speed, sizeof(m->dimm_speed)) ||
	    get_str(j, "kernel", m->kernel, sizeof(m->kernel)) ||
	    get_str(j, "memreg_version", m->memreg_version,
		    sizeof(m->memreg_version)))
		return MEMCAL_ESYNTAX;
	return 0;
}

/**
 * tune_machine_from_json() - provenance.machine @machine and
 * provenance.bandwidth @bw (each may be NULL: an older document) into @m.
 * Return: 0, or MEMCAL_ESYNTAX with @err naming the malformed object.
 */
int tune_machine_from_json(json_t *machine, json_t *bw, struct tune_machine *m,
			   char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->smt = -1;
	if (machine) {
		if (read_machine(machine, m)) {
			snprintf(err, errlen, "the tuned configuration's "
				 "provenance.machine is malformed");
			return MEMCAL_ESYNTAX;
		}
		m->present = true;
	}
	if (bw) {
		json_t *r = json_object_get(bw, "read_bps");
		json_t *n = json_object_get(bw, "n_cpus");
		json_t *b = json_object_get(bw, "buffer_bytes");

		if (!json_is_number(r) || json_number_value(r) < 0 ||
		    !json_is_integer(n) || json_integer_value(n) < 0 ||
		    json_integer_value(n) > 4096 ||
		    (b && (!json_is_integer(b) || json_integer_value(b) < 0)) ||
		    get_str(bw, "cpus", m->bw_cpus, sizeof(m->bw_cpus)) ||
		    get_str(bw, "variant", m->bw_variant,
			    sizeof(m->bw_variant))) {
			snprintf(err, errlen, "the tuned configuration's "
				 "provenance.bandwidth is malformed");
			return MEMCAL_ESYNTAX;
		}
		m->bw_read_bps = json_number_value(r);
		m->bw_n_cpus = (int)json_integer_value(n);
		m->bw_buffer_bytes = b ? (uint64_t)json_integer_value(b) : 0;
	}
	return 0;
}
