// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_check.c - the judgements of 'memtune check' on injected figures
 * and machines (check.c, machine.c), without measuring anything: the
 * bandwidth tolerance either way, each machine item's pass, warn and fail,
 * an older configuration's "unknown", provenance.machine through its
 * JSON and back, and the probe on a recorded board with SMBIOS memory
 * devices of our own.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"

Test(check_bw, tolerance_either_way)
{
	struct tune_check_item it;

	tune_check_bw_verdict(&it, 10e9, 9.5e9, 10, "0-1", 0);
	cr_assert_eq(it.verdict, TUNE_CHECK_PASS, "%s", it.reason);
	cr_assert(strstr(it.reason, "within 10 % of the calibration's 10.00 "
			 "GB/s (-5 %)"), "%s", it.reason);
	tune_check_bw_verdict(&it, 10e9, 9.0e9, 10, "0-1", 0);
	cr_assert_eq(it.verdict, TUNE_CHECK_PASS, "on the bound: %s", it.reason);
	tune_check_bw_verdict(&it, 10e9, 8.9e9, 10, "0-3", 0);
	cr_assert_eq(it.verdict, TUNE_CHECK_FAIL, "%s", it.reason);
	cr_assert(strstr(it.reason, "read bandwidth on CPUs 0-3 is 8.90 GB/s, "
			 "11 % below the calibration's 10.00 GB/s (tolerance "
			 "10 %)"), "%s", it.reason);
	cr_assert_null(strstr(it.reason, "other programs"), "%s", it.reason);
	tune_check_bw_verdict(&it, 10e9, 11.5e9, 10, "0-1", 0);
	cr_assert_eq(it.verdict, TUNE_CHECK_WARN, "%s", it.reason);
	cr_assert(strstr(it.reason, "15 % above"), "%s", it.reason);
	/* the same figures within a wider tolerance */
	tune_check_bw_verdict(&it, 10e9, 8.9e9, 25, "0-1", 0);
	cr_assert_eq(it.verdict, TUNE_CHECK_PASS, "%s", it.reason);
	/* a third of the figure fails, and a busy machine is named */
	tune_check_bw_verdict(&it, 30e9, 10e9, 10, "0-1", 0.4);
	cr_assert_eq(it.verdict, TUNE_CHECK_FAIL, "%s", it.reason);
	cr_assert(strstr(it.reason, "67 % below") &&
		  strstr(it.reason, "other programs used 40 %"), "%s",
		  it.reason);
	cr_assert_str_eq(it.name, "bandwidth");
}

/* arm - an Arm CPU. */
static struct tune_machine_cpu arm(int cpu, const char *kind, unsigned part,
				   unsigned variant, const char *pmu)
{
	struct tune_machine_cpu c = { .cpu = cpu, .implementer = 0x41,
				      .part = part, .variant = variant };

	snprintf(c.kind, sizeof(c.kind), "%s", kind);
	snprintf(c.pmu, sizeof(c.pmu), "%s", pmu);
	return c;
}

/* rk3588 - the machine items of an RK3588 (4 A55 r2p0, 4 A76 r4p0). */
static void rk3588(struct tune_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->present = true;
	for (int i = 0; i < 8; i++)
		m->cpus[m->n_cpus++] = i < 4 ?
			arm(i, "Cortex-A55", 0xd05, 2, "armv8_cortex_a55") :
			arm(i, "Cortex-A76", 0xd0b, 4, "armv8_cortex_a76");
	m->mem_bytes = 16ull << 30;
	snprintf(m->dimm_type, sizeof(m->dimm_type), "LPDDR4");
	snprintf(m->dimm_speed, sizeof(m->dimm_speed), "4224 MT/s");
	m->smt = 0;
	snprintf(m->kernel, sizeof(m->kernel), "6.1.0-rockchip");
	snprintf(m->memreg_version, sizeof(m->memreg_version), "0.1.0");
}

/* compare - @c's machine against @here; the outcome (static). */
static struct tune_check *compare(const struct tune_config *c,
				  const struct tune_machine *here)
{
	static struct tune_check r;

	memset(&r, 0, sizeof(r));
	tune_check_compare(c, here, "0.1.0", &r);
	return &r;
}

static struct tune_config cfg;
static struct tune_machine here;

/* on_rk3588 - the pmus item reads the PMUs the recorded board registers. */
static void on_rk3588(void)
{
	setenv("MEMCAL_SYSFS_ROOT", MEMCAL_SOURCE_DIR
	       "/tests/fixtures/boards/rk3588/sys", 1);
}

