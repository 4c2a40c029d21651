// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pmu.c - PMU event tables and discovery: every family has read and
 * write candidates, every x86 candidate is an event libpfm4 can encode
 * (each PMU forced with LIBPFM_FORCE_PMU), family lookup, the
 * bytes-per-event error, and discovery on a machine without a PMU.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "pmu.h"
#include "memcal_platform.h"

Test(pmu, every_family_has_read_and_write_candidates)
{
	for (size_t f = 0; f < cal_pmu_n_families; f++) {
		const struct memcal_pmu_family *fam = &cal_pmu_families[f];
		int rd = 0, wr = 0;

		for (size_t i = 0; i < fam->n_events; i++) {
			const struct memcal_pmu_candidate *c = &fam->events[i];

			cr_expect(c->event || c->has_raw, "%s[%zu]", fam->name, i);
			rd += !strcmp(c->traffic, "read");
			wr += !strcmp(c->traffic, "write");
		}
		cr_expect_geq(rd, 1, "%s has a read event", fam->name);
		/* Intel's architectural PMU defines no write-back event. */
		if (strcmp(fam->name, "intel_arch"))
			cr_expect_geq(wr, 1, "%s has a write event",
				      fam->name);
	}
}

Test(pmu, x86_table_events_encode_with_libpfm4)
{
	for (size_t f = 0; f < cal_pmu_n_families; f++) {
		const struct memcal_pmu_family *fam = &cal_pmu_families[f];

		if (fam->arm_part || !fam->events[0].event)
			continue;	/* Arm PMUs are not built into x86
					 * libpfm4; raw-only families have no
					 * names to check */
		for (size_t p = 0; fam->pfm_names[p]; p++) {
			setenv("LIBPFM_FORCE_PMU", fam->pfm_names[p], 1);
			pfm_terminate();
			cr_assert_eq(pfm_initialize(), PFM_SUCCESS);
			for (size_t i = 0; i < fam->n_events; i++) {
				struct perf_event_attr attr;
				pfm_perf_encode_arg_t arg;
				char full[256];
				int rc;

				memset(&attr, 0, sizeof(attr));
				memset(&arg, 0, sizeof(arg));
				arg.attr = &attr;
				arg.size = sizeof(arg);
				snprintf(full, sizeof(full), "%s::%s",
					 fam->pfm_names[p], fam->events[i].event);
				rc = pfm_get_os_event_encoding(full, PFM_PLM3,
							       PFM_OS_PERF_EVENT,
							       &arg);
				cr_expect_eq(rc, PFM_SUCCESS, "%s: %s", full,
					     pfm_strerror(rc));
			}
		}
	}
	unsetenv("LIBPFM_FORCE_PMU");
}

Test(pmu, family_lookup)
{
	cr_expect_str_eq(cal_pmu_family_find(NULL, 0xd03)->name, "arm_ac53");
	cr_expect_str_eq(cal_pmu_family_find(NULL, 0xd08)->name, "arm_ac72");
	cr_expect_str_eq(cal_pmu_family_find(NULL, 0xd0b)->name, "arm_ac76");
	/* the further Arm cores of pmu_tables_arm.c */
	cr_expect_str_eq(cal_pmu_family_find(NULL, 0xd05)->name, "arm_ac55");
	cr_expect_str_eq(cal_pmu_family_find(NULL, 0xd41)->name, "arm_ac78");
	cr_expect_str_eq(cal_pmu_family_find("skx", 0)->name, "intel_core");
	cr_expect_str_eq(cal_pmu_family_find("amd64_fam19h_zen3", 0)->name,
			 "amd_zen3");
	cr_expect_null(cal_pmu_family_find("netburst", 0));
	cr_expect_null(cal_pmu_family_find(NULL, 0));
}

Test(pmu, bytes_per_event_error_is_distance_to_a_transfer_size)
{
	cr_expect_float_eq(cal_pmu_error_pct(64), 0, 1e-12);
	cr_expect_float_eq(cal_pmu_error_pct(60), 6.25, 1e-9);
	cr_expect_float_eq(cal_pmu_error_pct(16.4), 2.5, 1e-9);
	cr_expect_float_eq(cal_pmu_error_pct(48), 25, 1e-9);
	cr_expect_float_eq(cal_pmu_error_pct(0), 100, 1e-12);
}