TestSuite(check_machine, .init = on_rk3588);

Test(check_machine, same_board_passes)
{
	struct tune_check *r;

	rk3588(&cfg.machine);
	rk3588(&here);
	r = compare(&cfg, &here);
	for (int i = 0; i < TUNE_NR_ITEMS; i++)
		if (i != TUNE_ITEM_EVENTS && i != TUNE_ITEM_BANDWIDTH)
			cr_assert_eq(r->items[i].verdict, TUNE_CHECK_PASS,
				     "%s: %s", r->items[i].name,
				     r->items[i].reason);
	cr_assert(strstr(r->items[TUNE_ITEM_CPU_KINDS].reason, "Cortex-A55 "
			 "r2p0 (MIDR implementer 0x41 part 0xd05) on CPUs "
			 "0-3, Cortex-A76 r4p0"), "%s",
		  r->items[TUNE_ITEM_CPU_KINDS].reason);
}

Test(check_machine, another_core_fails_naming_cpu_and_kind)
{
	struct tune_check *r;

	rk3588(&cfg.machine);
	rk3588(&here);
	here.cpus[4] = arm(4, "Cortex-A55", 0xd05, 2, "armv8_cortex_a55");
	r = compare(&cfg, &here);
	cr_assert_eq(r->items[TUNE_ITEM_CPU_KINDS].verdict, TUNE_CHECK_FAIL);
	cr_assert_str_eq(r->items[TUNE_ITEM_CPU_KINDS].reason, "CPU 4 is "
			 "Cortex-A55 r2p0 (MIDR implementer 0x41 part 0xd05), "
			 "the configuration was tuned for Cortex-A76 r4p0 "
			 "(MIDR implementer 0x41 part 0xd0b) on CPUs 4-7: "
			 "re-tune on this board type (memcal run, memtune "
			 "plan)");
	/* and its PMU serves other CPUs */
	cr_assert_eq(r->items[TUNE_ITEM_PMUS].verdict, TUNE_CHECK_FAIL, "%s",
		     r->items[TUNE_ITEM_PMUS].reason);
}

Test(check_machine, another_revision_warns)
{
	struct tune_check *r;

	rk3588(&cfg.machine);
	rk3588(&here);
	here.cpus[5].variant = 3;
	r = compare(&cfg, &here);
	cr_assert_eq(r->items[TUNE_ITEM_CPU_KINDS].verdict, TUNE_CHECK_WARN);
	cr_assert(strstr(r->items[TUNE_ITEM_CPU_KINDS].reason, "CPU 5 is "
			 "Cortex-A76 r3p0"), "%s",
		  r->items[TUNE_ITEM_CPU_KINDS].reason);
}

Test(check_machine, missing_cpu_and_x86_identity)
{
	struct tune_machine_cpu x = { .cpu = 0, .family = 6, .model = 143,
				      .stepping = 8 };
	struct tune_check *r;

	memset(&cfg.machine, 0, sizeof(cfg.machine));
	memset(&here, 0, sizeof(here));
	cfg.machine.present = here.present = true;
	snprintf(x.vendor, sizeof(x.vendor), "GenuineIntel");
	for (int i = 0; i < 4; i++) {
		x.cpu = i;
		cfg.machine.cpus[cfg.machine.n_cpus++] = x;
		if (i < 2)
			here.cpus[here.n_cpus++] = x;
	}
	r = compare(&cfg, &here);
	cr_assert_eq(r->items[TUNE_ITEM_CPU_KINDS].verdict, TUNE_CHECK_FAIL);
	cr_assert(strstr(r->items[TUNE_ITEM_CPU_KINDS].reason, "CPU 2 is "
			 "absent, the configuration was tuned for "
			 "(GenuineIntel family 6 model 143 stepping 8) on "
			 "CPUs 0-3"), "%s", r->items[TUNE_ITEM_CPU_KINDS].reason);
	/* another stepping of the same model warns */
	here.cpus[here.n_cpus++] = x;
	here.cpus[here.n_cpus - 1].cpu = 2;
	here.cpus[here.n_cpus++] = x;
	here.cpus[here.n_cpus - 1].cpu = 3;
	here.cpus[3].stepping = 9;
	r = compare(&cfg, &here);
	cr_assert_eq(r->items[TUNE_ITEM_CPU_KINDS].verdict, TUNE_CHECK_WARN,
		     "%s", r->items[TUNE_ITEM_CPU_KINDS].reason);
}

Test(check_machine, memory_smt_kernel_memreg)
{
	struct tune_check *r;

	rk3588(&cfg.machine);
	rk3588(&here);
	here.mem_bytes = 8ull << 30;
	snprintf(here.dimm_speed, sizeof(here.dimm_speed), "3200 MT/s");
	here.smt = 1;
	snprintf(here.kernel, sizeof(here.kernel), "6.6.0");
	snprintf(here.memreg_version, sizeof(here.memreg_version), "0.2.0");
	r = compare(&cfg, &here);
	cr_assert_eq(r->items[TUNE_ITEM_MEM_SIZE].verdict, TUNE_CHECK_WARN);
	cr_assert(strstr(r->items[TUNE_ITEM_MEM_SIZE].reason, "this unit has "
			 "8.0 GiB, the configuration was tuned with 16.0 GiB"));
	cr_assert_eq(r->items[TUNE_ITEM_MEM_TYPE].verdict, TUNE_CHECK_FAIL);
	cr_assert(strstr(r->items[TUNE_ITEM_MEM_TYPE].reason, "runs at 3200 "
			 "MT/s, the configuration was tuned at 4224 MT/s"));
	cr_assert_eq(r->items[TUNE_ITEM_SMT].verdict, TUNE_CHECK_FAIL);
	cr_assert(strstr(r->items[TUNE_ITEM_SMT].reason, "SMT is on on this "
			 "unit, the configuration was tuned with SMT off"));
	cr_assert_eq(r->items[TUNE_ITEM_KERNEL].verdict, TUNE_CHECK_WARN);
	cr_assert_eq(r->items[TUNE_ITEM_MEMREG].verdict, TUNE_CHECK_FAIL);
	cr_assert(strstr(r->items[TUNE_ITEM_MEMREG].reason, "memreg 0.2.0 is "
			 "loaded, the configuration was made for memreg 0.1.0"));

	/* faster memory warns; another type fails; unknown here warns */
	rk3588(&here);
	snprintf(here.dimm_speed, sizeof(here.dimm_speed), "6400 MT/s");
	cr_assert_eq(compare(&cfg, &here)->items[TUNE_ITEM_MEM_TYPE].verdict,
		     TUNE_CHECK_WARN);
	snprintf(here.dimm_type, sizeof(here.dimm_type), "LPDDR5");
	cr_assert_eq(compare(&cfg, &here)->items[TUNE_ITEM_MEM_TYPE].verdict,
		     TUNE_CHECK_FAIL);
	snprintf(here.dimm_type, sizeof(here.dimm_type), "unknown");
	snprintf(here.dimm_speed, sizeof(here.dimm_speed), "unknown");
	cr_assert_eq(compare(&cfg, &here)->items[TUNE_ITEM_MEM_TYPE].verdict,
		     TUNE_CHECK_WARN);
	/* memreg not loaded: the version this memtune goes with */
	here.memreg_version[0] = '\0';
	cr_assert_eq(compare(&cfg, &here)->items[TUNE_ITEM_MEMREG].verdict,
		     TUNE_CHECK_PASS);
	snprintf(cfg.machine.memreg_version, sizeof(cfg.machine.memreg_version),
		 "0.0.9");
	cr_assert_eq(compare(&cfg, &here)->items[TUNE_ITEM_MEMREG].verdict,
		     TUNE_CHECK_WARN);
}

Test(check_machine, no_provenance_is_unknown_never_pass)
{
	struct tune_check *r;

	memset(&cfg.machine, 0, sizeof(cfg.machine));
	cfg.machine.smt = -1;
	rk3588(&here);
	r = compare(&cfg, &here);
	for (int i = 0; i < TUNE_NR_ITEMS; i++) {
		if (i == TUNE_ITEM_EVENTS || i == TUNE_ITEM_BANDWIDTH)
			continue;
		cr_assert_eq(r->items[i].verdict, TUNE_CHECK_WARN, "%s: %s",
			     r->items[i].name, r->items[i].reason);
		cr_assert(strstr(r->items[i].reason, "unknown"), "%s",
			  r->items[i].reason);
	}
}