Test(pmu, discovery_without_a_pmu_says_so)
{
	struct memcal_pmu_report r;
	char root[] = "/tmp/memcal-sysfs-XXXXXX", path[256];

	if (access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
	    access("/sys/bus/event_source/devices/armv8_pmuv3_0", F_OK) == 0)
		cr_skip_test("this machine has a hardware PMU");
	cr_assert_not_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/bus", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/fakesoftware",
		 root);
	mkdir(path, 0755);
	setenv("MEMCAL_SYSFS_ROOT", root, 1);
	cr_assert_eq(cal_pmu_discover(&r), 0);
	cr_expect_not(r.status.available);
	cr_expect_neq(r.status.message[0], '\0');
	if (r.family) {
		cr_expect(strstr(r.status.message, "no hardware PMU") != NULL,
			  "%s", r.status.message);
		cr_expect(strstr(r.status.message, "fakesoftware") != NULL,
			  "%s", r.status.message);
		for (size_t i = 0; i < r.n_events; i++)
			cr_expect_not(r.events[i].opened);
	}
	cr_expect_eq(cal_pmu_validate(&r, NULL, 0), MEMCAL_EUNSUPPORTED);
	cal_pmu_report_free(&r);
	unsetenv("MEMCAL_SYSFS_ROOT");
}

/*
 * fake_counter - a pipe standing in for a perf fd: each validation pass
 * reads one 64-bit count from it (the ioctls fail harmlessly on a pipe).
 */
static int fake_counter(uint64_t count, int passes)
{
	int p[2];

	cr_assert_eq(pipe(p), 0);
	for (int i = 0; i < passes; i++)
		cr_assert_eq(write(p[1], &count, sizeof(count)), sizeof(count));
	close(p[1]);
	return p[0];
}

Test(pmu, validation_measures_bytes_per_event_and_chooses)
{
	size_t bytes = 1 << 20;
	void *buf = aligned_alloc(64, bytes);
	struct memcal_pmu_event ev[4] = {
		{ .name = "lines", .traffic = "read", .opened = true },
		{ .name = "beats", .traffic = "read", .opened = true },
		{ .name = "odd", .traffic = "write", .opened = true },
		{ .name = "wb", .traffic = "write", .opened = true },
	};
	int fds[4];
	struct memcal_pmu_report r = { .status = { .available = true },
				       .events = ev, .n_events = 4, .fds = fds };

	fds[0] = fake_counter(bytes / 64, 3);		/* 64 B per event */
	fds[1] = fake_counter(bytes / 16 + 2000, 3);	/* ~15.5 B: 3 % off */
	fds[2] = fake_counter(bytes / 48, 3);		/* 48 B: no size */
	fds[3] = fake_counter(bytes / 32, 3);		/* 32 B per event */
	cr_assert_not_null(buf);
	cr_assert_eq(cal_pmu_validate(&r, buf, bytes), 0);
	cr_expect_float_eq(ev[0].bytes_per_event, 64, 1e-9);
	cr_expect_float_eq(ev[0].error_pct, 0, 1e-9);
	cr_expect(ev[0].chosen, "exact line counter chosen for reads");
	cr_expect_not(ev[1].chosen);
	cr_expect_gt(ev[1].error_pct, 0);
	cr_expect_not(ev[2].chosen);
	cr_expect(strstr(ev[2].message, "not a transfer size") != NULL, "%s",
		  ev[2].message);
	cr_expect(ev[3].chosen, "the valid write counter is chosen");
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	free(buf);
}

/*
 * A perf type's PMU name, matched in bus/event_source/devices under the
 * sysfs root (the RK3588 board's: armv8_cortex_a55 8, armv8_cortex_a76
 * 9); a type no device has (RAW on Arm, hardware) gives "".
 */
Test(pmu, sysfs_name_of_a_type)
{
	char name[64] = "stale";

	setenv("MEMCAL_SYSFS_ROOT", MEMCAL_SOURCE_DIR "/tests/fixtures/boards/rk3588/sys", 1);
	cal_pmu_sysfs_name(9, name, sizeof(name));
	cr_expect_str_eq(name, "armv8_cortex_a76");
	cal_pmu_sysfs_name(8, name, sizeof(name));
	cr_expect_str_eq(name, "armv8_cortex_a55");
	cal_pmu_sysfs_name(4, name, sizeof(name));
	cr_expect_str_empty(name, "RAW is no device's type on this board");
	setenv("MEMCAL_SYSFS_ROOT", "/nonexistent-sys", 1);
	cal_pmu_sysfs_name(9, name, sizeof(name));
	cr_expect_str_empty(name);
	unsetenv("MEMCAL_SYSFS_ROOT");
}