Test(check_machine, provenance_round_trip)
{
	struct tune_machine back;
	char err[256];
	json_t *j, *bw;

	rk3588(&cfg.machine);
	cfg.machine.bw_read_bps = 12.5e9;
	cfg.machine.bw_n_cpus = 8;
	snprintf(cfg.machine.bw_cpus, sizeof(cfg.machine.bw_cpus), "0-7");
	snprintf(cfg.machine.bw_variant, sizeof(cfg.machine.bw_variant), "neon");
	cfg.machine.bw_buffer_bytes = 1ull << 30;
	j = tune_machine_to_json(&cfg.machine);
	bw = tune_machine_bw_json(&cfg.machine);
	cr_assert(j && bw);
	cr_assert_eq(tune_machine_from_json(j, bw, &back, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(memcmp(&back, &cfg.machine, sizeof(back)), 0);
	/* an older document: nothing, unknown */
	cr_assert_eq(tune_machine_from_json(NULL, NULL, &back, err,
					    sizeof(err)), 0);
	cr_assert_not(back.present);
	cr_assert_eq(back.smt, -1);
	/* a malformed one is refused, naming the object */
	json_object_set_new(j, "smt", json_string("yes"));
	cr_assert_neq(tune_machine_from_json(j, bw, &back, err, sizeof(err)),
		      0);
	cr_assert(strstr(err, "provenance.machine"), "%s", err);
	json_object_set_new(bw, "read_bps", json_string("fast"));
	json_object_del(j, "smt");
	cr_assert_neq(tune_machine_from_json(j, bw, &back, err, sizeof(err)),
		      0);
	cr_assert(strstr(err, "provenance.bandwidth"), "%s", err);
	json_decref(j);
	json_decref(bw);
}

/* put_raw - an SMBIOS type 17 entry @name under @root: @mib MiB of @type
 * at @speed MT/s (configured speed the same). */
static void put_raw(const char *root, const char *name, unsigned mib,
		    unsigned type, unsigned speed)
{
	unsigned char raw[0x28 + 2] = { 17, 0x28 };
	char path[512];
	FILE *f;

	raw[0x0c] = mib & 0xff;
	raw[0x0d] = (unsigned char)(mib >> 8);
	raw[0x12] = (unsigned char)type;
	raw[0x15] = raw[0x20] = speed & 0xff;
	raw[0x16] = raw[0x21] = (unsigned char)(speed >> 8);
	snprintf(path, sizeof(path), "%s/firmware/dmi/entries/%s", root, name);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
	strcat(path, "/raw");
	f = fopen(path, "wb");
	cr_assert(f);
	cr_assert_eq(fwrite(raw, 1, sizeof(raw), f), sizeof(raw));
	fclose(f);
}

/* dev17 - a type 17 structure at @p with strings after it; its size. */
static size_t dev17(unsigned char *p, unsigned mib, unsigned type,
		    unsigned speed)
{
	memset(p, 0, 0x28);
	p[0] = 17;
	p[1] = 0x28;
	p[0x0c] = mib & 0xff;
	p[0x0d] = (unsigned char)(mib >> 8);
	p[0x12] = (unsigned char)type;
	p[0x15] = p[0x20] = speed & 0xff;
	p[0x16] = p[0x21] = (unsigned char)(speed >> 8);
	memcpy(p + 0x28, "DIMM A\0BANK 0\0", 15);
	return 0x28 + 15;
}

/* put_table - @root/firmware/dmi/tables/DMI: a BIOS structure, DDR5 at
 * 5600 and 4800 MT/s, an empty slot, the end. */
static void put_table(const char *root)
{
	unsigned char t[512] = { 0, 0x18 };
	char path[512];
	size_t n = 0x18;
	FILE *f;

	memcpy(t + n, "vendor\0\0", 8);
	n += 8;
	n += dev17(t + n, 16384, 0x22, 5600);
	n += dev17(t + n, 16384, 0x22, 4800);
	n += dev17(t + n, 0, 0x02, 0);
	t[n] = 127;
	t[n + 1] = 4;
	n += 6;
	snprintf(path, sizeof(path), "%s/firmware/dmi/tables", root);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
	strcat(path, "/DMI");
	f = fopen(path, "wb");
	cr_assert(f);
	cr_assert_eq(fwrite(t, 1, n, f), n);
	fclose(f);
}

Test(check_probe, a_recorded_board_and_its_memory_devices)
{
	static struct tune_machine m;
	char root[] = "/tmp/memtune-check-XXXXXX", path[512];

	setenv("MEMCAL_PROCFS_ROOT", MEMCAL_SOURCE_DIR
	       "/tests/fixtures/boards/rk3588/proc", 1);
	setenv("HWLOC_XMLFILE", MEMCAL_SOURCE_DIR
	       "/tests/fixtures/boards/rk3588/topology.xml", 1);
	cr_assert(mkdtemp(root));
	/* the recorded board's PMUs, and a firmware table of our own */
	snprintf(path, sizeof(path), "cp -r %s/tests/fixtures/boards/rk3588/"
		 "sys/. %s/ && mkdir -p %s/firmware/dmi/entries",
		 MEMCAL_SOURCE_DIR, root, root);
	cr_assert_eq(system(path), 0);
	put_raw(root, "17-0", 4096, 0x1e, 4224);
	put_raw(root, "17-1", 4096, 0x1e, 3733);
	put_raw(root, "17-2", 0, 0x02, 0);	/* an empty slot */
	setenv("MEMCAL_SYSFS_ROOT", root, 1);
	tune_machine_probe(&m);
	cr_assert(m.present);
	cr_assert_eq(m.n_cpus, 8);
	cr_assert_str_eq(m.cpus[4].kind, "Cortex-A76");
	cr_assert_str_eq(m.cpus[4].pmu, "armv8_cortex_a76");
	cr_assert_eq(m.cpus[4].part, 0xd0b);
	cr_assert_eq(m.cpus[4].variant, 4);
	cr_assert_str_eq(m.cpus[0].kind, "Cortex-A55");
	cr_assert_eq(m.cpus[0].variant, 2);
	cr_assert_str_eq(m.dimm_type, "LPDDR4");
	cr_assert_str_eq(m.dimm_speed, "3733 MT/s", "the slowest populated");
	cr_assert_eq(m.smt, 0, "8 cores, 8 CPUs in the recorded topology");
	cr_assert_eq(m.mem_bytes, 0, "no meminfo recorded: unknown");
	cr_assert_str_eq(m.kernel, "");
	cr_assert_str_eq(m.memreg_version, "");

	/* the whole table, as dmidecode reads it, is preferred */
	put_table(root);
	tune_machine_probe(&m);
	cr_assert_str_eq(m.dimm_type, "DDR5");
	cr_assert_str_eq(m.dimm_speed, "4800 MT/s");
	snprintf(path, sizeof(path), "rm -rf %s", root);
	cr_assert_eq(system(path), 0);
}

Test(check_machine, a_pmu_number_that_names_another_pmu_here)
{
	static struct tune_config c;
	static struct tune_check r;

	rk3588(&c.machine);
	c.period_us = 1000;
	c.n_cpus = 1;
	c.cpus[0].cpu = 4;
	c.cpus[0].regulated = true;
	/* the A55's type on the recorded board (8); CPU 4 is an A76 (9) */
	snprintf(c.cpus[0].event[0], sizeof(c.cpus[0].event[0]), "8:0x2a");
	snprintf(c.cpus[0].event[1], sizeof(c.cpus[0].event[1]), "none");
	tune_check_events(&c, &r);
	cr_assert_eq(r.items[TUNE_ITEM_EVENTS].verdict, TUNE_CHECK_FAIL);
	cr_assert(strstr(r.items[TUNE_ITEM_EVENTS].reason, "cpu 4 read event "
			 "'8:0x2a': names perf type 8, but armv8_cortex_a76, "
			 "the PMU the configuration counts this CPU with, is "
			 "type 9 on this unit"), "%s",
		  r.items[TUNE_ITEM_EVENTS].reason);
	/* the right number gets past this (to the open, on a CPU this
	 * machine may not have) */
	snprintf(c.cpus[0].event[0], sizeof(c.cpus[0].event[0]), "9:0x2a");
	memset(&r, 0, sizeof(r));
	tune_check_events(&c, &r);
	cr_assert_null(strstr(r.items[TUNE_ITEM_EVENTS].reason, "names perf "
			      "type"), "%s", r.items[TUNE_ITEM_EVENTS].reason);
}

Test(check_probe, an_x86_board_family_model_stepping)
{
	static struct tune_machine m;

	setenv("MEMCAL_SYSFS_ROOT", MEMCAL_SOURCE_DIR
	       "/tests/fixtures/boards/zen4/sys", 1);
	setenv("MEMCAL_PROCFS_ROOT", MEMCAL_SOURCE_DIR
	       "/tests/fixtures/boards/zen4/proc", 1);
	setenv("HWLOC_XMLFILE", MEMCAL_SOURCE_DIR
	       "/tests/fixtures/boards/zen4/topology.xml", 1);
	tune_machine_probe(&m);
	cr_assert_gt(m.n_cpus, 1);
	cr_assert_str_eq(m.cpus[1].vendor, "AuthenticAMD");
	cr_assert_eq(m.cpus[1].family, 25);
	cr_assert_eq(m.cpus[1].model, 17, "'model name' is not 'model'");
	cr_assert_eq(m.cpus[1].stepping, 1);
}
